"""Draw-path speed: glpipe next to raw ModernGL doing the same GL work.

    python benchmarks/bench_draw.py [--profile native|gl33|all] [--draws 10000] [--reps 7]
                                    [--json | --markdown]

Three measurements, in one process, glpipe and raw ModernGL side by side:

(a) **no state change**: ``draws`` draws of one small triangle into a 16x16
    RGBA8 framebuffer (with a 24-bit depth buffer), nothing changing between
    them.  glpipe: ``ctx.draw_vbo(info)``; raw: ``vao.render(TRIANGLES, 3)``.
(b) **one CSO switch per draw**: before every draw, one state object
    alternates between two prebuilt ones -- blend, depth/stencil/alpha,
    rasterizer, fragment shader, vertex elements, sampler view.  Raw
    ModernGL switches the same GL state its own way, minimally: an enable
    flag (``ctx.enable/disable``), a second program (a second VAO, since a
    ModernGL VAO belongs to one program), a second VAO layout, a second
    texture (``tex.use(0)``).
(c) **redundant binds**: every bind_* / set_* given what is already bound,
    ``draws`` times each, with every GL entry point glpipe can reach wrapped
    to count calls (benchmarks/gl_call_counter.py).  Target: zero GL calls;
    the draw after them must make exactly one (the draw itself).  A control
    (a real switch, then a draw) shows the counter sees calls.

Targets (issue 4): (a) <= 1.5x raw per draw, (b) <= 2x, (c) zero GL calls.

Method.  glpipe and raw ModernGL each have their own headless EGL context
(llvmpipe), so neither disturbs the other's GL state; the timed loops switch
contexts only between repetitions.  The GPU work is equal and tiny (one
~30-pixel triangle per draw, same formats, same shader arithmetic), so what
is measured is the CPU cost of issuing draws: Python, ModernGL's C code and
Mesa's GL front end.  Each timed loop ends with glFinish; each side is
warmed up first (shader variants compiled, programs linked, framebuffers
made); repetitions alternate glpipe / raw and the best of ``reps`` is kept;
the garbage collector is off while a loop runs.  The ``DrawInfo`` is built
once, outside the loop, as a C frontend fills one pipe_draw_info on the
stack (building a frozen dataclass per draw would measure the template,
not the driver).

The benchmark measures the glpipe of the working tree it sits in (the
repository root goes first on sys.path), so it can be rerun after a change
without reinstalling.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

# Before any GL context exists: glpipe makes its driver settings when it is
# imported (glpipe/host/preload.py), and raw ModernGL must run on the same
# driver for the ratios to mean anything (no PreloadWarning either).
import glpipe

try:  # imported as benchmarks.bench_draw (tests) or run as a script
    from .gl_call_counter import GLCallCounter
except ImportError:
    from gl_call_counter import GLCallCounter

SIZE = 16  # framebuffer width and height

TARGETS = {"a": 1.5, "b": 2.0}

# -- shaders: TGSI for glpipe, the same arithmetic in GLSL for raw ModernGL ----------------

TGSI_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""
TGSI_FS_COLOR = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""
TGSI_FS_HALF = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
IMM[0] FLT32 {    0.5000,    0.5000,    0.5000,    1.0000}
  0: MUL OUT[0], IN[0], IMM[0]
  1: END
"""
TGSI_FS_TEX = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: END
"""

GLSL_VS = """#version 330
layout(location = 0) in vec4 in_pos;
layout(location = 1) in vec4 in_color;
out vec4 v_color;
void main() { gl_Position = in_pos; v_color = in_color; }
"""
GLSL_FS_COLOR = """#version 330
in vec4 v_color;
layout(location = 0) out vec4 frag;
void main() { frag = v_color; }
"""
GLSL_FS_HALF = """#version 330
in vec4 v_color;
layout(location = 0) out vec4 frag;
void main() { frag = v_color * vec4(0.5, 0.5, 0.5, 1.0); }
"""
GLSL_FS_TEX = """#version 330
uniform sampler2D tex;
in vec4 v_color;
layout(location = 0) out vec4 frag;
void main() { frag = texture(tex, v_color.xy); }
"""

# One counter-clockwise triangle: position, colour A, colour B (the second
# vertex-elements layout reads colour B).  "visible": ~30 pixels of the 16x16
# framebuffer.  "culled" (the default): the same triangle moved right of the
# viewport, so every draw runs the whole GL draw path (state validation,
# vertex fetch, vertex shader, clipping) on both sides but llvmpipe's
# rasterizer threads get no fragments to shade (docs/performance.md: on a
# 2-core machine they compete with Python and make visible timings bimodal).
_TRIANGLE = np.array(
    [
        [-0.5, -0.5, 0.5, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0],
        [0.5, -0.5, 0.5, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0],
        [0.0, 0.5, 0.5, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0],
    ],
    dtype=np.float32,
)
GEOMETRY = {
    "visible": _TRIANGLE,
    "culled": _TRIANGLE + np.array([3.0] + [0.0] * 11, np.float32),  # x in 2.5..3.5: outside the clip volume
}
STRIDE = _TRIANGLE.strides[0]


class Unavailable(Exception):
    """A case this glpipe (or profile) cannot run; the reason goes in the report."""


# -- the glpipe side -----------------------------------------------------------------------


class GlpipeSide:
    """A glpipe screen + context with everything the cases bind, prebuilt."""

    def __init__(self, profile: str, vertices: np.ndarray):
        from glpipe import (
            Bind,
            Blend,
            BlendFactor,
            BlendState,
            Box,
            DepthStencilAlphaState,
            DrawInfo,
            Format,
            FramebufferState,
            Func,
            Map,
            Prim,
            ResourceTemplate,
            RTBlendState,
            SamplerState,
            SamplerViewTemplate,
            ShaderState,
            ShaderType,
            SurfaceTemplate,
            Target,
            TexFilter,
            TexMipFilter,
            VertexBuffer,
            VertexElement,
            ViewportState,
        )

        self.glpipe = glpipe
        self.screen = screen = glpipe.create_screen(profile=profile)
        self.ctx = ctx = screen.context_create()
        self.gl = screen.host.gl
        self.FRAGMENT = ShaderType.FRAGMENT
        tex2d = Target.TEXTURE_2D
        self.color = screen.resource_create(
            ResourceTemplate(
                target=tex2d, format=Format.R8G8B8A8_UNORM, width0=SIZE, height0=SIZE, bind=Bind.RENDER_TARGET
            )
        )
        self.depth = screen.resource_create(
            ResourceTemplate(
                target=tex2d, format=Format.Z24X8_UNORM, width0=SIZE, height0=SIZE, bind=Bind.DEPTH_STENCIL
            )
        )
        self.fb = FramebufferState(
            width=SIZE,
            height=SIZE,
            cbufs=(ctx.create_surface(self.color, SurfaceTemplate(format=Format.R8G8B8A8_UNORM)),),
            zsbuf=ctx.create_surface(self.depth, SurfaceTemplate(format=Format.Z24X8_UNORM)),
        )
        self.viewports = [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))]

        self.vs = ctx.create_vs_state(ShaderState(tokens=TGSI_VS))
        self.fs_color = ctx.create_fs_state(ShaderState(tokens=TGSI_FS_COLOR))
        self.fs_half = ctx.create_fs_state(ShaderState(tokens=TGSI_FS_HALF))
        self.fs_tex = ctx.create_fs_state(ShaderState(tokens=TGSI_FS_TEX))
        f4 = Format.R32G32B32A32_FLOAT
        self.velems_a = ctx.create_vertex_elements_state(
            [VertexElement(src_offset=0, src_format=f4), VertexElement(src_offset=16, src_format=f4)]
        )
        self.velems_b = ctx.create_vertex_elements_state(
            [VertexElement(src_offset=0, src_format=f4), VertexElement(src_offset=32, src_format=f4)]
        )
        self.vbuf = screen.resource_create(
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=vertices.nbytes, bind=Bind.VERTEX_BUFFER
            )
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, vertices)
        self.vertex_buffers = [VertexBuffer(buffer=self.vbuf, stride=STRIDE)]

        self.blend_off = ctx.create_blend_state(BlendState())
        self.blend_alpha = ctx.create_blend_state(
            BlendState(
                rt=[
                    RTBlendState(
                        blend_enable=True,
                        rgb_func=Blend.ADD,
                        alpha_func=Blend.ADD,
                        rgb_src_factor=BlendFactor.SRC_ALPHA,
                        rgb_dst_factor=BlendFactor.INV_SRC_ALPHA,
                        alpha_src_factor=BlendFactor.SRC_ALPHA,
                        alpha_dst_factor=BlendFactor.INV_SRC_ALPHA,
                    )
                ]
            )
        )
        self.dsa_off = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState())
        self.dsa_depth = ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS)
        )
        self.has_rasterizer = hasattr(ctx, "create_rasterizer_state")
        if self.has_rasterizer:
            from glpipe import Face, RasterizerState

            # front_ccw False is glFrontFace(GL_CCW), the baseline's front_face "ccw"
            # (Gallium judges winding with window y down: docs/rasterizer.md "Winding").
            self.rast_a = ctx.create_rasterizer_state(RasterizerState(front_ccw=False, cull_face=Face.NONE))
            self.rast_b = ctx.create_rasterizer_state(RasterizerState(front_ccw=False, cull_face=Face.BACK))
        self.sampler = ctx.create_sampler_state(
            SamplerState(
                min_img_filter=TexFilter.NEAREST, mag_img_filter=TexFilter.NEAREST, min_mip_filter=TexMipFilter.NONE
            )
        )
        self.views = []
        for seed in (1, 2):
            tex = screen.resource_create(
                ResourceTemplate(
                    target=tex2d, format=Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=Bind.SAMPLER_VIEW
                )
            )
            texels = np.random.default_rng(seed).integers(0, 256, (4, 4, 4), dtype=np.uint8)
            ctx.texture_subdata(tex, 0, Map.WRITE, Box(width=4, height=4, depth=1), texels, 16, 64)
            self.views.append(
                ctx.create_sampler_view(tex, SamplerViewTemplate(format=Format.R8G8B8A8_UNORM, target=tex2d))
            )
        self.view_lists = ([self.views[0]], [self.views[1]])
        self.info = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)

    def make_current(self) -> None:
        """Make glpipe's GL context current (the raw side may have been)."""
        self.screen.host.mgl.__enter__()

    def finish(self) -> None:
        self.gl.glFinish()

    def baseline(self) -> None:
        """The state every case starts from (case (a)'s state)."""
        ctx = self.ctx
        ctx.set_framebuffer_state(self.fb)
        ctx.set_viewport_states(0, self.viewports)
        ctx.bind_blend_state(self.blend_off)
        ctx.bind_depth_stencil_alpha_state(self.dsa_off)
        if self.has_rasterizer:
            ctx.bind_rasterizer_state(self.rast_a)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs_color)
        ctx.bind_vertex_elements_state(self.velems_a)
        ctx.set_vertex_buffers(self.vertex_buffers)
        ctx.bind_sampler_states(self.FRAGMENT, 0, [self.sampler])
        ctx.set_sampler_views(self.FRAGMENT, 0, self.view_lists[0])
        ctx.draw_vbo(self.info)  # emit it all now, outside any timed loop

    def destroy(self) -> None:
        self.screen.destroy()


