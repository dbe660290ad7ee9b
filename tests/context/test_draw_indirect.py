"""draw_vbo with a DrawIndirectInfo: indirect and multi-draw indirect
commands, count buffers, draw parameters in the shader; on hosts without
indirect draws (gl33) the commands are read back and unrolled
(docs/stream_output.md "Indirect draws").  Which vertices were drawn is
read from a stream output capture of each vertex's attribute, in order."""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import Bind, DrawIndirectInfo, DrawInfo, Prim, ShaderState, StreamOutput, StreamOutputInfo, VertexBuffer

from .util import vertex_buffer
from .util_draw import setup
from .util_so import SENTINEL, SO_VS, inputs, read_words, sentinel_buffer

CAPTURE_ATTR = StreamOutputInfo(stride=(4,), output=(StreamOutput(register_index=1, num_components=4),))


def prepare(ctx, n, vs=SO_VS, so=CAPTURE_ATTR):
    """SO_VS capturing IN[1] per vertex, ``n`` vertices bound, a 256-word
    capture buffer bound at offset 0; returns (rows, capture buffer, target)."""
    setup(ctx, vs=vs)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs, stream_output=so)))
    rows = inputs(n)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(ctx.screen, rows), stride=32)])
    cap = sentinel_buffer(ctx.screen, 256)
    t = ctx.create_stream_output_target(cap, 0, 1024)
    ctx.set_stream_output_targets([t], [0])
    return rows, cap, t


def commands(screen, rows, pad_words=0):
    """An indirect buffer of uint32 command rows (GLint fields two's complement), each padded."""
    arr = np.array(rows, np.int64)
    if pad_words:
        arr = np.concatenate([arr, np.full((len(arr), pad_words), 7, np.int64)], axis=1)
    return vertex_buffer(screen, (arr & 0xFFFFFFFF).astype(np.uint32), bind=Bind.COMMAND_ARGS_BUFFER)


def expect_vertices(rows, order, nwords=256):
    out = np.full(nwords, SENTINEL, np.uint32)
    out[: 4 * len(order)] = rows[order, 4:].view(np.uint32).reshape(-1)
    return out


def test_multi_draw_indirect_arrays(screen, ctx):
    rows, cap, _t = prepare(ctx, 16)
    buf = commands(screen, [(3, 1, 2, 0), (2, 2, 10, 0), (0, 5, 1, 0)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS), None, DrawIndirectInfo(buffer=buf, draw_count=3, stride=16))
    np.testing.assert_array_equal(read_words(screen, cap), expect_vertices(rows, [2, 3, 4, 10, 11, 10, 11]))


def test_multi_draw_indirect_indexed_with_stride_and_offset(screen, ctx):
    """Elements commands 32 bytes apart from byte 8, a negative base vertex."""
    rows, cap, _t = prepare(ctx, 16)
    index = vertex_buffer(screen, np.array([5, 6, 7, 8, 9, 3, 1], np.uint16), bind=Bind.INDEX_BUFFER)
    cmds = np.array([(2, 1, 3, 4, 0, 7, 7, 7), (3, 1, 0, -2, 0, 7, 7, 7)], np.int64)
    raw = np.concatenate([np.zeros(2, np.int64), cmds.reshape(-1)])
    buf = vertex_buffer(screen, (raw & 0xFFFFFFFF).astype(np.uint32), bind=Bind.COMMAND_ARGS_BUFFER)
    info = DrawInfo(mode=Prim.POINTS, index_size=2, index=index)
    ctx.draw_vbo(info, None, DrawIndirectInfo(buffer=buf, offset=8, draw_count=2, stride=32))
    # command 0: indices 8, 9 + 4; command 1: indices 5, 6, 7 - 2
    np.testing.assert_array_equal(read_words(screen, cap), expect_vertices(rows, [12, 13, 3, 4, 5]))


