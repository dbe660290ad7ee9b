"""Queries: pipe_context::create_query / destroy_query / begin_query /
end_query / get_query_result / get_query_result_resource /
set_active_query_state (the queries area, ``QueryPart`` at ``ctx.query_part``).

Counting queries (occlusion, primitives, pipeline statistics) are GL query
objects; GL lets one query per target be active at a time, so a user query
is a list of host *segments* per target, shared by the user queries active
together (that is how queries nest, pause, and skip glpipe's internal
draws).  Timer queries are GL timestamps, GPU_FINISHED a GL sync, driver
queries the screen's counters.  docs/queries.md has the design and the
mapping of every type.
"""

from __future__ import annotations

import ctypes
import numbers
import struct
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from . import boundary
from .driver_queries import DRIVER_QUERIES, PIPE_QUERY_DRIVER_SPECIFIC
from .enums import Cap, Query, QueryFlag, QueryValueType, StatQuery, Target
from .part import Area, Part
from .templates import PipelineStatistics, SOStatistics, TimestampDisjoint
from .vertex import gl_function

# GL query targets (GL 4.6 core / ARB_pipeline_statistics_query), by value:
# PyOpenGL spells some only with the extension suffix.
GL_SAMPLES_PASSED = 0x8914
GL_PRIMITIVES_GENERATED = 0x8C87
GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN = 0x8C88
GL_TRANSFORM_FEEDBACK_OVERFLOW = 0x82EC  # ARB_transform_feedback_overflow_query (GL 4.6)
GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW = 0x82ED
GL_TIMESTAMP = 0x8E28
GL_QUERY_RESULT = 0x8866
GL_QUERY_RESULT_AVAILABLE = 0x8867
GL_QUERY_RESULT_NO_WAIT = 0x9194
GL_QUERY_BUFFER = 0x9192
_TIMESTAMP_KEY = (GL_TIMESTAMP, 0)

# StatQuery order -> the GL pipeline-statistics target counting it; None for
# the task and mesh stages no GL host has (context.rst: 0 for stages the
# device lacks).
STAT_TARGETS: tuple[int | None, ...] = (
    0x82EE,  # IA_VERTICES: GL_VERTICES_SUBMITTED
    0x82EF,  # IA_PRIMITIVES: GL_PRIMITIVES_SUBMITTED
    0x82F0,  # VS_INVOCATIONS: GL_VERTEX_SHADER_INVOCATIONS
    0x887F,  # GS_INVOCATIONS: GL_GEOMETRY_SHADER_INVOCATIONS
    0x82F3,  # GS_PRIMITIVES: GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED
    0x82F6,  # C_INVOCATIONS: GL_CLIPPING_INPUT_PRIMITIVES
    0x82F7,  # C_PRIMITIVES: GL_CLIPPING_OUTPUT_PRIMITIVES
    0x82F4,  # PS_INVOCATIONS: GL_FRAGMENT_SHADER_INVOCATIONS
    0x82F1,  # HS_INVOCATIONS: GL_TESS_CONTROL_SHADER_PATCHES
    0x82F2,  # DS_INVOCATIONS: GL_TESS_EVALUATION_SHADER_INVOCATIONS
    0x82F5,  # CS_INVOCATIONS: GL_COMPUTE_SHADER_INVOCATIONS
    None,  # TS_INVOCATIONS
    None,  # MS_INVOCATIONS
)
_STAT_FIELDS = tuple(PipelineStatistics.__dataclass_fields__)


@dataclass(frozen=True)
class QueryKind:
    """How one PIPE_QUERY type is delivered.

    ``cap``: the cap that says the host has it (create_query refuses the
    type while it is 0).  ``mode``: "count" (GL query segments over
    ``targets``), "elapsed" / "timestamp" (GL timestamps), "disjoint" (no
    GL object), "fence" (a GL sync), "driver" (the screen's counters).
    ``begin``: whether begin_query starts it (TIMESTAMP / GPU_FINISHED only
    end).  ``streams``: ``index`` is a vertex stream.  ``predicate``:
    usable by render_condition."""

    mode: str
    cap: Cap | None
    begin: bool = True
    streams: bool = False
    predicate: bool = False


