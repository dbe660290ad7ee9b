"""demos/scene.py: a scene frees every object it made, and nothing it frees
is still bound when it goes (both profiles, every demo)."""

from __future__ import annotations

import pytest

from demos.__main__ import ANIMATED, _module
from demos.scene import SceneBase


class _Recording:
    """Wraps a scene's ``make`` / ``keep`` to list what it made."""

    def __init__(self, monkeypatch):
        self.made: list[tuple[str, object]] = []
        make, keep = SceneBase.make, SceneBase.keep

        def recording_make(scene, kind, *args, **kwargs):
            obj = make(scene, kind, *args, **kwargs)
            self.made.append((kind, obj))
            return obj

        def recording_keep(scene, helper):
            self.made.append(("helper", helper))
            return keep(scene, helper)

        monkeypatch.setattr(SceneBase, "make", recording_make)
        monkeypatch.setattr(SceneBase, "keep", recording_keep)


@pytest.mark.parametrize("name", ANIMATED)
def test_scene_destroy_frees_everything_it_made(name, screen, ctx, monkeypatch):
    """Create, draw two frames, destroy: every CSO, view, surface, query and
    stream-output target made through the scene is destroyed, and the screen
    holds exactly the resources it held before."""
    recording = _Recording(monkeypatch)
    resources_before = screen.live_resources
    scene = _module(name).Scene(screen, ctx, 16, 16)
    assert isinstance(scene, SceneBase)
    scene.draw(0.0)
    scene.draw(1 / 60)
    kinds = {kind for kind, _ in recording.made}
    assert {"vs", "fs", "vertex_elements", "resource", "helper"} <= kinds
    assert screen.live_resources > resources_before
    scene.destroy()
    assert screen.live_resources == resources_before
    for kind, obj in recording.made:
        if kind not in ("helper", "resource"):
            assert obj.destroyed, f"{name}: a {kind} made by the scene is still alive after destroy()"


def test_destroy_unbinds_before_deleting(screen, ctx, monkeypatch):
    """destroy() unbinds what a frame binds before the first object is freed
    (Gallium: deleting a bound CSO is a frontend bug)."""
    from demos import cube

    scene = cube.Scene(screen, ctx, 8, 8)
    scene.draw(0.0)
    calls: list[str] = []
    freed: list[object] = []  # calls' arguments, index for index
    monkeypatch.setattr(SceneBase, "unbind", _wrap(SceneBase.unbind, calls, "unbind", freed))
    for method in ("delete_blend_state", "delete_vs_state", "sampler_view_destroy"):
        monkeypatch.setattr(ctx, method, _wrap(getattr(ctx, method), calls, method, freed))
    monkeypatch.setattr(screen, "resource_destroy", _wrap(screen.resource_destroy, calls, "resource_destroy", freed))
    scene.destroy()
    assert calls[0] == "unbind"
    assert {"delete_blend_state", "delete_vs_state", "sampler_view_destroy", "resource_destroy"} <= set(calls[1:])
    # newest first: the view goes before the texture it was made from
    assert calls.index("sampler_view_destroy") < freed.index(scene.tex)


def _wrap(fn, calls: list[str], label: str, args_seen: list[object]):
    def wrapped(*args, **kwargs):
        calls.append(label)
        args_seen.append(args[-1] if args else None)
        return fn(*args, **kwargs)

    return wrapped
