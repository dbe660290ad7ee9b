"""PIPELINE_STATISTICS and PIPELINE_STATISTICS_SINGLE for a known draw
(context.rst "Queries"), where the host has ARB_pipeline_statistics_query;
elsewhere the caps say 0 and create_query refuses."""

from __future__ import annotations

import pytest

from glpipe import Cap, PipelineStatistics, Query, StatQuery
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util_query import rect, scene

FIELDS = list(PipelineStatistics.__dataclass_fields__)


def test_pipeline_statistics_of_a_known_draw(screen, ctx):
    if not screen.profile.has("pipeline_statistics_query"):
        assert screen.get_param(Cap.QUERY_PIPELINE_STATISTICS) == 0
        assert screen.get_param(Cap.QUERY_PIPELINE_STATISTICS_SINGLE) == 0
        with pytest.raises(UnsupportedError):
            ctx.create_query(Query.PIPELINE_STATISTICS)
        with pytest.raises(UnsupportedError):
            ctx.create_query(Query.PIPELINE_STATISTICS_SINGLE, StatQuery.IA_VERTICES)
        return
    assert screen.get_param(Cap.QUERY_PIPELINE_STATISTICS) == 1
    scene(ctx)
    q = ctx.create_query(Query.PIPELINE_STATISTICS)
    singles = {s: ctx.create_query(Query.PIPELINE_STATISTICS_SINGLE, s) for s in StatQuery}
    ctx.begin_query(q)
    for s in singles.values():
        ctx.begin_query(s)
    # Two instances of a 2-triangle, 6-vertex rectangle of 200 x 150 pixels,
    # wholly inside the viewport: nothing clipped.
    rect(ctx, 20, 30, 220, 180, instances=2)
    for s in singles.values():
        ctx.end_query(s)
    ctx.end_query(q)
    r = ctx.get_query_result(q, True)
    assert isinstance(r, PipelineStatistics)
    assert r.ia_vertices == 12 and r.ia_primitives == 4
    assert r.vs_invocations == 12  # a non-indexed draw shares no vertex
    assert r.c_invocations == 4 and r.c_primitives == 4
    assert r.ps_invocations >= 2 * 200 * 150  # helper invocations may add some (GL allows)
    # No GS, tessellation, compute, task or mesh stage ran.
    assert (r.gs_invocations, r.gs_primitives, r.hs_invocations, r.ds_invocations) == (0, 0, 0, 0)
    assert (r.cs_invocations, r.ts_invocations, r.ms_invocations) == (0, 0, 0)
    for stat, single in singles.items():
        assert ctx.get_query_result(single, True) == getattr(r, FIELDS[stat]), stat.name


def test_pipeline_statistics_single_needs_a_stat_index(screen, ctx):
    if not screen.profile.has("pipeline_statistics_query"):
        pytest.skip("covered by the refusal in test_pipeline_statistics_of_a_known_draw")
    with pytest.raises(InvalidArgumentError):
        ctx.create_query(Query.PIPELINE_STATISTICS_SINGLE, 13)
    with pytest.raises(InvalidArgumentError):
        ctx.create_query(Query.PIPELINE_STATISTICS, 1)
