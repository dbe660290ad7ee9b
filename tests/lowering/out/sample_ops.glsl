#version 450 core
// glpipe: lowered from TGSI FRAG

layout(binding = 0) uniform sampler2D glp_fs_samp0;
layout(binding = 1) uniform sampler2DArray glp_fs_samp1;
layout(binding = 2) uniform isampler2DMS glp_fs_samp2;
layout(binding = 3) uniform samplerCube glp_fs_samp3;
layout(binding = 13) uniform sampler2DShadow glp_fs_samp0_2;
layout(binding = 14) uniform sampler2D glp_fs_samp0_1;

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
    ivec4 t1_1 = ivec4(0);
    vec4 t2_0 = vec4(0.0);
    vec4 t2_1 = vec4(0.0);
    vec4 t3_0 = vec4(0.0);
    uvec4 t3_1 = uvec4(0u);
    vec4 t4 = vec4(0.0);
    vec4 t5 = vec4(0.0);
    t0_0 = texture(glp_fs_samp0, glp_texcoord_0.xy);
    t1_0 = textureOffset(glp_fs_samp0_1, glp_texcoord_0.xy, ivec2(1, -1)).wzyx;
    t2_0 = texture(glp_fs_samp1, glp_texcoord_0.xyz, -0.25);
    t3_0 = textureLod(glp_fs_samp1, glp_texcoord_0.xyz, 0.5);
    t4.x = texture(glp_fs_samp0_2, vec3(glp_texcoord_0.xy, 0.5));
    t4.y = textureLod(glp_fs_samp0_2, vec3(glp_texcoord_0.xy, 1.0), 0.0);
    t5 = textureGrad(glp_fs_samp3, glp_texcoord_0.xyz, glp_texcoord_0.yzx, glp_texcoord_0.zxy);
    t1_1 = ivec4(uvec4(glp_generic_0));
    t2_1 = texelFetch(glp_fs_samp0, t1_1.xy, t1_1.w);
    t3_1 = uvec4(texelFetch(glp_fs_samp2, t1_1.xy, 1).yyxx);
    t1_1.xyz = textureSize(glp_fs_samp1, 0);
    t0_1 = t0_0 + t5;
    t0_2 = t0_1 + t2_1;
    glp_frag_color_0 = t0_2 + t4;
    glp_frag_color_1 = uintBitsToFloat(uvec4(t1_1) ^ t3_1);
}
