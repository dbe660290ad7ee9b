"""Polygon orientation in Gallium's window space (docs/rasterizer.md
"Winding"), on both profiles.

Gallium judges winding over window positions p0, p1, p2 (y grows downward
from row 0): with e = p0 - p2, f = p1 - p2 and det = e.x * f.y - e.y * f.x a
triangle is front-facing when (front_ccw and det < 0) or (not front_ccw and
det > 0) -- softpipe's sp_setup.c and the draw module's draw_pipe_cull.c.
glpipe's window coordinates are GL's one to one, whose y grows upward, so
front_ccw True is glFrontFace(GL_CW).

Every expectation below comes from that rule (``gallium_front``, evaluated
here on the window positions) and from hand geometry: the window triangle
(0, 0), (W, 0), (0, H) has e = (0, -H), f = (W, -H), det = W * H > 0, so it is
front-facing with front_ccw False and back-facing with front_ccw True.  Each
facing-dependent feature is checked on it and on its reversal (det < 0):
culling, FACE, two-sided colour, two-sided stencil, per-face fill modes
(one drawn face, and both faces drawn in different modes: glpipe's own
numpy facing, glpipe/raster/fill_modes.py) and polygon offset by the face's mode.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    DepthStencilAlphaState,
    Face,
    Format,
    PolygonMode,
    Prim,
    StencilOp,
    StencilRef,
    StencilState,
)
from glpipe.enums import Func

from .util_blend_dsa import bind_targets, pack_d24s8, read, texture, upload
from .util_draw import SIZE, lit, setup, triangle_coverage, vertices
from .util_raster import (
    BLUE,
    COLOR_FS,
    RED,
    TWO_SIDE_VS,
    WHITE,
    bind_shaders,
    clear_depth,
    covered_by_centres,
    depth_target,
    draw,
    draw_image,
    gallium_front,
    rast,
    read_depth,
    tri_vertices,
)

W = H = float(SIZE)
EXAMPLE = ((0.0, 0.0), (W, 0.0), (0.0, H))  # det = W * H > 0 (module docstring)
REVERSED = EXAMPLE[::-1]  # det < 0
TRIS = {"example": EXAMPLE, "reversed": REVERSED}

# FS: red = FACE.x (+1 front, -1 back), alpha 1.
FACE_FS = """FRAG
DCL IN[0], FACE, CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}
  0: MOV TEMP[0], IMM[0]
  1: MOV TEMP[0].x, IN[0].xxxx
  2: MOV OUT[0], TEMP[0]
  3: END
"""

# FS: the FACE system value (~0 front, 0 back) selects red or blue.
FACE_SV_FS = """FRAG
DCL SV[0], FACE
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}
IMM[1] FLT32 {0.0, 0.0, 1.0, 1.0}
  0: UCMP OUT[0], SV[0].xxxx, IMM[0], IMM[1]
  1: END
"""

# VS: COLOR = the vertex colour, BCOLOR = blue.


def _det(tri) -> float:
    (x0, y0), (x1, y1), (x2, y2) = tri
    ex, ey, fx, fy = x0 - x2, y0 - y2, x1 - x2, y1 - y2
    return ex * fy - ey * fx


def _sure(tri):
    """Pixels surely inside ``tri`` (centre off every edge), surely outside."""
    cov, amb = triangle_coverage([tri])
    return cov & ~amb, ~cov & ~amb


def _interior(tri, margin=1.5):
    """Pixel centres inside ``tri`` and more than ``margin`` pixels from the
    boundary of the triangle (W, H at most SIZE: the two axis edges are x = 0
    and y = 0, the third x + y = SIZE)."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    return covered_by_centres([tri]) & (xs > margin) & (ys > margin) & (SIZE - xs - ys > margin * np.sqrt(2))


