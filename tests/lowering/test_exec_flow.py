"""Execution tests: control flow -- IF/UIF/ELSE, loops with BRK/CONT, SWITCH, CAL/RET, KILL.

IF is a float test (src.x != 0.0: -0.0 is false, NaN is true), UIF an
integer test (any non-zero word, so -0.0's bits 0x80000000 are true).
SWITCH compares bit patterns and falls through like C, also out of DEFAULT.
Each case runs the program once (one pixel / invocation); expected values
are worked out by hand in numpy from tgsi.rst's definitions.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H
import tgsi_reference as R

gl = H.module_harness()
version = H.version_fixture()

INF, NAN = float("inf"), float("nan")
UMAX = 2**32 - 1
BITS = H.Precision("bits", why="control flow picks exact words")
SENT = [int(v) for v in H.SENTINEL]


def _rows(rows):
    return R.words(np.array(rows, dtype=object))


IF_BODY = """{op} SRC0.{swz}
  MOV DST, IMM[2].xxxx
ELSE
  MOV DST, IMM[2].yyyy
ENDIF"""


@pytest.mark.parametrize("swz", ["xxxx", "wzyx"])
def test_if_is_a_float_test(gl, version, swz):
    xs = [1, 0.0, -0.0, NAN, -1, INF, 1e-30, -INF]
    col = 0 if swz == "xxxx" else 3
    vals = np.full((len(xs), 4), 5.0)  # the other lanes are non-zero: reading them would flip 0 cases
    vals[:, col] = xs
    taken = np.array([x != 0 for x in xs])  # NaN != 0 is true
    exp = _rows([[1] * 4 if t else [2] * 4 for t in taken])
    H.run_check(
        gl,
        "IF",
        [R.f32_words(vals)],
        version,
        body=IF_BODY.format(op="IF", swz=swz),
        decls="IMM[2] UINT32 {1, 2, 3, 4}",
        expected=exp,
        rule=BITS,
    )


def test_uif_is_an_integer_test(gl, version):
    xs = [0, 1, 0x80000000, UMAX, 0x7FC00000, 2, 0x00000100, 0]
    src = _rows([[x, 0, 0, 0] for x in xs])
    exp = _rows([[1] * 4 if x else [2] * 4 for x in xs])
    H.run_check(
        gl,
        "UIF",
        [src],
        version,
        body=IF_BODY.format(op="UIF", swz="xxxx"),
        decls="IMM[2] UINT32 {1, 2, 3, 4}",
        expected=exp,
        rule=BITS,
    )


def test_nested_if(gl, version):
    body = """UIF SRC0.xxxx
  IF SRC0.yyyy
    MOV DST.x, IMM[2].xxxx
  ELSE
    MOV DST.x, IMM[2].yyyy
  ENDIF
ELSE
  MOV DST.x, IMM[2].zzzz
ENDIF"""
    cases = [(1, 1.0), (1, 0.0), (0, 1.0), (0, 0.0), (7, -0.0), (7, NAN)]
    src = R.words(np.array([[a, np.float32(b).view(np.uint32), 0, 0] for a, b in cases], dtype=object))
    exp = _rows([[(1 if b != 0 else 2) if a else 3] + SENT[1:] for a, b in cases])
    H.run_check(gl, "IF", [src], version, body=body, decls="IMM[2] UINT32 {1, 2, 3, 4}", expected=exp, rule=BITS)


LOOP_BODY = """MOV DST, IMM[2].xxxx
MOV SRC1, IMM[2].xxxx
BGNLOOP
  USGE SRC1.y, SRC1.xxxx, SRC0.xxxx
  UIF SRC1.yyyy
    BRK
  ENDIF
  UADD SRC1.x, SRC1.xxxx, IMM[2].yyyy
  UADD DST.y, DST.yyyy, IMM[2].yyyy
  AND SRC1.z, SRC1.xxxx, IMM[2].yyyy
  UIF SRC1.zzzz
    CONT
  ENDIF
  UADD DST.x, DST.xxxx, SRC1.xxxx
