"""The compute benchmark keeps working (benchmarks/bench_compute.py).

Speed is reported by the benchmark, never asserted: this runs it small and
checks that every kernel is measured on both paths and the report formats.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_compute


def test_compute_benchmark_measures_host_and_executor():
    results = bench_compute.run(max_log2=7, reps=1)
    kernels = {r["kernel"] for r in results["rows"]}
    assert kernels == {"vector_add", "histogram", "reduction", "image_blur"}
    # Scaling starts at one invocation (vector add), the fixed-block kernels at one block.
    assert min(r["invocations"] for r in results["rows"] if r["kernel"] == "vector_add") == 1
    for r in results["rows"]:
        assert r["native_s"] > 0 and r["gl33_s"] > 0
        assert r["instructions"] > 0
    text = bench_compute.format_text(results)
    assert "gl33 inst/s" in text and "vector_add" in text
