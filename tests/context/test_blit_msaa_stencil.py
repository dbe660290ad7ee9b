"""The shader blitter's per-sample and stencil blits (docs/blits.md): a
multisampled -> multisampled blit draws each sample i with the sample mask
1 << i fetching sample i (u_blitter's "MSAA copy"), so it converts formats,
honours the colour mask and the scissor, and scales with equal sample
counts; stencil (mask S or ZS) is written by the blitter into or out of
multisampled textures.  Expected values come from numpy over the spec's
definition; multisampled results are read back through two resolves --
sample 0 alone (``sample0_only``) and the mean of the samples -- which
together pin sample 0 and the sum of the other samples.  Both profiles."""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import BlitInfo, Box, Clear, Format, Mask, ScissorState, SurfaceTemplate, Target
from glpipe.errors import UnsupportedError

from .util_blits import fill, linear_weights, make, nearest_index, read, side

_RGBA32F = Format.R32G32B32A32_FLOAT
_Z24S8 = Format.Z24_UNORM_S8_UINT


def _msaa(screen, fmt, size=8, samples=4, bind=0x2 | 0x8):
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, samples, samples, bind):
        pytest.skip(f"no sampled {samples}x MSAA {fmt.name}")
    return make(screen, Target.TEXTURE_2D, fmt, size, size, samples=samples)


def _f32(ctx, res):
    w, h, _ = res.level_extent(0)
    return read(ctx, res).view(np.float32).reshape(h, w, 4)


def _upload(ctx, screen, values):
    """A single-sampled RGBA32F texture holding ``values`` (h, w, 4)."""
    h, w, _ = values.shape
    tex = make(screen, Target.TEXTURE_2D, _RGBA32F, w, h)
    fill(ctx, tex, data=np.ascontiguousarray(values, np.float32).view(np.uint8).reshape(1, h, -1))
    return tex


def _two_layer_msaa(ctx, screen, zero, rest):
    """A 4x RGBA32F texture whose sample 0 holds ``zero`` and samples 1-3
    ``rest`` (h, w, 4 arrays): single-sampled textures drawn into every
    sample, then into sample 0 alone (dst_sample 1; tested in test_blit.py)."""
    h, w, _ = zero.shape
    ms = _msaa(screen, _RGBA32F, size=w)
    ctx.blit(BlitInfo(dst=side(ms), src=side(_upload(ctx, screen, rest)), mask=Mask.RGBA))
    ctx.blit(BlitInfo(dst=side(ms), src=side(_upload(ctx, screen, zero)), mask=Mask.RGBA, dst_sample=1))
    return ms


def _resolves(ctx, screen, ms, fmt=_RGBA32F):
    """(sample 0, mean of the samples) of 4x ``ms`` as float32 (h, w, 4)."""
    w, h, _ = ms.level_extent(0)
    out = make(screen, Target.TEXTURE_2D, fmt, w, h)
    ctx.blit(BlitInfo(dst=side(out), src=side(ms, fmt=ms.format), mask=Mask.RGBA, sample0_only=True))
    s0 = _f32(ctx, out)
    ctx.blit(BlitInfo(dst=side(out), src=side(ms), mask=Mask.RGBA))
    return s0, _f32(ctx, out)


def _is_half_of(got, v):
    """Per component: ``got`` is ``v`` rounded to float16, to nearest or toward zero."""
    nearest = v.astype(np.float16)
    toward_zero = np.where(
        np.abs(nearest.astype(np.float32)) > np.abs(v), np.nextafter(nearest, np.float16(0)), nearest
    )
    yield bool(np.all((got == nearest.astype(np.float32)) | (got == toward_zero.astype(np.float32))))


def _random(seed, h, w):
    return np.random.default_rng(seed).random((h, w, 4)).astype(np.float32)


# -- multisampled -> multisampled, per sample ------------------------------------------------


