"""Transfers (the transfers area, ``TransferPart``): transfer_map /
transfer_unmap, transfer_flush_region, buffer_subdata, texture_subdata,
invalidate_resource.

A mapping is a staging copy in host memory handed out as a numpy array
(GL cannot map textures, and a glMapBufferRange pointer would dangle after
unmapping), except a PERSISTENT map, which is a view of the buffer's one
persistent GL mapping (glpipe/transfer_gl.py).  Multisampled textures are
mapped through a single-sampled staging texture (resolve / upsample blits).
docs/api.md "Transfers" gives the shape of ``Transfer.data``, the boxes and
the usage flags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from lowering.errors import InvalidArgumentError, ObjectDestroyedError

from .boundary import show
from .enums import Bind, Map, Mask, ResourceFlag, Target, Usage
from .part import Area, Part
from .resource import _BUFFER_DATA_USAGE, Resource
from .templates import BlitInfo, BlitSide, Box, ResourceTemplate
from .transfer_gl import (
    FloatDepthWriter,
    PixelPath,
    ZSReader,
    coherent_storage_refused,
    flush_mapped_range,
    gl_ptr,
    persistent_map,
    raw_gl,
    zs_only_mask,
)

# The mask transfer_map validates usage against (tests/test_flags.py reads it here).
from .transfer_region import _ALL_MAP_BITS as _ALL_MAP_BITS
from .transfer_region import (
    _DISCARDS,
    _READ_FORBIDS,
    StagingPool,
    _buffer_range,
    _BufferRange,
    _bytes_of,
    _check_usage,
    _int_arg,
    _read_only,
    _Region,
    _texture_region,
)

if TYPE_CHECKING:  # the buffer protocol's type (collections.abc.Buffer from Python 3.12); typing only
    from typing_extensions import Buffer

# How GL addresses a level's images, per target: "1d", "2d" (one image),
# "1d_array" (layers are rows of a 2D image), "3d" (layers/slices are the
# third coordinate), "faces" (a plain cube: one GL image per face target).
_GL_SHAPE = {
    Target.TEXTURE_1D: "1d",
    Target.TEXTURE_2D: "2d",
    Target.TEXTURE_RECT: "2d",
    Target.TEXTURE_1D_ARRAY: "1d_array",
    Target.TEXTURE_2D_ARRAY: "3d",
    Target.TEXTURE_3D: "3d",
    Target.TEXTURE_CUBE_ARRAY: "3d",
    Target.TEXTURE_CUBE: "faces",
}

# Map bits as plain ints for the data paths: IntFlag arithmetic costs about
# a microsecond an operation, most of a small transfer's fixed cost once
# (benchmarks/bench_transfer.py).  Transfer.usage still answers a Map.
_DEPTH_ONLY = int(Map.DEPTH_ONLY)
_DIRECTLY = int(Map.DIRECTLY)
_DONTBLOCK = int(Map.DONTBLOCK)
_DISCARD_WHOLE_RESOURCE = int(Map.DISCARD_WHOLE_RESOURCE)
_FLUSH_EXPLICIT = int(Map.FLUSH_EXPLICIT)
_PERSISTENT = int(Map.PERSISTENT)
_READ = int(Map.READ)
_READ_WRITE = int(Map.READ_WRITE)
_STENCIL_ONLY = int(Map.STENCIL_ONLY)
_UNSYNCHRONIZED = int(Map.UNSYNCHRONIZED)
_WRITE = int(Map.WRITE)
_READ_FORBIDS_BITS = int(_READ_FORBIDS)
_DISCARDS_BITS = int(_DISCARDS)

# PIPE_MAP bits that need a resource flag (context.rst PIPE_MAP_PERSISTENT / COHERENT).
_MAP_NEEDS_FLAG = (
    (int(Map.PERSISTENT), ResourceFlag.MAP_PERSISTENT),
    (int(Map.COHERENT), ResourceFlag.MAP_COHERENT),
)


def _tile_mask(mask: np.ndarray, nbx: int) -> np.ndarray:
    """One block's byte mask repeated over a row of ``nbx`` blocks."""
    return np.tile(mask, nbx)


# --------------------------------------------------------------------------
# The Transfer object
# --------------------------------------------------------------------------


