"""Memory of the numpy TGSI executor: shader buffers, shared memory, and the
LOAD / STORE / RESQ / ATOM* opcodes over them.

A shader buffer is a ``BufferBinding``: the bound range of a resource as
uint32 words (read from the host before the dispatch) plus the word range
the dispatch wrote, so the caller writes back only that.  Shared memory
(``MEMORY[n], SHARED``) is one row of words per block.  Accesses outside a
binding read 0 and write nothing (GL's robust SSBO rule, which llvmpipe
follows).  Stores and atomics of several lanes to one word apply in lane
order: a store of the highest lane wins, and atomics see each other's
results in ascending lane order (docs/compute.md "The executor").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from lowering.errors import UnsupportedError
from lowering.ir import Instruction, Shader

U32 = np.uint32


@dataclass
class BufferBinding:
    """One bound shader buffer: ``words`` (uint32, the bound range),
    ``size`` in bytes, ``writable``, and the written word range
    ``[lo, hi)`` (``lo >= hi``: nothing written)."""

    words: np.ndarray
    size: int
    writable: bool = True
    lo: int = field(default=1 << 62)
    hi: int = 0

    def touched(self, idx: np.ndarray) -> None:
        """Record that the words ``idx`` were written."""
        if idx.size:
            self.lo = min(self.lo, int(idx.min()))
            self.hi = max(self.hi, int(idx.max()) + 1)


class Space:
    """A flat word array and how lanes index it: ``flat[base + word]`` with
    ``word < limit`` (``base``: 0 for a buffer, the lane's block row for
    shared memory)."""

    __slots__ = ("flat", "base", "limit", "binding")

    def __init__(self, flat: np.ndarray, base: int | np.ndarray, limit: int, binding: BufferBinding | None):
        self.flat = flat
        self.base = base
        self.limit = limit
        self.binding = binding

    def index(self, word: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(flat indices, lanes) of the in-range accesses among ``mask``."""
        ok = mask & (word < self.limit)
        lanes = np.nonzero(ok)[0]
        base = self.base[lanes] if isinstance(self.base, np.ndarray) else self.base
        return word[lanes].astype(np.int64) + base, lanes


def load(space: Space, addr: np.ndarray, writemask: int, swizzle, mask: np.ndarray) -> np.ndarray:
    """LOAD: component c of the result is the word at byte ``addr + 4 * swizzle[c]``
    (the resource operand's swizzle picks the words, as in the GLSL lowering)."""
    out = np.zeros((addr.shape[0], 4), U32)
    word0 = addr // U32(4)
    for c in range(4):
        if writemask & (1 << c):
            idx, lanes = space.index(word0 + U32(swizzle[c]), mask)
            out[lanes, c] = space.flat[idx]
    return out


def store(space: Space, addr: np.ndarray, writemask: int, value: np.ndarray, mask: np.ndarray) -> None:
    """STORE: the word at byte ``addr + 4c`` receives component c (per writemask)."""
    if space.binding is not None and not space.binding.writable:
        return  # a read-only binding (writable_bitmask bit clear): stores are dropped
    word0 = addr // U32(4)
    for c in range(4):
        if writemask & (1 << c):
            idx, lanes = space.index(word0 + U32(c), mask)
            space.flat[idx] = value[lanes, c]  # numpy: the last (highest) lane wins
            if space.binding is not None:
                space.binding.touched(idx)


