"""The validator refuses what the host would reject (issue 12 item 2).

Each program below once passed ``validate`` and then failed in the host
compiler or linker ("internal error: the host rejected / could not link").
Each rule is the Gallium / GL rule the program breaks, written from the
spec, not from what the code printed: system values exist only in the
stages that have them (tgsi.rst "System values"; GLSL 4.50 section 7.1 lists
each built-in per stage), an FS has PIPE_MAX_COLOR_BUFS (8) colour outputs,
CLIPDIST holds at most 8 distances (2 registers), a GS reads as many
vertices as its input primitive has, vertex streams are 0..3 and only a
POINTS GS emits to a stream above 0 (GL 4.0 section 11.3.4.2), SWITCH labels
are distinct (GLSL 4.50 section 6.2), TGSI register indices are 16-bit
fields (tgsi_src_register.Index, tgsi_declaration_range), and each texture
opcode reads only the targets its GLSL built-in takes.
"""

from __future__ import annotations

import pytest

from lowering import ShaderValidationError, TGSIParseError, dump, parse, validate
from lowering.errors import PipeError, UnsupportedError

FS_HEAD = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"


def _host_error(source: str, proc: str):
    """The host compiler's log for ``source`` as a ``proc`` shader (None: it compiled)."""
    from glsl_compile import HostCompiler

    from lowering.glsl.emitter import GL_SHADER_TYPES

    compiler = HostCompiler()
    try:
        return compiler.compile(source, GL_SHADER_TYPES[proc])
    finally:
        compiler.release()


def _refused(text: str, *words: str, line: int | None = None) -> ShaderValidationError:
    with pytest.raises(ShaderValidationError) as err:
        validate(parse(text))
    message = str(err.value)
    for word in words:
        assert word in message, message
    if line is not None:
        assert err.value.line == line, message
    return err.value


# -- system values in stages that do not have them ------------------------------------

SV_WRONG_STAGE = [
    ("FRAG", "INSTANCEID"),
    ("FRAG", "VERTEXID"),
    ("FRAG", "TESSOUTER"),
    ("FRAG", "TESSCOORD"),
    ("FRAG", "GRID_SIZE"),
    ("VERT", "GRID_SIZE"),
    ("VERT", "TESSCOORD"),
    ("VERT", "FACE"),
    ("VERT", "SAMPLEID"),
    ("GEOM", "TESSCOORD"),
    ("GEOM", "INSTANCEID"),
    ("TESS_EVAL", "BLOCK_ID"),
    ("TESS_CTRL", "TESSCOORD"),
    ("COMP", "VERTEXID"),
    ("COMP", "FACE"),
]


@pytest.mark.parametrize(("proc", "semantic"), SV_WRONG_STAGE, ids=[f"{p}-{s}" for p, s in SV_WRONG_STAGE])
def test_system_value_in_a_stage_without_it(proc, semantic):
    text = f"{proc}\nDCL SV[0], {semantic}\nDCL TEMP[0]\n  0: MOV TEMP[0], SV[0]\n  1: END\n"
    _refused(text, semantic, proc, line=2)


SV_RIGHT_STAGE = [
    ("VERT", "INSTANCEID"),
    ("VERT", "VERTEXID"),
    ("TESS_EVAL", "TESSCOORD"),
    ("TESS_EVAL", "TESSOUTER"),
    ("TESS_CTRL", "INVOCATIONID"),
    ("GEOM", "PRIM_ID"),
    ("FRAG", "FACE"),
    ("FRAG", "POSITION"),
    ("COMP", "GRID_SIZE"),
    ("COMP", "THREAD_ID"),
]


@pytest.mark.parametrize(("proc", "semantic"), SV_RIGHT_STAGE, ids=[f"{p}-{s}" for p, s in SV_RIGHT_STAGE])
def test_system_value_in_its_stage_validates(proc, semantic):
    info = validate(parse(f"{proc}\nDCL SV[0], {semantic}\nDCL TEMP[0]\n  0: MOV TEMP[0], SV[0]\n  1: END\n"))
    assert info.system_value(semantic) is not None


@pytest.mark.parametrize("semantic", ["INSTANCEID", "TESSOUTER", "SUBGROUP_SIZE", "VERTEXID", "GRID_SIZE"])
def test_fs_input_with_a_system_value_semantic(semantic):
    # A varying cannot carry a system value: no earlier stage writes it.
    text = f"FRAG\nDCL IN[0], {semantic}\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    _refused(text, semantic, "input", line=2)


