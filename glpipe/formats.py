"""Formats: Gallium's util_format helpers, the host-support probe, and
``is_format_supported``.

docs/formats.md "Host support and is_format_supported" explains the probe.
"""

from __future__ import annotations

import ctypes
import operator
import time
from dataclasses import dataclass

from lowering.errors import HostGLError, InvalidArgumentError

from .boundary import show
from .enums import Bind, Target, all_flag_bits, flag_bits
from .format_table import (
    COMPRESSED_LAYOUTS,
    FORMAT_COUNT,
    FORMAT_TABLE,
    GL_ENUMS,
    IDENTITY_SWIZZLE,
    Channel,
    ChannelType,
    Format,
    FormatDesc,
    HostFormat,
    VertexFetch,
)

# ---------------------------------------------------------------------------
# util_format_* (Mesa's names, so C code ports line by line)
# ---------------------------------------------------------------------------


def _enum_value(enum_cls, value, what: str):
    """``value`` (an int-like: Python or numpy integer, not a float or bool)
    as a member of ``enum_cls``, or InvalidArgumentError naming it."""
    if isinstance(value, enum_cls):
        return value
    try:
        if isinstance(value, bool):
            raise TypeError
        return enum_cls(operator.index(value))
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"{what}: {show(value)} is not a {enum_cls.__name__} value") from None


def _fmt(fmt) -> Format:
    return _enum_value(Format, fmt, "format")


def util_format_description(fmt) -> FormatDesc:
    """The table row of ``fmt`` (InvalidArgumentError for an unknown value)."""
    return FORMAT_TABLE[_fmt(fmt)]


format_desc = util_format_description


def util_format_name(fmt) -> str:
    """``PIPE_FORMAT_*`` spelling of ``fmt``."""
    return "PIPE_FORMAT_" + util_format_description(fmt).name


def util_format_get_blocksizebits(fmt) -> int:
    """Bits per block."""
    return util_format_description(fmt).block_bits


def util_format_get_blocksize(fmt) -> int:
    """Bytes per block (at least 1, as Mesa: planar formats describe no bits)."""
    return util_format_description(fmt).blocksize


def util_format_get_blockwidth(fmt) -> int:
    """Block width in pixels."""
    return util_format_description(fmt).block_width


def util_format_get_blockheight(fmt) -> int:
    """Block height in pixels."""
    return util_format_description(fmt).block_height


def util_format_get_blockdepth(fmt) -> int:
    """Block depth in pixels."""
    return util_format_description(fmt).block_depth


def util_format_get_nblocksx(fmt, x: int) -> int:
    """Blocks needed to cover ``x`` pixels horizontally."""
    bw = util_format_get_blockwidth(fmt)
    return (int(x) + bw - 1) // bw


def util_format_get_nblocksy(fmt, y: int) -> int:
    """Blocks needed to cover ``y`` pixels vertically."""
    bh = util_format_get_blockheight(fmt)
    return (int(y) + bh - 1) // bh


def util_format_get_nblocksz(fmt, z: int) -> int:
    """Blocks needed to cover ``z`` slices."""
    bd = util_format_get_blockdepth(fmt)
    return (int(z) + bd - 1) // bd


def util_format_get_nblocks(fmt, width: int, height: int) -> int:
    """Blocks covering a ``width`` x ``height`` image."""
    return util_format_get_nblocksx(fmt, width) * util_format_get_nblocksy(fmt, height)


def util_format_get_stride(fmt, width: int) -> int:
    """Bytes in one row of blocks ``width`` pixels wide (no padding)."""
    return util_format_get_nblocksx(fmt, width) * util_format_get_blocksize(fmt)


def util_format_get_2d_size(fmt, stride: int, height: int) -> int:
    """Bytes of a 2D image with row ``stride`` bytes and ``height`` pixels."""
    return int(stride) * util_format_get_nblocksy(fmt, height)


def util_format_get_nr_components(fmt) -> int:
    """Number of channels (Mesa's nr_channels: void padding counts)."""
    return util_format_description(fmt).nr_channels


def util_format_get_num_planes(fmt) -> int:
    """Memory planes of the format (2 or 3 for planar YUV/RGB, else 1)."""
    return util_format_description(fmt).nr_planes


util_format_get_nr_planes = util_format_get_num_planes


def util_format_is_compressed(fmt) -> bool:
    """Block-compressed (S3TC, RGTC, ETC, BPTC, ASTC, ATC, FXT1)."""
    return util_format_description(fmt).is_compressed


def util_format_is_srgb(fmt) -> bool:
    """sRGB colour space."""
    return util_format_description(fmt).is_srgb


def util_format_is_depth_or_stencil(fmt) -> bool:
    """Has a depth or a stencil component."""
    return util_format_description(fmt).is_depth_or_stencil


def util_format_is_depth_and_stencil(fmt) -> bool:
    """Has both depth and stencil."""
    d = util_format_description(fmt)
    return d.is_depth and d.is_stencil


def util_format_has_depth(d: FormatDesc) -> bool:
    """Whether the description has depth (takes a description, as in Mesa)."""
    return d.is_depth


def util_format_has_stencil(d: FormatDesc) -> bool:
    """Whether the description has stencil (takes a description, as in Mesa)."""
    return d.is_stencil


def util_format_is_pure_integer(fmt) -> bool:
    """Every non-padding channel is UINT or SINT."""
    return util_format_description(fmt).is_pure_integer


