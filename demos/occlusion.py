"""Occlusion-query culling: a wall in front of a grid of gems that slides
sideways behind it.  Each frame draws the wall, then, per gem, its bounding
box -- colour and depth writes off -- inside an OCCLUSION_PREDICATE query;
then every gem is drawn under ``render_condition(query, False, WAIT)``, so
the ones whose box passed no depth test are skipped by the driver without
the CPU waiting per object.  ``get_query_result`` afterwards counts them:
``scene.culled``, printed as "culled k of 20".

    python -m demos occlusion [--frames N --out occlusion.png] [--window]

The scene, in world units (the camera at z = CAMERA_Z looking down -z,
perspective FOVY / NEAR / FAR): the wall is the rectangle WALL at z =
WALL_Z; the gems are octahedra inside cubes of half-size HALF, centred at
``object_centres(t)``, all behind the wall.  A gem is culled exactly when
its box projects inside the wall's rectangle (tests/test_demos_issue17.py
computes that from these definitions).

In Gallium terms: create_query(Query.OCCLUSION_PREDICATE) per object,
begin_query / end_query around a draw with a BlendState whose colormask is 0
and a DSA with depth test LESS and writemask off, render_condition around the
real draws, get_query_result(q, wait=True) for the statistics.
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    Func,
    Map,
    Mask,
    Prim,
    Query,
    RasterizerState,
    RenderCond,
    ResourceTemplate,
    RTBlendState,
    ShaderState,
    ShaderType,
    Target,
    VertexBuffer,
    VertexElement,
)

from . import frames
from .camera import perspective, rotation, rows, scaling, translation
from .cube import cube_vertices
from .scene import SceneBase

NAME = "occlusion"
DESCRIPTION = "occlusion-query culling: bounding boxes queried behind a wall, hidden gems skipped by render_condition"
HOST_FEATURES = ("conditional_render",)

CLEAR = (0.12, 0.12, 0.16, 1.0)
FOVY, NEAR, FAR, CAMERA_Z = 50.0, 1.0, 50.0, 8.0
WALL = (-1.8, 1.8, -1.2, 1.2)  # x0, x1, y0, y1
WALL_Z = 0.0
HALF = 0.5  # half-size of a gem's bounding cube
COLUMNS, ROWS = 5, 4
WALL_COLOUR = (0.55, 0.5, 0.45, 1.0)

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..4]
IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}
  0: DP4 OUT[0].x, CONST[0], IN[0]
  1: DP4 OUT[0].y, CONST[1], IN[0]
  2: DP4 OUT[0].z, CONST[2], IN[0]
  3: DP4 OUT[0].w, CONST[3], IN[0]
  4: MUL OUT[1].xyz, CONST[4], IN[1].wwww
  5: MOV OUT[1].w, IMM[0].xxxx
  6: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def object_centres(t: float) -> np.ndarray:
    """(COLUMNS * ROWS, 3) centres of the gems at ``t`` seconds: a grid with
    2.2 between neighbours at z = -6, sliding sideways by 1.5 sin(0.6 t)."""
    shift = 1.5 * np.sin(0.6 * t)
    j, i = np.mgrid[0:ROWS, 0:COLUMNS]
    x = (i - (COLUMNS - 1) / 2) * 2.2 + shift
    y = (j - (ROWS - 1) / 2) * 2.2
    return np.stack([x.ravel(), y.ravel(), np.full(x.size, -6.0)], axis=-1)


def gem_colours() -> np.ndarray:
    """One RGBA colour per gem (hues around the wheel)."""
    h = np.arange(COLUMNS * ROWS) / (COLUMNS * ROWS)
    rgb = 0.55 + 0.45 * np.cos(2 * np.pi * (h[:, None] + np.array([0.0, 1 / 3, 2 / 3])))
    return np.c_[rgb, np.ones(len(h))].astype(np.float32)


def octahedron() -> np.ndarray:
    """24 vertices of an octahedron inscribed in the unit cube: (x, y, z, 1)
    and (0, 0, 0, shade), the shade a fixed light on each face's normal."""
    out = []
    light = np.array([0.4, 0.7, 0.6]) / np.linalg.norm([0.4, 0.7, 0.6])
    for sx in (1, -1):
        for sy in (1, -1):
            for sz in (1, -1):
                a, b, c = np.array([sx, 0, 0.0]), np.array([0, sy, 0.0]), np.array([0, 0, sz * 1.0])
                if sx * sy * sz < 0:  # keep every face counter-clockwise from outside
                    b, c = c, b
                shade = 0.35 + 0.65 * max(float(np.dot(np.array([sx, sy, sz]) / np.sqrt(3), light)), 0.0)
                out += [[*p, 1.0, 0, 0, 0, shade] for p in (a, b, c)]
    return np.array(out, np.float32)


