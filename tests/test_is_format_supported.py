"""is_format_supported and the probe behind it, on both host profiles.

Every claim is exercised on the host GL: a format claimed for SAMPLER_VIEW
is created through its table row, filled with texels whose expected
sampled values are computed here in numpy from the format's definition
(the layout its *name* spells, the Gallium/GL conversion rules), sampled
with texelFetch into a 32-bit float (or integer) target and compared;
RENDER_TARGET claims are attached, cleared and read back; DEPTH_STENCIL
claims attach and clear as depth/stencil; multisample claims are made at
that count; VERTEX_BUFFER claims are fetched as vertex attributes.
"""

from __future__ import annotations

import ctypes
import re
import time

import numpy as np
import pytest

from fallback.format_pack import to_host, unpack_rgba
from glpipe.enums import Bind, Target
from glpipe.errors import InvalidArgumentError
from glpipe.formats import (
    FORMAT_TABLE,
    Format,
    FormatSupport,
    _Prober,
    format_desc,
    host_decodes,
    host_storage,
    is_format_supported,
    probe_format_support,
    supported_formats,
)
from glpipe.host.features import FEATURES, granted

# ---------------------------------------------------------------------------
# Host fixture: the shared one once glpipe.create_screen exists, else a
# host made here for the session's profile.
# ---------------------------------------------------------------------------

_HOSTS: dict = {}


@pytest.fixture
def _host(request, profile):
    import glpipe

    if hasattr(glpipe, "create_screen"):
        return request.getfixturevalue("host")
    from glpipe.host.gl import create_host

    if profile not in _HOSTS:
        _HOSTS[profile] = create_host(profile=profile)
    h = _HOSTS[profile]
    h.make_current()
    return h


@pytest.fixture
def support(_host) -> FormatSupport:
    return probe_format_support(_host)


# ---------------------------------------------------------------------------
# GL plumbing for the tests
# ---------------------------------------------------------------------------

GL_TEXTURE_2D = 0x0DE1
GL_TEXTURE_2D_MULTISAMPLE = 0x9100
GL_FRAMEBUFFER = 0x8D40
GL_FRAMEBUFFER_COMPLETE = 0x8CD5
GL_COLOR_ATTACHMENT0 = 0x8CE0
GL_DEPTH_ATTACHMENT = 0x8D00
GL_STENCIL_ATTACHMENT = 0x8D20
GL_DEPTH_STENCIL_ATTACHMENT = 0x821A
GL_COLOR, GL_DEPTH, GL_STENCIL, GL_DEPTH_STENCIL = 0x1800, 0x1801, 0x1802, 0x84F9
SWIZZLE_TO_GL = {0: 0x1903, 1: 0x1904, 2: 0x1905, 3: 0x1906, 4: 0, 5: 1}  # RED GREEN BLUE ALPHA ZERO ONE


class Raw:
    """PyOpenGL's unwrapped pointer-taking entry points (no type-driven
    conversion of the data argument)."""

    def __init__(self):
        from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_3, GL_2_0, GL_3_0

        self.TexImage2D = GL_1_0.glTexImage2D
        self.GetTexImage = GL_1_0.glGetTexImage
        self.CompressedTexImage2D = GL_1_3.glCompressedTexImage2D
        self.VertexAttribPointer = GL_2_0.glVertexAttribPointer
        self.VertexAttribIPointer = GL_3_0.glVertexAttribIPointer
        from OpenGL.raw.GL.VERSION import GL_4_1

        self.VertexAttribLPointer = GL_4_1.glVertexAttribLPointer


_RAW = None


def raw() -> Raw:
    global _RAW
    if _RAW is None:
        _RAW = Raw()
    return _RAW


def ptr(buf) -> ctypes.c_void_p:
    return ctypes.c_void_p(buf.ctypes.data)


def reset_raster_state(gl):
    """Fixed-function state that would disturb the checks."""
    for cap in (0x0BE2, 0x0B71, 0x0C11, 0x0B44, 0x8C89, 0x8DB9):  # BLEND DEPTH_TEST SCISSOR CULL DISCARD FB_SRGB
        gl.glDisable(cap)
    gl.glColorMask(True, True, True, True)
    # The host is shared with the glpipe contexts of earlier tests, whose last
    # rasterizer may have left polygons drawn as lines or points.
    gl.glPolygonMode(0x0408, 0x1B02)  # FRONT_AND_BACK, FILL
    gl.glDepthMask(True)
    gl.glStencilMask(0xFF)
    gl.glBindSampler(0, 0)
    gl.glPixelStorei(0x0CF5, 1)  # UNPACK_ALIGNMENT
    gl.glPixelStorei(0x0D05, 1)  # PACK_ALIGNMENT
    gl.glBindBuffer(0x88EC, 0)  # PIXEL_UNPACK_BUFFER
    gl.glBindBuffer(0x88EB, 0)  # PIXEL_PACK_BUFFER


def new_texture(host, hf, width, height, data=None, compressed_size=0):
    """A 2D texture of storage ``hf`` (a HostFormat), optionally filled."""
    gl = host.gl
    gl.glActiveTexture(0x84C0)
    tex = int(gl.glGenTextures(1))
    gl.glBindTexture(GL_TEXTURE_2D, tex)
    if hf.compressed:
        raw().CompressedTexImage2D(GL_TEXTURE_2D, 0, hf.internal_format, width, height, 0, compressed_size, ptr(data))
    else:
        raw().TexImage2D(
            GL_TEXTURE_2D,
            0,
            hf.internal_format,
            width,
            height,
            0,
            hf.gl_format,
            hf.gl_type,
            None if data is None else ptr(data),
        )
    gl.glTexParameteri(GL_TEXTURE_2D, 0x2801, 0x2600)  # MIN_FILTER NEAREST
    gl.glTexParameteri(GL_TEXTURE_2D, 0x2800, 0x2600)  # MAG_FILTER NEAREST
    gl.glTexParameteri(GL_TEXTURE_2D, 0x813D, 0)  # MAX_LEVEL 0
    gl.glTexParameteriv(GL_TEXTURE_2D, 0x8E46, np.array([SWIZZLE_TO_GL[s] for s in hf.swizzle], np.int32))
    return tex


# ---------------------------------------------------------------------------
# The format definition model: layouts from names, Gallium conversions
# ---------------------------------------------------------------------------

_KINDS = {
    "UNORM": "unorm",
    "SNORM": "snorm",
    "UINT": "uint",
    "SINT": "sint",
    "FLOAT": "float",
    "USCALED": "uscaled",
    "SSCALED": "sscaled",
    "FIXED": "fixed",
    "SRGB": "unorm",
}
_NAME_RE = re.compile(r"((?:[RGBAXLI]\d+)+)_(UNORM|SNORM|UINT|SINT|FLOAT|USCALED|SSCALED|FIXED|SRGB)")
# Formats whose names do not spell their layout: written out by hand.
_SPECIAL = {
    "Y8_UNORM": ([("unorm", 8)], "x001"),
    "Y8_400_UNORM": ([("unorm", 8)], "x001"),
    "Z24_UNORM_S8_UINT_AS_R8G8B8A8": ([("unorm", 8)] * 4, "xyzw"),
    "R11G11B10_FLOAT": ([("uf11", 11), ("uf11", 11), ("uf10", 10)], "xyz1"),
    "R9G9B9E5_FLOAT": ([("m9", 9), ("m9", 9), ("m9", 9), ("e5", 5)], "xyz1"),
}


