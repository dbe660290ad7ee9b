"""Edge flags of polygons drawn with fill mode LINE or POINT:
``PolygonEdgesPart`` (``ctx.polygon_edges_part``) keys each draw's edge
flags (an ``EdgeKey``, a table per draw mode), inserts the generated
pass-through GS, uploads the boundary masks of translated QUADS / QUAD_STRIP
/ POLYGON, and draws stippled LINE polygons with their edge counters in Mesa's
draw-module order (``edge_stipple_texels``).

docs/rasterizer.md "Polygon edges" has the rule, the GS and FS passes
(lowering/glsl/passes/edges.py), the keying and the costs.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from fallback.indices import NEEDS_TRANSLATION, edge_masks
from lowering import parse, validate
from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.passes.edges import EDGE_FLAGS_MASKS, EDGE_FLAGS_STIPPLE, EDGE_FLAGS_VERTEX

from ..dirty import Dirty, KeepGeneral
from ..enums import PolygonMode, Prim, ShaderType
from ..part import Area, Part
from ..shaders import ShaderCSO
from .fill_modes import triangles
from .line_stipple import BufferTexture, passthrough_gs_tokens
from .rasterizer_keys import KEY_EDGE_FILL

_VS, _TES, _GS = int(ShaderType.VERTEX), int(ShaderType.TESS_EVAL), int(ShaderType.GEOMETRY)
_NPRIMS = max(int(p) for p in Prim) + 1
_CLASS_INPUTS = Dirty.SHADERS | Dirty.PROGRAM | Dirty.RASTERIZER_CSO | Dirty.RASTERIZER

# The draw modes whose primitives are polygons before any fill mode
# (u_reduced_prim's triangles; PATCHES need a TES, whose output has no flags).
_POLYGON_MODES = frozenset(
    {
        Prim.TRIANGLES,
        Prim.TRIANGLE_STRIP,
        Prim.TRIANGLE_FAN,
        Prim.QUADS,
        Prim.QUAD_STRIP,
        Prim.POLYGON,
        Prim.TRIANGLES_ADJACENCY,
        Prim.TRIANGLE_STRIP_ADJACENCY,
    }
)
_OFF = None


class EdgeKey(NamedTuple):
    """A draw mode's edge flags: the variant-key input ``edge_key``
    (glpipe/variant_keys.py reads it as ``VariantKey.edge_flags`` of the GS
    and VS and ``edge_fill`` of the FS; lowering/glsl/passes/edges.py)."""

    gs: int  # the generated GS's EDGE_FLAGS_* bits
    vs: int  # the VS's EDGE_FLAGS_* bits
    fill: int  # the FS's edge_fill: the one drawn PolygonMode, 0 when the faces' modes differ (fill_modes.py keys runs)


_REFUSE_STIPPLE_EDGEFLAG = (
    "draw_vbo: RasterizerState.line_stipple_enable with fill mode LINE: a vertex shader "
    "writing EDGEFLAG is not supported with stippled polygon edges (the counters are "
    "computed from captured positions, which carry no edge flags)"
)
_REFUSE_STIPPLE_STRIP_ADJ = (
    "draw_vbo: RasterizerState.line_stipple_enable with fill mode LINE: "
    "TRIANGLE_STRIP_ADJACENCY polygons' edge order is not modelled for stippling"
)
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
    glpipe/raster/fill_modes.py: translated quads give two, a polygon all)."""
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
    for t, (poly, tri) in enumerate(zip(polys.tolist(), run_tris.tolist(), strict=True)):
        mask = 0
        for j in range(3):
            start = starts.get((poly, tri[j], tri[(j + 1) % 3]))
            if start is not None:
                out[t, j] = start
                mask |= 1 << j
        out[t, 3] = mask
    return out


