"""Shader CSOs, their variants, and linked programs.

``create_{vs,fs,gs,tcs,tes}_state(ShaderState)`` parses and validates the
TGSI text once (bad TGSI raises here, never at draw time) and returns a
``ShaderCSO``.  A *variant* is the GLSL for one ``VariantKey`` — the small,
frozen record of state core GL cannot express (flat shading of colours,
alpha test, clip planes, point sprites, integer colour outputs, ...).  It is
compiled on first use and cached on the CSO.  A *program* links one
variant per bound stage and is cached per stage tuple, so rebinding a
shader combination already seen costs one dict lookup and glUseProgram.

Values that change often (alpha ref, clip planes, stipple, framebuffer
height for y-flips) live in the per-stage ``glp_sysvals`` uniform block,
not in the key, so they never recompile.
"""

from __future__ import annotations

from lowering import parse, validate
from lowering.errors import InvalidArgumentError, ObjectDestroyedError, PipeError, ShaderValidationError

from .defs import ShaderIR, ShaderType
from .dirty import Dirty
from .state import ShaderState

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
GRAPHICS_STAGES = (ShaderType.VERTEX, ShaderType.TESS_CTRL, ShaderType.TESS_EVAL,
                   ShaderType.GEOMETRY, ShaderType.FRAGMENT)

# Host features a stage needs beyond GL 3.3.
_STAGE_FEATURE = {
    ShaderType.TESS_CTRL: "tessellation_shader",
    ShaderType.TESS_EVAL: "tessellation_shader",
    ShaderType.COMPUTE: "compute_shader",
}


class ShaderCSO:
    """A shader state object: the validated TGSI plus its compiled variants."""

    __slots__ = ("context", "stage", "tokens", "ir", "info", "stream_output", "variants", "destroyed")

    def __init__(self, context, stage: ShaderType, tokens: str, ir, info, stream_output):
        self.context = context
        self.stage = stage
        self.tokens = tokens
        self.ir = ir
        self.info = info
        self.stream_output = stream_output
        self.variants: "dict" = {}  # VariantKey -> ShaderVariant
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<ShaderCSO {self.stage.name} ({len(self.variants)} variants)>"


class ShaderVariant:
    """One compiled GL shader object for a (CSO, VariantKey)."""

    __slots__ = ("cso", "key", "glsl", "gl_shader")

    def __init__(self, cso, key, glsl, gl_shader: int):
        self.cso = cso
        self.key = key
        self.glsl = glsl
        self.gl_shader = gl_shader


class Program:
    """A linked GL program for one tuple of variants."""

    __slots__ = ("gl_program", "variants")

    def __init__(self, gl_program: int, variants: tuple):
        self.gl_program = gl_program
        self.variants = variants


def _binding_tables(reflection):
    """(uniform block name -> binding, sampler uniform name -> unit, storage block
    name -> binding) from a lowering reflection record, for GLSL without
    ``layout(binding=)``."""
    return (dict(reflection.uniform_block_bindings), dict(reflection.sampler_units),
            dict(reflection.storage_block_bindings))


