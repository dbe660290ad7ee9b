"""Validator and lowering rules found by the stop-22 / stop-23 fuzz campaigns
(issue 12 item 2), without a host.

Each program once passed ``validate`` and then failed in the host compiler
("internal error: the host rejected ..."):

* a TCS reading its output vertex 4 of a 4-vertex output patch (seed 23027609):
  GLSL sizes gl_out[] and every per-vertex output by TCS_VERTICES_OUT, and a
  constant index past it is a compile error;
* a GS declaring GENERIC[1] on stream 1 and again on stream 2 (seed 23027497):
  GLSL has one variable per name, so a semantic names one output register
  whatever its stream (Mesa gives each stream's outputs their own semantics);
* LAYER[2] / VIEWPORT_INDEX[1] (seed 12034386): GL has one gl_Layer and one
  gl_ViewportIndex;
* a TCS reading a PATCH input (seed 12037712), lowered to ``patch in``, which
  GLSL 4.50 section 4.3.4 allows in a TES only;
* TCS_VERTICES_OUT / GS_MAX_OUTPUT_VERTICES / GS_INVOCATIONS past the GL
  limits (seeds 12028501, 12045279: lowering/limits.py PROPERTY_LIMITS).
"""

from __future__ import annotations

import pytest

from lowering import ShaderValidationError, parse, to_glsl, validate
from lowering.limits import GL_MINIMUM_LIMITS, check_property_limits


def _refused(text: str, *words: str) -> str:
    with pytest.raises(ShaderValidationError) as err:
        validate(parse(text))
    message = str(err.value)
    for word in words:
        assert word in message, message
    return message


TCS_OUT_READ = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 4
DCL IN[][0], POSITION
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[0]
DCL OUT[2], TESSOUTER
DCL TEMP[0]
  0: MOV TEMP[0], OUT[{vertex}][1]
  1: MOV OUT[2], TEMP[0]
  2: END
"""


def test_tcs_output_vertex_past_tcs_vertices_out_is_refused():
    _refused(TCS_OUT_READ.format(vertex=4), "OUT[4]", "4 vertices", "TCS_VERTICES_OUT")
    validate(parse(TCS_OUT_READ.format(vertex=3)))  # the last vertex of the patch


GS_TWO_STREAMS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[1], STREAM(1, 1, 1, 1)
DCL OUT[2], GENERIC[{index}], STREAM(2, 2, 2, 2)
IMM[0] UINT32 {{0, 1, 2, 0}}
  0: MOV OUT[0], IN[0][0]
  1: EMIT IMM[0].xxxx
  2: MOV OUT[1], IN[0][0]
  3: EMIT IMM[0].yyyy
  4: MOV OUT[2], IN[0][0]
  5: EMIT IMM[0].zzzz
  6: END
"""


def test_one_semantic_on_two_streams_is_refused():
    _refused(GS_TWO_STREAMS.format(index=1), "GENERIC[1]")
    validate(parse(GS_TWO_STREAMS.format(index=2)))  # each stream its own semantic, as Mesa emits


@pytest.mark.parametrize(
    "decl",
    ["DCL IN[][1], LAYER[2]", "DCL IN[][1], VIEWPORT_INDEX[1]", "DCL OUT[1], LAYER[1]"],
)
def test_layer_and_viewport_index_take_semantic_index_0(decl):
    gs = (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
        f"PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\n{decl}\nDCL OUT[0], POSITION\n"
        "  0: MOV OUT[0], IN[0][0]\n  1: END\n"
    )
    semantic = decl.split(", ")[1]
    _refused(gs, semantic, "semantic index 0")
    validate(parse(gs.replace(semantic, semantic.split("[")[0] + "[0]")))


def test_tcs_patch_input_is_read_per_vertex():
    tcs = (
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\nDCL IN[][1], PATCH[1]\n"
        "DCL OUT[0], PATCH[0]\n  0: MOV OUT[0], IN[2][1]\n  1: END\n"
    )
    source = to_glsl(validate(parse(tcs)), glsl_version=450).source
    assert "patch in" not in source
    assert "in glp_patch_1_block { vec4 glp_patch_1; } glp_patch_1_in[];" in source
    assert "glp_patch_0 = glp_patch_1_in[2].glp_patch_1;" in source
    assert "patch out glp_patch_0_block { vec4 glp_patch_0; };" in source  # (GLSL allows patch out blocks)


def _gs(vertices: int, invocations: int = 1, outputs: str = "DCL OUT[0], POSITION") -> str:
    return (
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
        f"PROPERTY GS_MAX_OUTPUT_VERTICES {vertices}\nPROPERTY GS_INVOCATIONS {invocations}\n"
        f"DCL IN[][0], POSITION\n{outputs}\n  0: END\n"
    )


def test_property_limits_against_the_gl_minimums():
    """Without a host, the GL 4.5 minimums: 32 patch vertices, 256 GS output
    vertices, 32 GS invocations."""
    tcs = "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT {}\nDCL OUT[][0], POSITION\n  0: END\n"
    check_property_limits(parse(tcs.format(32)))
    for bad in (33, 0):
        with pytest.raises(ShaderValidationError, match=rf"TCS_VERTICES_OUT {bad} is outside 1\.\.32"):
            check_property_limits(parse(tcs.format(bad)))
    with pytest.raises(ShaderValidationError, match="needs PROPERTY TCS_VERTICES_OUT"):
        check_property_limits(parse("TESS_CTRL\nDCL OUT[][0], POSITION\n  0: END\n"))
    check_property_limits(parse(_gs(256, 32)))
    with pytest.raises(ShaderValidationError, match=r"GS_MAX_OUTPUT_VERTICES 257 is outside 0\.\.256"):
        check_property_limits(parse(_gs(257)))
    with pytest.raises(ShaderValidationError, match=r"GS_INVOCATIONS 33 is outside 0\.\.32"):
        check_property_limits(parse(_gs(1, 33)))
    # A host with more: its own limit.
    host = {**GL_MINIMUM_LIMITS, "GL_MAX_PATCH_VERTICES": 64}
    check_property_limits(parse(tcs.format(64)), host.__getitem__)


def test_fs_builtin_table_matches_the_lowering():
    """varyings.FS_BUILTIN_INPUTS (what glpipe/variant_keys.py keeps from the
    last vertex stage) names exactly the FS inputs the emitter reads from a
    built-in; every other accepted semantic is a varying (a block
    glp_<semantic>_<n> the last stage declares)."""
    from lowering import semantics
    from lowering.errors import PipeError
    from lowering.glsl.varyings import FS_BUILTIN_INPUTS

    seen = set()
    for semantic in semantics.SEMANTIC_NAMES:
        text = f"FRAG\nDCL IN[0], {semantic}[0]\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
        try:
            out = to_glsl(
                validate(parse(text)), glsl_version=450, extensions=frozenset({"GL_ARB_fragment_layer_viewport"})
            )
        except PipeError:
            continue  # refused (a system value, an FS output only, ...)
        (io,) = out.reflection.inputs
        seen.add(semantic)
        assert io.builtin == (semantic in FS_BUILTIN_INPUTS), semantic
        if not io.builtin:
            assert f"glp_{semantic.lower()}_0_block" in out.source, semantic
    assert set(FS_BUILTIN_INPUTS) <= seen
