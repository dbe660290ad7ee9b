"""Draw-row caps proven by draws, on both profiles (docs/caps.md "Proof table"):
render-target and framebuffer mixes, vertex-fetch limits, restart in every
primitive mode, rasterizer precision, window-space positions, line and
point limits, NPOT textures.  Expected images come from hand-derived
geometry or numpy models of GL's rules, not from glpipe's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Cap,
    CapF,
    Clear,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    DrawStartCountBias,
    Format,
    Func,
    Prim,
    RasterizerState,
    ResourceTemplate,
    ShaderCap,
    ShaderState,
    ShaderType,
    Target,
    TexMipFilter,
    TexWrap,
    VertexBuffer,
    VertexElement,
    ViewportState,
)
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util_blend_dsa import bind_targets, read, texture
from .util_caps import (
    FULL_TRI,
    POS_VS,
    RED_FS,
    counted_loop,
    draw,
    gl_int,
    number,
    read_target,
)
from .util_draw import lit, triangle_coverage
from .util_sampling import (
    Sampling,
    bind_sampling,
    make_texture,
    tex_fs,
    upload,
    view_2d,
)

F32 = Format.R32G32B32A32_FLOAT


def cap(screen, name) -> int:
    return screen.get_param(Cap[name])


def _target(ctx, width, height):
    """A zeroed RGBA32F colour buffer bound with a full viewport."""
    from .util import render_target
    from .util_draw import zero_fill

    color, _ = render_target(ctx, width, height)
    zero_fill(ctx.screen, color)
    return color


def bind_pos_only(ctx, verts):
    verts = np.ascontiguousarray(verts, np.float32)
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state([VertexElement(src_format=F32)]))
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=16)])
    return len(verts)


# ---------------------------------------------------------------------------
# Render targets and framebuffer mixes
# ---------------------------------------------------------------------------


def _mrt_fs(n: int) -> str:
    lines = ["FRAG"] + [f"DCL OUT[{i}], COLOR[{i}]" for i in range(n)]
    lines += [f"IMM[{i}] FLT32 {{{(i + 1) / 8}, 0.5, 0.25, 1.0}}" for i in range(n)]
    return "\n".join(lines) + "\n" + number([f"MOV OUT[{i}], IMM[{i}]" for i in range(n)] + ["END"])


def test_render_targets_at_the_limit_with_mixed_formats(screen, ctx):
    """MAX_RENDER_TARGETS (= GL_MAX_DRAW_BUFFERS, GL_MAX_COLOR_ATTACHMENTS,
    capped at 8; also the FS's MAX_OUTPUTS), MIXED_COLORBUFFER_FORMATS:
    colour buffers alternating RGBA32F and RGBA8 each receive their own
    COLOR[i] = ((i + 1) / 8, .5, .25, 1), stored as each format stores it."""
    n = cap(screen, "MAX_RENDER_TARGETS")
    assert n == min(gl_int(screen, "GL_MAX_DRAW_BUFFERS"), gl_int(screen, "GL_MAX_COLOR_ATTACHMENTS"), 8) == 8
    assert screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_OUTPUTS) == n
    assert cap(screen, "MIXED_COLORBUFFER_FORMATS") == 1
    formats = [F32 if i % 2 == 0 else Format.R8G8B8A8_UNORM for i in range(n)]
    res = [texture(screen, f, 2, 2, Bind.RENDER_TARGET) for f in formats]
    bind_targets(ctx, 2, 2, res)
    ctx.clear(Clear.COLOR, None, (0, 0, 0, 0), 0, 0)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=_mrt_fs(n))))
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, FULL_TRI)))
    for i, (r, f) in enumerate(zip(res, formats, strict=True)):
        want = np.array([(i + 1) / 8, 0.5, 0.25, 1.0])
        if f == F32:
            assert np.all(read(screen, r, "rgba32f") == want.astype(np.float32)), i
        else:
            assert np.all(read(screen, r, "rgba8") == np.round(want * 255).astype(np.uint8)), i


def test_mixed_framebuffer_sizes(screen, ctx):
    """MIXED_FRAMEBUFFER_SIZES: colour buffers of 8x8 and 5x12 and a 6x6
    depth buffer; a full-viewport quad over the framebuffer's 5x6
    intersection draws that area in both colour buffers (depth test LESS
    against 1.0 passing) and nothing outside it."""
    assert cap(screen, "MIXED_FRAMEBUFFER_SIZES") == 1
    a = texture(screen, F32, 8, 8, Bind.RENDER_TARGET)
    b = texture(screen, F32, 5, 12, Bind.RENDER_TARGET)
    zs = texture(screen, Format.Z32_FLOAT, 6, 6, Bind.DEPTH_STENCIL)
    from glpipe import FramebufferState, SurfaceTemplate

    surfs = tuple(ctx.create_surface(r, SurfaceTemplate(format=r.format)) for r in (a, b))
    ctx.set_framebuffer_state(
        FramebufferState(
            width=5, height=6, cbufs=surfs, zsbuf=ctx.create_surface(zs, SurfaceTemplate(format=zs.format))
        )
    )
    ctx.set_viewport_states(0, [ViewportState(scale=(2.5, 3.0, 0.5), translate=(2.5, 3.0, 0.5))])
    ctx.clear(Clear.COLOR | Clear.DEPTH, None, (0, 0, 0, 0), 1.0, 0)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS)
        )
    )
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(
        ctx.create_fs_state(
            ShaderState(
                tokens="FRAG\nDCL OUT[0], COLOR[0]\nDCL OUT[1], COLOR[1]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
                "  0: MOV OUT[0], IMM[0]\n  1: MOV OUT[1], IMM[0]\n  2: END\n"
            )
        )
    )
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, FULL_TRI)))
    for r in (a, b):
        want = np.zeros((r.height0, r.width0), bool)
        want[:6, :5] = True
        assert np.array_equal(read(screen, r, "rgba32f")[..., 0] == 1.0, want)


@pytest.mark.parametrize("color_fmt,zs_fmt", [(Format.R8G8B8A8_UNORM, Format.Z32_FLOAT), (F32, Format.Z16_UNORM)])
def test_mixed_color_depth_bits(screen, ctx, color_fmt, zs_fmt):
    """MIXED_COLOR_DEPTH_BITS: 8-bit colour with 32-bit depth and 32-bit
    colour with 16-bit depth.  A near triangle (z = 0) then a far full quad
    (z = 0.5) under depth LESS: the far quad shows only outside the triangle
    (the coverage model's pixels)."""
    assert cap(screen, "MIXED_COLOR_DEPTH_BITS") == 1
    size = 16
    col = texture(screen, color_fmt, size, size, Bind.RENDER_TARGET)
    zs = texture(screen, zs_fmt, size, size, Bind.DEPTH_STENCIL)
    bind_targets(ctx, size, size, (col,), zs)
    ctx.clear(Clear.COLOR | Clear.DEPTH, None, (0, 0, 0, 0), 1.0, 0)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS)
        )
    )
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(
        ctx.create_fs_state(
            ShaderState(
                tokens="FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0].zzzz\n  1: END\n"
            )
        )
    )
    win = [(1.0, 1.0), (13.0, 3.0), (4.0, 14.0)]
    near = np.array([[2 * x / size - 1, 2 * y / size - 1, -1.0, 1] for x, y in win], np.float32)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, near)))
    far = FULL_TRI.copy()
    far[:, 2] = 0.0  # window z = 0.5
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, far)))
    if color_fmt == F32:
        img, half = read(screen, col, "rgba32f")[..., 0], np.float32(0.5)
    else:
        img, half = read(screen, col, "rgba8")[..., 0], np.uint8(128)  # round(0.5 * 255)
    covered, ambiguous = triangle_coverage([win], size=size)
    assert np.all(img[covered & ~ambiguous] == 0)  # the near triangle (window z 0, written as colour)
    assert np.all(img[~covered & ~ambiguous] == half)  # the far quad (window z 0.5) elsewhere


