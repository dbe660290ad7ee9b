"""Filtered texture lookups of the numpy TGSI executor: TEX / TXP / TXL and
SAMPLE / SAMPLE_L on the bound sampler views, with the
bound sampler states (nearest and linear filtering within a level, none /
nearest / linear between levels, every wrap mode, the border colour).

The texels are texture.py's ``TextureBinding`` words (decoded, swizzled);
the rules are GL 4.5 §8.14 (texture minification / magnification), which
the host applies to the GLSL the lowering emits:

* level of detail: compute programs have no derivatives; an implicit
  lookup (TEX, TXP, SAMPLE) takes lambda_base = 0 -- the base level, as
  GLSL says of implicit lookups outside fragment shaders and as llvmpipe
  does -- TXL / SAMPLE_L take their lod (TXB / SAMPLE_B are refused in
  compute programs by lowering.validate: GLSL has no bias there); then the sampler's lod_bias is added and lambda clamped to
  [min_lod, max_lod] (GL 4.5 §8.14.1).  lambda <= c magnifies (c = 0.5 for
  a LINEAR magnification with NEAREST_MIPMAP_* minification, else 0);
* minification levels: mip filter NONE -> the view's first level; NEAREST ->
  level ceil(lambda + 0.5) - 1 (0 for lambda <= 0.5); LINEAR -> floor(lambda)
  and the next, weighted by frac(lambda); all clamped to the view's levels;
* within a level: u = s * size (unnormalized coordinates: u = s) -- NEAREST
  takes floor(u), LINEAR the two texels around u - 0.5 weighted by its
  fraction, per axis; arrays take layer floor(r + 0.5) clamped to the view;
* wrap modes on the texel index (REPEAT, MIRROR_REPEAT, CLAMP_TO_EDGE,
  CLAMP_TO_BORDER, MIRROR_CLAMP_TO_EDGE, and the legacy CLAMP / MIRROR_CLAMP /
  MIRROR_CLAMP_TO_BORDER, which clamp the coordinate to [0, 1] first); a
  texel outside a BORDER mode reads the border colour, taken through the
  format's channels (R -> (r, 0, 0, 1)) and the view's swizzle, as a texel;
* linear weights and the blends are float32, ``a + w * (b - a)`` per axis
  then between levels; pure integer formats are never blended (nearest).

Cube maps (face selection and seamless filtering) and shadow comparisons
are refused at create_compute_state (``check``), as is every other
filtered opcode (docs/compute.md "Textures in the executor").
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from lowering.errors import UnsupportedError

from .texture import FETCH_OPS, LAYOUTS, Layout, TextureBinding

U32 = np.uint32
F32 = np.float32

# PIPE_TEX_WRAP_* / PIPE_TEX_FILTER_* / PIPE_TEX_MIPFILTER_* values (p_defines.h).
REPEAT, CLAMP, CLAMP_TO_EDGE, CLAMP_TO_BORDER, MIRROR_REPEAT, MIRROR_CLAMP, MIRROR_CLAMP_TO_EDGE, MIRROR_BORDER = range(
    8
)
NEAREST, LINEAR = 0, 1
MIP_NEAREST, MIP_LINEAR, MIP_NONE = 0, 1, 2

#: Filtered opcode -> (coordinate source, view source, sampler source, the
#: lod / bias operand (source, component) or None: lambda_base 0).
SAMPLE_OPS = {
    "TEX": (0, 1, 1, None),
    "TXP": (0, 1, 1, None),
    "TXL": (0, 1, 1, (0, 3)),
    "SAMPLE": (0, 1, 2, None),
    "SAMPLE_L": (0, 1, 2, (3, 0)),
}
#: Targets the filtered lookups run on.
SAMPLED_TARGETS = frozenset({"1D", "2D", "3D", "RECT", "1D_ARRAY", "2D_ARRAY"})


def check(inst, target: str | None) -> None:
    """``prepare``: refuse at create the lookups this module does not run."""
    if target not in SAMPLED_TARGETS:
        raise UnsupportedError(
            f"{inst.opcode} on target {target}: the numpy TGSI executor filters 1D / 2D / 3D / RECT / array "
            f"textures (no cube maps, shadow comparisons or multisampled textures; line {inst.line})"
        )
    if inst.tex_offsets:
        raise UnsupportedError(f"{inst.opcode}: texel offsets on filtered lookups are not run by the executor")


def _wrap(i: np.ndarray, n: int, mode: int, nearest: bool) -> tuple[np.ndarray, np.ndarray]:
    """(index in 0..n-1, lanes reading the border) of texel indices ``i``."""
    border = np.zeros(i.shape, bool)
    if mode == REPEAT:
        return np.mod(i, n), border
    if mode == MIRROR_REPEAT:
        m = np.mod(i, 2 * n)
        return np.where(m >= n, 2 * n - 1 - m, m), border
    if mode in (MIRROR_CLAMP_TO_EDGE, MIRROR_CLAMP, MIRROR_BORDER):
        i = np.where(i >= 0, i, -1 - i)
    if mode in (CLAMP_TO_EDGE, MIRROR_CLAMP_TO_EDGE) or (mode in (CLAMP, MIRROR_CLAMP) and nearest):
        return np.clip(i, 0, n - 1), border
    # CLAMP_TO_BORDER, MIRROR_CLAMP_TO_BORDER; CLAMP / MIRROR_CLAMP when linear.
    border = (i < 0) | (i >= n)
    return np.clip(i, 0, n - 1), border


def _prepare_coord(s: np.ndarray, mode: int) -> np.ndarray:
    """The legacy clamping modes clamp the coordinate to [0, 1] (mirrored first)."""
    if mode in (MIRROR_CLAMP, MIRROR_BORDER):
        s = np.abs(s)
    if mode in (CLAMP, MIRROR_CLAMP):
        return np.clip(s, F32(0), F32(1))
    return s


def _level(tex: TextureBinding, layout: Layout, k: int, coords, lanes, sampler, filt: int, integer: bool) -> np.ndarray:
    """Filter view level ``k`` for ``lanes``: (lanes, 4) words (float32 bits,
    or the texel's words for pure integer formats, never blended)."""
    words = tex.levels[k]
    depth, h, w = words.shape[:3]
    sizes = (w, h, depth)
    wraps = (sampler.wrap_s, sampler.wrap_t, sampler.wrap_r)
    unnorm = bool(sampler.unnormalized_coords) or layout is LAYOUTS["RECT"]
    nearest = filt == NEAREST or integer
    axes: list[Any] = []  # per coordinate axis (x, y, z): the (index, border) of texel 0 (and 1), the weight
    for a in layout.coords:
        s = _prepare_coord(coords[lanes, a], wraps[a])
        u = s if unnorm else (s * F32(sizes[a])).astype(F32)
        if nearest:
            axes.append((_wrap(np.floor(u).astype(np.int64), sizes[a], wraps[a], True), None, None))
        else:
            u = (u - F32(0.5)).astype(F32)
            fl = np.floor(u)
            i0 = fl.astype(np.int64)
            weight = (u - fl).astype(F32)[:, None]
            axes.append((_wrap(i0, sizes[a], wraps[a], False), _wrap(i0 + 1, sizes[a], wraps[a], False), weight))
    zero = np.zeros(lanes.size, np.int64)
    if layout.layer is not None:
        layer = np.nan_to_num(np.floor(coords[lanes, layout.layer].astype(np.float64) + 0.5))
        slice_index = np.clip(layer, 0, depth - 1).astype(np.int64)
    else:
        slice_index = zero
    border = tex.border_words(sampler.border_color)

    def texel(picked: list) -> np.ndarray:
        x = picked[0][0]
        y = picked[1][0] if len(picked) > 1 else zero
        z = picked[2][0] if len(picked) > 2 else slice_index
        out = words[z, y, x]
        outside = np.zeros(lanes.size, bool)
        for _i, b in picked:
            outside |= b
        return np.where(outside[:, None], border, out) if outside.any() else out

    if nearest:
        return texel([ax[0] for ax in axes])
    n = len(axes)
    values = {
        bits: texel([axes[a][bits[a]] for a in range(n)]).view(F32) for bits in itertools.product((0, 1), repeat=n)
    }
    for a in range(n):  # lerp along x, then y, then z (keys drop their first bit each round)
        weight = axes[a][2]
        values = {
            bits[1:]: (v + weight * (values[(1, *bits[1:])] - v)).astype(F32)
            for bits, v in values.items()
            if bits[0] == 0
        }
    return values[()].view(U32)


def _lambda(sampler, explicit: np.ndarray | None, n: int) -> np.ndarray:
    """GL 4.5 §8.14.1 in a compute program: ``explicit`` (the lod, or the
    bias added to lambda_base 0; None: 0) plus the sampler's lod_bias,
    clamped to [min_lod, max_lod]."""
    base = np.zeros(n) if explicit is None else explicit.astype(np.float64)
    return np.clip(base + float(sampler.lod_bias), float(sampler.min_lod), float(sampler.max_lod))


def sample(tex: TextureBinding | None, sampler, layout: Layout, coords: np.ndarray, explicit, mask) -> np.ndarray:
    """The filtered lookup of every lane of ``mask``: (lanes, 4) words."""
    n = coords.shape[0]
    out = np.zeros((n, 4), U32)
    if tex is None or sampler is None or not tex.levels or tex.levels[0] is None:
        return out  # an unbound view or sampler: zeros (as the host's incomplete texture reads 0)
    lam = _lambda(sampler, explicit, n)
    mip = sampler.min_mip_filter
    c = 0.5 if sampler.mag_img_filter == LINEAR and sampler.min_img_filter == NEAREST and mip != MIP_NONE else 0.0
    q = len(tex.levels) - 1
    mag = lam <= c
    live = np.nonzero(mask)[0]
    # (lanes, level, filter, weight-of-the-next-level or None) groups to filter.
    if mip == MIP_NONE:
        lvl = np.zeros(n, np.int64)
    elif mip == MIP_NEAREST:
        lvl = np.where(lam <= 0.5, 0, np.ceil(lam + 0.5) - 1)
    else:
        lvl = np.floor(np.where(np.isfinite(lam), lam, 0))
    lvl = np.clip(np.nan_to_num(lvl), 0, q).astype(np.int64)
    lvl = np.where(mag, 0, lvl)
    frac = np.where((mip == MIP_LINEAR) & ~mag & (lam < q), lam - np.floor(lam), 0.0).astype(F32)
    for k in np.unique(lvl[live]):
        for is_mag in (True, False):
            lanes = live[(lvl[live] == k) & (mag[live] == is_mag)]
            if not lanes.size:
                continue
            filt = sampler.mag_img_filter if is_mag else sampler.min_img_filter
            value = _level(tex, layout, int(k), coords, lanes, sampler, filt, tex.integer)
            if not is_mag and mip == MIP_LINEAR and not tex.integer and k < q:
                f = frac[lanes]
                blend = np.nonzero(f > 0)[0]
                if blend.size:
                    upper = _level(tex, layout, int(k) + 1, coords, lanes[blend], sampler, filt, False).view(F32)
                    lower = value[blend].view(F32)
                    value[blend] = (lower + f[blend][:, None] * (upper - lower)).astype(F32).view(U32)
            out[lanes] = value
    return out


def _sample_op(machine, inst, mask) -> None:
    coord_src, view_src, sampler_src, lod_src = SAMPLE_OPS[inst.opcode]
    view_index = inst.srcs[view_src].index
    target = inst.texture if inst.opcode.startswith("T") else sview_target(machine, view_index)
    layout = LAYOUTS[target]
    coords = machine.fetch(inst.srcs[coord_src], "float").view(F32)
    if inst.opcode == "TXP":
        with np.errstate(all="ignore"):
            coords = (coords / coords[:, 3:4]).astype(F32)
    explicit = None
    if lod_src is not None:
        src, comp = lod_src
        explicit = machine.fetch(inst.srcs[src], "float").view(F32)[:, comp]
    tex = machine.textures.get(view_index)
    sampler = machine.samplers.get(inst.srcs[sampler_src].index)
    value = sample(tex, sampler, layout, coords, explicit, mask)
    if not inst.opcode.startswith("T"):
        value = value[:, list(inst.srcs[view_src].swizzle)]  # SAMPLE*: the SVIEW operand swizzles the result
    machine.write(inst.dsts[0], value, mask)


def sview_target(machine, index: int) -> str:
    """The declared target of SVIEW[index]."""
    for d in machine.prog.ir.declarations:
        if d.file == "SVIEW" and d.first <= index <= d.last:
            return d.target or ""
    return ""


def fetched_units(ir) -> set[int]:
    """The SAMP / SVIEW indices ``ir`` fetches or samples texels from (the
    views whose texels launch_grid reads; the others are only queried)."""
    units = {inst.srcs[1].index for inst in ir.instructions if inst.opcode in FETCH_OPS}
    return units | {
        inst.srcs[SAMPLE_OPS[inst.opcode][1]].index for inst in ir.instructions if inst.opcode in SAMPLE_OPS
    }


#: Filtered opcode -> executor function (machine, instruction, lane mask).
FILTER_OPS: dict[str, Callable] = dict.fromkeys(SAMPLE_OPS, _sample_op)

__all__ = ["FILTER_OPS", "SAMPLED_TARGETS", "SAMPLE_OPS", "check", "fetched_units", "sample"]