ENDLOOP"""


@pytest.mark.parametrize("path,ver", H.PATHS, ids=H.PATH_IDS)
def test_loop_brk_cont(gl, path, ver):
    """for (i = 1..n): count; skip odd i with CONT; sum the even ones; BRK at n."""
    ns = [0, 1, 2, 5, 10, 3, 7, 4]
    src = _rows([[n, 9, 9, 9] for n in ns])
    exp = _rows([[sum(i for i in range(1, n + 1) if i % 2 == 0), n, 0, 0] for n in ns])
    H.run_check(
        gl,
        "BGNLOOP",
        [src, np.zeros_like(src)],
        ver,
        path=path,
        body=LOOP_BODY,
        decls="IMM[2] UINT32 {0, 1, 2, 3}",
        expected=exp,
        rule=BITS,
    )


def test_nested_loops_break_inner_only(gl, version):
    body = """MOV DST, IMM[2].xxxx
MOV SRC1, IMM[2].xxxx
BGNLOOP
  USGE SRC1.z, SRC1.xxxx, SRC0.xxxx
  UIF SRC1.zzzz
    BRK
  ENDIF
  MOV SRC1.y, IMM[2].xxxx
  BGNLOOP
    USGE SRC1.w, SRC1.yyyy, SRC0.yyyy
    UIF SRC1.wwww
      BRK
    ENDIF
    UADD DST.x, DST.xxxx, IMM[2].yyyy
    UADD SRC1.y, SRC1.yyyy, IMM[2].yyyy
  ENDLOOP
  UADD DST.y, DST.yyyy, IMM[2].yyyy
  UADD SRC1.x, SRC1.xxxx, IMM[2].yyyy
ENDLOOP"""
    cases = [(0, 5), (3, 0), (2, 3), (4, 4), (1, 7), (5, 1)]
    src = _rows([[a, b, 0, 0] for a, b in cases])
    exp = _rows([[a * b, a, 0, 0] for a, b in cases])
    H.run_check(
        gl,
        "BGNLOOP",
        [src, np.zeros_like(src)],
        version,
        body=body,
        decls="IMM[2] UINT32 {0, 1, 2, 3}",
        expected=exp,
        rule=BITS,
    )


SWITCH_BODY = """MOV DST, IMM[4].yyyy
SWITCH SRC0.xxxx
CASE IMM[2].xxxx
  MOV DST.x, IMM[3].xxxx
  BRK
CASE IMM[2].yyyy
  MOV DST.x, IMM[3].yyyy
CASE IMM[2].zzzz
  MOV DST.y, IMM[3].zzzz
  BRK
DEFAULT
  MOV DST.z, IMM[3].wwww
CASE IMM[2].wwww
  MOV DST.w, IMM[4].xxxx
  BRK
ENDSWITCH"""
SWITCH_DECLS = """IMM[2] UINT32 {0, 1, 2, 4294967295}
IMM[3] UINT32 {10, 11, 12, 99}
IMM[4] UINT32 {7, 0, 0, 0}"""


def _switch_expected(x):
    if x == 0:
        return [10, 0, 0, 0]
    if x == 1:
        return [11, 12, 0, 0]  # falls through into CASE 2
    if x == 2:
        return [0, 12, 0, 0]
    if x == UMAX:
        return [0, 0, 0, 7]
    return [0, 0, 99, 7]  # DEFAULT falls through into the CASE after it


@pytest.mark.parametrize("path,ver", H.PATHS, ids=H.PATH_IDS)
def test_switch(gl, path, ver):
    xs = [0, 1, 2, UMAX, 3, 0x80000000, 100, 1]
    src = _rows([[x, 5, 5, 5] for x in xs])
    exp = _rows([_switch_expected(x) for x in xs])
    H.run_check(gl, "SWITCH", [src], ver, path=path, body=SWITCH_BODY, decls=SWITCH_DECLS, expected=exp, rule=BITS)


CAL_BODY = """CAL :@SUB
MOV DST.z, DST.xxxx
UADD SRC0.x, SRC0.xxxx, IMM[2].yyyy
CAL :@SUB"""
CAL_TAIL = """@SUB: BGNSUB
  UADD DST.x, SRC0.xxxx, SRC0.xxxx
  USLT SRC1.y, SRC0.xxxx, IMM[2].wwww
  UIF SRC1.yyyy
    RET
  ENDIF
  MOV DST.y, IMM[2].zzzz
  RET
