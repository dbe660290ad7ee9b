"""Conditional rendering: pipe_context::render_condition (the area
``RenderConditionPart`` at ``ctx.render_condition_part``).

The condition is glpipe state, applied per operation: while one is set,
draw_vbo takes its general path (``KeepGeneral.RENDER_CONDITION``) and every
draw and clear it governs runs through ``ctx._render_gate``.  The gate wraps
the operation in glBeginConditionalRender / glEndConditionalRender when the
host can predicate it (one GL occlusion query holds the result; an inverted
condition needs GL 4.5's *_INVERTED modes), and otherwise decides on the
CPU from the query's result, waiting or not as the mode says.  Per
operation, so a context's condition never leaks into another context's
draws on the shared GL context, nor into glpipe's internal operations.
docs/queries.md "Conditional rendering" has the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from lowering.errors import InvalidArgumentError

from . import boundary
from .dirty import Dirty, KeepGeneral
from .enums import Query, RenderCond
from .part import Area, Part
from .queries import PipeQuery, as_bool

# (mode, inverted) -> GL conditional render mode (GL 4.5 table 10.10 /
# ARB_conditional_render_inverted).  context.rst: commands are skipped when
# ``condition`` equals the predicate, so condition False is GL's plain mode
# (draw when the query passed) and True the inverted one.
_GL_MODES = {
    (RenderCond.WAIT, False): 0x8E13,  # GL_QUERY_WAIT
    (RenderCond.NO_WAIT, False): 0x8E14,  # GL_QUERY_NO_WAIT
    (RenderCond.BY_REGION_WAIT, False): 0x8E15,  # GL_QUERY_BY_REGION_WAIT
    (RenderCond.BY_REGION_NO_WAIT, False): 0x8E16,  # GL_QUERY_BY_REGION_NO_WAIT
    (RenderCond.WAIT, True): 0x8E17,  # GL_QUERY_WAIT_INVERTED
    (RenderCond.NO_WAIT, True): 0x8E18,  # GL_QUERY_NO_WAIT_INVERTED
    (RenderCond.BY_REGION_WAIT, True): 0x8E19,  # GL_QUERY_BY_REGION_WAIT_INVERTED
    (RenderCond.BY_REGION_NO_WAIT, True): 0x8E1A,  # GL_QUERY_BY_REGION_NO_WAIT_INVERTED
}
_WAITING = (RenderCond.WAIT, RenderCond.BY_REGION_WAIT)


class RenderConditionPart(Part):
    """The render condition of a context: ``query`` (None: none),
    ``condition`` and ``mode`` as render_condition set them."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.query: PipeQuery | None = None
        self.condition = False
        self.mode = RenderCond.WAIT
        self._inverted_native = ctx.screen.profile.has("conditional_render_inverted")
        # The gate draw_vbo and the clears run their GL work through (None:
        # no condition, nothing to gate).
        ctx._render_gate = None

    def render_condition(self, query: PipeQuery | None, condition: bool, mode: RenderCond | int) -> None:
        """pipe_context::render_condition: predicate later draws and clears
        on ``query`` (an occlusion query; None disables): they are skipped
        when ``condition`` equals the query's result (non-zero is True).
        ``mode`` (RenderCond): WAIT / BY_REGION_WAIT wait for the result;
        NO_WAIT / BY_REGION_NO_WAIT draw if it is not ready."""
        ctx = self.ctx
        ctx.check_alive("render_condition")
        condition = as_bool(condition, "render_condition: condition")
        mode = boundary.member(RenderCond, mode, "render_condition: mode")
        if query is None:
            self.query = None
            ctx._render_gate = None
            ctx._keep_general(KeepGeneral.RENDER_CONDITION, False)
            return
        q = ctx.query_part.check_query(query, "render_condition: query")
        if not q._kind.predicate:
            name = q.type.name if isinstance(q.type, Query) else "a driver query"
            raise InvalidArgumentError(
                f"render_condition: PIPE_QUERY_{name} cannot predicate rendering "
                "(context.rst: occlusion and stream-output overflow queries)"
            )
        if q.active:
            raise InvalidArgumentError("render_condition: the query is active (end_query it first)")
        self.query = q
        self.condition = condition
        self.mode = mode
        ctx._render_gate = self.gate
        # Every draw through the general path, which runs the gate (the fast
        # path stays as it was: the bit keeps draws off it).
        ctx._keep_general(KeepGeneral.RENDER_CONDITION, True)
        ctx.dirty |= Dirty.DRAW_STATE

    def gate(self, op: Callable[..., Any], *args: Any) -> None:
        """Run ``op(*args)`` under the render condition: predicated on the
        host (glBeginConditionalRender) where it can, else only if the CPU
        finds the condition lets it (context.rst "Conditional Rendering")."""
        ctx = self.ctx
        q = self.query
        if q is None:
            op(*args)
            return
        ctx.host.make_current()
        name = ctx.query_part.predicate_name(q)
        if name and (self._inverted_native or not self.condition):
            gl = ctx.gl
            gl.glBeginConditionalRender(name, _GL_MODES[(self.mode, self.condition)])
            try:
                self._ungated(op, args)
            finally:
                gl.glEndConditionalRender()
            return
        # The CPU decides: several host segments, a query never ended, or an
        # inverted condition without GL 4.5.  NO_WAIT modes draw while the
        # result is not there, as the host would.
        value = ctx.query_part.predicate_value(q, self.mode in _WAITING)
        if value is None or value != self.condition:
            self._ungated(op, args)

    def _ungated(self, op: Callable[..., Any], args: tuple) -> None:
        """``op(*args)`` with ``ctx._render_gate`` unset for the call (draw_vbo's
        general path calls itself back through the gate)."""
        ctx = self.ctx
        ctx._render_gate = None
        try:
            op(*args)
        finally:
            if self.query is not None:
                ctx._render_gate = self.gate

    def honoured(self, enabled: Any, what: str) -> bool:
        """A clear_render_target / clear_depth_stencil / blit
        ``render_condition_enabled`` argument, checked; True when a
        condition is set and the caller asks it to be honoured."""
        return as_bool(enabled, f"{what}: render_condition_enabled") and self.query is not None

    def allows(self) -> bool:
        """Whether the render condition lets an operation run, decided on
        the CPU: for operations the host cannot predicate (a blit may take
        glCopyImageSubData or numpy).  NO_WAIT modes run while the result
        is not there, as the host would."""
        q = self.query
        if q is None:
            return True
        value = self.ctx.query_part.predicate_value(q, self.mode in _WAITING)
        return value is None or value != self.condition

    @contextmanager
    def ungated(self) -> Iterator[None]:
        """glpipe's own draws (the shader blitter's) run inside this, so the
        user's render condition does not predicate them: a blit decides once,
        by ``render_condition_enable`` (context.rst "Blitting")."""
        ctx = self.ctx
        gate, ctx._render_gate = ctx._render_gate, None
        try:
            yield
        finally:
            if self.query is not None:
                ctx._render_gate = gate

    def destroy(self) -> None:
        """Context.destroy: no condition any more."""
        self.query = None
        self.ctx._render_gate = None


AREA = Area(
    "render_condition_part",
    part=RenderConditionPart,
    methods=("render_condition",),
    destroy=RenderConditionPart.destroy,
)

__all__ = ["AREA", "RenderConditionPart"]
