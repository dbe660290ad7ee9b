"""The soft-double helpers (lowering/glsl/soft_fp64.py), bit-exact against numpy float64.

The helpers' GLSL, exactly as the emitter registers it, runs at ``#version
330`` core (what the gl33 profile compiles) in a fragment shader over a
grid: each fragment fetches its operands from RGBA32UI textures and writes
the result words to an RGBA32UI target.  Per opcode: every special class
(``soft_fp64_cases.SPECIALS``) crossed with every other, then random bit
patterns and random values shaped for the opcode (cancellation, exact ties,
overflow / underflow thresholds, fraction bits that decide a rounding), at
least 2^18 inputs.  ``GLPIPE_FP64_SAMPLES`` sets the count (e.g. 4194304).
Expected values come from numpy float64 / Python integers
(``soft_fp64_cases.REFERENCES``), NaN payloads from the native rule written
there; every comparison is bit-exact.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H
import soft_fp64_cases as C

from lowering.glsl import soft_fp64

gl = H.module_harness()

SAMPLES = int(os.environ.get("GLPIPE_FP64_SAMPLES", str(1 << 18)))
WIDTH = 1024
CHUNK = WIDTH * 1024  # fragments per draw

# opcode: (GLSL statement writing glp_out from operands {0} {1} {2}, operand kinds, result kind, helpers)
# operand kinds: d = double (uvec2), l = 64-bit integer (uvec2), w = a 32-bit word (uint), i = int
# result kinds: d / l = 64-bit words, w = one 32-bit word, de = double + int exponent
OPS = {
    "DADD": ("glp_out = uvec4(glp_dadd({0}, {1}), 0u, 0u);", "dd", "d"),
    "DMUL": ("glp_out = uvec4(glp_dmul({0}, {1}), 0u, 0u);", "dd", "d"),
    "DMAD": ("glp_out = uvec4(glp_dmad({0}, {1}, {2}), 0u, 0u);", "ddd", "d"),
    "DMIN": ("glp_out = uvec4(glp_dmin({0}, {1}), 0u, 0u);", "dd", "d"),
    "DMAX": ("glp_out = uvec4(glp_dmax({0}, {1}), 0u, 0u);", "dd", "d"),
    "DSEQ": ("glp_out = uvec4(glp_deq({0}, {1}) ? 1u : 0u);", "dd", "w"),
    "DSNE": ("glp_out = uvec4(glp_dne({0}, {1}) ? 1u : 0u);", "dd", "w"),
    "DNEG": ("glp_out = uvec4(glp_dneg({0}), 0u, 0u);", "d", "d"),
    "DABS": ("glp_out = uvec4(glp_dabs({0}), 0u, 0u);", "d", "d"),
    "DSLT": ("glp_out = uvec4(glp_dlt({0}, {1}) ? 1u : 0u);", "dd", "w"),
    "DSGE": ("glp_out = uvec4(glp_dge({0}, {1}) ? 1u : 0u);", "dd", "w"),
    "DSSG": ("glp_out = uvec4(glp_dssg({0}), 0u, 0u);", "d", "d"),
    "DTRUNC": ("glp_out = uvec4(glp_dtrunc({0}), 0u, 0u);", "d", "d"),
    "DFLR": ("glp_out = uvec4(glp_dflr({0}), 0u, 0u);", "d", "d"),
    "DCEIL": ("glp_out = uvec4(glp_dceil({0}), 0u, 0u);", "d", "d"),
    "DROUND": ("glp_out = uvec4(glp_dround({0}), 0u, 0u);", "d", "d"),
    "DFRAC": ("glp_out = uvec4(glp_dfrac({0}), 0u, 0u);", "d", "d"),
    "DLDEXP": ("glp_out = uvec4(glp_dldexp({0}, {1}), 0u, 0u);", "di", "d"),
    "DFRACEXP": ("int e; uvec2 m = glp_dfrexp({0}, e); glp_out = uvec4(m, uint(e), 0u);", "d", "de"),
    "F2D": ("glp_out = uvec4(glp_f2d({0}), 0u, 0u);", "w", "d"),
    "D2F": ("glp_out = uvec4(glp_d2f({0}));", "d", "w"),
    "I2D": ("glp_out = uvec4(glp_i2d({0}), 0u, 0u);", "i", "d"),
    "U2D": ("glp_out = uvec4(glp_u2d({0}), 0u, 0u);", "w", "d"),
    "D2I": ("glp_out = uvec4(uint(glp_d2i({0})));", "d", "w"),
    "D2U": ("glp_out = uvec4(glp_d2u({0}));", "d", "w"),
    "I642D": ("glp_out = uvec4(glp_i642d({0}), 0u, 0u);", "l", "d"),
    "U642D": ("glp_out = uvec4(glp_u642d({0}), 0u, 0u);", "l", "d"),
    "D2I64": ("glp_out = uvec4(glp_d2i64({0}), 0u, 0u);", "d", "l"),
    "D2U64": ("glp_out = uvec4(glp_d2u64({0}), 0u, 0u);", "d", "l"),
}

_SLOTS = ("s0.xy", "s0.zw", "s1.xy")

FS = """#version 330
uniform usampler2D glp_in0;
uniform usampler2D glp_in1;
out uvec4 glp_out;

