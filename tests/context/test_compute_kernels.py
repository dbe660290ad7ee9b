"""launch_grid on the classic kernels, checked against numpy, on both
profiles (native: the host's compute shaders; gl33: the numpy TGSI executor).

Vector add, prefix sum with shared memory and barriers, histogram with
atomics, a reduction with a partial last block (bounds-checked, and through
pipe_grid_info.last_block), grid_base, and an indirect dispatch.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Cap, ComputeState, GridInfo

from .util_compute import bind_buffers, read_buffer, shader_buffer

FIXED64 = "PROPERTY CS_FIXED_BLOCK_WIDTH 64\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"

# The block size comes from GridInfo.block (no CS_FIXED_BLOCK_* properties).
VECTOR_ADD = """COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..3]
IMM[0] UINT32 {1000, 4, 0, 0}
UMAD TEMP[0].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
USLT TEMP[0].y, TEMP[0].xxxx, IMM[0].xxxx
UIF TEMP[0].yyyy
  UMUL TEMP[0].z, TEMP[0].xxxx, IMM[0].yyyy
  LOAD TEMP[1].x, BUFFER[0], TEMP[0].zzzz
  LOAD TEMP[2].x, BUFFER[1], TEMP[0].zzzz
  ADD TEMP[3].x, TEMP[1].xxxx, TEMP[2].xxxx
  STORE BUFFER[2].x, TEMP[0].zzzz, TEMP[3].xxxx
ENDIF
END
"""

# Inclusive Hillis-Steele scan of each block's 256 words in shared memory.
PREFIX_SUM = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 256
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..3]
IMM[0] UINT32 {4, 1, 256, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMAD TEMP[3].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx
UMUL TEMP[3].y, TEMP[3].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[3].yyyy
STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
BARRIER
MOV TEMP[0].y, IMM[0].yyyy
BGNLOOP
  USGE TEMP[0].z, TEMP[0].yyyy, IMM[0].zzzz
  UIF TEMP[0].zzzz
    BRK
  ENDIF
  LOAD TEMP[1].x, MEMORY[0], TEMP[0].xxxx
  USGE TEMP[0].w, SV[0].xxxx, TEMP[0].yyyy
  UIF TEMP[0].wwww
    UMUL TEMP[2].y, TEMP[0].yyyy, IMM[0].xxxx
    INEG TEMP[2].y, TEMP[2].yyyy
    UADD TEMP[2].x, TEMP[0].xxxx, TEMP[2].yyyy
    LOAD TEMP[2].x, MEMORY[0], TEMP[2].xxxx
    UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
  ENDIF
  BARRIER
  STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
  BARRIER
  SHL TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
ENDLOOP
STORE BUFFER[1].x, TEMP[3].yyyy, TEMP[1].xxxx
END
"""

# bins[v] += 1 for every value; BUFFER[2] receives each ATOMUADD's old value.
HISTOGRAM = (
    "COMP\n"
    + FIXED64
    + """DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..1]
IMM[0] UINT32 {64, 4, 1, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
UMUL TEMP[0].y, TEMP[1].xxxx, IMM[0].yyyy
ATOMUADD TEMP[1].x, BUFFER[1], TEMP[0].yyyy, IMM[0].zzzz
STORE BUFFER[2].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""
)


def _reduction(bounded: bool) -> str:
    """Per-block sums of uint words into BUFFER[1][block] through a shared
    ATOMUADD; ``bounded``: invocations past word 1000 add nothing."""
    guard_open = "USLT TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz\nUIF TEMP[0].yyyy\n" if bounded else ""
    guard_close = "ENDIF\n" if bounded else ""
    return (
        "COMP\n"
        + FIXED64
        + """DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..2]
