"""Execution tests: the double ISA (a register holds two doubles: .xy = lane 0, .zw = lane 1).

GLSL 330 core has no doubles (GLSL 400 / ARB_gpu_shader_fp64): at 330 (the
gl33 profile) the opcodes run on ``uvec2`` words through the soft doubles of
lowering/glsl/soft_fp64.py, except DDIV, DRCP, DSQRT, DRSQ and DFMA, which
must raise UnsupportedError naming the opcode (exec_harness
DOUBLE_REFUSED_AT_330).  Results are compared bit-exactly for the IEEE basic
operations and conversions, with 2 double ulps for DDIV/DRCP/DSQRT/DRSQ
(exec_harness.PRECISION says why).
Compares write ~0/0 to dst.x (lane 0) and dst.z (lane 1); conversions to
32-bit types write dst.x (lane 0) and dst.y (lane 1) -- the tests use exactly
those writemasks and check the other channels kept their old value.
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
E27 = 1 + 2**-27


def dpack(values):
    """Flat list of doubles -> (N, 4) words, two per register (last value repeated)."""
    vals = list(values)
    if len(vals) % 2:
        vals.append(vals[-1])
    return R.f64_words(np.array(vals, dtype=np.float64).reshape(-1, 2))


def dcols(*cols):
    n = max(len(c) for c in cols)
    return [dpack(list(c) + [c[-1]] * (n - len(c))) for c in cols]


BINARY = {
    "DADD": ([1, 0.1, 1e308, -0.0, 1, 1, INF, 3.5], [2, 0.2, 1e308, -0.0, 2**-53, 2**-52, 1, -3.5]),
    "DMUL": ([3, 0.1, 1e200, -0.0, 1 + 2**-52, INF, 1e-200, -7], [4, 0.1, 1e200, 5, 1 + 2**-52, -2, 1e-200, 0.125]),
    "DDIV": ([1, -7, 1, 1, 22, 1e300, 0.1, 10], [3, 2, 0.0, -0.0, 7, 1e-10, 0.3, 4]),
    "DMIN": ([1, -0.0, NAN, 1, -INF, NAN, 3, 1e-300], [2, 0.0, 1, NAN, 5, NAN, -7, -1e-300]),
    "DMAX": ([1, -0.0, NAN, 1, -INF, NAN, 3, 1e-300], [2, 0.0, 1, NAN, 5, NAN, -7, -1e-300]),
}
UNARY = {
    "DABS": [1.5, -1.5, -0.0, -INF, 1e-300, -1e300],
    "DNEG": [1.5, -1.5, 0.0, -0.0, INF, 1e-300],
    "DRCP": [3, -4, 0.0, 1e-300, 7, 0.1],
    "DSQRT": [4, 2, 1e300, 0.0, 0.01, 12345.678],
    "DRSQ": [4, 2, 0.25, 1e-300, 7, 1e300],
    "DFRAC": [1.5, -1.5, 2.25, -0.0, 1e20, -0.3, 0.7, 4503599627370497.0],
    "DTRUNC": [1.5, -1.5, 2.5, -2.5, -0.0, 1e20, 4503599627370497.0, -0.3],
    "DCEIL": [1.5, -1.5, 2.5, -2.5, -0.0, 1e20, 4503599627370497.5, -0.3],
    "DFLR": [1.5, -1.5, 2.5, -2.5, -0.0, 1e20, 4503599627370495.5, -0.3],
    "DROUND": [1.5, -1.5, 2.5, -2.5, -0.0, 1e20, 0.49999999999999994, -0.7],
    "DSSG": [3, -3, 0.0, -0.0, INF, -INF, 1e-300, -1e-300],
}


@pytest.mark.parametrize("op", sorted(BINARY))
def test_double_binary(gl, version, op):
    H.run_check(gl, op, dcols(*BINARY[op]), version)


@pytest.mark.parametrize("op", sorted(UNARY))
def test_double_unary(gl, version, op):
    H.run_check(gl, op, [dpack(UNARY[op])], version)


@pytest.mark.parametrize("op", ["DMAD", "DFMA"])
def test_double_multiply_add(gl, version, op):
    # (1+2^-27)^2 = 1 + 2^-26 + 2^-54: the 2^-54 survives only without intermediate rounding
    a = [E27, 2, -3, 0.5, 1e300]
    b = [E27, 3, 4, 0.25, 10]
    c = [-(1 + 2**-26), 1, 12, -0.125, 1]
    H.run_check(gl, op, dcols(a, b, c), version)


@pytest.mark.parametrize("op", ["DSEQ", "DSNE", "DSLT", "DSGE"])
def test_double_compare(gl, version, op):
    a = [1, 2, 1, -0.0, NAN, 1, INF, -INF, 1 + 2**-52, 1e-300]
    b = [2, 1, 1, 0.0, 1, NAN, INF, 3, 1, 0.0]
    H.run_check(gl, op, dcols(a, b), version, mask="xz")


def test_dldexp(gl, version):
    """src1 is an int exponent: .x for lane 0, .z for lane 1 (.y/.w must be ignored)."""
    mant = dpack([1.5, 1, 3, 1, -2, 0.75, 0.75, 1])
    exps = R.words([[3, 99, -1, 99], [1000, 99, -1022, 99], [10, 99, -1, 99], [-1, 99, 1023, 99]])
    H.run_check(gl, "DLDEXP", [mant, exps], version)


def test_dldexp_of_zero(gl, version):
    """0 * 2^e = 0 (and -0 stays -0) for any exponent (llvmpipe's ldexp(0.0lf, e)
    returns 2^(e-1): the emitter guards zero)."""
    mant = dpack([0.0, -0.0, 0.0, 0.0])
    exps = R.words([[50, 99, 3, 99], [-7, 99, 1000, 99]])
    H.run_check(gl, "DLDEXP", [mant, exps], version)


def test_f2d(gl, version):
    """dst.xy = double(src.x), dst.zw = double(src.y)."""
    f = R.f32_words([[1.5, -0.0, 7, 7], [INF, 1e-30, 7, 7], [3.4e38, 0.1, 7, 7]])
    H.run_check(gl, "F2D", [f], version)


@pytest.mark.parametrize(
    "op,src",
    [
        ("I2D", [[IMIN, IMAX, 5, 5], [-1, 0, 5, 5], [7, -123456789, 5, 5]]),
        ("U2D", [[UMAX, 0x80000000, 5, 5], [0, 1, 5, 5], [123456789, 0xFFFFFFFE, 5, 5]]),
    ],
)
def test_int_to_double(gl, version, op, src):
    H.run_check(gl, op, [R.words(np.array(src, dtype=object))], version)


def test_d2f(gl, version):
    # 1 + 2^-24 + 2^-50 must round up (to 1 + 2^-23); 1e300 overflows to inf; 0.1 rounds
    vals = [1.5, 0.1, 1e300, 1 + 2**-24 + 2**-50, -1e-50, -1e300, 3.0, 1 + 2**-24]
    H.run_check(gl, "D2F", [dpack(vals)], version, mask="xy")


@pytest.mark.parametrize(
    "op,vals",
    [
        ("D2I", [1.9, -1.9, 2147483647.9, -2147483648.9, 1e10, NAN, -0.0, 123456.5]),
        ("D2U", [1.9, 4294967295.9, -0.5, 1e10, 3e9, 0.0, 2147483648.0, NAN]),
    ],
)
def test_double_to_int(gl, version, op, vals):
    H.run_check(gl, op, [dpack(vals)], version, mask="xy")


def test_dfracexp(gl, version):
    """Removed DFRACEXP: dst0.xy = significand in [0.5, 1), dst1.x = exponent (frexp of lane 0)."""
    vals = [8.0, 0.0, 1.0, 7.0, -0.375, 1.0, 1e300, 1.0, 3.0, 1.0]
    src = dpack(vals)
    prog = H.OpProgram("DFRACEXP", 1, ndst=2, body="DFRACEXP DST.xy, DST2.x, SRC0")
    mant, expo = gl.run_op(prog, [src], version)
    m_ref, e_ref = R.REFERENCE_MULTI["DFRACEXP"](src)
    H.check("DFRACEXP", mant, [src], mask="xy", expected=m_ref, rule=H.Precision("f64"))
    H.check("DFRACEXP", expo, [src], mask="x", expected=e_ref)


@pytest.mark.parametrize("op", ["DADD", "DFMA", "D2F"])
def test_double_compute(gl, op):
    """Doubles through the CS path."""
    if op == "DADD":
        H.run_check(gl, op, dcols(*BINARY["DADD"]), 450, path="cs")
    elif op == "DFMA":
        H.run_check(gl, op, dcols([E27, 2], [E27, 3], [-(1 + 2**-26), 1]), 450, path="cs")
    else:
        H.run_check(gl, op, [dpack([1.5, 0.1, 1e300, 1 + 2**-24 + 2**-50])], 450, path="cs", mask="xy")


def _bits(words: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(words, dtype=np.uint32).view(np.uint64).reshape(-1, 2)


def test_double_source_modifiers(gl, version):
    """-src and |src| on double operands: the sign bit of each lane (a NaN's too), never
    an arithmetic negate of the words."""
    a = dpack([1.5, -2.25, 0.0, -0.0, INF, 1e-300])
    b = dpack([0.25, 0.25, -0.0, 0.0, -1.0, -1e-300])
    prog = H.OpProgram("DADD", 2, operands=["-SRC0", "|SRC1|"])
    got = gl.run_op(prog, [a, b], version)
    want = R.f64_words(-R.as_f64(a) + np.abs(R.as_f64(b)))
    assert (_bits(got) == _bits(want)).all(), (_bits(got), _bits(want))


def test_double_immediates(gl, version):
    """A FLT64 immediate reaches the opcode bit-exactly (lane 0 .xy, lane 1 .zw)."""
    prog = H.OpProgram("DMUL", 1, operands=["SRC0", "IMM[2]"], decls="IMM[2] FLT64 {0.1, -3.0}")
    a = dpack([3.0, 7.0, 1e308, 2.5])
    got = gl.run_op(prog, [a], version)
    want = R.f64_words(R.as_f64(a) * np.array([0.1, -3.0]))
    assert (_bits(got) == _bits(want)).all(), (_bits(got), _bits(want))


@pytest.mark.parametrize("op", ["DMIN", "DMAX"])
def test_double_min_max_zeros_and_nan(gl, version, op):
    """Bit-exact on both profiles: a NaN operand yields the other one, equal operands
    (-0 and +0 too) yield src1 -- what llvmpipe's native doubles do, and the soft
    doubles copy."""
    a = [-0.0, 0.0, NAN, 1.0, 2.0, 2.0, -INF, NAN]
    b = [0.0, -0.0, 1.0, NAN, 2.0, -3.0, NAN, NAN]
    fa, fb = np.array(a), np.array(b)
    with np.errstate(invalid="ignore"):
        pick_a = np.isnan(fb) | ((fa < fb) if op == "DMIN" else (fb < fa))
    want = np.where(pick_a, fa, fb)
    got = gl.run_op(H.OpProgram(op, 2), dcols(a, b), version)
    gw, ww = _bits(got).ravel(), R.f64_words(want.reshape(-1, 2)).view(np.uint64).ravel()
    nan = np.isnan(want)
    assert (gw[~nan] == ww[~nan]).all(), [hex(int(x)) for x in gw]
    assert np.isnan(R.as_f64(got).ravel()[nan]).all()
