"""Lookups over a shader's declarations that the emitter's modules share.

``Decls`` answers questions such as "which semantic does IN[3] have", "what
does SVIEW[1] return", "which TEMP array holds TEMP[5]", "how many vec4s
does constant buffer 2 have" without each module walking the declaration
list again.  It also holds the table of image formats GLSL can name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UnsupportedError
from ..ir import Declaration, Shader

# PIPE_FORMAT_* of an image declaration -> (GLSL layout format, base type).
IMAGE_FORMATS: dict[str, tuple[str, str]] = {
    "PIPE_FORMAT_R32G32B32A32_FLOAT": ("rgba32f", "float"),
    "PIPE_FORMAT_R16G16B16A16_FLOAT": ("rgba16f", "float"),
    "PIPE_FORMAT_R32G32_FLOAT": ("rg32f", "float"),
    "PIPE_FORMAT_R16G16_FLOAT": ("rg16f", "float"),
    "PIPE_FORMAT_R11G11B10_FLOAT": ("r11f_g11f_b10f", "float"),
    "PIPE_FORMAT_R32_FLOAT": ("r32f", "float"),
    "PIPE_FORMAT_R16_FLOAT": ("r16f", "float"),
    "PIPE_FORMAT_R16G16B16A16_UNORM": ("rgba16", "float"),
    "PIPE_FORMAT_R10G10B10A2_UNORM": ("rgb10_a2", "float"),
    "PIPE_FORMAT_R8G8B8A8_UNORM": ("rgba8", "float"),
    "PIPE_FORMAT_R16G16_UNORM": ("rg16", "float"),
    "PIPE_FORMAT_R8G8_UNORM": ("rg8", "float"),
    "PIPE_FORMAT_R16_UNORM": ("r16", "float"),
    "PIPE_FORMAT_R8_UNORM": ("r8", "float"),
    "PIPE_FORMAT_R16G16B16A16_SNORM": ("rgba16_snorm", "float"),
    "PIPE_FORMAT_R8G8B8A8_SNORM": ("rgba8_snorm", "float"),
    "PIPE_FORMAT_R16G16_SNORM": ("rg16_snorm", "float"),
    "PIPE_FORMAT_R8G8_SNORM": ("rg8_snorm", "float"),
    "PIPE_FORMAT_R16_SNORM": ("r16_snorm", "float"),
    "PIPE_FORMAT_R8_SNORM": ("r8_snorm", "float"),
    "PIPE_FORMAT_R32G32B32A32_SINT": ("rgba32i", "int"),
    "PIPE_FORMAT_R16G16B16A16_SINT": ("rgba16i", "int"),
    "PIPE_FORMAT_R8G8B8A8_SINT": ("rgba8i", "int"),
    "PIPE_FORMAT_R32G32_SINT": ("rg32i", "int"),
    "PIPE_FORMAT_R16G16_SINT": ("rg16i", "int"),
    "PIPE_FORMAT_R8G8_SINT": ("rg8i", "int"),
    "PIPE_FORMAT_R32_SINT": ("r32i", "int"),
    "PIPE_FORMAT_R16_SINT": ("r16i", "int"),
    "PIPE_FORMAT_R8_SINT": ("r8i", "int"),
    "PIPE_FORMAT_R32G32B32A32_UINT": ("rgba32ui", "uint"),
    "PIPE_FORMAT_R16G16B16A16_UINT": ("rgba16ui", "uint"),
    "PIPE_FORMAT_R10G10B10A2_UINT": ("rgb10_a2ui", "uint"),
    "PIPE_FORMAT_R8G8B8A8_UINT": ("rgba8ui", "uint"),
    "PIPE_FORMAT_R32G32_UINT": ("rg32ui", "uint"),
    "PIPE_FORMAT_R16G16_UINT": ("rg16ui", "uint"),
    "PIPE_FORMAT_R8G8_UINT": ("rg8ui", "uint"),
    "PIPE_FORMAT_R32_UINT": ("r32ui", "uint"),
    "PIPE_FORMAT_R16_UINT": ("r16ui", "uint"),
    "PIPE_FORMAT_R8_UINT": ("r8ui", "uint"),
}

# SVIEW return type name -> GLSL base type of what sampling returns.
RETURN_TYPE_BASE = {"UNORM": "float", "SNORM": "float", "FLOAT": "float", "SINT": "int", "UINT": "uint"}


@dataclass(frozen=True)
class TempArray:
    """A TEMP range declared with ``ARRAY(id)`` (or the whole file, id 0)."""

    array_id: int
    first: int
    last: int

    @property
    def size(self) -> int:
        """Number of registers."""
        return self.last - self.first + 1


class Decls:
    """Indexed declarations of one shader (see the module docstring)."""

    def __init__(self, shader: Shader):
        self.shader = shader
        self.processor = shader.processor
        self.inputs: dict[int, Declaration] = {}
        self.outputs: dict[int, Declaration] = {}
        self.system_values: dict[int, Declaration] = {}
        self.sviews: dict[int, Declaration] = {}
        self.samplers: dict[int, Declaration] = {}
        self.images: dict[int, Declaration] = {}
        self.buffers: dict[int, Declaration] = {}
        self.memories: dict[int, Declaration] = {}
        self.hwatomics: list[Declaration] = []
        self.const_sizes: dict[int, int] = {}
        self.temp_arrays: dict[int, TempArray] = {}
        self.num_temps = 0
        self.num_addrs = 0
        for decl in shader.declarations:
            self._add(decl)

    def _add(self, decl: Declaration) -> None:
        file = decl.file
        if file == "CONST":
            buf = decl.dimension or 0
            self.const_sizes[buf] = max(self.const_sizes.get(buf, 0), decl.last + 1)
            return
        if file == "HWATOMIC":
            self.hwatomics.append(decl)
            return
        if file == "TEMP":
            self.num_temps = max(self.num_temps, decl.last + 1)
            if decl.array_id:
                self.temp_arrays[decl.array_id] = TempArray(decl.array_id, decl.first, decl.last)
            return
        if file == "ADDR":
            self.num_addrs = max(self.num_addrs, decl.last + 1)
            return
        table = {
            "IN": self.inputs,
            "OUT": self.outputs,
            "SV": self.system_values,
            "SVIEW": self.sviews,
            "SAMP": self.samplers,
            "IMAGE": self.images,
            "BUFFER": self.buffers,
            "MEMORY": self.memories,
        }.get(file)
        if table is None:
            return
        for index in range(decl.first, decl.last + 1):
            table[index] = decl

    # -- semantics ---------------------------------------------------------------
    @staticmethod
    def semantic_of(decl: Declaration, index: int) -> tuple[str | None, int]:
        """(semantic name, semantic index) of register ``index`` of a (range) declaration:
        the semantic index grows with the register index inside a range."""
        if decl.semantic is None:
            return None, 0
        return decl.semantic, decl.semantic_index + (index - decl.first)

    def input_semantic(self, index: int) -> tuple[str | None, int]:
        """(semantic, index) of IN[index] ((None, 0) for VS inputs)."""
        decl = self.inputs.get(index)
        return self.semantic_of(decl, index) if decl else (None, 0)

    def output_semantic(self, index: int) -> tuple[str | None, int]:
        """(semantic, index) of OUT[index]."""
        decl = self.outputs.get(index)
        return self.semantic_of(decl, index) if decl else (None, 0)

    def sv_semantic(self, index: int) -> str | None:
        """Semantic name of SV[index]."""
        decl = self.system_values.get(index)
        return decl.semantic if decl else None

    # -- resources -----------------------------------------------------------------
    def sview_return_type(self, index: int) -> str:
        """GLSL base type returned by sampling SVIEW[index] (float when undeclared)."""
        decl = self.sviews.get(index)
        if decl is None or not decl.return_types:
            return "float"
        return RETURN_TYPE_BASE.get(decl.return_types[0], "float")

    def sview_target(self, index: int) -> str | None:
        """Texture target of SVIEW[index], or None."""
        decl = self.sviews.get(index)
        return decl.target if decl else None

    def image_format(self, index: int, fallback: str | None = None) -> str | None:
        """PIPE_FORMAT_* of IMAGE[index] (declaration first, then the instruction's)."""
        decl = self.images.get(index)
        fmt = decl.image_format if decl is not None else None
        if fmt in (None, "PIPE_FORMAT_NONE"):
            fmt = fallback
        return None if fmt in (None, "PIPE_FORMAT_NONE") else fmt

    def image_base_type(self, index: int, fallback_format: str | None = None) -> str:
        """Base type of texels of IMAGE[index] (float for unknown formats)."""
        fmt = self.image_format(index, fallback_format)
        if fmt is None:
            return "float"
        if fmt not in IMAGE_FORMATS:
            raise UnsupportedError(f"IMAGE[{index}] format {fmt} has no GLSL image format qualifier")
        return IMAGE_FORMATS[fmt][1]

    def image_target(self, index: int, fallback: str | None = None) -> str | None:
        """Texture target of IMAGE[index]."""
        decl = self.images.get(index)
        return decl.target if decl is not None and decl.target else fallback

    def memory_type(self, index: int) -> str:
        """GLOBAL / SHARED / PRIVATE / INPUT of MEMORY[index].

        Mesa's nir_to_tgsi declares ``MEMORY[1], SHARED`` but addresses it as
        ``MEMORY[0]``; an undeclared index therefore means shared memory when
        the shader declares any (and in compute shaders, where shared memory
        is the only kind GLSL has)."""
        decl = self.memories.get(index)
        if decl is not None:
            return decl.memory_type or "GLOBAL"
        if any((d.memory_type or "GLOBAL") == "SHARED" for d in self.memories.values()) or self.processor == "COMP":
            return "SHARED"
        return "GLOBAL"

    def hwatomic_buffers(self) -> dict[int, int]:
        """HWATOMIC buffer -> number of counters used (highest index + 1)."""
        out: dict[int, int] = {}
        for decl in self.hwatomics:
            buf = decl.dimension or 0
            out[buf] = max(out.get(buf, 0), decl.last + 1)
        return out

    # -- temporaries ---------------------------------------------------------------
    def array_of_temp(self, index: int, array_id: int = 0) -> TempArray | None:
        """The declared TEMP array containing TEMP[index] (by id if given)."""
        if array_id and array_id in self.temp_arrays:
            return self.temp_arrays[array_id]
        for arr in self.temp_arrays.values():
            if arr.first <= index <= arr.last:
                return arr
        return None

    def immediate_words(self, index: int) -> tuple[int, int, int, int]:
        """The four raw words of IMM[index]."""
        return self.shader.immediates[index].words

    def immediate_type(self, index: int) -> str:
        """FLT32 / UINT32 / INT32 / FLT64 / UINT64 / INT64 of IMM[index]."""
        return self.shader.immediates[index].type


__all__ = ["Decls", "TempArray", "IMAGE_FORMATS", "RETURN_TYPE_BASE"]
