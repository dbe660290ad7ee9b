"""Fuzz campaigns that accumulate: the checkpoint file both fuzz scripts write,
resuming from it, and summing a directory of them (issue 12 item 8;
docs/robustness.md "Running a campaign that accumulates").

A checkpoint is one JSON object describing one run of scripts/fuzz_tgsi.py or
scripts/fuzz_api.py (and every ``--resume`` of it):

* ``tool`` (``fuzz_tgsi`` / ``fuzz_api``), ``commit`` (``git rev-parse HEAD``
  of the tree fuzzed) and ``dirty`` (None for a clean tree, else a hash of
  ``git diff HEAD``: the same uncommitted code hashes the same);
* ``profile``, ``mode`` and ``params`` (what else decides which input a seed
  is: the generator mix, the sequence length);
* ``first_seed`` and ``next_seed``: every seed in ``first_seed ..
  next_seed - 1`` was run and counted, no other (a seed in flight when the
  run stopped is not counted, and the resume runs it);
* ``counts`` per outcome, ``findings`` (``{"seed", "kind", "detail"}`` each:
  every seed that found something);
* ``seconds`` of running, ``runs`` (how many runs added to the file),
  ``started`` / ``updated`` (UTC, ISO 8601), ``finished`` (False while a run
  is writing it, so a file left by a killed run says so).

Writes go through a temporary file and ``os.replace``: a reader (or a kill)
never sees half a file.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import signal
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
VERSION = 1
CHECKPOINT_SECONDS = 30.0  # how often a running campaign rewrites its file


class CampaignError(Exception):
    """A checkpoint cannot be resumed or summed (the message says why)."""


def tree_state(root: Path = REPO) -> tuple[str, str | None]:
    """(commit, dirty) of the git tree at ``root``: the HEAD commit, and None
    when tracked files match it, else the first 16 hex digits of the SHA-1 of
    ``git diff HEAD``.  ("unknown", None) outside a git tree."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        diff = subprocess.run(["git", "diff", "HEAD"], cwd=root, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown", None
    return commit, (hashlib.sha1(diff).hexdigest()[:16] if diff else None)


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def new_state(tool: str, profile: str, mode: str, params: dict, first_seed: int, root: Path = REPO) -> dict:
    """The checkpoint of a run starting at ``first_seed`` on the tree at ``root``."""
    commit, dirty = tree_state(root)
    return {
        "version": VERSION,
        "tool": tool,
        "commit": commit,
        "dirty": dirty,
        "profile": profile,
        "mode": mode,
        "params": dict(params),
        "first_seed": first_seed,
        "next_seed": first_seed,
        "counts": {},
        "findings": [],
        "seconds": 0.0,
        "runs": 1,
        "started": _now(),
        "updated": _now(),
        "finished": False,
    }


def load(path: Path) -> dict:
    """A checkpoint file, checked for the fields every reader uses."""
    try:
        state = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise CampaignError(f"{path}: not a readable checkpoint ({exc})") from exc
    need = ("tool", "commit", "profile", "mode", "first_seed", "next_seed", "counts", "findings")
    missing = [k for k in need if k not in state] if isinstance(state, dict) else list(need)
    if missing:
        raise CampaignError(f"{path}: not a fuzz checkpoint (missing {', '.join(missing)})")
    if state["next_seed"] < state["first_seed"]:
        raise CampaignError(f"{path}: next_seed {state['next_seed']} below first_seed {state['first_seed']}")
    return state


def resume(path: Path, tool: str, root: Path = REPO, **expect: Any) -> dict:
    """The checkpoint at ``path``, to be continued by ``tool`` on the tree at
    ``root``.  Refuses (CampaignError) another tool's file, another commit or
    other uncommitted changes (the seeds would not mean the same programs on
    other code), and a given ``expect`` entry (profile, mode, params) that
    differs from the file's."""
    state = load(path)
    if state["tool"] != tool:
        raise CampaignError(f"{path} is a {state['tool']} checkpoint, not {tool}'s")
    commit, dirty = tree_state(root)
    if (state["commit"], state.get("dirty")) != (commit, dirty):
        raise CampaignError(
            f"{path} was run on commit {state['commit'][:12]}{' (dirty)' if state.get('dirty') else ''}; "
            f"this tree is {commit[:12]}{' (dirty)' if dirty else ''}: start a new file with --out "
            "(a campaign counts one commit)"
        )
    for key, want in expect.items():
        if want is not None and state.get(key) != want:
            raise CampaignError(f"{path} has {key} {state.get(key)!r}, this run asks for {want!r}")
    state["runs"] = int(state.get("runs", 1)) + 1
    state["finished"] = False
    return state


