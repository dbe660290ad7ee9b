"""More ALU opcodes of the numpy TGSI executor: the bit-manipulation
opcodes (POPC, BREV, LSB, UMSB, IMSB, UBFE, IBFE, BFI) and the float
opcodes SUB, ABS, SSG, SGT, SLE.

Each is one function on ``(lanes, 4)`` uint32 words, as in ``alu.py``
(which merges ``MORE_ALU`` into its ``ALU`` table).  Semantics are
tgsi.rst's, which are GLSL's bitCount / bitfieldReverse / findLSB /
findMSB / bitfieldExtract / bitfieldInsert: findLSB / findMSB give -1 when
no bit qualifies; a bitfield of 0 bits extracts 0 and inserts nothing.
An offset + bits past 32 is undefined in GLSL; here only the low 5 bits of
each are used and the field is clipped at bit 31 (docs/compute.md).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

U32 = np.uint32
F32 = np.float32
I32 = np.int32
_ONES = np.uint64(0xFFFFFFFF)


def _words(x: np.ndarray) -> np.ndarray:
    return x.astype(U32, copy=False) if x.dtype != F32 else x.view(U32)


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x - ((x >> U32(1)) & U32(0x55555555))
    x = (x & U32(0x33333333)) + ((x >> U32(2)) & U32(0x33333333))
    x = (x + (x >> U32(4))) & U32(0x0F0F0F0F)
    return (x * U32(0x01010101)) >> U32(24)


def _msb(x: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of uint32 words, -1 (all ones) for 0."""
    out = np.full(x.shape, -1, np.int64)
    nz = x != 0
    out[nz] = np.floor(np.log2(x[nz].astype(np.float64))).astype(np.int64)
    return out.astype(I32).view(U32)


def op_popc(a):
    return _popcount(a)


def op_brev(a):
    x = a.copy()
    for shift, m in ((1, 0x55555555), (2, 0x33333333), (4, 0x0F0F0F0F), (8, 0x00FF00FF)):
        x = ((x >> U32(shift)) & U32(m)) | ((x & U32(m)) << U32(shift))
    return (x >> U32(16)) | (x << U32(16))


def op_lsb(a):
    low = a & (~a + U32(1))  # the lowest set bit alone
    return _msb(low)


def op_umsb(a):
    return _msb(a)


def op_imsb(a):
    s = a.view(I32)
    return _msb(np.where(s < 0, ~a, a))  # the first bit differing from the sign bit


def _field(offset: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    off = (offset & U32(31)).astype(np.uint64)
    n = np.minimum(bits.astype(np.uint64) & np.uint64(63), np.uint64(32) - off)
    mask = ((np.uint64(1) << n) - np.uint64(1)) & _ONES
    return off, n, mask


def op_ubfe(a, offset, bits):
    off, n, mask = _field(offset, bits)
    return ((a.astype(np.uint64) >> off) & mask).astype(U32)


def op_ibfe(a, offset, bits):
    off, n, mask = _field(offset, bits)
    v = (a.astype(np.uint64) >> off) & mask
    sign = np.where(n > 0, (v >> np.maximum(n, np.uint64(1)) - np.uint64(1)) & np.uint64(1), np.uint64(0))
    v = np.where(sign == 1, v | (~mask & _ONES), v)
    return v.astype(U32)


def op_bfi(base, insert, offset, bits):
    off, n, mask = _field(offset, bits)
    field = (mask << off) & _ONES
    out = (base.astype(np.uint64) & ~field & _ONES) | ((insert.astype(np.uint64) << off) & field)
    return out.astype(U32)


def op_sub(a, b):
    return _words(a.view(F32) - b.view(F32))


def op_abs(a):
    return a & U32(0x7FFFFFFF)  # clears the sign bit, -0.0 and NaN included


def op_ssg(a):
    x = a.view(F32)
    # tgsi.rst: (src > 0) ? 1 : (src < 0) ? -1 : 0 -- so -0.0 gives +0.0 (and NaN 0.0), as tgsi_exec.
    return _words(np.where(x > 0, F32(1.0), np.where(x < 0, F32(-1.0), F32(0.0))))


def op_sgt(a, b):
    return _words(np.where(a.view(F32) > b.view(F32), F32(1.0), F32(0.0)))


def op_sle(a, b):
    return _words(np.where(a.view(F32) <= b.view(F32), F32(1.0), F32(0.0)))


#: opcode -> (function, replicate the scalar result); merged into alu.ALU.
MORE_ALU: dict[str, tuple[Callable[..., np.ndarray], bool]] = {
    "POPC": (op_popc, False),
    "BREV": (op_brev, False),
    "LSB": (op_lsb, False),
    "UMSB": (op_umsb, False),
    "IMSB": (op_imsb, False),
    "UBFE": (op_ubfe, False),
    "IBFE": (op_ibfe, False),
    "BFI": (op_bfi, False),
    "SUB": (op_sub, False),
    "ABS": (op_abs, False),
    "SSG": (op_ssg, False),
    "SGT": (op_sgt, False),
    "SLE": (op_sle, False),
}

__all__ = ["MORE_ALU"]
