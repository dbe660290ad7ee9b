"""set_debug_callback: glpipe's own messages on every profile, the host's
KHR_debug messages where the profile has debug_output."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import DrawInfo, Prim, VertexBuffer
from glpipe.debug import HOST_ID_BASE, DebugType
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util_draw import setup, vertices


class Recorder:
    """Collects (type, id, message) triples."""

    def __init__(self):
        self.messages = []

    def __call__(self, kind, msg_id, message):
        self.messages.append((kind, msg_id, message))

    def matching(self, text):
        return [m for m in self.messages if text in m[2]]


def _draw_quad(ctx):
    quad = vertices([(1, 1), (9, 1), (9, 9), (1, 9)], (1.0, 0.0, 0.0, 1.0))
    ctx.set_vertex_buffers([VertexBuffer(buffer=quad, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, count=4))


def test_fallback_message_reaches_the_callback(screen, ctx):
    """An index-translated QUADS draw reports a FALLBACK message; the same
    kind of message keeps its id."""
    setup(ctx)
    rec = Recorder()
    ctx.set_debug_callback(rec)
    _draw_quad(ctx)
    _draw_quad(ctx)
    quads = rec.matching("QUADS")
    assert len(quads) == 2
    assert all(kind is DebugType.FALLBACK for kind, _, _ in quads)
    assert quads[0][1] == quads[1][1] and 0 < quads[0][1] < HOST_ID_BASE
    assert "index translation" in quads[0][2]


def test_object_with_debug_message_method(screen, ctx):
    setup(ctx)

    class Frontend:
        def __init__(self):
            self.got = []

        def debug_message(self, kind, msg_id, message):
            self.got.append((kind, message))

    fe = Frontend()
    ctx.set_debug_callback(fe)
    _draw_quad(ctx)
    assert [k for k, m in fe.got if "QUADS" in m] == [DebugType.FALLBACK]


def test_none_removes_the_callback(screen, ctx):
    setup(ctx)
    rec = Recorder()
    ctx.set_debug_callback(rec)
    ctx.set_debug_callback(None)
    _draw_quad(ctx)
    assert rec.messages == []


def test_bad_callback_is_rejected(ctx):
    with pytest.raises(InvalidArgumentError, match="set_debug_callback"):
        ctx.set_debug_callback(42)


def test_raising_callback_does_not_abort_the_draw(screen, ctx):
    color = setup(ctx)

    def bad(kind, msg_id, message):
        raise RuntimeError("frontend bug")

    ctx.set_debug_callback(bad)
    with pytest.warns(RuntimeWarning, match="frontend bug"):
        _draw_quad(ctx)
    from .util import read_rgba32f

    assert np.all(read_rgba32f(screen, color)[3, 3] == (1.0, 0.0, 0.0, 1.0)), "the draw did not complete"


def test_host_messages(screen, ctx):
    """debug_output hosts: a string marker and a host GL error arrive as
    INFO / ERROR; without debug_output only glpipe's own messages exist."""
    gl = screen.host.gl
    rec = Recorder()
    ctx.set_debug_callback(rec)
    if not screen.profile.has("debug_output"):
        with pytest.raises(UnsupportedError, match="debug_output"):
            ctx.emit_string_marker("frame 1")
        gl.glBindBuffer(0x3039, 0)  # an invalid target: the host flags an error...
        screen.host.clear_errors()
        assert rec.messages == []  # ... which gl33 does not report through glpipe
        return
    ctx.emit_string_marker("frame 1")
    marker = rec.matching("frame 1")
    assert len(marker) == 1 and marker[0][0] is DebugType.INFO and marker[0][1] >= HOST_ID_BASE
    gl.glBindBuffer(0x3039, 0)
    screen.host.clear_errors()
    errors = [m for m in rec.messages if m[0] is DebugType.ERROR]
    assert errors and "host GL" in errors[-1][2] and "INVALID_ENUM" in errors[-1][2]
    # Removing the callback turns host debug output off again.
    ctx.set_debug_callback(None)
    assert not gl.glIsEnabled(gl.GL_DEBUG_OUTPUT)
    gl.glDebugMessageInsert(
        gl.GL_DEBUG_SOURCE_APPLICATION,
        gl.GL_DEBUG_TYPE_MARKER,
        7,
        gl.GL_DEBUG_SEVERITY_NOTIFICATION,
        -1,
        b"after removal",
    )
    assert not rec.matching("after removal")