def save(state: dict, path: Path) -> None:
    """Write ``state`` to ``path`` atomically (a temporary file, then os.replace)."""
    path = Path(path)
    state["updated"] = _now()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


def add(state: dict, seed: int, outcome: str | None, finding: str | None = None) -> None:
    """Mark ``seed`` run (it must be ``next_seed``: seeds are counted in
    order), count ``outcome`` (None: the caller counts) and record a finding
    of kind ``finding``."""
    if seed != state["next_seed"]:
        raise CampaignError(f"seed {seed} counted out of order (next is {state['next_seed']})")
    if outcome is not None:
        state["counts"][outcome] = state["counts"].get(outcome, 0) + 1
    if finding is not None:
        state["findings"].append({"seed": seed, "kind": finding, "detail": outcome})
    state["next_seed"] = seed + 1


class Stopper:
    """SIGTERM / SIGINT set ``stop`` (a background job ignores SIGINT, so
    SIGTERM is what ends it); a second signal raises KeyboardInterrupt, for a
    run stuck in one long call.  ``restore()`` puts the old handlers back."""

    def __init__(self) -> None:
        self.stop = False
        self.signal: int | None = None
        self._old = {}
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._old[sig] = signal.signal(sig, self._handle)

    def _handle(self, signum, _frame) -> None:
        if self.stop:
            raise KeyboardInterrupt
        self.stop, self.signal = True, signum

    def restore(self) -> None:
        """Reinstall the handlers that were there before."""
        for sig, old in self._old.items():
            signal.signal(sig, old)


# -- summing a directory -------------------------------------------------------


def _group_key(state: dict) -> tuple:
    params = json.dumps(state.get("params", {}), sort_keys=True)
    return (state["tool"], state["commit"], state.get("dirty"), state["profile"], state["mode"], params)


def aggregate(paths: list[Path]) -> list[dict]:
    """Sum checkpoints per (tool, commit, dirty, profile, mode, params): one
    dict per group with the summed counts, findings, seconds, the seed ranges
    and their total.  Raises CampaignError when two files of one group cover a
    common seed (the same programs counted twice)."""
    groups: dict[tuple, list[tuple[Path, dict]]] = {}
    for p in paths:
        state = load(p)
        groups.setdefault(_group_key(state), []).append((Path(p), state))
    out = []
    for key, members in sorted(groups.items()):
        members.sort(key=lambda m: m[1]["first_seed"])
        for (pa, a), (pb, b) in zip(members, members[1:], strict=False):
            if b["first_seed"] < a["next_seed"]:
                raise CampaignError(
                    f"{pa.name} (seeds {a['first_seed']}..{a['next_seed'] - 1}) and {pb.name} "
                    f"(seeds {b['first_seed']}..{b['next_seed'] - 1}) overlap: the same inputs counted twice"
                )
        counts: Counter = Counter()
        findings: list = []
        for _p, s in members:
            counts.update(s["counts"])
            findings += s["findings"]
        tool, commit, dirty, profile, mode, params = key
        out.append(
            {
                "tool": tool,
                "commit": commit,
                "dirty": dirty,
                "profile": profile,
                "mode": mode,
                "params": json.loads(params),
                "files": [str(p) for p, _s in members],
                "ranges": [(s["first_seed"], s["next_seed"]) for _p, s in members],
                "inputs": sum(s["next_seed"] - s["first_seed"] for _p, s in members),
                "counts": dict(counts),
                "findings": sorted(findings, key=lambda f: (f["seed"] is None, f["seed"] or 0)),
                "seconds": sum(float(s.get("seconds", 0.0)) for _p, s in members),
                "unfinished": [str(p) for p, s in members if not s.get("finished", False)],
                "date": max(str(s.get("updated", ""))[:10] for _p, s in members),
            }
        )
    return out


__all__ = [
    "CHECKPOINT_SECONDS",
    "CampaignError",
    "Stopper",
    "add",
    "aggregate",
    "load",
    "new_state",
    "resume",
    "save",
    "tree_state",
]
