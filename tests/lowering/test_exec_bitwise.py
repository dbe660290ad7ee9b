"""Execution tests: bitwise opcodes -- logic ops, shifts (counts masked to 5 bits), bitfields.

Bitfield edge cases from tgsi.rst's pseudocode: bits == 0 gives 0, bits ==
32 at offset 0 is the whole word, IBFE sign-extends from the top bit of the
field; offset + bits > 32 is undefined (run, not compared).  LSB/UMSB/IMSB
return -1 when no bit qualifies (0, and 0 / -1 for IMSB).  At GLSL 330 the
GLSL 4.00 bit built-ins do not exist: the emitter may emulate them or raise
UnsupportedError naming the opcode (exec_harness.EMULABLE_AT_330).
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

CASES = {
    "NOT": ([0, UMAX, 0x12345678, 0x80000000],),
    "AND": ([UMAX, 0xF0F0F0F0, 0x12345678, 0], [0x0F0F0F0F, 0xFF00FF00, UMAX, UMAX]),
    "OR": ([UMAX, 0xF0F0F0F0, 0x12345678, 0], [0x0F0F0F0F, 0xFF00FF00, 0, 0]),
    "XOR": ([UMAX, 0xF0F0F0F0, 0x12345678, 0], [0x0F0F0F0F, 0xFF00FF00, UMAX, 0]),
    # shift counts >= 32 are masked with 0x1f (tgsi.rst)
    "SHL": ([1, 1, 1, UMAX, 3, 0x12345678, 1, 0x80000001], [31, 32, 33, 4, UMAX, 0, 64, 1]),
    "ISHR": ([0x80000000, -8, -1, 0x40000000, IMAX, -(2**20), 0x80000000, 12345], [31, 1, 100, 32, 30, 35, 63, 0]),
    "USHR": (
        [0x80000000, UMAX, UMAX, 0x40000000, 0x12345678, 8, 0x80000000, 12345],
        [31, 32, 36, 30, 4, 0xFFFFFFE3, 63, 0],
    ),
    "IBFE": (
        [0xF0, 0xF0, 0x12345678, UMAX, 0x80000000, 0x12345678, 0x7FFFFFFF, 0x87654321, 0x12345678, 0x12345678],
        [4, 4, 0, 0, 31, 8, 0, 16, 30, 31],
        [4, 3, 0, 32, 1, 16, 31, 16, 4, 1],
    ),
    "UBFE": (
        [0xF0, 0xF0, 0x12345678, UMAX, 0x80000000, 0x12345678, 0x7FFFFFFF, 0x87654321, 0x12345678, 0x12345678],
        [4, 4, 0, 0, 31, 8, 0, 16, 30, 31],
        [4, 3, 0, 32, 1, 16, 31, 16, 4, 1],
    ),
    "BFI": (
        [0, UMAX, 0x12345678, 0xAAAAAAAA, 0x12345678, 0, 0xFFFF0000, 0x12345678],
        [UMAX, 0, 0xABCD, 0x55555555, UMAX, 1, 0x1234, 0xF],
        [4, 0, 16, 31, 8, 31, 0, 28],
        [8, 32, 16, 1, 0, 1, 16, 8],
    ),
    "BREV": ([1, 0, UMAX, 0x12345678, 0x80000000, 0xF0000000, 6, 0x00010000],),
    "POPC": ([0, 1, UMAX, 0x12345678, 0x80000000, 0x7FFFFFFF, 0xAAAAAAAA, 3],),
    "LSB": ([0, 1, 0x80000000, 0x12345678, UMAX, 6, 0x00010000, 0xC0000000],),
    "IMSB": ([0, -1, 1, IMAX, IMIN, -2, 0x12345678, -0x12345678, 0x00010000, -65536],),
    "UMSB": ([0, UMAX, 1, 0x12345678, 0x80000000, 0x7FFFFFFF, 0x00010000, 2],),
}


@pytest.mark.parametrize("op", sorted(CASES))
def test_bitwise_op(gl, version, op):
    cols = [list(c) for c in CASES[op]]
    if op in ("NOT", "AND", "OR", "XOR", "BREV", "POPC", "LSB", "IMSB", "UMSB"):
        rnd = H.random_u32(op, 8 * len(cols))
        cols = [c + list(rnd[8 * j : 8 * j + 8]) for j, c in enumerate(cols)]
    H.run_check(gl, op, H.columns(*cols, dtype="u32"), version)


def test_bitfield_compute(gl):
    """Bitfield ops through the CS path."""
    for op in ("IBFE", "UBFE", "BFI", "IMSB", "SHL"):
        H.run_check(gl, op, H.columns(*CASES[op], dtype="u32"), 450, path="cs")
