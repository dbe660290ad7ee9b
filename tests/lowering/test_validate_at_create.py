"""The issue-12 programs the host once rejected at draw are refused at create
(issue 12 item 2): ``create_*_state`` raises ShaderValidationError or
UnsupportedError naming the line and the reason, on both profiles, and the
context stays usable (a good shader is created and drawn after each)."""

from __future__ import annotations

import pytest

from glpipe import ShaderState
from lowering.errors import ShaderValidationError, UnsupportedError

VS_HEAD = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
FS_HEAD = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
GS = (
    "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE {oprim}\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n"
    "IMM[0] INT32 {{-1, 1, 0, 0}}\n  0: MOV OUT[0], IN[{vertex}][0]\n  1: EMIT IMM[0].{stream}\n  2: END\n"
)

# (stage, program, words the message names, line)
CASES = {
    "fs_sv_instanceid": (
        "fs",
        "FRAG\nDCL SV[0], INSTANCEID\nDCL OUT[0], COLOR\n  0: U2F OUT[0], SV[0].xxxx\n  1: END\n",
        "INSTANCEID",
        2,
    ),
    "fs_sv_tessouter": (
        "fs",
        "FRAG\nDCL SV[0], TESSOUTER\nDCL OUT[0], COLOR\n  0: MOV OUT[0], SV[0]\n  1: END\n",
        "TESSOUTER",
        2,
    ),
    "fs_in_subgroup_size": (
        "fs",
        "FRAG\nDCL IN[0], SUBGROUP_SIZE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n",
        "SUBGROUP_SIZE",
        2,
    ),
    "vs_sv_grid_size": ("vs", VS_HEAD + "DCL SV[0], GRID_SIZE\n  0: U2F OUT[0], SV[0]\n  1: END\n", "GRID_SIZE", 4),
    "vs_sv_tesscoord": ("vs", VS_HEAD + "DCL SV[0], TESSCOORD\n  0: MOV OUT[0], SV[0]\n  1: END\n", "TESSCOORD", 4),
    "fs_color8": (
        "fs",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR[8]\n  0: MOV OUT[0], IN[0]\n  1: END\n",
        "COLOR[8]",
        3,
    ),
    "fs_color4096": (
        "fs",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR[4096]\n  0: MOV OUT[0], IN[0]\n  1: END\n",
        "COLOR[4096]",
        3,
    ),
    "vs_clipdist9": (
        "vs",
        VS_HEAD + "DCL OUT[1], CLIPDIST[9]\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[0]\n  2: END\n",
        "CLIPDIST[9]",
        4,
    ),
    "gs_in255": ("gs", GS.format(oprim="POINTS", vertex=255, stream="zzzz"), "IN[255]", 8),
    "gs_stream_minus_1": ("gs", GS.format(oprim="POINTS", vertex=0, stream="xxxx"), "stream -1", 9),
    "gs_stream_1_strip": ("gs", GS.format(oprim="TRIANGLE_STRIP", vertex=0, stream="yyyy"), "POINTS", 9),
    "fs_index_2p63": (
        "fs",
        FS_HEAD + "DCL TEMP[0]\n  0: MOV OUT[0], TEMP[9223372036854775807]\n  1: END\n",
        "16-bit",
        5,
    ),
    "fs_duplicate_case": (
        "fs",
        FS_HEAD + "DCL TEMP[0]\nIMM[0] UINT32 {1, 1, 0, 0}\n  0: F2U TEMP[0].x, IN[0].xxxx\n  1: SWITCH TEMP[0].xxxx\n"
        "  2: CASE IMM[0].xxxx\n  3: BRK\n  4: CASE IMM[0].yyyy\n  5: BRK\n  6: ENDSWITCH\n  7: END\n",
        "repeats",
        10,
    ),
    "fs_sample_on_shadow_view": (
        "fs",
        FS_HEAD
        + "DCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT\n  0: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]\n  1: END\n",
        "SHADOW2D",
        6,
    ),
    "vs_txb": (
        "vs",
        VS_HEAD + "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n  0: TXB OUT[0], IN[0], SAMP[0], 2D\n  1: END\n",
        "TXB",
        6,
    ),
}

GOOD_FS = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_refused_at_create(ctx, name):
    stage, text, word, line = CASES[name]
    with pytest.raises((ShaderValidationError, UnsupportedError)) as err:
        getattr(ctx, f"create_{stage}_state")(ShaderState(tokens=text))
    message = str(err.value)
    assert word in message and f"line {line}" in message, message
    assert ctx.create_fs_state(ShaderState(tokens=GOOD_FS)) is not None
