"""64-bit integer opcodes on every profile: GLSL 3.30 helpers on uvec2 vs native int64_t.

Every int64 / uint64 opcode (issue 18 item 2) runs as real TGSI through the
GLSL emitter, over a grid: a fragment shader fetches its case from two
RGBA32UI textures at its pixel (``SAMPLE_I``), applies the opcode to both
64-bit lanes and writes the register out.  ``2 x 512 x 256 = 2^18`` cases
per opcode and variant: the edge classes crossed with each other first
(0, 1, -1, INT64_MIN/MAX, UINT64_MAX, powers of two and their neighbours,
carries across the 32-bit word boundary, shift counts 0/31/32/33/63/64+, zero
divisors, INT64_MIN / -1), then seeded random values of every magnitude.

Variants: ``gl33`` (GLSL 330, no extension: the soft_int64 helpers),
``native`` (GLSL 450 with the host's GL_ARB_gpu_shader_int64: int64_t) and
``native-soft`` (GLSL 450 without that one extension: the helpers compiled
where int64_t exists, so they must agree with it bit for bit).

The expected words come from numpy int64 / uint64 (wrapping arithmetic,
``np.fmod`` for C's truncated remainder) and from Python integers for the
conversions to float (round to nearest even done on the integer, so no
double rounding through float64), following tgsi.rst and the native
profile's rules for what tgsi.rst leaves open (wide.py ``_DIV64``: x / 0 and
x % 0 give ~0, INT64_MIN / -1 wraps).
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

U32, U64, I64 = np.uint32, np.uint64, np.int64
M64 = (1 << 64) - 1
W, HGT = 512, 256  # 2^17 pixels, two 64-bit lanes each: 2^18 cases
N = 2 * W * HGT
SENTINEL = H.SENTINEL

VARIANTS = ("gl33", "native", "native-soft")


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------


def _edges64():
    vals = {
        0,
        1,
        2,
        3,
        5,
        7,
        M64,
        M64 - 1,
        1 << 63,
        (1 << 63) + 1,
        (1 << 63) - 1,
        (1 << 63) - 2,
        0xFFFFFFFF,
        0x100000000,
        0x100000001,
        0xFFFFFFFF00000000,
        0x1FFFFFFFF,
        0xFFFFFFFF80000000,
        0x7FFFFFFF,
        0x80000000,
        0x80000001,
        0x00000001_00000000 - 3,
        0x12345678_9ABCDEF0,
        0xFEDCBA98_76543210,
        0x80000000_00000001 ^ 0xFFFF,
        10**18,
        3**40,
    }
    for k in (1, 7, 15, 16, 23, 24, 25, 31, 32, 33, 47, 52, 53, 54, 62, 63):
        for v in ((1 << k) - 1, 1 << k, (1 << k) + 1):
            vals.add(v & M64)
            vals.add(-v & M64)
    return sorted(vals)


EDGES = _edges64()
SHIFT_EDGES = [
    0,
    1,
    2,
    31,
    32,
    33,
    62,
    63,
    64,
    65,
    95,
    96,
    127,
    128,
    200,
    0x7FFFFFFF,
    0x80000000,
    0xFFFFFFFF,
    0xFFFFFFC0,
    0xFFFFFFDF,
]


def _rng(name: str):
    return np.random.default_rng(zlib.crc32(name.encode()) ^ 0x5EED64)


def _random64(rng, n):
    """Random 64-bit values of every magnitude: full-width words shifted right by 0..63."""
    v = rng.integers(0, 2**63, n, dtype=U64) << U64(1) | rng.integers(0, 2, n, dtype=U64)
    return v >> rng.integers(0, 64, n, dtype=U64)


def _fill(edge_cols, rng, random_cols):
    """Edge cases first (each column truncated / padded to N), random ones after."""
    m = len(edge_cols[0])
    out = [np.empty(N, dtype=U64) for _ in edge_cols]
    rand = random_cols(rng, N - m)
    for k, col in enumerate(edge_cols):
        out[k][:m] = np.array(col, dtype=object).astype(U64)
        out[k][m:] = rand[k]
    return out


def binary_inputs(name):
    ea, eb = np.meshgrid(np.array(EDGES, dtype=object), np.array(EDGES, dtype=object))
    ea, eb = list(ea.ravel()), list(eb.ravel())

    def rand(rng, n):
        a = _random64(rng, n)
        b = _random64(rng, n)
        # Half of the pairs with nearby magnitudes, so the quotients are not all 0 or huge.
        near = rng.integers(0, 2, n).astype(bool)
        b = np.where(near, a >> rng.integers(0, 8, n, dtype=U64), b)
        return [a, b]

    return _fill([ea, eb], _rng(name), rand)


def shift_inputs(name):
    ea, ec = np.meshgrid(np.array(EDGES, dtype=object), np.array(SHIFT_EDGES, dtype=object))

    def rand(rng, n):
        counts = rng.integers(0, 2**32, n, dtype=U64)
        counts = np.where(rng.integers(0, 2, n).astype(bool), counts & U64(127), counts)
        return [_random64(rng, n), counts]

    return _fill([list(ea.ravel()), list(ec.ravel())], _rng(name), rand)


def unary_inputs(name):
    return _fill([EDGES], _rng(name), lambda rng, n: [_random64(rng, n)])


def _f32(values):
    return np.array(values, dtype=np.float64).astype(np.float32)


def float_inputs(name, signed):
    """Floats whose truncation F2I64 / F2U64 define: [0, 2^64) resp. [-2^63, 2^63)."""
    top = 63 if signed else 64
    edge = [0.0, -0.0, 0.25, 0.5, 0.75, 0.9999999, 1.0, 1.5, 2.5, 3.0, -0.5, -0.9999999]
    for k in (23, 24, 25, 31, 32, 33, 52, 53, 62) + ((63,) if not signed else ()):
        p = 2.0**k
        edge += [p, np.nextafter(np.float32(p), np.float32(0)), np.nextafter(np.float32(p), np.float32(np.inf))]
    edge += [float(np.nextafter(np.float32(2.0**top), np.float32(0)))]
    if signed:
        edge = edge + [-v for v in edge] + [-(2.0**63)]
    edge = [float(v) for v in edge if abs(float(np.float32(v))) < 2.0**top]

    def rand(rng, n):
        mag = np.exp2(rng.uniform(-2, top, n)).astype(np.float32)
        mag = np.where(mag.astype(np.float64) >= 2.0**top, np.float32(1.0), mag)
        if signed:
            mag = np.where(rng.integers(0, 2, n).astype(bool), -mag, mag)
        return [mag.view(U32).astype(U64)]

    edge_words = [int(w) for w in _f32(edge).view(U32)]
    return _fill([edge_words], _rng(name), rand)


def int32_inputs(name):
    edge = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x10000, 0xFFFF]
    return _fill([edge], _rng(name), lambda rng, n: [rng.integers(0, 2**32, n, dtype=U64)])


def to_float_inputs(name, signed):
    """Values around every rounding boundary: exact ties m * 2^k + 2^(k-1) (m even / odd), +-1."""
    edge = list(EDGES)
    for k in (1, 2, 8, 16, 31, 32, 33, 39, 40):
        for m in (0x800000, 0x800001, 0xFFFFFE, 0xFFFFFF, 0xABCDEF):
            tie = (m << k) + (1 << (k - 1))
            edge += [(tie - 1) & M64, tie & M64, (tie + 1) & M64]
    if signed:
        edge += [-v & M64 for v in edge]

    def rand(rng, n):
        v = _random64(rng, n)
        # a quarter of them exact ties: 24 significant bits followed by 100...0
        k = rng.integers(1, 40, n, dtype=U64)
        m = rng.integers(0x800000, 0x1000000, n, dtype=U64)
        tie = (m << k) | (U64(1) << (k - U64(1)))
        v = np.where(rng.integers(0, 4, n) == 0, tie, v)
        if signed:
            v = np.where(rng.integers(0, 2, n).astype(bool), U64(0) - v, v)
        return [v]

    return _fill([edge], _rng(name), rand)


# ---------------------------------------------------------------------------
# The reference: numpy int64 / uint64 (wrapping) and Python integers
# ---------------------------------------------------------------------------


def _s(a):
    return a.view(I64)


def _mask(c):
    return np.where(c, U64(M64), U64(0))


def _idiv(a, b):
    sa, sb = _s(a), _s(b)
    special = (b == 0) | (sb == -1)
    safe = np.where(special, I64(1), sb)
    r = np.fmod(sa, safe)  # C's truncated remainder
    q = ((sa - r) // safe).view(U64)  # exact division
    q = np.where(sb == -1, U64(0) - a, q)  # INT64_MIN / -1 wraps (two's complement negate)
    return np.where(b == 0, U64(M64), q)


def _imod(a, b):
    sa, sb = _s(a), _s(b)
    safe = np.where((b == 0) | (sb == -1), I64(1), sb)
    r = np.fmod(sa, safe).view(U64)
    r = np.where(sb == -1, U64(0), r)
    return np.where(b == 0, U64(M64), r)


def _udiv(a, b):
    return np.where(b == 0, U64(M64), a // np.where(b == 0, U64(1), b))


def _umod(a, b):
    return np.where(b == 0, U64(M64), a % np.where(b == 0, U64(1), b))


def _rne_f32(x: int) -> float:
    """The float32 nearest to the integer 0 <= x < 2^64, ties to even (IEEE 754 roundTiesToEven)."""
    if x < 1 << 24:
        return float(x)
    sh = x.bit_length() - 24
    m, rest, half = x >> sh, x & ((1 << sh) - 1), 1 << (sh - 1)
    if rest > half or (rest == half and m & 1):
        m += 1
    return float(m << sh)  # m <= 2^24: exact in float32


def _to_f32_words(values, signed):
    out = np.empty(len(values), dtype=np.float32)
    for k, v in enumerate(values.tolist()):
        v = int(v)
        neg = signed and v >> 63
        mag = (-v & M64) if neg else v
        out[k] = -_rne_f32(mag) if neg else _rne_f32(mag)
    return out.view(U32).astype(U64)


def _f2int(words, signed):
    f = words.astype(U32).view(np.float32).astype(np.float64)
    return np.trunc(f).astype(I64).view(U64) if signed else np.trunc(np.abs(f)).astype(U64)


CMP = {
    "U64SEQ": lambda a, b: a == b,
    "U64SNE": lambda a, b: a != b,
    "U64SLT": lambda a, b: a < b,
    "U64SGE": lambda a, b: a >= b,
    "I64SLT": lambda a, b: _s(a) < _s(b),
    "I64SGE": lambda a, b: _s(a) >= _s(b),
}

# opcode -> (input generator, reference over the lane values, result kind)
#   kind "wide": 64-bit lane; "cmp": ~0/0 word per lane (.x / .z); "narrow": word per lane (.x / .y)
OPS = {
    "U64ADD": (binary_inputs, lambda a, b: a + b, "wide"),
    "U64MUL": (binary_inputs, lambda a, b: a * b, "wide"),
    "U64DIV": (binary_inputs, _udiv, "wide"),
    "U64MOD": (binary_inputs, _umod, "wide"),
    "I64DIV": (binary_inputs, _idiv, "wide"),
    "I64MOD": (binary_inputs, _imod, "wide"),
    "U64MIN": (binary_inputs, np.minimum, "wide"),
    "U64MAX": (binary_inputs, np.maximum, "wide"),
    "I64MIN": (binary_inputs, lambda a, b: np.minimum(_s(a), _s(b)).view(U64), "wide"),
    "I64MAX": (binary_inputs, lambda a, b: np.maximum(_s(a), _s(b)).view(U64), "wide"),
    "I64ABS": (unary_inputs, lambda a: np.where(_s(a) < 0, U64(0) - a, a), "wide"),
    "I64NEG": (unary_inputs, lambda a: U64(0) - a, "wide"),
    "I64SSG": (unary_inputs, lambda a: np.sign(_s(a)).view(U64), "wide"),
    "U64SHL": (shift_inputs, lambda a, c: a << (c & U64(63)), "wide"),
    "U64SHR": (shift_inputs, lambda a, c: a >> (c & U64(63)), "wide"),
    "I64SHR": (shift_inputs, lambda a, c: (_s(a) >> (c & U64(63)).astype(I64)).view(U64), "wide"),
    "F2U64": (lambda n: float_inputs(n, False), lambda f: _f2int(f, False), "wide"),
    "F2I64": (lambda n: float_inputs(n, True), lambda f: _f2int(f, True), "wide"),
    "U2I64": (int32_inputs, lambda w: w, "wide"),
    "I2I64": (int32_inputs, lambda w: w.astype(U32).view(np.int32).astype(I64).view(U64), "wide"),
    "U642F": (lambda n: to_float_inputs(n, False), lambda a: _to_f32_words(a, False), "narrow"),
    "I642F": (lambda n: to_float_inputs(n, True), lambda a: _to_f32_words(a, True), "narrow"),
}
for _op, _f in CMP.items():
    OPS[_op] = (binary_inputs, (lambda f: lambda a, b: _mask(f(a, b)))(_f), "cmp")

WIDENING = ("F2U64", "F2I64", "U2I64", "I2I64")


# ---------------------------------------------------------------------------
# The GL side: real TGSI, lowered per variant, drawn over the grid
# ---------------------------------------------------------------------------


def tgsi_for(op: str) -> str:
    """FRAG: texel (x, y) of SVIEW[0] / SVIEW[1] are the sources; the opcode's register out."""
    nsrc = 2 if OPS[op][0] in (binary_inputs, shift_inputs) else 1
    lines = [
        "FRAG",
        "DCL IN[0], POSITION, LINEAR",
        "DCL OUT[0], COLOR",
        "DCL SVIEW[0], 2D, UINT",
        "DCL SVIEW[1], 2D, UINT",
        "DCL TEMP[0..3]",
        "IMM[0] UINT32 {0, 0, 0, 0}",
        "IMM[1] UINT32 {" + ", ".join(f"0x{int(w):08x}" for w in SENTINEL) + "}",
        "F2U TEMP[0].xy, IN[0].xyyy",
        "MOV TEMP[0].zw, IMM[0].xxxx",
        "SAMPLE_I TEMP[1], TEMP[0], SVIEW[0]",
        "SAMPLE_I TEMP[2], TEMP[0], SVIEW[1]",
        "MOV TEMP[3], IMM[1]",
    ]
    srcs = ", ".join(f"TEMP[{1 + j}]" for j in range(nsrc))
    mask = {"wide": "", "cmp": ".xz", "narrow": ".xy"}[OPS[op][2]]
    lines += [f"{op} TEMP[3]{mask}, {srcs}", "MOV OUT[0], TEMP[3]", "END"]
    return "\n".join(lines) + "\n"


