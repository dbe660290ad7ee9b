"""Different fill modes for the two faces (RasterizerState.fill_front !=
fill_back with both faces drawn).

The rule.  Gallium (cso/rasterizer.rst) fills each polygon in the mode of
its own facing; Mesa's draw module (draw_pipe_unfilled.c) does it triangle
by triangle, in primitive order.  Core GL's glPolygonMode takes
GL_FRONT_AND_BACK only, so glpipe splits such a draw -- while such a
rasterizer is bound and the draw rasterizes polygons -- into runs of
consecutive triangles of one facing, in GL's primitive order, and draws each
run as indexed TRIANGLES with glPolygonMode set to its facing's mode.  Two
passes (all front faces, then all back faces) would reorder primitives,
which blending and depth ties show; runs keep the order.

Per draw (``_draw_fill_split``, called from draw_vbo's general path, where
such a rasterizer keeps every draw: its variant key marks it, so it is
class-sensitive, glpipe/rasterizer_keys.py):

1. The triangles: the draw's primitives decomposed as GL assembles them
   (``triangles``; strips alternate the order of their odd triangles, fans
   turn around their first vertex, adjacency forms use their even vertices,
   QUADS / QUAD_STRIP / POLYGON are fallback.indices' translation, which is
   what glpipe draws for them anyway), each listed so that its provoking
   vertex (rasterizer flatshade_first) and winding are GL's.  Restart
   indices split strips and fans; multi-draw items are decomposed one by
   one, in order.
2. Their facing: the VS's clip-space positions of the vertices the draw
   reads are captured (glpipe/vertex_capture.py; the VS variant the host
   runs, so y flips, pixel-centre shifts and window-space positions are
   included), and each triangle's sign is that of det[(x, y, w) of its three
   vertices].  That is the sign of the window-space area a (GL 4.6 §14.6.1)
   for the part of the triangle with w > 0 -- the only part the clipper
   keeps -- since the host's viewport scales are positive (a negative y
   scale is a y flip in the vertex stage, docs/rasterizer.md "Viewports").
   With bottom_edge_rule the vertex stage negates y once more and the
   host's clip origin UPPER_LEFT mirrors it back, so Gallium's window area
   is the captured one negated.  a has the sign of Gallium's det (e.x *
   f.y - e.y * f.x, e = p0 - p2, f = p1 - p2, over window positions whose y
   grows downward from row 0): front-facing iff a < 0 with front_ccw, a > 0
   without (softpipe / the draw module's rule, docs/rasterizer.md
   "Winding"); a = 0 (zero area) is back facing, as GL says under either
   winding.
3. The runs: maximal stretches of equal facing, drawn in order, each with
   glPolygonMode set to its face's mode (the CSO's host slot holds
   fill_front and is restored afterwards, so the rasterizer record in
   glpipe/rasterizer.py stays true), from one index buffer of the draw's
   triangles (index_bias as base vertex, so VERTEXID is the draw's).  While
   a class-sensitive field is on, each run is keyed with its mode's
   primitive class (rasterizer_keys.polygon_class): polygon stipple for FILL
   runs, sprite coordinates and point smoothing for POINT runs, an unscaled
   polygon offset for the runs whose mode's offset switch is on.  The host's
   own offset switches (offset_tri / _line / _point) already apply by the
   mode each run is drawn in.
4. Instances: GL draws every primitive of instance 0 before instance 1.
   If the whole draw is one run it is one instanced draw; otherwise each
   instance is drawn on its own (instance_count 1, start_instance moved to
   the element its per-instance attributes fetch), with its own runs when
   per-instance attributes can move its vertices.

Refused (UnsupportedError naming fill_front / fill_back and the reason), for
draws of polygons only: a bound GS emitting triangles or a TES making
triangles (their output cannot be re-drawn by range); an FS reading PRIM_ID
(each sub-draw restarts gl_PrimitiveID); line_stipple_enable with a LINE
face (glpipe/polygon_edges.py stipples polygon edges for one fill mode
only); instanced
draws (instance_count > 1) whose VS reads INSTANCEID or BASEINSTANCE, or
whose vertex elements have different non-zero instance divisors (an
instance drawn alone cannot be given its number, or its per-instance
elements, then); a VS with shader buffers, images or atomics (the capture
runs it again).  Edge flags (glpipe/polygon_edges.py) work per run: each
LINE / POINT run keys the FS with its mode (``_key_edge_run``) and uploads
the boundary masks of its own triangles (``triangle_edge_masks``), so QUADS
/ POLYGON show their outlines in either mode, as with one mode.

Costs: only these draws pay, and they pay much -- a VS re-run with a
readback, numpy work per triangle, an index upload and one GL draw per run
(per instance and run for instanced draws with more than one run).  The
extra VS run shows in pipeline-statistics and primitives-generated queries.
A triangle whose area is within rounding of zero may be classified
differently from the host's own float arithmetic (its gl_FrontFacing may then
disagree with the mode it was drawn in).
"""