IMM[0] UINT32 {64, 4, 1000, 0}
IMM[1] UINT32 {0, 0, 0, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
USEQ TEMP[0].w, SV[0].xxxx, IMM[1].xxxx
UIF TEMP[0].wwww
  STORE MEMORY[0].x, IMM[1].xxxx, IMM[1].xxxx
ENDIF
BARRIER
"""
        + guard_open
        + """UMUL TEMP[0].z, TEMP[0].xxxx, IMM[0].yyyy
LOAD TEMP[1].x, BUFFER[0], TEMP[0].zzzz
ATOMUADD TEMP[1].y, MEMORY[0], IMM[1].xxxx, TEMP[1].xxxx
"""
        + guard_close
        + """BARRIER
UIF TEMP[0].wwww
  LOAD TEMP[2].x, MEMORY[0], IMM[1].xxxx
  UMUL TEMP[0].z, SV[1].xxxx, IMM[0].yyyy
  STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[2].xxxx
ENDIF
END
"""
    )


# Every invocation writes its block id, the grid size and its thread id.
GRID_PROBE = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], GRID_SIZE
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 16, 0, 0}
UMAD TEMP[0].x, SV[1].yyyy, SV[2].xxxx, SV[1].xxxx
UMAD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
MOV TEMP[1].xy, SV[1].xyxx
MOV TEMP[1].zw, SV[2].xxxy
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""


def _run(ctx, text, grid_info, req_local_mem=0):
    cso = ctx.create_compute_state(ComputeState(prog=text, req_local_mem=req_local_mem))
    ctx.bind_compute_state(cso)
    ctx.launch_grid(grid_info)
    return cso


def test_compute_cap_on_every_profile(screen):
    """COMPUTE is 1 on both profiles: host compute shaders, or the executor."""
    assert screen.get_param(Cap.COMPUTE) == 1


def test_vector_add(screen, ctx):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(1000).astype(np.float32)
    b = rng.standard_normal(1000).astype(np.float32)
    ra, rb = shader_buffer(screen, ctx, a), shader_buffer(screen, ctx, b)
    rc = shader_buffer(screen, ctx, np.full(1024, 7.0, np.float32))
    bind_buffers(ctx, ra, rb, rc)
    _run(ctx, VECTOR_ADD, GridInfo(block=(64, 1, 1), grid=(16, 1, 1)))
    out = read_buffer(ctx, rc, np.float32)
    np.testing.assert_array_equal(out[:1000], a + b)
    np.testing.assert_array_equal(out[1000:], np.full(24, 7.0, np.float32))  # guarded lanes wrote nothing


def test_prefix_sum_shared_memory_barrier(screen, ctx):
    rng = np.random.default_rng(2)
    data = rng.integers(0, 1000, size=4 * 256, dtype=np.uint32)
    rin = shader_buffer(screen, ctx, data)
    rout = shader_buffer(screen, ctx, np.zeros_like(data))
    bind_buffers(ctx, rin, rout)
    _run(ctx, PREFIX_SUM, GridInfo(block=(256, 1, 1), grid=(4, 1, 1)), req_local_mem=1024)
    expect = np.cumsum(data.reshape(4, 256), axis=1, dtype=np.uint32).ravel()
    np.testing.assert_array_equal(read_buffer(ctx, rout, np.uint32), expect)


def test_histogram_atomics(screen, ctx):
    rng = np.random.default_rng(3)
    values = rng.integers(0, 16, size=64 * 32, dtype=np.uint32)
    rv = shader_buffer(screen, ctx, values)
    bins = shader_buffer(screen, ctx, np.zeros(16, np.uint32))
    olds = shader_buffer(screen, ctx, np.zeros(values.size, np.uint32))
    bind_buffers(ctx, rv, bins, olds)
    _run(ctx, HISTOGRAM, GridInfo(block=(64, 1, 1), grid=(32, 1, 1)))
    np.testing.assert_array_equal(read_buffer(ctx, bins, np.uint32), np.bincount(values, minlength=16))
    # Atomicity: the old values seen by the adds to one bin are 0..count-1, once each.
    old = read_buffer(ctx, olds, np.uint32)
    for v in range(16):
        seen = np.sort(old[values == v])
        np.testing.assert_array_equal(seen, np.arange(seen.size, dtype=np.uint32))


def _block_sums(data, n, block):
    padded = np.zeros(-(-n // block) * block, np.uint32)
    padded[:n] = data[:n]
    return padded.reshape(-1, block).sum(axis=1, dtype=np.uint32)


def test_reduction_partial_last_block_bounds_checked(screen, ctx):
    rng = np.random.default_rng(4)
    data = rng.integers(0, 1 << 20, size=1024, dtype=np.uint32)  # 24 words past the end the kernel skips
    rin = shader_buffer(screen, ctx, data)
    rout = shader_buffer(screen, ctx, np.zeros(16, np.uint32))
    bind_buffers(ctx, rin, rout)
    _run(ctx, _reduction(True), GridInfo(block=(64, 1, 1), grid=(16, 1, 1)), req_local_mem=4)
    np.testing.assert_array_equal(read_buffer(ctx, rout, np.uint32), _block_sums(data, 1000, 64))


def test_reduction_last_block(screen, ctx):
    """pipe_grid_info.last_block = (40, 0, 0): the last block runs 40
    invocations only, so the unguarded kernel sums exactly 1000 words."""
    assert screen.get_param(Cap.COMPUTE_GRID_INFO_LAST_BLOCK) == 1
    rng = np.random.default_rng(5)
    data = rng.integers(0, 1 << 20, size=1024, dtype=np.uint32)
    rin = shader_buffer(screen, ctx, data)
    rout = shader_buffer(screen, ctx, np.zeros(16, np.uint32))
    bind_buffers(ctx, rin, rout)
    _run(ctx, _reduction(False), GridInfo(block=(64, 1, 1), grid=(16, 1, 1), last_block=(40, 0, 0)), 4)
    np.testing.assert_array_equal(read_buffer(ctx, rout, np.uint32), _block_sums(data, 1000, 64))


def _grid_probe_expect(grid, base=(0, 0, 0)):
    """What GRID_PROBE writes: record (y * gx + x) * 4 + t holds (bx, by, gx, gy)
    with the block ids counted from ``base`` (p_state.h grid_base)."""
    gx, gy = grid[0], grid[1]
    out = np.zeros(((base[1] + gy) * (base[0] + gx) * 4, 4), np.uint32)
    for y in range(base[1], base[1] + gy):
        for x in range(base[0], base[0] + gx):
            for t in range(4):
                out[(y * gx + x) * 4 + t] = (x, y, gx, gy)
    return out


def test_indirect_dispatch(screen, ctx):
    """The grid comes from three uints at indirect_offset of a buffer."""
    args = shader_buffer(screen, ctx, np.array([99, 3, 2, 1], np.uint32))
    rout = shader_buffer(screen, ctx, np.zeros((3 * 2 * 4, 4), np.uint32))
    bind_buffers(ctx, rout)
    _run(ctx, GRID_PROBE, GridInfo(block=(4, 1, 1), grid=(0, 0, 0), indirect=args, indirect_offset=4))
    got = read_buffer(ctx, rout, np.uint32).reshape(-1, 4)
    np.testing.assert_array_equal(got, _grid_probe_expect((3, 2, 1)))


def test_grid_base(screen, ctx):
    """grid_base offsets BLOCK_ID: blocks (1..2, 1) of a 3x2 grid run."""
    rout = shader_buffer(screen, ctx, np.zeros((3 * 2 * 4, 4), np.uint32))
    bind_buffers(ctx, rout)
    _run(ctx, GRID_PROBE, GridInfo(block=(4, 1, 1), grid=(3, 2, 1), grid_base=(1, 1, 0)))
    got = read_buffer(ctx, rout, np.uint32).reshape(-1, 4)
    expect = np.zeros((24, 4), np.uint32)
    for x in range(1, 3):
        for t in range(4):
            expect[(1 * 3 + x) * 4 + t] = (x, 1, 3, 2)
    np.testing.assert_array_equal(got, expect)


@pytest.mark.parametrize("n_blocks", [1, 7])
def test_compute_does_not_disturb_graphics_bindings(screen, ctx, n_blocks):
    """Binding a compute state leaves every graphics shader slot as it was."""
    before = list(ctx.shader_part.shaders)
    rout = shader_buffer(screen, ctx, np.zeros((n_blocks * 4, 4), np.uint32))
    bind_buffers(ctx, rout)
    _run(ctx, GRID_PROBE, GridInfo(block=(4, 1, 1), grid=(n_blocks, 1, 1)))
    assert ctx.shader_part.shaders == before
    got = read_buffer(ctx, rout, np.uint32).reshape(-1, 4)
    np.testing.assert_array_equal(got, _grid_probe_expect((n_blocks, 1, 1)))
