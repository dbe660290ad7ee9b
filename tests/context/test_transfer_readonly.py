"""A READ mapping's ``data`` is a read-only numpy array (writes raise, as
they would vanish: a READ map uploads nothing at unmap); READ|WRITE and
WRITE mappings stay writable (issue 12 item 7)."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Bind, Box, Format, Map, ResourceTemplate, Target

from .util_transfer import raw_read_buffer, raw_write_buffer, texture


def _buffer(screen, size):
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER)
    )


def _resources(screen):
    """A buffer and a texture of each shape the READ path builds differently."""
    yield "buffer", _buffer(screen, 64), Box(x=4, width=32)
    yield "2d", texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 4), Box(width=8, height=4, depth=1)
    # A format converted on read-back (fallback.format_pack) and a cube (one GL image per face).
    yield "converted", texture(screen, Target.TEXTURE_2D, Format.A8B8G8R8_SNORM, 4, 4), Box(width=4, height=4, depth=1)
    yield (
        "cube",
        texture(screen, Target.TEXTURE_CUBE, Format.R8_UNORM, 4, 4, array_size=6),
        Box(width=4, height=4, depth=6),
    )


def test_read_mapping_is_read_only(screen, ctx):
    for name, res, box in _resources(screen):
        t = ctx.transfer_map(res, 0, Map.READ, box)
        assert t.data.flags.writeable is False, name
        before = t.data.copy()
        with pytest.raises(ValueError, match="read-only"):
            t.data[...] = 7
        with pytest.raises(ValueError, match="read-only"):
            t.data.reshape(-1)[0] = 7  # a view of it is read-only as well
        with pytest.raises(ValueError):
            t.data.flags.writeable = True  # and cannot be made writable (it owns no memory)
        assert np.array_equal(t.data, before), name
        ctx.transfer_unmap(t)
        screen.resource_destroy(res)


@pytest.mark.parametrize("usage", [Map.READ_WRITE, Map.WRITE], ids=["READ_WRITE", "WRITE"])
def test_write_mappings_stay_writable(screen, ctx, usage):
    for name, res, box in _resources(screen):
        t = ctx.transfer_map(res, 0, usage, box)
        assert t.data.flags.writeable is True, name
        t.data[...] = 5
        ctx.transfer_unmap(t)
        t = ctx.transfer_map(res, 0, Map.READ, box)
        assert (t.data == 5).all(), name
        ctx.transfer_unmap(t)
        screen.resource_destroy(res)


def test_read_mapping_of_a_buffer_writes_nothing_back(screen, ctx):
    """The bytes GL holds are untouched by a READ mapping, whatever the caller tried."""
    res = _buffer(screen, 32)
    ref = np.arange(32, dtype=np.uint8)
    raw_write_buffer(screen, res, ref)
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=32))
    with pytest.raises(ValueError):
        t.data[0] = 99
    ctx.transfer_unmap(t)
    assert np.array_equal(raw_read_buffer(screen, res), ref)
    screen.resource_destroy(res)
