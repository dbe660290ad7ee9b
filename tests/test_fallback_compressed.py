"""fallback.compressed decoders against blocks built by hand from the format
specifications (EXT_texture_compression_s3tc, ARB_texture_compression_rgtc,
OpenGL 4.5 appendix C for ETC2 / EAC).

Each test assembles a block field by field as the spec lays it out and
writes the expected texels from the spec's formulas (exact rationals where
the spec gives them).  Where the spec leaves the interpolation precision to
the implementation (S3TC thirds / halves, RGTC sevenths / fifths), the
decoder's fixed-point weights must stay within 1.6 8-bit steps of the exact
value (1.34 for the S3TC thirds; the bound of the weights, checked over every
endpoint pair in test_fixed_point_bounds), and be exact at the endpoints and
constants; the bit-exact agreement with the host's decoder is
tests/context/test_compressed_textures.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from fallback.compressed import (
    DECODERS,
    Shadow,
    bptc,
    decode_blocks,
    decoder_for,
    etc2,
    s3tc,
)
from glpipe import Format
from lowering.errors import InvalidArgumentError, UnsupportedError

# ---------------------------------------------------------------------------
# S3TC
# ---------------------------------------------------------------------------

WHITE, BLACK, RED, BLUE = 0xFFFF, 0x0000, 0xF800, 0x001F


def dxt_colour(c0: int, c1: int, codes) -> bytes:
    """A DXT colour block: color0, color1 (little-endian RGB565), then the
    2-bit code of texel (i, j) at bits 2 * (4 * j + i); ``codes[j][i]``."""
    word = 0
    for j in range(4):
        for i in range(4):
            word |= codes[j][i] << (2 * (4 * j + i))
    return c0.to_bytes(2, "little") + c1.to_bytes(2, "little") + word.to_bytes(4, "little")


def one(decoder, block: bytes) -> np.ndarray:
    return decoder(np.frombuffer(block, np.uint8).reshape(1, -1))[0].astype(np.int64)


def near(got, exact, what, steps=1.6):
    """Within ``steps`` 8-bit steps of the spec's exact value."""
    assert np.all(np.abs(np.asarray(got, np.float64) - np.asarray(exact, np.float64)) <= steps), (what, got, exact)


COLUMN_CODES = [[0, 1, 2, 3]] * 4  # texel (i, j) has code i


def test_dxt1_four_colour_mode():
    # color0 > color1: codes 2, 3 are (2 c0 + c1) / 3 and (c0 + 2 c1) / 3.
    t = one(s3tc.decode_dxt1_rgba, dxt_colour(WHITE, BLACK, COLUMN_CODES))
    assert (t[:, 0] == [255, 255, 255, 255]).all() and (t[:, 1] == [0, 0, 0, 255]).all()
    assert (t[:, 2] == [170, 170, 170, 255]).all()  # 2/3 * 255 = 170 exactly
    assert (t[:, 3] == [85, 85, 85, 255]).all()
    # Red over blue: each channel interpolates its own endpoints.
    t = one(s3tc.decode_dxt1_rgb, dxt_colour(RED, BLUE, COLUMN_CODES))
    assert (t[0, 0] == [255, 0, 0, 255]).all() and (t[0, 1] == [0, 0, 255, 255]).all()
    near(t[0, 2, :3], [2 * 255 / 3, 0, 255 / 3], "dxt1 code 2")
    near(t[0, 3, :3], [255 / 3, 0, 2 * 255 / 3], "dxt1 code 3")


def test_dxt1_three_colour_mode_and_transparent_black():
    # color0 <= color1: code 2 is (c0 + c1) / 2, code 3 black -- opaque for
    # COMPRESSED_RGB_S3TC_DXT1, transparent (alpha 0) for the RGBA variant.
    block = dxt_colour(BLACK, RED, COLUMN_CODES)
    rgba = one(s3tc.decode_dxt1_rgba, block)
    rgb = one(s3tc.decode_dxt1_rgb, block)
    assert (rgba[:, 0] == [0, 0, 0, 255]).all() and (rgba[:, 1] == [255, 0, 0, 255]).all()
    near(rgba[0, 2, :3], [127.5, 0, 0], "dxt1 half")
    assert rgba[0, 2, 3] == 255
    assert (rgba[:, 3] == [0, 0, 0, 0]).all()
    assert (rgb[:, 3] == [0, 0, 0, 255]).all()
    # Equal endpoints are the three-colour mode too.
    assert (one(s3tc.decode_dxt1_rgba, dxt_colour(RED, RED, [[3] * 4] * 4)) == [0, 0, 0, 0]).all()


