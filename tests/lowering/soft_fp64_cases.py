"""Inputs and numpy references for the soft-double tests (lowering/glsl/soft_fp64.py).

Every double travels as its uint64 bit pattern.  The references are numpy
float64 (IEEE 754 binary64, correctly rounded, no flush to zero on the CPU)
or Python integers; where IEEE leaves the result open the expected value is
the rule the native profile (llvmpipe) shows, written out here:

* a NaN result of an arithmetic opcode is the first NaN operand made quiet,
  else the x86 default NaN 0xfff8000000000000 (inf - inf, 0 * inf);
* DMIN / DMAX: a NaN operand yields the other one, equal operands yield src1;
* D2I / D2I64 of NaN or out of range: INT_MIN; D2U / D2U64: all ones;
* DSSG of NaN and of -0: +0.

Inputs: every special class crossed with every other (``SPECIALS``), random
bit patterns, and random values shaped for each opcode (operands of similar
exponent for cancellation, exact ties, results near the overflow and
underflow thresholds, values whose fraction bits decide a rounding).
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable

import numpy as np

U64 = np.uint64
F64 = np.float64
DEFAULT_NAN = 0xFFF8000000000000
QUIET = 0x0008000000000000
SIGN = 0x8000000000000000


def _b(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


_POS = [
    0x0000000000000000,  # +0
    0x0000000000000001,  # min subnormal
    0x0000000000000003,
    0x000FFFFFFFFFFFFF,  # max subnormal
    0x0008000000000000,  # a subnormal with one bit
    0x0010000000000000,  # min normal
    0x0010000000000001,
    0x001FFFFFFFFFFFFF,
    0x7FEFFFFFFFFFFFFF,  # max normal
    0x7FE0000000000000,
    0x7FF0000000000000,  # inf
    0x7FF8000000000000,  # quiet NaN
    0x7FF0000000000001,  # signaling NaN
    0x7FFC00000000BEEF,  # NaN with a payload
    _b(1.0),
    _b(1.0) + 1,
    _b(1.0) - 1,
    _b(0.5),
    _b(1.5),
    _b(2.0),
    _b(2.5),
    _b(3.0),
    _b(0.1),
    _b(1e-300),
    _b(1e300),
    _b(2.0**52),
    _b(2.0**52 + 0.5),
    _b(2.0**53),
    _b(2.0**53) + 1,
    _b(2.0**31),
    _b(2.0**31 - 0.5),
    _b(2.0**32),
    _b(2.0**32 - 0.5),
    _b(2.0**63),
    _b(2.0**64),
    _b(2.0**-53),
    _b(2.0**-1022 * 1.5),
    _b(0.49999999999999994),
    _b(2.0**1023),
    _b(2.0**-1074 * 3),
    _b(3.4028234663852886e38),
    _b(3.4028235677973366e38),
    _b(1.1754943508222875e-38),
    _b(1.401298464324817e-45),
    _b(7.006492321624085e-46),
    _b(4503599627370497.5),
]
SPECIALS = np.array(_POS + [v | SIGN for v in _POS], dtype=U64)


# ---------------------------------------------------------------------------
# Generators (all seeded by the opcode name)
# ---------------------------------------------------------------------------


def rng_for(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def random_bits(rng, n: int) -> np.ndarray:
    return rng.integers(0, 2**64, n, dtype=U64, endpoint=False)


def with_exponent(rng, exps: np.ndarray) -> np.ndarray:
    """Random sign and fraction with the given exponent fields (clipped to [0, 2046])."""
    n = len(exps)
    frac = rng.integers(0, 2**52, n, dtype=U64)
    sign = rng.integers(0, 2, n, dtype=U64) << U64(63)
    e = np.clip(exps, 0, 2046).astype(U64)
    return sign | (e << U64(52)) | frac


def similar_pairs(rng, n: int):
    """Operands whose exponents differ by at most 3 (sums cancel); some equal magnitudes."""
    a = with_exponent(rng, rng.integers(0, 2047, n))
    ea = ((a >> U64(52)) & U64(0x7FF)).astype(np.int64)
    b = with_exponent(rng, ea + rng.integers(-3, 4, n))
    same = rng.random(n) < 0.1
    b[same] = a[same] ^ (rng.integers(0, 2, int(same.sum()), dtype=U64) << U64(63))
    near = rng.random(n) < 0.2  # b = -(a +- a few ulps): massive cancellation
    b[near] = (a[near] + rng.integers(-4, 5, int(near.sum())).astype(np.int64).astype(U64)) ^ U64(SIGN)
    return a, b


def tie_pairs(rng, n: int):
    """a + b exactly halfway (or one sticky bit off) between two doubles: b = +-ulp(a)/2."""
    a = with_exponent(rng, rng.integers(60, 2040, n))
    ea = ((a >> U64(52)) & U64(0x7FF)).astype(np.int64)
    b = with_exponent(rng, ea - 53) & ~U64(0xFFFFFFFFFFFFF)  # +-2^(ea-1023-53): half an ulp
    off = rng.random(n)
    b[off < 0.3] += U64(1)  # just above the tie
    b[(off >= 0.3) & (off < 0.5)] = with_exponent(rng, ea[(off >= 0.3) & (off < 0.5)] - 54)
    return a, b


def product_pairs(rng, n: int, target_lo: int, target_hi: int):
    """Pairs whose product's exponent field lands in [target_lo, target_hi] (may be < 1:
    subnormal results, or > 2046: overflow)."""
    ea = rng.integers(1, 2047, n)
    t = rng.integers(target_lo, target_hi + 1, n)
    a = with_exponent(rng, ea)
    b = with_exponent(rng, np.clip(t - ea + 1023, 1, 2046))
    return a, b


def tie_products(rng, n: int):
    """Products of a 27-bit and a 28-bit odd significand: 54-55 significant bits, so
    many are exact ties of the 53-bit rounding."""
    ma = (rng.integers(2**26, 2**27, n, dtype=U64) | U64(1)) << U64(26)
    mb = (rng.integers(2**27, 2**28, n, dtype=U64) | U64(1)) << U64(25)
    ea = rng.integers(900, 1100, n).astype(U64)
    eb = rng.integers(900, 1100, n).astype(U64)
    sa = rng.integers(0, 2, n, dtype=U64) << U64(63)
    a = sa | (ea << U64(52)) | (ma & U64(0xFFFFFFFFFFFFF))
    b = (eb << U64(52)) | (mb & U64(0xFFFFFFFFFFFFF))
    return a, b


def cross(values: np.ndarray, k: int) -> list[np.ndarray]:
    """Every k-tuple of ``values`` (k = 1, 2 or 3), as k columns."""
    grids = np.meshgrid(*([values] * k), indexing="ij")
    return [g.ravel() for g in grids]


# ---------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------


def as_f(bits: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(bits, dtype=U64).view(F64)


def as_bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x, dtype=F64).view(U64)


def is_nan(bits: np.ndarray) -> np.ndarray:
    return (bits & U64(0x7FFFFFFFFFFFFFFF)) > U64(0x7FF0000000000000)


def nan_rule(result: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """Replace NaN results by the first NaN operand made quiet, else the default NaN."""
    out = result.copy()
    todo = is_nan(result)
    for op in operands:
        hit = todo & is_nan(op)
        out[hit] = op[hit] | U64(QUIET)
        todo &= ~hit
    out[todo] = U64(DEFAULT_NAN)
    return out


def _arith(fn: Callable) -> Callable:
    def ref(*ops):
        with np.errstate(all="ignore"):
            r = as_bits(fn(*[as_f(o) for o in ops]))
        return nan_rule(r, *ops)

    return ref


def _dmad(a, b, c):
    with np.errstate(all="ignore"):
        p = as_bits(as_f(a) * as_f(b))
    p = nan_rule(p, a, b)
    with np.errstate(all="ignore"):
        r = as_bits(as_f(p) + as_f(c))
    return nan_rule(r, p, c)


def _minmax(less_is_a: bool):
    def ref(a, b):
        fa, fb = as_f(a), as_f(b)
        with np.errstate(all="ignore"):
            pick_a = np.isnan(fb) | ((fa < fb) if less_is_a else (fb < fa))
        return np.where(pick_a, a, b)

    return ref


def _cmp(fn):
    def ref(a, b):
        with np.errstate(all="ignore"):
            return fn(as_f(a), as_f(b)).astype(np.uint32)

    return ref


def _round(fn):
    def ref(a):
        with np.errstate(all="ignore"):
            r = as_bits(fn(as_f(a)))
        return nan_rule(r, a)

    return ref


def _dfrac(a):
    fl = _round(np.floor)(a)
    return _arith(np.add)(a, fl ^ U64(SIGN))


def _dssg(a):
    x = as_f(a)
    return as_bits(np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0)))


def _f2d(f32: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        r = as_bits(np.ascontiguousarray(f32, dtype=np.uint32).view(np.float32).astype(F64))
    nan = (f32 & 0x7FFFFFFF) > 0x7F800000
    payload = ((f32.astype(U64) & U64(0x7FFFFF)) << U64(29)) | (f32.astype(U64) >> U64(31) << U64(63))
    r[nan] = (U64(0x7FF8000000000000) | payload)[nan]
    return r


def _d2f(a):
    with np.errstate(all="ignore"):
        r = as_f(a).astype(np.float32).view(np.uint32).copy()
    nan = is_nan(a)
    top = ((a >> U64(29)) & U64(0x7FFFFF)).astype(np.uint32)
    r[nan] = (np.uint32(0x7FC00000) | top | ((a >> U64(32)).astype(np.uint32) & np.uint32(0x80000000)))[nan]
    return r


def _trunc_conv(lo: float, hi: float, bad: int, bits: int):
    def ref(a):
        x = as_f(a)
        ok = np.isfinite(x) & (x > lo) & (x < hi)
        vals = [
            int(math.trunc(v)) & ((1 << bits) - 1) if k else bad for v, k in zip(x.tolist(), ok.tolist(), strict=True)
        ]
        return np.array(vals, dtype=U64 if bits == 64 else np.uint32)

    return ref


def _i2d(i32):
    return as_bits(np.ascontiguousarray(i32, dtype=np.uint32).view(np.int32).astype(F64))


def _u2d(u32):
    return as_bits(np.asarray(u32, dtype=np.uint32).astype(F64))


def _x642d(signed: bool):
    def ref(v):
        ints = v.view(np.int64) if signed else v
        return np.array([_b(float(int(x))) for x in ints.tolist()], dtype=U64)

    return ref


def _dldexp(a, n):
    x = as_f(a)
    e = np.clip(np.ascontiguousarray(n, dtype=np.uint32).view(np.int32).astype(np.int64), -4096, 4096)
    with np.errstate(all="ignore"):
        r = as_bits(np.ldexp(x, e))
    keep = ~np.isfinite(x) | (x == 0)
    return np.where(keep, a, r)


def _dfrexp(a):
    x = as_f(a)
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)
    m = as_bits(m)
    special = ~np.isfinite(x) | (x == 0)
    return np.where(special, a, m), np.where(special, 0, e).astype(np.int32).view(np.uint32)


REFERENCES: dict[str, Callable] = {
    "DADD": _arith(np.add),
    "DMUL": _arith(np.multiply),
    "DMAD": _dmad,
    "DMIN": _minmax(True),
    "DMAX": _minmax(False),
    "DSEQ": _cmp(np.equal),
    "DSNE": _cmp(np.not_equal),
    "DSLT": _cmp(np.less),
    "DSGE": _cmp(np.greater_equal),
    "DSSG": _dssg,
    "DNEG": lambda a: a ^ U64(SIGN),  # IEEE 754 5.5.1: the sign bit only
    "DABS": lambda a: a & ~U64(SIGN),
    "DTRUNC": _round(np.trunc),
    "DFLR": _round(np.floor),
    "DCEIL": _round(np.ceil),
    "DROUND": _round(np.rint),
    "DFRAC": _dfrac,
    "DLDEXP": _dldexp,
    "DFRACEXP": _dfrexp,
    "F2D": _f2d,
    "D2F": _d2f,
    "I2D": _i2d,
    "U2D": _u2d,
    "D2I": _trunc_conv(-2147483649.0, 2147483648.0, 0x80000000, 32),
    "D2U": _trunc_conv(-1.0, 4294967296.0, 0xFFFFFFFF, 32),
    "D2I64": _trunc_conv(-(2.0**63) - 1.0, 2.0**63, 1 << 63, 64),
    "D2U64": _trunc_conv(-1.0, 2.0**64, (1 << 64) - 1, 64),
    "I642D": _x642d(True),
    "U642D": _x642d(False),
}


__all__ = [
    "SPECIALS",
    "REFERENCES",
    "rng_for",
    "random_bits",
    "with_exponent",
    "similar_pairs",
    "tie_pairs",
    "product_pairs",
    "tie_products",
    "cross",
    "as_f",
    "as_bits",
    "is_nan",
    "nan_rule",
]