@pytest.mark.parametrize("dst_fmt", [Format.R16G16B16A16_FLOAT, Format.R8G8B8A8_UNORM])
def test_msaa_to_msaa_converting_copies_every_sample(ctx, screen, dst_fmt):
    """RGBA32F 4x -> RGBA16F / RGBA8 4x, same size: each sample converted
    through the formats (unorm: round(255 v)), sample 0 kept apart."""
    zero, rest = _random(1, 8, 8), _random(2, 8, 8)
    src = _two_layer_msaa(ctx, screen, zero, rest)
    dst = _msaa(screen, dst_fmt)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    assert ctx.blit_part.last_rung == "shader"
    s0, mean = _resolves(ctx, screen, dst)
    if dst_fmt == Format.R8G8B8A8_UNORM:
        conv = np.rint(np.clip(zero, 0, 1) * 255) / 255
        assert np.allclose(s0, conv, atol=1e-6, rtol=0)
        want_mean = (conv + 3 * np.rint(np.clip(rest, 0, 1) * 255) / 255) / 4
        assert np.allclose(mean, want_mean, atol=1e-5, rtol=0)
    else:
        # float32 -> float16 rounds to nearest or toward zero: the host's
        # choice (GL 4.5 §2.3.4.2 leaves the rounding mode open)
        assert all(_is_half_of(s0, zero))
        assert np.allclose(mean, (zero + 3 * rest) / 4, atol=2e-3, rtol=0)


def test_msaa_to_msaa_with_a_colour_mask_and_scissor(ctx, screen):
    """Same format, mask G|A and a scissor: only those channels of the
    scissored pixels change, in every sample."""
    zero, rest = _random(3, 8, 8), _random(4, 8, 8)
    src = _two_layer_msaa(ctx, screen, zero, rest)
    dst = _msaa(screen, _RGBA32F)
    surf = ctx.create_surface(dst, SurfaceTemplate(format=dst.format))
    ctx.clear_render_target(surf, (0.5, 0.25, 0.125, 1.0), 0, 0, 8, 8, False)
    ctx.surface_destroy(surf)
    ctx.blit(
        BlitInfo(
            dst=side(dst),
            src=side(src),
            mask=Mask.G | Mask.A,
            scissor_enable=True,
            scissor=ScissorState(minx=1, miny=2, maxx=6, maxy=7),
        )
    )
    assert ctx.blit_part.last_rung == "shader"
    want0 = np.tile(np.float32([0.5, 0.25, 0.125, 1.0]), (8, 8, 1))
    want_rest = want0.copy()
    for want, v in ((want0, zero), (want_rest, rest)):
        want[2:7, 1:6, 1] = v[2:7, 1:6, 1]
        want[2:7, 1:6, 3] = v[2:7, 1:6, 3]
    s0, mean = _resolves(ctx, screen, dst)
    assert np.array_equal(s0, want0)
    assert np.allclose(mean, (want0 + 3 * want_rest) / 4, atol=1e-6, rtol=0)


def test_scaled_mirrored_msaa_to_msaa_takes_sample_i_of_the_nearest_texel(ctx, screen):
    """u_blitter's MSAA copy with equal sample counts draws sample i with
    the mask 1 << i from sample i of the texel under each pixel centre:
    a 4x4 source box mirrored in x onto an 8x8 box (src x 4 -> 0)."""
    zero, rest = _random(5, 8, 8), _random(6, 8, 8)
    src = _two_layer_msaa(ctx, screen, zero, rest)
    dst = _msaa(screen, _RGBA32F)
    ctx.blit(
        BlitInfo(
            dst=side(dst),
            src=side(src, box=Box(x=6, y=1, z=0, width=-4, height=4, depth=1)),
            mask=Mask.RGBA,
        )
    )
    assert ctx.blit_part.last_rung == "shader"
    ix, iy = nearest_index(8, 6, -4, 8), nearest_index(8, 1, 4, 8)
    s0, mean = _resolves(ctx, screen, dst)
    assert np.array_equal(s0, zero[iy[:, None], ix[None, :]])
    want = (zero + 3 * rest) / 4
    assert np.allclose(mean, want[iy[:, None], ix[None, :]], atol=1e-6, rtol=0)


