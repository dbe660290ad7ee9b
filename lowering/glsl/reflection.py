"""The reflection record the emitter returns next to the GLSL source: what the shader uses
and where the context must bind it.

docs/bindings.md "The reflection record" and "GLSL below 420" describe it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ConstantBufferInfo:
    """CONST[index]: a std140 block of ``size`` vec4s."""

    index: int
    size: int
    block_name: str
    binding: int


@dataclass(frozen=True)
class SamplerInfo:
    """One GLSL sampler uniform: texture of SVIEW ``view`` with sampler state SAMP ``sampler``
    (None: the shader only queries sizes or fetches texels, no sampler state is used)."""

    name: str
    unit: int
    view: int
    sampler: int | None
    target: str
    return_type: str
    shadow: bool
    glsl_type: str


@dataclass(frozen=True)
class ShaderBufferInfo:
    """BUFFER[index]: an SSBO of 32-bit words."""

    index: int
    block_name: str
    binding: int


@dataclass(frozen=True)
class ImageInfo:
    """IMAGE[index]."""

    index: int
    name: str
    unit: int
    target: str
    format: str | None
    glsl_type: str
    access: str


@dataclass(frozen=True)
class AtomicBufferInfo:
    """HWATOMIC buffer ``buffer``: ``counters`` 4-byte counters at ``binding``."""

    buffer: int
    binding: int
    counters: int


@dataclass(frozen=True)
class VaryingInfo:
    """An IN or OUT register and the GLSL variable it became."""

    file: str
    index: int
    semantic: str | None
    semantic_index: int
    name: str
    location: int | None = None
    interpolation: str | None = None
    sample_location: str | None = None
    glsl_type: str = "vec4"
    stream: int = 0
    per_vertex: bool = False
    patch: bool = False
    builtin: bool = False
    xfb_name: str | None = (
        None  # name for glTransformFeedbackVaryings (the member of an unnamed output block, or a built-in)
    )


@dataclass(frozen=True)
class Reflection:
    """What a lowered shader uses and where it expects it (see the module docstring)."""

    stage: str
    glsl_version: int
    extensions: tuple[str, ...] = ()
    constant_buffers: tuple[ConstantBufferInfo, ...] = ()
    sysvals_binding: int | None = None
    samplers: tuple[SamplerInfo, ...] = ()
    shader_buffers: tuple[ShaderBufferInfo, ...] = ()
    images: tuple[ImageInfo, ...] = ()
    atomic_buffers: tuple[AtomicBufferInfo, ...] = ()
    inputs: tuple[VaryingInfo, ...] = ()
    outputs: tuple[VaryingInfo, ...] = ()
    system_values: tuple[tuple[int, str], ...] = ()
    streams: tuple[int, ...] = ()
    properties: tuple[tuple[str, object], ...] = ()
    block_size: tuple[int, int, int] | None = None
    shared_memory_size: int = 0
    needs_manual_binding: bool = False
    uniform_block_bindings: tuple[tuple[str, int], ...] = ()
    storage_block_bindings: tuple[tuple[str, int], ...] = ()
    sampler_units: tuple[tuple[str, int], ...] = ()
    image_units: tuple[tuple[str, int], ...] = ()
    uses_discard: bool = False
    writes_depth: bool = False
    # Bit i: the shader writes gl_ClipDistance[i] (its CLIPDIST outputs, or the user clip
    # plane pass); the context enables GL_CLIP_DISTANCEi for clip_plane_enable & this mask.
    clip_distance_mask: int = 0
    # Bit i: gl_ClipDistance[i] stands for a cull distance (a host without gl_CullDistance:
    # passes/cull.py); the context enables GL_CLIP_DISTANCEi for these whatever clip_plane_enable says.
    cull_clip_mask: int = 0

    # -- lookups ---------------------------------------------------------------
    def const_buffer(self, index: int) -> ConstantBufferInfo | None:
        """The info of CONST[index], or None when the shader does not use it."""
        return next((c for c in self.constant_buffers if c.index == index), None)

    def shader_buffer(self, index: int) -> ShaderBufferInfo | None:
        """The info of BUFFER[index], or None."""
        return next((b for b in self.shader_buffers if b.index == index), None)

    def image(self, index: int) -> ImageInfo | None:
        """The info of IMAGE[index], or None."""
        return next((i for i in self.images if i.index == index), None)

    def samplers_of_view(self, view: int) -> tuple[SamplerInfo, ...]:
        """Every GLSL sampler that reads SVIEW[view] (usually one)."""
        return tuple(s for s in self.samplers if s.view == view)

    def texture_unit(self, view: int) -> int | None:
        """The texture unit of the (first) GLSL sampler of SVIEW/SAMP[view], or None."""
        found = self.samplers_of_view(view)
        return found[0].unit if found else None

    def atomic_buffer(self, buffer: int) -> AtomicBufferInfo | None:
        """The info of HWATOMIC buffer ``buffer``, or None."""
        return next((a for a in self.atomic_buffers if a.buffer == buffer), None)

    def output(self, index: int) -> VaryingInfo | None:
        """The info of OUT[index], or None."""
        return next((o for o in self.outputs if o.index == index), None)

    def input(self, index: int) -> VaryingInfo | None:
        """The info of IN[index], or None."""
        return next((i for i in self.inputs if i.index == index), None)

    def property(self, name: str, default=None):
        """A TGSI property value of the shader."""
        return dict(self.properties).get(name, default)

    def as_dict(self) -> dict[str, object]:
        """A JSON-friendly dictionary of the whole record."""
        return asdict(self)


__all__ = [
    "Reflection",
    "ConstantBufferInfo",
    "SamplerInfo",
    "ShaderBufferInfo",
    "ImageInfo",
    "AtomicBufferInfo",
    "VaryingInfo",
]
