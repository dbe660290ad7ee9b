"""Gallium's enums (p_defines.h and friends) as Python ``IntEnum`` / ``IntFlag`` classes.

Class and member names follow docs/api.md "Names" (``PIPE_CAP_GRAPHICS`` ->
``Cap.GRAPHICS``); values are Mesa's, so a number a C driver prints means
the same thing here.  :mod:`glpipe.p_defines` re-exports every C spelling.
Which header each value comes from, and how the capability enums are
numbered now that Mesa has no numbers for them: docs/api.md "Names".
"""

from __future__ import annotations

import functools
import operator
import sys
from enum import IntEnum, IntFlag

__all__ = [
    # capability enums and their history
    "Cap",
    "CapF",
    "ShaderCap",
    "ComputeCap",
    "CAP_RENAMES",
    "RETIRED_CAPS",
    # resources
    "Bind",
    "Usage",
    "ResourceFlag",
    "Target",
    # drawing and shaders
    "Prim",
    "ShaderType",
    "ShaderIR",
    # queries
    "Query",
    "StatQuery",
    "QueryFlag",
    "QueryValueType",
    "RenderCond",
    # context operations
    "Flush",
    "Map",
    "Barrier",
    "TextureBarrier",
    "Clear",
    "Mask",
    "ContextFlag",
    "ContextPriority",
    "ResetStatus",
    "Endian",
    "ImageAccess",
    "TextureTransferMode",
    # state enums
    "BlendFactor",
    "Blend",
    "LogicOp",
    "Func",
    "StencilOp",
    "TexWrap",
    "TexFilter",
    "TexMipFilter",
    "TexCompare",
    "TexReduction",
    "PolygonMode",
    "Face",
    "SpriteCoord",
    "Swizzle",
    "ViewportSwizzle",
    "ConservativeRaster",
    # implementation limits (p_state.h / p_defines.h) and timeouts
    "PIPE_MAX_ATTRIBS",
    "PIPE_MAX_CLIP_PLANES",
    "PIPE_MAX_COLOR_BUFS",
    "PIPE_MAX_CONSTANT_BUFFERS",
    "PIPE_MAX_SAMPLERS",
    "PIPE_MAX_SHADER_INPUTS",
    "PIPE_MAX_SHADER_OUTPUTS",
    "PIPE_MAX_SHADER_SAMPLER_VIEWS",
    "PIPE_MAX_SHADER_BUFFERS",
    "PIPE_MAX_SHADER_IMAGES",
    "PIPE_MAX_TEXTURE_LEVELS",
    "PIPE_MAX_SO_BUFFERS",
    "PIPE_MAX_SO_OUTPUTS",
    "PIPE_MAX_VIEWPORTS",
    "PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT",
    "PIPE_MAX_CLIP_OR_CULL_DISTANCE_ELEMENT_COUNT",
    "PIPE_MAX_WINDOW_RECTANGLES",
    "PIPE_MAX_SAMPLE_LOCATION_GRID_SIZE",
    "PIPE_MAX_HW_ATOMIC_BUFFERS",
    "PIPE_MAX_VERTEX_STREAMS",
    "PIPE_MAX_TEXTURE_TYPES",
    "PIPE_SHADER_TYPES",
    "PIPE_TIMEOUT_INFINITE",
]


# ---------------------------------------------------------------------------
# Capability enums.  Each table lists names in Mesa's enum order (value =
# position, as C numbers an enum without initialisers); a trailing comment
# gives the value of the first name on its line.
# ---------------------------------------------------------------------------


def _names(table: str) -> list:
    """The names of a whitespace-separated table, ignoring ``#`` comments."""
    return [name for line in table.splitlines() for name in line.split("#", 1)[0].split()]


def _cap_enum(cls_name: str, doc: str, mesa_order: str, renamed: dict, retired: str = "", spec_only: str = ""):
    """Build one capability ``IntEnum`` and the set of its retired members.

    ``mesa_order`` is numbered 0..n-1; ``spec_only`` (named by tests/data/spec/screen.rst
    but absent from Mesa's enum) and ``retired`` (named only by spec/older/,
    sorted for stable numbers) continue the numbering; ``renamed`` maps an old
    spelling to the current name it becomes an alias of.
    """
    members: list[tuple[str, int]] = []
    for name in _names(mesa_order) + _names(spec_only) + sorted(_names(retired)):
        members.append((name, len(members)))
    values = dict(members)
    if len(values) != len(members):
        raise AssertionError(f"{cls_name}: a name is listed twice")
    for old, new in sorted(renamed.items()):
        members.append((old, values[new]))  # same value: an enum alias
    enum_cls = IntEnum(cls_name, members, module=__name__, qualname=cls_name)  # type: ignore[misc]  # name from the table
    enum_cls.__doc__ = doc
    return enum_cls, frozenset(enum_cls[name] for name in _names(retired))