def test_vs_output_with_a_system_value_semantic():
    text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], INSTANCEID\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    _refused(text, "INSTANCEID", "output", line=4)


# -- out-of-range indices --------------------------------------------------------------


@pytest.mark.parametrize("index", [8, 4096])
def test_fs_color_output_past_max_color_bufs(index):
    text = f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR[{index}]\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    _refused(text, f"COLOR[{index}]", "8", line=3)


def test_fs_color_output_7_validates():
    info = validate(
        parse("FRAG\nDCL OUT[0], COLOR[7]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n")
    )
    assert info.output("COLOR", 7) is not None


@pytest.mark.parametrize("decl", ["DCL OUT[1], CLIPDIST[9]", "DCL OUT[1], CLIPDIST[2]", "DCL OUT[1..3], CLIPDIST"])
def test_clipdist_past_eight_distances(decl):
    text = f"VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n{decl}\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    _refused(text, "CLIPDIST", "8", line=4)


GS_HEAD = (
    "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE {oprim}\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n"
    "IMM[0] UINT32 {{0, 1, 4, 0}}\nIMM[1] INT32 {{-1, 0, 0, 0}}\n"
)


@pytest.mark.parametrize("vertex", [3, 255])
def test_gs_vertex_index_past_the_input_primitive(vertex):
    text = GS_HEAD.format(oprim="POINTS") + f"  0: MOV OUT[0], IN[{vertex}][0]\n  1: EMIT IMM[0].xxxx\n  2: END\n"
    _refused(text, f"IN[{vertex}]", "TRIANGLES", "3 vertices", line=9)


def test_gs_vertex_index_2_of_a_triangle_validates():
    validate(parse(GS_HEAD.format(oprim="POINTS") + "  0: MOV OUT[0], IN[2][0]\n  1: EMIT IMM[0].xxxx\n  2: END\n"))


@pytest.mark.parametrize(("src", "words"), [("IMM[1].xxxx", ("-1", "0..3")), ("IMM[0].zzzz", ("4", "0..3"))])
def test_gs_stream_out_of_range(src, words):
    text = GS_HEAD.format(oprim="POINTS") + f"  0: MOV OUT[0], IN[0][0]\n  1: EMIT {src}\n  2: END\n"
    _refused(text, "stream", *words, line=10)


def test_gs_stream_above_0_needs_points():
    text = GS_HEAD.format(oprim="TRIANGLE_STRIP") + "  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].yyyy\n  2: END\n"
    _refused(text, "stream 1", "POINTS", line=10)


def test_gs_stream_1_of_points_validates():
    text = GS_HEAD.format(oprim="POINTS") + "  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].yyyy\n  2: END\n"
    assert validate(parse(text)).num_streams == 2


@pytest.mark.parametrize(
    "operand", ["TEMP[9223372036854775807]", "CONST[0][ADDR[0].x+9223372036854775807]", "TEMP[ADDR[0].x-40000]"]
)
def test_register_index_past_16_bits(operand):
    text = FS_HEAD + (
        "DCL CONST[0][0..3]\nDCL ADDR[0]\nDCL TEMP[0..3], ARRAY(1)\n"
        f"  0: UARL ADDR[0].x, IN[0].xxxx\n  1: MOV OUT[0], {operand}\n  2: END\n"
    )
    _refused(text, "16-bit", line=8)


def test_declaration_past_16_bits():
    _refused(FS_HEAD + "DCL TEMP[0..9223372036854775807]\n  0: MOV OUT[0], IN[0]\n  1: END\n", "16-bit", line=4)


def test_five_thousand_digit_index_is_a_parse_error():
    text = FS_HEAD + "DCL TEMP[0]\n  0: MOV OUT[0], TEMP[" + "9" * 5000 + "]\n  1: END\n"
    with pytest.raises(TGSIParseError) as err:
        parse(text)
    assert err.value.line == 5


# -- duplicate CASE ----------------------------------------------------------------


