"""Screen-wide state under several threads (issue 14 item 5): the driver
counters, the state one thread's screen call must change in another
thread's context, the gl33 texture parameters two contexts' views share,
persistent coherent maps seen by another thread's context, and the GL
contexts of threads that exit.

Races are provoked with a tiny interpreter switch interval
(``sys.setswitchinterval``) and many iterations; where a race cannot be
forced, a direct check shows the rule (docs/api.md "Contexts and threads").
Every expected value is counted or modelled here, never read from glpipe.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

import numpy as np
import pytest

from glpipe import DrawInfo, Format, Prim, ShaderType, Target, VertexBuffer
from lowering.errors import ObjectDestroyedError

from .test_threads_share import Worker
from .util_draw import vertices
from .util_query import GREEN, scene
from .util_sampling import Sampling, bind_sampling, make_texture, nearest, tex_fs, upload, view_2d

JOIN_S = 120


@contextmanager
def switch_often(seconds: float = 1e-6):
    """Make the interpreter switch threads as often as it can."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(seconds)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def run_threads(fns, names) -> list:
    """Run each of ``fns`` on its own thread, started together; the
    exceptions they raised (none expected), after joining them all."""
    start = threading.Barrier(len(fns), timeout=JOIN_S)
    errors: list = []

    def wrap(fn):
        try:
            start.wait()
            fn()
        except BaseException as exc:  # reported by the caller, with the thread
            errors.append(f"{threading.current_thread().name}: {exc!r}")
            start.abort()

    threads = [threading.Thread(target=wrap, args=(fn,), name=n) for fn, n in zip(fns, names, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_S)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors


# -- 1. driver counters -------------------------------------------------------

QUAD = [(2, 2), (12, 2), (12, 12), (2, 12)]


def test_two_threads_drawing_count_every_draw_and_fallback_hit(screen, ctx):
    """Two threads, a context each, N QUADS draws each (every draw is one
    draw call and one run of the quads fallback): the screen-wide
    draw-calls, fallback-hits and fallback-hits-quads_quad_strips_polygons
    each grow by exactly 2N, also read through driver queries."""
    from glpipe.driver_queries import DRIVER_QUERIES

    n = 150
    names = ("draw-calls", "fallback-hits", "fallback-hits-quads_quad_strips_polygons")
    types = [next(q.query_type for q in DRIVER_QUERIES if q.name == name) for name in names]
    queries = [ctx.create_query(t) for t in types]
    attrs = ("draw_calls", "fallback_hits", "fallback_quads_quad_strips_polygons")
    before = {a: getattr(screen.counters, a) for a in attrs}
    for q in queries:
        ctx.begin_query(q)

    def draws():
        c = screen.context_create()
        try:
            target = scene(c, size=16)
            data = vertices(QUAD, GREEN, 16).tobytes()
            for _ in range(n):
                c.set_vertex_buffers([VertexBuffer(buffer=data, stride=32)])
                c.draw_vbo(DrawInfo(mode=Prim.QUADS, count=4))
            screen.resource_destroy(target)
        finally:
            c.destroy()

    with switch_often():
        errors = run_threads([draws, draws], ["count-0", "count-1"])
    assert errors == []
    for q in queries:
        ctx.end_query(q)
    after = {a: getattr(screen.counters, a) for a in attrs}
    assert {a: after[a] - before[a] for a in attrs} == dict.fromkeys(attrs, 2 * n)
    assert [ctx.get_query_result(q, True) for q in queries] == [2 * n] * 3
    for q in queries:
        ctx.destroy_query(q)


def test_counter_bumps_of_two_threads_contexts_are_never_lost(screen, ctx):
    """The counting itself, hammered: two threads' contexts each bump their
    counters 100000 times the way glpipe's sites do (``ctx._counters.fallback``,
    a read then a write; ``+= 1``).  The screen-wide values grow by exactly
    2N: two threads never read-modify-write one integer.  A context
    destroyed afterwards (on its thread) keeps its counts in the screen's."""
    n = 100_000
    keys = ("fallback_hits", "fallback_draw_indirect_unroll", "bytes_uploaded")
    counted, checked = threading.Barrier(3, timeout=JOIN_S), threading.Event()

    def bumps():
        c = screen.context_create()
        try:
            counters = c._counters
            for _ in range(n):
                counters.fallback("draw_indirect_unroll")
                counters.bytes_uploaded += 1
            counted.wait()
            assert checked.wait(JOIN_S)
        finally:
            c.destroy()

    before = screen.counters.snapshot()
    errors: list = []
    with switch_often():
        threads = [threading.Thread(target=lambda: errors.append(_error_of(bumps)), name=f"bump-{k}") for k in range(2)]
        for t in threads:
            t.start()
        counted.wait()
    live = screen.counters.snapshot()
    checked.set()
    for t in threads:
        t.join(JOIN_S)
    assert not any(t.is_alive() for t in threads)
    assert errors == [None, None]
    assert {k: live[k] - before[k] for k in keys} == dict.fromkeys(keys, 2 * n)
    after = screen.counters.snapshot()
    assert {k: after[k] - before[k] for k in keys} == dict.fromkeys(keys, 2 * n)


def _error_of(fn):
    try:
        fn()
    except BaseException as exc:  # returned to the test thread
        return exc
    return None


# -- 2. screen calls never write another thread's context ----------------------


def _sampling_context(screen, size=8):
    """(context, Sampling, texture, view): a context on the calling thread
    sampling an RGBA32F ``size`` x ``size`` texture, drawn twice (the second
    draw takes the fast path), everything issued."""
    c = screen.context_create()
    s = Sampling(c, size, size)
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, size, size)
    upload(screen, tex, 0, np.ones((size, size, 4), np.float32))
    view = view_2d(c, tex)
    bind_sampling(c, view, c.create_sampler_state(nearest()))
    s.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1), read=False)
    s.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1), read=False)
    return c, s, tex, view


