"""pipe_context::blit: every field of pipe_blit_info against numpy computed
from Gallium's definition (context.rst "Blitting", u_blitter's sampling:
pixel centres mapped into the source box, CLAMP_TO_EDGE), on both profiles
-- each request takes whichever rung of the ladder is exact (docs/blits.md)."""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import BlitInfo, Box, Format, Mask, ScissorState, SurfaceTemplate, Swizzle, Target, TexFilter
from glpipe.errors import InvalidArgumentError

from .util_blits import fill, linear_weights, make, nearest_index, read, side


def _rgba8(ctx, res, level=0):
    return read(ctx, res, level).reshape(res.level_extent(level)[2], res.level_extent(level)[1], -1, 4)


def _srgb_to_linear(c):
    c = c / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb8(v):
    v = np.clip(v, 0, 1)
    return np.rint(255 * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055))


def test_same_size_copy(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    s = fill(ctx, src, seed=1)
    before = fill(ctx, dst, seed=2)
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=Box(x=4, y=2, z=0, width=3, height=5, depth=1)),
            src=side(src, box=Box(x=1, y=1, z=0, width=3, height=5, depth=1)),
            mask=Mask.RGBA,
        )
    )
    want = before.copy()
    want[0, 2:7, 16:28] = s[0, 1:6, 4:16]
    assert np.array_equal(read(ctx, dst), want)


@pytest.mark.parametrize(
    "sbox,dbox",
    [
        ((0, 0, 8, 8), (0, 0, 16, 16)),  # magnify 2x
        ((0, 0, 16, 16), (0, 0, 5, 7)),  # minify by odd ratios
        ((8, 0, -8, 8), (0, 0, 8, 8)),  # mirrored in x
        ((0, 8, 8, -8), (2, 3, 8, 8)),  # mirrored in y
        ((-4, -2, 24, 20), (0, 0, 16, 16)),  # source past the level: clamps to the edge
        ((3, 5, 7, 3), (1, 1, 13, 11)),
    ],
)
def test_nearest_scaling(ctx, screen, sbox, dbox):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    s = fill(ctx, src, seed=3).reshape(1, 16, 16, 4)
    before = fill(ctx, dst, seed=4).reshape(1, 16, 16, 4)
    sx, sy, sw, sh = sbox
    dx, dy, dw, dh = dbox
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=Box(x=dx, y=dy, z=0, width=dw, height=dh, depth=1)),
            src=side(src, box=Box(x=sx, y=sy, z=0, width=sw, height=sh, depth=1)),
            mask=Mask.RGBA,
            filter=TexFilter.NEAREST,
        )
    )
    ix = nearest_index(dw, sx, sw, 16)
    iy = nearest_index(dh, sy, sh, 16)
    want = before.copy()
    want[0, dy : dy + dh, dx : dx + dw] = s[0][iy[:, None], ix[None, :]]
    assert np.array_equal(_rgba8(ctx, dst), want)


@pytest.mark.parametrize("sbox,dbox", [((0, 0, 8, 8), (0, 0, 16, 16)), ((2, 1, 12, 10), (0, 0, 7, 5))])
def test_linear_scaling(ctx, screen, sbox, dbox):
    src = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 16, 16)
    dst = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 16, 16)
    vals = np.random.default_rng(5).random((1, 16, 16, 4), np.float32)
    fill(ctx, src, data=vals.view(np.uint8).reshape(1, 16, -1))
    fill(ctx, dst, data=np.zeros((1, 16, 256), np.uint8))
    sx, sy, sw, sh = sbox
    dx, dy, dw, dh = dbox
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=Box(x=dx, y=dy, z=0, width=dw, height=dh, depth=1)),
            src=side(src, box=Box(x=sx, y=sy, z=0, width=sw, height=sh, depth=1)),
            mask=Mask.RGBA,
            filter=TexFilter.LINEAR,
        )
    )
    x0, x1, fx = linear_weights(dw, sx, sw, 16)
    y0, y1, fy = linear_weights(dh, sy, sh, 16)
    v = vals[0].astype(np.float64)
    fx, fy = fx[None, :, None], fy[:, None, None]
    top = v[y0[:, None], x0[None, :]] * (1 - fx) + v[y0[:, None], x1[None, :]] * fx
    bot = v[y1[:, None], x0[None, :]] * (1 - fx) + v[y1[:, None], x1[None, :]] * fx
    want = top * (1 - fy) + bot * fy
    got = read(ctx, dst).view(np.float32).reshape(16, 16, 4)[dy : dy + dh, dx : dx + dw]
    assert np.allclose(got, want, atol=2e-3)


