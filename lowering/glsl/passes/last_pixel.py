"""Line last pixel variant passes (``VariantKey.line_last_pixel``): the GS
feeding the rasterizer adds, after every line segment whose end pixel GL's
diamond-exit rule leaves undrawn, a short segment that draws exactly that
pixel.

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Line last pixel).
"""

from __future__ import annotations

from ..sysval_block import INSTANCE_NAME
from .cull import cull_as_clip
from .stipple import stipple_strip_state

LINE_LAST_PIXEL_OFF, LINE_LAST_PIXEL_HALF_CENTERS, LINE_LAST_PIXEL_INTEGER_CENTERS = 0, 1, 2
# GL window = Gallium window + this, per key value (integer centres: +0.5).
_CENTRE_SHIFT = {LINE_LAST_PIXEL_HALF_CENTERS: "0.0", LINE_LAST_PIXEL_INTEGER_CENTERS: "0.5"}
# Vertices the GS may emit per vertex of the shader: the vertex, the extra
# segment's end, the vertex again (stages.py multiplies max_vertices).
VERTEX_FACTOR = 3

# GS file-scope state (EMIT may sit in a subroutine): this vertex's window
# position and w > 0, the previous vertex's, whether the strip has one.
_WIN, _FRONT = "glp_lp_win", "glp_lp_front"
_PREV, _PREV_FRONT, _STARTED = "glp_lp_prev", "glp_lp_prev_front", "glp_lp_started"
_SAVE = "glp_lp_save"
_GLSL_TYPES = {
    ("float", 4): "vec4",
    ("int", 4): "ivec4",
    ("uint", 4): "uvec4",
    ("float", 1): "float",
    ("int", 1): "int",
    ("uint", 1): "uint",
}


def saved_outputs(em, prefix: str = _SAVE) -> list[tuple]:
    """(GLSL type, saved name, output text) of every output component or
    vector the shader declares (CLIPVERTEX / EDGEFLAG live in ordinary
    variables, which keep their values); saved names are ``prefix`` and
    the register (and component), e.g. ``glp_lp_save3_1``."""
    io = em.io
    out = []
    for index in sorted(em.decls.outputs):
        if index in io.local_outputs:
            continue
        view = io.output_view(index, None)
        if view.kind == "vector":
            out.append((_GLSL_TYPES[(view.type, 4)], f"{prefix}{index}", view.text))
            continue
        for c, entry in enumerate(view.entries):
            if entry is not None and entry.lvalue:
                out.append((_GLSL_TYPES[(entry.type, 1)], f"{prefix}{index}_{c}", entry.text))
    return out


def _writes_position(em) -> bool:
    return any(em.decls.semantic_of(decl, index)[0] == "POSITION" for index, decl in em.decls.outputs.items())


def declare_state(em) -> None:
    """GS: the strip state and the saved outputs (file scope)."""
    em.global_decls += [
        f"vec2 {_WIN};",
        f"bool {_FRONT};",
        f"vec2 {_PREV};",
        f"bool {_PREV_FRONT};",
        f"bool {_STARTED};",
    ]
    em.global_decls += [f"{t} {name};" for t, name, _ in saved_outputs(em)]
    em.prologue += [
        f"{_STARTED} = false;",
        f"{_PREV} = vec2(0.0);",
        f"{_PREV_FRONT} = false;",
        f"{_WIN} = vec2(0.0);",
        f"{_FRONT} = false;",
    ]


def save_vertex(em) -> list[str]:
    """GS, first ``vertex_end`` row: the vertex's outputs and window position."""
    if not _writes_position(em):
        return []
    em.use_sysvals()
    s = INSTANCE_NAME
    shift = _CENTRE_SHIFT[em.key.line_last_pixel]
    out = ["// line_last_pixel: this vertex's outputs and GL window position"]
    out += [f"{name} = {text};" for _, name, text in saved_outputs(em)]
    out += [
        f"{_FRONT} = gl_Position.w > 0.0;",
        (
            f"{_WIN} = gl_Position.xy / ({_FRONT} ? gl_Position.w : 1.0) * {s}.viewport_scale.xy"
            f" + {s}.viewport_translate.xy + vec2({shift});"
        ),
    ]
    return out