# ---------------------------------------------------------------------------
# Vertex fetch limits
# ---------------------------------------------------------------------------


def _sum_inputs_vs(n: int) -> str:
    head = [
        "VERT",
        f"DCL IN[0..{n - 1}]",
        "DCL OUT[0], POSITION",
        "DCL OUT[1], GENERIC[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        "IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}",
        f"IMM[1] INT32 {{0, {n - 1}, 1, 0}}",
    ]
    body = (
        ["MOV TEMP[0], IMM[0]"]
        + counted_loop("IMM[1]", ["ADD TEMP[0].x, TEMP[0].xxxx, IN[ADDR[0].x+1].xxxx"])
        + ["MOV OUT[0], IN[0]", "MOV OUT[1], TEMP[0]", "END"]
    )
    return "\n".join(head) + "\n" + number(body)


def test_vertex_fetch_at_the_limits(screen, ctx):
    """MAX_VERTEX_BUFFERS (= VS MAX_INPUTS = GL_MAX_VERTEX_ATTRIBS, <= 32):
    that many buffers feed that many inputs, summed by the VS through
    IN[ADDR] (VS INDIRECT_INPUT_ADDR).  The last buffer has stride
    MAX_VERTEX_ATTRIB_STRIDE and its R8_UNORM element sits at src_offset
    MAX_VERTEX_ELEMENT_SRC_OFFSET.  One buffer more, or one byte more of
    stride, is refused."""
    n = cap(screen, "MAX_VERTEX_BUFFERS")
    assert (
        n
        == min(gl_int(screen, "GL_MAX_VERTEX_ATTRIBS"), 32)
        == screen.get_shader_param(ShaderType.VERTEX, ShaderCap.MAX_INPUTS)
    )
    assert screen.get_shader_param(ShaderType.VERTEX, ShaderCap.INDIRECT_INPUT_ADDR) == 1
    stride, offset = cap(screen, "MAX_VERTEX_ATTRIB_STRIDE"), cap(screen, "MAX_VERTEX_ELEMENT_SRC_OFFSET")
    assert stride >= 2048 and offset >= 2047
    pos = np.array([[(2 * v + 1) / 4 - 1, 0, 0, 1] for v in range(4)], np.float32)  # 4 points, pixels 0..3
    elements = [VertexElement(src_format=F32)]
    buffers = [VertexBuffer(buffer=pos, stride=16)]
    expected = np.zeros(4)
    for k in range(1, n - 1):  # R32_FLOAT k * 2^v at vertex v
        values = np.array([k * 2.0**v for v in range(4)], np.float32)
        elements.append(VertexElement(src_format=Format.R32_FLOAT, vertex_buffer_index=k))
        buffers.append(VertexBuffer(buffer=values, stride=4))
        expected += values
    big = np.zeros((4, stride), np.uint8)
    big[:, offset] = [51, 102, 153, 204]
    elements.append(VertexElement(src_format=Format.R8_UNORM, src_offset=offset, vertex_buffer_index=n - 1))
    buffers.append(VertexBuffer(buffer=big.reshape(-1), stride=stride))
    expected += np.array([51, 102, 153, 204]) / 255

    with pytest.raises(InvalidArgumentError, match="MAX_VERTEX_BUFFERS"):
        ctx.set_vertex_buffers(buffers + [buffers[1]])
    with pytest.raises(InvalidArgumentError, match="MAX_VERTEX_ATTRIB_STRIDE"):
        ctx.set_vertex_buffers(buffers[:-1] + [VertexBuffer(buffer=big.reshape(-1), stride=stride + 1)])
    fs = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    color = _target(ctx, 4, 1)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=_sum_inputs_vs(n))))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(elements))
    ctx.set_vertex_buffers(buffers)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=4))
    np.testing.assert_allclose(read(screen, color, "rgba32f")[0, :, 0], expected, rtol=1e-6)


