"""The numpy rung of pipe_context::blit (docs/blits.md): Gallium's blit
defined on arrays, for what no host rung does exactly.

Values are Gallium's (``fallback.format_pack.unpack_rgba``: floats, or
integers for pure-integer formats; depth in component 0, stencil in 1).
The sampling rule is u_blitter's: destination pixel i of a box of n pixels
reads the source at ``src.x + (i + 0.5) * src.width / n`` (a negative width
mirrors), NEAREST takes the texel under that point, LINEAR blends the two
nearest texel centres; both clamp to the level's edge (CLAMP_TO_EDGE), so a
source box reaching past the level repeats its edge texels.  A 3D source is
filtered in z too; array layers and cube faces are picked, never blended.
"""

from __future__ import annotations

import numpy as np

from glpipe.enums import Mask
from glpipe.format_table import FORMAT_TABLE

from .compressed import decode_blocks, decoder_for
from .format_pack import pack_rgba, unpack_rgba


def _axis_nearest(n: int, start: int, size: int, limit: int) -> np.ndarray:
    centres = start + (np.arange(n) + 0.5) * (size / n)
    return np.clip(np.floor(centres).astype(np.int64), 0, limit - 1)


def _axis_linear(n: int, start: int, size: int, limit: int) -> tuple:
    centres = start + (np.arange(n) + 0.5) * (size / n) - 0.5
    i0 = np.floor(centres).astype(np.int64)
    frac = centres - i0
    return np.clip(i0, 0, limit - 1), np.clip(i0 + 1, 0, limit - 1), frac


def sample(level: np.ndarray, box: tuple, size: tuple, linear: bool, filter_z: bool) -> np.ndarray:
    """Blit-sample ``level`` (an array (depth, height, width, 4)) over the
    source ``box`` = (x, y, z, w, h, d) into ``size`` = (w, h, d) pixels;
    returns (d, h, w, 4).  ``filter_z``: LINEAR also blends slices (3D)."""
    ld, lh, lw = level.shape[:3]
    x, y, z, w, h, d = box
    nw, nh, nd = size
    if not linear:
        iz = _axis_nearest(nd, z, d, ld)
        iy = _axis_nearest(nh, y, h, lh)
        ix = _axis_nearest(nw, x, w, lw)
        return level[iz[:, None, None], iy[None, :, None], ix[None, None, :]]
    work = level.astype(np.float64)
    x0, x1, fx = _axis_linear(nw, x, w, lw)
    y0, y1, fy = _axis_linear(nh, y, h, lh)
    if filter_z:
        z0, z1, fz = _axis_linear(nd, z, d, ld)
    else:
        z0 = z1 = _axis_nearest(nd, z, d, ld)
        fz = np.zeros(nd)
    fx = fx[None, None, :, None]
    fy = fy[None, :, None, None]
    fz = fz[:, None, None, None]

    def plane(zi: np.ndarray) -> np.ndarray:
        zz = zi[:, None, None]
        top = (
            work[zz, y0[None, :, None], x0[None, None, :]] * (1 - fx)
            + work[zz, y0[None, :, None], x1[None, None, :]] * fx
        )
        bot = (
            work[zz, y1[None, :, None], x0[None, None, :]] * (1 - fx)
            + work[zz, y1[None, :, None], x1[None, None, :]] * fx
        )
        return top * (1 - fy) + bot * fy

    return plane(z0) * (1 - fz) + plane(z1) * fz


def unpack_level(fmt, raw: np.ndarray, width: int, height: int) -> np.ndarray:
    """Bytes of a level (depth, rows, row bytes) in ``fmt`` (compressed
    formats decoded) as Gallium values (depth, height, width, 4), sRGB
    decoded to linear."""
    depth = raw.shape[0]
    if FORMAT_TABLE[fmt].is_compressed:
        via = decoder_for(fmt).via
        raw = decode_blocks(fmt, raw, width, height)
        fmt = via
    values = unpack_rgba(fmt, raw.reshape(-1), depth * height * width, decode_srgb=True)
    return values.reshape(depth, height, width, 4)


def apply_swizzle(values: np.ndarray, swizzle: tuple) -> np.ndarray:
    """pipe_blit_info.swizzle: component c takes X..W, or 0 / 1 (PIPE_SWIZZLE_0 / _1)."""
    out = np.empty_like(values)
    for c, s in enumerate(swizzle):
        s = int(s)
        out[..., c] = values[..., s] if s < 4 else (0 if s == 4 else 1)
    return out


def merge(
    dst_fmt, old: np.ndarray, new: np.ndarray, mask: int, keep: np.ndarray | None, alpha_blend: bool
) -> np.ndarray:
    """The written pixels, as bytes of ``dst_fmt``: ``new`` values blended
    over ``old`` (``alpha_blend``: SRC_ALPHA / INV_SRC_ALPHA on every
    component, in linear space), only the components ``mask`` names (Z is
    component 0, S component 1 of a depth/stencil format), only where
    ``keep`` (scissor and window rectangles; None: everywhere)."""
    desc = FORMAT_TABLE[dst_fmt]
    if alpha_blend:
        a = new[..., 3:4].astype(np.float64)
        new = new * a + old * (1 - a)
    if desc.is_depth_or_stencil:
        comps = [(0, Mask.Z), (1, Mask.S)]
    else:
        comps = [(0, Mask.R), (1, Mask.G), (2, Mask.B), (3, Mask.A)]
    out = old.astype(new.dtype) if old.dtype != new.dtype else old.copy()
    for c, bit in comps:
        if mask & bit:
            out[..., c] = new[..., c]
    if keep is not None:
        out = np.where(keep[None, :, :, None], out, old)
    return pack_rgba(dst_fmt, out.reshape(-1, 4), encode_srgb=True)


def region_mask(x0: int, y0: int, w: int, h: int, scissor, rects, include: bool) -> np.ndarray | None:
    """Which pixels of the destination box (h, w) a blit may write: inside
    the scissor (``scissor``: None or (minx, miny, maxx, maxy)) and inside
    any of ``rects`` when ``include``, outside all of them otherwise
    (pipe_blit_info.window_rectangles).  None when every pixel is kept."""
    if scissor is None and not rects and not include:
        return None
    xs = x0 + np.arange(w)[None, :]
    ys = y0 + np.arange(h)[:, None]
    keep = np.ones((h, w), bool)
    if scissor is not None:
        minx, miny, maxx, maxy = scissor
        keep &= (xs >= minx) & (xs < maxx) & (ys >= miny) & (ys < maxy)
    inside = np.zeros((h, w), bool)
    for minx, miny, maxx, maxy in rects:
        inside |= (xs >= minx) & (xs < maxx) & (ys >= miny) & (ys < maxy)
    keep &= inside if include else ~inside
    return keep


__all__ = ["apply_swizzle", "merge", "region_mask", "sample", "unpack_level"]
