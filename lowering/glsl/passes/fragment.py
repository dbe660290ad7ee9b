"""Fragment-shader variant passes: two-sided color, sprite coordinates, stipple,
window rectangles, antialiased points, color clamping, alpha test.

Each function is one row of ``passes.PASSES`` (see there for the hooks).
The rules, and where they come from:

* **Two-sided color** (``two_side``, Gallium's light_twoside): a COLOR[n]
  input reads ``gl_FrontFacing ? COLOR[n] : BCOLOR[n]``.  The BCOLOR[n]
  varying is declared with COLOR[n]'s qualifiers; the last vertex stage
  (same key bit) declares it and, when the shader writes no BCOLOR[n],
  copies COLOR[n] into it -- Mesa's draw module likewise keeps the front
  color for back faces when there is no back color (draw_pipe_twoside.c).
* **Point-sprite coordinates** (``sprite_coord_enable`` / ``_mode``): bit n
  replaces GENERIC[n] -- TEXCOORD[n] in a shader that declares TEXCOORD
  inputs, since only a frontend for a PIPE_CAP_TGSI_TEXCOORD driver emits
  those (screen.rst) -- with ``(s, t, 0, 1)`` from ``gl_PointCoord``.
  Gallium's UPPER_LEFT puts t = 0 at the *smallest* window y (row 0; see
  llvmpipe's lp_setup_point.c and the mode swap st/mesa does for FBOs),
  while GL's ``gl_PointCoord`` (GL_POINT_SPRITE_COORD_ORIGIN left at its
  default UPPER_LEFT) has t = 0 at the largest GL window y.  glpipe maps
  window y one to one (docs/coordinates.md), so UPPER_LEFT reads
  ``1 - gl_PointCoord.y`` and LOWER_LEFT ``gl_PointCoord.y``; ``y_flip``
  (GL rows mirrored) swaps the two.
* **Polygon stipple** (``poly_stipple``): fragment (x, y) in Gallium window
  coordinates survives when bit ``31 - x % 32`` of row ``y % 32`` is set --
  the most significant bit is the leftmost pixel, as u_pstipple.c builds
  its 32x32 texture from pipe_poly_stipple and as glPolygonStipple packs
  bytes.  Rows come from ``sysvals.stipple`` (row r = ``stipple[r / 4][r % 4]``).
* **Window rectangles** (``window_rectangles``, ``_include``): the first
  ``window_rectangles`` entries of ``sysvals.window_rect`` (x, y, width,
  height; min inclusive, max exclusive as pipe_scissor_state).  Exclusive
  mode discards a fragment inside any of them, inclusive mode one outside
  all of them -- so inclusive with none discards everything (context.rst
  set_window_rectangles, GL_EXT_window_rectangles).
* **Antialiased points** (``point_smooth``; the context sets it for point
  drawing only): Gallium's point_smooth turns the square point into a circle
  of diameter point size (cso/rasterizer.rst; Mesa's draw_pipe_aapoint.c
  kills fragments outside it and scales alpha by coverage at its edge).
  The pass measures the fragment centre's distance ``d`` from the point
  centre in pixels -- ``(gl_PointCoord - 0.5) / fwidth(gl_PointCoord)``:
  gl_PointCoord runs 0..1 across the point's size in pixels, so its
  per-pixel step is ``1 / size``, which also holds for per-vertex sizes --
  and takes coverage = ``clamp(size / 2 + 0.5 - d, 0, 1)``: a linear edge
  one pixel wide centred on the circle, the fraction of a pixel-wide box
  inside the edge.  Coverage 0 is discarded in the prologue (GL produces no
  such fragment, so it must not store to images); the rest multiply the
  alpha of every float COLOR output at the end, after the clamp and before
  the alpha test (GL 2.1 section 3.12 applies coverage to the shader's
  output, and the alpha test is a per-fragment operation after it).  The
  point is not enlarged: GL draws the square of the point size, so a
  fragment whose centre lies outside the square (coverage < 0.5, only
  possible for points off the pixel grid) is not drawn.
* **Color clamping** (``clamp_fragment_color``): every float COLOR output
  (``VariantKey.color_output_types``) is clamped to [0, 1]; integer outputs
  are left alone.
* **Alpha test** (``alpha_func``): ``COLOR[0].a <func> sysvals.alpha_ref.x``
  or discard, after the clamp (GL order: the test sees the clamped color).
  Skipped when the shader has no COLOR[0] output or color buffer 0 is an
  integer format (GL skips the test for integer draw buffer 0).

Stipple, window rectangles and the point coverage run first thing in
``main`` (GL and Gallium apply them before the fragment shader, so a killed
fragment must not store to images; ``fwidth`` also needs the uniform control
flow there); clamp, point coverage and alpha test run before every return.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..reflection import VaryingInfo
from ..varyings import varying_block, varying_name
from ..sysval_block import INSTANCE_NAME
from ..variant import (PIPE_FUNC_EQUAL, PIPE_FUNC_GEQUAL, PIPE_FUNC_GREATER, PIPE_FUNC_LEQUAL, PIPE_FUNC_LESS,
                      PIPE_FUNC_NEVER, PIPE_FUNC_NOTEQUAL)
from ..views import VectorView

# PIPE_FUNC_* -> the GLSL comparison "alpha <op> ref" that lets the fragment pass
# (NEVER and ALWAYS have no comparison: discard always / no pass at all).
ALPHA_COMPARISONS = {
    PIPE_FUNC_LESS: "<", PIPE_FUNC_EQUAL: "==", PIPE_FUNC_LEQUAL: "<=", PIPE_FUNC_GREATER: ">",
    PIPE_FUNC_NOTEQUAL: "!=", PIPE_FUNC_GEQUAL: ">=",
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
    io._declare(varying_block("in", back, qual))      # same qualifiers: both are "the" color
    io._record_input(VaryingInfo("IN", index, semantic, sidx, front, interpolation=interp,
                                 sample_location=loc, xfb_name=front))
    local = f"glp_two_side_color_{sidx}"
    _pass_global(em, f"vec4 {local};", f"{local} = gl_FrontFacing ? {front} : {back};")
    em.pass_state.setdefault("two_sided", {})[local] = (front, back)
    return VectorView(local, "float", writable=False)


def two_sided_pair(em, text: str) -> Optional[Tuple[str, str]]:
    """(front, back) varyings behind a two-sided COLOR input view ``text`` (for INTERP_*)."""
    return em.pass_state.get("two_sided", {}).get(text)


def sprite_semantic(em) -> str:
    """The semantic sprite_coord_enable's bits refer to in this shader."""
    for d in em.decls.inputs.values():
        if d.semantic == "TEXCOORD":
            return "TEXCOORD"
    return "GENERIC"


