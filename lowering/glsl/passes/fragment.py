"""Fragment-shader variant passes: two-sided color, sprite coordinates, stipple,
window rectangles, antialiased points, color clamping, alpha test.

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Fragment passes).
"""

from __future__ import annotations

from ..reflection import VaryingInfo
from ..sysval_block import INSTANCE_NAME
from ..variant import (
    PIPE_FUNC_EQUAL,
    PIPE_FUNC_GEQUAL,
    PIPE_FUNC_GREATER,
    PIPE_FUNC_LEQUAL,
    PIPE_FUNC_LESS,
    PIPE_FUNC_NEVER,
    PIPE_FUNC_NOTEQUAL,
)
from ..varyings import varying_block, varying_name
from ..views import VectorView

# PIPE_FUNC_* -> the GLSL comparison "alpha <op> ref" that lets the fragment pass
# (NEVER and ALWAYS have no comparison: discard always / no pass at all).
ALPHA_COMPARISONS = {
    PIPE_FUNC_LESS: "<",
    PIPE_FUNC_EQUAL: "==",
    PIPE_FUNC_LEQUAL: "<=",
    PIPE_FUNC_GREATER: ">",
    PIPE_FUNC_NOTEQUAL: "!=",
    PIPE_FUNC_GEQUAL: ">=",
}

PIPE_SPRITE_COORD_UPPER_LEFT = 0
PIPE_SPRITE_COORD_LOWER_LEFT = 1

WINDOW_POS = "glp_window_pos"
SPRITE_COORD = "glp_sprite_coord"
POINT_COVERAGE = "glp_point_coverage"


def _pass_global(em, decl: str, init: str) -> None:
    """A file-scope variable assigned at the top of ``main``: globals, because
    subroutines (``glp_sub_N``) read inputs too; GLSL forbids a non-constant
    initializer at file scope, hence the separate assignment."""
    if decl not in em.global_decls:
        em.global_decls.append(decl)
        em.prologue.append(init)


# ---------------------------------------------------------------------------
# fs_input: two-sided color, sprite coordinates
# ---------------------------------------------------------------------------


def two_sided_color_input(io, index: int, decl, semantic: str, sidx: int):
    """COLOR[sidx] -> ``gl_FrontFacing ? glp_color_n : glp_bcolor_n`` (None for other semantics)."""
    if semantic != "COLOR":
        return None
    em = io.em
    front, back = varying_name("COLOR", sidx), varying_name("BCOLOR", sidx)
    qual, interp, loc = io.interpolation(decl, semantic)
    io._declare(varying_block("in", front, qual))
    io._declare(varying_block("in", back, qual))  # same qualifiers: both are "the" color
    io._record_input(
        VaryingInfo("IN", index, semantic, sidx, front, interpolation=interp, sample_location=loc, xfb_name=front)
    )
    local = f"glp_two_side_color_{sidx}"
    # (the facing of an antialiased line's quad is front: passes/smooth_line.py)
    _pass_global(em, f"vec4 {local};", f"{local} = {front_facing(em.key)} ? {front} : {back};")
    em.pass_state.setdefault("two_sided", {})[local] = (front, back)
    return VectorView(local, "float", writable=False)


def two_sided_pair(em, text: str) -> tuple[str, str] | None:
    """(front, back) varyings behind a two-sided COLOR input view ``text`` (for INTERP_*)."""
    return em.pass_state.get("two_sided", {}).get(text)


def sprite_semantic(em) -> str:
    """The semantic sprite_coord_enable's bits refer to in this shader."""
    for d in em.decls.inputs.values():
        if d.semantic == "TEXCOORD":
            return "TEXCOORD"
    return "GENERIC"


def sprite_t(em) -> str:
    """GLSL for the sprite t coordinate in Gallium's orientation (docs/lowering.md "Variant passes")."""
    upper_left = em.key.sprite_coord_mode == PIPE_SPRITE_COORD_UPPER_LEFT
    # t = 0 at the smallest Gallium window y: opposite to GL's gl_PointCoord unless
    # the window-system flip has already mirrored GL's rows.
    return "1.0 - gl_PointCoord.y" if upper_left != em.key.y_flip else "gl_PointCoord.y"


def sprite_coord_input(io, index: int, decl, semantic: str, sidx: int):
    """GENERIC[n] / TEXCOORD[n] with bit n set -> (s, t, 0, 1) of the point sprite."""
    em = io.em
    if semantic != sprite_semantic(em) or sidx >= 32 or not (em.key.sprite_coord_enable >> sidx) & 1:
        return None
    _pass_global(em, f"vec4 {SPRITE_COORD};", f"{SPRITE_COORD} = vec4(gl_PointCoord.x, {sprite_t(em)}, 0.0, 1.0);")
    io._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_PointCoord", builtin=True))
    return VectorView(SPRITE_COORD, "float", writable=False)


# ---------------------------------------------------------------------------
# prologue: stipple and window rectangles
# ---------------------------------------------------------------------------


