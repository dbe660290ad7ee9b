"""The transfer benchmark keeps working (benchmarks/bench_transfer.py).

Speed is measured by the benchmark, never asserted here: it runs with two
small sizes and one repetition, and every case reports a rate on both sides
and formats into the table of docs/performance.md."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_transfer


def test_benchmark_runs_every_case(profile):
    sizes = (4096, 65536)
    results = bench_transfer.run(profile, sizes, reps=1)
    assert set(results["cases"]) == set(bench_transfer.CASES)
    for rows in results["cases"].values():
        assert [r["size"] for r in rows] == list(sizes)
        assert all(r["glpipe_mbs"] > 0 and r["raw_mbs"] > 0 for r in rows)
    assert [r["format"] for r in results["conversions"]] == list(bench_transfer.CONVERTED)
    assert all(r["upload_mbs"] > 0 and r["read_mbs"] > 0 for r in results["conversions"])
    text = bench_transfer.format_markdown(results)
    assert f"Profile `{profile}`" in text and "| map_read |" in text
