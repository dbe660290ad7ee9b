"""What each operand of an instruction *means*: its value type and the channels it reads.

The opcode table (``lowering.opcodes``) gives Mesa's inferred operand types;
this module refines them where the GLSL emitter needs more: resource
operands are not values (None), texture results take the sampler view's
return type, memory results the resource's, MOV/UCMP/READ_* move bits of
whatever type their destination has ("untyped").  Type inference
(``types.py``) and the instruction emitters use these same answers, so a
register's chosen GLSL type and the code reading it always agree.

``src_positions`` says which swizzle positions (0..3 = the letters of the
4-letter source swizzle) an operand actually reads; ``lanes`` describes the
two 64-bit lanes of double / int64 opcodes.
"""

from __future__ import annotations

from ..ir import Instruction, writemask_components
from ..opcodes import OPCODES
from .decls import Decls

UNTYPED = "untyped"
RESOURCE_FILES = frozenset({"SAMP", "SVIEW", "IMAGE", "BUFFER", "MEMORY", "CONSTBUF", "HWATOMIC"})
WIDE_TYPES = frozenset({"double", "int64", "uint64"})

TEX_OPS = frozenset(
    {
        "TEX",
        "TEX2",
        "TXB",
        "TXB2",
        "TXL",
        "TXL2",
        "TXP",
        "TXD",
        "TXF",
        "TEX_LZ",
        "TXF_LZ",
        "TG4",
        "LODQ",
        "TXQ",
        "TXQS",
        "TXQ_LZ",
    }
)
SAMPLE_OPS = frozenset(
    {
        "SAMPLE",
        "SAMPLE_I",
        "SAMPLE_I_MS",
        "SAMPLE_B",
        "SAMPLE_C",
        "SAMPLE_C_LZ",
        "SAMPLE_D",
        "SAMPLE_L",
        "GATHER4",
        "SVIEWINFO",
        "SAMPLE_POS",
        "SAMPLE_INFO",
        "LOD",
    }
)
ATOMIC_OPS = frozenset(
    {
        "ATOMUADD",
        "ATOMFADD",
        "ATOMXCHG",
        "ATOMCAS",
        "ATOMAND",
        "ATOMOR",
        "ATOMXOR",
        "ATOMUMIN",
        "ATOMUMAX",
        "ATOMIMIN",
        "ATOMIMAX",
        "ATOMINC_WRAP",
        "ATOMDEC_WRAP",
    }
)

# Scalar ops that read .x of every source and replicate (beyond the DP family).
_DOT_POSITIONS = {
    "DP2": ((0, 1), (0, 1)),
    "DP3": ((0, 1, 2), (0, 1, 2)),
    "DP4": ((0, 1, 2, 3), (0, 1, 2, 3)),
    "DPH": ((0, 1, 2), (0, 1, 2, 3)),
    "DP2A": ((0, 1), (0, 1), (0,)),
    "PK2H": ((0, 1),),
    "PK2US": ((0, 1),),
    "PK4B": ((0, 1, 2, 3),),
    "PK4UB": ((0, 1, 2, 3),),
}
_CHAN_POSITIONS = {
    "LIT": ((0, 1, 3),),
    "EXP": ((0,),),
    "LOG": ((0,),),
    "DST": ((1, 2), (1, 3)),
    "XPD": ((0, 1, 2), (0, 1, 2)),
    "SCS": ((0,),),
    "NRM": ((0, 1, 2),),
    "UP2H": ((0,),),
    "UP2US": ((0,),),
    "UP4B": ((0,),),
    "UP4UB": ((0,),),
}

# Compares that write ~0 / 0 words: their value is produced as a uint
# (``-uvec4(lessThan(a, b))``) whatever Mesa's table calls the destination.
SET_ON_COMPARE = frozenset(
    {
        "FSEQ",
        "FSGE",
        "FSLT",
        "FSNE",
        "ISGE",
        "ISLT",
        "USEQ",
        "USGE",
        "USLT",
        "USNE",
        "DSEQ",
        "DSNE",
        "DSLT",
        "DSGE",
        "U64SEQ",
        "U64SNE",
        "U64SLT",
        "U64SGE",
        "I64SLT",
        "I64SGE",
    }
)