_CAP_MESA_ORDER = """
    GRAPHICS NPOT_TEXTURES MAX_DUAL_SOURCE_RENDER_TARGETS ANISOTROPIC_FILTER          # 0
    MAX_RENDER_TARGETS OCCLUSION_QUERY QUERY_TIME_ELAPSED TEXTURE_SHADOW_MAP          # 4
    TEXTURE_SWIZZLE MAX_TEXTURE_2D_SIZE MAX_TEXTURE_3D_LEVELS                         # 8
    MAX_TEXTURE_CUBE_LEVELS TEXTURE_MIRROR_CLAMP BLEND_EQUATION_SEPARATE              # 11
    MAX_STREAM_OUTPUT_BUFFERS PRIMITIVE_RESTART PRIMITIVE_RESTART_FIXED_INDEX         # 14
    INDEP_BLEND_ENABLE INDEP_BLEND_FUNC MAX_TEXTURE_ARRAY_LAYERS                      # 17
    FS_COORD_ORIGIN_UPPER_LEFT FS_COORD_ORIGIN_LOWER_LEFT                             # 20
    FS_COORD_PIXEL_CENTER_HALF_INTEGER FS_COORD_PIXEL_CENTER_INTEGER                  # 22
    DEPTH_CLIP_DISABLE DEPTH_CLIP_DISABLE_SEPARATE DEPTH_CLAMP_ENABLE                 # 24
    SHADER_STENCIL_EXPORT VS_INSTANCEID VERTEX_ELEMENT_INSTANCE_DIVISOR               # 27
    FRAGMENT_COLOR_CLAMPED MIXED_COLORBUFFER_FORMATS SEAMLESS_CUBE_MAP                # 30
    SEAMLESS_CUBE_MAP_PER_TEXTURE MIN_TEXEL_OFFSET MAX_TEXEL_OFFSET                   # 33
    CONDITIONAL_RENDER TEXTURE_BARRIER MAX_STREAM_OUTPUT_SEPARATE_COMPONENTS          # 36
    MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS STREAM_OUTPUT_PAUSE_RESUME               # 39
    TGSI_CAN_COMPACT_CONSTANTS VERTEX_COLOR_UNCLAMPED VERTEX_COLOR_CLAMPED            # 41
    GLSL_FEATURE_LEVEL GLSL_FEATURE_LEVEL_COMPATIBILITY ESSL_FEATURE_LEVEL            # 44
    QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION USER_VERTEX_BUFFERS                      # 47
    VERTEX_BUFFER_OFFSET_4BYTE_ALIGNED_ONLY VERTEX_BUFFER_STRIDE_4BYTE_ALIGNED_ONLY   # 49
    VERTEX_ELEMENT_SRC_OFFSET_4BYTE_ALIGNED_ONLY VERTEX_ATTRIB_ELEMENT_ALIGNED_ONLY   # 51
    COMPUTE CONSTANT_BUFFER_OFFSET_ALIGNMENT START_INSTANCE QUERY_TIMESTAMP           # 53
    TIMER_RESOLUTION TEXTURE_MULTISAMPLE MIN_MAP_BUFFER_ALIGNMENT CUBE_MAP_ARRAY      # 57
    TEXTURE_BUFFER_OBJECTS TEXTURE_BUFFER_OFFSET_ALIGNMENT                            # 61
    BUFFER_SAMPLER_VIEW_RGBA_ONLY TGSI_TEXCOORD LINEAR_IMAGE_PITCH_ALIGNMENT          # 63
    LINEAR_IMAGE_BASE_ADDRESS_ALIGNMENT TEXTURE_TRANSFER_MODES                        # 66
    QUERY_PIPELINE_STATISTICS TEXTURE_BORDER_COLOR_QUIRK                              # 68
    MAX_TEXEL_BUFFER_ELEMENTS_UINT MAX_VIEWPORTS ENDIANNESS MIXED_FRAMEBUFFER_SIZES   # 70
    VS_LAYER_VIEWPORT MAX_GEOMETRY_OUTPUT_VERTICES                                    # 74
    MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS MAX_TEXTURE_GATHER_COMPONENTS                # 76
    TEXTURE_GATHER_SM5 BUFFER_MAP_PERSISTENT_COHERENT FAKE_SW_MSAA TEXTURE_QUERY_LOD  # 78
    MIN_TEXTURE_GATHER_OFFSET MAX_TEXTURE_GATHER_OFFSET SAMPLE_SHADING                # 82
    TEXTURE_GATHER_OFFSETS VS_WINDOW_SPACE_POSITION MAX_VERTEX_STREAMS DRAW_INDIRECT  # 85
    FS_FINE_DERIVATIVE VENDOR_ID DEVICE_ID ACCELERATED VIDEO_MEMORY UMA               # 89
    CONDITIONAL_RENDER_INVERTED MAX_VERTEX_ATTRIB_STRIDE SAMPLER_VIEW_TARGET          # 95
    CLIP_HALFZ POLYGON_OFFSET_CLAMP MULTISAMPLE_Z_RESOLVE RESOURCE_FROM_USER_MEMORY   # 98
    RESOURCE_FROM_USER_MEMORY_COMPUTE_ONLY DEVICE_RESET_STATUS_QUERY                  # 102
    MAX_SHADER_PATCH_VARYINGS TEXTURE_FLOAT_LINEAR TEXTURE_HALF_FLOAT_LINEAR          # 104
    DEPTH_BOUNDS_TEST TEXTURE_QUERY_SAMPLES FORCE_PERSAMPLE_INTERP SHAREABLE_SHADERS  # 107
    COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS CLEAR_SCISSORED DRAW_PARAMETERS         # 111
    SHADER_PACK_HALF_FLOAT MULTI_DRAW_INDIRECT MULTI_DRAW_INDIRECT_PARAMS             # 114
    MULTI_DRAW_INDIRECT_PARTIAL_STRIDE FS_POSITION_IS_SYSVAL FS_POINT_IS_SYSVAL       # 117
    FS_FACE_IS_INTEGER_SYSVAL SHADER_BUFFER_OFFSET_ALIGNMENT INVALIDATE_BUFFER        # 120
    GENERATE_MIPMAP STRING_MARKER SURFACE_REINTERPRET_BLOCKS QUERY_BUFFER_OBJECT      # 123
    QUERY_MEMORY_INFO PCI_GROUP PCI_BUS PCI_DEVICE PCI_FUNCTION                       # 127
    FRAMEBUFFER_NO_ATTACHMENT ROBUST_BUFFER_ACCESS_BEHAVIOR CULL_DISTANCE             # 132
    CULL_DISTANCE_NOCOMBINE SHADER_GROUP_VOTE MAX_WINDOW_RECTANGLES                   # 135
    POLYGON_OFFSET_UNITS_UNSCALED VIEWPORT_SUBPIXEL_BITS RASTERIZER_SUBPIXEL_BITS     # 138
    MIXED_COLOR_DEPTH_BITS SHADER_ARRAY_COMPONENTS STREAM_OUTPUT_INTERLEAVE_BUFFERS   # 141
    SHADER_CAN_READ_OUTPUTS NATIVE_FENCE_FD GLSL_TESS_LEVELS_AS_INPUTS FBFETCH        # 144
    LEGACY_MATH_RULES DOUBLES INT64 TGSI_TEX_TXF_LZ SHADER_CLOCK                      # 148
    POLYGON_MODE_FILL_RECTANGLE SPARSE_BUFFER_PAGE_SIZE SHADER_BALLOT                 # 153
    TES_LAYER_VIEWPORT CAN_BIND_CONST_BUFFER_AS_VERTEX                                # 156
    ALLOW_MAPPED_BUFFERS_DURING_EXECUTION POST_DEPTH_COVERAGE BINDLESS_TEXTURE        # 158
    NIR_SAMPLERS_AS_DEREF QUERY_SO_OVERFLOW MEMOBJ LOAD_CONSTBUF TILE_RASTER_ORDER    # 161
    MAX_COMBINED_SHADER_OUTPUT_RESOURCES FRAMEBUFFER_MSAA_CONSTRAINTS                 # 166
    SIGNED_VERTEX_BUFFER_OFFSET CONTEXT_PRIORITY_MASK FENCE_SIGNAL CONSTBUF0_FLAGS    # 168
    PACKED_UNIFORMS CONSERVATIVE_RASTER_POST_SNAP_TRIANGLES                           # 172
    CONSERVATIVE_RASTER_POST_SNAP_POINTS_LINES                                        # 174
    CONSERVATIVE_RASTER_PRE_SNAP_TRIANGLES CONSERVATIVE_RASTER_PRE_SNAP_POINTS_LINES  # 175
    MAX_CONSERVATIVE_RASTER_SUBPIXEL_PRECISION_BIAS                                   # 177
    CONSERVATIVE_RASTER_POST_DEPTH_COVERAGE CONSERVATIVE_RASTER_INNER_COVERAGE        # 178
    PROGRAMMABLE_SAMPLE_LOCATIONS MAX_GS_INVOCATIONS MAX_SHADER_BUFFER_SIZE_UINT      # 180
    TEXTURE_MIRROR_CLAMP_TO_EDGE MAX_COMBINED_SHADER_BUFFERS                          # 183
    MAX_COMBINED_HW_ATOMIC_COUNTERS MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS            # 185
    MAX_TEXTURE_UPLOAD_MEMORY_BUDGET MAX_VERTEX_ELEMENT_SRC_OFFSET                    # 187
    SURFACE_SAMPLE_COUNT IMAGE_ATOMIC_FLOAT_ADD QUERY_PIPELINE_STATISTICS_SINGLE      # 189
    DEST_SURFACE_SRGB_CONTROL NIR_COMPACT_ARRAYS MAX_VARYINGS                         # 192
    COMPUTE_GRID_INFO_LAST_BLOCK COMPUTE_SHADER_DERIVATIVES IMAGE_LOAD_FORMATTED      # 195
    IMAGE_STORE_FORMATTED THROTTLE DMABUF PREFER_COMPUTE_FOR_MULTIMEDIA               # 198
    FRAGMENT_SHADER_INTERLOCK FBFETCH_COHERENT ATOMIC_FLOAT_MINMAX TGSI_DIV           # 202
    FRAGMENT_SHADER_TEXTURE_LOD FRAGMENT_SHADER_DERIVATIVES TEXTURE_SHADOW_LOD        # 206
    SHADER_SAMPLES_IDENTICAL IMAGE_ATOMIC_INC_WRAP PREFER_IMM_ARRAYS_AS_CONSTBUF      # 209
    GL_SPIRV GL_SPIRV_VARIABLE_POINTERS DEMOTE_TO_HELPER_INVOCATION                   # 212
    TGSI_TG4_COMPONENT_IN_SWIZZLE FLATSHADE ALPHA_TEST POINT_SIZE_FIXED               # 215
    TWO_SIDED_COLOR CLIP_PLANES MAX_VERTEX_BUFFERS OPENCL_INTEGER_FUNCTIONS           # 219
    INTEGER_MULTIPLY_32X16 FRONTEND_NOOP NIR_IMAGES_AS_DEREF PACKED_STREAM_OUTPUT     # 223
    VIEWPORT_TRANSFORM_LOWERED PSIZ_CLAMPED GL_BEGIN_END_BUFFER_SIZE                  # 227
    VIEWPORT_SWIZZLE SYSTEM_SVM VIEWPORT_MASK ALPHA_TO_COVERAGE_DITHER_CONTROL        # 230
    MAP_UNSYNCHRONIZED_THREAD_SAFE GLSL_ZERO_INIT BLEND_EQUATION_ADVANCED             # 234
    NIR_ATOMICS_AS_DEREF NO_CLIP_ON_COPY_TEX MAX_TEXTURE_MB SHADER_ATOMIC_INT64       # 237
    DEVICE_PROTECTED_SURFACE PREFER_REAL_BUFFER_IN_CONSTBUF0 GL_CLAMP TEXRECT         # 241
    SAMPLER_REDUCTION_MINMAX SAMPLER_REDUCTION_MINMAX_ARB ALLOW_DYNAMIC_VAO_FASTPATH  # 245
    EMULATE_NONFIXED_PRIMITIVE_RESTART SUPPORTED_PRIM_MODES                           # 248
    SUPPORTED_PRIM_MODES_WITH_RESTART PREFER_BACK_BUFFER_REUSE DRAW_VERTEX_STATE      # 250
    PREFER_POT_ALIGNED_VARYINGS MAX_SPARSE_TEXTURE_SIZE MAX_SPARSE_3D_TEXTURE_SIZE    # 253
    MAX_SPARSE_ARRAY_TEXTURE_LAYERS SPARSE_TEXTURE_FULL_ARRAY_CUBE_MIPMAPS            # 256
    QUERY_SPARSE_TEXTURE_RESIDENCY CLAMP_SPARSE_TEXTURE_LOD ALLOW_DRAW_OUT_OF_ORDER   # 258
    MAX_CONSTANT_BUFFER_SIZE_UINT HARDWARE_GL_SELECT DITHERING FBFETCH_ZS             # 261
    TIMELINE_SEMAPHORE_IMPORT QUERY_TIMESTAMP_BITS DEVICE_PROTECTED_CONTEXT           # 265
    ALLOW_GLTHREAD_BUFFER_SUBDATA_OPT NULL_TEXTURES                                   # 268
    ASTC_VOID_EXTENTS_NEED_DENORM_FLUSH VALIDATE_ALL_DIRTY_STATES HAS_CONST_BW        # 270
    PERFORMANCE_MONITOR                                                               # 273"""