def _restore_and_rerun(em, move: str = "") -> list[str]:
    """The vertex again: outputs restored, then (``move``) its clip-space
    position moved, then the other vertex_end passes re-run: each is a
    function of the restored outputs and of idempotent state (the stipple
    counter adds the window distance from the previous vertex, zero for the
    same vertex again)."""
    lines = [f"{text} = {name};" for _, name, text in saved_outputs(em)]
    if move:
        lines.append(move)
    lines += cull_as_clip(em)  # (not a keyed row: the host decides, passes/cull.py)
    for row in em.pass_rows("vertex_end"):
        if row.run not in (save_vertex, emit_last_pixel):
            lines += row.run(em)
    return ["{"] + ["    " + line for line in lines] + ["}"]


def emit_last_pixel(em) -> list[str]:
    """GS, last ``vertex_end`` row: the extra segment when this vertex ends a
    segment whose last pixel GL leaves undrawn (docs/lowering.md "Variant passes")."""
    if not _writes_position(em):
        return []
    s = INSTANCE_NAME
    # The extra vertex is moved in Gallium's clip space, before the passes
    # that map it to the host's (pixel-centre shift, flips, depth), which
    # therefore treat it exactly as the vertex it copies.
    extra = _restore_and_rerun(em, f"gl_Position.xy += glp_lp_move / {s}.viewport_scale.xy * gl_Position.w;")
    if em.key.line_stipple:
        # The line stipple counter runs on along the extra segment; the strip
        # state returns to the vertex for the strip's next segment.
        state = stipple_strip_state()
        extra = (
            [f"{t} glp_lp_keep{i} = {name};" for i, (t, name) in enumerate(state)]
            + extra
            + [f"{name} = glp_lp_keep{i};" for i, (_, name) in enumerate(state)]
        )
    body = [
        f"vec2 glp_lp_d = {_WIN} - {_PREV};",
        "bool glp_lp_xmajor = abs(glp_lp_d.x) >= abs(glp_lp_d.y);",
        "float glp_lp_dmaj = glp_lp_xmajor ? glp_lp_d.x : glp_lp_d.y;",
        f"vec2 glp_lp_c = floor({_WIN}) + 0.5;",
        f"vec2 glp_lp_o = abs({_WIN} - glp_lp_c);",
        "if (glp_lp_dmaj != 0.0 && glp_lp_o.x + glp_lp_o.y < 0.5) {",
        f"    float glp_lp_p = glp_lp_xmajor ? {_WIN}.x : {_WIN}.y;",
        "    float glp_lp_t = (glp_lp_xmajor ? glp_lp_c.x : glp_lp_c.y) + 0.75 * sign(glp_lp_dmaj);",
        "    vec2 glp_lp_move = glp_lp_d * ((glp_lp_t - glp_lp_p) / glp_lp_dmaj);",
        "    EmitVertex();   // the segment's end",
        *["    " + line for line in extra],
        "    EmitVertex();   // the last pixel's segment, same strip",
        "    EndPrimitive();",
        *["    " + line for line in _restore_and_rerun(em)],
        "}",
    ]
    return (
        [f"if ({_STARTED} && {_FRONT} && {_PREV_FRONT}) {{   // line_last_pixel"]
        + ["    " + line for line in body]
        + ["}"]
        + [f"{_PREV} = {_WIN};", f"{_PREV_FRONT} = {_FRONT};", f"{_STARTED} = true;"]
    )


def reset_at_end_primitive(em) -> list[str]:
    """GS, at each stream-0 EndPrimitive: the next vertex starts a strip."""
    return [f"{_STARTED} = false;   // line_last_pixel: a new strip"]


__all__ = [
    "LINE_LAST_PIXEL_HALF_CENTERS",
    "LINE_LAST_PIXEL_INTEGER_CENTERS",
    "LINE_LAST_PIXEL_OFF",
    "VERTEX_FACTOR",
    "declare_state",
    "emit_last_pixel",
    "reset_at_end_primitive",
    "save_vertex",
    "saved_outputs",
]
