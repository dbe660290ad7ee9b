"""The soft-double benchmark keeps working (benchmarks/bench_fp64.py).

Speed is measured by the benchmark, never asserted here: a tiny run checks
that both forms of each opcode are drawn and timed, that the emulated form
really is the GLSL 3.30 soft one and the native form real doubles, and that
the report formats.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_fp64  # noqa: E402


def test_bench_fp64_runs_both_forms():
    results = bench_fp64.run(size=16, chain=2, reps=1)
    assert [r["op"] for r in results["rows"]] == list(bench_fp64.OPS)
    for row in results["rows"]:
        for form in ("native", "soft"):
            assert row[f"{form}_ns_per_op"] >= 0.0 and row[f"{form}_first_draw_ms"] > 0.0
    text = bench_fp64.format_markdown(results)
    assert "| DADD |" in text and "| DMUL |" in text


def test_bench_fp64_chain_is_soft_at_330_and_native_at_450():
    import lowering

    tgsi = bench_fp64.chain_tgsi("DMUL", 3)
    soft = lowering.to_glsl(tgsi, glsl_version=330).source
    native = lowering.to_glsl(tgsi, glsl_version=450).source
    assert soft.count("glp_dmul(") >= 3 + 1 and "double" not in soft  # 3 calls + the definition
    assert "packDouble2x32" in native and "glp_dmul" not in native
