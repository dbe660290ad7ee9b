"""Execution tests for the opcodes the other test_exec_* modules cannot reach.

They need more than one FS draw into a single-sample target:

* TEX2 / TXB2 / TXL2 -- cube-array (and shadow cube) textures, which
  ModernGL cannot make: created here with raw GL (glTexImage3D on
  GL_TEXTURE_CUBE_MAP_ARRAY).  Every texel of one (layer, face, level) holds
  the same value, so a lookup is decided by exactly the three things the
  opcodes compute -- face (major axis, GL 4.5 table 8.19), layer
  (floor(w + 0.5) clamped) and mip level (NEAREST_MIPMAP_NEAREST:
  lambda <= 0 -> level 0, else ceil(lambda + 0.5) - 1, clamped) -- and the
  expected values are numpy indexing of the uploaded data.
* SAMPLE_I_MS / SAMPLE_INFO / SAMPLE_POS -- a multisample texture whose
  samples were rendered with distinct values (a GLSL FS using gl_SampleID,
  which runs once per sample), and a multisample render target.
* INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET -- a lowered TGSI VS feeds
  a varying that is a known function of the window position (affine for
  LINEAR, the perspective-correct rational function for PERSPECTIVE), so the
  value at any location is computed exactly in numpy; sample positions come
  from GL_SAMPLE_POSITION.  At GLSL 330 they run re-interpolated
  (lowering/glsl/passes/interp.py), except INTERP_CENTROID on a
  multisampled target, which must be refused.
* EMIT / ENDPRIM -- a lowered GS, its output captured by transform feedback
  (one buffer per vertex stream): the count and the content of the emitted
  vertices, with line strips decomposed into the GL_LINES that feedback
  records, so ENDPRIM's restart is visible.
* DEMOTE / READ_HELPER -- the host has no GL_EXT_demote_to_helper_invocation,
  so DEMOTE must be refused; READ_HELPER alone is gl_HelperInvocation, read
  in the helper lanes of a 2x2 quad through a derivative.

KIL / KILP (the old spellings of KILL_IF / KILL) run in test_exec_flow.py.
At GLSL 330 (the gl33 profile, no extensions) every opcode that needs a
later GLSL must raise UnsupportedError naming it.
"""

from __future__ import annotations

import itertools
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H
import exec_stages as S
import tgsi_reference as R

from lowering.errors import UnsupportedError
from lowering.glsl.variant import VariantKey

gl = S.stage_harness()
version = H.version_fixture()

BITS = H.Precision("bits", why="NEAREST lookups / comparisons / counts are exact")


def expect_refusal(op: str, needs: str, run) -> None:
    """``run()`` must raise UnsupportedError naming ``op`` and what would grant it."""
    with pytest.raises(UnsupportedError) as info:
        run()
    text = str(info.value)
    assert op in text and needs in text, f"unclear refusal for {op}: {text}"


# ---------------------------------------------------------------------------
# TEX2 / TXB2 / TXL2 on cube-array and shadow cube textures (made with raw GL)
# ---------------------------------------------------------------------------

SIZE, LEVELS, LAYERS = 8, 4, 3  # cube faces 8x8 .. 1x1


def color_texel(layer, face, level):
    """The RGBA32F value of every texel of (layer, face, level) of the color cube array."""
    return [100.0 * layer + 10.0 * face + level, -layer - 0.5, face + 0.25, level + 0.125]


def depth_flat(layer, face):
    """Depth of (layer, face) of the single-level shadow cube array (faces 0.12 apart, layers 0.03)."""
    return 0.1 + 0.12 * face + 0.03 * layer


def depth_mip(layer, face, level):
    """Depth of (layer, face, level) of the mipmapped shadow textures (levels 0.2 apart)."""
    return 0.1 + 0.2 * level + 0.01 * face + 0.002 * layer


@pytest.fixture(scope="module")
def cubes(gl):
    """The module's cube(-array) textures: color mips, flat shadow array, shadow mips (array and not)."""
    objs = {
        "CUBEARRAY": S.cube_array_texture(gl, color_texel, SIZE, LEVELS, LAYERS, shadow=False),
        "SHADOWCUBEARRAY_FLAT": S.cube_array_texture(
            gl, lambda layer, f, m: depth_flat(layer, f), 2, 1, LAYERS, shadow=True
        ),
        "SHADOWCUBEARRAY": S.cube_array_texture(gl, depth_mip, SIZE, LEVELS, LAYERS, shadow=True),
        "SHADOWCUBE": S.shadow_cube_texture(gl, lambda f, m: depth_mip(0, f, m), SIZE, LEVELS),
    }
    yield objs
    with gl.ctx:
        for tex in objs.values():
            tex.release()


def cube_face(d) -> int:
    """GL 4.5 table 8.19: the major axis picks the face (+X -X +Y -Y +Z -Z)."""
    axis = int(np.argmax(np.abs(d[:3])))
    return 2 * axis + int(d[axis] < 0)


def cube_layer(w: float) -> int:
    return int(np.clip(np.floor(w + 0.5), 0, LAYERS - 1))


def mip_level(lam: float) -> int:
    """NEAREST_MIPMAP_NEAREST with a NEAREST magnification filter (c = 0), GL 4.5 8.14.3."""
    if lam <= 0:
        return 0
    return int(min(np.ceil(lam + 0.5) - 1, LEVELS - 1))