def layout(name: str):
    """([(kind, bits)], swizzle) of a colour format, from its name."""
    if name in _SPECIAL:
        return _SPECIAL[name]
    m = _NAME_RE.fullmatch(name)
    if m is None:
        return None
    comps = re.findall(r"([RGBAXLI])(\d+)", m.group(1))
    kind = _KINDS[m.group(2)]
    letters = [c for c, _ in comps]
    chans = [("void" if c == "X" else kind, int(b)) for c, b in comps]
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
    return chans, swz


def random_raw(kind, bits, rng, n):
    """n raw channel values (Python ints, two's complement not applied)."""
    if kind in ("unorm", "uint", "uscaled", "void", "m9", "e5"):
        return [int(v) for v in rng.randint(0, 2**bits, size=n, dtype=np.uint64)]
    if kind in ("snorm",):
        # -2^(n-1) and -2^(n-1)+1 both mean -1.0; keep the symmetric range.
        lim = 2 ** (bits - 1) - 1
        return [int(v) for v in rng.randint(-lim, lim + 1, size=n)]
    if kind in ("sint", "sscaled", "fixed"):
        return [int(v) for v in rng.randint(-(2 ** (bits - 1)), 2 ** (bits - 1), size=n, dtype=np.int64)]
    if kind == "float":
        dt = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
        vals = (rng.uniform(-4, 4, size=n)).astype(dt)
        return [int(v) for v in vals.view({16: np.uint16, 32: np.uint32, 64: np.uint64}[bits])]
    if kind in ("uf11", "uf10"):
        mbits = bits - 5
        e = rng.randint(0, 31, size=n)  # exponent 31 is inf/NaN
        m = rng.randint(0, 2**mbits, size=n)
        return [int(ei) << mbits | int(mi) for ei, mi in zip(e, m, strict=True)]
    raise AssertionError(kind)


def decode(kind, bits, v):
    """Gallium's value of raw channel bits ``v`` (ints stay ints)."""
    if kind == "unorm":
        return v / (2**bits - 1)
    if kind == "snorm":
        return max(v / (2 ** (bits - 1) - 1), -1.0)
    if kind in ("uint", "sint"):
        return int(v)
    if kind in ("uscaled", "sscaled"):
        return float(v)
    if kind == "fixed":
        return v / 65536.0
    if kind == "float":
        u = np.array([v], {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits])
        return float(u.view({16: np.float16, 32: np.float32, 64: np.float64}[bits])[0])
    if kind in ("uf11", "uf10"):  # unsigned small floats, 5-bit exponent bias 15
        mbits = bits - 5
        e, m = v >> mbits, v & (2**mbits - 1)
        if e == 0:
            return m / 2**mbits * 2.0**-14
        return 2.0 ** (e - 15) * (1 + m / 2**mbits)
    raise AssertionError(kind)


def encode(kind, bits, value):
    """Raw bits Gallium stores for ``value`` (the inverse of decode)."""
    if kind == "unorm":
        return int(round(value * (2**bits - 1)))
    if kind == "snorm":
        return int(round(value * (2 ** (bits - 1) - 1)))
    if kind in ("uint", "sint"):
        return int(value)
    raise AssertionError(kind)


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def pack(chans, raws, n):
    """Little-endian blocks: channel i at the bits after channels < i."""
    size = sum(b for _, b in chans) // 8
    out = bytearray()
    for t in range(n):
        word, shift = 0, 0
        for (_kind, bits), vals in zip(chans, raws, strict=True):
            word |= (vals[t] & (2**bits - 1)) << shift
            shift += bits
        out += word.to_bytes(size, "little")
    return np.frombuffer(bytes(out), np.uint8).copy()


def unpack(chans, data, n):
    size = sum(b for _, b in chans) // 8
    raws = [[] for _ in chans]
    for t in range(n):
        word = int.from_bytes(bytes(data[t * size : (t + 1) * size]), "little")
        shift = 0
        for i, (kind, bits) in enumerate(chans):
            v = (word >> shift) & (2**bits - 1)
            if kind in ("snorm", "sint", "sscaled", "fixed") and v >> (bits - 1):
                v -= 2**bits
            raws[i].append(v)
            shift += bits
    return raws


def texel_values(name, chans, swz, raws, t, srgb_decode=True):
    """The RGBA Gallium defines for texel ``t`` of a colour format (with
    ``srgb_decode=False``: the stored sRGB values themselves)."""
    if name == "R9G9B9E5_FLOAT":  # shared exponent, bias 15, 9-bit mantissas
        e = raws[3][t]
        chan_vals = [raws[i][t] * 2.0 ** (e - 15 - 9) for i in range(3)] + [0.0]
    else:
        chan_vals = [decode(k, b, raws[i][t]) if k != "void" else None for i, (k, b) in enumerate(chans)]
    integer = any(k in ("uint", "sint") for k, _ in chans)
    one = 1 if integer else 1.0
    out = []
    for i, s in enumerate(swz):
        if s == "0":
            out.append(0)
        elif s == "1":
            out.append(one)
        else:
            v = chan_vals["xyzw".index(s)]
            if srgb_decode and name.endswith("_SRGB") and i < 3:
                v = srgb_to_linear(v)
            out.append(v)
    return out


# ---------------------------------------------------------------------------
# Sampling through a tiny program
# ---------------------------------------------------------------------------

_VS = """
#version 330
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
"""
_FS = """
#version 330
uniform {prefix}sampler2D tex;
out {prefix}vec4 color;
void main() {{ color = texelFetch(tex, ivec2(gl_FragCoord.xy), 0); }}
"""
_PROGRAMS: dict = {}
_TARGETS: dict = {}


def render_target(host, width, height, dtype):
    """A ModernGL framebuffer with one RGBA 32-bit colour texture, kept for
    the session: ModernGL re-binds its last used framebuffer after creating
    another, so releasing one it remembers would leave it binding a deleted
    name."""
    key = (id(host), width, height, dtype)
    if key not in _TARGETS:
        tex = host.mgl.texture((width, height), 4, dtype=dtype)
        _TARGETS[key] = (tex, host.mgl.framebuffer(color_attachments=[tex]))
    return _TARGETS[key][1]


def sample_texture(host, tex, width, height, kind):
    """texelFetch every texel of ``tex`` (bound on unit 0) into a 32-bit
    float / int / uint target; returns an array [height, width, 4]."""
    prefix, dtype, np_dtype = {
        "float": ("", "f4", np.float32),
        "int": ("i", "i4", np.int32),
        "uint": ("u", "u4", np.uint32),
    }[kind]
    mgl = host.mgl
    key = (id(host), prefix)
    if key not in _PROGRAMS:
        prog = mgl.program(vertex_shader=_VS, fragment_shader=_FS.format(prefix=prefix))
        _PROGRAMS[key] = (prog, mgl.vertex_array(prog, []))
    prog, vao = _PROGRAMS[key]
    fbo = render_target(host, width, height, dtype)
    fbo.use()
    reset_raster_state(host.gl)
    host.gl.glActiveTexture(0x84C0)
    host.gl.glBindTexture(GL_TEXTURE_2D, tex)
    vao.render(mode=0x0004, vertices=3)  # TRIANGLES: one covering triangle
    return np.frombuffer(fbo.read(components=4, dtype=dtype), np_dtype).reshape(height, width, 4)


