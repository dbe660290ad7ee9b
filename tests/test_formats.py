"""The pipe_format table (glpipe.format_table / glpipe.formats), checked
against facts written down here independently: Mesa's enum values counted
from u_formats.h, the channel layout a format's *name* spells out
(Gallium's naming convention), GL's compressed block sizes, the GL enum
values PyOpenGL ships, and the sampling results the Gallium / GL specs give
for the emulated formats."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from glpipe.enums import Swizzle
from glpipe.errors import InvalidArgumentError
from glpipe.format_table import GL_ENUMS, ChannelType
from glpipe.formats import (
    FORMAT_COUNT,
    FORMAT_TABLE,
    Format,
    format_desc,
    host_storage,
    util_format_compose_swizzles,
    util_format_description,
    util_format_get_2d_size,
    util_format_get_blockdepth,
    util_format_get_blockheight,
    util_format_get_blocksize,
    util_format_get_blocksizebits,
    util_format_get_blockwidth,
    util_format_get_nblocks,
    util_format_get_nblocksx,
    util_format_get_nblocksy,
    util_format_get_nblocksz,
    util_format_get_nr_components,
    util_format_get_num_planes,
    util_format_get_stride,
    util_format_is_compressed,
    util_format_is_depth_and_stencil,
    util_format_is_depth_or_stencil,
    util_format_is_pure_integer,
    util_format_is_pure_sint,
    util_format_is_pure_uint,
    util_format_is_srgb,
    util_format_name,
)
from glpipe.host.features import FEATURES

X, Y, Z, W, ZERO, ONE, NONE = (Swizzle.X, Swizzle.Y, Swizzle.Z, Swizzle.W, Swizzle.ZERO, Swizzle.ONE, Swizzle.NONE)

# ---------------------------------------------------------------------------
# The name convention, as an independent model of a plain format
# ---------------------------------------------------------------------------

_SUFFIX_TYPES = {
    "UNORM": ChannelType.UNORM,
    "SNORM": ChannelType.SNORM,
    "UINT": ChannelType.UINT,
    "SINT": ChannelType.SINT,
    "FLOAT": ChannelType.FLOAT,
    "USCALED": ChannelType.USCALED,
    "SSCALED": ChannelType.SSCALED,
    "FIXED": ChannelType.FIXED,
    "SRGB": ChannelType.UNORM,
}
_NAME_RE = re.compile(r"((?:[RGBAXLI]\d+)+)_(UNORM|SNORM|UINT|SINT|FLOAT|USCALED|SSCALED|FIXED|SRGB)")


def name_layout(name: str):
    """(channels [(type, bits)], swizzle string) that a plain colour format's
    name spells: components listed from bit 0 up, X = padding, L/I/A
    luminance/intensity/alpha replicate as GL's legacy formats did."""
    m = _NAME_RE.fullmatch(name)
    if m is None:
        return None
    comps = re.findall(r"([RGBAXLI])(\d+)", m.group(1))
    kind = _SUFFIX_TYPES[m.group(2)]
    letters = [c for c, _ in comps]
    channels = [(ChannelType.VOID if c == "X" else kind, int(b)) for c, b in comps]
    swz = ""
    for out in "RGBA":
        if out in letters:
            swz += "xyzw"[letters.index(out)]
        elif "L" in letters and out in "RGB":
            swz += "xyzw"[letters.index("L")]
        elif "I" in letters:
            swz += "xyzw"[letters.index("I")]
        else:
            swz += "1" if out == "A" else "0"
    return channels, swz


def _swz_text(swizzle) -> str:
    return "".join("xyzw01_"[int(s)] for s in swizzle)


NAMED_PLAIN = [d for d in FORMAT_TABLE if d.layout == "plain" and d.colorspace != "zs" and name_layout(d.name)]


# ---------------------------------------------------------------------------
# Enum and rows
# ---------------------------------------------------------------------------


