"""pipe_context: the Context, composed of areas (wiring only).

Each area of the pipe context (blend, depth/stencil/alpha, rasterizer,
vertex input, ...) is one module declaring one ``Area`` record
(glpipe/part.py); ``PARTS`` below lists them, one line per area, in the
order their derived-state rows run.  From it the Context gets its parts
(built in that order), its pipe_context methods, its derived-state rows
(``DERIVED_ORDER``), its destroy and GLPIPE_DEBUG=nofast's drops.  The
draw path -- ``draw_vbo``, ``_update_derived``, the fast path -- is
glpipe/draw.py, the Context's one base class.

The state vector and the dirty bits (glpipe/dirty.py) live on the
Context: bind_* / set_* swap a pointer and set a bit (a redundant bind
returns before touching anything); only ``_update_derived`` reads them.
"""

from __future__ import annotations

import weakref
from typing import Any

from lowering.errors import InvalidArgumentError, ObjectDestroyedError

from . import (
    barriers,
    blend,
    blit,
    clear,
    compute,
    constant_buffers,
    copy,
    debug,
    depth_stencil_alpha,
    draw_indirect,
    fence,
    framebuffer,
    mipmap,
    queries,
    render_condition,
    resource_clear,
    sampler_views,
    samplers,
    shader_buffers,
    shader_images,
    shaders,
    stream_output,
    sysvals,
    transfer,
    uploader,
    variant_keys,
    vertex,
    vertex_layer,
    viewport,
)
from .dirty import ALL, Dirty
from .draw import DrawPath
from .driver_queries import Counters
from .enums import ContextFlag, ShaderType, Target
from .host.hotgl import HotGL
from .lifetime import defer_call, drain_deferred, refuse_calls, release_queue
from .part import Area, attach, compose, derived_rows, owner
from .raster import fill_modes, line_stipple, polygon_edges, rasterizer, vertex_capture
from .resource import Resource
from .templates import DrawStartCountBias

D = Dirty

# The areas, one line each, in the order their derived-state rows run (late
# rows after every area's rows; glpipe/part.py).  Why this order: the program
# first (the variant key reads the rasterizer, DSA, framebuffer and samplers,
# and linking binds the program); the blend fixups after the framebuffer (they
# depend on its formats); the window-space override, per-sample shading (over
# min samples) and the sysvals upload late, after what they override or
# consume.  Vertex input has no row: _update_derived emits it last (it needs
# start_instance).
PARTS: tuple[Area, ...] = (
    shaders.AREA,
    variant_keys.AREA,
    vertex.AREA,
    framebuffer.AREA,
    viewport.AREA,
    rasterizer.AREA,
    line_stipple.AREA,
    vertex_layer.AREA,
    vertex_capture.AREA,
    fill_modes.AREA,
    polygon_edges.AREA,
    debug.AREA,
    samplers.AREA,
    sampler_views.AREA,
    constant_buffers.AREA,
    shader_buffers.AREA,
    shader_images.AREA,
    compute.AREA,
    clear.AREA,
    transfer.AREA,
    uploader.AREA,
    copy.AREA,
    blit.AREA,
    mipmap.AREA,
    resource_clear.AREA,
    barriers.AREA,
    fence.AREA,
    queries.AREA,
    render_condition.AREA,
    stream_output.AREA,
    draw_indirect.AREA,
    sysvals.AREA,
    blend.AREA,
    depth_stencil_alpha.AREA,
)

#: ``(dirty bits, area, function)`` in the order _update_derived runs them.
DERIVED_ROWS = derived_rows(PARTS)
#: ``(dirty bits, function)``: the same rows without their areas.
DERIVED_ORDER = tuple((bits, fn) for bits, _area, fn in DERIVED_ROWS)

# ``Context._gl_context`` while a change another thread posted waits (``_post``):
# equal to no context handle, so the draw fast path's host test fails.
_MAIL = object()


