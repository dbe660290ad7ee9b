"""Capture of the last vertex stage's clip-space positions, for draws that
must look at their geometry on the CPU before drawing it (stippled strips,
two fill modes, stippled polygon edges): ``VertexCapturePart``
(``ctx.vertex_capture_part``), a transform feedback run of the draw's own VS
variant.  docs/rasterizer.md "Position capture" has how and what it costs.
"""

from __future__ import annotations

import ctypes

import numpy as np

from lowering.errors import InvalidArgumentError, PipeError, UnsupportedError

from ..part import Area, Part
from ..shaders import apply_bindings


class _CaptureBuffer:
    """The transform feedback buffer of the captures and its size in bytes
    (it grows to the largest capture)."""

    __slots__ = ("buffer", "size")

    def __init__(self, buffer: int) -> None:
        self.buffer = buffer
        self.size = 0


class VertexCapturePart(Part):
    """The capture of the VS's clip-space positions (``ctx.vertex_capture_part``),
    used by the line stipple, fill mode and polygon edge emulations.
    Nothing is made until the first capture."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._vc_programs = None  # VS variant -> GL program capturing gl_Position
        self._vc_buffer = None  # the transform feedback buffer (_CaptureBuffer)

    def _item_vertices(self, info, source, start: int, count: int, bias: int):
        """One DrawStartCountBias of a draw a pre-pass re-reads, checked as the
        draw checks it: (index values, or vertex numbers without indices; the
        restart mask; the vertex numbers, 0 at restarts; the bias in effect,
        0 without indices)."""
        if start < 0:
            raise InvalidArgumentError(f"draw_vbo: start {start} is negative")
        if source is None:
            values = np.arange(start, start + count, dtype=np.int64)
            return values, np.zeros(count, bool), values, 0
        if start + count > len(source):
            raise InvalidArgumentError(
                f"draw_vbo: indices {start}..{start + count - 1} read outside the index buffer ({len(source)} indices)"
            )
        values = source[start : start + count].astype(np.int64)
        restart = values == info.restart_index if info.primitive_restart else np.zeros(count, bool)
        return values, restart, np.where(restart, 0, values + bias), bias

    def _capture_program(self, variant, what: str) -> int:
        """A program of the VS variant alone, capturing gl_Position;
        ``what`` names the feature that needs it (in errors)."""
        progs = self._vc_programs
        if progs is None:
            progs = self._vc_programs = {}
        prog = progs.get(variant)
        if prog is not None:
            return prog
        refl = variant.glsl.reflection
        if refl.storage_block_bindings or refl.images or refl.atomic_buffers:
            raise UnsupportedError(
                f"draw_vbo: {what}: the draw needs glpipe's position capture, which runs the VS "
                f"once more, and this VS uses shader buffers, images or atomic counters (their "
                f"side effects would happen twice)"
            )
        gl = self.ctx.gl
        # Shaders deleted (or dropped: the variant holds its CSO weakly) since: their programs go too.
        for old in [v for v in progs if v.cso is None or v.cso.destroyed]:
            gl.glDeleteProgram(progs.pop(old))
        prog = int(gl.glCreateProgram())
        gl.glAttachShader(prog, variant.gl_shader)
        names = (ctypes.c_char_p * 1)(b"gl_Position")
        gl.glTransformFeedbackVaryings(
            prog, 1, ctypes.cast(names, ctypes.POINTER(ctypes.POINTER(ctypes.c_char))), gl.GL_INTERLEAVED_ATTRIBS
        )
        gl.glLinkProgram(prog)
        gl.glDetachShader(prog, variant.gl_shader)
        if not gl.glGetProgramiv(prog, gl.GL_LINK_STATUS):
            log = gl.glGetProgramInfoLog(prog)
            gl.glDeleteProgram(prog)
            raise PipeError(f"internal error: the position capture could not link the VS: {log!r}")
        gl.glUseProgram(prog)
        apply_bindings(gl, prog, refl)
        progs[variant] = prog
        return prog

    def _capture_positions(self, first: int, n: int, instances: int, start_instance: int, what: str) -> np.ndarray:
        """The bound program's VS run over vertices first..first+n-1 of
        ``instances`` instances (from ``start_instance``): gl_Position as
        (instances, n, 4) float32 clip coordinates.  The draw's derived state
        (program, vertex input for ``start_instance``) must be emitted."""
        ctx = self.ctx
        gl = ctx.gl
        prog = self._capture_program(ctx.shader_part.program.variants[0], what)
        objs = self._vc_buffer
        if objs is None:
            objs = self._vc_buffer = _CaptureBuffer(int(gl.glGenBuffers(1)))
        size = instances * n * 16
        gl.glBindBuffer(gl.GL_TRANSFORM_FEEDBACK_BUFFER, objs.buffer)
        if size > objs.size:
            gl.glBufferData(gl.GL_TRANSFORM_FEEDBACK_BUFFER, size, None, gl.GL_STREAM_READ)
            objs.size = size
        if ctx._restart_on:  # GL may apply restart to vertex numbers
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            ctx._restart_on = False
        gl.glUseProgram(prog)
        gl.glEnable(gl.GL_RASTERIZER_DISCARD)
        gl.glBindBufferBase(gl.GL_TRANSFORM_FEEDBACK_BUFFER, 0, objs.buffer)
        points = int(gl.GL_POINTS)
        # glpipe's own draw: it never counts in the user's queries (docs/queries.md).
        with ctx.query_part.suspended():
            gl.glBeginTransformFeedback(gl.GL_POINTS)
            if start_instance and ctx.vertex_part.use_base_instance:
                ctx._gl_draw_arrays_bi(points, first, n, instances, start_instance)
            else:
                ctx._gl_draw_arrays(points, first, n, instances)
            gl.glEndTransformFeedback()
        gl.glBindBufferBase(gl.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0)
        # (glBindBufferBase also set the generic binding to 0: read through COPY_READ.)
        # A uint8 array: PyOpenGL converts other types to bytes (a copy GL would overrun).
        out = np.empty(size, np.uint8)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, objs.buffer)
        gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, size, out)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        ctx._counters.bytes_downloaded += size
        # Back to the draw's state: its program, and the rasterizer-discard
        # switch as its rasterizer has it (the host record forgets it).
        ctx._hot.glUseProgram(ctx.shader_part.program.gl_program)
        ctx.rasterizer_part.rast_host.cleared()
        ctx.rasterizer_part._emit_rasterizer()
        return out.view(np.float32).reshape(instances, n, 4)

    def destroy(self) -> None:
        """Context.destroy: the capture buffer and programs."""
        gl = self.ctx.gl
        if self._vc_buffer is not None:
            gl.glDeleteBuffers(1, [self._vc_buffer.buffer])
            self._vc_buffer = None
        for prog in (self._vc_programs or {}).values():
            gl.glDeleteProgram(prog)
        self._vc_programs = None


AREA = Area("vertex_capture_part", part=VertexCapturePart, destroy=VertexCapturePart.destroy)

__all__ = ["AREA", "VertexCapturePart"]