# 64-bit opcodes whose *result* is one 32-bit word per lane, in .x/.y.
NARROWING = frozenset({"D2F", "D2I", "D2U", "U642F", "I642F"})
# ... and whose 32-bit *source* word of lane k is at swizzle position k.
WIDENING = frozenset({"F2D", "I2D", "U2D", "F2U64", "F2I64", "U2I64", "I2I64"})
# 64-bit compares: a 32-bit ~0/0 word per lane, in .x (lane 0) and .z (lane 1).
WIDE_COMPARES = frozenset({"DSEQ", "DSNE", "DSLT", "DSGE", "U64SEQ", "U64SNE", "U64SLT", "U64SGE", "I64SLT", "I64SGE"})


def is_wide(opcode: str) -> bool:
    """True for the double and 64-bit-integer opcodes (two lanes per register)."""
    return OPCODES[opcode].group in ("double", "int64")


def _atomic_value_type(opcode: str, resource_type: str) -> str:
    if opcode == "ATOMFADD":
        return "float"
    if opcode in ("ATOMIMIN", "ATOMIMAX"):
        return "int"
    if resource_type in ("int", "float") and opcode in ("ATOMXCHG", "ATOMCAS"):
        return resource_type
    return "uint" if resource_type != "int" else "int"


def resource_value_type(inst: Instruction, decls: Decls, resource) -> str:
    """Base type of the words stored in a LOAD/STORE/ATOM resource operand."""
    if resource.file == "IMAGE":
        return decls.image_base_type(resource.index, inst.memory_format)
    return "uint"


def sampler_index(inst: Instruction) -> int:
    """The SAMP index of a TEX-style instruction (its last source)."""
    return inst.srcs[-1].index


def operand_types(inst: Instruction, decls: Decls) -> tuple[list[str], list[str | None]]:
    """(value type per dst, wanted type per src) of ``inst``.

    Types are ``float int uint double int64 uint64`` or ``untyped``; a
    resource operand's entry is None.  STORE's dst (the resource) is None.
    """
    op = inst.opcode
    info = OPCODES[op]
    dsts: list[str | None] = [info.dst_type] * info.num_dst
    srcs: list[str | None] = list(info.src_types)
    srcs += ["float"] * (len(inst.srcs) - len(srcs))
    for i, s in enumerate(inst.srcs):
        if s.file in RESOURCE_FILES:
            srcs[i] = None

    modifiers = any(s.negate or s.absolute for s in inst.srcs)
    if op == "MOV":
        t = "float" if modifiers else UNTYPED
        return [t], [t]
    if op == "UCMP":
        # src0 is tested as bits, src1/src2 move as bits; a source modifier is a
        # float one all the same (``modifier_type``), applied before the move.
        return [UNTYPED], ["uint", UNTYPED, UNTYPED]
    if op == "READ_FIRST":
        return [UNTYPED], [UNTYPED]
    if op == "READ_INVOC":
        return [UNTYPED], [UNTYPED, "uint"]
    if op in ("VOTE_ANY", "VOTE_ALL", "VOTE_EQ", "BALLOT"):
        return ["uint"], ["uint"]
    if op in ("CLOCK", "READ_HELPER"):
        return ["uint"], []
    if op in ("EMIT", "ENDPRIM", "MEMBAR", "SWITCH", "CASE", "UIF", "BREAKC"):
        return dsts, ["uint"] * len(inst.srcs)
    if op in SET_ON_COMPARE:
        return ["uint"], srcs
    if op == "UADD":  # Mesa calls the result signed; the sources are uint and the bits equal
        return ["uint"], srcs
    if op in ("ARL", "ARR"):
        return ["int"], ["float"]
    if op == "UARL":
        return ["int"], ["int"]
    if op == "FBFETCH":
        return ["float"], [None]
    if op.startswith("INTERP_"):
        return ["float"], ["float", "int" if op == "INTERP_SAMPLE" else "float"][: len(inst.srcs)]
    if op in TEX_OPS:
        return _tex_types(inst, decls, srcs)
    if op in SAMPLE_OPS:
        return _sample_types(inst, decls, srcs)
    if op == "LOAD":
        res = inst.srcs[0]
        addr = "int" if res.file == "IMAGE" else "uint"
        return [resource_value_type(inst, decls, res)], [None, addr]
    if op == "STORE":
        res = inst.dsts[0]
        addr = "int" if res.file == "IMAGE" else "uint"
        return [None], [addr, resource_value_type(inst, decls, res)]
    if op == "RESQ":
        return ["int"], [None]
    if op in ATOMIC_OPS:
        res = inst.srcs[0]
        value = _atomic_value_type(op, resource_value_type(inst, decls, res))
        addr = "int" if res.file == "IMAGE" else "uint"
        return [value], [None, addr] + [value] * (len(inst.srcs) - 2)
    if op == "DFRACEXP":
        return ["double", "int"], ["double"]
    if op in ("MFENCE", "LFENCE", "SFENCE"):
        return [], [None]
    for (name, index), t in _SRC_OVERRIDES.items():
        if name == op and index < len(srcs):
            srcs[index] = t
    return dsts, srcs


