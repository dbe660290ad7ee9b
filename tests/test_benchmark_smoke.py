"""The draw benchmark keeps working (benchmarks/bench_draw.py).

Speed is measured by the benchmark, never asserted here: these tests run it
with a handful of draws and check only behaviour -- every case runs (or says
why it cannot), the report formats, and redundant binds make no GL call at
all (while a real state switch is seen making some, so the counter is not
blind).
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_draw
from benchmarks.gl_call_counter import GLCallCounter


@pytest.fixture(scope="module", autouse=True)
def frozen_heap():
    """The benchmark calls gc.collect() before every timed loop
    (benchmarks/bench_draw.py ``_timed``, ~40 times a run), and a collection
    costs time in proportion to every object the process tracks: late in the
    full suite each took seconds (this file's tests took 6.5 minutes of a
    loaded full run).  One full collection, then gc.freeze(): the older objects are
    permanent for the module, so each collection scans only what its tests made."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def test_benchmark_runs_and_redundant_binds_make_no_gl_calls(profile):
    results = bench_draw.run((profile,), draws=6, reps=1, redundant=3)
    data = results["profiles"][profile]
    cases = {row["case"]: row for row in data["cases"]}
    assert set(cases) == {key for _group, key, _label, _setup in bench_draw.CASES}
    for row in cases.values():
        if "unavailable" not in row:
            assert row["glpipe_us"] > 0 and row["raw_us"] > 0
            assert row["glpipe_gl_calls_per_draw"] >= 1  # at least the draw itself
    assert "unavailable" not in cases["no_change"]
    red = data["redundant"]
    assert red["total_gl_calls"] == 0, [b for b in red["binds"] if b["gl_calls"]]
    assert all(b["gl_calls"] == 0 for b in red["binds"])
    assert red["draw_after_calls"] == ["glDrawArraysInstanced"]  # nothing re-emitted, just the draw
    assert red["control_gl_calls"] > 1  # a real switch + draw is seen making calls
    text = bench_draw.format_markdown(results)
    assert f"Profile `{profile}`" in text and "(c) redundant binds" in text


def test_gl_call_counter_sees_every_route(screen):
    """Calls through the PyOpenGL module, through a PyOpenGL function kept in a
    tuple, and through a raw ctypes pointer are all counted, once each, and
    nothing is counted after the block."""
    import ctypes

    from OpenGL import platform

    from glpipe.host.hotgl import raw_prototype

    gl = screen.host.gl
    screen.host.make_current()
    dither_was_on = bool(gl.glIsEnabled(gl.GL_DITHER))
    held = ((gl.glDisable, (gl.GL_DITHER,)),)
    raw = ctypes.CFUNCTYPE(None)(platform.PLATFORM.getExtensionProcedure(b"glDisable"))
    hot = raw_prototype()(platform.PLATFORM.getExtensionProcedure(b"glDisable"))  # glpipe's hot entry points
    with GLCallCounter(screen) as counter:
        gl.glEnable(gl.GL_DITHER)
        for fn, args in held:
            fn(*args)
        raw(int(gl.GL_DITHER))
        hot(int(gl.GL_DITHER))
        names = gl.glGenBuffers(1)  # a PyOpenGL wrapper around a base function: one call
        gl.glDeleteBuffers(1, [names])
    (gl.glEnable if dither_was_on else gl.glDisable)(gl.GL_DITHER)  # put the host back (after the block)
    assert counter.calls == ["glEnable", "glDisable", "glDisable", "glDisable", "glGenBuffers", "glDeleteBuffers"]
    assert counter.count == 6


def test_benchmark_command_line_markdown(capsys):
    bench_draw.main(["--profile", "gl33", "--draws", "4", "--reps", "1", "--cases", "no_change", "blend", "--markdown"])
    out = capsys.readouterr().out
    assert "| (a) no state change |" in out and "| (b) switch blend CSO |" in out


def test_each_side_draws_on_its_own_gl_context(profile, monkeypatch):
    """With GLPIPE_DEBUG=nofast glpipe checks the host's GL error flag at
    every draw (glpipe/debug.py NOFAST_DROPS rebuild the framebuffer), so a
    raw ModernGL call issued while glpipe's context is current -- ModernGL
    objects do not check which context is current (docs/host.md "State ModernGL changes behind our back") -- would
    surface as a HostGLError: every case must run cleanly."""
    monkeypatch.setenv("GLPIPE_DEBUG", "nofast")
    results = bench_draw.run((profile,), draws=4, reps=1, redundant=2)
    cases = {row["case"]: row for row in results["profiles"][profile]["cases"]}
    assert all("unavailable" not in row or "rasterizer" in row["unavailable"] for row in cases.values()), cases
