#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0 = vec4(0.0);
    uvec4 t1 = uvec4(0u);
    t0 = glp_generic_0;
    switch (floatBitsToUint(glp_generic_1.x)) {
        case 0u:
            t0 = t0 * vec4(0.5);
            break;
        case 1u:
        case 2u:
            t0 = t0 + vec4(2.0);
        default:
            t0 = t0 * vec4(3.0);
            break;
        case 0xffffffffu:
            break;
    }
    t1.x = uint(glp_generic_0.x);
    switch (t1.x) {
        default:
            t0.w = 1.0;
    }
    glp_frag_color_0 = t0;
}
