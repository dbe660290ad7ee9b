"""set_constant_buffer on pixels: resource ranges with offsets, user memory
(zero-padded to the declared size, uploaded through the ring), several
buffers, indirect indexing, every graphics stage's own slots; binding rules.

Expected values are the constants written, picked by hand-derived indices.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Cap,
    ConstantBuffer,
    Format,
    InvalidArgumentError,
    ObjectDestroyedError,
    ResourceTemplate,
    ShaderState,
    ShaderType,
    Target,
    UnsupportedError,
)
from glpipe.dirty import Dirty

from .util_blend_dsa import CountingGL
from .util_sampling import Sampling, delivered_caps


def _const_buffer(screen, data: np.ndarray, extra: int = 0):
    """A BUFFER resource (CONSTANT_BUFFER bind) holding ``data`` at byte ``extra``."""
    raw = np.zeros(extra + data.nbytes, np.uint8)
    raw[extra:] = np.frombuffer(np.ascontiguousarray(data).tobytes(), np.uint8)
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=raw.nbytes, bind=Bind.CONSTANT_BUFFER)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, raw.nbytes, raw)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    return res


def _fs_const(decls: str, body: str) -> str:
    return f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n{decls}{body}"


_READ_C2 = _fs_const("DCL CONST[0][0..3]\n", "  0: MOV OUT[0], CONST[0][2]\n  1: END\n")
_ONE_PIXEL = ((0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))


def _vec4s(n, base=0.0):
    return (np.arange(4 * n, dtype=np.float32) + base).reshape(n, 4)


def test_resource_with_offset(screen, ctx):
    """CONST[0][2] reads vec4 2 of the range that starts at buffer_offset."""
    align = screen.profile.limit("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT")
    offset = 4 * max(align, 16)
    data = _vec4s(4, 100.0)
    buf = _const_buffer(screen, data, extra=offset)
    S = Sampling(ctx, 1, 1)
    ctx.set_constant_buffer(
        ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_offset=offset, buffer_size=data.nbytes)
    )
    np.testing.assert_array_equal(S.draw(_READ_C2, *_ONE_PIXEL)[0, 0], data[2])
    # buffer_size 0: to the end of the buffer; a lower offset shifts the vec4s.
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_offset=offset))
    np.testing.assert_array_equal(S.draw(_READ_C2, *_ONE_PIXEL)[0, 0], data[2])
    step = max(align, 16)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_offset=offset - step))
    shift = step // 16  # the zero bytes before the data come first
    np.testing.assert_array_equal(S.draw(_READ_C2, *_ONE_PIXEL)[0, 0], data[2 - shift] if shift <= 2 else 0)


def test_unaligned_offset_is_refused_naming_the_alignment(screen, ctx):
    align = screen.profile.limit("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT")
    assert delivered_caps(screen).param[Cap.CONSTANT_BUFFER_OFFSET_ALIGNMENT] == align
    buf = _const_buffer(screen, _vec4s(8))
    with pytest.raises(InvalidArgumentError, match=f"CONSTANT_BUFFER_OFFSET_ALIGNMENT = {align}"):
        ctx.set_constant_buffer(
            ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_offset=align + 4, buffer_size=16)
        )
    with pytest.raises(InvalidArgumentError, match="exceed"):
        ctx.set_constant_buffer(
            ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_offset=0, buffer_size=buf.width0 + 16)
        )


def test_user_buffer_is_copied_and_counted(screen, ctx):
    """User memory is copied at set time: changing the array afterwards does
    not change what the draw reads.  bytes_uploaded grows by the upload."""
    S = Sampling(ctx, 1, 1)
    data = _vec4s(4, 7.0)
    before = screen.counters.bytes_uploaded
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=data))
    expect = data[2].copy()
    data[2] = -1.0
    np.testing.assert_array_equal(S.draw(_READ_C2, *_ONE_PIXEL)[0, 0], expect)
    assert screen.counters.bytes_uploaded - before >= 64


def test_short_user_buffer_and_unbound_buffer_read_zero(screen, ctx):
    """A user buffer shorter than the declared CONST[0][0..3] is zero-padded;
    a declared buffer with nothing bound reads zeros."""
    S = Sampling(ctx, 1, 1)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=_vec4s(2, 1.0)))
    np.testing.assert_array_equal(S.draw(_READ_C2, *_ONE_PIXEL)[0, 0], np.zeros(4))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, None)
    np.testing.assert_array_equal(S.draw(_READ_C2, *_ONE_PIXEL)[0, 0], np.zeros(4))


def test_multiple_buffers_and_buffer_in_buffer_field(screen, ctx):
    """CONST[1][n] is constant buffer 1 (2D addressing): three buffers, one a
    resource, one user memory given in ``buffer`` (docs/api.md "User memory" allows both)."""
    fs = _fs_const(
        "DCL CONST[0][0..1]\nDCL CONST[1][0..2]\nDCL CONST[2][0..0]\nDCL TEMP[0]\n",
        "  0: ADD TEMP[0], CONST[0][1], CONST[1][2]\n  1: ADD OUT[0], TEMP[0], CONST[2][0]\n  2: END\n",
    )
    c0, c1, c2 = _vec4s(2, 1.0), _vec4s(3, 1000.0), np.array([[0.5, 0.25, 0.125, 0.0625]], np.float32)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=c0))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 1, ConstantBuffer(buffer=_const_buffer(screen, c1)))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 2, ConstantBuffer(buffer=c2))
    S = Sampling(ctx, 1, 1)
    np.testing.assert_array_equal(S.draw(fs, *_ONE_PIXEL)[0, 0], c0[1] + c1[2] + c2[0])


def test_indirect_indexing(screen, ctx):
    """CONST[0][ADDR[0].x + 1] with ADDR from the pixel's x: pixel i reads vec4 i + 1."""
    fs = _fs_const(
        "DCL CONST[0][0..8]\nDCL ADDR[0]\n",
        "  0: ARL ADDR[0].x, IN[0].xxxx\n  1: MOV OUT[0], CONST[0][ADDR[0].x+1]\n  2: END\n",
    )
    data = _vec4s(9, 0.5)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=data))
    S = Sampling(ctx, 8, 1)
    img = S.draw(fs, (0, 0.5, 0, 1), (8, 0.5, 0, 1))  # x = i + 0.5 at pixel i: ARL floors to i
    np.testing.assert_array_equal(img[0], data[1:9])


