"""Shader images (set_shader_images) and hardware atomic counters
(set_hw_atomic_buffers), issue 16 items 2, 5, 7 (docs/compute.md "Shader
images", "Atomic counters").

Native: kernels and draws through GL 4.5 image load/store and atomic
counters, every result checked against numpy from the operation's
definition.  gl33: compute kernels run their images through the numpy
executor (fallback/tgsi_exec/images.py) and must give the same results;
the graphics stages' image caps and every atomic-counter cap are 0 there,
and those entry points refuse with UnsupportedError naming the cap -- the
tests prove that refusal.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Barrier,
    Bind,
    Box,
    ComputeState,
    Format,
    GridInfo,
    ImageAccess,
    ImageView,
    Map,
    ResourceTemplate,
    ShaderBuffer,
    ShaderCap,
    ShaderType,
    Target,
)
from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .util_caps import FULL_TRI, draw
from .util_compute import read_buffer, shader_buffer
from .util_sampling import bind_sampling, nearest, view_2d

RW = ImageAccess.READ_WRITE


def native(screen) -> bool:
    """Host image units (GL 4.2 image load/store): the graphics stages have images."""
    return screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_SHADER_IMAGES) > 0


def image_texture(
    screen, ctx, data, fmt, target=Target.TEXTURE_2D, array_size=1, last_level=0, extra_bind=0, channels=1
):
    """A texture bindable as an image holding ``data`` ((layers,) h, w(, channels)) in level 0."""
    data = np.ascontiguousarray(data)
    h, w = data.shape[-2:] if channels == 1 else data.shape[-3:-1]
    res = screen.resource_create(
        ResourceTemplate(
            target=target,
            format=fmt,
            width0=w,
            height0=h,
            array_size=array_size,
            last_level=last_level,
            bind=Bind.SHADER_IMAGE | Bind.SAMPLER_VIEW | extra_bind,
        )
    )
    ctx.texture_subdata(
        res,
        0,
        Map.WRITE,
        Box(x=0, y=0, z=0, width=w, height=h, depth=array_size),
        data,
        w * channels * data.itemsize,
        w * h * channels * data.itemsize,
    )
    return res


def read_texture(ctx, res, dtype, level=0, layers=1) -> np.ndarray:
    """Level ``level`` of a single-channel texture through transfer_map READ."""
    w, h = max(res.width0 >> level, 1), max(res.height0 >> level, 1)
    t = ctx.transfer_map(res, level, Map.READ, Box(x=0, y=0, z=0, width=w, height=h, depth=layers))
    rows = np.frombuffer(t.data.tobytes(), np.uint8).reshape(layers, h, t.stride)
    out = rows[:, :, : w * np.dtype(dtype).itemsize].copy().view(dtype)
    ctx.transfer_unmap(t)
    return out if layers > 1 else out[0]


def launch(ctx, prog, block, grid):
    cso = ctx.create_compute_state(ComputeState(prog=prog))
    ctx.bind_compute_state(cso)
    ctx.launch_grid(GridInfo(block=block, grid=grid))
    return cso


# A 5-point cross sum (x, x±1, y±1), zero outside the image (GL: an image
# load outside the image returns 0), 8x8 blocks.
BLUR_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 8
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_FLOAT
DCL IMAGE[1], 2D, PIPE_FORMAT_R32_FLOAT, WR
DCL TEMP[0..3]
IMM[0] INT32 {8, 1, -1, 0}
UMAD TEMP[0].xy, SV[1].xyyy, IMM[0].xxxx, SV[0].xyyy
LOAD TEMP[1].x, IMAGE[0], TEMP[0].xyyy, 2D, PIPE_FORMAT_R32_FLOAT
MOV TEMP[2], TEMP[0]
UADD TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy
LOAD TEMP[3].x, IMAGE[0], TEMP[2].xyyy, 2D, PIPE_FORMAT_R32_FLOAT
ADD TEMP[1].x, TEMP[1].xxxx, TEMP[3].xxxx
UADD TEMP[2].x, TEMP[0].xxxx, IMM[0].zzzz
LOAD TEMP[3].x, IMAGE[0], TEMP[2].xyyy, 2D, PIPE_FORMAT_R32_FLOAT
ADD TEMP[1].x, TEMP[1].xxxx, TEMP[3].xxxx
MOV TEMP[2], TEMP[0]
UADD TEMP[2].y, TEMP[0].yyyy, IMM[0].yyyy
LOAD TEMP[3].x, IMAGE[0], TEMP[2].xyyy, 2D, PIPE_FORMAT_R32_FLOAT
ADD TEMP[1].x, TEMP[1].xxxx, TEMP[3].xxxx
UADD TEMP[2].y, TEMP[0].yyyy, IMM[0].zzzz
LOAD TEMP[3].x, IMAGE[0], TEMP[2].xyyy, 2D, PIPE_FORMAT_R32_FLOAT
ADD TEMP[1].x, TEMP[1].xxxx, TEMP[3].xxxx
STORE IMAGE[1], TEMP[0].xyyy, TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_FLOAT
END
"""


