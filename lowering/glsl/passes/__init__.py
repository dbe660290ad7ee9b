"""The variant passes: which ``VariantKey`` field changes what, in which stage, and where.

A variant pass is an emitter option: it adds GLSL at one of a few fixed
*hooks* of the emitter, and nothing else changes, so ``VariantKey()`` (every
field at its default) gives exactly the plain lowering.  ``PASSES`` is the
one table: one row per (key field, stages, hook), in the order the rows run
at their hook.  The code of each pass lives in ``passes/fragment.py``,
``passes/vertex.py``, ``passes/texture.py``, ``passes/depth.py``, ``passes/stipple.py``,
``passes/edges.py``, ``passes/last_pixel.py``, ``passes/smooth_line.py`` and ``passes/interp.py`` (the last stage's
INTERP_* copies; the FS's re-interpolation is called by the opcode handler instead); ``docs/lowering.md``
("Variant passes") states the contract each one has with the context.

The hooks, and who calls them: docs/lowering.md, "Variant pass hooks".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..variant import PIPE_FUNC_ALWAYS
from . import cull as C
from . import depth as D
from . import edges as E
from . import fragment as F
from . import interp as IP
from . import last_pixel as LP
from . import smooth_line as SL
from . import stipple as L
from . import stream_output as SO
from . import texture as T
from . import vertex as V

FRAG = frozenset({"FRAG"})
GEOM = frozenset({"GEOM"})
VERT = frozenset({"VERT"})
# The stages that can be the last one before the rasterizer; the context puts
# the vertex-side fields only into the key of the one that actually is.
VERTEX_LIKE = frozenset({"VERT", "TESS_EVAL", "GEOM"})
VS_TES = frozenset({"VERT", "TESS_EVAL"})
TEXTURING = frozenset({"VERT", "TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG", "COMP"})

HOOKS = ("declare", "prologue", "fs_input", "fragment_end", "vertex_end", "end_primitive", "texcoord", "texresult")


@dataclass(frozen=True)
class Pass:
    """One row of ``PASSES``: ``run`` is called at ``hook`` in ``stages`` when ``active(key)``."""

    name: str
    field: str
    stages: frozenset
    hook: str
    active: Callable
    run: Callable | None
    doc: str


def _flag(field: str) -> Callable:
    return lambda key: bool(getattr(key, field))


def _alpha_active(key) -> bool:
    return key.alpha_func != PIPE_FUNC_ALWAYS


def _window_rects_active(key) -> bool:
    # Exclusive with no rectangle excludes nothing (the default); inclusive with
    # none includes nothing, which is a real pass (everything is discarded).
    return key.window_rectangles > 0 or key.window_rectangles_include


def _segment_bases(key) -> bool:
    return key.line_stipple == L.LINE_STIPPLE_SEGMENT_BASES


def _vertex_edge_flags(key) -> bool:
    return bool(key.edge_flags & E.EDGE_FLAGS_VERTEX)


def _edge_stipple_vs(key) -> bool:
    return bool(key.edge_flags & E.EDGE_FLAGS_STIPPLE)


def _fs_reads_clipdist(key) -> bool:
    return bool(V.fs_clipdist_registers(key))


def _gl_clamp_active(key) -> bool:
    return any(key.gl_clamp)


PASSES: tuple[Pass, ...] = (
    # -- fragment inputs ---------------------------------------------------------
    Pass(
        "two-sided color",
        "two_side",
        FRAG,
        "fs_input",
        _flag("two_side"),
        F.two_sided_color_input,
        "COLOR[n] reads BCOLOR[n] when !gl_FrontFacing",
    ),
    Pass(
        "point-sprite coordinates",
        "sprite_coord_enable",
        FRAG,
        "fs_input",
        _flag("sprite_coord_enable"),
        F.sprite_coord_input,
        "bit n: GENERIC[n] (TEXCOORD[n] in a shader with TEXCOORD inputs) reads (s, t, 0, 1)",
    ),
    # -- fragment prologue: kills that precede the shader -------------------------
    # (the offset depth first: its derivatives need the uniform control flow before any kill)
    Pass(
        "depth offset (unscaled units)",
        "depth_offset",
        FRAG,
        "prologue",
        _flag("depth_offset"),
        D.offset_depth,
        "glp_offset_depth = gl_FragCoord.z + offset (sysvals.depth_offset: scale, units, clamp)",
    ),
    Pass(
        "polygon edges (kill)",
        "edge_fill",
        FRAG,
        "prologue",
        _flag("edge_fill"),
        E.edge_kill,
        "discard fragments of LINE edges / POINT vertices whose edge flag is off (glp_edge, glp_edge_mask)",
    ),
    Pass(
        "polygon edges (stipple)",
        "edge_stipple",
        FRAG,
        "prologue",
        _flag("edge_stipple"),
        E.edge_stipple_kill,
        "discard where bit (counter / (factor + 1)) % 16 of the pattern is 0, by the edge's glp_edge_stipple",
    ),
    Pass(
        "polygon stipple",
        "poly_stipple",
        FRAG,
        "prologue",
        _flag("poly_stipple"),
        F.polygon_stipple,
        "discard where bit 31 - x%32 of sysvals.stipple row y%32 is 0",
    ),
    Pass(
        "window rectangles",
        "window_rectangles",
        FRAG,
        "prologue",
        _window_rects_active,
        F.window_rectangles,
        "discard inside any (exclusive) / outside all (inclusive) sysvals.window_rect",
    ),
    Pass(
        "line stipple",
        "line_stipple",
        FRAG,
        "prologue",
        _flag("line_stipple"),
        L.stipple_kill,
        "discard where bit (counter / (factor + 1)) % 16 of sysvals.line_stipple.x is 0",
    ),
    Pass(
        "antialiased point (coverage)",
        "point_smooth",
        FRAG,
        "prologue",
        _flag("point_smooth"),
        F.point_coverage,
        "coverage of the round point from gl_PointCoord; discard where it is 0",
    ),
    Pass(
        "antialiased line (coverage)",
        "line_smooth",
        FRAG,
        "prologue",
        _flag("line_smooth"),
        SL.coverage,
        "coverage of the line's rectangle from glp_aa_line; discard where it is 0",
    ),
    # -- fragment end: clamp, point coverage, then alpha test ----------------------------
    Pass(
        "fragment color clamp",
        "clamp_fragment_color",
        FRAG,
        "fragment_end",
        _flag("clamp_fragment_color"),
        F.clamp_fragment_colors,
        "float COLOR outputs clamped to [0, 1]",
    ),
    Pass(
        "antialiased point (alpha)",
        "point_smooth",
        FRAG,
        "fragment_end",
        _flag("point_smooth"),
        F.apply_point_coverage,
        "float COLOR outputs' alpha multiplied by the point coverage",
    ),
    Pass(
        "antialiased line (alpha)",
        "line_smooth",
        FRAG,
        "fragment_end",
        _flag("line_smooth"),
        SL.apply_coverage,
        "float COLOR outputs' alpha multiplied by the line coverage",
    ),
    Pass(
        "alpha test",
        "alpha_func",
        FRAG,
        "fragment_end",
        _alpha_active,
        F.alpha_test,
        "discard unless COLOR[0].a <func> sysvals.alpha_ref.x",
    ),
    Pass(
        "depth offset (write)",
        "depth_offset",
        FRAG,
        "fragment_end",
        _flag("depth_offset"),
        D.write_offset_depth,
        "gl_FragDepth = glp_offset_depth",
    ),
    # -- last vertex stage -----------------------------------------------------------
    Pass(
        "line stipple (counter input)",
        "line_stipple",
        FRAG,
        "declare",
        _flag("line_stipple"),
        L.declare_counter_input,
        "noperspective in float glp_line_stipple",
    ),
    Pass(
        "line stipple (counter output)",
        "line_stipple",
        GEOM,
        "declare",
        _flag("line_stipple"),
        L.declare_counter_output,
        "noperspective out float glp_line_stipple, the strip state (and segment bases)",
    ),
    Pass(
        "line last pixel (state)",
        "line_last_pixel",
        GEOM,
        "declare",
        _flag("line_last_pixel"),
        LP.declare_state,
        "the strip state and the saved outputs of the vertex being emitted",
    ),
    Pass(
        "antialiased line (state)",
        "line_smooth",
        GEOM,
        "declare",
        _flag("line_smooth"),
        SL.declare_state,
        "noperspective out vec4 glp_aa_line, the strip state, this and the previous vertex's saved outputs",
    ),
    Pass(
        "antialiased line (input)",
        "line_smooth",
        FRAG,
        "declare",
        _flag("line_smooth"),
        SL.declare_input,
        "noperspective in vec4 glp_aa_line",
    ),
    Pass(
        "polygon edges (inputs)",
        "edge_fill",
        FRAG,
        "declare",
        _flag("edge_fill"),
        E.declare_fs,
        "noperspective in vec3 glp_edge, flat in int glp_edge_mask",
    ),
    Pass(
        "polygon edges (stipple input)",
        "edge_stipple",
        FRAG,
        "declare",
        _flag("edge_stipple"),
        E.declare_stipple_input,
        "noperspective in vec3 glp_edge_stipple",
    ),
    Pass(
        "polygon edges (outputs)",
        "edge_flags",
        GEOM,
        "declare",
        _flag("edge_flags"),
        E.declare_gs,
        "corner weights and edge mask out; the boundary masks, the vertex flags in",
    ),
    Pass(
        "polygon edges (vertex flag out)",
        "edge_flags",
        VERT,
        "declare",
        _vertex_edge_flags,
        E.declare_vertex_flag,
        "out float glp_vertex_edgeflag",
    ),
    Pass(
        "polygon edges (instance out)",
        "edge_flags",
        VERT,
        "declare",
        _edge_stipple_vs,
        E.declare_instance_output,
        "flat out int glp_ls_instance (per-instance edge stipple counters)",
    ),
    Pass(
        "stream output (declare)",
        "stream_output",
        VERTEX_LIKE,
        "declare",
        _flag("stream_output"),
        SO.declare_outputs,
        "one glp_so_<k> output per captured pipe_stream_output entry (its components only)",
    ),
    # (first vertex_end row: the outputs before any pass changes them)
    Pass(
        "stream output (copies)",
        "stream_output",
        VERTEX_LIKE,
        "vertex_end",
        _flag("stream_output"),
        SO.copy_outputs,
        "glp_so_<k> = OUT[register_index] components of the entry (stream 0; a GS's other streams at their EMIT)",
    ),
    Pass(
        "line last pixel (save)",
        "line_last_pixel",
        GEOM,
        "vertex_end",
        _flag("line_last_pixel"),
        LP.save_vertex,
        "save the vertex's outputs and GL window position",
    ),
    Pass(
        "antialiased line (save)",
        "line_smooth",
        GEOM,
        "vertex_end",
        _flag("line_smooth"),
        SL.save_vertex,
        "save the vertex's outputs and position as the shader wrote them",
    ),
    Pass(
        "line stipple (counter)",
        "line_stipple",
        GEOM,
        "vertex_end",
        _flag("line_stipple"),
        L.counter_at_emit,
        "glp_line_stipple = start + major-axis window length of the strip so far",
    ),
    Pass(
        "line stipple (instance out)",
        "line_stipple",
        VERT,
        "declare",
        _segment_bases,
        L.declare_instance_output,
        "flat out int glp_ls_instance (the generated GS reads segment bases)",
    ),
    Pass(
        "line stipple (instance)",
        "line_stipple",
        VERT,
        "vertex_end",
        _segment_bases,
        L.instance_at_end,
        "glp_ls_instance = gl_InstanceID",
    ),
    Pass(
        "line stipple (new strip)",
        "line_stipple",
        GEOM,
        "end_primitive",
        _flag("line_stipple"),
        L.reset_at_end_primitive,
        "the next EmitVertex starts a strip",
    ),
    Pass(
        "polygon edges (vertex flag)",
        "edge_flags",
        VERT,
        "vertex_end",
        _vertex_edge_flags,
        E.vertex_flag_at_end,
        "glp_vertex_edgeflag = the EDGEFLAG output's x",
    ),
    Pass(
        "polygon edges (instance)",
        "edge_flags",
        VERT,
        "vertex_end",
        _edge_stipple_vs,
        E.instance_at_end,
        "glp_ls_instance = gl_InstanceID",
    ),
    Pass(
        "polygon edges (corner)",
        "edge_flags",
        GEOM,
        "vertex_end",
        _flag("edge_flags"),
        E.corner_at_emit,
        "glp_edge = this corner's weights, glp_edge_mask",
    ),
    Pass(
        "clip vertex (varying out)",
        "clipvertex_varying",
        VS_TES,
        "declare",
        _flag("clipvertex_varying"),
        V.declare_clip_vertex_varying,
        "declare the CLIPVERTEX varying the next stage (a GS) reads",
    ),
    Pass(
        "clip vertex (varying)",
        "clipvertex_varying",
        VS_TES,
        "vertex_end",
        _flag("clipvertex_varying"),
        V.copy_clip_vertex_varying,
        "the CLIPVERTEX local into that varying",
    ),
    Pass(
        "two-sided color (outputs)",
        "two_side",
        VERTEX_LIKE,
        "declare",
        _flag("two_side"),
        V.declare_back_colors,
        "declare BCOLOR[n] for every COLOR[n] the FS may read",
    ),
    Pass(
        "FS clip distances (varyings out)",
        "output_interpolation",
        VERTEX_LIKE,
        "declare",
        _fs_reads_clipdist,
        V.declare_clipdist_varyings,
        "declare glp_clipdist_n for each CLIPDIST[n] the FS reads",
    ),
    Pass(
        "FS clip distances (values)",
        "output_interpolation",
        VERTEX_LIKE,
        "vertex_end",
        _fs_reads_clipdist,
        V.copy_clipdist_varyings,
        "glp_clipdist_n = the clip and cull distances as written (before the 0.0s)",
    ),
    Pass(
        "INTERP_* copies (declare)",
        "interp_copies",
        VERTEX_LIKE,
        "declare",
        _flag("interp_copies"),
        IP.declare_copies,
        "declare glp_<name>_at_centroid / _at_center for the FS's INTERP_* on a multisampled framebuffer",
    ),
    Pass(
        "disabled clip distances",
        "disabled_clip_distances",
        VERTEX_LIKE,
        "vertex_end",
        _flag("disabled_clip_distances"),
        V.zero_disabled_clip_distances,
        "the shader's gl_ClipDistance[i] = 0.0 where clip_plane_enable leaves it off",
    ),
    Pass(
        "user clip planes",
        "clip_plane_enable",
        VERTEX_LIKE,
        "vertex_end",
        _flag("clip_plane_enable"),
        V.user_clip_distances,
        "gl_ClipDistance[i] = dot(CLIPVERTEX or POSITION, sysvals.clip_plane[i]) per enabled bit",
    ),
    Pass(
        "depth clip plane",
        "depth_clip_plane",
        VERTEX_LIKE,
        "vertex_end",
        _flag("depth_clip_plane"),
        D.depth_clip_distance,
        "gl_ClipDistance[depth_clip_slot] = z + w (near), z (near, halfz) or w - z (far)",
    ),
    Pass(
        "two-sided color (copies)",
        "two_side",
        VERTEX_LIKE,
        "vertex_end",
        _flag("two_side"),
        V.copy_back_colors,
        "BCOLOR[n] = COLOR[n] where the shader writes no BCOLOR[n]",
    ),
    Pass(
        "vertex color clamp",
        "clamp_vertex_color",
        VERTEX_LIKE,
        "vertex_end",
        _flag("clamp_vertex_color"),
        V.clamp_vertex_colors,
        "COLOR / BCOLOR outputs clamped to [0, 1]",
    ),
    Pass(
        "integer pixel centres",
        "integer_pixel_centers",
        VERTEX_LIKE,
        "vertex_end",
        _flag("integer_pixel_centers"),
        V.shift_to_integer_pixel_centers,
        "gl_Position.xy += 0.5 * w / sysvals.viewport_scale.xy (half_pixel_center = False)",
    ),
    Pass(
        "viewport depth",
        "viewport_depth",
        VERTEX_LIKE,
        "vertex_end",
        _flag("viewport_depth"),
        V.viewport_depth,
        "gl_Position.z = 2 (z * viewport_scale.z + viewport_translate.z * w) - w (host depth range [0, 1])",
    ),
    Pass(
        "clip_halfz",
        "clip_halfz",
        VERTEX_LIKE,
        "vertex_end",
        _flag("clip_halfz"),
        V.remap_clip_halfz,
        "gl_Position.z = 2z - w (Gallium's 0 <= z <= w onto GL's -w <= z <= w)",
    ),
    Pass(
        "y flip (clip space)",
        "y_flip",
        VERTEX_LIKE,
        "vertex_end",
        _flag("y_flip"),
        V.flip_position_y,
        "gl_Position.y = -gl_Position.y",
    ),
    # (after every row that changes a user output: two-sided and clamped colors)
    Pass(
        "INTERP_* copies (values)",
        "interp_copies",
        VERTEX_LIKE,
        "vertex_end",
        _flag("interp_copies"),
        IP.write_copies,
        "each copy = its varying as the vertex leaves the stage (the FS reads it at the other location)",
    ),
    # (last vertex_end row: it emits vertices, re-running the rows above for them)
    Pass(
        "line last pixel (emit)",
        "line_last_pixel",
        GEOM,
        "vertex_end",
        _flag("line_last_pixel"),
        LP.emit_last_pixel,
        "after a segment ending inside a pixel's diamond: a segment drawing that pixel",
    ),
    Pass(
        "line last pixel (new strip)",
        "line_last_pixel",
        GEOM,
        "end_primitive",
        _flag("line_last_pixel"),
        LP.reset_at_end_primitive,
        "the next EmitVertex starts a strip",
    ),
    Pass(
        "antialiased line (quad)",
        "line_smooth",
        GEOM,
        "vertex_end",
        _flag("line_smooth"),
        SL.emit_quad,
        "end the strip; the segment this vertex ends as a 4-vertex strip of its own (the rows above re-run per corner)",
    ),
    Pass(
        "antialiased line (new strip)",
        "line_smooth",
        GEOM,
        "end_primitive",
        _flag("line_smooth"),
        SL.reset_at_end_primitive,
        "the next EmitVertex starts a strip",
    ),
    # -- texture lookups -----------------------------------------------------------
    Pass(
        "GL_CLAMP",
        "gl_clamp",
        TEXTURING,
        "texcoord",
        _gl_clamp_active,
        None,
        "clamp s/t/r of lookups through sampler n to [0, 1] ([0, size] for RECT)",
    ),
    Pass(
        "comparison swizzle",
        "shadow_swizzle",
        TEXTURING,
        "texresult",
        _flag("shadow_swizzle"),
        None,
        "comparison results as the view swizzle's vector of (c, c, c, 1) (shadow_swizzle.py)",
    ),
)

# Built into the plain emitter (listed so the table names every key field):
#   flatshade  -- stages.IOMap._qualifiers / _output_qualifiers (flat COLOR-interpolated varyings);
#   y_flip     -- in the FS, stages.IOMap.frag_coord (gl_FragCoord.y = fb height - y) and the window
#                 position of the stipple / window-rectangle passes (passes.fragment.window_position);
#   sample_positions -- the INTERP_* re-interpolation without interpolateAt* (passes/interp.py,
#                 called from the opcode handler, fragment.handle_interp): the framebuffer's samples;
#                 the FS side of interp_copies (the copies it reads) is there too.
BUILT_IN = ("flatshade", "y_flip", "sample_positions")


def rows(em, hook: str) -> list[Pass]:
    """The active rows of ``hook`` for the emitter's stage and key, in table order."""
    if hook not in HOOKS:
        raise ValueError(f"unknown variant pass hook {hook!r}; hooks: {HOOKS}")
    return [p for p in PASSES if p.hook == hook and em.proc in p.stages and p.active(em.key)]