def test_resource_destroy_on_another_thread_leaves_the_context_to_its_own_thread(screen, ctx):
    """Context B (a worker thread) samples texture T and draws from vertex
    buffer V.  The test's thread destroys T, then V: B's state (its dirty
    word) is not written from this thread -- the change waits for B's
    thread -- and B's next draw, which would take the fast path, refuses
    the destroyed resource with ObjectDestroyedError, each time."""
    w = Worker()
    try:
        b, s, tex, _view = w.call(lambda: _sampling_context(screen))
        dirty = w.call(lambda: b.dirty)
        screen.resource_destroy(tex)
        assert b.dirty == dirty, "another thread wrote this context's dirty word"
        with pytest.raises(ObjectDestroyedError):
            w.call(lambda: b.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6)))
        # The same for a vertex buffer, with no sampler view bound.
        w.call(lambda: b.set_sampler_views(ShaderType.FRAGMENT, 0, [None]))
        w.call(
            lambda: s.draw(
                "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1, 0, 0, 1}\n  0: MOV OUT[0], IMM[0]\n  1: END\n",
                (0, 0, 0, 0),
                (1, 1, 1, 1),
                read=False,
            )
        )
        w.call(lambda: b.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6)))
        vb = w.call(lambda: b.vertex_part.vertex_buffers[0].buffer)
        dirty = w.call(lambda: b.dirty)
        screen.resource_destroy(vb)
        assert b.dirty == dirty, "another thread wrote this context's dirty word"
        with pytest.raises(ObjectDestroyedError):
            w.call(lambda: b.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6)))
        w.call(lambda: screen.resource_destroy(s.color))
        w.call(b.destroy)
    finally:
        w.stop()


