"""clear, clear_render_target, clear_depth_stencil: pixels read back with
raw GL (glGetTexImage), expectations computed in numpy from the Gallium
definition of each format."""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import (
    Bind,
    Cap,
    Clear,
    Format,
    FramebufferState,
    ScissorState,
    SurfaceTemplate,
    Target,
)
from glpipe.dirty import Dirty

from .util_transfer import raw_read_level, raw_write_level, texture


def _gl(screen):
    return screen.host.gl


def _unorm8(values):
    """GL's float -> UNORM8 conversion (round to nearest) of exactly representable values."""
    return np.rint(np.clip(np.asarray(values, np.float64), 0, 1) * 255).astype(np.uint8)


def _bind(ctx, res, fmt=None, zs=None, layers=(0, 0), level=0, extra_cbufs=()):
    fmt = fmt or res.format
    w = max(1, res.width0 >> level)
    h = max(1, res.height0 >> level)
    cbufs = []
    if res is not None:
        cbufs.append(
            ctx.create_surface(
                res, SurfaceTemplate(format=fmt, level=level, first_layer=layers[0], last_layer=layers[1])
            )
        )
    for other in extra_cbufs:
        cbufs.append(ctx.create_surface(other, SurfaceTemplate(format=other.format)))
    zsurf = ctx.create_surface(zs, SurfaceTemplate(format=zs.format)) if zs is not None else None
    ctx.set_framebuffer_state(FramebufferState(width=w, height=h, cbufs=tuple(cbufs), zsbuf=zsurf))
    return cbufs, zsurf


_RT = Bind.RENDER_TARGET | Bind.SAMPLER_VIEW


# ---------------------------------------------------------------------------
# clear: colour formats
# ---------------------------------------------------------------------------


def test_clear_rgba8(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 4, bind=_RT)
    _bind(ctx, res)
    color = (0.2, 0.4, 0.6, 0.8)
    ctx.clear(Clear.COLOR0, None, color, 0.0, 0)
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(4, 8, 4)
    assert np.array_equal(got, np.broadcast_to(_unorm8(color), (4, 8, 4)))


def test_clear_rgba32f_keeps_full_float_range(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4, bind=_RT)
    _bind(ctx, res)
    color = (0.25, -1.5, 3.0e5, 7.0)
    ctx.clear(Clear.COLOR0, None, color, 0.0, 0)
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_FLOAT, 16).view(np.float32).reshape(4, 4, 4)
    assert np.array_equal(got, np.broadcast_to(np.array(color, np.float32), (4, 4, 4)))


def test_clear_r32ui_uses_integer_values(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R32_UINT, 4, 4, bind=_RT)
    _bind(ctx, res)
    ctx.clear(Clear.COLOR0, None, (0xFFFFFFF0, 5, 6, 7), 0.0, 0)
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, gl.GL_RED_INTEGER, gl.GL_UNSIGNED_INT, 4).view(np.uint32)
    assert np.all(got == 0xFFFFFFF0)  # not representable as a float32: the integer path was taken


def test_clear_rgba32i_uses_integer_values(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_SINT, 4, 2, bind=_RT)
    _bind(ctx, res)
    color = (-7, 2**31 - 1, -(2**31), 16777217)
    ctx.clear(Clear.COLOR0, None, color, 0.0, 0)
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA_INTEGER, gl.GL_INT, 16).view(np.int32).reshape(2, 4, 4)
    assert np.array_equal(got, np.broadcast_to(np.array(color, np.int32), (2, 4, 4)))


def test_clear_integer_format_rejects_fractions(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R32_UINT, 4, 4, bind=_RT)
    _bind(ctx, res)
    with pytest.raises(glpipe.InvalidArgumentError, match="pure integer format"):
        ctx.clear(Clear.COLOR0, None, (0.5, 0, 0, 0), 0.0, 0)


def test_clear_only_the_named_colour_buffers(screen, ctx):
    a = texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4, bind=_RT)
    b = texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4, bind=_RT)
    _bind(ctx, a, extra_cbufs=(b,))
    ctx.clear(Clear.COLOR, None, (1.0, 2.0, 3.0, 4.0), 0.0, 0)
    ctx.clear(Clear.COLOR1, None, (5.0, 6.0, 7.0, 8.0), 0.0, 0)
    gl = _gl(screen)
    ra = raw_read_level(screen, a, 0, gl.GL_RGBA, gl.GL_FLOAT, 16).view(np.float32).reshape(-1, 4)
    rb = raw_read_level(screen, b, 0, gl.GL_RGBA, gl.GL_FLOAT, 16).view(np.float32).reshape(-1, 4)
    assert np.all(ra == (1, 2, 3, 4)) and np.all(rb == (5, 6, 7, 8))


