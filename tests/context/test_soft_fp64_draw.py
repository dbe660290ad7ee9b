"""Real double-precision TGSI drawn on the gl33 profile gives native's bytes.

The shaders are Mesa's own TGSI from the lowering corpus
(``tests/lowering/corpus/tgsi``): a virgl fragment shader full of DADD /
DMUL / DMAD / DFRAC / DSEQ / DSNE / DSLT / DSGE / F2D / D2F, and the GL
frontend's vertex shader of conversions (F2D, I2D, U2D, D2F, D2I, D2U, DABS,
DMUL, DSNE).  The gl33 profile has no GLSL 4.00 doubles, so it runs them on
``uvec2`` words through lowering/glsl/soft_fp64.py; the native profile runs
real doubles.  Each case is drawn through the pipe on both screens and the
render targets must be equal bit for bit (RGBA32F keeps the words; the VS's
integer results travel as float bits through flat varyings).  A double
varying (VS DADD / DMUL, FS DMUL / DSLT on the flat words) is checked the
same way, and against numpy.

The inputs stay in the normal range: llvmpipe's native doubles flush
subnormals to zero (DAZ / FTZ), where the soft doubles follow IEEE.

Shaders with DDIV / DRCP / DSQRT / DRSQ / DFMA run the same comparison once
those opcodes have a soft form (``WIDE_OPS[...].soft``); until then the gl33
profile must refuse them with an UnsupportedError naming the opcode.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import get_screen

from glpipe import ConstantBuffer, DrawInfo, Format, Prim, ShaderType, VertexBuffer, VertexElement
from lowering.errors import UnsupportedError
from lowering.glsl.wide import WIDE_OPS

from .util import vertex_buffer
from .util_draw import read_rgba32f, setup
from .util_sampling import Sampling

CORPUS = Path(__file__).resolve().parents[1] / "lowering" / "corpus" / "tgsi"

# FS: (corpus file, double constants of CONST[0], GENERIC[0] at the two corners)
FS_CASES = {
    "virgl_fp64_rounding.frag": (
        [10.25, -3.5, 1e3, 0.1, 7.75, -1234.5678, 2.0**40, 1.0 / 3.0],
        (-3.7, 0.25, 11.5, -100.0),
        (5.3, 9.75, -2.5, 250.0),
    ),
    "fp64_arith.frag": (
        [1.5, -2.25, 1e5, 0.3, 7.0, -0.125, 3.0, 1e-3, 2.5, 0.0],
        (-2.0, 0.5, 3.0, -4.0),
        (6.0, 8.5, -1.0, 12.0),
    ),
    "virgl_fp64.frag": ([1.5, -2.25, 1e5, 0.3, 7.0, -0.125], (0.5, 1.0, 2.0, 4.0), (8.0, 3.0, -2.0, 1.0)),
}
SIZE = 8


def _soft_missing(tokens: str):
    """The double opcodes of ``tokens`` that have no soft form yet (sorted)."""
    ops = set(re.findall(r"^\s*\d+:\s+([A-Z0-9_]+)", tokens, re.M))
    return sorted(
        op for op in ops if op in WIDE_OPS and op.startswith(("D", "F2D", "I2D", "U2D")) and WIDE_OPS[op].soft is None
    )


def _too_costly_on_gl33(tokens: str) -> bool:
    """Whether the gl33 profile's budget for emulated opcodes refuses ``tokens``."""
    from lowering import parse
    from lowering.limits_emulated import emulated_features, weighted_size

    return weighted_size(parse(tokens), emulated_features(330))[0] > 2048


def _draw_fs(profile: str, name: str):
    tokens = (CORPUS / f"{name}.tgsi").read_text()
    consts, lo, hi = FS_CASES[name]
    screen = get_screen(profile)
    ctx = screen.context_create()
    try:
        S = Sampling(ctx, SIZE, SIZE)
        ctx.set_constant_buffer(
            ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array(consts, np.float64).view(np.uint32))
        )
        return S.draw(tokens, lo, hi).view(np.uint32).copy()
    finally:
        ctx.destroy()


@pytest.mark.parametrize("name", sorted(FS_CASES))
def test_corpus_double_fs_gl33_matches_native(name):
    tokens = (CORPUS / f"{name}.tgsi").read_text()
    missing = _soft_missing(tokens)
    native = _draw_fs("native", name)
    if missing:
        # Not emulated yet: the gl33 profile says so, naming one of them.
        with pytest.raises(UnsupportedError, match="|".join(missing)):
            _draw_fs("gl33", name)
        return
    if _too_costly_on_gl33(tokens):
        # Past the weighted budget of emulated opcodes (lowering/limits_emulated.py): the
        # host would compile it for minutes (fp64_arith.frag: 474 s), so create refuses it.
        with pytest.raises(UnsupportedError, match="emulated double operations.*MAX_INSTRUCTIONS"):
            _draw_fs("gl33", name)
        return
    emulated = _draw_fs("gl33", name)
    f = native.view(np.float32)
    assert np.isfinite(f).all() and len(np.unique(native)) > SIZE, "the shader computed nothing input-dependent"
    diff = np.argwhere(emulated != native)
    assert not len(diff), (
        f"{len(diff)} words differ, first at {diff[0].tolist()}: "
        f"native {native[tuple(diff[0])]:#010x} gl33 {emulated[tuple(diff[0])]:#010x}"
    )


# ---------------------------------------------------------------------------
# The vertex shader of conversions, drawn as one point per pixel
# ---------------------------------------------------------------------------

VS = (CORPUS / "fp64_conversions.vert.tgsi").read_text()
N = SIZE * SIZE


