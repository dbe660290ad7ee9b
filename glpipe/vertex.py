"""Vertex elements CSOs and vertex buffers: how attributes are fetched.

``create_vertex_elements_state(elements)`` resolves every element's format
to a GL vertex-attribute fetch once (``glpipe.format_table.VertexFetch``:
component count or GL_BGRA, GL type, normalized, and the float / integer
path); a format the host cannot fetch is rejected there with the format's
name, never mis-read at draw time.

Locations.  Element ``i`` feeds the vertex shader input that follows the
inputs of the elements before it: one location each, two for a
``dual_slot`` raw-double element (Gallium's rule for dvec3/dvec4 inputs).
With no dual-slot element, element ``i`` is ``IN[i]``, which the lowering
places at ``layout(location = i)`` (docs/bindings.md).

Raw doubles (``R64*_UINT`` / ``R64*_SINT``, ARB_vertex_attrib_64bit's
"doubles not converted") reach the shader as their 32-bit halves through
the integer path, exactly as Mesa's ``util_lower_uint64_vertex_elements``
lowers them for hardware: R64 -> R32G32, R64G64 -> R32G32B32A32, and with
``dual_slot`` R64G64B64(A64) -> R32G32B32A32 + R32G32(B32A32) at +16 bytes.
TGSI keeps a double in two 32-bit channels, so the shader sees the same
bits either way.

Vertex array objects.  Each (vertex elements CSO, set of resource vertex
buffers) gets its own GL VAO, made the first time the pair is drawn and
kept (``_vao_for``), so switching between layouts or buffer sets that
were drawn before is one glBindVertexArray, as a GL program would do it.
Draws that read user memory (ring offsets change every draw) or that bake
a start_instance into the attribute offsets (below) re-specify the
pointers of one scratch VAO instead.  Nothing is done unless the elements,
the buffers or the start instance changed (``Dirty.VERTEX``).

Instancing (API.md): the element fetched for per-instance data is
``start_instance + instanceID // instance_divisor``.  GL's base instance
(4.2) does exactly that; without it (gl33) the per-instance attributes'
offsets are advanced by ``start_instance * stride`` instead, which fetches
the same element because GL computes ``instanceID // divisor`` from 0.

Stride 0.  Gallium's stride 0 means "every vertex fetches the same
element"; GL's glVertexAttribPointer reads stride 0 as "tightly packed".
glpipe gives such attributes the divisor 0xffffffff: GL then fetches
element ``start + instanceID // 0xffffffff = start`` for every vertex and
instance, ``start`` being GL's base instance.  With vertex_attrib_binding
(GL 4.3) the binding also gets a real stride of 0 (glBindVertexBuffer
keeps 0 as 0), so element ``start`` is at the offset too: GL's base
instance stays in use and the shader's BASEINSTANCE (gl_BaseInstance)
reads ``start_instance`` (PIPE_CAP_DRAW_PARAMETERS).  (The divisor stays:
Mesa hosts read a per-vertex stride-0 binding as a constant converted on
the CPU, GL_FIXED imprecisely.)  Without vertex_attrib_binding (gl33)
base instance would fetch element ``start_instance``, so draws with a
stride-0 buffer bound use the offset emulation of start_instance (above);
that host has no draw parameters, so no shader can tell.

User memory (vertex buffers and index buffers) is copied into one
streaming ring buffer (``_StreamRing``): appended at increasing offsets,
and replaced by fresh storage only when full, so an upload never waits for
the GPU and costs no GL object per draw.
"""

from __future__ import annotations

import ctypes

import numpy as np

from lowering.errors import InvalidArgumentError, UnsupportedError

from .defs import PIPE_MAX_ATTRIBS
from .dirty import Dirty, KeepGeneral
from .formats import Format, util_format_description
from .hotgl import raw_prototype
from .shaders import variant_input
from .state import VertexBuffer, VertexElement

# Divisor that makes GL fetch element 0 for every vertex and instance
# (Gallium stride 0, see the module docstring).
STRIDE0_DIVISOR = 0xFFFFFFFF

