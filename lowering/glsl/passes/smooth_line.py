"""Antialiased line variant passes (``VariantKey.line_smooth``): the GS
feeding the rasterizer draws every line segment as a quad of triangles
around it, and the FS multiplies the colour's alpha by the fragment's
coverage of the line's rectangle.

Used where the host's own GL_LINE_SMOOTH must not be (the host quirk
``smooth_line_crash``, glpipe/host/quirks.py).  GL's antialiased line (GL 4.5
§14.5.2) is the rectangle of width w centred on the segment, and a
fragment's coverage is the area of its pixel square inside it.  The FS
computes the pixel's area between the rectangle's two edges and its area
between its two ends exactly (the area of a unit square on one side of a
straight edge is a closed form of the edge's distance and angle) and
multiplies them: the area itself, except in a pixel where an edge meets an
end.  The quad is the rectangle grown by a pixel's reach on every side.

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Antialiased lines).
"""

from __future__ import annotations

from ..sysval_block import INSTANCE_NAME
from .cull import cull_as_clip
from .fragment import multiply_alpha
from .last_pixel import saved_outputs
from .stipple import COUNTER, counter_at_emit

# Vertices the GS may emit per vertex of the shader: the vertex itself (a
# lone vertex the next segment's EndPrimitive drops) and the four corners
# of the segment it ends (stages.py multiplies max_vertices).
VERTEX_FACTOR = 5
VARYING = "glp_aa_line"  # noperspective vec4: (across, along) from the centre, (w/2, l/2)
SLOPE = "glp_aa_slope"  # noperspective vec2: the segment direction's larger and smaller |component|
COVERAGE = "glp_aa_coverage"
# Components each emitted vertex adds to the GS output (the two varyings).
EXTRA_COMPONENTS = 6
# GS file-scope state (EMIT may sit in a subroutine): this vertex's and the
# previous one's position as the shader wrote it, stipple counters, whether
# the strip has a vertex yet.  Saved outputs are glp_aa_cur* / glp_aa_prev*.
_CUR, _PREV = "glp_aa_cur", "glp_aa_prev"
_STARTED = "glp_aa_started"
# A vertex closer than this to w = 0 is moved along the segment to it: the
# window position of w <= 0 is meaningless, and GL clips all of it anyway.
_W_MIN = "1e-6"


def _saved(em) -> list[tuple]:
    """(GLSL type, suffix, text) of every output to carry from one vertex to
    the next: what last_pixel saves, the locals (CLIPVERTEX, EDGEFLAG: the
    user-plane pass reads them per vertex) and the stipple counter."""
    # (the position is saved apart, _CUR_pos: the quad's geometry reads it)
    out = [(t, suffix, text) for t, suffix, text in saved_outputs(em, prefix="") if text != "gl_Position"]
    out += [("vec4", f"l{index}", name) for index, name in sorted(em.io.local_outputs.items())]
    if em.key.line_stipple:
        out.append(("float", "count", COUNTER))
    return out


def _position_index(em):
    for index, decl in em.decls.outputs.items():
        if em.decls.semantic_of(decl, index)[0] == "POSITION":
            return index
    return None


def declare_state(em) -> None:
    """GS: the quad varying, the strip state and both vertices' saved outputs."""
    em.io._declare(f"noperspective out vec4 {VARYING};")
    em.io._declare(f"noperspective out vec2 {SLOPE};")
    em.global_decls.append(f"bool {_STARTED};")
    em.global_decls += [f"vec4 {_CUR}_pos;", f"vec4 {_PREV}_pos;"]
    for t, suffix, _ in _saved(em):
        em.global_decls += [f"{t} {_CUR}{suffix};", f"{t} {_PREV}{suffix};"]
    em.prologue += [f"{_STARTED} = false;", f"{_PREV}_pos = vec4(0.0);"]


def save_vertex(em) -> list[str]:
    """GS, an early ``vertex_end`` row: the vertex's outputs as the shader
    wrote them, before the rows that map it to the host's clip space."""
    if _position_index(em) is None:
        return []
    out = ["// line_smooth: this vertex's outputs as written"]
    out += [f"{_CUR}{suffix} = {text};" for t, suffix, text in _saved(em) if suffix != "count"]
    out.append(f"{_CUR}_pos = gl_Position;")
    return out


