"""Index translation for the primitives core GL cannot draw: QUADS, QUAD_STRIP and
POLYGON become TRIANGLES index buffers (numpy, vectorized), with edge masks for
unfilled polygons and line loops split into LINES.

docs/rasterizer.md "Quads, quad strips and polygons: index translation" has the
output, provoking-vertex, winding, restart and edge-mask rules.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from glpipe.enums import Prim
from lowering.errors import InvalidArgumentError, UnsupportedError

__all__ = [
    "MAX_TRANSLATED_INDICES",
    "PV_FIRST",
    "PV_LAST",
    "NEEDS_TRANSLATION",
    "Translation",
    "edge_masks",
    "translate",
    "translate_line_loop",
    "generate_sequential",
]

PV_FIRST = "first"
PV_LAST = "last"
_PROVOKING = (PV_FIRST, PV_LAST)

# The largest value a 16-bit output may hold: 0xffff itself is reserved (see
# the module docstring), so values >= 0xffff force 32-bit output.
_MAX_U16_VALUE = 0xFFFE
_MAX_U32 = 0xFFFFFFFF

_INDEX_DTYPES = {1: np.dtype("<u1"), 2: np.dtype("<u2"), 4: np.dtype("<u4")}

# Marker in a decomposition pattern: "the first vertex of the current run"
# (the polygon's fan centre), rather than an offset from the step position.
_ANCHOR = -1


@dataclass(frozen=True)
class Translation:
    """A draw rewritten for the host: draw ``prim`` with ``indices``.

    ``indices`` is a 1-D, C-contiguous uint16 (``index_size`` 2) or uint32
    (``index_size`` 4) array.  ``primitive_restart`` is True only when the
    array contains restart markers (pass-through primitives), in which case
    they equal ``restart_index`` (0xffff or 0xffffffff, the all-ones value of
    the output size) and the draw must enable restart with that index.
    """

    prim: Prim
    indices: np.ndarray
    index_size: int
    primitive_restart: bool = False
    restart_index: int = 0

    @property
    def count(self) -> int:
        """Number of indices to draw."""
        return int(self.indices.size)


@dataclass(frozen=True)
class _Decomposition:
    """How one translated primitive type becomes triangles.

    The source is walked in *steps*: a step starts every ``stride`` vertices
    of a run and reads ``span`` vertices from there; a step is made only when
    all ``span`` vertices exist in the run (that is how GL drops incomplete
    primitives).  ``pv_last`` maps the source primitive's provoking vertex
    (``"first"`` / ``"last"`` in the spec table's sense) to the triangles of
    one step, as offsets from the step start (or ``_ANCHOR``), listed with
    the provoking vertex **last**; the first-vertex output convention is the
    same triangles rotated by one (x, y, pv) -> (pv, x, y), which keeps the
    winding.
    """

    stride: int
    span: int
    pv_last: dict


# Offsets name the vertices of one step.  QUADS: a b c d = 0 1 2 3, boundary
# a b c d.  QUAD_STRIP: a b c d = 0 1 2 3, boundary a b d c (GL: "v2i, v2i+1,
# v2i+3, v2i+2").  POLYGON step k (k = 0..n-3): triangle (v0, v_k+1, v_k+2).
# Each triangle below visits its vertices in the boundary's cyclic order.
_DECOMPOSITIONS = {
    Prim.QUADS: _Decomposition(
        stride=4,
        span=4,
        pv_last={
            PV_FIRST: ((1, 2, 0), (2, 3, 0)),  # PV = a (spec 4i-3)
            PV_LAST: ((0, 1, 3), (1, 2, 3)),
        },
    ),  # PV = d (spec 4i)
    Prim.QUAD_STRIP: _Decomposition(
        stride=2,
        span=4,
        pv_last={
            PV_FIRST: ((1, 3, 0), (3, 2, 0)),  # PV = a (spec 2i-1)
            PV_LAST: ((0, 1, 3), (2, 0, 3)),
        },
    ),  # PV = d (spec 2i+2)
    Prim.POLYGON: _Decomposition(
        stride=1,
        span=3,
        # The polygon's provoking vertex is v0 under both conventions.
        pv_last={PV_FIRST: ((1, 2, _ANCHOR),), PV_LAST: ((1, 2, _ANCHOR),)},
    ),
}

#: Primitive types core GL cannot draw; ``translate()`` turns them into TRIANGLES.
NEEDS_TRANSLATION = frozenset(_DECOMPOSITIONS)

#: The most indices one translation may produce (2**26: a 256 MiB uint32
#: index buffer, plus numpy's int64 work arrays).  A draw past it (a POLYGON
#: of 2**31 vertices would ask for 24 GiB) is refused with UnsupportedError
#: before any memory is taken (docs/rasterizer.md "Quads, quad strips and
#: polygons"); a caller splits such a draw.
MAX_TRANSLATED_INDICES = 1 << 26


def translated_count(prim: Prim, count: int) -> int:
    """The number of TRIANGLES indices ``translate`` makes from ``count``
    vertices of ``prim`` without restart (an upper bound with it: restart
    only closes primitives early)."""
    dec = _DECOMPOSITIONS[prim]
    if count < dec.span:
        return 0
    steps = (count - dec.span) // dec.stride + 1
    return steps * 3 * len(dec.pv_last[PV_LAST])


def _output_pattern(prim: Prim, provoking: str, quads_follow: bool) -> tuple:
    """The flat tuple of per-step offsets for ``prim`` drawn under ``provoking``."""
    if prim is Prim.POLYGON:
        source_pv = PV_FIRST  # spec: "single polygon: 1 | 1"
    elif quads_follow:
        source_pv = provoking
    else:
        source_pv = PV_LAST  # spec: QUADS_FOLLOW... = false -> 4i / 2i+2
    tris = _DECOMPOSITIONS[prim].pv_last[source_pv]
    if provoking == PV_FIRST:
        tris = tuple((pv, x, y) for (x, y, pv) in tris)
    return tuple(v for tri in tris for v in tri)


# ---------------------------------------------------------------------------
# Argument checking
# ---------------------------------------------------------------------------


def _check_int(name: str, value, lo: int = 0, hi: int = _MAX_U32) -> int:
    if isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    try:
        ivalue = operator.index(value)
    except TypeError:
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}") from None
    if not lo <= ivalue <= hi:
        raise InvalidArgumentError(f"{name}={ivalue} is out of range [{lo}, {hi}]")
    return ivalue


def _check_prim(prim) -> Prim:
    try:
        return Prim(prim)
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"prim={prim!r} is not a pipe primitive (Prim)") from None


def _check_provoking(provoking) -> str:
    if provoking not in _PROVOKING:
        raise InvalidArgumentError(f"provoking={provoking!r} must be 'first' or 'last'")
    return provoking


def _resolve_provoking(provoking, flatshade_first) -> str:
    """The convention from ``provoking`` and/or Gallium's ``flatshade_first``."""
    if provoking is not None:
        provoking = _check_provoking(provoking)
    if flatshade_first is None:
        return provoking or PV_LAST
    from_flag = PV_FIRST if _check_bool("flatshade_first", flatshade_first) else PV_LAST
    if provoking is not None and provoking != from_flag:
        raise InvalidArgumentError(f"provoking={provoking!r} contradicts flatshade_first={bool(flatshade_first)}")
    return from_flag


def _check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def _index_values(indices, index_size, start: int, count: int) -> np.ndarray:
    """The ``count`` index values at element ``start`` of the index buffer.

    ``indices`` is user memory as Gallium's ``has_user_indices`` sees it: any
    buffer-protocol object (bytes, a numpy array, a mapped transfer) whose
    *bytes* are the index buffer, read as little-endian unsigned integers of
    ``index_size`` bytes.  A Python list or tuple is taken as the values.
    Returns a read-only view when possible (no copy).
    """
    if index_size not in _INDEX_DTYPES:
        raise InvalidArgumentError(f"index_size={index_size!r} must be 1, 2 or 4 when indices are given")
    dtype = _INDEX_DTYPES[index_size]
    if isinstance(indices, (list, tuple)):
        try:
            arr = np.asarray(indices, dtype=np.int64).reshape(-1)
        except (TypeError, ValueError, OverflowError):
            raise InvalidArgumentError("indices: a list must hold integers") from None
        if arr.size and (arr.min() < 0 or arr.max() > np.iinfo(dtype).max):
            raise InvalidArgumentError(f"indices: values must fit {index_size}-byte unsigned indices")
        values = arr.astype(dtype)
    else:
        try:
            raw = memoryview(indices)
        except TypeError:
            raise InvalidArgumentError(
                f"indices must be a buffer-protocol object or a list, got {type(indices).__name__}"
            ) from None
        if not raw.c_contiguous:
            raise InvalidArgumentError("indices: the buffer must be C-contiguous")
        raw = raw.cast("B") if raw.ndim != 1 or raw.format != "B" else raw
        usable = raw.nbytes // index_size
        values = np.frombuffer(raw, dtype=dtype, count=usable)
    if start + count > values.size:
        raise InvalidArgumentError(
            f"start={start} + count={count} reads past the index buffer ({values.size} indices of {index_size} bytes)"
        )
    return values[start : start + count]


def _sequential(start: int, count: int) -> np.ndarray:
    if start + count > _MAX_U32 + 1:
        raise InvalidArgumentError(f"start={start} + count={count} exceeds the 32-bit vertex range")
    dtype = np.uint16 if start + count - 1 <= _MAX_U16_VALUE else np.uint32
    return np.arange(start, start + count, dtype=dtype)


def _finish(out: np.ndarray) -> tuple[np.ndarray, int]:
    """``out`` flattened, as uint16 when every value is <= 0xfffe, else uint32; and its size."""
    out = out.reshape(-1)
    if out.size == 0 or int(out.max()) <= _MAX_U16_VALUE:
        return np.ascontiguousarray(out, dtype=np.uint16), 2
    return np.ascontiguousarray(out, dtype=np.uint32), 4


# ---------------------------------------------------------------------------
# Runs between restart indices
# ---------------------------------------------------------------------------


def _runs(values: np.ndarray, restart_index: int):
    """Per position: is it a restart marker, and the [run_start, run_end) around it.

    Vectorized: run_start is a running maximum of "marker position + 1", and
    run_end a reversed running minimum of marker positions.  For a marker,
    run_end is the marker itself (callers mask markers out).
    """
    n = values.size
    is_marker = values == restart_index
    pos = np.arange(n, dtype=np.int64)
    run_start = np.maximum.accumulate(np.where(is_marker, pos + 1, 0)) if n else pos
    run_end = np.minimum.accumulate(np.where(is_marker, pos, n)[::-1])[::-1] if n else pos
    return is_marker, pos, run_start, run_end


def _has_restart(values: np.ndarray, primitive_restart: bool, restart_index: int) -> bool:
    if not primitive_restart or values.size == 0:
        return False
    if restart_index > np.iinfo(values.dtype).max:
        return False  # the index type cannot hold it: never matches
    return bool((values == restart_index).any())


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


def generate_sequential(start: int, count: int) -> np.ndarray:
    """Indices ``start .. start+count-1`` (uint16 when all are <= 0xfffe, else uint32).

    The index buffer that makes an indexed draw fetch what a non-indexed draw
    of the same range fetches.
    """
    start = _check_int("start", start)
    count = _check_int("count", count)
    return _sequential(start, count)


def _decompose(values: np.ndarray, prim: Prim, pattern: tuple, restart: bool, restart_index: int) -> np.ndarray:
    """Gather ``pattern`` for every step of ``values`` (one row per step)."""
    rule = _DECOMPOSITIONS[prim]
    width = len(pattern)
    n = values.size
    if not restart:
        # One run: steps at 0, stride, 2*stride, ... while span vertices remain.
        steps = (n - rule.span) // rule.stride + 1 if n >= rule.span else 0
        out = np.empty((steps, width), dtype=values.dtype)
        if steps:
            last = rule.stride * (steps - 1)
            for col, off in enumerate(pattern):
                if off == _ANCHOR:
                    out[:, col] = values[0]
                else:
                    out[:, col] = values[off : off + last + 1 : rule.stride]
        return out
    is_marker, pos, run_start, run_end = _runs(values, restart_index)
    rel = pos - run_start
    ok = ~is_marker & (rel % rule.stride == 0) & (rel + rule.span <= run_end - run_start)
    step_pos = np.flatnonzero(ok)
    out = np.empty((step_pos.size, width), dtype=values.dtype)
    for col, off in enumerate(pattern):
        out[:, col] = values[run_start[step_pos]] if off == _ANCHOR else values[step_pos + off]
    return out


def _pass_through(
    prim: Prim, values: np.ndarray | None, start: int, count: int, primitive_restart: bool, restart_index: int
) -> Translation:
    """A natively drawable primitive: same prim, indices widened, restart kept."""
    if values is None:
        out, size = _finish(_sequential(start, count))
        return Translation(prim, out, size)
    if not _has_restart(values, primitive_restart, restart_index):
        out, size = _finish(values)
        return Translation(prim, out, size)
    is_marker = values == restart_index
    genuine = values[~is_marker]
    size = 2 if genuine.size == 0 or int(genuine.max()) <= _MAX_U16_VALUE else 4
    dtype = np.uint16 if size == 2 else np.uint32
    marker = int(np.iinfo(dtype).max)
    if size == 4 and genuine.size and int(genuine.max()) == marker:
        raise InvalidArgumentError(
            "indices: index value 0xffffffff cannot be kept apart from the restart marker "
            f"(restart_index={restart_index:#x})"
        )
    out = values.astype(dtype)
    out[is_marker] = marker
    return Translation(prim, out, size, primitive_restart=True, restart_index=marker)


def translate(
    prim,
    count,
    start=0,
    indices=None,
    index_size=0,
    primitive_restart=False,
    restart_index=0,
    provoking=None,
    flatshade=False,
    quads_follow_provoking_vertex=True,
    flatshade_first=None,
) -> Translation:
    """Rewrite a draw of ``prim`` into one the host GL can draw.

    QUADS, QUAD_STRIP and POLYGON become TRIANGLES (see the module docstring
    for the exact triangle order); every other primitive passes through.

    Args:
        prim: the Gallium primitive (``Prim`` / ``PIPE_PRIM_*`` value).
        count: number of vertices (non-indexed) or indices (indexed) drawn.
        start: first vertex (non-indexed) or first element of the index
            buffer (indexed), as ``pipe_draw_start_count_bias.start``.
        indices: None for a non-indexed draw, else the index buffer's memory
            (buffer-protocol object, read as ``index_size``-byte little-endian
            unsigned integers; or a list of values).
        index_size: 0 for non-indexed, else 1, 2 or 4.
        primitive_restart, restart_index: Gallium's restart fields; compared
            with the raw index values (before any bias).  Ignored without
            ``indices``.
        provoking: ``"first"`` when the rasterizer's ``flatshade_first`` is
            set, else ``"last"`` (the default); the draw must set GL's
            provoking-vertex convention to the same value.
        flatshade_first: the same choice in Gallium's spelling (a bool);
            give either this or ``provoking``, or both agreeing.
        flatshade: the rasterizer's ``flatshade``.  Accepted so callers can
            pass rasterizer state through; it does not change the output,
            because CONSTANT-interpolated (and integer) shader inputs take the
            provoking vertex even when flatshade is off, so the order is
            always provoking-correct (as Mesa's u_primconvert does).
        quads_follow_provoking_vertex: False reproduces GL implementations
            whose quads ignore the first-vertex convention (spec table
            footnote); glpipe's cap is 1, so the default is True.

    Returns:
        A :class:`Translation`.  Index bias is not applied.

    Raises:
        InvalidArgumentError: naming the bad argument.
    """
    prim = _check_prim(prim)
    count = _check_int("count", count)
    start = _check_int("start", start)
    if prim in _DECOMPOSITIONS and translated_count(prim, count) > MAX_TRANSLATED_INDICES:
        raise UnsupportedError(
            f"translate: {prim.name} with {count} vertices needs {translated_count(prim, count)} "
            f"TRIANGLES indices, more than MAX_TRANSLATED_INDICES = {MAX_TRANSLATED_INDICES}; split the draw"
        )
    provoking = _resolve_provoking(provoking, flatshade_first)
    primitive_restart = _check_bool("primitive_restart", primitive_restart)
    _check_bool("flatshade", flatshade)
    quads_follow = _check_bool("quads_follow_provoking_vertex", quads_follow_provoking_vertex)
    values = _values_for_draw(indices, index_size, start, count)
    if primitive_restart and values is not None:
        restart_index = _check_int("restart_index", restart_index)

    if prim not in _DECOMPOSITIONS:
        return _pass_through(prim, values, start, count, primitive_restart, restart_index)

    pattern = _output_pattern(prim, provoking, quads_follow)
    if values is None:
        # Non-indexed: decompose the vertex numbers themselves.  Restart does
        # not apply to non-indexed draws.
        source = _sequential(start, count)
        out = _decompose(source, prim, pattern, False, 0)
    else:
        restart = _has_restart(values, primitive_restart, restart_index)
        out = _decompose(values, prim, pattern, restart, restart_index)
    out, size = _finish(out)
    return Translation(Prim.TRIANGLES, out, size)


# Boundary (cyclic) order of a step's vertex offsets, QUADS and QUAD_STRIP
# (GL: a quad strip's quad is v2i, v2i+1, v2i+3, v2i+2).
_BOUNDARY = {Prim.QUADS: (0, 1, 2, 3), Prim.QUAD_STRIP: (0, 1, 3, 2)}


def _edge_bits(prim: Prim, tri: tuple) -> tuple[int, int, int]:
    """(always, first step only, last step only) boundary bits of one
    pattern triangle (step offsets, ``_ANCHOR`` = the run's first vertex)."""
    always = first = last = 0
    for j in range(3):
        p, q = tri[j], tri[(j + 1) % 3]
        if prim is Prim.POLYGON:
            # Offsets 1, 2 are v_k+1, v_k+2 of fan step k; the anchor is v_0.
            pair = {p, q}
            if pair == {1, 2}:
                always |= 1 << j
            elif pair == {_ANCHOR, 1}:
                first |= 1 << j  # (v_0, v_1): the run's first triangle
            else:
                last |= 1 << j  # (v_n-1, v_0): the run's last triangle
        else:
            order = _BOUNDARY[prim]
            if (order.index(q) - order.index(p)) % 4 in (1, 3):
                always |= 1 << j
    return always, first, last


def edge_masks(
    prim,
    count,
    start=0,
    indices=None,
    index_size=0,
    primitive_restart=False,
    restart_index=0,
    provoking=None,
    quads_follow_provoking_vertex=True,
    flatshade_first=None,
) -> np.ndarray:
    """Per output triangle of :func:`translate` with the same arguments, the
    3-bit mask of its edges on the source primitive's boundary (bit j: the
    edge from the triangle's vertex j to vertex j+1; module docstring).
    uint8, one entry per triangle, in translate's order."""
    prim = _check_prim(prim)
    if prim not in _DECOMPOSITIONS:
        raise InvalidArgumentError(f"edge_masks: {prim.name} is not translated (every edge is a boundary edge)")
    count = _check_int("count", count)
    start = _check_int("start", start)
    provoking = _resolve_provoking(provoking, flatshade_first)
    primitive_restart = _check_bool("primitive_restart", primitive_restart)
    quads_follow = _check_bool("quads_follow_provoking_vertex", quads_follow_provoking_vertex)
    values = _values_for_draw(indices, index_size, start, count)
    rule = _DECOMPOSITIONS[prim]
    pattern = _output_pattern(prim, provoking, quads_follow)
    bits = [_edge_bits(prim, pattern[t : t + 3]) for t in range(0, len(pattern), 3)]
    if values is None or not (
        primitive_restart and _has_restart(values, primitive_restart, _check_int("restart_index", restart_index))
    ):
        n = count if values is None else values.size
        steps = (n - rule.span) // rule.stride + 1 if n >= rule.span else 0
        step = np.arange(steps)
        is_first, is_last = step == 0, step == steps - 1
    else:
        is_marker, pos, run_start, run_end = _runs(values, restart_index)
        rel = pos - run_start
        ok = ~is_marker & (rel % rule.stride == 0) & (rel + rule.span <= run_end - run_start)
        step_pos = np.flatnonzero(ok)
        is_first = rel[step_pos] == 0
        is_last = rel[step_pos] + rule.span == (run_end - run_start)[step_pos]
    out = np.empty((is_first.size, len(bits)), np.uint8)
    for col, (always, first, last) in enumerate(bits):
        out[:, col] = always | np.where(is_first, first, 0) | np.where(is_last, last, 0)
    return out.reshape(-1)


def _values_for_draw(indices, index_size, start: int, count: int) -> np.ndarray | None:
    """The draw's index values, or None for a non-indexed draw (checks the pair)."""
    if indices is None:
        if index_size not in (0, None):
            raise InvalidArgumentError(f"index_size={index_size!r} given but indices is None")
        return None
    if index_size in (0, None):
        raise InvalidArgumentError("indices given but index_size is 0 (expected 1, 2 or 4)")
    return _index_values(indices, index_size, start, count)


def translate_line_loop(
    count, start=0, indices=None, index_size=0, primitive_restart=False, restart_index=0
) -> Translation:
    """Turn a LINE_LOOP draw into independent LINES (no restart in the output).

    Each run (the whole draw, or each stretch between restart indices) of
    n >= 2 vertices v_1..v_n becomes the segments (v_1,v_2), ...,
    (v_n-1,v_n), (v_n,v_1) in that order; a run of one vertex draws nothing
    (GL: a loop of two vertices draws the segment twice, both ways).  The
    segment order gives each line the provoking vertex the spec's line-loop
    row names under both conventions (first: v_i; last: v_i+1, or v_1 for
    the closing segment), so no ``provoking`` argument is needed.
    Arguments are as for :func:`translate`.
    """
    count = _check_int("count", count)
    start = _check_int("start", start)
    primitive_restart = _check_bool("primitive_restart", primitive_restart)
    values = _values_for_draw(indices, index_size, start, count)
    if values is None:
        values = _sequential(start, count)
        restart = False
    else:
        if primitive_restart:
            restart_index = _check_int("restart_index", restart_index)
        restart = _has_restart(values, primitive_restart, restart_index)
    n = values.size
    if not restart:
        if n < 2:
            out = values[:0]
        else:
            out = np.empty((n, 2), dtype=values.dtype)
            out[:, 0] = values
            out[:-1, 1] = values[1:]
            out[-1, 1] = values[0]
    else:
        # Every vertex of a run of >= 2 starts one segment: to the next vertex
        # of its run, or, for the run's last vertex, back to the run's first.
        is_marker, _, run_start, run_end = _runs(values, restart_index)
        first = np.flatnonzero(~is_marker & (run_end - run_start >= 2))
        nxt = first + 1
        closing = nxt == run_end[first]
        nxt[closing] = run_start[first][closing]
        out = np.empty((first.size, 2), dtype=values.dtype)
        out[:, 0] = values[first]
        out[:, 1] = values[nxt]
    out, size = _finish(out)
    return Translation(Prim.LINES, out, size)
