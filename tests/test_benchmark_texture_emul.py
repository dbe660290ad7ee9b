"""The texture query / gather and cull / layer emulation benchmarks keep working
(benchmarks/bench_texture_emul.py, benchmarks/bench_cull_layer.py).

Speed is reported by the benchmarks, never asserted: these run them small and
check behaviour -- both forms are measured in one run, the emulated form really
is the GLSL 3.30 one (the texture benchmark checks the GLSL it draws; here the
lowering of each case is checked too), and the reports format.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_cull_layer, bench_texture_emul


def test_texture_benchmark_measures_every_case():
    results = bench_texture_emul.run(size=32, chain=1, reps=1)
    assert [r["case"] for r in results["cases"]] == list(bench_texture_emul.CASES)
    for row in results["cases"]:
        assert row["native_ns"] >= 0 and row["emulated_ns"] >= 0
    text = bench_texture_emul.format_text(results)
    assert "TG4_OFFSETS" in text and "emulated ns" in text


@pytest.mark.parametrize("case", list(bench_texture_emul.CASES))
def test_texture_benchmark_forms(case):
    """At GLSL 330 without extensions the case is the emulation (no GLSL 4.x
    built-in); at 450 the built-in."""
    import lowering

    text = bench_texture_emul.tgsi(case, 1)
    builtin = bench_texture_emul.CASES[case][1]
    soft = lowering.to_glsl(text, glsl_version=330, extensions=frozenset()).source
    native = lowering.to_glsl(
        text, glsl_version=450, extensions=frozenset({"GL_ARB_gpu_shader5", "GL_ARB_texture_query_lod"})
    ).source
    assert builtin not in soft and builtin in native


def test_cull_layer_benchmark_measures_both_profiles():
    results = bench_cull_layer.run(grid=4, reps=1)
    assert [r["case"] for r in results["cases"]] == ["plain", "CULL", "LAYER"]
    assert results["primitives"] == 32
    for row in results["cases"]:
        assert row["native_ns"] > 0 and row["gl33_ns"] > 0
    assert "LAYER" in bench_cull_layer.format_text(results)


def test_cull_layer_benchmark_geometry():
    """Every other triangle has its cull distance negative at all three vertices."""
    verts = bench_cull_layer.triangles(2).reshape(-1, 3, 8)
    assert (verts[0::2, :, 4] == 1).all() and (verts[1::2, :, 4] == -1).all()
    assert "NUM_CULLDIST_ENABLED 1" in bench_cull_layer.vs("CULL")
    assert "LAYER" in bench_cull_layer.vs("LAYER") and "LAYER" not in bench_cull_layer.vs("plain")
