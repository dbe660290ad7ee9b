#version 450 core
// glpipe: lowered from TGSI FRAG

layout(binding = 0) uniform sampler1D glp_fs_samp0;
layout(binding = 1) uniform sampler2D glp_fs_samp1;
layout(binding = 2) uniform sampler3D glp_fs_samp2;
layout(binding = 3) uniform samplerCube glp_fs_samp3;
layout(binding = 4) uniform sampler2DRect glp_fs_samp4;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
in glp_texcoord_1_block { vec4 glp_texcoord_1; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2_0 = vec4(0.0);
    vec4 t2_1 = vec4(0.0);
    vec4 t3_0 = vec4(0.0);
    vec4 t3_1 = vec4(0.0);
    vec4 t4_0 = vec4(0.0);
    vec4 t4_1 = vec4(0.0);
    t0_0 = texture(glp_fs_samp0, glp_texcoord_0.x);
    t1 = texture(glp_fs_samp1, glp_texcoord_0.xy);
    t2_0.xz = textureOffset(glp_fs_samp1, glp_texcoord_0.xy, ivec2(1, -2)).xz;
    t3_0 = textureProj(glp_fs_samp1, glp_texcoord_0);
    t4_0 = textureProjOffset(glp_fs_samp1, glp_texcoord_0, ivec2(-2, 1));
    t0_0.yw = texture(glp_fs_samp2, glp_texcoord_0.xyz, glp_texcoord_0.w).yw;
    t1.x = textureOffset(glp_fs_samp1, glp_texcoord_1.xy, ivec2(1), glp_texcoord_1.w).x;
    t2_0.y = textureLod(glp_fs_samp3, glp_texcoord_1.xyz, glp_texcoord_1.w).y;
    t3_1.xy = textureLodOffset(glp_fs_samp1, glp_texcoord_1.xy, glp_texcoord_1.w, ivec2(3, -2)).xy;
    t4_1 = textureGrad(glp_fs_samp2, glp_texcoord_0.xyz, glp_texcoord_1.xyz, -glp_texcoord_1.xyz);
    t0_0.x = textureGradOffset(glp_fs_samp1, glp_texcoord_0.xy, glp_texcoord_1.xy, glp_texcoord_1.zw, ivec2(-2)).x;
    t1.zw = texture(glp_fs_samp3, glp_texcoord_1.xyz).zw;
    t2_0.w = texture(glp_fs_samp4, glp_texcoord_0.xy).w;
    t3_1.zw = textureProj(glp_fs_samp4, glp_texcoord_1).zw;
    t4_1.zw = texture(glp_fs_samp3, glp_texcoord_1.xyz / glp_texcoord_1.w).zw;
    t0_1 = t0_0 + t1;
    t2_1 = t2_0 + t3_1;
    t0_2 = t0_1 + t2_1;
    glp_frag_color_0 = t0_2 + t4_1;
}
