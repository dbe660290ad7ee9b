"""TG4 on cube maps on both profiles: the footprint across faces and corners.

GL 4.x section 8.14.2: textureGather returns the four texels LINEAR filtering
of the base level would read; on a cube map (section 8.13) the face is the
direction's major axis (Table 8.19 gives its s, t), and with
seamless_cube_map a footprint texel outside the face is taken from the
adjacent face -- the texel whose centre the direction through the outside
texel's centre points into.  A texel in a cube corner is the average of the
footprint's other three (section 8.13.1 leaves it open; llvmpipe's choice).
Without seamless_cube_map the footprint is clamped to the face.  Expected
texels are computed here from those geometric rules (numpy, float64
directions) and every picture is also compared, bit for bit, with the native
profile's textureGather.  The gl33 profile has no textureGather: there TG4 on
a cube is four lookups at texel centres (lowering/glsl/texture_gather_cube.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import get_screen

from glpipe import Format, Func, SamplerViewTemplate, Target, TexCompare, TexFilter, TexWrap
from glpipe.enums import Cap

from .test_texture_gather_gl33 import _on_native
from .util_sampling import Sampling, bind_sampling, make_texture, nearest, upload

F32 = Format.R32G32B32A32_FLOAT
N = 8  # face size
PIX = 16  # pixels across one face: u * N - 0.5 has fractions 0.25 / 0.75, never a tie
CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))  # GL's gather order: i0j1, i1j1, i1j0, i0j0

# Table 8.19: face -> (major axis, its sign, sc = sign_s * r[axis_s], tc = sign_t * r[axis_t])
FACES = (
    (0, 1, (-1, 2), (-1, 1)),  # +X: sc = -rz, tc = -ry
    (0, -1, (1, 2), (-1, 1)),  # -X: sc = +rz, tc = -ry
    (1, 1, (1, 0), (1, 2)),  # +Y: sc = +rx, tc = +rz
    (1, -1, (1, 0), (-1, 2)),  # -Y: sc = +rx, tc = -rz
    (2, 1, (1, 0), (-1, 1)),  # +Z: sc = +rx, tc = -ry
    (2, -1, (-1, 0), (-1, 1)),  # -Z: sc = -rx, tc = -ry
)

# (sampler view format, TGSI return type, GL upload format / type, numpy type of the texels)
KINDS = {
    "float": (F32, "FLOAT", "GL_RGBA", "GL_FLOAT", np.float32),
    "sint": (Format.R32G32B32A32_SINT, "SINT", "GL_RGBA_INTEGER", "GL_INT", np.int32),
    "uint": (Format.R32G32B32A32_UINT, "UINT", "GL_RGBA_INTEGER", "GL_UNSIGNED_INT", np.uint32),
}


def _texels(n=N):
    """(6, n, n, 4): channel c of texel (i, j) of face f = 1000 f + 100 c + 10 j + i."""
    f, j, i = np.mgrid[0:6, 0:n, 0:n].astype(np.float32)
    return np.stack([1000 * f + 100 * c + 10 * j + i for c in range(4)], -1).astype(np.float32)


def _direction(face, sc, tc):
    """The direction whose face is ``face`` with face coordinates sc, tc (in [-1, 1] on the face)."""
    axis, sign, (ss, sa), (ts, ta) = FACES[face]
    d = np.zeros(np.broadcast(sc, tc).shape + (3,))
    d[..., axis] = sign
    d[..., sa] = ss * sc
    d[..., ta] = ts * tc
    return d


def _select(d):
    """(face, s, t) of directions ``d`` (Table 8.19; GL leaves ties open: z wins over y,
    y over x, llvmpipe's rule as D3D10 asks)."""
    a = np.abs(d)
    axis = np.where(a[..., 2] >= np.maximum(a[..., 0], a[..., 1]), 2, np.where(a[..., 0] > a[..., 1], 0, 1))
    ma = np.take_along_axis(d, axis[..., None], -1)[..., 0]
    face = 2 * axis + (ma < 0)
    s = np.empty(d.shape[:-1])
    t = np.empty(d.shape[:-1])
    for f, (_axis, _sign, (ss, sa), (ts, ta)) in enumerate(FACES):
        m = face == f
        s[m] = 0.5 * (ss * d[..., sa][m] / np.abs(ma[m]) + 1)
        t[m] = 0.5 * (ts * d[..., ta][m] / np.abs(ma[m]) + 1)
    return face, s, t


def _texel(face, i, j, n=N):
    """(face, i, j) of footprint texel (i, j) of ``face`` under the seamless rule;
    i, j in [-1, n].  A corner texel (both outside) gives face -1."""
    out_i, out_j = (i < 0) | (i >= n), (j < 0) | (j >= n)
    d = _direction(face, 2 * (i + 0.5) / n - 1, 2 * (j + 0.5) / n - 1)
    f2, s, t = _select(d)
    i2 = np.clip(np.floor(s * n), 0, n - 1).astype(np.int64)
    j2 = np.clip(np.floor(t * n), 0, n - 1).astype(np.int64)
    inside = ~out_i & ~out_j
    f2 = np.where(inside, face, np.where(out_i & out_j, -1, f2))
    return f2, np.where(inside, i, i2), np.where(inside, j, j2)


def _footprint(n=N, pix=PIX):
    """(i0, j0) of every pixel of a face draw (see _draw) of ``pix`` pixels a side."""
    s = (np.arange(pix) + 0.5) / pix
    u = np.broadcast_to(s[None, :] * n - 0.5, (pix, pix))
    v = np.broadcast_to(s[:, None] * n - 0.5, (pix, pix))
    return np.floor(u).astype(np.int64), np.floor(v).astype(np.int64)


def _corner_fill(out, corner, integer=False):
    """A corner texel: the average of the footprint's three other texels (float32:
    summed in gather order, times float32(1/3)), or for integer texels, which have
    no average, the texel of the same column (i0j1 <-> i0j0, i1j1 <-> i1j0)."""
    out = out.copy()
    for k in range(4):
        if integer:
            other = out[..., 3 - k]
        else:
            m = [out[..., o].astype(np.float32) for o in range(4) if o != k]
            other = (m[0] + m[1] + m[2]) * np.float32(1 / 3)
        out[..., k] = np.where(corner[..., k], other, out[..., k])
    return out


def _expected(face, comp, corners=False, tex=None, n=N, integer=False, pix=PIX):
    """(PIX, PIX, 4) expected seamless gather of component ``comp`` over ``face``.
    A footprint texel in a cube corner (outside the face in both directions) has no
    single neighbour: NaN, or with ``corners`` the rule of ``_corner_fill`` -- what GL
    section 8.13.1 recommends for seamless filtering and llvmpipe does."""
    tex = _texels(n) if tex is None else tex
    i0, j0 = _footprint(n, pix)
    out = np.empty((pix, pix, 4), np.float64)
    corner = np.zeros((pix, pix, 4), bool)
    for k, (ci, cj) in enumerate(CORNERS):
        f, ii, jj = _texel(face, i0 + ci, j0 + cj, n)
        out[..., k] = tex[np.maximum(f, 0), jj, ii, comp]
        corner[..., k] = f < 0
    if not corners:
        return np.where(corner, np.nan, out)
    return _corner_fill(out, corner, integer)


def _expected_per_face(face, comp, tex=None, n=N, pix=PIX):
    """Without seamless_cube_map the footprint stays on ``face``, clamped to its edge
    whatever the wrap mode (llvmpipe: cube faces clamp to edge)."""
    tex = _texels(n) if tex is None else tex
    i0, j0 = _footprint(n, pix)
    out = np.empty((pix, pix, 4), np.float64)
    for k, (ci, cj) in enumerate(CORNERS):
        out[..., k] = tex[face, np.clip(j0 + cj, 0, n - 1), np.clip(i0 + ci, 0, n - 1), comp]
    return out


def _fs(face, comp, ret="FLOAT", scale=1.0, ref=None):
    """TG4 of component ``comp`` at the direction of ``face`` at (sc, tc) = IN[0].xy,
    the direction times ``scale``; with ``ref`` a SHADOWCUBE gather against it."""
    axis, sign, (ss, sa), (ts, ta) = FACES[face]
    neg = {1: "", -1: "-"}
    target = "CUBE" if ref is None else "SHADOWCUBE"
    reference = "" if ref is None else "  5: MOV TEMP[0].w, IMM[1].zzzz\n"
    return f"""FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], {target}, {ret}
DCL TEMP[0]
IMM[0] UINT32 {{0, 1, 2, 3}}
IMM[1] FLT32 {{{float(sign)}, 0.0, {0.0 if ref is None else float(ref)}, {float(scale)}}}
  0: MOV TEMP[0], IMM[1].yyyy
  1: MOV TEMP[0].{"xyz"[axis]}, IMM[1].xxxx
  2: MOV TEMP[0].{"xyz"[sa]}, {neg[ss]}IN[0].xxxx
  3: MOV TEMP[0].{"xyz"[ta]}, {neg[ts]}IN[0].yyyy
  4: MUL TEMP[0].xyz, TEMP[0], IMM[1].wwww
{reference}  6: TG4 OUT[0], TEMP[0], IMM[0].{"xyzw"[comp] * 4}, SAMP[0], {target}
  7: END
"""


def _cube(ctx, tex, kind="float"):
    """A cube sampler view holding ``tex`` (6, n, n, 4)."""
    fmt, _ret, gl_format, gl_type, dtype = KINDS[kind]
    s = ctx.screen
    n = tex.shape[1]
    res = make_texture(s, Target.TEXTURE_CUBE, fmt, n, n, array_size=6)
    for f in range(6):
        upload(s, res, 0, tex[f].astype(dtype), gl_format=gl_format, gl_type=gl_type, face=f)
    return ctx.create_sampler_view(res, SamplerViewTemplate(format=fmt, target=Target.TEXTURE_CUBE, last_layer=5))


def _draw(ctx, comp, seamless=True, filt=TexFilter.NEAREST, wrap=TexWrap.CLAMP_TO_EDGE, kind="float", n=N, scale=1.0):
    """{face: (PIX, PIX, 4) image} of TG4 component ``comp`` over each whole face
    (integer kinds: the image's words as that integer type)."""
    tex = _texels(n)
    view = _cube(ctx, tex, kind)
    sampler = nearest(
        wrap_s=wrap,
        wrap_t=wrap,
        wrap_r=wrap,
        min_img_filter=filt,
        mag_img_filter=filt,
        seamless_cube_map=seamless,
        border_color=(0.25, 0.5, 0.75, 1.0),
    )
    bind_sampling(ctx, view, ctx.create_sampler_state(sampler))
    S = Sampling(ctx, PIX, PIX)
    ret, dtype = KINDS[kind][1], KINDS[kind][4]
    out = {f: S.draw(_fs(f, comp, ret, scale), (-1, -1, 0, 0), (1, 1, 0, 0)) for f in range(6)}
    return {f: img if kind == "float" else img.view(dtype) for f, img in out.items()}


def _same(got, theirs, what):
    for f in range(6):
        np.testing.assert_array_equal(got[f], theirs[f], err_msg=f"face {f} {what}")


@pytest.mark.parametrize("filt", [TexFilter.NEAREST, TexFilter.LINEAR], ids=lambda f: f.name)
@pytest.mark.parametrize("comp", [0, 1, 2, 3])
def test_tg4_cube_seamless_footprint(screen, ctx, comp, filt):
    """Every face, footprints crossing every edge and every corner, components 0..3,
    both filters (a gather does not filter): the seamless rule against the model,
    corners included, and the same pixels as native's textureGather."""
    assert screen.get_param(Cap.MAX_TEXTURE_GATHER_COMPONENTS) == 4
    got = _draw(ctx, comp, True, filt)
    for f in range(6):
        np.testing.assert_array_equal(got[f], _expected(f, comp, corners=True), err_msg=f"face {f}")
    _same(got, _on_native(screen, lambda c: _draw(c, comp, True, filt)), "against native")


@pytest.mark.parametrize("wrap", [TexWrap.CLAMP_TO_EDGE, TexWrap.REPEAT, TexWrap.CLAMP_TO_BORDER], ids=lambda w: w.name)
def test_tg4_cube_seamless_ignores_wraps(screen, ctx, wrap):
    """With seamless_cube_map the wrap modes (border included) play no part."""
    got = _draw(ctx, 2, True, TexFilter.LINEAR, wrap)
    for f in range(6):
        np.testing.assert_array_equal(got[f], _expected(f, 2, corners=True), err_msg=f"face {f}")
    _same(got, _on_native(screen, lambda c: _draw(c, 2, True, TexFilter.LINEAR, wrap)), "against native")


@pytest.mark.parametrize(
    "wrap",
    [TexWrap.CLAMP_TO_EDGE, TexWrap.REPEAT, TexWrap.MIRROR_REPEAT, TexWrap.CLAMP_TO_BORDER],
    ids=lambda w: w.name,
)
def test_tg4_cube_per_face(screen, ctx, wrap):
    """Without seamless_cube_map the footprint is clamped to the face, whatever the wrap."""
    got = _draw(ctx, 1, False, TexFilter.NEAREST, wrap)
    for f in range(6):
        np.testing.assert_array_equal(got[f], _expected_per_face(f, 1), err_msg=f"face {f}")
    _same(got, _on_native(screen, lambda c: _draw(c, 1, False, TexFilter.NEAREST, wrap)), "against native")


@pytest.mark.parametrize("kind", ["sint", "uint"])
def test_tg4_cube_integer_texels(screen, ctx, kind):
    """Integer cubes: the same footprint; a corner takes the texel of its column."""
    for comp in (0, 3):
        got = _draw(ctx, comp, True, kind=kind)
        for f in range(6):
            exp = _expected(f, comp, corners=True, integer=True)
            np.testing.assert_array_equal(got[f], exp, err_msg=f"face {f} component {comp}")
        _same(got, _on_native(screen, lambda c, comp=comp: _draw(c, comp, True, kind=kind)), f"{kind} {comp}")


def test_tg4_cube_scaled_directions(screen, ctx):
    """The direction's length plays no part: s = sc / |ma| (section 8.13)."""
    got = _draw(ctx, 0, True, scale=3.0)
    for f in range(6):
        np.testing.assert_array_equal(got[f], _expected(f, 0, corners=True), err_msg=f"face {f}")
    _same(got, _on_native(screen, lambda c: _draw(c, 0, True, scale=3.0)), "against native")


def test_tg4_cube_npot_faces(screen, ctx):
    """6x6 faces.  NEAREST: exact on both profiles.  LINEAR: gl33 reads each texel at
    its centre through the bound sampler (GLSL 3.30 has no texelFetch on a cube), and
    the centre's face coordinate (2i + 1) / 12 is not exact in float, so the host's
    bilinear filter may blend a sliver of a neighbour in: llvmpipe's cube coordinates
    put it below 2^-16 of the texel's value here (docs/lowering.md states the limit);
    native's textureGather does not filter and is exact."""
    n = 6
    for filt in (TexFilter.NEAREST, TexFilter.LINEAR):
        got = _draw(ctx, 2, True, filt, n=n)
        exact = filt == TexFilter.NEAREST or screen.profile.has("texture_gather")
        for f in range(6):
            exp = _expected(f, 2, corners=True, n=n)
            if exact:
                np.testing.assert_array_equal(got[f], exp, err_msg=f"face {f} {filt.name}")
            else:
                np.testing.assert_allclose(got[f], exp, rtol=2.0**-16, atol=0, err_msg=f"face {f} {filt.name}")
        if exact:
            _same(got, _on_native(screen, lambda c, filt=filt: _draw(c, 2, True, filt, n=n)), "against native")


TIE_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBE, FLOAT
IMM[0] UINT32 {0, 1, 2, 3}
  0: TG4 OUT[0], IN[0], IMM[0].yyyy, SAMP[0], CUBE
  1: END
"""


def _draw_ties(ctx):
    view = _cube(ctx, _texels())
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest(seamless_cube_map=True)))
    S = Sampling(ctx, PIX, PIX)
    lo, hi = (-1, -1, -1, 0), (1, 1, 1, 0)  # direction (u, v, u): |x| == |z| everywhere
    return S.draw(TIE_FS, lo, hi), S.coords(lo, hi)


def test_tg4_cube_major_axis_ties(screen, ctx):
    """Directions (u, v, u): x and z tie on every pixel, all three on the diagonals.
    GL leaves the face of a tie open; native (llvmpipe) lets z win over y over x, and
    the gl33 form does the same: same pixels, and the model with that rule."""
    got, coords = _draw_ties(ctx)
    d = coords[..., :3].astype(np.float64)
    face, s, t = _select(d)
    i0 = np.floor(s * N - 0.5).astype(np.int64)
    j0 = np.floor(t * N - 0.5).astype(np.int64)
    tex = _texels()
    exp = np.empty(got.shape)
    corner = np.zeros(got.shape, bool)
    for f in range(6):
        m = face == f
        for k, (ci, cj) in enumerate(CORNERS):
            f2, ii, jj = _texel(f, i0[m] + ci, j0[m] + cj)
            exp[..., k][m] = tex[np.maximum(f2, 0), jj, ii, 1]
            corner[..., k][m] = f2 < 0
    exp = _corner_fill(exp, corner)
    assert set(np.unique(face)) >= {2, 3, 4, 5}  # y and z faces both reached
    np.testing.assert_array_equal(got, exp)
    theirs, _ = _on_native(screen, _draw_ties)
    np.testing.assert_array_equal(got, theirs)


# --- shadow gathers ----------------------------------------------------------


def _depth():
    """(6, N, N) depths: distinct, about half below the reference 0.5."""
    return np.random.default_rng(18).random((6, N, N)).astype(np.float32)


def _draw_shadow(ctx, seamless, func=Func.LEQUAL, ref=0.5, filt=TexFilter.LINEAR):
    s = ctx.screen
    res = make_texture(s, Target.TEXTURE_CUBE, Format.Z32_FLOAT, N, N, array_size=6)
    for f, d in enumerate(_depth()):
        upload(s, res, 0, d[..., None], gl_format="GL_DEPTH_COMPONENT", face=f)
    view = ctx.create_sampler_view(
        res, SamplerViewTemplate(format=Format.Z32_FLOAT, target=Target.TEXTURE_CUBE, last_layer=5)
    )
    sampler = nearest(
        min_img_filter=filt,
        mag_img_filter=filt,
        seamless_cube_map=seamless,
        compare_mode=TexCompare.R_TO_TEXTURE,
        compare_func=func,
    )
    bind_sampling(ctx, view, ctx.create_sampler_state(sampler))
    S = Sampling(ctx, PIX, PIX)
    return {f: S.draw(_fs(f, 0, ref=ref), (-1, -1, 0, 0), (1, 1, 0, 0)) for f in range(6)}


@pytest.mark.parametrize("seamless", [True, False], ids=["seamless", "per_face"])
@pytest.mark.parametrize("func", [Func.LEQUAL, Func.GREATER], ids=lambda f: f.name)
def test_tg4_shadow_cube(screen, ctx, seamless, func):
    """SHADOWCUBE TG4 compares each footprint texel with the reference (1 or 0); a
    seamless corner is the average of the three other comparisons."""
    got = _draw_shadow(ctx, seamless, func)
    passed = {Func.LEQUAL: lambda d: np.float32(0.5) <= d, Func.GREATER: lambda d: np.float32(0.5) > d}[func]
    cmp = passed(_depth()).astype(np.float32)[..., None]  # (6, N, N, 1): the comparison as texel
    for f in range(6):
        exp = _expected(f, 0, True, tex=cmp) if seamless else _expected_per_face(f, 0, tex=cmp)
        np.testing.assert_array_equal(got[f], exp.astype(np.float32), err_msg=f"face {f}")
    _same(got, _on_native(screen, lambda c: _draw_shadow(c, seamless, func)), "against native")


def test_native_cube_corners_and_per_face():
    """The native profile's corner rule and its non-seamless footprint, which the GLSL 3.30
    form reproduces: corners average the three other texels; without seamless the
    footprint is clamped to the face."""
    ctx = get_screen("native").context_create()
    try:
        seamless, per_face = _draw(ctx, 1, True), _draw(ctx, 1, False)
    finally:
        ctx.destroy()
    for f in range(6):
        np.testing.assert_array_equal(seamless[f], _expected(f, 1, corners=True), err_msg=f"face {f} seamless")
        np.testing.assert_array_equal(per_face[f], _expected_per_face(f, 1), err_msg=f"face {f} per face")
