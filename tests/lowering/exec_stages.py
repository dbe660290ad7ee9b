"""Paths the plain exec harness lacks: VS -> FS draws, VS -> GS transform feedback,
multisample read-back, and textures ModernGL cannot make (cube arrays).

``exec_harness`` runs one lowered FS (or CS) behind a hand-written vertex
shader; a few opcodes need more than that:

* **INTERP_*** read a *varying*, so the vertex stage must write it with the
  names and blocks the emitter gives varyings.  ``draw`` therefore lowers a
  TGSI VS as well as the TGSI FS (both through ``lowering.to_glsl``, the
  documented varying rule is what makes them link) and feeds the VS its
  vertex attributes from numpy arrays (``IN[i]`` is attribute location i).
  It can render into a multisample target; then every sample is read back
  separately (``read_samples``) rather than resolved, so a test sees what
  each sample holds, untouched by the resolve's averaging.
* **EMIT / ENDPRIM** only exist in a GS.  ``capture_gs`` lowers a VS and a
  GS, draws points with transform feedback on and returns the words written
  to one buffer per vertex stream (outputs of stream k go to buffer k,
  separated by ``gl_NextBuffer``).  Each buffer is pre-filled with
  ``SENTINEL_WORD``, so the result shows how many vertices were emitted as
  well as what they hold.
* **TEX2 / TXB2 / TXL2** sample cube-map arrays (and shadow cubes with
  mips), which ModernGL cannot allocate: ``cube_array_texture`` and
  ``shadow_cube_texture`` make them with PyOpenGL and return a
  ``RawTexture`` the harness binds like a ModernGL texture.

The GL context is the ``ExecHarness``'s -- ``StageHarness``, a subclass
that also sets sampler units with raw GL (see its docstring); results are
raw 32-bit words (``uint32``), like the rest of the harness.
"""

from __future__ import annotations

from collections.abc import Sequence

import exec_harness as H
import numpy as np

U32 = np.uint32
SENTINEL_WORD = 0xDEADBEEF

# Reads sample s of a multisample RGBA32F texture into a single-sample
# RGBA32F target, bits untouched (floatBitsToUint round trip is not needed:
# a float store keeps the word, see exec_harness).
_SAMPLE_READER_FS = """#version 450 core
uniform sampler2DMS glp_test_ms;
uniform int glp_test_sample;
layout(location = 0) out vec4 color;
void main()
{
    color = texelFetch(glp_test_ms, ivec2(gl_FragCoord.xy), glp_test_sample);
}
"""

_FULL_SCREEN_VS_450 = """#version 450 core
void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
"""


class StageHarness(H.ExecHarness):
    """``ExecHarness`` whose sampler units are also set with ``glProgramUniform1i``.

    Below GLSL 420 the units are set after linking, by name.  ModernGL 5.13
    silently ignores ``Uniform.value`` on samplerCubeShadow, samplerCubeArray
    and samplerCubeArrayShadow uniforms (the value stays 0), so the harness's
    by-name binding would leave such a sampler on unit 0.  glpipe's context
    must use raw GL for them too.
    """

    def _bind_resources(self, prog, refl, consts, ssbos, fb_size=(1, 1)):
        keep = super()._bind_resources(prog, refl, consts, ssbos, fb_size)
        GL = self.gl
        for name, unit in refl.sampler_units:
            loc = GL.glGetUniformLocation(prog.glo, name)
            if loc >= 0:
                GL.glProgramUniform1i(prog.glo, loc, unit)
        return keep


def stage_harness():
    """A module-scoped pytest fixture yielding one StageHarness."""
    import pytest

    @pytest.fixture(scope="module")
    def gl():
        h = StageHarness()
        yield h
        h.release()

    return gl


class RawTexture:
    """A texture made with PyOpenGL; ``use(unit)`` binds it the way ModernGL textures do."""

    def __init__(self, gl_module, target: int, name: int):
        self.GL, self.target, self.name = gl_module, target, name

    def use(self, unit: int) -> None:
        """Bind to texture unit ``unit`` (the harness calls this inside its draw)."""
        self.GL.glActiveTexture(self.GL.GL_TEXTURE0 + unit)
        self.GL.glBindTexture(self.target, self.name)

    def release(self) -> None:
        """Delete the GL texture."""
        self.GL.glDeleteTextures([self.name])


