"""Reference semantics of TGSI opcodes in numpy, written from Mesa's tgsi.rst.

This module is the *expected value* side of the execution tests: it is
written from the opcode definitions in ``docs/gallium/tgsi.rst`` (and, for
the removed opcodes, docs/lowering.md "Semantics where tgsi.rst and GLSL
differ"), never from what the GLSL emitter does.

Registers are raw 32-bit words, exactly as TGSI defines them: every operand
and result here is a ``uint32`` array of shape ``(N, 4)`` (N test cases, one
row = one register).  Each opcode function views the words as the type
tgsi.rst gives the opcode (float32, int32, uint32, two doubles, two 64-bit
integers), computes in numpy with the wraparound / float32 rounding of that
type, and returns raw words again.  Results are computed for all four
channels; the writemask is the caller's business (``apply_writemask``).

Where tgsi.rst leaves a result undefined (IDIV by zero, F2I of NaN, RSQ of a
negative number, ...) the opcode's entry in ``UNDEFINED`` returns a boolean
``(N, 4)`` mask of the lanes whose value is "don't care"; the test still puts
such cases in the batch (so a trap or a crash would be caught) but does not
compare them.

Precision rules (which float results may differ from the exact value and by
how much, with the GLSL 4.50 citations) are ``exec_harness.PRECISION``: this
module only says what the exact answer is.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

U32 = np.uint32
MASK32 = 0xFFFFFFFF
TRUE = np.uint32(0xFFFFFFFF)  # the ~0 that FSxx / USxx / ISxx write

# ---------------------------------------------------------------------------
# Word <-> value helpers
# ---------------------------------------------------------------------------


def words(a) -> np.ndarray:
    """Integers (Python ints, may be negative or >= 2**31) -> uint32 words, same shape."""
    obj = np.asarray(a, dtype=object)
    return np.array([int(v) & MASK32 for v in obj.ravel()], dtype=U32).reshape(obj.shape)


def f32_words(a) -> np.ndarray:
    """Floats -> their float32 bit patterns (uint32)."""
    return np.ascontiguousarray(np.asarray(a, dtype=np.float32)).view(U32)


def f64_words(a) -> np.ndarray:
    """``(N, 2)`` doubles -> ``(N, 4)`` words, lane 0 in .xy (low word in .x)."""
    d = np.ascontiguousarray(np.asarray(a, dtype=np.float64).reshape(-1, 2))
    return d.view(U32).reshape(-1, 4)


def u64_words(a) -> np.ndarray:
    """``(N, 2)`` 64-bit integers (Python ints, may be negative) -> ``(N, 4)`` words."""
    flat = [int(v) & 0xFFFFFFFFFFFFFFFF for v in np.asarray(a, dtype=object).ravel()]
    d = np.array(flat, dtype=np.uint64).reshape(-1, 2)
    return np.ascontiguousarray(d).view(U32).reshape(-1, 4)


def as_f32(w: np.ndarray) -> np.ndarray:
    """View words as float32 (no copy)."""
    return np.ascontiguousarray(w, dtype=U32).view(np.float32)


def as_i32(w: np.ndarray) -> np.ndarray:
    """View words as int32."""
    return np.ascontiguousarray(w, dtype=U32).view(np.int32)


def as_f64(w: np.ndarray) -> np.ndarray:
    """View ``(N, 4)`` words as ``(N, 2)`` doubles."""
    return np.ascontiguousarray(w, dtype=U32).reshape(-1, 4).view(np.float64)


def as_u64(w: np.ndarray) -> np.ndarray:
    """View ``(N, 4)`` words as ``(N, 2)`` uint64."""
    return np.ascontiguousarray(w, dtype=U32).reshape(-1, 4).view(np.uint64)


def as_i64(w: np.ndarray) -> np.ndarray:
    """View ``(N, 4)`` words as ``(N, 2)`` int64."""
    return np.ascontiguousarray(w, dtype=U32).reshape(-1, 4).view(np.int64)


def _fw(x) -> np.ndarray:
    """float32 values -> words (rounding a float64 result to float32 first)."""
    return np.ascontiguousarray(np.asarray(x).astype(np.float32)).view(U32)


def _iw(x) -> np.ndarray:
    """int64/uint64 values -> low 32 bits as words (wraparound)."""
    return (np.asarray(x).astype(np.int64) & MASK32).astype(U32)


def _dw(x) -> np.ndarray:
    return f64_words(x)


def _bool(c) -> np.ndarray:
    return np.where(c, TRUE, U32(0)).astype(U32)


def _repl(col) -> np.ndarray:
    """A per-case scalar -> replicated to all four channels (tgsi.rst 'replicates')."""
    col = np.asarray(col).reshape(-1, 1)
    return np.repeat(col, 4, axis=1)


def _lanes_to_xz(c) -> np.ndarray:
    """Two 64-bit-lane booleans -> ~0/0 in dst.x and dst.z (.y/.w written as 0)."""
    out = np.zeros((c.shape[0], 4), dtype=U32)
    out[:, 0] = _bool(c[:, 0])
    out[:, 2] = _bool(c[:, 1])
    return out


def _lanes_to_xy(w32) -> np.ndarray:
    """Two 32-bit results of 64-bit lanes -> dst.x, dst.y (.z/.w zero)."""
    out = np.zeros((w32.shape[0], 4), dtype=U32)
    out[:, 0:2] = w32
    return out


def apply_writemask(result: np.ndarray, previous: np.ndarray, mask: str) -> np.ndarray:
    """Channels not in ``mask`` (e.g. ``"xz"``) keep ``previous``."""
    out = np.array(previous, dtype=U32, copy=True)
    for c, letter in enumerate("xyzw"):
        if letter in mask:
            out[:, c] = result[:, c]
    return out


# ---------------------------------------------------------------------------
# Float helpers (float32 semantics; transcendentals evaluated in float64 and
# rounded once, i.e. the correctly rounded value the tolerances measure from)
# ---------------------------------------------------------------------------

_ERR = dict(all="ignore")


def _f(w):
    return as_f32(w).astype(np.float64)


def _min(a, b):
    # tgsi_exec's micro_min is fminf(): a NaN operand yields the other one
    # (also the D3D10 rule Gallium drivers follow).  tgsi.rst's min(x,y) =
    # (x < y) ? x : y agrees whenever src0 is the NaN.
    return np.fmin(a, b)


def _max(a, b):
    return np.fmax(a, b)


def _round_half_even(x):
    return np.round(x)  # numpy rounds half to even


def _unary_f(fn) -> Callable:
    def op(s0):
        with np.errstate(**_ERR):
            return _fw(fn(as_f32(s0)))

    return op


def _binary_f(fn) -> Callable:
    def op(s0, s1):
        with np.errstate(**_ERR):
            return _fw(fn(as_f32(s0), as_f32(s1)))

    return op


def _repl_f(fn) -> Callable:
    """Scalar op on .x (and .x of src1), replicated: RCP RSQ SQRT EX2 LG2 POW SIN COS."""

    def op(*srcs):
        with np.errstate(**_ERR):
            args = [_f(s)[:, 0] for s in srcs]
            return _repl(_fw(fn(*args)))

    return op


def _set_f(cmp) -> Callable:
    """SLT & co: 1.0F / 0.0F."""

    def op(s0, s1):
        with np.errstate(**_ERR):
            return _fw(np.where(cmp(as_f32(s0), as_f32(s1)), 1.0, 0.0))

    return op


def _set_i(view, cmp) -> Callable:
    """FSxx / ISxx / USxx: ~0 / 0."""

    def op(s0, s1):
        with np.errstate(**_ERR):
            return _bool(cmp(view(s0), view(s1)))

    return op


def _dot(n):
    def op(s0, s1):
        a, b = as_f32(s0)[:, :n], as_f32(s1)[:, :n]
        with np.errstate(**_ERR):
            return _repl(_fw(np.sum(a.astype(np.float64) * b.astype(np.float64), axis=1)))

    return op


def _mad(s0, s1, s2):
    # "The implementation is free to decide whether there is an intermediate
    # rounding step": this is the unfused value; FMA_ALTERNATIVES has the other.
    a, b, c = as_f32(s0), as_f32(s1), as_f32(s2)
    with np.errstate(**_ERR):
        return _fw((a * b) + c)


def _fma(s0, s1, s2):
    # "no intermediate rounding": a*b+c evaluated exactly, rounded once to float32.
    from fractions import Fraction

    a, b, c = as_f32(s0), as_f32(s1), as_f32(s2)
    out = np.empty(a.shape, dtype=np.float32)
    for idx in np.ndindex(a.shape):
        x, y, z = float(a[idx]), float(b[idx]), float(c[idx])
        if all(math.isfinite(v) for v in (x, y, z)):
            with np.errstate(**_ERR):  # an exact result beyond FLT_MAX becomes inf
                out[idx] = _round_to_f32(Fraction(x) * Fraction(y) + Fraction(z))
        else:
            with np.errstate(**_ERR):
                out[idx] = np.float32(x * y + z)
    return out.view(U32)


def _lrp(s0, s1, s2):
    a, b, c = _f(s0), _f(s1), _f(s2)
    with np.errstate(**_ERR):
        return _fw(a * b + (1.0 - a) * c)


def _cmp(s0, s1, s2):
    # dst = src0 < 0 ? src1 : src2 (float compare: -0.0 and NaN are not < 0)
    with np.errstate(**_ERR):
        return np.where(as_f32(s0) < 0, s1, s2).astype(U32)


def _ssg(s0):
    x = as_f32(s0)
    with np.errstate(**_ERR):
        return _fw(np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0)))


def _ldexp(s0, s1):
    with np.errstate(**_ERR):
        return _fw(np.ldexp(_f(s0), as_i32(s1).astype(np.int64).clip(-2000, 2000)))


def _lit(s0):
    x, y, w = _f(s0)[:, 0], _f(s0)[:, 1], _f(s0)[:, 3]
    with np.errstate(**_ERR):
        z = np.where(x > 0, np.power(np.maximum(y, 0.0), np.clip(w, -128.0, 128.0)), 0.0)
        return _fw(np.stack([np.ones_like(x), np.maximum(x, 0.0), z, np.ones_like(x)], 1))


def _exp(s0):
    x = _f(s0)[:, 0]
    fl = np.floor(x)
    with np.errstate(**_ERR):
        return _fw(np.stack([np.exp2(fl), x - fl, np.exp2(x), np.ones_like(x)], 1))


def _log(s0):
    ax = np.abs(_f(s0)[:, 0])
    with np.errstate(**_ERR):
        e = np.floor(np.log2(ax))
        return _fw(np.stack([e, ax / np.exp2(e), np.log2(ax), np.ones_like(ax)], 1))


def _dst(s0, s1):
    a, b = as_f32(s0), as_f32(s1)
    with np.errstate(**_ERR):
        return _fw(np.stack([np.ones(len(a), np.float32), a[:, 1] * b[:, 1], a[:, 2], b[:, 3]], 1))


def _xpd(s0, s1):
    a, b = _f(s0), _f(s1)
    c = np.cross(a[:, :3], b[:, :3])
    return _fw(np.concatenate([c, np.ones((len(a), 1))], 1))


def _dph(s0, s1):
    a, b = _f(s0), _f(s1)
    return _repl(_fw(np.sum(a[:, :3] * b[:, :3], axis=1) + b[:, 3]))


def _nrm(s0):
    a = _f(s0)[:, :3]
    with np.errstate(**_ERR):
        n = a / np.sqrt(np.sum(a * a, axis=1, keepdims=True))
    return _fw(np.concatenate([n, np.ones((len(a), 1))], 1))


def _nrm4(s0):
    a = _f(s0)
    with np.errstate(**_ERR):
        return _fw(a / np.sqrt(np.sum(a * a, axis=1, keepdims=True)))


def _scs(s0):
    x = _f(s0)[:, 0]
    return _fw(np.stack([np.cos(x), np.sin(x), np.zeros_like(x), np.ones_like(x)], 1))


def _dp2a(s0, s1, s2):
    a, b, c = _f(s0), _f(s1), _f(s2)
    return _repl(_fw(a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + c[:, 0]))


def _cnd(s0, s1, s2):
    return np.where(as_f32(s2) > 0.5, s0, s1).astype(U32)


def _clamp(s0, s1, s2):
    x, lo, hi = as_f32(s0), as_f32(s1), as_f32(s2)
    return _fw(np.where(x < lo, lo, np.where(x > hi, hi, x)))


def _rcc(s0):
    x = _f(s0)[:, 0]
    with np.errstate(**_ERR):
        r = 1.0 / x
    lo, hi = 5.42101e-20, 1.884467e19
    r = np.where(r > 0, np.clip(r, lo, hi), np.clip(r, -hi, -lo))
    return _repl(_fw(r))


# --- pack / unpack (PK2H, UP2H and the removed PK*/UP*) ----------------------


def _f16_bits(x):
    return np.ascontiguousarray(np.asarray(x, np.float32).astype(np.float16)).view(np.uint16).astype(np.uint32)


def _pk2h(s0):
    x = as_f32(s0)
    with np.errstate(**_ERR):
        return _repl(_f16_bits(x[:, 0]) | (_f16_bits(x[:, 1]) << 16))


def _up2h(s0):
    w = s0[:, 0]
    lo = np.ascontiguousarray((w & 0xFFFF).astype(np.uint16)).view(np.float16).astype(np.float32)
    hi = np.ascontiguousarray((w >> 16).astype(np.uint16)).view(np.float16).astype(np.float32)
    return _fw(np.stack([lo, hi, lo, hi], 1))


def _unorm(x, bits):
    # GLSL packUnorm*: round(clamp(c, 0, 1) * (2^bits - 1)), the product in float32
    scaled = np.float32(np.clip(_nan0(x), 0.0, 1.0)) * np.float32((1 << bits) - 1)
    return np.round(scaled.astype(np.float64)).astype(np.int64)


def _snorm(x, bits):
    # GLSL packSnorm*: round(clamp(c, -1, 1) * (2^(bits-1) - 1)), the product in float32
    m = (1 << (bits - 1)) - 1
    scaled = np.float32(np.clip(_nan0(x), -1.0, 1.0)) * np.float32(m)
    return np.round(scaled.astype(np.float64)).astype(np.int64) & ((1 << bits) - 1)


def _nan0(x):
    return np.where(np.isnan(x), 0.0, x)


def _pk2us(s0):
    x = _f(s0)
    return _repl(_iw(_unorm(x[:, 0], 16) | (_unorm(x[:, 1], 16) << 16)))


def _pk4ub(s0):
    x = _f(s0)
    v = sum(_unorm(x[:, c], 8) << (8 * c) for c in range(4))
    return _repl(_iw(v))


def _pk4b(s0):
    x = _f(s0)
    v = sum(_snorm(x[:, c], 8) << (8 * c) for c in range(4))
    return _repl(_iw(v))


def _up2us(s0):
    w = s0[:, 0].astype(np.int64)
    lo, hi = (w & 0xFFFF) / 65535.0, (w >> 16) / 65535.0
    return _fw(np.stack([lo, hi, lo, hi], 1))


def _up4ub(s0):
    w = s0[:, 0].astype(np.int64)
    return _fw(np.stack([((w >> (8 * c)) & 0xFF) / 255.0 for c in range(4)], 1))


def _up4b(s0):
    w = s0[:, 0].astype(np.int64)
    chans = []
    for c in range(4):
        b = (w >> (8 * c)) & 0xFF
        b = np.where(b >= 128, b - 256, b)
        chans.append(np.maximum(b / 127.0, -1.0))
    return _fw(np.stack(chans, 1))


# ---------------------------------------------------------------------------
# Integer ops (uint32 / int32 with wraparound)
# ---------------------------------------------------------------------------


def _u(w):
    return w.astype(np.int64)  # unsigned value 0..2^32-1


def _s(w):
    return as_i32(w).astype(np.int64)  # signed value


def _udiv(s0, s1):
    a, b = _u(s0), _u(s1)
    return np.where(b == 0, U32(MASK32), _iw(a // np.where(b == 0, 1, b))).astype(U32)


def _umod(s0, s1):
    a, b = _u(s0), _u(s1)
    return np.where(b == 0, U32(MASK32), _iw(a % np.where(b == 0, 1, b))).astype(U32)


def _tdiv(a, b):
    """C division (truncate toward zero) on Python-int-sized int64 arrays; b != 0."""
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def _idiv(s0, s1):
    a, b = _s(s0), _s(s1)
    bb = np.where(b == 0, 1, b)
    return _iw(_tdiv(a, bb))  # INT_MIN / -1 wraps to INT_MIN


def _mod(s0, s1):
    # tgsi_exec: C's '%' on int32 -- the remainder has the sign of the dividend.
    a, b = _s(s0), _s(s1)
    bb = np.where(b == 0, 1, b)
    return _iw(a - _tdiv(a, bb) * bb)


def _shift_count(w):
    return _u(w) & 0x1F


def _ishr(s0, s1):
    return _iw(_s(s0) >> _shift_count(s1))


def _imsb(s0):
    v = as_i32(s0).astype(np.int64)
    v = np.where(v < 0, ~v, v)  # highest bit that differs from the sign
    return _iw(_msb(v))


def _msb(v):
    out = np.full(v.shape, -1, dtype=np.int64)
    for bit in range(32):
        out = np.where((v >> bit) & 1 == 1, bit, out)
    return out


def _lsb(s0):
    v = _u(s0)
    out = np.full(v.shape, -1, dtype=np.int64)
    for bit in range(31, -1, -1):
        out = np.where((v >> bit) & 1 == 1, bit, out)
    return _iw(out)


def _popc(s0):
    v = _u(s0)
    return _iw(sum((v >> b) & 1 for b in range(32)))


def _brev(s0):
    v = _u(s0)
    return _iw(sum(((v >> b) & 1) << (31 - b) for b in range(32)))


def _bfe(signed: bool):
    def op(value, offset, bits):
        # tgsi.rst pseudocode: (value << (32 - offset - bits)) >> (32 - bits),
        # bits == 0 -> 0; offset/bits outside [0, 32] or offset+bits > 32 undefined.
        v, o, n = _u(value), _s(offset), _s(bits)
        ok = (o >= 0) & (n > 0) & (o + n <= 32)
        o, n = np.where(ok, o, 0), np.where(ok, n, 1)
        field = (v >> o) & ((np.int64(1) << n) - 1)
        if signed:
            field = np.where(field >> (n - 1) & 1 == 1, field - (np.int64(1) << n), field)
        return _iw(np.where(ok, field, 0))

    return op


def _bfi(base, insert, offset, bits):
    b, ins, o, n = _u(base), _u(insert), _s(offset), _s(bits)
    ok = (o >= 0) & (n >= 0) & (o + n <= 32)
    o, n = np.where(ok, o, 0), np.where(ok, n, 0)
    mask = ((np.int64(1) << n) - 1) << o
    return _iw(np.where(ok, ((ins << o) & mask) | (b & ~mask & MASK32), 0))


def _f2i(s0):
    x = _f(s0)
    ok = np.isfinite(x) & (x > -2147483649.0) & (x < 2147483648.0)
    return _iw(np.trunc(np.where(ok, x, 0)))


def _f2u(s0):
    x = _f(s0)
    ok = np.isfinite(x) & (x > -1.0) & (x < 4294967296.0)
    return _iw(np.trunc(np.where(ok, x, 0)))


def _i2f(s0):
    # int32 -> float64 is exact, float64 -> float32 rounds to nearest even once.
    return _fw(_s(s0).astype(np.float64))


def _u2f(s0):
    return _fw(_u(s0).astype(np.float64))


def _mul_hi(view):
    def op(s0, s1):
        p = [int(a) * int(b) >> 32 for a, b in zip(view(s0).ravel(), view(s1).ravel(), strict=True)]
        return _iw(np.array(p, dtype=np.int64).reshape(s0.shape))

    return op


def _ucmp(s0, s1, s2):
    # integer test of src0; src1/src2 moved untouched (untyped)
    return np.where(s0 != 0, s1, s2).astype(U32)


def _issg(s0):
    v = _s(s0)
    return _iw(np.sign(v))


# ---------------------------------------------------------------------------
# Double ops: a register is two doubles, .xy = lane 0, .zw = lane 1
# ---------------------------------------------------------------------------


def _d1(fn):
    def op(s0):
        with np.errstate(**_ERR):
            return _dw(fn(as_f64(s0)))

    return op


def _d2(fn):
    def op(s0, s1):
        with np.errstate(**_ERR):
            return _dw(fn(as_f64(s0), as_f64(s1)))

    return op


def _dset(cmp):
    def op(s0, s1):
        with np.errstate(**_ERR):
            return _lanes_to_xz(cmp(as_f64(s0), as_f64(s1)))

    return op


def _dfma(s0, s1, s2):
    # exact product and sum via Python's fractions-free integer trick: use
    # math.fsum on the exact product split (Dekker) -- done per element.
    a, b, c = as_f64(s0), as_f64(s1), as_f64(s2)
    out = np.empty_like(a)
    for idx in np.ndindex(a.shape):
        out[idx] = _exact_fma(float(a[idx]), float(b[idx]), float(c[idx]))
    return _dw(out)


def _exact_fma(a: float, b: float, c: float) -> float:
    """a*b+c rounded once (via exact rational arithmetic)."""
    from fractions import Fraction

    if not all(math.isfinite(v) for v in (a, b, c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        return float(exact)  # Fraction -> float rounds to nearest even
    except OverflowError:  # beyond DBL_MAX (by more than half an ULP): IEEE's infinity
        return math.inf if exact > 0 else -math.inf


def _dssg(s0):
    x = as_f64(s0)
    return _dw(np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0)))


def _dldexp(s0, s1):
    # exponent of lane 0 in src1.x, lane 1 in src1.z (tgsi.rst)
    e = as_i32(s1)[:, [0, 2]].astype(np.int64).clip(-3000, 3000)
    with np.errstate(**_ERR):
        return _dw(np.ldexp(as_f64(s0), e))


def _dfracexp(s0):
    """DFRACEXP (removed): returns (dst0 words, dst1 words); frexp of each lane.

    dst0 = significand (double, |m| in [0.5, 1)), dst1.x/.y = exponent of
    lane 0/1 (int), following glsl_to_tgsi's use (frexp_sig in dst0,
    frexp_exp in dst1)."""
    m, e = np.frexp(as_f64(s0))
    d1 = np.zeros((s0.shape[0], 4), dtype=U32)
    d1[:, 0:2] = _iw(e)
    return _dw(m), d1


def _f2d(s0):
    return _dw(_f(s0)[:, 0:2])


def _i2d(s0):
    return _dw(_s(s0)[:, 0:2].astype(np.float64))


def _u2d(s0):
    return _dw(_u(s0)[:, 0:2].astype(np.float64))


def _d2f(s0):
    with np.errstate(**_ERR):
        return _lanes_to_xy(_fw(as_f64(s0)))


def _d2i(s0):
    x = as_f64(s0)
    ok = np.isfinite(x) & (x > -2147483649.0) & (x < 2147483648.0)
    return _lanes_to_xy(_iw(np.trunc(np.where(ok, x, 0))))


def _d2u(s0):
    x = as_f64(s0)
    ok = np.isfinite(x) & (x > -1.0) & (x < 4294967296.0)
    return _lanes_to_xy(_iw(np.trunc(np.where(ok, x, 0))))


# ---------------------------------------------------------------------------
# 64-bit integer ops (two lanes); computed with Python ints for exactness
# ---------------------------------------------------------------------------

M64 = (1 << 64) - 1


def _py_lanes(w, signed):
    v = as_i64(w) if signed else as_u64(w)
    return [[int(x) for x in row] for row in v]


def _from_py(rows):
    return u64_words([[int(x) & M64 for x in row] for row in rows])


def _q2(fn, signed):
    def op(s0, s1):
        a, b = _py_lanes(s0, signed), _py_lanes(s1, signed)
        return _from_py([[fn(x, y) for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)])

    return op


def _q1(fn, signed):
    def op(s0):
        return _from_py([[fn(x) for x in row] for row in _py_lanes(s0, signed)])

    return op


def _qset(fn, signed):
    def op(s0, s1):
        a, b = _py_lanes(s0, signed), _py_lanes(s1, signed)
        c = np.array([[fn(x, y) for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)])
        return _lanes_to_xz(c)

    return op


def _c_div(a, b):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def _c_mod(a, b):
    return 0 if b == 0 else a - _c_div(a, b) * b


def _qshift(kind):
    # lane 0 count in src1.x, lane 1 count in src1.y, masked with 0x3f
    def op(s0, s1):
        signed = kind == "ishr"
        a = _py_lanes(s0, signed)
        counts = [[int(r[0]) & 0x3F, int(r[1]) & 0x3F] for r in s1]
        out = []
        for ra, rc in zip(a, counts, strict=True):
            if kind == "shl":
                out.append([(x << n) for x, n in zip(ra, rc, strict=True)])
            else:
                out.append([(x >> n) for x, n in zip(ra, rc, strict=True)])
        return _from_py(out)

    return op


def _in64(v: float, lo: float, hi: float, signed: bool) -> bool:
    return (lo <= v if signed else lo < v) and v < hi


def _f2x64(signed):
    def op(s0):
        x = _f(s0)[:, 0:2]
        lo, hi = (-(2.0**63), 2.0**63) if signed else (-1.0, 2.0**64)
        # In range: signed [-2^63, 2^63); unsigned (-1, 2^64) -- -1.0 itself truncates to -1,
        # which no uint64 holds (as F2U's bound).
        rows = [[int(math.trunc(v)) if (math.isfinite(v) and _in64(v, lo, hi, signed)) else 0 for v in r] for r in x]
        return _from_py(rows)

    return op


def _d2x64(signed):
    def op(s0):
        x = as_f64(s0)
        lo, hi = (-(2.0**63), 2.0**63) if signed else (-1.0, 2.0**64)
        # In range: signed [-2^63, 2^63); unsigned (-1, 2^64) -- -1.0 itself truncates to -1,
        # which no uint64 holds (as F2U's bound).
        rows = [[int(math.trunc(v)) if (math.isfinite(v) and _in64(v, lo, hi, signed)) else 0 for v in r] for r in x]
        return _from_py(rows)

    return op


def _x2i64(signed):
    def op(s0):
        v = _s(s0) if signed else _u(s0)
        return _from_py([[int(r[0]), int(r[1])] for r in v])

    return op


def _x642f(signed):
    def op(s0):
        rows = _py_lanes(s0, signed)
        # Python int -> float is correctly rounded to double; to float32 via
        # exact Fraction rounding avoids double rounding.
        from fractions import Fraction

        vals = np.array([[_round_to_f32(Fraction(v)) for v in r] for r in rows], np.float32)
        return _lanes_to_xy(vals.view(U32))

    return op


def _round_to_f32(q) -> float:
    """Exact rational -> nearest float32 (ties to even), as a Python float."""
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = math.floor(math.log2(q))
    from fractions import Fraction

    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    scale = Fraction(2) ** (23 - e)
    m = q * scale
    n = math.floor(m)
    rem = m - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return sign * float(Fraction(n) / scale)


def _x642d(signed):
    def op(s0):
        return _dw(np.array([[float(v) for v in r] for r in _py_lanes(s0, signed)]))

    return op


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

REFERENCE: dict[str, Callable[..., np.ndarray]] = {
    # core, float32
    "MOV": lambda s0: np.array(s0, dtype=U32, copy=True),
    "ADD": _binary_f(lambda a, b: a + b),
    "SUB": _binary_f(lambda a, b: a - b),
    "MUL": _binary_f(lambda a, b: a * b),
    "DIV": _binary_f(lambda a, b: a / b),
    "MIN": _binary_f(_min),
    "MAX": _binary_f(_max),
    "MAD": _mad,
    "FMA": _fma,
    "LRP": _lrp,
    "DP2": _dot(2),
    "DP3": _dot(3),
    "DP4": _dot(4),
    "RCP": _repl_f(lambda x: 1.0 / x),
    "RSQ": _repl_f(lambda x: 1.0 / np.sqrt(x)),
    "SQRT": _repl_f(np.sqrt),
    "EX2": _repl_f(np.exp2),
    "LG2": _repl_f(np.log2),
    "POW": _repl_f(np.power),
    "SIN": _repl_f(np.sin),
    "COS": _repl_f(np.cos),
    "FRC": _unary_f(lambda x: x - np.floor(x)),
    "FLR": _unary_f(np.floor),
    "CEIL": _unary_f(np.ceil),
    "TRUNC": _unary_f(np.trunc),
    "ROUND": _unary_f(_round_half_even),
    "SSG": _ssg,
    "CMP": _cmp,
    "ABS": _unary_f(np.abs),
    "SLT": _set_f(lambda a, b: a < b),
    "SGE": _set_f(lambda a, b: a >= b),
    "SEQ": _set_f(lambda a, b: a == b),
    "SNE": _set_f(lambda a, b: a != b),
    "SGT": _set_f(lambda a, b: a > b),
    "SLE": _set_f(lambda a, b: a <= b),
    "LDEXP": _ldexp,
    "PK2H": _pk2h,
    "UP2H": _up2h,
    # removed / legacy
    "LIT": _lit,
    "EXP": _exp,
    "LOG": _log,
    "DST": _dst,
    "XPD": _xpd,
    "DPH": _dph,
    "NRM": _nrm,
    "NRM4": _nrm4,
    "SCS": _scs,
    "DP2A": _dp2a,
    "CND": _cnd,
    "CLAMP": _clamp,
    "SFL": lambda s0, s1: _fw(np.zeros(s0.shape)),
    "STR": lambda s0, s1: _fw(np.ones(s0.shape)),
    "RCC": _rcc,
    "PK2US": _pk2us,
    "PK4B": _pk4b,
    "PK4UB": _pk4ub,
    "UP2US": _up2us,
    "UP4B": _up4b,
    "UP4UB": _up4ub,
    # integer
    "I2F": _i2f,
    "U2F": _u2f,
    "F2I": _f2i,
    "F2U": _f2u,
    "UADD": lambda a, b: _iw(_u(a) + _u(b)),
    "UMUL": lambda a, b: _iw(_u(a) * _u(b)),
    "UMAD": lambda a, b, c: _iw(_u(a) * _u(b) + _u(c)),
    "IMUL_HI": _mul_hi(_s),
    "UMUL_HI": _mul_hi(_u),
    "IDIV": _idiv,
    "UDIV": _udiv,
    "UMOD": _umod,
    "MOD": _mod,
    "NOT": lambda a: ~a,
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "XOR": lambda a, b: a ^ b,
    "IMAX": lambda a, b: _iw(np.maximum(_s(a), _s(b))),
    "IMIN": lambda a, b: _iw(np.minimum(_s(a), _s(b))),
    "UMAX": lambda a, b: np.maximum(a, b),
    "UMIN": lambda a, b: np.minimum(a, b),
    "SHL": lambda a, b: _iw(_u(a) << _shift_count(b)),
    "ISHR": _ishr,
    "USHR": lambda a, b: _iw(_u(a) >> _shift_count(b)),
    "UCMP": _ucmp,
    "ISSG": _issg,
    "INEG": lambda a: _iw(-_s(a)),
    "IABS": lambda a: _iw(np.abs(_s(a))),
    "FSLT": _set_i(as_f32, lambda a, b: a < b),
    "FSGE": _set_i(as_f32, lambda a, b: a >= b),
    "FSEQ": _set_i(as_f32, lambda a, b: a == b),
    "FSNE": _set_i(as_f32, lambda a, b: a != b),
    "ISLT": _set_i(as_i32, lambda a, b: a < b),
    "ISGE": _set_i(as_i32, lambda a, b: a >= b),
    "USLT": _set_i(lambda w: w, lambda a, b: a < b),
    "USGE": _set_i(lambda w: w, lambda a, b: a >= b),
    "USEQ": _set_i(lambda w: w, lambda a, b: a == b),
    "USNE": _set_i(lambda w: w, lambda a, b: a != b),
    # bitwise
    "IBFE": _bfe(True),
    "UBFE": _bfe(False),
    "BFI": _bfi,
    "BREV": _brev,
    "POPC": _popc,
    "LSB": _lsb,
    "IMSB": _imsb,
    "UMSB": lambda a: _iw(_msb(_u(a))),
    # double
    "DABS": _d1(np.abs),
    "DNEG": _d1(np.negative),
    "DADD": _d2(np.add),
    "DMUL": _d2(np.multiply),
    "DDIV": _d2(np.divide),
    "DMIN": _d2(np.fmin),
    "DMAX": _d2(np.fmax),
    "DMAD": lambda a, b, c: _dw(as_f64(a) * as_f64(b) + as_f64(c)),
    "DFMA": _dfma,
    "DSEQ": _dset(np.equal),
    "DSNE": _dset(np.not_equal),
    "DSLT": _dset(np.less),
    "DSGE": _dset(np.greater_equal),
    "DRCP": _d1(lambda x: 1.0 / x),
    "DSQRT": _d1(np.sqrt),
    "DRSQ": _d1(lambda x: 1.0 / np.sqrt(x)),
    "DFRAC": _d1(lambda x: x - np.floor(x)),
    "DTRUNC": _d1(np.trunc),
    "DCEIL": _d1(np.ceil),
    "DFLR": _d1(np.floor),
    "DROUND": _d1(np.round),
    "DSSG": _dssg,
    "DLDEXP": _dldexp,
    "F2D": _f2d,
    "D2F": _d2f,
    "I2D": _i2d,
    "U2D": _u2d,
    "D2I": _d2i,
    "D2U": _d2u,
    # 64-bit integer
    "I64ABS": _q1(abs, True),
    "I64NEG": _q1(lambda x: -x, True),
    "I64SSG": _q1(lambda x: (x > 0) - (x < 0), True),
    "U64ADD": _q2(lambda a, b: a + b, False),
    "U64MUL": _q2(lambda a, b: a * b, False),
    "U64DIV": _q2(lambda a, b: a // b if b else M64, False),
    "I64DIV": _q2(_c_div, True),
    "U64MOD": _q2(lambda a, b: a % b if b else M64, False),
    "I64MOD": _q2(_c_mod, True),
    "U64SEQ": _qset(lambda a, b: a == b, False),
    "U64SNE": _qset(lambda a, b: a != b, False),
    "U64SLT": _qset(lambda a, b: a < b, False),
    "U64SGE": _qset(lambda a, b: a >= b, False),
    "I64SLT": _qset(lambda a, b: a < b, True),
    "I64SGE": _qset(lambda a, b: a >= b, True),
    "I64MIN": _q2(min, True),
    "I64MAX": _q2(max, True),
    "U64MIN": _q2(min, False),
    "U64MAX": _q2(max, False),
    "U64SHL": _qshift("shl"),
    "I64SHR": _qshift("ishr"),
    "U64SHR": _qshift("ushr"),
    "F2U64": _f2x64(False),
    "F2I64": _f2x64(True),
    "D2U64": _d2x64(False),
    "D2I64": _d2x64(True),
    "U2I64": _x2i64(False),
    "I2I64": _x2i64(True),
    "U642F": _x642f(False),
    "I642F": _x642f(True),
    "U642D": _x642d(False),
    "I642D": _x642d(True),
}

# Multi-destination opcodes: name -> function returning a tuple of results.
REFERENCE_MULTI = {"DFRACEXP": _dfracexp}


def reference(op: str, *srcs: np.ndarray) -> np.ndarray:
    """Expected raw words of ``op`` applied to ``srcs`` (each ``(N, 4)`` uint32)."""
    srcs = tuple(np.ascontiguousarray(s, dtype=U32).reshape(-1, 4) for s in srcs)
    return np.asarray(REFERENCE[op](*srcs), dtype=U32).reshape(-1, 4)


# ---------------------------------------------------------------------------
# Lanes tgsi.rst leaves undefined (not compared; still executed)
# ---------------------------------------------------------------------------


def _x_repl(cond):
    """Undefinedness of a REPL op decided by .x of the source(s)."""
    return lambda *s: np.repeat(cond(*[x[:, :1] for x in s]), 4, axis=1)


def _f32_out_of_int_range(lo, hi):
    def cond(s0):
        x = _f(s0)
        return ~(np.isfinite(x) & (x > lo) & (x < hi))

    return cond


def _lanes_xy_undef(cond64):
    def cond(s0):
        c = cond64(s0)
        out = np.zeros((s0.shape[0], 4), bool)
        out[:, 0:2] = c
        return out

    return cond


def _lane_pairs(cond64):
    def cond(*s):
        c = cond64(*s)
        return np.repeat(c, 2, axis=1)

    return cond


UNDEFINED: dict[str, Callable[..., np.ndarray]] = {
    # "The results are undefined for src <= 0" (RSQ), "< 0" (SQRT)
    "RSQ": _x_repl(lambda s0: ~(_f(s0) > 0)),
    "SQRT": _x_repl(lambda s0: _f(s0) < 0),
    # "Values outside signed/unsigned range (including NaNs) produce undefined results"
    "F2I": _f32_out_of_int_range(-2147483649.0, 2147483648.0),
    "F2U": _f32_out_of_int_range(-1.0, 4294967296.0),
    "D2I": _lanes_xy_undef(
        lambda s0: ~(np.isfinite(as_f64(s0)) & (as_f64(s0) > -2147483649.0) & (as_f64(s0) < 2147483648.0))
    ),
    "D2U": _lanes_xy_undef(lambda s0: ~(np.isfinite(as_f64(s0)) & (as_f64(s0) > -1.0) & (as_f64(s0) < 4294967296.0))),
    # "TBD: behavior for division by zero" (IDIV); MOD by zero likewise unstated.
    # INT_MIN / -1 overflows int32: C leaves it undefined, tgsi.rst is silent.
    "IDIV": lambda s0, s1: (_s(s1) == 0) | ((_s(s0) == -(2**31)) & (_s(s1) == -1)),
    "MOD": lambda s0, s1: (_s(s1) == 0) | ((_s(s0) == -(2**31)) & (_s(s1) == -1)),
    # bitfield ops: "if offset < 0 or bits < 0 or offset + bits > 32: undefined"
    "IBFE": lambda v, o, n: (_s(o) < 0) | (_s(n) < 0) | (_s(o) + _s(n) > 32),
    "UBFE": lambda v, o, n: (_s(o) < 0) | (_s(n) < 0) | (_s(o) + _s(n) > 32),
    "BFI": lambda b, i, o, n: (_s(o) < 0) | (_s(n) < 0) | (_s(o) + _s(n) > 32),
    # 64-bit division by zero is not defined by tgsi.rst (only UDIV/UMOD are)
    "U64DIV": _lane_pairs(lambda a, b: as_u64(b) == 0),
    "U64MOD": _lane_pairs(lambda a, b: as_u64(b) == 0),
    "I64DIV": _lane_pairs(lambda a, b: (as_i64(b) == 0) | ((as_i64(a) == -(2**63)) & (as_i64(b) == -1))),
    "I64MOD": _lane_pairs(lambda a, b: (as_i64(b) == 0) | ((as_i64(a) == -(2**63)) & (as_i64(b) == -1))),
    "F2I64": lambda s0: np.repeat(_f32_out_of_int_range(-(2.0**63) - 1, 2.0**63)(s0)[:, 0:2], 2, 1),
    "F2U64": lambda s0: np.repeat(_f32_out_of_int_range(-1.0, 2.0**64)(s0)[:, 0:2], 2, 1),
}


def undefined(op: str, *srcs: np.ndarray) -> np.ndarray:
    """Boolean ``(N, 4)`` mask of result channels tgsi.rst leaves undefined for these inputs."""
    srcs = tuple(np.ascontiguousarray(s, dtype=U32).reshape(-1, 4) for s in srcs)
    n = srcs[0].shape[0] if srcs else 0
    fn = UNDEFINED.get(op)
    if fn is None:
        return np.zeros((n, 4), dtype=bool)
    return np.asarray(fn(*srcs), dtype=bool).reshape(n, 4)


__all__ = [
    "REFERENCE",
    "REFERENCE_MULTI",
    "UNDEFINED",
    "reference",
    "undefined",
    "apply_writemask",
    "words",
    "f32_words",
    "f64_words",
    "u64_words",
    "as_f32",
    "as_i32",
    "as_f64",
    "as_u64",
    "as_i64",
    "TRUE",
]
