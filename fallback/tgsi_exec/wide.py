"""Operand helpers of the numpy TGSI machine: source modifiers on 64-bit
operands, and indirect buffer indices (``BUFFER[ADDR[a].c + k]``).

Source modifiers follow the operand's type (tgsi.rst "Modifiers", Mesa's
tgsi_exec fetch_double_channel / fetch_source): on a double the negate and
absolute-value modifiers act on the sign of each 64-bit value (bit 31 of
the high words ``.y`` / ``.w``), on a 64-bit integer negate is the 64-bit
two's complement (and abs its magnitude) -- never the 32-bit float or
integer modifier applied to each word.

An indirect buffer index picks, per lane, one buffer of the declared run
holding the operand's base index, as the GLSL lowering's array of blocks
does (lowering/glsl/indexing.py): the index is clamped to that run (GLSL
leaves an out-of-range index undefined).  A run is a range declaration
(``DCL BUFFER[0..3]``) or consecutive single declarations (``DCL
BUFFER[0]``, ``DCL BUFFER[1]``, ... as Mesa declares array elements).
LOAD / STORE / ATOM* / RESQ then run once per buffer some lane picks, with
the lanes that picked it: a gather / scatter over the bound buffers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from lowering.errors import UnsupportedError
from lowering.ir import Instruction, Shader

U32 = np.uint32
U64 = np.uint64
I64 = np.int64


def modify_wide(v: np.ndarray, typ: str, absolute: bool, negate: bool) -> np.ndarray:
    """``v`` ((lanes, 4) words, two 64-bit values) with ``|x|`` then ``-x``
    applied per 64-bit value of type ``typ`` (double / int64 / uint64)."""
    out = np.array(v, U32)
    if typ == "double":
        hi = out[:, 1::2]
        if absolute:
            hi &= U32(0x7FFFFFFF)
        if negate:
            hi ^= U32(0x80000000)
        out[:, 1::2] = hi
        return out
    q = out[:, 0::2].astype(U64) | (out[:, 1::2].astype(U64) << U64(32))
    if absolute:
        q = np.where(q.view(I64) < 0, U64(0) - q, q)
    if negate:
        q = U64(0) - q
    out[:, 0::2] = (q & U64(0xFFFFFFFF)).astype(U32)
    out[:, 1::2] = (q >> U64(32)).astype(U32)
    return out


def buffer_run(ir: Shader, index: int, opcode: str) -> tuple[int, int]:
    """(first, last) of the declared BUFFER run holding ``index`` (see the
    module docstring); UnsupportedError when ``index`` is not declared."""
    decls = [d for d in ir.declarations if d.file == "BUFFER"]
    for d in decls:
        if d.first <= index <= d.last and d.last > d.first:
            return d.first, d.last
    singles = {d.first for d in decls if d.first == d.last}
    if index not in singles:
        raise UnsupportedError(f"{opcode}: BUFFER[{index}] of an indirect operand is not declared")
    first = last = index
    while first - 1 in singles:
        first -= 1
    while last + 1 in singles:
        last += 1
    return first, last


def lanes_by_buffer(index: np.ndarray, run: tuple[int, int], mask: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(buffer, lanes mask) for each buffer of ``run`` the active lanes of
    ``mask`` index (``index``: per-lane, clamped to the run)."""
    k = np.clip(index, run[0], run[1])
    for b in np.unique(k[mask]):
        yield int(b), mask & (k == b)


def direct_resource(inst: Instruction, is_store: bool, index: int) -> Instruction:
    """``inst`` with its resource operand (dst 0 of STORE, src 0 otherwise)
    made the direct ``BUFFER[index]``."""
    if is_store:
        dsts = list(inst.dsts)
        dsts[0] = replace(dsts[0], index=index, indirect=None)
        return replace(inst, dsts=tuple(dsts))
    srcs = list(inst.srcs)
    srcs[0] = replace(srcs[0], index=index, indirect=None)
    return replace(inst, srcs=tuple(srcs))


__all__ = ["buffer_run", "direct_resource", "lanes_by_buffer", "modify_wide"]
