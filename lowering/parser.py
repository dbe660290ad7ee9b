"""TGSI text -> ``lowering.ir.Shader``, following the grammar of Mesa's
``tgsi_text.c``; older spellings are accepted and rewritten to the current form.

docs/lowering.md "TGSI text" lists what is accepted and the error format.
"""

from __future__ import annotations

from dataclasses import replace

from . import semantics as sem
from .errors import TGSIParseError
from .ir import (
    FILES,
    IMMEDIATE_TYPES,
    MEMORY_QUALIFIERS,
    MEMORY_TYPES,
    PROCESSORS,
    WRITEMASK_XYZW,
    Declaration,
    DstRegister,
    Immediate,
    Indirect,
    Instruction,
    Property,
    Shader,
    SrcRegister,
    TexOffset,
)
from .legacy import SPECIAL_MEMORY as _SPECIAL_MEMORY
from .legacy import LegacyFiles
from .lexer import Cursor, convert_literal
from .opcodes import OPCODES

_LEGACY_FILES = ("RES", "IMMX", "TEMPX")
_KNOWN_FILES = frozenset(FILES) | frozenset(_LEGACY_FILES)
_SWIZZLE = {"X": 0, "Y": 1, "Z": 2, "W": 3}
_MNEMONIC_SUFFIXES = (("_SAT_PRECISE", True, True), ("_SAT", True, False), ("_PRECISE", False, True))
_FILE_HINT = "a register file (TEMP, IN, OUT, CONST, IMM, SAMP, SVIEW, ...)"
_DIGITS = "0123456789"