def util_format_is_pure_uint(fmt) -> bool:
    """Every non-padding channel is UINT."""
    return util_format_description(fmt).is_pure_uint


def util_format_is_pure_sint(fmt) -> bool:
    """Every non-padding channel is SINT."""
    return util_format_description(fmt).is_pure_sint


def util_format_is_float(fmt) -> bool:
    """Every non-padding channel is FLOAT."""
    return util_format_description(fmt).is_float


def util_format_is_yuv(fmt) -> bool:
    """YUV colour space."""
    return util_format_description(fmt).colorspace == "yuv"


def util_format_compose_swizzles(swz1, swz2) -> tuple:
    """Apply ``swz2`` on top of ``swz1``: the result reads, for each output
    channel c, ``swz1[swz2[c]]`` (constants and NONE pass through).  This is
    how a sampler view's swizzle combines with a format's emulation swizzle
    (view swizzle second)."""
    out = []
    for s in swz2:
        s = int(s)
        out.append(int(swz1[s]) if s <= 3 else s)
    return tuple(out)


def host_storage(fmt, support: FormatSupport | None = None) -> HostFormat | None:
    """How the host holds ``fmt``: GL internal format, transfer format/type,
    sampling swizzle and whether transfers convert (``needs_conversion``).

    With ``support`` (a probe result), the storage chosen on that profile,
    or None when the profile has none; without, the preferred storage of
    the table (which a restricted profile may not allow)."""
    d = util_format_description(fmt)
    if support is not None:
        return support.caps[d.format].host
    return d.primary_host


def host_decodes(desc: FormatDesc, host: HostFormat | None) -> bool:
    """Whether ``host`` stores compressed ``desc`` as decoded texels (its
    ``transfer_as`` layout), fallback.compressed decoding every upload."""
    return host is not None and desc.is_compressed and not host.compressed


# ---------------------------------------------------------------------------
# Features the format table names that glpipe.host.features does not (yet) have.
# Evaluated here with the same rule (core version or extension), against the
# profile's possibly restricted version and extension list, so a gl33
# profile never sees them.  Rows to move into glpipe.host.features.
# ---------------------------------------------------------------------------


def host_has(profile, name: str) -> bool:
    """``profile.has(name)``: every feature the format table names is a row of
    glpipe.host.features.FEATURES (a KeyError names a missing one)."""
    return profile.has(name)


# ---------------------------------------------------------------------------
# Spec tables: what GL cannot be asked by trial
# ---------------------------------------------------------------------------

# Buffer texture internal formats (GL 4.5 table 8.16); the RGB32 ones need
# ARB_texture_buffer_object_rgb32 (GL 4.0).
_TBO_FORMATS = frozenset(
    {
        "R8",
        "R16",
        "R16F",
        "R32F",
        "R8I",
        "R16I",
        "R32I",
        "R8UI",
        "R16UI",
        "R32UI",
        "RG8",
        "RG16",
        "RG16F",
        "RG32F",
        "RG8I",
        "RG16I",
        "RG32I",
        "RG8UI",
        "RG16UI",
        "RG32UI",
        "RGBA8",
        "RGBA16",
        "RGBA16F",
        "RGBA32F",
        "RGBA8I",
        "RGBA16I",
        "RGBA32I",
        "RGBA8UI",
        "RGBA16UI",
        "RGBA32UI",
    }
)
_TBO_RGB32_FORMATS = frozenset({"RGB32F", "RGB32I", "RGB32UI"})

# Image unit formats (GL 4.5 table 8.26, ARB_shader_image_load_store).
_IMAGE_FORMATS = frozenset(
    {
        "RGBA32F",
        "RGBA16F",
        "RG32F",
        "RG16F",
        "R11F_G11F_B10F",
        "R32F",
        "R16F",
        "RGBA32UI",
        "RGBA16UI",
        "RGB10_A2UI",
        "RGBA8UI",
        "RG32UI",
        "RG16UI",
        "RG8UI",
        "R32UI",
        "R16UI",
        "R8UI",
        "RGBA32I",
        "RGBA16I",
        "RGBA8I",
        "RG32I",
        "RG16I",
        "RG8I",
        "R32I",
        "R16I",
        "R8I",
        "RGBA16",
        "RGB10_A2",
        "RGBA8",
        "RG16",
        "RG8",
        "R16",
        "R8",
        "RGBA16_SNORM",
        "RGBA8_SNORM",
        "RG16_SNORM",
        "RG8_SNORM",
        "R16_SNORM",
        "R8_SNORM",
    }
)

# Transfer formats/types under which buffer memory has exactly the byte
# layout of the storage: a buffer texture or image reads raw buffer bytes,
# so only formats uploaded this way (no reorder, no conversion, no
# swizzle) can be viewed from a buffer.
_CANONICAL_TRANSFER_FORMATS = frozenset(
    GL_ENUMS[n] for n in ("RED", "RG", "RGB", "RGBA", "RED_INTEGER", "RG_INTEGER", "RGB_INTEGER", "RGBA_INTEGER")
)
_CANONICAL_TRANSFER_TYPES = frozenset(
    GL_ENUMS[n]
    for n in (
        "UNSIGNED_BYTE",
        "BYTE",
        "UNSIGNED_SHORT",
        "SHORT",
        "UNSIGNED_INT",
        "INT",
        "HALF_FLOAT",
        "FLOAT",
        "UNSIGNED_INT_2_10_10_10_REV",
        "UNSIGNED_INT_10F_11F_11F_REV",
    )
)

