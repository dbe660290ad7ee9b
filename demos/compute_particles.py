"""Compute particles: 4096 particles pulled around a wandering attractor by
a compute kernel (``launch_grid`` over a shader buffer), then drawn as
points straight from that buffer bound as a vertex buffer.

    python -m demos compute_particles [--frames N --out compute_particles.png] [--window]

The update rule, per FRAME_DT step ``dt`` number ``n`` (state: position p,
velocity v; A = ``attractor(n)``):

    d  = A - p
    r2 = |d|^2 + SOFTENING
    v' = (v + d * STRENGTH dt / r2^(3/2)) * DAMPING
    p' = p + v' dt

tests/test_demos_issue17.py simulates it in numpy and compares the buffer.

In Gallium terms: a SHADER_BUFFER | VERTEX_BUFFER buffer of (px, py, vx, vy)
float32 per particle, ``set_shader_buffers(COMPUTE, 0, ...)`` writable,
``set_constant_buffer(COMPUTE, 0, ...)`` with the step's attractor, a
compute CSO with a fixed block of 64 launched over COUNT / 64 blocks per
step, ``memory_barrier(VERTEX_BUFFER)`` before the draw reads the buffer.
On the gl33 profile GL 3.3 has no compute shaders: the numpy TGSI executor
runs the kernel (fallback ``compute_executor``), which is why COUNT stays
modest -- a step costs a few milliseconds there.
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Barrier,
    Bind,
    BlendState,
    Box,
    ComputeState,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    GridInfo,
    Map,
    Prim,
    RasterizerState,
    ResourceTemplate,
    ShaderBuffer,
    ShaderState,
    ShaderType,
    Target,
    VertexBuffer,
    VertexElement,
)

from . import frames
from .scene import SceneBase

NAME = "compute_particles"
DESCRIPTION = "compute particles: launch_grid over a shader buffer pulls them round an attractor; drawn as points"
HOST_FEATURES = ("compute_shader",)

COUNT = 4096
BLOCK = 64
STRENGTH = 0.12
SOFTENING = 0.02
DAMPING = 0.995
CLEAR = (0.01, 0.01, 0.03, 1.0)

# CONST[0] = (A.x, A.y, STRENGTH * dt, DAMPING), CONST[1].x = dt.
CS = f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {BLOCK}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL CONST[0..1]
DCL TEMP[0..3]
IMM[0] UINT32 {{{BLOCK}, 16, 0, 0}}
IMM[1] FLT32 {{{SOFTENING}, 0.0, 0.0, 0.0}}
  0: UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
  1: UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  2: LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx
  3: ADD TEMP[2].xy, CONST[0].xyyy, -TEMP[1].xyyy
  4: DP2 TEMP[3].x, TEMP[2].xyyy, TEMP[2].xyyy
  5: ADD TEMP[3].x, TEMP[3].xxxx, IMM[1].xxxx
  6: RSQ TEMP[3].y, TEMP[3].xxxx
  7: MUL TEMP[3].z, TEMP[3].yyyy, TEMP[3].yyyy
  8: MUL TEMP[3].z, TEMP[3].zzzz, TEMP[3].yyyy
  9: MUL TEMP[3].z, TEMP[3].zzzz, CONST[0].zzzz
 10: MAD TEMP[1].zw, TEMP[2].xxxy, TEMP[3].zzzz, TEMP[1]
 11: MUL TEMP[1].zw, TEMP[1], CONST[0].wwww
 12: MAD TEMP[1].xy, TEMP[1].zwww, CONST[1].xxxx, TEMP[1].xyyy
 13: STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
 14: END
"""