def sampler_kind(desc) -> str:
    if desc.is_pure_uint:
        return "uint"
    if desc.is_pure_integer:
        return "int"
    return "float"


# ---------------------------------------------------------------------------
# SAMPLER_VIEW claims: colour formats, values checked
# ---------------------------------------------------------------------------


def _claimed(support, bind, target=Target.TEXTURE_2D, samples=0):
    return [f for f in Format if f != Format.NONE and is_format_supported(support, f, target, samples, samples, bind)]


def _upload_bytes(desc, hf, chans, swz, raws, n):
    """What to hand GL for texels ``raws`` of ``desc``: the bytes themselves,
    or, for a row that converts (``via``), the same values in the transfer
    format's layout (as fallback.format_pack will produce them)."""
    if hf.transfer_as is None:
        return pack(chans, raws, n)
    via = format_desc(hf.transfer_as)
    vchans, vswz = layout(via.name)
    # Between two sRGB formats the stored (encoded) values are copied.
    decode_srgb = not (desc.is_srgb and via.is_srgb)
    values = [texel_values(desc.name, chans, swz, raws, t, srgb_decode=decode_srgb) for t in range(n)]
    vraws = [[0] * n for _ in vchans]
    for comp, s in enumerate(vswz):
        if s in "xyzw":
            i = "xyzw".index(s)
            kind, bits = vchans[i]
            for t in range(n):
                vraws[i][t] = encode(kind, bits, values[t][comp])
    return pack(vchans, vraws, n)


def test_sampler_view_claims_sample_as_defined(_host, support):
    rng = np.random.RandomState(1234)
    w = h = 4
    n = w * h
    checked = []
    for fmt in _claimed(support, Bind.SAMPLER_VIEW):
        desc = format_desc(fmt)
        if desc.is_compressed or desc.is_depth_or_stencil:
            continue
        lay = layout(desc.name)
        assert lay is not None, f"{desc.name}: claimed but no test model"
        chans, swz = lay
        hf = host_storage(fmt, support)
        raws = [random_raw(k, b, rng, n) for k, b in chans]
        data = _upload_bytes(desc, hf, chans, swz, raws, n)
        if hf.needs_conversion:  # fallback.format_pack makes the same values in every channel sampling sees
            # (it keeps bits the value model drops: SNORM -128, padding in a channel the swizzle hides)
            seen = sorted({s for s in hf.swizzle if s <= 3})
            sent = unpack_rgba(hf.transfer_as, to_host(fmt, hf, pack(chans, raws, n), n), n)[:, seen]
            np.testing.assert_array_equal(sent, unpack_rgba(hf.transfer_as, data, n)[:, seen], err_msg=desc.name)
        tex = new_texture(_host, hf, w, h, data)
        _host.check(f"upload {desc.name}")
        got = sample_texture(_host, tex, w, h, sampler_kind(desc))
        _host.gl.glDeleteTextures(1, [tex])
        _host.check(f"sample {desc.name}")
        want = np.array([texel_values(desc.name, chans, swz, raws, t) for t in range(n)], np.float64)
        got = got.reshape(n, 4).astype(np.float64)
        if sampler_kind(desc) != "float":
            np.testing.assert_array_equal(got, want, err_msg=desc.name)
        else:
            # One 8-bit step for channels under 8 bits (GL may keep them
            # wider), tight elsewhere; sRGB decode through a table.
            small = min(b for k, b in chans if k != "void") < 8
            atol = 1 / 255 + 1e-4 if small else (2e-3 if desc.is_srgb else 2e-4)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=atol, err_msg=desc.name)
        checked.append(desc.name)
    # The common formats are among those checked on every profile.
    for name in (
        "R8G8B8A8_UNORM",
        "B8G8R8A8_UNORM",
        "A8_UNORM",
        "L8_UNORM",
        "I8_UNORM",
        "L8A8_UNORM",
        "B8G8R8X8_UNORM",
        "R16G16B16A16_FLOAT",
        "R32G32B32A32_FLOAT",
        "R16_UNORM",
        "R8G8_SNORM",
        "R32_UINT",
        "R8G8B8A8_SINT",
        "B5G6R5_UNORM",
        "R10G10B10A2_UNORM",
        "R11G11B10_FLOAT",
        "A8B8G8R8_SNORM",
        "R10G10B10A2_SINT",
        "R8G8B8A8_SRGB",
        "A4B4G4R4_UNORM",
        "R5G6B5_UINT",
    ):
        assert name in checked, name
    assert len(checked) > 200


# Known blocks (expected RGBA by the compression specs; see each comment).
_DXT1 = bytes([0x1F, 0xF8, 0, 0, 0, 0, 0, 0])  # c0 = 565 magenta > c1 = 0, indices 0 -> c0
_RGTC_U1 = bytes([255, 0, 0, 0, 0, 0, 0, 0])  # red0 = 255, index 0 -> 1.0
_RGTC_U0 = bytes([0, 255, 0, 0, 0, 0, 0, 0])  # red0 = 0 -> 0.0
_RGTC_S1 = bytes([127, 0x80, 0, 0, 0, 0, 0, 0])  # red0 = 127 -> 1.0
_RGTC_SM1 = bytes([0x81, 127, 0, 0, 0, 0, 0, 0])  # red0 = -127 -> -1.0
# ETC1 individual mode: R1=R2=B1=B2=15, G=0, table 0, every pixel index
# (msb 0, lsb 1) = +8: R, B clamp to 255, G = 8.
_ETC1 = bytes([0xFF, 0x00, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0xFF])
_EAC_MAX = bytes([0xFF, 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])  # base 255, mult 1, table 0, idx 7 (+14)
_EAC_MIN = bytes([0x00, 0x10, 0, 0, 0, 0, 0, 0])  # base 0, idx 0 (-3) -> clamps to 0
_EAC_SMAX = bytes([0x7F, 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])  # signed base 127 -> 1.0
_EAC_SMIN = bytes([0x80, 0x10, 0, 0, 0, 0, 0, 0])  # signed base -128 -> -1.0


def _bc7_mode6_block() -> bytes:
    # Mode 6 (bit 6), every endpoint bit and both p-bits set except G0:
    # endpoint 0 = (255, 1, 255, 255); all indices 0 pick endpoint 0.
    v = 1 << 6
    for bit in range(7, 65):
        v |= 1 << bit
    g0 = 7 + 14  # R0, R1 precede G0, 7 bits each
    for bit in range(g0, g0 + 7):
        v &= ~(1 << bit)
    return v.to_bytes(16, "little")


