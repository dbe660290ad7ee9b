"""Soft fp64 in GLSL 3.30: glp_dfma, glp_ddiv, glp_dsqrt, glp_drsq, bit-exact.

The four helpers of ``lowering/glsl/soft_fp64_divsqrt.py`` run in a fragment
shader over a grid (one case per fragment, operands fetched with
``texelFetch`` from RGBA32UI textures, the result written to an RGBA32UI
target) on the exec harness's own context at GLSL 330 (the gl33 profile:
no fp64 anywhere in the shader) and GLSL 450 (native).  Each result must be
the IEEE 754 binary64 result, bit for bit, NaN payloads included:

* ``ddiv`` / ``dsqrt``: numpy's ``a / b`` and ``np.sqrt`` (the host's SSE2
  instructions: correctly rounded, and the NaN rule llvmpipe's native
  doubles follow too -- ``test_nan_rule_matches_native_doubles``);
* ``dfma`` and ``drsq``: exact references in Python integers written here
  from the definitions: a*b+c as an integer times a power of two, rounded once
  by CPython's int true division (correctly rounded, ties to even, gradual
  underflow); 1/sqrt(x) bracketed between two integers with ``math.isqrt``
  at 60+ bits, so one rounding of a point strictly inside the bracket gives
  the correctly rounded result.  ``drsq`` is correctly rounded: its error
  bound is 0 ulp, which the bit-exact comparison proves on every case.

Inputs: every special class crossed with each other (signed zeros, smallest
and largest subnormals and normals, infinities, quiet and signalling NaNs
with payloads, 1, -1, powers of two, 1 +- ulp, 1/3...), exact and near ties
(division and square roots of rounded products of midpoints, subnormal
ties, products of short significands), exact cancellation in fma,
overflow and underflow, random bit patterns and random same-exponent
values.  ``GLPIPE_FP64_SAMPLES`` (default 2^18) sets the number of random
cases per function.
"""

from __future__ import annotations

import math
import os
import re
import struct
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

gl = H.module_harness()
version = H.version_fixture()

SAMPLES = int(os.environ.get("GLPIPE_FP64_SAMPLES", str(1 << 18)))
DEFAULT_NAN = 0xFFF8000000000000  # x86 "real indefinite": what SSE2 and llvmpipe return
SIGN = 1 << 63
QUIET = 1 << 51
INF = 0x7FF0000000000000
M64 = (1 << 64) - 1
GRID_W = 1024


# ---------------------------------------------------------------------------
# Exact references (Python integers, from IEEE 754-2008 sections 5.4.1 and 6)
# ---------------------------------------------------------------------------