def sprite_t(em) -> str:
    """GLSL for the sprite t coordinate in Gallium's orientation (see the module docstring)."""
    upper_left = em.key.sprite_coord_mode == PIPE_SPRITE_COORD_UPPER_LEFT
    # t = 0 at the smallest Gallium window y: opposite to GL's gl_PointCoord unless
    # the window-system flip has already mirrored GL's rows.
    return "1.0 - gl_PointCoord.y" if upper_left != em.key.y_flip else "gl_PointCoord.y"


def sprite_coord_input(io, index: int, decl, semantic: str, sidx: int):
    """GENERIC[n] / TEXCOORD[n] with bit n set -> (s, t, 0, 1) of the point sprite."""
    em = io.em
    if semantic != sprite_semantic(em) or sidx >= 32 or not (em.key.sprite_coord_enable >> sidx) & 1:
        return None
    _pass_global(em, f"vec4 {SPRITE_COORD};",
                 f"{SPRITE_COORD} = vec4(gl_PointCoord.x, {sprite_t(em)}, 0.0, 1.0);")
    io._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_PointCoord", builtin=True))
    return VectorView(SPRITE_COORD, "float", writable=False)


# ---------------------------------------------------------------------------
# prologue: stipple and window rectangles
# ---------------------------------------------------------------------------

def window_position(em) -> Tuple[List[str], str]:
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


def polygon_stipple(em) -> List[str]:
    """Discard the fragment where the stipple pattern bit is 0."""
    em.use_sysvals()
    em.uses_discard = True
    lines, pos = window_position(em)
    return lines + [
        "// polygon stipple: row y % 32, bit 31 - x % 32 (the MSB is the leftmost pixel)",
        f"uint glp_stipple_row = {INSTANCE_NAME}.stipple[({pos}.y & 31) >> 2][{pos}.y & 3];",
        f"if (((glp_stipple_row >> uint(31 - ({pos}.x & 31))) & 1u) == 0u) discard;",
    ]


def window_rectangles(em) -> List[str]:
    """Discard per the window rectangles (see the module docstring)."""
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


def point_coverage(em) -> List[str]:
    """``glp_point_coverage``: the fragment's coverage of the round point;
    discard where it is 0 (see the module docstring)."""
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

def clamp_fragment_colors(em) -> List[str]:
    """Clamp every float COLOR output to [0, 1]."""
    return [f"{name} = clamp({name}, 0.0, 1.0);" for sidx, name in sorted(em.io.color_outputs.items())
            if em.key.color_type(sidx) == "float"]


def apply_point_coverage(em) -> List[str]:
    """Multiply the alpha of every float COLOR output by the point coverage."""
    return [f"{name}.a *= {POINT_COVERAGE};" for sidx, name in sorted(em.io.color_outputs.items())
            if em.key.color_type(sidx) == "float"]


def alpha_test(em) -> List[str]:
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


__all__ = ["two_sided_color_input", "two_sided_pair", "sprite_coord_input", "sprite_semantic", "sprite_t",
           "window_position", "polygon_stipple", "window_rectangles", "point_coverage", "clamp_fragment_colors",
           "apply_point_coverage", "alpha_test", "ALPHA_COMPARISONS"]
