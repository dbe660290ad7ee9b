"""Edge flags of polygons drawn with fill mode LINE or POINT.

The rule (Gallium cso/rasterizer.rst fill modes; GL 4.6 compatibility
profile 10.1.17 and 14.6.4; Mesa's draw module, draw_pipe_unfilled.c, and
u_unfilled_indices): a polygon drawn as lines shows its *boundary* edges,
as points the vertices that start one.  A quad or polygon that is cut into
triangles keeps its outline -- the cuts are no polygon edges -- and a vertex
shader writing EDGEFLAG turns off the edge starting at its vertex.

Core GL has no edge flags (glPolygonMode draws every edge of every
triangle), and glpipe draws QUADS / QUAD_STRIP / POLYGON as translated
triangles (fallback/indices.py).  So while the bound rasterizer draws a face
in LINE or POINT mode, a draw that has edge flags -- a translated primitive
(its triangles' boundary masks: ``fallback.indices.edge_masks``) or a VS
writing EDGEFLAG, with the VS feeding the rasterizer (a Gallium GS's or a
TES's triangles have every edge) -- gets:

* a generated pass-through GS (triangles in, the same triangle out;
  glpipe/line_stipple.py ``passthrough_gs_tokens``) that adds each corner's
  one-hot weight and the triangle's edge mask (``VariantKey.edge_flags``,
  lowering/glsl/passes/edges.py), reading the boundary masks from a buffer
  texture on the GEOM stage's last unit at ``gl_PrimitiveIDIn``;
* an FS variant (``VariantKey.edge_fill`` = the mode the polygons are
  drawn in) killing the fragments of the edges (LINE) or vertices (POINT)
  whose flag is off.  With both faces drawn in different modes,
  glpipe/fill_modes.py draws runs of one facing and keys each run's mode
  (``_key_edge_run``): the FS never asks gl_FrontFacing, which llvmpipe's
  draw module does not deliver for unfilled polygons coming from a GS;
* per translated draw (each multi-draw item; each run of
  glpipe/fill_modes.py when the faces' modes differ), the masks uploaded
  before the GL draw -- gl_PrimitiveIDIn counts the triangles of one GL draw
  and restarts per instance, which is exactly the masks' indexing.

Line stipple on such polygons (docs/rasterizer.md "Polygon edges"): the
counter runs along each polygon's boundary in Mesa's draw-module order
(``edge_stipple_texels``); ``_draw_edge_stipple`` captures the VS positions,
uploads each triangle's per-edge start counters and mask (RGBA32F per
triangle and instance; the GS emits counters a line interpolates, the FS
applies the pattern on the fragment's edge) and draws the triangles itself.

Keying.  ``_key_polygon_edges`` looks the draw mode up in a table rebuilt
only when a shader or the rasterizer was bound (as the line stipple's), on
draw_vbo's general path.  Translated primitives always take that path; the
fast path (plain draws of natively drawable primitives) must not run while
an edge key is on (the next draw may need it off) or while a VS writing
EDGEFLAG can give any polygon draw edge flags (``_edge_sticky``): then the
general path keeps Dirty.DRAW_STATE set, and binding such a rasterizer or a
VS under it sets it.  Wireframe rendering without edge flags (TRIANGLES
from a VS without EDGEFLAG) keeps the fast path and the plain variants.
"""

from __future__ import annotations

import numpy as np

from fallback.indices import NEEDS_TRANSLATION, edge_masks
from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering import parse, validate
from lowering.glsl.passes.edges import EDGE_FLAGS_MASKS, EDGE_FLAGS_STIPPLE, EDGE_FLAGS_VERTEX

from .defs import PolygonMode, Prim, ShaderType
from .dirty import Dirty, KeepGeneral
from .line_stipple import passthrough_gs_tokens
from .rasterizer_keys import KEY_EDGE_FILL
from .shaders import ShaderCSO

_VS, _TES, _GS = int(ShaderType.VERTEX), int(ShaderType.TESS_EVAL), int(ShaderType.GEOMETRY)
_NPRIMS = max(int(p) for p in Prim) + 1
_CLASS_INPUTS = Dirty.SHADERS | Dirty.PROGRAM | Dirty.RASTERIZER_CSO | Dirty.RASTERIZER