def test_resource_destroy_races_a_context_making_and_destroying_views(screen, ctx):
    """B makes and destroys sampler views in a loop while the test's thread
    destroys resources in a loop: neither thread fails (the screen call does
    not walk B's live views while B changes them)."""
    stop = threading.Event()

    def views():
        c, s, tex, view = _sampling_context(screen)
        try:
            end = time.monotonic() + 3.0
            while time.monotonic() < end and not stop.is_set():
                c.sampler_view_destroy(view_2d(c, tex))
        finally:
            stop.set()
            screen.resource_destroy(tex)
            screen.resource_destroy(s.color)
            c.destroy()

    def destroys():
        while not stop.is_set():
            res = make_texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
            screen.resource_destroy(res)

    with switch_often():
        errors = run_threads([views, destroys], ["views", "destroys"])
    assert errors == []


# -- 3. views of one texture sampled on two threads (gl33: texture parameters) --

LEVEL0 = (1.0, 0.0, 0.0, 1.0)
LEVEL1 = (0.0, 0.5, 1.0, 1.0)


def test_two_threads_sample_two_views_of_one_texture_exactly(profile, screen, ctx):
    """One 8x8 texture with two levels (level 0 all LEVEL0, level 1 all
    LEVEL1).  Thread A samples it through a view of level 0; thread B
    through a view of level 1 with the swizzle (G, R, B, A): on gl33 both
    views are texture parameters of the one shared GL texture.  Both draw
    and read back 60 times at once; every pixel of every frame is the
    view's own value (numpy: the level's texel through the swizzle)."""
    from glpipe import Swizzle

    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8, last_level=1)
    upload(screen, tex, 0, np.tile(np.float32(LEVEL0), (8, 8, 1)))
    upload(screen, tex, 1, np.tile(np.float32(LEVEL1), (4, 4, 1)))
    swz = (Swizzle.Y, Swizzle.X, Swizzle.Z, Swizzle.W)
    cases = {
        "A": ({"first_level": 0, "last_level": 0}, np.float32(LEVEL0)),
        "B": (
            {"first_level": 1, "last_level": 1, "swizzle_r": swz[0], "swizzle_g": swz[1], "swizzle_b": swz[2]},
            np.float32(LEVEL1)[[1, 0, 2, 3]],
        ),
    }
    iterations = 60
    failures: list = []

    def sample(name):
        kw, texel = cases[name]
        c = screen.context_create()
        try:
            s = Sampling(c, 8, 8)
            bind_sampling(c, view_2d(c, tex, **kw), c.create_sampler_state(nearest()))
            expected = np.tile(texel, (8, 8, 1))
            for i in range(iterations):
                img = s.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1))
                if not np.array_equal(img, expected):
                    seen = {tuple(p) for p in img.reshape(-1, 4).tolist()}
                    failures.append(f"{name} frame {i}: {sorted(seen)}")
            screen.resource_destroy(s.color)
        finally:
            c.destroy()

    with switch_often(1e-5):
        errors = run_threads([lambda: sample("A"), lambda: sample("B")], ["sample-A", "sample-B"])
    assert errors == []
    assert failures == [], f"{len(failures)} wrong frames, e.g. {failures[:3]}"
    screen.resource_destroy(tex)