def test_msaa_to_msaa_with_unequal_sample_counts_is_refused(ctx, screen):
    """GL refuses it (GL 4.5 §18.3.1: INVALID_OPERATION when both sides are
    multisampled with different counts) and u_blitter's MSAA copy needs
    equal counts: UnsupportedError, nothing written."""
    src = _msaa(screen, _RGBA32F)
    for n in (2, 8):
        if screen.is_format_supported(_RGBA32F, Target.TEXTURE_2D, n, n, 0x2 | 0x8):
            break
    else:
        pytest.skip("only one MSAA sample count")
    dst = make(screen, Target.TEXTURE_2D, _RGBA32F, 8, 8, samples=n)
    surf = ctx.create_surface(dst, SurfaceTemplate(format=dst.format))
    ctx.clear_render_target(surf, (0.25, 0.5, 0.75, 1.0), 0, 0, 8, 8, False)
    ctx.surface_destroy(surf)
    with pytest.raises(UnsupportedError, match="sample counts"):
        ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    out = make(screen, Target.TEXTURE_2D, _RGBA32F, 8, 8)
    ctx.blit(BlitInfo(dst=side(out), src=side(dst), mask=Mask.RGBA))
    assert np.allclose(_f32(ctx, out), (0.25, 0.5, 0.75, 1.0))


# -- stencil through the shader blitter -------------------------------------------------------


def _zs_msaa(ctx, screen, size=8):
    return _msaa(screen, _Z24S8, size=size, bind=0x1 | 0x8)


def _stencil_of(ctx, res):
    """The stencil bytes (h, w) of single-sampled Z24S8 ``res`` (the high byte)."""
    w, h, _ = res.level_extent(0)
    return read(ctx, res).reshape(h, w, 4)[..., 3]


def _depth_of(ctx, res):
    w, h, _ = res.level_extent(0)
    return read(ctx, res).reshape(h, w, 4)[..., :3]


def _resolve_zs(ctx, screen, ms, mask=Mask.ZS):
    """Sample 0 of 4x Z24S8 ``ms`` in a single-sampled texture (a resolve
    of depth/stencil takes sample 0, context.rst "Blitting")."""
    w, h, _ = ms.level_extent(0)
    out = make(screen, Target.TEXTURE_2D, _Z24S8, w, h)
    fill(ctx, out, data=np.zeros((1, h, w * 4), np.uint8))
    ctx.blit(BlitInfo(dst=side(out), src=side(ms), mask=mask))
    return out


def _clear_zs(ctx, res, flags, depth, stencil, x, y, w, h):
    surf = ctx.create_surface(res, SurfaceTemplate(format=res.format))
    ctx.clear_depth_stencil(surf, flags, depth, stencil, x, y, w, h, False)
    ctx.surface_destroy(surf)


def test_stencil_resolve_takes_sample_0(ctx, screen):
    """A 4x Z24S8 cleared (clear_depth_stencil, not a blit) to stencil 0x5A
    with depth 0.5, then 0xC3 over [2, 6) x [1, 4): the S resolve is those
    bytes; depth of the destination untouched by an S-only blit."""
    ms = _zs_msaa(ctx, screen)
    _clear_zs(ctx, ms, Clear.DEPTHSTENCIL, 0.5, 0x5A, 0, 0, 8, 8)
    _clear_zs(ctx, ms, Clear.STENCIL, 0.0, 0xC3, 2, 1, 4, 3)
    out = make(screen, Target.TEXTURE_2D, _Z24S8, 8, 8)
    before = fill(ctx, out, seed=21).reshape(8, 8, 4)
    ctx.blit(BlitInfo(dst=side(out), src=side(ms), mask=Mask.S))
    assert ctx.blit_part.last_rung == "shader"
    want = np.full((8, 8), 0x5A, np.uint8)
    want[1:4, 2:6] = 0xC3
    assert np.array_equal(_stencil_of(ctx, out), want)
    assert np.array_equal(_depth_of(ctx, out), before[..., :3])
    # ZS: depth 0.5 in unorm24 as well
    ctx.blit(BlitInfo(dst=side(out), src=side(ms), mask=Mask.ZS))
    assert np.array_equal(_stencil_of(ctx, out), want)
    d = _depth_of(ctx, out).astype(np.uint32)
    depth = d[..., 0] | (d[..., 1] << 8) | (d[..., 2] << 16)
    assert (np.abs(depth.astype(np.int64) - round(0.5 * 0xFFFFFF)) <= 1).all()