def test_dxt1_texel_order_and_565_expansion():
    # Only texel (i=1, j=2) has code 1; 565 endpoints widen by bit replication:
    # 0b10000 -> 0b10000100 = 132, green 0b100000 -> 0b10000010 = 130.
    codes = [[0] * 4 for _ in range(4)]
    codes[2][1] = 1
    c1 = (0b10000 << 11) | (0b100000 << 5) | 0b10000
    t = one(s3tc.decode_dxt1_rgb, dxt_colour(WHITE, c1, codes))
    expected = np.full((4, 4, 4), 255)
    expected[2, 1] = [132, 130, 132, 255]
    assert (t == expected).all()


def test_dxt3_explicit_alpha():
    # Texel k = 4 j + i has 4-bit alpha k, widened to 8 bits: k * 17.
    alpha = sum(k << (4 * k) for k in range(16)).to_bytes(8, "little")
    t = one(s3tc.decode_dxt3, alpha + dxt_colour(WHITE, BLACK, [[0] * 4] * 4))
    assert (t[..., 3] == (np.arange(16) * 17).reshape(4, 4)).all()
    assert (t[..., :3] == 255).all()
    # DXT3's colour block is always four-colour: code 3 with c0 <= c1 is not black.
    t = one(s3tc.decode_dxt3, alpha + dxt_colour(BLACK, WHITE, [[3] * 4] * 4))
    near(t[0, 0, :3], [170, 170, 170], "dxt3 four-colour")


def dxt5_alpha(a0: int, a1: int, codes) -> bytes:
    """A DXT5 / RGTC channel block: two endpoint bytes, then 3-bit codes,
    texel (i, j) at bits 3 * (4 * j + i); ``codes`` flat by 4 j + i."""
    word = sum(c << (3 * k) for k, c in enumerate(codes))
    return bytes([a0 & 0xFF, a1 & 0xFF]) + word.to_bytes(6, "little")


def test_dxt5_alpha_eight_and_six_value_modes():
    codes = [k % 8 for k in range(16)]
    colour = dxt_colour(WHITE, BLACK, [[0] * 4] * 4)
    # alpha0 > alpha1: codes 2..7 are ((8 - c) a0 + (c - 1) a1) / 7.
    t = one(s3tc.decode_dxt5, dxt5_alpha(255, 0, codes) + colour)[..., 3].reshape(-1)
    exact = [255, 0] + [(8 - c) * 255 / 7 for c in range(2, 8)]
    near(t, [exact[c] for c in codes], "dxt5 7-step")
    assert t[0] == 255 and t[1] == 0
    # alpha0 <= alpha1: codes 2..5 are ((6 - c) a0 + (c - 1) a1) / 5; 6 -> 0, 7 -> 255.
    t = one(s3tc.decode_dxt5, dxt5_alpha(0, 255, codes) + colour)[..., 3].reshape(-1)
    expected = [0, 255, 51, 102, 153, 204, 0, 255]  # (c - 1) * 255 / 5
    near(t, [expected[c] for c in codes], "dxt5 5-step")
    assert t[0] == 0 and t[1] == 255 and t[6] == 0 and t[7] == 255


# ---------------------------------------------------------------------------
# RGTC
# ---------------------------------------------------------------------------


