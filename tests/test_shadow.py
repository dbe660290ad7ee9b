"""glpipe/host/shadow.py on its own: interned snapshots, transitions cached by
the identity of the snapshot they start from, forget / lose, the run and
its counter.  No GL: the calls go to a recording stand-in for ctx._hot_ops."""

from __future__ import annotations

import types

from glpipe.host.shadow import Held, Shadow, host_shadow


def _compute(have, want):
    """A block of three switches: one call (op = slot index, args = value)
    per slot whose wanted value differs from what the host holds."""
    have = have or (None, None, None)
    calls = [(i, (w,)) for i, (h, w) in enumerate(zip(have, want, strict=True)) if w is not None and h != w]
    return calls, tuple(h if w is None else w for h, w in zip(have, want, strict=True))


def _ctx():
    sent = []

    def op(i):
        def call(*args):
            sent.append((i, args))

        return call

    ops = tuple(op(i) for i in range(3))
    return types.SimpleNamespace(_hot_ops=ops, _counters=types.SimpleNamespace(gl_state_calls=0)), sent


def test_intern_gives_one_held_per_state():
    s = Shadow()
    a = s.intern((1, 2, 3))
    assert isinstance(a, Held) and a.state == (1, 2, 3)
    assert s.intern((1, 2, 3)) is a
    assert s.intern((1, 2, 4)) is not a


def test_forget_sends_the_whole_block_and_the_counter_counts_every_call():
    s = Shadow()
    ctx, sent = _ctx()
    want = {}
    assert s.emit(ctx, want, _compute, (True, False, 7)) == 3
    assert sent == [(0, (True,)), (1, (False,)), (2, (7,))]
    assert ctx._counters.gl_state_calls == 3
    assert s.held.state == (True, False, 7)
    # Again: the host holds it, no call.
    sent.clear()
    assert s.emit(ctx, want, _compute, (True, False, 7)) == 0 and sent == []
    # Forgotten: every slot is sent again.
    s.forget()
    assert s.held is None
    assert s.emit(ctx, want, _compute, (True, False, 7)) == 3
    assert sent == [(0, (True,)), (1, (False,)), (2, (7,))]
    assert ctx._counters.gl_state_calls == 6


def test_transitions_are_cached_by_the_identity_of_the_held_snapshot():
    s = Shadow()
    ctx, sent = _ctx()
    a_steps, b_steps = {}, {}
    calls = []

    def counted(have, want):
        calls.append((have, want))
        return _compute(have, want)

    a, b = (True, 1, None), (False, 1, 5)  # a does not care about slot 2
    for _ in range(3):
        s.emit(ctx, a_steps, counted, a)
        s.emit(ctx, b_steps, counted, b)
    # Computed once per (held snapshot, block): a from unknown, b from a's,
    # a from b's, then b from (False->True) a-after-b's snapshot; nothing more.
    held_keys_a = list(a_steps)
    assert None in a_steps and len(a_steps) == 2 and len(b_steps) == 2
    assert all(k is None or type(k) is Held for k in held_keys_a)
    assert len(calls) == 4
    # The switch sends only the slots that differ.
    sent.clear()
    s.emit(ctx, a_steps, counted, a)
    assert sent == [(0, (True,))]  # slot 2 is don't-care, slot 1 agrees
    # An equal but distinct snapshot is not the cached one: identity, not equality.
    s.held = Held(s.held.state)
    s.emit(ctx, b_steps, counted, b)
    assert len(calls) == 5


def test_lose_makes_positions_unknown_and_is_memoised():
    s = Shadow()
    ctx, sent = _ctx()
    s.emit(ctx, {}, _compute, (True, False, 7))
    held = s.held
    s.lose(frozenset({0, 2}))
    assert s.held.state == (None, False, None)
    after = s.held
    s.held = held
    s.lose(frozenset({0, 2}))
    assert s.held is after
    sent.clear()
    s.emit(ctx, {}, _compute, (True, False, 7))
    assert sent == [(0, (True,)), (2, (7,))]
    s.forget()
    s.lose(frozenset({1}))  # nothing recorded: stays unknown
    assert s.held is None


def test_clear_drops_the_intern_table_and_the_record():
    s = Shadow()
    ctx, _sent = _ctx()
    s.emit(ctx, {}, _compute, (1, 2, 3))
    old = s.held
    s.clear()
    assert s.held is None and s.states == {}
    assert s.intern((1, 2, 3)) is not old


def test_host_shadow_is_one_per_host_and_block():
    class Host:  # weak-referenceable stand-in for a HostGL
        pass

    h1, h2 = Host(), Host()
    assert host_shadow(h1, "blend") is host_shadow(h1, "blend")
    assert host_shadow(h1, "blend") is not host_shadow(h1, "dsa")
    assert host_shadow(h1, "blend") is not host_shadow(h2, "blend")

    class Special(Shadow):
        __slots__ = ("extra",)

    assert type(host_shadow(h2, "rasterizer", Special)) is Special
