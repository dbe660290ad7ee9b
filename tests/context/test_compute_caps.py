"""The compute and shader-buffer caps, proven by use on both profiles, and
the boundary of create_compute_state / launch_grid / set_shader_buffers.

Every limit is exercised at its value (a block of MAX_THREADS_PER_BLOCK
with MAX_LOCAL_SIZE bytes of shared memory, every shader-buffer slot, a
binding of MAX_SHADER_BUFFER_SIZE_UINT bytes, a range at the offset
alignment), and one past it is refused.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Box,
    Cap,
    ComputeCap,
    ComputeState,
    Format,
    GridInfo,
    InvalidArgumentError,
    Map,
    ResourceTemplate,
    ShaderBuffer,
    ShaderCap,
    ShaderIR,
    ShaderState,
    Target,
    UnsupportedError,
    VertexBuffer,
)
from glpipe.enums import ShaderType

from .util_compute import bind_buffers, read_buffer, shader_buffer
from .util_draw import POS_COLOR, SIZE, setup, vertices

ONE = "PROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"


def _cp(screen, cap):
    return screen.get_compute_param(ShaderIR.TGSI, cap)


def _launch(ctx, text, block=(1, 1, 1), grid=(1, 1, 1), local=0):
    cso = ctx.create_compute_state(ComputeState(prog=text, req_local_mem=local))
    ctx.bind_compute_state(cso)
    ctx.launch_grid(GridInfo(block=block, grid=grid))
    return cso


def test_every_shader_buffer_slot(screen, ctx):
    """MAX_SHADER_BUFFERS of the compute stage: each slot written by one kernel."""
    n = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_SHADER_BUFFERS)
    assert n >= 8  # GL 4.3's minimum, and the executor's
    assert screen.get_param(Cap.MAX_COMBINED_SHADER_BUFFERS) >= n
    assert screen.get_param(Cap.MAX_COMBINED_SHADER_OUTPUT_RESOURCES) >= n
    lines = ["COMP", ONE.strip()] + [f"DCL BUFFER[{k}]" for k in range(n)]
    lines += [f"IMM[{k}] UINT32 {{{100 + k}, 0, 0, 0}}" for k in range(n)]
    lines += [f"STORE BUFFER[{k}].x, IMM[0].yyyy, IMM[{k}].xxxx" for k in range(n)]
    lines.append("END")
    bufs = [shader_buffer(screen, ctx, np.zeros(4, np.uint32)) for _ in range(n)]
    bind_buffers(ctx, *bufs)
    _launch(ctx, "\n".join(lines) + "\n")
    got = [int(read_buffer(ctx, b, np.uint32)[0]) for b in bufs]
    assert got == [100 + k for k in range(n)]
    with pytest.raises(InvalidArgumentError, match="slots"):
        ctx.set_shader_buffers(ShaderType.COMPUTE, n, [ShaderBuffer(buffer=bufs[0], buffer_size=4)], 1)


def test_shader_buffer_offset_alignment(screen, ctx):
    """A range starting at SHADER_BUFFER_OFFSET_ALIGNMENT addresses from there;
    an offset that is not a multiple is refused."""
    align = screen.get_param(Cap.SHADER_BUFFER_OFFSET_ALIGNMENT)
    assert align >= 4 and align & (align - 1) == 0
    data = np.arange(64, dtype=np.uint32)
    src = shader_buffer(screen, ctx, data)
    dst = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
    text = "COMP\n" + ONE + "DCL BUFFER[0]\nDCL BUFFER[1]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n"
    text += "LOAD TEMP[0].x, BUFFER[0], IMM[0].xxxx\nSTORE BUFFER[1].x, IMM[0].xxxx, TEMP[0].xxxx\nEND\n"
    ctx.set_shader_buffers(
        ShaderType.COMPUTE,
        0,
        [ShaderBuffer(buffer=src, buffer_offset=align, buffer_size=64), ShaderBuffer(buffer=dst, buffer_size=16)],
        0b10,
    )
    _launch(ctx, text)
    assert int(read_buffer(ctx, dst, np.uint32)[0]) == align // 4
    with pytest.raises(InvalidArgumentError, match="ALIGNMENT"):
        ctx.set_shader_buffers(
            ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=src, buffer_offset=align + 2, buffer_size=4)]
        )


def test_writable_bitmask(screen, ctx):
    """A writable slot is written on both paths.  A slot whose writable bit
    is clear is only read (context.rst); a store to it is undefined in
    Gallium, and the executor drops it (GL has no read-only SSBO binding, so
    the host path is not asserted)."""
    text = (
        "COMP\n" + ONE + "DCL BUFFER[0]\nIMM[0] UINT32 {0, 9, 0, 0}\nSTORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy\nEND\n"
    )
    src = shader_buffer(screen, ctx, np.full(4, 5, np.uint32))
    bind_buffers(ctx, src, writable=1)
    _launch(ctx, text)
    assert int(read_buffer(ctx, src, np.uint32)[0]) == 9
    if _cp(screen, ComputeCap.IR_TARGET) == "numpy":
        ro = shader_buffer(screen, ctx, np.full(4, 5, np.uint32))
        bind_buffers(ctx, ro, writable=0)
        _launch(ctx, text)
        assert int(read_buffer(ctx, ro, np.uint32)[0]) == 5


def test_max_shader_buffer_size(screen, ctx):
    """A binding of MAX_SHADER_BUFFER_SIZE_UINT bytes: its last word is written."""
    size = screen.get_param(Cap.MAX_SHADER_BUFFER_SIZE_UINT)
    assert size >= 1 << 24
    assert _cp(screen, ComputeCap.MAX_MEM_ALLOC_SIZE) == size
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.SHADER_BUFFER)
    )
    text = "COMP\n" + ONE + f"DCL BUFFER[0]\nIMM[0] UINT32 {{{size - 4}, 1234567, 0, 0}}\n"
    text += "STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy\nEND\n"
    bind_buffers(ctx, res)
    _launch(ctx, text)
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=size - 4, width=4, height=1, depth=1))
    assert int(np.frombuffer(t.data.tobytes(), np.uint32)[0]) == 1234567
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)


def test_block_of_max_threads_with_max_shared_memory(screen, ctx):
    """MAX_THREADS_PER_BLOCK invocations (within MAX_BLOCK_SIZE) in one
    block, each storing into the top of MAX_LOCAL_SIZE bytes of shared
    memory and reading a neighbour's word after BARRIER."""
    threads = min(_cp(screen, ComputeCap.MAX_THREADS_PER_BLOCK), _cp(screen, ComputeCap.MAX_BLOCK_SIZE)[0])
    local = _cp(screen, ComputeCap.MAX_LOCAL_SIZE)
    assert threads >= 1024 and local >= 32768
    top = local - 4 * threads  # byte offset of the first word used: the end of shared memory is reached
    text = f"""COMP
DCL SV[0], THREAD_ID
DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {{4, {top}, 1, {threads}}}
UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].yyyy
STORE MEMORY[0].x, TEMP[0].xxxx, SV[0].xxxx
BARRIER
UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz
UMOD TEMP[0].y, TEMP[0].yyyy, IMM[0].wwww
UMAD TEMP[0].z, TEMP[0].yyyy, IMM[0].xxxx, IMM[0].yyyy
LOAD TEMP[1].x, MEMORY[0], TEMP[0].zzzz
UMUL TEMP[0].w, SV[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].wwww, TEMP[1].xxxx
END
"""
    out = shader_buffer(screen, ctx, np.zeros(threads, np.uint32))
    bind_buffers(ctx, out)
    _launch(ctx, text, block=(threads, 1, 1), local=local)
    np.testing.assert_array_equal(read_buffer(ctx, out, np.uint32), (np.arange(threads) + 1) % threads)
    with pytest.raises(UnsupportedError, match="MAX_LOCAL_SIZE"):
        ctx.create_compute_state(ComputeState(prog=text, req_local_mem=local + 4))
    cso = ctx.create_compute_state(ComputeState(prog=text, req_local_mem=local))
    ctx.bind_compute_state(cso)
    with pytest.raises(InvalidArgumentError, match="MAX_THREADS_PER_BLOCK|MAX_BLOCK_SIZE"):
        ctx.launch_grid(GridInfo(block=(threads + 1, 1, 1)))


