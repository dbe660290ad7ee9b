"""64-bit integer opcodes in GLSL 3.30: helpers on ``uvec2(lo, hi)``, for hosts without
GL_ARB_gpu_shader_int64 (the gl33 profile).

docs/lowering.md "64-bit integers without int64_t" lists the rows, rules and cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import int_emul
from .exprs import Expr, bitcast, call, literal, swizzle, var
from .signatures import lane_dst_components, lane_src_positions, lanes

# ---------------------------------------------------------------------------
# The helpers: name -> (helpers it calls, GLSL 3.30 definition).  A 64-bit
# value is ``uvec2(lo, hi)``; signed values are two's complement in it.
# ---------------------------------------------------------------------------

_HELPERS: dict[str, tuple[tuple[str, ...], str]] = {
    # -- add, subtract, negate: the carry out of the low word is 'sum < addend' --
    "glp_u64_add": (
        (),
        """uvec2 glp_u64_add(uvec2 a, uvec2 b)
{
    uint lo = a.x + b.x;
    return uvec2(lo, a.y + b.y + (lo < a.x ? 1u : 0u));
}""",
    ),
    "glp_u64_sub": (
        (),
        """uvec2 glp_u64_sub(uvec2 a, uvec2 b)
{
    return uvec2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u));
}""",
    ),
    "glp_i64_neg": (
        ("glp_u64_sub",),
        """uvec2 glp_i64_neg(uvec2 a)
{
    return glp_u64_sub(uvec2(0u), a);
}""",
    ),
    # |INT64_MIN| wraps to INT64_MIN (as native abs(int64_t) does); read as unsigned it is 2^63.
    "glp_i64_abs": (
        ("glp_i64_neg",),
        """uvec2 glp_i64_abs(uvec2 a)
{
    return int(a.y) < 0 ? glp_i64_neg(a) : a;
}""",
    ),
    "glp_i64_ssg": (
        (),
        """uvec2 glp_i64_ssg(uvec2 a)
{
    if (int(a.y) < 0) return uvec2(0xffffffffu);
    return (a.x | a.y) != 0u ? uvec2(1u, 0u) : uvec2(0u);
}""",
    ),
    # -- compares: the high words decide unless equal (signed high word for I64) --
    "glp_u64_lt": (
        (),
        """bool glp_u64_lt(uvec2 a, uvec2 b)
{
    return a.y != b.y ? a.y < b.y : a.x < b.x;
}""",
    ),
    "glp_i64_lt": (
        (),
        """bool glp_i64_lt(uvec2 a, uvec2 b)
{
    return a.y != b.y ? int(a.y) < int(b.y) : a.x < b.x;
}""",
    ),
    "glp_u64_seq": (
        (),
        """uint glp_u64_seq(uvec2 a, uvec2 b)
{
    return all(equal(a, b)) ? 0xffffffffu : 0u;
}""",
    ),
    "glp_u64_sne": (
        (),
        """uint glp_u64_sne(uvec2 a, uvec2 b)
{
    return any(notEqual(a, b)) ? 0xffffffffu : 0u;
}""",
    ),
    "glp_u64_slt": (
        ("glp_u64_lt",),
        """uint glp_u64_slt(uvec2 a, uvec2 b)
{
    return glp_u64_lt(a, b) ? 0xffffffffu : 0u;
}""",
    ),
    "glp_u64_sge": (
        ("glp_u64_lt",),
        """uint glp_u64_sge(uvec2 a, uvec2 b)
{
    return glp_u64_lt(a, b) ? 0u : 0xffffffffu;
}""",
    ),
    "glp_i64_slt": (
        ("glp_i64_lt",),
        """uint glp_i64_slt(uvec2 a, uvec2 b)
{
    return glp_i64_lt(a, b) ? 0xffffffffu : 0u;
}""",
    ),
    "glp_i64_sge": (
        ("glp_i64_lt",),
        """uint glp_i64_sge(uvec2 a, uvec2 b)
{
    return glp_i64_lt(a, b) ? 0u : 0xffffffffu;
}""",
    ),
    "glp_u64_min": (
        ("glp_u64_lt",),
        """uvec2 glp_u64_min(uvec2 a, uvec2 b)
{
    return glp_u64_lt(b, a) ? b : a;
}""",
    ),
    "glp_u64_max": (
        ("glp_u64_lt",),
        """uvec2 glp_u64_max(uvec2 a, uvec2 b)
{
    return glp_u64_lt(a, b) ? b : a;
}""",
    ),
    "glp_i64_min": (
        ("glp_i64_lt",),
        """uvec2 glp_i64_min(uvec2 a, uvec2 b)
{
    return glp_i64_lt(b, a) ? b : a;
}""",
    ),
    "glp_i64_max": (
        ("glp_i64_lt",),
        """uvec2 glp_i64_max(uvec2 a, uvec2 b)
{
    return glp_i64_lt(a, b) ? b : a;
}""",
    ),
    # -- shifts: count & 63 (tgsi.rst), split at 32 so every GLSL shift is by 0..31 --
    "glp_u64_shl": (
        (),
        """uvec2 glp_u64_shl(uvec2 a, uint c)
{
    c &= 63u;
    if (c == 0u) return a;
    if (c < 32u) return uvec2(a.x << c, (a.y << c) | (a.x >> (32u - c)));
    return uvec2(0u, a.x << (c - 32u));
}""",
    ),
    "glp_u64_shr": (
        (),
        """uvec2 glp_u64_shr(uvec2 a, uint c)
{
    c &= 63u;
    if (c == 0u) return a;
    if (c < 32u) return uvec2((a.x >> c) | (a.y << (32u - c)), a.y >> c);
    return uvec2(a.y >> (c - 32u), 0u);
}""",
    ),
    # Arithmetic: GLSL's >> on int copies the sign bit (GLSL 4.60 5.9).
    "glp_i64_shr": (
        (),
        """uvec2 glp_i64_shr(uvec2 a, uint c)
{
    c &= 63u;
    if (c == 0u) return a;
    int h = int(a.y);
    if (c < 32u) return uvec2((a.x >> c) | (a.y << (32u - c)), uint(h >> c));
    return uvec2(uint(h >> (c - 32u)), uint(h >> 31u));
}""",
    ),
    # -- multiply: the low 64 bits of a * b = lo*lo (64-bit) + (lo*hi + hi*lo) << 32 --
    "glp_u64_mul": (
        ("glp_umul_hi",),
        """uvec2 glp_u64_mul(uvec2 a, uvec2 b)
{
    return uvec2(a.x * b.x, glp_umul_hi(a.x, b.x) + a.x * b.y + a.y * b.x);
}""",
    ),
    # -- division --
    "glp_u64_msb": (
        ("glp_umsb",),
        """int glp_u64_msb(uvec2 a)
{
    return a.y != 0u ? 32 + glp_umsb(a.y) : glp_umsb(a.x);
}""",
    ),
    # Quotient (.xy) and remainder (.zw) of n / d, d != 0.  32-bit operands take the
    # hardware's 32-bit division; a divisor below 2^16, schoolbook division by 16-bit
    # digits (each partial dividend r * 2^16 + digit < d * 2^16 fits a word).  Else
    # restoring division: d is shifted up until its top bit meets n's (so it never
    # overflows), then one compare-subtract per quotient bit, s + 1 <= 64 of them.
    "glp_u64_divmod": (
        ("glp_u64_lt", "glp_u64_sub", "glp_u64_shl", "glp_u64_msb"),
        """uvec4 glp_u64_divmod(uvec2 n, uvec2 d)
{
    if (d.y == 0u) {
        if (n.y == 0u) return uvec4(n.x / d.x, 0u, n.x % d.x, 0u);
        if (d.x <= 0xffffu) {
            uint qh = n.y / d.x;
            uint t = ((n.y % d.x) << 16u) | (n.x >> 16u);
            uint q1 = t / d.x;
            t = ((t % d.x) << 16u) | (n.x & 0xffffu);
            return uvec4((q1 << 16u) | (t / d.x), qh, t % d.x, 0u);
        }
    }
    if (glp_u64_lt(n, d)) return uvec4(0u, 0u, n);
    int s = glp_u64_msb(n) - glp_u64_msb(d);
    uvec2 dd = glp_u64_shl(d, uint(s));
    uvec2 q = uvec2(0u);
    uvec2 r = n;
    for (int i = 0; i <= s; i++) {
        q = uvec2(q.x << 1u, (q.y << 1u) | (q.x >> 31u));
        if (!glp_u64_lt(r, dd)) {
            r = glp_u64_sub(r, dd);
            q.x |= 1u;
        }
        dd = uvec2((dd.x >> 1u) | (dd.y << 31u), dd.y >> 1u);
    }
    return uvec4(q, r);
}""",
    ),
    # x / 0 and x % 0 give ~0 (UDIV's rule, as wide.py's native _DIV64 helpers).
    "glp_u64_div": (
        ("glp_u64_divmod",),
        """uvec2 glp_u64_div(uvec2 a, uvec2 b)
{
    if ((b.x | b.y) == 0u) return uvec2(0xffffffffu);
    return glp_u64_divmod(a, b).xy;
}""",
    ),
    "glp_u64_mod": (
        ("glp_u64_divmod",),
        """uvec2 glp_u64_mod(uvec2 a, uvec2 b)
{
    if ((b.x | b.y) == 0u) return uvec2(0xffffffffu);
    return glp_u64_divmod(a, b).zw;
}""",
    ),
    # Signed: magnitudes divided unsigned (|INT64_MIN| = 2^63 fits), the quotient
    # negated when the signs differ (so INT64_MIN / -1 wraps to INT64_MIN), the
    # remainder takes the dividend's sign (C's truncated %); x / 0 and x % 0 give -1.
    "glp_i64_div": (
        ("glp_u64_divmod", "glp_i64_abs", "glp_i64_neg"),
        """uvec2 glp_i64_div(uvec2 a, uvec2 b)
{
    if ((b.x | b.y) == 0u) return uvec2(0xffffffffu);
    uvec2 q = glp_u64_divmod(glp_i64_abs(a), glp_i64_abs(b)).xy;
    return int(a.y ^ b.y) < 0 ? glp_i64_neg(q) : q;
}""",
    ),
    "glp_i64_mod": (
        ("glp_u64_divmod", "glp_i64_abs", "glp_i64_neg"),
        """uvec2 glp_i64_mod(uvec2 a, uvec2 b)
{
    if ((b.x | b.y) == 0u) return uvec2(0xffffffffu);
    uvec2 r = glp_u64_divmod(glp_i64_abs(a), glp_i64_abs(b)).zw;
    return int(a.y) < 0 ? glp_i64_neg(r) : r;
}""",
    ),
    # -- conversions --
    "glp_u2i64": (
        (),
        """uvec2 glp_u2i64(uint a)
{
    return uvec2(a, 0u);
}""",
    ),
    "glp_i2i64": (
        (),
        """uvec2 glp_i2i64(int a)
{
    return uvec2(uint(a), uint(a >> 31u));
}""",
    ),
    # Truncate, then split at 2^32: for |f| >= 2^32 the float is an integer with at most
    # 24 significant bits, so f * 2^-32 (a power of two), its trunc and the remainder
    # f - hi * 2^32 are all exact.  Out-of-range and NaN inputs are undefined (tgsi.rst);
    # they give what the native conversion gives on llvmpipe (probed: all ones for
    # F2U64, INT64_MIN for F2I64), so both profiles agree.
    "glp_f2u64": (
        (),
        """uvec2 glp_f2u64(float f)
{
    f = trunc(f);
    if (!(f >= 0.0) || f >= 18446744073709551616.0) return uvec2(0xffffffffu);
    if (f < 4294967296.0) return uvec2(uint(f), 0u);
    float hi = trunc(f * 2.3283064365386963e-10);
    return uvec2(uint(f - hi * 4294967296.0), uint(hi));
}""",
    ),
    "glp_f2i64": (
        ("glp_f2u64", "glp_i64_neg"),
        """uvec2 glp_f2i64(float f)
{
    if (!(abs(f) < 9223372036854775808.0)) return uvec2(0u, 0x80000000u);
    uvec2 m = glp_f2u64(abs(f));
    return f < 0.0 ? glp_i64_neg(m) : m;
}""",
    ),
    # Round to nearest, ties to even (what the native float(uint64_t) gives): keep the
    # 24 bits below the leading one, look at the dropped bits against half an ulp, and
    # assemble the float's bits (exponent at most 64: never overflows).
    "glp_u642f": (
        ("glp_u64_msb", "glp_u64_shl", "glp_u64_shr", "glp_u64_sub", "glp_u64_lt"),
        """float glp_u642f(uvec2 a)
{
    if (a.y == 0u && a.x < 0x1000000u) return float(a.x);
    int p = glp_u64_msb(a);
    uint sh = uint(p - 23);
    uint m = glp_u64_shr(a, sh).x;
    uvec2 dropped = glp_u64_sub(a, glp_u64_shl(uvec2(m, 0u), sh));
    uvec2 half_ulp = glp_u64_shl(uvec2(1u, 0u), sh - 1u);
    bool up = glp_u64_lt(half_ulp, dropped) || (all(equal(dropped, half_ulp)) && (m & 1u) == 1u);
    if (up) m += 1u;
    if (m == 0x1000000u) {
        m = 0x800000u;
        p += 1;
    }
    return uintBitsToFloat((uint(p + 127) << 23u) | (m & 0x7fffffu));
}""",
    ),
    "glp_i642f": (
        ("glp_u642f", "glp_i64_abs"),
        """float glp_i642f(uvec2 a)
{
    float f = glp_u642f(glp_i64_abs(a));
    return int(a.y) < 0 ? -f : f;
}""",
    ),
}

# int_emul's GLSL 3.30 32-bit helpers the ones above call.
_FROM_INT_EMUL = frozenset({"glp_umul_hi", "glp_umsb"})


def define(em, name: str) -> str:
    """Register helper ``name`` (after the helpers it calls) with emitter ``em``; returns ``name``."""
    if name in _FROM_INT_EMUL:
        req = getattr(em, "req", None)
        if name == "glp_umul_hi" and req is not None and req.has("gpu_shader5"):
            # Where UMUL_HI is native, int_emul defines glp_umul_hi(uint, uint) around
            # umulExtended; take that one, so a shader using both never has two bodies.
            int_emul.int_op(em, "UMUL_HI", [var("a", "uint", 1), var("b", "uint", 1)])
        else:
            int_emul.define(em, name)
        return name
    deps, code = _HELPERS[name]
    for dep in deps:
        define(em, dep)
    em.helper(name, code)
    return name


class _Collector:
    """Stands in for an emitter when only the helpers' text is wanted (tests, benchmarks)."""

    def __init__(self):
        self.helpers: dict[str, str] = {}

    def helper(self, name: str, code: str) -> str:
        self.helpers.setdefault(name, code)
        return name