def test_format_conversion_unorm_float_snorm(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    f32 = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4)
    s = fill(ctx, src, seed=6).reshape(4, 4, 4)
    ctx.blit(BlitInfo(dst=side(f32), src=side(src), mask=Mask.RGBA))
    got = read(ctx, f32).view(np.float32).reshape(4, 4, 4)
    assert np.allclose(got, s / 255.0, atol=1e-6)
    # float -> unorm clamps; float -> snorm clamps to [-1, 1]
    vals = np.linspace(-2, 2, 64, dtype=np.float32).reshape(1, 4, 16)
    fill(ctx, f32, data=vals.view(np.uint8))
    back = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    ctx.blit(BlitInfo(dst=side(back), src=side(f32), mask=Mask.RGBA))
    assert np.array_equal(read(ctx, back).reshape(-1), np.rint(np.clip(vals.reshape(-1), 0, 1) * 255))
    sn = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_SNORM, 4, 4)
    ctx.blit(BlitInfo(dst=side(sn), src=side(f32), mask=Mask.RGBA))
    got = read(ctx, sn).view(np.int8).reshape(-1).astype(int)
    assert np.abs(got - np.rint(np.clip(vals.reshape(-1), -1, 1) * 127)).max() <= 1


def test_srgb_is_decoded_and_encoded_by_the_formats(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_SRGB, 4, 4)
    lin = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4)
    s = fill(ctx, src, seed=7).reshape(4, 4, 4).astype(np.float64)
    ctx.blit(BlitInfo(dst=side(lin), src=side(src), mask=Mask.RGBA))
    got = read(ctx, lin).view(np.float32).reshape(4, 4, 4)
    want = np.concatenate([_srgb_to_linear(s[..., :3]), s[..., 3:] / 255.0], axis=-1)
    assert np.allclose(got, want, atol=1e-4)
    # linear -> sRGB encodes
    out = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_SRGB, 4, 4)
    ctx.blit(BlitInfo(dst=side(out), src=side(lin), mask=Mask.RGBA))
    got = read(ctx, out).reshape(4, 4, 4).astype(int)
    assert np.abs(got[..., :3] - _linear_to_srgb8(want[..., :3])).max() <= 1
    assert np.abs(got[..., 3] - s[..., 3]).max() <= 0
    # an sRGB view of a linear resource decodes the same bytes
    plain = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    fill(ctx, plain, data=s.astype(np.uint8).reshape(1, 4, 16))
    ctx.blit(BlitInfo(dst=side(lin), src=side(plain, fmt=Format.R8G8B8A8_SRGB), mask=Mask.RGBA))
    assert np.allclose(read(ctx, lin).view(np.float32).reshape(4, 4, 4), want, atol=1e-4)


def test_integer_to_integer(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R16G16B16A16_UINT, 4, 4)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UINT, 4, 4)
    vals = np.random.default_rng(8).integers(0, 400, (1, 4, 16), dtype=np.uint16)
    fill(ctx, src, data=vals.view(np.uint8))
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, filter=TexFilter.LINEAR))
    assert np.array_equal(read(ctx, dst).reshape(-1), np.minimum(vals.reshape(-1), 255))
    with pytest.raises(InvalidArgumentError, match="integer"):
        ctx.blit(BlitInfo(dst=side(make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)), src=side(src)))