class PolygonEdgesPart(Part):
    """Polygon edge flags (``ctx.polygon_edges_part``; see the module
    docstring), reached from the draw through the rasterizer's hooks.
    Nothing is made until the first draw with edge flags."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.edge_key = None  # variant-key input: an EdgeKey, or None
        self.edge_gs = None  # the generated GS of the current draw kind, or None
        self.edge_masks_on = False  # the current draw kind uploads boundary masks (a translated primitive)
        self.edge_sticky = False  # an edge key is on, or may be for a fast-path draw: keep Dirty.DRAW_STATE
        self.edge_stippled = False  # the current draw kind draws stippled LINE polygons (_draw_edge_stipple)
        self._edge_table = None  # entry per draw mode
        self._edge_entry = _UNKEYED  # entry keyed last
        self._edge_generated = None  # VS CSO -> generated GS CSO
        self._edge_gl = None  # the BufferTexture of the boundary masks / edge counters

    def _key_polygon_edges(self, mode) -> None:
        """draw_vbo's general path while a face is drawn as lines or points:
        key the edge flags of ``mode`` (Dirty.PROGRAM when they change)."""
        ctx = self.ctx
        table = self._edge_table
        if table is None or ctx.dirty & _CLASS_INPUTS:
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
            self.edge_key = self.edge_gs = None
            self.edge_masks_on = False
        else:
            self.edge_key = entry
            self.edge_gs = self._generated_edge_gs()
            self.edge_masks_on = bool(entry.gs & EDGE_FLAGS_MASKS)
        self.edge_stippled = entry is not _OFF and bool(entry.gs & EDGE_FLAGS_STIPPLE)
        # The vertex flags apply to fast-path modes as well (docs/rasterizer.md "Polygon edges", cost).
        self.edge_sticky = entry is not _OFF or bool(table[Prim.TRIANGLES])
        ctx._keep_general(KeepGeneral.EDGE_FLAGS, ctx.rasterizer_part.rast_edge_fill and self.edge_sticky)
        ctx.dirty |= Dirty.PROGRAM

    def _key_edge_run(self, mode) -> bool:
        """glpipe/raster/fill_modes.py, before a run of one facing drawn in ``mode``
        (a PolygonMode): key the FS for that mode; True when the key changed
        (the caller re-emits the program).  The next draw keys itself anew."""
        key = self.edge_key
        if key is None:
            return False
        fs_mode = int(mode) if mode in _EDGE_MODES else 0
        self._edge_entry = _UNKEYED  # the next draw keys itself (and clears this run's mode)
        if key.fill == fs_mode:
            return False
        self.edge_key = key._replace(fill=fs_mode)
        return True

    def _polygon_edge_table(self) -> tuple:
        """The entry of every draw mode under the bound shaders and rasterizer:
        None, or an ``EdgeKey``."""
        ctx = self.ctx
        vs = ctx.shader_part.shaders[_VS]
        modes = (ctx.rasterizer_part.rasterizer or ctx.rasterizer_part.rasterizer_default).key.value[KEY_EDGE_FILL]
        if (
            not modes
            or vs is None
            or ctx.shader_part.shaders[_GS] is not None
            or ctx.shader_part.shaders[_TES] is not None
        ):
            return (_OFF,) * _NPRIMS
        fill = modes[0] if len(modes) == 1 else 0
        vertex = EDGE_FLAGS_VERTEX if vs.info.writes_edgeflag else 0
        if ctx.rasterizer_part.rast_line_stipple and fill == PolygonMode.LINE:
            return self._edge_stipple_table(vertex)
        table = []
        for mode in range(_NPRIMS):
            if mode not in _POLYGON_MODES:
                table.append(_OFF)
                continue
            gs_bits = vertex | (EDGE_FLAGS_MASKS if mode in NEEDS_TRANSLATION else 0)
            table.append(EdgeKey(gs_bits, vertex, fill) if gs_bits else _OFF)
        return tuple(table)

    @staticmethod
    def _edge_stipple_table(vertex: int) -> tuple:
        """Line stipple on polygons drawn as lines: every polygon mode gets the
        counters (GS and VS bit 4), or a refusal (a string) where glpipe has
        no model of the draw module's edge order or the counters would need
        what the capture does not give."""
        entry = EdgeKey(EDGE_FLAGS_STIPPLE, EDGE_FLAGS_STIPPLE, int(PolygonMode.LINE))
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
        ctx = self.ctx
        source = ctx.shader_part.shaders[_VS]
        cache = self._edge_generated
        if cache is None:
            cache = self._edge_generated = {}
        cso = cache.get(source)
        if cso is None:
            for old in [k for k in cache if k.destroyed]:
                ctx.line_stipple_part._forget_generated_gs(cache.pop(old))  # glpipe/raster/line_stipple.py
            tokens = passthrough_gs_tokens((source.ir, source.info), "TRIANGLES", "fill_front / fill_back")
            ir = parse(tokens)
            cso = cache[source] = ShaderCSO(ctx, ShaderType.GEOMETRY, tokens, ir, validate(ir), None)
        return cso

    # -- boundary masks ----------------------------------------------------------------

    def _edge_masks_of(self, prim, count: int, start: int, source, info, flatshade_first: bool) -> np.ndarray:
        """The boundary masks of one translated draw item (its triangles in
        fallback.indices.translate's order)."""
        if source is None:
            return edge_masks(prim, count, start=start, flatshade_first=flatshade_first)
        return edge_masks(
            prim,
            count,
            start=start,
            indices=source,
            index_size=source.dtype.itemsize,
            primitive_restart=info.primitive_restart,
            restart_index=info.restart_index,
            flatshade_first=flatshade_first,
        )

    def _edge_masks_translated(self, info, count: int, start: int, source, flatshade_first: bool) -> None:
        """The rasterizer's hook for an index-translated QUADS / QUAD_STRIP /
        POLYGON draw (glpipe/draw.py ``_draw_translated``) while a face is
        drawn as lines or points: upload which edges are the polygon's."""
        if self.edge_masks_on:
            self._upload_edge_masks(self._edge_masks_of(info.mode, count, start, source, info, flatshade_first))

    def _edge_objects(self) -> BufferTexture:
        """The masks' / counters' buffer texture, made at the first use."""
        objs = self._edge_gl
        if objs is None:
            objs = self._edge_gl = BufferTexture(self.ctx.gl)
        return objs

    def _upload_edge_masks(self, masks: np.ndarray) -> None:
        """``masks`` (one byte per triangle of the next GL draw) into the
        buffer texture the generated GS reads (an R8UI texel per triangle)."""
        ctx = self.ctx
        objs = self._edge_objects()
        ctx.line_stipple_part._geom_buffer_texture(objs, np.ascontiguousarray(masks, np.uint8), ctx.gl.GL_R8UI)

    def _draw_edge_stipple(self, info, draws) -> None:
        """Draw polygons with fill mode LINE and line stipple: per
        DrawStartCountBias, the draw's VS run once more over the vertices it
        reads (glpipe/raster/vertex_capture.py), each triangle's edge counters and
        mask in the draw module's order (``edge_stipple_texels``) per
        instance, then the triangles as one indexed TRIANGLES draw from
        glpipe/raster/fill_modes.py's index buffer (so gl_PrimitiveIDIn is the
        texels' triangle number)."""
        ctx = self.ctx
        capture = ctx.vertex_capture_part
        items = (
            ((info.start, info.count, info.index_bias),)
            if draws is None
            else tuple((d.start, d.count, d.index_bias) for d in draws)
        )
        instances = info.instance_count
        if instances <= 0:
            return
        first = bool((ctx.rasterizer_part.rasterizer or ctx.rasterizer_part.rasterizer_default).templ.flatshade_first)
        source = ctx._index_values(info, items) if info.index_size else None
        gl_tris = int(ctx.gl.GL_TRIANGLES)
        scale = np.array(ctx.sysvals_part._get_sysval("viewport_scale")[:2], np.float64)
        translate = np.array(ctx.sysvals_part._get_sysval("viewport_translate")[:2], np.float64)
        for i, (start, count, bias) in enumerate(items):
            if count <= 0:
                continue
            _, restart, vids, bias = capture._item_vertices(info, source, start, count, bias)
            cuts = [-1, *np.flatnonzero(restart).tolist(), count]
            runs = [(a + 1, b) for a, b in itertools.pairwise(cuts) if b > a + 1]
            run_tris = [(a, triangles(info.mode, np.arange(b - a), None, first)) for a, b in runs]
            tris = np.concatenate([t + a for a, t in run_tris]) if run_tris else np.zeros((0, 3), np.int64)
            if not len(tris):
                continue
            used = vids[~restart]
            lo, hi = int(used.min()), int(used.max())
            if lo < 0:
                raise InvalidArgumentError(f"draw_vbo: vertex {lo} (index + index_bias) is negative")
            clip = capture._capture_positions(
                lo,
                hi - lo + 1,
                instances,
                info.start_instance,
                "RasterizerState.line_stipple_enable (polygons drawn with fill mode LINE)",
            )
            texels = []
            for inst in range(instances):
                c = clip[inst].astype(np.float64)
                w = c[:, 3:4]
                window = c[:, :2] / np.where(w == 0.0, 1.0, w) * scale + translate
                for (a, b), (_, t) in zip(runs, run_tris, strict=True):
                    texels.append(edge_stipple_texels(info.mode, t, b - a, first, window[vids[a:b] - lo]))
            self._upload_edge_stipple(np.concatenate(texels), len(tris))
            ctx.fill_modes_part._fm_upload(
                (vids[tris] - bias).astype(np.uint32).reshape(-1)
            )  # glpipe/raster/fill_modes.py
            ctx.fill_modes_part._fm_draw_run(
                gl_tris,
                0,
                len(tris),
                bias,
                instances,
                info.start_instance,
                info.drawid + (i if info.increment_draw_id else 0),
            )

    def _upload_edge_stipple(self, texels: np.ndarray, per_instance: int) -> None:
        """The counters (RGBA32F per triangle and instance) into the GS's
        buffer texture; the triangles per instance into sysvals.line_stipple.z."""
        ctx = self.ctx
        objs = self._edge_objects()
        ctx.line_stipple_part._geom_buffer_texture(
            objs, np.ascontiguousarray(texels, np.float32).reshape(-1), ctx.gl.GL_RGBA32F
        )  # line_stipple.py
        stipple = ctx.sysvals_part._get_sysval("line_stipple")
        ctx.sysvals_part._set_sysval("line_stipple", (stipple[0], stipple[1], per_instance))
        if ctx.dirty & Dirty.SYSVALS:
            ctx.sysvals_part._emit_sysvals()
            ctx.dirty &= ~Dirty.SYSVALS

    def destroy(self) -> None:
        """Context.destroy: the buffer texture and the generated GSs."""
        ctx = self.ctx
        gl = ctx.gl
        if self._edge_gl is not None:
            self._edge_gl.delete(gl)
            self._edge_gl = None
        for cso in (self._edge_generated or {}).values():
            ctx.line_stipple_part._forget_generated_gs(cso)
        self._edge_generated = None


AREA = Area("polygon_edges_part", part=PolygonEdgesPart, destroy=PolygonEdgesPart.destroy)

__all__ = ["AREA", "EdgeKey", "PolygonEdgesPart", "edge_stipple_texels"]
