"""ETC1 / ETC2 / EAC decoded with numpy.

docs/formats.md "ETC1, ETC2 and EAC" gives the modes and the widening.
"""

from __future__ import annotations

import numpy as np

# ETC1 intensity modifier tables (by table codeword): index (msb, lsb)
# 00 -> +a, 01 -> +b, 10 -> -a, 11 -> -b.
_ETC_MOD = np.array(
    [
        [2, 8, -2, -8],
        [5, 17, -5, -17],
        [9, 29, -9, -29],
        [13, 42, -13, -42],
        [18, 60, -18, -60],
        [24, 80, -24, -80],
        [33, 106, -33, -106],
        [47, 183, -47, -183],
    ],
    np.int64,
)
# Punch-through, not opaque: indices 0 and 2 carry no modifier (2 is transparent).
_ETC_MOD_NONOPAQUE = _ETC_MOD * np.array([0, 1, 0, 1], np.int64)
_DISTANCE = np.array([3, 6, 11, 16, 23, 32, 41, 64], np.int64)
_EAC_MOD = np.array(
    [
        [-3, -6, -9, -15, 2, 5, 8, 14],
        [-3, -7, -10, -13, 2, 6, 9, 12],
        [-2, -5, -8, -13, 1, 4, 7, 12],
        [-2, -4, -6, -13, 1, 3, 5, 12],
        [-3, -6, -8, -12, 2, 5, 7, 11],
        [-3, -7, -9, -11, 2, 6, 8, 10],
        [-4, -7, -8, -11, 3, 6, 7, 10],
        [-3, -5, -8, -11, 2, 4, 7, 10],
        [-2, -6, -8, -10, 1, 5, 7, 9],
        [-2, -5, -8, -10, 1, 4, 7, 9],
        [-2, -4, -8, -10, 1, 3, 7, 9],
        [-2, -5, -7, -10, 1, 4, 6, 9],
        [-3, -4, -7, -10, 2, 3, 6, 9],
        [-1, -2, -3, -10, 0, 1, 2, 9],
        [-4, -6, -8, -9, 3, 5, 7, 8],
        [-3, -5, -7, -9, 2, 4, 6, 8],
    ],
    np.int64,
)
# Pixel (x, y) as a (4, 4) [y, x] grid of p = 4 * x + y, and the coordinates.
_YY, _XX = np.meshgrid(np.arange(4), np.arange(4), indexing="ij")
_P = (4 * _XX + _YY).astype(np.uint64)


def _word(blocks: np.ndarray, offset: int) -> np.ndarray:
    """The big-endian 64-bit word at byte ``offset`` of every block (uint64)."""
    w = np.zeros(blocks.shape[0], np.uint64)
    for k in range(8):
        w = (w << np.uint64(8)) | blocks[:, offset + k].astype(np.uint64)
    return w


def _bits(word: np.ndarray, lo: int, count: int) -> np.ndarray:
    """Bits lo .. lo + count - 1 of each word, as int64 (N,)."""
    return ((word >> np.uint64(lo)) & np.uint64((1 << count) - 1)).astype(np.int64)


def _ext4(v):
    return (v << 4) | v


def _ext5(v):
    return (v << 3) | (v >> 2)


def _ext6(v):
    return (v << 2) | (v >> 4)


def _ext7(v):
    return (v << 1) | (v >> 6)


