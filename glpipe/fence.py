"""Flush and fences: pipe_context::flush (the fences area, ``FencePart``) and
pipe_screen::fence_finish.

A fence is a GL sync object; fences dropped off the GL thread queue their
syncs per host for the next flush, fence_finish or context destroy to
delete.  docs/api.md "Flush and fences" has the flags, lifetime and
threading rules.
"""

from __future__ import annotations

import collections
import numbers
import weakref
from typing import Any

from lowering.errors import HostGLError, InvalidArgumentError

from .boundary import show
from .enums import PIPE_TIMEOUT_INFINITE, Flush, all_flag_bits
from .part import Area, Part
from .resource import drain_deferred

_ALL_FLUSH_BITS = all_flag_bits(Flush)

# host -> deque of GL sync handles waiting for glDeleteSync on the GL thread.
# deque.append is atomic, so Fence.__del__ needs no lock.
_deferred_syncs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _queue_for(host) -> collections.deque:
    queue = _deferred_syncs.get(host)
    if queue is None:
        queue = _deferred_syncs.setdefault(host, collections.deque())
    return queue


def drain_fences(host) -> int:
    """Delete the sync objects of fences dropped since the last drain (GL
    thread only; elsewhere, or once the host is released, nothing is
    deleted).  Returns how many were deleted."""
    queue = _deferred_syncs.get(host)
    if not queue or not host.on_gl_thread():
        return 0
    if host.released:
        queue.clear()  # the GL context took its sync objects with it
        return 0
    host.make_current()
    n = 0
    while queue:
        host.gl.glDeleteSync(queue.popleft())
        n += 1
    return n


def pending_fence_deletions(host) -> int:
    """How many dropped fences' sync objects wait for deletion on ``host``."""
    queue = _deferred_syncs.get(host)
    return len(queue) if queue else 0


class Fence:
    """pipe_fence_handle: a point in a context's command stream.

    Read-only: ``screen``, ``context`` (the context that flushed), ``flags``
    (the Flush flags given), ``signalled`` (True once a wait saw it
    complete; a fence never becomes unsignalled again).
    """

    __slots__ = ("__weakref__", "_context", "_flags", "_host", "_screen", "_signalled", "_sync")

    def __init__(self, context, sync, flags: Flush):
        self._screen = context.screen
        self._context = weakref.ref(context)
        self._host = context.host
        self._sync = sync
        self._signalled = False
        self._flags = flags

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
        if sync is not None and not self._host.released:
            self._host.gl.glDeleteSync(sync)

    def __del__(self):
        sync = getattr(self, "_sync", None)
        if sync is not None:
            self._sync = None
            try:
                _queue_for(self._host).append(sync)
            except Exception:
                pass

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


def fence_finish(screen, ctx, fence, timeout_ns) -> bool:
    """pipe_screen::fence_finish (called by ``Screen.fence_finish``): wait up
    to ``timeout_ns`` for ``fence``; True if it signalled.  ``ctx`` is None
    or a Context (the screen checks its type: the context imports this module)."""
    if not isinstance(fence, Fence):
        raise InvalidArgumentError(f"fence_finish: expected a Fence, got {type(fence).__name__}")
    if fence.screen is not screen:
        raise InvalidArgumentError("fence_finish: the fence was made by another screen")
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
        return fence

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


AREA = Area("fences_part", part=FencePart, methods=("flush",), destroy=FencePart.destroy)

__all__ = ["AREA", "Fence", "FencePart", "drain_fences", "fence_finish", "pending_fence_deletions"]