def _decl(target: str) -> str:
    return f"DCL SAMP[0]\nDCL SVIEW[0], {target}, FLOAT"


def _needs_shadow_lod(gl, version, target) -> bool:
    """Lod / bias on a shadow cube array needs GL_EXT_texture_shadow_lod (host extension)."""
    return target == "SHADOWCUBEARRAY" and "GL_EXT_texture_shadow_lod" not in gl.extensions_for(version)


# Directions (xyz) with the layer in w: every face, layers 0..2, w off the .5 ties, clamped ones.
CUBE_CASES = [
    (1, 0.1, 0.2, 0),
    (-1, 0.2, -0.1, 1),
    (0.1, 1, 0.3, 2),
    (0.2, -1, -0.3, 0.4),
    (0.3, 0.1, 1, 1.3),
    (-0.2, 0.1, -1, 2),
    (1, 0.5, 0.5, 7),
    (0.5, 0.5, -1, -2),
]


def compare_vector(res):
    """Gallium's result of a comparing lookup through an identity view:
    (c, c, c, 1) per case (tgsi.rst / softpipe sample_compare)."""
    res = np.asarray(res, np.float64)
    return np.stack([res, res, res, np.ones_like(res)], 1)


def test_tex2_shadow_cube_array(gl, version, cubes):
    """TEX2: coord = src0 (direction, layer in .w), reference = src1.x; LEQUAL -> 1.0 / 0.0."""
    dirs = np.array(CUBE_CASES, dtype=np.float64)
    # reference just below / above the selected texel's depth; neighbouring layers and faces
    # differ by >= 0.03, so a wrong layer or face flips the result
    refs = np.array(
        [depth_flat(cube_layer(d[3]), cube_face(d)) + (-0.015 if i % 2 else 0.015) for i, d in enumerate(dirs)]
    )
    res = np.array(
        [1.0 if r <= depth_flat(cube_layer(d[3]), cube_face(d)) else 0.0 for d, r in zip(dirs, refs, strict=True)]
    )
    src1 = np.stack([refs, np.full(len(refs), 0.9), np.zeros(len(refs)), np.zeros(len(refs))], 1)

    def run():
        return H.run_check(
            gl,
            "TEX2",
            [R.f32_words(dirs), R.f32_words(src1)],
            version,
            operands=["SRC0", "SRC1", "SAMP[0]"],
            suffix=", SHADOWCUBEARRAY",
            decls=_decl("SHADOWCUBEARRAY"),
            expected=R.f32_words(compare_vector(res)),
            rule=BITS,
            textures={0: cubes["SHADOWCUBEARRAY_FLAT"]},
        )

    if version < 400:
        expect_refusal("TEX2", "GL_ARB_texture_cube_map_array", run)
        return
    run()


@pytest.mark.parametrize("target", ["CUBEARRAY", "SHADOWCUBEARRAY"])
def test_txl2_explicit_lod(gl, version, cubes, target):
    """TXL2: lod = src1.x (and, for a shadow cube array, reference = src1.y)."""
    dirs = np.array(CUBE_CASES, dtype=np.float64)
    lods = np.array([0, 1, 2, 1.3, 1.7, 5, -1, 0.4])
    sel = [(cube_layer(d[3]), cube_face(d), mip_level(lod)) for d, lod in zip(dirs, lods, strict=True)]
    if target == "CUBEARRAY":
        refs = np.zeros(len(lods))
        exp = R.f32_words(np.array([color_texel(*s) for s in sel]))
    else:
        refs = np.array([depth_mip(*s) + (0.05 if i % 2 else -0.05) for i, s in enumerate(sel)])
        res = np.array([1.0 if r <= depth_mip(*s) else 0.0 for s, r in zip(sel, refs, strict=True)])
        exp = R.f32_words(compare_vector(res))
    src1 = np.stack([lods, refs, np.zeros(len(lods)), np.zeros(len(lods))], 1)

    def run():
        return H.run_check(
            gl,
            "TXL2",
            [R.f32_words(dirs), R.f32_words(src1)],
            version,
            operands=["SRC0", "SRC1", "SAMP[0]"],
            suffix=f", {target}",
            decls=_decl(target),
            expected=exp,
            rule=BITS,
            textures={0: cubes[target]},
        )

    if version < 400:
        expect_refusal("TXL2", "GL_ARB_texture_cube_map_array", run)
    elif _needs_shadow_lod(gl, version, target):
        expect_refusal("TXL2", "GL_EXT_texture_shadow_lod", run)
    else:
        run()


# TXB2 needs implicit derivatives: the direction is built from the window x
# (dir = (1, 0, K * x), face +X), so |ds/dx| = K / 2 and, with 8-texel faces,
# rho = 8 * K / 2 = 1 texel per pixel: lambda = 0 and the level is decided by
# the bias alone (GL 4.5 8.14.1, 8.13 for the cube face coordinates).
K = 0.25
TXB2_BODY = """MUL SRC0.z, IN[0].xxxx, IMM[2].xxxx
MOV SRC0.xy, IMM[2].yzzz
TXB2 DST, SRC0, SRC1, SAMP[0], {target}"""


