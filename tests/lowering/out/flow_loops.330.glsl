#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    uvec4 t1 = uvec4(0u);
    uvec4 t2_0 = uvec4(0u);
    uvec4 t2_1 = uvec4(0u);
    ivec4 t3 = ivec4(0);
    t0_0 = vec4(0.0);
    t1.x = 0u;
    while (true) {
        t2_0.x = -uint(int(t1.x) >= 10);
        if (t2_0.x != 0u) {
            break;
        }
        t1.x = t1.x + 1u;
        t2_1.y = t1.x & 1u;
        if (t2_1.y != 0u) {
            continue;
        }
        t0_1 = t0_0 + glp_generic_0;
        if (glp_generic_0.w != 0.0) {
            t0_0 = t0_1 * vec4(0.25);
        } else {
            t0_0 = t0_1 + vec4(1.0);
        }
    }
    if (uintBitsToFloat(0x80000000u) != 0.0) {
        t0_0 = vec4(1.0);
    }
    while (true) {
        if (floatBitsToUint(glp_generic_1.x) != 0u) break;
        t3.x = int(glp_generic_1.y);
        break;
    }
    glp_frag_color_0 = t0_0;
}
