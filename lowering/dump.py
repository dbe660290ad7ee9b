"""``Shader`` -> canonical TGSI text that ``parse`` reads back to an equal IR.

The layout follows Mesa's ``tgsi_dump``: header, ``PROPERTY`` lines, ``DCL``
lines, ``IMM[n]`` lines, then numbered, nesting-indented instructions
(``  3:   MOV TEMP[0], IN[0]``).  Differences, chosen so the round trip is
exact:

* FLT32 immediates are printed as the shortest decimal that converts back to
  the same 32-bit pattern (``1.0``, ``0.1``, ``-0.0``); NaN and infinities
  (and anything that would not convert back exactly) as ``0x`` raw bits.
  FLT64 likewise with 64-bit patterns.
* Per-vertex GS/TES/TCS I/O is printed 1D (``DCL IN[0], POSITION``): the IR
  drops the vertex bracket, as Mesa's parser does.
* Sampler-view return types are printed once when all four are equal.
"""

from __future__ import annotations

import math
import struct

from .ir import (
    IDENTITY_SWIZZLE,
    WRITEMASK_XYZW,
    Declaration,
    DstRegister,
    Immediate,
    Indirect,
    Instruction,
    Shader,
    SrcRegister,
    TexOffset,
    swizzle_text,
    writemask_text,
)
from .opcodes import OPCODES

# Semantics whose index Mesa prints even when it is 0.
_ALWAYS_INDEXED = frozenset({"GENERIC", "TEXCOORD", "PATCH"})


def dump(shader: Shader) -> str:
    """Canonical TGSI text of ``shader`` (ends with a newline)."""
    lines: list[str] = [shader.processor]
    for prop in shader.properties:
        lines.append(f"PROPERTY {prop.name} {prop.value}")
    for decl in shader.declarations:
        lines.append(dump_declaration(decl))
    for i, imm in enumerate(shader.immediates):
        lines.append(f"IMM[{i}] {imm.type} {{{', '.join(_immediate_values(imm))}}}")
    depth = 0
    for i, inst in enumerate(shader.instructions):
        info = OPCODES.get(inst.opcode)
        role = info.block_role if info else None
        if role in ("close", "middle"):
            depth = max(depth - 1, 0)
        lines.append(f"{i:3d}: " + "  " * depth + dump_instruction(inst))
        if role in ("open", "middle"):
            depth += 1
    return "\n".join(lines) + "\n"


# -- declarations ------------------------------------------------------------------


def dump_declaration(decl: Declaration) -> str:
    """One ``DCL`` line."""
    rng = str(decl.first) if decl.first == decl.last else f"{decl.first}..{decl.last}"
    text = f"DCL {decl.file}"
    if decl.dimension is not None:
        text += f"[{decl.dimension}]"
    text += f"[{rng}]"
    if decl.usage_mask != WRITEMASK_XYZW:
        text += "." + writemask_text(decl.usage_mask)
    parts: list[str] = []
    if decl.array_id:
        parts.append(f"ARRAY({decl.array_id})")
    if decl.file == "IMAGE":
        if decl.target:
            parts.append(decl.target)
        if decl.raw:
            parts.append("RAW")
        if decl.writable:
            parts.append("WR")
        if decl.image_format:
            parts.append(decl.image_format)
    elif decl.file == "SVIEW":
        if decl.target:
            parts.append(decl.target)
            types = decl.return_types or ("FLOAT",) * 4
            parts.extend(types[:1] if len(set(types)) == 1 else types)
    elif decl.file == "BUFFER":
        if decl.atomic:
            parts.append("ATOMIC")
    elif decl.file == "MEMORY":
        if decl.memory_type and decl.memory_type != "GLOBAL":
            parts.append(decl.memory_type)
    else:
        if decl.local:
            parts.append("LOCAL")
        if decl.semantic:
            if decl.semantic_index or decl.semantic in _ALWAYS_INDEXED:
                parts.append(f"{decl.semantic}[{decl.semantic_index}]")
            else:
                parts.append(decl.semantic)
    if any(decl.stream):
        parts.append("STREAM({}, {}, {}, {})".format(*decl.stream))
    if decl.interpolate:
        parts.append(decl.interpolate)
    if decl.location and decl.location != "CENTER":
        parts.append(decl.location)
    if decl.invariant:
        parts.append("INVARIANT")
    if parts:
        text += ", " + ", ".join(parts)
    return text