def _astc_void_extent(rgba16) -> bytes:
    # LDR void-extent block: 0x1FC marker, LDR, reserved 11, no extent,
    # then a constant RGBA colour as four UNORM16 values.
    return bytes([0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) + np.array(rgba16, "<u2").tobytes()


def _srgb(c):
    return srgb_to_linear(c)


def _compressed_case(name):
    """(block bytes, expected RGBA) for formats with a hand-made block."""
    g8 = 8 / 255
    cases = {
        "DXT1_RGB": (_DXT1, (1, 0, 1, 1)),
        "DXT1_RGBA": (_DXT1, (1, 0, 1, 1)),
        "DXT1_SRGB": (_DXT1, (1, 0, 1, 1)),
        "DXT1_SRGBA": (_DXT1, (1, 0, 1, 1)),
        "DXT3_RGBA": (b"\xff" * 8 + _DXT1, (1, 0, 1, 1)),
        "DXT3_SRGBA": (b"\xff" * 8 + _DXT1, (1, 0, 1, 1)),
        "DXT5_RGBA": (_RGTC_U1 + _DXT1, (1, 0, 1, 1)),
        "DXT5_SRGBA": (_RGTC_U1 + _DXT1, (1, 0, 1, 1)),
        "RGTC1_UNORM": (_RGTC_U1, (1, 0, 0, 1)),
        "RGTC1_SNORM": (_RGTC_S1, (1, 0, 0, 1)),
        "RGTC2_UNORM": (_RGTC_U1 + _RGTC_U0, (1, 0, 0, 1)),
        "RGTC2_SNORM": (_RGTC_S1 + _RGTC_SM1, (1, -1, 0, 1)),
        "LATC1_UNORM": (_RGTC_U1, (1, 1, 1, 1)),
        "LATC1_SNORM": (_RGTC_S1, (1, 1, 1, 1)),
        "LATC2_UNORM": (_RGTC_U1 + _RGTC_U0, (1, 1, 1, 0)),
        "LATC2_SNORM": (_RGTC_S1 + _RGTC_SM1, (1, 1, 1, -1)),
        "ETC1_RGB8": (_ETC1, (1, g8, 1, 1)),
        "ETC2_RGB8": (_ETC1, (1, g8, 1, 1)),
        "ETC2_SRGB8": (_ETC1, (1, _srgb(g8), 1, 1)),
        "ETC2_RGBA8": (_EAC_MAX + _ETC1, (1, g8, 1, 1)),
        "ETC2_SRGBA8": (_EAC_MAX + _ETC1, (1, _srgb(g8), 1, 1)),
        "ETC2_R11_UNORM": (_EAC_MAX, (1, 0, 0, 1)),
        "ETC2_RG11_UNORM": (_EAC_MAX + _EAC_MIN, (1, 0, 0, 1)),
        "ETC2_R11_SNORM": (_EAC_SMAX, (1, 0, 0, 1)),
        "ETC2_RG11_SNORM": (_EAC_SMAX + _EAC_SMIN, (1, -1, 0, 1)),
        "BPTC_RGBA_UNORM": (_bc7_mode6_block(), (1, 1 / 255, 1, 1)),
        "BPTC_SRGBA": (_bc7_mode6_block(), (1, _srgb(1 / 255), 1, 1)),
    }
    if name in cases:
        return cases[name]
    if name.startswith("ASTC_") and not name.endswith("_FLOAT"):
        return _astc_void_extent((0xFFFF, 0, 0xFFFF, 0xFFFF)), (1, 0, 1, 1)
    return None


def test_compressed_claims_sample(_host, support):
    valued = []
    for fmt in _claimed(support, Bind.SAMPLER_VIEW):
        desc = format_desc(fmt)
        if not desc.is_compressed:
            continue
        hf = host_storage(fmt, support)
        w, h = desc.block_width, desc.block_height
        case = _compressed_case(desc.name)
        block = case[0] if case else bytes(desc.blocksize)  # zeros: any decode will do
        data = np.frombuffer(block, np.uint8).copy()
        assert data.size == desc.blocksize, desc.name
        if host_decodes(desc, hf):
            # Stored decoded (fallback.compressed): upload what the transfer path uploads.
            from fallback.compressed import decode_blocks

            data = decode_blocks(desc.format, data.reshape(1, 1, -1), w, h).reshape(-1)
        tex = new_texture(_host, hf, w, h, data, compressed_size=desc.blocksize)
        _host.check(f"upload {desc.name}")
        got = sample_texture(_host, tex, w, h, "float").reshape(-1, 4)
        _host.gl.glDeleteTextures(1, [tex])
        _host.check(f"sample {desc.name}")
        assert np.isfinite(got).all(), desc.name
        if case:
            np.testing.assert_allclose(got, np.tile(case[1], (w * h, 1)), atol=2e-3, err_msg=desc.name)
            valued.append(desc.name)
    if host_storage(Format.DXT1_RGB, support) is not None:
        assert "DXT1_RGB" in valued and "DXT5_SRGBA" in valued
    assert "RGTC2_SNORM" in valued and "LATC2_UNORM" in valued  # RGTC is GL 3.0 core


def _depth_upload(desc, hf, rng, n):
    """(bytes in the transfer layout, expected depth, expected stencil) for a ZS format."""
    via = format_desc(hf.transfer_as) if hf.transfer_as is not None else desc
    z24 = [int(v) for v in rng.randint(0, 2**24, size=n)]
    s8 = [int(v) for v in rng.randint(0, 256, size=n)]
    name = via.name
    if name == "Z16_UNORM":
        z = [int(v) for v in rng.randint(0, 2**16, size=n)]
        return np.array(z, "<u2").view(np.uint8), [v / 65535 for v in z], None
    if name == "Z32_UNORM":
        if desc.name in ("Z24X8_UNORM", "X8Z24_UNORM"):
            # 24-bit depth sent as 32-bit unorm: bit replication keeps the value.
            z32 = [(v << 8) | (v >> 16) for v in z24]
            return np.array(z32, "<u4").view(np.uint8), [v / (2**24 - 1) for v in z24], None
        z = [int(v) for v in rng.randint(0, 2**32, size=n, dtype=np.uint64)]
        return np.array(z, "<u4").view(np.uint8), [v / (2**32 - 1) for v in z], None
    if name == "Z32_FLOAT":
        z = rng.uniform(0, 1, size=n).astype(np.float32)
        return z.view(np.uint8), [float(v) for v in z], None
    if name == "S8_UINT_Z24_UNORM":  # GL's UNSIGNED_INT_24_8: depth high, stencil low
        words = [(z << 8) | s for z, s in zip(z24, s8, strict=True)]
        return np.array(words, "<u4").view(np.uint8), [v / (2**24 - 1) for v in z24], s8
    if name == "Z32_FLOAT_S8X24_UINT":
        z = rng.uniform(0, 1, size=n).astype(np.float32)
        words = np.zeros((n, 2), "<u4")
        words[:, 0] = z.view(np.uint32)
        words[:, 1] = s8
        return words.view(np.uint8).ravel(), [float(v) for v in z], s8
    if name == "S8_UINT":
        return np.array(s8, np.uint8), None, s8
    raise AssertionError(f"no depth model for {desc.name} via {name}")


def test_depth_stencil_formats_sample(_host, support):
    rng = np.random.RandomState(99)
    w = h = 4
    n = w * h
    done = []
    for fmt in _claimed(support, Bind.SAMPLER_VIEW):
        desc = format_desc(fmt)
        if not desc.is_depth_or_stencil:
            continue
        hf = host_storage(fmt, support)
        data, depth, stencil = _depth_upload(desc, hf, rng, n)
        tex = new_texture(_host, hf, w, h, np.ascontiguousarray(data))
        _host.check(f"upload {desc.name}")
        if depth is not None:
            got = sample_texture(_host, tex, w, h, "float").reshape(n, 4)[:, 0]
            np.testing.assert_allclose(got, depth, atol=2e-7 * 4, err_msg=desc.name)
        else:  # stencil-only: sampled as an unsigned integer texture
            got = sample_texture(_host, tex, w, h, "uint").reshape(n, 4)[:, 0]
            np.testing.assert_array_equal(got, stencil, err_msg=desc.name)
        _host.gl.glDeleteTextures(1, [tex])
        _host.check(f"sample {desc.name}")
        done.append(desc.name)
    for name in (
        "Z16_UNORM",
        "Z32_FLOAT",
        "Z24_UNORM_S8_UINT",
        "S8_UINT_Z24_UNORM",
        "Z24X8_UNORM",
        "Z32_FLOAT_S8X24_UINT",
    ):
        assert name in done, name


# ---------------------------------------------------------------------------
# RENDER_TARGET and DEPTH_STENCIL claims: attach, clear, read back
# ---------------------------------------------------------------------------


def _attach(host, tex, point, target=GL_TEXTURE_2D):
    gl = host.gl
    fbo = int(gl.glGenFramebuffers(1))
    gl.glBindFramebuffer(GL_FRAMEBUFFER, fbo)
    gl.glFramebufferTexture2D(GL_FRAMEBUFFER, point, target, tex, 0)
    if point != GL_COLOR_ATTACHMENT0:
        gl.glDrawBuffer(0)
        gl.glReadBuffer(0)
    status = int(gl.glCheckFramebufferStatus(GL_FRAMEBUFFER))
    return fbo, status


def _readback(host, tex, hf, nbytes):
    out = np.zeros(nbytes, np.uint8)
    host.gl.glActiveTexture(0x84C0)
    host.gl.glBindTexture(GL_TEXTURE_2D, tex)
    raw().GetTexImage(GL_TEXTURE_2D, 0, hf.gl_format, hf.gl_type, ptr(out))
    return out


def _clear_values(chans, rng):
    """Per-channel raw values for a clear that every format stores exactly."""
    vals = []
    for kind, bits in chans:
        if kind == "float" and bits == 16:
            vals.append(int(np.float16(rng.choice([0.5, -2.0, 1.25, 3.0])).view(np.uint16)))
        elif kind == "float":
            vals.append(int(np.float32(rng.uniform(-8, 8)).view(np.uint32)))
        elif kind in ("uf11", "uf10"):
            vals.append({11: 0b01110_000000, 10: 0b10000_00000}[bits] | (rng.randint(0, 4)))
        else:
            vals.append(random_raw(kind, bits, rng, 1)[0])
    return vals


def test_render_target_claims_clear_and_read_back(_host, support):
    gl = _host.gl
    rng = np.random.RandomState(7)
    w = h = 4
    checked = []
    reset_raster_state(gl)
    for fmt in _claimed(support, Bind.RENDER_TARGET):
        desc = format_desc(fmt)
        hf = host_storage(fmt, support)
        assert not hf.emulated, f"{desc.name}: an emulated format claims RENDER_TARGET"
        chans, swz = layout(desc.name)
        raws = [[v] for v in _clear_values(chans, rng)]
        # FRAMEBUFFER_SRGB is off, so an sRGB clear stores the value as given.
        color = texel_values(desc.name, chans, swz, raws, 0, srgb_decode=False)
        tex = new_texture(_host, hf, w, h)
        fbo, status = _attach(_host, tex, GL_COLOR_ATTACHMENT0)
        assert status == GL_FRAMEBUFFER_COMPLETE, desc.name
        kind = sampler_kind(desc)
        if kind == "uint":
            gl.glClearBufferuiv(GL_COLOR, 0, np.array(color, np.uint32))
        elif kind == "int":
            gl.glClearBufferiv(GL_COLOR, 0, np.array(color, np.int32))
        else:
            gl.glClearBufferfv(GL_COLOR, 0, np.array(color, np.float32))
        _host.check(f"clear {desc.name}")
        read_desc = format_desc(hf.transfer_as) if hf.transfer_as is not None else desc
        rchans, rswz = layout(read_desc.name)
        data = _readback(_host, tex, hf, w * h * read_desc.blocksize)
        _host.check(f"read back {desc.name}")
        got = unpack(rchans, data, w * h)
        want = _upload_bytes(desc, hf, chans, swz, [[r[0]] * (w * h) for r in raws], w * h)
        want_raws = unpack(rchans, want, w * h)
        for i, (k, _) in enumerate(rchans):
            if k != "void":
                assert got[i] == want_raws[i], f"{desc.name} channel {i}: {got[i][:2]} != {want_raws[i][:2]}"
        gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
        gl.glDeleteFramebuffers(1, [fbo])
        gl.glDeleteTextures(1, [tex])
        checked.append(desc.name)
    for name in (
        "R8G8B8A8_UNORM",
        "B8G8R8A8_UNORM",
        "R16G16B16A16_FLOAT",
        "R32G32B32A32_FLOAT",
        "R8G8B8A8_UINT",
        "R32_SINT",
        "R10G10B10A2_UNORM",
        "R8G8B8A8_SRGB",
        "R16_UNORM",
        "R11G11B10_FLOAT",
    ):
        assert name in checked, name


def test_depth_stencil_claims_attach_and_clear(_host, support):
    gl = _host.gl
    w = h = 4
    done = []
    reset_raster_state(gl)
    for fmt in _claimed(support, Bind.DEPTH_STENCIL):
        desc = format_desc(fmt)
        assert desc.is_depth_or_stencil, desc.name
        hf = host_storage(fmt, support)
        tex = new_texture(_host, hf, w, h)
        point = (
            GL_DEPTH_STENCIL_ATTACHMENT
            if desc.is_depth and desc.is_stencil
            else GL_DEPTH_ATTACHMENT
            if desc.is_depth
            else GL_STENCIL_ATTACHMENT
        )
        fbo, status = _attach(_host, tex, point)
        assert status == GL_FRAMEBUFFER_COMPLETE, desc.name
        depth, stencil = 0.25, 0xA5
        if desc.is_depth and desc.is_stencil:
            gl.glClearBufferfi(GL_DEPTH_STENCIL, 0, depth, stencil)
        elif desc.is_depth:
            gl.glClearBufferfv(GL_DEPTH, 0, np.array([depth], np.float32))
        else:
            gl.glClearBufferiv(GL_STENCIL, 0, np.array([stencil], np.int32))
        _host.check(f"clear {desc.name}")
        via = format_desc(hf.transfer_as) if hf.transfer_as is not None else desc
        data = _readback(_host, tex, hf, w * h * via.blocksize)
        _host.check(f"read back {desc.name}")
        if via.name == "S8_UINT_Z24_UNORM":
            words = data.view("<u4")
            np.testing.assert_allclose((words >> 8) / (2**24 - 1), depth, atol=1e-6, err_msg=desc.name)
            assert (words & 0xFF == stencil).all(), desc.name
        elif via.name == "Z32_FLOAT_S8X24_UINT":
            words = data.view("<u4").reshape(-1, 2)
            np.testing.assert_allclose(words[:, 0].view(np.float32), depth, err_msg=desc.name)
            assert (words[:, 1] & 0xFF == stencil).all(), desc.name
        elif via.name == "S8_UINT":
            assert (data == stencil).all(), desc.name
        else:
            scale = {"Z16_UNORM": ("<u2", 65535), "Z32_UNORM": ("<u4", 2**32 - 1), "Z32_FLOAT": ("<f4", 1)}
            dt, full = scale[via.name]
            np.testing.assert_allclose(data.view(dt).astype(np.float64) / full, depth, atol=1e-4, err_msg=desc.name)
        gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
        gl.glDeleteFramebuffers(1, [fbo])
        gl.glDeleteTextures(1, [tex])
        done.append(desc.name)
    for name in ("Z16_UNORM", "Z24_UNORM_S8_UINT", "Z24X8_UNORM", "Z32_FLOAT", "Z32_FLOAT_S8X24_UINT"):
        assert name in done, name
    # Colour formats never claim DEPTH_STENCIL, depth formats never RENDER_TARGET.
    for fmt in _claimed(support, Bind.RENDER_TARGET):
        assert not format_desc(fmt).is_depth_or_stencil


# ---------------------------------------------------------------------------
# Multisampling
# ---------------------------------------------------------------------------


def test_multisample_claims_are_real(_host, support):
    gl = _host.gl
    max_samples = _host.profile.limit("GL_MAX_SAMPLES")
    counted = 0
    for count in (2, 4, 8, 16, 32):
        for bind in (Bind.RENDER_TARGET, Bind.DEPTH_STENCIL):
            for fmt in _claimed(support, bind, samples=count):
                assert count <= max_samples
                hf = host_storage(fmt, support)
                gl.glActiveTexture(0x84C0)
                tex = int(gl.glGenTextures(1))
                gl.glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex)
                gl.glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, count, hf.internal_format, 4, 4, True)
                _host.check(f"{fmt.name} x{count}")
                got = int(gl.glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE, 0, 0x9106))  # TEXTURE_SAMPLES
                assert got == count, fmt.name
                point = GL_COLOR_ATTACHMENT0
                if bind == Bind.DEPTH_STENCIL:
                    d = format_desc(fmt)
                    point = (
                        GL_DEPTH_STENCIL_ATTACHMENT
                        if d.is_depth and d.is_stencil
                        else GL_DEPTH_ATTACHMENT
                        if d.is_depth
                        else GL_STENCIL_ATTACHMENT
                    )
                fbo, status = _attach(_host, tex, point, GL_TEXTURE_2D_MULTISAMPLE)
                assert status == GL_FRAMEBUFFER_COMPLETE, fmt.name
                gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
                gl.glDeleteFramebuffers(1, [fbo])
                gl.glDeleteTextures(1, [tex])
                counted += 1
    assert counted > 0  # llvmpipe: 4x for every renderable format
    assert is_format_supported(support, Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 4, 4, Bind.RENDER_TARGET)


