"""The CLIPDIST split in the lowering (tgsi.rst TGSI_SEMANTIC_CLIPDIST,
NUM_CLIPDIST_ENABLED / NUM_CULLDIST_ENABLED): which components are clip
and which cull distances, what the last vertex stage declares and writes,
and what an FS reading CLIPDIST reads.  The pixels are proven through the
pipe in tests/context/test_clip_cull_distance.py."""

from __future__ import annotations

import pytest

from lowering import VariantKey, parse, to_glsl
from lowering.errors import UnsupportedError
from lowering.glsl.passes.vertex import written_clip_distances
from lowering.glsl.varyings import clip_cull_counts


def _vs(props: str, regs: int = 1) -> str:
    decls = "".join(f"DCL OUT[{1 + r}], CLIPDIST[{r}]\n" for r in range(regs))
    body = "".join(f"  {1 + r}: MOV OUT[{1 + r}], IN[0]\n" for r in range(regs))
    return f"VERT\n{props}DCL IN[0]\nDCL OUT[0], POSITION\n{decls}  0: MOV OUT[0], IN[0]\n{body}  {1 + regs}: END\n"


CULL_ONLY = "PROPERTY NUM_CULLDIST_ENABLED 1\n"
CLIP_ONLY = "PROPERTY NUM_CLIPDIST_ENABLED 3\n"
BOTH = "PROPERTY NUM_CLIPDIST_ENABLED 3\nPROPERTY NUM_CULLDIST_ENABLED 2\n"


@pytest.mark.parametrize(
    "props,counts,written",
    [
        ("", (None, 0), 0xFF),  # neither property: every written component clips
        (CULL_ONLY, (0, 1), 0),  # an absent NUM_CLIPDIST_ENABLED counts 0
        (CLIP_ONLY, (3, 0), 0b111),
        (BOTH, (3, 2), 0b111),
        ("PROPERTY NUM_CLIPDIST_ENABLED 0\nPROPERTY NUM_CULLDIST_ENABLED 4\n", (0, 4), 0),
    ],
)
def test_split(props, counts, written):
    shader = parse(_vs(props, regs=2))
    assert clip_cull_counts(shader) == counts
    assert written_clip_distances(shader) == written


def test_cull_only_shader_writes_gl_cull_distance():
    src = to_glsl(_vs(CULL_ONLY), glsl_version=450).source
    assert "out float gl_CullDistance[1];" in src
    assert "gl_CullDistance[0] = " in src
    assert "gl_ClipDistance" not in src


def test_cull_distances_without_the_host_feature_become_clip_distances():
    """GLSL 3.30 has no gl_CullDistance: cull distance j is kept in the
    glp_culldist varying and clips as gl_ClipDistance[8 - ncull + j] =
    -1.0 where it is out (negative, NaN or infinite), 1e30 elsewhere;
    Reflection.cull_clip_mask names the slots the context always enables."""
    out = to_glsl(_vs(BOTH, regs=2), glsl_version=330)
    src = out.source
    assert "gl_CullDistance" not in src
    assert "out float gl_ClipDistance[8];" in src
    assert "out glp_culldist_block { vec4 glp_culldist[2]; };" in src
    for j, element in enumerate(("glp_culldist[0].x", "glp_culldist[0].y")):
        assert f"{element} = " in src  # the value written, kept for CLIPDIST readers
        assert (
            f"gl_ClipDistance[{6 + j}] = ({element} < 0.0 || isnan({element}) || isinf({element})) ? -1.0 : 1e30;"
        ) in src
    assert all(f"gl_ClipDistance[{k}] = 0.0;" in src for k in (3, 4, 5))  # between clip and cull slots
    assert out.reflection.cull_clip_mask == 0b11000000
    assert out.reflection.clip_distance_mask == 0b111
    native = to_glsl(_vs(BOTH, regs=2), glsl_version=450)
    assert native.reflection.cull_clip_mask == 0


