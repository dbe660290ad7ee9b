"""Run the API fuzzer for as long as asked (issue 12 item 8; docs/robustness.md "API fuzzing").

    python scripts/fuzz_api.py [--profile native|gl33|all] [--sequences N | --seconds S]
                               [--length L] [--seed K] [--no-sweep] [--verbose]

Per profile: the systematic sweep (every operation x argument x bad value,
unless --no-sweep), then random call sequences of ``--length`` calls with
bad arguments and destroys mixed in, each followed by a known-good draw,
until ``--sequences`` are done or ``--seconds`` have passed.  Prints the
counts; exits 1 if any call raised something that is not a PipeError, left
a GL error pending, took over 10 s, or a known-good draw came out wrong.
Calls that accepted a destroyed object are printed as lifetime findings.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # the working tree's glpipe and tests.fuzz, whatever the cwd

import glpipe  # noqa: E402
from tests.fuzz.api_fuzzer import Stats, run_campaign, run_sweep  # noqa: E402


def _report(profile: str, stats: Stats, elapsed: float, verbose: bool) -> bool:
    print(f"[{profile}] {elapsed:.0f} s: {stats.summary()}")
    if stats.accepted_dead:
        print(f"[{profile}] lifetime findings (a destroyed object accepted): {dict(stats.accepted_dead)}")
    clean = True
    for name in ("boundary", "lifetime", "pending_gl", "bad_pixels", "slow"):
        records = getattr(stats, name)
        if records:
            clean = False
            print(f"[{profile}] {name}: {len(records)}")
            for rec in records[: 20 if verbose else 3]:
                print("   ", " | ".join(str(part) for part in rec[:2]))
                if verbose and len(rec) > 2:
                    print(rec[2])
    return clean


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="all", choices=("native", "gl33", "all"))
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--sequences", type=int, help="random sequences per profile")
    limit.add_argument("--seconds", type=float, help="time per profile for the random sequences")
    parser.add_argument("--length", type=int, default=60, help="calls per sequence (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (sequence i uses seed + i)")
    parser.add_argument("--no-sweep", action="store_true", help="skip the systematic sweep")
    parser.add_argument("--verbose", action="store_true", help="tracebacks of the findings")
    args = parser.parse_args(argv)
    if args.sequences is None and args.seconds is None:
        args.sequences = 100
    profiles = ("native", "gl33") if args.profile == "all" else (args.profile,)
    clean = True
    for profile in profiles:
        screen = glpipe.create_screen(profile=profile)
        total = Stats()
        started = time.perf_counter()
        if not args.no_sweep:
            total.merge(run_sweep(screen, seed=args.seed))
        seeds = range(args.seed, args.seed + max(1, args.sequences or 1_000_000))
        total.merge(run_campaign(screen, seeds, length=args.length, seconds=args.seconds, sequences=args.sequences))
        clean &= _report(profile, total, time.perf_counter() - started, args.verbose)
        screen.destroy()
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