def test_clear_srgb_surface_encodes_linear_colour(screen, ctx):
    """Gallium clears an sRGB surface with a linear colour, stored encoded."""
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_SRGB, 2, 2, bind=_RT)
    _bind(ctx, res)
    linear = np.array([0.1, 0.3, 0.8], np.float64)
    ctx.clear(Clear.COLOR0, None, (*linear, 0.6), 0.0, 0)
    # IEC 61966-2-1 encoding; alpha stays linear.
    enc = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    expected = np.append(np.rint(enc * 255), np.rint(0.6 * 255)).astype(np.int32)
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(-1, 4).astype(np.int32)
    assert np.all(np.abs(got - expected) <= 1)


# ---------------------------------------------------------------------------
# clear: depth and stencil
# ---------------------------------------------------------------------------


def _read_z32f(screen, res, level=0):
    gl = _gl(screen)
    return raw_read_level(screen, res, level, gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, 4).view(np.float32)


def _read_z24s8(screen, res):
    """(depth as a float, stencil) of a Z24_UNORM_S8_UINT texture through GL's 24_8 layout."""
    gl = _gl(screen)
    words = raw_read_level(screen, res, 0, gl.GL_DEPTH_STENCIL, gl.GL_UNSIGNED_INT_24_8, 4).view(np.uint32)
    return (words >> 8) / float((1 << 24) - 1), words & 0xFF


def test_clear_depth_z32f(screen, ctx):
    color = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4, bind=_RT)
    zs = texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 4, 4, bind=Bind.DEPTH_STENCIL)
    _bind(ctx, color, zs=zs)
    ctx.clear(Clear.DEPTH, None, (0, 0, 0, 0), 0.375, 0)
    assert np.all(_read_z32f(screen, zs) == 0.375)
    ctx.clear(Clear.DEPTH, None, (0, 0, 0, 0), 1.5, 0)  # Gallium: depth in [0, 1]
    assert np.all(_read_z32f(screen, zs) == 1.0)


def test_clear_depth_and_stencil_z24s8_separately(screen, ctx):
    color = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4, bind=_RT)
    zs = texture(screen, Target.TEXTURE_2D, Format.Z24_UNORM_S8_UINT, 4, 4, bind=Bind.DEPTH_STENCIL)
    _bind(ctx, color, zs=zs)
    ctx.clear(Clear.DEPTHSTENCIL, None, (0, 0, 0, 0), 0.25, 0x5A)
    z, s = _read_z24s8(screen, zs)
    assert np.allclose(z, 0.25, atol=1.0 / (1 << 24)) and np.all(s == 0x5A)
    ctx.clear(Clear.STENCIL, None, (0, 0, 0, 0), 0.9, 0x1C3)  # low 8 bits; depth untouched
    z, s = _read_z24s8(screen, zs)
    assert np.allclose(z, 0.25, atol=1.0 / (1 << 24)) and np.all(s == 0xC3)
    ctx.clear(Clear.DEPTH, None, (0, 0, 0, 0), 0.75, 0x11)  # stencil untouched
    z, s = _read_z24s8(screen, zs)
    assert np.allclose(z, 0.75, atol=1.0 / (1 << 24)) and np.all(s == 0xC3)
    # Colour bits do not touch depth/stencil, and vice versa.
    gl = _gl(screen)
    before = raw_read_level(screen, color, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4)
    ctx.clear(Clear.DEPTH, None, (1.0, 1.0, 1.0, 1.0), 0.5, 0)
    assert np.array_equal(raw_read_level(screen, color, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), before)


# ---------------------------------------------------------------------------
# clear ignores the pipeline state, except scissor_state
# ---------------------------------------------------------------------------


