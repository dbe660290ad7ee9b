#version 330 core
// glpipe: lowered from TGSI FRAG

layout(std140) uniform glp_fs_cb0
{
    ivec4 c[1];
} cb0;
uniform sampler2D glp_fs_samp0;
uniform sampler2D glp_fs_samp1;
uniform sampler2D glp_fs_samp2;
uniform sampler2DArray glp_fs_samp3;
uniform sampler2DArray glp_fs_samp4;
uniform sampler2DArray glp_fs_samp5;
uniform sampler2DArray glp_fs_samp5_1;

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
    switch (addr0.x) {   // TEX SAMP[ADDR[0].x]: one case per declared element
    case 0: {
        t0_0 = texture(glp_fs_samp0, glp_texcoord_0.xy);
    } break;
    case 1: {
        t0_0 = texture(glp_fs_samp1, glp_texcoord_0.xy);
    } break;
    default: {
        t0_0 = texture(glp_fs_samp2, glp_texcoord_0.xy);
    } break;
    }
    switch (addr1.y) {   // TXL SAMP[ADDR[1].y+1]: one case per declared element
    case -1: {
        t1 = textureLod(glp_fs_samp0, glp_texcoord_0.xy, glp_texcoord_0.w);
    } break;
    case 0: {
        t1 = textureLod(glp_fs_samp1, glp_texcoord_0.xy, glp_texcoord_0.w);
    } break;
    default: {
        t1 = textureLod(glp_fs_samp2, glp_texcoord_0.xy, glp_texcoord_0.w);
    } break;
    }
    switch (addr0.x) {   // TXF SAMP[ADDR[0].x+2]: one case per declared element
    case -2: {
        t2 = texelFetch(glp_fs_samp0, ivec2(0), 0);
    } break;
    case -1: {
        t2 = texelFetch(glp_fs_samp1, ivec2(0), 0);
    } break;
    default: {
        t2 = texelFetch(glp_fs_samp2, ivec2(0), 0);
    } break;
    }
    switch (addr0.x) {   // TXQ SAMP[ADDR[0].x]: one case per declared element
    case 0: {
        t3_0.xy = textureSize(glp_fs_samp0, 0);
    } break;
    case 1: {
        t3_0.xy = textureSize(glp_fs_samp1, 0);
    } break;
    default: {
        t3_0.xy = textureSize(glp_fs_samp2, 0);
    } break;
    }
    switch (addr0.x) {   // SAMPLE SVIEW[ADDR[0].x+3]: one case per declared element
    case 0: {
        t4 = texture(glp_fs_samp3, glp_texcoord_0.xyz);
    } break;
    case 1: {
        t4 = texture(glp_fs_samp4, glp_texcoord_0.xyz);
    } break;
    default: {
        t4 = texture(glp_fs_samp5, glp_texcoord_0.xyz);
    } break;
    }
    t4.x = texture(glp_fs_samp5_1, glp_texcoord_0.xyz).x;
    t0_1 = t0_0 + t1;
    t0_2 = t0_1 + t2;
    t0_3 = t0_2 + t4;
    t3_1 = vec4(t3_0);
    glp_frag_color_0 = t0_3 + t3_1;
}