def test_fixed_point_bounds():
    """Every endpoint pair and code: the 8-bit channel decoder against the
    spec's exact sevenths / fifths (unsigned and signed), the colour decoder
    against exact thirds and halves."""
    for signed in (False, True):
        r = np.arange(-127, 128) if signed else np.arange(256)
        e0, e1 = (g.reshape(-1) for g in np.meshgrid(r, r, indexing="ij"))
        for c in range(8):
            blocks = np.zeros((e0.size, 8), np.uint8)
            blocks[:, 0], blocks[:, 1] = e0.astype(np.int64) & 0xFF, e1.astype(np.int64) & 0xFF
            word = sum(c << (3 * k) for k in range(16))
            blocks[:, 2:8] = np.frombuffer(word.to_bytes(6, "little"), np.uint8)
            got = s3tc.channel8(blocks, signed)[:, 0, 0]
            seven = e0 > e1
            lo, hi = (-127, 127) if signed else (0, 255)
            exact = np.where(seven, ((8 - c) * e0 + (c - 1) * e1) / 7, ((6 - c) * e0 + (c - 1) * e1) / 5)
            exact = np.where(c == 0, e0, np.where(c == 1, e1, exact))
            exact = np.where(~seven & (c == 6), lo, np.where(~seven & (c == 7), hi, exact))
            err = np.abs(got - exact)
            assert err.max() <= 1.6 + 1e-9, (signed, c, err.max())
            if c in (0, 1):
                assert err.max() == 0
    v = np.arange(0, 1 << 16, 7, dtype=np.int64)  # a spread of RGB565 endpoint pairs
    c0, c1 = s3tc.expand_565(v[:, None]), s3tc.expand_565(v[::-1, None])
    words = np.stack([v, v[::-1]], 1)
    blocks = np.zeros((v.size, 8), np.uint8)
    blocks[:, 0:4] = words.astype("<u2").view(np.uint8).reshape(-1, 4)
    for code in (2, 3):
        blocks[:, 4:8] = np.frombuffer(sum(code << (2 * k) for k in range(16)).to_bytes(4, "little"), np.uint8)
        got = s3tc.decode_dxt3(np.concatenate([np.zeros((v.size, 8), np.uint8), blocks], 1))[:, 0, 0, :3]
        a, b = c0[:, 0], c1[:, 0]
        exact = (2 * a + b) / 3 if code == 2 else (a + 2 * b) / 3
        assert np.abs(got - exact).max() <= 4 / 3 + 1e-9, code


def test_rgtc1_unsigned():
    codes = [k % 8 for k in range(16)]
    t = one(s3tc.decode_rgtc1_unorm, dxt5_alpha(200, 60, codes))[..., 0].reshape(-1)
    exact = [200, 60] + [((8 - c) * 200 + (c - 1) * 60) / 7 for c in range(2, 8)]
    near(t, [exact[c] for c in codes], "rgtc1 unorm")
    assert t[0] == 200 and t[1] == 60


def test_rgtc1_signed_both_modes():
    codes = [k % 8 for k in range(16)]
    # red0 = 127 > red1 = -127: code c is (9 - 2c) / 7 of 127.
    t = one(s3tc.decode_rgtc1_snorm, dxt5_alpha(127, -127, codes))[..., 0].reshape(-1)
    exact = [127, -127] + [127 * (9 - 2 * c) / 7 for c in range(2, 8)]
    near(t, [exact[c] for c in codes], "rgtc1 snorm")
    assert t[0] == 127 and t[1] == -127
    # red0 <= red1: code 6 is -1.0 (-127), code 7 is +1.0 (127).
    t = one(s3tc.decode_rgtc1_snorm, dxt5_alpha(-100, 100, codes))[..., 0].reshape(-1)
    exact = [-100, 100] + [((6 - c) * -100 + (c - 1) * 100) / 5 for c in range(2, 6)] + [-127, 127]
    near(t, [exact[c] for c in codes], "rgtc1 snorm 6-step")
    assert t[6] == -127 and t[7] == 127


def test_rgtc2_red_then_green():
    red = dxt5_alpha(255, 0, [0] * 16)
    green = dxt5_alpha(0, 255, [7] * 16)
    t = one(s3tc.decode_rgtc2_unorm, red + green)
    assert (t[..., 0] == 255).all() and (t[..., 1] == 255).all()
    t = one(s3tc.decode_rgtc2_snorm, dxt5_alpha(-127, 127, [6] * 16) + dxt5_alpha(5, -5, [1] * 16))
    assert (t[..., 0] == -127).all() and (t[..., 1] == -5).all()


# ---------------------------------------------------------------------------
# ETC2 / EAC
# ---------------------------------------------------------------------------