def test_unaligned_vertex_offsets_and_strides(screen, ctx):
    """VERTEX_BUFFER_OFFSET / _STRIDE / VERTEX_ELEMENT_SRC_OFFSET_4BYTE_ALIGNED_ONLY
    and VERTEX_ATTRIB_ELEMENT_ALIGNED_ONLY are 0 ("no such restriction"): a
    resource buffer at buffer_offset 3 with stride 21 holds a position
    (4 x R32_FLOAT at src_offset 0) and an R16G16_UNORM at src_offset 17 --
    none of them 4-byte (or element) aligned -- and both are fetched as GL
    defines them."""
    for name in (
        "VERTEX_BUFFER_OFFSET_4BYTE_ALIGNED_ONLY",
        "VERTEX_BUFFER_STRIDE_4BYTE_ALIGNED_ONLY",
        "VERTEX_ELEMENT_SRC_OFFSET_4BYTE_ALIGNED_ONLY",
        "VERTEX_ATTRIB_ELEMENT_ALIGNED_ONLY",
    ):
        assert cap(screen, name) == 0, name
    stride, base = 21, 3
    raw = np.zeros(base + 4 * stride, np.uint8)
    pos = np.array([[(2 * v + 1) / 4 - 1, 0, 0, 1] for v in range(4)], np.float32)
    shorts = np.array([[1000 * (v + 1), 65535 - 7000 * v] for v in range(4)], np.uint16)
    for v in range(4):
        at = base + v * stride
        raw[at : at + 16] = pos[v].view(np.uint8)
        raw[at + 17 : at + 21] = shorts[v].view(np.uint8)
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=raw.nbytes, bind=Bind.VERTEX_BUFFER)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, raw.nbytes, raw)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    color = _target(ctx, 4, 1)
    ctx.bind_vs_state(
        ctx.create_vs_state(
            ShaderState(
                tokens=(
                    "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
                    "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n"
                )
            )
        )
    )
    ctx.bind_fs_state(
        ctx.create_fs_state(
            ShaderState(
                tokens="FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
            )
        )
    )
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0)))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state(
            [VertexElement(src_format=F32, src_offset=0), VertexElement(src_format=Format.R16G16_UNORM, src_offset=17)]
        )
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=res, buffer_offset=base, stride=stride)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=4))
    want = np.zeros((4, 4), np.float32)
    want[:, :2] = shorts / 65535.0
    want[:, 3] = 1.0  # missing components of a vertex attribute read (0, 0, 0, 1)
    np.testing.assert_allclose(read(screen, color, "rgba32f")[0], want, atol=1e-6)


def test_constant_buffer_resource_bound_as_vertex_buffer(screen, ctx):
    """CAN_BIND_CONST_BUFFER_AS_VERTEX: a buffer made with only
    PIPE_BIND_CONSTANT_BUFFER feeds the positions of a draw and, in the same
    draw, the FS's constant buffer 0 (its first vec4 is the colour)."""
    assert cap(screen, "CAN_BIND_CONST_BUFFER_AS_VERTEX") == 1
    data = np.array([[0.25, 0.5, 0.75, 1.0], [-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=Bind.CONSTANT_BUFFER)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, data.nbytes, data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    fs = "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0]\n  0: MOV OUT[0], CONST[0][0]\n  1: END\n"

    def before(c):
        c.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=res, buffer_size=16))
        c.set_vertex_buffers([VertexBuffer(buffer=res, buffer_offset=16, stride=16)])

    from .util import read_rgba32f, render_target
    from .util_draw import zero_fill

    color, _ = render_target(ctx, 2, 2)
    zero_fill(screen, color)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state([VertexElement(src_format=F32)]))
    before(ctx)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
    assert np.all(read_rgba32f(screen, color) == data[0])


# ---------------------------------------------------------------------------
# Primitive modes and restart
# ---------------------------------------------------------------------------

# Six vertices around a 32 x 32 target, each a distinct window position
# (fans and polygons use vertex 0 as the hub), lit with one colour.
_PTS = [(4, 4), (27, 5), (26, 26), (6, 27), (16, 2), (2, 16)]


def _prim_verts(size=32):
    return np.array([[2 * x / size - 1, 2 * y / size - 1, 0, 1] for x, y in _PTS + _PTS], np.float32)


def _draw_indexed(ctx, mode, indices, size, restart=None):
    from .util import read_rgba32f, render_target
    from .util_draw import zero_fill

    color, _ = render_target(ctx, size, size)
    zero_fill(ctx.screen, color)
    idx = np.asarray(indices, np.uint16 if restart is None or restart <= 0xFFFF else np.uint32)
    ctx.draw_vbo(
        DrawInfo(
            mode=mode,
            index_size=idx.itemsize,
            index=idx,
            count=len(idx),
            primitive_restart=restart is not None,
            restart_index=restart or 0,
        )
    )
    return lit(read_rgba32f(ctx.screen, color))


