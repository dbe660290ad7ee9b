#!/usr/bin/env python3
"""Fuzz glpipe's TGSI path for as long as asked, and count what happened.

    python scripts/fuzz_tgsi.py --programs 100000
    python scripts/fuzz_tgsi.py --seconds 600 --compile --profile gl33

Programs come from tests/fuzz/tgsi_grammar.py: generated from the grammar
(valid and with bad operands, every stage) and mutated from the lowering's
corpus, one seed each (``--seed`` is the first; a finding names its seed and
is saved under ``--out``).  Each goes through parse, validate and the GLSL
emitter; with ``--compile`` it is also created with glpipe on a screen of
``--profile`` and drawn (compute programs are compiled on the host).  Work
runs in worker processes (``--jobs``), so a crash (the process dies) or a hang
(no answer after ``--timeout`` seconds of the worker's CPU time -- a campaign
niced on a busy machine waits without blaming the program -- or after ten
times that of wall time, for a worker stuck without computing) is counted,
saved, and the worker replaced.  Printed: refused (by error class), lowered, compiled, drawn,
crashes, hangs, internal errors (the host rejected what the validator
passed) and non-PipeError exceptions.  Exit status 1 when any of the last
four is non-zero.  docs/robustness.md "TGSI fuzzing" records the campaigns.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
import traceback
from collections import Counter
from multiprocessing.connection import wait as mp_wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


FINDINGS = ("crash", "hang", "internal", "exception")


def _program(seed: int, corpus: list[str]) -> str:
    """The program of ``seed``: even seeds from the grammar, odd ones mutated."""
    from tests.fuzz.tgsi_grammar import RandomDraw, mutate, program

    d = RandomDraw(seed)
    if seed % 2 == 0:
        return program(d, valid=d.chance(0.6))
    return mutate(d, d.choice(corpus))


def _worker(conn, compile_on_host: bool, profile: str) -> None:
    """Answer seeds with (outcome, detail) until the parent closes the pipe."""
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    # The campaign looks for glpipe's faults: it turns on the driver setting
    # that keeps LLVM 15's bad AVX2 gathers out of llvmpipe (off by default;
    # glpipe/host/preload.py), or about one program in a thousand dies of it.
    os.environ.setdefault("GLPIPE_HOST_PRELOAD", "on")
    from tests.fuzz.tgsi_grammar import corpus
    from tests.fuzz.tgsi_runner import HostDraw, InternalError, lower

    texts = corpus()
    host = HostDraw(profile) if compile_on_host else None
    while True:
        try:
            seed = conn.recv()
        except EOFError:
            return
        text = _program(seed, texts)
        try:
            outcome = lower(text)
            if host is not None and not outcome.startswith("refused"):
                outcome = host.run(text)
            conn.send((outcome, ""))
        except InternalError as exc:
            conn.send(("internal", str(exc)))
        except Exception as exc:  # the findings: anything but a PipeError
            conn.send(("exception", "".join(traceback.format_exception(exc))[-4000:]))


class _Pool:
    """Worker processes, each answering one seed at a time."""

    def __init__(self, jobs: int, compile_on_host: bool, profile: str) -> None:
        self.args = (compile_on_host, profile)
        self.ctx = mp.get_context("spawn")
        self.workers = [self._start() for _ in range(jobs)]

    def _start(self):
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, *self.args), daemon=True)
        proc.start()
        child.close()
        return [proc, parent, None, 0.0, None]  # process, pipe, seed in flight, sent at, worker CPU then

    def replace(self, n: int) -> None:
        """Kill worker ``n`` (it crashed or hung) and start another."""
        proc = self.workers[n][0]
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        self.workers[n] = self._start()


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system, every thread) of process ``pid`` so far, from
    /proc; None where /proc is not there (then the wall clock decides)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _hung(proc, sent: float, cpu_at_send: float | None, timeout: float) -> bool:
    """Whether the worker has spent ``timeout`` seconds of CPU on one program
    (or ten times that of wall time)."""
    if time.monotonic() - sent > 10 * timeout:
        return True
    cpu = _cpu_seconds(proc.pid)
    if cpu is None or cpu_at_send is None:
        return time.monotonic() - sent > timeout
    return cpu - cpu_at_send > timeout


def _save(out: Path, kind: str, seed: int, text: str, detail: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{kind}-{seed}.tgsi").write_text(text)
    (out / f"{kind}-{seed}.txt").write_text(detail)


def main(argv=None) -> int:
    """Run the campaign the arguments describe; print the counts."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=0, help="stop after this many programs")
    ap.add_argument("--seconds", type=float, default=0.0, help="stop after this many seconds")
    ap.add_argument("--compile", action="store_true", help="also create and draw each program on the host")
    ap.add_argument("--profile", default="native", help="host profile for --compile (native or gl33)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--timeout", type=float, default=60.0, help="CPU seconds one program may take (else: a hang)")
    ap.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="where findings are saved")
    args = ap.parse_args(argv)
    if not args.programs and not args.seconds:
        args.programs = 1000
    from tests.fuzz.tgsi_grammar import corpus

    texts = corpus()
    pool = _Pool(max(1, args.jobs), args.compile, args.profile)
    counts: Counter = Counter()
    next_seed, done, start = args.seed, 0, time.monotonic()

    def more() -> bool:
        if args.programs and next_seed - args.seed >= args.programs:
            return False
        return not (args.seconds and time.monotonic() - start >= args.seconds)

    try:
        while True:
            in_flight = [slot[1] for slot in pool.workers if slot[2] is not None]
            if in_flight:
                mp_wait(in_flight + [slot[0].sentinel for slot in pool.workers], timeout=0.5)
            busy = False
            for n, slot in enumerate(pool.workers):
                proc, conn, seed, sent, cpu_at_send = slot
                if seed is None:
                    if more():
                        conn.send(next_seed)
                        slot[2], slot[3], slot[4] = next_seed, time.monotonic(), _cpu_seconds(proc.pid)
                        next_seed += 1
                        busy = True
                    continue
                busy = True
                if conn.poll():
                    try:
                        outcome, detail = conn.recv()
                    except (EOFError, OSError):  # the worker died mid-answer (OSError: connection reset)
                        proc.join(5)
                        outcome, detail = "crash", f"worker exit code {proc.exitcode}"
                        pool.replace(n)
                    counts[outcome] += 1
                    done += 1
                    if outcome in FINDINGS:
                        _save(args.out, outcome, seed, _program(seed, texts), detail)
                    pool.workers[n][2] = None
                elif not proc.is_alive():
                    counts["crash"] += 1
                    done += 1
                    _save(args.out, "crash", seed, _program(seed, texts), f"worker exit code {proc.exitcode}")
                    pool.replace(n)
                elif _hung(proc, sent, cpu_at_send, args.timeout):
                    counts["hang"] += 1
                    done += 1
                    _save(
                        args.out, "hang", seed, _program(seed, texts), f"no answer after {args.timeout} s of CPU time"
                    )
                    pool.replace(n)
            if not busy:
                break
    except KeyboardInterrupt:
        pass
    finally:
        for proc, conn, *_slot in pool.workers:
            conn.close()
            proc.join(2)
            if proc.is_alive():
                proc.kill()
    elapsed = time.monotonic() - start
    mode = f"--compile --profile {args.profile}" if args.compile else "parse/validate/lower"
    print(f"{done} programs (seeds {args.seed}..{next_seed - 1}) in {elapsed:.0f} s, {mode}")
    for key in sorted(k for k in counts if k.startswith("refused")):
        print(f"  {key:40} {counts[key]}")
    for key in ("lowered", "compiled", "drawn", *FINDINGS):
        print(f"  {key:40} {counts[key]}")
    if any(counts[k] for k in FINDINGS):
        print(f"findings saved under {args.out}/")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
