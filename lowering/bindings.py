"""The binding convention shared by the GLSL emitter and the context: ``BindingLayout``
maps Gallium's per-stage resource slots onto GL's per-program binding spaces.

docs/bindings.md "The rule" is the prose version of this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .errors import InvalidArgumentError, UnsupportedError

GRAPHICS_STAGES: tuple[str, ...] = ("VERT", "TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG")
ALL_STAGES: tuple[str, ...] = GRAPHICS_STAGES + ("COMP",)

# Stages that get the remainder first when a small combined limit (SSBOs,
# images, atomic counter buffers) is split, and the order of the texture-unit
# ranges (FRAG from unit 0): fragment shaders use them most.
_STORAGE_PRIORITY: tuple[str, ...] = ("FRAG", "VERT", "GEOM", "TESS_EVAL", "TESS_CTRL")

_STAGE_GL_NAME = {
    "VERT": "VERTEX",
    "TESS_CTRL": "TESS_CONTROL",
    "TESS_EVAL": "TESS_EVALUATION",
    "GEOM": "GEOMETRY",
    "FRAG": "FRAGMENT",
    "COMP": "COMPUTE",
}


@dataclass(frozen=True)
class HostLimits:
    """The GL limits the layout is computed from (``GL_MAX_*`` values).

    Per-stage limits are the smallest over the stages in use (a conservative
    simplification: every stage gets the same share).
    """

    max_uniform_buffer_bindings: int = 36
    max_stage_uniform_blocks: int = 12
    max_uniform_block_size: int = 16384
    max_combined_texture_image_units: int = 48
    max_stage_texture_image_units: int = 16
    max_shader_storage_buffer_bindings: int = 0
    max_stage_shader_storage_blocks: int = 0
    max_image_units: int = 0
    max_stage_image_uniforms: int = 0
    max_atomic_counter_buffer_bindings: int = 0
    max_stage_atomic_counter_buffers: int = 0

    @classmethod
    def gl33(cls) -> HostLimits:
        """The minimum limits of an OpenGL 3.3 core implementation."""
        return cls()

    @classmethod
    def gl45(cls) -> HostLimits:
        """The minimum limits of an OpenGL 4.5 core implementation."""
        return cls(
            max_uniform_buffer_bindings=84,
            max_stage_uniform_blocks=14,
            max_uniform_block_size=16384,
            max_combined_texture_image_units=80,
            max_stage_texture_image_units=16,
            max_shader_storage_buffer_bindings=8,
            max_stage_shader_storage_blocks=8,
            max_image_units=8,
            max_stage_image_uniforms=8,
            max_atomic_counter_buffer_bindings=1,
            max_stage_atomic_counter_buffers=1,
        )

    @classmethod
    def from_gl(cls, values: Mapping[str, int], stages: Iterable[str] = GRAPHICS_STAGES) -> HostLimits:
        """Limits from a mapping of GL enum names to values (e.g. ModernGL's ``ctx.info``
        plus the ones it lacks, such as ``GL_MAX_IMAGE_UNITS``).  Missing names
        count as 0, except the GL 3.3 ones, which fall back to their minimums."""
        base = cls()

        def get(name, default=0):
            value = values.get(name)
            return int(value) if value is not None else default

        def per_stage(kind, default=0):
            found = [get(f"GL_MAX_{_STAGE_GL_NAME[s]}_{kind}", None) for s in stages]
            found = [v for v in found if v is not None]
            return min(found) if found else default

        return cls(
            max_uniform_buffer_bindings=get("GL_MAX_UNIFORM_BUFFER_BINDINGS", base.max_uniform_buffer_bindings),
            max_stage_uniform_blocks=per_stage("UNIFORM_BLOCKS", base.max_stage_uniform_blocks),
            max_uniform_block_size=get("GL_MAX_UNIFORM_BLOCK_SIZE", base.max_uniform_block_size),
            max_combined_texture_image_units=get(
                "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS", base.max_combined_texture_image_units
            ),
            max_stage_texture_image_units=min(
                get("GL_MAX_TEXTURE_IMAGE_UNITS", 16),
                per_stage("TEXTURE_IMAGE_UNITS", base.max_stage_texture_image_units),
            ),
            max_shader_storage_buffer_bindings=get("GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"),
            max_stage_shader_storage_blocks=per_stage("SHADER_STORAGE_BLOCKS"),
            max_image_units=get("GL_MAX_IMAGE_UNITS"),
            max_stage_image_uniforms=per_stage("IMAGE_UNIFORMS"),
            max_atomic_counter_buffer_bindings=get("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS"),
            max_stage_atomic_counter_buffers=per_stage("ATOMIC_COUNTER_BUFFERS"),
        )


@dataclass(frozen=True)
class StageBindings:
    """One stage's ranges: ``*_base`` is the first GL binding, ``*_count`` how many slots."""

    ubo_base: int
    ubo_count: int
    tex_base: int
    tex_count: int
    ssbo_base: int
    ssbo_count: int
    image_base: int
    image_count: int
    atomic_base: int
    atomic_count: int
    sysvals_binding: int