# Formats glpipe can present (flush_front_buffer / a window's back buffer):
# 8-bit RGBA/BGRA unorm, the layouts a window system framebuffer takes.
DISPLAY_FORMATS = frozenset(
    {
        Format.R8G8B8A8_UNORM,
        Format.B8G8R8A8_UNORM,
        Format.R8G8B8X8_UNORM,
        Format.B8G8R8X8_UNORM,
    }
)

# Bind flags whose answer does not depend on the format.
#  LINEAR: GL textures have no tiling glpipe could expose; transfers always
#    hand out linear views, so a linear layout is what every resource offers.
#  CUSTOM: an opaque frontend/winsys usage; nothing for the driver to do.
#  CONST_BW: no bandwidth-compressed layouts exist here to avoid.
_BINDS_ALWAYS = Bind.LINEAR | Bind.CUSTOM | Bind.CONST_BW
#  SHARED: glpipe cannot export a resource to another process (no
#    resource_get_handle / dma-buf path through ModernGL), so never.
#  CURSOR, PRIME_BLIT_DST, USE_FRONT_RENDERING, PROTECTED, VIDEO_*: no
#    cursor planes, PRIME, front-buffer rendering, protected memory or video
#    engine.  GLOBAL, COMPUTE_RESOURCE: OpenCL-style bindings glpipe lacks.
#  VERTEX_STATE: create_vertex_state is not implemented.
#  SAMPLER_REDUCTION_MINMAX: needs ARB_texture_filter_minmax, not wired up.
_BINDS_NEVER = (
    Bind.SHARED
    | Bind.CURSOR
    | Bind.PRIME_BLIT_DST
    | Bind.USE_FRONT_RENDERING
    | Bind.PROTECTED
    | Bind.VIDEO_DECODE_DPB
    | Bind.VIDEO_ENCODE_DPB
    | Bind.GLOBAL
    | Bind.COMPUTE_RESOURCE
    | Bind.VERTEX_STATE
    | Bind.SAMPLER_REDUCTION_MINMAX
)
# Buffer binds that hold bytes without a format: any format's buffer can
# have them if the host has the feature (None: GL 3.3 core).
_FORMATLESS_BUFFER_BINDS = {
    Bind.INDEX_BUFFER: None,
    Bind.CONSTANT_BUFFER: "uniform_buffer_object",
    Bind.STREAM_OUTPUT: "transform_feedback",
    # Any buffer: without host SSBOs the numpy executor reads and writes its
    # bytes (glpipe/compute.py; PIPE_CAP_COMPUTE through fallback/tgsi_exec).
    Bind.SHADER_BUFFER: None,
    Bind.COMMAND_ARGS_BUFFER: None,  # read back and unrolled without draw_indirect (glpipe/draw_indirect.py)
    Bind.QUERY_BUFFER: "query_buffer_object",
}
_ALL_BINDS = all_flag_bits(Bind)

# Sample counts Gallium can ask for (screen.rst: at most 32).
_SAMPLE_COUNTS = (2, 4, 8, 16, 32)
_MAX_SAMPLE_COUNT = 32

# Feature a texture target needs (None: GL 3.3 core).
_TARGET_FEATURES = {
    Target.TEXTURE_1D: None,
    Target.TEXTURE_2D: None,
    Target.TEXTURE_3D: None,
    Target.TEXTURE_CUBE: None,
    Target.TEXTURE_RECT: "texture_rectangle",
    Target.TEXTURE_1D_ARRAY: "texture_array",
    Target.TEXTURE_2D_ARRAY: "texture_array",
    Target.TEXTURE_CUBE_ARRAY: "texture_cube_map_array",
}
_MULTISAMPLE_TARGETS = frozenset({Target.TEXTURE_2D, Target.TEXTURE_2D_ARRAY})


# ---------------------------------------------------------------------------
# Probe results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FormatCaps:
    """What one format can do on one host profile.

    ``host`` is the storage the probe chose (None: no storage on this
    profile).  ``sampler``: a texture of that storage can be created, filled
    through the row's transfer path, and sampled.  ``color_renderable`` /
    ``depth_stencil``: the storage makes a complete framebuffer as a colour /
    depth-stencil attachment.  ``render`` is colour-renderable *and* correct
    when rendered to (no emulation swizzle, see ``is_format_supported``).
    ``samples``: counts > 1 the storage supports multisampled.  ``array`` /
    ``volume``: for compressed storage, whether 2D-array / 3D textures of
    it can be made (GL restricts those per compression family).
    """

    host: HostFormat | None = None
    sampler: bool = False
    color_renderable: bool = False
    render: bool = False
    depth_stencil: bool = False
    blendable: bool = False
    samples: frozenset = frozenset()
    array: bool = False
    volume: bool = False
    image: bool = False
    buffer_sampler: bool = False
    buffer_image: bool = False
    vertex: bool = False


@dataclass(frozen=True)
class FormatSupport:
    """The probe's answer for one host profile: a FormatCaps per format plus
    the profile facts ``is_format_supported`` needs, so the lookup never
    touches GL."""

    profile_name: str
    caps: tuple
    features: frozenset
    framebuffer_sample_counts: frozenset
    max_image_samples: int
    probe_seconds: float
    storages_probed: int

    def has(self, name: str | None) -> bool:
        """Whether the profile had feature ``name`` (None: always)."""
        return name is None or name in self.features


