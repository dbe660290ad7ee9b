"""GL access for the transfers area (glpipe/transfer.py): PyOpenGL's raw
pixel-transfer entry points, the pixel-store state a transfer needs, the
read-back of depth/stencil images through a read framebuffer, persistent
buffer mappings, and the channel masks of depth-only / stencil-only maps.

docs/formats.md "Transfers: what round-trips" says why depth/stencil images
are read with glReadPixels; docs/api.md "Transfers" describes the maps.
"""

from __future__ import annotations

import ctypes
import sys
import weakref

import numpy as np

from lowering.errors import HostGLError, InvalidArgumentError

from .dirty import Dirty
from .enums import Map, ResourceFlag
from .format_table import ChannelType
from .formats import util_format_description
from .lifetime import defer_call, delete_now

_raw_gl: dict | None = None


def raw_gl() -> dict:
    """PyOpenGL's unwrapped pixel-transfer entry points (they take plain
    pointers; imported on first use, after glpipe.host.gl chose the platform)."""
    global _raw_gl
    if _raw_gl is None:
        from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_1, GL_1_2, GL_1_3, GL_1_5

        _raw_gl = {
            "get": GL_1_0.glGetTexImage,
            "read": GL_1_0.glReadPixels,
            "cget": GL_1_3.glGetCompressedTexImage,
            "sub1": GL_1_1.glTexSubImage1D,
            "sub2": GL_1_1.glTexSubImage2D,
            "sub3": GL_1_2.glTexSubImage3D,
            "csub1": GL_1_3.glCompressedTexSubImage1D,
            "csub2": GL_1_3.glCompressedTexSubImage2D,
            "csub3": GL_1_3.glCompressedTexSubImage3D,
            "buf_sub": GL_1_5.glBufferSubData,
            "buf_get": GL_1_5.glGetBufferSubData,
            # Unwrapped: PyOpenGL's wrapper costs more than the call (buffer_subdata's fixed cost).
            "bind_buf": GL_1_5.glBindBuffer,
            "bind_tex": GL_1_1.glBindTexture,
            "active_texture": GL_1_3.glActiveTexture,
            "get_int": GL_1_0.glGetIntegerv,
            "pixel_store": GL_1_0.glPixelStorei,
            "finish": GL_1_0.glFinish,
        }
    return _raw_gl


def gl_ptr(arr: np.ndarray) -> ctypes.c_void_p:
    """A raw pointer to ``arr``'s first byte for the unwrapped GL entry points."""
    return ctypes.c_void_p(arr.ctypes.data)


class PixelPath:
    """The GL state a pixel transfer depends on, set for tightly packed
    client memory and restored afterwards: pack/unpack alignment 1 (rows of
    any byte length), no row length / skips / image height, no pixel pack or
    unpack buffer bound (a bound one would turn our pointers into offsets),
    and the texture bound on ModernGL's scratch unit (never a Gallium
    sampler slot), with the previously active unit restored.  Unwrapped
    entry points throughout: PyOpenGL's wrappers cost more than the GL
    calls (the fixed cost of every texture transfer)."""

    def __init__(self, host, res):
        self.host = host
        self.res = res

    def __enter__(self):
        raw = raw_gl()
        get, store, value = raw["get_int"], raw["pixel_store"], _INT
        ptr = ctypes.byref(value)
        saved = []
        for name in _SAVED:
            get(name, ptr)
            saved.append(value.value)
        self.saved = saved
        for name in _ALIGNMENTS:
            store(name, 1)
        for name in _ZEROED:
            store(name, 0)
        if saved[2]:
            raw["bind_buf"](_PIXEL_PACK_BUFFER, 0)
        if saved[3]:
            raw["bind_buf"](_PIXEL_UNPACK_BUFFER, 0)
        raw["active_texture"](_TEXTURE0 + self.host.scratch_texture_unit)
        raw["bind_tex"](self.res.gl_target, self.res.gl_object)
        return self

    def __exit__(self, *exc):
        raw = raw_gl()
        pack_align, unpack_align, pack, unpack, active = self.saved
        raw["bind_tex"](self.res.gl_target, 0)
        raw["active_texture"](active)
        raw["pixel_store"](_ALIGNMENTS[0], pack_align)
        raw["pixel_store"](_ALIGNMENTS[1], unpack_align)
        if pack:
            raw["bind_buf"](_PIXEL_PACK_BUFFER, pack)
        if unpack:
            raw["bind_buf"](_PIXEL_UNPACK_BUFFER, unpack)
        return False


