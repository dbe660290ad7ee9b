"""Ten thousand instanced objects: a 100 x 100 field of small diamonds, one
``draw_vbo`` with ``instance_count`` 10000, each instance's offset, phase and
colour from a per-instance vertex buffer (``instance_divisor`` 1), bobbing
and spinning in the vertex shader with the time from a constant buffer.

    python -m demos instanced [--frames N --out instanced.png] [--window]
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
from .scene import SceneBase

NAME = "instanced"
DESCRIPTION = "ten thousand instanced diamonds from one draw_vbo (instance_divisor, per-instance colour)"

GRID = 100  # GRID x GRID instances
CLEAR = (0.05, 0.05, 0.08, 1.0)

# IN[0]: the diamond's corner (x, y); IN[1]: instance (cx, cy, phase, size);
# IN[2]: instance colour.  CONST[0].x = t.  The corner is rotated by
# angle = t + phase (SCS gives cos, sin) and scaled; the centre bobs by
# 0.004 * sin(2 t + phase) in y.
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0]
DCL TEMP[0..2]
IMM[0] FLT32 {0.0, 1.0, 2.0, 0.004}
  0: ADD TEMP[0].x, CONST[0].xxxx, IN[1].zzzz
  1: COS TEMP[1].x, TEMP[0].xxxx
  2: SIN TEMP[1].y, TEMP[0].xxxx
  3: MUL TEMP[2].x, IN[0].xxxx, TEMP[1].xxxx
  4: MUL TEMP[2].y, IN[0].yyyy, TEMP[1].yyyy
  5: ADD TEMP[2].x, TEMP[2].xxxx, -TEMP[2].yyyy
  6: MUL TEMP[2].y, IN[0].xxxx, TEMP[1].yyyy
  7: MAD TEMP[2].y, IN[0].yyyy, TEMP[1].xxxx, TEMP[2].yyyy
  8: MAD TEMP[0].y, CONST[0].xxxx, IMM[0].zzzz, IN[1].zzzz
  9: SIN TEMP[0].y, TEMP[0].yyyy
 10: MAD TEMP[0].y, TEMP[0].yyyy, IMM[0].wwww, IN[1].yyyy
 11: MOV TEMP[0].x, IN[1].xxxx
 12: MAD OUT[0].xy, TEMP[2].xyyy, IN[1].wwww, TEMP[0].xyyy
 13: MOV OUT[0].zw, IMM[0].xxxy
 14: MOV OUT[1], IN[2]
 15: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def diamond() -> np.ndarray:
    """Two triangles of a unit diamond, (x, y) float32."""
    return np.array([[0, 1], [-1, 0], [1, 0], [1, 0], [-1, 0], [0, -1]], np.float32)


def instances() -> tuple[np.ndarray, np.ndarray]:
    """(GRID^2, 4) float32 (cx, cy, phase, size) and (GRID^2, 4) float32 RGBA."""
    j, i = np.mgrid[0:GRID, 0:GRID]
    cx = (i + 0.5) / GRID * 1.9 - 0.95
    cy = (j + 0.5) / GRID * 1.9 - 0.95
    phase = (i * 0.37 + j * 0.21) % (2 * np.pi)
    inst = np.stack([cx, cy, phase, np.full_like(cx, 0.85 / GRID)], axis=-1).reshape(-1, 4)
    u, v = i / (GRID - 1), j / (GRID - 1)
    colour = np.stack([0.25 + 0.75 * u, 0.3 + 0.6 * v, 1.0 - 0.7 * u * v, np.ones_like(u)], axis=-1)
    return inst.astype(np.float32), colour.reshape(-1, 4).astype(np.float32)


class Scene(SceneBase):
    """The field's objects on ``ctx``; ``draw(t)`` renders the frame at t seconds."""

    CONSTANT_STAGES = (ShaderType.VERTEX,)

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height, depth=False))
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make("depth_stencil_alpha", DepthStencilAlphaState())
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True))
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32_FLOAT),
                VertexElement(
                    src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=1
                ),
                VertexElement(
                    src_offset=0, vertex_buffer_index=2, src_format=Format.R32G32B32A32_FLOAT, instance_divisor=1
                ),
            ],
        )
        inst, colour = instances()
        self.buffers = []
        self.vbs = []
        for data in (diamond(), inst, colour):
            buf = self.make(
                "resource",
                ResourceTemplate(
                    target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=Bind.VERTEX_BUFFER
                ),
            )
            ctx.buffer_subdata(buf, Map.WRITE, 0, data)
            self.buffers.append(buf)
            self.vbs.append(VertexBuffer(buffer=buf, buffer_offset=0, stride=data.strides[0]))
        self.count = GRID * GRID
        self.info = DrawInfo(mode=Prim.TRIANGLES, start=0, count=6, instance_count=self.count)

    def draw(self, t: float) -> None:
        """Bind the field's state and draw all instances at ``t`` seconds."""
        ctx = self.ctx
        self.target.bind()
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers(self.vbs)
        consts = np.array([t, 0, 0, 0], np.float32)
        ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=consts, buffer_size=consts.nbytes))
        self.target.clear(CLEAR)
        ctx.draw_vbo(self.info)