def test_a_context_drawing_before_another_thread_joins_sees_its_own_view(profile):
    """The screen's thread draws through a view of level 0 (on the fast path)
    before any other thread has a context; then a worker thread makes one
    and samples level 1 with a swizzle, while the screen's thread keeps
    drawing: both see only their own view's texels, every frame."""
    import glpipe
    from glpipe import Swizzle

    own = glpipe.create_screen(profile=profile)
    try:
        tex = make_texture(own, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8, last_level=1)
        upload(own, tex, 0, np.tile(np.float32(LEVEL0), (8, 8, 1)))
        upload(own, tex, 1, np.tile(np.float32(LEVEL1), (4, 4, 1)))
        a = own.context_create()
        sa = Sampling(a, 8, 8)
        bind_sampling(a, view_2d(a, tex, first_level=0, last_level=0), a.create_sampler_state(nearest()))
        want_a = np.tile(np.float32(LEVEL0), (8, 8, 1))
        for _ in range(2):
            np.testing.assert_array_equal(sa.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1)), want_a)
        failures: list = []
        go = threading.Event()

        def worker():
            b = own.context_create()
            try:
                sb = Sampling(b, 8, 8)
                kw = {"first_level": 1, "last_level": 1, "swizzle_r": Swizzle.Y, "swizzle_g": Swizzle.X}
                bind_sampling(b, view_2d(b, tex, **kw), b.create_sampler_state(nearest()))
                want = np.tile(np.float32(LEVEL1)[[1, 0, 2, 3]], (8, 8, 1))
                go.set()
                for i in range(60):
                    if not np.array_equal(sb.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1)), want):
                        failures.append(f"worker frame {i}")
                own.resource_destroy(sb.color)
            finally:
                go.set()
                b.destroy()

        t = threading.Thread(target=lambda: failures.extend([e for e in [_error_of(worker)] if e]), name="joins")
        with switch_often(1e-5):
            t.start()
            assert go.wait(JOIN_S)
            for i in range(60):
                if not np.array_equal(sa.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1)), want_a):
                    failures.append(f"screen thread frame {i}")
            t.join(JOIN_S)
        assert not t.is_alive()
        assert failures == []
        a.destroy()
    finally:
        own.destroy()


# -- 4. persistent coherent mappings seen by another thread's context ------------

TRI = [(0, 0), (8, 0), (0, 8)]


def test_a_coherent_persistent_map_on_one_thread_feeds_draws_on_another(screen, ctx):
    """context.rst "Using several contexts": a persistent coherent mapping
    needs no transfer_unmap / flush of the mapping to be seen by another
    context, only the ordering a fence gives.  A (the test's thread) writes
    vertices through a live PERSISTENT | COHERENT map and flushes a fence;
    B (a worker thread, its own GL context) waits for it on the GPU and
    draws from the buffer: the triangle has A's colour.  A writes another
    colour into the same mapping, still mapped: B's next draw has it.
    Where BUFFER_MAP_PERSISTENT_COHERENT is 0 (gl33) such a buffer is
    refused at creation."""
    from glpipe import Bind, Box, Cap, Map, ResourceFlag, ResourceTemplate
    from lowering.errors import UnsupportedError

    from .util import read_rgba32f
    from .util_draw import setup

    flags = ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT
    size = vertices(TRI, GREEN, 8).nbytes
    templ = ResourceTemplate(
        target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER, flags=flags
    )
    if not screen.get_param(Cap.BUFFER_MAP_PERSISTENT_COHERENT):
        assert not screen.profile.has("buffer_storage")
        with pytest.raises(UnsupportedError, match="buffer_storage"):
            screen.resource_create(templ)
        return
    res = screen.resource_create(templ)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.PERSISTENT | Map.COHERENT, Box(x=0, width=size, height=1, depth=1))
    w = Worker()
    try:
        b = w.call(screen.context_create)
        color = w.call(lambda: setup(b, size=8))

        def draw(fence):
            b.fence_server_sync(fence)
            b.set_vertex_buffers([VertexBuffer(buffer=res, buffer_offset=0, stride=32)])
            b.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
            assert screen.fence_finish(b, b.flush(), 10**10)
            return read_rgba32f(screen, color)

        for rgba in ((0.25, 0.5, 1.0, 1.0), (1.0, 0.0, 0.5, 1.0)):
            t.data[:] = vertices(TRI, rgba, size=8).view(np.uint8).reshape(-1)
            fence = ctx.flush()
            img = w.call(lambda fence=fence: draw(fence))
            # The triangle's corner pixel, and a pixel outside it.
            np.testing.assert_array_equal(img[0, 0], np.float32(rgba))
            np.testing.assert_array_equal(img[7, 7], np.zeros(4, np.float32))
        w.call(lambda: screen.resource_destroy(color))
        w.call(b.destroy)
    finally:
        w.stop()
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)


