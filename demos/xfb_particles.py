"""Transform-feedback particles: a fountain of 4096 points advanced by a
vertex shader whose output is captured by stream output into the other of
two buffers (ping-pong), and drawn as points by the same draw.

    python -m demos xfb_particles [--frames N --out xfb_particles.png] [--window]

The update rule (one FRAME_DT step ``dt``; the state of a particle is
position p, velocity v and remaining life; its constants are its initial
velocity v0 and its lifetime):

    v' = v + (0, GRAVITY) dt           (semi-implicit Euler)
    p' = p + v' dt
    life' = life - dt
    if life' < 0:  p' = EMITTER, v' = v0, life' = life' + lifetime

Lifetimes are whole steps plus a half, so life never lands on 0 and the
respawn test is not at the mercy of rounding.  tests/test_demos_issue17.py
simulates this in numpy and compares the captured buffer.

In Gallium terms: ``ShaderState.stream_output`` captures OUT[1] (p, v: 4
components at dword 0) and OUT[2].x (life, at dword 4) into buffer 0 with a
stride of 5 dwords -- one interleaved buffer without gaps, which GL 3.3
core's transform feedback expresses too; ``create_stream_output_target`` on
each of two VERTEX_BUFFER | STREAM_OUTPUT buffers, ``set_stream_output_targets``
before each step's ``draw_vbo(POINTS)`` reading the other one.  Catching up
over several steps (a headless frame far from the last), the steps before
the shown one run with ``rasterizer_discard``.
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    Box,
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
    StreamOutput,
    StreamOutputInfo,
    Target,
    VertexBuffer,
    VertexElement,
)

from . import frames
from .scene import SceneBase

NAME = "xfb_particles"
DESCRIPTION = (
    "transform-feedback particles: a fountain advanced by a VS captured into ping-pong buffers, drawn as points"
)
HOST_FEATURES = ("transform_feedback",)

COUNT = 4096
GRAVITY = -1.6
EMITTER = (0.0, -0.85)
STATE_DWORDS = 5  # px, py, vx, vy, life
CLEAR = (0.02, 0.02, 0.05, 1.0)

# IN[0] = (px, py, vx, vy), IN[1].x = life, IN[2] = (v0x, v0y, lifetime, 0).
# CONST[0] = (dt, GRAVITY, EMITTER.x, EMITTER.y).  OUT[1], OUT[2].x: the new
# state (captured); OUT[3]: colour from white-yellow (young) to red (old).
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
DCL OUT[3], GENERIC[2]
DCL CONST[0]
DCL TEMP[0..3]
IMM[0] FLT32 {0.0, 1.0, 0.25, 0.9}
  0: MOV TEMP[0].zw, IN[0]
  1: MAD TEMP[0].w, CONST[0].yyyy, CONST[0].xxxx, IN[0].wwww
  2: MAD TEMP[0].xy, TEMP[0].zwww, CONST[0].xxxx, IN[0].xyyy
  3: ADD TEMP[1].x, IN[1].xxxx, -CONST[0].xxxx
  4: SLT TEMP[1].y, TEMP[1].xxxx, IMM[0].xxxx
  5: MOV TEMP[2].xy, CONST[0].zwww
  6: MOV TEMP[2].zw, IN[2].xxxy
  7: LRP TEMP[0], TEMP[1].yyyy, TEMP[2], TEMP[0]
  8: MAD TEMP[1].x, TEMP[1].yyyy, IN[2].zzzz, TEMP[1].xxxx
  9: MOV OUT[1], TEMP[0]
 10: MOV OUT[2], TEMP[1].xxxx
 11: MOV OUT[0].xy, TEMP[0].xyyy
 12: MOV OUT[0].zw, IMM[0].xxxy
 13: RCP TEMP[3].x, IN[2].zzzz
 14: MUL TEMP[3].x, TEMP[1].xxxx, TEMP[3].xxxx
 15: MOV OUT[3].x, IMM[0].wwww
 16: MAD OUT[3].y, TEMP[3].xxxx, IMM[0].wwww, IMM[0].zzzz
 17: MUL OUT[3].z, TEMP[3].xxxx, TEMP[3].xxxx
 18: MOV OUT[3].w, IMM[0].yyyy
 19: END
"""

