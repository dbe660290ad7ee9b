"""Shader CSOs, their variants, and linked programs.

``create_{vs,fs,gs,tcs,tes}_state`` parses and validates the TGSI once and
returns a ``ShaderCSO``; ``ShaderPart`` (``ctx.shader_part``) compiles a
variant per ``VariantKey`` on first use (cached on the CSO), links one
program per tuple of variants and binds it at draw (``_emit_program``),
looking it up first by the variant-key inputs (glpipe/variant_keys.py).
docs/lowering.md "Variant keys in the context" explains the caches.
"""

from __future__ import annotations

import weakref

from lowering import parse, validate
from lowering.errors import InvalidArgumentError, PipeError, ShaderValidationError, UnsupportedError
from lowering.glsl.shadow_swizzle import compare_uses
from lowering.glsl.varyings import INTERSTAGE_VARYINGS
from lowering.limits import ShaderLimits, check_limits, check_property_limits, limits_for
from lowering.limits_emulated import emulated_features
from lowering.semantics import PRIMITIVE_NAMES

from .caps_shader import check_clip_cull_properties
from .dirty import Dirty, KeepGeneral
from .enums import Cap, Prim, ShaderCap, ShaderIR, ShaderType
from .lifetime import on_drop
from .part import Area, Part
from .stream_output import plan_stream_output, set_feedback_varyings
from .templates import ShaderState

# TGSI header word each create_*_state expects.
STAGE_PROCESSOR = {
    ShaderType.VERTEX: "VERT",
    ShaderType.FRAGMENT: "FRAG",
    ShaderType.GEOMETRY: "GEOM",
    ShaderType.TESS_CTRL: "TESS_CTRL",
    ShaderType.TESS_EVAL: "TESS_EVAL",
    ShaderType.COMPUTE: "COMP",
}

# Graphics stages in pipeline order: the order GL shaders are attached and the
# order of the program-cache key.
GRAPHICS_STAGES = (
    ShaderType.VERTEX,
    ShaderType.TESS_CTRL,
    ShaderType.TESS_EVAL,
    ShaderType.GEOMETRY,
    ShaderType.FRAGMENT,
)

# Distinct variant-input combinations remembered before that cache starts over.
_MAX_INPUT_COMBINATIONS = 1024

# A GS reads these from an integer varying (lowering/glsl/passes/layer.py).
_LAYER_INPUTS = frozenset({"LAYER", "VIEWPORT_INDEX"})
# Semantics that are user varyings (the others are GL built-ins).
_USER_VARYINGS = frozenset({"GENERIC", "TEXCOORD", "COLOR", "BCOLOR", "FOG", "PCOORD"})

# Host features a stage needs beyond GL 3.3.
_STAGE_FEATURE = {
    ShaderType.TESS_CTRL: "tessellation_shader",
    ShaderType.TESS_EVAL: "tessellation_shader",
    ShaderType.COMPUTE: "compute_shader",
}


def unwritten_inputs(producer, consumer) -> tuple[tuple[str, int, str, str], ...]:
    """The user varyings ``consumer`` (a TCS, TES or GS ShaderInfo) reads that
    ``producer`` (the stage before it) does not write, as VariantKey
    ``output_interpolation`` entries of the producer's variant.

    Gallium lets a stage read an input the previous stage never writes (Mesa's
    software drivers read zeros); GL links an input block only to a matching
    output block, so the producer declares these outputs and writes zeros
    (lowering/glsl/stages.py ``_declare_next_stage_inputs``), as the last
    vertex stage already does for the FS's inputs.  Only (semantic, index)
    matters for a consumer that is not the FS: the interpolation is the
    default.  A GS's LAYER / VIEWPORT_INDEX inputs are listed whether or not
    the producer writes them: it writes them to the varying the GS reads
    (lowering/glsl/passes/layer.py)."""
    written = {(io.semantic, io.semantic_index) for io in producer.outputs}
    missing = []
    for io in consumer.inputs:
        entry = (io.semantic, io.semantic_index)
        if io.semantic in INTERSTAGE_VARYINGS and entry not in missing:
            if entry not in written or io.semantic in _LAYER_INPUTS:
                missing.append(entry)
    return tuple((semantic, index, "PERSPECTIVE", "CENTER") for semantic, index in missing)


class ShaderCSO:
    """A shader state object: the validated TGSI plus its compiled variants."""

    __slots__ = (
        "__weakref__",
        "context",
        "stage",
        "tokens",
        "ir",
        "info",
        "stream_output",
        "so_plan",
        "variants",
        "destroyed",
        "window_space",
        "compare_uses",
    )

    def __init__(self, context, stage: ShaderType, tokens: str, ir, info, stream_output):
        self.context = context
        self.stage = stage
        self.tokens = tokens
        self.ir = ir
        self.info = info
        self.stream_output = stream_output
        self.so_plan = None  # its capture as transform feedback (glpipe/stream_output.py), set at create
        # VS_WINDOW_SPACE_POSITION, read at every VS bind (glpipe/viewport.py).
        self.window_space = bool(stage == ShaderType.VERTEX and ir.property("VS_WINDOW_SPACE_POSITION", 0))
        # (SVIEWs read by comparing lookups, by comparing TG4), for the shadow-swizzle
        # key and the texture plan (lowering/glsl/shadow_swizzle.py).
        self.compare_uses = compare_uses(ir)
        self.variants: dict = {}  # VariantKey -> ShaderVariant
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<ShaderCSO {self.stage.name} ({len(self.variants)} variants)>"