def test_duplicate_case():
    text = FS_HEAD + (
        "DCL TEMP[0]\nIMM[0] UINT32 {1, 2, 1, 0}\n  0: F2U TEMP[0].x, IN[0].xxxx\n  1: SWITCH TEMP[0].xxxx\n"
        "  2: CASE IMM[0].xxxx\n  3: MOV OUT[0], IN[0]\n  4: BRK\n  5: CASE IMM[0].zzzz\n"
        "  6: MOV OUT[0], IN[0].yyyy\n  7: BRK\n  8: ENDSWITCH\n  9: END\n"
    )
    _refused(text, "CASE", "1", "instruction 2", line=11)


def test_distinct_cases_validate():
    text = FS_HEAD + (
        "DCL TEMP[0]\nIMM[0] UINT32 {1, 2, 1, 0}\n  0: F2U TEMP[0].x, IN[0].xxxx\n  1: SWITCH TEMP[0].xxxx\n"
        "  2: CASE IMM[0].xxxx\n  3: MOV OUT[0], IN[0]\n  4: BRK\n  5: CASE IMM[0].yyyy\n"
        "  6: MOV OUT[0], IN[0].yyyy\n  7: BRK\n  8: ENDSWITCH\n  9: END\n"
    )
    validate(parse(text))


# -- texture targets the opcode's GLSL built-in does not take ----------------------------------

TARGET_MISMATCH = [
    ("SAMPLE", "SHADOW2D"),
    ("SAMPLE", "2D_MSAA"),
    ("SAMPLE", "BUFFER"),
    ("SAMPLE_B", "RECT"),
    ("SAMPLE_L", "SHADOWCUBE"),
    ("SAMPLE_D", "SHADOW2D_ARRAY"),
    ("SAMPLE_C", "3D"),
    ("SAMPLE_C_LZ", "SHADOWRECT"),
    ("GATHER4", "1D"),
    ("GATHER4", "SHADOW2D"),
    ("LOD", "RECT"),
    ("SAMPLE_I", "2D_MSAA"),
    ("SAMPLE_I", "CUBE"),
    ("SAMPLE_I_MS", "SHADOW2D"),
]


@pytest.mark.parametrize(("op", "target"), TARGET_MISMATCH, ids=[f"{o}-{t}" for o, t in TARGET_MISMATCH])
def test_sample_opcode_on_a_view_target_it_cannot_read(op, target):
    srcs = "IN[0], SVIEW[0]" if op.startswith("SAMPLE_I") else "IN[0], SVIEW[0], SAMP[0]"
    if op == "SAMPLE_I_MS":
        srcs += ", IN[0].xxxx"
    if op in ("SAMPLE_B", "SAMPLE_C", "SAMPLE_C_LZ", "SAMPLE_L"):
        srcs += ", IN[0].xxxx"
    if op == "SAMPLE_D":
        srcs += ", IN[0], IN[0]"
    text = FS_HEAD + f"DCL SAMP[0]\nDCL SVIEW[0], {target}, FLOAT\n  0: {op} OUT[0], {srcs}\n  1: END\n"
    _refused(text, op, target, line=6)


@pytest.mark.parametrize(("op", "target"), [("LODQ", "RECT"), ("LODQ", "BUFFER"), ("LODQ", "2D_MSAA")])
def test_tex_opcode_on_a_target_it_cannot_read(op, target):
    text = FS_HEAD + f"DCL SAMP[0]\n  0: {op} OUT[0], IN[0], SAMP[0], {target}\n  1: END\n"
    _refused(text, op, target, line=5)


# -- dump ------------------------------------------------------------------------------