# GL enums of PixelPath (GL 1.0 - 2.1 core; the same in every profile).
_PIXEL_PACK_BUFFER, _PIXEL_UNPACK_BUFFER, _TEXTURE0 = 0x88EB, 0x88EC, 0x84C0
# GL_PACK_ALIGNMENT, GL_UNPACK_ALIGNMENT
_ALIGNMENTS = (0x0D05, 0x0CF5)
# ... then GL_PIXEL_PACK_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER_BINDING, GL_ACTIVE_TEXTURE
_SAVED = (*_ALIGNMENTS, 0x88ED, 0x88EF, 0x84E0)
# GL_PACK_ROW_LENGTH, _SKIP_ROWS, _SKIP_PIXELS, _IMAGE_HEIGHT, _SKIP_IMAGES and the UNPACK ones.
_ZEROED = (0x0D02, 0x0D03, 0x0D04, 0x806C, 0x806B, 0x0CF2, 0x0CF3, 0x0CF4, 0x806E, 0x806D)
_INT = ctypes.c_int()


# The framebuffer attachment that holds each depth/stencil transfer format.
_ZS_ATTACHMENT = {
    "GL_DEPTH_COMPONENT": "GL_DEPTH_ATTACHMENT",
    "GL_DEPTH_STENCIL": "GL_DEPTH_STENCIL_ATTACHMENT",
    "GL_STENCIL_INDEX": "GL_STENCIL_ATTACHMENT",
}


class ZSReader:
    """Reads boxes of depth/stencil images with glReadPixels from a private
    read framebuffer (one per context, made on first use), one layer, face
    or slice attached at a time.

    Why not glGetTexImage: GL defines both through the same pixel pack
    rules, but a host may take a float detour in one of them; llvmpipe's
    glGetTexImage of 32-bit unorm depth in array and cube textures loses
    the low bits (a float has 24 mantissa bits) where glReadPixels of the
    same layer is exact (measured; tests/test_format_roundtrip.py).  Every
    depth/stencil format GL has is renderable (GL 4.5 §9.4), so every such
    image can be attached.
    """

    def __init__(self) -> None:
        self.fbo = 0

    @staticmethod
    def handles(hf) -> bool:
        """Whether host storage ``hf`` (a HostFormat) is read through the framebuffer."""
        return hf.gl_format_name in _ZS_ATTACHMENT

    def read(self, host, res, level: int, shape: str, region) -> np.ndarray:
        """The region's host bytes, (d, h, w * host block size); call inside
        a PixelPath (pack state and pack buffer are set there)."""
        gl = host.gl
        hf = region.host
        if not self.fbo:
            self.fbo = int(gl.glGenFramebuffers(1))
        attachment = getattr(gl, _ZS_ATTACHMENT[hf.gl_format_name])
        out = np.empty((region.d, region.h, region.w * region.host_bs), np.uint8)
        previous = int(gl.glGetIntegerv(gl.GL_READ_FRAMEBUFFER_BINDING))
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.fbo)
        try:
            # A framebuffer with no colour attachment reads nothing else
            # (GL 3.3 counts a read buffer without attachment as incomplete).
            gl.glReadBuffer(gl.GL_NONE)
            for i in range(region.d):
                self._attach(gl, attachment, res.gl_object, res.gl_target, level, shape, region.z + i)
                raw_gl()["read"](region.x, region.y, region.w, region.h, hf.gl_format, hf.gl_type, gl_ptr(out[i]))
            gl.glFramebufferRenderbuffer(gl.GL_READ_FRAMEBUFFER, attachment, gl.GL_RENDERBUFFER, 0)
        finally:
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, previous)
        return out

    @staticmethod
    def _attach(gl, attachment: int, texture: int, target: int, level: int, shape: str, layer: int) -> None:
        """Attach one image of ``texture`` (layer / face / slice ``layer``) for reading."""
        read = gl.GL_READ_FRAMEBUFFER
        if shape == "faces":
            gl.glFramebufferTexture2D(read, attachment, gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer, texture, level)
        elif shape == "1d":
            gl.glFramebufferTexture1D(read, attachment, target, texture, level)
        elif shape == "2d":
            gl.glFramebufferTexture2D(read, attachment, target, texture, level)
        else:  # "3d" (arrays, cube arrays) and "1d_array": one layer
            gl.glFramebufferTextureLayer(read, attachment, texture, level, layer)

    def destroy(self, gl) -> None:
        """Delete the framebuffer (the context's destroy)."""
        if self.fbo:
            gl.glDeleteFramebuffers(1, [self.fbo])
            self.fbo = 0


