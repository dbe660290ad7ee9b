"""Its own GL context, always: glpipe mixed with other GL contexts on one thread.

An application may use other GL contexts on the thread glpipe runs on (a
ModernGL context entered with ``with other:`` or just created, a window
library's, another glpipe screen's).  Every glpipe entry point that touches
GL must run on glpipe's own context whatever is current (docs/api.md
"Contexts and threads"): these tests interleave glpipe calls with other
contexts and check every byte glpipe writes and reads back, and that the
other contexts' objects are untouched.  Expected values are the bytes the
tests wrote, or colours summed in numpy.
"""

from __future__ import annotations

import ctypes

import moderngl
import numpy as np
import pytest
from conftest import PROFILES, get_screen

from glpipe import (
    Blend,
    BlendFactor,
    BlendState,
    Clear,
    DrawInfo,
    FramebufferState,
    Prim,
    RasterizerState,
    RTBlendState,
    ShaderState,
    SurfaceTemplate,
    VertexBuffer,
    VertexElement,
    ViewportState,
)
from glpipe.enums import Bind, Map, Target
from glpipe.formats import Format
from glpipe.templates import Box, ResourceTemplate

SIZE = 8
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""
FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""
# Additive blending: every draw that reaches the render target adds its colour once.
ADD = BlendState(
    rt=(
        RTBlendState(
            blend_enable=True,
            rgb_func=Blend.ADD,
            rgb_src_factor=BlendFactor.ONE,
            rgb_dst_factor=BlendFactor.ONE,
            alpha_func=Blend.ADD,
            alpha_src_factor=BlendFactor.ONE,
            alpha_dst_factor=BlendFactor.ONE,
        ),
    )
    + (RTBlendState(),) * 7
)
RGBA = (0.125, 0.25, 0.0625, 0.5)  # exact in float32, and so are their small multiples


def _other_context() -> moderngl.Context:
    """A standalone ModernGL context, as an application makes one: current from now on."""
    return moderngl.create_context(standalone=True, backend="egl")


def _steal(other: moderngl.Context) -> None:
    """Make ``other`` current and leave it so (a ``with`` block that is never left)."""
    other.__enter__()


def _buffer(screen, nbytes: int):
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=nbytes, bind=Bind.VERTEX_BUFFER)
    )


def _read_buffer(ctx, res) -> bytes:
    t = ctx.transfer_map(res, 0, Map.READ, Box(0, 0, 0, res.width0, 1, 1))
    try:
        return bytes(np.asarray(t.data).reshape(-1)[: res.width0])
    finally:
        ctx.transfer_unmap(t)


def _read_texture(ctx, res) -> np.ndarray:
    """An RGBA32F 2D texture's texels, (h, w, 4), through transfer_map READ."""
    t = ctx.transfer_map(res, 0, Map.READ, Box(0, 0, 0, res.width0, res.height0, 1))
    try:
        rows = np.asarray(t.data).reshape(-1)[: t.stride * res.height0].reshape(res.height0, t.stride)
        return rows[:, : 16 * res.width0].copy().view(np.float32).reshape(res.height0, res.width0, 4)
    finally:
        ctx.transfer_unmap(t)


def _scene(ctx):
    """An RGBA32F SIZE x SIZE target cleared to zero, additive blending, and a
    full-viewport triangle of colour RGBA; returns (target, DrawInfo)."""
    screen = ctx.screen
    color = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R32G32B32A32_FLOAT,
            width0=SIZE,
            height0=SIZE,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        )
    )
    surf = ctx.create_surface(color, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
    ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
    half = SIZE / 2
    ctx.set_viewport_states(0, [ViewportState(scale=(half, half, 0.5), translate=(half, half, 0.5))])
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS)))
    f4 = Format.R32G32B32A32_FLOAT
    ctx.bind_vertex_elements_state(
        ctx.create_vertex_elements_state(
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=f4),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=f4),
            ]
        )
    )
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState()))
    ctx.bind_blend_state(ctx.create_blend_state(ADD))
    verts = np.array([[-1, -1, 0, 1, *RGBA], [3, -1, 0, 1, *RGBA], [-1, 3, 0, 1, *RGBA]], np.float32)
    vb = _buffer(screen, verts.nbytes)
    ctx.buffer_subdata(vb, Map.WRITE, 0, verts)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)
    return color, DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)


def _times(n: int) -> np.ndarray:
    return np.broadcast_to(np.float32(n) * np.array(RGBA, np.float32), (SIZE, SIZE, 4))


def test_buffer_subdata_after_with_other(screen, ctx):
    """The application made a ModernGL context, used it in ``with other:``
    (which leaves it current), then calls glpipe: the write lands in
    glpipe's buffer, and the other context's buffer keeps its bytes."""
    res = _buffer(screen, 256)
    mine = np.random.default_rng(1).integers(0, 256, 256, dtype=np.uint8)
    theirs = np.random.default_rng(2).integers(0, 256, 256, dtype=np.uint8)
    other = _other_context()
    try:
        with other:
            obuf = other.buffer(theirs.tobytes())
        ctx.buffer_subdata(res, Map.WRITE, 0, mine)
        assert _read_buffer(ctx, res) == mine.tobytes()
        with other:
            assert obuf.read() == theirs.tobytes(), "glpipe wrote into the other context"
        ctx.buffer_subdata(res, Map.WRITE, 16, mine[:32])
        expected = mine.copy()
        expected[16:48] = mine[:32]
        assert _read_buffer(ctx, res) == expected.tobytes()
    finally:
        other.release()
        screen.resource_destroy(res)


