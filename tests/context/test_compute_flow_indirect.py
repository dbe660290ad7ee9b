"""Control flow and indirect addressing run by launch_grid (host GLSL on
native, the numpy TGSI executor on gl33) and by the executor directly, each
against a numpy model of the kernel written from tgsi.rst: SWITCH / CASE /
DEFAULT / ENDSWITCH with fallthrough, BRK and CONT inside a loop; CAL / RET /
BGNSUB / ENDSUB with nested calls and RET inside loops; ADDR registers
(UARL, ARL) indexing a TEMP array (read and write) and a constant buffer."""

from __future__ import annotations

import numpy as np
import pytest

from fallback.tgsi_exec import BufferBinding, Dispatch, prepare, run_grid
from glpipe import ComputeState, ConstantBuffer, GridInfo
from glpipe.enums import ShaderType
from lowering import parse, validate
from lowering.errors import UnsupportedError

from .util_compute import bind_buffers, read_buffer, shader_buffer

U32 = np.uint32
N = 16
SENTINEL = 0xDEADBEEF
HEAD = f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {N}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
"""


def _labels(text: str) -> str:
    """Resolve ``@NAME:`` markers and ``:@NAME`` targets to instruction indices."""
    lines, names, n = [], {}, 0
    for ln in text.splitlines():
        s = ln.strip()
        if s.startswith("@"):
            name, s = s[1:].split(":", 1)
            names[name] = n
            ln = s.strip()
        if s and not s.startswith(("COMP", "PROPERTY", "DCL", "IMM")):
            n += 1
        lines.append(ln)
    out = "\n".join(lines) + "\n"
    for name, idx in names.items():
        out = out.replace(f":@{name}", f":{idx}")
    return out


def _both(screen, ctx, text: str, words: int, consts: np.ndarray | None = None):
    """(launch_grid's buffer, the executor's buffer) after one block of N."""
    text = _labels(text)
    init = np.full(words, SENTINEL, U32)
    res = shader_buffer(screen, ctx, init)
    bind_buffers(ctx, res)
    if consts is not None:
        ctx.set_constant_buffer(ShaderType.COMPUTE, 0, ConstantBuffer(user_buffer=consts, buffer_size=consts.nbytes))
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=text)))
    ctx.launch_grid(GridInfo(block=(N, 1, 1)))
    gl_out = read_buffer(ctx, res, U32)
    binds = {0: BufferBinding(init.copy(), init.nbytes)}
    run_grid(
        prepare(validate(parse(text)).shader, 0),
        Dispatch((N, 1, 1), (1, 1, 1)),
        binds,
        {0: consts} if consts is not None else None,
    )
    return gl_out, binds[0].words


SWITCH = (
    HEAD
    + """DCL TEMP[0..3]
IMM[0] UINT32 {0, 1, 2, 4}
IMM[1] UINT32 {5, 3, 7, 10}
IMM[2] UINT32 {100, 1000, 100000, 4}
MOV TEMP[0].x, IMM[0].xxxx
MOV TEMP[0].y, IMM[0].xxxx
BGNLOOP
  USGE TEMP[1].x, TEMP[0].xxxx, IMM[1].yyyy
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  UADD TEMP[1].y, SV[0].xxxx, TEMP[0].xxxx
  AND TEMP[1].y, TEMP[1].yyyy, IMM[1].zzzz
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  SWITCH TEMP[1].yyyy
  CASE IMM[0].xxxx
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
    BRK
  CASE IMM[0].yyyy
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[1].wwww
  CASE IMM[0].zzzz
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[2].xxxx
    BRK
  DEFAULT
    USEQ TEMP[2].x, TEMP[1].yyyy, IMM[0].wwww
    UIF TEMP[2].xxxx
      CONT
    ENDIF
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[2].yyyy
  CASE IMM[1].xxxx
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[2].zzzz
  ENDSWITCH
  UADD TEMP[0].y, TEMP[0].yyyy, IMM[1].zzzz