# Features is_format_supported consults after the probe.
_LOOKUP_FEATURES = frozenset(
    {f for f in _TARGET_FEATURES.values() if f}
    | {f for f in _FORMATLESS_BUFFER_BINDS.values() if f}
    | {
        "texture_multisample",
        "framebuffer_no_attachments",
        "shader_image_load_store",
        "texture_buffer_object",
        "texture_buffer_object_rgb32",
    }
)


# ---------------------------------------------------------------------------
# The probe
# ---------------------------------------------------------------------------

_GL_TEXTURE_2D = 0x0DE1
_GL_TEXTURE_3D = 0x806F
_GL_TEXTURE_2D_ARRAY = 0x8C1A
_GL_TEXTURE_2D_MULTISAMPLE = 0x9100
_GL_FRAMEBUFFER = 0x8D40
_GL_READ_FRAMEBUFFER = 0x8CA8
_GL_DRAW_FRAMEBUFFER = 0x8CA9
_GL_FRAMEBUFFER_COMPLETE = 0x8CD5
_GL_COLOR_ATTACHMENT0 = 0x8CE0
_GL_DEPTH_ATTACHMENT = 0x8D00
_GL_STENCIL_ATTACHMENT = 0x8D20
_GL_DEPTH_STENCIL_ATTACHMENT = 0x821A
_GL_NONE = 0
_GL_TRUE = 1
_GL_TEXTURE_SAMPLES = 0x9106
_GL_SAMPLES = 0x80A9
_GL_NUM_SAMPLE_COUNTS = 0x9380
_GL_UNPACK_ALIGNMENT = 0x0CF5
_GL_PIXEL_UNPACK_BUFFER = 0x88EC
_GL_PIXEL_UNPACK_BUFFER_BINDING = 0x88EF
_GL_ACTIVE_TEXTURE = 0x84E0
_GL_DRAW_FRAMEBUFFER_BINDING = 0x8CA6
_GL_READ_FRAMEBUFFER_BINDING = 0x8CAA
_TEXTURE_BINDINGS = {  # target -> its binding query
    _GL_TEXTURE_2D: 0x8069,
    _GL_TEXTURE_2D_ARRAY: 0x8C1D,
    _GL_TEXTURE_3D: 0x806A,
    _GL_TEXTURE_2D_MULTISAMPLE: 0x9104,
}
_DEPTH_STENCIL_FORMATS = frozenset(GL_ENUMS[n] for n in ("DEPTH_COMPONENT", "DEPTH_STENCIL", "STENCIL_INDEX"))
_INTEGER_FORMATS = frozenset(
    GL_ENUMS[n] for n in ("RED_INTEGER", "RG_INTEGER", "RGB_INTEGER", "RGBA_INTEGER", "BGR_INTEGER", "BGRA_INTEGER")
)

# Probe images are 4x4 pixels (or one block); the zero-filled upload
# source is big enough for 4x4 texels of the widest format (16 bytes).
_PROBE_SIZE = 4
_ZEROS_BUF = ctypes.create_string_buffer(16 * _PROBE_SIZE * _PROBE_SIZE)
_ZEROS_PTR = ctypes.cast(_ZEROS_BUF, ctypes.c_void_p)


class _RawGL:
    """PyOpenGL's raw (unwrapped) pixel-upload entry points.

    The wrapped ones convert the pixel argument according to ``type`` and
    know only some of GL's packed types (UNSIGNED_INT_10F_11F_11F_REV makes
    them raise); the raw ones take a plain pointer.  Imported on first use,
    after glpipe.host.gl has chosen PyOpenGL's platform.
    """

    def __init__(self):
        from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_1, GL_1_2, GL_1_3

        self.glTexImage2D = GL_1_0.glTexImage2D
        self.glTexImage3D = GL_1_2.glTexImage3D
        self.glTexSubImage2D = GL_1_1.glTexSubImage2D
        self.glCompressedTexImage2D = GL_1_3.glCompressedTexImage2D
        self.glCompressedTexImage3D = GL_1_3.glCompressedTexImage3D
        self.glCompressedTexSubImage2D = GL_1_3.glCompressedTexSubImage2D


@dataclass(frozen=True)
class _StorageResult:
    created: bool
    color: bool = False
    depth_stencil: bool = False
    samples: frozenset = frozenset()
    array: bool = False
    volume: bool = False