def parse(text) -> Shader:
    """Parse TGSI ``text`` (str or bytes) into a ``Shader``; raises TGSIParseError."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("ascii", errors="replace")
    if not isinstance(text, str):
        raise TypeError(f"parse() wants TGSI text (str), got {type(text).__name__}")
    return _Parser(text).run()


def split_mnemonic(word: str) -> tuple[str, bool, bool] | None:
    """``"MOV_SAT"`` -> ``("MOV", True, False)``; None if no opcode matches."""
    word = word.upper()
    if word in OPCODES:
        return word, False, False
    for suffix, sat, precise in _MNEMONIC_SUFFIXES:
        if word.endswith(suffix) and word[: -len(suffix)] in OPCODES:
            return word[: -len(suffix)], sat, precise
    return None


class _Parser:
    """One parse; state mirrors tgsi_text's translate_ctx."""

    def __init__(self, text: str):
        self.c = Cursor(text)
        self.processor = ""
        self.implied_size = 0
        self.properties: list[Property] = []
        self.decls: list[Declaration] = []
        self._decl_slots: dict[Declaration, int] = {}  # declaration sans mask -> index in decls
        self.imms: list[Immediate] = []
        self.insts: list[Instruction] = []
        self.legacy = LegacyFiles()
        self.uses_legacy = False

    # -- top level -------------------------------------------------------------

    def run(self) -> Shader:
        c = self.c
        c.skip_ws()
        pos = c.pos
        header = c.word()
        if header not in PROCESSORS:
            raise c.expected("a shader header (VERT, FRAG, GEOM, TESS_CTRL, TESS_EVAL or COMP)", pos)
        self.processor = header
        if header in ("TESS_CTRL", "TESS_EVAL"):
            self.implied_size = 32
        while True:
            before = c.pos
            newline = c.skip_ws()
            if c.at_end():
                break
            if c.pos == before:
                raise c.expected("whitespace or end of line")
            if not newline and not self._starts_statement():
                raise c.expected("end of line")
            self._statement()
        shader = Shader(
            processor=self.processor,
            properties=tuple(self.properties),
            declarations=tuple(self.decls),
            immediates=tuple(self.imms),
            instructions=tuple(self.insts),
        )
        if self.uses_legacy:
            shader = self.legacy.rewrite(shader)
        return shader

    def _starts_statement(self) -> bool:
        """Whether a second statement on the same line begins here (compute.c does this)."""
        c = self.c
        if c.at_digit():
            return True
        word = c.peek_word()
        return word in ("DCL", "IMM", "PROPERTY") or split_mnemonic(word) is not None

    def _statement(self) -> None:
        c = self.c
        if c.at_digit():
            c.uint("a label number")
            c.skip_inline_ws()
            c.expect(":", "':' after the label number")
            c.skip_ws()
            self._instruction()
            return
        word = c.peek_word()
        if word == "DCL":
            c.word()
            self._declaration()
        elif word == "IMM":
            c.word()
            self._immediate()
        elif word == "PROPERTY":
            c.word()
            self._property()
        else:
            self._instruction()

    def _require_ws(self, after: str) -> None:
        c = self.c
        if c.peek() not in (" ", "\t", "\n", "\r"):
            raise c.expected(f"whitespace after {after}")
        c.skip_ws()

    # -- instructions ----------------------------------------------------------

    def _instruction(self) -> None:
        c = self.c
        pos = c.pos
        line = c.line_col(pos)[0]
        word = c.word()
        split = split_mnemonic(word) if word else None
        if split is None:
            raise c.expected("an opcode, DCL, IMM or PROPERTY", pos)
        name, saturate, precise = split
        info = OPCODES[name]
        if info.alias_of:
            name = info.alias_of
        n_operands = info.num_dst + info.num_src
        dsts: list[DstRegister] = []
        srcs: list[SrcRegister] = []
        texture = None
        bare = info.optional_src and c.rest_of_line_blank()
        if (n_operands or info.is_tex) and not bare:
            if c.rest_of_line_blank():
                c.skip_inline_ws()
                raise c.expected(
                    f"the operands of {info.name} ({info.num_dst} dst + "
                    f"{info.num_src} src{' + texture target' if info.is_tex else ''})"
                )
            self._require_ws(word)
            for i in range(n_operands):
                if i:
                    c.expect(",", f"',' and operand {i + 1} of {info.name} ({info.num_dst} dst + {info.num_src} src)")
                    c.skip_ws()
                if i < info.num_dst:
                    dsts.append(self._dst_operand())
                else:
                    srcs.append(self._src_operand())
            if info.is_tex:
                if n_operands:
                    c.expect(",", f"',' and a texture target after the operands of {info.name}")
                c.skip_ws()
                tpos = c.pos
                texture = c.word()
                if texture not in sem.TEXTURE_TARGETS:
                    raise c.expected("a texture target (1D, 2D, 3D, CUBE, RECT, SHADOW2D, 2D_ARRAY, ...)", tpos)
        offsets: list[TexOffset] = []
        if info.has_tex_offsets:
            while len(offsets) < 4:
                save = c.pos
                c.skip_ws()
                if c.peek() != ",":
                    c.pos = save
                    break
                c.pos += 1
                c.skip_ws()
                if c.peek_word() not in _KNOWN_FILES:
                    c.pos = save
                    break
                offsets.append(self._tex_offset())
        qualifiers: list[str] = []
        mem_target = mem_format = None
        if info.is_memory:
            while True:
                save = c.pos
                c.skip_ws()
                if c.peek() != ",":
                    c.pos = save
                    break
                c.pos += 1
                c.skip_ws()
                qpos = c.pos
                q = c.word()
                if q in MEMORY_QUALIFIERS:
                    if q not in qualifiers:
                        qualifiers.append(q)
                elif q in sem.TEXTURE_TARGETS:
                    mem_target = q
                elif q.startswith("PIPE_FORMAT_") and len(q) > len("PIPE_FORMAT_"):
                    mem_format = q
                else:
                    raise c.expected(
                        "a memory qualifier (COHERENT, RESTRICT, VOLATILE), texture target or PIPE_FORMAT_ name", qpos
                    )
        label = None
        if info.is_branch:
            save = c.pos
            c.skip_inline_ws()
            if c.peek() == ":":
                c.pos += 1
                c.skip_inline_ws()
                label = c.uint("a label (instruction index) after ':'")
            else:
                c.pos = save
        self.insts.append(
            Instruction(
                opcode=name,
                dsts=tuple(dsts),
                srcs=tuple(srcs),
                saturate=saturate,
                precise=precise,
                label=label,
                texture=texture,
                tex_offsets=tuple(offsets),
                memory_qualifiers=tuple(q for q in MEMORY_QUALIFIERS if q in qualifiers),
                memory_target=mem_target,
                memory_format=mem_format,
                line=line,
            )
        )

    # -- operands --------------------------------------------------------------

    def _register_file(self) -> str:
        c = self.c
        pos = c.pos
        word = c.word()
        if word in _KNOWN_FILES or word in _SPECIAL_MEMORY:
            if word in _LEGACY_FILES or word in _SPECIAL_MEMORY:
                self.uses_legacy = True
            return word
        raise c.expected(_FILE_HINT, pos)

    def _bracket(self) -> tuple[int, Indirect | None, int]:
        """Inside ``[`` (already consumed): index or indirect, ``]``, optional ``(id)``."""
        c = self.c
        c.skip_ws()
        indirect = None
        if c.peek().isalpha() or c.peek() == "_":
            fpos = c.pos
            ind_file = c.word()
            if ind_file not in _KNOWN_FILES:
                raise c.expected("a register index or an indirect address register", fpos)
            if ind_file in _LEGACY_FILES:
                self.uses_legacy = True
            c.expect("[", f"'[' after {ind_file}")
            c.skip_ws()
            ind_index = c.uint("the index of the address register")
            c.expect("]")
            component = 0
            save = c.pos
            c.skip_ws()
            if c.peek() == ".":
                c.pos += 1
                c.skip_ws()
                spos = c.pos
                letters = c.word()
                # tgsi_dump prints one letter; accept a repeated one (".xxxx") too.
                if (
                    not letters
                    or letters[0] not in _SWIZZLE
                    or letters != letters[0] * len(letters)
                    or len(letters) > 4
                ):
                    raise c.expected("an indirect component x, y, z or w", spos)
                component = _SWIZZLE[letters[0]]
            else:
                c.pos = save
            c.skip_ws()
            offset = 0
            if c.peek() in ("+", "-"):
                negative = c.peek() == "-"
                c.pos += 1
                c.skip_ws()
                offset = c.uint("an index offset after '+' or '-'")
                if negative:
                    offset = -offset
            indirect = Indirect(ind_file, ind_index, component)
        else:
            if not c.at_digit():
                raise c.expected("a register index or an indirect address register")
            offset = c.uint("a register index")
        c.expect("]")
        array_id = 0
        if c.peek() == "(":
            c.pos += 1
            c.skip_ws()
            array_id = c.uint("an array id")
            c.expect(")")
            if indirect is not None:
                indirect = Indirect(indirect.file, indirect.index, indirect.component, array_id)
                array_id = 0
        return offset, indirect, array_id

    def _register(self):
        """``FILE[...]`` or ``FILE[...][...]``: returns (file, index, indirect, dim, dim_ind, array_id)."""
        c = self.c
        file = self._register_file()
        if file in _SPECIAL_MEMORY:
            return file, 0, None, None, None, 0
        c.skip_ws()
        if c.peek() != "[":
            raise c.expected(f"'[' after {file}")
        c.pos += 1
        first = self._bracket()
        save = c.pos
        c.skip_ws()
        if c.peek() == "[":
            c.pos += 1
            second = self._bracket()
            dim, dim_ind, _ = first
            index, ind, array_id = second
            return file, index, ind, dim, dim_ind, array_id
        c.pos = save
        index, ind, array_id = first
        return file, index, ind, None, None, array_id

    def _writemask(self) -> int:
        """Optional ``.xyzw`` subset; returns the mask (XYZW when absent)."""
        c = self.c
        save = c.pos
        c.skip_ws()
        if c.peek() != ".":
            c.pos = save
            return WRITEMASK_XYZW
        c.pos += 1
        c.skip_ws()
        pos = c.pos
        letters = c.word()
        mask, last = 0, -1
        for ch in letters:
            comp = _SWIZZLE.get(ch, -1)
            if comp <= last:
                raise c.expected("a writemask (letters x, y, z, w in that order)", pos)
            mask |= 1 << comp
            last = comp
        if not mask:
            raise c.expected("a writemask (letters x, y, z, w in that order)", pos)
        return mask

    def _swizzle(self, count: int) -> tuple[int, ...] | None:
        """Optional ``.`` + ``count`` letters (or 1 letter, replicated); None when absent."""
        c = self.c
        save = c.pos
        c.skip_ws()
        if c.peek() != ".":
            c.pos = save
            return None
        c.pos += 1
        c.skip_ws()
        pos = c.pos
        letters = c.word()
        comps = [_SWIZZLE.get(ch, -1) for ch in letters]
        if -1 in comps or len(comps) not in (1, count):
            raise c.expected(f"a {count}-letter swizzle of x, y, z, w", pos)
        if len(comps) == 1:
            comps = comps * count
        return tuple(comps)

    def _dst_operand(self) -> DstRegister:
        file, index, ind, dim, dim_ind, array_id = self._register()
        mask = self._writemask()
        return DstRegister(
            file=file, index=index, writemask=mask, indirect=ind, dimension=dim, dim_indirect=dim_ind, array_id=array_id
        )

    def _src_operand(self) -> SrcRegister:
        c = self.c
        negate = absolute = False
        if c.peek() == "-":
            negate = True
            c.pos += 1
            c.skip_ws()
        if c.peek() == "|":
            absolute = True
            c.pos += 1
            c.skip_ws()
        file, index, ind, dim, dim_ind, array_id = self._register()
        swizzle = self._swizzle(4) or (0, 1, 2, 3)
        if absolute:
            c.expect("|", "'|' closing the absolute value")
        return SrcRegister(
            file=file,
            index=index,
            swizzle=swizzle,
            negate=negate,
            absolute=absolute,
            indirect=ind,
            dimension=dim,
            dim_indirect=dim_ind,
            array_id=array_id,
        )

    def _tex_offset(self) -> TexOffset:
        file, index, _ind, _dim, _dim_ind, _aid = self._register()
        swizzle = self._swizzle(3) or (0, 1, 2)
        return TexOffset(file=file, index=index, swizzle=swizzle)

    # -- declarations ------------------------------------------------------------

    def _dcl_range(self) -> tuple[int | None, int | None, int]:
        """Inside ``[`` (consumed): ``first[..last]`` or empty; returns (first, last, pos)."""
        c = self.c
        c.skip_ws()
        pos = c.pos
        if c.peek() == "]":
            c.pos += 1
            return None, None, pos
        first = c.uint("a register index or range")
        c.skip_ws()
        last = first
        if c.text.startswith("..", c.pos):
            c.pos += 2
            c.skip_ws()
            lpos = c.pos
            last = c.uint("the last index of the range")
            if last < first:
                raise c.expected(f"a last index >= {first}", lpos)
        c.expect("]", "']' or '..'")
        return first, last, pos

    def _implied(self, rng: tuple[int | None, int | None, int]) -> tuple[int, int]:
        first, last, pos = rng
        if first is not None:
            return first, last
        if self.implied_size:
            return 0, self.implied_size - 1
        raise self.c.expected("a register index (an empty [] needs PROPERTY GS_INPUT_PRIMITIVE first)", pos)

    def _peek_item(self) -> tuple[str | None, int]:
        """Look past ``, `` without consuming: (upper-case word or '' , its position) or (None, -)."""
        c = self.c
        save = c.pos
        c.skip_ws()
        if c.peek() != ",":
            c.pos = save
            return None, save
        c.pos += 1
        c.skip_ws()
        pos = c.pos
        word = c.peek_word()
        c.pos = save
        return word, pos

    def _take_item(self, pos: int) -> str:
        self.c.pos = pos
        return self.c.word()

    def _declaration(self) -> None:
        c = self.c
        line = c.line_col()[0]
        self._require_ws("DCL")
        fpos = c.pos
        file = c.word()
        if file not in _KNOWN_FILES:
            raise c.expected(_FILE_HINT, fpos)
        c.expect("[", f"'[' after {file}")
        r0 = self._dcl_range()
        r1 = None
        save = c.pos
        c.skip_ws()
        if c.peek() == "[":
            c.pos += 1
            r1 = self._dcl_range()
        else:
            c.pos = save
        proc = self.processor
        dimension = None
        if r1 is None:
            first, last = self._implied(r0)
        elif (proc in ("GEOM", "TESS_EVAL") and file == "IN") or (proc == "TESS_CTRL" and file in ("IN", "OUT")):
            # per-vertex I/O: the vertex bracket carries no information
            first, last = self._implied(r1)
        else:
            dimension = self._implied(r0)[0]
            first, last = self._implied(r1)
        usage_mask = self._writemask()
        fields: dict = {}

        word, pos = self._peek_item()
        if word == "ARRAY":
            self._take_item(pos)
            c.expect("(", "'(' after ARRAY")
            c.skip_ws()
            fields["array_id"] = c.uint("an array id")
            c.expect(")")
            word, pos = self._peek_item()

        is_vs_input = file == "IN" and proc == "VERT"
        if file == "IMMX":
            self._immx_data(first, last)
            return
        if word is not None and not is_vs_input:
            if file in ("IMAGE", "RES"):
                self._image_tail(file, fields, word, pos)
            elif file == "SVIEW":
                self._sview_tail(fields, word, pos)
            elif file == "BUFFER":
                if word == "ATOMIC":
                    self._take_item(pos)
                    fields["atomic"] = True
            elif file == "MEMORY":
                if word in MEMORY_TYPES:
                    fields["memory_type"] = self._take_item(pos)
            else:
                self._semantic_tail(fields, word, pos)
        if file == "MEMORY":
            fields.setdefault("memory_type", "GLOBAL")

        # trailing attributes, each at most once: STREAM, interpolation, location, INVARIANT
        while True:
            word, pos = self._peek_item()
            if word is None:
                break
            if is_vs_input:
                raise c.expected(
                    "end of line (vertex shader inputs take no semantic, interpolation or other attribute)", pos
                )
            if word == "STREAM" and "stream" not in fields:
                if not (file == "OUT" and proc == "GEOM"):
                    raise c.expected("end of line (STREAM is only allowed on geometry shader outputs)", pos)
                self._take_item(pos)
                fields["stream"] = self._stream()
            elif word in sem.INTERPOLATE_NAMES and "interpolate" not in fields:
                fields["interpolate"] = self._take_item(pos)
            elif word in sem.INTERPOLATE_LOCATIONS and "location" not in fields:
                fields["location"] = self._take_item(pos)
            elif word == sem.INVARIANT_NAME and "invariant" not in fields:
                self._take_item(pos)
                fields["invariant"] = True
            elif word.startswith("CYLWRAP_") and set(word[8:]) <= set("XYZW") and word[8:]:
                self._take_item(pos)  # 2010-2015 cylindrical wrap hint: no GL equivalent
            else:
                raise c.expected(self._tail_hint(file), pos)

        if file == "RES":
            file = self.legacy.res_declaration(first, fields)
        if file == "TEMPX":
            self.legacy.tempx_declaration(self.decls, dimension or 0, first, last, usage_mask, line)
            return
        decl = Declaration(
            file=file, first=first, last=last, dimension=dimension, usage_mask=usage_mask, line=line, **fields
        )
        self._add_declaration(decl)

    def _add_declaration(self, decl: Declaration) -> None:
        """Append ``decl``, or merge it into an earlier identical one.

        Mesa's frontend declares a register twice with the same semantic
        (``DCL OUT[1], GENERIC[0]`` then ``DCL OUT[1].xy, GENERIC[0]`` for
        double-precision varyings and component layouts); tgsi_text keeps
        both and drivers read them as one register.  A declaration equal to
        an earlier one in everything but its usage mask therefore ORs its
        mask into that one.  Anything else naming the same registers
        (another semantic, interpolation, array, ...) is left for the
        validator to refuse as a conflict.
        """
        key = replace(decl, usage_mask=0)  # line does not take part in equality
        earlier = self._decl_slots.get(key)
        if earlier is None:
            self._decl_slots[key] = len(self.decls)
            self.decls.append(decl)
            return
        merged = self.decls[earlier]
        self.decls[earlier] = replace(merged, usage_mask=merged.usage_mask | decl.usage_mask)

    @staticmethod
    def _tail_hint(file: str) -> str:
        if file in ("IMAGE", "RES"):
            return "RAW, WR, a PIPE_FORMAT_ name or end of line"
        if file in ("SVIEW", "BUFFER", "MEMORY", "SAMP", "CONST", "IMM", "ADDR", "HWATOMIC"):
            return "end of line"
        return "a semantic, interpolation mode, location, STREAM(...) or INVARIANT"

    def _image_tail(self, file: str, fields: dict, word: str, pos: int) -> None:
        c = self.c
        if word not in sem.TEXTURE_TARGETS:
            raise c.expected("a texture target (BUFFER, 1D, 2D, 3D, CUBE, 2D_ARRAY, ...)", pos)
        fields["target"] = self._take_item(pos)
        return_types: list[str] = []
        while True:
            word, pos = self._peek_item()
            if word == "RAW":
                fields["raw"] = True
            elif word == "WR":
                fields["writable"] = True
            elif word is not None and word.startswith("PIPE_FORMAT_") and len(word) > 12:
                fields["image_format"] = word
            elif file == "RES" and word in sem.RETURN_TYPES:
                return_types.append(word)
            else:
                break
            self._take_item(pos)
        if return_types:
            if len(return_types) not in (1, 4):
                raise c.expected("1 or 4 return types")
            fields["return_types"] = tuple(return_types * 4)[:4] if len(return_types) == 1 else tuple(return_types)

    def _sview_tail(self, fields: dict, word: str, pos: int) -> None:
        c = self.c
        if word not in sem.TEXTURE_TARGETS:
            raise c.expected("a texture target (BUFFER, 1D, 2D, 3D, CUBE, 2D_ARRAY, ...)", pos)
        fields["target"] = self._take_item(pos)
        types: list[str] = []
        while len(types) < 4:
            word, pos = self._peek_item()
            if word not in sem.RETURN_TYPES:
                if not types:
                    raise c.expected(
                        "',' and a return type (UNORM, SNORM, SINT, UINT, FLOAT)", pos if word is not None else c.pos
                    )
                break
            types.append(self._take_item(pos))
        if len(types) not in (1, 4):
            raise c.expected("a return type (sampler views take 1 or 4)")
        fields["return_types"] = tuple(types * 4)[:4] if len(types) == 1 else tuple(types)

    def _semantic_tail(self, fields: dict, word: str, pos: int) -> None:
        c = self.c
        if word == "LOCAL":
            self._take_item(pos)
            fields["local"] = True
            word, pos = self._peek_item()
            if word is None:
                return
        if word in sem.SEMANTIC_NAMES:
            fields["semantic"] = self._take_item(pos)
            save = c.pos
            c.skip_ws()
            if c.peek() == "[":
                c.pos += 1
                c.skip_ws()
                fields["semantic_index"] = c.uint("a semantic index")
                c.expect("]")
            else:
                c.pos = save

    def _stream(self) -> tuple[int, int, int, int]:
        c = self.c
        c.expect("(", "'(' after STREAM")
        values = []
        for i in range(4):
            if i:
                c.expect(",", "',' (STREAM takes 4 stream numbers)")
            c.skip_ws()
            values.append(c.uint("a stream number"))
        c.expect(")")
        return tuple(values)  # type: ignore[return-value]

    # -- immediates ---------------------------------------------------------------

    def _immediate(self) -> None:
        c = self.c
        line = c.line_col()[0]
        if c.peek() == "[":
            c.pos += 1
            c.skip_ws()
            ipos = c.pos
            n = c.uint("an immediate index")
            if n != len(self.imms):
                raise c.expected(f"immediate index {len(self.imms)} (immediates are numbered in order)", ipos)
            c.expect("]")
        self._require_ws("IMM")
        tpos = c.pos
        imm_type = c.word()
        if imm_type not in IMMEDIATE_TYPES:
            raise c.expected("an immediate type (FLT32, UINT32, INT32, FLT64, UINT64, INT64)", tpos)
        words = self._immediate_data(imm_type)
        self.imms.append(Immediate(type=imm_type, words=words, line=line))

    def _immediate_data(self, imm_type: str) -> tuple[int, int, int, int]:
        c = self.c
        c.expect("{", "'{'")
        count = 2 if imm_type in ("FLT64", "UINT64", "INT64") else 4
        words: list[int] = []
        for i in range(count):
            if i:
                c.expect(",", f"',' ({imm_type} immediates have {count} values)")
            c.skip_ws()
            vpos = c.pos
            token = c.number_token()
            try:
                words.extend(convert_literal(imm_type, token))
            except ValueError as exc:
                raise c.expected(f"a {imm_type} constant{exc.args[0] if exc.args else ''}", vpos) from exc
        c.expect("}", f"'}}' ({imm_type} immediates have {count} values)")
        return tuple(words)  # type: ignore[return-value]

    def _immx_data(self, first: int, last: int) -> None:
        """``DCL IMMX[a..b] {{...},{...}}``: appended to the immediates as FLT32."""
        c = self.c
        line = c.line_col()[0]
        c.expect("{", "'{' with the immediate array data")
        base = len(self.imms)
        for i in range(last + 1):
            if i:
                c.expect(",", "',' (not enough data in the immediate array)")
            words = self._immediate_data("FLT32")
            self.imms.append(Immediate("FLT32", words, line=line))
        c.expect("}", "'}' closing the immediate array")
        self.legacy.immx.append((base, last + 1))

    # -- properties ---------------------------------------------------------------

    def _property(self) -> None:
        c = self.c
        line = c.line_col()[0]
        self._require_ws("PROPERTY")
        npos = c.pos
        name = c.word()
        name = sem.PROPERTY_ALIASES.get(name, name)
        if name not in sem.PROPERTY_NAMES:
            raise c.expected("a property name (GS_INPUT_PRIMITIVE, FS_COORD_ORIGIN, CS_FIXED_BLOCK_WIDTH, ...)", npos)
        c.skip_inline_ws()
        vpos = c.pos
        value: object
        names = sem.PROPERTY_VALUE_NAMES.get(name)
        if names is not None:
            value = c.word()
            if value not in names:
                shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
                raise c.expected(f"a {name} value ({shown})", vpos)
            if name == "GS_INPUT_PRIMITIVE" and self.processor == "GEOM":
                self.implied_size = sem.PRIMITIVE_VERTICES[value]
        elif c.at_digit():
            value = c.uint(f"an unsigned integer value for {name}")
        elif name in sem.PROPERTY_NUMERIC_PRIMITIVE and c.peek_word() in sem.PRIMITIVE_NAMES:
            value = sem.primitive_number(c.word())
        else:
            raise c.expected(f"an unsigned integer value for {name}", vpos)
        self.properties.append(Property(name=name, value=value, line=line))


__all__ = ["parse", "split_mnemonic", "TGSIParseError"]
