"""A textured quad: a procedurally generated checkerboard-and-gradient
texture, sampled with nearest filtering on a PIPE_PRIM_QUADS draw, through
glpipe's Gallium interface, written to a PNG.

    python demos/quad_tex.py [--out quad_tex.png] [--size 256] [--profile gl33] [--window]

What it shows beyond demos/tri.py:

* a texture filled with ``texture_subdata`` (row 0 of the data is texel row
  0, window y 0 when drawn with the GL-style viewport: no flip anywhere in
  the pipe);
* ``create_sampler_view`` + ``set_sampler_views`` and ``create_sampler_state``
  + ``bind_sampler_states`` for the fragment shader's SVIEW[0] / SAMP[0];
* PIPE_PRIM_QUADS, which core GL cannot draw: glpipe turns the quad into
  two triangles by index translation (fallback/indices.py) with the same
  pixels as a native quad.

``python -m demos quad_tex`` runs it on the frame loop (demos/frames.py,
presented by ``flush_frontbuffer``); ``render`` and this script return the
same picture with GL's row order (row 0 = the bottom).
"""

from __future__ import annotations

import sys

import numpy as np

try:  # imported as demos.quad_tex (tests) or run as a script
    from . import common, frames
    from .scene import SceneBase
except ImportError:
    import common
    import frames
    from scene import SceneBase

from glpipe import (
    Bind,
    Box,
    DrawInfo,
    Format,
    Map,
    Prim,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    Target,
    TexFilter,
    TexMipFilter,
    TexWrap,
    VertexBuffer,
    VertexElement,
)

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: END
"""

# Texture size: deliberately not square, so a transposed lookup shows.
TEX_WIDTH, TEX_HEIGHT = 8, 6

# The quad's clip-space rectangle (x0, y0, x1, y1) and its corners in the
# order PIPE_PRIM_QUADS takes them (counter-clockwise), with texture
# coordinates (s, t) running 0..1 across it.
QUAD_RECT = (-0.75, -0.5, 0.75, 0.5)


def texture_texels() -> np.ndarray:
    """The texture: (TEX_HEIGHT, TEX_WIDTH, 4) uint8 RGBA, row 0 = texel row 0.
    Red rises with x, green with y, blue is a checkerboard, alpha opaque."""
    y, x = np.mgrid[0:TEX_HEIGHT, 0:TEX_WIDTH]
    tex = np.empty((TEX_HEIGHT, TEX_WIDTH, 4), np.uint8)
    tex[..., 0] = 40 + x * 30
    tex[..., 1] = 40 + y * 40
    tex[..., 2] = np.where((x + y) % 2 == 0, 230, 30)
    tex[..., 3] = 255
    return tex


def quad_vertices() -> np.ndarray:
    """Four vertices: clip position (x, y, 0, 1) and texcoord (s, t, 0, 1)."""
    x0, y0, x1, y1 = QUAD_RECT
    return np.array(
        [
            [x0, y0, 0, 1, 0, 0, 0, 1],
            [x1, y0, 0, 1, 1, 0, 0, 1],
            [x1, y1, 0, 1, 1, 1, 0, 1],
            [x0, y1, 0, 1, 0, 1, 0, 1],
        ],
        dtype=np.float32,
    )


NAME = "quad_tex"
DESCRIPTION = "a nearest-filtered textured quad (PIPE_PRIM_QUADS)"


class Scene(SceneBase):
    """The textured quad's objects on ``ctx`` (demos/frames.py protocol: a
    still frame, the same at every ``t``)."""

    FRAGMENT_SAMPLERS = 1

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height, depth=False))
        self.csos = common.bind_fixed_function(self)
        texels = texture_texels()
        self.tex = self.make(
            "resource",
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=Format.R8G8B8A8_UNORM,
                width0=TEX_WIDTH,
                height0=TEX_HEIGHT,
                bind=Bind.SAMPLER_VIEW,
            ),
        )
        row = TEX_WIDTH * 4
        box = Box(x=0, y=0, z=0, width=TEX_WIDTH, height=TEX_HEIGHT, depth=1)
        ctx.texture_subdata(self.tex, 0, Map.WRITE, box, texels, row, row * TEX_HEIGHT)
        self.view = self.make(
            "sampler_view",
            self.tex,
            SamplerViewTemplate(format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D, first_level=0, last_level=0),
        )
        self.sampler = self.make(
            "sampler",
            SamplerState(
                wrap_s=TexWrap.CLAMP_TO_EDGE,
                wrap_t=TexWrap.CLAMP_TO_EDGE,
                wrap_r=TexWrap.CLAMP_TO_EDGE,
                min_img_filter=TexFilter.NEAREST,
                mag_img_filter=TexFilter.NEAREST,
                min_mip_filter=TexMipFilter.NONE,
            ),
        )
        self.vs = self.make("vs", ShaderState(tokens=common.PASSTHROUGH_VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        verts = quad_vertices()
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        self.vb = VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=verts.strides[0])

    def draw(self, t: float) -> None:
        """Bind the quad's state, clear, draw the QUADS (``t`` changes nothing)."""
        ctx = self.ctx
        self.target.bind()
        for kind, cso in self.csos:
            getattr(ctx, f"bind_{kind}_state")(cso)
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [self.view])
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [self.sampler])
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([self.vb])
        self.target.clear(common.CLEAR_COLOR)
        ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, start=0, count=4))


def render(screen, size: int) -> np.ndarray:
    """Draw the textured quad into a ``size`` x ``size`` display target
    through the frame loop; return its pixels with row 0 = window y 0 of a
    GL-style (y-up) window, i.e. the frame's rows bottom first."""
    return frames.render_headless(sys.modules[__name__], screen, size, 1)[::-1]


def main(argv=None) -> np.ndarray:
    """Command-line entry point; returns the rendered pixels (row 0 = window y 0)."""
    args = common.arg_parser(__doc__.splitlines()[0], "quad_tex.png").parse_args(argv)
    pixels = common.run(lambda screen: render(screen, args.size), args, "glpipe: textured quad")
    if not args.window:
        print(f"wrote {args.out} ({args.size}x{args.size})")
    return pixels


if __name__ == "__main__":
    main(sys.argv[1:])
