#version 330 core
// glpipe: lowered from TGSI FRAG

uniform isampler2D glp_fs_samp0;
uniform usampler1DArray glp_fs_samp1;
uniform sampler3D glp_fs_samp2;
uniform sampler2DRect glp_fs_samp3;
uniform usamplerBuffer glp_fs_samp4;
uniform sampler2DMS glp_fs_samp5;
uniform isampler2DMSArray glp_fs_samp6;

in glp_generic_0_block { flat vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    ivec4 t0_0 = ivec4(0);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t0_2 = uvec4(0u);
    uvec4 t0_3 = uvec4(0u);
    uvec4 t0_4 = uvec4(0u);
    uvec4 t0_5 = uvec4(0u);
    ivec4 t1 = ivec4(0);
    ivec4 t2 = ivec4(0);
    uvec4 t3 = uvec4(0u);
    vec4 t4 = vec4(0.0);
    uvec4 t5 = uvec4(0u);
    vec4 t6 = vec4(0.0);
    t0_0 = ivec4(glp_generic_0);
    t1 = texelFetch(glp_fs_samp0, t0_0.xy, t0_0.w);
    t2 = texelFetchOffset(glp_fs_samp0, t0_0.xy, t0_0.w, ivec2(1, -1));
    t3 = texelFetch(glp_fs_samp1, t0_0.xy, t0_0.w);
    t4 = texelFetch(glp_fs_samp2, t0_0.xyz, t0_0.w);
    t5.xy = floatBitsToUint(texelFetch(glp_fs_samp3, t0_0.xy).xy);
    t5.zw = texelFetch(glp_fs_samp4, t0_0.x).zw;
    t6 = texelFetch(glp_fs_samp5, t0_0.xy, t0_0.w);
    t4.y = intBitsToFloat(texelFetch(glp_fs_samp6, t0_0.xyz, t0_0.w).y);
    t1.xy = textureSize(glp_fs_samp3);
    t1.z = 0;
    t2.xyz = textureSize(glp_fs_samp2, t0_0.w);
    t3.xy = uvec2(textureSize(glp_fs_samp6).xy);
    t0_1 = uvec4(t0_0) ^ uvec4(t1);
    t0_2 = t0_1 ^ uvec4(t2);
    t0_3 = t0_2 ^ t3;
    t0_4 = t0_3 ^ floatBitsToUint(t4);
    t0_5 = t0_4 ^ t5;
    glp_frag_color_0 = uintBitsToFloat(t0_5);
    glp_frag_color_1 = t6 + intBitsToFloat(t2);
}