def blur_reference(src: np.ndarray) -> np.ndarray:
    p = np.pad(src, 1)
    # The kernel's order of additions: centre, x+1, x-1, y+1, y-1 (float32 each step).
    out = p[1:-1, 1:-1] + p[1:-1, 2:]
    out = out + p[1:-1, :-2]
    out = out + p[2:, 1:-1]
    return out + p[:-2, 1:-1]


def test_image_blur_kernel(screen, ctx):
    rng = np.random.default_rng(16)
    src = rng.integers(-50, 50, (16, 24)).astype(np.float32) * 0.25
    a = image_texture(screen, ctx, src, Format.R32_FLOAT)
    b = image_texture(screen, ctx, np.full_like(src, 7.0), Format.R32_FLOAT)
    ctx.set_shader_images(
        ShaderType.COMPUTE,
        0,
        [
            ImageView(resource=a, format=Format.R32_FLOAT, access=ImageAccess.READ, shader_access=ImageAccess.READ),
            ImageView(resource=b, format=Format.R32_FLOAT, access=ImageAccess.WRITE, shader_access=ImageAccess.WRITE),
        ],
    )
    launch(ctx, BLUR_CS, (8, 8, 1), (3, 2, 1))
    # transfer_map READ right after the launch sees the image writes.
    np.testing.assert_array_equal(read_texture(ctx, b, np.float32), blur_reference(src))
    np.testing.assert_array_equal(read_texture(ctx, a, np.float32), src)  # read-only: untouched


HISTOGRAM_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT
DCL IMAGE[1], 2D, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0..2]
IMM[0] UINT32 {4, 1, 0, 0}
UMAD TEMP[0].xy, SV[1].xyyy, IMM[0].xxxx, SV[0].xyyy
LOAD TEMP[1].x, IMAGE[0], TEMP[0].xyyy, 2D, PIPE_FORMAT_R32_UINT
MOV TEMP[1].y, IMM[0].zzzz
ATOMUADD TEMP[2].x, IMAGE[1], TEMP[1].xyyy, IMM[0].yyyy, 2D, PIPE_FORMAT_R32_UINT
END
"""


def test_image_atomic_histogram(screen, ctx):
    rng = np.random.default_rng(5)
    values = rng.integers(0, 8, (12, 16)).astype(np.uint32)
    src = image_texture(screen, ctx, values, Format.R32_UINT)
    hist = image_texture(screen, ctx, np.full((1, 8), 3, np.uint32), Format.R32_UINT)
    ctx.set_shader_images(
        ShaderType.COMPUTE,
        0,
        [
            ImageView(resource=src, format=Format.R32_UINT, access=RW),
            ImageView(resource=hist, format=Format.R32_UINT, access=RW),
        ],
    )
    launch(ctx, HISTOGRAM_CS, (4, 4, 1), (4, 3, 1))
    expected = np.bincount(values.ravel(), minlength=8).astype(np.uint32) + 3
    np.testing.assert_array_equal(read_texture(ctx, hist, np.uint32)[0], expected)


# The FS stores x + 16*y of its pixel into IMAGE[0] and outputs 1.
IMAGE_FS = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0..1]
IMM[0] UINT32 {16, 0, 0, 0}
IMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}
F2U TEMP[0].xy, IN[0].xyyy
UMAD TEMP[1].x, TEMP[0].yyyy, IMM[0].xxxx, TEMP[0].xxxx
STORE IMAGE[0], TEMP[0].xyyy, TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
MOV OUT[0], IMM[1].xxxx
END
"""


def test_fragment_shader_writes_an_image(screen, ctx):
    if not native(screen):
        assert screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_SHADER_IMAGES) == 0
        with pytest.raises(UnsupportedError, match="MAX_SHADER_IMAGES"):
            draw(ctx, IMAGE_FS, 4, 3)
        return
    img = image_texture(screen, ctx, np.zeros((3, 4), np.uint32), Format.R32_UINT)
    last = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_SHADER_IMAGES) - 1

    def before(c):
        c.set_shader_images(ShaderType.FRAGMENT, 0, [ImageView(resource=img, format=Format.R32_UINT, access=RW)])
        # The last slot is bindable too (and unbinding it touches nothing else).
        c.set_shader_images(ShaderType.FRAGMENT, last, [None])

    out = draw(ctx, IMAGE_FS, 4, 3, before=before)
    assert np.all(out[..., 0] == 1.0)
    ys, xs = np.mgrid[0:3, 0:4]
    np.testing.assert_array_equal(read_texture(ctx, img, np.uint32), (xs + 16 * ys).astype(np.uint32))


# The VS reads its position's x offset from BUFFER[0] word VERTEXID (always 0
# here) and the FS colour from word 3.
SSBO_VS = """VERT
DCL IN[0]
DCL SV[0], VERTEXID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {12, 0, 0, 0}
LOAD TEMP[0].x, BUFFER[0], IMM[0].xxxx
MOV OUT[0], IN[0]
MOV OUT[1], TEMP[0].xxxx
END
"""

