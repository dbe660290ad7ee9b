#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };

int glp_sd_msb(uint v)
{
    bool big = v >= 0x1000000u;
    int e = int(floatBitsToUint(float(big ? v >> 8u : v)) >> 23u) - (big ? 119 : 127);
    return v == 0u ? -1 : e;
}
uvec2 glp_f2d(uint f)
{
    uint sgn = f & 0x80000000u;
    int e = int((f >> 23u) & 0xffu);
    uint m = f & 0x7fffffu;
    if (e == 0xff)
        return uvec2(m << 29u, sgn | 0x7ff00000u | (m >> 3u) | (m != 0u ? 0x80000u : 0u));
    if (e == 0) {
        if (m == 0u) return uvec2(0u, sgn);
        int s = 23 - glp_sd_msb(m);
        m = (m << uint(s)) & 0x7fffffu;
        e = 1 - s;
    }
    return uvec2(m << 29u, sgn | (uint(e + 896) << 20u) | (m >> 3u));
}
uvec2 glp_sd_shl(uvec2 a, int n)
{
    uint s = uint(clamp(n, 0, 63)), k = s & 31u;
    uvec2 r = uvec2(a.x << k, (a.y << k) | ((a.x >> 1u) >> (31u - k)));
    r = s >= 32u ? uvec2(0u, r.x) : r;
    return n >= 64 ? uvec2(0u) : r;
}
uvec2 glp_u2d(uint u)
{
    if (u == 0u) return uvec2(0u);
    int msb = glp_sd_msb(u);
    uvec2 m = glp_sd_shl(uvec2(u, 0u), 52 - msb);
    return uvec2(m.x, (uint(1023 + msb) << 20u) + (m.y & 0xfffffu));
}
uvec2 glp_i2d(int i)
{
    uvec2 d = glp_u2d(i < 0 ? 0u - uint(i) : uint(i));
    return i < 0 ? uvec2(d.x, d.y | 0x80000000u) : d;
}
bool glp_sd_lt(uvec2 a, uvec2 b)
{
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}
uvec2 glp_sd_shr(uvec2 a, int n)
{
    uint s = uint(clamp(n, 0, 63)), k = s & 31u;
    uvec2 r = uvec2((a.x >> k) | ((a.y << 1u) << (31u - k)), a.y >> k);
    r = s >= 32u ? uvec2(r.y, 0u) : r;
    return n >= 64 ? uvec2(0u) : r;
}
uvec2 glp_sd_shr_jam(uvec2 a, int n)
{
    uvec2 r = glp_sd_shr(a, n);
    return uvec2(r.x | (glp_sd_shl(r, n) != a ? 1u : 0u), r.y);
}
uvec2 glp_sd_sub(uvec2 a, uvec2 b)
{
    return uvec2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u));
}
uvec2 glp_sd_add(uvec2 a, uvec2 b)
{
    uint lo = a.x + b.x;
    return uvec2(lo, a.y + b.y + (lo < a.x ? 1u : 0u));
}
int glp_sd_clz(uvec2 a)
{
    bool high = a.y != 0u;
    return (high ? 31 : 63) - glp_sd_msb(high ? a.y : a.x);
}
uvec2 glp_sd_round_pack_0(uint sgn, int e, uvec2 sig)
{
    bool overflow = e > 0x7fd || (e == 0x7fd && sig.y + (sig.x >= 0xfffffe00u ? 1u : 0u) >= 0x80000000u);
    uint round_bits = sig.x & 0x3ffu;
    sig = glp_sd_add(sig, uvec2(0x200u, 0u));
    uvec2 m = uvec2(((sig.x >> 10u) | (sig.y << 22u)) & (round_bits == 0x200u ? ~1u : ~0u), sig.y >> 10u);
    uvec2 r = uvec2(m.x, sgn + (uint(e) << 20u) + m.y);
    return overflow ? uvec2(0u, sgn | 0x7ff00000u) : r;
}
bool glp_sd_isnan(uvec2 a)
{
    uint h = a.y & 0x7fffffffu;
    return h > 0x7ff00000u || (h == 0x7ff00000u && a.x != 0u);
}
uvec2 glp_sd_nan2(uvec2 a, uvec2 b)
{
    return glp_sd_isnan(a) ? uvec2(a.x, a.y | 0x00080000u)
         : glp_sd_isnan(b) ? uvec2(b.x, b.y | 0x00080000u) : uvec2(0u, 0xfff80000u);
}
uvec2 glp_dadd(uvec2 a, uvec2 b)
{
    uint ha = a.y & 0x7fffffffu, hb = b.y & 0x7fffffffu;
    bool swap = glp_sd_lt(uvec2(a.x, ha), uvec2(b.x, hb));
    uvec2 x = swap ? b : a, y = swap ? a : b;
    uint hx = swap ? hb : ha, hy = swap ? ha : hb;
    uint sgn = x.y & 0x80000000u;
    bool subtract = ((a.y ^ b.y) & 0x80000000u) != 0u;
    int ex = int(hx >> 20u), ey = int(hy >> 20u);
    uint mxh = (hx & 0xfffffu) | (ex != 0 ? 0x100000u : 0u), myh = (hy & 0xfffffu) | (ey != 0 ? 0x100000u : 0u);
    uvec2 mx = uvec2(x.x << 9u, (mxh << 9u) | (x.x >> 23u));
    uvec2 my = glp_sd_shr_jam(uvec2(y.x << 9u, (myh << 9u) | (y.x >> 23u)), max(ex, 1) - max(ey, 1));
    uvec2 s = subtract ? glp_sd_sub(mx, my) : glp_sd_add(mx, my);
    bool zero = (s.x | s.y) == 0u;
    // Normalize, but not below the exponent field 0: a sum in the subnormal range is
    // exact (its bits are all above 2^-1074), so it needs no shift back down.
    int sh = min(glp_sd_clz(s) - 1, max(ex, 1));
    uvec2 r = zero ? uvec2(0u, subtract ? 0u : sgn) : glp_sd_round_pack_0(sgn, max(ex, 1) - sh, glp_sd_shl(s, sh));
    // |x| >= |y|: an infinity or NaN operand is x.  inf - inf is the default NaN.
    uvec2 special = (glp_sd_isnan(a) || glp_sd_isnan(b)) ? glp_sd_nan2(a, b)
                  : (hy >= 0x7ff00000u && subtract) ? uvec2(0u, 0xfff80000u) : x;
    return hx >= 0x7ff00000u ? special : r;
}
uint glp_d2f(uvec2 a)
{
    uint sgn = a.y & 0x80000000u;
    uint h = a.y & 0x7fffffffu;
    int e = int(h >> 20u);
    uvec2 m = uvec2(a.x, h & 0xfffffu);
    if (e == 0x7ff) {
        if ((m.x | m.y) != 0u) return sgn | 0x7fc00000u | (m.y << 3u) | (m.x >> 29u);
        return sgn | 0x7f800000u;
    }
    if ((h | a.x) == 0u) return sgn;
    uint sig = glp_sd_shr_jam(m, 22).x | 0x40000000u;
    e -= 0x381;
    if (e < 0) {
        sig = -e >= 31 ? 1u : (sig >> uint(-e)) | ((sig << uint(32 + e)) != 0u ? 1u : 0u);
        e = 0;
    } else if (e >= 0xfd) {
        if (e > 0xfd || sig + 0x40u >= 0x80000000u) return sgn | 0x7f800000u;
    }
    uint round_bits = sig & 0x7fu;
    sig = (sig + 0x40u) >> 7u;
    if (round_bits == 0x40u) sig &= ~1u;
    return sgn + (uint(e) << 23u) + sig;
}
uvec2 glp_sd_trunc_mag(uvec2 a, int e)
{
    uvec2 m = uvec2(a.x, (a.y & 0xfffffu) | 0x100000u);
    return e >= 52 ? glp_sd_shl(m, e - 52) : glp_sd_shr(m, 52 - e);
}
int glp_d2i(uvec2 a)
{
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    if (e < 0) return 0;
    if (e > 31) return int(0x80000000u);
    uint m = glp_sd_trunc_mag(a, e).x;
    if (a.y >= 0x80000000u) return m <= 0x80000000u ? int(0u - m) : int(0x80000000u);
    return m <= 0x7fffffffu ? int(m) : int(0x80000000u);
}
uint glp_d2u(uvec2 a)
{
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    if (e < 0) return 0u;
    if (e > 31 || a.y >= 0x80000000u) return 0xffffffffu;
    return glp_sd_trunc_mag(a, e).x;
}
uvec2 glp_sd_sig(uvec2 a, out int e)
{
    uint h = a.y & 0x7fffffffu;
    int f = int(h >> 20u);
    uvec2 m = uvec2(a.x, h & 0xfffffu);
    int s = glp_sd_clz(m) - 11;
    e = f != 0 ? f : 1 - s;
    return f != 0 ? uvec2(m.x, m.y | 0x100000u) : glp_sd_shl(m, s);
}
uvec2 glp_dfrexp(uvec2 a, out int e)
{
    uint h = a.y & 0x7fffffffu;
    e = 0;
    if (h >= 0x7ff00000u || (h | a.x) == 0u) return a;
    int ee;
    uvec2 m = glp_sd_sig(a, ee);
    e = ee - 1022;
    return uvec2(m.x, (a.y & 0x80000000u) | 0x3fe00000u | (m.y & 0xfffffu));
}

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t0_2 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    ivec4 t1_1 = ivec4(0);
    uvec4 t2 = uvec4(0u);
    vec4 t3 = vec4(0.0);
    uvec4 t4 = uvec4(0u);
    t0_0.xy = glp_f2d(floatBitsToUint(glp_attr_0.x));
    t0_0.zw = glp_f2d(floatBitsToUint(glp_attr_0.y));
    t1_0.xy = glp_i2d(-5);
    t1_0.zw = glp_i2d(7);
    t2.xy = glp_u2d(0xee6b2800u);
    t2.zw = glp_u2d(9u);
    t0_1.xy = glp_dadd(t0_0.xy, t1_0.xy);
    t0_1.zw = glp_dadd(t0_0.zw, t1_0.zw);
    t0_2.xy = glp_dadd(t0_1.xy, t2.xy);
    t0_2.zw = glp_dadd(t0_1.zw, t2.zw);
    t3.x = uintBitsToFloat(glp_d2f(t0_2.xy));
    t3.y = uintBitsToFloat(glp_d2f(t0_2.zw));
    t3.z = intBitsToFloat(glp_d2i(t0_2.xy));
    t3.w = uintBitsToFloat(glp_d2u(t0_2.zw));
    int glp_exp1;
    uvec2 glp_mant2 = glp_dfrexp(t0_2.xy, glp_exp1);
    t4.xy = glp_mant2;
    t1_1.x = glp_exp1;
    int glp_exp3;
    uvec2 glp_mant4 = glp_dfrexp(t0_2.zw, glp_exp3);
    t4.zw = glp_mant4;
    t1_1.y = glp_exp3;
    gl_Position = glp_attr_0;
    glp_generic_0 = t3;
    glp_generic_1 = uintBitsToFloat(t4);
}
