#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_generic_1_block { vec4 glp_generic_1; };
in glp_generic_2_block { vec4 glp_generic_2; };
in glp_generic_3_block { vec4 glp_generic_3; };
in glp_generic_4_block { vec4 glp_generic_4; };
in glp_generic_0_block { flat vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;

uvec4 glp_read_in_0_4(int index)
{
    switch (index) {
    case 0: return floatBitsToUint(glp_generic_1);
    case 1: return floatBitsToUint(glp_generic_2);
    case 2: return floatBitsToUint(glp_generic_3);
    case 3: return floatBitsToUint(glp_generic_4);
    case 4: return floatBitsToUint(glp_generic_0);
    }
    return uvec4(0u);
}

void main()
{
    ivec4 t0 = ivec4(0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    ivec4 addr0 = ivec4(0);
    t0.x = int(glp_generic_0.x);
    addr0.x = t0.x;
    t1_0 = uintBitsToFloat(glp_read_in_0_4(addr0.x));
    t1_1 = t1_0 + uintBitsToFloat(glp_read_in_0_4(addr0.x + 1).wzyx);
    glp_frag_color_0 = t1_1;
}
