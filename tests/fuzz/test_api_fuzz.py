"""The API fuzzer, bounded (issue 12 item 8; docs/robustness.md "API fuzzing").

On both profiles, with fixed seeds: the systematic sweep (every operation x
every argument or template field x every bad value) and a random campaign
of call sequences with bad arguments and destroys mixed in.  Every call must
return or raise a PipeError subclass, leave no GL error pending, and the
known-good draw after each sequence must give the right pixels.  Calls that
accept a destroyed object are object-lifetime findings (issue 12 item 4),
printed, not asserted here.  ``scripts/fuzz_api.py`` runs the same for as
long as asked.
"""

from __future__ import annotations

import random

from .api_fuzzer import BAD_VALUES, Fuzzer, Stats, run_campaign, run_sweep

SEEDS = range(12)
SEQUENCES = 120  # ~10 s per profile on llvmpipe
LENGTH = 60


def _assert_clean(stats: Stats) -> None:
    def show(records) -> str:
        return "\n".join(" | ".join(str(part) for part in rec) for rec in records[:5])

    assert stats.boundary == [], f"non-PipeError exceptions:\n{show(stats.boundary)}"
    assert stats.lifetime == [], f"non-PipeError exceptions after a destroy:\n{show(stats.lifetime)}"
    assert stats.pending_gl == [], f"GL errors left pending: {stats.pending_gl[:5]}"
    assert stats.bad_pixels == [], f"known-good draw after a sequence: {stats.bad_pixels[:5]}"
    assert stats.slow == [], f"calls that took too long: {stats.slow[:5]}"


def test_api_sweep(screen):
    """Every operation, every argument path, every bad value: one call each."""
    stats = run_sweep(screen, seed=0)
    print(stats.summary())
    _assert_clean(stats)
    # It exercised the boundary: most spoiled calls were refused, some returned.
    assert stats.calls > 10_000
    assert stats.pipe_errors["InvalidArgumentError"] > stats.calls // 2
    assert stats.ok > 0


def test_api_random_sequences(screen):
    """Random sequences over every object kind, bad arguments and destroys mixed in."""
    stats = run_campaign(screen, SEEDS, length=LENGTH, sequences=SEQUENCES)
    print(stats.summary())
    if stats.accepted_dead:
        print("lifetime findings (a destroyed object accepted):", dict(stats.accepted_dead))
    _assert_clean(stats)
    assert stats.sequences == SEQUENCES
    assert stats.bad_calls > 0 and stats.ok > 0 and sum(stats.pipe_errors.values()) > 0


def test_fuzzer_sees_a_non_pipe_error(screen):
    """The classifier is not blind: a call raising TypeError is a boundary finding."""
    fz = Fuzzer(screen, random.Random(1))
    fz.ctx = screen.context_create()
    try:

        def broken(*_args):
            raise TypeError("a bug")

        fz._call("op_test", broken, [1], None, None, None)
        fz._call("op_test", fz.ctx.set_sample_mask, [0xFFFFFFFF], None, None, None)
    finally:
        fz.ctx.destroy()
    assert [rec[1] for rec in fz.stats.boundary] == ["TypeError: a bug"]
    assert fz.stats.ok == 1


def test_fuzzer_sees_wrong_pixels(screen, monkeypatch):
    """The known-good check is not blind: a draw that draws nothing is caught."""
    fz = Fuzzer(screen, random.Random(2))
    fz.ctx = screen.context_create()
    try:
        monkeypatch.setattr(fz.ctx, "draw_vbo", lambda *args: None)
        fz._check_known_good()
    finally:
        fz.ctx.destroy()
    assert len(fz.stats.bad_pixels) == 1
    assert "pixels wrong" in fz.stats.bad_pixels[0][1]


def test_fuzzer_slow_calls_and_pauses(screen, monkeypatch):
    """A call over SLOW_CALL is a finding; one the process was stopped during
    (SIGSTOP / SIGCONT: a campaign paused while CI runs, stop 23's gl33
    draw_vbo of "587 s") is counted as paused instead."""
    import os
    import signal
    import time

    from . import api_fuzzer

    monkeypatch.setattr(api_fuzzer, "SLOW_CALL", 0.05)
    fz = Fuzzer(screen, random.Random(3))

    def slow(*_args):
        time.sleep(0.1)

    def paused(*_args):
        os.kill(os.getpid(), signal.SIGCONT)  # what the shell's kill -CONT delivers
        time.sleep(0.1)

    fz._call("op_slow", slow, [], None, None, None)
    fz._call("op_paused", paused, [], None, None, None)
    fz._call("op_fast", lambda *_args: None, [], None, None, None)
    assert [rec[0] for rec in fz.stats.slow] == ["slow"]
    assert fz.stats.paused == 1


def test_bad_value_kinds_present():
    kinds = {type(v) for v in BAD_VALUES}
    assert {type(None), str, bytes, float, bool, int, list, tuple, dict, object} <= kinds
    ints = [v for v in BAD_VALUES if type(v) is int]
    assert min(ints) < -(2**63) and max(ints) > 2**64 and 2**32 + 3 in ints and 2**31 in ints
