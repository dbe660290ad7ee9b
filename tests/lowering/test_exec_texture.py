"""Execution tests: texture opcodes on textures with known texel data.

RGBA32F (and RGBA32UI) textures hold distinct exactly-representable values;
with NEAREST filtering and coordinates at texel centres every lookup returns
one texel exactly, so expected values are plain numpy indexing of the data
uploaded (rows bottom-up as GL stores them: texel (x, y) = data[y, x]).
Wrap mode REPEAT: u = 1.125 reads column 0 of a 4-wide texture.
TG4 follows GL's gather order: (i0, j1), (i1, j1), (i1, j0), (i0, j0).
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

W = 4
BITS = H.Precision("bits", why="NEAREST lookups return texels unchanged")
TEX2D = "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT"
# texel (x, y) of level 0 = (x + 10y, 100 + x, 200 + y, 1000 + x + 4y); level 1 (2x2) = -(...)
LEVEL0 = np.array(
    [[[x + 10 * y, 100 + x, 200 + y, 1000 + x + 4 * y] for x in range(W)] for y in range(W)], dtype=np.float32
)
LEVEL1 = np.array(
    [[[-(x + 10 * y) - 1, -50.0 - x, -60.0 - y, -70.0] for x in range(2)] for y in range(2)], dtype=np.float32
)


@pytest.fixture(scope="module")
def textures(gl):
    """The module's textures, made on the harness context."""
    import moderngl

    with gl.ctx:
        t2d = gl.ctx.texture((W, W), 4, LEVEL0.tobytes(), dtype="f4")
        t2d.filter = (moderngl.NEAREST, moderngl.NEAREST)
        mip = gl.ctx.texture((W, W), 4, LEVEL0.tobytes(), dtype="f4")
        mip.build_mipmaps(0, 1)
        mip.write(LEVEL1.tobytes(), level=1)
        mip.filter = (moderngl.NEAREST_MIPMAP_NEAREST, moderngl.NEAREST)
        uint_data = (np.arange(W * W * 4, dtype=np.uint64) * 0x01010101 + 0x7F800001).astype(np.uint32)
        tui = gl.ctx.texture((W, W), 4, uint_data.tobytes(), dtype="u4")
        tui.filter = (moderngl.NEAREST, moderngl.NEAREST)
        layers = np.stack([LEVEL0 + 5000 * k for k in range(3)])
        tarr = gl.ctx.texture_array((W, W, 3), 4, layers.astype(np.float32).tobytes(), dtype="f4")
        tarr.filter = (moderngl.NEAREST, moderngl.NEAREST)
        faces = np.array([[[10 * f + c for c in range(4)]] for f in range(6)], dtype=np.float32)
        cube = gl.ctx.texture_cube((1, 1), 4, faces.tobytes(), dtype="f4")
        cube.filter = (moderngl.NEAREST, moderngl.NEAREST)
        depth = np.array([[0.1, 0.3, 0.5, 0.7]] * W, dtype=np.float32)
        tdepth = gl.ctx.depth_texture((W, W), depth.tobytes())
        tdepth.filter = (moderngl.NEAREST, moderngl.NEAREST)
        tdepth.compare_func = "<="
    objs = dict(
        t2d=t2d,
        mip=mip,
        uint=tui,
        uint_data=uint_data.reshape(W, W, 4),
        array=tarr,
        layers=layers,
        cube=cube,
        faces=faces.reshape(6, 4),
        depth=tdepth,
        depth_data=depth,
    )
    yield objs
    with gl.ctx:
        for o in objs.values():
            if hasattr(o, "release"):
                o.release()


def _centres(pairs):
    """Texel (x, y) pairs -> normalized texel-centre coordinates."""
    return np.array([[(x + 0.5) / W, (y + 0.5) / W] for x, y in pairs], dtype=np.float64)


PAIRS = [(0, 0), (3, 0), (1, 2), (3, 3), (2, 1), (0, 3)]


def test_tex_2d_nearest(gl, version, textures):
    uv = np.concatenate([_centres(PAIRS), [[1.125, 0.375], [-0.125, 0.625]]])
    src = R.f32_words(np.concatenate([uv, np.zeros((len(uv), 2))], 1))
    texel = np.array([LEVEL0[int(np.floor(v * W)) % W, int(np.floor(u * W)) % W] for u, v in uv])
    H.run_check(
        gl,
        "TEX",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["t2d"]},
    )


