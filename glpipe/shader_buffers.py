"""Shader buffers: ``set_shader_buffers`` (pipe_shader_buffer slots per stage).

The slots of the graphics stages are bound at draw time by one derived row
(``Dirty.SHADER_BUFFERS``) at the GL_SHADER_STORAGE_BUFFER bindings of the
binding convention (lowering/bindings.py, docs/bindings.md); the compute
stage's slots are bound by launch_grid (glpipe/compute.py), which marks the
graphics row dirty again because compute's bindings overlap the graphics
stages' (docs/compute.md "Bindings").  Where the host has no SSBOs only the
compute stage has slots, read and written by the numpy executor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lowering.errors import InvalidArgumentError, UnsupportedError

from . import boundary
from .caps_shader import LOWERING_STAGE
from .dirty import Dirty
from .enums import PIPE_MAX_SHADER_BUFFERS, Cap, ShaderCap, ShaderType, Target
from .part import Area, Part
from .resource import Resource
from .templates import ShaderBuffer


def check_buffer_range(ctx, sb, what: str) -> tuple | None:
    """A pipe_shader_buffer's checks, shared by shader buffers and atomic
    counter buffers: (resource, offset, size), or None for an empty slot;
    InvalidArgumentError naming ``what`` otherwise."""
    if sb is None:
        return None
    boundary.instance(sb, ShaderBuffer, what)
    res = sb.buffer
    if res is None:
        return None
    ctx._check_resource(res, f"{what}.buffer")
    if res.target != Target.BUFFER:
        raise InvalidArgumentError(f"{what}.buffer: {res!r} is not a BUFFER")
    offset = boundary.uint32(sb.buffer_offset, f"{what}.buffer_offset")
    size = boundary.uint32(sb.buffer_size, f"{what}.buffer_size")
    boundary.span(offset, size, res.width0, f"{what}: buffer range")
    return res, offset, size


@dataclass(frozen=True)
class BoundBuffer:
    """One bound slot: the resource and the byte range, checked."""

    resource: Resource
    offset: int
    size: int
    writable: bool


class ShaderBuffersPart(Part):
    """The shader-buffer area (``ctx.shader_buffers_part``): ``slots[stage]``
    is a list of ``BoundBuffer | None`` per Gallium slot."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.slots: list[list[BoundBuffer | None]] = [[None] * PIPE_MAX_SHADER_BUFFERS for _ in ShaderType]
        self._native = ctx.screen.profile.has("shader_storage_buffer_object")
        # A graphics slot is bound writable: draws may write buffers behind
        # the transfers' back (GL orders shader-storage writes before buffer
        # reads only after glMemoryBarrier; Gallium's transfers always see them).
        self._graphics_writers = False

    def set_shader_buffers(
        self,
        shader_type: ShaderType | int,
        start_slot: int,
        buffers: Sequence[ShaderBuffer | None] | None,
        writable_bitmask: int = 0,
    ) -> None:
        """pipe_context::set_shader_buffers: bind ``buffers`` (ShaderBuffer or
        None each) at ``start_slot..`` of stage ``shader_type``; bit i of
        ``writable_bitmask`` lets ``buffers[i]`` be written (a clear bit: the
        shader only reads it, context.rst)."""
        what = "set_shader_buffers"
        ctx = self.ctx
        ctx.check_alive(what)
        stage = boundary.member(ShaderType, shader_type, f"{what}: shader_type")
        start = boundary.uint32(start_slot, f"{what}: start_slot")
        items = [] if buffers is None else boundary.sequence(buffers, f"{what}: buffers")
        mask = boundary.uint32(writable_bitmask, f"{what}: writable_bitmask")
        limit = ctx.screen.get_shader_param(stage, ShaderCap.MAX_SHADER_BUFFERS)
        if items and limit == 0:
            raise UnsupportedError(
                f"{what}: PIPE_SHADER_CAP_MAX_SHADER_BUFFERS is 0 for the {stage.name} stage on the "
                f"{ctx.screen.profile.name} profile"
            )
        boundary.span(start, len(items), limit, f"{what}: slots of the {stage.name} stage")
        bound = [self._check(b, bool(mask >> k & 1), f"{what}: buffers[{k}]") for k, b in enumerate(items)]
        slots = self.slots[stage]
        slots[start : start + len(bound)] = bound
        if stage != ShaderType.COMPUTE:
            ctx.dirty |= Dirty.SHADER_BUFFERS
            self._graphics_writers = any(b is not None and b.writable for st in _GRAPHICS for b in self.slots[st])

    def _check(self, sb, writable: bool, what: str) -> BoundBuffer | None:
        checked = check_buffer_range(self.ctx, sb, what)
        if checked is None:
            return None
        res, offset, size = checked
        align = self.ctx.screen.get_param(Cap.SHADER_BUFFER_OFFSET_ALIGNMENT) or 4
        if offset % align:
            raise InvalidArgumentError(
                f"{what}.buffer_offset = {offset} is not a multiple of PIPE_CAP_SHADER_BUFFER_OFFSET_ALIGNMENT ({align})"
            )
        return BoundBuffer(res, offset, size, writable)

    def bound(self, stage: ShaderType) -> list[BoundBuffer | None]:
        """The slots of ``stage`` (live list: read, do not keep)."""
        return self.slots[stage]

    def bind_stage(self, stage: ShaderType) -> None:
        """glBindBufferRange every bound slot of ``stage`` at its binding
        (an empty slot unbinds, so a stale binding of another stage is never read)."""
        gl = self.ctx.gl
        name = LOWERING_STAGE[stage]
        layout = self.ctx.bindings
        if name not in layout.stages:
            return
        count = layout.stages[name].ssbo_count
        for k, b in enumerate(self.slots[stage][:count]):
            binding = layout.ssbo_binding(name, k)
            if b is None or b.size == 0:
                gl.glBindBufferBase(gl.GL_SHADER_STORAGE_BUFFER, binding, 0)
            else:
                b.resource.check_alive("shader buffer")
                gl.glBindBufferRange(gl.GL_SHADER_STORAGE_BUFFER, binding, b.resource.gl_object, b.offset, b.size)

    def _emit_shader_buffers(self) -> None:
        """Derived row: the graphics stages' slots at their bindings."""
        if not self._native:
            return
        for stage in _GRAPHICS:
            if any(self.slots[stage]):
                self.bind_stage(stage)

    def before_transfer(self) -> None:
        """A transfer is about to read a buffer: make the writes of earlier
        draws through writable shader buffers visible to it (one
        glMemoryBarrier, only while such a binding exists; launch_grid makes
        its own writes visible when it returns)."""
        if self._graphics_writers:
            gl = self.ctx.gl
            gl.glMemoryBarrier(gl.GL_BUFFER_UPDATE_BARRIER_BIT | gl.GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)

    def _forget(self) -> None:
        """GLPIPE_DEBUG=nofast: re-send the bindings at the next draw."""
        self.ctx.dirty |= Dirty.SHADER_BUFFERS


_GRAPHICS = (ShaderType.VERTEX, ShaderType.TESS_CTRL, ShaderType.TESS_EVAL, ShaderType.GEOMETRY, ShaderType.FRAGMENT)


AREA = Area(
    "shader_buffers_part",
    part=ShaderBuffersPart,
    methods=("set_shader_buffers",),
    rows=((Dirty.SHADER_BUFFERS, ShaderBuffersPart._emit_shader_buffers),),
    drop_caches=ShaderBuffersPart._forget,
)

__all__ = ["AREA", "BoundBuffer", "ShaderBuffersPart"]
