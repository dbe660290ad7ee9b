"""Per-stage and compute capabilities: ``PIPE_SHADER_CAP_*`` for every stage and
``PIPE_COMPUTE_CAP_*``, one expression per cap over a ``CapsEnv``.

docs/caps.md "Shader caps" explains stage availability, the slot counts of the
binding convention, the sysvals UBO and ModernGL's scratch texture unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from lowering.bindings import BindingLayout, HostLimits
from lowering.glsl.wide import soft_fp64_complete
from lowering.limits import limits_for

from .enums import (
    PIPE_MAX_ATTRIBS,
    PIPE_MAX_CONSTANT_BUFFERS,
    PIPE_MAX_HW_ATOMIC_BUFFERS,
    PIPE_MAX_SAMPLERS,
    PIPE_MAX_SHADER_BUFFERS,
    PIPE_MAX_SHADER_IMAGES,
    PIPE_MAX_SHADER_INPUTS,
    PIPE_MAX_SHADER_OUTPUTS,
    ComputeCap,
    ShaderCap,
    ShaderIR,
    ShaderType,
)

#: One UBO per stage is glpipe's own "sysvals" block.
SYSVALS_UBOS = 1


@dataclass(frozen=True)
class StageInfo:
    """What a stage needs from the host: the GL name infix of its limits,
    the feature granting it, and its input/output limits (name, divisor)."""

    gl: str
    feature: str | None
    inputs: tuple | None
    outputs: tuple | None
    texture_units: str


# One row per stage; limits in components are divided by 4 to give vec4
# registers (TGSI registers are vec4).  The fragment stage's texture units
# are GL_MAX_TEXTURE_IMAGE_UNITS (GL has no FRAGMENT spelling), and its
# "outputs" are colour outputs (screen.rst: MAX_OUTPUTS is not meaningful
# for FS; the draw buffers are what it can write).
STAGES = MappingProxyType(
    {
        ShaderType.VERTEX: StageInfo(
            "VERTEX",
            None,
            ("GL_MAX_VERTEX_ATTRIBS", 1),
            ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", 4),
            "GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS",
        ),
        ShaderType.TESS_CTRL: StageInfo(
            "TESS_CONTROL",
            "tessellation_shader",
            ("GL_MAX_TESS_CONTROL_INPUT_COMPONENTS", 4),
            ("GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS", 4),
            "GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS",
        ),
        ShaderType.TESS_EVAL: StageInfo(
            "TESS_EVALUATION",
            "tessellation_shader",
            ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", 4),
            ("GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS", 4),
            "GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS",
        ),
        ShaderType.GEOMETRY: StageInfo(
            "GEOMETRY",
            "geometry_shader",
            ("GL_MAX_GEOMETRY_INPUT_COMPONENTS", 4),
            ("GL_MAX_GEOMETRY_OUTPUT_COMPONENTS", 4),
            "GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS",
        ),
        ShaderType.FRAGMENT: StageInfo(
            "FRAGMENT",
            None,
            ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", 4),
            ("GL_MAX_DRAW_BUFFERS", 1),
            "GL_MAX_TEXTURE_IMAGE_UNITS",
        ),
        ShaderType.COMPUTE: StageInfo("COMPUTE", "compute_shader", None, None, "GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS"),
    }
)

#: What the numpy TGSI executor (DELIVERED["compute_fallback"], for hosts
#: without compute shaders; fallback/tgsi_exec) promises: GL 4.3's minimum
#: compute limits (tests/context/test_compute_caps.py runs a block and shared
#: memory of these sizes through it).
CS_FALLBACK_LIMITS = MappingProxyType(
    {
        "ubos": 14,
        "ssbos": 8,
        "ssbo_alignment": 4,  # word-aligned ranges (the executor's buffers are uint32 words)
        "ssbo_size": 1 << 27,  # GL 4.3's minimum GL_MAX_SHADER_STORAGE_BLOCK_SIZE
        "ubo_size": 16384,
        "shared": 32768,
        "invocations": 1024,
        "grid": (65535, 65535, 65535),
        "block": (1024, 1024, 64),
        # Sampler views / samplers and images (GL 4.3's minimum
        # MAX_COMPUTE_TEXTURE_IMAGE_UNITS and MAX_COMPUTE_IMAGE_UNIFORMS):
        # texel fetches, size queries and image LOAD / STORE / ATOM* / RESQ
        # (fallback/tgsi_exec/texture.py, images.py).
        "textures": 16,
        "images": 8,
    }
)


# --------------------------------------------------------------------------
# Slot counts from the shared binding convention
# --------------------------------------------------------------------------

#: ShaderType -> the stage name lowering.bindings uses.
LOWERING_STAGE = MappingProxyType(
    {
        ShaderType.VERTEX: "VERT",
        ShaderType.TESS_CTRL: "TESS_CTRL",
        ShaderType.TESS_EVAL: "TESS_EVAL",
        ShaderType.GEOMETRY: "GEOM",
        ShaderType.FRAGMENT: "FRAG",
        ShaderType.COMPUTE: "COMP",
    }
)


def host_stages(env) -> tuple:
    """The stages the host profile has (whether or not glpipe runs them yet)."""
    return tuple(s for s, info in STAGES.items() if info.feature is None or env.has(info.feature))


def binding_layout(env) -> BindingLayout:
    """lowering's BindingLayout for the graphics stages this host profile has."""
    graphics = tuple(LOWERING_STAGE[s] for s in host_stages(env) if s != ShaderType.COMPUTE)
    return BindingLayout.for_limits(HostLimits.from_gl(env.profile.limits, graphics), graphics)


