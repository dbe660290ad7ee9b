"""Validation for the transfers area (glpipe/transfer.py): the PIPE_MAP
usage rules, boxes checked against a texture level or a buffer, and the
byte layout of a mapped region (``_Region``).  docs/api.md "Transfers"
states the rules.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError, UnsupportedError

from .boundary import integer
from .enums import Map, Target, all_flag_bits
from .formats import host_decodes, util_format_description
from .templates import Box

# Not sum(Map): before Python 3.11 that adds NONE and READ_WRITE too (defs.flag_bits).
_ALL_MAP_BITS = all_flag_bits(Map)
_READ_FORBIDS = Map.DISCARD_RANGE | Map.DISCARD_WHOLE_RESOURCE | Map.UNSYNCHRONIZED | Map.FLUSH_EXPLICIT
_DISCARDS = Map.DISCARD_RANGE | Map.DISCARD_WHOLE_RESOURCE

# Which box dimensions a target has: (y, z).  z counts layers / faces /
# slices; a 1D array's layers are z as well (context.rst), height is 1.
_HAS_YZ = {
    Target.TEXTURE_1D: (False, False),
    Target.TEXTURE_2D: (True, False),
    Target.TEXTURE_RECT: (True, False),
    Target.TEXTURE_3D: (True, True),
    Target.TEXTURE_CUBE: (True, True),
    Target.TEXTURE_1D_ARRAY: (False, True),
    Target.TEXTURE_2D_ARRAY: (True, True),
    Target.TEXTURE_CUBE_ARRAY: (True, True),
}


class StagingPool:
    """Host memory for mappings, reused from one mapping to the next.

    A fresh allocation of a large array costs a page fault per page on
    first touch (on some hosts more than the copy itself, measured in
    benchmarks/bench_transfer.py): an unmapped transfer's memory goes back
    to the pool when nothing references it any more (the caller holds no
    view of ``Transfer.data`` after unmap), and is never reused while a view
    of it lives.  At most ``limit`` bytes are kept."""

    def __init__(self, limit: int = 256 << 20) -> None:
        self.limit = limit
        self._free: dict[int, list[np.ndarray]] = {}
        self._bytes = 0

    def take(self, nbytes: int, align: int, phase: int = 0) -> np.ndarray:
        """A uint8 array of ``nbytes`` whose address is ``phase`` modulo ``align``."""
        align = max(1, align)
        free = self._free.get(nbytes + align)
        if free:
            raw = free.pop()
            self._bytes -= raw.nbytes
            raw.flags.writeable = True  # a READ mapping made it read-only
        else:
            raw = np.empty(nbytes + align, np.uint8)
        off = (phase - raw.ctypes.data) % align
        return raw[off : off + nbytes]

    def give(self, view: np.ndarray) -> None:
        """Return the memory of ``view`` (an array ``take`` made, or a
        reshape of one) if no other reference to it or its memory exists."""
        raw = view.base
        if not isinstance(raw, np.ndarray) or raw.base is not None:
            return
        # The caller's variable, this parameter and getrefcount's argument
        # are 3 references to the view; view.base, ``raw`` and getrefcount's
        # argument are 3 to its memory.  More: someone still holds a view.
        if sys.getrefcount(view) > 3 or sys.getrefcount(raw) > 3:
            return
        if self._bytes + raw.nbytes > self.limit:
            return
        self._free.setdefault(raw.nbytes, []).append(raw)
        self._bytes += raw.nbytes

    def clear(self) -> None:
        """Drop every pooled array (the context's destroy)."""
        self._free.clear()
        self._bytes = 0


def _read_only(arr: np.ndarray) -> np.ndarray:
    """``arr`` made read-only, and the array owning its memory too, so the
    flag cannot be turned back on through a view (numpy refuses to make a
    view writable over a read-only base)."""
    base: object = arr
    while isinstance(base, np.ndarray):
        base.flags.writeable = False
        base = base.base
    return arr


def _bytes_of(data, what: str) -> np.ndarray:
    """Any buffer-protocol object (or numpy array) as a flat uint8 array."""
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    try:
        mv = memoryview(data)
    except TypeError:
        raise InvalidArgumentError(
            f"{what}: data must support the buffer protocol, got {type(data).__name__}"
        ) from None
    if not mv.c_contiguous:
        raise InvalidArgumentError(f"{what}: data must be C-contiguous")
    return np.frombuffer(mv.cast("B"), np.uint8)


def _int_arg(value, name: str, what: str, ctype: str = "uint32") -> int:
    """An integer argument inside its C type (p_context.h: ``unsigned``
    level, usage, offset and stride; ``uintptr_t`` layer_stride)."""
    return integer(value, f"{what}: {name}", ctype)


# --------------------------------------------------------------------------
# Regions: a box validated against a resource level
# --------------------------------------------------------------------------


class _Region:
    """A validated box of one level, in texels and in blocks, with the
    byte layout of its staging copy."""

    __slots__ = (
        "bs",
        "bx",
        "by",
        "compressed",
        "d",
        "decoded",
        "desc",
        "h",
        "host",
        "host_bs",
        "layer_stride",
        "level_extent",
        "nbx",
        "nby",
        "nbytes",
        "stride",
        "w",
        "x",
        "y",
        "z",
    )

    def __init__(self, res, level, x, y, z, w, h, d):
        desc = util_format_description(res.format)
        host = res.storage
        self.x, self.y, self.z, self.w, self.h, self.d = x, y, z, w, h, d
        self.desc, self.host = desc, host
        self.compressed = bool(host.compressed)
        # Compressed data the host stores decoded (fallback.compressed).
        self.decoded = host_decodes(desc, host)
        bw, bh = desc.block_width, desc.block_height
        self.bx, self.by = x // bw, y // bh
        self.nbx = -(-w // bw)
        self.nby = -(-h // bh)
        self.bs = desc.blocksize
        self.host_bs = util_format_description(host.transfer_as).blocksize if host.transfer_as is not None else self.bs
        self.stride = self.nbx * self.bs
        self.layer_stride = self.stride * self.nby
        self.nbytes = self.layer_stride * d
        self.level_extent = res.level_extent(level)


def _check_usage(usage, what: str) -> Map:
    u = _int_arg(usage, "usage", what)
    if u < 0 or u & ~_ALL_MAP_BITS:
        raise InvalidArgumentError(f"{what}: unknown PIPE_MAP bits {u & ~_ALL_MAP_BITS:#x}")
    return Map(u)


def _texture_region(res, level, box, what: str, msaa: bool = False) -> _Region:
    """Validate ``box`` against ``level`` of texture ``res`` (multisampled
    only with ``msaa``: transfer_map goes through a staging texture)."""
    if res.nr_samples > 1 and not msaa:
        raise UnsupportedError(
            f"{what}: multisampled textures are written through transfer_map only (texture_subdata cannot say which samples)"
        )
    level = _int_arg(level, "level", what)
    if not 0 <= level <= res.last_level:
        raise InvalidArgumentError(f"{what}: level {level} outside the resource's levels 0..{res.last_level}")
    if not isinstance(box, Box):
        raise InvalidArgumentError(f"{what}: box must be a Box, got {type(box).__name__}")
    lw, lh, ld = res.level_extent(level)
    has_y, has_z = _HAS_YZ[Target(res.target)]
    x, w = box.x, box.width
    y, h = (box.y, box.height) if has_y else (box.y, box.height or 1)
    z, d = (box.z, box.depth) if has_z else (box.z, box.depth or 1)
    if not has_y and (y != 0 or h != 1):
        raise InvalidArgumentError(
            f"{what}: box {box!r}: a {Target(res.target).name} has no y; y must be 0 and height 0 or 1"
        )
    if not has_z and (z != 0 or d != 1):
        raise InvalidArgumentError(
            f"{what}: box {box!r}: a {Target(res.target).name} has no layers; z must be 0 and depth 0 or 1"
        )
    if w <= 0 or h <= 0 or d <= 0:
        raise InvalidArgumentError(f"{what}: box {box!r} is empty or negative")
    if x < 0 or y < 0 or z < 0 or x + w > lw or y + h > lh or z + d > ld:
        raise InvalidArgumentError(
            f"{what}: box {box!r} is outside level {level} of the resource ({lw}x{lh}, {ld} layers/slices)"
        )
    region = _Region(res, level, x, y, z, w, h, d)
    desc = region.desc
    bw, bh = desc.block_width, desc.block_height
    misaligned = x % bw or y % bh or (w % bw and x + w != lw) or (h % bh and y + h != lh)
    if (bw > 1 or bh > 1) and misaligned:
        raise InvalidArgumentError(
            f"{what}: box {box!r} of compressed {desc.name} must be aligned to its {bw}x{bh} blocks "
            f"(or end at the level's edge {lw}x{lh})"
        )
    return region


class _BufferRange(NamedTuple):
    """The mapped bytes of a buffer transfer (its ``_region``)."""

    offset: int
    size: int


def _buffer_range(res, box, what: str) -> _BufferRange:
    if not isinstance(box, Box):
        raise InvalidArgumentError(f"{what}: box must be a Box, got {type(box).__name__}")
    if box.y != 0 or box.z != 0 or box.height not in (0, 1) or box.depth not in (0, 1):
        raise InvalidArgumentError(f"{what}: box {box!r}: a buffer box has y = z = 0 and height/depth 0 or 1")
    if box.width <= 0:
        raise InvalidArgumentError(f"{what}: box {box!r} is empty or negative")
    if box.x < 0 or box.x + box.width > res.width0:
        raise InvalidArgumentError(
            f"{what}: box {box!r} (bytes {box.x}..{box.x + box.width - 1}) is outside the {res.width0}-byte buffer"
        )
    return _BufferRange(box.x, box.width)


__all__ = [
    "StagingPool",
    "_ALL_MAP_BITS",
    "_DISCARDS",
    "_READ_FORBIDS",
    "_BufferRange",
    "_Region",
    "_buffer_range",
    "_bytes_of",
    "_check_usage",
    "_int_arg",
    "_read_only",
    "_texture_region",
]
