"""Float opcodes of the numpy TGSI executor beyond ``alu.py``: the
transcendentals SIN COS SCS EXP LOG, DIV LRP FMA LDEXP, the legacy vector
opcodes (DST LIT XPD DPH DP2A NRM NRM4 CND CLAMP SFL STR RCC), the
pack / unpack opcodes (PK2H UP2H PK2US PK4B PK4UB UP2US UP4B UP4UB) and
CLOCK.

Precision: every transcendental is computed in float64 and rounded once to
float32, so it is within 1 ULP of the exact value -- far inside what GLSL
4.50 section 4.7.1 asks (sin / cos: absolute error 2^-11 on [-pi, pi];
exp2 / log2: 3 + 2|x| ULP, resp. 3 ULP or 2^-21 absolute near 1; pow:
inherited from exp2(y * log2(x)); x / y: 2.5 ULP), and independent of the
host's libm float32 paths.  FMA rounds once (the product of two floats is
exact in float64; the sum is rounded to odd in float64 before the final
rounding, which then cannot double-round).  LDEXP is exact, denormal
results kept.  Semantics are tgsi.rst's (the removed opcodes after the
2010 tgsi.rst): DST = (1, a.y*b.y, a.z, b.w); LIT = (1, max(x, 0), x > 0 ?
max(y, 0)^clamp(w, -128, 128) : 0, 1); EXP = (2^floor(x), x - floor(x),
2^x, 1); LOG = (floor(log2|x|), |x| / 2^floor(log2|x|), log2|x|, 1);
SCS = (cos x, sin x, 0, 1); RCC = 1/x clamped to +-[5.42101e-20,
1.884467e19]; the pack opcodes are GLSL's packHalf2x16 / packUnorm2x16 /
packSnorm4x8 / packUnorm4x8 (a NaN packs as 0) and their inverses.
CLOCK gives the host's monotonic nanoseconds as a 64-bit value in
``.xy`` (clock2x32ARB), one reading per instruction for all lanes.

Each function takes ``(lanes, 4)`` uint32 words and returns words
(``(lanes,)`` for REPL opcodes), as in ``alu.py``, which merges
``FLOAT_ALU`` into its table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

U32 = np.uint32
I32 = np.int32
F32 = np.float32
F64 = np.float64
U64 = np.uint64


def _f(x: np.ndarray) -> np.ndarray:
    return x.view(F32)


def _d(x: np.ndarray) -> np.ndarray:
    """Words as float32 values widened to float64 (exact)."""
    return x.view(F32).astype(F64)


def _w(x: np.ndarray) -> np.ndarray:
    """float64 / float32 values rounded once to float32 words."""
    return np.ascontiguousarray(np.asarray(x).astype(F32)).view(U32)


def _chan(*cols: np.ndarray) -> np.ndarray:
    return _w(np.stack(cols, axis=1))


# -- transcendentals (float64, rounded once) ---------------------------------------


def op_sin(a):
    return _w(np.sin(_d(a)[:, 0]))


def op_cos(a):
    return _w(np.cos(_d(a)[:, 0]))


def op_scs(a):
    x = _d(a)[:, 0]
    return _chan(np.cos(x), np.sin(x), np.zeros_like(x), np.ones_like(x))


def op_exp(a):
    x = _d(a)[:, 0]
    fl = np.floor(x)
    return _chan(np.exp2(fl), x - fl, np.exp2(x), np.ones_like(x))


def op_log(a):
    ax = np.abs(_d(a)[:, 0])
    e = np.floor(np.log2(ax))
    return _chan(e, ax / np.exp2(e), np.log2(ax), np.ones_like(ax))


def op_div(a, b):
    return _w(_d(a) / _d(b))  # the float64 quotient of two floats rounds once to the float32 one


def op_lrp(a, b, c):
    # tgsi.rst: src0 * src1 + (1 - src0) * src2, in float32 steps
    x, y, z = _f(a), _f(b), _f(c)
    return _w(x * y + (F32(1.0) - x) * z)


def op_fma(a, b, c):
    p = _d(a) * _d(b)  # exact: 24 + 24 bits
    z = _d(c)
    s = p + z
    # TwoSum: the exact error of the float64 sum; where it is not zero and s is
    # even, step s one ULP towards the exact value (round to odd).
    bb = s - p
    err = (p - (s - bb)) + (z - bb)
    finite = np.isfinite(s) & np.isfinite(err)
    even = (s.view(U64) & U64(1)) == U64(0)
    fix = finite & (err != 0) & even
    s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return _w(s)


def op_ldexp(a, b):
    e = b.view(I32).astype(np.int64).clip(-400, 400)
    return _w(np.ldexp(_d(a), e))  # exact in float64, rounded once (denormals kept)


# -- legacy vector opcodes ------------------------------------------------------------


def op_dst(a, b):
    x, y = _f(a), _f(b)
    return _chan(np.ones(len(x), F32), x[:, 1] * y[:, 1], x[:, 2], y[:, 3])


def op_lit(a):
    v = _f(a)
    x, y, w = v[:, 0], v[:, 1], v[:, 3]
    z = np.where(x > 0, np.power(np.maximum(y, F32(0.0)).astype(F64), np.clip(w, -128.0, 128.0).astype(F64)), 0.0)
    return _chan(np.ones_like(x), np.maximum(x, F32(0.0)), z, np.ones_like(x))


def op_xpd(a, b):
    x, y = _f(a), _f(b)
    cx = x[:, 1] * y[:, 2] - x[:, 2] * y[:, 1]
    cy = x[:, 2] * y[:, 0] - x[:, 0] * y[:, 2]
    cz = x[:, 0] * y[:, 1] - x[:, 1] * y[:, 0]
    return _chan(cx, cy, cz, np.ones_like(cx))


def op_dph(a, b):
    x, y = _f(a), _f(b)
    return _w(x[:, 0] * y[:, 0] + x[:, 1] * y[:, 1] + x[:, 2] * y[:, 2] + y[:, 3])


def op_dp2a(a, b, c):
    x, y, z = _f(a), _f(b), _f(c)
    return _w(x[:, 0] * y[:, 0] + x[:, 1] * y[:, 1] + z[:, 0])


def _normalize(v: np.ndarray) -> np.ndarray:
    return v / np.sqrt(np.sum(v * v, axis=1, keepdims=True))


def op_nrm(a):
    n = _normalize(_d(a)[:, :3])
    return _chan(n[:, 0], n[:, 1], n[:, 2], np.ones(len(n)))


def op_nrm4(a):
    return _w(_normalize(_d(a)))


def op_cnd(a, b, c):
    return np.where(_f(c) > 0.5, a, b)


def op_clamp(a, b, c):
    x, lo, hi = _f(a), _f(b), _f(c)
    return _w(np.where(x < lo, lo, np.where(x > hi, hi, x)))


def op_sfl(a, b):
    return np.zeros(a.shape, U32)  # 0.0


def op_str(a, b):
    return np.full(a.shape, F32(1.0)).view(U32)


def op_rcc(a):
    r = 1.0 / _d(a)[:, 0]
    lo, hi = 5.42101e-20, 1.884467e19
    return _w(np.where(r > 0, np.clip(r, lo, hi), np.clip(r, -hi, -lo)))


# -- pack / unpack ----------------------------------------------------------------------


def _half_bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.astype(np.float16)).view(np.uint16).astype(U32)


def op_pk2h(a):
    x = _f(a)
    return _half_bits(x[:, 0]) | (_half_bits(x[:, 1]) << U32(16))


def op_up2h(a):
    w = a[:, 0]
    lo = np.ascontiguousarray((w & U32(0xFFFF)).astype(np.uint16)).view(np.float16)
    hi = np.ascontiguousarray((w >> U32(16)).astype(np.uint16)).view(np.float16)
    return _chan(lo, hi, lo, hi)


def _unorm(x: np.ndarray, bits: int) -> np.ndarray:
    """GLSL packUnorm: round(clamp(c, 0, 1) * (2^bits - 1)), a NaN as 0."""
    c = np.clip(np.where(np.isnan(x), F32(0.0), x), F32(0.0), F32(1.0))
    return np.rint(c * F32((1 << bits) - 1)).astype(U32)


def _snorm(x: np.ndarray, bits: int) -> np.ndarray:
    """GLSL packSnorm: round(clamp(c, -1, 1) * (2^(bits-1) - 1)) in two's complement."""
    c = np.clip(np.where(np.isnan(x), F32(0.0), x), F32(-1.0), F32(1.0))
    v = np.rint(c * F32((1 << (bits - 1)) - 1)).astype(np.int64)
    return (v & ((1 << bits) - 1)).astype(U32)


