"""The issue-17 demos (gears, deferred shading, occlusion-query culling,
transform-feedback particles, compute particles): screenshot tests on both
profiles plus checks whose expectations are computed here, independently
of the demos' code, from the scenes' definitions:

* gears: the gear outline (radii, teeth, winding, normals) from the gear
  definition, and where each gear's centre lands on screen (glFrustum and
  glRotate written out by hand here);
* deferred: the lit frame recomputed in numpy from the G-buffer the
  geometry pass wrote and the lights' definition;
* occlusion: which objects are hidden behind the wall, by projecting their
  bounding boxes here;
* the particle demos: the particle state after n steps simulated in numpy
  from the update rule.

Screenshots use tests/test_demos_screenshots.py's comparison (tolerance,
observed and diff images on failure); the references in tests/data/demos/
were rendered by the demos on the native profile and looked at before they
were committed (docs/demos.md).
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

from test_demos_screenshots import DATA, compare

import glpipe
from demos import compute_particles, deferred, frames, gears, occlusion, xfb_particles

# name -> (module, frame, size): the fixed frame of each screenshot.
SHOTS = {
    "gears": (gears, 30, 128),
    "deferred": (deferred, 20, 128),
    "occlusion": (occlusion, 60, 128),
    "xfb_particles": (xfb_particles, 45, 128),
    "compute_particles": (compute_particles, 120, 128),
}


def render(name: str, profile: str) -> np.ndarray:
    module, frame, size = SHOTS[name]
    screen = glpipe.create_screen(profile=profile)
    try:
        return frames.render_headless(module, screen, size, 1, first=frame)
    finally:
        screen.destroy()


def with_scene(module, profile: str, size: int, fn):
    """Run ``fn(scene)`` on a fresh scene of ``module`` and return its result."""
    screen = glpipe.create_screen(profile=profile)
    ctx = screen.context_create()
    try:
        scene = module.Scene(screen, ctx, size, size)
        try:
            return fn(scene)
        finally:
            scene.destroy()
    finally:
        ctx.destroy()
        screen.destroy()


@pytest.mark.parametrize("name", list(SHOTS))
def test_demo_matches_reference(name, profile, tmp_path):
    observed = render(name, profile)
    path = DATA / f"{name}.png"
    if os.environ.get("GLPIPE_UPDATE_SCREENSHOTS") and profile == "native":
        PIL.fromarray(observed, "RGBA").save(path)
    reference = np.asarray(PIL.open(path).convert("RGBA"))
    compare(observed, reference, tmp_path, f"{name}-{profile}")


@pytest.mark.parametrize("name", list(SHOTS))
def test_gl33_frame_matches_native_frame(name, tmp_path):
    compare(render(name, "gl33"), render(name, "native"), tmp_path, f"{name}-gl33-vs-native")


def test_cli_lists_the_new_demos(capsys):
    from demos.__main__ import main

    main([])
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    for name in SHOTS:
        assert name in listed


@pytest.mark.parametrize("name", list(SHOTS))
def test_cli_renders_headless_and_notes_fallbacks(name, profile, tmp_path, capsys):
    """``python -m demos NAME --frames N --out f.png`` writes the frame and
    prints which fallbacks the profile used (gl33: the ones standing in for
    the features the demo needs that GL 3.3 core lacks)."""
    from demos.__main__ import main

    out = tmp_path / f"{name}.png"
    pixels = main([name, "--frames", "2", "--out", str(out), "--size", "32", "--profile", profile])
    assert np.array_equal(np.asarray(PIL.open(out).convert("RGBA")), pixels)
    text = capsys.readouterr().out
    assert "fallbacks used:" in text
    if name == "compute_particles" and profile == "gl33":
        assert "compute_executor" in text  # GL 3.3 has no compute shaders: the numpy executor ran it
    if profile == "native":
        assert "fallbacks used: none" in text


# -- gears ------------------------------------------------------------------------------


def test_gear_geometry_follows_the_definition():
    inner, outer, width, teeth, depth = 1.0, 4.0, 1.0, 20, 0.7
    tri = gears.gear(inner, outer, width, teeth, depth).reshape(-1, 3, 6)
    pos, nrm = tri[..., :3].astype(np.float64), tri[..., 3:].astype(np.float64)
    r = np.hypot(pos[..., 0], pos[..., 1])
    r1, r2 = outer - depth / 2, outer + depth / 2
    # Every vertex lies on the hole, the root circle or the tip circle, on a face of the slab.
    assert np.all(np.min(np.abs(r[..., None] - np.array([inner, r1, r2])), axis=-1) < 1e-5)
    assert np.allclose(np.abs(pos[..., 2]), width / 2, atol=1e-6)
    # Teeth: the tip circle is reached at two angles per tooth (its flat top).
    tips = np.round(np.degrees(np.arctan2(pos[..., 1], pos[..., 0])[r > r2 - 1e-5]), 3) % 360
    assert len(np.unique(np.round(tips, 2))) == 2 * teeth
    assert np.allclose(np.linalg.norm(nrm, axis=-1), 1, atol=1e-5)
    # Winding and normals: every face is counter-clockwise seen from where its normal points.
    geometric = np.cross(pos[:, 1] - pos[:, 0], pos[:, 2] - pos[:, 0])
    hole = np.all(np.abs(r - inner) < 1e-5, axis=1)
    for i in np.nonzero(~hole)[0]:
        g = geometric[i] / np.linalg.norm(geometric[i])
        assert np.allclose(nrm[i], g, atol=1e-4), i  # flat faces: the face normal
        centre = pos[i].mean(axis=0)
        assert np.dot(g, centre) > 0  # pointing out of the slab (front, back, outer rim)
    # The hole's wall is smooth: each vertex's normal points at the axis.
    radial = pos[hole][..., :2] / r[hole][..., None]
    assert np.allclose(nrm[hole][..., :2], -radial, atol=1e-5) and np.allclose(nrm[hole][..., 2], 0)
    assert np.all(np.einsum("ij,ij->i", geometric[hole], -np.c_[pos[hole][:, 0, :2], np.zeros(hole.sum())]) > 0)


def _gl_frustum(left, r, b, t, n, f):
    return np.array(
        [
            [2 * n / (r - left), 0, (r + left) / (r - left), 0],
            [0, 2 * n / (t - b), (t + b) / (t - b), 0],
            [0, 0, -(f + n) / (f - n), -2 * f * n / (f - n)],
            [0, 0, -1, 0],
        ]
    )


def _gl_rotate(deg, x, y, z):
    """glRotate's matrix (the OpenGL 2.1 spec, 2.11.2), for a unit axis."""
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    a = np.array([x, y, z], float)
    m = np.eye(4)
    m[:3, :3] = np.outer(a, a) * (1 - c) + c * np.eye(3) + s * np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return m