# Fetch paths of an attribute row.
PATH_FLOAT = 0     # glVertexAttribPointer (converted to float)
PATH_INTEGER = 1   # glVertexAttribIPointer (ivec / uvec inputs)

# Raw-double vertex formats: number of 64-bit channels by format name.
_RAW_DOUBLE_CHANNELS = {
    f"R64{suffix}_{kind}": n
    for kind in ("UINT", "SINT")
    for n, suffix in ((1, ""), (2, "G64"), (3, "G64B64"), (4, "G64B64A64"))
}


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

    ``attribs`` rows are ``(location, vb_index, size, gl_type, normalized,
    path, src_offset, divisor)``; ``vs_input_types`` gives per location the
    kind of value the vertex shader must declare (``float`` / ``int`` /
    ``uint``, or ``snorm`` / ``uscaled`` when the shader converts the
    fetched value: lowering/glsl/variant.py VS_INPUT_TYPES), for the
    variant key.
    """

    __slots__ = ("attribs", "context", "destroyed", "elements", "max_vb", "vaos", "vs_input", "vs_input_types")

    def __init__(self, context, elements: tuple, attribs: tuple, vs_input_types: tuple):
        self.context = context
        self.elements = elements
        self.attribs = attribs
        self.vs_input_types = vs_input_types
        self.vs_input = variant_input(vs_input_types)  # the variant-key input (variant_keys.py)
        self.max_vb = max((a[1] for a in attribs), default=-1)
        self.destroyed = False
        # Vertex-buffer set id (VertexMixin._vb_id) -> (GL VAO, ((Resource, GL
        # name) it was specified with, ...)): the VAOs made for this layout.
        self.vaos: dict = {}

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


class _StreamRing:
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
        self.generation = 0          # bumped on every renewal (bindings must be redone)
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
                raise InvalidArgumentError(f"user memory must be a C-contiguous buffer-protocol object: {exc}") \
                    from None
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


class VertexMixin:
    """Context methods for vertex elements and vertex buffers (mixed into Context)."""

    def _init_vertex(self) -> None:
        gl = self.gl
        prof = self.screen.profile
        raw = not self._nofast  # GLPIPE_DEBUG=nofast: PyOpenGL's entry points (glpipe/context.py)
        self.velems = None
        self.vertex_buffers: tuple = ()
        self._epochs = self.screen.epochs  # resources_destroyed: when a VAO was last checked
        self._vao = int(gl.glGenVertexArrays(1))  # the scratch VAO (user memory, start_instance offsets)
        self._enabled_attribs = 0        # bitmask of enabled attribute locations of the scratch VAO
        self._vb_ids: dict[tuple, int] = {}  # vertex_buffers tuple -> id (keys of VertexElementsCSO.vaos)
        self._vb_id = 0                  # ... of the bound buffers
        self._vb_last_id = 0             # ids are never reused (a VAO cache key must not change meaning)
        self._vao_owners: set = set()    # velems CSOs holding cached VAOs
        self._vertex_user = False        # some bound vertex buffer is user memory
        self._vertex_start_instance = 0  # start_instance baked into offsets (offset emulation)
        # Base instance is used when the host has it and no stride-0 buffer
        # needs the divisor trick (module docstring); draw_vbo reads this flag.
        self._use_base_instance = self._has_base_instance
        # glBindVertexBuffer: a real stride 0 (None: the divisor trick).
        self._gl_bind_vertex_buffer = (_gl_function(gl, "glBindVertexBuffer", raw)
                                       if prof.has("vertex_attrib_binding") else None)
        self._ring = _StreamRing(gl, prof.has("buffer_storage"), self.screen.counters)
        # Draw-side host state shadows (glpipe/draw.py draw_vbo).
        self._restart_on = False
        self._restart_index = None
        self._index_res = _UNBOUND       # what the VAO's ELEMENT_ARRAY binding holds: a Resource or the ring
        self._index_name = 0             # ... and its GL name then
        self._index_nbytes = 0           # ... and its size in bytes (a Resource's width0)
        # The draw entry points as plain ctypes functions (draw_vbo is the hot
        # path; PyOpenGL's wrappers cost about a microsecond per call).
        self._gl_draw_arrays = _gl_function(gl, "glDrawArraysInstanced", raw)
        self._gl_draw_arrays_bi = _gl_function(gl, "glDrawArraysInstancedBaseInstance", raw)
        self._gl_draw_elements = _gl_function(gl, "glDrawElementsInstancedBaseVertex", raw)
        self._gl_draw_elements_bi = _gl_function(gl, "glDrawElementsInstancedBaseVertexBaseInstance", raw)
        self._offset_pointer = offset_pointer
        self._null_pointer = _NULL
        self._gl_array_buffer = int(gl.GL_ARRAY_BUFFER)
        self._gl_bind_buffer = _gl_function(gl, "glBindBuffer", raw)
        self._gl_attrib_pointer = _gl_function(gl, "glVertexAttribPointer", raw)
        self._gl_attrib_ipointer = _gl_function(gl, "glVertexAttribIPointer", raw)
        self._gl_attrib_divisor = _gl_function(gl, "glVertexAttribDivisor", raw)
        self._patch_vertices = None      # set_patch_vertices' value ...
        self._gl_patch_vertices = None   # ... and GL_PATCH_VERTICES as this context last set it
        self._max_vertex_buffers = min(int(prof.limit("GL_MAX_VERTEX_ATTRIBS")), PIPE_MAX_ATTRIBS)
        self._max_vertex_stride = int(prof.limit("GL_MAX_VERTEX_ATTRIB_STRIDE")) or 2048

    def create_vertex_elements_state(self, elements) -> VertexElementsCSO:
        """pipe_context::create_vertex_elements_state(elements): resolve every
        element's format to a host vertex fetch now."""
        self.check_alive("create_vertex_elements_state")
        what = "create_vertex_elements_state"
        elements = tuple(elements)
        if len(elements) > PIPE_MAX_ATTRIBS:
            raise InvalidArgumentError(f"{what}: {len(elements)} elements "
                                       f"(at most PIPE_MAX_ATTRIBS = {PIPE_MAX_ATTRIBS})")
        prof = self.screen.profile
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
                raise InvalidArgumentError(f"{what}: elements[{i}].src_format {ve.src_format!r} is not a "
                                           f"pipe_format") from None
            desc = util_format_description(fmt)
            fetch = desc.vertex
            if fetch is None:
                raise UnsupportedError(f"{what}: elements[{i}].src_format {fmt.name} "
                                       f"cannot be fetched as a vertex attribute")
            missing = [f for f in fetch.features if not prof.has(f)]
            if missing:
                raise UnsupportedError(
                    f"{what}: elements[{i}].src_format {fmt.name} needs the host "
                    f"feature(s) {', '.join(missing)} (not on the {prof.name} profile)")
            if not 0 <= ve.vertex_buffer_index < self._max_vertex_buffers:
                raise InvalidArgumentError(
                    f"{what}: elements[{i}].vertex_buffer_index {ve.vertex_buffer_index} outside "
                    f"0..{self._max_vertex_buffers - 1} (PIPE_CAP_MAX_VERTEX_BUFFERS)")
            if ve.src_offset < 0:
                raise InvalidArgumentError(f"{what}: elements[{i}].src_offset {ve.src_offset} is negative")
            if ve.instance_divisor < 0:
                raise InvalidArgumentError(
                    f"{what}: elements[{i}].instance_divisor {ve.instance_divisor} is negative")
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
                kind = "snorm"      # the VS reads max(in, -1)
            elif fetch.path == "float" and first.type.name == "USCALED" and first.size == 32:
                kind = "uscaled"    # glVertexAttribIPointer(GL_UNSIGNED_INT); the VS reads vec4(in)
                rows = [(size, gltype, False, PATH_INTEGER, offset) for size, gltype, _n, _p, offset in rows]
            for size, gltype, normalized, path, offset in rows:
                if location >= max_attribs:
                    raise InvalidArgumentError(
                        f"{what}: elements[{i}] needs attribute location {location}, "
                        f"the host has {max_attribs} (GL_MAX_VERTEX_ATTRIBS)")
                attribs.append((location, ve.vertex_buffer_index, size, gltype, normalized, path,
                                ve.src_offset + offset, ve.instance_divisor))
                kinds.append(kind)
                location += 1
        return VertexElementsCSO(self, elements, tuple(attribs), tuple(kinds))

    def bind_vertex_elements_state(self, cso) -> None:
        """pipe_context::bind_vertex_elements_state (None unbinds)."""
        if cso is not None and (type(cso) is not VertexElementsCSO or cso.context is not self or cso.destroyed):
            self._check_cso(cso, VertexElementsCSO, "bind_vertex_elements_state")  # raises, naming what is wrong
        old = self.velems
        if cso is old:
            return
        self.velems = cso
        # The VS declares its inputs' types from the formats (VariantKey.vs_input_types).
        if old is None or cso is None or old.vs_input is not cso.vs_input:
            self.dirty |= _VERTEX | _PROGRAM
        else:
            self.dirty |= _VERTEX

    def delete_vertex_elements_state(self, cso) -> None:
        """pipe_context::delete_vertex_elements_state (unbinds it if bound)."""
        self._check_cso(cso, VertexElementsCSO, "delete_vertex_elements_state")
        if self.velems is cso:
            self.velems = None
            self.dirty |= Dirty.VERTEX | Dirty.PROGRAM
        self._delete_vaos_of(cso)
        cso.destroyed = True

    destroy_vertex_elements_state = delete_vertex_elements_state

    def set_vertex_buffers(self, buffers) -> None:
        """pipe_context::set_vertex_buffers(buffers): Resources or user memory,
        with buffer_offset and stride (stride 0 repeats one element).  Slots
        past the sequence are unbound."""
        self.check_alive("set_vertex_buffers")
        buffers = tuple(buffers) if buffers is not None else ()
        if buffers == self.vertex_buffers:
            return
        if len(buffers) > self._max_vertex_buffers:
            raise InvalidArgumentError(f"set_vertex_buffers: {len(buffers)} buffers (at most "
                                       f"{self._max_vertex_buffers}, PIPE_CAP_MAX_VERTEX_BUFFERS)")
        user = stride0 = False
        for i, vb in enumerate(buffers):
            if vb is None:
                continue
            if not isinstance(vb, VertexBuffer):
                raise InvalidArgumentError(f"set_vertex_buffers: buffers[{i}] is a {type(vb).__name__}, "
                                           f"not a VertexBuffer")
            if vb.buffer is None:
                continue
            if not 0 <= vb.stride <= self._max_vertex_stride:
                raise InvalidArgumentError(f"set_vertex_buffers: buffers[{i}].stride {vb.stride} outside "
                                           f"0..{self._max_vertex_stride} (PIPE_CAP_MAX_VERTEX_ATTRIB_STRIDE)")
            if vb.buffer_offset < 0:
                raise InvalidArgumentError(f"set_vertex_buffers: buffers[{i}].buffer_offset "
                                           f"{vb.buffer_offset} is negative")
            if vb.is_user_buffer:
                user = True
            else:
                self._check_resource(vb.buffer, f"set_vertex_buffers: buffers[{i}].buffer")
            if vb.stride == 0:
                stride0 = True
        self.vertex_buffers = buffers
        self._vertex_user = user
        self._use_base_instance = self._has_base_instance and not (stride0 and self._gl_bind_vertex_buffer is None)
        self._keep_general(KeepGeneral.VERTEX, user or (self._vertex_start_instance and not self._use_base_instance))
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
        self.dirty |= Dirty.VERTEX

    # -- host side -------------------------------------------------------------

    def _emit_vertex(self, start_instance: int) -> None:
        """Bind the VAO of the bound elements and buffers (made on first use),
        or re-specify the scratch VAO's attributes (module docstring)."""
        cso = self.velems
        self._index_res = _UNBOUND  # (re)binding a VAO: do not trust the index-buffer shadow
        if start_instance != self._vertex_start_instance:
            self._vertex_start_instance = start_instance
            self._keep_general(KeepGeneral.VERTEX,
                               self._vertex_user or (start_instance and not self._use_base_instance))
        if cso is not None and (not start_instance or self._use_base_instance) and not self._vertex_user:
            record = cso.vaos.get(self._vb_id)
            if record is not None:
                # A VAO made before: valid while every buffer keeps its GL
                # object.  Read as Resource._gl_object (the name, or None once
                # destroyed or while allocation is pending): this runs on every
                # layout switch, and the public property costs a call.  Any
                # mismatch takes _vao_for, whose gl_object reads raise for a
                # destroyed resource (or allocate a pending one) as before.
                for res, name in record.checks:
                    if res._gl_object != name:
                        break
                else:
                    record.checked = self._epochs.resources_destroyed
                    self._hot.glBindVertexArray(record.vao)
                    return
            self._hot.glBindVertexArray(self._vao_for(cso))
            return
        self._hot.glBindVertexArray(self._vao)
        self._enabled_attribs = self._specify_attribs(cso, start_instance, self._enabled_attribs)

    def _emit_vertex_layout(self) -> None:
        """draw_vbo's fast-path runner for Dirty.VERTEX alone (a new layout or
        new buffers between draws, start instance 0): ``_emit_vertex(0)``
        with the common case -- a VAO made before, still valid -- unrolled."""
        cso = self.velems
        if cso is not None and not self._vertex_user:
            try:
                record = cso.vaos[self._vb_id]  # a subscript: cheaper than .get on this path
            except KeyError:
                return self._emit_vertex(0)
            # Checked since no resource of the screen was destroyed (Epochs):
            # every buffer still has the GL object the VAO points at.
            if record.checked == self._epochs.resources_destroyed:
                # (_vertex_start_instance needs no reset: on the fast path it
                # is 0 already, or the host has base instance and never reads it.)
                self._index_res = _UNBOUND
                self._hot.glBindVertexArray(record.vao)
                return
        self._emit_vertex(0)

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
            self.gl.glDeleteVertexArrays(1, [record.vao])
            del cso.vaos[self._vb_id]
        buffers = self.vertex_buffers
        used = {a[1] for a in cso.attribs}
        checks = tuple((vb.buffer, vb.buffer.gl_object) for i, vb in enumerate(buffers)
                       if i in used and vb is not None and vb.buffer is not None)
        vao = int(self.gl.glGenVertexArrays(1))
        self._hot.glBindVertexArray(vao)
        self._specify_attribs(cso, 0, 0)
        cso.vaos[self._vb_id] = VaoRecord(vao, checks, self._epochs.resources_destroyed)
        self._vao_owners.add(cso)
        return vao

    def _specify_attribs(self, cso, start_instance: int, enabled_before: int) -> int:
        """Point every attribute location of the bound VAO at its buffer
        (glVertexAttrib*Pointer); ``enabled_before`` is the VAO's mask of
        enabled locations.  Returns the mask now enabled."""
        hot = self._hot
        attribs = cso.attribs if cso is not None else ()
        buffers = self.vertex_buffers
        offset_emulation = not self._use_base_instance
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
                    self.gl.glVertexAttribI4ui(loc, 0, 0, 0, 1)
                else:
                    self.gl.glVertexAttrib4f(loc, 0.0, 0.0, 0.0, 1.0)
                continue
            if vb.is_user_buffer:
                if uploaded is None:
                    uploaded = {}
                ring = uploaded.get(vbi)
                if ring is None:
                    ring = uploaded[vbi] = self._ring.upload(vb.buffer)
                name = ring[0]
                offset = ring[1] + src_offset + vb.buffer_offset
            else:
                name = vb.buffer.gl_object
                offset = src_offset + vb.buffer_offset
            stride = vb.stride
            real_stride0 = False
            if stride == 0:
                real_stride0 = self._gl_bind_vertex_buffer is not None
                divisor = STRIDE0_DIVISOR  # kept with a real stride 0 (module docstring)
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
                # rebind its buffer with a real stride 0 (module docstring).
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
            self.gl.glDeleteVertexArrays(len(names), names)
        cso.vaos.clear()
        self._vao_owners.discard(cso)

    def _drop_cached_vaos(self) -> None:
        """Delete every cached VAO and forget the buffer-set ids (the id table
        is full: buffer sets come and go, e.g. streaming offsets)."""
        for cso in list(self._vao_owners):
            self._delete_vaos_of(cso)
        self._vb_ids.clear()
        self.dirty |= Dirty.VERTEX

    def _forget_draw_shadows(self) -> None:
        """The host GL state may not be ours (another context drew): put the
        draw-side state glpipe shadows back to known values."""
        gl = self.gl
        self._index_res = _UNBOUND
        gl.glDisable(gl.GL_PRIMITIVE_RESTART)
        self._restart_on = False
        self._restart_index = None
        self._gl_patch_vertices = None
        # Not draw-side, but re-emitted with ALL dirty only if the shadow is
        # forgotten (shaders.py binds the program only when it changes).
        self.shader_part.program = None

    def _drop_vertex_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): delete every cached VAO, so the emit specifies the
        attributes of a new one (``_vao_for``) instead of trusting a record,
        and replace the scratch VAO, whose enabled arrays are shadowed."""
        for cso in list(self._vao_owners):
            self._delete_vaos_of(cso)
        gl = self.gl
        gl.glDeleteVertexArrays(1, [self._vao])
        self._vao = int(gl.glGenVertexArrays(1))
        self._enabled_attribs = 0
        self.dirty |= Dirty.VERTEX

    def _upload_user(self, data, align: int = 16) -> tuple[int, int]:
        """Copy user memory into the streaming ring (Gallium user buffers are
        only valid during the call that uses them): (GL buffer, byte offset)."""
        return self._ring.upload(data, align)

    def _destroy_vertex(self) -> None:
        if self.screen._drawing_context is self:
            self.screen._drawing_context = None
        self._ring.destroy()
        for cso in list(self._vao_owners):
            self._delete_vaos_of(cso)
        self.gl.glDeleteVertexArrays(1, [self._vao])


def _gl_function(gl, name: str, raw: bool = True):
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
    except Exception:  # noqa: BLE001  # pragma: no cover - a platform without proc lookup
        addr = None
    if addr:
        return raw_prototype()(addr)  # glpipe/hotgl.py: keeps the GIL, as the state calls do
    return getattr(gl, name, None)


def offset_pointer(offset: int):
    """``offset`` as the c_void_p a GL buffer-offset argument takes (0 is shared)."""
    return _NULL if offset == 0 else ctypes.c_void_p(offset)


_NULL = ctypes.c_void_p(0)

# The index-buffer shadow's "nothing known": never the ``index`` of a draw.
_UNBOUND = object()

_VERTEX, _PROGRAM = Dirty.VERTEX, Dirty.PROGRAM  # module globals: read per bind

# Distinct vertex-buffer sets given ids before the VAO cache starts over.
_MAX_BUFFER_SETS = 256


def _fetch_rows(fmt, fetch, ve) -> list:
    """The attribute rows (size, gl type, normalized, path, extra offset) one
    vertex element becomes: one, or two for a dual-slot raw double."""
    integer = fetch.path != "float"
    if fetch.path == "double":
        # Raw doubles: their 32-bit halves through the integer path (Mesa's
        # util_lower_uint64_vertex_elements; module docstring).
        n = _RAW_DOUBLE_CHANNELS[fmt.name]
        n = max(n, 3) if ve.dual_slot else min(n, 2)
        half = _GL_INT if fmt.name.endswith("_SINT") else _GL_UNSIGNED_INT
        if n == 1:
            return [(2, half, False, PATH_INTEGER, 0)]
        if n == 2:
            return [(4, half, False, PATH_INTEGER, 0)]
        return [(4, half, False, PATH_INTEGER, 0), (2 if n == 3 else 4, half, False, PATH_INTEGER, 16)]
    return [(fetch.size, fetch.gl_type, bool(fetch.normalized), PATH_INTEGER if integer else PATH_FLOAT, 0)]


# GL enums used without a context (values from the GL registry).
_GL_INT = 0x1404
_GL_UNSIGNED_INT = 0x1405

__all__ = ["STRIDE0_DIVISOR", "VertexElementsCSO", "VertexMixin"]