# -- the raw ModernGL side ------------------------------------------------------------------


class RawSide:
    """A standalone ModernGL context with the same framebuffer, buffer,
    programs, layouts and textures."""

    def __init__(self, vertices: np.ndarray):
        import moderngl

        self.mgl = mgl = moderngl.create_context(standalone=True, backend="egl")
        self.moderngl = moderngl
        self.fbo = mgl.framebuffer(
            color_attachments=[mgl.texture((SIZE, SIZE), 4)], depth_attachment=mgl.depth_texture((SIZE, SIZE))
        )
        self.buf = mgl.buffer(vertices.tobytes())
        prog_color = mgl.program(vertex_shader=GLSL_VS, fragment_shader=GLSL_FS_COLOR)
        prog_half = mgl.program(vertex_shader=GLSL_VS, fragment_shader=GLSL_FS_HALF)
        prog_tex = mgl.program(vertex_shader=GLSL_VS, fragment_shader=GLSL_FS_TEX)
        prog_tex["tex"] = 0
        layout_a = [(self.buf, "4f 4f 4x4", "in_pos", "in_color")]
        layout_b = [(self.buf, "4f 4x4 4f", "in_pos", "in_color")]
        self.vao_color = mgl.vertex_array(prog_color, layout_a)
        self.vao_color_b = mgl.vertex_array(prog_color, layout_b)
        self.vao_half = mgl.vertex_array(prog_half, layout_a)
        self.vao_tex = mgl.vertex_array(prog_tex, layout_a)
        self.textures = []
        for seed in (1, 2):
            texels = np.random.default_rng(seed).integers(0, 256, (4, 4, 4), dtype=np.uint8)
            self.textures.append(mgl.texture((4, 4), 4, texels.tobytes()))
        self.sampler = mgl.sampler(filter=(moderngl.NEAREST, moderngl.NEAREST))
        self.objects = [
            self.fbo,
            self.buf,
            prog_color,
            prog_half,
            prog_tex,
            self.vao_color,
            self.vao_color_b,
            self.vao_half,
            self.vao_tex,
            self.sampler,
            *self.textures,
        ]

    def make_current(self) -> None:
        self.mgl.__enter__()

    def finish(self) -> None:
        self.mgl.finish()

    def baseline(self) -> None:
        mgl, m = self.mgl, self.moderngl
        self.fbo.use()
        mgl.disable(m.BLEND | m.DEPTH_TEST | m.CULL_FACE)
        mgl.blend_func = m.SRC_ALPHA, m.ONE_MINUS_SRC_ALPHA
        mgl.depth_func = "<"
        mgl.front_face = "ccw"
        mgl.cull_face = "back"
        self.sampler.use(0)
        self.textures[0].use(0)
        self.vao_color.render(m.TRIANGLES, 3)

    def destroy(self) -> None:
        for obj in self.objects:
            obj.release()
        self.mgl.release()