def test_clear_ignores_masks_scissor_discard_and_framebuffer_srgb(screen, ctx):
    """p_context.h: "The entire buffers are cleared (no scissor, no colormask,
    etc)".  Put every GL switch glClear obeys in the hostile position with raw
    GL; the clear still writes every texel, and marks the state it touched
    dirty so the next draw re-emits the bound CSOs."""
    gl = _gl(screen)
    color = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_SRGB, 4, 4, bind=_RT)
    zs = texture(screen, Target.TEXTURE_2D, Format.Z24_UNORM_S8_UINT, 4, 4, bind=Bind.DEPTH_STENCIL)
    _bind(ctx, color, zs=zs)
    ctx.clear(Clear.COLOR0 | Clear.DEPTHSTENCIL, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    ctx.dirty = 0
    try:
        gl.glColorMask(False, False, False, False)
        gl.glDepthMask(False)
        gl.glStencilMask(0)
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glScissor(0, 0, 1, 1)
        gl.glEnable(gl.GL_RASTERIZER_DISCARD)
        gl.glEnable(gl.GL_FRAMEBUFFER_SRGB)
        ctx.clear(Clear.COLOR0 | Clear.DEPTHSTENCIL, None, (1.0, 1.0, 1.0, 1.0), 0.5, 0x7F)
        # FRAMEBUFFER_SRGB was on and is on again (glpipe encodes sRGB itself).
        assert gl.glIsEnabled(gl.GL_FRAMEBUFFER_SRGB)
    finally:
        gl.glDisable(gl.GL_FRAMEBUFFER_SRGB)
        gl.glDisable(gl.GL_RASTERIZER_DISCARD)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glColorMask(True, True, True, True)
        gl.glDepthMask(True)
        gl.glStencilMask(0xFF)
    got = raw_read_level(screen, color, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4)
    assert np.all(got == 255)  # 1.0 encodes to 1.0; every texel, every channel
    z, s = _read_z24s8(screen, zs)
    assert np.allclose(z, 0.5, atol=1.0 / (1 << 24)) and np.all(s == 0x7F)
    assert ctx.dirty & (Dirty.BLEND | Dirty.DSA | Dirty.RASTERIZER) == Dirty.BLEND | Dirty.DSA | Dirty.RASTERIZER


def test_clear_scissored(screen, ctx):
    """PIPE_CAP_CLEAR_SCISSORED: scissor_state limits the clear; rows are
    window rows (no y-flip): texel (x, y) changes iff minx <= x < maxx and
    miny <= y < maxy."""
    assert screen.get_param(Cap.CLEAR_SCISSORED) == 1
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8, bind=_RT)
    _bind(ctx, res)
    ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    ctx.dirty = 0
    ctx.clear(Clear.COLOR0, ScissorState(minx=2, miny=1, maxx=5, maxy=7), (1.0, 0.2, 0.4, 0.6), 0.0, 0)
    expected = np.zeros((8, 8, 4), np.uint8)
    expected[1:7, 2:5] = _unorm8((1.0, 0.2, 0.4, 0.6))
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(8, 8, 4)
    assert np.array_equal(got, expected)
    assert ctx.dirty & Dirty.SCISSOR
    # The next unscissored clear covers everything again.
    ctx.clear(Clear.COLOR0, None, (0.2, 0.2, 0.2, 0.2), 0.0, 0)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(8, 8, 4)
    assert np.all(got == 51)


# ---------------------------------------------------------------------------
# layered surfaces: every layer
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("target,array_size", [(Target.TEXTURE_2D_ARRAY, 4), (Target.TEXTURE_CUBE, 6)])
def test_clear_layered_surface_clears_every_layer(screen, ctx, target, array_size):
    res = texture(screen, target, Format.R8G8B8A8_UNORM, 4, 4, array_size=array_size, bind=_RT)
    gl = _gl(screen)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, np.zeros((array_size, 4, 16), np.uint8))
    _bind(ctx, res, layers=(0, array_size - 1))
    ctx.clear(Clear.COLOR0, None, (0.2, 0.4, 0.6, 0.8), 0.0, 0)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(array_size, 4, 4, 4)
    assert np.array_equal(got, np.broadcast_to(_unorm8((0.2, 0.4, 0.6, 0.8)), got.shape))


def test_clear_single_layer_surface_clears_that_layer_only(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 4, 4, array_size=3, bind=_RT)
    gl = _gl(screen)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, np.zeros((3, 4, 16), np.uint8))
    _bind(ctx, res, layers=(1, 1))
    ctx.clear(Clear.COLOR0, None, (1.0, 1.0, 1.0, 1.0), 0.0, 0)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4)
    assert np.all(got[1] == 255) and np.all(got[0] == 0) and np.all(got[2] == 0)


