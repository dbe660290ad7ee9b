"""generate_mipmap on the targets test_generate_mipmap.py leaves out: 1D
(a 2-texel box filter), 1D arrays and cube arrays (each layer / face its own
2x2 box), whole chains and a layer range; float texels, so the expected
means are exact.  Both profiles (cube arrays where the host has them)."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Bind, Format, Target

from .util_blits import fill, make, read

_F32 = Format.R32G32B32A32_FLOAT


def _vals(seed, *shape):
    return np.random.default_rng(seed).random(shape + (4,), np.float32)


def _put(ctx, tex, level, vals):
    fill(ctx, tex, level, data=vals.view(np.uint8).reshape(vals.shape[0], -1, vals.shape[-2] * 16))


def _get(ctx, tex, level, shape):
    return read(ctx, tex, level).view(np.float32).reshape(shape)


@pytest.mark.parametrize("layers", [1, 3])
def test_1d_and_1d_array(ctx, screen, layers):
    target = Target.TEXTURE_1D if layers == 1 else Target.TEXTURE_1D_ARRAY
    tex = make(screen, target, _F32, 16, 1, 1, layers, last_level=4)
    vals = _vals(50, layers, 16)
    _put(ctx, tex, 0, vals)
    assert ctx.generate_mipmap(tex, tex.format, 0, 4, 0, layers - 1) is True
    want = vals.astype(np.float64)
    for level in range(1, 5):
        want = (want[:, 0::2] + want[:, 1::2]) / 2
        assert np.allclose(_get(ctx, tex, level, want.shape), want, atol=1e-6), level


def test_1d_array_layer_range(ctx, screen):
    tex = make(screen, Target.TEXTURE_1D_ARRAY, _F32, 8, 1, 1, 4, last_level=3)
    vals = _vals(51, 4, 8)
    _put(ctx, tex, 0, vals)
    keep = _vals(52, 4, 4)
    _put(ctx, tex, 1, keep)
    assert ctx.generate_mipmap(tex, tex.format, 0, 1, 1, 2) is True
    got = _get(ctx, tex, 1, (4, 4, 4))
    want = (vals[:, 0::2].astype(np.float64) + vals[:, 1::2]) / 2
    assert np.array_equal(got[[0, 3]], keep[[0, 3]])
    assert np.allclose(got[1:3], want[1:3], atol=1e-6)


def test_cube_array_faces(ctx, screen):
    if not screen.is_format_supported(_F32, Target.TEXTURE_CUBE_ARRAY, 0, 0, Bind.SAMPLER_VIEW):
        pytest.skip("no cube map arrays on this profile")
    tex = make(screen, Target.TEXTURE_CUBE_ARRAY, _F32, 4, 4, 1, 12, last_level=2)
    vals = _vals(53, 12, 4, 4)
    _put(ctx, tex, 0, vals)
    assert ctx.generate_mipmap(tex, tex.format, 0, 2, 0, 11) is True
    want = vals.astype(np.float64)
    for level in (1, 2):
        want = (want[:, 0::2, 0::2] + want[:, 1::2, 0::2] + want[:, 0::2, 1::2] + want[:, 1::2, 1::2]) / 4
        assert np.allclose(_get(ctx, tex, level, want.shape), want, atol=1e-6), level
