"""The frame benchmark keeps working (benchmarks/bench_frames.py).

Speed is measured by the benchmark, never asserted here.  What is checked:
both demos run on both sides, and the raw ModernGL scene really is the
demo's scene -- its last frame equals glpipe's (the comparison the
benchmark reports as "same picture"), and a frame of another time does not
(so that comparison can fail).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_frames


def test_both_demos_run_and_draw_the_same_scene(profile):
    results = bench_frames.run((profile,), count=3, size=64, reps=1)
    rows = {r["demo"]: r for r in results["rows"]}
    assert set(rows) == set(bench_frames.DEMOS)
    for r in rows.values():
        assert r["glpipe_fps"] > 0 and r["raw_fps"] > 0
        assert r["scene_matches"], r
    text = bench_frames.format_markdown(results)
    assert "| gears |" in text and "| instanced |" in text


def test_raw_scene_differs_at_another_time():
    """The picture check is not vacuous: raw gears a quarter second later
    differ from raw gears now by more than the benchmark's tolerance."""
    import moderngl

    mgl = moderngl.create_context(standalone=True, backend="egl")
    try:
        raw = bench_frames.RawGears(mgl, 64)
        raw.draw(0.5)
        now = raw.read().astype(int)
        raw.draw(0.75)
        later = raw.read().astype(int)
        raw.release()
    finally:
        mgl.release()
    assert (np.abs(now - later).max(axis=2) > 2).mean() > bench_frames.MAX_OFF_FRACTION
