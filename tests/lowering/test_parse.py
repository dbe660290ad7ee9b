"""Parser tests: each grammar feature of TGSI text, checked against hand-built IR.

Expected values are written out by hand from the TGSI grammar (Mesa's
tgsi_text.c, docs/lowering.md "TGSI text"), never taken from the parser's output.
"""

from __future__ import annotations

import struct

import pytest

from lowering import TGSIParseError, parse
from lowering.ir import (
    Declaration,
    DstRegister,
    Immediate,
    Indirect,
    Instruction,
    Property,
    Shader,
    SrcRegister,
    TexOffset,
)


def f32(x: float) -> int:
    """IEEE single bits of x (independent of the parser)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def body(text: str, header: str = "FRAG") -> Shader:
    return parse(f"{header}\n{text}\n")


def only_inst(text: str, header: str = "FRAG") -> Instruction:
    shader = body(text, header)
    assert len(shader.instructions) == 1
    return shader.instructions[0]


# -- headers -------------------------------------------------------------------------


@pytest.mark.parametrize("header", ["VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP"])
def test_every_header(header):
    assert parse(header + "\nEND\n") == Shader(header, instructions=(Instruction("END"),))


def test_header_is_case_insensitive_and_may_follow_whitespace():
    assert parse("\n\n   frag\nend").processor == "FRAG"


# -- declarations ---------------------------------------------------------------------


def test_fs_input_with_semantic_interpolation_location():
    decl = body("DCL IN[2], GENERIC[7], PERSPECTIVE, CENTROID").declarations[0]
    assert decl == Declaration(
        "IN", 2, 2, semantic="GENERIC", semantic_index=7, interpolate="PERSPECTIVE", location="CENTROID"
    )


def test_color_semantic_and_color_interpolation_are_told_apart_by_position():
    decl = body("DCL IN[0], COLOR, COLOR, SAMPLE").declarations[0]
    assert (decl.semantic, decl.interpolate, decl.location) == ("COLOR", "COLOR", "SAMPLE")
    decl = body("DCL IN[0], COLOR[1], CONSTANT").declarations[0]
    assert (decl.semantic, decl.semantic_index, decl.interpolate) == ("COLOR", 1, "CONSTANT")


def test_explicit_center_location_equals_default():
    a = body("DCL IN[0], GENERIC[0], LINEAR, CENTER")
    b = body("DCL IN[0], GENERIC[0], LINEAR")
    assert a == b


def test_invariant_output():
    decl = body("DCL OUT[0], POSITION, INVARIANT", "VERT").declarations[0]
    assert decl == Declaration("OUT", 0, 0, semantic="POSITION", invariant=True)


def test_usage_mask_range_and_semantic_index_whitespace():
    decl = body("DCL IN[1..3].xz, GENERIC [ 4 ], LINEAR").declarations[0]
    assert decl == Declaration(
        "IN", 1, 3, usage_mask=0b0101, semantic="GENERIC", semantic_index=4, interpolate="LINEAR"
    )


def test_vertex_inputs_take_no_semantic():
    assert body("DCL IN[0]\nDCL IN[1..4]", "VERT").declarations == (Declaration("IN", 0, 0), Declaration("IN", 1, 4))
    with pytest.raises(TGSIParseError) as err:
        body("DCL IN[0], GENERIC[0]", "VERT")
    assert (err.value.line, err.value.column) == (2, 12)
    assert "expected end of line" in err.value.message


def test_temp_local_and_array():
    shader = body("DCL TEMP[0..3], LOCAL\nDCL TEMP[4..7], ARRAY(2)\nDCL TEMP[8], ARRAY(3), LOCAL")
    assert shader.declarations == (
        Declaration("TEMP", 0, 3, local=True),
        Declaration("TEMP", 4, 7, array_id=2),
        Declaration("TEMP", 8, 8, array_id=3, local=True),
    )


def test_const_1d_and_2d():
    shader = body("DCL CONST[0..7]\nDCL CONST[1][0..3]\nDCL CONST[2][5]")
    assert shader.declarations == (
        Declaration("CONST", 0, 7),
        Declaration("CONST", 0, 3, dimension=1),
        Declaration("CONST", 5, 5, dimension=2),
    )


def test_sampler_view_one_or_four_return_types():
    shader = body(
        "DCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], CUBEARRAY, SINT, SINT, UINT, FLOAT\nDCL SVIEW[2], 2D_ARRAY_MSAA, UINT"
    )
    assert shader.declarations == (
        Declaration("SVIEW", 0, 0, target="2D", return_types=("FLOAT",) * 4),
        Declaration("SVIEW", 1, 1, target="CUBEARRAY", return_types=("SINT", "SINT", "UINT", "FLOAT")),
        Declaration("SVIEW", 2, 2, target="2D_ARRAY_MSAA", return_types=("UINT",) * 4),
    )


def test_image_target_format_wr_raw():
    shader = body(
        "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_FLOAT, WR\nDCL IMAGE[1], BUFFER, RAW\n"
        "DCL IMAGE[2], 3D, pipe_format_r8g8b8a8_unorm",
        "COMP",
    )
    assert shader.declarations == (
        Declaration("IMAGE", 0, 0, target="2D", image_format="PIPE_FORMAT_R32_FLOAT", writable=True),
        Declaration("IMAGE", 1, 1, target="BUFFER", raw=True),
        Declaration("IMAGE", 2, 2, target="3D", image_format="PIPE_FORMAT_R8G8B8A8_UNORM"),
    )


def test_buffer_atomic_memory_types_hwatomic():
    shader = body(
        "DCL BUFFER[0]\nDCL BUFFER[1], ATOMIC\nDCL MEMORY[0], SHARED\n"
        "DCL MEMORY[1]\nDCL MEMORY[2], PRIVATE\nDCL MEMORY[3], INPUT\n"
        "DCL MEMORY[4], GLOBAL\nDCL HWATOMIC[0][0..3]",
        "COMP",
    )
    assert shader.declarations == (
        Declaration("BUFFER", 0, 0),
        Declaration("BUFFER", 1, 1, atomic=True),
        Declaration("MEMORY", 0, 0, memory_type="SHARED"),
        Declaration("MEMORY", 1, 1, memory_type="GLOBAL"),
        Declaration("MEMORY", 2, 2, memory_type="PRIVATE"),
        Declaration("MEMORY", 3, 3, memory_type="INPUT"),
        Declaration("MEMORY", 4, 4, memory_type="GLOBAL"),
        Declaration("HWATOMIC", 0, 3, dimension=0),
    )


def test_samp_addr_and_system_values():
    shader = body(
        "DCL SAMP[0..1]\nDCL ADDR[0]\nDCL SV[0], INSTANCEID\nDCL SV[1], VERTEXID_NOBASE\nDCL SV[2], SUBGROUP_LT_MASK",
        "VERT",
    )
    assert shader.declarations == (
        Declaration("SAMP", 0, 1),
        Declaration("ADDR", 0, 0),
        Declaration("SV", 0, 0, semantic="INSTANCEID"),
        Declaration("SV", 1, 1, semantic="VERTEXID_NOBASE"),
        Declaration("SV", 2, 2, semantic="SUBGROUP_LT_MASK"),
    )


def test_gs_inputs_drop_the_vertex_bracket_and_streams():
    shader = parse(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\n"
        "DCL IN[3][1], GENERIC[0]\nDCL OUT[2], GENERIC[1], STREAM(1, 1, 0, 3)\n"
    )
    assert shader.declarations == (
        Declaration("IN", 0, 0, semantic="POSITION"),
        Declaration("IN", 1, 1, semantic="GENERIC"),
        Declaration("OUT", 2, 2, semantic="GENERIC", semantic_index=1, stream=(1, 1, 0, 3)),
    )


def test_gs_empty_bracket_uses_the_input_primitive_size():
    shader = parse("GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES_ADJACENCY\nDCL TEMP[]\n")
    assert shader.declarations == (Declaration("TEMP", 0, 3),)  # 4 vertices per primitive


def test_tess_ctrl_inputs_and_outputs_are_1d_patch_outputs_too():
    shader = parse(
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\n"
        "DCL OUT[][0], POSITION\nDCL OUT[1], PATCH[0]\nDCL OUT[2], TESSOUTER\n"
        "DCL SV[0], INVOCATIONID\n"
    )
    assert shader.declarations == (
        Declaration("IN", 0, 0, semantic="POSITION"),
        Declaration("OUT", 0, 0, semantic="POSITION"),
        Declaration("OUT", 1, 1, semantic="PATCH"),
        Declaration("OUT", 2, 2, semantic="TESSOUTER"),
        Declaration("SV", 0, 0, semantic="INVOCATIONID"),
    )
    assert shader.properties == (Property("TCS_VERTICES_OUT", 3),)


def test_tess_empty_bracket_implied_size_is_32():
    shader = parse("TESS_EVAL\nDCL TEMP[]\n")
    assert shader.declarations == (Declaration("TEMP", 0, 31),)


# -- immediates ----------------------------------------------------------------------


def test_flt32_decimal_and_raw_hex_give_the_same_bits():
    shader = body("IMM[0] FLT32 { 1.0000, 0x3f800000, -0.5, 1e-3}\nIMM FLT32 {1, -0, inf, 0x7fc00001}")
    assert shader.immediates[0].words == (0x3F800000, 0x3F800000, 0xBF000000, f32(1e-3))
    assert shader.immediates[1].words == (0x3F800000, 0x80000000, 0x7F800000, 0x7FC00001)


def test_integer_immediates():
    shader = body("IMM[0] UINT32 {0, 4294967295, 0x10, 7}\nIMM[1] INT32 {-1, 2147483647, -2147483648, 0}")
    assert shader.immediates == (
        Immediate("UINT32", (0, 0xFFFFFFFF, 16, 7)),
        Immediate("INT32", (0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0)),
    )
    assert shader.immediates[1].values == (-1, 2147483647, -2147483648, 0)


def test_64bit_immediates_take_two_values_low_word_first():
    shader = body("IMM[0] FLT64 {1.5, -2.0}\nIMM[1] UINT64 {18446744073709551615, 0x100000002}\nIMM[2] INT64 {-2, 5}")
    bits = struct.unpack("<4I", struct.pack("<2d", 1.5, -2.0))
    assert shader.immediates[0] == Immediate("FLT64", bits)
    assert shader.immediates[1] == Immediate("UINT64", (0xFFFFFFFF, 0xFFFFFFFF, 2, 1))
    assert shader.immediates[2] == Immediate("INT64", (0xFFFFFFFE, 0xFFFFFFFF, 5, 0))
    assert shader.immediates[2].values == (-2, 5)


def test_immediate_index_must_count_up():
    with pytest.raises(TGSIParseError) as err:
        body("IMM[0] FLT32 {0, 0, 0, 0}\nIMM[2] FLT32 {0, 0, 0, 0}")
    assert (err.value.line, err.value.column) == (3, 5)
    assert "expected immediate index 1" in err.value.message


# -- properties ----------------------------------------------------------------------


def test_properties_names_and_numbers():
    shader = parse(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES_ADJACENCY\n"
        "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 6\n"
        "PROPERTY GS_INVOCATIONS 2\nPROPERTY NEXT_SHADER FRAG\n"
    )
    assert shader.properties == (
        Property("GS_INPUT_PRIMITIVE", "TRIANGLES_ADJACENCY"),
        Property("GS_OUTPUT_PRIMITIVE", "TRIANGLE_STRIP"),
        Property("GS_MAX_OUTPUT_VERTICES", 6),
        Property("GS_INVOCATIONS", 2),
        Property("NEXT_SHADER", "FRAG"),
    )
    assert shader.property("GS_INVOCATIONS") == 2
    assert shader.property("FS_DEPTH_LAYOUT", 0) == 0


def test_fs_and_cs_properties():
    shader = parse(
        "FRAG\nPROPERTY FS_COORD_ORIGIN lower_left\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n"
        "PROPERTY FS_DEPTH_LAYOUT 2\nPROPERTY FS_EARLY_DEPTH_STENCIL 1\n"
    )
    assert [p.value for p in shader.properties] == ["LOWER_LEFT", "INTEGER", 2, 1]
    shader = parse(
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
    )
    assert [(p.name, p.value) for p in shader.properties] == [
        ("CS_FIXED_BLOCK_WIDTH", 64),
        ("CS_FIXED_BLOCK_HEIGHT", 1),
        ("CS_FIXED_BLOCK_DEPTH", 1),
    ]


def test_old_property_spellings_map_to_current_names():
    shader = parse("VERT\nPROPERTY MUL_ZERO_WINS 1\nPROPERTY VS_POSITION_WINDOW_SPACE 1\n")
    assert shader.properties == (Property("LEGACY_MATH_RULES", 1), Property("VS_WINDOW_SPACE_POSITION", 1))


def test_tes_prim_mode_number_or_primitive_name():
    a = parse("TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\n")
    b = parse("TESS_EVAL\nPROPERTY TES_PRIM_MODE TRIANGLES\n")
    assert a == b and a.properties[0].value == 4


# -- instructions ---------------------------------------------------------------------


def test_plain_instruction_defaults():
    assert only_inst("MOV TEMP[0], IN[1]") == Instruction(
        "MOV", dsts=(DstRegister("TEMP", 0),), srcs=(SrcRegister("IN", 1),)
    )


def test_numeric_labels_are_ignored_and_line_numbers_kept():
    shader = body("  0: MOV TEMP[0], IN[0]\n 17 : END")
    assert [i.opcode for i in shader.instructions] == ["MOV", "END"]
    assert [i.line for i in shader.instructions] == [2, 3]


def test_writemask_and_swizzles():
    inst = only_inst("ADD TEMP[0].xzw, TEMP[1].wzyx, TEMP[2].xxxx")
    assert inst.dsts[0].writemask == 0b1101
    assert inst.srcs[0].swizzle == (3, 2, 1, 0)
    assert inst.srcs[1].swizzle == (0, 0, 0, 0)


def test_single_letter_source_swizzle_replicates():
    assert only_inst("MOV TEMP[0], TEMP[1].y").srcs[0].swizzle == (1, 1, 1, 1)


def test_swizzle_case_insensitive_and_spaces_after_dot():
    inst = only_inst("mov temp[0].XY, temp[1]. WZYX")
    assert inst.dsts[0].writemask == 0b0011 and inst.srcs[0].swizzle == (3, 2, 1, 0)


def test_negate_absolute_and_both():
    inst = only_inst("MAD TEMP[0], -TEMP[1], |TEMP[2].yyyy|, -|TEMP[3]|")
    assert [(s.negate, s.absolute) for s in inst.srcs] == [(True, False), (False, True), (True, True)]
    assert inst.srcs[1].swizzle == (1, 1, 1, 1)


def test_sat_and_precise_suffixes():
    assert (
        only_inst("MUL_SAT TEMP[0], TEMP[1], TEMP[2]").saturate,
        only_inst("MUL_PRECISE TEMP[0], TEMP[1], TEMP[2]").precise,
    ) == (True, True)
    inst = only_inst("MAD_SAT_PRECISE TEMP[0], TEMP[1], TEMP[2], TEMP[3]")
    assert (inst.opcode, inst.saturate, inst.precise) == ("MAD", True, True)


def test_ddx_fine_is_not_mistaken_for_ddx_with_a_suffix():
    assert only_inst("DDX_FINE TEMP[0], IN[0]").opcode == "DDX_FINE"


def test_2d_constant_with_indirect_index():
    src = only_inst("MOV TEMP[0], CONST[1][ADDR[0].x+3]").srcs[0]
    assert src == SrcRegister("CONST", 3, dimension=1, indirect=Indirect("ADDR", 0, 0))


def test_indirect_with_negative_offset_and_whitespace():
    src = only_inst("MOV TEMP[0], IMM[ADDR[0].y - 2]").srcs[0]
    assert src == SrcRegister("IMM", -2, indirect=Indirect("ADDR", 0, 1))
    src = only_inst("MOV TEMP[0], IMM[ ADDR[0] . z + 3 ]").srcs[0]
    assert src == SrcRegister("IMM", 3, indirect=Indirect("ADDR", 0, 2))


def test_indirect_through_a_temp_with_array_id():
    inst = only_inst("MOV TEMP[TEMP[1].x+2](1), TEMP[ADDR[0].w](1).xxxx")
    assert inst.dsts[0] == DstRegister("TEMP", 2, indirect=Indirect("TEMP", 1, 0, array_id=1))
    assert inst.srcs[0] == SrcRegister("TEMP", 0, swizzle=(0, 0, 0, 0), indirect=Indirect("ADDR", 0, 3, array_id=1))


def test_direct_register_with_array_id():
    assert only_inst("MOV TEMP[5](2), TEMP[6](2)").srcs[0] == SrcRegister("TEMP", 6, array_id=2)


def test_indirect_dimension_for_gs_inputs():
    src = only_inst("MOV TEMP[0], IN[ADDR[1].x][0]", "GEOM").srcs[0]
    assert src == SrcRegister("IN", 0, dimension=0, dim_indirect=Indirect("ADDR", 1, 0))
    src = only_inst("MOV TEMP[0], IN[2][1].yyyy", "GEOM").srcs[0]
    assert src == SrcRegister("IN", 1, dimension=2, swizzle=(1, 1, 1, 1))


def test_texture_target_and_offsets():
    inst = only_inst("TXF TEMP[0], TEMP[1], SAMP[0], 2D_ARRAY, IMM[0].xyz, IMM[1].zyx")
    assert inst.texture == "2D_ARRAY"
    assert inst.tex_offsets == (TexOffset("IMM", 0, (0, 1, 2)), TexOffset("IMM", 1, (2, 1, 0)))
    inst = only_inst("TEX TEMP[0], IN[0], SAMP[3], shadowcube")
    assert (inst.texture, inst.srcs[1]) == ("SHADOWCUBE", SrcRegister("SAMP", 3))


def test_sample_opcodes_take_no_target_but_offsets():
    inst = only_inst("SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyz")
    assert inst.texture is None and inst.tex_offsets == (TexOffset("IMM", 0),)


def test_memory_instruction_qualifiers_target_format():
    inst = only_inst("STORE IMAGE[0], TEMP[0], IMM[1], 2D, PIPE_FORMAT_R8G8B8A8_UNORM, VOLATILE, COHERENT", "COMP")
    assert inst.dsts == (DstRegister("IMAGE", 0),)
    assert inst.srcs == (SrcRegister("TEMP", 0), SrcRegister("IMM", 1))
    assert inst.memory_target == "2D"
    assert inst.memory_format == "PIPE_FORMAT_R8G8B8A8_UNORM"
    assert inst.memory_qualifiers == ("COHERENT", "VOLATILE")  # canonical bit order


def test_atomic_operand_order():
    inst = only_inst("ATOMCAS TEMP[0].x, BUFFER[1], TEMP[1].xxxx, TEMP[2].xxxx, TEMP[3].xxxx", "COMP")
    assert inst.dsts == (DstRegister("TEMP", 0, writemask=1),)
    assert [s.file for s in inst.srcs] == ["BUFFER", "TEMP", "TEMP", "TEMP"]


def test_branch_labels():
    shader = body("IF TEMP[0].xxxx :2\nELSE :3\nENDIF\nBGNLOOP :5\nBRK\nENDLOOP :3\nCAL :7\nBGNSUB\nRET\nENDSUB")
    assert [(i.opcode, i.label) for i in shader.instructions] == [
        ("IF", 2),
        ("ELSE", 3),
        ("ENDIF", None),
        ("BGNLOOP", 5),
        ("BRK", None),
        ("ENDLOOP", 3),
        ("CAL", 7),
        ("BGNSUB", None),
        ("RET", None),
        ("ENDSUB", None),
    ]


def test_switch_case():
    shader = body("SWITCH TEMP[0].xxxx\nCASE IMM[0].xxxx\nBRK\nDEFAULT\nBRK\nENDSWITCH")
    assert [i.opcode for i in shader.instructions] == ["SWITCH", "CASE", "BRK", "DEFAULT", "BRK", "ENDSWITCH"]


def test_emit_with_stream_and_bare_legacy_emit():
    shader = body("EMIT IMM[0].xxxx\nENDPRIM IMM[0].yyyy\nEMIT\nENDPRIM\nEND", "GEOM")
    assert [(i.opcode, i.srcs) for i in shader.instructions] == [
        ("EMIT", (SrcRegister("IMM", 0, swizzle=(0, 0, 0, 0)),)),
        ("ENDPRIM", (SrcRegister("IMM", 0, swizzle=(1, 1, 1, 1)),)),
        ("EMIT", ()),
        ("ENDPRIM", ()),
        ("END", ()),
    ]


def test_zero_operand_opcodes_and_two_statements_on_one_line():
    # compute.c-era text runs "BGNSUB" into the next instruction on the same line
    shader = body("BGNSUB  UMUL TEMP[0], SV[0], SV[1]\nRET\nENDSUB", "COMP")
    assert [i.opcode for i in shader.instructions] == ["BGNSUB", "UMUL", "RET", "ENDSUB"]


# -- legacy text ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, opcode, ndst, nsrc",
    [
        ("ABS TEMP[0], TEMP[1]", "ABS", 1, 1),
        ("SUB TEMP[0], TEMP[1], TEMP[2]", "SUB", 1, 2),
        ("XPD TEMP[0], TEMP[1], TEMP[2]", "XPD", 1, 2),
        ("DPH TEMP[0], TEMP[1], TEMP[2]", "DPH", 1, 2),
        ("SCS TEMP[0], TEMP[1]", "SCS", 1, 1),
        ("NRM TEMP[0], TEMP[1]", "NRM", 1, 1),
        ("DP2A TEMP[0], TEMP[1], TEMP[2], TEMP[3]", "DP2A", 1, 3),
        ("CND TEMP[0], TEMP[1], TEMP[2], TEMP[3]", "CND", 1, 3),
        ("LIT TEMP[0], TEMP[1]", "LIT", 1, 1),
        ("DST TEMP[0], TEMP[1], TEMP[2]", "DST", 1, 2),
        ("EXP TEMP[0], TEMP[1]", "EXP", 1, 1),
        ("LOG TEMP[0], TEMP[1]", "LOG", 1, 1),
        ("PK2US TEMP[0], TEMP[1]", "PK2US", 1, 1),
        ("PK4B TEMP[0], TEMP[1]", "PK4B", 1, 1),
        ("PK4UB TEMP[0], TEMP[1]", "PK4UB", 1, 1),
        ("UP4UB TEMP[0], TEMP[1]", "UP4UB", 1, 1),
        ("TEX_LZ TEMP[0], TEMP[1], SAMP[0], 2D", "TEX_LZ", 1, 2),
        ("TXF_LZ TEMP[0], TEMP[1], SAMP[0], 2D", "TXF_LZ", 1, 2),
        ("KIL TEMP[0]", "KILL_IF", 0, 1),
        ("KILP", "KILL", 0, 0),
    ],
)
def test_removed_opcodes_parse(line, opcode, ndst, nsrc):
    inst = only_inst(line)
    assert (inst.opcode, len(inst.dsts), len(inst.srcs)) == (opcode, ndst, nsrc)


def test_fences_take_a_resource():
    inst = only_inst("MFENCE BUFFER[0]", "COMP")
    assert inst == Instruction("MFENCE", srcs=(SrcRegister("BUFFER", 0),))
    assert only_inst("LFENCE BUFFER[0]", "COMP").opcode == "LFENCE"
    assert only_inst("SFENCE BUFFER[0]", "COMP").opcode == "SFENCE"


def test_res_file_becomes_image_buffer_or_sview():
    shader = parse(
        "COMP\nDCL RES[0], BUFFER, RAW, WR\nDCL RES[1], 2D, RAW, WR\n"
        "DCL RES[2], 2D, FLOAT\nLOAD TEMP[0], RES[0], TEMP[1]\n"
        "STORE RES[1].xyzw, TEMP[1], TEMP[0]\nSAMPLE_I TEMP[0], TEMP[1], RES[2]\n"
    )
    assert shader.declarations == (
        Declaration("BUFFER", 0, 0),
        Declaration("IMAGE", 1, 1, target="2D", raw=True, writable=True),
        Declaration("SVIEW", 2, 2, target="2D", return_types=("FLOAT",) * 4),
    )
    assert shader.instructions[0].srcs[0] == SrcRegister("BUFFER", 0)
    assert shader.instructions[1].dsts[0] == DstRegister("IMAGE", 1)
    assert shader.instructions[2].srcs[1] == SrcRegister("SVIEW", 2)


def test_bare_compute_memory_names_become_memory_registers():
    shader = parse(
        "COMP\nDCL MEMORY[0], SHARED\nLOAD TEMP[1].xy, RINPUT, TEMP[0]\n"
        "STORE RLOCAL.x, TEMP[0], TEMP[1]\nMFENCE RLOCAL\n"
    )
    assert shader.declarations == (
        Declaration("MEMORY", 0, 0, memory_type="SHARED"),
        Declaration("MEMORY", 1, 1, memory_type="INPUT"),
        Declaration("MEMORY", 2, 2, memory_type="SHARED"),
    )
    assert shader.instructions[0].srcs[0] == SrcRegister("MEMORY", 1)
    assert shader.instructions[1].dsts[0] == DstRegister("MEMORY", 2, writemask=1)
    assert shader.instructions[2].srcs[0] == SrcRegister("MEMORY", 2)


def test_immx_immediate_arrays_append_immediates():
    shader = parse(
        "FRAG\nIMM FLT32 {9, 9, 9, 9}\nDCL IMMX[0..1] {{1, 2, 3, 4}, {5, 6, 7, 8}}\nMOV TEMP[0], IMMX[ADDR[0].x+1]\n"
    )
    assert [imm.words for imm in shader.immediates] == [
        (f32(9),) * 4,
        tuple(map(f32, (1, 2, 3, 4))),
        tuple(map(f32, (5, 6, 7, 8))),
    ]
    assert shader.instructions[0].srcs[0] == SrcRegister("IMM", 2, indirect=Indirect("ADDR", 0))


def test_tempx_arrays_become_temp_arrays_after_the_temps():
    shader = parse(
        "FRAG\nDCL TEMP[0..1]\nDCL TEMPX[0][0..3]\nMOV TEMPX[0][2], TEMP[0]\nMOV TEMP[1], TEMPX[0][ADDR[0].x+1]\n"
    )
    assert shader.declarations == (Declaration("TEMP", 0, 1), Declaration("TEMP", 2, 5, array_id=1))
    assert shader.instructions[0].dsts[0] == DstRegister("TEMP", 4, array_id=1)
    assert shader.instructions[1].srcs[0] == SrcRegister("TEMP", 3, indirect=Indirect("ADDR", 0, 0, array_id=1))


def test_cylwrap_attribute_is_accepted():
    assert body("DCL IN[0], GENERIC[0], LINEAR, CYLWRAP_XY") == body("DCL IN[0], GENERIC[0], LINEAR")


def test_crlf_line_endings_and_comments():
    text = "FRAG\r\nDCL IN[0], GENERIC[0], PERSPECTIVE\r\n; a comment\r\nMOV OUT[0], IN[0] // another\r\nEND\r\n"
    lf = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nMOV OUT[0], IN[0]\nEND\n"
    assert parse(text) == parse(lf)
    with pytest.raises(TGSIParseError) as err:
        parse("FRAG\r\nMOV OUT[0] IN[0]\r\n")
    assert (err.value.line, err.value.column) == (2, 12)


def test_keywords_are_case_insensitive():
    a = parse(
        "frag\ndcl in[0], generic[0], perspective\ndcl out[0], color\n"
        "dcl sview[0], 2d, float\nimm[0] flt32 {1, 0, 0, 1}\nproperty fs_coord_origin upper_left\n"
        "tex_sat out[0], in[0], samp[0], 2d\nend\n"
    )
    b = parse(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
        "DCL SVIEW[0], 2D, FLOAT\nIMM[0] FLT32 {1, 0, 0, 1}\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\n"
        "TEX_SAT OUT[0], IN[0], SAMP[0], 2D\nEND\n"
    )
    assert a == b


def test_bytes_input_is_accepted():
    assert parse(b"FRAG\nEND\n") == Shader("FRAG", instructions=(Instruction("END"),))


def test_the_compute_example_of_the_reference():
    text = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {64, 4, 0, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx
END
"""
    shader = parse(text)
    x = (0, 0, 0, 0)
    assert shader.instructions == (
        Instruction(
            "UMAD",
            (DstRegister("TEMP", 0, 1),),
            (SrcRegister("SV", 1, x), SrcRegister("IMM", 0, x), SrcRegister("SV", 0, x)),
        ),
        Instruction(
            "UMUL", (DstRegister("TEMP", 1, 1),), (SrcRegister("TEMP", 0, x), SrcRegister("IMM", 0, (1, 1, 1, 1)))
        ),
        Instruction("STORE", (DstRegister("BUFFER", 0, 1),), (SrcRegister("TEMP", 1, x), SrcRegister("TEMP", 0, x))),
        Instruction("END"),
    )
    assert shader.immediates == (Immediate("UINT32", (64, 4, 0, 0)),)
