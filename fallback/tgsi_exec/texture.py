"""Texture opcodes of the numpy TGSI executor: texel fetches and size queries
on numpy copies of the bound sampler views.

A bound view is a ``TextureBinding``: per level of the view (its
``first_level`` is level 0, as GLSL sees a view), the texels as
``(layers | depth, height, width, 4)`` uint32 words -- the values a shader
reads, decoded from the view's format by fallback/format_pack.py (the
Gallium result per format: R -> (r, 0, 0, 1), ...; sRGB decoded) and put
through the view's swizzle -- and the level's size.  glpipe's launch_grid
reads them from the host before the dispatch (glpipe/compute.py), only for
the views the program fetches from or samples; views that are only queried
carry their sizes alone.

Opcodes (tgsi.rst, and the GLSL the lowering emits for them, so that both
back ends agree):

* TXF / TXF_LZ (texelFetch): ``src0`` = (x, y | layer, z | layer, lod) as
  int32, the unit ``src1`` (SAMP), the coordinate layout of the
  instruction's target; immediate texel offsets are added to x / y / z.
  SAMPLE_I: the same on SVIEW ``src1`` (the declared target), its operand
  swizzle applied to the result.
* TXQ / SVIEWINFO: (width, height | layers, depth | layers, levels) of level
  ``src0.x`` (TXQ_LZ: level 0); components the target has no size for read
  0, the level count is 1 for targets without mipmaps.

A fetch outside the level (or outside the view's levels) reads a zero
texel expanded like any other (R8G8B8A8: (0, 0, 0, 0); R32_UINT: (0, 0, 0,
1)), through the view's swizzle.  tgsi.rst says "0" for SAMPLE_I; GLSL
leaves texelFetch outside the texture undefined; llvmpipe returns exactly
this, which the executor matches (tests/context/test_compute_textures.py
compares the two byte for byte).  Filtered lookups (TEX / TXL / SAMPLE /
SAMPLE_L) are sampling.py's, on the same bindings (docs/compute.md
"Textures in the executor").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fallback.format_pack import unpack_rgba
from glpipe.format_table import FORMAT_TABLE, ChannelType
from lowering.errors import InvalidArgumentError, UnsupportedError

U32 = np.uint32


@dataclass(frozen=True)
class Layout:
    """How a TGSI target addresses texels: the coordinate components
    (x, y, z) that are texel coordinates, the one that is a layer (or
    None), whether it has mipmaps, and how many size components TXQ gives."""

    coords: tuple[int, ...]
    layer: int | None
    mips: bool
    size: int
    fetch: bool = True


#: TGSI target -> its Layout (tgsi.rst, GLSL's texelFetch / textureSize per sampler type).
LAYOUTS = {
    "1D": Layout((0,), None, True, 1),
    "2D": Layout((0, 1), None, True, 2),
    "3D": Layout((0, 1, 2), None, True, 3),
    "RECT": Layout((0, 1), None, False, 2),
    "1D_ARRAY": Layout((0,), 1, True, 2),
    "2D_ARRAY": Layout((0, 1), 2, True, 3),
    "BUFFER": Layout((0,), None, False, 1),
    # GLSL has no texelFetch on cube samplers (the lowering refuses it too): size queries only.
    "CUBE": Layout((0, 1), None, True, 2, fetch=False),
    "CUBEARRAY": Layout((0, 1), 2, True, 3, fetch=False),
}
for _name in ("1D", "2D", "RECT", "1D_ARRAY", "2D_ARRAY", "CUBE", "CUBEARRAY"):
    LAYOUTS["SHADOW" + _name] = LAYOUTS[_name]


@dataclass
class TextureBinding:
    """One bound sampler view as the executor sees it.

    ``levels[k]``: the words of view level k, ``(layers | depth, h, w, 4)``
    uint32 (None for a view that is only queried); ``sizes[k]``: that
    level's (width, height, depth | layers); ``layers``: the view's layer
    count (cube faces included) -- 1 for non-array targets; ``outside``:
    what a fetch outside the view reads -- llvmpipe fetches a zero texel
    and expands it like any other (R32_UINT: (0, 0, 0, 1)), so launch_grid
    sets the decoded zero texel through the view's swizzle."""

    levels: list
    sizes: list
    layers: int
    outside: np.ndarray | None = None  # (4,) words a fetch outside the view reads (default zeros)
    fmt: Any = None  # the view's format (sampling.py: the border colour; None: a float format)
    swizzle: tuple = (0, 1, 2, 3)  # the view's swizzle (PIPE_SWIZZLE_*)

    @property
    def integer(self) -> bool:
        """A pure integer format: filtered lookups take the nearest texel."""
        return self.fmt is not None and FORMAT_TABLE[self.fmt].is_pure_integer

    def border_words(self, color) -> np.ndarray:
        """A sampler's border colour as the (4,) words a texel of this view
        reads: the components the format has (the others 0, alpha 1), then
        the view's swizzle; floats for float / normalized formats, integer
        bits for pure integer ones."""
        desc = FORMAT_TABLE[self.fmt] if self.fmt is not None else None
        vals = [float(v) for v in color]
        words = np.zeros(6, U32)
        for c in range(4):
            present = desc is None or desc.swizzle[c] <= 3
            v = vals[c] if present else (1.0 if c == 3 else 0.0)
            words[c] = (np.int64(v) & 0xFFFFFFFF) if self.integer else np.float32(v).view(U32)
        words[5] = U32(1) if self.integer else np.float32(1.0).view(U32)
        return words[[min(int(k), 5) for k in self.swizzle]]