def helper_source(names: Sequence[str]) -> str:
    """GLSL 3.30 definitions of helpers ``names`` and everything they call, callees first.

    Importable by name for other lowerings (e.g. a soft-fp64 D2U64 can call
    ``glp_u64_shl`` / ``glp_u64_shr``) and for tests and benchmarks."""
    c = _Collector()
    for name in names:
        define(c, name)
    return "\n\n".join(c.helpers.values()) + "\n"


# ---------------------------------------------------------------------------
# The opcode table: TGSI opcode -> helper; the helper's parameter types say
# how each operand is read (uvec2 = a 64-bit lane, else one 32-bit word).
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SoftOp:
    """One opcode's GLSL 3.30 form: ``helper(params...)`` returning ``result``."""

    helper: str
    params: tuple[str, ...]
    result: str  # "uvec2" (a 64-bit lane), "uint" (a compare word), "float"


def _row(helper: str, *params: str, result: str = "uvec2") -> SoftOp:
    return SoftOp(helper, params, result)


_P2 = ("uvec2", "uvec2")

SOFT_INT64: dict[str, SoftOp] = {
    "U64ADD": _row("glp_u64_add", *_P2),
    "U64MUL": _row("glp_u64_mul", *_P2),
    "U64DIV": _row("glp_u64_div", *_P2),
    "U64MOD": _row("glp_u64_mod", *_P2),
    "I64DIV": _row("glp_i64_div", *_P2),
    "I64MOD": _row("glp_i64_mod", *_P2),
    "U64MIN": _row("glp_u64_min", *_P2),
    "U64MAX": _row("glp_u64_max", *_P2),
    "I64MIN": _row("glp_i64_min", *_P2),
    "I64MAX": _row("glp_i64_max", *_P2),
    "I64ABS": _row("glp_i64_abs", "uvec2"),
    "I64NEG": _row("glp_i64_neg", "uvec2"),
    "I64SSG": _row("glp_i64_ssg", "uvec2"),
    "U64SHL": _row("glp_u64_shl", "uvec2", "uint"),
    "U64SHR": _row("glp_u64_shr", "uvec2", "uint"),
    "I64SHR": _row("glp_i64_shr", "uvec2", "uint"),
    "U64SEQ": _row("glp_u64_seq", *_P2, result="uint"),
    "U64SNE": _row("glp_u64_sne", *_P2, result="uint"),
    "U64SLT": _row("glp_u64_slt", *_P2, result="uint"),
    "U64SGE": _row("glp_u64_sge", *_P2, result="uint"),
    "I64SLT": _row("glp_i64_slt", *_P2, result="uint"),
    "I64SGE": _row("glp_i64_sge", *_P2, result="uint"),
    "F2U64": _row("glp_f2u64", "float"),
    "F2I64": _row("glp_f2i64", "float"),
    "U2I64": _row("glp_u2i64", "uint"),
    "I2I64": _row("glp_i2i64", "int"),
    "U642F": _row("glp_u642f", "uvec2", result="float"),
    "I642F": _row("glp_i642f", "uvec2", result="float"),
}

