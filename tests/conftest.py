"""Shared fixtures: every GL-facing test runs on both host profiles.

The ``profile`` fixture is parametrized over ``native`` and ``gl33`` at
session scope, so one pytest command exercises the full host and the
restricted GL 3.3 core profile (where the fallbacks engage).  ``host`` and
``screen`` are made once per profile and shared.

When no GL context can be made the session stops at once with the reason:
a suite that silently skips everything would pass in CI while testing
nothing.
"""

from __future__ import annotations

import pytest

PROFILES = ("native", "gl33")

_screens: dict = {}


def pytest_sessionstart(session):
    from glpipe.host.gl import create_host
    from lowering.errors import HostGLError

    try:
        create_host(profile="native").release()
    except HostGLError as exc:  # pragma: no cover - exercised only on broken machines
        pytest.exit(f"glpipe test suite: no host GL context could be made: {exc}", returncode=3)


def get_screen(profile: str):
    """The session's screen for ``profile`` (made on first use)."""
    import glpipe

    if profile not in _screens:
        _screens[profile] = glpipe.create_screen(profile=profile)
    scr = _screens[profile]
    scr.host.make_current()
    return scr


@pytest.fixture(scope="session", params=PROFILES)
def profile(request) -> str:
    """The host profile name; tests using it run once per profile."""
    return request.param


@pytest.fixture
def screen(profile):
    """A glpipe screen on ``profile`` (shared across the session, context made current)."""
    return get_screen(profile)


@pytest.fixture
def host(screen):
    """The HostGL behind ``screen``."""
    return screen.host


@pytest.fixture
def ctx(screen):
    """A fresh pipe context on ``screen``, destroyed after the test (so no
    state leaks from one test into the next)."""
    c = screen.context_create()
    yield c
    c.destroy()
