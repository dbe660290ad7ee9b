"""Unit tests of the GLSL emitter's building blocks: literals, typed webs, the key,
error cases.  (Whole-shader output is pinned by the goldens; behaviour on the GPU by the
test_exec_* modules.)"""

from __future__ import annotations

import re

import pytest

from lowering import VariantKey, to_glsl
from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.exprs import bitcast, float_text, int_text, literal, uint_text


@pytest.mark.parametrize(
    "word, text",
    [
        (0x3F800000, "1.0"),
        (0x3DCCCCCD, "0.1"),
        (0xC2C80000, "-100.0"),
        (0x4B800000, "16777216.0"),
        (0x7F7FFFFF, "3.4028235e38"),
        (0x00800000, "1.1754944e-38"),
        (0x40490FDB, "3.1415927"),
    ],
)
def test_float_literal_text_round_trips(word, text):
    assert float_text(word) == text


def test_special_floats_keep_their_bits():
    # NaN, -inf, -0.0 and a denormal cannot be decimal literals: they go through uintBitsToFloat.
    e = literal("float", (0x7FC00000, 0xFF800000, 0x80000000, 0x00000001))
    assert e.text == (
        "vec4(uintBitsToFloat(0x7fc00000u), uintBitsToFloat(0xff800000u), "
        "uintBitsToFloat(0x80000000u), uintBitsToFloat(1u))"
    )


def test_integer_literals():
    assert int_text(0x80000000) == "int(0x80000000u)"  # -2147483648 overflows a GLSL int literal
    assert int_text(0xFFFFFFF9) == "-7"
    assert uint_text(7) == "7u" and uint_text(0x3F800000) == "0x3f800000u"


def test_bitcasts_fold():
    assert bitcast(literal("uint", (0x3F800000,)), "float").text == "1.0"
    from lowering.glsl.exprs import var

    x = var("t0", "float", 4)
    assert bitcast(bitcast(x, "uint"), "float") is x
    assert bitcast(x, "int").text == "floatBitsToInt(t0)"


FS_HEAD = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"


def _main(source: str) -> str:
    return source[source.index("void main()") :]


def test_mov_of_int_immediate_keeps_bits_in_a_float_register():
    glsl = to_glsl(
        FS_HEAD + "DCL TEMP[0]\nIMM[0] INT32 {-1, 2, 0, 1}\nMOV TEMP[0], IMM[0]\nADD OUT[0], TEMP[0], IN[0]\nEND\n"
    ).source
    assert "vec4 t0 = vec4(0.0);" in glsl
    # -1 and 2 as float bit patterns: 0xffffffff is a NaN, 2 a denormal; 1 stays 1.
    assert "t0 = vec4(uintBitsToFloat(0xffffffffu), uintBitsToFloat(2u), 0.0, uintBitsToFloat(1u));" in glsl


def test_register_reused_for_int_and_float_gets_two_typed_variables():
    text = (
        FS_HEAD + "DCL TEMP[0]\nIMM[0] UINT32 {3, 0, 0, 0}\n"
        "F2U TEMP[0].x, IN[0].xxxx\nUMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "U2F TEMP[0].y, TEMP[0].xxxx\nMUL OUT[0], TEMP[0].yyyy, IN[0]\nEND\n"
    )
    main = _main(to_glsl(text).source)
    # Three values live in TEMP[0] one after the other: two uint, then a float.
    assert re.findall(r"(\w+) (t0\w*) = \w+\(0u?(?:\.0)?\);", main) == [
        ("uvec4", "t0_0"),
        ("uvec4", "t0_1"),
        ("vec4", "t0_2"),
    ]
    assert "t0_1.x = t0_0.x * 3u;" in main
    assert "t0_2.y = float(t0_1.x);" in main
    assert "Bits" not in main  # no bit casts needed at all


def test_loop_carried_value_stays_one_variable():
    text = (
        FS_HEAD + "DCL TEMP[0..1]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n"
        "MOV TEMP[0], IMM[0].yyyy\nBGNLOOP\n  ADD TEMP[0], TEMP[0], IMM[0].xxxx\n"
        "  FSLT TEMP[1].x, IMM[0].xxxx, TEMP[0].xxxx\n  UIF TEMP[1].xxxx\n    BRK\n  ENDIF\n"
        "ENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n"
    )
    main = _main(to_glsl(text).source)
    assert re.findall(r"vec4 (t0\w*) = vec4\(0\.0\);", main) == ["t0"]
    assert "t0 = t0 + vec4(1.0);" in main


