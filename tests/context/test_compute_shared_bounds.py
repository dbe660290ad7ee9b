"""Shared memory accessed past req_local_mem (issue 12: every program is
refused or runs; nothing writes outside its memory).

TGSI leaves such accesses undefined; GLSL rejects a constant index past the
array (Mesa's own capture tests/lowering/corpus/tgsi/cs_shared_atomics,
created with req_local_mem 0, was an "internal error: the host rejected")
and leaves a dynamic one undefined.  glpipe's rule (docs/lowering.md "Shared
memory"): out of range a load reads 0, a store or atomic does nothing (an
atomic returns 0) -- what the numpy executor does -- so the in-range words are
exactly what the in-range accesses made them, on both profiles."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from glpipe import ComputeState, GridInfo

from .util_compute import bind_buffers, read_buffer, shader_buffer

CORPUS = Path(__file__).parent.parent / "lowering" / "corpus" / "tgsi"

# 4 shared words (req_local_mem 16).  Each of 8 invocations: stores tid + 1 to
# word tid (in range for tid < 4), stores 99 to the constant word 10 and adds
# 7 atomically to word tid + 20 (out of range), then after a barrier writes
# out[tid] = shared[tid] and out[8 + tid] = shared[10] (a constant
# out-of-range load) and out[16 + tid] = the atomic's returned old value.
KERNEL = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL MEMORY[0], SHARED
DCL TEMP[0..3]
IMM[0] UINT32 {4, 1, 40, 99}
IMM[1] UINT32 {80, 7, 32, 64}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[0].yyyy
STORE MEMORY[0].x, IMM[0].zzzz, IMM[0].wwww
UADD TEMP[1].x, TEMP[0].xxxx, IMM[1].xxxx
ATOMUADD TEMP[1].y, MEMORY[0], TEMP[1].xxxx, IMM[1].yyyy
BARRIER
LOAD TEMP[2].x, MEMORY[0], TEMP[0].xxxx
LOAD TEMP[2].y, MEMORY[0], IMM[0].zzzz
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[2].xxxx
UADD TEMP[3].x, TEMP[0].xxxx, IMM[1].zzzz
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].yyyy
UADD TEMP[3].x, TEMP[0].xxxx, IMM[1].wwww
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[1].yyyy
END
"""


def test_accesses_past_req_local_mem_touch_nothing_in_range(screen, ctx):
    out = shader_buffer(screen, ctx, np.full(24, 0xDEAD, np.uint32))
    bind_buffers(ctx, out)
    cs = ctx.create_compute_state(ComputeState(prog=KERNEL, req_local_mem=16))
    ctx.bind_compute_state(cs)
    ctx.launch_grid(GridInfo(block=(8, 1, 1)))
    got = read_buffer(ctx, out, np.uint32)
    tid = np.arange(8)
    # in range: word tid holds tid + 1; out of range (tid >= 4): a load reads 0
    np.testing.assert_array_equal(got[:8], np.where(tid < 4, tid + 1, 0))
    # the constant word 10 is past the 4 words: its load reads 0
    np.testing.assert_array_equal(got[8:16], np.zeros(8))
    # the out-of-range atomics did nothing and returned 0
    np.testing.assert_array_equal(got[16:24], np.zeros(8))
    ctx.bind_compute_state(None)
    ctx.delete_compute_state(cs)
    screen.resource_destroy(out)


def test_mesas_capture_with_req_local_mem_zero_is_created(ctx):
    """The corpus capture, created as a frontend that forgot req_local_mem
    would: no host error (it was "array index must be < 1")."""
    cs = ctx.create_compute_state(ComputeState(prog=(CORPUS / "cs_shared_atomics.comp.tgsi").read_text()))
    ctx.delete_compute_state(cs)
