"""Several contexts of one screen, used from several threads (issue 14 item 5).

A context made on a thread other than its screen's owns a GL context of its
own in the screen's share group, current on that thread (docs/api.md
"Contexts and threads").  Resources (buffers, textures), programs and syncs
are shared; each context's VAOs, framebuffers and queries are its own.  The
tests draw on the test's thread (context A, the ``ctx`` fixture) and on a
worker thread (context B), synchronise them with fences, and compare the
pixels and bytes each sees with numpy models; every wait has a timeout.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import glpipe
from glpipe import Flush, Map, Query
from glpipe.enums import Bind, Target
from glpipe.formats import Format
from glpipe.templates import Box, ResourceTemplate
from lowering.errors import InvalidArgumentError, ObjectDestroyedError

from .util import read_rgba32f
from .util_query import GREEN, rect
from .util_sampling import Sampling, bind_sampling, nearest, tex_fs, view_2d

WAIT_NS = 10_000_000_000  # 10 s: a fence of a tiny draw signals in far less
JOIN_S = 90


def _on_thread(fn, name="share-worker"):
    """Run ``fn`` on a new thread named ``name``; return its result or raise its exception."""
    out: dict = {}

    def run():
        try:
            out["result"] = fn()
        except BaseException as exc:  # re-raised on the test thread
            out["error"] = exc

    t = threading.Thread(target=run, name=name)
    t.start()
    t.join(JOIN_S)
    assert not t.is_alive(), f"thread {name} hung"
    if "error" in out:
        raise out["error"]
    return out.get("result")


class Worker:
    """A thread that runs the callables given to ``call`` one at a time (so a
    context made there is used and destroyed there), each with a timeout."""

    def __init__(self, name="share-worker"):
        import queue

        self._jobs: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self):
        while True:
            fn, done, out = self._jobs.get()
            if fn is None:
                return
            try:
                out["result"] = fn()
            except BaseException as exc:  # re-raised by call()
                out["error"] = exc
            done.set()

    def call(self, fn):
        """``fn()`` on the worker thread: its result, or its exception raised here."""
        done, out = threading.Event(), {}
        self._jobs.put((fn, done, out))
        assert done.wait(JOIN_S), "the worker thread hung"
        if "error" in out:
            raise out["error"]
        return out.get("result")

    def stop(self):
        self._jobs.put((None, None, None))
        self._thread.join(JOIN_S)
        assert not self._thread.is_alive()


def _buffer(screen, size: int):
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER)
    )


def _read_buffer(ctx, res) -> bytes:
    t = ctx.transfer_map(res, 0, Map.READ, Box(0, 0, 0, res.width0, 1, 1))
    try:
        return bytes(np.asarray(t.data).reshape(-1)[: res.width0])
    finally:
        ctx.transfer_unmap(t)


SIZE = 16
BOX = (2, 3, 11, 13)  # x0, y0, x1, y1 of A's rectangle


def _expected_rect(color=GREEN) -> np.ndarray:
    """A's target: the rectangle BOX in ``color`` on zeros (window y = row)."""
    x0, y0, x1, y1 = BOX
    img = np.zeros((SIZE, SIZE, 4), np.float32)
    img[y0:y1, x0:x1] = color
    return img


def _draw_rect_on(ctx, color=GREEN):
    """A 16x16 RGBA32F target holding BOX in ``color``, drawn by ``ctx``."""
    from .util_query import scene

    target = scene(ctx, size=SIZE)
    rect(ctx, *BOX, color=color, size=SIZE)
    return target


def _sample_into_own_target(b, texture) -> np.ndarray:
    """Context ``b`` samples ``texture`` (NEAREST, one texel per pixel centre)
    into a render target of its own; returns b's pixels."""
    s = Sampling(b, SIZE, SIZE)
    bind_sampling(b, view_2d(b, texture), b.create_sampler_state(nearest()))
    s.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1), read=False)
    fence = b.flush()
    assert b.screen.fence_finish(b, fence, WAIT_NS)
    return read_rgba32f(b.screen, s.color)


# ---------------------------------------------------------------------------


def test_context_made_on_another_thread_owns_a_gl_context_of_the_share_group(screen, ctx):
    """context_create on a worker thread: the context is bound to that thread,
    with its own host GL context (not the screen's), current there."""

    def work():
        b = screen.context_create()
        try:
            host = b.host
            return (
                host is not screen.host,
                host.gl_thread == threading.get_ident(),
                host.current_context() == host.context_handle,
                host.profile is screen.profile,
            )
        finally:
            b.destroy()

    assert _on_thread(work) == (True, True, True, True)
    assert ctx.host is screen.host  # a context made on the screen's thread shares its GL context


