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
import collections
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
from multiprocessing.connection import wait as mp_wait
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz import campaign  # noqa: E402

FINDINGS = ("crash", "hang", "internal", "exception")
MIXES = ("classic", "host")
TOOL = "fuzz_tgsi"
DEPTH = 4  # programs queued per worker (the head runs; the others wait in the pipe)


class Generator:
    """Seed -> program under a generator mix.

    ``classic``: even seeds from the grammar (valid with probability 0.6, any
    stage), odd seeds a mutation of any corpus program.  ``host`` (with
    ``--compile``) weights the draw to programs the profile can take, keeping
    every kind of input: seeds 0..5 mod 8 from the grammar in the stages the
    profile has (valid with probability 0.85; a valid one is drawn again, up
    to ``TRIES`` times, until the profile's lowering takes it -- the grammar
    knows neither the profile's extensions nor every validation rule -- or
    raises something other than a PipeError, which is kept: a finding), 6
    mod 8 one edit of a corpus program the profile draws unmodified, 7 mod
    8 a mutation of any corpus program (the refusal paths of what the
    profile lacks).  Corpus programs are real shaders, large beside the
    grammar's: one drawn costs several grammar programs drawn, hence their
    share.  ``source`` names where the last program came from."""

    TRIES = 8

    def __init__(self, mix: str, texts: list[str], stages=None, accepted=None, profile=None) -> None:
        from tests.fuzz.tgsi_grammar import STAGES

        self.mix = mix
        self.texts = texts
        self.stages = tuple(stages or STAGES)
        self.accepted = list(accepted or texts)
        self.profile = profile  # a glpipe profile: its GLSL version and extensions
        self.source = ""
        self.tries = 1  # programs drawn for the last seed (the host mix's valid grammar draws again)

    def __call__(self, seed: int) -> str:
        """The program of ``seed``."""
        from tests.fuzz.tgsi_grammar import RandomDraw, mutate, program

        d = RandomDraw(seed)
        self.tries = 1
        if self.mix == "classic":
            if seed % 2 == 0:
                valid = d.chance(0.6)
                self.source = "grammar" if valid else "grammar-invalid"
                return program(d, valid=valid)
            self.source = "mutated"
            return mutate(d, d.choice(self.texts))
        kind = seed % 8
        if kind == 6:
            self.source = "mutated-accepted"  # one edit: most programs of two or more no longer parse
            return mutate(d, d.choice(self.accepted), edits=1)
        if kind == 7:
            self.source = "mutated"
            return mutate(d, d.choice(self.texts))
        if not d.chance(0.85):
            self.source = "grammar-invalid"
            return program(d, valid=False, stages=self.stages)
        self.source, self.tries = "grammar", 0
        while True:
            text = program(d, valid=True, stages=self.stages)
            self.tries += 1
            if self.tries == self.TRIES or self._lowers(text):
                return text

    def _lowers(self, text: str) -> bool:
        """Whether the profile's lowering takes ``text`` (True also when it
        raises something other than a PipeError: that program is a finding)."""
        from lowering import parse, to_glsl, validate
        from lowering.errors import PipeError

        try:
            info = validate(parse(text))
            to_glsl(info, glsl_version=self.profile.glsl_version, extensions=self.profile.extensions)
        except PipeError:
            return False
        except Exception:  # kept for the runner to classify: a finding
            return True
        return True


def _host_generator(host, texts: list[str]) -> tuple[Generator, dict]:
    """The ``host`` mix for ``host``'s profile (its stages, the corpus
    programs it draws or compiles unmodified) and its parameters."""
    from tests.fuzz.tgsi_grammar import STAGES
    from tests.fuzz.tgsi_runner import lower

    prof = host.screen.profile
    lacks = {"TESS_CTRL": "tessellation_shader", "TESS_EVAL": "tessellation_shader", "COMP": "compute_shader"}
    stages = tuple(s for s in STAGES if s not in lacks or prof.has(lacks[s]))
    accepted = []
    for n, text in enumerate(texts):
        try:
            if not lower(text).startswith("refused") and host.run(text) in ("drawn", "compiled"):
                accepted.append(n)
        except Exception:  # a finding of its own (the corpus is fuzzed too); not one to build on
            continue
    host.timing.clear()
    params = {
        "mix": "host",
        "stages": stages,
        "accepted": accepted,
        "glsl_version": prof.glsl_version,
        "extensions": sorted(prof.extensions),
    }
    return _generator(texts, **params), params


