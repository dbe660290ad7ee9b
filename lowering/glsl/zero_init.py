"""Registers start at zero: the declarations of TEMP / ADDR variables and the
prologue that zeroes TEMP arrays and the OUT registers a program reads.

Gallium's software drivers (llvmpipe, softpipe) start every TEMP, OUT and ADDR
register at zero, and programs rely on it (a TEMP read before any write, an
output accumulated into).  GLSL leaves locals undefined, and llvmpipe compiles
an undefined value into code that may kill the process (an undefined cube
coordinate into TXB: SIGSEGV at draw).  docs/lowering.md "Registers start at
zero" has the rules; the host compiler drops the stores nothing reads.
"""

from __future__ import annotations

from .exprs import literal, type_name

#: Loop counter of the array-zeroing loops (a reserved ``glp_`` name).
_COUNTER = "glp_zi"


def zero_text(base: str, n: int = 4) -> str:
    """GLSL text of a zero ``base`` vector of ``n`` components (``vec4(0.0)``...)."""
    return literal(base, (0,) * n).text if n == 1 else f"{type_name(base, n)}({literal(base, (0,)).text})"


def register_declarations(em) -> list[str]:
    """Declarations of every TEMP variable, TEMP array, ADDR register and local
    output of ``em`` (an ``Emitter``); scalars and vectors carry a zero
    initialiser, arrays are zeroed by ``array_prologue``."""
    decls: list[str] = []
    precise_ok = em.req.has("precise")

    def qual(precise: bool) -> str:
        if precise and precise_ok:
            em.req.need("precise", "_PRECISE")
            return "precise "
        return ""

    for v in em.plan.variables:
        decls.append(f"{qual(v.precise)}{type_name(v.type, 4)} {v.name} = {zero_text(v.type)};")
    for _aid, arr in sorted(em.plan.arrays.items()):
        decls.append(f"{qual(arr.precise)}{type_name(arr.type, 4)} {arr.name}[{arr.size}];")
    for n in range(em.decls.num_addrs):
        decls.append(f"ivec4 addr{n} = ivec4(0);")
    for _index, name in sorted(em.io.local_outputs.items()):
        decls.append(f"vec4 {name} = vec4(0.0);")
    if em.io.window_space_position:
        decls.append(f"vec4 {em.io.window_space_position} = vec4(0.0);")
    return decls


def array_prologue(em) -> list[str]:
    """One loop per TEMP array setting its elements to zero (a constructor would
    spell every element out: the source would grow with the array)."""
    out = []
    for _aid, arr in sorted(em.plan.arrays.items()):
        out.append(
            f"for (int {_COUNTER} = 0; {_COUNTER} < {arr.size}; ++{_COUNTER}) "
            f"{arr.name}[{_COUNTER}] = {zero_text(arr.type)};"
        )
    return out


#: Outputs a TCS shares between its invocations (patch data): zeroing them in
#: every invocation would race with the other invocations' writes (GL orders
#: TCS output writes only at barrier()), so they are left to the program.
_SHARED_TCS_OUTPUTS = frozenset({"PATCH", "TESSOUTER", "TESSINNER"})


def _outputs_read(em) -> list[int]:
    """OUT registers some instruction reads (direct or through an indirect range);
    framebuffer-fetch outputs are excluded (they start as the framebuffer's value)."""
    read: set[int] = set()
    for inst in em.insts:
        for src in inst.srcs:
            if src.file != "OUT":
                continue
            read.update(em._io_range(src) if src.indirect is not None else (src.index,))
    return sorted(r for r in read - em.fbfetch_outputs if r in em.decls.outputs)


def output_prologue(em) -> list[str]:
    """Statements zeroing every OUT register the program reads (before it
    writes them), in the output's own GLSL variables."""
    saved_lines, saved_indent = em.lines, em.indent
    em.lines, em.indent = [], 0
    try:
        for index in _outputs_read(em):
            vertex = None
            if em.proc == "TESS_CTRL":
                semantic, _ = em.decls.output_semantic(index)
                if semantic in _SHARED_TCS_OUTPUTS:
                    continue
                vertex = "gl_InvocationID"
            if index in em.io.local_outputs:
                continue  # declared with its zero (register_declarations)
            view = em.io.output_view(index, vertex)
            em.store_view(view, (0, 1, 2, 3), literal("uint", (0, 0, 0, 0)))
        return em.lines
    finally:
        em.lines, em.indent = saved_lines, saved_indent


__all__ = ["array_prologue", "output_prologue", "register_declarations", "zero_text"]
