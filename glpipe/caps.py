"""Screen capabilities: every PIPE_CAP / PIPE_CAPF (here), PIPE_SHADER_CAP and
PIPE_COMPUTE_CAP (``glpipe.caps_shader``), computed once per screen from the
``DELIVERED`` table, ``PARAM_RULES``, ``NOT_OFFERED`` and ``WITHHELD``.

docs/caps.md "The rule" explains the policy and the proof table.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from lowering.glsl.wide import soft_fp64_complete

from . import caps_shader
from .caps_shader import (
    BindingLayout,
    binding_layout,
    compute_caps,
    compute_caps_for_other_ir,
    shader_caps,
)
from .driver_queries import DRIVER_QUERY_GROUPS
from .enums import (
    PIPE_MAX_ATTRIBS,
    PIPE_MAX_CLIP_PLANES,
    PIPE_MAX_COLOR_BUFS,
    PIPE_MAX_SO_BUFFERS,
    PIPE_MAX_VIEWPORTS,
    PIPE_MAX_WINDOW_RECTANGLES,
    Bind,
    Cap,
    CapF,
    ComputeCap,
    Endian,
    Prim,
    ShaderCap,
    ShaderIR,
    ShaderType,
    Target,
)
from .formats import Format, is_format_supported
from .host.facts import probe_host_facts

# --------------------------------------------------------------------------
# What glpipe delivers now.  Flip a row when its subsystem lands with tests.
# --------------------------------------------------------------------------

#: row -> (delivered now, the issue expected to flip it, what it promises).
ROWS = MappingProxyType(
    {
        "screen": (
            True,
            "#2 Foundation",
            "get_param*, is_format_supported, get_timestamp, driver query info, context_create",
        ),
        "resources": (
            True,
            "#2 Foundation",
            (
                "resource_create / can_create_resource / resource_destroy for BUFFER and every texture "
                "target, mip chains, MSAA 2D / 2D-array, cube arrays where the host has them"
            ),
        ),
        "shaders": (
            True,
            "#4 Context",
            "create_{vs,fs,gs,tcs,tes}_state from TGSI through lowering/, variants compiled and run in draws",
        ),
        "draw": (
            True,
            "#4 Context",
            (
                "blend / DSA / rasterizer / sampler / vertex-elements CSOs, non-CSO state, set_framebuffer_state "
                "and surfaces, vertex buffers (resource and user memory), constant buffers, sampler views, draw_vbo"
            ),
        ),
        "clear": (True, "#4 Context", "clear (scissored), clear_render_target, clear_depth_stencil"),
        "transfers": (
            True,
            "#4 Context / resources-in-motion",
            "transfer_map / transfer_unmap, buffer_subdata, texture_subdata, invalidate_resource",
        ),
        "fences": (True, "#4 Context / queries-fences", "flush -> Fence, fence_finish"),
        "queries": (
            True,
            "queries-fences",
            (
                "create_query / begin / end / get_query_result (occlusion, time, timestamp, statistics), "
                "render_condition, get_query_result_resource"
            ),
        ),
        "blit": (True, "resources-in-motion", "blit, resource_copy_region"),
        "generate_mipmap": (True, "resources-in-motion", "generate_mipmap"),
        "clear_texture": (True, "resources-in-motion", "clear_texture, clear_buffer"),
        "stream_output": (True, "stream-output", "stream output targets, SO queries' data, draw auto"),
        "draw_indirect": (True, "indirect-draws", "draw_vbo with DrawIndirectInfo (and multi-draw indirect)"),
        "compute": (True, "compute", "create_compute_state / launch_grid on the host's compute shaders"),
        "compute_fallback": (
            True,
            "compute",
            "launch_grid through the numpy TGSI executor where the host has no compute shaders",
        ),
        "shader_buffers": (True, "compute", "set_shader_buffers, LOAD/STORE/ATOM* on BUFFER"),
        "shader_images": (True, "compute", "set_shader_images, image LOAD/STORE/ATOM*"),
        "hw_atomics": (True, "compute", "set_hw_atomic_buffers, the HWATOMIC register file on GL atomic counters"),
        "barriers": (True, "resources-in-motion", "texture_barrier, memory_barrier, flush_resource, resource_commit"),
        "persistent_mapping": (True, "resources-in-motion", "PIPE_MAP_PERSISTENT / COHERENT buffer maps"),
        "debug": (True, "#4 Context", "set_debug_callback (host KHR_debug + glpipe warnings), emit_string_marker"),
        # COLOR/BCOLOR, FOG, TEXCOORD, CLIPVERTEX and EDGEFLAG (edge flags of
        # polygons drawn as lines / points: glpipe/raster/polygon_edges.py) all work.
        "legacy_io": (
            True,
            "#4 Context",
            "compatibility-profile I/O semantics: COLOR/BCOLOR, FOG, TEXCOORD, CLIPVERTEX, EDGEFLAG",
        ),
    }
)

#: row -> delivered now.  The one switch a later issue flips.
DELIVERED = MappingProxyType({row: spec[0] for row, spec in ROWS.items()})

# Rows named only to say "always": the subsystem exists once glpipe imports.
FACT = ()


# --------------------------------------------------------------------------
# The environment an expression sees
# --------------------------------------------------------------------------

# Renderers that rasterize on the CPU (Mesa's software drivers, SwiftShader).
_SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "lavapipe", "software rasterizer", "swiftshader")


class CapsEnv:
    """The host profile and DELIVERED table as the cap expressions see them.

    ``d(*rows)``: all rows delivered.  ``has(feature)``: the features table.
    ``lim(name)``: a host limit (``HostProfile.limits``).
    """

    def __init__(self, host, format_support, delivered):
        unknown = set(delivered) ^ set(ROWS)
        if unknown:
            raise KeyError(f"DELIVERED rows differ from caps.ROWS: {sorted(unknown)}")
        self.profile = host.profile
        self.glsl_version = int(host.profile.glsl_version)
        self.scratch_texture_unit = int(host.scratch_texture_unit)
        self.format_support = format_support
        self.delivered = MappingProxyType(dict(delivered))
        self.facts = probe_host_facts(host)  # cached on the host (glpipe/host/facts.py)

    def d(self, *rows: str) -> bool:
        """True when every one of ``rows`` is delivered."""
        return all(self.delivered[r] for r in rows)

    def has(self, feature: str) -> bool:
        """Whether the host profile has ``feature`` (a glpipe.host.features row)."""
        return self.profile.has(feature)

    def fact(self, name: str) -> bool:
        """Whether host fact ``name`` (glpipe.host.facts.FACTS) holds on this host."""
        return self.facts.has(name)

    def lim(self, name: str) -> Any:  # int, float or tuple, by the limit: the rule reading it knows which
        """The host limit ``name`` (int, float or tuple)."""
        return self.profile.limits[name]  # KeyError: a typo in a rule

    @property
    def software_renderer(self) -> bool:
        """The host GL rasterizes on the CPU (judged by its renderer string)."""
        renderer = self.profile.renderer.lower()
        return any(name in renderer for name in _SOFTWARE_RENDERERS)


# --------------------------------------------------------------------------
# Helpers the rules use
# --------------------------------------------------------------------------


def _levels(max_size: int) -> int:
    """Mip levels of a chain whose level 0 is ``max_size`` texels (0 for 0)."""
    return int(max_size).bit_length()


def _msaa_textures_sampleable(e: CapsEnv) -> bool:
    """TEXTURE_MULTISAMPLE: every format is_format_supported allows as an
    MSAA render target (or depth buffer) at n samples is also allowed as an
    MSAA sampler view at n samples, and MSAA textures exist at all."""
    if not e.has("texture_multisample"):
        return False
    support, any_msaa = e.format_support, False
    for fmt in Format:
        if fmt == Format.NONE:
            continue
        for n in (2, 4, 8, 16, 32):
            for bind in (Bind.RENDER_TARGET, Bind.DEPTH_STENCIL):
                if is_format_supported(support, fmt, Target.TEXTURE_2D, n, n, bind):
                    any_msaa = True
                    if not is_format_supported(support, fmt, Target.TEXTURE_2D, n, n, bind | Bind.SAMPLER_VIEW):
                        return False
    return any_msaa


def _sampler_feature(e: CapsEnv, name: str) -> bool:
    """A sampler host feature (a glpipe.host.features row)."""
    return e.has(name)


def _ssbo_limit(e: CapsEnv, gl_name: str, fallback: str) -> int:
    """A shader-buffer limit: the host's where it has SSBOs, else what the
    numpy executor's compute stage allows (CS_FALLBACK_LIMITS)."""
    if e.has("shader_storage_buffer_object"):
        return int(e.lim(gl_name))
    value = caps_shader.CS_FALLBACK_LIMITS[fallback]
    return int(value) if e.d("compute_fallback") and isinstance(value, int) else 0