def test_each_gear_is_drawn_where_its_centre_projects(profile):
    """gears.c's scene: frustum(-1, 1, -1, 1, 5, 60), translate(0, 0, -40),
    rotate 20 about x and 30 about y; gear centres (-3, -2), (3.1, -2),
    (-3.1, 4.2).  The centroid of each gear's colour on screen is near its
    projected centre (row 0 = the top)."""
    size = 128
    screen = glpipe.create_screen(profile=profile)
    try:
        pixels = frames.render_headless(gears, screen, size, 1, first=30).astype(int)
    finally:
        screen.destroy()
    view = np.eye(4)
    view[2, 3] = -40.0
    view = view @ _gl_rotate(20, 1, 0, 0) @ _gl_rotate(30, 0, 1, 0)
    clip = _gl_frustum(-1, 1, -1, 1, 5, 60) @ view
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    masks = {
        (-3.0, -2.0): (r > g + 40) & (r > b + 40),
        (3.1, -2.0): (g > r + 40) & (g > b + 20),
        (-3.1, 4.2): (b > r + 40) & (b > g + 40),
    }
    for (x, y), mask in masks.items():
        p = clip @ np.array([x, y, 0, 1.0])
        ndc = p[:2] / p[3]
        col, row = (ndc[0] + 1) / 2 * size, (1 - ndc[1]) / 2 * size
        assert mask.sum() > 150, (x, y)
        rows, cols = np.nonzero(mask)
        assert abs(cols.mean() - col) < 0.06 * size and abs(rows.mean() - row) < 0.06 * size, (x, y)


