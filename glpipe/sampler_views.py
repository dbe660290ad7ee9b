"""Sampler views (the sampler-views area, ``SamplerViewPart``):
create_sampler_view, sampler_view_destroy, set_sampler_views, and the emit
that puts textures and GL samplers on the program's texture units.

The view objects and the rules they are made by are
glpipe/sampler_view_objects.py; comparisons through views are
glpipe/sampler_compare.py.  docs/samplers.md explains the routes to GL
(texture views, texture parameters on gl33, buffer textures), the units'
shadows and the rule for code that binds textures on a Gallium unit.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .boundary import items
from .dirty import Dirty, KeepGeneral
from .enums import PIPE_MAX_SHADER_SAMPLER_VIEWS, Bind, ShaderType, Target
from .formats import Format, host_storage, util_format_description, util_format_get_blocksize
from .lifetime import defer_delete
from .part import Area, Part
from .resource import Resource
from .sampler_compare import (
    COMPARE_GATHERS,
    COMPARE_LOOKUPS,
    compare_view,
    initial_pairs,
    plan_compare,
    update_compare_classes,
)
from .sampler_view_objects import (
    _CUBE_TARGETS,
    _GL_SWIZZLE,
    _GL_TARGET,
    _IDENTITY,
    _TGSI_GL_TARGET,
    _TGSI_TARGET_VIEWS,
    _VIEW_TARGETS,
    MODE_BUFFER,
    MODE_DIRECT,
    MODE_PARAMS,
    MODE_VIEW,
    SamplerView,
    _gl_swizzle_of,
    _layer_count,
    _refuse_view,
    forget_texture_state,
    formats_compatible,
)
from .samplers import BORDER_FLOAT, BORDER_SINT, BORDER_UINT, _slot_range, _stage_arg
from .shaders import GRAPHICS_STAGES
from .templates import SamplerViewTemplate

# A module global: set_sampler_views' one-view switch is the benchmark's
# sampler-view case; measured 12-20 ns less per bind than ``Dirty.SAMPLER_VIEWS``
# (a class attribute load), ~5% of the switch (docs/performance.md).
_SAMPLER_VIEWS = Dirty.SAMPLER_VIEWS
_KEEP_PARAMS = KeepGeneral.TEXTURE_PARAMS
_SEQUENCES = (list, tuple)


class SamplerViewPart(Part):
    """The context's sampler views, their slots and the texture units they
    reach GL through (``ctx.sampler_views_part``)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._epochs = ctx.screen.epochs  # texture_params: gl33 view parameters (forget_texture_state)
        # MODE_PARAMS views set parameters of the shared texture object: once
        # other threads' GL contexts share it (the screen's thread hosts,
        # a dict never replaced) they are checked, set and drawn with under
        # the screen's lock (draw_under_params_lock).
        self._share_hosts = ctx.screen._thread_hosts
        self._params_held = False
        self._keep_params = False  # KeepGeneral.TEXTURE_PARAMS is set on the context
        # Bound views per stage (indexed by ShaderType).
        self.sampler_views = [[None] * PIPE_MAX_SHADER_SAMPLER_VIEWS for _ in ShaderType]
        # Live views (weakly: a dropped view's GL texture goes by its finalizer,
        # _track_gl_view): freed by destroy().
        self.views: weakref.WeakSet[SamplerView] = weakref.WeakSet()
        # TXQ .w without textureQueryLevels (gl33): the level counts the sysvals
        # block holds per stage and slot (_note_view_levels); None natively.
        self._levels_known = (
            None
            if ctx.screen.profile.has("texture_query_levels")
            else [[0] * PIPE_MAX_SHADER_SAMPLER_VIEWS for _ in ShaderType]
        )
        # VariantKey.shadow_swizzle inputs: per stage ((slot, class), ...) of the
        # bound views whose comparison class is not (c, c, c, 1), and its holder.
        self.compare_pairs, self.compare_class_input = initial_pairs(len(ShaderType))
        # Per texture unit (lists: the emit indexes them on every switching draw):
        # (view, GL name) or (None, TGSI target) or None (unknown); GL sampler name or None.
        units = int(ctx.screen.profile.limit("GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS"))
        self.unit_tex: list = [None] * units
        self.unit_sampler: list = [None] * units
        self._seamless_global = False  # host/gl.py disables it at start
        self._fetch_sampler = 0  # GL sampler for units that only fetch (``_fetch_sampler_name``)
        # The samplers area's slots (the list is never replaced) and its
        # seamless-cube capability, which the emit reads with the views.
        self._sampler_states = ctx.samplers_part.sampler_states
        self._seamless_per_sampler = ctx.samplers_part.seamless_per_sampler
        prof = ctx.screen.profile
        self._has_texture_view = prof.has("texture_view")
        self._has_tbo_range = prof.has("texture_buffer_range")
        self._has_dsa = prof.has("direct_state_access")
        self._gl_texture0 = int(ctx.gl.GL_TEXTURE0)
        self._gl_cube_seamless = int(ctx.gl.GL_TEXTURE_CUBE_MAP_SEAMLESS)
        self._scratch_unit_enum = self._gl_texture0 + ctx.host.scratch_texture_unit

    # -- create / destroy ------------------------------------------------------

    def create_sampler_view(self, res: Resource, templ: SamplerViewTemplate) -> SamplerView:
        """pipe_context::create_sampler_view(texture, templ).

        ``templ.format`` NONE means the resource's format.  The format must
        be cast-compatible with the resource's (``formats_compatible``), the
        target one GL can view the resource as, the level and layer ranges
        inside the resource.  Errors name the template field."""
        ctx = self.ctx
        what = "create_sampler_view"
        ctx.check_alive(what)
        ctx._check_resource(res, f"{what}: texture")
        if not isinstance(templ, SamplerViewTemplate):
            raise InvalidArgumentError(f"{what}: expected a SamplerViewTemplate, got {type(templ).__name__}")
        fmt = Format(templ.format) if templ.format != Format.NONE else Format(res.format)
        target = Target(templ.target)
        v = SamplerView()
        v.context, v.texture, v.format, v.target, v.templ = ctx, res, fmt, target, templ
        v.swizzle_r, v.swizzle_g, v.swizzle_b, v.swizzle_a = (
            templ.swizzle_r,
            templ.swizzle_g,
            templ.swizzle_b,
            templ.swizzle_a,
        )
        v.first_level, v.last_level = templ.first_level, templ.last_level
        v.level_count = v.last_level - v.first_level + 1  # TXQ .w on gl33 (set_view_levels)
        v.first_layer, v.last_layer = templ.first_layer, templ.last_layer
        v.offset, v.size = templ.offset, templ.size
        v.destroyed = False
        v._gl_view, v._src_name, v._params, v._gl_release = 0, None, None, None
        v.params_seen = -1  # epochs.texture_params when its parameters were last seen in place
        v.sampler_names = {}  # SamplerCSO.serial -> (GL sampler for this view, needs seamless cube filtering)
        v.is_rect = target == Target.TEXTURE_RECT
        v.is_cube = target in _CUBE_TARGETS
        v.is_buffer = target == Target.BUFFER
        # TGSI sampler targets this view cannot serve (checked at draw: one set lookup).
        v.wrong_tgsi_targets = frozenset(t for t, ok in _TGSI_TARGET_VIEWS.items() if target not in ok)
        v.compare_class = None  # Gallium's (c, c, c, 1); depth views: _plan_texture_view
        v.compare_twin = v  # the view comparing lookups bind (docs/samplers.md)
        desc = util_format_description(fmt)
        v.border_kind = BORDER_SINT if desc.is_pure_sint else BORDER_UINT if desc.is_pure_uint else BORDER_FLOAT
        if (res.target == Target.BUFFER) != v.is_buffer:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate.target {target.name} does not fit a {Target(res.target).name} resource"
            )
        if v.is_buffer:
            self._plan_buffer_view(v, res, fmt)
        else:
            self._plan_texture_view(v, res, fmt, target)
        ctx.host.check(what)
        self.views.add(v)
        return ctx._own(v)

    def _plan_buffer_view(self, v: SamplerView, res, fmt: Format) -> None:
        what = "create_sampler_view"
        screen = self.ctx.screen
        if not screen.is_format_supported(fmt, Target.BUFFER, 0, 0, Bind.SAMPLER_VIEW):
            raise UnsupportedError(
                f"{what}: SamplerViewTemplate.format {fmt.name} cannot be sampled from a "
                f"buffer on the {screen.profile.name} profile (is_format_supported says no)"
            )
        swz = (v.swizzle_r, v.swizzle_g, v.swizzle_b, v.swizzle_a)
        if tuple(int(s) for s in swz) != _IDENTITY:
            # BUFFER_SAMPLER_VIEW_RGBA_ONLY: GL buffer textures have no swizzle.
            raise UnsupportedError(
                f"{what}: buffer views take the identity swizzle only "
                f"(BUFFER_SAMPLER_VIEW_RGBA_ONLY), got {tuple(s.name for s in swz)}"
            )
        offset, size = int(v.offset), int(v.size)
        if size == 0:
            size = res.width0 - offset  # 0: to the end of the buffer
        if offset < 0 or size <= 0 or offset + size > res.width0:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate offset {offset} / size {v.size} is outside the {res.width0}-byte buffer"
            )
        bs = util_format_get_blocksize(fmt)
        if size % bs:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate.size {size} is not a multiple of the {bs}-byte {fmt.name} element"
            )
        if size // bs > self.ctx.screen.profile.limit("GL_MAX_TEXTURE_BUFFER_SIZE"):
            raise InvalidArgumentError(f"{what}: {size // bs} texels exceed MAX_TEXEL_BUFFER_ELEMENTS_UINT")
        if (offset or size != res.width0) and not self._has_tbo_range:
            raise UnsupportedError(
                f"{what}: a buffer view of bytes {offset}..{offset + size - 1} of a "
                f"{res.width0}-byte buffer needs texture_buffer_range (not on the "
                f"{screen.profile.name} profile; TEXTURE_BUFFER_OFFSET_ALIGNMENT is 0)"
            )
        align = self.ctx.screen.profile.limit("GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT") or 1
        if offset % align:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate.offset {offset} is not a multiple of "
                f"TEXTURE_BUFFER_OFFSET_ALIGNMENT = {align}"
            )
        v.offset, v.size = offset, size
        v.internal_format = host_storage(fmt, self.ctx.screen.format_support).internal_format
        v.gl_target = int(self.ctx.gl.GL_TEXTURE_BUFFER)
        v.mode = MODE_BUFFER
        v.swizzle = _IDENTITY
        self._build_gl_view(v)

    def _plan_texture_view(self, v: SamplerView, res, fmt: Format, target: Target) -> None:
        what = "create_sampler_view"
        gl = self.ctx.gl
        screen = self.ctx.screen
        profile = screen.profile
        rtarget = Target(res.target)
        if target not in _VIEW_TARGETS[rtarget]:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate.target {target.name} cannot view a {rtarget.name} resource"
            )
        if not formats_compatible(Format(res.format), fmt):
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate.format {fmt.name} is not compatible with the "
                f"resource's {Format(res.format).name} (casts keep component order and sizes)"
            )
        desc = util_format_description(fmt)
        if desc.is_stencil and not desc.is_depth:
            # Needs GL_DEPTH_STENCIL_TEXTURE_MODE = STENCIL_INDEX on a texture view.
            raise UnsupportedError(f"{what}: sampling stencil ({fmt.name}) is not implemented")
        samples = max(int(res.nr_samples), 1)
        # nr_storage_samples 0 means "as many as nr_samples" (glpipe/resource.py).
        storage = res.nr_storage_samples or res.nr_samples
        if not screen.is_format_supported(fmt, target, res.nr_samples, storage, Bind.SAMPLER_VIEW):
            raise UnsupportedError(
                f"{what}: {fmt.name} cannot be sampled as {target.name} on the "
                f"{profile.name} profile (is_format_supported says no)"
            )
        # Levels.
        if not 0 <= v.first_level <= v.last_level <= res.last_level:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate levels {v.first_level}..{v.last_level} are "
                f"outside the resource's 0..{res.last_level}"
            )
        # Layers.
        nlayers = _layer_count(res)
        first, last = v.first_layer, v.last_layer
        if not 0 <= first <= last < nlayers:
            raise InvalidArgumentError(
                f"{what}: SamplerViewTemplate layers {first}..{last} are outside the resource's 0..{nlayers - 1}"
            )
        count = last - first + 1
        if target == Target.TEXTURE_3D:
            if first != 0:
                raise InvalidArgumentError(f"{what}: a TEXTURE_3D view starts at layer 0, not {first}")
            first, last, count = 0, nlayers - 1, nlayers
        elif target in (Target.TEXTURE_1D, Target.TEXTURE_2D, Target.TEXTURE_RECT) and count != 1:
            raise InvalidArgumentError(f"{what}: a {target.name} view has one layer, got {first}..{last}")
        elif target == Target.TEXTURE_CUBE and count != 6:
            raise InvalidArgumentError(f"{what}: a TEXTURE_CUBE view has 6 layers, got {first}..{last}")
        elif target == Target.TEXTURE_CUBE_ARRAY and count % 6:
            raise InvalidArgumentError(
                f"{what}: a TEXTURE_CUBE_ARRAY view has a multiple of 6 layers, got {first}..{last}"
            )
        all_layers = first == 0 and count == nlayers
        all_levels = v.first_level == 0 and v.last_level == res.last_level
        vhost = host_storage(fmt, screen.format_support)
        rhost = res.storage
        swizzle = _gl_swizzle_of((v.swizzle_r, v.swizzle_g, v.swizzle_b, v.swizzle_a), vhost.swizzle)
        v.swizzle = swizzle
        v.internal_format = vhost.internal_format
        names = _GL_TARGET[target]
        v.gl_target = int(getattr(gl, names[1] if samples > 1 and names[1] else names[0]))
        same_storage = vhost.internal_format == rhost.internal_format
        if res.immutable and target == rtarget and same_storage and all_layers and all_levels and swizzle == _IDENTITY:
            # Immutable textures never get view parameters set on them (only
            # MODE_PARAMS does that, on mutable ones), so the resource's own
            # texture is exactly this view.
            v.mode = MODE_DIRECT
        elif self._has_texture_view and res.immutable:
            v.mode = MODE_VIEW
            v._params = (first, count)
            self._build_gl_view(v)
        else:
            # No texture views: only what GL texture parameters express.
            need = []
            if target != rtarget:
                need.append(f"target {target.name} of a {rtarget.name} resource")
            if not all_layers:
                need.append(f"layers {first}..{last} of {nlayers}")
            if not same_storage:
                need.append(
                    f"format {fmt.name} of a {Format(res.format).name} resource "
                    f"(GL {vhost.internal_format_name} vs {rhost.internal_format_name})"
                )
            if need:
                raise UnsupportedError(
                    f"{what}: {'; '.join(need)} needs texture views (texture_view on an "
                    f"immutable resource; not on the {profile.name} profile)"
                )
            if swizzle != _IDENTITY and not profile.has("texture_swizzle"):
                raise UnsupportedError(f"{what}: swizzles need texture_swizzle (not on the {profile.name} profile)")
            v.mode = MODE_PARAMS
            levels = (0, 0) if samples > 1 else (v.first_level, v.last_level)
            v._params = (levels[0], levels[1], tuple(int(getattr(gl, _GL_SWIZZLE[s])) for s in swizzle))
        twin = plan_compare(v) if desc.is_depth else None  # comparison class and twin (sampler_compare.py)
        if twin is not None:
            # The twin reaches GL as the view does, with the identity swizzle:
            # the resource's own texture when the view sees it whole, else a
            # second texture view, else texture parameters.
            if res.immutable and target == rtarget and same_storage and all_layers and all_levels:
                twin.mode = MODE_DIRECT
            elif v.mode == MODE_VIEW:
                self._build_gl_view(twin)
            else:
                twin._params = (v._params[0], v._params[1], tuple(int(getattr(gl, _GL_SWIZZLE[s])) for s in _IDENTITY))

    def _build_gl_view(self, v: SamplerView) -> None:
        """(Re)make the GL object of a MODE_VIEW or MODE_BUFFER view."""
        gl = self.ctx.gl
        res = v.texture
        src = res.gl_object
        if v._gl_view:
            self._forget_gl_texture(v)
            gl.glDeleteTextures(1, [v._gl_view])
            _untrack_gl_view(v)
        name = int(gl.glGenTextures(1))
        scratch = self.ctx.host.scratch_texture_unit
        gl.glActiveTexture(gl.GL_TEXTURE0 + scratch)
        if v.mode == MODE_BUFFER:
            gl.glBindTexture(gl.GL_TEXTURE_BUFFER, name)
            if self._has_tbo_range:
                gl.glTexBufferRange(gl.GL_TEXTURE_BUFFER, v.internal_format, src, v.offset, v.size)
            else:
                gl.glTexBuffer(gl.GL_TEXTURE_BUFFER, v.internal_format, src)
            gl.glBindTexture(gl.GL_TEXTURE_BUFFER, 0)
        else:
            first, count = v._params
            levels = v.last_level - v.first_level + 1
            if v.gl_target == gl.GL_TEXTURE_3D:
                count = 1  # a 3D view has one "layer", its depth comes with the levels (GL 4.5 section 8.18)
            gl.glTextureView(name, v.gl_target, src, v.internal_format, v.first_level, levels, first, count)
            if v.swizzle != _IDENTITY:
                gl.glBindTexture(v.gl_target, name)
                swz = np.array([int(getattr(gl, _GL_SWIZZLE[s])) for s in v.swizzle], np.int32)
                gl.glTexParameteriv(v.gl_target, gl.GL_TEXTURE_SWIZZLE_RGBA, swz)
                gl.glBindTexture(v.gl_target, 0)
        v._gl_view = name
        v._src_name = src
        # Dropped without sampler_view_destroy: the texture is deleted at the
        # next drain on the GL thread (glpipe/lifetime.py).
        v._gl_release = weakref.finalize(v, defer_delete, self.ctx.host, "texture", name)

    def sampler_view_destroy(self, view: SamplerView) -> None:
        """pipe_context::sampler_view_destroy: free the view's GL object;
        slots still holding it are unbound."""
        ctx = self.ctx
        if not isinstance(view, SamplerView):
            raise InvalidArgumentError(f"sampler_view_destroy: expected a SamplerView, got {type(view).__name__}")
        if view.context is not ctx:
            raise InvalidArgumentError("sampler_view_destroy: the view belongs to another context")
        if view.destroyed:
            raise ObjectDestroyedError("sampler_view_destroy: sampler view was already destroyed")
        for slots in self.sampler_views:
            for i, s in enumerate(slots):
                if s is view:
                    slots[i] = None
                    ctx.dirty |= Dirty.SAMPLER_VIEWS
        for v in {view, view.compare_twin}:
            self._forget_gl_texture(v)
            if v._gl_view:
                ctx.gl.glDeleteTextures(1, [v._gl_view])
                v._gl_view = 0
                _untrack_gl_view(v)
            v.destroyed = True
        self.views.discard(view)
        for stage in range(len(self.sampler_views)):
            update_compare_classes(self, stage)

    # -- binding -----------------------------------------------------------------

    def set_sampler_views(
        self,
        shader_type: ShaderType | int,
        start_slot: int,
        views: Sequence[SamplerView | None] | None,
        unbind_num_trailing_slots: int = 0,
    ) -> None:
        """pipe_context::set_sampler_views(shader, start_slot, views,
        unbind_num_trailing_slots): slots ``start_slot …`` take ``views``
        (None entries, or ``views=None``, unbind), and the
        ``unbind_num_trailing_slots`` slots after them are unbound.  Slots
        outside that range keep their views; a call that changes nothing
        does nothing."""
        what = "set_sampler_views"
        # ShaderType members (the usual argument) index the slots directly.
        stage = shader_type if type(shader_type) is ShaderType else _stage_arg(shader_type, what)
        slots = self.sampler_views[stage]
        ctx = self.ctx
        if (
            not unbind_num_trailing_slots
            and type(start_slot) is int
            and type(views) in _SEQUENCES
            and 0 <= start_slot
            and start_slot + len(views) <= PIPE_MAX_SHADER_SAMPLER_VIEWS
            and not ctx.destroyed
        ):
            # The common call, compared first: only views that differ from
            # what their slot holds are validated (the others were when bound).
            if len(views) == 1:
                # One view, the commonest of all (a texture switch between
                # draws): no loop, an item store (docs/performance.md).
                view = views[0]
                old = slots[start_slot]
                if old is view:
                    return
                if view is not None and (
                    type(view) is not SamplerView
                    or view.context is not ctx
                    or view.destroyed
                    or view.texture._destroyed
                ):
                    _refuse_view(view, 0, ctx, what)
                slots[start_slot] = view
                ctx.dirty |= _SAMPLER_VIEWS
                known = self._levels_known  # TXQ .w on gl33 only (glpipe/sysvals.py)
                if known is not None and known[stage][start_slot] != (view.level_count if view else 0):
                    self._note_view_levels(stage, start_slot, views)
                # A variant input only when the slot's comparison class changes.
                if (view.compare_class if view is not None else None) is not (
                    old.compare_class if old is not None else None
                ):
                    update_compare_classes(self, stage)
                return
            changed = classes = False
            i = start_slot
            for view in views:
                old = slots[i]
                if old is not view:
                    changed = True
                    if view is not None and (
                        type(view) is not SamplerView
                        or view.context is not ctx
                        or view.destroyed
                        or view.texture._destroyed
                    ):
                        _refuse_view(view, i - start_slot, ctx, what)
                    if (view is not None and view.compare_class is not None) or (
                        old is not None and old.compare_class is not None
                    ):
                        classes = True
                i += 1
            if changed:
                slots[start_slot:i] = views
                ctx.dirty |= _SAMPLER_VIEWS
                if self._levels_known is not None:
                    self._note_view_levels(stage, start_slot, views)
                if classes:
                    update_compare_classes(self, stage)
            return
        self._set_sampler_views_general(stage, start_slot, views, unbind_num_trailing_slots)

    def _note_view_levels(self, stage: int, start: int, views) -> None:
        """gl33 (no textureQueryLevels): the level counts of newly bound
        views into the sysvals block (TXQ .w), only where a slot's count
        changes; ``_levels_known`` mirrors them as Python ints so a view
        switch between views of equal counts costs one comparison."""
        known = self._levels_known[stage]
        counts = [view.level_count if view is not None else 0 for view in views]
        if known[start : start + len(counts)] != counts:
            known[start : start + len(counts)] = counts
            self.ctx.sysvals_part.set_view_levels(stage, start, views)

    def _set_sampler_views_general(
        self, shader_type, start_slot: int, views, unbind_num_trailing_slots: int = 0
    ) -> None:
        """set_sampler_views without its shortcuts for the common calls: every
        call validates its arguments (GLPIPE_DEBUG=nofast binds this as the
        context's set_sampler_views; glpipe/debug.py NOFAST_METHODS)."""
        what = "set_sampler_views"
        stage = _stage_arg(shader_type, what)
        slots = self.sampler_views[stage]
        ctx = self.ctx
        ctx.check_alive(what)
        views = () if views is None else items(views, "set_sampler_views: views")
        trailing = int(unbind_num_trailing_slots)
        if trailing < 0:
            raise InvalidArgumentError(f"{what}: unbind_num_trailing_slots {trailing} is negative")
        start = _slot_range(
            start_slot, len(views) + trailing, PIPE_MAX_SHADER_SAMPLER_VIEWS, what, "PIPE_MAX_SHADER_SAMPLER_VIEWS"
        )
        new = views + (None,) * trailing if trailing else views
        changed = False
        for i, view in enumerate(new):
            if slots[start + i] is view:
                continue  # validated when it was bound
            changed = True
            if view is not None and (
                type(view) is not SamplerView or view.context is not ctx or view.destroyed or view.texture.destroyed
            ):
                _refuse_view(view, i, ctx, what)
        if not changed:
            return
        slots[start : start + len(new)] = new
        ctx.dirty |= Dirty.SAMPLER_VIEWS
        if self._levels_known is not None:
            self._note_view_levels(stage, start, new)
        update_compare_classes(self, stage)

    # -- emit ------------------------------------------------------------------------

    @staticmethod
    def texture_plan(variants) -> tuple:
        """(stage, unit, sview, samp, TGSI target, compare) for every GLSL
        sampler of the linked ``variants`` (one per graphics stage, None where
        unbound).  ``samp`` is -1 for a sampler that only fetches texels or
        queries sizes (the reflection's sampler None: no sampler state is
        bound); every element of a sampler array (an indexed SAMP / SVIEW
        range) is a row.  ``compare`` says how a shadow sampler is used: bit 0
        by comparing lookups (which bind the view's compare twin), bit 1 by
        TG4 (which binds the view itself).  Computed once per program, when
        it is linked (``Program.tex_plan``)."""
        rows = []
        for stage, variant in zip(GRAPHICS_STAGES, variants, strict=True):
            if variant is None:
                continue
            lookups, gathers = variant.cso.compare_uses
            for s in variant.glsl.reflection.samplers:
                compare = (
                    ((COMPARE_LOOKUPS if s.view in lookups else 0) | (COMPARE_GATHERS if s.view in gathers else 0))
                    if s.shadow
                    else 0
                )
                rows.append(
                    (
                        int(stage),
                        int(s.unit),
                        int(s.view),
                        -1 if s.sampler is None else int(s.sampler),
                        str(s.target).upper().replace("SHADOW", ""),
                        compare,
                    )
                )
        return tuple(rows)

    def _bind_texture_units(self, plan=None) -> None:
        """Bind textures and samplers for ``plan`` rows (stage, unit, sview,
        samp, target), only on units whose contents change.  Without a plan
        (as ``_emit_sampler_views``, at draw): the bound program's.  Compute
        (launch_grid) passes a plan of its own.

        This runs on every draw after a sampler-view or sampler change, so
        the common row -- a view binding its resource's own texture
        (MODE_DIRECT; MODE_PARAMS on hosts without texture views, whose
        parameters are in place) with its GL name allocated -- reads plain
        attributes only; everything else goes through the helpers below."""
        ctx = self.ctx
        draw = plan is None  # the draw's emit (else compute's plan: no lock, see draw_under_params_lock)
        if plan is None:
            prog = ctx.shader_part.program
            if prog is None:
                return
            plan = prog.tex_plan
        saw_params = defer = False
        unit_tex, unit_sampler = self.unit_tex, self.unit_sampler
        views_by_stage, samplers_by_stage = self.sampler_views, self._sampler_states
        single = len(plan) == 1  # (one row: no other view of the texture to conflict with)
        hot = ctx._hot
        dsa = self._has_dsa
        params_in_use = None
        seamless = False
        calls = 0
        switched = False  # glActiveTexture moved off the scratch unit (no DSA)
        for stage, unit, vi, si, tgsi_target, compare in plan:
            view = views_by_stage[stage][vi]
            if compare and view is not None and view.compare_twin is not view:
                view = compare_view(view, stage, vi, compare)
            if view is None:
                n = self._bind_empty_unit(unit, tgsi_target)
                calls += n
                switched = switched or (n > 0 and not dsa)
                sampler_name = 0
            else:
                if tgsi_target in view.wrong_tgsi_targets:
                    self._refuse_bound_view(view, stage, vi, tgsi_target)
                res = view.texture
                name = res._gl_object
                mode = view.mode
                # (MODE_PARAMS binds the resource's own texture as well)
                if (mode is not MODE_DIRECT and mode is not MODE_PARAMS) or name is None or res._destroyed:
                    name = self._bound_view_name(view, stage, vi, tgsi_target)
                cached = unit_tex[unit]
                if cached is None or cached[0] is not view or cached[1] != name:
                    if dsa:
                        hot.glBindTextureUnit(unit, name)  # GL 4.5: no active-unit dance
                        calls += 1
                    else:
                        hot.glActiveTexture(self._gl_texture0 + unit)
                        hot.glBindTexture(view.gl_target, name)
                        calls += 2
                        switched = True
                    unit_tex[unit] = (view, name)
                # gl33: the view's levels / swizzle on the texture.  A single
                # row cannot conflict with another view of the texture, so a
                # view whose parameters are known to be in place needs nothing.
                if mode is MODE_PARAMS:
                    saw_params = True
                    if draw and not self._params_held and self._share_hosts:
                        # Other threads may set this texture's parameters: only
                        # under the screen's lock, held through the draw.
                        defer = True
                        break
                    if view.params_seen != self._epochs.texture_params or not single:
                        if params_in_use is None:
                            params_in_use = {}
                        n = self._apply_texture_params(view, unit, params_in_use)
                        calls += n
                        switched = switched or n > 0
                samp = samplers_by_stage[stage][si] if si >= 0 else None
                if view.is_buffer:
                    sampler_name = 0
                elif samp is None:
                    # TXF / SAMPLE_I / size queries need no sampler state, but GL
                    # judges completeness by the unit's sampler: the default one
                    # filters, which leaves an integer texture incomplete.
                    sampler_name = self._fetch_sampler or self._fetch_sampler_name()
                else:
                    try:
                        pair = view.sampler_names[samp.serial]
                    except KeyError:
                        pair = self._view_sampler(view, samp, stage, si)
                    sampler_name = pair[0]
                    if pair[1]:
                        seamless = True
            if unit_sampler[unit] != sampler_name:
                hot.glBindSampler(unit, sampler_name)
                unit_sampler[unit] = sampler_name
                calls += 1
        if seamless != self._seamless_global and not self._seamless_per_sampler:
            (hot.glEnable if seamless else hot.glDisable)(self._gl_cube_seamless)
            self._seamless_global = seamless
            calls += 1
        if switched:
            # Leave the scratch unit active: code that binds a texture "on the
            # current unit" (raw PyOpenGL readbacks, for one) then cannot
            # replace a Gallium unit's texture behind the shadow above.  (One
            # GL call per switching draw on hosts without DSA; tests that read
            # back through raw GL rely on it.)
            hot.glActiveTexture(self._scratch_unit_enum)
            calls += 1
        if calls:
            ctx._counters.gl_state_calls += calls
        # KeepGeneral.TEXTURE_PARAMS while MODE_PARAMS views draw under the
        # lock (or must: ``defer``); a context without such views tests one flag.
        if saw_params:
            if draw and (defer or self._params_held) != self._keep_params:
                self._keep_params = not self._keep_params
                ctx._keep_general(_KEEP_PARAMS, self._keep_params)
            if defer:
                ctx.dirty |= Dirty.DRAW_STATE  # the general path takes the lock and emits again
        elif self._keep_params and draw:
            self._keep_params = False
            ctx._keep_general(_KEEP_PARAMS, False)

    def draw_under_params_lock(self, draw, *args) -> None:
        """``draw(*args)`` (the general draw path) holding the screen's
        texture-parameter lock, every bound view's parameters checked again
        under it: the draw of a context whose MODE_PARAMS views share their
        textures with other threads' GL contexts (KeepGeneral.TEXTURE_PARAMS).
        A GL texture holds one set of base level, max level and swizzle for
        every context of the share group, and a draw samples the set in
        place when it is issued, so setting it and drawing must not
        interleave with another thread doing the same (GL 4.5 core 5.3:
        changes of a shared object reach other contexts as they happen).
        Cost: such draws leave the fast path and take turns across the
        share group (docs/api.md "Contexts and threads")."""
        with self._epochs.params_lock:
            self._params_held = True
            try:
                self.ctx.dirty |= Dirty.SAMPLER_VIEWS
                draw(*args)
            finally:
                self._params_held = False

    def share_group_grew(self) -> None:
        """Another thread got a GL context of the screen's share group
        (posted by Screen.context_create, run on this context's thread): the
        next draw emits the views again, and MODE_PARAMS ones then draw
        under the lock (draw_under_params_lock)."""
        self.ctx.dirty |= Dirty.SAMPLER_VIEWS

    def _bound_view_name(self, view, stage: int, vi: int, tgsi_target: str) -> int:
        """The GL texture of a bound view that is not a plain MODE_DIRECT view
        with allocated storage (a GL texture view, pending storage, or a
        destroyed resource, which raises naming the slot)."""
        try:
            return view.gl_name()
        except ObjectDestroyedError:
            self._refuse_bound_view(view, stage, vi, tgsi_target)

    # The draw's emit (DERIVED_ORDER): every sampled view's texture and its
    # sampler's GL sampler on the program's texture units.
    _emit_sampler_views = _bind_texture_units

    def _bind_empty_unit(self, unit: int, tgsi_target: str) -> int:
        """An empty slot: texture 0 on the target the shader samples (another
        target's leftover binding is never read by it).  Returns the GL calls."""
        cached = self.unit_tex[unit]
        if cached is not None and cached[0] is None and cached[1] == tgsi_target:
            return 0
        self.unit_tex[unit] = (None, tgsi_target)
        hot = self.ctx._hot
        if self._has_dsa:
            hot.glBindTextureUnit(unit, 0)  # every target of the unit
            return 1
        gl_target = _TGSI_GL_TARGET.get(tgsi_target)
        if gl_target is None:
            return 0
        hot.glActiveTexture(self._gl_texture0 + unit)
        hot.glBindTexture(int(getattr(self.ctx.gl, gl_target)), 0)
        return 2

    @staticmethod
    def _view_sampler(view, samp, stage: int, si: int) -> tuple:
        """(GL sampler of ``samp`` for ``view``, whether it needs seamless cube
        filtering), remembered on the view: the sampler CSO's GL object for
        the view's border kind and RECT-ness, checked once."""
        if samp.unnormalized and not view.is_rect:
            raise UnsupportedError(
                f"draw: sampler {si} of the {ShaderType(stage).name} shader has unnormalized_coords, "
                f"which GL offers only for TEXTURE_RECT views (this one is {view.target.name})"
            )
        pair = view.sampler_names[samp.serial] = (
            samp.gl_name(view.border_kind, view.is_rect),
            bool(samp.seamless and view.is_cube),
        )
        return pair

    @staticmethod
    def _refuse_bound_view(view, stage: int, vi: int, tgsi_target: str) -> None:
        """Raise why the view in SVIEW slot ``vi`` cannot be sampled now."""
        if view.destroyed or view.texture.destroyed:
            raise ObjectDestroyedError(
                f"draw: the sampler view in slot {vi} of {ShaderType(stage).name} (or its resource) was destroyed"
            )
        raise InvalidArgumentError(
            f"draw: SVIEW[{vi}] of the {ShaderType(stage).name} shader samples a {tgsi_target} "
            f"texture, but the bound view is {view.target.name}"
        )

    def _apply_texture_params(self, view: SamplerView, unit: int, in_use: dict) -> int:
        """gl33 path: make the resource's texture carry the view's levels and
        swizzle; two different sets in one draw cannot both hold.  Returns
        the number of GL calls made."""
        res = view.texture
        want = view._params
        other = in_use.get(res)
        if other is not None and other[0] != want:
            raise UnsupportedError(
                f"draw: two views of one texture with different levels or swizzles are bound at once "
                f"({other[1]!r} and {view!r}); without texture views (texture_view on the "
                f"{self.ctx.screen.profile.name} profile) one GL texture holds one set"
            )
        in_use[res] = (want, view)
        epochs = self._epochs
        if view.params_seen == epochs.texture_params:
            return 0  # no texture's parameters changed since this view's were in place
        have = res._gl_params
        if have is None:
            # resource.py leaves a mutable texture at BASE 0, MAX last_level, identity swizzle;
            # an unknown state is simply set in full.
            have = (None, None, None)
        if have == want:
            view.params_seen = epochs.texture_params
            return 0
        gl = self.ctx.gl
        gl.glActiveTexture(self._gl_texture0 + unit)
        calls = 1
        target = view.gl_target
        if not res.nr_samples > 1:
            if have[0] != want[0]:
                gl.glTexParameteri(target, gl.GL_TEXTURE_BASE_LEVEL, want[0])
                calls += 1
            if have[1] != want[1]:
                gl.glTexParameteri(target, gl.GL_TEXTURE_MAX_LEVEL, want[1])
                calls += 1
        if have[2] != want[2]:
            gl.glTexParameteriv(target, gl.GL_TEXTURE_SWIZZLE_RGBA, np.array(want[2], np.int32))
            calls += 1
        res._gl_params = want
        epochs.texture_params += 1
        view.params_seen = epochs.texture_params
        return calls

    # -- shadows ---------------------------------------------------------------------

    def _texture_units_clobbered(self) -> None:
        """Forget what the texture units hold (someone else bound textures or samplers there)."""
        self._forget_units()
        self.ctx.dirty |= Dirty.SAMPLER_VIEWS

    def _forget_units(self) -> None:
        unit_tex, unit_sampler = self.unit_tex, self.unit_sampler
        unit_tex[:] = [None] * len(unit_tex)
        unit_sampler[:] = [None] * len(unit_sampler)

    def _forget_gl_texture(self, view) -> None:
        unit_tex = self.unit_tex
        for unit, held in enumerate(unit_tex):
            if held is not None and held[0] is view:
                unit_tex[unit] = None

    def _forget_sampler(self, serial: int, names) -> None:
        """A sampler CSO is going (deleted or dropped): forget its GL samplers
        in every live view's cache and in the units' shadows."""
        for view in list(self.views):
            for v in {view, view.compare_twin}:
                v.sampler_names.pop(serial, None)
        self._forget_gl_samplers(names)

    def _forget_gl_samplers(self, names) -> None:
        names = set(names)
        unit_sampler = self.unit_sampler
        for unit, name in enumerate(unit_sampler):
            if name is not None and name in names:
                unit_sampler[unit] = None
                self.ctx.dirty |= Dirty.SAMPLERS

    def _drop_sampler_view_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): forget what the units hold, the bound views' sampler
        names and their textures' parameters, and the seamless switch, so
        the emit binds and sets everything again."""
        for slots in self.sampler_views:
            for view in slots:
                if view is not None:
                    view.sampler_names.clear()
                    forget_texture_state(view.texture)
        self._seamless_global = None  # unknown: the emit sends the switch
        self._texture_units_clobbered()

    def _fetch_sampler_name(self) -> int:
        """The GL sampler (NEAREST, no mipmaps) bound to units whose shader only
        fetches texels or queries sizes, or that have no sampler state bound:
        every texture, integer ones included, is complete under it, and a
        fetch reads texels by index whatever the filter.  Made once."""
        gl = self.ctx.gl
        name = int(gl.glGenSamplers(1))
        gl.glSamplerParameteri(name, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
        gl.glSamplerParameteri(name, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
        self._fetch_sampler = name
        return name

    def destroy(self) -> None:
        """Context.destroy: delete the views' GL textures, unbind the GL
        samplers from the units (and delete the fetch sampler) and turn the
        global seamless switch off."""
        views = [t for v in self.views for t in {v, v.compare_twin}]
        names = [v._gl_view for v in views if v._gl_view]
        if names:
            self.ctx.gl.glDeleteTextures(len(names), names)
        for v in views:
            v._gl_view = 0
            _untrack_gl_view(v)
            v.destroyed = True
        self.views = weakref.WeakSet()
        gl = self.ctx.gl
        for unit, name in enumerate(self.unit_sampler):
            if name:
                gl.glBindSampler(unit, 0)
        if self._fetch_sampler:
            gl.glDeleteSamplers(1, [self._fetch_sampler])
            self._fetch_sampler = 0
        self._forget_units()
        if self._seamless_global:
            gl.glDisable(gl.GL_TEXTURE_CUBE_MAP_SEAMLESS)
            self._seamless_global = False


def _untrack_gl_view(v: SamplerView) -> None:
    """The view's GL texture was deleted here: its finalizer must not delete it again."""
    if v._gl_release is not None:
        v._gl_release.detach()
        v._gl_release = None


AREA = Area(
    "sampler_views_part",
    part=SamplerViewPart,
    methods=("create_sampler_view", "sampler_view_destroy", "set_sampler_views"),
    rows=((Dirty.SAMPLERS | Dirty.SAMPLER_VIEWS, SamplerViewPart._emit_sampler_views),),  # units pair view + sampler
    destroy=SamplerViewPart.destroy,
    drop_caches=SamplerViewPart._drop_sampler_view_caches,
)

__all__ = [
    "AREA",
    "MODE_BUFFER",
    "MODE_DIRECT",
    "MODE_PARAMS",
    "MODE_VIEW",
    "SamplerView",
    "SamplerViewPart",
    "forget_texture_state",
    "formats_compatible",
]
