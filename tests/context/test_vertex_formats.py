"""Vertex formats: every format is_format_supported(..., VERTEX_BUFFER)
claims is fetched by a draw and compared with the value the format's
definition gives its bytes; every other format is refused at
create_vertex_elements_state with an error naming it.

The expected values are decoded here from the format *name* (Gallium's
naming: channels listed from the least significant bits, each with its bit
count, then the type), independently of glpipe's format table:

* UNORM x / (2^n - 1); SNORM max(x / (2^(n-1) - 1), -1); USCALED / SSCALED
  float(x); FIXED x / 65536; FLOAT IEEE (16/32/64 bits), 10/11-bit floats
  decoded by hand; UINT / SINT the integer itself;
* components the format lacks read (0, 0, 0, 1); X channels are padding;
* raw doubles (R64*_UINT / _SINT) reach the shader as their 32-bit halves
  (TGSI keeps a double in a channel pair), at most two doubles per slot.

The VS passes IN[1] to a flat varying; the FS writes it to an RGBA32F
target (RGBA32UI / RGBA32I for pure integer formats, whose values must
arrive bit-exact).
"""

from __future__ import annotations

import re
import struct

import numpy as np
import pytest

import glpipe
from glpipe import (
    Bind,
    DrawInfo,
    Format,
    Prim,
    ShaderState,
    Target,
    VertexBuffer,
    VertexElement,
)
from glpipe.formats import util_format_description
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util import read_rgba32f, render_target
from .util_draw import FLAT_FS, read_rgba_int, zero_fill

VALUE_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

# Every format the format table gives a vertex fetch, whatever the profile:
# the test checks the claim (fetch it right) or the refusal (clear error).
FETCHABLE = [f for f in Format if util_format_description(f).vertex is not None]
NOT_FETCHABLE = [
    Format.A8_UNORM,
    Format.L8_UNORM,
    Format.L8A8_UNORM,
    Format.I8_UNORM,
    Format.R8G8B8A8_SRGB,
    Format.B5G6R5_UNORM,
    Format.Z24_UNORM_S8_UINT,
    Format.Z32_FLOAT,
    Format.ETC1_RGB8,
    Format.DXT1_RGB,
    Format.R9G9B9E5_FLOAT,
    Format.A8R8G8B8_UNORM,
    Format.X8B8G8R8_UNORM,
]

# Formats whose name is not their layout (Mesa: "the same bits as ...").
_LAYOUT_ALIAS = {"Z24_UNORM_S8_UINT_AS_R8G8B8A8": "R8G8B8A8_UNORM"}

_SLOT = {"R": 0, "G": 1, "B": 2, "A": 3}


@pytest.fixture(scope="module")
def contexts():
    made = {}
    yield made
    for c in made.values():
        c.destroy()


@pytest.fixture
def ctx(screen, profile, contexts):
    """One context per profile for the whole module (programs are cached)."""
    if profile not in contexts:
        contexts[profile] = screen.context_create()
    return contexts[profile]


def _layout(fmt: Format):
    """([(letter, bits)], type) from the format name."""
    name = _LAYOUT_ALIAS.get(fmt.name, fmt.name)
    chans, kind = name.rsplit("_", 1)
    return [(m.group(1), int(m.group(2))) for m in re.finditer(r"([RGBAX])(\d+)", chans)], kind


def _small_float(bits: int, exp_bits: int, man_bits: int) -> float:
    """An unsigned small float (the 10- and 11-bit channels of R11G11B10_FLOAT):
    bias 15, denormals when the exponent is 0."""
    e = bits >> man_bits
    m = bits & ((1 << man_bits) - 1)
    if e == 0:
        return m / (1 << man_bits) * 2.0**-14
    return (1 + m / (1 << man_bits)) * 2.0 ** (e - 15)


