#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };

uniform uvec4 glp_exact_zero;  // always 0 (never set): opaque identities for _PRECISE without 'precise'

vec4 glp_mul_legacy(vec4 a, vec4 b)
{
    vec4 r;
    for (int i = 0; i < 4; i++)
        r[i] = (a[i] == 0.0 || b[i] == 0.0) ? 0.0 : a[i] * b[i];
    return r;
}
vec3 glp_mul_legacy(vec3 a, vec3 b)
{
    vec3 r;
    for (int i = 0; i < 3; i++)
        r[i] = (a[i] == 0.0 || b[i] == 0.0) ? 0.0 : a[i] * b[i];
    return r;
}
vec2 glp_mul_legacy(vec2 a, vec2 b)
{
    vec2 r;
    for (int i = 0; i < 2; i++)
        r[i] = (a[i] == 0.0 || b[i] == 0.0) ? 0.0 : a[i] * b[i];
    return r;
}

void main()
{
    vec4 t0 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    t0 = uintBitsToFloat(floatBitsToUint(glp_mul_legacy(uintBitsToFloat(floatBitsToUint(glp_attr_0) ^ glp_exact_zero.x), uintBitsToFloat(floatBitsToUint(glp_attr_1) ^ glp_exact_zero.y))) ^ glp_exact_zero.w);
    t1 = uintBitsToFloat(floatBitsToUint(glp_mul_legacy(uintBitsToFloat(floatBitsToUint(glp_attr_0) ^ glp_exact_zero.x), uintBitsToFloat(floatBitsToUint(glp_attr_1) ^ glp_exact_zero.y)) + vec4(0.5)) ^ glp_exact_zero.w);
    t2.x = uintBitsToFloat(floatBitsToUint(dot(glp_mul_legacy(uintBitsToFloat(floatBitsToUint(glp_attr_0.xyz) ^ glp_exact_zero.x), uintBitsToFloat(floatBitsToUint(glp_attr_1.xyz) ^ glp_exact_zero.y)), vec3(1.0))) ^ glp_exact_zero.w);
    t2.y = clamp(uintBitsToFloat(floatBitsToUint(dot(glp_mul_legacy(uintBitsToFloat(floatBitsToUint(glp_attr_0) ^ glp_exact_zero.x), uintBitsToFloat(floatBitsToUint(glp_attr_1) ^ glp_exact_zero.y)), vec4(1.0))) ^ glp_exact_zero.w), 0.0, 1.0);
    t0.xy = uintBitsToFloat(floatBitsToUint(uintBitsToFloat(floatBitsToUint(glp_mul_legacy(vec2(0.5), uintBitsToFloat(floatBitsToUint(glp_attr_0.xy) ^ glp_exact_zero.y))) ^ glp_exact_zero.w) + uintBitsToFloat(floatBitsToUint(glp_mul_legacy(vec2(1.0) - vec2(0.5), uintBitsToFloat(floatBitsToUint(glp_attr_1.xy) ^ glp_exact_zero.z))) ^ glp_exact_zero.z)) ^ glp_exact_zero.w);
    gl_Position = clamp(t0, 0.0, 1.0);
    glp_generic_0 = uintBitsToFloat(floatBitsToUint(uintBitsToFloat(floatBitsToUint(t1) ^ glp_exact_zero.x) + uintBitsToFloat(floatBitsToUint(t2) ^ glp_exact_zero.y)) ^ glp_exact_zero.w);
    glp_generic_1 = glp_mul_legacy(glp_attr_1, vec4(0.0));
}
