"""Capture of the last vertex stage's positions for draws that must look at
geometry on the CPU before drawing it: the segment bases of stippled line
strips (glpipe/line_stipple.py) and the facing of each triangle when the two
faces have different fill modes (glpipe/fill_modes.py).

How.  The draw's VS variant -- the one the bound program links, so the
position is exactly what the host's clipper receives: the y flip, the
integer pixel-centre shift, the window-space inverse transform and every
other last-stage pass included -- is linked once more into a program of its
own that captures ``gl_Position`` with transform feedback (GL 3.0 core,
both profiles).  It runs over a contiguous range of vertex numbers as
POINTS with rasterizer discard, for every instance of the draw, through the
vertex state the draw emitted (so user vertex buffers, start_instance --
by base instance or by the baked attribute offsets -- and instance
divisors are the draw's own), and the buffer is read back into numpy.

The capture programs are cached per VS variant; one whose shader was
deleted is dropped when the next one is made.  After a capture the host is
back in the draw's state: its program, primitive restart off (the draw
re-applies restart as it needs), rasterizer discard as the bound rasterizer
says (the rasterizer record forgets that slot, so the emit re-sends it).

Known costs: the extra VS run is visible to pipeline-statistics and
primitives-generated queries active around the draw; a VS with side effects
would run twice, so a VS using shader buffers, images or atomic counters is
refused (UnsupportedError naming the feature that needed the capture).
"""

from __future__ import annotations

import ctypes

import numpy as np

from lowering.errors import InvalidArgumentError, PipeError, UnsupportedError

from .shaders import apply_bindings


class VertexCaptureMixin:
    """Context methods capturing the VS's clip-space positions (mixed into
    Context).  Class attributes hold the idle state: nothing is made until
    the first capture."""

    _vc_programs = None  # VS variant -> GL program capturing gl_Position
    _vc_buffer = None    # [transform feedback buffer, its size in bytes]

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
            raise InvalidArgumentError(f"draw_vbo: indices {start}..{start + count - 1} read outside the "
                                       f"index buffer ({len(source)} indices)")
        values = source[start:start + count].astype(np.int64)
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
            raise UnsupportedError(f"draw_vbo: {what}: the draw needs glpipe's position capture, which runs the VS "
                                   f"once more, and this VS uses shader buffers, images or atomic counters (their "
                                   f"side effects would happen twice)")
        gl = self.gl
        for old in [v for v in progs if v.cso.destroyed]:  # shaders deleted since: their programs go too
            gl.glDeleteProgram(progs.pop(old))
        prog = int(gl.glCreateProgram())
        gl.glAttachShader(prog, variant.gl_shader)
        names = (ctypes.c_char_p * 1)(b"gl_Position")
        gl.glTransformFeedbackVaryings(prog, 1, ctypes.cast(names, ctypes.POINTER(ctypes.POINTER(ctypes.c_char))),
                                       gl.GL_INTERLEAVED_ATTRIBS)
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

    def _capture_positions(self, first: int, n: int, instances: int, start_instance: int,
                           what: str) -> np.ndarray:
        """The bound program's VS run over vertices first..first+n-1 of
        ``instances`` instances (from ``start_instance``): gl_Position as
        (instances, n, 4) float32 clip coordinates.  The draw's derived state
        (program, vertex input for ``start_instance``) must be emitted."""
        gl = self.gl
        prog = self._capture_program(self.shader_part.program.variants[0], what)
        objs = self._vc_buffer
        if objs is None:
            objs = self._vc_buffer = [int(gl.glGenBuffers(1)), 0]
        size = instances * n * 16
        gl.glBindBuffer(gl.GL_TRANSFORM_FEEDBACK_BUFFER, objs[0])
        if size > objs[1]:
            gl.glBufferData(gl.GL_TRANSFORM_FEEDBACK_BUFFER, size, None, gl.GL_STREAM_READ)
            objs[1] = size
        if self._restart_on:  # GL may apply restart to vertex numbers
            gl.glDisable(gl.GL_PRIMITIVE_RESTART)
            self._restart_on = False
        gl.glUseProgram(prog)
        gl.glEnable(gl.GL_RASTERIZER_DISCARD)
        gl.glBindBufferBase(gl.GL_TRANSFORM_FEEDBACK_BUFFER, 0, objs[0])
        gl.glBeginTransformFeedback(gl.GL_POINTS)
        points = int(gl.GL_POINTS)
        if start_instance and self._use_base_instance:
            self._gl_draw_arrays_bi(points, first, n, instances, start_instance)
        else:
            self._gl_draw_arrays(points, first, n, instances)
        gl.glEndTransformFeedback()
        gl.glBindBufferBase(gl.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0)
        # (glBindBufferBase also set the generic binding to 0: read through COPY_READ.)
        # A uint8 array: PyOpenGL converts other types to bytes (a copy GL would overrun).
        out = np.empty(size, np.uint8)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, objs[0])
        gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, size, out)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        self.screen.counters.bytes_downloaded += size
        # Back to the draw's state: its program, and the rasterizer-discard
        # switch as its rasterizer has it (the host record forgets it).
        self._hot.glUseProgram(self.shader_part.program.gl_program)
        self._rast_host.cleared()
        self._emit_rasterizer()
        return out.view(np.float32).reshape(instances, n, 4)

    def _destroy_vertex_capture(self) -> None:
        gl = self.gl
        if self._vc_buffer is not None:
            gl.glDeleteBuffers(1, [self._vc_buffer[0]])
            self._vc_buffer = None
        for prog in (self._vc_programs or {}).values():
            gl.glDeleteProgram(prog)
        self._vc_programs = None


__all__ = ["VertexCaptureMixin"]
