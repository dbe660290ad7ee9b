"""Stream output: create_stream_output_target / set_stream_output_targets and
the capture of ShaderState.stream_output (docs/stream_output.md), compared
word for word with the outputs computed in numpy, on both profiles."""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import DrawInfo, Prim, ShaderState, StreamOutput, StreamOutputInfo, VertexBuffer

from .util import vertex_buffer
from .util_draw import bind_rasterizer, setup
from .util_so import SENTINEL, SO_VS, inputs, read_words, registers, sentinel_buffer


def so_info(stride, *outs):
    """StreamOutputInfo from (register, start, n, buffer, dst_offset) tuples."""
    return StreamOutputInfo(
        stride=tuple(stride),
        output=tuple(
            StreamOutput(register_index=r, start_component=s, num_components=n, output_buffer=b, dst_offset=d)
            for r, s, n, b, d in outs
        ),
    )


def prepare(ctx, n, so, vs=SO_VS):
    """Bind SO_VS capturing ``so`` and ``n`` vertices of ``inputs``; return the rows."""
    setup(ctx, vs=vs)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs, stream_output=so or StreamOutputInfo())))
    rows = inputs(n)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(ctx.screen, rows), stride=32)])
    return rows


def expected_layout(regs, stride, outs, buffer=0, nwords=None, base=0):
    """The words a capture of ``regs`` (n, 3, 4) writes into ``buffer``,
    over a SENTINEL background (``base`` dwords before the first vertex)."""
    n = len(regs)
    nwords = nwords if nwords is not None else base + n * stride
    out = np.full(nwords, SENTINEL, np.uint32)
    words = regs.view(np.uint32)
    for v in range(n):
        for r, s, k, b, d in outs:
            if b == buffer:
                at = base + v * stride + d
                out[at : at + k] = words[v, r, s : s + k]
    return out


def test_interleaved_whole_registers(screen, ctx):
    outs = ((1, 0, 4, 0, 0), (0, 0, 4, 0, 4))
    rows = prepare(ctx, 5, so_info((8,), *outs))
    buf = sentinel_buffer(screen, 48)
    ctx.set_stream_output_targets([ctx.create_stream_output_target(buf, 0, 192)], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=5))
    np.testing.assert_array_equal(read_words(screen, buf), expected_layout(registers(rows), 8, outs, nwords=48))


def test_partial_components(screen, ctx):
    outs = ((1, 1, 2, 0, 0), (2, 0, 3, 0, 2))  # GENERIC[0].yz then GENERIC[1].xyz
    rows = prepare(ctx, 4, so_info((5,), *outs))
    buf = sentinel_buffer(screen, 24)
    ctx.set_stream_output_targets([ctx.create_stream_output_target(buf, 0, 96)], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=4))
    np.testing.assert_array_equal(read_words(screen, buf), expected_layout(registers(rows), 5, outs, nwords=24))


def test_separate_buffers(screen, ctx):
    outs = ((2, 1, 3, 0, 0), (1, 0, 2, 1, 0))  # one output per buffer, packed: GL 3.0's separate mode
    rows = prepare(ctx, 3, so_info((3, 2), *outs))
    bufs = [sentinel_buffer(screen, 12), sentinel_buffer(screen, 12)]
    targets = [ctx.create_stream_output_target(b, 0, 48) for b in bufs]
    ctx.set_stream_output_targets(targets, [0, 0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=3))
    regs = registers(rows)
    np.testing.assert_array_equal(read_words(screen, bufs[0]), expected_layout(regs, 3, outs, 0, nwords=12))
    np.testing.assert_array_equal(read_words(screen, bufs[1]), expected_layout(regs, 2, outs, 1, nwords=12))


GAPS = ((1, 0, 2, 0, 1), (0, 3, 1, 0, 5), (2, 0, 4, 1, 2))  # gaps before, between, after; two buffers


