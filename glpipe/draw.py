"""The draw path: ``draw_vbo``, its fast path, and ``_update_derived`` (``DrawPath``, the
Context's draw side).

docs/architecture.md "One draw, end to end" traces a draw on the fast and general paths.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .boundary import in_range, instance, items
from .dirty import ALL, Dirty, KeepGeneral
from .enums import Prim, ShaderType
from .lifetime import drain_deferred
from .templates import DrawIndirectInfo, DrawInfo, DrawStartCountBias
from .vertex import INDEX_UNBOUND, gl_function, offset_pointer

# Prims core GL draws as they are (GL enum by Prim).  PATCHES is left out on
# purpose: it takes _draw_special, which checks tessellation on the host and
# a bound TES; QUADS, QUAD_STRIP and POLYGON go through fallback.indices.
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
}
_INDEX_TYPES = {1: "GL_UNSIGNED_BYTE", 2: "GL_UNSIGNED_SHORT", 4: "GL_UNSIGNED_INT"}
_DRAW_STATE = Dirty.DRAW_STATE  # module globals: the draw path reads them per draw
_VERTEX = Dirty.VERTEX
_MODE_CHECK = Dirty.MODE_CHECK
_GENERAL = Dirty.DRAW_STATE | Dirty.MODE_CHECK  # the bits a derived-state runner never clears
_SO_BOUND = KeepGeneral.STREAM_OUTPUT
_PRIM_CHECK = KeepGeneral.PRIM_CHECK
_TEXTURE_PARAMS = KeepGeneral.TEXTURE_PARAMS


# GL's draw parameters are GLint / GLsizei (signed 32-bit) where Gallium's
# are unsigned: a start, count or instance count in [2**31, 2**32) is a valid
# pipe_draw_info that the host cannot take (GL_INVALID_VALUE, left pending
# for the next call).  Refused here, once per DrawInfo (its memo), before GL.
_GL_INT_MAX = 2**31 - 1


def _check_gl_ranges(start: int, count: int, instance_count: int) -> None:
    if count > _GL_INT_MAX or start > _GL_INT_MAX or instance_count > _GL_INT_MAX:
        raise UnsupportedError(
            f"draw_vbo: start {start}, count {count}, instance_count {instance_count}: the host GL takes "
            f"at most {_GL_INT_MAX} (GLint/GLsizei); split the draw"
        )


def _check_draws(draws) -> tuple:
    """The multi-draw list: DrawStartCountBias entries inside GL's ranges."""
    draws = items(draws, "draw_vbo: draws")
    for i, d in enumerate(draws):
        instance(d, DrawStartCountBias, f"draw_vbo: draws[{i}]")
        _check_gl_ranges(d.start, d.count, 0)
    return draws