_OCCLUSION = QueryKind("count", Cap.OCCLUSION_QUERY, predicate=True)
KINDS: dict[Query, QueryKind] = {
    # Every occlusion type counts GL_SAMPLES_PASSED: GL has one occlusion
    # binding point for all three targets (so they could not nest otherwise),
    # and a count > 0 is the exact predicate, which a conservative one may be.
    Query.OCCLUSION_COUNTER: _OCCLUSION,
    Query.OCCLUSION_PREDICATE: _OCCLUSION,
    Query.OCCLUSION_PREDICATE_CONSERVATIVE: _OCCLUSION,
    Query.TIMESTAMP: QueryKind("timestamp", Cap.QUERY_TIMESTAMP, begin=False),
    Query.TIMESTAMP_DISJOINT: QueryKind("disjoint", Cap.QUERY_TIMESTAMP),
    Query.TIME_ELAPSED: QueryKind("elapsed", Cap.QUERY_TIME_ELAPSED),
    Query.PRIMITIVES_GENERATED: QueryKind("count", None, streams=True),
    Query.PRIMITIVES_EMITTED: QueryKind("count", None, streams=True),
    Query.SO_STATISTICS: QueryKind("count", None, streams=True),
    # The host's overflow queries (QUERY_SO_OVERFLOW follows them): a stream's,
    # or any stream's; segments OR together (their sum > 0).
    Query.SO_OVERFLOW_PREDICATE: QueryKind("count", Cap.QUERY_SO_OVERFLOW, streams=True, predicate=True),
    Query.SO_OVERFLOW_ANY_PREDICATE: QueryKind("count", Cap.QUERY_SO_OVERFLOW, predicate=True),
    Query.GPU_FINISHED: QueryKind("fence", None, begin=False),
    Query.PIPELINE_STATISTICS: QueryKind("count", Cap.QUERY_PIPELINE_STATISTICS),
    Query.PIPELINE_STATISTICS_SINGLE: QueryKind("count", Cap.QUERY_PIPELINE_STATISTICS_SINGLE),
}
_DRIVER = QueryKind("driver", None)


def _targets(qtype: int, index: int) -> tuple[tuple[int, int], ...]:
    """The (GL target, stream) slots a counting query reads, in result order."""
    if qtype in (Query.OCCLUSION_COUNTER, Query.OCCLUSION_PREDICATE, Query.OCCLUSION_PREDICATE_CONSERVATIVE):
        return ((GL_SAMPLES_PASSED, 0),)
    if qtype == Query.PRIMITIVES_GENERATED:
        return ((GL_PRIMITIVES_GENERATED, index),)
    if qtype == Query.PRIMITIVES_EMITTED:
        return ((GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, index),)
    if qtype == Query.SO_STATISTICS:
        return ((GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, index), (GL_PRIMITIVES_GENERATED, index))
    if qtype == Query.SO_OVERFLOW_PREDICATE:
        return ((GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, index),)
    if qtype == Query.SO_OVERFLOW_ANY_PREDICATE:
        return ((GL_TRANSFORM_FEEDBACK_OVERFLOW, 0),)
    if qtype == Query.PIPELINE_STATISTICS:
        return tuple((t, 0) for t in STAT_TARGETS if t is not None)
    if qtype == Query.PIPELINE_STATISTICS_SINGLE:
        target = STAT_TARGETS[index]
        return () if target is None else ((target, 0),)
    return ()


class _Segment:
    """One GL query object counting on GL target and stream ``key`` for the
    user queries active together."""

    __slots__ = ("key", "name", "refs")

    def __init__(self, name: int, key: tuple[int, int], refs: int) -> None:
        self.name = name
        self.key = key
        self.refs = refs


class _Slot:
    """One GL query target (and stream) of a host: the user queries counting
    on it (``members``) and the open segment, if any."""

    __slots__ = ("index", "members", "segment", "target")

    def __init__(self, target: int, index: int) -> None:
        self.target = target
        self.index = index
        self.members: list[PipeQuery] = []
        self.segment: _Segment | None = None


