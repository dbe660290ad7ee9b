"""Images in compute programs on gl33 (the numpy executor,
fallback/tgsi_exec/images.py) compared byte for byte with the host's
compute shaders on the same input (issue 16 items 3 and 4 of the
executor brief): the caps that say images work on gl33 are proven by
running them there and on native.  The per-profile kernels are in
tests/context/test_shader_images.py; ``python -m glpipe info`` marking
compute as emulated is checked here too.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from conftest import get_screen

from glpipe import (
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
from lowering.errors import UnsupportedError

from .util_compute import read_buffer, shader_buffer

RW = ImageAccess.READ_WRITE

# Per texel of an 8x4 image of FMT: load it, write (loaded * 0.5 + 0.25) to
# image 1 (same format), record the raw loaded words in BUFFER[0], and the
# size (RESQ) of image 0 in BUFFER[1].
KERNEL = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, {fmt}
DCL IMAGE[1], 2D, {fmt}, WR
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..3]
IMM[0] UINT32 {{8, 16, 0, 0}}
IMM[1] FLT32 {{0.5, 0.25, 0.0, 0.0}}
UMAD TEMP[0].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
LOAD TEMP[1], IMAGE[0], SV[0].xyyy, 2D, {fmt}
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
{math}
STORE IMAGE[1], SV[0].xyyy, TEMP[2], 2D, {fmt}
RESQ TEMP[3], IMAGE[0], 2D, {fmt}
STORE BUFFER[1].xyzw, IMM[0].zzzz, TEMP[3]
END
"""

FLOAT_MATH = "MAD TEMP[2], TEMP[1], IMM[1].xxxx, IMM[1].yyyy"
INT_MATH = "UADD TEMP[2], TEMP[1], IMM[0].xxxx"

# format -> (channel dtype, channels, math)
CASES = {
    Format.R32_FLOAT: (np.float32, 1, FLOAT_MATH),
    Format.R32G32B32A32_FLOAT: (np.float32, 4, FLOAT_MATH),
    Format.R16G16_FLOAT: (np.float16, 2, FLOAT_MATH),
    Format.R8G8B8A8_UNORM: (np.uint8, 4, FLOAT_MATH),
    Format.R16G16_SNORM: (np.int16, 2, FLOAT_MATH),
    Format.R32_UINT: (np.uint32, 1, INT_MATH),
    Format.R16G16B16A16_SINT: (np.int16, 4, INT_MATH),
    Format.R8_UINT: (np.uint8, 1, INT_MATH),
}


def _run(profile: str, fmt: Format) -> tuple[bytes, bytes, bytes]:
    """(loaded words, stored image bytes, RESQ words) of KERNEL on ``profile``."""
    screen = get_screen(profile)
    dtype, n, math = CASES[fmt]
    rng = np.random.default_rng(int(fmt))
    if np.dtype(dtype).kind == "f":
        texels = (rng.integers(-64, 64, (4, 8, n)) / 8).astype(dtype)
    else:
        info = np.iinfo(dtype)
        texels = rng.integers(info.min, info.max, (4, 8, n), dtype=dtype, endpoint=True)
        if fmt == Format.R16G16_SNORM:
            texels[texels == info.min] = info.min + 1  # -32768 and -32767 both read -1.0
    ctx = screen.context_create()
    try:
        imgs = []
        for data in (texels, np.zeros_like(texels)):
            res = screen.resource_create(
                ResourceTemplate(target=Target.TEXTURE_2D, format=fmt, width0=8, height0=4, bind=Bind.SHADER_IMAGE)
            )
            row = 8 * n * texels.itemsize
            ctx.texture_subdata(res, 0, Map.WRITE, Box(width=8, height=4, depth=1), data, row, row * 4)
            imgs.append(res)
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=r, format=fmt, access=RW) for r in imgs])
        loaded = shader_buffer(screen, ctx, np.zeros(32 * 4, np.uint32))
        size = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
        ctx.set_shader_buffers(
            ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=b, buffer_size=b.width0) for b in (loaded, size)], 0b11
        )
        cso = ctx.create_compute_state(ComputeState(prog=KERNEL.format(fmt=f"PIPE_FORMAT_{fmt.name}", math=math)))
        ctx.bind_compute_state(cso)
        ctx.launch_grid(GridInfo(block=(8, 4, 1), grid=(1, 1, 1)))
        t = ctx.transfer_map(imgs[1], 0, Map.READ, Box(width=8, height=4, depth=1))
        stored = bytes(np.frombuffer(t.data.tobytes(), np.uint8).reshape(4, t.stride)[:, : 8 * n * texels.itemsize])
        ctx.transfer_unmap(t)
        return read_buffer(ctx, loaded, np.uint32).tobytes(), stored, read_buffer(ctx, size, np.uint32).tobytes()
    finally:
        ctx.destroy()