# The int64 opcodes with a double side (D2U64, D2I64, U642D, I642D) are soft fp64's
# (issue 18 item 1); without both int64_t and double they stay refused by wide.py.


# ---------------------------------------------------------------------------
# Operands and the handler
# ---------------------------------------------------------------------------

_M64 = (1 << 64) - 1


def _fold_literal(lo: int, hi: int, absolute: bool, negate: bool) -> Expr:
    """TGSI |x| / -x on a 64-bit immediate lane, folded in Python (two's complement)."""
    v = (lo & 0xFFFFFFFF) | ((hi & 0xFFFFFFFF) << 32)
    if absolute and v >> 63:
        v = -v & _M64
    if negate:
        v = -v & _M64
    return literal("uint", (v & 0xFFFFFFFF, v >> 32))


def src_pair(em, i: int, s: int, lane: int) -> Expr:
    """Lane ``lane`` of source ``s`` of instruction ``i`` as a ``uvec2(lo, hi)``, with
    TGSI's modifiers as 64-bit integer abs / negate (tgsi.rst: two's complement)."""
    reg = em.insts[i].srcs[s]
    comps = tuple(reg.swizzle[p] for p in ((0, 1) if lane == 0 else (2, 3)))
    pair = em.read_register(i, "s", s, reg, comps, "uint")
    if pair.words is not None:
        return _fold_literal(pair.words[0], pair.words[1], reg.absolute, reg.negate)
    if reg.absolute:
        pair = call(f"{define(em, 'glp_i64_abs')}({pair.text})", "uint", 2)
    if reg.negate:
        pair = call(f"{define(em, 'glp_i64_neg')}({pair.text})", "uint", 2)
    return pair


_RESULT = {"uvec2": ("uint", 2), "uint": ("uint", 1), "float": ("float", 1)}


def handle_soft_int64(em, i: int, inst) -> None:
    """An int64 / uint64 opcode of ``SOFT_INT64``, lane by lane, as GLSL 3.30 helper calls."""
    row = SOFT_INT64[inst.opcode]
    _, src_types = em.types(i)
    for lane in lanes(inst):
        comps = lane_dst_components(inst, lane)
        if not comps:
            continue
        args: list[Expr] = []
        for s, param in enumerate(row.params):
            if param == "uvec2":
                args.append(src_pair(em, i, s, lane))
            else:
                pos = lane_src_positions(inst, s, lane, src_types[s])
                args.append(bitcast(em.src(i, s, pos, src_types[s]), param))
        base, n = _RESULT[row.result]
        value = call(f"{define(em, row.helper)}({', '.join(a.text for a in args)})", base, n)
        if n == 2:
            value = swizzle(value, [c - (0 if lane == 0 else 2) for c in comps])
        em.write(i, 0, comps, value)


__all__ = ["SOFT_INT64", "SoftOp", "define", "handle_soft_int64", "helper_source", "src_pair"]