class Transfer:
    """pipe_transfer: a mapping of a box of one level of a resource.

    Read-only fields: ``resource``, ``level``, ``usage`` (Map), ``box``
    (the Box given), ``stride``, ``layer_stride`` (bytes), and ``data`` (the
    numpy uint8 staging copy, see the module docstring; None after
    transfer_unmap).
    """

    __slots__ = (
        "_box",
        "_context",
        "_data",
        "_direct",
        "_flushed",
        "_layer_stride",
        "_level",
        "_mask",
        "_region",
        "_resource",
        "_staging",
        "_stride",
        "_usage",
    )

    def __init__(self, context, resource, level, usage, box, region, data, stride, layer_stride):
        self._context = context
        self._resource = resource
        self._level = level
        self._usage = usage
        self._box = box
        self._region = region
        self._data = data
        self._stride = stride
        self._layer_stride = layer_stride
        self._flushed: list = []
        # A view of the buffer's persistent mapping (no staging copy).
        self._direct = False
        # DEPTH_ONLY / STENCIL_ONLY: the byte mask of one block (transfer_gl.zs_only_mask).
        self._mask: np.ndarray | None = None
        # A multisampled texture's single-sampled stand-in (transfer_map).
        self._staging: Resource | None = None

    resource = property(lambda self: self._resource, doc="The mapped Resource.")
    level = property(lambda self: self._level, doc="The mapped mip level.")
    usage = property(lambda self: Map(self._usage), doc="PIPE_MAP_* flags of the mapping (Map).")
    box = property(lambda self: self._box, doc="The mapped Box, as given to transfer_map.")
    stride = property(lambda self: self._stride, doc="Bytes from one row of blocks to the next.")
    layer_stride = property(lambda self: self._layer_stride, doc="Bytes from one layer/slice to the next.")
    data = property(
        lambda self: self._data,
        doc="The mapped bytes (numpy uint8; read-only for a mapping without WRITE); None once unmapped.",
    )

    @property
    def mapped(self) -> bool:
        """False after transfer_unmap (or the context's destroy)."""
        return self._data is not None

    def __repr__(self) -> str:
        state = "mapped" if self.mapped else "unmapped"
        return f"<glpipe.Transfer {state} level {self._level} {self._box!r} usage={int(self._usage):#x}>"


# GL 3.1 enums (core in every profile glpipe runs on): the binding points
# no draw state depends on.
_COPY_READ_BUFFER = 0x8F36
_COPY_WRITE_BUFFER = 0x8F37


def _whole_images(region: _Region, shape: str) -> bool:
    """Whether ``region`` is whole GL images of its level, laid out in GL's
    image order exactly as a mapping holds them (one GL read fills it)."""
    lw, lh, ld = region.level_extent
    if region.x or region.y or region.w != lw or shape == "faces":
        return False
    if shape == "1d_array":  # layers are the GL image's rows
        return region.z == 0 and region.d == ld
    if region.h != lh:
        return False
    return shape != "3d" or (region.z == 0 and region.d == ld)


