"""Sampler CSOs (the samplers area, ``SamplerPart``): create_sampler_state,
bind_sampler_states, delete_sampler_state.

A ``pipe_sampler_state`` becomes a GL sampler object once, at create time;
binding is a pointer swap per slot plus ``Dirty.SAMPLERS``, and the GL
sampler reaches its texture unit in glpipe/sampler_views.py's emit.
docs/samplers.md "Sampler state → GL sampler object" says how each field
maps (GL_CLAMP in the shader, border colours per kind, RECT and integer
companions, what the host must have).
"""

from __future__ import annotations

import itertools
import struct
import weakref
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError, UnsupportedError

from .boundary import items, show
from .dirty import Dirty
from .enums import (
    PIPE_MAX_SAMPLERS,
    ShaderType,
    TexCompare,
    TexFilter,
    TexMipFilter,
    TexReduction,
    TexWrap,
)
from .lifetime import defer_call
from .part import Area, Part
from .shaders import STAGE_PROCESSOR, variant_input
from .templates import SamplerState

# Enum values PyOpenGL's core namespace does not carry (the extensions'
# headers): EXT_texture_mirror_clamp, ARB_texture_filter_minmax,
# ARB_seamless_cubemap_per_texture (the pname is the global enable's enum).
GL_MIRROR_CLAMP_EXT = 0x8742
GL_MIRROR_CLAMP_TO_EDGE = 0x8743
GL_MIRROR_CLAMP_TO_BORDER_EXT = 0x8912
GL_TEXTURE_REDUCTION_MODE_ARB = 0x9366
GL_TEXTURE_CUBE_MAP_SEAMLESS = 0x884F
GL_TEXTURE_MAX_ANISOTROPY = 0x84FE

# TexWrap -> (GL wrap enum name or value, host feature needed or None).
# CLAMP is not here: it depends on the filters (see the module docstring).
_WRAP = {
    TexWrap.REPEAT: ("GL_REPEAT", None),
    TexWrap.CLAMP_TO_EDGE: ("GL_CLAMP_TO_EDGE", None),
    TexWrap.CLAMP_TO_BORDER: ("GL_CLAMP_TO_BORDER", None),
    TexWrap.MIRROR_REPEAT: ("GL_MIRRORED_REPEAT", None),
    TexWrap.MIRROR_CLAMP_TO_EDGE: (GL_MIRROR_CLAMP_TO_EDGE, "texture_mirror_clamp_to_edge"),
    TexWrap.MIRROR_CLAMP: (GL_MIRROR_CLAMP_EXT, "texture_mirror_clamp"),
    TexWrap.MIRROR_CLAMP_TO_BORDER: (GL_MIRROR_CLAMP_TO_BORDER_EXT, "texture_mirror_clamp"),
}

# Wrap modes under which a fetch can read the border colour.
_BORDER_WRAPS = frozenset(
    {TexWrap.CLAMP_TO_BORDER, TexWrap.MIRROR_CLAMP, TexWrap.MIRROR_CLAMP_TO_BORDER, TexWrap.CLAMP}
)

# (min_img_filter, min_mip_filter) -> GL min filter.
_MIN_FILTER = {
    (TexFilter.NEAREST, TexMipFilter.NONE): "GL_NEAREST",
    (TexFilter.LINEAR, TexMipFilter.NONE): "GL_LINEAR",
    (TexFilter.NEAREST, TexMipFilter.NEAREST): "GL_NEAREST_MIPMAP_NEAREST",
    (TexFilter.LINEAR, TexMipFilter.NEAREST): "GL_LINEAR_MIPMAP_NEAREST",
    (TexFilter.NEAREST, TexMipFilter.LINEAR): "GL_NEAREST_MIPMAP_LINEAR",
    (TexFilter.LINEAR, TexMipFilter.LINEAR): "GL_LINEAR_MIPMAP_LINEAR",
}
_MAG_FILTER = {TexFilter.NEAREST: "GL_NEAREST", TexFilter.LINEAR: "GL_LINEAR"}
_REDUCTION = {TexReduction.MIN: "GL_MIN", TexReduction.MAX: "GL_MAX"}


