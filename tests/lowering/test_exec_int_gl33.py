"""Execution tests: the GLSL 4.00 integer opcodes on both profiles, never refused.

IMUL_HI, UMUL_HI, BREV, IMSB, UMSB, LSB, POPC, IBFE, UBFE and BFI need no
Gallium cap beyond integer support, so the gl33 profile (GLSL 330, no
extensions) must run them like the native one (GLSL 450, which keeps the
GLSL 4.00 built-ins): an ``UnsupportedError`` here is a failure, unlike in
``test_exec_bitwise.py`` where ``EMULABLE_AT_330`` tolerates it.

The expected words come from ``spec_reference`` below: Python integers,
written from tgsi.rst's definitions (the IBFE/UBFE/BFI pseudocode, "index of
the highest non-sign bit ... -1 for 0 and -1", the high 32 bits of the
64-bit product), not from the GLSL the emitter prints.  Inputs: the edge
cases (0, ~0, INT_MIN, INT_MAX, single bits, widths 0 and 32, offsets 0 and
31) followed by seeded random words.  Lanes tgsi.rst leaves undefined
(offset < 0, bits < 0, offset + bits > 32) still run -- the emulation must
not trap or poison the batch -- but are not compared.
"""

from __future__ import annotations

import os
import sys
import zlib

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

gl = H.module_harness()
version = H.version_fixture()

IMIN, IMAX, UMAX = -(2**31), 2**31 - 1, 2**32 - 1
M32 = 0xFFFFFFFF


# ---------------------------------------------------------------------------
# The reference, from tgsi.rst (one Python-int function per opcode)
# ---------------------------------------------------------------------------


def _signed(w: int) -> int:
    w &= M32
    return w - (1 << 32) if w >> 31 else w


def _umul_hi(a, b):
    return ((a & M32) * (b & M32)) >> 32


def _imul_hi(a, b):
    return (_signed(a) * _signed(b)) >> 32  # Python's >> floors: arithmetic shift


def _brev(a):
    return int(format(a & M32, "032b")[::-1], 2)


def _popc(a):
    return bin(a & M32).count("1")


def _lsb(a):
    a &= M32
    return (a & -a).bit_length() - 1 if a else -1


def _umsb(a):
    return (a & M32).bit_length() - 1  # 0 -> -1


def _imsb(a):
    v = _signed(a)
    v = ~v if v < 0 else v  # highest bit that differs from the sign
    return v.bit_length() - 1  # 0 and -1 -> -1


def _bfe(signed):
    def op(value, offset, bits):
        o, n = _signed(offset), _signed(bits)
        if o < 0 or n < 0 or o + n > 32:
            return None  # undefined
        if n == 0:
            return 0
        field = ((value & M32) >> o) & ((1 << n) - 1)
        if signed and field >> (n - 1):
            field -= 1 << n  # sign-extend from the field's top bit
        return field

    return op


def _bfi(base, insert, offset, bits):
    o, n = _signed(offset), _signed(bits)
    if o < 0 or n < 0 or o + n > 32:
        return None
    mask = ((1 << n) - 1) << o  # ~0 for bits == 32, offset == 0
    return (((insert & M32) << o) & mask) | (base & M32 & ~mask)


SPEC = {
    "UMUL_HI": _umul_hi,
    "IMUL_HI": _imul_hi,
    "BREV": _brev,
    "POPC": _popc,
    "LSB": _lsb,
    "UMSB": _umsb,
    "IMSB": _imsb,
    "UBFE": _bfe(False),
    "IBFE": _bfe(True),
    "BFI": _bfi,
}


def spec_reference(op, *srcs):
    """(expected words, undefined mask) of ``op`` over ``(N, 4)`` source words."""
    shape = srcs[0].shape
    exp = np.zeros(shape, dtype=np.uint32)
    und = np.zeros(shape, dtype=bool)
    flat = [s.ravel() for s in srcs]
    for k in range(flat[0].size):
        r = SPEC[op](*(int(s[k]) for s in flat))
        if r is None:
            und.flat[k] = True
        else:
            exp.flat[k] = r & M32
    return exp, und


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

EDGE = [
    0,
    UMAX,
    IMIN,
    IMAX,
    1,
    2,
    0x80000001,
    0x7FFFFFFE,
    0x00010000,
    0x0000FFFF,
    0xFFFF0000,
    0x12345678,
    0x87654321,
    0xAAAAAAAA,
    0x55555555,
    -2,
]


def _rng(op):
    return np.random.default_rng(zlib.crc32(op.encode()) ^ 0x1D6)


def _random_words(op, n):
    return [int(v) for v in _rng(op).integers(0, 2**32, n, dtype=np.uint64)]


def unary_cases(op):
    return [EDGE + _random_words(op, 48)]


def binary_cases(op):
    a = [x for x in EDGE for _ in range(2)]
    b = [EDGE[(i * 5 + 3) % len(EDGE)] for i in range(len(a))]
    a += [IMIN, IMIN, UMAX, UMAX, IMAX, 0x10000, 0xFFFF, 3]
    b += [IMIN, -1, UMAX, 1, IMAX, 0x10000, 0xFFFF, -5]
    rnd = _random_words(op, 96)
    return [a + rnd[:48], b + rnd[48:]]