def test_scaled_mirrored_scissored_stencil_upsample(ctx, screen):
    """A single-sampled Z24S8's stencil drawn into every sample of a 4x
    Z24S8: 4x4 source mirrored in y onto 8x8, scissored to [1, 7) x [0, 5);
    outside the scissor the cleared stencil stays, depth stays everywhere."""
    src = make(screen, Target.TEXTURE_2D, _Z24S8, 4, 4)
    s = fill(ctx, src, seed=22).reshape(4, 4, 4)
    ms = _zs_msaa(ctx, screen)
    _clear_zs(ctx, ms, Clear.DEPTHSTENCIL, 0.25, 0x11, 0, 0, 8, 8)
    ctx.blit(
        BlitInfo(
            dst=side(ms),
            src=side(src, box=Box(x=0, y=4, z=0, width=4, height=-4, depth=1)),
            mask=Mask.S,
            scissor_enable=True,
            scissor=ScissorState(minx=1, miny=0, maxx=7, maxy=5),
        )
    )
    assert ctx.blit_part.last_rung == "shader"
    ix, iy = nearest_index(8, 0, 4, 4), nearest_index(8, 4, -4, 4)
    want = np.full((8, 8), 0x11, np.uint8)
    want[0:5, 1:7] = s[..., 3][iy[:, None], ix[None, :]][0:5, 1:7]
    out = _resolve_zs(ctx, screen, ms)
    assert np.array_equal(_stencil_of(ctx, out), want)
    d = _depth_of(ctx, out).astype(np.uint32)
    depth = d[..., 0] | (d[..., 1] << 8) | (d[..., 2] << 16)
    assert (np.abs(depth.astype(np.int64) - round(0.25 * 0xFFFFFF)) <= 1).all()


def test_stencil_msaa_to_msaa_per_sample_with_scissor(ctx, screen):
    """4x -> 4x stencil with a scissor: sample 0 and samples 1-3 keep their
    own values (sample 0 written by dst_sample 1 from a second source)."""
    a = make(screen, Target.TEXTURE_2D, _Z24S8, 8, 8)
    b = make(screen, Target.TEXTURE_2D, _Z24S8, 8, 8)
    sa = fill(ctx, a, seed=23).reshape(8, 8, 4)[..., 3]
    sb = fill(ctx, b, seed=24).reshape(8, 8, 4)[..., 3]
    src = _zs_msaa(ctx, screen)
    ctx.blit(BlitInfo(dst=side(src), src=side(a), mask=Mask.S))  # every sample: a
    ctx.blit(BlitInfo(dst=side(src), src=side(b), mask=Mask.S, dst_sample=1))  # sample 0: b
    dst = _zs_msaa(ctx, screen)
    _clear_zs(ctx, dst, Clear.DEPTHSTENCIL, 1.0, 0x77, 0, 0, 8, 8)
    ctx.blit(
        BlitInfo(
            dst=side(dst),
            src=side(src),
            mask=Mask.S,
            scissor_enable=True,
            scissor=ScissorState(minx=2, miny=3, maxx=8, maxy=6),
        )
    )
    assert ctx.blit_part.last_rung in ("shader", "blit_framebuffer")
    want0 = np.full((8, 8), 0x77, np.uint8)
    want0[3:6, 2:8] = sb[3:6, 2:8]
    assert np.array_equal(_stencil_of(ctx, _resolve_zs(ctx, screen, dst)), want0)
    # sample 1 of dst: moved into sample 0 of a copy by dst_sample-less MSAA copy of sample 1
    # is not expressible through pipe_blit_info; instead overwrite sample 0 of the source with a
    # and blit again: every sample of the result then equals a inside the scissor.
    ctx.blit(BlitInfo(dst=side(src), src=side(a), mask=Mask.S, dst_sample=1))
    ctx.blit(
        BlitInfo(
            dst=side(dst),
            src=side(src),
            mask=Mask.S,
            scissor_enable=True,
            scissor=ScissorState(minx=2, miny=3, maxx=8, maxy=6),
        )
    )
    want0[3:6, 2:8] = sa[3:6, 2:8]
    assert np.array_equal(_stencil_of(ctx, _resolve_zs(ctx, screen, dst)), want0)


