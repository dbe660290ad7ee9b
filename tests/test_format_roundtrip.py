"""Every format round-trips byte-exact through transfers (issue 12 item 7).

For every format ``screen.is_format_supported`` accepts on a target, a
resource is written with random bytes -- salted with the values a numeric
conversion would lose: NaNs (quiet, signalling, with payloads), -0,
denormals, infinities, out-of-range floats, the most negative SNORM code
(-128 for 8 bits, which Gallium reads as -1.0 like -127), integer extremes
-- and read back, through two write paths:

* ``transfer_map(WRITE)``, fill ``data``, ``transfer_unmap``;
* ``texture_subdata`` / ``buffer_subdata``;

then ``transfer_map(READ)``.  The expected bytes are the bytes written.
2D runs every format; the other targets every format they accept (buffers:
every format accepted for BUFFER).

``NOT_BYTE_EXACT`` lists the formats whose bytes cannot round-trip by the
nature of the host storage, with the reason (docs/formats.md "Transfers:
what round-trips").  For those the test checks that every bit the storage
*can* hold round-trips, and what happens to the rest; a second test checks
that each listed format really loses something, so the list cannot hide a
format that works.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Box, Format, Map, PipeError, ResourceTemplate, Target
from glpipe.format_table import ChannelType
from glpipe.formats import format_desc

# Formats whose written bytes the host cannot hold, by nature:
# format -> (reason, the check applied instead of byte equality).
#   "void": the format's padding (X) channels have no host storage; every
#           other bit is exact.
#   "snan": a GL float depth texture holds every float, but the only GL
#           paths that write depth outside [+0, 1] into it (a clear of a
#           whole attachment, then a depth blit: GL 4.5 §8.5 clamps what a
#           pixel transfer uploads, §15.2.3 clamps fragment depth) carry the
#           value as a clear value, which quiets a signalling NaN (Mesa keeps
#           clear depth as a double; GL 4.5 §2.3.4.1 leaves signalling NaNs
#           to the implementation).  Every other pattern is exact; a
#           signalling NaN reads back with its quiet bit (bit 22) set and
#           its sign and payload kept.
#   "negzero": DEPTH32F_STENCIL8 on this host stores -0 as +0 on every
#           write path (upload, clear; measured on llvmpipe).
_Z_PADDING = "X8 padding: DEPTH_COMPONENT24 has no bits for it"
_Z32F = "signalling NaN depth reads back quiet (a GL clear value carries it)"
NOT_BYTE_EXACT = {
    Format.Z24X8_UNORM: (_Z_PADDING, ("void",)),
    Format.X8Z24_UNORM: (_Z_PADDING, ("void",)),
    Format.Z32_FLOAT: (_Z32F, ("snan",)),
    Format.Z32_FLOAT_S8X24_UINT: (
        _Z32F + "; -0 depth reads back +0; X24 padding: DEPTH32F_STENCIL8 has no bits for it",
        ("void", "snan", "negzero"),
    ),
}
# Level-0 extent (width, height, depth0, array_size) per target, in blocks
# of the format (multiplied by the block size below), small but with more
# than one row, layer and face.
_EXTENT = {
    Target.TEXTURE_1D: (7, 1, 1, 1),
    Target.TEXTURE_2D: (5, 3, 1, 1),
    Target.TEXTURE_RECT: (3, 2, 1, 1),
    Target.TEXTURE_3D: (3, 2, 3, 1),
    Target.TEXTURE_1D_ARRAY: (5, 1, 1, 3),
    Target.TEXTURE_2D_ARRAY: (3, 2, 1, 3),
    Target.TEXTURE_CUBE: (2, 2, 1, 6),
    Target.TEXTURE_CUBE_ARRAY: (2, 2, 1, 12),
}
_TEXTURE_TARGETS = tuple(_EXTENT)


# ---------------------------------------------------------------------------
# Bytes to write: random, salted with the values conversions lose
# ---------------------------------------------------------------------------


def _float_specials(bits: int) -> list[int]:
    """Raw patterns of an IEEE float of ``bits`` (16/32/64): NaNs with
    payloads (quiet and signalling, both signs), -0, denormals, infinities,
    and values outside [0, 1] / [-1, 1]."""
    import struct

    if bits == 16:
        fmt, uint = "<e", "<H"
        nans = [0x7E00, 0x7C01, 0xFE01, 0x7D55]
        den = [0x0001, 0x83FF]
    elif bits == 32:
        fmt, uint = "<f", "<I"
        nans = [0x7FC00000, 0x7F800001, 0xFFC12345, 0x7FA5A5A5]
        den = [0x00000001, 0x807FFFFF]
    else:
        fmt, uint = "<d", "<Q"
        nans = [0x7FF8000000000000, 0x7FF0000000000001, 0xFFF8DEADBEEF0001]
        den = [0x0000000000000001, 0x800FFFFFFFFFFFFF]

    def raw(v: float) -> int:
        return int(struct.unpack(uint, struct.pack(fmt, v))[0])

    return nans + den + [raw(-0.0), raw(float("inf")), raw(float("-inf")), raw(1.5), raw(-3.0), raw(0.25)]


def _channel_specials(ch) -> list[int]:
    n = ch.size
    top = (1 << n) - 1
    if ch.type == ChannelType.FLOAT:
        if n in (16, 32, 64):
            return _float_specials(n)
        # 10/11-bit unsigned floats (5-bit exponent): NaN, Inf, denormals.
        m = n - 5
        return [top, 31 << m, (31 << m) | 1, 1, (1 << m) - 1]
    if ch.type in (ChannelType.SNORM, ChannelType.SINT, ChannelType.SSCALED, ChannelType.FIXED):
        lowest = 1 << (n - 1)  # two's complement minimum: -128 for 8 bits
        return [lowest, lowest + 1, top, 0]
    return [top, 0, 1]


def salted_bytes(fmt: Format, nblocks: int, seed: int) -> np.ndarray:
    """``nblocks`` blocks of ``fmt``: random bytes, with each channel's
    special patterns written into the first texels (cycling), so every
    special value of every channel appears at least once when there are
    enough texels."""
    desc = format_desc(fmt)
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, nblocks * desc.blocksize, dtype=np.uint8)
    if desc.is_compressed or not desc.channels:
        return data
    blocks = data.reshape(nblocks, desc.blocksize)
    for ci, ch in enumerate(desc.channels):
        if ch.type == ChannelType.VOID:
            continue
        specials = _channel_specials(ch)
        for k in range(nblocks):
            value = specials[(k + ci) % len(specials)] if k < 2 * len(specials) else None
            if value is None:
                break
            word = int.from_bytes(blocks[k].tobytes(), "little")
            mask = ((1 << ch.size) - 1) << ch.shift
            word = (word & ~mask) | ((value << ch.shift) & mask)
            blocks[k] = np.frombuffer(word.to_bytes(desc.blocksize, "little"), np.uint8)
    return data


# ---------------------------------------------------------------------------
# What a listed format keeps
# ---------------------------------------------------------------------------


def _fields(fmt: Format, data: np.ndarray, kind: ChannelType) -> list[tuple[np.ndarray, object]]:
    """(raw values as Python ints per texel, channel) for the channels of ``kind``."""
    desc = format_desc(fmt)
    blocks = data.reshape(-1, desc.blocksize)
    words = [int.from_bytes(b.tobytes(), "little") for b in blocks]
    out = []
    for ch in desc.channels:
        if ch.type == kind:
            out.append((np.array([(w >> ch.shift) & ((1 << ch.size) - 1) for w in words], object), ch))
    return out


def _without(fmt: Format, data: np.ndarray, kinds) -> np.ndarray:
    """``data`` with the bits of every channel of a type in ``kinds`` set to zero."""
    desc = format_desc(fmt)
    blocks = data.reshape(-1, desc.blocksize).copy()
    mask = 0
    for ch in desc.channels:
        if ch.type in kinds:
            mask |= ((1 << ch.size) - 1) << ch.shift
    for k in range(blocks.shape[0]):
        word = int.from_bytes(blocks[k].tobytes(), "little") & ~mask
        blocks[k] = np.frombuffer(word.to_bytes(desc.blocksize, "little"), np.uint8)
    return blocks.reshape(-1)


def quieted(bits: np.ndarray) -> np.ndarray:
    """IEEE binary32 patterns with every signalling NaN made quiet (bit 22
    set, sign and payload kept): what a NaN becomes when converted to a
    double and back (IEEE 754-2008 §6.2)."""
    bits = np.asarray(bits, np.uint32)
    nan = (bits & 0x7F800000) == 0x7F800000
    snan = nan & ((bits & 0x007FFFFF) != 0) & ((bits & 0x00400000) == 0)
    return np.where(snan, bits | 0x00400000, bits).astype(np.uint32)


def _check_depth_f32(written: np.ndarray, got: np.ndarray, fmt: Format, negzero: bool) -> None:
    """Every depth pattern exact, but signalling NaNs read back quiet (and,
    with ``negzero``, -0 reads back +0)."""
    (w_raw, _), (g_raw, _) = _fields(fmt, written, ChannelType.FLOAT)[0], _fields(fmt, got, ChannelType.FLOAT)[0]
    w = quieted(np.array([int(v) for v in w_raw], np.uint32))
    if negzero:
        w[w == 0x80000000] = 0
    g = np.array([int(v) for v in g_raw], np.uint32)
    np.testing.assert_array_equal(g, w, err_msg="depth bits (signalling NaNs quieted)")


def check_round_trip(fmt: Format, written: np.ndarray, got: np.ndarray, where: str) -> None:
    """Byte equality, or for a NOT_BYTE_EXACT format, what its storage keeps."""
    got = np.ascontiguousarray(got).reshape(-1)
    written = written.reshape(-1)
    if fmt not in NOT_BYTE_EXACT:
        if not np.array_equal(got, written):
            bad = np.flatnonzero(got != written)
            raise AssertionError(
                f"{format_desc(fmt).name} {where}: {bad.size} of {got.size} bytes differ, "
                f"first at {bad[0]}: wrote {written[bad[0]]:#04x}, read {got[bad[0]]:#04x}"
            )
        return
    checks = NOT_BYTE_EXACT[fmt][1]
    lost = {ChannelType.VOID} if "void" in checks else set()
    if "snan" in checks:
        _check_depth_f32(written, got, fmt, "negzero" in checks)
        lost.add(ChannelType.FLOAT)
    np.testing.assert_array_equal(
        _without(fmt, got, lost), _without(fmt, written, lost), err_msg=f"{format_desc(fmt).name} {where}"
    )


# ---------------------------------------------------------------------------
# Textures
# ---------------------------------------------------------------------------


def _supported(screen, target: Target) -> list[Format]:
    return [f for f in Format if f != Format.NONE and screen.is_format_supported(f, target, 1, 1, 0)]


def _texture(screen, fmt: Format, target: Target):
    desc = format_desc(fmt)
    w, h, d, layers = _EXTENT[target]
    has_y = target not in (Target.TEXTURE_1D, Target.TEXTURE_1D_ARRAY)
    width = w * desc.block_width
    height = h * desc.block_height if has_y else 1
    if target in (Target.TEXTURE_CUBE, Target.TEXTURE_CUBE_ARRAY):
        height = width
    res = screen.resource_create(
        ResourceTemplate(
            target=target,
            format=fmt,
            width0=width,
            height0=height,
            depth0=d * desc.block_depth,
            array_size=layers,
            bind=0,
        )
    )
    wd, ht, dp = res.level_extent(0)
    return res, Box(x=0, y=0, z=0, width=wd, height=ht, depth=dp)


def _read(ctx, res, box) -> np.ndarray:
    t = ctx.transfer_map(res, 0, Map.READ, box)
    try:
        return np.array(t.data, copy=True)
    finally:
        ctx.transfer_unmap(t)


def _round_trip_texture(screen, ctx, fmt: Format, target: Target, seed: int) -> list[str]:
    """Both write paths for ``fmt`` on ``target``; returns failure messages."""
    failures = []
    res, box = _texture(screen, fmt, target)
    try:
        t = ctx.transfer_map(res, 0, Map.WRITE | Map.DISCARD_RANGE, box)
        shape = t.data.shape
        written = salted_bytes(fmt, t.data.size // format_desc(fmt).blocksize, seed)
        t.data[...] = written.reshape(shape)
        stride, layer_stride = t.stride, t.layer_stride
        ctx.transfer_unmap(t)
        try:
            check_round_trip(fmt, written, _read(ctx, res, box), f"{target.name} transfer_map WRITE")
        except AssertionError as exc:
            failures.append(str(exc))
        written = salted_bytes(fmt, written.size // format_desc(fmt).blocksize, seed + 1)
        ctx.texture_subdata(res, 0, Map.WRITE, box, written, stride, layer_stride)
        try:
            check_round_trip(fmt, written, _read(ctx, res, box), f"{target.name} texture_subdata")
        except AssertionError as exc:
            failures.append(str(exc))
    finally:
        screen.resource_destroy(res)
    return failures


def test_every_format_round_trips_on_2d(screen, ctx, profile):
    """Every format the profile stores as TEXTURE_2D: both write paths.
    Compressed formats the host stores decoded (gl33: S3TC, BPTC, ETC2)
    are among them and keep the written blocks."""
    from glpipe.formats import host_decodes, host_storage

    formats = _supported(screen, Target.TEXTURE_2D)
    assert len(formats) > 200  # the profile's table, not an empty loop
    decoded = [f for f in formats if host_decodes(format_desc(f), host_storage(f, screen.format_support))]
    assert len(decoded) >= (10 if profile == "gl33" else 0)
    failures = []
    for i, fmt in enumerate(formats):
        failures += _round_trip_texture(screen, ctx, fmt, Target.TEXTURE_2D, 1000 + i)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", [t for t in _TEXTURE_TARGETS if t != Target.TEXTURE_2D], ids=lambda t: t.name)
def test_every_format_round_trips_on_target(screen, ctx, target):
    """Every format the profile stores on ``target`` (the profile may lack the
    target: then is_format_supported accepts nothing and resource_create
    refuses, which the refusal test below proves)."""
    formats = _supported(screen, target)
    if not formats:
        with pytest.raises(PipeError):
            _texture(screen, Format.R8G8B8A8_UNORM, target)
        return
    failures = []
    for i, fmt in enumerate(formats):
        failures += _round_trip_texture(screen, ctx, fmt, target, 5000 + i)
    assert not failures, "\n".join(failures)


def test_sub_box_of_a_mip_level_round_trips(screen, ctx):
    """A box inside level 1 of a 2D array, for a representative set:
    neighbours keep their bytes, the box gets the new ones."""
    formats = [
        Format.R8G8B8A8_UNORM,
        Format.A8B8G8R8_SNORM,
        Format.R32G32B32A32_FLOAT,
        Format.R16_FLOAT,
        Format.X8B8G8R8_SNORM,
        Format.R10G10B10X2_SINT,
        Format.Z24_UNORM_S8_UINT,
        Format.R11G11B10_FLOAT,
    ]
    for fmt in formats:
        if not screen.is_format_supported(fmt, Target.TEXTURE_2D_ARRAY, 1, 1, 0):
            continue
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D_ARRAY, format=fmt, width0=16, height0=8, array_size=3, last_level=2, bind=0
            )
        )
        whole = Box(x=0, y=0, z=0, width=8, height=4, depth=3)
        bs = format_desc(fmt).blocksize
        base = salted_bytes(fmt, 8 * 4 * 3, 7).reshape(3, 4, 8 * bs)
        ctx.texture_subdata(res, 1, Map.WRITE, whole, base, 8 * bs, 4 * 8 * bs)
        box = Box(x=3, y=1, z=1, width=4, height=2, depth=2)
        t = ctx.transfer_map(res, 1, Map.WRITE, box)
        new = salted_bytes(fmt, 4 * 2 * 2, 8).reshape(t.data.shape)
        t.data[...] = new
        ctx.transfer_unmap(t)
        want = base.copy()
        want[1:3, 1:3, 3 * bs : 7 * bs] = new
        t = ctx.transfer_map(res, 1, Map.READ, whole)
        check_round_trip(fmt, want, t.data, "level 1 sub-box")
        ctx.transfer_unmap(t)
        screen.resource_destroy(res)


# ---------------------------------------------------------------------------
# Buffers
# ---------------------------------------------------------------------------


def test_every_buffer_format_round_trips(screen, ctx):
    """A buffer is bytes whatever its format: every byte pattern survives
    transfer_map WRITE and buffer_subdata."""
    formats = _supported(screen, Target.BUFFER)
    assert formats
    size = 96
    for i, fmt in enumerate(formats):
        res = screen.resource_create(ResourceTemplate(target=Target.BUFFER, format=fmt, width0=size, bind=0))
        box = Box(x=0, width=size)
        written = salted_bytes(Format.R32G32B32A32_FLOAT, size // 16, 90 + i)
        t = ctx.transfer_map(res, 0, Map.WRITE, box)
        t.data[...] = written
        ctx.transfer_unmap(t)
        np.testing.assert_array_equal(_read(ctx, res, box), written, err_msg=format_desc(fmt).name)
        written = salted_bytes(Format.R16G16B16A16_SNORM, size // 8, 190 + i)
        ctx.buffer_subdata(res, Map.WRITE, 0, written)
        np.testing.assert_array_equal(_read(ctx, res, box), written, err_msg=format_desc(fmt).name)
        screen.resource_destroy(res)


# ---------------------------------------------------------------------------
# The findings, one by one
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", [Format.A8B8G8R8_SNORM, Format.A8R8G8B8_SNORM], ids=lambda f: f.name)
def test_snorm_minus_128_survives(screen, ctx, fmt):
    """Byte 0x80 (-128) of a reordered SNORM format reads back 0x80, not 0x81:
    the transfer conversion moves channel bits, it does not go through -1.0."""
    res, box = _texture(screen, fmt, Target.TEXTURE_2D)
    n = box.width * box.height
    written = np.tile(np.array([0x80, 0x81, 0x7F, 0x00], np.uint8), n)
    t = ctx.transfer_map(res, 0, Map.WRITE, box)
    t.data[...] = written.reshape(t.data.shape)
    ctx.transfer_unmap(t)
    np.testing.assert_array_equal(_read(ctx, res, box).reshape(-1), written)
    screen.resource_destroy(res)


def test_z32_float_in_range_depth_is_bit_exact(screen, ctx):
    """Every depth a GL depth texture can hold ([+0, 1], denormals included)
    reads back bit for bit."""
    res, box = _texture(screen, Format.Z32_FLOAT, Target.TEXTURE_2D)
    n = box.width * box.height
    values = np.array([0.0, 1.0, 0.5, 1e-40, 1.4e-45, np.nextafter(np.float32(1), np.float32(0)), 0.1], np.float32)
    written = np.resize(values, n)
    ctx.texture_subdata(res, 0, Map.WRITE, box, written, box.width * 4, n * 4)
    np.testing.assert_array_equal(_read(ctx, res, box).reshape(-1).view(np.uint32), written.view(np.uint32))
    screen.resource_destroy(res)


# Depth no GL pixel transfer keeps (GL 4.5 §8.5 clamps uploads to [0, 1]):
# out of range both ways, -0, infinities, quiet NaNs with sign and payload,
# a negative denormal, the float just above 1; and in-range neighbours.
_FLOAT_DEPTH_BITS = np.array(
    [
        0x3FC00000,  # 1.5
        0xC0400000,  # -3
        0x72CA5A5A,  # ~8e30
        0x80000000,  # -0
        0x7F800000,  # +Inf
        0xFF800000,  # -Inf
        0x7FC00000,  # quiet NaN
        0xFFC12345,  # quiet NaN, sign and payload
        0x807FFFFF,  # negative denormal
        0x3F800001,  # next float above 1
        0x3E800000,  # 0.25 (kept by the upload itself)
        0x3F800000,  # 1.0
        0x00000001,  # smallest denormal
    ],
    np.uint32,
)
_Z32F_TARGETS = [
    Target.TEXTURE_2D,
    Target.TEXTURE_1D,
    Target.TEXTURE_RECT,
    Target.TEXTURE_1D_ARRAY,
    Target.TEXTURE_2D_ARRAY,
    Target.TEXTURE_CUBE,
    Target.TEXTURE_CUBE_ARRAY,
]


def _float_depth_texels(fmt: Format, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(bytes to write, their depth words): ``n`` texels of ``fmt`` whose
    depth cycles through _FLOAT_DEPTH_BITS from a seed-dependent start;
    Z32_FLOAT_S8X24_UINT gets random stencil and zero padding."""
    depth = np.roll(np.resize(_FLOAT_DEPTH_BITS, n), seed)
    if fmt == Format.Z32_FLOAT:
        return depth.view(np.uint8).copy(), depth
    stencil = np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint32)
    return np.stack([depth, stencil], axis=1).reshape(-1).view(np.uint8).copy(), depth


