"""Execution tests: float source modifiers on the untyped opcodes (UCMP, READ_FIRST, READ_INVOC).

Gallium applies a source modifier in the type the opcode reads that source
in (``tgsi_opcode_infer_src_type``: every UCMP source and the READ_* sources
are float-typed, MOV/UCMP's untyped results "assume data is float" in
gallivm's ``lp_build_emit_fetch``, tgsi_exec fetches UCMP's sources as
float): ``-x`` flips the sign bit, ``|x|`` clears it, ``-|x|`` sets it --
whatever register web the value lives in.  The selected (or read) bits then
move untouched, and UCMP tests src0's *bits* against zero, so ``-0`` (a
source word 0 under ``-``) selects src1.

The fuzzer found programs where a modified source of such an opcode lives in
an integer web (seeds 2006614, 2009028, 2012956, 2015034, 2015138, 2021320):
the lowering assigned a ``vec`` to a ``uvec`` / ``ivec`` and the host refused
the shader.  Each shape is reduced here to a few TGSI lines whose webs are
integer by construction (a ``UADD x, x, 0`` or ``IMAX x, x, x`` identity
makes the web vote uint or int).  The expected words are numpy on those
definitions (sign-bit operations on the words, a bit test of src0), run on
the host at GLSL 330 (gl33 profile) and 450 (native).
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

from lowering.errors import UnsupportedError

gl = H.module_harness()
version = H.version_fixture()

U32 = np.uint32
SIGN = U32(0x80000000)
BITS = H.Precision("bits", why="untyped select: float modifiers on the words, then a bit move (tgsi.rst)")


def modified(words: np.ndarray, text: str) -> np.ndarray:
    """The words of ``text`` (``-X``, ``|X|``, ``-|X|`` or ``X``) as Gallium's float modifiers leave them."""
    w = np.asarray(words, U32)
    if "|" in text:
        w = w & ~SIGN
    if text.startswith("-"):
        w = w ^ SIGN
    return w


# Words that are integers, ±0, floats, a NaN and denormals: the cases the
# fuzzer produced (integer registers under float modifiers) and the edges.
CONDS = [0, 1, SIGN, 0xFFFFFFFF, 0x3F800000, 0, 7, 0x80000001, 2, 0, 0x7FC00000, 0]
VAL_A = [5, 0xFFFFFFFB, 0, SIGN, 0x3F800000, 0xBF800000, 123456789, 0x7F800000, 0x7FC00001, 42, 1, 0xFFFFFFFF]
VAL_B = [9, 0x40000000, SIGN, 0, 0xC0490FDB, 3, 0x00000001, 0x807FFFFF, 77, 0xFFFFFFFF, 0x12345678, 0]

# The web each source and the result lives in: an identity of that type.
IDENTITY = {"uint": "UADD {r}, {r}, IMM[1].yyyy", "int": "IMAX {r}, {r}, {r}"}

# (src0, src1, src2, writemask) operand texts of the reduced seeds.
SELECTS = [
    ("SRC0", "SRC0", "-|SRC0|", "yw"),  # 2006614: one register under -|x|, .yw written
    ("SRC0", "SRC1", "|SRC1.wxxy|", "xyzw"),  # 2009028: |x| of the register the other arm reads
    ("SRC0", "SRC1", "-SRC2", "yw"),  # 2012956: -x on src2
    ("|SRC0|", "SRC1", "-SRC2", "xyzw"),  # 2015034: |x| on the selector, -x on src2
    ("SRC0", "SRC1", "|SRC2|", "xyz"),  # 2015138: |x| on src2
    ("SRC0", "-SRC1", "SRC2", "xyzw"),  # -x on src1
    ("-SRC0", "SRC1", "SRC2", "xyzw"),  # -x on the selector: 0 becomes -0, which is != 0
]


def _swizzled(words: np.ndarray, text: str) -> np.ndarray:
    """Apply the ``.wxxy``-style swizzle written in ``text``, if any."""
    if "." not in text:
        return words
    swz = text.split(".")[1].rstrip("|")
    return words[:, ["xyzw".index(c) for c in swz]]


def _expected(texts, srcs) -> np.ndarray:
    s0, s1, s2 = (modified(_swizzled(srcs[int(t.strip("-|")[3])], t), t) for t in texts)
    return np.where(s0 != 0, s1, s2).astype(U32)


