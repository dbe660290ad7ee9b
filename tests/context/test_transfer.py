"""transfer_map / transfer_unmap, buffer_subdata, texture_subdata,
transfer_flush_region and invalidate_resource, against raw GL.

Every round trip has a raw-GL leg: data uploaded with raw GL is read with
transfer_map(READ), and data written with transfer_map(WRITE) /
*_subdata is read back with raw GL.  Expected bytes are numpy slices of
random data (Gallium box = numpy slice, row 0 = texel row 0)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import glpipe
from glpipe import Bind, Box, Cap, Format, Map, ResourceTemplate, Target

from .util_transfer import (
    raw_read_buffer,
    raw_read_compressed,
    raw_read_level,
    raw_write_buffer,
    raw_write_compressed,
    raw_write_level,
    texture,
)


def _rng(seed=0):
    return np.random.default_rng(seed)


def _buffer(screen, size):
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER)
    )


def _gl(screen):
    return screen.host.gl


# ---------------------------------------------------------------------------
# buffers
# ---------------------------------------------------------------------------


def test_buffer_map_read_returns_the_box(screen, ctx):
    res = _buffer(screen, 256)
    ref = _rng(1).integers(0, 256, 256, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=40, width=100, height=1, depth=1))
    assert t.data.dtype == np.uint8 and t.data.shape == (100,)
    assert np.array_equal(t.data, ref[40:140])
    ctx.transfer_unmap(t)
    assert t.data is None and not t.mapped
    assert np.array_equal(raw_read_buffer(screen, res), ref)  # a READ map writes nothing back


def test_buffer_map_write_uploads_the_box_only(screen, ctx):
    res = _buffer(screen, 256)
    ref = _rng(2).integers(0, 256, 256, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    new = _rng(3).integers(0, 256, 64, dtype=np.uint8)
    t = ctx.transfer_map(res, 0, Map.WRITE, Box(x=17, width=64))
    t.data[:] = new
    ctx.transfer_unmap(t)
    expected = ref.copy()
    expected[17:81] = new
    assert np.array_equal(raw_read_buffer(screen, res), expected)


def test_buffer_map_read_write_keeps_untouched_bytes(screen, ctx):
    res = _buffer(screen, 64)
    ref = np.arange(64, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    t = ctx.transfer_map(res, 0, Map.READ_WRITE, Box(x=8, width=32))
    t.data[5] = 200
    t.data[30] = 201
    ctx.transfer_unmap(t)
    expected = ref.copy()
    expected[13] = 200
    expected[38] = 201
    assert np.array_equal(raw_read_buffer(screen, res), expected)


def test_buffer_write_map_without_discard_preserves_unwritten_bytes(screen, ctx):
    """A WRITE map (no DISCARD) holds the current contents: writing one byte
    leaves the rest of the box as it was."""
    res = _buffer(screen, 32)
    ref = _rng(4).integers(0, 256, 32, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    t = ctx.transfer_map(res, 0, Map.WRITE, Box(x=0, width=32))
    t.data[3] = ref[3] ^ 0xFF
    ctx.transfer_unmap(t)
    expected = ref.copy()
    expected[3] ^= 0xFF
    assert np.array_equal(raw_read_buffer(screen, res), expected)


@pytest.mark.parametrize("discard", [Map.DISCARD_RANGE, Map.DISCARD_WHOLE_RESOURCE])
def test_buffer_discarding_write_map(screen, ctx, discard):
    res = _buffer(screen, 128)
    ref = _rng(5).integers(0, 256, 128, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    new = _rng(6).integers(0, 256, 48, dtype=np.uint8)
    t = ctx.transfer_map(res, 0, Map.WRITE | discard, Box(x=16, width=48))
    t.data[:] = new
    ctx.transfer_unmap(t)
    got = raw_read_buffer(screen, res)
    assert np.array_equal(got[16:64], new)
    if discard == Map.DISCARD_RANGE:
        # Only the range was discarded: the rest of the buffer is intact.
        assert np.array_equal(got[:16], ref[:16]) and np.array_equal(got[64:], ref[64:])


def test_buffer_flush_explicit_uploads_flushed_ranges_only(screen, ctx):
    res = _buffer(screen, 64)
    ref = np.zeros(64, np.uint8)
    raw_write_buffer(screen, res, ref)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.FLUSH_EXPLICIT, Box(x=10, width=40))
    t.data[:] = 0xAA
    ctx.transfer_flush_region(t, Box(x=4, width=8))  # bytes 14..21
    ctx.transfer_flush_region(t, Box(x=30, width=10))  # bytes 40..49
    ctx.transfer_unmap(t)
    expected = ref.copy()
    expected[14:22] = 0xAA
    expected[40:50] = 0xAA
    assert np.array_equal(raw_read_buffer(screen, res), expected)


def test_buffer_subdata(screen, ctx):
    res = _buffer(screen, 100)
    ref = _rng(7).integers(0, 256, 100, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    payload = np.arange(12, dtype=np.float32)  # any buffer-protocol object, not just bytes
    ctx.buffer_subdata(res, Map.WRITE, 20, payload)
    ctx.buffer_subdata(res, Map.WRITE, 90, b"\x01\x02\x03")
    expected = ref.copy()
    expected[20:68] = payload.view(np.uint8)
    expected[90:93] = (1, 2, 3)
    assert np.array_equal(raw_read_buffer(screen, res), expected)


def test_buffer_subdata_out_of_range(screen, ctx):
    res = _buffer(screen, 16)
    with pytest.raises(glpipe.InvalidArgumentError, match="do not fit the 16-byte buffer"):
        ctx.buffer_subdata(res, Map.WRITE, 10, bytes(7))
    with pytest.raises(glpipe.InvalidArgumentError, match="offset"):
        ctx.buffer_subdata(res, Map.WRITE, -1, bytes(1))


def test_buffer_map_alignment_matches_the_cap(screen, ctx):
    """PIPE_CAP_MIN_MAP_BUFFER_ALIGNMENT: the mapped pointer minus box.x is a
    multiple of it, as GL promises for glMapBufferRange."""
    align = screen.get_param(Cap.MIN_MAP_BUFFER_ALIGNMENT)
    gl = _gl(screen)
    assert align == int(gl.glGetIntegerv(gl.GL_MIN_MAP_BUFFER_ALIGNMENT)) and align >= 64
    res = _buffer(screen, 1024)
    for x in (0, 1, 37, 512):
        t = ctx.transfer_map(res, 0, Map.READ, Box(x=x, width=100))
        assert (t.data.ctypes.data - x) % align == 0
        ctx.transfer_unmap(t)


def test_buffer_box_errors(screen, ctx):
    res = _buffer(screen, 64)
    for box, msg in (
        (Box(x=60, width=8), "outside the 64-byte buffer"),
        (Box(x=-1, width=4), "outside"),
        (Box(x=0, width=0), "empty"),
        (Box(x=0, y=1, width=4), "y = z = 0"),
        (Box(x=0, width=4, height=2), "height/depth"),
    ):
        with pytest.raises(glpipe.InvalidArgumentError, match=msg):
            ctx.transfer_map(res, 0, Map.READ, box)
    with pytest.raises(glpipe.InvalidArgumentError, match="only level 0"):
        ctx.transfer_map(res, 1, Map.READ, Box(width=4))


def test_invalidate_resource_then_write(screen, ctx):
    """PIPE_CAP_INVALIDATE_BUFFER: invalidate_resource is accepted; the
    buffer then takes new data normally."""
    assert screen.get_param(Cap.INVALIDATE_BUFFER) == 1
    res = _buffer(screen, 32)
    raw_write_buffer(screen, res, np.full(32, 7, np.uint8))
    ctx.invalidate_resource(res)
    new = _rng(8).integers(0, 256, 32, dtype=np.uint8)
    ctx.buffer_subdata(res, Map.WRITE | Map.DISCARD_WHOLE_RESOURCE, 0, new)
    assert np.array_equal(raw_read_buffer(screen, res), new)
    tex = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    ctx.invalidate_resource(tex)  # textures: accepted, nothing to do
    with pytest.raises(glpipe.InvalidArgumentError):
        ctx.invalidate_resource("not a resource")


# ---------------------------------------------------------------------------
# textures: every target, round trips through raw GL
# ---------------------------------------------------------------------------

# (target, width, height, depth, array_size, last_level)
_TARGETS = {
    "1D": (Target.TEXTURE_1D, 16, 1, 1, 1, 1),
    "2D": (Target.TEXTURE_2D, 16, 8, 1, 1, 1),
    "RECT": (Target.TEXTURE_RECT, 16, 8, 1, 1, 0),
    "1D_ARRAY": (Target.TEXTURE_1D_ARRAY, 16, 1, 1, 5, 1),
    "2D_ARRAY": (Target.TEXTURE_2D_ARRAY, 16, 8, 1, 5, 1),
    "CUBE": (Target.TEXTURE_CUBE, 8, 8, 1, 6, 1),
    "3D": (Target.TEXTURE_3D, 16, 8, 6, 1, 1),
    "CUBE_ARRAY": (Target.TEXTURE_CUBE_ARRAY, 8, 8, 1, 12, 1),
}
_CASES = [(name, level) for name, spec in _TARGETS.items() for level in range(spec[5] + 1)]


def _make(screen, profile, name, fmt=Format.R8G8B8A8_UNORM):
    target, w, h, d, a, last = _TARGETS[name]
    if target == Target.TEXTURE_CUBE_ARRAY and profile == "gl33":
        pytest.skip("cube map arrays need GL 4.0 (the gl33 profile refuses them at resource_create)")
    return texture(screen, target, fmt, w, h, d, a, last)


def _inner_box(res, level):
    """A box strictly inside the level wherever the level allows it, so the
    offsets in x, y and z are all exercised."""
    w, h, d = res.level_extent(level)
    has_y = res.target not in (Target.TEXTURE_1D, Target.TEXTURE_1D_ARRAY)

    def span(size):
        start = 1 if size > 2 else 0
        return start, max(1, size - start - 1)

    x, bw = span(w)
    y, bh = span(h) if has_y else (0, 1)
    z, bd = span(d)
    return Box(x=x, y=y, z=z, width=bw, height=bh, depth=bd)


def _slice(full, box, bpp):
    return full[box.z : box.z + box.depth, box.y : box.y + box.height, box.x * bpp : (box.x + box.width) * bpp]


@pytest.mark.parametrize("name,level", _CASES, ids=[f"{n}-L{lv}" for n, lv in _CASES])
def test_texture_raw_upload_then_map_read(screen, profile, ctx, name, level):
    res = _make(screen, profile, name)
    gl = _gl(screen)
    w, h, d = res.level_extent(level)
    full = _rng(level + 10).integers(0, 256, (d, h, w * 4), dtype=np.uint8)
    raw_write_level(screen, res, level, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, full)
    box = _inner_box(res, level)
    t = ctx.transfer_map(res, level, Map.READ, box)
    assert t.data.shape == (box.depth, box.height, box.width * 4)
    assert t.stride == box.width * 4 and t.layer_stride == box.width * 4 * box.height
    assert (t.box, t.level, t.usage, t.resource) == (box, level, Map.READ, res)
    assert np.array_equal(t.data, _slice(full, box, 4))
    ctx.transfer_unmap(t)


@pytest.mark.parametrize("name,level", _CASES, ids=[f"{n}-L{lv}" for n, lv in _CASES])
def test_texture_map_write_then_raw_read(screen, profile, ctx, name, level):
    res = _make(screen, profile, name)
    gl = _gl(screen)
    w, h, d = res.level_extent(level)
    full = _rng(level + 20).integers(0, 256, (d, h, w * 4), dtype=np.uint8)
    raw_write_level(screen, res, level, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, full)
    box = _inner_box(res, level)
    new = _rng(level + 30).integers(0, 256, (box.depth, box.height, box.width * 4), dtype=np.uint8)
    t = ctx.transfer_map(res, level, Map.WRITE, box)
    t.data[...] = new
    ctx.transfer_unmap(t)
    expected = full.copy()
    _slice(expected, box, 4)[...] = new
    got = raw_read_level(screen, res, level, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4)
    assert np.array_equal(got, expected)


def test_texture_map_rows_are_window_rows(screen, ctx):
    """Row 0 of .data is texel row box.y (no y-flip): a raw upload whose row r
    holds the value r reads back as rows y0, y0+1, ..."""
    res = texture(screen, Target.TEXTURE_2D, Format.R8_UNORM, 4, 8)
    gl = _gl(screen)
    full = np.repeat(np.arange(8, dtype=np.uint8)[:, None], 4, axis=1)[None]
    raw_write_level(screen, res, 0, gl.GL_RED, gl.GL_UNSIGNED_BYTE, full)
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, y=3, width=4, height=4))
    assert t.data[:, :, 0].ravel().tolist() == [3, 4, 5, 6]
    ctx.transfer_unmap(t)


def test_texture_read_write_map_partial_edit(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 8, 8, array_size=3)
    gl = _gl(screen)
    full = _rng(40).integers(0, 256, (3, 8, 32), dtype=np.uint8)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, full)
    box = Box(x=2, y=1, z=1, width=4, height=5, depth=2)
    t = ctx.transfer_map(res, 0, Map.READ_WRITE, box)
    t.data[1, 2, 4:8] = (1, 2, 3, 4)  # layer 2, row 3, texel x = 3
    ctx.transfer_unmap(t)
    expected = full.copy()
    expected[2, 3, 12:16] = (1, 2, 3, 4)
    assert np.array_equal(raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), expected)


def test_texture_discard_range_write(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    gl = _gl(screen)
    full = _rng(41).integers(0, 256, (1, 8, 32), dtype=np.uint8)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, full)
    box = Box(x=4, y=4, width=4, height=4)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.DISCARD_RANGE, box)
    t.data[...] = 9
    ctx.transfer_unmap(t)
    expected = full.copy()
    _slice(expected, Box(x=4, y=4, z=0, width=4, height=4, depth=1), 4)[...] = 9
    assert np.array_equal(raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), expected)


def test_texture_flush_explicit(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    gl = _gl(screen)
    zero = np.zeros((1, 8, 32), np.uint8)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, zero)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.FLUSH_EXPLICIT, Box(x=2, y=2, width=6, height=6))
    t.data[...] = 0x55
    ctx.transfer_flush_region(t, Box(x=1, y=3, width=2, height=2))  # texels x 3..4, y 5..6
    with pytest.raises(glpipe.InvalidArgumentError, match="outside the mapped box"):
        ctx.transfer_flush_region(t, Box(x=5, y=0, width=2, height=1))
    ctx.transfer_unmap(t)
    expected = zero.copy()
    expected[0, 5:7, 12:20] = 0x55
    assert np.array_equal(raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), expected)


def test_texture_float_data_view(screen, ctx):
    """An RGBA32F box read and written through a float32 view of .data."""
    res = texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 4, 4)
    gl = _gl(screen)
    vals = _rng(42).standard_normal((1, 4, 16)).astype(np.float32)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_FLOAT, vals.view(np.uint8))
    t = ctx.transfer_map(res, 0, Map.READ_WRITE, Box(x=1, y=1, width=2, height=3))
    f = t.data.view(np.float32).reshape(1, 3, 2, 4)
    assert np.array_equal(f, vals.reshape(1, 4, 4, 4)[:, 1:4, 1:3])
    f[...] *= 2.0
    ctx.transfer_unmap(t)
    expected = vals.reshape(1, 4, 4, 4).copy()
    expected[:, 1:4, 1:3] *= 2.0
    got = raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_FLOAT, 16).view(np.float32).reshape(1, 4, 4, 4)
    assert np.array_equal(got, expected)


# ---------------------------------------------------------------------------
# texture_subdata
# ---------------------------------------------------------------------------


def test_texture_subdata_with_strides(screen, ctx):
    """Rows ``stride`` apart and layers ``layer_stride`` apart (both padded)."""
    res = texture(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 8, 6, array_size=4)
    gl = _gl(screen)
    full = _rng(50).integers(0, 256, (4, 6, 32), dtype=np.uint8)
    raw_write_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, full)
    box = Box(x=1, y=2, z=1, width=3, height=3, depth=2)
    stride, layer_stride = 20, 80  # rows of 12 bytes, padded; layers of 60 bytes, padded
    src = _rng(51).integers(0, 256, layer_stride * 2, dtype=np.uint8)
    ctx.texture_subdata(res, 0, Map.WRITE, box, src.tobytes(), stride, layer_stride)
    expected = full.copy()
    for layer in range(2):
        for row in range(3):
            start = layer * layer_stride + row * stride
            expected[1 + layer, 2 + row, 4:16] = src[start : start + 12]
    assert np.array_equal(raw_read_level(screen, res, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), expected)


def test_texture_subdata_cube_faces_and_3d_level(screen, ctx):
    gl = _gl(screen)
    cube = texture(screen, Target.TEXTURE_CUBE, Format.R8G8B8A8_UNORM, 4, 4, array_size=6)
    base = np.zeros((6, 4, 16), np.uint8)
    raw_write_level(screen, cube, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, base)
    faces = _rng(52).integers(0, 256, (2, 4, 16), dtype=np.uint8)
    ctx.texture_subdata(cube, 0, Map.WRITE, Box(z=3, width=4, height=4, depth=2), faces, 16, 64)
    expected = base.copy()
    expected[3:5] = faces
    assert np.array_equal(raw_read_level(screen, cube, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, 4), expected)

    vol = texture(screen, Target.TEXTURE_3D, Format.R8_UNORM, 8, 8, 8, last_level=1)
    lvl1 = np.zeros((4, 4, 4), np.uint8)
    raw_write_level(screen, vol, 1, gl.GL_RED, gl.GL_UNSIGNED_BYTE, lvl1)
    slab = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(2, 2, 3) + 1
    ctx.texture_subdata(vol, 1, Map.WRITE, Box(x=1, y=2, z=1, width=3, height=2, depth=2), slab, 3, 6)
    expected = lvl1.copy()
    expected[1:3, 2:4, 1:4] = slab
    assert np.array_equal(raw_read_level(screen, vol, 1, gl.GL_RED, gl.GL_UNSIGNED_BYTE, 1), expected)


def test_texture_subdata_errors(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D_ARRAY, Format.R8G8B8A8_UNORM, 8, 8, array_size=2)
    box = Box(width=4, height=4, depth=2)
    with pytest.raises(glpipe.InvalidArgumentError, match="needs 128 bytes of data, got 127"):
        ctx.texture_subdata(res, 0, Map.WRITE, box, bytes(127), 16, 64)
    with pytest.raises(glpipe.InvalidArgumentError, match="stride 8 is less than one row"):
        ctx.texture_subdata(res, 0, Map.WRITE, box, bytes(1000), 8, 64)
    with pytest.raises(glpipe.InvalidArgumentError, match="layer_stride 32 is less than one layer"):
        ctx.texture_subdata(res, 0, Map.WRITE, box, bytes(1000), 16, 32)
    with pytest.raises(glpipe.InvalidArgumentError, match="use buffer_subdata"):
        ctx.texture_subdata(_buffer(screen, 16), 0, Map.WRITE, Box(width=4), bytes(4), 4, 4)
    with pytest.raises(glpipe.InvalidArgumentError, match="use texture_subdata"):
        ctx.buffer_subdata(res, Map.WRITE, 0, bytes(4))


# ---------------------------------------------------------------------------
# formats that need conversion, compressed formats
# ---------------------------------------------------------------------------


def test_z24s8_is_converted_both_ways(screen, ctx):
    """Z24_UNORM_S8_UINT is Z in bits 0..23 and S in 24..31 (Gallium); GL's
    DEPTH_STENCIL / UNSIGNED_INT_24_8 has Z in 8..31 and S in 0..7."""
    res = texture(screen, Target.TEXTURE_2D, Format.Z24_UNORM_S8_UINT, 4, 4, bind=Bind.DEPTH_STENCIL)
    gl = _gl(screen)
    rng = _rng(60)
    z = rng.integers(0, 1 << 24, (4, 4), dtype=np.uint32)
    s = rng.integers(0, 256, (4, 4), dtype=np.uint32)
    gl_words = (z << 8) | s
    raw_write_level(screen, res, 0, gl.GL_DEPTH_STENCIL, gl.GL_UNSIGNED_INT_24_8, gl_words.view(np.uint8)[None])
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=1, y=1, width=3, height=2))
    gallium = t.data.view(np.uint32).reshape(2, 3)
    assert np.array_equal(gallium, (s[1:3, 1:4] << 24) | z[1:3, 1:4])
    ctx.transfer_unmap(t)
    # And back: write Gallium words, read GL words.
    z2 = rng.integers(0, 1 << 24, (4, 4), dtype=np.uint32)
    s2 = rng.integers(0, 256, (4, 4), dtype=np.uint32)
    ctx.texture_subdata(res, 0, Map.WRITE, Box(width=4, height=4), ((s2 << 24) | z2).tobytes(), 16, 64)
    got = raw_read_level(screen, res, 0, gl.GL_DEPTH_STENCIL, gl.GL_UNSIGNED_INT_24_8, 4).view(np.uint32)
    assert np.array_equal(got.reshape(4, 4), (z2 << 8) | s2)


def test_compressed_rgtc1_blocks(screen, ctx):
    """RGTC1: 4x4 blocks of 8 bytes; .data rows are rows of blocks."""
    fmt = Format.RGTC1_UNORM
    assert screen.is_format_supported(fmt, Target.TEXTURE_2D, 0, 0, Bind.SAMPLER_VIEW)
    res = texture(screen, Target.TEXTURE_2D, fmt, 8, 8)
    blocks = _rng(61).integers(0, 256, (2, 16), dtype=np.uint8)  # 2 rows of 2 blocks
    raw_write_compressed(screen, res, 0, 8, 8, blocks)
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=4, y=0, width=4, height=4))
    assert t.data.shape == (1, 1, 8) and t.stride == 8
    assert np.array_equal(t.data[0, 0], blocks[0, 8:16])
    ctx.transfer_unmap(t)
    new = _rng(62).integers(0, 256, 8, dtype=np.uint8)
    t = ctx.transfer_map(res, 0, Map.WRITE, Box(x=0, y=4, width=4, height=4))
    t.data[0, 0] = new
    ctx.transfer_unmap(t)
    expected = blocks.copy()
    expected[1, 0:8] = new
    assert np.array_equal(raw_read_compressed(screen, res, 0, 32).reshape(2, 16), expected)


def test_compressed_box_alignment(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.RGTC1_UNORM, 6, 6)
    blocks = _rng(63).integers(0, 256, (2, 16), dtype=np.uint8)
    raw_write_compressed(screen, res, 0, 6, 6, blocks)
    # A box ending at the level's edge may be a partial block.
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=4, y=4, width=2, height=2))
    assert np.array_equal(t.data[0, 0], blocks[1, 8:16])
    ctx.transfer_unmap(t)
    for box in (Box(x=2, y=0, width=4, height=4), Box(x=0, y=0, width=2, height=4)):
        with pytest.raises(glpipe.InvalidArgumentError, match="aligned to its 4x4 blocks"):
            ctx.transfer_map(res, 0, Map.READ, box)


# ---------------------------------------------------------------------------
# usage flags, errors, bookkeeping
# ---------------------------------------------------------------------------


def test_texture_box_errors(screen, ctx):
    res = texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 4, last_level=1)
    cases = (
        (0, Box(x=5, width=4, height=1), "outside level 0"),
        (1, Box(x=0, y=1, width=4, height=2), "outside level 1"),
        (0, Box(x=-1, width=2, height=2), "outside"),
        (0, Box(width=0, height=2), "empty"),
        (0, Box(width=2, height=2, z=1), "has no layers"),
        (2, Box(width=1, height=1), "level 2 outside"),
    )
    for level, box, msg in cases:
        with pytest.raises(glpipe.InvalidArgumentError, match=msg):
            ctx.transfer_map(res, level, Map.READ, box)
    one_d = texture(screen, Target.TEXTURE_1D, Format.R8_UNORM, 8)
    with pytest.raises(glpipe.InvalidArgumentError, match="has no y"):
        ctx.transfer_map(one_d, 0, Map.READ, Box(y=1, width=2))


def test_usage_flag_rules(screen, ctx):
    res = _buffer(screen, 16)
    box = Box(width=4)
    for bad in (
        Map.READ | Map.DISCARD_RANGE,
        Map.READ | Map.DISCARD_WHOLE_RESOURCE,
        Map.READ | Map.UNSYNCHRONIZED,
        Map.READ | Map.FLUSH_EXPLICIT,
    ):
        with pytest.raises(glpipe.InvalidArgumentError, match="cannot be combined with READ"):
            ctx.transfer_map(res, 0, bad, box)
    with pytest.raises(glpipe.InvalidArgumentError, match="neither READ nor WRITE"):
        ctx.transfer_map(res, 0, Map.DISCARD_RANGE, box)
    with pytest.raises(glpipe.InvalidArgumentError, match="unknown PIPE_MAP bits"):
        ctx.transfer_map(res, 0, 1 << 20, box)
    # PERSISTENT needs a MAP_PERSISTENT resource (test_persistent_maps.py maps one).
    with pytest.raises(glpipe.InvalidArgumentError, match="MAP_PERSISTENT"):
        ctx.transfer_map(res, 0, Map.WRITE | Map.PERSISTENT, box)
    # MAP_DIRECTLY: glpipe never maps directly, so the map fails (None), as Gallium allows.
    assert ctx.transfer_map(res, 0, Map.READ | Map.DIRECTLY, box) is None
    # Accepted hints still map.
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.UNSYNCHRONIZED | Map.DONTBLOCK, box)
    assert t is not None and t.data.shape == (4,)
    ctx.transfer_unmap(t)


def test_unmap_rules(screen, ctx):
    res = _buffer(screen, 16)
    t = ctx.transfer_map(res, 0, Map.READ, Box(width=4))
    other = screen.context_create()
    try:
        with pytest.raises(glpipe.InvalidArgumentError, match="another context"):
            other.transfer_unmap(t)
    finally:
        other.destroy()
    ctx.transfer_unmap(t)
    with pytest.raises(glpipe.InvalidArgumentError, match="already unmapped"):
        ctx.transfer_unmap(t)
    with pytest.raises(glpipe.InvalidArgumentError, match="expected a Transfer"):
        ctx.transfer_unmap(object())


def test_multisampled_texture_subdata_is_refused(screen, ctx):
    """texture_subdata of a multisampled texture is refused (which sample?);
    transfer_map maps one through a staging texture (test_persistent_maps.py)."""
    fmt = Format.R8G8B8A8_UNORM
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, 4, 4, Bind.RENDER_TARGET):
        pytest.skip("no 4x MSAA RGBA8 on this host")
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=fmt,
            width0=4,
            height0=4,
            nr_samples=4,
            nr_storage_samples=4,
            bind=Bind.RENDER_TARGET,
        )
    )
    with pytest.raises(glpipe.UnsupportedError, match="multisampled"):
        ctx.texture_subdata(res, 0, Map.WRITE, Box(width=4, height=4), bytes(64), 16, 64)


def test_destroyed_objects(screen, ctx):
    res = _buffer(screen, 16)
    t = ctx.transfer_map(res, 0, Map.WRITE, Box(width=4))
    screen.resource_destroy(res)
    with pytest.raises(glpipe.ObjectDestroyedError):
        ctx.transfer_unmap(t)
    with pytest.raises(glpipe.ObjectDestroyedError):
        ctx.transfer_map(res, 0, Map.READ, Box(width=4))
    dead = screen.context_create()
    live = _buffer(screen, 16)
    dead.destroy()
    with pytest.raises(glpipe.ObjectDestroyedError):
        dead.transfer_map(live, 0, Map.READ, Box(width=4))


def test_open_mappings_end_with_the_context(screen):
    c = screen.context_create()
    t = c.transfer_map(_buffer(screen, 8), 0, Map.WRITE, Box(width=8))
    c.destroy()
    assert not t.mapped and t.data is None


def test_transfer_byte_counters(screen, ctx):
    res = _buffer(screen, 64)
    before = screen.counters.snapshot()
    ctx.buffer_subdata(res, Map.WRITE, 0, bytes(24))
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=8, width=40))
    ctx.transfer_unmap(t)
    after = screen.counters.snapshot()
    assert after["bytes_uploaded"] - before["bytes_uploaded"] == 24
    assert after["bytes_downloaded"] - before["bytes_downloaded"] == 40


def test_resource_made_on_another_thread_can_be_mapped(screen, ctx):
    """A resource created off the GL thread has its storage made on first use here."""
    out = {}

    def make():
        out["res"] = _buffer(screen, 32)

    th = threading.Thread(target=make)
    th.start()
    th.join()
    res = out["res"]
    ctx.buffer_subdata(res, Map.WRITE, 0, bytes(range(32)))
    assert np.array_equal(raw_read_buffer(screen, res), np.arange(32, dtype=np.uint8))


def test_transfers_are_a_part(screen, ctx):
    """The transfers area is a part (docs/architecture.md): ``ctx.transfers_part``
    owns the open mappings; the pipe_context methods are its bound methods."""
    from glpipe import transfer as transfer_module
    from glpipe.context import PARTS

    part = ctx.transfers_part
    assert isinstance(part, transfer_module.TransferPart) and part.ctx is ctx
    assert transfer_module.AREA in PARTS and not hasattr(transfer_module, "TransferMixin")
    for name in ("transfer_map", "transfer_unmap", "buffer_subdata", "texture_subdata"):
        assert getattr(ctx, name).__self__ is part
    buf = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=16, bind=Bind.VERTEX_BUFFER)
    )
    t = ctx.transfer_map(buf, 0, Map.WRITE, Box(x=4, width=8))
    assert t in part._transfers and t.data.shape == (8,)
    ctx.transfer_unmap(t)
    assert not part._transfers and t.data is None
    screen.resource_destroy(buf)