def _extensions(gl, variant):
    if variant == "gl33":
        return 330, frozenset()
    exts = frozenset(gl.ctx.extensions)
    if variant == "native-soft":
        exts = exts - {"GL_ARB_gpu_shader_int64"}
    return 450, exts


def run_grid(gl, text: str, variant: str, tex0: np.ndarray, tex1: np.ndarray):
    """Lower ``text`` for ``variant`` and draw it over the W x HGT grid; returns ((N/2, 4) words, source)."""
    version, exts = _extensions(gl, variant)
    shader = gl.lower(text, version, extensions=exts)
    refl = shader.reflection
    ctx = gl.ctx
    with ctx:
        prog = ctx.program(vertex_shader=H.FULL_SCREEN_VS.format(version=version), fragment_shader=shader.source)
        texs = [
            ctx.texture((W, HGT), 4, np.ascontiguousarray(t, dtype=U32).tobytes(), dtype="u4") for t in (tex0, tex1)
        ]
        target = ctx.texture((W, HGT), 4, dtype="u4")
        fbo = ctx.framebuffer(color_attachments=[target])
        vao = ctx.vertex_array(prog, [])
        keep = []
        try:
            for view, tex in enumerate(texs):
                tex.filter = (gl.moderngl.NEAREST, gl.moderngl.NEAREST)
                tex.use(refl.texture_unit(view))
            keep = gl._bind_resources(prog, refl, {}, {}, (W, HGT))
            fbo.use()
            fbo.viewport = (0, 0, W, HGT)
            vao.render(gl.moderngl.TRIANGLES, vertices=3)
            out = np.frombuffer(fbo.read(components=4, dtype="u4"), dtype=U32).reshape(-1, 4).copy()
        finally:
            for obj in keep + [vao, fbo, prog, target] + texs:
                obj.release()
    return out, shader.source