def test_mask_swizzle_scissor_and_alpha_blend(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    s = fill(ctx, src, seed=9).reshape(8, 8, 4)
    before = fill(ctx, dst, seed=10).reshape(8, 8, 4)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.R | Mask.B))
    want = before.copy()
    want[..., 0], want[..., 2] = s[..., 0], s[..., 2]
    assert np.array_equal(read(ctx, dst).reshape(8, 8, 4), want)
    # swizzle: (A, 0, X, 1)
    ctx.blit(
        BlitInfo(
            dst=side(dst),
            src=side(src),
            mask=Mask.RGBA,
            swizzle_enable=True,
            swizzle=(Swizzle.W, Swizzle.ZERO, Swizzle.X, Swizzle.ONE),
        )
    )
    want = np.stack([s[..., 3], np.zeros_like(s[..., 0]), s[..., 0], np.full_like(s[..., 0], 255)], axis=-1)
    assert np.array_equal(read(ctx, dst).reshape(8, 8, 4), want)
    # scissor: only [2, 5) x [1, 7) of the destination is written
    fill(ctx, dst, data=before.reshape(1, 8, 32))
    ctx.blit(
        BlitInfo(
            dst=side(dst),
            src=side(src),
            mask=Mask.RGBA,
            scissor_enable=True,
            scissor=ScissorState(minx=2, miny=1, maxx=5, maxy=7),
        )
    )
    want = before.copy()
    want[1:7, 2:5] = s[1:7, 2:5]
    assert np.array_equal(read(ctx, dst).reshape(8, 8, 4), want)
    # alpha_blend: src * a + dst * (1 - a), in unorm
    fill(ctx, dst, data=before.reshape(1, 8, 32))
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, alpha_blend=True))
    a = s[..., 3:4] / 255.0
    want = np.rint((s / 255.0 * a + before / 255.0 * (1 - a)) * 255)
    assert np.abs(read(ctx, dst).reshape(8, 8, 4).astype(int) - want).max() <= 1


def test_window_rectangles(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    s = fill(ctx, src, seed=11).reshape(8, 8, 4)
    before = fill(ctx, dst, seed=12).reshape(8, 8, 4)
    rect = ScissorState(minx=1, miny=2, maxx=4, maxy=6)
    ctx.blit(
        BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, window_rectangle_include=True, window_rectangles=(rect,))
    )
    want = before.copy()
    want[2:6, 1:4] = s[2:6, 1:4]
    assert np.array_equal(read(ctx, dst).reshape(8, 8, 4), want)
    fill(ctx, dst, data=before.reshape(1, 8, 32))
    ctx.blit(
        BlitInfo(
            dst=side(dst), src=side(src), mask=Mask.RGBA, window_rectangle_include=False, window_rectangles=(rect,)
        )
    )
    want = s.copy()
    want[2:6, 1:4] = before[2:6, 1:4]
    assert np.array_equal(read(ctx, dst).reshape(8, 8, 4), want)


@pytest.mark.parametrize("fmt", [Format.Z24_UNORM_S8_UINT, Format.Z32_FLOAT])
def test_depth_and_stencil_masks(ctx, screen, fmt):
    src = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    if fmt == Format.Z32_FLOAT:
        s = fill(ctx, src, data=np.random.default_rng(13).random((1, 8, 8), np.float32).view(np.uint8))
        before = fill(ctx, dst, data=np.zeros((1, 8, 32), np.uint8))
    else:
        s = fill(ctx, src, seed=13)
        before = fill(ctx, dst, seed=14)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.Z))
    got = read(ctx, dst).reshape(8, 8, 4)
    s4, b4 = s.reshape(8, 8, 4), before.reshape(8, 8, 4)
    if fmt == Format.Z24_UNORM_S8_UINT:  # depth in the low 24 bits, stencil in the high 8
        assert np.array_equal(got[..., :3], s4[..., :3]) and np.array_equal(got[..., 3], b4[..., 3])
        fill(ctx, dst, data=before)
        ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.S))
        got = read(ctx, dst).reshape(8, 8, 4)
        assert np.array_equal(got[..., :3], b4[..., :3]) and np.array_equal(got[..., 3], s4[..., 3])
    else:
        assert np.array_equal(got, s4)
    # scaled depth: NEAREST whatever the filter
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=Box(x=0, y=0, z=0, width=8, height=8, depth=1)),
            src=side(src, box=Box(x=0, y=0, z=0, width=4, height=4, depth=1)),
            mask=Mask.ZS,
            filter=TexFilter.LINEAR,
        )
    )
    idx = nearest_index(8, 0, 4, 8)
    assert np.array_equal(read(ctx, dst).reshape(8, 8, 4), s4[idx[:, None], idx[None, :]])


