"""glpipe.host.gl: the features table, profiles, limits and the PyOpenGL platform."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from glpipe.host.features import FEATURES, granted
from glpipe.host.gl import PROFILE_ENV, resolve_profile_name
from lowering.errors import InvalidArgumentError

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_features_table_rows_are_well_formed():
    for name, row in FEATURES.items():
        assert row.name == name
        assert row.min_gl is None or 300 <= row.min_gl <= 460, name
        assert row.min_gl is not None or row.extensions, f"{name}: neither a core version nor an extension grants it"
        assert all(e.startswith("GL_") for e in row.extensions), name


def test_granted_by_version_or_extension():
    row = FEATURES["texture_storage"]
    assert granted(row, 420, frozenset())
    assert not granted(row, 410, frozenset())
    assert granted(row, 330, frozenset({"GL_ARB_texture_storage"}))


def test_profile_has_follows_table(host):
    prof = host.profile
    for name, row in FEATURES.items():
        assert prof.has(name) == granted(row, prof.gl_version, prof.extensions), name


def test_profile_gl33_hides_everything_above_33(host):
    prof = host.profile
    if prof.name != "gl33":
        assert prof.gl_version == prof.host_gl_version
        assert prof.extensions == prof.host_extensions
        return
    assert prof.gl_version == 330 and prof.glsl_version == 330
    assert prof.extensions == frozenset()
    for name, row in FEATURES.items():
        assert prof.has(name) == (row.min_gl is not None and row.min_gl <= 330), name
    # limits of hidden features read 0, so caps built on them cannot lie
    assert prof.limit("GL_MAX_COMPUTE_WORK_GROUP_SIZE") == (0, 0, 0)
    assert prof.limit("GL_MAX_VIEWPORTS") == 0
    assert prof.limit("GL_MAX_TEXTURE_SIZE") >= 1024  # GL 3.3 minimum


def test_profile_limits_match_raw_gl(host):
    import numpy as np

    gl = host.gl
    buf = np.zeros(1, np.int32)
    gl.glGetIntegerv(gl.GL_MAX_TEXTURE_SIZE, buf)
    assert host.profile.limit("GL_MAX_TEXTURE_SIZE") == int(buf[0])
    gl.glGetIntegerv(gl.GL_MAX_SAMPLES, buf)
    assert host.profile.limit("GL_MAX_SAMPLES") == int(buf[0])


def test_unknown_feature_is_a_key_error(host):
    with pytest.raises(KeyError, match="no_such_feature"):
        host.profile.has("no_such_feature")


def test_resolve_profile_name(monkeypatch):
    monkeypatch.delenv(PROFILE_ENV, raising=False)
    assert resolve_profile_name(None) == "native"
    monkeypatch.setenv(PROFILE_ENV, "gl33")
    assert resolve_profile_name(None) == "gl33"
    assert resolve_profile_name("native") == "native"
    with pytest.raises(InvalidArgumentError, match="gl21"):
        resolve_profile_name("gl21")


@pytest.mark.parametrize("prof", ["native", "gl33"])
def test_moderngl_creation_state_is_reset(prof):
    """ModernGL enables primitive restart and sets a non-default blend func at
    creation (docs/host.md "State ModernGL changes behind our back"); the host puts GL back to its defaults.  A fresh
    host: the session's shared one carries whatever the last test drew with."""
    import numpy as np

    from glpipe.host.gl import create_host

    host = create_host(profile=prof)
    gl = host.gl
    assert not gl.glIsEnabled(gl.GL_PRIMITIVE_RESTART)
    buf = np.zeros(1, np.int32)
    gl.glGetIntegerv(gl.GL_BLEND_SRC_RGB, buf)
    assert buf[0] == gl.GL_ONE
    gl.glGetIntegerv(gl.GL_BLEND_DST_RGB, buf)
    assert buf[0] == gl.GL_ZERO
    host.release()


def test_scratch_texture_unit_is_moderngl_default_unit(host):
    assert host.scratch_texture_unit == host.mgl.default_texture_unit


def test_make_current_switches_between_hosts():
    from glpipe.host.gl import create_host

    a = create_host(profile="native")
    b = create_host(profile="gl33")
    try:
        names = []
        for h in (a, b, a, b):
            h.make_current()
            names.append(int(h.gl.glGenTextures(1)))
            h.check("glGenTextures")
        # each context has its own namespace: a's second name follows a's first
        assert names[2] == names[0] + 1 and names[3] == names[1] + 1
    finally:
        a.release()
        b.release()


def test_check_raises_host_gl_error(host):
    from lowering.errors import HostGLError

    host.gl.glEnable(0xFFFF)  # not an enable cap: GL_INVALID_ENUM
    with pytest.raises(HostGLError, match="GL_INVALID_ENUM"):
        host.check("glEnable(0xFFFF)")
    host.check("after")  # the error was drained


def _run(code: str, env_extra: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYOPENGL_PLATFORM", "DISPLAY", PROFILE_ENV)}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


def test_headless_without_display_and_pyopengl_platform_chosen():
    """No DISPLAY, no PYOPENGL_PLATFORM: the host is EGL and PyOpenGL follows it."""
    res = _run(
        """
        import os
        from glpipe.host.gl import create_host
        h = create_host()
        h.gl.glGenTextures(1); h.check("gen")
        print(h.platform, os.environ["PYOPENGL_PLATFORM"])
    """,
        {},
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["egl", "egl"]


def test_pyopengl_imported_first_with_wrong_platform_is_refused():
    res = _run(
        """
        import OpenGL.GL
        from glpipe.host.gl import create_host
        try:
            create_host()
        except Exception as e:
            print(type(e).__name__, e)
    """,
        {"PYOPENGL_PLATFORM": "glx"},
    )
    assert "HostGLError" in res.stdout and "PYOPENGL_PLATFORM" in res.stdout, res.stdout + res.stderr


def test_wrapping_a_callers_moderngl_context():
    res = _run(
        """
        import moderngl
        mgl = moderngl.create_context(standalone=True, backend="egl")
        from glpipe.host.gl import create_host
        h = create_host(gl=mgl, profile="gl33")
        assert h.mgl is mgl and not h.owns_context
        h.release()
        mgl.buffer(b"abcd")  # the caller's context survives glpipe's release
        print("ok", h.profile.name)
    """,
        {},
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["ok", "gl33"]


def test_wrapping_rejects_non_moderngl_objects():
    from glpipe.host.gl import create_host

    with pytest.raises(InvalidArgumentError, match="moderngl.Context"):
        create_host(gl=object())
