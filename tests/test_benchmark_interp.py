"""The INTERP_* re-interpolation benchmark keeps working (benchmarks/bench_interp.py).

Speed is reported by the benchmark, never asserted: this runs it small and
checks behaviour -- both forms are measured in one run, the emulated form
really is the interpolateAt*-free one (the benchmark checks the GLSL it
draws), and the report formats.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_interp


def test_interp_benchmark_measures_native_and_emulated():
    results = bench_interp.run(size=64, chain=2, reps=1)
    (row,) = results["cases"]
    assert row["case"] == "INTERP_OFFSET"
    for key in ("native_ns", "emulated_ns", "native_setup_ns", "emulated_setup_ns"):
        assert row[key] >= 0
    text = bench_interp.format_text(results)
    assert "INTERP_OFFSET" in text and "emulated ns" in text


def test_benchmark_shader_is_the_derivative_form_at_330():
    import lowering

    text = bench_interp.tgsi(1)
    soft = lowering.to_glsl(text, glsl_version=330, extensions=frozenset()).source
    native = lowering.to_glsl(text, glsl_version=450).source
    assert "interpolateAtOffset" not in soft and "dFdx" in soft and "glp_interp_smooth" in soft
    assert "interpolateAtOffset" in native
