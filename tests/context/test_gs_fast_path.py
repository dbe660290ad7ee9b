"""draw_vbo's fast path with a geometry shader bound (docs/performance.md
"Why the draw path is built as it is": the mode check of a bound GS / TES).

A draw whose primitive the bound GS cannot take must be refused before GL
(tests/context/test_boundary_findings.py); the draws it can take go the fast
path once one of them has passed the general path, which records the GL modes
the bound GS accepts.  Expected images come from the geometry alone: the GS
passes each triangle through, so two triangles covering the target paint
every pixel with the vertex colour.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import DrawInfo, ShaderState, VertexBuffer
from glpipe.enums import Prim
from glpipe.errors import InvalidArgumentError

from .util import read_rgba32f, triangle_gs, vertex_buffer
from .util_draw import SIZE, setup, vertices, zero_fill
from .util_fastpath import requires_fast_path

RED = (1.0, 0.0, 0.0, 1.0)
GREEN = (0.0, 1.0, 0.0, 1.0)
# Two triangles covering the SIZE x SIZE target, as TRIANGLES; the same two
# as a 4-vertex TRIANGLE_STRIP (0,1,2 and 1,3,2 wound alike).
TRIS = [(0, 0), (SIZE, 0), (0, SIZE), (SIZE, 0), (SIZE, SIZE), (0, SIZE)]
STRIP = [(0, 0), (SIZE, 0), (0, SIZE), (SIZE, SIZE)]


def _count_general(ctx) -> list:
    """Record every call of ``ctx._draw_general`` (draw_vbo's general path)."""
    calls: list = []
    general = ctx._draw_general

    def counting(info, draws, indirect):
        calls.append(info.mode)
        general(info, draws, indirect)

    ctx._draw_general = counting
    return calls


def _whole_target(screen, color, rgba) -> None:
    img = read_rgba32f(screen, color)
    assert np.array_equal(img, np.broadcast_to(np.asarray(rgba, np.float32), img.shape))


@pytest.fixture
def gs_drawing(screen, ctx):
    """A target, shaders, a pass-through GS bound and two vertex buffers
    (TRIS red, STRIP green); yields (color, tris_vb, strip_vb, gs)."""
    color = setup(ctx)
    gs = ctx.create_gs_state(ShaderState(tokens=triangle_gs("TRIANGLE_STRIP", (0, 1, 2))))
    ctx.bind_gs_state(gs)
    tris_vb = vertex_buffer(screen, vertices(TRIS, RED))
    strip_vb = vertex_buffer(screen, vertices(STRIP, GREEN))
    yield color, tris_vb, strip_vb, gs
    ctx.bind_gs_state(None)
    ctx.delete_gs_state(gs)
    for res in (tris_vb, strip_vb):
        screen.resource_destroy(res)


def test_draws_a_bound_gs_takes_go_the_fast_path(screen, ctx, gs_drawing):
    """After one checked draw, draws of the GS's input class (TRIANGLES,
    TRIANGLE_STRIP: both triangles) skip the general path and draw right;
    a bind sends one draw through it again."""
    requires_fast_path(ctx)
    color, tris_vb, strip_vb, _ = gs_drawing
    tris = DrawInfo(mode=Prim.TRIANGLES, count=6)
    strip = DrawInfo(mode=Prim.TRIANGLE_STRIP, count=4)
    ctx.set_vertex_buffers([VertexBuffer(buffer=tris_vb, stride=32)])
    ctx.draw_vbo(tris)  # the first draw under the GS: the general path checks its mode
    calls = _count_general(ctx)
    for _ in range(3):
        ctx.draw_vbo(tris)
    assert calls == []
    _whole_target(screen, color, RED)
    zero_fill(screen, color)
    # A bind under the GS: the next draw emits it on the general path (which
    # checks the mode again), the draws after it are fast.
    ctx.set_vertex_buffers([VertexBuffer(buffer=strip_vb, stride=32)])
    for _ in range(3):
        ctx.draw_vbo(strip)
    assert calls == [Prim.TRIANGLE_STRIP]
    _whole_target(screen, color, GREEN)
    assert screen.host.clear_errors() == []


def test_fast_draws_under_a_gs_still_refuse_other_modes(screen, ctx, gs_drawing):
    """A mode the GS cannot take is refused (before GL) also after fast
    draws of that same DrawInfo before the GS was bound, and after fast
    draws under the GS; the next good draw still draws right."""
    color, tris_vb, _, gs = gs_drawing
    tris = DrawInfo(mode=Prim.TRIANGLES, count=6)
    points = DrawInfo(mode=Prim.POINTS, count=6)
    lines = DrawInfo(mode=Prim.LINES, count=6)
    ctx.set_vertex_buffers([VertexBuffer(buffer=tris_vb, stride=32)])
    ctx.bind_gs_state(None)
    ctx.draw_vbo(points)
    ctx.draw_vbo(points)  # memoised: a fast-path DrawInfo
    ctx.bind_gs_state(gs)
    for _ in range(3):
        ctx.draw_vbo(tris)
    for info in (points, lines, points):
        with pytest.raises(InvalidArgumentError, match="GS_INPUT_PRIMITIVE"):
            ctx.draw_vbo(info)
        assert screen.host.clear_errors() == []
    zero_fill(screen, color)
    ctx.draw_vbo(tris)
    _whole_target(screen, color, RED)


def test_another_gs_rechecks_modes_drawn_fast(screen, ctx, gs_drawing):
    """A TRIANGLES draw that went fast under a triangle GS is refused once a
    GS taking points is bound (what was accepted belongs to the old GS), and
    draws again when the triangle GS is back."""
    color, tris_vb, _, gs = gs_drawing
    points_gs = ctx.create_gs_state(
        ShaderState(
            tokens=triangle_gs("POINTS", (0,)).replace("GS_INPUT_PRIMITIVE TRIANGLES", "GS_INPUT_PRIMITIVE POINTS")
        )
    )
    tris = DrawInfo(mode=Prim.TRIANGLES, count=6)
    ctx.set_vertex_buffers([VertexBuffer(buffer=tris_vb, stride=32)])
    ctx.draw_vbo(tris)
    ctx.draw_vbo(tris)
    ctx.bind_gs_state(points_gs)
    with pytest.raises(InvalidArgumentError, match="GS_INPUT_PRIMITIVE"):
        ctx.draw_vbo(tris)
    assert screen.host.clear_errors() == []
    ctx.bind_gs_state(gs)
    zero_fill(screen, color)
    ctx.draw_vbo(tris)
    ctx.draw_vbo(tris)
    _whole_target(screen, color, RED)
    ctx.delete_gs_state(points_gs)


def test_requests_for_the_general_path_are_kept_under_a_gs(screen, ctx, gs_drawing):
    """A reason to pass the general path once (another context of the screen
    drew, so this context's shadows are stale) is not lost while a GS keeps
    the fast draws' mode check: the next draw re-emits this context's state."""
    color, tris_vb, _, _ = gs_drawing
    tris = DrawInfo(mode=Prim.TRIANGLES, count=6)
    ctx.set_vertex_buffers([VertexBuffer(buffer=tris_vb, stride=32)])
    ctx.draw_vbo(tris)
    ctx.draw_vbo(tris)
    other = screen.context_create()
    other_color = setup(other)
    other_vb = vertex_buffer(screen, vertices(TRIS, GREEN))
    other.set_vertex_buffers([VertexBuffer(buffer=other_vb, stride=32)])
    other.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))
    _whole_target(screen, other_color, GREEN)
    calls = _count_general(ctx)
    zero_fill(screen, color)
    ctx.draw_vbo(tris)
    assert calls == [Prim.TRIANGLES]
    _whole_target(screen, color, RED)
    other.destroy()
    screen.resource_destroy(other_vb)