def _decode_channel(raw: int, bits: int, kind: str):
    if kind == "UNORM":
        return raw / ((1 << bits) - 1)
    signed = raw - (1 << bits) if raw >> (bits - 1) else raw
    if kind == "SNORM":
        return max(signed / ((1 << (bits - 1)) - 1), -1.0)
    if kind == "USCALED":
        return float(raw)
    if kind == "SSCALED":
        return float(signed)
    if kind == "FIXED":
        return signed / 65536.0
    if kind == "UINT":
        return raw
    if kind == "SINT":
        return signed
    if kind == "FLOAT":
        if bits == 16:
            return float(np.frombuffer(struct.pack("<H", raw), np.float16)[0])
        if bits == 32:
            return struct.unpack("<f", struct.pack("<I", raw))[0]
        if bits == 64:
            return struct.unpack("<d", struct.pack("<Q", raw))[0]
        if bits == 11:
            return _small_float(raw, 5, 6)
        if bits == 10:
            return _small_float(raw, 5, 5)
    raise AssertionError(f"no decoding for {bits}-bit {kind}")


def expected_value(fmt: Format, data: bytes):
    """What the vertex shader must read for one element of ``fmt`` (4 values)."""
    chans, kind = _layout(fmt)
    word = int.from_bytes(data, "little")
    if kind in ("UINT", "SINT") and chans[0][1] == 64:
        # Raw doubles: 32-bit halves, the first two doubles of the element.
        halves = [(word >> (32 * i)) & 0xFFFFFFFF for i in range(2 * min(len(chans), 2))]
        if kind == "SINT":
            halves = [h - (1 << 32) if h >> 31 else h for h in halves]
        return (halves + [0, 0, 0, 1][len(halves) :])[:4]
    out = [0, 0, 0, 1]
    shift = 0
    for letter, bits in chans:
        raw = (word >> shift) & ((1 << bits) - 1)
        shift += bits
        if letter != "X":
            out[_SLOT[letter]] = _decode_channel(raw, bits, kind)
    return out


