"""Soft double precision: IEEE 754 binary64 on ``uvec2`` words in GLSL 3.30, for hosts
without GLSL 4.00 / GL_ARB_gpu_shader_fp64 (the gl33 profile).

docs/lowering.md "Soft double precision (GLSL 3.30)" lists the rules and the helpers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import int_emul
from .exprs import Expr, call
from .soft_fp64_divsqrt import DIVSQRT_HELPERS

Helper = tuple[str, tuple[tuple[str, str], ...], str]

U2 = "uvec2"
_A = ((U2, "a"),)
_AB = ((U2, "a"), (U2, "b"))

_HELPERS: dict[str, Helper] = {
    # -- 64-bit unsigned integers as uvec2(lo, hi) ---------------------------------
    "glp_sd_add": (
        U2,
        _AB,
        """\
    uint lo = a.x + b.x;
    return uvec2(lo, a.y + b.y + (lo < a.x ? 1u : 0u));""",
    ),
    "glp_sd_sub": (
        U2,
        _AB,
        """\
    return uvec2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u));""",
    ),
    "glp_sd_lt": (
        "bool",
        _AB,
        """\
    return a.y < b.y || (a.y == b.y && a.x < b.x);""",
    ),
    # The helpers are written branch-free where they can be (selects, one return):
    # the host inlines every call, and early returns and divergent branches multiply
    # the code llvmpipe compiles.  Every GLSL shift count stays in [0, 31] (larger
    # ones are undefined): x >> (32 - k) is written (x >> 1) >> (31 - k).
    # a << n and a >> n for any n (n <= 0: a; n >= 64: 0).
    "glp_sd_shl": (
        U2,
        ((U2, "a"), ("int", "n")),
        """\
    uint s = uint(clamp(n, 0, 63)), k = s & 31u;
    uvec2 r = uvec2(a.x << k, (a.y << k) | ((a.x >> 1u) >> (31u - k)));
    r = s >= 32u ? uvec2(0u, r.x) : r;
    return n >= 64 ? uvec2(0u) : r;""",
    ),
    "glp_sd_shr": (
        U2,
        ((U2, "a"), ("int", "n")),
        """\
    uint s = uint(clamp(n, 0, 63)), k = s & 31u;
    uvec2 r = uvec2((a.x >> k) | ((a.y << 1u) << (31u - k)), a.y >> k);
    r = s >= 32u ? uvec2(r.y, 0u) : r;
    return n >= 64 ? uvec2(0u) : r;""",
    ),
    # a >> n with the discarded bits ORed into bit 0 (the sticky bit): rounding
    # sees "exactly on a boundary" apart from "a little above it".
    "glp_sd_shr_jam": (
        U2,
        ((U2, "a"), ("int", "n")),
        """\
    uvec2 r = glp_sd_shr(a, n);
    return uvec2(r.x | (glp_sd_shl(r, n) != a ? 1u : 0u), r.y);""",
    ),
    # Index of the highest set bit, -1 for 0: the exponent of float(v), exact once
    # v has at most 24 significant bits.
    "glp_sd_msb": (
        "int",
        (("uint", "v"),),
        """\
    bool big = v >= 0x1000000u;
    int e = int(floatBitsToUint(float(big ? v >> 8u : v)) >> 23u) - (big ? 119 : 127);
    return v == 0u ? -1 : e;""",
    ),
    "glp_sd_clz": (
        "int",
        _A,
        """\
    bool high = a.y != 0u;
    return (high ? 31 : 63) - glp_sd_msb(high ? a.y : a.x);""",
    ),
    "glp_sd_mul32": (
        U2,
        (("uint", "a"), ("uint", "b")),
        """\
    return uvec2(a * b, glp_umul_hi(a, b));""",
    ),
    # The full 128-bit product of two 64-bit integers, from four 32x32 products.
    "glp_sd_mul64": (
        "void",
        ((U2, "a"), (U2, "b"), ("out uvec2", "hi"), ("out uvec2", "lo")),
        """\
    uvec2 p00 = glp_sd_mul32(a.x, b.x), p01 = glp_sd_mul32(a.x, b.y);
    uvec2 p10 = glp_sd_mul32(a.y, b.x), p11 = glp_sd_mul32(a.y, b.y);
    uvec2 mid = glp_sd_add(glp_sd_add(uvec2(p00.y, 0u), uvec2(p01.x, 0u)), uvec2(p10.x, 0u));
    lo = uvec2(p00.x, mid.x);
    hi = glp_sd_add(glp_sd_add(glp_sd_add(p11, uvec2(p01.y, 0u)), uvec2(p10.y, 0u)), uvec2(mid.y, 0u));""",
    ),
    # -- double fields -----------------------------------------------------------------
    "glp_sd_isnan": (
        "bool",
        _A,
        """\
    uint h = a.y & 0x7fffffffu;
    return h > 0x7ff00000u || (h == 0x7ff00000u && a.x != 0u);""",
    ),
    # A NaN result: the first NaN operand made quiet (payload kept), else the x86
    # "default NaN" -- what llvmpipe's native doubles return.
    "glp_sd_nan2": (
        U2,
        _AB,
        """\
    return glp_sd_isnan(a) ? uvec2(a.x, a.y | 0x00080000u)
         : glp_sd_isnan(b) ? uvec2(b.x, b.y | 0x00080000u) : uvec2(0u, 0xfff80000u);""",
    ),
    # The 53-bit significand of a finite non-zero double with its leading one at
    # bit 52, and the exponent field that goes with it (below 1 for subnormals).
    "glp_sd_sig": (
        U2,
        ((U2, "a"), ("out int", "e")),
        """\
    uint h = a.y & 0x7fffffffu;
    int f = int(h >> 20u);
    uvec2 m = uvec2(a.x, h & 0xfffffu);
    int s = glp_sd_clz(m) - 11;
    e = f != 0 ? f : 1 - s;
    return f != 0 ? uvec2(m.x, m.y | 0x100000u) : glp_sd_shl(m, s);""",
    ),
    # Round and pack sig * 2^(e - 1084), where sig < 2^63 has its leading one at bit
    # 62 when the result is normal (e then being the exponent field minus one) and
    # bits 9..0 are guard bits (bit 0 sticky).  e < 0: the value is below the normal
    # range, so sig is shifted down to the subnormal position first (gradual
    # underflow, one rounding).  Round to nearest, ties to even; the exponent field
    # is added (not ORed), so a carry out of the significand bumps it, up to inf.
    "glp_sd_round_pack": (
        U2,
        (("uint", "sgn"), ("int", "e"), (U2, "sig")),
        """\
    return glp_sd_round_pack_0(sgn, max(e, 0), glp_sd_shr_jam(sig, -e));""",
    ),
    # The rounding and packing alone, for e >= 0 (a sig below bit 62 with e == 0 is a
    # subnormal already in place).
    "glp_sd_round_pack_0": (
        U2,
        (("uint", "sgn"), ("int", "e"), (U2, "sig")),
        """\
    bool overflow = e > 0x7fd || (e == 0x7fd && sig.y + (sig.x >= 0xfffffe00u ? 1u : 0u) >= 0x80000000u);
    uint round_bits = sig.x & 0x3ffu;
    sig = glp_sd_add(sig, uvec2(0x200u, 0u));
    uvec2 m = uvec2(((sig.x >> 10u) | (sig.y << 22u)) & (round_bits == 0x200u ? ~1u : ~0u), sig.y >> 10u);
    uvec2 r = uvec2(m.x, sgn + (uint(e) << 20u) + m.y);
    return overflow ? uvec2(0u, sgn | 0x7ff00000u) : r;""",
    ),
    # The same for any non-zero sig < 2^63: normalized first (exactly: only zeros
    # are shifted in).
    "glp_sd_norm_round_pack": (
        U2,
        (("uint", "sgn"), ("int", "e"), (U2, "sig")),
        """\
    int s = glp_sd_clz(sig) - 1;
    return glp_sd_round_pack(sgn, e - s, glp_sd_shl(sig, s));""",
    ),
    # -- arithmetic ----------------------------------------------------------------------
    # a + b: the larger magnitude first, the smaller one's significand aligned to it
    # with a sticky bit; 9 guard bits.  An exact zero sum is +0 unless both operands
    # are zeros of the same sign (IEEE 754 6.3, round to nearest).
    "glp_dadd": (
        U2,
        _AB,
        """\
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
    return hx >= 0x7ff00000u ? special : r;""",
    ),
    # a * b: the 106-bit product of the significands (leading ones at bits 62 and 63
    # after the shifts), its low half folded into the sticky bit.
    "glp_dmul": (
        U2,
        _AB,
        """\
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
    return (ha >= 0x7ff00000u || hb >= 0x7ff00000u) ? special : r;""",
    ),
    # DMAD: a * b rounded, then + c rounded (two roundings, as the native profile).
    "glp_dmad": (
        U2,
        ((U2, "a"), (U2, "b"), (U2, "c")),
        """\
    return glp_dadd(glp_dmul(a, b), c);""",
    ),
    # -- sign operations: the sign bit alone, a NaN's included (IEEE 754 5.5.1) -----
    "glp_dneg": (U2, _A, "    return uvec2(a.x, a.y ^ 0x80000000u);"),
    "glp_dabs": (U2, _A, "    return uvec2(a.x, a.y & 0x7fffffffu);"),
    # the source modifiers of a 64-bit integer operand: two's complement
    "glp_sd_ineg": (U2, _A, "    return glp_sd_sub(uvec2(0u), a);"),
    "glp_sd_iabs": (U2, _A, "    return a.y >= 0x80000000u ? glp_sd_sub(uvec2(0u), a) : a;"),
    # -- comparisons (NaN is unordered; -0 == +0) ------------------------------------
    "glp_deq": (
        "bool",
        _AB,
        """\
    if (glp_sd_isnan(a) || glp_sd_isnan(b)) return false;
    return a == b || ((a.x | b.x) == 0u && ((a.y | b.y) & 0x7fffffffu) == 0u);""",
    ),
    "glp_dne": (
        "bool",
        _AB,
        """\
    return !glp_deq(a, b);""",
    ),
    "glp_dlt": (
        "bool",
        _AB,
        """\
    if (glp_sd_isnan(a) || glp_sd_isnan(b)) return false;
    bool na = a.y >= 0x80000000u, nb = b.y >= 0x80000000u;
    uvec2 ma = uvec2(a.x, a.y & 0x7fffffffu), mb = uvec2(b.x, b.y & 0x7fffffffu);
    if (na != nb) return na && (ma.x | ma.y | mb.x | mb.y) != 0u;
    return na ? glp_sd_lt(mb, ma) : glp_sd_lt(ma, mb);""",
    ),
    "glp_dge": (
        "bool",
        _AB,
        """\
    return !glp_sd_isnan(a) && !glp_sd_isnan(b) && !glp_dlt(a, b);""",
    ),
    # llvmpipe's min/max: a NaN operand yields the other one; equal operands
    # (including -0 and +0) yield b.
    "glp_dmin": (
        U2,
        _AB,
        """\
    return (glp_sd_isnan(b) || glp_dlt(a, b)) ? a : b;""",
    ),
    "glp_dmax": (
        U2,
        _AB,
        """\
    return (glp_sd_isnan(b) || glp_dlt(b, a)) ? a : b;""",
    ),
    # sign(): +-1.0; +0.0 for zeros of either sign and for NaN (as the native profile).
    "glp_dssg": (
        U2,
        _A,
        """\
    if (glp_sd_isnan(a) || ((a.y & 0x7fffffffu) | a.x) == 0u) return uvec2(0u);
    return uvec2(0u, (a.y & 0x80000000u) | 0x3ff00000u);""",
    ),
    # -- rounding to an integer --------------------------------------------------------
    # mode 0 trunc, 1 floor, 2 ceil, 3 nearest even.  The fraction bits are cleared;
    # rounding the magnitude up adds one unit of the last integer place to the
    # whole 64-bit pattern, so a carry moves into the exponent (1.5 -> 2.0).
    "glp_sd_round_int": (
        U2,
        ((U2, "a"), ("int", "mode")),
        """\
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
    return e >= 52 ? big : e < 0 ? small : r;""",
    ),
    "glp_dtrunc": (U2, _A, "    return glp_sd_round_int(a, 0);"),
    "glp_dflr": (U2, _A, "    return glp_sd_round_int(a, 1);"),
    "glp_dceil": (U2, _A, "    return glp_sd_round_int(a, 2);"),
    "glp_dround": (U2, _A, "    return glp_sd_round_int(a, 3);"),
    # fract(x) = x - floor(x), one rounding (so fract(-1e-20) = 1.0 and fract(inf) =
    # NaN, as the native profile computes it).
    "glp_dfrac": (
        U2,
        _A,
        """\
    uvec2 f = glp_sd_round_int(a, 1);
    return glp_dadd(a, uvec2(f.x, f.y ^ 0x80000000u));""",
    ),
    # -- frexp / ldexp -------------------------------------------------------------------
    # DFRACEXP: |m| in [0.5, 1) and x = m * 2^e; zeros, infinities and NaN come back
    # unchanged with e = 0 (C's frexp).
    "glp_dfrexp": (
        U2,
        ((U2, "a"), ("out int", "e")),
        """\
    uint h = a.y & 0x7fffffffu;
    e = 0;
    if (h >= 0x7ff00000u || (h | a.x) == 0u) return a;
    int ee;
    uvec2 m = glp_sd_sig(a, ee);
    e = ee - 1022;
    return uvec2(m.x, (a.y & 0x80000000u) | 0x3fe00000u | (m.y & 0xfffffu));""",
    ),
    # DLDEXP: x * 2^n rounded once (to a subnormal or to inf when out of range);
    # 0, inf and NaN come back unchanged, as the native lowering's guard does.
    "glp_dldexp": (
        U2,
        ((U2, "a"), ("int", "n")),
        """\
    uint h = a.y & 0x7fffffffu;
    if (h >= 0x7ff00000u || (h | a.x) == 0u) return a;
    int e;
    uvec2 m = glp_sd_sig(a, e);
    return glp_sd_round_pack(a.y & 0x80000000u, e + clamp(n, -4096, 4096) - 1, glp_sd_shl(m, 10));""",
    ),
    # -- conversions -----------------------------------------------------------------------
    # float -> double is exact: subnormal floats are normalized, a NaN keeps its
    # payload (made quiet).
    "glp_f2d": (
        U2,
        (("uint", "f"),),
        """\
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
    return uvec2(m << 29u, sgn | (uint(e + 896) << 20u) | (m >> 3u));""",
    ),
    # double -> float: the 52-bit fraction cut to 30 bits with a sticky bit, rounded
    # like glp_sd_round_pack with 7 guard bits (float subnormals, overflow to inf).
    # The exponent offset 0x381 = 1023 - 127 + 1.
    "glp_d2f": (
        "uint",
        _A,
        """\
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
    return sgn + (uint(e) << 23u) + sig;""",
    ),
    "glp_u2d": (
        U2,
        (("uint", "u"),),
        """\
    if (u == 0u) return uvec2(0u);
    int msb = glp_sd_msb(u);
    uvec2 m = glp_sd_shl(uvec2(u, 0u), 52 - msb);
    return uvec2(m.x, (uint(1023 + msb) << 20u) + (m.y & 0xfffffu));""",
    ),
    "glp_i2d": (
        U2,
        (("int", "i"),),
        """\
    uvec2 d = glp_u2d(i < 0 ? 0u - uint(i) : uint(i));
    return i < 0 ? uvec2(d.x, d.y | 0x80000000u) : d;""",
    ),
    # 64-bit integers round (more than 53 significant bits): value = u * 2^(1084 - 1084) = sig * 2^(e - 1084).
    "glp_u642d": (
        U2,
        _A,
        """\
    if ((a.x | a.y) == 0u) return uvec2(0u);
    if (a.y >= 0x80000000u) return glp_sd_norm_round_pack(0u, 1085, glp_sd_shr_jam(a, 1));
    return glp_sd_norm_round_pack(0u, 1084, a);""",
    ),
    "glp_i642d": (
        U2,
        _A,
        """\
    bool neg = a.y >= 0x80000000u;
    uvec2 mag = neg ? glp_sd_sub(uvec2(0u), a) : a;
    uvec2 d = glp_u642d(mag);
    return neg ? uvec2(d.x, d.y | 0x80000000u) : d;""",
    ),
    # |trunc(x)| as a 64-bit integer, for a finite x with unbiased exponent 0 <= e <= 63.
    "glp_sd_trunc_mag": (
        U2,
        ((U2, "a"), ("int", "e")),
        """\
    uvec2 m = uvec2(a.x, (a.y & 0xfffffu) | 0x100000u);
    return e >= 52 ? glp_sd_shl(m, e - 52) : glp_sd_shr(m, 52 - e);""",
    ),
    # Truncating conversions.  Out of range (and NaN) give what llvmpipe's native
    # doubles give: INT_MIN / INT64_MIN for the signed ones, all ones for the
    # unsigned ones.
    "glp_d2i": (
        "int",
        _A,
        """\
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    if (e < 0) return 0;
    if (e > 31) return int(0x80000000u);
    uint m = glp_sd_trunc_mag(a, e).x;
    if (a.y >= 0x80000000u) return m <= 0x80000000u ? int(0u - m) : int(0x80000000u);
    return m <= 0x7fffffffu ? int(m) : int(0x80000000u);""",
    ),
    "glp_d2u": (
        "uint",
        _A,
        """\
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    if (e < 0) return 0u;
    if (e > 31 || a.y >= 0x80000000u) return 0xffffffffu;
    return glp_sd_trunc_mag(a, e).x;""",
    ),
    "glp_d2i64": (
        U2,
        _A,
        """\
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    if (e < 0) return uvec2(0u);
    if (e > 63) return uvec2(0u, 0x80000000u);
    uvec2 m = glp_sd_trunc_mag(a, e);
    if (a.y >= 0x80000000u)
        return glp_sd_lt(uvec2(0u, 0x80000000u), m) ? uvec2(0u, 0x80000000u) : glp_sd_sub(uvec2(0u), m);
    return m.y >= 0x80000000u ? uvec2(0u, 0x80000000u) : m;""",
    ),
    "glp_d2u64": (
        U2,
        _A,
        """\
    int e = int((a.y >> 20u) & 0x7ffu) - 1023;
    if (e < 0) return uvec2(0u);
    if (e > 63 || a.y >= 0x80000000u) return uvec2(0xffffffffu);
    return glp_sd_trunc_mag(a, e);""",
    ),
}


# The helper dictionaries the emitter draws from: this module's, then the
# fma / division / square-root ones (soft_fp64_divsqrt).
LIBRARIES: tuple[dict[str, Helper], ...] = (_HELPERS, DIVSQRT_HELPERS)


def _library() -> dict[str, Helper]:
    merged: dict[str, Helper] = {}
    for lib in LIBRARIES:
        for name, helper in lib.items():
            if name in merged and merged[name] != helper:
                raise AssertionError(f"soft fp64 helper {name} is defined twice, differently")
            merged[name] = helper
    return merged


LIBRARY: dict[str, Helper] = _library()

_CALLS = re.compile(r"\b(glp_\w+)\s*\(")


def register(em, name: str) -> None:
    """Add helper ``name`` (and, first, every ``glp_*`` helper its body calls) to ``em``."""
    if f"{name}:1" in em.helpers:
        return
    if name not in LIBRARY:
        int_emul._register(em, name)  # glp_umul_hi: the 32-bit integer helper
        return
    ret, params, body = LIBRARY[name]
    for dep in dict.fromkeys(_CALLS.findall(body)):
        if dep != name:
            register(em, dep)
    args = ", ".join(f"{t} {p}" for t, p in params)
    em.helper(f"{name}:1", f"{ret} {name}({args})\n{{\n{body}\n}}")


def soft_call(em, name: str, args: Sequence[Expr]) -> Expr:
    """``name(args)`` with the helper registered; the result is typed by the helper's
    return type (``uvec2`` -> two ``uint`` components)."""
    register(em, name)
    ret = LIBRARY[name][0]
    base, n = {"uvec2": ("uint", 2), "uint": ("uint", 1), "int": ("int", 1), "bool": ("bool", 1)}[ret]
    return call(f"{name}({', '.join(a.text for a in args)})", base, n)


def helper_source(names: Sequence[str]) -> str:
    """The GLSL text of helpers ``names`` and their dependencies, in declaration order
    (for tests and benchmarks that call the helpers directly)."""

    class _Collect:
        def __init__(self):
            self.helpers: dict[str, str] = {}

        def helper(self, key: str, code: str) -> str:
            self.helpers.setdefault(key, code)
            return key

    sink = _Collect()
    for name in names:
        register(sink, name)
    return "\n\n".join(sink.helpers.values()) + "\n"


__all__ = ["LIBRARIES", "LIBRARY", "register", "soft_call", "helper_source"]
