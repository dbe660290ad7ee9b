"""Presenting: ``pipe_screen::flush_frontbuffer`` and the drawables it
presents into.

A Gallium frontend renders a frame into a resource created with
``Bind.DISPLAY_TARGET`` and hands it to ``screen.flush_frontbuffer(ctx,
resource, level, layer, drawable, sub_box)``; the winsys copies it into the
window (Mesa: src/gallium/docs/source/screen.rst, "flush_frontbuffer").
Here the winsys is a *drawable*: something with a GL framebuffer that a
window system shows (``WindowDrawable``: a window's default framebuffer,
name 0, on the window's own GL context) or a stand-in with the same
conventions for machines without a display (``OffscreenDrawable``: a
renderbuffer FBO on the screen's context).

The one y-flip (docs/coordinates.md "Where a flip does happen: presenting")
happens here and only here: Gallium's window row 0 is the *top* of the
picture, a GL default framebuffer's row 0 is the *bottom* of the screen, so
row y of the resource lands on row ``height - 1 - y`` of the drawable.  The
copy is glBlitFramebuffer with the destination rectangle's y bounds swapped
(GL 4.5 section 18.3.1: a reversed rectangle mirrors), 1:1, no scaling, clipped
to the drawable.  A minimised drawable (size 0) presents nothing, which is
not an error.
"""

from __future__ import annotations

import numpy as np

from lowering.errors import InvalidArgumentError

from .boundary import instance, uint32
from .copy import check_level, texture_box
from .dirty import Dirty
from .enums import Bind, Target
from .templates import Box

# screen.rst: flush_frontbuffer takes a resource the frontend created for
# display; is_format_supported accepts DISPLAY_TARGET / SCANOUT for 2D and
# RECT single-sampled textures of the display formats only (formats.py).
_PRESENT_BINDS = Bind.DISPLAY_TARGET | Bind.SCANOUT


class Drawable:
    """What ``flush_frontbuffer`` presents into (the winsys drawable handle).

    Subclasses say which GL context owns the framebuffer (``mgl``), its name
    (``framebuffer``), its size and whether it is shown at all; ``swap``
    makes a presented frame visible.  Every drawable counts the frames
    presented into it (``frames``)."""

    mgl = None

    def __init__(self) -> None:
        self.frames = 0

    @property
    def framebuffer(self) -> int:
        """GL name of the framebuffer the frame is copied into."""
        raise InvalidArgumentError(f"{type(self).__name__} has no framebuffer")

    def size(self) -> tuple[int, int]:
        """(width, height) of the framebuffer in pixels; (0, 0) when minimised."""
        raise InvalidArgumentError(f"{type(self).__name__} has no size")

    def swap(self) -> None:
        """Make the frame just copied visible (a window swaps its buffers)."""
        self.frames += 1


class OffscreenDrawable(Drawable):
    """A window's default framebuffer without a window: an RGBA8 renderbuffer
    FBO on ``screen``'s GL context with GL's conventions (row 0 at the bottom
    of the picture), for machines with no display (GLPIPE_WINDOW=offscreen)
    and for tests.  ``resize`` recreates the renderbuffer; ``read`` is what a
    screen capture of the window would show, first row at the top."""

    def __init__(self, screen, width: int, height: int) -> None:
        super().__init__()
        self.host = screen.host
        self.mgl = self.host.mgl
        self._fbo = 0
        self._rbo = 0
        self._size = (0, 0)
        self.resize(width, height)

    @property
    def framebuffer(self) -> int:
        """GL name of the private FBO standing in for the default framebuffer."""
        if not self._fbo:
            raise InvalidArgumentError("OffscreenDrawable: released")
        return self._fbo

    def size(self) -> tuple[int, int]:
        """(width, height); (0, 0) stands for a minimised window."""
        return self._size

    def resize(self, width: int, height: int) -> None:
        """Recreate the renderbuffer at ``width`` x ``height`` (0 x 0 = minimised),
        cleared to transparent black, as a resized window's buffer would be."""
        width, height = uint32(width, "OffscreenDrawable: width"), uint32(height, "OffscreenDrawable: height")
        self.release()
        self._size = (width, height)
        if not width or not height:
            return
        host = self.host
        gl = host.gl
        host.make_current()
        self._fbo = int(gl.glGenFramebuffers(1))
        self._rbo = int(gl.glGenRenderbuffers(1))
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, self._rbo)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, width, height)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._fbo)
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, self._rbo)
        gl.glClearColor(0.0, 0.0, 0.0, 0.0)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glColorMask(True, True, True, True)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        host.check("OffscreenDrawable.resize")

    def read_gl_rows(self) -> np.ndarray:
        """The framebuffer through glReadPixels: (height, width, 4) uint8,
        row 0 = GL window row 0 (the bottom of the picture)."""
        width, height = self._size
        if not width or not height:
            return np.zeros((height, width, 4), np.uint8)
        host = self.host
        gl = host.gl
        host.make_current()
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self._fbo)
        gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glBindBuffer(gl.GL_PIXEL_PACK_BUFFER, 0)
        data = gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE)
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, 0)
        host.check("OffscreenDrawable.read")
        return np.frombuffer(bytes(data), np.uint8).reshape(height, width, 4).copy()

    def read(self) -> np.ndarray:
        """What the window shows, first row at the top (image order)."""
        return self.read_gl_rows()[::-1].copy()

    def release(self) -> None:
        """Delete the FBO and renderbuffer (idempotent)."""
        if self._fbo or self._rbo:
            gl = self.host.gl
            self.host.make_current()
            if self._fbo:
                gl.glDeleteFramebuffers(1, [self._fbo])
            if self._rbo:
                gl.glDeleteRenderbuffers(1, [self._rbo])
        self._fbo = self._rbo = 0


