"""The numpy TGSI executor on its own (no GL): control flow with execution
masks, opcode semantics from tgsi.rst against numpy, atomics in lane order,
shared memory per block, and refusals of what it cannot run."""

from __future__ import annotations

import numpy as np
import pytest

from fallback.tgsi_exec import SUPPORTED, BufferBinding, Dispatch, prepare, run_grid
from fallback.tgsi_exec.alu import ALU
from lowering import OPCODES, parse, validate
from lowering.errors import UnsupportedError

U32 = np.uint32
HEAD = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH {n}\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"


def run(body: str, n: int, buffers, grid=(1, 1, 1), shared=0, **dispatch):
    """Run ``body`` (after a header with THREAD_ID in SV[0]) over ``n``-wide blocks."""
    text = HEAD.format(n=n) + "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\n" + body
    prog = prepare(validate(parse(text)).shader, shared)
    binds = {k: BufferBinding(np.ascontiguousarray(b).view(U32).copy(), b.nbytes) for k, b in enumerate(buffers)}
    run_grid(prog, Dispatch((n, 1, 1), grid, **dispatch), binds)
    return [binds[k].words for k in range(len(buffers))]


def test_every_executor_opcode_is_a_lowering_opcode():
    """One opcode table: each executor function is a row of lowering.opcodes."""
    assert SUPPORTED <= set(OPCODES)
    for op in ALU:
        assert OPCODES[op].num_dst == 1


def test_nested_if_else_and_loop_with_brk_cont():
    """out[i] = sum over j < 10 of (j odd ? (i > 3 ? j : 2j) : skip), stop at j == 8 for even i."""
    body = """DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {0, 1, 10, 3}
IMM[1] UINT32 {8, 4, 2, 0}
MOV TEMP[0].x, IMM[0].xxxx
MOV TEMP[0].y, IMM[0].xxxx
BGNLOOP
  USGE TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  AND TEMP[1].y, SV[0].xxxx, IMM[0].yyyy
  USEQ TEMP[1].z, TEMP[0].xxxx, IMM[1].xxxx
  AND TEMP[1].z, TEMP[1].zzzz, NOT_PLACEHOLDER
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  UADD TEMP[2].x, TEMP[0].xxxx, -IMM[0].yyyy
  AND TEMP[2].y, TEMP[2].xxxx, IMM[0].yyyy
  UIF TEMP[2].yyyy
    USLT TEMP[2].z, IMM[0].wwww, SV[0].xxxx
    UIF TEMP[2].zzzz
      UADD TEMP[0].y, TEMP[0].yyyy, TEMP[2].xxxx
    ELSE
      UMAD TEMP[0].y, TEMP[2].xxxx, IMM[1].zzzz, TEMP[0].yyyy
    ENDIF
  ELSE
    CONT
  ENDIF
ENDLOOP
UMUL TEMP[3].x, SV[0].xxxx, IMM[1].yyyy
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[0].yyyy
END
"""
    # (the even-i early stop is expressed without a second BRK: keep the body simple)
    body = body.replace("  AND TEMP[1].z, TEMP[1].zzzz, NOT_PLACEHOLDER\n", "")
    out = run(body, 8, [np.zeros(8, U32)])[0]
    expect = [sum((j if i > 3 else 2 * j) for j in range(10) if j % 2 == 1) for i in range(8)]
    np.testing.assert_array_equal(out, expect)


def test_ret_ends_only_the_lanes_that_take_it():
    body = """DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {4, 7, 9, 2}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].xxxx, IMM[0].yyyy
USLT TEMP[0].y, SV[0].xxxx, IMM[0].wwww
UIF TEMP[0].yyyy
  RET
ENDIF
STORE BUFFER[0].x, TEMP[0].xxxx, IMM[0].zzzz
END
"""
    out = run(body, 6, [np.zeros(6, U32)])[0]
    np.testing.assert_array_equal(out, [7, 7, 9, 9, 9, 9])


EDGE = np.array([0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF], U32)


def _pairs():
    a = np.repeat(EDGE, EDGE.size)
    b = np.tile(EDGE, EDGE.size)
    return a, b


