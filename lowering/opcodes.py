"""The TGSI opcode table: one ``OpInfo`` row per opcode, driving the parser, the
validator and the emitter / numpy executor.

docs/lowering.md "The opcode table" describes its contents, types and modes.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPES = ("float", "int", "uint", "double", "int64", "uint64", "untyped")
OUTPUT_MODES = ("COMP", "REPL", "CHAN", "OTHR", "NONE")

FS = frozenset({"FRAG"})
GS = frozenset({"GEOM"})
BARRIER_STAGES = frozenset({"TESS_CTRL", "COMP"})


@dataclass(frozen=True)
class OpInfo:
    """One opcode (see the module docstring)."""

    name: str
    num_dst: int
    num_src: int
    output_mode: str
    group: str
    dst_type: str | None  # None when num_dst == 0
    src_types: tuple[str, ...]
    number: int | None = None  # TGSI_OPCODE_* value in current Mesa (None: legacy)
    is_tex: bool = False  # a texture-target keyword operand follows the sources
    has_tex_offsets: bool = False  # trailing texture-offset operands are accepted
    is_branch: bool = False  # may carry a ``:N`` label
    block: str | None = None  # "if" | "loop" | "sub" | "switch"
    block_role: str | None = None  # "open" | "middle" | "close" | "case"
    is_memory: bool = False  # accepts memory qualifiers / target / format
    is_store: bool = False  # dst[0] is a resource written in memory
    stages: frozenset[str] | None = None  # processors allowed (None = all)
    legacy: bool = False  # removed from current Mesa, still accepted
    alias_of: str | None = None  # the parser rewrites this name to ``alias_of``
    optional_src: bool = False  # the operand may be omitted (legacy bare EMIT/ENDPRIM)
    derivatives: bool = False  # explicit screen-space derivative
    implicit_lod: bool = False  # texture lookup with implicit LOD (needs derivatives)
    doc: str = ""

    @property
    def num_operands(self) -> int:
        """dst + src operand count (excluding the texture-target keyword)."""
        return self.num_dst + self.num_src


# ---------------------------------------------------------------------------
# The rows.  (name, num_dst, num_src, output_mode, group, number, flags)
# Numbers are the TGSI_OPCODE_* values of current Mesa; legacy rows have None.
# ---------------------------------------------------------------------------

_TEX = {"is_tex": True, "has_tex_offsets": True}
_IMPLICIT = {"implicit_lod": True}
_MEM = {"is_memory": True}
_ATOM = {"is_memory": True, "is_store": True}
_FS = {"stages": FS}

_ROWS = [
    # --- core ISA --------------------------------------------------------
    ("ARL", 1, 1, "COMP", "core", 0, {}),
    ("MOV", 1, 1, "COMP", "core", 1, {}),
    ("RCP", 1, 1, "REPL", "core", 3, {}),
    ("RSQ", 1, 1, "REPL", "core", 4, {}),
    ("MUL", 1, 2, "COMP", "core", 7, {}),
    ("ADD", 1, 2, "COMP", "core", 8, {}),
    ("DP3", 1, 2, "REPL", "core", 9, {}),
    ("DP4", 1, 2, "REPL", "core", 10, {}),
    ("MIN", 1, 2, "COMP", "core", 12, {}),
    ("MAX", 1, 2, "COMP", "core", 13, {}),
    ("SLT", 1, 2, "COMP", "core", 14, {}),
    ("SGE", 1, 2, "COMP", "core", 15, {}),
    ("MAD", 1, 3, "COMP", "core", 16, {}),
    ("LRP", 1, 3, "COMP", "core", 18, {}),
    ("FMA", 1, 3, "COMP", "core", 19, {}),
    ("SQRT", 1, 1, "REPL", "core", 20, {}),
    ("LDEXP", 1, 2, "COMP", "core", 21, {}),
    ("F2U64", 1, 1, "COMP", "int64", 22, {}),
    ("F2I64", 1, 1, "COMP", "int64", 23, {}),
    ("FRC", 1, 1, "COMP", "core", 24, {}),
    ("FLR", 1, 1, "COMP", "core", 26, {}),
    ("ROUND", 1, 1, "COMP", "core", 27, {}),
    ("EX2", 1, 1, "REPL", "core", 28, {}),
    ("LG2", 1, 1, "REPL", "core", 29, {}),
    ("POW", 1, 2, "REPL", "core", 30, {}),
    ("DEMOTE", 0, 0, "NONE", "core", 31, _FS),
    ("U2I64", 1, 1, "COMP", "int64", 32, {}),
    ("CLOCK", 1, 0, "OTHR", "compute", 33, {}),
    ("I2I64", 1, 1, "COMP", "int64", 34, {}),
    ("READ_HELPER", 1, 0, "COMP", "core", 35, _FS),
    ("COS", 1, 1, "REPL", "core", 36, {}),
    ("DDX", 1, 1, "COMP", "core", 37, {"stages": FS, "derivatives": True}),
    ("DDY", 1, 1, "COMP", "core", 38, {"stages": FS, "derivatives": True}),
    ("KILL", 0, 0, "NONE", "core", 39, _FS),
    ("PK2H", 1, 1, "REPL", "core", 40, {}),
    ("D2U64", 1, 1, "COMP", "int64", 44, {}),
    ("SEQ", 1, 2, "COMP", "core", 45, {}),
    ("D2I64", 1, 1, "COMP", "int64", 46, {}),
    ("SGT", 1, 2, "COMP", "core", 47, {}),
    ("SIN", 1, 1, "REPL", "core", 48, {}),
    ("SLE", 1, 2, "COMP", "core", 49, {}),
    ("SNE", 1, 2, "COMP", "core", 50, {}),
    ("U642D", 1, 1, "COMP", "int64", 51, {}),
    ("TEX", 1, 2, "OTHR", "texture", 52, {**_TEX, **_IMPLICIT}),
    ("TXD", 1, 4, "OTHR", "texture", 53, _TEX),
    ("TXP", 1, 2, "OTHR", "texture", 54, {**_TEX, **_IMPLICIT}),
    ("UP2H", 1, 1, "CHAN", "core", 55, {}),
    ("UP2US", 1, 1, "CHAN", "core", 56, {}),
    ("UP4B", 1, 1, "CHAN", "core", 57, {}),
    ("UP4UB", 1, 1, "CHAN", "core", 58, {}),
    ("U642F", 1, 1, "COMP", "int64", 59, {}),
    ("I642F", 1, 1, "COMP", "int64", 60, {}),
    ("ARR", 1, 1, "COMP", "core", 61, {}),
    ("I642D", 1, 1, "COMP", "int64", 62, {}),
    ("CAL", 0, 0, "NONE", "flow", 63, {"is_branch": True}),
    ("RET", 0, 0, "NONE", "flow", 64, {}),
    ("SSG", 1, 1, "COMP", "core", 65, {}),
    ("CMP", 1, 3, "COMP", "core", 66, {}),
    ("TXB", 1, 2, "OTHR", "texture", 68, {**_TEX, **_IMPLICIT}),
    ("FBFETCH", 1, 1, "OTHR", "resource", 69, _FS),
    ("DIV", 1, 2, "COMP", "core", 70, {}),
    ("DP2", 1, 2, "REPL", "core", 71, {}),
    ("TXL", 1, 2, "OTHR", "texture", 72, _TEX),
    ("BRK", 0, 0, "NONE", "flow", 73, {}),
    ("IF", 0, 1, "NONE", "flow", 74, {"is_branch": True, "block": "if", "block_role": "open"}),
    ("UIF", 0, 1, "NONE", "flow", 75, {"is_branch": True, "block": "if", "block_role": "open"}),
    ("READ_INVOC", 1, 2, "COMP", "subgroup", 76, {}),
    ("ELSE", 0, 0, "NONE", "flow", 77, {"is_branch": True, "block": "if", "block_role": "middle"}),
    ("ENDIF", 0, 0, "NONE", "flow", 78, {"block": "if", "block_role": "close"}),
    ("DDX_FINE", 1, 1, "COMP", "core", 79, {"stages": FS, "derivatives": True}),
    ("DDY_FINE", 1, 1, "COMP", "core", 80, {"stages": FS, "derivatives": True}),
    ("CEIL", 1, 1, "COMP", "compute", 83, {}),
    ("I2F", 1, 1, "COMP", "int", 84, {}),
    ("NOT", 1, 1, "COMP", "int", 85, {}),
    ("TRUNC", 1, 1, "COMP", "compute", 86, {}),
    ("SHL", 1, 2, "COMP", "int", 87, {}),
    ("BALLOT", 1, 1, "OTHR", "subgroup", 88, {}),
    ("AND", 1, 2, "COMP", "int", 89, {}),
    ("OR", 1, 2, "COMP", "int", 90, {}),
    ("MOD", 1, 2, "COMP", "int", 91, {}),
    ("XOR", 1, 2, "COMP", "int", 92, {}),
    ("TXF", 1, 2, "OTHR", "texture", 94, _TEX),
    ("TXQ", 1, 2, "OTHR", "texture", 95, _TEX),
    ("CONT", 0, 0, "NONE", "flow", 96, {}),
    ("EMIT", 0, 1, "NONE", "geometry", 97, {"stages": GS, "optional_src": True}),
    ("ENDPRIM", 0, 1, "NONE", "geometry", 98, {"stages": GS, "optional_src": True}),
    ("BGNLOOP", 0, 0, "NONE", "flow", 99, {"is_branch": True, "block": "loop", "block_role": "open"}),
    ("BGNSUB", 0, 0, "NONE", "flow", 100, {"block": "sub", "block_role": "open"}),
    ("ENDLOOP", 0, 0, "NONE", "flow", 101, {"is_branch": True, "block": "loop", "block_role": "close"}),
    ("ENDSUB", 0, 0, "NONE", "flow", 102, {"block": "sub", "block_role": "close"}),
    ("ATOMFADD", 1, 3, "OTHR", "atomic", 103, _ATOM),
    ("TXQS", 1, 1, "OTHR", "texture", 104, _TEX),
    ("RESQ", 1, 1, "OTHR", "resource", 105, _MEM),
    ("READ_FIRST", 1, 1, "COMP", "subgroup", 106, {}),
    ("NOP", 0, 0, "NONE", "flow", 107, {}),
    ("FSEQ", 1, 2, "COMP", "int", 108, {}),
    ("FSGE", 1, 2, "COMP", "int", 109, {}),
    ("FSLT", 1, 2, "COMP", "int", 110, {}),
    ("FSNE", 1, 2, "COMP", "int", 111, {}),
    ("MEMBAR", 0, 1, "OTHR", "sync", 112, {}),
    ("KILL_IF", 0, 1, "NONE", "core", 116, _FS),
    ("END", 0, 0, "NONE", "flow", 117, {}),
    ("DFMA", 1, 3, "COMP", "double", 118, {}),
    ("F2I", 1, 1, "COMP", "int", 119, {}),
    ("IDIV", 1, 2, "COMP", "int", 120, {}),
    ("IMAX", 1, 2, "COMP", "int", 121, {}),
    ("IMIN", 1, 2, "COMP", "int", 122, {}),
    ("INEG", 1, 1, "COMP", "int", 123, {}),
    ("ISGE", 1, 2, "COMP", "int", 124, {}),
    ("ISHR", 1, 2, "COMP", "int", 125, {}),
    ("ISLT", 1, 2, "COMP", "int", 126, {}),
    ("F2U", 1, 1, "COMP", "int", 127, {}),
    ("U2F", 1, 1, "COMP", "int", 128, {}),
    ("UADD", 1, 2, "COMP", "int", 129, {}),
    ("UDIV", 1, 2, "COMP", "int", 130, {}),
    ("UMAD", 1, 3, "COMP", "int", 131, {}),
    ("UMAX", 1, 2, "COMP", "int", 132, {}),
    ("UMIN", 1, 2, "COMP", "int", 133, {}),
    ("UMOD", 1, 2, "COMP", "int", 134, {}),
    ("UMUL", 1, 2, "COMP", "int", 135, {}),
    ("USEQ", 1, 2, "COMP", "int", 136, {}),
    ("USGE", 1, 2, "COMP", "int", 137, {}),
    ("USHR", 1, 2, "COMP", "int", 138, {}),
    ("USLT", 1, 2, "COMP", "int", 139, {}),
    ("USNE", 1, 2, "COMP", "int", 140, {}),
    ("SWITCH", 0, 1, "NONE", "flow", 141, {"block": "switch", "block_role": "open"}),
    ("CASE", 0, 1, "NONE", "flow", 142, {"block": "switch", "block_role": "case"}),
    ("DEFAULT", 0, 0, "NONE", "flow", 143, {"block": "switch", "block_role": "case"}),
    ("ENDSWITCH", 0, 0, "NONE", "flow", 144, {"block": "switch", "block_role": "close"}),
    # --- D3D10-style sampling (SVIEW + SAMP operands, no target keyword) ---
    ("SAMPLE", 1, 3, "OTHR", "sample", 145, {"has_tex_offsets": True, **_IMPLICIT}),
    ("SAMPLE_I", 1, 2, "OTHR", "sample", 146, {"has_tex_offsets": True}),
    ("SAMPLE_I_MS", 1, 3, "OTHR", "sample", 147, {"has_tex_offsets": True}),
    ("SAMPLE_B", 1, 4, "OTHR", "sample", 148, {"has_tex_offsets": True, **_IMPLICIT}),
    ("SAMPLE_C", 1, 4, "OTHR", "sample", 149, {"has_tex_offsets": True, **_IMPLICIT}),
    ("SAMPLE_C_LZ", 1, 4, "OTHR", "sample", 150, {"has_tex_offsets": True}),
    ("SAMPLE_D", 1, 5, "OTHR", "sample", 151, {"has_tex_offsets": True}),
    ("SAMPLE_L", 1, 4, "OTHR", "sample", 152, {"has_tex_offsets": True}),
    ("GATHER4", 1, 3, "OTHR", "sample", 153, {"has_tex_offsets": True}),
    ("SVIEWINFO", 1, 2, "OTHR", "sample", 154, {}),
    ("SAMPLE_POS", 1, 2, "OTHR", "sample", 155, {}),
    ("SAMPLE_INFO", 1, 2, "OTHR", "sample", 156, {}),
    ("UARL", 1, 1, "COMP", "compute", 157, {}),
    ("UCMP", 1, 3, "COMP", "int", 158, {}),
    ("IABS", 1, 1, "COMP", "int", 159, {}),
    ("ISSG", 1, 1, "COMP", "int", 160, {}),
    # --- resources ---------------------------------------------------------
    ("LOAD", 1, 2, "OTHR", "resource", 161, _MEM),
    ("STORE", 1, 2, "OTHR", "resource", 162, {**_MEM, "is_store": True}),
    ("IMG2HND", 1, 1, "OTHR", "resource", 163, {}),
    ("SAMP2HND", 1, 1, "OTHR", "resource", 164, {"is_tex": True}),
    ("BARRIER", 0, 0, "OTHR", "sync", 166, {"stages": BARRIER_STAGES}),
    ("ATOMUADD", 1, 3, "OTHR", "atomic", 167, _ATOM),
    ("ATOMXCHG", 1, 3, "OTHR", "atomic", 168, _ATOM),
    ("ATOMCAS", 1, 4, "OTHR", "atomic", 169, _ATOM),
    ("ATOMAND", 1, 3, "OTHR", "atomic", 170, _ATOM),
    ("ATOMOR", 1, 3, "OTHR", "atomic", 171, _ATOM),
    ("ATOMXOR", 1, 3, "OTHR", "atomic", 172, _ATOM),
    ("ATOMUMIN", 1, 3, "OTHR", "atomic", 173, _ATOM),
    ("ATOMUMAX", 1, 3, "OTHR", "atomic", 174, _ATOM),
    ("ATOMIMIN", 1, 3, "OTHR", "atomic", 175, _ATOM),
    ("ATOMIMAX", 1, 3, "OTHR", "atomic", 176, _ATOM),
    ("TEX2", 1, 3, "OTHR", "texture", 177, {**_TEX, **_IMPLICIT}),
    ("TXB2", 1, 3, "OTHR", "texture", 178, {**_TEX, **_IMPLICIT}),
    ("TXL2", 1, 3, "OTHR", "texture", 179, _TEX),
    ("IMUL_HI", 1, 2, "COMP", "int", 180, {}),
    ("UMUL_HI", 1, 2, "COMP", "int", 181, {}),
    ("TG4", 1, 3, "OTHR", "texture", 182, _TEX),
    ("LODQ", 1, 2, "OTHR", "texture", 183, {**_TEX, "stages": FS, **_IMPLICIT}),
    ("IBFE", 1, 3, "COMP", "bitwise", 184, {}),
    ("UBFE", 1, 3, "COMP", "bitwise", 185, {}),
    ("BFI", 1, 4, "COMP", "bitwise", 186, {}),
    ("BREV", 1, 1, "COMP", "bitwise", 187, {}),
    ("POPC", 1, 1, "COMP", "bitwise", 188, {}),
    ("LSB", 1, 1, "COMP", "bitwise", 189, {}),
    ("IMSB", 1, 1, "COMP", "bitwise", 190, {}),
    ("UMSB", 1, 1, "COMP", "bitwise", 191, {}),
    ("INTERP_CENTROID", 1, 1, "OTHR", "interp", 192, _FS),
    ("INTERP_SAMPLE", 1, 2, "OTHR", "interp", 193, _FS),
    ("INTERP_OFFSET", 1, 2, "OTHR", "interp", 194, _FS),
    # --- double ------------------------------------------------------------
    ("F2D", 1, 1, "COMP", "double", 195, {}),
    ("D2F", 1, 1, "COMP", "double", 196, {}),
    ("DABS", 1, 1, "COMP", "double", 197, {}),
    ("DNEG", 1, 1, "COMP", "double", 198, {}),
    ("DADD", 1, 2, "COMP", "double", 199, {}),
    ("DMUL", 1, 2, "COMP", "double", 200, {}),
    ("DMAX", 1, 2, "COMP", "double", 201, {}),
    ("DMIN", 1, 2, "COMP", "double", 202, {}),
    ("DSLT", 1, 2, "COMP", "double", 203, {}),
    ("DSGE", 1, 2, "COMP", "double", 204, {}),
    ("DSEQ", 1, 2, "COMP", "double", 205, {}),
    ("DSNE", 1, 2, "COMP", "double", 206, {}),
    ("DRCP", 1, 1, "COMP", "double", 207, {}),
    ("DSQRT", 1, 1, "COMP", "double", 208, {}),
    ("DMAD", 1, 3, "COMP", "double", 209, {}),
    ("DFRAC", 1, 1, "COMP", "double", 210, {}),
    ("DLDEXP", 1, 2, "COMP", "double", 211, {}),
    ("D2I", 1, 1, "COMP", "double", 213, {}),
    ("I2D", 1, 1, "COMP", "double", 214, {}),
    ("D2U", 1, 1, "COMP", "double", 215, {}),
    ("U2D", 1, 1, "COMP", "double", 216, {}),
    ("DRSQ", 1, 1, "COMP", "double", 217, {}),
    ("DTRUNC", 1, 1, "COMP", "double", 218, {}),
    ("DCEIL", 1, 1, "COMP", "double", 219, {}),
    ("DFLR", 1, 1, "COMP", "double", 220, {}),
    ("DROUND", 1, 1, "COMP", "double", 221, {}),
    ("DSSG", 1, 1, "COMP", "double", 222, {}),
    # --- subgroup ------------------------------------------------------------
    ("VOTE_ANY", 1, 1, "COMP", "subgroup", 223, {}),
    ("VOTE_ALL", 1, 1, "COMP", "subgroup", 224, {}),
    ("VOTE_EQ", 1, 1, "COMP", "subgroup", 225, {}),
    # --- 64-bit integer ------------------------------------------------------
    ("U64SEQ", 1, 2, "COMP", "int64", 226, {}),
    ("U64SNE", 1, 2, "COMP", "int64", 227, {}),
    ("I64SLT", 1, 2, "COMP", "int64", 228, {}),
    ("U64SLT", 1, 2, "COMP", "int64", 229, {}),
    ("I64SGE", 1, 2, "COMP", "int64", 230, {}),
    ("U64SGE", 1, 2, "COMP", "int64", 231, {}),
    ("I64MIN", 1, 2, "COMP", "int64", 232, {}),
    ("U64MIN", 1, 2, "COMP", "int64", 233, {}),
    ("I64MAX", 1, 2, "COMP", "int64", 234, {}),
    ("U64MAX", 1, 2, "COMP", "int64", 235, {}),
    ("I64ABS", 1, 1, "COMP", "int64", 236, {}),
    ("I64SSG", 1, 1, "COMP", "int64", 237, {}),
    ("I64NEG", 1, 1, "COMP", "int64", 238, {}),
    ("U64ADD", 1, 2, "COMP", "int64", 239, {}),
    ("U64MUL", 1, 2, "COMP", "int64", 240, {}),
    ("U64SHL", 1, 2, "COMP", "int64", 241, {}),
    ("I64SHR", 1, 2, "COMP", "int64", 242, {}),
    ("U64SHR", 1, 2, "COMP", "int64", 243, {}),
    ("I64DIV", 1, 2, "COMP", "int64", 244, {}),
    ("U64DIV", 1, 2, "COMP", "int64", 245, {}),
    ("I64MOD", 1, 2, "COMP", "int64", 246, {}),
    ("U64MOD", 1, 2, "COMP", "int64", 247, {}),
    ("DDIV", 1, 2, "COMP", "double", 248, {}),
    ("LOD", 1, 3, "OTHR", "sample", 249, {"stages": FS, **_IMPLICIT}),
    ("ATOMINC_WRAP", 1, 3, "OTHR", "atomic", 250, _ATOM),
    ("ATOMDEC_WRAP", 1, 3, "OTHR", "atomic", 251, _ATOM),
    # --- legacy: removed from current Mesa, still found in older text ------
    ("LIT", 1, 1, "CHAN", "legacy", None, {"doc": "(1, max(x,0), x>0 ? max(y,0)^clamp(w,-128,128) : 0, 1)"}),
    ("EXP", 1, 1, "CHAN", "legacy", None, {"doc": "(2^floor(x), x-floor(x), 2^x, 1)"}),
    ("LOG", 1, 1, "CHAN", "legacy", None, {"doc": "(floor(log2|x|), |x|/2^floor(log2|x|), log2|x|, 1)"}),
    ("DST", 1, 2, "CHAN", "legacy", None, {"doc": "(1, src0.y*src1.y, src0.z, src1.w)"}),
    ("ABS", 1, 1, "COMP", "legacy", None, {"doc": "|src|"}),
    ("SUB", 1, 2, "COMP", "legacy", None, {"doc": "src0 - src1"}),
    ("XPD", 1, 2, "CHAN", "legacy", None, {"doc": "(cross(src0.xyz, src1.xyz), 1)"}),
    ("DPH", 1, 2, "REPL", "legacy", None, {"doc": "dot(src0.xyz, src1.xyz) + src1.w"}),
    ("SCS", 1, 1, "CHAN", "legacy", None, {"doc": "(cos x, sin x, 0, 1)"}),
    ("NRM", 1, 1, "CHAN", "legacy", None, {"doc": "(normalize(src.xyz), 1)"}),
    ("NRM4", 1, 1, "COMP", "legacy", None, {"doc": "normalize(src)"}),
    ("DP2A", 1, 3, "REPL", "legacy", None, {"doc": "dot(src0.xy, src1.xy) + src2.x"}),
    ("CND", 1, 3, "COMP", "legacy", None, {"doc": "src2 > 0.5 ? src0 : src1"}),
    ("CLAMP", 1, 3, "COMP", "legacy", None, {"doc": "clamp(src0, src1, src2)"}),
    ("SFL", 1, 2, "COMP", "legacy", None, {"doc": "0.0 (set-on-false)"}),
    ("STR", 1, 2, "COMP", "legacy", None, {"doc": "1.0 (set-on-true)"}),
    ("RCC", 1, 1, "REPL", "legacy", None, {"doc": "1/src.x clamped away from 0 (+-[5.42101e-20, 1.884467e19])"}),
    ("PK2US", 1, 1, "REPL", "legacy", None, {"doc": "packUnorm2x16(src.xy)"}),
    ("PK4B", 1, 1, "REPL", "legacy", None, {"doc": "packSnorm4x8(src)"}),
    ("PK4UB", 1, 1, "REPL", "legacy", None, {"doc": "packUnorm4x8(src)"}),
    ("KIL", 0, 1, "NONE", "legacy", None, {"stages": FS, "alias_of": "KILL_IF"}),
    ("KILP", 0, 0, "NONE", "legacy", None, {"stages": FS, "alias_of": "KILL"}),
    ("TEX_LZ", 1, 2, "OTHR", "legacy", None, {**_TEX, "doc": "TXL with lod 0"}),
    ("TXF_LZ", 1, 2, "OTHR", "legacy", None, {**_TEX, "doc": "TXF with lod 0"}),
    ("TXQ_LZ", 1, 1, "OTHR", "legacy", None, {**_TEX, "doc": "TXQ of mip level 0"}),
    ("BREAKC", 0, 1, "NONE", "legacy", None, {"doc": "break if src.x != 0 (integer test)"}),
    ("DFRACEXP", 2, 1, "COMP", "legacy", None, {"doc": "frexp: dst0 mantissa (double), dst1 exponent (int)"}),
    ("MFENCE", 0, 1, "OTHR", "legacy", None, {"doc": "memory fence on the resource operand (all accesses)"}),
    ("LFENCE", 0, 1, "OTHR", "legacy", None, {"doc": "memory fence on the resource operand (loads)"}),
    ("SFENCE", 0, 1, "OTHR", "legacy", None, {"doc": "memory fence on the resource operand (stores)"}),
]

# ---------------------------------------------------------------------------
# Operand types, after Mesa's tgsi_opcode_infer_{src,dst}_type.
# ---------------------------------------------------------------------------

# The "main" type of an opcode: its dst type and the default src type.
_UNTYPED = {"MOV", "UCMP"}
_UNSIGNED = {
    "NOT",
    "SHL",
    "AND",
    "OR",
    "XOR",
    "TXQ",
    "TXQS",
    "F2U",
    "UDIV",
    "UMAD",
    "UMAX",
    "UMIN",
    "UMOD",
    "UMUL",
    "USEQ",
    "USGE",
    "USHR",
    "USLT",
    "USNE",
    "SVIEWINFO",
    "UMUL_HI",
    "UBFE",
    "BFI",
    "BREV",
    # legacy rows (Mesa 2018 typed TXQ_LZ like TXQ)
    "TXQ_LZ",
}
_SIGNED = {
    "ARL",
    "ARR",
    "MOD",
    "F2I",
    "FSEQ",
    "FSGE",
    "FSLT",
    "FSNE",
    "IDIV",
    "IMAX",
    "IMIN",
    "INEG",
    "ISGE",
    "ISHR",
    "ISLT",
    "UADD",
    "UARL",
    "IABS",
    "ISSG",
    "IMUL_HI",
    "IBFE",
    "IMSB",
    "DSEQ",
    "DSGE",
    "DSLT",
    "DSNE",
    "U64SEQ",
    "U64SNE",
    "U64SLT",
    "U64SGE",
    "I64SLT",
    "I64SGE",
    "LSB",
    "POPC",
    "UMSB",
}
_DOUBLE = {
    "DADD",
    "DABS",
    "DFMA",
    "DNEG",
    "DMUL",
    "DMAX",
    "DDIV",
    "DMIN",
    "DRCP",
    "DSQRT",
    "DMAD",
    "DLDEXP",
    "DFRAC",
    "DRSQ",
    "DTRUNC",
    "DCEIL",
    "DFLR",
    "DROUND",
    "DSSG",
    "F2D",
    "I2D",
    "U2D",
    "U642D",
    "I642D",
    "DFRACEXP",
}
_UNSIGNED64 = {
    "U64MAX",
    "U64MIN",
    "U64ADD",
    "U64MUL",
    "U64DIV",
    "U64MOD",
    "U64SHL",
    "U64SHR",
    "F2U64",
    "D2U64",
}
_SIGNED64 = {
    "I64MAX",
    "I64MIN",
    "I64ABS",
    "I64SSG",
    "I64NEG",
    "I64SHR",
    "I64DIV",
    "I64MOD",
    "F2I64",
    "U2I64",
    "I2I64",
    "D2I64",
}

# Source-type exceptions that apply to every source of the opcode.
_SRC_ALL = {
    "uint": {
        "UIF",
        "TXF",
        "U2F",
        "U2D",
        "UADD",
        "SWITCH",
        "CASE",
        "SAMPLE_I",
        "SAMPLE_I_MS",
        "UMUL_HI",
        "UP2H",
        "U2I64",
        "MEMBAR",
        "UMSB",
        "TXF_LZ",
        "BREAKC",
        "UP2US",
        "UP4B",
        "UP4UB",
    },
    "int": {"IMUL_HI", "I2F", "I2D", "I2I64"},
    "float": {"ARL", "ARR", "F2D", "F2I", "F2U", "FSEQ", "FSGE", "FSLT", "FSNE", "UCMP", "F2U64", "F2I64"},
    "double": {"D2F", "D2U", "D2I", "DSEQ", "DSGE", "DSLT", "DSNE", "D2U64", "D2I64"},
    "uint64": {"U64SEQ", "U64SNE", "U64SLT", "U64SGE", "U642F", "U642D"},
    "int64": {"I64SLT", "I64SGE", "I642F", "I642D"},
}

# Per-(opcode, src index) exceptions, applied first (as Mesa does).
_SRC_AT = {
    ("LDEXP", 1): "int",
    ("DLDEXP", 1): "int",
    ("LOAD", 1): "uint",
    ("STORE", 0): "uint",
}
for _atom in (
    "ATOMUADD",
    "ATOMXCHG",
    "ATOMCAS",
    "ATOMAND",
    "ATOMOR",
    "ATOMXOR",
    "ATOMUMIN",
    "ATOMUMAX",
    "ATOMIMIN",
    "ATOMIMAX",
):
    _SRC_AT[(_atom, 1)] = "uint"

# Deviations from Mesa's inference, where Mesa's default ("float") hides
# that the result is a bit pattern.  The pack ops produce packed integers;
# DFRACEXP's second destination is an int but the table has one dst type.
_DST_TYPE_OVERRIDES = {
    "PK2H": "uint",
    "PK2US": "uint",
    "PK4B": "uint",
    "PK4UB": "uint",
}


def _main_type(name: str) -> str:
    for type_name, members in (
        ("untyped", _UNTYPED),
        ("uint", _UNSIGNED),
        ("int", _SIGNED),
        ("double", _DOUBLE),
        ("uint64", _UNSIGNED64),
        ("int64", _SIGNED64),
    ):
        if name in members:
            return type_name
    return "float"


def _src_type(name: str, index: int) -> str:
    if (name, index) in _SRC_AT:
        return _SRC_AT[(name, index)]
    for type_name, members in _SRC_ALL.items():
        if name in members:
            return type_name
    return _main_type(name)


def _build() -> dict[str, OpInfo]:
    table: dict[str, OpInfo] = {}
    for name, ndst, nsrc, mode, group, number, flags in _ROWS:
        flags = dict(flags)
        if group == "legacy":
            flags["legacy"] = True
        dst_type = None
        if ndst:
            dst_type = _DST_TYPE_OVERRIDES.get(name, _main_type(name))
        src_types = tuple(_src_type(name, i) for i in range(nsrc))
        if name in table:
            raise AssertionError(f"duplicate opcode row {name}")
        table[name] = OpInfo(
            name=name,
            num_dst=ndst,
            num_src=nsrc,
            output_mode=mode,
            group=group,
            dst_type=dst_type,
            src_types=src_types,
            number=number,
            **flags,
        )
    return table


OPCODES: dict[str, OpInfo] = _build()

# Longest names first, so a prefix (``DDX``) never shadows ``DDX_FINE`` when
# the parser matches mnemonics with their ``_SAT``/``_PRECISE`` suffixes.
OPCODE_NAMES_LONGEST_FIRST: tuple[str, ...] = tuple(sorted(OPCODES, key=lambda n: (-len(n), n)))


def get(name: str) -> OpInfo:
    """The row for ``name`` (case-insensitive); KeyError if unknown."""
    return OPCODES[name.upper()]


def canonical(name: str) -> str:
    """``name`` with pure aliases resolved (``KIL`` -> ``KILL_IF``)."""
    info = get(name)
    return info.alias_of or info.name


__all__ = ["OpInfo", "OPCODES", "OPCODE_NAMES_LONGEST_FIRST", "TYPES", "OUTPUT_MODES", "get", "canonical"]