def _fs_reading(k: int) -> str:
    """An FS writing GENERIC[k] (flat: the words arrive untouched) to COLOR[0]."""
    return f"FRAG\nDCL IN[0], GENERIC[{k}], CONSTANT\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"


def _vs_inputs() -> np.ndarray:
    """Per point: IN[0] position (the VS scales it by a positive value, so the point
    stays on its pixel), IN[1] ints, IN[2] uints; 12 words a vertex.  IN[1].xy and
    IN[2].xy are also read as the words of a double: the high words keep it normal."""
    rng = np.random.default_rng(18)
    v = np.arange(N)
    rows = np.zeros((N, 12), np.uint32)
    pos = np.zeros((N, 4), np.float32)
    pos[:, 0] = 2.0 * (v % SIZE + 0.5) / SIZE - 1.0
    pos[:, 1] = 2.0 * (v // SIZE + 0.5) / SIZE - 1.0
    pos[:, 3] = 1.0
    rows[:, 0:4] = pos.view(np.uint32)
    ints = rng.integers(-1000, 1000, (N, 4)).astype(np.int32)
    ints[:, 1] = rng.integers(0x3F000000, 0x41000000, N)  # high word of a normal double
    rows[:, 4:8] = ints.view(np.uint32)
    uints = rng.integers(0, 2**32, (N, 4), dtype=np.uint64).astype(np.uint32)
    uints[:, 1] = rng.integers(0x40000000, 0x41000000, N)
    rows[:, 8:12] = uints
    return rows


def _draw_vs(profile: str, k: int) -> np.ndarray:
    screen = get_screen(profile)
    ctx = screen.context_create()
    try:
        elements = [
            VertexElement(src_offset=16 * j, vertex_buffer_index=0, src_format=fmt)
            for j, fmt in enumerate((Format.R32G32B32A32_FLOAT, Format.R32G32B32A32_SINT, Format.R32G32B32A32_UINT))
        ]
        color = setup(ctx, vs=VS, fs=_fs_reading(k), elements=elements, size=SIZE)
        # CONST[0][0].xy is added, [1].xy converted with D2I and multiplied, [1].zw converted with D2F / D2U
        consts = np.array([1000.5, 0.0, -123456.75, 98765.25], np.float64)
        ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=consts.view(np.uint32)))
        ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, _vs_inputs()), stride=48)])
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=N))
        return read_rgba32f(screen, color).view(np.uint32).copy()
    finally:
        ctx.destroy()


@pytest.mark.parametrize("k", [0, 1, 2])
def test_corpus_double_vs_gl33_matches_native(k):
    """GENERIC[k] of fp64_conversions.vert at every point: gl33 == native, bit for bit."""
    native = _draw_vs("native", k)
    emulated = _draw_vs("gl33", k)
    assert (native != 0).any(axis=2).sum() > N // 2, "the points did not land on their pixels"
    diff = np.argwhere(emulated != native)
    assert not len(diff), (
        f"{len(diff)} words differ, first at {diff[0].tolist()}: "
        f"native {native[tuple(diff[0])]:#010x} gl33 {emulated[tuple(diff[0])]:#010x}"
    )


# ---------------------------------------------------------------------------
# A double varying: written by the VS, read by the FS (flat), words untouched
# ---------------------------------------------------------------------------

VARYING_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0]
DCL TEMP[0]
  0: F2D TEMP[0].xy, IN[1].xxxx
  1: F2D TEMP[0].zw, IN[1].yyyy
  2: DADD TEMP[0].xy, TEMP[0].xyxy, CONST[0][0].xyxy
  3: DMUL TEMP[0].zw, TEMP[0].zwzw, CONST[0][0].zwzw
  4: MOV OUT[0], IN[0]
  5: MOV OUT[1], TEMP[0]
  6: END
"""

VARYING_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0..1]
  0: DMUL TEMP[0].xy, IN[0].xyxy, IN[0].zwzw
  1: DSLT TEMP[1].x, IN[0].zwzw, IN[0].xyxy
  2: D2F OUT[0].x, TEMP[0].xyxy
  3: MOV OUT[0].y, TEMP[1].xxxx
  4: MOV OUT[0].zw, IN[0].xxxy
  5: END
"""


def _draw_varying(profile: str) -> np.ndarray:
    from .util_draw import point_grid_vertices

    screen = get_screen(profile)
    ctx = screen.context_create()
    try:
        color = setup(ctx, vs=VARYING_VS, fs=VARYING_FS, size=SIZE)
        ctx.set_constant_buffer(
            ShaderType.VERTEX,
            0,
            ConstantBuffer(user_buffer=np.array([1.0 / 3.0, 1e10 + 0.5], np.float64).view(np.uint32)),
        )
        ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, point_grid_vertices(N, SIZE)), stride=32)])
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=N))
        return read_rgba32f(screen, color).view(np.uint32).copy()
    finally:
        ctx.destroy()


def test_double_varying_gl33_matches_native():
    """A double computed in the VS travels to the FS in two flat words per lane and is
    computed on there: gl33's bytes equal native's, and the words the FS got (the low
    and high word of lane 0, in .zw) are the double numpy computes from the VS inputs."""
    native = _draw_varying("native")
    emulated = _draw_varying("gl33")
    assert (emulated == native).all(), np.argwhere(emulated != native)[:4].tolist()
    v = np.arange(N)
    want = ((v + 1) / 1024.0).astype(np.float32).astype(np.float64) + 1.0 / 3.0  # lane 0: DADD
    got = native[v // SIZE, v % SIZE, 2:4].copy().view(np.float64).ravel()
    assert np.array_equal(got, want)