@pytest.mark.parametrize("fmt", [Format.Z32_FLOAT, Format.Z32_FLOAT_S8X24_UINT], ids=lambda f: f.name)
@pytest.mark.parametrize("target", _Z32F_TARGETS, ids=lambda t: t.name)
def test_float_depth_outside_0_1_round_trips(screen, ctx, fmt, target):
    """Float depth keeps every value Gallium stores, not just [+0, 1]: 1.5,
    -3, -0, infinities, quiet NaNs (sign and payload) read back bit for bit
    through both write paths, on every target the profile stores the format
    on; the stencil of Z32_FLOAT_S8X24_UINT is untouched by the depth (its
    -0 reads back +0: NOT_BYTE_EXACT)."""
    if not screen.is_format_supported(fmt, target, 1, 1, 0):
        with pytest.raises(PipeError):
            _texture(screen, fmt, target)
        return
    res, box = _texture(screen, fmt, target)
    n = box.width * box.height * box.depth
    bs = format_desc(fmt).blocksize
    try:
        for path, seed in (("transfer_map", 0), ("texture_subdata", 5)):
            written, depth = _float_depth_texels(fmt, n, seed)
            if path == "transfer_map":
                t = ctx.transfer_map(res, 0, Map.WRITE, box)
                t.data[...] = written.reshape(t.data.shape)
                ctx.transfer_unmap(t)
            else:
                ctx.texture_subdata(res, 0, Map.WRITE, box, written, box.width * bs, box.width * box.height * bs)
            got = _read(ctx, res, box).reshape(-1).view(np.uint32)
            if fmt == Format.Z32_FLOAT:
                np.testing.assert_array_equal(got, depth, err_msg=path)
            else:
                # DEPTH32F_STENCIL8 keeps no -0 on this host (NOT_BYTE_EXACT "negzero").
                want_z = np.where(depth == 0x80000000, np.uint32(0), depth)
                np.testing.assert_array_equal(got[0::2], want_z, err_msg=f"{path}: depth")
                want_s = written.view(np.uint32)[1::2] & 0xFF
                np.testing.assert_array_equal(got[1::2] & 0xFF, want_s, err_msg=f"{path}: stencil")
    finally:
        screen.resource_destroy(res)