def test_compute_ir_target_names_the_path(screen):
    """IR_TARGET says where compute runs: host GLSL or the numpy executor."""
    target = _cp(screen, ComputeCap.IR_TARGET)
    assert target == ("numpy" if not screen.profile.has("compute_shader") else f"glsl{screen.profile.glsl_version}")
    assert screen.get_param(Cap.CS_DERIVED_SYSTEM_VALUES_SUPPORTED) == 1


def test_launch_grid_boundary(screen, ctx):
    with pytest.raises(InvalidArgumentError, match="no compute state"):
        ctx.launch_grid(GridInfo())
    cso = ctx.create_compute_state(ComputeState(prog="COMP\n" + ONE + "END\n"))
    ctx.bind_compute_state(cso)
    with pytest.raises(InvalidArgumentError, match="GridInfo"):
        ctx.launch_grid((1, 1, 1))
    with pytest.raises(InvalidArgumentError, match="block"):
        ctx.launch_grid(GridInfo(block=(0, 1, 1)))
    with pytest.raises(InvalidArgumentError, match="CS_FIXED_BLOCK"):
        ctx.launch_grid(GridInfo(block=(2, 1, 1)))
    with pytest.raises(InvalidArgumentError, match="last_block"):
        ctx.launch_grid(GridInfo(last_block=(2, 0, 0)))
    with pytest.raises(InvalidArgumentError, match="grid"):
        ctx.launch_grid(GridInfo(grid=(2**32, 1, 1)))
    with pytest.raises(InvalidArgumentError, match="MAX_GRID_SIZE"):
        ctx.launch_grid(GridInfo(grid=(_cp(screen, ComputeCap.MAX_GRID_SIZE)[0] + 1, 1, 1)))
    small = shader_buffer(screen, ctx, np.zeros(2, np.uint32))
    with pytest.raises(InvalidArgumentError, match="indirect"):
        ctx.launch_grid(GridInfo(indirect=small, indirect_offset=0))  # 12 bytes do not fit in 8
    with pytest.raises(InvalidArgumentError, match="aligned"):
        ctx.launch_grid(GridInfo(indirect=small, indirect_offset=2))
    ctx.launch_grid(GridInfo(grid=(0, 0, 0)))  # an empty grid runs nothing
    ctx.delete_compute_state(cso)
    with pytest.raises(InvalidArgumentError, match="no compute state"):
        ctx.launch_grid(GridInfo())
    with pytest.raises(UnsupportedError, match="req_input_mem"):
        ctx.create_compute_state(ComputeState(prog="COMP\nEND\n", req_input_mem=16))
    with pytest.raises(InvalidArgumentError, match="prog"):
        ctx.create_compute_state(ComputeState(prog=None))