def test_gaps_and_interleaved_buffers(screen, ctx):
    """gl_SkipComponents leaves the gap words as they were; gl_NextBuffer
    moves to the next buffer.  GL 3.3 has neither: refused at create,
    naming the field (and PIPE_CAP_STREAM_OUTPUT_INTERLEAVE_BUFFERS says 0)."""
    so = so_info((8, 7), *GAPS)
    if not screen.get_param(glpipe.Cap.STREAM_OUTPUT_INTERLEAVE_BUFFERS):
        setup(ctx, vs=SO_VS)
        with pytest.raises(glpipe.UnsupportedError, match=r"stream_output\.output\[0\]\.dst_offset"):
            ctx.create_vs_state(ShaderState(tokens=SO_VS, stream_output=so_info((8,), GAPS[0])))
        with pytest.raises(glpipe.UnsupportedError, match=r"output_buffer|dst_offset"):
            ctx.create_vs_state(ShaderState(tokens=SO_VS, stream_output=so))
        return
    rows = prepare(ctx, 4, so)
    bufs = [sentinel_buffer(screen, 40), sentinel_buffer(screen, 40)]
    targets = [ctx.create_stream_output_target(b, 0, 160) for b in bufs]
    ctx.set_stream_output_targets(targets, [0, 0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=4))
    regs = registers(rows)
    np.testing.assert_array_equal(read_words(screen, bufs[0]), expected_layout(regs, 8, GAPS, 0, nwords=40))
    np.testing.assert_array_equal(read_words(screen, bufs[1]), expected_layout(regs, 7, GAPS, 1, nwords=40))


def test_append_with_offset_minus_one(screen, ctx):
    """-1 resumes where the last capture into the target stopped, also after
    an unbind and a draw without targets; a target keeps buffer_offset."""
    outs = ((1, 0, 4, 0, 0),)
    rows = prepare(ctx, 6, so_info((4,), *outs))
    buf = sentinel_buffer(screen, 40)
    t = ctx.create_stream_output_target(buf, 8, 120)
    ctx.set_stream_output_targets([t], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=2))
    ctx.set_stream_output_targets([], [])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=6))  # not captured
    ctx.set_stream_output_targets([t], [-1])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=2, count=3))
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=5, count=1))  # still bound: appends too
    np.testing.assert_array_equal(read_words(screen, buf), expected_layout(registers(rows), 4, outs, nwords=40, base=2))


def test_overflow_discards_at_the_exact_primitive(screen, ctx):
    """A range holding 2 triangles and a half: exactly 2 are written, nothing
    past the range (nor before buffer_offset), and an append writes no more."""
    outs = ((1, 0, 4, 0, 0),)
    rows = prepare(ctx, 12, so_info((4,), *outs))
    buf = sentinel_buffer(screen, 64)
    t = ctx.create_stream_output_target(buf, 16, 2 * 3 * 16 + 24)
    ctx.set_stream_output_targets([t], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=12))
    ctx.set_stream_output_targets([t], [-1])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=3))
    expect = np.full(64, SENTINEL, np.uint32)
    expect[4 : 4 + 24] = registers(rows)[:6, 1].view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, buf), expect)


def _decompose(mode, n):
    """Vertex numbers a capture records for a draw of ``n`` vertices (GL 4.5
    core 13.2.2 / 10.1: strips and fans as independent primitives, odd strip
    triangles with their first two vertices swapped to keep the winding)."""
    if mode == Prim.LINE_STRIP:
        return [v for i in range(n - 1) for v in (i, i + 1)]
    if mode == Prim.LINE_LOOP:
        return [v for i in range(n) for v in (i, (i + 1) % n)]
    if mode == Prim.TRIANGLE_STRIP:
        return [v for i in range(n - 2) for v in ((i, i + 1, i + 2) if i % 2 == 0 else (i + 1, i, i + 2))]
    if mode == Prim.TRIANGLE_FAN:
        return [v for i in range(n - 2) for v in (0, i + 1, i + 2)]
    per = {Prim.POINTS: 1, Prim.LINES: 2, Prim.TRIANGLES: 3}[mode]
    return list(range(n - n % per))


