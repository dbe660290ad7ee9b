"""Screen.epochs: the change counters a screen's caches check belong to that
screen.  Destroying a resource on one screen must not make another screen's
contexts re-check their vertex-array caches (nor the reverse), and the gl33
sampler-view parameters a texture holds live on its resource."""

from __future__ import annotations

import glpipe
from glpipe import Bind, Format, ResourceTemplate, Target


def _buffer(screen, size=64):
    return screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=Bind.VERTEX_BUFFER)
    )


def test_epochs_are_per_screen(profile, screen):
    other = glpipe.create_screen(profile=profile)
    try:
        assert other.epochs is not screen.epochs
        mine, theirs = screen.epochs.resources_destroyed, other.epochs.resources_destroyed
        res = _buffer(other)
        other.resource_destroy(res)
        assert other.epochs.resources_destroyed == theirs + 1
        assert screen.epochs.resources_destroyed == mine  # untouched by the other screen
        res = _buffer(screen)
        screen.host.make_current()
        screen.resource_destroy(res)
        assert screen.epochs.resources_destroyed == mine + 1
        assert other.epochs.resources_destroyed == theirs + 1
    finally:
        other.destroy()
        screen.host.make_current()


def test_forgetting_texture_parameters_bumps_only_its_screen(screen):
    from glpipe.sampler_views import forget_texture_state

    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=Bind.SAMPLER_VIEW
        )
    )
    try:
        before = screen.epochs.texture_params
        tex._gl_params = (0, 0, (0, 1, 2, 3))
        forget_texture_state(tex)
        assert tex._gl_params is None  # the next view bind sets all three parameters
        assert screen.epochs.texture_params == before + 1
    finally:
        screen.resource_destroy(tex)
