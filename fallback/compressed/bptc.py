"""BPTC (BC7 unorm / sRGB, BC6H signed / unsigned float) decoded with numpy.

docs/formats.md "BPTC" gives the block fields and the output formats.
"""

from __future__ import annotations

import numpy as np

from .bptc_tables import (
    ANCHOR2,
    ANCHOR3A,
    ANCHOR3B,
    BC6H_FIELDS,
    BC6H_INDEX_START,
    BC6H_MODES,
    BC7_MODES,
    PARTITION2,
    PARTITION3,
    WEIGHTS,
)

_HALF_ONE = 0x3C00


def _bits(blocks: np.ndarray) -> np.ndarray:
    """(N, 128) uint8 bits of 16-byte blocks, bit i of the little-endian stream."""
    return np.unpackbits(blocks, axis=1, bitorder="little")


def _field(bits: np.ndarray, start: int, count: int) -> np.ndarray:
    """Unsigned field of ``count`` bits at ``start`` of every row: int64 (N,)."""
    if count == 0:
        return np.zeros(bits.shape[0], np.int64)
    weights = 1 << np.arange(count, dtype=np.int64)
    return bits[:, start : start + count].astype(np.int64) @ weights


def _subsets_and_anchors(ns: int, partition: np.ndarray) -> tuple:
    """Per block: the subset of each texel (N, 16) and whether each texel is
    an anchor (N, 16) bool."""
    n = partition.shape[0]
    anchors = np.zeros((n, 16), bool)
    anchors[:, 0] = True
    if ns == 1:
        return np.zeros((n, 16), np.int64), anchors
    if ns == 2:
        anchors[np.arange(n), ANCHOR2[partition]] = True
        return PARTITION2[partition], anchors
    anchors[np.arange(n), ANCHOR3A[partition]] = True
    anchors[np.arange(n), ANCHOR3B[partition]] = True
    return PARTITION3[partition], anchors


def _indices(bits: np.ndarray, start: int, ib: int, anchors: np.ndarray) -> np.ndarray:
    """The 16 indices of each block from ``start``: ``ib`` bits each, one
    less (the implied-zero MSB) for anchor texels.  (N, 16) int64."""
    counts = ib - anchors.astype(np.int64)
    offsets = start + np.concatenate([np.zeros((bits.shape[0], 1), np.int64), np.cumsum(counts, axis=1)[:, :-1]], 1)
    out = np.zeros(counts.shape, np.int64)
    for b in range(ib):
        pos = np.minimum(offsets + b, 127)
        bit = np.take_along_axis(bits, pos, axis=1).astype(np.int64)
        out |= np.where(b < counts, bit, 0) << b
    return out


def _interpolate(e0: np.ndarray, e1: np.ndarray, index: np.ndarray, ib: int) -> np.ndarray:
    w = np.asarray(WEIGHTS[ib], np.int64)[index]
    return ((64 - w) * e0 + w * e1 + 32) >> 6


def _widen(v: np.ndarray, nbits: int) -> np.ndarray:
    """An ``nbits``-bit endpoint to 8 bits, its top bits replicated below."""
    if nbits == 8:
        return v
    return (v << (8 - nbits)) | (v >> (2 * nbits - 8))


def _bc7_mode(bits: np.ndarray, mode: int) -> np.ndarray:
    """Decode blocks all in BC7 ``mode``: (N, 16, 4) int64."""
    ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2 = BC7_MODES[mode]
    n = bits.shape[0]
    pos = mode + 1
    partition = _field(bits, pos, pb)
    pos += pb
    rotation = _field(bits, pos, rb)
    pos += rb
    selection = _field(bits, pos, isb)
    pos += isb
    ends = np.zeros((n, ns, 2, 4), np.int64)  # [block, subset, endpoint, channel]
    for ch, width in ((0, cb), (1, cb), (2, cb), (3, ab)):
        for s in range(ns):
            for e in range(2):
                ends[:, s, e, ch] = _field(bits, pos, width)
                pos += width
    cbits, abits = cb, ab
    if epb or spb:
        pbits = np.zeros((n, ns, 2), np.int64)
        for s in range(ns):
            if epb:
                pbits[:, s, 0] = _field(bits, pos, 1)
                pbits[:, s, 1] = _field(bits, pos + 1, 1)
                pos += 2
            else:
                pbits[:, s, :] = _field(bits, pos, 1)[:, None]
                pos += 1
        ends[..., :3] = (ends[..., :3] << 1) | pbits[..., None]
        cbits += 1
        if ab:
            ends[..., 3] = (ends[..., 3] << 1) | pbits
            abits += 1
    ends[..., :3] = _widen(ends[..., :3], cbits)
    ends[..., 3] = _widen(ends[..., 3], abits) if ab else 255
    subset, anchors = _subsets_and_anchors(ns, partition)
    primary = _indices(bits, pos, ib, anchors)
    pos += 16 * ib - ns
    secondary = _indices(bits, pos, ib2, anchors) if ib2 else primary
    # Colour from the secondary index when the selection bit is 1, alpha from
    # the secondary index when there is one and the bit is 0.
    sel = selection.astype(bool)[:, None]
    colour_idx = np.where(sel, secondary, primary) if ib2 else primary
    alpha_idx = np.where(sel, primary, secondary) if ib2 else primary
    colour_ib = np.where(sel, ib2, ib) if ib2 else np.full((n, 1), ib)
    alpha_ib = np.where(sel, ib, ib2) if ib2 else np.full((n, 1), ib)
    e0 = np.take_along_axis(ends[:, :, 0, :], subset[..., None], axis=1)  # (N, 16, 4)
    e1 = np.take_along_axis(ends[:, :, 1, :], subset[..., None], axis=1)
    out = np.empty((n, 16, 4), np.int64)
    for bits_c in {int(v) for v in np.unique(colour_ib)}:
        m = (colour_ib == bits_c).reshape(-1)
        out[m, :, :3] = _interpolate(e0[m, :, :3], e1[m, :, :3], colour_idx[m][..., None], bits_c)
    for bits_a in {int(v) for v in np.unique(alpha_ib)}:
        m = (alpha_ib == bits_a).reshape(-1)
        out[m, :, 3] = _interpolate(e0[m, :, 3], e1[m, :, 3], alpha_idx[m], bits_a)
    if rb:
        for r in (1, 2, 3):
            m = rotation == r
            if m.any():
                swapped = out[m].copy()
                swapped[..., [r - 1, 3]] = swapped[..., [3, r - 1]]
                out[m] = swapped
    return out