# Old spelling (spec/older/, or screen.rst's typo) -> current cap, same meaning.
_CAP_RENAMED = {
    "COMPUTE_SHADER_DERIVATIVE": "COMPUTE_SHADER_DERIVATIVES",
    "DEVICE_PROTECTED_CONTENT": "DEVICE_PROTECTED_SURFACE",
    "MAX_SHADER_BUFFER_SIZE": "MAX_SHADER_BUFFER_SIZE_UINT",
    "MAX_TEXTURE_BUFFER_SIZE": "MAX_TEXEL_BUFFER_ELEMENTS_UINT",
    "TGSI_ARRAY_COMPONENTS": "SHADER_ARRAY_COMPONENTS",
    "TGSI_ATOMFADD": "IMAGE_ATOMIC_FLOAT_ADD",
    "TGSI_ATOMINC_WRAP": "IMAGE_ATOMIC_INC_WRAP",
    "TGSI_BALLOT": "SHADER_BALLOT",
    "TGSI_CAN_READ_OUTPUTS": "SHADER_CAN_READ_OUTPUTS",
    "TGSI_CLOCK": "SHADER_CLOCK",
    "TGSI_FS_COORD_ORIGIN_LOWER_LEFT": "FS_COORD_ORIGIN_LOWER_LEFT",
    "TGSI_FS_COORD_ORIGIN_UPPER_LEFT": "FS_COORD_ORIGIN_UPPER_LEFT",
    "TGSI_FS_COORD_PIXEL_CENTER_HALF_INTEGER": "FS_COORD_PIXEL_CENTER_HALF_INTEGER",
    "TGSI_FS_COORD_PIXEL_CENTER_INTEGER": "FS_COORD_PIXEL_CENTER_INTEGER",
    "TGSI_FS_FACE_IS_INTEGER_SYSVAL": "FS_FACE_IS_INTEGER_SYSVAL",
    "TGSI_FS_FBFETCH": "FBFETCH",
    "TGSI_FS_FINE_DERIVATIVE": "FS_FINE_DERIVATIVE",
    "TGSI_FS_POINT_IS_SYSVAL": "FS_POINT_IS_SYSVAL",
    "TGSI_FS_POSITION_IS_SYSVAL": "FS_POSITION_IS_SYSVAL",
    "TGSI_INSTANCEID": "VS_INSTANCEID",
    "TGSI_MUL_ZERO_WINS": "LEGACY_MATH_RULES",
    "TGSI_PACK_HALF_FLOAT": "SHADER_PACK_HALF_FLOAT",
    "TGSI_TES_LAYER_VIEWPORT": "TES_LAYER_VIEWPORT",
    "TGSI_TXQS": "TEXTURE_QUERY_SAMPLES",
    "TGSI_VOTE": "SHADER_GROUP_VOTE",
    "TGSI_VS_LAYER_VIEWPORT": "VS_LAYER_VIEWPORT",
    "TGSI_VS_WINDOW_SPACE_POSITION": "VS_WINDOW_SPACE_POSITION",
}

