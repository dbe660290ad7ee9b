"""Validator tests: error snapshots (parse and validation) and ShaderInfo contents.

``errors/*.tgsi`` are small bad shaders; each ``.err`` holds the expected
error class on line 1 and the exact message (with line:column for parse
errors) on line 2, written by hand from the rule the shader breaks.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from lowering import ShaderValidationError, TGSIParseError, UnsupportedError, parse, to_glsl, validate
from lowering.ir import DstRegister, Instruction, SrcRegister

ERRORS = Path(__file__).parent / "errors"
CASES = sorted(ERRORS.glob("*.tgsi"))


def test_there_are_enough_snapshots():
    kinds = {p.name.split("_")[0] for p in CASES}
    assert kinds == {"parse", "val"}
    assert len(CASES) >= 25


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_error_snapshot(path):
    expected_class, expected_message = path.with_suffix(".err").read_text().splitlines()[:2]
    text = path.read_bytes().decode("ascii")
    with pytest.raises((TGSIParseError, ShaderValidationError)) as err:
        validate(parse(text))
    assert type(err.value).__name__ == expected_class
    assert str(err.value) == expected_message
    if isinstance(err.value, TGSIParseError):
        line, col = map(int, re.match(r"(\d+):(\d+):", expected_message).groups())
        assert (err.value.line, err.value.column) == (line, col)
        assert "expected" in err.value.message
        assert err.value.source_line == text.splitlines()[line - 1].rstrip("\r")
    else:
        m = re.match(r"instruction (\d+) \(\w+, line (\d+)\)", expected_message)
        if m:
            assert (err.value.instruction, err.value.line) == (int(m.group(1)), int(m.group(2)))
        else:
            assert err.value.instruction is None


def test_errors_are_the_builtin_kinds_users_catch():
    with pytest.raises(SyntaxError):
        parse("FRAG\nMOV\n")
    with pytest.raises(ValueError):
        validate(parse("FRAG\nBRK\n"))


# -- rules that text cannot break (the parser enforces the counts) but an IR can ---------

BASE = parse(
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n"
    "DCL SAMP[0]\nMOV TEMP[0], IN[0]\nEND\n"
)


def with_inst(inst: Instruction):
    return replace(BASE, instructions=(inst, Instruction("END")))


def test_empty_writemask():
    inst = Instruction("MOV", (DstRegister("TEMP", 0, writemask=0),), (SrcRegister("IN", 0),))
    with pytest.raises(ShaderValidationError) as err:
        validate(with_inst(inst))
    assert str(err.value) == ("instruction 0 (MOV): destination TEMP[0] has an empty or bad writemask")
    assert err.value.instruction == 0


def test_wrong_operand_counts():
    inst = Instruction("ADD", (DstRegister("TEMP", 0),), (SrcRegister("IN", 0),))
    with pytest.raises(ShaderValidationError, match=r"ADD takes 2 source operand\(s\), got 1"):
        validate(with_inst(inst))
    inst = Instruction("ADD", (), (SrcRegister("IN", 0), SrcRegister("IN", 0)))
    with pytest.raises(ShaderValidationError, match=r"ADD takes 1 destination operand\(s\), got 0"):
        validate(with_inst(inst))


def test_texture_opcode_without_target_and_target_on_plain_opcode():
    inst = Instruction("TEX", (DstRegister("TEMP", 0),), (SrcRegister("IN", 0), SrcRegister("SAMP", 0)))
    with pytest.raises(ShaderValidationError, match="TEX needs a texture target"):
        validate(with_inst(inst))
    inst = Instruction("MOV", (DstRegister("TEMP", 0),), (SrcRegister("IN", 0),), texture="2D")
    with pytest.raises(ShaderValidationError, match="MOV takes no texture target"):
        validate(with_inst(inst))


def test_unknown_opcode_and_alias_in_ir():
    with pytest.raises(ShaderValidationError, match="unknown opcode 'FROB'"):
        validate(with_inst(Instruction("FROB")))
    with pytest.raises(ShaderValidationError, match="KILP must be written as KILL"):
        validate(with_inst(Instruction("KILP")))


def test_bare_emit_is_valid_in_gs():
    info = validate(
        parse(
            "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
            "PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\n"
            "DCL OUT[0], POSITION\nMOV OUT[0], IN[0][0]\nEMIT\nENDPRIM\nEND\n"
        )
    )
    assert info.num_streams == 1 and info.writes_position


# -- ShaderInfo -----------------------------------------------------------------------------

FS = """FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
DCL IN[0], POSITION, LINEAR
DCL IN[1..2], GENERIC[3], PERSPECTIVE, SAMPLE
DCL SV[0], FACE
DCL OUT[0], COLOR
DCL OUT[1], POSITION
DCL OUT[2], COLOR[1]
DCL CONST[0..3]
DCL CONST[2][0..7]
DCL SAMP[0]
DCL SAMP[3]
DCL SVIEW[3], SHADOW2D, FLOAT
DCL TEMP[0..2]
DCL TEMP[3..6], ARRAY(1)
DCL ADDR[0]
IMM[0] FLT32 {0.5, 0, 0, 1}
  0: ARL ADDR[0].x, IN[1].xxxx
  1: MOV TEMP[ADDR[0].x+3](1), CONST[2][ADDR[0].x+1]
  2: TEX TEMP[0], IN[1], SAMP[0], 2D
  3: TEX TEMP[1], IN[2], SAMP[3], SHADOW2D
  4: DDY TEMP[2], IN[0]
  5: KILL_IF TEMP[0]
  6: MOV OUT[1].z, IMM[0].xxxx
  7: MOV OUT[0], TEMP[ADDR[0].x+3](1)
  8: IF TEMP[0].xxxx :10
  9: ELSE :11
 10: ENDIF
 11: END
