"""Execution tests: NaN, infinity, -0.0 and denormals through _PRECISE computations, gl33 = native.

GLSL 4.00's ``precise`` (what ``_PRECISE`` lowers to on the native profile)
forbids the value-changing rewrites a GLSL compiler otherwise applies --
``x - x`` to 0, ``(a - b) + b`` to ``a``, ``max(x, x)`` to ``x``,
``(x + 1) - 1`` to ``x`` -- and, by the GLSL rule Mesa implements in
``propagate_invariance``, makes every computation that feeds a precise
variable precise too.  The gl33 profile (GLSL 330) has no ``precise``; its
shaders must still give the native answer, bit for bit, or be refused with
``UnsupportedError`` naming the opcode.

Two kinds of check:

* ``test_gl33_matches_native``: every case runs at GLSL 450 (native) and 330
  (gl33) on the same inputs (NaN, -NaN, +-inf, +-0, +-denormal, ordinary and
  huge values, pairwise, then seeded random values) and the words must be
  equal (any NaN equals any NaN for float results; integer results exactly).
  Non-_PRECISE twins of some cases run too: there the host may fold, but it
  must fold the same way on both profiles.
* ``test_ieee_result``: where IEEE 754 fixes the answer (``x - x`` is NaN for
  NaN and infinity, ``isnan`` chains, ordered compares), numpy float32
  arithmetic gives the expected words for both profiles.
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

F32 = np.float32
NAN, NNAN, INF, NINF = 0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000
DENORM, NDENORM = 0x000116C2, 0x800116C2  # +-1e-40
SPECIAL = [
    NAN,
    NNAN,
    INF,
    NINF,
    0x00000000,
    0x80000000,
    DENORM,
    NDENORM,
    0x3FC00000,
    0xC0200000,
    0x7E967699,
    0x3F800000,
]  # 1.5, -2.5, 1e38, 1.0

IMM = "IMM[2] FLT32 {0.0, 1.0, -0.0, 2.0}\nIMM[3] UINT32 {0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000}"

# (id, TGSI body, number of sources, result kind: "f" float words, "u" ~0/0 words)
CASES = [
    ("sub_self", "SUB{p} DST, SRC0, SRC0", 1, "f"),
    ("add_neg_self", "ADD{p} DST, SRC0, -SRC0", 1, "f"),
    ("max_self", "MAX{p} DST, SRC0, SRC0", 1, "f"),
    ("min_self", "MIN{p} DST, SRC0, SRC0", 1, "f"),
    ("div_self", "DIV{p} DST, SRC0, SRC0", 1, "f"),
    ("add_sub_one", "ADD{p} TEMP[3], SRC0, IMM[2].yyyy\nSUB{p} DST, TEMP[3], IMM[2].yyyy", 2, "f"),
    ("sub_add_back", "SUB{p} TEMP[3], SRC0, SRC1\nADD{p} DST, TEMP[3], SRC1", 2, "f"),
    ("mul_div_back", "MUL{p} TEMP[3], SRC0, SRC1\nDIV{p} DST, TEMP[3], SRC1", 2, "f"),
    ("mad", "MAD{p} DST, SRC0, SRC1, SRC2", 3, "f"),
    ("mad_cancel", "MAD{p} DST, SRC0, SRC1, -SRC0", 2, "f"),
    ("lrp_same_ends", "LRP{p} DST, SRC0, SRC1, SRC1", 2, "f"),
    ("lrp", "LRP{p} DST, SRC0, SRC1, SRC2", 3, "f"),
    ("frc", "FRC{p} DST, SRC0", 1, "f"),
    ("flr_sub", "FLR{p} TEMP[3], SRC0\nSUB{p} DST, SRC0, TEMP[3]", 1, "f"),
    ("dp3", "DP3{p} DST, SRC0, SRC1", 2, "f"),
    ("dp4", "DP4{p} DST, SRC0, SRC1", 2, "f"),
    ("dp2a", "DP2A{p} DST, SRC0, SRC1, SRC2", 3, "f"),
    ("dph", "DPH{p} DST, SRC0, SRC1", 2, "f"),
    ("cmp", "CMP{p} DST, SRC0, SRC1, SRC2", 3, "f"),
    ("ssg", "SSG{p} DST, SRC0", 1, "f"),
    ("seq_self", "SEQ{p} DST, SRC0, SRC0", 1, "f"),
    ("sne", "SNE{p} DST, SRC0, SRC1", 2, "f"),
    ("slt_sge_sum", "SLT{p} TEMP[3], SRC0, SRC1\nSGE{p} TEMP[4], SRC0, SRC1\nADD{p} DST, TEMP[3], TEMP[4]", 2, "f"),
    ("fseq_self", "FSEQ{p} DST, SRC0, SRC0", 1, "u"),
    ("fsne_self", "FSNE{p} DST, SRC0, SRC0", 1, "u"),
    ("fslt_self", "FSLT{p} DST, SRC0, SRC0", 1, "u"),
    ("fsge_self", "FSGE{p} DST, SRC0, SRC0", 1, "u"),
    ("isinf", "FSEQ{p} DST, |SRC0|, IMM[3].xxxx", 1, "u"),
    ("ordered_chain", "FSLT{p} TEMP[3], SRC0, SRC1\nFSGE{p} TEMP[4], SRC0, SRC1\nOR DST, TEMP[3], TEMP[4]", 2, "u"),
    ("isnan_sum", "ADD{p} TEMP[3], SRC0, -SRC0\nFSNE DST, TEMP[3], TEMP[3]", 1, "u"),
    ("rcp", "RCP{p} DST, SRC0", 1, "f"),
    ("rsq", "RSQ{p} DST, SRC0", 1, "f"),
    ("sqrt", "SQRT{p} DST, SRC0", 1, "f"),
    ("ex2", "EX2{p} DST, SRC0", 1, "f"),
    ("lg2", "LG2{p} DST, SRC0", 1, "f"),
    ("pow", "POW{p} DST, SRC0, SRC1", 2, "f"),
    ("div", "DIV{p} DST, SRC0, SRC1", 2, "f"),
    ("ceil", "CEIL{p} DST, SRC0", 1, "f"),
    ("trunc", "TRUNC{p} DST, SRC0", 1, "f"),
    ("round", "ROUND{p} DST, SRC0", 1, "f"),
    ("abs_neg", "MOV{p} DST, -|SRC0|", 1, "f"),
    ("xpd", "XPD{p} DST, SRC0, SRC1", 2, "f"),
    ("nrm", "NRM{p} DST, SRC0", 1, "f"),
    ("lit", "LIT{p} DST, SRC0", 1, "f"),
    ("dst", "DST{p} DST, SRC0, SRC1", 2, "f"),
    ("sin", "SIN{p} DST, SRC0", 1, "f"),
    ("cos", "COS{p} DST, SRC0", 1, "f"),
    ("f2i", "F2I{p} DST, SRC0", 1, "u"),
    ("f2u_add", "ADD{p} TEMP[3], SRC0, SRC0\nF2U DST, TEMP[3]", 1, "u"),
    ("i2f", "I2F{p} DST, SRC0", 1, "f"),
    ("ucmp", "UCMP{p} DST, SRC0, SRC1, SRC2", 3, "f"),
    ("sat", "ADD_SAT{p} DST, SRC0, SRC1", 2, "f"),
    (
        "if_chain",
        "SUB{p} TEMP[3], SRC0, SRC0\nIF TEMP[3].xxxx\nMOV DST, IMM[2].yyyy\nELSE\nMOV DST, IMM[2].wwww\nENDIF",
        1,
        "f",
    ),
    # A non-_PRECISE instruction whose value feeds a _PRECISE one is precise too
    # (GLSL 4.00 4.7 "precise"; Mesa's propagate_invariance).
    ("feeds_precise", "SUB TEMP[3], SRC0, SRC0\nMUL{p} DST, TEMP[3], IMM[2].yyyy", 1, "f"),
    # Every writer of a TEMP that a _PRECISE instruction writes (one GLSL variable,
    # declared precise) is precise too.
    ("precise_web_other_writer", "SUB{p} TEMP[3], SRC0, SRC1\nSUB TEMP[3].x, SRC0, SRC0\nMOV DST, TEMP[3]", 2, "f"),
    (
        "feeds_precise_twice",
        "ADD TEMP[4], SRC0, IMM[2].yyyy\nSUB TEMP[3], TEMP[4], IMM[2].yyyy\nMOV{p} DST, TEMP[3]",
        2,
        "f",
    ),
]


def _inputs(nsrc: int, seed: str):
    """Pairwise specials, then seeded random ordinary values (four cases per register)."""
    a = [x for x in SPECIAL for _ in SPECIAL]
    b = [y for _ in SPECIAL for y in SPECIAL]
    c = [SPECIAL[(i * 5 + 1) % len(SPECIAL)] for i in range(len(a))]
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    rnd = rng.uniform(-4.0, 4.0, (3, 64)).astype(F32).view(np.uint32)
    cols = [a + [int(v) for v in rnd[0]], b + [int(v) for v in rnd[1]], c + [int(v) for v in rnd[2]]]
    return H.columns(*cols[:nsrc], dtype="u32")


def _same(kind: str, got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Per channel: equal words (float results: or both NaN)."""
    eq = got == want
    if kind == "f":
        eq |= np.isnan(got.view(F32)) & np.isnan(want.view(F32))
    return eq