def _lanes_to_words(cols):
    """Per-case uint64 columns -> one (N/2, 4) texel array each: lane 0 in .xy, lane 1 in .zw."""
    return [np.ascontiguousarray(c, dtype=U64).view(U32).reshape(-1, 4) for c in cols]


def case_texels(op):
    gen, _, _ = OPS[op]
    cols = gen(op)
    if op in WIDENING:
        # 32-bit source: lane k reads src.x (lane 0) / src.y (lane 1)
        w = cols[0].astype(U32).reshape(-1, 2)
        return cols, [np.concatenate([w, np.zeros_like(w)], 1), np.zeros((N // 2, 4), U32)]
    if gen is shift_inputs:
        c = cols[1].astype(U32).reshape(-1, 2)
        return cols, [_lanes_to_words([cols[0]])[0], np.concatenate([c, ~c], 1)]  # .zw: decoys
    texels = _lanes_to_words(cols)
    if len(texels) == 1:
        texels.append(np.zeros((N // 2, 4), U32))
    return cols, texels


def expected_words(op, cols):
    _, ref, kind = OPS[op]
    lanes = ref(*cols)
    out = np.tile(SENTINEL, (N // 2, 1)).astype(U32)
    if kind == "wide":
        return np.ascontiguousarray(lanes, dtype=U64).view(U32).reshape(-1, 4)
    w = np.asarray(lanes, dtype=U64).astype(U32).reshape(-1, 2)
    if kind == "cmp":
        out[:, 0], out[:, 2] = w[:, 0], w[:, 1]
    else:
        out[:, 0], out[:, 1] = w[:, 0], w[:, 1]
    return out


def _first_mismatch(op, cols, got, exp):
    bad = np.nonzero((got != exp).any(1))[0]
    k = int(bad[0])
    lane_vals = [hex(int(c[2 * k])) + "/" + hex(int(c[2 * k + 1])) for c in cols]
    return (
        f"{op}: {len(bad)} of {len(got)} texels differ; first at texel {k}: sources (lane0/lane1) "
        f"{lane_vals}: got {[hex(int(x)) for x in got[k]]}, expected {[hex(int(x)) for x in exp[k]]}"
    )


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("op", sorted(OPS))
def test_int64_opcode_bit_exact(gl, op, variant):
    """2^18 cases of ``op`` (edge classes crossed, then random) equal numpy's words."""
    if variant != "gl33" and "GL_ARB_gpu_shader_int64" not in gl.ctx.extensions:
        pytest.skip("host without GL_ARB_gpu_shader_int64: no native int64_t to compare with")
    cols, texels = case_texels(op)
    got, source = run_grid(gl, tgsi_for(op), variant, *texels)
    if variant == "native":
        assert "int64" in source, "the native variant must keep int64_t"
    else:
        assert "int64_t" not in source and "packUint2x32" not in source, (
            f"{variant}: the soft path must not use 64-bit types"
        )
    exp = expected_words(op, cols)
    assert np.array_equal(got, exp), _first_mismatch(op, cols, got, exp)


def test_reference_rounding_agrees_with_c_cast():
    """The float reference (integer RNE) agrees with C's correctly rounded (float)uint64 cast
    on values where a float64 detour would double-round."""
    x = np.array(
        [(1 << 60) + (1 << 36) + 1, (1 << 60) + (1 << 36), (1 << 60) + (3 << 36), (1 << 40) + (1 << 16) - 1, M64],
        dtype=U64,
    )
    ours = _to_f32_words(x, False).astype(U32).view(np.float32)
    assert list(ours.astype(np.float64)) == [2.0**60 + 2.0**37, 2.0**60, 2.0**60 + 2.0**38, 2.0**40, 2.0**64]


# ---------------------------------------------------------------------------
# Source modifiers: TGSI's -x / |x| on a 64-bit integer operand are two's-complement
# negate / signed abs (tgsi.rst), on registers and folded on immediates.
# ---------------------------------------------------------------------------

version = H.version_fixture()

MOD_VALUES = [0, 1, M64, 1 << 63, (1 << 63) - 1, 0xFFFFFFFF, 0x100000000, 0xFFFFFFFF00000000, 0x123456789ABCDEF0, 5]


def _neg(v):
    return U64(0) - v


def _abs(v):
    return np.where(_s(v) < 0, U64(0) - v, v)


@pytest.mark.parametrize(
    "op,ref",
    [
        ("U64ADD", lambda a, b: _neg(a) + _abs(b)),
        ("I64MIN", lambda a, b: np.minimum(_s(_neg(a)), _s(_abs(b))).view(U64)),
        ("U64MUL", lambda a, b: _neg(a) * _abs(b)),
    ],
)
def test_int64_source_modifiers(gl, version, op, ref):
    a = np.array(MOD_VALUES, dtype=U64)
    b = np.array(MOD_VALUES[::-1], dtype=U64)
    srcs = [a.view(U32).reshape(-1, 4), b.view(U32).reshape(-1, 4)]
    exp = np.ascontiguousarray(ref(a, b), dtype=U64).view(U32).reshape(-1, 4)
    H.run_check(gl, op, srcs, version, operands=["-SRC0", "|SRC1|"], expected=exp)


def test_int64_immediate_modifiers(gl, version):
    """-IMM / |IMM| on 64-bit immediates fold at lowering time to the same words."""
    imm = "IMM[2] UINT64 {9223372036854775808, 18446744073709551611}"  # INT64_MIN, -5
    a = np.array([7, 0xFFFFFFFF], dtype=U64)
    # lane 0: -INT64_MIN + |-5| = 2^63 + 5 (negate wraps); lane 1: |INT64_MIN| + 0xffffffff
    exp = np.array([(1 << 63) + 5, (1 << 63) + 0xFFFFFFFF], dtype=U64)
    body = "U64ADD DST.xy, -IMM[2].xyxy, |IMM[2].zwzw|\nU64ADD DST.zw, |IMM[2].xyxy|, SRC0.zwzw"
    H.run_check(
        gl, "U64ADD", [a.view(U32).reshape(-1, 4)], version, body=body, decls=imm, expected=exp.view(U32).reshape(-1, 4)
    )


@pytest.mark.parametrize("variant", ["gl33", "native-soft"])
def test_umul_hi_and_soft_u64mul_share_one_helper(gl, variant):
    """UMUL_HI and a soft U64MUL in one shader: one ``glp_umul_hi`` definition (the
    umulExtended wrapper where GLSL 4.00 has it, the 16-bit partial products below),
    and both results right."""
    text = "\n".join(
        [
            "FRAG",
            "DCL IN[0], POSITION, LINEAR",
            "DCL OUT[0], COLOR",
            "DCL SVIEW[0], 2D, UINT",
            "DCL SVIEW[1], 2D, UINT",
            "DCL TEMP[0..3]",
            "IMM[0] UINT32 {0, 0, 0, 0}",
            "F2U TEMP[0].xy, IN[0].xyyy",
            "MOV TEMP[0].zw, IMM[0].xxxx",
            "SAMPLE_I TEMP[1], TEMP[0], SVIEW[0]",
            "SAMPLE_I TEMP[2], TEMP[0], SVIEW[1]",
            "U64MUL TEMP[3].xy, TEMP[1].xyxy, TEMP[2].xyxy",
            "UMUL_HI TEMP[3].z, TEMP[1].zzzz, TEMP[2].zzzz",  # scalar: same signature as the
            "UMUL_HI TEMP[3].w, TEMP[1].wwww, TEMP[2].wwww",  # helper U64MUL calls
            "MOV OUT[0], TEMP[3]",
            "END",
            "",
        ]
    )
    a, b = _random64(_rng("umul"), N), _random64(_rng("umul2"), N)
    ta, tb = (c.view(U32).reshape(-1, 4) for c in (a, b))
    got, source = run_grid(gl, text, variant, ta, tb)
    assert source.count(" glp_umul_hi(uint a, uint b)") == 1, source
    lanes = _lanes_to_words([a * b])[0]  # lane 0 of each texel: .xy
    hi = (ta[:, 2:].astype(U64) * tb[:, 2:].astype(U64)) >> U64(32)
    assert np.array_equal(got[:, :2], lanes[:, :2])
    assert np.array_equal(got[:, 2:], hi.astype(U32))


def test_every_int64_opcode_has_a_soft_row_and_a_grid_test():
    """Each opcode of the int64 group (lowering/opcodes.py) has a SOFT_INT64 row unless it
    has a double side (those need doubles too: soft fp64's), and every row is in OPS above."""
    from lowering.glsl.soft_int64 import SOFT_INT64
    from lowering.glsl.wide import WIDE_FORMULAS
    from lowering.opcodes import OPCODES

    group = {n for n, o in OPCODES.items() if o.group == "int64"}
    assert group - set(SOFT_INT64) == set(H.INT64_DOUBLE_OPS)
    assert set(SOFT_INT64) <= set(WIDE_FORMULAS)  # a native formula for each row
    assert set(OPS) == set(SOFT_INT64)


@pytest.mark.parametrize("op", ["F2U64", "F2I64"])
def test_out_of_range_float_conversions_agree_with_native(gl, op):
    """tgsi.rst leaves F2U64 / F2I64 of NaN and out-of-range floats undefined; the soft
    helpers give what llvmpipe's native conversion gives (x86 semantics: all ones for
    F2U64, INT64_MIN for F2I64), so a shader draws the same bytes on both profiles."""
    if "GL_ARB_gpu_shader_int64" not in gl.ctx.extensions:
        pytest.skip("host without GL_ARB_gpu_shader_int64: no native int64_t to compare with")
    special = [np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0**64, -(2.0**64), 2.0**63, -(2.0**63), -5.0, -1.0, -0.5, 3.0]
    words = np.resize(_f32(special).view(U32), N)
    texels = [np.concatenate([words.reshape(-1, 2), np.zeros((N // 2, 2), U32)], 1), np.zeros((N // 2, 4), U32)]
    native, _ = run_grid(gl, tgsi_for(op), "native", *texels)
    soft, _ = run_grid(gl, tgsi_for(op), "gl33", *texels)
    assert np.array_equal(native, soft), _first_mismatch(op, [words.astype(U64)], soft, native)
    # The rule, for the cases that are out of range whatever the sign convention:
    lane0 = soft[: len(special) // 2, :2]
    f = _f32(special)[0 : len(special) // 2 * 2 : 2]
    for value, got in zip(f, lane0, strict=True):
        if np.isnan(value) or abs(value) >= 2.0**64:
            want = [0xFFFFFFFF, 0xFFFFFFFF] if op == "F2U64" else [0, 0x80000000]
            assert [int(x) for x in got] == want, (value, got)
