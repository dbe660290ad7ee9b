"""Which GLSL version or extension grants each shader feature the emitter uses.

One row per feature: the first core GLSL version that has it (None when no
core version does) and the extensions that also grant it, in order of
preference.  The emitter never tests ``glsl_version`` directly; it asks
``Requirements.need(feature, opcode)``, which either returns (recording the
``#extension`` to enable) or raises ``UnsupportedError`` naming the opcode
and what the host lacks, e.g. "DADD needs GLSL 400 or GL_ARB_gpu_shader_fp64".
That is what keeps the promise "never emit GLSL that fails to compile".

``HOST_FACTS`` lists behaviours of the host that no version or extension
names, measured by glpipe (``glpipe.host.facts``) and handed to the lowering
as names (``to_glsl(host_facts=...)``); ``Requirements.fact(name)`` asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import UnsupportedError


@dataclass(frozen=True)
class GLSLFeature:
    """A shading-language feature: core since ``core`` or any of ``extensions``."""

    name: str
    core: int | None
    extensions: tuple[str, ...] = ()
    doc: str = ""


def _table(*rows) -> dict[str, GLSLFeature]:
    out: dict[str, GLSLFeature] = {}
    for name, core, exts, doc in rows:
        assert name not in out, name
        out[name] = GLSLFeature(name, core, tuple(exts), doc)
    return out


FEATURES: dict[str, GLSLFeature] = _table(
    ("binding_qualifier", 420, (), "layout(binding = n) on blocks and samplers"),
    ("fp64", 400, ("GL_ARB_gpu_shader_fp64",), "double, dvec*, packDouble2x32"),
    ("int64", None, ("GL_ARB_gpu_shader_int64",), "int64_t, uint64_t"),
    (
        "gpu_shader5",
        400,
        ("GL_ARB_gpu_shader5",),
        "bitfield*, findLSB/MSB, bitCount, *mulExtended, fma, frexp/ldexp, precise",
    ),
    (
        "dynamic_resource_index",
        400,
        ("GL_ARB_gpu_shader5",),
        "sampler (and image / buffer block) arrays indexed by dynamically uniform expressions",
    ),
    ("texture_gather", 400, ("GL_ARB_texture_gather",), "textureGather"),
    (
        "gather_extended",
        400,
        ("GL_ARB_gpu_shader5",),
        "textureGather component select, shadow compare, non-constant offsets",
    ),
    ("texture_query_lod", 400, ("GL_ARB_texture_query_lod",), "textureQueryLod"),
    ("texture_cube_map_array", 400, ("GL_ARB_texture_cube_map_array",), "samplerCubeArray"),
    ("tessellation", 400, ("GL_ARB_tessellation_shader",), "TCS / TES stages"),
    ("sample_shading", 400, ("GL_ARB_sample_shading",), "gl_SampleID, gl_SamplePosition, gl_SampleMaskIn"),
    ("interpolate_at", 400, ("GL_ARB_gpu_shader5",), "interpolateAt*"),
    ("sample_qualifier", 400, ("GL_ARB_gpu_shader5",), "the 'sample' interpolation qualifier"),
    ("gs_invocations", 400, ("GL_ARB_gpu_shader5",), "layout(invocations = n)"),
    ("gs_streams", 400, ("GL_ARB_gpu_shader5",), "EmitStreamVertex, layout(stream = n)"),
    ("precise", 400, ("GL_ARB_gpu_shader5",), "the 'precise' qualifier"),
    ("packing_half", 420, ("GL_ARB_shading_language_packing",), "packHalf2x16 / unpackHalf2x16"),
    ("viewport_array", 410, ("GL_ARB_viewport_array",), "gl_ViewportIndex in GS"),
    (
        "vs_layer_viewport",
        None,
        ("GL_ARB_shader_viewport_layer_array",),
        "gl_Layer / gl_ViewportIndex written by VS or TES",
    ),
    ("fs_layer_viewport", 430, ("GL_ARB_fragment_layer_viewport",), "gl_Layer / gl_ViewportIndex read by FS"),
    ("image_load_store", 420, ("GL_ARB_shader_image_load_store",), "image*, memoryBarrier"),
    ("early_fragment_tests", 420, ("GL_ARB_shader_image_load_store",), "layout(early_fragment_tests)"),
    ("atomic_counters", 420, ("GL_ARB_shader_atomic_counters",), "atomic_uint"),
    (
        "atomic_counter_ops",
        460,
        ("GL_ARB_shader_atomic_counter_ops",),
        "atomicCounterAdd/Min/Max/And/Or/Xor/Exchange/CompSwap",
    ),
    ("conservative_depth", 420, ("GL_ARB_conservative_depth",), "layout(depth_*) out float gl_FragDepth"),
    ("ssbo", 430, ("GL_ARB_shader_storage_buffer_object",), "buffer blocks, atomic*() on buffer memory"),
    (
        "compute_variable_group_size",
        None,
        ("GL_ARB_compute_variable_group_size",),
        "layout(local_size_variable), gl_LocalGroupSizeARB",
    ),
    ("compute", 430, ("GL_ARB_compute_shader",), "compute shaders, shared memory"),
    ("texture_query_levels", 430, ("GL_ARB_texture_query_levels",), "textureQueryLevels"),
    ("image_size", 430, ("GL_ARB_shader_image_size",), "imageSize"),
    (
        "memory_barrier_kinds",
        430,
        ("GL_ARB_compute_shader",),
        "memoryBarrierBuffer/Image/Shared/AtomicCounter, groupMemoryBarrier",
    ),
    ("derivative_control", 450, ("GL_ARB_derivative_control",), "dFdxFine / dFdxCoarse"),
    ("texture_image_samples", 450, ("GL_ARB_shader_texture_image_samples",), "textureSamples / imageSamples"),
    ("cull_distance", 450, ("GL_ARB_cull_distance",), "gl_CullDistance"),
    ("helper_invocation", 450, ("GL_ARB_ES3_1_compatibility",), "gl_HelperInvocation"),
    ("integer_mix", 450, ("GL_EXT_shader_integer_mix",), "mix() with a bvec on int/uint/bool"),
    ("group_vote", 460, ("GL_ARB_shader_group_vote",), "anyInvocation / allInvocations / allInvocationsEqual"),
    ("draw_parameters", 460, ("GL_ARB_shader_draw_parameters",), "gl_BaseVertex, gl_BaseInstance, gl_DrawID"),
    ("ballot", None, ("GL_ARB_shader_ballot",), "ballotARB, readInvocationARB, gl_SubGroup*ARB"),
    ("shader_clock", None, ("GL_ARB_shader_clock",), "clock2x32ARB"),
    ("stencil_export", None, ("GL_ARB_shader_stencil_export",), "gl_FragStencilRefARB"),
    ("post_depth_coverage", None, ("GL_ARB_post_depth_coverage",), "layout(post_depth_coverage)"),
    ("framebuffer_fetch", None, ("GL_EXT_shader_framebuffer_fetch",), "inout fragment outputs"),
    ("demote", None, ("GL_EXT_demote_to_helper_invocation",), "demote, helperInvocationEXT()"),
    (
        "shadow_lod",
        None,
        ("GL_EXT_texture_shadow_lod",),
        "textureLod / texture(bias) on samplerCubeShadow, sampler2DArrayShadow, samplerCubeArrayShadow",
    ),
    ("atomic_float", None, ("GL_NV_shader_atomic_float",), "atomicAdd on float memory"),
    ("viewport_array2", None, ("GL_NV_viewport_array2",), "gl_ViewportMask"),
)

# Host behaviours the lowering may rely on when the caller says they hold
# (glpipe probes them with a draw: glpipe/host/facts.py): name -> what it allows.
HOST_FACTS: dict[str, str] = {
    "fine_plain_derivatives": "plain dFdx / dFdy are fine (per pixel pair) derivatives: "
    "DDX_FINE / DDY_FINE without derivative_control",
    # A host quirk (glpipe/host/quirks.py), not a capability: the lowering works around it.
    "subgroup_reads_crash": "readFirstInvocationARB / readInvocationARB abort the host's shader compiler: "
    "READ_FIRST / READ_INVOC are read bit by bit through ballotARB, VOTE_EQ votes bit by bit",
    "indexed_sampler_array_crash": "a uniform-indexed sampler array sampled beside another target "
    "kills the host at draw: indexed SAMP / SVIEW lookups are a switch over the declared units",
    "mul_extended_crash": "umulExtended / imulExtended of a select by 1 or -1 kill the host at draw in "
    "geometry and tessellation stages: IMUL_HI / UMUL_HI use the 16-bit partial-product helpers",
    "llvmpipe_avx2_gather": "llvmpipe's AVX2 gathers can kill the host at draw: avoided by a driver setting "
    "made before the driver loads (glpipe/host/preload.py); the GLSL does not change",
    "smooth_line_crash": "the host's GL_LINE_SMOOTH lines can kill the host at draw: glpipe draws antialiased "
    "lines itself (VariantKey.line_smooth, passes/smooth_line.py); nothing else in the GLSL changes",
}

# Extensions whose '#extension' directive must say 'enable' rather than
# 'require' is none in practice; keep the directive uniform.
_DIRECTIVE = "require"


class Requirements:
    """The GLSL version and extensions a shader is emitted against.

    ``need(feature, what)`` is called by the emitter at every use of a
    feature; it records the extension to enable, or raises UnsupportedError.
    """

    def __init__(self, glsl_version: int, extensions: Iterable[str] = (), facts: Iterable[str] = ()):
        self.glsl_version = int(glsl_version)
        self.available: frozenset[str] = frozenset(extensions)
        self.facts: frozenset[str] = frozenset(facts)
        unknown = self.facts - set(HOST_FACTS)
        if unknown:
            raise KeyError(f"unknown host facts {sorted(unknown)}; known: {sorted(HOST_FACTS)}")
        self.enabled: list[str] = []

    def fact(self, name: str) -> bool:
        """Whether host fact ``name`` (a key of ``HOST_FACTS``) was reported as holding."""
        if name not in HOST_FACTS:
            raise KeyError(name)
        return name in self.facts

    def has(self, feature: str) -> bool:
        """True when ``feature`` is usable (core or via an available extension); records nothing."""
        row = FEATURES[feature]
        if row.core is not None and self.glsl_version >= row.core:
            return True
        return any(ext in self.available for ext in row.extensions)

    def need(self, feature: str, what: str) -> None:
        """Make ``feature`` usable for ``what`` (an opcode or construct name) or raise."""
        row = FEATURES[feature]
        if row.core is not None and self.glsl_version >= row.core:
            return
        for ext in row.extensions:
            if ext in self.available:
                if ext not in self.enabled:
                    self.enabled.append(ext)
                return
        raise UnsupportedError(f"{what} needs {self.describe(feature)}")

    def core(self, feature: str) -> bool:
        """True when ``feature`` is core at this version (no extension involved)."""
        row = FEATURES[feature]
        return row.core is not None and self.glsl_version >= row.core

    @staticmethod
    def describe(feature: str) -> str:
        """``GLSL 400 or GL_ARB_gpu_shader_fp64`` (what would grant ``feature``)."""
        row = FEATURES[feature]
        options = []
        if row.core is not None:
            options.append(f"GLSL {row.core}")
        options.extend(row.extensions)
        return " or ".join(options) if options else row.doc

    def directives(self) -> list[str]:
        """The ``#extension`` lines, in first-use order."""
        return [f"#extension {ext} : {_DIRECTIVE}" for ext in self.enabled]


__all__ = ["GLSLFeature", "FEATURES", "HOST_FACTS", "Requirements"]
