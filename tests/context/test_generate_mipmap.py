"""pipe_context::generate_mipmap: levels base+1..last of layers
first..last replaced by the 2x2(x2) box filter of the level above
(context.rst "Mipmap generation"), False and nothing written for formats
that cannot be filtered.  Expected values: numpy, level by level."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Cap, Format, Target
from glpipe.errors import InvalidArgumentError

from .util_blits import fill, make, read


def _box2(a):
    """One level down: the mean of each 2x2 block of (layers, h, w, c)."""
    a = a.astype(np.float64)
    return (a[:, 0::2, 0::2] + a[:, 1::2, 0::2] + a[:, 0::2, 1::2] + a[:, 1::2, 1::2]) / 4


def _box3(a):
    a = a.astype(np.float64)
    s = 0
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                s = s + a[dz::2, dy::2, dx::2]
    return s / 8


def test_cap_is_one(screen):
    assert screen.get_param(Cap.GENERATE_MIPMAP) == 1


def test_2d_rgba8_levels(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16, last_level=4)
    fill(ctx, tex, 0, seed=1)
    assert ctx.generate_mipmap(tex, tex.format, 0, 4, 0, 0) is True
    assert ctx.mipmap_part.last_path == "glGenerateMipmap"
    for level in range(1, 5):
        # The spec's source is the level above as stored: each texel is the
        # mean of its 2x2 block there, within 1 LSB (GL filters 8-bit texels
        # in fixed point: llvmpipe's glGenerateMipmap rounds a mean of x.0 up).
        n = 16 >> level
        above = read(ctx, tex, level - 1).reshape(1, 2 * n, 2 * n, 4)
        got = read(ctx, tex, level).reshape(1, n, n, 4)
        assert np.abs(got - _box2(above)).max() <= 1, level


def test_float_levels_from_a_base_level(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 8, 8, last_level=3)
    fill(ctx, tex, 0, seed=2)  # level 0 stays out of it
    vals = np.random.default_rng(3).random((1, 4, 4, 4), np.float32)
    fill(ctx, tex, 1, data=vals.view(np.uint8).reshape(1, 4, -1))
    level0 = read(ctx, tex, 0)
    assert ctx.generate_mipmap(tex, tex.format, 1, 3, 0, 0) is True
    want = vals
    for level in (2, 3):
        want = _box2(want)
        got = read(ctx, tex, level).view(np.float32).reshape(want.shape)
        assert np.allclose(got, want, atol=1e-6)
    assert np.array_equal(read(ctx, tex, 0), level0)


def test_array_layers_outside_the_range_are_untouched(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 8, 8, 1, 3, last_level=3)
    base = fill(ctx, tex, 0, seed=4).reshape(3, 8, 8, 4)
    lvl1 = fill(ctx, tex, 1, seed=5).reshape(3, 4, 4, 4)
    assert ctx.generate_mipmap(tex, tex.format, 0, 1, 1, 2) is True
    assert ctx.mipmap_part.last_path == "blit"  # glGenerateMipmap would filter layer 0 too
    got = read(ctx, tex, 1).reshape(3, 4, 4, 4)
    assert np.array_equal(got[0], lvl1[0])
    assert np.abs(got[1:] - np.rint(_box2(base[1:]))).max() <= 1


def test_cube_faces(ctx, screen):
    tex = make(screen, Target.TEXTURE_CUBE, Format.R8G8B8A8_UNORM, 4, 4, 1, 6, last_level=2)
    base = fill(ctx, tex, 0, seed=6).reshape(6, 4, 4, 4)
    assert ctx.generate_mipmap(tex, tex.format, 0, 2, 0, 5) is True
    want1 = _box2(base)
    assert np.abs(read(ctx, tex, 1).reshape(6, 2, 2, 4) - np.rint(want1)).max() <= 1
    assert np.abs(read(ctx, tex, 2).reshape(6, 1, 1, 4) - np.rint(_box2(want1))).max() <= 2


def test_3d_is_a_2x2x2_box(ctx, screen):
    tex = make(screen, Target.TEXTURE_3D, Format.R32_FLOAT, 4, 4, 4, last_level=2)
    vals = np.random.default_rng(7).random((4, 4, 4, 1), np.float32)
    fill(ctx, tex, 0, data=vals.view(np.uint8).reshape(4, 4, -1))
    assert ctx.generate_mipmap(tex, tex.format, 0, 2, 0, 0) is True
    want1 = _box3(vals)
    assert np.allclose(read(ctx, tex, 1).view(np.float32).reshape(2, 2, 2, 1), want1, atol=1e-6)
    assert np.allclose(read(ctx, tex, 2).view(np.float32).reshape(1, 1, 1, 1), _box3(want1), atol=1e-6)


def test_srgb_filters_in_linear_space(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_SRGB, 2, 2, last_level=1)
    base = np.array([[0, 0, 0, 0], [255, 255, 255, 255], [0, 0, 0, 0], [255, 255, 255, 255]], np.uint8)
    fill(ctx, tex, 0, data=base.reshape(1, 2, 8))
    assert ctx.generate_mipmap(tex, tex.format, 0, 1, 0, 0) is True
    got = read(ctx, tex, 1).reshape(4)
    # mean of linear 0 and 1 is 0.5, encoded: 188; alpha is linear: 128
    assert abs(int(got[0]) - 188) <= 1 and abs(int(got[3]) - 128) <= 1


@pytest.mark.parametrize("fmt", [Format.R8G8B8A8_UINT, Format.R32_SINT, Format.Z24_UNORM_S8_UINT])
def test_unfilterable_formats_return_false_and_write_nothing(ctx, screen, fmt):
    tex = make(screen, Target.TEXTURE_2D, fmt, 4, 4, last_level=2)
    fill(ctx, tex, 0, seed=8)
    lvl1 = fill(ctx, tex, 1, seed=9)
    assert ctx.generate_mipmap(tex, fmt, 0, 2, 0, 0) is False
    assert np.array_equal(read(ctx, tex, 1), lvl1)


def test_bad_arguments(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4, last_level=2)
    for args in [
        (tex, tex.format, 0, 3, 0, 0),  # past last_level
        (tex, tex.format, 2, 1, 0, 0),  # base after last
        (tex, tex.format, 0, 2, 0, 1),  # no layer 1
        (tex, tex.format, -1, 2, 0, 0),
        (tex, Format.R16_UNORM, 0, 2, 0, 0),  # not a view of RGBA8
        ("tex", tex.format, 0, 2, 0, 0),
    ]:
        with pytest.raises(InvalidArgumentError):
            ctx.generate_mipmap(*args)