def test_txp_divides_by_w(gl, version, textures):
    uv = _centres(PAIRS)
    w = np.array([2.0, 0.5, 4.0, 1.0, 0.25, 8.0])
    src = R.f32_words(np.stack([uv[:, 0] * w, uv[:, 1] * w, np.zeros(len(w)), w], 1))
    texel = np.array([LEVEL0[y, x] for x, y in PAIRS])
    H.run_check(
        gl,
        "TXP",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["t2d"]},
    )


def test_txl_explicit_lod(gl, version, textures):
    uv = _centres(PAIRS)
    lod = np.array([0, 1, 0, 1, 1, 0], dtype=np.float64)
    src = R.f32_words(np.stack([uv[:, 0], uv[:, 1], np.zeros(len(lod)), lod], 1))
    texel = np.array(
        [LEVEL0[y, x] if lod == 0 else LEVEL1[y // 2, x // 2] for (x, y), lod in zip(PAIRS, lod, strict=True)]
    )
    H.run_check(
        gl,
        "TXL",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["mip"]},
    )


def test_txf_fetch_with_lod(gl, version, textures):
    cases = [(0, 0, 0), (3, 2, 0), (1, 1, 1), (0, 1, 1), (2, 3, 0), (1, 0, 1)]
    src = R.words([[x, y, 0, lod] for x, y, lod in cases])
    texel = np.array([LEVEL0[y, x] if lod == 0 else LEVEL1[y, x] for x, y, lod in cases])
    H.run_check(
        gl,
        "TXF",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["mip"]},
    )


def test_txf_uint_texture_raw_bits(gl, version, textures):
    """An SVIEW declared UINT returns the stored words untouched (NaN patterns included)."""
    cases = [(0, 0), (3, 2), (1, 1), (2, 3)]
    src = R.words([[x, y, 0, 0] for x, y in cases])
    exp = np.array([textures["uint_data"][y, x] for x, y in cases], dtype=np.uint32)
    H.run_check(
        gl,
        "TXF",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls="DCL SAMP[0]\nDCL SVIEW[0], 2D, UINT",
        expected=exp,
        rule=BITS,
        textures={0: textures["uint"]},
    )


@pytest.mark.parametrize("mask", ["xy", "w"])
def test_txq_size_and_levels(gl, version, textures, mask):
    """TXQ: (width, height) of mip src0.x; .w = number of levels (textureQueryLevels, GLSL 430;
    at GLSL 330 the view's count from the sysvals block, which the harness fills as glpipe does).

    One draw per case (index_mode="draw"): llvmpipe (Mesa 22.3) evaluates
    textureSize() with the lod of one SIMD lane for the whole vector, so a
    batch with different lods per pixel would test the host, not the lowering.
    """
    src = R.words([[0, 9, 9, 9], [1, 9, 9, 9], [0, 9, 9, 9], [1, 9, 9, 9]])
    exp = R.words([[4, 4, 0, 2], [2, 2, 0, 2], [4, 4, 0, 2], [2, 2, 0, 2]])
    H.run_check(
        gl,
        "TXQ",
        [src],
        version,
        mask=mask,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=exp,
        rule=BITS,
        textures={0: textures["mip"]},
        index_mode="draw",
    )


@pytest.mark.parametrize("comp", [0, 1, 3])
def test_tg4_gather(gl, version, textures, comp):
    """TG4 at texel corners: the four texels around (u, v), component src1.x."""
    from lowering.errors import UnsupportedError

    corners = [(1, 1), (2, 3), (3, 2), (1, 3)]  # corner between texels i-1..i, j-1..j
    uv = np.array([[i / W, j / W] for i, j in corners])
    src = R.f32_words(np.concatenate([uv, np.zeros((len(uv), 2))], 1))

    def gather(i, j):
        i0, i1, j0, j1 = (i - 1) % W, i % W, (j - 1) % W, j % W
        return [LEVEL0[j1, i0, comp], LEVEL0[j1, i1, comp], LEVEL0[j0, i1, comp], LEVEL0[j0, i0, comp]]

    exp = R.f32_words(np.array([gather(i, j) for i, j in corners]))
    try:
        H.run_check(
            gl,
            "TG4",
            [src],
            version,
            operands=["SRC0", "IMM[2].xxxx", "SAMP[0]"],
            suffix=", 2D",
            decls=TEX2D + f"\nIMM[2] INT32 {{{comp}, 0, 0, 0}}",
            expected=exp,
            rule=BITS,
            textures={0: textures["t2d"]},
        )
    except UnsupportedError as err:
        assert version < 400 and "TG4" in str(err), err  # textureGather is GLSL 400
        H.REFUSED.append(("TG4", version))


