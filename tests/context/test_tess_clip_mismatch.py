"""A TCS and a TES that disagree on clip / cull distances (fuzz seed 2000966).

Gallium lets a TES read a CLIPDIST input its TCS never writes (Mesa's
software drivers read zeros) and lets a TCS write CLIPDIST outputs its TES
never reads; either may also use more CLIPDIST components than the other.
GLSL links a TCS and a TES only when their gl_PerVertex blocks agree on the
gl_ClipDistance / gl_CullDistance sizes, so each pair below used to fail at
draw with "the host could not link" ("definitions of interface block
gl_PerVertex do not match").

Each test draws the triangle of test_clip_cull_distance.py through a
pass-through VS, the TCS and the TES (tessellation levels 1: one triangle)
and checks by what is drawn: the clip distances the TES writes clip where
their clip_plane_enable bit is set, a cull distance negative at every vertex
culls, an FS reading CLIPDIST[0] gets the TES's values, and a CLIPDIST input
the TCS does not write reads 0.0.  Expectations are hand-derived (barycentric
interpolation in window space with w = 1).  Tessellation is native only: on
the gl33 profile creating the TCS is refused, which is checked instead.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Format, ShaderState, VertexElement
from glpipe.errors import UnsupportedError

from .test_clip_cull_distance import (
    ALL_NEGATIVE,
    CLIP_VALUES,
    SOME_NEGATIVE,
    WHITE_FS,
    _barycentric,
    _check_whole,
    _draw,
    _fs_reading,
    _interpolated,
    _pass_vs,
    _props,
)
from .util_draw import lit, setup
from .util_raster import rast

ELEMENTS = [
    VertexElement(src_offset=16 * i, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT) for i in range(2)
]


def tcs(props: str = "", clipdist: tuple[int, ...] = (), value: str = "IN[ADDR[0].x][1]") -> str:
    """TCS: POSITION and GENERIC[0] passed through, levels 1; CLIPDIST[r] = ``value`` for each r in ``clipdist``."""
    decls = "".join(f"DCL OUT[][{3 + k}], CLIPDIST[{r}]\n" for k, r in enumerate(clipdist))
    body = [
        "UARL ADDR[0].x, SV[0].xxxx",
        "MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]",
        "MOV OUT[ADDR[0].x][1], IN[ADDR[0].x][1]",
    ]
    body += [f"MOV OUT[ADDR[0].x][{3 + k}], {value}" for k in range(len(clipdist))]
    body += ["MOV OUT[2], IMM[0]", "MOV OUT[5], IMM[0]", "END"]
    return (
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\n"
        + props
        + "DCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\nDCL SV[0], INVOCATIONID\n"
        "DCL OUT[][0], POSITION\nDCL OUT[][1], GENERIC[0]\nDCL OUT[2], TESSOUTER\nDCL OUT[5], TESSINNER\n"
        + decls
        + "DCL ADDR[0]\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\nIMM[1] FLT32 {-1.0, -1.0, -1.0, -1.0}\n"
        + "".join(f"  {i}: {line}\n" for i, line in enumerate(body))
    )


def tes(props: str = "", read: int | None = None) -> str:
    """TES: POSITION and OUT CLIPDIST[0] interpolated with TESSCOORD from the
    patch's POSITION and GENERIC[0]; with ``read`` = r, plus its CLIPDIST[r]
    input, interpolated the same way."""
    decl_in = f"DCL IN[][2], CLIPDIST[{read}]\n" if read is not None else ""
    regs = (0, 1) if read is None else (0, 1, 2)
    lines = []
    for reg in regs:
        lines += [
            f"MUL TEMP[{reg}], SV[0].xxxx, IN[0][{reg}]",
            f"MAD TEMP[{reg}], SV[0].yyyy, IN[1][{reg}], TEMP[{reg}]",
            f"MAD TEMP[{reg}], SV[0].zzzz, IN[2][{reg}], TEMP[{reg}]",
        ]
    if read is not None:
        lines.append("ADD TEMP[1], TEMP[1], TEMP[2]")
    lines += ["MOV OUT[0], TEMP[0]", "MOV OUT[1], TEMP[1]", "END"]
    return (
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 0\nPROPERTY TES_VERTEX_ORDER_CW 0\n"
        f"PROPERTY TES_POINT_MODE 0\n{props}DCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\n{decl_in}"
        "DCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[0]\nDCL TEMP[0..2]\n"
        + "".join(f"  {i}: {line}\n" for i, line in enumerate(lines))
    )


def _bind(ctx, tcs_text: str, tes_text: str, fs: str):
    color = setup(ctx, vs=_pass_vs(1), fs=fs, elements=ELEMENTS)
    ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=tcs_text)))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=tes_text)))
    ctx.set_patch_vertices(3)
    return color


def _refused_without_tessellation(screen, ctx) -> bool:
    """True (after checking the refusal) where the profile has no tessellation."""
    if screen.profile.has("tessellation_shader"):
        return False
    with pytest.raises(UnsupportedError, match="TESS_CTRL|tessellation"):
        ctx.create_tcs_state(ShaderState(tokens=tcs()))
    return True


def _check_clipped_by_w(img) -> None:
    """The TES's CLIPDIST[0] = CLIP_VALUES interpolated, its w clipping (bit 3):
    lit exactly where w >= 0, and there the FS reads the four values."""
    _, covered, ambiguous = _barycentric()
    expect = _interpolated(CLIP_VALUES)
    ambiguous |= np.abs(expect[..., 3]) < 0.02
    kept = covered & (expect[..., 3] >= 0)
    assert kept[~ambiguous].any() and (covered & ~kept)[~ambiguous].any()  # the test can tell
    assert np.array_equal(lit(img)[~ambiguous], kept[~ambiguous])
    inside = kept & ~ambiguous
    np.testing.assert_allclose(img[inside], expect[inside], atol=1e-4)


# (TCS CLIPDIST registers written, TES CLIPDIST input read or None)
MISMATCHES = {
    "tcs-writes-tes-ignores": ((0,), None),
    "tcs-writes-8-tes-ignores": ((0, 1), None),
    "tes-reads-unwritten": ((), 0),
    "tes-reads-unwritten-second": ((), 1),
    "tcs-writes-second-tes-reads-first": ((1,), 0),
}


@pytest.mark.parametrize("case", sorted(MISMATCHES))
def test_tcs_tes_clip_distance_mismatch_links_and_clips(screen, ctx, case):
    """The pair links and draws; the TES's own clip distance w clips (bit 3),
    and a CLIPDIST input the TCS leaves unwritten reads 0.0 (the TCS's -1.0
    in another register does not leak into it)."""
    if _refused_without_tessellation(screen, ctx):
        return
    written, read = MISMATCHES[case]
    color = _bind(ctx, tcs(clipdist=written, value="IMM[1]"), tes(read=read), _fs_reading(0))
    rast(ctx, clip_plane_enable=0b1000)
    _check_clipped_by_w(_draw(ctx, "TES", color, CLIP_VALUES))


def test_tes_reads_the_tcs_distances_of_a_larger_block(screen, ctx):
    """The TCS writes CLIPDIST[0] and [1] (8 clip distances), the TES reads
    CLIPDIST[0] only (4): the values arrive (added to GENERIC[0] = 0)."""
    if _refused_without_tessellation(screen, ctx):
        return
    color = _bind(ctx, tcs(clipdist=(0, 1)), tes(read=0), _fs_reading(0))
    rast(ctx, clip_plane_enable=0b1000)
    # GENERIC[0] carries CLIP_VALUES; the TCS writes them to CLIPDIST too and
    # the TES adds its CLIPDIST[0] input to GENERIC[0]: twice the values.
    img = _draw(ctx, "TES", color, CLIP_VALUES)
    _, covered, ambiguous = _barycentric()
    expect = 2.0 * _interpolated(CLIP_VALUES)
    ambiguous |= np.abs(expect[..., 3]) < 0.02
    kept = covered & (expect[..., 3] >= 0)
    assert np.array_equal(lit(img)[~ambiguous], kept[~ambiguous])
    inside = kept & ~ambiguous
    np.testing.assert_allclose(img[inside], expect[inside], atol=1e-4)


@pytest.mark.parametrize("side", ["tcs-writes-cull", "tes-reads-cull"])
def test_cull_distances_across_a_mismatched_pair(screen, ctx, side):
    """NUM_CLIPDIST_ENABLED 1 + NUM_CULLDIST_ENABLED 1 on the TES (y of its
    CLIPDIST[0] culls): a cull distance negative at every vertex culls, one
    negative at two vertices draws the triangle whole -- with the TCS writing
    a clip + cull CLIPDIST[0] the TES ignores, or the TES reading one the TCS
    does not write (zeros: the GENERIC values alone decide)."""
    if _refused_without_tessellation(screen, ctx):
        return
    props = _props(1, 1)
    if side == "tcs-writes-cull":
        pair = tcs(props, clipdist=(0,), value="IMM[1]"), tes(props)
    else:
        pair = tcs(), tes(props, read=0)
    color = _bind(ctx, *pair, WHITE_FS)
    rast(ctx, clip_plane_enable=0)
    # The cull distance is y of CLIPDIST[0]: move the x values of the fixtures there.
    to_y = lambda rows: [[1.0, r[0], 0.0, 0.0] for r in rows]  # noqa: E731
    assert not lit(_draw(ctx, "TES", color, to_y(ALL_NEGATIVE))).any()
    _check_whole(_draw(ctx, "TES", color, to_y(SOME_NEGATIVE)))


def test_pair_needing_more_than_8_distances_is_refused_at_draw(screen, ctx):
    """A TCS writing 8 clip distances (CLIPDIST[0..1], no properties) and a TES
    reading CLIPDIST[0] as 2 clip + 2 cull distances need 8 + 2 > 8 distances
    in one gl_PerVertex block: the draw raises UnsupportedError naming both
    stages' counts; with a TES splitting CLIPDIST like the TCS the same TCS draws."""
    if _refused_without_tessellation(screen, ctx):
        return
    color = _bind(ctx, tcs(clipdist=(0, 1)), tes(_props(2, 2), read=0), WHITE_FS)
    rast(ctx, clip_plane_enable=0)
    with pytest.raises(UnsupportedError, match=r"TCS.*8 clip \+ 0 cull.*TES.*2 clip \+ 2 cull"):
        _draw(ctx, "TES", color, SOME_NEGATIVE)
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=tes(read=0))))
    _check_whole(_draw(ctx, "TES", color, [[1.0, 1.0, 1.0, 1.0]] * 3))