@pytest.mark.parametrize("target", ["CUBEARRAY", "SHADOWCUBE", "SHADOWCUBEARRAY"])
@pytest.mark.parametrize("bias", [0.0, 1.0, 2.0, -1.0])
def test_txb2_bias(gl, version, cubes, target, bias):
    """TXB2: bias = src1.x; cube array layer in src0.w, SHADOWCUBE reference in src0.w,
    SHADOWCUBEARRAY reference in src1.y (tgsi.rst TXB2)."""
    level = mip_level(bias)
    n = 4  # pixels 0..3: K * x stays < 1 (face +X)
    layers = [0, 2, 1, 2]
    if target == "CUBEARRAY":
        w = np.array(layers, dtype=np.float64)
        ref = np.zeros(n)
        exp = R.f32_words(np.array([color_texel(layer, 0, level) for layer in layers]))
    else:
        # references 0.05 below / above the expected level's depth (levels are 0.2 apart):
        # an even pixel reading a lower level, or an odd one a higher level, flips its result
        lay = [0] * n if target == "SHADOWCUBE" else layers
        refs = np.array([depth_mip(layer, 0, level) + (0.05 if i % 2 else -0.05) for i, layer in enumerate(lay)])
        res = np.array([1.0 if r <= depth_mip(layer, 0, level) else 0.0 for r, layer in zip(refs, lay, strict=True)])
        exp = R.f32_words(compare_vector(res))
        w, ref = (refs, np.zeros(n)) if target == "SHADOWCUBE" else (np.array(layers, float), refs)
    src0 = np.stack([np.zeros(n), np.zeros(n), np.zeros(n), w], 1)
    src1 = np.stack([np.full(n, bias), ref, np.zeros(n), np.zeros(n)], 1)

    def run():
        return H.run_check(
            gl,
            "TXB2",
            [R.f32_words(src0), R.f32_words(src1)],
            version,
            body=TXB2_BODY.format(target=target),
            decls=_decl(target) + f"\nIMM[2] FLT32 {{{K!r}, 1.0, 0.0, 0.0}}",
            expected=exp,
            rule=BITS,
            textures={0: cubes[target]},
        )

    if version < 400 and target != "SHADOWCUBE":
        expect_refusal("TXB2", "GL_ARB_texture_cube_map_array", run)
    elif _needs_shadow_lod(gl, version, target):
        expect_refusal("TXB2", "GL_EXT_texture_shadow_lod", run)
    else:
        run()  # SHADOWCUBE: texture(samplerCubeShadow, P, bias), GLSL 130


# ---------------------------------------------------------------------------
# Multisample: SAMPLE_I_MS, SAMPLE_INFO, SAMPLE_POS
# ---------------------------------------------------------------------------

MS_W, MS_H, MS_SAMPLES = 4, 2, 4

# Written once per sample (any static use of gl_SampleID makes the whole
# shader run per sample, GLSL 4.50 7.1.5), so every sample of every pixel
# holds a value of its own: ms_texel(x, y, s).
_MS_WRITER_FS = """#version 450 core
layout(location = 0) out vec4 color;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int s = gl_SampleID;
    color = vec4(float(p.x + 10 * p.y), float(s), float(100 + 7 * s + p.x), float(-1 - 1000 * s - p.y));
}
"""


def ms_texel(x, y, s):
    """The value rendered into sample s of pixel (x, y) of the multisample texture."""
    return [x + 10.0 * y, float(s), 100.0 + 7 * s + x, -1.0 - 1000 * s - y]


@pytest.fixture(scope="module")
def ms_texture(gl):
    """A 4x2 RGBA32F texture with 4 samples, sample s of (x, y) = ms_texel(x, y, s)."""
    with gl.ctx:
        tex = gl.ctx.texture((MS_W, MS_H), 4, dtype="f4", samples=MS_SAMPLES)
    S.render_full_screen(gl, tex, _MS_WRITER_FS, (MS_W, MS_H))
    # the fixture itself: the host did shade per sample (else SAMPLE_I_MS could not be judged)
    stored = S.read_samples(gl, tex, MS_SAMPLES, (MS_W, MS_H)).view(np.float32)
    want = np.array(
        [[[ms_texel(x, y, s) for x in range(MS_W)] for y in range(MS_H)] for s in range(MS_SAMPLES)], dtype=np.float32
    )
    np.testing.assert_array_equal(stored, want)
    yield tex
    with gl.ctx:
        tex.release()


MS_CASES = [(0, 0, 0), (3, 1, 3), (1, 0, 2), (2, 1, 1), (3, 0, 0), (0, 1, 3), (2, 0, 2), (1, 1, 1)]


@pytest.mark.parametrize("swizzle", ["", ".wzyx"])
def test_sample_i_ms(gl, version, ms_texture, swizzle):
    """SAMPLE_I_MS dst, address, SVIEW, sample: texel (x, y) of sample src2.x, swizzled by the view."""
    addr = R.words([[x, y, 0, 0] for x, y, _ in MS_CASES])
    index = R.words([[s, 0, 0, 0] for _, _, s in MS_CASES])
    texel = np.array([ms_texel(x, y, s) for x, y, s in MS_CASES])
    if swizzle:
        texel = texel[:, ["xyzw".index(c) for c in swizzle[1:]]]
    H.run_check(
        gl,
        "SAMPLE_I_MS",
        [addr, index],
        version,
        operands=["SRC0", f"SVIEW[0]{swizzle}", "SRC1.xxxx"],
        decls="DCL SVIEW[0], 2D_MSAA, FLOAT",
        expected=R.f32_words(texel),
        rule=BITS,
        textures={0: ms_texture},
    )


