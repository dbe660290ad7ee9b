"""Screenshot tests: every demo's fixed frame (fixed time, fixed camera),
rendered headless on both profiles, matches its reference PNG in
tests/data/demos/ within a per-pixel tolerance suited to llvmpipe, and each
demo's gl33 frame matches its native frame.

The references were rendered by the demos on the native profile and
reviewed by eye before being committed (docs/demos.md).  A failing
comparison writes the observed image and a diff image (|observed -
reference| x 8) next to the test's tmp_path and names them in the message.
Regenerate with ``GLPIPE_UPDATE_SCREENSHOTS=1 python -m pytest
tests/test_demos_screenshots.py`` -- and look at them again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

PIL = pytest.importorskip("PIL.Image", reason="screenshot tests need Pillow (the demos extra)")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import glpipe
from demos import cube, frames, instanced, msaa, quad_tex, shadow, tri

DATA = ROOT / "tests" / "data" / "demos"
SIZE = 96
# (module, frame, size) per animated demo (instanced: 10,000 objects need
# more than 96 pixels to be seen one by one); the still demos draw their one frame.
ANIMATED = {
    "cube": (cube, 20, SIZE),
    "instanced": (instanced, 30, 256),
    "msaa": (msaa, 10, 128),
    "shadow": (shadow, 20, 128),
}  # module, frame, size
STILL = {"tri": tri, "quad_tex": quad_tex}
# llvmpipe is deterministic per profile, but the gl33 profile's lowered
# shaders round differently in the last bits: a channel may be off by a few
# steps on edges and in filtered texels, never more than TOLERANCE.
TOLERANCE = 6
MAX_OFF_FRACTION = 0.01  # pixels off by more than 2 steps, at most 1 %


def render(name: str, profile: str, **options) -> np.ndarray:
    """The demo's fixed frame in image order (row 0 = top), on a fresh screen
    (``options``: the Scene's)."""
    screen = glpipe.create_screen(profile=profile)
    try:
        if name in ANIMATED:
            module, frame, size = ANIMATED[name]
            return frames.render_headless(module, screen, size, 1, first=frame, **options)
        return STILL[name].render(screen, SIZE)[::-1]  # the still demos render GL-style: flip to present
    finally:
        screen.destroy()


def compare(observed: np.ndarray, reference: np.ndarray, tmp_path: Path, label: str) -> None:
    """Assert ``observed`` matches ``reference``; on failure write both images' difference."""
    assert observed.shape == reference.shape, f"{label}: shape {observed.shape} != {reference.shape}"
    diff = np.abs(observed.astype(np.int16) - reference.astype(np.int16)).max(axis=2)
    off = (diff > 2).mean()
    if diff.max() <= TOLERANCE and off <= MAX_OFF_FRACTION:
        return
    obs_path, diff_path = tmp_path / f"{label}-observed.png", tmp_path / f"{label}-diff.png"
    PIL.fromarray(observed, "RGBA").save(obs_path)
    d = np.clip(diff * 8, 0, 255).astype(np.uint8)
    PIL.fromarray(np.dstack([d, d, d, np.full_like(d, 255)]), "RGBA").save(diff_path)
    pytest.fail(
        f"{label}: max channel difference {diff.max()} (tolerance {TOLERANCE}), {off:.2%} of pixels off by > 2; "
        f"observed: {obs_path}, diff: {diff_path}"
    )


NAMES = [*ANIMATED, *STILL]
# Demos whose picture depends on a cap the profiles grant differently have a
# reference per profile: cube's anisotropic filtering (gl33 grants none).
REFERENCE_SUFFIX = {("cube", "gl33"): "-gl33"}
# The Scene options that make the native frame use gl33's caps.
GL33_OPTIONS = {"cube": {"anisotropy": 0}}


@pytest.mark.parametrize("name", NAMES)
def test_demo_matches_reference(name, profile, tmp_path):
    observed = render(name, profile)
    suffix = REFERENCE_SUFFIX.get((name, profile), "")
    path = DATA / f"{name}{suffix}.png"
    if os.environ.get("GLPIPE_UPDATE_SCREENSHOTS") and (profile == "native" or suffix):
        PIL.fromarray(observed, "RGBA").save(path)
    reference = np.asarray(PIL.open(path).convert("RGBA"))
    compare(observed, reference, tmp_path, f"{name}-{profile}")


@pytest.mark.parametrize("name", NAMES)
def test_gl33_frame_matches_native_frame(name, tmp_path):
    """Same scene, same caps: the native frame drawn with what gl33 grants
    (GL_NATIVE_OPTIONS) matches the gl33 frame through the fallbacks."""
    native = render(name, "native", **GL33_OPTIONS.get(name, {}))
    compare(render(name, "gl33"), native, tmp_path, f"{name}-gl33-vs-native")


def test_cube_anisotropy_follows_the_cap(profile):
    """The cube asks for 8x anisotropy and gets what MAX_TEXTURE_ANISOTROPY
    grants: 16 on native GL 4.5 (llvmpipe), 0 on GL 3.3 core (no
    anisotropic filtering in core 3.3) -- why cube has a gl33 reference."""
    screen = glpipe.create_screen(profile=profile)
    ctx = screen.context_create()
    try:
        scene = cube.Scene(screen, ctx, 8, 8)
        assert scene.anisotropy == (8 if profile == "native" else 0)
        scene.destroy()
    finally:
        ctx.destroy()
        screen.destroy()


def test_a_wrong_picture_fails_and_writes_observed_and_diff(tmp_path):
    """The comparison is not vacuous: a frame one step of the animation
    later differs, and the failure leaves the two images behind."""
    screen = glpipe.create_screen()
    try:
        later = frames.render_headless(cube, screen, SIZE, 1, first=21)
    finally:
        screen.destroy()
    reference = np.asarray(PIL.open(DATA / "cube.png").convert("RGBA"))
    with pytest.raises(pytest.fail.Exception, match="observed"):
        compare(later, reference, tmp_path, "cube-later")
    assert (tmp_path / "cube-later-observed.png").exists() and (tmp_path / "cube-later-diff.png").exists()


def test_cli_lists_and_renders_headless(tmp_path, capsys):
    from demos.__main__ import main

    main([])
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == [
        "gears",
        "cube",
        "shadow",
        "msaa",
        "deferred",
        "instanced",
        "occlusion",
        "xfb_particles",
        "compute_particles",
        "tri",
        "quad_tex",
    ]
    out = tmp_path / "cube.png"
    pixels = main(["cube", "--frames", "2", "--out", str(out), "--size", "48"])
    assert np.array_equal(np.asarray(PIL.open(out).convert("RGBA")), pixels)  # PNG rows = resource rows
    screen = glpipe.create_screen()
    try:
        assert np.array_equal(pixels, frames.render_headless(cube, screen, 48, 1, first=1))  # the last frame
    finally:
        screen.destroy()
    with pytest.raises(SystemExit, match="unknown demo"):
        main(["teapot"])


def test_window_path_presents_what_headless_renders(monkeypatch, tmp_path, profile):
    """--window on the offscreen backend: every frame goes through
    flush_frontbuffer, and the window's picture (read back from its
    framebuffer, first row at the top) is the headless frame."""
    from demos.__main__ import main
    from glpipe.window import Window

    monkeypatch.setenv("GLPIPE_WINDOW", "offscreen")
    seen = {}
    original_close = Window.close

    def close(self):
        seen["frames"], seen["picture"] = self.drawable.frames, self.drawable.read()
        original_close(self)

    monkeypatch.setattr(Window, "close", close)
    args = ["cube", "--window", "--frames", "3", "--size", "40", "--profile", profile]
    pixels = main([*args, "--out", str(tmp_path / "w.png")])
    assert seen["frames"] == 3
    assert np.array_equal(seen["picture"], pixels)
    screen = glpipe.create_screen(profile=profile)
    try:
        assert np.array_equal(pixels, frames.render_headless(cube, screen, 40, 1, first=2))
    finally:
        screen.destroy()


def test_msaa_resolve_blends_edges_single_sampled_does_not(profile):
    """Each spoke has one colour: single-sampled (right half) a pixel is the
    clear colour or a spoke's; resolved 4x MSAA (left half) edge pixels are
    averages of 4 samples: coverage 1/4, 2/4 or 3/4 of a spoke over the
    clear colour, so at least two of those three mixes per spoke appear
    along its long edges."""
    screen = glpipe.create_screen(profile=profile)
    try:
        pixels = frames.render_headless(msaa, screen, 128, 1, first=10)
    finally:
        screen.destroy()
    left, right = pixels[:, :64].reshape(-1, 4), pixels[:, 64:].reshape(-1, 4)
    n_left, n_right = len(np.unique(left, axis=0)), len(np.unique(right, axis=0))
    assert n_right <= msaa.SPOKES + 1 + 4  # clear + spokes (+ rounding of the centre overlaps)
    assert n_right >= msaa.SPOKES + 1  # every spoke is visible
    assert n_left >= msaa.SPOKES + 1 + 2 * msaa.SPOKES


def test_shadow_map_darkens_the_ground_under_the_cube(profile):
    """The ground's colour is (0.75, 0.78, 0.7); lit it shows at full
    strength, in the cube's shadow at 0.35 of it (the FS's ambient term).
    Both must be on screen, and the shadowed ground lies below the cube."""
    screen = glpipe.create_screen(profile=profile)
    try:
        pixels = frames.render_headless(shadow, screen, 128, 1, first=20).astype(np.float64)
    finally:
        screen.destroy()
    ground = np.array([0.75, 0.78, 0.7]) * 255.0
    lit = np.abs(pixels[..., :3] - ground).max(axis=2) <= 2
    dark = np.abs(pixels[..., :3] - 0.35 * ground).max(axis=2) <= 2
    assert lit.sum() > 2000 and dark.sum() > 100
    cube_rows = np.nonzero(np.abs(pixels[..., :3] - np.array([0.95, 0.45, 0.2]) * 255).max(axis=2) <= 30)[0]
    assert np.nonzero(dark)[0].mean() > cube_rows.mean()  # row 0 is the top: the shadow is lower
