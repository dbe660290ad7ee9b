"""Shared bits of the glpipe demos: a render target to draw into, reading it
back through ``transfer_map``, "presenting" it (PNG file or window), and the
command line every demo takes.

Everything that renders goes through glpipe's Gallium interface only
(``create_screen``, ``context_create``, ``resource_create``, CSOs, TGSI text,
``draw_vbo``, ``transfer_map``).  What is *not* Gallium lives here and is
marked so: writing a PNG, and showing pixels in a glfw window.

Presenting and the one y-flip
-----------------------------
glpipe maps Gallium window coordinates onto GL window coordinates one to
one (``docs/coordinates.md``): window pixel (x, y) is texel (x, y) of the
render target and row y of a transfer's ``.data``; row 0 is the first row in
memory.  The demos set a GL-style viewport (``scale[1] > 0``), so NDC
y = -1 lands on row 0 and NDC y = +1 on the last row.

An image file puts its first row at the *top* of the picture.  So the PNG
writer emits the rows last-to-first (``present_rows``): NDC +y ends up at the
top, exactly as a GL window shows the same render target (a GL default
framebuffer displays window row 0 at the bottom, so the window path copies
the pixels without a flip).  That flip belongs to presenting, never to the
pipe: the pixel arrays the demos return keep transfer order (row 0 = window
y 0), which is what ``tests/test_demos.py`` compares.

PNG is written with ``zlib`` and ``struct`` only (no Pillow): 8-bit RGBA,
filter type 0 on every row.
"""

from __future__ import annotations

import argparse
import struct
import zlib

import numpy as np

import glpipe
from glpipe import (
    Bind,
    BlendState,
    Box,
    Clear,
    DepthStencilAlphaState,
    Format,
    FramebufferState,
    Map,
    ResourceTemplate,
    SurfaceTemplate,
    Target,
    ViewportState,
)

# The demos render into RGBA8: what a PNG stores, so no conversion is needed.
COLOR_FORMAT = Format.R8G8B8A8_UNORM
CLEAR_COLOR = (0.1, 0.1, 0.12, 1.0)


# -- command line --------------------------------------------------------------------


# The vertex shader both demos use: position and one GENERIC varying
# (vertex elements 0 and 1) passed straight through.
PASSTHROUGH_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


