#version 450 core
// glpipe: lowered from TGSI FRAG

layout(std140, binding = 52) uniform glp_fs_cb0
{
    ivec4 c[1];
} cb0;
layout(binding = 0) uniform sampler2D glp_fs_samparr0[3];
layout(binding = 3) uniform sampler2DArray glp_fs_samparr1[3];
layout(binding = 14) uniform sampler2DArray glp_fs_samp5_1;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t0_3 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    ivec4 t3_0 = ivec4(0);
    vec4 t3_1 = vec4(0.0);
    vec4 t4 = vec4(0.0);
    ivec4 addr0 = ivec4(0);
    ivec4 addr1 = ivec4(0);
    addr0.x = cb0.c[0].x;
    addr1.y = cb0.c[0].y;
    t0_0 = texture(glp_fs_samparr0[clamp(addr0.x, 0, 2)], glp_texcoord_0.xy);
    t1 = textureLod(glp_fs_samparr0[clamp(addr1.y + 1, 0, 2)], glp_texcoord_0.xy, glp_texcoord_0.w);
    t2 = texelFetch(glp_fs_samparr0[clamp(addr0.x + 2, 0, 2)], ivec2(0), 0);
    t3_0.xy = textureSize(glp_fs_samparr0[clamp(addr0.x, 0, 2)], 0);
    t4 = texture(glp_fs_samparr1[clamp(addr0.x, 0, 2)], glp_texcoord_0.xyz);
    t4.x = texture(glp_fs_samp5_1, glp_texcoord_0.xyz).x;
    t0_1 = t0_0 + t1;
    t0_2 = t0_1 + t2;
    t0_3 = t0_2 + t4;
    t3_1 = vec4(t3_0);
    glp_frag_color_0 = t0_3 + t3_1;
}
