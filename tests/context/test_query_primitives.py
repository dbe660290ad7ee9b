"""PRIMITIVES_GENERATED / PRIMITIVES_EMITTED / SO_STATISTICS
(context.rst "Queries"): counts per primitive type and instancing, worked
out by hand from GL's primitive assembly."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Cap, DrawInfo, PolygonMode, Prim, Query, SOStatistics, VertexBuffer
from lowering.errors import InvalidArgumentError

from .util_draw import bind_rasterizer, point_grid_vertices
from .util_query import scene

N = 12  # vertices per draw
# Primitives assembled from N vertices, by hand (GL 4.5 core 10.1).
EXPECTED = {
    Prim.POINTS: N,
    Prim.LINES: N // 2,
    Prim.LINE_STRIP: N - 1,
    Prim.LINE_LOOP: N,
    Prim.TRIANGLES: N // 3,
    Prim.TRIANGLE_STRIP: N - 2,
    Prim.TRIANGLE_FAN: N - 2,
    Prim.LINES_ADJACENCY: N // 4,
    Prim.LINE_STRIP_ADJACENCY: N - 3,
    Prim.TRIANGLES_ADJACENCY: N // 6,
    Prim.TRIANGLE_STRIP_ADJACENCY: (N - 4) // 2,
}


def _bind_points(ctx):
    scene(ctx, size=16)
    verts = point_grid_vertices(N)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts.tobytes(), stride=32)])


@pytest.mark.parametrize("mode", list(EXPECTED), ids=lambda m: m.name)
@pytest.mark.parametrize("instances", [1, 3])
def test_primitives_generated_per_prim_type(screen, ctx, mode, instances):
    _bind_points(ctx)
    q = ctx.create_query(Query.PRIMITIVES_GENERATED)
    ctx.begin_query(q)
    ctx.draw_vbo(DrawInfo(mode=mode, count=N, instance_count=instances))
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == EXPECTED[mode] * instances


def test_primitives_generated_indexed_draw(screen, ctx):
    _bind_points(ctx)
    q = ctx.create_query(Query.PRIMITIVES_GENERATED)
    ctx.begin_query(q)
    idx = np.array([0, 1, 2, 2, 1, 3, 4, 5, 6], np.uint16)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, index_size=2, index=idx.tobytes(), count=9))
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 3


def test_primitives_emitted_and_so_statistics_without_stream_output(screen, ctx):
    """Without stream output bound nothing is written: PRIMITIVES_EMITTED
    is 0, SO_STATISTICS says (0 written, the generated count needed)."""
    _bind_points(ctx)
    emitted = ctx.create_query(Query.PRIMITIVES_EMITTED)
    stats = ctx.create_query(Query.SO_STATISTICS)
    ctx.begin_query(emitted)
    ctx.begin_query(stats)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=N))
    ctx.end_query(stats)
    ctx.end_query(emitted)
    assert ctx.get_query_result(emitted, True) == 0
    assert ctx.get_query_result(stats, True) == SOStatistics(num_primitives_written=0, primitives_storage_needed=N // 3)


def test_vertex_stream_index(screen, ctx):
    """``index`` selects the vertex stream; draws without a geometry shader
    emit on stream 0 only.  Streams past the host's count are refused."""
    streams = 4 if screen.profile.has("transform_feedback3") else 1
    _bind_points(ctx)
    qs = [ctx.create_query(Query.PRIMITIVES_GENERATED, i) for i in range(streams)]
    for q in qs:
        ctx.begin_query(q)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=N))
    for q in qs:
        ctx.end_query(q)
    assert [ctx.get_query_result(q, True) for q in qs] == [N] + [0] * (streams - 1)
    with pytest.raises(InvalidArgumentError, match="stream"):
        ctx.create_query(Query.PRIMITIVES_GENERATED, streams)
    with pytest.raises(InvalidArgumentError, match="stream"):
        ctx.create_query(Query.SO_STATISTICS, streams)
    assert screen.get_param(Cap.QUERY_SO_OVERFLOW) == int(screen.profile.has("transform_feedback_overflow_query"))


@pytest.mark.parametrize(
    "fields,mode,expected",
    [
        (
            {"line_stipple_enable": True, "line_stipple_factor": 1, "line_stipple_pattern": 0x0F0F},
            Prim.LINE_STRIP,
            N - 1,
        ),
        ({"fill_front": PolygonMode.LINE, "fill_back": PolygonMode.POINT}, Prim.TRIANGLES, N // 3),
    ],
    ids=["stippled_strip", "two_fill_modes"],
)
def test_emulation_passes_are_not_counted(screen, ctx, fields, mode, expected):
    """Rasterizer emulations that first capture the VS positions by transform
    feedback (glpipe/raster/vertex_capture.py) run that capture as an
    internal draw: the user's query counts the draw's primitives only."""
    _bind_points(ctx)
    bind_rasterizer(ctx, **fields)
    q = ctx.create_query(Query.PRIMITIVES_GENERATED)
    ctx.begin_query(q)
    ctx.draw_vbo(DrawInfo(mode=mode, count=N))
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == expected
