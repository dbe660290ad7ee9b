"""IntFlag bit sets that do not depend on how the running Python iterates a flag.

Before Python 3.11, iterating an IntFlag class yields every distinct value
(the zero member, multi-bit members such as ``Map.READ_WRITE``); from 3.11
it yields the canonical single-bit members, and iterating a flag *value*
yields its bits.  ``sum(int(m) for m in Map)`` was therefore 0x7fff + 3 on
3.9 (``transfer_map: unknown PIPE_MAP bits 0x1``).  glpipe reads the bits
of a flag class through ``glpipe.enums.flag_bits`` / ``all_flag_bits``,
which use ``__members__`` (the same on every version); the expected masks
below are written from p_defines.h, not computed by the code.
"""

from __future__ import annotations

import ast
from enum import IntFlag
from pathlib import Path

import pytest

from glpipe import enums
from glpipe.enums import Bind, Clear, Flush, Map, Mask, all_flag_bits, flag_bits

ROOT = Path(__file__).resolve().parents[1]
FLAG_CLASSES = sorted(
    name
    for name, obj in vars(enums).items()
    if isinstance(obj, type) and issubclass(obj, IntFlag) and obj is not IntFlag
)


class _PreElevenIter(type(IntFlag)):
    """A flag metaclass iterating the way Python 3.9 / 3.10 do: every
    distinct value in definition order, zero and multi-bit members included."""

    def __iter__(cls):
        seen = []
        for member in cls.__members__.values():
            if member not in seen:
                seen.append(member)
        return iter(seen)


class Sample(IntFlag, metaclass=_PreElevenIter):
    NONE = 0
    A = 1 << 0
    B = 1 << 1
    AB = A | B
    D = 1 << 3
    D_ALIAS = D
    HIGH = 1 << 30


def test_old_style_iteration_is_what_broke():
    # The premise: summing the class's iteration double-counts on old Pythons.
    assert sum(int(m) for m in Sample) == 0 + 1 + 2 + 3 + 8 + (1 << 30)


def test_flag_bits_ignore_zero_alias_and_multibit_members():
    assert flag_bits(Sample) == (Sample.A, Sample.B, Sample.D, Sample.HIGH)
    assert all_flag_bits(Sample) == 1 | 2 | 8 | (1 << 30)


def test_flag_bits_of_gallium_flags_follow_p_defines():
    # PIPE_MAP_READ .. PIPE_MAP_DRV_PRV are bits 0..14; READ_WRITE, NONE and
    # the old MAP_DIRECTLY spelling are not bits of their own.
    assert [int(m) for m in flag_bits(Map)] == [1 << i for i in range(15)]
    assert all_flag_bits(Map) == 0x7FFF
    # PIPE_BIND_*: bits 0..28 except 9 (unused in Mesa).
    assert all_flag_bits(Bind) == ((1 << 29) - 1) & ~(1 << 9)
    assert len(flag_bits(Bind)) == 28
    # PIPE_CLEAR_DEPTH, _STENCIL, _COLOR0.._COLOR7; COLOR and DEPTHSTENCIL are unions.
    assert flag_bits(Clear) == (Clear.DEPTH, Clear.STENCIL) + tuple(Clear[f"COLOR{i}"] for i in range(8))
    assert all_flag_bits(Flush) == 0x7F
    assert [m.name for m in flag_bits(Mask)] == ["R", "G", "B", "A", "Z", "S"]


@pytest.mark.parametrize("name", FLAG_CLASSES)
def test_every_flag_class_bits_are_single_and_cover_all_members(name):
    cls = getattr(enums, name)
    bits = flag_bits(cls)
    assert all(int(b) > 0 and int(b) & (int(b) - 1) == 0 for b in bits)
    assert list(bits) == sorted(set(bits))
    # Every member (zero, unions and aliases included) is made of the bits.
    for member in cls.__members__.values():
        assert int(member) & ~all_flag_bits(cls) == 0, member


def test_validation_masks():
    """The masks transfer_map / resource_create / is_format_supported /
    flush / clear validate against are exactly the PIPE_* bits."""
    from glpipe import clear, fence, formats, resource, transfer

    assert transfer._ALL_MAP_BITS == 0x7FFF
    assert resource._ALL_BINDS == formats._ALL_BINDS == ((1 << 29) - 1) & ~(1 << 9)
    assert fence._ALL_FLUSH_BITS == 0x7F
    assert clear._ALL_CLEAR_BITS == 0x3FF


def _flag_iterations(tree: ast.AST, flag_names: set) -> list:
    """Places that iterate a flag class or complement a flag (both differ
    between Python versions): ``for x in Bind``, ``[.. for x in Map]``,
    ``list(Bind)`` / ``sum(Map)`` / ..., ``~Bind.X``."""
    hits = []

    def is_flag(node) -> bool:
        return isinstance(node, ast.Name) and node.id in flag_names

    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)) and is_flag(node.iter):
            hits.append((node.iter.lineno, f"iterates {node.iter.id}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.args
            and node.func.id in ("list", "tuple", "set", "sorted", "sum", "len", "iter", "frozenset")
            and is_flag(node.args[0])
        ):
            hits.append((node.lineno, f"{node.func.id}({node.args[0].id})"))
        elif (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.Invert)
            and not (
                isinstance(node.operand, ast.Call)
                and isinstance(node.operand.func, ast.Name)
                and node.operand.func.id == "int"
            )
        ):  # ~int(flags) is plain integer arithmetic
            inner = [n for n in ast.walk(node.operand) if isinstance(n, ast.Attribute) and is_flag(n.value)]
            if inner:
                hits.append((node.lineno, f"~ of {inner[0].value.id}.{inner[0].attr}"))
    return hits


def test_lint_catches_the_patterns():
    src = (
        "for b in Bind: pass\nx = sum(int(m) for m in Map)\ny = list(Clear)\n"
        "z = w & ~(Bind.RENDER_TARGET | q)\nok = [b for b in flag_bits(Bind)]\nok2 = w & ~int(Bind.CUSTOM)\n"
    )
    hits = _flag_iterations(ast.parse(src), {"Bind", "Map", "Clear"})
    assert sorted(line for line, _ in hits) == [1, 2, 3, 4]


@pytest.mark.parametrize("pkg", ["glpipe", "lowering", "fallback"])
def test_no_code_iterates_a_flag_class(pkg):
    flag_names = set(FLAG_CLASSES)
    found = []
    for path in sorted((ROOT / pkg).rglob("*.py")):
        for line, what in sorted(_flag_iterations(ast.parse(path.read_text(), str(path)), flag_names)):
            found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not found, "version-dependent IntFlag use (use enums.flag_bits / all_flag_bits, int(...)):\n" + "\n".join(
        found
    )
