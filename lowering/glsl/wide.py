"""Double-precision and 64-bit-integer opcodes.

TGSI keeps a 64-bit value in two 32-bit words of a register: lane 0 is
``.xy``, lane 1 ``.zw`` (low word first).  Registers stay 32-bit typed in
GLSL; a 64-bit operand is assembled with ``packDouble2x32`` /
``packUint2x32`` / ``packInt2x32`` and a 64-bit result split back with the
``unpack`` functions, lane by lane.  Opcodes with a 32-bit side follow
tgsi.rst's lane layout: the conversions F2D, I2D, U2D, F2I64, ... read
``src.x`` for lane 0 and ``src.y`` for lane 1; D2F, D2I, U642F, ... write
``.x`` and ``.y``; the compares write a 32-bit ~0 / 0 to ``.x`` (lane 0) and
``.z`` (lane 1); 64-bit shifts take the count from ``src1.x`` / ``src1.y``;
DLDEXP from ``src1.x`` / ``src1.z``.

``double`` needs GLSL 400 or GL_ARB_gpu_shader_fp64; ``int64_t`` needs
GL_ARB_gpu_shader_int64 (no core version has it).  Without it, the int64 /
uint64 opcodes run through soft_int64.py's GLSL 3.30 helpers on ``uvec2``.
"""

from __future__ import annotations

from typing import Callable, Dict

