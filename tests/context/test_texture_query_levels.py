"""TXQ / SVIEWINFO .w, the number of mip levels of the bound view, on both profiles.

textureQueryLevels is GLSL 4.30; on the gl33 profile the context writes each
bound view's level count (last_level - first_level + 1, tgsi.rst TXQ / GL's
"levels accessible through the view") into the sysvals block when the view
is bound (glpipe/sampler_views.py), and the lowering reads it
(lowering/glsl/texture_emul.py).  The expected counts are the views'
templates, by hand; the native profile's textureQueryLevels gives the same.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from glpipe import Format, SamplerViewTemplate, ShaderType, Target

from .util_caps import draw
from .util_sampling import make_texture, nearest

F32 = Format.R32G32B32A32_FLOAT

# Slots 0..3: 2D, CUBE, 3D, 2D_ARRAY; OUT = (levels of each) as floats.
LEVELS_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0..3]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], CUBE, FLOAT
DCL SVIEW[2], 3D, FLOAT
DCL SVIEW[3], 2D_ARRAY, FLOAT
DCL TEMP[0..1]
IMM[0] INT32 {0, 0, 0, 0}
  0: TXQ TEMP[1].w, IMM[0].xxxx, SAMP[0], 2D
  1: MOV TEMP[0].x, TEMP[1].wwww
  2: TXQ TEMP[1].w, IMM[0].xxxx, SAMP[1], CUBE
  3: MOV TEMP[0].y, TEMP[1].wwww
  4: TXQ TEMP[1].w, IMM[0].xxxx, SAMP[2], 3D
  5: MOV TEMP[0].z, TEMP[1].wwww
  6: SVIEWINFO TEMP[1].w, IMM[0].xxxx, SVIEW[3]
  7: MOV TEMP[0].w, TEMP[1].wwww
  8: I2F OUT[0], TEMP[0]
  9: END
"""


def _views(ctx, screen, ranges):
    """Views of a 16^2 2D (5 levels), 8^2 cube (4), 8^3 3D (4), 8^2 x 3 array (4)
    over the level ranges ``ranges`` ((first, last) per slot)."""
    specs = [
        (Target.TEXTURE_2D, dict(width=16, height=16, last_level=4)),
        (Target.TEXTURE_CUBE, dict(width=8, height=8, array_size=6, last_level=3)),
        (Target.TEXTURE_3D, dict(width=8, height=8, depth=8, last_level=3)),
        (Target.TEXTURE_2D_ARRAY, dict(width=8, height=8, array_size=3, last_level=3)),
    ]
    views = []
    for (target, kw), (first, last) in zip(specs, ranges, strict=False):  # the first len(ranges) targets
        res = make_texture(screen, target, F32, **kw)
        views.append(
            ctx.create_sampler_view(
                res,
                SamplerViewTemplate(
                    format=F32, target=target, first_level=first, last_level=last, last_layer=res.array_size - 1
                ),
            )
        )
    return views


def _bind(ctx, views, stage=ShaderType.FRAGMENT):
    ctx.set_sampler_views(stage, 0, views)
    ctx.bind_sampler_states(stage, 0, [ctx.create_sampler_state(nearest())] * len(views))


def test_txq_levels_of_bound_views(screen, ctx):
    """Whole chains, then sub-ranges bound in their place: the counts follow the binds."""
    full = _views(ctx, screen, [(0, 4), (0, 3), (0, 3), (0, 3)])
    _bind(ctx, full)
    assert list(draw(ctx, LEVELS_FS)[0, 0]) == [5, 4, 4, 4]
    # (3D views of part of the chain are refused by the native host: GL_INVALID_VALUE from glTextureView)
    part = _views(ctx, screen, [(1, 3), (2, 2), (0, 3), (3, 3)])
    _bind(ctx, part)
    assert list(draw(ctx, LEVELS_FS)[0, 0]) == [3, 1, 4, 1]
    # one slot rebound alone (the one-view bind path)
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [full[0]])
    assert list(draw(ctx, LEVELS_FS)[0, 0]) == [5, 1, 4, 1]


VS_LEVELS = """VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL SAMP[1]
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0]
IMM[0] INT32 {0, 0, 0, 0}
  0: MOV OUT[0], IN[0]
  1: TXQ TEMP[0].w, IMM[0].xxxx, SAMP[1], 2D
  2: I2F OUT[1], TEMP[0].wwww
  3: END
"""

FS_GENERIC = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def test_txq_levels_per_stage(screen, ctx):
    """The same slot in two stages holds different views: each stage reads its own."""
    a = _views(ctx, screen, [(0, 4)] * 1)[0]
    b = _views(ctx, screen, [(2, 3)] * 1)[0]
    ctx.set_sampler_views(ShaderType.FRAGMENT, 1, [a])
    ctx.set_sampler_views(ShaderType.VERTEX, 1, [b])
    ctx.bind_sampler_states(ShaderType.VERTEX, 1, [ctx.create_sampler_state(nearest())])
    assert list(draw(ctx, FS_GENERIC, vs=VS_LEVELS)[0, 0]) == [2, 2, 2, 2]


def test_corpus_tex_query_levels_gl33_equals_native(screen, ctx):
    """tex_query.frag (Mesa's TXQ of sizes and levels; its LODQ lines left out, see
    test_texture_lod_query.py): this profile's pixels equal the native profile's."""
    from conftest import get_screen

    path = Path(__file__).parent.parent / "lowering" / "corpus" / "tgsi" / "tex_query.frag.tgsi"
    fs = "\n".join(line for line in path.read_text().split("\n") if "LODQ" not in line)

    def run(c):
        s = c.screen
        views = []
        for target, kw, last in [
            (Target.TEXTURE_2D, dict(width=16, height=8, last_level=3), 2),
            (Target.TEXTURE_3D, dict(width=8, height=8, depth=4, last_level=2), 2),
            (Target.TEXTURE_CUBE, dict(width=8, height=8, array_size=6, last_level=3), 1),
            (Target.TEXTURE_2D_ARRAY, dict(width=4, height=4, array_size=5, last_level=2), 2),
            (Target.TEXTURE_1D, dict(width=32, last_level=5), 5),
        ]:
            res = make_texture(s, target, F32, **kw)
            views.append(
                c.create_sampler_view(
                    res,
                    SamplerViewTemplate(
                        format=F32, target=target, first_level=0, last_level=last, last_layer=res.array_size - 1
                    ),
                )
            )
        _bind(c, views)
        return draw(c, fs)

    ours = run(ctx)
    native = get_screen("native")
    nctx = native.context_create()
    try:
        theirs = run(nctx)
    finally:
        nctx.destroy()
        get_screen(screen.profile.name)
    # 2D: (16+16, 8+8) at level CONST 0 (unbound: 0); 3D width at level 2 + array layers + 1D width;
    # levels 2D 3 + cube 2 + 3D 3 = 8
    assert list(ours[0, 0]) == [32, 16, 2 + 5 + 32, 8]
    np.testing.assert_array_equal(ours, theirs)


def test_stage_numbers_match_gallium():
    """The lowering's stage numbering of sysvals.view_levels is PIPE_SHADER_*'s (glpipe.ShaderType)."""
    from lowering.glsl.sysval_block import STAGE_NUMBER

    names = {
        "VERT": "VERTEX",
        "TESS_CTRL": "TESS_CTRL",
        "TESS_EVAL": "TESS_EVAL",
        "GEOM": "GEOMETRY",
        "FRAG": "FRAGMENT",
        "COMP": "COMPUTE",
    }
    assert {p: int(ShaderType[n]) for p, n in names.items()} == STAGE_NUMBER
