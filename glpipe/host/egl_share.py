"""GL contexts in a screen's share group, one per thread that makes pipe contexts.

A GL context is current on one thread at a time, so pipe contexts made on a
thread other than the screen's cannot use the screen's GL context.  Each such
thread gets a GL context of its own, created with EGL directly
(``eglCreateContext`` with the screen's EGLContext as ``share_context``, the
same EGLConfig and GL version, made current surfaceless with
``EGL_NO_SURFACE``: EGL_KHR_surfaceless_context, which Mesa has).  ModernGL
cannot make it: its ``share=True`` asks for the current surface, which a
surfaceless context does not have, and glcontext's EGL backend has no
"detect" mode to wrap one; glpipe only needs ModernGL to create the screen's
context, every later GL call goes through PyOpenGL, whose EGL entry points
serve every context of the process.

The share group shares buffers, textures, renderbuffers, samplers,
programs, shaders and syncs; VAOs, framebuffers, query objects and transform
feedback objects are per GL context (GL 4.5 core, appendix D).  glpipe makes
those per pipe context already, and the per-GL-context bookkeeping (the
drawing context, the query slots, the state shadows) hangs off the host, so
a ``SharedHost`` is a ``HostGL`` to everything above it.  docs/api.md
"Contexts and threads" has the model and the rules.
"""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass

from lowering.errors import HostGLError, ObjectDestroyedError

from .gl import HostGL, _context_query, _switch_current, forget_current

# EGL enums (egl.h, eglext.h).
EGL_SUCCESS = 0x3000
EGL_CONFIG_ID = 0x3028
EGL_NONE = 0x3038
EGL_OPENGL_API = 0x30A2
EGL_CONTEXT_MAJOR_VERSION = 0x3098
EGL_CONTEXT_MINOR_VERSION = 0x30FB
EGL_CONTEXT_OPENGL_PROFILE_MASK = 0x30FD
EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT = 0x1
EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT = 0x2
GL_CONTEXT_PROFILE_MASK = 0x9126

_VP = ctypes.c_void_p
_INT = ctypes.c_int32

# Each EGL function glpipe calls: (restype, argtypes).
_SIGNATURES = {
    "eglGetCurrentDisplay": (_VP, []),
    "eglGetCurrentContext": (_VP, []),
    "eglQueryContext": (ctypes.c_uint, [_VP, _VP, _INT, ctypes.POINTER(_INT)]),
    "eglChooseConfig": (ctypes.c_uint, [_VP, ctypes.POINTER(_INT), ctypes.POINTER(_VP), _INT, ctypes.POINTER(_INT)]),
    "eglBindAPI": (ctypes.c_uint, [ctypes.c_uint]),
    "eglCreateContext": (_VP, [_VP, _VP, _VP, ctypes.POINTER(_INT)]),
    "eglMakeCurrent": (ctypes.c_uint, [_VP, _VP, _VP, _VP]),
    "eglDestroyContext": (ctypes.c_uint, [_VP, _VP]),
    "eglGetError": (_INT, []),
}

_egl_lock = threading.Lock()
_egl_lib: list = []


def _egl():
    """libEGL with the signatures of ``_SIGNATURES`` set (loaded once)."""
    with _egl_lock:
        if not _egl_lib:
            try:
                lib = ctypes.CDLL("libEGL.so.1")
            except OSError as exc:
                raise HostGLError(f"contexts on other threads need libEGL: {exc}") from None
            for name, (restype, argtypes) in _SIGNATURES.items():
                fn = getattr(lib, name)
                fn.restype, fn.argtypes = restype, argtypes
            _egl_lib.append(lib)
        return _egl_lib[0]


@dataclass(frozen=True)
class ShareSource:
    """What a new GL context of the screen's share group is made from, read
    on the screen's thread while its context is current: the EGLDisplay and
    EGLContext, the EGLConfig's id and the GL version and profile."""

    display: int
    context: int
    config_id: int
    major: int
    minor: int
    core: bool


