"""Vertex input: vertex elements CSOs, vertex buffers, VAOs, user memory.

``VertexPart`` (``ctx.vertex_part``) resolves every element's format to a
host fetch at create time (a format the host cannot fetch is refused there),
keeps one VAO per (elements CSO, buffer set), copies user memory into a
streaming ring and gives the draw its vertex input (``_emit_vertex``).
docs/bindings.md "Vertex input" explains locations, raw doubles, VAOs,
instancing without base instance, stride 0 and the ring.
"""

from __future__ import annotations

import ctypes
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError, UnsupportedError

from .boundary import items
from .dirty import Dirty, KeepGeneral
from .enums import PIPE_MAX_ATTRIBS
from .formats import Format, util_format_description
from .host.hotgl import raw_prototype
from .lifetime import on_drop
from .part import Area, Part
from .shaders import variant_input
from .templates import VertexBuffer, VertexElement

# Divisor that makes GL fetch element 0 for every vertex and instance
# (Gallium stride 0, see the docs/bindings.md "Vertex input").
STRIDE0_DIVISOR = 0xFFFFFFFF

# Fetch paths of an attribute row.
PATH_FLOAT = 0  # glVertexAttribPointer (converted to float)
PATH_INTEGER = 1  # glVertexAttribIPointer (ivec / uvec inputs)

# Raw-double vertex formats: number of 64-bit channels by format name.
_RAW_DOUBLE_CHANNELS = {
    f"R64{suffix}_{kind}": n
    for kind in ("UINT", "SINT")
    for n, suffix in ((1, ""), (2, "G64"), (3, "G64B64"), (4, "G64B64A64"))
}


class AttribRow(NamedTuple):
    """One attribute location of a VertexElementsCSO, ready for
    glVertexAttrib(I)Pointer: ``size`` components (or GL_BGRA) of
    ``gl_type`` from buffer ``vb_index`` at ``src_offset``, fetched through
    ``path`` (PATH_FLOAT / PATH_INTEGER), per instance when ``divisor``."""

    location: int
    vb_index: int
    size: int
    gl_type: int
    normalized: bool
    path: int
    src_offset: int
    divisor: int


class FetchRow(NamedTuple):
    """What one vertex element (or one half of a dual-slot raw double) is
    fetched as: an AttribRow without its location, buffer and divisor;
    ``offset`` is added to the element's src_offset."""

    size: int
    gl_type: int
    normalized: bool
    path: int
    offset: int


class VaoRecord:
    """A VAO made for one vertex-elements CSO and one set of vertex buffers.

    ``checks``: (Resource, GL buffer name) pairs the attribute pointers were
    set with; ``checked``: the screen's ``epochs.resources_destroyed`` when
    they were last found unchanged (while it still holds, no buffer can have
    lost its GL object, so binding the VAO needs no check)."""

    __slots__ = ("vao", "checks", "checked")

    def __init__(self, vao: int, checks: tuple, checked: int) -> None:
        self.vao = vao
        self.checks = checks
        self.checked = checked


class VertexElementsCSO:
    """Immutable, host-ready vertex layout: one row per attribute location.

    ``attribs``: one ``AttribRow`` per location; ``vs_input_types`` gives per location the
    kind of value the vertex shader must declare (``float`` / ``int`` /
    ``uint``, or ``snorm`` / ``uscaled`` when the shader converts the
    fetched value: lowering/glsl/variant.py VS_INPUT_TYPES), for the
    variant key.
    """

    __slots__ = (
        "__weakref__",
        "attribs",
        "context",
        "destroyed",
        "elements",
        "max_vb",
        "vaos",
        "vs_input",
        "vs_input_types",
    )

    def __init__(self, context, elements: tuple, attribs: tuple, vs_input_types: tuple):
        self.context = context
        self.elements = elements
        self.attribs = attribs
        self.vs_input_types = vs_input_types
        self.vs_input = variant_input(vs_input_types)  # the variant-key input (variant_keys.py)
        self.max_vb = max((a.vb_index for a in attribs), default=-1)
        self.destroyed = False
        # Vertex-buffer set id (VertexPart._vb_id) -> VaoRecord: the VAOs
        # made for this layout.
        self.vaos: dict[int, VaoRecord] = {}

    @property
    def templ(self) -> tuple:
        """The elements the CSO was made from (the template of this CSO)."""
        return self.elements

    def __repr__(self) -> str:
        return f"<VertexElementsCSO {len(self.attribs)} attribs>"