"""


def test_shader_info_of_a_fragment_shader():
    info = validate(parse(FS))
    assert info.processor == "FRAG"
    assert info.ranges["TEMP"] == ((0, 2), (3, 6))
    assert info.num_registers == {
        "IN": 3,
        "SV": 1,
        "OUT": 3,
        "CONST": 8,
        "SAMP": 4,
        "SVIEW": 4,
        "TEMP": 7,
        "ADDR": 1,
        "IMM": 1,
    }
    assert info.const_buffers == {0: 4, 2: 8}
    assert [(r.index, r.semantic, r.semantic_index, r.interpolate, r.location) for r in info.inputs] == [
        (0, "POSITION", 0, "LINEAR", "CENTER"),
        (1, "GENERIC", 3, "PERSPECTIVE", "SAMPLE"),
        (2, "GENERIC", 4, "PERSPECTIVE", "SAMPLE"),  # a range counts semantic indices up
    ]
    assert info.input("GENERIC", 4).index == 2
    assert info.output("COLOR", 1).index == 2
    assert info.system_value("FACE").index == 0
    assert info.indirect_files == {"TEMP", "CONST"}
    assert info.temp_arrays == {1: (3, 6)}
    assert info.samplers_used == (0, 3)
    assert info.sampler_targets == {0: ("2D",), 3: ("SHADOW2D",)}
    assert info.writes_depth and not info.writes_stencil and not info.writes_position
    assert info.uses_kill and info.uses_derivatives and info.uses_sample_shading
    assert not (info.uses_fp64 or info.uses_int64 or info.uses_atomics)
    assert info.properties == {"FS_COORD_ORIGIN": "LOWER_LEFT"}
    assert info.block_pairs == {8: 9, 9: 10}
    assert info.opcodes_used == {"ARL", "MOV", "TEX", "DDY", "KILL_IF", "IF", "ELSE", "ENDIF", "END"}


def test_shader_info_of_compute_with_subroutines_and_memory():
    text = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
DCL SV[0], THREAD_ID
DCL BUFFER[2]
DCL IMAGE[1], 2D, PIPE_FORMAT_R32_UINT, WR
DCL MEMORY[1], SHARED
DCL TEMP[0..1]
IMM[0] UINT32 {0, 4, 1, 0}
IMM[1] FLT64 {1.0, 2.0}
  0: BGNLOOP
  1:   CAL :5
  2:   BRK
  3: ENDLOOP
  4: END
  5: BGNSUB
  6:   ATOMUADD TEMP[0].x, MEMORY[0], IMM[0].xxxx, IMM[0].zzzz
  7:   STORE BUFFER[2].x, IMM[0].yyyy, TEMP[0].xxxx
  8:   STORE IMAGE[1], SV[0], TEMP[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
  9:   DADD TEMP[1].xy, IMM[1].xyxy, IMM[1].zwzw
 10:   BARRIER
 11:   RET
 12: ENDSUB
"""
    info = validate(parse(text))
    assert info.buffers_used == (2,) and info.images_used == (1,) and info.memory_used == (0,)
    assert info.memory_types == {1: "SHARED", 0: "SHARED"}
    assert info.subroutines == {5: 12}
    assert info.block_pairs == {0: 3, 3: 0, 5: 12}
    assert info.uses_atomics and info.uses_barrier and info.uses_subroutines and info.uses_fp64
    assert info.properties["CS_FIXED_BLOCK_WIDTH"] == 8