def declare(em) -> None:
    """The ``declare`` hook (once, after the IO declarations)."""
    for p in rows(em, "declare"):
        p.run(em)


def prologue(em) -> None:
    """The ``prologue`` hook: appends statements to the top of ``main``."""
    for p in rows(em, "prologue"):
        em.prologue.extend(p.run(em))


def fs_input(io, index: int, decl, semantic: str, sidx: int):
    """The ``fs_input`` hook: a view replacing FS input ``semantic[sidx]``, or None."""
    for p in rows(io.em, "fs_input"):
        view = p.run(io, index, decl, semantic, sidx)
        if view is not None:
            return view
    return None


def fragment_end(em) -> list[str]:
    """The ``fragment_end`` hook: statements before an FS ``main`` returns."""
    out: list[str] = []
    for p in rows(em, "fragment_end"):
        out += p.run(em)
    return out


def vertex_end(em) -> list[str]:
    """The ``vertex_end`` hook: statements completing one vertex of the last vertex stage.
    First the cull distances as clip distances where the host has no
    gl_CullDistance (passes/cull.py: chosen by the host, not by a key field;
    ahead of the rows that write gl_ClipDistance slots of their own), after
    the copies of outputs kept in locals into the varyings the next stage
    reads (stages.py IOMap.local_output_copies)."""
    out: list[str] = em.io.local_output_copies + C.cull_as_clip(em)
    for p in rows(em, "vertex_end"):
        out += p.run(em)
    return out