class ShaderVariant:
    """One compiled GL shader object for a (CSO, VariantKey).

    It refers to its CSO weakly (``cso``): the program cache is keyed by
    variants, and must not keep a CSO the application dropped alive (its
    finalizer releases the variants and their programs, glpipe/lifetime.py)."""

    __slots__ = ("_cso", "key", "glsl", "gl_shader")

    def __init__(self, cso, key, glsl, gl_shader: int):
        self._cso = weakref.ref(cso)
        self.key = key
        self.glsl = glsl
        self.gl_shader = gl_shader

    @property
    def cso(self) -> ShaderCSO | None:
        """The shader CSO this variant was compiled from (None once it was dropped)."""
        return self._cso()


class Program:
    """A linked GL program for one tuple of variants, with what the draw
    path needs to know about it worked out once, at link time: its texture
    units (``tex_plan``, glpipe/sampler_views.py), its constant buffers
    (``cb_plan``, glpipe/constant_buffers.py), whether it reads DRAWID, and the
    gl_ClipDistance[i] its last vertex stage writes (``clip_mask``,
    glpipe/raster/rasterizer.py)."""

    __slots__ = (
        "gl_program",
        "variants",
        "tex_plan",
        "cb_plan",
        "uses_drawid",
        "clip_mask",
        "cull_clip_mask",
        "switch_bits",
    )

    def __init__(
        self, gl_program: int, variants: tuple, tex_plan: tuple = (), cb_plan: tuple = (), uses_drawid: bool = False
    ):
        self.gl_program = gl_program
        self.variants = variants
        self.tex_plan = tex_plan
        self.cb_plan = cb_plan
        self.uses_drawid = uses_drawid
        last = next((v for v in reversed(variants[:4]) if v is not None), None)  # GS, TES or VS
        self.clip_mask = last.glsl.reflection.clip_distance_mask if last is not None else 0
        # Clip distances standing for cull distances (a host without gl_CullDistance): always enabled.
        self.cull_clip_mask = last.glsl.reflection.cull_clip_mask if last is not None else 0
        # Dirty bits a switch to this program from another (the key) sets:
        # _switch_bits, memoized (program switches repeat).
        self.switch_bits: dict = {}


