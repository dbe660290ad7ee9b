"""Run the API fuzzer for as long as asked (issue 12 item 8; docs/robustness.md "API fuzzing").

    python scripts/fuzz_api.py [--profile native|gl33|all] [--sequences N | --seconds S]
                               [--length L] [--seed K] [--no-sweep] [--verbose]
                               [--out FILE | --resume FILE]

Per profile: the systematic sweep (every operation x argument x bad value,
unless --no-sweep or resuming), then random call sequences of ``--length``
calls with bad arguments and destroys mixed in, each followed by a
known-good draw, until ``--sequences`` are done or ``--seconds`` have
passed.  Sequence i uses seed ``--seed`` + i.  Prints the counts; exits 1
if any call raised something that is not a PipeError, left a GL error
pending, took over 10 s, or a known-good draw came out wrong.  Calls that
accepted a destroyed object are printed as lifetime findings.

``--out FILE`` (one profile) writes the running summary as a JSON checkpoint
every 30 s and when the run ends, SIGTERM and SIGINT included (the sequence
in flight is not counted); ``--resume FILE`` continues that campaign from
its next unused seed on the same commit (tests/fuzz/campaign.py has the
format; scripts/fuzz_campaign.py sums a directory of them).  The checkpoint
also samples the process's RSS and the screen's live resources every 1,000
sequences.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # the working tree's glpipe and tests.fuzz, whatever the cwd

import glpipe  # noqa: E402
from tests.fuzz import campaign  # noqa: E402
from tests.fuzz.api_fuzzer import Fuzzer, Stats, run_sweep  # noqa: E402

TOOL = "fuzz_api"
FAILURES = ("boundary", "lifetime", "pending_gl", "bad_pixels", "slow")
RSS_EVERY = 1000  # sequences between RSS samples in the checkpoint


def _report(profile: str, stats: Stats, elapsed: float, verbose: bool) -> bool:
    print(f"[{profile}] {elapsed:.0f} s: {stats.summary()}")
    if stats.accepted_dead:
        print(f"[{profile}] lifetime findings (a destroyed object accepted): {dict(stats.accepted_dead)}")
    clean = True
    for name in FAILURES:
        records = getattr(stats, name)
        if records:
            clean = False
            print(f"[{profile}] {name}: {len(records)}")
            for rec in records[: 20 if verbose else 3]:
                print("   ", " | ".join(str(part) for part in rec[:2]))
                if verbose and len(rec) > 2:
                    print(rec[2])
    return clean


def _rss_mib() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _count(state: dict, seed: int | None, stats: Stats) -> None:
    """Add one sequence's (or the sweep's: ``seed`` None) stats to the checkpoint."""
    counts = state["counts"]
    for key in ("sequences", "calls", "bad_calls", "ok", "paused"):
        name = "sweeps" if key == "sequences" and seed is None else key  # (run_sweep counts itself a sequence)
        counts[name] = counts.get(name, 0) + getattr(stats, key)
    for name, n in stats.pipe_errors.items():
        counts[name] = counts.get(name, 0) + n
    for name in FAILURES:
        records = getattr(stats, name)
        if records:
            counts[name] = counts.get(name, 0) + len(records)
        for rec in records:
            state["findings"].append({"seed": seed, "kind": name, "detail": " | ".join(str(p) for p in rec[:2])[:500]})
    dead = state.setdefault("accepted_dead", {})
    for method, n in stats.accepted_dead.items():
        dead[method] = dead.get(method, 0) + n
        counts["accepted_dead"] = counts.get("accepted_dead", 0) + n
        state["findings"].append({"seed": seed, "kind": "accepted_dead", "detail": f"{method} x{n}"})
    if seed is not None:
        campaign.add(state, seed, None)


def _run_profile(profile: str, args, state: dict | None, out) -> bool:
    screen = glpipe.create_screen(profile=profile)
    total = Stats()
    started = time.monotonic()
    stopper = campaign.Stopper()
    saved = [started]

    def write() -> None:
        if state is None:
            return
        now = time.monotonic()
        state["seconds"] = round(state["seconds"] + now - saved[0], 3)
        saved[0] = now
        if out is not None:
            campaign.save(state, out)

    try:
        if not args.no_sweep and (state is None or state["runs"] == 1):
            sweep = run_sweep(screen, seed=args.seed)
            total.merge(sweep)
            if state is not None:
                _count(state, None, sweep)
                state["sweep"] = True  # (not a param: it does not change what a seed runs)
        seed = state["next_seed"] if state is not None else args.seed
        first, last_write = seed, time.monotonic()
        while not stopper.stop:
            if args.sequences is not None and seed - first >= args.sequences:
                break
            if args.seconds is not None and time.monotonic() - started >= args.seconds:
                break
            fz = Fuzzer(screen, random.Random(seed))
            fz.run_sequence(args.length)
            if stopper.stop:  # (the signal came during the sequence: it is not counted)
                break
            total.merge(fz.stats)
            if state is not None:
                _count(state, seed, fz.stats)
                if state["counts"]["sequences"] % RSS_EVERY == 0:
                    sample = [state["counts"]["sequences"], round(_rss_mib(), 1), screen.live_resources]
                    state.setdefault("rss_mib", []).append(sample)
                if time.monotonic() - last_write >= args.checkpoint_every:
                    write()
                    last_write = time.monotonic()
            seed += 1
    except KeyboardInterrupt:  # a second signal: stop now
        pass
    finally:
        stopper.restore()
        if state is not None:
            state["finished"] = True
            write()
    clean = _report(profile, total, time.monotonic() - started, args.verbose)
    screen.destroy()
    return clean


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=None, choices=("native", "gl33", "all"))
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--sequences", type=int, help="random sequences per profile (this run)")
    limit.add_argument("--seconds", type=float, help="time per profile for the random sequences")
    parser.add_argument("--length", type=int, default=None, help="calls per sequence (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (sequence i uses seed + i)")
    parser.add_argument("--no-sweep", action="store_true", help="skip the systematic sweep")
    parser.add_argument("--verbose", action="store_true", help="tracebacks of the findings")
    parser.add_argument("--out", help="write the running summary (JSON checkpoint) here; one profile")
    parser.add_argument("--resume", help="continue the campaign of this checkpoint (same commit)")
    parser.add_argument(
        "--checkpoint-every", type=float, default=campaign.CHECKPOINT_SECONDS, help="seconds between checkpoints"
    )
    args = parser.parse_args(argv)
    if args.sequences is None and args.seconds is None:
        args.sequences = 100
    state = None
    if args.resume is not None:
        try:
            state = campaign.resume(args.resume, TOOL, profile=args.profile)
        except campaign.CampaignError as exc:
            print(f"fuzz_api: cannot resume: {exc}", file=sys.stderr)
            return 2
        if args.length is not None and args.length != state["params"]["length"]:
            print(f"fuzz_api: cannot resume: {args.resume} has length {state['params']['length']}", file=sys.stderr)
            return 2
        args.length = state["params"]["length"]
        profiles: tuple[str, ...] = (state["profile"],)
        out = args.out or args.resume
    else:
        args.length = args.length or 60
        profile = args.profile or "all"
        if args.out is not None and profile == "all":
            parser.error("--out writes one profile's campaign: give --profile native or gl33")
        profiles = ("native", "gl33") if profile == "all" else (profile,)
        if args.out is not None:
            state = campaign.new_state(TOOL, profile, "sequences", {"length": args.length}, args.seed)
        out = args.out
    clean = True
    for profile in profiles:
        clean &= _run_profile(profile, args, state, out)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