def stream_output_copies(em, stream: int) -> list[str]:
    """A GS's EMIT on vertex stream ``stream`` > 0: the stream output copies
    of that stream (stream 0's run with the vertex_end rows)."""
    return SO.copy_outputs(em, stream)


def end_primitive(em) -> list[str]:
    """The ``end_primitive`` hook: statements before a GS's stream-0 EndPrimitive."""
    out: list[str] = []
    for p in rows(em, "end_primitive"):
        out += p.run(em)
    return out


def clip_distance_mask(em) -> int:
    """Bit i set when the lowered shader writes gl_ClipDistance[i] (for Reflection)."""
    depth = 0
    if em.key.depth_clip_plane and em.proc in VERTEX_LIKE and D.depth_clip_distance(em):
        depth = 1 << em.key.depth_clip_slot  # the depth plane's distance (passes/depth.py)
    return _shader_and_user_clip_mask(em) | depth


def cull_clip_mask(em) -> int:
    """Bit i set when gl_ClipDistance[i] stands for a cull distance (passes/cull.py;
    for Reflection: the context enables these whatever clip_plane_enable says)."""
    return C.cull_clip_mask(em)


def _shader_and_user_clip_mask(em) -> int:
    if em.proc not in VERTEX_LIKE:
        return 0
    written = V.shader_clip_distance_mask(em)
    if written:
        return written
    if em.key.clip_plane_enable and V.clip_vertex_source(em) is not None:
        return em.key.clip_plane_enable
    return 0


clamp_coords = T.clamp_coords

__all__ = [
    "PASSES",
    "Pass",
    "HOOKS",
    "BUILT_IN",
    "rows",
    "stream_output_copies",
    "declare",
    "prologue",
    "fs_input",
    "fragment_end",
    "vertex_end",
    "end_primitive",
    "clip_distance_mask",
    "clamp_coords",
]