def test_gs_reads_emulated_cull_inputs_from_the_block():
    """A GS reading CLIPDIST inputs with cull components at GLSL 3.30 reads
    the values from the previous stage's glp_culldist block."""
    gs = (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
        "PROPERTY GS_MAX_OUTPUT_VERTICES 1\n" + CULL_ONLY + "DCL IN[][0], POSITION\nDCL IN[][1], CLIPDIST[0]\n"
        "DCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n"
        "  0: MOV OUT[0], IN[2][0]\n  1: MOV OUT[1], IN[2][1]\n  2: EMIT IMM[0].xxxx\n  3: END\n"
    )
    out = to_glsl(gs, glsl_version=330)
    assert "in glp_culldist_block { vec4 glp_culldist[2]; } glp_culldist_in[3];" in out.source
    assert "glp_culldist[0].x = glp_culldist_in[2].glp_culldist[0].x;" in out.source
    assert out.reflection.cull_clip_mask == 0x80


def test_both_properties_split_the_components():
    src = to_glsl(_vs(BOTH, regs=2), glsl_version=450).source
    assert "out float gl_ClipDistance[3];" in src and "out float gl_CullDistance[2];" in src
    for line in ("gl_ClipDistance[2] = ", "gl_CullDistance[0] = ", "gl_CullDistance[1] = "):
        assert line in src
    # Components 5..7 (past 3 + 2) are dropped: nothing else is written.
    assert src.count("gl_ClipDistance[") == 4 and src.count("gl_CullDistance[") == 3


def test_user_planes_apply_to_a_cull_only_shader():
    """No clip distance written: clip_plane_enable enables the user planes."""
    out = to_glsl(_vs(CULL_ONLY), glsl_version=450, key=VariantKey(clip_plane_enable=0b1))
    assert "gl_ClipDistance[0] = dot(gl_Position, sysvals.clip_plane[0]);" in out.source
    assert out.reflection.clip_distance_mask == 0b1
    clip = to_glsl(_vs(CLIP_ONLY), glsl_version=450, key=VariantKey(clip_plane_enable=0b1))
    assert "sysvals.clip_plane" not in clip.source  # the shader's own distances take precedence


def test_fs_reads_clipdist_from_the_varying():
    fs = "FRAG\nDCL IN[0], CLIPDIST[1], LINEAR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    src = to_glsl(fs, glsl_version=330).source
    assert "in glp_clipdist_1_block { noperspective vec4 glp_clipdist_1; };" in src
    assert "gl_ClipDistance" not in src


@pytest.mark.parametrize("version", [330, 450])
def test_last_stage_copies_values_before_the_disabled_zeros(version):
    """The varying the FS reads holds the distances as written; the 0.0 that
    keeps the host from clipping by a disabled distance comes after it."""
    key = VariantKey(
        output_interpolation=(("CLIPDIST", 0, "PERSPECTIVE", "CENTER"), ("CLIPDIST", 1, "PERSPECTIVE", "CENTER")),
        disabled_clip_distances=0b110,
    )
    props = BOTH if version == 450 else CLIP_ONLY
    src = to_glsl(_vs(props, regs=1), glsl_version=version, key=key).source
    assert "out glp_clipdist_0_block { vec4 glp_clipdist_0; };" in src
    cull = "gl_CullDistance[0]" if version == 450 else "0.0"
    copy = f"glp_clipdist_0 = vec4(gl_ClipDistance[0], gl_ClipDistance[1], gl_ClipDistance[2], {cull});"
    copy1 = "glp_clipdist_1 = vec4(0.0, 0.0, 0.0, 0.0);"  # no CLIPDIST[1] written
    zero = "gl_ClipDistance[1] = 0.0;"
    assert copy in src and copy1 in src and zero in src
    assert src.index(copy) < src.index(zero)


def test_user_planes_reaching_the_emulated_cull_slots_are_refused():
    """GLSL 3.30, one cull distance in slot 7: user planes 0..6 of a
    cull-only shader coexist with it; plane 7 would share its slot and is
    refused, naming clip_plane_enable."""
    out = to_glsl(_vs(CULL_ONLY), glsl_version=330, key=VariantKey(clip_plane_enable=0x7F))
    assert "gl_ClipDistance[6] = dot(gl_Position, sysvals.clip_plane[6]);" in out.source
    assert out.reflection.cull_clip_mask == 0x80 and out.reflection.clip_distance_mask == 0x7F
    with pytest.raises(UnsupportedError, match="clip_plane_enable 0x80"):
        to_glsl(_vs(CULL_ONLY), glsl_version=330, key=VariantKey(clip_plane_enable=0x80))