def test_sample_count_rules(support, _host):
    f, t, rt = Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, Bind.RENDER_TARGET
    max_samples = _host.profile.limit("GL_MAX_SAMPLES")
    assert is_format_supported(support, f, t, 0, 0, rt) and is_format_supported(support, f, t, 1, 1, rt)
    assert is_format_supported(support, f, t, 1, 0, rt)  # 0 and 1 both mean single-sampled
    for above in (2 * max_samples, 64, 128):
        assert not is_format_supported(support, f, t, above, above, rt)
    for odd in (3, 5, 6, 7):
        assert not is_format_supported(support, f, t, odd, odd, rt)
    assert not is_format_supported(support, f, t, 4, 8, rt)  # storage > samples
    assert not is_format_supported(support, f, t, 4, 2, rt)  # mixed samples: no GL path
    assert not is_format_supported(support, f, Target.TEXTURE_3D, 4, 4, rt)  # MSAA only 2D / 2D array
    assert not is_format_supported(support, f, Target.BUFFER, 4, 4, Bind.VERTEX_BUFFER)
    assert not is_format_supported(support, Format.DXT1_RGB, t, 4, 4, Bind.SAMPLER_VIEW)


def test_format_none_asks_about_framebuffers_without_attachments(support, _host):
    t, rt = Target.TEXTURE_2D, Bind.RENDER_TARGET
    if _host.profile.has("framebuffer_no_attachments"):
        assert is_format_supported(support, Format.NONE, t, 0, 0, rt)
        counts = [n for n in (2, 4, 8, 16, 32) if is_format_supported(support, Format.NONE, t, n, n, rt)]
        assert counts
        gl = _host.gl
        for n in counts:  # a framebuffer with no attachments at that count is complete
            fbo = int(gl.glGenFramebuffers(1))
            gl.glBindFramebuffer(GL_FRAMEBUFFER, fbo)
            for pname, value in ((0x9310, 4), (0x9311, 4), (0x9313, n)):  # DEFAULT_WIDTH/HEIGHT/SAMPLES
                gl.glFramebufferParameteri(GL_FRAMEBUFFER, pname, value)
            assert int(gl.glCheckFramebufferStatus(GL_FRAMEBUFFER)) == GL_FRAMEBUFFER_COMPLETE
            gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
            gl.glDeleteFramebuffers(1, [fbo])
            _host.check("no-attachment framebuffer")
    else:
        for n in (0, 1, 4):
            assert not is_format_supported(support, Format.NONE, t, n, n, rt)
    # NONE is never a texture to sample.
    assert not is_format_supported(support, Format.NONE, t, 0, 0, Bind.SAMPLER_VIEW)


