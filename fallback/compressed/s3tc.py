"""S3TC (DXT1 / DXT3 / DXT5, a.k.a. BC1-3) decoded with numpy.

From EXT_texture_compression_s3tc.  Every function takes an (N, blocksize)
uint8 array of blocks and returns (N, 4, 4, 4) uint8 RGBA texels, indexed
[block, row j, column i, channel]; the whole array is decoded at once.

A colour block is two RGB565 words ``color0``, ``color1`` (little endian)
and a 32-bit word of 2-bit codes, texel (i, j) at bits ``2 * (4 * j + i)``.
The endpoints widen to 8 bits by bit replication.  The spec defines the
interpolated colours as thirds / halves and leaves their precision to the
implementation; glpipe computes them in 8 bits with fixed-point weights --
``c0 + floor(85 * (c1 - c0) / 256)`` and ``c0 + floor(85 * (c1 - c0) / 128)``
for the thirds, ``(c0 + c1 + 1) >> 1`` for the half -- which is what the
host it is checked against (Mesa's llvmpipe) samples, within 4/3 of an
8-bit step of the exact value (docs/formats.md "Rounding").  RGBA8 storage
then holds every decoded texel exactly.  DXT3 and DXT5 colour blocks always
use the four-colour interpolation, whatever the order of color0 and color1
(the three-colour mode is DXT1's alone).  DXT3 alpha is 4 bits per texel (bits ``4*(4*j+i)``
of a 64-bit word) widened by replication; DXT5 alpha is the RGTC1 /
BC4 scheme on 8-bit endpoints (fallback.compressed.rgtc).
"""

from __future__ import annotations

import numpy as np

from .rgtc import interpolate_unsigned

# Texel (i, j) of a block is code number 4 * j + i: the shifts as a (4, 4)
# [row, column] grid.
_TEXEL = np.arange(16, dtype=np.uint32).reshape(4, 4)


def _u16(blocks: np.ndarray, offset: int) -> np.ndarray:
    return blocks[:, offset].astype(np.uint32) | (blocks[:, offset + 1].astype(np.uint32) << 8)


def _u32(blocks: np.ndarray, offset: int) -> np.ndarray:
    word = np.zeros(blocks.shape[0], np.uint32)
    for k in range(4):
        word |= blocks[:, offset + k].astype(np.uint32) << np.uint32(8 * k)
    return word


def expand_565(c: np.ndarray) -> np.ndarray:
    """RGB565 words -> (N, 3) int32 8-bit RGB by bit replication."""
    r = (c >> 11) & 0x1F
    g = (c >> 5) & 0x3F
    b = c & 0x1F
    return np.stack([(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)], axis=-1).astype(np.int32)


def _half(c0: np.ndarray, c1: np.ndarray) -> np.ndarray:
    return (c0 + c1 + 1) >> 1


def decode_color(blocks: np.ndarray, offset: int, four_colour_only: bool, rgb_only: bool) -> np.ndarray:
    """The DXT colour block at byte ``offset`` of every block: (N, 4, 4, 4) uint8.

    ``four_colour_only``: DXT3 / DXT5 (no 3-colour mode).  ``rgb_only``:
    DXT1 RGB, where code 3 of the 3-colour mode is opaque black; for the
    RGBA variant it is transparent black (alpha 0)."""
    c0w, c1w = _u16(blocks, offset), _u16(blocks, offset + 2)
    codes = _u32(blocks, offset + 4)
    c0, c1 = expand_565(c0w), expand_565(c1w)
    four = np.ones(c0w.shape, bool) if four_colour_only else c0w > c1w
    n = blocks.shape[0]
    palette = np.empty((n, 4, 4), np.int32)  # [block, code, channel]
    palette[:, 0, :3] = c0
    palette[:, 1, :3] = c1
    palette[:, :, 3] = 255
    f = four[:, None]
    delta = c1 - c0
    palette[:, 2, :3] = np.where(f, c0 + ((85 * delta) >> 8), _half(c0, c1))
    palette[:, 3, :3] = np.where(f, c0 + ((85 * delta) >> 7), 0)
    if not rgb_only:
        palette[:, 3, 3] = np.where(four, 255, 0)
    idx = ((codes[:, None] >> (2 * _TEXEL.reshape(1, 16))) & 3).astype(np.intp)  # (N, 16)
    rows = (np.arange(n, dtype=np.intp) * 4)[:, None] + idx
    return palette.astype(np.uint8).reshape(n * 4, 4)[rows].reshape(n, 4, 4, 4)


def decode_dxt1_rgb(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGB_S3TC_DXT1: code 3 of the 3-colour mode is opaque black."""
    return decode_color(blocks, 0, False, True)


def decode_dxt1_rgba(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGBA_S3TC_DXT1: code 3 of the 3-colour mode is transparent black."""
    return decode_color(blocks, 0, False, False)


def decode_dxt3(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGBA_S3TC_DXT3: explicit 4-bit alpha, then a colour block."""
    out = decode_color(blocks, 8, True, True)
    lo, hi = _u32(blocks, 0).astype(np.uint64), _u32(blocks, 4).astype(np.uint64)
    word = lo | (hi << np.uint64(32))
    a4 = (word[:, None, None] >> (np.uint64(4) * _TEXEL.astype(np.uint64))) & np.uint64(0xF)
    out[..., 3] = (a4 * np.uint64(17)).astype(np.uint8)  # 4 -> 8 bits by replication
    return out


def decode_dxt5(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGBA_S3TC_DXT5: an interpolated alpha block, then a colour block."""
    out = decode_color(blocks, 8, True, True)
    out[..., 3] = interpolate_unsigned(blocks[:, 0:8]).astype(np.uint8)
    return out


__all__ = ["decode_color", "decode_dxt1_rgb", "decode_dxt1_rgba", "decode_dxt3", "decode_dxt5", "expand_565"]