GENERIC_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
MOV OUT[0], IN[0]
END
"""


def test_vertex_shader_reads_a_shader_buffer(screen, ctx):
    words = np.array([0, 0, 0, 2.5], np.float32)
    if screen.get_shader_param(ShaderType.VERTEX, ShaderCap.MAX_SHADER_BUFFERS) == 0:
        with pytest.raises(UnsupportedError, match="MAX_SHADER_BUFFERS"):
            draw(ctx, GENERIC_FS, 2, 2, vs=SSBO_VS)
        return
    buf = shader_buffer(screen, ctx, words)

    def before(c):
        c.set_shader_buffers(ShaderType.VERTEX, 0, [ShaderBuffer(buffer=buf, buffer_size=buf.width0)], 0)

    out = draw(ctx, GENERIC_FS, 2, 2, vs=SSBO_VS, before=before)
    assert np.all(out == 2.5)


FILL_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR
DCL TEMP[0..1]
IMM[0] FLT32 {0.5, 10.0, 1.0, 0.0}
U2F TEMP[1].xy, SV[0].xyyy
MAD TEMP[1].x, TEMP[1].yyyy, IMM[0].yyyy, TEMP[1].xxxx
ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx
MOV TEMP[1].yzw, IMM[0].zzwz
STORE IMAGE[0], SV[0].xyyy, TEMP[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT
END
"""

TXF_FS = """FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
IMM[0] INT32 {0, 0, 0, 0}
F2I TEMP[0].xy, IN[0].xyyy
MOV TEMP[0].w, IMM[0].xxxx
TXF OUT[0], TEMP[0], SAMP[0], 2D
END
"""


def test_memory_barrier_between_a_compute_image_write_and_a_draw_sampling_it(screen, ctx):
    """A draw sampling what a launch wrote to an image (on gl33 the executor
    writes it back before launch_grid returns)."""
    tex = image_texture(screen, ctx, np.zeros((4, 4, 4), np.float32), Format.R32G32B32A32_FLOAT, channels=4)
    ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=tex, format=tex.format, access=ImageAccess.WRITE)])
    launch(ctx, FILL_CS, (4, 4, 1), (1, 1, 1))
    ctx.memory_barrier(Barrier.TEXTURE)
    view = view_2d(ctx, tex)
    out = draw(ctx, TXF_FS, 4, 4, before=lambda c: bind_sampling(c, view, c.create_sampler_state(nearest())))
    ys, xs = np.mgrid[0:4, 0:4]
    np.testing.assert_array_equal(out[..., 0], (xs + 10 * ys + 0.5).astype(np.float32))
    assert np.all(out[..., 1] == 1.0) and np.all(out[..., 2] == 0.0) and np.all(out[..., 3] == 1.0)


# One invocation per texel of a 4x4 image stores 100*layer_sv + 1 where the
# layer comes from CONST... kept simple: every texel gets the constant 9.
STORE9_2D_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
IMM[0] UINT32 {9, 0, 0, 0}
STORE IMAGE[0], SV[0].xyyy, IMM[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
END
"""

STORE_ARRAY_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 2
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0]
IMM[0] UINT32 {100, 1, 0, 0}
UMAD TEMP[0].x, SV[0].zzzz, IMM[0].xxxx, IMM[0].yyyy
STORE IMAGE[0], SV[0].xyzz, TEMP[0].xxxx, 2D_ARRAY, PIPE_FORMAT_R32_UINT
END
"""


def test_single_layer_and_layer_range_of_an_array(screen, ctx):
    zeros = np.zeros((4, 4, 4), np.uint32)
    arr = image_texture(screen, ctx, zeros, Format.R32_UINT, target=Target.TEXTURE_2D_ARRAY, array_size=4)
    # A single layer (2) seen as a 2D image.
    ctx.set_shader_images(
        ShaderType.COMPUTE,
        0,
        [
            ImageView(
                resource=arr, format=Format.R32_UINT, access=RW, first_layer=2, last_layer=2, single_layer_view=True
            )
        ],
    )
    launch(ctx, STORE9_2D_CS, (4, 4, 1), (1, 1, 1))
    # Layers 1..2 as a layered image: its layer 0 is the resource's layer 1.
    ctx.set_shader_images(
        ShaderType.COMPUTE, 0, [ImageView(resource=arr, format=Format.R32_UINT, access=RW, first_layer=1, last_layer=2)]
    )
    launch(ctx, STORE_ARRAY_CS, (4, 4, 2), (1, 1, 1))
    got = read_texture(ctx, arr, np.uint32, layers=4)
    expected = np.zeros((4, 4, 4), np.uint32)
    expected[1] = 1  # 100 * 0 + 1
    expected[2] = 101  # the layered launch overwrote the single-layer 9s
    np.testing.assert_array_equal(got, expected)


def test_image_of_a_mip_level(screen, ctx):
    tex = image_texture(screen, ctx, np.zeros((8, 8), np.uint32), Format.R32_UINT, last_level=3)
    ctx.texture_subdata(tex, 1, Map.WRITE, Box(width=4, height=4, depth=1), np.zeros((4, 4), np.uint32), 16, 64)
    ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=tex, format=Format.R32_UINT, access=RW, level=1)])
    launch(ctx, STORE9_2D_CS, (4, 4, 1), (1, 1, 1))
    np.testing.assert_array_equal(read_texture(ctx, tex, np.uint32, level=1), np.full((4, 4), 9, np.uint32))
    np.testing.assert_array_equal(read_texture(ctx, tex, np.uint32, level=0), np.zeros((8, 8), np.uint32))