class Context(DrawPath):
    """pipe_context.  Made by ``Screen.context_create(priv, flags)``.

    Its pipe_context methods are the areas' (``PARTS``): defined in the
    area's module, on its part; ``draw_vbo`` is glpipe/draw.py's."""

    _nofast = False  # GLPIPE_DEBUG=nofast (read before the ``gl`` setter builds the entry points)
    _areas = PARTS
    _derived_rows = DERIVED_ROWS

    def __init__(self, screen, priv=None, flags=0, debug=frozenset(), host=None):
        self.screen = screen
        self.priv = priv
        # Flags glpipe cannot honour (PREFER_THREADED, ...) are accepted and
        # kept, as docs/api.md "Signatures" says; unknown bits are kept too.
        self.flags = ContextFlag(0) | int(flags)
        # glpipe's debug flags (glpipe/debug.py; Screen.context_create passes
        # the screen's unless given others), fixed for the context's life.
        self.debug_flags = frozenset(debug)
        self._nofast = "nofast" in self.debug_flags
        # The host GL context this context runs on: the screen's, or for a
        # context made on another thread a GL context of the screen's share
        # group current there (Screen.context_create, glpipe/host/egl_share.py).
        self.host = screen.host if host is None else host
        self.gl = self.host.gl  # also builds self._hot (the property below)
        self.destroyed = False
        # Every object this context made (CSOs, surfaces, views), weakly:
        # destroy() marks each destroyed (glpipe/lifetime.py, docs/robustness.md).
        self._objects = weakref.WeakSet()
        # The host's queue of releases waiting for the GL thread (objects dropped
        # unreferenced, resources destroyed off the thread): check_alive drains it.
        self._releases = release_queue(self.host)
        self.host.make_current()
        self.bindings = screen.bindings
        self._has_base_instance = screen.profile.has("base_instance")
        self._counters = Counters()  # this context's own: screen.counters sums them (glpipe/driver_queries.py)
        self.dirty = ALL
        self.keep_general = 0  # glpipe/dirty.py KeepGeneral: set by the areas
        attach(self, PARTS)  # every area, in PARTS order (glpipe/part.py)
        self._init_draw()  # glpipe/draw.py: GL enums, the derived rows bound to the parts
        if self._nofast:
            self.debug_part._install_nofast()  # glpipe/debug.py
        self.host.check("context_create")

    # -- the GL dispatch ---------------------------------------------------------

    @property
    def gl(self) -> Any:  # PyOpenGL's OpenGL.GL module: untyped
        """The GL namespace this context calls (PyOpenGL's OpenGL.GL)."""
        return self._gl

    @gl.setter
    def gl(self, value) -> None:
        # The hot entry points (glpipe/host/hotgl.py) follow the dispatch: raw
        # host functions for PyOpenGL's namespace, the replacement's own
        # functions for anything else (a wrapper counting calls sees them all).
        # GLPIPE_DEBUG=nofast: PyOpenGL's functions even for PyOpenGL's namespace.
        self._gl = value
        self._hot = HotGL(value, native=value is self.host.gl and not self._nofast)
        self._hot_ops = self._hot.ops  # precomputed (op, args) call lists index this

    # -- object checks -------------------------------------------------------

    def check_alive(self, what: str) -> None:
        """Raise ObjectDestroyedError if the context was destroyed.  The entry
        points call it first; it also runs the releases of objects dropped
        unreferenced since the last call (glpipe/lifetime.py), on the GL
        thread, before the entry point touches GL."""
        if self.destroyed:
            raise ObjectDestroyedError(f"{what}: context was destroyed")
        if self._releases:
            drain_deferred(self.host)

    def _own(self, obj):
        """Record ``obj`` (a CSO, surface or view this context just made) so
        destroy() marks it destroyed; returns it."""
        self._objects.add(obj)
        return obj

    def _check_cso(self, cso, cls, what: str) -> None:
        """Raise unless ``cso`` is a live ``cls`` of this context: the wrong
        kind or another context's is InvalidArgumentError, a deleted one
        ObjectDestroyedError (a subclass), each naming ``what``."""
        self.check_alive(what)
        if not isinstance(cso, cls):
            raise InvalidArgumentError(f"{what}: expected a {cls.__name__}, got {type(cso).__name__}")
        if cso.context is not self:
            raise InvalidArgumentError(f"{what}: the state object belongs to another context")
        if cso.destroyed:
            raise ObjectDestroyedError(f"{what}: the state object was deleted")

    def _post(self, fn, *args) -> None:
        """Run ``fn(*args)``, a change of this context's state that a screen
        call on any thread has to make (docs/api.md "Contexts and threads",
        the cross-context rule): now on the context's own thread, else
        queued for it.  The queue is the host's release queue, drained at
        the context's next entry point (``check_alive``) or draw (its
        prologue).  Queueing also sets ``_gl_context`` to a value no current
        context has, so draw_vbo's fast path, which tests only that and the
        dirty word, sends the next draw to the prologue: the owner's
        read-modify-writes of its dirty word never race another thread's,
        and the fast path pays nothing."""
        if self.host.on_gl_thread():
            fn(*args)
            return
        defer_call(self.host, fn, *args)  # before the flag: the prologue restores it, then drains
        self._gl_context = _MAIL

    def _resource_destroyed(self, res) -> None:
        """Screen.resource_destroy destroyed ``res``: every block of host
        state built on it while bound here (framebuffer, vertex buffers,
        sampler views, constant buffers) is marked dirty, so the next draw
        -- on the fast path too, where nothing else changed -- re-emits it
        and the emit refuses the destroyed resource with
        ObjectDestroyedError, as the general path (GLPIPE_DEBUG=nofast)
        does.  Work at destroy time only; draws test nothing more.  (Index
        buffers are checked by every indexed draw.)  Runs on the context's
        thread: Screen.resource_destroy posts it (``_post``)."""
        if self.destroyed:
            return
        bits = 0
        if res.target == Target.BUFFER:
            if any(vb is not None and vb.buffer is res for vb in self.vertex_part.vertex_buffers):
                bits |= Dirty.VERTEX
            if any(
                cb is not None and cb.resource is res for slots in self.constbuf_part.constant_buffers for cb in slots
            ):
                bits |= Dirty.CONSTANTS
        else:
            fb = self.framebuffer_part.framebuffer
            if any(s is not None and s.texture is res for s in fb.cbufs[: fb.nr_cbufs] + (fb.zsbuf,)):
                bits |= Dirty.FRAMEBUFFER
        # Any live view of it (bound or not: the context's views are few, its slots many).
        if any(v.texture is res for v in self.sampler_views_part.views):
            bits |= Dirty.SAMPLER_VIEWS
        self.dirty |= bits

    def _check_resource(self, res, what: str) -> None:
        if not isinstance(res, Resource):
            raise InvalidArgumentError(f"{what}: expected a Resource or user memory, got {type(res).__name__}")
        if res.screen is not self.screen:
            raise InvalidArgumentError(f"{what}: the resource belongs to another screen")
        res.check_alive(what)

    # -- lifetime ----------------------------------------------------------------

    def destroy(self) -> None:
        """Destroy the context and every GL object it made.  Every object it
        made is destroyed with it, and every pipe_context method raises
        ObjectDestroyedError from now on; a second destroy() does nothing."""
        if self.destroyed:
            return
        self.host.make_current()
        drain_deferred(self.host)  # releases of dropped objects, while the parts can still run them
        for area in PARTS:
            if area.destroy is not None:
                area.destroy(owner(self, area))
        self.gl.glBindFramebuffer(self.gl.GL_FRAMEBUFFER, 0)
        self.gl.glUseProgram(0)
        self.destroyed = True
        for obj in list(self._objects):
            obj.destroyed = True
        self._objects = weakref.WeakSet()
        self.dirty = ALL  # off draw_vbo's fast path: the prologue raises
        self.screen._forget_context(self)
        # Before looking at their arguments: bind_*(None), delete_* and
        # surface_destroy used to pass silently on a destroyed context.
        refuse_calls(self, CONTEXT_METHODS, "context")

    def _abandon(self) -> None:
        """Screen.destroy on another thread than this context's: no GL call
        can reach this context's GL context from there, so nothing is
        deleted (the GL context goes with its objects, glpipe/host/egl_share.py);
        the context and its objects are marked destroyed and every
        pipe_context method raises ObjectDestroyedError from now on."""
        if self.destroyed:
            return
        self.destroyed = True
        for obj in list(self._objects):
            obj.destroyed = True
        self._objects = weakref.WeakSet()
        self.dirty = ALL
        self.screen._forget_context(self)
        refuse_calls(self, CONTEXT_METHODS, "context")

    def __repr__(self) -> str:
        state = "destroyed" if self.destroyed else "live"
        return f"<glpipe.Context {state} on {self.screen.profile.name}>"


compose(Context, PARTS)  # the parts' pipe_context methods, on the class (glpipe/part.py PartMethod)

#: Every pipe_context method: the areas' and the draw's.  A destroyed context
#: refuses each (Context.destroy).
CONTEXT_METHODS: tuple[str, ...] = tuple(m for area in PARTS for m in area.methods) + ("draw_vbo", "set_patch_vertices")


__all__ = ["CONTEXT_METHODS", "Context", "DERIVED_ORDER", "DERIVED_ROWS", "PARTS", "DrawStartCountBias", "ShaderType"]