def element_bytes(fmt: Format, rng, snorm_min: bool = False, uscaled_high: bool = False) -> bytes:
    """One element of ``fmt``: random bits, with floats kept finite.
    ``snorm_min`` puts the SNORM minimum (which must read -1) in the first
    channel, otherwise SNORM channels avoid it; ``uscaled_high`` sets the top
    bit of USCALED channels, otherwise they stay below 2^(n-1)."""
    chans, kind = _layout(fmt)
    word = 0
    shift = 0
    for i, (_letter, bits) in enumerate(chans):
        raw = (
            int(rng.integers(0, 1 << bits, dtype=np.uint64))
            if bits < 64
            else int(rng.integers(0, 1 << 62, dtype=np.uint64)) * 4 + 3
        )
        if kind == "FLOAT":
            value = float(rng.uniform(-500, 500))
            if bits == 16:
                raw = int(np.array([value], np.float16).view(np.uint16)[0])
            elif bits == 32:
                raw = struct.unpack("<I", struct.pack("<f", value))[0]
            elif bits == 64:
                raw = struct.unpack("<Q", struct.pack("<d", value))[0]
            else:  # 10/11-bit unsigned floats: any exponent below the Inf/NaN one
                man = bits - 5
                raw = (int(rng.integers(0, 31)) << man) | int(rng.integers(0, 1 << man))
        elif kind == "SNORM":
            if snorm_min and i == 0:
                raw = 1 << (bits - 1)  # the most negative value
            elif raw == 1 << (bits - 1):
                raw += 1
        elif kind == "USCALED":
            raw = raw | (1 << (bits - 1)) if uscaled_high else raw & ((1 << (bits - 1)) - 1)
        word |= raw << shift
        shift += bits
    return word.to_bytes(shift // 8, "little")


_SHADERS: dict = {}


def _shader(ctx, kind, text):
    key = (id(ctx), kind, text)
    if key not in _SHADERS:
        make = ctx.create_vs_state if kind == "vs" else ctx.create_fs_state
        _SHADERS[key] = make(ShaderState(tokens=text))
    return _SHADERS[key]


def _draw_value(ctx, fmt: Format, data: bytes, target, offset: int = 8):
    """Draw one point whose IN[1] is one element of ``fmt`` (``offset`` bytes
    into a stride-0 user buffer) into a 1x1 ``target``; return the target."""
    screen = ctx.screen
    color, _ = render_target(ctx, 1, 1, fmt=target)
    zero_fill(screen, color)
    ctx.bind_vs_state(_shader(ctx, "vs", VALUE_VS))
    ctx.bind_fs_state(_shader(ctx, "fs", FLAT_FS))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state(
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=offset, vertex_buffer_index=1, src_format=fmt),
            ]
        )
    )
    pos = np.array([0.0, 0.0, 0.0, 1.0], np.float32)
    buf = np.frombuffer(bytes(offset) + data + bytes(8), np.uint8).copy()
    ctx.set_vertex_buffers([VertexBuffer(buffer=pos, stride=16), VertexBuffer(buffer=buf, stride=0)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
    return color


def _fetch(ctx, fmt: Format, data: bytes):
    """The 4 values the VS read for ``data`` (ints for pure integer formats)."""
    desc = util_format_description(fmt)
    if desc.is_pure_uint or desc.is_pure_sint:
        target = Format.R32G32B32A32_UINT if desc.is_pure_uint else Format.R32G32B32A32_SINT
        color = _draw_value(ctx, fmt, data, target)
        return [int(v) for v in read_rgba_int(ctx.screen, color, signed=desc.is_pure_sint)[0, 0]]
    return read_rgba32f(ctx.screen, _draw_value(ctx, fmt, data, Format.R32G32B32A32_FLOAT))[0, 0]


def _check(fmt: Format, got, expected, data: bytes) -> None:
    desc = util_format_description(fmt)
    if desc.is_pure_uint or desc.is_pure_sint:
        assert got == [int(v) for v in expected], (fmt.name, data.hex())
    else:
        want = np.array(expected, np.float64).astype(np.float32)
        # 32-bit normalized values have more bits than a float's mantissa:
        # GL converts them in float precision, so allow a few ulps there.
        rtol = 1e-6 if re.match(r"R32.*_(UNORM|SNORM)$", fmt.name) else 2e-7
        assert np.allclose(got, want, rtol=rtol, atol=1e-9), (fmt.name, data.hex(), got, want)


@pytest.mark.parametrize("fmt", FETCHABLE, ids=lambda f: f.name)
def test_vertex_format_fetch(screen, ctx, fmt):
    """Random elements (finite floats), the SNORM minimum and USCALED values
    with the top bit set included except where the host deviates (below)."""
    claimed = screen.is_format_supported(fmt, Target.BUFFER, 0, 0, Bind.VERTEX_BUFFER)
    if not claimed:
        with pytest.raises(UnsupportedError, match=fmt.name):
            ctx.create_vertex_elements_state([VertexElement(src_format=fmt)])
        return
    rng = np.random.default_rng(int(fmt))
    for _ in range(2):
        data = element_bytes(
            fmt, rng, snorm_min=fmt not in SNORM_MIN_DEVIATES, uscaled_high=fmt not in USCALED_HIGH_DEVIATES
        )
        _check(fmt, _fetch(ctx, fmt, data), expected_value(fmt, data), data)


# Where llvmpipe's own fetch departs from the definition: the SNORM minimum
# of 8/10/16-bit channels (-128/127, not -1), and R32G32(B32(A32))_USCALED
# values with the top bit set (converted as signed).  glpipe corrects both
# through the shader variant (VariantKey.vs_input_types ``snorm`` /
# ``uscaled``); the tests below pin those cases down on every host.  (R32
# SNORM's minimum rounds to -1 in float anyway, and single-channel
# R32_USCALED converts correctly even without the fix.)
SNORM_MIN_DEVIATES = [f for f in FETCHABLE if f.name.endswith("_SNORM") and not f.name.startswith("R32")]
USCALED_HIGH_DEVIATES = [f for f in FETCHABLE if f.name.endswith("_USCALED") and f.name.startswith("R32G32")]


@pytest.mark.parametrize("fmt", SNORM_MIN_DEVIATES, ids=lambda f: f.name)
def test_snorm_minimum_reads_minus_one(screen, ctx, fmt):
    data = element_bytes(fmt, np.random.default_rng(1), snorm_min=True)
    _check(fmt, _fetch(ctx, fmt, data), expected_value(fmt, data), data)


@pytest.mark.parametrize("fmt", USCALED_HIGH_DEVIATES, ids=lambda f: f.name)
def test_uscaled32_high_values(screen, ctx, fmt):
    data = element_bytes(fmt, np.random.default_rng(2), uscaled_high=True)
    _check(fmt, _fetch(ctx, fmt, data), expected_value(fmt, data), data)


def test_expected_value_decoder_matches_hand_values():
    """The independent decoder itself, on values worked out by hand."""
    assert expected_value(Format.R8G8B8A8_UNORM, bytes([255, 0, 51, 128])) == [1.0, 0.0, 0.2, 128 / 255]
    assert expected_value(Format.B8G8R8A8_UNORM, bytes([255, 0, 51, 128])) == [0.2, 0.0, 1.0, 128 / 255]
    assert expected_value(Format.R8_SNORM, bytes([0x80])) == [-1.0, 0, 0, 1]
    assert expected_value(Format.R16G16_SSCALED, struct.pack("<hh", -7, 300)) == [-7.0, 300.0, 0, 1]
    # R10G10B10A2: R in bits 0-9, G 10-19, B 20-29, A 30-31.
    word = 1023 | (0 << 10) | (512 << 20) | (1 << 30)
    assert expected_value(Format.R10G10B10A2_UNORM, struct.pack("<I", word)) == [1.0, 0.0, 512 / 1023, 1 / 3]
    # 11-bit float 1.0: exponent 15, mantissa 0 -> bits 15 << 6; 10-bit 2.0: 16 << 5.
    word = (15 << 6) | ((15 << 6 | 32) << 11) | ((16 << 5) << 22)
    assert expected_value(Format.R11G11B10_FLOAT, struct.pack("<I", word)) == [1.0, 1.5, 2.0, 1]
    assert expected_value(Format.R32_FIXED, struct.pack("<i", -98304)) == [-1.5, 0, 0, 1]
    assert expected_value(Format.R64_UINT, struct.pack("<Q", 0x1122334455667788)) == [0x55667788, 0x11223344, 0, 1]
    assert expected_value(Format.R16G16B16X16_FLOAT, np.array([1, 2, 3, 9], np.float16).tobytes()) == [1.0, 2.0, 3.0, 1]


@pytest.mark.parametrize("fmt", NOT_FETCHABLE, ids=lambda f: f.name)
def test_formats_the_host_cannot_fetch_are_refused(screen, ctx, fmt):
    assert not screen.is_format_supported(fmt, Target.BUFFER, 0, 0, Bind.VERTEX_BUFFER)
    with pytest.raises(UnsupportedError, match=fmt.name):
        ctx.create_vertex_elements_state([VertexElement(src_format=fmt)])


def test_missing_feature_names_the_feature(screen, ctx):
    if screen.profile.has("vertex_type_10f_11f_11f_rev"):
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R11G11B10_FLOAT)])
    else:
        with pytest.raises(UnsupportedError, match="vertex_type_10f_11f_11f_rev"):
            ctx.create_vertex_elements_state([VertexElement(src_format=Format.R11G11B10_FLOAT)])