def test_tex_2d_array_layer(gl, version, textures):
    """2D_ARRAY: the layer is src0.z, rounded to nearest and clamped to [0, layers-1]."""
    cases = [((0, 0), 0.0), ((1, 2), 1.0), ((3, 3), 2.0), ((2, 1), 1.4), ((0, 3), 7.0), ((1, 1), -3.0)]
    uv = _centres([p for p, _ in cases])
    z = np.array([lod for _, lod in cases])
    src = R.f32_words(np.stack([uv[:, 0], uv[:, 1], z, np.zeros(len(z))], 1))
    exp = np.array([textures["layers"][int(np.clip(np.floor(lod + 0.5), 0, 2)), y, x] for (x, y), lod in cases])
    H.run_check(
        gl,
        "TEX",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D_ARRAY",
        decls="DCL SAMP[0]\nDCL SVIEW[0], 2D_ARRAY, FLOAT",
        expected=R.f32_words(exp),
        rule=BITS,
        textures={0: textures["array"]},
    )


def test_tex_cube_faces(gl, version, textures):
    """CUBE: the major axis of the direction picks the face (+X -X +Y -Y +Z -Z)."""
    dirs = np.array(
        [[1, 0.1, 0.2], [-1, 0.2, -0.1], [0.1, 1, 0.3], [0.2, -1, -0.3], [0.3, 0.1, 1], [-0.2, 0.1, -1]],
        dtype=np.float64,
    )
    src = R.f32_words(np.concatenate([dirs, np.zeros((6, 1))], 1))
    H.run_check(
        gl,
        "TEX",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", CUBE",
        decls="DCL SAMP[0]\nDCL SVIEW[0], CUBE, FLOAT",
        expected=R.f32_words(textures["faces"]),
        rule=BITS,
        textures={0: textures["cube"]},
    )


def test_tex_shadow2d(gl, version, textures):
    """SHADOW2D: reference in src0.z, compare LEQUAL against the depth texel -> 1.0 / 0.0 in .x."""
    pairs = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (3, 2)]
    refs = [0.05, 0.35, 0.5, 0.9, 0.2, 0.6]
    uv = _centres(pairs)
    src = R.f32_words(np.stack([uv[:, 0], uv[:, 1], refs, np.zeros(6)], 1))
    depth = textures["depth_data"]
    res = np.array([1.0 if r <= depth[y, x] else 0.0 for (x, y), r in zip(pairs, refs, strict=True)])
    exp = R.f32_words(np.repeat(res[:, None], 4, 1))
    H.run_check(
        gl,
        "TEX",
        [src],
        version,
        mask="x",
        operands=["SRC0", "SAMP[0]"],
        suffix=", SHADOW2D",
        decls="DCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT",
        expected=exp,
        rule=BITS,
        textures={0: textures["depth"]},
    )


def test_sample_i_and_sviewinfo(gl, version, textures):
    """D3D10-style: SAMPLE_I fetches texel (x, y) of mip w; SVIEWINFO gives (w, h, _, levels)."""
    cases = [(0, 0, 0), (3, 2, 0), (1, 1, 1), (0, 1, 1)]
    src = R.words([[x, y, 0, lod] for x, y, lod in cases])
    texel = np.array([LEVEL0[y, x] if lod == 0 else LEVEL1[y, x] for x, y, lod in cases])
    decl = "DCL SVIEW[0], 2D, FLOAT"
    H.run_check(
        gl,
        "SAMPLE_I",
        [src],
        version,
        operands=["SRC0", "SVIEW[0]"],
        decls=decl,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["mip"]},
    )
    lods = R.words([[0, 9, 9, 9], [1, 9, 9, 9]])
    mask = "xyw" if version >= 430 else "xy"
    # one draw per case: see test_txq_size_and_levels for llvmpipe's per-vector lod
    H.run_check(
        gl,
        "SVIEWINFO",
        [lods],
        version,
        mask=mask,
        operands=["SRC0", "SVIEW[0]"],
        decls=decl,
        expected=R.words([[4, 4, 0, 2], [2, 2, 0, 2]]),
        rule=BITS,
        textures={0: textures["mip"]},
        index_mode="draw",
    )


