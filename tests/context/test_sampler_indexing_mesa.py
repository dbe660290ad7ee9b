"""Indexed samplers as Mesa's GL frontend emits them (issue 10 item 2).

The FS is the corpus file ``tex_sampler_array.frag.tgsi``, unmodified:
st/mesa's TGSI for ``uniform sampler2D u_texs[4]`` read at
``u_texs[u_which]`` and ``u_texs[(u_which + 1) & 3]`` (one-by-one ``DCL
SAMP[n]`` / ``DCL SVIEW[n]``, ``UARL ADDR[2].x`` then ``SAMP[ADDR[2].x]``),
drawn through the pipe with four textures of different colours.  Each
texture has two levels of one colour each, so the expected pixel follows
from the GLSL source alone: ``tex[w] level 0 + tex[3] level 0 + tex[(w + 1)
& 3] level 1`` (textureLod 1.0), w = ``u_which`` (CONST[0][0].x).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from glpipe import ConstantBuffer, Format, SamplerViewTemplate, ShaderType, Target, TexMipFilter

from .util_sampling import Sampling, make_texture, nearest, upload

CORPUS = Path(__file__).resolve().parents[1] / "lowering" / "corpus" / "tgsi"
FS = (CORPUS / "tex_sampler_array.frag.tgsi").read_text()

SIZE = 4
# texture n, level `level`: a colour no sum of two others can fake (powers of two per texture).
COLORS = np.array(
    [[[2.0 ** (2 * n + level) / 256, 0.25 * level, 0.125 * n, 1.0] for level in range(2)] for n in range(4)], np.float32
)


def _textures(ctx):
    screen = ctx.screen
    views = []
    for n in range(4):
        res = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, SIZE, SIZE, last_level=1)
        for level in range(2):
            side = SIZE >> level
            upload(screen, res, level, np.broadcast_to(COLORS[n, level], (side, side, 4)).copy())
        views.append(
            ctx.create_sampler_view(
                res,
                SamplerViewTemplate(
                    format=Format.R32G32B32A32_FLOAT, target=Target.TEXTURE_2D, first_level=0, last_level=1
                ),
            )
        )
    return views


@pytest.mark.parametrize("which", [0, 1, 2, 3])
def test_mesa_sampler_array_selects_by_uniform(screen, ctx, which):
    S = Sampling(ctx, 2, 2)
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, _textures(ctx))
    smp = ctx.create_sampler_state(nearest(min_mip_filter=TexMipFilter.NEAREST, max_lod=1000.0))
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [smp] * 4)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array([which, 0, 0, 0], np.uint32)))
    # GENERIC[0] from 0.25 to 0.375 over 2 pixels: even at v_uv * 2.0 half a texel a
    # pixel, so the implicit-LOD lookups read level 0.
    got = S.draw(FS, (0.25, 0.25, 0.0, 0.0), (0.375, 0.375, 0.0, 0.0))
    want = COLORS[which, 0] + COLORS[3, 0] + COLORS[(which + 1) & 3, 1]
    np.testing.assert_allclose(got, np.broadcast_to(want, got.shape), rtol=0, atol=1e-6)