BUFFER_IMAGE_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0]
IMM[0] UINT32 {3, 1000, 0, 0}
LOAD TEMP[0].x, IMAGE[0], SV[0].xxxx, BUFFER, PIPE_FORMAT_R32_UINT
UMAD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx, IMM[0].yyyy
STORE IMAGE[0], SV[0].xxxx, TEMP[0].xxxx, BUFFER, PIPE_FORMAT_R32_UINT
END
"""


def test_buffer_image_with_offset_and_size(screen, ctx):
    words = np.arange(64, dtype=np.uint32)
    buf = shader_buffer(screen, ctx, words, extra_bind=Bind.SHADER_IMAGE)
    align = screen.get_param(__import__("glpipe").Cap.TEXTURE_BUFFER_OFFSET_ALIGNMENT)
    offset = max(align, 16)
    first = offset // 4
    # 6 texels: lanes 6 and 7 are outside the view (stores dropped, loads 0).
    ctx.set_shader_images(
        ShaderType.COMPUTE, 0, [ImageView(resource=buf, format=Format.R32_UINT, access=RW, offset=offset, size=24)]
    )
    launch(ctx, BUFFER_IMAGE_CS, (8, 1, 1), (1, 1, 1))
    expected = words.copy()
    expected[first : first + 6] = words[first : first + 6] * 3 + 1000
    np.testing.assert_array_equal(read_buffer(ctx, buf, np.uint32), expected)


def test_image_view_format_reinterprets_by_size(screen, ctx):
    # An R32_UINT image view of an R32_FLOAT texture: the store writes the bits.
    tex = image_texture(screen, ctx, np.zeros((4, 4), np.float32), Format.R32_FLOAT)
    ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=tex, format=Format.R32_UINT, access=RW)])
    launch(ctx, STORE9_2D_CS, (4, 4, 1), (1, 1, 1))
    np.testing.assert_array_equal(read_texture(ctx, tex, np.uint32), np.full((4, 4), 9, np.uint32))


def test_set_shader_images_validation(screen, ctx):
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R32_FLOAT,
            width0=4,
            height0=4,
            bind=Bind.SHADER_IMAGE,
        )
    )
    if not native(screen):
        # gl33: only the executor's compute stage has images.
        for stage in ShaderType:
            if stage == ShaderType.COMPUTE:
                continue
            assert screen.get_shader_param(stage, ShaderCap.MAX_SHADER_IMAGES) == 0
            with pytest.raises(UnsupportedError, match="MAX_SHADER_IMAGES"):
                ctx.set_shader_images(stage, 0, [ImageView(resource=tex, format=tex.format, access=RW)])
    view = ImageView(resource=tex, format=Format.R32_FLOAT, access=RW)
    limit = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_SHADER_IMAGES)
    with pytest.raises(InvalidArgumentError, match="slot"):
        ctx.set_shader_images(ShaderType.COMPUTE, limit, [view])
    with pytest.raises(InvalidArgumentError, match="unbind_num_trailing_slots"):
        ctx.set_shader_images(ShaderType.COMPUTE, limit - 1, [view], 1)
    with pytest.raises(InvalidArgumentError, match="shader_type"):
        ctx.set_shader_images(99, 0, [view])
    with pytest.raises(InvalidArgumentError, match="ImageView"):
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [object()])
    bad = {
        "level": ImageView(resource=tex, format=Format.R32_FLOAT, access=RW, level=3),
        "last_layer": ImageView(resource=tex, format=Format.R32_FLOAT, access=RW, last_layer=1),
        "access": ImageView(resource=tex, format=Format.R32_FLOAT, access=ImageAccess(0)),
        "size": ImageView(resource=tex, format=Format.R8_UNORM, access=RW),  # 1 byte vs 4: not compatible by size
    }
    for word, v in bad.items():
        with pytest.raises(InvalidArgumentError, match=word):
            ctx.set_shader_images(ShaderType.COMPUTE, 0, [v])
    # GL has no 3-channel image formats (GL 4.5 table 8.26), and A8 is stored
    # swizzled (an image load would see its alpha in .x): refused, naming the format.
    for fmt in (Format.R8G8B8_UNORM, Format.A8_UNORM):
        with pytest.raises(UnsupportedError, match=fmt.name):
            ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=tex, format=fmt, access=RW)])
    plain = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R32_FLOAT, width0=4, height0=4, bind=Bind.SAMPLER_VIEW)
    )
    with pytest.raises(InvalidArgumentError, match="SHADER_IMAGE"):
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=plain, format=plain.format, access=RW)])
    buf = shader_buffer(screen, ctx, np.zeros(16, np.uint32), extra_bind=Bind.SHADER_IMAGE)
    with pytest.raises(InvalidArgumentError, match="offset"):
        ctx.set_shader_images(
            ShaderType.COMPUTE, 0, [ImageView(resource=buf, format=Format.R32_UINT, access=RW, offset=60, size=8)]
        )
    ctx.set_shader_images(ShaderType.COMPUTE, 0, [view])
    screen.resource_destroy(tex)
    with pytest.raises(ObjectDestroyedError):
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [view])
    # The slot still holds the destroyed texture: a launch reading it is refused, not a crash.
    with pytest.raises(ObjectDestroyedError):
        launch(ctx, STORE9_2D_CS.replace("R32_UINT", "R32_FLOAT"), (4, 4, 1), (1, 1, 1))
    ctx.set_shader_images(ShaderType.COMPUTE, 0, None, 1)  # unbinding is always fine


# ---------------------------------------------------------------------------
# Hardware atomic counters
# ---------------------------------------------------------------------------

COUNTER_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL HWATOMIC[0][0..1]
DCL TEMP[0..1]
IMM[0] UINT32 {1, 4, 64, 0}
ATOMUADD TEMP[0].x, HWATOMIC[0][1], IMM[0].xxxx, IMM[0].xxxx
UMAD TEMP[1].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx
UMUL TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx
END
"""


