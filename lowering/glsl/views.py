"""Register views: how the four components of an IN / OUT / SV register map to GLSL.

A TGSI input, output or system value is a vec4 register; in GLSL it may be
a real ``vec4`` variable (``glp_generic_0``, ``gl_Position``,
``gl_in[v].gl_Position``) -- a ``VectorView`` -- or a handful of scalar
built-ins with constants in between (FACE is ``(gl_FrontFacing ? 1.0 :
-1.0, 0, 0, 1)``, CLIPDIST[1] is ``gl_ClipDistance[4..7]``, a FS POSITION
output only has ``.z = gl_FragDepth``) -- a ``ComponentView``.  The
emitter reads and writes registers only through these two classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .exprs import Expr, literal, swizzle, var


class VectorView:
    """A register that is one GLSL vector variable of ``type`` (4 components)."""

    kind = "vector"

    def __init__(self, text: str, type_: str, writable: bool = True):
        self.text = text
        self.type = type_
        self.writable = writable

    def read(self, comps: Sequence[int]) -> Expr:
        """Components ``comps`` as one vector expression."""
        return swizzle(var(self.text, self.type, 4), comps)

    def lvalue(self, comps: Sequence[int]) -> str:
        """The assignment target for ``comps`` (``name.xz`` / ``name``)."""
        if tuple(comps) == (0, 1, 2, 3):
            return self.text
        return f"{self.text}.{''.join('xyzw'[c] for c in comps)}"


@dataclass(frozen=True)
class Component:
    """One component of a ComponentView: GLSL text of ``type``.

    ``base``/``index`` name the vector the component comes from (so a read
    of several components of ``gl_LocalInvocationID`` prints as one swizzle),
    ``lvalue`` says whether it can be assigned.
    """

    text: str
    type: str
    base: str | None = None
    index: int = 0
    base_size: int = 0
    lvalue: bool = False
    atomic: bool = True
    prec: int = 100


def comp(text: str, type_: str, lvalue: bool = False, prec: int = 100) -> Component:
    """A standalone component (a scalar built-in, or an expression whose top
    operator has precedence ``prec``, see exprs.PREC)."""
    return Component(text, type_, lvalue=lvalue, atomic=prec >= 100, prec=prec)


def vcomps(base: str, type_: str, size: int, lvalue: bool = False) -> list[Component]:
    """The components of a built-in vector ``base`` of ``size`` components."""
    return [Component(f"{base}.{'xyzw'[i]}", type_, base, i, size, lvalue) for i in range(size)]


class ComponentView:
    """A register assembled from per-component GLSL expressions.

    ``entries[c]`` is the Component for register component ``c`` or None;
    a None component reads as ``defaults[c]`` (raw words, of ``type``) and
    writes to it are dropped (e.g. .xyw of a FS depth output).
    """

    kind = "component"

    def __init__(
        self, entries: Sequence[Component | None], type_: str, defaults: tuple[int, int, int, int] = (0, 0, 0, 0)
    ):
        self.entries = list(entries) + [None] * (4 - len(entries))
        self.type = type_
        self.defaults = defaults

    @property
    def writable(self) -> bool:
        """True when at least one component can be assigned."""
        return any(e is not None and e.lvalue for e in self.entries)

    def read_parts(self, comps: Sequence[int]) -> list[Expr]:
        """Scalar expressions of ``comps`` (each of its own type)."""
        out: list[Expr] = []
        for c in comps:
            e = self.entries[c]
            if e is None:
                out.append(literal(self.type, (self.defaults[c],)))
            else:
                out.append(Expr(e.text, e.type, 1, e.atomic, prec=e.prec))
        return out

    def read_vector(self, comps: Sequence[int]) -> Expr | None:
        """One swizzle of a common base vector when every component of
        ``comps`` comes from the same one, else None."""
        entries = [self.entries[c] for c in comps]
        if not entries or any(e is None or e.base is None for e in entries):
            return None
        base = entries[0].base
        if any(e.base != base or e.type != entries[0].type for e in entries):
            return None
        return swizzle(var(base, entries[0].type, entries[0].base_size), [e.index for e in entries])


__all__ = ["VectorView", "ComponentView", "Component", "comp", "vcomps"]