# ---------------------------------------------------------------------------
# Vertex buffers
# ---------------------------------------------------------------------------

_VVS = """
#version {ver}
layout(location = 0) in {in_t} a;
flat out {out_t} v;
void main() {{
    v = {conv};
    gl_Position = vec4((float(gl_VertexID) + 0.5) / {n}.0 * 2.0 - 1.0, 0.0, 0.0, 1.0);
}}
"""
_VFS = """
#version {ver}
flat in {out_t} v;
out {out_t} c;
void main() {{ c = v; }}
"""


def test_vertex_buffer_claims_fetch_as_defined(_host, support):
    gl, mgl = _host.gl, _host.mgl
    rng = np.random.RandomState(5)
    n = 8
    checked = []
    for fmt in _claimed(support, Bind.VERTEX_BUFFER, target=Target.BUFFER):
        desc = format_desc(fmt)
        vf = desc.vertex
        lay = layout(desc.name)
        assert lay is not None, desc.name
        chans, swz = lay
        if vf.path == "double" and _host.profile.glsl_version < 410:
            continue
        if vf.path == "double":  # raw doubles: 64-bit patterns of finite doubles
            raws = [[int(v) for v in rng.uniform(-4, 4, n).view(np.uint64)] for _ in chans]
        else:
            raws = [random_raw(k, b, rng, n) for k, b in chans]
        data = pack(chans, raws, n)
        in_t, out_t, dtype, np_dtype = {
            "float": ("vec4", "vec4", "f4", np.float32),
            "integer": ("uvec4", "uvec4", "u4", np.uint32) if desc.is_pure_uint else ("ivec4", "ivec4", "i4", np.int32),
            "double": ("dvec4", "vec4", "f4", np.float32),
        }[vf.path]
        ver = "410" if vf.path == "double" else "330"
        conv = f"{out_t}(a)"
        if vf.path == "double":
            # 64-bit attributes leave the components they do not supply
            # undefined (GL 4.5 §10.2.1): declare exactly that many.
            in_t = ("double", "dvec2", "dvec3", "dvec4")[vf.size - 1]
            conv = ("vec4(float(a), 0.0, 0.0, 1.0)", "vec4(vec2(a), 0.0, 1.0)", "vec4(vec3(a), 1.0)", "vec4(a)")[
                vf.size - 1
            ]
        prog = mgl.program(
            vertex_shader=_VVS.format(ver=ver, in_t=in_t, out_t=out_t, conv=conv, n=n),
            fragment_shader=_VFS.format(ver=ver, out_t=out_t),
        )
        fbo = render_target(_host, n, 1, dtype)
        fbo.use()
        reset_raster_state(gl)
        buf = mgl.buffer(data.tobytes())
        vao = int(gl.glGenVertexArrays(1))
        gl.glBindVertexArray(vao)
        gl.glBindBuffer(0x8892, buf.glo)  # ARRAY_BUFFER
        stride = desc.blocksize
        if vf.path == "float":
            raw().VertexAttribPointer(0, vf.size, vf.gl_type, vf.normalized, stride, None)
        elif vf.path == "integer":
            raw().VertexAttribIPointer(0, vf.size, vf.gl_type, stride, None)
        else:
            raw().VertexAttribLPointer(0, vf.size, vf.gl_type, stride, None)
        gl.glEnableVertexAttribArray(0)
        gl.glUseProgram(prog.glo)
        gl.glDrawArrays(0x0000, 0, n)  # POINTS
        _host.check(f"fetch {desc.name}")
        got = np.frombuffer(fbo.read(components=4, dtype=dtype), np_dtype).reshape(n, 4).astype(np.float64)
        gl.glBindVertexArray(0)
        gl.glDeleteVertexArrays(1, [vao])
        for obj in (buf, prog):
            obj.release()
        want = np.array([texel_values(desc.name, chans, swz, raws, t) for t in range(n)], np.float64)
        if vf.path == "double":  # raw doubles: the 64-bit patterns are the values
            want = np.array(
                [
                    [decode("float", 64, raws[i][t]) if i < len(chans) else (1.0 if i == 3 else 0.0) for i in range(4)]
                    for t in range(n)
                ]
            )
        # llvmpipe (Mesa 22.3) scales GL_FIXED by 1/65535 instead of 1/65536:
        # a relative error of 1.5e-5, within float conversion slack.
        rtol = 2e-5 if desc.name.endswith("_FIXED") else 1e-5
        np.testing.assert_allclose(got, want, rtol=rtol, atol=2e-4, err_msg=desc.name)
        checked.append(desc.name)
    for name in (
        "R32G32B32A32_FLOAT",
        "R8G8B8A8_UNORM",
        "B8G8R8A8_UNORM",
        "R16G16_SINT",
        "R8G8B8_UINT",
        "R16G16B16A16_SNORM",
        "R10G10B10A2_UNORM",
        "R32_USCALED",
        "R16G16_FLOAT",
        "R64G64_FLOAT",
    ):
        assert name in checked, name