def _generator(texts, mix, stages=None, accepted=(), glsl_version=0, extensions=()) -> Generator:
    """A Generator from plain values: what a worker tells the parent in its
    "ready" message, so the parent makes the same programs (for the findings
    of a worker that died) without a host of its own."""
    profile = SimpleNamespace(glsl_version=glsl_version, extensions=frozenset(extensions))
    return Generator(mix, texts, stages, [texts[n] for n in accepted] if mix == "host" else None, profile)


def _worker(conn, compile_on_host: bool, profile: str, mix: str) -> None:
    """Say ("ready", setup seconds, the generator's parameters), then answer
    each seed with (outcome, detail, reason, timing, source, tries) until the
    parent closes the pipe."""
    # Ctrl-C reaches the whole process group: the parent decides (it stops
    # and kills the workers); a worker interrupted mid-program would count
    # the interruption as the program's fault.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    # The campaign looks for glpipe's faults: it turns on the driver setting
    # that keeps LLVM 15's bad AVX2 gathers out of llvmpipe (off by default;
    # glpipe/host/preload.py), or about one program in a thousand dies of it.
    os.environ.setdefault("GLPIPE_HOST_PRELOAD", "on")
    from tests.fuzz import tgsi_runner
    from tests.fuzz.tgsi_grammar import corpus
    from tests.fuzz.tgsi_runner import HostDraw, InternalError, lower

    started = time.perf_counter()
    texts = corpus()
    host = HostDraw(profile) if compile_on_host else None
    if mix == "host" and host is not None:
        generate, params = _host_generator(host, texts)
    else:
        generate, params = _generator(texts, "classic"), {"mix": "classic"}
    conn.send(("ready", time.perf_counter() - started, params))
    # The script's own test kills a worker at this seed (a stand-in for a host crash).
    die_at = int(os.environ.get("FUZZ_TGSI_TEST_DIE_AT", "-1"))
    while True:
        try:
            seed = conn.recv()
        except EOFError:
            return
        if seed == die_at:
            os._exit(70)
        t0 = time.perf_counter()
        text = generate(seed)
        t1 = time.perf_counter()
        timing = {"generate": t1 - t0}
        tgsi_runner.LAST_REASON[0] = ""
        if host is not None:
            host.timing.clear()
        try:
            outcome, detail = lower(text), ""
            timing["lower"] = time.perf_counter() - t1
            if host is not None and not outcome.startswith("refused"):
                outcome = host.run(text)
        except InternalError as exc:
            outcome, detail = "internal", str(exc)
        except Exception as exc:  # the findings: anything but a PipeError
            outcome, detail = "exception", "".join(traceback.format_exception(exc))[-4000:]
        if host is not None:
            timing.update(host.timing)
        timing["worker"] = time.perf_counter() - t0
        reason = tgsi_runner.LAST_REASON[0] if outcome.startswith("refused") else ""
        conn.send((outcome, detail, reason, timing, generate.source, generate.tries))


