"""flush -> Fence, screen.fence_finish, fence lifetime, and what flush drains."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import glpipe
from glpipe import (
    PIPE_TIMEOUT_INFINITE,
    Bind,
    Clear,
    Flush,
    Format,
    FramebufferState,
    SurfaceTemplate,
    Target,
)
from glpipe.fence import Fence, pending_fence_deletions
from glpipe.resource import pending_deletions

from .util_transfer import raw_read_level, texture


def _cleared_target(ctx, color=(0.2, 0.4, 0.6, 0.8)):
    res = texture(
        ctx.screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16, bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW
    )
    ctx.set_framebuffer_state(
        FramebufferState(width=16, height=16, cbufs=(ctx.create_surface(res, SurfaceTemplate(format=res.format)),))
    )
    ctx.clear(Clear.COLOR0, None, color, 0.0, 0)
    return res


def test_flush_returns_a_fence_that_signals(screen, ctx):
    res = _cleared_target(ctx)
    fence = ctx.flush()
    assert isinstance(fence, Fence) and fence.screen is screen and fence.context is ctx
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE) is True
    assert fence.signalled
    gl = screen.host.gl
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(-1, 4)
    assert np.all(got == (51, 102, 153, 204))
    # Once signalled, always signalled, also when polling.
    assert screen.fence_finish(ctx, fence, 0) is True
    assert screen.fence_finish(None, fence, 0) is True


def test_timeout_zero_polls(screen, ctx):
    """timeout 0 never blocks: it answers a bool at once, and keeps answering
    until the fence is seen signalled (which a bounded number of polls
    reaches: the GL work is a clear)."""
    _cleared_target(ctx)
    fence = ctx.flush()
    answers = []
    for _ in range(100000):
        answers.append(screen.fence_finish(ctx, fence, 0))
        if answers[-1]:
            break
    assert all(isinstance(a, bool) for a in answers)
    assert answers[-1] is True and all(a is False for a in answers[:-1])


def test_finite_timeout(screen, ctx):
    _cleared_target(ctx)
    fence = ctx.flush()
    assert screen.fence_finish(ctx, fence, 5_000_000_000) is True


@pytest.mark.parametrize(
    "flags",
    [
        Flush.DEFERRED,
        Flush.END_OF_FRAME,
        Flush.ASYNC | Flush.HINT_FINISH,
        Flush.DEFERRED | Flush.TOP_OF_PIPE,
        Flush.BOTTOM_OF_PIPE,
        Flush.FENCE_FD,
    ],
)
def test_flush_flags_give_fences_that_finish(screen, ctx, flags):
    """A DEFERRED fence is still valid: fence_finish flushes before waiting."""
    _cleared_target(ctx)
    fence = ctx.flush(flags)
    assert fence.flags == flags
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE) is True


def test_flush_and_fence_finish_errors(screen, profile, ctx):
    from conftest import PROFILES, get_screen

    with pytest.raises(glpipe.InvalidArgumentError, match="unknown PIPE_FLUSH bits"):
        ctx.flush(1 << 20)
    fence = ctx.flush()
    with pytest.raises(glpipe.InvalidArgumentError, match="expected a Fence"):
        screen.fence_finish(ctx, object(), 0)
    with pytest.raises(glpipe.InvalidArgumentError, match="timeout_ns = -1 is outside uint64"):
        screen.fence_finish(ctx, fence, -1)
    with pytest.raises(glpipe.InvalidArgumentError, match="timeout_ns must be an integer"):
        screen.fence_finish(ctx, fence, 0.5)
    with pytest.raises(glpipe.InvalidArgumentError, match="ctx must be a Context"):
        screen.fence_finish("ctx", fence, 0)
    other = get_screen(next(p for p in PROFILES if p != profile))
    try:
        with pytest.raises(glpipe.InvalidArgumentError, match="another screen"):
            other.fence_finish(None, fence, 0)
        octx = other.context_create()
        try:
            with pytest.raises(glpipe.InvalidArgumentError, match="another screen"):
                screen.fence_finish(octx, fence, 0)
        finally:
            octx.destroy()
    finally:
        screen.host.make_current()
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE)


def test_dropped_fence_sync_is_deleted_on_the_gl_thread(screen, ctx):
    """A dropped fence's sync is queued, not deleted in __del__; the next
    fence_finish (or flush) on the GL thread deletes it.  (The check uses
    fence_finish, which makes no new sync object: GL may hand a new sync the
    address of a deleted one.)"""
    gl = screen.host.gl
    keep = ctx.flush()
    fence = ctx.flush()
    sync = fence._sync
    assert gl.glIsSync(sync)
    before = pending_fence_deletions(screen.host)
    del fence
    gc.collect()
    assert pending_fence_deletions(screen.host) == before + 1
    assert gl.glIsSync(sync)  # not deleted from __del__ ...
    assert screen.fence_finish(ctx, keep, PIPE_TIMEOUT_INFINITE)
    assert pending_fence_deletions(screen.host) == 0
    assert not gl.glIsSync(sync)  # ... but by the next call on the GL thread


def test_flush_drains_dropped_fences(screen, ctx):
    for _ in range(3):
        ctx.flush()  # dropped at once; each flush drains the one dropped before
    assert pending_fence_deletions(screen.host) == 1
    keep = ctx.flush()
    assert pending_fence_deletions(screen.host) == 0
    assert screen.fence_finish(ctx, keep, PIPE_TIMEOUT_INFINITE)


def test_fence_dropped_on_another_thread(screen, ctx):
    gl = screen.host.gl
    keep = ctx.flush()
    box = [ctx.flush()]
    sync = box[0]._sync

    def drop():
        box.clear()
        gc.collect()

    th = threading.Thread(target=drop)
    th.start()
    th.join()
    assert gl.glIsSync(sync) and pending_fence_deletions(screen.host) == 1
    assert screen.fence_finish(ctx, keep, PIPE_TIMEOUT_INFINITE)
    assert not gl.glIsSync(sync)


def test_signalled_fence_frees_its_sync_at_once(screen, ctx):
    gl = screen.host.gl
    fence = ctx.flush()
    sync = fence._sync
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE)
    assert not gl.glIsSync(sync)


def test_fence_finish_from_another_thread(screen, ctx):
    """Off the GL thread: a signalled fence answers True; an unsignalled one
    answers False to a poll and refuses a real wait (only the GL thread can
    wait on a GL sync)."""
    done = ctx.flush()
    assert screen.fence_finish(ctx, done, PIPE_TIMEOUT_INFINITE)
    pending = ctx.flush()
    out = {}

    def worker():
        out["done"] = screen.fence_finish(None, done, PIPE_TIMEOUT_INFINITE)
        out["poll"] = screen.fence_finish(None, pending, 0)
        try:
            screen.fence_finish(None, pending, 1000)
        except glpipe.HostGLError as exc:
            out["wait"] = str(exc)

    th = threading.Thread(target=worker)
    th.start()
    th.join()
    assert out["done"] is True and out["poll"] is False
    assert "needs the GL thread" in out["wait"]
    assert screen.fence_finish(ctx, pending, PIPE_TIMEOUT_INFINITE)


def test_destroy_signals_and_frees_every_fence(screen):
    gl = screen.host.gl
    c = screen.context_create()
    _cleared_target(c)
    fences = [c.flush(), c.flush(Flush.DEFERRED)]
    syncs = [f._sync for f in fences]
    assert all(gl.glIsSync(s) for s in syncs)
    c.destroy()
    assert not any(gl.glIsSync(s) for s in syncs)
    assert all(f.signalled for f in fences)
    assert all(screen.fence_finish(None, f, 0) for f in fences)
    with pytest.raises(glpipe.ObjectDestroyedError):
        c.flush()


def test_flush_drains_resources_destroyed_off_thread(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    name = res.gl_object
    th = threading.Thread(target=screen.resource_destroy, args=(res,))
    th.start()
    th.join()
    gl = screen.host.gl
    assert pending_deletions(screen.host) == 1 and gl.glIsTexture(name)
    ctx.flush()
    assert pending_deletions(screen.host) == 0 and not gl.glIsTexture(name)


def test_fences_are_a_part(ctx):
    """The fences area is a part (docs/architecture.md): ``ctx.fences_part``
    owns the context's live fences and ``ctx.flush`` is its bound method."""
    from glpipe import fence as fence_module
    from glpipe.context import PARTS

    part = ctx.fences_part
    assert isinstance(part, fence_module.FencePart) and part.ctx is ctx
    assert fence_module.AREA in PARTS and not hasattr(fence_module, "FenceMixin")
    assert ctx.flush.__self__ is part
    fence = ctx.flush()
    assert fence in part._fences and fence.context is ctx