def test_dump_of_flt_max_immediate_round_trips():
    text = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {3.4028235e38, -3.4028235e38, 1.0, 0.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n"
    shader = parse(text)
    again = parse(dump(shader))
    # FLT_MAX is 0x7f7fffff (IEEE 754 binary32: exponent 254, mantissa all ones).
    assert again.immediates[0].words[:2] == (0x7F7FFFFF, 0xFF7FFFFF)


def test_all_refusals_are_pipe_errors():
    assert issubclass(ShaderValidationError, PipeError) and issubclass(TGSIParseError, PipeError)


# -- found by the fuzzer (tests/fuzz) ------------------------------------------------------


@pytest.mark.parametrize("proc", ["VERT", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP"])
def test_lod_bias_outside_a_fragment_shader(proc):
    # GLSL 4.50 section 8.9.2: the bias forms of texture() exist in fragment shaders only.
    text = (
        f"{proc}\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n  0: TXB TEMP[0], TEMP[0], SAMP[0], 2D\n  1: END\n"
    )
    with pytest.raises(UnsupportedError, match="TXB.*fragment shaders only") as err:
        validate(parse(text))
    assert "line 5" in str(err.value)


def test_tcs_barrier_inside_control_flow():
    # GLSL 4.50 section 8.16: a TCS's barrier() stands in main(), outside all control flow.
    text = (
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL TEMP[0]\n"
        "  0: UIF TEMP[0].xxxx\n  1: BARRIER\n  2: ENDIF\n  3: END\n"
    )
    with pytest.raises(UnsupportedError, match="BARRIER.*outside") as err:
        validate(parse(text))
    assert "line 5" in str(err.value)
    validate(parse("TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\n  0: BARRIER\n  1: END\n"))


_TCS_RETURN = "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL TEMP[0]\nDCL CONST[0]\n  0: MOV TEMP[0], CONST[0]\n{body}"


@pytest.mark.parametrize(
    "body,at",
    [
        ("  1: UIF TEMP[0].xxxx\n  2: RET\n  3: ENDIF\n  4: BARRIER\n  5: END\n", 2),
        # seed 91072923 (stop-25 native campaign): a mutation moved END into a loop
        (
            "  1: BGNLOOP\n  2: UIF TEMP[0].xxxx\n  3: END\n  4: ENDIF\n  5: BRK\n  6: ENDLOOP\n  7: BARRIER\n  8: END\n",
            3,
        ),
        ("  1: RET\n  2: BARRIER\n  3: END\n", 1),
    ],
)
def test_tcs_barrier_after_a_return_from_main(body, at):
    """GLSL 4.50 section 8.16 also forbids barrier() after a return of main();
    a RET, or an END inside control flow, is one (the host refused it: "barrier()
    may not be used after return", an internal error)."""
    text = _TCS_RETURN.format(body=body)
    with pytest.raises(
        UnsupportedError, match=rf"may not follow a return from main \(the RET / END at instruction {at}\)"
    ):
        validate(parse(text))


@pytest.mark.parametrize(
    "body",
    [
        "  1: BARRIER\n  2: UIF TEMP[0].xxxx\n  3: RET\n  4: ENDIF\n  5: END\n",  # the return after the barrier
        # a RET in a subroutine returns from that subroutine, not from main
        "  1: CAL :4\n  2: BARRIER\n  3: END\n  4: BGNSUB\n  5: RET\n  6: ENDSUB\n",
    ],
)
def test_tcs_barrier_before_a_return_compiles_on_the_host(body):
    from lowering import to_glsl

    source = to_glsl(validate(parse(_TCS_RETURN.format(body=body))), glsl_version=450).source
    assert _host_error(source, "TESS_CTRL") is None, source


def test_saved_tcs_barrier_findings_are_refused():
    from lowering import to_glsl

    for seed in (91072923, 91109793):
        text = (_FINDINGS / f"internal_{seed}.tcs.tgsi").read_text()
        with pytest.raises(UnsupportedError, match="may not follow a return from main"):
            to_glsl(text, 450)


_SWITCH_FS = (
    FS_HEAD
    + "DCL TEMP[0..1]\nIMM[0] UINT32 {{0, 1, 0, 0}}\n  0: MOV TEMP[0], IN[0]\n  1: F2U TEMP[1].x, IN[0].xxxx\n  2: SWITCH TEMP[1].xxxx\n{body}  9: ENDSWITCH\n 10: MOV OUT[0], TEMP[0]\n 11: END\n"
)


@pytest.mark.parametrize(
    "opener,closer",
    [
        ("SWITCH TEMP[1].yyyy", "  5: CASE IMM[0].xxxx\n  6: BRK\n  7: ENDSWITCH\n"),  # seed 102038046
        ("UIF TEMP[1].xxxx", "  5: ENDIF\n"),
        ("BGNLOOP", "  5: BRK\n  6: ENDLOOP\n"),
        ("BRK", ""),  # was exempt from the rule: `switch (...) { break;` is a host syntax error too
    ],
)
def test_code_before_the_first_case_is_refused(opener, closer):
    """A SWITCH, IF or loop opened directly inside a SWITCH before its first
    CASE / DEFAULT was emitted between `switch (...) {` and the first label, a
    host syntax error (stop-25 gl33 campaign on 94ac063, seed 102038046: an
    internal error); it is refused like any other instruction there, BRK too."""
    body = f"  3: {opener}\n  4: MOV TEMP[0].x, IMM[0].yyyy\n{closer}  8: CASE IMM[0].xxxx\n"
    _refused(_SWITCH_FS.format(body=body), "SWITCH before any CASE or DEFAULT", line=9)


def test_a_block_after_the_first_case_compiles_on_the_host():
    from lowering import to_glsl

    body = "  3: CASE IMM[0].xxxx\n  4: SWITCH TEMP[1].yyyy\n  5: DEFAULT\n  6: BRK\n  7: ENDSWITCH\n  8: BRK\n"
    source = to_glsl(validate(parse(_SWITCH_FS.format(body=body))), glsl_version=330).source
    assert _host_error(source, "FRAG") is None, source


def test_saved_switch_finding_is_refused():
    _refused((_FINDINGS / "internal_102038046.frag.tgsi").read_text(), "SWITCH before any CASE or DEFAULT")


def test_negating_a_negative_immediate_is_not_a_predecrement():
    # -IMM[0] of a negative value once printed as ``--0.5``: GLSL's pre-decrement of a literal.
    from lowering import to_glsl

    text = (
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nIMM[0] FLT32 {-0.5, -0.5, 1.0, 1.0}\n"
        "  0: MOV OUT[0], -IMM[0]\n  1: DRSQ OUT[0].zw, -IMM[0].xyxy\n  2: END\n"
    )
    source = to_glsl(validate(parse(text)), glsl_version=450).source
    assert "--" not in source.split("void main()")[1]
    assert _host_error(source, "VERT") is None


def test_instruction_after_end_outside_a_subroutine():
    # Found by the fuzzer: FBFETCH after END made the emitter declare its
    # inout colour without the extension that allows it (the host rejected it).
    text = FS_HEAD + "DCL TEMP[0]\n  0: END\n  1: FBFETCH TEMP[0], OUT[0]\n  2: MOV OUT[0], TEMP[0]\n"
    _refused(text, "FBFETCH after END", "BGNSUB", line=6)
    validate(parse(FS_HEAD + "  0: CAL :2\n  1: END\n  2: BGNSUB\n  3: MOV OUT[0], IN[0]\n  4: RET\n  5: ENDSUB\n"))


@pytest.mark.parametrize(
    "decls",
    [
        "DCL IN[0], BCOLOR[1], COLOR\nDCL IN[1], BCOLOR[1], LINEAR",
        "DCL IN[0], CLIPDIST[1], LINEAR\nDCL IN[1], CLIPDIST[1], PERSPECTIVE",
        "DCL IN[0..2], GENERIC[3], LINEAR\nDCL IN[3], GENERIC[5], LINEAR",
    ],
)
def test_two_inputs_with_one_semantic(decls):
    # Found by the fuzzer: the second declaration redeclared the first's varying (host rejected).
    text = f"FRAG\n{decls}\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[1]\n  1: END\n"
    _refused(text, "already declared", line=3)


def test_two_outputs_with_one_semantic():
    text = "FRAG\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n"
    _refused(text, "COLOR[0] is already declared", line=3)


@pytest.mark.parametrize(
    ("props", "words"),
    [
        ({"CS_FIXED_BLOCK_DEPTH": 2048}, "0..64"),
        ({"CS_FIXED_BLOCK_HEIGHT": 2147483648}, "0..1024"),
        ({"CS_FIXED_BLOCK_WIDTH": 1025}, "0..1024"),
        ({"CS_FIXED_BLOCK_WIDTH": 64, "CS_FIXED_BLOCK_HEIGHT": 32}, "2048 invocations"),
    ],
)
def test_compute_block_size_past_gl_minimums(props, words):
    # Found by the fuzzer: local_size_* beyond MAX_COMPUTE_WORK_GROUP_SIZE (or negative) failed to compile.
    text = "COMP\n" + "".join(f"PROPERTY {k} {v}\n" for k, v in props.items()) + "  0: END\n"
    with pytest.raises(UnsupportedError, match=words):
        validate(parse(text))


def test_compute_block_at_gl_minimums_validates():
    validate(
        parse(
            "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 16\nPROPERTY CS_FIXED_BLOCK_HEIGHT 16\nPROPERTY CS_FIXED_BLOCK_DEPTH 4\n  0: END\n"
        )
    )


@pytest.mark.parametrize("component", ["4", "255", "-1"])
def test_gather_component_out_of_range(component):
    # Found by the fuzzer: TG4 of component 4 raised IndexError in the GLSL 3.30 gather emulation.
    text = (
        FS_HEAD
        + f"DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nIMM[0] INT32 {{{component}, 0, 0, 0}}\n  0: TG4 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], 2D\n  1: END\n"
    )
    _refused(text, "TG4 gathers component 0..3", line=7)


def test_fs_input_psize():
    # Found by the fuzzer (gl33 campaign): an FS input PSIZE[8] became a varying nobody writes.
    _refused("FRAG\nDCL IN[0], PSIZE[8]\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n", "PSIZE", line=2)


def test_indexed_sample_i_on_a_multisample_view():
    # Found by the fuzzer: SAMPLE_I through an address register on a 2D_MSAA view
    # raised IndexError in the emitter (the view's target was not looked up).
    text = FS_HEAD + (
        "DCL SVIEW[0..1], 2D_MSAA, FLOAT\nDCL ADDR[0]\n  0: UARL ADDR[0].x, IN[0].xxxx\n"
        "  1: SAMPLE_I OUT[0], IN[0], SVIEW[ADDR[0].x]\n  2: END\n"
    )
    _refused(text, "SAMPLE_I cannot read a 2D_MSAA texture", line=7)


@pytest.mark.parametrize(("nclip", "ncull"), [(2, 9), (5, 4), (9, 0)])
def test_clip_and_cull_counts_past_eight(nclip, ncull):
    # Found by the fuzzer: NUM_CULLDIST_ENABLED 9 raised "negative shift count" in passes/cull.py.
    text = (
        f"VERT\nPROPERTY NUM_CLIPDIST_ENABLED {nclip}\nPROPERTY NUM_CULLDIST_ENABLED {ncull}\n"
        "DCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n"
    )
    with pytest.raises(ShaderValidationError, match="share 8 slots"):
        validate(parse(text))


# An address read from an immediate is a constant the lowering folds into a literal
# index (seed 71168179 of the stop-24 native campaign: CONST[0][IMM[0].x+3] with the
# FLT32 4.0 in IMM[0].x selected element 0x40800003, "array index must be < 16").
_IMM_ADDRESS_VS = (
    "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL CONST[0][0..7]\nDCL TEMP[0..3], ARRAY(1)\n"
    "DCL TEMP[4]\nIMM[0] INT32 {{{word}, 0, 0, 0}}\n"
    "  0: MOV TEMP[0], IN[0]\n  1: MOV TEMP[4], {src}\n  2: ADD OUT[0], TEMP[4], IN[0]\n  3: END\n"
)


@pytest.mark.parametrize(
    "src,word,element",
    [
        ("CONST[0][IMM[0].x+3]", 4, "CONST[7]"),
        ("TEMP[IMM[0].x+1]", 2, "TEMP[3]"),
        ("IMM[IMM[0].x]", 0, "IMM[0]"),
    ],
)
def test_immediate_address_inside_the_declaration(src, word, element):
    """Accepted and lowered (the host compiling these is the corpus tests' job);
    the constant buffer's element is the folded literal."""
    from lowering import to_glsl

    text = _IMM_ADDRESS_VS.format(word=word, src=src)
    validate(parse(text))
    glsl = to_glsl(text, 450).source
    if element.startswith("CONST"):
        assert "cb0.c[7]" in glsl


@pytest.mark.parametrize(
    "src,word,element",
    [
        ("CONST[0][IMM[0].x+3]", 5, "CONST[8]"),
        ("CONST[0][IMM[0].x+3]", 1082130432, "CONST[1082130435]"),
        ("CONST[0][IMM[0].x+3]", -4, "CONST[-1]"),
        ("TEMP[IMM[0].x+1]", 3, "TEMP[4]"),  # declared, but not in the array that holds the base
        ("IMM[IMM[0].x]", 1, "IMM[1]"),
    ],
)
def test_immediate_address_outside_the_declaration_is_refused(src, word, element):
    _refused(_IMM_ADDRESS_VS.format(word=word, src=src), f"selects {element}", "outside the declared range")


# -- findings of the stop-24 lowering campaign (seeds 75231789, 75031399) --------------

_FINDINGS = __import__("pathlib").Path(__file__).resolve().parents[1] / "fuzz" / "findings"

_HANDLE_FS = (
    "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D_MSAA, FLOAT\nDCL CONST[0][0..1]\n"
    "DCL TEMP[0..3]\nIMM[0] UINT32 {{0, 1, 2, 0}}\n  0: {ins}\n  1: MOV OUT[0], TEMP[3]\n  2: END\n"
)


@pytest.mark.parametrize(
    "ins",
    [
        "SAMPLE_I TEMP[3].x, TEMP[1].xxxx, CONST[0][0].xxxx",  # seed 75231789: IndexError in the emitter
        "SAMPLE_I TEMP[3], IMM[0], TEMP[0]",
        "SVIEWINFO TEMP[3], IMM[0], CONST[0][0]",
        "SAMPLE TEMP[3], IMM[0], CONST[0][0], CONST[0][1]",  # lowered as SVIEW[0] / SAMP[0] before
        "TEX TEMP[3], IMM[0], CONST[0][0], 2D",
    ],
)
def test_a_bindless_handle_operand_is_refused(ins):
    """A register where a sampler view or sampler goes is an ARB_bindless_texture
    handle (tgsi.rst); glpipe exposes no bindless textures (PIPE_CAP_BINDLESS_TEXTURE
    0), so the lowering refuses it naming the operand, instead of reading unit 0."""
    from lowering import to_glsl

    text = _HANDLE_FS.format(ins=ins)
    assert validate(parse(text)).uses_bindless
    with pytest.raises(UnsupportedError, match=r"operand \d of \w+ is a bindless handle .*GL_ARB_bindless_texture"):
        to_glsl(text, 450)


def test_saved_bindless_finding_is_refused():
    from lowering import to_glsl

    with pytest.raises(UnsupportedError, match="SAMPLE_I is a bindless handle"):
        to_glsl((_FINDINGS / "exception_75231789.frag.tgsi").read_text(), 450)


@pytest.mark.parametrize("file,limit", [("IN", "PIPE_MAX_SHADER_INPUTS"), ("OUT", "PIPE_MAX_SHADER_OUTPUTS")])
def test_io_registers_past_gallium_maximum(file, limit):
    """Seed 75031399: `DCL IN[0..65535], GENERIC` in an FS (no instruction) kept the
    lowering busy for minutes (65,536 varyings, each recorded against every other).
    IN / OUT registers stop at 80 (p_state.h); 80 of them lower."""
    from lowering import to_glsl

    _refused((_FINDINGS / "hang_75031399.frag.tgsi").read_text(), "IN[65535]", "PIPE_MAX_SHADER_INPUTS")
    decl = "DCL IN[0..80], GENERIC[0]\nDCL OUT[0], COLOR\n" if file == "IN" else "DCL OUT[0..80], GENERIC[0]\n"
    _refused(f"{'FRAG' if file == 'IN' else 'VERT'}\n{decl}  0: END\n", f"{file}[80]", limit)
    fs = "FRAG\nDCL IN[0..79], GENERIC[0]\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[79]\n  1: END\n"
    assert "glp_generic_79" in to_glsl(fs, 450).source


@pytest.mark.parametrize(
    "ins",
    [
        "MOV ADDR[ADDR[0].x+2], TEMP[3]",  # seed 126033302 (stop-26 gl33 campaign on 2532435)
        "MOV ADDR[ADDR[0].x], TEMP[3]",
        "MOV TEMP[2], ADDR[ADDR[0].x]",
        "UARL ADDR[IMM[0].x].x, TEMP[3].xxxx",
    ],
)
def test_an_indirectly_indexed_address_register_is_refused(ins):
    """ADDR[ADDR[0].x + 2] was lowered as ``addr2`` (the indirect dropped, an
    undeclared variable): the host rejected it, an internal error.  Address
    registers are named, never indexed, so the validator refuses it."""
    text = (
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0..3]\nDCL ADDR[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n"
        f"  0: MOV TEMP[3], IN[0]\n  1: ARL ADDR[0].x, IN[0].wwww\n  2: {ins}\n  3: MOV OUT[0], TEMP[3]\n  4: END\n"
    )
    _refused(text, "address register cannot be indexed indirectly", line=9)


def test_saved_indirect_address_finding_is_refused():
    _refused((_FINDINGS / "internal_126033302.vert.tgsi").read_text(), "address register cannot be indexed indirectly")
