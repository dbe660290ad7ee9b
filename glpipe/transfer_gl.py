"""GL access for the transfers area (glpipe/transfer.py): PyOpenGL's raw
pixel-transfer entry points, the pixel-store state a transfer needs, and
the read-back of depth/stencil images through a read framebuffer.

docs/formats.md "Transfers: what round-trips" says why depth/stencil images
are read with glReadPixels.
"""

from __future__ import annotations

import ctypes

import numpy as np

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


__all__ = ["PixelPath", "ZSReader", "gl_ptr", "raw_gl"]