# --------------------------------------------------------------------------
# Float depth outside [+0, 1]
# --------------------------------------------------------------------------

# Host storage of float depth: (GL pixel format, type) -> 32-bit words per
# texel in the transfer layout; depth is the first word
# (FLOAT_32_UNSIGNED_INT_24_8_REV: depth, then stencil in the low byte of the second).
_FLOAT_DEPTH = {
    ("GL_DEPTH_COMPONENT", "GL_FLOAT"): 1,
    ("GL_DEPTH_STENCIL", "GL_FLOAT_32_UNSIGNED_INT_24_8_REV"): 2,
}
# Every binary32 pattern <= 1.0f as an unsigned integer is +0, a positive
# denormal or a positive float up to 1: the depths a pixel upload keeps.
_ONE_F32 = 0x3F800000
_DEPTH_BUFFER_BIT, _STENCIL_BUFFER_BIT, _NEAREST = 0x00000100, 0x00000400, 0x2600


class FloatDepthWriter:
    """Writes the texels of a float depth upload that GL's pixel transfer
    clamped, with their exact bits (Z32_FLOAT, Z32_FLOAT_S8X24_UINT).

    Gallium stores depth as bytes: a transfer of 1.5, -3, -0 or a NaN into
    a Z32_FLOAT texture reads back as written (llvmpipe, softpipe and
    radeonsi memcpy their transfers), and samplers see it.  GL clamps every
    DEPTH_COMPONENT value a pixel upload brings to [0, 1] (GL 4.5 §8.5,
    Mesa ``_mesa_unpack_depth_span``) and fragment depth too (§15.2.3), but
    a DEPTH_COMPONENT32F image holds any float: ClearBuffer* clamps depth
    for fixed-point depth buffers only (GL 4.5 §17.4.3.1), and a 1:1
    NEAREST glBlitFramebuffer between images of one format copies depth
    (§18.3.1).  Read-back (glReadPixels, glGetTexImage) does not clamp.  So
    after the ordinary upload, the texels whose depth is above 1.0f as bits
    (negatives, -0, > 1, infinities, NaNs) are written again: per distinct
    value, a private width x 1 image of the same internal format is cleared
    to it and blitted onto each run of such texels along a row.  Both are
    GL 3.0 core, so every profile gets it; depth a GL depth buffer holds
    anyway costs nothing.  DEPTH32F_STENCIL8 blits depth and stencil
    together (a depth-only blit of a combined image is drawn through the
    clamped fragment depth on llvmpipe), with the texel's own stencil in the
    cleared image.  What still differs (docs/formats.md): the clear value
    quiets a signalling NaN (bit 22 set, sign and payload kept; GL 4.5
    §2.3.4.1 leaves signalling NaNs to the implementation), and
    DEPTH32F_STENCIL8 stores -0 as +0 on every write path of this host.
    tests/test_format_roundtrip.py measures the host behaviour this relies on.
    """

    def __init__(self) -> None:
        self.scratch: dict[int, tuple[int, int, int]] = {}  # internal format -> (texture, FBO, width)
        self.target_fbo = 0

    @staticmethod
    def handles(hf) -> bool:
        """Whether host storage ``hf`` (a HostFormat) is float depth."""
        return (hf.gl_format_name, hf.gl_type_name) in _FLOAT_DEPTH

    def _scratch(self, gl, hf, width: int) -> int:
        """The FBO of a width x 1 image (at least ``width`` texels) of
        ``hf``'s internal format, made or widened on demand."""
        tex, fbo, have = self.scratch.get(hf.internal_format, (0, 0, 0))
        if have >= width:
            return fbo
        if not tex:
            tex, fbo = int(gl.glGenTextures(1)), int(gl.glGenFramebuffers(1))
        prev = int(gl.glGetIntegerv(gl.GL_TEXTURE_BINDING_2D))
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        raw_tex_image_2d()(gl.GL_TEXTURE_2D, 0, hf.internal_format, width, 1, 0, hf.gl_format, hf.gl_type, None)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAX_LEVEL, 0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, prev)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbo)
        att = getattr(gl, _ZS_ATTACHMENT[hf.gl_format_name])
        gl.glFramebufferTexture2D(gl.GL_DRAW_FRAMEBUFFER, att, gl.GL_TEXTURE_2D, tex, 0)
        gl.glDrawBuffer(gl.GL_NONE)
        gl.glReadBuffer(gl.GL_NONE)
        self.scratch[hf.internal_format] = (tex, fbo, width)
        return fbo

    @staticmethod
    def _runs(region, src: np.ndarray, words: int):
        """The texels to rewrite as runs along rows of equal texels:
        (layer, row, column, length, key) arrays, or None when every depth
        is one the upload keeps.  ``key`` is the depth bits in the high word
        and, for depth-stencil, the stencil in the low byte."""
        texels = np.ascontiguousarray(src).view(np.uint32).reshape(region.d, region.h, region.w, words)
        depth = texels[..., 0]
        need = depth > _ONE_F32
        if not need.any():
            return None
        keys = depth.astype(np.uint64) << np.uint64(32)
        if words == 2:
            keys |= (texels[..., 1] & 0xFF).astype(np.uint64)
        same_left = np.zeros_like(need)
        same_left[..., 1:] = need[..., :-1] & (keys[..., 1:] == keys[..., :-1])
        same_right = np.zeros_like(need)
        same_right[..., :-1] = same_left[..., 1:]
        starts = np.nonzero(need & ~same_left)
        ends = np.nonzero(need & ~same_right)  # in the same (row-major) order as the starts
        return (*starts, ends[2] - starts[2] + 1, keys[starts])

    def rewrite(self, ctx, res, level: int, region, src: np.ndarray) -> None:
        """After ``src`` ((d, nby, nbx * host block) host bytes) was uploaded
        into ``region`` of ``level``: give every texel whose depth the upload
        clamped its exact value."""
        hf = region.host
        words = _FLOAT_DEPTH[(hf.gl_format_name, hf.gl_type_name)]
        runs = self._runs(region, src, words)
        if runs is None:
            return
        layers, rows, cols, lengths, keys = runs
        from OpenGL.raw.GL.VERSION.GL_3_0 import glBlitFramebuffer as blit
        from OpenGL.raw.GL.VERSION.GL_3_0 import glClearBufferfi, glClearBufferfv

        from .blit_gl import _attach

        gl = ctx.gl
        # The state a clear and a blit obey, in Gallium's transfer position
        # (glpipe/clear.py does the same); the context re-emits its own.
        ctx.dirty |= Dirty.FRAMEBUFFER | Dirty.RASTERIZER | Dirty.SCISSOR | Dirty.DSA
        ctx._forget_other_contexts()
        gl.glDisable(gl.GL_RASTERIZER_DISCARD)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glDepthMask(True)
        scratch_fbo = self._scratch(gl, hf, int(lengths.max()))
        if not self.target_fbo:
            self.target_fbo = int(gl.glGenFramebuffers(1))
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, self.target_fbo)
            gl.glDrawBuffer(gl.GL_NONE)
            gl.glReadBuffer(gl.GL_NONE)
        att = getattr(gl, _ZS_ATTACHMENT[hf.gl_format_name])
        if words == 2:
            # Depth and stencil travel together: a depth-only blit of a
            # combined image is not a copy (llvmpipe draws it, through the
            # clamped fragment depth), a DEPTH|STENCIL one is.  The scratch
            # gets the texel's own stencil (the key's low byte), so it is kept.
            gl.glStencilMask(0xFF)
            mask = _DEPTH_BUFFER_BIT | _STENCIL_BUFFER_BIT
        else:
            mask = _DEPTH_BUFFER_BIT
        value = np.zeros(1, np.uint32)
        value_ptr = value.view(np.float32).ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, scratch_fbo)
        try:
            for i in np.unique(layers):
                gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, self.target_fbo)
                _attach(gl, gl.GL_DRAW_FRAMEBUFFER, att, res, level, region.z + int(i))
                status = gl.glCheckFramebufferStatus(gl.GL_DRAW_FRAMEBUFFER)
                if status != gl.GL_FRAMEBUFFER_COMPLETE:
                    ctx.host.clear_errors()
                    raise HostGLError(f"transfer upload: the host cannot attach {res!r} (status 0x{int(status):04x})")
                in_layer = layers == i
                for key in np.unique(keys[in_layer]).tolist():
                    value[0] = key >> 32
                    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, scratch_fbo)
                    if words == 2:
                        glClearBufferfi(gl.GL_DEPTH_STENCIL, 0, float(value.view(np.float32)[0]), key & 0xFF)
                    else:
                        glClearBufferfv(gl.GL_DEPTH, 0, value_ptr)
                    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, self.target_fbo)
                    same = in_layer & (keys == key)
                    for r, c, n in zip(rows[same].tolist(), cols[same].tolist(), lengths[same].tolist(), strict=True):
                        x, y = region.x + c, region.y + r
                        blit(0, 0, n, 1, x, y, x + n, y + 1, mask, _NEAREST)
                gl.glFramebufferRenderbuffer(gl.GL_DRAW_FRAMEBUFFER, att, gl.GL_RENDERBUFFER, 0)
        finally:
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def destroy(self, gl) -> None:
        """Delete the scratch images and FBOs (the context's destroy)."""
        for tex, fbo, _width in self.scratch.values():
            gl.glDeleteFramebuffers(1, [fbo])
            gl.glDeleteTextures(1, [tex])
        self.scratch = {}
        if self.target_fbo:
            gl.glDeleteFramebuffers(1, [self.target_fbo])
            self.target_fbo = 0