def test_a_renders_fences_b_waits_on_the_gpu_and_samples_it(screen, ctx):
    """A draws a rectangle into a texture and flushes a fence; B (another
    thread, its own GL context) waits for it with fence_server_sync, samples
    the texture into its own render target, and reads exactly A's pixels."""
    target = _draw_rect_on(ctx)
    fence = ctx.flush()

    def work():
        b = screen.context_create()
        try:
            b.fence_server_sync(fence)
            return _sample_into_own_target(b, target)
        finally:
            b.destroy()

    np.testing.assert_array_equal(_on_thread(work), _expected_rect())
    # A's own view of its target is the same.
    assert screen.fence_finish(ctx, ctx.flush(), WAIT_NS)
    np.testing.assert_array_equal(read_rgba32f(screen, target), _expected_rect())
    screen.resource_destroy(target)


def test_a_writes_a_buffer_b_reads_it_after_fence_finish(screen, ctx):
    """buffer_subdata on A, flush; B (another thread) fence_finish-es the
    fence and maps the buffer: exactly A's bytes.  Then B writes, flushes,
    and A reads B's bytes after waiting on B's fence on the GPU."""
    res = _buffer(screen, 256)
    data = bytes((i * 7 + 3) & 0xFF for i in range(256))
    ctx.buffer_subdata(res, Map.WRITE, 0, data)
    fence = ctx.flush()
    back = bytes(reversed(data))

    def work():
        assert screen.fence_finish(b, fence, WAIT_NS)
        seen = _read_buffer(b, res)
        b.buffer_subdata(res, Map.WRITE, 0, back)
        return seen, b.flush()

    w = Worker()
    b = w.call(screen.context_create)
    try:
        seen, b_fence = w.call(work)
        assert seen == data
        ctx.fence_server_sync(b_fence)
        assert _read_buffer(ctx, res) == back
        assert screen.fence_finish(None, b_fence, WAIT_NS)
    finally:
        w.call(b.destroy)
        w.stop()
    screen.resource_destroy(res)


def test_a_fence_polled_with_timeout_zero_from_another_context_returns_at_once(screen, ctx):
    """fence_finish(timeout 0) on another thread's context answers without
    waiting; once A's fence is waited for it is signalled for everyone."""
    target = _draw_rect_on(ctx)
    fence = ctx.flush()
    assert screen.fence_finish(ctx, fence, WAIT_NS)

    def work():
        b = screen.context_create()
        try:
            return screen.fence_finish(b, fence, 0), screen.fence_finish(None, fence, 0)
        finally:
            b.destroy()

    assert _on_thread(work) == (True, True)
    screen.resource_destroy(target)


def test_a_deferred_fence_reaches_another_context_once_its_context_flushes(screen, ctx):
    """flush(DEFERRED) makes a fence without submitting: another GL context
    may never see it signal (GL 4.5 §4.1.2: the sync must be flushed), so B
    refuses to wait on it for good or on the GPU (either would never end),
    a poll answers at once, and after A's next flush B's wait succeeds."""
    buf = _buffer(screen, 16)
    ctx.buffer_subdata(buf, Map.WRITE, 0, bytes(range(16)))
    fence = ctx.flush(Flush.DEFERRED)
    seen: dict = {}
    ready, flushed = threading.Event(), threading.Event()

    def work():
        b = screen.context_create()
        try:
            with pytest.raises(InvalidArgumentError, match="DEFERRED"):
                screen.fence_finish(b, fence, glpipe.PIPE_TIMEOUT_INFINITE)
            with pytest.raises(InvalidArgumentError, match="DEFERRED"):
                b.fence_server_sync(fence)
            # A poll answers at once (True only if the host ran it anyway).
            seen["poll"] = screen.fence_finish(b, fence, 0)
            ready.set()
            assert flushed.wait(JOIN_S)
            seen["after"] = screen.fence_finish(b, fence, WAIT_NS)
            seen["bytes"] = _read_buffer(b, buf)
        finally:
            ready.set()
            b.destroy()

    t = threading.Thread(target=lambda: seen.setdefault("error", _catch(work)), name="share-worker")
    t.start()
    assert ready.wait(JOIN_S)
    ctx.flush()  # submits the deferred fence too
    flushed.set()
    t.join(JOIN_S)
    assert not t.is_alive()
    assert seen["error"] is None, seen["error"]
    assert seen["poll"] in (True, False)
    assert seen["after"] is True
    assert seen["bytes"] == bytes(range(16))
    screen.resource_destroy(buf)