def test_transfers_after_create_context(screen, ctx):
    """moderngl.create_context() makes the new context current: glpipe's
    buffer and texture transfers after it still address glpipe's objects."""
    buf = _buffer(screen, 64)
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R32G32B32A32_FLOAT, width0=4, height0=4, bind=Bind.SAMPLER_VIEW
        )
    )
    data = np.arange(64, dtype=np.uint8)[::-1].copy()
    texels = np.arange(64, dtype=np.float32).reshape(4, 4, 4) * 0.5 - 3.0
    other = _other_context()
    try:
        ctx.buffer_subdata(buf, Map.WRITE, 0, data)
        ctx.texture_subdata(tex, 0, Map.WRITE, Box(0, 0, 0, 4, 4, 1), texels, 64, 256)
        _steal(other)
        assert _read_buffer(ctx, buf) == data.tobytes()
        _steal(other)
        assert np.array_equal(_read_texture(ctx, tex), texels)
        _steal(other)
        t = ctx.transfer_map(buf, 0, Map.WRITE, Box(8, 0, 0, 8, 1, 1))
        np.asarray(t.data).reshape(-1)[:8] = 0xAB
        _steal(other)
        ctx.transfer_unmap(t)
        _steal(other)
        expected = data.copy()
        expected[8:16] = 0xAB
        assert _read_buffer(ctx, buf) == expected.tobytes()
    finally:
        other.release()
        screen.resource_destroy(buf)
        screen.resource_destroy(tex)


def test_draws_and_readbacks_between_other_contexts(screen, ctx):
    """Draws (the fast path included: nothing changes between them) with
    another context made current before each: every draw reaches glpipe's
    render target once, and the read-back sees all of them."""
    color, info = _scene(ctx)
    other = _other_context()
    try:
        ctx.draw_vbo(info)
        ctx.draw_vbo(info)  # nothing dirty: the fast path from here on
        _steal(other)
        ctx.draw_vbo(info)
        with other:
            ctx.draw_vbo(info)  # inside the other's ``with`` block
        _steal(other)
        ctx.draw_vbo(info)
        _steal(other)
        img = _read_texture(ctx, color)
    finally:
        other.release()
    assert np.array_equal(img, _times(5)), "a draw went to another context (or twice to ours)"


def test_second_screen_and_moderngl_interleaved(profile, screen, ctx):
    """Two glpipe screens (each its own GL context) and a ModernGL context,
    used in turn on one thread: each screen's draws and transfers stay its
    own, byte for byte, and the ModernGL context's buffer is untouched."""
    second = get_screen(next(p for p in PROFILES if p != profile))
    screen.host.make_current()
    octx = second.context_create()
    other = _other_context()
    try:
        with other:
            theirs = other.buffer(b"\x5a" * 128)
        color, info = _scene(ctx)
        ocolor, oinfo = _scene(octx)
        for _ in range(3):
            # Each screen twice in a row with the ModernGL context made current in
            # between, and the screens alternating.
            ctx.draw_vbo(info)
            _steal(other)
            ctx.draw_vbo(info)
            octx.draw_vbo(oinfo)
            _steal(other)
            octx.draw_vbo(oinfo)
        buf, obuf = _buffer(screen, 32), _buffer(second, 32)
        ctx.buffer_subdata(buf, Map.WRITE, 0, bytes(range(32)))
        octx.buffer_subdata(obuf, Map.WRITE, 0, bytes(range(100, 132)))
        _steal(other)
        assert _read_buffer(octx, obuf) == bytes(range(100, 132))
        assert _read_buffer(ctx, buf) == bytes(range(32))
        _steal(other)
        assert _read_buffer(ctx, buf) == bytes(range(32))
        assert np.array_equal(_read_texture(ctx, color), _times(6))
        assert np.array_equal(_read_texture(octx, ocolor), _times(6))
        with other:
            assert theirs.read() == b"\x5a" * 128
    finally:
        octx.destroy()
        other.release()
        screen.host.make_current()


def test_caller_context_is_not_restored(screen, ctx):
    """docs/api.md "Contexts and threads": after a glpipe call glpipe's
    context stays current (restoring the caller's on every call would cost
    two context switches per call); an application re-enters its own."""
    egl = ctypes.CDLL("libEGL.so.1")
    current = ctypes.CFUNCTYPE(ctypes.c_void_p)(("eglGetCurrentContext", egl))
    other = _other_context()
    try:
        theirs = current()
        buf = _buffer(screen, 16)
        ctx.buffer_subdata(buf, Map.WRITE, 0, bytes(16))
        assert current() != theirs
        with other:
            assert current() == theirs
            assert other.buffer(b"abcd").read() == b"abcd"
        screen.resource_destroy(buf)
    finally:
        other.release()


@pytest.mark.parametrize("entry", ["flush", "clear", "set_framebuffer_state"])
def test_other_entry_points_after_other_context(screen, ctx, entry):
    """Entry points beyond transfers and draws make glpipe's context current
    too: a clear after another context was made current clears glpipe's
    target; flush and set_framebuffer_state leave no GL error behind."""
    color, info = _scene(ctx)
    ctx.draw_vbo(info)
    other = _other_context()
    try:
        _steal(other)
        if entry == "flush":
            ctx.flush()
        elif entry == "clear":
            ctx.clear(Clear.COLOR0, None, (0.5, 0.25, 0.125, 1.0), 1.0, 0)
        else:
            surf = ctx.create_surface(color, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
            _steal(other)
            ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
        _steal(other)
        ctx.draw_vbo(info)
        _steal(other)
        img = _read_texture(ctx, color)
        screen.host.make_current()
        assert screen.host.clear_errors() == []
    finally:
        other.release()
    base = np.array((0.5, 0.25, 0.125, 1.0), np.float32) if entry == "clear" else _times(1)[0, 0]
    assert np.array_equal(img, np.broadcast_to(base + np.array(RGBA, np.float32), (SIZE, SIZE, 4)))