# ---------------------------------------------------------------------------
# clear_render_target / clear_depth_stencil
# ---------------------------------------------------------------------------


def test_clear_render_target_rect_on_mip_level_and_layer(screen, ctx):
    """A rectangle of layer 2 at level 1 of a 2D array; the surface is not bound."""
    res = texture(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 16, 8, array_size=4, last_level=2, bind=_RT)
    gl = _gl(screen)
    base = np.random.default_rng(1).integers(0, 256, (4, 4, 32), dtype=np.uint8)  # level 1 is 8x4
    raw_write_level(screen, res, 1, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, base)
    level0 = np.zeros((4, 8, 64), np.uint8)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, level0)
    surf = ctx.create_surface(res, SurfaceTemplate(format=res.format, level=1, first_layer=2, last_layer=2))
    ctx.clear_render_target(surf, (0.2, 0.4, 0.6, 0.8), 1, 2, 3, 2, False)
    expected = base.copy()
    expected[2, 2:4, 4:16] = np.tile(_unorm8((0.2, 0.4, 0.6, 0.8)), 3)
    assert np.array_equal(raw_read_level(screen, res, 1, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), expected)
    assert np.array_equal(raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), level0)
    # The context's framebuffer must be re-bound before the next draw.
    assert ctx.dirty & Dirty.FRAMEBUFFER


def test_clear_render_target_layer_range_and_clipping(screen, ctx):
    """Layers 1..2 of 4 (a range, not all); a rectangle reaching past the
    surface is clipped to it."""
    res = texture(screen, Target.TEXTURE_2D_ARRAY, Format.R32G32B32A32_FLOAT, 4, 4, array_size=4, bind=_RT)
    gl = _gl(screen)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_FLOAT, np.zeros((4, 4, 64), np.uint8))
    surf = ctx.create_surface(res, SurfaceTemplate(format=res.format, first_layer=1, last_layer=2))
    ctx.clear_render_target(surf, (1.5, 2.5, 3.5, 4.5), 2, 1, 100, 100, True)
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_FLOAT, 16).view(np.float32).reshape(4, 4, 4, 4)
    expected = np.zeros((4, 4, 4, 4), np.float32)
    expected[1:3, 1:4, 2:4] = (1.5, 2.5, 3.5, 4.5)
    assert np.array_equal(got, expected)


def test_clear_render_target_cube_face_and_3d_slice(screen, ctx):
    gl = _gl(screen)
    cube = texture(screen, Target.TEXTURE_CUBE, Format.R8G8B8A8_UNORM, 4, 4, array_size=6, bind=_RT)
    raw_write_level(screen, cube, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, np.zeros((6, 4, 16), np.uint8))
    surf = ctx.create_surface(cube, SurfaceTemplate(format=cube.format, first_layer=4, last_layer=4))
    ctx.clear_render_target(surf, (1.0, 1.0, 1.0, 1.0), 0, 0, 4, 4, False)
    got = raw_read_level(screen, cube, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4)
    assert np.all(got[4] == 255) and np.all(np.delete(got, 4, axis=0) == 0)

    vol = texture(screen, Target.TEXTURE_3D, Format.R8G8B8A8_UNORM, 4, 4, 4, bind=_RT)
    raw_write_level(screen, vol, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, np.zeros((4, 4, 16), np.uint8))
    surf = ctx.create_surface(vol, SurfaceTemplate(format=vol.format, first_layer=3, last_layer=3))
    ctx.clear_render_target(surf, (1.0, 1.0, 1.0, 1.0), 1, 1, 2, 2, False)
    got = raw_read_level(screen, vol, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4)
    expected = np.zeros((4, 4, 16), np.uint8)
    expected[3, 1:3, 4:12] = 255
    assert np.array_equal(got, expected)