@pytest.mark.parametrize("mode", [p for p in Prim if p != Prim.PATCHES], ids=lambda p: p.name)
def test_primitive_restart_in_every_mode(screen, ctx, mode):
    """SUPPORTED_PRIM_MODES_WITH_RESTART (every mode but PATCHES),
    PRIMITIVE_RESTART, PRIMITIVE_RESTART_FIXED_INDEX: indices A, ~0, B
    draw exactly what A and B drawn apart draw (with 16-bit 0xffff and
    32-bit 0xffffffff), and not what A + B joined draws where joining
    changes the primitive."""
    assert cap(screen, "PRIMITIVE_RESTART") == cap(screen, "PRIMITIVE_RESTART_FIXED_INDEX") == 1
    assert cap(screen, "SUPPORTED_PRIM_MODES_WITH_RESTART") & (1 << mode)
    size = 32
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=RED_FS)))
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0)))
    bind_pos_only(ctx, _prim_verts(size))
    if mode in (
        Prim.LINES_ADJACENCY,
        Prim.LINE_STRIP_ADJACENCY,
        Prim.TRIANGLES_ADJACENCY,
        Prim.TRIANGLE_STRIP_ADJACENCY,
    ):
        a, b = list(range(6)), list(range(6, 12))
    else:
        a, b = [0, 1, 2, 3], [6 + 4, 6 + 5, 6 + 2, 6 + 1]
    apart = _draw_indexed(ctx, mode, a, size) | _draw_indexed(ctx, mode, b, size)
    assert apart.any()
    for restart in (0xFFFF, 0xFFFFFFFF):
        got = _draw_indexed(ctx, mode, a + [restart] + b, size, restart)
        assert np.array_equal(got, apart), hex(restart)


def test_supported_prim_modes(screen, ctx):
    """SUPPORTED_PRIM_MODES: every mode in the mask draws (the per-mode pixel
    tests are in test_draw_features.py); PATCHES is in it exactly where
    tessellation is, and drawing PATCHES is refused elsewhere."""
    mask = cap(screen, "SUPPORTED_PRIM_MODES")
    tess = screen.profile.has("tessellation_shader")
    assert mask == sum(1 << p for p in Prim if p != Prim.PATCHES or tess)
    assert cap(screen, "SUPPORTED_PRIM_MODES_WITH_RESTART") == mask & ~(1 << Prim.PATCHES)
    assert cap(screen, "QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION") == 1
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=RED_FS)))
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0)))
    bind_pos_only(ctx, _prim_verts(32))
    for mode in Prim:
        if mode == Prim.PATCHES:
            continue
        assert _draw_indexed(ctx, mode, list(range(6)), 32).any() or mode == Prim.LINES_ADJACENCY, mode.name
    if not tess:
        with pytest.raises(UnsupportedError, match="PATCHES"):
            ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=3))


# ---------------------------------------------------------------------------
# Rasterizer precision, window-space positions
# ---------------------------------------------------------------------------


def test_rasterizer_subpixel_bits(screen, ctx):
    """RASTERIZER_SUBPIXEL_BITS = GL_SUBPIXEL_BITS = b: a rectangle whose right
    edge lies one subpixel step (2^-b) right of pixel 2's centre covers it;
    a quarter step right snaps onto the centre, which the top-left rule
    leaves out (a right edge).  So the host resolves exactly b bits."""
    b = cap(screen, "RASTERIZER_SUBPIXEL_BITS")
    assert b == gl_int(screen, "GL_SUBPIXEL_BITS") >= 4
    size = 8
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=RED_FS)))
    for step, covered in ((2.0**-b, True), (2.0 ** -(b + 2), False)):
        right = 2.5 + step
        x1 = np.float32(2 * right / size - 1)
        quad = np.array(
            [[-1, -1, 0, 1], [x1, -1, 0, 1], [x1, 1, 0, 1], [-1, -1, 0, 1], [x1, 1, 0, 1], [-1, 1, 0, 1]], np.float32
        )
        bind_pos_only(ctx, quad)
        from .util import read_rgba32f, render_target
        from .util_draw import zero_fill

        color, _ = render_target(ctx, size, size)
        zero_fill(screen, color)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))
        column = lit(read_rgba32f(screen, color))[:, 2]
        assert column.all() == covered and column.any() == covered, step


WINDOW_VS = """VERT
PROPERTY VS_WINDOW_SPACE_POSITION 1
DCL IN[0]
DCL OUT[0], POSITION
  0: MOV OUT[0], IN[0]
  1: END
"""


def _window_space_rect(ctx, viewport, size=4, x=(1, 3), y=None, z=0.3, before=None):
    """Draw a window-space rectangle ``x`` (columns), ``y`` (rows, default all),
    depth ``z`` into a ``size`` x ``size`` colour + depth target under
    ``viewport`` (depth test ALWAYS); return (covered pixels, depth)."""
    screen = ctx.screen
    col = texture(screen, F32, size, size, Bind.RENDER_TARGET)
    zs = texture(screen, Format.Z32_FLOAT, size, size, Bind.DEPTH_STENCIL)
    bind_targets(ctx, size, size, (col,), zs)
    ctx.set_viewport_states(0, [viewport])
    ctx.clear(Clear.COLOR | Clear.DEPTH, None, (0, 0, 0, 0), 0.75, 0)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.ALWAYS)
        )
    )
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=WINDOW_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=RED_FS)))
    if before is not None:
        before(ctx)
    (x0, x1), (y0, y1) = x, y or (0, size)
    rect = np.array(
        [[x0, y0, z, 1], [x1, y0, z, 1], [x0, y1, z, 1], [x1, y0, z, 1], [x1, y1, z, 1], [x0, y1, z, 1]], np.float32
    )
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, rect)))
    return read(screen, col, "rgba32f")[..., 0] == 1.0, read(screen, zs, "depth32f")


