"""A window shows which fallbacks its demo used (issue 17 item 3: "a note on
screen"): after the first frame, ``frames.run_window`` puts the profile's
fallback note in the window's title (an offscreen window keeps the title it
would show)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from demos import compute_particles, frames  # noqa: E402
from glpipe.window import open_window  # noqa: E402


@pytest.mark.parametrize("profile", ["native", "gl33"])
def test_the_window_title_names_the_fallbacks(profile):
    window = open_window("glpipe: compute_particles", 32, 32, backend="offscreen", profile=profile)
    try:
        assert window.title == "glpipe: compute_particles"
        frames.run_window(compute_particles, window, 2, False)
        head, _, note = window.title.partition(" | ")
        assert head == "glpipe: compute_particles"
        assert note.startswith(f"{profile}: fallbacks used: ")
        # GL 3.3 has no compute shaders: the numpy executor ran the kernel; native needs no fallback.
        assert note.endswith("compute_executor" if profile == "gl33" else "none"), note
    finally:
        window.close()
