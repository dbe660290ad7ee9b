"""pipe_context::render_condition (context.rst "Conditional Rendering"):
every mode, the condition and its inversion, on pixels; draw_vbo and clear
always honour it, clear_render_target / clear_depth_stencil when asked;
NULL disables it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import glpipe
from glpipe import Cap, Clear, Format, Query, RenderCond, SurfaceTemplate
from glpipe.dirty import KeepGeneral
from lowering.errors import InvalidArgumentError

from .util_query import GREEN, finish, lit_count, pixels, rect, reset, scene

MODES = list(RenderCond)


def _predicate(ctx, visible: bool, qtype=Query.OCCLUSION_COUNTER):
    """A query whose result is non-zero (``visible``) or zero."""
    q = ctx.create_query(qtype)
    ctx.begin_query(q)
    rect(ctx, 0, 0, 10, 10) if visible else rect(ctx, 0, 0, 0, 10)
    ctx.end_query(q)
    return q


def test_caps(screen):
    assert screen.get_param(Cap.CONDITIONAL_RENDER) == 1
    # Native on GL 4.5; a CPU wait on the result on GL 3.3 (docs/queries.md).
    assert screen.get_param(Cap.CONDITIONAL_RENDER_INVERTED) == 1


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@pytest.mark.parametrize("visible,condition", list(itertools.product((True, False), (True, False))))
def test_draw_vbo_follows_the_condition(screen, ctx, mode, visible, condition):
    """Draws are skipped when ``condition`` equals the predicate result."""
    color = scene(ctx)
    q = _predicate(ctx, visible)
    if mode in (RenderCond.NO_WAIT, RenderCond.BY_REGION_NO_WAIT):
        finish(ctx)  # NO_WAIT predicates only once the result is there
    reset(ctx, color)
    ctx.render_condition(q, condition, mode)
    rect(ctx, 100, 100, 110, 120, GREEN)
    ctx.render_condition(None, False, RenderCond.WAIT)
    drawn = visible != condition
    assert lit_count(ctx, color) == (200 if drawn else 0)
    # NULL disabled it: the next draw always happens.
    rect(ctx, 0, 0, 1, 1, GREEN)
    assert lit_count(ctx, color) == (201 if drawn else 1)


@pytest.mark.parametrize("qtype", [Query.OCCLUSION_PREDICATE, Query.OCCLUSION_PREDICATE_CONSERVATIVE])
@pytest.mark.parametrize("condition", [False, True])
def test_predicate_queries(screen, ctx, qtype, condition):
    color = scene(ctx)
    for visible in (False, True):
        q = _predicate(ctx, visible, qtype)
        reset(ctx, color)
        ctx.render_condition(q, condition, RenderCond.WAIT)
        rect(ctx, 100, 100, 110, 110, GREEN)
        ctx.render_condition(None, False, RenderCond.WAIT)
        assert lit_count(ctx, color) == (100 if visible != condition else 0)


@pytest.mark.parametrize("condition", [False, True])
def test_nested_query_as_condition(screen, ctx, condition):
    """A query made of several host segments (it was nested with another)
    still predicates correctly."""
    color = scene(ctx)
    for visible in (False, True):
        outer = ctx.create_query(Query.OCCLUSION_COUNTER)
        other = ctx.create_query(Query.OCCLUSION_COUNTER)
        ctx.begin_query(outer)
        ctx.begin_query(other)
        rect(ctx, 0, 0, 3, 3) if visible else None
        ctx.end_query(other)
        ctx.end_query(outer)
        reset(ctx, color)
        ctx.render_condition(outer, condition, RenderCond.WAIT)
        rect(ctx, 100, 100, 110, 110, GREEN)
        ctx.render_condition(None, False, RenderCond.WAIT)
        assert lit_count(ctx, color) == (100 if visible != condition else 0)


def test_clear_honours_the_condition(screen, ctx):
    color = scene(ctx)
    hidden = _predicate(ctx, False)
    reset(ctx, color)
    ctx.render_condition(hidden, False, RenderCond.WAIT)
    ctx.clear(Clear.COLOR0, None, (0, 1, 0, 1), 1.0, 0)
    assert lit_count(ctx, color) == 0
    ctx.render_condition(hidden, True, RenderCond.WAIT)
    ctx.clear(Clear.COLOR0, None, (0, 1, 0, 1), 1.0, 0)
    assert lit_count(ctx, color) == 256 * 256


def test_clear_render_target_honours_it_only_when_enabled(screen, ctx):
    color = scene(ctx)
    surf = ctx.create_surface(color, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
    hidden = _predicate(ctx, False)
    reset(ctx, color)
    ctx.render_condition(hidden, False, RenderCond.WAIT)
    ctx.clear_render_target(surf, (0, 1, 0, 1), 0, 0, 10, 10, True)
    assert lit_count(ctx, color) == 0
    ctx.clear_render_target(surf, (0, 1, 0, 1), 0, 0, 10, 10, False)
    assert lit_count(ctx, color) == 100
    assert np.all(pixels(ctx, color)[:10, :10] == (0, 1, 0, 1))


def test_clear_depth_stencil_honours_it_only_when_enabled(screen, ctx):
    """Observed through the depth test: a rectangle at depth 0.5 passes LESS
    where the clear wrote 1.0 and fails where it was skipped (0.0 left)."""
    color = scene(ctx, zs=Format.Z24_UNORM_S8_UINT)
    dsa = glpipe.DepthStencilAlphaState(depth_enabled=True, depth_writemask=False, depth_func=glpipe.Func.LESS)
    ctx.bind_depth_stencil_alpha_state(ctx.create_depth_stencil_alpha_state(dsa))
    ctx.clear(Clear.DEPTH, None, (0, 0, 0, 0), 0.0, 0)
    zsurf = ctx.framebuffer_part.framebuffer.zsbuf
    hidden = _predicate(ctx, False)
    reset(ctx, color)
    ctx.render_condition(hidden, False, RenderCond.WAIT)
    ctx.clear_depth_stencil(zsurf, Clear.DEPTH, 1.0, 0, 0, 0, 20, 20, True)  # skipped
    ctx.clear_depth_stencil(zsurf, Clear.DEPTH, 1.0, 0, 100, 100, 20, 20, False)  # done
    ctx.render_condition(None, False, RenderCond.WAIT)
    rect(ctx, 0, 0, 256, 256, GREEN)
    img = pixels(ctx, color)
    assert np.all(img[100:120, 100:120] == GREEN)
    assert lit_count(ctx, color) == 400


def test_render_condition_keeps_draws_off_the_fast_path_only_while_set(screen, ctx):
    scene(ctx)
    q = _predicate(ctx, True)
    ctx.render_condition(q, False, RenderCond.WAIT)
    assert ctx.keep_general & KeepGeneral.RENDER_CONDITION
    ctx.render_condition(None, False, RenderCond.WAIT)
    rect(ctx, 0, 0, 1, 1)
    assert not ctx.keep_general & KeepGeneral.RENDER_CONDITION


def test_render_condition_errors(screen, ctx):
    scene(ctx)
    q = _predicate(ctx, True)
    with pytest.raises(InvalidArgumentError):
        ctx.render_condition(q, False, 9)
    with pytest.raises(InvalidArgumentError):
        ctx.render_condition(q, "no", RenderCond.WAIT)
    ts = ctx.create_query(Query.TIMESTAMP)
    with pytest.raises(InvalidArgumentError, match="predicate"):
        ctx.render_condition(ts, False, RenderCond.WAIT)
    other = screen.context_create()
    try:
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.render_condition(other.create_query(Query.OCCLUSION_COUNTER), False, RenderCond.WAIT)
    finally:
        other.destroy()
    active = ctx.create_query(Query.OCCLUSION_COUNTER)
    ctx.begin_query(active)
    with pytest.raises(InvalidArgumentError, match="active"):
        ctx.render_condition(active, False, RenderCond.WAIT)
    ctx.end_query(active)
    ctx.render_condition(q, False, RenderCond.WAIT)
    with pytest.raises(InvalidArgumentError, match="render condition"):
        ctx.begin_query(q)
    with pytest.raises(InvalidArgumentError, match="render condition"):
        ctx.destroy_query(q)
    ctx.render_condition(None, False, RenderCond.WAIT)
    ctx.destroy_query(q)
