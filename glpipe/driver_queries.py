"""Driver-specific queries: glpipe's own counters, as Gallium exposes them.

``pipe_screen::get_driver_query_info`` lists counters a tool (e.g. Mesa's
HUD) can read through ``create_query(PIPE_QUERY_DRIVER_SPECIFIC + i)``.
glpipe's counters say where the time goes in a Python driver: draw calls,
primitives submitted, state-object binds (and redundant ones filtered),
shader variants compiled and cache hits, fallback hits (in total and per
fallback), bytes uploaded.  Each context bumps its own ``Counters``
record; the screen's ``ScreenCounters`` sums them when read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from .enums import Prim, Query

# p_defines.h: PIPE_QUERY_DRIVER_SPECIFIC is the first driver query type.
PIPE_QUERY_DRIVER_SPECIFIC = int(Query.DRIVER_SPECIFIC)

# enum pipe_driver_query_type / pipe_driver_query_result_type (p_defines.h).
PIPE_DRIVER_QUERY_TYPE_UINT64 = 0
PIPE_DRIVER_QUERY_TYPE_BYTES = 4
PIPE_DRIVER_QUERY_RESULT_TYPE_CUMULATIVE = 1
PIPE_DRIVER_QUERY_FLAG_BATCH = 1 << 0


@dataclass(frozen=True)
class DriverQueryInfo:
    """pipe_driver_query_info."""

    name: str
    query_type: int
    max_value: int
    type: int
    result_type: int
    group_id: int
    flags: int = 0


@dataclass(frozen=True)
class DriverQueryGroupInfo:
    """pipe_driver_query_group_info."""

    name: str
    max_active_queries: int
    num_queries: int


# The fallbacks (rows of fallback/registry.py, by name) whose run-time sites
# count their hits, each under "fallback-hits-<name>" as well as in the total.
# A fallback joins this list in the commit that makes its site count
# (``Counters.fallback``); a listed counter nothing bumps would be a lie.
COUNTED_FALLBACKS = (
    "quads_quad_strips_polygons",  # glpipe/draw.py _draw_translated
    "draw_indirect_unroll",  # glpipe/draw_indirect.py _unroll: one command
    "multi_draw_indirect_unroll",  # ... several commands
    "draw_indirect_count_unroll",  # ... a count buffer
)

# One row per counter: (attribute on Counters, query name, value type, group).
_ROWS = (
    ("draw_calls", "draw-calls", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("primitives_submitted", "primitives-submitted", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("binds", "state-binds", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("redundant_binds", "redundant-binds-filtered", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("shader_variants", "shader-variants-compiled", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("shader_cache_hits", "shader-cache-hits", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("programs_linked", "programs-linked", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("fallback_hits", "fallback-hits", PIPE_DRIVER_QUERY_TYPE_UINT64, 1),
    ("bytes_uploaded", "bytes-uploaded", PIPE_DRIVER_QUERY_TYPE_BYTES, 1),
    ("bytes_downloaded", "bytes-downloaded", PIPE_DRIVER_QUERY_TYPE_BYTES, 1),
    ("gl_state_calls", "gl-state-calls", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
) + tuple((f"fallback_{name}", f"fallback-hits-{name}", PIPE_DRIVER_QUERY_TYPE_UINT64, 2) for name in COUNTED_FALLBACKS)
_GROUPS = ("glpipe-pipeline", "glpipe-host-traffic", "glpipe-fallbacks")

DRIVER_QUERIES = tuple(
    DriverQueryInfo(
        name=name,
        query_type=PIPE_QUERY_DRIVER_SPECIFIC + i,
        max_value=0,  # 0: unbounded, as Mesa's drivers report for counters
        type=vtype,
        result_type=PIPE_DRIVER_QUERY_RESULT_TYPE_CUMULATIVE,
        group_id=group,
    )
    for i, (_attr, name, vtype, group) in enumerate(_ROWS)
)
DRIVER_QUERY_GROUPS = tuple(
    DriverQueryGroupInfo(
        name=g,
        max_active_queries=len([r for r in _ROWS if r[3] == gi]),
        num_queries=len([r for r in _ROWS if r[3] == gi]),
    )
    for gi, g in enumerate(_GROUPS)
)
COUNTER_NAMES = tuple(r[0] for r in _ROWS)


class Counters:
    """One context's counters (``ctx._counters``).  Only the thread the
    context runs on writes them, so a bump is a plain integer add with no
    lock: the draw fast path's ``+= 1`` costs what it did.  The screen-wide
    values are their sums (``ScreenCounters``), taken when read."""

    __slots__ = COUNTER_NAMES

    def __init__(self) -> None:
        for name in COUNTER_NAMES:
            setattr(self, name, 0)

    def fallback(self, name: str) -> None:
        """One hit of fallback ``name`` (a COUNTED_FALLBACKS entry): its own
        counter and the total.  Called where the fallback runs, never per
        draw of the fast path."""
        for attr in ("fallback_hits", "fallback_" + name):  # (slots made from _ROWS: set by name)
            setattr(self, attr, getattr(self, attr) + 1)


def _summed(name: str) -> property:
    def get(self: ScreenCounters) -> int:
        with self._lock:
            return self._retired[name] + sum(getattr(shard, name) for shard in self._shards)

    return property(get, doc=f"The screen-wide {name}: every context's, destroyed ones' included.")


class ScreenCounters:
    """The screen's counters (``screen.counters``): the sum of its contexts'
    ``Counters``, read-only.  Two contexts on two threads never write one
    integer, so no increment is lost (a shared ``+=`` is a read, an add and
    a write another thread can interleave with); the cost moves to the
    reader, who sums a few integers per context at a driver query's begin
    and end.  A destroyed context's counts are folded into ``_retired`` so
    the values stay cumulative.  docs/queries.md "Driver queries"."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shards: list[Counters] = []
        self._retired = dict.fromkeys(COUNTER_NAMES, 0)
        self._watching: dict[str, int] = {}  # watched group -> driver queries active on it

    def adopt(self, shard: Counters) -> None:
        """Count ``shard`` (a new context's counters) in the screen's values."""
        with self._lock:
            self._shards.append(shard)

    def retire(self, shard: Counters) -> None:
        """``shard``'s context was destroyed: keep its counts, drop the record."""
        with self._lock:
            if shard in self._shards:
                self._shards.remove(shard)
                for name in COUNTER_NAMES:
                    self._retired[name] += getattr(shard, name)

    def snapshot(self) -> dict[str, int]:
        """All counters at once, by attribute name."""
        with self._lock:
            out = dict(self._retired)
            for shard in self._shards:
                for name in COUNTER_NAMES:
                    out[name] += getattr(shard, name)
            return out

    def value_of(self, query_type: int) -> int:
        """The counter behind driver query ``query_type``."""
        return getattr(self, COUNTER_NAMES[query_type - PIPE_QUERY_DRIVER_SPECIFIC])

    def watch(self, query_type: int, contexts, delta: int) -> None:
        """A driver query of ``query_type`` began (``delta`` 1) or stopped
        (-1).  The first query reading a watched counter installs its
        counting wrappers on every context of the screen (``contexts``), the
        last one to stop removes them; other counters are always counted.
        (Another thread's context gets them by one instance-dict store per
        entry point, which its next call sees: docs/api.md "Contexts and
        threads", the cross-context rule.)"""
        group = _WATCHED.get(COUNTER_NAMES[query_type - PIPE_QUERY_DRIVER_SPECIFIC])
        if group is None:
            return
        with self._lock:
            n = self._watching.get(group, 0) + delta
            self._watching[group] = n
            if delta > 0 and n == 1:
                for ctx in contexts:
                    install_counting(ctx, group)
            elif delta < 0 and n == 0:
                for ctx in contexts:
                    remove_counting(ctx, group)

    def watch_new_context(self, ctx) -> None:
        """A context made while a watched counter is read counts from the start."""
        with self._lock:
            for group, n in self._watching.items():
                if n > 0:
                    install_counting(ctx, group)