class DrawPath:
    """The Context's draw side (module docstring).  ``Context`` sets
    ``_areas`` (its ``PARTS``) and ``_derived_rows`` (``part.derived_rows``
    of them) on the class."""

    _areas: tuple = ()
    _derived_rows: tuple = ()
    # The Context's state vector words (glpipe/dirty.py), set in its __init__.
    dirty: int
    keep_general: int

    if TYPE_CHECKING:
        # The parts (``ctx.blend_part`` ...) are attached per context from
        # ``PARTS`` (glpipe/part.py ``attach``), and the Context's own state
        # (``screen``, ``gl``, ``dirty`` ...) is set in its ``__init__``:
        # names the type checker cannot see on this base.  Declaring each one
        # here would make adding an area touch a second line of
        # registration; this type-checking-only hook stands in for them.
        def __getattr__(self, name: str) -> Any: ...

    def _init_draw(self) -> None:
        gl = self.gl
        self._gl_prims = {p: int(getattr(gl, n)) for p, n in _GL_PRIM_NAMES.items()}
        self._gl_index_types = {s: int(getattr(gl, n)) for s, n in _INDEX_TYPES.items()}
        self._derived_plans: dict[int, tuple] = {}
        # draw_vbo's fast path: one callable per dirty word (``_derived_run``)
        # and, for words that select a single row, the row after it.
        self._derived_runs: dict = {}
        self._derived_after: dict[int, int] = {}
        self._bind_rows()
        # The current-context test of every draw (glpipe/host/gl.py
        # make_current): one ctypes call and a compare, on the fast path too.
        self._gl_current = self.host.current_context
        self._gl_context = self.host.context_handle
        # The modes the bound GS / TES takes (``_modes_taken``): the shader
        # pair they were computed for, the Prims, the GL modes.
        self._modes_memo: tuple = ((None, None), frozenset(Prim), frozenset())
        self._gl_modes_taken: frozenset = frozenset()  # what a fast draw under Dirty.MODE_CHECK may draw
        raw = not self._nofast  # GLPIPE_DEBUG=nofast: PyOpenGL's entry points
        # The draw entry points as plain ctypes functions (draw_vbo is the hot
        # path; PyOpenGL's wrappers cost about a microsecond per call).
        self._gl_draw_arrays = gl_function(gl, "glDrawArraysInstanced", raw)
        self._gl_draw_arrays_bi = gl_function(gl, "glDrawArraysInstancedBaseInstance", raw)
        self._gl_draw_elements = gl_function(gl, "glDrawElementsInstancedBaseVertex", raw)
        self._gl_draw_elements_bi = gl_function(gl, "glDrawElementsInstancedBaseVertexBaseInstance", raw)
        self._offset_pointer = offset_pointer
        self._null_pointer = offset_pointer(0)
        # The draw-side host state shadows.
        self._restart_on = False
        self._restart_index = None
        self._index_res: Any = INDEX_UNBOUND  # what the VAO's ELEMENT_ARRAY binding holds: a Resource or the ring
        self._index_name = 0  # ... and its GL name then
        self._index_nbytes = 0  # ... and its size in bytes (a Resource's width0)
        self._patch_vertices: int | None = None  # set_patch_vertices' value ...
        self._gl_patch_vertices: int | None = None  # ... and GL_PATCH_VERTICES as this context last set it

    def _keep_general(self, bit: int, on) -> None:
        """An area's reason to keep draw_vbo on its general path
        (glpipe/dirty.py ``KeepGeneral``) starts (``on``) or stops."""
        if on:
            self.keep_general |= bit
        else:
            self.keep_general &= ~bit

    def _bind_rows(self) -> None:
        """``_bound_rows``: (dirty bits, bound emit method) per derived row,
        each looked up by name on its part, so a method replaced on the instance (benchmarks/
        diagnose.py's timers) is the one called."""
        from .part import owner

        self._bound_rows = tuple(
            (bits, getattr(owner(self, area), fn.__name__)) for bits, area, fn in self._derived_rows
        )

    # -- derived state -------------------------------------------------------

    def _update_derived(self, start_instance: int) -> None:
        """Turn every dirty Gallium block into host state, row by row
        (``_derived_rows``: the areas' rows in PARTS order, then their late
        rows), then the vertex input (which depends on the program and on
        start_instance where the host lacks base instance).

        The rows to run for a dirty word are computed once per word value
        (``_derived_plan``) as bound methods, so a draw after one bind calls
        that block's emit and nothing else.  An emit may dirty a block of a
        *later* row (a new program can need its texture units rebound), which
        must go out in this same pass: when the word changes under the plan,
        the remaining rows are walked re-reading it.  Emits never dirty an
        earlier row."""
        dirty = self.dirty
        self._apply_plan(self._derived_plans.get(dirty) or self._derived_plan(dirty), dirty)
        if self.dirty & _VERTEX:
            self.vertex_part._emit_vertex(start_instance)

    def _apply_plan(self, plan: tuple, dirty: int) -> None:
        """Run ``plan`` (the rows ``dirty`` selects); when an emit changes the
        word under it, the remaining rows are walked re-reading it (an emit may
        dirty a later row, never an earlier one)."""
        for row, emit in plan:
            emit()
            if self.dirty != dirty:
                self._update_derived_rows(row + 1)
                return

    def _derived_plan(self, dirty: int) -> tuple:
        """(row index, bound emit method) of every derived row ``dirty`` selects."""
        if len(self._derived_plans) > 256:  # dirty words seen are few; keep the cache bounded anyway
            self._derived_plans.clear()
        plan = tuple((i, emit) for i, (bits, emit) in enumerate(self._bound_rows) if dirty & bits)
        self._derived_plans[dirty] = plan
        return plan

    def _update_derived_rows(self, first: int) -> None:
        """The rows from ``first`` on, each run if the dirty word selects it now."""
        for bits, emit in self._bound_rows[first:]:
            if self.dirty & bits:
                emit()

    def _reset_derived_plans(self) -> None:
        """Forget the bound emit methods of the plans (after an emit method is
        replaced on the instance, e.g. by benchmarks/diagnose.py's timers)."""
        self._bind_rows()
        self._derived_plans.clear()
        self._derived_runs.clear()
        self._derived_after.clear()

    def _derived_run(self, dirty: int):
        """draw_vbo's fast path: the one callable applying ``dirty`` (start
        instance 0).  A word selecting one row runs that row's bound emit
        directly -- a call and a loop less per switching draw, which is a
        tenth of a switch's cost (docs/performance.md) -- and
        ``_derived_settle`` finishes the rare emit that dirties a later row;
        any other word runs ``_run_plan``, which finishes its own."""
        if len(self._derived_runs) > 256:
            self._derived_runs.clear()
            self._derived_after.clear()
        plan = self._derived_plans.get(dirty) or self._derived_plan(dirty)
        if len(plan) == 1 and not dirty & _VERTEX:
            ((row, run),) = plan
            self._derived_after[dirty] = row + 1
        elif dirty == _VERTEX:  # new vertex buffers or layout: the commonest change of all
            # The vertex input itself (start instance 0 by default).  Measured
            # against the hand-unrolled copy it replaced (_emit_vertex_layout,
            # removed): 20-25 ns more per layout switch, ~1.5% of the switching
            # draw, below what benchmarks/bench_draw.py resolves (docs/performance.md).
            run = self.vertex_part._emit_vertex
        else:
            run = functools.partial(self._run_plan, plan, dirty)
        self._derived_runs[dirty] = run
        return run

    def _run_plan(self, plan: tuple, dirty: int) -> None:
        """Apply ``plan`` (the rows ``dirty`` selects) and the vertex input,
        as _update_derived does for start instance 0, then leave the word as
        it was unless an emit asked for the general path (Dirty.DRAW_STATE)."""
        self._apply_plan(plan, dirty)
        if dirty & _VERTEX:
            self.vertex_part._emit_vertex(0)
        self.dirty = dirty | (self.dirty & _DRAW_STATE)

    def _derived_settle(self, dirty: int) -> None:
        """After a one-row runner changed the dirty word: the rows after it
        that the word now selects (emits never dirty an earlier row)."""
        after = self._derived_after.get(dirty)
        if after is not None and self.dirty & ~(dirty | _DRAW_STATE):
            self._update_derived_rows(after)

    # -- drawing ---------------------------------------------------------------

    def draw_vbo(
        self,
        info: DrawInfo,
        draws: Sequence[DrawStartCountBias] | None = None,
        indirect: DrawIndirectInfo | None = None,
    ) -> None:
        """pipe_context::draw_vbo (context.rst "Drawing").

        ``draws`` is an optional sequence of DrawStartCountBias for
        multi-draw; without it the draw is ``info.start``/``count``/
        ``index_bias``.  ``min_index``/``max_index`` are hints glpipe does
        not need (any over-estimate renders the same).  ``indirect`` (a
        DrawIndirectInfo) draws the commands of an indirect buffer, or the
        vertices a stream output target captured (draw auto):
        glpipe/draw_indirect.py, docs/stream_output.md.

        The common path -- one non-indexed draw of a natively drawable
        primitive without start_instance -- is a few tests and one GL call
        after the dirty blocks: the GL arguments are memoized on the (frozen)
        DrawInfo, and every rare condition (primitive restart left on, user
        vertex buffers, start_instance offsets baked into the attributes, a
        program reading DRAWID, another context or a clear took the host,
        a rasterizer whose variant depends on the primitive class) keeps
        Dirty.DRAW_STATE (or everything) set, so testing the dirty word
        covers them.  Everything else goes through ``_draw_general``.
        """
        try:
            args = info._draw_cache  # (a try costs nothing until it raises)
        except AttributeError:
            raise InvalidArgumentError(f"draw_vbo: info must be a DrawInfo, got {type(info).__name__}") from None
        # The thread's current GL context is asked on every draw: the
        # application may have made another one current since the last call
        # (docs/api.md "Contexts and threads"); then the general path's
        # prologue switches back, or raises on another thread.  The query is
        # loaded into a local before the call: ``self._gl_current()`` compiles
        # to a method lookup, which an instance attribute sends down CPython's
        # generic path (40 ns more per draw, docs/performance.md).
        current = self._gl_current
        if args and draws is None and indirect is None and current() == self._gl_context:
            dirty = self.dirty
            if not dirty:
                self._gl_draw_arrays(*args)
                self._counters.draw_calls += 1
                return
            # A context that is not the screen's drawing context always has
            # Dirty.DRAW_STATE set (whoever takes the host sets ALL on it), and
            # so has the drawing context while its host's GL context is not
            # current (glpipe/host/gl.py _switch_current): this test keeps both
            # out, and Dirty.MODE_CHECK too (below).
            if not dirty & _GENERAL:
                # _update_derived(0) in one call: the word's runner is the one
                # emit it selects (a bind between draws: the common case) or
                # _run_plan; vertex input included (no derived row).
                try:
                    run = self._derived_runs[dirty]  # a subscript: cheaper than .get here
                except KeyError:
                    run = self._derived_run(dirty)
                run()
                if self.dirty == dirty:
                    self.dirty = 0
                    self._gl_draw_arrays(*args)
                    self._counters.draw_calls += 1
                    return
                # An emit dirtied a later row, or bound a program reading
                # DRAWID (Dirty.DRAW_STATE): finish, then the general path draws.
                self._derived_settle(dirty)
                self.dirty = _DRAW_STATE
            elif dirty == _MODE_CHECK and args[0] in self._gl_modes_taken:
                # A GS / TES is bound and nothing else keeps the general path
                # (set at its end): a mode the bound shaders take draws here.
                self._gl_draw_arrays(*args)
                self._counters.draw_calls += 1
                return
        self._draw_general(info, draws, indirect)

    def _draw_general(self, info: DrawInfo, draws, indirect) -> None:
        """draw_vbo's full path: the prologue's checks, the dirty blocks, then
        the draw by kind (an inline path for indexed draws of the index
        buffer bound last time).  Under a render condition the draw runs
        through its gate (glpipe/render_condition.py), which predicates it or
        skips it."""
        gate = self._render_gate
        if gate is not None:
            # The gate calls back here with itself unset for the call.
            gate(self._draw_general, info, draws, indirect)
            return
        # (A destroyed context is never its host's drawing context, so the
        # second test also sends it to the prologue, which raises.)
        current = self._gl_current  # (a local: see draw_vbo)
        if indirect is not None or self.host.drawing_context is not self or current() != self._gl_context:
            self._draw_prologue(indirect)
            if indirect is not None and self.draw_indirect_part.draw(info, draws, indirect):
                return  # drawn as direct draws: draw auto, or commands read back (glpipe/draw_indirect.py)
        if getattr(info, "_draw_cache", None) is None:
            if not isinstance(info, DrawInfo):  # once per DrawInfo (the memo below)
                raise InvalidArgumentError(f"draw_vbo: info must be a DrawInfo, got {type(info).__name__}")
            _check_gl_ranges(info.start, info.count, info.instance_count)
            object.__setattr__(info, "_draw_cache", self._fast_arrays_args(info))
        if draws is not None:
            draws = _check_draws(draws)
            if not draws:
                return  # num_draws = 0: nothing to draw (its state stays dirty for the next draw)
        start_instance = info.start_instance
        vertex = self.vertex_part
        if start_instance != vertex.vertex_start_instance and not vertex.use_base_instance:
            self.dirty |= Dirty.VERTEX  # baked into the attribute offsets (glpipe/vertex.py)
        keys = self._raster_draw_keys
        if keys is not None:
            # The rasterizer keys this draw (its primitive class, its edge
            # flags: Dirty.PROGRAM when the variant changes), glpipe/raster/rasterizer.py.
            keys(info.mode)
        if self.keep_general & _PRIM_CHECK and info.mode not in self._modes_taken()[0]:
            self.shader_part.check_draw_mode(info.mode)  # raises: the bound GS / TES cannot take it
        layer = self.vertex_layer_part
        if layer.source is not None:
            # A VS writing LAYER on a host whose VS cannot: the generated GS of this mode.
            layer.key_draw(info.mode)
        if self.dirty & ~_GENERAL:
            self._update_derived(start_instance)
        if self.keep_general & _TEXTURE_PARAMS and not self.sampler_views_part._params_held:
            # Views setting shared texture parameters while other threads draw:
            # this draw again, under the screen's lock (glpipe/sampler_views.py).
            self.sampler_views_part.draw_under_params_lock(self._draw_general, info, draws, indirect)
            return
        # Until this draw is through: a draw that raises leaves the next one on
        # this path too.  User vertex buffers are only valid for one draw, so
        # their upload (Dirty.VERTEX) is due again at every draw.
        self.dirty = Dirty.DRAW_STATE | Dirty.VERTEX if vertex.vertex_user else Dirty.DRAW_STATE
        emulation = self._raster_draw
        if emulation is not None and self.keep_general & _SO_BOUND:
            self.stream_output_part.refuse_emulation()  # its extra passes would be captured too
        if emulation is not None and emulation(info, draws):
            # The rasterizer drew it through an emulation (line stipple
            # segment bases, stippled polygon edges, per-face fill modes:
            # glpipe/raster/rasterizer.py _rasterizer_draw).
            self._counters.draw_calls += 1
            return
        if self.keep_general & _SO_BOUND:
            # Stream output targets are bound: capture around the draw (glpipe/stream_output.py).
            self.stream_output_part.draw(info, draws, indirect, lambda: self._draw_kind(info, draws, indirect))
        else:
            self._draw_kind(info, draws, indirect)
        self._counters.draw_calls += 1
        # Back to the fast path unless an area keeps every draw here
        # (glpipe/dirty.py KeepGeneral) or primitive restart is left on;
        # when the mode check of a bound GS / TES is the only reason, the
        # fast path draws the modes they take (Dirty.MODE_CHECK).
        if not (self.keep_general or self._restart_on):
            self.dirty = 0
        elif self.keep_general == _PRIM_CHECK and not self._restart_on:
            self._gl_modes_taken = self._modes_taken()[2]
            self.dirty = _MODE_CHECK

    def _modes_taken(self) -> tuple:
        """(shaders, Prims, GL modes): the primitives the bound GS / TES take,
        as ``shader_part.check_draw_mode`` answers, asked once per bound pair
        (GS_INPUT_PRIMITIVE is the GS's own property) -- not per draw."""
        stages = self.shader_part.shaders
        key = (stages[ShaderType.GEOMETRY], stages[ShaderType.TESS_EVAL])
        memo = self._modes_memo
        if memo[0][0] is not key[0] or memo[0][1] is not key[1]:
            taken = []
            for prim in Prim:
                try:
                    self.shader_part.check_draw_mode(prim)
                except InvalidArgumentError:
                    continue
                taken.append(prim)
            gl_modes = frozenset(self._gl_prims[p] for p in taken if p in self._gl_prims)
            memo = self._modes_memo = (key, frozenset(taken), gl_modes)
        return memo

    def _draw_kind(self, info: DrawInfo, draws, indirect) -> None:
        """The draw call(s) of a draw whose derived state is emitted, by kind."""
        if indirect is not None:
            self.draw_indirect_part.draw_native(info, indirect)
            return
        start_instance = info.start_instance
        mode = self._gl_prims.get(info.mode)
        if mode is None or draws is not None or start_instance or self.shader_part.program_drawid:
            self._draw_special(info, mode, draws)
        elif info.index_size:
            # Inline fast path: the resource index buffer bound last time, no
            # restart either way, a valid range.  Anything else: _draw_indexed.
            index = info.index
            start, count, size = info.start, info.count, info.index_size
            if (
                index is self._index_res
                and not info.primitive_restart
                and not self._restart_on
                and index.gl_object == self._index_name
                and count > 0
                and info.instance_count > 0
                and start >= 0
                and (start + count) * size <= self._index_nbytes
            ):
                self._gl_draw_elements(
                    mode,
                    count,
                    self._gl_index_types[size],
                    ctypes.c_void_p(start * size) if start else self._null_pointer,
                    info.instance_count,
                    info.index_bias,
                )
            else:
                self._draw_indexed(info, mode, None)
        elif info.count > 0 and info.instance_count > 0 and info.start >= 0 and not self._restart_on:
            self._gl_draw_arrays(mode, info.start, info.count, info.instance_count)
        else:
            self._draw_arrays_all(info, mode, None)

    def _fast_arrays_args(self, info: DrawInfo):
        """draw_vbo's memo for ``info``: the glDrawArraysInstanced arguments
        (GL mode, start, count, instances) when the fast path can draw it,
        else False.  Depends on the DrawInfo alone (GL's primitive enums are
        the same for every context).  A tuple, passed as ``*args``: ctypes
        takes it as it is, where a functools.partial would build a new one
        per call (measured slower)."""
        mode = self._gl_prims.get(info.mode)
        if (
            mode is None
            or info.index_size
            or info.start_instance
            or info.count <= 0
            or info.instance_count <= 0
            or info.start < 0
        ):
            return False
        return (mode, info.start, info.count, info.instance_count)

    def _draw_prologue(self, indirect) -> None:
        """The rare checks of draw_vbo: destroyed context,
        making the host GL context current, and taking the host GL state over
        from another pipe context on the same GL context (the contexts one
        thread made of a screen share one; docs/api.md "Contexts and threads")."""
        if self.destroyed:
            raise ObjectDestroyedError("draw_vbo: context was destroyed")
        self.host.make_current("draw_vbo")  # switches, or raises off the context's thread
        if self._gl_context is not self.host.context_handle:
            # Another thread posted a change of this context (Context._post):
            # the fast path's host test again, then the changes (in that order).
            self._gl_context = self.host.context_handle
            drain_deferred(self.host)
        previous = self.host.drawing_context
        if previous is not self:
            # Another context drew last: the host holds its state, not ours.
            self.dirty = ALL
            self._forget_draw_shadows()
            self.sysvals_part._forget_sysvals_binding()
            self.host.drawing_context = self
            self.query_part.take_focus()  # its queries count from here, the previous context's do not
            if previous is not None:
                # Its shadows are stale now; a set bit keeps its next draw off
                # the fast path, into this prologue.
                previous.dirty = ALL

    def _forget_draw_shadows(self) -> None:
        """The host GL state may not be ours (another context drew): put the
        draw-side state glpipe shadows back to known values."""
        gl = self.gl
        self._index_res = INDEX_UNBOUND
        gl.glDisable(gl.GL_PRIMITIVE_RESTART)
        self._restart_on = False
        self._restart_index = None
        self._gl_patch_vertices = None
        # Not draw-side, but re-emitted with ALL dirty only if the shadow is
        # forgotten (shaders.py binds the program only when it changes).
        self.shader_part.program = None

    def _forget_other_contexts(self) -> None:
        """This context changed host GL state outside its draw bookkeeping
        (a clear's neutral state, a private FBO): if another context of the
        screen drew last, its shadow of the host state is stale, so whoever
        draws next re-emits everything (draw_vbo's prologue does)."""
        previous = self.host.drawing_context
        if previous is not self:
            self.host.drawing_context = None
            if previous is not None:
                previous.dirty = ALL  # off the fast path: its next draw runs the prologue

    def _draw_arrays_all(self, info, mode, draws) -> None:
        """Non-indexed draws: one glDrawArraysInstanced* per draw."""
        if self._restart_on:
            # Restart belongs to indexed draws only; keep GL from applying it
            # to vertex numbers.
            self.gl.glDisable(self.gl.GL_PRIMITIVE_RESTART)
            self._restart_on = False
        instances = info.instance_count
        start_instance = info.start_instance
        if draws is None:
            self._draw_arrays_one(mode, info.start, info.count, instances, start_instance)
        else:
            for d in draws:
                self._draw_arrays_one(mode, d.start, d.count, instances, start_instance)

    def _draw_arrays_one(self, mode, start, count, instances, start_instance) -> None:
        if count <= 0 or instances <= 0:
            return
        if start < 0:
            raise InvalidArgumentError(f"draw_vbo: start {start} is negative")
        if start_instance and self.vertex_part.use_base_instance:
            self._gl_draw_arrays_bi(mode, start, count, instances, start_instance)
        else:
            self._gl_draw_arrays(mode, start, count, instances)

    def _bind_index_buffer(self, info, draws) -> int:
        """Bind the draw's index buffer as GL_ELEMENT_ARRAY_BUFFER and return the
        byte offset of its element 0 there (user indices go through the ring).
        Checks every draw's range against the buffer's size."""
        size = info.index_size
        index = info.index
        if info.has_user_indices:
            try:
                nbytes = memoryview(index).nbytes
            except TypeError:
                raise InvalidArgumentError("draw_vbo: info.index is not a buffer-protocol object") from None
            ring = self.vertex_part.ring
            res, (name, base) = ring, ring.upload(index, 16)
        else:
            if index is None:
                raise InvalidArgumentError(f"draw_vbo: index_size is {size} but info.index is None")
            self._check_resource(index, "draw_vbo: info.index")
            res, name, base, nbytes = index, index.gl_object, 0, index.width0
            self._index_nbytes = nbytes
        if draws is None:
            end = info.start + info.count if info.count > 0 else 0
            low = info.start
        else:
            end = max((d.start + d.count for d in draws if d.count > 0), default=0)
            low = min((d.start for d in draws), default=0)
        if low < 0 or end * size > nbytes:
            raise InvalidArgumentError(
                f"draw_vbo: indices {low}..{end - 1} of {size} bytes read outside the index buffer ({nbytes} bytes)"
            )
        if res is not self._index_res or name != self._index_name:
            self.gl.glBindBuffer(self.gl.GL_ELEMENT_ARRAY_BUFFER, name)
            self._index_res = res
            self._index_name = name
        return base

    def _apply_restart(self, info) -> None:
        """GL primitive restart as the draw says.  GL compares the index read
        from the buffer, before the base vertex (index_bias) is added, with
        the full 32-bit restart index, as Gallium does: a restart_index the
        index type cannot hold never matches."""
        gl = self.gl
        if info.primitive_restart:
            if not self._restart_on:
                gl.glEnable(gl.GL_PRIMITIVE_RESTART)
                self._restart_on = True
            index = info.restart_index
            if index != self._restart_index:
                if not 0 <= index <= 0xFFFFFFFF:
                    raise InvalidArgumentError(f"draw_vbo: restart_index {index:#x} is not a 32-bit value")
                gl.glPrimitiveRestartIndex(index)
                self._restart_index = index
        elif self._restart_on:
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            self._restart_on = False

    def _draw_indexed(self, info, mode, draws) -> None:
        size = info.index_size
        index = info.index
        if draws is None and index is self._index_res and index.gl_object == self._index_name:
            # The resource bound last time (gl_object raises if it was destroyed).
            start, count = info.start, info.count
            if start < 0 or (start + count) * size > self._index_nbytes:
                self._bind_index_buffer(info, None)  # raises, naming the range
            base = 0
        else:
            base = self._bind_index_buffer(info, draws)
        if info.primitive_restart != self._restart_on or (
            self._restart_on and info.restart_index != self._restart_index
        ):
            self._apply_restart(info)
        instances = info.instance_count
        if instances <= 0:
            return
        gltype = self._gl_index_types[size]
        start_instance = info.start_instance
        base_instance = start_instance and self.vertex_part.use_base_instance
        if draws is None:
            if info.count <= 0:
                return
            ptr = self._offset_pointer(base + info.start * size)
            if base_instance:
                self._gl_draw_elements_bi(mode, info.count, gltype, ptr, instances, info.index_bias, start_instance)
            else:
                self._gl_draw_elements(mode, info.count, gltype, ptr, instances, info.index_bias)
            return
        for d in draws:
            if d.count <= 0:
                continue
            ptr = self._offset_pointer(base + d.start * size)
            if base_instance:
                self._gl_draw_elements_bi(mode, d.count, gltype, ptr, instances, d.index_bias, start_instance)
            else:
                self._gl_draw_elements(mode, d.count, gltype, ptr, instances, d.index_bias)

    def _upload_indices(self, data) -> tuple[int, int]:
        """User index memory into the streaming ring: (GL buffer, byte offset)."""
        return self.vertex_part.ring.upload(data, 16)

    def _draw_special(self, info, mode, draws) -> None:
        """Draws off the common path: PATCHES (checked), QUADS / QUAD_STRIP /
        POLYGON (index translation), programs that read DRAWID, multi-draws
        and draws with a start_instance."""
        if mode is None:
            if info.mode == Prim.PATCHES:
                mode = self._patches_mode()
            else:
                self._draw_translated(info, draws)
                return
        if self.shader_part.program_drawid:
            self._draw_drawid(info, mode, draws)
        elif info.index_size:
            self._draw_indexed(info, mode, draws)
        else:
            self._draw_arrays_all(info, mode, draws)

    def _patches_mode(self) -> int:
        gl = self.gl
        if not self.screen.profile.has("tessellation_shader"):
            raise UnsupportedError(
                "draw_vbo: PIPE_PRIM_PATCHES needs tessellation shaders, which the "
                f"{self.screen.profile.name} profile does not have"
            )
        if self.shader_part.shaders[ShaderType.TESS_EVAL] is None:
            raise InvalidArgumentError("draw_vbo: PIPE_PRIM_PATCHES needs a tessellation evaluation shader bound")
        if self._patch_vertices is None:
            raise InvalidArgumentError("draw_vbo: PIPE_PRIM_PATCHES before set_patch_vertices")
        if self._patch_vertices != self._gl_patch_vertices:
            gl.glPatchParameteri(gl.GL_PATCH_VERTICES, self._patch_vertices)
            self._gl_patch_vertices = self._patch_vertices
        return int(gl.GL_PATCHES)

    def _draw_drawid(self, info, mode, draws) -> None:
        """Draws whose shaders read DRAWID (gl_DrawID).  gl_DrawID is the index
        of a draw inside a GL multi-draw; glpipe issues
        glMultiDraw*Indirect with ``info.drawid`` empty commands (count 0,
        drawing nothing) before the real ones, so the real draw ``i`` sees
        ``drawid + i`` (``increment_draw_id``) or ``drawid`` (each draw its
        own multi-draw)."""
        import numpy as np

        gl = self.gl
        if not self.screen.profile.has("multi_draw_indirect"):
            raise UnsupportedError("draw_vbo: a shader reading DRAWID needs multi_draw_indirect on the host")
        items = (
            ((info.start, info.count, info.index_bias),)
            if draws is None
            else tuple((d.start, d.count, d.index_bias) for d in draws)
        )
        size = info.index_size
        if size:
            base = self._bind_index_buffer(info, draws)
            self._apply_restart(info)
            first_index = base // size
        elif self._restart_on:
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            self._restart_on = False
        drawid = info.drawid
        groups = ((drawid, items),) if info.increment_draw_id else tuple((drawid, (it,)) for it in items)
        start_instance = info.start_instance if self.vertex_part.use_base_instance else 0
        instances = max(info.instance_count, 0)
        for first_id, group in groups:
            total = first_id + len(group)
            if total > 1 << 16:  # each id below drawid costs a 20-byte empty command
                raise UnsupportedError(
                    f"draw_vbo: drawid {total - 1} is above glpipe's limit (65535) for shaders reading DRAWID"
                )
            cmds = np.zeros((total, 5 if size else 4), np.int64)
            for j, (start, count, bias) in enumerate(group):
                if size:
                    cmds[first_id + j] = (max(count, 0), instances, first_index + start, bias, start_instance)
                else:
                    cmds[first_id + j] = (max(count, 0), instances, start, start_instance)
            # Two's complement for a negative base vertex (GLint in the command).
            name, off = self.vertex_part.ring.upload((cmds & 0xFFFFFFFF).astype(np.uint32), 16)
            gl.glBindBuffer(gl.GL_DRAW_INDIRECT_BUFFER, name)
            if size:
                gl.glMultiDrawElementsIndirect(mode, self._gl_index_types[size], ctypes.c_void_p(off), total, 0)
            else:
                gl.glMultiDrawArraysIndirect(mode, ctypes.c_void_p(off), total, 0)
        gl.glBindBuffer(gl.GL_DRAW_INDIRECT_BUFFER, 0)

    def _draw_translated(self, info: DrawInfo, draws) -> None:
        """QUADS / QUAD_STRIP / POLYGON: index translation in fallback.indices,
        in the provoking-vertex convention of the bound rasterizer."""
        from fallback.indices import NEEDS_TRANSLATION, translate

        if info.mode not in NEEDS_TRANSLATION:
            raise InvalidArgumentError(f"draw_vbo: primitive {info.mode!r} cannot be drawn")
        items = (
            ((info.start, info.count, info.index_bias),)
            if draws is None
            else tuple((d.start, d.count, d.index_bias) for d in draws)
        )
        rast = self.rasterizer_part.rasterizer
        flatshade_first = bool(rast is not None and rast.templ.flatshade_first)
        if info.index_size:
            source = self._index_values(info, items)
            if not info.has_user_indices and self.debug_part.debug_callback is not None:
                self.debug_part.debug_message(
                    "PERF_INFO",
                    f"draw_vbo: the index buffer of a {Prim(info.mode).name} draw was "
                    f"read back to the CPU for index translation",
                    site="translate readback",
                )
        for i, (start, count, bias) in enumerate(items):
            if count <= 0:
                continue
            if info.index_size:
                tr = translate(
                    info.mode,
                    count,
                    start=start,
                    indices=source,
                    index_size=info.index_size,
                    primitive_restart=info.primitive_restart,
                    restart_index=info.restart_index,
                    flatshade_first=flatshade_first,
                )
            else:
                tr = translate(info.mode, count, start=start, flatshade_first=flatshade_first)
            self._counters.fallback("quads_quad_strips_polygons")
            if tr.count == 0:
                continue
            translated = self._raster_translated
            if translated is not None:
                # Fill mode LINE / POINT: which edges are the polygon's (glpipe/raster/rasterizer.py).
                translated(info, count, start, source if info.index_size else None, flatshade_first)
            if self.debug_part.debug_callback is not None:
                name = Prim(info.mode).name
                self.debug_part.debug_message(
                    "FALLBACK",
                    f"draw_vbo: {name} drawn as {tr.count // 3} TRIANGLES by index translation (fallback.indices)",
                    site=f"translate {name}",
                )
            # Non-indexed: the translated indices are vertex numbers already, and
            # index_bias is ignored when index_size == 0 (docs/api.md "Instancing").
            sub = DrawInfo(
                mode=tr.prim,
                index_size=tr.index_size,
                index=tr.indices,
                count=tr.count,
                index_bias=bias if info.index_size else 0,
                instance_count=info.instance_count,
                start_instance=info.start_instance,
                drawid=info.drawid + (i if info.increment_draw_id else 0),
            )
            mode = self._gl_prims[tr.prim]
            if self.shader_part.program_drawid:
                self._draw_drawid(sub, mode, None)
            else:
                self._draw_indexed(sub, mode, None)

    def _index_values(self, info, items):
        """The draw's index buffer as a numpy array of index values (user
        memory as is; a resource read back over the range the draws use)."""
        import numpy as np

        dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[info.index_size]
        if not info.has_user_indices:
            return self._read_index_resource(info, max(s + c for s, c, _ in items)).view(dtype)
        try:
            raw = np.frombuffer(memoryview(info.index).cast("B"), dtype=np.uint8)
        except TypeError:
            raise InvalidArgumentError("draw_vbo: info.index is not a buffer-protocol object") from None
        # User memory need not hold a whole number of indices (a C pointer
        # has no length at all): only whole indices are addressable, and the
        # draws must stay inside them, as for an index buffer resource.
        whole = len(raw) // info.index_size
        end = max((s + c for s, c, _ in items if c > 0), default=0)
        if min(s for s, _, _ in items) < 0 or end > whole:
            raise InvalidArgumentError(
                f"draw_vbo: indices up to {end - 1} of {info.index_size} bytes read outside "
                f"the user index array ({len(raw)} bytes)"
            )
        return raw[: whole * info.index_size].view(dtype)

    def _read_index_resource(self, info, elements=None):
        """The first ``elements`` indices (default: all) of the resource index
        buffer, read back with glGetBufferSubData (as uint8 bytes)."""
        import numpy as np

        res = info.index
        if res is None:
            raise InvalidArgumentError(f"draw_vbo: index_size is {info.index_size} but info.index is None")
        self._check_resource(res, "draw_vbo: info.index")
        nbytes = res.width0 if elements is None else elements * info.index_size
        if nbytes > res.width0:
            raise InvalidArgumentError(
                f"draw_vbo: {elements} indices of {info.index_size} bytes read outside "
                f"the index buffer ({res.width0} bytes)"
            )
        gl = self.gl
        out = np.empty(nbytes, np.uint8)
        if nbytes:
            gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
            gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, nbytes, out)
            gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        self._counters.bytes_downloaded += nbytes
        return out

    def set_patch_vertices(self, n: int) -> None:
        """pipe_context::set_patch_vertices: vertices per patch for PATCHES."""
        self.check_alive("set_patch_vertices")
        if not self.screen.profile.has("tessellation_shader"):
            raise UnsupportedError(
                f"set_patch_vertices: tessellation is not available on the {self.screen.profile.name} profile"
            )
        limit = self.screen.profile.limit("GL_MAX_PATCH_VERTICES")
        n = in_range(n, "set_patch_vertices: n (at most GL_MAX_PATCH_VERTICES)", 1, int(limit))
        # Applied by the next PATCHES draw (GL_PATCH_VERTICES is host-global,
        # shared with the screen's other contexts).
        self._patch_vertices = n


__all__ = ["DrawPath"]
