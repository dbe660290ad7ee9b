"""Execution tests: LOAD / STORE / RESQ / ATOM* on BUFFER, shared MEMORY and HWATOMIC (compute).

Compute, buffers and atomics need GLSL 430: at 330 (the gl33 profile) a
compute shader must be refused with UnsupportedError.  At 450 every test
dispatches one work group and reads the buffers back.

Atomics return the *old* value (tgsi.rst); each invocation works on its own
dword in the per-opcode test so the outcome is deterministic, and a
contention test checks that N invocations adding to one dword see each old
value exactly once.  For HWATOMIC, note GLSL's atomicCounterDecrement
returns the *new* value: a lowering must still hand back the old one.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H
import tgsi_reference as R

gl = H.module_harness()

UMAX, IMIN, IMAX = 2**32 - 1, -(2**31), 2**31 - 1
N = 8
HEADER = f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {N}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
"""


def test_compute_refused_at_330(gl):
    from lowering.errors import UnsupportedError

    text = (
        HEADER + "DCL BUFFER[0]\nDCL TEMP[0]\nIMM[0] UINT32 {4, 0, 0, 0}\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx\nEND\n"
    )
    with pytest.raises(UnsupportedError):
        gl.run_cs(text, {0: np.zeros(N, np.uint32)}, glsl_version=330)
    # and at 450 the same program works: buffer[i] = i
    out = gl.run_cs(text, {0: np.zeros(N, np.uint32)}, glsl_version=450)
    np.testing.assert_array_equal(out[0], np.arange(N, dtype=np.uint32))