def decode(fmt, raw: np.ndarray, count: int, swizzle=(0, 1, 2, 3)) -> np.ndarray:
    """``count`` texels of ``fmt`` (raw bytes) as the (count, 4) words a
    shader reads: format_pack's Gallium values (sRGB decoded, as GL reads an
    sRGB texture), normalized channels converted as llvmpipe converts them
    (``float(raw) * (1 / max)`` in float32, SNORM then clamped to -1:
    byte-exact with the host, where the correctly rounded quotient differs in
    the last bit for about half the values), then ``swizzle``
    (PIPE_SWIZZLE_X..W, 0, 1).  Depth / stencil formats read (d | s, 0, 0, 1)."""
    desc = FORMAT_TABLE[fmt]
    values = unpack_rgba(fmt, raw, count, decode_srgb=True)
    if values.dtype == np.float64:
        words = values.astype(np.float32)
        for comp, ch in enumerate(desc.swizzle):
            if ch > 3 or (desc.is_srgb and comp < 3):
                continue
            c = desc.channels[ch]
            if c.type == ChannelType.UNORM:
                scale = np.float32(1.0 / ((1 << c.size) - 1))
                words[:, comp] = np.rint(values[:, comp] * ((1 << c.size) - 1)).astype(np.float32) * scale
            elif c.type == ChannelType.SNORM:
                scale = np.float32(1.0 / ((1 << (c.size - 1)) - 1))
                raw_i = np.rint(values[:, comp] * ((1 << (c.size - 1)) - 1)).astype(np.float32)
                words[:, comp] = np.maximum(raw_i * scale, np.float32(-1.0))
        out = words.view(U32)
        one = np.float32(1.0).view(U32)
    else:
        out = (values.astype(np.int64) & 0xFFFFFFFF).astype(U32)
        one = U32(1)
    if desc.colorspace == "zs":
        # A depth (or stencil) view reads (d, 0, 0, 1), GL's DEPTH_COMPONENT /
        # STENCIL_INDEX texel (GL 4.5 table 15.1), as llvmpipe returns it.
        out = np.ascontiguousarray(out)
        out[:, 1:3] = 0
        out[:, 3] = one
    if tuple(swizzle) == (0, 1, 2, 3):
        return out
    table = np.concatenate([out, np.zeros((out.shape[0], 1), U32), np.full((out.shape[0], 1), one, U32)], axis=1)
    return np.ascontiguousarray(table[:, [min(int(s), 5) for s in swizzle]])


def _target(inst, machine) -> str:
    """The TGSI target of a texture instruction: its own (TEX style) or the
    declared target of its SVIEW operand (SAMPLE style)."""
    if inst.opcode in ("SAMPLE_I", "SVIEWINFO"):
        return sview_targets(machine.prog.ir).get(inst.srcs[1].index, "")
    return inst.texture or ""


def sview_targets(ir) -> dict[int, str]:
    """SVIEW index -> its declared TGSI target."""
    return {k: d.target for d in ir.declarations if d.file == "SVIEW" for k in range(d.first, d.last + 1)}


def check(inst, ir) -> None:
    """``prepare``: refuse at create what the texture functions cannot run."""
    op = inst.opcode
    target = sview_targets(ir).get(inst.srcs[1].index) if op in ("SAMPLE_I", "SVIEWINFO") else inst.texture
    if op in ("SAMPLE_I", "SVIEWINFO") and target is None:
        raise InvalidArgumentError(f"{op}: SVIEW[{inst.srcs[1].index}] is not declared (line {inst.line})")
    layout = LAYOUTS.get(target or "")
    if layout is None:
        raise UnsupportedError(
            f"{op} on target {target}: the numpy TGSI executor has no multisampled textures (line {inst.line})"
        )
    if op in FETCH_OPS and not layout.fetch:
        raise InvalidArgumentError(f"{op} cannot fetch from target {target} (GLSL has no texelFetch on cubes)")
    for off in inst.tex_offsets:
        if off.file != "IMM":
            raise UnsupportedError(f"{op}: texel offsets from {off.file} (the executor takes immediates)")