class _Prober:
    """One probe run on one host (GL state saved before, restored after)."""

    def __init__(self, host):
        self.host = host
        self.gl = host.gl
        self.raw = _RawGL()
        self.profile = host.profile
        self.storage = host_has(self.profile, "texture_storage")
        self.multisample = host_has(self.profile, "texture_multisample")
        self.ifq = host_has(self.profile, "internalformat_query")
        self.storages: dict[int, _StorageResult] = {}
        self.uploads: dict[tuple, bool] = {}
        self.probes = 0

    # -- GL state the probe touches -------------------------------------

    def _save(self):
        gl = self.gl
        geti = gl.glGetIntegerv
        saved = {
            "active": int(geti(_GL_ACTIVE_TEXTURE)),
            "draw_fb": int(geti(_GL_DRAW_FRAMEBUFFER_BINDING)),
            "read_fb": int(geti(_GL_READ_FRAMEBUFFER_BINDING)),
            "unpack_buf": int(geti(_GL_PIXEL_UNPACK_BUFFER_BINDING)),
            "align": int(geti(_GL_UNPACK_ALIGNMENT)),
        }
        for target, query in _TEXTURE_BINDINGS.items():
            saved[target] = int(geti(query))
        gl.glBindBuffer(_GL_PIXEL_UNPACK_BUFFER, 0)
        gl.glPixelStorei(_GL_UNPACK_ALIGNMENT, 1)
        return saved

    def _restore(self, saved) -> None:
        gl = self.gl
        gl.glActiveTexture(saved["active"])
        for target in _TEXTURE_BINDINGS:
            gl.glBindTexture(target, saved[target])
        gl.glBindFramebuffer(_GL_DRAW_FRAMEBUFFER, saved["draw_fb"])
        gl.glBindFramebuffer(_GL_READ_FRAMEBUFFER, saved["read_fb"])
        gl.glBindBuffer(_GL_PIXEL_UNPACK_BUFFER, saved["unpack_buf"])
        gl.glPixelStorei(_GL_UNPACK_ALIGNMENT, saved["align"])

    # -- trials ------------------------------------------------------------

    def _ok(self) -> bool:
        return not self.host.clear_errors()

    def _new_texture(self, target: int) -> int:
        tex = int(self.gl.glGenTextures(1))
        self.gl.glBindTexture(target, tex)
        return tex

    def _delete_texture(self, tex: int) -> None:
        self.gl.glDeleteTextures(1, [tex])

    def _allocate(self, target: int, host: HostFormat, desc: FormatDesc) -> bool:
        """Allocate one level of ``host`` storage on the bound ``target``."""
        gl, raw = self.gl, self.raw
        ifmt = host.internal_format
        w, h = (desc.block_width, desc.block_height) if host.compressed else (_PROBE_SIZE, _PROBE_SIZE)
        depth = 1
        if self.storage:
            if target == _GL_TEXTURE_2D:
                gl.glTexStorage2D(target, 1, ifmt, w, h)
            else:
                gl.glTexStorage3D(target, 1, ifmt, w, h, depth)
        elif host.compressed:
            size = desc.blocksize
            if target == _GL_TEXTURE_2D:
                raw.glCompressedTexImage2D(target, 0, ifmt, w, h, 0, size, _ZEROS_PTR)
            else:
                raw.glCompressedTexImage3D(target, 0, ifmt, w, h, depth, 0, size, _ZEROS_PTR)
        elif target == _GL_TEXTURE_2D:
            raw.glTexImage2D(target, 0, ifmt, w, h, 0, host.gl_format, host.gl_type, None)
        else:
            raw.glTexImage3D(target, 0, ifmt, w, h, depth, 0, host.gl_format, host.gl_type, None)
        self.probes += 1
        return self._ok()

    def _attach_complete(self, attachment_target: int, tex: int, zs_attachment: int | None) -> bool:
        """Whether ``tex`` alone makes a complete framebuffer (colour if
        ``zs_attachment`` is None, else at that depth/stencil point)."""
        gl = self.gl
        point = _GL_COLOR_ATTACHMENT0 if zs_attachment is None else zs_attachment
        fbo = self.zs_fbo if zs_attachment is not None else self.color_fbo
        gl.glBindFramebuffer(_GL_FRAMEBUFFER, fbo)
        gl.glFramebufferTexture2D(_GL_FRAMEBUFFER, point, attachment_target, tex, 0)
        status = int(gl.glCheckFramebufferStatus(_GL_FRAMEBUFFER))
        gl.glFramebufferTexture2D(_GL_FRAMEBUFFER, point, attachment_target, 0, 0)
        return self._ok() and status == _GL_FRAMEBUFFER_COMPLETE

    def _sample_counts(self, host: HostFormat, desc: FormatDesc, zs_attachment) -> frozenset:
        """Counts > 1 at which a multisampled texture of ``host`` is made
        with exactly that many samples and attaches completely."""
        gl, limit = self.gl, self.profile.limit
        if host.gl_format in _DEPTH_STENCIL_FORMATS:
            cap = limit("GL_MAX_DEPTH_TEXTURE_SAMPLES")
        elif host.gl_format in _INTEGER_FORMATS:
            cap = limit("GL_MAX_INTEGER_SAMPLES")
        else:
            cap = limit("GL_MAX_COLOR_TEXTURE_SAMPLES")
        cap = min(cap, limit("GL_MAX_SAMPLES"))
        candidates = [n for n in _SAMPLE_COUNTS if n <= cap]
        if self.ifq and candidates:
            import numpy as np

            num = np.zeros(1, np.int32)
            gl.glGetInternalformativ(_GL_TEXTURE_2D_MULTISAMPLE, host.internal_format, _GL_NUM_SAMPLE_COUNTS, 1, num)
            counts = np.zeros(max(1, int(num[0])), np.int32)
            gl.glGetInternalformativ(_GL_TEXTURE_2D_MULTISAMPLE, host.internal_format, _GL_SAMPLES, counts.size, counts)
            if self._ok():
                claimed = {int(c) for c in counts}
                candidates = [n for n in candidates if n in claimed]
        found = set()
        for n in candidates:
            tex = self._new_texture(_GL_TEXTURE_2D_MULTISAMPLE)
            gl.glTexImage2DMultisample(
                _GL_TEXTURE_2D_MULTISAMPLE, n, host.internal_format, _PROBE_SIZE, _PROBE_SIZE, _GL_TRUE
            )
            self.probes += 1
            if self._ok():
                # GL may round a count up to one the implementation has;
                # Gallium wants exactly the count asked for.
                got = int(gl.glGetTexLevelParameteriv(_GL_TEXTURE_2D_MULTISAMPLE, 0, _GL_TEXTURE_SAMPLES))
                if got == n and self._attach_complete(_GL_TEXTURE_2D_MULTISAMPLE, tex, zs_attachment):
                    found.add(n)
            self._delete_texture(tex)
        return frozenset(found)

    def _storage(self, host: HostFormat, desc: FormatDesc) -> _StorageResult:
        """Create / attach / multisample trials for one internal format
        (shared by every pipe format stored in it)."""
        # With immutable storage the transfer format/type play no part in
        # allocation; without it glTexImage2D also checks them, so a result
        # is only shared by rows that allocate the same way.
        key = host.internal_format if self.storage else (host.internal_format, host.gl_format, host.gl_type)
        cached = self.storages.get(key)
        if cached is not None:
            return cached
        tex = self._new_texture(_GL_TEXTURE_2D)
        created = self._allocate(_GL_TEXTURE_2D, host, desc)
        result = _StorageResult(False)
        if created:
            if host.compressed:
                result = _StorageResult(
                    True,
                    array=self._try_target(_GL_TEXTURE_2D_ARRAY, host, desc),
                    volume=self._try_target(_GL_TEXTURE_3D, host, desc),
                )
            else:
                zs = self._zs_attachment(desc)
                renders = self._attach_complete(_GL_TEXTURE_2D, tex, zs)
                samples: frozenset[int] = frozenset()
                if renders and self.multisample:
                    samples = self._sample_counts(host, desc, zs)
                result = _StorageResult(
                    True, color=renders and zs is None, depth_stencil=renders and zs is not None, samples=samples
                )
        self._delete_texture(tex)
        self.storages[key] = result
        return result

    def _try_target(self, target: int, host: HostFormat, desc: FormatDesc) -> bool:
        tex = self._new_texture(target)
        ok = self._allocate(target, host, desc)
        self._delete_texture(tex)
        return ok

    @staticmethod
    def _zs_attachment(desc: FormatDesc) -> int | None:
        if desc.is_depth and desc.is_stencil:
            return _GL_DEPTH_STENCIL_ATTACHMENT
        if desc.is_depth:
            return _GL_DEPTH_ATTACHMENT
        if desc.is_stencil:
            return _GL_STENCIL_ATTACHMENT
        return None

    def _upload_ok(self, host: HostFormat, desc: FormatDesc) -> bool:
        """Whether the row's transfer path (format/type, or the compressed
        upload) is accepted for this storage."""
        key = (host.internal_format, host.gl_format, host.gl_type)
        cached = self.uploads.get(key)
        if cached is not None:
            return cached
        raw = self.raw
        tex = self._new_texture(_GL_TEXTURE_2D)
        ok = self._allocate(_GL_TEXTURE_2D, host, desc)
        if ok:
            if host.compressed:
                raw.glCompressedTexSubImage2D(
                    _GL_TEXTURE_2D,
                    0,
                    0,
                    0,
                    desc.block_width,
                    desc.block_height,
                    host.internal_format,
                    desc.blocksize,
                    _ZEROS_PTR,
                )
            else:
                raw.glTexSubImage2D(
                    _GL_TEXTURE_2D, 0, 0, 0, _PROBE_SIZE, _PROBE_SIZE, host.gl_format, host.gl_type, _ZEROS_PTR
                )
            ok = self._ok()
        self._delete_texture(tex)
        self.uploads[key] = ok
        return ok

    # -- per format --------------------------------------------------------

    def _format_caps(self, desc: FormatDesc) -> FormatCaps:
        profile = self.profile
        vertex = desc.vertex is not None and all(host_has(profile, f) for f in desc.vertex.features)
        for host in desc.host:
            if not all(host_has(profile, f) for f in host.features):
                continue
            res = self._storage(host, desc)
            if not res.created or not self._upload_ok(host, desc):
                continue
            return self._caps_from(desc, host, res, vertex)
        return FormatCaps(vertex=vertex)

    def _caps_from(self, desc: FormatDesc, host: HostFormat, res: _StorageResult, vertex: bool) -> FormatCaps:
        profile = self.profile
        if host_decodes(desc, host):
            # Compressed data decoded at upload (fallback.compressed): it can
            # be sampled, on the targets GL gives the compression family
            # (2D, cube, arrays; 3D only for VOLUME_LAYOUTS), and nothing
            # else -- GL cannot render to or image-bind a compressed format.
            from fallback.compressed import VOLUME_LAYOUTS

            return FormatCaps(
                host=host,
                sampler=True,
                array=host_has(profile, "texture_array"),
                volume=desc.layout in VOLUME_LAYOUTS,
                vertex=vertex,
            )
        name = host.internal_format_name[3:]  # without "GL_"
        # Rendering is only correct where the host texel *is* the Gallium
        # texel.  An emulated format renders wrongly without context fixups:
        # A8 stored as R8 would take the shader's alpha only if the context
        # routed it (colormask/blend remapped to the red channel), and an X
        # format would blend with a stored "X" as destination alpha where
        # Gallium says it reads 1.  Those fixups belong to the context and
        # are not written yet, so RENDER_TARGET stays False for them.
        render = res.color and host.swizzle == IDENTITY_SWIZZLE
        plain_view = host.swizzle == IDENTITY_SWIZZLE and not host.needs_conversion
        canonical = (
            plain_view and host.gl_format in _CANONICAL_TRANSFER_FORMATS and host.gl_type in _CANONICAL_TRANSFER_TYPES
        )
        tbo = host_has(profile, "texture_buffer_object") and (
            name in _TBO_FORMATS or (name in _TBO_RGB32_FORMATS and host_has(profile, "texture_buffer_object_rgb32"))
        )
        # Image loads and stores see the host texel's channels unswizzled:
        # a format sampled through a swizzle is no Gallium image.  Without
        # host image load/store (gl33) the numpy executor's compute stage
        # has images (docs/compute.md): it reads and writes them through
        # transfers and fallback/format_pack.py, and offers GL's image
        # formats (table 8.26) so both profiles accept the same views.
        images = name in _IMAGE_FORMATS and host.swizzle == IDENTITY_SWIZZLE
        return FormatCaps(
            host=host,
            sampler=True,
            color_renderable=res.color,
            render=render,
            depth_stencil=res.depth_stencil,
            # GL blends every colour-renderable format except pure integer
            # ones (GL 4.5 §17.3.6: blending is skipped for integer buffers).
            blendable=render and not desc.is_pure_integer,
            samples=res.samples,
            array=res.array,
            volume=res.volume,
            image=images and host.swizzle == IDENTITY_SWIZZLE,
            buffer_sampler=canonical and tbo,
            buffer_image=canonical and images,
            vertex=vertex,
        )

    def run(self) -> FormatSupport:
        start = time.perf_counter()
        gl = self.gl
        self.host.clear_errors()
        saved = self._save()
        self.color_fbo = int(gl.glGenFramebuffers(1))
        self.zs_fbo = int(gl.glGenFramebuffers(1))
        try:
            # A depth/stencil-only framebuffer must not name a colour draw
            # or read buffer, or GL 3.3 calls it incomplete (§4.4.4).
            gl.glBindFramebuffer(_GL_FRAMEBUFFER, self.zs_fbo)
            gl.glDrawBuffer(_GL_NONE)
            gl.glReadBuffer(_GL_NONE)
            caps = tuple(self._format_caps(desc) for desc in FORMAT_TABLE)
        finally:
            gl.glDeleteFramebuffers(2, [self.color_fbo, self.zs_fbo])
            self._restore(saved)
            self.host.clear_errors()
        limit = self.profile.limit
        return FormatSupport(
            profile_name=self.profile.name,
            caps=caps,
            features=frozenset(f for f in _LOOKUP_FEATURES if host_has(self.profile, f)),
            # Framebuffers without attachments take the counts the host has
            # for colour targets, up to their own limit.
            framebuffer_sample_counts=frozenset(
                n for c in caps if c.color_renderable for n in c.samples if n <= limit("GL_MAX_FRAMEBUFFER_SAMPLES")
            ),
            max_image_samples=int(limit("GL_MAX_IMAGE_SAMPLES")),
            probe_seconds=time.perf_counter() - start,
            storages_probed=len({k if isinstance(k, int) else k[0] for k in self.storages}),
        )


