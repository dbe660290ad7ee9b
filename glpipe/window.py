"""The window layer: a window (glfw) or its headless stand-in, a screen on
its GL context, and the drawable ``flush_frontbuffer`` presents into.

``open_window(title, width, height)`` picks the backend and logs why
(logger ``glpipe.window``, INFO):

* ``GLPIPE_WINDOW=offscreen|glfw`` (or ``backend=``) chooses explicitly;
* otherwise glfw when it is installed (the ``window`` extra) and a display
  exists ($DISPLAY or $WAYLAND_DISPLAY), headless EGL (offscreen) otherwise;
* a glfw window that cannot be made (no display, glfw missing, no GL 3.3
  core) falls back to offscreen with the reason logged: never a crash
  because no display exists.

The glfw window has a GL 3.3 core context, vsync on (swap interval 1), and
its screen is ``create_screen(gl=<that context>)``, so ``flush_frontbuffer``
copies straight into its default framebuffer.  Keyboard, mouse button,
resize and close events are queued in ``Window.events``; Esc closes.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from lowering.errors import InvalidArgumentError

from .boundary import in_range
from .present import OffscreenDrawable, WindowDrawable
from .screen import Screen, create_screen

log = logging.getLogger("glpipe.window")

BACKENDS = ("offscreen", "glfw")


def choose_backend(requested: str | None = None) -> tuple[str, str]:
    """(backend, reason): ``requested`` or $GLPIPE_WINDOW if set, else glfw
    when importable with a display, else offscreen.  An unknown name raises
    InvalidArgumentError."""
    name = requested if requested is not None else os.environ.get("GLPIPE_WINDOW", "")
    if name:
        if name not in BACKENDS:
            raise InvalidArgumentError(f"GLPIPE_WINDOW / backend: {name!r} is not one of {', '.join(BACKENDS)}")
        how = "backend=" if requested is not None else "GLPIPE_WINDOW="
        return name, f"{how}{name} asked for it"
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "offscreen", "no display ($DISPLAY and $WAYLAND_DISPLAY unset): headless EGL"
    try:
        import glfw  # noqa: F401
    except ImportError:
        return "offscreen", "glfw is not installed (pip install 'glpipe[window]'): headless EGL"
    return "glfw", "a display exists and glfw is installed"


class Window:
    """A window (or its offscreen stand-in) with a glpipe screen on its GL
    context.  ``drawable`` goes to ``screen.flush_frontbuffer``;
    ``poll_events`` gathers input into ``events``; ``should_close`` turns
    True on close or Esc; ``close`` destroys the screen and the window."""

    def __init__(self, backend: str, reason: str, screen: Screen, drawable, glfw_mod: Any = None, handle=None):
        self.backend, self.reason = backend, reason
        self.screen, self.drawable = screen, drawable
        self._glfw, self._handle = glfw_mod, handle
        #: Queued input: ("key", key, action, mods), ("mouse", button, action,
        #: mods), ("resize", width, height), ("close",).
        self.events: list[tuple] = []
        self._close = False
        self.title = ""  # set by open_window / set_title
        if glfw_mod is not None:
            glfw_mod.set_key_callback(handle, self._on_key)
            glfw_mod.set_mouse_button_callback(handle, lambda _w, b, a, m: self.events.append(("mouse", b, a, m)))
            glfw_mod.set_framebuffer_size_callback(handle, lambda _w, w, h: self.events.append(("resize", w, h)))
            glfw_mod.set_window_close_callback(handle, lambda _w: self.events.append(("close",)))

    def _on_key(self, _window, key, _scancode, action, mods) -> None:
        self.events.append(("key", key, action, mods))
        if key == self._glfw.KEY_ESCAPE and action == self._glfw.PRESS:
            self._close = True

    def size(self) -> tuple[int, int]:
        """The drawable's (width, height); (0, 0) when minimised."""
        return self.drawable.size()

    def poll_events(self) -> list[tuple]:
        """Process pending window-system events; return and clear the queue."""
        if self._glfw is not None:
            self._glfw.poll_events()
        events, self.events = self.events, []
        return events

    def should_close(self) -> bool:
        """True once the window was closed or Esc pressed (never for offscreen
        unless ``request_close`` was called)."""
        if self._glfw is not None and self._glfw.window_should_close(self._handle):
            return True
        return self._close

    def set_title(self, title: str) -> None:
        """Show ``title`` in the window's title bar (kept in ``title``
        offscreen, where there is no bar)."""
        self.title = str(title)
        if self._glfw is not None:
            self._glfw.set_window_title(self._handle, self.title)

    def request_close(self) -> None:
        """Ask the loop to end (as Esc does)."""
        self._close = True

    def close(self) -> None:
        """Destroy the screen, then the window (glfw) or the drawable."""
        if isinstance(self.drawable, OffscreenDrawable):
            self.drawable.release()
        if not self.screen.destroyed:
            self.screen.destroy()
        if self._glfw is not None:
            self._glfw.destroy_window(self._handle)
            self._glfw.terminate()
            self._glfw = None


def open_window(title: str, width: int, height: int, backend: str | None = None, profile: str | None = None) -> Window:
    """A Window of ``width`` x ``height`` on the chosen backend (module
    docstring), its screen created on the window's own context."""
    width = in_range(width, "open_window: width", 1, 16384)
    height = in_range(height, "open_window: height", 1, 16384)
    name, reason = choose_backend(backend)
    if name == "glfw":
        made = _open_glfw(str(title), width, height, profile)
        if isinstance(made, Window):
            log.info("glpipe window: glfw (%s)", reason)
            made.reason, made.title = reason, str(title)
            return made
        name, reason = "offscreen", f"{made}: headless EGL instead"
    log.info("glpipe window: offscreen (%s)", reason)
    screen = create_screen(profile=profile)
    window = Window(name, reason, screen, OffscreenDrawable(screen, width, height))
    window.title = str(title)
    return window


def _open_glfw(title: str, width: int, height: int, profile: str | None) -> Window | str:
    """A glfw Window, or the reason there is none."""
    try:
        import glfw
    except ImportError:
        return "glfw is not installed"
    import moderngl

    from .host import preload

    preload.apply()  # the window's context loads the driver: its settings first
    if not glfw.init():
        return "glfw could not initialise (no display?)"
    glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
    glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
    glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
    glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
    handle = glfw.create_window(width, height, title, None, None)
    if not handle:
        glfw.terminate()
        return "glfw could not create a GL 3.3 core window"
    glfw.make_context_current(handle)
    glfw.swap_interval(1)  # vsync on by default
    mgl = moderngl.create_context()
    screen = create_screen(gl=mgl, profile=profile)
    return Window("glfw", "", screen, WindowDrawable(glfw, handle, mgl), glfw, handle)


__all__ = ["BACKENDS", "Window", "choose_backend", "open_window"]