def test_3d_and_array_slices(ctx, screen):
    src = make(screen, Target.TEXTURE_3D, Format.R8G8B8A8_UNORM, 4, 4, 4)
    dst = make(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 8, 8, 1, 4)
    s = fill(ctx, src, seed=15).reshape(4, 4, 4, 4)
    before = fill(ctx, dst, seed=16).reshape(4, 8, 8, 4)
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=Box(x=0, y=0, z=1, width=8, height=8, depth=2)),
            src=side(src, box=Box(x=0, y=0, z=0, width=4, height=4, depth=4)),
            mask=Mask.RGBA,
        )
    )
    iz = nearest_index(2, 0, 4, 4)
    ixy = nearest_index(8, 0, 4, 4)
    want = before.copy()
    want[1:3] = s[iz[:, None, None], ixy[None, :, None], ixy[None, None, :]]
    assert np.array_equal(read(ctx, dst).reshape(4, 8, 8, 4), want)


def _msaa(screen, fmt, samples=4):
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, samples, samples, 0x2):
        pytest.skip(f"no {samples}x MSAA {fmt.name}")
    return make(screen, Target.TEXTURE_2D, fmt, 8, 8, samples=samples)


def test_msaa_resolve_of_a_cleared_surface(ctx, screen):
    src = _msaa(screen, Format.R8G8B8A8_UNORM)
    surf = ctx.create_surface(src, SurfaceTemplate(format=src.format))
    ctx.clear_render_target(surf, (0.25, 0.5, 1.0, 1.0), 0, 0, 8, 8, False)
    ctx.clear_render_target(surf, (1.0, 0.0, 0.0, 1.0), 0, 0, 3, 8, False)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    px = read(ctx, dst).reshape(8, 8, 4)
    assert (px[:, :3] == (255, 0, 0, 255)).all()
    assert (np.abs(px[:, 3:].astype(int) - (64, 128, 255, 255)) <= 1).all()


def test_bad_blits_are_refused_and_change_nothing(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    fill(ctx, src, seed=17)
    before = fill(ctx, dst, seed=18)
    bad = [
        BlitInfo(dst=side(dst, box=Box(x=4, y=0, z=0, width=8, height=8, depth=1)), src=side(src), mask=Mask.RGBA),
        BlitInfo(dst=side(dst, box=Box(x=0, y=0, z=0, width=-8, height=8, depth=1)), src=side(src), mask=Mask.RGBA),
        BlitInfo(
            dst=glpipe.BlitSide(resource=dst, level=1, box=Box(width=1, height=1, depth=1), format=dst.format),
            src=side(src),
            mask=Mask.RGBA,
        ),
        BlitInfo(dst=side(dst), src=side(src, fmt=Format.R16_UNORM), mask=Mask.RGBA),
        BlitInfo(dst=side(dst), src=side(src, box=Box(x=0, y=0, z=1, width=8, height=8, depth=1)), mask=Mask.RGBA),
        BlitInfo(dst=side(dst), src=side(dst, box=Box(x=1, y=1, z=0, width=8, height=7, depth=1)), mask=Mask.RGBA),
        "not a BlitInfo",
    ]
    for info in bad:
        with pytest.raises(InvalidArgumentError):
            ctx.blit(info)
    with pytest.raises(InvalidArgumentError):
        ctx.blit(BlitInfo(dst=glpipe.BlitSide(resource=None), src=side(src)))
    assert np.array_equal(read(ctx, dst), before)


def test_the_users_bound_state_is_untouched(ctx, screen):
    """Blits between two draws (every rung: a copy, a scaled LINEAR
    scissored blit, a masked one): the second draw renders exactly as the
    first, the bound framebuffer object is the user's."""
    from glpipe import DrawInfo, Prim, VertexBuffer

    from .util import read_rgba32f
    from .util_draw import setup, vertices

    color = setup(ctx, size=8)
    tri = vertices([(0, 0), (8, 0), (0, 8)], (0.0, 1.0, 0.5, 1.0), size=8)
    ctx.set_vertex_buffers([VertexBuffer(buffer=tri, stride=32)])
    fb_before = ctx.framebuffer_part.framebuffer
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    first = read_rgba32f(screen, color).copy()
    assert first[0, 0, 1] == 1.0 and first[7, 7, 1] == 0.0  # the triangle is there
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    fill(ctx, src, seed=19)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    small = Box(x=0, y=0, z=0, width=4, height=4, depth=1)
    scissor = ScissorState(minx=1, miny=1, maxx=3, maxy=3)
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=small),
            src=side(src),
            mask=Mask.RGBA,
            filter=TexFilter.LINEAR,
            scissor_enable=True,
            scissor=scissor,
        )
    )
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.R | Mask.G))
    assert ctx.framebuffer_part.framebuffer is fb_before
    surf = fb_before.cbufs[0]
    ctx.clear_render_target(surf, (0.0, 0.0, 0.0, 0.0), 0, 0, 8, 8, False)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    assert np.array_equal(read_rgba32f(screen, color), first)


