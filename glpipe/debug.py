"""glpipe's debug switches (``GLPIPE_DEBUG``), the GLPIPE_DEBUG=nofast draw,
and the debug area (``DebugPart``): set_debug_callback, emit_string_marker.

``GLPIPE_DEBUG`` is a comma (or space) separated list of flag names, like
Mesa's ``GALLIUM_DEBUG``, read once when a screen is made (``DEBUG_FLAGS``
lists them).  docs/debug.md explains each flag and the debug callback.
"""

from __future__ import annotations

import ctypes
import os
import re
import warnings
from collections.abc import Callable
from enum import IntEnum
from typing import Protocol

from lowering.errors import InvalidArgumentError, UnsupportedError

from .part import Area, Part, entry_point, owner

#: The environment variable holding the debug flags.
DEBUG_ENV = "GLPIPE_DEBUG"

#: Every debug flag: name -> what it does (one line; docs/debug.md has more).
DEBUG_FLAGS = {
    "nofast": "draw_vbo always takes its general path and every transition cache, memo and host-state "
    "shadow is dropped before each draw, so the general code re-derives all host state from the "
    "Gallium state, through PyOpenGL instead of raw ctypes entry points (docs/debug.md)",
    "check": "after every pipe_context entry point, check the host GL's error state and raise HostGLError "
    "naming the entry point (wrappers installed when the context is made: docs/debug.md)",
}


def parse_debug_flags(value, what: str = DEBUG_ENV) -> frozenset:
    """The debug flags ``value`` names: a comma / space separated string (the
    ``GLPIPE_DEBUG`` syntax), an iterable of names, or None (no flag).
    InvalidArgumentError names an unknown flag and lists the known ones."""
    if value is None:
        return frozenset()
    if isinstance(value, str):
        names = [n for n in re.split(r"[\s,]+", value.strip()) if n]
    else:
        try:
            names = list(value)
        except TypeError:
            raise InvalidArgumentError(
                f"{what}: expected a comma-separated string or names of debug flags, got {type(value).__name__}"
            ) from None
    flags = set()
    for name in names:
        if not isinstance(name, str) or name.strip().lower() not in DEBUG_FLAGS:
            raise InvalidArgumentError(f"{what}: unknown debug flag {name!r} (known: {', '.join(DEBUG_FLAGS)})")
        flags.add(name.strip().lower())
    return frozenset(flags)


def debug_flags_from_env() -> frozenset:
    """The flags ``$GLPIPE_DEBUG`` names (read when a screen is made)."""
    return parse_debug_flags(os.environ.get(DEBUG_ENV), DEBUG_ENV)


# GLPIPE_DEBUG=nofast (docs/debug.md): the speed tricks of the draw path
# (glpipe/draw.py and the area modules), listed in one place so the
# switch covers every one.  docs/api.md "Design rules": the general code must produce the same
# pixels and GL state; a differential test
# (tests/context/test_fast_general_agree.py) renders scenes both ways.
#
# * Methods a nofast context replaces on itself at create time (a fast
#   context keeps the class's: the switch costs it nothing per call).
#   ``(context method, the part holding its general form, that form)``.
NOFAST_METHODS = (
    ("draw_vbo", "debug_part", "_draw_vbo_nofast"),  # never the memoized fast path: _draw_general, caches dropped
    ("set_sampler_views", "sampler_views_part", "_set_sampler_views_general"),  # no one-view / compare-first shortcut
)
# * Caches, memos and host-state shadows dropped before every nofast draw:
#   the context's own (below), then every area's ``drop_caches`` (its
#   ``Area`` record, glpipe/part.py; glpipe/context.py PARTS lists them:
#   framebuffer FBOs, blend and DSA transitions and held snapshots,
#   rasterizer transitions and clip distances, programs by variant inputs,
#   VAOs, sampler-view unit shadows, UBO bindings, the sysvals block; each
#   documented in its module).  With them the draw prologue runs as if
#   another context had drawn: every dirty bit set, the draw-side shadows
#   (index buffer, primitive restart, program, sysvals binding) forgotten,
#   so every derived-state row re-derives its block from the Gallium state
#   and sends it whole.
# * Decided at create time elsewhere: the GL entry points (glpipe/host/hotgl.py
#   HotGL and glpipe/vertex.py's draw and attribute calls) are PyOpenGL's
#   functions instead of raw ctypes pointers.
NOFAST_DROPS = (
    "_reset_derived_plans",  # draw.py: dirty-word plans, runners
)