def test_atomic_counters_in_a_kernel(screen, ctx):
    if screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS) == 0:
        with pytest.raises(UnsupportedError, match="MAX_HW_ATOMIC_COUNTER_BUFFERS"):
            ctx.create_compute_state(ComputeState(prog=COUNTER_CS))
        counters = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
        with pytest.raises(UnsupportedError, match="MAX_HW_ATOMIC_COUNTER_BUFFERS"):
            ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=counters, buffer_size=16)])
        ctx.set_hw_atomic_buffers(0, [None])  # unbinding is fine
        return
    # Counter 1 of buffer 0 at byte 4 of the bound range (offset 16 into the buffer).
    counters = shader_buffer(screen, ctx, np.array([0, 0, 0, 0, 11, 20, 0, 0], np.uint32))
    out = shader_buffer(screen, ctx, np.zeros(128, np.uint32))
    ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=counters, buffer_offset=16, buffer_size=16)])
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    launch(ctx, COUNTER_CS, (64, 1, 1), (2, 1, 1))
    words = read_buffer(ctx, counters, np.uint32)
    np.testing.assert_array_equal(words, [0, 0, 0, 0, 11, 20 + 128, 0, 0])
    # Every invocation got a distinct pre-increment value 20 .. 147.
    got = read_buffer(ctx, out, np.uint32)
    assert sorted(got.tolist()) == list(range(20, 148))


COUNTER_FS = """FRAG
DCL OUT[0], COLOR
DCL HWATOMIC[0][0]
DCL TEMP[0]
IMM[0] UINT32 {1, 0, 0, 0}
IMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}
ATOMUADD TEMP[0].x, HWATOMIC[0][0], IMM[0].xxxx, IMM[0].xxxx
MOV OUT[0], IMM[1].xxxx
END
"""


def test_atomic_counter_counts_fragments(screen, ctx):
    if screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS) == 0:
        with pytest.raises(UnsupportedError, match="MAX_HW_ATOMIC_COUNTER_BUFFERS"):
            draw(ctx, COUNTER_FS, 5, 3)
        return
    counters = shader_buffer(screen, ctx, np.array([100], np.uint32))
    out = draw(
        ctx,
        COUNTER_FS,
        5,
        3,
        before=lambda c: c.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=counters, buffer_size=4)]),
    )
    assert np.all(out[..., 0] == 1.0)
    # One increment per covered pixel: the full-screen triangle covers all 15.
    np.testing.assert_array_equal(read_buffer(ctx, counters, np.uint32), [115])
    assert FULL_TRI.shape == (3, 4)


