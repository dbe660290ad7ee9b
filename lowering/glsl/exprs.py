"""Typed GLSL expressions: literals, bit casts, swizzles, vector construction.

Everything the emitter writes as a value goes through ``Expr``: a piece of
GLSL text plus its base type (``float int uint double int64 uint64 bool``)
and component count.  Knowing the type lets the emitter convert once, at the
use that needs it, instead of bit-casting every operand; knowing that an
expression is a *literal* (its raw 32-bit words are kept in ``words``) lets
a conversion fold into a new literal, so ``IMM[0] UINT32 {0x3f800000,...}``
read by a float opcode prints as ``1.0`` rather than
``uintBitsToFloat(1065353216u)``.

TGSI registers hold raw 32-bit words, so every conversion here is a bit
cast (``floatBitsToUint`` & co., or the ``int``/``uint`` constructors, which
keep the bits in GLSL); numeric conversions (I2F, F2U, ...) are opcodes and
live in ``alu.py``.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

BASE_TYPES = ("float", "int", "uint", "double", "int64", "uint64", "bool")

_SCALAR = {
    "float": "float",
    "int": "int",
    "uint": "uint",
    "double": "double",
    "int64": "int64_t",
    "uint64": "uint64_t",
    "bool": "bool",
}
_VECTOR = {
    "float": "vec",
    "int": "ivec",
    "uint": "uvec",
    "double": "dvec",
    "int64": "i64vec",
    "uint64": "u64vec",
    "bool": "bvec",
}

SWIZZLE = "xyzw"

# 32-bit types whose values are one register word each.
WORD_TYPES = ("float", "int", "uint")


def type_name(base: str, n: int) -> str:
    """GLSL type of ``n`` components of ``base``: ``("uint", 3)`` -> ``uvec3``."""
    if n == 1:
        return _SCALAR[base]
    return f"{_VECTOR[base]}{n}"


def swizzle_text(components: Sequence[int]) -> str:
    """``(0, 2)`` -> ``"xz"``."""
    return "".join(SWIZZLE[c] for c in components)


@dataclass(frozen=True)
class Expr:
    """A GLSL expression of ``n`` components of base type ``type``.

    ``atomic`` is True when the text can be used as an operand of a binary
    operator or be swizzled without parentheses (identifiers, calls,
    swizzles, non-negative literals).  ``words`` holds the raw 32-bit words
    of a literal (one per component), ``cast_of`` the expression a bit cast
    was applied to (so casting back folds away).
    """

    text: str
    type: str
    n: int = 1
    atomic: bool = True
    words: tuple[int, ...] | None = None
    cast_of: Expr | None = None
    prec: int = -1  # operator precedence of the top node (PREC); -1: from atomic
    swz_of: Expr | None = None  # for a swizzle: the vector it selects from ...
    swz: tuple[int, ...] | None = None  # ... and the components it selects
    parts: tuple[Expr, ...] | None = None  # for a vector constructor: its scalar arguments

    @property
    def glsl_type(self) -> str:
        """The GLSL type name (``vec3``, ``uint``, ...)."""
        return type_name(self.type, self.n)

    @property
    def is_literal(self) -> bool:
        """True for a compile-time constant built from raw words."""
        return self.words is not None

    def p(self) -> str:
        """The text, parenthesised unless atomic (for use as an operand)."""
        return self.text if self.atomic else f"({self.text})"

    @property
    def precedence(self) -> int:
        """Binding strength of the top node (100 for atoms)."""
        if self.prec >= 0:
            return self.prec
        return 100 if self.atomic else 0

    def at(self, level: int) -> str:
        """The text as an operand of an operator binding at ``level`` (parenthesised if looser)."""
        return self.text if self.precedence >= level else f"({self.text})"

    def __str__(self) -> str:
        return self.text


def var(name: str, base: str, n: int) -> Expr:
    """An identifier (or any atomic lvalue text)."""
    return Expr(name, base, n, True)


def op(text: str, base: str, n: int, prec: int = 0) -> Expr:
    """A compound (non-atomic) expression such as ``a + b``; ``prec`` is the
    precedence of its top operator (see PREC), 0 = always parenthesise."""
    return Expr(text, base, n, False, prec=prec)


# GLSL operator precedence (higher binds tighter), as in the GLSL spec's table.
PREC = {
    "unary": 90,
    "*": 80,
    "/": 80,
    "%": 80,
    "+": 70,
    "-": 70,
    "<<": 60,
    ">>": 60,
    "<": 50,
    ">": 50,
    "<=": 50,
    ">=": 50,
    "==": 45,
    "!=": 45,
    "&": 40,
    "^": 35,
    "|": 30,
    "&&": 25,
    "^^": 22,
    "||": 20,
    "?:": 10,
}


def binary(a: Expr, o: str, b: Expr, base: str | None = None, n: int | None = None) -> Expr:
    """``a o b`` with only the parentheses GLSL needs (left-associative operators).
    ``x + -y`` is written ``x - y``."""
    level = PREC[o]
    if o in ("+", "-") and b.words is not None and b.n == 1 and b.text.startswith("-") and b.type in ("float", "int"):
        flipped = b.words[0] ^ 0x80000000 if b.type == "float" else (-b.words[0]) & 0xFFFFFFFF
        o = "-" if o == "+" else "+"
        b = literal(b.type, (flipped,))
    elif o in ("+", "-") and b.prec == PREC["unary"] and b.text.startswith("-") and b.words is None:
        inner = b.text[1:]
        o = "-" if o == "+" else "+"
        b = Expr(inner, b.type, b.n, False, prec=b.cast_of.precedence if b.cast_of else 100)
    text = f"{a.at(level)} {o} {b.at(level + 1)}"
    return op(text, base or a.type, n or max(a.n, b.n), level)


def negate(a: Expr) -> Expr:
    """``-a`` (remembering ``a`` so that ``x + -a`` prints as ``x - a``).  A
    negative literal is parenthesised: ``--1.0`` is GLSL's pre-decrement."""
    inner = a.at(PREC["unary"])
    if inner.startswith("-"):
        inner = f"({inner})"
    return Expr(f"-{inner}", a.type, a.n, False, cast_of=a, prec=PREC["unary"])