@dataclass(frozen=True)
class StageSlots:
    """How many Gallium slots of each kind a stage exposes (the caps' view
    of the layout): constant buffers (sysvals excluded), sampler / view
    slots, shader buffers, images, atomic counter buffers."""

    constant_buffers: int
    textures: int
    shader_buffers: int
    images: int
    atomic_buffers: int


def stage_slots(env, layout: BindingLayout, stage: ShaderType) -> StageSlots:
    """The layout's ranges for ``stage``, each clamped to the stage's own GL
    limit and Gallium's maximum, and textures cut below the scratch unit."""
    info = STAGES[stage]
    name = LOWERING_STAGE[stage]
    if name not in layout.stages:
        return StageSlots(0, 0, 0, 0, 0)
    s = layout.stages[name]

    def own(fmt: str) -> int:
        return int(env.lim(fmt.format(info.gl)))

    textures = min(s.tex_count, int(env.lim(info.texture_units)), PIPE_MAX_SAMPLERS)
    scratch = env.scratch_texture_unit
    if s.tex_base <= scratch < s.tex_base + textures:
        textures = scratch - s.tex_base
    return StageSlots(
        constant_buffers=max(
            0, min(s.ubo_count, own("GL_MAX_{}_UNIFORM_BLOCKS") - SYSVALS_UBOS, PIPE_MAX_CONSTANT_BUFFERS)
        ),
        textures=max(0, textures),
        shader_buffers=min(s.ssbo_count, own("GL_MAX_{}_SHADER_STORAGE_BLOCKS"), PIPE_MAX_SHADER_BUFFERS),
        images=min(s.image_count, own("GL_MAX_{}_IMAGE_UNIFORMS"), PIPE_MAX_SHADER_IMAGES),
        atomic_buffers=min(s.atomic_count, own("GL_MAX_{}_ATOMIC_COUNTER_BUFFERS"), PIPE_MAX_HW_ATOMIC_BUFFERS),
    )


#: What the numpy executor's compute stage exposes (CS_FALLBACK_LIMITS).
_FALLBACK_SLOTS = StageSlots(
    CS_FALLBACK_LIMITS["ubos"] - SYSVALS_UBOS,
    CS_FALLBACK_LIMITS["textures"],
    CS_FALLBACK_LIMITS["ssbos"],
    CS_FALLBACK_LIMITS["images"],
    0,  # no HWATOMIC file (st/mesa lowers atomic counters to shader buffers)
)


# --------------------------------------------------------------------------
# Stage availability and per-stage caps
# --------------------------------------------------------------------------


def compute_runs_on_host(env) -> bool:
    """Compute programs run on the host GL's compute shaders."""
    return env.d("compute") and env.has("compute_shader")


def hw_atomic_slots(env) -> int:
    """PIPE_CAP_MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS: the slots of
    set_hw_atomic_buffers, shared by every stage (slot b is each stage's
    HWATOMIC[b]), so the most atomic counter bindings one stage has."""
    if not env.has("shader_atomic_counters"):
        return 0
    layout = binding_layout(env)
    stages = [s for s in host_stages(env) if s != ShaderType.COMPUTE or compute_runs_on_host(env)]
    return max((stage_slots(env, layout, s).atomic_buffers for s in stages), default=0)


