"""RGTC (RGTC1 / RGTC2, a.k.a. BC4 / BC5) decoded with numpy; also the
interpolated alpha block of DXT5.

From ARB_texture_compression_rgtc.  A channel block is 64 bits: endpoints
``red0``, ``red1`` (bytes; two's complement for the SIGNED formats) and 48
bits of 3-bit codes, texel (i, j) at bits ``3 * (4 * j + i)`` after the
endpoints.  With ``red0 > red1`` (compared as signed for SIGNED) codes 2..7
are ``((8 - c) * red0 + (c - 1) * red1) / 7``; otherwise codes 2..5 are
``((6 - c) * red0 + (c - 1) * red1) / 5``, code 6 the minimum (0, or -1.0
signed) and code 7 the maximum (1.0).

The spec leaves the precision of the interpolation to the implementation.
glpipe decodes to 8 bits with fixed-point weights -- ``w = (W * (c - 1)) >> 6``
with ``W = 255 * 64 / 7`` (or ``/ 5``), value ``red0 + floor((red1 - red0)
* w / 256)`` -- which is what the host it is checked against (Mesa's
llvmpipe) samples, so a decoded texture and a natively sampled one give the
same texels; the result is within 1.6 8-bit steps of the exact value
(docs/formats.md "Rounding").  8-bit storage (R8 / RG8 / R8_SNORM /
RG8_SNORM) then holds every decoded value exactly.
"""

from __future__ import annotations

import numpy as np

_TEXEL = np.arange(16, dtype=np.uint64).reshape(4, 4)
# Fixed-point steps of 1/7 and 1/5 of 255, scaled by 64.
_W7, _W5 = 255 * 64 // 7, 255 * 64 // 5


def _codes(blocks: np.ndarray) -> np.ndarray:
    """(N, 16) 3-bit codes of 8-byte channel blocks, texel 4 * j + i."""
    word = np.zeros(blocks.shape[0], np.uint64)
    for k in range(6):
        word |= blocks[:, 2 + k].astype(np.uint64) << np.uint64(8 * k)
    return ((word[:, None] >> (np.uint64(3) * _TEXEL.reshape(1, 16))) & np.uint64(7)).astype(np.int64)


def channel8(blocks: np.ndarray, signed: bool) -> np.ndarray:
    """Each texel of (N, 8) channel blocks as an 8-bit value (0..255, or
    -128..127 for ``signed``): (N, 4, 4) int64."""
    if signed:
        e0 = blocks[:, 0].view(np.int8).astype(np.int64)[:, None]
        e1 = blocks[:, 1].view(np.int8).astype(np.int64)[:, None]
        lo, hi = -127, 127
    else:
        e0, e1 = blocks[:, 0].astype(np.int64)[:, None], blocks[:, 1].astype(np.int64)[:, None]
        lo, hi = 0, 255
    code = _codes(blocks)
    seven = e0 > e1
    weight = (np.where(seven, _W7, _W5) * (code - 1)) >> 6
    value = e0 + (((e1 - e0) * weight) >> 8)
    value = np.where(code == 0, e0, np.where(code == 1, e1, value))
    value = np.where(~seven & (code == 6), lo, value)
    value = np.where(~seven & (code == 7), hi, value)
    return value.reshape(-1, 4, 4)


def interpolate_unsigned(blocks: np.ndarray) -> np.ndarray:
    """An unsigned channel block decoded to 8 bits (the DXT5 alpha block):
    (N, 4, 4) int64 in 0..255."""
    return channel8(blocks, False)


def decode_rgtc1_unorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RED_RGTC1 -> (N, 4, 4, 1) uint8 (R8)."""
    return channel8(blocks, False).astype(np.uint8)[..., None]


def decode_rgtc1_snorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_SIGNED_RED_RGTC1 -> (N, 4, 4, 1) int8 (R8_SNORM)."""
    return channel8(blocks, True).astype(np.int8)[..., None]


def decode_rgtc2_unorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RG_RGTC2 (red block, then green block) -> (N, 4, 4, 2) uint8 (RG8)."""
    return np.stack([channel8(blocks[:, 0:8], False), channel8(blocks[:, 8:16], False)], axis=-1).astype(np.uint8)


def decode_rgtc2_snorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_SIGNED_RG_RGTC2 -> (N, 4, 4, 2) int8 (RG8_SNORM)."""
    return np.stack([channel8(blocks[:, 0:8], True), channel8(blocks[:, 8:16], True)], axis=-1).astype(np.int8)


__all__ = [
    "channel8",
    "decode_rgtc1_snorm",
    "decode_rgtc1_unorm",
    "decode_rgtc2_snorm",
    "decode_rgtc2_unorm",
    "interpolate_unsigned",
]