def test_every_format_has_exactly_one_row():
    assert len(FORMAT_TABLE) == len(Format) == FORMAT_COUNT
    assert [int(f) for f in Format] == list(range(FORMAT_COUNT))  # contiguous, as the C enum
    for value, desc in enumerate(FORMAT_TABLE):
        assert desc.format == Format(value)
        assert desc.name == Format(value).name
    assert len({d.name for d in FORMAT_TABLE}) == FORMAT_COUNT


def test_enum_values_match_u_formats_h():
    # Counted by hand from enum pipe_format in Mesa's src/util/format/u_formats.h
    # (commit 76095b2c): NONE, then the 64-bit vertex formats, then R32 float...
    expected = {
        "NONE": 0,
        "R64_UINT": 1,
        "R32G32B32A32_FLOAT": 16,
        "R16_UNORM": 33,
        "R8_UNORM": 49,
        "R8G8B8A8_UNORM": 53,
        "B8G8R8A8_UNORM": 54,
        "A8R8G8B8_UNORM": 75,
        "R16G16B16A16_FLOAT": 83,
        "R10G10B10A2_UNORM": 112,
        "B8G8R8X8_UNORM": 125,
        "B5G6R5_UNORM": 132,
        "A8_UNORM": 134,
        "Z24_UNORM_S8_UINT": 146,
        "S8_UINT": 150,
        "R8G8B8A8_SRGB": 163,
        "DXT1_RGB": 164,
    }
    for name, value in expected.items():
        assert int(Format[name]) == value, name
    # The last member precedes PIPE_FORMAT_COUNT.
    assert Format(FORMAT_COUNT - 1) == Format.G16R16_SINT


def test_member_names_are_identifiers_without_prefix():
    for f in Format:
        assert f.name.isidentifier() and not f.name[0].isdigit()
        assert not f.name.startswith("PIPE_FORMAT_")
        assert util_format_name(f) == "PIPE_FORMAT_" + f.name