# -- deferred shading -----------------------------------------------------------------------------


def test_lighting_pass_is_the_documented_sum_over_the_lights(profile):
    """The final frame equals, per pixel, albedo * (AMBIENT + sum over the
    lights of colour * max(dot(N, L), 0) / (1 + ATTENUATION * d^2)), with L
    the unit vector to the light and d its distance, computed here from the
    G-buffer the geometry pass wrote; the background stays the clear colour."""
    size, frame = 64, 20
    t = frame * frames.FRAME_DT

    def run(scene):
        scene.draw(t)
        return scene.target.read(), scene.read_gbuffer()

    final, gb = with_scene(deferred, profile, size, run)
    albedo = gb["albedo"][..., :3].astype(np.float64) / 255.0
    normal, position = gb["normal"][..., :3].astype(np.float64), gb["position"].astype(np.float64)
    covered = position[..., 3] > 0.5  # the geometry pass writes w = 1; the clear leaves 0
    assert 0.3 < covered.mean() < 0.98
    assert np.allclose(np.linalg.norm(normal[covered], axis=-1), 1, atol=0.02)
    light = np.full(albedo.shape, deferred.AMBIENT)
    for lp, lc in deferred.lights(t):
        d = np.asarray(lp, float) - position[..., :3]
        dist2 = (d * d).sum(-1)
        ndl = np.maximum((normal * d).sum(-1) / np.sqrt(dist2), 0)
        light += np.asarray(lc, float) * (ndl / (1 + deferred.ATTENUATION * dist2))[..., None]
    expected = np.clip(albedo * light, 0, 1) * 255
    got = final[..., :3].astype(np.float64)
    assert np.abs(got[covered] - expected[covered]).max() <= 3
    assert np.all(final[~covered][:, :3] == np.round(np.array(deferred.CLEAR[:3]) * 255))
    # The ground's normal is +y wherever it is seen.
    ground = covered & (np.abs(position[..., 1] - deferred.GROUND_Y) < 1e-4)
    assert ground.sum() > 100 and np.allclose(normal[ground], [0, 1, 0], atol=1e-3)


# -- occlusion-query culling ---------------------------------------------------------------------


def _hidden_count(t: float, size: int) -> int:
    """Objects whose bounding box projects strictly inside the wall (which
    is nearer the camera than every object): those the queries cull."""
    f = 1.0 / np.tan(np.radians(occlusion.FOVY) / 2)
    near, far = occlusion.NEAR, occlusion.FAR

    def window(p):
        eye = np.asarray(p, float) - np.array([0, 0, occlusion.CAMERA_Z])
        clip = np.array(
            [f * eye[0], f * eye[1], (far + near) / (near - far) * eye[2] + 2 * far * near / (near - far), -eye[2]]
        )
        return (clip[:2] / clip[3] + 1) / 2 * size

    x0, x1, y0, y1 = occlusion.WALL
    lo, hi = window((x0, y0, occlusion.WALL_Z)), window((x1, y1, occlusion.WALL_Z))
    hidden = 0
    for c in occlusion.object_centres(t):
        corners = np.array([window(c + (np.array(s) * 2 - 1) * occlusion.HALF) for s in np.ndindex(2, 2, 2)])
        margin = min((corners - lo).min(), (hi - corners).min())
        assert abs(margin) > 1.0, "a box edge within a pixel of the wall's edge: pick another frame"
        assert c[2] + occlusion.HALF < occlusion.WALL_Z  # every object lies behind the wall
        hidden += margin > 0
    return hidden


@pytest.mark.parametrize("frame", [0, 60, 310])
def test_culled_count_matches_the_geometry(profile, frame):
    size = 128
    t = frame * frames.FRAME_DT
    expected = _hidden_count(t, size)

    def run(scene):
        scene.draw(t)
        return scene.culled

    assert with_scene(occlusion, profile, size, run) == expected
    assert 0 < expected < len(occlusion.object_centres(t))