{helpers}
void main()
{{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uvec4 s0 = texelFetch(glp_in0, p, 0);
    uvec4 s1 = texelFetch(glp_in1, p, 0);
    {body}
}}
"""

VS = H.FULL_SCREEN_VS.format(version=330)


def helpers_called(statement: str):
    import re

    return list(dict.fromkeys(re.findall(r"\b(glp_\w+)\s*\(", statement)))


def fragment_source(op: str) -> str:
    """The test shader of ``op``: its helpers as the emitter registers them, then main()."""
    statement, kinds, _ = OPS[op]
    args = []
    for k, kind in enumerate(kinds):
        slot = _SLOTS[k]
        args.append({"d": slot, "l": slot, "w": f"{slot}.x", "i": f"int({slot}.x)"}[kind])
    body = statement.format(*args)
    return FS.format(helpers=soft_fp64.helper_source(helpers_called(body)), body=body)


def run_grid(harness, source: str, operands) -> np.ndarray:
    """Draw ``source`` over len(operands[0]) fragments; operand k is a uint64 array (64-bit
    kinds) or uint32 (32-bit kinds).  Returns the (N, 4) uint32 results."""
    ctx = harness.ctx
    n = len(operands[0])
    words = np.zeros((n, 8), dtype=np.uint32)
    for k, v in enumerate(operands):
        v = np.asarray(v)
        if v.dtype == np.uint64:
            words[:, 2 * k] = (v & np.uint64(0xFFFFFFFF)).astype(np.uint32)
            words[:, 2 * k + 1] = (v >> np.uint64(32)).astype(np.uint32)
        else:
            words[:, 2 * k] = v.astype(np.uint32)
    out = np.empty((n, 4), dtype=np.uint32)
    with ctx:
        prog = ctx.program(vertex_shader=VS, fragment_shader=source)
        for name, unit in (("glp_in0", 0), ("glp_in1", 1)):
            if name in prog:
                prog[name].value = unit
        vao = ctx.vertex_array(prog, [])
        try:
            for start in range(0, n, CHUNK):
                part = words[start : start + CHUNK]
                m = len(part)
                rows = -(-m // WIDTH)
                grid = np.zeros((rows * WIDTH, 8), dtype=np.uint32)
                grid[:m] = part
                texs = [ctx.texture((WIDTH, rows), 4, grid[:, 4 * t : 4 * t + 4].tobytes(), dtype="u4") for t in (0, 1)]
                for unit, tex in enumerate(texs):
                    tex.filter = (harness.moderngl.NEAREST, harness.moderngl.NEAREST)
                    tex.use(unit)
                target = ctx.texture((WIDTH, rows), 4, dtype="u4")
                fbo = ctx.framebuffer(color_attachments=[target])
                fbo.use()
                fbo.viewport = (0, 0, WIDTH, rows)
                vao.render(harness.moderngl.TRIANGLES, vertices=3)
                res = np.frombuffer(fbo.read(components=4, dtype="u4"), dtype=np.uint32).reshape(-1, 4)
                out[start : start + m] = res[:m]
                for obj in texs + [fbo, target]:
                    obj.release()
        finally:
            vao.release()
            prog.release()
    return out


# ---------------------------------------------------------------------------
# Inputs per opcode
# ---------------------------------------------------------------------------


def _specials(k: int):
    return C.cross(C.SPECIALS, k)


def _inputs(op: str, n: int):
    """Operand columns of ``op``: specials crossed, then random ones to ``n`` rows."""
    rng = C.rng_for(op)
    _, kinds, _ = OPS[op]
    k = len(kinds)
    parts = []
    m = max(n, 1)
    if op in ("DADD", "DMIN", "DMAX", "DSEQ", "DSNE", "DSLT", "DSGE"):
        cols = _specials(2)
        parts = [
            [C.random_bits(rng, m // 4), C.random_bits(rng, m // 4)],
            list(C.similar_pairs(rng, m // 2)),
            list(C.tie_pairs(rng, m // 4)),
        ]
    elif op == "DMUL":
        cols = _specials(2)
        parts = [
            [C.random_bits(rng, m // 4), C.random_bits(rng, m // 4)],
            list(C.product_pairs(rng, m // 4, -60, 2)),
            list(C.product_pairs(rng, m // 8, 2040, 2050)),
            list(C.tie_products(rng, m // 4)),
            list(C.product_pairs(rng, m // 8, 0, 2046)),
        ]
    elif op == "DMAD":
        sp = C.SPECIALS[::3]
        cols = C.cross(sp, 3)
        a, b = C.tie_products(rng, m // 2)
        prod = C.as_bits(C.as_f(a) * C.as_f(b))
        c = C.with_exponent(
            rng, ((prod >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64) + rng.integers(-2, 3, m // 2)
        )
        parts = [
            [C.random_bits(rng, m // 4), C.random_bits(rng, m // 4), C.random_bits(rng, m // 4)],
            [a, b, c],
            list(C.similar_pairs(rng, m // 4)) + [C.random_bits(rng, m // 4)],
        ]
    elif op == "DLDEXP":
        cols = [
            np.repeat(C.SPECIALS, 16),
            np.tile(
                np.array(
                    [0, 1, -1, 52, -52, 1023, -1022, -1074, -1075, 2046, -2100, 5000, -5000, 2**31 - 1, -(2**31), 60],
                    dtype=np.int64,
                ),
                len(C.SPECIALS),
            ),
        ]
        cols[1] = cols[1].astype(np.uint32)
        a = np.concatenate([C.random_bits(rng, m // 2), C.with_exponent(rng, rng.integers(0, 2047, m // 2))])
        e = rng.integers(-2200, 2200, len(a)).astype(np.int64)
        near = rng.random(len(a)) < 0.5  # land near the subnormal / overflow thresholds
        ea = ((a >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
        e[near] = rng.choice([-1, 2046], int(near.sum())) - ea[near] + rng.integers(-56, 4, int(near.sum()))
        parts = [[a, e.astype(np.uint32)]]
    elif op in ("F2D",):
        cols = [
            np.concatenate(
                [
                    np.arange(0, 64, dtype=np.uint32),
                    np.array(
                        [0x7F800000, 0x7F800001, 0x7FC01234, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000],
                        dtype=np.uint32,
                    ),
                ]
            )
        ]
        cols[0] = np.concatenate([cols[0], cols[0] | np.uint32(0x80000000)])
        parts = [[rng.integers(0, 2**32, m, dtype=np.uint64).astype(np.uint32)]]
    elif op in ("I2D", "U2D"):
        cols = [np.array([0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x80000001, 12345], dtype=np.uint32)]
        parts = [[rng.integers(0, 2**32, m, dtype=np.uint64).astype(np.uint32)]]
    elif op in ("I642D", "U642D"):
        edge = [
            0,
            1,
            2**63,
            2**63 - 1,
            2**64 - 1,
            2**53,
            2**53 + 1,
            2**54 + 2,
            2**54 + 6,
            2**63 + 2**10,
            2**63 + 2**10 + 1,
            2**64 - 2**11,
            2**64 - 2**10,
            (2**53 + 1) << 10,
        ]
        cols = [np.array(edge, dtype=np.uint64)]
        bits = C.random_bits(rng, m)
        shift = rng.integers(0, 64, m).astype(np.uint64)
        parts = [[C.random_bits(rng, m // 2)], [(bits >> shift)[: m // 2]]]
    else:
        # unary double opcodes: specials, random bits, and values in the range where the
        # opcode's interesting work happens
        cols = _specials(1)
        lo, hi = {
            "D2F": (1023 - 160, 1023 + 130),
            "D2I": (1020, 1056),
            "D2U": (1020, 1056),
            "D2I64": (1020, 1088),
            "D2U64": (1020, 1088),
        }.get(op, (1000, 1080))
        parts = [[C.random_bits(rng, m // 4)], [C.with_exponent(rng, rng.integers(lo, hi, m - m // 4))]]
        if op in ("DTRUNC", "DFLR", "DCEIL", "DROUND", "DFRAC"):
            # exact halves and near-halves: x = k + 0.5 (+-1 ulp)
            whole = rng.integers(-(2**40), 2**40, m // 4).astype(np.float64)
            halves = C.as_bits(whole + 0.5) + rng.integers(-1, 2, m // 4).astype(np.int64).astype(np.uint64)
            parts.append([halves])
    allcols = []
    for j in range(k):
        allcols.append(np.concatenate([cols[j]] + [p[j] for p in parts]))
    count = max(n, len(cols[0]))
    return [c[:count] for c in allcols]


def _fmt(v) -> str:
    return f"0x{int(v):016x}" if isinstance(v, (np.uint64,)) else f"0x{int(v):08x}"


def check(op: str, got: np.ndarray, operands, expected) -> None:
    _, _, kind = OPS[op]
    if kind in ("d", "l"):
        g = got[:, 0].astype(np.uint64) | (got[:, 1].astype(np.uint64) << np.uint64(32))
        bad = g != expected
        shown = g
    elif kind == "w":
        g = got[:, 0]
        bad = g != expected
        shown = g
    else:  # de
        m_exp, e_exp = expected
        g = got[:, 0].astype(np.uint64) | (got[:, 1].astype(np.uint64) << np.uint64(32))
        bad = (g != m_exp) | (got[:, 2] != e_exp)
        shown = g
    if bad.any():
        idx = np.nonzero(bad)[0]
        lines = [f"{op}: {len(idx)} of {len(bad)} inputs differ"]
        for i in idx[:16]:
            ins = " ".join(_fmt(o[i]) for o in operands)
            exp = expected[0][i] if kind == "de" else expected[i]
            lines.append(f"  {ins} -> got {_fmt(shown[i])}, expected {_fmt(exp)}")
        raise AssertionError("\n".join(lines))


@pytest.mark.parametrize("op", sorted(OPS))
def test_soft_double_bit_exact(gl, op):
    """``op``'s helper against numpy over specials x specials and >= 2^18 random inputs."""
    operands = _inputs(op, SAMPLES)
    assert len(operands[0]) >= min(SAMPLES, 1 << 18)
    got = run_grid(gl, fragment_source(op), operands)
    expected = C.REFERENCES[op](*operands)
    check(op, got, operands, expected)