class HostQueries:
    """The GL query slots of one host GL context, shared by the pipe
    contexts on it (GL allows one active query per target per GL context).
    Only the *focus* context's queries count: the one drawing now
    (draw_vbo's prologue moves the focus)."""

    def __init__(self, gl) -> None:
        self.gl = gl
        self.slots: dict[tuple[int, int], _Slot] = {}
        self.focus: Any = None
        self.active = 0  # user queries with members in slots
        # (GL target, stream) -> query names free for reuse.  A GL query
        # object keeps the target of its first use (reusing it for another
        # is an error), and Mesa's keeps the stream of its first indexed use.
        self.free: dict[tuple[int, int], list[int]] = {}
        self._begin = gl_function(gl, "glBeginQuery")
        self._end = gl_function(gl, "glEndQuery")
        self._begin_indexed = gl_function(gl, "glBeginQueryIndexed")
        self._end_indexed = gl_function(gl, "glEndQueryIndexed")

    def name(self, key: tuple[int, int]) -> int:
        """A GL query object name for (target, stream) ``key``, reused when one is free."""
        free = self.free.get(key)
        if free:
            return free.pop()
        return int(self.gl.glGenQueries(1)[0])

    def give_back(self, key: tuple[int, int], names: list[int]) -> None:
        """Names of ``key`` queries nobody reads any more."""
        self.free.setdefault(key, []).extend(names)

    def release(self, seg: _Segment) -> None:
        """A user query no longer reads ``seg``."""
        seg.refs -= 1
        if seg.refs == 0:
            self.give_back(seg.key, [seg.name])

    def _open(self, slot: _Slot) -> None:
        ctx = self.focus
        if ctx is None or ctx.destroyed or ctx.query_part.paused:
            return
        members = [q for q in slot.members if q._context is ctx]
        if not members:
            return
        key = (slot.target, slot.index)
        seg = _Segment(self.name(key), key, len(members))
        if slot.index:
            self._begin_indexed(slot.target, slot.index, seg.name)
        else:
            self._begin(slot.target, seg.name)
        slot.segment = seg
        for q in members:
            q._segments[(slot.target, slot.index)].append(seg)

    def _cut(self, slot: _Slot) -> None:
        if slot.segment is not None:
            if slot.index:
                self._end_indexed(slot.target, slot.index)
            else:
                self._end(slot.target)
            slot.segment = None

    def refresh(self, slot: _Slot) -> None:
        """Close the open segment and open one for the focus context's members."""
        self._cut(slot)
        self._open(slot)

    def refresh_context(self, ctx) -> None:
        """``ctx`` paused or resumed: its slots, if it has the focus."""
        if self.focus is ctx:
            for slot in self.slots.values():
                if slot.members:
                    self.refresh(slot)

    def focus_on(self, ctx) -> None:
        """``ctx`` draws now: its queries count, no other context's do."""
        if self.focus is ctx:
            return
        for slot in self.slots.values():
            self._cut(slot)
        self.focus = ctx
        for slot in self.slots.values():
            if slot.members:
                self._open(slot)

    def slot(self, key: tuple[int, int]) -> _Slot:
        """The slot of GL target and stream ``key``."""
        slot = self.slots.get(key)
        if slot is None:
            slot = self.slots[key] = _Slot(*key)
        return slot


_HOSTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def host_queries(host) -> HostQueries:
    """The HostQueries of host GL context ``host`` (made on first use): GL
    query objects are not shared between GL contexts, so a context with its
    own GL context (made on another thread) has its own."""
    hq = _HOSTS.get(host)
    if hq is None:
        hq = _HOSTS[host] = HostQueries(host.gl)
    return hq