class _Pool:
    """Worker processes, each answering one seed at a time."""

    def __init__(self, jobs: int, compile_on_host: bool, profile: str, mix: str) -> None:
        self.args = (compile_on_host, profile, mix)
        self.ctx = mp.get_context("spawn")
        self.setup = 0.0  # seconds workers spent starting (a screen, the host mix's corpus check)
        self.generate: Generator | None = None  # the workers' generator, for the programs of findings
        self.workers = [self._start() for _ in range(jobs)]

    def _start(self) -> dict:
        """A new worker, once it says it is ready (its setup is not any
        program's time)."""
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, *self.args), daemon=True)
        proc.start()
        child.close()
        try:
            if not parent.poll(600):
                raise EOFError("no answer in 600 s")
            _ready, seconds, params = parent.recv()
        except (EOFError, OSError) as exc:
            proc.kill()
            raise SystemExit(f"fuzz_tgsi: a worker failed to start ({exc}; exit code {proc.exitcode})") from exc
        self.setup += seconds
        if self.generate is None:
            from tests.fuzz.tgsi_grammar import corpus

            self.generate = _generator(corpus(), **params)
        return {"proc": proc, "conn": parent, "queue": collections.deque(), "started": 0.0, "cpu": None}

    def replace(self, n: int) -> None:
        """Kill worker ``n`` (it crashed or hung) and start another."""
        proc = self.workers[n]["proc"]
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        self.workers[n] = self._start()

    def close(self) -> None:
        """End every worker (a program in flight is abandoned: not counted)."""
        for w in self.workers:
            w["conn"].close()
        for w in self.workers:
            w["proc"].join(2)
            if w["proc"].is_alive():
                w["proc"].kill()
                w["proc"].join(2)


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system, every thread) of process ``pid`` so far, from
    /proc; None where /proc is not there (then the wall clock decides)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# When this process was last continued after a SIGSTOP (a campaign is paused
# while CI runs): the wall-clock limit counts from there, not across the pause.
_continued = [0.0]


def _hung(proc, sent: float, cpu_at_send: float | None, timeout: float) -> bool:
    """Whether the worker has spent ``timeout`` seconds of CPU on one program
    (or ten times that of wall time, not counting a pause)."""
    if time.monotonic() - max(sent, _continued[0]) > 10 * timeout:
        return True
    cpu = _cpu_seconds(proc.pid)
    if cpu is None or cpu_at_send is None:
        return time.monotonic() - sent > timeout
    return cpu - cpu_at_send > timeout


def _save_finding(out: Path, kind: str, seed: int, text: str, detail: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{kind}-{seed}.tgsi").write_text(text)
    (out / f"{kind}-{seed}.txt").write_text(detail)


def _fold(state: dict, done: dict) -> None:
    """Count the finished programs at the front of the seed range, in order
    (a program finished ahead of one still in flight waits in ``done``)."""
    while state["next_seed"] in done:
        seed = state["next_seed"]
        outcome, reason, timing, source, tries = done.pop(seed)
        campaign.add(state, seed, outcome, outcome if outcome in FINDINGS else None)
        if source:  # what each input source gave: the drawn rate per source
            per = state.setdefault("sources", {}).setdefault(source, {})
            per[outcome] = per.get(outcome, 0) + 1
            per["worker seconds"] = per.get("worker seconds", 0.0) + timing.get("worker", 0.0)
        # Programs the host mix drew and put back (the lowering refused them).
        state["redrawn"] = state.get("redrawn", 0) + tries - 1
        if reason:
            reasons = state.setdefault("reasons", {})
            reasons[reason] = reasons.get(reason, 0) + 1
        sums = state.setdefault("timing", {})
        for key, value in timing.items():
            sums[key] = sums.get(key, 0.0) + value


def _write(state: dict, path: Path | None, saved: list) -> None:
    """Add this run's seconds since the last write and write the checkpoint;
    the refusal histogram keeps its 300 most frequent reasons."""
    now = time.monotonic()
    state["seconds"] = round(state["seconds"] + now - saved[0], 3)
    saved[0] = now
    reasons = state.get("reasons")
    if reasons and len(reasons) > 300:
        state["reasons"] = dict(sorted(reasons.items(), key=lambda kv: -kv[1])[:300])
    if path is not None:
        campaign.save(state, path)


def _args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=0, help="stop after this many programs (this run)")
    ap.add_argument("--seconds", type=float, default=0.0, help="stop after this many seconds")
    ap.add_argument("--compile", action="store_true", default=None, help="also create and draw each program")
    ap.add_argument("--profile", default=None, help="host profile for --compile (native or gl33)")
    ap.add_argument("--mix", choices=MIXES, default=None, help="generator mix (default classic; host: --compile)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--timeout", type=float, default=60.0, help="CPU seconds one program may take (else: a hang)")
    ap.add_argument("--out", type=Path, help="write the running summary (JSON checkpoint) here")
    ap.add_argument("--resume", type=Path, help="continue the campaign of this checkpoint (same commit)")
    ap.add_argument("--findings", type=Path, default=Path("fuzz-findings"), help="where findings are saved")
    ap.add_argument(
        "--checkpoint-every", type=float, default=campaign.CHECKPOINT_SECONDS, help="seconds between checkpoints"
    )
    args = ap.parse_args(argv)
    if args.out is not None and args.out.is_dir():
        ap.error(f"--out {args.out} is a directory: --out names the checkpoint file; findings go to --findings")
    if not args.programs and not args.seconds:
        args.programs = 1000
    return ap, args