def call(text: str, base: str, n: int) -> Expr:
    """A function call or constructor (atomic)."""
    return Expr(text, base, n, True)


# ---------------------------------------------------------------------------
# Literals
# ---------------------------------------------------------------------------


def _f32(word: int) -> float:
    return struct.unpack("<f", struct.pack("<I", word & 0xFFFFFFFF))[0]


def _i32(word: int) -> int:
    word &= 0xFFFFFFFF
    return word - (1 << 32) if word & 0x80000000 else word


def float_is_plain(word: int) -> bool:
    """True when a float32 word can be written as a decimal literal and
    survive every GLSL compiler bit-exactly: finite, normal or zero, and not
    negative zero (a ``-0.0`` literal is constant-folded by some compilers
    into ``0.0``)."""
    word &= 0xFFFFFFFF
    exp = (word >> 23) & 0xFF
    if exp == 0xFF:
        return False  # inf / NaN
    if exp == 0 and word & 0x7FFFFF:
        return False  # denormal: may be flushed
    return word != 0x80000000


def float_text(word: int) -> str:
    """Shortest decimal text that reads back as exactly this float32
    (positional for ordinary magnitudes, scientific for tiny and huge ones)."""
    value = np.float32(_f32(word))
    if value == 0.0:
        return "0.0"
    if 1e-4 <= abs(value) < 1e9:
        return np.format_float_positional(value, unique=True, trim="0")
    text = np.format_float_scientific(value, unique=True, trim="0", exp_digits=1)
    mantissa, exponent = text.split("e")
    if "." not in mantissa:
        mantissa += ".0"
    elif mantissa.endswith("."):
        mantissa += "0"
    return f"{mantissa}e{int(exponent)}"


def uint_text(word: int) -> str:
    """``7u`` for small values, hexadecimal (``0x3f800000u``) for bit patterns."""
    word &= 0xFFFFFFFF
    return f"{word}u" if word < 4096 else f"0x{word:08x}u"