def _run(gl, body, nsrc, srcs, glsl_version):
    prog = H.OpProgram("PRECISE", nsrc, body=body, decls=IMM)
    return gl.run_op(prog, srcs, glsl_version)


def _report(srcs, got, want, bad, what):
    lines = [f"{int(bad.any(axis=1).sum())} cases differ ({what})"]
    for i, j in np.argwhere(bad)[:10]:
        lines.append(
            "  srcs "
            + " ".join(f"0x{int(s[i, j]):08x}" for s in srcs)
            + f": gl33 0x{int(got[i, j]):08x}, expected 0x{int(want[i, j]):08x}"
        )
    return "\n".join(lines)


# Every case with and without _PRECISE, but the precise-propagation cases
# (no {p} in the body) only as written.
_MATCH_CASES = [(case, precise) for case in CASES for precise in ("_PRECISE", "") if precise or "{p}" in case[1]]


@pytest.mark.parametrize(
    "case,precise", _MATCH_CASES, ids=[f"{c[0]}-{'precise' if p else 'plain'}" for c, p in _MATCH_CASES]
)
def test_gl33_matches_native(gl, case, precise):
    """The gl33 lowering returns the native profile's words for every input."""
    name, body, nsrc, kind = case
    body = body.format(p=precise)
    srcs = _inputs(nsrc, name)
    native = _run(gl, body, nsrc, srcs, 450)
    from lowering.errors import UnsupportedError

    try:
        gl33 = _run(gl, body, nsrc, srcs, 330)
    except UnsupportedError as err:
        # An honest refusal is allowed, if it names the opcode that needs 'precise'.
        opcodes = {ln.split()[0].split("_")[0] for ln in body.split("\n")}
        assert any(op in str(err) for op in opcodes), err
        assert precise, f"a shader without _PRECISE was refused at GLSL 330: {err}"
        return
    bad = ~_same(kind, gl33, native)
    assert not bad.any(), _report(srcs, gl33, native, bad, f"{name}{precise}: GLSL 330 vs 450")