def _sample_info_check(gl, version, view_operand, decl, texture, expected, multisampled=True):
    zeros = R.words(np.zeros((4, 4), np.int64))

    def run():
        return H.run_check(
            gl,
            "SAMPLE_INFO",
            [zeros],
            version,
            operands=[view_operand, "SRC0"],
            decls=decl,
            expected=R.words(expected),
            rule=BITS,
            textures={0: texture},
        )

    # textureSamples (GLSL 450 / ARB_shader_texture_image_samples) is only needed for a
    # multisampled view; a single-sampled one has 1 sample at any version.
    if version < 450 and multisampled:
        expect_refusal("SAMPLE_INFO", "GL_ARB_shader_texture_image_samples", run)
    else:
        run()


@pytest.mark.parametrize("msaa", [True, False], ids=["2D_MSAA", "2D"])
def test_sample_info_of_view(gl, version, ms_texture, msaa):
    """SAMPLE_INFO on a sampler view: int4 (samples, 0, 0, 0); (1, 0, 0, 0) for a view that is
    not multisampled (tgsi.rst)."""
    with gl.ctx:
        tex = ms_texture if msaa else gl.ctx.texture((2, 2), 4, dtype="f4")
    try:
        _sample_info_check(
            gl,
            version,
            "SVIEW[0]",
            f"DCL SVIEW[0], {'2D_MSAA' if msaa else '2D'}, FLOAT",
            tex,
            np.tile([MS_SAMPLES if msaa else 1, 0, 0, 0], (4, 1)),
            multisampled=msaa,
        )
    finally:
        if not msaa:
            with gl.ctx:
                tex.release()


