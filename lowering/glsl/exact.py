"""``_PRECISE`` on hosts without GLSL 4.00's ``precise`` (the gl33 profile),
and the round-to-odd addition the exactly fused FMA / DFMA share (``ADD_ODD``).

Which instructions are exact is computed as Mesa does at GLSL 400
(``exact_instructions``); their float register operands and results pass
through an opaque identity (``barrier``) no optimiser can see through.
docs/lowering.md ("_PRECISE without precise") has the rules and measurements.
"""

from __future__ import annotations

from collections.abc import Hashable

from .exprs import PREC, Expr, bitcast, call, op
from .types import array_id_of

UNIFORM = "glp_exact_zero"
_DECL = f"uniform uvec4 {UNIFORM};  // always 0 (never set): opaque identities for _PRECISE without 'precise'"


def emulated(em) -> bool:
    """True when this shader needs the emulation: it has a _PRECISE instruction
    and the host has no ``precise`` qualifier.  The exact set is computed once
    per emitter (the register plan is final before any instruction is emitted)."""
    cached = getattr(em, "_glp_exact_set", None)
    if cached is None:
        cached = frozenset() if em.req.has("precise") else exact_instructions(em)
        em._glp_exact_set = cached
    return bool(cached)


def is_exact(em, i: int) -> bool:
    """True when instruction ``i`` must be computed exactly without ``precise``."""
    return emulated(em) and i in em._glp_exact_set


def _operand_var(em, i: int, kind: str, n: int, reg) -> Hashable | None:
    """The GLSL variable an operand names (None for IN, CONST, IMM, SV: never assigned)."""
    if reg.file == "TEMP":
        aid = array_id_of(em.plan, em.decls, reg)
        if aid is not None:
            return ("array", aid)
        var = em.plan.operand_vars.get((i, kind, n))
        return ("web", id(var)) if var is not None else ("temp", reg.index)
    if reg.file in ("OUT", "ADDR"):
        return (reg.file, reg.index)
    return None


def _indirect_var(em, i: int, kind: str, n: int, ind) -> Hashable | None:
    if ind is None:
        return None
    if ind.file == "TEMP":
        var = em.plan.operand_vars.get((i, kind, n))
        return ("web", id(var)) if var is not None else ("temp", ind.index)
    if ind.file in ("OUT", "ADDR"):
        return (ind.file, ind.index)
    return None


def _accesses(em, i: int):
    """(variables instruction ``i`` writes, variables it reads)."""
    inst = em.insts[i]
    writes: set[Hashable] = set()
    reads: set[Hashable] = set()
    for d, dst in enumerate(inst.dsts):
        writes.add(_operand_var(em, i, "d", d, dst))
        reads.add(_indirect_var(em, i, "di", d, dst.indirect))
        reads.add(_indirect_var(em, i, "dd", d, dst.dim_indirect))
    for s, src in enumerate(inst.srcs):
        reads.add(_operand_var(em, i, "s", s, src))
        reads.add(_indirect_var(em, i, "si", s, src.indirect))
        reads.add(_indirect_var(em, i, "sd", s, src.dim_indirect))
    writes.discard(None)
    reads.discard(None)
    return writes, reads


def exact_instructions(em) -> frozenset[int]:
    """Indices of the instructions GLSL 400 would compute exactly: the _PRECISE
    ones and, transitively, every writer of a variable an exact one reads."""
    insts = em.insts
    if not any(inst.precise for inst in insts):
        return frozenset()
    access = [_accesses(em, i) for i in range(len(insts))]
    exact = {i for i, inst in enumerate(insts) if inst.precise}
    precise_vars: set[Hashable] = set()
    for i in exact:
        # A _PRECISE TEMP destination is declared 'precise' (so are all its other
        # writers); an OUT one goes through a fresh precise local instead.
        precise_vars |= {v for v in access[i][0] if v[0] not in ("OUT", "ADDR")}
        precise_vars |= access[i][1]
    changed = True
    while changed:
        changed = False
        for i, (writes, reads) in enumerate(access):
            if i not in exact and writes & precise_vars:
                exact.add(i)
                precise_vars |= reads
                changed = True
    return frozenset(exact)


