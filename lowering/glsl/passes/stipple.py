"""Line stipple variant passes (``VariantKey.line_stipple``): a counter along
the line, emitted by the GS that feeds the rasterizer, and a fragment kill.

The rule (GL 4.6 compatibility profile 14.5.2.2; Gallium cso/rasterizer.rst,
whose ``line_stipple_factor`` is GL's factor minus one): a counter ``s``
counts the fragments of a line along its major axis; fragment ``s`` is drawn
iff bit ``(s // (factor + 1)) % 16`` of the 16-bit pattern is 1.  ``s``
restarts at 0 for each independent segment and at the start of each strip,
and continues along a strip (and a loop's closing segment).

Core GL has no line stipple, so the variant computes ``s`` itself:

* **GS** (the last vertex stage; the context inserts a generated pass-through
  GS when the shaders have none, glpipe/line_stipple.py): before every
  stream-0 ``EmitVertex`` the vertex's *window* position is computed from
  ``gl_Position`` with viewport 0's Gallium transform (``sysvals.
  viewport_scale`` / ``viewport_translate``), and the output
  ``glp_line_stipple`` (``noperspective float``) is the strip's start value
  plus the sum of ``max(|dx|, |dy|)`` (the major-axis length in pixels) of
  the strip's segments so far.  ``EndPrimitive`` starts a new strip.  The
  start value is ``0.5``: with endpoints at pixel centres the counter at the
  centre of the strip's k-th fragment is then exactly ``k + 0.5``, half a
  unit from every rule boundary, so rounding in the interpolation cannot
  move a fragment across one (a fragment centre off the line moves the
  projected value by at most ``|e| dx dy / (dx^2 + dy^2) <= 0.25`` for a
  one-pixel line, e = the centre's distance from the line <= 0.5).
  ``line_stipple == 2`` (the generated GS of a LINE_STRIP / LINE_LOOP /
  LINE_STRIP_ADJACENCY draw): each invocation emits one segment whose start
  value is ``0.5 + base``, ``base`` = the fragment count of the strip's
  earlier segments, read from a buffer texture at ``gl_PrimitiveIDIn +
  sysvals.line_stipple.z * instance`` (the pre-pass of glpipe/line_stipple.py
  fills it; z is the number of segments per instance).  GL restarts
  gl_PrimitiveIDIn at every instance (primitive restart does not), and a GS
  has no gl_InstanceID, so the VS of such a draw (``line_stipple == 2`` in
  the VS key) passes ``gl_InstanceID`` on as the flat ``glp_ls_instance``.
* **FS**: ``k = floor(glp_line_stipple / (factor + 1))``; discard unless bit
  ``k % 16`` of ``sysvals.line_stipple.x`` is set -- first thing in ``main``,
  like the polygon stipple (GL kills the fragment before the shader runs).

Approximations (docs/rasterizer.md "Line stipple"): the counter is measured
between the unclipped endpoints' window positions, so a segment clipped at
its start continues the pattern as if it were whole (GL: "the value of s at
the beginning of a clipped segment is indeterminate"), and a vertex behind
the eye (w <= 0) has no window position (the counter of such a segment is
undefined).  Fragments of a line with endpoints off the pixel centres are
counted by their projected distance from the start point, rounded.
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
    """GS: the counter output and the strip state (see the module docstring)."""
    em.io._declare(f"noperspective out float {COUNTER};")
    start = "0.5"
    if em.key.line_stipple == LINE_STIPPLE_SEGMENT_BASES:
        unit = bases_unit(em.layout)
        qual = f"layout(binding = {unit}) " if em.binding_qualifier() else ""
        em.global_decls.append(f"{qual}uniform samplerBuffer {BASES};")
        em.sampler_units[BASES] = unit
        em.use_sysvals()
        em.io._declare(f"flat in int {INSTANCE}[];")
        start = (f"0.5 + texelFetch({BASES}, {INSTANCE}[0] * int({INSTANCE_NAME}.line_stipple.z)"
                 f" + gl_PrimitiveIDIn).x")
    em.global_decls += [f"float {_LEN};", f"float {_START};", f"vec2 {_PREV};", f"bool {_STARTED};"]
    em.prologue += [f"{_START} = {start};", f"{_LEN} = {_START};", f"{_STARTED} = false;",
                    f"{_PREV} = vec2(0.0);"]


def counter_at_emit(em) -> list[str]:
    """GS, before each stream-0 EmitVertex: advance the counter by the
    major-axis length (window pixels) from the strip's previous vertex."""
    writes_position = any(em.decls.semantic_of(decl, index)[0] == "POSITION"
                          for index, decl in em.decls.outputs.items())
    if not writes_position:
        return [f"{COUNTER} = {_LEN};"]
    em.use_sysvals()
    s = INSTANCE_NAME
    return [
        "{   // line stipple: major-axis window distance along the strip",
        (f"    vec2 glp_ls_w = gl_Position.xy / gl_Position.w * {s}.viewport_scale.xy"
        f" + {s}.viewport_translate.xy;"),
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
