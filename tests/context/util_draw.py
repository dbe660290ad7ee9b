"""Helpers for the draw_vbo and vertex-format tests: geometry in pixel
coordinates, an independent coverage model of GL rasterization, and
readback of float and integer render targets through raw GL."""

from __future__ import annotations

import numpy as np

import glpipe
from glpipe import Blend, BlendFactor, BlendState, Format, RTBlendState, ShaderState, VertexElement

from .util import PASS_VS, read_rgba32f, render_target

SIZE = 16  # render targets are SIZE x SIZE RGBA32F unless a test says otherwise

# The FS of most draw tests: the colour varying, flat (CONSTANT), so each
# primitive shows its provoking vertex's colour and nothing is interpolated.
FLAT_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

POS_COLOR = (
    VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
)


def ndc(x: float, y: float, size: int = SIZE) -> tuple[float, float]:
    """Window (pixel) coordinates -> NDC for a size x size viewport."""
    return 2.0 * x / size - 1.0, 2.0 * y / size - 1.0


def vertices(points, colors, size: int = SIZE) -> np.ndarray:
    """Interleaved (position vec4 in NDC, colour vec4) float32 rows from
    window-space points and RGBA colours (one colour for all, or one each)."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    colors = np.asarray(colors, np.float32)
    if colors.ndim == 1:
        colors = np.broadcast_to(colors, (len(points), 4))
    out = np.zeros((len(points), 8), np.float32)
    out[:, 0] = 2.0 * points[:, 0] / size - 1.0
    out[:, 1] = 2.0 * points[:, 1] / size - 1.0
    out[:, 3] = 1.0
    out[:, 4:] = colors
    return out


def point_grid_vertices(n: int, size: int = SIZE) -> np.ndarray:
    """Vertex v at the centre of pixel (v % size, v // size) with colour
    ((v+1)/1024, 0.5, 0.25, 1): a draw of points shows which vertices it fetched."""
    v = np.arange(n)
    pts = np.stack([v % size + 0.5, v // size + 0.5], axis=1)
    cols = np.stack([(v + 1) / 1024.0, np.full(n, 0.5), np.full(n, 0.25), np.ones(n)], axis=1)
    return vertices(pts, cols, size)


def points_image(fetched, verts: np.ndarray, size: int = SIZE) -> np.ndarray:
    """The image expected from drawing points at the vertices ``fetched``
    (vertex numbers) of ``point_grid_vertices``."""
    img = np.zeros((size, size, 4), np.float32)
    for v in fetched:
        img[v // size, v % size] = verts[v, 4:]
    return img


def setup(
    ctx, vs: str = PASS_VS, fs: str = FLAT_FS, elements=POS_COLOR, size: int = SIZE, fmt=Format.R32G32B32A32_FLOAT
):
    """Render target (cleared to 0), shaders, vertex elements and a plain
    rasterizer bound; returns the colour resource."""
    color, _ = render_target(ctx, size, size, fmt=fmt)
    zero_fill(ctx.screen, color)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(elements)))
    bind_rasterizer(ctx)
    return color


def bind_rasterizer(ctx, **fields):
    """Bind a rasterizer with 1-pixel points and lines (plus ``fields``)
    when the context has rasterizer CSOs; return it (None without)."""
    if not hasattr(ctx, "create_rasterizer_state"):
        return None
    templ = {"point_size": 1.0, "line_width": 1.0}
    templ.update(fields)
    rast = ctx.create_rasterizer_state(glpipe.RasterizerState(**templ))
    ctx.bind_rasterizer_state(rast)
    return rast


def zero_fill(screen, res) -> None:
    """Clear a 2D colour texture to zeros with raw GL (not the code under test)."""
    gl = screen.host.gl
    desc_int = res.format in _INTEGER_TARGETS
    data = np.zeros((res.height0, res.width0, 4), np.uint32 if desc_int else np.float32)
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 4)
    gl.glTexSubImage2D(
        gl.GL_TEXTURE_2D,
        0,
        0,
        0,
        res.width0,
        res.height0,
        gl.GL_RGBA_INTEGER if desc_int else gl.GL_RGBA,
        gl.GL_UNSIGNED_INT if desc_int else gl.GL_FLOAT,
        data,
    )
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)


_INTEGER_TARGETS = (Format.R32G32B32A32_UINT, Format.R32G32B32A32_SINT)


def read_rgba_int(screen, res, signed: bool) -> np.ndarray:
    """Texels of an RGBA32UI / RGBA32I 2D texture, shape (h, w, 4)."""
    gl = screen.host.gl
    out = np.zeros((res.height0, res.width0, 4), np.int32 if signed else np.uint32)
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 4)
    gl.glGetTexImage(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA_INTEGER, gl.GL_INT if signed else gl.GL_UNSIGNED_INT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return out


# ---------------------------------------------------------------------------
# Coverage: an independent model of GL's polygon rasterization
# ---------------------------------------------------------------------------


def triangle_coverage(tris, size: int = SIZE, margin: float = 0.05):
    """(covered, ambiguous) boolean (size, size) arrays for triangles given in
    window coordinates ((x0, y0), (x1, y1), (x2, y2)).

    A pixel is covered when its centre lies strictly inside some triangle
    (GL 4.5 §14.6.1: point sampling at the centre).  Pixels whose centre is
    within ``margin`` pixels of an edge are *ambiguous* (the tie-breaking
    rule decides them) and tests leave them out.
    """
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    covered = np.zeros((size, size), bool)
    ambiguous = np.zeros((size, size), bool)
    for tri in tris:
        (x0, y0), (x1, y1), (x2, y2) = tri
        area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        if area == 0:
            continue
        sign = 1.0 if area > 0 else -1.0
        inside = np.ones((size, size), bool)
        for (ax, ay), (bx, by) in (((x0, y0), (x1, y1)), ((x1, y1), (x2, y2)), ((x2, y2), (x0, y0))):
            inside &= sign * ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax)) > 0
            ambiguous |= _segment_distance(xs, ys, ax, ay, bx, by) < margin
        covered |= inside
    return covered, ambiguous


def _segment_distance(xs, ys, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(xs - (ax + t * dx), ys - (ay + t * dy))


def rect_tris(x0, y0, x1, y1):
    """The two triangles of an axis-aligned rectangle."""
    return [((x0, y0), (x1, y0), (x1, y1)), ((x0, y0), (x1, y1), (x0, y1))]


def assert_coverage(img: np.ndarray, covered: np.ndarray, ambiguous: np.ndarray, color) -> None:
    """Every unambiguous covered pixel has ``color``; every unambiguous
    uncovered one is 0.  At least one pixel of each kind is checked."""
    color = np.asarray(color, np.float32)
    sure_in = covered & ~ambiguous
    sure_out = ~covered & ~ambiguous
    assert sure_in.any() and sure_out.any(), "geometry leaves nothing to check"
    bad_in = np.argwhere(~np.all(img[sure_in] == color, axis=-1))
    bad_out = np.argwhere(~np.all(img[sure_out] == 0, axis=-1))
    assert not len(bad_in), f"pixels that should be covered are not: {np.argwhere(sure_in)[bad_in[:, 0]][:8]}"
    assert not len(bad_out), f"pixels that should be empty are drawn: {np.argwhere(sure_out)[bad_out[:, 0]][:8]}"


def lit(img: np.ndarray) -> np.ndarray:
    """Boolean (h, w): pixels with any non-zero channel."""
    return np.any(img != 0, axis=-1)


# Additive blending on every render target: a double draw shows as a doubled colour.
ADD_BLEND = BlendState(
    rt=(
        RTBlendState(
            blend_enable=True,
            rgb_src_factor=BlendFactor.ONE,
            rgb_dst_factor=BlendFactor.ONE,
            alpha_src_factor=BlendFactor.ONE,
            alpha_dst_factor=BlendFactor.ONE,
            rgb_func=Blend.ADD,
            alpha_func=Blend.ADD,
        ),
    )
    + (RTBlendState(),) * 7
)


def read_and_clear(ctx, color) -> np.ndarray:
    """The colour target's texels (raw GL), then cleared for the next draw."""
    out = read_rgba32f(ctx.screen, color)
    zero_fill(ctx.screen, color)
    return out
