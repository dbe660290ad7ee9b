"""draw_vbo: the vertical slice (shaders, vertex input, framebuffer, viewport)."""

from __future__ import annotations

import numpy as np

from glpipe import DrawInfo, Format, Prim, ShaderState, VertexBuffer, VertexElement

from .util import COLOR_FS, PASS_VS, read_rgba32f, render_target, vertex_buffer


def _pipeline(ctx, stride=32):
    vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
    fs = ctx.create_fs_state(ShaderState(tokens=COLOR_FS))
    ve = ctx.create_vertex_elements_state(
        [
            VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        ]
    )
    ctx.bind_vs_state(vs)
    ctx.bind_fs_state(fs)
    ctx.bind_vertex_elements_state(ve)
    return vs, fs, ve


def test_draw_vbo_fullscreen_triangle_constant_color(screen, ctx):
    """A triangle covering the viewport with one colour: every pixel gets it."""
    color, _ = render_target(ctx, 8, 8)
    _pipeline(ctx)
    rgba = [0.25, 0.5, 0.75, 1.0]
    verts = np.array([[-1, -1, 0, 1] + rgba, [3, -1, 0, 1] + rgba, [-1, 3, 0, 1] + rgba], np.float32)
    vb = vertex_buffer(screen, verts)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    img = read_rgba32f(screen, color)
    assert np.allclose(img, np.array(rgba, np.float32))


def test_draw_vbo_window_coordinates_no_flip(screen, ctx):
    """Gallium window pixel (x, y) is texel (x, y): a quad over x < 0 (NDC) and
    y < 0 (NDC) covers texel columns 0..3 and rows 0..3 (row 0 = window y 0)."""
    color, _ = render_target(ctx, 8, 8)
    _pipeline(ctx)
    red = [1.0, 0.0, 0.0, 1.0]
    quad = np.array(
        [
            [-1, -1, 0, 1] + red,
            [0, -1, 0, 1] + red,
            [-1, 0, 0, 1] + red,
            [0, -1, 0, 1] + red,
            [0, 0, 0, 1] + red,
            [-1, 0, 0, 1] + red,
        ],
        np.float32,
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, quad), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=6))
    img = read_rgba32f(screen, color)
    expected = np.zeros((8, 8, 4), np.float32)
    expected[:4, :4] = red
    assert np.array_equal(img, expected)


def test_draw_vbo_after_another_screens_host_was_current(screen, ctx, profile):
    """Two screens, two host GL contexts.  A draw with nothing dirty (draw_vbo's
    fast path) right after the other screen's host was made current still
    lands in this context's framebuffer, and nothing lands in the other's:
    glpipe makes its own host current again first."""
    from conftest import PROFILES, get_screen

    from glpipe import Blend, BlendFactor, BlendState, Clear, RTBlendState

    color, _ = render_target(ctx, 8, 8)
    _pipeline(ctx)
    one = BlendFactor.ONE
    ctx.bind_blend_state(
        ctx.create_blend_state(
            BlendState(
                rt=[
                    RTBlendState(
                        blend_enable=True,
                        rgb_func=Blend.ADD,
                        alpha_func=Blend.ADD,
                        rgb_src_factor=one,
                        rgb_dst_factor=one,
                        alpha_src_factor=one,
                        alpha_dst_factor=one,
                    )
                ]
            )
        )
    )
    rgba = [0.125, 0.25, 0.0625, 0.25]
    verts = np.array([[-1, -1, 0, 1] + rgba, [3, -1, 0, 1] + rgba, [-1, 3, 0, 1] + rgba], np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    info = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)
    ctx.draw_vbo(info)
    ctx.draw_vbo(info)  # nothing dirty: the fast path from here on

    other = get_screen(next(p for p in PROFILES if p != profile))  # makes its host current
    octx = other.context_create()
    try:
        ocolor, _ = render_target(octx, 8, 8)
        octx.clear(Clear.COLOR0, None, (0.5, 0.5, 0.5, 0.5), 1.0, 0)
        ctx.draw_vbo(info)  # fast path again, the other host current
        ctx.draw_vbo(info)
        ours = read_rgba32f(screen, color)  # (raw GL: on the host the draws left current)
        other.host.make_current()
        theirs = read_rgba32f(other, ocolor)
    finally:
        octx.destroy()
        screen.host.make_current()
    assert np.allclose(ours, 4 * np.array(rgba, np.float32)), "every draw adds its colour once"
    assert np.array_equal(theirs, np.full((8, 8, 4), 0.5, np.float32)), "no draw of ours reached the other host"


def test_user_indices_flag_must_match_the_index(ctx, screen):
    """API fuzz finding (stop 22): has_user_indices=True with a Resource as the
    index reached memoryview() in draw_vbo and raised TypeError; DrawInfo now
    refuses the contradiction where it is made."""
    import numpy as np
    import pytest

    from glpipe import Bind, DrawInfo, Format, InvalidArgumentError, Prim, ResourceTemplate, Target

    buf = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=12, bind=Bind.INDEX_BUFFER)
    )
    try:
        with pytest.raises(InvalidArgumentError, match="has_user_indices"):
            DrawInfo(mode=Prim.TRIANGLES, index_size=4, index=buf, has_user_indices=True, count=3)
        # The flag agreeing with the index is fine either way.
        assert DrawInfo(mode=Prim.TRIANGLES, index_size=4, index=buf, count=3).has_user_indices is False
        user = np.arange(3, dtype=np.uint32)
        assert DrawInfo(mode=Prim.TRIANGLES, index_size=4, index=user, has_user_indices=True, count=3).has_user_indices
    finally:
        screen.resource_destroy(buf)


def test_user_indices_with_a_partial_trailing_index(ctx, screen):
    """API fuzz finding (stop 23, seeds 53008447 / 53013216): user index memory
    whose byte size is not a multiple of index_size made the QUADS translation
    raise numpy's ValueError.  Only whole indices are addressable: a draw
    inside them works (the trailing byte is ignored), one past them is an
    InvalidArgumentError, and the context draws normally afterwards."""
    import pytest

    from glpipe import InvalidArgumentError

    color, _ = render_target(ctx, 8, 8)
    _pipeline(ctx)
    red = [1.0, 0.0, 0.0, 1.0]
    # The left half of the viewport (NDC x in -1..0), as one quad.
    quad = np.array([[-1, -1, 0, 1] + red, [0, -1, 0, 1] + red, [0, 1, 0, 1] + red, [-1, 1, 0, 1] + red], np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, quad), stride=32)])
    index = np.arange(4, dtype=np.uint16).tobytes() + b"\x07"  # 9 bytes: 4 whole 16-bit indices
    for mode in (Prim.QUADS, Prim.TRIANGLE_FAN):  # translated and native index paths
        with pytest.raises(InvalidArgumentError, match="outside"):
            ctx.draw_vbo(DrawInfo(mode=mode, index_size=2, index=index, count=5))
    ctx.draw_vbo(DrawInfo(mode=Prim.QUADS, index_size=2, index=index, count=4))
    expected = np.zeros((8, 8, 4), np.float32)
    expected[:, :4] = red
    assert np.array_equal(read_rgba32f(screen, color), expected)
