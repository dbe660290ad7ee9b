"""Execution tests: conversions, address-register loads and pack/unpack.

I2F/U2F round to nearest even (tgsi.rst suggests it; GLSL 4.50 4.7.1 makes
conversions correctly rounded): 2^24+1 is the first int that cannot survive.
F2I/F2U truncate; values outside the integer range (and NaN) are undefined
in tgsi.rst, so they run but are not compared, while the largest in-range
floats (2147483520.0, 4294967040.0, -2147483648.0) are.  ARL floors, ARR
rounds, UARL copies an integer; all three are observed through an indirect
read ``IMM[ADDR[0].x + k]`` of a table of immediates.
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
IMIN, IMAX, UMAX = -(2**31), 2**31 - 1, 2**32 - 1


def test_i2f(gl, version):
    vals = [0, -1, IMAX, IMIN, 2**24 + 1, 2**24 + 3, -(2**24 + 1), 123456789, 7, -7, 0x7FFFFFC0, 16777216]
    H.run_check(gl, "I2F", [H.pack(vals, "u32")], version)


def test_u2f(gl, version):
    vals = [
        0,
        1,
        UMAX,
        0x80000000,
        2**24 + 1,
        2**24 + 3,
        0xFFFFFF7F,
        0xFFFFFF80,
        123456789,
        0x80000080,
        0x80000081,
        4294967040,
    ]
    H.run_check(gl, "U2F", [H.pack(vals, "u32")], version)


def test_f2i(gl, version):
    vals = [
        1.9,
        -1.9,
        -0.0,
        2147483520.0,
        -2147483648.0,
        0.5,
        -0.5,
        1e10,
        NAN,
        -INF,
        INF,
        123456.7,
        -8388609.0,
        16777217.0,
        3e9,
        -3e9,
    ]
    H.run_check(gl, "F2I", [H.pack(vals)], version)


def test_f2u(gl, version):
    vals = [
        1.9,
        0.0,
        4294967040.0,
        2147483648.0,
        3e9,
        -0.75,
        1e20,
        NAN,
        -5,
        INF,
        123456.7,
        16777217.0,
        0.999,
        2147483520.0,
        65535.5,
        -0.0,
    ]
    H.run_check(gl, "F2U", [H.pack(vals)], version)


# A table of 12 immediates whose value (as uint) is its own table index
# 0..11; the tested load picks entry ADDR[0].x + 6.
_TABLE = "\n".join(f"IMM[{2 + i}] UINT32 {{{4 * i}, {4 * i + 1}, {4 * i + 2}, {4 * i + 3}}}" for i in range(12))


def _table_read(index):
    """Expected words: row (index + 6) of the table (i.e. 4*(index+6) + channel)."""
    idx = np.asarray(index, dtype=np.int64).reshape(-1, 1) + 6
    return R.words(4 * idx + np.arange(4))


@pytest.mark.parametrize("op", ["ARL", "ARR"])
def test_address_load_float(gl, version, op):
    """ARL floors, ARR rounds to nearest (no .5 cases: their direction is the host's choice)."""
    if op == "ARL":
        vals = [0.0, 1.99, -0.5, -1.0, 2.5, -5.9, 3.0, 0.6, 4.2, -2.2, 5.0, -6.0]
    else:
        vals = [0.0, 1.99, -0.4, -1.0, 2.4, -5.6, 3.0, 0.6, 4.2, -2.2, 5.0, -6.0]
    xs = np.array(vals, dtype=np.float32)
    index = np.floor(xs) if op == "ARL" else np.round(xs)
    src = R.f32_words(np.stack([xs, xs, xs, xs], 1))
    body = f"{op} ADDR[0].x, SRC0.xxxx\nMOV DST, IMM[ADDR[0].x+8]"
    H.run_check(
        gl,
        op,
        [src],
        version,
        body=body,
        decls=_TABLE,
        expected=_table_read(index),
        rule=H.Precision("bits", why="table lookup"),
    )


def test_uarl(gl, version):
    vals = [0, 1, 5, -6, 3, -1]
    src = R.words(np.repeat(np.array(vals, dtype=np.int64).reshape(-1, 1), 4, axis=1))
    body = "UARL ADDR[0].x, SRC0.xxxx\nMOV DST, IMM[ADDR[0].x+8]"
    H.run_check(
        gl,
        "UARL",
        [src],
        version,
        body=body,
        decls=_TABLE,
        expected=_table_read(vals),
        rule=H.Precision("bits", why="table lookup"),
    )


def test_pk2h(gl, version):
    # values exactly representable as halves: -0.0, inf, 65504 (largest), 2^-14 (smallest normal)
    xs = [1.0, -2.0, 0.5, -0.0, 65504.0, INF, 0.333251953125, -1024.0]
    ys = [-2.0, 1.0, 0.0, 3.5, -65504.0, -INF, 2.0**-14, 0.125]
    x, y = np.array(xs), np.array(ys)
    src = R.f32_words(np.stack([x, y, np.full_like(x, 7.0), np.full_like(x, -9.0)], 1))
    H.run_check(gl, "PK2H", [src], version)


def test_up2h(gl, version):
    words = [0xC0003C00, 0x00007BFF, 0x8000FC00, 0x7C003555, 0x04000400, 0x3C00BC00]
    src = R.words(np.stack([words, [0x12345678] * 6, [1] * 6, [2] * 6], 1))
    H.run_check(gl, "UP2H", [src], version)


@pytest.mark.parametrize(
    "op,values",
    [
        ("PK2US", [[0.0, 1.0, 5, 5], [0.55, 0.25, 0, 0], [-1.0, 2.0, 0, 0], [0.2, 0.8, 0, 0]]),
        ("PK4UB", [[0.0, 1.0, 0.6, 0.2], [-1.0, 2.0, 0.8, 0.31], [1.0, 1.0, 0.0, 0.0]]),
        ("PK4B", [[0.0, 1.0, -1.0, 0.55], [-2.0, 2.0, -0.45, 0.2], [1.0, -1.0, 0.0, 0.0]]),
    ],
)
def test_legacy_pack(gl, version, op, values):
    """Removed PK* opcodes (older producers): packUnorm2x16 / packUnorm4x8 / packSnorm4x8 semantics.

    No value scales to an exact .5 (the rounding direction of a tie is the host's choice)."""
    H.run_check(gl, op, [R.f32_words(values)], version)


@pytest.mark.parametrize("op", ["UP2US", "UP4UB", "UP4B"])
def test_legacy_unpack(gl, version, op):
    """Removed UP* opcodes: unpack of src.x (tgsi.rst says TBD; docs/lowering.md
    "Semantics where tgsi.rst and GLSL differ")."""
    words = [0x00000000, 0xFFFFFFFF, 0x8000FF7F, 0x12345678, 0x7F810080]
    src = R.words(np.stack([words] + [[0xDEAD] * 5] * 3, 1))
    H.run_check(gl, op, [src], version)


def test_conversion_compute(gl):
    """I2F / F2U through the CS path."""
    H.run_check(gl, "I2F", [H.pack([0, -1, IMAX, IMIN, 2**24 + 1, 7, -7, 100], "u32")], 450, path="cs")
    H.run_check(gl, "F2U", [H.pack([1.9, 0.0, 4294967040.0, 2147483648.0, 3e9, 7.5, 1, 2])], 450, path="cs")