def probe_format_support(host) -> FormatSupport:
    """Probe (once per host; cached on it) what every format can do on the
    host's profile.  Leaves the GL bindings it touched as it found them."""
    cached = getattr(host, "_glpipe_format_support", None)
    if cached is not None and cached.profile_name == host.profile.name:
        return cached
    if not host.on_gl_thread():
        raise HostGLError("probe_format_support: must run on the thread the host GL context is current on")
    with host.lock:
        cached = getattr(host, "_glpipe_format_support", None)
        if cached is None or cached.profile_name != host.profile.name:
            host.make_current()
            cached = _Prober(host).run()
            host._glpipe_format_support = cached
    return cached


# ---------------------------------------------------------------------------
# is_format_supported
# ---------------------------------------------------------------------------


def _count_arg(value, what: str) -> int:
    try:
        if isinstance(value, bool):
            raise TypeError
        value = operator.index(value)
    except TypeError:
        raise InvalidArgumentError(f"is_format_supported: {what} must be an int, got {show(value)}") from None
    if value < 0:
        raise InvalidArgumentError(f"is_format_supported: {what} must be >= 0, got {show(value)}")
    return value


def _target_ok(support: FormatSupport, caps: FormatCaps, desc: FormatDesc, target: Target) -> bool:
    """Whether a texture of ``desc`` can exist on ``target``."""
    if not support.has(_TARGET_FEATURES[target]):
        return False
    if desc.is_compressed:
        # GL takes compressed images only as 2D slices: never 1D or RECT;
        # arrays and 3D as far as the family allows (probed).
        if target in (Target.TEXTURE_2D, Target.TEXTURE_CUBE):
            return True
        if target in (Target.TEXTURE_2D_ARRAY, Target.TEXTURE_CUBE_ARRAY):
            return caps.array
        return target == Target.TEXTURE_3D and caps.volume
    if desc.is_depth_or_stencil:
        # GL 4.5 §8.5: depth/stencil textures exist for every target but 3D.
        return target != Target.TEXTURE_3D
    return True


