"""The soft doubles (GLSL 330, gl33) give the native doubles' bits (GLSL 450, llvmpipe).

Where IEEE 754 or tgsi.rst leave the result open -- which NaN comes out of
an operation (payload, sign), DMIN / DMAX with a NaN or with -0 and +0,
D2I / D2U / D2I64 / D2U64 of NaN and of out-of-range values, DFRAC of an
infinity, DSSG of NaN and -0 -- soft_fp64 copies what llvmpipe's native
doubles do.  This test runs each opcode through the lowering at both
versions over the same inputs and compares every word, NaNs included.

The inputs are every value of ``VALUES`` (zeros, ones, halves, huge and
out-of-range values, infinities, quiet and signalling NaNs with payloads of
both signs) crossed with each other for binary opcodes.  They avoid the two
places where the profiles differ on purpose (docs/lowering.md, "Soft double
precision"): subnormal operands and results (llvmpipe flushes them to zero)
and DTRUNC / DCEIL / DROUND results that are a negative zero.
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

gl = H.module_harness()


def _d(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


VALUES = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    1.5,
    -2.5,
    0.1,
    3.0,
    1e300,
    -1e300,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    float("inf"),
    float("-inf"),
    _d(0x7FF8000000000000),
    _d(0x7FF0000000000001),
    _d(0x7FFC00000000BEEF),
    _d(0xFFF800000000DEAD),
    3e9,
    -3e9,
    5e9,
    2.0**31,
    -(2.0**31) - 0.5,
    2.0**63,
    -(2.0**63),
    1e20,
    2.0**64,
    4294967295.5,
    -0.75,
    123456.789,
]
BITS = np.array([struct.unpack("<Q", struct.pack("<d", v))[0] for v in VALUES], dtype=np.uint64)


def _words(lane_bits: np.ndarray) -> np.ndarray:
    """uint64 values -> (N, 4) words, two lanes per register (padded with the last value)."""
    v = np.asarray(lane_bits, dtype=np.uint64)
    if len(v) % 2:
        v = np.append(v, v[-1])
    return v.view(np.uint32).reshape(-1, 4)


def _cross():
    a, b = np.meshgrid(BITS, BITS, indexing="ij")
    return a.ravel(), b.ravel()


def _both(harness, op: str, srcs, mask: str = "xyzw", operands=None, nan_sign: bool = True) -> None:
    """Run ``op`` at 450 and 330 and compare every word (``nan_sign=False``: a NaN
    result's sign bit is not compared)."""
    prog = H.OpProgram(op, len(srcs), mask, operands)
    native = harness.run_op(prog, srcs, 450)
    soft = harness.run_op(prog, srcs, 330)
    if not nan_sign:
        nan = H.R.as_u64(native) & np.uint64(0x7FFFFFFFFFFFFFFF) > np.uint64(0x7FF0000000000000)
        hi_words = np.zeros_like(native, dtype=bool)
        hi_words[:, 1::2] = nan
        native = np.where(hi_words, native & np.uint32(0x7FFFFFFF), native)
        soft = np.where(hi_words, soft & np.uint32(0x7FFFFFFF), soft)
    bad = np.argwhere(native != soft)
    if len(bad):
        lines = [f"{op}: {len(bad)} words differ (gl33 soft doubles vs native)"]
        for r, c in bad[:12]:
            ins = " | ".join(" ".join(f"{int(w):08x}" for w in s[r]) for s in srcs)
            lines.append(f"  case {r}.{'xyzw'[c]}: {ins} -> native {int(native[r, c]):08x} soft {int(soft[r, c]):08x}")
        raise AssertionError("\n".join(lines))


@pytest.mark.parametrize("op", ["DADD", "DMUL", "DMIN", "DMAX"])
def test_binary_parity(gl, op):
    a, b = _cross()
    _both(gl, op, [_words(a), _words(b)])


def test_dadd_with_negated_operand_parity(gl):
    """DSUB as frontends write it: DADD with a negated source.  (The host compiles
    ``a + -b`` as ``a - b``, which hands a NaN ``b`` on with its own sign; the soft
    doubles negate first.  IEEE 754 leaves the sign of a NaN result open, so it is not
    compared here.)"""
    a, b = _cross()
    _both(gl, "DADD", [_words(a), _words(b)], operands=["SRC0", "-SRC1"], nan_sign=False)


@pytest.mark.parametrize("op", ["DSEQ", "DSNE", "DSLT", "DSGE"])
def test_compare_parity(gl, op):
    a, b = _cross()
    _both(gl, op, [_words(a), _words(b)], mask="xz")


def test_dmad_parity(gl):
    a, b = _cross()
    c = np.roll(a, 7)
    for part in range(0, len(a), 600):  # 3 sources x 300 registers: GL 3.3's 16 KB UBO
        cut = slice(part, part + 600)
        _both(gl, "DMAD", [_words(a[cut]), _words(b[cut]), _words(c[cut])])


@pytest.mark.parametrize("op", ["DNEG", "DABS", "DSSG", "DFLR", "DFRAC"])
def test_unary_parity(gl, op):
    _both(gl, op, [_words(BITS)])


@pytest.mark.parametrize("op", ["DTRUNC", "DCEIL", "DROUND"])
def test_trunc_ceil_round_parity_away_from_negative_zero(gl, op):
    """(llvmpipe's trunc / ceil / roundEven give +0 where IEEE gives -0: inputs in (-1, 0]
    are left out.)"""
    bits = BITS[np.array([not (-1.0 < v <= 0.0) for v in VALUES])]
    _both(gl, op, [_words(bits)])


@pytest.mark.parametrize("op", ["D2I", "D2U", "D2F"])
def test_narrowing_conversion_parity(gl, op):
    _both(gl, op, [_words(BITS)], mask="xy")


@pytest.mark.parametrize("op", ["D2I64", "D2U64"])
def test_int64_conversion_parity(gl, op):
    if "GL_ARB_gpu_shader_int64" not in gl.extensions_for(450):
        pytest.skip("the host has no GL_ARB_gpu_shader_int64 for the native side")
    _both(gl, op, [_words(BITS)])


@pytest.mark.parametrize("op", ["I642D", "U642D"])
def test_from_int64_parity(gl, op):
    if "GL_ARB_gpu_shader_int64" not in gl.extensions_for(450):
        pytest.skip("the host has no GL_ARB_gpu_shader_int64 for the native side")
    rng = np.random.default_rng(642)
    v = np.concatenate(
        [
            np.array([0, 1, 2**63, 2**64 - 1, 2**53 + 1, (2**53 + 1) << 10], dtype=np.uint64),
            rng.integers(0, 2**64, 200, dtype=np.uint64, endpoint=False),
        ]
    )
    _both(gl, op, [_words(v)])


def test_f2d_parity(gl):
    f = np.array(
        [0x7FC01234, 0xFFC00001, 0x7F800001, 0xFF800000, 0x3F800000, 0x80000000, 0x7F7FFFFF, 0x00800000],
        dtype=np.uint32,
    )
    _both(gl, "F2D", [f.reshape(-1, 4)])


def test_dldexp_parity(gl):
    """(No overflow: llvmpipe's native ldexp wraps the exponent field where IEEE, and
    the soft doubles, give inf.)"""
    values = BITS[np.array([not abs(v) > 1e200 or v != v for v in VALUES])]
    a = np.repeat(values, 4)
    e = np.tile(np.array([0, 3, -3, 100], dtype=np.int64), len(values)).astype(np.uint32)
    words = _words(a)
    exps = np.zeros_like(words)
    exps[:, 0] = e[0::2]
    exps[:, 2] = e[1::2]
    _both(gl, "DLDEXP", [words, exps])


MIXED = """DADD TEMP[1].xy, SRC0.xyxy, SRC0.zwzw
U642D TEMP[2].xy, SRC1.xyxy
DADD DST.xy, TEMP[1].xyxy, TEMP[2].xyxy
D2U64 DST.zw, DST.xyxy"""


def test_soft_int64_conversions_beside_native_doubles(gl, monkeypatch):
    """GLSL 400 without GL_ARB_gpu_shader_int64: DADD keeps real doubles, U642D and D2U64
    (whose native form needs int64_t) run on the words -- in one shader, with the same
    bits as the all-native GLSL 450 program."""
    import lowering

    rng = np.random.default_rng(400)
    a = _words(np.concatenate([BITS[:20], rng.integers(0x3FF0000000000000, 0x4300000000000000, 20, dtype=np.uint64)]))
    b = _words(rng.integers(0, 2**60, 40, dtype=np.uint64))
    prog = H.OpProgram("DADD", 2, body=MIXED)
    native = gl.run_op(prog, [a, b], 450)
    monkeypatch.setattr(gl, "extensions_for", lambda version: frozenset())
    source = lowering.to_glsl(prog.fs(len(a)), glsl_version=400).source
    assert "glp_u642d(" in source and "glp_d2u64(" in source and "packDouble2x32" in source
    mixed = gl.run_op(prog, [a, b], 400)
    bad = np.argwhere(native != mixed)
    assert not len(bad), [(int(r), int(c), hex(int(native[r, c])), hex(int(mixed[r, c]))) for r, c in bad[:8]]