# ---------------------------------------------------------------------------
# Implicit / biased / explicit-derivative LOD: coordinates from the pixel
# position, u = k * x_window, so |du/dx| * width = 4k texels per pixel and
# lambda = log2(4k) exactly (the same along y).  Each pixel px of the 4 x 1
# target then reads texel floor(u * size) of the level the lambda selects.
# ---------------------------------------------------------------------------


def _lod_case_expected(k, level):
    """Texels read by pixels 0..3 (row 0) at coordinate scale k from mip ``level``."""
    size = W >> level
    data = LEVEL0 if level == 0 else LEVEL1
    out = []
    for px in range(4):
        u, v = (px + 0.5) * k, 0.5 * k
        out.append(data[int(np.floor(v * size)) % size, int(np.floor(u * size)) % size])
    return R.f32_words(np.array(out))


def _uv_body(k, w, op_line):
    return (
        f"MUL SRC0.xy, IN[0].xyyy, IMM[2].xxxx\nMOV SRC0.zw, IMM[2].yyyw\n{op_line}"
    ), f"IMM[2] FLT32 {{{k!r}, 0.0, 0.0, {w!r}}}"


@pytest.mark.parametrize("k,level", [(0.25, 0), (0.5, 1)])
def test_tex_implicit_lod(gl, version, textures, k, level):
    """TEX in a FS picks the mip level from the screen-space derivatives."""
    body, imm = _uv_body(k, 0.0, "TEX DST, SRC0, SAMP[0], 2D")
    H.run_check(
        gl,
        "TEX",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        body=body,
        decls=TEX2D + "\n" + imm,
        expected=_lod_case_expected(k, level),
        rule=BITS,
        textures={0: textures["mip"]},
    )


@pytest.mark.parametrize("bias,level", [(0.0, 0), (1.0, 1)])
def test_txb_lod_bias(gl, version, textures, bias, level):
    """TXB adds src0.w to the computed lambda (0 at one texel per pixel)."""
    body, imm = _uv_body(0.25, bias, "TXB DST, SRC0, SAMP[0], 2D")
    H.run_check(
        gl,
        "TXB",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        body=body,
        decls=TEX2D + "\n" + imm,
        expected=_lod_case_expected(0.25, level),
        rule=BITS,
        textures={0: textures["mip"]},
    )


@pytest.mark.parametrize("deriv,level", [(0.25, 0), (0.5, 1)])
def test_txd_explicit_derivatives(gl, version, textures, deriv, level):
    """TXD: lambda from the given ddx/ddy (deriv * 4 texels per pixel), not from the coordinates."""
    body, imm = _uv_body(0.25, 0.0, "TXD DST, SRC0, IMM[3].xyyy, IMM[3].yxyy, SAMP[0], 2D")
    H.run_check(
        gl,
        "TXD",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        body=body,
        decls=TEX2D + "\n" + imm + f"\nIMM[3] FLT32 {{{deriv!r}, 0.0, 0.0, 0.0}}",
        expected=_lod_case_expected(0.25, level),
        rule=BITS,
        textures={0: textures["mip"]},
    )


@pytest.mark.parametrize("k,lod", [(0.5, (1.0, 1.0)), (0.125, (0.0, -1.0)), (0.25, (0.0, 0.0))])
def test_lodq(gl, version, textures, k, lod):
    """LODQ: .x = level accessed (clamped to [0, 1] here), .y = lambda = log2(4k)
    (GLSL 330: the GL formula with the texture's lod state in the sysvals block)."""
    body, imm = _uv_body(k, 0.0, "LODQ DST.xy, SRC0, SAMP[0], 2D")
    exp = R.f32_words(np.tile([lod[0], lod[1], 0.0, 0.0], (4, 1)))
    rule = H.Precision(
        "f32",
        abs=2.0**-8,
        why="LOD arithmetic precision is implementation-defined (GL 4.5 8.14.1 lets "
        "rho be approximated); 2^-8 covers fixed-point LOD units",
    )
    H.run_check(
        gl,
        "LODQ",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        mask="xy",
        body=body,
        decls=TEX2D + "\n" + imm,
        expected=exp,
        rule=rule,
        textures={0: textures["mip"]},
    )


