"""Gathers on both profiles: the caps, the sampler state a cube gather follows, the
level it reads, and GATHER4.

The gl33 profile has no textureGather; TG4 and GATHER4 are lookups there
(lowering/glsl/texture_emul.py, texture_gather_cube.py), with a cube's
seamless_cube_map read from the sysvals block, so the caps that promise
gathers (MAX_TEXTURE_GATHER_COMPONENTS, TEXTURE_GATHER_SM5,
TEXTURE_GATHER_OFFSETS, MIN/MAX_TEXTURE_GATHER_OFFSET) hold on both.  Expected
texels come from the GL model of tests/context/test_texture_gather_cube.py and
every picture is compared with the native profile's.
"""

from __future__ import annotations

import numpy as np

from glpipe import ConstantBuffer, SamplerViewTemplate, ShaderType, Target, TexFilter, TexMipFilter
from glpipe.enums import Cap

from .test_texture_gather_cube import (
    F32,
    FACES,
    PIX,
    N,
    _cube,
    _expected,
    _expected_per_face,
    _fs,
    _same,
    _texels,
)
from .test_texture_gather_gl33 import _on_native
from .util_sampling import Sampling, make_texture, nearest, upload


def test_gather_caps_on_every_profile(screen):
    """Both profiles gather 4 components with the SM5 forms and four offsets, in the
    offset range llvmpipe offers natively ([-32, 31]; GL 4.0 asks for [-8, 7])."""
    assert screen.get_param(Cap.MAX_TEXTURE_GATHER_COMPONENTS) == 4
    assert screen.get_param(Cap.TEXTURE_GATHER_SM5) == 1
    assert screen.get_param(Cap.TEXTURE_GATHER_OFFSETS) == 1
    lo, hi = screen.get_param(Cap.MIN_TEXTURE_GATHER_OFFSET), screen.get_param(Cap.MAX_TEXTURE_GATHER_OFFSET)
    assert lo <= -8 and hi >= 7
    assert (lo, hi) == (-32, 31)


def _two_slot_fs(face):
    """TG4 component 0 at ``face``'s directions through SVIEW[1] / SAMP[1]."""
    return (
        _fs(face, 0)
        .replace("DCL SAMP[0]", "DCL SAMP[0]\nDCL SAMP[1]")
        .replace("DCL SVIEW[0], CUBE, FLOAT", "DCL SVIEW[0], CUBE, FLOAT\nDCL SVIEW[1], CUBE, FLOAT")
        .replace("SAMP[0], CUBE\n", "SAMP[1], CUBE\n")
    )


def _rebinds(ctx):
    """The same shaders under samplers that switch seamless_cube_map on slot 1 (slot 0
    holds the opposite): {(round, face): image}."""
    view = _cube(ctx, _texels())
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view, view])
    on = ctx.create_sampler_state(nearest(seamless_cube_map=True))
    off = ctx.create_sampler_state(nearest(seamless_cube_map=False))
    S = Sampling(ctx, PIX, PIX)
    out = {}
    for k, pair in enumerate(([off, on], [on, off], [off, on])):
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, pair)
        for f in range(6):
            out[(k, f)] = S.draw(_two_slot_fs(f), (-1, -1, 0, 0), (1, 1, 0, 0))
    return out


def test_cube_gather_follows_the_bound_samplers_seamless_bit(screen, ctx):
    """Rebinding a sampler with the other seamless_cube_map changes a cube gather's
    footprint (gl33: a sysvals word per sampler slot, no new shader variant); the
    slot sampled is the one read, not its neighbour."""
    got = _rebinds(ctx)
    for (k, f), img in got.items():
        seamless = k != 1  # slot 1 is "on" in rounds 0 and 2
        exp = _expected(f, 0, corners=True) if seamless else _expected_per_face(f, 0)
        np.testing.assert_array_equal(img, exp, err_msg=f"round {k} face {f}")
    theirs = _on_native(screen, _rebinds)
    for key, img in got.items():
        np.testing.assert_array_equal(img, theirs[key], err_msg=f"{key} against native")


