"""pipe_context::get_query_result_resource (context.rst "Queries"): results
and availability written into a buffer, in each PIPE_QUERY_TYPE_ width,
where the host has query buffer objects (QUERY_BUFFER_OBJECT); elsewhere the
cap is 0 and the call is refused."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Bind, Cap, Format, Query, QueryFlag, QueryValueType, ResourceTemplate, Target
from lowering.errors import InvalidArgumentError, UnsupportedError

from .util_query import rect, scene


def _buffer(screen, nbytes=64):
    bind = Bind.QUERY_BUFFER if screen.profile.has("query_buffer_object") else Bind.VERTEX_BUFFER
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=nbytes, bind=bind)
    )
    gl = screen.host.gl
    fill = np.full(nbytes, 0xAB, np.uint8)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, nbytes, fill)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    return res


def _read(screen, res) -> bytes:
    gl = screen.host.gl
    gl.glFinish()
    out = np.zeros(res.width0, np.uint8)
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
    gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, res.width0, out)
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
    return out.tobytes()


def _counted(ctx, *rects, qtype=Query.OCCLUSION_COUNTER):
    q = ctx.create_query(qtype)
    ctx.begin_query(q)
    for r in rects:
        rect(ctx, *r)
    ctx.end_query(q)
    return q


def test_results_and_availability_into_a_buffer(screen, ctx):
    if not screen.profile.has("query_buffer_object"):
        assert screen.get_param(Cap.QUERY_BUFFER_OBJECT) == 0
        scene(ctx)
        q = _counted(ctx, (0, 0, 10, 10))
        with pytest.raises(UnsupportedError):
            ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.U64, 0, _buffer(screen), 0)
        return
    assert screen.get_param(Cap.QUERY_BUFFER_OBJECT) == 1
    scene(ctx)
    q = _counted(ctx, (20, 30, 220, 180))
    buf = _buffer(screen)
    ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.U64, 0, buf, 8)
    ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.U32, 0, buf, 16)
    ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.I32, -1, buf, 20)  # availability
    data = _read(screen, buf)
    assert data[:8] == b"\xab" * 8  # untouched before the offset
    assert int.from_bytes(data[8:16], "little") == 30000
    assert int.from_bytes(data[16:20], "little") == 30000
    assert int.from_bytes(data[20:24], "little") == 1
    assert data[24:] == b"\xab" * 40


def test_nested_and_predicate_results_into_a_buffer(screen, ctx):
    """A query made of several host segments (nesting) and a predicate give
    the same values get_query_result gives."""
    if not screen.profile.has("query_buffer_object"):
        pytest.skip("refusal proven by test_results_and_availability_into_a_buffer")
    scene(ctx)
    outer = ctx.create_query(Query.OCCLUSION_COUNTER)
    inner = ctx.create_query(Query.OCCLUSION_PREDICATE)
    ctx.begin_query(outer)
    rect(ctx, 0, 0, 10, 10)
    ctx.begin_query(inner)
    rect(ctx, 0, 0, 5, 5)
    ctx.end_query(inner)
    rect(ctx, 0, 0, 1, 1)
    ctx.end_query(outer)
    buf = _buffer(screen)
    ctx.get_query_result_resource(outer, QueryFlag.WAIT, QueryValueType.I64, 0, buf, 0)
    ctx.get_query_result_resource(inner, QueryFlag.WAIT, QueryValueType.U32, 0, buf, 8)
    data = _read(screen, buf)
    assert int.from_bytes(data[0:8], "little") == 126
    assert int.from_bytes(data[8:12], "little") == 1


def test_32_bit_results_saturate(screen, ctx):
    """A result too large for the 32-bit type is clamped to its maximum
    (as GL's 32-bit query getters and Mesa's drivers do)."""
    if not screen.profile.has("query_buffer_object"):
        pytest.skip("refusal proven by test_results_and_availability_into_a_buffer")
    ts = ctx.create_query(Query.TIMESTAMP)
    ctx.end_query(ts)
    value = ctx.get_query_result(ts, True)
    assert value > 2**32  # a nanosecond clock since boot
    buf = _buffer(screen)
    ctx.get_query_result_resource(ts, QueryFlag.WAIT, QueryValueType.U32, 0, buf, 0)
    ctx.get_query_result_resource(ts, QueryFlag.WAIT, QueryValueType.I32, 0, buf, 4)
    ctx.get_query_result_resource(ts, QueryFlag.WAIT, QueryValueType.U64, 0, buf, 8)
    data = _read(screen, buf)
    assert int.from_bytes(data[0:4], "little") == 2**32 - 1
    assert int.from_bytes(data[4:8], "little") == 2**31 - 1
    assert int.from_bytes(data[8:16], "little") == value


def test_result_resource_bad_arguments(screen, ctx):
    if not screen.profile.has("query_buffer_object"):
        pytest.skip("refusal proven by test_results_and_availability_into_a_buffer")
    scene(ctx)
    q = _counted(ctx, (0, 0, 2, 2))
    buf = _buffer(screen, 16)
    with pytest.raises(InvalidArgumentError, match="outside"):
        ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.U64, 0, buf, 12)
    with pytest.raises(InvalidArgumentError):
        ctx.get_query_result_resource(q, QueryFlag.WAIT, 7, 0, buf, 0)
    with pytest.raises(InvalidArgumentError):
        ctx.get_query_result_resource(q, 0x80, QueryValueType.U64, 0, buf, 0)
    with pytest.raises(InvalidArgumentError):
        ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.U64, 1, buf, 0)
    with pytest.raises(InvalidArgumentError):
        ctx.get_query_result_resource(q, QueryFlag.WAIT, QueryValueType.U64, 0, "buffer", 0)