def _raw_texture(gl, target, levels: int, shadow: bool, upload) -> RawTexture:
    """``upload(GL, level)`` for every level, then NEAREST(_MIPMAP_NEAREST) filtering and,
    for a shadow texture, LEQUAL comparison (GL: 1.0 when ref <= texel)."""
    GL = gl.gl
    with gl.ctx:
        name = int(GL.glGenTextures(1))
        GL.glBindTexture(target, name)
        for level in range(levels):
            upload(GL, level)
        GL.glTexParameteri(target, GL.GL_TEXTURE_MAX_LEVEL, levels - 1)
        GL.glTexParameteri(
            target, GL.GL_TEXTURE_MIN_FILTER, GL.GL_NEAREST_MIPMAP_NEAREST if levels > 1 else GL.GL_NEAREST
        )
        GL.glTexParameteri(target, GL.GL_TEXTURE_MAG_FILTER, GL.GL_NEAREST)
        if shadow:
            GL.glTexParameteri(target, GL.GL_TEXTURE_COMPARE_MODE, GL.GL_COMPARE_REF_TO_TEXTURE)
            GL.glTexParameteri(target, GL.GL_TEXTURE_COMPARE_FUNC, GL.GL_LEQUAL)
        GL.glBindTexture(target, 0)
        err = GL.glGetError()
        assert err == GL.GL_NO_ERROR, f"GL error 0x{int(err):x} making a raw texture"
    return RawTexture(GL, target, name)


def cube_array_texture(gl, value, size: int, levels: int, layers: int, *, shadow: bool) -> RawTexture:
    """A GL_TEXTURE_CUBE_MAP_ARRAY, RGBA32F (or DEPTH_COMPONENT32F if ``shadow``), faces
    ``size`` x ``size`` with ``levels`` mips; every texel of (layer, face, level) is
    ``value(layer, face, level)`` (4 floats, or 1 depth).  Face order +X -X +Y -Y +Z -Z."""

    def upload(GL, level):
        s = size >> level
        data = np.array(
            [[value(layer, face, level)] * (s * s) for layer in range(layers) for face in range(6)], dtype=np.float32
        )
        internal, fmt = (GL.GL_DEPTH_COMPONENT32F, GL.GL_DEPTH_COMPONENT) if shadow else (GL.GL_RGBA32F, GL.GL_RGBA)
        GL.glTexImage3D(
            GL.GL_TEXTURE_CUBE_MAP_ARRAY, level, internal, s, s, 6 * layers, 0, fmt, GL.GL_FLOAT, data.tobytes()
        )

    return _raw_texture(gl, gl.gl.GL_TEXTURE_CUBE_MAP_ARRAY, levels, shadow, upload)


def shadow_cube_texture(gl, depth, size: int, levels: int) -> RawTexture:
    """A DEPTH_COMPONENT32F GL_TEXTURE_CUBE_MAP with ``levels`` mips, every texel of
    (face, level) = ``depth(face, level)``, LEQUAL comparison."""

    def upload(GL, level):
        s = size >> level
        for face in range(6):
            data = np.full(s * s, depth(face, level), dtype=np.float32)
            GL.glTexImage2D(
                GL.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                level,
                GL.GL_DEPTH_COMPONENT32F,
                s,
                s,
                0,
                GL.GL_DEPTH_COMPONENT,
                GL.GL_FLOAT,
                data.tobytes(),
            )

    return _raw_texture(gl, gl.gl.GL_TEXTURE_CUBE_MAP, levels, True, upload)


