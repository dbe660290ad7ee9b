"""Areas of the pipe context: the ``Part`` base class and the ``Area`` record.

Each area of a Context (blend, depth/stencil/alpha, rasterizer, ...) is one
module with one ``Part`` subclass, which owns the area's state, and one
``AREA = Area(...)`` record of what the context needs from it (methods,
derived-state rows, destroy, nofast drops, variant-key input), by function
reference.  glpipe/context.py lists the records in ``PARTS`` and composes
itself from them (``compose`` on the class, ``attach`` per context).
docs/architecture.md explains the design and how to add an area.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lowering.errors import HostGLError, PipeError

from .host.gl import error_names as host_error_names

# The composing Context (glpipe/context.py).  Typed Any: naming the class here
# would be an import of glpipe.context, which imports every area, which imports
# this module -- a cycle tests/test_layering.py refuses even when type-only.
ContextRef = Any


class Part:
    """One area of a pipe context: owns the area's state as attributes.

    ``ctx`` is the composing Context: the dirty word, the GL dispatch, the
    counters and every other area are reached through it."""

    def __init__(self, ctx: ContextRef) -> None:
        self.ctx = ctx

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.ctx!r}>"


@dataclass(frozen=True)
class Area:
    """What the context needs from one area, declared once, by reference.

    ``attr``: the context attribute holding the part (``"blend_part"``).
    ``part``: the Part subclass (built as ``part(ctx)`` when the context is
      made, in ``PARTS`` order: its ``__init__`` may use the areas before it).
    ``methods``: the pipe_context methods the area provides (Mesa's names),
      installed on the Context class.
    ``rows``: ``(dirty bits, function)`` derived-state rows, in the order
      they run; ``_update_derived`` runs every area's rows in ``PARTS``
      order, then every area's ``late_rows`` (rows that override or consume
      what other areas' rows produced), then the vertex input.  A row's
      function is called on the part.
    ``destroy``: tears down the area's GL objects (``Context.destroy``, in
      ``PARTS`` order).
    ``drop_caches``: GLPIPE_DEBUG=nofast: forgets the area's caches, memos
      and host-state shadows before every draw (glpipe/debug.py).
    ``variant_input``: the area's input to the shader variant keys: a
      function of the part returning a hashable value that changes only
      together with ``Dirty.PROGRAM``.  glpipe/variant_keys.py builds its
      ``VariantEnvironment`` from these slots (one field per area, named
      after it: ``blend_part`` fills ``blend``) and from the other areas'
      interface attributes.
    """

    attr: str
    part: type[Part]
    methods: tuple[str, ...] = ()
    rows: tuple[tuple[int, Callable[..., None]], ...] = ()
    late_rows: tuple[tuple[int, Callable[..., None]], ...] = ()
    destroy: Callable[[Any], None] | None = None
    drop_caches: Callable[[Any], None] | None = None
    variant_input: Callable[[Any], Any] | None = None


class PartMethod:
    """A pipe_context method provided by a part, as an attribute of the
    Context class.  On the class it is the part's function (signature,
    docstring, source); on a context it resolves to the part's bound method
    -- though ``attach`` stores that bound method in the instance
    ``__dict__``, which shadows this (non-data) descriptor, so calls do not
    come here."""

    __slots__ = ("attr", "name", "func", "__wrapped__", "__dict__")  # __dict__: room for __doc__

    def __init__(self, attr: str, func: Callable[..., Any]) -> None:
        self.attr = attr
        self.name = func.__name__
        self.func = func
        self.__wrapped__ = func
        self.__doc__ = func.__doc__

    def __get__(self, obj: object, objtype: type | None = None) -> Callable[..., Any]:
        if obj is None:
            return self.func
        return getattr(getattr(obj, self.attr), self.name)

    def __repr__(self) -> str:
        return f"<PartMethod {self.func.__qualname__} via ctx.{self.attr}>"


def compose(cls: type, areas: tuple[Area, ...]) -> None:
    """Install the parts' pipe_context methods on the Context class ``cls``
    (one ``PartMethod`` each).  Refuses, at import, a method declared by
    two areas, one the class already has, or one the part does not define."""
    seen: dict[str, str] = {}
    for area in areas:
        for name in area.methods:
            if name in seen:
                raise TypeError(f"{name} is declared by the areas {seen[name]} and {area.attr}")
            if hasattr(cls, name):
                raise TypeError(f"{name} of area {area.attr} is already defined on {cls.__name__}")
            func = getattr(area.part, name, None)
            if not callable(func):
                raise TypeError(f"Area {area.attr} declares {name}, which {area.part.__name__} does not define")
            seen[name] = area.attr
            setattr(cls, name, PartMethod(area.attr, func))


def derived_rows(areas: tuple[Area, ...]) -> tuple[tuple[int, Area, Callable[..., None]], ...]:
    """Every area's rows in ``areas`` order, then every area's late rows:
    ``(dirty bits, area, function)``."""
    rows = [(bits, area, fn) for area in areas for bits, fn in area.rows]
    rows += [(bits, area, fn) for area in areas for bits, fn in area.late_rows]
    return tuple(rows)


# -- entry points -------------------------------------------------------------
#
# Every pipe_context method that touches GL must run on the context's own GL
# context, on the thread that context is current on (docs/api.md "Contexts
# and threads").  ``attach`` stores each area method in the context as an
# *entry point*: the part's bound method behind a guard that asks the thread
# which GL context is current (``HostGL.current_context``, one cheap ctypes
# call) and makes the context's current -- or raises HostGLError naming both
# threads -- when it is another.  New area methods are guarded by default;
# the exceptions are listed here.

#: pipe_context methods that only record Gallium state in Python (a pointer
#: swap, a slot store, a dirty bit) and never reach GL: the next draw or clear
#: turns that state into GL calls, under its own guard.  They are the bind
#: paths of every draw loop, so they stay the parts' bound methods (no guard,
#: no cost).  A method belongs here only if none of its paths calls GL
#: (set_framebuffer_state does not: it may probe the host's sample positions).
STATE_ONLY = frozenset(
    {
        "bind_vs_state",
        "bind_tcs_state",
        "bind_tes_state",
        "bind_gs_state",
        "bind_fs_state",
        "bind_vertex_elements_state",
        "bind_blend_state",
        "bind_depth_stencil_alpha_state",
        "bind_rasterizer_state",
        "bind_sampler_states",
        "set_sampler_views",
        "set_vertex_buffers",
        "set_constant_buffer",
        "set_viewport_states",
        "set_scissor_states",
        "set_blend_color",
        "set_stencil_ref",
        "set_sample_mask",
    }
)

#: The Context's own entry points (not an area's): ``draw_vbo`` tests the
#: current GL context inline, on its fast path (glpipe/draw.py), and
#: ``destroy`` makes it current itself; GLPIPE_DEBUG=check wraps them too.
CONTEXT_ENTRY_POINTS = ("draw_vbo", "destroy")


def _present_as(entry: Callable[..., Any], method: Callable[..., Any]) -> Callable[..., Any]:
    """Let the wrapper ``entry`` present itself as the bound ``method`` it
    guards (name, docstring, ``__wrapped__``, ``__self__``, ``__func__``), so
    introspection of ``ctx.<name>`` finds the part and its function."""
    functools.update_wrapper(entry, method)
    entry.__self__ = getattr(method, "__self__", None)  # type: ignore[attr-defined]
    entry.__func__ = getattr(method, "__func__", method)  # type: ignore[attr-defined]
    return entry


def guarded(host: Any, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` behind the current-context guard of entry point ``name``."""
    current, handle, make_current = host.current_context, host.context_handle, host.make_current

    def entry(*args: Any, **kwargs: Any) -> Any:
        if current() != handle:
            make_current(name)  # switches, or raises naming both threads
        return method(*args, **kwargs)

    return _present_as(entry, method)