from __future__ import annotations

import numpy as np

from fallback.indices import NEEDS_TRANSLATION, edge_masks, translate
from lowering.errors import InvalidArgumentError, UnsupportedError

from .defs import PolygonMode, Prim, ShaderType
from .dirty import Dirty
from .rasterizer_keys import PRIM_CLASS_POLYGONS, class_fields_on, polygon_class
from .state import DrawInfo

_VS, _TES, _GS, _FS = (int(s) for s in (ShaderType.VERTEX, ShaderType.TESS_EVAL, ShaderType.GEOMETRY,
                                        ShaderType.FRAGMENT))
_GL_MODE = {PolygonMode.FILL: "GL_FILL", PolygonMode.LINE: "GL_LINE", PolygonMode.POINT: "GL_POINT"}
_FIELD = "draw_vbo: RasterizerState.fill_front / fill_back"
_WHAT = "RasterizerState.fill_front / fill_back (faces drawn in different fill modes)"

# The draw modes whose primitives are polygons (u_reduced_prim's triangles).
POLYGON_PRIMS = frozenset({Prim.TRIANGLES, Prim.TRIANGLE_STRIP, Prim.TRIANGLE_FAN, Prim.QUADS, Prim.QUAD_STRIP,
                           Prim.POLYGON, Prim.TRIANGLES_ADJACENCY, Prim.TRIANGLE_STRIP_ADJACENCY})


def triangle_edge_masks(prim, values: np.ndarray, restart=None, flatshade_first: bool = False) -> np.ndarray:
    """The boundary masks (fallback.indices.edge_masks) of ``triangles(prim,
    values, restart, flatshade_first)`` for a translated ``prim``: one per
    triangle, in the same order (glpipe/polygon_edges.py)."""
    values = np.asarray(values).astype(np.int64, copy=False)
    marker = int(values[restart][0]) if restart is not None and restart.any() else 0
    return edge_masks(prim, len(values), indices=values.astype(np.uint32), index_size=4,
                      primitive_restart=bool(restart is not None and restart.any()), restart_index=marker,
                      flatshade_first=bool(flatshade_first))


def _run_bounds(n: int, restart):
    """Per position: (not a restart marker, start and end of its run)."""
    pos = np.arange(n, dtype=np.int64)
    if restart is None or not restart.any():
        return np.ones(n, bool), np.zeros(n, np.int64), np.full(n, n, np.int64)
    start = np.maximum.accumulate(np.where(restart, pos + 1, 0))
    end = np.minimum.accumulate(np.where(restart, pos, n)[::-1])[::-1]
    return ~restart, start, end