def _buffer_supported(support: FormatSupport, caps: FormatCaps, bindings: int) -> bool:
    for bit in flag_bits(Bind):
        if not bindings & bit:
            continue
        if bit in _FORMATLESS_BUFFER_BINDS:
            ok = support.has(_FORMATLESS_BUFFER_BINDS[bit])
        elif bit == Bind.VERTEX_BUFFER:
            ok = caps.vertex
        elif bit == Bind.SAMPLER_VIEW:
            ok = caps.buffer_sampler
        elif bit == Bind.SHADER_IMAGE:
            ok = caps.buffer_image
        else:  # render targets, depth, display, ... are not buffer binds
            ok = bool(bit & _BINDS_ALWAYS)
        if not ok:
            return False
    return True


def _texture_supported(
    support: FormatSupport, caps: FormatCaps, fmt: Format, target: Target, samples: int, bindings: int
) -> bool:
    multisampled = samples > 1
    if multisampled:
        if target not in _MULTISAMPLE_TARGETS or not support.has("texture_multisample"):
            return False
        if samples not in caps.samples:
            return False
    for bit in flag_bits(Bind):
        if not bindings & bit:
            continue
        if bit == Bind.SAMPLER_VIEW:
            ok = caps.sampler
        elif bit == Bind.RENDER_TARGET:
            ok = caps.render
        elif bit == Bind.BLENDABLE:
            ok = caps.blendable
        elif bit == Bind.DEPTH_STENCIL:
            ok = caps.depth_stencil
        elif bit == Bind.SHADER_IMAGE:
            ok = caps.image and (not multisampled or samples <= support.max_image_samples)
        elif bit in (Bind.DISPLAY_TARGET, Bind.SCANOUT):
            ok = fmt in DISPLAY_FORMATS and not multisampled and target in (Target.TEXTURE_2D, Target.TEXTURE_RECT)
        else:  # vertex/index/constant/... buffers are not texture binds
            ok = bool(bit & _BINDS_ALWAYS)
        if not ok:
            return False
    return True


