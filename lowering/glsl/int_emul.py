"""The GLSL 4.00 built-ins of TGSI's integer opcodes and LDEXP, and their GLSL 3.30 lowerings.

IMUL_HI, UMUL_HI, BREV, POPC, LSB, IMSB, UMSB, IBFE, UBFE, BFI and LDEXP need no
Gallium cap beyond integer support (tgsi.rst), so a host without GLSL 4.00 /
GL_ARB_gpu_shader5 (the gl33 profile) runs them through helper functions
written with 3.30 operators only.  Which form a shader gets is decided by the
features table (``Requirements.has("gpu_shader5")``): the native profile
keeps ``umulExtended``, ``bitfieldExtract`` & co.

Every helper is exact for every input tgsi.rst defines, and avoids what
GLSL leaves undefined (shift counts outside [0, 31]; e.g. ``1u << 32`` for a
32-bit field): the high product half is assembled from 16-bit partial
products, the bit scans are binary searches, BREV and POPC are the classic
mask-and-shift ladders, LDEXP writes the result's exponent field.  docs/lowering.md ("GLSL 3.30 integer lowerings")
lists them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .exprs import Expr, bitcast, call, component, construct, type_name

# ---------------------------------------------------------------------------
# Scalar helpers: (return type, parameters, body).  Each takes and returns
# 32-bit scalars; vector forms are generated from them (``_vector``).
# ---------------------------------------------------------------------------

_HELPERS: dict[str, tuple[str, tuple[tuple[str, str], ...], str]] = {
    # High word of the 64-bit product from four 16x16 -> 32 partial products:
    # a*b = hh*2^32 + (lh + hl)*2^16 + ll; 'mid' gathers the carries into bit 32.
    "glp_umul_hi": (
        "uint",
        (("uint", "a"), ("uint", "b")),
        """\
    uint al = a & 0xffffu, ah = a >> 16u, bl = b & 0xffffu, bh = b >> 16u;
    uint ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    return hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);""",
    ),
    # Signed high word: the unsigned one minus b when a < 0 and minus a when b < 0
    # (two's complement reads a negative x as x + 2^32).
    "glp_imul_hi": (
        "int",
        (("int", "a"), ("int", "b")),
        """\
    uint hi = glp_umul_hi(uint(a), uint(b));
    if (a < 0) hi -= uint(b);
    if (b < 0) hi -= uint(a);
    return int(hi);""",
    ),
    "glp_brev": (
        "uint",
        (("uint", "v"),),
        """\
    v = ((v >> 1u) & 0x55555555u) | ((v & 0x55555555u) << 1u);
    v = ((v >> 2u) & 0x33333333u) | ((v & 0x33333333u) << 2u);
    v = ((v >> 4u) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4u);
    v = ((v >> 8u) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8u);
    return (v >> 16u) | (v << 16u);""",
    ),
    "glp_popc": (
        "int",
        (("uint", "v"),),
        """\
    v = v - ((v >> 1u) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2u) & 0x33333333u);
    v = (v + (v >> 4u)) & 0x0f0f0f0fu;
    return int((v * 0x01010101u) >> 24u);""",
    ),
    # Index of the highest set bit by binary search; -1 for 0 (findMSB(uint)).
    "glp_umsb": (
        "int",
        (("uint", "v"),),
        """\
    if (v == 0u) return -1;
    int r = 0;
    if (v >= 0x10000u) { v >>= 16u; r += 16; }
    if (v >= 0x100u) { v >>= 8u; r += 8; }
    if (v >= 0x10u) { v >>= 4u; r += 4; }
    if (v >= 0x4u) { v >>= 2u; r += 2; }
    if (v >= 0x2u) r += 1;
    return r;""",
    ),
    # Highest bit that differs from the sign bit: -1 for 0 and -1 (tgsi.rst IMSB).
    "glp_imsb": (
        "int",
        (("int", "v"),),
        """\
    return glp_umsb(uint(v < 0 ? ~v : v));""",
    ),
    # Lowest set bit: isolate it (v & -v), then scan; -1 for 0.
    "glp_lsb": (
        "int",
        (("uint", "v"),),
        """\
    return glp_umsb(v & (~v + 1u));""",
    ),
    # tgsi.rst: bits == 0 -> 0, else (value << (32 - offset - bits)) >> (32 - bits),
    # both counts in [0, 31] whenever offset + bits <= 32.  '& 31' keeps the lanes
    # tgsi.rst leaves undefined (offset + bits > 32, negative operands) defined in GLSL.
    "glp_ubfe": (
        "uint",
        (("uint", "v"), ("int", "offset"), ("int", "bits")),
        """\
    if (bits == 0) return 0u;
    return (v << uint((32 - offset - bits) & 31)) >> uint((32 - bits) & 31);""",
    ),
    "glp_ibfe": (
        "int",
        (("int", "v"), ("int", "offset"), ("int", "bits")),
        """\
    if (bits == 0) return 0;
    return (v << uint((32 - offset - bits) & 31)) >> uint((32 - bits) & 31);""",
    ),
    # mask = ((1 << bits) - 1) << offset, ~0 for bits == 32 (tgsi.rst), without
    # shifting by 32: a 32-bit field has offset 0, an empty one mask 0.
    "glp_bfi": (
        "uint",
        (("uint", "base"), ("uint", "insert"), ("int", "offset"), ("int", "bits")),
        """\
    uint o = uint(offset & 31);
    uint field = bits >= 32 ? 0xffffffffu : (1u << uint(bits & 31)) - 1u;
    uint mask = field << o;
    return ((insert << o) & mask) | (base & ~mask);""",
    ),
    # x * 2^e by writing the exponent field, exact: the product of a float and a
    # power of two is representable unless it leaves the normal range.  At the ends
    # it does what the host's ldexp does (tests/lowering/test_exec_ldexp.py): shaders
    # run with denormals flushed (llvmpipe's FTZ/DAZ), so a subnormal x and a result
    # below FLT_MIN are zeros of x's sign; >= 2^128 is inf (GLSL: undefined).  e is
    # clamped first so the biased sum cannot wrap.
    "glp_ldexp": (
        "float",
        (("float", "x"), ("int", "e")),
        """\
    uint b = floatBitsToUint(x);
    int biased = int((b >> 23u) & 0xffu);
    if (biased == 0xff) return x;
    uint sign = b & 0x80000000u;
    if (biased == 0) return uintBitsToFloat(sign);
    int r = biased + clamp(e, -512, 512);
    if (r >= 0xff) return uintBitsToFloat(sign | 0x7f800000u);
    if (r <= 0) return uintBitsToFloat(sign);
    return uintBitsToFloat((b & 0x807fffffu) | (uint(r) << 23u));""",
    ),
}

# Helpers a helper calls (registered first so they print first).
_DEPENDS = {"glp_imul_hi": ("glp_umul_hi",), "glp_imsb": ("glp_umsb",), "glp_lsb": ("glp_umsb",)}


def _register(em, name: str) -> None:
    for dep in _DEPENDS.get(name, ()):
        _register(em, dep)
    ret, params, body = _HELPERS[name]
    args = ", ".join(f"{t} {p}" for t, p in params)
    em.helper(f"{name}:1", f"{ret} {name}({args})\n{{\n{body}\n}}")


def define(em, name: str) -> str:
    """Register scalar helper ``name`` (and the helpers it calls) with ``em``; returns ``name``.
    Other GLSL 3.30 lowerings (soft_int64.py) build on these."""
    _register(em, name)
    return name


def _vector(em, name: str, n: int) -> None:
    """The ``n``-component overload of scalar helper ``name`` (a loop over components)."""
    ret, params, _ = _HELPERS[name]
    args = ", ".join(f"{type_name(t, n)} {p}" for t, p in params)
    inner = ", ".join(f"{p}[i]" for _, p in params)
    rt = type_name(ret, n)
    em.helper(
        f"{name}:{n}",
        f"{rt} {name}({args})\n{{\n    {rt} r;\n"
        f"    for (int i = 0; i < {n}; i++)\n        r[i] = {name}({inner});\n"
        f"    return r;\n}}",
    )


def call_helper(em, name: str, args: Sequence[Expr]) -> Expr:
    """``name(args)``: each argument bit-cast to the helper's parameter type and
    widened to the widest argument (scalars splatted); returns the typed call."""
    ret, params, _ = _HELPERS[name]
    n = max(a.n for a in args)
    fixed = []
    for (t, _), a in zip(params, args, strict=True):
        a = bitcast(a, t)
        if a.n < n:
            a = construct([a] * n, t)
        fixed.append(a)
    _register(em, name)
    if n > 1:
        _vector(em, name, n)
    return call(f"{name}({', '.join(a.text for a in fixed)})", ret, n)


# ---------------------------------------------------------------------------
# The opcode table
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IntOp:
    """One opcode: ``native(em, args)`` builds its GLSL 4.00 form, ``helper`` names its 3.30 one."""

    native: Callable[..., Expr]
    helper: str
    feature: str = "gpu_shader5"
    # A host fact (a quirk, glpipe/host/quirks.py) under which the built-in
    # kills the host: the 3.30 helper is used even where the built-in exists.
    avoid: str | None = None


def _builtin(name: str, result: str | None = None) -> Callable[..., Expr]:
    def build(em, args: Sequence[Expr]) -> Expr:
        a = args[0]
        return call(f"{name}({', '.join(x.text for x in args)})", result or a.type, a.n)

    return build


def _mul_extended(signed: bool) -> Callable[..., Expr]:
    """IMUL_HI / UMUL_HI: imulExtended / umulExtended return the high word through an
    out parameter, so a small helper wraps them."""

    def build(em, args: Sequence[Expr]) -> Expr:
        a, b = args
        t = "int" if signed else "uint"
        vt = type_name(t, a.n)
        func = "imulExtended" if signed else "umulExtended"
        name = f"glp_{'i' if signed else 'u'}mul_hi"
        em.helper(
            f"{name}:{vt}",
            f"{vt} {name}({vt} a, {vt} b)\n{{\n    {vt} hi, lo;\n    {func}(a, b, hi, lo);\n    return hi;\n}}",
        )
        return call(f"{name}({a.text}, {b.text})", t, a.n)

    return build


def _is_uniform(e: Expr) -> bool:
    """True when every component of ``e`` is the same value (scalar, splat literal, ``t.xxxx``)."""
    if e.n == 1:
        return True
    if e.words is not None:
        return len(set(e.words)) == 1
    m = re.match(r"^(.*)\.([xyzw]+)$", e.text)
    return bool(m) and len(set(m.group(2))) == 1 and e.atomic


def _bitfield(name: str, nvalues: int) -> Callable[..., Expr]:
    """bitfieldExtract / bitfieldInsert: GLSL takes one scalar offset and bit count
    for the whole vector, TGSI one per component; split into per-component calls
    unless the offset and count operands are the same in every component."""

    def build(em, args: Sequence[Expr]) -> Expr:
        values, params = list(args[:nvalues]), list(args[nvalues:])
        t, n = values[0].type, values[0].n
        if all(_is_uniform(p) for p in params):
            scalars = [component(p, 0) for p in params]
            return call(f"{name}({', '.join(x.text for x in values + scalars)})", t, n)
        parts = [call(f"{name}({', '.join(component(x, k).text for x in values + params)})", t, 1) for k in range(n)]
        return construct(parts, t)

    return build


# One row per opcode (tgsi.rst "Integer ISA" / "Bitwise ISA", LDEXP of "Computational ISA").
INT_OPS: dict[str, IntOp] = {
    "IMUL_HI": IntOp(_mul_extended(True), "glp_imul_hi", avoid="mul_extended_crash"),
    "UMUL_HI": IntOp(_mul_extended(False), "glp_umul_hi", avoid="mul_extended_crash"),
    "BREV": IntOp(_builtin("bitfieldReverse"), "glp_brev"),
    "POPC": IntOp(_builtin("bitCount", "int"), "glp_popc"),
    "LSB": IntOp(_builtin("findLSB", "int"), "glp_lsb"),
    "IMSB": IntOp(_builtin("findMSB", "int"), "glp_imsb"),
    "UMSB": IntOp(_builtin("findMSB", "int"), "glp_umsb"),
    "IBFE": IntOp(_bitfield("bitfieldExtract", 1), "glp_ibfe"),
    "UBFE": IntOp(_bitfield("bitfieldExtract", 1), "glp_ubfe"),
    "BFI": IntOp(_bitfield("bitfieldInsert", 2), "glp_bfi"),
    "LDEXP": IntOp(_builtin("ldexp"), "glp_ldexp"),
}


def int_op(em, opcode: str, args: Sequence[Expr]) -> Expr:
    """``opcode`` applied to ``args``: the GLSL 4.00 built-in where the features
    table grants it (native profile) and no host quirk forbids it, else the
    GLSL 3.30 helper (gl33; the quirky host)."""
    row = INT_OPS[opcode]
    if em.req.has(row.feature) and not (row.avoid and em.req.fact(row.avoid)):
        em.req.need(row.feature, opcode)
        return row.native(em, args)
    return call_helper(em, row.helper, args)


__all__ = ["INT_OPS", "IntOp", "int_op", "call_helper", "define"]