def _prim_modes(e: CapsEnv) -> int:
    """Every Prim draw_vbo accepts: QUADS / QUAD_STRIP / POLYGON / LINE_LOOP
    through glpipe's index translation, adjacency through GS-capable GL,
    PATCHES only with tessellation."""
    mask = 0
    for prim in Prim:
        if prim == Prim.PATCHES and not e.has("tessellation_shader"):
            continue
        if "ADJACENCY" in prim.name and not e.has("geometry_shader"):
            continue
        mask |= 1 << prim
    return mask


# GLSL feature levels: (version, DELIVERED rows, host features) that GLSL
# version needs beyond the previous one.  The level is the highest version
# whose rows and features (and all lower ones') are there, capped at the
# profile's GLSL.  GLSL features only; GL API features have their own caps.
GLSL_LEVELS = (
    (130, ("shaders",), ()),
    (140, ("draw",), ("texture_buffer_object", "uniform_buffer_object", "texture_rectangle", "draw_instanced")),
    (150, (), ("geometry_shader", "texture_multisample")),
    (330, (), ("explicit_attrib_location", "shader_bit_encoding")),
    (
        400,
        (),
        (
            "gpu_shader5",
            "gpu_shader_fp64",
            "tessellation_shader",
            "texture_cube_map_array",
            "texture_gather",
            "texture_query_lod",
            "sample_shading",
        ),
    ),
    (410, (), ("viewport_array", "separate_shader_objects")),
    (
        420,
        ("shader_images", "hw_atomics"),
        ("shader_image_load_store", "shader_atomic_counters", "shading_language_420pack"),
    ),
    (
        430,
        ("compute", "shader_buffers"),
        (
            "compute_shader",
            "shader_storage_buffer_object",
            "texture_query_levels",
            "fragment_layer_viewport",
            "explicit_uniform_location",
        ),
    ),
    (440, ("stream_output",), ("enhanced_layouts",)),
    (450, (), ("cull_distance", "derivative_control", "shader_texture_image_samples")),
)


def glsl_feature_level(e: CapsEnv) -> int:
    """The GLSL version whose features glpipe delivers (0: none)."""
    level = 0
    for version, rows, features in GLSL_LEVELS:
        if version > e.glsl_version or not e.d(*rows) or not all(e.has(f) for f in features):
            break
        level = version
    return level


# --------------------------------------------------------------------------
# PIPE_CAP_*: (cap, rows it needs, expression).  Defaults are 0.
# --------------------------------------------------------------------------

# MIN/MAX_TEXTURE_GATHER_OFFSET without textureGather, whose emulation takes any offset.
EMULATED_GATHER_OFFSETS = (-32, 31)

_D = ("draw",)
_S = ("shaders",)
_SD = ("shaders", "draw")
_Q = ("queries",)
_SO = ("stream_output",)
_R = ("resources",)
_XFB = "transform_feedback3"