def etc_block(fields, indices=None) -> bytes:
    """A big-endian 64-bit ETC2 block from {low bit: (width, value)} fields
    and per-pixel 2-bit indices ``indices[y][x]`` (msb at bit 16 + p, lsb
    at bit p, p = 4 x + y)."""
    word = 0
    for lo, (width, value) in fields.items():
        assert 0 <= value < (1 << width)
        word |= value << lo
    if indices is not None:
        for y in range(4):
            for x in range(4):
                p = 4 * x + y
                word |= ((indices[y][x] >> 1) << (16 + p)) | ((indices[y][x] & 1) << p)
    return word.to_bytes(8, "big")


def ext4(v):
    return v * 17


def ext5(v):
    return (v << 3) | (v >> 2)


def ext6(v):
    return (v << 2) | (v >> 4)


def ext7(v):
    return (v << 1) | (v >> 6)


ETC_TABLES = [(2, 8), (5, 17), (9, 29), (13, 42), (18, 60), (24, 80), (33, 106), (47, 183)]


def etc_modifier(table, index):
    a, b = ETC_TABLES[table]
    return (a, b, -a, -b)[index]


def test_etc_individual_mode():
    # R1 15, R2 0, G1 0, G2 15, B1 B2 8; tables 0 and 7; flip 0 (left / right halves).
    idx = [[(x + y) % 4 for x in range(4)] for y in range(4)]
    block = etc_block(
        {
            60: (4, 15),
            56: (4, 0),
            52: (4, 0),
            48: (4, 15),
            44: (4, 8),
            40: (4, 8),
            37: (3, 0),
            34: (3, 7),
            33: (1, 0),
            32: (1, 0),
        },
        idx,
    )
    t = one(etc2.decode_etc2_rgb8, block)
    for y in range(4):
        for x in range(4):
            base, table = ((255, 0, 136), 0) if x < 2 else ((0, 255, 136), 7)
            m = etc_modifier(table, idx[y][x])
            assert list(t[y, x]) == [min(255, max(0, c + m)) for c in base] + [255], (x, y)


def test_etc_differential_mode_flipped():
    # R 16 + 3, G 0 + 0, B 31 - 1: no overflow; flip 1 (top / bottom halves), index 1 (+b).
    block = etc_block(
        {
            59: (5, 16),
            56: (3, 3),
            51: (5, 0),
            48: (3, 0),
            43: (5, 31),
            40: (3, 7),
            37: (3, 1),
            34: (3, 2),
            33: (1, 1),
            32: (1, 1),
        },
        [[1] * 4] * 4,
    )
    t = one(etc2.decode_etc2_rgb8, block)
    top = [min(255, c + 17) for c in (ext5(16), ext5(0), ext5(31))]
    bottom = [min(255, c + 29) for c in (ext5(19), ext5(0), ext5(30))]
    assert (t[:2, :, :3] == top).all() and (t[2:, :, :3] == bottom).all()


def test_etc2_t_mode():
    # R (bits 63..59) = 0b00010, dR = 0b101 (-3): R + dR < 0 -> T mode.
    # C1 = (R1a 2, R1b 1) = 9, G1 15, B1 0; C2 = 4, 8, 12; distance index 0b111 -> 64.
    block = etc_block(
        {
            59: (2, 2),
            58: (1, 1),
            56: (2, 1),
            52: (4, 15),
            48: (4, 0),
            44: (4, 4),
            40: (4, 8),
            36: (4, 12),
            34: (2, 3),
            33: (1, 1),
            32: (1, 1),
        },
        [[y] * 4 for y in range(4)],
    )
    t = one(etc2.decode_etc2_rgb8, block)
    c1, c2, d = np.array([ext4(9), 255, 0]), np.array([ext4(4), ext4(8), ext4(12)]), 64
    paint = [c1, np.clip(c2 + d, 0, 255), c2, np.clip(c2 - d, 0, 255)]
    for y in range(4):
        assert (t[y, :, :3] == paint[y]).all(), y