@pytest.mark.parametrize("count, drawn", [(1, [2, 3]), (5, [2, 3, 7])])
def test_count_buffer(screen, ctx, count, drawn):
    """min(count read from the buffer, draw_count) commands are drawn."""
    rows, cap, _t = prepare(ctx, 16)
    buf = commands(screen, [(2, 1, 2, 0), (1, 1, 7, 0)])
    counts = vertex_buffer(screen, np.array([99, count], np.uint32), bind=Bind.COMMAND_ARGS_BUFFER)
    indirect = DrawIndirectInfo(
        buffer=buf, draw_count=2, stride=16, indirect_draw_count=counts, indirect_draw_count_offset=4
    )
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS), None, indirect)
    np.testing.assert_array_equal(read_words(screen, cap), expect_vertices(rows, drawn))


def test_out_of_range_commands_refused_before_drawing(screen, ctx):
    rows, cap, t = prepare(ctx, 16)
    buf = commands(screen, [(2, 1, 2, 0), (1, 1, 7, 0)])
    index = vertex_buffer(screen, np.arange(4, dtype=np.uint16), bind=Bind.INDEX_BUFFER)
    bad = [
        (DrawInfo(mode=Prim.POINTS), DrawIndirectInfo(buffer=buf, draw_count=3, stride=16), "past the buffer"),
        (DrawInfo(mode=Prim.POINTS), DrawIndirectInfo(buffer=buf, offset=4, draw_count=2), "past the buffer"),
        (DrawInfo(mode=Prim.POINTS), DrawIndirectInfo(buffer=buf, draw_count=2, stride=8), "stride"),
        (DrawInfo(mode=Prim.POINTS), DrawIndirectInfo(buffer=buf, offset=2, draw_count=1), "multiples of 4"),
        (
            DrawInfo(mode=Prim.POINTS),
            DrawIndirectInfo(buffer=buf, draw_count=1, indirect_draw_count=buf, indirect_draw_count_offset=32),
            "indirect_draw_count_offset",
        ),
        (DrawInfo(mode=Prim.POINTS), DrawIndirectInfo(buffer=None, draw_count=1), "buffer"),
    ]
    for info, indirect, match in bad:
        with pytest.raises(glpipe.InvalidArgumentError, match=match):
            ctx.draw_vbo(info, None, indirect)
    assert t.filled == 0
    np.testing.assert_array_equal(read_words(screen, cap), np.full(256, SENTINEL, np.uint32))
    del index, rows


DRAW_PARAMS_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL SV[0], DRAWID
DCL SV[1], BASEVERTEX
DCL SV[2], BASEINSTANCE
DCL SV[3], INSTANCEID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1].x, SV[0].xxxx
  2: MOV OUT[1].y, SV[1].xxxx
  3: MOV OUT[1].z, SV[2].xxxx
  4: MOV OUT[1].w, SV[3].xxxx
  5: END
"""


def test_draw_parameters_in_the_shader(screen, ctx):
    """DRAWID is the command's index, BASEVERTEX its base vertex (0 for
    arrays), BASEINSTANCE its base instance.  Where PIPE_CAP_DRAW_PARAMETERS
    is 0 the shader is refused."""
    if not screen.get_param(glpipe.Cap.DRAW_PARAMETERS):
        setup(ctx)
        with pytest.raises(glpipe.PipeError, match="DRAWID|BASEVERTEX|BASEINSTANCE|draw_parameters"):
            vs = ctx.create_vs_state(ShaderState(tokens=DRAW_PARAMS_VS, stream_output=CAPTURE_ATTR))
            ctx.bind_vs_state(vs)
            ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
        return
    _rows, cap, _t = prepare(ctx, 16, vs=DRAW_PARAMS_VS)
    index = vertex_buffer(screen, np.array([0, 1, 2, 3], np.uint16), bind=Bind.INDEX_BUFFER)
    buf = commands(screen, [(1, 1, 0, 3, 0), (2, 2, 1, 5, 4)])
    info = DrawInfo(mode=Prim.POINTS, index_size=2, index=index)
    ctx.draw_vbo(info, None, DrawIndirectInfo(buffer=buf, draw_count=2, stride=20))
    got = read_words(screen, cap)[:20].reshape(5, 4)
    # (drawid, base vertex, base instance, instance id: gl_InstanceID counts from 0)
    expect = [(0, 3, 0, 0), (1, 5, 4, 0), (1, 5, 4, 0), (1, 5, 4, 1), (1, 5, 4, 1)]
    np.testing.assert_array_equal(got, np.array(expect, np.uint32))