class PipeQuery:
    """pipe_query: made by ``ctx.create_query(query_type, index)``.

    Read-only: ``type`` (a Query member, or the driver query number),
    ``index``, ``context``, ``active``, ``destroyed``."""

    __slots__ = (
        "__weakref__",
        "_context",
        "_host",
        "_ended",
        "_kind",
        "_names",
        "_segments",
        "_sync",
        "_values",
        "active",
        "destroyed",
        "index",
        "type",
    )

    def __init__(self, ctx, qtype, index: int, kind: QueryKind) -> None:
        self._context = ctx
        self.type = qtype
        self.index = index
        self._kind = kind
        self.active = False
        self.destroyed = False
        self._ended = False
        self._segments: dict[tuple[int, int], list[_Segment]] = {t: [] for t in _targets(qtype, index)}
        self._names: list[int] = []  # GL timestamp queries (elapsed: begin, end; timestamp: end)
        self._sync = None  # GPU_FINISHED
        self._values = (0, 0)  # driver queries: the counter at begin and at end
        self._host = ctx.query_part._host

    def __del__(self) -> None:
        # Dropped without destroy_query (an active query is never dropped:
        # its slots hold it): its host names go back to the pool, a sync to
        # the fence module's queue (deleted on the GL thread).  Plain list
        # operations, safe on any thread.
        try:
            if self.destroyed:
                return
            hq = self._host
            for segs in self._segments.values():
                for seg in segs:
                    hq.release(seg)
            hq.give_back(_TIMESTAMP_KEY, self._names)
            if self._sync is not None:
                from .lifetime import defer_delete

                defer_delete(self._context.host, "sync", self._sync)
        except Exception:
            pass

    @property
    def context(self) -> Any:
        """The Context that created the query."""
        return self._context

    def __repr__(self) -> str:
        name = self.type.name if isinstance(self.type, Query) else f"DRIVER_SPECIFIC+{self.type - 256}"
        return f"<glpipe.PipeQuery {name} index={self.index}{' destroyed' if self.destroyed else ''}>"


def _c_range(result_type: QueryValueType) -> tuple[int, int, str]:
    """(highest value, byte size, struct format) of a PIPE_QUERY_TYPE_."""
    return {
        QueryValueType.I32: (2**31 - 1, 4, "<i"),
        QueryValueType.U32: (2**32 - 1, 4, "<I"),
        QueryValueType.I64: (2**63 - 1, 8, "<q"),
        QueryValueType.U64: (2**64 - 1, 8, "<Q"),
    }[result_type]