def render_full_screen(gl, texture, fs_source: str, size: tuple[int, int]) -> None:
    """Draw a full-screen triangle with the hand-written GLSL 450 ``fs_source`` into ``texture``."""
    ctx = gl.ctx
    with ctx:
        fbo = ctx.framebuffer(color_attachments=[texture])
        prog = ctx.program(vertex_shader=_FULL_SCREEN_VS_450, fragment_shader=fs_source)
        vao = ctx.vertex_array(prog, [])
        try:
            fbo.use()
            fbo.viewport = (0, 0) + tuple(size)
            fbo.clear(0.0, 0.0, 0.0, 0.0)
            vao.render(gl.moderngl.TRIANGLES, vertices=3)
        finally:
            for obj in (vao, prog, fbo):
                obj.release()


def _attribute_content(ctx, prog, vs_reflection, attributes: Sequence[np.ndarray]):
    """One float32 buffer per VS input IN[i] -> (vao content, buffers to release).

    Inputs the linker removed (the next stage does not read what they feed)
    get no buffer.
    """
    content, keep = [], []
    members = set(prog)
    for i, data in enumerate(attributes):
        info = vs_reflection.input(i)
        if info is None:
            raise AssertionError(f"the lowered VS does not declare IN[{i}]")
        if info.name not in members:
            continue
        buf = ctx.buffer(np.ascontiguousarray(data, dtype=np.float32).tobytes())
        content.append((buf, "4f", info.name))
        keep.append(buf)
    return content, keep


def read_samples(gl, texture, samples: int, size: tuple[int, int]) -> np.ndarray:
    """Every sample of the multisample RGBA32F ``texture``: ``(samples, H, W, 4)`` words."""
    ctx = gl.ctx
    width, height = size
    with ctx:
        prog = ctx.program(vertex_shader=_FULL_SCREEN_VS_450, fragment_shader=_SAMPLE_READER_FS)
        target = ctx.texture((width, height), 4, dtype="f4")
        fbo = ctx.framebuffer(color_attachments=[target])
        vao = ctx.vertex_array(prog, [])
        try:
            fbo.use()
            fbo.viewport = (0, 0, width, height)
            texture.use(0)
            prog["glp_test_ms"].value = 0
            out = []
            for s in range(samples):
                prog["glp_test_sample"].value = s
                fbo.clear(0.0, 0.0, 0.0, 0.0)
                vao.render(gl.moderngl.TRIANGLES, vertices=3)
                out.append(np.frombuffer(fbo.read(components=4, dtype="f4"), dtype=U32).reshape(height, width, 4))
        finally:
            for obj in (vao, fbo, target, prog):
                obj.release()
    return np.stack(out)


def sample_positions(gl, fbo, samples: int) -> np.ndarray:
    """The host's sample positions of ``fbo`` (GL_SAMPLE_POSITION): ``(samples, 2)`` in [0, 1]."""
    GL = gl.gl
    with gl.ctx:
        fbo.use()
        out = []
        for s in range(samples):
            val = np.zeros(2, dtype=np.float32)
            GL.glGetMultisamplefv(GL.GL_SAMPLE_POSITION, s, val)
            out.append(val.copy())
    return np.array(out, dtype=np.float64)


class DrawResult:
    """What ``draw`` returns: the words per sample and the host's sample positions."""

    def __init__(self, words: np.ndarray, positions: np.ndarray | None):
        self.words = words  # (samples or 1, H, W, 4) uint32, row 0 = bottom
        self.positions = positions  # (samples, 2) or None for a single-sample target

    def floats(self) -> np.ndarray:
        """The words seen as float32 values."""
        return self.words.view(np.float32)


