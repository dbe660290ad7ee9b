"""Constant buffers: ``set_constant_buffer(shader_type, index, cb)``.

``ConstantBufferPart`` (``ctx.constbuf_part``) keeps the bound constant
buffers per stage, copies user memory at the call and uploads it into a
streaming UBO ring at draw, binds a zero buffer for a declared but unbound
block, and binds only the blocks the linked program declares where the
binding point's range changes.  docs/bindings.md "Constant buffers" has the
rules (alignment, sizes, the ring).
"""

from __future__ import annotations

import ctypes
from typing import NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError, ObjectDestroyedError

from .boundary import show
from .dirty import Dirty
from .enums import PIPE_MAX_CONSTANT_BUFFERS, ShaderType, Target
from .part import Area, Part
from .resource import Resource
from .samplers import _stage_arg
from .shaders import GRAPHICS_STAGES, STAGE_PROCESSOR
from .templates import ConstantBuffer

_RING_MIN_SIZE = 256 * 1024


class PlanRow(NamedTuple):
    """One constant buffer a linked program declares (``Program.cb_plan``)."""

    stage: int  # ShaderType
    index: int  # the Gallium constant buffer index (CONST[index])
    binding: int  # its UBO binding (docs/bindings.md)
    declared: int  # bytes the shader declares (16 a vec4)


class _BoundConstantBuffer:
    """One bound constant buffer: a resource range, or a copy of user memory
    with its current place in the upload ring (``ring_offset`` None: not
    uploaded in the ring's current storage)."""

    __slots__ = ("data", "offset", "resource", "ring_offset", "ring_size", "size")

    def __init__(self, resource, offset, size, data):
        self.resource = resource
        self.offset = offset
        self.size = size
        self.data = data
        self.ring_offset = None
        self.ring_size = 0


def _user_bytes(memory, offset: int, size: int, what: str) -> bytes:
    try:
        view = memoryview(memory).cast("B")
    except TypeError as exc:
        raise InvalidArgumentError(f"{what}: user memory must be a contiguous buffer-protocol object ({exc})") from None
    if offset < 0 or offset > len(view):
        raise InvalidArgumentError(f"{what}: buffer_offset {offset} is outside the {len(view)}-byte user buffer")
    if size == 0:
        size = len(view) - offset
    if size <= 0 or offset + size > len(view):
        raise InvalidArgumentError(
            f"{what}: buffer_offset {offset} + buffer_size {size} exceed the {len(view)}-byte user buffer"
        )
    return bytes(view[offset : offset + size])