def test_float_depth_in_a_sub_box_keeps_its_neighbours(screen, ctx):
    """Out-of-range depth written into a box of level 1 of a 2D array lands
    in the box only; the texels around it keep their own (out-of-range) depth."""
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D_ARRAY, format=Format.Z32_FLOAT, width0=16, height0=8, array_size=3, last_level=1
        )
    )
    whole = Box(x=0, y=0, z=0, width=8, height=4, depth=3)
    base = np.resize(_FLOAT_DEPTH_BITS[::-1], 8 * 4 * 3).reshape(3, 4, 8)
    ctx.texture_subdata(res, 1, Map.WRITE, whole, base, 8 * 4, 8 * 4 * 4)
    box = Box(x=3, y=1, z=1, width=4, height=2, depth=2)
    new = np.resize(_FLOAT_DEPTH_BITS, 4 * 2 * 2).reshape(2, 2, 4)
    ctx.texture_subdata(res, 1, Map.WRITE, box, new, 4 * 4, 4 * 2 * 4)
    want = base.copy()
    want[1:3, 1:3, 3:7] = new
    t = ctx.transfer_map(res, 1, Map.READ, whole)
    got = np.array(t.data, copy=True).reshape(3, 4, 8 * 4).view(np.uint32)
    ctx.transfer_unmap(t)
    np.testing.assert_array_equal(got, want)
    screen.resource_destroy(res)