def test_clear_render_target_on_bound_surface_keeps_framebuffer_usable(screen, ctx):
    """After clearing a surface through the private FBO, ctx.clear hits the
    bound framebuffer again."""
    a = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4, bind=_RT)
    b = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4, bind=_RT)
    _bind(ctx, a)
    sb = ctx.create_surface(b, SurfaceTemplate(format=b.format))
    ctx.clear_render_target(sb, (1.0, 0.0, 0.0, 1.0), 0, 0, 4, 4, False)
    ctx.clear(Clear.COLOR0, None, (0.0, 1.0, 0.0, 1.0), 0.0, 0)
    gl = _gl(screen)
    ga = raw_read_level(screen, a, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(-1, 4)
    gb = raw_read_level(screen, b, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4).reshape(-1, 4)
    assert np.all(ga == (0, 255, 0, 255)) and np.all(gb == (255, 0, 0, 255))


def test_clear_depth_stencil_rect(screen, ctx):
    zs = texture(screen, Target.TEXTURE_2D, Format.Z24_UNORM_S8_UINT, 8, 4, bind=Bind.DEPTH_STENCIL)
    surf = ctx.create_surface(zs, SurfaceTemplate(format=zs.format))
    ctx.clear_depth_stencil(surf, Clear.DEPTHSTENCIL, 0.0, 0, 0, 0, 8, 4, False)
    ctx.clear_depth_stencil(surf, Clear.DEPTHSTENCIL, 0.5, 0x42, 2, 1, 4, 2, False)
    ctx.clear_depth_stencil(surf, Clear.STENCIL, 1.0, 0x07, 0, 0, 3, 4, False)  # stencil only
    z, s = _read_z24s8(screen, zs)
    z, s = z.reshape(4, 8), s.reshape(4, 8)
    ez = np.zeros((4, 8))
    ez[1:3, 2:6] = 0.5
    es = np.zeros((4, 8), np.uint32)
    es[1:3, 2:6] = 0x42
    es[:, 0:3] = 0x07
    assert np.allclose(z, ez, atol=1.0 / (1 << 24)) and np.array_equal(s, es)


def test_clear_depth_stencil_on_array_layer(screen, ctx):
    zs = texture(screen, Target.TEXTURE_2D_ARRAY, Format.Z32_FLOAT, 4, 4, array_size=3, bind=Bind.DEPTH_STENCIL)
    whole = ctx.create_surface(zs, SurfaceTemplate(format=zs.format, first_layer=0, last_layer=2))
    ctx.clear_depth_stencil(whole, Clear.DEPTH, 1.0, 0, 0, 0, 4, 4, False)
    one = ctx.create_surface(zs, SurfaceTemplate(format=zs.format, first_layer=1, last_layer=1))
    ctx.clear_depth_stencil(one, Clear.DEPTH | Clear.STENCIL, 0.125, 3, 0, 2, 4, 2, False)  # no stencil: ignored
    got = _read_z32f(screen, zs).reshape(3, 4, 4)
    expected = np.ones((3, 4, 4), np.float32)
    expected[1, 2:4, :] = 0.125
    assert np.array_equal(got, expected)


# ---------------------------------------------------------------------------
# emulated formats: the value lands in the host channel the emulation reads
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fmt,gl_fmt,channels,expected",
    [
        # A8 lives in R8 (sampled as 000R): alpha goes to red.
        (Format.A8_UNORM, "GL_RED", 1, (0.8,)),
        # L8 lives in R8 (RRR1): luminance is the red component of the colour.
        (Format.L8_UNORM, "GL_RED", 1, (0.2,)),
        # L8A8 lives in RG8 (RRRG): (L, A).
        (Format.L8A8_UNORM, "GL_RG", 2, (0.2, 0.8)),
        # I8 lives in R8 (RRRR): intensity is red.
        (Format.I8_UNORM, "GL_RED", 1, (0.2,)),
        # B8G8R8X8 lives in RGBA8 (RGB1): X reads as 1.
        (Format.B8G8R8X8_UNORM, "GL_RGBA", 4, (0.2, 0.4, 0.6, 1.0)),
    ],
)
def test_clear_render_target_emulated_formats(screen, ctx, fmt, gl_fmt, channels, expected):
    res = texture(screen, Target.TEXTURE_2D, fmt, 4, 4)
    surf = ctx.create_surface(res, SurfaceTemplate(format=fmt))
    ctx.clear_render_target(surf, (0.2, 0.4, 0.6, 0.8), 0, 0, 4, 4, False)
    gl = _gl(screen)
    got = raw_read_level(screen, res, 0, getattr(gl, gl_fmt), gl.GL_UNSIGNED_BYTE, channels).reshape(-1, channels)
    assert np.all(got == _unorm8(expected))


# ---------------------------------------------------------------------------
# errors and lifetime
# ---------------------------------------------------------------------------