# ---------------------------------------------------------------------------
# IEEE 754 answers (numpy float32), both profiles
# ---------------------------------------------------------------------------


def _f(w):
    return np.ascontiguousarray(w, dtype=np.uint32).view(F32)


def _w(x):
    return np.ascontiguousarray(x, dtype=F32).view(np.uint32)


def _mask(b):
    return np.where(b, np.uint32(0xFFFFFFFF), np.uint32(0))


IEEE = {
    "sub_self": lambda a: _w(_f(a) - _f(a)),
    "add_neg_self": lambda a: _w(_f(a) + -_f(a)),
    "add_sub_one": lambda a, b: _w((_f(a) + F32(1.0)) - F32(1.0)),
    "sub_add_back": lambda a, b: _w((_f(a) - _f(b)) + _f(b)),
    "fseq_self": lambda a: _mask(_f(a) == _f(a)),
    "fsne_self": lambda a: _mask(_f(a) != _f(a)),
    "fslt_self": lambda a: _mask(_f(a) < _f(a)),
    "fsge_self": lambda a: _mask(_f(a) >= _f(a)),
    "isinf": lambda a: _mask(np.abs(_f(a)) == F32(np.inf)),
    "ordered_chain": lambda a, b: _mask((_f(a) < _f(b)) | (_f(a) >= _f(b))),
    "isnan_sum": lambda a: _mask(np.isnan(_f(a) + -_f(a))),
    "feeds_precise": lambda a: _w((_f(a) - _f(a)) * F32(1.0)),
    "precise_web_other_writer": lambda a, b: np.where(np.arange(4) == 0, _w(_f(a) - _f(a)), _w(_f(a) - _f(b))),
    "feeds_precise_twice": lambda a, b: _w((_f(a) + F32(1.0)) - F32(1.0)),
}


