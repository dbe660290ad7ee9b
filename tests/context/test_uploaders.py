"""ctx.stream_uploader / ctx.const_uploader: u_upload_mgr's semantics
(context.rst "Uploading"): aligned, non-overlapping sub-allocations of STREAM
buffers, a new buffer when one is full, writes visible after unmap,
persistent coherent mappings where the host has buffer storage."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from glpipe import DrawInfo, Prim, VertexBuffer
from glpipe.errors import InvalidArgumentError

from .util import read_rgba32f
from .util_blits import read_buffer
from .util_draw import setup, vertices


def test_alloc_is_aligned_disjoint_and_lands_in_the_buffer(ctx, screen):
    up = ctx.stream_uploader
    assert up.persistent == screen.profile.has("buffer_storage")
    got = []
    for i, (size, align) in enumerate([(10, 4), (3, 1), (100, 256), (7, 64), (64, 16)]):
        offset, res, view = up.alloc(0, size, align)
        assert offset % align == 0 and view.shape == (size,)
        view[:] = i + 1
        got.append((offset, size, res, i + 1))
    up.unmap()
    res = got[0][2]
    assert all(r is res for _, _, r, _ in got)
    spans = sorted((o, o + s) for o, s, _, _ in got)
    assert all(a[1] <= b[0] for a, b in zip(spans[:-1], spans[1:], strict=True))
    data = read_buffer(ctx, res)
    for offset, size, _, value in got:
        assert (data[offset : offset + size] == value).all()
    offset, res2 = up.upload_data(1000, 5, 8, b"hello")
    up.unmap()
    assert offset >= 1000 and offset % 8 == 0
    assert bytes(read_buffer(ctx, res2)[offset : offset + 5]) == b"hello"


def test_a_full_buffer_is_replaced_and_released_when_unreferenced(ctx, screen):
    """Gallium counts references to a resource; glpipe's uploader counts
    Python's: a buffer it moved past is destroyed once nobody holds it."""
    gl = screen.host.gl
    up = ctx.const_uploader
    first = up.alloc(0, 16, 16)[1]
    second = up.alloc(0, up.default_size, 256)[1]  # does not fit: a new buffer
    assert second is not first and up.buffer is second
    name = first.gl_object
    up.release_unused()
    assert not first.destroyed and gl.glIsBuffer(name)  # still referenced here
    del first
    gc.collect()
    up.release_unused()
    assert not gl.glIsBuffer(name)  # destroyed: its GL buffer is gone
    assert not second.destroyed  # the current buffer stays


def test_vertices_from_the_stream_uploader_draw(ctx, screen):
    color = setup(ctx, size=8)
    tri = vertices([(0, 0), (8, 0), (0, 8)], (0.25, 0.5, 1.0, 1.0), size=8)
    offset, res = ctx.stream_uploader.upload_data(0, tri.nbytes, 4, tri)
    ctx.stream_uploader.unmap()
    ctx.set_vertex_buffers([VertexBuffer(buffer=res, buffer_offset=offset, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    img = read_rgba32f(screen, color)
    assert np.allclose(img[0, 0], (0.25, 0.5, 1.0, 1.0)) and np.allclose(img[7, 7], 0)


def test_bad_arguments(ctx):
    up = ctx.stream_uploader
    for args in [(0, 0, 4), (0, 16, 3), (-1, 16, 4), (0, 16, 0), (0, "16", 4)]:
        with pytest.raises(InvalidArgumentError):
            up.alloc(*args)
    with pytest.raises(InvalidArgumentError):
        up.upload_data(0, 8, 4, b"abc")
    with pytest.raises(InvalidArgumentError):
        up.upload_data(0, 8, 4, 12345)