def test_set_hw_atomic_buffers_validation(screen, ctx):
    buf = shader_buffer(screen, ctx, np.zeros(8, np.uint32))
    limit = screen.get_param(__import__("glpipe").Cap.MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS)
    if limit == 0:
        with pytest.raises(UnsupportedError, match="MAX_HW_ATOMIC_COUNTER_BUFFERS"):
            ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=buf, buffer_size=4)])
        return
    with pytest.raises(InvalidArgumentError, match="slot"):
        ctx.set_hw_atomic_buffers(limit, [ShaderBuffer(buffer=buf, buffer_size=4)])
    with pytest.raises(InvalidArgumentError, match="range"):
        ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=buf, buffer_offset=28, buffer_size=8)])
    with pytest.raises(InvalidArgumentError, match="buffer_offset"):
        ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=buf, buffer_offset=2, buffer_size=4)])
    with pytest.raises(InvalidArgumentError, match="ShaderBuffer"):
        ctx.set_hw_atomic_buffers(0, [42])
    tex = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R32_FLOAT, width0=4, height0=4)
    )
    with pytest.raises(InvalidArgumentError, match="BUFFER"):
        ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=tex, buffer_size=4)])
    ctx.set_hw_atomic_buffers(0, [ShaderBuffer(buffer=buf, buffer_size=4)])
    ctx.set_hw_atomic_buffers(0, None)


# ---------------------------------------------------------------------------
# Samplers and sampler views in compute programs
# ---------------------------------------------------------------------------

# Invocation i (of 4x4) writes TXF of texel (x, y) and TEX at the texel's
# centre through sampler 1 / view 2 (non-zero slots: the slot mapping counts).
SAMPLE_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SAMP[1]
DCL SVIEW[2], 2D, FLOAT
DCL BUFFER[0]
DCL TEMP[0..4]
IMM[0] UINT32 {4, 32, 16, 0}
IMM[1] FLT32 {0.5, 0.25, 0.0, 0.0}
MOV TEMP[0].xy, SV[0].xyyy
MOV TEMP[0].zw, IMM[0].wwww
TXF TEMP[1], TEMP[0], SVIEW[2], 2D
U2F TEMP[2].xy, SV[0].xyyy
ADD TEMP[2].xy, TEMP[2].xyyy, IMM[1].xxxx
MUL TEMP[2].xy, TEMP[2].xyyy, IMM[1].yyyy
SAMPLE TEMP[3], TEMP[2], SVIEW[2], SAMP[1]
UMAD TEMP[4].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[4].x, TEMP[4].xxxx, IMM[0].yyyy
STORE BUFFER[0].xyzw, TEMP[4].xxxx, TEMP[1]
UADD TEMP[4].x, TEMP[4].xxxx, IMM[0].zzzz
STORE BUFFER[0].xyzw, TEMP[4].xxxx, TEMP[3]
END
"""


def test_compute_program_samples_textures(screen, ctx):
    texels = (np.arange(64, dtype=np.float32).reshape(4, 4, 4) + 1) / 64
    tex = image_texture(screen, ctx, texels, Format.R32G32B32A32_FLOAT, channels=4)
    out = shader_buffer(screen, ctx, np.zeros(16 * 8, np.float32))
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    ctx.bind_sampler_states(ShaderType.COMPUTE, 1, [ctx.create_sampler_state(nearest())])
    ctx.set_sampler_views(ShaderType.COMPUTE, 2, [view_2d(ctx, tex)])
    # A graphics binding on the same slots stays the graphics stage's own.
    launch(ctx, SAMPLE_CS, (4, 4, 1), (1, 1, 1))
    got = read_buffer(ctx, out, np.float32).reshape(4, 4, 2, 4)
    np.testing.assert_array_equal(got[:, :, 0], texels)  # TXF
    np.testing.assert_array_equal(got[:, :, 1], texels)  # nearest SAMPLE at texel centres


# ---------------------------------------------------------------------------
# The caps at their limits
# ---------------------------------------------------------------------------


def _gl_limit(screen, name: str) -> int:
    gl = screen.host.gl
    return int(gl.glGetIntegerv(getattr(gl, name)))


def test_image_and_counter_slots_at_the_limits(screen, ctx):
    """The last image slot, the last hardware atomic buffer slot and the last
    counter of the compute stage (and the FS's last counter buffer) are
    reachable; the caps never exceed the host GL's own limits."""
    cs_images = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_SHADER_IMAGES)
    cs_buffers = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS)
    counters = screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_HW_ATOMIC_COUNTERS)
    combined = screen.get_param(__import__("glpipe").Cap.MAX_COMBINED_HW_ATOMIC_COUNTERS)
    if not native(screen):
        # gl33: the executor's 8 images (GL 4.3's minimum), no atomic counters.
        assert (cs_buffers, counters, combined) == (0, 0, 0)
        assert cs_images == 8
        last = STORE9_2D_CS.replace("IMAGE[0]", f"IMAGE[{cs_images - 1}]")
        img = image_texture(screen, ctx, np.zeros((4, 4), np.uint32), Format.R32_UINT)
        view = ImageView(resource=img, format=Format.R32_UINT, access=RW)
        ctx.set_shader_images(ShaderType.COMPUTE, cs_images - 1, [view])
        launch(ctx, last, (4, 4, 1), (1, 1, 1))
        np.testing.assert_array_equal(read_texture(ctx, img, np.uint32), np.full((4, 4), 9, np.uint32))
        with pytest.raises(UnsupportedError):
            ctx.create_compute_state(ComputeState(prog=last.replace(f"IMAGE[{cs_images - 1}]", f"IMAGE[{cs_images}]")))
        with pytest.raises(InvalidArgumentError, match="slot"):
            ctx.set_shader_images(ShaderType.COMPUTE, cs_images, [view])
        return
    assert cs_images <= _gl_limit(screen, "GL_MAX_COMPUTE_IMAGE_UNIFORMS")
    assert cs_buffers <= _gl_limit(screen, "GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS")
    assert counters <= _gl_limit(screen, "GL_MAX_COMPUTE_ATOMIC_COUNTERS")
    assert combined <= _gl_limit(screen, "GL_MAX_COMBINED_ATOMIC_COUNTERS")
    i, b, c = cs_images - 1, cs_buffers - 1, counters - 1
    prog = f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[{i}], 2D, PIPE_FORMAT_R32_UINT, WR