def f2b(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def b2f(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def is_nan(b: int) -> bool:
    return (b & ~SIGN) > INF


def decode(b: int):
    """A finite double as (sign, integer significand, exponent): |x| = m * 2^e."""
    e = (b >> 52) & 0x7FF
    frac = b & ((1 << 52) - 1)
    if e == 0:
        return b >> 63, frac, -1074
    return b >> 63, frac | (1 << 52), e - 1075


def round_scaled(n: int, shift: int) -> int:
    """The double nearest n * 2^shift (n != 0), ties to even, as bits.

    CPython's int/int true division and int->float conversion are correctly
    rounded (ties to even, subnormals included) and raise OverflowError
    beyond the largest finite double; round to nearest then overflows to inf.
    """
    try:
        x = float(n << shift) if shift >= 0 else n / (1 << -shift)
    except OverflowError:
        return INF | (SIGN if n < 0 else 0)
    bits = f2b(x)
    if n < 0:
        bits |= SIGN  # a tiny negative result rounds to -0
    return bits


def ref_fma(a: int, b: int, c: int) -> int:
    """a*b + c with one rounding; the NaN rule of llvmpipe's doubles built at LLVM -O2 (the addend's NaN first; test_nan_rule_matches_native_doubles)."""
    for x in (c, a, b):  # the first NaN of c, a, b, quieted
        if is_nan(x):
            return x | QUIET
    sa, sb, sc = a >> 63, b >> 63, c >> 63
    inf_a, inf_b, inf_c = (a & ~SIGN) == INF, (b & ~SIGN) == INF, (c & ~SIGN) == INF
    zero_a, zero_b = (a & ~SIGN) == 0, (b & ~SIGN) == 0
    sp = sa ^ sb
    if inf_a or inf_b:
        if zero_a or zero_b or (inf_c and sc != sp):
            return DEFAULT_NAN  # inf * 0, inf - inf: invalid
        return INF | (sp << 63)
    if inf_c:
        return c
    _, ma, ea = decode(a)
    _, mb, eb = decode(b)
    _, mc, ec = decode(c)
    p = ma * mb * (-1 if sp else 1)
    q = mc * (-1 if sc else 1)
    lo = min(ea + eb, ec)
    n = (p << (ea + eb - lo)) + (q << (ec - lo))
    if n == 0:
        # Exact zero: the sum of two zeros keeps their common sign, otherwise +0
        # under round to nearest (IEEE 754-2008 6.3).
        if p == 0 and q == 0:
            return (sp & sc) << 63
        return 0
    return round_scaled(n, lo)


def ref_rsq(a: int) -> int:
    """1/sqrt(a) correctly rounded (TGSI DRSQ, IEEE rSqrt semantics for specials)."""
    if is_nan(a):
        return a | QUIET
    if (a & ~SIGN) == 0:
        return INF | (a & SIGN)  # 1/sqrt(+-0) = +-inf
    if a >> 63:
        return DEFAULT_NAN
    if a == INF:
        return 0
    _, m, e = decode(a)
    # 1/sqrt(m 2^e) * 2^s = sqrt(2^(2s - e) / m) with m < 2^53: s = e/2 + 128 makes
    # 2s - e >= 0 and the integer part F of the scaled result 100+ bits wide.
    s = (e + 1) // 2 + 128
    num = 1 << (2 * s - e)
    f = math.isqrt(num // m)
    if f * f * m == num:
        return round_scaled(f, -s)  # exact (a power of 4 times...)
    # Inexact: the true value lies strictly inside (F, F+1) 2^-s, which holds no
    # midpoint of doubles at this width, so F + 1/2 rounds the same way.
    return round_scaled(2 * f + 1, -s - 1)


def ref_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return (a.view(np.float64) / b.view(np.float64)).view(np.uint64)


def ref_sqrt(a: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.sqrt(a.view(np.float64)).view(np.uint64)


def test_references_agree_with_the_definitions():
    """The integer references against cases worked by hand."""
    one, two, three = f2b(1.0), f2b(2.0), f2b(3.0)
    assert ref_fma(three, f2b(5.0), f2b(-15.0)) == 0  # exact cancellation: +0
    assert ref_fma(f2b(-0.0), one, f2b(-0.0)) == SIGN  # -0 + -0 = -0
    assert ref_fma(f2b(-0.0), one, 0) == 0  # -0 + +0 = +0
    u = 0x3FF0000000000001  # 1 + 2^-52
    assert ref_fma(u, u, f2b(-1.0)) == f2b(2.0**-51 + 2.0**-104)  # unrounded product
    assert ref_fma(u, f2b(1.5), 0) == f2b(1.5 + 2.0**-51)  # tie to even (up)
    assert ref_fma(1, f2b(0.5), 0) == 0  # 2^-1075: tie to 0
    assert ref_fma(3, f2b(0.5), 0) == 2  # 1.5 * 2^-1074 -> 2
    assert ref_fma(0x7FEFFFFFFFFFFFFF, two, 0) == INF
    assert ref_fma(INF, 0, 0x7FF4000000000001) == 0x7FFC000000000001  # NaN c wins
    assert ref_fma(INF, 0, one) == DEFAULT_NAN
    assert ref_rsq(f2b(4.0)) == f2b(0.5)
    # 1/sqrt(2) = sqrt(0.5), correctly rounded by math.sqrt; 1 / math.sqrt(2.0) rounds
    # twice and is one ulp low (0x3FE6A09E667F3BCC).
    assert ref_rsq(f2b(2.0)) == f2b(math.sqrt(0.5)) == 0x3FE6A09E667F3BCD
    assert ref_rsq(1) == f2b(2.0**537)
    assert ref_rsq(2) == f2b(2.0**536 * math.sqrt(2.0))
    assert ref_rsq(SIGN) == SIGN | INF and ref_rsq(INF) == 0 and ref_rsq(f2b(-4.0)) == DEFAULT_NAN


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

_BASE = [
    0,
    1,
    2,
    3,
    0x000FFFFFFFFFFFFF,
    0x0008000000000000,
    0x0010000000000000,
    0x0010000000000001,
    0x001FFFFFFFFFFFFF,
    0x7FEFFFFFFFFFFFFF,
    0x7FE0000000000000,
    INF,
    0x7FF8000000000000,
    0x7FF0000000000001,
    0x7FF80000DEADBEEF,
    f2b(1.0),
    0x3FF0000000000001,
    0x3FEFFFFFFFFFFFFF,
    f2b(2.0),
    f2b(0.5),
    f2b(1.5),
    f2b(3.0),
    f2b(1 / 3),
    f2b(0.1),
    f2b(2.0**53),
    f2b(2.0**-53),
    f2b(2.0**1000),
    f2b(2.0**-1000),
    f2b(2.0**-1022 * 1.5),
    f2b(math.sqrt(2.0)),
    f2b(7.0),
    f2b(2.0**512),
    f2b(2.0**-537),
]
SPECIALS = np.array(_BASE + [b | SIGN for b in _BASE], dtype=np.uint64)


def _rng(name: str):
    return np.random.default_rng(zlib.crc32(name.encode()))


def random_bits(rng, n: int) -> np.ndarray:
    return rng.integers(0, 2**63, n, dtype=np.uint64) | (rng.integers(0, 2, n, dtype=np.uint64) << 63)


def same_exponent(rng, n: int, lo: int = 1000, hi: int = 1050) -> np.ndarray:
    """Random significands and signs with biased exponents in [lo, hi)."""
    frac = rng.integers(0, 1 << 52, n, dtype=np.uint64)
    exp = rng.integers(lo, hi, n, dtype=np.uint64)
    return frac | (exp << 52) | (rng.integers(0, 2, n, dtype=np.uint64) << 63)


def short_significands(rng, n: int, bits: int = 27) -> np.ndarray:
    """Doubles with at most ``bits`` significant bits: their products are exact
    in 54 bits or fewer, which makes exact midpoints (ties)."""
    m = rng.integers(1 << (bits - 1), 1 << bits, n, dtype=np.uint64) | np.uint64(1)
    frac = (m << np.uint64(53 - bits)) & np.uint64((1 << 52) - 1)
    exp = rng.integers(1000, 1046, n, dtype=np.uint64)
    return frac | (exp << 52) | (rng.integers(0, 2, n, dtype=np.uint64) << 63)


def cross(*cols):
    grids = np.meshgrid(*cols, indexing="ij")
    return [g.ravel() for g in grids]


def near_ties_div(rng, n: int):
    """a = round(m * b) for a midpoint m of two doubles: a / b lands within an
    ulp fraction of a tie (the hardest rounding decisions of a divider)."""
    a, b = [], []
    for bb, mm in zip(same_exponent(rng, n, 990, 1060), same_exponent(rng, n, 1000, 1046), strict=True):
        bb, mm = int(bb), int(mm)
        sb, mb, eb = decode(bb)
        sm, m, em = decode(mm)
        a.append(round_scaled((2 * m + 1) * mb * (-1 if sb ^ sm else 1), em + eb - 1))
        b.append(bb)
    # Subnormal results that are exact ties: k * 2^-1074 / 2^j.
    ks = [1, 3, 5, 7, 9, 0x000FFFFFFFFFFFFF, 0x0010000000000001]
    for k in ks:
        for j in (1, 2, 3, 52, 53):
            for s in (0, SIGN):
                a.append(k | s)
                b.append(f2b(2.0**j))
                a.append(k | s)
                b.append(f2b(-(2.0**j)))
    return np.array(a, np.uint64), np.array(b, np.uint64)


def near_ties_sqrt(rng, n: int) -> np.ndarray:
    """round(m^2) for midpoints m: the square root lies within a hair of a tie."""
    out = []
    for mm in same_exponent(rng, n, 100, 2000):
        _, m, em = decode(int(mm) & ~SIGN)
        out.append(round_scaled((2 * m + 1) ** 2, 2 * em - 2))
    return np.array(out, np.uint64)


# ---------------------------------------------------------------------------
# Running GLSL
# ---------------------------------------------------------------------------


def run_glsl(gl, version: int, func: str, args, source: str | None = None) -> np.ndarray:
    """``func(args...)`` on the host, one fragment per case; returns uint64 bits.

    ``source`` defines ``func`` (default: the soft fp64 helpers it needs)."""
    from lowering.glsl.soft_fp64_divsqrt import glsl_source

    if source is None:
        source = glsl_source([func])
    args = [np.ascontiguousarray(a, dtype=np.uint64) for a in args]
    n = args[0].size
    h = max(1, -(-n // GRID_W))
    total = GRID_W * h
    cols = [np.zeros(total, np.uint64) for _ in range(4)]
    for k, a in enumerate(args):
        cols[k][:n] = a
    tex_data = [np.stack(cols[0:2], 1).view(np.uint32), np.stack(cols[2:4], 1).view(np.uint32)]
    params = ", ".join(("t0.xy", "t0.zw", "t1.xy")[: len(args)])
    fs = (
        f"#version {version} core\n"
        "uniform usampler2D glp_in0;\nuniform usampler2D glp_in1;\nout uvec4 glp_out;\n"
        + source
        + "\nvoid main()\n{\n    ivec2 p = ivec2(gl_FragCoord.xy);\n"
        "    uvec4 t0 = texelFetch(glp_in0, p, 0);\n    uvec4 t1 = texelFetch(glp_in1, p, 0);\n"
        f"    glp_out = uvec4({func}({params}), 0u, 0u);\n}}\n"
    )
    ctx = gl.ctx
    with ctx:
        prog = ctx.program(vertex_shader=H.FULL_SCREEN_VS.format(version=version), fragment_shader=fs)
        texs = [ctx.texture((GRID_W, h), 4, d.tobytes(), dtype="u4") for d in tex_data]
        for t in texs:
            t.filter = (gl.moderngl.NEAREST, gl.moderngl.NEAREST)
        target = ctx.texture((GRID_W, h), 4, dtype="u4")
        fbo = ctx.framebuffer(color_attachments=[target])
        vao = ctx.vertex_array(prog, [])
        try:
            for unit, (t, name) in enumerate(zip(texs, ("glp_in0", "glp_in1"), strict=True)):
                t.use(unit)
                if name in prog:
                    prog[name].value = unit
            fbo.use()
            fbo.viewport = (0, 0, GRID_W, h)
            vao.render(gl.moderngl.TRIANGLES, vertices=3)
            out = np.frombuffer(fbo.read(components=4, dtype="u4"), dtype=np.uint32).reshape(total, 4)
        finally:
            for obj in [vao, fbo, target, prog] + texs:
                obj.release()
    return np.ascontiguousarray(out[:n, :2]).view(np.uint64).ravel()


def assert_bits(name: str, got: np.ndarray, want: np.ndarray, *args) -> None:
    bad = np.nonzero(got != want)[0]
    if bad.size:
        lines = [f"{name}: {bad.size} of {got.size} cases differ"]
        for i in bad[:16]:
            ins = " ".join(f"{int(a[i]):016x}({b2f(int(a[i])):.17g})" for a in args)
            lines.append(
                f"  {ins} -> got {int(got[i]):016x}({b2f(int(got[i])):.17g}) "
                f"want {int(want[i]):016x}({b2f(int(want[i])):.17g})"
            )
        raise AssertionError("\n".join(lines))


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------


def test_ddiv(gl, version):
    rng = _rng("ddiv")
    sa, sb = cross(SPECIALS, SPECIALS)
    ta, tb = near_ties_div(rng, 4096)
    half = SAMPLES // 2
    a = np.concatenate([sa, ta, random_bits(rng, half), same_exponent(rng, SAMPLES - half)])
    b = np.concatenate([sb, tb, random_bits(rng, half), same_exponent(rng, SAMPLES - half)])
    assert_bits("glp_ddiv", run_glsl(gl, version, "glp_ddiv", [a, b]), ref_div(a, b), a, b)


def test_dsqrt(gl, version):
    rng = _rng("dsqrt")
    third = SAMPLES // 3
    a = np.concatenate(
        [
            SPECIALS,
            near_ties_sqrt(rng, 4096),
            random_bits(rng, third),
            same_exponent(rng, third, 0, 2047) & np.uint64(M64 >> 1),
            rng.integers(0, 1 << 52, SAMPLES - 2 * third, dtype=np.uint64),
        ]
    )
    assert_bits("glp_dsqrt", run_glsl(gl, version, "glp_dsqrt", [a]), ref_sqrt(a), a)


def test_drsq(gl, version):
    rng = _rng("drsq")
    third = SAMPLES // 3
    a = np.concatenate(
        [
            SPECIALS,
            near_ties_sqrt(rng, 4096),
            random_bits(rng, third),
            same_exponent(rng, third, 0, 2047) & np.uint64(M64 >> 1),
            rng.integers(0, 1 << 52, SAMPLES - 2 * third, dtype=np.uint64),
        ]
    )
    want = np.array([ref_rsq(int(x)) for x in a], dtype=np.uint64)
    assert_bits("glp_drsq", run_glsl(gl, version, "glp_drsq", [a]), want, a)


def _with_exponent(bits: np.ndarray, exp: np.ndarray) -> np.ndarray:
    """``bits`` with the biased exponent field replaced (exp clipped to [1, 2046])."""
    exp = np.clip(exp.astype(np.int64), 1, 2046).astype(np.uint64)
    return (bits & np.uint64(~(0x7FF << 52) & M64)) | (exp << np.uint64(52))


def fma_sticky_cases(rng, n: int):
    """Cases decided by bits an alignment shifts out (the sticky bit):

    * a*b an exact tie (short significands) plus a tiny c of either sign, which
      breaks the tie up or down;
    * c = +-2^k dominating a product near half an ulp of c (k = product's
      exponent + 52..55), so c - p falls next to a midpoint;
    * all-ones significands (1.fff...f, 1.000...1) at every shift distance 0..130:
      long carry and borrow chains through the 128-bit words.
    """
    third = n // 3
    a, b = short_significands(rng, third), short_significands(rng, third)
    pexp = (
        ((a >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
        + ((b >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
        - 1023
    )
    c = _with_exponent(random_bits(rng, third), pexp - rng.integers(60, 400, third))
    cols = [[a], [b], [c]]
    a, b = same_exponent(rng, third, 900, 1150), same_exponent(rng, third, 900, 1150)
    pexp = (
        ((a >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
        + ((b >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
        - 1023
    )
    c = _with_exponent(rng.integers(0, 2, third, dtype=np.uint64) << np.uint64(63), pexp + rng.integers(52, 56, third))
    for col, v in zip(cols, (a, b, c), strict=True):
        col.append(v)
    ones = [
        0x000FFFFFFFFFFFFF,
        0x000FFFFFFFFFFFFE,
        0x0000000000000001,
        0x0008000000000001,
        0x000FFFFFFFF00000,
        0x00000000FFFFFFFF,
    ]
    rest = n - 2 * third

    def pick():
        return np.array(ones, np.uint64)[rng.integers(0, len(ones), rest)]

    def sign():
        return rng.integers(0, 2, rest, dtype=np.uint64) << np.uint64(63)

    ea, eb = rng.integers(1000, 1047, rest), rng.integers(1000, 1047, rest)
    a = _with_exponent(pick() | sign(), ea)
    b = _with_exponent(pick() | sign(), eb)
    c = _with_exponent(pick() | sign(), ea + eb - 1023 + 1 - rng.integers(0, 131, rest))
    for col, v in zip(cols, (a, b, c), strict=True):
        col.append(v)
    return [np.concatenate(col) for col in cols]


def fma_cases(rng, n: int):
    sa, sb, sc = cross(SPECIALS, SPECIALS, SPECIALS[::3])
    cols = [[sa], [sb], [sc]]
    for col, v in zip(cols, fma_sticky_cases(rng, 1 << 15), strict=True):
        col.append(v)
    quarter = n // 4
    # random bit patterns (overflow, underflow, huge alignment shifts)
    for col in cols:
        col.append(random_bits(rng, quarter))
    # same exponent: deep cancellation and carries
    for col in cols:
        col.append(same_exponent(rng, quarter, 1020, 1026))
    # c = -round(a*b) (+- a few ulps): the exact product's tail decides everything
    a, b = same_exponent(rng, quarter, 900, 1150), same_exponent(rng, quarter, 900, 1150)
    with np.errstate(all="ignore"):
        p = (a.view(np.float64) * b.view(np.float64)).view(np.uint64)
    c = (p ^ np.uint64(SIGN)) + rng.integers(-2, 3, quarter).astype(np.uint64)
    for col, v in zip(cols, (a, b, c), strict=True):
        col.append(v)
    # short significands: exact ties, products landing on midpoints; subnormal results
    rest = n - 3 * quarter
    a, b = short_significands(rng, rest), short_significands(rng, rest)
    c = np.where(rng.integers(0, 2, rest) == 0, np.uint64(0), short_significands(rng, rest))
    sub = rng.integers(0, 4, rest) == 0
    a = np.where(sub, a - np.uint64(1000 << 52) & np.uint64(M64), a)  # exponent 0..45: tiny
    b = np.where(sub, b & np.uint64(~(0x7FF << 52) & M64) | np.uint64(1000 << 52), b)
    for col, v in zip(cols, (a, b, c), strict=True):
        col.append(v)
    return [np.concatenate(col) for col in cols]


def test_dfma(gl, version):
    a, b, c = fma_cases(_rng("dfma"), SAMPLES)
    want = np.array([ref_fma(int(x), int(y), int(z)) for x, y, z in zip(a, b, c, strict=True)], dtype=np.uint64)
    assert_bits("glp_dfma", run_glsl(gl, version, "glp_dfma", [a, b, c]), want, a, b, c)


def test_nan_rule_matches_native_doubles(gl):
    """The NaN rule chosen (first NaN operand quieted -- c, a, b for fma --, default
    NaN 0xFFF8000000000000 for invalid operations) is what llvmpipe's native doubles
    return wherever IEEE 754 fixes the result: on the specials crossed, the soft
    and the native results are NaN for the same cases, and their bits agree.
    (Only NaN results are compared: llvmpipe runs shaders with denormals flushed
    -- 0 / 2^-1074 is NaN there, and a result below 2^-1022 is 0 -- and its fma()
    rounds twice.  Subnormal operands are left out for that reason.)

    Division and square root are one SSE2 instruction whose operands the code
    generator cannot swap, so every NaN result must match bit for bit.  llvmpipe's
    fma is a multiply and then an add, and which NaN an add of two NaNs keeps is
    the operand order the code generator gave it: the addend's at LLVM's -O2, the
    product's under glpipe's default ``GALLIVM_PERF=nopt`` (docs/host.md "Driver
    settings made before the driver loads").  IEEE 754-2008 section 6.2.3 leaves
    that choice open ("this standard does not specify which of the input NaNs will
    provide the payload"), and GLSL 4.50 section 4.7.1 defines no NaN propagation
    at all.  So for fma the bits must match where one NaN decides the result (one
    NaN operand, no invalid product); where the standard leaves a choice (two or
    three NaN operands, or an invalid product 0 * inf beside a NaN addend) both
    results must be one of the NaNs it allows: an operand's NaN quieted, or the
    default NaN of the invalid product.  The soft rule's own bits are pinned by
    ``test_dfma`` against ``ref_fma``."""
    normal = SPECIALS[[(int(x) >> 52) & 0x7FF != 0 or (int(x) & ~SIGN) == 0 for x in SPECIALS]]
    sa, sb, sc = cross(normal, normal, normal[::3])
    # llvmpipe's fma(MAX, -MAX, inf) is -inf + inf = NaN: keep the finite products.
    with np.errstate(all="ignore"):
        fa, fb = sa.view(np.float64), sb.view(np.float64)
        keep = ~(np.isfinite(fa) & np.isfinite(fb) & np.isinf(fa * fb))
    for func, expr, args in (
        ("glp_ddiv", "a / b", (sa, sb)),
        ("glp_dsqrt", "sqrt(a)", (sa,)),
        ("glp_dfma", "fma(a, b, c)", (sa[keep], sb[keep], sc[keep])),
    ):
        native = _run_native(gl, expr, args)
        soft = run_glsl(gl, 450, func, args)
        nan = np.array([is_nan(int(x)) for x in native])
        assert nan.sum() > 100
        assert_bits(f"{func} NaN-ness vs native {expr}", np.array([is_nan(int(x)) for x in soft]), nan, *args)
        if func != "glp_dfma":
            assert_bits(f"{func} vs native {expr} (NaN results)", soft[nan], native[nan], *(x[nan] for x in args))
            continue
        allowed = [_fma_nans(int(a), int(b), int(c)) for a, b, c in zip(*args, strict=True)]
        fixed = np.array([len(choice) == 1 for choice in allowed]) & nan
        assert fixed.sum() > 100 and (nan & ~fixed).sum() > 100  # both kinds are crossed
        assert_bits(
            f"{func} vs native {expr} (NaN results IEEE fixes)", soft[fixed], native[fixed], *(x[fixed] for x in args)
        )
        for name, got in (("soft", soft), ("native", native)):
            outside = [i for i in np.nonzero(nan & ~fixed)[0] if int(got[i]) not in allowed[i]]
            assert not outside, f"{name} fma: {len(outside)} NaN results no operand gives, e.g. " + ", ".join(
                f"{int(args[0][i]):016x} {int(args[1][i]):016x} {int(args[2][i]):016x} -> {int(got[i]):016x}"
                for i in outside[:4]
            )


def _fma_nans(a: int, b: int, c: int) -> set[int]:
    """The NaNs IEEE 754-2008 lets fma(a, b, c) return when it is NaN (section
    6.2.3: an operand's NaN, quieted; section 7.2: the default NaN of an invalid
    product 0 * inf or sum inf - inf); empty for a result that is not NaN."""
    out = {x | QUIET for x in (a, b, c) if is_nan(x)}
    if not (is_nan(a) or is_nan(b)):
        inf_a, inf_b = (a & ~SIGN) == INF, (b & ~SIGN) == INF
        zero_a, zero_b = (a & ~SIGN) == 0, (b & ~SIGN) == 0
        product_inf = inf_a or inf_b
        if product_inf and (zero_a or zero_b):
            out.add(DEFAULT_NAN)
        elif product_inf and (c & ~SIGN) == INF and (c >> 63) != ((a ^ b) >> 63):
            out.add(DEFAULT_NAN)
    return out


def _run_native(gl, expr: str, args) -> np.ndarray:
    """``expr`` over doubles a, b, c with GLSL 450's native double type."""
    words = ("x", "y", "z")[: len(args)]
    src = (
        "uvec2 glp_native("
        + ", ".join(f"uvec2 {w}" for w in words)
        + ")\n{\n"
        + "".join(f"    double {x} = packDouble2x32({w});\n" for x, w in zip("abc", words, strict=False))
        + f"    return unpackDouble2x32({expr});\n}}\n"
    )
    return run_glsl(gl, 450, "glp_native", args, source=src)


def test_helper_table_order():
    """Every helper appears after the helpers its body calls (the order wide.py emits),
    parameters are GLSL 3.30 types, and no body uses a GLSL 4.00 built-in."""
    from lowering.glsl import soft_fp64_divsqrt as S

    assert set(S.DIVSQRT_ORDER) == set(S.DIVSQRT_HELPERS)
    seen = set()
    for name in S.DIVSQRT_ORDER:
        ret, params, body = S.DIVSQRT_HELPERS[name]
        called = set(re.findall(r"\b(glp_\w+)\s*\(", body)) - {name}
        assert called <= seen, f"{name} calls {called - seen} before they are defined"
        seen.add(name)
        for word in ("umulExtended", "uaddCarry", "usubBorrow", "findMSB", "bitfield", "double", "packDouble", "fma("):
            assert word not in body, f"{name} uses {word} (not GLSL 3.30 core)"
    for name, sig in (
        ("glp_dfma", ("uvec2", ("uvec2",) * 3)),
        ("glp_ddiv", ("uvec2", ("uvec2",) * 2)),
        ("glp_dsqrt", ("uvec2", ("uvec2",))),
        ("glp_drsq", ("uvec2", ("uvec2",))),
    ):
        ret, params, _ = S.DIVSQRT_HELPERS[name]
        assert (ret, tuple(t for t, _ in params)) == sig


def test_cost_benchmark_runs():
    """benchmarks/bench_soft_fp64_divsqrt.py (the cost docs/lowering.md quotes) runs:
    every helper and its native counterpart draw, and the op counts follow the loop
    structure (1/sqrt = division steps + root steps > sqrt > division > fma)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks import bench_soft_fp64_divsqrt as B

    rows = B.run(size=16, reps=1)
    assert [r["helper"] for r in rows] == ["glp_dfma", "glp_ddiv", "glp_dsqrt", "glp_drsq"]
    for r in rows:
        assert r["soft_ms_per_M"] > 0 and r["native_ms_per_M"] > 0 and r["copy_ms_per_M"] > 0
    ops = {r["helper"]: r["ops"] for r in rows}
    assert ops["glp_drsq"] > ops["glp_dsqrt"] > ops["glp_ddiv"] > ops["glp_dfma"] > 54 * 10
    assert "| `glp_drsq` |" in B.format_markdown(rows)
