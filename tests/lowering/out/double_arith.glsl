#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { flat vec4 glp_generic_0; };
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
double glp_dfma(double a, double b, double c)
{
    if (isinf(a) || isinf(b) || isinf(c) || isnan(a) || isnan(b) || isnan(c) || a == 0.0lf || b == 0.0lf)
        return a * b + c;
    // Dekker's exact product: ph + pl == a * b.
    precise double ph = a * b;
    precise double ka = a * 134217729.0lf;
    precise double ah = ka - (ka - a);
    precise double al = a - ah;
    precise double kb = b * 134217729.0lf;
    precise double bh = kb - (kb - b);
    precise double bl = b - bh;
    precise double pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl;
    // Exact sum: th + tl == c + ph.
    precise double th = c + ph;
    precise double bb = th - c;
    precise double tl = (c - (th - bb)) + (ph - bb);
    return th + glp_add_odd(tl, pl);
}
double glp_dldexp(double a, int e)
{
    return (a == 0.0lf || isinf(a) || isnan(a)) ? a : ldexp(a, e);
}

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t0_2 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t1_2 = uvec4(0u);
    uvec4 t2_0 = uvec4(0u);
    uvec4 t2_1 = uvec4(0u);
    uvec4 t2_2 = uvec4(0u);
    uvec4 t2_3 = uvec4(0u);
    uvec4 t2_4 = uvec4(0u);
    uvec4 t3_0 = uvec4(0u);
    uvec4 t3_1 = uvec4(0u);
    uvec4 t3_2 = uvec4(0u);
    uvec4 t4_0 = uvec4(0u);
    uvec4 t4_1 = uvec4(0u);
    uvec4 t4_2 = uvec4(0u);
    uvec4 t5_0 = uvec4(0u);
    uvec4 t5_1 = uvec4(0u);
    uvec4 t5_2 = uvec4(0u);
    t0_0 = floatBitsToUint(glp_generic_0);
    t1_0 = floatBitsToUint(glp_generic_1);
    t2_0.xy = unpackDouble2x32(packDouble2x32(t0_0.xy) + packDouble2x32(t1_0.xy));
    t2_0.zw = unpackDouble2x32(packDouble2x32(t0_0.zw) + packDouble2x32(t1_0.zw));
    t2_1.xy = unpackDouble2x32(packDouble2x32(t2_0.xy) * 1.5lf);
    t2_2.zw = unpackDouble2x32(packDouble2x32(t2_0.zw) / -packDouble2x32(t1_0.zw));
    t3_0.xy = unpackDouble2x32(packDouble2x32(t0_0.xy) * packDouble2x32(t1_0.xy) + 1.5lf);
    t3_0.zw = unpackDouble2x32(packDouble2x32(t0_0.zw) * packDouble2x32(t1_0.zw) - 0.25lf);
    t3_1.zw = unpackDouble2x32(glp_dfma(packDouble2x32(t0_0.zw), packDouble2x32(t1_0.zw), abs(packDouble2x32(t2_2.zw))));
    t4_0.xy = unpackDouble2x32(min(packDouble2x32(t3_0.xy), packDouble2x32(t2_2.zw)));
    t4_0.zw = unpackDouble2x32(max(packDouble2x32(t3_1.zw), packDouble2x32(t2_1.xy)));
    t5_0.xy = unpackDouble2x32(abs(packDouble2x32(t4_0.xy)));
    t5_0.zw = unpackDouble2x32(abs(packDouble2x32(t4_0.zw)));
    t5_1.zw = unpackDouble2x32(-packDouble2x32(t5_0.zw));
    t0_1.xy = unpackDouble2x32(1.0lf / packDouble2x32(t5_0.xy));
    t0_2.zw = unpackDouble2x32(sqrt(packDouble2x32(t5_1.zw)));
    t1_1.xy = unpackDouble2x32(inversesqrt(packDouble2x32(t0_1.xy)));
    t1_2.zw = unpackDouble2x32(fract(packDouble2x32(t0_2.zw)));
    t2_3.xy = unpackDouble2x32(trunc(packDouble2x32(t1_1.xy)));
    t2_4.zw = unpackDouble2x32(ceil(packDouble2x32(t1_2.zw)));
    t3_2.xy = unpackDouble2x32(floor(packDouble2x32(t2_3.xy)));
    t3_2.zw = unpackDouble2x32(roundEven(packDouble2x32(t2_4.zw)));
    t4_1.xy = unpackDouble2x32(sign(packDouble2x32(t3_2.xy)));
    t4_1.zw = unpackDouble2x32(sign(packDouble2x32(t3_2.zw)));
    t4_2.xy = unpackDouble2x32(glp_dldexp(packDouble2x32(t4_1.xy), 3));
    t4_2.zw = unpackDouble2x32(glp_dldexp(packDouble2x32(t4_1.zw), -2));
    t5_2.x = -uint(packDouble2x32(t4_2.xy) == packDouble2x32(t3_2.xy));
    t5_2.z = -uint(packDouble2x32(t4_2.zw) != packDouble2x32(t3_2.zw));
    t5_2.y = -uint(packDouble2x32(t4_2.xy) < 1.5lf);
    t5_2.w = -uint(packDouble2x32(t4_2.zw) >= -0.25lf);
    glp_frag_color_0 = uintBitsToFloat(t4_2);
    glp_frag_color_1 = uintBitsToFloat(t5_2);
}
