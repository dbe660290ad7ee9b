"""pipe_screen methods other than caps, formats and resources (which have their own files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import glpipe
from glpipe import InvalidArgumentError, ObjectDestroyedError

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_create_screen_profile(screen, profile):
    assert screen.profile.name == profile
    assert isinstance(screen, glpipe.Screen)


def test_get_name_and_vendors(screen):
    assert screen.get_name().startswith("glpipe")
    assert screen.get_vendor() == "glpipe"
    # the device vendor is the host GL's, read independently here
    raw = screen.host.gl.glGetString(screen.host.gl.GL_VENDOR).decode()
    assert screen.get_device_vendor() == raw


def test_get_timestamp_is_monotonic_ns(screen):
    import time

    a = screen.get_timestamp()
    t0 = time.monotonic_ns()
    time.sleep(0.01)
    b = screen.get_timestamp()
    t1 = time.monotonic_ns()
    assert isinstance(a, int) and b > a
    # nanoseconds: the step matches the CPU clock's within a generous margin
    assert 0.5 * (t1 - t0) <= b - a <= 2.0 * (t1 - t0) + 5_000_000


def test_get_timestamp_tracks_gl_timestamp(screen):
    """Where the host has GL_TIMESTAMP, get_timestamp is on that clock."""
    import numpy as np

    if not screen.profile.has("timer_query"):
        pytest.skip("timer_query is hidden on this profile: get_timestamp uses the CPU clock")
    gl = screen.host.gl
    buf = np.zeros(1, np.int64)
    before = screen.get_timestamp()
    gl.glGetInteger64v(gl.GL_TIMESTAMP, buf)
    after = screen.get_timestamp()
    assert before - 50_000_000 <= int(buf[0]) <= after + 50_000_000


def test_get_driver_query_info(screen):
    infos = screen.get_driver_query_info()
    names = {q.name for q in infos}
    for required in ("draw-calls", "shader-variants-compiled", "fallback-hits", "bytes-uploaded"):
        assert required in names
    types = [q.query_type for q in infos]
    assert len(set(types)) == len(types)
    assert all(t >= glpipe.Query.DRIVER_SPECIFIC for t in types)
    assert screen.get_driver_query_info(0) == infos[0]
    with pytest.raises(InvalidArgumentError, match="out of range"):
        screen.get_driver_query_info(len(infos))


def test_get_driver_query_group_info(screen):
    groups = screen.get_driver_query_group_info()
    infos = screen.get_driver_query_info()
    assert sum(g.num_queries for g in groups) == len(infos)
    for gi, g in enumerate(groups):
        assert g.num_queries == sum(1 for q in infos if q.group_id == gi)
    with pytest.raises(InvalidArgumentError):
        screen.get_driver_query_group_info(99)


def test_dmabuf_answers_are_honest(screen):
    fmt = glpipe.Format.R8G8B8A8_UNORM
    assert screen.is_dmabuf_modifier_supported(0, fmt) == (False, False)
    assert screen.get_dmabuf_modifier_planes(0, fmt) == 1  # linear: one plane per format plane
    assert screen.get_dmabuf_modifier_planes(0, glpipe.Format.NV12) == 2
    assert screen.get_dmabuf_modifier_planes(0x0100000000000001, fmt) == 0  # an unknown vendor modifier
    with pytest.raises(InvalidArgumentError):
        screen.is_dmabuf_modifier_supported(0, 123456)


def test_context_create_and_destroy(screen):
    ctx = screen.context_create()
    assert isinstance(ctx, glpipe.Context) and ctx.screen is screen
    ctx2 = screen.context_create(priv="mine", flags=glpipe.ContextFlag.PREFER_THREADED)
    assert ctx2.priv == "mine"
    ctx.destroy()
    ctx2.destroy()
    with pytest.raises(ObjectDestroyedError):
        ctx.check_alive("test")


def test_screen_destroy_releases_everything():
    scr = glpipe.create_screen(profile="gl33")
    ctx = scr.context_create()
    scr.destroy()
    assert ctx.destroyed
    with pytest.raises(ObjectDestroyedError):
        scr.context_create()


def test_env_selects_profile(monkeypatch):
    monkeypatch.setenv("GLPIPE_HOST_PROFILE", "gl33")
    scr = glpipe.create_screen()
    try:
        assert scr.profile.name == "gl33" and scr.profile.gl_version == 330
    finally:
        scr.destroy()


@pytest.mark.parametrize("prof", ["native", "gl33"])
def test_info_json_lists_every_cap(prof):
    res = subprocess.run(
        [sys.executable, "-m", "glpipe", "info", "--json", "--profile", prof],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["host"]["profile"] == prof
    assert set(data["caps"]) == {m.name for m in glpipe.Cap}
    assert set(data["capsf"]) == {m.name for m in glpipe.CapF}
    assert set(data["shader_caps"]) == {m.name for m in glpipe.ShaderType}
    for stage_caps in data["shader_caps"].values():
        assert set(stage_caps) == {m.name for m in glpipe.ShaderCap}
    assert set(data["compute_caps"]) == {m.name for m in glpipe.ComputeCap}
    for key in ("glpipe", "moderngl", "glcontext", "numpy", "python"):
        assert data["versions"][key]
    states = {row["status"] for row in data["features"].values()}
    assert states <= {"native", "fallback", "unavailable"}
    # gl33: compute runs through the numpy TGSI executor (fallback/registry.py compute_executor).
    assert data["features"]["compute_shader"]["status"] == ("native" if prof == "native" else "fallback")
    assert "R8G8B8A8_UNORM" in data["formats"]["SAMPLER_VIEW"]


def test_info_text_output():
    res = subprocess.run(
        [sys.executable, "-m", "glpipe", "info", "--profile", "gl33"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert "PIPE_CAP_MAX_TEXTURE_2D_SIZE" in res.stdout and "Features" in res.stdout
