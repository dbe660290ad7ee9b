"""PIPE_CAP_POST_DEPTH_COVERAGE: the sample mask a FS reads after early depth.

TGSI: ``PROPERTY FS_EARLY_DEPTH_STENCIL 1`` plus ``PROPERTY
FS_POST_DEPTH_COVERAGE 1`` make SV SAMPLEMASK the coverage *after* the early
depth / stencil tests (GL_ARB_post_depth_coverage); without the second
property it is the rasterizer's coverage, whatever the depth test then kills.

Set-up, 3 x 1 pixels, 4x MSAA colour (RGBA32F) and depth (Z32_FLOAT), depth
cleared to 1: an occluder at depth 0.25 covers window x in [0, 1.5], i.e.
pixel 0 whole and the samples of pixel 1 left of its centre (which ones comes
from the host's sample positions, read with raw glGetMultisamplefv).  Then a
full-screen triangle at depth 0.5 (LESS) whose FS writes (popcount(mask),
mask, 0, 1).  Every sample is read back with a raw-GL texelFetch program, so
for each written sample s we know the mask m_s of the invocation that wrote it.

GL lets an implementation shade one fragment in several invocations, each
seeing a subset of the coverage, every covered sample in exactly one of them
(GL 4.5 section 15.2.2, gl_SampleMaskIn) -- llvmpipe does so, splitting some
fully covered pixels into samples {0, 1} and {2, 3}.  So the checks are on
that level: s is in m_s, the m_s partition the samples, and their union is
the post-depth coverage (only visible samples) with the property, or reaches
occluded samples without it.
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import Bind, Cap, Clear, DepthStencilAlphaState, Format, Func
from lowering.errors import UnsupportedError

from .util_blend_dsa import (
    bind_rasterizer,
    bind_targets,
    forget_host_state,
    fullscreen,
    pipeline,
    sample_positions,
)
from .util_blend_dsa import texture as make_target

WIDTH = 3
SAMPLES = 4
OCCLUDER_X = 1.5  # window x of the occluder's right edge: pixel 1's centre
ALL = (1 << SAMPLES) - 1


def mask_fs(*properties: str) -> str:
    """A FS writing (popcount(SAMPLEMASK), SAMPLEMASK, 0, 1) as floats."""
    props = "".join(f"PROPERTY {p} 1\n" for p in properties)
    return (
        f"FRAG\n{props}DCL SV[0], SAMPLEMASK\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        "IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}\n"
        "  0: MOV TEMP[0], IMM[0]\n"
        "  1: POPC TEMP[0].x, SV[0].xxxx\n"
        "  2: U2F TEMP[0].x, TEMP[0].xxxx\n"
        "  3: U2F TEMP[0].y, SV[0].xxxx\n"
        "  4: MOV OUT[0], TEMP[0]\n"
        "  5: END\n"
    )


OCCLUDER_FS = """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}
  0: MOV OUT[0], IMM[0]
  1: END