def _binary(op: str) -> np.ndarray:
    a, b = _pairs()
    n = a.size
    body = f"""DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {{4, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
LOAD TEMP[2].x, BUFFER[1], TEMP[0].xxxx
{op} TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
STORE BUFFER[2].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""
    return run(body, n, [a, b, np.zeros(n, U32)])[2]


def _i(x):
    return x.astype(np.int64) - ((x.astype(np.int64) >> 31) << 32)


@pytest.mark.parametrize(
    "op, ref",
    [
        ("UADD", lambda a, b: (a.astype(np.uint64) + b) & 0xFFFFFFFF),
        ("UMUL", lambda a, b: (a.astype(np.uint64) * b) & 0xFFFFFFFF),
        ("UDIV", lambda a, b: np.where(b == 0, 0xFFFFFFFF, a // np.maximum(b, 1))),
        ("UMOD", lambda a, b: np.where(b == 0, 0xFFFFFFFF, a % np.maximum(b, 1))),
        ("SHL", lambda a, b: (a.astype(np.uint64) << (b & 31)) & 0xFFFFFFFF),
        ("USHR", lambda a, b: a >> (b & 31)),
        ("ISHR", lambda a, b: (_i(a) >> (b & 31)) & 0xFFFFFFFF),
        ("IMAX", lambda a, b: np.maximum(_i(a), _i(b)) & 0xFFFFFFFF),
        ("UMIN", np.minimum),
        ("ISLT", lambda a, b: np.where(_i(a) < _i(b), 0xFFFFFFFF, 0)),
        ("USGE", lambda a, b: np.where(a >= b, 0xFFFFFFFF, 0)),
        ("UMUL_HI", lambda a, b: (a.astype(np.uint64) * b) >> 32),
        ("XOR", np.bitwise_xor),
    ],
)
def test_integer_opcodes_at_their_edges(op, ref):
    a, b = _pairs()
    np.testing.assert_array_equal(_binary(op), ref(a, b).astype(np.uint64).astype(U32))


def test_float_opcodes_with_specials():
    vals = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, 3.0e38, 1e-40], np.float32)
    a = np.repeat(vals, vals.size)
    b = np.tile(vals, vals.size)
    au, bu = a.view(U32), b.view(U32)
    with np.errstate(all="ignore"):
        refs = (("ADD", a + b), ("MUL", a * b), ("MIN", np.fmin(a, b)), ("MAX", np.fmax(a, b)))
    for op, ref in refs:
        n = a.size
        body = f"""DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {{4, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
LOAD TEMP[2].x, BUFFER[1], TEMP[0].xxxx
{op} TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
STORE BUFFER[2].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""
        with np.errstate(all="ignore"):
            out = run(body, n, [au, bu, np.zeros(n, U32)])[2].view(np.float32)
        np.testing.assert_array_equal(out, ref, err_msg=op)


def test_atomics_apply_in_lane_order():
    """ATOMXCHG of every lane on one word: lane i sees lane i-1's value; the
    last lane's value stays.  ATOMCAS: only the lane whose compare matches wins."""
    body = """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 4, 100, 3}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].yyyy
UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz
ATOMXCHG TEMP[1].x, BUFFER[0], IMM[0].xxxx, TEMP[0].yyyy
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[1].xxxx
ATOMCAS TEMP[1].y, BUFFER[0], IMM[0].yyyy, SV[0].xxxx, IMM[0].wwww
END
"""
    word, olds = run(body, 16, [np.array([7, 5], U32), np.zeros(16, U32)])
    np.testing.assert_array_equal(olds, [7] + [100 + i for i in range(15)])
    assert word[0] == 115
    # Lane i compares the word with i: lane 5 finds 5 and swaps in 3; lane 3
    # ran before it (lane order) and saw 5, so 3 stays.
    assert word[1] == 3


def test_shared_memory_is_per_block():
    body = """DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 4, 1, 0}
ATOMUADD TEMP[0].x, MEMORY[0], IMM[0].xxxx, IMM[0].zzzz
BARRIER
LOAD TEMP[1].x, MEMORY[0], IMM[0].xxxx
UMUL TEMP[0].z, SV[1].xxxx, IMM[0].yyyy
STORE BUFFER[0].x, TEMP[0].zzzz, TEMP[1].xxxx
END
"""
    out = run(body, 32, [np.zeros(5, U32)], grid=(5, 1, 1), shared=4, last_block=(7, 0, 0))[0]
    np.testing.assert_array_equal(out, [32, 32, 32, 32, 7])


@pytest.mark.parametrize(
    "text, what",
    [
        ("DCL SAMP[0]\nDCL TEMP[0]\nTEX TEMP[0], TEMP[0], SAMP[0], CUBE\nEND\n", "CUBE"),
        (
            "DCL CONST[0][0]\nDCL CONST[1][0]\nDCL TEMP[0]\nDCL ADDR[0]\nUARL ADDR[0].x, TEMP[0].xxxx\n"
            "MOV TEMP[0], CONST[ADDR[0].x][0]\nEND\n",
            "indirect addressing of CONST",
        ),
        ("DCL TEMP[0]\nVOTE_ANY TEMP[0].x, TEMP[0].xxxx\nEND\n", "VOTE_ANY"),
    ],
)
def test_what_it_cannot_run_is_refused_by_name(text, what):
    with pytest.raises(UnsupportedError, match=what):
        prepare(validate(parse(HEAD.format(n=1) + text)).shader, 0)


def test_indirect_temp_outside_the_file_reads_zero_and_writes_nothing():
    """Mesa's tgsi_exec rule (GLSL leaves it undefined): TEMP[ADDR+k] past
    the TEMP file reads 0, and a write there changes no register (nor fails)."""
    body = """DCL BUFFER[0]
DCL TEMP[0..2]
DCL ADDR[0]
IMM[0] UINT32 {0, 5, 7, 3}
IMM[1] INT32 {-2, 100, 4, 0}
MOV TEMP[0].x, IMM[0].xxxx
MOV TEMP[1].x, IMM[0].yyyy
MOV TEMP[2].x, IMM[0].zzzz
UARL ADDR[0].x, SV[0].xxxx
MOV TEMP[ADDR[0].x].y, IMM[0].wwww
UADD TEMP[0].z, SV[0].xxxx, IMM[1].xxxx
UARL ADDR[0].x, TEMP[0].zzzz
UMAD TEMP[0].w, TEMP[ADDR[0].x+2].yyyy, IMM[1].yyyy, TEMP[ADDR[0].x+1].xxxx
UMUL TEMP[0].z, SV[0].xxxx, IMM[1].zzzz
STORE BUFFER[0].x, TEMP[0].zzzz, TEMP[0].wwww
END
"""
    out = run(body, 8, [np.zeros(8, U32)])[0]
    # lane t: TEMP[t].y = 3 (lands for t <= 2), then reads TEMP[t].y and TEMP[t - 1].x
    xs = {0: 0, 1: 5, 2: 7}
    expect = [(300 if t <= 2 else 0) + xs.get(t - 1, 0) for t in range(8)]
    np.testing.assert_array_equal(out, expect)