def is_format_supported(support: FormatSupport, format, target, sample_count, storage_sample_count, bindings) -> bool:
    """Gallium's ``pipe_screen::is_format_supported`` over a probe result.

    True when a resource of ``format`` on ``target`` with ``sample_count``
    (0 or 1: single-sampled) and ``storage_sample_count`` samples can be
    used for *every* bind flag in ``bindings``.  ``Format.NONE`` on a
    texture target asks whether framebuffers without attachments support
    ``sample_count``.  Unknown formats, targets or bind bits and non-integer
    or negative counts raise InvalidArgumentError.
    """
    fmt = _enum_value(Format, format, "is_format_supported format")
    target = _enum_value(Target, target, "is_format_supported target")
    samples = max(1, _count_arg(sample_count, "sample_count"))
    storage = max(1, _count_arg(storage_sample_count, "storage_sample_count"))
    binds = _count_arg(bindings, "bindings")
    if binds & ~_ALL_BINDS:
        raise InvalidArgumentError(f"is_format_supported: unknown bind bits {binds & ~_ALL_BINDS:#x}")

    # screen.rst: storage_sample_count must be <= sample_count.  Fewer
    # storage samples than coverage samples (EQAA-style mixed samples) has
    # no GL path here, so only equal counts are supported.
    if storage != samples:
        return False
    if samples > _MAX_SAMPLE_COUNT or samples & (samples - 1):
        return False
    if binds & _BINDS_NEVER:
        return False

    caps = support.caps[fmt]
    if target == Target.BUFFER:
        return samples == 1 and _buffer_supported(support, caps, binds)
    if fmt == Format.NONE:
        # The MSAA modes of framebuffers without attachments
        # (ARB_framebuffer_no_attachments): nothing else has format NONE.
        if not support.has("framebuffer_no_attachments") or binds & ~int(Bind.RENDER_TARGET | _BINDS_ALWAYS):
            return False
        if target not in (Target.TEXTURE_2D, Target.TEXTURE_2D_ARRAY):
            return False
        return samples == 1 or samples in support.framebuffer_sample_counts
    if caps.host is None:
        return False
    if not _target_ok(support, caps, util_format_description(fmt), target):
        return False
    return _texture_supported(support, caps, fmt, target, samples, binds)


def supported_formats(support: FormatSupport, target=Target.TEXTURE_2D, bindings=Bind.SAMPLER_VIEW) -> tuple:
    """Every format (but NONE) usable single-sampled on ``target`` for ``bindings``."""
    return tuple(f for f in Format if f != Format.NONE and is_format_supported(support, f, target, 0, 0, bindings))


__all__ = [
    "Format",
    "FormatDesc",
    "Channel",
    "ChannelType",
    "HostFormat",
    "VertexFetch",
    "FORMAT_TABLE",
    "FORMAT_COUNT",
    "COMPRESSED_LAYOUTS",
    "FormatCaps",
    "FormatSupport",
    "DISPLAY_FORMATS",
    "format_desc",
    "host_storage",
    "host_has",
    "host_decodes",
    "probe_format_support",
    "is_format_supported",
    "supported_formats",
    "util_format_description",
    "util_format_name",
    "util_format_get_blocksizebits",
    "util_format_get_blocksize",
    "util_format_get_blockwidth",
    "util_format_get_blockheight",
    "util_format_get_blockdepth",
    "util_format_get_nblocksx",
    "util_format_get_nblocksy",
    "util_format_get_nblocksz",
    "util_format_get_nblocks",
    "util_format_get_stride",
    "util_format_get_2d_size",
    "util_format_get_nr_components",
    "util_format_get_num_planes",
    "util_format_get_nr_planes",
    "util_format_is_compressed",
    "util_format_is_srgb",
    "util_format_is_depth_or_stencil",
    "util_format_is_depth_and_stencil",
    "util_format_has_depth",
    "util_format_has_stencil",
    "util_format_is_pure_integer",
    "util_format_is_pure_uint",
    "util_format_is_pure_sint",
    "util_format_is_float",
    "util_format_is_yuv",
    "util_format_compose_swizzles",
]
