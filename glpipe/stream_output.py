"""Stream output (Gallium's transform feedback): ``StreamOutputPart``
(``ctx.stream_output_part``) with create_stream_output_target,
stream_output_target_destroy and set_stream_output_targets; the plan of a
shader's ``ShaderState.stream_output`` (checked once, at create); the
capture around a draw; and the vertex count of draw auto.

How Gallium's fields become GL's transform feedback varyings, where the
write offsets live and what each host can capture: docs/stream_output.md.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError
from lowering.glsl.passes.stream_output import so_varying_name

from . import boundary
from .dirty import KeepGeneral
from .enums import Cap, Prim, ShaderType, Target
from .part import Area, Part
from .resource import Resource
from .templates import PIPE_MAX_SO_BUFFERS, StreamOutputInfo

# Vertices per captured primitive by the capture's GL primitive class.
_POINTS, _LINES, _TRIANGLES = 1, 2, 3
# The class of each draw mode when no GS / TES decides it (GL: strips, loops
# and fans are captured as separate primitives of their class).
_DRAW_CLASS = {
    Prim.POINTS: _POINTS,
    Prim.LINES: _LINES,
    Prim.LINE_LOOP: _LINES,
    Prim.LINE_STRIP: _LINES,
    Prim.LINES_ADJACENCY: _LINES,
    Prim.LINE_STRIP_ADJACENCY: _LINES,
    Prim.TRIANGLES: _TRIANGLES,
    Prim.TRIANGLE_STRIP: _TRIANGLES,
    Prim.TRIANGLE_FAN: _TRIANGLES,
    Prim.TRIANGLES_ADJACENCY: _TRIANGLES,
    Prim.TRIANGLE_STRIP_ADJACENCY: _TRIANGLES,
    Prim.QUADS: _TRIANGLES,
    Prim.QUAD_STRIP: _TRIANGLES,
    Prim.POLYGON: _TRIANGLES,
}
_GS_CLASS = {"POINTS": _POINTS, "LINE_STRIP": _LINES, "TRIANGLE_STRIP": _TRIANGLES}
_GL_CLASS = {_POINTS: "GL_POINTS", _LINES: "GL_LINES", _TRIANGLES: "GL_TRIANGLES"}


def primitives_of(mode: Prim, count: int) -> int:
    """Primitives a draw of ``count`` vertices in ``mode`` sends to the
    capture (GL 4.5 core 13.2.2: strips, loops and fans decompose into
    independent primitives; QUADS / QUAD_STRIP / POLYGON are drawn as
    triangles, two per quad)."""
    n = max(count, 0)
    table = {
        Prim.POINTS: n,
        Prim.LINES: n // 2,
        Prim.LINE_STRIP: max(n - 1, 0),
        Prim.LINE_LOOP: n if n >= 2 else 0,
        Prim.LINES_ADJACENCY: n // 4,
        Prim.LINE_STRIP_ADJACENCY: max(n - 3, 0),
        Prim.TRIANGLES: n // 3,
        Prim.TRIANGLE_STRIP: max(n - 2, 0),
        Prim.TRIANGLE_FAN: max(n - 2, 0),
        Prim.TRIANGLES_ADJACENCY: n // 6,
        Prim.TRIANGLE_STRIP_ADJACENCY: (n - 4) // 2 if n >= 6 else 0,
        Prim.QUADS: (n // 4) * 2,
        Prim.QUAD_STRIP: max(n // 2 - 1, 0) * 2,
        Prim.POLYGON: max(n - 2, 0),
    }
    return table.get(mode, 0)


@dataclass(frozen=True)
class SOPlan:
    """What a shader's ``stream_output`` becomes, worked out at create time.

    ``key``: the VariantKey.stream_output entries; ``varyings``: the GL
    transform feedback varyings, in order; ``separate``: GL_SEPARATE_ATTRIBS
    (else interleaved); ``bindings``: the Gallium buffer index bound at each
    GL binding index; ``strides``: bytes per vertex of each Gallium buffer
    (0: unused); ``streams``: the vertex stream of each Gallium buffer."""

    key: tuple
    varyings: tuple
    separate: bool
    bindings: tuple
    strides: tuple
    streams: tuple


def plan_stream_output(screen, stage: ShaderType, ir, so, what: str) -> SOPlan | None:
    """Check ``ShaderState.stream_output`` against the shader and the caps,
    and plan its capture; None when nothing is captured.  Refuses what the
    host cannot capture with UnsupportedError naming the field."""
    if so is None:
        return None
    field = f"{what}: ShaderState.stream_output"
    boundary.instance(so, StreamOutputInfo, field)
    outputs = so.output
    if not outputs:
        return None
    if stage not in (ShaderType.VERTEX, ShaderType.TESS_EVAL, ShaderType.GEOMETRY):
        raise InvalidArgumentError(f"{field}: only a vertex, tessellation evaluation or geometry shader captures")
    max_buffers = screen.get_param(Cap.MAX_STREAM_OUTPUT_BUFFERS)
    max_streams = screen.get_param(Cap.MAX_VERTEX_STREAMS) if stage == ShaderType.GEOMETRY else 1
    declared: set[int] = set()
    for decl in ir.declarations_of("OUT"):
        declared.update(range(decl.first, decl.last + 1))
    strides = [boundary.in_range(s, f"{field}.stride[{b}]", 0, 1 << 16) for b, s in enumerate(so.stride)]
    strides += [0] * (PIPE_MAX_SO_BUFFERS - len(strides))
    per_buffer: dict[int, list] = {}
    streams: list[int | None] = [None] * PIPE_MAX_SO_BUFFERS
    for i, o in enumerate(outputs):
        name = f"{field}.output[{i}]"
        reg = boundary.in_range(o.register_index, f"{name}.register_index", 0, 255)
        if reg not in declared:
            raise InvalidArgumentError(f"{name}.register_index: OUT[{reg}] is not declared by the shader")
        start = boundary.in_range(o.start_component, f"{name}.start_component", 0, 3)
        n = boundary.in_range(o.num_components, f"{name}.num_components", 1, 4 - start)
        buf = boundary.in_range(o.output_buffer, f"{name}.output_buffer", 0, max_buffers - 1)
        dst = boundary.in_range(o.dst_offset, f"{name}.dst_offset", 0, 1 << 16)
        stream = boundary.in_range(o.stream, f"{name}.stream", 0, max_streams - 1)
        if streams[buf] is not None and streams[buf] != stream:
            raise UnsupportedError(
                f"{name}.stream: buffer {buf} already captures stream {streams[buf]} (GL writes one stream per buffer)"
            )
        streams[buf] = stream
        per_buffer.setdefault(buf, []).append((dst, n, i, reg, start, stream))
    limit_interleaved = screen.get_param(Cap.MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS)
    for buf, items in per_buffer.items():
        items.sort()
        end = 0
        for dst, n, i, *_ in items:
            if dst < end:
                raise InvalidArgumentError(
                    f"{field}.output[{i}].dst_offset: {dst} overlaps the previous output of buffer {buf}"
                )
            end = dst + n
        if strides[buf] < end:
            raise InvalidArgumentError(
                f"{field}.stride[{buf}]: {strides[buf]} dwords, but its outputs end at dword {end}"
            )
        if strides[buf] > limit_interleaved:
            raise UnsupportedError(
                f"{field}.stride[{buf}]: {strides[buf]} dwords is above "
                f"PIPE_CAP_MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS ({limit_interleaved})"
            )
    key = tuple((o.register_index, o.start_component, o.num_components, o.stream) for o in outputs)
    used = sorted(per_buffer)
    if screen.profile.has("transform_feedback3"):
        # Interleaved, one GL binding per Gallium buffer (gl_NextBuffer),
        # gaps and the stride's tail as gl_SkipComponentsN (N <= 4).
        varyings: list[str] = []
        for b in range(used[-1] + 1):
            if b:
                varyings.append("gl_NextBuffer")
            at = 0
            for dst, n, i, *_ in per_buffer.get(b, ()):
                varyings += _skips(dst - at)
                varyings.append(so_varying_name(i))
                at = dst + n
            if b in per_buffer:
                varyings += _skips(strides[b] - at)
        return SOPlan(key, tuple(varyings), False, tuple(range(used[-1] + 1)), _bytes(strides, used), tuple(streams))
    # GL 3.x: interleaved into one buffer without gaps, or one output per
    # buffer (separate attribs).  Anything else needs ARB_transform_feedback3.
    if len(used) == 1:
        buf = used[0]
        at = 0
        for dst, n, i, *_ in per_buffer[buf]:
            if dst != at:
                raise UnsupportedError(
                    f"{field}.output[{i}].dst_offset: a gap in the captured layout needs "
                    f"gl_SkipComponents (ARB_transform_feedback3), which the {screen.profile.name} profile lacks"
                )
            at = dst + n
        if strides[buf] != at:
            raise UnsupportedError(
                f"{field}.stride[{buf}]: {strides[buf]} dwords leaves a gap after the outputs ({at} dwords); "
                f"that needs ARB_transform_feedback3, which the {screen.profile.name} profile lacks"
            )
        names = tuple(so_varying_name(i) for _d, _n, i, *_ in per_buffer[buf])
        return SOPlan(key, names, False, (buf,), _bytes(strides, used), tuple(streams))
    separate_names: list[str] = []
    separate_bindings: list[int] = []
    for buf in used:
        items = per_buffer[buf]
        dst, n, i, *_ = items[0]
        if len(items) != 1 or dst != 0 or strides[buf] != n:
            raise UnsupportedError(
                f"{field}.output[{items[-1][2]}].output_buffer: several interleaved buffers need "
                f"gl_NextBuffer (ARB_transform_feedback3), which the {screen.profile.name} profile lacks "
                f"(PIPE_CAP_STREAM_OUTPUT_INTERLEAVE_BUFFERS is 0): capture one output per buffer, "
                f"at dst_offset 0 with stride = num_components"
            )
        separate_names.append(so_varying_name(i))
        separate_bindings.append(buf)
    return SOPlan(key, tuple(separate_names), True, tuple(separate_bindings), _bytes(strides, used), tuple(streams))


def set_feedback_varyings(gl, prog: int, plan: SOPlan) -> None:
    """glTransformFeedbackVaryings of ``plan`` on ``prog`` (before it links)."""
    names = [v.encode() for v in plan.varyings]
    array = (ctypes.c_char_p * len(names))(*names)
    mode = gl.GL_SEPARATE_ATTRIBS if plan.separate else gl.GL_INTERLEAVED_ATTRIBS
    gl.glTransformFeedbackVaryings(
        prog, len(names), ctypes.cast(array, ctypes.POINTER(ctypes.POINTER(ctypes.c_char))), mode
    )


def _skips(n: int) -> list[str]:
    out = []
    while n > 0:
        k = min(n, 4)
        out.append(f"gl_SkipComponents{k}")
        n -= k
    return out


def _bytes(strides, used) -> tuple:
    return tuple(4 * s if b in used else 0 for b, s in enumerate(strides))


class StreamOutputTarget:
    """pipe_stream_output_target: a range of a buffer resource that a
    capture writes, and how far the captures wrote into it (the offset an
    append, ``offsets[i] == -1``, resumes at)."""

    def __init__(self, context, buffer, buffer_offset: int, buffer_size: int) -> None:
        self.context = context
        self.buffer = buffer
        self.buffer_offset = buffer_offset
        self.buffer_size = buffer_size
        self.destroyed = False
        self.filled = 0  # bytes written from buffer_offset (Gallium's internal offset)
        self.stride = 0  # bytes per vertex of the last capture (draw auto divides by it)
        self._pending = None  # a GL query of primitives written, not read yet: (query, bytes per primitive)

    def __repr__(self) -> str:
        return f"<glpipe.StreamOutputTarget offset={self.buffer_offset} size={self.buffer_size}>"


class StreamOutputPart(Part):
    """The stream output area: the bound targets and the capture around a draw."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.targets: tuple = ()  # the bound StreamOutputTargets (None for an empty slot)

    # -- pipe_context methods ---------------------------------------------------

    def create_stream_output_target(self, buffer: Resource, buffer_offset: int, buffer_size: int) -> StreamOutputTarget:
        """pipe_context::create_stream_output_target: ``buffer_size`` bytes of
        the buffer resource ``buffer`` from ``buffer_offset``, which captures
        write into (both multiples of 4: GL binds ranges of dwords)."""
        ctx = self.ctx
        what = "create_stream_output_target"
        ctx.check_alive(what)
        if ctx.screen.get_param(Cap.MAX_STREAM_OUTPUT_BUFFERS) == 0:
            raise UnsupportedError(f"{what}: stream output is not available (PIPE_CAP_MAX_STREAM_OUTPUT_BUFFERS is 0)")
        ctx._check_resource(buffer, f"{what}: buffer")
        if buffer.target != Target.BUFFER:
            raise InvalidArgumentError(f"{what}: buffer is a {Target(buffer.target).name} resource, not a BUFFER")
        offset = boundary.uint32(buffer_offset, f"{what}: buffer_offset")
        size = boundary.uint32(buffer_size, f"{what}: buffer_size")
        if offset % 4 or size % 4:
            raise InvalidArgumentError(f"{what}: buffer_offset {offset} and buffer_size {size} must be multiples of 4")
        if offset + size > buffer.width0:
            raise InvalidArgumentError(
                f"{what}: bytes {offset}..{offset + size} lie outside the buffer ({buffer.width0} bytes)"
            )
        return StreamOutputTarget(ctx, buffer, offset, size)

    def stream_output_target_destroy(self, t: StreamOutputTarget) -> None:
        """pipe_context::stream_output_target_destroy (unbinds it if bound)."""
        what = "stream_output_target_destroy"
        self._check_target(t, what)
        if t in self.targets:
            self._bind(tuple(None if bound is t else bound for bound in self.targets))
        self._release(t)
        t.destroyed = True

    def set_stream_output_targets(
        self, targets: Sequence[StreamOutputTarget | None] | None, offsets: Sequence[int] | None = None
    ) -> None:
        """pipe_context::set_stream_output_targets: bind ``targets`` (None
        slots allowed; empty unbinds all).  ``offsets[i]`` is where capture
        starts in target i, in bytes from its buffer_offset; -1 appends where
        the last capture into it stopped."""
        what = "set_stream_output_targets"
        self.ctx.check_alive(what)
        limit = self.ctx.screen.get_param(Cap.MAX_STREAM_OUTPUT_BUFFERS)
        targets = tuple(boundary.sequence(targets if targets is not None else (), f"{what}: targets", limit))
        offsets = tuple(boundary.sequence(offsets if offsets is not None else (), f"{what}: offsets"))
        if len(offsets) not in (0, len(targets)):
            raise InvalidArgumentError(f"{what}: {len(offsets)} offsets for {len(targets)} targets")
        resolved: list[tuple[StreamOutputTarget, int] | None] = []
        for i, t in enumerate(targets):
            if t is None:
                resolved.append(None)
                continue
            self._check_target(t, f"{what}: targets[{i}]")
            off = boundary.in_range(offsets[i] if offsets else 0, f"{what}: offsets[{i}]", -1, 0xFFFFFFFF)
            if off != -1 and off % 4:
                raise InvalidArgumentError(f"{what}: offsets[{i}] {off} must be a multiple of 4 (or -1: append)")
            resolved.append((t, off))
        for item in resolved:
            if item is not None and item[1] != -1:
                t, off = item
                self._release(t)
                t.filled = off  # (past buffer_size: nothing more is written)
        self._bind(tuple(item[0] if item is not None else None for item in resolved))

    # -- the capture -----------------------------------------------------------

    def _bind(self, targets: tuple) -> None:
        while targets and targets[-1] is None:
            targets = targets[:-1]
        self.targets = targets
        # A draw with targets bound takes the general path, which captures.
        self.ctx._keep_general(KeepGeneral.STREAM_OUTPUT, bool(targets))

    def _check_target(self, target, what: str) -> None:
        if not isinstance(target, StreamOutputTarget):
            raise InvalidArgumentError(f"{what}: expected a StreamOutputTarget, got {type(target).__name__}")
        if target.context is not self.ctx:
            raise InvalidArgumentError(f"{what}: the target belongs to another context")
        if target.destroyed:
            raise ObjectDestroyedError(f"{what}: the target was destroyed")
        target.buffer.check_alive(what)

    def _filled(self, target: StreamOutputTarget) -> int:
        """The target's written bytes, reading back a pending query (a wait
        for the GPU: only after a GS / TES / restart capture, docs/stream_output.md)."""
        pending = target._pending
        if pending is not None:
            holder, per_prim = pending
            if holder[1] is None:  # the first of the targets sharing the query reads it
                gl = self.ctx.gl
                holder[1] = int(gl.glGetQueryObjectuiv(holder[0], gl.GL_QUERY_RESULT))
                gl.glDeleteQueries(1, [holder[0]])
            target.filled += holder[1] * per_prim
            target._pending = None
        return target.filled

    def _release(self, target: StreamOutputTarget) -> None:
        """Forget the target's unread query (a new offset replaces what it counted)."""
        if target._pending is not None:
            self._filled(target)  # (reads and deletes the GL query once for all its targets)

    def capture_plan(self) -> tuple[SOPlan | None, Any]:
        """The bound program's stream output plan and its last vertex stage's
        shader, or (None, None) when the program captures nothing."""
        shaders = self.ctx.shader_part.shaders
        last = shaders[ShaderType.GEOMETRY] or shaders[ShaderType.TESS_EVAL] or shaders[ShaderType.VERTEX]
        plan = getattr(last, "so_plan", None)
        return plan, last

    def refuse_emulation(self) -> None:
        """The bound rasterizer state is emulated by extra passes (line
        stipple, per-face fill modes, polygon edges, antialiased lines on a
        host with smooth_line_crash, glpipe/raster/): refused
        while the program captures, since the passes would be captured too."""
        if self.capture_plan()[0] is not None:
            raise UnsupportedError(
                "draw_vbo: stream output with a rasterizer state glpipe emulates by extra passes "
                "(line stipple, per-face fill modes, polygon edges, antialiased lines) is not supported"
            )

    def draw(self, info, draws, indirect, run) -> None:
        """Capture the draw ``run()`` makes into the bound targets (GL
        transform feedback around it); the targets' written bytes advance by
        the primitives that fit (whole primitives only, never past a
        target's range)."""
        plan, last = self.capture_plan()
        if plan is None:
            run()
            return
        ctx = self.ctx
        gl = ctx.gl
        prog = ctx.shader_part.program
        variants = prog.variants
        tail = variants[3] or variants[2] or variants[0]
        if tail.cso is not last:
            raise UnsupportedError(
                "draw_vbo: stream output with a rasterizer emulation that adds a generated geometry "
                "shader (line stipple, a VS writing LAYER on GL 3.3) is not supported"
            )
        if last.stage == ShaderType.GEOMETRY:
            cls = _GS_CLASS[_prim(last.ir.property("GS_OUTPUT_PRIMITIVE", "TRIANGLE_STRIP"))]
        elif last.stage == ShaderType.TESS_EVAL:
            mode = last.ir.property("TES_PRIM_MODE", 4)
            cls = _POINTS if last.ir.property("TES_POINT_MODE", 0) else _LINES if mode in (1, "LINES") else _TRIANGLES
        else:
            cls = _DRAW_CLASS.get(info.mode, _TRIANGLES)
        targets = self.targets
        bound = []  # (GL binding, target, bytes per vertex)
        for binding, buf in enumerate(plan.bindings):
            stride = plan.strides[buf]
            if stride == 0:
                continue  # a buffer index below the last used one that nothing writes
            t = targets[buf] if buf < len(targets) else None
            if t is None:
                raise InvalidArgumentError(
                    f"draw_vbo: the shader's stream output writes buffer {buf}, but no target is bound there"
                )
            t.buffer.check_alive("draw_vbo: stream output target")
            bound.append((binding, t, stride))
        # Whole primitives that fit in every buffer (GL 4.5 13.2.2: a
        # primitive that would overflow any buffer is not written).
        room = min((max(t.buffer_size - self._filled(t), 0) // (stride * cls) for _b, t, stride in bound), default=0)
        if room == 0:
            run()  # nothing fits: the draw rasterizes, nothing is written
            return
        for binding, t, stride in bound:
            gl.glBindBufferRange(
                gl.GL_TRANSFORM_FEEDBACK_BUFFER,
                binding,
                t.buffer.gl_object,
                t.buffer_offset + t.filled,
                t.buffer_size - t.filled,
            )
            t.stride = stride
        known = None if indirect is not None else self._known_primitives(info, draws, last)
        queries: dict[int, list] = {}  # vertex stream -> [GL query, primitives written once read]
        if known is None:
            for binding, _t, _s in bound:
                stream = plan.streams[plan.bindings[binding]] or 0
                if stream not in queries:
                    queries[stream] = [_gen_query(gl), None]
                    if stream:  # (glBeginQueryIndexed is GL 4.0: stream 0 keeps to GL 3.0's call)
                        gl.glBeginQueryIndexed(gl.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream, queries[stream][0])
                    else:
                        gl.glBeginQuery(gl.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, queries[stream][0])
        gl.glBeginTransformFeedback(getattr(gl, _GL_CLASS[cls]))
        try:
            run()
        finally:
            gl.glEndTransformFeedback()
            for stream in queries:
                if stream:
                    gl.glEndQueryIndexed(gl.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream)
                else:
                    gl.glEndQuery(gl.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
            for binding, _t, _s in bound:
                gl.glBindBufferBase(gl.GL_TRANSFORM_FEEDBACK_BUFFER, binding, 0)
        for binding, t, stride in bound:
            if known is not None:
                t.filled += min(known, room) * stride * cls
            else:
                # Read when an append or a draw auto needs it (a wait).
                t._pending = (queries[plan.streams[plan.bindings[binding]] or 0], stride * cls)

    def _known_primitives(self, info, draws, last):
        """Primitives the draw captures, worked out on the CPU where that is
        exact (no GS or TES decides them, no primitive restart); else None."""
        if last.stage != ShaderType.VERTEX or (info.index_size and info.primitive_restart):
            return None
        counts = [info.count] if draws is None else [d.count for d in draws]
        return sum(primitives_of(info.mode, c) for c in counts) * max(info.instance_count, 0)

    def draw_auto_count(self, target) -> int:
        """Vertices a draw auto of ``target`` draws: its written bytes over
        the stride of the capture that wrote them (pipe_draw_indirect_info
        count_from_stream_output)."""
        self._check_target(target, "draw_vbo: indirect.count_from_stream_output")
        filled = min(self._filled(target), target.buffer_size)
        return filled // target.stride if target.stride else 0

    def destroy(self) -> None:
        """Context.destroy: unbind the targets (their unread queries are read and deleted)."""
        for t in self.targets:
            if t is not None:
                self._release(t)
        self.targets = ()


def _gen_query(gl) -> int:
    """A new GL query object (PyOpenGL returns an array, or a scalar)."""
    names = (ctypes.c_uint * 1)()
    gl.glGenQueries(1, names)
    return int(names[0])


def _prim(value) -> str:
    from lowering.glsl.stages import _prim_name

    return _prim_name(value)


AREA = Area(
    "stream_output_part",
    part=StreamOutputPart,
    methods=("create_stream_output_target", "stream_output_target_destroy", "set_stream_output_targets"),
    destroy=StreamOutputPart.destroy,
)

__all__ = ["AREA", "SOPlan", "StreamOutputPart", "StreamOutputTarget", "plan_stream_output", "primitives_of"]