def test_float_depth_signalling_nan_reads_back_quiet(screen, ctx):
    """The one loss NOT_BYTE_EXACT[Z32_FLOAT] states: a signalling NaN
    (exponent all ones, quiet bit 22 clear, payload not zero) reads back
    with bit 22 set, sign and payload kept (the bits computed here, not
    read from glpipe)."""
    res, box = _texture(screen, Format.Z32_FLOAT, Target.TEXTURE_2D)
    n = box.width * box.height
    snans = np.array([0x7F800001, 0xFFA00000, 0x7FA5A5A5, 0x7FBFFFFF], np.uint32)
    written = np.resize(snans, n)
    ctx.texture_subdata(res, 0, Map.WRITE, box, written, box.width * 4, n * 4)
    got = _read(ctx, res, box).reshape(-1).view(np.uint32)
    want = np.resize(np.array([0x7FC00001, 0xFFE00000, 0x7FE5A5A5, 0x7FFFFFFF], np.uint32), n)
    np.testing.assert_array_equal(got, want)
    screen.resource_destroy(res)


@pytest.mark.parametrize(
    "target",
    [Target.TEXTURE_2D, Target.TEXTURE_1D_ARRAY, Target.TEXTURE_2D_ARRAY, Target.TEXTURE_CUBE],
    ids=lambda t: t.name,
)
def test_z32_unorm_is_exact_on_layered_targets(screen, ctx, target):
    """32-bit unorm depth keeps its low bits on every target: llvmpipe's
    glGetTexImage of array and cube depth images goes through a float
    (1 read back 0, 2^31 read back 2^31 - 1); glpipe reads depth/stencil
    through the framebuffer instead."""
    if not screen.is_format_supported(Format.Z32_UNORM, target, 1, 1, 0):
        with pytest.raises(PipeError):
            _texture(screen, Format.Z32_UNORM, target)
        return
    res, box = _texture(screen, Format.Z32_UNORM, target)
    n = box.width * box.height * box.depth
    written = np.resize(np.array([1, 255, 2**31, 12345678, 2**32 - 1, 0, 0x01000100], np.uint32), n)
    ctx.texture_subdata(res, 0, Map.WRITE, box, written, box.width * 4, box.width * box.height * 4)
    np.testing.assert_array_equal(_read(ctx, res, box).reshape(-1).view(np.uint32), written)
    screen.resource_destroy(res)