def test_bad_vertex_elements_are_rejected(ctx):
    with pytest.raises(InvalidArgumentError, match="vertex_buffer_index"):
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32_FLOAT, vertex_buffer_index=999)])
    with pytest.raises(InvalidArgumentError, match="elements\\[1\\]"):
        ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32_FLOAT), "not an element"])
    with pytest.raises(UnsupportedError, match="NONE"):
        ctx.create_vertex_elements_state([VertexElement()])
    with pytest.raises(InvalidArgumentError, match="stride"):
        ctx.set_vertex_buffers([VertexBuffer(buffer=np.zeros(16, np.float32), stride=-4)])


# ---------------------------------------------------------------------------
# Raw doubles across two slots (dual_slot) and the locations after them
# ---------------------------------------------------------------------------

DUAL_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[2]
  1: MOV OUT[1], IN[{slot}]
  2: END
"""


def test_dual_slot_raw_doubles_take_two_locations(screen, ctx):
    """R64G64B64A64_UINT with dual_slot feeds IN[0] (doubles x, y) and IN[1]
    (z, w); the next element is IN[2]."""
    fmt = Format.R64G64B64A64_UINT
    if not screen.is_format_supported(fmt, Target.BUFFER, 0, 0, Bind.VERTEX_BUFFER):
        with pytest.raises(UnsupportedError):
            ctx.create_vertex_elements_state([VertexElement(src_format=fmt, dual_slot=True)])
        return
    values = [0x0102030405060708, 0x1112131415161718, 0x2122232425262728, 0x3132333435363738]
    data = struct.pack("<4Q", *values)
    velems = ctx.create_vertex_elements_state(
        [
            VertexElement(src_offset=0, vertex_buffer_index=1, src_format=fmt, dual_slot=True),
            VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        ]
    )
    halves = [(v >> s) & 0xFFFFFFFF for v in values for s in (0, 32)]
    for slot, want in ((0, halves[:4]), (1, halves[4:])):
        color, _ = render_target(ctx, 1, 1, fmt=Format.R32G32B32A32_UINT)
        zero_fill(screen, color)
        ctx.bind_vs_state(_shader(ctx, "vs", DUAL_VS.format(slot=slot)))
        ctx.bind_fs_state(_shader(ctx, "fs", FLAT_FS))
        ctx.bind_vertex_elements_state(velems)
        ctx.set_vertex_buffers(
            [
                VertexBuffer(buffer=np.array([0, 0, 0, 1], np.float32), stride=16),
                VertexBuffer(buffer=np.frombuffer(data, np.uint8).copy(), stride=32),
            ]
        )
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
        assert [int(v) for v in read_rgba_int(screen, color, signed=False)[0, 0]] == want, slot


def test_vertex_elements_cso_types_per_location(ctx):
    """The CSO records each location's input kind (for VariantKey.vs_input_types)."""
    cso = ctx.create_vertex_elements_state(
        [
            VertexElement(src_format=Format.R8G8B8A8_UINT),
            VertexElement(src_format=Format.R16G16_SINT),
            VertexElement(src_format=Format.R8G8B8A8_UNORM),
        ]
    )
    assert cso.vs_input_types == ("uint", "int", "float")


