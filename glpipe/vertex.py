"""Vertex elements CSOs and vertex buffers: how attributes are fetched.

``create_vertex_elements_state(elements)`` resolves every element's format
to a GL vertex-attribute fetch once (``glpipe.format_table.VertexFetch``:
component count or GL_BGRA, GL type, normalized, and the float / integer /
double path); a format the host cannot fetch is rejected there with the
format's name, never mis-read at draw time.

Vertex element ``i`` feeds vertex shader input ``IN[i]``, which the
lowering places at ``layout(location = i)`` (docs/bindings.md).  The VAO's
attribute pointers are (re)specified only when the elements, the buffers or
the start instance change (``Dirty.VERTEX``).

Instancing (API.md): the element fetched for per-instance data is
``start_instance + instanceID // instance_divisor``.  GL's base instance
(4.2) does exactly that; without it (gl33) the per-instance attributes'
offsets are advanced by ``start_instance * stride`` instead, which fetches
the same element because GL computes ``instanceID // divisor`` from 0.
"""

from __future__ import annotations

import ctypes

import numpy as np

from lowering.errors import InvalidArgumentError, UnsupportedError

from .defs import PIPE_MAX_ATTRIBS
from .dirty import Dirty
from .formats import Format, util_format_description
from .state import VertexBuffer, VertexElement


class VertexElementsCSO:
    """Immutable, host-ready vertex layout: one row per attribute location."""

    __slots__ = ("elements", "attribs", "max_vb", "destroyed", "context")

    def __init__(self, context, elements: tuple, attribs: tuple):
        self.context = context
        self.elements = elements
        # (location, vb_index, size, gl_type, normalized, path, src_offset, divisor)
        self.attribs = attribs
        self.max_vb = max((a[1] for a in attribs), default=-1)
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<VertexElementsCSO {len(self.attribs)} attribs>"


def _fetch_path(path: str) -> int:
    return {"float": 0, "integer": 1, "double": 2}[path]


