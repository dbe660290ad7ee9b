"""Object lifetimes: the deferred-release queue of each host GL context, the
finalizers that feed it for objects dropped without their destroy call, and
the methods a destroyed context or screen is left with.

GL objects can only be deleted on the thread the host GL context is current
on, and never from inside a garbage-collector callback that may run in the
middle of another GL sequence.  So a release that cannot run now (a
resource destroyed off the GL thread, any object dropped unreferenced) is
queued per host and run at the next drain: resource_create /
resource_destroy / ensure_storage, flush, and every entry point of a live
context that checks it is alive (``Context.check_alive``).  docs/robustness.md
"Object lifetimes and soak" has the rules.
"""

from __future__ import annotations

import collections
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from lowering.errors import ObjectDestroyedError

# host -> deque of pending releases: ("texture" | "buffer" | ..., GL name) or
# (callable, args).  Weak keys: a released host's queue goes with it.
# deque.append is atomic, so finalizers (which may run in any thread, inside
# any call) append without a lock; drain_deferred pops under the host lock.
_queues: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# GL object kind -> (delete entry point, whether it takes (count, names)).
_DELETERS = {
    "texture": ("glDeleteTextures", True),
    "buffer": ("glDeleteBuffers", True),
    "sampler": ("glDeleteSamplers", True),
    "framebuffer": ("glDeleteFramebuffers", True),
    "vertex_array": ("glDeleteVertexArrays", True),
    "program": ("glDeleteProgram", False),
    "shader": ("glDeleteShader", False),
    "sync": ("glDeleteSync", False),  # a GLsync handle, not a name
}


def release_queue(host) -> collections.deque:
    """The deque of releases waiting for ``host``'s GL thread (made on first use).
    A context keeps it to test, in one truth test, whether anything waits."""
    queue = _queues.get(host)
    if queue is None:
        queue = _queues.setdefault(host, collections.deque())
    return queue


def defer_delete(host, kind: str, name: int) -> None:
    """Queue the deletion of GL object ``name`` (a ``_DELETERS`` kind) for
    ``host``'s GL thread.  Safe from any thread and from finalizers."""
    release_queue(host).append((kind, name))


def defer_call(host, fn: Callable[..., Any], *args: Any) -> None:
    """Queue ``fn(*args)`` for ``host``'s GL thread: the release of an object
    that also has context-side records (an FBO made with a dropped surface,
    the GL texture of a dropped sampler view).  ``fn`` must not hold the
    dropped object."""
    release_queue(host).append((fn, args))


def on_drop(obj: object, host, method: Callable[..., Any], *args: Any) -> weakref.finalize:
    """When ``obj`` is collected, queue ``method(*args)`` (a bound method of a
    context's part) for ``host``'s GL thread.  The method's owner is held
    weakly: weakref.finalize keeps its arguments alive from a global registry
    until ``obj`` dies, and the part reaches ``obj`` (bound state, the
    context's records), so a strong reference would keep the part, its
    context and everything they hold alive for good (the API fuzz campaign's
    RSS, docs/robustness.md).  A part that is gone has nothing to release:
    its context was destroyed or collected.  ``args`` must not hold ``obj``."""
    return weakref.finalize(obj, defer_call, host, _call_if_alive, weakref.WeakMethod(method), *args)


def _call_if_alive(method_ref: weakref.WeakMethod, *args: Any) -> None:
    method = method_ref()
    if method is not None:
        method(*args)


def pending_deletions(host, kinds: Iterable[str] | None = None) -> int:
    """How many releases wait for ``host``'s GL thread (only GL deletions of
    the ``_DELETERS`` kinds in ``kinds``, if given)."""
    queue = _queues.get(host)
    if not queue:
        return 0
    if kinds is None:
        return len(queue)
    wanted = frozenset(kinds)
    return sum(1 for head, _ in list(queue) if isinstance(head, str) and head in wanted)


def delete_now(host, objects: Iterable[tuple[str, int]]) -> None:
    """Delete GL objects, ``(kind, name)`` pairs, now (GL thread, context current)."""
    gl = host.gl
    by_kind: dict[str, list[int]] = {}
    for kind, name in objects:
        by_kind.setdefault(kind, []).append(name)
    for kind, names in by_kind.items():
        entry, counted = _DELETERS[kind]
        fn = getattr(gl, entry)
        if counted:
            fn(len(names), names)
        else:
            for name in names:
                fn(name)


def drain_deferred(host) -> int:
    """Run the releases queued for ``host``: context-side releases first (they
    may delete FBOs holding a texture), then the GL deletions.

    Call on the GL thread (elsewhere it does nothing and returns 0); once
    the host is released the queue is dropped (the GL context took its
    objects with it).  Returns how many releases ran."""
    queue = _queues.get(host)
    if not queue or not host.on_gl_thread():
        return 0
    with host.lock:
        items = []
        while queue:
            items.append(queue.popleft())
        if host.released:
            return 0
        host.make_current()
        deletions = []
        for head, rest in items:
            if isinstance(head, str):
                deletions.append((head, rest))
            else:
                head(*rest)
        if deletions:
            delete_now(host, deletions)
        return len(items)


def refuse_calls(obj: object, names: Iterable[str], what: str) -> None:
    """Make every method in ``names`` of ``obj`` raise ObjectDestroyedError
    naming the method and ``what`` ("context", "screen") -- before looking at
    its arguments.  Stored in the instance ``__dict__``, which shadows the
    class's methods (and the parts' bound methods glpipe/part.py ``attach``
    put there): a live object pays nothing for it."""
    for name in names:
        obj.__dict__[name] = _refuser(name, what)


def _refuser(name: str, what: str) -> Callable[..., None]:
    def destroyed(*args: Any, **kwargs: Any) -> None:
        raise ObjectDestroyedError(f"{name}: the {what} was destroyed")

    destroyed.__name__ = name
    return destroyed


__all__ = [
    "defer_call",
    "defer_delete",
    "delete_now",
    "drain_deferred",
    "pending_deletions",
    "refuse_calls",
    "release_queue",
]
