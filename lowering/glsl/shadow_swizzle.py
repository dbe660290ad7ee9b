"""Comparison results through the sampler view's swizzle (``VariantKey.shadow_swizzle``):
a SHADOW* lookup yields Gallium's ``(c, c, c, 1)`` through the view's swizzle class.

docs/samplers.md "Shadow lookups" has the rule, the compare twin and TG4.
"""

from __future__ import annotations

from collections.abc import Sequence

from .exprs import Expr, construct, float_literal, var
from .indexing import declared_run

# Class entries: the comparison result, 0.0, 1.0 (PIPE_SWIZZLE_X / _0 / _1 values).
COMPARE, ZERO, ONE = 0, 4, 5
# Gallium's (c, c, c, 1): the class of the identity swizzle, and of every slot the key omits.
DEFAULT_CLASS = (COMPARE, COMPARE, COMPARE, ONE)
# PIPE_SWIZZLE_X, Y, Z, W, 0, 1 -> the class entry it gives on (c, c, c, 1).
_ENTRY = (COMPARE, COMPARE, COMPARE, ONE, ZERO, ONE)
CLASS_LETTERS = {COMPARE: "c", ZERO: "0", ONE: "1"}

# Opcodes that compare: the operand naming the view (TEX style: the SAMP operand,
# which tgsi.rst pairs with the SVIEW of the same index; SAMPLE_C: the SVIEW operand).
_LOOKUP_VIEW_OPERAND = {
    "TEX": -1,
    "TEX2": -1,
    "TXB": -1,
    "TXB2": -1,
    "TXL": -1,
    "TXL2": -1,
    "TEX_LZ": -1,
    "TXD": -1,
    "TXP": -1,
    "SAMPLE_C": 1,
    "SAMPLE_C_LZ": 1,
}


def compare_class(swizzle: Sequence[int]) -> tuple[int, int, int, int]:
    """The class of a view swizzle (four PIPE_SWIZZLE_* values): what each
    channel of Gallium's (c, c, c, 1) becomes."""
    return tuple(_ENTRY[int(s)] for s in swizzle)


def compare_uses(shader) -> tuple[frozenset[int], frozenset[int]]:
    """(SVIEW indices read by comparing lookups, SVIEW indices read by TG4
    with a compare) of a shader (``lowering.ir.Shader``).  An indexed
    operand (``SAMP[ADDR[0].x]``, indexing.py) may read every element of its
    declared range.  The context works this out once per shader CSO."""
    lookups: set[int] = set()
    gathers: set[int] = set()
    decls = None
    for inst in shader.instructions:
        operand = _LOOKUP_VIEW_OPERAND.get(inst.opcode)
        if operand is not None and (inst.opcode.startswith("SAMPLE_C") or (inst.texture or "").startswith("SHADOW")):
            found = lookups
        elif inst.opcode == "TG4" and (inst.texture or "").startswith("SHADOW"):
            found, operand = gathers, -1
        else:
            continue
        reg = inst.srcs[operand]
        if reg.indirect is None:
            found.add(reg.index)
            continue
        if decls is None:
            from .decls import Decls

            decls = Decls(shader)
        run = declared_run(decls, reg.file, reg.index)
        found.update(range(run[0], run[1] + 1) if run is not None else (reg.index,))
    return frozenset(lookups), frozenset(gathers)


def view_of(inst) -> int:
    """The SVIEW index a comparing lookup ``inst`` reads."""
    return inst.srcs[_LOOKUP_VIEW_OPERAND[inst.opcode]].index


def class_of(key, view: int) -> tuple[int, int, int, int]:
    """The class ``key`` gives SVIEW ``view`` (DEFAULT_CLASS when it names none)."""
    for index, cls in key.shadow_swizzle:
        if index == view:
            return cls
    return DEFAULT_CLASS


def compare_result(em, inst, value: Expr, channels: Sequence[int]) -> Expr:
    """The comparison ``value`` (a float) as the result channels ``channels``
    (indices into the view-swizzled vector, one per written component).

    Returns ``value`` itself when every channel reads c (then the emitter
    replicates it); otherwise the vector, the lookup evaluated once into a
    local when more than one channel reads it."""
    cls = class_of(em.key, view_of(inst))
    entries = [cls[c] for c in channels]
    if all(e == COMPARE for e in entries):
        return value
    if sum(e == COMPARE for e in entries) > 1:
        name = em.tmp("compare")
        em.line(f"float {name} = {value.text};   // (c, c, c, 1) through the view swizzle")
        value = var(name, "float", 1)
    parts = [value if e == COMPARE else float_literal(0.0 if e == ZERO else 1.0) for e in entries]
    return construct(parts, "float")


def parse_entry(text: str) -> tuple[int, tuple[int, int, int, int]]:
    """``view:cccc`` (letters c, 0, 1) -> (view, class), for VariantKey.parse."""
    view, _, letters = text.partition(":")
    by_letter = {v: k for k, v in CLASS_LETTERS.items()}
    if len(letters) != 4 or any(ch not in by_letter for ch in letters):
        raise ValueError(f"shadow_swizzle entry {text!r} is not view:xxxx with x one of c, 0, 1")
    return int(view, 0), tuple(by_letter[ch] for ch in letters)


__all__ = [
    "COMPARE",
    "ZERO",
    "ONE",
    "DEFAULT_CLASS",
    "compare_class",
    "compare_uses",
    "compare_result",
    "class_of",
    "view_of",
    "parse_entry",
]
