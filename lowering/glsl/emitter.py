"""The GLSL emitter: drives the per-opcode modules and assembles the shader.

``to_glsl`` parses (if given text), validates (unless given ``validate``'s
record, which a pipe shader CSO keeps from create), plans registers
(``types.py``), then walks the instructions, each handled by a row of the
tables in ``alu.py``, ``texture.py``, ``memory.py`` and ``flow.py``.  The
handler API of ``Emitter`` and the layout of the result: docs/lowering.md
("Module map").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .. import opcodes
from ..bindings import BindingLayout
from ..errors import InvalidArgumentError, UnsupportedError
from ..ir import Instruction, Shader
from ..parser import parse
from ..validate import ShaderInfo, validate
from . import cfg, passes, zero_init
from .decls import Decls
from .exprs import Expr, binary, bitcast, call, component, construct, literal, splat, swizzle, type_name, var
from .exprs import negate as negated
from .reflection import ConstantBufferInfo, Reflection
from .requirements import Requirements
from .signatures import UNTYPED, modifier_type, operand_types
from .stages import IOMap, semantic_type, stage_layout
from .sysval_block import BLOCK_NAME as SYSVALS_BLOCK
from .sysval_block import declaration as sysvals_declaration
from .types import RegisterPlan, array_id_of, plan_registers
from .variant import VariantKey
from .views import ComponentView, VectorView

_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[A-Za-z0-9_]+\])?(\.[xyzw]+)?$")


def _is_simple(text: str) -> bool:
    """True for a variable, array element or swizzle (cheap to repeat)."""
    return bool(_SIMPLE.match(text))


GLSL_VERSIONS = (330, 400, 410, 420, 430, 440, 450, 460)
STAGE_PREFIX = {"VERT": "vs", "TESS_CTRL": "tcs", "TESS_EVAL": "tes", "GEOM": "gs", "FRAG": "fs", "COMP": "cs"}
GL_SHADER_TYPES = {
    "VERT": 0x8B31,
    "FRAG": 0x8B30,
    "GEOM": 0x8DD9,
    "TESS_CTRL": 0x8E88,
    "TESS_EVAL": 0x8E87,
    "COMP": 0x91B9,
}
INDENT = "    "
#: Deepest indentation written: past it nested blocks line up, so the source stays
#: linear in the program's size (2,000 nested loops would otherwise be 16 MB of spaces).
MAX_INDENT = 16


@dataclass(frozen=True)
class GLSLShader:
    """A lowered shader: complete GLSL ``source``, TGSI ``stage`` and ``reflection``."""

    source: str
    stage: str
    reflection: Reflection

    @property
    def gl_shader_type(self) -> int:
        """The GL enum for glCreateShader (GL_VERTEX_SHADER, ...)."""
        return GL_SHADER_TYPES[self.stage]


def to_glsl(
    text_or_shader: str | Shader | ShaderInfo,
    glsl_version: int = 330,
    key: VariantKey | None = None,
    extensions=frozenset(),
    bindings: BindingLayout | None = None,
    req_local_mem: int | None = None,
    host_facts=frozenset(),
) -> GLSLShader:
    """Lower TGSI (text, a parsed ``Shader``, or the ``ShaderInfo`` that
    ``validate`` returned for one, which is not validated again) to GLSL
    ``glsl_version``.

    ``extensions`` are the GL extension names the host has (an ``#extension``
    is emitted only for those the shader uses); ``bindings`` is the binding
    convention (default: ``BindingLayout.default_for(glsl_version)``);
    ``req_local_mem`` is the compute state's shared memory size in bytes;
    ``host_facts`` names the host behaviours of ``requirements.HOST_FACTS``
    that hold (glpipe probes them).
    Raises TGSIParseError / ShaderValidationError for bad TGSI and
    UnsupportedError (naming the opcode or feature and what would grant it)
    when this GLSL version and these extensions cannot express the shader.
    """
    if glsl_version not in GLSL_VERSIONS:
        raise InvalidArgumentError(f"glsl_version must be one of {GLSL_VERSIONS}, not {glsl_version!r}")
    if isinstance(text_or_shader, ShaderInfo) and text_or_shader.shader is not None:
        info = text_or_shader  # validated once, by whoever made the record
    elif isinstance(text_or_shader, str):
        info = validate(parse(text_or_shader))
    elif isinstance(text_or_shader, Shader):
        info = validate(text_or_shader)
    else:
        raise InvalidArgumentError(
            "to_glsl takes TGSI text, a lowering.Shader or the ShaderInfo validate() "
            f"returned, not {type(text_or_shader).__name__}"
        )
    key = key if key is not None else VariantKey()
    if not isinstance(key, VariantKey):
        raise InvalidArgumentError(f"key must be a VariantKey, not {type(key).__name__}")
    layout = bindings if bindings is not None else BindingLayout.default_for(glsl_version, extensions)
    return Emitter(info, glsl_version, key, frozenset(extensions), layout, req_local_mem, frozenset(host_facts)).run()


class Emitter:
    """State of one lowering (docs/lowering.md "Module map" has the handler API)."""

    def __init__(
        self,
        info: ShaderInfo,
        glsl_version: int,
        key: VariantKey,
        extensions,
        layout: BindingLayout,
        req_local_mem: int | None,
        host_facts=frozenset(),
    ):
        self.info = info  # validate()'s record: the shader is well formed
        shader = self.shader = info.shader
        self.proc = shader.processor
        self.prefix = STAGE_PREFIX[self.proc]
        self.key = key
        self.req = Requirements(glsl_version, extensions, host_facts)
        self.layout = layout
        self.req_local_mem = req_local_mem
        self.decls = Decls(shader)
        self.insts: Sequence[Instruction] = shader.instructions
        self.structure = cfg.analyse(self.insts)
        cfg.call_graph_is_acyclic(self.insts, self.structure)
        self.fbfetch_outputs = {
            inst.srcs[0].index
            for inst in self.insts
            if inst.opcode == "FBFETCH" and inst.srcs and inst.srcs[0].file == "OUT"
        }
        self.plan: RegisterPlan = plan_registers(shader, self.decls, self.insts, self.structure, self._fixed_type)
        self.io = IOMap(self)
        self.lines: list[str] = []
        self.indent = 1
        self._tmp = 0
        self.helpers: dict[str, str] = {}
        self.resource_decls: list[str] = []
        self._resource_seen = set()
        self.global_decls: list[str] = []
        self.sysvals_used = False
        self.const_buffers: dict[int, ConstantBufferInfo] = {}
        self.writes_depth = False
        self.uses_discard = False
        self.streams = set()
        self.prologue: list[str] = []
        self.pass_state: dict[str, object] = {}  # scratch of the variant passes (passes/__init__.py)
        self.in_subroutine = False
        self.switch_stack: list[dict] = []
        # Filled by texture.py / memory.py.
        self.samplers = []
        self.shader_buffers = []
        self.images = []
        self.atomic_buffers = []
        self.shared_size = 0
        self.uniform_block_bindings: dict[str, int] = {}
        self.storage_block_bindings: dict[str, int] = {}
        self.sampler_units: dict[str, int] = {}
        self.image_units: dict[str, int] = {}
        self._block_size = None

    # -- small services ----------------------------------------------------------
    def line(self, text: str) -> None:
        """Append one statement line at the current indentation."""
        self.lines.append(INDENT * min(self.indent, MAX_INDENT) + text)

    def tmp(self, prefix: str = "tmp") -> str:
        """A fresh local name."""
        self._tmp += 1
        return f"glp_{prefix}{self._tmp}"

    def helper(self, name: str, code: str) -> str:
        """Register a helper function (once) and return its name."""
        if name not in self.helpers:
            self.helpers[name] = code
        return name

    _DECL_ORDER = ("ubo", "ssbo", "atomic", "sampler", "image")

    def declare(self, text: str, kind: str = "sampler", index: int = 0) -> None:
        """Add a resource declaration (once); declarations print grouped by
        ``kind`` (ubo, ssbo, atomic, sampler, image) and sorted by ``index``."""
        if text not in self._resource_seen:
            self._resource_seen.add(text)
            self.resource_decls.append((self._DECL_ORDER.index(kind), index, len(self.resource_decls), text))

    def pass_rows(self, hook: str) -> list:
        """The variant passes active at ``hook`` for this stage and key, in
        table order (``passes.rows``; a pass that re-runs others asks here,
        so the passes never import their own registry)."""
        return passes.rows(self, hook)

    def use_sysvals(self) -> None:
        """Mark the glp_sysvals block as used."""
        self.sysvals_used = True

    def binding_qualifier(self) -> bool:
        """True when ``layout(binding = n)`` may be written (GLSL 420)."""
        return self.req.core("binding_qualifier")

    def block_size(self) -> tuple[int, int, int] | None:
        """The compute block size (properties, else VariantKey.cs_block_size); None
        when it is variable (GL_ARB_compute_variable_group_size)."""
        if self._block_size is None:
            props = tuple(self.shader.property(f"CS_FIXED_BLOCK_{d}", 0) or 0 for d in ("WIDTH", "HEIGHT", "DEPTH"))
            if all(props):
                self._block_size = props
            elif self.key.cs_block_size:
                self._block_size = tuple(self.key.cs_block_size)
            else:
                self.req.need(
                    "compute_variable_group_size",
                    "a compute shader without CS_FIXED_BLOCK_* (or VariantKey.cs_block_size)",
                )
                self._block_size = ()
        return self._block_size or None

    def opinfo(self, i: int):
        """The opcode table row of instruction ``i``."""
        return opcodes.OPCODES[self.insts[i].opcode]

    def types(self, i: int):
        """(dst value types, src wanted types) of instruction ``i``."""
        return operand_types(self.insts[i], self.decls)

    # -- type of registers -------------------------------------------------------
    def _fixed_type(self, reg) -> str | None:
        """Type of a non-TEMP register fixed by its declaration (for type inference);
        None for IMM and CONST, which follow their users."""
        if reg.file == "IN" and self.proc != "VERT":
            semantic, _ = self.decls.input_semantic(reg.index)
            return semantic_type(self.proc, "IN", semantic, self.key)
        if reg.file == "OUT":
            semantic, sidx = self.decls.output_semantic(reg.index)
            return semantic_type(self.proc, "OUT", semantic, self.key, sidx)
        if reg.file == "SV":
            return semantic_type(self.proc, "SV", self.decls.sv_semantic(reg.index), self.key)
        if reg.file == "ADDR":
            return "int"
        return None

    def natural_type(self, i: int, s: int) -> str:
        """The GLSL base type source ``s`` of instruction ``i`` is stored in."""
        reg = self.insts[i].srcs[s]
        if reg.file == "TEMP":
            return self.temp_view(i, "s", s, reg).type
        if reg.file == "ADDR":
            return "int"
        if reg.file == "IMM":
            return {"FLT32": "float", "INT32": "int", "UINT32": "uint"}.get(
                self.decls.immediate_type(reg.index), "uint"
            )
        if reg.file == "CONST":
            return self.plan.const_types.get(reg.dimension or 0, "float")
        if reg.file in ("IN", "OUT", "SV") and reg.indirect is None:
            return self.io_view(i, "s", s, reg).type
        return "uint"

    def untyped_type(self, i: int) -> str:
        """The type an untyped move (MOV, UCMP, READ_*) of instruction ``i`` works in:
        its destination register's type."""
        inst = self.insts[i]
        if not inst.dsts:
            return "float"
        dst = inst.dsts[0]
        if dst.file == "TEMP":
            aid = array_id_of(self.plan, self.decls, dst)
            if aid is not None:
                return self.plan.arrays[aid].type
            return self.plan.var((i, "d", 0), dst.index).type
        if dst.file == "ADDR":
            return "int"
        if dst.file == "OUT":
            view = self.io.output_view(dst.index, self._vertex_text(i, "d", 0, dst))
            return view.type
        return "float"

    # -- operand reading -------------------------------------------------------------
    def src(self, i: int, s: int, positions: Sequence[int], want: str) -> Expr:
        """Source ``s`` of instruction ``i`` at swizzle ``positions``, as ``want``, modifiers applied."""
        inst = self.insts[i]
        reg = inst.srcs[s]
        if want == UNTYPED:
            want = self.untyped_type(i)
        comps = tuple(reg.swizzle[p] for p in positions)
        value = self.read_register(i, "s", s, reg, comps, want)
        if (reg.absolute or reg.negate) and want in ("int", "uint") and modifier_type(inst, s) == "float":
            # A float modifier on a source read as integer bits (UCMP's, the READ_*'s):
            # Gallium negates / takes |x| as a float, then moves the bits.
            modified = self.apply_modifiers(bitcast(value, "float"), reg.absolute, reg.negate)
            return bitcast(modified, want)
        return self.apply_modifiers(value, reg.absolute, reg.negate)

    def src_scalar(self, i: int, s: int, position: int, want: str) -> Expr:
        """One component (swizzle position ``position``) of source ``s``."""
        return self.src(i, s, (position,), want)

    def apply_modifiers(self, value: Expr, absolute: bool, negate: bool) -> Expr:
        """TGSI |x| then -x, in the value's type (integer negate is two's complement)."""
        t, n = value.type, value.n
        if absolute:
            if value.words is not None and t in ("float", "int"):
                words = [
                    w & 0x7FFFFFFF if t == "float" else (abs(w - (1 << 32)) if w & 0x80000000 else w)
                    for w in value.words
                ]
                value = literal(t, words)
            elif t == "uint":
                value = call(f"{type_name('uint', n)}(abs({type_name('int', n)}({value.text})))", t, n)
            else:
                value = call(f"abs({value.text})", t, n)
        if negate:
            if value.words is not None and t in ("float", "int", "uint"):
                words = [w ^ 0x80000000 if t == "float" else (-w) & 0xFFFFFFFF for w in value.words]
                value = literal(t, words)
            else:
                value = negated(value)
        return value

    def read_register(self, i: int, kind: str, n: int, reg, comps: Sequence[int], want: str) -> Expr:
        """Components ``comps`` of register operand ``reg`` as base type ``want`` (no modifiers)."""
        file = reg.file
        if file == "IMM" and reg.indirect is None:
            words = self.decls.immediate_words(reg.index)
            return literal(want, [words[c] for c in comps])
        if file == "IMM":
            idx = self.index_expr(i, kind + "i", n, reg.indirect, reg.index)
            self._declare_immediate_array()
            return bitcast(swizzle(var(f"glp_imm[{idx.text}]", "uint", 4), comps), want)
        if file == "TEMP":
            view = self.temp_view(i, kind, n, reg)
            return bitcast(view.read(comps), want)
        if file == "ADDR":
            return bitcast(swizzle(var(f"addr{reg.index}", "int", 4), comps), want)
        if file == "CONST":
            return bitcast(self.const_read(i, kind, n, reg, comps), want)
        if file in ("IN", "OUT", "SV"):
            if reg.indirect is not None:
                return self._indirect_io_read(i, kind, n, reg, comps, want)
            view = self.io_view(i, kind, n, reg)
            return self.read_view(view, comps, want)
        raise InvalidArgumentError(f"instruction {i} ({self.insts[i].opcode}): {file} is not a value operand")

    def read_view(self, view, comps: Sequence[int], want: str) -> Expr:
        """Read ``comps`` of an IO view as ``want``."""
        if isinstance(view, VectorView):
            return bitcast(view.read(comps), want)
        vec = view.read_vector(comps)
        if vec is not None:
            return bitcast(vec, want)
        if len(set(comps)) == 1 and len(comps) > 1:  # .xxxx of a scalar built-in
            return splat(bitcast(view.read_parts(comps[:1])[0], want), len(comps))
        parts = [bitcast(p, want) for p in view.read_parts(comps)]
        return construct(parts, want)

    def temp_view(self, i: int, kind: str, n: int, reg) -> VectorView:
        """The GLSL variable (or array element) of a TEMP operand."""
        aid = array_id_of(self.plan, self.decls, reg)
        if aid is not None:
            arr = self.plan.arrays[aid]
            if reg.indirect is not None:
                idx = self.index_expr(i, kind + "i", n, reg.indirect, reg.index - arr.first)
                return VectorView(f"{arr.name}[{idx.text}]", arr.type)
            return VectorView(f"{arr.name}[{reg.index - arr.first}]", arr.type)
        v = self.plan.var((i, kind, n), reg.index)
        return VectorView(v.name, v.type)

    def index_expr(self, i: int, kind: str, n: int, ind, base: int) -> Expr:
        """``base + <address register component>`` as an int expression."""
        if ind.file == "ADDR":
            addr = var(f"addr{ind.index}.{'xyzw'[ind.component]}", "int", 1)
        elif ind.file == "TEMP":
            aid = self.plan.array_of_register.get(ind.index)
            if aid is not None:
                arr = self.plan.arrays[aid]
                addr = bitcast(var(f"{arr.name}[{ind.index - arr.first}].{'xyzw'[ind.component]}", arr.type, 1), "int")
            else:
                v = self.plan.var((i, kind, n), ind.index)
                addr = bitcast(var(f"{v.name}.{'xyzw'[ind.component]}", v.type, 1), "int")
        elif ind.file == "IMM":
            addr = literal("int", (self.decls.immediate_words(ind.index)[ind.component],))
        else:
            raise UnsupportedError(f"indirect addressing through {ind.file} is not supported (only ADDR, TEMP and IMM)")
        if addr.words is not None:
            return literal("int", ((addr.words[0] + base) & 0xFFFFFFFF,))
        if base == 0:
            return addr
        return binary(addr, "+" if base > 0 else "-", literal("int", (abs(base),)))

    def _vertex_text(self, i: int, kind: str, n: int, reg) -> str | None:
        """GLSL text of the vertex (dimension) index of a 2D IN/OUT operand."""
        if reg.dimension is None:
            return None
        if reg.dim_indirect is not None:
            index = self.index_expr(i, kind + "d", n, reg.dim_indirect, reg.dimension).text
            return self.io.bounded_vertex(reg.file, index)  # docs/lowering.md "Indirect vertex indices"
        return str(reg.dimension)

    def io_view(self, i: int, kind: str, n: int, reg):
        """The view of an IN / OUT / SV operand (direct register index)."""
        if reg.file == "SV":
            return self.io.sv_view(reg.index)
        vertex = self._vertex_text(i, kind, n, reg)
        if reg.file == "IN":
            return self.io.input_view(reg.index, vertex)
        if reg.file == "OUT" and reg.index in self.io.local_outputs:
            return VectorView(self.io.local_outputs[reg.index], "float")
        if reg.file == "OUT" and self.proc == "TESS_CTRL" and kind == "d":
            vertex = "gl_InvocationID" if vertex is not None else None
        return self.io.output_view(reg.index, vertex)

    def _io_range(self, reg) -> list[int]:
        """Registers an indirect IN/OUT access may reach: those of its ARRAY(id)
        declarations, or (no id) every declared register of the file."""
        aid = reg.indirect.array_id if reg.indirect is not None else 0
        decls = [d for d in self.shader.declarations if d.file == reg.file and (not aid or d.array_id == aid)]
        if not decls:
            raise InvalidArgumentError(f"indirect {reg.file} access without a declaration")
        return sorted({r for d in decls for r in range(d.first, d.last + 1)})

    def _indirect_io_read(self, i, kind, n, reg, comps, want) -> Expr:
        """IN[ADDR[0].x + k]: a helper function switching over the declared range."""
        regs = self._io_range(reg)
        vertex = self._vertex_text(i, kind, n, reg)
        idx = self.index_expr(i, kind + "i", n, reg.indirect, reg.index)
        name = f"glp_read_{reg.file.lower()}_{regs[0]}_{regs[-1]}"
        params = "int index" + (", int vertex" if vertex is not None else "")
        cases = []
        for r in regs:
            view = (
                self.io.input_view(r, "vertex" if vertex is not None else None)
                if reg.file == "IN"
                else self.io.output_view(r, "vertex" if vertex is not None else None)
            )
            cases.append(f"    case {r}: return {self.read_view(view, (0, 1, 2, 3), 'uint').text};")
        body = "\n".join(cases)
        self.helper(
            name, f"uvec4 {name}({params})\n{{\n    switch (index) {{\n{body}\n    }}\n    return uvec4(0u);\n}}"
        )
        args = idx.text + (f", {vertex}" if vertex is not None else "")
        return bitcast(swizzle(call(f"{name}({args})", "uint", 4), comps), want)

    def const_read(self, i: int, kind: str, n: int, reg, comps: Sequence[int]) -> Expr:
        """Components of a CONST operand in the buffer's declared type."""
        buf = reg.dimension or 0
        if reg.dim_indirect is not None:
            idx = (
                self.index_expr(i, kind + "i", n, reg.indirect, reg.index)
                if reg.indirect is not None
                else literal("int", (reg.index,))
            )
            bufidx = self.index_expr(i, kind + "d", n, reg.dim_indirect, buf)
            name = self._const_switch()
            return swizzle(call(f"{name}({bufidx.text}, {idx.text})", "uint", 4), comps)
        block = self.constant_buffer(buf)
        ctype = self.plan.const_types.get(buf, "float")
        if reg.indirect is not None:
            idx = self.index_expr(i, kind + "i", n, reg.indirect, reg.index)
            return swizzle(var(f"{block}.c[{idx.text}]", ctype, 4), comps)
        return swizzle(var(f"{block}.c[{reg.index}]", ctype, 4), comps)

    def constant_buffer(self, buf: int) -> str:
        """Declare constant buffer ``buf`` (once); returns its instance name."""
        instance = f"cb{buf}"
        if buf in self.const_buffers:
            return instance
        size = self.decls.const_sizes.get(buf)
        if size is None:
            raise InvalidArgumentError(f"CONST[{buf}][...] is used but buffer {buf} is not declared")
        limit = self.layout.limits.max_uniform_block_size // 16
        if size > limit:
            raise UnsupportedError(
                f"constant buffer {buf} declares {size} vec4s; the host's GL_MAX_UNIFORM_BLOCK_SIZE allows {limit}"
            )
        binding = self.layout.ubo_binding(self.proc, buf)
        block = f"glp_{self.prefix}_cb{buf}"
        ctype = type_name(self.plan.const_types.get(buf, "float"), 4)
        qual = f", binding = {binding}" if self.binding_qualifier() else ""
        self.declare(f"layout(std140{qual}) uniform {block}\n{{\n    {ctype} c[{size}];\n}} {instance};", "ubo", buf)
        self.const_buffers[buf] = ConstantBufferInfo(buf, size, block, binding)
        self.uniform_block_bindings[block] = binding
        return instance

    def _const_switch(self) -> str:
        """A helper reading CONST[b][i] with a computed buffer index ``b``."""
        name = "glp_read_const"
        cases = []
        for buf in sorted(self.decls.const_sizes):
            block = self.constant_buffer(buf)
            ctype = self.plan.const_types.get(buf, "float")
            cases.append(f"    case {buf}: return {bitcast(var(f'{block}.c[index]', ctype, 4), 'uint').text};")
        body = "\n".join(cases)
        self.helper(
            name,
            f"uvec4 {name}(int block, int index)\n{{\n    switch (block) {{\n{body}\n    }}\n    return uvec4(0u);\n}}",
        )
        return name

    def _declare_immediate_array(self) -> None:
        imms = self.shader.immediates
        items = ", ".join(literal("uint", imm.words).text for imm in imms)
        decl = f"const uvec4 glp_imm[{len(imms)}] = uvec4[{len(imms)}]({items});"
        if decl not in self.global_decls:
            self.global_decls.append(decl)

    # -- 64-bit lanes --------------------------------------------------------------------
    def src_wide(self, i: int, s: int, lane: int, want: str) -> Expr:
        """Lane ``lane`` of source ``s`` as a ``double`` / ``int64`` / ``uint64`` scalar."""
        reg = self.insts[i].srcs[s]
        positions = (0, 1) if lane == 0 else (2, 3)
        if reg.file == "IMM" and reg.indirect is None:
            from .exprs import double_literal, int64_literal

            words = self.decls.immediate_words(reg.index)
            lo, hi = words[reg.swizzle[positions[0]]], words[reg.swizzle[positions[1]]]
            value = double_literal(lo, hi) if want == "double" else int64_literal(lo, hi, want)
        else:
            pair = (
                self.src(i, s, positions, "uint")
                if not (reg.negate or reg.absolute)
                else self.read_register(i, "s", s, reg, tuple(reg.swizzle[p] for p in positions), "uint")
            )
            func = {"double": "packDouble2x32", "uint64": "packUint2x32", "int64": "packInt2x32"}[want]
            arg = pair.text if want != "int64" else bitcast(pair, "int").text
            value = call(f"{func}({arg})", want, 1)
        if reg.absolute:
            # GLSL has no abs(uint64_t): TGSI's |x| on an integer is the signed one (tgsi.rst).
            text = f"uint64_t(abs(int64_t({value.text})))" if want == "uint64" else f"abs({value.text})"
            value = call(text, want, 1)
        if reg.negate:
            value = negated(value)
        return value

    def wide_to_words(self, value: Expr) -> Expr:
        """A double / int64 / uint64 scalar as its two words (uvec2)."""
        func = {"double": "unpackDouble2x32", "uint64": "unpackUint2x32", "int64": "unpackInt2x32"}[value.type]
        words = call(f"{func}({value.text})", "int" if value.type == "int64" else "uint", 2)
        return bitcast(words, "uint")

    # -- writing -----------------------------------------------------------------------
    def write(self, i: int, d: int, comps: Sequence[int], value: Expr) -> None:
        """Store ``value`` (one component per entry of ``comps``, or a scalar to
        replicate) into destination ``d`` of instruction ``i``."""
        inst = self.insts[i]
        dst = inst.dsts[d]
        comps = tuple(comps)
        if not comps:
            return
        if value.n != len(comps) and value.n != 1:
            raise AssertionError(f"{inst.opcode}: value of {value.n} components for {len(comps)} channels")
        if inst.saturate and value.type in ("float", "int", "uint"):
            f = bitcast(value, "float")
            value = call(f"clamp({f.text}, 0.0, 1.0)", "float", f.n)
        if inst.precise and dst.file != "TEMP" and value.words is None and self.req.has("precise"):
            # _PRECISE into an output: compute into a precise local first (TEMPs are
            # declared precise themselves).
            self.req.need("precise", "_PRECISE")
            name = self.tmp("precise")
            self.line(f"precise {value.glsl_type} {name} = {value.text};")
            value = var(name, value.type, value.n)
        if dst.file == "OUT" and dst.indirect is None:
            view = self.io_view(i, "d", d, dst)
            if isinstance(view, ComponentView):  # scatter: a scalar stays a scalar
                self.store_view(view, comps, value)
                return
        if value.n == 1 and len(comps) > 1:
            value = splat(value, len(comps))
        if dst.file == "TEMP":
            view = self.temp_view(i, "d", d, dst)
            self.line(f"{view.lvalue(comps)} = {bitcast(value, view.type).text};")
            return
        if dst.file == "ADDR":
            lv = f"addr{dst.index}" + ("" if comps == (0, 1, 2, 3) else "." + "".join("xyzw"[c] for c in comps))
            self.line(f"{lv} = {bitcast(value, 'int').text};")
            return
        if dst.file == "OUT":
            if dst.indirect is not None:
                self._indirect_output_write(i, d, dst, comps, value)
                return
            view = self.io_view(i, "d", d, dst)
            self.store_view(view, comps, value)
            return
        if dst.file == "NULL":
            return
        raise InvalidArgumentError(f"instruction {i} ({inst.opcode}): cannot write to {dst.file}")

    def store_view(self, view, comps: Sequence[int], value: Expr) -> None:
        """Assign ``value`` to ``comps`` of an IO view (scattering into built-ins)."""
        if isinstance(view, VectorView):
            if not view.writable:
                raise InvalidArgumentError(f"{view.text} is read-only")
            self.line(f"{view.lvalue(comps)} = {bitcast(value, view.type).text};")
            return
        targets = [
            (k, view.entries[c]) for k, c in enumerate(comps) if view.entries[c] is not None and view.entries[c].lvalue
        ]
        if not targets:
            return
        if len(targets) > 1 and value.words is None and value.parts is None and not _is_simple(value.text):
            name = self.tmp("v")
            self.line(f"{value.glsl_type} {name} = {value.text};")
            value = var(name, value.type, value.n)
        for k, entry in targets:
            self.line(f"{entry.text} = {bitcast(component(value, k), entry.type).text};")

    def _indirect_output_write(self, i, d, dst, comps, value: Expr) -> None:
        regs = self._io_range(dst)
        idx = self.index_expr(i, "di", d, dst.indirect, dst.index)
        vertex = self._vertex_text(i, "d", d, dst)
        if self.proc == "TESS_CTRL" and vertex is not None:
            vertex = "gl_InvocationID"
        if value.words is None and not _is_simple(value.text):
            name = self.tmp("v")
            self.line(f"{value.glsl_type} {name} = {value.text};")
            value = var(name, value.type, value.n)
        self.line(f"switch ({idx.text}) {{")
        for r in regs:
            self.line(f"case {r}:")
            self.indent += 1
            view = self.io.output_view(r, vertex)
            self.store_view(view, comps, value)
            self.line("break;")
            self.indent -= 1
        self.line("}")

    # -- the walk ------------------------------------------------------------------------
    def emit_range(self, start: int, end: int) -> None:
        """Emit instructions ``start`` .. ``end - 1`` (subroutine bodies are skipped:
        they become functions of their own)."""
        from .handlers import HANDLERS

        i = start
        while i < end:
            inst = self.insts[i]
            if inst.opcode == "BGNSUB" and i in self.structure.subroutines:
                i = self.structure.subroutines[i] + 1
                continue
            i += 1
            handler = HANDLERS.get(inst.opcode)
            try:
                if handler is None:
                    raise UnsupportedError(f"{inst.opcode} has no GLSL lowering")
                handler(self, i - 1, inst)
            except UnsupportedError as exc:
                if inst.opcode not in str(exc):
                    exc = UnsupportedError(f"{inst.opcode}: {exc}")
                if getattr(exc, "line", None) is None:
                    exc.line = inst.line  # source line, for the CLI's FILE:line
                raise exc from None

    def epilogue(self) -> list[str]:
        """Statements run before main returns (variant passes, color broadcast,
        window-space position)."""
        out: list[str] = []
        if self.proc == "FRAG":
            out += passes.fragment_end(self)  # clamp, alpha test: before the broadcast copies
        if self.proc == "FRAG" and self.shader.property("FS_COLOR0_WRITES_ALL_CBUFS", 0) and 0 in self.io.color_outputs:
            src = self.io.color_outputs[0]
            src_type = self.key.color_type(0)
            for cbuf in range(1, max(self.key.nr_cbufs, 1)):
                name = self._broadcast_output(cbuf)
                out.append(f"{name} = {bitcast(var(src, src_type, 4), self.key.color_type(cbuf)).text};")
        if self.io.window_space_position:
            self.use_sysvals()
            p = self.io.window_space_position
            out += [
                f"// VS_WINDOW_SPACE_POSITION: {p} is in window coordinates with 1/w in .w;",
                "// undo the viewport transform and restore w so GL's divide and viewport give it back.",
                f"gl_Position.w = ({p}.w != 0.0) ? 1.0 / {p}.w : 1.0;",
                f"gl_Position.xyz = ({p}.xyz - sysvals.viewport_translate.xyz) / sysvals.viewport_scale.xyz"
                f" * gl_Position.w;",
            ]
        if self.proc in ("VERT", "TESS_EVAL"):
            out += passes.vertex_end(self)  # a GS runs these before each EmitVertex (flow.py)
        return out

    def _broadcast_output(self, cbuf: int) -> str:
        name = f"glp_frag_color_{cbuf}"
        if cbuf not in self.io.color_outputs:
            gtype = type_name(self.key.color_type(cbuf), 4)
            self.io._declare(f"layout(location = {cbuf}) out {gtype} {name};")
            self.io.color_outputs[cbuf] = name
        return name

    def emit_return(self) -> None:
        """``return`` from the current function (main runs its epilogue first)."""
        if not self.in_subroutine:
            for text in self.epilogue():
                self.line(text)
        self.line("return;")

    def run(self) -> GLSLShader:
        """Emit everything and assemble the source."""
        if self.info.uses_bindless:
            # The texture handlers read the SVIEW / SAMP of an operand's index:
            # a handle in a register would silently become unit 0.
            raise UnsupportedError(
                f"{self.info.bindless_use}: a bindless handle needs GL_ARB_bindless_texture, "
                "which glpipe does not expose (PIPE_CAP_BINDLESS_TEXTURE 0)"
            )
        st = self.structure
        layout_lines = stage_layout(self)
        self.io.declare_all()
        passes.declare(self)
        # Registers start at zero, as in Gallium's software drivers (zero_init.py).
        self.prologue += zero_init.array_prologue(self) + zero_init.output_prologue(self)
        passes.prologue(self)
        # Main body.
        body_main: list[str] = []
        self.lines = body_main
        self.indent = 1
        self.emit_range(0, st.main_end)
        for text in self.epilogue():
            self.line(text)
        # Subroutines.
        functions: list[str] = []
        for start, end in sorted(st.subroutines.items()):
            self.lines = []
            self.indent = 1
            self.in_subroutine = True
            self.emit_range(start + 1, end)
            self.in_subroutine = False
            functions.append(f"void glp_sub_{start}()\n{{\n" + "\n".join(self.lines) + "\n}")
        return self._assemble(layout_lines, body_main, functions)

    def _assemble(self, layout_lines, body_main, functions) -> GLSLShader:
        version = self.req.glsl_version
        reg_decls = zero_init.register_declarations(self)
        sysvals_binding = None
        if self.sysvals_used:
            sysvals_binding = self.layout.sysvals_binding
            qual = f", binding = {sysvals_binding}" if self.binding_qualifier() else ""
            self.uniform_block_bindings[SYSVALS_BLOCK] = sysvals_binding
        parts: list[str] = [f"#version {version} core"]
        parts += self.req.directives()
        parts.append(f"// glpipe: lowered from TGSI {self.proc}")
        sections: list[list[str]] = [layout_lines]
        if self.sysvals_used:
            sections.append([sysvals_declaration(qual)])
        sections.append([entry[-1] for entry in sorted(self.resource_decls)])
        sections.append(self.io.decl_lines)
        globals_ = list(self.global_decls)
        if functions:
            globals_ += reg_decls  # registers are shared with the subroutines
        sections.append(globals_)
        sections.append(list(self.helpers.values()))
        if functions:
            sections.append([f"void glp_sub_{start}();" for start in sorted(self.structure.subroutines)])
            sections.append(functions)
        main = ["void main()", "{"]
        if not functions:
            main += [INDENT + d for d in reg_decls]
        main += [INDENT + p for p in self.prologue]
        main += body_main
        main.append("}")
        sections.append(["\n".join(main)])
        text = "\n".join(parts) + "\n"
        for section in sections:
            if section:
                text += "\n" + "\n".join(section) + "\n"
        return GLSLShader(text, self.proc, self._reflection(sysvals_binding))

    def _reflection(self, sysvals_binding) -> Reflection:
        return Reflection(
            stage=self.proc,
            glsl_version=self.req.glsl_version,
            extensions=tuple(self.req.enabled),
            constant_buffers=tuple(sorted(self.const_buffers.values(), key=lambda c: c.index)),
            sysvals_binding=sysvals_binding,
            samplers=tuple(self.samplers),
            shader_buffers=tuple(self.shader_buffers),
            images=tuple(self.images),
            atomic_buffers=tuple(self.atomic_buffers),
            inputs=tuple(sorted(self.io.inputs, key=lambda v: v.index)),
            outputs=tuple(sorted(self.io.outputs, key=lambda v: v.index)),
            system_values=tuple(sorted(self.io.system_values)),
            streams=tuple(sorted(self.streams)),
            properties=tuple((p.name, p.value) for p in self.shader.properties),
            block_size=self.block_size() if self.proc == "COMP" else None,
            shared_memory_size=self.shared_size,
            needs_manual_binding=not self.binding_qualifier(),
            uniform_block_bindings=tuple(self.uniform_block_bindings.items()),
            storage_block_bindings=tuple(self.storage_block_bindings.items()),
            sampler_units=tuple(self.sampler_units.items()),
            image_units=tuple(self.image_units.items()),
            uses_discard=self.uses_discard,
            writes_depth=self.writes_depth,
            clip_distance_mask=passes.clip_distance_mask(self),
            cull_clip_mask=passes.cull_clip_mask(self),
        )


__all__ = ["to_glsl", "GLSLShader", "Emitter", "GLSL_VERSIONS"]
