"""Register type inference: one typed GLSL variable per TEMP *web*.

docs/lowering.md "Registers and types" explains the webs, the type votes, the
arrays and the subroutine fallback.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..ir import Instruction, Shader
from . import cfg
from .decls import Decls, TempArray
from .signatures import UNTYPED, is_wide, lane_src_positions, lanes, operand_types, src_positions, storage_vote

# Tie-break order among the 32-bit storage types.
_PREFERENCE = ("float", "uint", "int")


@dataclass
class TempVar:
    """A GLSL variable holding (part of the lifetime of) one TEMP register."""

    name: str
    register: int
    type: str = "float"
    precise: bool = False


@dataclass
class ArrayVar:
    """A GLSL array holding TEMP[first .. first+size-1]."""

    name: str
    first: int
    size: int
    type: str = "float"
    precise: bool = False


@dataclass
class RegisterPlan:
    """Where every TEMP operand lives, and the types chosen for CONST and VS inputs.

    Operand keys: ``(inst, "d", n)`` dst n, ``(inst, "s", n)`` src n,
    ``(inst, "o", n)`` texture offset n, ``(inst, kind, n)`` with kind
    ``"si" "sd" "di" "dd"`` for the TEMP used as the (dimension) indirect
    index of src / dst n.
    """

    operand_vars: dict[tuple[int, str, int], TempVar] = field(default_factory=dict)
    register_vars: dict[int, TempVar] = field(default_factory=dict)
    arrays: dict[int, ArrayVar] = field(default_factory=dict)  # array id (0 = whole file)
    array_of_register: dict[int, int] = field(default_factory=dict)
    variables: list[TempVar] = field(default_factory=list)
    const_types: dict[int, str] = field(default_factory=dict)
    vs_input_types: dict[int, str] = field(default_factory=dict)

    def var(self, key: tuple[int, str, int], register: int) -> TempVar:
        """The variable of a direct TEMP operand (per-register fallback)."""
        found = self.operand_vars.get(key)
        if found is not None:
            return found
        return self.register_var(register)

    def register_var(self, register: int) -> TempVar:
        """The per-register variable of TEMP[register] (made on first use)."""
        found = self.register_vars.get(register)
        if found is None:
            found = TempVar(f"t{register}", register)
            self.register_vars[register] = found
            self.variables.append(found)
        return found

    def array_for(self, register: int) -> ArrayVar | None:
        """The array holding TEMP[register], if it is array-managed."""
        aid = self.array_of_register.get(register)
        return self.arrays.get(aid) if aid is not None else None


def _choose(votes: Counter, default: str = "float") -> str:
    if not votes:
        return default
    best = max(votes.values())
    for t in _PREFERENCE:
        if votes.get(t, 0) == best:
            return t
    return default


class _UnionFind:
    def __init__(self):
        self.parent: dict[object, object] = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb, key=repr)] = min(ra, rb, key=repr)


@dataclass
class _Access:
    """One TEMP access: operand key, register, components, type, and for
    untyped moves the key of the operand whose type it follows."""

    key: tuple[int, str, int]
    register: int
    comps: tuple[int, ...]
    type: str | None
    follows: tuple[int, str, int] | None = None
    fixed_follow: str | None = None  # type of a non-TEMP operand an untyped move copies
    precise: bool = False


def plan_registers(
    shader: Shader, decls: Decls, insts: Sequence[Instruction], structure: cfg.Structure, fixed_type
) -> RegisterPlan:
    """Build the ``RegisterPlan`` of ``shader``.

    ``fixed_type(src)`` returns the GLSL base type of a non-TEMP source
    operand whose type is fixed by its declaration (IN, OUT, SV), or None
    (IMM, CONST: neutral).
    """
    plan = RegisterPlan()
    _plan_arrays(plan, decls, insts)
    defs, uses = _collect(decls, insts, plan, fixed_type)
    use_webs = not structure.subroutines
    if use_webs:
        _assign_webs(plan, insts, structure, defs, uses)
    else:
        for acc in defs + uses:
            plan.operand_vars[acc.key] = plan.register_var(acc.register)
    _vote_temps(plan, defs, uses)
    _vote_arrays(plan, decls, insts)
    _vote_consts_and_inputs(plan, shader, decls, insts, fixed_type)
    _name_variables(plan)
    return plan


# ---------------------------------------------------------------------------


def _plan_arrays(plan: RegisterPlan, decls: Decls, insts: Sequence[Instruction]) -> None:
    """Decide which registers live in arrays (declared ARRAY(id) ranges that are
    indirectly addressed, or the whole file for an indirect access without one)."""
    whole_file = False
    used_arrays = set()
    for inst in insts:
        for reg in list(inst.dsts) + list(inst.srcs):
            if reg.file != "TEMP" or reg.indirect is None:
                continue
            arr = decls.array_of_temp(reg.index, reg.indirect.array_id or reg.array_id)
            if arr is None:
                whole_file = True
            else:
                used_arrays.add(arr.array_id)
    if whole_file:
        size = max(decls.num_temps, 1)
        plan.arrays[0] = ArrayVar("temps", 0, size)
        for r in range(size):
            plan.array_of_register[r] = 0
        return
    for aid in sorted(used_arrays):
        arr: TempArray = decls.temp_arrays[aid]
        plan.arrays[aid] = ArrayVar(f"tarr{aid}", arr.first, arr.size)
        for r in range(arr.first, arr.last + 1):
            plan.array_of_register[r] = aid


def _collect(decls: Decls, insts: Sequence[Instruction], plan: RegisterPlan, fixed_type):
    defs: list[_Access] = []
    uses: list[_Access] = []

    def temp_index_use(i, kind, n, ind):
        if ind is not None and ind.file == "TEMP" and ind.index not in plan.array_of_register:
            uses.append(_Access((i, kind, n), ind.index, (ind.component,), "int"))

    for i, inst in enumerate(insts):
        dst_types, src_types = operand_types(inst, decls)
        untyped_dst = None
        for d, dst in enumerate(inst.dsts):
            temp_index_use(i, "di", d, dst.indirect)
            temp_index_use(i, "dd", d, dst.dim_indirect)
            if dst.file != "TEMP" or dst.indirect is not None or dst.index in plan.array_of_register:
                continue
            t = dst_types[d] if d < len(dst_types) else None
            comps = tuple(c for c in range(4) if dst.writemask & (1 << c))
            acc = _Access((i, "d", d), dst.index, comps, t, precise=inst.precise)
            defs.append(acc)
            if t == UNTYPED and d == 0:
                untyped_dst = acc
        for s, src in enumerate(inst.srcs):
            temp_index_use(i, "si", s, src.indirect)
            temp_index_use(i, "sd", s, src.dim_indirect)
            t = src_types[s] if s < len(src_types) else None
            if src.file != "TEMP" or src.indirect is not None or src.index in plan.array_of_register:
                if t == UNTYPED and untyped_dst is not None and untyped_dst.follows is None:
                    untyped_dst.fixed_follow = fixed_type(src)
                continue
            if is_wide(inst.opcode) and inst.dsts:
                positions = tuple(
                    sorted({p for lane in lanes(inst) for p in lane_src_positions(inst, s, lane, t)})
                ) or (0,)
            else:
                positions = src_positions(inst, s, t)
            comps = tuple(sorted({src.swizzle[p] for p in positions}))
            acc = _Access((i, "s", s), src.index, comps, t)
            if t == UNTYPED and untyped_dst is not None:
                acc.follows = untyped_dst.key
                if untyped_dst.follows is None:
                    untyped_dst.follows = acc.key
            uses.append(acc)
        for o, off in enumerate(inst.tex_offsets):
            if off.file == "TEMP" and off.index not in plan.array_of_register:
                uses.append(_Access((i, "o", o), off.index, tuple(sorted(set(off.swizzle))), "int"))
    return defs, uses


def _assign_webs(plan: RegisterPlan, insts, structure: cfg.Structure, defs: list[_Access], uses: list[_Access]) -> None:
    """Union definitions that reach common uses; one variable per web."""
    end = structure.main_end
    # Definition ids: one per (def access, component).
    def_ids: list[tuple[int, int]] = []  # id -> (index into defs, component)
    by_slot: dict[tuple[int, int], int] = defaultdict(int)  # (reg, comp) -> bitset of its defs
    gen = [0] * len(insts)
    per_inst_defs: dict[int, list[int]] = defaultdict(list)
    for k, acc in enumerate(defs):
        i = acc.key[0]
        for c in acc.comps:
            did = len(def_ids)
            def_ids.append((k, c))
            by_slot[(acc.register, c)] |= 1 << did
            gen[i] |= 1 << did
            per_inst_defs[i].append(did)
    kill = [0] * len(insts)
    for i, ids in per_inst_defs.items():
        for did in ids:
            k, c = def_ids[did]
            kill[i] |= by_slot[(defs[k].register, c)]
    reach = cfg.reaching_definitions(insts, structure, end, gen, kill)

    uf = _UnionFind()
    for k in range(len(defs)):  # one instruction's components together
        uf.find(("def", k))
    for u, acc in enumerate(uses):
        node = ("use", u)
        uf.find(node)
        i = acc.key[0]
        if i >= end:
            continue
        reaching = reach[i]
        for c in acc.comps:
            bits = reaching & by_slot.get((acc.register, c), 0)
            while bits:
                low = bits & -bits
                did = low.bit_length() - 1
                uf.union(node, ("def", def_ids[did][0]))
                bits ^= low

    groups: dict[object, TempVar] = {}
    for k, acc in enumerate(defs):
        root = uf.find(("def", k))
        var = groups.get(root)
        if var is None:
            var = TempVar("", acc.register)
            groups[root] = var
            plan.variables.append(var)
        plan.operand_vars[acc.key] = var
    for u, acc in enumerate(uses):
        root = uf.find(("use", u))
        var = groups.get(root)
        if var is None:  # reads a value nothing wrote: the register's own variable
            var = plan.register_var(acc.register)
            groups[root] = var
        plan.operand_vars[acc.key] = var


def _vote_temps(plan: RegisterPlan, defs: list[_Access], uses: list[_Access]) -> None:
    accesses = defs + uses
    by_key = {acc.key: acc for acc in accesses}
    for acc in defs:
        if acc.precise:
            plan.operand_vars[acc.key].precise = True
    chosen: dict[int, str] = {}
    for _round in range(4):
        votes: dict[int, Counter] = defaultdict(Counter)
        for acc in accesses:
            var = plan.operand_vars[acc.key]
            t = storage_vote(acc.type)
            if t is None and acc.type == UNTYPED:
                other = by_key.get(acc.follows) if acc.follows else None
                if other is not None:
                    t = chosen.get(id(plan.operand_vars[other.key]))
                elif acc.fixed_follow is not None:
                    t = acc.fixed_follow
            if t is not None:
                votes[id(var)][t] += 1
        new = {id(v): _choose(votes.get(id(v), Counter())) for v in plan.variables}
        if new == chosen:
            break
        chosen = new
    for var in plan.variables:
        var.type = chosen.get(id(var), "float")


def array_id_of(plan: RegisterPlan, decls: Decls, reg) -> int | None:
    """The plan array a TEMP operand (direct or indirect) goes to, or None."""
    if reg.file != "TEMP":
        return None
    if reg.indirect is not None:
        if 0 in plan.arrays:
            return 0
        arr = decls.array_of_temp(reg.index, reg.indirect.array_id or reg.array_id)
        return arr.array_id if arr is not None and arr.array_id in plan.arrays else None
    return plan.array_of_register.get(reg.index)


def _vote_arrays(plan: RegisterPlan, decls: Decls, insts) -> None:
    if not plan.arrays:
        return
    votes: dict[int, Counter] = defaultdict(Counter)
    for inst in insts:
        dst_types, src_types = operand_types(inst, decls)
        for regs, types, is_dst in ((inst.dsts, dst_types, True), (inst.srcs, src_types, False)):
            for reg, t in zip(regs, types, strict=True):
                aid = array_id_of(plan, decls, reg)
                if aid is None:
                    continue
                vt = storage_vote(t)
                if vt is not None:
                    votes[aid][vt] += 1
                if inst.precise and is_dst:
                    plan.arrays[aid].precise = True
    for aid, arr in plan.arrays.items():
        arr.type = _choose(votes.get(aid, Counter()))


def _vote_consts_and_inputs(plan: RegisterPlan, shader: Shader, decls: Decls, insts, fixed_type) -> None:
    const_votes: dict[int, Counter] = defaultdict(Counter)
    input_votes: dict[int, Counter] = defaultdict(Counter)
    for i, inst in enumerate(insts):
        dst_types, src_types = operand_types(inst, decls)
        for s, src in enumerate(inst.srcs):
            t = src_types[s] if s < len(src_types) else None
            if t == UNTYPED and inst.dsts:
                dst = inst.dsts[0]
                if dst.file == "TEMP":
                    if dst.index in plan.array_of_register:
                        t = plan.arrays[plan.array_of_register[dst.index]].type
                    else:
                        t = plan.var((i, "d", 0), dst.index).type
                else:
                    t = fixed_type(dst)
            vt = storage_vote(t)
            if vt is None:
                continue
            if src.file == "CONST":
                const_votes[src.dimension or 0][vt] += 1
            elif src.file == "IN" and shader.processor == "VERT":
                input_votes[src.index][vt] += 1
    for buf in decls.const_sizes:
        plan.const_types[buf] = _choose(const_votes.get(buf, Counter()))
    for index in decls.inputs.keys() | input_votes.keys():
        plan.vs_input_types[index] = _choose(input_votes.get(index, Counter()))


def _name_variables(plan: RegisterPlan) -> None:
    """``t<reg>`` for a register's only variable, ``t<reg>_<k>`` when split."""
    by_reg: dict[int, list[TempVar]] = defaultdict(list)
    seen = set()
    ordered: list[TempVar] = []
    for var in plan.variables:
        if id(var) in seen:
            continue
        seen.add(id(var))
        ordered.append(var)
        by_reg[var.register].append(var)
    rank: dict[int, int] = {}
    for reg, vars_ in by_reg.items():
        for k, var in enumerate(vars_):
            var.name = f"t{reg}" if len(vars_) == 1 else f"t{reg}_{k}"
            rank[id(var)] = k
    plan.variables = sorted(ordered, key=lambda v: (v.register, rank[id(v)]))


__all__ = ["TempVar", "ArrayVar", "RegisterPlan", "plan_registers", "array_id_of"]