def field_params(op, count):
    """(offset, bits) pairs: every edge shape, then random valid fields, then a few undefined."""
    pairs = [
        (0, 0),
        (0, 32),
        (0, 1),
        (31, 1),
        (31, 0),
        (32, 0),
        (0, 31),
        (1, 31),
        (16, 16),
        (8, 8),
        (4, 28),
        (28, 4),
        (30, 2),
        (15, 17),
        (5, 0),
        (0, 16),
    ]
    rng = _rng(op + "fields")
    while len(pairs) < count - 4:
        bits = int(rng.integers(0, 33))
        pairs.append((int(rng.integers(0, 33 - bits)), bits))
    pairs += [(20, 20), (31, 2), (-1, 4), (4, -1)]  # undefined: run, not compared
    return pairs[:count]


def field_cases(op):
    values = EDGE + _random_words(op, 48)
    pairs = field_params(op, len(values))
    offs, bits = [p[0] for p in pairs], [p[1] for p in pairs]
    if op == "BFI":
        inserts = _random_words(op + "insert", len(values))
        inserts[:4] = [UMAX, 0, IMIN, 1]
        return [values, inserts, offs, bits]
    return [values, offs, bits]


CASES = {
    "UMUL_HI": binary_cases,
    "IMUL_HI": binary_cases,
    "BREV": unary_cases,
    "POPC": unary_cases,
    "LSB": unary_cases,
    "UMSB": unary_cases,
    "IMSB": unary_cases,
    "UBFE": field_cases,
    "IBFE": field_cases,
    "BFI": field_cases,
}


def run_exact(gl, op, srcs, glsl_version, **kw):
    """Run ``op`` on the FS path and compare with the spec; no refusal tolerated."""
    prog = H.OpProgram(op, len(srcs), kw.pop("mask", "xyzw"), kw.pop("operands", None))
    got = gl.run_op(prog, srcs, glsl_version)
    exp, und = spec_reference(op, *srcs)
    H.check(
        op,
        got,
        srcs,
        mask=prog.dst_mask,
        expected=exp,
        undefined=und,
        rule=H.Precision("bits", why="integer: bit-exact"),
        label=f" (GLSL {glsl_version})",
    )
    return got


@pytest.mark.parametrize("op", sorted(CASES))
def test_int_op_runs_on_both_profiles(gl, version, op):
    """Every case of ``op`` equals the tgsi.rst result at GLSL 330 (gl33) and 450 (native)."""
    srcs = H.columns(*CASES[op](op), dtype="u32")
    run_exact(gl, op, srcs, version)


@pytest.mark.parametrize("op", ["IBFE", "UBFE", "BFI"])
def test_bitfield_shared_offset(gl, version, op):
    """A scalar offset / bit count for the whole vector (``.xxxx`` operands), the
    other shape the emitter lowers (GLSL's built-ins take one offset and count)."""
    values = EDGE + _random_words(op + "shared", 16)
    for offset, bits in ((0, 32), (0, 0), (31, 1), (7, 13), (16, 16)):
        cols = (
            [values]
            + ([_random_words(op + "ins", len(values))] if op == "BFI" else [])
            + [[offset] * len(values), [bits] * len(values)]
        )
        srcs = H.columns(*cols, dtype="u32")
        nv = 2 if op == "BFI" else 1
        operands = [f"SRC{j}" for j in range(nv)] + [f"SRC{nv}.xxxx", f"SRC{nv + 1}.xxxx"]
        run_exact(gl, op, srcs, version, operands=operands)


@pytest.mark.parametrize("op,mask", [("UMUL_HI", "xz"), ("IMSB", "y"), ("BFI", "yzw"), ("LSB", "w")])
def test_int_op_writemask(gl, version, op, mask):
    """Partial writemasks: the written channels are right, the others keep the sentinel."""
    srcs = H.columns(*CASES[op](op), dtype="u32")
    run_exact(gl, op, srcs, version, mask=mask)


def test_gl33_lowering_has_no_gpu_shader5(gl):
    """At GLSL 330 without extensions the lowering of every opcode above compiles
    (the host accepted it in the tests above) and names no GLSL 4.00 built-in."""
    builtins = (
        "imulExtended",
        "umulExtended",
        "bitfieldReverse",
        "findMSB",
        "findLSB",
        "bitCount",
        "bitfieldExtract",
        "bitfieldInsert",
    )
    for op in sorted(CASES):
        nsrc = len(CASES[op](op))
        text = H.OpProgram(op, nsrc).fs(4)
        shader = gl.lower(text, 330)
        assert "#extension" not in shader.source, op
        for name in builtins:
            assert name not in shader.source, (op, name)
        native = gl.lower(text, 450)
        assert any(name in native.source for name in builtins), op


def test_gl33_with_gpu_shader5_extension_uses_the_builtins():
    """The choice follows the features table, not the version: GLSL 330 with
    GL_ARB_gpu_shader5 enables the extension and calls the built-ins."""
    import lowering

    text = H.OpProgram("UBFE", 3).fs(4)
    src = lowering.to_glsl(text, glsl_version=330, extensions={"GL_ARB_gpu_shader5"}).source
    assert "#extension GL_ARB_gpu_shader5 : require" in src
    assert "bitfieldExtract(" in src and "glp_ubfe" not in src
    src = lowering.to_glsl(text, glsl_version=330, extensions=()).source
    assert "glp_ubfe(" in src and "bitfieldExtract" not in src and "#extension" not in src