def test_set_shader_buffers_boundary(screen, ctx):
    buf = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
    tex = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=4, height0=4)
    )
    with pytest.raises(InvalidArgumentError, match="ShaderType"):
        ctx.set_shader_buffers(99, 0, [])
    with pytest.raises(InvalidArgumentError, match="ShaderBuffer"):
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [buf])
    with pytest.raises(InvalidArgumentError, match="BUFFER"):
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=tex, buffer_size=4)])
    with pytest.raises(InvalidArgumentError, match="outside"):
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=buf, buffer_size=17)])
    with pytest.raises(InvalidArgumentError, match="uint32"):
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=buf, buffer_size=-1)])
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [None])  # unbinding is fine
    screen.resource_destroy(tex)


# An FS counting its fragments into BUFFER[0] with ATOMUADD, and writing red.
_COUNT_FS = """FRAG
DCL OUT[0], COLOR
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {0, 1, 0, 0}
IMM[1] FLT32 {1.0, 0.0, 0.0, 1.0}
ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy
MOV OUT[0], IMM[1]
END
"""


def test_fragment_shader_buffer_atomics(screen, ctx):
    """MAX_SHADER_BUFFERS of the FRAGMENT stage: an FS counts its fragments
    with ATOMUADD; where the cap is 0 (no host SSBOs) the shader is refused."""
    n = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_SHADER_BUFFERS)
    if n == 0:
        with pytest.raises(UnsupportedError, match="MAX_SHADER_BUFFERS"):
            ctx.create_fs_state(ShaderState(tokens=_COUNT_FS))
        with pytest.raises(UnsupportedError, match="MAX_SHADER_BUFFERS"):
            ctx.set_shader_buffers(ShaderType.FRAGMENT, 0, [None])
        return
    counter = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
    setup(ctx, fs=_COUNT_FS)
    ctx.set_shader_buffers(ShaderType.FRAGMENT, 0, [ShaderBuffer(buffer=counter, buffer_size=16)], 1)
    # A rectangle of 6 x 4 pixels (two triangles with pixel-aligned corners).
    rect = [(2, 3), (8, 3), (2, 7), (8, 3), (8, 7), (2, 7)]
    data = vertices(rect, (1, 1, 1, 1))
    vb = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=Bind.VERTEX_BUFFER)
    )
    ctx.buffer_subdata(vb, Map.WRITE, 0, data)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    from glpipe import DrawInfo, Prim

    assert POS_COLOR and SIZE >= 8
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=6))
    assert int(read_buffer(ctx, counter, np.uint32)[0]) == 6 * 4


