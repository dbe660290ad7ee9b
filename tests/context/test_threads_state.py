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
from contextlib import contextmanager

from glpipe import DrawInfo, Prim, VertexBuffer

from .util_draw import vertices
from .util_query import GREEN, scene

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
