"""The pipe_format table: one row per format of current Mesa (description, host
storage, vertex fetch), parsed once at import from compact text tables.

docs/formats.md "The format table" describes the tables' columns and options.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import EnumMeta, IntEnum
from typing import TYPE_CHECKING

# ---------------------------------------------------------------------------
# Data model
# ---------------------------------------------------------------------------


class ChannelType(IntEnum):
    """How one channel's bits are read (Mesa's util_format_type plus the
    normalized / pure-integer flags, folded into one name)."""

    VOID = 0
    UNORM = 1
    SNORM = 2
    USCALED = 3
    SSCALED = 4
    UINT = 5
    SINT = 6
    FLOAT = 7
    FIXED = 8


_CHANNEL_CODES = {
    "X": ChannelType.VOID,
    "UN": ChannelType.UNORM,
    "SN": ChannelType.SNORM,
    "U": ChannelType.USCALED,
    "S": ChannelType.SSCALED,
    "UP": ChannelType.UINT,
    "SP": ChannelType.SINT,
    "F": ChannelType.FLOAT,
    "H": ChannelType.FIXED,
}

_SIGNED_TYPES = frozenset({ChannelType.SNORM, ChannelType.SSCALED, ChannelType.SINT, ChannelType.FIXED})


@dataclass(frozen=True)
class Channel:
    """One channel of a format: its type, width in bits and bit offset in the block."""

    type: ChannelType
    size: int
    shift: int

    @property
    def normalized(self) -> bool:
        """UNORM or SNORM."""
        return self.type in (ChannelType.UNORM, ChannelType.SNORM)

    @property
    def pure_integer(self) -> bool:
        """UINT or SINT (read as integers, never converted to float)."""
        return self.type in (ChannelType.UINT, ChannelType.SINT)

    @property
    def signed(self) -> bool:
        """Whether the channel holds signed values (floats count as signed)."""
        return self.type in _SIGNED_TYPES or self.type == ChannelType.FLOAT


# PIPE_SWIZZLE_* values (u_formats.h): X..W pick a channel, then 0, 1, NONE.
SWIZZLE_X, SWIZZLE_Y, SWIZZLE_Z, SWIZZLE_W, SWIZZLE_0, SWIZZLE_1, SWIZZLE_NONE = range(7)
_DESC_SWIZZLE = {"x": 0, "y": 1, "z": 2, "w": 3, "0": 4, "1": 5, "_": 6}
_HOST_SWIZZLE = {"R": 0, "G": 1, "B": 2, "A": 3, "0": 4, "1": 5}
IDENTITY_SWIZZLE = (SWIZZLE_X, SWIZZLE_Y, SWIZZLE_Z, SWIZZLE_W)

# Layouts (Mesa's util_format_layout, lower case).
COMPRESSED_LAYOUTS = frozenset({"s3tc", "rgtc", "etc", "bptc", "astc", "atc", "fxt1"})
_LAYOUTS = COMPRESSED_LAYOUTS | {"plain", "subsampled", "planar2", "planar3", "other"}
_COLORSPACES = frozenset({"rgb", "srgb", "zs", "yuv"})


@dataclass(frozen=True)
class HostFormat:
    """One way the host GL can hold a pipe format.

    ``swizzle`` is applied when sampling (GL texture swizzle over the host
    texel: X = host R, ..., W = host A, plus 0/1); the identity means the
    host texel already is the Gallium texel.  ``transfer_as`` names the
    pipe format whose byte layout ``gl_format``/``gl_type`` describe when it
    differs from the format itself: transfers then convert with numpy
    (``fallback.format_pack``).  ``features`` must all be present on the
    host profile for this storage to be considered.
    """

    internal_format: int
    internal_format_name: str
    gl_format: int
    gl_format_name: str
    gl_type: int
    gl_type_name: str
    swizzle: tuple
    transfer_as: object | None
    features: tuple
    compressed: bool

    @property
    def needs_conversion(self) -> bool:
        """Whether transfers must convert the data (``transfer_as`` is set)."""
        return self.transfer_as is not None

    @property
    def emulated(self) -> bool:
        """Whether sampling needs a swizzle to give Gallium's answer."""
        return self.swizzle != IDENTITY_SWIZZLE


@dataclass(frozen=True)
class VertexFetch:
    """How a format is fetched as a GL vertex attribute.

    ``size`` is the component count (1..4) or GL_BGRA for BGRA order;
    ``path`` is ``"float"`` (glVertexAttribPointer, converted to float,
    ``normalized`` as given), ``"integer"`` (glVertexAttribIPointer) or
    ``"double"`` (glVertexAttribLPointer, 64-bit raw).  GL supplies
    (0, 0, 0, 1) for components a float or integer attribute lacks, but
    leaves them undefined for 64-bit attributes: a shader reading a
    ``double`` fetch must declare exactly ``size`` components.
    """

    size: int
    gl_type: int
    gl_type_name: str
    normalized: bool
    path: str
    features: tuple


