"""Time queries (context.rst "Queries"): TIME_ELAPSED, TIMESTAMP,
TIMESTAMP_DISJOINT and GPU_FINISHED, against pipe_screen::get_timestamp."""

from __future__ import annotations

import pytest

from glpipe import Cap, Query, TimestampDisjoint
from lowering.errors import InvalidArgumentError

from .util_query import finish, rect, scene


def test_time_caps(screen):
    # Both profiles have GL_ARB_timer_query (core in 3.3): nanosecond counters.
    assert screen.get_param(Cap.QUERY_TIME_ELAPSED) == 1
    assert screen.get_param(Cap.QUERY_TIMESTAMP) == 1
    assert screen.get_param(Cap.TIMER_RESOLUTION) == 1
    gl = screen.host.gl
    import numpy as np

    bits = np.zeros(1, np.int32)
    gl.glGetQueryiv(gl.GL_TIMESTAMP, gl.GL_QUERY_COUNTER_BITS, bits)
    assert screen.get_param(Cap.QUERY_TIMESTAMP_BITS) == int(bits[0]) > 0


def test_timestamps_are_monotonic_and_agree_with_get_timestamp(screen, ctx):
    """A TIMESTAMP query needs no begin; its value lies between
    get_timestamp before the end_query and get_timestamp after the result
    was read (the same clock, docs/queries.md), and a later one is not
    smaller."""
    scene(ctx)
    slack = 50_000_000  # 50 ms: the calibration of get_timestamp against the GL clock
    before = screen.get_timestamp()
    t1 = ctx.create_query(Query.TIMESTAMP)
    ctx.end_query(t1)
    rect(ctx, 0, 0, 256, 256, instances=20)
    t2 = ctx.create_query(Query.TIMESTAMP)
    ctx.end_query(t2)
    a = ctx.get_query_result(t1, True)
    b = ctx.get_query_result(t2, True)
    after = screen.get_timestamp()
    assert isinstance(a, int) and isinstance(b, int)
    assert before - slack <= a <= b <= after + slack


def test_time_elapsed_is_plausible(screen, ctx):
    """TIME_ELAPSED of some draws is positive and no longer than the wall
    time around them (as get_timestamp measures it)."""
    scene(ctx)
    q = ctx.create_query(Query.TIME_ELAPSED)
    before = screen.get_timestamp()
    ctx.begin_query(q)
    rect(ctx, 0, 0, 256, 256, instances=50)
    ctx.end_query(q)
    elapsed = ctx.get_query_result(q, True)
    after = screen.get_timestamp()
    assert isinstance(elapsed, int)
    assert 0 < elapsed <= after - before + 1_000_000


def test_time_elapsed_nests_and_ignores_pausing(screen, ctx):
    """Two TIME_ELAPSED queries nest (the outer spans the inner), and
    set_active_query_state leaves TIME_ELAPSED running (context.rst)."""
    scene(ctx)
    outer = ctx.create_query(Query.TIME_ELAPSED)
    inner = ctx.create_query(Query.TIME_ELAPSED)
    ctx.begin_query(outer)
    rect(ctx, 0, 0, 256, 256, instances=10)
    ctx.begin_query(inner)
    ctx.set_active_query_state(False)
    rect(ctx, 0, 0, 256, 256, instances=10)
    ctx.set_active_query_state(True)
    ctx.end_query(inner)
    ctx.end_query(outer)
    o = ctx.get_query_result(outer, True)
    i = ctx.get_query_result(inner, True)
    assert 0 < i <= o


def test_timestamp_disjoint(screen, ctx):
    """Resolution in Hz (GL's timer counts nanoseconds) and the disjoint flag."""
    q = ctx.create_query(Query.TIMESTAMP_DISJOINT)
    ctx.begin_query(q)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == TimestampDisjoint(frequency=1_000_000_000, disjoint=False)


def test_gpu_finished(screen, ctx):
    """GPU_FINISHED needs no begin; after a finish it is True; before, a
    non-blocking read answers True or None (not ready)."""
    scene(ctx)
    q = ctx.create_query(Query.GPU_FINISHED)
    rect(ctx, 0, 0, 256, 256, instances=20)
    ctx.end_query(q)
    assert ctx.get_query_result(q, False) in (True, None)
    assert ctx.get_query_result(q, True) is True
    finish(ctx)
    assert ctx.get_query_result(q, False) is True


def test_begin_is_not_needed_but_allowed_for_point_queries(screen, ctx):
    """TIMESTAMP and GPU_FINISHED take no begin; a begin_query is accepted
    (it only resets), as Gallium drivers do."""
    for qtype in (Query.TIMESTAMP, Query.GPU_FINISHED):
        q = ctx.create_query(qtype)
        ctx.begin_query(q)
        ctx.end_query(q)
        assert ctx.get_query_result(q, True)


@pytest.mark.parametrize("qtype", [Query.TIMESTAMP, Query.TIME_ELAPSED, Query.GPU_FINISHED])
def test_index_must_be_zero(ctx, qtype):
    with pytest.raises(InvalidArgumentError):
        ctx.create_query(qtype, 1)