@pytest.mark.parametrize("web", ["uint", "int"])
@pytest.mark.parametrize("select", SELECTS, ids=lambda s: " ".join(s[:3]).replace("|", "abs"))
def test_ucmp_float_modifiers_in_integer_webs(gl, version, web, select):
    """UCMP with a float modifier on a source of an integer web: compiles and moves the modified bits."""
    *texts, mask = select
    srcs = H.columns(CONDS, VAL_A, VAL_B, dtype="u32")
    ident = IDENTITY[web]
    body = "\n".join(
        [ident.format(r=f"SRC{j}") for j in range(3)]
        + [f"UCMP DST.{mask}, " + ", ".join(texts)]
        + [ident.format(r="DST")]
    )
    exp = _expected(texts, srcs)
    inmask = np.array([c in mask for c in "xyzw"])
    exp = np.where(inmask, exp, H.SENTINEL)
    H.run_check(gl, "UCMP", srcs, version, body=body, mask=mask, expected=exp, rule=BITS, label=f" {web} web")


def test_ucmp_modified_immediate_into_integer_web(gl, version):
    """Seed 2021320: ``UCMP TEMP[3], TEMP[2], TEMP[2], -IMM[0]`` with TEMP[2] / TEMP[3] unsigned."""
    decls = "IMM[2] UINT32 {0x00000000, 0x80000000, 0x00000001, 0x3f800000}"
    body = "\n".join(
        [
            IDENTITY["uint"].format(r="SRC0"),
            "UCMP DST, SRC0, SRC0, -IMM[2]",
            IDENTITY["uint"].format(r="DST"),
        ]
    )
    srcs = H.columns(CONDS, dtype="u32")
    imm = np.array([0, SIGN, 1, 0x3F800000], U32)
    exp = np.where(srcs[0] != 0, srcs[0], imm ^ SIGN).astype(U32)
    H.run_check(gl, "UCMP", srcs, version, body=body, decls=decls, expected=exp, rule=BITS, nsrc=1)


HEADER = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {5, 0, 2147483648, 1065353216}
IMM[1] UINT32 {32, 0, 16, 0}
"""

# Each read's source words are the same in every invocation, so the value
# read does not depend on which lane is first / on lane 0's position.
READS = (
    HEADER
    + """UMUL TEMP[0].x, SV[0].xxxx, IMM[1].xxxx
MOV TEMP[2], IMM[0]
UADD TEMP[2], TEMP[2], IMM[1].yyyy
READ_FIRST TEMP[1], -TEMP[2]
UADD TEMP[1], TEMP[1], IMM[1].yyyy
READ_INVOC TEMP[3], |TEMP[2].wzyx|, IMM[0].yyyy
UADD TEMP[3], TEMP[3], IMM[1].yyyy
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].zzzz
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[3]
END
"""
)

# The same read in a fragment shader, for the GLSL 330 refusal (no compute there).
READ_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] UINT32 {5, 0, 2147483648, 1065353216}
READ_FIRST TEMP[0], -IMM[0]
MOV OUT[0], TEMP[0]
END
"""


def test_read_first_and_invoc_float_modifiers(gl, version):
    """READ_FIRST / READ_INVOC of a modified source in a uint web: the float modifier's bits are read.

    Seeds 2012956 / 2021320 hold such reads; the ballot opcodes exist only
    where SHADER_BALLOT is 1 (GLSL 450 with GL_ARB_shader_ballot): at 330
    the lowering refuses them, naming the opcode."""
    if version < 450:
        with pytest.raises(UnsupportedError, match="READ_FIRST"):
            gl.lower(READ_FS, version)
        return
    n = 4
    out = gl.run_cs(READS, {0: np.zeros(8 * n, U32)}, glsl_version=version)
    res = out[0].reshape(n, 8)
    imm = np.array([5, 0, 0x80000000, 0x3F800000], U32)
    first = imm ^ SIGN
    invoc = imm[::-1] & ~SIGN
    np.testing.assert_array_equal(res[:, :4], np.tile(first, (n, 1)), err_msg="READ_FIRST -x")
    np.testing.assert_array_equal(res[:, 4:], np.tile(invoc, (n, 1)), err_msg="READ_INVOC |x|")
