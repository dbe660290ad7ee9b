#version 330 core
// glpipe: lowered from TGSI FRAG

uniform sampler1DShadow glp_fs_samp0;
uniform sampler2DShadow glp_fs_samp1;
uniform sampler2DRectShadow glp_fs_samp2;
uniform sampler1DArrayShadow glp_fs_samp3;
uniform sampler2DArrayShadow glp_fs_samp4;
uniform samplerCubeShadow glp_fs_samp5;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
in glp_texcoord_1_block { vec4 glp_texcoord_1; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2_0 = vec4(0.0);
    vec4 t2_1 = vec4(0.0);
    vec4 t2_2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    vec4 t4 = vec4(0.0);
    t0_0.x = texture(glp_fs_samp0, glp_texcoord_0.xyz);
    t0_0.y = texture(glp_fs_samp1, glp_texcoord_0.xyz);
    t0_0.z = texture(glp_fs_samp2, glp_texcoord_0.xyz);
    t0_0.w = 1.0;
    float glp_compare1 = texture(glp_fs_samp4, glp_texcoord_0);   // (c, c, c, 1) through the view swizzle
    t1 = vec4(glp_compare1, glp_compare1, glp_compare1, 1.0);
    t2_0.xy = vec2(texture(glp_fs_samp5, glp_texcoord_0));
    t2_0.z = texture(glp_fs_samp1, glp_texcoord_1.xyz, glp_texcoord_1.w);
    t2_0.w = 1.0;
    t3.x = textureProj(glp_fs_samp1, glp_texcoord_1);
    t3.y = textureProjOffset(glp_fs_samp2, glp_texcoord_1, ivec2(1, -1));
    t3.z = textureGrad(glp_fs_samp1, glp_texcoord_0.xyz, glp_texcoord_1.xy, glp_texcoord_1.zw);
    t3.w = 1.0;
    t1.x = texture(glp_fs_samp5, glp_texcoord_0, glp_texcoord_1.x);
    t1.y = textureLod(glp_fs_samp3, glp_texcoord_1.xyz, glp_texcoord_1.w);
    t4.x = texture(glp_fs_samp3, glp_texcoord_0.xyz);
    t4.y = textureLod(glp_fs_samp0, glp_texcoord_1.xyz, glp_texcoord_1.w);
    t4.z = textureOffset(glp_fs_samp1, glp_texcoord_0.xyz, ivec2(-1, 1));
    t4.w = uintBitsToFloat(1u);
    t0_1 = t0_0 + t1;
    t2_1 = t2_0 + t3;
    t2_2 = t2_1 + t4;
    glp_frag_color_0 = t0_1 + t2_2;
}