ENDLOOP
UMUL TEMP[3].x, SV[0].xxxx, IMM[2].wwww
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[0].yyyy
END
"""
)


def _switch_model(tid: int) -> int:
    acc = 0
    for j in range(3):
        s = (tid + j) & 7
        if s == 0:
            acc += 1
        elif s == 1:
            acc += 10 + 100  # CASE 1 falls through into CASE 2
        elif s == 2:
            acc += 100
        elif s == 4:
            continue  # CONT from inside DEFAULT skips the code after ENDSWITCH
        elif s == 5:
            acc += 100000
        else:
            acc += 1000 + 100000  # DEFAULT falls through into CASE 5
        acc += 7
    return acc


def test_switch_fallthrough_default_brk_cont(screen, ctx):
    gl_out, ex_out = _both(screen, ctx, SWITCH, N)
    ref = np.array([_switch_model(t) for t in range(N)], U32)
    np.testing.assert_array_equal(ex_out, ref, err_msg="executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg="launch_grid vs numpy")


CALL = (
    HEAD
    + """DCL TEMP[0..4]
IMM[0] UINT32 {0, 1, 2, 5}
IMM[1] UINT32 {1000, 8, 4, 3}
MOV TEMP[0].x, SV[0].xxxx
MOV TEMP[0].y, IMM[0].xxxx
CAL :@SUB
UMUL TEMP[3].x, SV[0].xxxx, IMM[1].yyyy
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[0].yyyy
AND TEMP[3].y, SV[0].xxxx, IMM[0].yyyy
UIF TEMP[3].yyyy
  RET
ENDIF
UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].wwww
CAL :@SUB
UADD TEMP[3].x, TEMP[3].xxxx, IMM[1].zzzz
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[0].yyyy
END
@DOUBLE: BGNSUB
  UADD TEMP[0].y, TEMP[0].yyyy, TEMP[0].yyyy
ENDSUB
@SUB: BGNSUB
  CAL :@DOUBLE
  MOV TEMP[1].x, IMM[0].xxxx
  BGNLOOP
    USGE TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx
    UIF TEMP[2].xxxx
      RET
    ENDIF
    UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
    UADD TEMP[0].y, TEMP[0].yyyy, TEMP[1].xxxx
    USEQ TEMP[2].y, TEMP[1].xxxx, IMM[0].wwww
    UIF TEMP[2].yyyy
      BRK
    ENDIF
  ENDLOOP
  UADD TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
ENDSUB
"""
)


def _sub_model(x: int, acc: int) -> int:
    acc *= 2  # CAL :@DOUBLE
    for i in range(5):
        if i >= x:
            return acc  # RET from inside the loop
        acc += i + 1
    return acc + 1000  # the loop ended by BRK at i == 5


def test_cal_ret_nested_and_from_loops(screen, ctx):
    gl_out, ex_out = _both(screen, ctx, CALL, 2 * N)
    ref = np.full(2 * N, SENTINEL, U32)
    for t in range(N):
        acc = _sub_model(t, 0)
        ref[2 * t] = acc
        if t & 1 == 0:  # odd lanes RET from main before the second call
            ref[2 * t + 1] = _sub_model(t + 3, acc)
    np.testing.assert_array_equal(ex_out, ref, err_msg="executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg="launch_grid vs numpy")


INDIRECT = (
    HEAD
    + """DCL CONST[0][0..7]
