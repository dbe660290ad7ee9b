"""Helpers for the query, render-condition and fence tests: a 256x256
target, axis-aligned rectangles drawn from user memory (pixel-exact
coverage: edges on pixel boundaries cover exactly the pixels whose centres
lie inside), and pixel read-back through raw GL."""

from __future__ import annotations

import numpy as np

import glpipe
from glpipe import DrawInfo, Prim, VertexBuffer

from .util import read_rgba32f, render_target
from .util_draw import rect_tris, setup, vertices, zero_fill

SIZE = 256
RED = (1.0, 0.0, 0.0, 1.0)
GREEN = (0.0, 1.0, 0.0, 1.0)
BLUE = (0.0, 0.0, 1.0, 1.0)


def scene(ctx, size: int = SIZE, zs=None):
    """A size x size RGBA32F target (zeroed; with a ``zs`` depth/stencil
    buffer if given), pass-through shaders bound; returns the colour target."""
    color = setup(ctx, size=size)
    if zs is not None:
        color, _ = render_target(ctx, size, size, zs=zs)
        zero_fill(ctx.screen, color)
    return color


def rect(ctx, x0, y0, x1, y1, color=RED, size: int = SIZE, instances: int = 1) -> None:
    """Draw the rectangle [x0, x1) x [y0, y1) (window pixels) in ``color``:
    (x1 - x0) * (y1 - y0) pixels, each sample of each."""
    pts = [p for tri in rect_tris(x0, y0, x1, y1) for p in tri]
    verts = vertices(pts, color, size)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts.tobytes(), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6, instance_count=instances))


def pixels(ctx, res) -> np.ndarray:
    """The target's texels (h, w, 4) through raw GL, after a glFinish."""
    ctx.screen.host.gl.glFinish()
    return read_rgba32f(ctx.screen, res)


def lit_count(ctx, res) -> int:
    """How many pixels of the target are not zero."""
    return int(np.count_nonzero(np.any(pixels(ctx, res) != 0, axis=-1)))


def reset(ctx, res) -> None:
    """Zero the target (raw GL)."""
    zero_fill(ctx.screen, res)


def finish(ctx) -> None:
    """Wait for everything the context issued (flush + fence_finish)."""
    fence = ctx.flush()
    assert ctx.screen.fence_finish(ctx, fence, glpipe.PIPE_TIMEOUT_INFINITE)
