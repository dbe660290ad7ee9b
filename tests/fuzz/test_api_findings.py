"""Regression tests for what the API fuzz campaigns found (docs/robustness.md
"API fuzzing"), on both profiles.

fence_finish and destroyed objects.  The stop-22 campaign counted
``fence_finish`` returning normally when handed a destroyed object (31 / 42
times on native / gl33): always the fuzzed context, destroyed earlier in the
sequence, given as ``ctx``.  Gallium's rule (p_screen.h ``fence_finish``):
``ctx`` is the context to flush before waiting when the fence came from a
deferred flush of it, or NULL; a destroyed pipe_context may not be passed to
anything, so glpipe refuses it with ObjectDestroyedError (issue 12 item 4).
The fence itself is not the context's: pipe_fence_handle is reference
counted and outlives the context that flushed it (a context's destroy
finishes its work, so its fences are signalled), so ``fence_finish(None,
fence)`` and waits from other contexts keep working.  A fence has no destroy
of its own (``fence_reference(&f, NULL)`` is Python dropping the reference),
so there is no "destroyed fence" to refuse.
"""

from __future__ import annotations

import random

import pytest

from glpipe import PIPE_TIMEOUT_INFINITE, Flush
from glpipe.errors import ObjectDestroyedError

from .api_fuzzer import Fuzzer


@pytest.mark.parametrize("timeout", [0, 1000, PIPE_TIMEOUT_INFINITE])
def test_fence_finish_refuses_a_destroyed_context(screen, timeout):
    """A destroyed context as ``ctx`` raises ObjectDestroyedError naming
    fence_finish and ctx, for its own fences and another context's."""
    c = screen.context_create()
    own = c.flush()
    live = screen.context_create()
    try:
        other = live.flush()
        c.destroy()
        for fence in (own, other):
            with pytest.raises(ObjectDestroyedError, match=r"fence_finish: ctx"):
                screen.fence_finish(c, fence, timeout)
        # The refusal changed nothing: the fences still answer.
        assert screen.fence_finish(live, other, PIPE_TIMEOUT_INFINITE) is True
    finally:
        live.destroy()


@pytest.mark.parametrize("flags", [0, Flush.DEFERRED])
def test_a_fence_outlives_its_context(screen, ctx, flags):
    """A fence of a destroyed context stays valid: destroy finished the
    context's work, so it reads signalled from None, another live context
    (fence_finish and fence_server_sync) and on every later call."""
    c = screen.context_create()
    fence = c.flush(flags)
    c.destroy()
    assert fence.signalled
    assert screen.fence_finish(None, fence, 0) is True
    assert screen.fence_finish(None, fence, PIPE_TIMEOUT_INFINITE) is True
    assert screen.fence_finish(ctx, fence, PIPE_TIMEOUT_INFINITE) is True
    ctx.fence_server_sync(fence)
    ctx.flush()


def test_the_fuzzer_no_longer_counts_fence_finish_on_a_destroyed_context(screen):
    """The fuzzer's own sequence of the finding: flush, ctx.destroy(), then
    fence_finish with the destroyed context.  It used to return normally
    (counted in ``accepted_dead``); now it raises ObjectDestroyedError."""
    fz = Fuzzer(screen, random.Random(5))
    fz.ctx = screen.context_create()
    fz._call("op_flush", *fz.op_flush(), None, None)
    fz._call("op_context_destroy", *fz.op_context_destroy(), None, None)
    assert fz.ctx_destroyed
    for _ in range(4):
        fz._call("op_fence_finish", *fz.op_fence_finish(), None, None)
    assert fz.stats.accepted_dead["fence_finish"] == 0
    assert fz.stats.pipe_errors["ObjectDestroyedError"] == 4
    assert fz.stats.boundary == [] and fz.stats.lifetime == []


def test_a_spoiled_destroyed_argument_is_not_a_destroyed_object_accepted(screen):
    """The ef9ecbd campaign's one finding (native seed 83002329) was the
    fuzzer's: the destroyed context given to fence_finish was the argument it
    spoiled, with None, and ``fence_finish(None, fence)`` is valid.  Findings
    are classified by what the call was given: spoiled to None, the call
    returns and counts nothing; unspoiled, the destroyed context is refused."""
    fz = Fuzzer(screen, random.Random(7))
    fz.ctx = screen.context_create()
    fz._call("op_flush", *fz.op_flush(), None, None)
    fz._call("op_context_destroy", *fz.op_context_destroy(), None, None)
    fz._call("op_fence_finish", *fz.op_fence_finish(), (0,), None)  # ctx spoiled to None
    assert fz.stats.accepted_dead["fence_finish"] == 0
    assert fz.stats.returned["fence_finish"] == 1
    fz._call("op_fence_finish", *fz.op_fence_finish(), None, None)  # the destroyed ctx itself
    assert fz.stats.pipe_errors["ObjectDestroyedError"] == 1
    assert fz.stats.boundary == [] and fz.stats.lifetime == []


def test_the_finding_sequence_replays_clean(screen):
    """The whole sequence of seed 83002329 (60 calls and the known-good draw)
    now counts no finding on either profile."""
    fz = Fuzzer(screen, random.Random(83002329))
    fz.run_sequence(60)
    s = fz.stats
    assert sum(s.accepted_dead.values()) == 0
    assert s.boundary == [] and s.lifetime == [] and s.pending_gl == [] and s.bad_pixels == []
    assert s.calls > 50