def test_not_byte_exact_lists_only_formats_that_lose_bytes(screen, ctx):
    """Each NOT_BYTE_EXACT format the profile supports really changes some
    written byte (so the list cannot hide a format that works), and nothing
    else is on it."""
    checked = 0
    for fmt in NOT_BYTE_EXACT:
        if not screen.is_format_supported(fmt, Target.TEXTURE_2D, 1, 1, 0):
            continue
        res, box = _texture(screen, fmt, Target.TEXTURE_2D)
        written = salted_bytes(fmt, box.width * box.height, 42)
        t = ctx.transfer_map(res, 0, Map.WRITE, box)
        t.data[...] = written.reshape(t.data.shape)
        ctx.transfer_unmap(t)
        got = _read(ctx, res, box).reshape(-1)
        assert not np.array_equal(got, written), f"{format_desc(fmt).name} round-trips: remove it from NOT_BYTE_EXACT"
        check_round_trip(fmt, written, got, "listed")
        screen.resource_destroy(res)
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------------------
# fallback.format_pack: the conversions behind via= rows keep every bit
# ---------------------------------------------------------------------------


def test_every_via_row_converts_without_loss():
    """from_host(to_host(x)) == x for every via= row (not decoded compressed
    ones): every bit the transfer layout has room for survives; only the
    listed formats lose their padding."""
    from fallback.format_pack import _bit_plan, from_host, to_host
    from glpipe.format_table import FORMAT_TABLE

    seen = 0
    for d in FORMAT_TABLE:
        for host in d.host:
            if host.transfer_as is None or d.is_compressed:
                continue
            n = 64
            data = salted_bytes(d.format, n, 11)
            back = np.asarray(from_host(d.format, host, to_host(d.format, host, data, n), n), np.uint8)
            # Padding parked in a host channel must be one sampling never reads.
            via = format_desc(host.transfer_as)
            for j, _i, how in _bit_plan(d.format, via.format):
                if how == "pad":
                    comp = via.swizzle.index(j)
                    assert comp not in host.swizzle, f"{d.name}: padding lands in host channel {comp}, which is sampled"
            lost = {ChannelType.VOID} if d.format in NOT_BYTE_EXACT else set()
            np.testing.assert_array_equal(
                _without(d.format, back, lost), _without(d.format, data, lost), err_msg=d.name
            )
            seen += 1
    assert seen >= 15