def wall_vertices() -> np.ndarray:
    """The wall's two triangles, shade 1."""
    x0, x1, y0, y1 = WALL
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)]
    return np.array([[x, y, WALL_Z, 1.0, 0, 0, 0, 1.0] for x, y in corners], np.float32)


class Scene(SceneBase):
    """The wall, the gems and their queries on ``ctx``; ``draw(t)`` renders
    the frame at t seconds and sets ``culled``."""

    CONSTANT_STAGES = (ShaderType.VERTEX,)

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.camera = perspective(FOVY, width / height, NEAR, FAR) @ translation(0, 0, -CAMERA_Z)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height))
        self.blend = self.make("blend", BlendState())
        # The query pass writes nothing: colormask 0, depth writemask off.
        self.blend_none = self.make("blend", BlendState(rt=(RTBlendState(colormask=Mask(0)),) * 8))
        self.dsa = self.make(
            "depth_stencil_alpha",
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS),
        )
        self.dsa_test = self.make(
            "depth_stencil_alpha",
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=False, depth_func=Func.LESS),
        )
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True))
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        parts = [wall_vertices(), cube_vertices(), octahedron()]
        self.ranges = []
        start = 0
        for p in parts:
            self.ranges.append((start, len(p)))
            start += len(p)
        verts = np.vstack(parts)
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        self.vb = VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=verts.strides[0])
        self.colours = gem_colours()
        self.queries = [self.make("query", Query.OCCLUSION_PREDICATE) for _ in range(COLUMNS * ROWS)]
        self.culled = 0

    def _draw(self, model: np.ndarray, colour, part: int) -> None:
        c = rows(self.camera @ model, colour)
        self.ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=c, buffer_size=c.nbytes))
        start, count = self.ranges[part]
        self.ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=start, count=count))

    def draw(self, t: float) -> None:
        """Wall, queried bounding boxes, then the gems under their render
        conditions; ``culled`` = gems whose query saw no sample."""
        ctx = self.ctx
        self.target.bind()
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([self.vb])
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        self.target.clear(CLEAR)
        self._draw(np.eye(4), WALL_COLOUR, 0)
        centres = object_centres(t)
        boxes = [translation(*c) @ scaling(HALF, HALF, HALF) for c in centres]
        # The bounding boxes, invisible, each counted by its query.
        ctx.bind_blend_state(self.blend_none)
        ctx.bind_depth_stencil_alpha_state(self.dsa_test)
        for q, box in zip(self.queries, boxes, strict=True):
            ctx.begin_query(q)
            self._draw(box, (0, 0, 0, 1), 1)
            ctx.end_query(q)
        # The gems, each drawn only if its box showed a sample.
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        spin = rotation(1, 0.9 * t) @ rotation(0, 0.4)
        for q, box, colour in zip(self.queries, boxes, self.colours, strict=True):
            ctx.render_condition(q, False, RenderCond.WAIT)
            self._draw(box @ spin, colour, 2)
        ctx.render_condition(None, False, RenderCond.WAIT)
        self.culled = sum(not ctx.get_query_result(q, True) for q in self.queries)

    def summary(self) -> str:
        """What the last frame culled."""
        return f"occlusion: culled {self.culled} of {len(self.queries)}"