def test_stencil_blits_leave_the_users_stencil_state_and_queries(ctx, screen):
    """The stencil passes set the stencil reference and DSA: the user's
    are bound back, and no pass counts toward the user's occlusion query."""
    src = make(screen, Target.TEXTURE_2D, _Z24S8, 8, 8)
    fill(ctx, src, seed=25)
    ms = _zs_msaa(ctx, screen)
    ref = glpipe.StencilRef(ref_value=(3, 9))
    ctx.set_stencil_ref(ref)
    ctx.set_sample_mask(0x5)
    fs = glpipe.ShaderType.FRAGMENT

    def state():
        return (
            ctx.framebuffer_part.framebuffer,
            ctx.viewport_part.viewports[0],
            ctx.viewport_part.scissors[0],
            ctx.rasterizer_part.rasterizer,
            ctx.rasterizer_part.window_rectangles,
            ctx.blend_part.blend,
            ctx.blend_part.sample_mask,
            ctx.dsa_part.depth_stencil_alpha,
            ctx.dsa_part.stencil_ref,
            tuple(ctx.shader_part.shaders),
            ctx.vertex_part.velems,
            ctx.vertex_part.vertex_buffers,
            ctx.sampler_views_part.sampler_views[fs][0],
            ctx.samplers_part.sampler_states[fs][0],
            ctx.constbuf_part.constant_buffers[fs][0],
        )

    before = state()
    q = ctx.create_query(glpipe.Query.OCCLUSION_COUNTER)
    ctx.begin_query(q)
    ctx.blit(BlitInfo(dst=side(ms), src=side(src), mask=Mask.S))
    assert ctx.blit_part.last_rung == "shader"
    _resolve_zs(ctx, screen, ms, mask=Mask.S)
    ctx.end_query(q)
    assert ctx.get_query_result(q, True) == 0  # the blitter drew every pass, the user nothing
    ctx.destroy_query(q)
    assert ctx.dsa_part.stencil_ref == ref and ctx.blend_part.sample_mask == 0x5
    assert all(a is b or a == b for a, b in zip(before, state(), strict=True))


