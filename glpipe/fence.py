"""Flush and fences: pipe_context::flush (the fences area, ``FencePart``) and
pipe_screen::fence_finish.

A fence is a GL sync object; a fence dropped unsignalled queues its sync on
the host's release queue (glpipe/lifetime.py) for the next flush,
fence_finish or context entry point on the GL thread to delete.  docs/api.md
"Flush and fences" has the flags, lifetime and threading rules.
"""

from __future__ import annotations

import numbers
import weakref
from typing import Any

from lowering.errors import HostGLError, InvalidArgumentError, UnsupportedError

from .boundary import show
from .enums import PIPE_TIMEOUT_INFINITE, Flush, ResetStatus, all_flag_bits
from .lifetime import defer_delete, drain_deferred, pending_deletions
from .part import Area, Part

_ALL_FLUSH_BITS = all_flag_bits(Flush)


def drain_fences(host) -> int:
    """Run the host's release queue, which holds the syncs of dropped fences
    (glpipe/lifetime.py ``drain_deferred``: GL thread only; once the host is
    released nothing is deleted).  Returns how many releases ran."""
    return drain_deferred(host)


def pending_fence_deletions(host) -> int:
    """How many dropped fences' sync objects wait for deletion on ``host``."""
    return pending_deletions(host, ("sync",))


class Fence:
    """pipe_fence_handle: a point in a context's command stream.

    Read-only: ``screen``, ``context`` (the context that flushed), ``flags``
    (the Flush flags given), ``signalled`` (True once a wait saw it
    complete; a fence never becomes unsignalled again).
    """

    __slots__ = ("__weakref__", "_context", "_flags", "_host", "_release", "_screen", "_signalled", "_sync")

    def __init__(self, context, sync, flags: Flush):
        self._screen = context.screen
        self._context = weakref.ref(context)
        self._host = context.host
        self._sync = sync
        self._signalled = False
        self._flags = flags
        # Dropped unsignalled, on any thread: the sync goes on the host's release
        # queue for the GL thread (glpipe/lifetime.py; a finalizer, not __del__).
        self._release = weakref.finalize(self, defer_delete, self._host, "sync", sync)

    @property
    def screen(self) -> Any:  # a Screen (glpipe/screen.py imports this module: no import back)
        """The Screen of the context that made the fence."""
        return self._screen

    @property
    def context(self) -> Any:  # a Context or None (context.py imports this module: no import back)
        """The Context that made the fence (None once it was garbage-collected)."""
        return self._context()

    @property
    def flags(self) -> Flush:
        """The Flush flags of the flush that returned this fence."""
        return self._flags

    @property
    def signalled(self) -> bool:
        """Whether a wait has seen the fence signalled."""
        return self._signalled

    def _mark_signalled(self) -> None:
        """Signalled for good: the sync object is no longer needed (GL thread)."""
        self._signalled = True
        sync, self._sync = self._sync, None
        self._release.detach()
        if sync is not None and not self._host.released:
            self._host.gl.glDeleteSync(sync)

    def __repr__(self) -> str:
        state = "signalled" if self._signalled else "pending"
        return f"<glpipe.Fence {state} flags={int(self._flags):#x}>"


def _timeout_arg(timeout_ns) -> int:
    if isinstance(timeout_ns, bool) or not isinstance(timeout_ns, numbers.Integral):
        raise InvalidArgumentError(f"fence_finish: timeout_ns must be an integer (ns), got {timeout_ns!r}")
    t = int(timeout_ns)
    if t < 0:
        raise InvalidArgumentError(f"fence_finish: timeout_ns must be >= 0, got {t}")
    # glClientWaitSync takes a GLuint64; PIPE_TIMEOUT_INFINITE is its maximum.
    return min(t, PIPE_TIMEOUT_INFINITE)


GL_TIMEOUT_IGNORED = 0xFFFFFFFFFFFFFFFF  # glWaitSync's only timeout (GLuint64 ~0)