def int_text(word: int) -> str:
    """Signed decimal; INT_MIN as ``int(0x80000000u)`` (``-2147483648`` overflows)."""
    value = _i32(word)
    if value == -(1 << 31):
        return "int(0x80000000u)"
    return str(value)


def _scalar_literal(base: str, word: int) -> tuple[str, bool]:
    """(text, atomic) of one word read as ``base``."""
    if base == "float":
        if float_is_plain(word):
            text = float_text(word)
            return text, not text.startswith("-")
        return f"uintBitsToFloat({uint_text(word)})", True
    if base == "uint":
        return uint_text(word), True
    if base == "int":
        text = int_text(word)
        return text, not text.startswith("-")
    if base == "bool":
        return ("true" if word else "false"), True
    raise ValueError(f"no 32-bit literal of type {base}")


def literal(base: str, words: Sequence[int]) -> Expr:
    """A literal of ``len(words)`` components; the words are read as ``base``."""
    words = tuple(w & 0xFFFFFFFF for w in words)
    n = len(words)
    if n == 1:
        text, atomic = _scalar_literal(base, words[0])
        return Expr(text, base, 1, atomic, words, prec=100 if atomic else PREC["unary"])
    if all(w == words[0] for w in words):
        text = _scalar_literal(base, words[0])[0]
        return Expr(f"{type_name(base, n)}({text})", base, n, True, words)
    parts = ", ".join(_scalar_literal(base, w)[0] for w in words)
    return Expr(f"{type_name(base, n)}({parts})", base, n, True, words)


def float_literal(value: float) -> Expr:
    """A float literal of a Python value (rounded to float32)."""
    word = struct.unpack("<I", struct.pack("<f", value))[0]
    return literal("float", (word,))


def int_literal(value: int, base: str = "int") -> Expr:
    """An int or uint literal of a Python integer."""
    return literal(base, (value & 0xFFFFFFFF,))


def double_literal(lo: int, hi: int) -> Expr:
    """A double literal from its two words (low word first), bit-exact."""
    value = struct.unpack("<d", struct.pack("<II", lo & 0xFFFFFFFF, hi & 0xFFFFFFFF))[0]
    if (
        math.isfinite(value)
        and not (value == 0.0 and math.copysign(1.0, value) < 0)
        and (value == 0.0 or abs(value) >= 2.2250738585072014e-308)
    ):
        text = repr(value)
        if "e" not in text and "." not in text:
            text += ".0"
        neg = text.startswith("-")
        return Expr(f"{text}lf", "double", 1, not neg, prec=PREC["unary"] if neg else 100)
    return Expr(f"packDouble2x32(uvec2({uint_text(lo)}, {uint_text(hi)}))", "double", 1, True)


def int64_literal(lo: int, hi: int, base: str) -> Expr:
    """An int64_t / uint64_t literal from two words (low word first)."""
    value = (lo & 0xFFFFFFFF) | ((hi & 0xFFFFFFFF) << 32)
    if base == "uint64":
        return Expr(f"{value}ul", base, 1, True)
    if value >= 1 << 63:
        value -= 1 << 64
    if value == -(1 << 63):
        return Expr("int64_t(0x8000000000000000ul)", base, 1, True)
    return Expr(f"{value}l", base, 1, value >= 0, prec=100 if value >= 0 else PREC["unary"])


# ---------------------------------------------------------------------------
# Bit casts
# ---------------------------------------------------------------------------


def shift_count(b: Expr, bits: int = 31) -> Expr:
    """``b & bits``: tgsi.rst masks shift counts (31, or 63 for the 64-bit
    shifts); a literal count folds."""
    if b.words is not None:
        return literal(b.type, [w & bits for w in b.words])
    return binary(b, "&", int_literal(bits, b.type if b.type in ("int", "uint") else "uint"))


_BITCAST = {
    ("float", "int"): "floatBitsToInt",
    ("float", "uint"): "floatBitsToUint",
    ("int", "float"): "intBitsToFloat",
    ("uint", "float"): "uintBitsToFloat",
}