# GLSL takes the offset / bit count of bitfield operations as int.
_SRC_OVERRIDES = {
    ("UBFE", 1): "int",
    ("UBFE", 2): "int",
    ("BFI", 2): "int",
    ("BFI", 3): "int",
    ("IBFE", 1): "int",
    ("IBFE", 2): "int",
    ("USHR", 1): "uint",
    ("SHL", 1): "uint",
    ("ISHR", 1): "uint",
    ("U64SHL", 1): "uint",
    ("U64SHR", 1): "uint",
    ("I64SHR", 1): "uint",
}


def _tex_types(inst: Instruction, decls: Decls, srcs: list[str | None]):
    op = inst.opcode
    ret = decls.sview_return_type(sampler_index(inst))
    if op in ("TXQ", "TXQ_LZ"):
        return ["int"], ["int", None][: len(inst.srcs)] if op == "TXQ" else [None]
    if op == "TXQS":
        return ["int"], [None]
    if op == "LODQ":
        return ["float"], ["float", None]
    coords = "int" if op in ("TXF", "TXF_LZ") else "float"
    out: list[str | None] = []
    for i, s in enumerate(inst.srcs):
        if s.file in RESOURCE_FILES:
            out.append(None)
        elif i == 0:
            out.append(coords)
        elif op == "TG4" and i == 1:
            out.append("float" if (inst.texture or "").startswith("SHADOW") else "int")
        else:
            out.append("float")
    return [ret], out


def _sample_types(inst: Instruction, decls: Decls, srcs: list[str | None]):
    op = inst.opcode
    view = inst.srcs[1].index if len(inst.srcs) > 1 else 0
    if op == "SVIEWINFO":
        return ["int"], ["int", None]
    if op == "SAMPLE_INFO":
        # (one type per source: the second source is unused, tgsi.rst)
        return ["int"], [None if inst.srcs[0].file in RESOURCE_FILES else "float"] + [None] * (len(inst.srcs) - 1)
    if op == "SAMPLE_POS":
        return ["float"], [None if inst.srcs[0].file in RESOURCE_FILES else "float", "int"]
    if op == "LOD":
        return ["float"], ["float", None, None]
    ret = decls.sview_return_type(view)
    coords = "int" if op in ("SAMPLE_I", "SAMPLE_I_MS") else "float"
    out: list[str | None] = []
    for i, s in enumerate(inst.srcs):
        if s.file in RESOURCE_FILES:
            out.append(None)
        elif i == 0:
            out.append(coords)
        elif op == "SAMPLE_I_MS":
            out.append("int")
        else:
            out.append("float")
    return [ret], out


# ---------------------------------------------------------------------------
# Channels
# ---------------------------------------------------------------------------


def _written(inst: Instruction) -> tuple[int, ...]:
    return writemask_components(inst.dsts[0].writemask) if inst.dsts else (0, 1, 2, 3)


def lanes(inst: Instruction) -> tuple[int, ...]:
    """The 64-bit lanes (0 = source .xy, 1 = .zw) a wide opcode computes.

    64-bit results: lane 0 when .x or .y is written, lane 1 for .z / .w.
    32-bit results (D2F, D2I, U642F, ..., the compares): like Mesa's
    tgsi_exec, the first written component receives lane 0 and the second
    lane 1 (so ``DSEQ TEMP[0].x`` and ``D2F TEMP[0].xy`` read .xy then .zw)."""
    op = inst.opcode
    if op in NARROWING or op in WIDE_COMPARES:
        return tuple(range(min(2, len(_written(inst)))))
    mask = inst.dsts[0].writemask if inst.dsts else 0xF
    return tuple(k for k, comps in enumerate(((0, 1), (2, 3))) if any(mask & (1 << c) for c in comps))


