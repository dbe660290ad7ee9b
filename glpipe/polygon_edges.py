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
  lowering/glsl/passes_edges.py), reading the boundary masks from a buffer
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
from lowering import parse, validate
from lowering.glsl.passes_edges import EDGE_FLAGS_MASKS, EDGE_FLAGS_VERTEX

from .defs import PolygonMode, Prim, ShaderType
from .dirty import Dirty
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
_EDGE_MODES = frozenset({PolygonMode.LINE, PolygonMode.POINT})
_UNKEYED = object()  # _edge_entry before any draw was keyed (never an entry)


class PolygonEdgesMixin:
    """Context methods for polygon edge flags (mixed into Context; see the
    module docstring).  Class attributes hold the idle state."""

    _edge_key = None        # variant-key input: (GS edge_flags, VS edge_flags, FS edge_fill) or None
    _edge_gs = None         # the generated GS of the current draw kind, or None
    _edge_masks_on = False  # the current draw kind uploads boundary masks (a translated primitive)
    _edge_sticky = False    # an edge key is on, or may be for a fast-path draw: keep Dirty.DRAW_STATE
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
        self._edge_entry = entry
        if entry is _OFF:
            self._edge_key = self._edge_gs = None
            self._edge_masks_on = False
        else:
            self._edge_key = entry
            self._edge_gs = self._generated_edge_gs()
            self._edge_masks_on = bool(entry[0] & EDGE_FLAGS_MASKS)
        # The vertex flags apply to fast-path modes as well (module docstring).
        self._edge_sticky = entry is not _OFF or bool(table[Prim.TRIANGLES])
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
        vs = self.shaders[_VS]
        modes = (self.rasterizer or self._rasterizer_default).key.value[KEY_EDGE_FILL]
        if not modes or vs is None or self.shaders[_GS] is not None or self.shaders[_TES] is not None:
            return (_OFF,) * _NPRIMS
        fill = modes[0] if len(modes) == 1 else 0
        vertex = EDGE_FLAGS_VERTEX if vs.info.writes_edgeflag else 0
        table = []
        for mode in range(_NPRIMS):
            if mode not in _POLYGON_MODES:
                table.append(_OFF)
                continue
            gs_bits = vertex | (EDGE_FLAGS_MASKS if mode in NEEDS_TRANSLATION else 0)
            table.append((gs_bits, vertex, fill) if gs_bits else _OFF)
        return tuple(table)

    def _generated_edge_gs(self):
        """The pass-through GS after the bound VS (triangles in), one per VS, parsed once."""
        source = self.shaders[_VS]
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

    def _upload_edge_masks(self, masks: np.ndarray) -> None:
        """``masks`` (one byte per triangle of the next GL draw) into the
        buffer texture the generated GS reads (an R8UI texel per triangle)."""
        objs = self._edge_gl
        if objs is None:
            gl = self.gl
            objs = self._edge_gl = [int(gl.glGenBuffers(1)), int(gl.glGenTextures(1))]
        self._geom_buffer_texture(objs, np.ascontiguousarray(masks, np.uint8), self.gl.GL_R8UI)  # line_stipple.py

    def _destroy_polygon_edges(self) -> None:
        gl = self.gl
        if self._edge_gl is not None:
            gl.glDeleteBuffers(1, [self._edge_gl[0]])
            gl.glDeleteTextures(1, [self._edge_gl[1]])
            self._edge_gl = None
        for cso in (self._edge_generated or {}).values():
            self._forget_generated_gs(cso)
        self._edge_generated = None


__all__ = ["PolygonEdgesMixin"]