# IN[0] = (px, py, vx, vy): a point at p, coloured from deep blue (slow)
# to orange (fast) by min(|v|^2 / 1.5, 1).
VS = """VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
IMM[0] FLT32 {0.0, 1.0, 0.6667, 0.0}
IMM[1] FLT32 {1.0, 0.55, 0.15, 1.0}
IMM[2] FLT32 {0.2, 0.35, 1.0, 1.0}
  0: MOV OUT[0].xy, IN[0].xyyy
  1: MOV OUT[0].zw, IMM[0].xxxy
  2: DP2 TEMP[0].x, IN[0].zwww, IN[0].zwww
  3: MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
  4: MIN TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  5: LRP OUT[1], TEMP[0].xxxx, IMM[1], IMM[2]
  6: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def attractor(step: int) -> tuple[float, float]:
    """Where the attractor is during step ``step`` (a Lissajous path)."""
    s = step * frames.FRAME_DT
    return 0.45 * float(np.cos(1.1 * s)), 0.3 * float(np.sin(1.7 * s))


def initial_state() -> np.ndarray:
    """(COUNT, 4) float32 (px, py, vx, vy): a disc of radius 0.85 round the
    attractor's start, each particle on a roughly circular orbit."""
    rng = np.random.default_rng(16)
    r = 0.85 * np.sqrt(rng.uniform(0.02, 1.0, COUNT))
    a = rng.uniform(0, 2 * np.pi, COUNT)
    centre = np.array(attractor(0))
    p = centre + np.c_[r * np.cos(a), r * np.sin(a)]
    speed = np.sqrt(STRENGTH / np.sqrt(r * r + SOFTENING)) * rng.uniform(0.8, 1.1, COUNT)
    v = np.c_[-np.sin(a), np.cos(a)] * speed[:, None]
    return np.c_[p, v].astype(np.float32)


class Scene(SceneBase):
    """The particles' buffer and kernel on ``ctx``; ``draw(t)`` advances
    them to ``t`` (whole FRAME_DT steps) and draws them."""

    CONSTANT_STAGES = (ShaderType.COMPUTE,)

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height, depth=False))
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make("depth_stencil_alpha", DepthStencilAlphaState())
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True, point_size=2.0))
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.cs = self.make("compute", ComputeState(prog=CS))
        self.velems = self.make(
            "vertex_elements",
            [VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT)],
        )
        self.state0 = initial_state()
        self.buffer = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER,
                format=Format.R8_UNORM,
                width0=self.state0.nbytes,
                bind=Bind.SHADER_BUFFER | Bind.VERTEX_BUFFER,
            ),
        )
        self.vb = VertexBuffer(buffer=self.buffer, buffer_offset=0, stride=16)
        self.reset()

    def reset(self) -> None:
        """Back to the initial state (step 0)."""
        self.ctx.buffer_subdata(self.buffer, Map.WRITE, 0, self.state0)
        self.step = 0

    def _advance(self) -> None:
        """One step of the kernel over every particle."""
        ctx = self.ctx
        ax, ay = attractor(self.step)
        dt = frames.FRAME_DT
        consts = np.array([ax, ay, STRENGTH * dt, DAMPING, dt, 0, 0, 0], np.float32)
        ctx.set_constant_buffer(ShaderType.COMPUTE, 0, ConstantBuffer(user_buffer=consts, buffer_size=consts.nbytes))
        ctx.launch_grid(GridInfo(block=(BLOCK, 1, 1), grid=(COUNT // BLOCK, 1, 1)))
        self.step += 1

    def draw(self, t: float) -> None:
        """Advance to step round(t / FRAME_DT) and draw the particles."""
        ctx = self.ctx
        want = int(round(t / frames.FRAME_DT))
        if want < self.step:
            self.reset()
        if self.step < want:
            ctx.bind_compute_state(self.cs)
            ctx.set_shader_buffers(
                ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=self.buffer, buffer_size=self.state0.nbytes)], 0b1
            )
            while self.step < want:
                self._advance()
            ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [None])
            # Gallium: shader writes reach vertex fetch only after this barrier.
            ctx.memory_barrier(Barrier.VERTEX_BUFFER)
        self.target.bind()
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([self.vb])
        self.target.clear(CLEAR)
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=COUNT))

    def read_state(self) -> np.ndarray:
        """(COUNT, 4) float32: the particles now, read back with transfer_map."""
        buf = self.buffer
        t = self.ctx.transfer_map(buf, 0, Map.READ, Box(x=0, y=0, z=0, width=buf.width0, height=1, depth=1))
        try:
            return np.frombuffer(bytes(t.data), np.float32).reshape(COUNT, 4).copy()
        finally:
            self.ctx.transfer_unmap(t)
