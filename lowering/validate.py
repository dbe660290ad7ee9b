"""``validate(shader) -> ShaderInfo``: check a parsed shader and describe it.

docs/lowering.md "Validation" lists the checks and what ``ShaderInfo`` carries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import semantics as sem
from . import validate_rules as rules
from .errors import ShaderValidationError, UnsupportedError
from .ir import Declaration, DstRegister, Instruction, Shader, SrcRegister
from .opcodes import OPCODES

# Files an instruction may write through a dst operand; resource files only
# through the "store" dst of STORE / ATOM*.
_WRITABLE = frozenset({"TEMP", "OUT", "ADDR"})
_STORE_FILES = frozenset({"BUFFER", "IMAGE", "MEMORY", "HWATOMIC"})
# Files whose registers need no DCL (IMM is declared by IMM statements).
_UNDECLARED_OK = frozenset({"CONSTBUF"})
# Resource files an address register may index (the element is a GLSL array element
# or a case of a switch over the declared range, lowering/glsl/indexing.py).
_INDEXED_RESOURCES = frozenset({"SAMP", "SVIEW", "BUFFER", "IMAGE"})

# Where each resource-taking opcode expects its resource operand:
# opcode -> ((operand kind, position), allowed files).
_TEX_UNIT = frozenset({"SAMP", "SVIEW"})
_MEMORY_RESOURCES = frozenset({"BUFFER", "IMAGE", "MEMORY", "HWATOMIC", "CONSTBUF"})
_RESOURCE_OPERANDS: dict[str, tuple[tuple[str, int, frozenset[str]], ...]] = {}
for _op in ("TEX", "TXP", "TXB", "TXL", "TXF", "TXQ", "LODQ", "TEX_LZ", "TXF_LZ"):
    _RESOURCE_OPERANDS[_op] = (("src", 1, _TEX_UNIT),)
for _op in ("TEX2", "TXB2", "TXL2", "TG4"):
    _RESOURCE_OPERANDS[_op] = (("src", 2, _TEX_UNIT),)
_RESOURCE_OPERANDS["TXD"] = (("src", 3, _TEX_UNIT),)
_RESOURCE_OPERANDS["TXQS"] = (("src", 0, _TEX_UNIT),)
_RESOURCE_OPERANDS["TXQ_LZ"] = (("src", 0, _TEX_UNIT),)
for _op in ("SAMPLE", "SAMPLE_B", "SAMPLE_C", "SAMPLE_C_LZ", "SAMPLE_D", "SAMPLE_L", "GATHER4", "LOD"):
    _RESOURCE_OPERANDS[_op] = (("src", 1, frozenset({"SVIEW"})), ("src", 2, frozenset({"SAMP"})))
for _op in ("SAMPLE_I", "SAMPLE_I_MS", "SVIEWINFO"):
    _RESOURCE_OPERANDS[_op] = (("src", 1, frozenset({"SVIEW"})),)
_RESOURCE_OPERANDS["LOAD"] = (("src", 0, _MEMORY_RESOURCES),)
_RESOURCE_OPERANDS["RESQ"] = (("src", 0, frozenset({"BUFFER", "IMAGE"})),)
_RESOURCE_OPERANDS["STORE"] = (("dst", 0, _STORE_FILES),)
for _name, _info in OPCODES.items():
    if _info.group == "atomic":
        _RESOURCE_OPERANDS[_name] = (("src", 0, _STORE_FILES),)
for _op in ("INTERP_CENTROID", "INTERP_SAMPLE", "INTERP_OFFSET"):
    _RESOURCE_OPERANDS[_op] = (("src", 0, frozenset({"IN"})),)
_RESOURCE_OPERANDS["IMG2HND"] = (("src", 0, frozenset({"IMAGE"})),)
_RESOURCE_OPERANDS["SAMP2HND"] = (("src", 0, _TEX_UNIT),)
_RESOURCE_OPERANDS["FBFETCH"] = (("src", 0, frozenset({"OUT"})),)

_IMM_TYPE_KIND = {"FLT64": "double", "UINT64": "uint64", "INT64": "int64"}

# ARB_bindless_texture: a sampler or image operand may instead be a register
# holding a 64-bit handle (e.g. ``TEX TEMP[1], IN[0], CONST[0][0].xyyy, 2D``).
_BINDLESS_RESOURCES = frozenset({"SAMP", "SVIEW", "IMAGE"})
_BINDLESS_HANDLE_FILES = frozenset({"TEMP", "CONST", "IN", "IMM", "SV"})

# What each output semantic means for the ShaderInfo "writes_*" flags, per stage kind.
_FS_OUTPUT_FLAGS = {"POSITION": "writes_depth", "STENCIL": "writes_stencil", "SAMPLEMASK": "writes_samplemask"}
_GEOM_OUTPUT_FLAGS = {
    "POSITION": "writes_position",
    "PSIZE": "writes_psize",
    "CLIPDIST": "writes_clipdist",
    "CULLDIST": "writes_clipdist",
    "CLIPVERTEX": "writes_clipvertex",
    "LAYER": "writes_layer",
    "VIEWPORT_INDEX": "writes_viewport_index",
    "EDGEFLAG": "writes_edgeflag",
}


@dataclass(frozen=True)
class IORegister:
    """One input, output or system-value register and its declaration attributes."""

    file: str
    index: int
    semantic: str | None
    semantic_index: int = 0
    interpolate: str | None = None
    location: str = "CENTER"
    usage_mask: int = 0xF
    array_id: int = 0
    invariant: bool = False
    stream: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass(frozen=True)
class ShaderInfo:
    """What ``validate`` learned about a shader (all fields are read-only)."""

    processor: str
    # file -> declared (first, last) ranges; CONST/HWATOMIC ranges per buffer in const_buffers.
    ranges: dict[str, tuple[tuple[int, int], ...]]
    # file -> number of registers (highest declared index + 1; IMM: number of immediates)
    num_registers: dict[str, int]
    # constant buffer index -> number of vec4 declared
    const_buffers: dict[int, int]
    # HWATOMIC buffer index -> number of counters declared
    hw_atomic_buffers: dict[int, int]
    inputs: tuple[IORegister, ...]
    outputs: tuple[IORegister, ...]
    system_values: tuple[IORegister, ...]
    # register file -> True when some operand indexes it indirectly (the register index)
    indirect_files: frozenset[str]
    # files indexed indirectly in their dimension (e.g. CONST[ADDR[0].x][1])
    dim_indirect_files: frozenset[str]
    # TEMP array ids declared: array id -> (first, last)
    temp_arrays: dict[int, tuple[int, int]]
    samplers_used: tuple[int, ...]
    sampler_views_used: tuple[int, ...]
    images_used: tuple[int, ...]
    buffers_used: tuple[int, ...]
    memory_used: tuple[int, ...]
    # MEMORY index (declared or used) -> GLOBAL / SHARED / PRIVATE / INPUT.  A used index
    # that is not declared maps to the single MEMORY declaration (a Mesa quirk: see
    # _Validator.sole_memory_decl), e.g. {1: "SHARED", 0: "SHARED"}.
    memory_types: dict[int, str]
    # SAMP/SVIEW index -> texture targets it is used with by TEX-style opcodes
    sampler_targets: dict[int, tuple[str, ...]]
    properties: dict[str, object]
    opcodes_used: frozenset[str]
    writes_position: bool = False
    writes_psize: bool = False
    writes_clipdist: bool = False
    writes_clipvertex: bool = False
    writes_layer: bool = False
    writes_viewport_index: bool = False
    writes_edgeflag: bool = False
    writes_depth: bool = False
    writes_stencil: bool = False
    writes_samplemask: bool = False
    uses_kill: bool = False
    uses_demote: bool = False
    uses_derivatives: bool = False
    uses_fp64: bool = False
    uses_int64: bool = False
    uses_atomics: bool = False
    uses_barrier: bool = False
    uses_subroutines: bool = False
    uses_fbfetch: bool = False
    uses_interp_opcodes: bool = False
    uses_sample_shading: bool = False
    uses_legacy_opcodes: bool = False
    # a sampler/image operand is a register holding a bindless handle
    uses_bindless: bool = False
    # where the first such operand is ("instruction 2 (TEX, line 9): operand 2 ...")
    bindless_use: str = ""
    # GS: number of vertex streams (highest stream used + 1), else 0/1
    num_streams: int = 1
    # control flow: opener index -> matching ELSE/ENDIF/ENDLOOP/ENDSUB/ENDSWITCH index
    # (IF -> ELSE or ENDIF, ELSE -> ENDIF, BGNLOOP <-> ENDLOOP both ways, BGNSUB -> ENDSUB,
    # SWITCH -> ENDSWITCH); subroutines: BGNSUB index -> ENDSUB index
    block_pairs: dict[int, int] = field(default_factory=dict)
    subroutines: dict[int, int] = field(default_factory=dict)
    # The shader this record describes (the IR is immutable): ``to_glsl`` lowers a
    # ShaderInfo without validating again, so each shader is checked once however
    # many variants are made of it.  Not part of equality or repr.
    shader: Shader | None = field(default=None, compare=False, repr=False)

    def input(self, semantic: str, index: int = 0) -> IORegister | None:
        """The input register with ``semantic[index]``, or None."""
        return _find_io(self.inputs, semantic, index)

    def output(self, semantic: str, index: int = 0) -> IORegister | None:
        """The output register with ``semantic[index]``, or None."""
        return _find_io(self.outputs, semantic, index)

    def system_value(self, semantic: str) -> IORegister | None:
        """The SV register with ``semantic``, or None."""
        return _find_io(self.system_values, semantic, 0)


def _find_io(regs, semantic, index):
    for reg in regs:
        if reg.semantic == semantic and reg.semantic_index == index:
            return reg
    return None


def validate(shader: Shader) -> ShaderInfo:
    """Check ``shader`` and return its ``ShaderInfo``; raises ShaderValidationError."""
    return _Validator(shader).run()


def _where(index: int, inst: Instruction) -> str:
    line = f", line {inst.line}" if inst.line is not None else ""
    return f"instruction {index} ({inst.opcode}{line})"


def _before_first_case(stack: list, labelled: set[int]) -> bool:
    """True when the next instruction stands directly inside a SWITCH, before
    its first CASE / DEFAULT (code there has no label to run under);
    ``labelled``: the SWITCHes whose first label was seen."""
    return bool(stack) and stack[-1][0] == "switch" and stack[-1][1] not in labelled


def _opened(index: int, inst: Instruction) -> str:
    line = f" (line {inst.line})" if inst.line is not None else ""
    return f"{inst.opcode} opened at instruction {index}{line}"


def _decl_text(decl: Declaration) -> str:
    from .dump import dump_declaration

    text = dump_declaration(decl)
    return f"'{text}'" + (f" (line {decl.line})" if decl.line is not None else "")


class _Validator:
    def __init__(self, shader: Shader):
        self.shader = shader
        self.proc = shader.processor
        self.n_insts = len(shader.instructions)
        # (file, dimension) -> list of declarations
        self.by_file: dict[tuple[str, int | None], list[Declaration]] = {}
        self.flags: dict[str, bool] = {}
        self.bindless = False
        self.bindless_use = ""

    # -- helpers ------------------------------------------------------------------

    def fail(self, index: int | None, inst: Instruction | None, message: str):
        if inst is None:
            raise ShaderValidationError(message, None, None)
        raise ShaderValidationError(f"{_where(index, inst)}: {message}", index, inst.line)

    def fail_unsupported(self, index: int, inst: Instruction, message: str):
        """A valid Gallium program the host cannot run: UnsupportedError naming the instruction."""
        raise UnsupportedError(f"{_where(index, inst)}: {message}")

    # -- declarations ---------------------------------------------------------------

    def check_declarations(self) -> None:
        shader = self.shader
        if shader.processor not in ("VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP"):
            raise ShaderValidationError(f"unknown processor {shader.processor!r}")
        semantics_seen: dict = {}  # (file, semantic, index) -> Declaration
        for decl in shader.declarations:
            where = f"declaration {_decl_text(decl)}"
            if decl.first < 0 or decl.last < decl.first:
                raise ShaderValidationError(f"{where}: bad index range {decl.first}..{decl.last}", None, decl.line)
            if decl.file == "IMM":
                raise ShaderValidationError(
                    f"{where}: IMM registers are declared by IMM statements, not DCL", None, decl.line
                )
            if decl.usage_mask == 0:
                raise ShaderValidationError(f"{where}: empty usage mask", None, decl.line)
            if decl.file in ("SVIEW", "IMAGE") and not decl.target:
                raise ShaderValidationError(f"{where}: {decl.file} needs a texture target", None, decl.line)
            if decl.file == "SV" and not decl.semantic:
                raise ShaderValidationError(f"{where}: a system value needs a semantic", None, decl.line)
            if decl.semantic is not None and decl.semantic not in sem.SEMANTIC_NAMES:
                raise ShaderValidationError(f"{where}: unknown semantic {decl.semantic!r}", None, decl.line)
            reason = rules.declaration_refusal(self.proc, decl)
            if reason is not None:
                raise ShaderValidationError(f"{where}: {reason}", None, decl.line)
            if decl.file == "OUT" and not decl.semantic:
                raise ShaderValidationError(f"{where}: an output needs a semantic", None, decl.line)
            if decl.file == "OUT" and any(decl.used_streams):
                primitive = shader.property("GS_OUTPUT_PRIMITIVE", "TRIANGLE_STRIP")
                refusal = rules.output_stream_refusal(decl.used_streams, primitive)
                if refusal is not None and refusal[0]:
                    raise UnsupportedError(f"{where}: {refusal[1]}")
                if refusal is not None:
                    raise ShaderValidationError(f"{where}: {refusal[1]}", None, decl.line)
            if decl.file == "IN" and self.proc != "VERT" and not decl.semantic:
                raise ShaderValidationError(
                    f"{where}: an input of a {self.proc} shader needs a semantic", None, decl.line
                )
            dim = decl.dimension if decl.file in ("CONST", "HWATOMIC") else None
            if decl.file in ("CONST", "HWATOMIC") and dim is None:
                dim = 0
            key = (decl.file, dim)
            for other in self.by_file.get(key, ()):
                if decl.first <= other.last and other.first <= decl.last:
                    verb = "duplicates" if (decl.first, decl.last) == (other.first, other.last) else "overlaps"
                    raise ShaderValidationError(f"{where} {verb} declaration {_decl_text(other)}", None, decl.line)
            clash = rules.semantic_clash(decl, semantics_seen)
            if clash is not None:
                raise ShaderValidationError(
                    f"{where}: {clash[0]} is already declared by {_decl_text(clash[1])}", None, decl.line
                )
            self.by_file.setdefault(key, []).append(decl)

    def declared(self, file: str, index: int, dimension: int | None) -> bool:
        if file == "IMM":
            return 0 <= index < len(self.shader.immediates)
        if file in _UNDECLARED_OK:
            return True
        if file in ("CONST", "HWATOMIC"):
            decls = self.by_file.get((file, dimension or 0), ())
        else:
            decls = self.by_file.get((file, None), ())
        return any(d.covers(index) for d in decls)

    def any_declared(self, file: str) -> bool:
        if file == "IMM":
            return bool(self.shader.immediates)
        if file in _UNDECLARED_OK:
            return True
        return any(f == file for f, _ in self.by_file)

    def sole_memory_decl(self) -> Declaration | None:
        """The only MEMORY declaration, if there is exactly one.

        Current Mesa's ureg declares memory as ``MEMORY[<memory type>]`` (so
        shared memory is ``DCL MEMORY[1], SHARED``) while nir_to_tgsi's
        instructions address ``MEMORY[0]``; tgsi_exec ignores the index.  A
        MEMORY operand whose index is not declared therefore refers to the
        single MEMORY declaration when there is exactly one.
        """
        decls = [d for (f, _), ds in self.by_file.items() if f == "MEMORY" for d in ds]
        return decls[0] if len(decls) == 1 else None

    # -- operands -------------------------------------------------------------------

    def check_register(self, i: int, inst: Instruction, op, role: str) -> None:
        from .dump import dump_dst, dump_src

        text = dump_dst(op) if isinstance(op, DstRegister) else dump_src(op)
        for value, what in ((op.index, "register index"), (op.dimension, "dimension index")):
            reason = rules.operand_index_refusal(value, what) if value is not None else None
            if reason is not None:
                self.fail(i, inst, f"{role} {text}: {reason}")
        if op.dimension is not None and op.dim_indirect is None:
            reason = rules.vertex_index_refusal(self.shader, op.file, op.dimension)
            if reason is not None:
                self.fail(i, inst, f"{role} {text}: {reason}")
        if op.file not in (
            "CONST",
            "IN",
            "OUT",
            "TEMP",
            "SAMP",
            "ADDR",
            "IMM",
            "SV",
            "IMAGE",
            "SVIEW",
            "BUFFER",
            "MEMORY",
            "CONSTBUF",
            "HWATOMIC",
        ):
            self.fail(i, inst, f"{role} {text}: unknown register file {op.file!r}")
        for ind in (op.indirect, op.dim_indirect):
            if ind is None:
                continue
            if ind.file not in ("ADDR", "TEMP", "IMM", "CONST", "IN", "SV", "OUT"):
                self.fail(i, inst, f"{role} {text}: {ind.file} cannot hold an indirect address")
            if not 0 <= ind.component <= 3:
                self.fail(i, inst, f"{role} {text}: bad indirect component {ind.component}")
            if not self.declared(ind.file, ind.index, None):
                self.fail(i, inst, f"{role} {text}: address register {ind.file}[{ind.index}] is not declared")
        # The dimension of per-vertex inputs (GS/TES/TCS) and of TCS outputs is a vertex
        # number, not part of the declaration.
        dim = op.dimension if op.file in ("CONST", "HWATOMIC") else None
        if op.dim_indirect is not None and op.file in ("CONST", "HWATOMIC"):
            if not any(f == op.file for f, _ in self.by_file):
                self.fail(i, inst, f"{role} {text}: {op.file} is not declared")
            dim = None
        if op.indirect is not None:
            if not self.any_declared(op.file):
                self.fail(i, inst, f"{role} {text}: no {op.file} register is declared")
            if op.file == "ADDR":
                # Address registers are named, never indexed (the lowering keeps each in
                # a variable of its own; no Gallium driver indexes them either).
                self.fail(i, inst, f"{role} {text}: an address register cannot be indexed indirectly")
            self._check_constant_address(i, inst, role, text, op, dim)
            if op.file in _INDEXED_RESOURCES and not self.declared(op.file, op.index, None):
                # The lowering indexes the declared range that holds the constant part
                # (tgsi.rst: the element is index + ADDR), so that part must be declared.
                ranges = ", ".join(
                    f"{d.first}..{d.last}" if d.count > 1 else str(d.first)
                    for d in sorted(self.by_file.get((op.file, None), ()), key=lambda d: d.first)
                )
                self.fail(
                    i,
                    inst,
                    f"{role} {text}: the index base {op.index} is outside the declared {op.file} range(s) {ranges}",
                )
            return
        if op.dim_indirect is not None and op.file in ("CONST", "HWATOMIC"):
            if not any(d.covers(op.index) for (f, _), ds in self.by_file.items() if f == op.file for d in ds):
                self.fail(i, inst, f"{role} {text}: {op.file}[{op.index}] is out of the declared range")
            return
        if not self.declared(op.file, op.index, dim):
            if op.file == "MEMORY" and self.sole_memory_decl() is not None:
                return  # Mesa quirk, see sole_memory_decl
            if op.file == "IMM":
                n = len(self.shader.immediates)
                self.fail(
                    i,
                    inst,
                    f"{role} {text}: IMM[{op.index}] is out of range ({n} immediate{'s' if n != 1 else ''} declared)",
                )
            elif self.any_declared(op.file):
                self.fail(
                    i,
                    inst,
                    f"{role} {text}: {op.file}[{op.index}] is out of the "
                    "declared range" + (f" of buffer {dim}" if dim else ""),
                )
            else:
                self.fail(i, inst, f"{role} {text}: {op.file} register is not declared")

    # -- instructions -----------------------------------------------------------------

    def check_instruction(self, i: int, inst: Instruction) -> None:
        info = OPCODES.get(inst.opcode)
        if info is None:
            self.fail(i, inst, f"unknown opcode {inst.opcode!r}")
        if info.alias_of:
            self.fail(i, inst, f"{inst.opcode} must be written as {info.alias_of} in the IR")
        if len(inst.dsts) != info.num_dst:
            self.fail(i, inst, f"{inst.opcode} takes {info.num_dst} destination operand(s), got {len(inst.dsts)}")
        if len(inst.srcs) != info.num_src and not (info.optional_src and not inst.srcs):
            self.fail(i, inst, f"{inst.opcode} takes {info.num_src} source operand(s), got {len(inst.srcs)}")
        if info.stages is not None and self.proc not in info.stages:
            allowed = " or ".join(sorted(info.stages))
            self.fail(i, inst, f"{inst.opcode} is not allowed in a {self.proc} shader (only {allowed})")
        if info.is_tex and not inst.texture:
            self.fail(i, inst, f"{inst.opcode} needs a texture target")
        if inst.texture and not info.is_tex:
            self.fail(i, inst, f"{inst.opcode} takes no texture target")
        if inst.texture and inst.texture not in sem.TEXTURE_TARGETS:
            self.fail(i, inst, f"unknown texture target {inst.texture!r}")
        if inst.tex_offsets and not info.has_tex_offsets:
            self.fail(i, inst, f"{inst.opcode} takes no texture offsets")
        # tgsi_instruction_texture allows up to four offsets, but only a gather
        # gives them a meaning: one per gathered texel (TEXTURE_GATHER_OFFSETS).
        n_offsets = len(inst.tex_offsets)
        if n_offsets > 1 and not (inst.opcode == "TG4" and n_offsets == 4):
            self.fail(
                i,
                inst,
                f"{inst.opcode} with {n_offsets} texture offsets: only TG4 takes more "
                "than one, and then four (one per gathered texel)",
            )
        if (inst.memory_qualifiers or inst.memory_target or inst.memory_format) and not info.is_memory:
            self.fail(i, inst, f"{inst.opcode} takes no memory qualifiers")
        if inst.label is not None:
            if not info.is_branch:
                self.fail(i, inst, f"{inst.opcode} takes no label")
            if not 0 <= inst.label < self.n_insts:
                self.fail(i, inst, f"label :{inst.label} is out of range (the shader has {self.n_insts} instructions)")
        if inst.opcode == "CAL":
            if inst.label is None:
                self.fail(i, inst, "CAL needs a target label (:N)")
            if self.shader.instructions[inst.label].opcode != "BGNSUB":
                target = self.shader.instructions[inst.label].opcode
                self.fail(i, inst, f"CAL target :{inst.label} is {target}, not BGNSUB")
        if inst.saturate and info.num_dst == 0:
            self.fail(i, inst, f"{inst.opcode} has no destination to saturate")
        for d in inst.dsts:
            if d.writemask == 0 or d.writemask & ~0xF:
                self.fail(i, inst, f"destination {d.file}[{d.index}] has an empty or bad writemask")
            if d.file not in _WRITABLE and not (info.is_store and d.file in _STORE_FILES):
                self.fail(i, inst, f"destination {d.file}[{d.index}]: {d.file} registers are not writable")
            self.check_register(i, inst, d, "destination")
        for s in inst.srcs:
            if len(s.swizzle) != 4 or any(not 0 <= c <= 3 for c in s.swizzle):
                self.fail(i, inst, f"source {s.file}[{s.index}] has a bad swizzle {s.swizzle}")
            self.check_register(i, inst, s, "source")
        for off in inst.tex_offsets:
            if not self.declared(off.file, off.index, None):
                self.fail(i, inst, f"texture offset {off.file}[{off.index}] is not declared")
        reason = rules.target_refusal(inst.opcode, self.texture_target(inst))
        if reason is not None:
            self.fail(i, inst, reason)
        if inst.opcode == "TG4" and len(inst.srcs) > 1:
            word = self._immediate_word(inst.srcs[1])  # (the immediate's raw word, as the emitter reads it)
            reason = rules.gather_component_refusal(word & 0xFFFFFFFF) if word is not None else None
            if reason is not None:
                self.fail(i, inst, reason)
        if inst.opcode in ("EMIT", "ENDPRIM") and inst.srcs:
            stream = self._immediate_word(inst.srcs[0])
            if stream is not None:
                reason = rules.stream_refusal(stream, self.shader.property("GS_OUTPUT_PRIMITIVE", "TRIANGLE_STRIP"))
                if reason is not None:
                    self.fail(i, inst, reason)
        for kind, pos, files in _RESOURCE_OPERANDS.get(inst.opcode, ()):
            ops = inst.dsts if kind == "dst" else inst.srcs
            if pos >= len(ops) or ops[pos].file in files:
                continue
            bindless = _BINDLESS_HANDLE_FILES if files & _BINDLESS_RESOURCES else frozenset()
            if kind == "dst":
                bindless = bindless & _WRITABLE
            if ops[pos].file in bindless:
                if not self.bindless:
                    self.bindless_use = (
                        f"{_where(i, inst)}: operand {pos + 1 if kind == 'src' else 1} of {inst.opcode} "
                        f"is a bindless handle ({ops[pos].file}[{ops[pos].index}])"
                    )
                self.bindless = True
                continue
            want = " or ".join(sorted(files))
            article = "an" if want[0] in "AEIOU" else "a"
            tail = " (or a bindless handle)" if bindless else ""
            self.fail(
                i,
                inst,
                f"operand {pos + 1 if kind == 'src' else 1} of "
                f"{inst.opcode} must be {article} {want} register{tail}, got "
                f"{ops[pos].file}[{ops[pos].index}]",
            )

    def texture_target(self, inst: Instruction) -> str | None:
        """The target a texture opcode reads: the instruction's (TEX style), else
        the declaration of its SVIEW operand (SAMPLE style)."""
        if inst.texture:
            return inst.texture
        for s in inst.srcs:
            if s.file == "SVIEW":  # (indexed: the declaration holding the base index)
                for d in self.by_file.get(("SVIEW", None), ()):
                    if d.covers(s.index):
                        return d.target
        return None

    def _check_constant_address(self, i, inst, role: str, text: str, op, dim) -> None:
        """An address read from an immediate (``CONST[0][IMM[0].x+3]``) is known
        now: the element it selects -- the immediate's word as a signed int plus
        the base, as the lowering folds it into a literal -- must be declared, in
        the declaration that holds the base, or the host rejects the literal
        index ("array index must be < N").  (An address register may hold
        anything at run time; that index is bounded where it is read.)"""
        ind = op.indirect
        if ind.file != "IMM" or not (0 <= ind.index < len(self.shader.immediates) and 0 <= ind.component <= 3):
            return
        word = (self.shader.immediates[ind.index].words[ind.component] + op.index) & 0xFFFFFFFF
        element = word - (1 << 32) if word & 0x80000000 else word
        if op.file == "IMM":
            ok = self.declared("IMM", element, None)
        else:
            key = (op.file, (dim or 0) if op.file in ("CONST", "HWATOMIC") else None)
            decls = self.by_file.get(key, ())
            holder = [d for d in decls if d.covers(op.index)] or list(decls)
            ok = op.file in _UNDECLARED_OK or any(d.covers(element) for d in holder)
        if not ok:
            self.fail(
                i,
                inst,
                f"{role} {text}: the address IMM[{ind.index}].{'xyzw'[ind.component]} + {op.index} "
                f"selects {op.file}[{element}], outside the declared range",
            )

    def _immediate_word(self, src: SrcRegister) -> int | None:
        """An immediate operand's value as the emitter and tgsi_exec read an EMIT /
        ENDPRIM stream or a TG4 component: the raw 32-bit word of its first
        swizzle channel, as a signed int (None: not an immediate)."""
        if src.file != "IMM" or src.indirect is not None or not 0 <= src.index < len(self.shader.immediates):
            return None
        word = self.shader.immediates[src.index].words[src.swizzle[0]]
        return word - (1 << 32) if word & 0x80000000 else word

    # -- control flow -------------------------------------------------------------------

    def check_control_flow(self) -> tuple[dict[int, int], dict[int, int]]:
        insts = self.shader.instructions
        stack: list[tuple[str, int, bool]] = []  # (block kind, opener index, seen ELSE/DEFAULT)
        cases: dict[int, dict[int, int]] = {}  # SWITCH index -> CASE label -> first CASE index
        labelled: set[int] = set()  # SWITCH indices whose first CASE / DEFAULT was seen
        main_end: int | None = None  # the END of main (at the top level)
        main_return: int | None = None  # the first RET / inner END of main (a GLSL return)
        pairs: dict[int, int] = {}
        subs: dict[int, int] = {}
        pending: dict[int, int] = {}  # IF index waiting for its ELSE/ENDIF target
        for i, inst in enumerate(insts):
            info = OPCODES.get(inst.opcode)
            if info is None:
                continue
            name = inst.opcode
            if info.block_role == "open":
                if info.block == "sub" and stack:
                    at = stack[-1][1]
                    self.fail(i, inst, f"BGNSUB inside the {_opened(at, insts[at])}")
                if _before_first_case(stack, labelled):
                    # An IF / loop / SWITCH opening there would be GLSL code between
                    # `switch (...) {` and its first label: a syntax error on the host.
                    self.fail(i, inst, "instruction inside SWITCH before any CASE or DEFAULT")
                stack.append((info.block, i, False))
                continue
            if info.block_role in ("middle", "close", "case"):
                if not stack or stack[-1][0] != info.block:
                    if stack:
                        at = stack[-1][1]
                        self.fail(i, inst, f"{name} does not close the {_opened(at, insts[at])}")
                    self.fail(
                        i,
                        inst,
                        f"{name} without a matching "
                        f"{ {'if': 'IF/UIF', 'loop': 'BGNLOOP', 'sub': 'BGNSUB', 'switch': 'SWITCH'}[info.block] }",
                    )
                kind, at, seen = stack[-1]
                if info.block_role == "middle":
                    if seen:
                        self.fail(i, inst, f"second ELSE for the {_opened(at, insts[at])}")
                    pairs[pending.pop(at, at)] = i
                    pending[at] = i
                    stack[-1] = (kind, at, True)
                elif info.block_role == "case":
                    labelled.add(at)
                    label = self._immediate_word(inst.srcs[0]) if name == "CASE" and inst.srcs else None
                    if label is not None:
                        # GLSL 4.50 section 6.2: the labels of a switch are distinct.
                        first = cases.setdefault(at, {}).setdefault(label, i)
                        if first != i:
                            self.fail(
                                i,
                                inst,
                                f"CASE {label} repeats the label of CASE at instruction {first} in the same SWITCH",
                            )
                    if name == "DEFAULT":
                        if seen:
                            self.fail(i, inst, f"second DEFAULT in the {_opened(at, insts[at])}")
                        stack[-1] = (kind, at, True)
                else:
                    stack.pop()
                    if kind == "if":
                        pairs[pending.pop(at, at)] = i
                    else:
                        pairs[at] = i
                        if kind == "loop":
                            pairs[i] = at
                        if kind == "sub":
                            subs[at] = i
                continue
            if main_end is not None and not stack and name != "END":
                # Past main's END only subroutines follow (tgsi.rst "END"): an instruction
                # there would never run, yet the emitter would declare what it uses.
                self.fail(i, inst, f"{name} after END (instruction {main_end}) is outside any BGNSUB / ENDSUB")
            if name == "END" and not stack and main_end is None:
                main_end = i
            elif name in ("RET", "END") and main_end is None and main_return is None:
                if not any(k == "sub" for k, _, _ in stack):
                    main_return = i
            reason = rules.stage_refusal(name, self.proc, bool(stack), main_return)
            if reason is not None:
                self.fail_unsupported(i, inst, reason)
            if name == "BRK" and not any(k in ("loop", "switch") for k, _, _ in stack):
                self.fail(i, inst, "BRK outside of a loop or switch")
            if name in ("CONT", "BREAKC") and not any(k == "loop" for k, _, _ in stack):
                self.fail(i, inst, f"{name} outside of a loop")
            if _before_first_case(stack, labelled):
                self.fail(i, inst, "instruction inside SWITCH before any CASE or DEFAULT")
        if stack:
            kind, at, _ = stack[-1]
            closer = {"if": "ENDIF", "loop": "ENDLOOP", "sub": "ENDSUB", "switch": "ENDSWITCH"}
            self.fail(at, insts[at], f"{insts[at].opcode} is never closed (missing {closer[kind]})")
        return pairs, subs

    # -- summary -------------------------------------------------------------------------

    def run(self) -> ShaderInfo:
        shader = self.shader
        self.check_declarations()
        properties = {p.name: p.value for p in shader.properties}
        reason = rules.clip_cull_refusal(properties)
        if reason is not None:
            raise ShaderValidationError(reason)
        if shader.processor == "COMP":
            reason = rules.block_size_refusal(properties)
            if reason is not None:
                raise UnsupportedError(reason)
        for i, inst in enumerate(shader.instructions):
            self.check_instruction(i, inst)
        pairs, subs = self.check_control_flow()
        return self.summarize(pairs, subs)

    def summarize(self, pairs, subs) -> ShaderInfo:
        shader, proc = self.shader, self.proc
        ranges: dict[str, list[tuple[int, int]]] = {}
        num: dict[str, int] = {}
        const_buffers: dict[int, int] = {}
        hw_atomics: dict[int, int] = {}
        temp_arrays: dict[int, tuple[int, int]] = {}
        inputs, outputs, svs = [], [], []
        for d in shader.declarations:
            ranges.setdefault(d.file, []).append((d.first, d.last))
            num[d.file] = max(num.get(d.file, 0), d.last + 1)
            if d.file == "CONST":
                b = d.dimension or 0
                const_buffers[b] = max(const_buffers.get(b, 0), d.last + 1)
            if d.file == "HWATOMIC":
                b = d.dimension or 0
                hw_atomics[b] = max(hw_atomics.get(b, 0), d.last + 1)
            if d.file == "TEMP" and d.array_id:
                temp_arrays[d.array_id] = (d.first, d.last)
            target = {"IN": inputs, "OUT": outputs, "SV": svs}.get(d.file)
            if target is not None:
                for reg in range(d.first, d.last + 1):
                    target.append(
                        IORegister(
                            d.file,
                            reg,
                            d.semantic,
                            d.semantic_index + (reg - d.first) if d.semantic else 0,
                            d.interpolate,
                            d.location,
                            d.usage_mask,
                            d.array_id,
                            d.invariant,
                            d.stream,
                        )
                    )
        num["IMM"] = len(shader.immediates)

        indirect, dim_indirect = set(), set()
        used: dict[str, set] = {f: set() for f in ("SAMP", "SVIEW", "IMAGE", "BUFFER", "MEMORY")}
        sampler_targets: dict[int, list[str]] = {}
        written_outputs = set()
        flags = dict.fromkeys(
            (
                "uses_kill",
                "uses_demote",
                "uses_derivatives",
                "uses_fp64",
                "uses_int64",
                "uses_atomics",
                "uses_barrier",
                "uses_subroutines",
                "uses_fbfetch",
                "uses_interp_opcodes",
                "uses_legacy_opcodes",
            ),
            False,
        )
        streams = {0}
        for _i, _inst, op in shader.iter_operands():
            if op.indirect is not None:
                indirect.add(op.file)
            if op.dim_indirect is not None:
                dim_indirect.add(op.file)
            if op.file in used:
                used[op.file].add(op.index)
            if isinstance(op, DstRegister) and op.file == "OUT":
                written_outputs.add(op.index)
        for inst in shader.instructions:
            info = OPCODES[inst.opcode]
            name = inst.opcode
            if name in ("KILL", "KILL_IF"):
                flags["uses_kill"] = True
            if name == "DEMOTE":
                flags["uses_demote"] = True
            if info.derivatives or (info.implicit_lod and proc == "FRAG"):
                flags["uses_derivatives"] = True
            types = set(info.src_types) | {info.dst_type}
            if inst.opcode in ("MOV", "UCMP"):
                # untyped moves of 64-bit immediates still mean 64-bit data
                types |= {
                    _IMM_TYPE_KIND.get(shader.immediates[s.index].type, "")
                    for s in inst.srcs
                    if s.file == "IMM" and s.indirect is None and 0 <= s.index < len(shader.immediates)
                }
            if "double" in types:
                flags["uses_fp64"] = True
            if types & {"int64", "uint64"}:
                flags["uses_int64"] = True
            if info.group == "atomic":
                flags["uses_atomics"] = True
            if name == "BARRIER":
                flags["uses_barrier"] = True
            if name in ("CAL", "BGNSUB"):
                flags["uses_subroutines"] = True
            if name == "FBFETCH":
                flags["uses_fbfetch"] = True
            if info.group == "interp":
                flags["uses_interp_opcodes"] = True
            if info.legacy:
                flags["uses_legacy_opcodes"] = True
            if info.is_tex and inst.texture:
                for s in inst.srcs:
                    if s.file in ("SAMP", "SVIEW"):
                        lst = sampler_targets.setdefault(s.index, [])
                        if inst.texture not in lst:
                            lst.append(inst.texture)
            if name in ("EMIT", "ENDPRIM") and inst.srcs:
                stream = self._immediate_component(inst.srcs[0])
                if stream is not None:
                    streams.add(stream)
        for d in shader.declarations:
            if d.file == "OUT":
                streams.update(d.used_streams)

        writes: dict[str, bool] = {}
        table = _FS_OUTPUT_FLAGS if proc == "FRAG" else _GEOM_OUTPUT_FLAGS
        for reg in outputs:
            flag = table.get(reg.semantic or "")
            if flag and reg.index in written_outputs:
                writes[flag] = True
        sample_shading = any(r.semantic in ("SAMPLEID", "SAMPLEPOS") for r in svs) or any(
            r.location == "SAMPLE" for r in inputs
        )
        return ShaderInfo(
            shader=self.shader,
            processor=proc,
            ranges={f: tuple(r) for f, r in ranges.items()},
            num_registers=num,
            const_buffers=const_buffers,
            hw_atomic_buffers=hw_atomics,
            inputs=tuple(inputs),
            outputs=tuple(outputs),
            system_values=tuple(svs),
            indirect_files=frozenset(indirect),
            dim_indirect_files=frozenset(dim_indirect),
            temp_arrays=temp_arrays,
            samplers_used=tuple(sorted(used["SAMP"])),
            sampler_views_used=tuple(sorted(used["SVIEW"])),
            images_used=tuple(sorted(used["IMAGE"])),
            buffers_used=tuple(sorted(used["BUFFER"])),
            memory_used=tuple(sorted(used["MEMORY"])),
            memory_types=self._memory_types(used["MEMORY"]),
            sampler_targets={k: tuple(v) for k, v in sampler_targets.items()},
            properties={p.name: p.value for p in shader.properties},
            opcodes_used=frozenset(inst.opcode for inst in shader.instructions),
            uses_sample_shading=sample_shading,
            uses_bindless=self.bindless,
            bindless_use=self.bindless_use,
            num_streams=max(streams) + 1 if proc == "GEOM" else 1,
            block_pairs=pairs,
            subroutines=subs,
            **writes,
            **flags,
        )

    def _memory_types(self, used) -> dict[int, str]:
        types: dict[int, str] = {}
        for d in self.shader.declarations:
            if d.file == "MEMORY":
                for reg in range(d.first, d.last + 1):
                    types[reg] = d.memory_type or "GLOBAL"
        sole = self.sole_memory_decl()
        for index in used:
            if index not in types and sole is not None:
                types[index] = sole.memory_type or "GLOBAL"
        return types

    def _immediate_component(self, src: SrcRegister) -> int | None:
        if src.file != "IMM" or src.indirect is not None:
            return None
        if not 0 <= src.index < len(self.shader.immediates):
            return None
        imm = self.shader.immediates[src.index]
        if imm.is_64bit:
            return None
        word = imm.words[src.swizzle[0]]
        if imm.type == "FLT32":
            value = imm.values[src.swizzle[0]]
            return int(value) if value == value and 0 <= value < 4 else None
        return word if word < 4 else None


__all__ = ["validate", "ShaderInfo", "IORegister"]