def test_store_writemask_and_unaligned_load(gl):
    """STORE BUFFER.xz writes dwords +0 and +8 only; LOAD .xy at byte 16i+4 reads dwords 4i+1, 4i+2."""
    text = (
        HEADER
        + """DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..1]
IMM[0] UINT32 {16, 4, 0, 0}
IMM[1] UINT32 {0x11111111, 0x22222222, 0x33333333, 0x44444444}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UADD TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
STORE BUFFER[1].xz, TEMP[0].xxxx, IMM[1]
LOAD TEMP[1].xy, BUFFER[0], TEMP[0].yyyy
MOV TEMP[1].zw, IMM[1].wwww
STORE BUFFER[2].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""
    )
    src = np.arange(100, 100 + 4 * N + 4, dtype=np.uint32)  # dword k = 100 + k
    untouched = np.full(4 * N, 0xAAAAAAAA, dtype=np.uint32)
    out = gl.run_cs(text, {0: src, 1: untouched, 2: np.zeros(4 * N, np.uint32)}, glsl_version=450)
    exp1 = untouched.reshape(N, 4).copy()
    exp1[:, 0], exp1[:, 2] = 0x11111111, 0x33333333
    np.testing.assert_array_equal(out[1].reshape(N, 4), exp1)
    i = np.arange(N)
    exp2 = np.stack([src[4 * i + 1], src[4 * i + 2], np.full(N, 0x44444444), np.full(N, 0x44444444)], 1).astype(
        np.uint32
    )
    np.testing.assert_array_equal(out[2].reshape(N, 4), exp2)


def test_load_writemask_picks_consecutive_dwords(gl):
    """LOAD dst.yw, BUFFER, a: channel c receives the dword at byte a + 4c (the writemask only
    selects which of the four are written), so .y = dword a/4+1, .w = a/4+3; .x/.z keep their value."""
    text = (
        HEADER
        + """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {16, 0x11111111, 0x22222222, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
MOV TEMP[1], IMM[0].yzyz
LOAD TEMP[1].yw, BUFFER[0], TEMP[0].xxxx
STORE BUFFER[1].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""
    )
    src = np.arange(4 * N, dtype=np.uint32) * 7 + 3
    out = gl.run_cs(text, {0: src, 1: np.zeros(4 * N, np.uint32)}, glsl_version=450)
    s = src.reshape(N, 4)
    exp = np.stack([np.full(N, 0x11111111), s[:, 1], np.full(N, 0x11111111), s[:, 3]], 1)
    np.testing.assert_array_equal(out[1].reshape(N, 4), exp.astype(np.uint32))


def test_load_swizzled_resource(gl):
    """LOAD dst, BUFFER.wzyx, addr: the resource swizzle reorders the loaded dwords."""
    text = (
        HEADER
        + """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {16, 0, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1], BUFFER[0].wzyx, TEMP[0].xxxx
STORE BUFFER[1].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""
    )
    src = np.arange(4 * N, dtype=np.uint32) * 3 + 1
    out = gl.run_cs(text, {0: src, 1: np.zeros(4 * N, np.uint32)}, glsl_version=450)
    np.testing.assert_array_equal(out[1].reshape(N, 4), src.reshape(N, 4)[:, ::-1])


def test_resq_buffer_size(gl):
    """RESQ dst.x of a BUFFER = its size in bytes."""
    text = (
        HEADER
        + """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {4, 0, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
RESQ TEMP[1].x, BUFFER[0]
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""
    )
    out = gl.run_cs(text, {0: np.zeros(37 * 4, np.uint32), 1: np.zeros(N, np.uint32)}, glsl_version=450)
    np.testing.assert_array_equal(out[1], np.full(N, 37 * 16, np.uint32))


# per-invocation atomics: memory[i] = init[i]; dst = ATOM(memory[4*i], value[i] [, cmp/new])
ATOMICS = {
    # op: (init values, operand values, new memory value fn(old, val))
    "ATOMUADD": (
        [0, 5, UMAX, 0x80000000, 7, 100, 1, 2],
        [1, 7, 1, 0x80000000, UMAX, 0, 2, 3],
        lambda o, v: (o + v) & UMAX,
    ),
    "ATOMXCHG": ([0, 5, UMAX, 0x80000000, 7, 100, 1, 2], [9, 8, 7, 6, 5, 4, 3, 2], lambda o, v: v),
    "ATOMAND": (
        [UMAX, 0xF0F0, 0x1234, 0, 7, 100, 1, 3],
        [0xFF00FF00, 0xFF, UMAX, UMAX, 2, 4, 1, 1],
        lambda o, v: o & v,
    ),
    "ATOMOR": ([UMAX, 0xF0F0, 0x1234, 0, 7, 100, 1, 2], [0xFF00FF00, 0xFF, 0, UMAX, 8, 3, 1, 1], lambda o, v: o | v),
    "ATOMXOR": (
        [UMAX, 0xF0F0, 0x1234, 0, 7, 100, 1, 2],
        [0xFF00FF00, 0xFF, 0x1234, UMAX, 8, 3, 1, 1],
        lambda o, v: o ^ v,
    ),
    "ATOMUMIN": ([UMAX, 5, 0x80000000, 0, 7, 100, 1, 2], [1, 7, 0x7FFFFFFF, UMAX, 7, 99, 0, 3], lambda o, v: min(o, v)),
    "ATOMUMAX": ([UMAX, 5, 0x80000000, 0, 7, 100, 1, 2], [1, 7, 0x7FFFFFFF, UMAX, 7, 99, 0, 3], lambda o, v: max(o, v)),
    "ATOMIMIN": (
        [UMAX, 5, 0x80000000, 0, 7, 100, 1, 2],
        [1, 7, 0x7FFFFFFF, UMAX, 7, 99, 0, 3],
        lambda o, v: min(o - (o >> 31 << 32), v - (v >> 31 << 32)) & UMAX,
    ),
    "ATOMIMAX": (
        [UMAX, 5, 0x80000000, 0, 7, 100, 1, 2],
        [1, 7, 0x7FFFFFFF, UMAX, 7, 99, 0, 3],
        lambda o, v: max(o - (o >> 31 << 32), v - (v >> 31 << 32)) & UMAX,
    ),
    # tgsi.rst: new = (old + 1 <= src) ? old + 1 : 0 ; dec: (old > 0 && old < src) ? old - 1 : 0
    "ATOMINC_WRAP": (
        [0, 5, 7, 9, UMAX, 3, 10, 0],
        [10, 5, 7, 9, UMAX, 0, 20, 0],
        lambda o, v: o + 1 if o + 1 <= v else 0,
    ),
    "ATOMDEC_WRAP": (
        [0, 5, 7, 9, UMAX, 3, 10, 1],
        [10, 5, 8, 20, 3, 0, 20, 2],
        lambda o, v: o - 1 if (o > 0 and o < v) else 0,
    ),
}
ATOM_TEXT = (
    HEADER
    + """DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {{4, 0xdeadbeef, 0xcafebabe, 0x0badf00d}}
IMM[1] UINT32 {{8, 0, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].y, SV[0].xxxx, IMM[1].xxxx
LOAD TEMP[1].xy, BUFFER[0], TEMP[0].yyyy
MOV TEMP[2], IMM[0].yzwy
{op} TEMP[2].x, BUFFER[2], TEMP[0].xxxx, {operands}
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[2].xxxx
END
"""
)


@pytest.mark.parametrize("op", sorted(ATOMICS))
def test_atomic_per_invocation(gl, op):
    from lowering.errors import UnsupportedError

    init, vals, fn = ATOMICS[op]
    text = ATOM_TEXT.format(op=op, operands="TEMP[1].xxxx")
    args = np.zeros((N, 2), np.uint32)
    args[:, 0] = vals
    try:
        out = gl.run_cs(
            text, {0: args.ravel(), 1: np.zeros(N, np.uint32), 2: np.array(init, np.uint32)}, glsl_version=450
        )
    except UnsupportedError as err:
        # GLSL has no wrapping increment/decrement: a CAS loop can do it, or the
        # emitter may refuse -- naming the opcode.
        assert op in ("ATOMINC_WRAP", "ATOMDEC_WRAP") and op in str(err), err
        H.REFUSED.append((op, 450))
        return
    np.testing.assert_array_equal(out[1], np.array(init, np.uint32), err_msg=f"{op}: returned old values")
    exp_mem = np.array([fn(int(o), int(v)) for o, v in zip(init, vals, strict=True)], dtype=np.uint32)
    np.testing.assert_array_equal(out[2], exp_mem, err_msg=f"{op}: memory after")


def test_atomic_cas(gl):
    """ATOMCAS dst, res, off, cmp, new: stores new only where memory == cmp; returns old."""
    init = [5, 5, 0, UMAX, 7, 0x80000000, 1, 2]
    cmp = [5, 6, 0, UMAX, 8, 0x80000000, 0, 2]
    new = [9, 9, 1, 0, 3, 4, 5, 6]
    text = ATOM_TEXT.format(op="ATOMCAS", operands="TEMP[1].xxxx, TEMP[1].yyyy")
    args = np.stack([cmp, new], 1).astype(np.uint32)
    out = gl.run_cs(text, {0: args.ravel(), 1: np.zeros(N, np.uint32), 2: np.array(init, np.uint32)}, glsl_version=450)
    np.testing.assert_array_equal(out[1], np.array(init, np.uint32))
    np.testing.assert_array_equal(out[2], np.where(np.array(init) == np.array(cmp), new, init).astype(np.uint32))


def test_atomfadd(gl):
    """ATOMFADD: float add (GL_NV_shader_atomic_float on the host), returns the old float."""
    from lowering.errors import UnsupportedError

    init = np.array([1.5, -2, 0, 1e30, 3, 0.25, -0.0, 7], np.float32)
    vals = np.array([2.25, 2, -0.0, 1e30, -3, 0.5, 1, 0.125], np.float32)
    text = ATOM_TEXT.format(op="ATOMFADD", operands="TEMP[1].xxxx")
    args = np.zeros((N, 2), np.uint32)
    args[:, 0] = vals.view(np.uint32)
    try:
        out = gl.run_cs(text, {0: args.ravel(), 1: np.zeros(N, np.uint32), 2: init.view(np.uint32)}, glsl_version=450)
    except UnsupportedError as err:
        assert "ATOMFADD" in str(err)
        H.REFUSED.append(("ATOMFADD", 450))
        return
    np.testing.assert_array_equal(out[1], init.view(np.uint32))
    np.testing.assert_array_equal(out[2].view(np.float32), init + vals)


def test_atomic_contention(gl):
    """N invocations ATOMUADD 1 to the same dword: final N, old values exactly 0..N-1."""
    text = (
        HEADER
        + """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {4, 1, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
ATOMUADD TEMP[1].x, BUFFER[0], IMM[0].zzzz, IMM[0].yyyy
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""
    )
    out = gl.run_cs(text, {0: np.zeros(1, np.uint32), 1: np.zeros(N, np.uint32)}, glsl_version=450)
    assert out[0][0] == N
    assert sorted(out[1].tolist()) == list(range(N))


def test_shared_memory_store_barrier_load(gl):
    """MEMORY SHARED: each invocation stores 3i+1, BARRIER, then reads its neighbour's slot."""
    text = (
        HEADER
        + """DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 3, 1, 0}
IMM[1] UINT32 {N, 0, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMAD TEMP[1].x, SV[0].xxxx, IMM[0].yyyy, IMM[0].zzzz
STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
MEMBAR IMM[0].wwww
BARRIER
UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz
UMOD TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
UMUL TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx
LOAD TEMP[2].x, MEMORY[0], TEMP[0].yyyy
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[2].xxxx
END
""".replace("{N,", f"{{{N},")
    )
    out = gl.run_cs(text, {0: np.zeros(N, np.uint32)}, glsl_version=450)
    i = np.arange(N)
    np.testing.assert_array_equal(out[0], (3 * ((i + 1) % N) + 1).astype(np.uint32))


def test_shared_memory_atomics(gl):
    """ATOMUADD / ATOMUMAX on shared memory, then everyone reads the totals after BARRIER."""
    text = (
        HEADER
        + """DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {0, 4, 8, 16}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].zzzz
UIF SV[0].xxxx
ELSE
  STORE MEMORY[0].xy, IMM[0].xxxx, IMM[0].xxxx
ENDIF
BARRIER
ATOMUADD TEMP[1].x, MEMORY[0], IMM[0].xxxx, SV[0].xxxx
ATOMUMAX TEMP[1].y, MEMORY[0], IMM[0].yyyy, SV[0].xxxx
BARRIER
LOAD TEMP[2].xy, MEMORY[0], IMM[0].xxxx
STORE BUFFER[0].xy, TEMP[0].xxxx, TEMP[2]
END
"""
    )
    out = gl.run_cs(text, {0: np.zeros(2 * N, np.uint32)}, glsl_version=450)
    res = out[0].reshape(N, 2)
    np.testing.assert_array_equal(res[:, 0], np.full(N, N * (N - 1) // 2, np.uint32))
    np.testing.assert_array_equal(res[:, 1], np.full(N, N - 1, np.uint32))


def test_hwatomic_counters(gl):
    """HWATOMIC: +1 on counter 0 and -1 (0xffffffff) on counter 1; both return the OLD value."""
    text = (
        HEADER
        + """DCL HWATOMIC[0][0..1]
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {0, 1, 4294967295, 8}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].wwww
ATOMUADD TEMP[1].x, HWATOMIC[0][0], IMM[0].xxxx, IMM[0].yyyy
ATOMUADD TEMP[1].y, HWATOMIC[0][1], IMM[0].xxxx, IMM[0].zzzz
STORE BUFFER[0].xy, TEMP[0].xxxx, TEMP[1]
END
"""
    )
    out = gl.run_cs(
        text, {0: np.zeros(2 * N, np.uint32)}, glsl_version=450, atomic_counters={0: np.array([10, 100], np.uint32)}
    )
    res = out[0].reshape(N, 2)
    assert sorted(res[:, 0].tolist()) == list(range(10, 10 + N)), res[:, 0]
    assert sorted(res[:, 1].tolist()) == list(range(100 - N + 1, 101)), res[:, 1]
    np.testing.assert_array_equal(out[("HWATOMIC", 0)], np.array([10 + N, 100 - N], np.uint32))


def test_image_store_load_atomic_resq(gl):
    """IMAGE 2D R32UI: STORE, LOAD back, ATOMUADD (returns the old texel), RESQ = (width, height)."""
    text = (
        HEADER
        + """DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL BUFFER[0]
DCL TEMP[0..4]
IMM[0] UINT32 {4, 0, 100, 1}
IMM[1] UINT32 {16, 0, 0, 0}
MOV TEMP[0], IMM[0].yyyy
MOV TEMP[0].x, SV[0].xxxx
UMAD TEMP[1].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].zzzz
STORE IMAGE[0], TEMP[0], TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
LOAD TEMP[2], IMAGE[0], TEMP[0], 2D, PIPE_FORMAT_R32_UINT
ATOMUADD TEMP[3].x, IMAGE[0], TEMP[0], IMM[0].wwww, 2D, PIPE_FORMAT_R32_UINT
RESQ TEMP[4].xy, IMAGE[0], 2D, PIPE_FORMAT_R32_UINT
MOV TEMP[2].y, TEMP[3].xxxx
MOV TEMP[2].zw, TEMP[4].xxxy
UMUL TEMP[0].y, SV[0].xxxx, IMM[1].xxxx
STORE BUFFER[0].xyzw, TEMP[0].yyyy, TEMP[2]
END
"""
    )
    with gl.ctx:
        img = gl.ctx.texture((N, 1), 1, np.zeros(N, np.uint32).tobytes(), dtype="u4")
    try:
        out = gl.run_cs(text, {0: np.zeros(4 * N, np.uint32)}, glsl_version=450, images={0: img})
        with gl.ctx:
            after = np.frombuffer(img.read(), dtype=np.uint32)
    finally:
        with gl.ctx:
            img.release()
    v = 100 + 4 * np.arange(N)
    exp = np.stack([v, v, np.full(N, N), np.ones(N)], 1).astype(np.uint32)
    np.testing.assert_array_equal(out[0].reshape(N, 4), exp)
    np.testing.assert_array_equal(after, (v + 1).astype(np.uint32))


def test_subgroup_votes_and_ballot(gl):
    """VOTE_ALL/ANY/EQ, READ_FIRST, READ_INVOC on values uniform over the group (so the result does
    not depend on the subgroup size); BALLOT(true) has the invocation's own SUBGROUP_INVOCATION bit."""
    text = (
        HEADER
        + """DCL SV[1], SUBGROUP_INVOCATION
DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {32, 0, 5, 4294967295}
IMM[1] UINT32 {7, 16, 4, 8}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
VOTE_ALL TEMP[1].x, IMM[0].wwww
VOTE_ANY TEMP[1].y, IMM[0].yyyy
VOTE_EQ TEMP[1].z, IMM[0].zzzz
READ_FIRST TEMP[1].w, IMM[1].xxxx
BALLOT TEMP[2].xy, IMM[0].wwww
MOV TEMP[2].z, SV[1].xxxx
READ_INVOC TEMP[2].w, IMM[1].zzzz, IMM[0].yyyy
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[2]
END
"""
    )
    out = gl.run_cs(text, {0: np.zeros(8 * N, np.uint32)}, glsl_version=450)
    res = out[0].reshape(N, 8)
    np.testing.assert_array_equal(res[:, :4], np.tile(np.array([UMAX, 0, UMAX, 7], np.uint32), (N, 1)))
    np.testing.assert_array_equal(res[:, 7], np.full(N, 4, np.uint32), err_msg="READ_INVOC of lane 0")
    for row in res:
        mask = int(row[4]) | (int(row[5]) << 32)
        assert (mask >> int(row[6])) & 1, f"ballot {mask:#x} lacks own lane {row[6]}"


def test_clock_is_monotonic(gl):
    """CLOCK: two reads in program order; the second 64-bit value is not smaller."""
    text = (
        HEADER
        + """DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {16, 3, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
CLOCK TEMP[1].xy
UMUL TEMP[3].x, TEMP[1].xxxx, IMM[0].yyyy
CLOCK TEMP[2].xy
MOV TEMP[1].zw, TEMP[2].xxxy
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
END
"""
    )
    out = gl.run_cs(text, {0: np.zeros(4 * N, np.uint32)}, glsl_version=450)
    t = out[0].reshape(N, 4).astype(np.uint64)
    first, second = t[:, 0] | (t[:, 1] << np.uint64(32)), t[:, 2] | (t[:, 3] << np.uint64(32))
    assert (second >= first).all(), (first, second)
    assert (second > 0).all()


@pytest.mark.parametrize("version", H.GLSL_VERSIONS, ids=lambda v: f"glsl{v}")
def test_fbfetch_reads_the_framebuffer(gl, version):
    """FBFETCH OUT[0] returns the colour already in the render target (the clear colour).

    The fetched value is modified before it is written back: llvmpipe (Mesa
    22.3) loses the output of a shader that stores the fetched colour
    unchanged (it drops the self-assignment), a host bug this test steps around.
    """
    from lowering.errors import UnsupportedError

    clear = (0.25, -2.0, 1e10, 3.0)
    exp = np.tile(R.f32_words([[0.375, -1.0, 1e10, 3.5]])[0], (4, 1))
    try:
        H.run_check(
            gl,
            "FBFETCH",
            [R.f32_words(np.zeros((4, 4)))],
            version,
            body="FBFETCH SRC0, OUT[0]\nADD DST, SRC0, IMM[2]",
            decls="IMM[2] FLT32 {0.125, 1.0, 0.0, 0.5}",
            expected=exp,
            rule=H.Precision("bits"),
            clear=clear,
        )
    except UnsupportedError as err:
        # framebuffer fetch is an extension; the gl33 profile passes none
        assert version < 450 and "FBFETCH" in str(err), err
        H.REFUSED.append(("FBFETCH", version))


@pytest.mark.parametrize(
    "text",
    [
        HEADER + "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL TEMP[0]\nIMG2HND TEMP[0].xy, IMAGE[0]\nEND\n",
        "FRAG\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nSAMP2HND TEMP[0].xy, SAMP[0], 2D\nEND\n",
    ],
    ids=["IMG2HND", "SAMP2HND"],
)
def test_bindless_refused_without_the_extension(gl, text):
    """The host has no ARB_bindless_texture: handles must be refused, naming the opcode."""
    from lowering.errors import UnsupportedError

    op = "IMG2HND" if "IMG2HND" in text else "SAMP2HND"
    with pytest.raises(UnsupportedError, match=op):
        gl.lower(text, 450)


@pytest.mark.parametrize(
    "decl,line",
    [
        ("DCL BUFFER[0]", "LOAD TEMP[0], BUFFER[0], IMM[0].xxxx"),
        ("DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR", "LOAD TEMP[0], IMAGE[0], IMM[0], 2D, PIPE_FORMAT_R32_UINT"),
        ("DCL HWATOMIC[0][0]", "ATOMUADD TEMP[0].x, HWATOMIC[0][0], IMM[0].xxxx, IMM[0].yyyy"),
    ],
    ids=["BUFFER", "IMAGE", "HWATOMIC"],
)
def test_fs_resources_refused_at_330(gl, decl, line):
    """SSBOs (GLSL 430), images and atomic counters (420) do not exist on the gl33 profile."""
    from lowering.errors import UnsupportedError

    text = (
        f"FRAG\nDCL OUT[0], COLOR\n{decl}\nDCL TEMP[0]\nIMM[0] UINT32 {{0, 1, 0, 0}}\n"
        f"{line}\nMOV OUT[0], TEMP[0]\nEND\n"
    )
    with pytest.raises(UnsupportedError):
        gl.lower(text, 330)
    gl.lower(text, 450)  # ... and the same shader lowers where they exist


@pytest.mark.parametrize("fence", ["MFENCE", "LFENCE", "SFENCE"])
def test_legacy_fences(gl, fence):
    """Removed MFENCE/LFENCE/SFENCE on a resource: between a STORE and a LOAD of the same dword."""
    text = (
        HEADER
        + f"""DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {{4, 3, 0, 0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx
{fence} BUFFER[0]
LOAD TEMP[2].x, BUFFER[0], TEMP[0].xxxx
UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[2].xxxx
END
"""
    )
    out = gl.run_cs(text, {0: np.zeros(N, np.uint32)}, glsl_version=450)
    np.testing.assert_array_equal(out[0], (3 * np.arange(N) + 3).astype(np.uint32))