def test_msaa_to_msaa_sample0_only_and_dst_sample(ctx, screen):
    """u_blitter's MSAA copy with ``sample0_only`` draws sample 0 alone
    (max_sample 0, mask 1 << 0); with ``dst_sample`` k it keeps the pass of
    sample k - 1 (the mask 1 << (k - 1)): the other samples keep the clear."""
    zero, rest = _random(7, 8, 8), _random(8, 8, 8)
    src = _two_layer_msaa(ctx, screen, zero, rest)
    clear = np.float32([0.5, 0.25, 0.125, 1.0])
    dst = _msaa(screen, _RGBA32F)
    surf = ctx.create_surface(dst, SurfaceTemplate(format=dst.format))
    ctx.clear_render_target(surf, tuple(clear), 0, 0, 8, 8, False)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, sample0_only=True))
    assert ctx.blit_part.last_rung == "shader"
    s0, mean = _resolves(ctx, screen, dst)
    assert np.array_equal(s0, zero)
    assert np.allclose(mean, (zero + 3 * clear) / 4, atol=1e-6, rtol=0)
    ctx.clear_render_target(surf, tuple(clear), 0, 0, 8, 8, False)
    ctx.surface_destroy(surf)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA, dst_sample=3))  # sample 2 only
    s0, mean = _resolves(ctx, screen, dst)
    assert np.array_equal(s0, np.broadcast_to(clear, (8, 8, 4)))
    assert np.allclose(mean, (rest + 3 * clear) / 4, atol=1e-6, rtol=0)


# -- maps of multisampled depth/stencil textures (resolve / upsample through blit) ------------


@pytest.mark.parametrize("fmt", [_Z24S8, Format.Z32_FLOAT_S8X24_UINT])
def test_maps_of_a_multisampled_depth_stencil_texture(ctx, screen, fmt):
    """A read map of a 4x packed depth/stencil texture resolves sample 0
    (depth and stencil alike) into staging; a write map draws the staging
    into every sample.  Cleared by clear_depth_stencil (not a blit)."""
    ms = _msaa(screen, fmt, bind=0x1 | 0x8)
    _clear_zs(ctx, ms, Clear.DEPTHSTENCIL, 0.5, 0x3C, 0, 0, 8, 8)
    _clear_zs(ctx, ms, Clear.STENCIL, 0.0, 0x81, 4, 2, 3, 5)
    stencil = np.full((8, 8), 0x3C, np.uint8)
    stencil[2:7, 4:7] = 0x81

    def split(raw):
        if fmt == _Z24S8:  # depth: low 24 bits (unorm), stencil: high byte
            words = raw.view(np.uint32).reshape(8, 8)
            return (words & 0xFFFFFF).astype(np.float64) / 0xFFFFFF, (words >> 24).astype(np.uint8)
        pairs = raw.view(np.uint32).reshape(8, 8, 2)  # float32 depth, then stencil in the low byte
        return pairs[..., 0].view(np.float32).astype(np.float64), (pairs[..., 1] & 0xFF).astype(np.uint8)

    t = ctx.transfer_map(ms, 0, glpipe.Map.READ, Box(x=0, y=0, z=0, width=8, height=8, depth=1))
    depth, got = split(np.array(t.data, copy=True))
    ctx.transfer_unmap(t)
    assert np.array_equal(got, stencil)
    assert np.allclose(depth, 0.5, atol=1.0 / 0xFFFFFF)
    # write: new depth/stencil values in a box, read back through the resolve
    t = ctx.transfer_map(ms, 0, glpipe.Map.READ | glpipe.Map.WRITE, Box(x=0, y=0, z=0, width=8, height=8, depth=1))
    raw = np.array(t.data, copy=True)
    words = raw.view(np.uint32).reshape(8, 8, -1)
    new_s = np.random.default_rng(40).integers(0, 256, size=(8, 8), dtype=np.uint32)
    if fmt == _Z24S8:
        words[..., 0] = (words[..., 0] & 0xFFFFFF) | (new_s << 24)
    else:
        words[..., 1] = new_s
    t.data[...] = words.view(np.uint8).reshape(t.data.shape)
    ctx.transfer_unmap(t)
    t = ctx.transfer_map(ms, 0, glpipe.Map.READ, Box(x=0, y=0, z=0, width=8, height=8, depth=1))
    depth, got = split(np.array(t.data, copy=True))
    ctx.transfer_unmap(t)
    assert np.array_equal(got, new_s.astype(np.uint8))
    assert np.allclose(depth, 0.5, atol=1.0 / 0xFFFFFF)
    # every sample: the mean-free check -- a resolve taking sample 0 and the
    # per-sample MSAA copy into a second texture agree with the map
    copy = _msaa(screen, fmt, bind=0x1 | 0x8)
    ctx.blit(BlitInfo(dst=side(copy), src=side(ms), mask=Mask.ZS))
    assert np.array_equal(_stencil_of_any(ctx, screen, copy, fmt), new_s.astype(np.uint8))


