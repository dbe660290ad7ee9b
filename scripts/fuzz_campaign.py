#!/usr/bin/env python3
"""Sum the checkpoints of fuzz campaigns and print docs/robustness.md's rows.

    python scripts/fuzz_campaign.py DIR [DIR ...] [--commit SHA] [--json]

Every ``*.json`` under the directories is a checkpoint written by
``scripts/fuzz_tgsi.py --out`` or ``scripts/fuzz_api.py --out`` (format:
tests/fuzz/campaign.py).  Files are summed per tool, commit, profile, mode
and generator parameters -- only runs on one commit make one campaign -- and
two files of one group must not cover a common seed (exit status 2 when they
do: the same inputs would be counted twice).  Printed per group: the row of
the "Campaigns" table (TGSI) or of the accumulated API table
(docs/robustness.md "Running a campaign that accumulates"), then per commit
how far it is from issue 12's bar: 1,000,000 TGSI programs lowered, 50,000
drawn (or compiled) per profile, 100,000 API sequences, and no crash, hang
or non-PipeError exception.  Exit status 1 when any group has findings.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz.campaign import CampaignError, aggregate  # noqa: E402

BAR = {"lowered": 1_000_000, "drawn": 50_000, "sequences": 100_000}
TGSI_FINDINGS = ("crash", "hang", "internal", "exception")
API_FINDINGS = ("boundary", "lifetime", "pending_gl", "bad_pixels", "slow")


def _n(value: int) -> str:
    return f"{value:,}"


def _ranges(group: dict) -> str:
    return ", ".join(f"{a}..{b - 1}" for a, b in group["ranges"])


def _commit(group: dict) -> str:
    return group["commit"][:7] + (" + uncommitted changes" if group["dirty"] else "")


def _with_seeds(group: dict, kind: str) -> str:
    count = group["counts"].get(kind, 0)
    seeds = [str(f["seed"]) for f in group["findings"] if f["kind"] == kind][:8]
    return f"{count} (seeds {', '.join(seeds)})" if count and seeds else str(count)


def tgsi_row(group: dict) -> str:
    """The "Campaigns" table row (TGSI fuzzing) of one summed group."""
    counts = group["counts"]
    refused = {k.split(":", 1)[1]: v for k, v in counts.items() if k.startswith("refused:")}
    by_class = ", ".join(f"{_n(v)} {k}" for k, v in sorted(refused.items(), key=lambda kv: -kv[1]))
    if group["mode"] == "compile":
        mode = f"`--compile --profile {group['profile']}`, mix {group['params'].get('mix', 'classic')}"
        done = f"{_n(counts.get('drawn', 0))} drawn, {_n(counts.get('compiled', 0))} compute compiled"
    else:
        mode = "parse / validate / lower"
        done = f"{_n(counts.get('lowered', 0))} lowered"
    mode += f", {group['seconds']:,.0f} s, commit {_commit(group)}, {len(group['files'])} file(s)"
    return (
        f"| {group['date']} | {_n(group['inputs'])} (seeds {_ranges(group)}) | {mode} | "
        f"{_n(sum(refused.values()))} ({by_class}) | {done} | {_with_seeds(group, 'crash')} | "
        f"{_with_seeds(group, 'hang')} | {_with_seeds(group, 'internal')} | {_with_seeds(group, 'exception')} |"
    )


API_HEADER = (
    "| date | profile | sequences (seeds) | calls (bad argument) | non-PipeError | GL errors left pending "
    "| known-good draw wrong | calls over 10 s | destroyed object accepted | runs killed | commit |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|"
)


def api_row(group: dict) -> str:
    """The accumulated API campaign table's row of one summed group."""
    counts = group["counts"]
    return (
        f"| {group['date']} | {group['profile']} | {_n(group['inputs'])} ({_ranges(group)}) | "
        f"{_n(counts.get('calls', 0))} ({_n(counts.get('bad_calls', 0))}) | "
        f"{counts.get('boundary', 0) + counts.get('lifetime', 0)} | {counts.get('pending_gl', 0)} | "
        f"{counts.get('bad_pixels', 0)} | {counts.get('slow', 0)} | {counts.get('accepted_dead', 0)} | "
        f"{len(group['unfinished'])} | {_commit(group)} |"
    )


def bar(groups: list[dict]) -> list[str]:
    """Per commit: the issue's bar against what the groups sum to."""
    per: dict = defaultdict(lambda: {"lowered": 0, "drawn": defaultdict(int), "sequences": 0, "findings": 0})
    for g in groups:
        tally = per[(g["commit"], g["dirty"])]
        counts = g["counts"]
        if g["tool"] == "fuzz_tgsi":
            tally["lowered"] += g["inputs"]  # every program went through parse / validate / lower
            if g["mode"] == "compile":
                tally["drawn"][g["profile"]] += counts.get("drawn", 0) + counts.get("compiled", 0)
            tally["findings"] += sum(counts.get(k, 0) for k in TGSI_FINDINGS)
        else:
            tally["sequences"] += g["inputs"]
            tally["findings"] += sum(counts.get(k, 0) for k in API_FINDINGS) + len(g["unfinished"])
    lines = []
    for (commit, dirty), t in sorted(per.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        drawn = ", ".join(
            f"{p} {_n(t['drawn'].get(p, 0))} / {_n(BAR['drawn'])}" for p in sorted({"native", "gl33", *t["drawn"]})
        )
        met = (
            t["lowered"] >= BAR["lowered"]
            and all(t["drawn"].get(p, 0) >= BAR["drawn"] for p in ("native", "gl33"))
            and t["sequences"] >= BAR["sequences"]
            and t["findings"] == 0
        )
        lines.append(
            f"commit {_commit({'commit': commit, 'dirty': dirty})}: TGSI lowered {_n(t['lowered'])} / {_n(BAR['lowered'])}; drawn {drawn}; "
            f"API sequences {_n(t['sequences'])} / {_n(BAR['sequences'])}; findings {t['findings']}"
            f" -> bar {'met' if met else 'not met'}"
        )
    return lines


def main(argv=None) -> int:
    """Sum the checkpoints under the given directories; print the rows."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path, help="directories of checkpoint files (*.json)")
    ap.add_argument("--commit", help="only checkpoints of this commit (a prefix will do)")
    ap.add_argument("--json", action="store_true", help="print the summed groups as JSON")
    args = ap.parse_args(argv)
    paths = sorted(p for d in args.dirs for p in (d.glob("*.json") if d.is_dir() else [d]))
    try:
        groups = aggregate(paths)
    except CampaignError as exc:
        print(f"fuzz_campaign: {exc}", file=sys.stderr)
        return 2
    if args.commit:
        groups = [g for g in groups if g["commit"].startswith(args.commit)]
    if args.json:
        print(json.dumps(groups, indent=1))
    tgsi = [g for g in groups if g["tool"] == "fuzz_tgsi"]
    api = [g for g in groups if g["tool"] == "fuzz_api"]
    if tgsi and not args.json:
        print("TGSI (docs/robustness.md, TGSI fuzzing, Campaigns):")
        for g in tgsi:
            print(tgsi_row(g))
    if api and not args.json:
        print("API (docs/robustness.md, API fuzzing, accumulated campaigns):")
        print(API_HEADER)
        for g in api:
            print(api_row(g))
    if not args.json:
        for line in bar(groups):
            print(line)
        unfinished = [f for g in groups for f in g["unfinished"]]
        if unfinished:
            print(f"not finished (running now, or the run was killed): {', '.join(unfinished)}")
    found = sum(f["kind"] in TGSI_FINDINGS + API_FINDINGS for g in groups for f in g["findings"])
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