def op_pk2us(a):
    x = _f(a)
    return _unorm(x[:, 0], 16) | (_unorm(x[:, 1], 16) << U32(16))


def op_pk4ub(a):
    x = _f(a)
    return (
        _unorm(x[:, 0], 8)
        | (_unorm(x[:, 1], 8) << U32(8))
        | (_unorm(x[:, 2], 8) << U32(16))
        | (_unorm(x[:, 3], 8) << U32(24))
    )


def op_pk4b(a):
    x = _f(a)
    return (
        _snorm(x[:, 0], 8)
        | (_snorm(x[:, 1], 8) << U32(8))
        | (_snorm(x[:, 2], 8) << U32(16))
        | (_snorm(x[:, 3], 8) << U32(24))
    )


def op_up2us(a):
    w = a[:, 0].astype(F64)
    lo, hi = np.fmod(w, 65536.0) / 65535.0, np.floor(w / 65536.0) / 65535.0
    return _chan(lo, hi, lo, hi)


def op_up4ub(a):
    w = a[:, 0]
    return _chan(*(((w >> U32(8 * c)) & U32(0xFF)).astype(F64) / 255.0 for c in range(4)))


def op_up4b(a):
    w = a[:, 0]
    cols = []
    for c in range(4):
        b = ((w >> U32(8 * c)) & U32(0xFF)).astype(np.int64)
        cols.append(np.maximum(np.where(b >= 128, b - 256, b) / 127.0, -1.0))
    return _chan(*cols)