def test_etc2_h_mode():
    # R = 0b01000 (R1 8), dR = G1a 0b010: no overflow; G field 0, dG 0b100 (-4): H mode.
    # C1 = (8, G1a 2 << 1 | G1b 0 = 4, B1a 0 << 3 | B1b 1 = 1), C2 = (2, 15, 0);
    # C1 >= C2, so the distance index is (bit34 0, bit32 1, 1) = 3 -> 16.
    block = etc_block(
        {
            59: (4, 8),
            56: (3, 2),
            52: (1, 0),
            51: (1, 0),
            50: (1, 1),
            47: (3, 1),
            43: (4, 2),
            39: (4, 15),
            35: (4, 0),
            34: (1, 0),
            33: (1, 1),
            32: (1, 1),
        },
        [[y] * 4 for y in range(4)],
    )
    t = one(etc2.decode_etc2_rgb8, block)
    c1, c2, d = np.array([ext4(8), ext4(4), ext4(1)]), np.array([ext4(2), 255, 0]), 16
    paint = [np.clip(c1 + d, 0, 255), np.clip(c1 - d, 0, 255), np.clip(c2 + d, 0, 255), np.clip(c2 - d, 0, 255)]
    for y in range(4):
        assert (t[y, :, :3] == paint[y]).all(), y


def test_etc2_planar_mode():
    # R, G fields and deltas 0; B field 0b11111 with dB 0b010: B overflows -> planar.
    # O = (0, 0, BO 0b011100 = 28), H = (63, 0, 0), V = (0, 127, 0).
    block = etc_block({45: (3, 7), 43: (2, 3), 39: (3, 4), 34: (5, 31), 33: (1, 1), 32: (1, 1), 6: (7, 127)})
    t = one(etc2.decode_etc2_rgb8, block)
    o, h, v = np.array([0, 0, ext6(28)]), np.array([255, 0, 0]), np.array([0, 255, 0])
    for y in range(4):
        for x in range(4):
            exp = np.clip((x * (h - o) + y * (v - o) + 4 * o + 2) >> 2, 0, 255)
            assert (t[y, x, :3] == exp).all(), (x, y)
    assert ext7(127) == 255


def test_etc2_punchthrough_alpha():
    # Differential mode, opaque bit 0: index 2 is transparent black, 0 adds
    # nothing, 1 / 3 add +b / -b.
    idx = [list(range(4)) for _ in range(4)]
    fields = {
        59: (5, 16),
        56: (3, 0),
        51: (5, 16),
        48: (3, 0),
        43: (5, 16),
        40: (3, 0),
        37: (3, 0),
        34: (3, 0),
        33: (1, 0),
        32: (1, 0),
    }
    t = one(etc2.decode_etc2_rgb8a1, etc_block(fields, idx))
    base = ext5(16)
    assert (t[:, 0] == [base, base, base, 255]).all()
    assert (t[:, 1] == [base + 8] * 3 + [255]).all()
    assert (t[:, 2] == [0, 0, 0, 0]).all()
    assert (t[:, 3] == [base - 8] * 3 + [255]).all()
    # Opaque bit 1: the ordinary modifiers, everything opaque.
    fields[33] = (1, 1)
    t = one(etc2.decode_etc2_rgb8a1, etc_block(fields, idx))
    assert (t[:, 2] == [base - 2] * 3 + [255]).all() and (t[:, 0, :3] == base + 2).all()


EAC_TABLE_13 = [-1, -2, -3, -10, 0, 1, 2, 9]


def eac_block(base: int, mult: int, table: int, indices) -> bytes:
    """An EAC block: base (8), multiplier (4), table (4), then 3-bit indices,
    pixel p = 4 x + y at bits 45 - 3 p; ``indices[y][x]``."""
    word = (base << 56) | (mult << 52) | (table << 48)
    for y in range(4):
        for x in range(4):
            word |= indices[y][x] << (45 - 3 * (4 * x + y))
    return word.to_bytes(8, "big")


def test_eac_alpha_of_etc2_rgba8():
    idx = [[(4 * x + y) % 8 for x in range(4)] for y in range(4)]
    colour = etc_block({59: (5, 0), 51: (5, 0), 43: (5, 0), 33: (1, 1)}, [[0] * 4] * 4)
    t = one(etc2.decode_etc2_rgba8, eac_block(200, 3, 13, idx) + colour)
    for y in range(4):
        for x in range(4):
            assert t[y, x, 3] == min(255, max(0, 200 + 3 * EAC_TABLE_13[idx[y][x]])), (x, y)