def raw_tex_image_2d():
    """PyOpenGL's unwrapped glTexImage2D (its wrapper does not know the
    FLOAT_32_UNSIGNED_INT_24_8_REV type)."""
    from OpenGL.raw.GL.VERSION.GL_1_0 import glTexImage2D

    return glTexImage2D


# --------------------------------------------------------------------------
# Persistent mappings (PIPE_MAP_PERSISTENT on MAP_PERSISTENT buffers)
# --------------------------------------------------------------------------


def persistent_map(host, res) -> np.ndarray:
    """The whole of buffer ``res`` mapped persistently (made on first use and
    kept until the buffer is destroyed), as a uint8 array over GL's pointer.

    One mapping per buffer: GL allows one mapping of a buffer at a time, and
    Gallium allows several transfers of it, so every transfer mapped directly
    (a PERSISTENT one, or any of an immutable buffer) is a view of this one.
    Coherent storage is mapped coherent; the non-coherent storage of a
    MAP_PERSISTENT-only buffer with GL_MAP_FLUSH_EXPLICIT_BIT, so transfer_flush_region /
    memory_barrier(MAPPED_BUFFER) publish writes by glFlushMappedBufferRange
    (GL 4.5 §6.2: a non-coherent mapping's writes reach the server there).
    """
    if res._persistent_map is not None:
        return res._persistent_map
    gl = host.gl
    bits = gl.GL_MAP_READ_BIT | gl.GL_MAP_WRITE_BIT | gl.GL_MAP_PERSISTENT_BIT
    bits |= gl.GL_MAP_FLUSH_EXPLICIT_BIT if coherent_storage_refused(res.flags) else gl.GL_MAP_COHERENT_BIT
    prev = int(gl.glGetIntegerv(gl.GL_COPY_WRITE_BUFFER_BINDING))
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    try:
        ptr = gl.glMapBufferRange(gl.GL_COPY_WRITE_BUFFER, 0, res.width0, bits)
    finally:
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, prev)
    host.check("transfer_map: a persistent mapping")
    address = ptr if isinstance(ptr, int) else ctypes.cast(ptr, ctypes.c_void_p).value
    if not address:
        raise HostGLError(f"transfer_map: glMapBufferRange returned NULL for {res!r}")
    memory = (ctypes.c_uint8 * res.width0).from_address(int(address))
    # Every view's base is this array (numpy stops collapsing bases at the
    # ctypes object), so its reference count tells resource_destroy whether
    # a view still points into the mapping (persistent_views_alive).
    res._persistent_map = np.frombuffer(memory, np.uint8)
    # READ maps view this one: over a read-only buffer, so no view of it can
    # be made writable again (a READ map uploads nothing).
    res._persistent_ro = np.frombuffer(memoryview(memory).toreadonly(), np.uint8)
    # Dropped without resource_destroy, the buffer must outlive views of its
    # mapping too: its finalizer holds the mapping instead of deleting at once.
    finalizer = getattr(res, "_finalizer", None)
    if finalizer is not None and finalizer.detach() is not None:
        res._finalizer = weakref.finalize(
            res, hold_mapped, host, res.gl_object, res._persistent_map, res._persistent_ro
        )
    return res._persistent_map