def _rect_mask(size, x, y=None):
    """Pixels whose centres lie inside columns x[0]..x[1], rows y[0]..y[1]
    (Gallium window y = texel row)."""
    want = np.zeros((size, size), bool)
    (y0, y1) = y or (0, size)
    want[y0:y1, x[0] : x[1]] = True
    return want


_SMALL_VP = ViewportState(scale=(1.0, 1.0, 0.25), translate=(1.0, 1.0, 0.25))  # pixels 0..1, depth 0..0.5


def test_vs_window_space_position_ignores_the_viewport(screen, ctx):
    """VS_WINDOW_SPACE_POSITION: a VS with that property writes window
    coordinates, which skip the viewport transform and clipping (Gallium).
    A rectangle x 1..3 over every row at z 0.3 lands on exactly those
    pixels at depth 0.3, with a full viewport and with a viewport covering
    only pixels 0..1 and depth 0..0.5 alike."""
    assert cap(screen, "VS_WINDOW_SPACE_POSITION") == 1
    for vp in (ViewportState(scale=(2.0, 2.0, 0.5), translate=(2.0, 2.0, 0.5)), _SMALL_VP):
        covered, depth = _window_space_rect(ctx, vp)
        assert np.array_equal(covered, _rect_mask(4, (1, 3)))
        np.testing.assert_allclose(depth[covered], 0.3, atol=1e-7)
        assert np.all(depth[~covered] == 0.75)


@pytest.mark.parametrize("z,stored", [(1.5, 1.0), (-0.5, 0.0)])
def test_vs_window_space_position_is_not_depth_clipped(screen, ctx, z, stored):
    """Window-space depth outside 0..1 is not clipped (no clipping at all):
    the rectangle is drawn, its depth stored clamped to the buffer's 0..1."""
    covered, depth = _window_space_rect(ctx, _SMALL_VP, z=z)
    assert np.array_equal(covered, _rect_mask(4, (1, 3)))
    assert np.all(depth[covered] == stored)


def test_vs_window_space_position_rows_and_flipped_viewport(screen, ctx):
    """Window y is the texel row, whatever the viewport: a rectangle over
    rows 0..1 and columns 5..7 of an 8 x 8 target (wider than any earlier
    target: the transform follows the framebuffer) lands there with an
    upright viewport and with a y-flipped one (negative y scale, which
    flips the last vertex stage of ordinary shaders)."""
    for sy in (4.0, -4.0):
        vp = ViewportState(scale=(4.0, sy, 0.5), translate=(4.0, 4.0, 0.5))
        covered, _ = _window_space_rect(ctx, vp, size=8, x=(5, 7), y=(0, 1))
        assert np.array_equal(covered, _rect_mask(8, (5, 7), (0, 1))), sy


def test_vs_window_space_position_ignores_user_clip_planes(screen, ctx):
    """Window-space positions are not clipped by user clip planes either: a
    plane that rejects every clip-space point (0, 0, 0, -1) leaves the
    rectangle whole."""
    from glpipe import ClipState

    def before(c):
        c.set_clip_state(ClipState(ucp=((0.0, 0.0, 0.0, -1.0),) + ((0.0, 0.0, 0.0, 0.0),) * 7))
        c.bind_rasterizer_state(c.create_rasterizer_state(RasterizerState(clip_plane_enable=1)))

    covered, _ = _window_space_rect(ctx, _SMALL_VP, before=before)
    assert np.array_equal(covered, _rect_mask(4, (1, 3)))


def test_vs_window_space_position_unbound_restores_the_viewport(screen, ctx):
    """After a window-space draw, binding an ordinary VS brings the user's
    viewport back: a full-viewport triangle then covers only pixels 0..1
    (the viewport) at depth 0.25 (depth range 0..0.5, z_ndc 0), and
    clipping is back (a triangle at z_ndc 2 draws nothing)."""
    _window_space_rect(ctx, _SMALL_VP)
    col = texture(screen, F32, 4, 4, Bind.RENDER_TARGET)
    zs = texture(screen, Format.Z32_FLOAT, 4, 4, Bind.DEPTH_STENCIL)
    bind_targets(ctx, 4, 4, (col,), zs)
    ctx.set_viewport_states(0, [_SMALL_VP])
    ctx.clear(Clear.COLOR | Clear.DEPTH, None, (0, 0, 0, 0), 0.75, 0)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=POS_VS)))
    far = FULL_TRI.copy()
    far[:, 2] = 2.0
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, far)))
    assert not (read(screen, col, "rgba32f")[..., 0] == 1.0).any()
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=bind_pos_only(ctx, FULL_TRI)))
    covered = read(screen, col, "rgba32f")[..., 0] == 1.0
    assert np.array_equal(covered, _rect_mask(4, (0, 2), (0, 2)))
    np.testing.assert_allclose(read(screen, zs, "depth32f")[covered], 0.25, atol=1e-7)


# ---------------------------------------------------------------------------
# Lines and points: limits and granularity
# ---------------------------------------------------------------------------

WHITE_FS = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n"


def _draw_prim(ctx, verts, mode, size, **rast):
    def before(c):
        c.bind_rasterizer_state(c.create_rasterizer_state(RasterizerState(**rast)))

    return draw(ctx, WHITE_FS, size, size, verts=np.array(verts, np.float32), mode=mode, before=before)


