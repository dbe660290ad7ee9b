"""The classic gears: three meshing gears, turning, lit per vertex and
depth-tested -- the scene of Brian Paul's gears.c (glxgears), rebuilt as an
ordinary Gallium program.

    python -m demos gears [--frames N --out gears.png] [--window]

The gear geometry is generated here from gears.c's definition of a gear
(``gear(inner_radius, outer_radius, width, teeth, tooth_depth)``): a slab of
thickness ``width`` around the z axis with a hole of ``inner_radius``; its
rim has ``teeth`` teeth reaching ``tooth_depth / 2`` beyond
``outer_radius`` and valleys ``tooth_depth / 2`` inside it.  Per tooth
(angle ``a``, quarter pitch ``da = 2 pi / teeth / 4``) the outline runs
root circle at ``a`` -> tip at ``a + da`` -> tip at ``a + 2 da`` -> root at
``a + 3 da`` -> root at ``a + 4 da`` (the valley).  The front and back faces
are flat (normal +-z), the outline's walls flat with their outward normal,
and the hole's wall smooth (each vertex's normal points at the axis), as
gears.c lights them.  Every triangle is counter-clockwise seen from the side
its normal points to.

In Gallium terms: one vertex buffer with all three gears (position, normal
as R32G32B32_FLOAT), a DSA CSO with depth test LESS, a vertex shader doing
the transform (CONST[0..3]), the normal transform (CONST[4..6]: the
model-view rotation) and a diffuse term against a fixed eye-space light
(CONST[7]) in the gear's colour (CONST[8]); one ``draw_vbo`` per gear with
its own constant buffer, as a frontend updating a uniform per object does.
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
    Prim,
    RasterizerState,
    ResourceTemplate,
    ShaderState,
    ShaderType,
    Target,
    VertexBuffer,
    VertexElement,
)

from . import frames
from .camera import frustum, rotation, rows, translation
from .scene import SceneBase

NAME = "gears"
DESCRIPTION = "the classic three gears: generated geometry, per-vertex lighting, depth test, animated"
HOST_FEATURES: tuple[str, ...] = ()  # nothing beyond GL 3.3 core

CLEAR = (0.0, 0.0, 0.0, 1.0)
SPEED = 70.0  # degrees per second, as glxgears turns them
# gears.c's three gears: (inner, outer, width, teeth, tooth depth), colour,
# centre (x, y), and the angle as (factor, offset in degrees) of the big gear's.
GEARS = (
    ((1.0, 4.0, 1.0, 20, 0.7), (0.8, 0.1, 0.0, 1.0), (-3.0, -2.0), (1.0, 0.0)),
    ((0.5, 2.0, 2.0, 10, 0.7), (0.0, 0.8, 0.2, 1.0), (3.1, -2.0), (-2.0, -9.0)),
    ((1.3, 2.0, 0.5, 10, 0.7), (0.2, 0.2, 1.0, 1.0), (-3.1, 4.2), (-2.0, -25.0)),
)
VIEW_ROT = (20.0, 30.0, 0.0)  # degrees about x, y, z
# Arrow keys (frames.KEY_*) -> (axis, degrees) added to the view rotation, as in glxgears.
ARROW_STEPS = {
    frames.KEY_UP: (0, 5.0),
    frames.KEY_DOWN: (0, -5.0),
    frames.KEY_LEFT: (1, 5.0),
    frames.KEY_RIGHT: (1, -5.0),
}
LIGHT = np.array([5.0, 5.0, 10.0]) / np.linalg.norm([5.0, 5.0, 10.0])  # eye space, directional
AMBIENT, DIFFUSE = 0.2, 0.8

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..8]
DCL TEMP[0..1]
IMM[0] FLT32 {0.0, 0.2, 0.8, 1.0}
  0: DP4 OUT[0].x, CONST[0], IN[0]
  1: DP4 OUT[0].y, CONST[1], IN[0]
  2: DP4 OUT[0].z, CONST[2], IN[0]
  3: DP4 OUT[0].w, CONST[3], IN[0]
  4: DP3 TEMP[0].x, CONST[4], IN[1]
  5: DP3 TEMP[0].y, CONST[5], IN[1]
  6: DP3 TEMP[0].z, CONST[6], IN[1]
  7: DP3 TEMP[1].x, TEMP[0], CONST[7]
  8: MAX TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx
  9: MAD TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz, IMM[0].yyyy
 10: MUL OUT[1].xyz, CONST[8], TEMP[1].xxxx
 11: MOV OUT[1].w, IMM[0].wwww
 12: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def _ring(r: float, angle: np.ndarray) -> np.ndarray:
    return np.stack([r * np.cos(angle), r * np.sin(angle)], axis=-1)


def gear(inner: float, outer: float, width: float, teeth: int, tooth_depth: float) -> np.ndarray:
    """Triangles of one gear (module docstring): (3 n, 6) float32 rows of
    position (x, y, z) and unit normal, n = 20 triangles per tooth."""
    r0, r1, r2 = inner, outer - tooth_depth / 2, outer + tooth_depth / 2
    da = 2 * np.pi / teeth / 4
    z = width / 2
    tris: list[list[tuple]] = []  # each: three (position, normal)

    def flat(*corners):
        p = [np.asarray(c, float) for c in corners]
        n = np.cross(p[1] - p[0], p[2] - p[0])
        n /= np.linalg.norm(n)
        tris.append([(c, n) for c in p])

    for i in range(teeth):
        a = i * 2 * np.pi / teeth
        angles = a + da * np.arange(5)
        root, tip = _ring(r1, angles), _ring(r2, angles)
        hole = _ring(r0, angles)
        # The outline of this tooth and its valley, counter-clockwise.
        outline = [root[0], tip[1], tip[2], root[3], root[4]]
        for side in (1, -1):
            zz = side * z

            def face(*pts, zz=zz, side=side):
                pts3 = [(p[0], p[1], zz) for p in pts]
                flat(*(pts3 if side > 0 else pts3[::-1]))

            # The face between hole and root circle (gears.c's quad strip), then the tooth.
            face(hole[0], root[0], root[3])
            face(hole[0], root[3], root[4])
            face(hole[0], root[4], hole[4])
            face(root[0], tip[1], tip[2])
            face(root[0], tip[2], root[3])
        # The rim's walls: each outline edge swept from front to back.
        for p, q in zip(outline, outline[1:], strict=False):
            pf, pb, qf, qb = (p[0], p[1], z), (p[0], p[1], -z), (q[0], q[1], z), (q[0], q[1], -z)
            flat(pf, pb, qb)
            flat(pf, qb, qf)
        # The hole's wall, smooth: normals towards the axis, faces inward.
        p, q = hole[0], hole[4]
        n_p, n_q = np.array([-p[0], -p[1], 0]) / r0, np.array([-q[0], -q[1], 0]) / r0
        pf, qf, qb, pb = (p[0], p[1], z), (q[0], q[1], z), (q[0], q[1], -z), (p[0], p[1], -z)
        tris.append([(np.array(pf), n_p), (np.array(qf), n_q), (np.array(qb), n_q)])
        tris.append([(np.array(pf), n_p), (np.array(qb), n_q), (np.array(pb), n_p)])
    return np.array([[*p, *n] for tri in tris for p, n in tri], np.float32)


def gear_angle(t: float, factor: float, offset: float) -> float:
    """A gear's turn at ``t`` seconds, degrees (the big gear turns SPEED deg/s)."""
    return factor * SPEED * t + offset


