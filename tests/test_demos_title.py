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


def test_key_events_reach_the_demo():
    """Keyboard input reaches the scene (issue 17 item 2): the right arrow
    turns the gears' view 5 degrees about y, as in glxgears, so the frame
    drawn after it is the frame of a scene built with that view."""
    import numpy as np

    from demos import gears

    window = open_window("glpipe: gears", 48, 48, backend="offscreen", profile="native")
    try:
        window.events.append(("key", frames.KEY_RIGHT, frames.PRESS, 0))
        window.events.append(("key", frames.KEY_RIGHT, 0, 0))  # a release turns nothing
        turned = frames.run_window(gears, window, 1, False)
    finally:
        window.close()
    screen_window = open_window("ref", 48, 48, backend="offscreen", profile="native")
    try:
        ctx = screen_window.screen.context_create()
        scene = gears.Scene(screen_window.screen, ctx, 48, 48)
        try:
            plain = (scene.draw(0.0), scene.target.read())[1]
            scene.view_rot[1] -= 5.0
            scene._set_view()
            expected = (scene.draw(0.0), scene.target.read())[1]
        finally:
            scene.destroy()
            ctx.destroy()
    finally:
        screen_window.close()
    assert not np.array_equal(plain, expected)  # 5 degrees show
    assert np.array_equal(turned, expected)