# Invocation i copies vertex i (8 words) from BUFFER[0] to BUFFER[1].
_COPY_VERTICES = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 16
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..2]
IMM[0] UINT32 {16, 32, 16, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
UADD TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz
LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx
LOAD TEMP[2], BUFFER[0], TEMP[0].yyyy
STORE BUFFER[1].xyzw, TEMP[0].xxxx, TEMP[1]
STORE BUFFER[1].xyzw, TEMP[0].yyyy, TEMP[2]
END
"""


def test_compute_write_then_draw_read_after_memory_barrier(screen, ctx):
    """launch_grid writes a vertex buffer, memory_barrier(VERTEX_BUFFER), and
    the draw fetches the written vertices (points at every pixel of the target)."""
    from glpipe import Barrier, DrawInfo, Prim

    from .util import read_rgba32f
    from .util_draw import point_grid_vertices, points_image

    n = SIZE * SIZE
    verts = point_grid_vertices(n)
    src = shader_buffer(screen, ctx, verts)
    dst = shader_buffer(screen, ctx, np.zeros_like(verts), Bind.VERTEX_BUFFER)
    color = setup(ctx)
    bind_buffers(ctx, src, dst)
    _launch(ctx, _COPY_VERTICES, block=(16, 1, 1), grid=(n // 16, 1, 1))
    ctx.memory_barrier(Barrier.VERTEX_BUFFER)
    ctx.set_vertex_buffers([VertexBuffer(buffer=dst, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, start=0, count=n))
    np.testing.assert_array_equal(read_rgba32f(screen, color), points_image(range(n), verts))
    with pytest.raises(InvalidArgumentError, match="Barrier"):
        ctx.memory_barrier(1 << 20)


def test_set_global_binding_is_refused(screen, ctx):
    """No global memory (MAX_GLOBAL_SIZE 0): set_global_binding says so."""
    assert _cp(screen, ComputeCap.MAX_GLOBAL_SIZE) == 0
    buf = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
    with pytest.raises(UnsupportedError, match="MAX_GLOBAL_SIZE"):
        ctx.set_global_binding(0, [buf])


def test_compute_constant_buffers_at_the_limits(screen, ctx):
    """MAX_CONST_BUFFERS of the compute stage, each MAX_CONST_BUFFER0_SIZE
    bytes (user memory and resources alternating): a kernel reads the first
    and the last register of each."""
    from glpipe import ConstantBuffer

    n = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_CONST_BUFFERS)
    size = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_CONST_BUFFER0_SIZE)
    assert n >= 12 and size >= 16384
    last = size // 16 - 1
    rng = np.random.default_rng(7)
    datas = [rng.integers(0, 1 << 30, size // 4, dtype=np.uint32) for _ in range(n)]
    for k, d in enumerate(datas):
        if k % 2:
            res = shader_buffer(screen, ctx, d)
            ctx.set_constant_buffer(ShaderType.COMPUTE, k, ConstantBuffer(buffer=res, buffer_size=size))
        else:
            ctx.set_constant_buffer(ShaderType.COMPUTE, k, ConstantBuffer(user_buffer=d, buffer_size=size))
    lines = ["COMP", ONE.strip(), "DCL BUFFER[0]", "DCL TEMP[0..1]"]
    lines += [f"DCL CONST[{k}][0..{last}]" for k in range(n)]
    lines += [f"IMM[{k}] UINT32 {{{16 * k}, 0, 0, 0}}" for k in range(n)]
    for k in range(n):
        lines += [
            f"UADD TEMP[0], CONST[{k}][0], CONST[{k}][{last}]",
            f"STORE BUFFER[0].xyzw, IMM[{k}].xxxx, TEMP[0]",
        ]
    lines.append("END")
    out = shader_buffer(screen, ctx, np.zeros(4 * n, np.uint32))
    bind_buffers(ctx, out)
    _launch(ctx, "\n".join(lines) + "\n")
    expect = np.concatenate([d[:4] + d[-4:] for d in datas])
    np.testing.assert_array_equal(read_buffer(ctx, out, np.uint32), expect)


def test_compute_shaders_past_the_size_limits_are_refused_at_create(screen, ctx):
    """The shader size limits (docs/caps.md "Shader size limits") hold for
    compute as for the graphics stages: a program past MAX_INSTRUCTIONS is
    refused at create_compute_state, naming the cap."""
    from glpipe import ComputeState, ShaderCap, ShaderType
    from glpipe.errors import ShaderValidationError

    limit = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_INSTRUCTIONS)
    body = "MOV TEMP[0], TEMP[0]\n" * limit
    prog = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
    prog += "DCL TEMP[0]\n" + body + "END\n"
    with pytest.raises(ShaderValidationError, match="MAX_INSTRUCTIONS"):
        ctx.create_compute_state(ComputeState(prog=prog))