def test_eac_r11_unsigned_and_signed():
    idx = [[(4 * x + y) % 8 for x in range(4)] for y in range(4)]
    # unsigned: clamp(base * 8 + 4 + modifier * multiplier * 8, 0, 2047); the
    # 11-bit value is widened to 16 bits by replication, so v16 >> 5 == v11.
    t = one(etc2.decode_eac_r11_unorm, eac_block(100, 2, 13, idx))[..., 0]
    for y in range(4):
        for x in range(4):
            v11 = min(2047, max(0, 100 * 8 + 4 + EAC_TABLE_13[idx[y][x]] * 2 * 8))
            assert t[y, x] == (v11 << 5) | (v11 >> 6), (x, y)
    # multiplier 0: the modifier is added unscaled; clamps at 2047 -> 1.0.
    t = one(etc2.decode_eac_r11_unorm, eac_block(255, 0, 13, idx))[..., 0]
    assert t[idx[0].index(7) if 7 in idx[0] else 0, 0] >= 0
    for y in range(4):
        for x in range(4):
            v11 = min(2047, 255 * 8 + 4 + EAC_TABLE_13[idx[y][x]])
            assert t[y, x] == (v11 << 5) | (v11 >> 6)
    # signed: base -128 reads as -127; clamp to -1023 (-> -32767, i.e. -1.0).
    t = one(etc2.decode_eac_r11_snorm, eac_block(0x80, 1, 13, [[3] * 4] * 4))[..., 0]
    assert (t == -32767).all()
    t = one(etc2.decode_eac_r11_snorm, eac_block(50, 1, 13, idx))[..., 0]
    for y in range(4):
        for x in range(4):
            v = 50 * 8 + EAC_TABLE_13[idx[y][x]] * 8
            m = abs(v)
            assert t[y, x] == np.sign(v) * ((m << 5) | (m >> 5)), (x, y)
    rg = one(etc2.decode_eac_rg11_snorm, eac_block(0x80, 1, 13, [[3] * 4] * 4) + eac_block(127, 1, 13, [[7] * 4] * 4))
    assert (rg[..., 0] == -32767).all() and (rg[..., 1] == 32767).all()


# ---------------------------------------------------------------------------
# The table, images, the shadow copy
# ---------------------------------------------------------------------------


def test_every_decoder_is_vectorised_and_typed():
    rng = np.random.default_rng(0)
    for fmt, dec in DECODERS.items():
        from glpipe.formats import format_desc

        desc, via = format_desc(fmt), format_desc(dec.via)
        blocks = rng.integers(0, 256, (50, desc.blocksize), dtype=np.uint8)
        out = dec.decode(blocks)
        assert out.shape[:3] == (50, 4, 4), fmt.name
        assert out.shape[3] * out.itemsize == via.blocksize, fmt.name
        # one call on 50 blocks == 50 calls on one block
        singles = np.concatenate([dec.decode(blocks[i : i + 1]) for i in range(50)])
        assert np.array_equal(out, singles), fmt.name