@pytest.mark.parametrize(
    "case,native,gl33",
    [
        ("copy", "copy_image", "blit_framebuffer"),
        ("magnify", "blit_framebuffer", "blit_framebuffer"),
        ("edge_centres", "numpy", "numpy"),
        ("swizzle", "numpy", "numpy"),
    ],
)
def test_the_ladder_takes_the_cheapest_exact_rung(ctx, screen, profile, case, native, gl33):
    """The same request, the rung each profile takes (docs/blits.md), and the
    same pixels: the expected values above hold whichever rung ran."""
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    s = fill(ctx, src, seed=20).reshape(16, 16, 4)
    half = Box(x=0, y=0, z=0, width=8, height=8, depth=1)
    fields = {
        "copy": dict(dst=side(dst), src=side(src)),
        "magnify": dict(dst=side(dst), src=side(src, box=half)),
        "edge_centres": dict(dst=side(dst, box=Box(x=0, y=0, z=0, width=5, height=5, depth=1)), src=side(src)),
        "swizzle": dict(dst=side(dst), src=side(src), swizzle_enable=True, swizzle=(2, 1, 0, 3)),
    }[case]
    ctx.blit(BlitInfo(mask=Mask.RGBA, **fields))
    assert ctx.blit_part.last_rung == (native if profile == "native" else gl33)
    got = read(ctx, dst).reshape(16, 16, 4)
    if case == "copy":
        assert np.array_equal(got, s)
    elif case == "magnify":
        idx = nearest_index(16, 0, 8, 16)
        assert np.array_equal(got, s[idx[:, None], idx[None, :]])
    elif case == "edge_centres":
        idx = nearest_index(5, 0, 16, 16)
        assert np.array_equal(got[:5, :5], s[idx[:, None], idx[None, :]])
    else:
        assert np.array_equal(got, s[..., [2, 1, 0, 3]])


# -- multisampled blits: GL's resolve, the shader blitter -------------------------------------------

_A = np.array([1.0, 0.0, 0.25, 1.0], np.float32)
_B = np.array([0.0, 1.0, 0.75, 0.5], np.float32)


def _two_colour_msaa(ctx, screen, size=4):
    """A 4x RGBA32F texture: sample 0 holds _A, samples 1-3 hold _B (drawn
    with sample masks 0x1 and 0xE), bound state restored to the user's."""
    from glpipe import DrawInfo, FramebufferState, Prim, RasterizerState, VertexBuffer, ViewportState

    from .util import PASS_VS
    from .util_draw import FLAT_FS, POS_COLOR, vertices

    src = _msaa(screen, Format.R32G32B32A32_FLOAT)
    if size != 8:
        src = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, size, size, samples=4)
    surf = ctx.create_surface(src, SurfaceTemplate(format=src.format))
    ctx.set_framebuffer_state(FramebufferState(width=size, height=size, samples=4, cbufs=(surf,)))
    ctx.set_viewport_states(0, [ViewportState(scale=(size / 2, size / 2, 0.5), translate=(size / 2, size / 2, 0.5))])
    ctx.bind_vs_state(ctx.create_vs_state(glpipe.ShaderState(tokens=PASS_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(glpipe.ShaderState(tokens=FLAT_FS)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(POS_COLOR)))
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(multisample=True)))
    big = [(-size, -size), (3 * size, -size), (-size, 3 * size)]
    for colour, smask in ((_A, 0x1), (_B, 0xE)):
        ctx.set_sample_mask(smask)
        ctx.set_vertex_buffers([VertexBuffer(buffer=vertices(big, colour, size=size), stride=32)])
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    ctx.set_sample_mask(0xFFFFFFFF)
    return src


def _f32(ctx, res):
    w, h, _ = res.level_extent(0)
    return read(ctx, res).view(np.float32).reshape(h, w, 4)