@pytest.mark.parametrize("fmt", list(CASES), ids=lambda f: f.name)
def test_executor_images_are_byte_exact_with_the_host(fmt):
    """LOAD (format decoded), STORE (format encoded) and RESQ give the host's
    bytes: MAX_SHADER_IMAGES and is_format_supported(SHADER_IMAGE) on gl33
    say what the executor does exactly as native."""
    native = _run("native", fmt)
    gl33 = _run("gl33", fmt)
    for what, a, b in zip(("LOAD", "STORE", "RESQ"), native, gl33, strict=True):
        assert a == b, f"{fmt.name}: {what} differs"
    assert np.frombuffer(gl33[2], np.uint32).tolist() == [8, 4, 0, 1]


def test_image_formats_match_the_host():
    """is_format_supported(SHADER_IMAGE) on gl33 (the executor) says yes for
    exactly the formats native GL binds as images (GL 4.5 table 8.26)."""

    def formats(profile):
        screen = get_screen(profile)
        return {
            f
            for f in Format
            if f != Format.NONE and screen.is_format_supported(f, Target.TEXTURE_2D, 0, 0, Bind.SHADER_IMAGE)
        }

    native, gl33 = formats("native"), formats("gl33")
    assert Format.R32_FLOAT in gl33 and Format.R8G8B8A8_UNORM in gl33
    assert Format.R8G8B8_UNORM not in gl33 and Format.A8_UNORM not in gl33
    assert gl33 <= native


def test_graphics_stages_have_no_images_on_gl33():
    """Images on gl33 are the executor's compute stage's alone."""
    screen = get_screen("gl33")
    assert screen.get_shader_param(ShaderType.COMPUTE, ShaderCap.MAX_SHADER_IMAGES) == 8
    ctx = screen.context_create()
    try:
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D, format=Format.R32_UINT, width0=2, height0=2, bind=Bind.SHADER_IMAGE
            )
        )
        for stage in (ShaderType.VERTEX, ShaderType.FRAGMENT):
            assert screen.get_shader_param(stage, ShaderCap.MAX_SHADER_IMAGES) == 0
            with pytest.raises(UnsupportedError, match="MAX_SHADER_IMAGES"):
                ctx.set_shader_images(stage, 0, [ImageView(resource=res, format=res.format, access=RW)])
    finally:
        ctx.destroy()


@pytest.mark.parametrize("profile_name", ["native", "gl33"])
def test_glpipe_info_marks_compute_emulated_on_gl33(profile_name):
    """``python -m glpipe info``: compute is "emulated" by the numpy executor
    on gl33 (with its limits), "native" on the host's compute shaders."""
    from glpipe.__main__ import _print_text, collect

    data = collect(profile_name)
    comp = data["compute"]
    text = io.StringIO()
    _print_text(data, text)
    if profile_name == "gl33":
        assert comp["status"] == "emulated" and "numpy TGSI executor" in comp["by"]
        assert comp["limits"]["images"] == 8 and comp["limits"]["sampler_views"] == 16
        assert comp["limits"]["hw_atomic_buffers"] == 0
        assert "Compute: emulated (numpy TGSI executor" in text.getvalue()
    else:
        assert comp["status"] == "native" and comp["refused"] == []
        assert "Compute: native (host compute shaders)" in text.getvalue()
    get_screen(profile_name)  # collect made its own screen current: restore the session's


