"""Different fill modes for the two faces (RasterizerState.fill_front !=
fill_back with both faces drawn): ``FillModesPart`` (``ctx.fill_modes_part``)
splits each draw of polygons into runs of consecutive triangles of one
facing, in primitive order, each drawn with its face's glPolygonMode.  The
module's functions decompose a draw into GL's triangles and classify their
facing from captured positions.

docs/rasterizer.md "Different fill modes per face" has the rule, the four
steps, the refusals and the costs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fallback.indices import NEEDS_TRANSLATION, edge_masks, translate
from lowering.errors import InvalidArgumentError, UnsupportedError

from ..dirty import Dirty
from ..enums import PolygonMode, Prim, ShaderType
from ..part import Area, Part
from ..templates import DrawInfo
from .rasterizer_keys import PRIM_CLASS_POLYGONS, class_fields_on, polygon_class

_VS, _TES, _GS, _FS = (
    int(s) for s in (ShaderType.VERTEX, ShaderType.TESS_EVAL, ShaderType.GEOMETRY, ShaderType.FRAGMENT)
)
_GL_MODE = {PolygonMode.FILL: "GL_FILL", PolygonMode.LINE: "GL_LINE", PolygonMode.POINT: "GL_POINT"}
_FIELD = "draw_vbo: RasterizerState.fill_front / fill_back"
_WHAT = "RasterizerState.fill_front / fill_back (faces drawn in different fill modes)"

# The draw modes whose primitives are polygons (u_reduced_prim's triangles).
POLYGON_PRIMS = frozenset(
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


def triangle_edge_masks(prim, values: np.ndarray, restart=None, flatshade_first: bool = False) -> np.ndarray:
    """The boundary masks (fallback.indices.edge_masks) of ``triangles(prim,
    values, restart, flatshade_first)`` for a translated ``prim``: one per
    triangle, in the same order (glpipe/raster/polygon_edges.py)."""
    values = np.asarray(values).astype(np.int64, copy=False)
    marker = int(values[restart][0]) if restart is not None and restart.any() else 0
    return edge_masks(
        prim,
        len(values),
        indices=values.astype(np.uint32),
        index_size=4,
        primitive_restart=bool(restart is not None and restart.any()),
        restart_index=marker,
        flatshade_first=bool(flatshade_first),
    )


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
        tr = translate(
            prim,
            n,
            indices=values.astype(np.uint32),
            index_size=4,
            primitive_restart=bool(restart is not None and restart.any()),
            restart_index=marker,
            flatshade_first=bool(flatshade_first),
        )
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
    det = (
        x[..., 0] * (y[..., 1] * w[..., 2] - y[..., 2] * w[..., 1])
        - y[..., 0] * (x[..., 1] * w[..., 2] - x[..., 2] * w[..., 1])
        + w[..., 0] * (x[..., 1] * y[..., 2] - x[..., 2] * y[..., 1])
    )
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


class _Face(NamedTuple):
    """How one face of a split draw is drawn (``FillModesPart._fm_faces``)."""

    gl_mode: int  # glPolygonMode's mode
    prim_class: int | None  # the primitive class its runs are keyed with (None: no class-sensitive field)
    mode: PolygonMode  # Gallium's fill mode


class FillModesPart(Part):
    """Drawing polygons whose faces have different fill modes
    (``ctx.fill_modes_part``; docs/rasterizer.md "Different fill modes per face"), reached from the
    draw through the rasterizer's hooks.  Nothing is made until the first
    such draw."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._fm_cso = None  # the rasterizer CSO _fm_faces was computed for
        self._fm_faces_of = None  # its (back, front) _Face entries
        self._fm_buffer = None  # the index buffer of the runs (a GL name)
        self._fm_data = None  # the triangles last uploaded there (uint32)

    def _fm_faces(self, cso) -> tuple[_Face, _Face]:
        """The (back, front) ``_Face`` entries of ``cso``, cached for the CSO
        bound last."""
        if self._fm_cso is cso:
            return self._fm_faces_of
        t, key = cso.templ, cso.key.value
        keyed = class_fields_on(key)
        faces = tuple(
            _Face(int(getattr(self.ctx.gl, _GL_MODE[m])), polygon_class(t, key, m) if keyed else None, m)
            for m in (PolygonMode(t.fill_back), PolygonMode(t.fill_front))
        )
        self._fm_cso, self._fm_faces_of = cso, faces
        return faces

    def _drop_fill_modes_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw: forget the per-face plan."""
        self._fm_cso = self._fm_faces_of = None

    def _fm_check(self, info, faces) -> tuple[int, int]:
        """Refuse what cannot be split (docs/rasterizer.md); returns (instances
        to capture, the instance divisor of the per-instance elements or 0)."""
        ctx = self.ctx
        gs, tes, vs, fs = (ctx.shader_part.shaders[s] for s in (_GS, _TES, _VS, _FS))
        if gs is not None or tes is not None:
            raise UnsupportedError(
                f"{_FIELD}: a bound {'geometry' if gs is not None else 'tessellation'} shader "
                f"makes the triangles, which glpipe cannot re-draw by facing"
            )
        if fs is not None and (fs.info.input("PRIM_ID") is not None or fs.info.system_value("PRIM_ID") is not None):
            raise UnsupportedError(
                f"{_FIELD}: the fragment shader reads PRIM_ID, which restarts at each of the "
                f"sub-draws glpipe splits the draw into by facing"
            )
        if ctx.rasterizer_part.rast_line_stipple and any(f.mode == PolygonMode.LINE for f in faces):
            raise UnsupportedError(
                "draw_vbo: RasterizerState.line_stipple_enable: stippled polygon edges are "
                "drawn for one fill mode only, not with faces in different fill modes "
                "(glpipe/raster/polygon_edges.py)"
            )
        velems = ctx.vertex_part.velems
        divisors = {
            ve.instance_divisor for ve in (velems.elements if velems is not None else ()) if ve.instance_divisor
        }
        if info.instance_count > 1:
            if vs is not None and any(vs.info.system_value(sv) is not None for sv in ("INSTANCEID", "BASEINSTANCE")):
                raise UnsupportedError(
                    f"{_FIELD}: an instanced draw is split per instance, and its VS reads "
                    f"INSTANCEID / BASEINSTANCE, which an instance drawn alone cannot be given"
                )
            if len(divisors) > 1:
                raise UnsupportedError(
                    f"{_FIELD}: an instanced draw is split per instance, and its vertex elements "
                    f"have different instance_divisor values {sorted(divisors)}, which one "
                    f"start instance per sub-draw cannot serve"
                )
        divisor = divisors.pop() if divisors else 0
        return (info.instance_count if divisor else 1), divisor

    def _draw_fill_split(self, info, draws) -> bool:
        """draw_vbo's general path while the bound rasterizer fills its faces
        in different modes: draw ``info`` split by facing and return True, or
        return False for a draw that does not rasterize polygons (it then
        takes the normal path: fill modes do not apply)."""
        ctx = self.ctx
        capture = ctx.vertex_capture_part
        # The class the draw rasterizes as, keyed for it just before
        # (_key_prim_class: this rasterizer is class-sensitive).
        table = ctx.variant_keys_part.prim_class_table
        mode = info.mode
        if not 0 <= mode < len(table) or table[mode] != PRIM_CLASS_POLYGONS:
            return False  # points or lines: fill modes do not apply
        if ctx.shader_part.shaders[_GS] is None and ctx.shader_part.shaders[_TES] is None and mode not in POLYGON_PRIMS:
            return False  # PATCHES without a TES: the normal path raises
        cso = ctx.rasterizer_part.rasterizer
        faces = self._fm_faces(cso)
        ncapture, divisor = self._fm_check(info, faces)
        instances = info.instance_count
        if instances <= 0:
            return True
        items = (
            ((info.start, info.count, info.index_bias),)
            if draws is None
            else tuple((d.start, d.count, d.index_bias) for d in draws)
        )
        first = bool(cso.templ.flatshade_first)
        source = ctx._index_values(info, items) if info.index_size else None
        tris, biases = [], []
        # Fill mode LINE / POINT of a translated primitive: its triangles' boundary masks (glpipe/raster/polygon_edges.py).
        masks = (
            []
            if (
                ctx.rasterizer_part.rast_edge_fill
                and ctx.polygon_edges_part.edge_masks_on
                and info.mode in NEEDS_TRANSLATION
            )
            else None
        )
        for start, count, bias in items:
            if count <= 0:
                tris.append(np.zeros((0, 3), np.int64))
                biases.append(0)
                if masks is not None:
                    masks.append(np.zeros(0, np.uint8))
                continue
            values, restart, _, bias = capture._item_vertices(info, source, start, count, bias)
            tris.append(triangles(info.mode, values, restart, first))
            biases.append(bias)
            if masks is not None:
                masks.append(triangle_edge_masks(info.mode, values, restart, first))
        vids = [t + b for t, b in zip(tris, biases, strict=True)]
        used = [v for v in vids if len(v)]
        if not used:
            return True
        lo = min(int(v.min()) for v in used)
        hi = max(int(v.max()) for v in used)
        if lo < 0:
            raise InvalidArgumentError(f"draw_vbo: vertex {lo} (index + index_bias) is negative")
        clip = capture._capture_positions(lo, hi - lo + 1, ncapture, info.start_instance, _WHAT)
        front_ccw, mirrored = bool(cso.templ.front_ccw), bool(cso.templ.bottom_edge_rule)
        facing = [front_facing(clip, v - lo, front_ccw, mirrored) if len(v) else None for v in vids]
        offsets = np.cumsum([0] + [len(t) for t in tris]).tolist()
        self._fm_upload(np.concatenate(tris).astype(np.uint32).reshape(-1))
        try:
            self._fm_draw_items(
                info, items, biases, facing, offsets, faces, divisor, None if masks is None else np.concatenate(masks)
            )
        finally:
            # Back to the CSO's slot (fill_front), which the rasterizer record holds.
            gl = ctx.gl
            gl.glPolygonMode(gl.GL_FRONT_AND_BACK, faces[1].gl_mode)
            ctx._counters.gl_state_calls += 1
        return True

    def _fm_draw_items(self, info, items, biases, facing, offsets, faces, divisor, masks=None) -> None:
        """The runs of every multi-draw item in order (docs/rasterizer.md, steps 3-4);
        ``masks``: the triangles' boundary masks, uploaded per run."""
        ctx = self.ctx
        gl = ctx.gl
        gl_tris = int(gl.GL_TRIANGLES)
        instances = info.instance_count
        base_si = info.start_instance
        mode_now = None
        for i, (bias, f) in enumerate(zip(biases, facing, strict=True)):
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
                if si != ctx.vertex_part.vertex_start_instance and not ctx.vertex_part.use_base_instance:
                    ctx.vertex_part._emit_vertex(si)  # offsets baked into the attributes (glpipe/vertex.py)
                    self._fm_bind_indices()  # (the VAO holds the element array binding)
                for a, b, front in item_runs:
                    gl_mode, cls, pmode = faces[front]
                    # The run's class (stipple, sprites, ...) and the FS of its
                    # fill mode's edge flags (glpipe/raster/polygon_edges.py).
                    edges = ctx.rasterizer_part.rast_edge_fill and ctx.polygon_edges_part._key_edge_run(pmode)
                    if (cls is not None and cls != ctx.variant_keys_part.prim_class) or edges:
                        self._fm_key_class(cls if cls is not None else ctx.variant_keys_part.prim_class, si)
                    if gl_mode != mode_now:
                        gl.glPolygonMode(gl.GL_FRONT_AND_BACK, gl_mode)
                        ctx._counters.gl_state_calls += 1
                        mode_now = gl_mode
                    if masks is not None:  # a run is a GL draw: gl_PrimitiveIDIn counts from its first
                        ctx.polygon_edges_part._upload_edge_masks(masks[first_tri + a : first_tri + b])
                    self._fm_draw_run(gl_tris, first_tri + a, b - a, bias, count_inst, si, drawid)

    def _fm_key_class(self, cls: int, start_instance: int) -> None:
        """Key the primitive class of a run (its variant: stipple, sprites,
        point smoothing, unscaled offset) and emit the program it selects."""
        ctx = self.ctx
        ctx.variant_keys_part.prim_class = cls
        keep = ctx.dirty
        ctx.dirty = Dirty.PROGRAM
        ctx._update_derived(start_instance)  # the program and whatever it dirtied
        ctx.dirty = keep
        self._fm_bind_indices()  # a new program may have bound another VAO

    def _fm_upload(self, data: np.ndarray) -> None:
        """The draw's triangles into the private index buffer (orphaned each
        draw), bound as the element array of the draw's VAO."""
        ctx = self.ctx
        gl = ctx.gl
        if self._fm_buffer is None:
            self._fm_buffer = int(gl.glGenBuffers(1))
        self._fm_bind_indices()
        gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, data.nbytes, data, gl.GL_STREAM_DRAW)
        self._fm_data = data  # (shaders reading DRAWID draw from user memory: _fm_draw_run)
        ctx._counters.bytes_uploaded += data.nbytes
        if ctx._restart_on:  # the runs are plain triangles
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            ctx._restart_on = False

    def _fm_bind_indices(self) -> None:
        ctx = self.ctx
        gl = ctx.gl
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self._fm_buffer)
        # The index-buffer shadow (draw.py) no longer names what is bound.
        ctx._index_res = None
        ctx._index_name = 0

    def _fm_draw_run(self, gl_tris, first_tri, ntris, bias, instances, start_instance, drawid) -> None:
        """Triangles first_tri..first_tri+ntris-1 of the private index buffer."""
        ctx = self.ctx
        if ctx.shader_part.program_drawid:
            # gl_DrawID through draw.py's multi-draw-indirect path (it binds its own indices).
            data = self._fm_data[3 * first_tri : 3 * (first_tri + ntris)]
            sub = DrawInfo(
                mode=Prim.TRIANGLES,
                index_size=4,
                index=data,
                count=3 * ntris,
                index_bias=bias,
                instance_count=instances,
                start_instance=start_instance,
                drawid=drawid,
            )
            ctx._draw_drawid(sub, gl_tris, None)
            self._fm_bind_indices()
            return
        ptr = ctx._offset_pointer(12 * first_tri)
        gltype = ctx.gl.GL_UNSIGNED_INT
        if start_instance and ctx.vertex_part.use_base_instance:
            ctx._gl_draw_elements_bi(gl_tris, 3 * ntris, gltype, ptr, instances, bias, start_instance)
        else:
            ctx._gl_draw_elements(gl_tris, 3 * ntris, gltype, ptr, instances, bias)

    def destroy(self) -> None:
        """Context.destroy: the runs' index buffer."""
        if self._fm_buffer is not None:
            self.ctx.gl.glDeleteBuffers(1, [self._fm_buffer])
            self._fm_buffer = None
        self._fm_cso = self._fm_faces_of = None


AREA = Area(
    "fill_modes_part",
    part=FillModesPart,
    destroy=FillModesPart.destroy,
    drop_caches=FillModesPart._drop_fill_modes_caches,
)

__all__ = ["AREA", "POLYGON_PRIMS", "FillModesPart", "front_facing", "runs", "triangle_edge_masks", "triangles"]
