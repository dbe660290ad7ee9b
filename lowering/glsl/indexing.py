"""Resources indexed by an address register: ``SAMP / SVIEW / BUFFER / IMAGE[ADDR[a].c + k]``,
lowered as a GLSL array or as a switch over the declared range.

docs/lowering.md "Indexed samplers, views, buffers and images" has the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..errors import UnsupportedError
from ..ir import Indirect, Instruction

RESOURCE_FILES = ("SAMP", "SVIEW", "BUFFER", "IMAGE")
_STATE_KEY = "resource_index"  # em.pass_state entry while an array lookup is emitted


def _tables(decls, file: str):
    """(the declarations of ``file`` by index, a function giving the key elements of one
    GLSL array must share) -- SVIEW target and return types, IMAGE target and format."""

    def sview_key(k):
        d = decls.sviews.get(k)
        return None if d is None else (d.target, d.return_types)

    def image_key(k):
        d = decls.images[k]
        return d.target, d.image_format

    return {
        "SAMP": (decls.samplers, sview_key),
        "SVIEW": (decls.sviews, sview_key),
        "BUFFER": (decls.buffers, lambda k: None),
        "IMAGE": (decls.images, image_key),
    }[file]


def declared_run(decls, file: str, index: int) -> tuple[int, int] | None:
    """(first, last) of the declared range of ``file`` holding ``index``, or None.

    A range declaration (``DCL SAMP[0..3]``) is its own range.  Mesa declares
    the elements of a GLSL array one by one (``DCL SAMP[0]``, ``DCL SAMP[1]``,
    ...), so a single-register declaration extends over its neighbours that
    are single-register declarations too and of the same kind (SVIEW target
    and return type, IMAGE target and format)."""
    table, key = _tables(decls, file)
    decl = table.get(index)
    if decl is None:
        return None
    if decl.count > 1:
        return decl.first, decl.last
    kind = key(index)

    def joins(k):
        return k in table and table[k].count == 1 and key(k) == kind

    first = last = index
    while joins(first - 1):
        first -= 1
    while joins(last + 1):
        last += 1
    return first, last


def touches(decls, reg, file: str, index: int) -> bool:
    """True when operand ``reg`` may name ``file[index]`` (directly, or as an element
    of the range an indexed operand selects from)."""
    if reg.file != file:
        return False
    if reg.indirect is None:
        return reg.index == index
    run = declared_run(decls, file, reg.index)
    return run is not None and run[0] <= index <= run[1]


@dataclass(frozen=True)
class Operand:
    """One indexed resource operand: ``role`` 'src' / 'dst', its position, file and constant part."""

    role: str
    pos: int
    file: str
    base: int


@dataclass(frozen=True)
class Indexing:
    """The indexed resource operands of one instruction; all share ``indirect``.

    Element ``k`` (the address value) names ``file[base + k]`` for every
    operand; ``kmin..kmax`` is where every operand stays in its declared run."""

    indirect: Indirect
    operands: tuple[Operand, ...]
    kmin: int
    kmax: int
    # TEX-style: the SAMP operand names the sampler view as well (no SVIEW operand).
    paired_view: bool = False

    @property
    def count(self) -> int:
        """Number of elements."""
        return self.kmax - self.kmin + 1

    def files(self) -> tuple[str, ...]:
        """The indexed register files."""
        return tuple(o.file for o in self.operands)

    def element(self, inst: Instruction, k: int) -> Instruction:
        """``inst`` with every indexed operand made direct at element ``k``."""
        srcs, dsts = list(inst.srcs), list(inst.dsts)
        for o in self.operands:
            regs = srcs if o.role == "src" else dsts
            regs[o.pos] = replace(regs[o.pos], index=o.base + k, indirect=None)
        return replace(inst, srcs=tuple(srcs), dsts=tuple(dsts))

    def indices(self, file: str) -> tuple[int, ...]:
        """The ``file`` indices of the elements, in element order (empty if not indexed).
        For a TEX-style instruction the SVIEW indices are the SAMP ones."""
        if file == "SVIEW" and self.paired_view:
            file = "SAMP"
        for o in self.operands:
            if o.file == file:
                return tuple(o.base + k for k in range(self.kmin, self.kmax + 1))
        return ()


@dataclass(frozen=True)
class ActiveArray:
    """What the declaring helpers see while an array lookup is emitted: the
    instruction's ``indexing`` and ``index``, the GLSL int expression of the
    element (0..count-1)."""

    indexing: Indexing
    index: str

    @property
    def count(self) -> int:
        """Number of elements."""
        return self.indexing.count


def analyse(em, inst: Instruction) -> Indexing | None:
    """The indexed resource operands of ``inst``, or None when it has none."""
    found = []
    for role, regs in (("src", inst.srcs), ("dst", inst.dsts[:1])):
        for pos, reg in enumerate(regs):
            if reg.file in RESOURCE_FILES and reg.indirect is not None:
                found.append((role, pos, reg))
    if not found:
        return None
    indirect = found[0][2].indirect
    kmin, kmax = None, None
    operands = []
    for role, pos, reg in found:
        ind = reg.indirect
        if (ind.file, ind.index, ind.component) != (indirect.file, indirect.index, indirect.component):
            raise UnsupportedError(
                f"{inst.opcode}: {found[0][2].file} and {reg.file} indexed by different "
                f"address registers (GLSL has no sampler per view and sampler pair)"
            )
        run = declared_run(em.decls, reg.file, reg.index)
        if run is None:  # the validator refuses this; keep a clear message anyway
            raise UnsupportedError(f"{inst.opcode}: {reg.file}[{reg.index}] is not declared")
        lo, hi = run[0] - reg.index, run[1] - reg.index
        kmin = lo if kmin is None else max(kmin, lo)
        kmax = hi if kmax is None else min(kmax, hi)
        operands.append(Operand(role, pos, reg.file, reg.index))
    paired = not any(r.file == "SVIEW" for r in inst.srcs)
    return Indexing(indirect, tuple(operands), kmin, kmax, paired)


def active(em) -> ActiveArray | None:
    """The array lookup being emitted (see the module docstring), or None."""
    return em.pass_state.get(_STATE_KEY)


def _address(em, i: int, ix: Indexing, offset: int):
    """The address value plus ``offset`` as a GLSL int expression."""
    o = ix.operands[0]
    kind = "si" if o.role == "src" else "di"
    return em.index_expr(i, kind, o.pos, ix.indirect, offset)


def _operand_text(inst: Instruction, o: Operand) -> str:
    from ..dump import dump_dst, dump_src

    return dump_src(inst.srcs[o.pos]) if o.role == "src" else dump_dst(inst.dsts[o.pos])


def indexed(handler: Callable, array_ok: Callable) -> Callable:
    """Wrap a texture / memory handler so that indexed resource operands are lowered
    (see the module docstring).  ``array_ok(em, inst, indexing)`` says whether the
    elements can share one GLSL array declaration."""

    def run(em, i, inst):
        ix = analyse(em, inst)
        if ix is None:
            handler(em, i, inst)
            return
        what = f"{inst.opcode} {', '.join(_operand_text(inst, o) for o in ix.operands)}"
        if em.req.has("dynamic_resource_index") and array_ok(em, inst, ix):
            em.req.need("dynamic_resource_index", what)
            k = _address(em, i, ix, -ix.kmin)
            index = "0" if ix.count == 1 else f"clamp({k.text}, 0, {ix.count - 1})"
            em.pass_state[_STATE_KEY] = ActiveArray(ix, index)
            try:
                handler(em, i, ix.element(inst, ix.kmin))
            finally:
                del em.pass_state[_STATE_KEY]
            return
        k = _address(em, i, ix, 0)
        em.line(f"switch ({k.text}) {{   // {what}: one case per declared element")
        for value in range(ix.kmin, ix.kmax + 1):
            label = "default" if value == ix.kmax else f"case {value}"
            em.line(f"{label}: {{")
            em.indent += 1
            handler(em, i, ix.element(inst, value))
            em.indent -= 1
            em.line("} break;")
        em.line("}")

    run.__doc__ = handler.__doc__
    return run


def wrap_table(table: dict, array_ok: Callable, opcodes=None) -> dict:
    """``table`` with the handlers of ``opcodes`` (default: all) wrapped by ``indexed``."""
    return {name: (indexed(h, array_ok) if opcodes is None or name in opcodes else h) for name, h in table.items()}


__all__ = [
    "RESOURCE_FILES",
    "Indexing",
    "Operand",
    "ActiveArray",
    "analyse",
    "active",
    "indexed",
    "wrap_table",
    "declared_run",
    "touches",
]
