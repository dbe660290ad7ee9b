"""Execution tests: the 64-bit integer ISA (a register holds two 64-bit lanes, .xy and .zw).

GLSL 330 core (the gl33 profile, no extensions) has no 64-bit integers: the
opcodes run as GLSL 3.30 helpers on uvec2 (lowering/glsl/soft_int64.py) and
must give the same words; only the four with a double side (D2U64, D2I64,
U642D, I642D) must raise UnsupportedError naming the opcode.  At 450 the
host's extensions are passed to the emitter (GL_ARB_gpu_shader_int64 on
llvmpipe).  test_soft_int64.py runs 2^18 cases per opcode on both.  Shifts take lane 0's count from src1.x and lane 1's from src1.y,
masked with 0x3f (tgsi.rst); compares write ~0/0 to dst.x / dst.z;
conversions to float write dst.x / dst.y.  Division by zero (and
INT64_MIN / -1) is not defined by tgsi.rst: run, not compared.
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
M64 = 2**64 - 1
I64MIN, I64MAX = -(2**63), 2**63 - 1
IMIN, UMAX = -(2**31), 2**32 - 1


def qpack(values):
    """Flat list of 64-bit ints -> (N, 4) words, two lanes per register."""
    vals = list(values)
    if len(vals) % 2:
        vals.append(vals[-1])
    return R.u64_words(np.array(vals, dtype=object).reshape(-1, 2))


def qcols(*cols):
    n = max(len(c) for c in cols)
    return [qpack(list(c) + [c[-1]] * (n - len(c))) for c in cols]


BINARY = {
    "U64ADD": ([1, M64, UMAX, 2**63, -5, 0x123456789ABCDEF0], [2, 1, 1, 2**63, 3, 0xFEDCBA9876543210]),
    "U64MUL": ([2**32, UMAX, M64, 3, 0x123456789, -1], [2**32, UMAX, M64, -7, 0x987654321, -1]),
    "U64DIV": ([7, M64, 2**63, 5, 0x123456789ABCDEF0, 0], [2, 3, 2**32, 0, 0x1000, 7]),
    "I64DIV": ([-7, 7, I64MIN, I64MIN, -(2**40), 5, 9, 0], [2, -2, -1, 2, 3, 0, -9, -3]),
    "U64MOD": ([7, M64, 2**63 + 5, 5, 0x123456789ABCDEF0, 3], [2, 10, 2**32, 0, 0x1000, 7]),
    "I64MOD": ([-7, 7, I64MIN, I64MIN, -(2**40) - 1, 5, -9, 100], [3, -3, -1, 3, 3, 0, 4, -7]),
    "I64MIN": ([-1, I64MIN, 0, 2**32, -(2**32), 5], [1, I64MAX, 0, 2**32 - 1, 1, -5]),
    "I64MAX": ([-1, I64MIN, 0, 2**32, -(2**32), 5], [1, I64MAX, 0, 2**32 - 1, 1, -5]),
    "U64MIN": ([M64, 0, 2**63, 2**32, 1, 5], [1, 2**63, 2**63 - 1, 2**32 - 1, M64, 5]),
    "U64MAX": ([M64, 0, 2**63, 2**32, 1, 5], [1, 2**63, 2**63 - 1, 2**32 - 1, M64, 5]),
}
COMPARE_A = [1, 2, 2**32, 5, -1, I64MIN, 2**32 + 1, 7, M64, 0]
COMPARE_B = [2, 1, 1, 5, 1, I64MAX, 2**32 + 2, 2**33 + 7, 0, 0]
UNARY = {
    "I64ABS": [I64MIN, -1, 0, 5, 2**40, -(2**40)],
    "I64NEG": [I64MIN, -1, 0, 5, 2**40, -(2**40)],
    "I64SSG": [I64MIN, -1, 0, 5, 2**40, -(2**40)],
}


@pytest.mark.parametrize("op", sorted(BINARY))
def test_int64_binary(gl, version, op):
    H.run_check(gl, op, qcols(*BINARY[op]), version)


@pytest.mark.parametrize("op", sorted(UNARY))
def test_int64_unary(gl, version, op):
    H.run_check(gl, op, [qpack(UNARY[op])], version)


@pytest.mark.parametrize("op", ["U64SEQ", "U64SNE", "U64SLT", "U64SGE", "I64SLT", "I64SGE"])
def test_int64_compare(gl, version, op):
    H.run_check(gl, op, qcols(COMPARE_A, COMPARE_B), version, mask="xz")


@pytest.mark.parametrize("op", ["U64SHL", "I64SHR", "U64SHR"])
def test_int64_shift(gl, version, op):
    """Counts: lane 0 from src1.x, lane 1 from src1.y, masked with 0x3f (.z/.w are decoys)."""
    values = qpack([1, 1, 0x8000000000000000, 0x123456789ABCDEF0, -1, 0xF0F0F0F0F0F0F0F0, 0x8000000000000001, 12345])
    counts = R.words([[63, 64, 17, 17], [63, 32, 3, 3], [65, 0, 40, 40], [4, 127, 1, 1]])
    H.run_check(gl, op, [values, counts], version)


@pytest.mark.parametrize(
    "op,vals",
    [
        ("F2U64", [1.5, 2.0**40, 1.8e19, 0.0, -0.5, 123456.75, NAN, -3.0]),
        ("F2I64", [1.5, -(2.0**40), 9.2e18, -9.2e18, -0.5, 123456.75, NAN, 1e20]),
    ],
)
def test_float_to_int64(gl, version, op, vals):
    """float src.x -> lane 0, src.y -> lane 1 (out of range / NaN undefined)."""
    f = np.array(vals, dtype=np.float64).reshape(-1, 2)
    src = R.f32_words(np.concatenate([f, np.full_like(f, 5.0)], 1))
    H.run_check(gl, op, [src], version)


@pytest.mark.parametrize(
    "op,vals",
    [
        ("D2U64", [1.5, 2.0**53 + 2, 1.8e19, 0.0, -0.5, 123456.75]),
        ("D2I64", [1.5, -(2.0**53) - 2, 9.2e18, -9.2e18, -0.5, -123456.75]),
    ],
)
def test_double_to_int64(gl, version, op, vals):
    src = R.f64_words(np.array(vals, dtype=np.float64).reshape(-1, 2))
    H.run_check(gl, op, [src], version)


@pytest.mark.parametrize("op", ["U2I64", "I2I64"])
def test_int32_to_int64(gl, version, op):
    """U2I64 zero-extends, I2I64 sign-extends src.x / src.y."""
    src = R.words([[UMAX, 0x80000000, 9, 9], [IMIN, -1, 9, 9], [0, 7, 9, 9]])
    H.run_check(gl, op, [src], version)


@pytest.mark.parametrize("op", ["U642F", "I642F"])
def test_int64_to_float(gl, version, op):
    vals = [M64, 2**24 + 1, 2**53 + 1, -(2**40 + 1), 2**63, 3, -1, 0x100000180]
    H.run_check(gl, op, [qpack(vals)], version, mask="xy")


@pytest.mark.parametrize("op", ["U642D", "I642D"])
def test_int64_to_double(gl, version, op):
    vals = [M64, 2**53 + 1, 2**53 + 3, -(2**40 + 1), 2**63, -1]
    H.run_check(gl, op, [qpack(vals)], version)


def test_int64_compute(gl):
    """64-bit integers through the CS path."""
    H.run_check(gl, "U64MUL", qcols(*BINARY["U64MUL"]), 450, path="cs")
    H.run_check(gl, "I64DIV", qcols(*BINARY["I64DIV"]), 450, path="cs")