_PARAM_ROWS = (
    # ---- facts about glpipe on this host, whatever is delivered ----------
    # context_create makes non-compute-only contexts today; 0 would say only
    # COMPUTE_ONLY contexts may be made, which is false (docs/caps.md).
    (Cap.GRAPHICS, FACT, lambda e: 1),
    (Cap.ENDIANNESS, FACT, lambda e: Endian.NATIVE),  # the CPU's: resources are host memory images
    (Cap.VENDOR_ID, FACT, lambda e: 0xFFFFFFFF),  # GL exposes no PCI ids: "not available"
    (Cap.DEVICE_ID, FACT, lambda e: 0xFFFFFFFF),
    # 0 on a software rasterizer, -1 (unknown: an API translation layer) else.
    (Cap.ACCELERATED, FACT, lambda e: 0 if e.software_renderer else -1),
    (Cap.UMA, FACT, lambda e: int(e.software_renderer)),  # a CPU renderer's textures live in RAM
    (Cap.VIDEO_MEMORY, FACT, lambda e: 0),  # core GL has no memory query
    (Cap.SHAREABLE_SHADERS, FACT, lambda e: 0),  # docs/api.md "Errors": objects are refused by other contexts
    (Cap.ESSL_FEATURE_LEVEL, FACT, lambda e: 0),  # 0: use GLSL_FEATURE_LEVEL
    (Cap.TEXTURE_TRANSFER_MODES, FACT, lambda e: 0),  # PIPE_TEXTURE_TRANSFER_DEFAULT: glpipe converts itself
    (Cap.PREFER_BLIT_BASED_TEXTURE_TRANSFER, FACT, lambda e: 0),  # retired twin of the above
    (Cap.GL_BEGIN_END_BUFFER_SIZE, FACT, lambda e: 512 * 1024),  # frontend buffer hint: Gallium's default
    (Cap.MAX_TEXTURE_MB, FACT, lambda e: 0),  # glpipe sets no size budget: the host's allocation decides
    (Cap.FRAMEBUFFER_MSAA_CONSTRAINTS, FACT, lambda e: 0),  # the strictest rule: equal sample counts
    (Cap.CONSTBUF0_FLAGS, FACT, lambda e: 0),  # no resource flags needed for constant buffer 0
    (Cap.PACKED_UNIFORMS, FACT, lambda e: 0),  # constants are std140 vec4 arrays
    # ---- resources: what resource_create accepts (it validates against the same limits)
    (Cap.MAX_TEXTURE_2D_SIZE, _R, lambda e: e.lim("GL_MAX_TEXTURE_SIZE")),
    (Cap.MAX_TEXTURE_2D_LEVELS, _R, lambda e: _levels(e.lim("GL_MAX_TEXTURE_SIZE"))),
    (Cap.MAX_TEXTURE_3D_LEVELS, _R, lambda e: _levels(e.lim("GL_MAX_3D_TEXTURE_SIZE"))),
    (Cap.MAX_TEXTURE_CUBE_LEVELS, _R, lambda e: _levels(e.lim("GL_MAX_CUBE_MAP_TEXTURE_SIZE"))),
    (Cap.MAX_TEXTURE_ARRAY_LAYERS, _R, lambda e: e.lim("GL_MAX_ARRAY_TEXTURE_LAYERS") if e.has("texture_array") else 0),
    (Cap.CUBE_MAP_ARRAY, _R, lambda e: e.has("texture_cube_map_array")),
    (Cap.TEXRECT, _R, lambda e: e.has("texture_rectangle")),
    (Cap.TEXTURE_MULTISAMPLE, _R, _msaa_textures_sampleable),
    # ---- shaders: what the lowering expresses at the profile's GLSL ------
    (Cap.GLSL_FEATURE_LEVEL, _S, glsl_feature_level),
    (Cap.GLSL_FEATURE_LEVEL_COMPATIBILITY, ("shaders", "legacy_io"), glsl_feature_level),
    (Cap.SM3, _S, lambda e: 1),
    (Cap.VS_INSTANCEID, _S, lambda e: 1),  # gl_InstanceID (GLSL 1.40)
    (Cap.VERTEX_COLOR_UNCLAMPED, _S, lambda e: 1),  # core GL never clamps varyings
    (Cap.VERTEX_SHADER_SATURATE, _S, lambda e: 1),
    (Cap.TGSI_ANY_REG_AS_ADDRESS, _S, lambda e: 1),  # TEMP[TEMP[1].x+2] is in the lowering's grammar
    (Cap.TGSI_TEX_TXF_LZ, _S, lambda e: 1),
    (Cap.TGSI_DIV, _S, lambda e: 1),
    (Cap.FRAGMENT_SHADER_TEXTURE_LOD, _S, lambda e: 1),  # textureLod in FS: desktop GLSL 1.30
    (Cap.FRAGMENT_SHADER_DERIVATIVES, _S, lambda e: 1),
    (Cap.MIN_TEXEL_OFFSET, _S, lambda e: e.lim("GL_MIN_PROGRAM_TEXEL_OFFSET")),
    (Cap.MAX_TEXEL_OFFSET, _S, lambda e: e.lim("GL_MAX_PROGRAM_TEXEL_OFFSET")),
    (Cap.FS_COORD_ORIGIN_UPPER_LEFT, _S, lambda e: e.has("fragment_coord_conventions")),
    (Cap.FS_COORD_ORIGIN_LOWER_LEFT, _S, lambda e: e.has("fragment_coord_conventions")),
    (Cap.FS_COORD_PIXEL_CENTER_HALF_INTEGER, _S, lambda e: e.has("fragment_coord_conventions")),
    (Cap.FS_COORD_PIXEL_CENTER_INTEGER, _S, lambda e: e.has("fragment_coord_conventions")),
    (Cap.SHADER_STENCIL_EXPORT, _S, lambda e: e.has("shader_stencil_export")),
    # Without the extension a generated GS (GL 3.2 core) writes them (glpipe/vertex_layer.py).
    (Cap.VS_LAYER_VIEWPORT, _S, lambda e: 1),
    (Cap.TES_LAYER_VIEWPORT, _S, lambda e: e.has("shader_viewport_layer_array") and e.has("tessellation_shader")),
    (
        Cap.MAX_GEOMETRY_OUTPUT_VERTICES,
        _S,
        lambda e: e.lim("GL_MAX_GEOMETRY_OUTPUT_VERTICES") if e.has("geometry_shader") else 0,
    ),
    (
        Cap.MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
        _S,
        lambda e: e.lim("GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS") if e.has("geometry_shader") else 0,
    ),
    # Without gpu_shader5 a GS runs exactly one invocation.
    (
        Cap.MAX_GS_INVOCATIONS,
        _S,
        lambda e: (
            e.lim("GL_MAX_GEOMETRY_SHADER_INVOCATIONS") if e.has("gpu_shader5") else int(e.has("geometry_shader"))
        ),
    ),
    (
        Cap.MAX_SHADER_PATCH_VARYINGS,
        _S,
        lambda e: e.lim("GL_MAX_TESS_PATCH_COMPONENTS") // 4 if e.has("tessellation_shader") else 0,
    ),
    (
        Cap.MAX_VARYINGS,
        _S,
        lambda e: min(e.lim("GL_MAX_VERTEX_OUTPUT_COMPONENTS"), e.lim("GL_MAX_FRAGMENT_INPUT_COMPONENTS")) // 4,
    ),
    (Cap.MAX_CONSTANT_BUFFER_SIZE_UINT, _S, lambda e: e.lim("GL_MAX_UNIFORM_BLOCK_SIZE")),
    (Cap.CONSTANT_BUFFER_OFFSET_ALIGNMENT, _S, lambda e: e.lim("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT")),
    # textureGather(Offset(s)), or without it four lookups per TG4 / GATHER4 on every
    # target a gather takes (2D, 2D_ARRAY, RECT, CUBE, their shadow forms; component
    # select, one / four / run-time offsets): lowering/glsl/texture_emul.py and
    # texture_gather_cube.py, docs/lowering.md "Texture queries and gathers on GLSL 3.30".
    (Cap.MAX_TEXTURE_GATHER_COMPONENTS, _S, lambda e: 4),
    # SM5 forms (component, shadow, run-time offsets) without gpu_shader5 are lookups,
    # which have no cube array form: a host with cube arrays needs gpu_shader5.
    (Cap.TEXTURE_GATHER_SM5, _S, lambda e: e.has("gpu_shader5") or not e.has("texture_cube_map_array")),
    (Cap.TEXTURE_GATHER_OFFSETS, _S, lambda e: 1),
    # The lookups take any offset; without textureGather the range offered is llvmpipe's
    # native one, well past GL 4.0's minimum [-8, 7].
    (
        Cap.MIN_TEXTURE_GATHER_OFFSET,
        _S,
        lambda e: (
            e.lim("GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET") if e.has("texture_gather") else EMULATED_GATHER_OFFSETS[0]
        ),
    ),
    (
        Cap.MAX_TEXTURE_GATHER_OFFSET,
        _S,
        lambda e: (
            e.lim("GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET") if e.has("texture_gather") else EMULATED_GATHER_OFFSETS[1]
        ),
    ),
    # textureQueryLod, or the GL formula with the sampler's lod state from the sysvals
    # block (lowering/glsl/texture_emul.py query_lod): every profile.
    (Cap.TEXTURE_QUERY_LOD, _S, lambda e: 1),
    (Cap.TEXTURE_QUERY_SAMPLES, _S, lambda e: e.has("shader_texture_image_samples")),
    # Without derivative_control, plain dFdx / dFdy where the host's are fine (probed).
    (Cap.FS_FINE_DERIVATIVE, _S, lambda e: e.has("derivative_control") or e.fact("fine_plain_derivatives")),
    # Without GLSL 4.00 doubles, the soft doubles (lowering/glsl/soft_fp64.py) once every
    # double opcode has one (docs/lowering.md "Soft double precision").
    (Cap.DOUBLES, _S, lambda e: e.has("gpu_shader_fp64") or soft_fp64_complete()),
    # int64_t with GL_ARB_gpu_shader_int64, else GLSL 3.30 helpers on uvec2
    # (lowering/glsl/soft_int64.py): every host runs the 64-bit integer opcodes.
    (Cap.INT64, _S, lambda e: 1),
    (Cap.INT64_DIVMOD, _S, lambda e: 1),
    (Cap.SHADER_PACK_HALF_FLOAT, _S, lambda e: e.has("shading_language_packing")),
    (Cap.SHADER_CLOCK, _S, lambda e: e.has("shader_clock")),
    # Where readFirstInvocationARB / readInvocationARB crash the host compiler (host quirk
    # "subgroup_reads_crash", glpipe/host/quirks.py) the lowering builds READ_FIRST /
    # READ_INVOC from ballotARB bit by bit, so the extension is still delivered whole.
    (Cap.SHADER_BALLOT, _S, lambda e: e.has("shader_ballot")),
    (Cap.SHADER_GROUP_VOTE, _S, lambda e: e.has("shader_group_vote")),
    # Without gl_CullDistance each cull distance is a clip distance that clips away exactly
    # what it would cull (lowering/glsl/passes/cull.py; GL 3.0 guarantees the 8 slots).
    (Cap.CULL_DISTANCE, _S, lambda e: int(e.has("cull_distance") or e.lim("GL_MAX_CLIP_DISTANCES") >= 8)),
    # BASEINSTANCE is GL's base instance, kept with stride-0 buffers only through
    # vertex_attrib_binding; DRAWID is drawn by multi-draw indirect (glpipe/vertex.py, draw.py).
    (
        Cap.DRAW_PARAMETERS,
        _S,
        lambda e: (
            e.has("shader_draw_parameters")
            and e.has("base_instance")
            and e.has("vertex_attrib_binding")
            and e.has("multi_draw_indirect")
        ),
    ),
    (Cap.POST_DEPTH_COVERAGE, _S, lambda e: e.has("post_depth_coverage")),
    (Cap.FRAGMENT_SHADER_INTERLOCK, _S, lambda e: e.has("fragment_shader_interlock")),
    (Cap.DEMOTE_TO_HELPER_INVOCATION, _S, lambda e: e.has("demote_to_helper_invocation")),
    # ---- shaders + draw: sampling and variant passes -------------------------
    (Cap.TEXTURE_SHADOW_MAP, _SD, lambda e: 1),
    (Cap.NPOT_TEXTURES, _SD, lambda e: 1),
    (Cap.TEXTURE_SWIZZLE, _SD, lambda e: e.has("texture_swizzle")),
    (Cap.TEXTURE_FLOAT_LINEAR, _SD, lambda e: e.has("texture_float")),  # GL 3.0 filters float textures
    (Cap.TEXTURE_HALF_FLOAT_LINEAR, _SD, lambda e: e.has("texture_float")),
    (Cap.TEXTURE_BUFFER_OBJECTS, _SD, lambda e: e.has("texture_buffer_object")),
    (
        Cap.MAX_TEXEL_BUFFER_ELEMENTS_UINT,
        _SD,
        lambda e: e.lim("GL_MAX_TEXTURE_BUFFER_SIZE") if e.has("texture_buffer_object") else 0,
    ),
    # 0 = "buffer views cannot have an offset" (screen.rst) without texture_buffer_range.
    (
        Cap.TEXTURE_BUFFER_OFFSET_ALIGNMENT,
        _SD,
        lambda e: e.lim("GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT") if e.has("texture_buffer_range") else 0,
    ),
    (Cap.BUFFER_SAMPLER_VIEW_RGBA_ONLY, _SD, lambda e: 1),  # GL buffer textures: R/RG/RGB/RGBA, no swizzle
    # Mirror-clamp wraps are native only (no shader fallback): MIRROR_CLAMP and
    # MIRROR_CLAMP_TO_BORDER need EXT_texture_mirror_clamp (glpipe/samplers.py).
    (Cap.TEXTURE_MIRROR_CLAMP, _SD, lambda e: _sampler_feature(e, "texture_mirror_clamp")),
    (Cap.TEXTURE_MIRROR_CLAMP_TO_EDGE, _SD, lambda e: e.has("texture_mirror_clamp_to_edge")),
    # GL_CLAMP: NEAREST is CLAMP_TO_EDGE; LINEAR is CLAMP_TO_BORDER plus the
    # lowering's gl_clamp variant pass (coordinate clamped to [0, 1]); both
    # proven on pixels in tests/context/test_samplers.py on both profiles.
    (Cap.GL_CLAMP, _SD, lambda e: 1),
    (Cap.SEAMLESS_CUBE_MAP, _SD, lambda e: e.has("seamless_cube_map")),
    # Per sampler object with ARB_seamless_cubemap_per_texture; else one global switch.
    (Cap.SEAMLESS_CUBE_MAP_PER_TEXTURE, _SD, lambda e: _sampler_feature(e, "seamless_cubemap_per_texture")),
    (Cap.SAMPLER_REDUCTION_MINMAX, _SD, lambda e: e.has("texture_filter_minmax")),
    (Cap.ANISOTROPIC_FILTER, _SD, lambda e: e.has("texture_filter_anisotropic")),
    (Cap.SAMPLER_VIEW_TARGET, _SD, lambda e: e.has("texture_view")),
    (Cap.FRAGMENT_COLOR_CLAMPED, _SD, lambda e: 1),  # variant
    (Cap.VERTEX_COLOR_CLAMPED, _SD, lambda e: 1),  # variant
    (Cap.FLATSHADE, _SD, lambda e: 1),  # variant
    (Cap.ALPHA_TEST, _SD, lambda e: 1),  # variant
    (Cap.TWO_SIDED_COLOR, _SD, lambda e: 1),  # variant
    (Cap.POINT_SPRITE, _SD, lambda e: 1),  # sprite_coord_enable through the variant
    # 1 = PIPE_MAX_CLIP_PLANES; a host with fewer clip distances says how many.
    (
        Cap.CLIP_PLANES,
        _SD,
        lambda e: 1 if e.lim("GL_MAX_CLIP_DISTANCES") >= PIPE_MAX_CLIP_PLANES else e.lim("GL_MAX_CLIP_DISTANCES"),
    ),
    (Cap.VS_WINDOW_SPACE_POSITION, _SD, lambda e: 1),  # fixed host transform + sysvals (glpipe/viewport.py)
    # glClipControl, or without it the last vertex stage's z' = 2z - w (VariantKey.clip_halfz).
    (Cap.CLIP_HALFZ, _SD, lambda e: 1),
    (Cap.SAMPLE_SHADING, _SD, lambda e: e.has("sample_shading")),
    (Cap.FORCE_PERSAMPLE_INTERP, _SD, lambda e: e.has("sample_shading")),
    (Cap.MAX_WINDOW_RECTANGLES, _SD, lambda e: PIPE_MAX_WINDOW_RECTANGLES),  # variant
    (
        Cap.FBFETCH,
        _SD,
        lambda e: min(e.lim("GL_MAX_DRAW_BUFFERS"), PIPE_MAX_COLOR_BUFS) if e.has("shader_framebuffer_fetch") else 0,
    ),
    # ---- draw: fixed-function state and vertex fetch -------------------------
    (
        Cap.MAX_RENDER_TARGETS,
        _D,
        lambda e: min(e.lim("GL_MAX_DRAW_BUFFERS"), e.lim("GL_MAX_COLOR_ATTACHMENTS"), PIPE_MAX_COLOR_BUFS),
    ),
    (
        Cap.MAX_DUAL_SOURCE_RENDER_TARGETS,
        _D,
        lambda e: e.lim("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS") if e.has("blend_func_extended") else 0,
    ),
    (Cap.BLEND_EQUATION_SEPARATE, _D, lambda e: 1),
    (Cap.INDEP_BLEND_ENABLE, _D, lambda e: e.has("draw_buffers_indexed")),
    (Cap.INDEP_BLEND_FUNC, _D, lambda e: e.has("draw_buffers_blend")),
    (Cap.DITHERING, _D, lambda e: 1),  # GL_DITHER
    (Cap.MIXED_COLORBUFFER_FORMATS, _D, lambda e: 1),
    (Cap.MIXED_FRAMEBUFFER_SIZES, _D, lambda e: 1),
    (Cap.MIXED_COLOR_DEPTH_BITS, _D, lambda e: 1),
    # set_framebuffer_state makes such framebuffers, but a draw into one has no
    # visible result until occlusion queries (or shader buffers) exist to count
    # it: the proof, and so the cap, waits for the queries row.
    (Cap.FRAMEBUFFER_NO_ATTACHMENT, ("draw", "queries"), lambda e: e.has("framebuffer_no_attachments")),
    (Cap.TWO_SIDED_STENCIL, _D, lambda e: 1),
    (Cap.DEPTH_CLIP_DISABLE, _D, lambda e: e.has("depth_clamp")),
    (Cap.DEPTH_BOUNDS_TEST, _D, lambda e: e.has("depth_bounds_test")),
    (Cap.POLYGON_OFFSET_CLAMP, _D, lambda e: e.has("polygon_offset_clamp")),
    # FS variants add the units as a depth value (lowering/glsl/passes/depth.py).
    (Cap.POLYGON_OFFSET_UNITS_UNSCALED, _D, lambda e: 1),
    # GL_DEPTH_CLAMP plus the still-clipping plane as a clip distance (passes/depth.py).
    (Cap.DEPTH_CLIP_DISABLE_SEPARATE, _D, lambda e: e.has("depth_clamp")),
    (Cap.POINT_SIZE_FIXED, _D, lambda e: 1),
    (
        Cap.MAX_VIEWPORTS,
        _D,
        lambda e: min(e.lim("GL_MAX_VIEWPORTS"), PIPE_MAX_VIEWPORTS) if e.has("viewport_array") else 1,
    ),
    (Cap.VIEWPORT_SUBPIXEL_BITS, _D, lambda e: e.lim("GL_VIEWPORT_SUBPIXEL_BITS")),
    (Cap.RASTERIZER_SUBPIXEL_BITS, _D, lambda e: e.lim("GL_SUBPIXEL_BITS")),
    (Cap.PRIMITIVE_RESTART, _D, lambda e: e.has("primitive_restart")),
    (Cap.PRIMITIVE_RESTART_FIXED_INDEX, _D, lambda e: e.has("primitive_restart")),  # any index includes ~0
    (Cap.SUPPORTED_PRIM_MODES, _D, _prim_modes),
    (Cap.SUPPORTED_PRIM_MODES_WITH_RESTART, _D, lambda e: _prim_modes(e) & ~(1 << Prim.PATCHES)),
    (Cap.QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION, _D, lambda e: 1),  # the index translation keeps it
    (Cap.USER_VERTEX_BUFFERS, _D, lambda e: 1),
    (Cap.USER_CONSTANT_BUFFERS, _D, lambda e: 1),
    (Cap.CAN_BIND_CONST_BUFFER_AS_VERTEX, _D, lambda e: 1),  # GL buffers are untyped
    (Cap.VERTEX_ELEMENT_INSTANCE_DIVISOR, _D, lambda e: e.has("instanced_arrays")),
    (Cap.START_INSTANCE, _D, lambda e: 1),  # base_instance, else per-instance buffer offsets
    (Cap.MAX_VERTEX_BUFFERS, _D, lambda e: min(e.lim("GL_MAX_VERTEX_ATTRIBS"), PIPE_MAX_ATTRIBS)),
    (Cap.MAX_VERTEX_ATTRIB_STRIDE, _D, lambda e: e.lim("GL_MAX_VERTEX_ATTRIB_STRIDE") or 2048),
    (Cap.MAX_VERTEX_ELEMENT_SRC_OFFSET, _D, lambda e: 2047),  # GL's minimum relative offset
    (Cap.CLEAR_SCISSORED, ("clear",), lambda e: 1),
    # ---- transfers, fences, copies -------------------------------------------
    (Cap.MIN_MAP_BUFFER_ALIGNMENT, ("transfers",), lambda e: e.lim("GL_MIN_MAP_BUFFER_ALIGNMENT")),
    (Cap.INVALIDATE_BUFFER, ("transfers",), lambda e: 1),
    (Cap.BUFFER_MAP_PERSISTENT_COHERENT, ("transfers", "persistent_mapping"), lambda e: e.has("buffer_storage")),
    (Cap.GENERATE_MIPMAP, ("generate_mipmap",), lambda e: 1),
    (Cap.CLEAR_TEXTURE, ("clear_texture",), lambda e: 1),  # glClearTexImage, else the clear ladder
    # glCopyImageSubData, else the transfers move the blocks (fallback/registry.py).
    (Cap.COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS, ("blit",), lambda e: 1),
    (Cap.TEXTURE_BARRIER, ("barriers",), lambda e: e.has("texture_barrier")),
    (Cap.STRING_MARKER, ("debug",), lambda e: e.has("debug_output")),
    # glGetGraphicsResetStatus (GL 4.5 / KHR_robustness): get_device_reset_status.
    (Cap.DEVICE_RESET_STATUS_QUERY, ("fences",), lambda e: e.has("robustness")),
    # ---- queries --------------------------------------------------------------
    (Cap.OCCLUSION_QUERY, _Q, lambda e: 1),
    (Cap.QUERY_TIME_ELAPSED, _Q, lambda e: e.has("timer_query")),
    (Cap.QUERY_TIMESTAMP, _Q, lambda e: e.has("timer_query")),
    (Cap.QUERY_TIMESTAMP_BITS, _Q, lambda e: e.lim("GL_QUERY_COUNTER_BITS_TIMESTAMP")),
    (Cap.TIMER_RESOLUTION, _Q, lambda e: int(e.has("timer_query"))),  # GL counts in ns
    (Cap.QUERY_PIPELINE_STATISTICS, _Q, lambda e: e.has("pipeline_statistics_query")),
    (Cap.QUERY_PIPELINE_STATISTICS_SINGLE, _Q, lambda e: e.has("pipeline_statistics_query")),
    (Cap.QUERY_BUFFER_OBJECT, _Q, lambda e: e.has("query_buffer_object")),
    (Cap.CONDITIONAL_RENDER, _Q, lambda e: e.has("conditional_render")),
    # Native *_INVERTED modes on GL 4.5, else a CPU wait on the result
    # (glpipe/render_condition.py; fallback/registry.py "render_condition_inverted").
    (Cap.CONDITIONAL_RENDER_INVERTED, _Q, lambda e: e.has("conditional_render")),
    (Cap.PERFORMANCE_MONITOR, _Q, lambda e: len(DRIVER_QUERY_GROUPS) > 0),
    (Cap.QUERY_SO_OVERFLOW, ("queries", "stream_output"), lambda e: e.has("transform_feedback_overflow_query")),
    # ---- stream output, indirect draws, compute, shader resources ------------
    # Without transform_feedback3 GL 3.0's separate mode has SEPARATE_ATTRIBS buffers.
    (
        Cap.MAX_STREAM_OUTPUT_BUFFERS,
        _SO,
        lambda e: min(
            e.lim("GL_MAX_TRANSFORM_FEEDBACK_BUFFERS")
            if e.has(_XFB)
            else e.lim("GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS"),
            PIPE_MAX_SO_BUFFERS,
        ),
    ),
    # Without transform_feedback3 a buffer of several buffers holds one output
    # (GL 3.0's separate mode: glpipe/stream_output.py), so 4 components.
    (
        Cap.MAX_STREAM_OUTPUT_SEPARATE_COMPONENTS,
        _SO,
        lambda e: e.lim("GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS") if e.has(_XFB) else 4,
    ),
    (
        Cap.MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS,
        _SO,
        lambda e: e.lim("GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS"),
    ),
    # Appends (offset -1) resume at offsets glpipe tracks itself: every host.
    (Cap.STREAM_OUTPUT_PAUSE_RESUME, _SO, lambda e: 1),
    (Cap.STREAM_OUTPUT_INTERLEAVE_BUFFERS, _SO, lambda e: e.has(_XFB)),
    (Cap.MAX_VERTEX_STREAMS, _SO, lambda e: e.lim("GL_MAX_VERTEX_STREAMS") if e.has(_XFB) else 1),
    # Hosts without indirect draws read the commands (and the count) back and
    # draw them one by one (glpipe/draw_indirect.py): 1 everywhere.
    (Cap.DRAW_INDIRECT, ("draw_indirect",), lambda e: 1),
    (Cap.MULTI_DRAW_INDIRECT, ("draw_indirect",), lambda e: 1),
    (Cap.MULTI_DRAW_INDIRECT_PARTIAL_STRIDE, ("draw_indirect",), lambda e: 1),
    (Cap.MULTI_DRAW_INDIRECT_PARAMS, ("draw_indirect",), lambda e: 1),
    (Cap.COMPUTE, FACT, caps_shader.compute_available),  # rows: compute or compute_fallback (see caps_shader)
    (Cap.CS_DERIVED_SYSTEM_VALUES_SUPPORTED, FACT, caps_shader.compute_available),
    # Without host SSBOs the numpy executor's compute stage is the only one
    # with shader buffers (caps_shader.CS_FALLBACK_LIMITS): word-aligned ranges.
    (
        Cap.SHADER_BUFFER_OFFSET_ALIGNMENT,
        ("shader_buffers",),
        lambda e: _ssbo_limit(e, "GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT", "ssbo_alignment"),
    ),
    (
        Cap.MAX_SHADER_BUFFER_SIZE_UINT,
        ("shader_buffers",),
        lambda e: _ssbo_limit(e, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE", "ssbo_size"),
    ),
    (
        Cap.MAX_COMBINED_SHADER_BUFFERS,
        ("shader_buffers",),
        lambda e: _ssbo_limit(e, "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS", "ssbos"),
    ),
    (
        Cap.MAX_COMBINED_SHADER_OUTPUT_RESOURCES,
        ("shader_buffers",),
        lambda e: _ssbo_limit(e, "GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES", "ssbos"),
    ),
    # pipe_grid_info.last_block: launch_grid runs such grids through the
    # numpy executor on every profile (glpipe/compute.py).
    (Cap.COMPUTE_GRID_INFO_LAST_BLOCK, FACT, caps_shader.compute_available),
    (Cap.SHADER_ATOMIC_INT64, ("shader_buffers",), lambda e: e.has("shader_atomic_int64")),
    (
        Cap.MAX_COMBINED_HW_ATOMIC_COUNTERS,
        ("hw_atomics",),
        lambda e: e.lim("GL_MAX_COMBINED_ATOMIC_COUNTERS") if e.has("shader_atomic_counters") else 0,
    ),
    # An IMAGE declared without a format and only written becomes a GLSL
    # writeonly image without format qualifier (lowering/glsl/memory.py),
    # which GLSL 4.20's image load/store allows: the image unit's format
    # converts the stored value.  Loads need a qualifier (IMAGE_LOAD_FORMATTED 0).
    # Without host images (gl33) only the numpy executor's compute stage has
    # images, and it always converts through the bound view's format.
    (
        Cap.IMAGE_STORE_FORMATTED,
        ("shader_images",),
        lambda e: e.has("shader_image_load_store") or caps_shader.compute_available(e),
    ),
    # The slots of set_hw_atomic_buffers (one space for every stage): the
    # most atomic counter bindings any stage has in the binding convention.
    (Cap.MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS, ("hw_atomics",), caps_shader.hw_atomic_slots),
)

#: Caps whose rule would say yes on this host but which a test shows are not
#: (yet) true, or which no test proves yet: they answer 0 whatever the rows
#: say.  Each reason names what is missing; a strict-xfail test marks the
#: defect where there is one, so fixing it fails that test and prompts
#: removing the entry here (docs/caps.md "Withheld caps").
WITHHELD: MappingProxyType[Cap, str] = MappingProxyType({})

# COMPUTE and CS_DERIVED_SYSTEM_VALUES_SUPPORTED are gated by either of two
# rows, which the one-tuple-of-rows form cannot say; the test of gated caps
# reads this instead.
ANY_OF_ROWS = MappingProxyType(
    {
        Cap.COMPUTE: ("compute", "compute_fallback"),
        Cap.CS_DERIVED_SYSTEM_VALUES_SUPPORTED: ("compute", "compute_fallback"),
        Cap.COMPUTE_GRID_INFO_LAST_BLOCK: ("compute", "compute_fallback"),
    }
)

#: Caps no planned subsystem provides: 0 by decision.  Reason -> names.
NOT_OFFERED = MappingProxyType(
    {
        "no such pipe_screen / pipe_context entry point in glpipe": """
        RESOURCE_FROM_USER_MEMORY RESOURCE_FROM_USER_MEMORY_COMPUTE_ONLY
        QUERY_MEMORY_INFO MEMOBJ NATIVE_FENCE_FD TIMELINE_SEMAPHORE_IMPORT DMABUF
        DRAW_VERTEX_STATE FRONTEND_NOOP PROGRAMMABLE_SAMPLE_LOCATIONS SPARSE_BUFFER_PAGE_SIZE
        MAX_SPARSE_TEXTURE_SIZE MAX_SPARSE_3D_TEXTURE_SIZE MAX_SPARSE_ARRAY_TEXTURE_LAYERS
        SPARSE_TEXTURE_FULL_ARRAY_CUBE_MIPMAPS QUERY_SPARSE_TEXTURE_RESIDENCY CLAMP_SPARSE_TEXTURE_LOD
        BINDLESS_TEXTURE SURFACE_SAMPLE_COUNT CONTEXT_PRIORITY_MASK DEVICE_PROTECTED_SURFACE
        DEVICE_PROTECTED_CONTEXT SYSTEM_SVM HARDWARE_GL_SELECT
        LINEAR_IMAGE_PITCH_ALIGNMENT LINEAR_IMAGE_BASE_ADDRESS_ALIGNMENT PCI_GROUP PCI_BUS PCI_DEVICE
        PCI_FUNCTION""",
        "NIR / SPIR-V only: glpipe takes TGSI text": """
        NIR_SAMPLERS_AS_DEREF NIR_IMAGES_AS_DEREF NIR_ATOMICS_AS_DEREF NIR_COMPACT_ARRAYS
        CULL_DISTANCE_NOCOMBINE GLSL_TESS_LEVELS_AS_INPUTS VIEWPORT_TRANSFORM_LOWERED PSIZ_CLAMPED
        GL_SPIRV GL_SPIRV_VARIABLE_POINTERS PREFER_POT_ALIGNED_VARYINGS""",
        "frontend hints glpipe states no preference for (0 keeps the frontend's default path)": """
        TGSI_CAN_COMPACT_CONSTANTS GLSL_OPTIMIZE_CONSERVATIVELY TGSI_SKIP_SHRINK_IO_ARRAYS
        FS_POSITION_IS_SYSVAL FS_POINT_IS_SYSVAL FS_FACE_IS_INTEGER_SYSVAL TGSI_TG4_COMPONENT_IN_SWIZZLE
        PREFER_IMM_ARRAYS_AS_CONSTBUF PREFER_REAL_BUFFER_IN_CONSTBUF0 PREFER_BACK_BUFFER_REUSE
        PREFER_COMPUTE_FOR_MULTIMEDIA ALLOW_DYNAMIC_VAO_FASTPATH ALLOW_DRAW_OUT_OF_ORDER
        ALLOW_GLTHREAD_BUFFER_SUBDATA_OPT VALIDATE_ALL_DIRTY_STATES GLSL_ZERO_INIT THROTTLE
        MAX_TEXTURE_UPLOAD_MEMORY_BUDGET EMULATE_NONFIXED_PRIMITIVE_RESTART PACKED_STREAM_OUTPUT
        NO_CLIP_ON_COPY_TEX""",
        "limitation / quirk caps whose 0 means 'no such restriction' (glpipe has none to declare)": """
        VERTEX_BUFFER_OFFSET_4BYTE_ALIGNED_ONLY VERTEX_BUFFER_STRIDE_4BYTE_ALIGNED_ONLY
        VERTEX_ELEMENT_SRC_OFFSET_4BYTE_ALIGNED_ONLY VERTEX_ATTRIB_ELEMENT_ALIGNED_ONLY TGSI_TEXCOORD
        TEXTURE_BORDER_COLOR_QUIRK RGB_OVERRIDE_DST_ALPHA_BLEND VERTEXID_NOBASE TEXTURE_BUFFER_SAMPLER
        SIGNED_VERTEX_BUFFER_OFFSET FAKE_SW_MSAA ASTC_VOID_EXTENTS_NEED_DENORM_FLUSH""",
        "the host GL cannot do it and no glpipe fallback is planned": """
        DEPTH_CLAMP_ENABLE FENCE_SIGNAL
        POLYGON_MODE_FILL_RECTANGLE CONSERVATIVE_RASTER_POST_SNAP_TRIANGLES
        CONSERVATIVE_RASTER_POST_SNAP_POINTS_LINES CONSERVATIVE_RASTER_PRE_SNAP_TRIANGLES
        CONSERVATIVE_RASTER_PRE_SNAP_POINTS_LINES MAX_CONSERVATIVE_RASTER_SUBPIXEL_PRECISION_BIAS
        CONSERVATIVE_RASTER_POST_DEPTH_COVERAGE CONSERVATIVE_RASTER_INNER_COVERAGE TILE_RASTER_ORDER
        VIEWPORT_SWIZZLE VIEWPORT_MASK ALPHA_TO_COVERAGE_DITHER_CONTROL BLEND_EQUATION_ADVANCED
        FBFETCH_COHERENT FBFETCH_ZS IMAGE_ATOMIC_FLOAT_ADD ATOMIC_FLOAT_MINMAX IMAGE_ATOMIC_INC_WRAP
        COMPUTE_SHADER_DERIVATIVES SHADER_SAMPLES_IDENTICAL TEXTURE_SHADOW_LOD OPENCL_INTEGER_FUNCTIONS
        INTEGER_MULTIPLY_32X16 SURFACE_REINTERPRET_BLOCKS MULTISAMPLE_Z_RESOLVE
        IMAGE_LOAD_FORMATTED NULL_TEXTURES
        PRIMITIVE_RESTART_FOR_PATCHES ROBUST_BUFFER_ACCESS_BEHAVIOR MAP_UNSYNCHRONIZED_THREAD_SAFE
        HAS_CONST_BW""",
        "undecided: 0 until the issue that owns it implements and tests it": """
        DEST_SURFACE_SRGB_CONTROL SHADER_ARRAY_COMPONENTS
        SHADER_CAN_READ_OUTPUTS LEGACY_MATH_RULES LOAD_CONSTBUF ALLOW_MAPPED_BUFFERS_DURING_EXECUTION
        SAMPLER_REDUCTION_MINMAX_ARB""",
    }
)


def _build_param_rules() -> MappingProxyType:
    rules = {}
    for cap, rows, expr in _PARAM_ROWS:
        if cap in rules:
            raise AssertionError(f"caps: {cap.name} has two rules")
        unknown = set(rows) - set(ROWS)
        if unknown:
            raise AssertionError(f"caps: {cap.name} names unknown rows {sorted(unknown)}")
        rules[cap] = (tuple(rows), expr)
    return MappingProxyType(rules)


#: cap -> (DELIVERED rows it needs, expression over a CapsEnv).
PARAM_RULES = _build_param_rules()

#: Every cap NOT_OFFERED lists.
NOT_OFFERED_CAPS = frozenset(Cap[name] for names in NOT_OFFERED.values() for name in names.split())


# --------------------------------------------------------------------------
# PIPE_CAPF_*: rasterization and sampling limits, gated by draw.
# --------------------------------------------------------------------------


def _range(e: CapsEnv, name: str, i: int) -> float:
    return float(e.lim(name)[i])


PARAMF_RULES = MappingProxyType(
    {
        CapF.MIN_LINE_WIDTH: (_D, lambda e: _range(e, "GL_ALIASED_LINE_WIDTH_RANGE", 0)),
        CapF.MAX_LINE_WIDTH: (_D, lambda e: _range(e, "GL_ALIASED_LINE_WIDTH_RANGE", 1)),
        CapF.MIN_LINE_WIDTH_AA: (_D, lambda e: _range(e, "GL_SMOOTH_LINE_WIDTH_RANGE", 0)),
        CapF.MAX_LINE_WIDTH_AA: (_D, lambda e: _range(e, "GL_SMOOTH_LINE_WIDTH_RANGE", 1)),
        CapF.LINE_WIDTH_GRANULARITY: (_D, lambda e: float(e.lim("GL_SMOOTH_LINE_WIDTH_GRANULARITY"))),
        CapF.MIN_POINT_SIZE: (_D, lambda e: _range(e, "GL_POINT_SIZE_RANGE", 0)),
        CapF.MAX_POINT_SIZE: (_D, lambda e: _range(e, "GL_POINT_SIZE_RANGE", 1)),
        # point_smooth: an FS variant over the host's square points (passes.fragment.point_coverage).
        CapF.MIN_POINT_SIZE_AA: (_D, lambda e: _range(e, "GL_POINT_SIZE_RANGE", 0)),
        CapF.MAX_POINT_SIZE_AA: (_D, lambda e: _range(e, "GL_POINT_SIZE_RANGE", 1)),
        CapF.POINT_SIZE_GRANULARITY: (_D, lambda e: float(e.lim("GL_POINT_SIZE_GRANULARITY"))),
        CapF.MAX_TEXTURE_ANISOTROPY: (
            _D,
            lambda e: float(e.lim("GL_MAX_TEXTURE_MAX_ANISOTROPY")) if e.has("texture_filter_anisotropic") else 0.0,
        ),
        CapF.MAX_TEXTURE_LOD_BIAS: (_D, lambda e: float(e.lim("GL_MAX_TEXTURE_LOD_BIAS"))),
        # No conservative rasterization; guard bands (retired) are not known.
        CapF.MIN_CONSERVATIVE_RASTER_DILATE: (FACT, lambda e: 0.0),
        CapF.MAX_CONSERVATIVE_RASTER_DILATE: (FACT, lambda e: 0.0),
        CapF.CONSERVATIVE_RASTER_DILATE_GRANULARITY: (FACT, lambda e: 0.0),
        CapF.GUARD_BAND_LEFT: (FACT, lambda e: 0.0),
        CapF.GUARD_BAND_TOP: (FACT, lambda e: 0.0),
        CapF.GUARD_BAND_RIGHT: (FACT, lambda e: 0.0),
        CapF.GUARD_BAND_BOTTOM: (FACT, lambda e: 0.0),
    }
)


# --------------------------------------------------------------------------
# ScreenCaps: everything computed once
# --------------------------------------------------------------------------


def _evaluate(rules, env: CapsEnv, zero, convert) -> dict:
    out = {}
    for cap, (rows, expr) in rules.items():
        out[cap] = convert(expr(env)) if env.d(*rows) else zero
    return out


class ScreenCaps:
    """Every cap of one screen, computed at creation; lookups are dict reads,
    safe from any thread.

    ``param[Cap]`` (int), ``paramf[CapF]`` (float), ``shader[ShaderType]
    [ShaderCap]`` (int), ``compute_param(ir, ComputeCap)``.  ``bindings`` is
    the BindingLayout the shader caps come from (the context binds by it).
    ``delivered`` defaults to DELIVERED; tests pass another table to check
    what a row's flip will answer.  ``bindings`` is the screen's layout when
    it has one (so caps and context share one object); by default it is
    built from the profile the same way.
    """

    def __init__(self, host, format_support, delivered=None, bindings: BindingLayout | None = None):
        env = CapsEnv(host, format_support, DELIVERED if delivered is None else delivered)
        self.env = env
        self.delivered = env.delivered
        self.bindings: BindingLayout = binding_layout(env) if bindings is None else bindings
        self.shader = shader_caps(env, self.bindings)
        self._compute_tgsi = compute_caps(env, self.shader)
        self._compute_other = compute_caps_for_other_ir()

        param = dict.fromkeys(Cap, 0)  # defaults first: nothing claimed
        param.update(_evaluate(PARAM_RULES, env, 0, int))
        param.update(dict.fromkeys(WITHHELD, 0))
        self.param = MappingProxyType(param)
        paramf = dict.fromkeys(CapF, 0.0)
        paramf.update(_evaluate(PARAMF_RULES, env, 0.0, float))
        self.paramf = MappingProxyType(paramf)

    def compute_param(self, ir_type: ShaderIR, cap: ComputeCap) -> int | tuple[int, ...] | str:
        """PIPE_COMPUTE_CAP ``cap`` for programs in ``ir_type``.

        TGSI (the IR glpipe takes) gets the real answer; any other IR gets
        zeros and an empty IR_TARGET, because no program in it can run.
        """
        table = self._compute_tgsi if ir_type == ShaderIR.TGSI else self._compute_other
        return table[cap]

    def stage_available(self, stage: ShaderType) -> bool:
        """Whether shaders of ``stage`` run (MAX_INSTRUCTIONS > 0)."""
        return self.shader[stage][ShaderCap.MAX_INSTRUCTIONS] > 0


__all__ = [
    "ANY_OF_ROWS",
    "DELIVERED",
    "FACT",
    "GLSL_LEVELS",
    "NOT_OFFERED",
    "NOT_OFFERED_CAPS",
    "PARAMF_RULES",
    "PARAM_RULES",
    "ROWS",
    "WITHHELD",
    "CapsEnv",
    "ScreenCaps",
    "glsl_feature_level",
]