def _input_kind(desc) -> str:
    if desc.is_pure_uint:
        return "uint"
    if desc.is_pure_sint:
        return "int"
    return "float"


class StreamRing:
    """One GL buffer that user memory is appended to, draw after draw.

    ``upload(data, align)`` copies the bytes at the next ``align``-aligned
    offset and returns ``(gl_buffer, offset)``.  When the ring is full it
    gets fresh storage: with buffer_storage (native) a new persistently
    mapped buffer (the old one is deleted at the next renewal, by when no
    draw refers to it: user-memory draws re-specify their pointers every
    draw); otherwise the same buffer is orphaned with glBufferData(NULL)
    and written through unsynchronized maps.  Either way the host never
    waits for earlier draws that still read the old bytes.
    """

    MIN_SIZE = 1 << 20

    def __init__(self, gl, persistent: bool, counters):
        self.gl = gl
        self.persistent = persistent
        self.counters = counters
        self.name = 0
        self.size = 0
        self.pos = 0
        self.ptr = 0
        self.generation = 0  # bumped on every renewal (bindings must be redone)
        self._retired: list[int] = []
        self._target = gl.GL_COPY_WRITE_BUFFER
        self._map_bits = int(gl.GL_MAP_WRITE_BIT | gl.GL_MAP_UNSYNCHRONIZED_BIT | gl.GL_MAP_INVALIDATE_RANGE_BIT)

    def _renew(self, need: int) -> None:
        gl = self.gl
        size = max(self.size, self.MIN_SIZE)
        while size < 2 * need:
            size *= 2
        target = self._target
        if self.persistent:
            if self._retired:
                gl.glDeleteBuffers(len(self._retired), self._retired)
                self._retired = []
            if self.name:
                self._retired.append(self.name)
            name = int(gl.glGenBuffers(1))
            flags = gl.GL_MAP_WRITE_BIT | gl.GL_MAP_PERSISTENT_BIT | gl.GL_MAP_COHERENT_BIT
            gl.glBindBuffer(target, name)
            gl.glBufferStorage(target, size, None, flags)
            self.ptr = int(ctypes.cast(gl.glMapBufferRange(target, 0, size, flags), ctypes.c_void_p).value or 0)
            gl.glBindBuffer(target, 0)
            self.name = name
        else:
            if not self.name:
                self.name = int(gl.glGenBuffers(1))
            gl.glBindBuffer(target, self.name)
            gl.glBufferData(target, size, None, gl.GL_STREAM_DRAW)  # orphan: queued draws keep the old storage
            gl.glBindBuffer(target, 0)
        self.size = size
        self.pos = 0
        self.generation += 1

    def upload(self, data, align: int = 16) -> tuple[int, int]:
        """Copy ``data`` (buffer-protocol object) into the ring; return (GL buffer, byte offset)."""
        if isinstance(data, np.ndarray) and data.flags.c_contiguous:
            arr = data
        else:
            try:
                arr = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)
            except (TypeError, ValueError) as exc:
                raise InvalidArgumentError(
                    f"user memory must be a C-contiguous buffer-protocol object: {exc}"
                ) from None
        n = arr.nbytes
        off = (self.pos + align - 1) & -align
        if off + n > self.size or not self.name:
            self._renew(n)
            off = 0
        if n:
            if self.persistent:
                ctypes.memmove(self.ptr + off, arr.ctypes.data, n)
            else:
                gl = self.gl
                target = self._target
                gl.glBindBuffer(target, self.name)
                dst = gl.glMapBufferRange(target, off, n, self._map_bits)
                ctypes.memmove(ctypes.cast(dst, ctypes.c_void_p).value, arr.ctypes.data, n)
                gl.glUnmapBuffer(target)
                gl.glBindBuffer(target, 0)
        self.pos = off + n
        self.counters.bytes_uploaded += n
        return self.name, off

    def destroy(self) -> None:
        """Delete the ring's GL buffers."""
        names = self._retired + ([self.name] if self.name else [])
        if names:
            self.gl.glDeleteBuffers(len(names), names)
        self._retired = []
        self.name = 0
        self.size = self.pos = self.ptr = 0