def test_the_example_by_hand():
    """The rule's own arithmetic on the example (API "Winding"), so the
    expectations below rest on it: det > 0, front with front_ccw False."""
    assert _det(EXAMPLE) == W * H > 0 and _det(REVERSED) < 0
    assert gallium_front(EXAMPLE, front_ccw=False) and not gallium_front(EXAMPLE, front_ccw=True)
    assert gallium_front(REVERSED, front_ccw=True) and not gallium_front(REVERSED, front_ccw=False)


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
@pytest.mark.parametrize("cull", list(Face))
def test_cull_face(ctx, cull, front_ccw, name):
    tri = TRIS[name]
    color = setup(ctx)
    rast(ctx, cull_face=cull, front_ccw=front_ccw)
    img = draw_image(ctx, color, vertices(tri, WHITE), Prim.TRIANGLES)
    face = Face.FRONT if gallium_front(tri, front_ccw) else Face.BACK
    inside, outside = _sure(tri)
    assert not lit(img)[outside].any()
    if cull & face:
        assert not lit(img).any(), (cull, face)
    else:
        assert np.all(img[inside] == WHITE), (cull, face)


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
def test_face_input(ctx, front_ccw, name):
    """FACE reads +1 on front faces, -1 on back faces."""
    tri = TRIS[name]
    color = setup(ctx, fs=FACE_FS)
    rast(ctx, front_ccw=front_ccw)
    img = draw_image(ctx, color, vertices(tri, WHITE), Prim.TRIANGLES)
    inside, _ = _sure(tri)
    want = 1.0 if gallium_front(tri, front_ccw) else -1.0
    assert np.all(img[inside, 0] == want) and np.all(img[inside, 3] == 1.0)


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
def test_face_system_value(ctx, front_ccw, name):
    """SV FACE is ~0 on front faces, 0 on back faces (red / blue here)."""
    tri = TRIS[name]
    color = setup(ctx, fs=FACE_SV_FS)
    rast(ctx, front_ccw=front_ccw)
    img = draw_image(ctx, color, vertices(tri, WHITE), Prim.TRIANGLES)
    inside, _ = _sure(tri)
    assert np.all(img[inside] == (RED if gallium_front(tri, front_ccw) else BLUE))


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
def test_light_twoside(ctx, front_ccw, name):
    """light_twoside: front faces read COLOR (red here), back faces BCOLOR (blue)."""
    tri = TRIS[name]
    color = setup(ctx, vs=TWO_SIDE_VS, fs=COLOR_FS)
    rast(ctx, light_twoside=True, front_ccw=front_ccw)
    img = draw_image(ctx, color, vertices(tri, RED), Prim.TRIANGLES)
    inside, _ = _sure(tri)
    assert np.all(img[inside] == (RED if gallium_front(tri, front_ccw) else BLUE))


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
def test_two_sided_stencil(screen, ctx, front_ccw, name):
    """stencil[0] (front: REPLACE with ref 0x11) or stencil[1] (back:
    INVERT) by the triangle's facing; stored stencil 0, no depth test."""
    tri = TRIS[name]
    color = texture(screen, Format.R32G32B32A32_FLOAT, SIZE, SIZE, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z24_UNORM_S8_UINT, SIZE, SIZE, Bind.DEPTH_STENCIL)
    bind_targets(ctx, SIZE, SIZE, (color,), zs)
    bind_shaders(ctx)
    rast(ctx, front_ccw=front_ccw)
    upload(screen, zs, "depth24s8", pack_d24s8(np.ones((SIZE, SIZE)), np.zeros((SIZE, SIZE))))
    front = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.REPLACE, valuemask=0xFF, writemask=0xFF)
    back = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.INVERT, valuemask=0xFF, writemask=0xFF)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(stencil=(front, back)))
    )
    ctx.set_stencil_ref(StencilRef(ref_value=(0x11, 0x22)))
    draw(ctx, vertices(tri, WHITE), Prim.TRIANGLES)
    stencil = read(screen, zs, "depth24s8") & 0xFF
    inside, outside = _sure(tri)
    want = 0x11 if gallium_front(tri, front_ccw) else 0xFF
    assert np.all(stencil[inside] == want) and np.all(stencil[outside] == 0)


FILL, LINE = PolygonMode.FILL, PolygonMode.LINE


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
@pytest.mark.parametrize("modes", [(FILL, LINE), (LINE, FILL)], ids=["front_fill", "front_line"])
@pytest.mark.parametrize("cull", [Face.NONE, Face.BACK, Face.FRONT])
def test_fill_front_and_back(ctx, modes, front_ccw, name, cull):
    """The triangle is drawn in its face's mode: filled, or its outline only
    (the hypotenuse is inside the target).  Culling NONE draws both faces in
    different modes (glpipe splits the draw by its own facing); culling one
    face leaves the other's mode alone."""
    tri = TRIS[name]
    color = setup(ctx)
    rast(ctx, front_ccw=front_ccw, fill_front=modes[0], fill_back=modes[1], cull_face=cull)
    img = lit(draw_image(ctx, color, vertices(tri, WHITE), Prim.TRIANGLES))
    is_front = gallium_front(tri, front_ccw)
    interior = _interior(tri)
    assert interior.sum() > 20
    if cull & (Face.FRONT if is_front else Face.BACK):
        assert not img.any()
    elif modes[0 if is_front else 1] == FILL:
        assert img[interior].all()
    else:
        assert img.any() and not img[interior].any()


@pytest.mark.parametrize("name", TRIS)
@pytest.mark.parametrize("front_ccw", [False, True])
@pytest.mark.parametrize("modes", [(FILL, LINE), (LINE, FILL)], ids=["front_fill", "front_line"])
def test_polygon_offset_by_the_face_mode(screen, ctx, modes, front_ccw, name):
    """offset_tri on, offset_line off, both faces drawn (in different modes):
    the triangle is offset exactly when its face is filled.  Depth 0.5 in a
    D32F buffer: r = 2^(-1 - 23) (GL 4.5 §14.6.5), 1000 units."""
    tri = TRIS[name]
    _, zs = depth_target(ctx)
    bind_shaders(ctx)
    clear_depth(screen, zs, 1.0)
    rast(ctx, front_ccw=front_ccw, fill_front=modes[0], fill_back=modes[1], offset_tri=True, offset_units=1000.0)
    draw(ctx, tri_vertices(tri, z=0.0), Prim.TRIANGLES)
    depth = read_depth(screen, zs)
    interior = _interior(tri)
    drawn = depth != 1.0
    if modes[0 if gallium_front(tri, front_ccw) else 1] == FILL:
        assert np.all(depth[interior] == np.float32(0.5 + 1000.0 * 2.0**-24))
    else:  # outline only, not offset
        assert drawn.any() and not drawn[interior].any() and np.all(depth[drawn] == 0.5)