class VertexMixin:
    """Context methods for vertex elements and vertex buffers (mixed into Context)."""

    def _init_vertex(self) -> None:
        gl = self.gl
        self.velems = None
        self.vertex_buffers: tuple = ()
        self._vao = int(gl.glGenVertexArrays(1))
        self._enabled_attribs = 0        # bitmask of enabled attribute locations
        self._vertex_user = False        # some bound vertex buffer is user memory
        self._vertex_start_instance = 0  # start_instance baked into offsets (gl33 path)
        self._upload_buffers: "list[int]" = []

    def create_vertex_elements_state(self, elements) -> VertexElementsCSO:
        """pipe_context::create_vertex_elements_state(elements): resolve every
        element's format to a host vertex fetch now."""
        self.check_alive("create_vertex_elements_state")
        elements = tuple(elements)
        if len(elements) > PIPE_MAX_ATTRIBS:
            raise InvalidArgumentError(f"create_vertex_elements_state: {len(elements)} elements "
                                       f"(at most PIPE_MAX_ATTRIBS = {PIPE_MAX_ATTRIBS})")
        max_attribs = self.screen.profile.limit("GL_MAX_VERTEX_ATTRIBS")
        attribs = []
        location = 0
        for i, ve in enumerate(elements):
            if not isinstance(ve, VertexElement):
                raise InvalidArgumentError(
                    f"create_vertex_elements_state: elements[{i}] is a {type(ve).__name__}, not a VertexElement")
            fmt = Format(ve.src_format)
            fetch = util_format_description(fmt).vertex
            if fetch is None:
                raise UnsupportedError(f"create_vertex_elements_state: elements[{i}].src_format {fmt.name} "
                                       f"cannot be fetched as a vertex attribute")
            missing = [f for f in fetch.features if not self.screen.profile.has(f)]
            if missing:
                raise UnsupportedError(
                    f"create_vertex_elements_state: elements[{i}].src_format {fmt.name} needs the host "
                    f"feature(s) {', '.join(missing)} (not on the {self.screen.profile.name} profile)")
            if ve.instance_divisor and not self.screen.profile.has("instanced_arrays"):
                raise UnsupportedError("create_vertex_elements_state: instance divisors need instanced_arrays")
            if location >= max_attribs:
                raise InvalidArgumentError(
                    f"create_vertex_elements_state: elements[{i}] needs attribute location {location}, "
                    f"the host has {max_attribs}")
            attribs.append((i, ve.vertex_buffer_index, fetch.size, fetch.gl_type, bool(fetch.normalized),
                            _fetch_path(fetch.path), ve.src_offset, ve.instance_divisor))
            location += 1
        return VertexElementsCSO(self, elements, tuple(attribs))

    def bind_vertex_elements_state(self, cso) -> None:
        """pipe_context::bind_vertex_elements_state (None unbinds)."""
        if cso is not None:
            self._check_cso(cso, VertexElementsCSO, "bind_vertex_elements_state")
        if cso is self.velems:
            return
        self.velems = cso
        self.dirty |= Dirty.VERTEX

    def delete_vertex_elements_state(self, cso) -> None:
        """pipe_context::delete_vertex_elements_state (unbinds it if bound)."""
        self._check_cso(cso, VertexElementsCSO, "delete_vertex_elements_state")
        if self.velems is cso:
            self.velems = None
            self.dirty |= Dirty.VERTEX
        cso.destroyed = True

    destroy_vertex_elements_state = delete_vertex_elements_state

    def set_vertex_buffers(self, buffers) -> None:
        """pipe_context::set_vertex_buffers(buffers): Resources or user memory,
        with buffer_offset and stride (stride 0 repeats one element)."""
        self.check_alive("set_vertex_buffers")
        buffers = tuple(buffers) if buffers is not None else ()
        if buffers == self.vertex_buffers:
            return
        user = False
        for i, vb in enumerate(buffers):
            if not isinstance(vb, VertexBuffer):
                raise InvalidArgumentError(f"set_vertex_buffers: buffers[{i}] is a {type(vb).__name__}, "
                                           f"not a VertexBuffer")
            if vb.buffer is None:
                continue
            if vb.is_user_buffer:
                user = True
            else:
                self._check_resource(vb.buffer, f"set_vertex_buffers: buffers[{i}].buffer")
        self.vertex_buffers = buffers
        self._vertex_user = user
        self.dirty |= Dirty.VERTEX

    # -- host side -------------------------------------------------------------

    def _emit_vertex(self, start_instance: int) -> None:
        """Point every attribute location at its buffer (glVertexAttrib*Pointer)."""
        gl = self.gl
        gl.glBindVertexArray(self._vao)
        cso = self.velems
        attribs = cso.attribs if cso is not None else ()
        buffers = self.vertex_buffers
        base_instance_native = self._has_base_instance
        enabled = 0
        uploaded = {}
        for loc, vbi, size, gltype, normalized, path, src_offset, divisor in attribs:
            vb = buffers[vbi] if vbi < len(buffers) else None
            if vb is None or vb.buffer is None:
                # No buffer: GL's current attribute value (0,0,0,1) is what a
                # shader reads, as Gallium drivers give for unbound buffers.
                continue
            if vb.is_user_buffer:
                name = uploaded.get(vbi)
                if name is None:
                    name = self._upload_user(vb.buffer)
                    uploaded[vbi] = name
                offset = src_offset + vb.buffer_offset
            else:
                name = vb.buffer.gl_object
                offset = src_offset + vb.buffer_offset
            if divisor and not base_instance_native and start_instance:
                offset += start_instance * vb.stride
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, name)
            ptr = ctypes.c_void_p(offset)
            if path == 0:
                gl.glVertexAttribPointer(loc, size, gltype, normalized, vb.stride, ptr)
            elif path == 1:
                gl.glVertexAttribIPointer(loc, size, gltype, vb.stride, ptr)
            else:
                gl.glVertexAttribLPointer(loc, size, gltype, vb.stride, ptr)
            gl.glVertexAttribDivisor(loc, divisor)
            enabled |= 1 << loc
        changed = enabled ^ self._enabled_attribs
        loc = 0
        while changed:
            if changed & 1:
                if enabled & (1 << loc):
                    gl.glEnableVertexAttribArray(loc)
                else:
                    gl.glDisableVertexAttribArray(loc)
            changed >>= 1
            loc += 1
        self._enabled_attribs = enabled
        self._vertex_start_instance = start_instance
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)

    def _upload_user(self, data) -> int:
        """Copy user memory into a fresh GL buffer for this draw (Gallium user
        buffers are only valid during the call that uses them)."""
        gl = self.gl
        arr = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)
        name = self._stream_buffer(arr.nbytes)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, name)
        gl.glBufferSubData(gl.GL_ARRAY_BUFFER, 0, arr.nbytes, arr)
        self.screen.counters.bytes_uploaded += arr.nbytes
        return name

    def _stream_buffer(self, size: int) -> int:
        """A GL buffer of at least ``size`` bytes, orphaned for reuse."""
        gl = self.gl
        name = int(gl.glGenBuffers(1))
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, name)
        gl.glBufferData(gl.GL_ARRAY_BUFFER, max(size, 16), None, gl.GL_STREAM_DRAW)
        self._upload_buffers.append(name)
        return name

    def _release_uploads(self) -> None:
        if self._upload_buffers:
            self.gl.glDeleteBuffers(len(self._upload_buffers), self._upload_buffers)
            self._upload_buffers = []

    def _destroy_vertex(self) -> None:
        self._release_uploads()
        self.gl.glDeleteVertexArrays(1, [self._vao])


__all__ = ["VertexElementsCSO", "VertexMixin"]
