#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { flat vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

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
uvec2 glp_sd_shl(uvec2 a, int n)
{
    uint s = uint(clamp(n, 0, 63)), k = s & 31u;
    uvec2 r = uvec2(a.x << k, (a.y << k) | ((a.x >> 1u) >> (31u - k)));
    r = s >= 32u ? uvec2(0u, r.x) : r;
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
int glp_sd_msb(uint v)
{
    bool big = v >= 0x1000000u;
    int e = int(floatBitsToUint(float(big ? v >> 8u : v)) >> 23u) - (big ? 119 : 127);
    return v == 0u ? -1 : e;
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
uvec2 glp_sd_sig(uvec2 a, out int e)
{
    uint h = a.y & 0x7fffffffu;
    int f = int(h >> 20u);
    uvec2 m = uvec2(a.x, h & 0xfffffu);
    int s = glp_sd_clz(m) - 11;
    e = f != 0 ? f : 1 - s;
    return f != 0 ? uvec2(m.x, m.y | 0x100000u) : glp_sd_shl(m, s);
}
uint glp_umul_hi(uint a, uint b)
{
    uint al = a & 0xffffu, ah = a >> 16u, bl = b & 0xffffu, bh = b >> 16u;
    uint ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    return hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
}
uvec2 glp_sd_mul32(uint a, uint b)
{
    return uvec2(a * b, glp_umul_hi(a, b));
}
void glp_sd_mul64(uvec2 a, uvec2 b, out uvec2 hi, out uvec2 lo)
{
    uvec2 p00 = glp_sd_mul32(a.x, b.x), p01 = glp_sd_mul32(a.x, b.y);
    uvec2 p10 = glp_sd_mul32(a.y, b.x), p11 = glp_sd_mul32(a.y, b.y);
    uvec2 mid = glp_sd_add(glp_sd_add(uvec2(p00.y, 0u), uvec2(p01.x, 0u)), uvec2(p10.x, 0u));
    lo = uvec2(p00.x, mid.x);
    hi = glp_sd_add(glp_sd_add(glp_sd_add(p11, uvec2(p01.y, 0u)), uvec2(p10.y, 0u)), uvec2(mid.y, 0u));
}
uvec2 glp_sd_round_pack(uint sgn, int e, uvec2 sig)
{
    return glp_sd_round_pack_0(sgn, max(e, 0), glp_sd_shr_jam(sig, -e));
}
uvec2 glp_dmul(uvec2 a, uvec2 b)
{
    uint ha = a.y & 0x7fffffffu, hb = b.y & 0x7fffffffu;
    uint sgn = (a.y ^ b.y) & 0x80000000u;
    bool zero = (ha | a.x) == 0u || (hb | b.x) == 0u;
    int ea, eb;
    uvec2 ma = glp_sd_sig(a, ea), mb = glp_sd_sig(b, eb);
    uvec2 hi, lo;
    glp_sd_mul64(uvec2(ma.x << 10u, (ma.y << 10u) | (ma.x >> 22u)),
                 uvec2(mb.x << 11u, (mb.y << 11u) | (mb.x >> 21u)), hi, lo);
    hi.x |= (lo.x | lo.y) != 0u ? 1u : 0u;
    bool low = hi.y < 0x40000000u;
    hi = low ? uvec2(hi.x << 1u, (hi.y << 1u) | (hi.x >> 31u)) : hi;
    uvec2 r = zero ? uvec2(0u, sgn) : glp_sd_round_pack(sgn, ea + eb - (low ? 0x400 : 0x3ff), hi);
    uvec2 special = (glp_sd_isnan(a) || glp_sd_isnan(b)) ? glp_sd_nan2(a, b)
                  : zero ? uvec2(0u, 0xfff80000u) : uvec2(0u, sgn | 0x7ff00000u);
    return (ha >= 0x7ff00000u || hb >= 0x7ff00000u) ? special : r;
}
uvec2 glp_dneg(uvec2 a)
{
    return uvec2(a.x, a.y ^ 0x80000000u);
}
bool glp_dx_is_nan(uvec2 x)
{
    return (x.y & 0x7fffffffu) > 0x7ff00000u || ((x.y & 0x7fffffffu) == 0x7ff00000u && x.x != 0u);
}
int glp_dx_clz32(uint v)
{
    if (v == 0u) return 32;
    int n = 0;
    if (v <= 0x0000ffffu) { n += 16; v <<= 16u; }
    if (v <= 0x00ffffffu) { n += 8; v <<= 8u; }
    if (v <= 0x0fffffffu) { n += 4; v <<= 4u; }
    if (v <= 0x3fffffffu) { n += 2; v <<= 2u; }
    if (v <= 0x7fffffffu) n += 1;
    return n;
}
uvec2 glp_dx_shl64(uvec2 a, int n)
{
    if (n == 0) return a;
    if (n >= 32) return uvec2(0u, a.x << uint(n - 32));
    return uvec2(a.x << uint(n), (a.y << uint(n)) | (a.x >> uint(32 - n)));
}
uvec3 glp_dx_unpack(uvec2 x)
{
    int e = int((x.y >> 20u) & 0x7ffu);
    uvec2 m = uvec2(x.x, x.y & 0xfffffu);
    if (e == 0) {
        int z = m.y != 0u ? glp_dx_clz32(m.y) : 32 + glp_dx_clz32(m.x);
        m = glp_dx_shl64(m, z - 11);
        e = 12 - z;
    } else {
        m.y |= 0x100000u;
    }
    return uvec3(m, uint(e + 64));
}
bool glp_dx_ge64(uvec2 a, uvec2 b)
{
    return a.y > b.y || (a.y == b.y && a.x >= b.x);
}
uvec2 glp_dx_sub64(uvec2 a, uvec2 b)
{
    return uvec2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u));
}
uvec2 glp_dx_shr_jam64(uvec2 a, int n)
{
    if (n == 0) return a;
    if (n >= 64) return uvec2((a.x | a.y) != 0u ? 1u : 0u, 0u);
    uint lost;
    if (n >= 32) {
        lost = a.x;
        a = uvec2(a.y, 0u);
        n -= 32;
        if (n == 0) return uvec2(a.x | (lost != 0u ? 1u : 0u), 0u);
    } else {
        lost = 0u;
    }
    lost |= a.x << uint(32 - n);
    return uvec2((a.x >> uint(n)) | (a.y << uint(32 - n)) | (lost != 0u ? 1u : 0u), a.y >> uint(n));
}
uvec2 glp_dx_add64(uvec2 a, uvec2 b)
{
    uint lo = a.x + b.x;
    return uvec2(lo, a.y + b.y + (lo < a.x ? 1u : 0u));
}
uvec2 glp_dx_round_pack(uint sg, int e, uvec2 s)
{
    if (e < 1) {
        s = glp_dx_shr_jam64(s, 1 - e);
        e = 1;
    }
    uint r = s.x & 0x3ffu;
    uvec2 m = uvec2((s.x >> 10u) | (s.y << 22u), s.y >> 10u);
    if (r > 0x200u || (r == 0x200u && (m.x & 1u) != 0u))
        m = glp_dx_add64(m, uvec2(1u, 0u));
    // m's bit 52 (53 after a carry out of the rounding) adds to the exponent field.
    if (e - 1 + int(m.y >> 20u) >= 0x7ff)
        return uvec2(0u, (sg << 31u) | 0x7ff00000u);
    return uvec2(m.x, (sg << 31u) + (uint(e - 1) << 20u) + m.y);
}
uvec2 glp_ddiv(uvec2 a, uvec2 b)
{
    if (glp_dx_is_nan(a)) return uvec2(a.x, a.y | 0x80000u);
    if (glp_dx_is_nan(b)) return uvec2(b.x, b.y | 0x80000u);
    uint sg = (a.y ^ b.y) >> 31u;
    uvec2 inf = uvec2(0u, (sg << 31u) | 0x7ff00000u), zero = uvec2(0u, sg << 31u);
    bool inf_a = (a.y & 0x7fffffffu) == 0x7ff00000u, inf_b = (b.y & 0x7fffffffu) == 0x7ff00000u;
    bool zero_a = (a.y & 0x7fffffffu) == 0u && a.x == 0u, zero_b = (b.y & 0x7fffffffu) == 0u && b.x == 0u;
    if (inf_a) return inf_b ? uvec2(0u, 0xfff80000u) : inf;
    if (inf_b) return zero;
    if (zero_b) return zero_a ? uvec2(0u, 0xfff80000u) : inf;
    if (zero_a) return zero;
    uvec3 ua = glp_dx_unpack(a), ub = glp_dx_unpack(b);
    uvec2 r = ua.xy, d = ub.xy;
    // a / b = (ma / mb) 2^(ea - eb); make ma / mb fall in [1, 2).
    int e = int(ua.z) - int(ub.z) + 1023;
    if (!glp_dx_ge64(r, d)) {
        r = glp_dx_shl64(r, 1);
        e -= 1;
    }
    // Restoring division: q = floor(ma 2^53 / mb) in [2^53, 2^54); r < 2 mb < 2^55.
    uvec2 q = uvec2(0u);
    for (int i = 0; i < 54; i++) {
        q = uvec2(q.x << 1u, (q.y << 1u) | (q.x >> 31u));
        if (glp_dx_ge64(r, d)) {
            r = glp_dx_sub64(r, d);
            q.x |= 1u;
        }
        r = uvec2(r.x << 1u, (r.y << 1u) | (r.x >> 31u));
    }
    uvec2 s = glp_dx_shl64(q, 9);
    s.x |= (r.x | r.y) != 0u ? 1u : 0u;
    return glp_dx_round_pack(sg, e, s);
}
uvec2 glp_dmad(uvec2 a, uvec2 b, uvec2 c)
{
    return glp_dadd(glp_dmul(a, b), c);
}
uvec2 glp_dabs(uvec2 a)
{
    return uvec2(a.x, a.y & 0x7fffffffu);
}
uvec4 glp_dx_shl128(uvec4 a, int n)
{
    if (n >= 64) { a = uvec4(0u, 0u, a.x, a.y); n -= 64; }
    if (n >= 32) { a = uvec4(0u, a.x, a.y, a.z); n -= 32; }
    if (n == 0) return a;
    uint s = uint(n), t = uint(32 - n);
    return uvec4(a.x << s, (a.y << s) | (a.x >> t), (a.z << s) | (a.y >> t), (a.w << s) | (a.z >> t));
}
uvec2 glp_dx_mul32(uint a, uint b)
{
    uint al = a & 0xffffu, ah = a >> 16u, bl = b & 0xffffu, bh = b >> 16u;
    uint ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    return uvec2((mid << 16u) | (ll & 0xffffu), hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u));
}
uvec4 glp_dx_mul53(uvec2 a, uvec2 b)
{
    uvec2 ll = glp_dx_mul32(a.x, b.x), lh = glp_dx_mul32(a.x, b.y);
    uvec2 hl = glp_dx_mul32(a.y, b.x), hh = glp_dx_mul32(a.y, b.y);
    uvec2 mid = glp_dx_add64(glp_dx_add64(uvec2(ll.y, 0u), uvec2(lh.x, 0u)), uvec2(hl.x, 0u));
    uvec2 top = glp_dx_add64(glp_dx_add64(hh, uvec2(lh.y, 0u)),
                             glp_dx_add64(uvec2(hl.y, 0u), uvec2(mid.y, 0u)));
    return uvec4(ll.x, mid.x, top);
}
uvec4 glp_dx_shr_jam128(uvec4 a, int n)
{
    if (n >= 128) return uvec4((a.x | a.y | a.z | a.w) != 0u ? 1u : 0u, 0u, 0u, 0u);
    uint lost = 0u;
    if (n >= 64) { lost = a.x | a.y; a = uvec4(a.z, a.w, 0u, 0u); n -= 64; }
    if (n >= 32) { lost |= a.x; a = uvec4(a.y, a.z, a.w, 0u); n -= 32; }
    if (n > 0) {
        uint s = uint(n), t = uint(32 - n);
        lost |= a.x << t;
        a = uvec4((a.x >> s) | (a.y << t), (a.y >> s) | (a.z << t), (a.z >> s) | (a.w << t), a.w >> s);
    }
    a.x |= lost != 0u ? 1u : 0u;
    return a;
}
uvec4 glp_dx_add128(uvec4 a, uvec4 b)
{
    uvec4 r = a + b;
    uint c = r.x < a.x ? 1u : 0u;
    r.y += c;
    c = (r.y < a.y || (c == 1u && r.y == a.y)) ? 1u : 0u;
    r.z += c;
    c = (r.z < a.z || (c == 1u && r.z == a.z)) ? 1u : 0u;
    r.w += c;
    return r;
}
bool glp_dx_ge128(uvec4 a, uvec4 b)
{
    if (a.w != b.w) return a.w > b.w;
    if (a.z != b.z) return a.z > b.z;
    if (a.y != b.y) return a.y > b.y;
    return a.x >= b.x;
}
uvec4 glp_dx_sub128(uvec4 a, uvec4 b)
{
    uvec4 r = a - b;
    uint bw = a.x < b.x ? 1u : 0u;
    uint nb = (a.y < b.y || (bw == 1u && a.y == b.y)) ? 1u : 0u;
    r.y -= bw;
    bw = nb;
    nb = (a.z < b.z || (bw == 1u && a.z == b.z)) ? 1u : 0u;
    r.z -= bw;
    r.w -= nb;
    return r;
}
uvec2 glp_dfma(uvec2 a, uvec2 b, uvec2 c)
{
    if (glp_dx_is_nan(c)) return uvec2(c.x, c.y | 0x80000u);
    if (glp_dx_is_nan(a)) return uvec2(a.x, a.y | 0x80000u);
    if (glp_dx_is_nan(b)) return uvec2(b.x, b.y | 0x80000u);
    uint sp = (a.y ^ b.y) >> 31u, sc = c.y >> 31u;
    bool inf_a = (a.y & 0x7fffffffu) == 0x7ff00000u, inf_b = (b.y & 0x7fffffffu) == 0x7ff00000u;
    bool inf_c = (c.y & 0x7fffffffu) == 0x7ff00000u;
    bool zero_a = (a.y & 0x7fffffffu) == 0u && a.x == 0u, zero_b = (b.y & 0x7fffffffu) == 0u && b.x == 0u;
    bool zero_c = (c.y & 0x7fffffffu) == 0u && c.x == 0u;
    if (inf_a || inf_b) {
        if (zero_a || zero_b || (inf_c && sc != sp)) return uvec2(0u, 0xfff80000u);
        return uvec2(0u, (sp << 31u) | 0x7ff00000u);
    }
    if (inf_c) return c;
    // An exactly zero product: the sum is c, or a signed zero (+0 unless both are -0).
    if (zero_a || zero_b) return zero_c ? uvec2(0u, (sp & sc) << 31u) : c;
    // The product p = ma mb 2^(ea + eb - 2150) in [2^104, 2^106) 2^(...), moved up by
    // 21 bits; a value of this frame is X 2^(E - 1149) (E: the biased exponent a
    // leading one at bit 126 would have).  c = mc 2^(ec - 1075) goes in at bit 126.
    uvec3 ua = glp_dx_unpack(a), ub = glp_dx_unpack(b);
    uvec4 x = glp_dx_shl128(glp_dx_mul53(ua.xy, ub.xy), 21);
    int e = int(ua.z) + int(ub.z) - 128 - 1022;
    uint sg = sp;
    if (!zero_c) {
        uvec3 uc = glp_dx_unpack(c);
        uvec4 y = uvec4(0u, 0u, uc.x << 10u, (uc.y << 10u) | (uc.x >> 22u));
        int ec = int(uc.z) - 64;
        // Align the smaller exponent with sticky.  Shifts of 21 bits or fewer are exact
        // (both operands end in 21+ zero bits); after a longer one the sum keeps its
        // leading one at bit 124 or above, far from the sticky bit 0.
        if (e >= ec) {
            y = glp_dx_shr_jam128(y, e - ec);
        } else {
            x = glp_dx_shr_jam128(x, ec - e);
            e = ec;
        }
        if (sp == sc) {
            x = glp_dx_add128(x, y);                   // both below 2^127: no overflow
        } else if (glp_dx_ge128(x, y)) {
            x = glp_dx_sub128(x, y);
        } else {
            x = glp_dx_sub128(y, x);
            sg = sc;
        }
        if ((x.x | x.y | x.z | x.w) == 0u) return uvec2(0u);   // exact cancellation: +0
    }
    // Normalise: leading one to bit 126, then keep the top 64 bits (leading one at
    // bit 62) with the low 64 as sticky: s 2^64 2^(e - 1149) = s 2^(e - 1085).
    int z = x.w != 0u ? glp_dx_clz32(x.w) : (x.z != 0u ? 32 + glp_dx_clz32(x.z) :
            (x.y != 0u ? 64 + glp_dx_clz32(x.y) : 96 + glp_dx_clz32(x.x)));
    if (z == 0) {
        x = glp_dx_shr_jam128(x, 1);
        e += 1;
    } else {
        x = glp_dx_shl128(x, z - 1);
        e -= z - 1;
    }
    uvec2 s = x.zw;
    s.x |= (x.x | x.y) != 0u ? 1u : 0u;
    return glp_dx_round_pack(sg, e, s);
}
bool glp_dlt(uvec2 a, uvec2 b)
{
    if (glp_sd_isnan(a) || glp_sd_isnan(b)) return false;
    bool na = a.y >= 0x80000000u, nb = b.y >= 0x80000000u;
    uvec2 ma = uvec2(a.x, a.y & 0x7fffffffu), mb = uvec2(b.x, b.y & 0x7fffffffu);
    if (na != nb) return na && (ma.x | ma.y | mb.x | mb.y) != 0u;
    return na ? glp_sd_lt(mb, ma) : glp_sd_lt(ma, mb);
}
uvec2 glp_dmin(uvec2 a, uvec2 b)
{
    return (glp_sd_isnan(b) || glp_dlt(a, b)) ? a : b;
}
uvec2 glp_dmax(uvec2 a, uvec2 b)
{
    return (glp_sd_isnan(b) || glp_dlt(b, a)) ? a : b;
}
uvec4 glp_dx_sqrt_step(uvec4 st, uint d)
{
    uvec2 rem = uvec2((st.x << 2u) | d, (st.y << 2u) | (st.x >> 30u));
    uvec2 t = uvec2((st.z << 2u) | 1u, (st.w << 2u) | (st.z >> 30u));
    uvec2 root = uvec2(st.z << 1u, (st.w << 1u) | (st.z >> 31u));
    if (glp_dx_ge64(rem, t)) {
        rem = glp_dx_sub64(rem, t);
        root.x |= 1u;
    }
    return uvec4(rem, root);
}
uvec2 glp_dsqrt(uvec2 a)
{
    if (glp_dx_is_nan(a)) return uvec2(a.x, a.y | 0x80000u);
    if ((a.y & 0x7fffffffu) == 0u && a.x == 0u) return a;          // sqrt(+-0) = +-0
    if ((a.y >> 31u) != 0u) return uvec2(0u, 0xfff80000u);
    if (a.y == 0x7ff00000u && a.x == 0u) return a;
    uvec3 ua = glp_dx_unpack(a);
    // a = m 2^(k - 52) with k = e - 1023; an odd k moves one factor 2 into m, so
    // m is in [2^52, 2^54) and sqrt(a) = sqrt(m 2^54) 2^(k/2 - 53).
    int k = int(ua.z) - 64 - 1023;
    uvec2 m = ua.xy;
    if ((ua.z & 1u) == 0u) {                                     // e + 64 even: k odd
        m = glp_dx_shl64(m, 1);
        k -= 1;
    }
    // The radicand m 2^54 (108 bits) is fed two bits at a time from the top:
    // m << 10 puts its bit 53 at bit 63; after 27 steps only the zeros remain.
    uvec2 feed = glp_dx_shl64(m, 10);
    uvec4 st = uvec4(0u);
    for (int i = 0; i < 54; i++) {
        st = glp_dx_sqrt_step(st, feed.y >> 30u);
        feed = uvec2(feed.x << 2u, (feed.y << 2u) | (feed.x >> 30u));
    }
    // root in [2^53, 2^54): 53 bits and the round bit; the remainder is sticky
    // (an exact square root has no tie: ties need 54 significant bits).
    uvec2 s = glp_dx_shl64(st.zw, 9);
    s.x |= (st.x | st.y) != 0u ? 1u : 0u;
    return glp_dx_round_pack(0u, k / 2 + 1023, s);
}
uvec2 glp_drsq(uvec2 a)
{
    if (glp_dx_is_nan(a)) return uvec2(a.x, a.y | 0x80000u);
    if ((a.y & 0x7fffffffu) == 0u && a.x == 0u)
        return uvec2(0u, (a.y & 0x80000000u) | 0x7ff00000u);      // 1/sqrt(+-0) = +-inf
    if ((a.y >> 31u) != 0u) return uvec2(0u, 0xfff80000u);
    if (a.y == 0x7ff00000u && a.x == 0u) return uvec2(0u);       // 1/sqrt(inf) = +0
    uvec3 ua = glp_dx_unpack(a);
    int k = int(ua.z) - 64 - 1023;
    uvec2 m = ua.xy;
    if ((ua.z & 1u) == 0u) {
        m = glp_dx_shl64(m, 1);
        k -= 1;
    }
    // a = m 2^(k - 52), m in [2^52, 2^54), k even: 1/sqrt(a) = 2^(26 - k/2) / sqrt(m).
    // m = 2^52 (a power of 4): exactly 2^(-k/2), always normal.
    if (m.x == 0u && m.y == 0x100000u)
        return uvec2(0u, uint(1023 - k / 2) << 20u);
    // Otherwise root = floor(sqrt(2^160 / m)) in (2^53, 2^54).  The quotient bits
    // of 2^160 / m below 2^108 come from a long division whose remainder before
    // bit 107 is 2^52 (2^160 >> 108 = 2^52 < m); each root step eats two of them.
    uvec2 r = uvec2(0u, 0x100000u);
    uvec4 st = uvec4(0u);
    for (int i = 0; i < 54; i++) {
        uint d = 0u;
        for (int j = 0; j < 2; j++) {
            r = uvec2(r.x << 1u, (r.y << 1u) | (r.x >> 31u));
            d <<= 1u;
            if (glp_dx_ge64(r, m)) {
                r = glp_dx_sub64(r, m);
                d |= 1u;
            }
        }
        st = glp_dx_sqrt_step(st, d);
    }
    // floor(sqrt(x)) = floor(sqrt(floor(x))); exact only if both remainders are 0.
    uvec2 s = glp_dx_shl64(st.zw, 9);
    s.x |= (st.x | st.y | r.x | r.y) != 0u ? 1u : 0u;
    // 1/sqrt(a) = root 2^(-80) 2^(26 - k/2) and round_pack reads s 2^(e - 1085).
    return glp_dx_round_pack(0u, 1022 - k / 2, s);
}
uvec2 glp_sd_round_int(uvec2 a, int mode)
{
    uint sgn = a.y & 0x80000000u;
    bool neg = sgn != 0u;
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    uvec2 frac = glp_sd_shr(uvec2(0xffffffffu, 0x000fffffu), e);
    uvec2 rem = a & frac, t = a & ~frac;
    uvec2 unit = glp_sd_add(frac, uvec2(1u, 0u));
    uvec2 half_unit = glp_sd_shr(unit, 1);
    bool inexact = (rem.x | rem.y) != 0u;
    bool odd = ((t.x & unit.x) | (t.y & unit.y)) != 0u;
    bool nearest_up = glp_sd_lt(half_unit, rem) || (rem == half_unit && odd);
    bool up = inexact && (mode == 1 ? neg : mode == 2 ? !neg : mode == 3 && nearest_up);
    uvec2 r = up ? glp_sd_add(t, unit) : t;
    // |x| < 1: 0 or 1 of x's sign (DROUND: 1 above one half)
    bool nonzero = ((a.y & 0x7fffffffu) | a.x) != 0u;
    bool up_small = nonzero && (mode == 1 ? neg : mode == 2 ? !neg
                                : mode == 3 && e == -1 && ((a.y & 0xfffffu) | a.x) != 0u);
    uvec2 small = uvec2(0u, sgn | (up_small ? 0x3ff00000u : 0u));
    uvec2 big = glp_sd_isnan(a) ? uvec2(a.x, a.y | 0x00080000u) : a;
    return e >= 52 ? big : e < 0 ? small : r;
}
uvec2 glp_dfrac(uvec2 a)
{
    uvec2 f = glp_sd_round_int(a, 1);
    return glp_dadd(a, uvec2(f.x, f.y ^ 0x80000000u));
}
uvec2 glp_dtrunc(uvec2 a)
{
    return glp_sd_round_int(a, 0);
}
uvec2 glp_dceil(uvec2 a)
{
    return glp_sd_round_int(a, 2);
}
uvec2 glp_dflr(uvec2 a)
{
    return glp_sd_round_int(a, 1);
}
uvec2 glp_dround(uvec2 a)
{
    return glp_sd_round_int(a, 3);
}
uvec2 glp_dssg(uvec2 a)
{
    if (glp_sd_isnan(a) || ((a.y & 0x7fffffffu) | a.x) == 0u) return uvec2(0u);
    return uvec2(0u, (a.y & 0x80000000u) | 0x3ff00000u);
}
uvec2 glp_dldexp(uvec2 a, int n)
{
    uint h = a.y & 0x7fffffffu;
    if (h >= 0x7ff00000u || (h | a.x) == 0u) return a;
    int e;
    uvec2 m = glp_sd_sig(a, e);
    return glp_sd_round_pack(a.y & 0x80000000u, e + clamp(n, -4096, 4096) - 1, glp_sd_shl(m, 10));
}
bool glp_deq(uvec2 a, uvec2 b)
{
    if (glp_sd_isnan(a) || glp_sd_isnan(b)) return false;
    return a == b || ((a.x | b.x) == 0u && ((a.y | b.y) & 0x7fffffffu) == 0u);
}
bool glp_dne(uvec2 a, uvec2 b)
{
    return !glp_deq(a, b);
}
bool glp_dge(uvec2 a, uvec2 b)
{
    return !glp_sd_isnan(a) && !glp_sd_isnan(b) && !glp_dlt(a, b);
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
    t2_0.xy = glp_dadd(t0_0.xy, t1_0.xy);
    t2_0.zw = glp_dadd(t0_0.zw, t1_0.zw);
    t2_1.xy = glp_dmul(t2_0.xy, uvec2(0u, 0x3ff80000u));
    t2_2.zw = glp_ddiv(t2_0.zw, glp_dneg(t1_0.zw));
    t3_0.xy = glp_dmad(t0_0.xy, t1_0.xy, uvec2(0u, 0x3ff80000u));
    t3_0.zw = glp_dmad(t0_0.zw, t1_0.zw, uvec2(0u, 0xbfd00000u));
    t3_1.zw = glp_dfma(t0_0.zw, t1_0.zw, glp_dabs(t2_2.zw));
    t4_0.xy = glp_dmin(t3_0.xy, t2_2.zw);
    t4_0.zw = glp_dmax(t3_1.zw, t2_1.xy);
    t5_0.xy = glp_dabs(t4_0.xy);
    t5_0.zw = glp_dabs(t4_0.zw);
    t5_1.zw = glp_dneg(t5_0.zw);
    t0_1.xy = glp_ddiv(uvec2(0u, 0x3ff00000u), t5_0.xy);
    t0_2.zw = glp_dsqrt(t5_1.zw);
    t1_1.xy = glp_drsq(t0_1.xy);
    t1_2.zw = glp_dfrac(t0_2.zw);
    t2_3.xy = glp_dtrunc(t1_1.xy);
    t2_4.zw = glp_dceil(t1_2.zw);
    t3_2.xy = glp_dflr(t2_3.xy);
    t3_2.zw = glp_dround(t2_4.zw);
    t4_1.xy = glp_dssg(t3_2.xy);
    t4_1.zw = glp_dssg(t3_2.zw);
    t4_2.xy = glp_dldexp(t4_1.xy, 3);
    t4_2.zw = glp_dldexp(t4_1.zw, -2);
    t5_2.x = -uint(glp_deq(t4_2.xy, t3_2.xy));
    t5_2.z = -uint(glp_dne(t4_2.zw, t3_2.zw));
    t5_2.y = -uint(glp_dlt(t4_2.xy, uvec2(0u, 0x3ff80000u)));
    t5_2.w = -uint(glp_dge(t4_2.zw, uvec2(0u, 0xbfd00000u)));
    glp_frag_color_0 = uintBitsToFloat(t4_2);
    glp_frag_color_1 = uintBitsToFloat(t5_2);
}