def _rgb(word: np.ndarray, punchthrough: bool) -> tuple:
    """Decode the ETC2 RGB part: ((N, 4, 4, 3) int32 colour, (N, 4, 4) bool transparent).

    Every mode but planar picks each texel's colour from a per-block
    palette of 2 x 4 entries (sub-block, index): individual / differential
    fill it from the base colours and modifier tables, T / H from the four
    paint colours (the same for both halves).  One gather then colours all
    texels; planar blocks are computed apart."""
    n = word.shape[0]
    diff = _bits(word, 33, 1).astype(bool)
    flip = _bits(word, 32, 1).astype(bool)
    opaque = diff if punchthrough else np.ones(n, bool)
    if punchthrough:
        diff = np.ones(n, bool)  # no individual mode: the bit means "opaque"
    # Index per pixel (flat by 4 * y + x): msb at bit 16 + p, lsb at bit p.
    p = _P.reshape(1, 16)
    idx = (
        (((word[:, None] >> (p + np.uint64(16))) & np.uint64(1)) << np.uint64(1))
        | ((word[:, None] >> p) & np.uint64(1))
    ).astype(np.intp)  # (N, 16)

    # Channel fields: 5-bit base at 59/51/43, 3-bit signed delta at 56/48/40.
    base5 = np.stack([_bits(word, 59, 5), _bits(word, 51, 5), _bits(word, 43, 5)], -1)
    dlt = np.stack([_bits(word, 56, 3), _bits(word, 48, 3), _bits(word, 40, 3)], -1)
    dlt = np.where(dlt >= 4, dlt - 8, dlt)
    summed = base5 + dlt
    overflow = (summed < 0) | (summed > 31)
    t_mode = diff & overflow[:, 0]
    h_mode = diff & ~overflow[:, 0] & overflow[:, 1]
    planar = diff & ~overflow[:, 0] & ~overflow[:, 1] & overflow[:, 2]

    # --- individual / differential: palette[sub-block, index] = base + modifier
    ind1 = np.stack([_bits(word, 60, 4), _bits(word, 52, 4), _bits(word, 44, 4)], -1)
    ind2 = np.stack([_bits(word, 56, 4), _bits(word, 48, 4), _bits(word, 40, 4)], -1)
    sub = np.stack(
        [
            np.where(diff[:, None], _ext5(base5), _ext4(ind1)),
            np.where(diff[:, None], _ext5(np.clip(summed, 0, 31)), _ext4(ind2)),
        ],
        1,
    )  # (N, 2, 3)
    tables = np.stack([_bits(word, 37, 3), _bits(word, 34, 3)], 1)  # (N, 2)
    mods = np.where(opaque[:, None, None], _ETC_MOD[tables], _ETC_MOD_NONOPAQUE[tables])  # (N, 2, 4)
    palette = np.clip(sub[:, :, None, :] + mods[..., None], 0, 255)  # (N, 2, 4, 3)

    # --- T mode
    t1 = np.stack([(_bits(word, 59, 2) << 2) | _bits(word, 56, 2), _bits(word, 52, 4), _bits(word, 48, 4)], -1)
    t2 = np.stack([_bits(word, 44, 4), _bits(word, 40, 4), _bits(word, 36, 4)], -1)
    t1, t2 = _ext4(t1), _ext4(t2)
    td = _DISTANCE[(_bits(word, 34, 2) << 1) | _bits(word, 32, 1)][:, None]
    t_paint = np.stack([t1, np.clip(t2 + td, 0, 255), t2, np.clip(t2 - td, 0, 255)], 1)  # (N, 4, 3)

    # --- H mode
    h1 = np.stack(
        [
            _bits(word, 59, 4),
            (_bits(word, 56, 3) << 1) | _bits(word, 52, 1),
            (_bits(word, 51, 1) << 3) | _bits(word, 47, 3),
        ],
        -1,
    )
    h2 = np.stack([_bits(word, 43, 4), _bits(word, 39, 4), _bits(word, 35, 4)], -1)
    h1, h2 = _ext4(h1), _ext4(h2)
    v1 = (h1[:, 0] << 16) | (h1[:, 1] << 8) | h1[:, 2]
    v2 = (h2[:, 0] << 16) | (h2[:, 1] << 8) | h2[:, 2]
    hd = _DISTANCE[(_bits(word, 34, 1) << 2) | (_bits(word, 32, 1) << 1) | (v1 >= v2)][:, None]
    h_paint = np.stack(
        [np.clip(h1 + hd, 0, 255), np.clip(h1 - hd, 0, 255), np.clip(h2 + hd, 0, 255), np.clip(h2 - hd, 0, 255)], 1
    )
    paint = np.where(t_mode[:, None, None], t_paint, h_paint)
    palette = np.where((t_mode | h_mode)[:, None, None, None], paint[:, None], palette)

    # Punch-through: index 2 is transparent black unless opaque (not in planar mode).
    see_through = ~opaque & ~planar
    palette[see_through, :, 2, :] = 0

    # The sub-block of each texel: flip 0 splits columns x < 2 / x >= 2, flip 1 rows.
    second = np.where(flip[:, None], (_YY >= 2).reshape(1, 16), (_XX >= 2).reshape(1, 16))
    second &= ~(t_mode | h_mode)[:, None]
    pick = second.astype(np.intp) * 4 + idx  # (N, 16) into the flattened (2 x 4) palette
    rows = (np.arange(n, dtype=np.intp) * 8)[:, None] + pick
    colour = palette.reshape(n * 8, 3).astype(np.int32)[rows]  # (N, 16, 3)

    # --- planar mode, for the planar blocks only
    if planar.any():
        w = word[planar]
        o = np.stack(
            [
                _ext6(_bits(w, 57, 6)),
                _ext7((_bits(w, 56, 1) << 6) | _bits(w, 49, 6)),
                _ext6((_bits(w, 48, 1) << 5) | (_bits(w, 43, 2) << 3) | _bits(w, 39, 3)),
            ],
            -1,
        )
        hh = np.stack(
            [_ext6((_bits(w, 34, 5) << 1) | _bits(w, 32, 1)), _ext7(_bits(w, 25, 7)), _ext6(_bits(w, 19, 6))], -1
        )
        vv = np.stack([_ext6(_bits(w, 13, 6)), _ext7(_bits(w, 6, 7)), _ext6(_bits(w, 0, 6))], -1)
        xs, ys = _XX.reshape(1, 16, 1), _YY.reshape(1, 16, 1)
        o_, h_, v_ = o[:, None, :], hh[:, None, :], vv[:, None, :]
        colour[planar] = np.clip((xs * (h_ - o_) + ys * (v_ - o_) + 4 * o_ + 2) >> 2, 0, 255)

    transparent = see_through[:, None] & (idx == 2)
    return colour.reshape(n, 4, 4, 3), transparent.reshape(n, 4, 4)