def lane_dst_components(inst: Instruction, lane: int) -> tuple[int, ...]:
    """Destination components lane ``lane`` of a wide opcode writes (within the writemask)."""
    mask = inst.dsts[0].writemask
    if inst.opcode in NARROWING or inst.opcode in WIDE_COMPARES:
        written = _written(inst)
        return (written[lane],) if lane < len(written) else ()
    comps = (0, 1) if lane == 0 else (2, 3)
    return tuple(c for c in comps if mask & (1 << c))


def lane_src_positions(inst: Instruction, src: int, lane: int, src_type: str | None) -> tuple[int, ...]:
    """Swizzle positions source ``src`` of a wide opcode reads for ``lane``."""
    op = inst.opcode
    if src_type in WIDE_TYPES:
        return (0, 1) if lane == 0 else (2, 3)
    if op == "DLDEXP" and src == 1:
        return (0,) if lane == 0 else (2,)
    # 32-bit sources of the widening conversions and the 64-bit shift counts.
    return (lane,)


def src_positions(inst: Instruction, i: int, src_type: str | None = None) -> tuple[int, ...]:
    """Swizzle positions source ``i`` reads (conservative ``(0, 1, 2, 3)`` when irregular)."""
    op = inst.opcode
    info = OPCODES[op]
    if op in _DOT_POSITIONS:
        table = _DOT_POSITIONS[op]
        return table[i] if i < len(table) else (0,)
    if op in _CHAN_POSITIONS:
        table = _CHAN_POSITIONS[op]
        return table[i] if i < len(table) else (0, 1, 2, 3)
    if is_wide(op) and inst.dsts:
        out: list[int] = []
        for lane in lanes(inst):
            out.extend(lane_src_positions(inst, i, lane, src_type))
        return tuple(sorted(set(out))) or (0,)
    if info.output_mode == "REPL":
        return (0,)
    if op in (
        "IF",
        "UIF",
        "SWITCH",
        "CASE",
        "EMIT",
        "ENDPRIM",
        "BREAKC",
        "MEMBAR",
        "VOTE_ANY",
        "VOTE_ALL",
        "VOTE_EQ",
        "BALLOT",
    ):
        return (0,)
    if op == "READ_INVOC" and i == 1:
        return (0,)
    if info.output_mode == "COMP" and inst.dsts:
        comps = writemask_components(inst.dsts[0].writemask)
        return comps or (0,)
    return (0, 1, 2, 3)


def modifier_type(inst: Instruction, s: int) -> str:
    """The type source ``s``'s ``-x`` / ``|x|`` modifiers act in: Mesa's inferred
    source type (``tgsi_opcode_infer_src_type``), with the untyped moves' sources
    taken as float -- gallivm's ``lp_build_emit_fetch`` applies them that way
    ("modifiers on movs assume data is float") and tgsi_exec fetches UCMP's
    sources as float.  So ``UCMP d, c, -x, y`` flips x's sign bit whatever
    register web x lives in, and ``READ_FIRST d, -x`` reads x's bits with the
    sign bit flipped."""
    types = OPCODES[inst.opcode].src_types
    t = types[s] if s < len(types) else "float"
    return "float" if t == UNTYPED else t


def dst_components(inst: Instruction, d: int) -> tuple[int, ...]:
    """Components destination ``d`` writes."""
    return writemask_components(inst.dsts[d].writemask)


def storage_vote(value_type: str | None) -> str | None:
    """The 32-bit storage type a value of ``value_type`` argues for (wide types live as uint pairs)."""
    if value_type is None or value_type == UNTYPED:
        return None
    if value_type in WIDE_TYPES:
        return "uint"
    return value_type


__all__ = [
    "UNTYPED",
    "modifier_type",
    "SET_ON_COMPARE",
    "RESOURCE_FILES",
    "WIDE_TYPES",
    "TEX_OPS",
    "SAMPLE_OPS",
    "ATOMIC_OPS",
    "NARROWING",
    "WIDENING",
    "WIDE_COMPARES",
    "is_wide",
    "operand_types",
    "resource_value_type",
    "sampler_index",
    "lanes",
    "lane_dst_components",
    "lane_src_positions",
    "src_positions",
    "dst_components",
    "storage_vote",
]