# ---------------------------------------------------------------------------
# Buffers, targets, bindings
# ---------------------------------------------------------------------------


def test_buffer_target(support, _host):
    b = Target.BUFFER
    # Texture buffers hold only GL's buffer-texture formats, byte for byte.
    assert is_format_supported(support, Format.R32G32B32A32_FLOAT, b, 0, 0, Bind.SAMPLER_VIEW)
    assert is_format_supported(support, Format.R8G8B8A8_UNORM, b, 0, 0, Bind.SAMPLER_VIEW)
    assert not is_format_supported(support, Format.B8G8R8A8_UNORM, b, 0, 0, Bind.SAMPLER_VIEW)  # reordered
    assert not is_format_supported(support, Format.A8_UNORM, b, 0, 0, Bind.SAMPLER_VIEW)  # swizzled
    assert not is_format_supported(support, Format.R8G8B8A8_SNORM, b, 0, 0, Bind.SAMPLER_VIEW)  # not in table 8.16
    rgb32 = is_format_supported(support, Format.R32G32B32_FLOAT, b, 0, 0, Bind.SAMPLER_VIEW)
    assert rgb32 == _host.profile.has("texture_buffer_object_rgb32")
    # Formatless buffer binds hold any bytes.
    for bind in (Bind.CONSTANT_BUFFER, Bind.INDEX_BUFFER, Bind.STREAM_OUTPUT):
        assert is_format_supported(support, Format.R8_UNORM, b, 0, 0, bind)
    # Shader buffers on every profile: host SSBOs, or the numpy executor's
    # compute stage where the host has none (docs/compute.md).
    assert is_format_supported(support, Format.R8_UNORM, b, 0, 0, Bind.SHADER_BUFFER)
    # Not buffer binds.
    for bind in (Bind.RENDER_TARGET, Bind.DEPTH_STENCIL, Bind.DISPLAY_TARGET):
        assert not is_format_supported(support, Format.R8G8B8A8_UNORM, b, 0, 0, bind)
    # And buffer binds are not texture binds.
    assert not is_format_supported(support, Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 0, 0, Bind.VERTEX_BUFFER)


def test_texture_buffer_claims_work(_host, support):
    gl = _host.gl
    for fmt in _claimed(support, Bind.SAMPLER_VIEW, target=Target.BUFFER):
        hf = host_storage(fmt, support)
        buf = _host.mgl.buffer(reserve=64)
        tex = int(gl.glGenTextures(1))
        gl.glBindTexture(0x8C2A, tex)  # TEXTURE_BUFFER
        gl.glTexBuffer(0x8C2A, hf.internal_format, buf.glo)
        _host.check(f"texture buffer {fmt.name}")
        gl.glBindTexture(0x8C2A, 0)
        gl.glDeleteTextures(1, [tex])
        buf.release()


def test_targets(support, _host):
    sv, rt = Bind.SAMPLER_VIEW, Bind.RENDER_TARGET
    f = Format.R8G8B8A8_UNORM
    for target in (
        Target.TEXTURE_1D,
        Target.TEXTURE_2D,
        Target.TEXTURE_3D,
        Target.TEXTURE_CUBE,
        Target.TEXTURE_RECT,
        Target.TEXTURE_1D_ARRAY,
        Target.TEXTURE_2D_ARRAY,
    ):
        assert is_format_supported(support, f, target, 0, 0, sv | rt), target
    cube_array = _host.profile.has("texture_cube_map_array")
    assert is_format_supported(support, f, Target.TEXTURE_CUBE_ARRAY, 0, 0, sv) == cube_array
    # Depth has no 3D textures; compressed formats no 1D / RECT ones.
    assert is_format_supported(support, Format.Z24_UNORM_S8_UINT, Target.TEXTURE_CUBE, 0, 0, sv)
    assert not is_format_supported(support, Format.Z24_UNORM_S8_UINT, Target.TEXTURE_3D, 0, 0, sv)
    assert is_format_supported(support, Format.RGTC1_UNORM, Target.TEXTURE_2D_ARRAY, 0, 0, sv)
    for target in (Target.TEXTURE_1D, Target.TEXTURE_RECT, Target.TEXTURE_1D_ARRAY):
        assert not is_format_supported(support, Format.RGTC1_UNORM, target, 0, 0, sv)