def test_msaa_resolve_average_sample0_and_scaled(ctx, screen):
    src = _two_colour_msaa(ctx, screen)
    dst = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    mean = (_A + 3 * _B) / 4
    assert np.allclose(_f32(ctx, dst), mean, atol=1e-6)
    assert ctx.blit_part.last_rung == "blit_framebuffer"
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, sample0_only=True))
    assert ctx.blit_part.last_rung == "shader"
    assert np.allclose(_f32(ctx, dst), _A, atol=1e-6)
    big = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    ctx.blit(BlitInfo(dst=side(big), src=side(src), mask=Mask.RGBA))
    assert ctx.blit_part.last_rung == "shader"
    assert np.allclose(_f32(ctx, big), mean, atol=1e-6)
    # a scissored, masked scaled resolve: only G of [2, 6) x [1, 3)
    fill(ctx, big, data=np.zeros((1, 8, 128), np.uint8))
    ctx.blit(
        BlitInfo(
            dst=side(big),
            src=side(src),
            mask=Mask.G,
            scissor_enable=True,
            scissor=ScissorState(minx=2, miny=1, maxx=6, maxy=3),
        )
    )
    want = np.zeros((8, 8, 4), np.float32)
    want[1:3, 2:6, 1] = mean[1]
    assert np.allclose(_f32(ctx, big), want, atol=1e-6)


def test_msaa_integer_and_depth_resolves_take_sample_0(ctx, screen):
    isrc = _msaa(screen, Format.R32G32B32A32_UINT)
    surf = ctx.create_surface(isrc, SurfaceTemplate(format=isrc.format))
    ctx.clear_render_target(surf, (7, 80, 900, 2**31 + 5), 0, 0, 8, 8, False)
    idst = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_UINT, 8, 8)
    ctx.blit(BlitInfo(dst=side(idst), src=side(isrc), mask=Mask.RGBA))
    assert ctx.blit_part.last_rung == "shader"
    assert (read(ctx, idst).view(np.uint32).reshape(8, 8, 4) == (7, 80, 900, 2**31 + 5)).all()
    if not screen.is_format_supported(Format.Z32_FLOAT, Target.TEXTURE_2D, 4, 4, 0x1 | 0x8):
        pytest.skip("no sampled 4x MSAA Z32_FLOAT")
    zsrc = make(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 8, 8, samples=4)
    zsurf = ctx.create_surface(zsrc, SurfaceTemplate(format=zsrc.format))
    ctx.clear_depth_stencil(zsurf, glpipe.Clear.DEPTH, 0.375, 0, 0, 0, 8, 8, False)
    zdst = make(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 8, 8)
    ctx.blit(BlitInfo(dst=side(zdst), src=side(zsrc), mask=Mask.Z))
    assert ctx.blit_part.last_rung == "shader"
    assert np.allclose(read(ctx, zdst).view(np.float32), 0.375)


def test_upsample_and_dst_sample(ctx, screen):
    """A single-sampled source drawn into every sample of a 4x texture, then
    into sample 2 alone (dst_sample 3): the resolve averages them."""
    dst = _msaa(screen, Format.R32G32B32A32_FLOAT)
    one = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    two = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    fill(ctx, one, data=np.tile(_A, (1, 8, 8)).view(np.uint8).reshape(1, 8, -1))
    fill(ctx, two, data=np.tile(_B, (1, 8, 8)).view(np.uint8).reshape(1, 8, -1))
    ctx.blit(BlitInfo(dst=side(dst), src=side(one), mask=Mask.RGBA))
    assert ctx.blit_part.last_rung == "shader"
    out = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    ctx.blit(BlitInfo(dst=side(out), src=side(dst), mask=Mask.RGBA))
    assert np.allclose(_f32(ctx, out), _A, atol=1e-6)
    ctx.blit(BlitInfo(dst=side(dst), src=side(two), mask=Mask.RGBA, dst_sample=3))
    ctx.blit(BlitInfo(dst=side(out), src=side(dst), mask=Mask.RGBA))
    assert np.allclose(_f32(ctx, out), (3 * _A + _B) / 4, atol=1e-6)