class _Param(NamedTuple):
    """One glSamplerParameter call of a CSO's GL sampler objects."""

    setter: str  # "i": glSamplerParameteri, "f": glSamplerParameterf
    pname: int
    value: int | float


# Border kinds: which glSamplerParameter*v holds the border words.
BORDER_FLOAT, BORDER_UINT, BORDER_SINT = 0, 1, 2


def _border_words(templ: SamplerState, what: str) -> tuple:
    """The border colour as four 32-bit words (pipe_color_union)."""
    values = templ.border_color
    if templ.border_color_is_integer:
        words = []
        for i, v in enumerate(values):
            if isinstance(v, float) and not v.is_integer():
                raise InvalidArgumentError(
                    f"{what}: SamplerState.border_color[{i}] = {v!r} is not an integer, "
                    f"but border_color_is_integer is set"
                )
            v = int(v)
            if not -(1 << 31) <= v < (1 << 32):
                raise InvalidArgumentError(f"{what}: SamplerState.border_color[{i}] = {v} does not fit 32 bits")
            words.append(v & 0xFFFFFFFF)
        return tuple(words)
    return struct.unpack("<4I", struct.pack("<4f", *(float(v) for v in values)))


_SERIALS = itertools.count(1)  # SamplerCSO.serial

# sysvals.sampler_lod .w: how textureQueryLod's .x follows the mip filter (GLSL 4.00 8.9.1).
_LODQ_MIP_FILTER = {TexMipFilter.NONE: 0, TexMipFilter.NEAREST: 1, TexMipFilter.LINEAR: 2}


class SamplerCSO:
    """A sampler state object: the GL sampler object(s) made at create time.

    ``gl_sampler`` holds the float border; ``gl_clamp`` is the (s, t, r)
    triple of booleans telling whether the shader must clamp that
    coordinate (PIPE_TEX_WRAP_CLAMP with linear filtering).
    """

    __slots__ = (
        "__weakref__",
        "_border_words",
        "_mip_min_filter",
        "_params",
        "_per_kind",
        "_release",
        "_variants",
        "context",
        "destroyed",
        "gl_clamp",
        "gl_sampler",
        "lodq",
        "seamless",
        "serial",
        "templ",
        "unnormalized",
    )

    def __init__(self, context, templ, params, gl_clamp, border_words, per_kind, mip_min_filter):
        self.context = context
        self.templ = templ
        self.destroyed = False
        self.gl_clamp = gl_clamp
        self.seamless = bool(templ.seamless_cube_map)
        self.unnormalized = bool(templ.unnormalized_coords)
        # What LODQ reads from the sysvals block where the host has no textureQueryLod
        # (lowering.glsl.sysval_block "sampler_lod"): bias, lod clamps, mip filter code.
        self.lodq = (
            float(templ.lod_bias),
            float(templ.min_lod),
            float(templ.max_lod),
            float(_LODQ_MIP_FILTER[TexMipFilter(templ.min_mip_filter)]),
        )
        self._params = params
        self._border_words = border_words
        # Integer views need their own GL sampler: for the border's kind, or
        # for NEAREST filters (GL: an integer texture is incomplete otherwise).
        self._per_kind = per_kind
        # (GL min filter without mipmapping) when the min filter mipmaps, else None.
        self._mip_min_filter = mip_min_filter
        self._variants: dict[tuple, int] = {}
        self.gl_sampler = 0
        # Unique for the process: what the views' GL-sampler caches are keyed by
        # (SamplerView.sampler_names), so they do not keep a dropped CSO alive.
        self.serial = next(_SERIALS)

    def gl_name(self, border_kind: int, rect: bool) -> int:
        """The GL sampler for a view whose format is float or pure integer
        (``border_kind`` BORDER_FLOAT/UINT/SINT: how the border words are
        stored, and integer views get NEAREST filters), RECT or not.

        Made on first use and kept: one GL object per distinct need."""
        if not self._per_kind:
            border_kind = BORDER_FLOAT
        rect = rect and self._mip_min_filter is not None
        if border_kind == BORDER_FLOAT and not rect:
            return self.gl_sampler
        key = (border_kind, rect)
        name = self._variants.get(key)
        if name is None:
            name = self.context.samplers_part._make_gl_sampler(self, border_kind, rect)
            self._variants[key] = name
        return name

    def all_gl_names(self) -> list:
        """Every GL sampler object this CSO made."""
        return [self.gl_sampler, *self._variants.values()]

    def __repr__(self) -> str:
        t = self.templ
        return (
            f"<SamplerCSO wrap {t.wrap_s.name}/{t.wrap_t.name}/{t.wrap_r.name} "
            f"min {t.min_img_filter.name}/{t.min_mip_filter.name} mag {t.mag_img_filter.name}>"
        )