def test_widened_unorm_survives_a_rounding_and_a_truncating_host():
    """Z24 depth sent as 32-bit unorm: GL narrows it back to 24 bits by
    taking either neighbour of z32 * (2^24 - 1) / (2^32 - 1) (GL 4.5
    §2.3.5.2); both choices give the original code for every code (exact
    integer arithmetic, independent of the code under test's formula)."""
    from fallback.format_pack import to_host
    from glpipe.formats import host_storage

    host = next(h for h in format_desc(Format.Z24X8_UNORM).host if h.transfer_as is not None)
    # Both ends of the range (where rounding and truncation disagree most) and a
    # stride through the middle; the full 2^24 was checked on llvmpipe.
    k = np.unique(
        np.concatenate(
            [np.arange(1 << 16), np.arange((1 << 24) - (1 << 16), 1 << 24), np.arange(0, 1 << 24, 251)]
        ).astype(np.uint32)
    )
    z32 = np.asarray(to_host(Format.Z24X8_UNORM, host, k.view(np.uint8), k.size), np.uint8).view("<u4")
    num = z32.astype(np.uint64) * np.uint64((1 << 24) - 1)  # < 2^56: exact in uint64
    den = np.uint64((1 << 32) - 1)
    truncated = num // den
    rounded = (np.uint64(2) * num + den) // (np.uint64(2) * den)
    np.testing.assert_array_equal(truncated, k)
    np.testing.assert_array_equal(rounded, k)
    assert host_storage(Format.Z24X8_UNORM).transfer_as == Format.Z32_UNORM


