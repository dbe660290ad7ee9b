"""pipe_context: state objects, bindings and draw_vbo on the host GL.

The Context is assembled from one mixin per concept (shaders, vertex
input, framebuffer, viewport, blend, depth/stencil/alpha, rasterizer,
samplers and views, constant buffers, clears, transfers, fences), each in
its own module.  This module holds what ties them together:

* the state vector and the dirty bits (``glpipe.dirty``): bind_* / set_*
  swap a pointer and set a bit; a redundant bind returns before touching
  anything;
* ``_update_derived``: the one place that turns dirty Gallium state into
  host state, in the fixed order of ``DERIVED_ORDER`` (the program first,
  because the variant key reads the rasterizer, DSA, framebuffer and
  samplers; vertex input after the program because attribute types come
  from the bound vertex shader);
* ``draw_vbo``: validates the draw, emits what is dirty, and issues the
  GL draw.  The common path (no state change, non-indexed, native
  primitive) is a handful of attribute reads and one GL call.
"""

from __future__ import annotations

import ctypes

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from . import host as _hostmod
from .defs import ContextFlag, Prim, ShaderType
from .dirty import ALL, Dirty
from .framebuffer import FramebufferMixin
# -- mixin imports: one line per area module (keep sorted) --
from .resource import Resource
from .shaders import ShaderMixin
from .state import DrawInfo, DrawStartCountBias
from .variant_keys import VariantKeyMixin
from .vertex import VertexMixin
from .viewport import ViewportMixin

# Prims core GL draws as they are (GL enum by Prim); the others go through
# fallback.indices (QUADS, QUAD_STRIP, POLYGON).
_GL_PRIM_NAMES = {
    Prim.POINTS: "GL_POINTS",
    Prim.LINES: "GL_LINES",
    Prim.LINE_LOOP: "GL_LINE_LOOP",
    Prim.LINE_STRIP: "GL_LINE_STRIP",
    Prim.TRIANGLES: "GL_TRIANGLES",
    Prim.TRIANGLE_STRIP: "GL_TRIANGLE_STRIP",
    Prim.TRIANGLE_FAN: "GL_TRIANGLE_FAN",
    Prim.LINES_ADJACENCY: "GL_LINES_ADJACENCY",
    Prim.LINE_STRIP_ADJACENCY: "GL_LINE_STRIP_ADJACENCY",
    Prim.TRIANGLES_ADJACENCY: "GL_TRIANGLES_ADJACENCY",
    Prim.TRIANGLE_STRIP_ADJACENCY: "GL_TRIANGLE_STRIP_ADJACENCY",
    Prim.PATCHES: "GL_PATCHES",
}
_INDEX_TYPES = {1: "GL_UNSIGNED_BYTE", 2: "GL_UNSIGNED_SHORT", 4: "GL_UNSIGNED_INT"}

# (dirty bit, method) in the order _update_derived applies them.  The
# program comes first: the variant key reads the rasterizer, DSA,
# framebuffer and samplers, and linking binds the program.  Vertex input is
# emitted last, by _update_derived itself (it needs start_instance).
DERIVED_ORDER = (
    (Dirty.PROGRAM, "_emit_program"),
    (Dirty.FRAMEBUFFER, "_emit_framebuffer"),
    (Dirty.VIEWPORT, "_emit_viewport"),
    (Dirty.SCISSOR, "_emit_scissor"),
    # -- area rows: add yours here, one line each --
)