DCL HWATOMIC[{b}][{c}]
DCL TEMP[0]
IMM[0] UINT32 {{1, 0, 0, 0}}
ATOMUADD TEMP[0].x, HWATOMIC[{b}][{c}], IMM[0].xxxx, IMM[0].xxxx
STORE IMAGE[{i}], SV[0].xyyy, TEMP[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
END
"""
    img = image_texture(screen, ctx, np.full((4, 4), 99, np.uint32), Format.R32_UINT)
    ctr = shader_buffer(screen, ctx, np.zeros(counters, np.uint32))
    ctx.set_shader_images(ShaderType.COMPUTE, i, [ImageView(resource=img, format=Format.R32_UINT, access=RW)])
    ctx.set_hw_atomic_buffers(b, [ShaderBuffer(buffer=ctr, buffer_size=ctr.width0)])
    launch(ctx, prog, (4, 4, 1), (1, 1, 1))
    assert sorted(read_texture(ctx, img, np.uint32).ravel().tolist()) == list(range(16))
    words = read_buffer(ctx, ctr, np.uint32)
    assert words[c] == 16 and not words[:c].any()
    # One more than each cap is refused at create.
    for over in (prog.replace(f"IMAGE[{i}]", f"IMAGE[{i + 1}]"), prog.replace(f"HWATOMIC[{b}]", f"HWATOMIC[{b + 1}]")):
        with pytest.raises(UnsupportedError):
            ctx.create_compute_state(ComputeState(prog=over))
    # The FS's last atomic counter buffer is slot fb of the same slot space.
    fb = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS) - 1
    assert fb + 1 <= screen.get_param(__import__("glpipe").Cap.MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS)
    fs_ctr = shader_buffer(screen, ctx, np.array([7], np.uint32))
    fs = COUNTER_FS.replace("HWATOMIC[0]", f"HWATOMIC[{fb}]")
    draw(ctx, fs, 2, 2, before=lambda cx: cx.set_hw_atomic_buffers(fb, [ShaderBuffer(buffer=fs_ctr, buffer_size=4)]))
    np.testing.assert_array_equal(read_buffer(ctx, fs_ctr, np.uint32), [11])


RESQ_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT
DCL IMAGE[1], BUFFER, PIPE_FORMAT_R32_UINT
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 16, 0, 0}
RESQ TEMP[0].xyz, IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT
RESQ TEMP[1].x, IMAGE[1], BUFFER, PIPE_FORMAT_R32_UINT
STORE BUFFER[0].xyz, IMM[0].xxxx, TEMP[0]
STORE BUFFER[0].x, IMM[0].yyyy, TEMP[1].xxxx
END
"""


def test_resq_sees_the_bound_view(screen, ctx):
    """RESQ answers the view's size: the level's extent, the bound layer
    range's layer count, a buffer image's texel count."""
    arr = image_texture(
        screen,
        ctx,
        np.zeros((5, 8, 12), np.uint32),
        Format.R32_UINT,
        target=Target.TEXTURE_2D_ARRAY,
        array_size=5,
        last_level=2,
    )
    buf = shader_buffer(screen, ctx, np.zeros(64, np.uint32), extra_bind=Bind.SHADER_IMAGE)
    out = shader_buffer(screen, ctx, np.zeros(8, np.uint32))
    ctx.set_shader_images(
        ShaderType.COMPUTE,
        0,
        [
            ImageView(
                resource=arr, format=Format.R32_UINT, access=ImageAccess.READ, level=1, first_layer=1, last_layer=3
            ),
            ImageView(resource=buf, format=Format.R32_UINT, access=ImageAccess.READ, offset=0, size=40),
        ],
    )
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
    launch(ctx, RESQ_CS, (1, 1, 1), (1, 1, 1))
    got = read_buffer(ctx, out, np.uint32)
    assert got[:3].tolist() == [6, 4, 3]  # level 1 of 12x8: 6x4; layers 1..3
    assert got[4] == 10  # 40 bytes of R32_UINT


FORMATLESS_CS = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, WR
IMM[0] FLT32 {0.5, 0.25, 1.0, 0.0}
STORE IMAGE[0], SV[0].xyyy, IMM[0], 2D
END
"""


def test_store_to_an_image_declared_without_format(screen, ctx):
    """IMAGE_STORE_FORMATTED: a store through an IMAGE declared without a
    format converts to the bound view's format (here R32_FLOAT, and
    R8G8B8A8_UNORM whose bytes are round(255 * channel))."""
    from glpipe import Cap

    assert screen.get_param(Cap.IMAGE_STORE_FORMATTED) == 1  # host image units or the executor
    cases = ((Format.R32_FLOAT, np.float32, np.float32(0.5)), (Format.R8G8B8A8_UNORM, np.uint32, None))
    for fmt, dtype, want in cases:
        img = image_texture(screen, ctx, np.zeros((4, 4), dtype), fmt)
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=img, format=fmt, access=ImageAccess.WRITE)])
        launch(ctx, FORMATLESS_CS, (4, 4, 1), (1, 1, 1))
        got = read_texture(ctx, img, dtype)
        if want is None:
            # UNORM8 of (0.5, 0.25, 1, 0): bytes 128, 64, 255, 0 (GL 4.5 §2.3.5.1 rounding).
            assert got.view(np.uint8).reshape(4, 4, 4).tolist() == [[[128, 64, 255, 0]] * 4] * 4
        else:
            assert np.all(got == want)


def test_partial_last_block_with_images(screen, ctx):
    """A launch the executor runs on every profile (last_block) reaches the
    images: threads x >= 3 of the last block are disabled, nothing else
    is written."""
    tex = image_texture(screen, ctx, np.zeros((4, 4), np.uint32), Format.R32_UINT)
    ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=tex, format=Format.R32_UINT, access=RW)])
    ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=STORE9_2D_CS)))
    ctx.launch_grid(GridInfo(block=(4, 4, 1), grid=(1, 1, 1), last_block=(3, 0, 0)))
    expected = np.zeros((4, 4), np.uint32)
    expected[:, :3] = 9
    np.testing.assert_array_equal(read_texture(ctx, tex, np.uint32), expected)


IMAGE_VS = """VERT
DCL IN[0]
DCL SV[0], VERTEXID
DCL OUT[0], POSITION
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0..1]
IMM[0] UINT32 {1, 0, 0, 0}
MOV TEMP[0].x, SV[0].xxxx
MOV TEMP[0].y, IMM[0].yyyy
UADD TEMP[1].x, SV[0].xxxx, IMM[0].xxxx
STORE IMAGE[0], TEMP[0].xyyy, TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
MOV OUT[0], IN[0]
END
"""


def test_vertex_shader_image_survives_a_launch_on_the_same_unit(screen, ctx):
    """The VS's image slot 0 and the compute stage's share an image unit
    (docs/bindings.md: compute starts at 0): after a launch the next draw
    binds the VS's image again."""
    if not native(screen):
        with pytest.raises(UnsupportedError, match="MAX_SHADER_IMAGES"):
            draw(ctx, GENERIC_FS.replace("CONSTANT", "CONSTANT"), 2, 2, vs=IMAGE_VS)
        return
    a = image_texture(screen, ctx, np.zeros((1, 4), np.uint32), Format.R32_UINT)
    b = image_texture(screen, ctx, np.zeros((4, 4), np.uint32), Format.R32_UINT)
    ctx.set_shader_images(ShaderType.VERTEX, 0, [ImageView(resource=a, format=Format.R32_UINT, access=RW)])
    red = FULL_TRI  # three vertices: VERTEXID 0..2
    fs = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n"
    draw(ctx, fs, 2, 2, vs=IMAGE_VS, verts=red)
    np.testing.assert_array_equal(read_texture(ctx, a, np.uint32)[0], [1, 2, 3, 0])
    ctx.set_shader_images(ShaderType.COMPUTE, 1, [ImageView(resource=b, format=Format.R32_UINT, access=RW)])
    launch(ctx, STORE9_2D_CS.replace("IMAGE[0]", "IMAGE[1]"), (4, 4, 1), (1, 1, 1))
    ctx.texture_subdata(a, 0, Map.WRITE, Box(width=4, height=1, depth=1), np.zeros(4, np.uint32), 16, 16)
    # The VS also stores to its IMAGE[1], which is unbound: the launch's image
    # on that unit must not receive the stores (GL drops stores to an empty unit).
    vs2 = IMAGE_VS.replace(
        "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\n",
        "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL IMAGE[1], 2D, PIPE_FORMAT_R32_UINT, WR\n",
    ).replace(
        "MOV OUT[0], IN[0]", "STORE IMAGE[1], TEMP[0].xyyy, TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT\nMOV OUT[0], IN[0]"
    )
    assert vs2.count("IMAGE[1]") == 2
    draw(ctx, fs, 2, 2, vs=vs2, verts=red)
    np.testing.assert_array_equal(read_texture(ctx, a, np.uint32)[0], [1, 2, 3, 0])
    np.testing.assert_array_equal(read_texture(ctx, b, np.uint32), np.full((4, 4), 9, np.uint32))