def main(argv=None) -> int:
    """Run the campaign the arguments describe; print the counts."""
    ap, args = _args(argv)
    signal.signal(signal.SIGCONT, lambda *_: _continued.__setitem__(0, time.monotonic()))
    if args.resume is not None:
        mode = None if args.compile is None else "compile"
        try:
            state = campaign.resume(args.resume, TOOL, profile=args.profile, mode=mode)
        except campaign.CampaignError as exc:
            print(f"fuzz_tgsi: cannot resume: {exc}", file=sys.stderr)
            return 2
        if args.mix is not None and state["params"].get("mix") != args.mix:
            print(f"fuzz_tgsi: cannot resume: {args.resume} has mix {state['params'].get('mix')}", file=sys.stderr)
            return 2
        out = args.out or args.resume
    else:
        mode = "compile" if args.compile else "lower"
        mix = args.mix or "classic"
        if mix == "host" and mode != "compile":
            ap.error("--mix host weights programs to what a profile draws: it needs --compile")
        profile = (args.profile or "native") if mode == "compile" else "-"
        state = campaign.new_state(TOOL, profile, mode, {"mix": mix}, args.seed)
        out = args.out
    compile_on_host = state["mode"] == "compile"
    pool = _Pool(max(1, args.jobs), compile_on_host, state["profile"], state["params"]["mix"])
    stopper = campaign.Stopper()
    first_of_run = state["next_seed"]
    next_seed, run_start = first_of_run, time.monotonic()
    saved = [run_start]
    last_write = run_start
    done: dict[int, tuple] = {}
    found = 0

    def more() -> bool:
        if stopper.stop or (args.programs and next_seed - first_of_run >= args.programs):
            return False
        return not (args.seconds and time.monotonic() - run_start >= args.seconds)

    retry: collections.deque = collections.deque()  # seeds queued to a worker that died first

    def next_input() -> int | None:
        nonlocal next_seed
        if retry:
            return retry.popleft()
        if not more():
            return None
        next_seed += 1
        return next_seed - 1

    def start_head(w: dict) -> None:
        w["started"], w["cpu"] = time.monotonic(), _cpu_seconds(w["proc"].pid)

    def finish(
        n: int, outcome: str, detail: str, reason: str = "", timing=None, source: str = "", tries: int = 1
    ) -> None:
        """The program at the head of worker ``n``'s queue ended with ``outcome``."""
        nonlocal found
        w = pool.workers[n]
        seed = w["queue"].popleft()
        timing = dict(timing or {})
        timing["wall"] = time.monotonic() - w["started"]
        done[seed] = (outcome, reason, timing, source, tries)
        if outcome in FINDINGS:
            found += 1
            generate = pool.generate
            _save_finding(args.findings, outcome, seed, generate(seed) if generate is not None else "", detail)
        start_head(w)  # the next queued program starts now

    def lost(n: int, outcome: str, detail: str) -> None:
        """Worker ``n`` died or hung on the program at the head of its queue:
        that one is the finding, the ones queued behind it run again."""
        finish(n, outcome, detail)
        retry.extendleft(reversed(pool.workers[n]["queue"]))
        pool.replace(n)

    try:
        while True:
            if time.monotonic() - last_write >= args.checkpoint_every:
                _fold(state, done)
                _write(state, out, saved)
                last_write = time.monotonic()
            busy = False
            for n, w in enumerate(pool.workers):
                # Keep DEPTH programs queued: the worker starts the next one
                # without waiting for the parent to be scheduled.
                while len(w["queue"]) < DEPTH:
                    seed = next_input()
                    if seed is None:
                        break
                    try:
                        w["conn"].send(seed)
                    except OSError:  # the worker is dead (the checks below find out why)
                        retry.appendleft(seed)
                        break
                    if not w["queue"]:
                        start_head(w)
                    w["queue"].append(seed)
                if not w["queue"]:
                    if not w["proc"].is_alive():  # died between programs: nothing to blame
                        pool.replace(n)
                    continue
                busy = True
                try:
                    while w["queue"] and w["conn"].poll():
                        finish(n, *w["conn"].recv())
                except (EOFError, OSError):  # the worker died mid-answer (OSError: connection reset)
                    w["proc"].join(5)
                    lost(n, "crash", f"worker exit code {w['proc'].exitcode}")
                    continue
                if not w["queue"]:
                    continue
                if not w["proc"].is_alive():
                    lost(n, "crash", f"worker exit code {w['proc'].exitcode}")
                elif _hung(w["proc"], w["started"], w["cpu"], args.timeout):
                    lost(n, "hang", f"no answer after {args.timeout} s of CPU time")
            if stopper.stop or not (busy or retry):
                break
            in_flight = [w["conn"] for w in pool.workers if w["queue"]]
            if in_flight:
                mp_wait(in_flight + [w["proc"].sentinel for w in pool.workers], timeout=0.5)
    except KeyboardInterrupt:  # a second signal: stop now
        pass
    finally:
        pool.close()
        stopper.restore()
        _fold(state, done)  # programs still in flight are not counted: the resume runs them
        state.setdefault("timing", {})
        state["timing"]["setup"] = state["timing"].get("setup", 0.0) + pool.setup
        state["finished"] = True
        _write(state, out, saved)
    _print(state, first_of_run, time.monotonic() - run_start, args.findings if found else None)
    return 1 if found else 0