"""

# Raw GL: texel (x, 0) sample y of a 2D multisample texture into pixel (x, y).
_READ_VS = """#version 330 core
void main() {
    vec2 p[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    gl_Position = vec4(p[gl_VertexID], 0.0, 1.0);
}
"""
_READ_FS = """#version 330 core
uniform sampler2DMS ms;
out vec4 color;
void main() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    color = texelFetch(ms, ivec2(c.x, 0), c.y);
}
"""


# Per-fragment state the readback must switch off (and restores afterwards).
_ENABLES = (
    "GL_SCISSOR_TEST",
    "GL_DEPTH_TEST",
    "GL_STENCIL_TEST",
    "GL_BLEND",
    "GL_RASTERIZER_DISCARD",
    "GL_CULL_FACE",
    "GL_MULTISAMPLE",
    "GL_SAMPLE_SHADING",
    "GL_SAMPLE_MASK",
    "GL_COLOR_LOGIC_OP",
    "GL_SAMPLE_ALPHA_TO_COVERAGE",
    "GL_FRAMEBUFFER_SRGB",
)


def _program(gl):
    prog = gl.glCreateProgram()
    for kind, src in ((gl.GL_VERTEX_SHADER, _READ_VS), (gl.GL_FRAGMENT_SHADER, _READ_FS)):
        sh = gl.glCreateShader(kind)
        gl.glShaderSource(sh, [src])
        gl.glCompileShader(sh)
        assert gl.glGetShaderiv(sh, gl.GL_COMPILE_STATUS), gl.glGetShaderInfoLog(sh)
        gl.glAttachShader(prog, sh)
        gl.glDeleteShader(sh)
    gl.glLinkProgram(prog)
    assert gl.glGetProgramiv(prog, gl.GL_LINK_STATUS), gl.glGetProgramInfoLog(prog)
    return prog


def read_samples(screen, ctx, ms) -> np.ndarray:
    """Every sample of the (WIDTH x 1, 4x) RGBA32F texture ``ms``, read with a
    raw-GL texelFetch program: shape (WIDTH, SAMPLES, 4).  The GL bindings,
    enables, colour mask and viewport it touches are restored, and the
    context is told to re-emit its state."""
    gl = screen.host.gl
    saved = {
        name: int(np.asarray(gl.glGetIntegerv(getattr(gl, name))).ravel()[0])
        for name in (
            "GL_CURRENT_PROGRAM",
            "GL_VERTEX_ARRAY_BINDING",
            "GL_ACTIVE_TEXTURE",
            "GL_DRAW_FRAMEBUFFER_BINDING",
            "GL_READ_FRAMEBUFFER_BINDING",
        )
    }
    prog = _program(gl)
    out = gl.glGenTextures(1)
    gl.glActiveTexture(gl.GL_TEXTURE0 + screen.host.scratch_texture_unit)
    gl.glBindTexture(gl.GL_TEXTURE_2D, out)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA32F, WIDTH, SAMPLES, 0, gl.GL_RGBA, gl.GL_FLOAT, None)
    gl.glBindTexture(gl.GL_TEXTURE_2D_MULTISAMPLE, ms.gl_object)
    fbo = gl.glGenFramebuffers(1)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, out, 0)
    gl.glDrawBuffers(1, [gl.GL_COLOR_ATTACHMENT0])
    vao = gl.glGenVertexArrays(1)
    gl.glBindVertexArray(vao)
    gl.glUseProgram(prog)
    gl.glUniform1i(gl.glGetUniformLocation(prog, "ms"), screen.host.scratch_texture_unit)
    enables = {getattr(gl, name): bool(gl.glIsEnabled(getattr(gl, name))) for name in _ENABLES}
    for cap_enum in enables:
        gl.glDisable(cap_enum)
    color_mask = [bool(v) for v in gl.glGetBooleanv(gl.GL_COLOR_WRITEMASK)]
    viewport = [int(v) for v in gl.glGetIntegerv(gl.GL_VIEWPORT)]
    pack = int(np.asarray(gl.glGetIntegerv(gl.GL_PACK_ALIGNMENT)).ravel()[0])
    gl.glColorMask(True, True, True, True)
    gl.glViewport(0, 0, WIDTH, SAMPLES)
    gl.glDrawArrays(gl.GL_TRIANGLES, 0, 3)
    texels = np.zeros((SAMPLES, WIDTH, 4), np.float32)
    gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, WIDTH, SAMPLES, gl.GL_RGBA, gl.GL_FLOAT, texels)
    gl.glBindTexture(gl.GL_TEXTURE_2D_MULTISAMPLE, 0)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    for cap_enum, was in enables.items():
        (gl.glEnable if was else gl.glDisable)(cap_enum)
    gl.glColorMask(*color_mask)
    gl.glViewport(*viewport)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, pack)
    gl.glUseProgram(saved["GL_CURRENT_PROGRAM"])
    gl.glBindVertexArray(saved["GL_VERTEX_ARRAY_BINDING"])
    gl.glActiveTexture(saved["GL_ACTIVE_TEXTURE"])
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved["GL_DRAW_FRAMEBUFFER_BINDING"])
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, saved["GL_READ_FRAMEBUFFER_BINDING"])
    gl.glDeleteVertexArrays(1, [vao])
    gl.glDeleteFramebuffers(1, [fbo])
    gl.glDeleteTextures(1, [out])
    gl.glDeleteProgram(prog)
    assert screen.host.clear_errors() == []
    forget_host_state(ctx)
    return texels.transpose(1, 0, 2)


def draw_scene(screen, ctx, fs_text):
    """Clear, draw the occluder, then the full-screen triangle with ``fs_text``;
    returns every sample (WIDTH, SAMPLES, 4) and the host's sample positions."""
    color = make_target(screen, Format.R32G32B32A32_FLOAT, WIDTH, 1, Bind.RENDER_TARGET, samples=SAMPLES)
    depth = make_target(screen, Format.Z32_FLOAT, WIDTH, 1, Bind.DEPTH_STENCIL, samples=SAMPLES)
    bind_targets(ctx, WIDTH, 1, (color,), depth)
    bind_rasterizer(ctx, multisample=True)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS)
        )
    )
    ctx.clear(Clear.COLOR0 | Clear.DEPTH, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)

    pipeline(ctx, OCCLUDER_FS)
    x1 = -1 + 2 * OCCLUDER_X / WIDTH  # NDC of the occluder's right edge
    occluder = np.array(
        [
            [x, y, -0.5, 1, 0, 0, 0, 0]  # window depth 0.25
            for x, y in ((-1, -1), (x1, -1), (x1, 1), (-1, -1), (x1, 1), (-1, 1))
        ],
        np.float32,
    )
    ctx.set_vertex_buffers([glpipe.VertexBuffer(buffer=occluder, stride=32)])
    ctx.draw_vbo(glpipe.DrawInfo(mode=glpipe.Prim.TRIANGLES, start=0, count=6))

    pipeline(ctx, fs_text)
    fullscreen(screen, ctx, (0, 0, 0, 0), z=0.0)()  # window depth 0.5
    return read_samples(screen, ctx, color), sample_positions(screen, color, SAMPLES)