def hold_mapped(host, name: int, mapping: np.ndarray, mapping_ro: np.ndarray) -> None:
    """Delete buffer ``name`` once no view of its persistent ``mapping`` (or
    its read-only twin) is left: glDeleteBuffers unmaps, which would free
    memory a numpy view still points into.  Checked at each drain on the GL
    thread (glpipe/lifetime.py); safe from finalizers and any thread."""
    _held_mapped.setdefault(host, []).append((name, mapping, mapping_ro))
    defer_call(host, _release_held, host)


# host -> [(GL name, persistent mapping, its read-only twin), ...]: buffers
# destroyed or dropped while a view of their persistent mapping was alive.
_held_mapped: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _release_held(host) -> None:
    """At a drain: delete the held buffers whose views are gone; check the
    rest again at the next drain."""
    held = _held_mapped.pop(host, [])
    # The list's tuple and the loop variable are the two known references.
    keep = [(n, rw, ro) for n, rw, ro in held if persistent_views_alive(rw, 2) or persistent_views_alive(ro, 2)]
    alive = {n for n, _rw, _ro in keep}
    gone = [("buffer", n) for n, _rw, _ro in held if n not in alive]
    del held
    if keep:
        _held_mapped.setdefault(host, []).extend(keep)
        defer_call(host, _release_held, host)
    if gone:
        delete_now(host, gone)


