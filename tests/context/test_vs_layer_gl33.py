"""The vertex shader's LAYER and VIEWPORT_INDEX outputs (PIPE_CAP_VS_LAYER_VIEWPORT)
on both profiles, gl33's bytes against native's.

GL 3.3 writes gl_Layer only in a geometry shader; there glpipe inserts a
generated pass-through GS that writes gl_Layer from the value the VS wrote
(lowering/glsl/passes/layer.py, docs/lowering.md "Layer and viewport index
from the vertex stage").  With a single viewport (gl33: MAX_VIEWPORTS 1) the
only viewport index in range is 0 (GL: an index out of range is undefined).

Expectations: a layered RGBA32F array target, each primitive covering known
pixels (a full-target quad, a point at a pixel centre, a horizontal line);
layer l holds value l + 1 where a primitive sent to layer l covers it and 0
elsewhere -- computed here by hand -- and gl33's layers equal native's.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import get_screen

from glpipe import (
    Bind,
    Clear,
    DrawInfo,
    Format,
    FramebufferState,
    Prim,
    ResourceTemplate,
    ShaderState,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    VertexElement,
    ViewportState,
)
from glpipe.enums import Cap

from .util_raster import rast

W = H = 4
LAYERS = 4


# LAYER = instance ID (or vertex ID / per_prim), VIEWPORT_INDEX = 0, GENERIC[0] = layer + 1.
def _layer_vs(source: str, per_prim: int = 1) -> str:
    sv = "INSTANCEID" if source == "instance" else "VERTEXID"
    return f"""VERT
DCL IN[0]
DCL SV[0], {sv}
DCL OUT[0], POSITION
DCL OUT[1], LAYER
DCL OUT[2], VIEWPORT_INDEX
DCL OUT[3], GENERIC[0]
DCL TEMP[0]
IMM[0] INT32 {{{per_prim}, 0, 0, 0}}
IMM[1] FLT32 {{1.0, 0.0, 0.0, 0.0}}
  0: IDIV TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: MOV OUT[0], IN[0]
  2: MOV OUT[1].x, TEMP[0].xxxx
  3: MOV OUT[2].x, IMM[0].yyyy
  4: I2F TEMP[0].y, TEMP[0].xxxx
  5: ADD OUT[3], TEMP[0].yyyy, IMM[1].xxxx
  6: END
