"""LDEXP on both profiles: never refused, exact, and bit-identical with native.

float ``ldexp`` is GLSL 4.00 (GL_ARB_gpu_shader5); the gl33 profile (GLSL 330,
no extensions) lowers LDEXP to a helper that assembles the exponent bits
(``int_emul.glp_ldexp``).  The reference is written from the definition,
x * 2^e exactly, with what llvmpipe's native ldexp does at the ends of the
range (measured, and checked below against the native run itself):

* a result of magnitude >= 2^128 is +-inf (GLSL: undefined; the host gives inf);
* a result below FLT_MIN (2^-126) is a zero of x's sign: llvmpipe runs shaders
  with denormals flushed (FTZ), and a subnormal x reads as a zero (DAZ);
* 0, inf and NaN come back unchanged.

One native deviation is left out of the comparison with native: llvmpipe adds
the exponent in 32-bit integers, so e near INT_MAX wraps (ldexp(1, INT_MAX)
gives 0).  GLSL leaves a product too large for float undefined; the gl33
helper clamps e first and gives inf, which the reference checks there.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

gl = H.module_harness()
version = H.version_fixture()

F32 = np.float32


def ldexp_reference(x: np.ndarray, e: np.ndarray) -> np.ndarray:
    """x * 2^e as float32 words, flushed at FLT_MIN and saturated to inf (see the docstring)."""
    x = np.asarray(x, F32)
    e = np.asarray(e, np.int64)
    sign = np.signbit(x)
    tiny_in = (x != 0) & (np.abs(x) < np.finfo(F32).tiny)  # DAZ
    xd = np.where(tiny_in, 0.0, x.astype(np.float64))
    # float64 holds x * 2^e exactly for |e| <= 600 (float32 mantissa, exponent in range)
    with np.errstate(over="ignore"):
        r = np.ldexp(xd, np.clip(e, -600, 600))
    r = np.where(np.isfinite(xd) & (np.abs(r) >= 2.0**128), np.copysign(np.inf, r), r)
    r = np.where(np.abs(r) < 2.0**-126, 0.0, r)  # FTZ
    out = r.astype(F32)
    out = np.where(out == 0, np.where(sign, F32(-0.0), F32(0.0)), out)
    return out.view(np.uint32)


def _WRAPS(e: np.ndarray) -> np.ndarray:
    """Lanes whose exponent makes llvmpipe's 32-bit exponent sum wrap."""
    return np.asarray(e, np.int64) > 2**30


def _cases():
    rng = np.random.default_rng(1818)
    specials_x = [
        1.5,
        1.0,
        -1.0,
        1.75,
        -1.75,
        3.0,
        2**-126,
        -(2**-126),
        2**-149,
        -(2**-140),
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        1.9999999,
        0.99999994,
        3.4028235e38,
        -3.4028235e38,
    ]
    specials_e = [
        -127,
        -126,
        -125,
        -149,
        -150,
        -1,
        0,
        1,
        127,
        128,
        254,
        255,
        -254,
        -255,
        300,
        -300,
        2**31 - 1,
        -(2**31),
        149,
        10,
    ]
    xs, es = [], []
    for x in specials_x:
        for e in specials_e:
            xs.append(x)
            es.append(e)
    # random magnitudes over the whole range and exponents that land near both ends
    n = 600
    rx = (rng.uniform(1, 2, n) * 2.0 ** rng.integers(-126, 128, n)).astype(F32)
    rx *= np.where(rng.random(n) < 0.5, -1, 1).astype(F32)
    re = rng.integers(-300, 300, n)
    xs = np.concatenate([np.array(xs, F32), rx])
    es = np.concatenate([np.array(es, np.int64), re])
    # 4 cases per row: (N, 4) source words
    pad = (-len(xs)) % 4
    xs = np.concatenate([xs, np.ones(pad, F32)])
    es = np.concatenate([es, np.zeros(pad, np.int64)])
    return xs.reshape(-1, 4), es.astype(np.int32).reshape(-1, 4)


def _run(gl_, version_):
    x, e = _cases()
    prog = H.OpProgram("LDEXP", 2)
    return x, e, gl_.run_op(prog, [x.view(np.uint32), e.view(np.uint32)], version_)