def test_converted_formats_get_their_kind_and_fetch_path(ctx):
    """SNORM -> ``snorm`` (float path, normalized); 32-bit USCALED ->
    ``uscaled`` through the integer path; 16-bit USCALED stays a float fetch."""
    from glpipe.vertex import PATH_FLOAT, PATH_INTEGER

    cso = ctx.create_vertex_elements_state(
        [
            VertexElement(src_format=Format.R8G8_SNORM),
            VertexElement(src_format=Format.R32G32B32_USCALED),
            VertexElement(src_format=Format.R16G16_USCALED),
            VertexElement(src_format=Format.R32_SNORM),
        ]
    )
    assert cso.vs_input_types == ("snorm", "uscaled", "float", "snorm")
    assert [(a.size, a.normalized, a.path) for a in cso.attribs] == [
        (2, True, PATH_FLOAT),
        (3, False, PATH_INTEGER),
        (2, False, PATH_FLOAT),
        (1, True, PATH_FLOAT),
    ]


def test_instance_divisor_needs_no_more_than_the_profile(screen, ctx):
    cso = ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32_FLOAT, instance_divisor=3)])
    assert cso.elements[0].instance_divisor == 3
    assert screen.get_param(glpipe.Cap.VERTEX_ELEMENT_INSTANCE_DIVISOR) in (0, 1)


