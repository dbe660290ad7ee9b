"""Shader images and hardware atomic counters: ``set_shader_images``
(pipe_image_view slots per stage) and ``set_hw_atomic_buffers``
(pipe_shader_buffer slots shared by every stage).

An image slot is checked once, at the call, into a ``BoundImage``: the GL
texture to bind (the resource's own, or a GL texture view for a layer range
GL cannot bind directly, or a buffer texture over ``u.buf`` offset / size
made with glTexBufferRange), and the glBindImageTexture arguments (level,
layered, layer, access, the GL image format of the view's format).  The
graphics stages' slots reach GL at draw time through one derived row
(``Dirty.SHADER_IMAGES``) at the image units / atomic counter bindings of
the binding convention (lowering/bindings.py, docs/bindings.md); the compute
stage's are bound by launch_grid (glpipe/compute.py), which marks the row
dirty again because compute's bindings overlap the graphics stages'.

Hardware atomic counter buffers are one slot space for every stage (Mesa's
``set_hw_atomic_buffers`` has no shader argument): slot b reaches each
stage's HWATOMIC[b] at that stage's atomic counter binding.

Where the host has no image load/store (gl33) only the compute stage has
image slots: the numpy executor runs its programs, so a slot is checked as
natively but makes no GL object (launch_grid reads the view through
transfers, glpipe/compute.py).  The graphics stages' image caps and every
atomic-counter cap are 0 there, and a call binding one raises
UnsupportedError naming the cap (st/mesa lowers atomic counters to shader
buffers when the cap is 0).  docs/compute.md "Shader images", "Images in
the executor", "Atomic counters".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from lowering.errors import InvalidArgumentError, UnsupportedError

from . import boundary
from .caps_shader import LOWERING_STAGE
from .dirty import Dirty
from .enums import (
    PIPE_MAX_HW_ATOMIC_BUFFERS,
    PIPE_MAX_SHADER_IMAGES,
    Bind,
    Cap,
    ImageAccess,
    ShaderCap,
    ShaderType,
    Target,
)
from .formats import Format, host_storage, util_format_get_blocksize
from .part import Area, Part
from .resource import Resource
from .shader_buffers import check_buffer_range
from .templates import ImageView, ShaderBuffer

_GRAPHICS = (ShaderType.VERTEX, ShaderType.TESS_CTRL, ShaderType.TESS_EVAL, ShaderType.GEOMETRY, ShaderType.FRAGMENT)

# Targets whose images have layers (GL 4.5 §8.26: glBindImageTexture's
# ``layered`` binds them all, or one layer / face / slice as a 2D image).
_LAYERED = frozenset({Target.TEXTURE_1D_ARRAY, Target.TEXTURE_2D_ARRAY, Target.TEXTURE_CUBE, Target.TEXTURE_CUBE_ARRAY})

# ImageAccess READ / WRITE -> glBindImageTexture's access.
_GL_ACCESS = {
    ImageAccess.READ: "GL_READ_ONLY",
    ImageAccess.WRITE: "GL_WRITE_ONLY",
    ImageAccess.READ_WRITE: "GL_READ_WRITE",
}


@dataclass(frozen=True)
class BoundImage:
    """One bound image slot, checked: what glBindImageTexture takes, and
    the GL texture made for it (a view or buffer texture; 0: none, the
    resource's own texture is bound)."""

    resource: Resource
    texture: int
    level: int
    layered: bool
    layer: int
    gl_access: int
    gl_format: int
    writes: bool
    owned: int
    # The view as the numpy executor reads it (glpipe/compute.py): its format,
    # the resource's layers / slices it covers, a buffer view's byte range.
    format: Format = Format.NONE
    first_layer: int = 0
    layer_count: int = 1
    offset: int = 0
    size: int = 0


@dataclass(frozen=True)
class BoundCounters:
    """One hardware atomic counter buffer slot: the buffer and byte range."""

    resource: Resource
    offset: int
    size: int


class ShaderImagesPart(Part):
    """The shader-image area (``ctx.shader_images_part``): ``images[stage]``
    holds a ``BoundImage | None`` per Gallium image slot, ``counters`` a
    ``BoundCounters | None`` per hardware atomic buffer slot."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.images: list[list[BoundImage | None]] = [[None] * PIPE_MAX_SHADER_IMAGES for _ in ShaderType]
        self.counters: list[BoundCounters | None] = [None] * PIPE_MAX_HW_ATOMIC_BUFFERS
        profile = ctx.screen.profile
        self._has_images = profile.has("shader_image_load_store")
        self._has_counters = profile.has("shader_atomic_counters")
        # Per graphics stage, how many image slots / counter slots hold a GL
        # binding of ours (the emit unbinds up to there), and the units /
        # bindings the last launch_grid overwrote (compute starts at 0 in
        # every binding space, docs/bindings.md).
        self._image_extent = [0] * len(ShaderType)
        self._counter_extent = [0] * len(ShaderType)
        self._compute_extent = (0, 0)
        # Writes of draws a transfer must see (GL orders image and atomic
        # counter writes before buffer / texture reads only after
        # glMemoryBarrier; Gallium transfers always see them).
        self._graphics_writers = False

    # -- set_shader_images ---------------------------------------------------

    def set_shader_images(
        self,
        shader_type: ShaderType | int,
        start_slot: int,
        images: Sequence[ImageView | None] | None,
        unbind_num_trailing_slots: int = 0,
    ) -> None:
        """pipe_context::set_shader_images: bind ``images`` (ImageView, or
        None / an ImageView without resource to unbind) at slots
        ``start_slot..`` of stage ``shader_type``, and unbind the
        ``unbind_num_trailing_slots`` slots after them."""
        what = "set_shader_images"
        ctx = self.ctx
        ctx.check_alive(what)
        stage = boundary.member(ShaderType, shader_type, f"{what}: shader_type")
        start = boundary.uint32(start_slot, f"{what}: start_slot")
        items = [] if images is None else boundary.sequence(images, f"{what}: images")
        trailing = boundary.uint32(unbind_num_trailing_slots, f"{what}: unbind_num_trailing_slots")
        limit = ctx.screen.get_shader_param(stage, ShaderCap.MAX_SHADER_IMAGES)
        if limit == 0:
            if any(v is not None and getattr(v, "resource", None) is not None for v in items):
                raise UnsupportedError(
                    f"{what}: PIPE_SHADER_CAP_MAX_SHADER_IMAGES is 0 for the {stage.name} stage on the "
                    f"{ctx.screen.profile.name} profile (no image load/store on the host or in the executor)"
                )
            return  # nothing can be bound there: unbinding is a no-op
        boundary.span(start, len(items), limit, f"{what}: slots of the {stage.name} stage")
        boundary.span(start + len(items), trailing, limit, f"{what}: unbind_num_trailing_slots after the images")
        bound = [self._check_image(v, f"{what}: images[{k}]") for k, v in enumerate(items)]
        bound += [None] * trailing
        slots = self.images[stage]
        for old in slots[start : start + len(bound)]:
            self._release(old)
        slots[start : start + len(bound)] = bound
        if stage != ShaderType.COMPUTE:
            ctx.dirty |= Dirty.SHADER_IMAGES
            self._note_writers()

    def _check_image(self, view, what: str) -> BoundImage | None:
        if view is None:
            return None
        boundary.instance(view, ImageView, what)
        res = view.resource
        if res is None:
            return None
        ctx = self.ctx
        ctx._check_resource(res, f"{what}.resource")
        if not res.bind & Bind.SHADER_IMAGE:
            raise InvalidArgumentError(f"{what}.resource: {res!r} was not created with Bind.SHADER_IMAGE")
        fmt = boundary.member(Format, view.format, f"{what}.format")
        if fmt == Format.NONE:
            raise InvalidArgumentError(f"{what}.format is NONE: an image view names its format (p_state.h)")
        access = boundary.flags(ImageAccess, view.access, f"{what}.access")
        boundary.flags(ImageAccess, view.shader_access, f"{what}.shader_access")
        rw = access & ImageAccess.READ_WRITE
        if not rw:
            raise InvalidArgumentError(f"{what}.access = {int(access)} has neither READ nor WRITE")
        target = Target(res.target)
        screen = ctx.screen
        samples = res.nr_samples
        if not screen.is_format_supported(fmt, target, samples, res.nr_storage_samples, Bind.SHADER_IMAGE):
            raise UnsupportedError(
                f"{what}.format {fmt.name} has no GL image format for a {target.name} resource on the "
                f"{screen.profile.name} profile (is_format_supported(SHADER_IMAGE) says no; GL 4.5 table 8.26)"
            )
        # GL 4.5 §8.26: a texture's format and the image unit's are compatible
        # by size (GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE): the bits are
        # reinterpreted.  (Buffers are formatless: the view's format is the layout.)
        if target != Target.BUFFER and util_format_get_blocksize(fmt) != util_format_get_blocksize(res.format):
            raise InvalidArgumentError(
                f"{what}.format {fmt.name} ({util_format_get_blocksize(fmt)} bytes) differs in size from "
                f"the resource's {Format(res.format).name} ({util_format_get_blocksize(res.format)} bytes): "
                "GL image formats are compatible by size only"
            )
        view_host = host_storage(fmt, screen.format_support)
        assert view_host is not None  # is_format_supported said yes: the profile stores it
        if fmt != res.format and target != Target.BUFFER:
            # A cast reinterprets the stored bits: they are Gallium's layout
            # only where neither format is stored converted.
            stored = res.storage
            if stored is None or stored.transfer_as is not None or view_host.transfer_as is not None:
                raise UnsupportedError(
                    f"{what}.format {fmt.name} reinterprets {Format(res.format).name}, whose host storage "
                    f"({stored.internal_format_name if stored else 'none'}) is not its Gallium layout"
                )
        gl = ctx.gl
        gl_format = view_host.internal_format
        gl_access = int(getattr(gl, _GL_ACCESS[ImageAccess(rw)]))
        writes = bool(access & ImageAccess.WRITE)
        if target == Target.BUFFER:
            return self._buffer_image(view, res, fmt, gl_format, gl_access, writes, what)

        level = boundary.uint32(view.level, f"{what}.level")
        if level > res.last_level:
            raise InvalidArgumentError(f"{what}.level = {level} exceeds the resource's last_level {res.last_level}")
        first = boundary.uint32(view.first_layer, f"{what}.first_layer")
        last = boundary.uint32(view.last_layer, f"{what}.last_layer")
        single = bool(view.single_layer_view) or bool(view.is_2d_view_of_3d)
        if target == Target.TEXTURE_3D:
            layers = max(res.depth0 >> level, 1)
        elif target in _LAYERED:
            layers = res.array_size
        else:
            layers = 1
        if first > last or last >= layers:
            raise InvalidArgumentError(
                f"{what}: layers first_layer {first} .. last_layer {last} are outside the "
                f"{layers} layer(s) of level {level} of {res!r}"
            )
        if single and first != last:
            raise InvalidArgumentError(
                f"{what}: single_layer_view needs first_layer == last_layer, got {first}..{last}"
            )
        # The executor reads layers first..last of the level (glpipe/compute.py).
        count = last - first + 1
        if not self._has_images:
            # No host image units (gl33): only the numpy executor's compute
            # stage has images; it needs no GL binding (docs/compute.md).
            return BoundImage(res, 0, level, not single and layers > 1, first, 0, 0, writes, 0, fmt, first, count)
        name = res.gl_object
        if layers == 1 and target not in _LAYERED and target != Target.TEXTURE_3D:
            bound = BoundImage(res, name, level, False, 0, gl_access, gl_format, writes, 0)
        elif single:
            bound = BoundImage(res, name, level, False, first, gl_access, gl_format, writes, 0)
        elif first == 0 and last == layers - 1:
            bound = BoundImage(res, name, level, True, 0, gl_access, gl_format, writes, 0)
        else:
            bound = self._layer_range_view(res, target, level, first, last, gl_access, gl_format, writes, what)
        return replace(bound, format=fmt, first_layer=first, layer_count=count)

    def _layer_range_view(self, res, target, level, first, last, gl_access, gl_format, writes, what):
        """A layered image over layers first..last: glBindImageTexture binds
        all of a level's layers or one, so a GL texture view of the range."""
        screen = self.ctx.screen
        if target == Target.TEXTURE_3D:
            raise UnsupportedError(
                f"{what}: layers {first}..{last} of a 3D level: GL binds a 3D image's whole depth or one "
                "slice (single_layer_view), and texture views cannot cut a 3D texture's depth"
            )
        if not (screen.profile.has("texture_view") and res.immutable):
            raise UnsupportedError(
                f"{what}: layers {first}..{last} of {res!r} as a layered image need a texture view "
                f"(ARB_texture_view on immutable storage), which the {screen.profile.name} profile lacks"
            )
        gl = self.ctx.gl
        count = last - first + 1
        if target == Target.TEXTURE_1D_ARRAY:
            view_target = gl.GL_TEXTURE_1D_ARRAY
        elif target == Target.TEXTURE_CUBE_ARRAY and first % 6 == 0 and count % 6 == 0:
            view_target = gl.GL_TEXTURE_CUBE_MAP_ARRAY
        else:  # a 2D array, or faces of a cube (array) that are not whole cubes
            view_target = gl.GL_TEXTURE_2D_ARRAY
        name = int(gl.glGenTextures(1))
        gl.glTextureView(name, view_target, res.gl_object, res.storage.internal_format, level, 1, first, count)
        self.ctx.host.check(f"{what}: texture view of layers {first}..{last}")
        return BoundImage(res, name, 0, True, 0, gl_access, gl_format, writes, name)

    def _buffer_image(self, view, res, fmt, gl_format, gl_access, writes, what) -> BoundImage:
        """A buffer image: a buffer texture over bytes offset .. offset+size
        (glTexBufferRange), made now and freed when the slot changes."""
        profile = self.ctx.screen.profile
        offset = boundary.uint32(view.offset, f"{what}.offset")
        size = boundary.uint32(view.size, f"{what}.size")
        if size == 0:
            size = res.width0 - offset  # 0: to the end of the buffer, as sampler views
        boundary.span(offset, size, res.width0, f"{what}.offset / size: bytes of the {res.width0}-byte buffer")
        block = util_format_get_blocksize(fmt)
        if size % block:
            raise InvalidArgumentError(f"{what}.size {size} is not a multiple of the {block}-byte {fmt.name} texel")
        align = int(profile.limit("GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT") or 1)
        if offset % align:
            raise InvalidArgumentError(
                f"{what}.offset {offset} is not a multiple of PIPE_CAP_TEXTURE_BUFFER_OFFSET_ALIGNMENT ({align})"
            )
        if size // block > profile.limit("GL_MAX_TEXTURE_BUFFER_SIZE"):
            raise InvalidArgumentError(f"{what}: {size // block} texels exceed MAX_TEXEL_BUFFER_ELEMENTS_UINT")
        if not self._has_images:  # the executor's alone: no GL binding
            return BoundImage(res, 0, 0, False, 0, 0, 0, writes, 0, fmt, offset=offset, size=size)
        gl = self.ctx.gl
        name = int(gl.glGenTextures(1))
        gl.glActiveTexture(gl.GL_TEXTURE0 + self.ctx.host.scratch_texture_unit)
        gl.glBindTexture(gl.GL_TEXTURE_BUFFER, name)
        gl.glTexBufferRange(gl.GL_TEXTURE_BUFFER, gl_format, res.gl_object, offset, size)
        gl.glBindTexture(gl.GL_TEXTURE_BUFFER, 0)
        self.ctx.host.check(f"{what}: buffer texture")
        return BoundImage(res, name, 0, False, 0, gl_access, gl_format, writes, name, fmt, offset=offset, size=size)

    def _release(self, bound: BoundImage | None) -> None:
        """Free the GL texture a slot's image made (a view or buffer texture)."""
        if bound is not None and bound.owned:
            self.ctx.gl.glDeleteTextures(1, [bound.owned])

    # -- set_hw_atomic_buffers -------------------------------------------------

    def set_hw_atomic_buffers(self, start_slot: int, buffers: Sequence[ShaderBuffer | None] | None) -> None:
        """pipe_context::set_hw_atomic_buffers(start_slot, count, buffers):
        bind ``buffers`` (ShaderBuffer or None each) as hardware atomic
        counter buffers ``start_slot..``, one slot space for every stage
        (HWATOMIC[b][i] is the 4-byte counter at byte 4*i of slot b's range)."""
        what = "set_hw_atomic_buffers"
        ctx = self.ctx
        ctx.check_alive(what)
        start = boundary.uint32(start_slot, f"{what}: start_slot")
        items = [] if buffers is None else boundary.sequence(buffers, f"{what}: buffers")
        limit = self.counter_slots()
        if limit == 0:
            if any(b is not None and getattr(b, "buffer", None) is not None for b in items):
                raise UnsupportedError(
                    f"{what}: PIPE_SHADER_CAP_MAX_HW_ATOMIC_COUNTER_BUFFERS is 0 for every stage on the "
                    f"{ctx.screen.profile.name} profile (frontends lower atomic counters to shader buffers)"
                )
            return
        boundary.span(start, len(items), limit, f"{what}: slots (PIPE_CAP_MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS)")
        bound = [self._check_counters(b, f"{what}: buffers[{k}]") for k, b in enumerate(items)]
        self.counters[start : start + len(bound)] = bound
        ctx.dirty |= Dirty.SHADER_IMAGES
        self._note_writers()

    def counter_slots(self) -> int:
        """How many hardware atomic buffer slots exist: the most any stage uses."""
        return self.ctx.screen.get_param(Cap.MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS)

    def _check_counters(self, sb, what: str) -> BoundCounters | None:
        checked = check_buffer_range(self.ctx, sb, what)
        if checked is None:
            return None
        res, offset, size = checked
        if offset % 4:
            # glBindBufferRange(GL_ATOMIC_COUNTER_BUFFER): offset a multiple of 4 (GL 4.5 §6.1.1).
            raise InvalidArgumentError(f"{what}.buffer_offset = {offset} is not a multiple of 4 (GL atomic counters)")
        return BoundCounters(res, offset, size)

    # -- binding to GL -----------------------------------------------------------

    def _note_writers(self) -> None:
        self._graphics_writers = any(self.counters) or any(
            b is not None and b.writes for st in _GRAPHICS for b in self.images[st]
        )

    def bind_stage(self, stage: ShaderType, images: int | None = None, counters: int | None = None) -> tuple:
        """glBindImageTexture / glBindBufferRange(GL_ATOMIC_COUNTER_BUFFER)
        the first ``images`` image slots and ``counters`` counter slots of
        ``stage`` (None: every slot the stage has; an empty slot unbinds).
        Returns the (images, counters) slot counts bound."""
        ctx = self.ctx
        gl = ctx.gl
        name = LOWERING_STAGE[stage]
        layout = ctx.bindings
        if name not in layout.stages:
            return (0, 0)
        s = layout.stages[name]
        n_img = s.image_count if images is None else min(images, s.image_count)
        n_ctr = s.atomic_count if counters is None else min(counters, s.atomic_count)
        if not self._has_images:
            n_img = 0
        if not self._has_counters:
            n_ctr = 0
        for k, b in enumerate(self.images[stage][:n_img]):
            unit = layout.image_unit(name, k)
            if b is None:
                gl.glBindImageTexture(unit, 0, 0, gl.GL_FALSE, 0, gl.GL_READ_ONLY, gl.GL_R32UI)
            else:
                b.resource.check_alive(f"image slot {k} of the {stage.name} stage")
                gl.glBindImageTexture(unit, b.texture, b.level, b.layered, b.layer, b.gl_access, b.gl_format)
        for k, c in enumerate(self.counters[:n_ctr]):
            binding = layout.atomic_binding(name, k)
            if c is None or c.size == 0:
                gl.glBindBufferBase(gl.GL_ATOMIC_COUNTER_BUFFER, binding, 0)
            else:
                c.resource.check_alive(f"hardware atomic buffer slot {k}")
                gl.glBindBufferRange(gl.GL_ATOMIC_COUNTER_BUFFER, binding, c.resource.gl_object, c.offset, c.size)
        return (n_img, n_ctr)

    def bind_compute(self, reflection) -> None:
        """launch_grid: the images and counter buffers the compute program
        uses, then mark the graphics row dirty (same binding spaces)."""
        images = 1 + max((i.index for i in reflection.images), default=-1)
        counters = 1 + max((a.buffer for a in reflection.atomic_buffers), default=-1)
        if images or counters:
            self._compute_extent = self.bind_stage(ShaderType.COMPUTE, images, counters)
            self.ctx.dirty |= Dirty.SHADER_IMAGES

    def _emit_shader_images(self) -> None:
        """Derived row: the graphics stages' image and counter slots (and
        unbinding what an earlier emit or launch_grid left on their units)."""
        if not (self._has_images or self._has_counters):
            return
        layout = self.ctx.bindings
        top_img = 1 + max((k for k, c in enumerate(self.counters) if c is not None), default=-1)
        ci, cc = self._compute_extent
        for stage in _GRAPHICS:
            name = LOWERING_STAGE[stage]
            if name not in layout.stages:
                continue
            s = layout.stages[name]
            used = 1 + max((k for k, b in enumerate(self.images[stage]) if b is not None), default=-1)
            n_img = max(used, self._image_extent[stage], min(s.image_count, max(0, ci - s.image_base)))
            n_ctr = max(top_img, self._counter_extent[stage], min(s.atomic_count, max(0, cc - s.atomic_base)))
            if n_img or n_ctr:
                self.bind_stage(stage, n_img, n_ctr)
            self._image_extent[stage] = used
            self._counter_extent[stage] = top_img
        self._compute_extent = (0, 0)

    def before_transfer(self) -> None:
        """A transfer is about to read a resource: make the image and atomic
        counter writes of earlier draws visible to it (one glMemoryBarrier,
        only while a graphics stage has a writable image or counter buffer
        bound; launch_grid makes its own writes visible when it returns)."""
        if self._graphics_writers:
            gl = self.ctx.gl
            gl.glMemoryBarrier(
                gl.GL_BUFFER_UPDATE_BARRIER_BIT
                | gl.GL_TEXTURE_UPDATE_BARRIER_BIT
                | gl.GL_PIXEL_BUFFER_BARRIER_BIT
                | gl.GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT
            )

    def _forget(self) -> None:
        """GLPIPE_DEBUG=nofast: re-send every binding at the next draw."""
        self._image_extent = [PIPE_MAX_SHADER_IMAGES] * len(ShaderType)
        self._counter_extent = [PIPE_MAX_HW_ATOMIC_BUFFERS] * len(ShaderType)
        self.ctx.dirty |= Dirty.SHADER_IMAGES

    def destroy(self) -> None:
        """Context.destroy: free the views and buffer textures of bound images."""
        for slots in self.images:
            for b in slots:
                self._release(b)
            slots[:] = [None] * len(slots)
        self.counters[:] = [None] * len(self.counters)


AREA = Area(
    "shader_images_part",
    part=ShaderImagesPart,
    methods=("set_shader_images", "set_hw_atomic_buffers"),
    rows=((Dirty.SHADER_IMAGES, ShaderImagesPart._emit_shader_images),),
    destroy=ShaderImagesPart.destroy,
    drop_caches=ShaderImagesPart._forget,
)

__all__ = ["AREA", "BoundCounters", "BoundImage", "ShaderImagesPart"]