@pytest.mark.parametrize(
    "mode",
    [Prim.POINTS, Prim.LINES, Prim.LINE_STRIP, Prim.LINE_LOOP, Prim.TRIANGLES, Prim.TRIANGLE_STRIP, Prim.TRIANGLE_FAN],
)
def test_every_primitive_type(screen, ctx, mode):
    outs = ((1, 0, 4, 0, 0),)
    n = 7
    rows = prepare(ctx, n, so_info((4,), *outs))
    buf = sentinel_buffer(screen, 4 * 3 * n)
    ctx.set_stream_output_targets([ctx.create_stream_output_target(buf, 0, 16 * 3 * n)], [0])
    ctx.draw_vbo(DrawInfo(mode=mode, count=n))
    order = _decompose(mode, n)
    expect = np.full(4 * 3 * n, SENTINEL, np.uint32)
    expect[: 4 * len(order)] = registers(rows)[order, 1].view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, buf), expect)


def test_instancing_and_indexed(screen, ctx):
    outs = ((1, 0, 4, 0, 0),)
    rows = prepare(ctx, 6, so_info((4,), *outs))
    buf = sentinel_buffer(screen, 48)
    ctx.set_stream_output_targets([ctx.create_stream_output_target(buf, 0, 192)], [0])
    idx = np.array([5, 0, 3], np.uint16)
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, index_size=2, index=idx, count=3, instance_count=2))
    expect = np.full(48, SENTINEL, np.uint32)
    expect[:24] = registers(rows)[[5, 0, 3, 5, 0, 3], 1].view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, buf), expect)


def test_capture_with_rasterization_and_discard(screen, ctx):
    """The same draw is captured and rasterized; rasterizer_discard keeps the capture."""
    outs = ((1, 0, 4, 0, 0),)
    rows = prepare(ctx, 1, so_info((4,), *outs))
    color = setup(ctx, vs=SO_VS)  # (rebinds a VS without capture: bind the capturing one again)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=SO_VS, stream_output=so_info((4,), *outs))))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, rows), stride=32)])
    fb = ctx.create_surface(color, glpipe.SurfaceTemplate(format=color.format))
    buf = sentinel_buffer(screen, 8)
    t = ctx.create_stream_output_target(buf, 0, 32)
    ctx.set_stream_output_targets([t], [0])
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=16, height=16, nr_cbufs=1, cbufs=(fb,)))
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
    from .util import read_rgba32f

    img = read_rgba32f(screen, color)
    assert np.any(np.all(np.isclose(img, rows[0, 4:]), axis=-1)), "the captured point was not rasterized"
    bind_rasterizer(ctx, rasterizer_discard=True)
    ctx.set_stream_output_targets([t], [-1])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=1))
    expect = np.tile(rows[0, 4:].view(np.uint32), 2)
    np.testing.assert_array_equal(read_words(screen, buf), expect)


def test_bad_stream_output_refused_at_create(screen, ctx):
    setup(ctx, vs=SO_VS)
    # Refused when the template is built (a field past its p_state.h
    # bitfield) or at create (past the caps, or inconsistent).
    cases = [
        (((4,), (7, 0, 4, 0, 0)), "register_index"),
        (((4,), (1, 2, 3, 0, 0)), "num_components"),
        (((3,), (1, 0, 4, 0, 0)), r"stride\[0\]"),
        (((8,), (1, 0, 4, 0, 0), (0, 0, 4, 0, 2)), "overlaps"),
        (((4,), (1, 0, 4, 9, 0)), "output_buffer"),
    ]
    for args, match in cases:
        with pytest.raises(glpipe.PipeError, match=match):
            ctx.create_vs_state(ShaderState(tokens=SO_VS, stream_output=so_info(*args)))


def test_target_checks(screen, ctx):
    buf = sentinel_buffer(screen, 16)
    with pytest.raises(glpipe.InvalidArgumentError, match="outside the buffer"):
        ctx.create_stream_output_target(buf, 32, 64)
    with pytest.raises(glpipe.InvalidArgumentError, match="multiples of 4"):
        ctx.create_stream_output_target(buf, 2, 8)
    with pytest.raises(glpipe.InvalidArgumentError, match="buffer_offset"):
        ctx.create_stream_output_target(buf, -4, 8)
    t = ctx.create_stream_output_target(buf, 0, 64)
    with pytest.raises(glpipe.InvalidArgumentError, match="offsets"):
        ctx.set_stream_output_targets([t], [0, 0])
    with pytest.raises(glpipe.InvalidArgumentError, match="multiple of 4"):
        ctx.set_stream_output_targets([t], [6])
    with pytest.raises(glpipe.InvalidArgumentError, match="StreamOutputTarget"):
        ctx.set_stream_output_targets([buf], [0])
    ctx.set_stream_output_targets([t], [0])
    ctx.stream_output_target_destroy(t)  # unbinds it
    assert ctx.stream_output_part.targets == ()
    with pytest.raises(glpipe.ObjectDestroyedError):
        ctx.set_stream_output_targets([t], [0])


