"""Several contexts of one screen (issue 14 item 5; context.rst "Using
several contexts"): resources are the screen's and shared, every other
object (queries, stream output targets, surfaces, views, CSOs) is its
context's and refused by the others; a write made on one context and
flushed is seen by another.  Threads: docs/api.md "Contexts and threads".

Expected values are written by hand: the bytes written, the clear colour.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import glpipe
from glpipe import (
    Bind,
    Box,
    Cap,
    Clear,
    Format,
    Map,
    Query,
    QueryFlag,
    QueryValueType,
    RenderCond,
    ResourceTemplate,
    SurfaceTemplate,
    Target,
)
from glpipe.errors import InvalidArgumentError

from .util import read_rgba32f

GREEN = (0.0, 1.0, 0.0, 1.0)


def _buffer(screen, size=64, bind=Bind.VERTEX_BUFFER):
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=bind)
    )


def _texture(screen, size=8):
    return screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R32G32B32A32_FLOAT,
            width0=size,
            height0=size,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        )
    )


@pytest.fixture
def other(screen, ctx):
    o = screen.context_create()
    yield o
    o.destroy()


def test_another_contexts_query_is_refused_by_every_query_method(screen, ctx, other):
    """A query is its context's: every method taking one refuses another
    context's, naming it, and the query keeps working on its own context."""
    q = other.create_query(Query.OCCLUSION_COUNTER)
    pred = other.create_query(Query.OCCLUSION_PREDICATE)
    calls = {
        "begin_query": lambda: ctx.begin_query(q),
        "end_query": lambda: ctx.end_query(q),
        "get_query_result": lambda: ctx.get_query_result(q, False),
        "destroy_query": lambda: ctx.destroy_query(q),
        "render_condition": lambda: ctx.render_condition(pred, False, RenderCond.WAIT),
    }
    if screen.get_param(Cap.QUERY_BUFFER_OBJECT):
        buf = _buffer(screen, bind=Bind.QUERY_BUFFER)
        calls["get_query_result_resource"] = lambda: ctx.get_query_result_resource(
            q, QueryFlag(0), QueryValueType.U32, 0, buf, 0
        )
    for name, call in calls.items():
        with pytest.raises(InvalidArgumentError, match="another context"):
            call()
        assert not q.destroyed, name
    other.begin_query(q)
    other.end_query(q)
    assert other.get_query_result(q, True) == 0


def test_another_contexts_stream_output_target_is_refused(screen, ctx, other):
    if screen.get_param(Cap.MAX_STREAM_OUTPUT_BUFFERS) == 0:
        with pytest.raises(glpipe.errors.UnsupportedError):
            other.create_stream_output_target(_buffer(screen, bind=Bind.STREAM_OUTPUT), 0, 64)
        return
    t = other.create_stream_output_target(_buffer(screen, bind=Bind.STREAM_OUTPUT), 0, 64)
    with pytest.raises(InvalidArgumentError, match="another context"):
        ctx.set_stream_output_targets([t], [0])
    with pytest.raises(InvalidArgumentError, match="another context"):
        ctx.stream_output_target_destroy(t)
    other.set_stream_output_targets([t], [0])
    other.set_stream_output_targets([])
    other.stream_output_target_destroy(t)


def test_another_contexts_surface_is_refused_by_clears(screen, ctx, other):
    zs = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.Z24_UNORM_S8_UINT, width0=8, height0=8, bind=Bind.DEPTH_STENCIL
        )
    )
    surf = other.create_surface(zs, SurfaceTemplate(format=Format.Z24_UNORM_S8_UINT))
    with pytest.raises(InvalidArgumentError, match="another context"):
        ctx.clear_depth_stencil(surf, Clear.DEPTH, 1.0, 0, 0, 0, 8, 8, False)


def test_buffer_written_and_flushed_on_one_context_is_seen_by_another(screen, ctx, other):
    """context.rst: a transfer_unmap followed by flush on one context makes
    the data visible to another context's commands."""
    res = _buffer(screen, 256)
    data = (np.arange(256, dtype=np.uint32) * 7 % 251).astype(np.uint8)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.DISCARD_RANGE, Box(x=0, width=256))
    np.asarray(t.data)[:] = data
    ctx.transfer_unmap(t)
    fence = ctx.flush()
    assert screen.fence_finish(other, fence, glpipe.PIPE_TIMEOUT_INFINITE)
    t2 = other.transfer_map(res, 0, Map.READ, Box(x=0, width=256))
    assert bytes(np.asarray(t2.data)) == data.tobytes()
    other.transfer_unmap(t2)
    # And back: the other context overwrites part, flushes; the first sees it.
    other.buffer_subdata(res, Map.WRITE, 16, bytes(range(32)))
    other.flush()
    t3 = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=256))
    expected = data.copy()
    expected[16:48] = np.arange(32, dtype=np.uint8)
    assert bytes(np.asarray(t3.data)) == expected.tobytes()
    ctx.transfer_unmap(t3)


