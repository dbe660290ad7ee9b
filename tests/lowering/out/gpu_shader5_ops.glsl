#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

double glp_add_odd(double x, double y)
{
    // x + y rounded to odd: the nearest sum, nudged one ulp towards the exact sum
    // when it is inexact and its last bit is even.
    precise double s = x + y;
    precise double bb = s - x;
    precise double err = (x - (s - bb)) + (y - bb);
    uvec2 w = unpackDouble2x32(s);
    if (err != 0.0lf && (w.x & 1u) == 0u && !isinf(s)) {
        bool away = (err > 0.0lf) == (s > 0.0lf);
        uint lo = away ? w.x + 1u : w.x - 1u;
        uint hi = w.y + ((away && lo == 0u) ? 1u : 0u) - ((!away && w.x == 0u) ? 1u : 0u);
        s = packDouble2x32(uvec2(lo, hi));
    }
    return s;
}
vec4 glp_fma(vec4 a, vec4 b, vec4 c)
{
    vec4 r;
    for (int i = 0; i < 4; i++)
        r[i] = float(glp_add_odd(double(a[i]) * double(b[i]), double(c[i])));
    return r;
}
ivec2 glp_imul_hi(ivec2 a, ivec2 b)
{
    ivec2 hi, lo;
    imulExtended(a, b, hi, lo);
    return hi;
}
uvec2 glp_umul_hi(uvec2 a, uvec2 b)
{
    uvec2 hi, lo;
    umulExtended(a, b, hi, lo);
    return hi;
}

void main()
{
    precise vec4 t0 = vec4(0.0);
    ivec4 t1 = ivec4(0);
    uvec4 t2 = uvec4(0u);
    t0 = glp_fma(glp_generic_0, glp_generic_1, -glp_generic_0);
    t1 = ivec4(glp_generic_1);
    t0.xy = ldexp(t0.xy, t1.xy);
    t2.xy = uvec2(glp_imul_hi(t1.xy, ivec2(-16)));
    t2.zw = glp_umul_hi(uvec2(t1.zw), uvec2(t1.wz));
    glp_frag_color_0 = t0;
    glp_frag_color_1 = uintBitsToFloat(t2);
}
