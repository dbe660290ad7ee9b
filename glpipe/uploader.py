"""pipe_context::stream_uploader and const_uploader (the uploads area,
``UploadPart``): Mesa's u_upload_mgr (context.rst "Uploading").

``alloc(min_out_offset, size, alignment)`` hands out ``(offset, resource,
view)``: ``view`` is a writable numpy uint8 array of ``size`` bytes that
lands at ``offset`` of ``resource``, a STREAM buffer of the uploader's.
Allocations are taken from the current buffer one after the other (never
reused: no wait on the GPU is ever needed); when one does not fit, a new
buffer of at least ``default_size`` replaces it.  ``upload_data`` is alloc
plus a copy; ``unmap`` makes what was written visible to the GPU.

Where the host has buffer storage, a buffer is created with
MAP_PERSISTENT | MAP_COHERENT and mapped once: views are the mapping itself
and ``unmap`` has nothing to flush.  Elsewhere views are a host copy of the
buffer and ``unmap`` uploads the range written since the last one.  As in
Mesa, a view is valid until the next alloc / upload_data / unmap.

A buffer the uploader has moved past lives as long as anyone references it
(Gallium references resources by count; glpipe maps that onto Python's
references): it is destroyed at the next buffer switch, flush or destroy
after the last outside reference to it goes.
"""

from __future__ import annotations

import sys

import numpy as np

from lowering.errors import InvalidArgumentError

from .boundary import in_range, uint32
from .enums import Bind, Map, ResourceFlag, Target, Usage
from .formats import Format
from .part import Area, Part
from .resource import Resource
from .templates import ResourceTemplate
from .transfer_gl import persistent_map

# Mesa's defaults: 1 MiB stream buffers, 128 KiB for constants.
STREAM_SIZE = 1 << 20
CONST_SIZE = 128 << 10
_STREAM_BINDS = Bind.VERTEX_BUFFER | Bind.INDEX_BUFFER | Bind.CONSTANT_BUFFER