def share_source(host: HostGL) -> ShareSource | None:
    """The ShareSource of ``host`` (its context current on the calling
    thread), or None when the host is not an EGL context (a GLX window's:
    contexts on other threads then raise, as before)."""
    if host.platform != "egl":
        return None
    egl = _egl()
    display, context = egl.eglGetCurrentDisplay(), egl.eglGetCurrentContext()
    if not display or not context:
        return None
    config_id = _INT(0)
    if not egl.eglQueryContext(display, context, EGL_CONFIG_ID, ctypes.byref(config_id)):
        return None
    import numpy as np

    mask = np.zeros(1, np.int32)
    host.gl.glGetIntegerv(GL_CONTEXT_PROFILE_MASK, mask)
    host.clear_errors()
    version = int(host.profile.host_gl_version)
    return ShareSource(
        int(display),
        int(context),
        int(config_id.value),
        version // 100,
        (version // 10) % 10,
        not int(mask[0]) & EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
    )


def _egl_error(egl, what: str) -> HostGLError:
    return HostGLError(f"{what} failed (EGL error 0x{int(egl.eglGetError()) & 0xFFFF:04x})")


class SharedHost(HostGL):
    """A GL context of ``parent``'s share group, current on the thread that
    made it (``gl_thread``).  It reads like its parent -- same ``gl``
    namespace, ``profile``, scratch texture unit and timestamp clock -- and
    owns its per-GL-context bookkeeping (``drawing_context``, release queue,
    state shadows).  ``release()`` destroys the EGL context."""

    def __init__(self, parent: HostGL, source: ShareSource) -> None:
        # Not HostGL.__init__: there is no ModernGL context to wrap, and the
        # profile, limits and clocks are the parent's (one device, one driver).
        egl = _egl()
        display = _VP(source.display)
        if not egl.eglBindAPI(EGL_OPENGL_API):  # the bound API is per thread
            raise _egl_error(egl, "eglBindAPI(EGL_OPENGL_API)")
        wanted = (_INT * 3)(EGL_CONFIG_ID, source.config_id, EGL_NONE)
        config, count = _VP(), _INT(0)
        if not egl.eglChooseConfig(display, wanted, ctypes.byref(config), 1, ctypes.byref(count)) or count.value < 1:
            raise _egl_error(egl, f"eglChooseConfig(EGL_CONFIG_ID={source.config_id})")
        profile_bit = (
            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT if source.core else EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
        )
        attribs = (_INT * 7)(
            EGL_CONTEXT_MAJOR_VERSION,
            source.major,
            EGL_CONTEXT_MINOR_VERSION,
            source.minor,
            EGL_CONTEXT_OPENGL_PROFILE_MASK,
            profile_bit,
            EGL_NONE,
        )
        context = egl.eglCreateContext(display, config, _VP(source.context), attribs)
        if not context:
            raise _egl_error(egl, "eglCreateContext(share_context=the screen's context)")
        if not egl.eglMakeCurrent(display, None, None, context):
            err = _egl_error(egl, "eglMakeCurrent(EGL_NO_SURFACE)")
            egl.eglDestroyContext(display, context)
            raise err
        self._egl_display, self._egl_context = display, _VP(context)
        self.parent = parent
        self.mgl = None  # no ModernGL context: glpipe calls GL through PyOpenGL only
        self.owns_context = True
        self.platform = "egl"
        self.gl = parent.gl
        self.gl_thread = threading.get_ident()
        self.gl_thread_name = threading.current_thread().name
        self.lock = threading.RLock()
        self.released = False
        self.lost_current_hooks = []
        self.drawing_context = None
        _switch_current(self)
        self.current_context, self.context_handle, self.context_query = _context_query(self)
        self.clear_errors()
        self.profile = parent.profile
        self.scratch_texture_unit = parent.scratch_texture_unit
        self._timestamp_base = parent._timestamp_base
        # A fresh GL context holds GL's defaults, which is what HostGL's
        # reset of ModernGL's changes restores: nothing to undo here.
        self.check("a GL context of the screen's share group")

    def _take_current(self, what: str) -> None:
        """make_current's slow path: refuse another thread, else make the EGL context current."""
        if threading.get_ident() != self.gl_thread:
            raise HostGLError(self.wrong_thread_message(what))
        if self.released:
            raise ObjectDestroyedError(f"{what}: the context was destroyed (its GL context is released)")
        egl = _egl()
        if not egl.eglMakeCurrent(self._egl_display, None, None, self._egl_context):
            raise _egl_error(egl, f"{what}: eglMakeCurrent")
        if self.current_context() != self.context_handle:
            raise HostGLError(f"{what}: the host could not make glpipe's GL context current on this thread")
        _switch_current(self)

    def wrong_thread_message(self, what: str) -> str:
        """The message of a GL-touching call made off ``gl_thread``."""
        here = threading.current_thread()
        return (
            f"{what}: called on thread {here.name!r} (id {threading.get_ident()}), but this pipe context's "
            f"GL context belongs to thread {self.gl_thread_name!r} (id {self.gl_thread}), where the context "
            f"was made. A GL context is current on one thread at a time; call it there (screen methods may "
            f"be called from any thread)."
        )

    def let_go(self) -> None:
        """On its own thread: make the EGL context not current if it still
        is, so a context released from another thread (Screen.destroy),
        whose deletion EGL defers while it is current, is deleted now."""
        if not self.on_gl_thread():
            return
        egl = _egl()
        forget_current(self)
        if egl.eglGetCurrentContext() == self._egl_context.value:
            egl.eglMakeCurrent(self._egl_display, None, None, None)

    def release(self) -> None:
        """Destroy the EGL context.  On its own thread it is made not current
        first; from another thread (Screen.destroy) EGL defers the deletion
        until the owning thread stops using it (EGL 1.5 §3.7.1)."""
        if self.released:
            return
        self.released = True
        egl = _egl()
        if self.on_gl_thread():
            forget_current(self)
            if egl.eglGetCurrentContext() == self._egl_context.value:
                egl.eglMakeCurrent(self._egl_display, None, None, None)
        egl.eglDestroyContext(self._egl_display, self._egl_context)


# -- threads that end -------------------------------------------------------------

_exits = threading.local()


class _ThreadExit:
    """Held only by its thread's ``_exits`` slot: CPython clears a thread's
    thread-local storage as the thread ends, on that thread, so ``__del__``
    runs there -- the one thread where its GL context can be made not
    current and its contexts' GL objects deleted."""

    def __init__(self) -> None:
        self.callbacks: list = []

    def __del__(self) -> None:
        for fn in self.callbacks:
            try:
                fn()
            except Exception:  # the thread is ending: nobody is left to raise to
                pass


def at_thread_exit(fn) -> None:
    """Run ``fn()`` on the calling thread as it ends (after its target
    returned or raised).  Not for the main thread, whose storage outlives
    the interpreter's shutdown; daemon threads killed at shutdown run
    nothing (the process ends, and its GL contexts with it)."""
    watcher = getattr(_exits, "watcher", None)
    if watcher is None:
        watcher = _exits.watcher = _ThreadExit()
    watcher.callbacks.append(fn)


__all__ = ["ShareSource", "SharedHost", "at_thread_exit", "share_source"]