def test_line_widths_at_the_limits_and_granularity(screen, ctx):
    """MIN/MAX_LINE_WIDTH (aliased: GL_ALIASED_LINE_WIDTH_RANGE) and
    MIN/MAX_LINE_WIDTH_AA, LINE_WIDTH_GRANULARITY (smooth lines).  A
    horizontal aliased line of the maximum width covers that many rows of a
    256-row target; a smooth line's total coverage per unit length is its
    width, in steps of the granularity."""
    f = screen.get_paramf
    wmin, wmax = f(CapF.MIN_LINE_WIDTH), f(CapF.MAX_LINE_WIDTH)
    amin, amax, gran = f(CapF.MIN_LINE_WIDTH_AA), f(CapF.MAX_LINE_WIDTH_AA), f(CapF.LINE_WIDTH_GRANULARITY)
    assert (wmin, wmax) == tuple(screen.profile.limit("GL_ALIASED_LINE_WIDTH_RANGE"))
    assert (amin, amax) == tuple(screen.profile.limit("GL_SMOOTH_LINE_WIDTH_RANGE"))
    assert wmin == amin == 1.0 and 0 < gran <= 0.125 and wmax == amax == 255.0
    size = 256
    y = 2 * 128.5 / size - 1
    seg = [[-0.5, y, 0, 1], [0.5, y, 0, 1]]  # window x 64..192 through row 128's centres
    rows = np.flatnonzero(lit(_draw_prim(ctx, seg, Prim.LINES, size, line_width=wmax))[:, size // 2])
    w = int(wmax)  # odd: centred on row 128 (as test_rasterizer.py::test_line_width's rows)
    assert list(rows) == list(range(128 - w // 2, 128 + w // 2 + 1))
    for width in (amin, 2.0, 2.0 + gran, 2.0 + 2 * gran, amax):
        alpha = _draw_prim(ctx, seg, Prim.LINES, size, line_width=width, line_smooth=True)[..., 3]
        assert alpha.sum() / 128 == pytest.approx(width, abs=0.02 * width), width


def test_point_sizes_at_the_limits_and_granularity(screen, ctx):
    """MIN/MAX_POINT_SIZE (GL_POINT_SIZE_RANGE), POINT_SIZE_GRANULARITY: a
    non-smooth point of size s is the s x s square around its centre (GL 4.5
    §14.4): the pixels whose centres lie inside it, counted in numpy, for
    sizes from the minimum in granularity steps and at the maximum."""
    f = screen.get_paramf
    smin, smax, gran = f(CapF.MIN_POINT_SIZE), f(CapF.MAX_POINT_SIZE), f(CapF.POINT_SIZE_GRANULARITY)
    assert (smin, smax) == tuple(screen.profile.limit("GL_POINT_SIZE_RANGE"))
    assert smin == 1.0 and smax == 255.0 and 0 < gran <= 0.125
    size = 256
    cx = cy = 129.28  # off the pixel grid: square edges never meet a centre for these sizes
    ndc = [[2 * cx / size - 1, 2 * cy / size - 1, 0, 1]]
    centres = np.arange(size) + 0.5
    for s in list(np.round(np.arange(smin, smin + 3.0, gran), 4)) + [smax]:
        img = _draw_prim(ctx, ndc, Prim.POINTS, size, point_size=float(s))
        inside = np.count_nonzero(np.abs(centres - cx) < s / 2)
        assert lit(img).sum() == inside * inside, s


# ---------------------------------------------------------------------------
# NPOT textures
# ---------------------------------------------------------------------------


def test_npot_texture_with_mipmaps_and_repeat(screen, ctx):
    """NPOT_TEXTURES: a 5x3 texture with levels 5x3, 2x1, 1x1 (level k holds
    k + 1) sampled with REPEAT and explicit lods reads each level; at lod 0
    with REPEAT, s = 1.1 wraps to texel 0 of the 5-wide row."""
    assert cap(screen, "NPOT_TEXTURES") == 1
    tex = make_texture(screen, Target.TEXTURE_2D, F32, 5, 3, last_level=2)
    for level, (w, h) in enumerate(((5, 3), (2, 1), (1, 1))):
        data = np.zeros((h, w, 4), np.float32)
        data[..., 0] = level + 1
        data[..., 1] = np.arange(w)[None, :]
        upload(screen, tex, level, data)
    from glpipe import SamplerState, TexFilter

    smp = ctx.create_sampler_state(
        SamplerState(
            wrap_s=TexWrap.REPEAT,
            wrap_t=TexWrap.REPEAT,
            min_img_filter=TexFilter.NEAREST,
            mag_img_filter=TexFilter.NEAREST,
            min_mip_filter=TexMipFilter.NEAREST,
            max_lod=10,
        )
    )
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    S = Sampling(ctx, 1, 1)
    for lod in (0, 1, 2):
        coord = (0.5, 0.5, 0, lod)
        assert S.draw(tex_fs(op="TXL"), coord, coord)[0, 0, 0] == lod + 1
    coord = (1.1, 0.5, 0, 0)
    assert list(S.draw(tex_fs(op="TXL"), coord, coord)[0, 0, :2]) == [1.0, 0.0]


# ---------------------------------------------------------------------------
# Fragment coordinates, draw parameters
# ---------------------------------------------------------------------------

COORD_FS = """FRAG
PROPERTY FS_COORD_ORIGIN {origin}
PROPERTY FS_COORD_PIXEL_CENTER {center}
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


@pytest.mark.parametrize("origin", ["UPPER_LEFT", "LOWER_LEFT"])
@pytest.mark.parametrize("center", ["HALF_INTEGER", "INTEGER"])
def test_fragment_coordinate_conventions(screen, ctx, origin, center):
    """FS_COORD_ORIGIN_UPPER_LEFT / _LOWER_LEFT and FS_COORD_PIXEL_CENTER_
    HALF_INTEGER / _INTEGER: POSITION of the pixel in window row r, column c
    of a 6 x 4 target is x = c + h, y = r + h (upper left) or H - r - 1 + h
    (lower left), h = 0.5 for half-integer centres and 0 for integer ones
    (Gallium window y = texel row, docs/api.md "Coordinates and winding")."""
    names = [f"FS_COORD_ORIGIN_{origin}", f"FS_COORD_PIXEL_CENTER_{center}"]
    assert all(cap(screen, n) == 1 for n in names)
    w, h = 6, 4
    img = draw(ctx, COORD_FS.format(origin=origin, center=center), w, h)
    rows, cols = np.mgrid[0:h, 0:w].astype(np.float32)
    half = 0.5 if center == "HALF_INTEGER" else 0.0
    y = rows if origin == "UPPER_LEFT" else h - rows - 1
    np.testing.assert_array_equal(img[..., 0], cols + half)
    np.testing.assert_array_equal(img[..., 1], y + half)


def _params_vs(with_params: bool) -> str:
    """VS: position IN[0]; GENERIC[0] = (BASEVERTEX, BASEINSTANCE, DRAWID,
    IN[1].x + IN[2].x) with IN[1] a per-instance and IN[2] a stride-0
    element; without ``with_params`` the first three are 0 (no SVs)."""
    head = ["VERT", "DCL IN[0]", "DCL IN[1]", "DCL IN[2]"]
    if with_params:
        head += ["DCL SV[0], BASEVERTEX", "DCL SV[1], BASEINSTANCE", "DCL SV[2], DRAWID"]
    head += ["DCL OUT[0], POSITION", "DCL OUT[1], GENERIC[0]", "DCL TEMP[0]", "IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}"]
    body = ["MOV TEMP[0], IMM[0]"]
    if with_params:
        body += ["I2F TEMP[0].x, SV[0].xxxx", "I2F TEMP[0].y, SV[1].xxxx", "I2F TEMP[0].z, SV[2].xxxx"]
    body += ["ADD TEMP[0].w, IN[1].xxxx, IN[2].xxxx", "MOV OUT[1], TEMP[0]", "MOV OUT[0], IN[0]", "END"]
    return "\n".join(head) + "\n" + number(body)


# Per-instance element k holds 10 k; the stride-0 element holds 0.5.
_PER_INSTANCE = np.arange(16, dtype=np.float32) * 10
_STRIDE0 = np.array([0.5, 99.0], np.float32)


def _params_setup(ctx, pos, width, height, user: bool):
    """A zeroed ``width`` x ``height`` RGBA32F target, _params_vs (with the
    SVs only where DRAW_PARAMETERS is 1), FLAT_FS, and the three buffers
    (user memory or resources)."""
    from .util import render_target, vertex_buffer
    from .util_caps import FLAT_FS
    from .util_draw import zero_fill

    color, _ = render_target(ctx, width, height)
    zero_fill(ctx.screen, color)
    with_params = cap(ctx.screen, "DRAW_PARAMETERS") == 1
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=_params_vs(with_params))))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FLAT_FS)))
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0)))
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state(
            [
                VertexElement(src_format=F32),
                VertexElement(src_format=Format.R32_FLOAT, vertex_buffer_index=1, instance_divisor=1),
                VertexElement(src_format=Format.R32_FLOAT, vertex_buffer_index=2),
            ]
        )
    )
    arrays = (np.ascontiguousarray(pos, np.float32), _PER_INSTANCE, _STRIDE0)
    bufs = arrays if user else tuple(vertex_buffer(ctx.screen, a) for a in arrays)
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=bufs[0], stride=16),
            VertexBuffer(buffer=bufs[1], stride=4),
            VertexBuffer(buffer=bufs[2], stride=0),
        ]
    )
    return color, with_params


def _expect(with_params, base_vertex, start_instance, drawid):
    """Gallium's values: BASEVERTEX = index_bias of an indexed draw, 0 for a
    non-indexed one; BASEINSTANCE = start_instance; DRAWID = info.drawid
    (+ i for draw i with increment_draw_id); per-instance element
    start_instance, stride-0 element 0 (as 0 where the SVs are not read)."""
    params = (base_vertex, start_instance, drawid) if with_params else (0, 0, 0)
    return params + (10.0 * start_instance + 0.5,)


# Point vertex v is drawn on pixel v of a 16 x 1 target.
_POINTS = np.array([[(2 * v + 1) / 16 - 1, 0, 0, 1] for v in range(16)], np.float32)


def _point_draws():
    """(DrawInfo kwargs, draws, {pixel: (base vertex, drawid)}) of the point draws."""
    idx = np.array([0, 1], np.uint16)
    D = DrawStartCountBias
    return [
        ({"index_size": 2, "index": idx, "count": 2, "index_bias": 3}, None, {3: (3, 0), 4: (3, 0)}),
        ({"count": 2, "start": 5}, None, {5: (0, 0), 6: (0, 0)}),
        (
            {"index_size": 2, "index": idx, "index_bias": 0, "drawid": 4, "increment_draw_id": True},
            [D(start=0, count=1, index_bias=2), D(start=1, count=1, index_bias=9)],
            {2: (2, 4), 10: (9, 5)},
        ),
        ({"drawid": 6}, [D(start=0, count=1), D(start=8, count=1)], {0: (0, 6), 8: (0, 6)}),
        (
            {"drawid": 1, "increment_draw_id": True},
            [D(start=12, count=2), D(start=15, count=1)],
            {12: (0, 1), 13: (0, 1), 15: (0, 2)},
        ),
    ]


@pytest.mark.parametrize("user", [False, True], ids=["resource", "user"])
@pytest.mark.parametrize("start_instance", [0, 7])
def test_draw_parameters_in_every_draw_kind(screen, ctx, user, start_instance):
    """DRAW_PARAMETERS (hosts with shader_draw_parameters, base_instance,
    vertex_attrib_binding and multi_draw_indirect: 1 native, 0 gl33):
    BASEVERTEX, BASEINSTANCE and DRAWID read Gallium's values (_expect) in
    indexed draws with an index_bias, non-indexed draws, multi-draws with
    and without increment_draw_id, from resource and user vertex buffers,
    with a stride-0 buffer bound.  The same draws on gl33 (no SVs read;
    start_instance emulated by attribute offsets there) fetch the
    per-instance element start_instance and the stride-0 element."""
    assert cap(screen, "DRAW_PARAMETERS") == int(screen.profile.has("shader_draw_parameters"))
    for kwargs, draws, pixels in _point_draws():
        color, with_params = _params_setup(ctx, _POINTS, 16, 1, user)
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start_instance=start_instance, **kwargs), draws)
        want = np.zeros((16, 4), np.float32)
        for px, (bv, drawid) in pixels.items():
            want[px] = _expect(with_params, bv, start_instance, drawid)
        np.testing.assert_array_equal(read_target(screen, color)[0], want, err_msg=str(kwargs))


def _quad_columns(n):
    """4 vertices per column quad q (pixels columns 2q, 2q + 1 of a
    (2n) x 2 target), in loop order (a QUAD and a POLYGON alike)."""
    verts = []
    for q in range(n):
        x0, x1 = 2 * q / n - 1, 2 * (q + 1) / n - 1
        verts += [[x0, -1, 0, 1], [x1, -1, 0, 1], [x1, 1, 0, 1], [x0, 1, 0, 1]]
    return np.array(verts, np.float32)


@pytest.mark.parametrize("mode", [Prim.QUADS, Prim.POLYGON], ids=lambda m: m.name)
def test_draw_parameters_through_index_translation(screen, ctx, mode):
    """QUADS and POLYGON are drawn as triangles by index translation
    (fallback/indices.py): non-indexed (BASEVERTEX 0 even from vertex 4),
    indexed with index_bias 8 (BASEVERTEX 8), and a multi-draw with
    increment_draw_id from drawid 2, all with start_instance 3 and a stride-0
    buffer: each quad's two columns show that draw's values."""
    D = DrawStartCountBias
    idx = np.array([0, 1, 2, 3], np.uint8)
    cases = [
        ({"start": 4, "count": 4}, None, {1: (0, 0)}),
        ({"index_size": 1, "index": idx, "count": 4, "index_bias": 8}, None, {2: (8, 0)}),
        (
            {"index_size": 1, "index": idx, "drawid": 2, "increment_draw_id": True},
            [D(start=0, count=4, index_bias=0), D(start=0, count=4, index_bias=12)],
            {0: (0, 2), 3: (12, 3)},
        ),
    ]
    for kwargs, draws, quads in cases:
        color, with_params = _params_setup(ctx, _quad_columns(4), 8, 2, user=True)
        ctx.draw_vbo(DrawInfo(mode=mode, start_instance=3, **kwargs), draws)
        want = np.zeros((2, 8, 4), np.float32)
        for q, (bv, drawid) in quads.items():
            want[:, 2 * q : 2 * q + 2] = _expect(with_params, bv, 3, drawid)
        np.testing.assert_array_equal(read_target(screen, color), want, err_msg=str(kwargs))


def test_draw_parameters_refused_without_the_host_feature(screen, ctx):
    """Each of BASEVERTEX, BASEINSTANCE, DRAWID alone: where DRAW_PARAMETERS
    is 1 it reads index_bias 3, start_instance 5, drawid 2 of an indexed
    point draw (pixel 3 of 16); where it is 0 (gl33) the VS is refused with
    UnsupportedError naming the system value."""
    from .util import render_target
    from .util_caps import FLAT_FS
    from .util_draw import zero_fill

    supported = cap(screen, "DRAW_PARAMETERS") == 1
    for sv, value in (("BASEVERTEX", 3), ("BASEINSTANCE", 5), ("DRAWID", 2)):
        vs = (
            f"VERT\nDCL IN[0]\nDCL SV[0], {sv}\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
            "  0: MOV OUT[0], IN[0]\n  1: I2F OUT[1], SV[0].xxxx\n  2: END\n"
        )
        color, _ = render_target(ctx, 16, 1)
        zero_fill(screen, color)
        ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0)))
        info = DrawInfo(
            mode=Prim.POINTS,
            index_size=1,
            index=np.array([0], np.uint8),
            count=1,
            index_bias=3,
            start_instance=5,
            drawid=2,
        )
        if not supported:
            with pytest.raises(UnsupportedError, match=sv):
                ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
                ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FLAT_FS)))
                bind_pos_only(ctx, _POINTS)
                ctx.draw_vbo(info)
            continue
        ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FLAT_FS)))
        bind_pos_only(ctx, _POINTS)
        ctx.draw_vbo(info)
        want = np.zeros((16, 4), np.float32)
        want[3] = value
        np.testing.assert_array_equal(read_target(screen, color)[0], want, err_msg=sv)