def arg_parser(description: str, default_out: str) -> argparse.ArgumentParser:
    """The options every demo takes: --out, --size, --profile, --window."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--out", default=default_out, help=f"PNG file to write (default: {default_out})")
    p.add_argument("--size", type=_size, default=256, help="width and height in pixels (default: 256)")
    p.add_argument(
        "--profile",
        choices=("native", "gl33"),
        default=None,
        help="host profile (default: $GLPIPE_HOST_PROFILE or native)",
    )
    p.add_argument(
        "--window",
        action="store_true",
        help="show the image in a glfw window (needs a display and the 'window' extra) instead of rendering headless",
    )
    return p


def _size(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 4096:
        raise argparse.ArgumentTypeError(f"size {value} outside 1..4096")
    return value


# -- render target -------------------------------------------------------------------


class RenderTarget:
    """An RGBA8 colour texture bound as the only colour buffer, with a full,
    GL-style viewport (NDC y = -1 on row 0) and depth range 0..1."""

    def __init__(self, screen, ctx, width: int, height: int):
        self.screen, self.ctx = screen, ctx
        self.width, self.height = width, height
        self.texture = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=COLOR_FORMAT,
                width0=width,
                height0=height,
                bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
            )
        )
        self.surface = ctx.create_surface(self.texture, SurfaceTemplate(format=COLOR_FORMAT))
        ctx.set_framebuffer_state(FramebufferState(width=width, height=height, cbufs=(self.surface,)))
        ctx.set_viewport_states(
            0, [ViewportState(scale=(width / 2, height / 2, 0.5), translate=(width / 2, height / 2, 0.5))]
        )

    def clear(self, color=CLEAR_COLOR) -> None:
        """pipe_context::clear of the colour buffer."""
        self.ctx.clear(Clear.COLOR0, None, color, 0.0, 0)

    def read(self) -> np.ndarray:
        """The pixels through transfer_map(READ): shape (height, width, 4)
        uint8, row 0 = window y 0 (transfer order, not yet presented)."""
        box = Box(x=0, y=0, z=0, width=self.width, height=self.height, depth=1)
        t = self.ctx.transfer_map(self.texture, 0, Map.READ, box)
        try:
            # data is (layers, rows, stride) with a tight stride of width * 4 bytes.
            pixels = np.array(t.data[0], dtype=np.uint8).reshape(self.height, self.width, 4)
        finally:
            self.ctx.transfer_unmap(t)
        return pixels

    def destroy(self) -> None:
        """Free the surface and the texture."""
        self.ctx.surface_destroy(self.surface)
        self.screen.resource_destroy(self.texture)


def bind_fixed_function(scene) -> tuple:
    """Make (through ``scene.make``, so the scene's ``destroy`` frees them)
    and bind the fixed-function state a Gallium frontend always sets: no
    blending (all channels written), every depth/stencil/alpha test off, and
    a rasterizer with GL's conventions (faces counter-clockwise in clip space
    are front faces, nothing culled, half-pixel centres).  Returns the
    (kind, CSO) pairs so a frame can bind them again."""
    # The scenes draw into a DisplayTarget, whose viewport has a negative y
    # scale as st/mesa sets it for a window: clip-space counter-clockwise
    # stays counter-clockwise in Gallium's y-down window space
    # (docs/rasterizer.md "Winding"), so GL's default front face (GL_CCW) is
    # front_ccw True, what st/mesa sets for a window framebuffer.
    csos = (
        ("blend", scene.make("blend", BlendState())),
        ("depth_stencil_alpha", scene.make("depth_stencil_alpha", DepthStencilAlphaState())),
        ("rasterizer", scene.make("rasterizer", glpipe.RasterizerState(front_ccw=True, half_pixel_center=True))),
    )
    for kind, cso in csos:
        getattr(scene.ctx, f"bind_{kind}_state")(cso)
    return csos


# -- presenting: PNG -------------------------------------------------------------------


def present_rows(pixels: np.ndarray) -> np.ndarray:
    """Render-target rows (row 0 = window y 0) in image order (first row at
    the top): the one y-flip, done when presenting (module docstring)."""
    return pixels[::-1]


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of ``image``: (height, width, 4) uint8 RGBA, row 0 = top."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"encode_png: expected (height, width, 4) RGBA, got shape {image.shape}")
    height, width = image.shape[:2]
    # Every scanline starts with its filter type; 0 = None (the bytes as they are).
    raw = np.zeros((height, 1 + width * 4), np.uint8)
    raw[:, 1:] = image.reshape(height, width * 4)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, deflate, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + _chunk(b"IEND", b"")
    )


def write_png(path, pixels: np.ndarray) -> None:
    """Present render-target ``pixels`` (row 0 = window y 0) as a PNG file."""
    with open(path, "wb") as f:
        f.write(encode_png(present_rows(pixels)))


# -- presenting: window ----------------------------------------------------------------


def open_window(title: str, width: int, height: int):
    """A glfw window with a GL 3.3+ core context, current, wrapped by a
    glpipe-compatible ModernGL context: returns (glfw module, window, mgl).

    Needs a display and the ``window`` extra (glfw); raises SystemExit with
    the reason otherwise, so the headless default is never affected."""
    try:
        import glfw
    except ImportError:
        raise SystemExit("--window needs glfw: pip install '.[window]'") from None
    import moderngl

    if not glfw.init():
        raise SystemExit("--window: glfw could not initialise (is there a display?)")
    glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
    glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
    glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
    glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
    glfw.window_hint(glfw.RESIZABLE, False)
    window = glfw.create_window(width, height, title, None, None)
    if not window:
        glfw.terminate()
        raise SystemExit("--window: glfw could not create a GL 3.3 core window")
    glfw.make_context_current(window)
    return glfw, window, moderngl.create_context()


def show_in_window(glfw, window, mgl, pixels: np.ndarray) -> None:
    """Show ``pixels`` (row 0 = window y 0) until the window is closed.

    Not Gallium: presenting to the window system.  The frame is rendered
    once through glpipe; here ModernGL uploads it and blits it to the
    window's default framebuffer every refresh.  A GL default framebuffer
    shows row 0 at the bottom, so the copy needs no flip to look like the
    PNG.  glpipe draws nothing after this, so ModernGL's state changes
    cannot disturb it."""
    height, width = pixels.shape[:2]
    tex = mgl.texture((width, height), 4, np.ascontiguousarray(pixels).tobytes())
    fbo = mgl.framebuffer(color_attachments=[tex])
    try:
        while not glfw.window_should_close(window):
            mgl.copy_framebuffer(mgl.screen, fbo)
            glfw.swap_buffers(window)
            glfw.wait_events_timeout(0.1)
    finally:
        fbo.release()
        tex.release()
        glfw.destroy_window(window)
        glfw.terminate()


def run(render, args, title: str) -> np.ndarray:
    """Create the screen (headless, or on a window's context), call
    ``render(screen) -> pixels``, present, and return the pixels."""
    if args.window:
        glfw, window, mgl = open_window(title, args.size, args.size)
        screen = glpipe.create_screen(gl=mgl, profile=args.profile)
        try:
            pixels = render(screen)
        finally:
            screen.destroy()  # the window's context stays (glpipe did not make it)
        show_in_window(glfw, window, mgl, pixels)
        return pixels
    screen = glpipe.create_screen(profile=args.profile)
    try:
        pixels = render(screen)
    finally:
        screen.destroy()
    write_png(args.out, pixels)
    return pixels


__all__ = [
    "CLEAR_COLOR",
    "COLOR_FORMAT",
    "RenderTarget",
    "arg_parser",
    "bind_fixed_function",
    "encode_png",
    "present_rows",
    "run",
    "write_png",
]