class DebugType(IntEnum):
    """enum util_debug_type (u_debug.h), members without the UTIL_DEBUG_TYPE_ prefix."""

    OUT_OF_MEMORY = 1
    ERROR = 2
    SHADER_INFO = 3
    PERF_INFO = 4
    INFO = 5
    FALLBACK = 6
    CONFORMANCE = 7


# KHR_debug message type -> util_debug_type (the inverse of Mesa's
# st_debug_message mapping, where several GL types fold into one).
class DebugMessageSink(Protocol):
    """An object set_debug_callback accepts in place of a callable (Gallium's
    pipe_debug_callback carries a function pointer; this is its Python form)."""

    def debug_message(self, type: DebugType, id: int, message: str) -> object:
        """Receive one message: its DebugType, a stable id, the text."""
        ...


# What set_debug_callback takes: cb(type, id, message), or a DebugMessageSink.
DebugCallback = Callable[[DebugType, int, str], object] | DebugMessageSink

_GL_TYPE_NAMES = {
    "GL_DEBUG_TYPE_ERROR": DebugType.ERROR,
    "GL_DEBUG_TYPE_PERFORMANCE": DebugType.PERF_INFO,
    "GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR": DebugType.CONFORMANCE,
    "GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR": DebugType.CONFORMANCE,
    "GL_DEBUG_TYPE_PORTABILITY": DebugType.CONFORMANCE,
    "GL_DEBUG_TYPE_OTHER": DebugType.INFO,
    "GL_DEBUG_TYPE_MARKER": DebugType.INFO,
    "GL_DEBUG_TYPE_PUSH_GROUP": DebugType.INFO,
    "GL_DEBUG_TYPE_POP_GROUP": DebugType.INFO,
}

# Host message ids are offset so they never collide with glpipe's own.
HOST_ID_BASE = 1 << 20


class _HostDebugSink:
    """The one glDebugMessageCallback of a host GL context, fanning messages
    out to the debug parts of the pipe contexts that set a callback."""

    def __init__(self, host):
        self.host = host
        self.parts: list = []
        self.proc = None
        gl = host.gl
        self._types = {int(getattr(gl, name)): kind for name, kind in _GL_TYPE_NAMES.items()}
        self._compiler = int(gl.GL_DEBUG_SOURCE_SHADER_COMPILER)
        self._oom = int(gl.GL_OUT_OF_MEMORY)

    def add(self, part) -> None:
        if part in self.parts:
            return
        self.parts.append(part)
        if self.proc is None:
            gl = self.host.gl
            self.proc = gl.GLDEBUGPROC(self._on_message)  # kept alive: GL holds only the pointer
            gl.glEnable(gl.GL_DEBUG_OUTPUT)
            gl.glEnable(gl.GL_DEBUG_OUTPUT_SYNCHRONOUS)
            gl.glDebugMessageCallback(self.proc, None)

    def remove(self, part) -> None:
        if part in self.parts:
            self.parts.remove(part)
        if not self.parts and self.proc is not None:
            gl = self.host.gl
            if not self.host.released:
                gl.glDebugMessageCallback(gl.GLDEBUGPROC(), None)  # a NULL callback
                gl.glDisable(gl.GL_DEBUG_OUTPUT_SYNCHRONOUS)
                gl.glDisable(gl.GL_DEBUG_OUTPUT)
            self.proc = None

    def _on_message(self, source, gltype, msg_id, severity, length, message, user) -> None:
        try:
            raw = ctypes.string_at(message, length) if length >= 0 else ctypes.string_at(message)
            text = raw.decode("utf-8", errors="replace")
            if int(source) == self._compiler:
                kind = DebugType.SHADER_INFO
            elif int(msg_id) == self._oom and int(gltype) == _GL_DEBUG_TYPE_ERROR:
                kind = DebugType.OUT_OF_MEMORY
            else:
                kind = self._types.get(int(gltype), DebugType.INFO)
            for part in tuple(self.parts):
                part._deliver_debug(kind, HOST_ID_BASE + int(msg_id), f"host GL: {text}")
        except Exception as exc:
            warnings.warn(f"glpipe: host debug message dropped: {exc!r}", RuntimeWarning, stacklevel=1)