def test_bindings_and_display(support):
    t = Target.TEXTURE_2D
    rgba = Format.R8G8B8A8_UNORM
    assert is_format_supported(support, rgba, t, 0, 0, Bind.RENDER_TARGET | Bind.BLENDABLE | Bind.SAMPLER_VIEW)
    assert is_format_supported(support, rgba, t, 0, 0, Bind.DISPLAY_TARGET | Bind.SCANOUT | Bind.LINEAR)
    assert is_format_supported(support, Format.B8G8R8X8_UNORM, t, 0, 0, Bind.DISPLAY_TARGET)
    assert not is_format_supported(support, Format.R16G16B16A16_FLOAT, t, 0, 0, Bind.DISPLAY_TARGET)
    assert not is_format_supported(support, rgba, t, 0, 0, Bind.SHARED)  # nothing can be exported
    assert is_format_supported(support, rgba, t, 0, 0, 0)  # no bindings: the format exists
    # Integer formats render but do not blend; emulated ones neither render nor blend yet.
    assert is_format_supported(support, Format.R8G8B8A8_UINT, t, 0, 0, Bind.RENDER_TARGET)
    assert not is_format_supported(support, Format.R8G8B8A8_UINT, t, 0, 0, Bind.RENDER_TARGET | Bind.BLENDABLE)
    for emulated in (Format.A8_UNORM, Format.L8_UNORM, Format.B8G8R8X8_UNORM, Format.L8A8_UNORM):
        assert is_format_supported(support, emulated, t, 0, 0, Bind.SAMPLER_VIEW)
        assert not is_format_supported(support, emulated, t, 0, 0, Bind.RENDER_TARGET)
    # Formats without any host storage.
    for none in (Format.NV12, Format.UYVY, Format.R32_FIXED, Format.R64_FLOAT, Format.ATC_RGB):
        assert not is_format_supported(support, none, t, 0, 0, Bind.SAMPLER_VIEW)
        assert not is_format_supported(support, none, t, 0, 0, 0)


def test_bad_arguments_raise(support):
    t, sv = Target.TEXTURE_2D, Bind.SAMPLER_VIEW
    f = Format.R8G8B8A8_UNORM
    cases = [
        (10_000, t, 0, 0, sv),
        (-1, t, 0, 0, sv),
        ("R8G8B8A8_UNORM", t, 0, 0, sv),
        (f, 42, 0, 0, sv),
        (f, -1, 0, 0, sv),
        (f, None, 0, 0, sv),
        (f, t, 1.5, 0, sv),
        (f, t, "4", 0, sv),
        (f, t, None, 0, sv),
        (f, t, -2, 0, sv),
        (f, t, 0, 2.0, sv),
        (f, t, 0, -1, sv),
        (f, t, 0, 0, 1 << 30),
        (f, t, 0, 0, -1),
        (f, t, 0, 0, 2.0),
    ]
    for args in cases:
        with pytest.raises(InvalidArgumentError):
            is_format_supported(support, *args)
    with pytest.raises(InvalidArgumentError):
        is_format_supported(support, 53.0, t, 0, 0, sv)  # a float is not a format value
    # numpy integers are integers
    assert is_format_supported(support, np.int64(int(f)), np.int32(2), np.int64(0), np.uint8(0), np.int64(int(sv)))


# ---------------------------------------------------------------------------
# Profiles and the probe itself
# ---------------------------------------------------------------------------


def test_gl33_claims_nothing_beyond_gl33(support, _host):
    profile = _host.profile

    def needs_beyond_33(feature):
        row = FEATURES[feature]
        return not granted(row, 330, frozenset())

    if profile.name == "gl33":
        for desc in FORMAT_TABLE:
            caps = support.caps[desc.format]
            if caps.host is not None:
                assert not any(needs_beyond_33(f) for f in caps.host.features), desc.name
            if caps.vertex:
                assert not any(needs_beyond_33(f) for f in desc.vertex.features), desc.name
        # Images on gl33 are the numpy executor's (compute only): GL's image
        # formats (table 8.26), which it reads and writes through transfers.
        from glpipe.formats import _IMAGE_FORMATS

        images = supported_formats(support, Target.TEXTURE_2D, Bind.SHADER_IMAGE)
        assert images and all(host_storage(f, support).internal_format_name[3:] in _IMAGE_FORMATS for f in images)
        assert host_storage(Format.B5G6R5_UNORM, support).internal_format_name == "GL_RGB8"
        for f in (Format.R64_UINT, Format.R32_FIXED, Format.R11G11B10_FLOAT):
            assert not is_format_supported(support, f, Target.BUFFER, 0, 0, Bind.VERTEX_BUFFER), f.name
    t, sv = Target.TEXTURE_2D, Bind.SAMPLER_VIEW
    for fmt, feature in ((Format.ASTC_4x4, "texture_compression_astc"), (Format.S8_UINT, "texture_stencil8")):
        assert is_format_supported(support, fmt, t, 0, 0, sv) == profile.has(feature), fmt.name
    # S3TC, ETC2 and BPTC are sampled on every profile: stored compressed where
    # the host has the family, decoded at upload (fallback.compressed) elsewhere.
    for fmt, feature in (
        (Format.DXT5_RGBA, "texture_compression_s3tc"),
        (Format.ETC2_RGB8, "texture_compression_etc2"),
        (Format.BPTC_RGBA_UNORM, "texture_compression_bptc"),
    ):
        assert is_format_supported(support, fmt, t, 0, 0, sv), fmt.name
        assert host_storage(fmt, support).compressed == profile.has(feature), fmt.name
    # Image formats: the host's image units, or the numpy executor's compute
    # images where the host has none (docs/compute.md): GL's table either way.
    assert is_format_supported(support, Format.R32G32B32A32_FLOAT, t, 0, 0, Bind.SHADER_IMAGE)
    assert not is_format_supported(support, Format.R8G8B8_UNORM, t, 0, 0, Bind.SHADER_IMAGE)


def test_probe_is_cached_fast_and_restores_state(_host, support):
    assert probe_format_support(_host) is support
    assert support.profile_name == _host.profile.name
    assert support.probe_seconds < 1.0, support.probe_seconds
    gl = _host.gl
    gl.glActiveTexture(0x84C0 + 3)
    tex = int(gl.glGenTextures(1))
    gl.glBindTexture(GL_TEXTURE_2D, tex)
    fbo = int(gl.glGenFramebuffers(1))
    gl.glBindFramebuffer(GL_FRAMEBUFFER, fbo)
    gl.glPixelStorei(0x0CF5, 8)
    start = time.perf_counter()
    again = _Prober(_host).run()  # a fresh run, not the cache
    assert time.perf_counter() - start < 1.0
    assert again.caps == support.caps
    assert int(gl.glGetIntegerv(0x84E0)) == 0x84C0 + 3  # ACTIVE_TEXTURE
    assert int(gl.glGetIntegerv(0x8069)) == tex  # TEXTURE_BINDING_2D
    assert int(gl.glGetIntegerv(0x8CA6)) == fbo  # DRAW_FRAMEBUFFER_BINDING
    assert int(gl.glGetIntegerv(0x8CAA)) == fbo  # READ_FRAMEBUFFER_BINDING
    assert int(gl.glGetIntegerv(0x0CF5)) == 8  # UNPACK_ALIGNMENT
    assert not _host.clear_errors()
    gl.glPixelStorei(0x0CF5, 4)
    gl.glBindFramebuffer(GL_FRAMEBUFFER, 0)
    gl.glDeleteFramebuffers(1, [fbo])
    gl.glDeleteTextures(1, [tex])
    gl.glActiveTexture(0x84C0)
