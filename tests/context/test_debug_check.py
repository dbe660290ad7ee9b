"""GLPIPE_DEBUG=check: the host's GL error state after every entry point.

A context made with the ``check`` debug flag (docs/debug.md) wraps every
pipe_context entry point, at create time: after the call, a GL error the
host flagged raises HostGLError naming that entry point (an error pending
*before* the call is reported as left by code outside glpipe).  A context
without the flag keeps the parts' own methods: nothing is wrapped, nothing
is paid.  The errant GL call is injected into a part method (GL_INVALID_ENUM
from glEnable of a bad enum), as a bug in an area would make it.
"""

from __future__ import annotations

import types

import numpy as np
import pytest

from glpipe import Clear, DrawInfo, Prim, VertexBuffer
from glpipe.blend import BlendPart
from glpipe.debug import DEBUG_FLAGS, parse_debug_flags
from lowering.errors import HostGLError

from .test_draw_vbo import _pipeline
from .util import read_rgba32f, render_target, vertex_buffer

GL_INVALID_ENUM_TRIGGER = 0xFFFF  # not a capability: glEnable raises GL_INVALID_ENUM


@pytest.fixture
def check_ctx(screen):
    c = screen.context_create(debug="check")
    yield c
    c.destroy()


def _errant_set_blend_color(monkeypatch):
    """BlendPart.set_blend_color, with a GL error left behind (before the
    context is made: attach binds the parts' methods then)."""
    original = BlendPart.set_blend_color

    def errant(self, color4):
        original(self, color4)
        gl = self.ctx.gl
        gl.glEnable(GL_INVALID_ENUM_TRIGGER)

    monkeypatch.setattr(BlendPart, "set_blend_color", errant)


def test_check_is_a_known_flag():
    assert "check" in DEBUG_FLAGS
    assert parse_debug_flags("nofast, check") == frozenset({"nofast", "check"})


def test_check_names_the_entry_point_that_left_an_error(screen, monkeypatch):
    _errant_set_blend_color(monkeypatch)
    ctx = screen.context_create(debug="check")
    try:
        with pytest.raises(HostGLError, match=r"check: set_blend_color left host GL errors: GL_INVALID_ENUM"):
            ctx.set_blend_color((0.0, 0.0, 0.0, 1.0))
        assert screen.host.clear_errors() == []  # reported, so drained: no later call is blamed
        ctx.flush()
    finally:
        ctx.destroy()


def test_without_check_the_error_is_not_reported_at_the_call(screen, monkeypatch):
    """The control: a normal context does not look (and pays nothing)."""
    _errant_set_blend_color(monkeypatch)
    ctx = screen.context_create(debug="")
    try:
        ctx.set_blend_color((0.0, 0.0, 0.0, 1.0))  # returns normally ...
        assert screen.host.clear_errors() == [0x0500]  # ... leaving GL_INVALID_ENUM behind
    finally:
        ctx.destroy()


def test_check_blames_an_error_pending_before_the_call(screen, check_ctx):
    """An error some other code left is reported as such, not as the entry point's."""
    screen.host.make_current()
    screen.host.gl.glEnable(GL_INVALID_ENUM_TRIGGER)
    with pytest.raises(HostGLError, match="GL_INVALID_ENUM pending before flush: left by a GL call made outside"):
        check_ctx.flush()
    check_ctx.flush()  # drained: clean now


def test_check_wraps_every_entry_point_and_normal_contexts_none(screen, check_ctx):
    from glpipe.context import PARTS
    from glpipe.part import CONTEXT_ENTRY_POINTS, STATE_ONLY

    names = [n for area in PARTS for n in area.methods] + list(CONTEXT_ENTRY_POINTS)
    for name in names:
        entry = check_ctx.__dict__[name]
        assert not isinstance(entry, types.MethodType) and hasattr(entry, "__wrapped__"), name
    ctx = screen.context_create(debug="")  # no flag, whatever $GLPIPE_DEBUG says
    try:
        for name in STATE_ONLY:
            assert isinstance(ctx.__dict__[name], types.MethodType), f"{name} is wrapped in a normal context"
        assert "draw_vbo" not in ctx.__dict__  # the class's own, fast path and all
    finally:
        ctx.destroy()


def test_a_scene_under_check_is_clean(screen, check_ctx):
    """Draws, clears and transfers of a checked context raise nothing and render right."""
    ctx = check_ctx
    color, _ = render_target(ctx, 8, 8)
    _pipeline(ctx)
    rgba = [0.25, 0.5, 0.75, 1.0]
    verts = np.array([[-1, -1, 0, 1] + rgba, [3, -1, 0, 1] + rgba, [-1, 3, 0, 1] + rgba], np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)
    info = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)
    ctx.draw_vbo(info)
    ctx.draw_vbo(info)
    ctx.flush()
    assert np.array_equal(read_rgba32f(screen, color), np.broadcast_to(np.float32(rgba), (8, 8, 4)))