def test_texture_rendered_on_one_context_is_read_on_another(screen, ctx, other):
    """A clear_render_target through one context's surface, flushed, is in
    the shared texture for another context (its own surface of it too)."""
    tex = _texture(screen)
    mine = ctx.create_surface(tex, SurfaceTemplate(format=tex.format))
    ctx.clear_render_target(mine, GREEN, 0, 0, 8, 8, False)
    ctx.flush()
    theirs = other.create_surface(tex, SurfaceTemplate(format=tex.format))
    other.clear_render_target(theirs, (0.0, 0.0, 1.0, 1.0), 0, 0, 4, 4, False)
    other.flush()
    img = read_rgba32f(screen, tex)
    expected = np.broadcast_to(np.float32(GREEN), (8, 8, 4)).copy()
    expected[:4, :4] = (0.0, 0.0, 1.0, 1.0)
    np.testing.assert_array_equal(img, expected)


def test_a_second_thread_using_a_context_of_the_screen_raises_naming_both(screen, ctx, other):
    """The model of docs/api.md "Contexts and threads": the contexts of a
    screen share its one GL context, which is current on the screen's
    thread; a context used from another thread raises HostGLError naming
    both threads, and the context still works on its own thread."""
    from lowering.errors import HostGLError

    tex = _texture(screen)
    surf = other.create_surface(tex, SurfaceTemplate(format=tex.format))
    errors = []

    def worker():
        try:
            other.clear_render_target(surf, GREEN, 0, 0, 8, 8, False)
        except HostGLError as exc:
            errors.append(str(exc))

    t = threading.Thread(target=worker, name="drawing-worker")
    t.start()
    t.join()
    assert len(errors) == 1
    assert "drawing-worker" in errors[0] and threading.current_thread().name in errors[0]
    other.clear_render_target(surf, GREEN, 0, 0, 8, 8, False)
    other.flush()
    np.testing.assert_array_equal(read_rgba32f(screen, tex), np.broadcast_to(np.float32(GREEN), (8, 8, 4)))


def test_two_threads_draw_different_scenes_concurrently_on_their_own_screens(profile, screen, ctx):
    """Parallel drawing from two threads: each thread makes its own screen
    (its own GL context, current on that thread) and draws its own scene,
    both at once, many times; every frame has exactly its own pixels (a
    rectangle of its colour on black, placed per thread and iteration), and
    the test's own context still draws afterwards."""
    from .util_query import SIZE, lit_count, pixels, rect, reset, scene

    iterations = 12
    scenes = {
        0: ((0.0, 1.0, 0.0, 1.0), lambda i: (8 + i, 16, 72 + i, 80)),
        1: ((0.0, 0.0, 1.0, 1.0), lambda i: (100, 40 + i, 180, 160 + i)),
    }
    failures: list[str] = []
    start = threading.Barrier(2)

    def worker(k):
        color, box = scenes[k]
        try:
            s = glpipe.create_screen(profile=profile)
            c = s.context_create()
            target = scene(c)
            start.wait()
            for i in range(iterations):
                reset(c, target)
                x0, y0, x1, y1 = box(i)
                rect(c, x0, y0, x1, y1, color=color)
                img = pixels(c, target)
                expected = np.zeros((SIZE, SIZE, 4), np.float32)
                expected[y0:y1, x0:x1] = color
                if not np.array_equal(img, expected):
                    failures.append(
                        f"thread {k} iteration {i}: {int(np.sum(np.any(img != expected, -1)))} wrong pixels"
                    )
            c.destroy()
            s.destroy()
        except Exception as exc:  # reported below, with the thread
            failures.append(f"thread {k}: {exc!r}")
            start.abort()

    threads = [threading.Thread(target=worker, args=(k,), name=f"scene-{k}") for k in scenes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    target = scene(ctx)
    rect(ctx, 0, 0, 10, 20)
    assert lit_count(ctx, target) == 200