def _rgba8(colour: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    return np.concatenate([colour, alpha[..., None]], axis=-1).astype(np.uint8)


def decode_etc2_rgb8(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGB8_ETC2 (and ETC1_RGB8) -> (N, 4, 4, 4) uint8 RGBA (alpha 255)."""
    colour, _ = _rgb(_word(blocks, 0), False)
    return _rgba8(colour, np.full(colour.shape[:3], 255))


def decode_etc2_rgb8a1(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2 -> (N, 4, 4, 4) uint8 RGBA."""
    colour, transparent = _rgb(_word(blocks, 0), True)
    return _rgba8(colour, np.where(transparent, 0, 255))


def _eac(blocks: np.ndarray, offset: int) -> tuple:
    """(base, multiplier, modifier per pixel (N, 4, 4)) of the EAC block at ``offset``."""
    word = _word(blocks, offset)
    base = _bits(word, 56, 8)
    mult = _bits(word, 52, 4)
    table = _bits(word, 48, 4)
    idx = ((word[:, None, None] >> (np.uint64(45) - np.uint64(3) * _P)) & np.uint64(7)).astype(np.int64)
    return base, mult, _EAC_MOD[table[:, None, None], idx]


def decode_etc2_rgba8(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RGBA8_ETC2_EAC (EAC alpha block, then ETC2 RGB) -> (N, 4, 4, 4) uint8."""
    base, mult, mod = _eac(blocks, 0)
    alpha = np.clip(base[:, None, None] + mod * mult[:, None, None], 0, 255)
    colour, _ = _rgb(_word(blocks, 8), False)
    return _rgba8(colour, alpha)


def _r11_unsigned(blocks: np.ndarray, offset: int) -> np.ndarray:
    base, mult, mod = _eac(blocks, offset)
    step = np.where(mult == 0, 1, mult * 8)[:, None, None]
    v = np.clip(base[:, None, None] * 8 + 4 + mod * step, 0, 2047)
    return ((v << 5) | (v >> 6)).astype(np.uint16)


def _r11_signed(blocks: np.ndarray, offset: int) -> np.ndarray:
    base, mult, mod = _eac(blocks, offset)
    base = np.where(base >= 128, base - 256, base)
    base = np.maximum(base, -127)
    step = np.where(mult == 0, 1, mult * 8)[:, None, None]
    v = np.clip(base[:, None, None] * 8 + mod * step, -1023, 1023)
    m = np.abs(v)
    return (np.sign(v) * ((m << 5) | (m >> 5))).astype(np.int16)


def decode_eac_r11_unorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_R11_EAC -> (N, 4, 4, 1) uint16 (R16)."""
    return _r11_unsigned(blocks, 0)[..., None]


def decode_eac_r11_snorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_SIGNED_R11_EAC -> (N, 4, 4, 1) int16 (R16_SNORM)."""
    return _r11_signed(blocks, 0)[..., None]


def decode_eac_rg11_unorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_RG11_EAC (red block, then green) -> (N, 4, 4, 2) uint16 (RG16)."""
    return np.stack([_r11_unsigned(blocks, 0), _r11_unsigned(blocks, 8)], axis=-1)


def decode_eac_rg11_snorm(blocks: np.ndarray) -> np.ndarray:
    """COMPRESSED_SIGNED_RG11_EAC -> (N, 4, 4, 2) int16 (RG16_SNORM)."""
    return np.stack([_r11_signed(blocks, 0), _r11_signed(blocks, 8)], axis=-1)


__all__ = [
    "decode_eac_r11_snorm",
    "decode_eac_r11_unorm",
    "decode_eac_rg11_snorm",
    "decode_eac_rg11_unorm",
    "decode_etc2_rgb8",
    "decode_etc2_rgb8a1",
    "decode_etc2_rgba8",
]