def _signed(fn: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    def op(old: np.ndarray, v: np.ndarray, _cmp: np.ndarray | None = None) -> np.ndarray:
        return np.asarray(fn(old.view(np.int32), v.view(np.int32))).view(U32)

    return op


def _fadd(old: np.ndarray, v: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return (old.view(np.float32) + v.view(np.float32)).view(U32)


#: ATOM* opcode -> new value from (old, src2[, src3]).
ATOMIC_OPS: dict[str, Callable[..., np.ndarray]] = {
    "ATOMUADD": lambda old, v, _c=None: old + v,
    "ATOMXCHG": lambda old, v, _c=None: v,
    "ATOMCAS": lambda old, cmp, new: np.asarray(np.where(old == cmp, new, old)),
    "ATOMAND": lambda old, v, _c=None: old & v,
    "ATOMOR": lambda old, v, _c=None: old | v,
    "ATOMXOR": lambda old, v, _c=None: old ^ v,
    "ATOMUMIN": lambda old, v, _c=None: np.minimum(old, v),
    "ATOMUMAX": lambda old, v, _c=None: np.maximum(old, v),
    "ATOMIMIN": _signed(np.minimum),
    "ATOMIMAX": _signed(np.maximum),
    # tgsi.rst: ATOMFADD adds floats; ATOMINC_WRAP stores old + 1 while that is
    # <= src, else 0; ATOMDEC_WRAP stores old - 1 while 0 < old < src, else 0.
    "ATOMFADD": lambda old, v, _c=None: _fadd(old, v),
    "ATOMINC_WRAP": lambda old, v, _c=None: np.where(old + U32(1) <= v, old + U32(1), U32(0)),
    "ATOMDEC_WRAP": lambda old, v, _c=None: np.where((old > 0) & (old < v), old - U32(1), U32(0)),
}


def _atomic_add(flat: np.ndarray, idx: np.ndarray, v: np.ndarray) -> np.ndarray:
    """ATOMUADD of many lanes at once: each lane's old value is the word plus
    the adds of the lanes before it on that word (an exclusive segmented sum)."""
    order = np.argsort(idx, kind="stable")
    si, sv = idx[order], v[order]
    inclusive = np.cumsum(sv, dtype=U32)  # wraps modulo 2**32, as the atomics do
    exclusive = inclusive - sv
    start = np.ones(si.size, bool)
    start[1:] = si[1:] != si[:-1]
    group = np.cumsum(start) - 1
    first = exclusive[start]
    old_sorted = flat[si] + (exclusive - first[group])
    ends = np.nonzero(np.r_[start[1:], True])[0]
    flat[si[start]] += inclusive[ends] - first
    old = np.empty_like(old_sorted)
    old[order] = old_sorted
    return old


def atomic(space: Space, opcode: str, addr: np.ndarray, a: np.ndarray, b, mask: np.ndarray) -> np.ndarray:
    """ATOM*: apply ``opcode`` at byte ``addr`` for the lanes of ``mask`` in
    lane order; returns each lane's old value (0 where out of range)."""
    out = np.zeros(addr.shape[0], U32)
    idx, lanes = space.index(addr // U32(4), mask)
    if space.binding is not None and not space.binding.writable:
        out[lanes] = space.flat[idx]  # a read-only binding: the old value, nothing written
        return out
    if not lanes.size:
        return out
    if space.binding is not None:
        space.binding.touched(idx)
    if opcode == "ATOMUADD":
        out[lanes] = _atomic_add(space.flat, idx, a[lanes])
        return out
    fn = ATOMIC_OPS[opcode]
    av = a[lanes]
    bv = None if b is None else b[lanes]
    pending = np.arange(lanes.size)
    while pending.size:
        # One round: the first pending lane of each distinct word, in lane order.
        _, first = np.unique(idx[pending], return_index=True)
        sel = pending[first]
        words = idx[sel]
        old = space.flat[words]
        new = fn(old, av[sel]) if bv is None else fn(old, av[sel], bv[sel])
        space.flat[words] = new
        out[lanes[sel]] = old
        pending = np.delete(pending, first)
    return out


# -- indirect buffer indices (BUFFER[ADDR[a].c + k]) --------------------------------------
#
# An indirect buffer index picks, per lane, one buffer of the declared run
# holding the operand's base index, as the GLSL lowering's array of blocks
# does (lowering/glsl/indexing.py): the index is clamped to that run (GLSL
# leaves an out-of-range index undefined).  A run is a range declaration
# (DCL BUFFER[0..3]) or consecutive single declarations (DCL BUFFER[0],
# DCL BUFFER[1], ... as Mesa declares array elements).  LOAD / STORE / ATOM*
# / RESQ then run once per buffer some lane picks, with the lanes that
# picked it: a gather / scatter over the bound buffers.


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


__all__ = [
    "ATOMIC_OPS",
    "BufferBinding",
    "Space",
    "atomic",
    "buffer_run",
    "direct_resource",
    "lanes_by_buffer",
    "load",
    "store",
]
