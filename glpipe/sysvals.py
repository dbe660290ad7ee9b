"""The ``glp_sysvals`` uniform block: one UBO per context, uploaded when dirty.

``SysvalsPart`` (``ctx.sysvals_part``) keeps a CPU copy of the block whose
layout belongs to the lowering (``lowering.glsl.sysval_block.SYSVALS``);
``_set_sysval`` marks the changed byte range, ``_emit_sysvals`` uploads it
at draw and keeps the block bound.  docs/bindings.md "The sysvals block"
has the fields and how the context keeps them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError
from lowering.glsl.sysval_block import SIZE as SYSVALS_SIZE
from lowering.glsl.sysval_block import SYSVALS, field_offset, sampler_lod_index, view_levels_word

from .dirty import Dirty
from .part import Area, Part

# GLSL base type of a field -> numpy element type of its 4 components.
_ELEMENT = {"vec4": np.float32, "uvec4": np.uint32, "ivec4": np.int32}


class _Field(NamedTuple):
    """Where a field of the block lives in the CPU copy."""

    word: int  # first 32-bit word
    nwords: int  # number of words (4 per element)
    dtype: type  # numpy element type


# name -> _Field, from the lowering's table.
_FIELDS = {f.name: _Field(f.offset // 4, 4 * f.count, _ELEMENT[f.glsl_type]) for f in SYSVALS}


class SysvalsPart(Part):
    """The sysvals area of a context (``ctx.sysvals_part``): the
    ``glp_sysvals`` UBO and its CPU copy.  Other areas write fields with
    ``ctx.sysvals_part._set_sysval(name, values, index)``."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        gl = ctx.gl
        self._sysvals = np.zeros(SYSVALS_SIZE, np.uint8)
        # One typed view per element kind over the same bytes.
        self._sysvals_views = {dt: self._sysvals.view(dt) for dt in set(_ELEMENT.values())}
        self._sysvals_lo = 0  # dirty byte range [lo, hi)
        self._sysvals_hi = SYSVALS_SIZE
        self._sysvals_binding = ctx.bindings.sysvals_binding
        self._gl_uniform_buffer = int(gl.GL_UNIFORM_BUFFER)
        self._sysvals_ubo = int(gl.glGenBuffers(1))
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, self._sysvals_ubo)
        gl.glBufferData(gl.GL_UNIFORM_BUFFER, SYSVALS_SIZE, None, gl.GL_DYNAMIC_DRAW)
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, 0)
        self._sysvals_bound = False  # whether the binding point holds our UBO
        # TXQ .w without textureQueryLevels (gl33): bound views' level counts, written
        # at bind time (set_view_levels); the first word of sysvals.view_levels.
        self._view_levels_word0 = field_offset("view_levels") // 4
        # LODQ without textureQueryLod: bound samplers' lod parameters (set_sampler_lod).
        self.sampler_lod_sysval = not ctx.screen.profile.has("texture_query_lod")
        # TG4 on a cube without textureGather: bound samplers' seamless_cube_map (set_sampler_seamless).
        self.sampler_seamless_sysval = not ctx.screen.profile.has("texture_gather")
        self._sampler_seamless_word0 = field_offset("sampler_seamless") // 4
        ctx.dirty |= Dirty.SYSVALS

    def _set_sysval(self, name: str, values, index: int = 0) -> None:
        """Write ``values`` (up to 4 numbers) into element ``index`` of field
        ``name``; marks Dirty.SYSVALS only if the bytes change."""
        try:
            word, nwords, dtype = _FIELDS[name]
        except KeyError:
            raise InvalidArgumentError(f"glp_sysvals has no field {name!r}") from None
        if not 0 <= index < nwords // 4:
            raise InvalidArgumentError(f"glp_sysvals.{name}[{index}]: index out of range")
        new = np.asarray(values, dtype)
        if new.ndim != 1 or not 1 <= new.size <= 4:
            raise InvalidArgumentError(f"glp_sysvals.{name}: expected 1..4 components, got {values!r}")
        start = word + 4 * index
        end = start + new.size
        view = self._sysvals_views[dtype]
        if np.array_equal(view[start:end], new):
            return
        view[start:end] = new
        lo, hi = 4 * start, 4 * end
        self._mark_dirty(lo, hi)

    def _mark_dirty(self, lo: int, hi: int) -> None:
        """Widen the dirty byte range by [lo, hi) and mark Dirty.SYSVALS."""
        if self._sysvals_hi <= self._sysvals_lo:
            self._sysvals_lo, self._sysvals_hi = lo, hi
        else:
            self._sysvals_lo = min(self._sysvals_lo, lo)
            self._sysvals_hi = max(self._sysvals_hi, hi)
        self.ctx.dirty |= Dirty.SYSVALS

    def set_view_levels(self, stage: int, start: int, views) -> None:
        """sysvals.view_levels of slots ``start ...`` of ``stage`` (a PIPE_SHADER_*
        number) from ``views`` (None: an empty slot, 0 levels).  Called by
        glpipe/sampler_views.py where a bound slot's level count changes,
        only on hosts without textureQueryLevels."""
        words = self._sysvals_views[np.uint32]
        first = self._view_levels_word0 + view_levels_word(stage, start)
        for k, view in enumerate(views):
            words[first + k] = 0 if view is None else view.level_count
        lo, hi = 4 * first, 4 * (first + len(views))
        self._mark_dirty(lo, hi)

    def set_sampler_lod(self, stage: int, start: int, samplers) -> None:
        """sysvals.sampler_lod of slots ``start ...`` of ``stage`` from sampler
        CSOs (their ``lodq`` tuple; None: an empty slot, zeros).  Called by
        bind_sampler_states, only on hosts without textureQueryLod (LODQ)."""
        for k, cso in enumerate(samplers):
            self._set_sysval(
                "sampler_lod",
                cso.lodq if cso is not None else (0.0, 0.0, 0.0, 0.0),
                sampler_lod_index(stage, start + k),
            )

    def set_sampler_seamless(self, stage: int, start: int, samplers) -> None:
        """sysvals.sampler_seamless words of slots ``start ...`` of ``stage``: 1 where
        the sampler CSO asks for seamless cube filtering (None: an empty slot, 0).
        Called by bind_sampler_states, only on hosts without textureGather, whose
        cube TG4 (lowering/glsl/texture_gather_cube.py) crosses faces only then."""
        words = self._sysvals_views[np.uint32]
        first = self._sampler_seamless_word0 + sampler_lod_index(stage, start)
        new = np.array([int(cso is not None and cso.seamless) for cso in samplers], np.uint32)
        if np.array_equal(words[first : first + len(new)], new):
            return
        words[first : first + len(new)] = new
        lo, hi = 4 * first, 4 * (first + len(new))
        self._mark_dirty(lo, hi)

    def _get_sysval(self, name: str, index: int = 0) -> tuple:
        """The 4 components of element ``index`` of field ``name`` (the CPU copy)."""
        word, _nwords, dtype = _FIELDS[name]
        start = word + 4 * index
        return tuple(self._sysvals_views[dtype][start : start + 4].tolist())

    def _emit_sysvals(self) -> None:
        """Upload the dirty byte range of the block and keep it bound."""
        ctx = self.ctx
        calls = 0
        lo, hi = self._sysvals_lo, self._sysvals_hi
        if hi > lo:
            gl = ctx.gl
            gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, self._sysvals_ubo)
            gl.glBufferSubData(gl.GL_UNIFORM_BUFFER, lo, hi - lo, self._sysvals[lo:hi])
            gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, 0)
            ctx._counters.bytes_uploaded += hi - lo
            self._sysvals_lo = self._sysvals_hi = 0
            calls += 3
        # Every program links its block to the same binding point, so a new
        # program needs no rebind; only losing the binding does (another
        # context drew with its own block: _forget_sysvals_binding).
        if not self._sysvals_bound:
            ctx._hot.glBindBufferBase(self._gl_uniform_buffer, self._sysvals_binding, self._sysvals_ubo)
            self._sysvals_bound = True
            calls += 1
        ctx._counters.gl_state_calls += calls

    def _forget_sysvals_binding(self) -> None:
        """The binding point may hold another block now (another context of
        the screen drew): bind ours again at the next draw."""
        self._sysvals_bound = False
        self.ctx.dirty |= Dirty.SYSVALS

    def _emit_transform_sysvals(self) -> None:
        """The window transform the variants read: ``fb_size`` (width,
        height and their reciprocals: FS_COORD_ORIGIN LOWER_LEFT flips with
        the height) and viewport 0's Gallium ``scale`` / ``translate``
        (overridden by glpipe/viewport.py ``_emit_window_space`` while a
        VS_WINDOW_SPACE_POSITION VS is bound).  Runs on Dirty.FRAMEBUFFER / VIEWPORT;
        ``_set_sysval`` marks the block dirty only when the bytes change."""
        fb = self.ctx.framebuffer_part.framebuffer
        w, h = float(fb.width), float(fb.height)
        self._set_sysval("fb_size", (w, h, 1.0 / w if w else 0.0, 1.0 / h if h else 0.0))
        vp = self.ctx.viewport_part.viewports[0]
        self._set_sysval("viewport_scale", tuple(vp.scale) + (1.0,))
        self._set_sysval("viewport_translate", tuple(vp.translate) + (0.0,))

    def _reset_sysvals_shadow(self) -> None:
        """Forget what the host holds (raw GL rewrote the buffer): the next
        draw uploads the whole block and rebinds it."""
        self._sysvals_lo, self._sysvals_hi = 0, SYSVALS_SIZE
        self._sysvals_bound = False
        self.ctx.dirty |= Dirty.SYSVALS

    def destroy(self) -> None:
        """Context.destroy: delete the block's UBO."""
        if self._sysvals_ubo:
            self.ctx.gl.glDeleteBuffers(1, [self._sysvals_ubo])
            self._sysvals_ubo = 0


AREA = Area(
    "sysvals_part",
    part=SysvalsPart,
    rows=((Dirty.FRAMEBUFFER | Dirty.VIEWPORT, SysvalsPart._emit_transform_sysvals),),  # fb size, viewport 0
    late_rows=((Dirty.SYSVALS, SysvalsPart._emit_sysvals),),  # the upload: after every row that sets one
    destroy=SysvalsPart.destroy,
    drop_caches=SysvalsPart._reset_sysvals_shadow,
)

__all__ = ["AREA", "SysvalsPart", "SYSVALS_SIZE"]