"""


FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def _ndc(px, size):
    return px / size * 2.0 - 1.0


def _pos(win_xy) -> np.ndarray:
    win_xy = np.asarray(win_xy, np.float64)
    out = np.zeros((len(win_xy), 4), np.float32)
    out[:, 0] = _ndc(win_xy[:, 0], W)
    out[:, 1] = _ndc(win_xy[:, 1], H)
    out[:, 3] = 1.0
    return out


def _layered_target(screen, ctx):
    """A cleared LAYERS-layer RGBA32F array bound as the only colour buffer, viewport over it."""
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D_ARRAY,
            format=Format.R32G32B32A32_FLOAT,
            width0=W,
            height0=H,
            array_size=LAYERS,
            bind=Bind.RENDER_TARGET,
        )
    )
    surf = ctx.create_surface(res, SurfaceTemplate(format=res.format, first_layer=0, last_layer=LAYERS - 1))
    ctx.set_framebuffer_state(FramebufferState(width=W, height=H, layers=LAYERS, cbufs=(surf,)))
    ctx.set_viewport_states(0, [ViewportState(scale=(W / 2, H / 2, 0.5), translate=(W / 2, H / 2, 0.5))])
    ctx.clear(Clear.COLOR0, None, (0, 0, 0, 0), 0, 0)
    return res


def _layers_red(screen, res):
    """The (LAYERS, H, W) red channel of ``res``, read back with glGetTexImage."""
    gl = screen.host.gl
    out = np.zeros((LAYERS, H, W, 4), np.float32)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, res.gl_object)
    gl.glGetTexImage(gl.GL_TEXTURE_2D_ARRAY, 0, gl.GL_RGBA, gl.GL_FLOAT, out)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)
    return out[..., 0]


def _render(profile, vs, verts, mode, instances=1):
    """The (LAYERS, H, W) red channel of the layered target after the draw."""
    screen = get_screen(profile)
    assert screen.get_param(Cap.VS_LAYER_VIEWPORT) == 1
    ctx = screen.context_create()
    try:
        res = _layered_target(screen, ctx)
        ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
        ctx.bind_vertex_elements_state(
            ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
        )
        rast(ctx, point_size=1.0, line_width=1.0)
        ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(verts, np.float32), stride=16)])
        ctx.draw_vbo(DrawInfo(mode=mode, count=len(verts), instance_count=instances))
        return _layers_red(screen, res)
    finally:
        ctx.destroy()


def _check(profile, vs, verts, mode, expect, instances=1):
    got = _render(profile, vs, verts, mode, instances)
    np.testing.assert_array_equal(got, expect)
    if profile != "native":
        np.testing.assert_array_equal(got, _render("native", vs, verts, mode, instances))


QUAD = _pos([[0, 0], [W, 0], [0, H], [W, H]])


def test_cap(screen):
    """VS_LAYER_VIEWPORT is 1 on both profiles; TES_LAYER_VIEWPORT follows tessellation."""
    assert screen.get_param(Cap.VS_LAYER_VIEWPORT) == 1
    assert screen.get_param(Cap.TES_LAYER_VIEWPORT) == int(screen.profile.has("tessellation_shader"))


@pytest.mark.parametrize("mode", [Prim.TRIANGLE_STRIP, Prim.TRIANGLES])
def test_instance_per_layer_triangles(profile, mode):
    """Instance i draws the full-target quad into layer i: layer i is i + 1 everywhere."""
    verts = QUAD if mode == Prim.TRIANGLE_STRIP else QUAD[[0, 1, 2, 2, 1, 3]]
    expect = np.broadcast_to(np.arange(1, LAYERS + 1, dtype=np.float32)[:, None, None], (LAYERS, H, W))
    _check(profile, _layer_vs("instance"), verts, mode, expect, instances=LAYERS)


def test_points_per_layer(profile):
    """POINTS, vertex v at pixel (v, v) into layer v (VERTEXID)."""
    verts = _pos([[v + 0.5, v + 0.5] for v in range(LAYERS)])
    expect = np.zeros((LAYERS, H, W), np.float32)
    for v in range(LAYERS):
        expect[v, v, v] = v + 1
    _check(profile, _layer_vs("vertex"), verts, Prim.POINTS, expect)


def test_lines_per_layer(profile):
    """LINES, segment s across row s into layer s (VERTEXID / 2)."""
    verts = _pos([p for s in range(LAYERS) for p in ([0.0, s + 0.5], [W, s + 0.5])])
    expect = np.zeros((LAYERS, H, W), np.float32)
    for s in range(LAYERS):
        expect[s, s, :] = s + 1
    _check(profile, _layer_vs("vertex", per_prim=2), verts, Prim.LINES, expect)


def test_triangle_list_per_layer(profile):
    """TRIANGLES, triangle t (the quad's halves, then again) into layer t (VERTEXID / 3)."""
    tris = QUAD[[0, 1, 2, 2, 1, 3, 0, 1, 2, 2, 1, 3]]
    got = _render(profile, _layer_vs("vertex", per_prim=3), tris, Prim.TRIANGLES)
    # Each layer holds one half of the quad: value t + 1 on its pixels, 0 elsewhere,
    # and the two halves of a pair together cover the target exactly once.
    for t in range(LAYERS):
        assert set(np.unique(got[t])) <= {0.0, t + 1.0} and (got[t] > 0).any()
    assert np.array_equal((got[0] > 0) ^ (got[1] > 0), np.ones((H, W), bool))
    assert np.array_equal(got[0] > 0, got[2] > 0)
    if profile != "native":
        np.testing.assert_array_equal(got, _render("native", _layer_vs("vertex", per_prim=3), tris, Prim.TRIANGLES))


def test_mode_switches_in_one_context(profile):
    """One context, one VS: POINTS, then the instanced quad, then POINTS
    again (each draw keys its own generated GS on gl33; the second POINTS
    draw reuses the first's), the layers accumulate."""
    screen = get_screen(profile)
    points = _pos([[0.5, 0.5], [3.5, 3.5]])
    quad_vs, point_vs = _layer_vs("instance"), _layer_vs("vertex")
    expect = np.zeros((LAYERS, H, W), np.float32)
    expect[:] = np.arange(1, LAYERS + 1, dtype=np.float32)[:, None, None]
    expect[0, 0, 0] = 1.0
    expect[1, 3, 3] = 2.0
    ctx = screen.context_create()
    try:
        res = _layered_target(screen, ctx)
        vs_points = ctx.create_vs_state(ShaderState(tokens=point_vs))
        vs_quad = ctx.create_vs_state(ShaderState(tokens=quad_vs))
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
        ctx.bind_vertex_elements_state(
            ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
        )
        rast(ctx, point_size=1.0)
        for vs, verts, mode, inst in (
            (vs_points, points, Prim.POINTS, 1),
            (vs_quad, QUAD, Prim.TRIANGLE_STRIP, 4),
            (vs_points, points, Prim.POINTS, 1),
        ):
            ctx.bind_vs_state(vs)
            ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(verts, np.float32), stride=16)])
            ctx.draw_vbo(DrawInfo(mode=mode, count=len(verts), instance_count=inst))
        np.testing.assert_array_equal(_layers_red(screen, res), expect)
        ctx.delete_vs_state(vs_points)
        ctx.delete_vs_state(vs_quad)
    finally:
        ctx.destroy()


def test_line_stipple_with_a_layer_writing_vs_is_refused(profile):
    """Line stipple needs glpipe's own generated GS, which cannot pass LAYER
    on (GL has no GS input for it): refused at draw time on both profiles
    (as before this emulation), naming the output -- never a host error."""
    verts = _pos([[0.0, 0.5], [W, 0.5]])
    screen = get_screen(profile)
    ctx = screen.context_create()
    try:
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D_ARRAY,
                format=Format.R32G32B32A32_FLOAT,
                width0=W,
                height0=H,
                array_size=LAYERS,
                bind=Bind.RENDER_TARGET,
            )
        )
        surf = ctx.create_surface(res, SurfaceTemplate(format=res.format, first_layer=0, last_layer=LAYERS - 1))
        ctx.set_framebuffer_state(FramebufferState(width=W, height=H, layers=LAYERS, cbufs=(surf,)))
        ctx.set_viewport_states(0, [ViewportState(scale=(W / 2, H / 2, 0.5), translate=(W / 2, H / 2, 0.5))])
        ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=_layer_vs("vertex", per_prim=2))))
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
        ctx.bind_vertex_elements_state(
            ctx.create_vertex_elements_state([VertexElement(src_format=Format.R32G32B32A32_FLOAT)])
        )
        rast(ctx, line_stipple_enable=True, line_stipple_pattern=0xFFFF)
        ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(verts, np.float32), stride=16)])
        from lowering.errors import UnsupportedError

        with pytest.raises(UnsupportedError, match="LAYER"):
            ctx.draw_vbo(DrawInfo(mode=Prim.LINES, count=2))
    finally:
        ctx.destroy()