def _stencil_of_any(ctx, screen, ms, fmt):
    out = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    ctx.blit(BlitInfo(dst=side(out), src=side(ms), mask=Mask.S))
    raw = read(ctx, out).view(np.uint32).reshape(8, 8, -1)
    return ((raw[..., 0] >> 24) if fmt == _Z24S8 else (raw[..., 1] & 0xFF)).astype(np.uint8)


@pytest.mark.parametrize("sbox,dbox", [((0, 0, 8, 8), (0, 0, 16, 16)), ((1, 2, 6, 5), (3, 1, 11, 7))])
def test_linear_scaled_resolve_filters_the_resolved_texels(ctx, screen, sbox, dbox):
    """A scaled LINEAR resolve is u_blitter's resolve-then-filter: the
    bilinear blend (Gallium's blit sampling, clamped to the level) of the
    per-texel means -- not the mean of the nearest texel."""
    zero, rest = _random(9, 8, 8), _random(10, 8, 8)
    src = _two_layer_msaa(ctx, screen, zero, rest)
    dst = make(screen, Target.TEXTURE_2D, _RGBA32F, 16, 16)
    fill(ctx, dst, data=np.zeros((1, 16, 256), np.uint8))
    sx, sy, sw, sh = sbox
    dx, dy, dw, dh = dbox
    ctx.blit(
        BlitInfo(
            dst=side(dst, box=Box(x=dx, y=dy, z=0, width=dw, height=dh, depth=1)),
            src=side(src, box=Box(x=sx, y=sy, z=0, width=sw, height=sh, depth=1)),
            mask=Mask.RGBA,
            filter=glpipe.TexFilter.LINEAR,
        )
    )
    v = (zero.astype(np.float64) + 3 * rest) / 4
    x0, x1, fx = linear_weights(dw, sx, sw, 8)
    y0, y1, fy = linear_weights(dh, sy, sh, 8)
    fx, fy = fx[None, :, None], fy[:, None, None]
    top = v[y0[:, None], x0[None, :]] * (1 - fx) + v[y0[:, None], x1[None, :]] * fx
    bot = v[y1[:, None], x0[None, :]] * (1 - fx) + v[y1[:, None], x1[None, :]] * fx
    want = np.zeros((16, 16, 4))
    want[dy : dy + dh, dx : dx + dw] = top * (1 - fy) + bot * fy
    assert np.allclose(_f32(ctx, dst), want, atol=2e-3, rtol=0)


def test_linear_scaled_upsample_is_refused_and_writes_nothing(ctx, screen):
    """The blitter fetches texels; a LINEAR scaled draw into a 4x texture is
    refused by name (docs/blits.md), the destination untouched."""
    one = _upload(ctx, screen, _random(11, 4, 4))
    dst = _msaa(screen, _RGBA32F)
    surf = ctx.create_surface(dst, SurfaceTemplate(format=dst.format))
    ctx.clear_render_target(surf, (0.25, 0.5, 0.75, 1.0), 0, 0, 8, 8, False)
    ctx.surface_destroy(surf)
    with pytest.raises(UnsupportedError, match="multisampled blit"):
        ctx.blit(BlitInfo(dst=side(dst), src=side(one), mask=Mask.RGBA, filter=glpipe.TexFilter.LINEAR))
    s0, mean = _resolves(ctx, screen, dst)
    assert np.allclose(s0, (0.25, 0.5, 0.75, 1.0)) and np.allclose(mean, (0.25, 0.5, 0.75, 1.0))
