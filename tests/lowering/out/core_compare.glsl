#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    vec4 t0 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    uvec4 t2 = uvec4(0u);
    uvec4 t3 = uvec4(0u);
    t0.x = float(glp_generic_0.x < glp_generic_1.x);
    t0.y = float(glp_generic_0.y >= glp_generic_1.y);
    t0.z = float(glp_generic_0.z == 0.5);
    t0.w = float(glp_generic_0.w != 0.0);
    t1.xy = vec2(greaterThan(glp_generic_0.xy, glp_generic_1.yx));
    t1.zw = vec2(lessThanEqual(glp_generic_0.zw, glp_generic_1.zw));
    t2.x = -uint(glp_generic_0.x < glp_generic_1.x);
    t2.y = -uint(glp_generic_0.y >= -0.5);
    t2.z = -uint(glp_generic_0.z == glp_generic_1.z);
    t2.w = -uint(glp_generic_0.w != glp_generic_0.w);
    t3 = t2 & uvec4(0x3f800000u);
    if (any(lessThan(-glp_generic_0.xyz, vec3(0.0)))) discard;
    if (glp_generic_1.w < 0.0) discard;
    glp_frag_color_0 = t0 + t1;
    glp_frag_color_1 = uintBitsToFloat(t3);
}
