"""Clip and cull distances (TGSI CLIPDIST outputs split by the
NUM_CLIPDIST_ENABLED / NUM_CULLDIST_ENABLED properties) and fragment shaders
reading them (FS ``IN[i], CLIPDIST``), with the VS, GS or TES as the last
vertex stage, on both profiles.

Expectations come from the definitions (tgsi.rst TGSI_SEMANTIC_CLIPDIST,
cso/rasterizer.rst clip_plane_enable): the CLIPDIST components are
NUM_CLIPDIST_ENABLED clip distances followed by NUM_CULLDIST_ENABLED cull
distances (an absent property counts 0; without either property every
written component is a clip distance); a primitive whose cull distance is
negative at all of its vertices is discarded, otherwise it is drawn whole
(culling never clips); a clip distance clips only where its
clip_plane_enable bit is set (the pixels whose interpolated distance is
negative); and whatever clip_plane_enable says, the FS reads the values the
last stage wrote, interpolated.  With w = 1 everywhere perspective-correct
interpolation is linear in window space, so the expected value at a pixel
centre is the barycentric combination of the vertex values, computed here
by hand.  The gl33 profile has no gl_CullDistance: there glpipe lowers cull
distances to clip distances (docs/lowering.md "Cull distances without
gl_CullDistance"), PIPE_CAP_CULL_DISTANCE is 1 on both profiles, and every
test here runs the same on both (test_cull_distance_gl33.py compares the
pixels of the two).
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import ClipState, Prim, ShaderState
from glpipe.enums import Cap

from .util_draw import SIZE, lit, setup, triangle_coverage, vertices
from .util_raster import draw_image, rast

# The triangle, in window coordinates (pixels), away from the edges of the target.
TRI = ((2.0, 2.0), (14.0, 3.0), (4.0, 14.0))

WHITE_FS = """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: MOV OUT[0], IMM[0]
  1: END
"""


def _fs_reading(register: int) -> str:
    """An FS whose colour is CLIPDIST[register], as read (interpolated)."""
    return f"""FRAG
DCL IN[0], CLIPDIST[{register}], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def _props(nclip, ncull) -> str:
    text = ""
    if nclip is not None:
        text += f"PROPERTY NUM_CLIPDIST_ENABLED {nclip}\n"
    if ncull is not None:
        text += f"PROPERTY NUM_CULLDIST_ENABLED {ncull}\n"
    return text


def _vs(props: str, nregs: int) -> str:
    """VS: POSITION = IN[0], CLIPDIST[r] = IN[1 + r]."""
    decls = "".join(f"DCL OUT[{1 + r}], CLIPDIST[{r}]\n" for r in range(nregs))
    body = "".join(f"  {1 + r}: MOV OUT[{1 + r}], IN[{1 + r}]\n" for r in range(nregs))
    ins = "".join(f"DCL IN[{i}]\n" for i in range(1 + nregs))
    return f"VERT\n{props}{ins}DCL OUT[0], POSITION\n{decls}  0: MOV OUT[0], IN[0]\n{body}  {1 + nregs}: END\n"


def _pass_vs(nregs: int) -> str:
    """VS feeding a GS or TES: POSITION = IN[0], GENERIC[r] = IN[1 + r]."""
    decls = "".join(f"DCL OUT[{1 + r}], GENERIC[{r}]\n" for r in range(nregs))
    body = "".join(f"  {1 + r}: MOV OUT[{1 + r}], IN[{1 + r}]\n" for r in range(nregs))
    ins = "".join(f"DCL IN[{i}]\n" for i in range(1 + nregs))
    return f"VERT\n{ins}DCL OUT[0], POSITION\n{decls}  0: MOV OUT[0], IN[0]\n{body}  {1 + nregs}: END\n"


