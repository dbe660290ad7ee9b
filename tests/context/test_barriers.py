"""memory_barrier, texture_barrier, flush_resource (context.rst): every
PIPE_BARRIER bit has its GL barrier bits, bad flags are refused, and a
texture_barrier works where TEXTURE_BARRIER is 1 and is refused where it is
0; flush_resource submits and checks its resource."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Barrier, Box, Cap, Format, Target, TextureBarrier
from glpipe.barriers import BARRIER_BITS
from glpipe.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .util_blits import buffer, fill, make, read, read_buffer


def test_every_barrier_bit_has_gl_bits():
    singles = [b for b in Barrier if b.value and (b.value & (b.value - 1)) == 0]
    assert set(singles) == set(BARRIER_BITS)


def test_memory_barrier_accepts_every_bit_and_refuses_others(ctx, screen):
    for bit in BARRIER_BITS:
        ctx.memory_barrier(bit)
    ctx.memory_barrier(Barrier.ALL)
    ctx.memory_barrier(0)
    for bad in (1 << 20, -1, "ALL", 1.0, None):
        with pytest.raises(InvalidArgumentError):
            ctx.memory_barrier(bad)


def test_memory_barrier_orders_a_copy_before_a_read(ctx, screen):
    """A buffer copied into, then read after memory_barrier(UPDATE_BUFFER | MAPPED_BUFFER)."""
    src, dst = buffer(screen, 64), buffer(screen, 64)
    data = np.arange(64, dtype=np.uint8)
    ctx.buffer_subdata(src, 0, 0, data)
    ctx.resource_copy_region(dst, 0, 0, 0, 0, src, 0, Box(x=0, width=64, height=1, depth=1))
    ctx.memory_barrier(Barrier.UPDATE_BUFFER | Barrier.MAPPED_BUFFER)
    assert np.array_equal(read_buffer(ctx, dst), data)


def test_texture_barrier_follows_the_cap(ctx, screen):
    if not screen.get_param(Cap.TEXTURE_BARRIER):
        with pytest.raises(UnsupportedError, match="TEXTURE_BARRIER"):
            ctx.texture_barrier(TextureBarrier.SAMPLER)
        return
    ctx.texture_barrier(TextureBarrier.SAMPLER | TextureBarrier.FRAMEBUFFER)
    ctx.texture_barrier(0)
    with pytest.raises(InvalidArgumentError):
        ctx.texture_barrier(1 << 5)


def test_flush_resource(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    data = fill(ctx, tex, seed=1)
    ctx.flush_resource(tex)
    ctx.flush_resource(buffer(screen, 16))
    assert np.array_equal(read(ctx, tex), data)
    for bad in (None, "tex", 3):
        with pytest.raises(InvalidArgumentError):
            ctx.flush_resource(bad)
    screen.resource_destroy(tex)
    with pytest.raises(ObjectDestroyedError):
        ctx.flush_resource(tex)