def _catch(fn):
    try:
        fn()
    except BaseException as exc:
        return exc
    return None


def test_two_threads_draw_different_scenes_through_two_contexts_of_one_screen(screen, ctx):
    """Issue 14 item 5's test: two threads draw different scenes at the same
    time through two contexts of the *same* screen, many times; every frame
    holds exactly its own rectangle; the test's own context draws after."""
    from .util_query import SIZE as QSIZE
    from .util_query import lit_count, pixels, reset, scene

    iterations = 10
    scenes = {
        0: ((0.0, 1.0, 0.0, 1.0), lambda i: (8 + i, 16, 72 + i, 80)),
        1: ((0.0, 0.0, 1.0, 1.0), lambda i: (100, 40 + i, 180, 160 + i)),
    }
    failures: list[str] = []
    start = threading.Barrier(2, timeout=JOIN_S)
    hosts: dict = {}

    def worker(k):
        color, box = scenes[k]
        try:
            c = screen.context_create()
            hosts[k] = c.host
            target = scene(c)
            start.wait()
            for i in range(iterations):
                reset(c, target)
                x0, y0, x1, y1 = box(i)
                rect(c, x0, y0, x1, y1, color=color)
                img = pixels(c, target)
                expected = np.zeros((QSIZE, QSIZE, 4), np.float32)
                expected[y0:y1, x0:x1] = color
                if not np.array_equal(img, expected):
                    failures.append(f"thread {k} frame {i}: {int(np.sum(np.any(img != expected, -1)))} wrong pixels")
            screen.resource_destroy(target)
            c.destroy()
        except Exception as exc:  # reported below, with the thread
            failures.append(f"thread {k}: {exc!r}")
            start.abort()

    threads = [threading.Thread(target=worker, args=(k,), name=f"scene-{k}") for k in scenes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_S)
    assert not any(t.is_alive() for t in threads), "a drawing thread hung"
    assert failures == []
    assert hosts[0] is not hosts[1] and screen.host not in (hosts[0], hosts[1])
    target = scene(ctx)
    rect(ctx, 0, 0, 10, 20)
    assert lit_count(ctx, target) == 200
    screen.resource_destroy(target)


def test_a_resource_made_on_the_worker_thread_is_allocated_there(screen, ctx):
    """A texture created on B's thread gets its storage from B's GL context
    (the share group), and A on the screen's thread sees what B drew."""

    def work():
        b = screen.context_create()
        try:
            target = _draw_rect_on(b, color=(0.25, 0.5, 0.75, 1.0))
            assert screen.fence_finish(b, b.flush(), WAIT_NS)
            return target
        finally:
            b.destroy()

    target = _on_thread(work)
    assert target.has_storage
    np.testing.assert_array_equal(read_rgba32f(screen, target), _expected_rect((0.25, 0.5, 0.75, 1.0)))
    screen.resource_destroy(target)


def test_destroying_b_on_its_thread_leaves_a_drawing(screen, ctx):
    """B is destroyed on its thread while A lives: B refuses every call after,
    A draws on as before."""

    def work():
        b = screen.context_create()
        target = _draw_rect_on(b)
        assert screen.fence_finish(b, b.flush(), WAIT_NS)
        b.destroy()
        with pytest.raises(ObjectDestroyedError):
            b.flush()
        return b, target

    b, b_target = _on_thread(work)
    assert b.destroyed and b.host.released
    with pytest.raises(ObjectDestroyedError):
        b.flush()
    target = _draw_rect_on(ctx)
    assert screen.fence_finish(ctx, ctx.flush(), WAIT_NS)
    np.testing.assert_array_equal(read_rgba32f(screen, target), _expected_rect())
    np.testing.assert_array_equal(read_rgba32f(screen, b_target), _expected_rect())
    screen.resource_destroy(target)
    screen.resource_destroy(b_target)