# ---------------------------------------------------------------------------
# Where GL clamps float depth, and the paths that do not
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("host_profile", ["native", "gl33"])
def test_host_float_depth_paths(host_profile):
    """The evidence behind glpipe's float-depth upload, measured with raw GL
    on a host context of its own (no glpipe code) for a DEPTH_COMPONENT32F
    texture:

    * glTexSubImage2D clamps to [0, 1] (GL 4.5 §8.5): 1.5 is stored as 1.0;
    * a fragment shader's gl_FragDepth is clamped (GL 4.5 §15.2.3);
    * the storage itself holds any float: a glClearBufferfv of the whole
      attachment stores 1.5 and -3 (GL 4.5 §17.4.3.1 clamps clear depth for
      fixed-point buffers only), a 1:1 NEAREST depth glBlitFramebuffer
      copies them, and glReadPixels / a texelFetch read them back -- the
      clamp is the upload's, not the read-back's;
    * the clear value quiets a signalling NaN (bit 22 set).

    If a host's upload ever keeps 1.5, the first assertion fails and the
    clear + blit detour (glpipe/transfer_gl.py FloatDepthWriter) can go."""
    import ctypes

    from OpenGL.raw.GL.VERSION.GL_1_0 import glReadPixels
    from OpenGL.raw.GL.VERSION.GL_1_1 import glTexSubImage2D
    from OpenGL.raw.GL.VERSION.GL_3_0 import glBlitFramebuffer, glClearBufferfv

    from glpipe.host.gl import create_host

    host = create_host(profile=host_profile)
    try:
        mgl, gl = host.mgl, host.gl
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)

        def depth_texture(width: int) -> tuple[int, int]:
            tex = int(gl.glGenTextures(1))
            gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
            gl.glTexImage2D(
                gl.GL_TEXTURE_2D, 0, gl.GL_DEPTH_COMPONENT32F, width, 1, 0, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, None
            )
            for p in (gl.GL_TEXTURE_MIN_FILTER, gl.GL_TEXTURE_MAG_FILTER):
                gl.glTexParameteri(gl.GL_TEXTURE_2D, p, gl.GL_NEAREST)
            fbo = int(gl.glGenFramebuffers(1))
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
            gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_ATTACHMENT, gl.GL_TEXTURE_2D, tex, 0)
            gl.glDrawBuffer(gl.GL_NONE)
            gl.glReadBuffer(gl.GL_NONE)
            assert gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER) == gl.GL_FRAMEBUFFER_COMPLETE
            return tex, fbo

        def read_depth(fbo: int, width: int) -> np.ndarray:
            out = np.zeros(width, np.uint32)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
            glReadPixels(0, 0, width, 1, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, ctypes.c_void_p(out.ctypes.data))
            return out

        def bits(*values: float) -> np.ndarray:
            return np.array(values, np.float32).view(np.uint32)

        # The upload clamps.
        tex, fbo = depth_texture(4)
        values = np.array([1.5, -3.0, 0.25, 1.0], np.float32)
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        glTexSubImage2D(
            gl.GL_TEXTURE_2D, 0, 0, 0, 4, 1, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, ctypes.c_void_p(values.ctypes.data)
        )
        np.testing.assert_array_equal(read_depth(fbo, 4), bits(1.0, 0.0, 0.25, 1.0))

        # Fragment depth clamps.
        colour = mgl.texture((4, 1), 4, dtype="f4")
        draw_fbo = int(gl.glGenFramebuffers(1))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, draw_fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, colour.glo, 0)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_ATTACHMENT, gl.GL_TEXTURE_2D, tex, 0)
        vs = (
            "#version 330\nvoid main() { vec2 p[3] = vec2[3](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));"
            " gl_Position = vec4(p[gl_VertexID], 0, 1); }"
        )
        prog = mgl.program(
            vertex_shader=vs,
            fragment_shader="#version 330\nout vec4 o; void main() { float v[4] = float[4](1.5, -3.0, 0.5, 0.75);"
            " gl_FragDepth = v[int(gl_FragCoord.x)]; o = vec4(0); }",
        )
        vao = mgl.vertex_array(prog, [])
        gl.glViewport(0, 0, 4, 1)
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_ALWAYS)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glUseProgram(prog.glo)
        gl.glBindVertexArray(vao.glo)
        gl.glDrawArrays(gl.GL_TRIANGLES, 0, 3)
        gl.glDisable(gl.GL_DEPTH_TEST)
        np.testing.assert_array_equal(read_depth(fbo, 4), bits(1.0, 0.0, 0.5, 0.75))

        # A whole-attachment clear stores any float; a depth blit copies it.
        one, one_fbo = depth_texture(1)
        wanted = np.array([0x3FC00000, 0xC0400000, 0x80000000, 0xFFC12345], np.uint32)
        for i, b in enumerate(wanted):
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, one_fbo)
            value = np.array([b], np.uint32).view(np.float32)
            glClearBufferfv(gl.GL_DEPTH, 0, value.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, one_fbo)
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbo)
            glBlitFramebuffer(0, 0, 1, 1, i, 0, i + 1, 1, gl.GL_DEPTH_BUFFER_BIT, gl.GL_NEAREST)
        np.testing.assert_array_equal(read_depth(fbo, 4), wanted)

        # ... and a sampler sees the stored value (texelFetch, no compare).
        sampler = mgl.program(
            vertex_shader=vs,
            fragment_shader="#version 330\nuniform sampler2D t; out vec4 o;"
            " void main() { o = vec4(texelFetch(t, ivec2(gl_FragCoord.xy), 0).r); }",
        )
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, draw_fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_ATTACHMENT, gl.GL_TEXTURE_2D, 0, 0)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        gl.glUseProgram(sampler.glo)
        gl.glDrawArrays(gl.GL_TRIANGLES, 0, 3)
        seen = np.zeros((4, 4), np.float32)
        gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
        glReadPixels(0, 0, 4, 1, gl.GL_RGBA, gl.GL_FLOAT, ctypes.c_void_p(seen.ctypes.data))
        np.testing.assert_array_equal(seen[:, 0].view(np.uint32), wanted)

        # The clear value quiets a signalling NaN.
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, one_fbo)
        snan = np.array([0x7F800001], np.uint32).view(np.float32)
        glClearBufferfv(gl.GL_DEPTH, 0, snan.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        assert read_depth(one_fbo, 1)[0] == 0x7FC00001
        assert host.clear_errors() == []
    finally:
        host.release()