# -- particles ------------------------------------------------------------------------------------------


def _fountain(state, static, steps):
    """The transform-feedback particles' update rule (demos/xfb_particles.py
    docstring): semi-implicit Euler under gravity; a particle whose life
    runs out respawns at the emitter with its initial velocity."""
    dt, g = np.float32(frames.FRAME_DT), np.float32(xfb_particles.GRAVITY)
    s = state.astype(np.float32).copy()
    for _ in range(steps):
        v = s[:, 2:4].copy()
        v[:, 1] += g * dt
        p = s[:, 0:2] + v * dt
        life = s[:, 4] - dt
        dead = life < 0
        p[dead] = xfb_particles.EMITTER
        v[dead] = static[dead, 0:2]
        life[dead] += static[dead, 2]
        s = np.c_[p, v, life].astype(np.float32)
    return s


def test_xfb_particles_follow_the_update_rule(profile):
    steps = 50
    state, static = xfb_particles.initial_state()
    expected = _fountain(state, static, steps)

    def run(scene):
        scene.draw(steps * frames.FRAME_DT)
        return scene.read_state()

    got = with_scene(xfb_particles, profile, 64, run)
    assert got.shape == expected.shape
    assert np.abs(got - expected).max() < 1e-4
    never_respawned = state[:, 4] - steps * frames.FRAME_DT > 0
    assert np.allclose(got[never_respawned, 4], state[never_respawned, 4] - steps * frames.FRAME_DT, atol=1e-4)
    assert 100 < (~never_respawned).sum() < len(state) - 100  # both kinds are checked


def _attracted(state, steps):
    """The compute particles' update rule (demos/compute_particles.py docstring)."""
    s = state.astype(np.float64).copy()
    for n in range(steps):
        a = np.asarray(compute_particles.attractor(n), float)
        d = a - s[:, 0:2]
        r2 = (d * d).sum(-1) + compute_particles.SOFTENING
        s[:, 2:4] = (
            s[:, 2:4] + d * (compute_particles.STRENGTH * frames.FRAME_DT / r2**1.5)[:, None]
        ) * compute_particles.DAMPING
        s[:, 0:2] += s[:, 2:4] * frames.FRAME_DT
    return s


def test_compute_particles_follow_the_update_rule(profile):
    steps = 12
    state = compute_particles.initial_state()
    expected = _attracted(state, steps)

    def run(scene):
        scene.draw(steps * frames.FRAME_DT)
        return scene.read_state()

    got = with_scene(compute_particles, profile, 64, run)
    assert got.shape == expected.shape
    assert np.abs(got - expected).max() < 1e-3
    assert np.abs(got[:, :2] - state[:, :2]).max() > 0.01  # they moved


@pytest.mark.parametrize("name", ["tri", "quad_tex"])
def test_still_demos_present_through_the_frame_loop(name, monkeypatch, tmp_path, profile):
    """tri and quad_tex run on the frame loop: ``--window`` (offscreen
    backend) presents every frame with flush_frontbuffer and the window
    shows the frame; the picture is the GL-style render() flipped once."""
    import importlib

    from demos.__main__ import main
    from glpipe.window import Window

    monkeypatch.setenv("GLPIPE_WINDOW", "offscreen")
    seen = {}
    original_close = Window.close

    def close(self):
        seen["frames"], seen["picture"] = self.drawable.frames, self.drawable.read()
        original_close(self)

    monkeypatch.setattr(Window, "close", close)
    pixels = main([name, "--window", "--frames", "2", "--size", "40", "--profile", profile])
    assert seen["frames"] == 2 and np.array_equal(seen["picture"], pixels)
    screen = glpipe.create_screen(profile=profile)
    try:
        gl_style = importlib.import_module(f"demos.{name}").render(screen, 40)
    finally:
        screen.destroy()
    assert np.array_equal(pixels, gl_style[::-1])
