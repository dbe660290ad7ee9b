"""A pipe context used from a thread other than its GL context's.

A GL context is current on one thread; glpipe's pipe contexts run their GL
work on the thread their screen's GL context is current on (docs/api.md
"Contexts and threads").  A call from another thread that would touch GL
raises HostGLError naming both threads instead of returning zeros, losing a
write or failing later (never silent wrong data), and the context keeps
working on its own thread.  Screen methods stay callable from any thread
(tests/test_screen_threads.py).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from glpipe import Clear, DrawInfo, FramebufferState, Prim, SurfaceTemplate, VertexBuffer
from glpipe.enums import Bind, Map, Target
from glpipe.formats import Format
from glpipe.templates import Box, ResourceTemplate
from lowering.errors import HostGLError

from .test_draw_vbo import _pipeline
from .util import read_rgba32f, render_target, vertex_buffer

RGBA = [0.25, 0.5, 0.75, 1.0]


def _in_thread(fn, name="glpipe-test-worker"):
    """Run ``fn`` on a new thread named ``name``; return (result, exception)."""
    out: dict = {}

    def run():
        try:
            out["result"] = fn()
        except BaseException as exc:  # reported to the test thread
            out["error"] = exc

    t = threading.Thread(target=run, name=name)
    t.start()
    t.join(60)
    assert not t.is_alive(), "the worker thread hung"
    return out.get("result"), out.get("error")


def _assert_names_both_threads(err) -> None:
    assert isinstance(err, HostGLError), f"expected HostGLError, got {err!r}"
    text = str(err)
    assert "glpipe-test-worker" in text, text
    assert threading.current_thread().name in text, text
    assert str(threading.get_ident()) in text, text


def _buffer(screen, data: bytes):
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=len(data), bind=Bind.VERTEX_BUFFER)
    )
    res.ensure_storage()
    return res


def _read(ctx, res) -> bytes:
    t = ctx.transfer_map(res, 0, Map.READ, Box(0, 0, 0, res.width0, 1, 1))
    try:
        return bytes(np.asarray(t.data).reshape(-1)[: res.width0])
    finally:
        ctx.transfer_unmap(t)


def test_transfer_map_read_from_another_thread(screen, ctx):
    """transfer_map READ off the GL thread raises (it returned zeros)."""
    res = _buffer(screen, bytes(32))
    ctx.buffer_subdata(res, Map.WRITE, 0, bytes(range(1, 33)))
    result, err = _in_thread(lambda: _read(ctx, res))
    assert result is None
    _assert_names_both_threads(err)
    assert _read(ctx, res) == bytes(range(1, 33))
    screen.resource_destroy(res)


def test_buffer_subdata_from_another_thread(screen, ctx):
    """buffer_subdata off the GL thread raises (the write was lost) and
    changes nothing; the same call on the GL thread then works."""
    res = _buffer(screen, bytes(16))
    ctx.buffer_subdata(res, Map.WRITE, 0, bytes(range(16)))
    _, err = _in_thread(lambda: ctx.buffer_subdata(res, Map.WRITE, 0, b"\xff" * 16))
    _assert_names_both_threads(err)
    assert _read(ctx, res) == bytes(range(16))
    ctx.buffer_subdata(res, Map.WRITE, 4, b"\xee" * 4)
    assert _read(ctx, res) == bytes(range(4)) + b"\xee" * 4 + bytes(range(8, 16))
    screen.resource_destroy(res)


def test_texture_subdata_from_another_thread(screen, ctx):
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=Bind.SAMPLER_VIEW
        )
    )
    data = np.arange(64, dtype=np.uint8)
    ctx.texture_subdata(tex, 0, Map.WRITE, Box(0, 0, 0, 4, 4, 1), data, 16, 64)
    _, err = _in_thread(lambda: ctx.texture_subdata(tex, 0, Map.WRITE, Box(0, 0, 0, 4, 4, 1), bytes(64), 16, 64))
    _assert_names_both_threads(err)
    t = ctx.transfer_map(tex, 0, Map.READ, Box(0, 0, 0, 4, 4, 1))
    got = np.asarray(t.data).reshape(-1)[: t.stride * 4].reshape(4, t.stride)[:, :16].copy()
    ctx.transfer_unmap(t)
    assert np.array_equal(got.reshape(-1), data)
    screen.resource_destroy(tex)


def _draw_setup(screen, ctx):
    color, _ = render_target(ctx, 8, 8)
    _pipeline(ctx)
    verts = np.array([[-1, -1, 0, 1] + RGBA, [3, -1, 0, 1] + RGBA, [-1, 3, 0, 1] + RGBA], np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)
    return color, DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)


@pytest.mark.parametrize("fast", [False, True], ids=["first-draw", "fast-path"])
def test_draw_vbo_from_another_thread(screen, ctx, fast):
    """draw_vbo off the GL thread raises (it reported a link error, or drew
    nothing) -- on the fast path too -- and draws nothing; the next draw on
    the GL thread renders as usual."""
    color, info = _draw_setup(screen, ctx)
    if fast:
        ctx.draw_vbo(info)
        ctx.draw_vbo(info)
        ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)
        ctx.draw_vbo(info)  # back on the fast path after the clear
        ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)
    _, err = _in_thread(lambda: ctx.draw_vbo(info))
    _assert_names_both_threads(err)
    screen.host.make_current()
    assert np.array_equal(read_rgba32f(screen, color), np.zeros((8, 8, 4), np.float32))
    ctx.draw_vbo(info)
    assert np.array_equal(read_rgba32f(screen, color), np.broadcast_to(np.float32(RGBA), (8, 8, 4)))


def test_set_framebuffer_state_from_another_thread(screen, ctx):
    """set_framebuffer_state off the GL thread raises (it reported an
    incomplete framebuffer) and leaves the bound framebuffer as it was."""
    color, info = _draw_setup(screen, ctx)
    before = ctx.framebuffer_part.framebuffer
    surf = ctx.create_surface(color, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
    state = FramebufferState(width=4, height=4, cbufs=(surf,))
    _, err = _in_thread(lambda: ctx.set_framebuffer_state(state))
    _assert_names_both_threads(err)
    assert ctx.framebuffer_part.framebuffer is before
    ctx.draw_vbo(info)
    assert np.array_equal(read_rgba32f(screen, color), np.broadcast_to(np.float32(RGBA), (8, 8, 4)))


@pytest.mark.parametrize("entry", ["flush", "clear", "create_sampler_state", "destroy"])
def test_other_gl_entry_points_from_another_thread(screen, ctx, entry):
    """Every entry point that reaches GL refuses another thread the same way."""
    import glpipe

    calls = {
        "flush": lambda: ctx.flush(),
        "clear": lambda: ctx.clear(Clear.COLOR0, None, (1.0, 1.0, 1.0, 1.0), 1.0, 0),
        "create_sampler_state": lambda: ctx.create_sampler_state(glpipe.SamplerState()),
        "destroy": lambda: ctx.destroy(),
    }
    _, err = _in_thread(calls[entry])
    _assert_names_both_threads(err)
    assert not ctx.destroyed
    calls[entry]()  # on the GL thread: works


def test_context_create_and_screen_destroy_from_another_thread(profile, screen):
    """context_create on another thread makes a context bound to that thread,
    on a GL context of the screen's share group (tests/context/test_threads_share.py
    has the rest); Screen.destroy does GL work on the screen's GL context:
    off its thread it raises naming both threads, and the screen is left as it was."""
    import glpipe

    own = glpipe.create_screen(profile=profile)  # its own screen: the session's is not put at risk

    def make_and_destroy():
        c = own.context_create()
        try:
            return c.host is not own.host and c.host.on_gl_thread()
        finally:
            c.destroy()

    try:
        result, err = _in_thread(make_and_destroy)
        assert err is None and result is True
        _, err = _in_thread(lambda: own.destroy())
        _assert_names_both_threads(err)
        ctx = own.context_create()  # on the GL thread: the screen still works
        ctx.destroy()
    finally:
        own.destroy()
        screen.host.make_current()
