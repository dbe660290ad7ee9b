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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


def attach(ctx: ContextRef, areas: tuple[Area, ...]) -> None:
    """Build the areas of a new context, in ``areas`` order: a part is made
    and stored as ``ctx.<attr>``, its methods bound into ``ctx.__dict__``."""
    for area in areas:
        part = area.part(ctx)
        setattr(ctx, area.attr, part)
        for name in area.methods:
            ctx.__dict__[name] = getattr(part, name)


def owner(ctx: ContextRef, area: Area) -> Part:
    """What an area's functions are called on: its part."""
    return getattr(ctx, area.attr)


__all__ = ["Area", "Part", "PartMethod", "attach", "compose", "derived_rows", "owner"]