# -- 5. a thread that exits without destroying its contexts -----------------------


def _egl_context_alive(host) -> bool:
    """Whether EGL still knows ``host``'s EGLContext (eglQueryContext answers
    EGL_BAD_CONTEXT for a destroyed one): asked of EGL, not of glpipe."""
    import ctypes

    from glpipe.host.egl_share import EGL_CONFIG_ID, _egl

    value = ctypes.c_int32(0)
    egl = _egl()
    ok = bool(egl.eglQueryContext(host._egl_display, host._egl_context, EGL_CONFIG_ID, ctypes.byref(value)))
    egl.eglGetError()  # (clear EGL_BAD_CONTEXT)
    return ok


def test_a_thread_exiting_with_live_contexts_frees_its_gl_context(screen, ctx):
    """A worker thread makes two contexts, draws, and ends without
    destroying them: as it ends, they are destroyed and its GL context of
    the share group is freed (EGL no longer knows it); the screen holds no
    GL context for the dead thread, and the test's context draws on."""
    from .util_query import lit_count, rect

    out: dict = {}

    def work():
        a, b = screen.context_create(), screen.context_create()
        target = scene(a, size=16)
        rect(a, 0, 0, 4, 4, size=16)
        assert screen.fence_finish(a, a.flush(), 10**10)
        out.update(a=a, b=b, host=a.host, target=target, ident=threading.get_ident())
        assert _egl_context_alive(a.host)

    t = threading.Thread(target=work, name="exits")
    t.start()
    t.join(JOIN_S)
    assert not t.is_alive()
    host = out["host"]
    assert out["a"].destroyed and out["b"].destroyed
    assert host.released and not _egl_context_alive(host)
    assert out["ident"] not in screen._thread_hosts
    assert all(c.host is not host for c in screen._live_contexts())
    with pytest.raises(ObjectDestroyedError):
        out["a"].flush()
    screen.resource_destroy(out["target"])
    target = scene(ctx, size=16)
    rect(ctx, 0, 0, 5, 4, size=16)
    assert lit_count(ctx, target) == 20
    screen.resource_destroy(target)


def test_a_thread_exiting_after_its_screen_was_destroyed_frees_its_gl_context(profile, screen):
    """The screen is destroyed (on its thread) while a worker thread's
    context lives; the worker then ends: its GL context, current there until
    then, is freed as it ends."""
    import glpipe

    own = glpipe.create_screen(profile=profile)
    made, destroyed = threading.Event(), threading.Event()
    out: dict = {}

    def work():
        out["b"] = own.context_create()
        made.set()
        assert destroyed.wait(JOIN_S)

    t = threading.Thread(target=work, name="outlives")
    t.start()
    try:
        assert made.wait(JOIN_S)
        own.destroy()
    finally:
        destroyed.set()
        t.join(JOIN_S)
        screen.host.make_current()
    assert not t.is_alive()
    assert out["b"].destroyed and not _egl_context_alive(out["b"].host)


# -- 6. transfer_unmap + flush on one thread, seen by another thread's context ----


