"""Arithmetic, logic, conversion and bit opcodes: one ``(mode, formula)`` table row per opcode.

docs/lowering.md "The ALU table" explains the modes and the operand types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import UnsupportedError
from . import exact
from .exprs import (
    PREC,
    Expr,
    binary,
    bitcast,
    bool_to,
    call,
    component,
    construct,
    float_literal,
    literal,
    negate,
    op,
    shift_count,
    splat,
    swizzle,
    type_name,
    var,
)
from .int_emul import int_op
from .signatures import UNTYPED, src_positions

Formula = Callable[..., Expr]

# ---------------------------------------------------------------------------
# Expression builders
# ---------------------------------------------------------------------------


def binop(a: Expr, o: str, b: Expr, t: str | None = None) -> Expr:
    """``a o b`` (operands parenthesised as needed)."""
    return binary(a, o, b, t or a.type)


def fn(name: str, *args: Expr, t: str | None = None, n: int | None = None) -> Expr:
    """``name(args...)`` of type ``t`` (default: the first argument's)."""
    return call(f"{name}({', '.join(a.text for a in args)})", t or args[0].type, n or args[0].n)


def conv(a: Expr, t: str) -> Expr:
    """Numeric conversion constructor (``vec3(ivec3_value)``)."""
    return call(f"{type_name(t, a.n)}({a.text})", t, a.n)


_CMP_FUNCS = {
    "<": "lessThan",
    "<=": "lessThanEqual",
    ">": "greaterThan",
    ">=": "greaterThanEqual",
    "==": "equal",
    "!=": "notEqual",
}


def compare(a: Expr, o: str, b: Expr) -> Expr:
    """A bool / bvecN comparison."""
    n = max(a.n, b.n)
    if n == 1:
        return binary(a, o, b, "bool", 1)
    if a.n == 1:
        a = splat(a, n)
    if b.n == 1:
        b = splat(b, n)
    return call(f"{_CMP_FUNCS[o]}({a.text}, {b.text})", "bool", n)


def ternary(cond: Expr, a: Expr, b: Expr) -> Expr:
    """``cond ? a : b`` (scalar condition)."""
    level = PREC["?:"]
    return op(f"{cond.at(level + 1)} ? {a.at(level + 1)} : {b.at(level)}", a.type, a.n, level)


def zero(t: str, n: int) -> Expr:
    """A zero of ``t`` with ``n`` components."""
    return literal(t, (0,) * n)


def select(em, cond: Expr, a: Expr, b: Expr) -> Expr:
    """Per component ``cond ? a : b`` (``cond`` bool/bvec)."""
    n = a.n
    if n == 1:
        return ternary(cond, a, b)
    if a.type == "float" or a.type == "double":
        return call(f"mix({b.text}, {a.text}, {cond.text})", a.type, n)
    if em.req.has("integer_mix"):
        em.req.need("integer_mix", "an integer select")
        return call(f"mix({b.text}, {a.text}, {cond.text})", a.type, n)
    name = _select_helper(em, a.type, n)
    return call(f"{name}({cond.text}, {a.text}, {b.text})", a.type, n)


def _select_helper(em, t: str, n: int) -> str:
    vt, bt = type_name(t, n), type_name("bool", n)
    parts = ", ".join(f"c.{c} ? a.{c} : b.{c}" for c in "xyzw"[:n])
    em.helper(f"glp_select:{vt}", f"{vt} glp_select({bt} c, {vt} a, {vt} b)\n{{\n    return {vt}({parts});\n}}")
    return "glp_select"


def per_component_helper(em, name: str, t: str, n: int, params: str, scalar_body: str, ret: str | None = None) -> str:
    """Define ``name`` for ``t``/``n`` computing ``scalar_body`` (an expression in
    ``a``, ``b``, ``c`` of scalar type) per component; returns the name."""
    rt = ret or t
    vt, vrt = type_name(t, n), type_name(rt, n)
    args = ", ".join(f"{vt} {p}" for p in params.split(","))
    if n == 1:
        body = f"    return {scalar_body};"
    else:
        idx = scalar_body
        for p in params.split(","):
            idx = _subst(idx, p.strip())
        body = f"    {vrt} r;\n    for (int i = 0; i < {n}; i++)\n        r[i] = {idx};\n    return r;"
    em.helper(f"{name}:{vt}", f"{vrt} {name}({args})\n{{\n{body}\n}}")
    return name


def _subst(text: str, name: str) -> str:
    import re

    return re.sub(rf"\b{name}\b", f"{name}[i]", text)


# ---------------------------------------------------------------------------
# Formulas with tgsi.rst semantics GLSL does not give for free
# ---------------------------------------------------------------------------


def udiv(em, a: Expr, b: Expr) -> Expr:
    """UDIV: x / 0 = 0xffffffff (tgsi.rst); GLSL leaves it undefined."""
    name = per_component_helper(em, "glp_udiv", "uint", a.n, "a,b", "b == 0u ? 0xffffffffu : a / b")
    return fn(name, a, b)


def umod(em, a: Expr, b: Expr) -> Expr:
    """UMOD: x % 0 = 0xffffffff (tgsi.rst)."""
    name = per_component_helper(em, "glp_umod", "uint", a.n, "a,b", "b == 0u ? 0xffffffffu : a % b")
    return fn(name, a, b)


def idiv(em, a: Expr, b: Expr) -> Expr:
    """IDIV: truncating; x / 0 = -1 (tgsi.rst leaves it open; -1 like llvmpipe
    and UDIV's ~0); INT_MIN / -1 wraps to INT_MIN instead of trapping."""
    name = per_component_helper(
        em, "glp_idiv", "int", a.n, "a,b", "b == 0 ? -1 : ((a == int(0x80000000u) && b == -1) ? a : a / b)"
    )
    return fn(name, a, b)


def imod(em, a: Expr, b: Expr) -> Expr:
    """MOD: signed remainder with the sign of the dividend (C's %); x % 0 = -1.
    GLSL's % is undefined for negative operands, so it is built from division."""
    name = per_component_helper(em, "glp_imod", "int", a.n, "a,b", "b == 0 ? -1 : ((b == -1) ? 0 : a - b * (a / b))")
    return fn(name, a, b)


def legacy_mul(em, a: Expr, b: Expr) -> Expr:
    """MUL under LEGACY_MATH_RULES: 0 * anything (inf, NaN) = 0."""
    if not em.shader.property("LEGACY_MATH_RULES", 0):
        return binop(a, "*", b)
    n = max(a.n, b.n)
    a, b = (splat(a, n) if a.n < n else a), (splat(b, n) if b.n < n else b)
    name = per_component_helper(em, "glp_mul_legacy", "float", n, "a,b", "(a == 0.0 || b == 0.0) ? 0.0 : a * b")
    return fn(name, a, b)


def dot(em, a: Expr, b: Expr) -> Expr:
    """dot(), or a sum of legacy products under LEGACY_MATH_RULES."""
    if a.n == 1:
        return legacy_mul(em, a, b)
    if not em.shader.property("LEGACY_MATH_RULES", 0):
        return fn("dot", a, b, n=1)
    return call(f"dot({legacy_mul(em, a, b).text}, {splat(float_literal(1.0), a.n).text})", "float", 1)


def set_on(a: Expr, o: str, b: Expr, t: str) -> Expr:
    """The SLT/FSLT families: a comparison as 1.0/0.0 (float) or ~0/0 (int)."""
    return bool_to(compare(a, o, b), t)


# ---------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------


def _want(em, i: int, types: Sequence, s: int) -> str:
    t = types[s] if s < len(types) else "float"
    return em.untyped_type(i) if t == UNTYPED else t


def handle_comp(formula: Formula):
    """Per-component opcode: formula(em, inst, *srcs) on writemask-wide operands."""

    def handler(em, i, inst):
        comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
        _, src_types = em.types(i)
        srcs = [em.src(i, s, comps, _want(em, i, src_types, s)) for s in range(len(inst.srcs))]
        em.write(i, 0, comps, exact.result(em, i, formula(em, inst, *exact.operands(em, i, srcs))))

    return handler


def handle_repl(formula: Formula):
    """Scalar opcode: the result is replicated to every written channel."""

    def handler(em, i, inst):
        comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
        _, src_types = em.types(i)
        srcs = [em.src(i, s, src_positions(inst, s), _want(em, i, src_types, s)) for s in range(len(inst.srcs))]
        em.write(i, 0, comps, exact.result(em, i, formula(em, inst, *exact.operands(em, i, srcs))))

    return handler


def handle_chan(formula: Formula, want: Sequence[str] = ("float",)):
    """Per-channel opcode: formula returns 4 scalar Exprs; the written ones are stored."""

    def handler(em, i, inst):
        comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
        _, src_types = em.types(i)
        srcs = [em.src(i, s, (0, 1, 2, 3), _want(em, i, src_types, s)) for s in range(len(inst.srcs))]
        channels = formula(em, inst, *exact.operands(em, i, srcs))
        if isinstance(channels, Expr):  # a whole vec4 result
            em.write(i, 0, comps, exact.result(em, i, swizzle(channels, comps)))
            return
        em.write(i, 0, comps, exact.result(em, i, construct([channels[c] for c in comps], channels[comps[0]].type)))

    return handler


def _c(v: Expr, k: int) -> Expr:
    return component(v, k)


F0, F1 = float_literal(0.0), float_literal(1.0)

# -- legacy per-channel formulas (2010 tgsi.rst) -------------------------------------


def _lit(em, inst, a):
    x, y, w = _c(a, 0), _c(a, 1), _c(a, 3)
    spec = f"({x.p()} > 0.0 ? pow(max({y.text}, 0.0), clamp({w.text}, -128.0, 128.0)) : 0.0)"
    return [F1, fn("max", x, F0), op(spec, "float", 1), F1]


def _exp(em, inst, a):
    x = _c(a, 0)
    return [fn("exp2", fn("floor", x)), binop(x, "-", fn("floor", x)), fn("exp2", x), F1]


def _log(em, inst, a):
    ax = fn("abs", _c(a, 0))
    fl = fn("floor", fn("log2", ax))
    return [fl, binop(ax, "/", fn("exp2", fl)), fn("log2", ax), F1]


def _dst(em, inst, a, b):
    return [F1, legacy_mul(em, _c(a, 1), _c(b, 1)), _c(a, 2), _c(b, 3)]


def _xpd(em, inst, a, b):
    return call(f"vec4(cross({swizzle(a, (0, 1, 2)).text}, {swizzle(b, (0, 1, 2)).text}), 1.0)", "float", 4)


def _scs(em, inst, a):
    return [fn("cos", _c(a, 0)), fn("sin", _c(a, 0)), F0, F1]


def _nrm(em, inst, a):
    return call(f"vec4(normalize({swizzle(a, (0, 1, 2)).text}), 1.0)", "float", 4)


def _nrm4(em, inst, a):
    return fn("normalize", a)


def _up2h(em, inst, a):
    em.req.need("packing_half", "UP2H")
    v = call(f"unpackHalf2x16({_c(a, 0).text})", "float", 2)
    return swizzle(v, (0, 1, 0, 1))


def _unpack(kind: str):
    """UP2US / UP4B / UP4UB ("TBD" in tgsi.rst): unpack the 16- or 8-bit fields of src.x
    like GLSL's unpackUnorm2x16 / unpackSnorm4x8 / unpackUnorm4x8 (UP2US repeats xy in zw)."""

    def formula(em, inst, a):
        x = _c(a, 0).text
        if kind == "UP2US":
            body = "vec4(float(u & 0xffffu), float(u >> 16), float(u & 0xffffu), float(u >> 16)) / 65535.0"
        elif kind == "UP4UB":
            body = "vec4(u & 0xffu, (u >> 8) & 0xffu, (u >> 16) & 0xffu, u >> 24) / 255.0"
        else:
            body = "clamp(vec4(ivec4(int(u << 24), int(u << 16), int(u << 8), int(u)) >> 24) / 127.0, -1.0, 1.0)"
        name = f"glp_{kind.lower()}"
        em.helper(name, f"vec4 {name}(uint u)\n{{\n    return {body};\n}}")
        return call(f"{name}({x})", "float", 4)

    return formula


def _pack(kind: str):
    """PK2US / PK4B / PK4UB: GLSL's packUnorm2x16 / packSnorm4x8 / packUnorm4x8 arithmetic."""

    def formula(em, inst, a):
        if kind == "PK2US":
            body = "uvec2 q = uvec2(roundEven(clamp(v.xy, 0.0, 1.0) * 65535.0));\n    return q.x | (q.y << 16);"
            arg = swizzle(a, (0, 1))
            param = "vec2 v"
        elif kind == "PK4UB":
            body = (
                "uvec4 q = uvec4(roundEven(clamp(v, 0.0, 1.0) * 255.0));\n"
                "    return q.x | (q.y << 8) | (q.z << 16) | (q.w << 24);"
            )
            arg, param = a, "vec4 v"
        else:
            body = (
                "uvec4 q = uvec4(ivec4(roundEven(clamp(v, -1.0, 1.0) * 127.0))) & 0xffu;\n"
                "    return q.x | (q.y << 8) | (q.z << 16) | (q.w << 24);"
            )
            arg, param = a, "vec4 v"
        name = f"glp_{kind.lower()}"
        em.helper(name, f"uint {name}({param})\n{{\n    {body}\n}}")
        return call(f"{name}({arg.text})", "uint", 1)

    return formula


def _pk2h(em, inst, a):
    em.req.need("packing_half", "PK2H")
    return call(f"packHalf2x16({a.text})", "uint", 1)


def _dp(n):
    def formula(em, inst, a, b, *rest):
        return dot(em, a, b)

    return formula


def _rcc(em, inst, a):
    # 1/x clamped away from zero to +-[5.42101e-20, 1.884467e19] (ARB_vertex_program RCC).
    r = binop(F1, "/", a)
    return op(f"sign({r.text}) * clamp(abs({r.text}), 5.42101e-20, 1.884467e19)", "float", 1, PREC["*"])


def _f(name):
    return lambda em, inst, *a: fn(name, *a)


def _b(o, t=None):
    return lambda em, inst, a, b: binop(a, o, b, t)


def _fma(em, inst, a, b, c):
    """FMA: a * b + c with a single rounding.  GLSL's fma() need not be fused (llvmpipe
    rounds the product), so with doubles available it is computed exactly: the float
    product is exact in double, the sum is rounded to odd, then once to float."""
    em.req.need("gpu_shader5", "FMA")
    legacy = em.shader.property("LEGACY_MATH_RULES", 0)
    if em.req.has("fp64"):
        em.req.need("fp64", "FMA")
        em.helper("glp_add_odd", exact.ADD_ODD)
        guard = "(a == 0.0 || b == 0.0) ? c : " if legacy else ""
        body = f"{guard}float(glp_add_odd(double(a) * double(b), double(c)))"
        name = per_component_helper(em, "glp_fma", "float", a.n, "a,b,c", body)
        return fn(name, a, b, c)
    if legacy:
        name = per_component_helper(
            em, "glp_fma_legacy", "float", a.n, "a,b,c", "(a == 0.0 || b == 0.0) ? c : fma(a, b, c)"
        )
        return fn(name, a, b, c)
    return fn("fma", a, b, c)


def _lrp(em, inst, a, b, c):
    one = splat(F1, a.n)
    if em.shader.property("LEGACY_MATH_RULES", 0):
        return binop(
            exact.step(em, inst, legacy_mul(em, a, b)),
            "+",
            exact.step(em, inst, legacy_mul(em, binary(one, "-", a), c), 2),
        )
    if exact.inst_is_exact(em, inst):
        # 'precise' mix() is a*b + (1-a)*c with three roundings (Mesa's exact
        # flrp lowering); the opaque products keep the host from fusing them.
        return binop(
            exact.step(em, inst, binop(a, "*", b)), "+", exact.step(em, inst, binop(binary(one, "-", a), "*", c), 2)
        )
    return fn("mix", c, b, a)


def _dot_plus(em, inst, d: Expr, c: Expr) -> Expr:
    """DPH / DP2A: the dot product, then one separately rounded add (the native
    'precise' order; the barrier keeps the host from fusing the last product)."""
    return binop(exact.step(em, inst, d), "+", c)


def _mad(em, inst, a, b, c):
    return binop(legacy_mul(em, a, b), "+", c)


# DDX_FINE / DDY_FINE: the GLSL 4.50 built-in, or the plain one where the host's
# plain derivatives are fine (GLSL lets dFdx be either; glpipe probes which:
# requirements.HOST_FACTS), else an honest refusal.
_PLAIN_OF_FINE = {"dFdxFine": "dFdx", "dFdyFine": "dFdy"}


def _ddx(name):
    def formula(em, inst, a):
        plain = _PLAIN_OF_FINE.get(name)
        if plain is None:
            return fn(name, a)
        if em.req.has("derivative_control"):
            em.req.need("derivative_control", inst.opcode)
            return fn(name, a)
        if em.req.fact("fine_plain_derivatives"):
            return fn(plain, a)
        raise UnsupportedError(
            f"{inst.opcode} needs {em.req.describe('derivative_control')}, or a host whose "
            f"plain {plain} is fine (host fact fine_plain_derivatives, which glpipe "
            f"probes with a draw: not reported for this host)"
        )

    return formula


def _int_op(em, inst, *args):
    """The GLSL 4.00 integer opcodes: built-in or GLSL 3.30 helper (int_emul.INT_OPS)."""
    return int_op(em, inst.opcode, args)


def _scalar_condition(a: Expr) -> Expr:
    """When every channel of a selector reads the same component (``t0.xxxx``),
    the scalar (so the select prints as ``c ? a : b``)."""
    if a.n > 1 and a.swz_of is not None and len(set(a.swz)) == 1:
        return swizzle(a.swz_of, (a.swz[0],))
    if a.n > 1 and a.words is not None and len(set(a.words)) == 1:
        return literal(a.type, a.words[:1])
    return a


def _ucmp(em, inst, a, b, c):
    a = _scalar_condition(a)
    cond = compare(a, "!=", zero(a.type, a.n))
    return ternary(cond, b, c) if a.n == 1 else select(em, cond, b, c)


def _cmp(em, inst, a, b, c):
    a = _scalar_condition(a)
    cond = compare(a, "<", zero("float", a.n))
    return ternary(cond, b, c) if a.n == 1 else select(em, cond, b, c)


def _cnd(em, inst, a, b, c):
    return select(em, compare(c, ">", splat(float_literal(0.5), c.n)), a, b)


def _ssg(em, inst, a):
    return fn("sign", a)


def _vote(func: str):
    def formula(em, inst, a):
        em.req.need("group_vote", inst.opcode)
        suffix = "" if em.req.core("group_vote") else "ARB"
        if func == "allInvocationsEqual" and em.req.fact(SUBGROUP_READS_CRASH):
            # Host quirk: no readFirstInvocationARB; every bit must be equal instead.
            test = f"{_vote_eq_bits(em, suffix)}({a.p()})"
        elif func == "allInvocationsEqual":
            # GLSL only compares booleans; TGSI compares the value: every invocation
            # equals the first active one (readFirstInvocationARB, GL_ARB_shader_ballot).
            em.req.need("ballot", "VOTE_EQ")
            test = f"allInvocations{suffix}(readFirstInvocationARB({a.text}) == {a.p()})"
        else:
            test = f"{func}{suffix}({compare(a, '!=', zero(a.type, 1)).text})"
        return ternary(var(test, "bool", 1), literal("uint", (0xFFFFFFFF,)), literal("uint", (0,)))

    return formula


#: Host fact (lowering/glsl/requirements.py HOST_FACTS; glpipe/host/quirks.py has the
#: row): readFirstInvocationARB / readInvocationARB abort the host's shader compiler,
#: so the subgroup reads are assembled bit by bit from ballotARB, which compiles.
SUBGROUP_READS_CRASH = "subgroup_reads_crash"


def _vote_eq_bits(em, suffix: str) -> str:
    """A helper: the word is equal in every invocation iff each of its 32 bits is
    (allInvocationsEqual on booleans).  The vote runs outside ``&&`` so that
    every invocation reaches it (a vote in divergent control flow is undefined)."""
    body = (
        "    bool eq = true;\n    for (int b = 0; b < 32; ++b)\n    {\n"
        f"        bool same = allInvocationsEqual{suffix}(((v >> uint(b)) & 1u) != 0u);\n"
        "        eq = eq && same;\n    }\n    return eq;\n"
    )
    return em.helper("glp_vote_eq_bits", f"bool glp_vote_eq_bits(uint v)\n{{\n{body}}}")


def _read_bits(em, what: str) -> str:
    """A helper returning word ``v`` of invocation ``lane``: bit b is bit ``lane`` of
    ballotARB(bit b of v) (0 for a lane past the 64-bit mask or inactive, which
    GL_ARB_shader_ballot leaves undefined)."""
    em.req.need("ballot", what)
    em.req.need("int64", what)
    body = (
        "    uint r = 0u;\n    for (int b = 0; b < 32; ++b)\n    {\n"
        "        uvec2 m = unpackUint2x32(ballotARB(((v >> uint(b)) & 1u) != 0u));\n"
        "        uint w = lane < 32u ? m.x >> lane : (lane < 64u ? m.y >> (lane - 32u) : 0u);\n"
        "        r |= (w & 1u) << uint(b);\n    }\n    return r;\n"
    )
    return em.helper("glp_read_lane_bits", f"uint glp_read_lane_bits(uint v, uint lane)\n{{\n{body}}}")


def _first_lane(em) -> str:
    """A helper returning the lowest active invocation (findLSB of ballotARB(true))."""
    body = "    uvec2 m = unpackUint2x32(ballotARB(true));\n    return uint(m.x != 0u ? findLSB(m.x) : 32 + findLSB(m.y));\n"
    return em.helper("glp_first_lane", f"uint glp_first_lane()\n{{\n{body}}}")


def _read_lane(em, what: str, a: Expr, lane: Expr | None) -> Expr:
    """``a`` (any 32-bit type, 1-4 components) of invocation ``lane`` (None: the
    first active one), each component through ``_read_bits``."""
    read = _read_bits(em, what)
    lane_text = f"{_first_lane(em)}()" if lane is None else lane.text
    parts = [
        bitcast(call(f"{read}({bitcast(component(a, k), 'uint').text}, {lane_text})", "uint", 1), a.type)
        for k in range(a.n)
    ]
    return construct(parts, a.type)


def _read_first(em, inst, a):
    if em.req.fact(SUBGROUP_READS_CRASH):
        return _read_lane(em, "READ_FIRST", a, None)
    em.req.need("ballot", "READ_FIRST")
    return fn("readFirstInvocationARB", a)


def handle_read_invoc(em, i, inst):
    """READ_INVOC: src0 of the invocation src1.x (the same for every channel)."""
    em.req.need("ballot", "READ_INVOC")
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    a = em.src(i, 0, comps, em.untyped_type(i))
    b = em.src(i, 1, (0,), "uint")
    if em.req.fact(SUBGROUP_READS_CRASH):
        em.write(i, 0, comps, _read_lane(em, "READ_INVOC", a, b))
        return
    em.write(i, 0, comps, call(f"readInvocationARB({a.text}, {b.text})", a.type, a.n))


ALU: dict[str, Callable] = {
    # -- float arithmetic --------------------------------------------------------------
    "ADD": handle_comp(_b("+")),
    "SUB": handle_comp(_b("-")),
    "MUL": handle_comp(lambda em, inst, a, b: legacy_mul(em, a, b)),
    "DIV": handle_comp(_b("/")),
    "MAD": handle_comp(_mad),
    "FMA": handle_comp(_fma),
    "LRP": handle_comp(_lrp),
    "MIN": handle_comp(_f("min")),
    "MAX": handle_comp(_f("max")),
    "FRC": handle_comp(_f("fract")),
    "FLR": handle_comp(_f("floor")),
    "CEIL": handle_comp(_f("ceil")),
    "TRUNC": handle_comp(_f("trunc")),
    "ROUND": handle_comp(_f("roundEven")),
    "ABS": handle_comp(_f("abs")),
    "SSG": handle_comp(_ssg),
    "CMP": handle_comp(_cmp),
    "CND": handle_comp(_cnd),
    "CLAMP": handle_comp(_f("clamp")),
    "LDEXP": handle_comp(_int_op),  # ldexp or the GLSL 3.30 helper (int_emul.INT_OPS)
    "DDX": handle_comp(_ddx("dFdx")),
    "DDY": handle_comp(_ddx("dFdy")),
    "DDX_FINE": handle_comp(_ddx("dFdxFine")),
    "DDY_FINE": handle_comp(_ddx("dFdyFine")),
    "SLT": handle_comp(lambda em, inst, a, b: set_on(a, "<", b, "float")),
    "SGE": handle_comp(lambda em, inst, a, b: set_on(a, ">=", b, "float")),
    "SEQ": handle_comp(lambda em, inst, a, b: set_on(a, "==", b, "float")),
    "SNE": handle_comp(lambda em, inst, a, b: set_on(a, "!=", b, "float")),
    "SGT": handle_comp(lambda em, inst, a, b: set_on(a, ">", b, "float")),
    "SLE": handle_comp(lambda em, inst, a, b: set_on(a, "<=", b, "float")),
    "SFL": handle_comp(lambda em, inst, a, b: zero("float", a.n)),
    "STR": handle_comp(lambda em, inst, a, b: splat(F1, a.n)),
    # -- scalar (replicating) ----------------------------------------------------------------
    "RCP": handle_repl(lambda em, inst, a: binop(F1, "/", a)),
    "RSQ": handle_repl(_f("inversesqrt")),
    "SQRT": handle_repl(_f("sqrt")),
    "EX2": handle_repl(_f("exp2")),
    "LG2": handle_repl(_f("log2")),
    "POW": handle_repl(_f("pow")),
    "COS": handle_repl(_f("cos")),
    "SIN": handle_repl(_f("sin")),
    "DP2": handle_repl(_dp(2)),
    "DP3": handle_repl(_dp(3)),
    "DP4": handle_repl(_dp(4)),
    "DPH": handle_repl(lambda em, inst, a, b: _dot_plus(em, inst, dot(em, a, swizzle(b, (0, 1, 2))), _c(b, 3))),
    "DP2A": handle_repl(lambda em, inst, a, b, c: _dot_plus(em, inst, dot(em, a, b), c)),
    "RCC": handle_repl(_rcc),
    "PK2H": handle_repl(_pk2h),
    "PK2US": handle_repl(_pack("PK2US")),
    "PK4B": handle_repl(_pack("PK4B")),
    "PK4UB": handle_repl(_pack("PK4UB")),
    # -- per channel -----------------------------------------------------------------------
    "LIT": handle_chan(_lit),
    "EXP": handle_chan(_exp),
    "LOG": handle_chan(_log),
    "DST": handle_chan(_dst),
    "XPD": handle_chan(_xpd),
    "SCS": handle_chan(_scs),
    "NRM": handle_chan(_nrm),
    "NRM4": handle_chan(_nrm4),
    "UP2H": handle_chan(_up2h),
    "UP2US": handle_chan(_unpack("UP2US")),
    "UP4B": handle_chan(_unpack("UP4B")),
    "UP4UB": handle_chan(_unpack("UP4UB")),
    # -- moves and selects -------------------------------------------------------------------
    "MOV": handle_comp(lambda em, inst, a: a),
    "UCMP": handle_comp(_ucmp),
    "ARL": handle_comp(lambda em, inst, a: conv(fn("floor", a), "int")),
    "ARR": handle_comp(lambda em, inst, a: conv(fn("roundEven", a), "int")),
    "UARL": handle_comp(lambda em, inst, a: a),
    # -- integer -------------------------------------------------------------------------------
    "I2F": handle_comp(lambda em, inst, a: conv(a, "float")),
    "U2F": handle_comp(lambda em, inst, a: conv(a, "float")),
    "F2I": handle_comp(lambda em, inst, a: conv(a, "int")),
    "F2U": handle_comp(lambda em, inst, a: conv(a, "uint")),
    "UADD": handle_comp(_b("+")),
    "UMUL": handle_comp(_b("*")),
    "UMAD": handle_comp(lambda em, inst, a, b, c: binop(binop(a, "*", b), "+", c)),
    "UDIV": handle_comp(lambda em, inst, a, b: udiv(em, a, b)),
    "UMOD": handle_comp(lambda em, inst, a, b: umod(em, a, b)),
    "IDIV": handle_comp(lambda em, inst, a, b: idiv(em, a, b)),
    "MOD": handle_comp(lambda em, inst, a, b: imod(em, a, b)),
    "IMUL_HI": handle_comp(_int_op),
    "UMUL_HI": handle_comp(_int_op),
    "NOT": handle_comp(lambda em, inst, a: op(f"~{a.at(PREC['unary'])}", a.type, a.n, PREC["unary"])),
    "AND": handle_comp(_b("&")),
    "OR": handle_comp(_b("|")),
    "XOR": handle_comp(_b("^")),
    "IMAX": handle_comp(_f("max")),
    "IMIN": handle_comp(_f("min")),
    "UMAX": handle_comp(_f("max")),
    "UMIN": handle_comp(_f("min")),
    "SHL": handle_comp(lambda em, inst, a, b: binop(a, "<<", shift_count(b))),
    "ISHR": handle_comp(lambda em, inst, a, b: binop(a, ">>", shift_count(b))),
    "USHR": handle_comp(lambda em, inst, a, b: binop(a, ">>", shift_count(b))),
    "INEG": handle_comp(lambda em, inst, a: negate(a)),
    "IABS": handle_comp(_f("abs")),
    "ISSG": handle_comp(_ssg),
    "FSLT": handle_comp(lambda em, inst, a, b: set_on(a, "<", b, "uint")),
    "FSGE": handle_comp(lambda em, inst, a, b: set_on(a, ">=", b, "uint")),
    "FSEQ": handle_comp(lambda em, inst, a, b: set_on(a, "==", b, "uint")),
    "FSNE": handle_comp(lambda em, inst, a, b: set_on(a, "!=", b, "uint")),
    "ISLT": handle_comp(lambda em, inst, a, b: set_on(a, "<", b, "uint")),
    "ISGE": handle_comp(lambda em, inst, a, b: set_on(a, ">=", b, "uint")),
    "USLT": handle_comp(lambda em, inst, a, b: set_on(a, "<", b, "uint")),
    "USGE": handle_comp(lambda em, inst, a, b: set_on(a, ">=", b, "uint")),
    "USEQ": handle_comp(lambda em, inst, a, b: set_on(a, "==", b, "uint")),
    "USNE": handle_comp(lambda em, inst, a, b: set_on(a, "!=", b, "uint")),
    # -- bit fields: GLSL 400 built-ins, or GLSL 330 helpers (int_emul.py) --------------------
    "IBFE": handle_comp(_int_op),
    "UBFE": handle_comp(_int_op),
    "BFI": handle_comp(_int_op),
    "BREV": handle_comp(_int_op),
    "POPC": handle_comp(_int_op),
    "LSB": handle_comp(_int_op),
    "IMSB": handle_comp(_int_op),
    "UMSB": handle_comp(_int_op),
    # -- subgroup ---------------------------------------------------------------------------------
    "VOTE_ANY": handle_repl(_vote("anyInvocation")),
    "VOTE_ALL": handle_repl(_vote("allInvocations")),
    "VOTE_EQ": handle_repl(_vote("allInvocationsEqual")),
    "READ_FIRST": handle_comp(_read_first),
}


def handle_ballot(em, i, inst):
    """BALLOT: dst.xy = the 64-bit mask of invocations whose src.x != 0."""
    em.req.need("ballot", "BALLOT")
    em.req.need("int64", "BALLOT")
    a = em.src(i, 0, (0,), "uint")
    words = call(f"unpackUint2x32(ballotARB({a.p()} != 0u))", "uint", 2)
    comps = tuple(c for c in (0, 1) if inst.dsts[0].writemask & (1 << c))
    em.write(i, 0, comps, swizzle(words, comps))


def handle_clock(em, i, inst):
    """CLOCK: dst.xy = clock2x32ARB()."""
    em.req.need("shader_clock", "CLOCK")
    comps = tuple(c for c in (0, 1) if inst.dsts[0].writemask & (1 << c))
    em.write(i, 0, comps, swizzle(call("clock2x32ARB()", "uint", 2), comps))


def handle_read_helper(em, i, inst):
    """READ_HELPER: ~0 when this invocation is (now) a helper invocation."""
    if em.req.has("demote"):
        em.req.need("demote", "READ_HELPER")
        test = "helperInvocationEXT()"
    else:
        em.req.need("helper_invocation", "READ_HELPER")
        test = "gl_HelperInvocation"
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    em.write(i, 0, comps, ternary(var(test, "bool", 1), literal("uint", (0xFFFFFFFF,)), literal("uint", (0,))))


ALU.update(
    {"READ_INVOC": handle_read_invoc, "BALLOT": handle_ballot, "CLOCK": handle_clock, "READ_HELPER": handle_read_helper}
)

__all__ = [
    "ALU",
    "binop",
    "fn",
    "conv",
    "compare",
    "select",
    "zero",
    "per_component_helper",
    "udiv",
    "umod",
    "idiv",
    "imod",
    "legacy_mul",
    "handle_comp",
    "handle_repl",
    "handle_chan",
]
