"""Polygon edge flags for polygons drawn as lines or points
(``VariantKey.edge_flags`` / ``VariantKey.edge_fill``).

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Polygon edges).
"""

from __future__ import annotations

from ..sysval_block import INSTANCE_NAME
from .stipple import INSTANCE, bases_unit

EDGE = "glp_edge"
MASK = "glp_edge_mask"
VERTEX_FLAG = "glp_vertex_edgeflag"
MASKS = "glp_edge_masks"
_CORNER, _BITS = "glp_edge_corner", "glp_edge_bits"

EDGE_FLAGS_MASKS = 1  # GS: the boundary masks of translated primitives (buffer texture)
EDGE_FLAGS_VERTEX = 2  # VS: EDGEFLAG out; GS: AND the vertex edge flags
EDGE_FLAGS_STIPPLE = 4  # VS: gl_InstanceID out; GS: per-edge stipple counters (bases + mask from a buffer texture)
STIPPLE = "glp_edge_stipple"
STIPPLE_BASES = "glp_edge_stipple_bases"
_WINDOW, _LENGTH = "glp_es_window", "glp_es_length"

# PIPE_POLYGON_MODE_* (p_defines.h), as edge_fill holds them.
POLYGON_MODE_FILL, POLYGON_MODE_LINE, POLYGON_MODE_POINT = 0, 1, 2


def masks_unit(layout) -> int:
    """The texture unit of the boundary-mask buffer texture: the GEOM
    stage's last unit, as the line stipple's segment bases (never both in
    one draw: those are for lines, these for polygons; the generated GS is
    only there when no Gallium GS is bound, so the unit is free)."""
    return bases_unit(layout)


# -- VS -----------------------------------------------------------------------------


def _edgeflag_local(em):
    """The local holding the VS's EDGEFLAG output, or None if it declares none."""
    for index, decl in em.decls.outputs.items():
        if em.decls.semantic_of(decl, index)[0] == "EDGEFLAG":
            return em.io.local_outputs.get(index)
    return None


def declare_vertex_flag(em) -> None:
    """VS: the edge flag output the generated GS reads."""
    em.io._declare(f"out float {VERTEX_FLAG};")


def vertex_flag_at_end(em) -> list[str]:
    """VS epilogue: the EDGEFLAG output's x (1.0, every edge drawn, without one)."""
    local = _edgeflag_local(em)
    value = f"{local}.x" if local is not None else "1.0"
    return [f"{VERTEX_FLAG} = {value};   // polygon edges: the flag of the edge starting here"]


# -- GS -----------------------------------------------------------------------------


def declare_gs(em) -> None:
    """GS: the corner weights and edge mask outputs, their inputs, the state."""
    em.io._declare(f"noperspective out vec3 {EDGE};")
    em.io._declare(f"flat out int {MASK};")
    em.global_decls += [f"int {_CORNER};", f"int {_BITS};"]
    em.prologue += [f"{_CORNER} = 0;", f"{_BITS} = 7;"]
    if em.key.edge_flags & EDGE_FLAGS_MASKS:
        unit = masks_unit(em.layout)
        qual = f"layout(binding = {unit}) " if em.binding_qualifier() else ""
        em.global_decls.append(f"{qual}uniform usamplerBuffer {MASKS};")
        em.sampler_units[MASKS] = unit
        em.prologue.append(f"{_BITS} &= int(texelFetch({MASKS}, gl_PrimitiveIDIn).r);")
    if em.key.edge_flags & EDGE_FLAGS_VERTEX:
        em.io._declare(f"in float {VERTEX_FLAG}[];")
        em.prologue += [f"if ({VERTEX_FLAG}[{j}] == 0.0) {_BITS} &= ~{1 << j};" for j in range(3)]
    if em.key.edge_flags & EDGE_FLAGS_STIPPLE:
        _declare_gs_stipple(em)


def _declare_gs_stipple(em) -> None:
    """GS of a stippled LINE polygon: the per-edge counters.  The texel at
    ``instance * sysvals.line_stipple.z + gl_PrimitiveIDIn`` holds the
    counter at the start of each edge (the polygon's drawn edges before it,
    in Mesa's draw-module order: glpipe/raster/polygon_edges.py) and the edge mask
    (it replaces the R8UI masks).  Edge j's counter runs from its start
    value + 0.5 at corner j to + its major-axis window length at corner
    j + 1; a line interpolates it exactly like the line stipple's."""
    unit = masks_unit(em.layout)
    qual = f"layout(binding = {unit}) " if em.binding_qualifier() else ""
    em.global_decls.append(f"{qual}uniform samplerBuffer {STIPPLE_BASES};")
    em.sampler_units[STIPPLE_BASES] = unit
    em.use_sysvals()
    s = INSTANCE_NAME
    em.io._declare(f"noperspective out vec3 {STIPPLE};")
    em.io._declare(f"flat in int {INSTANCE}[];")
    em.global_decls += [f"vec4 {STIPPLE_BASES}_t;", f"vec3 {_LENGTH};"]
    em.prologue += [
        f"{STIPPLE_BASES}_t = texelFetch({STIPPLE_BASES}, {INSTANCE}[0] * int({s}.line_stipple.z) + gl_PrimitiveIDIn);",
        f"{_BITS} &= int({STIPPLE_BASES}_t.w);",
        "{   // edge stipple: each edge's major-axis window length (viewport 0's transform)",
        f"    vec2 {_WINDOW}[3];",
        "    for (int i = 0; i < 3; i++)",
        f"        {_WINDOW}[i] = gl_in[i].gl_Position.xy / gl_in[i].gl_Position.w * {s}.viewport_scale.xy"
        f" + {s}.viewport_translate.xy;",
        "    for (int j = 0; j < 3; j++) {",
        f"        vec2 d = abs({_WINDOW}[(j + 1) % 3] - {_WINDOW}[j]);",
        f"        {_LENGTH}[j] = max(d.x, d.y);",
        "    }",
        "}",
    ]