def decode_bc7(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGBA_BPTC_UNORM (and the sRGB one) -> (N, 4, 4, 4) uint8."""
    bits = _bits(blocks)
    low = blocks[:, 0].astype(np.int64)
    mode = np.where(low == 0, 8, np.log2(np.where(low == 0, 1, low & -low)).astype(np.int64))
    out = np.zeros((blocks.shape[0], 16, 4), np.int64)  # reserved mode 8: transparent black
    for m in range(8):
        sel = mode == m
        if sel.any():
            out[sel] = _bc7_mode(bits[sel], m)
    return out.reshape(-1, 4, 4, 4).astype(np.uint8)


def _sign_extend(v: np.ndarray, nbits: int) -> np.ndarray:
    return np.where(v >= (1 << (nbits - 1)), v - (1 << nbits), v)


def _unquantize(x: np.ndarray, epb: int, signed: bool) -> np.ndarray:
    if not signed:
        if epb >= 15:
            return x
        mid = ((x << 15) + 0x4000) >> (epb - 1)
        return np.where(x == 0, 0, np.where(x == (1 << epb) - 1, 0xFFFF, mid))
    if epb >= 16:
        return x
    mag = np.abs(x)
    mid = ((mag << 15) + 0x4000) >> (epb - 1)
    unq = np.where(mag == 0, 0, np.where(mag >= (1 << (epb - 1)) - 1, 0x7FFF, mid))
    return np.where(x < 0, -unq, unq)


def _bc6h_mode(bits: np.ndarray, mode: int, signed: bool) -> np.ndarray:
    """Decode blocks all in BC6H ``mode``: (N, 16, 3) int64 half-float bits."""
    transformed, pb, epb, deltas = BC6H_MODES[mode]
    n = bits.shape[0]
    ns = 2 if pb else 1
    values: dict[str, np.ndarray] = {}
    for block_bit, name, var_bit in BC6H_FIELDS[mode]:
        values[name] = values.get(name, np.zeros(n, np.int64)) | (bits[:, block_bit].astype(np.int64) << var_bit)
    ends = np.zeros((n, 2 * ns, 3), np.int64)  # endpoints e0..e3, channels r g b
    for e in range(2 * ns):
        for c, ch in enumerate("rgb"):
            ends[:, e, c] = values.get(f"{ch}{e}", np.zeros(n, np.int64))
    mask = (1 << epb) - 1
    for c in range(3):
        if signed:
            ends[:, 0, c] = _sign_extend(ends[:, 0, c], epb)
        for e in range(1, 2 * ns):
            width = deltas[c] if transformed else epb
            v = ends[:, e, c]
            if signed or transformed:
                v = _sign_extend(v, width)
            if transformed:
                v = (ends[:, 0, c] + v) & mask
                if signed:
                    v = _sign_extend(v, epb)
            ends[:, e, c] = v
    ends = _unquantize(ends, epb, signed)
    partition = _field(bits, 77, pb) if pb else np.zeros(n, np.int64)
    subset, anchors = _subsets_and_anchors(ns, partition)
    ib = 3 if ns == 2 else 4
    index = _indices(bits, BC6H_INDEX_START[ns], ib, anchors)
    e0 = np.take_along_axis(ends[:, 0::2, :], subset[..., None], axis=1)
    e1 = np.take_along_axis(ends[:, 1::2, :], subset[..., None], axis=1)
    v = _interpolate(e0, e1, index[..., None], ib)
    if not signed:
        return (v * 31) >> 6
    mag = (np.abs(v) * 31) >> 5
    return np.where(v < 0, mag | 0x8000, mag)


def _decode_bc6h(blocks: np.ndarray, signed: bool) -> np.ndarray:
    bits = _bits(blocks)
    low2 = _field(bits, 0, 2)
    mode = np.where(low2 < 2, low2, _field(bits, 0, 5))
    out = np.zeros((blocks.shape[0], 16, 4), np.int64)  # reserved modes: (0, 0, 0, 1)
    out[..., 3] = _HALF_ONE
    for m in BC6H_MODES:
        sel = mode == m
        if sel.any():
            out[sel, :, :3] = _bc6h_mode(bits[sel], m, signed)
    return out.astype(np.uint16).reshape(-1, 4, 4, 4)


def decode_bc6h_unsigned(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT -> (N, 4, 4, 4) uint16 half-float bits (RGBA16F)."""
    return _decode_bc6h(blocks, False)


def decode_bc6h_signed(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGB_BPTC_SIGNED_FLOAT -> (N, 4, 4, 4) uint16 half-float bits (RGBA16F)."""
    return _decode_bc6h(blocks, True)


__all__ = ["decode_bc6h_signed", "decode_bc6h_unsigned", "decode_bc7"]