@pytest.mark.parametrize("name", sorted(IEEE))
def test_ieee_result(gl, version, name):
    """Where IEEE arithmetic fixes the answer, both profiles give it (denormal
    inputs excluded: GLSL lets the host flush them)."""
    case = next(c for c in CASES if c[0] == name)
    _, body, nsrc, kind = case
    body = body.format(p="_PRECISE")
    srcs = _inputs(nsrc, name)
    got = _run(gl, body, nsrc, srcs, version)
    with np.errstate(all="ignore"):
        want = IEEE[name](*srcs)
    denormal = np.zeros(got.shape, dtype=bool)
    for s in srcs:
        denormal |= ((s & 0x7F800000) == 0) & ((s & 0x007FFFFF) != 0)
    bad = ~_same(kind, got, want) & ~denormal
    assert not bad.any(), _report(srcs, got, want, bad, f"{name}_PRECISE at GLSL {version} vs IEEE")


# ---------------------------------------------------------------------------
# Through glpipe's pipe context (ctx fixture: native and gl33 host profiles)
# ---------------------------------------------------------------------------

_PRECISE_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..0]
DCL TEMP[0..2]
  0: MOV TEMP[0], CONST[0][0]
  1: SUB_PRECISE TEMP[1], TEMP[0], TEMP[0]
  2: FSNE TEMP[2], TEMP[1], TEMP[1]
  3: UCMP OUT[0], TEMP[2], TEMP[1], IMM[0]
  4: END
"""


def test_precise_in_a_pipe_context(ctx):
    """A draw through create_fs_state / draw_vbo on both profiles: ``x - x`` of
    NaN and +-inf is NaN (the isnan test selects it), of 1.5 it is 0 (the test
    selects 7.0) -- so the gl33 program's opaque-identity uniform is zero
    without anyone setting it."""
    tests_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if tests_dir not in sys.path:
        sys.path.insert(0, tests_dir)
    from context.util_sampling import Sampling

    from glpipe import ConstantBuffer, ShaderType

    fs = _PRECISE_FS.replace("DCL TEMP[0..2]\n", "DCL TEMP[0..2]\nIMM[0] FLT32 {7.0, 7.0, 7.0, 7.0}\n")
    data = np.array([[np.nan, np.inf, -np.inf, 1.5]], np.float32)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=data))
    S = Sampling(ctx, 1, 1)
    px = S.draw(fs, (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))[0, 0]
    assert np.isnan(px[:3]).all(), px
    assert px[3] == 7.0, px
