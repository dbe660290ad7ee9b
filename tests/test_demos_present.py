"""Presenting: screen.flush_frontbuffer into a drawable, and the window layer.

The drawable here is the offscreen stand-in for a window's default
framebuffer (this machine has no display).  Expected pictures come from the
texels written, flipped by hand: Gallium row 0 is the top of the window, a
GL default framebuffer's row 0 its bottom (docs/coordinates.md).
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

from glpipe import Bind, Box, Format, InvalidArgumentError, Map, ResourceTemplate, Target
from glpipe.present import OffscreenDrawable
from glpipe.window import choose_backend, open_window

W, H = 5, 3


def _display_target(screen, ctx, bind=Bind.DISPLAY_TARGET | Bind.RENDER_TARGET, w=W, h=H):
    res = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=w, height0=h, bind=bind)
    )
    texels = (np.arange(h * w * 4, dtype=np.uint32) * 3 % 251).astype(np.uint8).reshape(h, w, 4)
    t = ctx.transfer_map(res, 0, Map.WRITE, Box(x=0, y=0, z=0, width=w, height=h, depth=1))
    t.data[0][:] = texels.reshape(h, w * 4)
    ctx.transfer_unmap(t)
    return res, texels


def test_flush_frontbuffer_flips_rows_once(screen, ctx):
    res, texels = _display_target(screen, ctx)
    drawable = OffscreenDrawable(screen, W, H)
    screen.flush_frontbuffer(ctx, res, 0, 0, drawable, None)
    gl_rows = drawable.read_gl_rows()  # GL row 0 = bottom of the window
    assert np.array_equal(gl_rows, texels[::-1])  # resource row 0 is the window's top row
    assert np.array_equal(drawable.read(), texels)
    assert drawable.frames == 1
    drawable.release()


def test_flush_frontbuffer_sub_box_touches_only_the_box(screen, ctx):
    res, texels = _display_target(screen, ctx)
    drawable = OffscreenDrawable(screen, W, H)  # cleared to transparent black
    screen.flush_frontbuffer(ctx, res, 0, 0, drawable, Box(x=1, y=0, z=0, width=3, height=2, depth=1))
    expected = np.zeros_like(texels)
    expected[0:2, 1:4] = texels[0:2, 1:4]
    assert np.array_equal(drawable.read(), expected)
    drawable.release()


def test_flush_frontbuffer_minimised_is_a_no_op(screen, ctx):
    res, _ = _display_target(screen, ctx)
    drawable = OffscreenDrawable(screen, W, H)
    drawable.resize(0, 0)  # minimised
    screen.flush_frontbuffer(ctx, res, 0, 0, drawable, None)
    assert drawable.frames == 0
    drawable.resize(W, H)  # restored: recreated, presenting works again
    screen.flush_frontbuffer(ctx, res, 0, 0, drawable, None)
    assert drawable.frames == 1 and drawable.read().any()
    drawable.release()


def test_flush_frontbuffer_refuses_bad_arguments(screen, ctx):
    res, _ = _display_target(screen, ctx)
    plain, _ = _display_target(screen, ctx, bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    drawable = OffscreenDrawable(screen, W, H)
    with pytest.raises(InvalidArgumentError, match="DISPLAY_TARGET"):
        screen.flush_frontbuffer(ctx, plain, 0, 0, drawable, None)
    with pytest.raises(InvalidArgumentError, match="level"):
        screen.flush_frontbuffer(ctx, res, 1, 0, drawable, None)
    with pytest.raises(InvalidArgumentError, match="layer"):
        screen.flush_frontbuffer(ctx, res, 0, 1, drawable, None)
    with pytest.raises(InvalidArgumentError, match="drawable"):
        screen.flush_frontbuffer(ctx, res, 0, 0, object(), None)
    with pytest.raises(InvalidArgumentError, match="sub_box"):
        screen.flush_frontbuffer(ctx, res, 0, 0, drawable, Box(x=3, y=0, z=0, width=4, height=1, depth=1))
    with pytest.raises(InvalidArgumentError, match="ctx"):
        screen.flush_frontbuffer("ctx", res, 0, 0, drawable, None)
    assert drawable.frames == 0
    drawable.release()


def test_display_target_is_a_supported_bind(screen):
    assert screen.is_format_supported(Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 0, 0, Bind.DISPLAY_TARGET)
    # Display targets are single-sampled 2D images (formats.py).
    assert not screen.is_format_supported(Format.R8G8B8A8_UNORM, Target.TEXTURE_3D, 0, 0, Bind.DISPLAY_TARGET)


def test_backend_choice_and_override(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("GLPIPE_WINDOW", raising=False)
    assert choose_backend()[0] == "offscreen" and "no display" in choose_backend()[1]
    monkeypatch.setenv("GLPIPE_WINDOW", "glfw")
    assert choose_backend() == ("glfw", "GLPIPE_WINDOW=glfw asked for it")
    monkeypatch.setenv("GLPIPE_WINDOW", "wayland-magic")
    with pytest.raises(InvalidArgumentError, match="GLPIPE_WINDOW"):
        choose_backend()


@pytest.mark.filterwarnings("ignore")  # glfw warns about the missing display before returning failure
def test_glfw_without_display_falls_back_offscreen(monkeypatch, caplog, profile):
    """Asked for glfw with no display: the window layer says why and renders
    offscreen, never crashes."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("GLPIPE_WINDOW", "glfw")
    with caplog.at_level(logging.INFO, logger="glpipe.window"):
        win = open_window("t", 8, 6, profile=profile)
    try:
        assert win.backend == "offscreen" and "headless EGL instead" in win.reason
        assert "offscreen" in caplog.text
        ctx = win.screen.context_create()
        res, texels = _display_target(win.screen, ctx, w=8, h=6)
        win.screen.flush_frontbuffer(ctx, res, 0, 0, win.drawable, None)
        assert np.array_equal(win.drawable.read(), texels)
        assert win.poll_events() == [] and not win.should_close()
        win.request_close()
        assert win.should_close()
        ctx.destroy()
    finally:
        win.close()
    assert win.screen.destroyed
