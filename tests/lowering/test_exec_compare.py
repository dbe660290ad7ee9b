"""Execution tests: comparisons.

SLT SGE SEQ SNE SGT SLE write 1.0F / 0.0F; FSxx (float), ISxx (signed),
USxx (unsigned) write ~0 / 0 (tgsi.rst).  FSLT/FSGE/FSEQ are ordered (false
when either side is NaN), FSNE is unordered (true); -0.0 == 0.0.  The signed
and unsigned integer compares must disagree exactly where the sign bit
makes them differ.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

gl = H.module_harness()
version = H.version_fixture()

INF, NAN = float("inf"), float("nan")
IMIN, IMAX, UMAX = -(2**31), 2**31 - 1, 2**32 - 1

FLOAT_A = [1, 2, 1, -0.0, NAN, 1, NAN, INF, -INF, 3, -1e30, 0.5]
FLOAT_B = [2, 1, 1, 0.0, 1, NAN, NAN, INF, 3, -INF, -1e30, 0.25]
INT_A = [1, 2, 1, -1, IMIN, IMAX, 0x80000000, 0, UMAX, 5, -5, 7]
INT_B = [2, 1, 1, 1, IMAX, IMIN, 0x7FFFFFFF, 0, 0, -5, 5, 7]


@pytest.mark.parametrize("op", ["SLT", "SGE", "SEQ", "SNE", "SGT", "SLE", "FSLT", "FSGE", "FSEQ", "FSNE"])
def test_float_compare(gl, version, op):
    H.run_check(gl, op, H.columns(FLOAT_A, FLOAT_B), version)


@pytest.mark.parametrize("op", ["ISLT", "ISGE", "USLT", "USGE", "USEQ", "USNE"])
def test_integer_compare(gl, version, op):
    H.run_check(gl, op, H.columns(INT_A, INT_B, dtype="u32"), version)


def test_compare_compute(gl):
    """Compares through the CS path."""
    H.run_check(gl, "FSNE", H.columns(FLOAT_A, FLOAT_B), 450, path="cs")
    H.run_check(gl, "ISLT", H.columns(INT_A, INT_B, dtype="u32"), 450, path="cs")
    H.run_check(gl, "SGE", H.columns(FLOAT_A, FLOAT_B), 450, path="cs")