def test_the_shader_blitter_restores_the_users_state(ctx, screen):
    src = _two_colour_msaa(ctx, screen)
    part = ctx
    before = (
        part.framebuffer_part.framebuffer,
        part.viewport_part.viewports[0],
        part.viewport_part.scissors[0],
        part.rasterizer_part.rasterizer,
        part.blend_part.blend,
        part.blend_part.sample_mask,
        part.dsa_part.depth_stencil_alpha,
        tuple(part.shader_part.shaders),
        part.vertex_part.velems,
        part.vertex_part.vertex_buffers,
        part.sampler_views_part.sampler_views[glpipe.ShaderType.FRAGMENT][0],
        part.samplers_part.sampler_states[glpipe.ShaderType.FRAGMENT][0],
    )
    dst = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    assert ctx.blit_part.last_rung == "shader"
    after = (
        part.framebuffer_part.framebuffer,
        part.viewport_part.viewports[0],
        part.viewport_part.scissors[0],
        part.rasterizer_part.rasterizer,
        part.blend_part.blend,
        part.blend_part.sample_mask,
        part.dsa_part.depth_stencil_alpha,
        tuple(part.shader_part.shaders),
        part.vertex_part.velems,
        part.vertex_part.vertex_buffers,
        part.sampler_views_part.sampler_views[glpipe.ShaderType.FRAGMENT][0],
        part.samplers_part.sampler_states[glpipe.ShaderType.FRAGMENT][0],
    )
    assert all(a is b or a == b for a, b in zip(before, after, strict=True))


def test_compressed_source_is_decoded_and_compressed_copies(ctx, screen):
    """A DXT1 block with colour0 = 0xF800 (red), colour1 = 0x001F (blue) and
    every index 0 or 1 (S3TC: colour0 > colour1, four-colour mode)."""
    if not screen.is_format_supported(Format.DXT1_RGBA, Target.TEXTURE_2D, 0, 0, 0x8):
        pytest.skip("no DXT1 on this profile")
    comp = make(screen, Target.TEXTURE_2D, Format.DXT1_RGBA, 8, 4, bind=0x8)
    red = np.array([0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0], np.uint8)  # indices 0: colour0
    blue = np.array([0x00, 0xF8, 0x1F, 0x00, 0x55, 0x55, 0x55, 0x55], np.uint8)  # indices 1: colour1
    fill(ctx, comp, data=np.concatenate([red, blue]).reshape(1, 1, 16))
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 2)
    ctx.blit(BlitInfo(dst=side(dst), src=side(comp), mask=Mask.RGBA))  # 2:1 NEAREST
    px = read(ctx, dst).reshape(2, 4, 4)
    assert (px[:, :2] == (255, 0, 0, 255)).all() and (px[:, 2:] == (0, 0, 255, 255)).all()
    # compressed -> compressed, same format, 1:1: the copy rung
    other = make(screen, Target.TEXTURE_2D, Format.DXT1_RGBA, 8, 4, bind=0x8)
    fill(ctx, other, data=np.zeros((1, 1, 16), np.uint8))
    box = Box(x=4, y=0, z=0, width=4, height=4, depth=1)
    ctx.blit(
        BlitInfo(
            dst=side(other, box=Box(x=0, y=0, z=0, width=4, height=4, depth=1)), src=side(comp, box=box), mask=Mask.RGBA
        )
    )
    assert np.array_equal(read(ctx, other).reshape(16)[:8], blue)
    with pytest.raises(InvalidArgumentError, match="compressed"):
        ctx.blit(BlitInfo(dst=side(other), src=side(dst), mask=Mask.RGBA))


@pytest.mark.parametrize(
    "fmt,comps", [(Format.A8_UNORM, (3,)), (Format.L8_UNORM, (0, 1, 2)), (Format.L8A8_UNORM, None)]
)
def test_emulated_formats_scale_through_their_channels(ctx, screen, fmt, comps):
    """A8 / L8 / L8A8 (held as R8 / RG8 with a swizzle): a 2x NEAREST
    magnification into RGBA8 reads the channels the Gallium format has."""
    src = make(screen, Target.TEXTURE_2D, fmt, 4, 4)
    raw = fill(ctx, src, seed=21)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    idx = nearest_index(8, 0, 4, 4)
    got = read(ctx, dst).reshape(8, 8, 4)
    if fmt == Format.L8A8_UNORM:
        texel = raw.reshape(4, 4, 2)[idx[:, None], idx[None, :]]
        want = np.stack([texel[..., 0]] * 3 + [texel[..., 1]], axis=-1)
    else:
        texel = raw.reshape(4, 4)[idx[:, None], idx[None, :]]
        want = np.zeros((8, 8, 4), np.uint8)
        if fmt == Format.L8_UNORM:
            want[..., 3] = 255
        for c in comps:
            want[..., c] = texel
    assert np.array_equal(got, want)


