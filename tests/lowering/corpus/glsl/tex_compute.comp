#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Texture reads from compute: texelFetch, textureLod, textureSize; result into an SSBO.
layout(local_size_x = 8, local_size_y = 8) in;
uniform sampler2D u_src;
uniform usampler2D u_mask;
layout(std430) buffer Result { vec4 pixels[]; };
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(u_src, 0);
    vec4 c = texelFetch(u_src, p, 0);
    vec4 blurred = textureLod(u_src, (vec2(p) + 0.5) / vec2(size), 1.0);
    uint m = texelFetch(u_mask, p, 0).r;
    pixels[p.y * size.x + p.x] = m != 0u ? c : blurred;
}