FS = """FRAG
DCL IN[0], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

SO = StreamOutputInfo(
    num_outputs=2,
    stride=(STATE_DWORDS, 0, 0, 0),
    output=(
        StreamOutput(register_index=1, start_component=0, num_components=4, output_buffer=0, dst_offset=0),
        StreamOutput(register_index=2, start_component=0, num_components=1, output_buffer=0, dst_offset=4),
    ),
)


def initial_state() -> tuple[np.ndarray, np.ndarray]:
    """(COUNT, 5) float32 state (px, py, vx, vy, life) and (COUNT, 4) float32
    constants (v0x, v0y, lifetime, 0): a fountain already flowing, each
    particle placed where its flight from the emitter has taken it."""
    rng = np.random.default_rng(17)
    dt = frames.FRAME_DT
    v0 = np.c_[rng.uniform(-0.35, 0.35, COUNT), rng.uniform(1.3, 2.0, COUNT)]
    steps = rng.integers(40, 100, COUNT)
    lifetime = (steps + 0.5) * dt
    age = rng.integers(0, steps) * dt  # whole steps flown
    p = np.asarray(EMITTER) + v0 * age[:, None] + 0.5 * np.array([0.0, GRAVITY]) * age[:, None] ** 2
    v = v0 + np.array([0.0, GRAVITY]) * age[:, None]
    state = np.c_[p, v, lifetime - age].astype(np.float32)
    static = np.c_[v0, lifetime, np.zeros(COUNT)].astype(np.float32)
    return state, static


class Scene(SceneBase):
    """The fountain's buffers on ``ctx``; ``draw(t)`` advances it to ``t``
    (whole FRAME_DT steps) and draws the last step."""

    CONSTANT_STAGES = (ShaderType.VERTEX,)

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height, depth=False))
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make("depth_stencil_alpha", DepthStencilAlphaState())
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True, point_size=2.0))
        self.rast_discard = self.make(
            "rasterizer", RasterizerState(half_pixel_center=True, point_size=2.0, rasterizer_discard=True)
        )
        self.vs = self.make("vs", ShaderState(tokens=VS, stream_output=SO))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32_FLOAT),
                VertexElement(src_offset=0, vertex_buffer_index=1, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        self.state0, static = initial_state()
        size = self.state0.nbytes
        self.buffers = [
            self.make(
                "resource",
                ResourceTemplate(
                    target=Target.BUFFER,
                    format=Format.R8_UNORM,
                    width0=size,
                    bind=Bind.VERTEX_BUFFER | Bind.STREAM_OUTPUT,
                ),
            )
            for _ in range(2)
        ]
        self.targets = [self.make("stream_output_target", b, 0, size) for b in self.buffers]
        self.static = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=static.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.static, Map.WRITE, 0, static)
        self.static_vb = VertexBuffer(buffer=self.static, buffer_offset=0, stride=16)
        self.reset()

    def reset(self) -> None:
        """Back to the initial state (step 0, in buffer 0)."""
        self.ctx.buffer_subdata(self.buffers[0], Map.WRITE, 0, self.state0)
        self.current, self.step = 0, 0

    def _advance(self, rast) -> None:
        """One step: read the current buffer, capture into the other."""
        ctx, src, dst = self.ctx, self.current, 1 - self.current
        ctx.bind_rasterizer_state(rast)
        ctx.set_vertex_buffers(
            [VertexBuffer(buffer=self.buffers[src], buffer_offset=0, stride=STATE_DWORDS * 4), self.static_vb]
        )
        ctx.set_stream_output_targets([self.targets[dst]], [0])
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=COUNT))
        ctx.set_stream_output_targets([])
        self.current, self.step = dst, self.step + 1

    def draw(self, t: float) -> None:
        """Advance to step round(t / FRAME_DT) and draw the last step's points."""
        ctx = self.ctx
        want = int(round(t / frames.FRAME_DT))
        if want < self.step:
            self.reset()
        self.target.bind()
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        consts = np.array([frames.FRAME_DT, GRAVITY, *EMITTER], np.float32)
        ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=consts, buffer_size=consts.nbytes))
        while self.step < want - 1:
            self._advance(self.rast_discard)
        self.target.clear(CLEAR)
        if self.step < want:
            self._advance(self.rast)
        else:  # no step to take (t = 0, or the same t again): show the state as it is
            ctx.bind_rasterizer_state(self.rast)
            ctx.set_vertex_buffers(
                [
                    VertexBuffer(buffer=self.buffers[self.current], buffer_offset=0, stride=STATE_DWORDS * 4),
                    self.static_vb,
                ]
            )
            scratch = self.targets[1 - self.current]  # captured, then ignored: the VS always advances
            ctx.set_stream_output_targets([scratch], [0])
            ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=COUNT))
            ctx.set_stream_output_targets([])

    def read_state(self) -> np.ndarray:
        """(COUNT, 5) float32: the current state, read back with transfer_map."""
        buf = self.buffers[self.current]
        t = self.ctx.transfer_map(buf, 0, Map.READ, Box(x=0, y=0, z=0, width=buf.width0, height=1, depth=1))
        try:
            return np.frombuffer(bytes(t.data), np.float32).reshape(COUNT, STATE_DWORDS).copy()
        finally:
            self.ctx.transfer_unmap(t)
