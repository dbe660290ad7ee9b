"""The int64 emulation benchmark keeps working (benchmarks/bench_int64.py).

Speed is reported by the benchmark, never asserted: this runs it small and
checks behaviour -- both forms of each case are measured in one run, the
emulated form really is the int64_t-free one (the benchmark checks the GLSL
it draws), and the report formats.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_int64


def test_int64_benchmark_measures_native_and_emulated():
    results = bench_int64.run(size=64, chain=2, reps=1)
    if "unavailable" in results:
        assert results["cases"] == []
        return
    assert [r["case"] for r in results["cases"]] == list(bench_int64.CASES)
    assert {"U64MUL", "I64DIV"} <= set(bench_int64.CASES)
    for r in results["cases"]:
        assert r["native_ns"] >= 0 and r["emulated_ns"] >= 0
    text = bench_int64.format_text(results)
    assert "I64DIV" in text and "emulated ns" in text


def test_benchmark_shader_is_the_soft_form_without_the_extension():
    import lowering

    text = bench_int64.tgsi("I64DIV", 1)
    soft = lowering.to_glsl(text, glsl_version=450, extensions=frozenset()).source
    native = lowering.to_glsl(text, glsl_version=450, extensions=frozenset({"GL_ARB_gpu_shader_int64"})).source
    assert "glp_i64_div(" in soft and "int64_t" not in soft
    assert "GL_ARB_gpu_shader_int64" in native and "glp_i64div(" in native  # wide.py _DIV64
    assert "glp_i64_div(" not in native