def barrier(em, value: Expr, position: int) -> Expr:
    """``value`` through an identity the compiler cannot see through (literals,
    which both profiles fold alike, and non-32-bit values stay as they are)."""
    if value.words is not None or value.type not in ("float", "int", "uint"):
        return value
    if _DECL not in em.global_decls:
        em.global_decls.append(_DECL)
    zero = f"{UNIFORM}.{'xyzw'[position % 4]}"
    if value.type == "uint":
        return op(f"{value.at(PREC['^'] + 1)} ^ {zero}", "uint", value.n, PREC["^"])
    if value.type == "int":
        return op(f"{value.at(PREC['^'] + 1)} ^ int({zero})", "int", value.n, PREC["^"])
    bits = bitcast(value, "uint")
    return call(f"uintBitsToFloat({bits.at(PREC['^'] + 1)} ^ {zero})", "float", value.n)


def operands(em, i: int, srcs: list[Expr]) -> list[Expr]:
    """The source operands of instruction ``i`` as an exact instruction reads them
    (unchanged unless the emulation applies to ``i``)."""
    if not is_exact(em, i):
        return srcs
    return [barrier(em, s, k) if s.type == "float" else s for k, s in enumerate(srcs)]


def result(em, i: int, value: Expr) -> Expr:
    """The value exact instruction ``i`` stores, opaque to its readers: a reader
    that is not exact could otherwise rewrite it together with its producer
    (``(a - b) != 0.0`` -> ``a != b`` is wrong for a = b = inf)."""
    return barrier(em, value, 3) if is_exact(em, i) else value


def inst_is_exact(em, inst) -> bool:
    """``is_exact`` for an instruction object (the opcode formulas see ``inst``, not its index)."""
    if not emulated(em):
        return False
    return any(x is inst and k in em._glp_exact_set for k, x in enumerate(em.insts))


def step(em, inst, value: Expr, position: int = 3) -> Expr:
    """An intermediate result of a multi-step formula of ``inst``, opaque when
    ``inst`` is exact (so the host cannot fuse or re-associate across it)."""
    return barrier(em, value, position) if inst_is_exact(em, inst) else value


# Round-to-odd addition (Boldo & Melquiond, "Emulation of FMA and correctly rounded
# sums: proved algorithms using rounding to odd", 2008), the exact step of the fused
# FMA (alu.py, with fp64) and DFMA (wide.py): GLSL's fma() need not be fused and
# llvmpipe does round between the multiply and the add.  'precise' keeps the
# compiler from simplifying the error-free transformation.
ADD_ODD = """double glp_add_odd(double x, double y)
{
    // x + y rounded to odd: the nearest sum, nudged one ulp towards the exact sum
    // when it is inexact and its last bit is even.
    precise double s = x + y;
    precise double bb = s - x;
    precise double err = (x - (s - bb)) + (y - bb);
    uvec2 w = unpackDouble2x32(s);
    if (err != 0.0lf && (w.x & 1u) == 0u && !isinf(s)) {
        bool away = (err > 0.0lf) == (s > 0.0lf);
        uint lo = away ? w.x + 1u : w.x - 1u;
        uint hi = w.y + ((away && lo == 0u) ? 1u : 0u) - ((!away && w.x == 0u) ? 1u : 0u);
        s = packDouble2x32(uvec2(lo, hi));
    }
    return s;
}"""


__all__ = [
    "UNIFORM",
    "emulated",
    "is_exact",
    "inst_is_exact",
    "exact_instructions",
    "barrier",
    "operands",
    "result",
    "step",
    "ADD_ODD",
]