class QueryPart(Part):
    """The queries area (module docstring)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.paused = False  # set_active_query_state(False) or an internal draw
        self._user_paused = False
        self._suspend_depth = 0
        self._queries: weakref.WeakSet = weakref.WeakSet()
        self._host = host_queries(ctx.host)
        gl = ctx.gl
        self._get_u64 = gl_function(gl, "glGetQueryObjectui64v")
        self._get_u32 = gl_function(gl, "glGetQueryObjectuiv")
        self._get_i32 = gl_function(gl, "glGetQueryObjectiv")
        self._get_i64 = gl_function(gl, "glGetQueryObjecti64v")
        self._counter = gl_function(gl, "glQueryCounter")
        self._streams = (
            int(ctx.screen.profile.limit("GL_MAX_VERTEX_STREAMS", 1) or 1)
            if ctx.screen.profile.has("transform_feedback3")
            else 1
        )

    # -- checks ------------------------------------------------------------------

    def check_query(self, q, what: str) -> PipeQuery:
        """``q`` as a live query of this context, or a PipeError naming ``what``."""
        if not isinstance(q, PipeQuery):
            raise InvalidArgumentError(f"{what}: expected a query from create_query, got {type(q).__name__}")
        if q._context is not self.ctx:
            raise InvalidArgumentError(f"{what}: the query belongs to another context")
        if q.destroyed:
            raise ObjectDestroyedError(f"{what}: the query was destroyed")
        return q

    def _kind_of(self, query_type: int, index: int) -> QueryKind:
        driver = query_type - PIPE_QUERY_DRIVER_SPECIFIC
        if 0 <= driver < len(DRIVER_QUERIES):
            if index:
                raise InvalidArgumentError(f"create_query: index must be 0 for a driver query, got {index}")
            return _DRIVER
        if driver >= 0:
            raise InvalidArgumentError(
                f"create_query: driver query {query_type} is not one of the "
                f"{len(DRIVER_QUERIES)} get_driver_query_info lists"
            )
        qtype = boundary.member(Query, query_type, "create_query: query_type")
        kind = KINDS[qtype]
        if kind.cap is not None and not self.ctx.screen.get_param(kind.cap):
            raise UnsupportedError(
                f"create_query: PIPE_QUERY_{qtype.name} needs PIPE_CAP_{kind.cap.name}, "
                f"which is 0 on the {self.ctx.screen.profile.name} profile"
            )
        if kind.streams:
            if index >= self._streams:
                raise InvalidArgumentError(
                    f"create_query: vertex stream {index} of PIPE_QUERY_{qtype.name} is outside "
                    f"the host's {self._streams} stream(s)"
                )
        elif qtype == Query.PIPELINE_STATISTICS_SINGLE:
            boundary.member(StatQuery, index, "create_query: index (a StatQuery)")
        elif index:
            raise InvalidArgumentError(f"create_query: index must be 0 for PIPE_QUERY_{qtype.name}, got {index}")
        return kind

    # -- pipe_context methods ----------------------------------------------------

    def create_query(self, query_type: Query | int, index: int = 0) -> PipeQuery:
        """pipe_context::create_query: a query of ``query_type`` (a Query, or
        PIPE_QUERY_DRIVER_SPECIFIC + i for the i-th driver query); ``index``
        is the vertex stream (PRIMITIVES_*, SO_STATISTICS) or the StatQuery
        (PIPELINE_STATISTICS_SINGLE), 0 otherwise.  Types the host lacks
        raise UnsupportedError (their caps are 0)."""
        ctx = self.ctx
        ctx.check_alive("create_query")
        qt = boundary.uint32(query_type, "create_query: query_type")
        index = boundary.uint32(index, "create_query: index")
        kind = self._kind_of(qt, index)
        qtype = Query(qt) if kind is not _DRIVER else qt
        q = PipeQuery(ctx, qtype, index, kind)
        self._queries.add(q)
        return q

    def destroy_query(self, q: PipeQuery) -> None:
        """pipe_context::destroy_query (an active query stops first)."""
        q = self.check_query(q, "destroy_query")
        rc = self.ctx.render_condition_part
        if rc.query is q:
            raise InvalidArgumentError("destroy_query: the query is the context's render condition")
        self.ctx.host.make_current()
        if q.active:
            self._stop(q)
        self._reset(q)
        q.destroyed = True
        self._queries.discard(q)

    def begin_query(self, q: PipeQuery) -> None:
        """pipe_context::begin_query: clear the result and start counting
        (TIMESTAMP and GPU_FINISHED need no begin: it only clears)."""
        q = self.check_query(q, "begin_query")
        if q.active:
            raise InvalidArgumentError("begin_query: the query is already active (end_query it first)")
        if self.ctx.render_condition_part.query is q:
            raise InvalidArgumentError("begin_query: the query is the context's render condition")
        ctx = self.ctx
        ctx.host.make_current()
        self._reset(q)
        kind = q._kind
        if not kind.begin:
            return
        q.active = True
        if kind.mode == "count":
            hq = self._host
            # The focus follows the context whose draws reach the host next:
            # taken here only if that is this one (or nobody's yet), else at
            # this context's next draw (its prologue: take_focus).
            if ctx.host.drawing_context in (ctx, None):
                hq.focus_on(ctx)
            hq.active += 1
            for key in q._segments:
                slot = hq.slot(key)
                slot.members.append(q)
                hq.refresh(slot)
        elif kind.mode == "elapsed":
            q._names = [self._host.name(_TIMESTAMP_KEY), self._host.name(_TIMESTAMP_KEY)]
            self._counter(q._names[0], GL_TIMESTAMP)
        elif kind.mode == "driver":
            # Counters only counted while read start counting now (glpipe/driver_queries.py).
            ctx.screen.counters.watch(q.type, ctx.screen._live_contexts(), 1)
            q._values = (ctx.screen.counters.value_of(q.type), 0)

    def end_query(self, q: PipeQuery) -> None:
        """pipe_context::end_query: stop counting (TIMESTAMP: record the
        time; GPU_FINISHED: mark the command stream here)."""
        q = self.check_query(q, "end_query")
        kind = q._kind
        if kind.begin and not q.active:
            raise InvalidArgumentError("end_query: the query is not active (begin_query it first)")
        ctx = self.ctx
        ctx.host.make_current()
        if q.active:
            self._stop(q)
        q._ended = True
        gl = ctx.gl
        if kind.mode == "elapsed":
            self._counter(q._names[1], GL_TIMESTAMP)
        elif kind.mode == "timestamp":
            self._reset(q)
            q._ended = True
            q._names = [self._host.name(_TIMESTAMP_KEY)]
            self._counter(q._names[0], GL_TIMESTAMP)
        elif kind.mode == "fence":
            self._reset(q)
            q._ended = True
            q._sync = gl.glFenceSync(gl.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
        elif kind.mode == "driver":
            q._values = (q._values[0], ctx.screen.counters.value_of(q.type))

    def get_query_result(self, q: PipeQuery, wait: bool) -> Any:
        """pipe_context::get_query_result: the result (int, bool or a record:
        docs/api.md "Query results"), or None when ``wait`` is False and it
        is not ready yet.  A query never ended reads as nothing counted."""
        q = self.check_query(q, "get_query_result")
        wait = as_bool(wait, "get_query_result: wait")
        if q.active:
            raise InvalidArgumentError("get_query_result: the query is still active (end_query it first)")
        self.ctx.host.make_current()
        return self._result(q, wait)

    def get_query_result_resource(
        self,
        q: PipeQuery,
        flags: QueryFlag | int,
        result_type: QueryValueType | int,
        index: int,
        resource: Any,
        offset: int,
    ) -> None:
        """pipe_context::get_query_result_resource: write the result
        (``index`` selects the value of a multi-value query; -1: availability,
        1 or 0) into buffer ``resource`` at ``offset`` as ``result_type``,
        saturated to it.  The GPU writes it where the value is one host
        query (no CPU round trip); otherwise glpipe reads the result and
        uploads it.  Without QueryFlag.WAIT an unavailable result leaves the
        buffer as it was (availability is written as 0)."""
        ctx = self.ctx
        q = self.check_query(q, "get_query_result_resource")
        if not ctx.screen.get_param(Cap.QUERY_BUFFER_OBJECT):
            raise UnsupportedError(
                "get_query_result_resource needs PIPE_CAP_QUERY_BUFFER_OBJECT, which is 0 on the "
                f"{ctx.screen.profile.name} profile"
            )
        flags = boundary.flags(QueryFlag, flags, "get_query_result_resource: flags")
        rtype = boundary.member(QueryValueType, result_type, "get_query_result_resource: result_type")
        nvalues = self._value_count(q)
        index = boundary.in_range(index, "get_query_result_resource: index", -1, nvalues - 1)
        ctx._check_resource(resource, "get_query_result_resource: resource")
        if resource.target != Target.BUFFER:
            raise InvalidArgumentError("get_query_result_resource: resource must be a PIPE_BUFFER")
        offset = boundary.uint32(offset, "get_query_result_resource: offset")
        high, size, fmt = _c_range(rtype)
        boundary.span(offset, size, resource.width0, "get_query_result_resource: offset")
        if q.active:
            raise InvalidArgumentError("get_query_result_resource: the query is still active")
        ctx.host.make_current()
        name = self._single_name(q)
        # The GL writes a count or a time as it is; a predicate's 0 / 1 and
        # anything summed over segments take the CPU path.
        exact = q._kind.mode == "timestamp" or (q._kind.mode == "count" and not q._kind.predicate)
        if name and offset % size == 0 and (index == -1 or exact):
            self._write_on_gpu(name, flags, rtype, index, resource, offset)
            return
        wait = bool(flags & QueryFlag.WAIT)
        value = self._result(q, wait)
        if index == -1:
            number = int(value is not None)
        elif value is None:
            return  # not available and not waited for: the buffer keeps what it had
        else:
            number = self._values_of(q, value)[index]
        data = struct.pack(fmt, min(max(int(number), 0), high))
        gl = ctx.gl
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, resource.gl_object)
        gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, offset, size, data)
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
        ctx._counters.bytes_uploaded += size

    def set_active_query_state(self, enable: bool) -> None:
        """pipe_context::set_active_query_state: pause (False) or resume
        (True) every query of the context except TIME_ELAPSED."""
        self.ctx.check_alive("set_active_query_state")
        self._user_paused = not as_bool(enable, "set_active_query_state: enable")
        self._update_paused()

    @contextmanager
    def suspended(self) -> Iterator[None]:
        """glpipe's own draws (blits, clears or emulations that draw) run
        inside ``with ctx.query_part.suspended():`` so they never count
        toward the user's queries (TIME_ELAPSED excepted, as for
        set_active_query_state).  Nests; costs nothing while no query is
        active."""
        self._suspend_depth += 1
        if self._suspend_depth == 1:
            self._update_paused()
        try:
            yield
        finally:
            self._suspend_depth -= 1
            if self._suspend_depth == 0:
                self._update_paused()

    # -- internals -----------------------------------------------------------------

    def _update_paused(self) -> None:
        paused = self._user_paused or self._suspend_depth > 0
        if paused != self.paused:
            self.paused = paused
            if self._host.active:
                self.ctx.host.make_current()
                self._host.refresh_context(self.ctx)

    def take_focus(self) -> None:
        """This context draws now (draw_vbo's prologue): its active queries
        count on the host, other contexts' stop counting."""
        hq = self._host
        if hq.focus is not self.ctx:
            hq.focus_on(self.ctx)

    def _stop(self, q: PipeQuery) -> None:
        q.active = False
        if q._kind.mode == "driver":
            screen = self.ctx.screen
            screen.counters.watch(q.type, screen._live_contexts(), -1)
        if q._kind.mode == "count":
            hq = self._host
            hq.active -= 1
            for key in q._segments:
                slot = hq.slot(key)
                slot.members.remove(q)
                hq.refresh(slot)

    def _reset(self, q: PipeQuery) -> None:
        """Forget the query's result: its segments, names and sync."""
        hq = self._host
        for segs in q._segments.values():
            for seg in segs:
                hq.release(seg)
            segs.clear()
        hq.give_back(_TIMESTAMP_KEY, q._names)
        q._names = []
        if q._sync is not None:
            self.ctx.gl.glDeleteSync(q._sync)
            q._sync = None
        q._values = (0, 0)
        q._ended = False

    def _read(self, name: int, pname: int) -> int:
        out = ctypes.c_uint64(0)
        self._get_u64(name, pname, ctypes.byref(out))
        return out.value

    def _available(self, q: PipeQuery) -> bool:
        names = [seg.name for segs in q._segments.values() for seg in segs] + q._names
        return all(self._read(n, GL_QUERY_RESULT_AVAILABLE) for n in names)

    def _result(self, q: PipeQuery, wait: bool) -> Any:
        """The result record of an ended (or never begun) query, or None."""
        mode = q._kind.mode
        gl = self.ctx.gl
        if mode == "fence":
            if q._sync is None:
                return True if q._ended else None
            timeout = 0xFFFFFFFFFFFFFFFF if wait else 0
            status = int(gl.glClientWaitSync(q._sync, gl.GL_SYNC_FLUSH_COMMANDS_BIT, timeout))
            if status in (int(gl.GL_ALREADY_SIGNALED), int(gl.GL_CONDITION_SATISFIED)):
                gl.glDeleteSync(q._sync)
                q._sync = None
                return True
            return None
        if mode == "disjoint":
            # GL's timer counts nanoseconds; desktop GL reports no disjoint events.
            return TimestampDisjoint(frequency=1_000_000_000, disjoint=False)
        if mode == "driver":
            return q._values[1] - q._values[0] if q._ended else 0
        if not wait and not self._available(q):
            gl.glFlush()  # GL: polling alone need not make the result arrive
            return None
        if mode == "elapsed":
            if not q._names:
                return 0
            return max(self._read(q._names[1], GL_QUERY_RESULT) - self._read(q._names[0], GL_QUERY_RESULT), 0)
        if mode == "timestamp":
            return self._read(q._names[0], GL_QUERY_RESULT) if q._names else 0
        sums = [sum(self._read(seg.name, GL_QUERY_RESULT) for seg in segs) for segs in q._segments.values()]
        qtype = q.type
        if qtype == Query.OCCLUSION_COUNTER:
            return sums[0]
        if q._kind.predicate:
            return sums[0] > 0
        if qtype == Query.SO_STATISTICS:
            return SOStatistics(num_primitives_written=sums[0], primitives_storage_needed=sums[1])
        if qtype == Query.PIPELINE_STATISTICS:
            values = iter(sums)
            return PipelineStatistics(*(next(values) if t is not None else 0 for t in STAT_TARGETS))
        return sums[0] if sums else 0

    def _value_count(self, q: PipeQuery) -> int:
        return {Query.SO_STATISTICS: 2, Query.PIPELINE_STATISTICS: len(_STAT_FIELDS), Query.TIMESTAMP_DISJOINT: 2}.get(
            q.type, 1
        )

    @staticmethod
    def _values_of(q: PipeQuery, value: Any) -> tuple[int, ...]:
        if isinstance(value, SOStatistics):
            return (value.num_primitives_written, value.primitives_storage_needed)
        if isinstance(value, PipelineStatistics):
            return tuple(getattr(value, f) for f in _STAT_FIELDS)
        if isinstance(value, TimestampDisjoint):
            return (value.frequency, int(value.disjoint))
        return (int(value),)

    def _single_name(self, q: PipeQuery) -> int:
        """The GL query holding the whole result, if there is exactly one
        (a counting query with one segment of one target, or a TIMESTAMP); else 0."""
        if q._kind.mode == "timestamp":
            return q._names[0] if q._names else 0
        if q._kind.mode == "count" and len(q._segments) == 1:
            (segs,) = q._segments.values()
            if len(segs) == 1:
                return segs[0].name
        return 0

    def predicate_name(self, q: PipeQuery) -> int:
        """render_condition's native path: the one GL occlusion query whose
        non-zero result is ``q``'s predicate, or 0 (several segments, or
        never begun: the CPU decides)."""
        return self._single_name(q) if q._kind.predicate and q._ended else 0

    def predicate_value(self, q: PipeQuery, wait: bool) -> bool | None:
        """``q``'s result as a predicate (non-zero is True), or None when not
        ready and ``wait`` is False."""
        value = self._result(q, wait)
        return None if value is None else bool(value)

    def _write_on_gpu(self, name, flags, rtype, index, resource, offset) -> None:
        """ARB_query_buffer_object: the GL writes the result into the buffer."""
        gl = self.ctx.gl
        if index == -1:
            pname = GL_QUERY_RESULT_AVAILABLE
        elif flags & QueryFlag.WAIT:
            pname = GL_QUERY_RESULT
        else:
            pname = GL_QUERY_RESULT_NO_WAIT
        get = {
            QueryValueType.I32: self._get_i32,
            QueryValueType.U32: self._get_u32,
            QueryValueType.I64: self._get_i64,
            QueryValueType.U64: self._get_u64,
        }[rtype]
        gl.glBindBuffer(GL_QUERY_BUFFER, resource.gl_object)
        get(name, pname, ctypes.c_void_p(offset))
        gl.glBindBuffer(GL_QUERY_BUFFER, 0)
        self.ctx.host.check("get_query_result_resource")

    def destroy(self) -> None:
        """Context.destroy: stop the context's active queries, free their
        host objects; the queries read as destroyed afterwards."""
        hq = self._host
        for q in list(self._queries):
            if q.active:
                self._stop(q)
            self._reset(q)
            q.destroyed = True
        self._queries = weakref.WeakSet()
        if hq.focus is self.ctx:
            for slot in hq.slots.values():
                hq._cut(slot)
            hq.focus = None


def as_bool(value: Any, what: str) -> bool:
    """A C boolean argument: bool, or the integers 0 and 1."""
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    try:
        import numpy as np

        if isinstance(value, np.bool_):
            return bool(value)
    except ImportError:  # pragma: no cover
        pass
    raise InvalidArgumentError(f"{what} must be a bool, got {type(value).__name__} {value!r}")


AREA = Area(
    "query_part",
    part=QueryPart,
    methods=(
        "create_query",
        "destroy_query",
        "begin_query",
        "end_query",
        "get_query_result",
        "get_query_result_resource",
        "set_active_query_state",
    ),
    destroy=QueryPart.destroy,
)

__all__ = ["AREA", "KINDS", "HostQueries", "PipeQuery", "QueryKind", "QueryPart", "as_bool", "host_queries"]