def test_vertex_stage_has_its_own_buffers(screen, ctx):
    """VS constant buffer 0 and FS constant buffer 0 are different slots."""
    vs = (
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL CONST[0][0..1]\n"
        "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], CONST[0][1]\n  2: END\n"
    )
    fs = _fs_const("DCL CONST[0][0..0]\n", "  0: ADD OUT[0], IN[0], CONST[0][0]\n  1: END\n")
    S = Sampling(ctx, 2, 2)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    vconst, fconst = _vec4s(2, 10.0), _vec4s(1, 0.25)
    ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=vconst))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=fconst))
    img = S.draw(fs, *_ONE_PIXEL)
    np.testing.assert_array_equal(img, np.broadcast_to(vconst[1] + fconst[0], img.shape))


def test_ring_wraps_and_reuploads_live_buffers(screen, ctx):
    """Many large user uploads overflow the streaming ring; every draw still
    reads its own constants, and a buffer set before the wrap and used after
    it (another stage's) is uploaded again."""
    n = 4096  # 64 KiB per upload: the GL minimum max block size is 16 KiB, the host's is larger
    n = min(n, screen.profile.limit("GL_MAX_UNIFORM_BLOCK_SIZE") // 16)
    fs = _fs_const(f"DCL CONST[0][0..{n - 1}]\nDCL TEMP[0]\n", f"  0: ADD OUT[0], CONST[0][{n - 1}], IN[0]\n  1: END\n")
    vs = (
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL CONST[0][0..0]\n"
        "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], CONST[0][0]\n  2: END\n"
    )
    S = Sampling(ctx, 1, 1)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    vconst = np.array([[0.5, 0.25, 0.125, 0.0]], np.float32)
    ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=vconst))
    for i in range(12):
        data = np.zeros((n, 4), np.float32)
        data[n - 1] = [i, 2 * i, 3 * i, 1]
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=data))
        np.testing.assert_array_equal(S.draw(fs, *_ONE_PIXEL)[0, 0], data[n - 1] + vconst[0], err_msg=f"draw {i}")


def test_redundant_sets_do_nothing(screen, ctx):
    """Setting the same resource range, or user memory with the same bytes,
    sets no dirty bit; the next draw makes no GL call for constants."""
    S = Sampling(ctx, 1, 1)
    buf = _const_buffer(screen, _vec4s(4))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_size=64))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 1, ConstantBuffer(user_buffer=_vec4s(1)))
    S.draw(_READ_C2, *_ONE_PIXEL)
    counting = CountingGL(ctx.gl)
    ctx.gl = counting
    try:
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_size=64))
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 1, ConstantBuffer(user_buffer=_vec4s(1)))
        assert not ctx.dirty & Dirty.CONSTANTS
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, buffer_size=48))
        ctx.constbuf_part._emit_constants()
        assert counting.calls == ["glBindBufferRange"]
    finally:
        ctx.gl = counting._gl


def test_argument_errors(screen, ctx):
    buf = _const_buffer(screen, _vec4s(2))
    tex = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, bind=Bind.SAMPLER_VIEW)
    )
    with pytest.raises(InvalidArgumentError, match="ConstantBuffer"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, buf)
    with pytest.raises(InvalidArgumentError, match="both"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf, user_buffer=_vec4s(1)))
    with pytest.raises(InvalidArgumentError, match="neither"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer())
    with pytest.raises(InvalidArgumentError, match="not a BUFFER"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=tex))
    with pytest.raises(InvalidArgumentError, match="PIPE_MAX_CONSTANT_BUFFERS"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 32, None)
    count = screen.bindings.stage("FRAG").ubo_count
    with pytest.raises(UnsupportedError, match="constant buffer"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, count, ConstantBuffer(user_buffer=_vec4s(1)))
    with pytest.raises(InvalidArgumentError, match="exceed"):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=_vec4s(1), buffer_size=32))


def test_destroyed_resource_fails_the_draw(screen, ctx):
    buf = _const_buffer(screen, _vec4s(4))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=buf))
    S = Sampling(ctx, 1, 1)
    screen.resource_destroy(buf)
    with pytest.raises(ObjectDestroyedError, match="constant buffer 0"):
        S.draw(_READ_C2, *_ONE_PIXEL)
