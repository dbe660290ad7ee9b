"""LAYER and VIEWPORT_INDEX written by a VS on a host whose vertex stages cannot write
gl_Layer / gl_ViewportIndex: varyings plus a generated pass-through GS.

docs/lowering.md "Layer and viewport index from the vertex stage" has the rules.
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..views import ComponentView, comp

SEMANTICS = ("LAYER", "VIEWPORT_INDEX")
# Generated GS input primitive -> (output primitive, the input vertices it emits).
PASSTHROUGH = {
    "POINTS": ("POINTS", (0,)),
    "LINES": ("LINE_STRIP", (0, 1)),
    "LINES_ADJACENCY": ("LINE_STRIP", (1, 2)),
    "TRIANGLES": ("TRIANGLE_STRIP", (0, 1, 2)),
    "TRIANGLES_ADJACENCY": ("TRIANGLE_STRIP", (0, 2, 4)),
}
# Outputs the generated GS cannot pass on (GL has no GS input for them).
_NOT_PASSED = frozenset({"EDGEFLAG", "VIEWPORT_MASK"})


def _names(semantic: str):
    name = f"glp_{semantic.lower()}"
    return f"{name}_block", name, f"{name}_in"


def emulated(em, semantic: str) -> bool:
    """Whether a VS / TES output ``semantic`` (LAYER or VIEWPORT_INDEX) goes to
    the integer varying: on a host without vertex-stage layer writes (a VS
    only: a TES keeps needing the host feature, TES_LAYER_VIEWPORT stays with
    it), and wherever the next stage is a GS reading it (VariantKey
    output_interpolation names it): GLSL has no gl_in[].gl_Layer, and with a GS
    bound only the GS's gl_Layer reaches the rasterizer."""
    if em.proc == "VERT" and not em.req.has("vs_layer_viewport"):
        return True
    return em.proc in ("VERT", "TESS_EVAL") and em.key.interpolation_for(semantic, 0) is not None


def output(io, semantic: str) -> ComponentView:
    """The VS / TES output ``semantic``: the integer varying the GS reads."""
    block, member, _ = _names(semantic)
    io._declare(f"out {block} {{ flat int {member}; }};")
    return ComponentView([comp(member, "int", lvalue=True)], "int")


def zero_output(io, semantic: str) -> str:
    """Declare the varying of ``semantic`` in a VS / TES that does not write it
    and the next stage (a GS) reads; the statement writing it 0 (Gallium: an
    input nothing wrote reads zero)."""
    _, member, _ = _names(semantic)
    output(io, semantic)
    return f"{member} = 0;"


def gs_input(io, semantic: str, vertex: str) -> ComponentView:
    """A GS input ``semantic`` of vertex ``vertex``: the previous stage's
    integer varying (``output``, or ``zero_output`` where it writes none)."""
    block, member, instance = _names(semantic)
    io._declare(f"in {block} {{ flat int {member}; }} {instance}[{io.input_array_size()}];")
    return ComponentView([comp(f"{instance}[{vertex}].{member}", "int")], "int")


def layer_gs_tokens(ir, info, input_prim: str, viewport_index: bool) -> str:
    """TGSI of the GS passing every output of ``ir`` / ``info`` (the last
    vertex stage) through for one ``input_prim`` primitive (``PASSTHROUGH``),
    LAYER (and VIEWPORT_INDEX when ``viewport_index``) from each vertex's
    varying into the GS's built-in outputs."""
    output_prim, emitted = PASSTHROUGH[input_prim]
    regs = []
    for io in info.outputs:
        if io.semantic in _NOT_PASSED:
            if io.semantic == "EDGEFLAG":
                continue  # edge flags only matter for polygons drawn as lines / points: GL ignores them here
            raise UnsupportedError(
                f"draw_vbo: the {io.semantic} output of the vertex shader cannot pass through "
                "glpipe's generated layer GS"
            )
        if io.semantic == "VIEWPORT_INDEX" and not viewport_index:
            continue
        regs.append(io)
    lines = [
        "GEOM",
        f"PROPERTY GS_INPUT_PRIMITIVE {input_prim}",
        f"PROPERTY GS_OUTPUT_PRIMITIVE {output_prim}",
        f"PROPERTY GS_MAX_OUTPUT_VERTICES {len(emitted)}",
    ]
    for prop in ("NUM_CLIPDIST_ENABLED", "NUM_CULLDIST_ENABLED"):
        value = ir.property(prop, None)
        if value is not None:
            lines.append(f"PROPERTY {prop} {value}")
    for k, io in enumerate(regs):
        lines.append(f"DCL IN[][{k}], {io.semantic}[{io.semantic_index}]")
    for k, io in enumerate(regs):
        interp = f", {io.interpolate}" if io.interpolate else ""
        lines.append(f"DCL OUT[{k}], {io.semantic}[{io.semantic_index}]{interp}")
    # The primitive ID too: with a GS in the pipeline the FS's gl_PrimitiveID is what the GS writes.
    prim_id = len(regs)
    lines += ["DCL SV[0], PRIM_ID", f"DCL OUT[{prim_id}], PRIM_ID", "IMM[0] UINT32 {0, 0, 0, 0}"]
    n = 0
    for v in emitted:
        for k in range(len(regs)):
            lines.append(f"{n:4}: MOV OUT[{k}], IN[{v}][{k}]")
            n += 1
        lines += [f"{n:4}: MOV OUT[{prim_id}].x, SV[0].xxxx", f"{n + 1:4}: EMIT IMM[0].xxxx"]
        n += 2
    lines += [f"{n:4}: ENDPRIM IMM[0].xxxx", f"{n + 1:4}: END"]
    return "\n".join(lines) + "\n"


__all__ = ["SEMANTICS", "PASSTHROUGH", "emulated", "output", "zero_output", "gs_input", "layer_gs_tokens"]