# glGetGraphicsResetStatus -> pipe_reset_status.
_RESET_STATUS = {
    0: ResetStatus.NO_RESET,  # GL_NO_ERROR
    0x8253: ResetStatus.GUILTY_CONTEXT_RESET,
    0x8254: ResetStatus.INNOCENT_CONTEXT_RESET,
    0x8255: ResetStatus.UNKNOWN_CONTEXT_RESET,
}


def _check_fence(fence, screen, what: str) -> Fence:
    if not isinstance(fence, Fence):
        raise InvalidArgumentError(f"{what}: expected a Fence, got {type(fence).__name__}")
    if fence.screen is not screen:
        raise InvalidArgumentError(f"{what}: the fence was made by another screen")
    return fence


def fence_finish(screen, ctx, fence, timeout_ns) -> bool:
    """pipe_screen::fence_finish (called by ``Screen.fence_finish``): wait up
    to ``timeout_ns`` for ``fence``; True if it signalled.  ``ctx`` is None
    or a Context (the screen checks its type: the context imports this module)."""
    _check_fence(fence, screen, "fence_finish")
    if ctx is not None and ctx.screen is not screen:
        raise InvalidArgumentError("fence_finish: ctx belongs to another screen")
    timeout = _timeout_arg(timeout_ns)
    if fence._signalled:
        return True
    host = screen.host
    if not host.on_gl_thread():
        if timeout == 0:
            return False
        raise HostGLError(
            "fence_finish: waiting on an unsignalled fence needs the GL thread "
            f"({host.gl_thread}); poll with timeout_ns=0 from other threads"
        )
    if host.released:
        raise HostGLError("fence_finish: the screen's host GL context was released")
    host.make_current()
    drain_fences(host)
    gl = host.gl
    result = int(gl.glClientWaitSync(fence._sync, gl.GL_SYNC_FLUSH_COMMANDS_BIT, timeout))
    if result in (int(gl.GL_ALREADY_SIGNALED), int(gl.GL_CONDITION_SATISFIED)):
        fence._mark_signalled()
        return True
    if result == int(gl.GL_TIMEOUT_EXPIRED):
        return False
    host.check("fence_finish")
    raise HostGLError(f"fence_finish: glClientWaitSync failed (0x{result:04x})")