# The draw modes whose primitives are polygons before any fill mode
# (u_reduced_prim's triangles; PATCHES need a TES, whose output has no flags).
_POLYGON_MODES = frozenset({Prim.TRIANGLES, Prim.TRIANGLE_STRIP, Prim.TRIANGLE_FAN, Prim.QUADS, Prim.QUAD_STRIP,
                            Prim.POLYGON, Prim.TRIANGLES_ADJACENCY, Prim.TRIANGLE_STRIP_ADJACENCY})
_OFF = None
_REFUSE_STIPPLE_EDGEFLAG = ("draw_vbo: RasterizerState.line_stipple_enable with fill mode LINE: a vertex shader "
                            "writing EDGEFLAG is not supported with stippled polygon edges (the counters are "
                            "computed from captured positions, which carry no edge flags)")
_REFUSE_STIPPLE_STRIP_ADJ = ("draw_vbo: RasterizerState.line_stipple_enable with fill mode LINE: "
                             "TRIANGLE_STRIP_ADJACENCY polygons' edge order is not modelled for stippling")
_EDGE_MODES = frozenset({PolygonMode.LINE, PolygonMode.POINT})
_UNKEYED = object()  # _edge_entry before any draw was keyed (never an entry)


# -- the counters of stippled LINE polygons (Mesa's draw module's order) -----------
#
# draw_decompose_tmp.h cuts a draw into triangles, each (v0, v1, v2) with
# edge flags E0 = v0->v1, E1 = v1->v2, E2 = v2->v0 and RESET_STIPPLE where a
# polygon starts; draw_pipe_unfilled.c's lines() then draws the flagged edges
# in the order E2, E0, E1, and the stipple stage's counter runs on from edge
# to edge until the next reset.  Flags: (reset, E0, E1, E2) per triangle.
_ALL = (True, True, True)


