"""Real windows: under a virtual X server (Xvfb, ``xvfb-run``), each animated
demo opens a glfw window, presents a few frames through
``screen.flush_frontbuffer``, and the picture the X server holds for the
window (grabbed with Pillow's ImageGrab, XGetImage underneath -- not read
through GL) equals the demo's headless frame on the same profile.

Skipped, with the reason, where ``xvfb-run`` or glfw is missing (.ci/run
installs xvfb when it runs as root; docs/demos.md).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import glpipe
from demos import frames
from demos.__main__ import ANIMATED

pytest.importorskip("PIL.ImageGrab", reason="grabbing the X screen needs Pillow (the demos extra)")
pytest.importorskip("glfw", reason="windows need glfw (the window extra)")
if shutil.which("xvfb-run") is None:
    pytest.skip("no xvfb-run: install xvfb for the real-window tests", allow_module_level=True)

SIZE, FRAMES = 48, 3

# Runs under xvfb-run: every demo in a real window, the window's pixels as
# the X server has them, saved per demo.
SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    from PIL import ImageGrab
    import importlib
    from demos import frames
    from demos.__main__ import ANIMATED
    from glpipe.window import open_window

    out, profile, size, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    grabs = {}
    for name in ANIMATED:
        module = importlib.import_module(f"demos.{name}")
        window = open_window(name, size, size, backend="glfw", profile=profile)
        assert window.backend == "glfw", window.reason
        try:
            frames.run_window(module, window, count, False)
            assert window.drawable.frames == count
            x, y = window._glfw.get_window_pos(window._handle)
            screen = np.asarray(ImageGrab.grab(xdisplay="").convert("RGB"))
            grabs[name] = screen[y : y + size, x : x + size]
        finally:
            window.close()
    np.savez(out, **grabs)
    """
)


def test_real_windows_show_the_headless_frames(profile, tmp_path):
    out = tmp_path / "grabs.npz"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("GLPIPE_WINDOW", None)
    for _attempt in range(3):
        proc = subprocess.run(
            ["xvfb-run", "-a", "-s", "-screen 0 320x240x24", sys.executable, "-c", SCRIPT, str(out), profile]
            + [str(SIZE), str(FRAMES)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        # xvfb-run -a picks a free display number by its lock files; two runs
        # starting together can pick the same one, and one server then fails
        # to start: that is the harness, not the demo, so try again.
        if "Failed to open display" not in proc.stderr:
            break
    assert proc.returncode == 0, proc.stderr[-3000:]
    grabs = np.load(out)
    screen = glpipe.create_screen(profile=profile)
    try:
        for name in ANIMATED:
            module = importlib.import_module(f"demos.{name}")
            expected = frames.render_headless(module, screen, SIZE, 1, first=FRAMES - 1)
            assert grabs[name].shape == (SIZE, SIZE, 3)
            # The window shows resource row 0 at its top: the one flip, in flush_frontbuffer.
            assert np.array_equal(grabs[name], expected[..., :3]), f"{name}: the window differs from the frame"
    finally:
        screen.destroy()
