"""Run one fuzzed TGSI program through glpipe and classify what happened.

``lower`` takes a program through parse, validate and the GLSL emitter (at
GLSL 450 with the goldens' extensions and at 330 with none); ``HostDraw``
also creates it with glpipe on a screen and draws one triangle with the
stages it needs around it (a VS writing POSITION, a constant FS, a pass-
through TCS / TES), so the host compiles and links it.  Only PipeError
subclasses may come out; a PipeError that says "internal error" (the host
rejected / could not link what the validator passed) is a glpipe bug, as is
any other exception.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict

import numpy as np

from lowering import parse, to_glsl, validate
from lowering.errors import PipeError

# The 450 goldens' extension set (tests/lowering/golden_cases.py): fixed, not the host's.
EXTENSIONS_450 = frozenset(
    {
        "GL_ARB_gpu_shader_int64",
        "GL_ARB_shader_ballot",
        "GL_ARB_shader_clock",
        "GL_ARB_shader_stencil_export",
        "GL_EXT_shader_framebuffer_fetch",
        "GL_ARB_shader_group_vote",
        "GL_ARB_shader_draw_parameters",
        "GL_ARB_shader_viewport_layer_array",
        "GL_ARB_post_depth_coverage",
        "GL_ARB_shader_atomic_counter_ops",
        "GL_EXT_texture_shadow_lod",
        "GL_NV_shader_atomic_float",
        "GL_EXT_demote_to_helper_invocation",
    }
)

# Outcomes, in the order the script prints them.
REFUSED, LOWERED, COMPILED, DRAWN = "refused", "lowered", "compiled", "drawn"


class InternalError(AssertionError):
    """The host rejected or could not link what the validator passed (a glpipe bug)."""


# The reason of the last refusal (``reason``), which scripts/fuzz_tgsi.py
# counts in its refusal histogram: the outcome key only names the class.
LAST_REASON: list[str] = [""]

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBERS = re.compile(r"\d+")


def reason(exc: PipeError) -> str:
    """A refusal's reason for a histogram: the class and the message with
    quoted text and numbers blanked (one key per rule, not per program),
    cut at 90 characters."""
    text = _NUMBERS.sub("N", _QUOTED.sub("'..'", str(exc).split("\n", 1)[0]))
    return f"{type(exc).__name__}: {text[:90]}"


def refusal(exc: PipeError) -> str:
    """The outcome key of a refusal: ``refused:<class>``; raises InternalError
    for glpipe's "internal error" PipeErrors."""
    if "internal error" in str(exc):
        raise InternalError(str(exc)[:4000]) from exc
    LAST_REASON[0] = reason(exc)
    return f"{REFUSED}:{type(exc).__name__}"


def lower(text: str) -> str:
    """Parse, validate and lower ``text`` at GLSL 450 and 330; the outcome key.
    Exceptions other than PipeError propagate (they are the findings)."""
    try:
        info = validate(parse(text))
    except PipeError as exc:
        return refusal(exc)
    outcome = LOWERED
    for version, extensions in ((450, EXTENSIONS_450), (330, frozenset())):
        try:
            to_glsl(info, glsl_version=version, extensions=extensions)
        except PipeError as exc:
            outcome = refusal(exc) if version == 450 else outcome
    return outcome


VS = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n"
FS = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n"
TCS = (
    "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\nDCL SV[0], INVOCATIONID\n"
    "DCL OUT[][0], POSITION\nDCL OUT[1], TESSOUTER\nDCL OUT[2], TESSINNER\nDCL ADDR[0]\n"
    "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n  0: UARL ADDR[0].x, SV[0].xxxx\n"
    "  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n  2: MOV OUT[1], IMM[0]\n  3: MOV OUT[2], IMM[0]\n  4: END\n"
)
TES = (
    "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nDCL IN[][0], POSITION\nDCL SV[0], TESSCOORD\n"
    "DCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MUL TEMP[0], SV[0].xxxx, IN[0][0]\n"
    "  1: MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]\n  2: MAD OUT[0], SV[0].zzzz, IN[2][0], TEMP[0]\n  3: END\n"
)
# The stages drawn around a program of each processor (the program fills its own slot).
_PIPELINES = {
    "VERT": ("vs", "fs"),
    "FRAG": ("vs", "fs"),
    "GEOM": ("vs", "gs", "fs"),
    "TESS_CTRL": ("vs", "tcs", "tes", "fs"),
    "TESS_EVAL": ("vs", "tcs", "tes", "fs"),
}
_PARTNERS = {"vs": VS, "fs": FS, "tcs": TCS, "tes": TES}
_GS_DRAW = {
    "POINTS": (0, 1),
    "LINES": (1, 2),
    "TRIANGLES": (4, 3),
    "LINES_ADJACENCY": (10, 4),
    "TRIANGLES_ADJACENCY": (12, 6),
}  # GS_INPUT_PRIMITIVE -> (PIPE_PRIM_*, vertices)
_SLOT = {"VERT": "vs", "FRAG": "fs", "GEOM": "gs", "TESS_CTRL": "tcs", "TESS_EVAL": "tes"}


