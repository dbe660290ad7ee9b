#version 430
#extension GL_ARB_shader_texture_image_samples : require
//! driver: virgl
// textureSamples / imageSamples (ARB_shader_texture_image_samples; softpipe lacks it).
uniform sampler2DMS u_ms;
uniform isampler2DMSArray u_msa;
layout(binding = 0, rgba8) uniform readonly image2DMS u_img;
out vec4 frag;
void main()
{
    int n = textureSamples(u_ms) + textureSamples(u_msa) + imageSamples(u_img);
    ivec2 p = ivec2(gl_FragCoord.xy);
    frag = texelFetch(u_ms, p, n - 1) + imageLoad(u_img, p, 0) + vec4(float(n));
}