def corner_at_emit(em) -> list[str]:
    """GS, before each EmitVertex: this corner's weights and the mask (and
    the edge counters: edge j starts here, ends here, or does not touch it)."""
    out = [
        f"{EDGE} = vec3(equal(ivec3({_CORNER}), ivec3(0, 1, 2)));   // polygon edges: corner weights",
        f"{MASK} = {_BITS};",
    ]
    if em.key.edge_flags & EDGE_FLAGS_STIPPLE:
        b = f"{STIPPLE_BASES}_t"
        out += [
            "for (int j = 0; j < 3; j++)",
            f"    {STIPPLE}[j] = {_CORNER} == j ? {b}[j] + 0.5"
            f" : ({_CORNER} == (j + 1) % 3 ? {b}[j] + {_LENGTH}[j] + 0.5 : 0.0);",
        ]
    return out + [f"{_CORNER} += 1;"]


def declare_instance_output(em) -> None:
    """VS of a stippled LINE-polygon draw: gl_InstanceID out (per-instance counters)."""
    em.io._declare(f"flat out int {INSTANCE};")


def instance_at_end(em) -> list[str]:
    """VS epilogue: gl_InstanceID on to the generated GS."""
    return [f"{INSTANCE} = gl_InstanceID;   // edge stipple: the counters are per instance"]


# -- FS -----------------------------------------------------------------------------


def declare_fs(em) -> None:
    """FS: the corner weights and the edge mask (and the edge counters)."""
    em.io._declare(f"noperspective in vec3 {EDGE};")
    em.io._declare(f"flat in int {MASK};")


def edge_kill(em) -> list[str]:
    """FS prologue: kill the fragments of edges (LINE) and vertices (POINT)
    whose edge flag is off.  A fragment exactly at a corner (weights one-hot)
    belongs to the edge leaving that corner in both modes: with GL's
    diamond-exit rule an edge draws its first pixel, not its last, so a
    corner pixel comes from the edge that starts there (the one arriving
    draws it only if that rule is off, and then GL draws it twice anyway).
    LINE leaves that edge in ``glp_edge_j`` (``edge_stipple_kill``)."""
    em.uses_discard = True
    corner = (
        f"int glp_edge_k = {EDGE} == vec3(1.0, 0.0, 0.0) ? 0 : ({EDGE} == vec3(0.0, 1.0, 0.0) ? 1"
        f" : ({EDGE} == vec3(0.0, 0.0, 1.0) ? 2 : -1));"
    )
    if em.key.edge_fill == POLYGON_MODE_POINT:
        return [
            "// polygon vertices drawn as points: only those starting an edge whose flag is set",
            corner,
            f"if (glp_edge_k < 0 || (({MASK} >> glp_edge_k) & 1) == 0) discard;",
        ]
    out = [
        "// polygon edges drawn as lines: only those whose flag is set; a corner goes with the edge leaving it,",
        "// a fragment on an edge (its opposite corner's weight exactly 0) with the first such edge drawn",
        corner,
        f"int glp_edge_j = glp_edge_k >= 0 ? glp_edge_k : (({EDGE}.z == 0.0 && ({MASK} & 1) != 0) ? 0"
        f" : (({EDGE}.x == 0.0 && ({MASK} & 2) != 0) ? 1 : (({EDGE}.y == 0.0 && ({MASK} & 4) != 0) ? 2 : -1)));",
        f"if (glp_edge_j < 0 || (({MASK} >> glp_edge_j) & 1) == 0) discard;",
    ]
    return out


def declare_stipple_input(em) -> None:
    """FS of stippled LINE polygons: the edge counters."""
    em.io._declare(f"noperspective in vec3 {STIPPLE};")


def edge_stipple_kill(em) -> list[str]:
    """FS prologue, after ``edge_kill`` (whose ``glp_edge_j`` is the edge the
    fragment belongs to): the line stipple along that edge."""
    em.use_sysvals()
    s = INSTANCE_NAME
    return [
        "// line stipple along that edge: bit (s / (factor + 1)) % 16 (the counter is s + 0.5)",
        f"int glp_es_k = int(floor({STIPPLE}[glp_edge_j] / float({s}.line_stipple.y + 1u)));",
        f"if ((({s}.line_stipple.x >> uint(glp_es_k & 15)) & 1u) == 0u) discard;",
    ]


__all__ = [
    "EDGE",
    "EDGE_FLAGS_MASKS",
    "EDGE_FLAGS_STIPPLE",
    "EDGE_FLAGS_VERTEX",
    "MASK",
    "MASKS",
    "STIPPLE",
    "STIPPLE_BASES",
    "POLYGON_MODE_FILL",
    "POLYGON_MODE_LINE",
    "POLYGON_MODE_POINT",
    "VERTEX_FLAG",
    "corner_at_emit",
    "declare_fs",
    "declare_stipple_input",
    "edge_stipple_kill",
    "declare_gs",
    "declare_vertex_flag",
    "edge_kill",
    "declare_instance_output",
    "instance_at_end",
    "masks_unit",
    "vertex_flag_at_end",
]