def checked(host: Any, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """GLPIPE_DEBUG=check (docs/debug.md): ``method`` with the host's GL error
    state checked before (an error left by code outside glpipe's entry points
    is blamed on nobody's call) and after it (HostGLError naming ``name``),
    and the current-context guard of every entry point."""

    def entry(*args: Any, **kwargs: Any) -> Any:
        host.make_current(name)
        before = host.clear_errors()
        if before:
            raise HostGLError(
                f"GLPIPE_DEBUG=check: {host_error_names(before)} pending before {name}: "
                f"left by a GL call made outside glpipe's entry points"
            )
        try:
            result = method(*args, **kwargs)
        except PipeError as exc:
            errs = host.clear_errors() if not host.released else []
            if errs:
                raise HostGLError(
                    f"GLPIPE_DEBUG=check: {name} raised {type(exc).__name__} and left {host_error_names(errs)}"
                ) from exc
            raise
        if not host.released:
            host.make_current(name)
            errs = host.clear_errors()
            if errs:
                raise HostGLError(f"GLPIPE_DEBUG=check: {name} left host GL errors: {host_error_names(errs)}")
        return result

    return _present_as(entry, method)


def entry_point(ctx: ContextRef, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """What ``ctx.<name>`` holds for the pipe_context method ``name`` whose
    implementation is the bound ``method``: the method itself (STATE_ONLY,
    or the Context's own CONTEXT_ENTRY_POINTS), else ``guarded``; under
    GLPIPE_DEBUG=check, always ``checked``.  A composition without a host
    GL (``ctx.host`` None or absent: a test double) has nothing to guard."""
    host = getattr(ctx, "host", None)
    if host is None:
        return method
    if "check" in ctx.debug_flags:
        return checked(host, name, method)
    if name in STATE_ONLY or name in CONTEXT_ENTRY_POINTS:
        return method
    return guarded(host, name, method)


def attach(ctx: ContextRef, areas: tuple[Area, ...]) -> None:
    """Build the areas of a new context, in ``areas`` order: a part is made
    and stored as ``ctx.<attr>``, its methods stored into ``ctx.__dict__``
    as entry points (``entry_point``: guarded unless STATE_ONLY; checked
    under GLPIPE_DEBUG=check, which also wraps CONTEXT_ENTRY_POINTS)."""
    for area in areas:
        part = area.part(ctx)
        setattr(ctx, area.attr, part)
        for name in area.methods:
            ctx.__dict__[name] = entry_point(ctx, name, getattr(part, name))
    if getattr(ctx, "host", None) is not None and "check" in ctx.debug_flags:
        for name in CONTEXT_ENTRY_POINTS:
            ctx.__dict__[name] = entry_point(ctx, name, getattr(ctx, name))


def owner(ctx: ContextRef, area: Area) -> Part:
    """What an area's functions are called on: its part."""
    return getattr(ctx, area.attr)


__all__ = [
    "CONTEXT_ENTRY_POINTS",
    "STATE_ONLY",
    "Area",
    "Part",
    "PartMethod",
    "attach",
    "checked",
    "compose",
    "derived_rows",
    "entry_point",
    "guarded",
    "owner",
]
