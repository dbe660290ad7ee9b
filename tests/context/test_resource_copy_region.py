"""pipe_context::resource_copy_region: bytes moved unmodified (context.rst
"Blitting"), every target pair, levels, layers and faces, copy-compatible
formats, depth/stencil, MSAA, and the refusals (overlap, out-of-range boxes)."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Box, Cap, Format, Target
from glpipe.errors import InvalidArgumentError, UnsupportedError

from .util_blits import buffer, fill, make, read, read_buffer


def test_buffer_to_buffer(ctx, screen):
    src, dst = buffer(screen, 256), buffer(screen, 256)
    data = np.arange(256, dtype=np.uint8)
    ctx.buffer_subdata(src, 0, 0, data)
    ctx.buffer_subdata(dst, 0, 0, np.zeros(256, np.uint8))
    ctx.resource_copy_region(dst, 0, 100, 0, 0, src, 0, Box(x=10, width=50, height=1, depth=1))
    want = np.zeros(256, np.uint8)
    want[100:150] = data[10:60]
    assert np.array_equal(read_buffer(ctx, dst), want)


def test_buffer_disjoint_regions_of_one_buffer(ctx, screen):
    buf = buffer(screen, 64)
    data = np.arange(64, dtype=np.uint8)
    ctx.buffer_subdata(buf, 0, 0, data)
    ctx.resource_copy_region(buf, 0, 32, 0, 0, buf, 0, Box(x=0, width=32, height=1, depth=1))
    want = data.copy()
    want[32:] = data[:32]
    assert np.array_equal(read_buffer(ctx, buf), want)


def test_buffer_overlap_and_out_of_range_are_refused(ctx, screen):
    buf = buffer(screen, 64)
    data = np.arange(64, dtype=np.uint8)
    ctx.buffer_subdata(buf, 0, 0, data)
    with pytest.raises(InvalidArgumentError, match="overlap"):
        ctx.resource_copy_region(buf, 0, 16, 0, 0, buf, 0, Box(x=0, width=32, height=1, depth=1))
    with pytest.raises(InvalidArgumentError):
        ctx.resource_copy_region(buf, 0, 40, 0, 0, buf, 0, Box(x=0, width=32, height=1, depth=1))
    with pytest.raises(InvalidArgumentError):
        ctx.resource_copy_region(buf, 0, 0, 0, 0, buf, 0, Box(x=60, width=8, height=1, depth=1))
    with pytest.raises(InvalidArgumentError):
        ctx.resource_copy_region(buf, 0, -1, 0, 0, buf, 0, Box(x=0, width=8, height=1, depth=1))
    assert np.array_equal(read_buffer(ctx, buf), data)


# (target, width, height, depth, array_size, src box, dst (x, y, z))
_TARGETS = [
    (Target.TEXTURE_1D, 16, 1, 1, 1, Box(x=2, y=0, z=0, width=8, height=1, depth=1), (5, 0, 0)),
    (Target.TEXTURE_2D, 16, 8, 1, 1, Box(x=1, y=2, z=0, width=6, height=4, depth=1), (8, 3, 0)),
    (Target.TEXTURE_RECT, 16, 8, 1, 1, Box(x=1, y=2, z=0, width=6, height=4, depth=1), (8, 3, 0)),
    (Target.TEXTURE_3D, 8, 8, 4, 1, Box(x=1, y=1, z=1, width=4, height=3, depth=2), (2, 4, 0)),
    (Target.TEXTURE_1D_ARRAY, 16, 1, 1, 4, Box(x=3, y=0, z=1, width=5, height=1, depth=2), (0, 0, 2)),
    (Target.TEXTURE_2D_ARRAY, 8, 8, 1, 4, Box(x=0, y=1, z=0, width=5, height=5, depth=3), (2, 0, 1)),
    (Target.TEXTURE_CUBE, 8, 8, 1, 6, Box(x=0, y=0, z=1, width=4, height=4, depth=3), (4, 4, 3)),
    (Target.TEXTURE_CUBE_ARRAY, 8, 8, 1, 12, Box(x=2, y=2, z=4, width=4, height=4, depth=5), (0, 0, 6)),
]


def _expect_copy(dst_before, src_bytes, box, dst_pos, bs, has_y=True):
    want = dst_before.copy()
    x, y, z = dst_pos
    sy = box.y if has_y else 0
    h = box.height if has_y else 1
    want[z : z + box.depth, y : y + h, x * bs : (x + box.width) * bs] = src_bytes[
        box.z : box.z + box.depth, sy : sy + h, box.x * bs : (box.x + box.width) * bs
    ]
    return want


@pytest.mark.parametrize("target,w,h,d,layers,box,pos", _TARGETS, ids=[t[0].name for t in _TARGETS])
def test_every_target_between_two_textures(ctx, screen, target, w, h, d, layers, box, pos):
    if target == Target.TEXTURE_CUBE_ARRAY and not screen.get_param(Cap.CUBE_MAP_ARRAY):
        pytest.skip("CUBE_MAP_ARRAY is 0 on this profile (resource_create refuses the target)")
    src = make(screen, target, Format.R8G8B8A8_UNORM, w, h, d, layers)
    dst = make(screen, target, Format.R8G8B8A8_UNORM, w, h, d, layers)
    s = fill(ctx, src, seed=1)
    before = fill(ctx, dst, seed=2)
    ctx.resource_copy_region(dst, 0, *pos, src, 0, box)
    has_y = target not in (Target.TEXTURE_1D, Target.TEXTURE_1D_ARRAY)
    assert np.array_equal(read(ctx, dst), _expect_copy(before, s, box, pos, 4, has_y))


def test_levels_and_a_2d_layer_into_a_3d_slice(ctx, screen):
    src = make(screen, Target.TEXTURE_2D_ARRAY, Format.R16G16_FLOAT, 16, 16, 1, 3, last_level=2)
    dst = make(screen, Target.TEXTURE_3D, Format.R16G16_FLOAT, 8, 8, 4, last_level=1)
    s = fill(ctx, src, level=1, seed=3)
    before = fill(ctx, dst, level=1, seed=4)
    box = Box(x=2, y=1, z=2, width=3, height=4, depth=1)
    ctx.resource_copy_region(dst, 1, 1, 0, 1, src, 1, box)
    assert np.array_equal(read(ctx, dst, 1), _expect_copy(before, s, box, (1, 0, 1), 4))


@pytest.mark.parametrize(
    "src_fmt,dst_fmt",
    [
        (Format.R8G8B8A8_UNORM, Format.R32_UINT),
        (Format.R32G32_FLOAT, Format.R16G16B16A16_SINT),
        (Format.R8G8B8A8_UNORM, Format.R8G8B8A8_SRGB),
        (Format.R8_UNORM, Format.A8_UNORM),
        (Format.B5G6R5_UNORM, Format.R16_UINT),
    ],
)
def test_copy_compatible_formats_move_bytes_unmodified(ctx, screen, src_fmt, dst_fmt):
    src = make(screen, Target.TEXTURE_2D, src_fmt, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, dst_fmt, 8, 8)
    s = fill(ctx, src, seed=5)
    if src_fmt == Format.R32G32_FLOAT:  # NaN payloads are not guaranteed to survive: finite floats
        s = fill(ctx, src, data=np.random.default_rng(5).random((1, 8, 16), np.float32).view(np.uint8))
    before = fill(ctx, dst, seed=6)
    box = Box(x=1, y=2, z=0, width=5, height=4, depth=1)
    ctx.resource_copy_region(dst, 0, 3, 1, 0, src, 0, box)
    bs = s.shape[2] // 8
    assert np.array_equal(read(ctx, dst), _expect_copy(before, s, box, (3, 1, 0), bs))


@pytest.mark.parametrize("fmt", [Format.Z24_UNORM_S8_UINT, Format.Z32_FLOAT, Format.Z16_UNORM])
def test_depth_stencil_formats(ctx, screen, fmt):
    src = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    if fmt == Format.Z32_FLOAT:
        s = fill(ctx, src, data=np.random.default_rng(7).random((1, 8, 8), np.float32).view(np.uint8))
        before = fill(ctx, dst, data=np.zeros((1, 8, 32), np.uint8))
    else:
        s = fill(ctx, src, seed=7)
        before = fill(ctx, dst, seed=8)
    box = Box(x=0, y=0, z=0, width=4, height=8, depth=1)
    ctx.resource_copy_region(dst, 0, 4, 0, 0, src, 0, box)
    bs = s.shape[2] // 8
    assert np.array_equal(read(ctx, dst), _expect_copy(before, s, box, (4, 0, 0), bs))


def test_compressed_and_plain_follow_the_cap(ctx, screen):
    """DXT1 blocks are 8 bytes: one block <-> one R16G16B16A16_UINT texel."""
    if not screen.is_format_supported(Format.DXT1_RGBA, Target.TEXTURE_2D, 0, 0, 0x8):
        pytest.skip("no DXT1 on this profile")
    comp = make(screen, Target.TEXTURE_2D, Format.DXT1_RGBA, 16, 16, bind=0x8)
    plain = make(screen, Target.TEXTURE_2D, Format.R16G16B16A16_UINT, 4, 4)
    s = fill(ctx, comp, seed=9)
    before = fill(ctx, plain, seed=10)
    box = Box(x=4, y=0, z=0, width=8, height=8, depth=1)  # 2x2 blocks
    if not screen.get_param(Cap.COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS):
        with pytest.raises(UnsupportedError):
            ctx.resource_copy_region(plain, 0, 1, 1, 0, comp, 0, box)
        assert np.array_equal(read(ctx, plain), before)
        return
    ctx.resource_copy_region(plain, 0, 1, 1, 0, comp, 0, box)
    want = before.copy()
    want[0, 1:3, 8:24] = s[0, 0:2, 8:24]
    assert np.array_equal(read(ctx, plain), want)
    # and back: plain texels become blocks
    ctx.resource_copy_region(comp, 0, 8, 8, 0, plain, 0, Box(x=0, y=0, z=0, width=2, height=2, depth=1))
    want_c = s.copy()
    want_c[0, 2:4, 16:32] = want[0, 0:2, 0:16]
    assert np.array_equal(read(ctx, comp), want_c)


def test_overlap_in_one_texture_is_refused_and_changes_nothing(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 8, 8, 1, 2)
    before = fill(ctx, tex, seed=11)
    with pytest.raises(InvalidArgumentError, match="overlap"):
        ctx.resource_copy_region(tex, 0, 2, 2, 0, tex, 0, Box(x=0, y=0, z=0, width=4, height=4, depth=1))
    # disjoint: another layer of the same resource
    ctx.resource_copy_region(tex, 0, 2, 2, 1, tex, 0, Box(x=0, y=0, z=0, width=4, height=4, depth=1))
    want = _expect_copy(before, before, Box(x=0, y=0, z=0, width=4, height=4, depth=1), (2, 2, 1), 4)
    assert np.array_equal(read(ctx, tex), want)


def test_bad_arguments_are_refused_and_change_nothing(ctx, screen):
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    fill(ctx, src, seed=12)
    before = fill(ctx, dst, seed=13)
    box = Box(x=0, y=0, z=0, width=4, height=4, depth=1)
    bad = [
        (dst, 0, 6, 0, 0, src, 0, box),  # dst region past the edge
        (dst, 0, 0, 0, 0, src, 0, Box(x=6, y=0, z=0, width=4, height=4, depth=1)),  # src past the edge
        (dst, 1, 0, 0, 0, src, 0, box),  # no level 1
        (dst, 0, 0, 0, 1, src, 0, box),  # no layer 1
        (dst, 0, 0, 0, 0, src, 0, Box(x=0, y=0, z=0, width=-4, height=4, depth=1)),
        (dst, 0, 2**40, 0, 0, src, 0, box),
        (dst, 0, 0, 0, 0, "src", 0, box),
        (dst, 0, 0, 0, 0, src, 0, (0, 0, 0, 4, 4, 1)),
        (dst, 0, 0, 0, 0, buffer(screen, 64), 0, box),
        (make(screen, Target.TEXTURE_2D, Format.R8G8_UNORM, 8, 8), 0, 0, 0, 0, src, 0, box),  # 2 vs 4 bytes
    ]
    for args in bad:
        with pytest.raises(InvalidArgumentError):
            ctx.resource_copy_region(*args)
    assert np.array_equal(read(ctx, dst), before)


def test_msaa_to_msaa_with_equal_sample_counts(ctx, screen):
    if not screen.is_format_supported(Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 4, 4, 0x2):
        pytest.skip("no 4x MSAA render targets")
    from glpipe import SurfaceTemplate

    from .util_blits import side

    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8, samples=4)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8, samples=4)
    for res, colour in ((src, (1.0, 0.0, 0.0, 1.0)), (dst, (0.0, 0.0, 1.0, 1.0))):
        surf = ctx.create_surface(res, SurfaceTemplate(format=res.format))
        ctx.clear_render_target(surf, colour, 0, 0, 8, 8, False)
        ctx.surface_destroy(surf)
    ctx.resource_copy_region(dst, 0, 0, 0, 0, src, 0, Box(x=0, y=0, z=0, width=4, height=8, depth=1))
    single = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    with pytest.raises(InvalidArgumentError, match="sample"):
        ctx.resource_copy_region(single, 0, 0, 0, 0, src, 0, Box(x=0, y=0, z=0, width=4, height=8, depth=1))
    import glpipe

    ctx.blit(glpipe.BlitInfo(dst=side(single), src=side(dst), mask=glpipe.Mask.RGBA))
    px = read(ctx, single).reshape(8, 8, 4)
    assert (px[:, :4] == (255, 0, 0, 255)).all()
    assert (px[:, 4:] == (0, 0, 255, 255)).all()


def test_msaa_24_bit_depth_copy_needs_copy_image(ctx, screen):
    """GL blits depth through floats (24-bit unorm comes back rounded), so
    without glCopyImageSubData a multisampled Z24S8 copy is refused, not
    approximated; with it, the depth arrives exactly."""
    from glpipe import Clear, SurfaceTemplate

    fmt = Format.Z24_UNORM_S8_UINT
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, 4, 4, 0x1 | 0x8):
        pytest.skip("no sampled 4x MSAA Z24S8")
    src = make(screen, Target.TEXTURE_2D, fmt, 8, 8, samples=4)
    dst = make(screen, Target.TEXTURE_2D, fmt, 8, 8, samples=4)
    for res, z in ((src, 0.25), (dst, 0.75)):
        surf = ctx.create_surface(res, SurfaceTemplate(format=fmt))
        ctx.clear_depth_stencil(surf, Clear.DEPTHSTENCIL, z, 5, 0, 0, 8, 8, False)
        ctx.surface_destroy(surf)
    box = Box(x=0, y=0, z=0, width=8, height=4, depth=1)
    if not screen.profile.has("copy_image"):
        with pytest.raises(UnsupportedError, match="copy_image"):
            ctx.resource_copy_region(dst, 0, 0, 0, 0, src, 0, box)
        return
    ctx.resource_copy_region(dst, 0, 0, 0, 0, src, 0, box)
    import glpipe

    from .util_blits import side

    single = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    ctx.blit(glpipe.BlitInfo(dst=side(single), src=side(dst), mask=glpipe.Mask.Z))
    depth = read(ctx, single).view(np.uint32).reshape(8, 8) & 0xFFFFFF
    # unorm24 of 0.25 and 0.75 (both survive the resolve's float depth exactly)
    assert (depth[:4] == round(0.25 * 0xFFFFFF)).all() and (depth[4:] == round(0.75 * 0xFFFFFF)).all()