class WindowDrawable(Drawable):
    """A glfw window's default framebuffer (GL name 0) on the window's own
    ModernGL context ``mgl``: the screen presenting into it must be created
    with ``create_screen(gl=mgl)``.  Minimised (iconified, or a zero-sized
    framebuffer) it reports size (0, 0)."""

    def __init__(self, glfw, window, mgl) -> None:
        super().__init__()
        self.glfw, self.window, self.mgl = glfw, window, mgl

    @property
    def framebuffer(self) -> int:
        """The default framebuffer."""
        return 0

    def size(self) -> tuple[int, int]:
        """The framebuffer size in pixels (HiDPI aware); (0, 0) when iconified."""
        if self.glfw.get_window_attrib(self.window, self.glfw.ICONIFIED):
            return (0, 0)
        width, height = self.glfw.get_framebuffer_size(self.window)
        return (int(width), int(height))

    def swap(self) -> None:
        """glfwSwapBuffers (vsync: swap interval 1, set at window creation)."""
        self.glfw.swap_buffers(self.window)
        super().swap()


def flush_frontbuffer(screen, ctx, resource, level, layer, drawable, sub_box) -> None:
    """Body of Screen.flush_frontbuffer (docstring there)."""
    from .context import Context

    screen._check_alive()
    ctx = instance(ctx, Context, "flush_frontbuffer: ctx")
    ctx.check_alive("flush_frontbuffer")
    if ctx.screen is not screen:
        raise InvalidArgumentError("flush_frontbuffer: ctx belongs to another screen")
    ctx._check_resource(resource, "flush_frontbuffer: resource")
    if not resource.bind & _PRESENT_BINDS:
        raise InvalidArgumentError(
            f"flush_frontbuffer: {resource!r} was not created with Bind.DISPLAY_TARGET or Bind.SCANOUT"
        )
    if resource.target not in (Target.TEXTURE_2D, Target.TEXTURE_RECT) or resource.nr_samples > 1:
        raise InvalidArgumentError(f"flush_frontbuffer: {resource!r} is not a single-sampled 2D display target")
    level = check_level(resource, level, "flush_frontbuffer")
    layer = uint32(layer, "flush_frontbuffer: layer")
    if layer != 0:
        raise InvalidArgumentError(f"flush_frontbuffer: layer {layer} of a 2D resource (only layer 0 exists)")
    drawable = instance(drawable, Drawable, "flush_frontbuffer: drawable")
    if drawable.mgl is not screen.host.mgl:
        raise InvalidArgumentError(
            "flush_frontbuffer: the drawable's GL context is not this screen's "
            "(create the screen with create_screen(gl=<the window's context>))"
        )
    lw, lh, _ = resource.level_extent(level)
    if sub_box is None:
        sub_box = Box(x=0, y=0, z=0, width=lw, height=lh, depth=1)
    box = texture_box(resource, level, sub_box, "flush_frontbuffer: sub_box")
    width, height = drawable.size()
    if not width or not height or not box.w or not box.h:
        return  # a minimised window shows nothing: presenting is a no-op
    _blit_flipped(ctx, resource, level, box, drawable.framebuffer, height)
    drawable.swap()


def _blit_flipped(ctx, res, level: int, box, draw_fbo: int, height: int) -> None:
    """Copy ``box`` of ``res`` into ``draw_fbo`` with rows mirrored: resource
    row y -> framebuffer row height - 1 - y (the presenting flip)."""
    host, gl = ctx.host, ctx.gl
    host.make_current()
    # The private read FBO and the neutral blit state below are host state
    # the draw path shadows: re-emit them at the next draw.
    ctx.dirty |= Dirty.FRAMEBUFFER | Dirty.RASTERIZER | Dirty.SCISSOR
    ctx._forget_other_contexts()
    read_fbo = int(gl.glGenFramebuffers(1))
    srgb = bool(gl.glIsEnabled(gl.GL_FRAMEBUFFER_SRGB))
    try:
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, read_fbo)
        gl.glFramebufferTexture2D(
            gl.GL_READ_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, res.gl_target, res.ensure_storage(), level
        )
        gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, draw_fbo)
        if draw_fbo:
            gl.glDrawBuffers(1, [gl.GL_COLOR_ATTACHMENT0])
        else:
            gl.glDrawBuffer(gl.GL_BACK)
        if srgb:
            gl.glDisable(gl.GL_FRAMEBUFFER_SRGB)  # the texels as they are, no encode
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glDisable(gl.GL_RASTERIZER_DISCARD)
        x0, y0, x1, y1 = box.x, box.y, box.x + box.w, box.y + box.h
        gl.glBlitFramebuffer(x0, y0, x1, y1, x0, height - y0, x1, height - y1, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    finally:
        if srgb:
            gl.glEnable(gl.GL_FRAMEBUFFER_SRGB)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        gl.glDeleteFramebuffers(1, [read_fbo])
    host.check("flush_frontbuffer")


__all__ = ["Drawable", "OffscreenDrawable", "WindowDrawable", "flush_frontbuffer"]