def test_a_texture_transfer_unmapped_and_flushed_is_seen_by_another_threads_context(screen, ctx):
    """context.rst "Using several contexts": transfer_unmap then flush on one
    context, and another context that synchronises on the flush sees the
    data.  A (the test's thread) writes a texture through transfer_map /
    transfer_unmap and flushes; B (a worker thread) waits on the fence and
    maps it for reading: A's texels.  B writes a region back the same way;
    A waits on B's fence on the GPU and reads B's texels in it."""
    from glpipe import Box, Map

    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    data = np.arange(8 * 8 * 4, dtype=np.float32).reshape(8, 8, 4) / 7.0
    whole = Box(0, 0, 0, 8, 8, 1)
    region = Box(2, 3, 0, 4, 2, 1)  # x, y, z, width, height, depth
    t = ctx.transfer_map(tex, 0, Map.WRITE, whole)
    np.asarray(t.data).reshape(-1)[:] = data.view(np.uint8).reshape(-1)
    ctx.transfer_unmap(t)
    fence = ctx.flush()
    patch = np.full((2, 4, 4), -3.5, np.float32)

    def texels(c, box):
        tr = c.transfer_map(tex, 0, Map.READ, box)
        try:
            raw = np.asarray(tr.data)
            rows = [raw.reshape(-1)[y * tr.stride : y * tr.stride + box.width * 16] for y in range(box.height)]
            return np.stack([r.view(np.float32).reshape(box.width, 4) for r in rows])
        finally:
            c.transfer_unmap(tr)

    def work():
        assert screen.fence_finish(b, fence, 10**10)
        seen = texels(b, whole)
        tw = b.transfer_map(tex, 0, Map.WRITE, region)
        raw = np.asarray(tw.data).reshape(-1)
        for y in range(region.height):
            raw[y * tw.stride : y * tw.stride + region.width * 16] = patch[y].view(np.uint8).reshape(-1)
        b.transfer_unmap(tw)
        return seen, b.flush()

    w = Worker()
    b = w.call(screen.context_create)
    try:
        seen, b_fence = w.call(work)
        np.testing.assert_array_equal(seen, data)
        ctx.fence_server_sync(b_fence)
        expected = data.copy()
        expected[3:5, 2:6] = patch
        np.testing.assert_array_equal(texels(ctx, whole), expected)
    finally:
        w.call(b.destroy)
        w.stop()
    screen.resource_destroy(tex)


def test_generate_mipmap_on_one_thread_while_another_samples_a_gl33_view(profile, screen, ctx):
    """Thread A regenerates level 1 of an 8x8 texture from level 0 again and
    again (generate_mipmap: glGenerateMipmap, which moves the texture's
    base and max level for the call), while thread B samples level 1
    through a view with the swizzle (G, R, B, A).  Every frame of B is
    level 1 -- the 2x2 means of level 0, exact for these small integers --
    through the swizzle, never level 0 (numpy model)."""
    from glpipe import Swizzle

    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8, last_level=1)
    y, x = np.mgrid[0:8, 0:8].astype(np.float32)
    level0 = np.stack([x, y, x + 8 * y, np.ones_like(x)], axis=-1)
    upload(screen, tex, 0, level0)
    assert ctx.generate_mipmap(tex, tex.format, 0, 1, 0, 0)
    level1 = level0.reshape(4, 2, 4, 2, 4).mean(axis=(1, 3))
    want = np.repeat(np.repeat(level1[..., [1, 0, 2, 3]], 2, axis=0), 2, axis=1)
    failures: list = []
    done = threading.Event()

    def regenerate():
        c = screen.context_create()
        try:
            while not done.is_set():
                assert c.generate_mipmap(tex, tex.format, 0, 1, 0, 0)
        finally:
            c.destroy()

    def sample():
        c = screen.context_create()
        try:
            s = Sampling(c, 8, 8)
            kw = {"first_level": 1, "last_level": 1, "swizzle_r": Swizzle.Y, "swizzle_g": Swizzle.X}
            bind_sampling(c, view_2d(c, tex, **kw), c.create_sampler_state(nearest()))
            for i in range(80):
                if not np.array_equal(s.draw(tex_fs(), (0, 0, 0, 0), (1, 1, 1, 1)), want):
                    failures.append(i)
            screen.resource_destroy(s.color)
        finally:
            done.set()
            c.destroy()

    with switch_often(1e-5):
        errors = run_threads([regenerate, sample], ["regenerate", "sample"])
    assert errors == []
    assert failures == [], f"{len(failures)} of 80 frames sampled something else than level 1"
    screen.resource_destroy(tex)