class _CountingGL:
    """The context's GL namespace with glFlush calls counted."""

    def __init__(self, gl):
        self._gl = gl
        self.flushes = 0

    def glFlush(self):
        self.flushes += 1
        self._gl.glFlush()

    def __getattr__(self, name):
        return getattr(self._gl, name)


def test_deferred_flush_submits_nothing_until_fence_finish(screen, ctx):
    """PIPE_FLUSH_DEFERRED (context.rst "Flushing"): a valid fence without
    flushing; fence_finish on the creating context flushes first, so the
    fence signals."""
    res = _cleared_target(ctx, (1.0, 0.0, 0.0, 1.0))
    counting = _CountingGL(screen.host.gl)
    ctx.gl = counting
    try:
        fence = ctx.flush(Flush.DEFERRED)
        assert counting.flushes == 0
        ctx.flush(Flush.END_OF_FRAME)
        assert counting.flushes == 1
    finally:
        ctx.gl = screen.host.gl
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE) is True
    gl = screen.host.gl
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(-1, 4)
    assert np.all(got == (255, 0, 0, 255))


def test_timeout_zero_returns_immediately(screen, ctx):
    """fence_finish(..., 0) polls: it returns at once even with the GPU busy."""
    import time

    from .util_query import rect, scene

    scene(ctx)
    for _ in range(20):
        rect(ctx, 0, 0, 256, 256, instances=50)
    fence = ctx.flush()
    t0 = time.perf_counter()
    done = screen.fence_finish(ctx, fence, 0)
    assert time.perf_counter() - t0 < 0.05
    assert isinstance(done, bool)
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE) is True


