"""Indirect draws and draw auto: ``DrawIndirectPart`` (``ctx.draw_indirect_part``).

``draw_vbo(info, draws, indirect)`` with a ``DrawIndirectInfo``: the commands
of ``indirect.buffer`` (GL's DrawArraysIndirectCommand /
DrawElementsIndirectCommand layouts, as Gallium's), ``draw_count`` of them
``stride`` bytes apart, optionally capped by the count in
``indirect_draw_count``; or, with ``count_from_stream_output``, the vertices
a stream output target captured.  Hosts with indirect draws draw them on the
GPU; elsewhere the commands are read back and drawn one by one (a wait for
the GPU: docs/stream_output.md "Indirect draws").
"""

from __future__ import annotations

import ctypes
import dataclasses

import numpy as np

from lowering.errors import InvalidArgumentError

from . import boundary
from .enums import Target
from .part import Area, Part
from .resource import Resource
from .templates import DrawIndirectInfo

# Bytes of one command: (count, instance_count, first, base_instance) and
# (count, instance_count, first_index, base_vertex, base_instance).
_ARRAYS_COMMAND = 16
_ELEMENTS_COMMAND = 20


class DrawIndirectPart(Part):
    """The indirect-draw area: checks, the native draw and the CPU unroll."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        profile = ctx.screen.profile
        self._native = profile.has("multi_draw_indirect") and profile.has("base_instance")
        self._native_count = self._native and profile.has("indirect_parameters")

    def draw(self, info, draws, indirect) -> bool:
        """Check ``indirect`` (before anything is drawn) and draw it where that
        takes direct draws: draw auto, or commands read back on a host
        without indirect draws.  False: the caller emits the derived state
        and calls ``draw_native``."""
        ctx = self.ctx
        what = "draw_vbo: indirect"
        boundary.instance(indirect, DrawIndirectInfo, what)
        if draws is not None and len(draws) > 1:
            raise InvalidArgumentError(f"{what}: an indirect draw takes no multi-draw list (draws)")
        target = indirect.count_from_stream_output
        if target is not None:
            count = ctx.stream_output_part.draw_auto_count(target)
            if info.index_size:
                raise InvalidArgumentError(f"{what}.count_from_stream_output: draw auto is not indexed")
            ctx._draw_general(dataclasses.replace(info, start=0, count=count), None, None)
            return True
        elements = bool(info.index_size)
        size = _ELEMENTS_COMMAND if elements else _ARRAYS_COMMAND
        buffer = self._check_buffer(indirect.buffer, f"{what}.buffer")
        offset = boundary.uint32(indirect.offset, f"{what}.offset")
        draw_count = boundary.uint32(indirect.draw_count, f"{what}.draw_count")
        stride = boundary.uint32(indirect.stride, f"{what}.stride")
        if offset % 4 or stride % 4:
            raise InvalidArgumentError(f"{what}: offset {offset} and stride {stride} must be multiples of 4")
        stride = stride or size  # 0: tightly packed (GL's rule, Gallium's too)
        if draw_count > 1 and stride < size:
            raise InvalidArgumentError(f"{what}.stride: {stride} bytes is less than a command ({size} bytes)")
        end = offset + (draw_count - 1) * stride + size if draw_count else offset
        if end > buffer.width0:
            raise InvalidArgumentError(
                f"{what}: {draw_count} commands of {size} bytes at offset {offset}, stride {stride}, "
                f"end at byte {end}, past the buffer ({buffer.width0} bytes)"
            )
        count_buffer = indirect.indirect_draw_count
        count_offset = boundary.uint32(indirect.indirect_draw_count_offset, f"{what}.indirect_draw_count_offset")
        if count_buffer is not None:
            count_buffer = self._check_buffer(count_buffer, f"{what}.indirect_draw_count")
            if count_offset % 4 or count_offset + 4 > count_buffer.width0:
                raise InvalidArgumentError(
                    f"{what}.indirect_draw_count_offset: {count_offset} is not a dword of the count buffer "
                    f"({count_buffer.width0} bytes)"
                )
        if elements and info.index is None:
            raise InvalidArgumentError(f"draw_vbo: index_size is {info.index_size} but info.index is None")
        if elements and not info.has_user_indices:
            ctx._check_resource(info.index, "draw_vbo: info.index")
        native = (
            self._native
            and (count_buffer is None or self._native_count)
            and not (elements and info.has_user_indices)  # commands address a GPU index buffer from its start
            and info.mode in ctx._gl_prims
            and ctx._raster_draw is None  # an emulation re-reads each draw's vertices on the CPU
        )
        if native:
            self._args = (buffer, offset, draw_count, stride, count_buffer, count_offset)
            return False
        self._unroll(info, buffer, offset, draw_count, stride, size, count_buffer, count_offset)
        return True

    def _check_buffer(self, res, what: str) -> Resource:
        if not isinstance(res, Resource):
            raise InvalidArgumentError(f"{what}: expected a buffer Resource, got {type(res).__name__}")
        self.ctx._check_resource(res, what)
        if res.target != Target.BUFFER:
            raise InvalidArgumentError(f"{what}: a {Target(res.target).name} resource, not a BUFFER")
        return res

    def _read(self, res: Resource, offset: int, nbytes: int) -> np.ndarray:
        """Bytes of a buffer resource, read back (glGetBufferSubData waits for the GPU)."""
        gl = self.ctx.gl
        out = np.empty(nbytes, np.uint8)
        if nbytes:
            gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
            gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, offset, nbytes, out)
            gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        self.ctx._counters.bytes_downloaded += nbytes
        return out

    def _unroll(self, info, buffer, offset, draw_count, stride, size, count_buffer, count_offset) -> None:
        """The commands read back and drawn as direct draws, each checked
        before the first is drawn.  Draw ``i`` has drawid ``i``."""
        ctx = self.ctx
        if count_buffer is not None:
            draw_count = min(draw_count, int(self._read(count_buffer, count_offset, 4).view(np.uint32)[0]))
        if draw_count == 0:
            return
        raw = self._read(buffer, offset, (draw_count - 1) * stride + size)
        words = size // 4
        rows = np.lib.stride_tricks.as_strided(
            raw.view(np.uint32), shape=(draw_count, words), strides=(stride, 4), writeable=False
        ).astype(np.int64)
        subs = []
        elements = bool(info.index_size)
        if elements:
            if info.has_user_indices:
                n_indices = memoryview(info.index).nbytes // info.index_size
            else:
                n_indices = info.index.width0 // info.index_size
        for i, row in enumerate(rows):
            if elements:
                count, instances, first, bias, base_instance = row
                bias = int(np.int64(bias) - (1 << 32) if bias >= 1 << 31 else bias)  # GLint base vertex
                if count and first + count > n_indices:
                    raise InvalidArgumentError(
                        f"draw_vbo: indirect command {i} reads indices {first}..{first + count - 1}, "
                        f"past the index buffer ({n_indices} indices)"
                    )
            else:
                count, instances, first, base_instance = row
                bias = 0
            subs.append(
                dataclasses.replace(
                    info,
                    start=int(first),
                    count=int(count),
                    index_bias=int(bias),
                    instance_count=int(instances),
                    start_instance=int(base_instance),
                    drawid=i,
                )
            )
        if ctx.debug_part.debug_callback is not None:
            ctx.debug_part.debug_message(
                "PERF_INFO",
                f"draw_vbo: {len(subs)} indirect command(s) read back and drawn from the CPU",
                site="indirect unroll",
            )
        ctx._counters.fallback(
            "draw_indirect_count_unroll"
            if count_buffer is not None
            else "multi_draw_indirect_unroll"
            if draw_count > 1
            else "draw_indirect_unroll"
        )
        for sub in subs:
            if sub.count > 0 and sub.instance_count > 0:
                ctx._draw_general(sub, None, None)

    def draw_native(self, info, indirect) -> None:
        """The checked indirect draw on the GPU (glMultiDraw*Indirect[Count]);
        the derived state is emitted.  DRAWID is the command's index."""
        ctx = self.ctx
        gl = ctx.gl
        buffer, offset, draw_count, stride, count_buffer, count_offset = self._args
        mode = ctx._gl_prims[info.mode]
        if info.index_size:
            res = info.index
            if res is not ctx._index_res or res.gl_object != ctx._index_name:
                gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, res.gl_object)
                ctx._index_res = res
                ctx._index_name = res.gl_object
                ctx._index_nbytes = res.width0
            ctx._apply_restart(info)
        elif ctx._restart_on:
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            ctx._restart_on = False
        if draw_count == 0:
            return
        gl.glBindBuffer(gl.GL_DRAW_INDIRECT_BUFFER, buffer.gl_object)
        ptr = ctypes.c_void_p(offset)
        if count_buffer is not None:
            # GL_ARB_indirect_parameters (core in 4.6; PyOpenGL's GL namespace has the 4.6 names only).
            from OpenGL.GL.ARB import indirect_parameters as arb

            gl.glBindBuffer(arb.GL_PARAMETER_BUFFER_ARB, count_buffer.gl_object)
            if info.index_size:
                gltype = ctx._gl_index_types[info.index_size]
                arb.glMultiDrawElementsIndirectCountARB(mode, gltype, ptr, count_offset, draw_count, stride)
            else:
                arb.glMultiDrawArraysIndirectCountARB(mode, ptr, count_offset, draw_count, stride)
            gl.glBindBuffer(arb.GL_PARAMETER_BUFFER_ARB, 0)
        elif info.index_size:
            gl.glMultiDrawElementsIndirect(mode, ctx._gl_index_types[info.index_size], ptr, draw_count, stride)
        else:
            gl.glMultiDrawArraysIndirect(mode, ptr, draw_count, stride)
        gl.glBindBuffer(gl.GL_DRAW_INDIRECT_BUFFER, 0)


AREA = Area("draw_indirect_part", part=DrawIndirectPart)

__all__ = ["AREA", "DrawIndirectPart"]
