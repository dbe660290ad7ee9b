"""Shader images of the numpy TGSI executor: LOAD / STORE / ATOM* / RESQ on
IMAGE[n], over numpy copies of the bound image views.

A bound view is an ``ImageBinding``: the raw texels of the view's level and
layers in the view's format (Gallium's layout, as a transfer reads them),
shaped ``(layers | depth, height, width, blocksize)`` bytes, plus a
``BufferBinding`` over the same memory as uint32 words, through which
stores and atomics record what they wrote (glpipe's launch_grid writes the
image back only when something was written, and only for writable views).

Semantics are GL's image load/store (GL 4.5 §8.26, GLSL 4.50 §8.12), which
the GLSL back end gets from the host:

* coordinates are int32 (x, y, z) in the layout of the instruction's target
  (1D: x; 1D_ARRAY: x, layer y; 2D / RECT: x, y; 2D_ARRAY / CUBE / 3D: x,
  y, layer | face | slice z; CUBEARRAY: z = 6 * layer + face; BUFFER: x);
* LOAD converts the texel from the view's format (fallback/format_pack.py:
  R -> (r, 0, 0, 1), ...) to the words the shader reads; STORE converts the
  value to the view's format; outside the image a load reads 0 and a store
  writes nothing; several lanes storing one texel: the highest lane wins;
* atomics run on 32-bit single-channel views (R32_UINT / R32_SINT, and
  R32_FLOAT for exchanges -- GL's image atomics) in ascending lane order,
  through memory.atomic; a view without WRITE access drops stores and atomics;
* RESQ: (width, height | layers, depth | layers) of the view for the
  target's components, the other components 0 and .w (samples) 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fallback.format_pack import pack_rgba
from glpipe.format_table import FORMAT_TABLE, ChannelType, Format
from lowering.errors import UnsupportedError

from .memory import BufferBinding, Space, atomic
from .texture import LAYOUTS, Layout, decode

U32 = np.uint32

#: Image coordinate layouts: the texture targets', except that a cube image
#: is addressed by face in z (GLSL's imageLoad(imageCube, ivec3)).
IMAGE_LAYOUTS = {**LAYOUTS, "CUBE": Layout((0, 1), 2, True, 2)}


def check_declaration(decl) -> None:
    """``prepare``: refuse an IMAGE / SVIEW declaration the executor has no layout for."""
    if decl.file in ("IMAGE", "SVIEW") and decl.target not in (None, *IMAGE_LAYOUTS):
        raise UnsupportedError(
            f"DCL {decl.file}[{decl.first}], {decl.target}: the numpy TGSI executor has no multisampled "
            f"textures or images (line {decl.line})"
        )


#: Formats GL's image atomics run on (GLSL 4.50 §8.12: r32i / r32ui; exchange also r32f).
ATOMIC_FORMATS = {Format.R32_UINT: "all", Format.R32_SINT: "all", Format.R32_FLOAT: "ATOMXCHG"}


@dataclass
class ImageBinding:
    """One bound image view: ``fmt`` (the view's format), ``texels``
    ((layers | depth, h, w, blocksize) uint8, the view's level and layers),
    ``writable`` (the view's access has WRITE) and ``words``: a
    BufferBinding over the same bytes recording the words written."""

    fmt: Format
    texels: np.ndarray
    writable: bool
    words: BufferBinding
    # Every texel decoded ((texels, 4) words), made at the first LOAD and
    # kept in step by STORE (atomics drop it): a LOAD is then one gather.
    decoded: np.ndarray | None = None

    @classmethod
    def of(cls, fmt: Format, texels: np.ndarray, writable: bool) -> ImageBinding:
        """Wrap ``texels`` ((d, h, w, blocksize) uint8, contiguous)."""
        texels = np.ascontiguousarray(texels)
        flat = texels.reshape(-1)
        pad = (-flat.size) % 4
        words = np.concatenate([flat, np.zeros(pad, np.uint8)]).view(U32) if pad else flat.view(U32)
        return cls(Format(fmt), texels, writable, BufferBinding(words, flat.size, writable))

    @property
    def written(self) -> bool:
        """Whether a store or atomic wrote a texel."""
        return self.words.lo < self.words.hi

    def texel_bytes(self) -> np.ndarray:
        """The texels, including what the dispatch wrote (for the write-back)."""
        raw = self.words.words.view(np.uint8)[: self.texels.size]
        return raw.reshape(self.texels.shape)


def _target_of(machine, reg, inst) -> str:
    """The instruction's image target, or the IMAGE declaration's."""
    if inst.memory_target:
        return inst.memory_target
    for d in machine.prog.ir.declarations:
        if d.file == "IMAGE" and d.first <= reg.index <= d.last:
            return d.target or "2D"
    return "2D"


def _texel_index(machine, inst, reg, src, binding: ImageBinding, mask) -> tuple[np.ndarray, np.ndarray]:
    """(texel number in the binding, lanes) of the in-range lanes of ``mask``."""
    layout = IMAGE_LAYOUTS.get(_target_of(machine, reg, inst))
    if layout is None:
        raise UnsupportedError(f"{inst.opcode}: the numpy TGSI executor has no multisampled images")
    c = machine.fetch(src, "int").view(np.int32).astype(np.int64)
    depth, h, w = binding.texels.shape[:3]
    x = c[:, 0]
    y = c[:, 1] if 1 in layout.coords else np.zeros_like(x)
    z = c[:, layout.layer] if layout.layer is not None else (c[:, 2] if 2 in layout.coords else np.zeros_like(x))
    ok = mask & (x >= 0) & (x < w) & (y >= 0) & (y < h) & (z >= 0) & (z < depth)
    lanes = np.nonzero(ok)[0]
    return (z[lanes] * h + y[lanes]) * w + x[lanes], lanes


def _from_words(fmt: Format, words: np.ndarray) -> np.ndarray:
    """A STORE's (lanes, 4) words as the values pack_rgba encodes.  A
    normalized channel is scaled and rounded as llvmpipe does it -- in
    float32 (``rint(clamp(v) * max)``, ties to even: 0.3f * 255 is 76.5f,
    stored as 76) -- and handed on as that integer over max, which pack_rgba
    rounds back to the same integer."""
    desc = FORMAT_TABLE[fmt]
    if desc.is_pure_uint:
        return words.astype(np.uint64)
    if desc.is_pure_integer:
        return words.view(np.int32).astype(np.int64)
    f32 = words.view(np.float32)
    out = f32.astype(np.float64)
    for comp, ch in enumerate(desc.swizzle):
        if ch > 3:
            continue
        c = desc.channels[ch]
        if c.type == ChannelType.UNORM:
            top = np.float32((1 << c.size) - 1)
            with np.errstate(invalid="ignore"):
                q = np.rint(np.clip(f32[:, comp], np.float32(0), np.float32(1)) * top)
            out[:, comp] = q.astype(np.float64) / float(top)
        elif c.type == ChannelType.SNORM:
            top = np.float32((1 << (c.size - 1)) - 1)
            with np.errstate(invalid="ignore"):
                q = np.rint(np.clip(f32[:, comp], np.float32(-1), np.float32(1)) * top)
            out[:, comp] = q.astype(np.float64) / float(top)
    return out


def load(machine, inst, mask) -> None:
    """LOAD dst, IMAGE[n], coords."""
    reg = inst.srcs[0]
    binding = machine.images.get(reg.index)
    out = np.zeros((machine.lanes.count, 4), U32)
    if binding is not None:
        idx, lanes = _texel_index(machine, inst, reg, inst.srcs[1], binding, mask)
        if lanes.size:
            if binding.decoded is None:
                flat = binding.texel_bytes().reshape(-1)
                binding.decoded = decode(binding.fmt, flat, flat.size // binding.texels.shape[3])
            out[lanes] = binding.decoded[idx]
    out = out[:, list(reg.swizzle)]  # tgsi.rst: the resource operand may be swizzled
    machine.write(inst.dsts[0], out, mask)


def store(machine, inst, mask) -> None:
    """STORE IMAGE[n], coords, value (the view's format converts the value)."""
    reg = inst.dsts[0]
    binding = machine.images.get(reg.index)
    if binding is None or not binding.writable:
        return
    idx, lanes = _texel_index(machine, inst, reg, inst.srcs[0], binding, mask)
    if not lanes.size:
        return
    value = machine.fetch(inst.srcs[1], "uint")[lanes]
    packed = pack_rgba(binding.fmt, _from_words(binding.fmt, value)).reshape(lanes.size, -1)
    bs = binding.texels.shape[3]
    raw = binding.words.words.view(np.uint8)
    starts = idx * bs
    for b in range(bs):
        raw[starts + b] = packed[:, b]  # numpy: the last (highest) lane wins
    if binding.decoded is not None:
        binding.decoded[idx] = decode(binding.fmt, packed.reshape(-1), lanes.size)  # the same lane wins
    binding.words.touched(np.array([starts.min() // 4, (starts.max() + bs - 1) // 4]))


def atomic_op(machine, inst, mask) -> None:
    """ATOM* dst, IMAGE[n], coords, src2[, src3]: lane order, old value to dst."""
    reg = inst.srcs[0]
    binding = machine.images.get(reg.index)
    n = machine.lanes.count
    old = np.zeros(n, U32)
    if binding is not None:
        allowed = ATOMIC_FORMATS.get(binding.fmt)
        if allowed is None or (allowed != "all" and allowed != inst.opcode):
            raise UnsupportedError(
                f"{inst.opcode} on an image of {binding.fmt.name}: image atomics run on R32_UINT / R32_SINT "
                "(exchange also R32_FLOAT), GLSL 4.50 §8.12"
            )
        idx, lanes = _texel_index(machine, inst, reg, inst.srcs[1], binding, mask)
        word = np.full(n, binding.words.words.size, U32)  # out of range: the Space drops it
        word[lanes] = idx.astype(U32)
        a = machine.fetch(inst.srcs[2], "uint")[:, 0]
        b = machine.fetch(inst.srcs[3], "uint")[:, 0] if len(inst.srcs) > 3 else None
        words = binding.words
        space = Space(words.words, 0, words.words.size, words)
        old = atomic(space, inst.opcode, word * U32(4), a, b, mask)
        binding.decoded = None  # re-decoded at the next LOAD
    machine.write(inst.dsts[0], np.repeat(old[:, None], 4, axis=1), mask)


def resq(machine, inst, mask) -> None:
    """RESQ dst, IMAGE[n]: (width, height | layers, depth | layers, samples)."""
    reg = inst.srcs[0]
    binding = machine.images.get(reg.index)
    n = machine.lanes.count
    out = np.zeros((n, 4), U32)
    target = _target_of(machine, reg, inst)
    layout = IMAGE_LAYOUTS.get(target)
    if binding is not None and layout is not None:
        depth, h, w = binding.texels.shape[:3]
        extent = (w, h, depth)
        for c in range(layout.size):
            if c == layout.layer:  # the layers (cube arrays: cubes)
                out[:, c] = depth // 6 if target == "CUBEARRAY" else depth
            else:
                out[:, c] = extent[c]
        out[:, 3] = 1  # single-sampled
    elif binding is None:
        out[:, 3] = 1
    machine.write(inst.dsts[0], out, mask)


def execute(machine, inst, mask) -> None:
    """Run a memory opcode whose resource is an IMAGE."""
    op = inst.opcode
    if op == "LOAD":
        load(machine, inst, mask)
    elif op == "STORE":
        store(machine, inst, mask)
    elif op == "RESQ":
        resq(machine, inst, mask)
    else:
        atomic_op(machine, inst, mask)


def is_image_op(inst) -> bool:
    """Whether ``inst`` is a memory opcode on an IMAGE operand."""
    reg = inst.dsts[0] if inst.opcode == "STORE" else (inst.srcs[0] if inst.srcs else None)
    return reg is not None and reg.file == "IMAGE"


__all__ = ["ATOMIC_FORMATS", "IMAGE_LAYOUTS", "ImageBinding", "check_declaration", "execute", "is_image_op"]