def visible_samples(positions) -> int:
    """Mask of pixel 1's samples right of its centre (the occluder hides the others)."""
    xs = [sx for sx, _ in positions]
    assert all(abs(sx - 0.5) > 1e-3 for sx in xs)  # no sample on the occluder's edge
    visible = sum(1 << s for s, sx in enumerate(xs) if sx > 0.5)
    assert 0 < visible < ALL  # the edge splits the host's pattern
    return visible


def invocation_masks(pixel) -> dict:
    """{sample: mask read by the invocation that wrote it} for the written samples
    of one pixel (alpha 1), after checking each record is self-consistent."""
    masks = {}
    for s, (popc, mask, zero, alpha) in enumerate(pixel):
        if alpha == 0:
            assert (popc, mask, zero) == (0, 0, 0)  # untouched since the clear
            continue
        assert alpha == 1 and zero == 0 and mask == int(mask)
        m = int(mask)
        assert popc == bin(m).count("1")  # POPC of the same mask
        assert m >> s & 1, f"sample {s} written by an invocation whose mask {m:#x} lacks it"
        masks[s] = m
    for s, m in masks.items():  # invocations partition the samples
        for t, n in masks.items():
            assert m == n or not m & n, (s, m, t, n)
    return masks


def union(masks: dict) -> int:
    out = 0
    for m in masks.values():
        out |= m
    return out


def test_post_depth_coverage_masks_the_occluded_samples(screen, ctx):
    """EARLY_DEPTH_STENCIL + POST_DEPTH_COVERAGE: pixel 0 never shades; in
    pixel 1 only the visible samples are written and the masks read name
    exactly those; pixel 2 reads all four."""
    fs = mask_fs("FS_EARLY_DEPTH_STENCIL", "FS_POST_DEPTH_COVERAGE")
    if not screen.profile.has("post_depth_coverage"):
        assert screen.get_param(Cap.POST_DEPTH_COVERAGE) == 0
        with pytest.raises(UnsupportedError, match="FS_POST_DEPTH_COVERAGE|FS_EARLY_DEPTH_STENCIL"):
            draw_scene(screen, ctx, fs)
        return
    assert screen.get_param(Cap.POST_DEPTH_COVERAGE) == 1
    samples, positions = draw_scene(screen, ctx, fs)
    visible = visible_samples(positions)
    assert invocation_masks(samples[0]) == {}
    masks = invocation_masks(samples[1])
    assert set(masks) == {s for s in range(SAMPLES) if visible >> s & 1}
    assert union(masks) == visible  # no occluded sample in any mask
    masks = invocation_masks(samples[2])
    assert set(masks) == set(range(SAMPLES)) and union(masks) == ALL


@pytest.mark.parametrize("properties", [("FS_EARLY_DEPTH_STENCIL",), ()], ids=["early", "late"])
def test_without_post_depth_coverage_the_mask_is_the_raster_coverage(screen, ctx, properties):
    """Without POST_DEPTH_COVERAGE the depth test still writes only pixel 1's
    visible samples, but the masks read there reach occluded samples too."""
    fs = mask_fs(*properties)
    if not screen.profile.has("sample_shading") or (properties and not screen.profile.has("shader_image_load_store")):
        with pytest.raises(UnsupportedError, match="SAMPLEMASK|FS_EARLY_DEPTH_STENCIL"):
            draw_scene(screen, ctx, fs)
        return
    samples, positions = draw_scene(screen, ctx, fs)
    visible = visible_samples(positions)
    assert invocation_masks(samples[0]) == {}
    masks = invocation_masks(samples[1])
    assert set(masks) == {s for s in range(SAMPLES) if visible >> s & 1}
    assert union(masks) & ~visible  # pre-depth: occluded samples are in the masks
    masks = invocation_masks(samples[2])
    assert set(masks) == set(range(SAMPLES)) and union(masks) == ALL