PASS_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
MOV OUT[0], IN[0]
MOV OUT[1], IN[1]
END
"""
FULL_TRIANGLE = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], dtype=np.float32)

SAMPLE_INFO_RT_FS = """FRAG
DCL OUT[0], COLOR
{decl}DCL TEMP[0..1]
IMM[0] UINT32 {{0, 0, 0, 0}}
MOV TEMP[1], IMM[0]
SAMPLE_INFO TEMP[0], TEMP[1], IMM[0].xxxx
{use}MOV OUT[0], TEMP[0]
END
"""


@pytest.mark.parametrize("per_sample", [False, True], ids=["pixel-rate", "sample-rate"])
@pytest.mark.parametrize("samples", [0, MS_SAMPLES])
def test_sample_info_of_render_target(gl, version, samples, per_sample):
    """SAMPLE_INFO on a TEMP source: the number of samples of the render target (1 when it is
    single-sampled).  'sample-rate' also reads SAMPLEID, so per-sample shading is in effect --
    the case tgsi.rst spells out; at pixel rate the count is that of the render target too
    (D3D10.1 sampleinfo on the rasterizer, which this opcode mirrors)."""
    decl = "DCL SV[0], SAMPLEID\n" if per_sample else ""
    # per-sample shading: writing the sample id into .y keeps SV[0] live
    use = "MOV TEMP[0].y, SV[0].xxxx\n" if per_sample else ""
    fs = SAMPLE_INFO_RT_FS.format(decl=decl, use=use)
    attrs = [FULL_TRIANGLE, np.zeros((3, 4), np.float32)]

    def run():
        return S.draw(gl, PASS_VS, fs, version, attrs, size=(2, 2), samples=samples)

    if version < 400:  # gl_NumSamples: GLSL 400 / ARB_sample_shading
        expect_refusal("SAMPLE_INFO", "GL_ARB_sample_shading", run)
        return
    words = run().words
    n = max(samples, 1)
    exp = np.zeros(words.shape, dtype=np.uint32)
    exp[..., 0] = n
    if per_sample:
        exp[..., 1] = np.arange(words.shape[0])[:, None, None]  # sample s holds s in .y
    np.testing.assert_array_equal(words, exp)


@pytest.mark.parametrize("source", ["SVIEW[0]", "TEMP[1]"])
def test_sample_pos_is_refused(gl, version, source):
    """SAMPLE_POS: GLSL has no query for the position of an arbitrary sample of a resource or
    of the render target (gl_SamplePosition is only the current sample's), so the lowering
    refuses it, naming the opcode, at every version."""
    fs = f"""FRAG
DCL SVIEW[0], 2D_MSAA, FLOAT
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] UINT32 {{1, 0, 0, 0}}
MOV TEMP[1], IMM[0]
SAMPLE_POS TEMP[0], {source}, IMM[0].xxxx
MOV OUT[0], TEMP[0]
END
"""
    expect_refusal("SAMPLE_POS", "sample positions", lambda: gl.lower(fs, version))


# ---------------------------------------------------------------------------
# INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET
# ---------------------------------------------------------------------------
#
# One triangle inside an 8x4 target (no clipping), window-space vertices
# TRI_WIN with clip w = TRI_W, varying v = A (x, y, 1) at each vertex.  At a
# window location q with screen-space barycentrics b: LINEAR gives
# sum(b v) = A (q, 1) exactly; PERSPECTIVE gives sum(b v / w) / sum(b / w)
# (GL 4.5 14.6.1, eq. 14.9 / 14.10).  Any location -- pixel centre, sample
# position, centre + offset -- therefore has an exact expected value.

IW, IH = 8, 4
TRI_WIN = np.array([[0.3, 0.2], [7.8, 0.7], [1.2, 3.9]])
TRI_W = np.array([1.0, 2.0, 0.5])
A = np.array([[1, 0, 0], [0, 1, 0], [1, 2, 0.5], [-0.25, 0, 3]], dtype=np.float64)
CLEAR = -12345.0


def _tri_attributes():
    ndc = TRI_WIN / [IW, IH] * 2 - 1
    clip = np.stack([ndc[:, 0] * TRI_W, ndc[:, 1] * TRI_W, np.zeros(3), TRI_W], 1)
    v = np.concatenate([TRI_WIN, np.ones((3, 1))], 1) @ A.T
    return [clip.astype(np.float32), v.astype(np.float32)]


def barycentric(q):
    """Screen-space barycentrics of window points q ``(..., 2)`` w.r.t. TRI_WIN."""
    p0, p1, p2 = TRI_WIN
    m = np.array([[p1[0] - p0[0], p2[0] - p0[0]], [p1[1] - p0[1], p2[1] - p0[1]]])
    uv = np.einsum("ij,...j->...i", np.linalg.inv(m), np.asarray(q) - p0)
    return np.stack([1 - uv[..., 0] - uv[..., 1], uv[..., 0], uv[..., 1]], -1)


def varying_at(q, interp: str):
    """The exact value of the varying at window location(s) q for an interpolation mode."""
    b = barycentric(q)
    v = np.concatenate([TRI_WIN, np.ones((3, 1))], 1) @ A.T  # (3, 4)
    if interp == "LINEAR":
        return b @ v
    bw = b / TRI_W
    return (bw @ v) / bw.sum(-1, keepdims=True)


def pixel_centres():
    ys, xs = np.mgrid[0:IH, 0:IW]
    return np.stack([xs + 0.5, ys + 0.5], -1)  # (IH, IW, 2)


INTERP_FS = """FRAG
DCL IN[0], GENERIC[0], {interp}
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {{{ox!r}, {oy!r}, 0.0, 0.0}}
IMM[1] INT32 {{{sample}, 0, 0, 0}}
{op} TEMP[0], {src}{arg}
MOV OUT[0], TEMP[0]
END
"""


def host_sample_positions(gl, samples: int) -> tuple:
    """The host's GL_SAMPLE_POSITION pattern for ``samples``, flattened as
    VariantKey.sample_positions wants it (what glpipe's context passes)."""
    with gl.ctx:
        target = gl.ctx.texture((1, 1), 4, dtype="f4", samples=samples)
        fbo = gl.ctx.framebuffer(color_attachments=[target])
        try:
            positions = S.sample_positions(gl, fbo, samples)
        finally:
            fbo.release()
            target.release()
    return tuple(float(v) for v in positions.reshape(-1))


def interp_draw(gl, version, op, interp, *, offset=(0.0, 0.0), sample=0, src="IN[0]", samples=0):
    """Draw the triangle with an FS doing ``op`` on the varying; returns the DrawResult.
    Below GLSL 400 the FS re-interpolates (lowering/glsl/passes/interp.py), told the
    multisampled target's sample pattern by its key."""
    arg = {"INTERP_CENTROID": "", "INTERP_SAMPLE": ", IMM[1].xxxx", "INTERP_OFFSET": ", IMM[0].xyxy"}[op]
    fs = INTERP_FS.format(
        interp=interp, ox=float(offset[0]), oy=float(offset[1]), sample=sample, op=op, src=src, arg=arg
    )
    key = None
    if version < 400 and samples > 1:
        key = VariantKey(sample_positions=host_sample_positions(gl, samples))
    # (GLSL < 440 links only matching interpolation qualifiers: glpipe keys the VS so)
    vs_key = VariantKey(output_interpolation=(("GENERIC", 0, interp, "CENTER"),))
    return S.draw(
        gl,
        PASS_VS,
        fs,
        version,
        _tri_attributes(),
        size=(IW, IH),
        samples=samples,
        clear=(CLEAR,) * 4,
        vs_key=vs_key,
        fs_key=key,
    )


def _covered(words):
    """Pixels (or samples) the triangle was drawn into (the rest keep the clear value)."""
    return words.view(np.float32)[..., 0] != CLEAR


def _close(got, exp):
    tol = 1e-4 + 2e-5 * np.abs(exp)  # float32 plane-equation arithmetic on llvmpipe
    return np.abs(got.astype(np.float64) - exp) <= tol


def _assert_close(got, exp, what):
    bad = ~_close(got, exp)
    assert not bad.any(), (
        f"{what}: {int(bad.any(-1).sum())} values off, e.g. got {got[bad.any(-1)][:3]} expected {exp[bad.any(-1)][:3]}"
    )


LLVMPIPE_PERSPECTIVE_BUG = (
    "host bug (Mesa 22.3 llvmpipe): interpolateAtOffset / interpolateAtSample on a perspective "
    "varying divide by 1/w interpolated at the pixel centre instead of at the requested location; "
    "the result matches that model exactly, so the lowering passed the right varying and location"
)


def _llvmpipe_perspective_model(q):
    """What llvmpipe returns for a PERSPECTIVE varying re-interpolated at q: sum(b(q) v / w)
    divided by sum(b(c) / w) at the pixel centre c (see LLVMPIPE_PERSPECTIVE_BUG)."""
    v = np.concatenate([TRI_WIN, np.ones((3, 1))], 1) @ A.T
    num = (barycentric(q) / TRI_W) @ v
    den = (barycentric(pixel_centres()) / TRI_W).sum(-1, keepdims=True)
    return num / den


def _renderer(gl) -> str:
    """GL_RENDERER of the harness context (read while it is current)."""
    with gl.ctx:
        return gl.gl.glGetString(gl.gl.GL_RENDERER).decode()


def check_interp(gl, got, cov, q, interp, what):
    """``got`` (at the covered pixels) must be the varying at locations q.  A PERSPECTIVE
    mismatch that is exactly llvmpipe's known error is reported as an expected failure (the
    test passes again the day the host is fixed); anything else fails."""
    exp = varying_at(q, interp)
    if _close(got[cov], exp[cov]).all():
        return
    if (
        interp == "PERSPECTIVE"
        and "llvmpipe" in _renderer(gl)
        and _close(got[cov], _llvmpipe_perspective_model(q)[cov]).all()
    ):
        pytest.xfail(LLVMPIPE_PERSPECTIVE_BUG)
    _assert_close(got[cov], exp[cov], what)


OFFSETS = [(0.0, 0.0), (0.25, -0.375), (-0.5, -0.5), (0.4375, 0.4375), (-0.125, 0.3125)]


@pytest.mark.parametrize("interp", ["PERSPECTIVE", "LINEAR"])
@pytest.mark.parametrize("offset", OFFSETS, ids=[f"{x}_{y}" for x, y in OFFSETS])
def test_interp_offset(gl, version, interp, offset):
    """INTERP_OFFSET: the varying at pixel centre + src1.xy (offsets on the 1/16 grid, inside
    [-0.5, 0.4375], so the host's sub-pixel quantization leaves them exact)."""

    def run():
        return interp_draw(gl, version, "INTERP_OFFSET", interp, offset=offset)

    res = run()
    cov = _covered(res.words[0])
    q = pixel_centres() + offset
    assert cov.sum() >= 10
    # the vertex w's make the two modes differ: a lost noperspective qualifier would show
    assert np.abs(varying_at(q, "LINEAR") - varying_at(q, "PERSPECTIVE"))[cov].max() > 0.5
    check_interp(gl, res.floats()[0], cov, q, interp, f"INTERP_OFFSET {interp} {offset}")


def test_interp_offset_source_modifiers(gl, version):
    """The source swizzle and negate apply to the interpolated value: -IN[0].wzyx."""

    def run():
        return interp_draw(gl, version, "INTERP_OFFSET", "LINEAR", offset=(0.25, 0.125), src="-IN[0].wzyx")

    res = run()
    cov = _covered(res.words[0])
    exp = -varying_at(pixel_centres() + (0.25, 0.125), "LINEAR")[..., ::-1]
    _assert_close(res.floats()[0][cov], exp[cov], "INTERP_OFFSET -IN.wzyx")


@pytest.mark.parametrize("interp", ["PERSPECTIVE", "LINEAR"])
@pytest.mark.parametrize("index", range(MS_SAMPLES))
def test_interp_sample(gl, version, interp, index):
    """INTERP_SAMPLE: the varying at sample src1.x's position (GL_SAMPLE_POSITION of the
    4-sample target), whichever samples the pixel covers."""

    def run():
        return interp_draw(gl, version, "INTERP_SAMPLE", interp, sample=index, samples=MS_SAMPLES)

    res = run()
    q = np.floor(pixel_centres()) + res.positions[index]
    for s in range(MS_SAMPLES):
        cov = _covered(res.words[s])
        assert cov.sum() >= 10
        check_interp(gl, res.floats()[s], cov, q, interp, f"INTERP_SAMPLE {index} {interp} (sample {s})")


@pytest.mark.parametrize(
    "op,interp", [("INTERP_SAMPLE", "PERSPECTIVE"), ("INTERP_CENTROID", "PERSPECTIVE"), ("INTERP_CENTROID", "LINEAR")]
)
def test_interp_single_sampled_is_the_centre(gl, version, op, interp):
    """Without multisample buffers interpolateAtSample (here sample 3) evaluates at the pixel
    centre (GLSL 4.50 8.13.2), and so does the centroid (a single sample, at the centre)."""

    def run():
        return interp_draw(gl, version, op, interp, sample=3)

    res = run()
    cov = _covered(res.words[0])
    _assert_close(res.floats()[0][cov], varying_at(pixel_centres(), interp)[cov], f"{op} {interp} 1x")


def test_interp_centroid_partial_coverage(gl, version):
    """4 samples: the centroid value must come from a location inside both the pixel and the
    triangle (GLSL 4.50 4.5, GL 4.5 14.6.x) -- also in pixels whose centre the triangle misses.
    With LINEAR and v.xy = window (x, y), the value *is* that location."""

    def run():
        return interp_draw(gl, version, "INTERP_CENTROID", "LINEAR", samples=MS_SAMPLES)

    if version < 400:  # GLSL 3.30 cannot read the coverage the centroid depends on
        expect_refusal("INTERP_CENTROID", "GL_ARB_gpu_shader5", run)
        return
    res = run()
    centre_outside = barycentric(pixel_centres()).min(-1) < 0
    drawn = np.zeros((IH, IW), dtype=bool)
    eps = 1e-4
    for s in range(MS_SAMPLES):
        cov = _covered(res.words[s])
        drawn |= cov
        loc = res.floats()[s][..., :2].astype(np.float64)
        cell = np.floor(pixel_centres())
        in_pixel = np.all((loc >= cell - eps) & (loc <= cell + 1 + eps), -1)
        in_tri = barycentric(loc).min(-1) >= -eps
        bad = cov & ~(in_pixel & in_tri)
        assert not bad.any(), f"centroid outside pixel/triangle at {np.argwhere(bad)[:4]}: {loc[bad][:4]}"
    # the check discriminates: some drawn pixels have their centre outside the triangle
    assert (drawn & centre_outside).sum() >= 3


# ---------------------------------------------------------------------------
# EMIT / ENDPRIM (GS), captured with transform feedback
# ---------------------------------------------------------------------------

GS_POINTS = np.array([[0.1, 0.2, 0.3, 1.0], [0.5, -0.6, 0.7, 1.0], [-0.9, 0.4, 0.0, 1.0]], np.float32)
GS_GENERIC = np.array([[10, 20, 30, 40], [100, 200, 300, 400], [-1, -2, -3, -4]], np.float32)


def _strip_program(emit: str, endprim: str) -> str:
    """A GS writing 5 vertices as line strips: v1 v2 v3 ENDPRIM v4 v5 (ENDPRIM) (generic + k)."""
    lines = [
        "GEOM",
        "PROPERTY GS_INPUT_PRIMITIVE POINTS",
        "PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP",
        "PROPERTY GS_MAX_OUTPUT_VERTICES 5",
        "DCL IN[][0], POSITION",
        "DCL IN[][1], GENERIC[0]",
        "DCL OUT[0], POSITION",
        "DCL OUT[1], GENERIC[0]",
        "DCL TEMP[0]",
        "IMM[0] INT32 {0, 0, 0, 0}",
        "IMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}",
        "MOV TEMP[0], IN[0][1]",
    ]
    for k in range(1, 6):
        # outputs are undefined after an EmitVertex: write every one before each EMIT
        lines += ["ADD TEMP[0], TEMP[0], IMM[1].xxxx", "MOV OUT[0], IN[0][0]", "MOV OUT[1], TEMP[0]", emit]
        if k in (3, 5):
            lines.append(endprim)
    return "\n".join(lines + ["END"]) + "\n"


def _strips_to_lines(strips):
    """GL_LINES that transform feedback records for line strips: (a, b), (b, c), ..."""
    out = []
    for strip in strips:
        for a, b in itertools.pairwise(strip):
            out += [a, b]
    return out


@pytest.mark.parametrize("form", ["stream0", "legacy"])
def test_emit_endprim_line_strips(gl, version, form):
    """EMIT appends a vertex to the current strip, ENDPRIM ends it: 3 + 2 vertices per input point
    make two strips = 2 + 1 lines.  'legacy' is the pre-2014 bare EMIT / ENDPRIM (stream 0)."""
    emit, endprim = ("EMIT IMM[0].xxxx", "ENDPRIM IMM[0].xxxx") if form == "stream0" else ("EMIT", "ENDPRIM")
    got = S.capture_gs(gl, PASS_VS, _strip_program(emit, endprim), version, [GS_POINTS, GS_GENERIC], capacity=24)
    verts = []
    for pos, gen in zip(GS_POINTS, GS_GENERIC, strict=True):
        emitted = [np.concatenate([pos, gen + k]) for k in range(1, 6)]
        verts += _strips_to_lines([emitted[:3], emitted[3:]])
    exp = np.full((24, 8), S.SENTINEL_WORD, dtype=np.uint32)  # 18 captured, then untouched
    exp[: len(verts)] = R.f32_words(np.array(verts, dtype=np.float32))
    np.testing.assert_array_equal(got[0], exp)


STREAMS_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 6
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1], STREAM(1, 1, 1, 1)
DCL OUT[3], GENERIC[2], STREAM(2, 2, 2, 2)
DCL TEMP[0]
IMM[0] UINT32 {0, 1, 2, 0}
IMM[1] FLT32 {1.0, 0.5, -1.0, 0.0}
MOV OUT[2], -IN[0][1]
EMIT IMM[0].yyyy
MOV OUT[0], IN[0][0]
MOV OUT[1], IN[0][1]
EMIT IMM[0].xxxx
ADD TEMP[0], IN[0][1], IMM[1].yyyy
MOV OUT[2], TEMP[0]
EMIT IMM[0].yyyy
ENDPRIM IMM[0].yyyy
MUL OUT[3], IN[0][1], IMM[1].zzzz
EMIT IMM[0].zzzz
MOV OUT[2], IN[0][0]
EMIT IMM[0].yyyy
END
"""


def test_emit_to_streams(gl, version):
    """EMIT src.x sends the vertex to that stream (only stream 0 is rasterized; every stream
    is captured): per input point, stream 0 gets 1 vertex, stream 1 three, stream 2 one."""

    def run():
        return S.capture_gs(gl, PASS_VS, STREAMS_GS, version, [GS_POINTS, GS_GENERIC], capacity=12)

    if version < 400:  # layout(stream = n), EmitStreamVertex: GLSL 400 / ARB_gpu_shader5
        expect_refusal("stream 1", "GL_ARB_gpu_shader5", run)  # the first use: OUT[2]'s STREAM(1)
        # without stream-1 outputs, the EMIT itself is what 330 cannot express
        bare = STREAMS_GS.replace("DCL OUT[2], GENERIC[1], STREAM(1, 1, 1, 1)\n", "").replace(
            "DCL OUT[3], GENERIC[2], STREAM(2, 2, 2, 2)\n", ""
        )
        bare = "\n".join(ln for ln in bare.splitlines() if "OUT[2]" not in ln and "OUT[3]" not in ln) + "\n"
        expect_refusal("EMIT", "GL_ARB_gpu_shader5", lambda: gl.lower(bare, version))
        return
    got = run()
    want = {0: [], 1: [], 2: []}  # per stream, in emission order
    for pos, gen in zip(GS_POINTS, GS_GENERIC, strict=True):
        want[1] += [-gen, gen + 0.5, pos]
        want[0].append(np.concatenate([pos, gen]))
        want[2].append(gen * -1.0)
    for stream, rows in want.items():
        exp = np.full(got[stream].shape, S.SENTINEL_WORD, dtype=np.uint32)
        exp[: len(rows)] = R.f32_words(np.array(rows, dtype=np.float32))
        np.testing.assert_array_equal(got[stream], exp, err_msg=f"stream {stream}")


def test_reflection_xfb_names_link(gl):
    """Every GS output's ``xfb_name`` (or its built-in name) is accepted by glTransformFeedbackVaryings."""
    vs = gl.lower(PASS_VS, 450)
    gs = gl.lower(STREAMS_GS, 450)
    names, prev = [], 0
    for o in sorted(gs.reflection.outputs, key=lambda o: (o.stream, o.index)):
        names += (["gl_NextBuffer"] if o.stream != prev else []) + [o.xfb_name or o.name]
        prev = o.stream
    with gl.ctx:
        prog = gl.ctx.program(vertex_shader=vs.source, geometry_shader=gs.source, varyings=names)
        prog.release()