def test_a_resource_destroyed_by_one_context_is_refused_by_the_other(screen, ctx):
    """Destroyed on A's thread, B's use raises ObjectDestroyedError; destroyed
    on B's thread, A's use raises it too."""
    mine = _buffer(screen, 64)
    ctx.buffer_subdata(mine, Map.WRITE, 0, bytes(64))
    theirs: dict = {}
    ready, go = threading.Event(), threading.Event()

    def work():
        b = screen.context_create()
        try:
            res = _buffer(screen, 64)
            b.buffer_subdata(res, Map.WRITE, 0, bytes(64))
            theirs["res"] = res
            ready.set()
            assert go.wait(JOIN_S)
            with pytest.raises(ObjectDestroyedError):
                b.buffer_subdata(mine, Map.WRITE, 0, bytes(64))
            with pytest.raises(ObjectDestroyedError):
                b.transfer_map(mine, 0, Map.READ, Box(0, 0, 0, 64, 1, 1))
            screen.resource_destroy(res)
        finally:
            ready.set()
            b.destroy()

    t = threading.Thread(target=lambda: theirs.setdefault("error", _catch(work)), name="share-worker")
    t.start()
    assert ready.wait(JOIN_S)
    screen.resource_destroy(mine)
    go.set()
    t.join(JOIN_S)
    assert not t.is_alive()
    assert theirs["error"] is None, theirs["error"]
    with pytest.raises(ObjectDestroyedError):
        ctx.buffer_subdata(theirs["res"], Map.WRITE, 0, bytes(64))


def test_another_threads_context_objects_are_refused_and_its_queries_count(screen, ctx):
    """B's objects (on its own GL context) are refused by A, as between two
    contexts of one thread (context.rst "Using several contexts"); B's
    occlusion query, a query object of B's GL context, counts B's draw
    exactly: a 10 x 20 rectangle is 200 samples."""
    from .util_query import scene

    w = Worker()
    b = w.call(screen.context_create)
    try:
        sampler = w.call(lambda: b.create_sampler_state(nearest()))
        query = w.call(lambda: b.create_query(Query.OCCLUSION_COUNTER))
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.bind_sampler_states(glpipe.ShaderType.FRAGMENT, 0, [sampler])
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.begin_query(query)

        def count():
            target = scene(b)
            b.begin_query(query)
            rect(b, 5, 7, 15, 27)
            b.end_query(query)
            result = b.get_query_result(query, True)
            screen.resource_destroy(target)
            return result

        assert w.call(count) == 200
    finally:
        w.call(b.destroy)
        w.stop()


def test_screen_destroy_with_a_live_context_on_another_thread(profile, screen):
    """Screen.destroy on the screen's thread while a context of it lives on a
    worker thread: the screen goes, the worker's context refuses every call
    afterwards (ObjectDestroyedError), nothing hangs."""
    own = glpipe.create_screen(profile=profile)
    made, destroyed = threading.Event(), threading.Event()
    out: dict = {}

    def work():
        try:
            b = out["b"] = own.context_create()
        finally:
            made.set()
        assert destroyed.wait(JOIN_S)
        with pytest.raises(ObjectDestroyedError):
            b.flush()
        with pytest.raises(ObjectDestroyedError):
            b.clear(glpipe.Clear.COLOR0, None, (0, 0, 0, 0), 1.0, 0)

    t = threading.Thread(target=lambda: out.setdefault("error", _catch(work)), name="share-worker")
    t.start()
    try:
        assert made.wait(JOIN_S)
        own.destroy()
        assert out.get("error") is None, out["error"]
        assert out["b"].destroyed
    finally:
        destroyed.set()
        t.join(JOIN_S)
        screen.host.make_current()
    assert not t.is_alive()
    assert out["error"] is None, out["error"]


def test_without_an_egl_share_source_context_create_off_thread_raises_naming_both(profile, screen):
    """A screen whose host cannot make share-group contexts (a GLX window's:
    no EGL share source) keeps the old rule: context_create off its thread
    raises HostGLError naming both threads, and nothing is made."""
    from lowering.errors import HostGLError

    own = glpipe.create_screen(profile=profile)
    own._share_source = None  # what share_source() answers for a non-EGL host
    try:
        with pytest.raises(HostGLError) as info:
            _on_thread(own.context_create, name="no-share-worker")
        assert "no-share-worker" in str(info.value) and threading.current_thread().name in str(info.value)
        assert own._live_contexts() == () and own._thread_hosts == {}
    finally:
        own.destroy()
        screen.host.make_current()