DCL TEMP[0..1]
DCL TEMP[2..9], ARRAY(1)
DCL ADDR[0]
IMM[0] UINT32 {0, 1, 8, 3}
IMM[1] UINT32 {7, 4, 0, 0}
IMM[2] FLT32 {0.5, 0.0, 0.0, 0.0}
MOV TEMP[0].x, IMM[0].xxxx
BGNLOOP
  USGE TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  UARL ADDR[0].x, TEMP[0].xxxx
  UMUL TEMP[1].y, TEMP[0].xxxx, TEMP[0].xxxx
  UADD TEMP[1].y, TEMP[1].yyyy, SV[0].xxxx
  MOV TEMP[ADDR[0].x+2](1).x, TEMP[1].yyyy
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
ENDLOOP
UMUL TEMP[0].y, SV[0].xxxx, IMM[0].wwww
AND TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
UARL ADDR[0].x, TEMP[0].yyyy
MOV TEMP[1].x, TEMP[ADDR[0].x+2](1).xxxx
U2F TEMP[0].z, SV[0].xxxx
MUL TEMP[0].z, TEMP[0].zzzz, IMM[2].xxxx
ARL ADDR[0].x, TEMP[0].zzzz
UADD TEMP[1].x, TEMP[1].xxxx, CONST[0][ADDR[0].x].yyyy
UMUL TEMP[0].w, SV[0].xxxx, IMM[1].yyyy
STORE BUFFER[0].x, TEMP[0].wwww, TEMP[1].xxxx
END
"""
)


def test_addr_indexes_temp_array_and_constants(screen, ctx):
    consts = (np.arange(32, dtype=U32) * 37 + 5).astype(U32)
    gl_out, ex_out = _both(screen, ctx, INDIRECT, N, consts)
    t = np.arange(N)
    k = (t * 3) & 7
    ref = (k * k + t + consts.reshape(8, 4)[t // 2, 1]).astype(U32)
    np.testing.assert_array_equal(ex_out, ref, err_msg="executor vs numpy")
    np.testing.assert_array_equal(gl_out, ref, err_msg="launch_grid vs numpy")


BUFFER_INDIRECT = (
    HEAD
    + """DCL BUFFER[1]
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] UINT32 {4, 1, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
AND TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
UARL ADDR[0].x, TEMP[0].yyyy
STORE BUFFER[ADDR[0].x].x, TEMP[0].xxxx, SV[0].xxxx
END
"""
)


def test_buffer_index_from_addr_gl_executor_numpy_agree(screen, ctx):
    """BUFFER[ADDR] (issue 16 item 3): launch_grid on the profile (host GLSL
    on native, the executor on gl33), the executor directly and numpy agree:
    lane t stores t into BUFFER[t & 1] (a per-lane scatter)."""
    a, b = shader_buffer(screen, ctx, np.zeros(N, U32)), shader_buffer(screen, ctx, np.zeros(N, U32))
    bind_buffers(ctx, a, b)
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=BUFFER_INDIRECT)))
    ctx.launch_grid(GridInfo(block=(N, 1, 1)))
    t = np.arange(N, dtype=U32)
    expect = [np.where(t & 1, 0, t), np.where(t & 1, t, 0)]
    binds = {k: BufferBinding(np.zeros(N, U32), 4 * N) for k in range(2)}
    run_grid(prepare(validate(parse(BUFFER_INDIRECT)).shader, 0), Dispatch((N, 1, 1), (1, 1, 1)), binds)
    for k, res in enumerate((a, b)):
        np.testing.assert_array_equal(binds[k].words, expect[k], err_msg=f"executor BUFFER[{k}]")
        np.testing.assert_array_equal(read_buffer(ctx, res, U32), expect[k], err_msg=f"launch_grid BUFFER[{k}]")


def test_subgroup_opcode_refused_at_create_on_gl33(profile, screen, ctx):
    """What the executor cannot run (subgroup operations: docs/compute.md
    "Opcode coverage") is refused at create_compute_state on gl33, naming
    the opcode -- never at launch_grid."""
    text = HEAD + "DCL TEMP[0]\nVOTE_ANY TEMP[0].x, SV[0].xxxx\nEND\n"
    if profile == "gl33":
        with pytest.raises(UnsupportedError, match="VOTE_ANY"):
            ctx.create_compute_state(ComputeState(prog=text))
        return
    cso = ctx.create_compute_state(ComputeState(prog=text))  # the host's compute shaders run it
    assert cso.exec_program is None
