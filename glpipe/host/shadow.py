"""Shadowed blocks of host GL state (blend, depth/stencil/alpha, rasterizer) and
the cached calls that take the host from what it holds to what a draw wants.

docs/performance.md "State shadows" explains ``Held``, ``Shadow``, the steps and
the per-host scope.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable


class Held:
    """One interned snapshot of a block as the host holds it (``state``, a
    tuple; None entries are unknown).  ``lost`` memoises ``Shadow.lose``:
    {positions made unknown: the resulting Held}."""

    __slots__ = ("lost", "state")

    def __init__(self, state: tuple) -> None:
        self.state = state
        self.lost: dict | None = None

    def __repr__(self) -> str:
        return f"<Held {self.state!r}>"


#: A step: the calls to send, the snapshot after them, how many calls.
Step = tuple  # (tuple[(int, tuple)], Held, int)


class Shadow:
    """What one host GL context holds of one block of state (module
    docstring).  ``held`` is read and written by the emits directly."""

    __slots__ = ("__weakref__", "held", "states")

    def __init__(self) -> None:
        self.held: Held | None = None
        self.states: dict[tuple, Held] = {}

    def intern(self, state: tuple) -> Held:
        """The one ``Held`` of ``state`` in this shadow."""
        held = self.states.get(state)
        if held is None:
            held = self.states[state] = Held(state)
        return held

    def forget(self) -> None:
        """The host no longer holds what was recorded (a clear, raw GL,
        another pipe context drew): the next emit sends the whole block."""
        self.held = None

    def lose(self, positions: frozenset) -> None:
        """The entries of the snapshot at ``positions`` may have changed
        behind the record (the rest still holds): make them unknown, so the
        next transition sends them.  Memoised per held snapshot."""
        held = self.held
        if held is None:
            return
        lost = held.lost
        if lost is None:
            lost = held.lost = {}
        after = lost.get(positions)
        if after is None:
            after = lost[positions] = self.intern(
                tuple(None if i in positions else entry for i, entry in enumerate(held.state))
            )
        self.held = after

    def clear(self) -> None:
        """GLPIPE_DEBUG=nofast: drop the intern table and the record, so
        every transition is computed anew from an unknown host."""
        self.states.clear()
        self.held = None

    def transition(self, transitions: dict, compute: Callable[..., tuple], *args) -> Step:
        """The step from ``held`` when ``transitions`` (the area's cache,
        keyed by held snapshot) has none: ``compute(have, *args)`` returns
        (calls, state after), ``have`` being the held state tuple or None
        (unknown); the step is interned, cached and returned."""
        held = self.held
        calls, state = compute(None if held is None else held.state, *args)
        step = transitions[held] = (tuple(calls), self.intern(state), len(calls))
        return step

    def emit(self, ctx, transitions: dict, compute: Callable[..., tuple], *args) -> int:
        """Take the host to the wanted block: look the step up (computing it
        on a miss), run its calls through ``ctx._hot_ops``, count them in the
        screen's counters, record the snapshot after.  Returns the number of
        calls.  (The draw-path emits inline this; off the hot path it is
        the one way to run a shadowed block.)"""
        step = transitions.get(self.held)
        if step is None:
            step = self.transition(transitions, compute, *args)
        calls, self.held, n = step
        if n:
            ops = ctx._hot_ops
            for op, args_ in calls:
                ops[op](*args_)
            ctx._counters.gl_state_calls += n
        return n


_BY_HOST: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def host_shadow(host, block: Hashable, factory: Callable[[], Shadow] = Shadow) -> Shadow:
    """The shadow of ``block`` (a name: "blend", "dsa", "rasterizer") on the
    host GL context ``host``, made by ``factory`` on first use and shared by
    every pipe context on that host; it goes with the host."""
    shadows = _BY_HOST.get(host)
    if shadows is None:
        shadows = _BY_HOST[host] = {}
    shadow = shadows.get(block)
    if shadow is None:
        shadow = shadows[block] = factory()
    return shadow


__all__ = ["Held", "Shadow", "host_shadow"]