class Scene(SceneBase):
    """The gears' objects on ``ctx``; ``draw(t)`` renders the frame at t seconds."""

    CONSTANT_STAGES = (ShaderType.VERTEX,)

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        h = height / width
        self.projection = frustum(-1.0, 1.0, -h, h, 5.0, 60.0)
        self.view_rot = list(VIEW_ROT)
        self._set_view()
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height))
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make(
            "depth_stencil_alpha",
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS),
        )
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True))
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32_FLOAT),
                VertexElement(src_offset=12, vertex_buffer_index=0, src_format=Format.R32G32B32_FLOAT),
            ],
        )
        meshes = [gear(*shape) for shape, *_ in GEARS]
        self.draws, start = [], 0  # one DrawInfo per gear, made once
        for m in meshes:
            self.draws.append(DrawInfo(mode=Prim.TRIANGLES, start=start, count=len(m)))
            start += len(m)
        verts = np.vstack(meshes)
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        self.vb = VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=verts.strides[0])

    def _set_view(self) -> None:
        rx, ry, rz = (np.radians(a) for a in self.view_rot)
        self.view = translation(0, 0, -40.0) @ rotation(0, rx) @ rotation(1, ry) @ rotation(2, rz)

    def on_event(self, event: tuple) -> None:
        """Input from the window (frames.run_window): the arrow keys turn the
        view 5 degrees about x (up / down) or y (left / right), as glxgears
        does."""
        if event[0] != "key" or event[2] not in (frames.PRESS, frames.REPEAT):
            return
        step = ARROW_STEPS.get(event[1])
        if step is not None:
            axis, degrees = step
            self.view_rot[axis] += degrees
            self._set_view()

    def constants(self, t: float, index: int) -> np.ndarray:
        """CONST[0..8] of gear ``index`` at ``t``: clip matrix, model-view
        rotation rows, light direction, colour."""
        _shape, colour, (x, y), (factor, offset) = GEARS[index]
        model = translation(x, y, 0) @ rotation(2, np.radians(gear_angle(t, factor, offset)))
        modelview = self.view @ model
        return rows(self.projection @ modelview, modelview[:3], [*LIGHT, 0.0], colour)

    def draw(self, t: float) -> None:
        """Bind the gears' state and draw the three gears at ``t`` seconds."""
        ctx = self.ctx
        self.target.bind()
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([self.vb])
        self.target.clear(CLEAR)
        for i, info in enumerate(self.draws):
            c = self.constants(t, i)
            ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=c, buffer_size=c.nbytes))
            ctx.draw_vbo(info)
