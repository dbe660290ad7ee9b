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
6. ``transfer_map(READ)`` of the texture: the pixels (row 0 = window y 0),
   presented as a PNG with the first row at the bottom (demos/common.py).
"""

from __future__ import annotations

import sys

import numpy as np

try:  # imported as demos.tri (tests) or run as a script (python demos/tri.py)
    from . import common
except ImportError:
    import common

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


def render(screen, size: int) -> np.ndarray:
    """Draw the triangle into a ``size`` x ``size`` RGBA8 target on
    ``screen``; return its pixels (row 0 = window y 0)."""
    ctx = screen.context_create()
    try:
        target = common.RenderTarget(screen, ctx, size, size)
        csos = common.bind_fixed_function(ctx)
        vs = ctx.create_vs_state(ShaderState(tokens=common.PASSTHROUGH_VS))
        fs = ctx.create_fs_state(ShaderState(tokens=FS))
        velems = ctx.create_vertex_elements_state(
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ]
        )
        ctx.bind_vs_state(vs)
        ctx.bind_fs_state(fs)
        ctx.bind_vertex_elements_state(velems)

        vbuf = screen.resource_create(
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=VERTICES.nbytes, bind=Bind.VERTEX_BUFFER
            )
        )
        ctx.buffer_subdata(vbuf, Map.WRITE, 0, VERTICES)
        ctx.set_vertex_buffers([VertexBuffer(buffer=vbuf, buffer_offset=0, stride=VERTICES.strides[0])])

        target.clear()
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=len(VERTICES)))
        pixels = target.read()

        ctx.set_vertex_buffers([])
        ctx.bind_vertex_elements_state(None)
        ctx.bind_vs_state(None)
        ctx.bind_fs_state(None)
        ctx.delete_vertex_elements_state(velems)
        ctx.delete_vs_state(vs)
        ctx.delete_fs_state(fs)
        common.delete_csos(ctx, csos)
        screen.resource_destroy(vbuf)
        target.destroy()
        return pixels
    finally:
        ctx.destroy()


def main(argv=None) -> np.ndarray:
    """Command-line entry point; returns the rendered pixels (row 0 = window y 0)."""
    args = common.arg_parser(__doc__.splitlines()[0], "tri.png").parse_args(argv)
    pixels = common.run(lambda screen: render(screen, args.size), args, "glpipe: triangle")
    if not args.window:
        print(f"wrote {args.out} ({args.size}x{args.size})")
    return pixels


if __name__ == "__main__":
    main(sys.argv[1:])
