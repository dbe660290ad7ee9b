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
    assert [row["case"] for row in results["cases"]] == ["INTERP_OFFSET", "INTERP_CENTROID 4x"]
    for row in results["cases"]:
        for key in ("native_ns", "emulated_ns", "native_setup_ns", "emulated_setup_ns"):
            assert row[key] >= 0
    text = bench_interp.format_text(results)
    assert "INTERP_OFFSET" in text and "INTERP_CENTROID 4x" in text and "emulated ns" in text


def test_benchmark_shader_is_the_derivative_form_at_330():
    import lowering

    text = bench_interp.tgsi(1)
    soft = lowering.to_glsl(text, glsl_version=330, extensions=frozenset()).source
    native = lowering.to_glsl(text, glsl_version=450).source
    assert "interpolateAtOffset" not in soft and "dFdx" in soft and "glp_interp_smooth" in soft
    assert "interpolateAtOffset" in native


def test_benchmark_centroid_case_is_the_copy():
    """The 4x centroid case's emulated form is the centroid copy the context keys:
    the VS writes a ``centroid`` copy of GENERIC[0] and the FS reads it, with no
    interpolateAtCentroid."""
    import lowering
    from lowering.glsl.passes.interp import needed_copies

    text = bench_interp.tgsi(1, True, "INTERP_CENTROID 4x")
    assert needed_copies(lowering.parse(text)) == (("GENERIC", 0, "CENTROID"),)
    b = bench_interp.Bench(16)
    try:
        prog, vao, source = b.program(text, native=False, samples=4)
        assert "interpolateAtCentroid" not in source and "centroid vec4 glp_generic_0_at_centroid" in source
        vao.release()
        prog.release()
    finally:
        b.release()