# Retired: gone from Mesa, or renamed with a different meaning or unit
# (MAX_TEXTURE_2D_LEVELS counted levels where MAX_TEXTURE_2D_SIZE counts texels;
# PREFER_BLIT_BASED_TEXTURE_TRANSFER was a bool, TEXTURE_TRANSFER_MODES is a
# mask), where an alias would hand old code a wrong number.
_CAP_RETIRED = """
    CLEAR_TEXTURE CS_DERIVED_SYSTEM_VALUES_SUPPORTED GLSL_OPTIMIZE_CONSERVATIVELY
    INT64_DIVMOD MAX_TEXTURE_2D_LEVELS POINT_SPRITE PREFER_BLIT_BASED_TEXTURE_TRANSFER
    RGB_OVERRIDE_DST_ALPHA_BLEND SM3 TEXTURE_BUFFER_SAMPLER TGSI_ANY_REG_AS_ADDRESS
    TGSI_SKIP_SHRINK_IO_ARRAYS TWO_SIDED_STENCIL USER_CONSTANT_BUFFERS VERTEXID_NOBASE
    VERTEX_SHADER_SATURATE
"""

Cap, _CAP_RETIRED_SET = _cap_enum(
    "Cap",
    "PIPE_CAP_*: integer/boolean capabilities (screen.get_param).",
    _CAP_MESA_ORDER,
    _CAP_RENAMED,
    _CAP_RETIRED,
    # Documented in screen.rst, but already dropped from Mesa's enum.
    spec_only="PRIMITIVE_RESTART_FOR_PATCHES",
)

_CAPF_RENAMED = {"MAX_POINT_WIDTH": "MAX_POINT_SIZE", "MAX_POINT_WIDTH_AA": "MAX_POINT_SIZE_AA"}
CapF, _CAPF_RETIRED_SET = _cap_enum(
    "CapF",
    "PIPE_CAPF_*: float capabilities (screen.get_paramf).",
    """
    MIN_LINE_WIDTH MIN_LINE_WIDTH_AA MAX_LINE_WIDTH MAX_LINE_WIDTH_AA        # 0
    LINE_WIDTH_GRANULARITY MIN_POINT_SIZE MIN_POINT_SIZE_AA MAX_POINT_SIZE   # 4
    MAX_POINT_SIZE_AA POINT_SIZE_GRANULARITY MAX_TEXTURE_ANISOTROPY          # 8
    MAX_TEXTURE_LOD_BIAS MIN_CONSERVATIVE_RASTER_DILATE                      # 11
    MAX_CONSERVATIVE_RASTER_DILATE CONSERVATIVE_RASTER_DILATE_GRANULARITY    # 13
    """,
    _CAPF_RENAMED,
    "GUARD_BAND_LEFT GUARD_BAND_TOP GUARD_BAND_RIGHT GUARD_BAND_BOTTOM",
)