def draw(
    gl,
    vs_text: str,
    fs_text: str,
    version: int,
    attributes: Sequence[np.ndarray],
    *,
    size: tuple[int, int],
    samples: int = 0,
    clear=(0.0, 0.0, 0.0, 0.0),
    vertices: int | None = None,
    vs_key=None,
    fs_key=None,
) -> DrawResult:
    """Lower ``vs_text`` and ``fs_text`` (with VariantKeys ``vs_key``,
    ``fs_key``) at ``version``, draw triangles, read the RGBA32F target.

    ``attributes[i]`` (``(N, 4)`` floats) feeds the VS's ``IN[i]``.  With
    ``samples`` > 0 the target is multisampled and every sample is returned.
    Lowering errors (UnsupportedError ...) propagate to the caller.
    """
    vs = gl.lower(vs_text, version, **({} if vs_key is None else {"key": vs_key}))
    fs = gl.lower(fs_text, version, **({} if fs_key is None else {"key": fs_key}))
    ctx = gl.ctx
    width, height = size
    n = len(attributes[0]) if vertices is None else vertices
    with ctx:
        prog = ctx.program(vertex_shader=vs.source, fragment_shader=fs.source)
        target = ctx.texture((width, height), 4, dtype="f4", samples=samples)
        fbo = ctx.framebuffer(color_attachments=[target])
        content, keep = _attribute_content(ctx, prog, vs.reflection, attributes)
        vao = ctx.vertex_array(prog, content)
        try:
            keep += gl._bind_resources(prog, fs.reflection, {}, {}, (width, height))
            fbo.use()
            fbo.viewport = (0, 0, width, height)
            fbo.clear(*clear)
            vao.render(gl.moderngl.TRIANGLES, vertices=n)
            if samples:
                positions = sample_positions(gl, fbo, samples)
                words = read_samples(gl, target, samples, size)
            else:
                positions = None
                words = np.frombuffer(fbo.read(components=4, dtype="f4"), dtype=U32).reshape(1, height, width, 4)
        finally:
            for obj in keep + [vao, fbo, target, prog]:
                obj.release()
    return DrawResult(words, positions)


def capture_gs(
    gl, vs_text: str, gs_text: str, version: int, attributes: Sequence[np.ndarray], *, capacity: int = 16
) -> dict[int, np.ndarray]:
    """Lower a VS and a GS, draw ``len(attributes[0])`` points, capture every stream's outputs.

    Returns ``{stream: (capacity, 4 * k) uint32}`` with the k OUT registers of
    that stream in OUT index order (POSITION as ``gl_Position``), one row per
    captured vertex; rows past the last emitted vertex keep SENTINEL_WORD.
    """
    vs = gl.lower(vs_text, version)
    gs = gl.lower(gs_text, version)
    streams = sorted({o.stream for o in gs.reflection.outputs})
    # The GL name of a member of an output block without an instance name is the
    # member's own name (not the reflection's xfb_name: see test_reflection_xfb_names_link).
    per_stream: dict[int, list[str]] = {
        s: [o.name for o in sorted(gs.reflection.outputs, key=lambda o: o.index) if o.stream == s] for s in streams
    }
    varyings: list[str] = []
    for k, s in enumerate(streams):
        if k:
            varyings.append("gl_NextBuffer")
        varyings += per_stream[s]
    ctx = gl.ctx
    with ctx:
        prog = ctx.program(
            vertex_shader=vs.source, geometry_shader=gs.source, varyings=varyings, varyings_capture_mode="interleaved"
        )
        content, keep = _attribute_content(ctx, prog, vs.reflection, attributes)
        vao = ctx.vertex_array(prog, content)
        bufs = []
        for s in streams:
            words = 4 * len(per_stream[s]) * capacity
            bufs.append(ctx.buffer(np.full(words, SENTINEL_WORD, dtype=U32).tobytes()))
        # A surfaceless EGL context has no default framebuffer and Mesa checks
        # framebuffer completeness even with rasterizer discard on: bind a 1x1 one.
        dummy = ctx.texture((1, 1), 4, dtype="f4")
        fbo = ctx.framebuffer(color_attachments=[dummy])
        keep += [fbo, dummy]
        try:
            fbo.use()
            vao.transform(bufs, gl.moderngl.POINTS, vertices=len(attributes[0]))
            ctx.finish()
            out = {
                s: np.frombuffer(b.read(), dtype=U32).reshape(capacity, -1).copy()
                for s, b in zip(streams, bufs, strict=True)
            }
        finally:
            for obj in keep + bufs + [vao, prog]:
                obj.release()
    return out


__all__ = [
    "StageHarness",
    "stage_harness",
    "RawTexture",
    "cube_array_texture",
    "shadow_cube_texture",
    "render_full_screen",
    "draw",
    "capture_gs",
    "read_samples",
    "sample_positions",
    "DrawResult",
    "SENTINEL_WORD",
]
