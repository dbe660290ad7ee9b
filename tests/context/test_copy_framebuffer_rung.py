"""The copy ladder on a host without glCopyImageSubData (gl33): a 1:1
copy between textures held in one renderable host format whose values
survive a float round trip unchanged (unorm that is not sRGB, pure
integers) takes glBlitFramebuffer (NEAREST, one GL copy) instead of two
transfers; formats a blit could alter -- snorm (-128 and -127 both read
as -1.0), floats (NaN payloads), sRGB, depth -- keep the byte path.
Bytes compared with the source's own bytes (a copy is a memcpy,
context.rst "Blitting").  Both profiles: native takes glCopyImageSubData."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import BlitInfo, Box, Format, Mask, Target

from .util_blits import fill, make, read, side

_BLIT_EXACT = [Format.R8G8B8A8_UNORM, Format.R16G16_UNORM, Format.R32G32B32A32_UINT, Format.R8_SINT]
_BYTES_ONLY = [Format.R8G8B8A8_SNORM, Format.R32_FLOAT, Format.R8G8B8A8_SRGB]


def _nan_payloads(shape):
    """Bytes (layers, rows, row bytes) full of NaNs with payloads, -0.0 and
    denormals (R32_FLOAT)."""
    words = np.random.default_rng(31).integers(0, 2**32, size=(shape[0], shape[1], shape[2] // 4), dtype=np.uint64)
    words = words.astype(np.uint32)
    flat = words.reshape(-1)
    flat[0::4] = 0x7FC01234  # quiet NaN, payload
    flat[1::4] = 0x80000000  # -0.0
    flat[2::4] = 0x00000001  # smallest denormal
    return words.view(np.uint8).reshape(shape[0], shape[1], -1)


@pytest.mark.parametrize("fmt", _BLIT_EXACT + _BYTES_ONLY)
@pytest.mark.parametrize("target", [Target.TEXTURE_2D, Target.TEXTURE_2D_ARRAY])
def test_copy_rung_and_bytes(ctx, screen, profile, fmt, target):
    layers = 3 if target == Target.TEXTURE_2D_ARRAY else 1
    src = make(screen, target, fmt, 16, 8, array_size=layers)
    dst = make(screen, target, fmt, 16, 8, array_size=layers)
    if fmt == Format.R32_FLOAT:
        s = fill(ctx, src, data=_nan_payloads((layers, 8, 64)))
    else:
        s = fill(ctx, src, seed=30)
    if fmt == Format.R8G8B8A8_SNORM:
        s = fill(ctx, src, data=np.where(s == 0x81, 0x80, s).astype(np.uint8))  # -128 and -127 both present
        s.reshape(-1)[:2] = (0x80, 0x81)
        fill(ctx, src, data=s)
    before = fill(ctx, dst, seed=32)
    z = 1 if layers > 1 else 0
    ctx.resource_copy_region(dst, 0, 3, 2, z, src, 0, Box(x=5, y=1, z=z, width=9, height=6, depth=layers - z))
    bpp = s.shape[2] // 16
    want = before.copy()
    want[z:, 2:8, 3 * bpp : 12 * bpp] = s[z:, 1:7, 5 * bpp : 14 * bpp]
    assert np.array_equal(read(ctx, dst), want)
    if profile == "native":
        assert ctx.copy_part.last_rung == "copy_image"
    else:
        assert ctx.copy_part.last_rung == ("blit_framebuffer" if fmt in _BLIT_EXACT else "numpy")


def test_a_1_to_1_blit_takes_the_same_rung(ctx, screen, profile):
    """blit's first rung is the copy ladder: a plain 1:1 blit of one format."""
    src = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    dst = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 16, 16)
    s = fill(ctx, src, seed=33)
    ctx.blit(BlitInfo(dst=side(dst), src=side(src), mask=Mask.RGBA))
    assert np.array_equal(read(ctx, dst), s)
    assert ctx.blit_part.last_rung == ("copy_image" if profile == "native" else "blit_framebuffer")