def coherent_storage_refused(flags) -> bool:
    """Whether a buffer made with resource ``flags`` gets non-coherent
    storage: asked for persistent mapping without MAP_COHERENT (every other
    immutable buffer is stored coherent, glpipe/resource.py _alloc_buffer)."""
    return bool(flags & ResourceFlag.MAP_PERSISTENT) and not flags & ResourceFlag.MAP_COHERENT


def persistent_views_alive(array: np.ndarray, owners: int) -> bool:
    """Whether views of a persistent mapping's ``array`` exist beyond the
    ``owners`` references the caller knows of (its own variables)."""
    # This function's parameter and getrefcount's argument are two more.
    return sys.getrefcount(array) > owners + 2


def flush_mapped_range(host, res, offset: int, size: int) -> None:
    """glFlushMappedBufferRange: the CPU's writes to ``size`` bytes at
    ``offset`` of a non-coherent persistent mapping reach later GL commands."""
    if size <= 0 or not coherent_storage_refused(res.flags):
        return  # coherent storage needs no flush (GL 4.5 §6.2)
    gl = host.gl
    prev = int(gl.glGetIntegerv(gl.GL_COPY_WRITE_BUFFER_BINDING))
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    try:
        gl.glFlushMappedBufferRange(gl.GL_COPY_WRITE_BUFFER, offset, size)
    finally:
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, prev)


# --------------------------------------------------------------------------
# Depth-only / stencil-only maps
# --------------------------------------------------------------------------

_ZS_ONLY = Map.DEPTH_ONLY | Map.STENCIL_ONLY


def zs_only_mask(fmt, usage: int, what: str) -> np.ndarray | None:
    """The byte mask of one block that a DEPTH_ONLY / STENCIL_ONLY map of
    ``fmt`` exposes (None: no such flag).  The layout stays the format's
    (p_defines.h PIPE_MAP_DEPTH_ONLY): reads see the other channel as 0,
    writes leave it as it was.  Depth is the UNORM/FLOAT channel of a ZS
    format, stencil the UINT one; their bits are whole bytes in every
    format Gallium has."""
    flag = usage & _ZS_ONLY
    if not flag:
        return None
    if flag == _ZS_ONLY:
        raise InvalidArgumentError(f"{what}: DEPTH_ONLY and STENCIL_ONLY cannot be combined")
    desc = util_format_description(fmt)
    depth = flag == Map.DEPTH_ONLY
    name = "DEPTH_ONLY" if depth else "STENCIL_ONLY"
    if not (desc.is_depth if depth else desc.is_stencil):
        raise InvalidArgumentError(f"{what}: {name} on {desc.name}, which has no {'depth' if depth else 'stencil'}")
    bits = 0
    for ch in desc.channels:
        if ch.type == ChannelType.VOID:
            continue
        if (ch.type != ChannelType.UINT) == depth:
            bits |= ((1 << ch.size) - 1) << ch.shift
    nbytes = desc.block_bits // 8
    return np.frombuffer(bits.to_bytes(nbytes, "little"), np.uint8).copy()


__all__ = [
    "FloatDepthWriter",
    "PixelPath",
    "ZSReader",
    "coherent_storage_refused",
    "flush_mapped_range",
    "gl_ptr",
    "persistent_map",
    "persistent_views_alive",
    "raw_gl",
    "zs_only_mask",
]