def test_gs_streams_counted_from_emit_and_declarations():
    text = """GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 4
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0], STREAM(1, 1, 1, 1)
IMM[0] INT32 {0, 2, 0, 0}
MOV OUT[0], IN[0][0]
EMIT IMM[0].yyyy
END
"""
    info = validate(parse(text))
    assert info.num_streams == 3
    assert info.output("GENERIC", 0).stream == (1, 1, 1, 1)


GS_STREAM_DECL = """GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE {primitive}
PROPERTY GS_MAX_OUTPUT_VERTICES 4
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0], STREAM({streams})
MOV OUT[0], IN[0][0]
EMIT
END
"""


@pytest.mark.parametrize(
    ("primitive", "streams", "error", "words"),
    [
        # fuzz seed 23111851: the stream reached the host compiler ("invalid stream")
        ("POINTS", "32768, 2, 2, 2", ShaderValidationError, "vertex stream 32768 is outside 0..3"),
        ("POINTS", "4, 4, 4, 4", ShaderValidationError, "vertex stream 4 is outside 0..3"),
        ("TRIANGLE_STRIP", "1, 1, 1, 1", ShaderValidationError, "needs GS_OUTPUT_PRIMITIVE POINTS"),
        ("POINTS", "1, 2, 1, 1", UnsupportedError, "different vertex streams"),
    ],
)
def test_gs_output_stream_declarations_are_checked(primitive, streams, error, words):
    """A declared output stream obeys EMIT's rules (streams 0..3, above 0 only
    with POINTS), and one output has one stream: GLSL gives a variable one."""
    with pytest.raises(error, match=re.escape(words)) as caught:
        validate(parse(GS_STREAM_DECL.format(primitive=primitive, streams=streams)))
    assert "DCL OUT[1]" in str(caught.value)


def test_gs_output_on_one_stream_above_zero_is_valid():
    info = validate(parse(GS_STREAM_DECL.format(primitive="POINTS", streams="3, 3, 3, 3")))
    assert info.output("GENERIC", 0).stream == (3, 3, 3, 3)


def test_gs_output_streams_of_unused_components_do_not_count():
    """Mesa's own TGSI (tests/lowering/corpus gs_streams.geom): ``DCL OUT[3].x,
    GENERIC[2], STREAM(2, 0, 0, 0)`` -- only the used component's stream is
    the output's, and the lowering declares the variable on it."""
    text = GS_STREAM_DECL.format(primitive="POINTS", streams="2, 0, 0, 0").replace(
        "DCL OUT[1], GENERIC[0]", "DCL OUT[1].x, GENERIC[0]"
    )
    info = validate(parse(text))
    assert info.num_streams == 3
    text_y = GS_STREAM_DECL.format(primitive="POINTS", streams="0, 3, 0, 0").replace(
        "DCL OUT[1], GENERIC[0]", "DCL OUT[1].y, GENERIC[0]"
    )
    assert "layout(stream = 3)" in to_glsl(parse(text_y), 450).source