# ---------------------------------------------------------------------------
# DEMOTE / READ_HELPER
# ---------------------------------------------------------------------------
#
# A 2x2 target and a 1-pixel-wide viewport over column 0: the covered pixels
# are (0, 0) and (0, 1); their quad partners in column 1 run as helper
# invocations.  A helper's values are only visible through derivatives:
# DDX at a covered pixel is (column 1) - (column 0), whether the host
# computes it per row or once per quad.

HELPER_CLEAR = (-7.0, -7.0, -7.0, -7.0)

READ_HELPER_FS = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..1]
READ_HELPER TEMP[0].x
I2F TEMP[1].x, TEMP[0].xxxx
DDX TEMP[1].y, TEMP[1].xxxx
MOV TEMP[1].zw, TEMP[0].xxxx
MOV OUT[0], TEMP[1]
END
"""


def _helper_draw(gl, version, fs):
    return gl.run_fs(fs, version, 2, height=2, viewports=[(0, {})], clear=HELPER_CLEAR)[0]


def test_read_helper(gl, version):
    """READ_HELPER = ~0 in a helper invocation, 0 otherwise: I2F(~0) = -1.0, so at a covered
    pixel .x = 0.0 (not a helper), .y = DDX = -1.0 - 0.0 (its partner is), .zw = word 0."""
    if version < 450:  # gl_HelperInvocation: GLSL 450 / ARB_ES3_1_compatibility
        expect_refusal("READ_HELPER", "GL_ARB_ES3_1_compatibility", lambda: _helper_draw(gl, version, READ_HELPER_FS))
        return
    exp = np.empty((2, 2, 4), dtype=np.uint32)
    exp[:, 0] = [*R.f32_words([0.0, -1.0]), 0, 0]
    exp[:, 1] = R.f32_words(HELPER_CLEAR)  # helpers write nothing
    np.testing.assert_array_equal(_helper_draw(gl, version, READ_HELPER_FS), exp)


DEMOTE_FS = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}
FSLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
UIF TEMP[0].xxxx
  DEMOTE
ENDIF
READ_HELPER TEMP[0].y
I2F TEMP[1].x, TEMP[0].yyyy
DDX TEMP[1].y, TEMP[1].xxxx
MOV TEMP[1].zw, TEMP[0].yyyy
MOV OUT[0], TEMP[1]
END
"""


def test_demote(gl, version):
    """DEMOTE turns the invocation into a helper that keeps running: its color is not written,
    and READ_HELPER (after it) sees ~0 there.  On a 2-wide viewport, column 0 demotes: column 1
    writes (0.0, DDX = 0.0 - (-1.0) = 1.0, 0, 0).  The host lacks
    GL_EXT_demote_to_helper_invocation, so the lowering must refuse DEMOTE, naming it."""
    ext = "GL_EXT_demote_to_helper_invocation"

    def run():
        return gl.run_fs(DEMOTE_FS, version, 2, height=2, clear=HELPER_CLEAR)[0]

    if ext not in gl.extensions_for(version):
        expect_refusal("DEMOTE", ext, run)
        return
    out = run()  # a host with the extension
    exp = np.empty((2, 2, 4), dtype=np.uint32)
    exp[:, 0] = R.f32_words(HELPER_CLEAR)
    exp[:, 1] = [*R.f32_words([0.0, 1.0]), 0, 0]
    np.testing.assert_array_equal(out, exp)
