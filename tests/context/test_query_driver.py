"""Driver-specific queries (screen.rst get_driver_query_info; created with
create_query(PIPE_QUERY_DRIVER_SPECIFIC + i)): each counts what happened
between begin and end, the numbers a HUD shows."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    BlendState,
    Box,
    DepthStencilAlphaState,
    DrawInfo,
    DrawStartCountBias,
    Format,
    Map,
    Prim,
    Query,
    RasterizerState,
    ResourceTemplate,
    SamplerState,
    ShaderState,
    ShaderType,
    Target,
    VertexBuffer,
)
from lowering.errors import InvalidArgumentError

from .util_draw import FLAT_FS, vertices
from .util_query import RED, SIZE, rect, scene


def _by_name(screen):
    return {info.name: info for info in screen.get_driver_query_info()}


def _measure(ctx, name, work):
    info = _by_name(ctx.screen)[name]
    q = ctx.create_query(info.query_type)
    ctx.begin_query(q)
    work()
    ctx.end_query(q)
    return ctx.get_query_result(q, True)


def test_every_listed_driver_query_can_be_created(screen, ctx):
    infos = screen.get_driver_query_info()
    assert len(infos) >= 7
    for info in infos:
        q = ctx.create_query(info.query_type)
        ctx.begin_query(q)
        ctx.end_query(q)
        assert ctx.get_query_result(q, True) == 0  # nothing happened in between
    groups = screen.get_driver_query_group_info()
    assert sum(g.num_queries for g in groups) == len(infos)
    with pytest.raises(InvalidArgumentError):
        ctx.create_query(int(Query.DRIVER_SPECIFIC) + len(infos))


def test_draw_calls(screen, ctx):
    scene(ctx)
    assert _measure(ctx, "draw-calls", lambda: [rect(ctx, 0, 0, 4, 4) for _ in range(5)]) == 5


def test_bytes_uploaded_and_read_back(screen, ctx):
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=1000, bind=Bind.VERTEX_BUFFER)
    )
    data = np.arange(1000, dtype=np.uint8) % 251
    assert _measure(ctx, "bytes-uploaded", lambda: ctx.buffer_subdata(res, Map.WRITE, 0, data.tobytes())) == 1000

    def read():
        t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=1000))
        assert bytes(np.asarray(t.data).tobytes()) == data.tobytes()
        ctx.transfer_unmap(t)

    assert _measure(ctx, "bytes-downloaded", read) >= 1000


def test_shader_variants_and_programs(screen, ctx):
    """A shader never seen before compiles at its first draw and links a
    program; drawing again with the same state compiles and links nothing."""
    scene(ctx)
    # A new FS (never compiled on this screen: a unique constant).
    fs = FLAT_FS.replace("MOV OUT[0], IN[0]", "ADD OUT[0], IN[0], IMM[0]").replace(
        "DCL OUT[0], COLOR\n", "DCL OUT[0], COLOR\nIMM[0] FLT32 {0.0, 0.0, 0.0, 0.123457}\n"
    )

    def first():
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
        rect(ctx, 0, 0, 4, 4)

    def again():
        rect(ctx, 0, 0, 4, 4)

    assert _measure(ctx, "shader-variants-compiled", first) >= 1
    assert _measure(ctx, "shader-variants-compiled", again) == 0
    assert _measure(ctx, "programs-linked", again) == 0


# Primitives a draw of ``count`` vertices assembles, per mode, from the GL
# rules (GL 4.6 core, 10.1 "Primitive types"; every primitive of a strip, loop
# or fan counted), times the instances: the expected values of the
# "primitives-submitted" test, derived by hand here, not by glpipe.
_PRIMS = (
    (Prim.POINTS, 7, 1, 7),
    (Prim.LINES, 7, 1, 3),
    (Prim.LINE_STRIP, 7, 1, 6),
    (Prim.LINE_LOOP, 7, 1, 7),
    (Prim.TRIANGLES, 7, 1, 2),
    (Prim.TRIANGLE_STRIP, 7, 1, 5),
    (Prim.TRIANGLE_FAN, 7, 1, 5),
    (Prim.TRIANGLES, 6, 3, 6),
    (Prim.QUADS, 8, 1, 2),
    (Prim.QUAD_STRIP, 8, 1, 3),
    (Prim.POLYGON, 6, 1, 1),
)


@pytest.mark.parametrize(("mode", "count", "instances", "expected"), _PRIMS)
def test_primitives_submitted(screen, ctx, mode, count, instances, expected):
    scene(ctx)
    pts = [(10.0 + 20 * (i % 4), 10.0 + 30 * (i // 4)) for i in range(count)]
    vb = VertexBuffer(buffer=vertices(pts, RED, SIZE).tobytes(), stride=32)

    def draw():
        ctx.set_vertex_buffers([vb])
        ctx.draw_vbo(DrawInfo(mode=mode, count=count, instance_count=instances))

    draw()  # first draw: the general path; the measured ones may take the fast path
    assert _measure(ctx, "primitives-submitted", lambda: [draw() for _ in range(3)]) == 3 * expected


def test_primitives_submitted_multi_draw(screen, ctx):
    scene(ctx)
    pts = [(float(i), float(i)) for i in range(9)]
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(pts, RED, SIZE).tobytes(), stride=32)])
    draws = [DrawStartCountBias(start=0, count=3), DrawStartCountBias(start=3, count=6)]
    got = _measure(ctx, "primitives-submitted", lambda: ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES), draws=draws))
    assert got == 1 + 2


def test_binds_and_redundant_binds(screen, ctx):
    """Every bind_*_state call counts as a bind; one that binds what is
    already bound is filtered (no state change) and counts as redundant."""
    a = ctx.create_blend_state(BlendState())
    b = ctx.create_blend_state(BlendState(dither=True))
    r = ctx.create_rasterizer_state(RasterizerState())
    d = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState())
    ctx.bind_blend_state(a)
    ctx.bind_rasterizer_state(r)
    ctx.bind_depth_stencil_alpha_state(d)
    fs = ctx.create_fs_state(ShaderState(tokens=FLAT_FS))
    samp = ctx.create_sampler_state(SamplerState())
    ctx.bind_fs_state(fs)

    def work():
        ctx.bind_fs_state(fs)  # redundant
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [samp])
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [None])
        ctx.bind_blend_state(a)  # redundant
        ctx.bind_blend_state(b)
        ctx.bind_blend_state(b)  # redundant
        ctx.bind_rasterizer_state(r)  # redundant
        ctx.bind_depth_stencil_alpha_state(None)
        ctx.bind_depth_stencil_alpha_state(d)
        ctx.bind_depth_stencil_alpha_state(d)  # redundant

    assert _measure(ctx, "state-binds", work) == 10
    ctx.bind_blend_state(a)  # the state work() starts from again
    assert _measure(ctx, "redundant-binds-filtered", work) == 5


def test_shader_cache_hits(screen, ctx):
    """Selecting a program for a new combination of shaders looks each
    stage's variant up: the VS drawn before is found (a hit), the new FS is
    compiled (no hit)."""
    scene(ctx)
    rect(ctx, 0, 0, 4, 4)
    fs = FLAT_FS.replace("MOV OUT[0], IN[0]", "ADD OUT[0], IN[0], IMM[0]").replace(
        "DCL OUT[0], COLOR\n", "DCL OUT[0], COLOR\nIMM[0] FLT32 {0.0, 0.0, 0.0, 0.654321}\n"
    )
    new_fs = ctx.create_fs_state(ShaderState(tokens=fs))

    def first():
        ctx.bind_fs_state(new_fs)
        rect(ctx, 0, 0, 4, 4)

    def again():
        rect(ctx, 0, 0, 4, 4)

    info = _by_name(screen)
    queries = {n: ctx.create_query(info[n].query_type) for n in ("shader-cache-hits", "shader-variants-compiled")}
    for q in queries.values():
        ctx.begin_query(q)
    first()
    for q in queries.values():
        ctx.end_query(q)
    assert ctx.get_query_result(queries["shader-cache-hits"], True) == 1  # the VS
    assert ctx.get_query_result(queries["shader-variants-compiled"], True) == 1  # the FS
    # The program itself is cached: no lookup.  GLPIPE_DEBUG=nofast forgets
    # that memo before every draw (docs/debug.md), so the two bound stages'
    # variants are looked up, and found, again.
    expected = 2 if "nofast" in ctx.debug_flags else 0
    assert _measure(ctx, "shader-cache-hits", again) == expected


def test_fallback_hits_by_feature(screen, ctx):
    """QUADS have no GL core primitive: each draw goes through the index
    translation fallback, counted under its registry name and in the total."""
    from fallback.registry import FALLBACKS

    names = {info.name for info in screen.get_driver_query_info()}
    per_feature = {n for n in names if n.startswith("fallback-hits-")}
    assert per_feature, "no per-feature fallback counters listed"
    registry = {f.name for f in FALLBACKS}
    assert {n[len("fallback-hits-") :] for n in per_feature} <= registry
    scene(ctx)
    pts = [(10.0, 10.0), (50.0, 10.0), (50.0, 50.0), (10.0, 50.0)]
    vb = VertexBuffer(buffer=vertices(pts, RED, SIZE).tobytes(), stride=32)

    def quads():
        for _ in range(3):
            ctx.set_vertex_buffers([vb])
            ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, count=4))

    assert _measure(ctx, "fallback-hits-quads_quad_strips_polygons", quads) == 3
    assert _measure(ctx, "fallback-hits", quads) == 3
    assert _measure(ctx, "fallback-hits-draw_indirect_unroll", quads) == 0


def test_counting_covers_every_context_and_costs_nothing_after(screen, ctx):
    """While a "primitives-submitted" / "state-binds" query is active on one
    context, the draws and binds of the screen's other contexts (one made
    during the query too) count; after end_query the entry points are the
    uncounted ones again (the fast path carries no counting code)."""
    scene(ctx)
    before = (ctx.draw_vbo, ctx.bind_blend_state)
    info = _by_name(screen)
    prims = ctx.create_query(info["primitives-submitted"].query_type)
    binds = ctx.create_query(info["state-binds"].query_type)
    ctx.begin_query(prims)
    ctx.begin_query(binds)
    other = screen.context_create()
    try:
        scene(other)  # binds: setup's CSOs
        rect(other, 0, 0, 4, 4)  # 2 triangles
        rect(ctx, 0, 0, 4, 4, instances=2)  # 4
        other.bind_blend_state(None)
        ctx.end_query(prims)
        ctx.end_query(binds)
        assert ctx.get_query_result(prims, True) == 6
        assert ctx.get_query_result(binds, True) >= 2
        assert (ctx.draw_vbo, ctx.bind_blend_state) == before
        q = other.create_query(info["primitives-submitted"].query_type)
        other.begin_query(q)
        other.destroy_query(q)  # an active query destroyed stops counting too
        assert ctx.draw_vbo == before[0]
    finally:
        other.destroy()
