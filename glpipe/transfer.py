"""Transfers (the transfers area, ``TransferPart``): transfer_map /
transfer_unmap, transfer_flush_region, buffer_subdata, texture_subdata,
invalidate_resource.

A mapping is a staging copy in host memory handed out as a numpy array
(GL cannot map textures, and a glMapBufferRange pointer would dangle after
unmapping).  docs/api.md "Transfers" gives the shape of ``Transfer.data``,
the boxes and the usage flags.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .boundary import integer, show
from .enums import Map, Target, Usage, all_flag_bits
from .formats import host_decodes, util_format_description
from .part import Area, Part
from .resource import _BUFFER_DATA_USAGE, Resource
from .templates import Box

if TYPE_CHECKING:  # the buffer protocol's type (collections.abc.Buffer from Python 3.12); typing only
    from typing_extensions import Buffer

# Not sum(Map): before Python 3.11 that adds NONE and READ_WRITE too (defs.flag_bits).
_ALL_MAP_BITS = all_flag_bits(Map)
_READ_FORBIDS = Map.DISCARD_RANGE | Map.DISCARD_WHOLE_RESOURCE | Map.UNSYNCHRONIZED | Map.FLUSH_EXPLICIT
_DISCARDS = Map.DISCARD_RANGE | Map.DISCARD_WHOLE_RESOURCE

# Which box dimensions a target has: (y, z).  z counts layers / faces /
# slices; a 1D array's layers are z as well (context.rst), height is 1.
_HAS_YZ = {
    Target.TEXTURE_1D: (False, False),
    Target.TEXTURE_2D: (True, False),
    Target.TEXTURE_RECT: (True, False),
    Target.TEXTURE_3D: (True, True),
    Target.TEXTURE_CUBE: (True, True),
    Target.TEXTURE_1D_ARRAY: (False, True),
    Target.TEXTURE_2D_ARRAY: (True, True),
    Target.TEXTURE_CUBE_ARRAY: (True, True),
}

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

_raw_gl: dict | None = None


def _raw() -> dict:
    """PyOpenGL's unwrapped pixel-transfer entry points (they take plain
    pointers; imported on first use, after glpipe.host.gl chose the platform)."""
    global _raw_gl
    if _raw_gl is None:
        from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_1, GL_1_2, GL_1_3, GL_1_5

        _raw_gl = {
            "get": GL_1_0.glGetTexImage,
            "cget": GL_1_3.glGetCompressedTexImage,
            "sub1": GL_1_1.glTexSubImage1D,
            "sub2": GL_1_1.glTexSubImage2D,
            "sub3": GL_1_2.glTexSubImage3D,
            "csub1": GL_1_3.glCompressedTexSubImage1D,
            "csub2": GL_1_3.glCompressedTexSubImage2D,
            "csub3": GL_1_3.glCompressedTexSubImage3D,
            "buf_sub": GL_1_5.glBufferSubData,
            "buf_get": GL_1_5.glGetBufferSubData,
        }
    return _raw_gl


def _ptr(arr: np.ndarray) -> ctypes.c_void_p:
    return ctypes.c_void_p(arr.ctypes.data)


def _aligned_empty(nbytes: int, align: int, phase: int = 0) -> np.ndarray:
    """A uint8 array of ``nbytes`` whose address is ``phase`` modulo ``align``."""
    align = max(1, align)
    raw = np.empty(nbytes + align, np.uint8)
    off = (phase - raw.ctypes.data) % align
    return raw[off : off + nbytes]


def _bytes_of(data, what: str) -> np.ndarray:
    """Any buffer-protocol object (or numpy array) as a flat uint8 array."""
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    try:
        mv = memoryview(data)
    except TypeError:
        raise InvalidArgumentError(
            f"{what}: data must support the buffer protocol, got {type(data).__name__}"
        ) from None
    if not mv.c_contiguous:
        raise InvalidArgumentError(f"{what}: data must be C-contiguous")
    return np.frombuffer(mv.cast("B"), np.uint8)


def _int_arg(value, name: str, what: str, ctype: str = "uint32") -> int:
    """An integer argument inside its C type (p_context.h: ``unsigned``
    level, usage, offset and stride; ``uintptr_t`` layer_stride)."""
    return integer(value, f"{what}: {name}", ctype)


# --------------------------------------------------------------------------
# Regions: a box validated against a resource level
# --------------------------------------------------------------------------


class _Region:
    """A validated box of one level, in texels and in blocks, with the
    byte layout of its staging copy."""

    __slots__ = (
        "bs",
        "bx",
        "by",
        "compressed",
        "d",
        "decoded",
        "desc",
        "h",
        "host",
        "host_bs",
        "layer_stride",
        "level_extent",
        "nbx",
        "nby",
        "nbytes",
        "stride",
        "w",
        "x",
        "y",
        "z",
    )

    def __init__(self, res, level, x, y, z, w, h, d):
        desc = util_format_description(res.format)
        host = res.storage
        self.x, self.y, self.z, self.w, self.h, self.d = x, y, z, w, h, d
        self.desc, self.host = desc, host
        self.compressed = bool(host.compressed)
        # Compressed data the host stores decoded (fallback.compressed).
        self.decoded = host_decodes(desc, host)
        bw, bh = desc.block_width, desc.block_height
        self.bx, self.by = x // bw, y // bh
        self.nbx = -(-w // bw)
        self.nby = -(-h // bh)
        self.bs = desc.blocksize
        self.host_bs = util_format_description(host.transfer_as).blocksize if host.transfer_as is not None else self.bs
        self.stride = self.nbx * self.bs
        self.layer_stride = self.stride * self.nby
        self.nbytes = self.layer_stride * d
        self.level_extent = res.level_extent(level)


def _check_usage(usage, what: str) -> Map:
    u = _int_arg(usage, "usage", what)
    if u < 0 or u & ~_ALL_MAP_BITS:
        raise InvalidArgumentError(f"{what}: unknown PIPE_MAP bits {u & ~_ALL_MAP_BITS:#x}")
    return Map(u)


def _texture_region(res, level, box, what: str) -> _Region:
    """Validate ``box`` against ``level`` of texture ``res``."""
    if res.nr_samples > 1:
        raise UnsupportedError(
            f"{what}: multisampled textures cannot be mapped or written by glpipe (resolve with a blit first)"
        )
    level = _int_arg(level, "level", what)
    if not 0 <= level <= res.last_level:
        raise InvalidArgumentError(f"{what}: level {level} outside the resource's levels 0..{res.last_level}")
    if not isinstance(box, Box):
        raise InvalidArgumentError(f"{what}: box must be a Box, got {type(box).__name__}")
    lw, lh, ld = res.level_extent(level)
    has_y, has_z = _HAS_YZ[Target(res.target)]
    x, w = box.x, box.width
    y, h = (box.y, box.height) if has_y else (box.y, box.height or 1)
    z, d = (box.z, box.depth) if has_z else (box.z, box.depth or 1)
    if not has_y and (y != 0 or h != 1):
        raise InvalidArgumentError(
            f"{what}: box {box!r}: a {Target(res.target).name} has no y; y must be 0 and height 0 or 1"
        )
    if not has_z and (z != 0 or d != 1):
        raise InvalidArgumentError(
            f"{what}: box {box!r}: a {Target(res.target).name} has no layers; z must be 0 and depth 0 or 1"
        )
    if w <= 0 or h <= 0 or d <= 0:
        raise InvalidArgumentError(f"{what}: box {box!r} is empty or negative")
    if x < 0 or y < 0 or z < 0 or x + w > lw or y + h > lh or z + d > ld:
        raise InvalidArgumentError(
            f"{what}: box {box!r} is outside level {level} of the resource ({lw}x{lh}, {ld} layers/slices)"
        )
    region = _Region(res, level, x, y, z, w, h, d)
    desc = region.desc
    bw, bh = desc.block_width, desc.block_height
    misaligned = x % bw or y % bh or (w % bw and x + w != lw) or (h % bh and y + h != lh)
    if (bw > 1 or bh > 1) and misaligned:
        raise InvalidArgumentError(
            f"{what}: box {box!r} of compressed {desc.name} must be aligned to its {bw}x{bh} blocks "
            f"(or end at the level's edge {lw}x{lh})"
        )
    return region


class _BufferRange(NamedTuple):
    """The mapped bytes of a buffer transfer (its ``_region``)."""

    offset: int
    size: int


def _buffer_range(res, box, what: str) -> _BufferRange:
    if not isinstance(box, Box):
        raise InvalidArgumentError(f"{what}: box must be a Box, got {type(box).__name__}")
    if box.y != 0 or box.z != 0 or box.height not in (0, 1) or box.depth not in (0, 1):
        raise InvalidArgumentError(f"{what}: box {box!r}: a buffer box has y = z = 0 and height/depth 0 or 1")
    if box.width <= 0:
        raise InvalidArgumentError(f"{what}: box {box!r} is empty or negative")
    if box.x < 0 or box.x + box.width > res.width0:
        raise InvalidArgumentError(
            f"{what}: box {box!r} (bytes {box.x}..{box.x + box.width - 1}) is outside the {res.width0}-byte buffer"
        )
    return _BufferRange(box.x, box.width)


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
        "_flushed",
        "_layer_stride",
        "_level",
        "_region",
        "_resource",
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

    resource = property(lambda self: self._resource, doc="The mapped Resource.")
    level = property(lambda self: self._level, doc="The mapped mip level.")
    usage = property(lambda self: self._usage, doc="PIPE_MAP_* flags of the mapping.")
    box = property(lambda self: self._box, doc="The mapped Box, as given to transfer_map.")
    stride = property(lambda self: self._stride, doc="Bytes from one row of blocks to the next.")
    layer_stride = property(lambda self: self._layer_stride, doc="Bytes from one layer/slice to the next.")
    data = property(lambda self: self._data, doc="The mapped bytes (numpy uint8); None once unmapped.")

    @property
    def mapped(self) -> bool:
        """False after transfer_unmap (or the context's destroy)."""
        return self._data is not None

    def __repr__(self) -> str:
        state = "mapped" if self.mapped else "unmapped"
        return f"<glpipe.Transfer {state} level {self._level} {self._box!r} usage={int(self._usage):#x}>"


# --------------------------------------------------------------------------
# GL access helpers
# --------------------------------------------------------------------------


class _PixelPath:
    """The GL state a pixel transfer depends on, set for tightly packed
    client memory and restored afterwards: pack/unpack alignment 1 (rows of
    any byte length), no row length / skips / image height, no pixel pack or
    unpack buffer bound (a bound one would turn our pointers into offsets),
    and the texture bound on ModernGL's scratch unit (never a Gallium
    sampler slot), with the previously active unit restored."""

    _STORE = ("GL_PACK_ALIGNMENT", "GL_UNPACK_ALIGNMENT")
    _ZERO = (
        "GL_PACK_ROW_LENGTH",
        "GL_PACK_SKIP_ROWS",
        "GL_PACK_SKIP_PIXELS",
        "GL_PACK_IMAGE_HEIGHT",
        "GL_PACK_SKIP_IMAGES",
        "GL_UNPACK_ROW_LENGTH",
        "GL_UNPACK_SKIP_ROWS",
        "GL_UNPACK_SKIP_PIXELS",
        "GL_UNPACK_IMAGE_HEIGHT",
        "GL_UNPACK_SKIP_IMAGES",
    )

    def __init__(self, host, res):
        self.host = host
        self.res = res

    def __enter__(self):
        gl = self.host.gl
        self.saved_align = [int(gl.glGetIntegerv(getattr(gl, n))) for n in self._STORE]
        for n in self._STORE:
            gl.glPixelStorei(getattr(gl, n), 1)
        for n in self._ZERO:
            gl.glPixelStorei(getattr(gl, n), 0)
        self.pack = int(gl.glGetIntegerv(gl.GL_PIXEL_PACK_BUFFER_BINDING))
        self.unpack = int(gl.glGetIntegerv(gl.GL_PIXEL_UNPACK_BUFFER_BINDING))
        if self.pack:
            gl.glBindBuffer(gl.GL_PIXEL_PACK_BUFFER, 0)
        if self.unpack:
            gl.glBindBuffer(gl.GL_PIXEL_UNPACK_BUFFER, 0)
        self.active = int(gl.glGetIntegerv(gl.GL_ACTIVE_TEXTURE))
        gl.glActiveTexture(gl.GL_TEXTURE0 + self.host.scratch_texture_unit)
        gl.glBindTexture(self.res.gl_target, self.res.gl_object)
        return self

    def __exit__(self, *exc):
        gl = self.host.gl
        gl.glBindTexture(self.res.gl_target, 0)
        gl.glActiveTexture(self.active)
        for n, v in zip(self._STORE, self.saved_align, strict=True):
            gl.glPixelStorei(getattr(gl, n), v)
        if self.pack:
            gl.glBindBuffer(gl.GL_PIXEL_PACK_BUFFER, self.pack)
        if self.unpack:
            gl.glBindBuffer(gl.GL_PIXEL_UNPACK_BUFFER, self.unpack)
        return False


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
        self._map_alignment = max(1, int(ctx.screen.profile.limit("GL_MIN_MAP_BUFFER_ALIGNMENT") or 64))

    def destroy(self) -> None:
        """Context.destroy: mappings still open are dropped unwritten (Gallium
        leaves that undefined; nothing can be uploaded any more)."""
        for t in self._transfers:
            t._data = None
        self._transfers = set()

    # -- buffers -------------------------------------------------------------

    def _read_buffer(self, res, offset: int, out: np.ndarray) -> None:
        gl = self.ctx.gl
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
        _raw()["buf_get"](gl.GL_COPY_READ_BUFFER, offset, out.nbytes, _ptr(out))
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        self.ctx.screen.counters.bytes_downloaded += out.nbytes

    def _write_buffer(self, res, offset: int, src: np.ndarray) -> None:
        gl = self.ctx.gl
        src = np.ascontiguousarray(src)
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
        _raw()["buf_sub"](gl.GL_COPY_WRITE_BUFFER, offset, src.nbytes, _ptr(src))
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
        self.ctx.screen.counters.bytes_uploaded += src.nbytes

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
        usage = _check_usage(usage, what)
        offset = _int_arg(offset, "offset", what)
        src = _bytes_of(data, what)
        if offset < 0 or offset + src.size > res.width0:
            raise InvalidArgumentError(
                f"{what}: {src.size} bytes at offset {offset} do not fit the {res.width0}-byte buffer"
            )
        if src.size == 0:
            return
        self.ctx.host.make_current()
        if usage & Map.DISCARD_WHOLE_RESOURCE:
            self._invalidate_buffer(res)
        self._write_buffer(res, offset, src)
        self.ctx.host.check(what)

    # -- textures ------------------------------------------------------------

    def _read_texture(self, res, level: int, region: _Region) -> np.ndarray:
        """The region's bytes in the Gallium format: (d, nby, stride)."""
        if region.decoded:
            # The host holds decoded texels: answer from the compressed bytes
            # the application wrote (docs/formats.md "Read-back").
            return res.compressed_shadow.load(level, region.z, region.by, region.bx, region.d, region.nby, region.nbx)
        gl = self.ctx.gl
        raw = _raw()
        hf = region.host
        lw, lh, ld = region.level_extent
        shape = _GL_SHAPE[Target(res.target)]
        desc = region.desc
        if region.compressed:
            rows = -(-lh // desc.block_height)
            row_bytes = -(-lw // desc.block_width) * desc.blocksize
        else:
            rows, row_bytes = lh, lw * region.host_bs
        with _PixelPath(self.ctx.host, res):
            if shape == "faces":
                images = []
                for face in range(region.z, region.z + region.d):
                    buf = np.empty(_level_image_bytes(region, 1), np.uint8)
                    target = gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face
                    if region.compressed:
                        raw["cget"](target, level, _ptr(buf))
                    else:
                        raw["get"](target, level, hf.gl_format, hf.gl_type, _ptr(buf))
                    self.ctx.screen.counters.bytes_downloaded += buf.nbytes
                    images.append(buf.reshape(1, rows, row_bytes))
                full = np.concatenate(images)
                z0 = 0
            else:
                layers = ld if shape in ("3d", "1d_array") else 1
                buf = np.empty(_level_image_bytes(region, layers), np.uint8)
                if region.compressed:
                    raw["cget"](res.gl_target, level, _ptr(buf))
                else:
                    raw["get"](res.gl_target, level, hf.gl_format, hf.gl_type, _ptr(buf))
                self.ctx.screen.counters.bytes_downloaded += buf.nbytes
                # A 1D array's layers are the rows of its GL image.
                full = buf.reshape(layers, rows if shape != "1d_array" else 1, row_bytes)
                z0 = region.z
        self.ctx.host.check("transfer read-back")
        hbs = region.bs if region.compressed else region.host_bs
        part = full[
            z0 : z0 + region.d, region.by : region.by + region.nby, region.bx * hbs : (region.bx + region.nbx) * hbs
        ]
        if hf.transfer_as is None:
            return np.ascontiguousarray(part)
        from fallback.format_pack import from_host

        count = region.d * region.nby * region.nbx
        out = from_host(region.desc.format, hf, np.ascontiguousarray(part).reshape(-1), count)
        return np.asarray(out, np.uint8).reshape(region.d, region.nby, region.stride)

    def _write_texture(self, res, level: int, region: _Region, src: np.ndarray) -> None:
        """Upload ``src`` ((d, nby, stride) bytes of the Gallium format) into the region."""
        gl = self.ctx.gl
        raw = _raw()
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
        with _PixelPath(self.ctx.host, res):
            if shape == "faces":
                for i in range(d):
                    face = gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + z + i
                    layer = np.ascontiguousarray(src[i])
                    if region.compressed:
                        raw["csub2"](face, level, x, y, w, h, ifmt, layer.nbytes, _ptr(layer))
                    else:
                        raw["sub2"](face, level, x, y, w, h, fmt, typ, _ptr(layer))
            elif region.compressed:
                if shape == "3d":
                    raw["csub3"](target, level, x, y, z, w, h, d, ifmt, src.nbytes, _ptr(src))
                elif shape == "1d_array":
                    raw["csub2"](target, level, x, z, w, d, ifmt, src.nbytes, _ptr(src))
                elif shape == "2d":
                    raw["csub2"](target, level, x, y, w, h, ifmt, src.nbytes, _ptr(src))
                else:
                    raw["csub1"](target, level, x, w, ifmt, src.nbytes, _ptr(src))
            elif shape == "3d":
                raw["sub3"](target, level, x, y, z, w, h, d, fmt, typ, _ptr(src))
            elif shape == "1d_array":
                raw["sub2"](target, level, x, z, w, d, fmt, typ, _ptr(src))
            elif shape == "2d":
                raw["sub2"](target, level, x, y, w, h, fmt, typ, _ptr(src))
            else:
                raw["sub1"](target, level, x, w, fmt, typ, _ptr(src))
        self.ctx.screen.counters.bytes_uploaded += src.nbytes
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
        bytes; None for Map.DIRECTLY (glpipe never maps directly)."""
        what = "transfer_map"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        usage = _check_usage(usage, what)
        if not usage & Map.READ_WRITE:
            raise InvalidArgumentError(f"{what}: usage {usage!r} has neither READ nor WRITE")
        if usage & Map.READ and usage & _READ_FORBIDS:
            raise InvalidArgumentError(
                f"{what}: {Map(usage & _READ_FORBIDS)!r} cannot be combined with READ (context.rst PIPE_MAP)"
            )
        if usage & (Map.PERSISTENT | Map.COHERENT):
            raise UnsupportedError(
                f"{what}: PERSISTENT/COHERENT mappings are not supported (PIPE_CAP_BUFFER_MAP_PERSISTENT_COHERENT is 0)"
            )
        if usage & (Map.DEPTH_ONLY | Map.STENCIL_ONLY):
            raise UnsupportedError(f"{what}: DEPTH_ONLY / STENCIL_ONLY mappings are not supported")
        if usage & Map.DIRECTLY:
            return None
        fill = bool(usage & Map.READ) or not usage & _DISCARDS
        if res.target == Target.BUFFER:
            if _int_arg(level, "level", what) != 0:
                raise InvalidArgumentError(f"{what}: a buffer has only level 0, got {level}")
            offset, size = _buffer_range(res, box, what)
            data = _aligned_empty(size, self._map_alignment, offset)
            self.ctx.host.make_current()
            if usage & Map.DISCARD_WHOLE_RESOURCE:
                self._invalidate_buffer(res)
            if fill:
                self._read_buffer(res, offset, data)
            else:
                data[:] = 0
            self.ctx.host.check(what)
            t = Transfer(self.ctx, res, 0, usage, box, _BufferRange(offset, size), data, size, size)
        else:
            region = _texture_region(res, level, box, what)
            staging = _aligned_empty(region.nbytes, 64).reshape(region.d, region.nby, region.stride)
            if fill:
                self.ctx.host.make_current()
                staging[...] = self._read_texture(res, int(level), region)
            else:
                staging[...] = 0
            t = Transfer(self.ctx, res, int(level), usage, box, region, staging, region.stride, region.layer_stride)
        self._transfers.add(t)
        return t

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
        res = transfer.resource
        usage = transfer.usage
        data = transfer._data
        self._transfers.discard(transfer)
        transfer._data = None
        if not usage & Map.WRITE:
            return
        if res.destroyed:
            raise ObjectDestroyedError(f"{what}: the resource was destroyed while mapped")
        self.ctx.host.make_current()
        region = transfer._region
        if res.target == Target.BUFFER:
            offset = region.offset
            if usage & Map.FLUSH_EXPLICIT:
                for b in transfer._flushed:
                    self._write_buffer(res, offset + b.x, data[b.x : b.x + b.width])
            else:
                self._write_buffer(res, offset, data)
            self.ctx.host.check(what)
            return
        if usage & Map.FLUSH_EXPLICIT:
            for sub in transfer._flushed:
                part = data[
                    sub.z - region.z : sub.z - region.z + sub.d,
                    sub.by - region.by : sub.by - region.by + sub.nby,
                    (sub.bx - region.bx) * sub.bs : (sub.bx - region.bx + sub.nbx) * sub.bs,
                ]
                self._write_texture(res, transfer.level, sub, part)
        else:
            self._write_texture(res, transfer.level, region, data)

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