def test_330_has_no_binding_qualifiers_but_reflection_names_them():
    text = (
        FS_HEAD + "DCL SAMP[0]\nDCL CONST[2][0..3]\nDCL TEMP[0]\n"
        "TEX TEMP[0], IN[0], SAMP[0], 2D\nMUL OUT[0], TEMP[0], CONST[2][1]\nEND\n"
    )
    shader = to_glsl(text, glsl_version=330)
    refl = shader.reflection
    assert "binding" not in shader.source
    assert refl.needs_manual_binding
    assert dict(refl.uniform_block_bindings) == {"glp_fs_cb2": 22 + 2}  # gl33: FRAG UBOs start at 22
    assert dict(refl.sampler_units) == {"glp_fs_samp0": 0}  # gl33: FRAG units start at 0
    assert refl.const_buffer(2).size == 4
    at450 = to_glsl(text, glsl_version=450)
    assert "layout(std140, binding = 54) uniform glp_fs_cb2" in at450.source
    assert not at450.reflection.needs_manual_binding


def test_unsupported_names_opcode_and_feature():
    # (CLOCK: no GLSL version has it and nothing emulates it; the double opcodes
    # run on soft doubles without GL_ARB_gpu_shader_fp64.)
    text = FS_HEAD + "DCL TEMP[0]\nCLOCK TEMP[0].xy\nMOV OUT[0], TEMP[0]\nEND\n"
    with pytest.raises(UnsupportedError, match=r"CLOCK needs GL_ARB_shader_clock"):
        to_glsl(text, glsl_version=330)
    shader = to_glsl(text, glsl_version=330, extensions={"GL_ARB_shader_clock"})
    assert "#extension GL_ARB_shader_clock : require" in shader.source
    assert shader.reflection.extensions == ("GL_ARB_shader_clock",)


def test_doubles_native_where_the_host_has_them_else_soft():
    """fp64 in the features table: real doubles; without it (GLSL 330 core): the soft
    doubles on uvec2 words, no extension and no double type in the source."""
    text = FS_HEAD + "DCL TEMP[0]\nDADD TEMP[0], IN[0], -IN[0].zwxy\nMOV OUT[0], TEMP[0]\nEND\n"
    native = to_glsl(text, glsl_version=330, extensions={"GL_ARB_gpu_shader_fp64"})
    assert "packDouble2x32" in native.source and "glp_dadd" not in native.source
    soft = to_glsl(text, glsl_version=330)
    assert "glp_dadd(" in soft.source and "glp_dneg(" in soft.source
    assert "double" not in soft.source and "packDouble2x32" not in soft.source
    assert soft.reflection.extensions == ()


def test_recursive_subroutines_are_unsupported():
    text = FS_HEAD + "CAL :3\nMOV OUT[0], IN[0]\nEND\nBGNSUB\n  CAL :3\nENDSUB\nEND\n"
    with pytest.raises(UnsupportedError, match="recursive"):
        to_glsl(text)


def test_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="glsl_version"):
        to_glsl(FS_HEAD + "MOV OUT[0], IN[0]\nEND\n", glsl_version=300)
    with pytest.raises(InvalidArgumentError):
        to_glsl(42)


def test_variant_key_is_hashable_and_parses():
    key = VariantKey.parse(
        [
            "flatshade=1",
            "color_output_types=float,uint",
            "nr_cbufs=2",
            "gl_clamp=1,0,0x4",
            "output_interpolation=GENERIC:0:CONSTANT:CENTER",
        ]
    )
    assert key.flatshade and key.color_type(1) == "uint" and key.color_type(5) == "float"
    assert key.gl_clamp == (1, 0, 4)
    assert key.interpolation_for("GENERIC", 0) == ("CONSTANT", "CENTER")
    assert hash(key) == hash(
        VariantKey.parse(
            [
                "nr_cbufs=2",
                "flatshade=true",
                "color_output_types=float,uint",
                "gl_clamp=1,0,4",
                "output_interpolation=GENERIC:0:CONSTANT:CENTER",
            ]
        )
    )
    assert VariantKey() == VariantKey.parse([])
    with pytest.raises(InvalidArgumentError):
        VariantKey(alpha_func=9)
    with pytest.raises(InvalidArgumentError):
        VariantKey(color_output_types=("half",))
    with pytest.raises(InvalidArgumentError):
        VariantKey.parse(["flatshade=maybe"])


def test_color_output_types_and_broadcast():
    text = (
        "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
        "DCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n"
    )
    src = to_glsl(text, key=VariantKey(nr_cbufs=3, color_output_types=("float", "int", "uint"))).source
    assert "layout(location = 1) out ivec4 glp_frag_color_1;" in src
    assert "glp_frag_color_1 = floatBitsToInt(glp_frag_color_0);" in src
    assert "glp_frag_color_2 = floatBitsToUint(glp_frag_color_0);" in src


def test_lower_left_origin_reads_height_from_sysvals():
    text = (
        "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nDCL IN[0], POSITION, LINEAR\n"
        "DCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n"
    )
    shader = to_glsl(text)
    assert "sysvals.fb_size.y - gl_FragCoord.y" in shader.source
    assert shader.reflection.sysvals_binding == 35  # gl33 layout: the last of 36 UBO bindings
    # The window-system y flip cancels the LOWER_LEFT flip.
    flipped = to_glsl(text, key=VariantKey(y_flip=True))
    assert "glp_frag_color_0 = gl_FragCoord;" in flipped.source
    assert flipped.reflection.sysvals_binding is None
