"""scripts/fuzz_tgsi.py's hang rule: CPU time of the worker, not the wall clock,
so a niced campaign on a busy machine does not blame a program for waiting."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from types import SimpleNamespace

_SPEC = importlib.util.spec_from_file_location(
    "fuzz_tgsi_script", Path(__file__).resolve().parents[2] / "scripts" / "fuzz_tgsi.py"
)
fuzz_tgsi = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fuzz_tgsi)


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_cpu_seconds_counts_this_process_work():
    before = fuzz_tgsi._cpu_seconds(os.getpid())
    _spin(0.3)
    after = fuzz_tgsi._cpu_seconds(os.getpid())
    assert before is not None and after is not None
    assert 0.2 <= after - before < 5.0
    assert fuzz_tgsi._cpu_seconds(2**22 + 12345) is None  # no such process


def test_a_waiting_worker_is_not_hung_a_computing_one_is():
    me = SimpleNamespace(pid=os.getpid())
    now = time.monotonic()
    cpu = fuzz_tgsi._cpu_seconds(me.pid)
    # Two seconds of wall time passed but no CPU was spent on the program: waiting.
    assert not fuzz_tgsi._hung(me, now - 2.0, cpu, timeout=1.0)
    # CPU spent past the timeout: hung.
    _spin(0.3)
    assert fuzz_tgsi._hung(me, time.monotonic(), cpu, timeout=0.2)
    # Ten times the timeout of wall time: hung whatever the CPU says (a stuck worker).
    assert fuzz_tgsi._hung(me, now - 25.0, fuzz_tgsi._cpu_seconds(me.pid), timeout=2.0)
    # No /proc reading: the wall clock decides.
    assert fuzz_tgsi._hung(me, now - 2.0, None, timeout=1.0)


def test_a_pause_does_not_make_a_hang(monkeypatch):
    """A campaign stopped with SIGSTOP while CI runs and continued ten minutes
    later: the wall-clock limit counts from the SIGCONT, not across the pause."""
    me = SimpleNamespace(pid=os.getpid())
    now = time.monotonic()
    cpu = fuzz_tgsi._cpu_seconds(me.pid)
    monkeypatch.setattr(fuzz_tgsi, "_continued", [0.0])
    assert fuzz_tgsi._hung(me, now - 700.0, cpu, timeout=60.0)
    fuzz_tgsi._continued[0] = now - 1.0  # continued a second ago
    assert not fuzz_tgsi._hung(me, now - 700.0, cpu, timeout=60.0)