def compute_available(env) -> bool:
    """launch_grid works: on the host's compute shaders or the numpy executor."""
    return compute_runs_on_host(env) or env.d("compute_fallback")


def stage_available(env, stage: ShaderType) -> bool:
    """Whether glpipe runs shaders of ``stage`` now (DELIVERED and host)."""
    if stage == ShaderType.COMPUTE:
        return compute_available(env)
    info = STAGES[stage]
    return env.d("shaders") and (info.feature is None or env.has(info.feature))


def _io(env, spec, cap: int) -> int:
    if spec is None:
        return 0  # compute has system values only
    name, divisor = spec
    return min(env.lim(name) // divisor, cap)


def _stage_caps(env, stage: ShaderType, layout: BindingLayout) -> dict:
    """Every ShaderCap of an available stage: one expression each."""
    info = STAGES[stage]
    cs_fallback = stage == ShaderType.COMPUTE and not compute_runs_on_host(env)
    fb = CS_FALLBACK_LIMITS
    slots = _FALLBACK_SLOTS if cs_fallback else stage_slots(env, layout, stage)
    textures, cbufs = slots.textures, slots.constant_buffers
    ssbos, images, atomic_bufs = slots.shader_buffers, slots.images, slots.atomic_buffers
    # The numpy executor (fallback/tgsi_exec) fetches texels and queries
    # sizes of sampler views and runs image LOAD / STORE / ATOM* / RESQ; it
    # has no HWATOMIC file, and filtered sampling (TEX / SAMPLE ...) is
    # refused at create_compute_state (docs/compute.md "The executor").
    atomic_counters = 0 if cs_fallback else env.lim(f"GL_MAX_{info.gl}_ATOMIC_COUNTERS")
    hw_atomics = env.d("hw_atomics") and env.has("shader_atomic_counters")
    images = images if cs_fallback or env.has("shader_image_load_store") else 0
    fp64 = env.has("gpu_shader_fp64") or soft_fp64_complete()  # as Cap.DOUBLES (caps.py)
    sm5 = env.has("gpu_shader5")
    size = limits_for(env.profile.name)
    return {
        # GLSL states no instruction / temporary / nesting limit, but the host's compiler
        # takes minutes or exhausts memory past these, measured per profile
        # (lowering/limits.py; docs/caps.md "Shader size limits").  create_*_state enforces them.
        ShaderCap.MAX_INSTRUCTIONS: size.max_instructions,
        ShaderCap.MAX_ALU_INSTRUCTIONS: size.max_instructions,
        ShaderCap.MAX_TEX_INSTRUCTIONS: size.max_instructions,
        ShaderCap.MAX_TEX_INDIRECTIONS: size.max_instructions,
        ShaderCap.MAX_CONTROL_FLOW_DEPTH: size.max_control_flow_depth,
        ShaderCap.MAX_TEMPS: size.max_temps,
        # vec4 registers: VS inputs are attributes, the rest components / 4.
        ShaderCap.MAX_INPUTS: _io(
            env, info.inputs, PIPE_MAX_ATTRIBS if stage == ShaderType.VERTEX else PIPE_MAX_SHADER_INPUTS
        ),
        ShaderCap.MAX_OUTPUTS: _io(env, info.outputs, PIPE_MAX_SHADER_OUTPUTS),
        # Constant buffer 0 is a UBO like the others (std140 vec4 array).
        ShaderCap.MAX_CONST_BUFFER0_SIZE: fb["ubo_size"] if cs_fallback else env.lim("GL_MAX_UNIFORM_BLOCK_SIZE"),
        ShaderCap.MAX_CONST_BUFFERS: cbufs,
        ShaderCap.CONT_SUPPORTED: 1,
        ShaderCap.INDIRECT_INPUT_ADDR: int(info.inputs is not None),
        # GLSL indexes fragment outputs with constants only; compute has none.
        ShaderCap.INDIRECT_OUTPUT_ADDR: int(info.outputs is not None and stage != ShaderType.FRAGMENT),
        ShaderCap.INDIRECT_TEMP_ADDR: 1,
        ShaderCap.INDIRECT_CONST_ADDR: 1,
        ShaderCap.SUBROUTINES: 1,
        ShaderCap.INTEGERS: 1,  # GLSL >= 1.30 everywhere glpipe runs
        ShaderCap.INT64_ATOMICS: int(env.d("shader_buffers") and env.has("shader_atomic_int64")),
        # Core GLSL has no 16-bit types; the lowering emits none.
        ShaderCap.FP16: 0,
        ShaderCap.FP16_DERIVATIVES: 0,
        ShaderCap.FP16_CONST_BUFFERS: 0,
        ShaderCap.INT16: 0,
        ShaderCap.GLSL_16BIT_CONSTS: 0,
        # One GL texture unit per Gallium sampler/view slot.
        ShaderCap.MAX_TEXTURE_SAMPLERS: textures,
        ShaderCap.MAX_SAMPLER_VIEWS: textures,
        ShaderCap.TGSI_SQRT_SUPPORTED: 1,
        ShaderCap.TGSI_ANY_INOUT_DECL_RANGE: 1,
        ShaderCap.MAX_SHADER_BUFFERS: ssbos if env.d("shader_buffers") else 0,
        ShaderCap.SUPPORTED_IRS: 1 << ShaderIR.TGSI,
        ShaderCap.MAX_SHADER_IMAGES: images if env.d("shader_images") else 0,
        ShaderCap.MAX_HW_ATOMIC_COUNTERS: atomic_counters if hw_atomics else 0,
        ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS: atomic_bufs if hw_atomics else 0,
        # Retired (spec/older): tuning hints glpipe has none for, and opcode
        # support that follows the GLSL the host compiles.
        ShaderCap.LOWER_IF_THRESHOLD: 0,
        ShaderCap.MAX_UNROLL_ITERATIONS_HINT: 0,
        ShaderCap.PREFERRED_IR: ShaderIR.TGSI,
        ShaderCap.TGSI_DFRACEXP_DLDEXP_SUPPORTED: int(fp64),  # frexp/ldexp on double: GLSL 4.00
        ShaderCap.TGSI_DROUND_SUPPORTED: int(fp64),
        ShaderCap.TGSI_FMA_SUPPORTED: int(sm5),  # fma(): a*b+c would round twice
        ShaderCap.TGSI_LDEXP_SUPPORTED: 1,  # ldexp, or int_emul's exact GLSL 3.30 helper (glp_ldexp)
        ShaderCap.TGSI_SKIP_MERGE_REGISTERS: 0,
    }


def shader_caps(env, layout: BindingLayout) -> MappingProxyType:
    """``{ShaderType: {ShaderCap: int}}`` for every stage and every cap."""
    zero = dict.fromkeys(ShaderCap, 0)
    out = {}
    for stage in ShaderType:
        caps = dict(zero)
        if stage_available(env, stage):
            caps.update(_stage_caps(env, stage, layout))
        out[stage] = MappingProxyType({cap: int(v) for cap, v in caps.items()})
    return MappingProxyType(out)


# --------------------------------------------------------------------------
# Compute caps
# --------------------------------------------------------------------------

#: Three-component caps (C: uint64_t[3]); everything else is an int except
#: IR_TARGET (a str).
TRIPLE_COMPUTE_CAPS = frozenset({ComputeCap.MAX_GRID_SIZE, ComputeCap.MAX_BLOCK_SIZE})


def _compute_zero() -> dict:
    out = dict.fromkeys(ComputeCap, 0)
    for cap in TRIPLE_COMPUTE_CAPS:
        out[cap] = (0, 0, 0)
    out[ComputeCap.IR_TARGET] = ""
    return out


def compute_caps(env, shader: MappingProxyType) -> MappingProxyType:
    """Every ComputeCap for TGSI programs (the only IR glpipe accepts)."""
    out = _compute_zero()
    if not compute_available(env):
        return MappingProxyType(out)
    fb = CS_FALLBACK_LIMITS
    on_host = compute_runs_on_host(env)
    out.update(
        {
            # The compiler target: host GLSL, or the numpy executor.
            ComputeCap.IR_TARGET: f"glsl{env.glsl_version}" if on_host else "numpy",
            ComputeCap.GRID_DIMENSION: 3,
            ComputeCap.MAX_GRID_SIZE: tuple(env.lim("GL_MAX_COMPUTE_WORK_GROUP_COUNT")) if on_host else fb["grid"],
            ComputeCap.MAX_BLOCK_SIZE: tuple(env.lim("GL_MAX_COMPUTE_WORK_GROUP_SIZE")) if on_host else fb["block"],
            ComputeCap.MAX_THREADS_PER_BLOCK: env.lim("GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS")
            if on_host
            else fb["invocations"],
            # LOCAL = shared memory (TGSI MEMORY SHARED).
            ComputeCap.MAX_LOCAL_SIZE: env.lim("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE") if on_host else fb["shared"],
            # No GLOBAL / PRIVATE / INPUT memory: glpipe has no set_global_binding
            # and ComputeState carries no kernel input.
            ComputeCap.MAX_GLOBAL_SIZE: 0,
            ComputeCap.MAX_PRIVATE_SIZE: 0,
            ComputeCap.MAX_INPUT_SIZE: 0,
            # The largest buffer a compute program can address: an SSBO binding.
            ComputeCap.MAX_MEM_ALLOC_SIZE: (env.lim("GL_MAX_SHADER_STORAGE_BLOCK_SIZE") if on_host else fb["ssbo_size"])
            if env.d("shader_buffers")
            else 0,
            ComputeCap.MAX_CLOCK_FREQUENCY: 0,  # GL does not say
            ComputeCap.MAX_COMPUTE_UNITS: 1,  # GL does not say; at least one runs the grid
            ComputeCap.MAX_SUBGROUPS: 0,  # no OpenCL subgroups
            ComputeCap.IMAGES_SUPPORTED: int(shader[ShaderType.COMPUTE][ShaderCap.MAX_SHADER_IMAGES] > 0),
            ComputeCap.SUBGROUP_SIZES: 0,  # GL core has no subgroup size query
            ComputeCap.SUBGROUP_SIZE: 0,
            ComputeCap.ADDRESS_BITS: 0,  # GLSL has no pointers
            ComputeCap.MAX_VARIABLE_THREADS_PER_BLOCK: 0,  # ARB_compute_variable_group_size unused
        }
    )
    return MappingProxyType(out)


def compute_caps_for_other_ir() -> MappingProxyType:
    """The answer for an IR glpipe does not accept (NIR, NATIVE, ...): no
    program in it can run, so every limit is 0 and IR_TARGET is empty."""
    return MappingProxyType(_compute_zero())


def check_clip_cull_properties(ir, cull_distance_cap: int, profile_name: str, what: str) -> None:
    """Refuse at create a shader whose clip / cull distance properties exceed
    what the caps announce.  tgsi.rst: NUM_CLIPDIST_ENABLED clip distances and
    NUM_CULLDIST_ENABLED cull distances share the PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT
    components of the two CLIPDIST registers; cull distances need
    PIPE_CAP_CULL_DISTANCE (gl_CullDistance: GL 4.5 / GL_ARB_cull_distance; the
    gl33 profile has none, docs/rasterizer.md "Clip and cull distances")."""
    from lowering.errors import ShaderValidationError, UnsupportedError
    from lowering.glsl.varyings import clip_cull_counts

    from .enums import PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT

    nclip, ncull = clip_cull_counts(ir)
    if (nclip or 0) + ncull > PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT:
        raise ShaderValidationError(
            f"{what}: PROPERTY NUM_CLIPDIST_ENABLED {nclip} + NUM_CULLDIST_ENABLED {ncull} exceeds the "
            f"{PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT} components of CLIPDIST (PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT)"
        )
    if ncull and not cull_distance_cap:
        raise UnsupportedError(
            f"{what}: PROPERTY NUM_CULLDIST_ENABLED {ncull} needs PIPE_CAP_CULL_DISTANCE, which is 0 on the "
            f"{profile_name} profile (the host has no gl_CullDistance: GL 4.5 or GL_ARB_cull_distance)"
        )


__all__ = [
    "CS_FALLBACK_LIMITS",
    "LOWERING_STAGE",
    "STAGES",
    "SYSVALS_UBOS",
    "TRIPLE_COMPUTE_CAPS",
    "StageInfo",
    "StageSlots",
    "binding_layout",
    "check_clip_cull_properties",
    "compute_available",
    "hw_atomic_slots",
    "compute_caps",
    "compute_caps_for_other_ir",
    "compute_runs_on_host",
    "host_stages",
    "shader_caps",
    "stage_available",
    "stage_slots",
]