_SHADER_CAP_RENAMED = {"MAX_CONST_BUFFER_SIZE": "MAX_CONST_BUFFER0_SIZE", "TGSI_CONT_SUPPORTED": "CONT_SUPPORTED"}
ShaderCap, _SHADER_CAP_RETIRED_SET = _cap_enum(
    "ShaderCap",
    "PIPE_SHADER_CAP_*: per-stage capabilities (screen.get_shader_param).",
    """
    MAX_INSTRUCTIONS MAX_ALU_INSTRUCTIONS MAX_TEX_INSTRUCTIONS MAX_TEX_INDIRECTIONS  # 0
    MAX_CONTROL_FLOW_DEPTH MAX_INPUTS MAX_OUTPUTS MAX_CONST_BUFFER0_SIZE             # 4
    MAX_CONST_BUFFERS MAX_TEMPS CONT_SUPPORTED INDIRECT_INPUT_ADDR                   # 8
    INDIRECT_OUTPUT_ADDR INDIRECT_TEMP_ADDR INDIRECT_CONST_ADDR SUBROUTINES          # 12
    INTEGERS INT64_ATOMICS FP16 FP16_DERIVATIVES FP16_CONST_BUFFERS INT16            # 16
    GLSL_16BIT_CONSTS MAX_TEXTURE_SAMPLERS TGSI_SQRT_SUPPORTED MAX_SAMPLER_VIEWS     # 22
    TGSI_ANY_INOUT_DECL_RANGE MAX_SHADER_BUFFERS SUPPORTED_IRS MAX_SHADER_IMAGES     # 26
    MAX_HW_ATOMIC_COUNTERS MAX_HW_ATOMIC_COUNTER_BUFFERS                             # 30
    """,
    _SHADER_CAP_RENAMED,
    """
    LOWER_IF_THRESHOLD MAX_UNROLL_ITERATIONS_HINT PREFERRED_IR
    TGSI_DFRACEXP_DLDEXP_SUPPORTED TGSI_DROUND_SUPPORTED TGSI_FMA_SUPPORTED
    TGSI_LDEXP_SUPPORTED TGSI_SKIP_MERGE_REGISTERS
    """,
)

# SUBGROUP_SIZE (one size) became SUBGROUP_SIZES (an OR of power-of-two sizes),
# a different meaning: retired, not aliased.
ComputeCap, _COMPUTE_CAP_RETIRED_SET = _cap_enum(
    "ComputeCap",
    "PIPE_COMPUTE_CAP_*: compute capabilities (screen.get_compute_param).",
    """
    ADDRESS_BITS IR_TARGET GRID_DIMENSION MAX_GRID_SIZE MAX_BLOCK_SIZE              # 0
    MAX_THREADS_PER_BLOCK MAX_GLOBAL_SIZE MAX_LOCAL_SIZE MAX_PRIVATE_SIZE           # 5
    MAX_INPUT_SIZE MAX_MEM_ALLOC_SIZE MAX_CLOCK_FREQUENCY MAX_COMPUTE_UNITS         # 9
    MAX_SUBGROUPS IMAGES_SUPPORTED SUBGROUP_SIZES MAX_VARIABLE_THREADS_PER_BLOCK    # 13
    """,
    {},
    "SUBGROUP_SIZE",
)

#: Per capability enum: old spelling -> the name of the current member it aliases.
CAP_RENAMES = {Cap: dict(_CAP_RENAMED), CapF: dict(_CAPF_RENAMED), ShaderCap: dict(_SHADER_CAP_RENAMED), ComputeCap: {}}

#: Per capability enum: the retired members (numbered after Mesa's values).
RETIRED_CAPS = {
    Cap: _CAP_RETIRED_SET,
    CapF: _CAPF_RETIRED_SET,
    ShaderCap: _SHADER_CAP_RETIRED_SET,
    ComputeCap: _COMPUTE_CAP_RETIRED_SET,
}


# ---------------------------------------------------------------------------
# Resources (p_defines.h)
# ---------------------------------------------------------------------------


class Bind(IntFlag):
    """PIPE_BIND_*: how a resource may be bound (bit 9 is unused in Mesa too)."""

    DEPTH_STENCIL = 1 << 0
    RENDER_TARGET = 1 << 1
    BLENDABLE = 1 << 2
    SAMPLER_VIEW = 1 << 3
    VERTEX_BUFFER = 1 << 4
    INDEX_BUFFER = 1 << 5
    CONSTANT_BUFFER = 1 << 6
    DISPLAY_TARGET = 1 << 7
    VERTEX_STATE = 1 << 8
    STREAM_OUTPUT = 1 << 10
    CURSOR = 1 << 11
    CUSTOM = 1 << 12
    GLOBAL = 1 << 13
    SHADER_BUFFER = 1 << 14
    SHADER_IMAGE = 1 << 15
    COMPUTE_RESOURCE = 1 << 16
    COMMAND_ARGS_BUFFER = 1 << 17
    QUERY_BUFFER = 1 << 18
    SCANOUT = 1 << 19
    SHARED = 1 << 20
    LINEAR = 1 << 21
    PROTECTED = 1 << 22
    SAMPLER_REDUCTION_MINMAX = 1 << 23
    PRIME_BLIT_DST = 1 << 24
    USE_FRONT_RENDERING = 1 << 25
    CONST_BW = 1 << 26
    VIDEO_DECODE_DPB = 1 << 27
    VIDEO_ENCODE_DPB = 1 << 28


class Usage(IntEnum):
    """PIPE_USAGE_*: expected lifecycle of a resource (a hint, not a mask)."""

    DEFAULT = 0
    IMMUTABLE = 1
    DYNAMIC = 2
    STREAM = 3
    STAGING = 4


class ResourceFlag(IntFlag):
    """PIPE_RESOURCE_FLAG_*: resource behaviour flags."""

    MAP_PERSISTENT = 1 << 0
    MAP_COHERENT = 1 << 1
    TEXTURING_MORE_LIKELY = 1 << 2
    SPARSE = 1 << 3
    SINGLE_THREAD_USE = 1 << 4
    ENCRYPTED = 1 << 5
    DONT_OVER_ALLOCATE = 1 << 6
    DONT_MAP_DIRECTLY = 1 << 7
    UNMAPPABLE = 1 << 8
    DRV_PRIV = 1 << 9
    FRONTEND_PRIV = 1 << 24