def test_cube_face_1d_array_and_rect(ctx, screen):
    cube = make(screen, Target.TEXTURE_CUBE, Format.R8G8B8A8_UNORM, 4, 4, 1, 6)
    faces = fill(ctx, cube, seed=22).reshape(6, 4, 4, 4)
    flat = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    ctx.blit(
        BlitInfo(
            dst=side(flat),
            src=side(cube, box=Box(x=4, y=0, z=3, width=-4, height=4, depth=1)),  # face 3, mirrored
            mask=Mask.RGBA,
        )
    )
    assert np.array_equal(read(ctx, flat).reshape(4, 4, 4), faces[3][:, ::-1])
    arr = make(screen, Target.TEXTURE_1D_ARRAY, Format.R8G8B8A8_UNORM, 8, 1, 1, 3)
    rows = fill(ctx, arr, seed=23).reshape(3, 8, 4)
    rect = make(screen, Target.TEXTURE_RECT, Format.R8G8B8A8_UNORM, 16, 3)
    before = fill(ctx, rect, seed=24).reshape(3, 16, 4)
    ctx.blit(
        BlitInfo(
            dst=side(rect, box=Box(x=0, y=1, z=0, width=16, height=1, depth=1)),
            src=side(arr, box=Box(x=0, y=0, z=2, width=8, height=1, depth=1)),
            mask=Mask.RGBA,
        )
    )
    want = before.copy()
    want[1] = rows[2][nearest_index(16, 0, 8, 8)]
    assert np.array_equal(read(ctx, rect).reshape(3, 16, 4), want)


def test_shader_resolve_of_a_texture_made_without_storage_samples(ctx, screen):
    """nr_storage_samples 0 means "as many as nr_samples" (resource_create):
    the blitter's sampler view of such a texture must be accepted too."""
    if not screen.is_format_supported(Format.R32_UINT, Target.TEXTURE_2D, 4, 4, 0x2 | 0x8):
        pytest.skip("no sampled 4x MSAA R32_UINT")
    src = screen.resource_create(
        glpipe.ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R32_UINT, width0=4, height0=4, nr_samples=4, bind=0x2 | 0x8
        )
    )
    assert src.nr_storage_samples == 0
    surf = ctx.create_surface(src, SurfaceTemplate(format=src.format))
    ctx.clear_render_target(surf, (123456, 0, 0, 0), 0, 0, 4, 4, False)
    dst = make(screen, Target.TEXTURE_2D, Format.R32_UINT, 4, 4)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    assert ctx.blit_part.last_rung == "shader"
    assert (read(ctx, dst).view(np.uint32) == 123456).all()


def test_blits_follow_render_condition_enable_and_never_count_in_queries(ctx, screen):
    """A blit honours the render condition only when render_condition_enable
    says so (context.rst "Blitting"); the shader blitter's draws neither
    follow the user's condition nor count toward the user's queries."""
    src = _two_colour_msaa(ctx, screen)
    mean = (_A + 3 * _B) / 4
    # A query with result 0: with condition False, predicated work is discarded.
    zero = ctx.create_query(glpipe.Query.OCCLUSION_COUNTER)
    ctx.begin_query(zero)
    ctx.end_query(zero)
    ctx.render_condition(zero, False, glpipe.RenderCond.WAIT)
    dst = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, render_condition_enable=True))
    assert not _f32(ctx, dst).any()  # discarded
    counted = ctx.create_query(glpipe.Query.OCCLUSION_COUNTER)
    ctx.begin_query(counted)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    ctx.end_query(counted)
    assert ctx.blit_part.last_rung == "shader"
    assert np.allclose(_f32(ctx, dst), mean, atol=1e-6)  # not predicated: written
    assert ctx.get_query_result(counted, True) == 0  # 64 pixels drawn by glpipe, none by the user
    ctx.render_condition(None, False, glpipe.RenderCond.WAIT)
    for q in (zero, counted):
        ctx.destroy_query(q)