# Each invocation stores a value into its texel of an R8G8B8A8_UNORM image,
# then loads it back (the image's own invocation order: the load sees the
# converted store), after an earlier load of the same texel.
STORE_THEN_LOAD = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 16
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM, WR
DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {32, 16, 0, 0}
IMM[1] FLT32 {0.0625, 0.3, 1.0, 0.0}
LOAD TEMP[1], IMAGE[0], SV[0].xyyy, 2D, PIPE_FORMAT_R8G8B8A8_UNORM
U2F TEMP[2].x, SV[0].xxxx
MUL TEMP[2].x, TEMP[2].xxxx, IMM[1].xxxx
MOV TEMP[2].yzw, IMM[1].yyzw
STORE IMAGE[0], SV[0].xyyy, TEMP[2], 2D, PIPE_FORMAT_R8G8B8A8_UNORM
LOAD TEMP[3], IMAGE[0], SV[0].xyyy, 2D, PIPE_FORMAT_R8G8B8A8_UNORM
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[1]
UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
STORE BUFFER[0].xyzw, TEMP[0].xxxx, TEMP[3]
END
"""


def _store_then_load(profile: str) -> np.ndarray:
    screen = get_screen(profile)
    ctx = screen.context_create()
    try:
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=16, height0=1, bind=Bind.SHADER_IMAGE
            )
        )
        first = np.full((16, 4), 51, np.uint8)  # 51 / 255 = 0.2 in every channel
        ctx.texture_subdata(res, 0, Map.WRITE, Box(width=16, height=1, depth=1), first, 64, 64)
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [ImageView(resource=res, format=res.format, access=RW)])
        out = shader_buffer(screen, ctx, np.zeros(16 * 8, np.uint32))
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
        ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=STORE_THEN_LOAD)))
        ctx.launch_grid(GridInfo(block=(16, 1, 1), grid=(1, 1, 1)))
        return read_buffer(ctx, out, np.uint32).reshape(16, 2, 4)
    finally:
        ctx.destroy()


def test_a_load_after_a_store_sees_the_converted_store():
    """Within one invocation a LOAD after a STORE reads the stored value as
    the format keeps it (UNORM8: round(255 v) / 255), on both profiles alike."""
    native, gl33 = _store_then_load("native"), _store_then_load("gl33")
    assert native.tobytes() == gl33.tobytes()
    x = np.arange(16, dtype=np.float32) * np.float32(0.0625)
    stored = np.stack([x, np.full(16, 0.3, np.float32), np.ones(16, np.float32), np.zeros(16, np.float32)], 1)
    unorm = np.rint(np.clip(stored, 0, 1) * 255).astype(np.float32) * np.float32(1 / 255)
    before = np.full((16, 4), np.float32(51) * np.float32(1 / 255), np.float32)
    np.testing.assert_array_equal(gl33[:, 0].view(np.float32), before)
    np.testing.assert_array_equal(gl33[:, 1].view(np.float32), unorm)


# Every invocation (x, y, z) stores x + 10 y + 100 z into IMAGE[0] at
# (x, y, z) in the target's layout, and its RESQ into BUFFER[0].
LAYERED = """COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT {h}
PROPERTY CS_FIXED_BLOCK_DEPTH {d}
DCL SV[0], THREAD_ID
DCL IMAGE[0], {target}, PIPE_FORMAT_R32_UINT, WR
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {{10, 100, 0, 0}}
UMAD TEMP[0].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx
UMAD TEMP[0].x, SV[0].zzzz, IMM[0].yyyy, TEMP[0].xxxx
STORE IMAGE[0], SV[0].xyzz, TEMP[0].xxxx, {target}, PIPE_FORMAT_R32_UINT
RESQ TEMP[1], IMAGE[0], {target}, PIPE_FORMAT_R32_UINT
STORE BUFFER[0].xyzw, IMM[0].zzzz, TEMP[1]
END
"""
# TGSI target -> (Gallium target, width, height, depth | layers, block (h, d))
LAYERED_TARGETS = {
    "1D_ARRAY": (Target.TEXTURE_1D_ARRAY, 4, 1, 3, (3, 1)),
    "2D_ARRAY": (Target.TEXTURE_2D_ARRAY, 4, 4, 3, (4, 3)),
    "3D": (Target.TEXTURE_3D, 4, 4, 3, (4, 3)),
    "CUBE": (Target.TEXTURE_CUBE, 4, 4, 6, (4, 6)),
}


def _layered(profile: str, target: str) -> tuple[bytes, bytes]:
    screen = get_screen(profile)
    gtarget, w, h, d, (bh, bd) = LAYERED_TARGETS[target]
    ctx = screen.context_create()
    try:
        res = screen.resource_create(
            ResourceTemplate(
                target=gtarget,
                format=Format.R32_UINT,
                width0=w,
                height0=h,
                depth0=d if gtarget == Target.TEXTURE_3D else 1,
                array_size=1 if gtarget == Target.TEXTURE_3D else d,
                bind=Bind.SHADER_IMAGE,
            )
        )
        zeros = np.full(w * h * d, 0xFFFF, np.uint32)
        ctx.texture_subdata(res, 0, Map.WRITE, Box(width=w, height=h, depth=d), zeros, w * 4, w * h * 4)
        view = ImageView(resource=res, format=res.format, access=RW, first_layer=0, last_layer=d - 1)
        ctx.set_shader_images(ShaderType.COMPUTE, 0, [view])
        out = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, [ShaderBuffer(buffer=out, buffer_size=out.width0)], 1)
        prog = LAYERED.format(target=target, h=bh, d=bd)
        ctx.bind_compute_state(ctx.create_compute_state(ComputeState(prog=prog)))
        ctx.launch_grid(GridInfo(block=(4, bh, bd), grid=(1, 1, 1)))
        t = ctx.transfer_map(res, 0, Map.READ, Box(width=w, height=h, depth=d))
        texels = np.frombuffer(t.data.tobytes(), np.uint8).copy()
        ctx.transfer_unmap(t)
        return texels.tobytes(), read_buffer(ctx, out, np.uint32).tobytes()
    finally:
        ctx.destroy()


@pytest.mark.parametrize("target", list(LAYERED_TARGETS))
def test_layered_images_match_the_host(target):
    """1D arrays (layer in y), 2D arrays, 3D slices and cube faces (in z):
    every texel and the RESQ answer as the host's, and as the definition."""
    native, gl33 = _layered("native", target), _layered("gl33", target)
    assert gl33 == native
    gtarget, w, h, d, (bh, bd) = LAYERED_TARGETS[target]
    got = np.frombuffer(gl33[0], np.uint32).reshape(d, h, w)
    x, y, z = np.arange(w)[None, None, :], np.arange(bh)[None, :, None], np.arange(bd)[:, None, None]
    want = x + 10 * y + 100 * z
    if target == "1D_ARRAY":
        want = np.transpose(want, (1, 0, 2))  # the layer is y
    np.testing.assert_array_equal(got, want.reshape(d, h, w))