def test_ldexp_exact_on_every_profile(gl, version):
    """GLSL 330 runs LDEXP (was: UnsupportedError 'LDEXP needs GLSL 400 or GL_ARB_gpu_shader5')."""
    x, e, got = _run(gl, version)
    exp = ldexp_reference(x, e)
    nan = np.isnan(x)
    bad = (got != exp) & ~nan
    if version >= 400:
        bad &= ~_WRAPS(e)  # native only (see the module docstring)
    bad |= nan & ~np.isnan(got.view(F32))
    assert not bad.any(), "\n".join(
        f"ldexp({x.flat[i]!r}, {e.flat[i]}) = {got.view(F32).flat[i]!r} (0x{int(got.flat[i]):08x}), "
        f"expected {exp.view(F32).flat[i]!r} (0x{int(exp.flat[i]):08x})"
        for i in np.flatnonzero(bad)[:12]
    )


def test_ldexp_gl33_bits_equal_native(gl):
    """The GLSL 330 helper and native ldexp give the same words on every case."""
    _, _, native = _run(gl, 450)
    x, e, emulated = _run(gl, 330)
    same = _WRAPS(e) | (native == emulated) | (np.isnan(native.view(F32)) & np.isnan(emulated.view(F32)))
    assert same.all(), f"{int((~same).sum())} cases differ, first x = {x.flat[np.flatnonzero(~same)[0]]!r}"


# ---------------------------------------------------------------------------
# Real TGSI: Mesa's frontend output for fma / frexp / ldexp (corpus)
# ---------------------------------------------------------------------------

_CORPUS_FS = os.path.join(os.path.dirname(__file__), "corpus", "tgsi", "core_fma_ldexp.frag.tgsi")

# IN[0] position, IN[1..3] the FS's v_a, v_b, v_c, IN[4] its flat v_exp (as floats -> F2I).
_CORPUS_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL IN[3]
DCL IN[4]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
DCL OUT[3], GENERIC[2]
DCL OUT[4], GENERIC[3]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IN[2]
  3: MOV OUT[3], IN[3]
  4: F2I OUT[4], IN[4]
  5: END
"""


def test_corpus_ldexp_gl33_pixels_equal_native():
    """core_fma_ldexp.frag (frexp + LDEXP as Mesa emits them) on a grid of triangles,
    each with its own flat exponent vector in [-300, 300]: gl33's words == native's."""
    import exec_stages as S

    rng = np.random.default_rng(18)
    cells = 8
    pos, a, b, c, e = [], [], [], [], []
    for gy in range(cells):
        for gx in range(cells):
            x0, y0 = -1 + 2 * gx / cells, -1 + 2 * gy / cells
            x1, y1 = x0 + 2 / cells, y0 + 2 / cells
            for tri in (((x0, y0), (x1, y0), (x0, y1)), ((x1, y0), (x1, y1), (x0, y1))):
                exps = rng.integers(-300, 300, 4).astype(np.float32)
                for x, y in tri:
                    pos.append((x, y, 0, 1))
                    a.append(rng.uniform(-4, 4, 4) * 2.0 ** rng.integers(-60, 60, 4))
                    b.append(rng.uniform(-4, 4, 4))
                    c.append(rng.uniform(-1, 1, 4))
                    e.append(exps)
    attrs = [np.array(v, np.float32) for v in (pos, a, b, c, e)]

    class Harness(S.StageHarness):
        def lower(self, text, glsl_version, **kwargs):
            if text.startswith("VERT"):  # the FS reads GENERIC[3] flat: the VS writes it so
                from lowering.glsl.variant import VariantKey

                kwargs["key"] = VariantKey(output_interpolation=(("GENERIC", 3, "CONSTANT", "CENTER"),))
            return super().lower(text, glsl_version, **kwargs)

    h = Harness()
    try:
        with open(_CORPUS_FS) as f:
            fs = f.read()
        native = S.draw(h, _CORPUS_VS, fs, 450, attrs, size=(32, 32)).words
        emulated = S.draw(h, _CORPUS_VS, fs, 330, attrs, size=(32, 32)).words
    finally:
        h.release()
    same = (native == emulated) | (np.isnan(native.view(F32)) & np.isnan(emulated.view(F32)))
    assert same.all(), f"{int((~same).sum())} of {same.size} words differ"
    values = native.view(F32)
    assert np.isinf(values).any() and np.isfinite(values).any()  # overflowing and finite lanes ran
