"""Vertex input, framebuffer, viewport and clears are parts of the Context
(glpipe/part.py, docs/architecture.md): each owns its state, reached as
``ctx.<area>_part``, and what the draw and other areas read of it is the
part's interface (no leading underscore)."""

from __future__ import annotations

import numpy as np

from glpipe import Prim, VertexBuffer
from glpipe.clear import ClearPart
from glpipe.context import PARTS, Context
from glpipe.dirty import Dirty, KeepGeneral
from glpipe.framebuffer import FramebufferPart
from glpipe.part import Part
from glpipe.templates import DrawInfo, ViewportState
from glpipe.vertex import VertexPart
from glpipe.viewport import ViewportPart

from .util import vertex_buffer
from .util_draw import SIZE, lit, setup, vertices
from .util_raster import WHITE, draw_image

TRI = [(2.0, 2.0), (14.0, 2.0), (2.0, 14.0)]
AREAS = {
    "vertex_part": VertexPart,
    "framebuffer_part": FramebufferPart,
    "viewport_part": ViewportPart,
    "clear_part": ClearPart,
}


def test_the_four_areas_are_parts_registered_once():
    registered = {a.attr: a.part for a in PARTS if a.part is not None}
    for attr, cls in AREAS.items():
        assert issubclass(cls, Part) and registered[attr] is cls
    names = {c.__name__ for c in Context.__mro__}
    for mixin in ("VertexMixin", "FramebufferMixin", "ViewportMixin", "ClearMixin"):
        assert mixin not in names


def test_each_context_gets_its_own_parts(screen, ctx):
    other = screen.context_create()
    try:
        for attr, cls in AREAS.items():
            part = getattr(ctx, attr)
            assert type(part) is cls and part.ctx is ctx
            assert getattr(other, attr) is not part
    finally:
        other.destroy()


def test_framebuffer_and_viewport_state_live_on_their_parts(ctx):
    color = setup(ctx)
    fb = ctx.framebuffer_part.framebuffer
    assert fb.nr_cbufs == 1 and fb.cbufs[0].texture is color
    flipped = ViewportState(scale=(SIZE / 2, -SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))
    ctx.dirty = 0
    ctx.set_viewport_states(0, [flipped])
    assert ctx.viewport_part.viewports[0] is flipped
    # A negative y scale is a flip in the last vertex stage: a new variant.
    assert ctx.viewport_part.viewport_y_flip is True
    assert ctx.dirty & (Dirty.VIEWPORT | Dirty.PROGRAM) == Dirty.VIEWPORT | Dirty.PROGRAM


def test_vertex_state_and_the_draws_interface_live_on_the_vertex_part(screen, ctx):
    color = setup(ctx)
    part = ctx.vertex_part
    assert part.velems is not None
    # Base instance is used where the host has it (no stride-0 buffer bound).
    assert part.use_base_instance == screen.profile.has("base_instance")
    assert lit(draw_image(ctx, color, vertices(TRI, WHITE), Prim.TRIANGLES)).any()  # user memory
    assert part.vertex_user is True and ctx.keep_general & KeepGeneral.VERTEX
    buf = vertex_buffer(screen, np.ascontiguousarray(vertices(TRI, WHITE), np.float32))
    ctx.set_vertex_buffers([VertexBuffer(buffer=buf, stride=32)])
    assert part.vertex_user is False and part.vertex_buffers[0].buffer is buf
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3, instance_count=1, start_instance=2))
    # Without base instance the start instance is baked into the offsets
    # and keeps the general path until a draw without one; with it, never.
    assert part.vertex_start_instance == 2
    assert bool(ctx.keep_general & KeepGeneral.VERTEX) == (not part.use_base_instance)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3, instance_count=1))
    assert not ctx.keep_general & KeepGeneral.VERTEX


def test_clears_keep_their_private_framebuffers_on_the_clear_part(ctx):
    assert ctx.clear_part._clear_fbos == {"COLOR": 0, "ZS": 0}
