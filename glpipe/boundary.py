"""Argument checks at the public boundary (docs/api.md, "Design rules").

Every pipe_context / pipe_screen entry point checks what it is given before
it touches GL: Python types, enum members, and the integer ranges of the C
types the arguments stand for in Mesa's headers (``unsigned`` counts are
32-bit, offsets and sizes 64-bit).  A value outside the C type is refused
here rather than truncated by ctypes or numpy later, so ``count=2**32+3``
never draws 3 vertices.  Each check returns the value it accepted
(normalised: a numpy integer becomes an ``int``, an int becomes the enum
member), so a caller writes ``count = uint32(count, "draw_vbo: count")``.

Failures raise InvalidArgumentError naming ``what`` and the value.
"""

from __future__ import annotations

import enum
import numbers
from collections.abc import Iterable
from typing import Any, TypeVar

from glpipe.errors import InvalidArgumentError

E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T")

# The C integer types of Mesa's headers, as (lowest, highest) inclusive.
C_RANGES: dict[str, tuple[int, int]] = {
    "uint8": (0, 0xFF),
    "uint16": (0, 0xFFFF),
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
}


def show(value: Any) -> str:
    """A short repr: a 5,000-digit integer must not flood the message (nor
    hit Python's limit on int-to-str conversion)."""
    if isinstance(value, numbers.Integral) and int(value).bit_length() > 128:
        return f"an integer of {int(value).bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # a container holding such an integer, or a repr that fails
        return f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= 60 else text[:40] + f"... ({len(text)} characters)"


def integer(value: Any, what: str, ctype: str = "uint32") -> int:
    """``value`` as an int inside the C type ``ctype`` (a key of C_RANGES).

    bool is refused (``True`` as a count is a bug at the call site), and so is
    a float even when integral: Gallium's fields are integers."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{what} must be an integer ({ctype}), got {type(value).__name__} {show(value)}")
    value = int(value)
    low, high = C_RANGES[ctype]
    if not low <= value <= high:
        raise InvalidArgumentError(f"{what} = {show(value)} is outside {ctype} [{low}, {high}]")
    return value


def uint32(value: Any, what: str) -> int:
    """An ``unsigned`` (32-bit) count, index or size."""
    return integer(value, what, "uint32")


def int32(value: Any, what: str) -> int:
    """A signed 32-bit value (``int`` in Mesa's headers, e.g. index_bias)."""
    return integer(value, what, "int32")


def uint64(value: Any, what: str) -> int:
    """A 64-bit unsigned offset or size."""
    return integer(value, what, "uint64")


def int64(value: Any, what: str) -> int:
    """A 64-bit signed value."""
    return integer(value, what, "int64")


def in_range(value: Any, what: str, low: int, high: int) -> int:
    """An integer in ``[low, high]`` (a limit narrower than its C type,
    e.g. a sample count or a slot below a cap)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{what} must be an integer, got {type(value).__name__} {show(value)}")
    value = int(value)
    if not low <= value <= high:
        raise InvalidArgumentError(f"{what} = {show(value)} is out of range [{low}, {high}]")
    return value


def number(value: Any, what: str) -> float:
    """A real number (a C ``float``/``double`` field); NaN is allowed where
    the C type allows it, so callers that need finite values check that."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{what} must be a number, got {type(value).__name__} {show(value)}")
    try:
        return float(value)
    except OverflowError:  # an int past a double's range
        raise InvalidArgumentError(f"{what} = {show(value)} does not fit a double") from None


def numbers_of(value: Any, what: str, count: int) -> tuple[float, ...]:
    """Exactly ``count`` numbers (a C ``float[count]``) as floats."""
    items = sequence(value, what)
    if len(items) != count:
        raise InvalidArgumentError(f"{what} must hold {count} numbers, got {len(items)}")
    return tuple(number(v, f"{what}[{i}]") for i, v in enumerate(items))


def flag(value: Any, what: str) -> bool:
    """A C ``bool``: True/False, or the integers 0 and 1 (numpy's included);
    anything else (None, a string, 2) is a mistake at the call site."""
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) or getattr(value, "dtype", None) is not None:
        try:
            if value == 0 or value == 1:
                return bool(value)
        except (TypeError, ValueError):
            pass
    raise InvalidArgumentError(f"{what} must be a bool, got {type(value).__name__} {show(value)}")


def member(cls: type[E], value: Any, what: str) -> E:
    """``value`` as a member of the enum ``cls`` (a member or its value)."""
    if isinstance(value, cls):
        return value
    if isinstance(value, bool) or isinstance(value, enum.Enum):
        raise InvalidArgumentError(f"{what} must be a {cls.__name__}, got {show(value)}")
    try:
        return cls(value)
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"{what} = {show(value)} is not a {cls.__name__}") from None


def flags(cls: type[E], value: Any, what: str) -> E:
    """A combination of the bits of the IntFlag ``cls``; unknown bits are refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{what} must be {cls.__name__} flags, got {type(value).__name__} {show(value)}")
    value = int(value)
    known = 0
    for bit in cls:
        known |= int(bit.value)
    if value < 0 or value & ~known:
        raise InvalidArgumentError(f"{what} = {show(value)} has bits that are not {cls.__name__} members")
    return cls(value)


def instance(value: Any, cls: type[T] | tuple[type, ...], what: str) -> T:
    """``value`` if it is an instance of ``cls``, else InvalidArgumentError
    naming what was expected and what came."""
    if not isinstance(value, cls):
        names = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        raise InvalidArgumentError(f"{what} must be a {names}, got {type(value).__name__}")
    return value  # type: ignore[return-value]


def optional(value: Any, cls: type[T] | tuple[type, ...], what: str) -> T | None:
    """None, or an instance of ``cls``."""
    return None if value is None else instance(value, cls, what)


def sequence(value: Any, what: str, max_len: int | None = None) -> list[Any]:
    """A list/tuple (not a str, bytes or a single object) as a list, at most
    ``max_len`` long."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidArgumentError(f"{what} must be a sequence, got {type(value).__name__}")
    items = list(value)
    if max_len is not None and len(items) > max_len:
        raise InvalidArgumentError(f"{what} has {len(items)} entries, more than the {max_len} allowed")
    return items


def items(value: Any, what: str, max_len: int | None = None) -> tuple:
    """``sequence`` as a tuple, with the common list and tuple taken as they
    are (no ABC test: bind paths call this on every redundant call)."""
    kind = type(value)
    if kind is tuple:
        seq = value
    elif kind is list:
        seq = tuple(value)
    else:
        return tuple(sequence(value, what, max_len))
    if max_len is not None and len(seq) > max_len:
        raise InvalidArgumentError(f"{what} has {len(seq)} entries, more than the {max_len} allowed")
    return seq


def span(start: int, count: int, limit: int, what: str) -> None:
    """``[start, start + count)`` lies inside ``[0, limit)``: a box or byte
    range against the resource it addresses."""
    if start < 0 or count < 0 or start + count > limit:
        raise InvalidArgumentError(f"{what}: [{start}, {start + count}) is outside [0, {limit})")


__all__ = [
    "C_RANGES",
    "flag",
    "flags",
    "in_range",
    "instance",
    "int32",
    "int64",
    "integer",
    "items",
    "member",
    "number",
    "numbers_of",
    "optional",
    "sequence",
    "show",
    "span",
    "uint32",
    "uint64",
]
