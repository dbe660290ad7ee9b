#version 330
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// A fragment shader mixing every resource kind at once: UBO, sampler, image, SSBO and
// default uniforms (checks that declarations of all files coexist).
layout(std140, binding = 1) uniform Globals { vec4 tint; float gain; };
layout(std430, binding = 2) buffer Stats { uint shaded; float energy; };
layout(binding = 3, rgba16f) uniform image2D u_accum;
uniform sampler2D u_tex;
uniform float u_bias;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec4 c = texture(u_tex, v_uv) * tint * gain + u_bias;
    ivec2 p = ivec2(gl_FragCoord.xy);
    imageStore(u_accum, p, imageLoad(u_accum, p) + c);
    atomicAdd(shaded, 1u);
    energy = c.r;
    frag = c;
}