class FencePart(Part):
    """The context's flush and its fences (``ctx.fences_part``)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # Live fences of this context, so destroy() can free their syncs.
        self._fences: weakref.WeakSet = weakref.WeakSet()
        self._reset_callback: Any = None  # set_device_reset_callback

    def flush(self, flags: Flush | int = 0) -> Fence:
        """pipe_context::flush: submit everything issued so far and return a
        Fence that signals when the host GL has finished it (``flags``: Flush
        bits, docs/api.md "Flush and fences")."""
        ctx = self.ctx
        ctx.check_alive("flush")
        if isinstance(flags, bool) or not isinstance(flags, numbers.Integral):
            raise InvalidArgumentError(f"flush: flags must be Flush bits, got {show(flags)}")
        if int(flags) & ~_ALL_FLUSH_BITS or int(flags) < 0:
            raise InvalidArgumentError(f"flush: unknown PIPE_FLUSH bits {int(flags) & ~_ALL_FLUSH_BITS:#x}")
        flags = Flush(int(flags))
        if flags & Flush.TOP_OF_PIPE and flags & Flush.BOTTOM_OF_PIPE:
            raise InvalidArgumentError("flush: at most one of TOP_OF_PIPE and BOTTOM_OF_PIPE (context.rst)")
        host = ctx.host
        host.make_current()
        drain_deferred(host)  # resources destroyed off the GL thread
        drain_fences(host)
        gl = ctx.gl
        sync = gl.glFenceSync(gl.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
        if not sync:
            host.check("flush")
            raise HostGLError("flush: glFenceSync returned no sync object")
        if not flags & Flush.DEFERRED:
            gl.glFlush()
        fence = Fence(ctx, sync, flags)
        self._fences.add(fence)
        if self._reset_callback is not None:
            self._check_reset()
        return fence

    def fence_server_sync(self, fence: Fence) -> None:
        """pipe_context::fence_server_sync: the context's later commands wait
        on the GPU (glWaitSync) until ``fence`` signals; the CPU does not wait."""
        ctx = self.ctx
        ctx.check_alive("fence_server_sync")
        fence = _check_fence(fence, ctx.screen, "fence_server_sync")
        if fence._signalled:
            return
        ctx.host.make_current()
        gl = ctx.gl
        gl.glWaitSync(fence._sync, 0, GL_TIMEOUT_IGNORED)
        ctx.host.check("fence_server_sync")

    def fence_server_signal(self, fence: Fence) -> None:
        """pipe_context::fence_server_signal: GL sync objects are one-time
        fences (a GL fence cannot be signalled again, nor by a command), so
        there are no re-usable fences to signal: PIPE_CAP_FENCE_SIGNAL is 0
        and this raises UnsupportedError."""
        ctx = self.ctx
        ctx.check_alive("fence_server_signal")
        _check_fence(fence, ctx.screen, "fence_server_signal")
        raise UnsupportedError(
            "fence_server_signal: GL sync objects cannot be re-signalled (PIPE_CAP_FENCE_SIGNAL is 0)"
        )

    def get_device_reset_status(self) -> ResetStatus:
        """pipe_context::get_device_reset_status through GL robustness
        (glGetGraphicsResetStatus; PIPE_CAP_DEVICE_RESET_STATUS_QUERY)."""
        ctx = self.ctx
        ctx.check_alive("get_device_reset_status")
        self._need_robustness("get_device_reset_status")
        ctx.host.make_current()
        return _RESET_STATUS.get(int(ctx.gl.glGetGraphicsResetStatus()), ResetStatus.UNKNOWN_CONTEXT_RESET)

    def set_device_reset_callback(self, cb: Any) -> None:
        """pipe_context::set_device_reset_callback: ``cb(status)`` (a
        ResetStatus) is called when a flush finds the device was reset;
        None removes it."""
        ctx = self.ctx
        ctx.check_alive("set_device_reset_callback")
        self._need_robustness("set_device_reset_callback")
        if cb is not None and not callable(cb):
            raise InvalidArgumentError(
                f"set_device_reset_callback: expected a callable or None, got {type(cb).__name__}"
            )
        self._reset_callback = cb

    def _need_robustness(self, what: str) -> None:
        screen = self.ctx.screen
        if not screen.profile.has("robustness"):
            raise UnsupportedError(
                f"{what}: needs GL robustness (glGetGraphicsResetStatus), which the "
                f"{screen.profile.name} profile does not have (PIPE_CAP_DEVICE_RESET_STATUS_QUERY is 0)"
            )

    def _check_reset(self) -> None:
        status = _RESET_STATUS.get(int(self.ctx.gl.glGetGraphicsResetStatus()), ResetStatus.UNKNOWN_CONTEXT_RESET)
        if status != ResetStatus.NO_RESET and self._reset_callback is not None:
            self._reset_callback(status)

    def destroy(self) -> None:
        """Context.destroy: wait for the GPU, then every fence of this context
        is signalled and its sync object deleted; dropped fences' syncs are
        deleted too."""
        fences = list(self._fences)
        if fences:
            self.ctx.gl.glFinish()
            for fence in fences:
                if not fence._signalled:
                    fence._mark_signalled()
        self._fences = weakref.WeakSet()
        drain_fences(self.ctx.host)


AREA = Area(
    "fences_part",
    part=FencePart,
    methods=(
        "flush",
        "fence_server_sync",
        "fence_server_signal",
        "get_device_reset_status",
        "set_device_reset_callback",
    ),
    destroy=FencePart.destroy,
)

__all__ = ["AREA", "Fence", "FencePart", "drain_fences", "fence_finish", "pending_fence_deletions"]