def test_messages_with_two_contexts(screen):
    """glpipe's own messages go to the context that produced them; host
    messages (debug_output) to every context of the screen with a callback."""
    a, b = screen.context_create(), screen.context_create()
    try:
        ra, rb = Recorder(), Recorder()
        a.set_debug_callback(ra)
        b.set_debug_callback(rb)
        setup(a)
        _draw_quad(a)
        assert ra.matching("QUADS") and not rb.matching("QUADS")
        if screen.profile.has("debug_output"):
            a.emit_string_marker("both")
            assert ra.matching("both") and rb.matching("both")
            b.destroy()
            a.emit_string_marker("only a")
            assert ra.matching("only a") and not rb.matching("only a")
            gl = screen.host.gl
            assert gl.glIsEnabled(gl.GL_DEBUG_OUTPUT)
    finally:
        a.destroy()
        b.destroy()
    if screen.profile.has("debug_output"):
        assert not screen.host.gl.glIsEnabled(screen.host.gl.GL_DEBUG_OUTPUT)


def test_index_readback_is_reported_as_perf_info(screen, ctx):
    """QUADS from a resource index buffer read the indices back for the
    translation: a PERF_INFO message says so."""
    from .util import vertex_buffer

    setup(ctx)
    rec = Recorder()
    ctx.set_debug_callback(rec)
    quad = vertices([(1, 1), (9, 1), (9, 9), (1, 9)], (1.0, 0.0, 0.0, 1.0))
    ctx.set_vertex_buffers([VertexBuffer(buffer=quad, stride=32)])
    idx = vertex_buffer(screen, np.array([0, 1, 2, 3], np.uint16))
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, index_size=2, index=idx, count=4))
    kinds = {k for k, _, m in rec.messages if "read back" in m}
    assert kinds == {DebugType.PERF_INFO}


def test_debug_is_a_part(ctx):
    """The debug area is a part (docs/architecture.md): ``ctx.debug_part``
    holds the callback, the pipe_context methods are its bound methods, and
    ``debug_message`` (what other areas call) reaches the callback."""
    from glpipe import debug as debug_module
    from glpipe.context import PARTS

    part = ctx.debug_part
    assert isinstance(part, debug_module.DebugPart) and part.ctx is ctx
    assert debug_module.AREA in PARTS and not hasattr(debug_module, "DebugMixin")
    assert ctx.set_debug_callback.__self__ is part and ctx.emit_string_marker.__self__ is part
    rec = Recorder()
    ctx.set_debug_callback(rec)
    assert part.debug_callback is rec
    part.debug_message("PERF_INFO", "one", site="a")
    part.debug_message(DebugType.FALLBACK, "two", site="b")
    part.debug_message("PERF_INFO", "three", site="a")
    assert [(k, t) for k, _i, t in rec.messages] == [
        (DebugType.PERF_INFO, "one"),
        (DebugType.FALLBACK, "two"),
        (DebugType.PERF_INFO, "three"),
    ]
    assert rec.messages[0][1] == rec.messages[2][1] != rec.messages[1][1]
    ctx.set_debug_callback(None)
    assert part.debug_callback is None


def test_nofast_methods_come_from_the_parts(screen):
    """GLPIPE_DEBUG=nofast replaces, on the context, each entry point of
    NOFAST_METHODS by the general form on the part its row names: draw_vbo
    by the debug part's, set_sampler_views by the sampler-view part's; a
    normal context keeps the fast ones."""
    from glpipe.debug import NOFAST_METHODS, DebugPart
    from glpipe.sampler_views import SamplerViewPart

    assert {(n, w) for n, w, _g in NOFAST_METHODS} == {
        ("draw_vbo", "debug_part"),
        ("set_sampler_views", "sampler_views_part"),
    }
    slow, fast = screen.context_create(debug="nofast"), screen.context_create(debug="")
    try:
        assert slow.draw_vbo.__func__ is DebugPart._draw_vbo_nofast and slow.draw_vbo.__self__ is slow.debug_part
        assert slow.set_sampler_views.__func__ is SamplerViewPart._set_sampler_views_general
        assert slow.set_sampler_views.__self__ is slow.sampler_views_part
        assert fast.set_sampler_views.__func__ is SamplerViewPart.set_sampler_views
        assert fast.draw_vbo.__func__ is type(fast).draw_vbo
    finally:
        slow.destroy()
        fast.destroy()