def test_txqs_sample_count(gl, version):
    """TXQS: .x = number of samples of a multisample texture (textureSamples, GLSL 450)."""
    from lowering.errors import UnsupportedError

    with gl.ctx:
        ms = gl.ctx.texture((W, W), 4, samples=4, dtype="f4")
    try:
        H.run_check(
            gl,
            "TXQS",
            [R.words(np.zeros((4, 4), np.int64))],
            version,
            mask="x",
            operands=["SAMP[0]"],
            suffix=", 2D_MSAA",
            decls="DCL SAMP[0]\nDCL SVIEW[0], 2D_MSAA, FLOAT",
            expected=R.words(np.tile([4, 0, 0, 0], (4, 1))),
            rule=BITS,
            textures={0: ms},
        )
    except UnsupportedError as err:
        assert version < 450 and "TXQS" in str(err), err
        H.REFUSED.append(("TXQS", version))
    finally:
        with gl.ctx:
            ms.release()


# ---------------------------------------------------------------------------
# D3D10-style sampling: separate SVIEW and SAMP operands
# ---------------------------------------------------------------------------

SVIEW2D = "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[0]"


def test_sample(gl, version, textures):
    uv = _centres(PAIRS)
    src = R.f32_words(np.concatenate([uv, np.zeros((len(uv), 2))], 1))
    texel = np.array([LEVEL0[y, x] for x, y in PAIRS])
    H.run_check(
        gl,
        "SAMPLE",
        [src],
        version,
        operands=["SRC0", "SVIEW[0]", "SAMP[0]"],
        decls=SVIEW2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["t2d"]},
    )


def test_sample_l(gl, version, textures):
    uv = _centres(PAIRS)
    lod = np.array([0, 1, 0, 1, 1, 0], dtype=np.float64)
    src = R.f32_words(np.stack([uv[:, 0], uv[:, 1], np.zeros(6), lod], 1))
    texel = np.array(
        [LEVEL0[y, x] if lod == 0 else LEVEL1[y // 2, x // 2] for (x, y), lod in zip(PAIRS, lod, strict=True)]
    )
    H.run_check(
        gl,
        "SAMPLE_L",
        [src],
        version,
        operands=["SRC0", "SVIEW[0]", "SAMP[0]", "SRC0.wwww"],
        decls=SVIEW2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["mip"]},
    )


def test_gather4(gl, version, textures):
    """GATHER4 gathers the red component, same texel order as TG4."""
    from lowering.errors import UnsupportedError

    corners = [(1, 1), (2, 3), (3, 2), (1, 3)]
    uv = np.array([[i / W, j / W] for i, j in corners])
    src = R.f32_words(np.concatenate([uv, np.zeros((len(uv), 2))], 1))

    def gather(i, j):
        i0, i1, j0, j1 = (i - 1) % W, i % W, (j - 1) % W, j % W
        return [LEVEL0[j1, i0, 0], LEVEL0[j1, i1, 0], LEVEL0[j0, i1, 0], LEVEL0[j0, i0, 0]]

    try:
        H.run_check(
            gl,
            "GATHER4",
            [src],
            version,
            operands=["SRC0", "SVIEW[0]", "SAMP[0]"],
            decls=SVIEW2D,
            expected=R.f32_words(np.array([gather(i, j) for i, j in corners])),
            rule=BITS,
            textures={0: textures["t2d"]},
        )
    except UnsupportedError as err:
        assert version < 400 and "GATHER4" in str(err), err
        H.REFUSED.append(("GATHER4", version))


def test_sample_c(gl, version, textures):
    """SAMPLE_C: compare src3.x against the depth texel with the sampler's func (LEQUAL here)."""
    pairs = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (3, 2)]
    refs = np.array([0.05, 0.35, 0.5, 0.9, 0.2, 0.6])
    uv = _centres(pairs)
    src = R.f32_words(np.stack([uv[:, 0], uv[:, 1], np.zeros(6), refs], 1))
    depth = textures["depth_data"]
    res = np.array([1.0 if r <= depth[y, x] else 0.0 for (x, y), r in zip(pairs, refs, strict=True)])
    H.run_check(
        gl,
        "SAMPLE_C",
        [src],
        version,
        mask="x",
        operands=["SRC0", "SVIEW[0].xxxx", "SAMP[0]", "SRC0.wwww"],
        decls=SVIEW2D,
        expected=R.f32_words(np.repeat(res[:, None], 4, 1)),
        rule=BITS,
        textures={0: textures["depth"]},
    )


# ---------------------------------------------------------------------------
# Removed "level zero" spellings and the remaining D3D10-style variants
# ---------------------------------------------------------------------------