class ConstantBufferPart(Part):
    """The constant-buffer area of a context (``ctx.constbuf_part``): the
    bound constant buffers (``constant_buffers[stage][index]``), the user
    memory upload ring, the zero buffer and the UBO binding shadow."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # Bound constant buffers per stage (indexed by ShaderType).
        self.constant_buffers = [[None] * PIPE_MAX_CONSTANT_BUFFERS for _ in ShaderType]
        prof = ctx.screen.profile
        self._ubo_align = max(1, int(prof.limit("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT")))
        self._max_block_size = int(prof.limit("GL_MAX_UNIFORM_BLOCK_SIZE"))
        self._ubo_ring = 0
        self._ring_size = 0
        self._ring_head = 0
        self._zero_ubo = 0
        self._zero_ubo_size = 0
        self._ubo_bound: dict[int, tuple] = {}  # UBO binding -> (buffer, offset, size)

    # -- the Gallium entry point --------------------------------------------------

    def set_constant_buffer(self, shader_type: ShaderType | int, index: int, cb: ConstantBuffer | None) -> None:
        """pipe_context::set_constant_buffer(shader, index, cb).

        ``cb`` is a ConstantBuffer holding a BUFFER resource (``buffer``,
        ``buffer_offset``, ``buffer_size``) or user memory (``user_buffer``),
        or None to unbind.  User memory is copied now.  Setting what is
        already bound does nothing."""
        what = "set_constant_buffer"
        ctx = self.ctx
        ctx.check_alive(what)
        stage = _stage_arg(shader_type, what)
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise InvalidArgumentError(f"{what}: index must be an integer, got {show(index)}")
        index = int(index)
        if not 0 <= index < PIPE_MAX_CONSTANT_BUFFERS:
            raise InvalidArgumentError(f"{what}: index {show(index)} outside 0..PIPE_MAX_CONSTANT_BUFFERS-1")
        slots = self.constant_buffers[stage]
        if cb is None:
            if slots[index] is not None:
                slots[index] = None
                ctx.dirty |= Dirty.CONSTANTS
            return
        if not isinstance(cb, ConstantBuffer):
            raise InvalidArgumentError(f"{what}: expected a ConstantBuffer or None, got {type(cb).__name__}")
        # A slot the stage cannot bind is refused now, not at draw.
        ctx.bindings.ubo_binding(STAGE_PROCESSOR[stage], index)
        offset, size = int(cb.buffer_offset), int(cb.buffer_size)
        memory = cb.user_buffer
        if cb.buffer is not None:
            if memory is not None:
                raise InvalidArgumentError(f"{what}: ConstantBuffer has both buffer and user_buffer")
            if not isinstance(cb.buffer, Resource):
                memory = cb.buffer  # user memory in .buffer, as docs/api.md "User memory" allows
        old = slots[index]
        if memory is not None:
            data = _user_bytes(memory, offset, size, what)
            if old is not None and old.data is not None and old.data == data:
                return
            slots[index] = _BoundConstantBuffer(None, 0, len(data), data)
        else:
            if cb.buffer is None:
                raise InvalidArgumentError(
                    f"{what}: ConstantBuffer has neither buffer nor user_buffer (pass None to unbind)"
                )
            res = cb.buffer
            ctx._check_resource(res, f"{what}: cb.buffer")
            if res.target != Target.BUFFER:
                raise InvalidArgumentError(f"{what}: cb.buffer is a {Target(res.target).name} resource, not a BUFFER")
            if offset < 0 or offset % self._ubo_align:
                raise InvalidArgumentError(
                    f"{what}: buffer_offset {offset} is not a non-negative multiple of "
                    f"CONSTANT_BUFFER_OFFSET_ALIGNMENT = {self._ubo_align}"
                )
            if size == 0:
                size = res.width0 - offset
            if size <= 0 or offset + size > res.width0:
                raise InvalidArgumentError(
                    f"{what}: buffer_offset {offset} + buffer_size {cb.buffer_size} exceed the {res.width0}-byte buffer"
                )
            if old is not None and old.resource is res and old.offset == offset and old.size == size:
                return
            slots[index] = _BoundConstantBuffer(res, offset, size, None)
        ctx.dirty |= Dirty.CONSTANTS

    # -- emit ------------------------------------------------------------------------

    @staticmethod
    def _constant_plan(variants) -> tuple:
        """A ``PlanRow`` for every block the linked ``variants`` declare.
        Computed once per program, when it is linked (``Program.cb_plan``)."""
        rows = []
        for stage, variant in zip(GRAPHICS_STAGES, variants, strict=True):
            if variant is None:
                continue
            for info in variant.glsl.reflection.constant_buffers:
                rows.append(PlanRow(int(stage), int(info.index), int(info.binding), 16 * int(info.size)))
        return tuple(rows)

    def _emit_constants(self) -> None:
        """Bind every constant buffer the program declares (uploading user memory first)."""
        prog = self.ctx.shader_part.program
        if prog is None:
            return
        self._bind_constant_plan(prog.cb_plan)

    def _bind_constant_plan(self, plan) -> None:
        """Bind the UBOs of ``plan`` (``PlanRow``s: stage, index, binding,
        declared bytes); also used by compute with a plan of its own."""
        slots_by_stage = self.constant_buffers
        self._upload_user_constants(plan)
        gl = self.ctx.gl
        bound = self._ubo_bound
        calls = 0
        for stage, index, binding, declared in plan:
            rec = slots_by_stage[stage][index]
            if rec is None:
                want = (self._zero_buffer(declared), 0, max(declared, 16))
            elif rec.data is not None:
                want = (self._ubo_ring, rec.ring_offset, rec.ring_size)
            else:
                if rec.resource.destroyed:
                    raise ObjectDestroyedError(
                        f"draw: the resource of constant buffer {index} of the "
                        f"{ShaderType(stage).name} shader was destroyed"
                    )
                want = (rec.resource.gl_object, rec.offset, rec.size)
            if bound.get(binding) != want:
                gl.glBindBufferRange(gl.GL_UNIFORM_BUFFER, binding, *want)
                bound[binding] = want
                calls += 1
        self.ctx._counters.gl_state_calls += calls

    def _upload_user_constants(self, plan) -> None:
        """Upload the user constant buffers ``plan`` needs that the ring does
        not hold (or holds shorter than the shader declares)."""
        slots_by_stage = self.constant_buffers
        pending = []
        for stage, index, _binding, declared in plan:
            rec = slots_by_stage[stage][index]
            if rec is not None and rec.data is not None and (rec.ring_offset is None or rec.ring_size < declared):
                pending.append((rec, declared))
        if not pending:
            return
        align = self._ubo_align
        sizes = [self._upload_size(rec, declared) for rec, declared in pending]
        need = sum(-(-s // align) * align for s in sizes)
        head = -(-self._ring_head // align) * align
        if not self._ubo_ring or head + need > self._ring_size:
            self._orphan_ring(need)
            # The old storage is gone: every user buffer of this plan goes again.
            pending = [
                (slots_by_stage[s][i], d)
                for s, i, _b, d in plan
                if slots_by_stage[s][i] is not None and slots_by_stage[s][i].data is not None
            ]
            sizes = [self._upload_size(rec, declared) for rec, declared in pending]
            head = 0
        gl = self.ctx.gl
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, self._ubo_ring)
        total = 0
        for (rec, _declared), size in zip(pending, sizes, strict=True):
            n = len(rec.data)
            ptr = gl.glMapBufferRange(
                gl.GL_COPY_WRITE_BUFFER,
                head,
                size,
                gl.GL_MAP_WRITE_BIT | gl.GL_MAP_UNSYNCHRONIZED_BIT | gl.GL_MAP_INVALIDATE_RANGE_BIT,
            )
            ctypes.memmove(ptr, rec.data, min(n, size))
            if size > n:
                ctypes.memset(ptr + n, 0, size - n)
            gl.glUnmapBuffer(gl.GL_COPY_WRITE_BUFFER)
            rec.ring_offset, rec.ring_size = head, size
            head += -(-size // align) * align
            total += size
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
        self._ring_head = head
        self.ctx._counters.bytes_uploaded += total

    def _upload_size(self, rec, declared: int) -> int:
        """Bytes to upload: the user's data, zero-padded to the declared block
        (std140 vec4s: a multiple of 16), at most the host's block size."""
        size = max(len(rec.data), declared, 16)
        size = -(-size // 16) * 16
        return min(size, max(self._max_block_size, -(-len(rec.data) // 16) * 16))

    def _orphan_ring(self, need: int) -> None:
        """Give the ring fresh storage (queued draws keep the old), growing it for ``need`` bytes."""
        gl = self.ctx.gl
        if not self._ubo_ring:
            self._ubo_ring = int(gl.glGenBuffers(1))
        size = max(self._ring_size, _RING_MIN_SIZE)
        while size < 2 * need:
            size *= 2
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, self._ubo_ring)
        gl.glBufferData(gl.GL_COPY_WRITE_BUFFER, size, None, gl.GL_STREAM_DRAW)
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
        self._ring_size = size
        self._ring_head = 0
        for slots in self.constant_buffers:
            for rec in slots:
                if rec is not None and rec.data is not None:
                    rec.ring_offset = None
        # Bindings into the ring refer to the name, whose storage changed.
        ring = self._ubo_ring
        for binding in [b for b, (buffer, _offset, _size) in self._ubo_bound.items() if buffer == ring]:
            del self._ubo_bound[binding]

    def _zero_buffer(self, size: int) -> int:
        """A UBO of at least ``size`` zero bytes (what an unbound constant buffer reads)."""
        size = max(size, 16)
        if size > self._zero_ubo_size:
            gl = self.ctx.gl
            old = self._zero_ubo
            name = int(gl.glGenBuffers(1))
            new_size = max(size, 4096)
            gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, name)
            gl.glBufferData(gl.GL_COPY_WRITE_BUFFER, new_size, np.zeros(new_size, np.uint8), gl.GL_STATIC_DRAW)
            gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
            if old:
                gl.glDeleteBuffers(1, [old])
                for binding in [b for b, (buffer, _offset, _size) in self._ubo_bound.items() if buffer == old]:
                    del self._ubo_bound[binding]
            self._zero_ubo, self._zero_ubo_size = name, new_size
        return self._zero_ubo

    def _constant_bindings_clobbered(self) -> None:
        """Forget what the UBO binding points hold (e.g. after launch_grid rebinds them)."""
        self._ubo_bound.clear()
        self.ctx.dirty |= Dirty.CONSTANTS

    def destroy(self) -> None:
        """Context.destroy: delete the upload ring and the zero buffer."""
        gl = self.ctx.gl
        names = [n for n in (self._ubo_ring, self._zero_ubo) if n]
        if names:
            gl.glDeleteBuffers(len(names), names)
        self._ubo_ring = self._zero_ubo = 0
        self._ring_size = self._zero_ubo_size = self._ring_head = 0
        self._ubo_bound.clear()


AREA = Area(
    "constbuf_part",
    part=ConstantBufferPart,
    methods=("set_constant_buffer",),
    rows=((Dirty.CONSTANTS, ConstantBufferPart._emit_constants),),
    destroy=ConstantBufferPart.destroy,
    drop_caches=ConstantBufferPart._constant_bindings_clobbered,
)

__all__ = ["AREA", "ConstantBufferPart", "PlanRow"]