class Target(IntEnum):
    """PIPE_BUFFER and PIPE_TEXTURE_*: enum pipe_texture_target."""

    BUFFER = 0
    TEXTURE_1D = 1
    TEXTURE_2D = 2
    TEXTURE_3D = 3
    TEXTURE_CUBE = 4
    TEXTURE_RECT = 5
    TEXTURE_1D_ARRAY = 6
    TEXTURE_2D_ARRAY = 7
    TEXTURE_CUBE_ARRAY = 8


# ---------------------------------------------------------------------------
# Drawing and shaders
# ---------------------------------------------------------------------------


class Prim(IntEnum):
    """PIPE_PRIM_*: primitive modes (MESA_PRIM_* in current Mesa, same values)."""

    POINTS = 0
    LINES = 1
    LINE_LOOP = 2
    LINE_STRIP = 3
    TRIANGLES = 4
    TRIANGLE_STRIP = 5
    TRIANGLE_FAN = 6
    QUADS = 7
    QUAD_STRIP = 8
    POLYGON = 9
    LINES_ADJACENCY = 10
    LINE_STRIP_ADJACENCY = 11
    TRIANGLES_ADJACENCY = 12
    TRIANGLE_STRIP_ADJACENCY = 13
    PATCHES = 14


class ShaderType(IntEnum):
    """PIPE_SHADER_* stages (MESA_SHADER_* in current Mesa, same values)."""

    VERTEX = 0
    TESS_CTRL = 1
    TESS_EVAL = 2
    GEOMETRY = 3
    FRAGMENT = 4
    COMPUTE = 5


class ShaderIR(IntEnum):
    """PIPE_SHADER_IR_*: the representation a shader CSO carries (glpipe takes TGSI text)."""

    TGSI = 0
    NATIVE = 1
    NIR = 2
    NIR_SERIALIZED = 3


# ---------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------


class Query(IntEnum):
    """PIPE_QUERY_*: query object types (enum pipe_query_type)."""

    OCCLUSION_COUNTER = 0
    OCCLUSION_PREDICATE = 1
    OCCLUSION_PREDICATE_CONSERVATIVE = 2
    TIMESTAMP = 3
    TIMESTAMP_DISJOINT = 4
    TIME_ELAPSED = 5
    PRIMITIVES_GENERATED = 6
    PRIMITIVES_EMITTED = 7
    SO_STATISTICS = 8
    SO_OVERFLOW_PREDICATE = 9
    SO_OVERFLOW_ANY_PREDICATE = 10
    GPU_FINISHED = 11
    PIPELINE_STATISTICS = 12
    PIPELINE_STATISTICS_SINGLE = 13
    DRIVER_SPECIFIC = 256


class StatQuery(IntEnum):
    """PIPE_STAT_QUERY_*: counter index for PIPELINE_STATISTICS(_SINGLE) queries."""

    IA_VERTICES = 0
    IA_PRIMITIVES = 1
    VS_INVOCATIONS = 2
    GS_INVOCATIONS = 3
    GS_PRIMITIVES = 4
    C_INVOCATIONS = 5
    C_PRIMITIVES = 6
    PS_INVOCATIONS = 7
    HS_INVOCATIONS = 8
    DS_INVOCATIONS = 9
    CS_INVOCATIONS = 10
    TS_INVOCATIONS = 11
    MS_INVOCATIONS = 12


class QueryFlag(IntFlag):
    """PIPE_QUERY_WAIT / PIPE_QUERY_PARTIAL: flags of get_query_result_resource."""

    WAIT = 1 << 0
    PARTIAL = 1 << 1


class QueryValueType(IntEnum):
    """PIPE_QUERY_TYPE_*: result type written by get_query_result_resource."""

    I32 = 0
    U32 = 1
    I64 = 2
    U64 = 3


class RenderCond(IntEnum):
    """PIPE_RENDER_COND_*: conditional rendering modes."""

    WAIT = 0
    NO_WAIT = 1
    BY_REGION_WAIT = 2
    BY_REGION_NO_WAIT = 3


# ---------------------------------------------------------------------------
# Context operations
# ---------------------------------------------------------------------------


class Flush(IntFlag):
    """PIPE_FLUSH_*: flags of pipe_context::flush."""

    END_OF_FRAME = 1 << 0
    DEFERRED = 1 << 1
    FENCE_FD = 1 << 2
    ASYNC = 1 << 3
    HINT_FINISH = 1 << 4
    TOP_OF_PIPE = 1 << 5
    BOTTOM_OF_PIPE = 1 << 6


class Map(IntFlag):
    """PIPE_MAP_* (formerly PIPE_TRANSFER_*): transfer_map usage flags.

    ``MAP_DIRECTLY`` is the old ``PIPE_TRANSFER_MAP_DIRECTLY`` spelling of
    ``DIRECTLY``; the other PIPE_TRANSFER_* names equal the PIPE_MAP_* ones
    after the prefix, so they need no alias here (p_defines has them all).
    """

    NONE = 0
    READ = 1 << 0
    WRITE = 1 << 1
    READ_WRITE = READ | WRITE
    DIRECTLY = 1 << 2
    DISCARD_RANGE = 1 << 3
    DONTBLOCK = 1 << 4
    UNSYNCHRONIZED = 1 << 5
    FLUSH_EXPLICIT = 1 << 6
    DISCARD_WHOLE_RESOURCE = 1 << 7
    PERSISTENT = 1 << 8
    COHERENT = 1 << 9
    THREAD_SAFE = 1 << 10
    DEPTH_ONLY = 1 << 11
    STENCIL_ONLY = 1 << 12
    ONCE = 1 << 13
    DRV_PRV = 1 << 14
    MAP_DIRECTLY = DIRECTLY