def _gs(props: str, nregs: int) -> str:
    """GS passing the triangle through, CLIPDIST[r] = GENERIC[r] of each vertex."""
    decls = "".join(f"DCL IN[][{1 + r}], GENERIC[{r}]\nDCL OUT[{1 + r}], CLIPDIST[{r}]\n" for r in range(nregs))
    body, n = [], 0
    for v in range(3):
        body.append(f"  {n}: MOV OUT[0], IN[{v}][0]")
        n += 1
        for r in range(nregs):
            body.append(f"  {n}: MOV OUT[{1 + r}], IN[{v}][{1 + r}]")
            n += 1
        body.append(f"  {n}: EMIT IMM[0].xxxx")
        n += 1
    body.append(f"  {n}: END")
    return (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
        f"PROPERTY GS_MAX_OUTPUT_VERTICES 3\n{props}DCL IN[][0], POSITION\n{decls}DCL OUT[0], POSITION\n"
        "IMM[0] UINT32 {0, 0, 0, 0}\n" + "\n".join(body) + "\n"
    )


def _tcs(nregs: int) -> str:
    """TCS passing the patch through, tessellation levels 1 (one triangle)."""
    decls = "".join(f"DCL IN[][{1 + r}], GENERIC[{r}]\nDCL OUT[][{1 + r}], GENERIC[{r}]\n" for r in range(nregs))
    body = "".join(f"  {2 + r}: MOV OUT[ADDR[0].x][{1 + r}], IN[ADDR[0].x][{1 + r}]\n" for r in range(nregs))
    n = 2 + nregs
    return (
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\n"
        + decls
        + f"DCL SV[0], INVOCATIONID\nDCL OUT[][0], POSITION\nDCL OUT[{1 + nregs}], TESSOUTER\n"
        f"DCL OUT[{2 + nregs}], TESSINNER\nDCL ADDR[0]\nIMM[0] FLT32 {{1.0, 1.0, 1.0, 1.0}}\n"
        "  0: UARL ADDR[0].x, SV[0].xxxx\n  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n"
        + body
        + f"  {n}: MOV OUT[{1 + nregs}], IMM[0]\n  {n + 1}: MOV OUT[{2 + nregs}], IMM[0]\n  {n + 2}: END\n"
    )


def _tes(props: str, nregs: int) -> str:
    """TES: POSITION and CLIPDIST[r] interpolated from the patch with TESSCOORD
    (linear in the corners, as the VS path's values are)."""
    decls = "".join(f"DCL IN[][{1 + r}], GENERIC[{r}]\nDCL OUT[{1 + r}], CLIPDIST[{r}]\n" for r in range(nregs))
    lines = []
    for reg in range(1 + nregs):
        lines += [
            f"MUL TEMP[0], SV[0].xxxx, IN[0][{reg}]",
            f"MAD TEMP[0], SV[0].yyyy, IN[1][{reg}], TEMP[0]",
            f"MAD TEMP[0], SV[0].zzzz, IN[2][{reg}], TEMP[0]",
            f"MOV OUT[{reg}], TEMP[0]",
        ]
    lines.append("END")
    body = "".join(f"  {i}: {line}\n" for i, line in enumerate(lines))
    return (
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 0\nPROPERTY TES_VERTEX_ORDER_CW 0\n"
        f"PROPERTY TES_POINT_MODE 0\n{props}DCL IN[][0], POSITION\n{decls}DCL SV[0], TESSCOORD\n"
        "DCL OUT[0], POSITION\nDCL TEMP[0]\n" + body
    )


STAGES = ("VS", "GS", "TES")


def _has_stage(screen, stage) -> bool:
    if stage == "TES":
        return screen.profile.has("tessellation_shader")
    return True


def _bind(ctx, stage, nclip, ncull, fs, nregs=1):
    """Render target, shaders with ``stage`` last, vertex elements (position +
    one vec4 per CLIPDIST register) and a plain rasterizer; the colour resource."""
    from glpipe import Format, VertexElement

    elements = [
        VertexElement(src_offset=16 * i, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT)
        for i in range(1 + nregs)
    ]
    props = _props(nclip, ncull)
    if stage == "VS":
        return setup(ctx, vs=_vs(props, nregs), fs=fs, elements=elements)
    color = setup(ctx, vs=_pass_vs(nregs), fs=fs, elements=elements)
    if stage == "GS":
        ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=_gs(props, nregs))))
    else:
        ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=_tcs(nregs))))
        ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=_tes(props, nregs))))
        ctx.set_patch_vertices(3)
    return color