def test_specials_cover_every_class():
    """The special inputs hold every IEEE class of both signs (so the crosses test them all)."""
    x = C.as_f(C.SPECIALS)
    with np.errstate(all="ignore"):
        classes = {
            "zero": x == 0,
            "subnormal": (x != 0) & (np.abs(x) < 2.2250738585072014e-308),
            "normal": np.isfinite(x) & (np.abs(x) >= 2.2250738585072014e-308),
            "inf": np.isinf(x),
            "nan": np.isnan(x),
        }
    for name, mask in classes.items():
        signs = set(np.signbit(x[mask]).tolist())
        assert signs == {False, True}, f"{name}: both signs expected"


def test_every_helper_is_glsl_330_for_glslang():
    """The whole library (each helper with its dependencies, in registration order) is
    valid GLSL 3.30 core for the reference compiler too, not just for Mesa."""
    from glsl_compile import GLSLANG, glslang_check

    if GLSLANG is None:
        pytest.skip("glslangValidator is not installed")
    source = (
        "#version 330 core\nout uvec4 glp_out;\n"
        + soft_fp64.helper_source(sorted(soft_fp64.LIBRARY))
        + "void main()\n{\n    glp_out = uvec4(0u);\n}\n"
    )
    assert glslang_check(source, "FRAG") is None