class SamplerPart(Part):
    """The context's sampler CSOs and their slots (``ctx.samplers_part``)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # Bound sampler CSOs per stage (indexed by ShaderType), PIPE_MAX_SAMPLERS slots each.
        self.sampler_states = [[None] * PIPE_MAX_SAMPLERS for _ in ShaderType]
        # VariantKey.gl_clamp per stage: (s, t, r) bitmasks over the slots.  A
        # tuple, replaced on change: it is a variant-key input as a whole
        # (variant_keys.py _variant_inputs).
        self.gl_clamp_masks = ((0, 0, 0),) * len(ShaderType)
        self.gl_clamp_input = variant_input(self.gl_clamp_masks)  # its holder (shaders.variant_input)
        # Live sampler CSOs, weakly (a dropped one leaves by its finalizer).
        self._sampler_csos: weakref.WeakSet[SamplerCSO] = weakref.WeakSet()
        prof = ctx.screen.profile
        self.seamless_per_sampler = prof.has("seamless_cubemap_per_texture")
        self._max_anisotropy = (
            float(prof.limit("GL_MAX_TEXTURE_MAX_ANISOTROPY")) if prof.has("texture_filter_anisotropic") else 0.0
        )

    # -- create / bind / delete ----------------------------------------------

    def create_sampler_state(self, templ: SamplerState) -> SamplerCSO:
        """pipe_context::create_sampler_state: translate the template into a
        GL sampler object now (UnsupportedError for wrap or reduction modes
        the host cannot do)."""
        ctx = self.ctx
        ctx.check_alive("create_sampler_state")
        what = "create_sampler_state"
        if not isinstance(templ, SamplerState):
            raise InvalidArgumentError(f"{what}: expected a SamplerState, got {type(templ).__name__}")
        gl = ctx.gl
        prof = ctx.screen.profile
        linear = templ.min_img_filter == TexFilter.LINEAR or templ.mag_img_filter == TexFilter.LINEAR
        params = []
        clamp = []
        for field, pname in (
            ("wrap_s", gl.GL_TEXTURE_WRAP_S),
            ("wrap_t", gl.GL_TEXTURE_WRAP_T),
            ("wrap_r", gl.GL_TEXTURE_WRAP_R),
        ):
            wrap = getattr(templ, field)
            if wrap == TexWrap.CLAMP:
                # NEAREST: GL_CLAMP's clamp to [0,1] then floor is CLAMP_TO_EDGE.
                # LINEAR: clamp in the shader, border from the sampler.
                glwrap = int(gl.GL_CLAMP_TO_BORDER if linear else gl.GL_CLAMP_TO_EDGE)
                clamp.append(linear)
            else:
                name, feature = _WRAP[wrap]
                if feature is not None and not prof.has(feature):
                    raise UnsupportedError(
                        f"{what}: SamplerState.{field} = {wrap.name} needs the host feature {feature!r} "
                        f"(not on the {prof.name} profile; the caps TEXTURE_MIRROR_CLAMP"
                        f"{'_TO_EDGE' if wrap == TexWrap.MIRROR_CLAMP_TO_EDGE else ''} say 0)"
                    )
                glwrap = int(getattr(gl, name)) if isinstance(name, str) else name
                clamp.append(False)
            params.append(_Param("i", int(pname), glwrap))
        min_filter = int(getattr(gl, _MIN_FILTER[(templ.min_img_filter, templ.min_mip_filter)]))
        params.append(_Param("i", int(gl.GL_TEXTURE_MIN_FILTER), min_filter))
        params.append(_Param("i", int(gl.GL_TEXTURE_MAG_FILTER), int(getattr(gl, _MAG_FILTER[templ.mag_img_filter]))))
        mip_min = None
        if templ.min_mip_filter != TexMipFilter.NONE:
            mip_min = int(getattr(gl, _MIN_FILTER[(templ.min_img_filter, TexMipFilter.NONE)]))
        params.append(_Param("f", int(gl.GL_TEXTURE_MIN_LOD), float(templ.min_lod)))
        params.append(_Param("f", int(gl.GL_TEXTURE_MAX_LOD), float(templ.max_lod)))
        params.append(_Param("f", int(gl.GL_TEXTURE_LOD_BIAS), float(templ.lod_bias)))
        if templ.compare_mode == TexCompare.R_TO_TEXTURE:
            params.append(_Param("i", int(gl.GL_TEXTURE_COMPARE_MODE), int(gl.GL_COMPARE_REF_TO_TEXTURE)))
            params.append(_Param("i", int(gl.GL_TEXTURE_COMPARE_FUNC), int(gl.GL_NEVER) + int(templ.compare_func)))
        else:
            params.append(_Param("i", int(gl.GL_TEXTURE_COMPARE_MODE), int(gl.GL_NONE)))
        if templ.max_anisotropy > 1 and self._max_anisotropy > 1.0:
            anisotropy = min(float(templ.max_anisotropy), self._max_anisotropy)
            params.append(_Param("f", GL_TEXTURE_MAX_ANISOTROPY, anisotropy))
        if self.seamless_per_sampler:
            params.append(_Param("i", GL_TEXTURE_CUBE_MAP_SEAMLESS, int(bool(templ.seamless_cube_map))))
        if templ.reduction_mode != TexReduction.WEIGHTED_AVERAGE:
            if not prof.has("texture_filter_minmax"):
                raise UnsupportedError(
                    f"{what}: SamplerState.reduction_mode = {templ.reduction_mode.name} needs the host feature "
                    f"'texture_filter_minmax' (not on the {prof.name} profile; SAMPLER_REDUCTION_MINMAX is 0)"
                )
            reduction = int(getattr(gl, _REDUCTION[templ.reduction_mode]))
            params.append(_Param("i", GL_TEXTURE_REDUCTION_MODE_ARB, reduction))
        words = _border_words(templ, what)
        uses_border = any(getattr(templ, f) in _BORDER_WRAPS for f in ("wrap_s", "wrap_t", "wrap_r"))
        cso = ctx._own(SamplerCSO(ctx, templ, tuple(params), tuple(clamp), words, uses_border or linear, mip_min))
        cso.gl_sampler = self._make_gl_sampler(cso, BORDER_FLOAT, False)
        ctx.host.check(what)
        self._sampler_csos.add(cso)
        # Dropped without delete_sampler_state: its GL samplers go at the next
        # drain on the GL thread (glpipe/lifetime.py); the dict of variants is
        # passed, not the CSO, so the finalizer does not keep it alive.
        cso._release = weakref.finalize(
            cso, defer_call, ctx.host, self._sampler_dropped, cso.serial, cso.gl_sampler, cso._variants
        )
        return cso

    def _sampler_dropped(self, serial: int, gl_sampler: int, variants: dict) -> None:
        """A sampler CSO was dropped unreferenced: forget its GL samplers in the
        views' caches and the units' shadows, and delete them (GL thread)."""
        if self.ctx.destroyed:
            return  # destroy() deleted them
        names = [gl_sampler, *variants.values()]
        self.ctx.sampler_views_part._forget_sampler(serial, names)
        self.ctx.gl.glDeleteSamplers(len(names), np.array(names, np.uint32))

    def _make_gl_sampler(self, cso: SamplerCSO, border_kind: int, rect: bool) -> int:
        """One GL sampler object for ``cso`` (border stored as ``border_kind``)."""
        ctx = self.ctx
        gl = ctx.gl
        name = int(gl.glGenSamplers(1))
        seti, setf = gl.glSamplerParameteri, gl.glSamplerParameterf
        min_pname, mag_pname = int(gl.GL_TEXTURE_MIN_FILTER), int(gl.GL_TEXTURE_MAG_FILTER)
        mipmapped = cso.templ.min_mip_filter != TexMipFilter.NONE and not rect
        # Integer textures are never filtered (GL makes them incomplete
        # otherwise; Gallium drivers fetch the nearest texel).
        integer_min = int(gl.GL_NEAREST_MIPMAP_NEAREST if mipmapped else gl.GL_NEAREST)
        for kind, pname, value in cso._params:
            if rect and pname == min_pname:
                value = cso._mip_min_filter
            if border_kind != BORDER_FLOAT and pname in (min_pname, mag_pname):
                value = integer_min if pname == min_pname else int(gl.GL_NEAREST)
            if kind == "i":
                seti(name, pname, value)
            else:
                setf(name, pname, value)
        words = np.array(cso._border_words, np.uint32)
        if border_kind == BORDER_FLOAT:
            gl.glSamplerParameterfv(name, gl.GL_TEXTURE_BORDER_COLOR, words.view(np.float32))
        elif border_kind == BORDER_UINT:
            gl.glSamplerParameterIuiv(name, gl.GL_TEXTURE_BORDER_COLOR, words)
        else:
            gl.glSamplerParameterIiv(name, gl.GL_TEXTURE_BORDER_COLOR, words.view(np.int32))
        return name

    def bind_sampler_states(
        self, shader_type: ShaderType | int, start_slot: int, samplers: Sequence[SamplerCSO | None] | None
    ) -> None:
        """pipe_context::bind_sampler_states(shader, start_slot, samplers):
        slots ``start_slot …`` of stage ``shader_type`` take ``samplers``
        (None entries unbind).  A bind that changes nothing does nothing."""
        ctx = self.ctx
        what = "bind_sampler_states"
        stage = shader_type if type(shader_type) is ShaderType else _stage_arg(shader_type, what)
        slots = self.sampler_states[stage]
        if _same_slots(slots, start_slot, samplers, PIPE_MAX_SAMPLERS) and not ctx.destroyed:
            return  # compare first: a bind that changes nothing validates nothing
        ctx.check_alive(what)
        samplers = () if samplers is None else items(samplers, f"{what}: samplers")
        start = _slot_range(start_slot, len(samplers), PIPE_MAX_SAMPLERS, what, "PIPE_MAX_SAMPLERS")
        changed = False
        for i, cso in enumerate(samplers):
            if cso is not None:
                ctx._check_cso(cso, SamplerCSO, f"{what}: samplers[{i}]")
            if slots[start + i] is not cso:
                if cso is not None:
                    # A slot beyond the stage's texture units can never be sampled.
                    ctx.bindings.texture_unit(STAGE_PROCESSOR[stage], start + i)
                changed = True
        if not changed:
            return
        slots[start : start + len(samplers)] = samplers
        ctx.dirty |= Dirty.SAMPLERS
        if ctx.sysvals_part.sampler_lod_sysval:  # LODQ on gl33 (glpipe/sysvals.py)
            ctx.sysvals_part.set_sampler_lod(stage, start, samplers)
        if ctx.sysvals_part.sampler_seamless_sysval:  # cube TG4 on gl33 (glpipe/sysvals.py)
            ctx.sysvals_part.set_sampler_seamless(stage, start, samplers)
        self._update_gl_clamp(stage)

    def _update_gl_clamp(self, stage: int) -> None:
        """Recompute the stage's GL_CLAMP masks; a change needs a new variant."""
        masks = [0, 0, 0]
        for slot, cso in enumerate(self.sampler_states[stage]):
            if cso is not None:
                for c in range(3):
                    if cso.gl_clamp[c]:
                        masks[c] |= 1 << slot
        masks = tuple(masks)
        if masks != self.gl_clamp_masks[stage]:
            per_stage = list(self.gl_clamp_masks)
            per_stage[stage] = masks
            self.gl_clamp_masks = tuple(per_stage)
            self.gl_clamp_input = variant_input(self.gl_clamp_masks)
            self.ctx.dirty |= Dirty.PROGRAM

    def delete_sampler_state(self, cso: SamplerCSO) -> None:
        """pipe_context::delete_sampler_state: free the GL sampler(s); slots
        still holding it are unbound (Mesa's drivers do the same)."""
        ctx = self.ctx
        ctx._check_cso(cso, SamplerCSO, "delete_sampler_state")
        for stage, slots in enumerate(self.sampler_states):
            if cso in slots:
                for i, s in enumerate(slots):
                    if s is cso:
                        slots[i] = None
                ctx.dirty |= Dirty.SAMPLERS
                self._update_gl_clamp(stage)
        names = cso.all_gl_names()
        cso._release.detach()  # deleted here, not when dropped
        ctx.sampler_views_part._forget_sampler(cso.serial, names)
        ctx.gl.glDeleteSamplers(len(names), np.array(names, np.uint32))
        cso._variants.clear()
        cso.destroyed = True
        self._sampler_csos.discard(cso)

    destroy_sampler_state = delete_sampler_state

    def destroy(self) -> None:
        """Context.destroy: delete every GL sampler object of the context's CSOs."""
        csos = list(self._sampler_csos)
        names = [n for cso in csos for n in cso.all_gl_names()]
        if names:
            self.ctx.gl.glDeleteSamplers(len(names), np.array(names, np.uint32))
        for cso in csos:
            cso._release.detach()
            cso.destroyed = True
        self._sampler_csos = weakref.WeakSet()