def _mip_case(ctx, first_level, pix):
    """A two-level cube (8^2 then 4^2, the second + 50000), minified to ``pix`` pixels
    a face under a NEAREST-mipmapped sampler; the view starts at ``first_level``."""
    s = ctx.screen
    res = make_texture(s, Target.TEXTURE_CUBE, F32, N, N, array_size=6, last_level=1)
    for level, tex in enumerate((_texels(N), _texels(N // 2) + 50000)):
        for f in range(6):
            upload(s, res, level, tex[f], face=f)
    view = ctx.create_sampler_view(
        res,
        SamplerViewTemplate(
            format=F32, target=Target.TEXTURE_CUBE, first_level=first_level, last_level=1, last_layer=5
        ),
    )
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    sampler = nearest(
        seamless_cube_map=True,
        min_img_filter=TexFilter.LINEAR,
        mag_img_filter=TexFilter.LINEAR,
        min_mip_filter=TexMipFilter.NEAREST,
    )
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(sampler)])
    S = Sampling(ctx, pix, pix)
    return {f: S.draw(_fs(f, 3), (-1, -1, 0, 0), (1, 1, 0, 0)) for f in range(6)}


def test_cube_gather_reads_the_views_base_level(screen, ctx):
    """textureGather reads the base level of the view whatever the derivatives
    (GL 4.x section 8.14.2): a minified draw still gathers level 0; a view from
    level 1 gathers level 1."""
    for first_level, n, offset in ((0, N, 0), (1, N // 2, 50000)):
        got = _mip_case(ctx, first_level, 4)
        for f in range(6):
            exp = _expected(f, 3, corners=True, tex=_texels(n) + offset, n=n, pix=4)
            np.testing.assert_array_equal(got[f], exp, err_msg=f"first_level {first_level} face {f}")
        theirs = _on_native(screen, lambda c, fl=first_level: _mip_case(c, fl, 4))
        _same(got, theirs, f"first_level {first_level} against native")


GATHER4_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBE, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {{{sign}, 0.0, 0.0, 0.0}}
  0: MOV TEMP[0], IMM[0].yyyy
  1: MOV TEMP[0].{axis}, IMM[0].xxxx
  2: MOV TEMP[0].{sa}, {ns}IN[0].xxxx
  3: MOV TEMP[0].{ta}, {nt}IN[0].yyyy
  4: GATHER4 OUT[0], TEMP[0], SVIEW[0].wzyx, SAMP[0]
  5: END
"""


def _gather4(ctx):
    view = _cube(ctx, _texels())
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(nearest(seamless_cube_map=True))])
    S = Sampling(ctx, PIX, PIX)
    out = {}
    for f, (axis, sign, (ss, sa), (ts, ta)) in enumerate(FACES):
        fs = GATHER4_FS.format(
            sign=float(sign),
            axis="xyz"[axis],
            sa="xyz"[sa],
            ta="xyz"[ta],
            ns="-" if ss < 0 else "",
            nt="-" if ts < 0 else "",
        )
        out[f] = S.draw(fs, (-1, -1, 0, 0), (1, 1, 0, 0))
    return out


def test_gather4_on_a_cube(screen, ctx):
    """GATHER4 (the SAMPLE family's gather) on a cube: red of the four footprint
    texels, seamless, then the SVIEW operand's swizzle (.wzyx reverses them)."""
    got = _gather4(ctx)
    for f in range(6):
        exp = _expected(f, 0, corners=True)[..., ::-1]
        np.testing.assert_array_equal(got[f], exp, err_msg=f"face {f}")
    _same(got, _on_native(screen, _gather4), "against native")


def _indexed_fs(face):
    """TG4 at ``face``'s directions through SVIEW / SAMP[ADDR[0].x], the index from CONST[0][0].x."""
    fs = _fs(face, 0).replace("DCL SAMP[0]\n", "DCL SAMP[0..1]\n")
    fs = fs.replace("DCL SVIEW[0], CUBE, FLOAT\n", "DCL SVIEW[0..1], CUBE, FLOAT\nDCL CONST[0][0]\nDCL ADDR[0]\n")
    fs = fs.replace("  6: TG4", "  5: UARL ADDR[0].x, CONST[0][0].xxxx\n  6: TG4")
    return fs.replace("SAMP[0], CUBE\n", "SAMP[ADDR[0].x], CUBE\n")


def _indexed(ctx):
    """{(index, face): image}: slot 0 without seamless_cube_map, slot 1 with it."""
    view = _cube(ctx, _texels())
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view, view])
    off = ctx.create_sampler_state(nearest(seamless_cube_map=False))
    on = ctx.create_sampler_state(nearest(seamless_cube_map=True))
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [off, on])
    S = Sampling(ctx, PIX, PIX)
    out = {}
    for index in (0, 1, 0):
        ctx.set_constant_buffer(
            ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array([index, 0, 0, 0], np.uint32))
        )
        for f in range(6):
            out[(index, f)] = S.draw(_indexed_fs(f), (-1, -1, 0, 0), (1, 1, 0, 0))
    return out


def test_indexed_cube_gather_reads_its_elements_seamless_bit(screen, ctx):
    """SAMP[ADDR[0].x]: the element's sampler decides the footprint (gl33: the element's
    sysvals word through a constant table of the range's slots)."""
    got = _indexed(ctx)
    for (index, f), img in got.items():
        exp = _expected(f, 0, corners=True) if index == 1 else _expected_per_face(f, 0)
        np.testing.assert_array_equal(img, exp, err_msg=f"index {index} face {f}")
    theirs = _on_native(screen, _indexed)
    for key, img in got.items():
        np.testing.assert_array_equal(img, theirs[key], err_msg=f"{key} against native")