_SEQUENCE_TYPES = (list, tuple)


class VertexPart(Part):
    """The vertex input area: vertex elements CSOs, vertex buffers, VAOs and
    the streaming ring of user memory.

    Interface read by the draw (glpipe/draw.py) and other areas:
    ``velems``, ``vertex_buffers``; ``vertex_user`` (a bound buffer is user
    memory: re-uploaded every draw); ``vertex_start_instance`` (the start
    instance baked into the attribute offsets) and ``use_base_instance``
    (GL's base instance fetches per-instance data; else offsets are baked);
    ``ring`` (the streaming ring, also for user indices); ``_emit_vertex``
    (the vertex input, run by the draw after the derived rows)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        gl = ctx.gl
        prof = ctx.screen.profile
        raw = not ctx._nofast  # GLPIPE_DEBUG=nofast: PyOpenGL's entry points (glpipe/context.py)
        self.velems = None
        self.vertex_buffers: tuple = ()
        self._epochs = ctx.screen.epochs  # resources_destroyed: when a VAO was last checked
        self._vao = int(gl.glGenVertexArrays(1))  # the scratch VAO (user memory, start_instance offsets)
        self._enabled_attribs = 0  # bitmask of enabled attribute locations of the scratch VAO
        self._vb_ids: dict[tuple, int] = {}  # vertex_buffers tuple -> id (keys of VertexElementsCSO.vaos)
        self._vb_id = 0  # ... of the bound buffers
        self._vb_last_id = 0  # ids are never reused (a VAO cache key must not change meaning)
        self._vao_owners: weakref.WeakSet = weakref.WeakSet()  # velems CSOs holding cached VAOs
        self.vertex_user = False  # some bound vertex buffer is user memory
        self.vertex_start_instance = 0  # start_instance baked into offsets (offset emulation)
        # Base instance is used when the host has it and no stride-0 buffer
        # needs the divisor trick (docs/bindings.md); the draw reads this flag.
        self.use_base_instance = ctx._has_base_instance
        # glBindVertexBuffer: a real stride 0 (None: the divisor trick).
        self._gl_bind_vertex_buffer = (
            gl_function(gl, "glBindVertexBuffer", raw) if prof.has("vertex_attrib_binding") else None
        )
        self.ring = StreamRing(gl, prof.has("buffer_storage"), ctx._counters)
        self._gl_array_buffer = int(gl.GL_ARRAY_BUFFER)
        self._gl_attrib_pointer = gl_function(gl, "glVertexAttribPointer", raw)
        self._gl_attrib_ipointer = gl_function(gl, "glVertexAttribIPointer", raw)
        self._gl_attrib_divisor = gl_function(gl, "glVertexAttribDivisor", raw)
        self._max_vertex_buffers = min(int(prof.limit("GL_MAX_VERTEX_ATTRIBS")), PIPE_MAX_ATTRIBS)
        self._max_vertex_stride = int(prof.limit("GL_MAX_VERTEX_ATTRIB_STRIDE")) or 2048

    def create_vertex_elements_state(self, elements: Sequence[VertexElement]) -> VertexElementsCSO:
        """pipe_context::create_vertex_elements_state(elements): resolve every
        element's format to a host vertex fetch now."""
        self.ctx.check_alive("create_vertex_elements_state")
        what = "create_vertex_elements_state"
        elements = items(elements, f"{what}: elements")
        if len(elements) > PIPE_MAX_ATTRIBS:
            raise InvalidArgumentError(
                f"{what}: {len(elements)} elements (at most PIPE_MAX_ATTRIBS = {PIPE_MAX_ATTRIBS})"
            )
        prof = self.ctx.screen.profile
        max_attribs = int(prof.limit("GL_MAX_VERTEX_ATTRIBS"))
        attribs = []
        kinds = []
        location = 0
        for i, ve in enumerate(elements):
            if not isinstance(ve, VertexElement):
                raise InvalidArgumentError(f"{what}: elements[{i}] is a {type(ve).__name__}, not a VertexElement")
            try:
                fmt = Format(ve.src_format)
            except ValueError:
                raise InvalidArgumentError(
                    f"{what}: elements[{i}].src_format {ve.src_format!r} is not a pipe_format"
                ) from None
            desc = util_format_description(fmt)
            fetch = desc.vertex
            if fetch is None:
                raise UnsupportedError(
                    f"{what}: elements[{i}].src_format {fmt.name} cannot be fetched as a vertex attribute"
                )
            missing = [f for f in fetch.features if not prof.has(f)]
            if missing:
                raise UnsupportedError(
                    f"{what}: elements[{i}].src_format {fmt.name} needs the host "
                    f"feature(s) {', '.join(missing)} (not on the {prof.name} profile)"
                )
            if not 0 <= ve.vertex_buffer_index < self._max_vertex_buffers:
                raise InvalidArgumentError(
                    f"{what}: elements[{i}].vertex_buffer_index {ve.vertex_buffer_index} outside "
                    f"0..{self._max_vertex_buffers - 1} (PIPE_CAP_MAX_VERTEX_BUFFERS)"
                )
            if ve.src_offset < 0:
                raise InvalidArgumentError(f"{what}: elements[{i}].src_offset {ve.src_offset} is negative")
            if ve.instance_divisor < 0:
                raise InvalidArgumentError(f"{what}: elements[{i}].instance_divisor {ve.instance_divisor} is negative")
            if ve.instance_divisor and not prof.has("instanced_arrays"):
                raise UnsupportedError(f"{what}: instance divisors need the host feature instanced_arrays")
            kind = _input_kind(desc)
            rows = _fetch_rows(fmt, fetch, ve)
            # Conversions the shader variant does because a host's fetch gets
            # them wrong (VariantKey.vs_input_types; llvmpipe reads the SNORM
            # minimum as -128/127 and 32-bit USCALED >= 2^31 as signed).  On
            # every host: the clamp is GL 4.2+'s rule, the integer path is exact.
            first = desc.channels[0]
            if fetch.path == "float" and first.type.name == "SNORM":
                kind = "snorm"  # the VS reads max(in, -1)
            elif fetch.path == "float" and first.type.name == "USCALED" and first.size == 32:
                kind = "uscaled"  # glVertexAttribIPointer(GL_UNSIGNED_INT); the VS reads vec4(in)
                rows = [row._replace(normalized=False, path=PATH_INTEGER) for row in rows]
            for size, gltype, normalized, path, offset in rows:
                if location >= max_attribs:
                    raise InvalidArgumentError(
                        f"{what}: elements[{i}] needs attribute location {location}, "
                        f"the host has {max_attribs} (GL_MAX_VERTEX_ATTRIBS)"
                    )
                attribs.append(
                    AttribRow(
                        location,
                        ve.vertex_buffer_index,
                        size,
                        gltype,
                        normalized,
                        path,
                        ve.src_offset + offset,
                        ve.instance_divisor,
                    )
                )
                kinds.append(kind)
                location += 1
        cso = self.ctx._own(VertexElementsCSO(self.ctx, elements, tuple(attribs), tuple(kinds)))
        # Dropped without delete_vertex_elements_state: its cached VAOs go at
        # the next drain on the GL thread (glpipe/lifetime.py).  The dict is
        # passed, not the CSO (emptied whenever the VAOs are deleted here).
        on_drop(cso, self.ctx.host, self._vaos_dropped, cso.vaos)
        return cso

    def bind_vertex_elements_state(self, cso: VertexElementsCSO | None) -> None:
        """pipe_context::bind_vertex_elements_state (None unbinds)."""
        ctx = self.ctx
        if cso is not None and (type(cso) is not VertexElementsCSO or cso.context is not ctx or cso.destroyed):
            ctx._check_cso(cso, VertexElementsCSO, "bind_vertex_elements_state")  # raises, naming what is wrong
        old = self.velems
        if cso is old:
            return
        self.velems = cso
        # The VS declares its inputs' types from the formats (VariantKey.vs_input_types).
        if old is None or cso is None or old.vs_input is not cso.vs_input:
            ctx.dirty |= _VERTEX | _PROGRAM
        else:
            ctx.dirty |= _VERTEX

    def delete_vertex_elements_state(self, cso: VertexElementsCSO) -> None:
        """pipe_context::delete_vertex_elements_state (unbinds it if bound)."""
        self.ctx._check_cso(cso, VertexElementsCSO, "delete_vertex_elements_state")
        if self.velems is cso:
            self.velems = None
            self.ctx.dirty |= Dirty.VERTEX | Dirty.PROGRAM
        self._delete_vaos_of(cso)
        cso.destroyed = True

    destroy_vertex_elements_state = delete_vertex_elements_state

    def set_vertex_buffers(self, buffers: Sequence[VertexBuffer] | None) -> None:
        """pipe_context::set_vertex_buffers(buffers): Resources or user memory,
        with buffer_offset and stride (stride 0 repeats one element).  Slots
        past the sequence are unbound."""
        self.ctx.check_alive("set_vertex_buffers")
        # A list or tuple inline (this runs on every redundant call); anything else checked by items().
        if type(buffers) in _SEQUENCE_TYPES:
            buffers = tuple(buffers)
        else:
            buffers = items(buffers, "set_vertex_buffers: buffers") if buffers is not None else ()
        if buffers == self.vertex_buffers:
            return
        if len(buffers) > self._max_vertex_buffers:
            raise InvalidArgumentError(
                f"set_vertex_buffers: {len(buffers)} buffers (at most "
                f"{self._max_vertex_buffers}, PIPE_CAP_MAX_VERTEX_BUFFERS)"
            )
        user = stride0 = False
        for i, vb in enumerate(buffers):
            if vb is None:
                continue
            if not isinstance(vb, VertexBuffer):
                raise InvalidArgumentError(
                    f"set_vertex_buffers: buffers[{i}] is a {type(vb).__name__}, not a VertexBuffer"
                )
            if vb.buffer is None:
                continue
            if not 0 <= vb.stride <= self._max_vertex_stride:
                raise InvalidArgumentError(
                    f"set_vertex_buffers: buffers[{i}].stride {vb.stride} outside "
                    f"0..{self._max_vertex_stride} (PIPE_CAP_MAX_VERTEX_ATTRIB_STRIDE)"
                )
            if vb.buffer_offset < 0:
                raise InvalidArgumentError(
                    f"set_vertex_buffers: buffers[{i}].buffer_offset {vb.buffer_offset} is negative"
                )
            if vb.is_user_buffer:
                user = True
            else:
                self.ctx._check_resource(vb.buffer, f"set_vertex_buffers: buffers[{i}].buffer")
            if vb.stride == 0:
                stride0 = True
        ctx = self.ctx
        self.vertex_buffers = buffers
        self.vertex_user = user
        self.use_base_instance = ctx._has_base_instance and not (stride0 and self._gl_bind_vertex_buffer is None)
        ctx._keep_general(KeepGeneral.VERTEX, user or (self.vertex_start_instance and not self.use_base_instance))
        # An id per distinct set of resource buffers (templates compare by
        # value, resources by identity), so the VAO cache is keyed by an int.
        # User memory is never cached (its ring offsets change every draw).
        vb_id = 0 if user else self._vb_ids.get(buffers)
        if vb_id is None:
            if len(self._vb_ids) >= _MAX_BUFFER_SETS:
                self._drop_cached_vaos()
            self._vb_last_id += 1
            vb_id = self._vb_ids[buffers] = self._vb_last_id
        self._vb_id = vb_id
        ctx.dirty |= Dirty.VERTEX

    # -- host side -------------------------------------------------------------

    def _emit_vertex(self, start_instance: int = 0) -> None:
        """The vertex input (glpipe/draw.py runs it after the derived rows, and
        alone as the fast path's runner for Dirty.VERTEX): bind the VAO of the
        bound elements and buffers (made on first use), or re-specify the
        scratch VAO's attributes (docs/bindings.md)."""
        ctx = self.ctx
        ctx._index_res = INDEX_UNBOUND  # (re)binding a VAO: do not trust the index-buffer shadow
        if start_instance != self.vertex_start_instance:
            self.vertex_start_instance = start_instance
            ctx._keep_general(KeepGeneral.VERTEX, self.vertex_user or (start_instance and not self.use_base_instance))
        cso = self.velems
        if cso is not None and not self.vertex_user and (not start_instance or self.use_base_instance):
            # A VAO made before is valid while every buffer keeps its GL object:
            # certainly while no resource of the screen was destroyed since it
            # was last checked (glpipe/screen.py Epochs), else if each still does.
            try:
                record = cso.vaos[self._vb_id]  # (a subscript: cheaper than .get when found)
            except KeyError:
                record = None
            if record is not None and (
                record.checked == self._epochs.resources_destroyed or self._vao_still_valid(record)
            ):
                ctx._hot.glBindVertexArray(record.vao)
                return
            ctx._hot.glBindVertexArray(self._vao_for(cso))
            return
        ctx._hot.glBindVertexArray(self._vao)
        self._enabled_attribs = self._specify_attribs(cso, start_instance, self._enabled_attribs)

    def _vao_still_valid(self, record: VaoRecord) -> bool:
        """Whether every buffer of ``record`` still has the GL object its VAO
        points at (then the record counts as checked now).  Reads
        Resource._gl_object (the name, or None once destroyed or while
        allocation is pending) rather than the property: a mismatch takes
        ``_vao_for``, whose gl_object reads raise for a destroyed resource (or
        allocate a pending one)."""
        for res, name in record.checks:
            if res._gl_object != name:
                return False
        record.checked = self._epochs.resources_destroyed
        return True

    def _vao_for(self, cso: VertexElementsCSO) -> int:
        """The cached VAO of ``cso`` with the bound (resource) vertex buffers;
        made, or remade if a buffer's GL object changed, as needed."""
        record = cso.vaos.get(self._vb_id)
        if record is not None:
            for res, name in record.checks:
                if res.gl_object != name:  # raises for a destroyed resource, as the pointer setup would
                    break
            else:
                record.checked = self._epochs.resources_destroyed
                return record.vao
            self.ctx.gl.glDeleteVertexArrays(1, [record.vao])
            del cso.vaos[self._vb_id]
        buffers = self.vertex_buffers
        used = {a.vb_index for a in cso.attribs}
        checks = tuple(
            (vb.buffer, vb.buffer.gl_object)
            for i, vb in enumerate(buffers)
            if i in used and vb is not None and vb.buffer is not None
        )
        vao = int(self.ctx.gl.glGenVertexArrays(1))
        self.ctx._hot.glBindVertexArray(vao)
        self._specify_attribs(cso, 0, 0)
        cso.vaos[self._vb_id] = VaoRecord(vao, checks, self._epochs.resources_destroyed)
        self._vao_owners.add(cso)
        return vao

    def _specify_attribs(self, cso, start_instance: int, enabled_before: int) -> int:
        """Point every attribute location of the bound VAO at its buffer
        (glVertexAttrib*Pointer); ``enabled_before`` is the VAO's mask of
        enabled locations.  Returns the mask now enabled."""
        hot = self.ctx._hot
        attribs = cso.attribs if cso is not None else ()
        buffers = self.vertex_buffers
        offset_emulation = not self.use_base_instance
        bind_buffer = hot.glBindBuffer
        array_buffer = self._gl_array_buffer
        enabled = 0
        uploaded = None
        for loc, vbi, size, gltype, normalized, path, src_offset, divisor in attribs:
            vb = buffers[vbi] if vbi < len(buffers) else None
            if vb is None or vb.buffer is None:
                # No buffer: the shader reads the current attribute value,
                # (0,0,0,1) as Gallium drivers give for unbound buffers, in the
                # type the shader declares (GL keeps one value per location
                # and an integer input would read a float's bits).
                if path == PATH_INTEGER:
                    self.ctx.gl.glVertexAttribI4ui(loc, 0, 0, 0, 1)
                else:
                    self.ctx.gl.glVertexAttrib4f(loc, 0.0, 0.0, 0.0, 1.0)
                continue
            if vb.is_user_buffer:
                if uploaded is None:
                    uploaded = {}
                ring = uploaded.get(vbi)
                if ring is None:
                    ring = uploaded[vbi] = self.ring.upload(vb.buffer)
                name = ring[0]
                offset = ring[1] + src_offset + vb.buffer_offset
            else:
                name = vb.buffer.gl_object
                offset = src_offset + vb.buffer_offset
            stride = vb.stride
            real_stride0 = False
            if stride == 0:
                real_stride0 = self._gl_bind_vertex_buffer is not None
                divisor = STRIDE0_DIVISOR  # kept with a real stride 0 (docs/bindings.md "Vertex input")
            elif divisor and offset_emulation and start_instance:
                offset += start_instance * stride
            bind_buffer(array_buffer, name)
            ptr = ctypes.c_void_p(offset)
            if path == PATH_FLOAT:
                self._gl_attrib_pointer(loc, size, gltype, normalized, stride, ptr)
            else:
                self._gl_attrib_ipointer(loc, size, gltype, stride, ptr)
            # GLuint: 0xffffffff goes through ctypes as the int -1 (same bits).
            self._gl_attrib_divisor(loc, divisor if divisor < 0x80000000 else divisor - 0x100000000)
            if real_stride0:
                # The pointer call made binding ``loc`` "tightly packed";
                # rebind its buffer with a real stride 0 (docs/bindings.md "Vertex input").
                self._gl_bind_vertex_buffer(loc, name, ctypes.c_ssize_t(offset), 0)
            enabled |= 1 << loc
        changed = enabled ^ enabled_before
        loc = 0
        while changed:
            if changed & 1:
                if enabled & (1 << loc):
                    hot.glEnableVertexAttribArray(loc)
                else:
                    hot.glDisableVertexAttribArray(loc)
            changed >>= 1
            loc += 1
        bind_buffer(array_buffer, 0)
        return enabled

    def _delete_vaos_of(self, cso: VertexElementsCSO) -> None:
        """Delete the VAOs cached for ``cso``."""
        names = [record.vao for record in cso.vaos.values()]
        if names:
            self.ctx.gl.glDeleteVertexArrays(len(names), names)
        cso.vaos.clear()
        self._vao_owners.discard(cso)

    def _vaos_dropped(self, vaos: dict) -> None:
        """A vertex-elements CSO was dropped unreferenced: delete its VAOs."""
        names = [record.vao for record in vaos.values()]
        vaos.clear()
        if names and not self.ctx.destroyed:
            self.ctx.gl.glDeleteVertexArrays(len(names), names)
            self.ctx.dirty |= Dirty.VERTEX  # (GL unbinds a deleted VAO: the next draw binds its own)

    def _drop_cached_vaos(self) -> None:
        """Delete every cached VAO and forget the buffer-set ids (the id table
        is full: buffer sets come and go, e.g. streaming offsets)."""
        for cso in list(self._vao_owners):
            self._delete_vaos_of(cso)
        self._vb_ids.clear()
        self.ctx.dirty |= Dirty.VERTEX

    def _drop_vertex_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): delete every cached VAO, so the emit specifies the
        attributes of a new one (``_vao_for``) instead of trusting a record,
        and replace the scratch VAO, whose enabled arrays are shadowed."""
        for cso in list(self._vao_owners):
            self._delete_vaos_of(cso)
        gl = self.ctx.gl
        gl.glDeleteVertexArrays(1, [self._vao])
        self._vao = int(gl.glGenVertexArrays(1))
        self._enabled_attribs = 0
        self.ctx.dirty |= Dirty.VERTEX

    def destroy(self) -> None:
        """Delete the ring, the cached VAOs and the scratch VAO (Context.destroy)."""
        ctx = self.ctx
        if ctx.host.drawing_context is ctx:
            ctx.host.drawing_context = None
        self.ring.destroy()
        for cso in list(self._vao_owners):
            self._delete_vaos_of(cso)
        ctx.gl.glDeleteVertexArrays(1, [self._vao])


def gl_function(gl: Any, name: str, raw: bool = True) -> Any:  # a ctypes / PyOpenGL function, or None
    """GL entry point ``name`` as a ctypes function without argtypes (ctypes'
    per-argument conversion is most of a call's cost), or PyOpenGL's function
    when the platform gives no address or ``raw`` is False (GLPIPE_DEBUG=
    nofast); None when the host lacks it.

    Callers pass Python ints for GLenum / GLint / GLsizei / GLuint arguments
    (all below 2**31 here) and ``ctypes.c_void_p`` objects for pointers, which
    both kinds of function accept.
    """
    if not raw:
        fn = getattr(gl, name, None)
        if fn:  # (PyOpenGL's placeholder for an entry point it cannot resolve is falsy)
            return fn
    try:
        from OpenGL import platform

        addr = platform.PLATFORM.getExtensionProcedure(name.encode())
    except Exception:  # pragma: no cover - a platform without proc lookup
        addr = None
    if addr:
        return raw_prototype()(addr)  # glpipe/host/hotgl.py: keeps the GIL, as the state calls do
    return getattr(gl, name, None)


def offset_pointer(offset: int) -> ctypes.c_void_p:
    """``offset`` as the c_void_p a GL buffer-offset argument takes (0 is shared)."""
    return _NULL if offset == 0 else ctypes.c_void_p(offset)


_NULL = ctypes.c_void_p(0)

# The index-buffer shadow's "nothing known": never the ``index`` of a draw.
INDEX_UNBOUND = object()

# Module globals, read by every switching bind_vertex_elements_state: measured
# 134 ns per bind with them, 143 ns reading Dirty.VERTEX / Dirty.PROGRAM
# (a 7% cheaper bind, both profiles; docs/performance.md).
_VERTEX, _PROGRAM = Dirty.VERTEX, Dirty.PROGRAM

# Distinct vertex-buffer sets given ids before the VAO cache starts over.
_MAX_BUFFER_SETS = 256


def _fetch_rows(fmt, fetch, ve) -> list[FetchRow]:
    """The fetch rows one vertex element becomes: one, or two for a
    dual-slot raw double."""
    integer = fetch.path != "float"
    if fetch.path == "double":
        # Raw doubles: their 32-bit halves through the integer path (Mesa's
        # util_lower_uint64_vertex_elements; docs/bindings.md "Vertex input").
        n = _RAW_DOUBLE_CHANNELS[fmt.name]
        n = max(n, 3) if ve.dual_slot else min(n, 2)
        half = _GL_INT if fmt.name.endswith("_SINT") else _GL_UNSIGNED_INT
        if n == 1:
            return [FetchRow(2, half, False, PATH_INTEGER, 0)]
        if n == 2:
            return [FetchRow(4, half, False, PATH_INTEGER, 0)]
        return [FetchRow(4, half, False, PATH_INTEGER, 0), FetchRow(2 if n == 3 else 4, half, False, PATH_INTEGER, 16)]
    return [FetchRow(fetch.size, fetch.gl_type, bool(fetch.normalized), PATH_INTEGER if integer else PATH_FLOAT, 0)]


# GL enums used without a context (values from the GL registry).
_GL_INT = 0x1404
_GL_UNSIGNED_INT = 0x1405

AREA = Area(
    "vertex_part",
    part=VertexPart,
    methods=(
        "create_vertex_elements_state",
        "bind_vertex_elements_state",
        "delete_vertex_elements_state",
        "destroy_vertex_elements_state",
        "set_vertex_buffers",
    ),
    # No row: the vertex input depends on the draw's start_instance, so
    # glpipe/draw.py runs ``_emit_vertex`` after every area's rows.
    destroy=VertexPart.destroy,
    drop_caches=VertexPart._drop_vertex_caches,
)

__all__ = [
    "AREA",
    "AttribRow",
    "FetchRow",
    "INDEX_UNBOUND",
    "STRIDE0_DIVISOR",
    "StreamRing",
    "VertexElementsCSO",
    "VertexPart",
    "gl_function",
    "offset_pointer",
]
