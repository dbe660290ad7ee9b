"""Raw-GL legs for the clear / transfer / fence tests.

Everything here talks to GL directly (PyOpenGL on the screen's context),
never through glpipe's transfer or clear code, so a test can upload with
one side and read back with the other.  Arrays are laid out the way
Gallium boxes count: (layers, rows, row bytes) with row 0 = texel row 0 =
window y 0; layers are array layers, cube faces (layer * 6 + face for cube
arrays) or 3D slices; a 1D array has one row per layer.
"""

from __future__ import annotations

import ctypes

import numpy as np

from glpipe import Bind, ResourceTemplate, Target

_ONE_IMAGE = (Target.TEXTURE_1D, Target.TEXTURE_2D, Target.TEXTURE_RECT)


class PixelStore:
    """Pack/unpack alignment 1 for the duration (restored afterwards)."""

    def __init__(self, gl):
        self.gl = gl

    def __enter__(self):
        gl = self.gl
        self.saved = (int(gl.glGetIntegerv(gl.GL_PACK_ALIGNMENT)), int(gl.glGetIntegerv(gl.GL_UNPACK_ALIGNMENT)))
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
        return self

    def __exit__(self, *exc):
        self.gl.glPixelStorei(self.gl.GL_PACK_ALIGNMENT, self.saved[0])
        self.gl.glPixelStorei(self.gl.GL_UNPACK_ALIGNMENT, self.saved[1])


def level_shape(res, level, bytes_per_texel):
    """(layers, rows, row_bytes) of a whole level in the layout above."""
    w, h, d = res.level_extent(level)
    return d, h, w * bytes_per_texel


def _raw_gl():
    """PyOpenGL's unwrapped entry points: plain pointers, no conversion of the
    data by the ``type`` argument (the wrapped ones convert arrays)."""
    from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_1, GL_1_2

    return GL_1_0.glGetTexImage, GL_1_1.glTexSubImage1D, GL_1_1.glTexSubImage2D, GL_1_2.glTexSubImage3D


def _p(arr):
    return ctypes.c_void_p(arr.ctypes.data)


def raw_read_level(screen, res, level, gl_format, gl_type, bytes_per_texel) -> np.ndarray:
    """The whole ``level`` of texture ``res`` through glGetTexImage."""
    gl = screen.host.gl
    get, _, _, _ = _raw_gl()
    layers, rows, row = level_shape(res, level, bytes_per_texel)
    out = np.zeros((layers, rows, row), np.uint8)
    target = res.gl_target
    with PixelStore(gl):
        gl.glBindTexture(target, res.gl_object)
        if res.target == Target.TEXTURE_CUBE:
            for face in range(6):
                img = np.zeros((rows, row), np.uint8)
                get(gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, level, gl_format, gl_type, _p(img))
                out[face] = img
        else:
            get(target, level, gl_format, gl_type, _p(out))
        gl.glBindTexture(target, 0)
    assert screen.host.clear_errors() == []
    return out


def raw_write_level(screen, res, level, gl_format, gl_type, data: np.ndarray) -> None:
    """Replace the whole ``level`` of ``res`` with ``data`` (layers, rows, row bytes)."""
    gl = screen.host.gl
    _, sub1, sub2, sub3 = _raw_gl()
    w, h, d = res.level_extent(level)
    data = np.ascontiguousarray(data).view(np.uint8)
    target = res.gl_target
    with PixelStore(gl):
        gl.glBindTexture(target, res.gl_object)
        if res.target == Target.TEXTURE_CUBE:
            for face in range(6):
                sub2(
                    gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                    level,
                    0,
                    0,
                    w,
                    h,
                    gl_format,
                    gl_type,
                    _p(np.ascontiguousarray(data[face])),
                )
        elif res.target == Target.TEXTURE_1D:
            sub1(target, level, 0, w, gl_format, gl_type, _p(data))
        elif res.target == Target.TEXTURE_1D_ARRAY:
            sub2(target, level, 0, 0, w, d, gl_format, gl_type, _p(data))
        elif res.target in _ONE_IMAGE:
            sub2(target, level, 0, 0, w, h, gl_format, gl_type, _p(data))
        else:
            sub3(target, level, 0, 0, 0, w, h, d, gl_format, gl_type, _p(data))
        gl.glBindTexture(target, 0)
    assert screen.host.clear_errors() == []


def raw_read_compressed(screen, res, level, nbytes) -> np.ndarray:
    """glGetCompressedTexImage of a 2D texture level (flat bytes)."""
    from OpenGL.raw.GL.VERSION.GL_1_3 import glGetCompressedTexImage

    gl = screen.host.gl
    out = np.zeros(nbytes, np.uint8)
    gl.glBindTexture(res.gl_target, res.gl_object)
    glGetCompressedTexImage(res.gl_target, level, ctypes.c_void_p(out.ctypes.data))
    gl.glBindTexture(res.gl_target, 0)
    assert screen.host.clear_errors() == []
    return out


def raw_write_compressed(screen, res, level, width, height, data: np.ndarray) -> None:
    """glCompressedTexSubImage2D of a whole 2D level."""
    from OpenGL.raw.GL.VERSION.GL_1_3 import glCompressedTexSubImage2D

    gl = screen.host.gl
    data = np.ascontiguousarray(data, np.uint8)
    gl.glBindTexture(res.gl_target, res.gl_object)
    glCompressedTexSubImage2D(
        res.gl_target,
        level,
        0,
        0,
        width,
        height,
        res.storage.internal_format,
        data.nbytes,
        ctypes.c_void_p(data.ctypes.data),
    )
    gl.glBindTexture(res.gl_target, 0)
    assert screen.host.clear_errors() == []


def raw_read_buffer(screen, res) -> np.ndarray:
    """Every byte of buffer ``res`` through glGetBufferSubData."""
    gl = screen.host.gl
    out = np.zeros(res.width0, np.uint8)
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
    gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, res.width0, out)
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
    assert screen.host.clear_errors() == []
    return out


def raw_write_buffer(screen, res, data: np.ndarray) -> None:
    """Replace every byte of buffer ``res``."""
    gl = screen.host.gl
    data = np.ascontiguousarray(data, np.uint8)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, data.nbytes, data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    assert screen.host.clear_errors() == []


def texture(screen, target, fmt, width, height=1, depth=1, array_size=1, last_level=0, bind=Bind.SAMPLER_VIEW):
    """A texture resource (glpipe's resource_create: it is not under test here)."""
    return screen.resource_create(
        ResourceTemplate(
            target=target,
            format=fmt,
            width0=width,
            height0=height,
            depth0=depth,
            array_size=array_size,
            last_level=last_level,
            bind=bind,
        )
    )