def op_clock(*_srcs, lanes: int = 0):
    t = time.monotonic_ns() & 0xFFFFFFFFFFFFFFFF
    out = np.zeros((lanes, 4), U32)
    out[:, 0] = t & 0xFFFFFFFF
    out[:, 1] = t >> 32
    return out


#: opcode -> (function, replicate the scalar result); merged into alu.ALU.
FLOAT_ALU: dict[str, tuple[Callable[..., np.ndarray], bool]] = {
    "SIN": (op_sin, True),
    "COS": (op_cos, True),
    "SCS": (op_scs, False),
    "EXP": (op_exp, False),
    "LOG": (op_log, False),
    "DIV": (op_div, False),
    "LRP": (op_lrp, False),
    "FMA": (op_fma, False),
    "LDEXP": (op_ldexp, False),
    "DST": (op_dst, False),
    "LIT": (op_lit, False),
    "XPD": (op_xpd, False),
    "DPH": (op_dph, True),
    "DP2A": (op_dp2a, True),
    "NRM": (op_nrm, False),
    "NRM4": (op_nrm4, False),
    "CND": (op_cnd, False),
    "CLAMP": (op_clamp, False),
    "SFL": (op_sfl, False),
    "STR": (op_str, False),
    "RCC": (op_rcc, True),
    "PK2H": (op_pk2h, True),
    "UP2H": (op_up2h, False),
    "PK2US": (op_pk2us, True),
    "PK4B": (op_pk4b, True),
    "PK4UB": (op_pk4ub, True),
    "UP2US": (op_up2us, False),
    "UP4B": (op_up4b, False),
    "UP4UB": (op_up4ub, False),
}

__all__ = ["FLOAT_ALU", "op_clock"]