def _corner(em, end: str, mix_from: str, t: str, across: int, along: int) -> list[str]:
    """One corner of the quad: the outputs of ``end`` (moved to ``t`` of the
    way towards ``mix_from`` when that end was clipped to w > 0), its
    position moved out by the reach of a pixel (``glp_aa_ext``) along the
    segment (``along``: -1 at its start, 1 at its end) and across it
    beyond the half width (``across``: -1 or 1), the other vertex_end rows
    re-run for it, the quad varyings, EmitVertex."""
    s = INSTANCE_NAME
    lines = []
    for typ, suffix, text in _saved(em):
        if suffix == "count":
            # The stipple counter (major-axis pixels) at the end, carried on
            # along the extension, so it stays linear along the quad.
            lines.append(f"{text} = {end}count + {float(along)!r} * glp_aa_ext * glp_aa_ab.x;")
        elif typ.startswith(("vec", "float")):
            lines.append(f"{text} = {t} > 0.0 ? mix({end}{suffix}, {mix_from}{suffix}, {t}) : {end}{suffix};")
        else:
            lines.append(f"{text} = {end}{suffix};")
    lines += [
        f"gl_Position = {t} > 0.0 ? mix({end}_pos, {mix_from}_pos, {t}) : {end}_pos;",
        (
            f"gl_Position.xy += (glp_aa_dir * {float(along)!r} * glp_aa_ext + glp_aa_n * {float(across)!r}"
            f" * (glp_aa_hw + glp_aa_ext)) / {s}.viewport_scale.xy * gl_Position.w;"
        ),
    ]
    lines += em.io.local_output_copies + cull_as_clip(em)
    for row in em.pass_rows("vertex_end"):
        if row.run not in (save_vertex, emit_quad, counter_at_emit):
            lines += row.run(em)
    lines += [
        (
            f"{VARYING} = vec4({float(across)!r} * (glp_aa_hw + glp_aa_ext), {float(along)!r}"
            f" * (glp_aa_hl + glp_aa_ext), glp_aa_hw, glp_aa_hl);"
        ),
        f"{SLOPE} = glp_aa_ab;",
        "EmitVertex();",
    ]
    return ["{"] + ["    " + line for line in lines] + ["}"]


def emit_quad(em) -> list[str]:
    """GS, the last ``vertex_end`` row: end the strip (dropping the lone
    vertex the shader's previous EmitVertex added), then, when this vertex
    ends a segment, the segment's quad as a 4-vertex strip of its own."""
    if _position_index(em) is None:
        return []
    s = INSTANCE_NAME
    em.use_sysvals()
    half = float(em.key.line_smooth) / 2.0
    keep = [f"{_CUR}count = {COUNTER};"] if em.key.line_stipple else []
    a_side, b_side = "glp_aa_ta", "glp_aa_tb"
    body = [
        f"float glp_aa_wa = {_PREV}_pos.w, glp_aa_wb = {_CUR}_pos.w;",
        f"float {a_side} = glp_aa_wa < {_W_MIN} ? ({_W_MIN} - glp_aa_wa) / (glp_aa_wb - glp_aa_wa) : 0.0;",
        f"float {b_side} = glp_aa_wb < {_W_MIN} ? ({_W_MIN} - glp_aa_wb) / (glp_aa_wa - glp_aa_wb) : 0.0;",
        f"vec4 glp_aa_a = {a_side} > 0.0 ? mix({_PREV}_pos, {_CUR}_pos, {a_side}) : {_PREV}_pos;",
        f"vec4 glp_aa_b = {b_side} > 0.0 ? mix({_CUR}_pos, {_PREV}_pos, {b_side}) : {_CUR}_pos;",
        f"vec2 glp_aa_d = (glp_aa_b.xy / glp_aa_b.w - glp_aa_a.xy / glp_aa_a.w) * {s}.viewport_scale.xy;",
        "float glp_aa_len = length(glp_aa_d);",
        "if (glp_aa_len > 0.0) {   // (a segment of length 0 covers no area)",
        "    vec2 glp_aa_dir = glp_aa_d / glp_aa_len;",
        "    vec2 glp_aa_n = vec2(-glp_aa_dir.y, glp_aa_dir.x);",
        "    vec2 glp_aa_ab = vec2(max(abs(glp_aa_dir.x), abs(glp_aa_dir.y)), min(abs(glp_aa_dir.x), abs(glp_aa_dir.y)));",
        "    float glp_aa_ext = 0.5 * (glp_aa_ab.x + glp_aa_ab.y);   // a pixel's reach across an edge",
        f"    float glp_aa_hw = {half!r};   // half the width",
        "    float glp_aa_hl = glp_aa_len * 0.5;",
        *[
            "    " + line
            for end, other, t, along in ((_PREV, _CUR, a_side, -1), (_CUR, _PREV, b_side, 1))
            for across in (-1, 1)
            for line in _corner(em, end, other, t, across, along)
        ],
        "    EndPrimitive();",
        "}",
    ]
    return (
        ["// line_smooth: the segment ending here as a quad (its own strip)", "EndPrimitive();"]
        + keep
        + [f"if ({_STARTED} && ({_PREV}_pos.w >= {_W_MIN} || {_CUR}_pos.w >= {_W_MIN})) {{"]
        + ["    " + line for line in body]
        + ["}"]
        + [f"{_PREV}{suffix} = {_CUR}{suffix};" for _, suffix, _ in _saved(em)]
        + [f"{_PREV}_pos = {_CUR}_pos;", f"{_STARTED} = true;"]
    )


