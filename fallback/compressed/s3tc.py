"""S3TC and RGTC (BC1 - BC5) decoded with numpy: DXT1 / DXT3 / DXT5 and
RGTC1 / RGTC2 (LATC uses the RGTC decoders).

docs/formats.md "S3TC and RGTC" gives the block layouts and the interpolation.
"""

from __future__ import annotations

import numpy as np

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


# --- RGTC channel blocks (and DXT5 alpha) ------------------------------------


# Fixed-point steps of 1/7 and 1/5 of 255, scaled by 64.
_W7, _W5 = 255 * 64 // 7, 255 * 64 // 5


def _codes(blocks: np.ndarray) -> np.ndarray:
    """(N, 16) 3-bit codes of 8-byte channel blocks, texel 4 * j + i."""
    word = np.zeros(blocks.shape[0], np.uint64)
    for k in range(6):
        word |= blocks[:, 2 + k].astype(np.uint64) << np.uint64(8 * k)
    return ((word[:, None] >> (np.uint64(3) * _TEXEL.reshape(1, 16).astype(np.uint64))) & np.uint64(7)).astype(np.int64)


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
    "decode_color",
    "decode_dxt1_rgb",
    "decode_dxt1_rgba",
    "decode_dxt3",
    "decode_dxt5",
    "decode_rgtc1_snorm",
    "decode_rgtc1_unorm",
    "decode_rgtc2_snorm",
    "decode_rgtc2_unorm",
    "expand_565",
    "interpolate_unsigned",
]