def _create_last_stage(ctx, stage, nclip, ncull, nregs=1):
    """Create (only) the last-stage shader with these properties."""
    props = _props(nclip, ncull)
    if stage == "VS":
        return ctx.create_vs_state(ShaderState(tokens=_vs(props, nregs)))
    if stage == "GS":
        return ctx.create_gs_state(ShaderState(tokens=_gs(props, nregs)))
    return ctx.create_tes_state(ShaderState(tokens=_tes(props, nregs)))


def _draw(ctx, stage, color, dists):
    """Draw TRI with per-vertex CLIPDIST register values ``dists`` ((3, nregs, 4))."""
    dists = np.asarray(dists, np.float32).reshape(3, -1, 4)
    pos = vertices(TRI, (0.0, 0.0, 0.0, 1.0))[:, :4]
    rows = np.concatenate([pos, dists.reshape(3, -1)], axis=1)
    mode = Prim.PATCHES if stage == "TES" else Prim.TRIANGLES
    return draw_image(ctx, color, rows, mode, stride=rows.shape[1] * 4)


def _barycentric():
    """(lambda (size, size, 3), covered, ambiguous) at the pixel centres of TRI."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    (x0, y0), (x1, y1), (x2, y2) = TRI
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    l1 = ((xs - x0) * (y2 - y0) - (x2 - x0) * (ys - y0)) / area
    l2 = ((x1 - x0) * (ys - y0) - (xs - x0) * (y1 - y0)) / area
    lam = np.stack([1.0 - l1 - l2, l1, l2], axis=-1)
    covered, ambiguous = triangle_coverage([TRI])
    return lam, covered, ambiguous


def _interpolated(values):
    """The per-pixel linear interpolation of per-vertex ``values`` ((3, 4))."""
    lam, _, _ = _barycentric()
    return lam @ np.asarray(values, np.float64)


def _check_whole(img):
    """TRI is drawn whole: exactly its covered pixels (ambiguous ones aside) are lit."""
    _, covered, ambiguous = _barycentric()
    assert np.array_equal(lit(img)[~ambiguous], covered[~ambiguous])


def _culling_supported(screen) -> bool:
    """PIPE_CAP_CULL_DISTANCE: 1 on every profile (natively or lowered to clip distances)."""
    assert screen.get_param(Cap.CULL_DISTANCE) == 1
    return True


def _skip_stage(screen, stage) -> bool:
    """TES on a host without tessellation: TES creation is refused there (its own tests prove it)."""
    return not _has_stage(screen, stage)


# ---------------------------------------------------------------------------
# Cull distances
# ---------------------------------------------------------------------------

# Cull distance (x of CLIPDIST[0]) negative at all three vertices: culled.
ALL_NEGATIVE = [[-1.0, 0, 0, 0], [-2.0, 0, 0, 0], [-0.5, 0, 0, 0]]
# Negative at two vertices only: drawn whole (a clip distance would cut it).
SOME_NEGATIVE = [[-1.0, 0, 0, 0], [-1.0, 0, 0, 0], [2.0, 0, 0, 0]]


@pytest.mark.parametrize("enable", [0, 1])
@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("nclip", [None, 0])
def test_cull_distance_negative_at_all_vertices_culls(screen, ctx, stage, enable, nclip):
    """NUM_CULLDIST_ENABLED 1 (with NUM_CLIPDIST_ENABLED absent or 0): the
    component is a cull distance.  clip_plane_enable bit 0 then enables the
    user plane (the shader writes no clip distance), here one keeping
    everything -- the triangle is culled either way."""
    if _skip_stage(screen, stage):
        return
    assert _culling_supported(screen)
    color = _bind(ctx, stage, nclip, 1, WHITE_FS)
    ctx.set_clip_state(ClipState(ucp=[(0.0, 0.0, 0.0, 1.0)] * 8))
    rast(ctx, clip_plane_enable=enable)
    assert not lit(_draw(ctx, stage, color, ALL_NEGATIVE)).any()
    _check_whole(_draw(ctx, stage, color, SOME_NEGATIVE))


def test_user_plane_with_cull_only_shader_clips_by_the_plane(screen, ctx):
    """A shader writing only cull distances writes no clip distance, so
    clip_plane_enable enables the user planes (cso/rasterizer.rst: clip
    distances take precedence only where written): plane x <= 0 keeps the
    left part of the triangle, and the cull distance still culls."""
    assert _culling_supported(screen)
    color = _bind(ctx, "VS", None, 1, WHITE_FS)
    ctx.set_clip_state(ClipState(ucp=[(-1.0, 0.0, 0.0, 0.0)]))
    rast(ctx, clip_plane_enable=1)
    img = _draw(ctx, "VS", color, SOME_NEGATIVE)
    _, xs = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    _, covered, ambiguous = _barycentric()
    ambiguous |= np.abs(xs - SIZE / 2) < 0.05
    assert np.array_equal(lit(img)[~ambiguous], (covered & (xs < SIZE / 2))[~ambiguous])
    assert not lit(_draw(ctx, "VS", color, ALL_NEGATIVE)).any()


# ---------------------------------------------------------------------------
# Clip distances read by the FS, whatever clip_plane_enable says
# ---------------------------------------------------------------------------

# x, y positive at every vertex (never clip); z negative at all vertices and w
# of mixed sign: they would clip everything / part if their bits were set.
CLIP_VALUES = [[0.25, 1.0, -0.5, -1.0], [0.75, 0.5, -1.5, 1.0], [1.0, 0.125, -0.25, 0.5]]


@pytest.mark.parametrize("enable", [0b0000, 0b0011])
@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("nclip", [None, 4])
def test_fs_reads_clip_distances_written(screen, ctx, stage, enable, nclip):
    """Clip distances whose clip_plane_enable bit is clear do not clip, and an
    FS reading ``IN[0], CLIPDIST[0]`` gets the values written, interpolated
    (clip_plane_enable decides clipping only, never the values passed on)."""
    if _skip_stage(screen, stage):
        return
    color = _bind(ctx, stage, nclip, None, _fs_reading(0))
    ctx.set_clip_state(ClipState(ucp=[(0.0, 0.0, 0.0, -1.0)] * 8))  # would clip everything if used
    rast(ctx, clip_plane_enable=enable)
    img = _draw(ctx, stage, color, CLIP_VALUES)
    _, covered, ambiguous = _barycentric()
    inside = covered & ~ambiguous
    np.testing.assert_allclose(img[inside], _interpolated(CLIP_VALUES)[inside], atol=1e-4)
    assert not img[~covered & ~ambiguous].any()


def test_enabled_clip_distance_clips_and_fs_reads_it(screen, ctx):
    """Bit 3 set: the w distance (mixed sign) clips the triangle at its zero
    line; the FS still reads all four values where it draws."""
    color = _bind(ctx, "VS", 4, None, _fs_reading(0))
    rast(ctx, clip_plane_enable=0b1000)
    img = _draw(ctx, "VS", color, CLIP_VALUES)
    _, covered, ambiguous = _barycentric()
    expect = _interpolated(CLIP_VALUES)
    ambiguous |= np.abs(expect[..., 3]) < 0.02
    kept = covered & (expect[..., 3] >= 0)
    assert np.array_equal(lit(img)[~ambiguous], kept[~ambiguous])
    inside = kept & ~ambiguous
    np.testing.assert_allclose(img[inside], expect[inside], atol=1e-4)


# ---------------------------------------------------------------------------
# Clip and cull distances together
# ---------------------------------------------------------------------------

# CLIPDIST[0] = (clip0, clip1, clip2, cull0), CLIPDIST[1] = (cull1, cull2, -, -)
# with NUM_CLIPDIST_ENABLED 3 and NUM_CULLDIST_ENABLED 3.
BOTH = [
    [[0.5, -1.0, 0.25, -1.0], [2.0, -0.5, 0.0, 0.0]],
    [[0.25, -2.0, 1.0, 1.5], [-1.0, 0.5, 0.0, 0.0]],
    [[1.0, -0.5, 0.5, 0.5], [1.0, 0.25, 0.0, 0.0]],
]


@pytest.mark.parametrize("stage", STAGES)
def test_fs_reads_clip_and_cull_elements(screen, ctx, stage):
    """Both properties: the FS reads the clip elements (bit 1 clear: the
    negative clip1 does not clip) and the cull elements (each positive at some
    vertex: nothing culled) of both CLIPDIST registers as written."""
    if _skip_stage(screen, stage):
        return
    assert _culling_supported(screen)
    values = np.asarray(BOTH, np.float64)
    _, covered, ambiguous = _barycentric()
    inside = covered & ~ambiguous
    for register in (0, 1):
        color = _bind(ctx, stage, 3, 3, _fs_reading(register), nregs=2)
        rast(ctx, clip_plane_enable=0b101)
        img = _draw(ctx, stage, color, values)
        expect = _interpolated(values[:, register])
        if register == 1:
            expect[..., 2:] = img[..., 2:]  # components past the 6 distances: undefined
        np.testing.assert_allclose(img[inside], expect[inside], atol=1e-4)
        assert not lit(img)[~covered & ~ambiguous].any()


@pytest.mark.parametrize("enable", [0b0, 0b1])
def test_clip_and_cull_together(screen, ctx, enable):
    """NUM_CLIPDIST_ENABLED 1 + NUM_CULLDIST_ENABLED 1: x of CLIPDIST[0] is a
    clip distance (window x <= 8 inside), y a cull distance.  The clip
    distance clips only with its bit set; a cull distance negative at every
    vertex culls whatever the bit."""
    assert _culling_supported(screen)
    color = _bind(ctx, "VS", 1, 1, WHITE_FS)
    rast(ctx, clip_plane_enable=enable)
    # clip distance = (8 - window x) / 8, linear in window space.
    clip = [(8.0 - x) / 8.0 for x, _ in TRI]
    kept_cull = [[c, k, 0.0, 0.0] for c, k in zip(clip, (-1.0, 0.5, -1.0), strict=True)]
    img = _draw(ctx, "VS", color, kept_cull)
    _, xs = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    _, covered, ambiguous = _barycentric()
    expect = covered & (xs <= 8.0) if enable else covered
    ambiguous |= np.abs(xs - 8.0) < 0.05
    assert np.array_equal(lit(img)[~ambiguous], expect[~ambiguous])
    culled = [[c, -k, 0.0, 0.0] for c, k in zip(clip, (1.0, 0.5, 2.0), strict=True)]
    assert not lit(_draw(ctx, "VS", color, culled)).any()


# ---------------------------------------------------------------------------
# Distances passed through a GS or a TCS + TES (inputs split like outputs)
# ---------------------------------------------------------------------------


def _gs_reading_clipdist(props: str) -> str:
    """GS passing the triangle and its CLIPDIST[0] input through."""
    body = []
    for v in range(3):
        n = 3 * v
        body += [f"  {n}: MOV OUT[0], IN[{v}][0]", f"  {n + 1}: MOV OUT[1], IN[{v}][1]", f"  {n + 2}: EMIT IMM[0].xxxx"]
    return (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
        f"PROPERTY GS_MAX_OUTPUT_VERTICES 3\n{props}DCL IN[][0], POSITION\nDCL IN[][1], CLIPDIST[0]\n"
        "DCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n" + "\n".join(body) + "\n  9: END\n"
    )


def _tcs_reading_clipdist(props: str) -> str:
    """TCS passing the patch and its CLIPDIST[0] input through, levels 1."""
    return (
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\n"
        + props
        + "DCL IN[][0], POSITION\nDCL IN[][1], CLIPDIST[0]\nDCL SV[0], INVOCATIONID\nDCL OUT[][0], POSITION\n"
        "DCL OUT[][1], CLIPDIST[0]\nDCL OUT[2], TESSOUTER\nDCL OUT[3], TESSINNER\nDCL ADDR[0]\n"
        "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n  0: UARL ADDR[0].x, SV[0].xxxx\n"
        "  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n  2: MOV OUT[ADDR[0].x][1], IN[ADDR[0].x][1]\n"
        "  3: MOV OUT[2], IMM[0]\n  4: MOV OUT[3], IMM[0]\n  5: END\n"
    )


# CLIPDIST[0] = (clip0, clip1, cull0, cull1) with 2 + 2; clip1 negative (bit clear).
THROUGH = [[0.5, -1.0, -1.0, 2.0], [0.25, -2.0, 1.5, -1.0], [1.0, -0.5, 0.5, 1.0]]


@pytest.mark.parametrize("route", ["GS", "TCS+TES"])
@pytest.mark.parametrize("counts", [(None, None), (2, 2)])
def test_distances_pass_through_intermediate_stages(screen, ctx, route, counts):
    """The VS writes CLIPDIST, a GS (or TCS and TES) reads its CLIPDIST input
    and writes it on, each stage with the same properties: the FS reads the
    VS's values, the cull part still culls (a cull distance negative at all
    vertices: nothing drawn) and the disabled clip distance does not clip."""
    if route == "TCS+TES" and not screen.profile.has("tessellation_shader"):
        return
    nclip, ncull = counts
    assert _culling_supported(screen)
    from glpipe import Format, VertexElement

    props = _props(nclip, ncull)
    elements = [
        VertexElement(src_offset=16 * i, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT) for i in range(2)
    ]
    color = setup(ctx, vs=_vs(props, 1), fs=_fs_reading(0), elements=elements)
    stage = "VS"
    if route == "GS":
        ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=_gs_reading_clipdist(props))))
    else:
        stage = "TES"
        ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=_tcs_reading_clipdist(props))))
        ctx.bind_tes_state(
            ctx.create_tes_state(ShaderState(tokens=_tes(props, 1).replace("GENERIC[0]", "CLIPDIST[0]")))
        )
        ctx.set_patch_vertices(3)
    rast(ctx, clip_plane_enable=0b01)
    values = np.asarray(THROUGH, np.float64)
    img = _draw(ctx, stage, color, values)
    _, covered, ambiguous = _barycentric()
    inside = covered & ~ambiguous
    np.testing.assert_allclose(img[inside], _interpolated(values)[inside], atol=1e-4)
    if ncull:
        values[:, 2] = -1.0
        assert not lit(_draw(ctx, stage, color, values)).any()


def test_fs_clipdist_inputs_count_against_max_inputs(screen, ctx):
    """An FS reads CLIPDIST from a varying, so a CLIPDIST input counts against
    PIPE_SHADER_CAP_MAX_INPUTS like a GENERIC one: MAX_INPUTS - 1 GENERIC
    inputs plus CLIPDIST are accepted, MAX_INPUTS plus CLIPDIST refused at create."""
    from glpipe.enums import ShaderCap, ShaderType
    from lowering.errors import ShaderValidationError

    n = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_INPUTS)

    def fs(generics):
        decls = "".join(f"DCL IN[{i}], GENERIC[{i}], PERSPECTIVE\n" for i in range(generics))
        return (
            f"FRAG\n{decls}DCL IN[{generics}], CLIPDIST[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
            f"  0: MOV OUT[0], IN[{generics}]\n  1: END\n"
        )

    ctx.delete_fs_state(ctx.create_fs_state(ShaderState(tokens=fs(n - 1))))
    with pytest.raises(ShaderValidationError, match="MAX_INPUTS"):
        ctx.create_fs_state(ShaderState(tokens=fs(n)))