def test_every_row_loads_consistently():
    for d in FORMAT_TABLE:
        assert d.block_width >= 1 and d.block_height >= 1 and d.block_depth >= 1
        assert len(d.swizzle) == 4 and all(0 <= s <= 6 for s in d.swizzle)
        assert d.nr_channels == len(d.channels)
        shift = 0
        for c in d.channels:  # channels tile the block from bit 0, no gaps
            assert c.shift == shift and c.size > 0
            shift += c.size
        assert d.block_bits == shift
        assert util_format_get_blocksizebits(d.format) == d.block_bits
        assert util_format_get_blocksize(d.format) == max(1, d.block_bits // 8)
        # a plain format's swizzle only points at channels that exist
        # (compressed and YUV swizzles name decoded channels instead)
        if d.is_plain:
            for s in d.swizzle:
                assert s >= 4 or s < len(d.channels), d.name
        assert d.is_compressed == (d.layout in ("s3tc", "rgtc", "etc", "bptc", "astc", "atc", "fxt1"))


def test_plain_layouts_match_their_names():
    # 283 plain colour formats spell their channels in their names; the
    # block size must be the sum of the named component widths.
    assert len(NAMED_PLAIN) > 250
    for d in NAMED_PLAIN:
        channels, swz = name_layout(d.name)
        assert [(c.type, c.size) for c in d.channels] == channels, d.name
        assert _swz_text(d.swizzle) == swz, d.name
        assert d.block_bits == sum(bits for _, bits in channels), d.name
        assert d.is_srgb == d.name.endswith("_SRGB"), d.name


def test_depth_stencil_rows():
    # (bits, depth channel type/bits, stencil?) by hand from the names.
    expected = {
        "Z16_UNORM": (16, True, False),
        "Z32_UNORM": (32, True, False),
        "Z32_FLOAT": (32, True, False),
        "Z24_UNORM_S8_UINT": (32, True, True),
        "S8_UINT_Z24_UNORM": (32, True, True),
        "Z24X8_UNORM": (32, True, False),
        "X8Z24_UNORM": (32, True, False),
        "S8_UINT": (8, False, True),
        "Z32_FLOAT_S8X24_UINT": (64, True, True),
        "Z16_UNORM_S8_UINT": (24, True, True),
    }
    for name, (bits, depth, stencil) in expected.items():
        d = format_desc(Format[name])
        assert (d.block_bits, d.is_depth, d.is_stencil) == (bits, depth, stencil), name
        assert util_format_is_depth_or_stencil(d.format)
        assert util_format_is_depth_and_stencil(d.format) == (depth and stencil)
    # Z24_UNORM_S8_UINT keeps depth in the low 24 bits; S8_UINT_Z24_UNORM in the high.
    assert format_desc(Format.Z24_UNORM_S8_UINT).channels[0].shift == 0
    assert format_desc(Format.S8_UINT_Z24_UNORM).channels[1].shift == 8


def test_compressed_block_sizes():
    # (bits per block, block w, h, d): S3TC/RGTC/BPTC/ETC/ASTC/FXT1 specs.
    expected = {
        "DXT1_RGB": (64, 4, 4, 1),
        "DXT1_RGBA": (64, 4, 4, 1),
        "DXT3_RGBA": (128, 4, 4, 1),
        "DXT5_RGBA": (128, 4, 4, 1),
        "DXT5_SRGBA": (128, 4, 4, 1),
        "RGTC1_UNORM": (64, 4, 4, 1),
        "RGTC2_SNORM": (128, 4, 4, 1),
        "LATC2_UNORM": (128, 4, 4, 1),
        "BPTC_RGBA_UNORM": (128, 4, 4, 1),
        "BPTC_RGB_UFLOAT": (128, 4, 4, 1),
        "ETC1_RGB8": (64, 4, 4, 1),
        "ETC2_RGB8": (64, 4, 4, 1),
        "ETC2_RGBA8": (128, 4, 4, 1),
        "ETC2_R11_UNORM": (64, 4, 4, 1),
        "ETC2_RG11_SNORM": (128, 4, 4, 1),
        "ASTC_4x4": (128, 4, 4, 1),
        "ASTC_8x8": (128, 8, 8, 1),
        "ASTC_12x10_SRGB": (128, 12, 10, 1),
        "ASTC_10x5_FLOAT": (128, 10, 5, 1),
        "ASTC_4x4x4": (128, 4, 4, 4),
        "ASTC_6x5x5_SRGB": (128, 6, 5, 5),
        "FXT1_RGB": (128, 8, 4, 1),
        "ATC_RGB": (64, 4, 4, 1),
        "ATC_RGBA_INTERPOLATED": (128, 4, 4, 1),
    }
    for name, (bits, w, h, depth) in expected.items():
        f = Format[name]
        assert util_format_is_compressed(f), name
        assert (
            util_format_get_blocksizebits(f),
            util_format_get_blockwidth(f),
            util_format_get_blockheight(f),
            util_format_get_blockdepth(f),
        ) == (bits, w, h, depth), name
    assert not util_format_is_compressed(Format.R8G8B8A8_UNORM)
    assert sum(util_format_is_compressed(f) for f in Format) == 8 + 4 + 4 + 4 + 1 + 10 + 14 * 3 + 10 * 2 + 2 + 3


def test_block_arithmetic():
    # 13x7 pixels of ASTC 6x5 is 3x2 blocks of 16 bytes.
    f = Format.ASTC_6x5
    assert (util_format_get_nblocksx(f, 13), util_format_get_nblocksy(f, 7)) == (3, 2)
    assert util_format_get_nblocks(f, 13, 7) == 6
    assert util_format_get_stride(f, 13) == 48
    assert util_format_get_2d_size(f, 48, 7) == 96
    assert util_format_get_nblocksz(Format.ASTC_4x4x4, 9) == 3
    # 5 pixels of RGB8 = 15 bytes; of DXT1 = 2 blocks = 16 bytes.
    assert util_format_get_stride(Format.R8G8B8_UNORM, 5) == 15
    assert util_format_get_stride(Format.DXT1_RGB, 5) == 16
    # Planar formats describe no bits; Mesa's blocksize still says 1 byte.
    assert util_format_get_blocksize(Format.NV12) == 1
    assert util_format_get_num_planes(Format.NV12) == 2
    assert util_format_get_num_planes(Format.IYUV) == 3
    assert util_format_get_num_planes(Format.R8G8B8A8_UNORM) == 1
    assert util_format_get_nr_components(Format.B8G8R8X8_UNORM) == 4


def test_integer_and_srgb_flags():
    assert util_format_is_pure_integer(Format.R8G8B8A8_UINT) and util_format_is_pure_uint(Format.R8G8B8A8_UINT)
    assert util_format_is_pure_sint(Format.R32_SINT) and not util_format_is_pure_uint(Format.R32_SINT)
    assert util_format_is_pure_integer(Format.B8G8R8X8_UINT)  # padding does not count
    assert not util_format_is_pure_integer(Format.R8G8B8A8_USCALED)
    assert not util_format_is_pure_integer(Format.Z24_UNORM_S8_UINT)  # mixed depth/stencil
    assert util_format_is_srgb(Format.DXT1_SRGB) and util_format_is_srgb(Format.ASTC_4x4_SRGB)
    assert not util_format_is_srgb(Format.ASTC_4x4)
    assert format_desc(Format.R8G8B8A8_UNORM).is_array
    assert not format_desc(Format.B5G6R5_UNORM).is_array
    assert format_desc(Format.R16G16_FLOAT).is_float


def test_bad_format_values_raise():
    for bad in (-1, FORMAT_COUNT, 10_000, "R8_UNORM", None, 1.5):
        with pytest.raises(InvalidArgumentError):
            util_format_description(bad)
    with pytest.raises(ValueError):  # InvalidArgumentError is a ValueError
        util_format_get_blocksize(FORMAT_COUNT + 3)


# ---------------------------------------------------------------------------
# Host mapping
# ---------------------------------------------------------------------------


def test_emulation_swizzles_give_what_the_spec_samples():
    # GL core has no ALPHA / LUMINANCE / INTENSITY storage.  Sampling an R
    # texture gives (r, 0, 0, 1) and an RG texture (r, g, 0, 1); the
    # swizzle must turn that into Gallium's A8 = (0, 0, 0, a),
    # L8 = (l, l, l, 1), I8 = (i, i, i, i), L8A8 = (l, l, l, a).
    cases = {
        Format.A8_UNORM: ("GL_R8", (ZERO, ZERO, ZERO, X)),
        Format.L8_UNORM: ("GL_R8", (X, X, X, ONE)),
        Format.I8_UNORM: ("GL_R8", (X, X, X, X)),
        Format.L8A8_UNORM: ("GL_RG8", (X, X, X, Y)),
        Format.A16_UNORM: ("GL_R16", (ZERO, ZERO, ZERO, X)),
        Format.L16A16_FLOAT: ("GL_RG16F", (X, X, X, Y)),
        Format.I32_SINT: ("GL_R32I", (X, X, X, X)),
        Format.L8A8_SNORM: ("GL_RG8_SNORM", (X, X, X, Y)),
        # X formats: the padding is stored as alpha and sampled as ONE.
        Format.B8G8R8X8_UNORM: ("GL_RGBA8", (X, Y, Z, ONE)),
        Format.R8G8B8X8_UNORM: ("GL_RGBA8", (X, Y, Z, ONE)),
        Format.R16G16B16X16_FLOAT: ("GL_RGBA16F", (X, Y, Z, ONE)),
    }
    for fmt, (storage, swizzle) in cases.items():
        host = host_storage(fmt)
        assert host.internal_format_name == storage, fmt.name
        assert host.swizzle == swizzle, fmt.name
        assert host.emulated
    # BGRA: native RGBA8 storage, the reorder happens in the transfer.
    bgra = host_storage(Format.B8G8R8A8_UNORM)
    assert (bgra.internal_format, bgra.gl_format, bgra.gl_type) == (0x8058, 0x80E1, 0x1401)  # RGBA8, BGRA, UBYTE
    assert not bgra.emulated and not bgra.needs_conversion
    rgba = host_storage(Format.R8G8B8A8_UNORM)
    assert (rgba.internal_format, rgba.gl_format, rgba.gl_type) == (0x8058, 0x1908, 0x1401)
    d24s8 = host_storage(Format.Z24_UNORM_S8_UINT)
    assert d24s8.internal_format == 0x88F0 and d24s8.transfer_as == Format.S8_UINT_Z24_UNORM  # GL_DEPTH24_STENCIL8


def test_emulation_swizzle_reproduces_format_swizzle():
    # For every R/RG-stored colour format, the format's own swizzle (over
    # its channels) must equal the host swizzle (over the host texel, whose
    # R, G are the format's channels 0, 1 in order).
    for d in FORMAT_TABLE:
        host = d.primary_host
        if host is None or host.compressed or d.colorspace == "zs":
            continue
        if host.gl_format_name in ("GL_RED", "GL_RG", "GL_RED_INTEGER", "GL_RG_INTEGER"):
            assert host.swizzle == d.swizzle or (
                # R/RG formats: GL already answers (r, 0, 0, 1) / (r, g, 0, 1)
                host.swizzle == (X, Y, Z, W) and _swz_text(d.swizzle) in ("x001", "xy01")
            ), d.name


def test_compose_swizzles():
    # A view swizzle ZYX1 on top of the A8 emulation 000X reads
    # (host[Z], host[Y], host[X], 1) = (0, 0, 0, 1).
    assert util_format_compose_swizzles((ZERO, ZERO, ZERO, X), (Z, Y, X, ONE)) == (ZERO, ZERO, ZERO, ONE)
    assert util_format_compose_swizzles((X, X, X, ONE), (W, X, ZERO, Y)) == (ONE, X, ZERO, X)
    ident = (X, Y, Z, W)
    assert util_format_compose_swizzles(ident, (Y, Z, W, X)) == (Y, Z, W, X)


def test_host_lines_only_for_honest_formats():
    no_host = {d.name for d in FORMAT_TABLE if not d.host}
    # YUV/planar, vertex-only and formats GL cannot hold exactly have none.
    for name in (
        "NV12",
        "IYUV",
        "UYVY",
        "P010",
        "R64_FLOAT",
        "R32_UNORM",
        "R32G32_FIXED",
        "R16G16_USCALED",
        "R10G10B10A2_SNORM",
        "L4A4_UNORM",
        "B5G6R5_SRGB",
        "R1_UNORM",
        "ATC_RGB",
        "ASTC_4x4x4",
        "Z16_UNORM_S8_UINT",
        "X24S8_UINT",
    ):
        assert name in no_host, name
    for name in ("R8G8B8A8_UNORM", "A8_UNORM", "DXT1_RGB", "ASTC_8x8", "Z32_FLOAT_S8X24_UINT", "R9G9B9E5_FLOAT"):
        assert name not in no_host, name


def test_feature_names_exist():
    used = set()
    for d in FORMAT_TABLE:
        for h in d.host:
            used.update(h.features)
        if d.vertex:
            used.update(d.vertex.features)
    unknown = used - set(FEATURES)
    assert not unknown


_HOSTS: dict = {}


@pytest.fixture
def _host(request, profile):
    """The shared ``host`` fixture once glpipe.create_screen exists, else a
    host made here for the session's profile."""
    import glpipe

    if hasattr(glpipe, "create_screen"):
        return request.getfixturevalue("host")
    from glpipe.host.gl import create_host

    if profile not in _HOSTS:
        _HOSTS[profile] = create_host(profile=profile)
    _HOSTS[profile].make_current()
    return _HOSTS[profile]


def test_gl_enum_values_match_pyopengl(_host):
    # host.gl is PyOpenGL's GL module on the host context: an independent
    # source for the registry values the table spells out.
    import importlib

    namespaces = [_host.gl]
    for mod in (
        "EXT.texture_compression_s3tc",
        "EXT.texture_sRGB",
        "EXT.texture_sRGB_R8",
        "EXT.texture_sRGB_RG8",
        "KHR.texture_compression_astc_ldr",
        "_3DFX.texture_compression_FXT1",
    ):
        try:
            namespaces.append(importlib.import_module("OpenGL.GL." + mod))
        except ImportError:
            pass
    checked = 0
    for name, value in GL_ENUMS.items():
        for ns in namespaces:
            ref = getattr(ns, "GL_" + name, None)
            if ref is not None:
                assert int(ref) == value, name
                checked += 1
                break
    assert checked >= len(GL_ENUMS) - 2
    # Not in PyOpenGL's core namespace: glext.h values by hand.
    assert GL_ENUMS["COMPRESSED_RGB_FXT1_3DFX"] == 0x86B0
    assert GL_ENUMS["COMPRESSED_RGBA_ASTC_12x12_KHR"] == 0x93BD
    assert GL_ENUMS["COMPRESSED_SRGB8_ALPHA8_ASTC_5x4_KHR"] == 0x93D1


# ---------------------------------------------------------------------------
# Vertex fetch
# ---------------------------------------------------------------------------


def test_vertex_fetch_mapping():
    gl_bgra, ubyte, byte, ushort, short, uint, int_, half, flt, dbl, fixed = (
        0x80E1,
        0x1401,
        0x1400,
        0x1403,
        0x1402,
        0x1405,
        0x1404,
        0x140B,
        0x1406,
        0x140A,
        0x140C,
    )
    # format: (size, GL type, normalized, path), from GL 4.5 §10.3.1 by hand
    expected = {
        "R32G32B32A32_FLOAT": (4, flt, False, "float"),
        "R32G32B32_FLOAT": (3, flt, False, "float"),
        "R8G8B8A8_UNORM": (4, ubyte, True, "float"),
        "B8G8R8A8_UNORM": (gl_bgra, ubyte, True, "float"),
        "R8G8_SNORM": (2, byte, True, "float"),
        "R16_USCALED": (1, ushort, False, "float"),
        "R16G16B16A16_SSCALED": (4, short, False, "float"),
        "R16G16_FLOAT": (2, half, False, "float"),
        "R32_UNORM": (1, uint, True, "float"),
        "R32G32_SINT": (2, int_, False, "integer"),
        "R8G8B8A8_UINT": (4, ubyte, False, "integer"),
        "R64G64_FLOAT": (2, dbl, False, "float"),
        "R64_UINT": (1, dbl, False, "double"),
        "R32G32B32_FIXED": (3, fixed, False, "float"),
        "R10G10B10A2_UNORM": (4, 0x8368, True, "float"),  # UNSIGNED_INT_2_10_10_10_REV
        "R10G10B10A2_SSCALED": (4, 0x8D9F, False, "float"),  # INT_2_10_10_10_REV
        "B10G10R10A2_SNORM": (gl_bgra, 0x8D9F, True, "float"),
        "R11G11B10_FLOAT": (3, 0x8C3B, False, "float"),  # UNSIGNED_INT_10F_11F_11F_REV
        "R8G8B8X8_UNORM": (3, ubyte, True, "float"),  # padding: GL supplies w = 1
    }
    for name, want in expected.items():
        v = format_desc(Format[name]).vertex
        assert v is not None, name
        assert (v.size, v.gl_type, v.normalized, v.path) == want, name
    # Layouts GL cannot fetch: swizzled, padded in front, BGRA non-normalized,
    # packed integer, emulated L/A, compressed, depth.
    for name in (
        "A8_UNORM",
        "L8A8_UNORM",
        "X8B8G8R8_UNORM",
        "B8G8R8A8_UINT",
        "B8G8R8A8_SNORM",
        "R10G10B10A2_UINT",
        "B10G10R10A2_USCALED",
        "A8R8G8B8_UNORM",
        "DXT1_RGB",
        "Z16_UNORM",
        "R5G6B5_UNORM",
        "NONE",
        "R10G10B10X2_SNORM",
        "R8_SRGB",
        "R8G8B8A8_SRGB",
        "Z32_FLOAT",
        "S8_UINT",
        "Y8_UNORM",
    ):
        assert format_desc(Format[name]).vertex is None, name


def test_table_import_is_cheap():
    # The table is parsed at import; the target is < 50 ms (measured ~20 ms).
    # The bound below leaves room for a loaded CI machine.
    code = (
        "import time, glpipe.enums, glpipe.host.features; t = time.perf_counter(); "
        "import glpipe.format_table; print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert float(out.stdout.strip()) < 0.15


# ---------------------------------------------------------------------------
# fallback.format_pack: the numpy conversions behind via= rows
# ---------------------------------------------------------------------------

from fallback.format_pack import convert, from_host, pack_rgba, to_host, unpack_rgba  # noqa: E402


def _u8(*values):
    return np.array(values, np.uint8)


def test_unpack_hand_cases():
    cases = [
        (Format.R8G8B8A8_UNORM, _u8(255, 0, 128, 64), (1, 0, 128 / 255, 64 / 255)),
        (Format.B8G8R8A8_UNORM, _u8(10, 20, 30, 40), (30 / 255, 20 / 255, 10 / 255, 40 / 255)),
        (Format.A8R8G8B8_UNORM, _u8(40, 30, 20, 10), (30 / 255, 20 / 255, 10 / 255, 40 / 255)),
        (Format.B5G6R5_UNORM, np.array([0xF800], "<u2").view(np.uint8), (1, 0, 0, 1)),  # R in bits 11..15
        (Format.R5G6B5_UNORM, np.array([0x07E0], "<u2").view(np.uint8), (0, 1, 0, 1)),  # G in bits 5..10
        (Format.A8_UNORM, _u8(51), (0, 0, 0, 0.2)),
        (Format.L8A8_UNORM, _u8(255, 0), (1, 1, 1, 0)),
        (Format.I8_UNORM, _u8(102), (0.4, 0.4, 0.4, 0.4)),
        (Format.R8G8_SNORM, _u8(0x80, 0x81), (-1, -1, 0, 1)),  # -128 and -127 both mean -1
        (Format.R16_FLOAT, np.array([1.5], np.float16).view(np.uint8), (1.5, 0, 0, 1)),
        (Format.B8G8R8X8_UNORM, _u8(0, 0, 255, 77), (1, 0, 0, 1)),  # padding reads as one
        (Format.R10G10B10A2_UNORM, np.array([1023 | 3 << 30], "<u4").view(np.uint8), (1, 0, 0, 1)),
        (Format.R32G32_FIXED, np.array([65536 * 3, -32768], "<i4").view(np.uint8), (3, -0.5, 0, 1)),
    ]
    for fmt, data, want in cases:
        np.testing.assert_allclose(unpack_rgba(fmt, data, 1)[0], want, err_msg=fmt.name)
    ints = unpack_rgba(Format.R16G16B16A16_SINT, np.array([-5, 7, -32768, 32767], "<i2").view(np.uint8), 1)
    assert ints.dtype == np.int64 and ints[0].tolist() == [-5, 7, -32768, 32767]
    # depth in component 0, stencil in 1
    zs = unpack_rgba(Format.Z24_UNORM_S8_UINT, np.array([0xA5FFFFFF], "<u4").view(np.uint8), 1)[0]
    assert zs[0] == 1.0 and zs[1] == 0xA5
    zs = unpack_rgba(Format.S8_UINT_Z24_UNORM, np.array([0x000001A5], "<u4").view(np.uint8), 1)[0]
    assert zs[0] == pytest.approx(1 / (2**24 - 1)) and zs[1] == 0xA5


def test_pack_hand_cases():
    assert pack_rgba(Format.B5G6R5_UNORM, [[1, 0, 0, 1]]).view("<u2")[0] == 0xF800
    assert pack_rgba(Format.A8_UNORM, [[0, 0, 0, 0.2]]).tolist() == [51]
    assert pack_rgba(Format.L8A8_UNORM, [[1, 0.5, 0.5, 0]]).tolist() == [255, 0]  # L takes R
    assert pack_rgba(Format.B8G8R8A8_UNORM, [[1, 0, 0, 1]]).tolist() == [0, 0, 255, 255]
    assert pack_rgba(Format.R8_SNORM, [[-1, 0, 0, 1]]).view(np.int8).tolist() == [-127]
    # R11G11B10_FLOAT: 1.0 = e15 m0, 2.0 = e16 m0, 0.5 = e14 m0 (bias 15).
    want = (15 << 6) | (16 << 6) << 11 | (14 << 5) << 22
    assert pack_rgba(Format.R11G11B10_FLOAT, [[1.0, 2.0, 0.5, 1]]).view("<u4")[0] == want
    # RGB9E5 (EXT_texture_shared_exponent): (1, .5, .25) -> exponent 16, mantissas 256, 128, 64.
    want = 256 | 128 << 9 | 64 << 18 | 16 << 27
    assert pack_rgba(Format.R9G9B9E5_FLOAT, [[1.0, 0.5, 0.25, 1]]).view("<u4")[0] == want
    np.testing.assert_allclose(
        unpack_rgba(Format.R9G9B9E5_FLOAT, np.array([want], "<u4").view(np.uint8), 1)[0], (1.0, 0.5, 0.25, 1)
    )


def test_conversions_of_via_rows():
    # Z24S8 (depth low) <-> GL's 24_8 layout (depth high): a rotation by 8 bits.
    out = convert(Format.Z24_UNORM_S8_UINT, Format.S8_UINT_Z24_UNORM, np.array([0xA5123456], "<u4").view(np.uint8), 1)
    assert out.view("<u4")[0] == 0x123456A5
    # X8B8G8R8_SNORM (bytes X, B, G, R) -> R8G8B8A8_SNORM with alpha one (127).
    out = convert(Format.X8B8G8R8_SNORM, Format.R8G8B8A8_SNORM, _u8(0x33, 0x10, 0x20, 0x30), 1)
    assert out.tolist() == [0x30, 0x20, 0x10, 0x7F]
    # Between sRGB formats the encoded bytes are copied, never re-encoded.
    out = convert(Format.L8A8_SRGB, Format.R8G8B8A8_SRGB, _u8(0x40, 0x80), 1)
    assert out.tolist() == [0x40, 0x40, 0x40, 0x80]
    # 24-bit depth to 32-bit unorm keeps the value: z32/(2^32-1) == z24/(2^24-1).
    z24 = np.array([0, 1, 0x123456, 0xFFFFFF], "<u4")
    z32 = convert(Format.Z24X8_UNORM, Format.Z32_UNORM, z24.view(np.uint8), 4).view("<u4")
    np.testing.assert_array_equal(z32, np.rint(z24 * ((2**32 - 1) / (2**24 - 1))).astype(np.uint64))
    back = convert(Format.Z32_UNORM, Format.X8Z24_UNORM, z32.view(np.uint8), 4).view("<u4") >> 8
    np.testing.assert_array_equal(back, z24)


def test_every_via_row_round_trips():
    rng = np.random.RandomState(3)
    n = 64
    seen = 0
    for d in FORMAT_TABLE:
        for host in d.host:
            if host.transfer_as is None:
                continue
            if d.is_compressed:
                # Decoded at upload, not converted per pixel (fallback.compressed,
                # tests/context/test_compressed_textures.py).
                continue
            data = rng.randint(0, 256, size=n * d.blocksize).astype(np.uint8)
            sent = to_host(d.format, host, data, n)
            assert sent.size == n * format_desc(host.transfer_as).blocksize, d.name
            back = from_host(d.format, host, sent, n)
            np.testing.assert_array_equal(
                unpack_rgba(d.format, back, n), unpack_rgba(d.format, data, n), err_msg=d.name
            )
            seen += 1
    assert seen >= 15


def test_format_pack_refuses_what_it_cannot_pack():
    from glpipe.errors import UnsupportedError

    with pytest.raises(UnsupportedError):
        unpack_rgba(Format.DXT1_RGB, bytes(8), 1)
    with pytest.raises(UnsupportedError):
        pack_rgba(Format.NV12, [[0, 0, 0, 1]])
    with pytest.raises(InvalidArgumentError):
        unpack_rgba(Format.R8G8B8A8_UNORM, bytes(3), 1)  # too short
    with pytest.raises(InvalidArgumentError):
        pack_rgba(Format.R8G8B8A8_UNORM, [1, 2, 3, 4])  # not (N, 4)
