"""Control flow: IF/UIF/ELSE/ENDIF, loops, SWITCH, subroutines, discard, GS emission.

docs/lowering.md "Control flow" gives the tgsi.rst details each opcode follows.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from . import passes
from .exprs import literal


def _int_type(em, i, s) -> str:
    """int or uint: the source register's own integer type (uint for floats)."""
    natural = em.natural_type(i, s)
    return natural if natural in ("int", "uint") else "uint"


def handle_if(em, i, inst):
    """IF: float test ``src.x != 0.0``."""
    x = em.src(i, 0, (0,), "float")
    em.line(f"if ({x.p()} != 0.0) {{")
    em.indent += 1


def handle_uif(em, i, inst):
    """UIF: integer test ``src.x != 0``."""
    t = _int_type(em, i, 0)
    x = em.src(i, 0, (0,), t)
    em.line(f"if ({x.p()} != {'0u' if t == 'uint' else '0'}) {{")
    em.indent += 1


def handle_else(em, i, inst):
    em.indent -= 1
    em.line("} else {")
    em.indent += 1


def handle_close(em, i, inst):
    """ENDIF / ENDLOOP."""
    em.indent -= 1
    em.line("}")


def handle_bgnloop(em, i, inst):
    em.line("while (true) {")
    em.indent += 1


def handle_brk(em, i, inst):
    em.line("break;")


def handle_cont(em, i, inst):
    em.line("continue;")


def handle_breakc(em, i, inst):
    """BREAKC (legacy): break when the integer src.x != 0."""
    t = _int_type(em, i, 0)
    x = em.src(i, 0, (0,), t)
    em.line(f"if ({x.p()} != {'0u' if t == 'uint' else '0'}) break;")


def handle_switch(em, i, inst):
    t = _int_type(em, i, 0)
    x = em.src(i, 0, (0,), t)
    em.line(f"switch ({x.text}) {{")
    em.indent += 1
    em.switch_stack.append({"type": t, "in_case": False, "empty": False})


def _leave_case(em):
    top = em.switch_stack[-1]
    if top["in_case"]:
        em.indent -= 1
        top["in_case"] = False


def handle_case(em, i, inst):
    top = em.switch_stack[-1]
    src = inst.srcs[0]
    if src.file != "IMM" or src.indirect is not None:
        raise UnsupportedError("CASE with a non-immediate operand: GLSL case labels must be constants")
    word = em.decls.immediate_words(src.index)[src.swizzle[0]]
    label = literal(top["type"], (word,)).text
    if top["in_case"] and top["empty"]:
        em.indent -= 1  # consecutive labels share a body
    else:
        _leave_case(em)
    em.line(f"case {label}:")
    em.indent += 1
    top["in_case"] = True
    top["empty"] = True
    top["mark"] = len(em.lines)


def handle_default(em, i, inst):
    top = em.switch_stack[-1]
    if top["in_case"] and top["empty"]:
        em.indent -= 1
    else:
        _leave_case(em)
    em.line("default:")
    em.indent += 1
    top["in_case"] = True
    top["empty"] = True
    top["mark"] = len(em.lines)


def handle_endswitch(em, i, inst):
    top = em.switch_stack[-1]
    if top["in_case"] and len(em.lines) == top.get("mark", -1):
        em.line("break;")  # GLSL: no label at the end of a switch body
    _leave_case(em)
    em.switch_stack.pop()
    em.indent -= 1
    em.line("}")


def handle_cal(em, i, inst):
    if inst.label is None:
        raise UnsupportedError("CAL without a :label target")
    em.line(f"glp_sub_{em.structure.sub_of_label(inst.label)}();")


def handle_ret(em, i, inst):
    em.emit_return()


def handle_end(em, i, inst):
    if em.in_subroutine:
        raise UnsupportedError("END inside a subroutine ends the whole program, which a GLSL function cannot do")
    em.emit_return()


def handle_nop(em, i, inst):
    """NOP: no operation, so no GLSL."""


def handle_kill(em, i, inst):
    em.uses_discard = True
    em.line("discard;")


def handle_kill_if(em, i, inst):
    """KILL_IF: discard when any (distinct) component of src is < 0."""
    em.uses_discard = True
    swz = inst.srcs[0].swizzle
    positions = tuple(p for p in range(4) if swz[p] not in swz[:p])
    v = em.src(i, 0, positions, "float")
    if v.n == 1:
        em.line(f"if ({v.p()} < 0.0) discard;")
    else:
        em.line(f"if (any(lessThan({v.text}, vec{v.n}(0.0)))) discard;")


def handle_demote(em, i, inst):
    em.req.need("demote", "DEMOTE")
    em.uses_discard = True
    em.line("demote;")


def _stream(em, i, inst) -> int:
    if not inst.srcs:
        return 0  # pre-2014 bare EMIT / ENDPRIM: stream 0
    src = inst.srcs[0]
    if src.file != "IMM" or src.indirect is not None:
        raise UnsupportedError(f"{inst.opcode} with a non-immediate stream: GLSL needs a constant stream")
    return em.decls.immediate_words(src.index)[src.swizzle[0]]


def handle_emit(em, i, inst):
    stream = _stream(em, i, inst)
    em.streams.add(stream)
    if stream == 0:
        for text in em.io.unwritten_output_zeros:  # (EmitVertex left them undefined: stages.py)
            em.line(text)
        for text in passes.vertex_end(em):  # the vertex is complete: clip planes, y flip, ...
            em.line(text)
    if stream:
        em.req.need("gs_streams", f"EMIT on stream {stream}")
        if em.key.stream_output:  # the vertex_end rows ran the stream-0 copies above
            for text in passes.stream_output_copies(em, stream):
                em.line(text)
        em.line(f"EmitStreamVertex({stream});")
    else:
        em.line("EmitVertex();")


def handle_endprim(em, i, inst):
    stream = _stream(em, i, inst)
    if stream:
        em.req.need("gs_streams", f"ENDPRIM on stream {stream}")
        em.line(f"EndStreamPrimitive({stream});")
    else:
        for text in passes.end_primitive(em):  # a new strip: the line stipple counter
            em.line(text)
        em.line("EndPrimitive();")


FLOW = {
    "IF": handle_if,
    "UIF": handle_uif,
    "ELSE": handle_else,
    "ENDIF": handle_close,
    "BGNLOOP": handle_bgnloop,
    "ENDLOOP": handle_close,
    "BRK": handle_brk,
    "CONT": handle_cont,
    "BREAKC": handle_breakc,
    "SWITCH": handle_switch,
    "CASE": handle_case,
    "DEFAULT": handle_default,
    "ENDSWITCH": handle_endswitch,
    "CAL": handle_cal,
    "RET": handle_ret,
    "END": handle_end,
    "NOP": handle_nop,
    "KILL": handle_kill,
    "KILL_IF": handle_kill_if,
    "DEMOTE": handle_demote,
    "EMIT": handle_emit,
    "ENDPRIM": handle_endprim,
}

__all__ = ["FLOW"]