D2F_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}
  0: MOV TEMP[0], IMM[0]
  1: D2F TEMP[0].x, IN[1].xyxy
  2: D2F TEMP[0].y, IN[1].zwzw
  3: MOV OUT[1], TEMP[0]
  4: MOV OUT[0], IN[0]
  5: END
"""


def test_raw_doubles_are_doubles_in_the_shader(screen, ctx):
    """R64G64_UINT ("raw doubles") read by double opcodes: D2F of each
    channel pair gives float(the double) (needs DOUBLES)."""
    fmt = Format.R64G64_UINT
    if not (
        screen.profile.has("gpu_shader_fp64")
        and screen.is_format_supported(fmt, Target.BUFFER, 0, 0, Bind.VERTEX_BUFFER)
    ):
        with pytest.raises(UnsupportedError):
            ctx.create_vertex_elements_state([VertexElement(src_format=fmt)])
        return
    values = (1.0 / 3.0, -1234.5678)
    color, _ = render_target(ctx, 1, 1)
    zero_fill(screen, color)
    ctx.bind_vs_state(_shader(ctx, "vs", D2F_VS))
    ctx.bind_fs_state(_shader(ctx, "fs", FLAT_FS))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state(
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=0, vertex_buffer_index=1, src_format=fmt),
            ]
        )
    )
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=np.array([0, 0, 0, 1], np.float32), stride=16),
            VertexBuffer(buffer=np.array(values, np.float64), stride=16),
        ]
    )
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
    got = read_rgba32f(screen, color)[0, 0]
    assert np.array_equal(got, np.array([values[0], values[1], 0.0, 1.0], np.float32))


@pytest.mark.parametrize("user", [False, True], ids=["resource", "user"])
def test_unbound_vertex_buffer_reads_0001_in_the_declared_type(screen, ctx, user):
    """A vertex element whose vertex_buffer_index has no buffer bound reads
    (0, 0, 0, 1) in its declared type, as Gallium drivers give it: for
    R32G32B32A32_SINT / _UINT elements the integers 0, 0, 0, 1 (bit-exact,
    not the bits of float 1.0 = 0x3f800000), for a float element 0.0, 0.0,
    0.0, 1.0.  The kinds alternate on the same attribute location, so a
    value left there by the previous draw of another type would show.
    Positions come from a resource (cached VAO) or user memory (scratch
    VAO)."""
    from .util import vertex_buffer

    pos = np.array([0.0, 0.0, 0.0, 1.0], np.float32)
    pos_buf = pos if user else vertex_buffer(screen, pos)
    ctx.bind_vs_state(_shader(ctx, "vs", VALUE_VS))
    ctx.bind_fs_state(_shader(ctx, "fs", FLAT_FS))
    cases = [
        (Format.R32G32B32A32_FLOAT, Format.R32G32B32A32_FLOAT),
        (Format.R32G32B32A32_SINT,) * 2,
        (Format.R32G32B32A32_FLOAT, Format.R32G32B32A32_FLOAT),
        (Format.R32G32B32A32_UINT,) * 2,
        (Format.R32G32B32A32_SINT,) * 2,
    ]
    for fmt, target in cases:
        color, _ = render_target(ctx, 1, 1, fmt=target)
        zero_fill(screen, color)
        ctx.bind_vertex_elements_state(
            ctx.create_vertex_elements_state(
                [
                    VertexElement(src_format=Format.R32G32B32A32_FLOAT, vertex_buffer_index=0),
                    VertexElement(src_format=fmt, vertex_buffer_index=1),
                ]
            )
        )  # slot 1: nothing bound
        ctx.set_vertex_buffers([VertexBuffer(buffer=pos_buf, stride=16)])
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
        if fmt == Format.R32G32B32A32_FLOAT:
            got = read_rgba32f(screen, color)[0, 0].tolist()
        else:
            got = [int(v) for v in read_rgba_int(screen, color, signed=fmt == Format.R32G32B32A32_SINT)[0, 0]]
        assert got == [0, 0, 0, 1], fmt.name
