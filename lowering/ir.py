"""The TGSI intermediate representation: what ``lowering.parse`` returns.

An immutable tree of frozen dataclasses with structural equality
(``parse(dump(s)) == s``).  docs/lowering.md "The IR" describes the fields,
register files, operands, instructions, immediates and properties.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

# Header words, in the order of Mesa's tgsi_text parse_header.
PROCESSORS: tuple[str, ...] = ("VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP")

# Register files that can occur in the IR (text spelling).
FILES: tuple[str, ...] = (
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
)

# Files the parser accepts and rewrites (see the module docstring).
LEGACY_FILES: tuple[str, ...] = ("RES", "IMMX", "TEMPX")

SWIZZLE_LETTERS = "xyzw"
IDENTITY_SWIZZLE: tuple[int, int, int, int] = (0, 1, 2, 3)
WRITEMASK_XYZW = 0xF

IMMEDIATE_TYPES: tuple[str, ...] = ("FLT32", "UINT32", "INT32", "FLT64", "UINT64", "INT64")

# Memory qualifier names, in bit order (tgsi_memory_names).
MEMORY_QUALIFIERS: tuple[str, ...] = ("COHERENT", "RESTRICT", "VOLATILE", "STREAM_CACHE_POLICY")

# MEMORY declaration types (TGSI_MEMORY_TYPE_*).
MEMORY_TYPES: tuple[str, ...] = ("GLOBAL", "SHARED", "PRIVATE", "INPUT")


def swizzle_text(swizzle: tuple[int, ...]) -> str:
    """``(0, 0, 1, 3)`` -> ``"xxyw"``."""
    return "".join(SWIZZLE_LETTERS[c] for c in swizzle)


def writemask_text(mask: int) -> str:
    """``0b0101`` -> ``"xz"`` (empty string for an empty mask)."""
    return "".join(SWIZZLE_LETTERS[c] for c in range(4) if mask & (1 << c))


def writemask_components(mask: int) -> tuple[int, ...]:
    """Component numbers written by ``mask``, ascending."""
    return tuple(c for c in range(4) if mask & (1 << c))


@dataclass(frozen=True)
class Indirect:
    """An indirect address: the value of ``file[index].<component>``.

    ``array_id`` is the ``(id)`` written after the bracket that contains the
    indirect (``TEMP[ADDR[0].x+2](1)`` -> 1); 0 means none.
    """

    file: str
    index: int
    component: int = 0
    array_id: int = 0


@dataclass(frozen=True)
class SrcRegister:
    """A source operand (see the module docstring for field meanings)."""

    file: str
    index: int
    swizzle: tuple[int, int, int, int] = IDENTITY_SWIZZLE
    negate: bool = False
    absolute: bool = False
    indirect: Indirect | None = None
    dimension: int | None = None
    dim_indirect: Indirect | None = None
    # ``(id)`` written after a *direct* index bracket (``TEMP[3](1)``); 0 = none.
    array_id: int = 0

    @property
    def is_2d(self) -> bool:
        """True for a two-dimensional operand such as ``CONST[1][3]``."""
        return self.dimension is not None

    @property
    def is_indirect(self) -> bool:
        """True when the register index (not the dimension) is indirect."""
        return self.indirect is not None


@dataclass(frozen=True)
class DstRegister:
    """A destination operand; ``writemask`` bit c enables component c."""

    file: str
    index: int
    writemask: int = WRITEMASK_XYZW
    indirect: Indirect | None = None
    dimension: int | None = None
    dim_indirect: Indirect | None = None
    array_id: int = 0

    @property
    def is_2d(self) -> bool:
        """True for a two-dimensional operand such as ``OUT[1][0]`` (TCS)."""
        return self.dimension is not None

    @property
    def is_indirect(self) -> bool:
        """True when the register index (not the dimension) is indirect."""
        return self.indirect is not None


@dataclass(frozen=True)
class TexOffset:
    """A texture-offset operand: ``file[index].swz3`` (e.g. ``IMM[2].xyz``)."""

    file: str
    index: int
    swizzle: tuple[int, int, int] = (0, 1, 2)


@dataclass(frozen=True)
class Instruction:
    """One TGSI instruction (see the module docstring)."""

    opcode: str
    dsts: tuple[DstRegister, ...] = ()
    srcs: tuple[SrcRegister, ...] = ()
    saturate: bool = False
    precise: bool = False
    label: int | None = None
    texture: str | None = None
    tex_offsets: tuple[TexOffset, ...] = ()
    memory_qualifiers: tuple[str, ...] = ()
    memory_target: str | None = None
    memory_format: str | None = None
    # 1-based source line, for messages; not part of equality.
    line: int | None = field(default=None, compare=False)

    @property
    def info(self):
        """The ``lowering.opcodes.OpInfo`` row of this opcode."""
        from .opcodes import OPCODES

        return OPCODES[self.opcode]


@dataclass(frozen=True)
class Declaration:
    """One ``DCL`` statement.

    ``first``..``last`` is the declared index range (the last bracket);
    ``dimension`` the first bracket of a 2D declaration (``CONST[1][0..3]``
    -> 1, ``HWATOMIC[0][0..1]`` -> 0), None otherwise.  GS/TES inputs and
    TCS inputs/outputs declared as ``IN[][n]`` / ``IN[4][n]`` are 1D here
    (the vertex bracket is dropped, as Mesa does).

    Fields that do not apply to the file keep their defaults:
    ``semantic`` (name such as ``"GENERIC"``, or None) and
    ``semantic_index``; ``interpolate`` (``CONSTANT LINEAR PERSPECTIVE
    COLOR`` or None) and ``location`` (``CENTER`` default, ``CENTROID``,
    ``SAMPLE``); ``stream`` (GS output streams per component);
    ``target`` (texture target of SVIEW/IMAGE), ``return_types`` (SVIEW:
    4 names of ``UNORM SNORM SINT UINT FLOAT``), ``image_format``,
    ``writable`` (``WR``), ``raw`` (``RAW``); ``atomic`` (BUFFER);
    ``memory_type`` (MEMORY: ``GLOBAL`` default, ``SHARED``, ``PRIVATE``,
    ``INPUT``).  ``usage_mask`` is the optional ``.xyzw`` after the
    register.
    """

    file: str
    first: int
    last: int
    dimension: int | None = None
    usage_mask: int = WRITEMASK_XYZW
    array_id: int = 0
    local: bool = False
    semantic: str | None = None
    semantic_index: int = 0
    interpolate: str | None = None
    location: str = "CENTER"
    invariant: bool = False
    stream: tuple[int, int, int, int] = (0, 0, 0, 0)
    target: str | None = None
    return_types: tuple[str, str, str, str] | None = None
    image_format: str | None = None
    writable: bool = False
    raw: bool = False
    atomic: bool = False
    memory_type: str | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def count(self) -> int:
        """Number of registers declared (``last - first + 1``)."""
        return self.last - self.first + 1

    def covers(self, index: int) -> bool:
        """True when ``index`` lies in ``first..last``."""
        return self.first <= index <= self.last

    @property
    def used_streams(self) -> tuple[int, ...]:
        """The GS streams of the components in ``usage_mask``: Mesa writes 0
        for the others (``DCL OUT[3].x, GENERIC[2], STREAM(2, 0, 0, 0)``)."""
        return tuple(s for i, s in enumerate(self.stream) if self.usage_mask >> i & 1)


ImmediateValue = int | float


@dataclass(frozen=True)
class Immediate:
    """One ``IMM`` statement: ``type`` and the four raw 32-bit ``words``."""

    type: str
    words: tuple[int, int, int, int]
    line: int | None = field(default=None, compare=False)

    @property
    def is_64bit(self) -> bool:
        """True for FLT64 / UINT64 / INT64 (two values in four words)."""
        return self.type in ("FLT64", "UINT64", "INT64")

    @property
    def values(self) -> tuple[ImmediateValue, ...]:
        """The values as Python numbers: 4 for 32-bit types, 2 for 64-bit."""
        w = self.words
        if self.type == "FLT32":
            return struct.unpack("<4f", struct.pack("<4I", *w))
        if self.type == "UINT32":
            return tuple(w)
        if self.type == "INT32":
            return struct.unpack("<4i", struct.pack("<4I", *w))
        packed = struct.pack("<4I", *w)
        fmt = {"FLT64": "<2d", "UINT64": "<2Q", "INT64": "<2q"}[self.type]
        return struct.unpack(fmt, packed)


@dataclass(frozen=True)
class Property:
    """``PROPERTY NAME value``: value is an int or an upper-case name."""

    name: str
    value: int | str
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Shader:
    """A parsed TGSI shader (see the module docstring)."""

    processor: str
    properties: tuple[Property, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    immediates: tuple[Immediate, ...] = ()
    instructions: tuple[Instruction, ...] = ()

    def property(self, name: str, default=None):
        """Value of property ``name`` (the last one written), or ``default``."""
        value = default
        for prop in self.properties:
            if prop.name == name:
                value = prop.value
        return value

    def declarations_of(self, file: str) -> tuple[Declaration, ...]:
        """All declarations of register file ``file``, in source order."""
        return tuple(d for d in self.declarations if d.file == file)

    def find_declaration(self, file: str, index: int, dimension: int | None = None) -> Declaration | None:
        """The declaration of ``file`` covering ``index`` (and ``dimension`` for 2D files), or None.

        For a 1D declaration ``dimension`` is ignored; for a 2D one (CONST
        buffers, HWATOMIC) ``dimension=None`` means buffer 0.
        """
        for decl in self.declarations:
            if decl.file != file or not decl.covers(index):
                continue
            if decl.dimension is not None and decl.dimension != (dimension or 0):
                continue
            return decl
        return None

    def iter_operands(self) -> Iterator[tuple[int, Instruction, DstRegister | SrcRegister]]:
        """Yield ``(instruction_index, instruction, operand)`` for every dst then src operand."""
        for i, inst in enumerate(self.instructions):
            for d in inst.dsts:
                yield i, inst, d
            for s in inst.srcs:
                yield i, inst, s


__all__ = [
    "PROCESSORS",
    "FILES",
    "LEGACY_FILES",
    "SWIZZLE_LETTERS",
    "IDENTITY_SWIZZLE",
    "WRITEMASK_XYZW",
    "IMMEDIATE_TYPES",
    "MEMORY_QUALIFIERS",
    "MEMORY_TYPES",
    "swizzle_text",
    "writemask_text",
    "writemask_components",
    "Indirect",
    "SrcRegister",
    "DstRegister",
    "TexOffset",
    "Instruction",
    "Declaration",
    "Immediate",
    "Property",
    "Shader",
]
