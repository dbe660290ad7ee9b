#version 450 core
// glpipe: lowered from TGSI FRAG

layout(binding = 0) uniform sampler2DArray glp_fs_samp0;
layout(binding = 1) uniform samplerCubeArray glp_fs_samp1;
layout(binding = 2) uniform samplerCubeArrayShadow glp_fs_samp2;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
in glp_texcoord_1_block { vec4 glp_texcoord_1; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    t0_0 = texture(glp_fs_samp0, glp_texcoord_0.xyz);
    t1 = textureOffset(glp_fs_samp0, glp_texcoord_0.xyz, ivec2(2, 1), glp_texcoord_0.w);
    t2 = texture(glp_fs_samp1, glp_texcoord_1);
    t0_0.x = texture(glp_fs_samp1, glp_texcoord_1, glp_texcoord_0.w).x;
    t1.y = texture(glp_fs_samp2, glp_texcoord_1, glp_texcoord_0.z);
    t0_1 = t0_0 + t1;
    glp_frag_color_0 = t0_1 + t2;
}
