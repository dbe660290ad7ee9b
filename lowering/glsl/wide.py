"""Double-precision and 64-bit-integer opcodes, lane by lane on 32-bit registers.

docs/lowering.md "64-bit lanes" gives the lane layout, the features each needs and
the GLSL 3.30 (soft) paths.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .exact import ADD_ODD
from .exprs import Expr, binary, bitcast, bool_to, call, literal, negate, op, shift_count, swizzle, var
from .signatures import WIDE_TYPES, lane_dst_components, lane_src_positions, lanes
from .soft_fp64 import register as register_soft
from .soft_fp64 import soft_call
from .soft_int64 import SOFT_INT64, handle_soft_int64


def _b(o):
    return lambda em, a, b: binary(a, o, b)


def _f(name, t=None):
    return lambda em, *a: call(f"{name}({', '.join(x.text for x in a)})", t or a[0].type, 1)


def _cmp(o):
    return lambda em, a, b: bool_to(binary(a, o, b, "bool", 1), "uint")


def _shift(o):
    return lambda em, a, b: binary(a, o, shift_count(b, 63))


def _conv(t):
    return lambda em, a: call(
        f"{ {'double': 'double', 'float': 'float', 'int': 'int', 'uint': 'uint', 'int64': 'int64_t', 'uint64': 'uint64_t'}[t] }({a.text})",
        t,
        1,
    )


_DIV64 = {
    # name: (type, body); x / 0 gives ~0 (like UDIV) instead of trapping, INT64_MIN / -1
    # wraps, and the signed remainder is C's truncated one (GLSL's % is undefined for
    # negative operands).
    "glp_u64div": ("uint64_t", "return b == 0ul ? 0xfffffffffffffffful : a / b;"),
    "glp_u64mod": ("uint64_t", "return b == 0ul ? 0xfffffffffffffffful : a % b;"),
    "glp_i64div": ("int64_t", "return b == 0l ? -1l : (b == -1l ? -a : a / b);"),
    "glp_i64mod": ("int64_t", "return b == 0l ? -1l : (b == -1l ? 0l : a - b * (a / b));"),
}


def _div(name: str):
    def formula(em, a, b):
        t, body = _DIV64[name]
        em.helper(name, f"{t} {name}({t} a, {t} b)\n{{\n    {body}\n}}")
        return call(f"{name}({a.text}, {b.text})", a.type, 1)

    return formula


def _dldexp(em, a, b):
    """DLDEXP: ldexp, except that 0, inf and NaN come back unchanged (Mesa 22.3's
    llvmpipe returns 2^(e-1) for ldexp(0.0lf, e)).  Needs gpu_shader5 too (the row's extra)."""
    em.helper(
        "glp_dldexp",
        "double glp_dldexp(double a, int e)\n{\n    return (a == 0.0lf || isinf(a) || isnan(a)) ? a : ldexp(a, e);\n}",
    )
    return call(f"glp_dldexp({a.text}, {b.text})", "double", 1)


# An exactly fused double FMA (Boldo & Melquiond, "Emulation of FMA and correctly
# rounded sums: proved algorithms using rounding to odd", 2008): GLSL's fma() need not
# be fused and llvmpipe does round between the multiply and the add.  'precise' keeps
# the compiler from simplifying the error-free transformations; glp_add_odd is
# exact.ADD_ODD.
DFMA = """double glp_dfma(double a, double b, double c)
{
    if (isinf(a) || isinf(b) || isinf(c) || isnan(a) || isnan(b) || isnan(c) || a == 0.0lf || b == 0.0lf)
        return a * b + c;
    // Dekker's exact product: ph + pl == a * b.
    precise double ph = a * b;
    precise double ka = a * 134217729.0lf;
    precise double ah = ka - (ka - a);
    precise double al = a - ah;
    precise double kb = b * 134217729.0lf;
    precise double bh = kb - (kb - b);
    precise double bl = b - bh;
    precise double pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl;
    // Exact sum: th + tl == c + ph.
    precise double th = c + ph;
    precise double bb = th - c;
    precise double tl = (c - (th - bb)) + (ph - bb);
    return th + glp_add_odd(tl, pl);
}"""


def _dfma(em, a, b, c):
    em.helper("glp_add_odd", ADD_ODD)
    em.helper("glp_dfma", DFMA)
    return call(f"glp_dfma({a.text}, {b.text}, {c.text})", "double", 1)


def _drcp(em, a):
    return op(f"1.0lf / {a.p()}", "double", 1)


@dataclass(frozen=True)
class WideOp:
    """One opcode: ``native`` builds it over ``double`` / ``int64_t`` scalars (GLSL 4.00,
    GL_ARB_gpu_shader_int64); ``soft`` over ``uvec2`` words in GLSL 3.30 (soft_fp64),
    None where no emulation exists (the opcode then needs the native types)."""

    native: Callable
    soft: Callable | None = None
    extra: tuple[str, ...] = ()  # features the native form needs beyond its 64-bit types


def _s(name: str) -> Callable:
    """The soft_fp64 helper ``name`` applied to the lane's operands."""
    return lambda em, *a: soft_call(em, name, a)


def _s_cmp(name: str) -> Callable:
    return lambda em, a, b: bool_to(soft_call(em, name, (a, b)), "uint")


def _s_f2d(em, a):
    return soft_call(em, "glp_f2d", (bitcast(a, "uint"),))


def _s_d2f(em, a):
    return bitcast(soft_call(em, "glp_d2f", (a,)), "float")


def _s_drcp(em, a):
    """DRCP on words: 1.0 / a, correctly rounded (0x3ff00000_00000000 is 1.0)."""
    return soft_call(em, "glp_ddiv", (literal("uint", (0, 0x3FF00000)), a))


# One row per opcode: (native formula, GLSL 3.30 emulation).  DDIV, DRCP, DSQRT,
# DRSQ and DFMA take their soft form from soft_fp64_divsqrt (through soft_fp64).
WIDE_OPS: dict[str, WideOp] = {
    "DADD": WideOp(_b("+"), _s("glp_dadd")),
    "DMUL": WideOp(_b("*"), _s("glp_dmul")),
    "DDIV": WideOp(_b("/"), _s("glp_ddiv")),
    "DMAD": WideOp(lambda em, a, b, c: binary(binary(a, "*", b), "+", c), _s("glp_dmad")),
    "DFMA": WideOp(_dfma, _s("glp_dfma")),
    "DMIN": WideOp(_f("min"), _s("glp_dmin")),
    "DMAX": WideOp(_f("max"), _s("glp_dmax")),
    "DABS": WideOp(_f("abs"), _s("glp_dabs")),
    "DNEG": WideOp(lambda em, a: negate(a), _s("glp_dneg")),
    "DRCP": WideOp(_drcp, _s_drcp),
    "DSQRT": WideOp(_f("sqrt"), _s("glp_dsqrt")),
    "DRSQ": WideOp(_f("inversesqrt"), _s("glp_drsq")),
    "DFRAC": WideOp(_f("fract"), _s("glp_dfrac")),
    "DTRUNC": WideOp(_f("trunc"), _s("glp_dtrunc")),
    "DCEIL": WideOp(_f("ceil"), _s("glp_dceil")),
    "DFLR": WideOp(_f("floor"), _s("glp_dflr")),
    "DROUND": WideOp(_f("roundEven"), _s("glp_dround")),
    "DSSG": WideOp(_f("sign"), _s("glp_dssg")),
    "DLDEXP": WideOp(_dldexp, _s("glp_dldexp"), ("gpu_shader5",)),
    "DSEQ": WideOp(_cmp("=="), _s_cmp("glp_deq")),
    "DSNE": WideOp(_cmp("!="), _s_cmp("glp_dne")),
    "DSLT": WideOp(_cmp("<"), _s_cmp("glp_dlt")),
    "DSGE": WideOp(_cmp(">="), _s_cmp("glp_dge")),
    "F2D": WideOp(_conv("double"), _s_f2d),
    "I2D": WideOp(_conv("double"), _s("glp_i2d")),
    "U2D": WideOp(_conv("double"), _s("glp_u2d")),
    "D2F": WideOp(_conv("float"), _s_d2f),
    "D2I": WideOp(_conv("int"), _s("glp_d2i")),
    "D2U": WideOp(_conv("uint"), _s("glp_d2u")),
    "D2U64": WideOp(_conv("uint64"), _s("glp_d2u64")),
    "D2I64": WideOp(_conv("int64"), _s("glp_d2i64")),
    "U642D": WideOp(_conv("double"), _s("glp_u642d")),
    "I642D": WideOp(_conv("double"), _s("glp_i642d")),
    "U64ADD": WideOp(_b("+")),
    "U64MUL": WideOp(_b("*")),
    "U64DIV": WideOp(_div("glp_u64div")),
    "U64MOD": WideOp(_div("glp_u64mod")),
    "I64DIV": WideOp(_div("glp_i64div")),
    "I64MOD": WideOp(_div("glp_i64mod")),
    "U64MIN": WideOp(_f("min")),
    "U64MAX": WideOp(_f("max")),
    "I64MIN": WideOp(_f("min")),
    "I64MAX": WideOp(_f("max")),
    "I64ABS": WideOp(_f("abs")),
    "I64NEG": WideOp(lambda em, a: negate(a)),
    "I64SSG": WideOp(_f("sign")),
    "U64SHL": WideOp(_shift("<<")),
    "U64SHR": WideOp(_shift(">>")),
    "I64SHR": WideOp(_shift(">>")),
    "U64SEQ": WideOp(_cmp("==")),
    "U64SNE": WideOp(_cmp("!=")),
    "U64SLT": WideOp(_cmp("<")),
    "U64SGE": WideOp(_cmp(">=")),
    "I64SLT": WideOp(_cmp("<")),
    "I64SGE": WideOp(_cmp(">=")),
    "F2U64": WideOp(_conv("uint64")),
    "F2I64": WideOp(_conv("int64")),
    "U2I64": WideOp(_conv("int64")),
    "I2I64": WideOp(_conv("int64")),
    "U642F": WideOp(_conv("float")),
    "I642F": WideOp(_conv("float")),
}

# The native formulas alone (what the opcode is with real 64-bit types).
WIDE_FORMULAS: dict[str, Callable] = {name: row.native for name, row in WIDE_OPS.items()}


def soft_fp64_complete() -> bool:
    """True when every double opcode (tgsi.rst's double ISA) has a soft form: only then
    may a host without GLSL 4.00 doubles claim PIPE_CAP_DOUBLES (glpipe/caps.py)."""
    from ..opcodes import OPCODES

    return all(row.soft is not None for name, row in WIDE_OPS.items() if OPCODES[name].group == "double")


# ---------------------------------------------------------------------------
# 64-bit integers without int64_t (issue 18 item 2).  The native formula is the
# opcode's WIDE_OPS row, the emulated one its soft_int64.SOFT_INT64 row (a GLSL
# 3.30 helper on uvec2(lo, hi)); the features table picks.
# ---------------------------------------------------------------------------


def _soft_int64(em, inst) -> bool:
    """True when ``inst`` runs through soft_int64's helpers: the host lacks
    GL_ARB_gpu_shader_int64 and the opcode has no double side."""
    return inst.opcode in SOFT_INT64 and not em.req.has("int64")


def native_features(types: Iterable[str], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The features-table rows the native form of an opcode with operand ``types`` needs."""
    used = set(types)
    need = (["fp64"] if "double" in used else []) + (["int64"] if used & {"int64", "uint64"} else [])
    return tuple(need) + tuple(extra)


def use_soft(em, features: Iterable[str], has_soft: bool = True) -> bool:
    """True when the soft form runs: there is one and the host lacks a feature the native
    form needs (GLSL 4.00 doubles, ARB_gpu_shader_int64, gpu_shader5's frexp / ldexp)."""
    return has_soft and not all(em.req.has(f) for f in features)


def src_words(em, i: int, s: int, lane: int, t: str) -> Expr:
    """Lane ``lane`` of source ``s`` as its two words (``uvec2``, low word first), the
    TGSI modifiers applied to the 64-bit value of type ``t``: a double's sign bit, or an
    int64's two's complement."""
    reg = em.insts[i].srcs[s]
    positions = (0, 1) if lane == 0 else (2, 3)
    value = em.read_register(i, "s", s, reg, tuple(reg.swizzle[p] for p in positions), "uint")
    double = t == "double"
    if reg.absolute:
        value = soft_call(em, "glp_dabs" if double else "glp_sd_iabs", (value,))
    if reg.negate:
        value = soft_call(em, "glp_dneg" if double else "glp_sd_ineg", (value,))
    return value


def handle_wide(em, i, inst) -> None:
    """Any opcode of WIDE_OPS, lane by lane: native 64-bit types where the host has
    them, else the soft forms on words -- soft_int64 for the int64 opcodes,
    soft_fp64 for the double ones -- (or UnsupportedError naming the opcode)."""
    if _soft_int64(em, inst):
        return handle_soft_int64(em, i, inst)
    dst_types, src_types = em.types(i)
    row = WIDE_OPS[inst.opcode]
    features = native_features([t for t in list(dst_types) + list(src_types) if t], row.extra)
    soft = use_soft(em, features, row.soft is not None)
    if not soft:
        for feature in features:
            em.req.need(feature, inst.opcode)  # UnsupportedError naming what is missing
    formula = row.soft if soft else row.native
    for lane in lanes(inst):
        srcs = []
        for s, t in enumerate(src_types):
            if t in WIDE_TYPES:
                srcs.append(src_words(em, i, s, lane, t) if soft else em.src_wide(i, s, lane, t))
            else:
                pos = lane_src_positions(inst, s, lane, t)
                srcs.append(em.src(i, s, pos, t))
        value = formula(em, *srcs)
        comps = lane_dst_components(inst, lane)
        if not comps:
            continue
        if dst_types[0] in WIDE_TYPES:
            words = value if soft else em.wide_to_words(value)
            base = 0 if lane == 0 else 2
            em.write(i, 0, comps, swizzle(words, [c - base for c in comps]))
        else:
            em.write(i, 0, comps, value)


def handle_dfracexp(em, i, inst) -> None:
    """DFRACEXP (removed): dst0 = mantissa (double lanes), dst1 = exponent (int; lane k goes to
    the k-th written component, as tgsi_exec stores it)."""
    features = ("fp64", "gpu_shader5")  # double + frexp
    soft = use_soft(em, features)
    if not soft:
        for feature in features:
            em.req.need(feature, "DFRACEXP")
    exp_written = [c for c in range(4) if inst.dsts[1].writemask & (1 << c)]
    for lane in (0, 1):
        m_comps = tuple(c for c in ((0, 1) if lane == 0 else (2, 3)) if inst.dsts[0].writemask & (1 << c))
        e_comps = (exp_written[lane],) if lane < len(exp_written) else ()
        if not m_comps and not e_comps:
            continue
        exp_name = em.tmp("exp")
        mant_name = em.tmp("mant")
        em.line(f"int {exp_name};")
        if soft:
            register_soft(em, "glp_dfrexp")
            a = src_words(em, i, 0, lane, "double")
            em.line(f"uvec2 {mant_name} = glp_dfrexp({a.text}, {exp_name});")
        else:
            a = em.src_wide(i, 0, lane, "double")
            em.line(f"double {mant_name} = frexp({a.text}, {exp_name});")
        if m_comps:
            words = var(mant_name, "uint", 2) if soft else em.wide_to_words(Expr(mant_name, "double", 1))
            base = 0 if lane == 0 else 2
            em.write(i, 0, m_comps, swizzle(words, [c - base for c in m_comps]))
        if e_comps:
            em.write(i, 1, e_comps, Expr(exp_name, "int", 1))


WIDE = dict.fromkeys(WIDE_OPS, handle_wide)
WIDE["DFRACEXP"] = handle_dfracexp

__all__ = [
    "WIDE",
    "WIDE_OPS",
    "WIDE_FORMULAS",
    "WideOp",
    "native_features",
    "use_soft",
    "soft_fp64_complete",
    "src_words",
]