class Uploader:
    """u_upload_mgr: a ring of STREAM buffers handing out sub-allocations."""

    def __init__(self, ctx, default_size: int, bind: Bind) -> None:
        self.ctx = ctx
        self.default_size = int(default_size)
        self.bind = bind
        self.persistent = ctx.screen.profile.has("buffer_storage")
        self.buffer: Resource | None = None
        self._offset = 0
        self._memory: np.ndarray | None = None  # the mapping, or the host copy
        self._dirty: tuple[int, int] | None = None  # host copy: [lo, hi) written since the last unmap
        self._retired: list[Resource] = []

    # -- u_upload_alloc / u_upload_data / u_upload_unmap -----------------------------

    def alloc(self, min_out_offset: int, size: int, alignment: int) -> tuple[int, Resource, np.ndarray]:
        """u_upload_alloc: ``size`` bytes at an offset >= ``min_out_offset``,
        a multiple of ``alignment`` (a power of two); returns (offset,
        resource, writable view)."""
        what = "Uploader.alloc"
        self.ctx.check_alive(what)
        min_out_offset = uint32(min_out_offset, f"{what}: min_out_offset")
        size = in_range(size, f"{what}: size", 1, 2**31)
        alignment = in_range(alignment, f"{what}: alignment", 1, 1 << 16)
        if alignment & (alignment - 1):
            raise InvalidArgumentError(f"{what}: alignment {alignment} is not a power of two")
        offset = _align(max(self._offset, min_out_offset), alignment)
        if self.buffer is None or offset + size > self.buffer.width0:
            self._new_buffer(max(self.default_size, _align(min_out_offset, alignment) + size))
            offset = _align(min_out_offset, alignment)
        self._offset = offset + size
        if not self.persistent:
            lo, hi = self._dirty or (offset, offset + size)
            self._dirty = (min(lo, offset), max(hi, offset + size))
        assert self._memory is not None and self.buffer is not None
        return offset, self.buffer, self._memory[offset : offset + size]

    def upload_data(self, min_out_offset: int, size: int, alignment: int, data) -> tuple[int, Resource]:
        """u_upload_data: alloc and copy the first ``size`` bytes of ``data``
        (any buffer-protocol object); returns (offset, resource)."""
        what = "Uploader.upload_data"
        try:
            src = np.frombuffer(memoryview(data).cast("B"), np.uint8)
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"{what}: data must be a C-contiguous buffer, got {type(data).__name__}"
            ) from None
        size = in_range(size, f"{what}: size", 1, 2**31)
        if src.size < size:
            raise InvalidArgumentError(f"{what}: data holds {src.size} bytes, fewer than size {size}")
        offset, res, view = self.alloc(min_out_offset, size, alignment)
        view[:] = src[:size]
        return offset, res

    def unmap(self) -> None:
        """u_upload_unmap: what the views hold becomes visible to the GPU
        (coherent mappings already are; a host copy uploads its written range)."""
        self.ctx.check_alive("Uploader.unmap")
        if self._dirty is not None and self.buffer is not None and self._memory is not None:
            lo, hi = self._dirty
            self.ctx.buffer_subdata(self.buffer, Map.WRITE, lo, self._memory[lo:hi])
        self._dirty = None

    # -- buffers ------------------------------------------------------------------

    def _new_buffer(self, size: int) -> None:
        self.unmap()
        self._retire()
        screen = self.ctx.screen
        flags = ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT if self.persistent else ResourceFlag(0)
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.BUFFER,
                format=Format.R8_UNORM,
                width0=size,
                bind=self.bind,
                usage=Usage.STREAM,
                flags=flags,
            )
        )
        self.buffer, self._offset = res, 0
        self._memory = self._map(res) if self.persistent else np.zeros(size, np.uint8)

    def _map(self, res: Resource) -> np.ndarray:
        """The whole buffer mapped once, persistent and coherent (GL 4.4
        §6.2: PERSISTENT | COHERENT writes are visible to later commands):
        the buffer's one mapping, which transfer_map shares."""
        self.ctx.host.make_current()
        # A retired buffer destroyed under a live view keeps its storage
        # until the view is gone (glpipe/resource.py resource_destroy).
        return persistent_map(self.ctx.host, res)

    def _retire(self) -> None:
        """Move the current buffer to the retired list, and destroy retired
        buffers nobody else references any more."""
        if self.buffer is not None:
            self._retired.append(self.buffer)
            self.buffer, self._memory = None, None
        keep = []
        for res in self._retired:
            # References: the list, the loop variable and getrefcount's argument.
            if sys.getrefcount(res) > 3:
                keep.append(res)
            elif not res.destroyed:
                self.ctx.screen.resource_destroy(res)
        self._retired = keep

    def release_unused(self) -> None:
        """Destroy the retired buffers nobody references any more (also done
        at every buffer switch)."""
        buffer, memory = self.buffer, self._memory
        self.buffer = None  # not retired: only the retired list is swept
        self._retire()
        self.buffer, self._memory = buffer, memory

    def destroy(self) -> None:
        """Destroy every buffer of the uploader (Context.destroy)."""
        for res in self._retired + ([self.buffer] if self.buffer is not None else []):
            if not res.destroyed:
                self.ctx.screen.resource_destroy(res)
        self._retired, self.buffer, self._memory = [], None, None


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) & ~(alignment - 1)


class UploadPart(Part):
    """The uploads area: ``ctx.stream_uploader`` and ``ctx.const_uploader``."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.stream_uploader = Uploader(ctx, STREAM_SIZE, _STREAM_BINDS)
        self.const_uploader = Uploader(ctx, CONST_SIZE, Bind.CONSTANT_BUFFER)
        # pipe_context's fields of these names (context.rst "Uploading").
        ctx.stream_uploader = self.stream_uploader
        ctx.const_uploader = self.const_uploader

    def destroy(self) -> None:
        """Destroy both uploaders' buffers (Context.destroy)."""
        self.stream_uploader.destroy()
        self.const_uploader.destroy()


AREA = Area("uploads_part", part=UploadPart, destroy=UploadPart.destroy)

__all__ = ["AREA", "CONST_SIZE", "STREAM_SIZE", "UploadPart", "Uploader"]
