"""Occlusion queries (context.rst "Queries"): exact sample counts from
hand-derived geometry, predicates, nesting, reset on begin, pausing,
glpipe's internal-draw suspension, and the boundary checks.

Every rectangle's edges lie on pixel boundaries, so it covers exactly
(x1 - x0) * (y1 - y0) pixels (GL's pixel-centre rule), each with all of
its samples: a 200 x 150 quad is 30000 samples, 120000 at 4x MSAA."""

from __future__ import annotations

import pytest

import glpipe
from glpipe import Bind, Cap, Format, Query, ResourceTemplate, SurfaceTemplate, Target
from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .util_draw import bind_rasterizer
from .util_query import SIZE, finish, rect, scene


def _count(ctx, qtype, *rects, index=0):
    q = ctx.create_query(qtype, index)
    ctx.begin_query(q)
    for r in rects:
        rect(ctx, *r)
    ctx.end_query(q)
    return ctx.get_query_result(q, True)


def test_occlusion_counter_counts_every_covered_sample(screen, ctx):
    assert screen.get_param(Cap.OCCLUSION_QUERY) == 1
    scene(ctx)
    assert _count(ctx, Query.OCCLUSION_COUNTER, (20, 30, 220, 180)) == 200 * 150
    # Two disjoint rectangles add up; an empty one counts nothing.
    assert _count(ctx, Query.OCCLUSION_COUNTER, (0, 0, 10, 10), (100, 100, 117, 103)) == 100 + 17 * 3
    assert _count(ctx, Query.OCCLUSION_COUNTER, (5, 5, 5, 50)) == 0


def test_occlusion_counter_respects_the_depth_test(screen, ctx):
    """Samples failing the depth test are not counted (context.rst: culled by
    depth-stencil-alpha testing): a far rectangle behind a near one counts
    only its uncovered part."""
    scene(ctx, zs=Format.Z24_UNORM_S8_UINT)
    dsa = glpipe.DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=glpipe.Func.LESS)
    ctx.bind_depth_stencil_alpha_state(ctx.create_depth_stencil_alpha_state(dsa))
    ctx.clear(glpipe.Clear.DEPTH | glpipe.Clear.COLOR, None, (0, 0, 0, 0), 1.0, 0)
    rect(ctx, 0, 0, 100, 100)  # z = 0 (depth 0.5): writes depth
    # The same depth again fails LESS everywhere it overlaps the first.
    assert _count(ctx, Query.OCCLUSION_COUNTER, (50, 50, 150, 150)) == 100 * 100 - 50 * 50


def test_occlusion_counter_counts_samples_not_pixels(screen, ctx):
    fmt = Format.R8G8B8A8_UNORM
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, 4, 4, Bind.RENDER_TARGET):
        pytest.skip("no 4x MSAA render target on this host")
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=fmt, width0=SIZE, height0=SIZE, nr_samples=4, bind=Bind.RENDER_TARGET
        )
    )
    scene(ctx)
    bind_rasterizer(ctx, multisample=True)
    surf = ctx.create_surface(res, SurfaceTemplate(format=fmt))
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,), samples=4))
    assert _count(ctx, Query.OCCLUSION_COUNTER, (20, 30, 220, 180)) == 4 * 200 * 150


@pytest.mark.parametrize("qtype", [Query.OCCLUSION_PREDICATE, Query.OCCLUSION_PREDICATE_CONSERVATIVE])
def test_occlusion_predicates(screen, ctx, qtype):
    scene(ctx)
    assert _count(ctx, qtype, (20, 30, 220, 180)) is True
    assert _count(ctx, qtype, (20, 30, 20, 180)) is False
    assert _count(ctx, qtype) is False  # nothing drawn