class HostDraw:
    """A glpipe screen and context on ``profile`` drawing fuzzed programs."""

    def __init__(self, profile: str, screen=None) -> None:
        import glpipe

        self.glpipe = glpipe
        self.screen = screen if screen is not None else glpipe.create_screen(profile=profile)
        self.ctx = self.screen.context_create()
        # Seconds spent creating shaders (lowering for the host and compiling)
        # and drawing (linking and drawing), for scripts/fuzz_tgsi.py --timing.
        self.timing: defaultdict[str, float] = defaultdict(float)
        self._setup()

    def _setup(self) -> None:
        g, ctx, screen = self.glpipe, self.ctx, self.screen
        color = screen.resource_create(
            g.ResourceTemplate(format=g.Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=g.Bind.RENDER_TARGET)
        )
        surf = ctx.create_surface(color, g.SurfaceTemplate(format=color.format))
        ctx.set_framebuffer_state(g.FramebufferState(width=4, height=4, cbufs=(surf,)))
        ctx.set_viewport_states(0, [g.ViewportState(scale=(2, 2, 0.5), translate=(2, 2, 0.5))])
        ctx.bind_rasterizer_state(ctx.create_rasterizer_state(g.RasterizerState()))
        ctx.bind_vertex_elements_state(
            ctx.create_vertex_elements_state(
                [g.VertexElement(src_format=g.Format.R32G32B32A32_FLOAT) for _ in range(4)]
            )
        )
        tri = np.array([(-1, -1, 0, 1), (3, -1, 0, 1), (-1, 3, 0, 1)] * 2, np.float32)
        ctx.set_vertex_buffers([g.VertexBuffer(buffer=tri, stride=16)])
        if self.screen.profile.has("tessellation_shader"):
            ctx.set_patch_vertices(3)
        self._partners: dict[str, object] = {}

    def _partner(self, slot: str):
        cso = self._partners.get(slot)
        if cso is None:
            cso = getattr(self.ctx, f"create_{slot}_state")(self.glpipe.ShaderState(tokens=_PARTNERS[slot]))
            self._partners[slot] = cso
        return cso

    def run(self, text: str) -> str:
        """Create ``text`` as a shader of its processor and draw with it; the
        outcome key.  InternalError on an "internal error"; other exceptions
        propagate."""
        g, ctx = self.glpipe, self.ctx
        try:
            proc = parse(text).processor
        except PipeError as exc:
            return refusal(exc)
        if proc == "COMP":
            return self._compile_compute(text)
        slot = _SLOT[proc]
        mine = None
        try:
            started = time.perf_counter()
            try:
                mine = getattr(ctx, f"create_{slot}_state")(g.ShaderState(tokens=text))
            except PipeError as exc:
                return refusal(exc)
            finally:
                self.timing["create"] += time.perf_counter() - started
            bound = []
            for stage in ("vs", "tcs", "tes", "gs", "fs"):
                cso = None
                if stage == slot:
                    cso = mine
                elif stage in _PIPELINES[proc]:
                    cso = self._partner(stage)
                getattr(ctx, f"bind_{stage}_state")(cso) if hasattr(ctx, f"bind_{stage}_state") else None
                bound.append(cso)
            mode, count = g.Prim.TRIANGLES, 3
            if proc in ("TESS_CTRL", "TESS_EVAL"):
                mode = g.Prim.PATCHES
            elif proc == "GEOM":
                # The mode the GS's input primitive takes (GL: another one is GL_INVALID_OPERATION).
                prim = str(parse(text).property("GS_INPUT_PRIMITIVE", "TRIANGLES"))
                mode, count = _GS_DRAW.get(prim, (g.Prim.TRIANGLES, 3))
            started = time.perf_counter()
            try:
                ctx.draw_vbo(g.DrawInfo(mode=mode, count=count))
            except PipeError as exc:
                return refusal(exc)
            finally:
                self.timing["draw"] += time.perf_counter() - started
            return DRAWN
        finally:
            for stage in ("vs", "tcs", "tes", "gs", "fs"):
                if hasattr(ctx, f"bind_{stage}_state"):
                    getattr(ctx, f"bind_{stage}_state")(None)
            if mine is not None:
                getattr(ctx, f"delete_{slot}_state")(mine)

    def _compile_compute(self, text: str) -> str:
        """A compute program: lowered for this screen's GLSL and compiled on its
        host (the context has no compute entry points to create it with)."""
        screen = self.screen
        prof = screen.profile
        try:
            info = validate(parse(text))
            glsl = to_glsl(info, glsl_version=prof.glsl_version, extensions=prof.extensions)
        except PipeError as exc:
            return refusal(exc)
        if not prof.has("compute_shader"):
            return f"{REFUSED}:no compute_shader"
        gl = screen.host.gl
        screen.host.make_current()
        started = time.perf_counter()
        shader = gl.glCreateShader(gl.GL_COMPUTE_SHADER)
        try:
            gl.glShaderSource(shader, glsl.source)
            gl.glCompileShader(shader)
            if not gl.glGetShaderiv(shader, gl.GL_COMPILE_STATUS):
                log = gl.glGetShaderInfoLog(shader)
                raise InternalError(f"internal error: the host rejected a compute shader:\n{log}\n{glsl.source}")
        finally:
            gl.glDeleteShader(shader)
            self.timing["create"] += time.perf_counter() - started
        return COMPILED

    def close(self) -> None:
        """Destroy the context (the screen stays: tests share it)."""
        self.ctx.destroy()


__all__ = [
    "lower",
    "HostDraw",
    "InternalError",
    "LAST_REASON",
    "reason",
    "refusal",
    "REFUSED",
    "LOWERED",
    "COMPILED",
    "DRAWN",
]