def _offsets(machine, inst) -> np.ndarray:
    """The immediate texel offset (x, y, z) of ``inst`` as int32 (zeros without one)."""
    out = np.zeros(3, np.int64)
    if inst.tex_offsets:
        off = inst.tex_offsets[0]
        words = machine.prog.imm[off.index].view(np.int32)
        out[:] = [words[s] for s in off.swizzle]
    return out


def fetch_texels(tex: TextureBinding | None, layout: Layout, coords: np.ndarray, lod: np.ndarray, mask) -> np.ndarray:
    """texelFetch for every lane of ``mask``: ``coords`` (lanes, 4) int64,
    ``lod`` (lanes,) int64; (lanes, 4) words, zero out of range."""
    out = np.zeros((coords.shape[0], 4), U32)
    if tex is None:
        return out  # an unbound slot reads zeros (as the host's null texture)
    if tex.outside is not None:
        out[:] = tex.outside
    for k, words in enumerate(tex.levels):
        if words is None:
            continue
        depth, h, w = words.shape[:3]
        x = coords[:, 0]
        y = coords[:, 1] if 1 in layout.coords else np.zeros_like(x)
        z = coords[:, 2] if 2 in layout.coords else np.zeros_like(x)
        d = coords[:, layout.layer] if layout.layer is not None else z
        ok = mask & (lod == k) & (x >= 0) & (x < w) & (y >= 0) & (y < h) & (d >= 0) & (d < depth)
        lanes = np.nonzero(ok)[0]
        if lanes.size:
            out[lanes] = words[d[lanes], y[lanes], x[lanes]]
    return out


def _txf(machine, inst, mask) -> None:
    op = inst.opcode
    layout = LAYOUTS[_target(inst, machine)]
    coords = machine.fetch(inst.srcs[0], "int").view(np.int32).astype(np.int64)
    lod = np.zeros(coords.shape[0], np.int64) if op == "TXF_LZ" or not layout.mips else coords[:, 3]
    coords = coords.copy()
    off = _offsets(machine, inst)
    for c in layout.coords:
        coords[:, c] += off[c]
    value = fetch_texels(machine.textures.get(inst.srcs[1].index), layout, coords, lod, mask)
    if op == "SAMPLE_I":
        value = value[:, list(inst.srcs[1].swizzle)]  # tgsi.rst: the SVIEW operand swizzles the result
    machine.write(inst.dsts[0], value, mask)


def size_query(tex: TextureBinding | None, layout: Layout, target: str, lod: np.ndarray) -> np.ndarray:
    """(width, height | layers, depth | layers, levels) of level ``lod`` per
    lane as (lanes, 4) words (textureSize / textureQueryLevels)."""
    n = lod.shape[0]
    out = np.zeros((n, 4), U32)
    if tex is None:
        return out
    base = tex.sizes[0] if tex.sizes else (0, 0, 0)
    shift = np.clip(lod, 0, 31)
    dims = []
    for c in range(3):
        if c == layout.layer:
            layers = tex.layers // 6 if target.endswith("CUBEARRAY") else tex.layers
            dims.append(np.full(n, layers, np.int64))
        elif c in layout.coords:
            dims.append(np.maximum(np.int64(base[c]) >> shift, 1))
        else:
            dims.append(np.zeros(n, np.int64))
    for c in range(min(layout.size, 3)):
        out[:, c] = dims[c].astype(U32)
    out[:, 3] = len(tex.sizes) if layout.mips else 1
    return out


def _txq(machine, inst, mask) -> None:
    target = _target(inst, machine)
    layout = LAYOUTS[target]
    n = machine.lanes.count
    lod = (
        np.zeros(n, np.int64)
        if inst.opcode == "TXQ_LZ"
        else machine.fetch(inst.srcs[0], "int")[:, 0].view(np.int32).astype(np.int64)
    )
    if not layout.mips:
        lod = np.zeros(n, np.int64)  # RECT / BUFFER: textureSize without a level
    machine.write(inst.dsts[0], size_query(machine.textures.get(inst.srcs[1].index), layout, target, lod), mask)


#: Texel fetches (their views' texels are read before the dispatch).
FETCH_OPS = frozenset({"TXF", "TXF_LZ", "SAMPLE_I"})

#: Texture opcode -> executor function (machine, instruction, lane mask).
TEXTURE_OPS: dict[str, Callable] = {
    "TXF": _txf,
    "TXF_LZ": _txf,
    "SAMPLE_I": _txf,
    "TXQ": _txq,
    "TXQ_LZ": _txq,
    "SVIEWINFO": _txq,
}


__all__ = [
    "FETCH_OPS",
    "LAYOUTS",
    "TEXTURE_OPS",
    "Layout",
    "TextureBinding",
    "check",
    "decode",
    "size_query",
]
