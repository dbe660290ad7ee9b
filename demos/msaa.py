"""MSAA with a resolve: a spinning burst of thin triangles drawn into a 4x
multisampled colour buffer, resolved with ``ctx.blit`` into the display
target (the left half shows the resolve, the right half the same burst drawn
single-sampled, for comparison).

    python -m demos msaa [--frames N --out msaa.png] [--window]
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    BlitInfo,
    BlitSide,
    Box,
    Clear,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    FramebufferState,
    Map,
    Mask,
    Prim,
    RasterizerState,
    ResourceTemplate,
    ShaderState,
    SurfaceTemplate,
    Target,
    TexFilter,
    VertexBuffer,
    VertexElement,
    ViewportState,
)

from . import frames
from .scene import SceneBase

NAME = "msaa"
DESCRIPTION = "4x MSAA resolved with ctx.blit (left) beside single-sampled (right)"

SAMPLES = 4
SPOKES = 24
CLEAR = (0.06, 0.06, 0.09, 1.0)

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def burst(t: float) -> np.ndarray:
    """SPOKES thin triangles from the centre, rotated by 0.4 t: (3 SPOKES, 8)
    float32 of clip position (x, y, 0, 1) and RGBA."""
    out = []
    for k in range(SPOKES):
        a = 2 * np.pi * k / SPOKES + 0.4 * t
        tip = np.array([np.cos(a), np.sin(a)]) * 0.9
        side = np.array([-np.sin(a), np.cos(a)]) * 0.035
        hue = k / SPOKES
        colour = [0.5 + 0.5 * np.cos(2 * np.pi * (hue + d)) for d in (0.0, 1 / 3, 2 / 3)] + [1.0]
        for p in (side * 0.2, tip - side, tip + side):
            out.append([p[0], p[1], 0.0, 1.0, *colour])
    return np.array(out, np.float32)


class Scene(SceneBase):
    """The burst's objects on ``ctx``; ``draw(t)`` renders the frame at t seconds."""

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.width, self.height = width, height
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height, depth=False))
        half = max(width // 2, 1)
        self.half = half
        self.msaa = self.make(
            "resource",
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=frames.COLOR_FORMAT,
                width0=half,
                height0=height,
                nr_samples=SAMPLES,
                nr_storage_samples=SAMPLES,
                bind=Bind.RENDER_TARGET,
            ),
        )
        self.msaa_surf = self.make("surface", self.msaa, SurfaceTemplate(format=frames.COLOR_FORMAT))
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make("depth_stencil_alpha", DepthStencilAlphaState())
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True, multisample=True))
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        size = burst(0.0).nbytes
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER),
        )

    def _draw_burst(self, x0: int) -> None:
        """The burst into the bound framebuffer's ``half`` x height rectangle at x0."""
        h, w = self.height, self.half
        self.ctx.set_viewport_states(0, [ViewportState(scale=(w / 2, -h / 2, 0.5), translate=(x0 + w / 2, h / 2, 0.5))])
        self.ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3 * SPOKES))

    def draw(self, t: float) -> None:
        """Draw the burst multisampled and resolve it (left), then single-sampled (right)."""
        ctx = self.ctx
        verts = burst(t)
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=verts.strides[0])])
        ctx.set_framebuffer_state(
            FramebufferState(width=self.half, height=self.height, samples=SAMPLES, cbufs=(self.msaa_surf,))
        )
        ctx.clear(Clear.COLOR0, None, CLEAR, 1.0, 0)
        self._draw_burst(0)
        self.target.bind()
        self.target.clear(CLEAR)
        box = Box(x=0, y=0, z=0, width=self.half, height=self.height, depth=1)
        ctx.blit(
            BlitInfo(
                dst=BlitSide(resource=self.target.color, level=0, box=box, format=frames.COLOR_FORMAT),
                src=BlitSide(resource=self.msaa, level=0, box=box, format=frames.COLOR_FORMAT),
                mask=Mask.RGBA,
                filter=TexFilter.NEAREST,
            )
        )
        self._draw_burst(self.width - self.half)
