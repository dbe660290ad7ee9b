"""transfer_map with Map.DONTBLOCK (context.rst PIPE_MAP_DONTBLOCK: "fail if
the resource cannot be mapped immediately"): a map that would wait for pending
host work returns None and maps nothing; one that does not wait, or made when
the host is idle, succeeds."""

from __future__ import annotations

import numpy as np

from glpipe import Box, DrawInfo, Map, Prim, VertexBuffer

from .util import vertex_buffer
from .util_draw import setup, vertices

SIZE = 256
# Every pixel runs a 20,000-step loop: seconds of llvmpipe work for one draw.
# TEMP[0].y ends at the MAD recurrence y' = y * 1e-4 + 1e-4, whose fixed point is
# 1e-4 / (1 - 1e-4); its float value is what each pixel holds.
SLOW_FS = """FRAG
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {0.0, 1.0, 20000.0, 0.0001}
  0: MOV TEMP[0], IMM[0].xxxx
  1: BGNLOOP :0
  2:   SGE TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz
  3:   IF TEMP[1].xxxx :5
  4:     BRK
  5:   ENDIF
  6:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  7:   MAD TEMP[0].y, TEMP[0].yyyy, IMM[0].wwww, IMM[0].wwww
  8: ENDLOOP :1
  9: MOV OUT[0], TEMP[0].yyyy
 10: END
"""


def _slow_draw(ctx, screen):
    color = setup(ctx, fs=SLOW_FS, size=SIZE)
    verts = vertices([(-SIZE, -SIZE), (3 * SIZE, -SIZE), (-SIZE, 3 * SIZE)], (0, 0, 0, 0), size=SIZE)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    return color


def _expected() -> np.float32:
    y = np.float32(0)
    for _ in range(200):  # the recurrence converges long before 20,000 steps
        y = np.float32(y * np.float32(1e-4) + np.float32(1e-4))
    return y


def test_dontblock_fails_while_the_host_is_busy_and_maps_when_idle(ctx, screen):
    box = Box(x=0, y=0, z=0, width=SIZE, height=SIZE, depth=1)
    color = _slow_draw(ctx, screen)
    assert ctx.transfer_map(color, 0, Map.READ | Map.DONTBLOCK, box) is None
    # A write that discards what it maps does not wait: it maps at once.
    t = ctx.transfer_map(color, 0, Map.WRITE | Map.DISCARD_RANGE | Map.DONTBLOCK, Box(0, 0, 0, 1, 1, 1))
    assert t is not None
    ctx.transfer_unmap(t)
    fence = ctx.flush()
    assert screen.fence_finish(ctx, fence, 2**63)
    t = ctx.transfer_map(color, 0, Map.READ | Map.DONTBLOCK, box)
    assert t is not None
    try:
        got = np.frombuffer(t.data, np.float32).reshape(SIZE, t.stride // 16, 4)[:, :SIZE]
        want = np.full((SIZE, SIZE, 4), _expected(), np.float32)
        want[0, 0] = 0.0  # the discarding write above (zeros), ordered after the draw
        assert np.allclose(got, want, rtol=1e-5), (got[0, :2], want[0, :2])
    finally:
        ctx.transfer_unmap(t)


def test_dontblock_on_an_idle_host_maps(ctx, screen):
    res = vertex_buffer(screen, np.arange(16, dtype=np.float32))
    fence = ctx.flush()
    screen.fence_finish(ctx, fence, 2**63)
    t = ctx.transfer_map(res, 0, Map.READ | Map.DONTBLOCK, Box(0, 0, 0, 64, 1, 1))
    assert t is not None
    try:
        assert np.array_equal(np.frombuffer(t.data, np.float32), np.arange(16, dtype=np.float32))
    finally:
        ctx.transfer_unmap(t)