class ShaderMixin:
    """Context methods for shader CSOs, variants and programs (mixed into Context)."""

    def _init_shaders(self) -> None:
        self.shaders = [None] * len(STAGE_PROCESSOR)  # indexed by ShaderType
        self._programs: "dict[tuple, Program]" = {}
        self._program = None

    # -- create / bind / delete ------------------------------------------------

    def _create_shader(self, stage: ShaderType, state) -> ShaderCSO:
        self.check_alive(f"create_{_SHORT[stage]}_state")
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
        if feat is not None and not self.screen.profile.has(feat):
            from lowering.errors import UnsupportedError

            raise UnsupportedError(f"{what}: the {stage.name} stage needs the host feature {feat!r} "
                                   f"(not on the {self.screen.profile.name} profile)")
        ir = parse(tokens)
        if ir.processor != STAGE_PROCESSOR[stage]:
            raise ShaderValidationError(
                f"{what}: TGSI header is {ir.processor}, expected {STAGE_PROCESSOR[stage]}")
        info = validate(ir)
        return ShaderCSO(self, stage, tokens, ir, info, getattr(state, "stream_output", None))

    def _bind_shader(self, stage: ShaderType, cso) -> None:
        if cso is not None:
            self._check_cso(cso, ShaderCSO, f"bind_{_SHORT[stage]}_state")
            if cso.stage != stage:
                raise InvalidArgumentError(
                    f"bind_{_SHORT[stage]}_state: the CSO is a {cso.stage.name} shader")
        if self.shaders[stage] is cso:
            return
        self.shaders[stage] = cso
        self.dirty |= Dirty.PROGRAM | Dirty.VERTEX | Dirty.SAMPLER_VIEWS | Dirty.CONSTANTS | Dirty.SYSVALS

    def _delete_shader(self, stage: ShaderType, cso) -> None:
        self._check_cso(cso, ShaderCSO, f"delete_{_SHORT[stage]}_state")
        if self.shaders[stage] is cso:
            # Gallium: deleting a bound CSO is a frontend bug; Mesa's drivers
            # unbind it.  glpipe unbinds so nothing dangles.
            self.shaders[stage] = None
            self.dirty |= Dirty.PROGRAM
        gl = self.gl
        for key in [k for k in self._programs if any(v is not None and v.cso is cso for v in k)]:
            prog = self._programs.pop(key)
            if self._program is prog:
                self._program = None
                self.dirty |= Dirty.PROGRAM
            gl.glDeleteProgram(prog.gl_program)
        for variant in cso.variants.values():
            gl.glDeleteShader(variant.gl_shader)
        cso.variants.clear()
        cso.destroyed = True

    # -- variants and programs ------------------------------------------------

    def _variant(self, cso: ShaderCSO, key):
        variant = cso.variants.get(key)
        if variant is None:
            variant = self._compile_variant(cso, key)
            cso.variants[key] = variant
        return variant

    def _compile_variant(self, cso: ShaderCSO, key) -> ShaderVariant:
        from lowering import to_glsl

        prof = self.screen.profile
        glsl = to_glsl(cso.ir, glsl_version=prof.glsl_version, key=key,
                       extensions=prof.extensions, bindings=self.bindings)
        gl = self.gl
        kind = _GL_SHADER_KIND[cso.stage](gl)
        shader = gl.glCreateShader(kind)
        gl.glShaderSource(shader, glsl.source)
        gl.glCompileShader(shader)
        if not gl.glGetShaderiv(shader, gl.GL_COMPILE_STATUS):
            log = gl.glGetShaderInfoLog(shader)
            gl.glDeleteShader(shader)
            log = log.decode(errors="replace") if isinstance(log, bytes) else str(log)
            # A lowering that emits GLSL the host rejects is a glpipe bug: say so.
            raise PipeError(f"internal error: the host rejected the GLSL lowered from this "
                            f"{cso.stage.name} shader:\n{log}\n--- GLSL ---\n{glsl.source}")
        self.screen.counters.shader_variants += 1
        return ShaderVariant(cso, key, glsl, int(shader))

    def _link(self, variants: tuple) -> Program:
        gl = self.gl
        prog = gl.glCreateProgram()
        for v in variants:
            if v is not None:
                gl.glAttachShader(prog, v.gl_shader)
        gl.glLinkProgram(prog)
        if not gl.glGetProgramiv(prog, gl.GL_LINK_STATUS):
            log = gl.glGetProgramInfoLog(prog)
            gl.glDeleteProgram(prog)
            log = log.decode(errors="replace") if isinstance(log, bytes) else str(log)
            stages = ", ".join(v.cso.stage.name for v in variants if v is not None)
            raise PipeError(f"internal error: the host could not link the lowered {stages} shaders:\n{log}")
        gl.glUseProgram(prog)
        for v in variants:
            if v is None:
                continue
            blocks, samplers, storage = _binding_tables(v.glsl.reflection)
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
        for v in variants:
            if v is not None:
                gl.glDetachShader(prog, v.gl_shader)
        self.host.check("linking a program")
        self.screen.counters.programs_linked += 1
        return Program(int(prog), variants)

    def _emit_program(self) -> None:
        """Select the variant of every bound graphics stage for the current
        state, and bind (linking on first use) their program."""
        variants = []
        for stage in GRAPHICS_STAGES:
            cso = self.shaders[stage]
            if cso is None:
                variants.append(None)
                continue
            variants.append(self._variant(cso, self._variant_key(stage, cso)))
        key = tuple(variants)
        prog = self._programs.get(key)
        if prog is None:
            if variants[0] is None:
                raise InvalidArgumentError("draw_vbo: no vertex shader is bound")
            prog = self._link(key)
            self._programs[key] = prog
        if prog is not self._program:
            self.gl.glUseProgram(prog.gl_program)
            self._program = prog

    def _destroy_shaders(self) -> None:
        gl = self.gl
        for prog in self._programs.values():
            gl.glDeleteProgram(prog.gl_program)
        self._programs.clear()
        self._program = None


def _check_cso_alive(cso, what: str) -> None:
    if cso.destroyed:
        raise ObjectDestroyedError(f"{what}: the state object was deleted")


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

        def create(self, state, _stage=stage):
            return self._create_shader(_stage, state)

        def bind(self, cso, _stage=stage):
            self._bind_shader(_stage, cso)

        def delete(self, cso, _stage=stage):
            self._delete_shader(_stage, cso)

        create.__doc__ = f"pipe_context::create_{short}_state: parse and validate TGSI once."
        bind.__doc__ = f"pipe_context::bind_{short}_state (None unbinds)."
        delete.__doc__ = f"pipe_context::delete_{short}_state (unbinds it if bound)."
        for name, fn in ((f"create_{short}_state", create), (f"bind_{short}_state", bind),
                         (f"delete_{short}_state", delete)):
            fn.__name__ = name
            methods[name] = fn
        methods[f"destroy_{short}_state"] = delete  # the spec's spelling
    return methods


for _name, _fn in _make_stage_methods().items():
    setattr(ShaderMixin, _name, _fn)

__all__ = ["ShaderCSO", "ShaderVariant", "Program", "ShaderMixin", "STAGE_PROCESSOR", "GRAPHICS_STAGES"]