from .exact import ADD_ODD
from .exprs import Expr, binary, bool_to, call, negate, op, shift_count, swizzle
from .signatures import WIDE_TYPES, lane_dst_components, lane_src_positions, lanes
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
    return lambda em, a: call(f"{ {'double': 'double', 'float': 'float', 'int': 'int', 'uint': 'uint', 'int64': 'int64_t', 'uint64': 'uint64_t'}[t]}({a.text})", t, 1)


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
    llvmpipe returns 2^(e-1) for ldexp(0.0lf, e))."""
    em.req.need("gpu_shader5", "DLDEXP")
    em.helper("glp_dldexp", "double glp_dldexp(double a, int e)\n{\n"
                            "    return (a == 0.0lf || isinf(a) || isnan(a)) ? a : ldexp(a, e);\n}")
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


WIDE_FORMULAS: Dict[str, Callable] = {
    "DADD": _b("+"), "DMUL": _b("*"), "DDIV": _b("/"),
    "DMAD": lambda em, a, b, c: binary(binary(a, "*", b), "+", c),
    "DFMA": _dfma, "DMIN": _f("min"), "DMAX": _f("max"), "DABS": _f("abs"),
    "DNEG": lambda em, a: negate(a),
    "DRCP": _drcp, "DSQRT": _f("sqrt"), "DRSQ": _f("inversesqrt"), "DFRAC": _f("fract"),
    "DTRUNC": _f("trunc"), "DCEIL": _f("ceil"), "DFLR": _f("floor"), "DROUND": _f("roundEven"),
    "DSSG": _f("sign"), "DLDEXP": _dldexp,
    "DSEQ": _cmp("=="), "DSNE": _cmp("!="), "DSLT": _cmp("<"), "DSGE": _cmp(">="),
    "F2D": _conv("double"), "I2D": _conv("double"), "U2D": _conv("double"),
    "D2F": _conv("float"), "D2I": _conv("int"), "D2U": _conv("uint"),
    "U64ADD": _b("+"), "U64MUL": _b("*"), "U64DIV": _div("glp_u64div"), "U64MOD": _div("glp_u64mod"),
    "I64DIV": _div("glp_i64div"), "I64MOD": _div("glp_i64mod"),
    "U64MIN": _f("min"), "U64MAX": _f("max"), "I64MIN": _f("min"), "I64MAX": _f("max"),
    "I64ABS": _f("abs"), "I64NEG": lambda em, a: negate(a), "I64SSG": _f("sign"),
    "U64SHL": _shift("<<"), "U64SHR": _shift(">>"), "I64SHR": _shift(">>"),
    "U64SEQ": _cmp("=="), "U64SNE": _cmp("!="), "U64SLT": _cmp("<"), "U64SGE": _cmp(">="),
    "I64SLT": _cmp("<"), "I64SGE": _cmp(">="),
    "F2U64": _conv("uint64"), "F2I64": _conv("int64"), "U2I64": _conv("int64"), "I2I64": _conv("int64"),
    "D2U64": _conv("uint64"), "D2I64": _conv("int64"), "U642F": _conv("float"), "I642F": _conv("float"),
    "U642D": _conv("double"), "I642D": _conv("double"),
}


# ---------------------------------------------------------------------------
# 64-bit integers without int64_t (issue 18 item 2).  One row per opcode: the
# native formula is its WIDE_FORMULAS row, the emulated one its soft_int64.SOFT_INT64
# row (a GLSL 3.30 helper on uvec2(lo, hi)); the features table picks.
# ---------------------------------------------------------------------------

def _soft_int64(em, inst) -> bool:
    """True when ``inst`` runs through soft_int64's helpers: the host lacks
    GL_ARB_gpu_shader_int64 and the opcode has no double side."""
    return inst.opcode in SOFT_INT64 and not em.req.has("int64")


def _require(em, inst, types) -> None:
    used = set(types)
    if "double" in used:
        em.req.need("fp64", inst.opcode)
    if used & {"int64", "uint64"}:
        em.req.need("int64", inst.opcode)


def handle_wide(em, i, inst) -> None:
    """Any opcode of WIDE_FORMULAS, lane by lane."""
    if _soft_int64(em, inst):
        return handle_soft_int64(em, i, inst)
    dst_types, src_types = em.types(i)
    _require(em, inst, [t for t in list(dst_types) + list(src_types) if t])
    formula = WIDE_FORMULAS[inst.opcode]
    for lane in lanes(inst):
        srcs = []
        for s, t in enumerate(src_types):
            if t in WIDE_TYPES:
                srcs.append(em.src_wide(i, s, lane, t))
            else:
                pos = lane_src_positions(inst, s, lane, t)
                srcs.append(em.src(i, s, pos, t))
        value = formula(em, *srcs)
        comps = lane_dst_components(inst, lane)
        if not comps:
            continue
        if value.type in WIDE_TYPES:
            words = em.wide_to_words(value)
            base = 0 if lane == 0 else 2
            em.write(i, 0, comps, swizzle(words, [c - base for c in comps]))
        else:
            em.write(i, 0, comps, value)


def handle_dfracexp(em, i, inst) -> None:
    """DFRACEXP (removed): dst0 = mantissa (double lanes), dst1 = exponent (int; lane k goes to
    the k-th written component, as tgsi_exec stores it)."""
    em.req.need("fp64", "DFRACEXP")
    em.req.need("gpu_shader5", "DFRACEXP")
    exp_written = [c for c in range(4) if inst.dsts[1].writemask & (1 << c)]
    for lane in (0, 1):
        m_comps = tuple(c for c in ((0, 1) if lane == 0 else (2, 3)) if inst.dsts[0].writemask & (1 << c))
        e_comps = (exp_written[lane],) if lane < len(exp_written) else ()
        if not m_comps and not e_comps:
            continue
        a = em.src_wide(i, 0, lane, "double")
        exp_name = em.tmp("exp")
        mant_name = em.tmp("mant")
        em.line(f"int {exp_name};")
        em.line(f"double {mant_name} = frexp({a.text}, {exp_name});")
        if m_comps:
            words = em.wide_to_words(Expr(mant_name, "double", 1))
            base = 0 if lane == 0 else 2
            em.write(i, 0, m_comps, swizzle(words, [c - base for c in m_comps]))
        if e_comps:
            em.write(i, 1, e_comps, Expr(exp_name, "int", 1))


WIDE = {name: handle_wide for name in WIDE_FORMULAS}
WIDE["DFRACEXP"] = handle_dfracexp

__all__ = ["WIDE", "WIDE_FORMULAS"]