def test_clear_argument_errors(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4, bind=_RT)
    zs = texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 4, 4, bind=Bind.DEPTH_STENCIL)
    (cbuf,), zsurf = _bind(ctx, res, zs=zs)
    with pytest.raises(glpipe.InvalidArgumentError, match="unknown PIPE_CLEAR bits"):
        ctx.clear(1 << 12, None, (0, 0, 0, 0), 0.0, 0)
    with pytest.raises(glpipe.InvalidArgumentError, match="ScissorState or None"):
        ctx.clear(Clear.COLOR0, (0, 0, 1, 1), (0, 0, 0, 0), 0.0, 0)
    with pytest.raises(glpipe.InvalidArgumentError, match="max < min"):
        ctx.clear(Clear.COLOR0, ScissorState(minx=3, maxx=1, maxy=4), (0, 0, 0, 0), 0.0, 0)
    with pytest.raises(glpipe.InvalidArgumentError, match="4 colour values"):
        ctx.clear(Clear.COLOR0, None, (0, 0, 0), 0.0, 0)
    with pytest.raises(glpipe.InvalidArgumentError, match="depth"):
        ctx.clear(Clear.DEPTH, None, (0, 0, 0, 0), "far", 0)
    with pytest.raises(glpipe.InvalidArgumentError, match="depth/stencil format"):
        ctx.clear_render_target(zsurf, (0, 0, 0, 0), 0, 0, 1, 1, False)
    with pytest.raises(glpipe.InvalidArgumentError, match="not a depth/stencil format"):
        ctx.clear_depth_stencil(cbuf, Clear.DEPTH, 0.0, 0, 0, 0, 1, 1, False)
    with pytest.raises(glpipe.InvalidArgumentError, match="dstx = -1 is out of range"):
        ctx.clear_render_target(cbuf, (0, 0, 0, 0), -1, 0, 1, 1, False)
    with pytest.raises(glpipe.InvalidArgumentError, match="only hold DEPTH and STENCIL"):
        ctx.clear_depth_stencil(zsurf, Clear.COLOR0, 0.0, 0, 0, 0, 1, 1, False)
    other = screen.context_create()
    try:
        with pytest.raises(glpipe.InvalidArgumentError, match="another context"):
            other.clear_render_target(cbuf, (0, 0, 0, 0), 0, 0, 1, 1, False)
    finally:
        other.destroy()


def test_clear_with_nothing_bound_is_a_no_op(screen, ctx):
    ctx.clear(Clear.COLOR | Clear.DEPTHSTENCIL, None, (0, 0, 0, 0), 0.0, 0)


def test_destroy_frees_the_private_framebuffers(screen):
    c = screen.context_create()
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 2, 2, bind=_RT)
    zs = texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 2, 2, bind=Bind.DEPTH_STENCIL)
    c.clear_render_target(c.create_surface(res, SurfaceTemplate(format=res.format)), (0, 0, 0, 0), 0, 0, 2, 2, False)
    c.clear_depth_stencil(
        c.create_surface(zs, SurfaceTemplate(format=zs.format)), Clear.DEPTH, 0.0, 0, 0, 0, 2, 2, False
    )
    names = [n for n in c.clear_part._clear_fbos.values() if n]
    gl = _gl(screen)
    assert len(names) == 2 and all(gl.glIsFramebuffer(n) for n in names)
    c.destroy()
    assert not any(gl.glIsFramebuffer(n) for n in names)
    with pytest.raises(glpipe.ObjectDestroyedError):
        c.clear(Clear.COLOR0, None, (0, 0, 0, 0), 0.0, 0)


def test_clear_targets_its_own_framebuffer_after_another_context_bound_one(screen, ctx):
    """Contexts of one screen share the host GL context: a clear must land in
    this context's framebuffer even if another context bound its own since."""
    a = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 2, 2, bind=_RT)
    b = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 2, 2, bind=_RT)
    _bind(ctx, a)
    ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    other = screen.context_create()
    try:
        _bind(other, b)
        other.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
        ctx.clear(Clear.COLOR0, None, (1.0, 1.0, 1.0, 1.0), 0.0, 0)
    finally:
        other.destroy()
    gl = _gl(screen)
    assert np.all(raw_read_level(screen, a, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4) == 255)
    assert np.all(raw_read_level(screen, b, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4) == 0)