def _print(state: dict, first_of_run: int, elapsed: float, findings: Path | None) -> None:
    counts = state["counts"]
    n = state["next_seed"] - state["first_seed"]
    mode = f"--compile --profile {state['profile']}" if state["mode"] == "compile" else "parse/validate/lower"
    print(
        f"{state['next_seed'] - first_of_run} programs this run in {elapsed:.0f} s; campaign: {n} programs "
        f"(seeds {state['first_seed']}..{state['next_seed'] - 1}), {mode}, mix {state['params']['mix']}, "
        f"commit {state['commit'][:12]}{' (dirty)' if state['dirty'] else ''}"
    )
    for key in sorted(k for k in counts if k.startswith("refused")):
        print(f"  {key:40} {counts[key]}")
    for key in ("lowered", "compiled", "drawn", *FINDINGS):
        print(f"  {key:40} {counts.get(key, 0)}")
    timing = state.get("timing", {})
    if n and timing:
        parts = ", ".join(f"{k} {1000 * v / n:.1f}" for k, v in sorted(timing.items()) if k != "setup")
        print(f"  ms per program: {parts}; worker setup {timing.get('setup', 0.0):.1f} s in all")
        print(f"  programs/s {n / max(state['seconds'], 1e-9):.1f}, drawn {100 * counts.get('drawn', 0) / n:.1f}%")
    for source, outcomes in sorted(state.get("sources", {}).items()):
        total = sum(v for k, v in outcomes.items() if k != "worker seconds")
        print(
            f"  from {source}: {total}, drawn {outcomes.get('drawn', 0)}, compiled {outcomes.get('compiled', 0)}, "
            f"{1000 * outcomes.get('worker seconds', 0.0) / max(total, 1):.1f} ms each"
        )
    reasons = sorted(state.get("reasons", {}).items(), key=lambda kv: -kv[1])[:8]
    for text, count in reasons:
        print(f"  {count:7}  {text}")
    if findings is not None:
        print(f"findings saved under {findings}/")


if __name__ == "__main__":
    sys.exit(main())