@dataclass(frozen=True)
class FormatDesc:
    """Everything about one pipe_format (Mesa's util_format_description plus
    the host mapping).  ``block_bits`` is the size of one block in bits;
    ``channels`` the Gallium channels (void padding included, as Mesa counts
    them); ``swizzle`` Gallium's format swizzle (PIPE_SWIZZLE_* values).
    ``host`` holds the candidate host storages in order of preference
    (empty: no host can hold the format; ``primary_host`` is then None);
    ``vertex`` the GL vertex fetch, or None when GL cannot fetch it."""

    format: Format
    name: str
    layout: str
    colorspace: str
    block_width: int
    block_height: int
    block_depth: int
    block_bits: int
    channels: tuple
    swizzle: tuple
    is_plain: bool
    is_compressed: bool
    is_srgb: bool
    is_depth: bool
    is_stencil: bool
    is_pure_integer: bool
    is_pure_uint: bool
    is_pure_sint: bool
    is_normalized: bool
    is_float: bool
    is_array: bool
    nr_planes: int
    host: tuple
    vertex: VertexFetch | None

    @property
    def nr_channels(self) -> int:
        """Number of channels, void padding included (Mesa's nr_channels)."""
        return len(self.channels)

    @property
    def is_depth_or_stencil(self) -> bool:
        """Colour space ZS."""
        return self.colorspace == "zs"

    @property
    def blocksize(self) -> int:
        """Bytes per block (at least 1, as util_format_get_blocksize)."""
        return max(1, self.block_bits // 8)

    @property
    def primary_host(self) -> HostFormat | None:
        """The preferred host storage (before any profile restriction)."""
        return self.host[0] if self.host else None

    @property
    def gl_internal_format(self) -> int | None:
        """GL internal format of the preferred host storage, or None."""
        return self.host[0].internal_format if self.host else None

    @property
    def gl_format(self) -> int | None:
        """GL pixel-transfer format of the preferred host storage, or None."""
        return self.host[0].gl_format if self.host else None

    @property
    def gl_type(self) -> int | None:
        """GL pixel-transfer type of the preferred host storage, or None."""
        return self.host[0].gl_type if self.host else None

    @property
    def features(self) -> tuple:
        """Host features the preferred storage needs."""
        return self.host[0].features if self.host else ()


# ---------------------------------------------------------------------------
# GL enums used by the tables (values from the GL registry's glcorearb.h /
# glext.h; tests check them against PyOpenGL).
# ---------------------------------------------------------------------------

GL_ENUMS = {
    # sized internal formats
    "R8": 0x8229,
    "RG8": 0x822B,
    "RGB8": 0x8051,
    "RGBA8": 0x8058,
    "R16": 0x822A,
    "RG16": 0x822C,
    "RGB16": 0x8054,
    "RGBA16": 0x805B,
    "R8_SNORM": 0x8F94,
    "RG8_SNORM": 0x8F95,
    "RGB8_SNORM": 0x8F96,
    "RGBA8_SNORM": 0x8F97,
    "R16_SNORM": 0x8F98,
    "RG16_SNORM": 0x8F99,
    "RGB16_SNORM": 0x8F9A,
    "RGBA16_SNORM": 0x8F9B,
    "R16F": 0x822D,
    "RG16F": 0x822F,
    "RGB16F": 0x881B,
    "RGBA16F": 0x881A,
    "R32F": 0x822E,
    "RG32F": 0x8230,
    "RGB32F": 0x8815,
    "RGBA32F": 0x8814,
    "R8UI": 0x8232,
    "RG8UI": 0x8238,
    "RGB8UI": 0x8D7D,
    "RGBA8UI": 0x8D7C,
    "R8I": 0x8231,
    "RG8I": 0x8237,
    "RGB8I": 0x8D8F,
    "RGBA8I": 0x8D8E,
    "R16UI": 0x8234,
    "RG16UI": 0x823A,
    "RGB16UI": 0x8D77,
    "RGBA16UI": 0x8D76,
    "R16I": 0x8233,
    "RG16I": 0x8239,
    "RGB16I": 0x8D89,
    "RGBA16I": 0x8D88,
    "R32UI": 0x8236,
    "RG32UI": 0x823C,
    "RGB32UI": 0x8D71,
    "RGBA32UI": 0x8D70,
    "R32I": 0x8235,
    "RG32I": 0x823B,
    "RGB32I": 0x8D83,
    "RGBA32I": 0x8D82,
    "RGB10_A2": 0x8059,
    "RGB10_A2UI": 0x906F,
    "R11F_G11F_B10F": 0x8C3A,
    "RGB9_E5": 0x8C3D,
    "RGB5_A1": 0x8057,
    "RGBA4": 0x8056,
    "RGB565": 0x8D62,
    "R3_G3_B2": 0x2A10,
    "SRGB8": 0x8C41,
    "SRGB8_ALPHA8": 0x8C43,
    "SR8_EXT": 0x8FBD,
    "SRG8_EXT": 0x8FBE,
    "DEPTH_COMPONENT16": 0x81A5,
    "DEPTH_COMPONENT24": 0x81A6,
    "DEPTH_COMPONENT32": 0x81A7,
    "DEPTH_COMPONENT32F": 0x8CAC,
    "DEPTH24_STENCIL8": 0x88F0,
    "DEPTH32F_STENCIL8": 0x8CAD,
    "STENCIL_INDEX8": 0x8D48,
    # compressed internal formats
    "COMPRESSED_RGB_S3TC_DXT1_EXT": 0x83F0,
    "COMPRESSED_RGBA_S3TC_DXT1_EXT": 0x83F1,
    "COMPRESSED_RGBA_S3TC_DXT3_EXT": 0x83F2,
    "COMPRESSED_RGBA_S3TC_DXT5_EXT": 0x83F3,
    "COMPRESSED_SRGB_S3TC_DXT1_EXT": 0x8C4C,
    "COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT": 0x8C4D,
    "COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT": 0x8C4E,
    "COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT": 0x8C4F,
    "COMPRESSED_RED_RGTC1": 0x8DBB,
    "COMPRESSED_SIGNED_RED_RGTC1": 0x8DBC,
    "COMPRESSED_RG_RGTC2": 0x8DBD,
    "COMPRESSED_SIGNED_RG_RGTC2": 0x8DBE,
    "COMPRESSED_RGBA_BPTC_UNORM": 0x8E8C,
    "COMPRESSED_SRGB_ALPHA_BPTC_UNORM": 0x8E8D,
    "COMPRESSED_RGB_BPTC_SIGNED_FLOAT": 0x8E8E,
    "COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT": 0x8E8F,
    "COMPRESSED_RGB8_ETC2": 0x9274,
    "COMPRESSED_SRGB8_ETC2": 0x9275,
    "COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2": 0x9276,
    "COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2": 0x9277,
    "COMPRESSED_RGBA8_ETC2_EAC": 0x9278,
    "COMPRESSED_SRGB8_ALPHA8_ETC2_EAC": 0x9279,
    "COMPRESSED_R11_EAC": 0x9270,
    "COMPRESSED_SIGNED_R11_EAC": 0x9271,
    "COMPRESSED_RG11_EAC": 0x9272,
    "COMPRESSED_SIGNED_RG11_EAC": 0x9273,
    "COMPRESSED_RGB_FXT1_3DFX": 0x86B0,
    "COMPRESSED_RGBA_FXT1_3DFX": 0x86B1,
    # pixel transfer formats
    "RED": 0x1903,
    "RG": 0x8227,
    "RGB": 0x1907,
    "RGBA": 0x1908,
    "BGR": 0x80E0,
    "BGRA": 0x80E1,
    "RED_INTEGER": 0x8D94,
    "RG_INTEGER": 0x8228,
    "RGB_INTEGER": 0x8D98,
    "RGBA_INTEGER": 0x8D99,
    "BGR_INTEGER": 0x8D9A,
    "BGRA_INTEGER": 0x8D9B,
    "DEPTH_COMPONENT": 0x1902,
    "DEPTH_STENCIL": 0x84F9,
    "STENCIL_INDEX": 0x1901,
    # pixel transfer / vertex types
    "UNSIGNED_BYTE": 0x1401,
    "BYTE": 0x1400,
    "UNSIGNED_SHORT": 0x1403,
    "SHORT": 0x1402,
    "UNSIGNED_INT": 0x1405,
    "INT": 0x1404,
    "HALF_FLOAT": 0x140B,
    "FLOAT": 0x1406,
    "DOUBLE": 0x140A,
    "FIXED": 0x140C,
    "UNSIGNED_BYTE_3_3_2": 0x8032,
    "UNSIGNED_BYTE_2_3_3_REV": 0x8362,
    "UNSIGNED_SHORT_5_6_5": 0x8363,
    "UNSIGNED_SHORT_5_6_5_REV": 0x8364,
    "UNSIGNED_SHORT_4_4_4_4": 0x8033,
    "UNSIGNED_SHORT_4_4_4_4_REV": 0x8365,
    "UNSIGNED_SHORT_5_5_5_1": 0x8034,
    "UNSIGNED_SHORT_1_5_5_5_REV": 0x8366,
    "UNSIGNED_INT_8_8_8_8": 0x8035,
    "UNSIGNED_INT_8_8_8_8_REV": 0x8367,
    "UNSIGNED_INT_10_10_10_2": 0x8036,
    "UNSIGNED_INT_2_10_10_10_REV": 0x8368,
    "INT_2_10_10_10_REV": 0x8D9F,
    "UNSIGNED_INT_24_8": 0x84FA,
    "UNSIGNED_INT_10F_11F_11F_REV": 0x8C3B,
    "UNSIGNED_INT_5_9_9_9_REV": 0x8C3E,
    "FLOAT_32_UNSIGNED_INT_24_8_REV": 0x8DAD,
}

# ASTC (KHR_texture_compression_astc_ldr): RGBA in block-size order from
# 0x93B0, sRGB from 0x93D0.  The HDR profile reuses the same enums.
ASTC_2D_BLOCKS = (
    "4x4",
    "5x4",
    "5x5",
    "6x5",
    "6x6",
    "8x5",
    "8x6",
    "8x8",
    "10x5",
    "10x6",
    "10x8",
    "10x10",
    "12x10",
    "12x12",
)
for _i, _b in enumerate(ASTC_2D_BLOCKS):
    GL_ENUMS[f"COMPRESSED_RGBA_ASTC_{_b}_KHR"] = 0x93B0 + _i
    GL_ENUMS[f"COMPRESSED_SRGB8_ALPHA8_ASTC_{_b}_KHR"] = 0x93D0 + _i

GL_BGRA = GL_ENUMS["BGRA"]

# ---------------------------------------------------------------------------
# The description table, in enum pipe_format order.
# ---------------------------------------------------------------------------

_DESCRIPTIONS = """
# name                              layout     cs    block  channels                 swizzle
NONE                                plain      rgb   1x1    U8                       x001
R64_UINT                            plain      rgb   1x1    UP64                     x001
R64G64_UINT                         plain      rgb   1x1    UP64*2                   xy01
R64G64B64_UINT                      plain      rgb   1x1    UP64*3                   xyz1
R64G64B64A64_UINT                   plain      rgb   1x1    UP64*4                   xyzw
R64_SINT                            plain      rgb   1x1    SP64                     x001
R64G64_SINT                         plain      rgb   1x1    SP64*2                   xy01
R64G64B64_SINT                      plain      rgb   1x1    SP64*3                   xyz1
R64G64B64A64_SINT                   plain      rgb   1x1    SP64*4                   xyzw
R64_FLOAT                           plain      rgb   1x1    F64                      x001
R64G64_FLOAT                        plain      rgb   1x1    F64*2                    xy01
R64G64B64_FLOAT                     plain      rgb   1x1    F64*3                    xyz1
R64G64B64A64_FLOAT                  plain      rgb   1x1    F64*4                    xyzw
R32_FLOAT                           plain      rgb   1x1    F32                      x001
R32G32_FLOAT                        plain      rgb   1x1    F32*2                    xy01
R32G32B32_FLOAT                     plain      rgb   1x1    F32*3                    xyz1
R32G32B32A32_FLOAT                  plain      rgb   1x1    F32*4                    xyzw
R32_UNORM                           plain      rgb   1x1    UN32                     x001
R32G32_UNORM                        plain      rgb   1x1    UN32*2                   xy01
R32G32B32_UNORM                     plain      rgb   1x1    UN32*3                   xyz1
R32G32B32A32_UNORM                  plain      rgb   1x1    UN32*4                   xyzw
R32_USCALED                         plain      rgb   1x1    U32                      x001
R32G32_USCALED                      plain      rgb   1x1    U32*2                    xy01
R32G32B32_USCALED                   plain      rgb   1x1    U32*3                    xyz1
R32G32B32A32_USCALED                plain      rgb   1x1    U32*4                    xyzw
R32_SNORM                           plain      rgb   1x1    SN32                     x001
R32G32_SNORM                        plain      rgb   1x1    SN32*2                   xy01
R32G32B32_SNORM                     plain      rgb   1x1    SN32*3                   xyz1
R32G32B32A32_SNORM                  plain      rgb   1x1    SN32*4                   xyzw
R32_SSCALED                         plain      rgb   1x1    S32                      x001
R32G32_SSCALED                      plain      rgb   1x1    S32*2                    xy01
R32G32B32_SSCALED                   plain      rgb   1x1    S32*3                    xyz1
R32G32B32A32_SSCALED                plain      rgb   1x1    S32*4                    xyzw
R16_UNORM                           plain      rgb   1x1    UN16                     x001
R16G16_UNORM                        plain      rgb   1x1    UN16*2                   xy01
R16G16B16_UNORM                     plain      rgb   1x1    UN16*3                   xyz1
R16G16B16A16_UNORM                  plain      rgb   1x1    UN16*4                   xyzw
R16_USCALED                         plain      rgb   1x1    U16                      x001
R16G16_USCALED                      plain      rgb   1x1    U16*2                    xy01
R16G16B16_USCALED                   plain      rgb   1x1    U16*3                    xyz1
R16G16B16A16_USCALED                plain      rgb   1x1    U16*4                    xyzw
R16_SNORM                           plain      rgb   1x1    SN16                     x001
R16G16_SNORM                        plain      rgb   1x1    SN16*2                   xy01
R16G16B16_SNORM                     plain      rgb   1x1    SN16*3                   xyz1
R16G16B16A16_SNORM                  plain      rgb   1x1    SN16*4                   xyzw
R16_SSCALED                         plain      rgb   1x1    S16                      x001
R16G16_SSCALED                      plain      rgb   1x1    S16*2                    xy01
R16G16B16_SSCALED                   plain      rgb   1x1    S16*3                    xyz1
R16G16B16A16_SSCALED                plain      rgb   1x1    S16*4                    xyzw
R8_UNORM                            plain      rgb   1x1    UN8                      x001
R8G8_UNORM                          plain      rgb   1x1    UN8*2                    xy01
R8G8B8_UNORM                        plain      rgb   1x1    UN8*3                    xyz1
B8G8R8_UNORM                        plain      rgb   1x1    UN8*3                    zyx1
R8G8B8A8_UNORM                      plain      rgb   1x1    UN8*4                    xyzw
B8G8R8A8_UNORM                      plain      rgb   1x1    UN8*4                    zyxw
R8_USCALED                          plain      rgb   1x1    U8                       x001
R8G8_USCALED                        plain      rgb   1x1    U8*2                     xy01
R8G8B8_USCALED                      plain      rgb   1x1    U8*3                     xyz1
B8G8R8_USCALED                      plain      rgb   1x1    U8*3                     zyx1
R8G8B8A8_USCALED                    plain      rgb   1x1    U8*4                     xyzw
B8G8R8A8_USCALED                    plain      rgb   1x1    U8*4                     zyxw
A8B8G8R8_USCALED                    plain      rgb   1x1    U8*4                     wzyx
R8_SNORM                            plain      rgb   1x1    SN8                      x001
R8G8_SNORM                          plain      rgb   1x1    SN8*2                    xy01
R8G8B8_SNORM                        plain      rgb   1x1    SN8*3                    xyz1
B8G8R8_SNORM                        plain      rgb   1x1    SN8*3                    zyx1
R8G8B8A8_SNORM                      plain      rgb   1x1    SN8*4                    xyzw
B8G8R8A8_SNORM                      plain      rgb   1x1    SN8*4                    zyxw
R8_SSCALED                          plain      rgb   1x1    S8                       x001
R8G8_SSCALED                        plain      rgb   1x1    S8*2                     xy01
R8G8B8_SSCALED                      plain      rgb   1x1    S8*3                     xyz1
B8G8R8_SSCALED                      plain      rgb   1x1    S8*3                     zyx1
R8G8B8A8_SSCALED                    plain      rgb   1x1    S8*4                     xyzw
B8G8R8A8_SSCALED                    plain      rgb   1x1    S8*4                     zyxw
A8B8G8R8_SSCALED                    plain      rgb   1x1    S8*4                     wzyx
A8R8G8B8_UNORM                      plain      rgb   1x1    UN8*4                    yzwx
R32_FIXED                           plain      rgb   1x1    H32                      x001
R32G32_FIXED                        plain      rgb   1x1    H32*2                    xy01
R32G32B32_FIXED                     plain      rgb   1x1    H32*3                    xyz1
R32G32B32A32_FIXED                  plain      rgb   1x1    H32*4                    xyzw
R16_FLOAT                           plain      rgb   1x1    F16                      x001
R16G16_FLOAT                        plain      rgb   1x1    F16*2                    xy01
R16G16B16_FLOAT                     plain      rgb   1x1    F16*3                    xyz1
R16G16B16A16_FLOAT                  plain      rgb   1x1    F16*4                    xyzw
R8_UINT                             plain      rgb   1x1    UP8                      x001
R8G8_UINT                           plain      rgb   1x1    UP8*2                    xy01
R8G8B8_UINT                         plain      rgb   1x1    UP8*3                    xyz1
B8G8R8_UINT                         plain      rgb   1x1    UP8*3                    zyx1
R8G8B8A8_UINT                       plain      rgb   1x1    UP8*4                    xyzw
B8G8R8A8_UINT                       plain      rgb   1x1    UP8*4                    zyxw
R8_SINT                             plain      rgb   1x1    SP8                      x001
R8G8_SINT                           plain      rgb   1x1    SP8*2                    xy01
R8G8B8_SINT                         plain      rgb   1x1    SP8*3                    xyz1
B8G8R8_SINT                         plain      rgb   1x1    SP8*3                    zyx1
R8G8B8A8_SINT                       plain      rgb   1x1    SP8*4                    xyzw
B8G8R8A8_SINT                       plain      rgb   1x1    SP8*4                    zyxw
R16_UINT                            plain      rgb   1x1    UP16                     x001
R16G16_UINT                         plain      rgb   1x1    UP16*2                   xy01
R16G16B16_UINT                      plain      rgb   1x1    UP16*3                   xyz1
R16G16B16A16_UINT                   plain      rgb   1x1    UP16*4                   xyzw
R16_SINT                            plain      rgb   1x1    SP16                     x001
R16G16_SINT                         plain      rgb   1x1    SP16*2                   xy01
R16G16B16_SINT                      plain      rgb   1x1    SP16*3                   xyz1
R16G16B16A16_SINT                   plain      rgb   1x1    SP16*4                   xyzw
R32_UINT                            plain      rgb   1x1    UP32                     x001
R32G32_UINT                         plain      rgb   1x1    UP32*2                   xy01
R32G32B32_UINT                      plain      rgb   1x1    UP32*3                   xyz1
R32G32B32A32_UINT                   plain      rgb   1x1    UP32*4                   xyzw
R32_SINT                            plain      rgb   1x1    SP32                     x001
R32G32_SINT                         plain      rgb   1x1    SP32*2                   xy01
R32G32B32_SINT                      plain      rgb   1x1    SP32*3                   xyz1
R32G32B32A32_SINT                   plain      rgb   1x1    SP32*4                   xyzw
R10G10B10A2_UNORM                   plain      rgb   1x1    UN10*3,UN2               xyzw
R10G10B10A2_SNORM                   plain      rgb   1x1    SN10*3,SN2               xyzw
R10G10B10A2_USCALED                 plain      rgb   1x1    U10*3,U2                 xyzw
R10G10B10A2_SSCALED                 plain      rgb   1x1    S10*3,S2                 xyzw
B10G10R10A2_UNORM                   plain      rgb   1x1    UN10*3,UN2               zyxw
B10G10R10A2_SNORM                   plain      rgb   1x1    SN10*3,SN2               zyxw
B10G10R10A2_USCALED                 plain      rgb   1x1    U10*3,U2                 zyxw
B10G10R10A2_SSCALED                 plain      rgb   1x1    S10*3,S2                 zyxw
R11G11B10_FLOAT                     other      rgb   1x1    F11,F11,F10              xyz1
R10G10B10A2_UINT                    plain      rgb   1x1    UP10*3,UP2               xyzw
R10G10B10A2_SINT                    plain      rgb   1x1    SP10*3,SP2               xyzw
B10G10R10A2_UINT                    plain      rgb   1x1    UP10*3,UP2               zyxw
B10G10R10A2_SINT                    plain      rgb   1x1    SP10*3,SP2               zyxw
B8G8R8X8_UNORM                      plain      rgb   1x1    UN8*3,X8                 zyx1
X8B8G8R8_UNORM                      plain      rgb   1x1    X8,UN8*3                 wzy1
X8R8G8B8_UNORM                      plain      rgb   1x1    X8,UN8*3                 yzw1
B5G5R5A1_UNORM                      plain      rgb   1x1    UN5*3,UN1                zyxw
R4G4B4A4_UNORM                      plain      rgb   1x1    UN4*4                    xyzw
B4G4R4A4_UNORM                      plain      rgb   1x1    UN4*4                    zyxw
R5G6B5_UNORM                        plain      rgb   1x1    UN5,UN6,UN5              xyz1
B5G6R5_UNORM                        plain      rgb   1x1    UN5,UN6,UN5              zyx1
L8_UNORM                            plain      rgb   1x1    UN8                      xxx1
A8_UNORM                            plain      rgb   1x1    UN8                      000x
I8_UNORM                            plain      rgb   1x1    UN8                      xxxx
L8A8_UNORM                          plain      rgb   1x1    UN8*2                    xxxy
L16_UNORM                           plain      rgb   1x1    UN16                     xxx1
UYVY                                subsampled yuv   2x1    UN8*4                    xyz1
VYUY                                subsampled yuv   2x1    UN8*4                    xyz1
YUYV                                subsampled yuv   2x1    UN8*4                    xyz1
YVYU                                subsampled yuv   2x1    UN8*4                    xyz1
Z16_UNORM                           plain      zs    1x1    UN16                     x___
Z16_UNORM_S8_UINT                   plain      zs    1x1    UN16,UP8                 xy__
Z32_UNORM                           plain      zs    1x1    UN32                     x___
Z32_FLOAT                           plain      zs    1x1    F32                      x___
Z24_UNORM_S8_UINT                   plain      zs    1x1    UN24,UP8                 xy__
S8_UINT_Z24_UNORM                   plain      zs    1x1    UP8,UN24                 yx__
Z24X8_UNORM                         plain      zs    1x1    UN24,X8                  x___
X8Z24_UNORM                         plain      zs    1x1    X8,UN24                  y___
S8_UINT                             plain      zs    1x1    UP8                      _x__
L8_SRGB                             plain      srgb  1x1    UN8                      xxx1
R8_SRGB                             plain      srgb  1x1    UN8                      x001
L8A8_SRGB                           plain      srgb  1x1    UN8*2                    xxxy
R8G8_SRGB                           plain      srgb  1x1    UN8*2                    xy01
R8G8B8_SRGB                         plain      srgb  1x1    UN8*3                    xyz1
B8G8R8_SRGB                         plain      srgb  1x1    UN8*3                    zyx1
A8B8G8R8_SRGB                       plain      srgb  1x1    UN8*4                    wzyx
X8B8G8R8_SRGB                       plain      srgb  1x1    X8,UN8*3                 wzy1
B8G8R8A8_SRGB                       plain      srgb  1x1    UN8*4                    zyxw
B8G8R8X8_SRGB                       plain      srgb  1x1    UN8*3,X8                 zyx1
A8R8G8B8_SRGB                       plain      srgb  1x1    UN8*4                    yzwx
X8R8G8B8_SRGB                       plain      srgb  1x1    X8,UN8*3                 yzw1
R8G8B8A8_SRGB                       plain      srgb  1x1    UN8*4                    xyzw
DXT1_RGB                            s3tc       rgb   4x4    X64                      xyz1
DXT1_RGBA                           s3tc       rgb   4x4    X64                      xyzw
DXT3_RGBA                           s3tc       rgb   4x4    X128                     xyzw
DXT5_RGBA                           s3tc       rgb   4x4    X128                     xyzw
DXT1_SRGB                           s3tc       srgb  4x4    X64                      xyz1
DXT1_SRGBA                          s3tc       srgb  4x4    X64                      xyzw
DXT3_SRGBA                          s3tc       srgb  4x4    X128                     xyzw
DXT5_SRGBA                          s3tc       srgb  4x4    X128                     xyzw
RGTC1_UNORM                         rgtc       rgb   4x4    X64                      x001
RGTC1_SNORM                         rgtc       rgb   4x4    X64                      x001
RGTC2_UNORM                         rgtc       rgb   4x4    X128                     xy01
RGTC2_SNORM                         rgtc       rgb   4x4    X128                     xy01
R8G8_B8G8_UNORM                     subsampled rgb   2x1    UN8*4                    xyz1
G8R8_G8B8_UNORM                     subsampled rgb   2x1    UN8*4                    xyz1
X6G10_X6B10X6R10_420_UNORM          planar2    rgb   1x1    X6,UN10                  xyzw
X4G12_X4B12X4R12_420_UNORM          planar2    rgb   1x1    X4,UN12                  xyzw
X6R10_UNORM                         plain      rgb   1x1    X6,UN10                  y001
X6R10X6G10_UNORM                    plain      rgb   1x1    X6,UN10,X6,UN10          yw01
X4R12_UNORM                         plain      rgb   1x1    X4,UN12                  y001
X4R12X4G12_UNORM                    plain      rgb   1x1    X4,UN12,X4,UN12          yw01
R8SG8SB8UX8U_NORM                   plain      rgb   1x1    SN8,SN8,UN8,X8           xyz1
R5SG5SB6U_NORM                      plain      rgb   1x1    SN5,SN5,UN6              xyz1
A8B8G8R8_UNORM                      plain      rgb   1x1    UN8*4                    wzyx
B5G5R5X1_UNORM                      plain      rgb   1x1    UN5*3,X1                 zyx1
R9G9B9E5_FLOAT                      other      rgb   1x1    F9*3,X5                  xyz1
Z32_FLOAT_S8X24_UINT                plain      zs    1x1    F32,UP8,X24              xy__
R1_UNORM                            other      rgb   8x1    X8                       x001
R10G10B10X2_USCALED                 plain      rgb   1x1    U10*3,X2                 xyz1
R10G10B10X2_SNORM                   plain      rgb   1x1    SN10*3,X2                xyz1
L4A4_UNORM                          plain      rgb   1x1    UN4*2                    xxxy
A2R10G10B10_UNORM                   plain      rgb   1x1    UN2,UN10*3               yzwx
A2B10G10R10_UNORM                   plain      rgb   1x1    UN2,UN10*3               wzyx
R10SG10SB10SA2U_NORM                plain      rgb   1x1    SN10*3,UN2               xyzw
R8G8Bx_SNORM                        other      rgb   1x1    SN8*2                    xyz1
R8G8B8X8_UNORM                      plain      rgb   1x1    UN8*3,X8                 xyz1
B4G4R4X4_UNORM                      plain      rgb   1x1    UN4*3,X4                 zyx1
X24S8_UINT                          plain      zs    1x1    X24,UP8                  _y__
S8X24_UINT                          plain      zs    1x1    UP8,X24                  _x__
X32_S8X24_UINT                      plain      zs    1x1    X32,UP8,X24              _y__
R3G3B2_UNORM                        plain      rgb   1x1    UN3,UN3,UN2              xyz1
B2G3R3_UNORM                        plain      rgb   1x1    UN2,UN3,UN3              zyx1
L16A16_UNORM                        plain      rgb   1x1    UN16*2                   xxxy
A16_UNORM                           plain      rgb   1x1    UN16                     000x
I16_UNORM                           plain      rgb   1x1    UN16                     xxxx
LATC1_UNORM                         rgtc       rgb   4x4    X64                      xxx1
LATC1_SNORM                         rgtc       rgb   4x4    X64                      xxx1
LATC2_UNORM                         rgtc       rgb   4x4    X128                     xxxy
LATC2_SNORM                         rgtc       rgb   4x4    X128                     xxxy
A8_SNORM                            plain      rgb   1x1    SN8                      000x
L8_SNORM                            plain      rgb   1x1    SN8                      xxx1
L8A8_SNORM                          plain      rgb   1x1    SN8*2                    xxxy
I8_SNORM                            plain      rgb   1x1    SN8                      xxxx
A16_SNORM                           plain      rgb   1x1    SN16                     000x
L16_SNORM                           plain      rgb   1x1    SN16                     xxx1
L16A16_SNORM                        plain      rgb   1x1    SN16*2                   xxxy
I16_SNORM                           plain      rgb   1x1    SN16                     xxxx
A16_FLOAT                           plain      rgb   1x1    F16                      000x
L16_FLOAT                           plain      rgb   1x1    F16                      xxx1
L16A16_FLOAT                        plain      rgb   1x1    F16*2                    xxxy
I16_FLOAT                           plain      rgb   1x1    F16                      xxxx
A32_FLOAT                           plain      rgb   1x1    F32                      000x
L32_FLOAT                           plain      rgb   1x1    F32                      xxx1
L32A32_FLOAT                        plain      rgb   1x1    F32*2                    xxxy
I32_FLOAT                           plain      rgb   1x1    F32                      xxxx
YV12                                planar3    yuv   1x1    -                        xyzw
YV16                                planar3    yuv   1x1    -                        xyzw
IYUV                                planar3    yuv   1x1    -                        xyzw
NV12                                planar2    yuv   1x1    -                        xyzw
NV21                                planar2    yuv   1x1    -                        xyzw
NV16                                planar2    yuv   1x1    -                        xyzw
NV15                                planar2    yuv   1x1    -                        xyzw
NV20                                planar2    yuv   1x1    -                        xyzw
Y8_400_UNORM                        other      yuv   1x1    UN8                      x001
Y8_U8_V8_422_UNORM                  planar3    yuv   1x1    -                        xyzw
Y8_U8_V8_444_UNORM                  planar3    yuv   1x1    -                        xyzw
Y8_U8_V8_440_UNORM                  planar3    yuv   1x1    -                        xyzw
Y10X6_U10X6_V10X6_420_UNORM         planar3    yuv   1x1    -                        xyzw
Y10X6_U10X6_V10X6_422_UNORM         planar3    yuv   1x1    -                        xyzw
Y10X6_U10X6_V10X6_444_UNORM         planar3    yuv   1x1    -                        xyzw
Y12X4_U12X4_V12X4_420_UNORM         planar3    yuv   1x1    -                        xyzw
Y12X4_U12X4_V12X4_422_UNORM         planar3    yuv   1x1    -                        xyzw
Y12X4_U12X4_V12X4_444_UNORM         planar3    yuv   1x1    -                        xyzw
Y16_U16_V16_420_UNORM               planar3    yuv   1x1    -                        xyzw
Y16_U16_V16_422_UNORM               planar3    yuv   1x1    -                        xyzw
Y16_U16V16_422_UNORM                planar2    yuv   1x1    -                        xyzw
Y16_U16_V16_444_UNORM               planar3    yuv   1x1    -                        xyzw
Y8U8V8_420_UNORM_PACKED             subsampled yuv   1x1    -                        xyzw
Y10U10V10_420_UNORM_PACKED          subsampled yuv   1x1    -                        xyzw
A4R4_UNORM                          plain      rgb   1x1    UN4*2                    y00x
R4A4_UNORM                          plain      rgb   1x1    UN4*2                    x00y
R8A8_UNORM                          plain      rgb   1x1    UN8*2                    x00y
A8R8_UNORM                          plain      rgb   1x1    UN8*2                    y00x
A8_UINT                             plain      rgb   1x1    UP8                      000x
I8_UINT                             plain      rgb   1x1    UP8                      xxxx
L8_UINT                             plain      rgb   1x1    UP8                      xxx1
L8A8_UINT                           plain      rgb   1x1    UP8*2                    xxxy
A8_SINT                             plain      rgb   1x1    SP8                      000x
I8_SINT                             plain      rgb   1x1    SP8                      xxxx
L8_SINT                             plain      rgb   1x1    SP8                      xxx1
L8A8_SINT                           plain      rgb   1x1    SP8*2                    xxxy
A16_UINT                            plain      rgb   1x1    UP16                     000x
I16_UINT                            plain      rgb   1x1    UP16                     xxxx
L16_UINT                            plain      rgb   1x1    UP16                     xxx1
L16A16_UINT                         plain      rgb   1x1    UP16*2                   xxxy
A16_SINT                            plain      rgb   1x1    SP16                     000x
I16_SINT                            plain      rgb   1x1    SP16                     xxxx
L16_SINT                            plain      rgb   1x1    SP16                     xxx1
L16A16_SINT                         plain      rgb   1x1    SP16*2                   xxxy
A32_UINT                            plain      rgb   1x1    UP32                     000x
I32_UINT                            plain      rgb   1x1    UP32                     xxxx
L32_UINT                            plain      rgb   1x1    UP32                     xxx1
L32A32_UINT                         plain      rgb   1x1    UP32*2                   xxxy
A32_SINT                            plain      rgb   1x1    SP32                     000x
I32_SINT                            plain      rgb   1x1    SP32                     xxxx
L32_SINT                            plain      rgb   1x1    SP32                     xxx1
L32A32_SINT                         plain      rgb   1x1    SP32*2                   xxxy
A8R8G8B8_UINT                       plain      rgb   1x1    UP8*4                    yzwx
A8B8G8R8_UINT                       plain      rgb   1x1    UP8*4                    wzyx
A2R10G10B10_UINT                    plain      rgb   1x1    UP2,UP10*3               yzwx
A2B10G10R10_UINT                    plain      rgb   1x1    UP2,UP10*3               wzyx
R5G6B5_UINT                         plain      rgb   1x1    UP5,UP6,UP5              xyz1
B5G6R5_UINT                         plain      rgb   1x1    UP5,UP6,UP5              zyx1
R5G5B5A1_UINT                       plain      rgb   1x1    UP5*3,UP1                xyzw
B5G5R5A1_UINT                       plain      rgb   1x1    UP5*3,UP1                zyxw
A1R5G5B5_UINT                       plain      rgb   1x1    UP1,UP5*3                yzwx
A1B5G5R5_UINT                       plain      rgb   1x1    UP1,UP5*3                wzyx
R4G4B4A4_UINT                       plain      rgb   1x1    UP4*4                    xyzw
B4G4R4A4_UINT                       plain      rgb   1x1    UP4*4                    zyxw
A4R4G4B4_UINT                       plain      rgb   1x1    UP4*4                    yzwx
A4B4G4R4_UINT                       plain      rgb   1x1    UP4*4                    wzyx
R3G3B2_UINT                         plain      rgb   1x1    UP3,UP3,UP2              xyz1
B2G3R3_UINT                         plain      rgb   1x1    UP2,UP3,UP3              zyx1
ETC1_RGB8                           etc        rgb   4x4    X64                      xyz1
R8G8_R8B8_UNORM                     subsampled rgb   2x1    UN8*4                    zyx1
R8B8_R8G8_UNORM                     subsampled rgb   2x1    UN8*4                    yxz1
G8R8_B8R8_UNORM                     subsampled rgb   2x1    UN8*4                    zyx1
B8R8_G8R8_UNORM                     subsampled rgb   2x1    UN8*4                    yxz1
G8B8_G8R8_UNORM                     subsampled rgb   2x1    UN8*4                    xyz1
B8G8_R8G8_UNORM                     subsampled rgb   2x1    UN8*4                    xyz1
R8G8B8X8_SNORM                      plain      rgb   1x1    SN8*3,X8                 xyz1
R8G8B8X8_SRGB                       plain      srgb  1x1    UN8*3,X8                 xyz1
R8G8B8X8_UINT                       plain      rgb   1x1    UP8*3,X8                 xyz1
R8G8B8X8_SINT                       plain      rgb   1x1    SP8*3,X8                 xyz1
B10G10R10X2_UNORM                   plain      rgb   1x1    UN10*3,X2                zyx1
R16G16B16X16_UNORM                  plain      rgb   1x1    UN16*3,X16               xyz1
R16G16B16X16_SNORM                  plain      rgb   1x1    SN16*3,X16               xyz1
R16G16B16X16_FLOAT                  plain      rgb   1x1    F16*3,X16                xyz1
R16G16B16X16_UINT                   plain      rgb   1x1    UP16*3,X16               xyz1
R16G16B16X16_SINT                   plain      rgb   1x1    SP16*3,X16               xyz1
R32G32B32X32_FLOAT                  plain      rgb   1x1    F32*3,X32                xyz1
R32G32B32X32_UINT                   plain      rgb   1x1    UP32*3,X32               xyz1
R32G32B32X32_SINT                   plain      rgb   1x1    SP32*3,X32               xyz1
R8A8_SNORM                          plain      rgb   1x1    SN8*2                    x00y
R16A16_UNORM                        plain      rgb   1x1    UN16*2                   x00y
R16A16_SNORM                        plain      rgb   1x1    SN16*2                   x00y
R16A16_FLOAT                        plain      rgb   1x1    F16*2                    x00y
R32A32_FLOAT                        plain      rgb   1x1    F32*2                    x00y
R8A8_UINT                           plain      rgb   1x1    UP8*2                    x00y
R8A8_SINT                           plain      rgb   1x1    SP8*2                    x00y
R16A16_UINT                         plain      rgb   1x1    UP16*2                   x00y
R16A16_SINT                         plain      rgb   1x1    SP16*2                   x00y
R32A32_UINT                         plain      rgb   1x1    UP32*2                   x00y
R32A32_SINT                         plain      rgb   1x1    SP32*2                   x00y
B5G6R5_SRGB                         plain      srgb  1x1    UN5,UN6,UN5              zyx1
BPTC_RGBA_UNORM                     bptc       rgb   4x4    X128                     xyzw
BPTC_SRGBA                          bptc       srgb  4x4    X128                     xyzw
BPTC_RGB_FLOAT                      bptc       rgb   4x4    X128                     xyz1
BPTC_RGB_UFLOAT                     bptc       rgb   4x4    X128                     xyz1
G8R8_UNORM                          plain      rgb   1x1    UN8*2                    yx01
G8R8_SNORM                          plain      rgb   1x1    SN8*2                    yx01
G16R16_UNORM                        plain      rgb   1x1    UN16*2                   yx01
G16R16_SNORM                        plain      rgb   1x1    SN16*2                   yx01
A8B8G8R8_SNORM                      plain      rgb   1x1    SN8*4                    wzyx
X8B8G8R8_SNORM                      plain      rgb   1x1    X8,SN8*3                 wzy1
ETC2_RGB8                           etc        rgb   4x4    X64                      xyz1
ETC2_SRGB8                          etc        srgb  4x4    X64                      xyz1
ETC2_RGB8A1                         etc        rgb   4x4    X64                      xyzw
ETC2_SRGB8A1                        etc        srgb  4x4    X64                      xyzw
ETC2_RGBA8                          etc        rgb   4x4    X128                     xyzw
ETC2_SRGBA8                         etc        srgb  4x4    X128                     xyzw
ETC2_R11_UNORM                      etc        rgb   4x4    X64                      x001
ETC2_R11_SNORM                      etc        rgb   4x4    X64                      x001
ETC2_RG11_UNORM                     etc        rgb   4x4    X128                     xy01
ETC2_RG11_SNORM                     etc        rgb   4x4    X128                     xy01
ASTC_4x4                            astc       rgb   4x4    X128                     xyzw
ASTC_5x4                            astc       rgb   5x4    X128                     xyzw
ASTC_5x5                            astc       rgb   5x5    X128                     xyzw
ASTC_6x5                            astc       rgb   6x5    X128                     xyzw
ASTC_6x6                            astc       rgb   6x6    X128                     xyzw
ASTC_8x5                            astc       rgb   8x5    X128                     xyzw
ASTC_8x6                            astc       rgb   8x6    X128                     xyzw
ASTC_8x8                            astc       rgb   8x8    X128                     xyzw
ASTC_10x5                           astc       rgb   10x5   X128                     xyzw
ASTC_10x6                           astc       rgb   10x6   X128                     xyzw
ASTC_10x8                           astc       rgb   10x8   X128                     xyzw
ASTC_10x10                          astc       rgb   10x10  X128                     xyzw
ASTC_12x10                          astc       rgb   12x10  X128                     xyzw
ASTC_12x12                          astc       rgb   12x12  X128                     xyzw
ASTC_4x4_SRGB                       astc       srgb  4x4    X128                     xyzw
ASTC_5x4_SRGB                       astc       srgb  5x4    X128                     xyzw
ASTC_5x5_SRGB                       astc       srgb  5x5    X128                     xyzw
ASTC_6x5_SRGB                       astc       srgb  6x5    X128                     xyzw
ASTC_6x6_SRGB                       astc       srgb  6x6    X128                     xyzw
ASTC_8x5_SRGB                       astc       srgb  8x5    X128                     xyzw
ASTC_8x6_SRGB                       astc       srgb  8x6    X128                     xyzw
ASTC_8x8_SRGB                       astc       srgb  8x8    X128                     xyzw
ASTC_10x5_SRGB                      astc       srgb  10x5   X128                     xyzw
ASTC_10x6_SRGB                      astc       srgb  10x6   X128                     xyzw
ASTC_10x8_SRGB                      astc       srgb  10x8   X128                     xyzw
ASTC_10x10_SRGB                     astc       srgb  10x10  X128                     xyzw
ASTC_12x10_SRGB                     astc       srgb  12x10  X128                     xyzw
ASTC_12x12_SRGB                     astc       srgb  12x12  X128                     xyzw
ASTC_3x3x3                          astc       rgb   3x3x3  X128                     xyzw
ASTC_4x3x3                          astc       rgb   4x3x3  X128                     xyzw
ASTC_4x4x3                          astc       rgb   4x4x3  X128                     xyzw
ASTC_4x4x4                          astc       rgb   4x4x4  X128                     xyzw
ASTC_5x4x4                          astc       rgb   5x4x4  X128                     xyzw
ASTC_5x5x4                          astc       rgb   5x5x4  X128                     xyzw
ASTC_5x5x5                          astc       rgb   5x5x5  X128                     xyzw
ASTC_6x5x5                          astc       rgb   6x5x5  X128                     xyzw
ASTC_6x6x5                          astc       rgb   6x6x5  X128                     xyzw
ASTC_6x6x6                          astc       rgb   6x6x6  X128                     xyzw
ASTC_3x3x3_SRGB                     astc       srgb  3x3x3  X128                     xyzw
ASTC_4x3x3_SRGB                     astc       srgb  4x3x3  X128                     xyzw
ASTC_4x4x3_SRGB                     astc       srgb  4x4x3  X128                     xyzw
ASTC_4x4x4_SRGB                     astc       srgb  4x4x4  X128                     xyzw
ASTC_5x4x4_SRGB                     astc       srgb  5x4x4  X128                     xyzw
ASTC_5x5x4_SRGB                     astc       srgb  5x5x4  X128                     xyzw
ASTC_5x5x5_SRGB                     astc       srgb  5x5x5  X128                     xyzw
ASTC_6x5x5_SRGB                     astc       srgb  6x5x5  X128                     xyzw
ASTC_6x6x5_SRGB                     astc       srgb  6x6x5  X128                     xyzw
ASTC_6x6x6_SRGB                     astc       srgb  6x6x6  X128                     xyzw
ASTC_4x4_FLOAT                      astc       rgb   4x4    X128                     xyzw
ASTC_5x4_FLOAT                      astc       rgb   5x4    X128                     xyzw
ASTC_5x5_FLOAT                      astc       rgb   5x5    X128                     xyzw
ASTC_6x5_FLOAT                      astc       rgb   6x5    X128                     xyzw
ASTC_6x6_FLOAT                      astc       rgb   6x6    X128                     xyzw
ASTC_8x5_FLOAT                      astc       rgb   8x5    X128                     xyzw
ASTC_8x6_FLOAT                      astc       rgb   8x6    X128                     xyzw
ASTC_8x8_FLOAT                      astc       rgb   8x8    X128                     xyzw
ASTC_10x5_FLOAT                     astc       rgb   10x5   X128                     xyzw
ASTC_10x6_FLOAT                     astc       rgb   10x6   X128                     xyzw
ASTC_10x8_FLOAT                     astc       rgb   10x8   X128                     xyzw
ASTC_10x10_FLOAT                    astc       rgb   10x10  X128                     xyzw
ASTC_12x10_FLOAT                    astc       rgb   12x10  X128                     xyzw
ASTC_12x12_FLOAT                    astc       rgb   12x12  X128                     xyzw
FXT1_RGB                            fxt1       rgb   8x4    X128                     xyz1
FXT1_RGBA                           fxt1       rgb   8x4    X128                     xyzw
P010                                planar2    yuv   1x1    -                        xyzw
P012                                planar2    yuv   1x1    -                        xyzw
P016                                planar2    yuv   1x1    -                        xyzw
P030                                planar2    yuv   1x1    -                        xyzw
Y210                                subsampled yuv   2x1    X64                      xyz1
Y212                                subsampled yuv   2x1    X64                      xyz1
Y216                                subsampled yuv   2x1    X64                      xyz1
Y410                                other      yuv   1x1    UN10*3,UN2               yzxw
Y412                                other      yuv   1x1    UN16*4                   yzxw
Y416                                other      yuv   1x1    UN16*4                   yzxw
R10G10B10X2_UNORM                   plain      rgb   1x1    UN10*3,X2                xyz1
A1R5G5B5_UNORM                      plain      rgb   1x1    UN1,UN5*3                yzwx
A1B5G5R5_UNORM                      plain      rgb   1x1    UN1,UN5*3                wzyx
X1B5G5R5_UNORM                      plain      rgb   1x1    X1,UN5*3                 wzy1
R5G5B5A1_UNORM                      plain      rgb   1x1    UN5*3,UN1                xyzw
A4R4G4B4_UNORM                      plain      rgb   1x1    UN4*4                    yzwx
A4B4G4R4_UNORM                      plain      rgb   1x1    UN4*4                    wzyx
G8R8_SINT                           plain      rgb   1x1    SP8*2                    yx01
A8B8G8R8_SINT                       plain      rgb   1x1    SP8*4                    wzyx
X8B8G8R8_SINT                       plain      rgb   1x1    X8,SP8*3                 wzy1
ATC_RGB                             atc        rgb   4x4    X64                      xyz1
ATC_RGBA_EXPLICIT                   atc        rgb   4x4    X128                     xyzw
ATC_RGBA_INTERPOLATED               atc        rgb   4x4    X128                     xyzw
Z24_UNORM_S8_UINT_AS_R8G8B8A8       plain      rgb   1x1    UN8*4                    xyzw
AYUV                                other      yuv   4x4    UN8                      xyzw
XYUV                                other      yuv   4x4    UN8                      xyz1
R8G8B8_420_UNORM_PACKED             subsampled rgb   2x2    X48                      xyz1
R8_G8B8_420_UNORM                   planar2    rgb   1x1    UN8                      xyzw
R8_B8G8_420_UNORM                   planar2    rgb   1x1    UN8                      xyzw
G8_B8R8_420_UNORM                   planar2    rgb   1x1    UN8                      xyzw
R10G10B10_420_UNORM_PACKED          subsampled rgb   4x2    X120                     xyz1
R10_G10B10_420_UNORM                planar2    rgb   4x1    UN40                     xyzw
R10_G10B10_422_UNORM                planar2    rgb   4x1    UN40                     xyzw
R8_G8_B8_420_UNORM                  planar3    rgb   1x1    UN8                      xyzw
R8_B8_G8_420_UNORM                  planar3    rgb   1x1    UN8                      xyzw
G8_B8_R8_420_UNORM                  planar3    rgb   1x1    UN8                      xyzw
R8_G8B8_422_UNORM                   planar2    rgb   1x1    UN8                      xyzw
R8_B8G8_422_UNORM                   planar2    rgb   1x1    UN8                      xyzw
G8_B8R8_422_UNORM                   planar2    rgb   1x1    UN8                      xyzw
R8_G8_B8_UNORM                      planar3    rgb   1x1    UN8                      xyzw
Y8_UNORM                            other      yuv   1x1    UN8                      x001
B8G8R8X8_SNORM                      plain      rgb   1x1    SN8*3,X8                 zyx1
B8G8R8X8_UINT                       plain      rgb   1x1    UP8*3,X8                 zyx1
B8G8R8X8_SINT                       plain      rgb   1x1    SP8*3,X8                 zyx1
A8R8G8B8_SNORM                      plain      rgb   1x1    SN8*4                    yzwx
A8R8G8B8_SINT                       plain      rgb   1x1    SP8*4                    yzwx
X8R8G8B8_SNORM                      plain      rgb   1x1    X8,SN8*3                 yzw1
X8R8G8B8_SINT                       plain      rgb   1x1    X8,SP8*3                 yzw1
R5G5B5X1_UNORM                      plain      rgb   1x1    UN5*3,X1                 xyz1
X1R5G5B5_UNORM                      plain      rgb   1x1    X1,UN5*3                 yzw1
R4G4B4X4_UNORM                      plain      rgb   1x1    UN4*3,X4                 xyz1
B10G10R10X2_SNORM                   plain      rgb   1x1    SN10*3,X2                zyx1
R5G6B5_SRGB                         plain      srgb  1x1    UN5,UN6,UN5              xyz1
R10G10B10X2_SINT                    plain      rgb   1x1    SP10*3,X2                xyz1
B10G10R10X2_SINT                    plain      rgb   1x1    SP10*3,X2                zyx1
G16R16_SINT                         plain      rgb   1x1    SP16*2                   yx01
"""

# ---------------------------------------------------------------------------
# Host storage.  GL 3.3 core is the baseline; ``need=`` names what more a
# line requires.  Why the less obvious lines look the way they do:
#
# * GL core has no LUMINANCE / ALPHA / INTENSITY formats: L, A, I and LA
#   formats live in R / RG storage of the same channel type and a swizzle
#   gives Gallium's answer (A8 -> R8 + 000R, L8 -> RRR1, I8 -> RRRR,
#   L8A8 -> RG8 + RRRG); R8A8-style formats likewise (R00G).
# * X formats (BGRX, RGBX, XRGB, ...) store the padding as alpha and sample
#   it as ONE (swizzle RGB1): GL has no "ignore alpha" storage.
# * GL's packed types name components from the most significant bits
#   (UNSIGNED_SHORT_5_6_5 with RGB has R in bits 11..15) and their _REV
#   forms from the least; Gallium counts channels from bit 0.  So
#   B5G6R5_UNORM (B in bits 0..4) is RGB + 5_6_5, R5G6B5_UNORM is
#   RGB + 5_6_5_REV, A8B8G8R8 (A in byte 0) is RGBA + 8_8_8_8, ...
# * GL's UNSIGNED_INT_24_8 puts depth in the high 24 bits, which is
#   Gallium's S8_UINT_Z24_UNORM; Z24_UNORM_S8_UINT (depth low) is stored as
#   DEPTH24_STENCIL8 too but converts on transfer.  Z24X8 / X8Z24 have no
#   stencil, so they get depth-only storage (no stray stencil buffer to
#   test against) and transfer as 32-bit unorm depth.
# * sRGB decoding in GL applies to R, G and B, never to alpha: SRG8 would
#   decode L8A8_SRGB's alpha, so L8A8_SRGB converts to (L, L, L, A) in
#   SRGB8_ALPHA8.  Without EXT_texture_sRGB_R8/RG8 the one- and two-channel
#   sRGB formats likewise convert into SRGB8 (the conversion copies stored
#   sRGB bytes; it never decodes them).
# * RGB565 is a GL 4.1 (ES2 compatibility) internal format; on GL 3.3 the
#   565 formats fall back to RGB8 storage with the same packed transfer
#   type (GL unpacks 5/6-bit values into the wider storage).
# * Integer formats with packed layouts (R5G6B5_UINT, A4R4G4B4_UINT, ...)
#   use GL's packed types with *_INTEGER formats (allowed since
#   ARB_texture_rgb10_a2ui, core 3.3) into 8-bit integer storage, which
#   holds every value exactly.  Signed ones have no signed packed GL type:
#   they convert to the next wider signed array format.
# * Not here, on purpose (no honest host storage): YUV and planar formats,
#   subsampled RGB, USCALED/SSCALED and 32-bit UNORM/SNORM/FIXED and 64-bit
#   formats (vertex-only in GL), 10-bit SNORM/scaled textures, 4-bit L/A
#   pairs, sRGB 565, mixed-sign formats, R1, ATC (desktop GL never exposes
#   it), 3D-block ASTC, Z16_UNORM_S8_UINT, and the stencil-view formats
#   X24S8/S8X24/X32_S8X24 (sampling stencil needs a view of a ZS resource,
#   which sampler views bring later).
# ---------------------------------------------------------------------------

_HOST = """
# format                            internal                 transfer format   transfer type                 options
R32_FLOAT                           R32F                     RED               FLOAT
R32G32_FLOAT                        RG32F                    RG                FLOAT
R32G32B32_FLOAT                     RGB32F                   RGB               FLOAT
R32G32B32A32_FLOAT                  RGBA32F                  RGBA              FLOAT
R16_UNORM                           R16                      RED               UNSIGNED_SHORT
R16G16_UNORM                        RG16                     RG                UNSIGNED_SHORT
R16G16B16_UNORM                     RGB16                    RGB               UNSIGNED_SHORT
R16G16B16A16_UNORM                  RGBA16                   RGBA              UNSIGNED_SHORT
R16_SNORM                           R16_SNORM                RED               SHORT
R16G16_SNORM                        RG16_SNORM               RG                SHORT
R16G16B16_SNORM                     RGB16_SNORM              RGB               SHORT
R16G16B16A16_SNORM                  RGBA16_SNORM             RGBA              SHORT
R8_UNORM                            R8                       RED               UNSIGNED_BYTE
R8G8_UNORM                          RG8                      RG                UNSIGNED_BYTE
R8G8B8_UNORM                        RGB8                     RGB               UNSIGNED_BYTE
B8G8R8_UNORM                        RGB8                     BGR               UNSIGNED_BYTE
R8G8B8A8_UNORM                      RGBA8                    RGBA              UNSIGNED_BYTE
B8G8R8A8_UNORM                      RGBA8                    BGRA              UNSIGNED_BYTE
R8_SNORM                            R8_SNORM                 RED               BYTE
R8G8_SNORM                          RG8_SNORM                RG                BYTE
R8G8B8_SNORM                        RGB8_SNORM               RGB               BYTE
B8G8R8_SNORM                        RGB8_SNORM               BGR               BYTE
R8G8B8A8_SNORM                      RGBA8_SNORM              RGBA              BYTE
B8G8R8A8_SNORM                      RGBA8_SNORM              BGRA              BYTE
A8R8G8B8_UNORM                      RGBA8                    BGRA              UNSIGNED_INT_8_8_8_8
R16_FLOAT                           R16F                     RED               HALF_FLOAT
R16G16_FLOAT                        RG16F                    RG                HALF_FLOAT
R16G16B16_FLOAT                     RGB16F                   RGB               HALF_FLOAT
R16G16B16A16_FLOAT                  RGBA16F                  RGBA              HALF_FLOAT
R8_UINT                             R8UI                     RED_INTEGER       UNSIGNED_BYTE
R8G8_UINT                           RG8UI                    RG_INTEGER        UNSIGNED_BYTE
R8G8B8_UINT                         RGB8UI                   RGB_INTEGER       UNSIGNED_BYTE
B8G8R8_UINT                         RGB8UI                   BGR_INTEGER       UNSIGNED_BYTE
R8G8B8A8_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_BYTE
B8G8R8A8_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_BYTE
R8_SINT                             R8I                      RED_INTEGER       BYTE
R8G8_SINT                           RG8I                     RG_INTEGER        BYTE
R8G8B8_SINT                         RGB8I                    RGB_INTEGER       BYTE
B8G8R8_SINT                         RGB8I                    BGR_INTEGER       BYTE
R8G8B8A8_SINT                       RGBA8I                   RGBA_INTEGER      BYTE
B8G8R8A8_SINT                       RGBA8I                   BGRA_INTEGER      BYTE
R16_UINT                            R16UI                    RED_INTEGER       UNSIGNED_SHORT
R16G16_UINT                         RG16UI                   RG_INTEGER        UNSIGNED_SHORT
R16G16B16_UINT                      RGB16UI                  RGB_INTEGER       UNSIGNED_SHORT
R16G16B16A16_UINT                   RGBA16UI                 RGBA_INTEGER      UNSIGNED_SHORT
R16_SINT                            R16I                     RED_INTEGER       SHORT
R16G16_SINT                         RG16I                    RG_INTEGER        SHORT
R16G16B16_SINT                      RGB16I                   RGB_INTEGER       SHORT
R16G16B16A16_SINT                   RGBA16I                  RGBA_INTEGER      SHORT
R32_UINT                            R32UI                    RED_INTEGER       UNSIGNED_INT
R32G32_UINT                         RG32UI                   RG_INTEGER        UNSIGNED_INT
R32G32B32_UINT                      RGB32UI                  RGB_INTEGER       UNSIGNED_INT
R32G32B32A32_UINT                   RGBA32UI                 RGBA_INTEGER      UNSIGNED_INT
R32_SINT                            R32I                     RED_INTEGER       INT
R32G32_SINT                         RG32I                    RG_INTEGER        INT
R32G32B32_SINT                      RGB32I                   RGB_INTEGER       INT
R32G32B32A32_SINT                   RGBA32I                  RGBA_INTEGER      INT
R10G10B10A2_UNORM                   RGB10_A2                 RGBA              UNSIGNED_INT_2_10_10_10_REV
B10G10R10A2_UNORM                   RGB10_A2                 BGRA              UNSIGNED_INT_2_10_10_10_REV
R11G11B10_FLOAT                     R11F_G11F_B10F           RGB               UNSIGNED_INT_10F_11F_11F_REV
R10G10B10A2_UINT                    RGB10_A2UI               RGBA_INTEGER      UNSIGNED_INT_2_10_10_10_REV   need=texture_rgb10_a2ui
R10G10B10A2_SINT                    RGBA16I                  RGBA_INTEGER      SHORT                         via=R16G16B16A16_SINT
B10G10R10A2_UINT                    RGB10_A2UI               BGRA_INTEGER      UNSIGNED_INT_2_10_10_10_REV   need=texture_rgb10_a2ui
B10G10R10A2_SINT                    RGBA16I                  RGBA_INTEGER      SHORT                         via=R16G16B16A16_SINT
B8G8R8X8_UNORM                      RGBA8                    BGRA              UNSIGNED_BYTE                 swz=RGB1
X8B8G8R8_UNORM                      RGBA8                    RGBA              UNSIGNED_INT_8_8_8_8          swz=RGB1
X8R8G8B8_UNORM                      RGBA8                    BGRA              UNSIGNED_INT_8_8_8_8          swz=RGB1
B5G5R5A1_UNORM                      RGB5_A1                  BGRA              UNSIGNED_SHORT_1_5_5_5_REV
R4G4B4A4_UNORM                      RGBA4                    RGBA              UNSIGNED_SHORT_4_4_4_4_REV
B4G4R4A4_UNORM                      RGBA4                    BGRA              UNSIGNED_SHORT_4_4_4_4_REV
R5G6B5_UNORM                        RGB565                   RGB               UNSIGNED_SHORT_5_6_5_REV      need=es2_compatibility
R5G6B5_UNORM                        RGB8                     RGB               UNSIGNED_SHORT_5_6_5_REV
B5G6R5_UNORM                        RGB565                   RGB               UNSIGNED_SHORT_5_6_5          need=es2_compatibility
B5G6R5_UNORM                        RGB8                     RGB               UNSIGNED_SHORT_5_6_5
L8_UNORM                            R8                       RED               UNSIGNED_BYTE                 swz=RRR1
A8_UNORM                            R8                       RED               UNSIGNED_BYTE                 swz=000R
I8_UNORM                            R8                       RED               UNSIGNED_BYTE                 swz=RRRR
L8A8_UNORM                          RG8                      RG                UNSIGNED_BYTE                 swz=RRRG
L16_UNORM                           R16                      RED               UNSIGNED_SHORT                swz=RRR1
Z16_UNORM                           DEPTH_COMPONENT16        DEPTH_COMPONENT   UNSIGNED_SHORT
Z32_UNORM                           DEPTH_COMPONENT32        DEPTH_COMPONENT   UNSIGNED_INT
Z32_FLOAT                           DEPTH_COMPONENT32F       DEPTH_COMPONENT   FLOAT
Z24_UNORM_S8_UINT                   DEPTH24_STENCIL8         DEPTH_STENCIL     UNSIGNED_INT_24_8             via=S8_UINT_Z24_UNORM
S8_UINT_Z24_UNORM                   DEPTH24_STENCIL8         DEPTH_STENCIL     UNSIGNED_INT_24_8
Z24X8_UNORM                         DEPTH_COMPONENT24        DEPTH_COMPONENT   UNSIGNED_INT                  via=Z32_UNORM
X8Z24_UNORM                         DEPTH_COMPONENT24        DEPTH_COMPONENT   UNSIGNED_INT                  via=Z32_UNORM
S8_UINT                             STENCIL_INDEX8           STENCIL_INDEX     UNSIGNED_BYTE                 need=texture_stencil8
L8_SRGB                             SR8_EXT                  RED               UNSIGNED_BYTE                 swz=RRR1 need=texture_sRGB_R8
L8_SRGB                             SRGB8                    RGB               UNSIGNED_BYTE                 via=R8G8B8_SRGB
R8_SRGB                             SR8_EXT                  RED               UNSIGNED_BYTE                 need=texture_sRGB_R8
R8_SRGB                             SRGB8                    RGB               UNSIGNED_BYTE                 via=R8G8B8_SRGB
L8A8_SRGB                           SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
R8G8_SRGB                           SRG8_EXT                 RG                UNSIGNED_BYTE                 need=texture_sRGB_RG8
R8G8_SRGB                           SRGB8                    RGB               UNSIGNED_BYTE                 via=R8G8B8_SRGB
R8G8B8_SRGB                         SRGB8                    RGB               UNSIGNED_BYTE
B8G8R8_SRGB                         SRGB8                    BGR               UNSIGNED_BYTE
A8B8G8R8_SRGB                       SRGB8_ALPHA8             RGBA              UNSIGNED_INT_8_8_8_8
X8B8G8R8_SRGB                       SRGB8_ALPHA8             RGBA              UNSIGNED_INT_8_8_8_8          swz=RGB1
B8G8R8A8_SRGB                       SRGB8_ALPHA8             BGRA              UNSIGNED_BYTE
B8G8R8X8_SRGB                       SRGB8_ALPHA8             BGRA              UNSIGNED_BYTE                 swz=RGB1
A8R8G8B8_SRGB                       SRGB8_ALPHA8             BGRA              UNSIGNED_INT_8_8_8_8
X8R8G8B8_SRGB                       SRGB8_ALPHA8             BGRA              UNSIGNED_INT_8_8_8_8          swz=RGB1
R8G8B8A8_SRGB                       SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE
DXT1_RGB                            COMPRESSED_RGB_S3TC_DXT1_EXT         -     -                             need=texture_compression_s3tc
DXT1_RGB                            RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
DXT1_RGBA                           COMPRESSED_RGBA_S3TC_DXT1_EXT        -     -                             need=texture_compression_s3tc
DXT1_RGBA                           RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
DXT3_RGBA                           COMPRESSED_RGBA_S3TC_DXT3_EXT        -     -                             need=texture_compression_s3tc
DXT3_RGBA                           RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
DXT5_RGBA                           COMPRESSED_RGBA_S3TC_DXT5_EXT        -     -                             need=texture_compression_s3tc
DXT5_RGBA                           RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
DXT1_SRGB                           COMPRESSED_SRGB_S3TC_DXT1_EXT        -     -                             need=texture_compression_s3tc
DXT1_SRGB                           SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
DXT1_SRGBA                          COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT  -     -                             need=texture_compression_s3tc
DXT1_SRGBA                          SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
DXT3_SRGBA                          COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT  -     -                             need=texture_compression_s3tc
DXT3_SRGBA                          SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
DXT5_SRGBA                          COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT  -     -                             need=texture_compression_s3tc
DXT5_SRGBA                          SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
RGTC1_UNORM                         COMPRESSED_RED_RGTC1                 -     -                             need=texture_compression_rgtc
RGTC1_UNORM                         R8                       RED               UNSIGNED_BYTE                 via=R8_UNORM
RGTC1_SNORM                         COMPRESSED_SIGNED_RED_RGTC1          -     -                             need=texture_compression_rgtc
RGTC1_SNORM                         R8_SNORM                 RED               BYTE                          via=R8_SNORM
RGTC2_UNORM                         COMPRESSED_RG_RGTC2                  -     -                             need=texture_compression_rgtc
RGTC2_UNORM                         RG8                      RG                UNSIGNED_BYTE                 via=R8G8_UNORM
RGTC2_SNORM                         COMPRESSED_SIGNED_RG_RGTC2           -     -                             need=texture_compression_rgtc
RGTC2_SNORM                         RG8_SNORM                RG                BYTE                          via=R8G8_SNORM
A8B8G8R8_UNORM                      RGBA8                    RGBA              UNSIGNED_INT_8_8_8_8
B5G5R5X1_UNORM                      RGB5_A1                  BGRA              UNSIGNED_SHORT_1_5_5_5_REV    swz=RGB1
R9G9B9E5_FLOAT                      RGB9_E5                  RGB               UNSIGNED_INT_5_9_9_9_REV
Z32_FLOAT_S8X24_UINT                DEPTH32F_STENCIL8        DEPTH_STENCIL     FLOAT_32_UNSIGNED_INT_24_8_REV
A2R10G10B10_UNORM                   RGB10_A2                 BGRA              UNSIGNED_INT_10_10_10_2
A2B10G10R10_UNORM                   RGB10_A2                 RGBA              UNSIGNED_INT_10_10_10_2
R8G8B8X8_UNORM                      RGBA8                    RGBA              UNSIGNED_BYTE                 swz=RGB1
B4G4R4X4_UNORM                      RGBA4                    BGRA              UNSIGNED_SHORT_4_4_4_4_REV    swz=RGB1
R3G3B2_UNORM                        R3_G3_B2                 RGB               UNSIGNED_BYTE_2_3_3_REV
B2G3R3_UNORM                        R3_G3_B2                 RGB               UNSIGNED_BYTE_3_3_2
L16A16_UNORM                        RG16                     RG                UNSIGNED_SHORT                swz=RRRG
A16_UNORM                           R16                      RED               UNSIGNED_SHORT                swz=000R
I16_UNORM                           R16                      RED               UNSIGNED_SHORT                swz=RRRR
LATC1_UNORM                         COMPRESSED_RED_RGTC1                 -     -                             swz=RRR1 need=texture_compression_rgtc
LATC1_UNORM                         R8                       RED               UNSIGNED_BYTE                 via=R8_UNORM swz=RRR1
LATC1_SNORM                         COMPRESSED_SIGNED_RED_RGTC1          -     -                             swz=RRR1 need=texture_compression_rgtc
LATC1_SNORM                         R8_SNORM                 RED               BYTE                          via=R8_SNORM swz=RRR1
LATC2_UNORM                         COMPRESSED_RG_RGTC2                  -     -                             swz=RRRG need=texture_compression_rgtc
LATC2_UNORM                         RG8                      RG                UNSIGNED_BYTE                 via=R8G8_UNORM swz=RRRG
LATC2_SNORM                         COMPRESSED_SIGNED_RG_RGTC2           -     -                             swz=RRRG need=texture_compression_rgtc
LATC2_SNORM                         RG8_SNORM                RG                BYTE                          via=R8G8_SNORM swz=RRRG
A8_SNORM                            R8_SNORM                 RED               BYTE                          swz=000R
L8_SNORM                            R8_SNORM                 RED               BYTE                          swz=RRR1
L8A8_SNORM                          RG8_SNORM                RG                BYTE                          swz=RRRG
I8_SNORM                            R8_SNORM                 RED               BYTE                          swz=RRRR
A16_SNORM                           R16_SNORM                RED               SHORT                         swz=000R
L16_SNORM                           R16_SNORM                RED               SHORT                         swz=RRR1
L16A16_SNORM                        RG16_SNORM               RG                SHORT                         swz=RRRG
I16_SNORM                           R16_SNORM                RED               SHORT                         swz=RRRR
A16_FLOAT                           R16F                     RED               HALF_FLOAT                    swz=000R
L16_FLOAT                           R16F                     RED               HALF_FLOAT                    swz=RRR1
L16A16_FLOAT                        RG16F                    RG                HALF_FLOAT                    swz=RRRG
I16_FLOAT                           R16F                     RED               HALF_FLOAT                    swz=RRRR
A32_FLOAT                           R32F                     RED               FLOAT                         swz=000R
L32_FLOAT                           R32F                     RED               FLOAT                         swz=RRR1
L32A32_FLOAT                        RG32F                    RG                FLOAT                         swz=RRRG
I32_FLOAT                           R32F                     RED               FLOAT                         swz=RRRR
Y8_400_UNORM                        R8                       RED               UNSIGNED_BYTE
R8A8_UNORM                          RG8                      RG                UNSIGNED_BYTE                 swz=R00G
A8R8_UNORM                          RG8                      RG                UNSIGNED_BYTE                 swz=G00R
A8_UINT                             R8UI                     RED_INTEGER       UNSIGNED_BYTE                 swz=000R
I8_UINT                             R8UI                     RED_INTEGER       UNSIGNED_BYTE                 swz=RRRR
L8_UINT                             R8UI                     RED_INTEGER       UNSIGNED_BYTE                 swz=RRR1
L8A8_UINT                           RG8UI                    RG_INTEGER        UNSIGNED_BYTE                 swz=RRRG
A8_SINT                             R8I                      RED_INTEGER       BYTE                          swz=000R
I8_SINT                             R8I                      RED_INTEGER       BYTE                          swz=RRRR
L8_SINT                             R8I                      RED_INTEGER       BYTE                          swz=RRR1
L8A8_SINT                           RG8I                     RG_INTEGER        BYTE                          swz=RRRG
A16_UINT                            R16UI                    RED_INTEGER       UNSIGNED_SHORT                swz=000R
I16_UINT                            R16UI                    RED_INTEGER       UNSIGNED_SHORT                swz=RRRR
L16_UINT                            R16UI                    RED_INTEGER       UNSIGNED_SHORT                swz=RRR1
L16A16_UINT                         RG16UI                   RG_INTEGER        UNSIGNED_SHORT                swz=RRRG
A16_SINT                            R16I                     RED_INTEGER       SHORT                         swz=000R
I16_SINT                            R16I                     RED_INTEGER       SHORT                         swz=RRRR
L16_SINT                            R16I                     RED_INTEGER       SHORT                         swz=RRR1
L16A16_SINT                         RG16I                    RG_INTEGER        SHORT                         swz=RRRG
A32_UINT                            R32UI                    RED_INTEGER       UNSIGNED_INT                  swz=000R
I32_UINT                            R32UI                    RED_INTEGER       UNSIGNED_INT                  swz=RRRR
L32_UINT                            R32UI                    RED_INTEGER       UNSIGNED_INT                  swz=RRR1
L32A32_UINT                         RG32UI                   RG_INTEGER        UNSIGNED_INT                  swz=RRRG
A32_SINT                            R32I                     RED_INTEGER       INT                           swz=000R
I32_SINT                            R32I                     RED_INTEGER       INT                           swz=RRRR
L32_SINT                            R32I                     RED_INTEGER       INT                           swz=RRR1
L32A32_SINT                         RG32I                    RG_INTEGER        INT                           swz=RRRG
A8R8G8B8_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_INT_8_8_8_8          need=texture_rgb10_a2ui
A8B8G8R8_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_INT_8_8_8_8          need=texture_rgb10_a2ui
A2R10G10B10_UINT                    RGB10_A2UI               BGRA_INTEGER      UNSIGNED_INT_10_10_10_2       need=texture_rgb10_a2ui
A2B10G10R10_UINT                    RGB10_A2UI               RGBA_INTEGER      UNSIGNED_INT_10_10_10_2       need=texture_rgb10_a2ui
R5G6B5_UINT                         RGB8UI                   RGB_INTEGER       UNSIGNED_SHORT_5_6_5_REV      need=texture_rgb10_a2ui
B5G6R5_UINT                         RGB8UI                   RGB_INTEGER       UNSIGNED_SHORT_5_6_5          need=texture_rgb10_a2ui
R5G5B5A1_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_SHORT_1_5_5_5_REV    need=texture_rgb10_a2ui
B5G5R5A1_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_SHORT_1_5_5_5_REV    need=texture_rgb10_a2ui
A1R5G5B5_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_SHORT_5_5_5_1        need=texture_rgb10_a2ui
A1B5G5R5_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_SHORT_5_5_5_1        need=texture_rgb10_a2ui
R4G4B4A4_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_SHORT_4_4_4_4_REV    need=texture_rgb10_a2ui
B4G4R4A4_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_SHORT_4_4_4_4_REV    need=texture_rgb10_a2ui
A4R4G4B4_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_SHORT_4_4_4_4        need=texture_rgb10_a2ui
A4B4G4R4_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_SHORT_4_4_4_4        need=texture_rgb10_a2ui
R3G3B2_UINT                         RGB8UI                   RGB_INTEGER       UNSIGNED_BYTE_2_3_3_REV       need=texture_rgb10_a2ui
B2G3R3_UINT                         RGB8UI                   RGB_INTEGER       UNSIGNED_BYTE_3_3_2           need=texture_rgb10_a2ui
ETC1_RGB8                           COMPRESSED_RGB8_ETC2                 -     -                             need=texture_compression_etc2
ETC1_RGB8                           RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
R8G8B8X8_SNORM                      RGBA8_SNORM              RGBA              BYTE                          swz=RGB1
R8G8B8X8_SRGB                       SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 swz=RGB1
R8G8B8X8_UINT                       RGBA8UI                  RGBA_INTEGER      UNSIGNED_BYTE                 swz=RGB1
R8G8B8X8_SINT                       RGBA8I                   RGBA_INTEGER      BYTE                          swz=RGB1
B10G10R10X2_UNORM                   RGB10_A2                 BGRA              UNSIGNED_INT_2_10_10_10_REV   swz=RGB1
R16G16B16X16_UNORM                  RGBA16                   RGBA              UNSIGNED_SHORT                swz=RGB1
R16G16B16X16_SNORM                  RGBA16_SNORM             RGBA              SHORT                         swz=RGB1
R16G16B16X16_FLOAT                  RGBA16F                  RGBA              HALF_FLOAT                    swz=RGB1
R16G16B16X16_UINT                   RGBA16UI                 RGBA_INTEGER      UNSIGNED_SHORT                swz=RGB1
R16G16B16X16_SINT                   RGBA16I                  RGBA_INTEGER      SHORT                         swz=RGB1
R32G32B32X32_FLOAT                  RGBA32F                  RGBA              FLOAT                         swz=RGB1
R32G32B32X32_UINT                   RGBA32UI                 RGBA_INTEGER      UNSIGNED_INT                  swz=RGB1
R32G32B32X32_SINT                   RGBA32I                  RGBA_INTEGER      INT                           swz=RGB1
R8A8_SNORM                          RG8_SNORM                RG                BYTE                          swz=R00G
R16A16_UNORM                        RG16                     RG                UNSIGNED_SHORT                swz=R00G
R16A16_SNORM                        RG16_SNORM               RG                SHORT                         swz=R00G
R16A16_FLOAT                        RG16F                    RG                HALF_FLOAT                    swz=R00G
R32A32_FLOAT                        RG32F                    RG                FLOAT                         swz=R00G
R8A8_UINT                           RG8UI                    RG_INTEGER        UNSIGNED_BYTE                 swz=R00G
R8A8_SINT                           RG8I                     RG_INTEGER        BYTE                          swz=R00G
R16A16_UINT                         RG16UI                   RG_INTEGER        UNSIGNED_SHORT                swz=R00G
R16A16_SINT                         RG16I                    RG_INTEGER        SHORT                         swz=R00G
R32A32_UINT                         RG32UI                   RG_INTEGER        UNSIGNED_INT                  swz=R00G
R32A32_SINT                         RG32I                    RG_INTEGER        INT                           swz=R00G
BPTC_RGBA_UNORM                     COMPRESSED_RGBA_BPTC_UNORM           -     -                             need=texture_compression_bptc
BPTC_RGBA_UNORM                     RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
BPTC_SRGBA                          COMPRESSED_SRGB_ALPHA_BPTC_UNORM     -     -                             need=texture_compression_bptc
BPTC_SRGBA                          SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
BPTC_RGB_FLOAT                      COMPRESSED_RGB_BPTC_SIGNED_FLOAT     -     -                             need=texture_compression_bptc
BPTC_RGB_FLOAT                      RGBA16F                  RGBA              HALF_FLOAT                    via=R16G16B16A16_FLOAT
BPTC_RGB_UFLOAT                     COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT   -     -                             need=texture_compression_bptc
BPTC_RGB_UFLOAT                     RGBA16F                  RGBA              HALF_FLOAT                    via=R16G16B16A16_FLOAT
G8R8_UNORM                          RG8                      RG                UNSIGNED_BYTE                 swz=GR01
G8R8_SNORM                          RG8_SNORM                RG                BYTE                          swz=GR01
G16R16_UNORM                        RG16                     RG                UNSIGNED_SHORT                swz=GR01
G16R16_SNORM                        RG16_SNORM               RG                SHORT                         swz=GR01
A8B8G8R8_SNORM                      RGBA8_SNORM              RGBA              BYTE                          via=R8G8B8A8_SNORM
X8B8G8R8_SNORM                      RGBA8_SNORM              RGBA              BYTE                          via=R8G8B8A8_SNORM swz=RGB1
ETC2_RGB8                           COMPRESSED_RGB8_ETC2                 -     -                             need=texture_compression_etc2
ETC2_RGB8                           RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
ETC2_SRGB8                          COMPRESSED_SRGB8_ETC2                -     -                             need=texture_compression_etc2
ETC2_SRGB8                          SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
ETC2_RGB8A1                         COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2   -  -                          need=texture_compression_etc2
ETC2_RGB8A1                         RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
ETC2_SRGB8A1                        COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2  -  -                          need=texture_compression_etc2
ETC2_SRGB8A1                        SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
ETC2_RGBA8                          COMPRESSED_RGBA8_ETC2_EAC            -     -                             need=texture_compression_etc2
ETC2_RGBA8                          RGBA8                    RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_UNORM
ETC2_SRGBA8                         COMPRESSED_SRGB8_ALPHA8_ETC2_EAC     -     -                             need=texture_compression_etc2
ETC2_SRGBA8                         SRGB8_ALPHA8             RGBA              UNSIGNED_BYTE                 via=R8G8B8A8_SRGB
ETC2_R11_UNORM                      COMPRESSED_R11_EAC                   -     -                             need=texture_compression_etc2
ETC2_R11_UNORM                      R16                      RED               UNSIGNED_SHORT                via=R16_UNORM
ETC2_R11_SNORM                      COMPRESSED_SIGNED_R11_EAC            -     -                             need=texture_compression_etc2
ETC2_R11_SNORM                      R16_SNORM                RED               SHORT                         via=R16_SNORM
ETC2_RG11_UNORM                     COMPRESSED_RG11_EAC                  -     -                             need=texture_compression_etc2
ETC2_RG11_UNORM                     RG16                     RG                UNSIGNED_SHORT                via=R16G16_UNORM
ETC2_RG11_SNORM                     COMPRESSED_SIGNED_RG11_EAC           -     -                             need=texture_compression_etc2
ETC2_RG11_SNORM                     RG16_SNORM               RG                SHORT                         via=R16G16_SNORM
@ASTC
FXT1_RGB                            COMPRESSED_RGB_FXT1_3DFX             -     -                             need=texture_compression_fxt1
FXT1_RGBA                           COMPRESSED_RGBA_FXT1_3DFX            -     -                             need=texture_compression_fxt1
R10G10B10X2_UNORM                   RGB10_A2                 RGBA              UNSIGNED_INT_2_10_10_10_REV   swz=RGB1
A1R5G5B5_UNORM                      RGB5_A1                  BGRA              UNSIGNED_SHORT_5_5_5_1
A1B5G5R5_UNORM                      RGB5_A1                  RGBA              UNSIGNED_SHORT_5_5_5_1
X1B5G5R5_UNORM                      RGB5_A1                  RGBA              UNSIGNED_SHORT_5_5_5_1        swz=RGB1
R5G5B5A1_UNORM                      RGB5_A1                  RGBA              UNSIGNED_SHORT_1_5_5_5_REV
A4R4G4B4_UNORM                      RGBA4                    BGRA              UNSIGNED_SHORT_4_4_4_4
A4B4G4R4_UNORM                      RGBA4                    RGBA              UNSIGNED_SHORT_4_4_4_4
G8R8_SINT                           RG8I                     RG_INTEGER        BYTE                          swz=GR01
A8B8G8R8_SINT                       RGBA8I                   RGBA_INTEGER      BYTE                          via=R8G8B8A8_SINT
X8B8G8R8_SINT                       RGBA8I                   RGBA_INTEGER      BYTE                          via=R8G8B8A8_SINT swz=RGB1
Z24_UNORM_S8_UINT_AS_R8G8B8A8       RGBA8                    RGBA              UNSIGNED_BYTE
Y8_UNORM                            R8                       RED               UNSIGNED_BYTE
B8G8R8X8_SNORM                      RGBA8_SNORM              BGRA              BYTE                          swz=RGB1
B8G8R8X8_UINT                       RGBA8UI                  BGRA_INTEGER      UNSIGNED_BYTE                 swz=RGB1
B8G8R8X8_SINT                       RGBA8I                   BGRA_INTEGER      BYTE                          swz=RGB1
A8R8G8B8_SNORM                      RGBA8_SNORM              RGBA              BYTE                          via=R8G8B8A8_SNORM
A8R8G8B8_SINT                       RGBA8I                   RGBA_INTEGER      BYTE                          via=R8G8B8A8_SINT
X8R8G8B8_SNORM                      RGBA8_SNORM              RGBA              BYTE                          via=R8G8B8A8_SNORM swz=RGB1
X8R8G8B8_SINT                       RGBA8I                   RGBA_INTEGER      BYTE                          via=R8G8B8A8_SINT swz=RGB1
R5G5B5X1_UNORM                      RGB5_A1                  RGBA              UNSIGNED_SHORT_1_5_5_5_REV    swz=RGB1
X1R5G5B5_UNORM                      RGB5_A1                  BGRA              UNSIGNED_SHORT_5_5_5_1        swz=RGB1
R4G4B4X4_UNORM                      RGBA4                    RGBA              UNSIGNED_SHORT_4_4_4_4_REV    swz=RGB1
R10G10B10X2_SINT                    RGBA16I                  RGBA_INTEGER      SHORT                         via=R16G16B16A16_SINT swz=RGB1
B10G10R10X2_SINT                    RGBA16I                  RGBA_INTEGER      SHORT                         via=R16G16B16A16_SINT swz=RGB1
G16R16_SINT                         RG16I                    RG_INTEGER        SHORT                         swz=GR01
"""


def _astc_host_lines() -> str:
    """Host lines for the 2D-block ASTC formats (LDR, sRGB and HDR share
    the KHR enums; HDR decoding is what the _hdr extension adds)."""
    lines = []
    for b in ASTC_2D_BLOCKS:
        lines.append(f"ASTC_{b} COMPRESSED_RGBA_ASTC_{b}_KHR - - need=texture_compression_astc")
        lines.append(f"ASTC_{b}_SRGB COMPRESSED_SRGB8_ALPHA8_ASTC_{b}_KHR - - need=texture_compression_astc")
        lines.append(f"ASTC_{b}_FLOAT COMPRESSED_RGBA_ASTC_{b}_KHR - - need=texture_compression_astc_hdr")
    return "\n".join(lines)


# Packed vertex layouts GL fetches natively (everything else must be a
# uniform 8/16/32/64-bit array): format -> (size, GL type, normalized, features).
_PACKED_VERTEX = {
    "R10G10B10A2_UNORM": (4, "UNSIGNED_INT_2_10_10_10_REV", True, ("vertex_type_2_10_10_10_rev",)),
    "R10G10B10A2_SNORM": (4, "INT_2_10_10_10_REV", True, ("vertex_type_2_10_10_10_rev",)),
    "R10G10B10A2_USCALED": (4, "UNSIGNED_INT_2_10_10_10_REV", False, ("vertex_type_2_10_10_10_rev",)),
    "R10G10B10A2_SSCALED": (4, "INT_2_10_10_10_REV", False, ("vertex_type_2_10_10_10_rev",)),
    # BGRA order is only legal with normalized fetch (GL 4.5 §10.3.1).
    "B10G10R10A2_UNORM": (
        GL_BGRA,
        "UNSIGNED_INT_2_10_10_10_REV",
        True,
        ("vertex_type_2_10_10_10_rev", "vertex_array_bgra"),
    ),
    "B10G10R10A2_SNORM": (GL_BGRA, "INT_2_10_10_10_REV", True, ("vertex_type_2_10_10_10_rev", "vertex_array_bgra")),
    "R11G11B10_FLOAT": (3, "UNSIGNED_INT_10F_11F_11F_REV", False, ("vertex_type_10f_11f_11f_rev",)),
}

# GL vertex types of uniform array layouts, by (channel type, bits).
_VERTEX_TYPES = {
    (ChannelType.UNORM, 8): "UNSIGNED_BYTE",
    (ChannelType.SNORM, 8): "BYTE",
    (ChannelType.USCALED, 8): "UNSIGNED_BYTE",
    (ChannelType.SSCALED, 8): "BYTE",
    (ChannelType.UINT, 8): "UNSIGNED_BYTE",
    (ChannelType.SINT, 8): "BYTE",
    (ChannelType.UNORM, 16): "UNSIGNED_SHORT",
    (ChannelType.SNORM, 16): "SHORT",
    (ChannelType.USCALED, 16): "UNSIGNED_SHORT",
    (ChannelType.SSCALED, 16): "SHORT",
    (ChannelType.UINT, 16): "UNSIGNED_SHORT",
    (ChannelType.SINT, 16): "SHORT",
    (ChannelType.FLOAT, 16): "HALF_FLOAT",
    (ChannelType.UNORM, 32): "UNSIGNED_INT",
    (ChannelType.SNORM, 32): "INT",
    (ChannelType.USCALED, 32): "UNSIGNED_INT",
    (ChannelType.SSCALED, 32): "INT",
    (ChannelType.UINT, 32): "UNSIGNED_INT",
    (ChannelType.SINT, 32): "INT",
    (ChannelType.FLOAT, 32): "FLOAT",
    (ChannelType.FIXED, 32): "FIXED",
    (ChannelType.FLOAT, 64): "DOUBLE",
    # R64_UINT / R64_SINT are "raw doubles" (ARB_vertex_attrib_64bit): the
    # 64-bit pattern goes to a double input unconverted.
    (ChannelType.UINT, 64): "DOUBLE",
    (ChannelType.SINT, 64): "DOUBLE",
}

# What GL fills in for components a vertex attribute does not supply
# (0, 0, 0, 1), as the tail of a format swizzle.
_GL_VERTEX_DEFAULTS = "001"


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def _parse_channels(text: str) -> tuple:
    if text == "-":
        return ()
    chans = []
    shift = 0
    for token in text.split(","):
        token, _, count = token.partition("*")
        code = token.rstrip("0123456789")
        size = int(token[len(code) :])
        for _ in range(int(count or 1)):
            chans.append(Channel(_CHANNEL_CODES[code], size, shift))
            shift += size
    return tuple(chans)


def _parse_block(text: str) -> tuple:
    dims = [int(v) for v in text.split("x")]
    return (dims + [1])[:3] if len(dims) == 2 else tuple(dims)


def _vertex_fetch(name: str, layout: str, colorspace: str, channels: tuple, swizzle_text: str) -> VertexFetch | None:
    """The GL vertex attribute layout of a format, or None if GL cannot fetch it."""
    packed = _PACKED_VERTEX.get(name)
    if packed is not None:
        size, type_name, normalized, features = packed
        return VertexFetch(size, GL_ENUMS[type_name], type_name, normalized, "float", features)
    # Vertex fetch converts numbers only: no sRGB decoding, no depth/stencil
    # or YUV meaning (Mesa's vertex formats are all in the RGB space).
    if layout != "plain" or colorspace != "rgb" or not channels or name == "NONE":
        return None
    # Trailing padding is fine (GL reads fewer components and supplies the
    # defaults); leading padding would need an offset the format cannot give.
    chans = list(channels)
    while chans and chans[-1].type == ChannelType.VOID:
        chans.pop()
    if not chans or any(c.type == ChannelType.VOID for c in chans):
        return None
    kind, bits = chans[0].type, chans[0].size
    if any(c.type != kind or c.size != bits for c in chans):
        return None
    type_name = _VERTEX_TYPES.get((kind, bits))
    if type_name is None:
        return None
    n = len(chans)
    features = ()
    if swizzle_text == "xyzw"[:n] + _GL_VERTEX_DEFAULTS[n - 1 :]:
        size = n
    elif n == 4 and swizzle_text == "zyxw" and kind == ChannelType.UNORM and bits == 8:
        size, features = GL_BGRA, ("vertex_array_bgra",)
    else:
        return None
    if bits == 64 and kind != ChannelType.FLOAT:
        path, features = "double", features + ("vertex_attrib_64bit",)
    elif kind in (ChannelType.UINT, ChannelType.SINT):
        path = "integer"
    else:
        path = "float"
    if kind == ChannelType.FIXED:
        features += ("es2_compatibility",)  # GL_FIXED vertex type: GL 4.1
    if kind == ChannelType.FLOAT and bits == 16:
        features += ("half_float_vertex",)
    normalized = kind in (ChannelType.UNORM, ChannelType.SNORM)
    return VertexFetch(size, GL_ENUMS[type_name], type_name, normalized, path, features)


def _parse_descriptions() -> list:
    rows = []
    for line in _DESCRIPTIONS.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, layout, cs, block, chans, swz = line.split()
        if layout not in _LAYOUTS or cs not in _COLORSPACES or len(swz) != 4:
            raise AssertionError(f"format table: bad row {line!r}")
        rows.append((name, layout, cs, _parse_block(block), _parse_channels(chans), swz))
    return rows


_ROWS = _parse_descriptions()


class _FormatBase(IntEnum):
    """PIPE_FORMAT_*: every pipe_format of current Mesa (``u_formats.h``),
    with Mesa's values.  Members are named without the ``PIPE_FORMAT_``
    prefix (``Format.B8G8R8A8_UNORM``)."""


if TYPE_CHECKING:
    # The members are made at run time from the table above; to the type
    # checker every ``Format.<NAME>`` is a Format (EnumMeta's class-level
    # ``__getattr__`` below), and ``Format(value)`` an IntEnum lookup.
    class _FormatMeta(EnumMeta):
        def __getattr__(cls, name: str) -> Format: ...

    class Format(_FormatBase, metaclass=_FormatMeta): ...
else:
    Format = _FormatBase("Format", [(row[0], value) for value, row in enumerate(_ROWS)], module=__name__)
    Format.__doc__ = _FormatBase.__doc__
FORMAT_COUNT = len(_ROWS)  # PIPE_FORMAT_COUNT


def _parse_host() -> dict:
    text = _HOST.replace("@ASTC", _astc_host_lines())
    out: dict = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        name, ifmt, xfmt, xtype = fields[:4]
        swizzle, via, need = "RGBA", None, ()
        for opt in fields[4:]:
            key, _, value = opt.partition("=")
            if key == "swz":
                swizzle = value
            elif key == "via":
                via = Format[value]
            elif key == "need":
                need = tuple(value.split(","))
            else:
                raise AssertionError(f"format table: unknown host option {opt!r} in {line!r}")
        compressed = xfmt == "-"
        host = HostFormat(
            internal_format=GL_ENUMS[ifmt],
            internal_format_name="GL_" + ifmt,
            gl_format=0 if compressed else GL_ENUMS[xfmt],
            gl_format_name="" if compressed else "GL_" + xfmt,
            gl_type=0 if compressed else GL_ENUMS[xtype],
            gl_type_name="" if compressed else "GL_" + xtype,
            swizzle=tuple(_HOST_SWIZZLE[c] for c in swizzle),
            transfer_as=via,
            features=need,
            compressed=compressed,
        )
        out.setdefault(Format[name], []).append(host)
    return out


def _build_table() -> tuple:
    hosts = _parse_host()
    table = []
    for fmt, (name, layout, cs, block, chans, swz) in zip(Format, _ROWS, strict=True):
        real = [c for c in chans if c.type != ChannelType.VOID]
        plain = layout == "plain"
        pure = plain and bool(real) and all(c.pure_integer for c in real)
        array_bits = {c.size for c in chans}
        kinds = {c.type for c in real}
        table.append(
            FormatDesc(
                format=fmt,
                name=name,
                layout=layout,
                colorspace=cs,
                block_width=block[0],
                block_height=block[1],
                block_depth=block[2],
                block_bits=sum(c.size for c in chans),
                channels=chans,
                swizzle=tuple(_DESC_SWIZZLE[c] for c in swz),
                is_plain=plain,
                is_compressed=layout in COMPRESSED_LAYOUTS,
                is_srgb=cs == "srgb",
                is_depth=cs == "zs" and swz[0] != "_",
                is_stencil=cs == "zs" and swz[1] != "_",
                is_pure_integer=pure,
                is_pure_uint=pure and all(c.type == ChannelType.UINT for c in real),
                is_pure_sint=pure and all(c.type == ChannelType.SINT for c in real),
                is_normalized=plain and bool(real) and all(c.normalized for c in real),
                is_float=bool(real) and all(c.type == ChannelType.FLOAT for c in real),
                is_array=plain and len(array_bits) == 1 and array_bits <= {8, 16, 32, 64} and len(kinds) <= 1,
                nr_planes={"planar2": 2, "planar3": 3}.get(layout, 1),
                host=tuple(hosts.pop(fmt, ())),
                vertex=_vertex_fetch(name, layout, cs, chans, swz),
            )
        )
    if hosts:
        raise AssertionError(f"format table: host lines for unknown formats {sorted(f.name for f in hosts)}")
    return tuple(table)


# FORMAT_TABLE[value] is the row of Format(value).
FORMAT_TABLE: tuple[FormatDesc, ...] = _build_table()


__all__ = [
    "ChannelType",
    "Channel",
    "HostFormat",
    "VertexFetch",
    "FormatDesc",
    "Format",
    "FORMAT_TABLE",
    "FORMAT_COUNT",
    "GL_ENUMS",
    "IDENTITY_SWIZZLE",
    "COMPRESSED_LAYOUTS",
]