def _level_image_bytes(region: _Region, layers: int) -> int:
    """Host bytes of ``layers`` whole images of the region's level."""
    lw, lh, _ = region.level_extent
    desc = region.desc
    if region.compressed:
        nbx = -(-lw // desc.block_width)
        nby = -(-lh // desc.block_height)
        return nbx * nby * desc.blocksize * layers
    return lw * lh * region.host_bs * layers


class TransferPart(Part):
    """The context's transfers (``ctx.transfers_part``): mappings, subdata
    writes and invalidation."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._transfers: set[Transfer] = set()
        self._zs_reader = ZSReader()
        self._float_depth = FloatDepthWriter()
        self._pool = StagingPool()
        self._map_alignment = max(1, int(ctx.screen.profile.limit("GL_MIN_MAP_BUFFER_ALIGNMENT") or 64))

    def destroy(self) -> None:
        """Context.destroy: mappings still open are dropped unwritten (Gallium
        leaves that undefined; nothing can be uploaded any more)."""
        for t in self._transfers:
            t._data = None
        self._transfers = set()
        self._pool.clear()
        self._zs_reader.destroy(self.ctx.gl)
        self._float_depth.destroy(self.ctx.gl)

    # -- buffers -------------------------------------------------------------

    def _read_buffer(self, res, offset: int, out: np.ndarray) -> None:
        raw = raw_gl()
        raw["bind_buf"](_COPY_READ_BUFFER, res.gl_object)
        raw["buf_get"](_COPY_READ_BUFFER, offset, out.nbytes, gl_ptr(out))
        raw["bind_buf"](_COPY_READ_BUFFER, 0)
        self.ctx._counters.bytes_downloaded += out.nbytes

    def _write_buffer(self, res, offset: int, src: np.ndarray) -> None:
        raw = raw_gl()
        src = np.ascontiguousarray(src)
        raw["bind_buf"](_COPY_WRITE_BUFFER, res.gl_object)
        raw["buf_sub"](_COPY_WRITE_BUFFER, offset, src.nbytes, gl_ptr(src))
        raw["bind_buf"](_COPY_WRITE_BUFFER, 0)
        self.ctx._counters.bytes_uploaded += src.nbytes

    def _invalidate_buffer(self, res) -> None:
        """Tell GL the buffer's contents are dead: glInvalidateBufferData where
        the host has it, else orphan mutable storage with glBufferData."""
        gl = self.ctx.gl
        if res.immutable:
            # glInvalidateBufferData is GL 4.3 / ARB_invalidate_subdata.
            # Without it: immutable storage cannot be orphaned, and undefined
            # contents need no action.
            if self.ctx.screen.profile.has("invalidate_subdata"):
                gl.glInvalidateBufferData(res.gl_object)
            return
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
        gl.glBufferData(gl.GL_COPY_WRITE_BUFFER, res.width0, None, getattr(gl, _BUFFER_DATA_USAGE[Usage(res.usage)]))
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)

    def buffer_subdata(self, res: Resource, usage: Map | int, offset: int, data: Buffer) -> None:
        """pipe_context::buffer_subdata: write ``data`` (any buffer-protocol
        object) into buffer ``res`` at byte ``offset``."""
        what = "buffer_subdata"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        if res.target != Target.BUFFER:
            raise InvalidArgumentError(f"{what}: {res!r} is not a BUFFER (use texture_subdata)")
        usage = int(_check_usage(usage, what))
        offset = _int_arg(offset, "offset", what)
        src = _bytes_of(data, what)
        if offset < 0 or offset + src.size > res.width0:
            raise InvalidArgumentError(
                f"{what}: {src.size} bytes at offset {offset} do not fit the {res.width0}-byte buffer"
            )
        if src.size == 0:
            return
        self.ctx.host.make_current()
        if usage & _DISCARD_WHOLE_RESOURCE:
            self._invalidate_buffer(res)
        self._write_buffer(res, offset, src)
        self.ctx.host.check(what)

    # -- textures ------------------------------------------------------------

    def _read_texture(self, res, level: int, region: _Region, out: np.ndarray | None = None) -> np.ndarray:
        """The region's bytes in the Gallium format: (d, nby, stride); read
        straight into ``out`` (and ``out`` returned) where the region is
        whole images stored as they are mapped."""
        if region.decoded:
            # The host holds decoded texels: answer from the compressed bytes
            # the application wrote (docs/formats.md "Read-back").
            return res.compressed_shadow.load(level, region.z, region.by, region.bx, region.d, region.nby, region.nbx)
        hf = region.host
        shape = _GL_SHAPE[Target(res.target)]
        with PixelPath(self.ctx.host, res):
            if ZSReader.handles(hf):
                # glGetTexImage of depth goes through floats on some hosts
                # (llvmpipe: 32-bit unorm arrays and cubes lose low bits);
                # glReadPixels of the attached layer does not (docs/formats.md).
                part = self._zs_reader.read(self.ctx.host, res, level, shape, region)
                self.ctx._counters.bytes_downloaded += part.nbytes
            elif out is not None and hf.transfer_as is None and _whole_images(region, shape):
                # No detour through a level-sized buffer and a copy.
                self._get_image(res.gl_target, level, region, out)
                self.ctx.host.check("transfer read-back")
                return out
            else:
                part = self._get_image_part(res, level, shape, region)
        self.ctx.host.check("transfer read-back")
        if hf.transfer_as is None:
            return np.ascontiguousarray(part)
        from fallback.format_pack import from_host

        count = region.d * region.nby * region.nbx
        out = from_host(region.desc.format, hf, np.ascontiguousarray(part).reshape(-1), count)
        return np.asarray(out, np.uint8).reshape(region.d, region.nby, region.stride)

    def _get_image(self, target: int, level: int, region: _Region, buf: np.ndarray) -> None:
        """glGetTexImage (or its compressed form) of ``target``'s ``level`` into ``buf``."""
        hf = region.host
        if region.compressed:
            raw_gl()["cget"](target, level, gl_ptr(buf))
        else:
            raw_gl()["get"](target, level, hf.gl_format, hf.gl_type, gl_ptr(buf))
        self.ctx._counters.bytes_downloaded += buf.nbytes

    def _get_image_part(self, res, level: int, shape: str, region: _Region) -> np.ndarray:
        """glGetTexImage (or its compressed form) of the whole images the
        region touches, cut down to the region: (d, nby, nbx * host block)."""
        gl = self.ctx.gl
        lw, lh, ld = region.level_extent
        desc = region.desc
        if region.compressed:
            rows = -(-lh // desc.block_height)
            row_bytes = -(-lw // desc.block_width) * desc.blocksize
        else:
            rows, row_bytes = lh, lw * region.host_bs
        if shape == "faces":
            images = []
            for face in range(region.z, region.z + region.d):
                buf = np.empty(_level_image_bytes(region, 1), np.uint8)
                self._get_image(gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, level, region, buf)
                images.append(buf.reshape(1, rows, row_bytes))
            full = np.concatenate(images)
            z0 = 0
        else:
            layers = ld if shape in ("3d", "1d_array") else 1
            buf = self._pool.take(_level_image_bytes(region, layers), 64)
            self._get_image(res.gl_target, level, region, buf)
            # A 1D array's layers are the rows of its GL image.
            full = buf.reshape(layers, rows if shape != "1d_array" else 1, row_bytes)
            z0 = region.z
        hbs = region.bs if region.compressed else region.host_bs
        part = np.ascontiguousarray(
            full[
                z0 : z0 + region.d, region.by : region.by + region.nby, region.bx * hbs : (region.bx + region.nbx) * hbs
            ]
        )
        del full
        if shape != "faces":
            self._pool.give(buf)
        return part

    def _write_texture(self, res, level: int, region: _Region, src: np.ndarray) -> None:
        """Upload ``src`` ((d, nby, stride) bytes of the Gallium format) into the region."""
        gl = self.ctx.gl
        raw = raw_gl()
        hf = region.host
        src = np.ascontiguousarray(src)
        if region.decoded:
            from fallback.compressed import decode_blocks

            res.compressed_shadow.store(level, region.z, region.by, region.bx, src)
            src = decode_blocks(region.desc.format, src, region.w, region.h)
        elif hf.transfer_as is not None:
            from fallback.format_pack import to_host

            count = region.d * region.nby * region.nbx
            src = np.ascontiguousarray(np.asarray(to_host(region.desc.format, hf, src.reshape(-1), count), np.uint8))
            src = src.reshape(region.d, region.nby, region.nbx * region.host_bs)
        shape = _GL_SHAPE[Target(res.target)]
        x, y, z, w, h, d = region.x, region.y, region.z, region.w, region.h, region.d
        fmt, typ, ifmt = hf.gl_format, hf.gl_type, hf.internal_format
        target = res.gl_target
        with PixelPath(self.ctx.host, res):
            if shape == "faces":
                for i in range(d):
                    face = gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + z + i
                    layer = np.ascontiguousarray(src[i])
                    if region.compressed:
                        raw["csub2"](face, level, x, y, w, h, ifmt, layer.nbytes, gl_ptr(layer))
                    else:
                        raw["sub2"](face, level, x, y, w, h, fmt, typ, gl_ptr(layer))
            elif region.compressed:
                if shape == "3d":
                    raw["csub3"](target, level, x, y, z, w, h, d, ifmt, src.nbytes, gl_ptr(src))
                elif shape == "1d_array":
                    raw["csub2"](target, level, x, z, w, d, ifmt, src.nbytes, gl_ptr(src))
                elif shape == "2d":
                    raw["csub2"](target, level, x, y, w, h, ifmt, src.nbytes, gl_ptr(src))
                else:
                    raw["csub1"](target, level, x, w, ifmt, src.nbytes, gl_ptr(src))
            elif shape == "3d":
                raw["sub3"](target, level, x, y, z, w, h, d, fmt, typ, gl_ptr(src))
            elif shape == "1d_array":
                raw["sub2"](target, level, x, z, w, d, fmt, typ, gl_ptr(src))
            elif shape == "2d":
                raw["sub2"](target, level, x, y, w, h, fmt, typ, gl_ptr(src))
            else:
                raw["sub1"](target, level, x, w, fmt, typ, gl_ptr(src))
        if FloatDepthWriter.handles(hf):
            # The upload clamped depth to [0, 1] (GL 4.5 §8.5); Gallium keeps every float.
            self._float_depth.rewrite(self.ctx, res, level, region, src)
        self.ctx._counters.bytes_uploaded += src.nbytes
        self.ctx.host.check("transfer upload")

    def texture_subdata(
        self, res: Resource, level: int, usage: Map | int, box: Box, data: Buffer, stride: int, layer_stride: int
    ) -> None:
        """pipe_context::texture_subdata: write ``data`` into ``box`` of
        ``level``; rows of blocks are ``stride`` bytes apart and layers
        ``layer_stride`` bytes apart in ``data`` (any buffer-protocol object)."""
        what = "texture_subdata"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        if res.target == Target.BUFFER:
            raise InvalidArgumentError(f"{what}: {res!r} is a BUFFER (use buffer_subdata)")
        _check_usage(usage, what)
        region = _texture_region(res, level, box, what)
        stride = _int_arg(stride, "stride", what)
        layer_stride = _int_arg(layer_stride, "layer_stride", what, "uint64")
        if stride < 0 or layer_stride < 0:
            raise InvalidArgumentError(f"{what}: stride {stride} / layer_stride {layer_stride} must be >= 0")
        row = region.stride
        if region.nby > 1 and stride < row:
            raise InvalidArgumentError(f"{what}: stride {stride} is less than one row of the box ({row} bytes)")
        if region.d > 1 and layer_stride < (region.nby - 1) * stride + row:
            raise InvalidArgumentError(
                f"{what}: layer_stride {layer_stride} is less than one layer of the box "
                f"({(region.nby - 1) * stride + row} bytes at stride {stride})"
            )
        src = _bytes_of(data, what)
        need = (region.d - 1) * layer_stride + (region.nby - 1) * stride + row
        if src.size < need:
            raise InvalidArgumentError(
                f"{what}: box {show(box)} with stride {stride} and layer_stride {layer_stride} "
                f"needs {need} bytes of data, got {src.size}"
            )
        # A stride along an axis of one element is never stepped: 0 there, so
        # a huge unused layer_stride (a uintptr_t) never reaches numpy's intp.
        packed = np.lib.stride_tricks.as_strided(
            src,
            shape=(region.d, region.nby, row),
            strides=(layer_stride if region.d > 1 else 0, stride if region.nby > 1 else 0, 1),
            writeable=False,
        )
        self.ctx.host.make_current()
        self._write_texture(res, int(level), region, packed)

    # -- transfer_map / unmap ------------------------------------------------------

    def transfer_map(self, res: Resource, level: int, usage: Map | int, box: Box) -> Transfer | None:
        """pipe_context::transfer_map: map ``box`` of ``level`` of ``res``
        (usage: Map flags) and return a Transfer whose ``data`` holds the
        bytes; None for DIRECTLY (glpipe never maps directly)."""
        what = "transfer_map"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        usage = int(_check_usage(usage, what))
        if not usage & _READ_WRITE:
            raise InvalidArgumentError(f"{what}: usage {Map(usage)!r} has neither READ nor WRITE")
        if usage & _READ and usage & _READ_FORBIDS_BITS:
            raise InvalidArgumentError(
                f"{what}: {Map(usage & _READ_FORBIDS_BITS)!r} cannot be combined with READ (context.rst PIPE_MAP)"
            )
        for bit, flag in _MAP_NEEDS_FLAG:
            # context.rst PIPE_MAP_PERSISTENT / COHERENT: the resource flag must be set.
            if usage & bit and not res.flags & flag:
                raise InvalidArgumentError(f"{what}: {Map(bit)!r} needs a resource created with {flag!r}")
        if usage & _DIRECTLY:
            return None
        fill = bool(usage & _READ) or not usage & _DISCARDS_BITS
        if usage & _DONTBLOCK and self._would_block(res, usage, fill) and not self._host_idle():
            # context.rst PIPE_MAP_DONTBLOCK: "fail if the resource cannot be
            # mapped immediately".  glpipe knows whether the host has work
            # pending, not which resources it touches: any pending work fails
            # a map that would wait for it (llvmpipe fails only for resources
            # its pending scene references; failing more often is allowed).
            return None
        if res.target == Target.BUFFER:
            if _int_arg(level, "level", what) != 0:
                raise InvalidArgumentError(f"{what}: a buffer has only level 0, got {level}")
            if usage & (_DEPTH_ONLY | _STENCIL_ONLY):
                raise InvalidArgumentError(f"{what}: DEPTH_ONLY / STENCIL_ONLY map textures, {res!r} is a BUFFER")
            offset, size = _buffer_range(res, box, what)
            if usage & _PERSISTENT or (
                res.immutable and not usage & _FLUSH_EXPLICIT and not coherent_storage_refused(res.flags)
            ):
                # Mapped directly (issue 13 item 9): an immutable buffer is
                # stored persistent and coherent (glpipe/resource.py), so the
                # view is the buffer's memory on hosts that keep buffers in
                # host memory (llvmpipe): no staging copy either way.
                # FLUSH_EXPLICIT maps keep a staging copy: only the flushed
                # ranges may reach the buffer.
                return self._map_persistent(res, usage, box, offset, size)
            data = self._pool.take(size, self._map_alignment, offset)
            self.ctx.host.make_current()
            if usage & _DISCARD_WHOLE_RESOURCE:
                self._invalidate_buffer(res)
            if fill:
                self.ctx.shader_buffers_part.before_transfer()  # see shader-buffer writes of draws
                self.ctx.shader_images_part.before_transfer()  # and image / atomic counter writes
                self._read_buffer(res, offset, data)
            else:
                data[:] = 0
            self.ctx.host.check(what)
            t = Transfer(self.ctx, res, 0, usage, box, _BufferRange(offset, size), data, size, size)
        else:
            mask = zs_only_mask(res.format, usage, what)
            region = _texture_region(res, level, box, what, msaa=True)
            staging = self._pool.take(region.nbytes, 64).reshape(region.d, region.nby, region.stride)
            source = res
            if res.nr_samples > 1:
                source = self._msaa_staging(res, region, resolve=fill)
            if fill:
                self.ctx.host.make_current()
                self.ctx.shader_images_part.before_transfer()  # see image writes of draws
                got = self._read_texture(source, int(level), region, out=staging)
                if got is not staging:
                    staging[...] = got
                del got
                if mask is not None:
                    staging &= _tile_mask(mask, region.nbx)
            else:
                staging[...] = 0
            t = Transfer(self.ctx, res, int(level), usage, box, region, staging, region.stride, region.layer_stride)
            t._mask = mask
            if source is not res:
                t._staging = source
        if not usage & _WRITE:
            # A READ mapping uploads nothing at unmap, so a write into it
            # would vanish: refuse it where it happens (numpy's ValueError
            # "assignment destination is read-only").
            _read_only(t._data)
        self._transfers.add(t)
        return t

    @staticmethod
    def _would_block(res: Resource, usage: int, fill: bool) -> bool:
        """Whether mapping waits for the host: it reads the current contents
        (READ, or a WRITE without a discard), or it is a synchronized direct
        map (``_map_persistent`` finishes the host's work first)."""
        if fill:
            return True
        direct = res.target == Target.BUFFER and (
            usage & _PERSISTENT
            or (res.immutable and not usage & _FLUSH_EXPLICIT and not coherent_storage_refused(res.flags))
        )
        return bool(direct and not usage & _UNSYNCHRONIZED)

    def _host_idle(self) -> bool:
        """Whether the host has finished every command issued so far: a
        fence polled with a zero timeout (flushing, so the answer comes)."""
        gl = self.ctx.gl
        self.ctx.host.make_current()
        sync = gl.glFenceSync(gl.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
        try:
            result = int(gl.glClientWaitSync(sync, gl.GL_SYNC_FLUSH_COMMANDS_BIT, 0))
        finally:
            gl.glDeleteSync(sync)
        return result in (int(gl.GL_ALREADY_SIGNALED), int(gl.GL_CONDITION_SATISFIED))

    def _map_persistent(self, res: Resource, usage: int, box: Box, offset: int, size: int) -> Transfer:
        """A direct map: a view of the buffer's persistent GL mapping.
        A synchronized map waits for the GPU (context.rst: only
        UNSYNCHRONIZED maps skip the wait), so reads see what was rendered."""
        host = self.ctx.host
        host.make_current()
        whole = persistent_map(host, res)
        if not usage & _UNSYNCHRONIZED:
            raw_gl()["finish"]()
        # A READ map views the read-only twin of the mapping (persistent_map).
        data = (whole if usage & _WRITE else res._persistent_ro)[offset : offset + size]
        t = Transfer(self.ctx, res, 0, usage, box, _BufferRange(offset, size), data, size, size)
        t._direct = True
        if usage & _READ:
            # The counters count what a mapping moves, directly or not.
            self.ctx._counters.bytes_downloaded += size
        self._transfers.add(t)
        return t

    def flush_persistent(self) -> None:
        """memory_barrier(MAPPED_BUFFER): what the CPU wrote through this
        context's non-coherent persistent WRITE maps reaches later commands
        (context.rst PIPE_MAP_PERSISTENT)."""
        host = self.ctx.host
        for t in self._transfers:
            if t._direct and t._usage & _WRITE:
                host.make_current()
                flush_mapped_range(host, t.resource, t._region.offset, t._region.size)

    def _msaa_staging(self, res: Resource, region: _Region, resolve: bool) -> Resource:
        """A single-sampled texture standing in for multisampled ``res``
        while mapped (as Mesa's drivers map MSAA): with ``resolve``, the
        region resolved into it by a blit (colour averaged, depth / stencil
        and integers from sample 0: context.rst "Blitting")."""
        templ = res.template
        desc = region.desc
        bind = Bind.DEPTH_STENCIL if desc.colorspace == "zs" else Bind.RENDER_TARGET
        staging = self.ctx.screen.resource_create(
            ResourceTemplate(
                target=templ.target,
                format=templ.format,
                width0=templ.width0,
                height0=templ.height0,
                depth0=templ.depth0,
                array_size=templ.array_size,
                bind=bind | Bind.SAMPLER_VIEW,
            )
        )
        if resolve:
            self._blit_region(res, staging, region)
        return staging

    def _blit_region(self, src: Resource, dst: Resource, region: _Region) -> None:
        """Blit ``region`` of level 0 from ``src`` to the same place in ``dst``
        (a resolve, or an upsample writing every sample)."""
        desc = region.desc
        mask = (Mask.Z if desc.is_depth else Mask(0)) | (Mask.S if desc.is_stencil else Mask(0))
        b = Box(x=region.x, y=region.y, z=region.z, width=region.w, height=region.h, depth=region.d)
        self.ctx.blit(
            BlitInfo(
                dst=BlitSide(resource=dst, level=0, box=b, format=dst.format),
                src=BlitSide(resource=src, level=0, box=b, format=src.format),
                mask=mask or Mask.RGBA,
            )
        )

    def _write_masked(self, res: Resource, level: int, region: _Region, part: np.ndarray, mask) -> None:
        """Write ``part`` into ``region``; with a DEPTH_ONLY / STENCIL_ONLY
        ``mask``, only the masked bits, the others kept as they are."""
        if mask is not None:
            m = _tile_mask(mask, region.nbx)
            part = (self._read_texture(res, level, region) & ~m) | (part & m)
        self._write_texture(res, level, region, part)

    def transfer_flush_region(self, transfer: Transfer, box: Box) -> None:
        """pipe_context::transfer_flush_region: with FLUSH_EXPLICIT, mark ``box``
        (relative to the mapped box) as written; it is uploaded at unmap."""
        what = "transfer_flush_region"
        self._check_transfer(transfer, what)
        if not isinstance(box, Box):
            raise InvalidArgumentError(f"{what}: box must be a Box, got {type(box).__name__}")
        region = transfer._region
        if transfer.resource.target == Target.BUFFER:
            size = region.size
            if box.width <= 0 or box.x < 0 or box.x + box.width > size:
                raise InvalidArgumentError(f"{what}: box {box!r} is outside the mapped {size} bytes")
            transfer._flushed.append(box)
            if transfer._direct:
                self.ctx.host.make_current()
                flush_mapped_range(self.ctx.host, transfer.resource, region.offset + box.x, box.width)
            return
        # Inside the mapped box first (the rule the caller broke), then the
        # absolute box through the usual checks (block alignment, ...).
        h = box.height or 1 if region.h == 1 else box.height
        d = box.depth or 1 if region.d == 1 else box.depth
        if (
            box.x < 0
            or box.y < 0
            or box.z < 0
            or box.width <= 0
            or h <= 0
            or d <= 0
            or box.x + box.width > region.w
            or box.y + h > region.h
            or box.z + d > region.d
        ):
            raise InvalidArgumentError(f"{what}: box {box!r} is outside the mapped box {transfer.box!r}")
        absolute = Box(
            x=region.x + box.x,
            y=region.y + box.y,
            z=region.z + box.z,
            width=box.width,
            height=box.height,
            depth=box.depth,
        )
        transfer._flushed.append(_texture_region(transfer.resource, transfer.level, absolute, what))

    def _check_transfer(self, transfer, what: str) -> None:
        if not isinstance(transfer, Transfer):
            raise InvalidArgumentError(f"{what}: expected a Transfer, got {type(transfer).__name__}")
        if transfer._context is not self.ctx:
            raise InvalidArgumentError(f"{what}: the transfer belongs to another context")
        if not transfer.mapped:
            raise InvalidArgumentError(f"{what}: the transfer was already unmapped")
        self.ctx.check_alive(what)

    def transfer_unmap(self, transfer: Transfer) -> None:
        """pipe_context::transfer_unmap: upload what a WRITE mapping holds (all
        of it, or the flushed regions with FLUSH_EXPLICIT) and end the mapping."""
        what = "transfer_unmap"
        self._check_transfer(transfer, what)
        usage = transfer._usage
        data = transfer._data
        self._transfers.discard(transfer)
        transfer._data = None
        staging, transfer._staging = transfer._staging, None
        try:
            if usage & _WRITE:
                self._unmap_write(transfer, data, staging)
        finally:
            if staging is not None:
                self.ctx.screen.resource_destroy(staging)
        if not transfer._direct:
            self._pool.give(data)

    def _unmap_write(self, transfer: Transfer, data: np.ndarray, staging: Resource | None) -> None:
        """transfer_unmap of a WRITE map: what the mapping holds reaches the resource."""
        what = "transfer_unmap"
        res, usage = transfer.resource, transfer._usage
        if res.destroyed:
            raise ObjectDestroyedError(f"{what}: the resource was destroyed while mapped")
        self.ctx.host.make_current()
        region = transfer._region
        if transfer._direct:
            # The data is in the mapping already; an unmap without
            # FLUSH_EXPLICIT publishes the whole range (pipe_context::transfer_unmap).
            self.ctx._counters.bytes_uploaded += region.size
            if not usage & _FLUSH_EXPLICIT:
                flush_mapped_range(self.ctx.host, res, region.offset, region.size)
            return
        if res.target == Target.BUFFER:
            offset = region.offset
            if usage & _FLUSH_EXPLICIT:
                for b in transfer._flushed:
                    self._write_buffer(res, offset + b.x, data[b.x : b.x + b.width])
            else:
                self._write_buffer(res, offset, data)
            self.ctx.host.check(what)
            return
        target = res if staging is None else staging
        if usage & _FLUSH_EXPLICIT:
            for sub in transfer._flushed:
                part = data[
                    sub.z - region.z : sub.z - region.z + sub.d,
                    sub.by - region.by : sub.by - region.by + sub.nby,
                    (sub.bx - region.bx) * sub.bs : (sub.bx - region.bx + sub.nbx) * sub.bs,
                ]
                self._write_masked(target, transfer.level, sub, part, transfer._mask)
        else:
            self._write_masked(target, transfer.level, region, data, transfer._mask)
        if staging is not None:
            # Upsample: every sample of each written pixel takes the value.
            self._blit_region(staging, res, region)

    # -- invalidate ----------------------------------------------------------

    def invalidate_resource(self, res: Resource) -> None:
        """pipe_context::invalidate_resource: the contents of ``res`` are
        undefined from now on.  Buffers are invalidated (glInvalidateBufferData)
        or orphaned (mutable storage) so later writes need not wait for the
        GPU; for textures, undefined contents need no host action."""
        what = "invalidate_resource"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        if res.target == Target.BUFFER:
            self.ctx.host.make_current()
            self._invalidate_buffer(res)
            self.ctx.host.check(what)


AREA = Area(
    "transfers_part",
    part=TransferPart,
    methods=(
        "buffer_subdata",
        "texture_subdata",
        "transfer_map",
        "transfer_flush_region",
        "transfer_unmap",
        "invalidate_resource",
    ),
    destroy=TransferPart.destroy,
)

__all__ = ["AREA", "Transfer", "TransferPart"]