def _split(total: int, per_stage_limit: int, stages: tuple[str, ...], priority: tuple[str, ...]) -> dict[str, int]:
    """Share ``total`` slots among ``stages``: equal parts, the remainder to
    the first stages of ``priority``, each capped at ``per_stage_limit``."""
    if not stages:
        return {}
    share, rest = divmod(max(total, 0), len(stages))
    ordered = [s for s in priority if s in stages] + [s for s in stages if s not in priority]
    counts = dict.fromkeys(stages, share)
    for s in ordered[:rest]:
        counts[s] += 1
    return {s: min(c, per_stage_limit) for s, c in counts.items()}


@dataclass(frozen=True)
class BindingLayout:
    """Per-stage binding ranges computed from ``HostLimits`` (see the module docstring)."""

    limits: HostLimits
    stages: Mapping[str, StageBindings] = field(default_factory=dict)

    @classmethod
    def for_limits(cls, limits: HostLimits, stages: Iterable[str] = GRAPHICS_STAGES) -> BindingLayout:
        """Lay out ``stages`` (graphics stages the host supports; COMP is always added)."""
        graphics = tuple(s for s in GRAPHICS_STAGES if s in tuple(stages))
        n = max(len(graphics), 1)
        if limits.max_uniform_buffer_bindings < 2:
            raise InvalidArgumentError("host limits leave no uniform buffer binding for constant buffers")
        sysvals = limits.max_uniform_buffer_bindings - 1  # reserved, shared by all stages
        ubo_each = min(limits.max_stage_uniform_blocks - 1, (limits.max_uniform_buffer_bindings - 1) // n)
        usable_tex = limits.max_combined_texture_image_units - 1  # last unit: ModernGL's scratch unit
        tex_each = min(limits.max_stage_texture_image_units, usable_tex // n)
        ssbo = _split(
            limits.max_shader_storage_buffer_bindings,
            limits.max_stage_shader_storage_blocks,
            graphics,
            _STORAGE_PRIORITY,
        )
        image = _split(limits.max_image_units, limits.max_stage_image_uniforms, graphics, _STORAGE_PRIORITY)
        atomic = _split(
            limits.max_atomic_counter_buffer_bindings,
            limits.max_stage_atomic_counter_buffers,
            graphics,
            _STORAGE_PRIORITY,
        )
        # Texture units go to the stages in _STORAGE_PRIORITY order, FRAG
        # first: the fragment shader samples most, and the host's cost of a
        # draw after a texture switch grows with the unit number (measured on
        # llvmpipe: ~0.14 us more per draw on unit 128 than on unit 0).
        tex_order = [s for s in _STORAGE_PRIORITY if s in graphics]
        tex_base = {s: i * tex_each for i, s in enumerate(tex_order)}
        out: dict[str, StageBindings] = {}
        bases = {"ubo": 0, "ssbo": 0, "image": 0, "atomic": 0}
        for stage in graphics:
            out[stage] = StageBindings(
                ubo_base=bases["ubo"],
                ubo_count=ubo_each,
                tex_base=tex_base[stage],
                tex_count=tex_each,
                ssbo_base=bases["ssbo"],
                ssbo_count=ssbo[stage],
                image_base=bases["image"],
                image_count=image[stage],
                atomic_base=bases["atomic"],
                atomic_count=atomic[stage],
                sysvals_binding=sysvals,
            )
            bases["ubo"] += ubo_each
            bases["ssbo"] += ssbo[stage]
            bases["image"] += image[stage]
            bases["atomic"] += atomic[stage]
        out["COMP"] = StageBindings(
            ubo_base=0,
            ubo_count=min(limits.max_stage_uniform_blocks - 1, limits.max_uniform_buffer_bindings - 1),
            tex_base=0,
            tex_count=min(limits.max_stage_texture_image_units, usable_tex),
            ssbo_base=0,
            ssbo_count=min(limits.max_shader_storage_buffer_bindings, limits.max_stage_shader_storage_blocks),
            image_base=0,
            image_count=min(limits.max_image_units, limits.max_stage_image_uniforms),
            atomic_base=0,
            atomic_count=min(limits.max_atomic_counter_buffer_bindings, limits.max_stage_atomic_counter_buffers),
            sysvals_binding=sysvals,
        )
        return cls(limits, out)

    @classmethod
    def gl33(cls) -> BindingLayout:
        """The default layout for the GL 3.3 minimum limits (VS, GS, FS)."""
        return cls.for_limits(HostLimits.gl33(), ("VERT", "GEOM", "FRAG"))

    @classmethod
    def gl45(cls) -> BindingLayout:
        """The default layout for the GL 4.5 minimum limits (all stages)."""
        return cls.for_limits(HostLimits.gl45(), GRAPHICS_STAGES)

    @classmethod
    def default_for(cls, glsl_version: int, extensions: Iterable[str] = ()) -> BindingLayout:
        """The layout of the minimum limits of the GL that goes with ``glsl_version``:
        ``gl45()`` from GLSL 400 on; below, the GL 3.3 limits plus what the given
        extensions add (tessellation stages, the GL 4.3 minimum SSBO / image /
        atomic counter bindings)."""
        if glsl_version >= 400:
            return cls.gl45()
        ext = frozenset(extensions)
        limits = HostLimits.gl33()
        g45 = HostLimits.gl45()
        changes: dict[str, int] = {}
        if "GL_ARB_shader_storage_buffer_object" in ext:
            changes.update(
                max_shader_storage_buffer_bindings=g45.max_shader_storage_buffer_bindings,
                max_stage_shader_storage_blocks=g45.max_stage_shader_storage_blocks,
            )
        if "GL_ARB_shader_image_load_store" in ext:
            changes.update(max_image_units=g45.max_image_units, max_stage_image_uniforms=g45.max_stage_image_uniforms)
        if "GL_ARB_shader_atomic_counters" in ext:
            changes.update(
                max_atomic_counter_buffer_bindings=g45.max_atomic_counter_buffer_bindings,
                max_stage_atomic_counter_buffers=g45.max_stage_atomic_counter_buffers,
            )
        stages: tuple[str, ...] = ("VERT", "GEOM", "FRAG")
        if "GL_ARB_tessellation_shader" in ext:
            stages = GRAPHICS_STAGES
            changes.update(max_uniform_buffer_bindings=60, max_combined_texture_image_units=80)
        if changes:
            from dataclasses import replace

            limits = replace(limits, **changes)
        return cls.for_limits(limits, stages)

    # -- lookups -------------------------------------------------------------
    def stage(self, stage: str) -> StageBindings:
        """The ranges of ``stage`` (raises UnsupportedError if the layout has none)."""
        try:
            return self.stages[stage]
        except KeyError:
            raise UnsupportedError(f"the binding layout has no slots for stage {stage} (host lacks it)") from None

    def _slot(self, stage: str, index: int, base: int, count: int, what: str, limit_name: str) -> int:
        if index < 0:
            raise InvalidArgumentError(f"{what} index {index} is negative")
        if index >= count:
            raise UnsupportedError(
                f"{what} {index} of stage {stage} exceeds the {count} glpipe exposes per stage "
                f"on this host ({limit_name})"
            )
        return base + index

    def ubo_binding(self, stage: str, index: int) -> int:
        """UBO binding of constant buffer ``index`` of ``stage``."""
        s = self.stage(stage)
        return self._slot(
            stage,
            index,
            s.ubo_base,
            s.ubo_count,
            "constant buffer",
            "GL_MAX_UNIFORM_BUFFER_BINDINGS / per-stage uniform blocks, minus sysvals",
        )

    def texture_unit(self, stage: str, index: int) -> int:
        """Texture unit of SAMP/SVIEW ``index`` of ``stage``."""
        s = self.stage(stage)
        return self._slot(
            stage,
            index,
            s.tex_base,
            s.tex_count,
            "sampler",
            "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS - 1 shared by the stages",
        )

    def ssbo_binding(self, stage: str, index: int) -> int:
        """SSBO binding of BUFFER ``index`` of ``stage``."""
        s = self.stage(stage)
        return self._slot(
            stage,
            index,
            s.ssbo_base,
            s.ssbo_count,
            "shader buffer",
            "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS shared by the stages",
        )

    def image_unit(self, stage: str, index: int) -> int:
        """Image unit of IMAGE ``index`` of ``stage``."""
        s = self.stage(stage)
        return self._slot(stage, index, s.image_base, s.image_count, "image", "GL_MAX_IMAGE_UNITS shared by the stages")

    def atomic_binding(self, stage: str, index: int) -> int:
        """Atomic counter buffer binding of HWATOMIC buffer ``index`` of ``stage``."""
        s = self.stage(stage)
        return self._slot(
            stage,
            index,
            s.atomic_base,
            s.atomic_count,
            "atomic counter buffer",
            "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS shared by the stages",
        )

    @property
    def sysvals_binding(self) -> int:
        """The UBO binding of the ``glp_sysvals`` block (the same in every stage)."""
        return next(iter(self.stages.values())).sysvals_binding

    def free_texture_unit(self, stage: str, used: Iterable[int]) -> int | None:
        """A unit of ``stage``'s range not in ``used`` (highest first), or None.

        Used when one sampler view is sampled through more than one GLSL
        sampler (different sampler states, or shadow and non-shadow)."""
        s = self.stage(stage)
        taken = set(used)
        for unit in range(s.tex_base + s.tex_count - 1, s.tex_base - 1, -1):
            if unit not in taken:
                return unit
        return None

    def free_texture_units(self, stage: str, used: Iterable[int], count: int) -> int | None:
        """The first unit of ``count`` consecutive units of ``stage``'s range not in
        ``used`` (the highest such block), or None.

        Used for a sampler array (an indexed SAMP / SVIEW range) whose own units
        ``tex_base + n`` hold samplers of another type: ``layout(binding = u)``
        on an array gives its elements the consecutive units ``u, u + 1, ...``."""
        s = self.stage(stage)
        taken = set(used)
        for first in range(s.tex_base + s.tex_count - count, s.tex_base - 1, -1):
            if not taken.intersection(range(first, first + count)):
                return first
        return None

    def describe(self) -> str:
        """A plain-text table of the layout (for ``python -m lowering --bindings`` and docs)."""
        rows = [
            "stage      UBO        textures   SSBO       images     atomics",
            "---------  ---------  ---------  ---------  ---------  ---------",
        ]

        def rng(base, count):
            return "-" if count == 0 else f"{base}..{base + count - 1}"

        for name, s in self.stages.items():
            rows.append(
                f"{name:<9}  {rng(s.ubo_base, s.ubo_count):<9}  {rng(s.tex_base, s.tex_count):<9}  "
                f"{rng(s.ssbo_base, s.ssbo_count):<9}  {rng(s.image_base, s.image_count):<9}  "
                f"{rng(s.atomic_base, s.atomic_count):<9}"
            )
        rows.append(f"glp_sysvals: UBO binding {self.sysvals_binding} (all stages)")
        return "\n".join(rows)


__all__ = ["HostLimits", "StageBindings", "BindingLayout", "GRAPHICS_STAGES", "ALL_STAGES"]
