"""Campaigns that accumulate (docs/robustness.md "Running a campaign that
accumulates"): the checkpoint both fuzz scripts write, resuming it, SIGTERM
in the middle of a run, and scripts/fuzz_campaign.py's sums."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from . import campaign

REPO = Path(__file__).resolve().parents[2]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"{name}_script", REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fuzz_campaign = _script("fuzz_campaign")


# -- the checkpoint itself -----------------------------------------------------------


def _state(first=100, tool="fuzz_tgsi", profile="-", mode="lower", commit="c0ffee", dirty=None, **params):
    state = campaign.new_state(tool, profile, mode, params or {"mix": "classic"}, first)
    state.update(commit=commit, dirty=dirty)
    return state


def test_seeds_are_counted_in_order_and_saved_whole(tmp_path):
    state = _state(first=100)
    campaign.add(state, 100, "lowered")
    campaign.add(state, 101, "refused:TGSIParseError")
    campaign.add(state, 102, "crash", "crash")
    with pytest.raises(campaign.CampaignError, match="out of order"):
        campaign.add(state, 104, "lowered")  # 103 is not done
    path = tmp_path / "c.json"
    campaign.save(state, path)
    back = campaign.load(path)
    assert (back["first_seed"], back["next_seed"]) == (100, 103)
    assert back["counts"] == {"lowered": 1, "refused:TGSIParseError": 1, "crash": 1}
    assert back["findings"] == [{"seed": 102, "kind": "crash", "detail": "crash"}]
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]  # no temporary file left


def test_tree_state_names_this_commit_and_its_changes():
    commit, dirty = campaign.tree_state(REPO)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    assert commit == head
    diff = subprocess.run(["git", "diff", "HEAD"], cwd=REPO, capture_output=True).stdout
    assert (dirty is None) == (not diff)


def test_resume_refuses_another_commit_tool_or_profile(tmp_path, monkeypatch):
    monkeypatch.setattr(campaign, "tree_state", lambda root=None: ("c0ffee", None))
    path = tmp_path / "c.json"
    campaign.save(_state(profile="gl33", mode="compile"), path)
    assert campaign.resume(path, "fuzz_tgsi", profile="gl33")["runs"] == 2
    with pytest.raises(campaign.CampaignError, match="not fuzz_api"):
        campaign.resume(path, "fuzz_api")
    with pytest.raises(campaign.CampaignError, match="profile"):
        campaign.resume(path, "fuzz_tgsi", profile="native")
    monkeypatch.setattr(campaign, "tree_state", lambda root=None: ("beef", None))
    with pytest.raises(campaign.CampaignError, match="commit"):
        campaign.resume(path, "fuzz_tgsi")
    monkeypatch.setattr(campaign, "tree_state", lambda root=None: ("c0ffee", "0123456789abcdef"))
    with pytest.raises(campaign.CampaignError, match="dirty"):
        campaign.resume(path, "fuzz_tgsi")


def test_aggregate_sums_per_commit_and_refuses_overlaps(tmp_path):
    a, b, c = _state(first=0), _state(first=10), _state(first=0, commit="other")
    for seed in range(0, 10):
        campaign.add(a, seed, "lowered" if seed % 3 else "refused:ShaderValidationError")
    for seed in range(10, 15):
        campaign.add(b, seed, "exception" if seed == 12 else "lowered", "exception" if seed == 12 else None)
    for seed in range(0, 4):
        campaign.add(c, seed, "lowered")
    for name, state in (("a", a), ("b", b), ("c", c)):
        campaign.save(state, tmp_path / f"{name}.json")
    groups = campaign.aggregate(sorted(tmp_path.glob("*.json")))
    assert len(groups) == 2
    mine = next(g for g in groups if g["commit"] == "c0ffee")
    # Hand-counted: seeds 0..9 give 4 refusals (0, 3, 6, 9) and 6 lowered; 10..14 four lowered, one exception.
    assert mine["inputs"] == 15 and mine["ranges"] == [(0, 10), (10, 15)]
    assert mine["counts"] == {"lowered": 10, "refused:ShaderValidationError": 4, "exception": 1}
    assert [f["seed"] for f in mine["findings"]] == [12]
    row = fuzz_campaign.tgsi_row(mine)
    assert "| 15 (seeds 0..9, 10..14) |" in row and "| 10 lowered |" in row and "| 1 (seeds 12) |" in row
    # An overlapping file of the same campaign: the sum refuses.
    d = _state(first=14)
    campaign.add(d, 14, "lowered")
    campaign.save(d, tmp_path / "d.json")
    with pytest.raises(campaign.CampaignError, match="overlap"):
        campaign.aggregate(sorted(tmp_path.glob("*.json")))
    assert fuzz_campaign.main([str(tmp_path)]) == 2


# -- the scripts --------------------------------------------------------------------


def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=600, check=False, **kw
    )


def _total(counts: dict, prefix: str = "") -> int:
    return sum(v for k, v in counts.items() if k.startswith(prefix))


def test_fuzz_tgsi_writes_resumes_and_sums(tmp_path):
    out = tmp_path / "tgsi.json"
    r = _run(["scripts/fuzz_tgsi.py", "--programs", "40", "--seed", "700", "--out", str(out)])
    assert r.returncode == 0, r.stderr
    state = campaign.load(out)
    assert (state["first_seed"], state["next_seed"], state["finished"]) == (700, 740, True)
    assert _total(state["counts"]) == 40 and state["mode"] == "lower" and state["params"] == {"mix": "classic"}
    r = _run(["scripts/fuzz_tgsi.py", "--programs", "25", "--resume", str(out)])
    assert r.returncode == 0, r.stderr
    resumed = campaign.load(out)
    assert (resumed["first_seed"], resumed["next_seed"], resumed["runs"]) == (700, 765, 2)
    assert _total(resumed["counts"]) == 65
    # One run of the same 65 seeds counts the same (the seeds are the programs).
    once = tmp_path / "once.json"
    assert _run(["scripts/fuzz_tgsi.py", "--programs", "65", "--seed", "700", "--out", str(once)]).returncode == 0
    assert campaign.load(once)["counts"] == resumed["counts"]
    # Another commit's file is refused.
    bad = dict(resumed, commit="0" * 40)
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    r = _run(["scripts/fuzz_tgsi.py", "--programs", "5", "--resume", str(tmp_path / "bad.json")])
    assert r.returncode == 2 and "commit" in r.stderr


def _sigterm_mid_run(args: list[str], out: Path) -> dict:
    """Start a long run, wait for its first checkpoint, SIGTERM it; the final
    checkpoint it writes."""
    proc = subprocess.Popen(
        [sys.executable, *args, "--out", str(out), "--checkpoint-every", "1"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if out.exists() and campaign.load(out)["next_seed"] > campaign.load(out)["first_seed"]:
                break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (0, 1), stderr
    return campaign.load(out)


def test_fuzz_tgsi_sigterm_mid_run_then_resume(tmp_path):
    out = tmp_path / "tgsi.json"
    state = _sigterm_mid_run(["scripts/fuzz_tgsi.py", "--seconds", "600", "--seed", "900", "--jobs", "2"], out)
    assert state["finished"] and state["seconds"] < 300
    n = state["next_seed"] - 900
    assert n > 0 and _total(state["counts"]) == n  # exactly the seeds of the range: none in flight counted
    assert _run(["scripts/fuzz_tgsi.py", "--programs", "10", "--resume", str(out)]).returncode == 0
    resumed = campaign.load(out)
    assert resumed["next_seed"] == 900 + n + 10 and _total(resumed["counts"]) == n + 10


def test_fuzz_api_sigterm_mid_run_then_resume(tmp_path):
    out = tmp_path / "api.json"
    args = ["scripts/fuzz_api.py", "--profile", "gl33", "--seconds", "600", "--no-sweep", "--seed", "40"]
    state = _sigterm_mid_run(args, out)
    assert state["finished"] and state["tool"] == "fuzz_api" and state["profile"] == "gl33"
    n = state["next_seed"] - 40
    assert n > 0 and state["counts"]["sequences"] == n
    # Every counted sequence is whole: the counts are those of an uninterrupted run of the same seeds.
    whole = tmp_path / "whole" / "api.json"
    whole.parent.mkdir()
    r = _run([*args[:3], "--sequences", str(n), *args[5:], "--out", str(whole)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert campaign.load(whole)["counts"] == state["counts"]
    r = _run(["scripts/fuzz_api.py", "--sequences", "3", "--resume", str(out)], env={**os.environ})
    assert r.returncode == 0, r.stdout + r.stderr
    resumed = campaign.load(out)
    assert resumed["next_seed"] == 40 + n + 3 and resumed["counts"]["sequences"] == n + 3
    assert resumed["runs"] == 2
    r = _run(["scripts/fuzz_campaign.py", str(tmp_path)])
    assert r.returncode == 0, r.stderr
    assert f"| gl33 | {n + 3} (40..{40 + n + 2}) |" in r.stdout


def test_fuzz_tgsi_a_dead_worker_blames_its_program_only(tmp_path):
    """A worker dying on a program (a stand-in for a host crash: the test
    hook ends the process at that seed) is that seed's finding, saved with
    its program; the program queued behind it runs on the new worker, so
    every other seed is counted once."""
    out, findings = tmp_path / "t.json", tmp_path / "found"
    env = {**os.environ, "FUZZ_TGSI_TEST_DIE_AT": "105"}
    args = ["scripts/fuzz_tgsi.py", "--programs", "30", "--seed", "100", "--out", str(out), "--findings", str(findings)]
    r = _run(args, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    state = campaign.load(out)
    assert (state["next_seed"], state["counts"]["crash"], _total(state["counts"])) == (130, 1, 30)
    assert state["findings"] == [{"seed": 105, "kind": "crash", "detail": "crash"}]
    fuzz_tgsi = _script("fuzz_tgsi")
    from .tgsi_grammar import corpus

    assert (findings / "crash-105.tgsi").read_text() == fuzz_tgsi.Generator("classic", corpus())(105)
    # The other 29 seeds counted as an undisturbed run counts them.
    clean = tmp_path / "clean.json"
    assert _run([*args[:-4], "--out", str(clean), "--findings", str(findings)]).returncode == 0
    expect = dict(campaign.load(clean)["counts"])
    lone = _run(["scripts/fuzz_tgsi.py", "--programs", "1", "--seed", "105", "--out", str(tmp_path / "one.json")])
    assert lone.returncode == 0
    for key, n in campaign.load(tmp_path / "one.json")["counts"].items():
        expect[key] -= n
    expect["crash"] = 1
    assert {k: v for k, v in state["counts"].items() if v} == {k: v for k, v in expect.items() if v}
