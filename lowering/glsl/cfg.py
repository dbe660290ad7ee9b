"""Control-flow structure of a TGSI program: matched blocks, subroutines, successors.

TGSI control flow is structured (IF/ELSE/ENDIF, BGNLOOP/ENDLOOP,
SWITCH/CASE/ENDSWITCH, BGNSUB/ENDSUB), so the emitter can print it as GLSL
blocks directly.  This module finds the matching instructions once and
builds the instruction-level control-flow graph that type inference uses
for reaching definitions.

Program layout: the main program runs from instruction 0 to the first END
at nesting depth 0 (or the end of the list); ``BGNSUB`` .. ``ENDSUB``
regions anywhere are subroutines, named by the index of their BGNSUB (what
``CAL :N`` targets; older producers point at the instruction after BGNSUB,
which is accepted too).  Instructions after the main END that are not in a
subroutine are unreachable and ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import ShaderValidationError, UnsupportedError
from ..ir import Instruction


@dataclass
class Structure:
    """Matched blocks of an instruction list (indices into it)."""

    else_of: dict[int, int] = field(default_factory=dict)  # IF -> ELSE
    endif_of: dict[int, int] = field(default_factory=dict)  # IF/ELSE -> ENDIF
    endloop_of: dict[int, int] = field(default_factory=dict)  # BGNLOOP -> ENDLOOP
    bgnloop_of: dict[int, int] = field(default_factory=dict)  # ENDLOOP -> BGNLOOP
    endswitch_of: dict[int, int] = field(default_factory=dict)  # SWITCH -> ENDSWITCH
    cases_of: dict[int, list[int]] = field(default_factory=dict)  # SWITCH -> CASE/DEFAULT indices
    breaks_to: dict[int, int] = field(default_factory=dict)  # BRK/BREAKC -> BGNLOOP or SWITCH
    continues_to: dict[int, int] = field(default_factory=dict)  # CONT -> BGNLOOP
    subroutines: dict[int, int] = field(default_factory=dict)  # BGNSUB -> ENDSUB
    main_end: int = 0  # index one past main's last instruction

    def sub_of_label(self, label: int) -> int:
        """The BGNSUB index a ``CAL :label`` calls."""
        if label in self.subroutines:
            return label
        if label - 1 in self.subroutines:
            return label - 1
        raise ShaderValidationError(f"CAL :{label} does not name a BGNSUB", label)


def analyse(insts: Sequence[Instruction]) -> Structure:
    """Match the blocks of ``insts``; raises ShaderValidationError on broken nesting."""
    st = Structure()
    stack: list[tuple[str, int]] = []
    main_end: int | None = None
    for i, inst in enumerate(insts):
        op = inst.opcode
        if op in ("IF", "UIF"):
            stack.append(("if", i))
        elif op == "ELSE":
            kind, start = _top(stack, "if", i, op)
            st.else_of[start] = i
        elif op == "ENDIF":
            kind, start = _pop(stack, "if", i, op)
            st.endif_of[start] = i
            if start in st.else_of:
                st.endif_of[st.else_of[start]] = i
        elif op == "BGNLOOP":
            stack.append(("loop", i))
        elif op == "ENDLOOP":
            kind, start = _pop(stack, "loop", i, op)
            st.endloop_of[start] = i
            st.bgnloop_of[i] = start
        elif op == "SWITCH":
            stack.append(("switch", i))
            st.cases_of[i] = []
        elif op in ("CASE", "DEFAULT"):
            kind, start = _top(stack, "switch", i, op)
            st.cases_of[start].append(i)
        elif op == "ENDSWITCH":
            kind, start = _pop(stack, "switch", i, op)
            st.endswitch_of[start] = i
        elif op in ("BRK", "BREAKC"):
            target = next((s for k, s in reversed(stack) if k in ("loop", "switch")), None)
            if target is None:
                raise ShaderValidationError(f"instruction {i}: {op} outside a loop or switch", i)
            if op == "BREAKC" and insts[target].opcode == "SWITCH":
                target = next((s for k, s in reversed(stack) if k == "loop"), target)
            st.breaks_to[i] = target
        elif op == "CONT":
            target = next((s for k, s in reversed(stack) if k == "loop"), None)
            if target is None:
                raise ShaderValidationError(f"instruction {i}: CONT outside a loop", i)
            st.continues_to[i] = target
        elif op == "BGNSUB":
            stack.append(("sub", i))
        elif op == "ENDSUB":
            kind, start = _pop(stack, "sub", i, op)
            st.subroutines[start] = i
        elif op == "END" and main_end is None and not any(k == "sub" for k, _ in stack) and not stack:
            main_end = i
    if stack:
        kind, start = stack[-1]
        raise ShaderValidationError(f"instruction {start}: {insts[start].opcode} is never closed", start)
    st.main_end = main_end if main_end is not None else len(insts)
    return st


def _top(stack, kind: str, i: int, op: str):
    if not stack or stack[-1][0] != kind:
        raise ShaderValidationError(f"instruction {i}: {op} without a matching open {kind.upper()}", i)
    return stack[-1]


def _pop(stack, kind: str, i: int, op: str):
    entry = _top(stack, kind, i, op)
    stack.pop()
    return entry


def successors(insts: Sequence[Instruction], st: Structure, i: int) -> tuple[int, ...]:
    """Instruction indices control may reach right after instruction ``i``
    (``len(insts)`` stands for the program exit)."""
    op = insts[i].opcode
    exit_ = len(insts)
    if op in ("IF", "UIF"):
        other = st.else_of.get(i)
        return (i + 1, other + 1 if other is not None else st.endif_of[i])
    if op == "ELSE":
        return (st.endif_of[i],)
    if op == "ENDLOOP":
        return (st.bgnloop_of[i],)
    if op == "BRK":
        return (_after_break(insts, st, st.breaks_to[i]),)
    if op == "BREAKC":
        return (i + 1, _after_break(insts, st, st.breaks_to[i]))
    if op == "CONT":
        return (st.continues_to[i],)
    if op == "SWITCH":
        cases = list(st.cases_of[i])
        if not any(insts[c].opcode == "DEFAULT" for c in cases):
            cases.append(st.endswitch_of[i])
        return tuple(cases)
    if op in ("RET", "END", "ENDSUB"):
        return (exit_,)
    return (i + 1,) if i + 1 <= exit_ else (exit_,)


def _after_break(insts, st: Structure, target: int) -> int:
    if insts[target].opcode == "SWITCH":
        return st.endswitch_of[target]
    return st.endloop_of[target] + 1


def reaching_definitions(
    insts: Sequence[Instruction], st: Structure, end: int, gen: Sequence[int], kill: Sequence[int]
) -> list[int]:
    """Bitsets of the definitions reaching the *start* of each instruction of
    ``insts[0:end]`` (classic forward data flow; ``gen``/``kill`` are per
    instruction bitsets over definition ids, Python ints)."""
    preds: list[set[int]] = [set() for _ in range(end + 1)]
    for i in range(end):
        for s in successors(insts, st, i):
            preds[min(s, end)].add(i)
    reach_in = [0] * (end + 1)
    reach_out = [0] * end
    work = list(range(end))
    queued = set(work)
    succs = [tuple(min(s, end) for s in successors(insts, st, i)) for i in range(end)]
    while work:
        i = work.pop(0)
        queued.discard(i)
        new_in = 0
        for p in preds[i]:
            new_in |= reach_out[p]
        reach_in[i] = new_in
        out = gen[i] | (new_in & ~kill[i])
        if out != reach_out[i]:
            reach_out[i] = out
            for s in succs[i]:
                if s < end and s not in queued:
                    work.append(s)
                    queued.add(s)
    return reach_in[:end]


def call_graph_is_acyclic(insts: Sequence[Instruction], st: Structure) -> None:
    """Raise UnsupportedError when subroutines call themselves (GLSL has no recursion)."""
    calls: dict[int, set[int]] = {s: set() for s in st.subroutines}
    for start, end in st.subroutines.items():
        for i in range(start + 1, end):
            if insts[i].opcode == "CAL" and insts[i].label is not None:
                calls[start].add(st.sub_of_label(insts[i].label))
    state: dict[int, int] = {}

    def visit(node: int, path: list[int]) -> None:
        state[node] = 1
        for nxt in calls.get(node, ()):
            if state.get(nxt) == 1:
                raise UnsupportedError(
                    f"CAL: subroutine at instruction {nxt} is called recursively; GLSL has no recursion"
                )
            if state.get(nxt) is None:
                visit(nxt, path + [nxt])
        state[node] = 2

    for sub in calls:
        if sub not in state:
            visit(sub, [sub])


__all__ = ["Structure", "analyse", "successors", "reaching_definitions", "call_graph_is_acyclic"]
