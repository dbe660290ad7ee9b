#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;

const uvec4 glp_imm[3] = uvec4[3](uvec4(0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u), uvec4(0x3f000000u, 0x3e800000u, 0x3e000000u, 0u), uvec4(0xbf800000u, 0xc0000000u, 0xc0400000u, 0xc0800000u));

void main()
{
    ivec4 t0 = ivec4(0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t1_2 = vec4(0.0);
    vec4 t1_3 = vec4(0.0);
    vec4 t6 = vec4(0.0);
    vec4 t7 = vec4(0.0);
    vec4 tarr1[4];
    ivec4 addr0 = ivec4(0);
    for (int glp_zi = 0; glp_zi < 4; ++glp_zi) tarr1[glp_zi] = vec4(0.0);
    tarr1[0] = glp_generic_0;
    tarr1[1] = glp_generic_0 * vec4(2.0);
    tarr1[2] = glp_generic_0 * vec4(3.0);
    tarr1[3] = glp_generic_0 * vec4(4.0);
    t0.x = int(glp_generic_1.x);
    addr0.x = t0.x;
    t1_0 = tarr1[addr0.x];
    tarr1[addr0.x + 1].xy = vec2(0.5, 0.25);
    t1_1 = t1_0 + tarr1[t0.x];
    t6 = vec4(1.0, 2.0, 3.0, 4.0);
    t7 = t6.wzyx;
    t1_2 = t1_1 + t7;
    t1_3 = t1_2 + uintBitsToFloat(glp_imm[addr0.x + 1]);
    glp_frag_color_0 = t1_3 + tarr1[2];
}