def test_decode_blocks_tiles_and_crops():
    # 2x2 blocks covering 5x5 texels: block (bx, by) is solid colour; the
    # image's texel (x, y) comes from block (x // 4, y // 4).
    colours = [RED, BLUE, WHITE, BLACK]
    blocks = np.frombuffer(b"".join(dxt_colour(c, c, [[0] * 4] * 4) for c in colours), np.uint8)
    img = decode_blocks(Format.DXT1_RGB, blocks.reshape(1, 2, 16), 5, 5).reshape(5, 5, 4)
    rgb = {RED: [255, 0, 0], BLUE: [0, 0, 255], WHITE: [255, 255, 255], BLACK: [0, 0, 0]}
    for y in range(5):
        for x in range(5):
            assert list(img[y, x, :3]) == rgb[colours[(y // 4) * 2 + x // 4]], (x, y)


def test_bad_input():
    with pytest.raises(UnsupportedError):
        decoder_for(Format.ASTC_4x4)
    with pytest.raises(InvalidArgumentError):
        decode_blocks(Format.DXT1_RGB, np.zeros((1, 1, 8), np.uint8), 5, 4)
    with pytest.raises(InvalidArgumentError):
        decode_blocks(Format.DXT1_RGB, np.zeros((8,), np.uint8), 4, 4)


def test_shadow_keeps_written_bytes():
    sh = Shadow(Format.DXT5_RGBA, [(8, 8, 2), (4, 4, 2)])
    assert sh.nbytes == 2 * 4 * 16 + 2 * 16
    data = np.arange(16, dtype=np.uint8).reshape(1, 1, 16)
    sh.store(0, 1, 1, 0, data)
    assert sh.covers(0, 1, 1, 0, 1, 1, 1) and not sh.covers(0, 1, 0, 0, 1, 2, 1)
    assert np.array_equal(sh.load(0, 1, 1, 0, 1, 1, 1), data)
    assert not sh.load(0, 0, 0, 0, 2, 2, 2)[0].any()  # never written: zero bytes


# ---------------------------------------------------------------------------
# BPTC (ARB_texture_compression_bptc)
# ---------------------------------------------------------------------------

BC7_WEIGHTS = {
    2: [0, 21, 43, 64],
    3: [0, 9, 18, 27, 37, 46, 55, 64],
    4: [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64],
}


class Bits:
    """A 128-bit block written field by field from bit 0 (LSB first)."""

    def __init__(self):
        self.value, self.pos = 0, 0

    def put(self, value: int, width: int) -> Bits:
        assert 0 <= value < (1 << width), (value, width)
        self.value |= value << self.pos
        self.pos += width
        return self

    def block(self) -> bytes:
        assert self.pos <= 128
        return self.value.to_bytes(16, "little")


def lerp(e0, e1, w):
    return ((64 - w) * e0 + w * e1 + 32) >> 6


def test_bc7_mode6_one_subset_pbits_4bit_indices():
    b = Bits().put(1 << 6, 7)  # mode 6
    ends = {"R": (0, 127), "G": (127, 0), "B": (64, 64), "A": (127, 100)}
    for ch in "RGBA":
        b.put(ends[ch][0], 7).put(ends[ch][1], 7)
    b.put(0, 1).put(1, 1)  # P-bits of endpoint 0 and 1
    for k in range(16):
        b.put(k % 8 if k == 0 else k, 3 if k == 0 else 4)  # texel 0 is the anchor (3 bits)
    t = one(bptc.decode_bc7, b.block()).reshape(16, 4)
    # Endpoints: (v << 1) | p, already 8 bits.
    e0 = [v[0] << 1 for v in ends.values()]
    e1 = [(v[1] << 1) | 1 for v in ends.values()]
    for k in range(16):
        w = BC7_WEIGHTS[4][k]
        assert list(t[k]) == [lerp(a, c, w) for a, c in zip(e0, e1, strict=True)], k


def test_bc7_mode1_two_subsets_shared_pbits():
    # Partition 13 of Table.P2: rows 0-1 subset 0, rows 2-3 subset 1; the
    # second subset's anchor (Table.A2[13]) is texel 15.
    b = Bits().put(1 << 1, 2).put(13, 6)
    ends = {"R": (10, 20, 63, 0), "G": (0, 63, 5, 6), "B": (33, 33, 1, 62)}  # s0e0 s0e1 s1e0 s1e1
    for ch in "RGB":
        for v in ends[ch]:
            b.put(v, 6)
    b.put(1, 1).put(0, 1)  # shared P-bit of subset 0, of subset 1
    idx = [k % 8 for k in range(16)]
    idx[0], idx[15] = 3, 2  # anchors: 2 bits
    for k in range(16):
        b.put(idx[k], 2 if k in (0, 15) else 3)
    t = one(bptc.decode_bc7, b.block()).reshape(16, 4)

    def widen(v6, p):
        v7 = (v6 << 1) | p
        return (v7 << 1) | (v7 >> 6)

    for k in range(16):
        s = 0 if k < 8 else 1
        p = 1 if s == 0 else 0
        exp = [lerp(widen(ends[ch][2 * s], p), widen(ends[ch][2 * s + 1], p), BC7_WEIGHTS[3][idx[k]]) for ch in "RGB"]
        assert list(t[k]) == exp + [255], k


def test_bc7_mode4_rotation_and_index_selection():
    # Mode 4: rotation 1 (swap A and R), index selection 1 (colour takes the
    # 3-bit secondary index, alpha the 2-bit primary one).
    b = Bits().put(1 << 4, 5).put(1, 2).put(1, 1)
    ends = {"R": (0, 31), "G": (31, 0), "B": (16, 16)}
    for ch in "RGB":
        b.put(ends[ch][0], 5).put(ends[ch][1], 5)
    b.put(0, 6).put(63, 6)  # alpha endpoints
    primary = [k % 4 for k in range(16)]
    primary[0] = 1
    secondary = [7 - k % 8 for k in range(16)]
    secondary[0] = 3
    for k in range(16):
        b.put(primary[k], 1 if k == 0 else 2)
    for k in range(16):
        b.put(secondary[k], 2 if k == 0 else 3)
    t = one(bptc.decode_bc7, b.block()).reshape(16, 4)

    def w5(v):
        return (v << 3) | (v >> 2)

    for k in range(16):
        rgb = [lerp(w5(ends[ch][0]), w5(ends[ch][1]), BC7_WEIGHTS[3][secondary[k]]) for ch in "RGB"]
        a = lerp(0, 255, BC7_WEIGHTS[2][primary[k]])
        assert list(t[k]) == [a, rgb[1], rgb[2], rgb[0]], k  # rotation 1: swap(a, r)


def test_bc7_reserved_mode_is_transparent_black():
    assert not one(bptc.decode_bc7, bytes(16)).any()


def bc6h_mode3(r0, g0, b0, r1, g1, b1, indices):
    """Mode 3 (0b00011, 10-bit endpoints, not transformed, one subset)."""
    b = Bits().put(3, 5)
    for v in (r0, g0, b0, r1, g1, b1):
        b.put(v & 0x3FF, 10)
    for k in range(16):
        b.put(indices[k], 3 if k == 0 else 4)
    return b.block()


def half_bits(v):
    return np.float16(v).view(np.uint16)


def test_bc6h_unsigned_mode3():
    idx = [0] + list(range(1, 16))
    t = one(bptc.decode_bc6h_unsigned, bc6h_mode3(0, 512, 1023, 1023, 0, 1, idx)).reshape(16, 4)

    def unq(x):  # the spec's unsigned unquantization, EPB 10
        return 0 if x == 0 else 0xFFFF if x == 1023 else ((x << 15) + 0x4000) >> 9

    for k in range(16):
        w = BC7_WEIGHTS[4][idx[k]]
        exp = [(lerp(unq(a), unq(c), w) * 31) >> 6 for a, c in ((0, 1023), (512, 0), (1023, 1))]
        assert list(t[k, :3]) == exp, k
        assert t[k, 3] == half_bits(1.0)
    assert t[15, 0] == half_bits(65504.0)  # e1 = max: the largest finite half


def test_bc6h_signed_mode3_and_reserved():
    idx = [0] * 16
    idx[5] = 15
    # r0 = -511 (10-bit two's complement) unquantizes to -0x7FFF; g0 = 100.
    t = one(bptc.decode_bc6h_signed, bc6h_mode3(-511, 100, 0, 0, -100, 0, idx)).reshape(16, 4)
    g = ((100 << 15) + 0x4000) >> 9
    assert t[0, 0] == (((0x7FFF * 31) >> 5) | 0x8000)
    assert np.array([t[0, 0]], np.uint16).view(np.float16)[0] == -65504
    assert t[0, 1] == (g * 31) >> 5 and t[5, 1] == (((g * 31) >> 5) | 0x8000)
    assert t[0, 2] == 0
    # Mode 19 is reserved: (0, 0, 0, 1).
    block = Bits().put(19, 5).block()
    t = one(bptc.decode_bc6h_signed, block)
    assert (t[..., :3] == 0).all() and (t[..., 3] == half_bits(1.0)).all()


def test_bc6h_transformed_endpoints_wrap():
    # Mode 7 (0b00111): r0 11 bits, deltas 9 bits; r1 = (r0 + d) & 0x7FF.
    # r0 = 2047 and d = +1 wrap to 0 (unsigned): texel 0 (index 0) is e0 =
    # max -> 0xFFFF, texel 1 (index 15) is e1 = 0.
    b = Bits().put(7, 5).put(0x3FF, 10).put(0, 10).put(0, 10)  # r0[9:0], g0, b0
    b.put(1, 9).put(1, 1)  # r1 (delta +1), r0[10]
    b.put(0, 9).put(0, 1).put(0, 9).put(0, 1)  # g1, g0[10], b1, b0[10]
    for k in range(16):
        b.put(0 if k != 1 else 15, 3 if k == 0 else 4)
    t = one(bptc.decode_bc6h_unsigned, b.block()).reshape(16, 4)
    assert t[0, 0] == (0xFFFF * 31) >> 6 and t[1, 0] == 0
