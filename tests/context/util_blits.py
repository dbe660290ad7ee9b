"""Helpers of the blit / copy / clear / mipmap tests: make a texture, fill a
level with known bytes, read a level back (through transfers, which are
tested on their own in test_transfer.py), and the spec's sampling rule in
numpy (the expected values of every scaled blit)."""

from __future__ import annotations

import numpy as np

import glpipe
from glpipe import Bind, Box, Format, Map, ResourceTemplate, Target
from glpipe.formats import util_format_description


def make(screen, target, fmt, width, height=1, depth=1, array_size=1, last_level=0, samples=0, bind=None):
    """A texture (SAMPLER_VIEW | RENDER_TARGET, or DEPTH_STENCIL for a ZS format)."""
    desc = util_format_description(fmt)
    if bind is None:
        bind = Bind.SAMPLER_VIEW | (Bind.DEPTH_STENCIL if desc.colorspace == "zs" else Bind.RENDER_TARGET)
        if not screen.is_format_supported(fmt, target, samples, samples, bind):
            bind = Bind.SAMPLER_VIEW
    return screen.resource_create(
        ResourceTemplate(
            target=target,
            format=fmt,
            width0=width,
            height0=height,
            depth0=depth,
            array_size=array_size,
            last_level=last_level,
            nr_samples=samples,
            nr_storage_samples=samples,
            bind=bind,
        )
    )


def buffer(screen, size):
    """A BUFFER resource of ``size`` bytes."""
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER)
    )


def level_box(res, level):
    """The whole of ``level`` as a Box."""
    w, h, d = res.level_extent(level)
    return Box(x=0, y=0, z=0, width=w, height=h, depth=d)


def level_bytes(res, level):
    """(layers, rows of blocks, bytes per row) of ``level``."""
    desc = util_format_description(res.format)
    w, h, d = res.level_extent(level)
    nbx = -(-w // desc.block_width)
    nby = -(-h // desc.block_height)
    return d, nby, nbx * desc.blocksize


def fill(ctx, res, level=0, seed=0, data=None):
    """Write random (or given) bytes over all of ``level``; returns them as (d, rows, rowbytes)."""
    shape = level_bytes(res, level)
    if data is None:
        data = np.random.default_rng(seed).integers(0, 256, size=shape, dtype=np.uint8)
    data = np.ascontiguousarray(data, np.uint8).reshape(shape)
    ctx.texture_subdata(res, level, Map.WRITE, level_box(res, level), data, shape[2], shape[1] * shape[2])
    return data


def read(ctx, res, level=0):
    """The bytes of ``level`` as (d, rows, rowbytes)."""
    t = ctx.transfer_map(res, level, Map.READ, level_box(res, level))
    out = np.array(t.data, copy=True).reshape(level_bytes(res, level))
    ctx.transfer_unmap(t)
    return out


def read_buffer(ctx, res):
    """Every byte of buffer ``res``."""
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=res.width0, height=1, depth=1))
    out = np.array(t.data, copy=True)
    ctx.transfer_unmap(t)
    return out


def texels(raw, dtype, comps):
    """Bytes (d, rows, rowbytes) as (d, rows, w, comps) of ``dtype``."""
    d, h, row = raw.shape
    return raw.view(dtype).reshape(d, h, -1, comps)


def side(res, level=0, box=None, fmt=None):
    """A BlitSide."""
    return glpipe.BlitSide(
        resource=res, level=level, box=box or level_box(res, level), format=res.format if fmt is None else fmt
    )


def nearest_index(dst_n, src_x, src_n, limit):
    """The source texel each of ``dst_n`` destination pixels takes with a
    NEAREST blit of ``src_n`` source texels (negative: mirrored) starting at
    ``src_x``: the texel under the pixel centre's image, clamped to the level
    (the blit samples with CLAMP_TO_EDGE)."""
    centres = src_x + (np.arange(dst_n) + 0.5) * (src_n / dst_n)
    return np.clip(np.floor(centres).astype(int), 0, limit - 1)


def linear_weights(dst_n, src_x, src_n, limit):
    """(i0, i1, frac) of a LINEAR blit along one axis (texel centres at +0.5)."""
    centres = src_x + (np.arange(dst_n) + 0.5) * (src_n / dst_n) - 0.5
    i0 = np.floor(centres).astype(int)
    frac = centres - i0
    return np.clip(i0, 0, limit - 1), np.clip(i0 + 1, 0, limit - 1), frac
