"""What keeps draw_vbo on its general path is declared by the areas that
need it (``ctx.keep_general``, glpipe/dirty.py ``KeepGeneral``), and the
rasterizer's emulations reach the draw through hooks the rasterizer area
sets -- glpipe/draw.py names neither (docs/architecture.md)."""

from __future__ import annotations

import inspect

import numpy as np

from glpipe import Prim, VertexBuffer
from glpipe import draw as draw_module
from glpipe.dirty import Dirty, KeepGeneral
from glpipe.templates import DrawInfo

from .util import vertex_buffer
from .util_draw import lit, setup, vertices
from .util_raster import WHITE, draw_image, rast

TRI = [(2.0, 2.0), (14.0, 2.0), (2.0, 14.0)]


def _resource_draw(ctx, verts, mode=Prim.TRIANGLES):
    buf = vertex_buffer(ctx.screen, np.ascontiguousarray(verts, np.float32))
    ctx.set_vertex_buffers([VertexBuffer(buffer=buf, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=mode, count=len(verts)))
    return buf


def test_user_vertex_buffers_keep_the_general_path_until_replaced(screen, ctx):
    color = setup(ctx)
    assert ctx.keep_general == 0
    assert lit(draw_image(ctx, color, vertices(TRI, WHITE), Prim.TRIANGLES)).any()  # user memory
    assert ctx.keep_general & KeepGeneral.VERTEX
    assert ctx.dirty & Dirty.DRAW_STATE  # the next draw re-uploads: general path
    _resource_draw(ctx, vertices(TRI, WHITE))
    assert not ctx.keep_general & KeepGeneral.VERTEX
    assert ctx.dirty == 0  # back on the fast path


def test_a_class_sensitive_rasterizer_keeps_the_general_path_while_bound(screen, ctx):
    color = setup(ctx)
    plain = (
        ctx.create_rasterizer_state(ctx.rasterizer_part.rasterizer.templ)
        if ctx.rasterizer_part.rasterizer is not None
        else None
    )
    stippled = rast(ctx, line_stipple_enable=True, line_stipple_factor=1, line_stipple_pattern=0xFFFF)
    assert ctx.keep_general & KeepGeneral.PRIM_CLASS
    _resource_draw(ctx, vertices(TRI, WHITE))
    assert ctx.dirty & Dirty.DRAW_STATE
    ctx.bind_rasterizer_state(plain)
    assert not ctx.keep_general & KeepGeneral.PRIM_CLASS
    _resource_draw(ctx, vertices(TRI, WHITE))
    assert ctx.dirty == 0
    ctx.bind_rasterizer_state(stippled)
    assert ctx.keep_general & KeepGeneral.PRIM_CLASS
    assert lit(draw_image(ctx, color, vertices(TRI, WHITE), Prim.TRIANGLES)).any()


def test_the_rasterizer_hooks_follow_the_bound_state(screen, ctx):
    setup(ctx)
    assert ctx._raster_draw_keys is None and ctx._raster_draw is None
    rast(ctx, line_stipple_enable=True, line_stipple_factor=1, line_stipple_pattern=0x00FF)
    assert ctx._raster_draw_keys is not None and ctx._raster_draw is not None
    rast(ctx)
    assert ctx._raster_draw_keys is None and ctx._raster_draw is None


def test_the_draw_module_does_not_name_the_emulations():
    source = inspect.getsource(draw_module)
    for name in (
        "_ls_assembly",
        "_rast_line_stipple",
        "_edge_stippled",
        "_rast_fill_split",
        "_rast_line_gs",
        "_rast_class_sensitive",
        "_rast_edge_fill",
        "_edge_sticky",
        "_edge_masks_on",
        "_draw_line_stipple_strips",
        "_draw_edge_stipple",
        "_draw_fill_split",
        "_key_prim_class",
        "_key_polygon_edges",
        "_key_line_gs",
    ):
        assert name not in source, name