def test_top_and_bottom_of_pipe_are_exclusive(ctx):
    """context.rst: at most one of TOP_OF_PIPE and BOTTOM_OF_PIPE."""
    with pytest.raises(glpipe.InvalidArgumentError, match="at most one"):
        ctx.flush(Flush.DEFERRED | Flush.TOP_OF_PIPE | Flush.BOTTOM_OF_PIPE)


def test_fence_server_sync_and_signal(screen, ctx):
    """fence_server_sync makes the context's later commands wait for the
    fence on the GPU (glWaitSync); fence_server_signal needs re-usable
    fences GL does not have: FENCE_SIGNAL is 0 and it is refused."""
    res = _cleared_target(ctx, (0.0, 1.0, 0.0, 1.0))
    other = screen.context_create()
    try:
        fence = ctx.flush()
        other.fence_server_sync(fence)
        other.flush()
        assert screen.fence_finish(other, fence, PIPE_TIMEOUT_INFINITE) is True
        gl = screen.host.gl
        got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(-1, 4)
        assert np.all(got == (0, 255, 0, 255))
        other.fence_server_sync(fence)  # already signalled: nothing to wait for
        with pytest.raises(glpipe.InvalidArgumentError, match="expected a Fence"):
            other.fence_server_sync("fence")
        assert screen.get_param(glpipe.Cap.FENCE_SIGNAL) == 0
        with pytest.raises(glpipe.UnsupportedError, match="FENCE_SIGNAL"):
            other.fence_server_signal(ctx.flush())
    finally:
        other.destroy()


def test_device_reset_status(screen, ctx):
    """get_device_reset_status through GL robustness where the host has it
    (DEVICE_RESET_STATUS_QUERY); a reset callback is accepted and is not
    called while the device is fine."""
    calls = []
    if not screen.profile.has("robustness"):
        assert screen.get_param(glpipe.Cap.DEVICE_RESET_STATUS_QUERY) == 0
        with pytest.raises(glpipe.UnsupportedError):
            ctx.get_device_reset_status()
        with pytest.raises(glpipe.UnsupportedError):
            ctx.set_device_reset_callback(calls.append)
        return
    assert screen.get_param(glpipe.Cap.DEVICE_RESET_STATUS_QUERY) == 1
    assert ctx.get_device_reset_status() == glpipe.ResetStatus.NO_RESET
    ctx.set_device_reset_callback(calls.append)
    _cleared_target(ctx)
    assert screen.fence_finish(ctx, ctx.flush(), PIPE_TIMEOUT_INFINITE)
    assert calls == []
    ctx.set_device_reset_callback(None)
    with pytest.raises(glpipe.InvalidArgumentError):
        ctx.set_device_reset_callback(42)