for _name in COUNTER_NAMES:
    setattr(ScreenCounters, _name, _summed(_name))


# Primitives assembled from ``n`` vertices, per mode (GL 4.6 core 10.1
# "Primitive types"; QUADS, QUAD_STRIP and POLYGON as the GL compatibility
# profile defines them, one polygon per draw): ``(minimum vertices, f(n))``.
_PRIMS_PER_MODE: dict[int, tuple[int, Callable[[int], int]]] = {
    Prim.POINTS: (1, lambda n: n),
    Prim.LINES: (2, lambda n: n // 2),
    Prim.LINE_LOOP: (2, lambda n: n),
    Prim.LINE_STRIP: (2, lambda n: n - 1),
    Prim.TRIANGLES: (3, lambda n: n // 3),
    Prim.TRIANGLE_STRIP: (3, lambda n: n - 2),
    Prim.TRIANGLE_FAN: (3, lambda n: n - 2),
    Prim.QUADS: (4, lambda n: n // 4),
    Prim.QUAD_STRIP: (4, lambda n: (n - 2) // 2),
    Prim.POLYGON: (3, lambda n: 1),
    Prim.LINES_ADJACENCY: (4, lambda n: n // 4),
    Prim.LINE_STRIP_ADJACENCY: (4, lambda n: n - 3),
    Prim.TRIANGLES_ADJACENCY: (6, lambda n: n // 6),
    Prim.TRIANGLE_STRIP_ADJACENCY: (6, lambda n: (n - 4) // 2),
}


def primitives_for(mode: int, count: int, patch_vertices: int = 1) -> int:
    """Primitives a draw of ``count`` vertices in ``mode`` submits (one
    instance): what "primitives-submitted" adds per draw.  PATCHES:
    ``count // patch_vertices``."""
    if mode == Prim.PATCHES:
        return count // patch_vertices if patch_vertices > 0 else 0
    row = _PRIMS_PER_MODE.get(mode)
    if row is None or count < row[0]:
        return 0
    return row[1](count)


# -- counters counted only while a driver query reads them -------------------
#
# Primitives submitted and state-object binds are counted by wrapping the
# context's entry points (draw_vbo, the bind_*_state calls) while a driver
# query reading them is active on any context of the screen, and only then:
# the draw_vbo fast path and the bind paths carry no counting code, so an
# unmeasured context pays nothing (docs/queries.md "Driver queries").  Their
# counters therefore only move while such a query is active, which is the
# only time a query reads them (a driver query is the difference between
# its begin and its end).

_WATCHED = {"primitives_submitted": "draws", "binds": "binds", "redundant_binds": "binds"}


def _bound_cso(attr: str, field: str):
    """The state a bind of one CSO can change: ``ctx.<attr>.<field>``."""
    return lambda ctx, *args: getattr(getattr(ctx, attr), field)


def _bound_shaders(ctx, *args):
    return tuple(ctx.shader_part.shaders)


def _bound_samplers(ctx, *args):
    return tuple(tuple(slots) for slots in ctx.samplers_part.sampler_states)


#: bind method -> what it binds, read before and after the call: a bind that
#: leaves it identical was filtered as redundant (each area's bind compares
#: before doing anything, so "unchanged" and "filtered" are the same thing).
_BINDS = {
    "bind_blend_state": _bound_cso("blend_part", "blend"),
    "bind_depth_stencil_alpha_state": _bound_cso("dsa_part", "depth_stencil_alpha"),
    "bind_rasterizer_state": _bound_cso("rasterizer_part", "rasterizer"),
    "bind_vertex_elements_state": _bound_cso("vertex_part", "velems"),
    "bind_vs_state": _bound_shaders,
    "bind_tcs_state": _bound_shaders,
    "bind_tes_state": _bound_shaders,
    "bind_gs_state": _bound_shaders,
    "bind_fs_state": _bound_shaders,
    "bind_sampler_states": _bound_samplers,
}


def _identical(a, b) -> bool:
    """``a`` and ``b`` hold the same objects (CSOs compare by identity)."""
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b, strict=True))
    return a is b


def _counting_bind(ctx, counters: Counters, method, bound):
    def bind(*args, **kwargs):
        before = bound(ctx)
        result = method(*args, **kwargs)
        counters.binds += 1
        if _identical(before, bound(ctx)):
            counters.redundant_binds += 1
        return result

    return bind


def draw_primitives(info, draws, indirect, patch_vertices: int | None) -> int:
    """Primitives one draw_vbo submits: every draw's, times the instances.
    An indirect draw's counts are in GPU memory: 0 here (glpipe/draw_indirect.py
    draws the commands it reads back through the general path, uncounted)."""
    if indirect is not None:
        return 0
    counts = (info.count,) if draws is None else tuple(d.count for d in draws)
    per_patch = patch_vertices or 1
    return max(info.instance_count, 0) * sum(primitives_for(info.mode, c, per_patch) for c in counts if c > 0)


def _counting_draw(ctx, counters: Counters, method):
    def draw_vbo(info, draws=None, indirect=None):
        method(info, draws, indirect)
        # After the draw: a draw that raises submitted nothing.
        counters.primitives_submitted += draw_primitives(info, draws, indirect, ctx._patch_vertices)

    return draw_vbo


def install_counting(ctx, group: str) -> None:
    """Wrap ``ctx``'s entry points of watched ``group`` with counting ones
    (in the instance dict, over the entry points ``attach`` put there)."""
    saved = ctx.__dict__.setdefault("_counting_saved", {})
    counters = ctx._counters  # the context's own record: only its thread writes it
    names = ("draw_vbo",) if group == "draws" else tuple(_BINDS)
    for name in names:
        if name in saved:
            continue
        saved[name] = ctx.__dict__.get(name)
        method = getattr(ctx, name)
        if group == "draws":
            ctx.__dict__[name] = _counting_draw(ctx, counters, method)
        else:
            ctx.__dict__[name] = _counting_bind(ctx, counters, method, _BINDS[name])


def remove_counting(ctx, group: str) -> None:
    """Undo ``install_counting``: the entry points as they were."""
    saved = ctx.__dict__.get("_counting_saved", {})
    names = ("draw_vbo",) if group == "draws" else tuple(_BINDS)
    for name in names:
        if name not in saved:
            continue
        previous = saved.pop(name)
        if previous is None:
            ctx.__dict__.pop(name, None)
        else:
            ctx.__dict__[name] = previous


__all__ = [
    "COUNTED_FALLBACKS",
    "Counters",
    "ScreenCounters",
    "DriverQueryInfo",
    "DriverQueryGroupInfo",
    "DRIVER_QUERIES",
    "DRIVER_QUERY_GROUPS",
    "PIPE_QUERY_DRIVER_SPECIFIC",
    "draw_primitives",
    "install_counting",
    "primitives_for",
    "remove_counting",
]
