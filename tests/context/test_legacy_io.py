"""Compatibility-profile shader I/O (PIPE_CAP_GLSL_FEATURE_LEVEL_COMPATIBILITY,
screen.rst: "the only legacy features that Gallium drivers must implement
are the legacy shader inputs and outputs (colors, texcoords, fog,
clipvertex, edgeflag)"), on pixels, both profiles.

COLOR / BCOLOR are proven by the two-sided colour tests
(tests/context/test_rasterizer.py), CLIPVERTEX by the clip-plane tests
(tests/context/test_clip_stipple_windows.py), EDGEFLAG by
tests/context/test_polygon_edges.py; here FOG and TEXCOORD varyings, and
the clip vertex reaching glpipe's generated GS (polygon edges, line stipple).
"""

from __future__ import annotations

import numpy as np

from glpipe import Cap, ClipState, DrawInfo, PolygonMode, Prim, RasterizerState, VertexBuffer

from .util import read_rgba32f
from .util_draw import SIZE, setup, vertices
from .util_raster import CLIPVERTEX_VS

LEGACY_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], FOG
DCL OUT[2], TEXCOORD[3]
DCL OUT[3], COLOR
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1].xxxx
  2: MOV OUT[2], IN[1].yyyy
  3: MOV OUT[3], IN[1]
  4: END
"""

LEGACY_FS = """FRAG
DCL IN[0], FOG, PERSPECTIVE
DCL IN[1], TEXCOORD[3], PERSPECTIVE
DCL IN[2], COLOR, COLOR
DCL OUT[0], COLOR
  0: MOV OUT[0].x, IN[0].xxxx
  1: MOV OUT[0].y, IN[1].yyyy
  2: MOV OUT[0].zw, IN[2]
  3: END
"""


def _rast(ctx, **fields):
    templ = {"point_size": 1.0, "line_width": 1.0, "front_ccw": True}
    templ.update(fields)
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(**templ)))


def test_fog_and_texcoord_varyings_reach_the_fragment_shader(screen, ctx):
    """FOG and TEXCOORD[n] are plain varyings: a constant per draw arrives unchanged."""
    color = setup(ctx, vs=LEGACY_VS, fs=LEGACY_FS)
    _rast(ctx)
    rgba = (0.25, 0.75, 0.5, 1.0)
    verts = vertices([(0, 0), (2 * SIZE, 0), (0, 2 * SIZE)], rgba)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
    img = read_rgba32f(screen, color)
    assert np.array_equal(img, np.broadcast_to(np.float32(rgba), img.shape))


def test_clip_vertex_reaches_the_generated_geometry_shader(screen, ctx):
    """A quad drawn with fill mode LINE goes through glpipe's generated GS
    (polygon edges); the user clip plane still applies to the VS's clip
    vertex (x + 0.5), not to the position: on the bottom and top edges, the
    pixels whose centre has clip-vertex x <= 0.25 are drawn, the others not
    (one pixel of margin at the plane)."""
    color = setup(ctx, vs=CLIPVERTEX_VS)
    plane = (-1.0, 0.0, 0.0, 0.25)  # keep clip-vertex x <= 0.25, i.e. NDC x <= -0.25
    ctx.set_clip_state(ClipState(ucp=[plane]))
    _rast(ctx, clip_plane_enable=1, fill_front=PolygonMode.LINE, fill_back=PolygonMode.LINE)
    lo, hi = 1.5, SIZE - 1.5
    verts = vertices([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], (1.0, 1.0, 1.0, 1.0))
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, count=4))
    img = read_rgba32f(screen, color)
    ndc_x = 2.0 * (np.arange(SIZE) + 0.5) / SIZE - 1.0
    kept = -(ndc_x + 0.5) + 0.25 >= 0
    boundary = 2.0 * (np.flatnonzero(kept).max() + 1) / SIZE - 1.0  # first dropped pixel's left edge
    for row in (1, SIZE - 2):
        for x in range(2, SIZE - 2):
            if abs(2.0 * (x + 0.5) / SIZE - 1.0 - boundary) < 1.5 * 2.0 / SIZE:
                continue
            assert bool(img[row, x, 0] > 0) == bool(kept[x]), (row, x)


def test_compatibility_feature_level_is_the_glsl_feature_level(screen):
    """With every legacy I/O semantic working (module docstring), the
    compatibility GLSL level is the core one."""
    level = screen.get_param(Cap.GLSL_FEATURE_LEVEL)
    assert level >= 330
    assert screen.get_param(Cap.GLSL_FEATURE_LEVEL_COMPATIBILITY) == level