def window_position(em) -> tuple[list[str], str]:
    """(statements, name): ``ivec2 glp_window_pos``, the fragment's pixel in Gallium
    window coordinates, declared once.  ``floor`` gives the pixel whether or not
    the shader declared ``pixel_center_integer``; under ``y_flip`` GL's rows run
    the other way (row y is Gallium row fb_height - 1 - y)."""
    if em.pass_state.get("window_pos"):
        return [], WINDOW_POS
    em.pass_state["window_pos"] = True
    lines = [f"ivec2 {WINDOW_POS} = ivec2(floor(gl_FragCoord.xy));"]
    if em.key.y_flip:
        em.use_sysvals()
        lines.append(f"{WINDOW_POS}.y = int({INSTANCE_NAME}.fb_size.y) - 1 - {WINDOW_POS}.y;")
    return lines, WINDOW_POS


def polygon_stipple(em) -> list[str]:
    """Discard the fragment where the stipple pattern bit is 0."""
    em.use_sysvals()
    em.uses_discard = True
    lines, pos = window_position(em)
    return lines + [
        "// polygon stipple: row y % 32, bit 31 - x % 32 (the MSB is the leftmost pixel)",
        f"uint glp_stipple_row = {INSTANCE_NAME}.stipple[({pos}.y & 31) >> 2][{pos}.y & 3];",
        f"if (((glp_stipple_row >> uint(31 - ({pos}.x & 31))) & 1u) == 0u) discard;",
    ]


def window_rectangles(em) -> list[str]:
    """Discard per the window rectangles (docs/lowering.md "Variant passes")."""
    em.uses_discard = True
    count = em.key.window_rectangles
    include = em.key.window_rectangles_include
    if count == 0:
        # Reached only in inclusive mode (exclusive with none is no pass): nothing is inside.
        return ["discard;   // inclusive window rectangles, none given"]
    em.use_sysvals()
    lines, pos = window_position(em)
    rect = "glp_window_rect"
    return lines + [
        f"// window rectangles ({'inclusive' if include else 'exclusive'}): x, y, width, height",
        "bool glp_in_window_rect = false;",
        f"for (int glp_r = 0; glp_r < {count}; ++glp_r) {{",
        f"    ivec4 {rect} = {INSTANCE_NAME}.window_rect[glp_r];",
        f"    glp_in_window_rect = glp_in_window_rect || (all(greaterThanEqual({pos}, {rect}.xy))"
        f" && all(lessThan({pos}, {rect}.xy + {rect}.zw)));",
        "}",
        f"if ({'!' if include else ''}glp_in_window_rect) discard;",
    ]


def point_coverage(em) -> list[str]:
    """``glp_point_coverage``: the fragment's coverage of the round point;
    discard where it is 0 (docs/lowering.md "Variant passes")."""
    em.uses_discard = True
    return [
        "// antialiased point: coverage of the circle of diameter point size, 1-pixel linear edge",
        "vec2 glp_point_step = fwidth(gl_PointCoord);   // 1 / point size in each axis",
        "float glp_point_dist = length((gl_PointCoord - vec2(0.5)) / glp_point_step);   // pixels from the centre",
        f"float {POINT_COVERAGE} = clamp(0.5 / glp_point_step.x + 0.5 - glp_point_dist, 0.0, 1.0);",
        f"if ({POINT_COVERAGE} <= 0.0) discard;",
    ]


# ---------------------------------------------------------------------------
# fragment_end: clamp, point coverage, alpha test
# ---------------------------------------------------------------------------


def clamp_fragment_colors(em) -> list[str]:
    """Clamp every float COLOR output to [0, 1]."""
    return [
        f"{name} = clamp({name}, 0.0, 1.0);"
        for sidx, name in sorted(em.io.color_outputs.items())
        if em.key.color_type(sidx) == "float"
    ]


def multiply_alpha(em, coverage: str) -> list[str]:
    """Multiply the alpha of every float COLOR output by ``coverage`` (a
    GLSL float: antialiased points here, lines in passes/smooth_line.py)."""
    return [
        f"{name}.a *= {coverage};"
        for sidx, name in sorted(em.io.color_outputs.items())
        if em.key.color_type(sidx) == "float"
    ]


def apply_point_coverage(em) -> list[str]:
    """Multiply the alpha of every float COLOR output by the point coverage."""
    return multiply_alpha(em, POINT_COVERAGE)


def front_facing(key) -> str:
    """The FS's facing: GL's lines are always front-facing (GL 4.5 §14.6.1
    applies to polygons), and the quads that stand in for glpipe's
    antialiased lines (VariantKey.line_smooth, passes/smooth_line.py) may
    face either way, so the FS of such a draw reads ``true``."""
    return "true" if key.line_smooth else "gl_FrontFacing"


def alpha_test(em) -> list[str]:
    """``if (!(COLOR[0].a <op> ref)) discard;`` (NEVER: always discard)."""
    name = em.io.color_outputs.get(0)
    if name is None or em.key.color_type(0) != "float":
        return []
    em.uses_discard = True
    func = em.key.alpha_func
    if func == PIPE_FUNC_NEVER:
        return ["discard;   // alpha test NEVER"]
    em.use_sysvals()
    return [f"if (!({name}.a {ALPHA_COMPARISONS[func]} {INSTANCE_NAME}.alpha_ref.x)) discard;   // alpha test"]


__all__ = [
    "two_sided_color_input",
    "two_sided_pair",
    "sprite_coord_input",
    "sprite_semantic",
    "sprite_t",
    "window_position",
    "polygon_stipple",
    "window_rectangles",
    "point_coverage",
    "clamp_fragment_colors",
    "apply_point_coverage",
    "front_facing",
    "multiply_alpha",
    "alpha_test",
    "ALPHA_COMPARISONS",
]
