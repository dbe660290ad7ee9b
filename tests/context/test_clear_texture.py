"""pipe_context::clear_texture and clear_buffer (context.rst "Clearing"):
the value is one texel (one block) of the resource's own format, or a
1- to 16-byte pattern repeated over a byte range.  Expected bytes: numpy
tiles of the value over the box / range."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Box, Cap, Format, SurfaceTemplate, Target
from glpipe.errors import InvalidArgumentError

from .util_blits import buffer, fill, make, read, read_buffer


def _expect(before, box, value):
    want = before.copy()
    n = len(value)
    h = max(box.height, 1)
    row = np.tile(np.frombuffer(value, np.uint8), box.width)
    want[box.z : box.z + box.depth, box.y : box.y + h, box.x * n : (box.x + box.width) * n] = row
    return want


@pytest.mark.parametrize(
    "fmt,value",
    [
        (Format.R8G8B8A8_UNORM, bytes([10, 20, 30, 40])),
        (Format.B8G8R8A8_UNORM, bytes([1, 2, 3, 4])),
        (Format.R32G32B32A32_FLOAT, np.array([0.5, -2.0, 1e10, 3.25], np.float32).tobytes()),
        (Format.R16_SINT, np.array([-1234], np.int16).tobytes()),
        (Format.R8_UNORM, bytes([77])),
        (Format.A8_UNORM, bytes([200])),
        (Format.L8A8_UNORM, bytes([9, 99])),
        (Format.R10G10B10A2_UNORM, np.array([0x12345678], np.uint32).tobytes()),
        (Format.R8G8B8A8_SRGB, bytes([5, 128, 250, 60])),
        (Format.Z24_UNORM_S8_UINT, np.array([0x7F123456], np.uint32).tobytes()),
        (Format.Z32_FLOAT, np.array([0.625], np.float32).tobytes()),
        (Format.Z16_UNORM, np.array([4321], np.uint16).tobytes()),
    ],
)
def test_every_format_class(ctx, screen, fmt, value):
    tex = make(screen, Target.TEXTURE_2D, fmt, 8, 8)
    if fmt in (Format.Z32_FLOAT,):
        before = fill(ctx, tex, data=np.zeros((1, 8, 32), np.uint8))
    else:
        before = fill(ctx, tex, seed=1)
    box = Box(x=2, y=1, z=0, width=5, height=6, depth=1)
    ctx.clear_texture(tex, 0, box, value)
    assert np.array_equal(read(ctx, tex), _expect(before, box, value))


@pytest.mark.parametrize(
    "target,w,h,d,layers,box",
    [
        (Target.TEXTURE_1D, 16, 1, 1, 1, Box(x=3, y=0, z=0, width=9, height=1, depth=1)),
        (Target.TEXTURE_1D_ARRAY, 16, 1, 1, 4, Box(x=3, y=0, z=1, width=9, height=1, depth=2)),
        (Target.TEXTURE_2D_ARRAY, 8, 8, 1, 4, Box(x=1, y=2, z=1, width=3, height=4, depth=3)),
        (Target.TEXTURE_3D, 8, 8, 4, 1, Box(x=0, y=0, z=2, width=8, height=8, depth=2)),
        (Target.TEXTURE_CUBE, 4, 4, 1, 6, Box(x=1, y=1, z=4, width=2, height=2, depth=2)),
    ],
)
def test_targets_layers_and_levels(ctx, screen, target, w, h, d, layers, box):
    tex = make(screen, target, Format.R16G16_UNORM, w, h, d, layers, last_level=1)
    before = fill(ctx, tex, 0, seed=2)
    lvl1 = fill(ctx, tex, 1, seed=3)
    value = bytes([1, 2, 3, 4])
    ctx.clear_texture(tex, 0, box, value)
    assert np.array_equal(read(ctx, tex, 0), _expect(before, box, value))
    assert np.array_equal(read(ctx, tex, 1), lvl1)


def test_compressed_blocks(ctx, screen):
    if not screen.is_format_supported(Format.DXT1_RGBA, Target.TEXTURE_2D, 0, 0, 0x8):
        pytest.skip("no DXT1 on this profile")
    tex = make(screen, Target.TEXTURE_2D, Format.DXT1_RGBA, 16, 16, bind=0x8)
    before = fill(ctx, tex, seed=4)
    block = bytes(range(8))
    ctx.clear_texture(tex, 0, Box(x=4, y=8, z=0, width=8, height=4, depth=1), block)
    want = before.copy()
    want[0, 2, 8:24] = np.tile(np.frombuffer(block, np.uint8), 2)
    assert np.array_equal(read(ctx, tex), want)


def test_msaa_texture(ctx, screen):
    if not screen.is_format_supported(Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 4, 4, 0x2):
        pytest.skip("no 4x MSAA")
    import glpipe

    from .util_blits import side

    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8, samples=4)
    surf = ctx.create_surface(tex, SurfaceTemplate(format=tex.format))
    ctx.clear_render_target(surf, (0.0, 0.0, 0.0, 0.0), 0, 0, 8, 8, False)
    ctx.clear_texture(tex, 0, Box(x=0, y=0, z=0, width=4, height=8, depth=1), bytes([255, 128, 0, 255]))
    out = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    ctx.blit(glpipe.BlitInfo(dst=side(out), src=side(tex), mask=glpipe.Mask.RGBA))
    px = read(ctx, out).reshape(8, 8, 4)
    assert (px[:, :4] == (255, 128, 0, 255)).all() and (px[:, 4:] == 0).all()


def test_clear_texture_refusals_change_nothing(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    before = fill(ctx, tex, seed=5)
    for args in [
        (tex, 0, Box(x=6, y=0, z=0, width=4, height=4, depth=1), bytes(4)),
        (tex, 1, Box(x=0, y=0, z=0, width=4, height=4, depth=1), bytes(4)),
        (tex, 0, Box(x=0, y=0, z=0, width=4, height=4, depth=1), bytes(3)),  # short of a texel
        (tex, 0, Box(x=0, y=0, z=0, width=4, height=4, depth=1), "abcd"),
        (buffer(screen, 16), 0, Box(x=0, width=4, height=1, depth=1), bytes(4)),
    ]:
        with pytest.raises(InvalidArgumentError):
            ctx.clear_texture(*args)
    assert np.array_equal(read(ctx, tex), before)


def test_cap(screen):
    assert screen.get_param(Cap.CLEAR_TEXTURE) == 1


@pytest.mark.parametrize("n", [1, 2, 4, 8, 12, 16])
def test_clear_buffer_patterns(ctx, screen, n):
    buf = buffer(screen, 256)
    before = np.random.default_rng(n).integers(0, 256, 256, dtype=np.uint8)
    ctx.buffer_subdata(buf, 0, 0, before)
    pattern = bytes(range(100, 100 + n))
    offset, size = 4 * n, 10 * n
    ctx.clear_buffer(buf, offset, size, pattern)
    want = before.copy()
    want[offset : offset + size] = np.tile(np.frombuffer(pattern, np.uint8), 10)
    assert np.array_equal(read_buffer(ctx, buf), want)


def test_clear_buffer_refusals_change_nothing(ctx, screen):
    buf = buffer(screen, 64)
    before = np.arange(64, dtype=np.uint8)
    ctx.buffer_subdata(buf, 0, 0, before)
    for args in [
        (buf, 2, 8, bytes(4)),  # offset not a multiple of the pattern
        (buf, 0, 6, bytes(4)),  # size not a multiple
        (buf, 60, 8, bytes(4)),  # past the end
        (buf, 0, 8, bytes(3)),  # no such pattern size
        (buf, 0, 8, bytes(0)),
        (buf, 0, 32, bytes(32)),
        (buf, -4, 8, bytes(4)),
        (buf, 0, 8, 1234),
        (make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4), 0, 8, bytes(4)),
    ]:
        with pytest.raises(InvalidArgumentError):
            ctx.clear_buffer(*args)
    assert np.array_equal(read_buffer(ctx, buf), before)