def test_tex_lz_reads_level_zero(gl, version, textures):
    """TEX_LZ = TXL with lod 0, whatever the derivatives (src0.w is not a lod)."""
    body, imm = _uv_body(0.5, 1.0, "TEX_LZ DST, SRC0, SAMP[0], 2D")  # TEX here would pick level 1
    H.run_check(
        gl,
        "TEX_LZ",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        body=body,
        decls=TEX2D + "\n" + imm,
        expected=_lod_case_expected(0.5, 0),
        rule=BITS,
        textures={0: textures["mip"]},
    )


def test_txf_lz_ignores_w(gl, version, textures):
    cases = [(0, 0, 1), (3, 2, 1), (1, 1, 0), (2, 3, 5)]
    src = R.words([[x, y, 0, lod] for x, y, lod in cases])
    texel = np.array([LEVEL0[y, x] for x, y, _ in cases])
    H.run_check(
        gl,
        "TXF_LZ",
        [src],
        version,
        operands=["SRC0", "SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: textures["mip"]},
    )


def test_txq_lz(gl, version, textures):
    """TXQ_LZ: the size of mip level 0."""
    H.run_check(
        gl,
        "TXQ_LZ",
        [R.words(np.zeros((4, 4), np.int64))],
        version,
        mask="xy",
        operands=["SAMP[0]"],
        suffix=", 2D",
        decls=TEX2D,
        expected=R.words(np.tile([4, 4, 0, 0], (4, 1))),
        rule=BITS,
        textures={0: textures["mip"]},
    )


@pytest.mark.parametrize("bias,level", [(0.0, 0), (1.0, 1)])
def test_sample_b(gl, version, textures, bias, level):
    body, imm = _uv_body(0.25, bias, "SAMPLE_B DST, SRC0, SVIEW[0], SAMP[0], SRC0.wwww")
    H.run_check(
        gl,
        "SAMPLE_B",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        body=body,
        decls=SVIEW2D + "\n" + imm,
        expected=_lod_case_expected(0.25, level),
        rule=BITS,
        textures={0: textures["mip"]},
    )


@pytest.mark.parametrize("deriv,level", [(0.25, 0), (0.5, 1)])
def test_sample_d(gl, version, textures, deriv, level):
    body, imm = _uv_body(0.25, 0.0, "SAMPLE_D DST, SRC0, SVIEW[0], SAMP[0], IMM[3].xyyy, IMM[3].yxyy")
    H.run_check(
        gl,
        "SAMPLE_D",
        [R.f32_words(np.zeros((4, 4)))],
        version,
        body=body,
        decls=SVIEW2D + "\n" + imm + f"\nIMM[3] FLT32 {{{deriv!r}, 0.0, 0.0, 0.0}}",
        expected=_lod_case_expected(0.25, level),
        rule=BITS,
        textures={0: textures["mip"]},
    )


def test_sample_c_lz(gl, version, textures):
    pairs = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (3, 2)]
    refs = np.array([0.05, 0.35, 0.5, 0.9, 0.2, 0.6])
    uv = _centres(pairs)
    src = R.f32_words(np.stack([uv[:, 0], uv[:, 1], np.zeros(6), refs], 1))
    depth = textures["depth_data"]
    res = np.array([1.0 if r <= depth[y, x] else 0.0 for (x, y), r in zip(pairs, refs, strict=True)])
    H.run_check(
        gl,
        "SAMPLE_C_LZ",
        [src],
        version,
        mask="x",
        operands=["SRC0", "SVIEW[0].xxxx", "SAMP[0]", "SRC0.wwww"],
        decls=SVIEW2D,
        expected=R.f32_words(np.repeat(res[:, None], 4, 1)),
        rule=BITS,
        textures={0: textures["depth"]},
    )


def test_lod(gl, version, textures):
    """D3D10 LOD: (level accessed, lambda, 0, 0) -- here lambda = log2(4 * 0.5) = 1."""
    from lowering.errors import UnsupportedError

    body, imm = _uv_body(0.5, 0.0, "LOD DST, SRC0, SVIEW[0], SAMP[0]")
    rule = H.Precision("f32", abs=2.0**-8, why="LOD precision is implementation-defined (see test_lodq)")
    try:
        H.run_check(
            gl,
            "LOD",
            [R.f32_words(np.zeros((4, 4)))],
            version,
            body=body,
            decls=SVIEW2D + "\n" + imm,
            expected=R.f32_words(np.tile([1.0, 1.0, 0, 0], (4, 1))),
            rule=rule,
            textures={0: textures["mip"]},
        )
    except UnsupportedError as err:
        assert version < 400 and "LOD" in str(err), err
        H.REFUSED.append(("LOD", version))