# ShaderType by value (the members hash as their ints): a dict lookup instead
# of an enum construction on every set_* call.
_STAGES = {int(s): s for s in ShaderType}


def _stage_arg(shader, what: str) -> ShaderType:
    stage = _STAGES.get(shader) if type(shader) in (int, ShaderType) else None
    if stage is None:
        try:
            if isinstance(shader, bool):
                raise ValueError
            return ShaderType(shader)
        except (ValueError, TypeError):
            raise InvalidArgumentError(f"{what}: {show(shader)} is not a ShaderType") from None
    return stage


def _same_slots(slots: list, start_slot, items, maximum: int) -> bool:
    """Whether ``items`` (a list or tuple) are exactly the objects in
    ``slots`` from ``start_slot`` on -- a redundant set_* / bind_* call.
    False for anything unusual (the caller's full path validates it)."""
    if type(start_slot) is not int or type(items) not in (list, tuple):
        return False
    end = start_slot + len(items)
    if start_slot < 0 or end > maximum:
        return False
    i = start_slot
    for item in items:
        if slots[i] is not item:
            return False
        i += 1
    return True


def _slot_range(start_slot, count: int, maximum: int, what: str, limit_name: str) -> int:
    """Validate ``start_slot .. start_slot + count`` against ``maximum``; return start."""
    if isinstance(start_slot, bool) or not isinstance(start_slot, (int, np.integer)):
        raise InvalidArgumentError(f"{what}: start_slot must be an integer, got {show(start_slot)}")
    start = int(start_slot)
    if start < 0:
        raise InvalidArgumentError(f"{what}: start_slot {show(start)} is negative")
    if start > maximum:
        raise InvalidArgumentError(f"{what}: start_slot {show(start)} is outside 0..{maximum} ({limit_name})")
    if start + count > maximum:
        raise InvalidArgumentError(f"{what}: slots {start}..{start + count - 1} exceed {limit_name} = {maximum}")
    return start


AREA = Area(
    "samplers_part",
    part=SamplerPart,
    methods=("create_sampler_state", "bind_sampler_states", "delete_sampler_state", "destroy_sampler_state"),
    destroy=SamplerPart.destroy,
)

__all__ = ["AREA", "BORDER_FLOAT", "BORDER_SINT", "BORDER_UINT", "SamplerCSO", "SamplerPart"]