class Barrier(IntFlag):
    """PIPE_BARRIER_*: flags of pipe_context::memory_barrier."""

    MAPPED_BUFFER = 1 << 0
    SHADER_BUFFER = 1 << 1
    QUERY_BUFFER = 1 << 2
    VERTEX_BUFFER = 1 << 3
    INDEX_BUFFER = 1 << 4
    CONSTANT_BUFFER = 1 << 5
    INDIRECT_BUFFER = 1 << 6
    TEXTURE = 1 << 7
    IMAGE = 1 << 8
    FRAMEBUFFER = 1 << 9
    STREAMOUT_BUFFER = 1 << 10
    GLOBAL_BUFFER = 1 << 11
    UPDATE_BUFFER = 1 << 12
    UPDATE_TEXTURE = 1 << 13
    ALL = (1 << 14) - 1
    UPDATE = UPDATE_BUFFER | UPDATE_TEXTURE


class TextureBarrier(IntFlag):
    """PIPE_TEXTURE_BARRIER_*: flags of pipe_context::texture_barrier."""

    SAMPLER = 1 << 0
    FRAMEBUFFER = 1 << 1


class Clear(IntFlag):
    """PIPE_CLEAR_*: buffer bits of pipe_context::clear."""

    DEPTH = 1 << 0
    STENCIL = 1 << 1
    COLOR0 = 1 << 2
    COLOR1 = 1 << 3
    COLOR2 = 1 << 4
    COLOR3 = 1 << 5
    COLOR4 = 1 << 6
    COLOR5 = 1 << 7
    COLOR6 = 1 << 8
    COLOR7 = 1 << 9
    COLOR = 0xFF << 2  # every color buffer bit
    DEPTHSTENCIL = DEPTH | STENCIL


class Mask(IntFlag):
    """PIPE_MASK_*: channel masks (colormask uses R..A; blit masks also Z and S)."""

    R = 0x1
    G = 0x2
    B = 0x4
    A = 0x8
    RGBA = 0xF
    Z = 0x10
    S = 0x20
    ZS = 0x30
    RGBAZS = RGBA | ZS


class ContextFlag(IntFlag):
    """PIPE_CONTEXT_*: flags of pipe_screen::context_create."""

    COMPUTE_ONLY = 1 << 0
    DEBUG = 1 << 1
    ROBUST_BUFFER_ACCESS = 1 << 2
    PREFER_THREADED = 1 << 3
    HIGH_PRIORITY = 1 << 4
    LOW_PRIORITY = 1 << 5
    LOSE_CONTEXT_ON_RESET = 1 << 6
    PROTECTED = 1 << 7
    NO_LOD_BIAS = 1 << 8
    MEDIA_ONLY = 1 << 9
    REALTIME_PRIORITY = 1 << 10


class ContextPriority(IntFlag):
    """PIPE_CONTEXT_PRIORITY_*: bits of the CONTEXT_PRIORITY_MASK cap."""

    LOW = 1 << 0
    MEDIUM = 1 << 1
    HIGH = 1 << 2
    REALTIME = 1 << 3


class ResetStatus(IntEnum):
    """PIPE_*_RESET: enum pipe_reset_status (C names are PIPE_NO_RESET, ...)."""

    NO_RESET = 0
    GUILTY_CONTEXT_RESET = 1
    INNOCENT_CONTEXT_RESET = 2
    UNKNOWN_CONTEXT_RESET = 3


class Endian(IntEnum):
    """PIPE_ENDIAN_*: the ENDIANNESS cap; NATIVE follows the machine, as in C."""

    LITTLE = 0
    BIG = 1
    NATIVE = LITTLE if sys.byteorder == "little" else BIG


class ImageAccess(IntFlag):
    """PIPE_IMAGE_ACCESS_*: pipe_image_view access flags."""

    READ = 1 << 0
    WRITE = 1 << 1
    READ_WRITE = READ | WRITE
    COHERENT = 1 << 2
    VOLATILE = 1 << 3
    TEX2D_FROM_BUFFER = 1 << 4
    DRIVER_INTERNAL = 1 << 5


class TextureTransferMode(IntFlag):
    """PIPE_TEXTURE_TRANSFER_*: bits of the TEXTURE_TRANSFER_MODES cap."""

    DEFAULT = 0
    BLIT = 1 << 0
    COMPUTE = 1 << 1


# Iterating an IntFlag class is version-dependent: before Python 3.11 it
# yields every distinct value (zero members such as Map.NONE, unions such as
# Map.READ_WRITE), from 3.11 only the single-bit members.  Code that needs a
# flag's bits asks these two functions, which read ``__members__`` (the same
# on every version); never ``for b in Bind`` or ``sum(Map)``.


@functools.cache
def flag_bits(flag_cls) -> tuple:
    """The single-bit members of IntFlag class ``flag_cls``, lowest bit first,
    each once (aliases, zero and multi-bit members left out)."""
    bits: dict[int, IntFlag] = {}
    for member in flag_cls.__members__.values():
        value = int(member)
        if value > 0 and value & (value - 1) == 0:
            bits.setdefault(value, member)
    return tuple(bits[v] for v in sorted(bits))


@functools.cache
def all_flag_bits(flag_cls) -> int:
    """Every bit any member of IntFlag class ``flag_cls`` sets, as a plain int."""
    return functools.reduce(operator.or_, (int(m) for m in flag_cls.__members__.values()), 0)


# ---------------------------------------------------------------------------
# State enums (blend.h, p_defines.h, u_formats.h)
# ---------------------------------------------------------------------------


class BlendFactor(IntEnum):
    """PIPE_BLENDFACTOR_*: the INV_* factors are their base factor | 0x10."""

    ONE = 0x01
    SRC_COLOR = 0x02
    SRC_ALPHA = 0x03
    DST_ALPHA = 0x04
    DST_COLOR = 0x05
    SRC_ALPHA_SATURATE = 0x06
    CONST_COLOR = 0x07
    CONST_ALPHA = 0x08
    SRC1_COLOR = 0x09
    SRC1_ALPHA = 0x0A
    ZERO = 0x11
    INV_SRC_COLOR = 0x12
    INV_SRC_ALPHA = 0x13
    INV_DST_ALPHA = 0x14
    INV_DST_COLOR = 0x15
    INV_CONST_COLOR = 0x17
    INV_CONST_ALPHA = 0x18
    INV_SRC1_COLOR = 0x19
    INV_SRC1_ALPHA = 0x1A


