#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };

int glp_umsb(uint v)
{
    if (v == 0u) return -1;
    int r = 0;
    if (v >= 0x10000u) { v >>= 16u; r += 16; }
    if (v >= 0x100u) { v >>= 8u; r += 8; }
    if (v >= 0x10u) { v >>= 4u; r += 4; }
    if (v >= 0x4u) { v >>= 2u; r += 2; }
    if (v >= 0x2u) r += 1;
    return r;
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
        int s = 23 - glp_umsb(m);
        m = (m << uint(s)) & 0x7fffffu;
        e = 1 - s;
    }
    return uvec2(m << 29u, sgn | (uint(e + 896) << 20u) | (m >> 3u));
}
uvec2 glp_sd_shl(uvec2 a, int n)
{
    if (n <= 0) return a;
    if (n >= 64) return uvec2(0u);
    if (n >= 32) return uvec2(0u, a.x << uint(n - 32));
    return uvec2(a.x << uint(n), (a.y << uint(n)) | (a.x >> uint(32 - n)));
}
uvec2 glp_u2d(uint u)
{
    if (u == 0u) return uvec2(0u);
    int msb = glp_umsb(u);
    uvec2 m = glp_sd_shl(uvec2(u, 0u), 52 - msb);
    return uvec2(m.x, (uint(1023 + msb) << 20u) + (m.y & 0xfffffu));
}
uvec2 glp_i2d(int i)
{
    uvec2 d = glp_u2d(i < 0 ? 0u - uint(i) : uint(i));
    return i < 0 ? uvec2(d.x, d.y | 0x80000000u) : d;
}
bool glp_sd_isnan(uvec2 a)
{
    uint h = a.y & 0x7fffffffu;
    return h > 0x7ff00000u || (h == 0x7ff00000u && a.x != 0u);
}
uvec2 glp_sd_nan2(uvec2 a, uvec2 b)
{
    if (glp_sd_isnan(a)) return uvec2(a.x, a.y | 0x00080000u);
    if (glp_sd_isnan(b)) return uvec2(b.x, b.y | 0x00080000u);
    return uvec2(0u, 0xfff80000u);
}
bool glp_sd_lt(uvec2 a, uvec2 b)
{
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}
uvec2 glp_sd_shr(uvec2 a, int n)
{
    if (n <= 0) return a;
    if (n >= 64) return uvec2(0u);
    if (n >= 32) return uvec2(a.y >> uint(n - 32), 0u);
    return uvec2((a.x >> uint(n)) | (a.y << uint(32 - n)), a.y >> uint(n));
}
uvec2 glp_sd_shr_jam(uvec2 a, int n)
{
    if (n <= 0) return a;
    if (n >= 64) return uvec2((a.x | a.y) != 0u ? 1u : 0u, 0u);
    uvec2 r = glp_sd_shr(a, n);
    if (glp_sd_shl(r, n) != a) r.x |= 1u;
    return r;
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
    return a.y != 0u ? 31 - glp_umsb(a.y) : 63 - glp_umsb(a.x);
}
uvec2 glp_sd_round_pack(uint sgn, int e, uvec2 sig)
{
    if (e < 0) {
        sig = glp_sd_shr_jam(sig, -e);
        e = 0;
    } else if (e >= 0x7fd) {
        if (e > 0x7fd || sig.y + (sig.x >= 0xfffffe00u ? 1u : 0u) >= 0x80000000u)
            return uvec2(0u, sgn | 0x7ff00000u);
    }
    uint round_bits = sig.x & 0x3ffu;
    sig = glp_sd_add(sig, uvec2(0x200u, 0u));
    uvec2 m = uvec2((sig.x >> 10u) | (sig.y << 22u), sig.y >> 10u);
    if (round_bits == 0x200u) m.x &= ~1u;
    return uvec2(m.x, sgn + (uint(e) << 20u) + m.y);
}
uvec2 glp_sd_norm_round_pack(uint sgn, int e, uvec2 sig)
{
    int s = glp_sd_clz(sig) - 1;
    return glp_sd_round_pack(sgn, e - s, glp_sd_shl(sig, s));
}
uvec2 glp_dadd(uvec2 a, uvec2 b)
{
    uint ha = a.y & 0x7fffffffu, hb = b.y & 0x7fffffffu;
    if (ha >= 0x7ff00000u || hb >= 0x7ff00000u) {
        if (glp_sd_isnan(a) || glp_sd_isnan(b)) return glp_sd_nan2(a, b);
        if (ha == hb && ((a.y ^ b.y) & 0x80000000u) != 0u) return uvec2(0u, 0xfff80000u);
        return ha >= 0x7ff00000u ? a : b;
    }
    if (glp_sd_lt(uvec2(a.x, ha), uvec2(b.x, hb))) {
        uvec2 t = a; a = b; b = t;
        uint th = ha; ha = hb; hb = th;
    }
    uint sgn = a.y & 0x80000000u;
    bool subtract = ((a.y ^ b.y) & 0x80000000u) != 0u;
    int ea = int(ha >> 20u), eb = int(hb >> 20u);
    uvec2 ma = uvec2(a.x, ha & 0xfffffu), mb = uvec2(b.x, hb & 0xfffffu);
    if (ea != 0) ma.y |= 0x100000u; else ea = 1;
    if (eb != 0) mb.y |= 0x100000u; else eb = 1;
    ma = glp_sd_shl(ma, 9);
    mb = glp_sd_shr_jam(glp_sd_shl(mb, 9), ea - eb);
    uvec2 s = subtract ? glp_sd_sub(ma, mb) : glp_sd_add(ma, mb);
    if ((s.x | s.y) == 0u) return uvec2(0u, subtract ? 0u : sgn);
    return glp_sd_norm_round_pack(sgn, ea, s);
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
    e = int(h >> 20u);
    uvec2 m = uvec2(a.x, h & 0xfffffu);
    if (e != 0) return uvec2(m.x, m.y | 0x100000u);
    int s = glp_sd_clz(m) - 11;
    e = 1 - s;
    return glp_sd_shl(m, s);
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
    uvec4 t0_0;
    uvec4 t0_1;
    uvec4 t0_2;
    uvec4 t1_0;
    ivec4 t1_1;
    uvec4 t2;
    vec4 t3;
    uvec4 t4;
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
