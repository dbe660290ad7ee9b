#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { flat vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;
layout(location = 2) out vec4 glp_frag_color_2;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    uvec4 t2_0 = uvec4(0u);
    uvec4 t2_1 = uvec4(0u);
    vec4 t3 = vec4(0.0);
    t0_0 = vec4(uintBitsToFloat(0x7fc00000u), uintBitsToFloat(0xff800000u), uintBitsToFloat(0x80000000u), uintBitsToFloat(1u));
    t1_0 = vec4(3.4028235e38, 1.0e-10, 0.1, -16777216.0);
    t1_1 = t1_0 + vec4(uintBitsToFloat(0x80000000u));
    t2_0 = uvec4(0x80000000u, 0x7fffffffu, 0xffffffffu, 0u);
    t3 = vec4(uintBitsToFloat(0xffffffffu), 1.0, 5.6904566e-28, uintBitsToFloat(7u));
    t3.y = uintBitsToFloat(0xffffffffu);
    t3.zw = t3.zw + glp_generic_0.zw;
    t2_1 = t2_0 + uvec4(0xffffffffu, 0x3f800000u, 0x12345678u, 7u);
    t0_1 = t0_0 * vec4(1.0);
    glp_frag_color_0 = t0_1;
    glp_frag_color_1 = t1_1 + t3;
    glp_frag_color_2 = uintBitsToFloat(t2_1);
}
