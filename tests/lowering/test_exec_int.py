"""Execution tests: 32-bit integer opcodes (wraparound, division by zero, INT_MIN edges).

Expected values come from ``tgsi_reference`` (numpy on uint32/int32 with
two's-complement wraparound, written from tgsi.rst); integer results are
compared bit-exactly.  Cases tgsi.rst leaves undefined (IDIV/MOD by zero,
INT_MIN / -1) still run in the batch -- a host that traps on them would fail
the whole draw -- but their lanes are not compared.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

gl = H.module_harness()
version = H.version_fixture()

IMIN, IMAX, UMAX = -(2**31), 2**31 - 1, 2**32 - 1

# (src0, src1[, src2]) scalar cases, four per register.
CASES = {
    "UADD": ([1, IMAX, UMAX, UMAX, -5, 0x80000000, 0, 123456789], [2, 1, 1, UMAX, 3, 0x80000000, 0, 987654321]),
    "UMUL": ([3, 0x10000, UMAX, -3, IMAX, 0x12345678, 0, 65535], [4, 0x10000, UMAX, 7, 2, 0x9ABCDEF0, 5, 65537]),
    "UMAD": (
        [3, 0x10000, UMAX, -3, IMAX, 0x12345678, 7, 2],
        [4, 0x10000, UMAX, 7, 2, 0x9ABCDEF0, 0, 3],
        [5, 1, 1, 21, 3, UMAX, 9, UMAX],
    ),
    "IMUL_HI": ([IMIN, -1, -1, IMAX, 0x12345678, 0, IMIN, 3], [IMIN, -1, 1, IMAX, -0x09ABCDEF, 123, IMAX, -5]),
    "UMUL_HI": (
        [UMAX, 0x10000, 2**31, 0x12345678, 0, 3, UMAX, 0x80000001],
        [UMAX, 0x10000, 2, 0x9ABCDEF0, 7, 5, 1, 0x80000001],
    ),
    "IDIV": ([7, -7, 7, -7, IMIN, 5, 0, IMIN, IMAX, -1, 100, IMIN], [2, 2, -2, -2, -1, 0, 5, 2, -1, 1, 7, IMIN]),
    "UDIV": ([7, UMAX, 5, 0, UMAX, 0x80000000, 1, 100], [2, 1, 0, 0, UMAX, 3, UMAX, 7]),
    "UMOD": ([7, 5, UMAX, 3, 0, 0x80000000, UMAX, 100], [2, 0, 10, 7, 0, 3, UMAX, 7]),
    "MOD": ([7, -7, 7, -7, IMIN, 5, 0, IMIN, IMAX, 100, -100, IMIN], [3, 3, -3, -3, -1, 0, 5, 3, -1, 7, 7, IMIN]),
    "IMAX": ([-1, IMIN, 0, 0x80000000, 5, -7, IMAX, 3], [1, IMAX, 0, 0x7FFFFFFF, 5, -8, IMIN, -3]),
    "IMIN": ([-1, IMIN, 0, 0x80000000, 5, -7, IMAX, 3], [1, IMAX, 0, 0x7FFFFFFF, 5, -8, IMIN, -3]),
    "UMAX": ([UMAX, 0, 0x80000000, 5, 1, 7, 0x7FFFFFFF, 3], [1, 0x80000000, 0x7FFFFFFF, 5, UMAX, 8, 0x80000000, 0]),
    "UMIN": ([UMAX, 0, 0x80000000, 5, 1, 7, 0x7FFFFFFF, 3], [1, 0x80000000, 0x7FFFFFFF, 5, UMAX, 8, 0x80000000, 0]),
    "INEG": ([5, -5, 0, IMIN, IMAX, 1, -1, 0x12345678],),
    "IABS": ([-5, 5, 0, IMIN, IMAX, -1, -IMAX, 0x12345678],),
    "ISSG": ([-5, 0, 7, IMIN, IMAX, -1, 1, 0x80000001],),
}


@pytest.mark.parametrize("op", sorted(CASES))
def test_integer_op(gl, version, op):
    cols = [list(c) for c in CASES[op]]
    rnd = H.random_u32(op, 8 * len(cols))
    cols = [c + list(rnd[8 * j : 8 * j + 8]) for j, c in enumerate(cols)]
    H.run_check(gl, op, H.columns(*cols, dtype="u32"), version)


def test_integer_op_compute(gl):
    """The same integer ops through the CS path (LOAD/STORE on BUFFER)."""
    for op in ("UADD", "UMUL_HI", "IDIV", "UDIV", "MOD", "IMIN"):
        H.run_check(gl, op, H.columns(*CASES[op], dtype="u32"), 450, path="cs")


def test_ucmp(gl, version):
    """UCMP tests src0 as an integer (-0.0's bits are != 0) and moves src1/src2 untouched."""
    cond = [0, 1, 0x80000000, UMAX, 0x7FC00000, 2, 0, 0x00000001]
    a = [0x7F800001, 0xFFC12345, 0x00000001, 0x3F800000, 0x80000000, 11, 12, 13]
    b = [0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, 0x66666666, 0x7F800001, 0]
    H.run_check(gl, "UCMP", H.columns(cond, a, b, dtype="u32"), version)
