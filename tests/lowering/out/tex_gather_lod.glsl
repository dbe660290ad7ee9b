#version 450 core
// glpipe: lowered from TGSI FRAG

layout(std140, binding = 52) uniform glp_fs_cb0
{
    vec4 c[1];
} cb0;
layout(binding = 0) uniform sampler2D glp_fs_samp0;
layout(binding = 1) uniform sampler2DShadow glp_fs_samp1;
layout(binding = 2) uniform usamplerCube glp_fs_samp2;
layout(binding = 3) uniform sampler2DArray glp_fs_samp3;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
in glp_generic_0_block { flat vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    uvec4 t4 = uvec4(0u);
    t0_0 = textureGather(glp_fs_samp0, glp_texcoord_0.xy);
    t1_0 = textureGatherOffset(glp_fs_samp0, glp_texcoord_0.xy, ivec2(-1, 1), 2);
    t2 = textureGatherOffset(glp_fs_samp0, glp_texcoord_0.xy, floatBitsToInt(cb0.c[0].xy), 3);
    t3 = textureGather(glp_fs_samp1, glp_texcoord_0.xy, glp_texcoord_0.z);
    t4 = textureGather(glp_fs_samp2, glp_texcoord_0.xyz, 1);
    t1_1.xy = textureQueryLod(glp_fs_samp0, glp_texcoord_0.xy);
    t1_1.zw = vec2(0.0);
    t2.xw = vec2(textureQueryLod(glp_fs_samp3, glp_texcoord_0.xy).x, 0.0);
    t0_1 = t0_0 + t1_1;
    t0_2 = t0_1 + t2;
    glp_frag_color_0 = t0_2 + t3;
    glp_frag_color_1 = uintBitsToFloat(t4);
}
