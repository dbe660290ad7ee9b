"""Driver-specific queries: glpipe's own counters, as Gallium exposes them.

``pipe_screen::get_driver_query_info`` lists counters a tool (e.g. Mesa's
HUD) can read through ``create_query(PIPE_QUERY_DRIVER_SPECIFIC + i)``.
glpipe's counters say where the time goes in a Python driver: draw calls,
shader variants compiled, fallback hits, bytes uploaded.  The screen owns
one ``Counters`` record; contexts and fallbacks bump it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from .enums import Query

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


# One row per counter: (attribute on Counters, query name, value type, group).
_ROWS = (
    ("draw_calls", "draw-calls", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("shader_variants", "shader-variants-compiled", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("programs_linked", "programs-linked", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
    ("fallback_hits", "fallback-hits", PIPE_DRIVER_QUERY_TYPE_UINT64, 1),
    ("bytes_uploaded", "bytes-uploaded", PIPE_DRIVER_QUERY_TYPE_BYTES, 1),
    ("bytes_downloaded", "bytes-downloaded", PIPE_DRIVER_QUERY_TYPE_BYTES, 1),
    ("gl_state_calls", "gl-state-calls", PIPE_DRIVER_QUERY_TYPE_UINT64, 0),
)
_GROUPS = ("glpipe-pipeline", "glpipe-host-traffic")

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
    """The screen's counters.  Bumps are plain integer adds (the GIL makes
    ``+=`` on an attribute from one thread safe enough for statistics; a
    lock guards snapshots taken from other threads)."""

    __slots__ = COUNTER_NAMES + ("_lock",)

    def __init__(self):
        self._lock = threading.Lock()
        for name in COUNTER_NAMES:
            setattr(self, name, 0)

    def snapshot(self) -> dict[str, int]:
        """All counters at once, by attribute name."""
        with self._lock:
            return {name: getattr(self, name) for name in COUNTER_NAMES}

    def value_of(self, query_type: int) -> int:
        """The counter behind driver query ``query_type``."""
        return getattr(self, COUNTER_NAMES[query_type - PIPE_QUERY_DRIVER_SPECIFIC])


__all__ = [
    "Counters",
    "DriverQueryInfo",
    "DriverQueryGroupInfo",
    "DRIVER_QUERIES",
    "DRIVER_QUERY_GROUPS",
    "PIPE_QUERY_DRIVER_SPECIFIC",
]