_GL_DEBUG_TYPE_ERROR = 0x824C
_SINKS: dict[int, _HostDebugSink] = {}


def _sink_for(host) -> _HostDebugSink:
    sink = _SINKS.get(id(host))
    if sink is None or sink.host is not host:
        sink = _SINKS[id(host)] = _HostDebugSink(host)
    return sink


def _release_sink(sink: _HostDebugSink, part) -> None:
    sink.remove(part)
    if not sink.parts:
        _SINKS.pop(id(sink.host), None)


class DebugPart(Part):
    """The context's debug callback and string markers (``ctx.debug_part``),
    and the GLPIPE_DEBUG=nofast draw."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.debug_callback: Callable[[DebugType, int, str], object] | None = (
            None  # the callable messages go to, or None (draw.py reads it)
        )
        self._debug_ids: dict[str, int] = {}
        self._max_marker: int | None = None  # GL_MAX_DEBUG_MESSAGE_LENGTH, read at the first marker

    def set_debug_callback(self, cb: DebugCallback | None) -> None:
        """pipe_context::set_debug_callback(cb): ``cb(type, id, message)``, an
        object with ``debug_message(type, id, message)``, or None to remove it."""
        ctx = self.ctx
        ctx.check_alive("set_debug_callback")
        if cb is None:
            fn = None
        elif callable(cb):
            fn = cb
        elif callable(getattr(cb, "debug_message", None)):
            fn = cb.debug_message
        else:
            raise InvalidArgumentError(
                f"set_debug_callback: expected a callable(type, id, message), an object with "
                f"debug_message(type, id, message), or None; got {type(cb).__name__}"
            )
        self.debug_callback = fn
        if ctx.screen.profile.has("debug_output"):
            ctx.host.make_current()
            sink = _sink_for(ctx.host)
            if fn is None:
                _release_sink(sink, self)
            else:
                sink.add(self)

    def emit_string_marker(self, string: str | bytes) -> None:
        """pipe_context::emit_string_marker(string): a marker in the host's
        debug stream (glDebugMessageInsert; needs debug_output)."""
        ctx = self.ctx
        ctx.check_alive("emit_string_marker")
        # Text or bytes only: bytes(n) of an int would be n zero bytes (and
        # an OverflowError for a huge n), a silent misreading of the call.
        if isinstance(string, str):
            data = string.encode("utf-8", "surrogatepass")
        elif isinstance(string, (bytes, bytearray, memoryview)):
            data = bytes(string)
        else:
            raise InvalidArgumentError(f"emit_string_marker: expected str or bytes, got {type(string).__name__}")
        if not ctx.screen.profile.has("debug_output"):
            raise UnsupportedError(
                "emit_string_marker: needs the host feature debug_output "
                f"(not on the {ctx.screen.profile.name} profile; PIPE_CAP_STRING_MARKER is 0)"
            )
        gl = ctx.gl
        ctx.host.make_current()
        if self._max_marker is None:
            self._max_marker = int(gl.glGetIntegerv(gl.GL_MAX_DEBUG_MESSAGE_LENGTH))
        if len(data) >= self._max_marker:
            # GL refuses it with GL_INVALID_VALUE (glDebugMessageInsert); refuse it here instead.
            raise InvalidArgumentError(
                f"emit_string_marker: {len(data)} bytes, the host takes markers shorter than "
                f"GL_MAX_DEBUG_MESSAGE_LENGTH = {self._max_marker}"
            )
        gl.glDebugMessageInsert(
            gl.GL_DEBUG_SOURCE_APPLICATION,
            gl.GL_DEBUG_TYPE_MARKER,
            0,
            gl.GL_DEBUG_SEVERITY_NOTIFICATION,
            len(data),
            data,
        )

    def debug_message(self, kind, text: str, site: str | None = None) -> None:
        """Report one of glpipe's own messages (other areas call
        ``ctx.debug_part.debug_message``).  ``kind`` is a DebugType or its
        name ("FALLBACK", "PERF_INFO", ...); ``site`` names the kind of message
        for its stable id (default: ``text``).  Cheap when no callback is set."""
        if self.debug_callback is None:
            return
        kind = DebugType[kind] if isinstance(kind, str) else DebugType(kind)
        key = site if site is not None else text
        msg_id = self._debug_ids.get(key)
        if msg_id is None:
            msg_id = self._debug_ids[key] = len(self._debug_ids) + 1
        self._deliver_debug(kind, msg_id, text)

    def _deliver_debug(self, kind: DebugType, msg_id: int, text: str) -> None:
        fn = self.debug_callback
        if fn is None:
            return
        try:
            fn(kind, msg_id, text)
        except Exception as exc:
            warnings.warn(
                f"glpipe: the debug callback raised {exc!r} for message {text!r}", RuntimeWarning, stacklevel=2
            )

    # -- GLPIPE_DEBUG=nofast ---------------------------------------------------------

    def _install_nofast(self) -> None:
        """GLPIPE_DEBUG=nofast, at context creation (after every part is
        attached): replace the entry points of ``NOFAST_METHODS`` on this
        context by their general forms (a normal context keeps the class's,
        so the switch costs it nothing per call)."""
        ctx = self.ctx
        for name, where, general in NOFAST_METHODS:
            # An entry point like the one it replaces (glpipe/part.py
            # entry_point: guarded, or checked under GLPIPE_DEBUG=check).
            ctx.__dict__[name] = entry_point(ctx, name, getattr(getattr(ctx, where), general))

    def _draw_vbo_nofast(self, info, draws=None, indirect=None) -> None:
        """draw_vbo of a context made with GLPIPE_DEBUG=nofast (``NOFAST_METHODS``):
        drop every cache, memo and host-state shadow (``NOFAST_DROPS`` and
        every area's ``drop_caches``),
        then draw through ``_draw_general``, whose prologue takes the host
        over as if another context had drawn last -- so the general code
        re-derives and sends every block of host state for this draw."""
        ctx = self.ctx
        if not ctx.destroyed:  # (a destroyed context: the prologue raises)
            ctx.host.make_current("draw_vbo")  # the drops delete GL objects
            if ctx.host.drawing_context is ctx:
                ctx.host.drawing_context = None
            for name in NOFAST_DROPS:
                getattr(ctx, name)()
            for area in ctx._areas:
                if area.drop_caches is not None:
                    area.drop_caches(owner(ctx, area))
        ctx._draw_general(info, draws, indirect)

    def destroy(self) -> None:
        """Context.destroy: stop receiving host messages."""
        ctx = self.ctx
        if self.debug_callback is not None and ctx.screen.profile.has("debug_output"):
            _release_sink(_sink_for(ctx.host), self)
        self.debug_callback = None


AREA = Area(
    "debug_part",
    part=DebugPart,
    methods=("set_debug_callback", "emit_string_marker"),
    destroy=DebugPart.destroy,
)

__all__ = [
    "AREA",
    "DEBUG_ENV",
    "DEBUG_FLAGS",
    "HOST_ID_BASE",
    "NOFAST_DROPS",
    "NOFAST_METHODS",
    "DebugPart",
    "DebugType",
    "debug_flags_from_env",
    "parse_debug_flags",
]