def test_nested_queries_of_one_type(screen, ctx):
    """Queries nest (context.rst): the outer one sees every draw, the inner
    one only those between its begin and end."""
    scene(ctx)
    outer = ctx.create_query(Query.OCCLUSION_COUNTER)
    inner = ctx.create_query(Query.OCCLUSION_COUNTER)
    pred = ctx.create_query(Query.OCCLUSION_PREDICATE)
    ctx.begin_query(outer)
    rect(ctx, 0, 0, 10, 10)  # 100
    ctx.begin_query(inner)
    ctx.begin_query(pred)
    rect(ctx, 0, 0, 20, 10)  # 200
    ctx.end_query(inner)
    rect(ctx, 0, 0, 3, 3)  # 9
    ctx.end_query(outer)
    ctx.end_query(pred)
    assert ctx.get_query_result(outer, True) == 309
    assert ctx.get_query_result(inner, True) == 200
    assert ctx.get_query_result(pred, True) is True


def test_begin_resets_the_result(screen, ctx):
    scene(ctx)
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    ctx.begin_query(q)
    rect(ctx, 0, 0, 10, 10)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 100
    ctx.begin_query(q)
    rect(ctx, 0, 0, 4, 4)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 16


def test_result_without_wait(screen, ctx):
    """wait=False returns None until the result is ready, never blocks; once
    the GPU finished, the result is there."""
    scene(ctx)
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    ctx.begin_query(q)
    rect(ctx, 0, 0, 10, 10)
    ctx.end_query(q)
    first = ctx.get_query_result(q, False)
    assert first in (None, 100)
    finish(ctx)
    assert ctx.get_query_result(q, False) == 100


def test_set_active_query_state_pauses_occlusion(screen, ctx):
    """set_active_query_state(False) pauses every non-TIME_ELAPSED query."""
    scene(ctx)
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    ctx.begin_query(q)
    rect(ctx, 0, 0, 10, 10)
    ctx.set_active_query_state(False)
    rect(ctx, 0, 0, 100, 100)  # not counted
    ctx.set_active_query_state(True)
    rect(ctx, 0, 0, 2, 2)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 104


def test_internal_draws_are_not_counted(screen, ctx):
    """glpipe's own draws run inside ``ctx.query_part.suspended()`` and
    never count toward the user's queries (docs/queries.md)."""
    scene(ctx)
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    ctx.begin_query(q)
    rect(ctx, 0, 0, 10, 10)
    with ctx.query_part.suspended():
        rect(ctx, 0, 0, 100, 100)
        with ctx.query_part.suspended():  # nests
            rect(ctx, 0, 0, 50, 50)
        rect(ctx, 0, 0, 100, 100)
    rect(ctx, 0, 0, 1, 1)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 101


def test_clears_do_not_count(screen, ctx):
    scene(ctx)
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    ctx.begin_query(q)
    ctx.clear(glpipe.Clear.COLOR0, None, (0.5, 0, 0, 1), 1.0, 0)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 0


def test_query_object_fields_and_lifetime(screen, ctx):
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    assert q.type == Query.OCCLUSION_COUNTER and q.index == 0 and q.context is ctx
    ctx.destroy_query(q)
    with pytest.raises(ObjectDestroyedError):
        ctx.begin_query(q)
    with pytest.raises(ObjectDestroyedError):
        ctx.get_query_result(q, True)
    other = screen.context_create()
    try:
        q2 = other.create_query(Query.OCCLUSION_COUNTER)
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.begin_query(q2)
    finally:
        other.destroy()


@pytest.mark.parametrize(
    "args",
    [(999,), (-1,), ("OCCLUSION",), (Query.OCCLUSION_COUNTER, 1), (Query.OCCLUSION_COUNTER, -1), (True,)],
)
def test_create_query_bad_arguments(screen, ctx, args):
    with pytest.raises(InvalidArgumentError):
        ctx.create_query(*args)