def bitcast(expr: Expr, to: str) -> Expr:
    """``expr`` reinterpreted as ``to`` (same bits) among float/int/uint.

    Literals fold into new literals; a cast of a cast folds back to the
    original expression.
    """
    if expr.type == to:
        return expr
    if expr.type not in WORD_TYPES or to not in WORD_TYPES:
        raise ValueError(f"cannot bit-cast {expr.type} to {to}")
    if expr.words is not None:
        return literal(to, expr.words)
    if expr.cast_of is not None and expr.cast_of.type == to:
        return expr.cast_of
    func = _BITCAST.get((expr.type, to))
    if func is None:  # int <-> uint: constructors keep the bits
        func = type_name(to, expr.n)
    return Expr(f"{func}({expr.text})", to, expr.n, True, None, expr)


def bool_to(expr: Expr, to: str) -> Expr:
    """A bool / bvec as TGSI's boolean words: ``~0`` / ``0`` for int and uint,
    1.0 / 0.0 for float (the SLT family)."""
    n = expr.n
    if to == "float":
        return call(f"{type_name('float', n)}({expr.text})", "float", n)
    if to == "int":
        return op(f"-{type_name('int', n)}({expr.text})", "int", n, PREC["unary"])
    if to == "uint":  # unary minus wraps on uint: 1u -> 0xffffffffu
        return op(f"-{type_name('uint', n)}({expr.text})", "uint", n, PREC["unary"])
    raise ValueError(f"no boolean words of type {to}")


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def swizzle(expr: Expr, components: Sequence[int]) -> Expr:
    """Select ``components`` (0..3) of ``expr``; identity selections vanish."""
    components = tuple(components)
    if expr.n == 1:
        if any(c != 0 for c in components):
            raise ValueError("swizzle of a scalar beyond .x")
        return splat(expr, len(components))
    if components == tuple(range(expr.n)):
        return expr
    if expr.words is not None:
        return literal(expr.type, [expr.words[c] for c in components])
    if expr.swz_of is not None:  # a swizzle of a swizzle selects from the original
        return swizzle(expr.swz_of, [expr.swz[c] for c in components])
    return Expr(f"{expr.p()}.{swizzle_text(components)}", expr.type, len(components), True, swz_of=expr, swz=components)


def splat(expr: Expr, n: int) -> Expr:
    """A scalar replicated to ``n`` components (``vec3(x)``)."""
    if expr.n != 1:
        raise ValueError("splat of a vector")
    if n == 1:
        return expr
    if expr.words is not None:
        return literal(expr.type, expr.words * n)
    return call(f"{type_name(expr.type, n)}({expr.text})", expr.type, n)


def construct(parts: Sequence[Expr], base: str) -> Expr:
    """A vector of ``base`` built from ``parts`` (each already of ``base``)."""
    parts = list(parts)
    n = sum(p.n for p in parts)
    if len(parts) == 1 and parts[0].n == n:
        return parts[0]
    if all(p.words is not None for p in parts):
        return literal(base, [w for p in parts for w in p.words])
    scalars = tuple(parts) if all(p.n == 1 for p in parts) else None
    return Expr(f"{type_name(base, n)}({', '.join(p.text for p in parts)})", base, n, True, parts=scalars)


def component(expr: Expr, c: int) -> Expr:
    """Component ``c`` of ``expr`` as a scalar (the argument itself for a constructor)."""
    if expr.n == 1:
        return expr
    if expr.parts is not None:
        return expr.parts[c]
    return swizzle(expr, (c,))


__all__ = [
    "BASE_TYPES",
    "WORD_TYPES",
    "SWIZZLE",
    "Expr",
    "type_name",
    "swizzle_text",
    "var",
    "op",
    "PREC",
    "binary",
    "negate",
    "call",
    "literal",
    "float_literal",
    "int_literal",
    "double_literal",
    "int64_literal",
    "shift_count",
    "float_is_plain",
    "float_text",
    "uint_text",
    "int_text",
    "bitcast",
    "bool_to",
    "swizzle",
    "splat",
    "construct",
    "component",
]
