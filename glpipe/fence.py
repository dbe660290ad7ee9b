"""Flush and fences: pipe_context::flush (the fences area, ``FencePart``) and
pipe_screen::fence_finish.

A fence is a GL sync object; a fence dropped unsignalled queues its sync on
the host's release queue (glpipe/lifetime.py) for the next flush,
fence_finish or context entry point on the GL thread to delete.  docs/api.md
"Flush and fences" has the flags, lifetime and threading rules.
"""

from __future__ import annotations

import numbers
import threading
import weakref
from typing import Any

from lowering.errors import HostGLError, InvalidArgumentError, ObjectDestroyedError, UnsupportedError

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

    __slots__ = (
        "__weakref__",
        "_context",
        "_flags",
        "_host",
        "_part",
        "_release",
        "_screen",
        "_seq",
        "_signalled",
        "_sync",
        "_waiters",
    )

    def __init__(self, context, sync, flags: Flush, seq: int = 0):
        self._screen = context.screen
        self._context = weakref.ref(context)
        self._part = weakref.ref(context.fences_part)
        self._host = context.host  # the GL context whose command stream holds the sync
        self._seq = seq  # the flush of its context that made it (FencePart.submitted)
        self._sync = sync
        self._signalled = False
        self._waiters = 0  # threads inside a GL wait on the sync (it stays until they leave)
        self._flags = flags
        # Dropped unsignalled, on any thread: the sync goes on the screen host's
        # release queue (glpipe/lifetime.py; a finalizer, not __del__).  Syncs
        # are shared by the share group, and the screen's GL context outlives
        # any thread's (glpipe/host/egl_share.py).
        self._release = weakref.finalize(self, defer_delete, self._screen.host, "sync", sync)

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

    def _submitted(self) -> bool:
        """Whether the fence's sync reached the GL server: a flush without
        DEFERRED made it, or a later flush of its context submitted it.  Only
        a submitted sync can signal for another GL context (GL 4.5 §4.1.2:
        a context's unflushed commands may never execute for another)."""
        if not self._flags & Flush.DEFERRED:
            return True
        part = self._part()
        return part is None or part.submitted >= self._seq

    def _enter_wait(self):
        """The sync to wait on, counted as waited on (None: already signalled)."""
        with _MARK_LOCK:
            if self._sync is None:
                return None
            self._waiters += 1
            return self._sync

    def _leave_wait(self, signalled: bool) -> None:
        """A wait on the sync ended (``signalled``: it saw the fence signal)."""
        with _MARK_LOCK:
            self._waiters -= 1
        if signalled or self._signalled:  # (another thread may have seen it signal meanwhile)
            self._mark_signalled()

    def _mark_signalled(self) -> None:
        """Signalled for good: the sync object is no longer needed.  It is
        deleted now unless another thread is inside a wait on it (then the
        last one to leave deletes it); deleting needs a GL context of the
        screen's share group current on the calling thread (syncs are
        shared: any of them deletes it)."""
        with _MARK_LOCK:
            self._signalled = True
            if self._waiters:
                return
            sync, self._sync = self._sync, None
        self._release.detach()
        if sync is not None and not self._screen.host.released:
            self._host.gl.glDeleteSync(sync)

    def __repr__(self) -> str:
        state = "signalled" if self._signalled else "pending"
        return f"<glpipe.Fence {state} flags={int(self._flags):#x}>"


_MARK_LOCK = threading.Lock()


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
    if ctx is not None and ctx.destroyed:
        # A destroyed pipe_context may not be passed to anything (issue 12
        # item 4).  The fence itself outlives its context (pipe_fence_handle is
        # reference counted; the destroy finished its work): pass None.
        raise ObjectDestroyedError("fence_finish: ctx was destroyed (pass None to wait on its fences)")
    timeout = _timeout_arg(timeout_ns)
    if fence._signalled:
        return True
    # The GL context to wait in: ``ctx``'s on its thread, else the screen's
    # GL context current on this thread (the screen's own, or the share
    # group's of a thread with pipe contexts: glpipe/host/egl_share.py).
    host = ctx.host if ctx is not None and ctx.host.on_gl_thread() else screen._host_here()
    if host is None:
        if timeout == 0:
            return False
        raise HostGLError(
            f"fence_finish: waiting on an unsignalled fence needs the GL thread ({screen.host.gl_thread}) "
            f"or a thread with a live pipe context of the screen (a GL context); this is thread "
            f"{threading.get_ident()}; poll with timeout_ns=0 from other threads"
        )
    if host.released or screen.host.released:
        raise HostGLError("fence_finish: the screen's host GL context was released")
    host.make_current()
    drain_fences(host)
    gl = host.gl
    flush_bit = gl.GL_SYNC_FLUSH_COMMANDS_BIT
    if host is not fence._host and not fence._submitted():
        # Another GL context's unsubmitted sync: flushing this one does not
        # submit it, so an unbounded wait would never end.
        if timeout == PIPE_TIMEOUT_INFINITE:
            raise InvalidArgumentError(
                "fence_finish: the fence comes from a DEFERRED flush of a context on another GL context "
                "(thread) that has not flushed since; it can never signal here until that context "
                "flushes (wait with a finite timeout, or flush it there first)"
            )
        flush_bit = 0
    sync = fence._enter_wait()
    if sync is None:  # another thread saw it signal meanwhile
        return True
    result = 0
    try:
        result = int(gl.glClientWaitSync(sync, flush_bit, timeout))
    finally:
        fence._leave_wait(result in (int(gl.GL_ALREADY_SIGNALED), int(gl.GL_CONDITION_SATISFIED)))
    if fence._signalled:
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
        # Flushes made (``_seq``) and the last one that reached the GL server
        # (``submitted``: without DEFERRED): a DEFERRED fence is submitted once
        # a later flush is (Fence._submitted).
        self._seq = 0
        self.submitted = 0

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
        self._seq += 1
        if not flags & Flush.DEFERRED:
            # Also what makes this context's work visible to the other GL
            # contexts of the share group (GL 4.5 appendix D.3.1).
            gl.glFlush()
            self.submitted = self._seq
        fence = Fence(ctx, sync, flags, self._seq)
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
        if fence._host is not ctx.host and not fence._submitted():
            # glWaitSync here on a sync its GL context never flushed could
            # stall this context's commands for ever (GL 4.5 §4.1.2).
            raise InvalidArgumentError(
                "fence_server_sync: the fence comes from a DEFERRED flush of a context on another GL context "
                "(thread) that has not flushed since; flush that context first"
            )
        ctx.host.make_current()
        sync = fence._enter_wait()
        if sync is None:
            return  # signalled meanwhile
        try:
            ctx.gl.glWaitSync(sync, 0, GL_TIMEOUT_IGNORED)
        finally:
            fence._leave_wait(False)
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