# -- immediates --------------------------------------------------------------------


# The largest finite binary32 value: a shorter decimal may round above it.
_FLT_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]


def _shortest_f32(bits: int) -> str:
    value = struct.unpack("<f", struct.pack("<I", bits))[0]
    if not math.isfinite(value):
        return f"0x{bits:08x}"
    for precision in range(1, 10):
        text = f"{value:.{precision}g}"
        if abs(float(text)) > _FLT_MAX:
            continue  # rounded past FLT_MAX (e.g. 3e+38 for 3.4028235e38): not this precision
        back = struct.unpack("<I", struct.pack("<f", float(text)))[0]
        if back == bits:
            if "." not in text and "e" not in text and "n" not in text:
                text += ".0"
            return text
    return f"0x{bits:08x}"


def _shortest_f64(bits: int) -> str:
    value = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if not math.isfinite(value):
        return f"0x{bits:016x}"
    text = repr(value)
    if struct.unpack("<Q", struct.pack("<d", float(text)))[0] != bits:
        return f"0x{bits:016x}"
    return text


def _immediate_values(imm: Immediate) -> list[str]:
    w = imm.words
    if imm.type == "FLT32":
        return [_shortest_f32(x) for x in w]
    if imm.type == "UINT32":
        return [str(x) for x in w]
    if imm.type == "INT32":
        return [str(x - (1 << 32) if x & 0x80000000 else x) for x in w]
    pairs = [w[0] | (w[1] << 32), w[2] | (w[3] << 32)]
    if imm.type == "FLT64":
        return [_shortest_f64(x) for x in pairs]
    if imm.type == "UINT64":
        return [str(x) for x in pairs]
    return [str(x - (1 << 64) if x >> 63 else x) for x in pairs]


# -- instructions -------------------------------------------------------------------


def _indirect(ind: Indirect, offset: int) -> str:
    text = f"{ind.file}[{ind.index}].{'xyzw'[ind.component]}"
    if offset > 0:
        text += f"+{offset}"
    elif offset < 0:
        text += f"-{-offset}"
    return text


def _bracket(index: int, ind: Indirect | None, array_id: int = 0) -> str:
    if ind is None:
        text = f"[{index}]"
        return text + (f"({array_id})" if array_id else "")
    text = f"[{_indirect(ind, index)}]"
    return text + (f"({ind.array_id})" if ind.array_id else "")


def _register(op) -> str:
    text = op.file
    if op.dimension is not None:
        text += _bracket(op.dimension, op.dim_indirect)
    return text + _bracket(op.index, op.indirect, op.array_id)


def dump_src(src: SrcRegister) -> str:
    """One source operand, modifiers included."""
    text = _register(src)
    if src.swizzle != IDENTITY_SWIZZLE:
        text += "." + swizzle_text(src.swizzle)
    if src.absolute:
        text = f"|{text}|"
    if src.negate:
        text = "-" + text
    return text


def dump_dst(dst: DstRegister) -> str:
    """One destination operand with its writemask."""
    text = _register(dst)
    if dst.writemask != WRITEMASK_XYZW:
        text += "." + writemask_text(dst.writemask)
    return text


def _tex_offset(off: TexOffset) -> str:
    text = f"{off.file}[{off.index}]"
    if off.swizzle != (0, 1, 2):
        text += "." + swizzle_text(off.swizzle)
    return text


def dump_instruction(inst: Instruction) -> str:
    """One instruction without the ``N:`` prefix."""
    text = inst.opcode + ("_SAT" if inst.saturate else "") + ("_PRECISE" if inst.precise else "")
    operands = [dump_dst(d) for d in inst.dsts] + [dump_src(s) for s in inst.srcs]
    if inst.texture:
        operands.append(inst.texture)
    operands.extend(_tex_offset(o) for o in inst.tex_offsets)
    operands.extend(inst.memory_qualifiers)
    if inst.memory_target:
        operands.append(inst.memory_target)
    if inst.memory_format:
        operands.append(inst.memory_format)
    if operands:
        text += " " + ", ".join(operands)
    if inst.label is not None:
        text += f" :{inst.label}"
    return text


__all__ = ["dump", "dump_declaration", "dump_instruction", "dump_src", "dump_dst"]
