"""Soft double precision in GLSL 3.30: fused multiply-add, division, square root, 1/sqrt
(``glp_dfma``, ``glp_ddiv``, ``glp_dsqrt``, ``glp_drsq``; ``DIVSQRT_HELPERS`` / ``DIVSQRT_ORDER``).

docs/lowering.md "Soft fp64: fma, division, square root" has the NaN rule, the
algorithms and the rounding argument.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Helper = tuple[str, tuple[tuple[str, str], ...], str]

# ---------------------------------------------------------------------------
# Word arithmetic: 64-bit values are uvec2(lo, hi), 128-bit values uvec4 (x lowest).
# ---------------------------------------------------------------------------

_WORDS: dict[str, Helper] = {
    # Leading zeros of a 32-bit word by binary search; 32 for 0.
    "glp_dx_clz32": (
        "int",
        (("uint", "v"),),
        """\
    if (v == 0u) return 32;
    int n = 0;
    if (v <= 0x0000ffffu) { n += 16; v <<= 16u; }
    if (v <= 0x00ffffffu) { n += 8; v <<= 8u; }
    if (v <= 0x0fffffffu) { n += 4; v <<= 4u; }
    if (v <= 0x3fffffffu) { n += 2; v <<= 2u; }
    if (v <= 0x7fffffffu) n += 1;
    return n;""",
    ),
    # The full 64-bit product of two words from four 16x16 -> 32 partial products.
    "glp_dx_mul32": (
        "uvec2",
        (("uint", "a"), ("uint", "b")),
        """\
    uint al = a & 0xffffu, ah = a >> 16u, bl = b & 0xffffu, bh = b >> 16u;
    uint ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    return uvec2((mid << 16u) | (ll & 0xffffu), hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u));""",
    ),
    "glp_dx_add64": (
        "uvec2",
        (("uvec2", "a"), ("uvec2", "b")),
        """\
    uint lo = a.x + b.x;
    return uvec2(lo, a.y + b.y + (lo < a.x ? 1u : 0u));""",
    ),
    "glp_dx_sub64": (
        "uvec2",
        (("uvec2", "a"), ("uvec2", "b")),
        """\
    return uvec2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u));""",
    ),
    "glp_dx_ge64": (
        "bool",
        (("uvec2", "a"), ("uvec2", "b")),
        """\
    return a.y > b.y || (a.y == b.y && a.x >= b.x);""",
    ),
    # a << n for n in [0, 63].
    "glp_dx_shl64": (
        "uvec2",
        (("uvec2", "a"), ("int", "n")),
        """\
    if (n == 0) return a;
    if (n >= 32) return uvec2(0u, a.x << uint(n - 32));
    return uvec2(a.x << uint(n), (a.y << uint(n)) | (a.x >> uint(32 - n)));""",
    ),
    # a >> n for any n >= 0, bit 0 ORed with every bit shifted out ("jamming").
    "glp_dx_shr_jam64": (
        "uvec2",
        (("uvec2", "a"), ("int", "n")),
        """\
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
    return uvec2((a.x >> uint(n)) | (a.y << uint(32 - n)) | (lost != 0u ? 1u : 0u), a.y >> uint(n));""",
    ),
    "glp_dx_add128": (
        "uvec4",
        (("uvec4", "a"), ("uvec4", "b")),
        """\
    uvec4 r = a + b;
    uint c = r.x < a.x ? 1u : 0u;
    r.y += c;
    c = (r.y < a.y || (c == 1u && r.y == a.y)) ? 1u : 0u;
    r.z += c;
    c = (r.z < a.z || (c == 1u && r.z == a.z)) ? 1u : 0u;
    r.w += c;
    return r;""",
    ),
    "glp_dx_sub128": (
        "uvec4",
        (("uvec4", "a"), ("uvec4", "b")),
        """\
    uvec4 r = a - b;
    uint bw = a.x < b.x ? 1u : 0u;
    uint nb = (a.y < b.y || (bw == 1u && a.y == b.y)) ? 1u : 0u;
    r.y -= bw;
    bw = nb;
    nb = (a.z < b.z || (bw == 1u && a.z == b.z)) ? 1u : 0u;
    r.z -= bw;
    r.w -= nb;
    return r;""",
    ),
    "glp_dx_ge128": (
        "bool",
        (("uvec4", "a"), ("uvec4", "b")),
        """\
    if (a.w != b.w) return a.w > b.w;
    if (a.z != b.z) return a.z > b.z;
    if (a.y != b.y) return a.y > b.y;
    return a.x >= b.x;""",
    ),
    # a << n for n in [0, 127].
    "glp_dx_shl128": (
        "uvec4",
        (("uvec4", "a"), ("int", "n")),
        """\
    if (n >= 64) { a = uvec4(0u, 0u, a.x, a.y); n -= 64; }
    if (n >= 32) { a = uvec4(0u, a.x, a.y, a.z); n -= 32; }
    if (n == 0) return a;
    uint s = uint(n), t = uint(32 - n);
    return uvec4(a.x << s, (a.y << s) | (a.x >> t), (a.z << s) | (a.y >> t), (a.w << s) | (a.z >> t));""",
    ),
    # a >> n for any n >= 0 with jamming.
    "glp_dx_shr_jam128": (
        "uvec4",
        (("uvec4", "a"), ("int", "n")),
        """\
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
    return a;""",
    ),
}

# ---------------------------------------------------------------------------
# Unpacking and the one rounding routine.
# ---------------------------------------------------------------------------

_CORE: dict[str, Helper] = {
    # A finite non-zero double as its integer significand m (leading one at bit 52,
    # subnormals normalised) and exponent e with |x| = m * 2^(e - 1075); returned as
    # uvec3(m.lo, m.hi, e + 64) (e >= -51, so the third word is a plain uint).
    "glp_dx_unpack": (
        "uvec3",
        (("uvec2", "x"),),
        """\
    int e = int((x.y >> 20u) & 0x7ffu);
    uvec2 m = uvec2(x.x, x.y & 0xfffffu);
    if (e == 0) {
        int z = m.y != 0u ? glp_dx_clz32(m.y) : 32 + glp_dx_clz32(m.x);
        m = glp_dx_shl64(m, z - 11);
        e = 12 - z;
    } else {
        m.y |= 0x100000u;
    }
    return uvec3(m, uint(e + 64));""",
    ),
    # sign * s * 2^(e - 1085) rounded to nearest even, for s with its leading one at
    # bit 62 and its sticky bits ORed into bit 0 (so bits 9..0 are the round bits):
    # the result's biased exponent is e when it is normal.  Below the normal range
    # s is shifted right with sticky to the subnormal scale (e = 1) before the one
    # rounding -- gradual underflow, rounded once.
    "glp_dx_round_pack": (
        "uvec2",
        (("uint", "sg"), ("int", "e"), ("uvec2", "s")),
        """\
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
    return uvec2(m.x, (sg << 31u) + (uint(e - 1) << 20u) + m.y);""",
    ),
    "glp_dx_is_nan": (
        "bool",
        (("uvec2", "x"),),
        """\
    return (x.y & 0x7fffffffu) > 0x7ff00000u || ((x.y & 0x7fffffffu) == 0x7ff00000u && x.x != 0u);""",
    ),
}

# ---------------------------------------------------------------------------
# The four operations.
# ---------------------------------------------------------------------------

# Shared prologue: a NaN operand is returned quieted; the default NaN is x86's.
_QUIET = "uvec2({0}.x, {0}.y | 0x80000u)"
_DNAN = "uvec2(0u, 0xfff80000u)"

_OPS: dict[str, Helper] = {
    "glp_ddiv": (
        "uvec2",
        (("uvec2", "a"), ("uvec2", "b")),
        f"""\
    if (glp_dx_is_nan(a)) return {_QUIET.format("a")};
    if (glp_dx_is_nan(b)) return {_QUIET.format("b")};
    uint sg = (a.y ^ b.y) >> 31u;
    uvec2 inf = uvec2(0u, (sg << 31u) | 0x7ff00000u), zero = uvec2(0u, sg << 31u);
    bool inf_a = (a.y & 0x7fffffffu) == 0x7ff00000u, inf_b = (b.y & 0x7fffffffu) == 0x7ff00000u;
    bool zero_a = (a.y & 0x7fffffffu) == 0u && a.x == 0u, zero_b = (b.y & 0x7fffffffu) == 0u && b.x == 0u;
    if (inf_a) return inf_b ? {_DNAN} : inf;
    if (inf_b) return zero;
    if (zero_b) return zero_a ? {_DNAN} : inf;
    if (zero_a) return zero;
    uvec3 ua = glp_dx_unpack(a), ub = glp_dx_unpack(b);
    uvec2 r = ua.xy, d = ub.xy;
    // a / b = (ma / mb) 2^(ea - eb); make ma / mb fall in [1, 2).
    int e = int(ua.z) - int(ub.z) + 1023;
    if (!glp_dx_ge64(r, d)) {{
        r = glp_dx_shl64(r, 1);
        e -= 1;
    }}
    // Restoring division: q = floor(ma 2^53 / mb) in [2^53, 2^54); r < 2 mb < 2^55.
    uvec2 q = uvec2(0u);
    for (int i = 0; i < 54; i++) {{
        q = uvec2(q.x << 1u, (q.y << 1u) | (q.x >> 31u));
        if (glp_dx_ge64(r, d)) {{
            r = glp_dx_sub64(r, d);
            q.x |= 1u;
        }}
        r = uvec2(r.x << 1u, (r.y << 1u) | (r.x >> 31u));
    }}
    uvec2 s = glp_dx_shl64(q, 9);
    s.x |= (r.x | r.y) != 0u ? 1u : 0u;
    return glp_dx_round_pack(sg, e, s);""",
    ),
    # One step of the digit-by-digit square root: st = (rem.lo, rem.hi, root.lo,
    # root.hi), d the next two radicand bits.  With rem = N - root^2 for the radicand
    # prefix N, the next root bit is 1 iff (2 root + 1)^2 <= 4 N + d, i.e. iff
    # 4 root + 1 <= 4 rem + d.  rem <= 2 root keeps 4 rem + d below 2^57 for a
    # root below 2^54.
    "glp_dx_sqrt_step": (
        "uvec4",
        (("uvec4", "st"), ("uint", "d")),
        """\
    uvec2 rem = uvec2((st.x << 2u) | d, (st.y << 2u) | (st.x >> 30u));
    uvec2 t = uvec2((st.z << 2u) | 1u, (st.w << 2u) | (st.z >> 30u));
    uvec2 root = uvec2(st.z << 1u, (st.w << 1u) | (st.z >> 31u));
    if (glp_dx_ge64(rem, t)) {
        rem = glp_dx_sub64(rem, t);
        root.x |= 1u;
    }
    return uvec4(rem, root);""",
    ),
    "glp_dsqrt": (
        "uvec2",
        (("uvec2", "a"),),
        f"""\
    if (glp_dx_is_nan(a)) return {_QUIET.format("a")};
    if ((a.y & 0x7fffffffu) == 0u && a.x == 0u) return a;          // sqrt(+-0) = +-0
    if ((a.y >> 31u) != 0u) return {_DNAN};
    if (a.y == 0x7ff00000u && a.x == 0u) return a;
    uvec3 ua = glp_dx_unpack(a);
    // a = m 2^(k - 52) with k = e - 1023; an odd k moves one factor 2 into m, so
    // m is in [2^52, 2^54) and sqrt(a) = sqrt(m 2^54) 2^(k/2 - 53).
    int k = int(ua.z) - 64 - 1023;
    uvec2 m = ua.xy;
    if ((ua.z & 1u) == 0u) {{                                     // e + 64 even: k odd
        m = glp_dx_shl64(m, 1);
        k -= 1;
    }}
    // The radicand m 2^54 (108 bits) is fed two bits at a time from the top:
    // m << 10 puts its bit 53 at bit 63; after 27 steps only the zeros remain.
    uvec2 feed = glp_dx_shl64(m, 10);
    uvec4 st = uvec4(0u);
    for (int i = 0; i < 54; i++) {{
        st = glp_dx_sqrt_step(st, feed.y >> 30u);
        feed = uvec2(feed.x << 2u, (feed.y << 2u) | (feed.x >> 30u));
    }}
    // root in [2^53, 2^54): 53 bits and the round bit; the remainder is sticky
    // (an exact square root has no tie: ties need 54 significant bits).
    uvec2 s = glp_dx_shl64(st.zw, 9);
    s.x |= (st.x | st.y) != 0u ? 1u : 0u;
    return glp_dx_round_pack(0u, k / 2 + 1023, s);""",
    ),
    "glp_drsq": (
        "uvec2",
        (("uvec2", "a"),),
        f"""\
    if (glp_dx_is_nan(a)) return {_QUIET.format("a")};
    if ((a.y & 0x7fffffffu) == 0u && a.x == 0u)
        return uvec2(0u, (a.y & 0x80000000u) | 0x7ff00000u);      // 1/sqrt(+-0) = +-inf
    if ((a.y >> 31u) != 0u) return {_DNAN};
    if (a.y == 0x7ff00000u && a.x == 0u) return uvec2(0u);       // 1/sqrt(inf) = +0
    uvec3 ua = glp_dx_unpack(a);
    int k = int(ua.z) - 64 - 1023;
    uvec2 m = ua.xy;
    if ((ua.z & 1u) == 0u) {{
        m = glp_dx_shl64(m, 1);
        k -= 1;
    }}
    // a = m 2^(k - 52), m in [2^52, 2^54), k even: 1/sqrt(a) = 2^(26 - k/2) / sqrt(m).
    // m = 2^52 (a power of 4): exactly 2^(-k/2), always normal.
    if (m.x == 0u && m.y == 0x100000u)
        return uvec2(0u, uint(1023 - k / 2) << 20u);
    // Otherwise root = floor(sqrt(2^160 / m)) in (2^53, 2^54).  The quotient bits
    // of 2^160 / m below 2^108 come from a long division whose remainder before
    // bit 107 is 2^52 (2^160 >> 108 = 2^52 < m); each root step eats two of them.
    uvec2 r = uvec2(0u, 0x100000u);
    uvec4 st = uvec4(0u);
    for (int i = 0; i < 54; i++) {{
        uint d = 0u;
        for (int j = 0; j < 2; j++) {{
            r = uvec2(r.x << 1u, (r.y << 1u) | (r.x >> 31u));
            d <<= 1u;
            if (glp_dx_ge64(r, m)) {{
                r = glp_dx_sub64(r, m);
                d |= 1u;
            }}
        }}
        st = glp_dx_sqrt_step(st, d);
    }}
    // floor(sqrt(x)) = floor(sqrt(floor(x))); exact only if both remainders are 0.
    uvec2 s = glp_dx_shl64(st.zw, 9);
    s.x |= (st.x | st.y | r.x | r.y) != 0u ? 1u : 0u;
    // 1/sqrt(a) = root 2^(-80) 2^(26 - k/2) and round_pack reads s 2^(e - 1085).
    return glp_dx_round_pack(0u, 1022 - k / 2, s);""",
    ),
    # The exact 106-bit product of two 53-bit significands (high words below 2^21).
    "glp_dx_mul53": (
        "uvec4",
        (("uvec2", "a"), ("uvec2", "b")),
        """\
    uvec2 ll = glp_dx_mul32(a.x, b.x), lh = glp_dx_mul32(a.x, b.y);
    uvec2 hl = glp_dx_mul32(a.y, b.x), hh = glp_dx_mul32(a.y, b.y);
    uvec2 mid = glp_dx_add64(glp_dx_add64(uvec2(ll.y, 0u), uvec2(lh.x, 0u)), uvec2(hl.x, 0u));
    uvec2 top = glp_dx_add64(glp_dx_add64(hh, uvec2(lh.y, 0u)),
                             glp_dx_add64(uvec2(hl.y, 0u), uvec2(mid.y, 0u)));
    return uvec4(ll.x, mid.x, top);""",
    ),
    "glp_dfma": (
        "uvec2",
        (("uvec2", "a"), ("uvec2", "b"), ("uvec2", "c")),
        f"""\
    if (glp_dx_is_nan(c)) return {_QUIET.format("c")};
    if (glp_dx_is_nan(a)) return {_QUIET.format("a")};
    if (glp_dx_is_nan(b)) return {_QUIET.format("b")};
    uint sp = (a.y ^ b.y) >> 31u, sc = c.y >> 31u;
    bool inf_a = (a.y & 0x7fffffffu) == 0x7ff00000u, inf_b = (b.y & 0x7fffffffu) == 0x7ff00000u;
    bool inf_c = (c.y & 0x7fffffffu) == 0x7ff00000u;
    bool zero_a = (a.y & 0x7fffffffu) == 0u && a.x == 0u, zero_b = (b.y & 0x7fffffffu) == 0u && b.x == 0u;
    bool zero_c = (c.y & 0x7fffffffu) == 0u && c.x == 0u;
    if (inf_a || inf_b) {{
        if (zero_a || zero_b || (inf_c && sc != sp)) return {_DNAN};
        return uvec2(0u, (sp << 31u) | 0x7ff00000u);
    }}
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
    if (!zero_c) {{
        uvec3 uc = glp_dx_unpack(c);
        uvec4 y = uvec4(0u, 0u, uc.x << 10u, (uc.y << 10u) | (uc.x >> 22u));
        int ec = int(uc.z) - 64;
        // Align the smaller exponent with sticky.  Shifts of 21 bits or fewer are exact
        // (both operands end in 21+ zero bits); after a longer one the sum keeps its
        // leading one at bit 124 or above, far from the sticky bit 0.
        if (e >= ec) {{
            y = glp_dx_shr_jam128(y, e - ec);
        }} else {{
            x = glp_dx_shr_jam128(x, ec - e);
            e = ec;
        }}
        if (sp == sc) {{
            x = glp_dx_add128(x, y);                   // both below 2^127: no overflow
        }} else if (glp_dx_ge128(x, y)) {{
            x = glp_dx_sub128(x, y);
        }} else {{
            x = glp_dx_sub128(y, x);
            sg = sc;
        }}
        if ((x.x | x.y | x.z | x.w) == 0u) return uvec2(0u);   // exact cancellation: +0
    }}
    // Normalise: leading one to bit 126, then keep the top 64 bits (leading one at
    // bit 62) with the low 64 as sticky: s 2^64 2^(e - 1149) = s 2^(e - 1085).
    int z = x.w != 0u ? glp_dx_clz32(x.w) : (x.z != 0u ? 32 + glp_dx_clz32(x.z) :
            (x.y != 0u ? 64 + glp_dx_clz32(x.y) : 96 + glp_dx_clz32(x.x)));
    if (z == 0) {{
        x = glp_dx_shr_jam128(x, 1);
        e += 1;
    }} else {{
        x = glp_dx_shl128(x, z - 1);
        e -= z - 1;
    }}
    uvec2 s = x.zw;
    s.x |= (x.x | x.y) != 0u ? 1u : 0u;
    return glp_dx_round_pack(sg, e, s);""",
    ),
}

DIVSQRT_HELPERS: dict[str, Helper] = {**_WORDS, **_CORE, **_OPS}

# Every helper after the helpers it calls (the order to print them in).
DIVSQRT_ORDER: tuple[str, ...] = (
    "glp_dx_clz32",
    "glp_dx_mul32",
    "glp_dx_add64",
    "glp_dx_sub64",
    "glp_dx_ge64",
    "glp_dx_shl64",
    "glp_dx_shr_jam64",
    "glp_dx_add128",
    "glp_dx_sub128",
    "glp_dx_ge128",
    "glp_dx_shl128",
    "glp_dx_shr_jam128",
    "glp_dx_unpack",
    "glp_dx_round_pack",
    "glp_dx_is_nan",
    "glp_ddiv",
    "glp_dx_sqrt_step",
    "glp_dsqrt",
    "glp_drsq",
    "glp_dx_mul53",
    "glp_dfma",
)

# The public functions (TGSI opcode -> helper).
DIVSQRT_OPS: dict[str, str] = {"DFMA": "glp_dfma", "DDIV": "glp_ddiv", "DSQRT": "glp_dsqrt", "DRSQ": "glp_drsq"}

# Which helpers each helper calls, read from the bodies.
DIVSQRT_DEPENDS: dict[str, tuple[str, ...]] = {
    name: tuple(dep for dep in DIVSQRT_ORDER if dep != name and f"{dep}(" in body)
    for name, (_, _, body) in DIVSQRT_HELPERS.items()
}


def needed(names: Iterable[str]) -> list[str]:
    """``names`` and every helper they call, in ``DIVSQRT_ORDER``."""
    want = set()
    stack = list(names)
    while stack:
        name = stack.pop()
        if name not in DIVSQRT_HELPERS:
            raise KeyError(f"no soft fp64 helper named {name!r}")
        if name not in want:
            want.add(name)
            stack.extend(DIVSQRT_DEPENDS[name])
    return [n for n in DIVSQRT_ORDER if n in want]


def function_text(name: str) -> str:
    """The GLSL definition of helper ``name``."""
    ret, params, body = DIVSQRT_HELPERS[name]
    args = ", ".join(f"{t} {p}" for t, p in params)
    return f"{ret} {name}({args})\n{{\n{body}\n}}\n"


def glsl_source(names: Sequence[str]) -> str:
    """GLSL 3.30 text defining ``names`` and their helpers, callees first."""
    return "\n".join(function_text(n) for n in needed(names))


__all__ = [
    "DIVSQRT_HELPERS",
    "DIVSQRT_ORDER",
    "DIVSQRT_DEPENDS",
    "DIVSQRT_OPS",
    "needed",
    "function_text",
    "glsl_source",
]
