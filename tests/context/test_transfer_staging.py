"""Mappings reuse host memory (glpipe/transfer_region.py StagingPool) only
when nothing references it: an array kept from an unmapped transfer is
never overwritten by a later mapping, and whole-level reads straight into
the mapping return the same bytes as box reads."""

from __future__ import annotations

import numpy as np

from glpipe import Box, Format, Map, Target

from .util_blits import buffer, fill, make, read, read_buffer


def _map_write(ctx, res, value):
    """A WRITE map of all of ``res`` filled with ``value``.  On a buffer it
    says FLUSH_EXPLICIT (and flushes everything), which keeps a staging copy
    (other buffer maps are views of the buffer itself, docs/api.md)."""
    if res.target == Target.BUFFER:
        box = Box(x=0, width=res.width0, height=1, depth=1)
        t = ctx.transfer_map(res, 0, Map.WRITE | Map.DISCARD_RANGE | Map.FLUSH_EXPLICIT, box)
        ctx.transfer_flush_region(t, box)
    else:
        w, h, _ = res.level_extent(0)
        t = ctx.transfer_map(res, 0, Map.WRITE | Map.DISCARD_RANGE, Box(width=w, height=h, depth=1))
    t.data[...] = value
    return t


def test_a_kept_view_is_never_reused(ctx, screen):
    for res in (buffer(screen, 4096), make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 32, 32)):
        t = _map_write(ctx, res, 1)
        kept = t.data  # held past the unmap
        ctx.transfer_unmap(t)
        part = _map_write(ctx, res, 2)
        sub = part.data[1:3]  # a derived view only
        ctx.transfer_unmap(part)
        for value in (3, 4):
            ctx.transfer_unmap(_map_write(ctx, res, value))
        assert (kept == 1).all() and (sub == 2).all()
        assert (read(ctx, res) == 4).all()


def test_read_mappings_reuse_memory_and_stay_read_only(ctx, screen):
    res = buffer(screen, 4096)
    ctx.buffer_subdata(res, Map.WRITE, 0, np.arange(4096, dtype=np.uint32).astype(np.uint8))
    for _ in range(3):
        t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=4096, height=1, depth=1))
        assert not t.data.flags.writeable
        assert (t.data == np.arange(4096, dtype=np.uint32).astype(np.uint8)).all()
        ctx.transfer_unmap(t)
        t = _map_write(ctx, res, 9)  # writable again
        ctx.transfer_unmap(t)
        assert (read_buffer(ctx, res) == 9).all()
        ctx.buffer_subdata(res, Map.WRITE, 0, np.arange(4096, dtype=np.uint32).astype(np.uint8))


def test_whole_level_reads_match_box_reads(ctx, screen):
    for target, args in (
        (Target.TEXTURE_2D, (7, 5)),
        (Target.TEXTURE_3D, (4, 3, 2)),
        (Target.TEXTURE_2D_ARRAY, (4, 3, 1, 3)),
        (Target.TEXTURE_1D_ARRAY, (6, 1, 1, 4)),
    ):
        res = make(screen, target, Format.R8G8B8A8_UNORM, *args)
        data = fill(ctx, res, seed=5)
        w, h, d = res.level_extent(0)
        rows = 1 if target == Target.TEXTURE_1D_ARRAY else h
        whole = Box(x=0, y=0, z=0, width=w, height=rows, depth=d)
        t = ctx.transfer_map(res, 0, Map.READ, whole)
        assert (np.asarray(t.data).reshape(data.shape) == data).all(), target
        ctx.transfer_unmap(t)
        # One texel column less: the read through a level-sized buffer.
        t = ctx.transfer_map(res, 0, Map.READ, Box(x=1, y=0, z=0, width=w - 1, height=rows, depth=d))
        assert (np.asarray(t.data).reshape(d, -1, (w - 1) * 4) == data.reshape(d, -1, w * 4)[:, :, 4:]).all()
        ctx.transfer_unmap(t)