def test_query_usage_errors(screen, ctx):
    scene(ctx)
    q = ctx.create_query(Query.OCCLUSION_COUNTER)
    with pytest.raises(InvalidArgumentError, match="not active"):
        ctx.end_query(q)
    ctx.begin_query(q)
    with pytest.raises(InvalidArgumentError, match="already active"):
        ctx.begin_query(q)
    with pytest.raises(InvalidArgumentError, match="active"):
        ctx.get_query_result(q, True)
    ctx.end_query(q)
    with pytest.raises(InvalidArgumentError):
        ctx.get_query_result(q, "yes")
    with pytest.raises(InvalidArgumentError):
        ctx.begin_query(object())
    with pytest.raises(InvalidArgumentError):
        ctx.set_active_query_state(2)
    never = ctx.create_query(Query.OCCLUSION_COUNTER)
    assert ctx.get_query_result(never, True) == 0  # never begun: nothing counted


def test_so_overflow_queries_are_refused_while_the_cap_is_zero(screen, ctx):
    if screen.get_param(Cap.QUERY_SO_OVERFLOW):
        pytest.skip("the host has overflow queries: test_stream_output.py::test_overflow_predicates proves them")
    for qtype in (Query.SO_OVERFLOW_PREDICATE, Query.SO_OVERFLOW_ANY_PREDICATE):
        with pytest.raises(UnsupportedError):
            ctx.create_query(qtype)


def test_destroying_the_context_frees_active_queries(screen):
    c = screen.context_create()
    scene(c)
    q = c.create_query(Query.OCCLUSION_COUNTER)
    c.begin_query(q)
    rect(c, 0, 0, 4, 4)
    c.destroy()
    assert q.destroyed
    # The host's occlusion slot is free again: another context counts normally.
    c2 = screen.context_create()
    try:
        scene(c2)
        assert _count(c2, Query.OCCLUSION_COUNTER, (0, 0, 8, 8)) == 64
    finally:
        c2.destroy()


def test_framebuffer_without_attachments_is_counted(screen, ctx):
    """FRAMEBUFFER_NO_ATTACHMENT: a framebuffer of width x height with no
    surface rasterizes, which only an occlusion query can observe."""
    if not screen.get_param(Cap.FRAMEBUFFER_NO_ATTACHMENT):
        assert not screen.profile.has("framebuffer_no_attachments")
        return
    scene(ctx)
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=SIZE, height=SIZE, cbufs=()))
    assert _count(ctx, Query.OCCLUSION_COUNTER, (20, 30, 220, 180)) == 200 * 150
    # A smaller framebuffer clips the rectangle to its size.
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=100, height=100, cbufs=()))
    assert _count(ctx, Query.OCCLUSION_COUNTER, (20, 30, 220, 180)) == 80 * 70


def test_queries_count_only_their_own_contexts_draws(screen, ctx):
    """Contexts of a screen share the host GL context: a query of one
    context still counts only that context's draws (docs/queries.md
    "Segments"), both contexts' queries active at once."""
    other = screen.context_create()
    try:
        scene(ctx)
        scene(other)
        qa = ctx.create_query(Query.OCCLUSION_COUNTER)
        qb = other.create_query(Query.OCCLUSION_COUNTER)
        ctx.begin_query(qa)
        other.begin_query(qb)
        rect(ctx, 0, 0, 10, 10)
        rect(other, 0, 0, 7, 7)
        rect(ctx, 0, 0, 2, 2)
        other.end_query(qb)
        rect(other, 0, 0, 50, 50)
        ctx.end_query(qa)
        assert ctx.get_query_result(qa, True) == 104
        assert other.get_query_result(qb, True) == 49
        # ``ctx`` draws last; ``other`` begins a query, then ``ctx`` draws on
        # (no context switch in between) before ``other`` draws.
        rect(ctx, 0, 0, 1, 1)
        ctx.begin_query(qa)
        other.begin_query(qb)
        rect(ctx, 0, 0, 3, 3)
        rect(other, 0, 0, 5, 5)
        rect(ctx, 0, 0, 1, 1)
        ctx.end_query(qa)
        other.end_query(qb)
        assert ctx.get_query_result(qa, True) == 10
        assert other.get_query_result(qb, True) == 25
    finally:
        other.destroy()