# -- cases ----------------------------------------------------------------------------------
# Each returns (glpipe loop, raw loop); a loop issues n draws (n even).


def case_no_change(g: GlpipeSide, r: RawSide):
    info = g.info

    def glpipe_loop(n):
        draw = g.ctx.draw_vbo
        for _ in range(n):
            draw(info)

    def raw_loop(n):
        render, mode = r.vao_color.render, r.moderngl.TRIANGLES
        for _ in range(n):
            render(mode, 3)

    return glpipe_loop, raw_loop


def _switch_glpipe(g: GlpipeSide, bind, a, b):
    """The glpipe loop of a switch case; ``loop.bind_only`` runs the binds
    alone (no draws), to split a draw's time into bind / draw / emit."""
    info = g.info

    def loop(n):
        draw = g.ctx.draw_vbo
        for _ in range(n // 2):
            bind(a)
            draw(info)
            bind(b)
            draw(info)

    def bind_only(n):
        for _ in range(n // 2):
            bind(a)
            bind(b)
        g.ctx.draw_vbo(info)  # emit what the binds left dirty (timed too: one draw in n)

    loop.bind_only = bind_only
    return loop


def _toggle_raw(r: RawSide, flag):
    def loop(n):
        render, mode = r.vao_color.render, r.moderngl.TRIANGLES
        enable, disable = r.mgl.enable, r.mgl.disable
        for _ in range(n // 2):
            disable(flag)
            render(mode, 3)
            enable(flag)
            render(mode, 3)

    return loop


def case_blend(g, r):
    return _switch_glpipe(g, g.ctx.bind_blend_state, g.blend_off, g.blend_alpha), _toggle_raw(r, r.moderngl.BLEND)


def case_dsa(g, r):
    return (
        _switch_glpipe(g, g.ctx.bind_depth_stencil_alpha_state, g.dsa_off, g.dsa_depth),
        _toggle_raw(r, r.moderngl.DEPTH_TEST),
    )


def case_rasterizer(g, r):
    if not g.has_rasterizer:
        raise Unavailable("this glpipe has no create_rasterizer_state yet")
    return (_switch_glpipe(g, g.ctx.bind_rasterizer_state, g.rast_a, g.rast_b), _toggle_raw(r, r.moderngl.CULL_FACE))


def _two_vaos(r: RawSide, vao_a, vao_b):
    def loop(n):
        render_a, render_b, mode = vao_a.render, vao_b.render, r.moderngl.TRIANGLES
        for _ in range(n // 2):
            render_a(mode, 3)
            render_b(mode, 3)

    return loop


def case_fs(g, r):
    return _switch_glpipe(g, g.ctx.bind_fs_state, g.fs_color, g.fs_half), _two_vaos(r, r.vao_color, r.vao_half)


def case_velems(g, r):
    return (
        _switch_glpipe(g, g.ctx.bind_vertex_elements_state, g.velems_a, g.velems_b),
        _two_vaos(r, r.vao_color, r.vao_color_b),
    )


def case_sampler_view(g, r):
    g.ctx.bind_fs_state(g.fs_tex)
    g.ctx.draw_vbo(g.info)
    # set_sampler_views(FRAGMENT, 0, views) with the first two arguments
    # bound in C (functools.partial), so the loop pays for the call a
    # program makes and not for a Python wrapper frame of the benchmark's.
    bind = functools.partial(g.ctx.set_sampler_views, g.FRAGMENT, 0)

    # The raw side's warm-up draw on its own context: ModernGL objects never
    # check which context is current, and this one would run its program and
    # VAO names on glpipe's (GL errors and bindings behind glpipe's shadows).
    r.make_current()
    r.vao_tex.render(r.moderngl.TRIANGLES, 3)
    g.make_current()
    tex_a, tex_b = r.textures

    def raw_loop(n):
        render, mode = r.vao_tex.render, r.moderngl.TRIANGLES
        use_a, use_b = tex_a.use, tex_b.use
        for _ in range(n // 2):
            use_a(0)
            render(mode, 3)
            use_b(0)
            render(mode, 3)

    return _switch_glpipe(g, bind, *g.view_lists), raw_loop


CASES = (
    ("a", "no_change", "no state change", case_no_change),
    ("b", "blend", "switch blend CSO", case_blend),
    ("b", "dsa", "switch depth/stencil/alpha CSO", case_dsa),
    ("b", "rasterizer", "switch rasterizer CSO", case_rasterizer),
    ("b", "fs", "switch fragment shader", case_fs),
    ("b", "vertex_elements", "switch vertex elements CSO", case_velems),
    ("b", "sampler_view", "switch sampler view", case_sampler_view),
)


def _timed(side, loop, n: int) -> float:
    side.make_current()
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        loop(n)
        side.finish()
        return time.perf_counter() - t0
    finally:
        gc.enable()


def run_case(g, r, setup, draws: int, reps: int) -> dict:
    """Time one case: warm up both sides, then alternate best-of-``reps``."""
    g.make_current()
    g.baseline()
    r.make_current()
    r.baseline()
    g.make_current()
    glpipe_loop, raw_loop = setup(g, r)
    warm = max(2, min(draws, 1000)) & ~1
    _timed(g, glpipe_loop, warm)
    _timed(r, raw_loop, warm)
    bind_only = getattr(glpipe_loop, "bind_only", None)
    best_g = best_r = best_bind = float("inf")
    for _ in range(reps):
        best_g = min(best_g, _timed(g, glpipe_loop, draws))
        best_r = min(best_r, _timed(r, raw_loop, draws))
        if bind_only is not None:
            best_bind = min(best_bind, _timed(g, bind_only, draws))
    # GL calls glpipe makes per draw in this loop (after warm-up), counted apart from timing.
    g.make_current()
    with GLCallCounter(g.ctx, g.screen, g.screen.host) as counter:
        glpipe_loop(8)
    row = {
        "glpipe_us": best_g / draws * 1e6,
        "raw_us": best_r / draws * 1e6,
        "ratio": best_g / best_r,
        "glpipe_gl_calls_per_draw": counter.count / 8,
    }
    if bind_only is not None:
        row["bind_us"] = best_bind / draws * 1e6  # one bind_* call (plus 1/n of a draw)
    return row


# -- (c) redundant binds ------------------------------------------------------------------------


def redundant_binds(g: GlpipeSide, r: RawSide, n: int, reps: int) -> dict:
    """Every bind / set of what is already bound: GL calls and time per call."""

    ctx, frag = g.ctx, g.FRAGMENT
    g.make_current()
    g.baseline()
    blend_color = (0.0, 0.0, 0.0, 0.0)
    stencil_ref = glpipe.StencilRef()
    ctx.set_blend_color(blend_color)
    ctx.set_stencil_ref(stencil_ref)
    ctx.set_sample_mask(0xFFFFFFFF)
    ctx.draw_vbo(g.info)
    samplers = [g.sampler]
    kinds = [
        ("bind_blend_state", ctx.bind_blend_state, (g.blend_off,)),
        ("bind_depth_stencil_alpha_state", ctx.bind_depth_stencil_alpha_state, (g.dsa_off,)),
        ("bind_vs_state", ctx.bind_vs_state, (g.vs,)),
        ("bind_fs_state", ctx.bind_fs_state, (g.fs_color,)),
        ("bind_vertex_elements_state", ctx.bind_vertex_elements_state, (g.velems_a,)),
        ("bind_sampler_states", ctx.bind_sampler_states, (frag, 0, samplers)),
        ("set_sampler_views", ctx.set_sampler_views, (frag, 0, g.view_lists[0])),
        ("set_vertex_buffers", ctx.set_vertex_buffers, (g.vertex_buffers,)),
        ("set_framebuffer_state", ctx.set_framebuffer_state, (g.fb,)),
        ("set_viewport_states", ctx.set_viewport_states, (0, g.viewports)),
        ("set_blend_color", ctx.set_blend_color, (blend_color,)),
        ("set_stencil_ref", ctx.set_stencil_ref, (stencil_ref,)),
        ("set_sample_mask", ctx.set_sample_mask, (0xFFFFFFFF,)),
    ]
    if g.has_rasterizer:
        kinds.insert(2, ("bind_rasterizer_state", ctx.bind_rasterizer_state, (g.rast_a,)))
    rows = []
    with GLCallCounter(ctx, g.screen, g.screen.host) as counter:
        for name, fn, args in kinds:
            before = counter.count
            for _ in range(n):
                fn(*args)
            rows.append({"call": name, "gl_calls": counter.count - before})
        before = counter.count
        ctx.draw_vbo(g.info)
        draw_after = counter.calls[before:]
        before = counter.count
        ctx.bind_blend_state(g.blend_alpha)  # control: a real switch must be seen making calls
        ctx.draw_vbo(g.info)
        control = counter.count - before
        ctx.bind_blend_state(g.blend_off)
        ctx.draw_vbo(g.info)
    for row, (_name, fn, args) in zip(rows, kinds, strict=True):
        best = float("inf")
        for _ in range(reps):
            gc.disable()
            t0 = time.perf_counter()
            for _ in range(n):
                fn(*args)
            best = min(best, time.perf_counter() - t0)
            gc.enable()
        row["us_per_call"] = best / n * 1e6
    # Reference: one GL state call through ModernGL (what re-setting state costs raw).
    r.make_current()
    enable, flag = r.mgl.enable, r.moderngl.BLEND
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            enable(flag)
        best = min(best, time.perf_counter() - t0)
    r.baseline()
    g.make_current()
    return {
        "binds": rows,
        "total_gl_calls": sum(row["gl_calls"] for row in rows),
        "repeats": n,
        "draw_after_gl_calls": len(draw_after),
        "draw_after_calls": draw_after,
        "control_gl_calls": control,
        "raw_gl_state_call_us": best / n * 1e6,
    }


# -- reporting --------------------------------------------------------------------------------


def machine_info(screens) -> dict:
    """CPU, cores, host GL and library versions."""
    import moderngl
    import OpenGL

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    prof = screens[0].profile
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "gl_renderer": prof.renderer,
        "gl_version": prof.version_string,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "moderngl": moderngl.__version__,
        "pyopengl": OpenGL.__version__,
        "platform": platform.platform(),
    }


def run(profiles, draws: int, reps: int, redundant: int, geometry: str = "culled", cases=None) -> dict:
    """Run the cases (default: all) on every profile; returns the results as a dict."""
    draws = max(2, draws) & ~1
    vertices = GEOMETRY[geometry]
    raw = RawSide(vertices)  # made first: each side makes its own context current before use
    results = {"draws": draws, "reps": reps, "geometry": geometry, "targets": TARGETS, "profiles": {}}
    sides = []
    try:
        for profile in profiles:
            g = GlpipeSide(profile, vertices)
            sides.append(g)
            rows = []
            for group, key, label, setup in CASES:
                if cases is not None and key not in cases:
                    continue
                row = {"group": group, "case": key, "label": label, "target": TARGETS[group]}
                try:
                    row.update(run_case(g, raw, setup, draws, reps))
                    row["met"] = row["ratio"] <= row["target"]
                except Unavailable as exc:
                    row["unavailable"] = str(exc)
                rows.append(row)
            results["profiles"][profile] = {
                "gl_version": g.screen.profile.gl_version,
                "cases": rows,
                "redundant": redundant_binds(g, raw, redundant, reps),
            }
        results["machine"] = machine_info([s.screen for s in sides])
        import glpipe

        results["glpipe"] = str(Path(glpipe.__file__).parent)
    finally:
        for g in sides:
            g.make_current()
            g.destroy()
        raw.make_current()
        raw.destroy()
    return results


def _split(row: dict, fast_draw_us: float) -> str:
    """'bind + draw + emit' µs of a switch case (emit = what the dirty state costs the next draw)."""
    if "bind_us" not in row:
        return "–"
    emit = row["glpipe_us"] - row["bind_us"] - fast_draw_us
    return f"{row['bind_us']:.2f} + {fast_draw_us:.2f} + {emit:.2f}"


def format_markdown(results: dict) -> str:
    """The tables of docs/performance.md for these results."""
    m = results["machine"]
    out = [
        (
            f"Machine: {m['cpu']}, {m['cores']} cores; {m['gl_renderer']}, GL {m['gl_version']}; "
            f"Python {m['python']}, numpy {m['numpy']}, moderngl {m['moderngl']}, PyOpenGL {m['pyopengl']}. "
            f"{results['draws']} draws per loop, best of {results['reps']}, {results['geometry']} geometry."
        ),
        "",
    ]
    for profile, data in results["profiles"].items():
        fast = next((r["glpipe_us"] for r in data["cases"] if r["case"] == "no_change" and "glpipe_us" in r), 0.0)
        out += [
            f"#### Profile `{profile}`",
            "",
            (
                "| case | glpipe µs/draw | raw ModernGL µs/draw | ratio | target | met | glpipe split: "
                "bind + draw + emit µs | glpipe GL calls/draw |"
            ),
            "|---|---:|---:|---:|---:|:---:|---:|---:|",
        ]
        for row in data["cases"]:
            name = f"({row['group']}) {row['label']}"
            if "unavailable" in row:
                out.append(f"| {name} | – | – | – | ≤ {row['target']}× | n/a | {row['unavailable']} | – |")
                continue
            out.append(
                f"| {name} | {row['glpipe_us']:.2f} | {row['raw_us']:.2f} | {row['ratio']:.2f}× | "
                f"≤ {row['target']}× | {'yes' if row['met'] else '**no**'} | {_split(row, fast)} | "
                f"{row['glpipe_gl_calls_per_draw']:.1f} |"
            )
        red = data["redundant"]
        out += [
            "",
            (
                f"(c) redundant binds, {red['repeats']} of each: **{red['total_gl_calls']} GL calls** "
                f"(target 0); the draw after them made {red['draw_after_gl_calls']} "
                f"({', '.join(red['draw_after_calls'])}); control (a real blend switch + draw): "
                f"{red['control_gl_calls']} calls. One raw GL state call through ModernGL: "
                f"{red['raw_gl_state_call_us']:.2f} µs."
            ),
            "",
            "| redundant call | GL calls | µs per call |",
            "|---|---:|---:|",
        ]
        out += [f"| `{b['call']}` | {b['gl_calls']} | {b['us_per_call']:.2f} |" for b in red["binds"]]
        out.append("")
    return "\n".join(out)


def format_text(results: dict) -> str:
    """A plain report for the terminal."""
    lines = [
        (
            f"glpipe from {results['glpipe']} ({results['geometry']} geometry, {results['draws']} draws, "
            f"best of {results['reps']})"
        ),
        json.dumps(results["machine"]),
        "",
    ]
    for profile, data in results["profiles"].items():
        lines.append(f"profile {profile}:")
        fast = next((r["glpipe_us"] for r in data["cases"] if r["case"] == "no_change" and "glpipe_us" in r), 0.0)
        for row in data["cases"]:
            if "unavailable" in row:
                lines.append(f"  ({row['group']}) {row['label']:<32} unavailable: {row['unavailable']}")
                continue
            lines.append(
                f"  ({row['group']}) {row['label']:<32} glpipe {row['glpipe_us']:6.2f} us  "
                f"raw {row['raw_us']:5.2f} us  ratio {row['ratio']:5.2f} (<= {row['target']})"
                f" {'ok' if row['met'] else 'MISSED'}  [{row['glpipe_gl_calls_per_draw']:.1f} GL calls/draw;"
                f" bind+draw+emit {_split(row, fast)}]"
            )
        red = data["redundant"]
        lines.append(
            f"  (c) redundant binds: {red['total_gl_calls']} GL calls in {red['repeats']} x "
            f"{len(red['binds'])} calls (target 0); next draw {red['draw_after_gl_calls']} call(s); "
            f"control {red['control_gl_calls']}"
        )
        for b in red["binds"]:
            lines.append(f"      {b['call']:<32} {b['gl_calls']:3d} GL calls  {b['us_per_call']:6.2f} us/call")
    return "\n".join(lines)


def main(argv=None) -> dict:
    """Command-line entry point; returns the results dict."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", choices=("native", "gl33", "all"), default="native")
    p.add_argument("--draws", type=int, default=10000, help="draws per timed loop (default 10000)")
    p.add_argument("--reps", type=int, default=7, help="repetitions; the best is kept (default 7)")
    p.add_argument("--redundant", type=int, default=None, help="repeats of each redundant bind (default: --draws)")
    p.add_argument(
        "--geometry",
        choices=tuple(GEOMETRY),
        default="culled",
        help="culled (default): no fragments, pure submission cost; visible: ~30 pixels per draw",
    )
    p.add_argument("--cases", nargs="+", choices=[c[1] for c in CASES], default=None, help="run only these cases")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the results as JSON")
    out.add_argument("--markdown", action="store_true", help="print the tables for docs/performance.md")
    args = p.parse_args(argv)
    profiles = ("native", "gl33") if args.profile == "all" else (args.profile,)
    results = run(profiles, args.draws, max(1, args.reps), args.redundant or args.draws, args.geometry, args.cases)
    if args.json:
        print(json.dumps(results, indent=2))
    elif args.markdown:
        print(format_markdown(results))
    else:
        print(format_text(results))
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