def test_unbound_buffer_the_shader_writes(screen, ctx):
    prepare(ctx, 2, so_info((4, 4), (1, 0, 4, 0, 0), (0, 0, 4, 1, 0)))
    t = ctx.create_stream_output_target(sentinel_buffer(screen, 16), 0, 64)
    ctx.set_stream_output_targets([t], [0])
    with pytest.raises(glpipe.InvalidArgumentError, match="buffer 1"):
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=2))


STREAMS_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1], STREAM(1, 1, 1, 1)
IMM[0] UINT32 {0, 1, 0, 0}
IMM[1] FLT32 {2.0, 10.0, 0.0, 0.0}
  0: MOV OUT[0], IN[0][0]
  1: MOV OUT[1], IN[0][1]
  2: EMIT IMM[0].xxxx
  3: MUL OUT[2], IN[0][1], IMM[1].xxxx
  4: EMIT IMM[0].yyyy
  5: ADD OUT[2], IN[0][1], IMM[1].yyyy
  6: EMIT IMM[0].yyyy
  7: END
"""


def test_geometry_shader_with_two_streams(screen, ctx):
    """Stream 0 to buffer 0, stream 1 (two vertices per input point) to
    buffer 1; where MAX_VERTEX_STREAMS is 1 a capture of stream 1 is refused."""
    so = StreamOutputInfo(
        stride=(4, 4),
        output=(
            StreamOutput(register_index=1, num_components=4, output_buffer=0, stream=0),
            StreamOutput(register_index=2, num_components=4, output_buffer=1, stream=1),
        ),
    )
    rows = prepare(ctx, 3, None)
    if screen.get_param(glpipe.Cap.MAX_VERTEX_STREAMS) < 2:
        with pytest.raises(glpipe.PipeError, match=r"stream"):
            ctx.create_gs_state(ShaderState(tokens=STREAMS_GS, stream_output=so))
        return
    ctx.bind_gs_state(ctx.create_gs_state(ShaderState(tokens=STREAMS_GS, stream_output=so)))
    bufs = [sentinel_buffer(screen, 32), sentinel_buffer(screen, 32)]
    t = [ctx.create_stream_output_target(b, 0, 128) for b in bufs]
    ctx.set_stream_output_targets(t, [0, 0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=3))
    attr = rows[:, 4:]
    s0 = np.full(32, SENTINEL, np.uint32)
    s0[:12] = attr.view(np.uint32).reshape(-1)
    s1 = np.full(32, SENTINEL, np.uint32)
    s1[:24] = np.stack([attr * np.float32(2.0), attr + np.float32(10.0)], axis=1).view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, bufs[0]), s0)
    np.testing.assert_array_equal(read_words(screen, bufs[1]), s1)
    # The GS's counts come from a query: an append reads them back.
    ctx.set_stream_output_targets(t, [-1, -1])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=1))
    s0[12:16] = attr[0].view(np.uint32)
    s1[24:32] = np.stack([attr[:1] * np.float32(2.0), attr[:1] + np.float32(10.0)], axis=1).view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, bufs[0]), s0)
    np.testing.assert_array_equal(read_words(screen, bufs[1]), s1)


def test_draw_auto_draws_what_was_captured(screen, ctx):
    """Capture 5 vertices in the input layout, then draw auto from the target
    with its buffer as the vertex buffer, capturing again: the same 5 rows."""
    outs = ((0, 0, 4, 0, 0), (1, 0, 4, 0, 4))
    rows = prepare(ctx, 5, so_info((8,), *outs))
    a, b = sentinel_buffer(screen, 80), sentinel_buffer(screen, 80)
    ta, tb = ctx.create_stream_output_target(a, 0, 320), ctx.create_stream_output_target(b, 0, 320)
    ctx.set_stream_output_targets([ta], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=5))
    ctx.set_vertex_buffers([VertexBuffer(buffer=a, stride=32)])
    ctx.set_stream_output_targets([tb], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS), None, glpipe.DrawIndirectInfo(count_from_stream_output=ta))
    expect = np.full(80, SENTINEL, np.uint32)
    expect[:40] = rows.view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, b), expect)
    np.testing.assert_array_equal(read_words(screen, a), expect)


def _wide_vs(n: int) -> str:
    """A VS with POSITION and ``n`` GENERIC outputs, GENERIC[i] = IN[1] + i."""
    lines = ["VERT", "DCL IN[0]", "DCL IN[1]", "DCL OUT[0], POSITION"]
    lines += [f"DCL OUT[{i + 1}], GENERIC[{i}]" for i in range(n)]
    lines += [f"IMM[{i}] FLT32 {{{float(i)}, {float(i)}, {float(i)}, {float(i)}}}" for i in range(n)]
    body = ["MOV OUT[0], IN[0]"] + [f"ADD OUT[{i + 1}], IN[1], IMM[{i}]" for i in range(n)] + ["END"]
    return "\n".join(lines + [f"  {k}: {t}" for k, t in enumerate(body)]) + "\n"


def test_buffers_and_components_at_the_limits(screen, ctx):
    """MAX_STREAM_OUTPUT_BUFFERS buffers of MAX_STREAM_OUTPUT_SEPARATE_COMPONENTS
    (one vec4 each where the host has GL 3.0's separate mode only) and one
    buffer of MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS, captured word for
    word; one past either limit is refused at create."""
    nbuf = screen.get_param(glpipe.Cap.MAX_STREAM_OUTPUT_BUFFERS)
    sep = screen.get_param(glpipe.Cap.MAX_STREAM_OUTPUT_SEPARATE_COMPONENTS)
    inter = screen.get_param(glpipe.Cap.MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS)
    assert nbuf >= 4 and sep >= 4 and inter >= 64
    vs = _wide_vs(16)
    n = 3

    def capture(so, words_per_buffer):
        rows = prepare(ctx, n, so, vs=vs)
        bufs = [sentinel_buffer(screen, words_per_buffer * n) for _ in so.stride if _]
        ctx.set_stream_output_targets([ctx.create_stream_output_target(b, 0, b.width0) for b in bufs], [0] * len(bufs))
        ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=n))
        ctx.set_stream_output_targets([], [])
        return rows[:, 4:], [read_words(screen, b) for b in bufs]

    # nbuf buffers, each with min(sep, 16) components (whole GENERIC vec4s).
    per = min(sep, 16) // 4
    outs = [(1 + b * per + k, 0, 4, b, 4 * k) for b in range(nbuf) for k in range(per)]
    attr, got = capture(so_info([4 * per] * nbuf, *outs), 4 * per)
    for b in range(nbuf):
        want = np.stack([attr + np.float32(b * per + k) for k in range(per)], axis=1)
        np.testing.assert_array_equal(got[b], want.view(np.uint32).reshape(-1))
    # One buffer of inter components: 16 whole GENERIC outputs.
    outs = [(1 + k, 0, 4, 0, 4 * k) for k in range(inter // 4)]
    attr, got = capture(so_info([inter], *outs), inter)
    want = np.stack([attr + np.float32(k) for k in range(inter // 4)], axis=1)
    np.testing.assert_array_equal(got[0], want.view(np.uint32).reshape(-1))
    with pytest.raises(glpipe.UnsupportedError, match="INTERLEAVED_COMPONENTS"):
        ctx.create_vs_state(ShaderState(tokens=vs, stream_output=so_info([inter + 1], (1, 0, 4, 0, 0))))
    with pytest.raises(glpipe.InvalidArgumentError, match="output_buffer"):
        ctx.create_vs_state(ShaderState(tokens=vs, stream_output=so_info([4] * 4, (1, 0, 4, nbuf, 0))))


def test_tessellation_evaluation_shader_captures(screen, ctx):
    """The TES is the last stage: its triangles are captured (each TES vertex
    carries its patch's corner-0 attribute), counted by a query, and an
    append continues after them.  Without tessellation the stage is refused."""
    from .test_draw_features import PASS_TCS, PASS_TES

    so = so_info((4,), (1, 0, 4, 0, 0))
    rows = prepare(ctx, 6, None)
    if not screen.profile.has("tessellation_shader"):
        with pytest.raises(glpipe.UnsupportedError):
            ctx.create_tes_state(ShaderState(tokens=PASS_TES, stream_output=so))
        return
    ctx.bind_tcs_state(ctx.create_tcs_state(ShaderState(tokens=PASS_TCS)))
    ctx.bind_tes_state(ctx.create_tes_state(ShaderState(tokens=PASS_TES, stream_output=so)))
    ctx.set_patch_vertices(3)
    buf = sentinel_buffer(screen, 64)
    t = ctx.create_stream_output_target(buf, 0, 256)
    ctx.set_stream_output_targets([t], [0])
    ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=6))
    ctx.set_stream_output_targets([t], [-1])
    ctx.draw_vbo(DrawInfo(mode=Prim.PATCHES, count=3))
    attr = rows[:, 4:]
    expect = np.full(64, SENTINEL, np.uint32)
    expect[:36] = attr[[0, 0, 0, 3, 3, 3, 0, 0, 0]].view(np.uint32).reshape(-1)
    np.testing.assert_array_equal(read_words(screen, buf), expect)


@pytest.mark.parametrize("qtype", [glpipe.Query.SO_OVERFLOW_PREDICATE, glpipe.Query.SO_OVERFLOW_ANY_PREDICATE])
def test_overflow_predicates(screen, ctx, qtype):
    """SO_OVERFLOW_(ANY_)PREDICATE: True once a primitive did not fit in the
    bound range, False while every one fit (context.rst "Queries").  The cap
    follows the host's overflow queries; without them create_query refuses."""
    if not screen.get_param(glpipe.Cap.QUERY_SO_OVERFLOW):
        assert not screen.profile.has("transform_feedback_overflow_query")
        with pytest.raises(glpipe.UnsupportedError):
            ctx.create_query(qtype)
        return
    prepare(ctx, 12, so_info((4,), (1, 0, 4, 0, 0)))
    buf = sentinel_buffer(screen, 64)
    results = []
    for triangles_room in (4, 2):  # 4 triangles fit; 2 do not
        t = ctx.create_stream_output_target(buf, 0, triangles_room * 3 * 16)
        ctx.set_stream_output_targets([t], [0])
        q = ctx.create_query(qtype, 0)
        ctx.begin_query(q)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=12))
        ctx.end_query(q)
        results.append(ctx.get_query_result(q, True))
        ctx.set_stream_output_targets([], [])
        ctx.destroy_query(q)
        ctx.stream_output_target_destroy(t)
    assert results == [False, True]


def test_stream_output_queries_count_what_was_captured(screen, ctx):
    """PRIMITIVES_EMITTED counts the primitives written to the targets,
    PRIMITIVES_GENERATED every primitive, and SO_STATISTICS both (written,
    storage needed) -- exact, here with a range that holds 2 of 4 triangles
    (context.rst "Queries"; the counts from the geometry alone)."""
    prepare(ctx, 12, so_info((4,), (1, 0, 4, 0, 0)))
    buf = sentinel_buffer(screen, 64)
    t = ctx.create_stream_output_target(buf, 0, 2 * 3 * 16)
    ctx.set_stream_output_targets([t], [0])
    kinds = (glpipe.Query.PRIMITIVES_EMITTED, glpipe.Query.PRIMITIVES_GENERATED, glpipe.Query.SO_STATISTICS)
    qs = [ctx.create_query(k, 0) for k in kinds]
    for q in qs:
        ctx.begin_query(q)
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=12))
    for q in qs:
        ctx.end_query(q)
    emitted, generated, stats = (ctx.get_query_result(q, True) for q in qs)
    assert (emitted, generated) == (2, 4)
    assert (stats.num_primitives_written, stats.primitives_storage_needed) == (2, 4)
    ctx.set_stream_output_targets([], [])
