"""Older producers' register files, mapped onto today's (see ``lowering.ir``).

* ``RES[n]`` (2011-2014 resources) -> ``SVIEW`` when declared with a return
  type, ``BUFFER`` when declared ``BUFFER, RAW``, otherwise ``IMAGE``;
* the bare compute names ``RGLOBAL RLOCAL RPRIVATE RINPUT`` (compute.c, 2012)
  -> ``MEMORY[k]`` with an implicit declaration of the matching memory type;
* ``IMMX`` immediate arrays -> ordinary immediates appended in order;
* ``TEMPX[a][i]`` indexable temporaries -> a ``TEMP`` range after the highest
  declared TEMP, declared ``ARRAY(a + 1)``.

The parser records what it saw in a ``LegacyFiles`` and calls ``rewrite``
once the whole text is read (operands may precede the declaration they need).
"""

from __future__ import annotations

from .ir import Declaration, Indirect, Instruction, Shader, TexOffset

# Bare register names of 2012-era compute TGSI and the MEMORY type they denote.
SPECIAL_MEMORY = {"RGLOBAL": "GLOBAL", "RLOCAL": "SHARED", "RPRIVATE": "PRIVATE", "RINPUT": "INPUT"}


class LegacyFiles:
    """What one parse saw of the legacy files, and the rewrite to today's files."""

    def __init__(self):
        self.res_files: dict[int, str] = {}  # RES index -> IMAGE/SVIEW/BUFFER
        self.immx: list[tuple[int, int]] = []  # (first IMM index, count) per IMMX decl
        self.tempx: dict[int, tuple[int, int]] = {}  # TEMPX array -> (first, last)
        self.tempx_decl_pos: dict[int, int] = {}  # TEMPX array -> index in the declarations

    def res_declaration(self, index: int, fields: dict) -> str:
        """Decide what a ``DCL RES[n]`` is in today's files, and fix its fields."""
        if fields.get("return_types"):
            new = "SVIEW"
            for key in ("raw", "writable", "image_format"):
                fields.pop(key, None)
        elif fields.get("target") == "BUFFER" and fields.get("raw"):
            new = "BUFFER"
            for key in ("target", "raw", "writable", "image_format"):
                fields.pop(key, None)
        else:
            new = "IMAGE"
        self.res_files[index] = new
        return new

    def tempx_declaration(self, decls: list, array: int, first: int, last: int, mask: int, line: int) -> None:
        """Record ``DCL TEMPX[array][first..last]``; a placeholder goes into ``decls``."""
        self.tempx[array] = (first, last)
        self.tempx_decl_pos[array] = len(decls)
        # placeholder, replaced in rewrite() once all TEMPs are known
        decls.append(Declaration(file="TEMPX", first=first, last=last, dimension=array, usage_mask=mask, line=line))

    def rewrite(self, shader: Shader) -> Shader:
        """Map RES / IMMX / TEMPX / RGLOBAL... onto today's files (see lowering.ir)."""
        decls = list(shader.declarations)
        # TEMPX arrays go after the highest TEMP, each as TEMP ARRAY(array + 1).
        next_temp = 1 + max((d.last for d in decls if d.file == "TEMP"), default=-1)
        tempx_base: dict[int, int] = {}
        for array in sorted(self.tempx):
            first, last = self.tempx[array]
            tempx_base[array] = next_temp - first
            size = last - first + 1
            old = decls[self.tempx_decl_pos[array]]
            decls[self.tempx_decl_pos[array]] = Declaration(
                file="TEMP",
                first=next_temp,
                last=next_temp + size - 1,
                usage_mask=old.usage_mask,
                array_id=array + 1,
                line=old.line,
            )
            next_temp += size
        # bare memory names get MEMORY[k] after the declared ones
        next_mem = 1 + max((d.last for d in decls if d.file == "MEMORY"), default=-1)
        memory_index: dict[str, int] = {}
        for _i, _inst, op in shader.iter_operands():
            if op.file in SPECIAL_MEMORY and op.file not in memory_index:
                memory_index[op.file] = next_mem
                decls.append(
                    Declaration(file="MEMORY", first=next_mem, last=next_mem, memory_type=SPECIAL_MEMORY[op.file])
                )
                next_mem += 1
        immx_base = self.immx[0][0] if self.immx else 0

        def remap(file: str, index: int, dim: int | None):
            if file == "RES":
                return self.res_files.get(index, "IMAGE"), index, dim
            if file in SPECIAL_MEMORY:
                return "MEMORY", memory_index[file], dim
            if file == "IMMX":
                return "IMM", immx_base + index, dim
            if file == "TEMPX":
                array = dim or 0
                return "TEMP", tempx_base.get(array, 0) + index, None
            return file, index, dim

        def fix_ind(ind: Indirect | None) -> Indirect | None:
            if ind is None:
                return None
            f, i, _ = remap(ind.file, ind.index, None)
            return Indirect(f, i, ind.component, ind.array_id)

        def fix(op):
            f, i, d = remap(op.file, op.index, op.dimension)
            array_id = op.array_id
            ind = fix_ind(op.indirect)
            if op.file == "TEMPX":
                array = (op.dimension or 0) + 1
                if ind is not None:
                    ind = Indirect(ind.file, ind.index, ind.component, array)
                else:
                    array_id = array
                dim_ind = None
            else:
                dim_ind = fix_ind(op.dim_indirect)
            return type(op)(
                **{
                    **op.__dict__,
                    "file": f,
                    "index": i,
                    "dimension": d,
                    "indirect": ind,
                    "dim_indirect": dim_ind,
                    "array_id": array_id,
                }
            )

        insts = []
        for inst in shader.instructions:
            offsets = tuple(TexOffset(*remap(o.file, o.index, None)[:2], o.swizzle) for o in inst.tex_offsets)
            insts.append(
                Instruction(
                    **{
                        **inst.__dict__,
                        "dsts": tuple(fix(d) for d in inst.dsts),
                        "srcs": tuple(fix(s) for s in inst.srcs),
                        "tex_offsets": offsets,
                    }
                )
            )
        return Shader(shader.processor, shader.properties, tuple(decls), shader.immediates, tuple(insts))


__all__ = ["LegacyFiles", "SPECIAL_MEMORY"]
