"""Float depth outside [0, 1] written through transfers is what samplers see
(issue 12 item 7): Gallium stores Z32_FLOAT as bytes, so a texture_subdata
of 1.5 or -3 is sampled as 1.5 or -3, and compared as such (GL 4.5
§8.22.1: no clamping of D_t or D_ref for floating-point depth textures).

The texture is written by the code under test (texture_subdata) and read by
a draw; expected values come from the written floats and the compare
function's definition, never from glpipe.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Bind, Box, Format, Func, Map, Target, TexCompare, TexWrap

from .util_sampling import Sampling, bind_sampling, make_texture, nearest, tex_fs, view_2d

# Out of range both ways, far out, and in range.
_DEPTHS = np.array([1.5, -3.0, 7e30, 0.25], np.float32)


def _depth_texture(screen, ctx):
    tex = make_texture(screen, Target.TEXTURE_2D, Format.Z32_FLOAT, 4, 1, bind=Bind.SAMPLER_VIEW | Bind.DEPTH_STENCIL)
    ctx.texture_subdata(tex, 0, Map.WRITE, Box(x=0, y=0, z=0, width=4, height=1, depth=1), _DEPTHS, 16, 16)
    return tex


def test_sampler_reads_the_stored_float_depth(screen, ctx):
    """Without compare mode, .x of each texel is the float written, bit for bit."""
    tex = _depth_texture(screen, ctx)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 4, 1)
    img = S.draw(tex_fs(), (0.0, 0.5, 0, 1), (1.0, 0.5, 0, 1))
    np.testing.assert_array_equal(img[0, :, 0].view(np.uint32), _DEPTHS.view(np.uint32))


@pytest.mark.parametrize(("func", "ref"), [(Func.LEQUAL, 1.25), (Func.GREATER, -1.0), (Func.GEQUAL, 5e30)])
def test_shadow_compare_uses_the_stored_float_depth(screen, ctx, func, ref):
    """SHADOW2D compares the reference with the unclamped stored depth: a
    sampler that saw 1.0 for 1.5 or 0.0 for -3 would answer differently
    for these references."""
    tex = _depth_texture(screen, ctx)
    smp = ctx.create_sampler_state(
        nearest(
            compare_mode=TexCompare.R_TO_TEXTURE,
            compare_func=func,
            wrap_s=TexWrap.CLAMP_TO_EDGE,
            wrap_t=TexWrap.CLAMP_TO_EDGE,
        )
    )
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    S = Sampling(ctx, 4, 1)
    img = S.draw(tex_fs(target="SHADOW2D"), (0.0, 0.5, ref, 1.0), (1.0, 0.5, ref, 1.0))
    r = np.float32(ref)
    want = {Func.LEQUAL: r <= _DEPTHS, Func.GREATER: r > _DEPTHS, Func.GEQUAL: r >= _DEPTHS}[func]
    np.testing.assert_array_equal(img[0, :, 0], want.astype(np.float32))
