"""The classic triangle: red, green and blue corners, colours interpolated
across it, drawn through glpipe's Gallium interface and written to a PNG.

    python demos/tri.py [--out tri.png] [--size 256] [--profile gl33] [--window]

Headless by default (EGL, no display needed).  ``--window`` shows the same
frame in a glfw window instead (needs a display and ``pip install '.[window]'``).

What it does, in Gallium terms:

1. ``create_screen`` / ``context_create``;
2. ``resource_create`` an RGBA8 texture, ``create_surface`` on it,
   ``set_framebuffer_state`` and ``set_viewport_states``;
3. blend / depth-stencil-alpha / rasterizer CSOs, a vertex and a fragment
   shader from TGSI text, a vertex-elements CSO (position + colour);
4. ``set_vertex_buffers`` with a buffer resource filled by ``buffer_subdata``;
5. ``clear``, then ``draw_vbo`` of PIPE_PRIM_TRIANGLES;
6. ``transfer_map(READ)`` of the texture.

``python -m demos tri`` runs it on the frame loop (demos/frames.py: a
DISPLAY_TARGET with the window convention, presented by
``flush_frontbuffer``); ``render`` and this script return the same picture
with GL's row order (row 0 = the bottom), as the PNG writer of
demos/common.py expects.
"""

from __future__ import annotations

import sys

import numpy as np

try:  # imported as demos.tri (tests) or run as a script (python demos/tri.py)
    from . import common, frames
    from .scene import SceneBase
except ImportError:
    import common
    import frames
    from scene import SceneBase

from glpipe import (
    Bind,
    DrawInfo,
    Format,
    Map,
    Prim,
    ResourceTemplate,
    ShaderState,
    Target,
    VertexBuffer,
    VertexElement,
)

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

# Clip-space position (x, y, z, w) and RGBA colour of each corner.
VERTICES = np.array(
    [
        # x     y    z    w     r    g    b    a
        [-0.8, -0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],  # red, lower left
        [0.8, -0.8, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0],  # green, lower right
        [0.0, 0.8, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],  # blue, top
    ],
    dtype=np.float32,
)


NAME = "tri"
DESCRIPTION = "the classic RGB triangle"


class Scene(SceneBase):
    """The triangle's objects on ``ctx`` (demos/frames.py protocol: a still
    frame, the same at every ``t``)."""

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height, depth=False))
        self.csos = common.bind_fixed_function(self)
        self.vs = self.make("vs", ShaderState(tokens=common.PASSTHROUGH_VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=VERTICES.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, VERTICES)
        self.vb = VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=VERTICES.strides[0])

    def draw(self, t: float) -> None:
        """Bind the triangle's state, clear, draw (``t`` changes nothing)."""
        ctx = self.ctx
        self.target.bind()
        for kind, cso in self.csos:
            getattr(ctx, f"bind_{kind}_state")(cso)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([self.vb])
        self.target.clear(common.CLEAR_COLOR)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=len(VERTICES)))


def render(screen, size: int) -> np.ndarray:
    """Draw the triangle into a ``size`` x ``size`` display target on
    ``screen`` through the frame loop; return its pixels with row 0 = window
    y 0 of a GL-style (y-up) window, i.e. the frame's rows bottom first."""
    return frames.render_headless(sys.modules[__name__], screen, size, 1)[::-1]


def main(argv=None) -> np.ndarray:
    """Command-line entry point; returns the rendered pixels (row 0 = window y 0)."""
    args = common.arg_parser(__doc__.splitlines()[0], "tri.png").parse_args(argv)
    pixels = common.run(lambda screen: render(screen, args.size), args, "glpipe: triangle")
    if not args.window:
        print(f"wrote {args.out} ({args.size}x{args.size})")
    return pixels


if __name__ == "__main__":
    main(sys.argv[1:])