class Context(
    ShaderMixin,
    VariantKeyMixin,
    VertexMixin,
    FramebufferMixin,
    ViewportMixin,
    # -- area mixins: add yours here, one line each --
):
    """pipe_context.  Made by ``Screen.context_create(priv, flags)``."""

    def __init__(self, screen, priv=None, flags=0):
        self.screen = screen
        self.priv = priv
        # Flags glpipe cannot honour (PREFER_THREADED, ...) are accepted and
        # kept, as API.md says; unknown bits are kept too.
        self.flags = ContextFlag(0) | int(flags)
        self.host = screen.host
        self.gl = screen.host.gl
        self.destroyed = False
        self.host.make_current()
        prof = screen.profile
        self.bindings = screen.bindings
        self._has_base_instance = prof.has("base_instance")
        self.dirty = ALL
        self._init_shaders()
        self._init_vertex()
        self._init_framebuffer()
        self._init_viewport()
        # -- area inits: add yours here, one line each --
        gl = self.gl
        self._gl_prims = {p: int(getattr(gl, n)) for p, n in _GL_PRIM_NAMES.items()}
        self._gl_index_types = {s: int(getattr(gl, n)) for s, n in _INDEX_TYPES.items()}
        self._draw_arrays = gl.glDrawArraysInstanced
        self._draw_elements = gl.glDrawElementsInstancedBaseVertex
        self._draw_arrays_bi = getattr(gl, "glDrawArraysInstancedBaseInstance", None)
        self._draw_elements_bi = getattr(gl, "glDrawElementsInstancedBaseVertexBaseInstance", None)
        self._restart = (False, 0)
        self._counters = screen.counters
        self.host.check("context_create")

    # -- object checks -------------------------------------------------------

    def check_alive(self, what: str) -> None:
        """Raise ObjectDestroyedError if the context was destroyed."""
        if self.destroyed:
            raise ObjectDestroyedError(f"{what}: context was destroyed")

    def _check_cso(self, cso, cls, what: str) -> None:
        if not isinstance(cso, cls):
            raise InvalidArgumentError(f"{what}: expected a {cls.__name__}, got {type(cso).__name__}")
        if cso.context is not self:
            raise InvalidArgumentError(f"{what}: the state object belongs to another context")
        if cso.destroyed:
            raise ObjectDestroyedError(f"{what}: the state object was deleted")

    def _check_resource(self, res, what: str) -> None:
        if not isinstance(res, Resource):
            raise InvalidArgumentError(f"{what}: expected a Resource or user memory, got {type(res).__name__}")
        if res.screen is not self.screen:
            raise InvalidArgumentError(f"{what}: the resource belongs to another screen")
        res.check_alive(what)

    # -- derived state -------------------------------------------------------

    def _update_derived(self, start_instance: int) -> None:
        """Turn every dirty Gallium block into host state, in DERIVED_ORDER,
        then the vertex input (which depends on the program and on
        start_instance where the host lacks base instance)."""
        dirty = self.dirty
        for bit, method in DERIVED_ORDER:
            if dirty & bit:
                getattr(self, method)()
        if dirty & Dirty.VERTEX:
            self._emit_vertex(start_instance)
        # User vertex buffers are only valid for one draw: upload again next time.
        self.dirty = Dirty.VERTEX if self._vertex_user else Dirty(0)

    # -- drawing ---------------------------------------------------------------

    def draw_vbo(self, info: DrawInfo, draws=None, indirect=None) -> None:
        """pipe_context::draw_vbo (context.rst "Drawing").

        ``draws`` is an optional sequence of DrawStartCountBias for
        multi-draw; without it the draw is ``info.start``/``count``/
        ``index_bias``.  Indirect draws arrive with their own issue: until
        then ``indirect`` raises UnsupportedError (the caps say 0).
        """
        if self.destroyed:
            raise ObjectDestroyedError("draw_vbo: context was destroyed")
        if indirect is not None:
            raise UnsupportedError("draw_vbo: indirect draws are not supported yet (PIPE_CAP_DRAW_INDIRECT is 0)")
        if _hostmod._current_host is not self.host:
            self.host.make_current()
        if info.start_instance != self._vertex_start_instance and not self._has_base_instance:
            self.dirty |= Dirty.VERTEX
        if self.dirty:
            self._update_derived(info.start_instance)
        mode = self._gl_prims.get(info.mode)
        if mode is None:
            self._draw_translated(info, draws)
        elif info.index_size:
            self._draw_indexed(info, mode, draws)
        else:
            instances = info.instance_count
            if draws is None:
                self._draw_arrays_one(mode, info.start, info.count, instances, info.start_instance)
            else:
                for d in draws:
                    self._draw_arrays_one(mode, d.start, d.count, instances, info.start_instance)
        self._counters.draw_calls += 1
        if self._upload_buffers:
            self._release_uploads()

    def _draw_arrays_one(self, mode, start, count, instances, start_instance) -> None:
        if count <= 0 or instances <= 0:
            return
        if start_instance and self._has_base_instance:
            self._draw_arrays_bi(mode, start, count, instances, start_instance)
        else:
            self._draw_arrays(mode, start, count, instances)

    def _draw_indexed(self, info, mode, draws) -> None:
        gl = self.gl
        size = info.index_size
        gltype = self._gl_index_types[size]
        if info.has_user_indices:
            name = self._upload_indices(info.index)
        else:
            self._check_resource(info.index, "draw_vbo: info.index")
            name = info.index.gl_object
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, name)
        restart = (bool(info.primitive_restart), info.restart_index if info.primitive_restart else 0)
        if restart != self._restart:
            if restart[0]:
                gl.glEnable(gl.GL_PRIMITIVE_RESTART)
                # Gallium compares the index from the buffer, before index_bias,
                # as GL does; only the index type's bits can match.
                gl.glPrimitiveRestartIndex(restart[1] & ((1 << (8 * size)) - 1))
            else:
                gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            self._restart = restart
        elif restart[0]:
            gl.glPrimitiveRestartIndex(restart[1] & ((1 << (8 * size)) - 1))
        instances = info.instance_count
        items = ((info.start, info.count, info.index_bias),) if draws is None else \
            tuple((d.start, d.count, d.index_bias) for d in draws)
        for start, count, bias in items:
            if count <= 0 or instances <= 0:
                continue
            ptr = ctypes.c_void_p(start * size)
            if info.start_instance and self._has_base_instance:
                self._draw_elements_bi(mode, count, gltype, ptr, instances, bias, info.start_instance)
            else:
                self._draw_elements(mode, count, gltype, ptr, instances, bias)

    def _upload_indices(self, data) -> int:
        return self._upload_user(data)

    def _draw_translated(self, info: DrawInfo, draws) -> None:
        """QUADS / QUAD_STRIP / POLYGON: index translation in fallback.indices."""
        from fallback.indices import translate

        import numpy as np

        items = ((info.start, info.count, info.index_bias),) if draws is None else \
            tuple((d.start, d.count, d.index_bias) for d in draws)
        rast = getattr(self, "rasterizer", None)
        flatshade_first = bool(rast is not None and rast.templ.flatshade_first)
        for start, count, bias in items:
            if info.index_size:
                src = np.frombuffer(memoryview(info.index).cast("B"), dtype={1: np.uint8, 2: np.uint16, 4: np.uint32}[
                    info.index_size]) if info.has_user_indices else self._read_index_resource(info)
                src = src[start:start + count]
                tr = translate(info.mode, count, indices=src, index_size=info.index_size,
                               primitive_restart=info.primitive_restart, restart_index=info.restart_index,
                               flatshade_first=flatshade_first)
            else:
                tr = translate(info.mode, count, start=start, flatshade_first=flatshade_first)
            if tr.count == 0:
                continue
            # Non-indexed: the translated indices are vertex numbers already, and
            # index_bias is ignored when index_size == 0 (API.md).
            sub = DrawInfo(mode=tr.prim, index_size=tr.index_size, index=tr.indices, count=tr.count,
                           index_bias=bias if info.index_size else 0, instance_count=info.instance_count,
                           start_instance=info.start_instance)
            self._counters.fallback_hits += 1
            self._draw_indexed(sub, self._gl_prims[tr.prim], None)

    def _read_index_resource(self, info):
        import numpy as np

        res = info.index
        self._check_resource(res, "draw_vbo: info.index")
        gl = self.gl
        nbytes = res.width0
        out = np.empty(nbytes, np.uint8)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
        gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, nbytes, out)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        self.screen.counters.bytes_downloaded += nbytes
        return out.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[info.index_size])

    def set_patch_vertices(self, n: int) -> None:
        """pipe_context::set_patch_vertices: vertices per patch for PATCHES."""
        self.check_alive("set_patch_vertices")
        if not self.screen.profile.has("tessellation_shader"):
            raise UnsupportedError("set_patch_vertices: tessellation is not available on this host profile")
        if not 1 <= int(n) <= self.screen.profile.limit("GL_MAX_PATCH_VERTICES"):
            raise InvalidArgumentError(f"set_patch_vertices: {n} outside 1..GL_MAX_PATCH_VERTICES")
        self.gl.glPatchParameteri(self.gl.GL_PATCH_VERTICES, int(n))

    # -- lifetime ----------------------------------------------------------------

    def destroy(self) -> None:
        """Destroy the context and every GL object it made."""
        if self.destroyed:
            return
        self.host.make_current()
        self._destroy_framebuffers()
        self._destroy_shaders()
        self._destroy_vertex()
        # -- area destroys: add yours here, one line each --
        self.gl.glBindFramebuffer(self.gl.GL_FRAMEBUFFER, 0)
        self.gl.glUseProgram(0)
        self.destroyed = True
        self.screen._forget_context(self)

    def __repr__(self) -> str:
        state = "destroyed" if self.destroyed else "live"
        return f"<glpipe.Context {state} on {self.screen.profile.name}>"


__all__ = ["Context", "DERIVED_ORDER", "DrawStartCountBias", "ShaderType"]