class Blend(IntEnum):
    """PIPE_BLEND_*: blend equations."""

    ADD = 0
    SUBTRACT = 1
    REVERSE_SUBTRACT = 2
    MIN = 3
    MAX = 4


class LogicOp(IntEnum):
    """PIPE_LOGICOP_*: the value is the truth table (bit 2*src + dst is the result), not GL's order."""

    CLEAR = 0
    NOR = 1
    AND_INVERTED = 2
    COPY_INVERTED = 3
    AND_REVERSE = 4
    INVERT = 5
    XOR = 6
    NAND = 7
    AND = 8
    EQUIV = 9
    NOOP = 10
    OR_INVERTED = 11
    COPY = 12
    OR_REVERSE = 13
    OR = 14
    SET = 15


class Func(IntEnum):
    """PIPE_FUNC_*: comparison functions (GL_NEVER + value)."""

    NEVER = 0
    LESS = 1
    EQUAL = 2
    LEQUAL = 3
    GREATER = 4
    NOTEQUAL = 5
    GEQUAL = 6
    ALWAYS = 7


class StencilOp(IntEnum):
    """PIPE_STENCIL_OP_*."""

    KEEP = 0
    ZERO = 1
    REPLACE = 2
    INCR = 3
    DECR = 4
    INCR_WRAP = 5
    DECR_WRAP = 6
    INVERT = 7


class TexWrap(IntEnum):
    """PIPE_TEX_WRAP_*."""

    REPEAT = 0
    CLAMP = 1
    CLAMP_TO_EDGE = 2
    CLAMP_TO_BORDER = 3
    MIRROR_REPEAT = 4
    MIRROR_CLAMP = 5
    MIRROR_CLAMP_TO_EDGE = 6
    MIRROR_CLAMP_TO_BORDER = 7


class TexFilter(IntEnum):
    """PIPE_TEX_FILTER_*: filter within a mip level."""

    NEAREST = 0
    LINEAR = 1


class TexMipFilter(IntEnum):
    """PIPE_TEX_MIPFILTER_*: filter between mip levels."""

    NEAREST = 0
    LINEAR = 1
    NONE = 2


class TexCompare(IntEnum):
    """PIPE_TEX_COMPARE_*: shadow comparison mode."""

    NONE = 0
    R_TO_TEXTURE = 1


class TexReduction(IntEnum):
    """PIPE_TEX_REDUCTION_*: sampler reduction mode."""

    WEIGHTED_AVERAGE = 0
    MIN = 1
    MAX = 2


class PolygonMode(IntEnum):
    """PIPE_POLYGON_MODE_*."""

    FILL = 0
    LINE = 1
    POINT = 2
    FILL_RECTANGLE = 3


class Face(IntEnum):
    """PIPE_FACE_*: cull face selection."""

    NONE = 0
    FRONT = 1
    BACK = 2
    FRONT_AND_BACK = 3


class SpriteCoord(IntEnum):
    """PIPE_SPRITE_COORD_*: point sprite coordinate origin."""

    UPPER_LEFT = 0
    LOWER_LEFT = 1


class Swizzle(IntEnum):
    """PIPE_SWIZZLE_*; C's PIPE_SWIZZLE_0 / PIPE_SWIZZLE_1 are ZERO / ONE."""

    X = 0
    Y = 1
    Z = 2
    W = 3
    ZERO = 4
    ONE = 5
    NONE = 6


class ViewportSwizzle(IntEnum):
    """PIPE_VIEWPORT_SWIZZLE_*: pipe_viewport_state.swizzle_x..w."""

    POSITIVE_X = 0
    NEGATIVE_X = 1
    POSITIVE_Y = 2
    NEGATIVE_Y = 3
    POSITIVE_Z = 4
    NEGATIVE_Z = 5
    POSITIVE_W = 6
    NEGATIVE_W = 7


class ConservativeRaster(IntEnum):
    """PIPE_CONSERVATIVE_RASTER_*: rasterizer conservative_raster_mode."""

    OFF = 0
    POST_SNAP = 1
    PRE_SNAP = 2


# ---------------------------------------------------------------------------
# Implementation limits (p_state.h) and the infinite timeout
# ---------------------------------------------------------------------------

PIPE_MAX_ATTRIBS = 32
PIPE_MAX_CLIP_PLANES = 8
PIPE_MAX_COLOR_BUFS = 8
PIPE_MAX_CONSTANT_BUFFERS = 32
PIPE_MAX_SAMPLERS = 32
PIPE_MAX_SHADER_INPUTS = 80  # 32 GENERIC + 32 PATCH + 16 others
PIPE_MAX_SHADER_OUTPUTS = 80
PIPE_MAX_SHADER_SAMPLER_VIEWS = 128
PIPE_MAX_SHADER_BUFFERS = 32
PIPE_MAX_SHADER_IMAGES = 64
PIPE_MAX_TEXTURE_LEVELS = 16
PIPE_MAX_SO_BUFFERS = 4
PIPE_MAX_SO_OUTPUTS = 128
PIPE_MAX_VIEWPORTS = 16
PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT = 8
PIPE_MAX_CLIP_OR_CULL_DISTANCE_ELEMENT_COUNT = 2
PIPE_MAX_WINDOW_RECTANGLES = 8
PIPE_MAX_SAMPLE_LOCATION_GRID_SIZE = 4
PIPE_MAX_HW_ATOMIC_BUFFERS = 32
PIPE_MAX_VERTEX_STREAMS = 4
PIPE_MAX_TEXTURE_TYPES = len(Target)  # enum pipe_texture_target's count member
PIPE_SHADER_TYPES = len(ShaderType)  # the GL stages VERTEX..COMPUTE
#: fence_finish / get_query_result timeout meaning "wait forever" (OS_TIMEOUT_INFINITE).
PIPE_TIMEOUT_INFINITE = 0xFFFFFFFFFFFFFFFF