def _draw_module_triangles(prim, n: int, first: bool) -> list:
    """[(polygon number, (v0, v1, v2) run positions, reset, (E0, E1, E2))] of
    one run of ``n`` vertices, in the draw module's order."""
    out = []
    if prim == Prim.TRIANGLES or prim == Prim.TRIANGLES_ADJACENCY:
        step, span, pick = (3, 3, (0, 1, 2)) if prim == Prim.TRIANGLES else (6, 6, (0, 2, 4))
        for t, i in enumerate(range(0, n - span + 1, step)):
            out.append((t, tuple(i + k for k in pick), True, _ALL))
    elif prim == Prim.TRIANGLE_STRIP:
        for i in range(max(n - 2, 0)):
            odd = i & 1
            tri = ((i, i + 2, i + 1) if first else (i + 1, i, i + 2)) if odd else (i, i + 1, i + 2)
            out.append((i, tri, True, _ALL))
    elif prim == Prim.TRIANGLE_FAN:
        for i in range(max(n - 2, 0)):
            out.append((i, (i + 1, i + 2, 0) if first else (0, i + 1, i + 2), True, _ALL))
    elif prim == Prim.QUADS:
        for q in range(n // 4):
            a, b, c, d = range(4 * q, 4 * q + 4)
            if first:  # PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION is 1
                out += [(q, (a, b, c), True, (True, True, False)), (q, (a, c, d), False, (False, True, True))]
            else:
                out += [(q, (a, b, d), True, (True, False, True)), (q, (b, c, d), False, (True, True, False))]
    elif prim == Prim.QUAD_STRIP:
        for q in range(max((n - 2) // 2, 0)):
            a, b, c, d = 2 * q, 2 * q + 1, 2 * q + 2, 2 * q + 3
            # (The boundary a-b-d-c: draw_decompose_tmp.h's first-vertex flags
            # here name the diagonal a-d and leave a->b and c->a out, which is
            # not Gallium's rule; the order is the draw module's, the flags the
            # boundary's.)
            if first:
                out += [(q, (a, d, c), True, (False, True, True)), (q, (a, b, d), False, (True, True, False))]
            else:
                out += [(q, (c, a, d), True, (True, False, True)), (q, (a, b, d), False, (True, True, False))]
    elif prim == Prim.POLYGON:
        last_k = n - 3
        for k in range(max(n - 2, 0)):
            if first:
                flags = (k == 0, True, k == last_k)
                out.append((0, (0, k + 1, k + 2), k == 0, flags))
            else:
                flags = (True, k == last_k, k == 0)
                out.append((0, (k + 1, k + 2, 0), k == 0, flags))
    return out


def _polygon_numbers(prim, ntris: int) -> np.ndarray:
    """The polygon each of glpipe's triangles of a run belongs to (triangles(),
    glpipe/fill_modes.py: translated quads give two, a polygon all)."""
    if prim in (Prim.QUADS, Prim.QUAD_STRIP):
        return np.arange(ntris) // 2
    if prim == Prim.POLYGON:
        return np.zeros(ntris, np.int64)
    return np.arange(ntris)


def edge_stipple_texels(prim, run_tris: np.ndarray, n: int, first: bool, window: np.ndarray) -> np.ndarray:
    """(ntris, 4) float32 texels of one run's triangles ``run_tris`` (run
    positions, glpipe's order and corners): the counter at the start of each
    corner's edge j (corner j -> j + 1) and the mask of the drawn edges.
    ``window``: (n, 2) window positions of the run's vertices."""
    starts = {}
    s = 0.0
    for poly, tri, reset, flags in _draw_module_triangles(prim, n, first):
        if reset:
            s = 0.0
        for j in (2, 0, 1):  # draw_pipe_unfilled.c: E2, E0, E1
            if flags[j]:
                u, v = tri[j], tri[(j + 1) % 3]
                starts[(poly, u, v)] = s
                d = np.abs(window[v] - window[u])
                s += float(max(d[0], d[1]))
    polys = _polygon_numbers(prim, len(run_tris))
    out = np.zeros((len(run_tris), 4), np.float32)
    for t, (poly, tri) in enumerate(zip(polys.tolist(), run_tris.tolist())):
        mask = 0
        for j in range(3):
            start = starts.get((poly, tri[j], tri[(j + 1) % 3]))
            if start is not None:
                out[t, j] = start
                mask |= 1 << j
        out[t, 3] = mask
    return out


class PolygonEdgesMixin:
    """Context methods for polygon edge flags (mixed into Context; see the
    module docstring).  Class attributes hold the idle state."""

    _edge_key = None        # variant-key input: (GS edge_flags, VS edge_flags, FS edge_fill) or None
    _edge_gs = None         # the generated GS of the current draw kind, or None
    _edge_masks_on = False  # the current draw kind uploads boundary masks (a translated primitive)
    _edge_sticky = False    # an edge key is on, or may be for a fast-path draw: keep Dirty.DRAW_STATE
    _edge_stippled = False  # the current draw kind draws stippled LINE polygons (_draw_edge_stipple)
    _edge_table = None      # entry per draw mode
    _edge_entry = _UNKEYED  # entry keyed last
    _edge_generated = None  # VS CSO -> generated GS CSO
    _edge_gl = None         # [buffer, texture] of the boundary masks

    def _key_polygon_edges(self, mode) -> None:
        """draw_vbo's general path while a face is drawn as lines or points:
        key the edge flags of ``mode`` (Dirty.PROGRAM when they change)."""
        table = self._edge_table
        if table is None or self.dirty & _CLASS_INPUTS:
            table = self._edge_table = self._polygon_edge_table()
            self._edge_entry = _UNKEYED
        if not 0 <= mode < _NPRIMS:
            return  # an unknown mode raises later, in the draw
        entry = table[mode]
        if entry is self._edge_entry:
            return
        if isinstance(entry, str):
            raise UnsupportedError(entry)
        self._edge_entry = entry
        if entry is _OFF:
            self._edge_key = self._edge_gs = None
            self._edge_masks_on = False
        else:
            self._edge_key = entry
            self._edge_gs = self._generated_edge_gs()
            self._edge_masks_on = bool(entry[0] & EDGE_FLAGS_MASKS)
        self._edge_stippled = entry is not _OFF and bool(entry[0] & EDGE_FLAGS_STIPPLE)
        # The vertex flags apply to fast-path modes as well (module docstring).
        self._edge_sticky = entry is not _OFF or bool(table[Prim.TRIANGLES])
        self._keep_general(KeepGeneral.EDGE_FLAGS, self._rast_edge_fill and self._edge_sticky)
        self.dirty |= Dirty.PROGRAM

    def _key_edge_run(self, mode) -> bool:
        """glpipe/fill_modes.py, before a run of one facing drawn in ``mode``
        (a PolygonMode): key the FS for that mode; True when the key changed
        (the caller re-emits the program).  The next draw keys itself anew."""
        key = self._edge_key
        if key is None:
            return False
        fs_mode = int(mode) if mode in _EDGE_MODES else 0
        self._edge_entry = _UNKEYED  # the next draw keys itself (and clears this run's mode)
        if key[2] == fs_mode:
            return False
        self._edge_key = (key[0], key[1], fs_mode)
        return True

    def _polygon_edge_table(self) -> tuple:
        """The entry of every draw mode under the bound shaders and rasterizer:
        None, or (GS edge_flags, VS edge_flags, FS edge_fill: the one drawn
        mode, or 0 when the faces' modes differ -- fill_modes.py keys runs)."""
        vs = self.shader_part.shaders[_VS]
        modes = (self.rasterizer or self._rasterizer_default).key.value[KEY_EDGE_FILL]
        if (not modes or vs is None or self.shader_part.shaders[_GS] is not None
                or self.shader_part.shaders[_TES] is not None):
            return (_OFF,) * _NPRIMS
        fill = modes[0] if len(modes) == 1 else 0
        vertex = EDGE_FLAGS_VERTEX if vs.info.writes_edgeflag else 0
        if self._rast_line_stipple and fill == PolygonMode.LINE:
            return self._edge_stipple_table(vertex)
        table = []
        for mode in range(_NPRIMS):
            if mode not in _POLYGON_MODES:
                table.append(_OFF)
                continue
            gs_bits = vertex | (EDGE_FLAGS_MASKS if mode in NEEDS_TRANSLATION else 0)
            table.append((gs_bits, vertex, fill) if gs_bits else _OFF)
        return tuple(table)

    @staticmethod
    def _edge_stipple_table(vertex: int) -> tuple:
        """Line stipple on polygons drawn as lines: every polygon mode gets the
        counters (GS and VS bit 4), or a refusal (a string) where glpipe has
        no model of the draw module's edge order or the counters would need
        what the capture does not give."""
        entry = (EDGE_FLAGS_STIPPLE, EDGE_FLAGS_STIPPLE, int(PolygonMode.LINE))
        table = []
        for mode in range(_NPRIMS):
            if mode not in _POLYGON_MODES:
                table.append(_OFF)
            elif vertex:
                table.append(_REFUSE_STIPPLE_EDGEFLAG)
            elif mode == Prim.TRIANGLE_STRIP_ADJACENCY:
                table.append(_REFUSE_STIPPLE_STRIP_ADJ)
            else:
                table.append(entry)
        return tuple(table)

    def _generated_edge_gs(self):
        """The pass-through GS after the bound VS (triangles in), one per VS, parsed once."""
        source = self.shader_part.shaders[_VS]
        cache = self._edge_generated
        if cache is None:
            cache = self._edge_generated = {}
        cso = cache.get(source)
        if cso is None:
            for old in [k for k in cache if k.destroyed]:
                self._forget_generated_gs(cache.pop(old))  # glpipe/line_stipple.py
            tokens = passthrough_gs_tokens((source.ir, source.info), "TRIANGLES", "fill_front / fill_back")
            ir = parse(tokens)
            cso = cache[source] = ShaderCSO(self, ShaderType.GEOMETRY, tokens, ir, validate(ir), None)
        return cso

    # -- boundary masks ----------------------------------------------------------------

    def _edge_masks_of(self, prim, count: int, start: int, source, info, flatshade_first: bool) -> np.ndarray:
        """The boundary masks of one translated draw item (its triangles in
        fallback.indices.translate's order)."""
        if source is None:
            return edge_masks(prim, count, start=start, flatshade_first=flatshade_first)
        return edge_masks(prim, count, start=start, indices=source, index_size=source.dtype.itemsize,
                          primitive_restart=info.primitive_restart, restart_index=info.restart_index,
                          flatshade_first=flatshade_first)

    def _edge_masks_translated(self, info, count: int, start: int, source, flatshade_first: bool) -> None:
        """The rasterizer's hook for an index-translated QUADS / QUAD_STRIP /
        POLYGON draw (glpipe/draw.py ``_draw_translated``) while a face is
        drawn as lines or points: upload which edges are the polygon's."""
        if self._edge_masks_on:
            self._upload_edge_masks(self._edge_masks_of(info.mode, count, start, source, info, flatshade_first))

    def _upload_edge_masks(self, masks: np.ndarray) -> None:
        """``masks`` (one byte per triangle of the next GL draw) into the
        buffer texture the generated GS reads (an R8UI texel per triangle)."""
        objs = self._edge_gl
        if objs is None:
            gl = self.gl
            objs = self._edge_gl = [int(gl.glGenBuffers(1)), int(gl.glGenTextures(1))]
        self._geom_buffer_texture(objs, np.ascontiguousarray(masks, np.uint8), self.gl.GL_R8UI)  # line_stipple.py

    def _draw_edge_stipple(self, info, draws) -> None:
        """Draw polygons with fill mode LINE and line stipple: per
        DrawStartCountBias, the draw's VS run once more over the vertices it
        reads (glpipe/vertex_capture.py), each triangle's edge counters and
        mask in the draw module's order (``edge_stipple_texels``) per
        instance, then the triangles as one indexed TRIANGLES draw from
        glpipe/fill_modes.py's index buffer (so gl_PrimitiveIDIn is the
        texels' triangle number)."""
        from .fill_modes import triangles

        items = ((info.start, info.count, info.index_bias),) if draws is None else \
            tuple((d.start, d.count, d.index_bias) for d in draws)
        instances = info.instance_count
        if instances <= 0:
            return
        first = bool((self.rasterizer or self._rasterizer_default).templ.flatshade_first)
        source = self._index_values(info, items) if info.index_size else None
        gl_tris = int(self.gl.GL_TRIANGLES)
        scale = np.array(self.sysvals_part._get_sysval("viewport_scale")[:2], np.float64)
        translate = np.array(self.sysvals_part._get_sysval("viewport_translate")[:2], np.float64)
        for i, (start, count, bias) in enumerate(items):
            if count <= 0:
                continue
            _, restart, vids, bias = self._item_vertices(info, source, start, count, bias)  # vertex_capture.py
            cuts = [-1, *np.flatnonzero(restart).tolist(), count]
            runs = [(a + 1, b) for a, b in zip(cuts, cuts[1:]) if b > a + 1]
            run_tris = [(a, triangles(info.mode, np.arange(b - a), None, first)) for a, b in runs]
            tris = np.concatenate([t + a for a, t in run_tris]) if run_tris else np.zeros((0, 3), np.int64)
            if not len(tris):
                continue
            used = vids[~restart]
            lo, hi = int(used.min()), int(used.max())
            if lo < 0:
                raise InvalidArgumentError(f"draw_vbo: vertex {lo} (index + index_bias) is negative")
            clip = self._capture_positions(lo, hi - lo + 1, instances, info.start_instance,  # vertex_capture.py
                                           "RasterizerState.line_stipple_enable (polygons drawn with fill mode LINE)")
            texels = []
            for inst in range(instances):
                c = clip[inst].astype(np.float64)
                w = c[:, 3:4]
                window = c[:, :2] / np.where(w == 0.0, 1.0, w) * scale + translate
                for (a, b), (_, t) in zip(runs, run_tris):
                    texels.append(edge_stipple_texels(info.mode, t, b - a, first, window[vids[a:b] - lo]))
            self._upload_edge_stipple(np.concatenate(texels), len(tris))
            self._fm_upload((vids[tris] - bias).astype(np.uint32).reshape(-1))  # glpipe/fill_modes.py
            self._fm_draw_run(gl_tris, 0, len(tris), bias, instances, info.start_instance,
                              info.drawid + (i if info.increment_draw_id else 0))

    def _upload_edge_stipple(self, texels: np.ndarray, per_instance: int) -> None:
        """The counters (RGBA32F per triangle and instance) into the GS's
        buffer texture; the triangles per instance into sysvals.line_stipple.z."""
        objs = self._edge_gl
        if objs is None:
            gl = self.gl
            objs = self._edge_gl = [int(gl.glGenBuffers(1)), int(gl.glGenTextures(1))]
        self._geom_buffer_texture(objs, np.ascontiguousarray(texels, np.float32).reshape(-1),
                                  self.gl.GL_RGBA32F)  # line_stipple.py
        stipple = self.sysvals_part._get_sysval("line_stipple")
        self.sysvals_part._set_sysval("line_stipple", (stipple[0], stipple[1], per_instance))
        if self.dirty & Dirty.SYSVALS:
            self.sysvals_part._emit_sysvals()
            self.dirty &= ~Dirty.SYSVALS

    def _destroy_polygon_edges(self) -> None:
        gl = self.gl
        if self._edge_gl is not None:
            gl.glDeleteBuffers(1, [self._edge_gl[0]])
            gl.glDeleteTextures(1, [self._edge_gl[1]])
            self._edge_gl = None
        for cso in (self._edge_generated or {}).values():
            self._forget_generated_gs(cso)
        self._edge_generated = None


__all__ = ["PolygonEdgesMixin", "edge_stipple_texels"]