def reset_at_end_primitive(em) -> list[str]:
    """GS, at each stream-0 EndPrimitive: the next vertex starts a strip."""
    return [f"{_STARTED} = false;   // line_smooth: a new strip"]


def declare_input(em) -> None:
    """FS: the quad varyings (noperspective: linear in window space) and the
    coverage of a pixel by a half-plane."""
    em.io._declare(f"noperspective in vec4 {VARYING};")
    em.io._declare(f"noperspective in vec2 {SLOPE};")
    # The area of the unit square on the inner side of an edge at signed
    # distance t from its centre, for an edge normal with |components| a >= b
    # (a^2 + b^2 = 1): 0 up to -(a + b)/2, a quadratic up to -(a - b)/2,
    # linear (slope 1/a) up to (a - b)/2, then quadratic up to (a + b)/2.
    em.global_decls += [
        "float glp_aa_cover(float t, vec2 ab)",
        "{",
        "    float e1 = 0.5 * (ab.x - ab.y), e2 = 0.5 * (ab.x + ab.y);",
        "    if (t <= -e2) return 0.0;",
        "    if (t >= e2) return 1.0;",
        "    if (t < -e1) return (t + e2) * (t + e2) / (2.0 * ab.x * ab.y);",
        "    if (t > e1) return 1.0 - (e2 - t) * (e2 - t) / (2.0 * ab.x * ab.y);",
        "    return 0.5 + t / ab.x;",
        "}",
    ]


def coverage(em) -> list[str]:
    """FS prologue: the fragment's coverage of the line's rectangle, the
    product of the areas between its two edges and between its two ends;
    discard where it is 0 (the quad's rim)."""
    em.uses_discard = True
    v, ab = VARYING, SLOPE
    return [
        "// antialiased line: the pixel's area between the edges times its area between the ends",
        (
            f"float {COVERAGE} = (glp_aa_cover({v}.z - {v}.x, {ab}) - glp_aa_cover(-{v}.z - {v}.x, {ab}))"
            f" * (glp_aa_cover({v}.w - {v}.y, {ab}) - glp_aa_cover(-{v}.w - {v}.y, {ab}));"
        ),
        f"if ({COVERAGE} <= 0.0) discard;",
    ]


def apply_coverage(em) -> list[str]:
    """FS end: multiply the alpha of every float COLOR output by the coverage."""
    return multiply_alpha(em, COVERAGE)


__all__ = [
    "COVERAGE",
    "EXTRA_COMPONENTS",
    "SLOPE",
    "VARYING",
    "VERTEX_FACTOR",
    "apply_coverage",
    "coverage",
    "declare_input",
    "declare_state",
    "emit_quad",
    "reset_at_end_primitive",
    "save_vertex",
]