class VariantInput:
    """The one holder of a structured variant-key input value (a tuple of
    colour-buffer kinds, the rasterizer's key fields, ...): see
    ``variant_input``.  Hashes and compares by identity, in C."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self) -> str:
        return f"VariantInput({self.value!r})"


_VARIANT_INPUTS: dict[object, VariantInput] = {}


def variant_input(value) -> VariantInput:
    """The canonical holder of ``value`` (hashable): equal values, one holder.

    The program cache is keyed by a tuple of variant-key inputs
    (glpipe/variant_keys.py ``_variant_inputs``) on every program change;
    nested tuples in it would be re-hashed element by element each time,
    holders hash by identity.  Setters store the holder when the value is
    set, and compare holders with ``is``."""
    holder = _VARIANT_INPUTS.get(value)
    if holder is None:
        if len(_VARIANT_INPUTS) >= 65536:
            # Only a cache of identities: new holders for old values merely
            # make the program cache miss once, never select a wrong program.
            _VARIANT_INPUTS.clear()
        holder = _VARIANT_INPUTS[value] = VariantInput(value)
    return holder


def _binding_tables(reflection):
    """(uniform block name -> binding, sampler uniform name -> unit, storage block
    name -> binding) from a lowering reflection record, for GLSL without
    ``layout(binding=)``."""
    return (
        dict(reflection.uniform_block_bindings),
        dict(reflection.sampler_units),
        dict(reflection.storage_block_bindings),
    )


def apply_bindings(gl, prog: int, reflection) -> None:
    """Point the uniform blocks, samplers and storage blocks of the linked,
    current program ``prog`` at the bindings ``reflection`` lists (the
    lowered GLSL has no ``layout(binding=)`` for them)."""
    blocks, samplers, storage = _binding_tables(reflection)
    for name, binding in blocks.items():
        index = gl.glGetUniformBlockIndex(prog, name)
        if index != gl.GL_INVALID_INDEX:
            gl.glUniformBlockBinding(prog, index, binding)
    for name, unit in samplers.items():
        loc = gl.glGetUniformLocation(prog, name)
        if loc >= 0:
            gl.glUniform1i(loc, unit)
    for name, binding in storage.items():
        index = gl.glGetProgramResourceIndex(prog, gl.GL_SHADER_STORAGE_BLOCK, name)
        if index != gl.GL_INVALID_INDEX:
            gl.glShaderStorageBlockBinding(prog, index, binding)


# Declared register files counted against a shader cap: (file, what a
# declaration's extent is, the cap, the host limit behind it).  A declaration
# reaching past the announced count would fail in the host compiler at draw
# time, or -- with the cap at 0, the feature not delivered -- compile into a
# shader reading zeros; both are refused at create instead (screen.rst: the
# caps are the driver's promise).
_DECLARED_SLOTS = (
    ("BUFFER", "index", ShaderCap.MAX_SHADER_BUFFERS, ""),
    ("IMAGE", "index", ShaderCap.MAX_SHADER_IMAGES, ""),
    ("SVIEW", "index", ShaderCap.MAX_SAMPLER_VIEWS, ""),
    ("SAMP", "index", ShaderCap.MAX_TEXTURE_SAMPLERS, ""),
    ("HWATOMIC", "dimension", ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS, ""),
    ("HWATOMIC", "count", ShaderCap.MAX_HW_ATOMIC_COUNTERS, ""),
    ("CONST", "dimension", ShaderCap.MAX_CONST_BUFFERS, ""),
    # Every constant buffer is a host uniform block (16 bytes a register).
    ("CONST", "bytes", ShaderCap.MAX_CONST_BUFFER0_SIZE, " (the host's GL_MAX_UNIFORM_BLOCK_SIZE)"),
)


def _declared_extent(decl, measure: str) -> int:
    """How much of the cap ``decl`` takes: slots up to its last index, its
    buffer index + 1, its register count, or its constant bytes."""
    if measure == "index":
        return decl.last + 1
    if measure == "dimension":
        return (decl.dimension or 0) + 1
    if measure == "count":
        return decl.last - decl.first + 1
    return (decl.last + 1) * 16


def _check_declared_slots(screen, stage: ShaderType, ir, what: str) -> None:
    """Refuse with UnsupportedError a declaration beyond its shader cap
    (a cap of 0: the register file is not available at all)."""
    from lowering.dump import dump_declaration

    for file, measure, cap, host_limit in _DECLARED_SLOTS:
        decls = [d for d in ir.declarations if d.file == file]
        if not decls:
            continue
        extents = [_declared_extent(d, measure) for d in decls]
        # A count adds up over the declarations; an index or size is the largest one's.
        used = sum(extents) if measure == "count" else max(extents)
        decl = decls[-1] if measure == "count" else decls[extents.index(used)]
        text = f"'{dump_declaration(decl)}'" + (f" (line {decl.line})" if decl.line is not None else "")
        limit = screen.get_shader_param(stage, cap)
        if limit == 0:
            raise UnsupportedError(
                f"{what}: declaration {text}: {file} needs PIPE_SHADER_CAP_{cap.name}, "
                f"which is 0 for the {stage.name} stage on this screen"
            )
        if used > limit:
            raise UnsupportedError(
                f"{what}: declaration {text} needs {used} of PIPE_SHADER_CAP_{cap.name}; "
                f"this screen allows {limit} for the {stage.name} stage{host_limit}"
            )


# The primitive class each mode hands a geometry shader (GL 4.5 §11.3.1;
# QUADS / QUAD_STRIP / POLYGON are drawn as triangles), and the class each
# GS_INPUT_PRIMITIVE takes (its TGSI name; LINE_STRIP etc. name their class).
_PRIM_CLASS = {
    Prim.POINTS: "POINTS",
    Prim.LINES: "LINES",
    Prim.LINE_LOOP: "LINES",
    Prim.LINE_STRIP: "LINES",
    Prim.TRIANGLES: "TRIANGLES",
    Prim.TRIANGLE_STRIP: "TRIANGLES",
    Prim.TRIANGLE_FAN: "TRIANGLES",
    Prim.QUADS: "TRIANGLES",
    Prim.QUAD_STRIP: "TRIANGLES",
    Prim.POLYGON: "TRIANGLES",
    Prim.LINES_ADJACENCY: "LINES_ADJACENCY",
    Prim.LINE_STRIP_ADJACENCY: "LINES_ADJACENCY",
    Prim.TRIANGLES_ADJACENCY: "TRIANGLES_ADJACENCY",
    Prim.TRIANGLE_STRIP_ADJACENCY: "TRIANGLES_ADJACENCY",
}
_GS_INPUT_CLASS = {
    "LINE_STRIP": "LINES",
    "LINE_LOOP": "LINES",
    "TRIANGLE_STRIP": "TRIANGLES",
    "TRIANGLE_FAN": "TRIANGLES",
    "LINE_STRIP_ADJACENCY": "LINES_ADJACENCY",
    "TRIANGLE_STRIP_ADJACENCY": "TRIANGLES_ADJACENCY",
}


class ShaderPart(Part):
    """The shader area of a context (``ctx.shader_part``): the bound shader
    CSOs (``shaders``, indexed by ShaderType), the linked programs and the
    current one (``program``; ``program_drawid``: it reads DRAWID)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.shaders = [None] * len(STAGE_PROCESSOR)  # indexed by ShaderType; never replaced (others keep it)
        self._programs: dict[tuple, Program] = {}  # variants tuple -> Program
        self._programs_by_inputs: dict[tuple, Program] = {}  # _variant_inputs() -> Program
        self.program = None
        self.program_drawid = False  # the current program reads DRAWID (_use_program)
        # The variant-key area's two calls, handed over by it (built after
        # this one, glpipe/variant_keys.py): _emit_program runs on every
        # shader switch, where two attribute hops per call are measurable.
        self._variant_inputs = self._variant_key = None

    def _use_variant_keys(self, keys) -> None:
        """The variant-key area ``keys`` (VariantKeysPart) hands over what
        the program emit calls: ``_variant_inputs`` and ``_variant_key``."""
        self._variant_inputs = keys._variant_inputs
        self._variant_key = keys._variant_key

    # -- create / bind / delete ------------------------------------------------

    def _create_shader(self, stage: ShaderType, state) -> ShaderCSO:
        ctx = self.ctx
        ctx.check_alive(f"create_{_SHORT[stage]}_state")
        what = f"create_{_SHORT[stage]}_state"
        if stage == ShaderType.COMPUTE:
            tokens = getattr(state, "prog", None)
            ir_type = getattr(state, "ir_type", ShaderIR.TGSI)
        else:
            if not isinstance(state, ShaderState):
                raise InvalidArgumentError(f"{what}: expected a ShaderState, got {type(state).__name__}")
            tokens, ir_type = state.tokens, state.type
        if ir_type != ShaderIR.TGSI:
            raise InvalidArgumentError(f"{what}: IR {ShaderIR(ir_type).name} is not supported (TGSI only)")
        if not isinstance(tokens, str):
            raise InvalidArgumentError(f"{what}: tokens must be TGSI text (str), got {type(tokens).__name__}")
        feat = _STAGE_FEATURE.get(stage)
        if feat is not None and not ctx.screen.profile.has(feat):
            raise UnsupportedError(
                f"{what}: the {stage.name} stage needs the host feature {feat!r} "
                f"(not on the {ctx.screen.profile.name} profile)"
            )
        ir = parse(tokens)
        if ir.processor != STAGE_PROCESSOR[stage]:
            raise ShaderValidationError(f"{what}: TGSI header is {ir.processor}, expected {STAGE_PROCESSOR[stage]}")
        info = validate(ir)
        stream_output = getattr(state, "stream_output", None)
        self._check_shader_limits(stage, ir, info, what, stream_output)
        # NUM_CLIPDIST_ENABLED / NUM_CULLDIST_ENABLED against PIPE_CAP_CULL_DISTANCE.
        check_clip_cull_properties(ir, ctx.screen.get_param(Cap.CULL_DISTANCE), ctx.screen.profile.name, what)
        plan = plan_stream_output(ctx.screen, stage, ir, stream_output, what)
        cso = ctx._own(ShaderCSO(ctx, stage, tokens, ir, info, stream_output))
        cso.so_plan = plan
        # The input-combination cache holds the CSOs of every combination drawn
        # (strongly: it is keyed by them); a new shader starts it afresh so a
        # dropped CSO is not kept there (a miss costs a key computation, no link).
        self._programs_by_inputs = {}
        # Dropped without delete_*_state: its variants and their programs go at
        # the next drain on the GL thread (glpipe/lifetime.py).  The variants
        # dict is passed, not the CSO (variants refer to it weakly).
        on_drop(cso, ctx.host, self._shader_dropped, cso.variants)
        return cso

    def _check_shader_limits(self, stage: ShaderType, ir, info, what: str, stream_output=None) -> None:
        """Refuse, at create time, a shader beyond the limits the caps
        announce: past them the host's compiler may fail at draw time (an
        'internal error') or, for llvmpipe's tessellation, crash."""
        screen = self.ctx.screen
        # Vertex attributes and user varyings count against MAX_INPUTS/OUTPUTS;
        # built-ins (POSITION, tess levels, ...) and PATCH varyings do not.  An
        # FS reads CLIPDIST from a varying (docs/rasterizer.md "Clip and cull distances").
        varyings = _USER_VARYINGS | {"CLIPDIST"} if stage == ShaderType.FRAGMENT else _USER_VARYINGS

        def user(ios):
            return sum(1 for io in ios if io.semantic is None or io.semantic in varyings)

        checks = [
            (user(info.inputs), screen.get_shader_param(stage, ShaderCap.MAX_INPUTS), "inputs", "MAX_INPUTS"),
            (user(info.outputs), screen.get_shader_param(stage, ShaderCap.MAX_OUTPUTS), "outputs", "MAX_OUTPUTS"),
        ]
        if stage in (ShaderType.TESS_CTRL, ShaderType.TESS_EVAL):
            patch = sum(1 for io in info.inputs + info.outputs if io.semantic == "PATCH")
            checks.append(
                (
                    patch,
                    screen.get_param(Cap.MAX_SHADER_PATCH_VARYINGS),
                    "PATCH varyings",
                    "PIPE_CAP_MAX_SHADER_PATCH_VARYINGS",
                )
            )
        if stage == ShaderType.GEOMETRY:
            if int(ir.property("GS_INVOCATIONS", 1)) > 1 and not screen.profile.has("gpu_shader5"):
                raise UnsupportedError(
                    f"{what}: GS_INVOCATIONS > 1 needs the host feature 'gpu_shader5' "
                    f"(not on the {screen.profile.name} profile)"
                )
        for used, limit, name, cap in checks:
            if used > limit:
                raise ShaderValidationError(
                    f"{what}: the shader uses {used} {name}; this screen allows {limit} ({cap})"
                )
        _check_declared_slots(screen, stage, ir, what)
        # TCS_VERTICES_OUT, GS_MAX_OUTPUT_VERTICES, GS_INVOCATIONS and the GS's total
        # output components against the host's GL limits (lowering/limits.py PROPERTY_LIMITS).
        check_property_limits(ir, screen.profile.limit, what)
        # Size limits the host compiles in bounded time (lowering/limits.py, the caps' numbers).
        check_limits(
            ir,
            ShaderLimits.from_caps(
                lambda cap: screen.get_shader_param(stage, ShaderCap[cap]),
                limits_for(screen.profile.name).max_indirect_temp_array,
                emulated_features(screen.profile.glsl_version, screen.profile.extensions),
            ),
            what,
        )
        so = getattr(stream_output, "output", ())
        if so and screen.get_param(Cap.MAX_STREAM_OUTPUT_BUFFERS) == 0:
            raise UnsupportedError(
                f"{what}: ShaderState.stream_output captures {len(so)} output(s), but "
                "PIPE_CAP_MAX_STREAM_OUTPUT_BUFFERS is 0 on this screen (stream output is "
                "not available)"
            )

    def _bind_shader(self, stage: ShaderType, cso) -> None:
        if cso is not None:
            self.ctx._check_cso(cso, ShaderCSO, f"bind_{_SHORT[stage]}_state")
            if cso.stage != stage:
                raise InvalidArgumentError(f"bind_{_SHORT[stage]}_state: the CSO is a {cso.stage.name} shader")
        if self.shaders[stage] is cso:
            return
        self.shaders[stage] = cso
        if stage == ShaderType.VERTEX:
            self._vs_changed()
        if stage in (ShaderType.VERTEX, ShaderType.GEOMETRY, ShaderType.TESS_EVAL):
            self.ctx.vertex_layer_part.shaders_changed()  # a VS writing LAYER without a GS on a GL 3.3 host
            self._prim_check_changed()
        # Only the program (Dirty.SHADERS: the other variant-key inputs are
        # unchanged): the vertex layout does not depend on the shader (input
        # types reach the VS through its variant key), the sysvals binding is
        # the same for every program, and _emit_program dirties texture units
        # / constant buffers only if the new program's plans differ.
        self.ctx.dirty |= Dirty.SHADERS

    def _prim_check_changed(self) -> None:
        """A GS or TES bound takes draws off the fast path, so that each
        draw's mode is checked against it (``check_draw_mode``): GL refuses a
        mismatch with GL_INVALID_OPERATION, which must not be left pending."""
        s = self.shaders
        on = s[ShaderType.GEOMETRY] is not None or s[ShaderType.TESS_EVAL] is not None
        self.ctx._keep_general(KeepGeneral.PRIM_CHECK, on)
        if on:
            self.ctx.dirty |= Dirty.DRAW_STATE

    def check_draw_mode(self, mode: Prim) -> None:
        """Refuse a draw whose primitive the bound TES or GS cannot take
        (GL 4.5 §11.3.1 / §10.1: a TES takes PATCHES only; a GS takes the
        class of its GS_INPUT_PRIMITIVE, QUADS / QUAD_STRIP / POLYGON drawn as
        triangles).  InvalidArgumentError, before anything reaches GL."""
        s = self.shaders
        if s[ShaderType.TESS_EVAL] is not None:
            if mode != Prim.PATCHES:
                raise InvalidArgumentError(
                    f"draw_vbo: a tessellation evaluation shader is bound: only PIPE_PRIM_PATCHES can be drawn, "
                    f"not {Prim(mode).name}"
                )
            return
        gs = s[ShaderType.GEOMETRY]
        if gs is None or mode == Prim.PATCHES:
            return  # PATCHES without a TES is refused by the draw itself
        wanted = gs.ir.property("GS_INPUT_PRIMITIVE", "TRIANGLES")
        wanted = PRIMITIVE_NAMES[wanted] if isinstance(wanted, int) else str(wanted).upper()
        if _PRIM_CLASS[Prim(mode)] != _GS_INPUT_CLASS.get(wanted, wanted):
            raise InvalidArgumentError(
                f"draw_vbo: the bound geometry shader takes {wanted} (GS_INPUT_PRIMITIVE), "
                f"which {Prim(mode).name} does not provide"
            )

    def _vs_changed(self) -> None:
        """A new VS is bound: what depends on it beyond its program."""
        ctx = self.ctx
        ctx.viewport_part.note_window_space()  # VS_WINDOW_SPACE_POSITION: the transform (glpipe/viewport.py)
        if ctx.rasterizer_part.rast_edge_fill:
            # Its EDGEFLAG output: the next draw keys its edge flags on draw_vbo's
            # general path (glpipe/raster/polygon_edges.py).
            ctx.dirty |= Dirty.DRAW_STATE

    def _delete_shader(self, stage: ShaderType, cso) -> None:
        ctx = self.ctx
        ctx._check_cso(cso, ShaderCSO, f"delete_{_SHORT[stage]}_state")
        if cso.stage != stage:  # delete_vs_state(fs) must not delete the FS
            raise InvalidArgumentError(f"delete_{_SHORT[stage]}_state: the CSO is a {cso.stage.name} shader")
        if self.shaders[stage] is cso:
            # Gallium: deleting a bound CSO is a frontend bug; Mesa's drivers
            # unbind it.  glpipe unbinds so nothing dangles.
            self.shaders[stage] = None
            ctx.dirty |= Dirty.PROGRAM
            if stage == ShaderType.VERTEX:
                ctx.viewport_part.note_window_space()
            ctx.vertex_layer_part.shaders_changed()
            self._prim_check_changed()
        for inputs in [k for k in self._programs_by_inputs if cso in k[: len(GRAPHICS_STAGES)]]:
            del self._programs_by_inputs[inputs]
        self._release_variants(cso.variants)
        cso.destroyed = True

    def _release_variants(self, variants: dict) -> None:
        """Delete the GL shaders of ``variants`` (a CSO's VariantKey ->
        ShaderVariant dict, emptied) and every program linked from them."""
        ctx = self.ctx
        gl = ctx.gl
        dead = {id(v) for v in variants.values()}
        if dead:
            for key in [k for k in self._programs if any(id(v) in dead for v in k if v is not None)]:
                prog = self._programs.pop(key)
                if self.program is prog:
                    self.program = None
                    ctx.dirty |= Dirty.PROGRAM
                gl.glDeleteProgram(prog.gl_program)
            for prog in self._programs.values():
                prog.switch_bits.clear()  # (keyed by programs, some just deleted)
        for variant in variants.values():
            gl.glDeleteShader(variant.gl_shader)
        variants.clear()

    def _shader_dropped(self, variants: dict) -> None:
        """A shader CSO was dropped unreferenced (its finalizer queued this
        for the GL thread): release its variants and their programs."""
        if not self.ctx.destroyed:
            self._release_variants(variants)

    # -- variants and programs ------------------------------------------------

    def _variant(self, cso: ShaderCSO, key):
        # Runs when a program is selected (a new combination of variants),
        # never per draw of the fast path: a hit is a compile saved.
        variant = cso.variants.get(key)
        if variant is None:
            variant = self._compile_variant(cso, key)
            cso.variants[key] = variant
        else:
            self.ctx._counters.shader_cache_hits += 1
        return variant

    def _compile_variant(self, cso: ShaderCSO, key) -> ShaderVariant:
        from lowering import to_glsl

        ctx = self.ctx
        prof = ctx.screen.profile
        glsl = to_glsl(
            cso.info,
            glsl_version=prof.glsl_version,
            key=key,
            extensions=prof.extensions,
            bindings=ctx.bindings,
            host_facts=ctx.screen.host_facts.holds,
        )
        gl = ctx.gl
        kind = _GL_SHADER_KIND[cso.stage](gl)
        shader = gl.glCreateShader(kind)
        gl.glShaderSource(shader, glsl.source)
        gl.glCompileShader(shader)
        if not gl.glGetShaderiv(shader, gl.GL_COMPILE_STATUS):
            log = gl.glGetShaderInfoLog(shader)
            gl.glDeleteShader(shader)
            log = log.decode(errors="replace") if isinstance(log, bytes) else str(log)
            # A lowering that emits GLSL the host rejects is a glpipe bug: say so.
            raise PipeError(
                f"internal error: the host rejected the GLSL lowered from this "
                f"{cso.stage.name} shader:\n{log}\n--- GLSL ---\n{glsl.source}"
            )
        ctx._counters.shader_variants += 1
        return ShaderVariant(cso, key, glsl, int(shader))

    def _link(self, variants: tuple) -> Program:
        ctx = self.ctx
        gl = ctx.gl
        prog = gl.glCreateProgram()
        for v in variants:
            if v is not None:
                gl.glAttachShader(prog, v.gl_shader)
        last = variants[3] or variants[2] or variants[0]  # GS, TES, VS: the last vertex stage
        if last is not None and last.key.stream_output:
            # Its captured outputs, gaps and buffer breaks (glpipe/stream_output.py).
            set_feedback_varyings(gl, prog, last.cso.so_plan)
        gl.glLinkProgram(prog)
        if not gl.glGetProgramiv(prog, gl.GL_LINK_STATUS):
            log = gl.glGetProgramInfoLog(prog)
            gl.glDeleteProgram(prog)
            log = log.decode(errors="replace") if isinstance(log, bytes) else str(log)
            stages = ", ".join(v.cso.stage.name for v in variants if v is not None)
            raise PipeError(f"internal error: the host could not link the lowered {stages} shaders:\n{log}")
        gl.glUseProgram(prog)
        for v in variants:
            if v is not None:
                apply_bindings(gl, prog, v.glsl.reflection)
        for v in variants:
            if v is not None:
                gl.glDetachShader(prog, v.gl_shader)
        ctx.host.check("linking a program")
        ctx._counters.programs_linked += 1
        uses_drawid = any(sv.semantic == "DRAWID" for v in variants if v is not None for sv in v.cso.info.system_values)
        return Program(
            int(prog),
            variants,
            ctx.sampler_views_part.texture_plan(variants),
            ctx.constbuf_part._constant_plan(variants),
            uses_drawid,
        )

    def _emit_program(self) -> None:
        """Bind the program of the bound shaders' variants for the current
        state.  Looked up first by what the variant keys are computed from
        (``_variant_inputs``, glpipe/variant_keys.py), so returning to a
        combination seen before costs one tuple and one dict lookup; only a
        new combination computes keys, selects (compiling on first use) the
        variants and finds or links their program."""
        inputs = self._variant_inputs()  # glpipe/variant_keys.py
        prog = self._programs_by_inputs.get(inputs)
        if prog is None:
            prog = self._select_program(inputs)
            if len(self._programs_by_inputs) >= _MAX_INPUT_COMBINATIONS:
                self._programs_by_inputs.clear()  # a cache: rebuilt from the keys as needed
            self._programs_by_inputs[inputs] = prog
        if prog is not self.program:
            self._use_program(prog)

    def _select_program(self, inputs: tuple) -> Program:
        """The program of the variants ``inputs`` select (linked on first use)."""
        variant_key = self._variant_key
        variants: list = []
        # ``inputs``: one CSO per stage, then the variant environment (not zipped).
        for stage, cso in zip(GRAPHICS_STAGES, inputs, strict=False):
            # (inputs, not self.shaders: glpipe/raster/line_stipple.py may supply a generated GS)
            if cso is None:
                variants.append(None)
                continue
            variants.append(self._variant(cso, variant_key(stage, cso, inputs)))
        key = tuple(variants)
        prog = self._programs.get(key)
        if prog is None:
            if variants[0] is None:
                raise InvalidArgumentError("draw_vbo: no vertex shader is bound")
            self.program = None  # linking makes the new program current
            prog = self._link(key)
            self._programs[key] = prog
        return prog

    def _use_program(self, prog: Program) -> None:
        """Make ``prog`` current; what it reads from other blocks (texture
        units, constant buffers) is re-emitted only where its plans differ
        from the previous program's."""
        ctx = self.ctx
        old = self.program
        ctx._hot.glUseProgram(prog.gl_program)
        self.program = prog
        if prog.uses_drawid != self.program_drawid:
            self.program_drawid = prog.uses_drawid
            ctx._keep_general(KeepGeneral.DRAWID, prog.uses_drawid)
        bits = prog.switch_bits.get(old)
        if bits is None:
            bits = prog.switch_bits[old] = _switch_bits(old, prog)
        if bits:
            ctx.dirty |= bits

    def _drop_program_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): forget the program found per variant-input tuple and
        the switch-bit memos, so the emit computes the variant keys, selects
        the variants and works out the dirty bits again (compiled variants
        and linked programs stay: they are made once by design)."""
        self._programs_by_inputs.clear()
        for prog in self._programs.values():
            prog.switch_bits.clear()

    def destroy(self) -> None:
        """Context.destroy: delete the linked programs (the CSOs' variants
        go with their CSOs)."""
        gl = self.ctx.gl
        for prog in self._programs.values():
            gl.glDeleteProgram(prog.gl_program)
        self._programs.clear()
        self._programs_by_inputs.clear()
        self.program = None


def _switch_bits(old, prog: Program) -> int:
    """The blocks to re-emit when ``prog`` replaces ``old`` (None: no
    program): texture units and constant buffers where the plans differ,
    the GL_CLIP_DISTANCEi switches where the written distances do, and the
    general draw path for a program reading DRAWID (draw_vbo's fast path
    cannot set gl_DrawID)."""
    bits = Dirty.DRAW_STATE if prog.uses_drawid else 0
    if old is None or prog.tex_plan != old.tex_plan:
        bits |= Dirty.SAMPLER_VIEWS
    if old is None or prog.cb_plan != old.cb_plan:
        bits |= Dirty.CONSTANTS
    if old is None or prog.clip_mask != old.clip_mask or prog.cull_clip_mask != old.cull_clip_mask:
        bits |= Dirty.CLIP
    return int(bits)


_SHORT = {
    ShaderType.VERTEX: "vs",
    ShaderType.FRAGMENT: "fs",
    ShaderType.GEOMETRY: "gs",
    ShaderType.TESS_CTRL: "tcs",
    ShaderType.TESS_EVAL: "tes",
    ShaderType.COMPUTE: "compute",
}

_GL_SHADER_KIND = {
    ShaderType.VERTEX: lambda gl: gl.GL_VERTEX_SHADER,
    ShaderType.FRAGMENT: lambda gl: gl.GL_FRAGMENT_SHADER,
    ShaderType.GEOMETRY: lambda gl: gl.GL_GEOMETRY_SHADER,
    ShaderType.TESS_CTRL: lambda gl: gl.GL_TESS_CONTROL_SHADER,
    ShaderType.TESS_EVAL: lambda gl: gl.GL_TESS_EVALUATION_SHADER,
    ShaderType.COMPUTE: lambda gl: gl.GL_COMPUTE_SHADER,
}


def _make_stage_methods():
    """create_/bind_/delete_{vs,fs,gs,tcs,tes}_state, generated from one table
    so the five stages cannot drift apart."""
    methods = {}
    for stage in GRAPHICS_STAGES:
        short = _SHORT[stage]

        def create(self, state: ShaderState, _stage: ShaderType = stage) -> ShaderCSO:
            return self._create_shader(_stage, state)

        def bind(
            self,
            cso: ShaderCSO | None,
            _stage: ShaderType = stage,
            _slot: int = int(stage),
            _vs: bool = stage == ShaderType.VERTEX,
            _vertex_side: bool = stage in (ShaderType.VERTEX, ShaderType.GEOMETRY, ShaderType.TESS_EVAL),
            _prim: bool = stage in (ShaderType.GEOMETRY, ShaderType.TESS_EVAL),
        ) -> None:
            # _bind_shader, inlined for the common case (a valid CSO of this
            # stage, or None); anything else goes there to raise.
            ctx = self.ctx
            if cso is not None and (
                type(cso) is not ShaderCSO or cso.context is not ctx or cso.destroyed or cso.stage is not _stage
            ):
                self._bind_shader(_stage, cso)
                return
            shaders = self.shaders
            if shaders[_slot] is not cso:
                shaders[_slot] = cso
                ctx.dirty |= Dirty.SHADERS
                if _vs:  # the viewport transform, edge flags
                    self._vs_changed()
                if _vertex_side:  # a VS writing LAYER without a GS on a GL 3.3 host
                    ctx.vertex_layer_part.shaders_changed()
                if _prim:  # each draw's mode checked against a bound GS / TES
                    self._prim_check_changed()

        def delete(self, cso: ShaderCSO, _stage: ShaderType = stage) -> None:
            self._delete_shader(_stage, cso)

        create.__doc__ = f"pipe_context::create_{short}_state: parse and validate TGSI once."
        bind.__doc__ = f"pipe_context::bind_{short}_state (None unbinds)."
        delete.__doc__ = f"pipe_context::delete_{short}_state (unbinds it if bound)."
        for name, fn in (
            (f"create_{short}_state", create),
            (f"bind_{short}_state", bind),
            (f"delete_{short}_state", delete),
        ):
            fn.__name__ = name
            methods[name] = fn
        methods[f"destroy_{short}_state"] = delete  # the spec's spelling
    return methods


_STAGE_METHODS = _make_stage_methods()
for _name, _fn in _STAGE_METHODS.items():
    setattr(ShaderPart, _name, _fn)


AREA = Area(
    "shader_part",
    part=ShaderPart,
    methods=tuple(_STAGE_METHODS),  # create_/bind_/delete_/destroy_{vs,fs,gs,tcs,tes}_state
    # The program first: the variant keys read the other areas' state, linking binds the program.
    rows=((Dirty.PROGRAM | Dirty.SHADERS, ShaderPart._emit_program),),
    destroy=ShaderPart.destroy,
    drop_caches=ShaderPart._drop_program_caches,
)

__all__ = [
    "AREA",
    "ShaderCSO",
    "ShaderVariant",
    "Program",
    "ShaderPart",
    "STAGE_PROCESSOR",
    "GRAPHICS_STAGES",
    "VariantInput",
    "variant_input",
]
