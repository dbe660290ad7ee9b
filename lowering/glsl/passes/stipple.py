"""Line stipple variant passes (``VariantKey.line_stipple``): a counter along
the line, emitted by the GS that feeds the rasterizer, and a fragment kill.

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Line stipple).
"""

from __future__ import annotations

from ..sysval_block import INSTANCE_NAME

COUNTER = "glp_line_stipple"
INSTANCE = "glp_ls_instance"
BASES = "glp_line_stipple_bases"
# GS file-scope state (EMIT may sit in a subroutine): the strip's running
# length, its start value, the previous vertex's window position, whether
# the strip has a vertex yet.
_LEN, _START, _PREV, _STARTED = "glp_ls_len", "glp_ls_start", "glp_ls_prev", "glp_ls_started"

LINE_STIPPLE_OFF, LINE_STIPPLE_STRIPS, LINE_STIPPLE_SEGMENT_BASES = 0, 1, 2


def bases_unit(layout) -> int:
    """The texture unit of the segment-base buffer texture: the GEOM stage's
    last unit.  The base lookup exists only in the generated GS, which the
    context inserts only when no Gallium GS is bound, so the unit is free."""
    stage = layout.stage("GEOM")
    return stage.tex_base + stage.tex_count - 1


def stipple_strip_state() -> list:
    """(GLSL type, name) of the GS's strip state the counter pass updates
    (passes/last_pixel.py keeps it across the extra vertex it emits)."""
    return [("float", _LEN), ("vec2", _PREV)]


def declare_counter_output(em) -> None:
    """GS: the counter output and the strip state (docs/lowering.md "Variant passes")."""
    em.io._declare(f"noperspective out float {COUNTER};")
    start = "0.5"
    if em.key.line_stipple == LINE_STIPPLE_SEGMENT_BASES:
        unit = bases_unit(em.layout)
        qual = f"layout(binding = {unit}) " if em.binding_qualifier() else ""
        em.global_decls.append(f"{qual}uniform samplerBuffer {BASES};")
        em.sampler_units[BASES] = unit
        em.use_sysvals()
        em.io._declare(f"flat in int {INSTANCE}[];")
        start = f"0.5 + texelFetch({BASES}, {INSTANCE}[0] * int({INSTANCE_NAME}.line_stipple.z) + gl_PrimitiveIDIn).x"
    em.global_decls += [f"float {_LEN};", f"float {_START};", f"vec2 {_PREV};", f"bool {_STARTED};"]
    em.prologue += [f"{_START} = {start};", f"{_LEN} = {_START};", f"{_STARTED} = false;", f"{_PREV} = vec2(0.0);"]


def counter_at_emit(em) -> list[str]:
    """GS, before each stream-0 EmitVertex: advance the counter by the
    major-axis length (window pixels) from the strip's previous vertex."""
    writes_position = any(
        em.decls.semantic_of(decl, index)[0] == "POSITION" for index, decl in em.decls.outputs.items()
    )
    if not writes_position:
        return [f"{COUNTER} = {_LEN};"]
    em.use_sysvals()
    s = INSTANCE_NAME
    return [
        "{   // line stipple: major-axis window distance along the strip",
        (f"    vec2 glp_ls_w = gl_Position.xy / gl_Position.w * {s}.viewport_scale.xy + {s}.viewport_translate.xy;"),
        f"    if ({_STARTED}) {{ vec2 glp_ls_d = abs(glp_ls_w - {_PREV}); {_LEN} += max(glp_ls_d.x, glp_ls_d.y); }}",
        f"    {_PREV} = glp_ls_w;",
        f"    {_STARTED} = true;",
        f"    {COUNTER} = {_LEN};",
        "}",
    ]


def reset_at_end_primitive(em) -> list[str]:
    """GS, at each stream-0 EndPrimitive: the next vertex starts a new strip."""
    return [f"{_STARTED} = false;", f"{_LEN} = {_START};   // line stipple: a new strip"]


def declare_instance_output(em) -> None:
    """VS of a draw whose generated GS reads segment bases: gl_InstanceID out."""
    em.io._declare(f"flat out int {INSTANCE};")


def instance_at_end(em) -> list[str]:
    """VS epilogue: pass gl_InstanceID on to the generated GS."""
    return [f"{INSTANCE} = gl_InstanceID;   // line stipple: the GS's segment bases are per instance"]


def declare_counter_input(em) -> None:
    """FS: the counter input (noperspective: it is linear in window space)."""
    em.io._declare(f"noperspective in float {COUNTER};")


def stipple_kill(em) -> list[str]:
    """FS prologue: discard where the pattern bit of the fragment's count is 0."""
    em.use_sysvals()
    em.uses_discard = True
    s = INSTANCE_NAME
    return [
        "// line stipple: bit (s / (factor + 1)) % 16 of the pattern (the counter is s + 0.5)",
        f"int glp_ls_k = int(floor({COUNTER} / float({s}.line_stipple.y + 1u)));",
        f"if ((({s}.line_stipple.x >> uint(glp_ls_k & 15)) & 1u) == 0u) discard;",
    ]


__all__ = [
    "BASES",
    "COUNTER",
    "LINE_STIPPLE_OFF",
    "LINE_STIPPLE_SEGMENT_BASES",
    "LINE_STIPPLE_STRIPS",
    "bases_unit",
    "counter_at_emit",
    "declare_counter_input",
    "declare_counter_output",
    "declare_instance_output",
    "instance_at_end",
    "reset_at_end_primitive",
    "stipple_kill",
    "stipple_strip_state",
]