ENDSUB"""


@pytest.mark.parametrize("path,ver", H.PATHS, ids=H.PATH_IDS)
def test_cal_ret(gl, path, ver):
    """A subroutine called twice; its early RET (inside UIF) returns to the caller."""
    xs = [0, 1, 2, 3, 10, UMAX, 0x80000000, 5]
    src = _rows([[x, 0, 0, 0] for x in xs])

    def expect(x):
        second = (x + 1) & UMAX
        y = 2 if (x >= 3 or second >= 3) else SENT[1]
        return [(2 * second) & UMAX, y, (2 * x) & UMAX, SENT[3]]

    exp = _rows([expect(x) for x in xs])
    H.run_check(
        gl,
        "CAL",
        [src, np.zeros_like(src)],
        ver,
        path=path,
        body=CAL_BODY,
        tail=CAL_TAIL,
        decls="IMM[2] UINT32 {0, 1, 2, 3}",
        expected=exp,
        rule=BITS,
    )


@pytest.mark.parametrize("op", ["RET", "END"])
def test_early_exit_from_main(gl, version, op):
    """RET / END inside UIF in main ends the shader; outputs written before it stay."""
    body = f"""MOV OUT[0], IMM[2]
UIF SRC0.xxxx
  {op}
ENDIF
MOV DST, IMM[3]"""
    xs = [0, 1, 0, 7]
    src = _rows([[x, 0, 0, 0] for x in xs])
    exp = _rows([[1, 2, 3, 4] if x else [5, 6, 7, 8] for x in xs])
    H.run_check(
        gl,
        op,
        [src],
        version,
        body=body,
        decls="IMM[2] UINT32 {1, 2, 3, 4}\nIMM[3] UINT32 {5, 6, 7, 8}",
        expected=exp,
        rule=BITS,
    )


CLEAR = (-1.0, -2.0, -3.0, -4.0)


@pytest.mark.parametrize("op", ["KILL_IF", "KIL"])
def test_kill_if(gl, version, op):
    """KILL_IF (old spelling KIL) discards when any component is < 0 (-0.0 and NaN are not)."""
    rows = [
        [1, 1, 1, 1],
        [1, -1, 1, 1],
        [-0.0, 0, 0, 0],
        [NAN, 0, 0, 0],
        [0, 0, 0, -1e-30],
        [-INF, 5, 5, 5],
        [2, 3, 4, 5],
        [0, 0, -0.0, 0],
    ]
    src = R.f32_words(rows)
    killed = [any(v < 0 for v in r) for r in rows]
    clear = R.f32_words([CLEAR])[0]
    exp = np.array([clear if k else [1, 2, 3, 4] for k in killed], dtype=np.uint32)
    H.run_check(
        gl,
        op,
        [src],
        version,
        body=f"{op} SRC0\nMOV DST, IMM[2]",
        decls="IMM[2] UINT32 {1, 2, 3, 4}",
        expected=exp,
        rule=BITS,
        clear=CLEAR,
    )


@pytest.mark.parametrize("op", ["KILL", "KILP"])
def test_kill_in_branch(gl, version, op):
    """KILL (old spelling KILP) inside UIF discards only where the branch is taken."""
    xs = [0, 1, 0, 5, 0x80000000, 0]
    src = _rows([[x, 0, 0, 0] for x in xs])
    clear = R.f32_words([CLEAR])[0]
    exp = np.array([clear if x else [1, 2, 3, 4] for x in xs], dtype=np.uint32)
    H.run_check(
        gl,
        op,
        [src],
        version,
        body=f"UIF SRC0.xxxx\n  {op}\nENDIF\nMOV DST, IMM[2]",
        decls="IMM[2] UINT32 {1, 2, 3, 4}",
        expected=exp,
        rule=BITS,
        clear=CLEAR,
    )


def test_nop(gl, version):
    src = _rows([[1, 2, 3, 4], [0x7F800001, 0, 0xFFFFFFFF, 5]])
    H.run_check(gl, "NOP", [src], version, body="NOP\nMOV DST, SRC0\nNOP", expected=src, rule=BITS)


def test_breakc(gl, version):
    """Removed BREAKC: leave the loop when src.x != 0 (integer test); counts up to n."""
    ns = [0, 1, 5, 12]
    src = _rows([[n, 0, 0, 0] for n in ns])
    body = """MOV DST, IMM[2].xxxx
BGNLOOP
  USEQ SRC1.x, DST.xxxx, SRC0.xxxx
  BREAKC SRC1.xxxx
  UADD DST.x, DST.xxxx, IMM[2].yyyy
ENDLOOP"""
    H.run_check(
        gl,
        "BREAKC",
        [src, np.zeros_like(src)],
        version,
        body=body,
        decls="IMM[2] UINT32 {0, 1, 2, 3}",
        expected=_rows([[n, 0, 0, 0] for n in ns]),
        rule=BITS,
    )