def triangles(prim, values: np.ndarray, restart=None, flatshade_first: bool = False) -> np.ndarray:
    """The triangles a draw of ``prim`` over ``values`` (index values, or
    vertex numbers) makes, in GL's primitive order: an (n, 3) int64 array of
    values, each row in the vertex order that gives GL's winding and puts
    GL's provoking vertex first (``flatshade_first``) or last.  ``restart``:
    a bool mask of the positions holding the restart index (None: none).
    QUADS / QUAD_STRIP / POLYGON are fallback.indices' translation."""
    values = np.asarray(values).astype(np.int64, copy=False)
    n = len(values)
    if prim in NEEDS_TRANSLATION:
        marker = 0
        if restart is not None and restart.any():
            marker = int(values[restart][0])
        tr = translate(prim, n, indices=values.astype(np.uint32), index_size=4,
                       primitive_restart=bool(restart is not None and restart.any()), restart_index=marker,
                       flatshade_first=bool(flatshade_first))
        return tr.indices.astype(np.int64).reshape(-1, 3)
    valid, start, end = _run_bounds(n, restart)
    pos = np.arange(n, dtype=np.int64)
    rel, length = pos - start, end - start
    if prim == Prim.TRIANGLES:
        p = pos[valid & (rel % 3 == 0) & (rel + 3 <= length)]
        cols = (p, p + 1, p + 2)
    elif prim == Prim.TRIANGLES_ADJACENCY:
        p = pos[valid & (rel % 6 == 0) & (rel + 6 <= length)]
        cols = (p, p + 2, p + 4)
    elif prim in (Prim.TRIANGLE_STRIP, Prim.TRIANGLE_STRIP_ADJACENCY):
        # Triangle i of a strip is (i, i+1, i+2), odd ones (i+1, i, i+2) (GL
        # 4.6 §10.1.5, whose provoking vertex is i+2, or i first); rotated to
        # (i, i+2, i+1) for the first-vertex convention.  With adjacency the
        # same on the even vertices (GL table 10.1).
        step = 2 if prim == Prim.TRIANGLE_STRIP_ADJACENCY else 1
        sel = valid & (rel % step == 0) & (rel + 3 * step <= length)
        p = pos[sel]
        odd = (rel[sel] // step) & 1
        if flatshade_first:
            cols = (p, p + step * (1 + odd), p + step * (2 - odd))
        else:
            cols = (p + step * odd, p + step * (1 - odd), p + 2 * step)
    elif prim == Prim.TRIANGLE_FAN:
        # Triangle i is (0, i+1, i+2); its provoking vertex is i+2, or i+1
        # under the first-vertex convention (cso/rasterizer.rst).
        sel = valid & (rel >= 1) & (rel + 2 <= length)
        p, s = pos[sel], start[sel]
        cols = (p, p + 1, s) if flatshade_first else (s, p, p + 1)
    else:
        raise InvalidArgumentError(f"{_FIELD}: {prim!r} does not make polygons")
    return values[np.stack(cols, axis=1)] if len(p) else np.zeros((0, 3), np.int64)


def front_facing(clip: np.ndarray, rows: np.ndarray, front_ccw: bool, mirrored: bool = False) -> np.ndarray:
    """Whether each triangle is front-facing: ``clip`` is (instances,
    vertices, 4) clip coordinates as the host receives them, ``rows`` (n, 3)
    rows of it, ``mirrored`` whether Gallium's window y is the host's clip y
    negated (bottom_edge_rule); returns (instances, n) bools (see the module
    docstring for the rule)."""
    p = clip[:, rows].astype(np.float64)  # (instances, n, 3, 4)
    x, y, w = p[..., 0], p[..., 1], p[..., 3]
    det = (x[..., 0] * (y[..., 1] * w[..., 2] - y[..., 2] * w[..., 1])
           - y[..., 0] * (x[..., 1] * w[..., 2] - x[..., 2] * w[..., 1])
           + w[..., 0] * (x[..., 1] * y[..., 2] - x[..., 2] * y[..., 1]))
    # det has the sign of Gallium's e.x * f.y - e.y * f.x over its window
    # positions (negated when mirrored); front when front_ccw and it is < 0,
    # or not front_ccw and it is > 0 (docs/rasterizer.md "Winding").
    return det < 0 if front_ccw != mirrored else det > 0


def runs(facing: np.ndarray) -> list:
    """(first, end, is front) of the maximal runs of equal ``facing``."""
    if not len(facing):
        return []
    cuts = np.flatnonzero(facing[1:] != facing[:-1]) + 1
    bounds = [0, *cuts.tolist(), len(facing)]
    return [(bounds[k], bounds[k + 1], bool(facing[bounds[k]])) for k in range(len(bounds) - 1)]


class FillModesMixin:
    """Context methods drawing polygons whose faces have different fill modes
    (mixed into Context; see the module docstring).  Class attributes hold
    the idle state: nothing is made until the first such draw."""

    _fm_plan = None    # (rasterizer CSO, its per-face (GL mode, class or None, PolygonMode))
    _fm_buffer = None  # the index buffer of the runs (a GL name)
    _fm_data = None    # the triangles last uploaded there (uint32)

    def _fm_faces(self, cso) -> tuple:
        """(back, front) entries of ``cso``: (GL polygon mode, primitive class
        to key or None, PolygonMode), cached for the CSO bound last."""
        plan = self._fm_plan
        if plan is not None and plan[0] is cso:
            return plan[1]
        t, key = cso.templ, cso.key.value
        keyed = class_fields_on(key)
        faces = tuple((int(getattr(self.gl, _GL_MODE[m])), polygon_class(t, key, m) if keyed else None, m)
                      for m in (PolygonMode(t.fill_back), PolygonMode(t.fill_front)))
        self._fm_plan = (cso, faces)
        return faces

    def _fm_check(self, info, faces) -> tuple[int, int]:
        """Refuse what cannot be split (module docstring); returns (instances
        to capture, the instance divisor of the per-instance elements or 0)."""
        gs, tes, vs, fs = (self.shader_part.shaders[s] for s in (_GS, _TES, _VS, _FS))
        if gs is not None or tes is not None:
            raise UnsupportedError(f"{_FIELD}: a bound {'geometry' if gs is not None else 'tessellation'} shader "
                                   f"makes the triangles, which glpipe cannot re-draw by facing")
        if fs is not None and (fs.info.input("PRIM_ID") is not None or fs.info.system_value("PRIM_ID") is not None):
            raise UnsupportedError(f"{_FIELD}: the fragment shader reads PRIM_ID, which restarts at each of the "
                                   f"sub-draws glpipe splits the draw into by facing")
        if self._rast_line_stipple and any(f[2] == PolygonMode.LINE for f in faces):
            raise UnsupportedError("draw_vbo: RasterizerState.line_stipple_enable: stippled polygon edges are "
                                   "drawn for one fill mode only, not with faces in different fill modes "
                                   "(glpipe/polygon_edges.py)")
        velems = self.velems
        divisors = {ve.instance_divisor for ve in (velems.elements if velems is not None else ())
                    if ve.instance_divisor}
        if info.instance_count > 1:
            if vs is not None and any(vs.info.system_value(sv) is not None for sv in ("INSTANCEID", "BASEINSTANCE")):
                raise UnsupportedError(f"{_FIELD}: an instanced draw is split per instance, and its VS reads "
                                       f"INSTANCEID / BASEINSTANCE, which an instance drawn alone cannot be given")
            if len(divisors) > 1:
                raise UnsupportedError(f"{_FIELD}: an instanced draw is split per instance, and its vertex elements "
                                       f"have different instance_divisor values {sorted(divisors)}, which one "
                                       f"start instance per sub-draw cannot serve")
        divisor = divisors.pop() if divisors else 0
        return (info.instance_count if divisor else 1), divisor

    def _draw_fill_split(self, info, draws) -> bool:
        """draw_vbo's general path while the bound rasterizer fills its faces
        in different modes: draw ``info`` split by facing and return True, or
        return False for a draw that does not rasterize polygons (it then
        takes the normal path: fill modes do not apply)."""
        # The class the draw rasterizes as, keyed for it just before
        # (_key_prim_class: this rasterizer is class-sensitive).
        table = self.variant_keys_part.prim_class_table
        mode = info.mode
        if not 0 <= mode < len(table) or table[mode] != PRIM_CLASS_POLYGONS:
            return False  # points or lines: fill modes do not apply
        if (self.shader_part.shaders[_GS] is None and self.shader_part.shaders[_TES] is None
                and mode not in POLYGON_PRIMS):
            return False  # PATCHES without a TES: the normal path raises
        cso = self.rasterizer
        faces = self._fm_faces(cso)
        ncapture, divisor = self._fm_check(info, faces)
        instances = info.instance_count
        if instances <= 0:
            return True
        items = ((info.start, info.count, info.index_bias),) if draws is None else \
            tuple((d.start, d.count, d.index_bias) for d in draws)
        first = bool(cso.templ.flatshade_first)
        source = self._index_values(info, items) if info.index_size else None
        tris, biases = [], []
        # Fill mode LINE / POINT of a translated primitive: its triangles' boundary masks (glpipe/polygon_edges.py).
        masks = [] if self._rast_edge_fill and self._edge_masks_on and info.mode in NEEDS_TRANSLATION else None
        for start, count, bias in items:
            if count <= 0:
                tris.append(np.zeros((0, 3), np.int64))
                biases.append(0)
                if masks is not None:
                    masks.append(np.zeros(0, np.uint8))
                continue
            values, restart, _, bias = self._item_vertices(info, source, start, count, bias)  # vertex_capture.py
            tris.append(triangles(info.mode, values, restart, first))
            biases.append(bias)
            if masks is not None:
                masks.append(triangle_edge_masks(info.mode, values, restart, first))
        vids = [t + b for t, b in zip(tris, biases)]
        used = [v for v in vids if len(v)]
        if not used:
            return True
        lo = min(int(v.min()) for v in used)
        hi = max(int(v.max()) for v in used)
        if lo < 0:
            raise InvalidArgumentError(f"draw_vbo: vertex {lo} (index + index_bias) is negative")
        clip = self._capture_positions(lo, hi - lo + 1, ncapture, info.start_instance, _WHAT)
        front_ccw, mirrored = bool(cso.templ.front_ccw), bool(cso.templ.bottom_edge_rule)
        facing = [front_facing(clip, v - lo, front_ccw, mirrored) if len(v) else None for v in vids]
        offsets = np.cumsum([0] + [len(t) for t in tris]).tolist()
        self._fm_upload(np.concatenate(tris).astype(np.uint32).reshape(-1))
        try:
            self._fm_draw_items(info, items, biases, facing, offsets, faces, divisor,
                                None if masks is None else np.concatenate(masks))
        finally:
            # Back to the CSO's slot (fill_front), which the rasterizer record holds.
            gl = self.gl
            gl.glPolygonMode(gl.GL_FRONT_AND_BACK, faces[1][0])
            self._counters.gl_state_calls += 1
        return True

    def _fm_draw_items(self, info, items, biases, facing, offsets, faces, divisor, masks=None) -> None:
        """The runs of every multi-draw item in order (module docstring, 3-4);
        ``masks``: the triangles' boundary masks, uploaded per run."""
        gl = self.gl
        gl_tris = int(gl.GL_TRIANGLES)
        instances = info.instance_count
        base_si = info.start_instance
        mode_now = None
        for i, (bias, f) in enumerate(zip(biases, facing)):
            if f is None:
                continue
            drawid = info.drawid + (i if info.increment_draw_id else 0)
            first_tri = offsets[i]
            if len(f) == 1 or (f[:1] == f).all():
                same = runs(f[0])
                groups = [(None, same)] if len(same) == 1 else [(k, same) for k in range(instances)]
            else:
                groups = [(k, runs(f[k])) for k in range(instances)]
            for k, item_runs in groups:
                # One instance alone: start_instance moved to the element its
                # per-instance attributes fetch (start_instance + k // divisor).
                si = base_si if k is None or not divisor else base_si + k // divisor
                count_inst = instances if k is None else 1
                if si != self._vertex_start_instance and not self._use_base_instance:
                    self._emit_vertex(si)  # offsets baked into the attributes (glpipe/vertex.py)
                    self._fm_bind_indices()  # (the VAO holds the element array binding)
                for a, b, front in item_runs:
                    gl_mode, cls, pmode = faces[front]
                    # The run's class (stipple, sprites, ...) and the FS of its
                    # fill mode's edge flags (glpipe/polygon_edges.py).
                    edges = self._rast_edge_fill and self._key_edge_run(pmode)
                    if (cls is not None and cls != self.variant_keys_part.prim_class) or edges:
                        self._fm_key_class(cls if cls is not None else self.variant_keys_part.prim_class, si)
                    if gl_mode != mode_now:
                        gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl_mode)
                        self._counters.gl_state_calls += 1
                        mode_now = gl_mode
                    if masks is not None:  # a run is a GL draw: gl_PrimitiveIDIn counts from its first
                        self._upload_edge_masks(masks[first_tri + a:first_tri + b])
                    self._fm_draw_run(gl_tris, first_tri + a, b - a, bias, count_inst, si, drawid)

    def _fm_key_class(self, cls: int, start_instance: int) -> None:
        """Key the primitive class of a run (its variant: stipple, sprites,
        point smoothing, unscaled offset) and emit the program it selects."""
        self.variant_keys_part.prim_class = cls
        keep = self.dirty
        self.dirty = Dirty.PROGRAM
        self._update_derived(start_instance)  # the program and whatever it dirtied
        self.dirty = keep
        self._fm_bind_indices()  # a new program may have bound another VAO

    def _fm_upload(self, data: np.ndarray) -> None:
        """The draw's triangles into the private index buffer (orphaned each
        draw), bound as the element array of the draw's VAO."""
        gl = self.gl
        if self._fm_buffer is None:
            self._fm_buffer = int(gl.glGenBuffers(1))
        self._fm_bind_indices()
        gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, data.nbytes, data, gl.GL_STREAM_DRAW)
        self._fm_data = data  # (shaders reading DRAWID draw from user memory: _fm_draw_run)
        self._counters.bytes_uploaded += data.nbytes
        if self._restart_on:  # the runs are plain triangles
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            self._restart_on = False

    def _fm_bind_indices(self) -> None:
        gl = self.gl
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self._fm_buffer)
        # The index-buffer shadow (draw.py) no longer names what is bound.
        self._index_res = None
        self._index_name = 0

    def _fm_draw_run(self, gl_tris, first_tri, ntris, bias, instances, start_instance, drawid) -> None:
        """Triangles first_tri..first_tri+ntris-1 of the private index buffer."""
        if self.shader_part.program_drawid:
            # gl_DrawID through draw.py's multi-draw-indirect path (it binds its own indices).
            data = self._fm_data[3 * first_tri:3 * (first_tri + ntris)]
            sub = DrawInfo(mode=Prim.TRIANGLES, index_size=4, index=data, count=3 * ntris, index_bias=bias,
                           instance_count=instances, start_instance=start_instance, drawid=drawid)
            self._draw_drawid(sub, gl_tris, None)
            self._fm_bind_indices()
            return
        ptr = self._offset_pointer(12 * first_tri)
        gltype = self.gl.GL_UNSIGNED_INT
        if start_instance and self._use_base_instance:
            self._gl_draw_elements_bi(gl_tris, 3 * ntris, gltype, ptr, instances, bias, start_instance)
        else:
            self._gl_draw_elements(gl_tris, 3 * ntris, gltype, ptr, instances, bias)

    def _destroy_fill_modes(self) -> None:
        if self._fm_buffer is not None:
            self.gl.glDeleteBuffers(1, [self._fm_buffer])
            self._fm_buffer = None
        self._fm_plan = None


__all__ = ["POLYGON_PRIMS", "FillModesMixin", "front_facing", "runs", "triangle_edge_masks", "triangles"]
