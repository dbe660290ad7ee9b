"""What every demo scene shares: it makes its Gallium objects through one
method and frees them all in one ``destroy``.

A scene (the ``Scene`` class of an animated demo, demos/frames.py) creates a
dozen objects -- CSOs, shaders, vertex elements, samplers, views, surfaces,
resources, stream-output targets, queries -- and must free each with the
matching Gallium call, after unbinding what a frame binds: Gallium calls
deleting a bound CSO a frontend bug (glpipe forgives it, docs/robustness.md;
a frontend does not rely on that), and a sampler view or surface must not
outlive its resource.  ``SceneBase.make``
records every object with its kind; ``destroy`` unbinds, then frees the
objects newest first, so a surface or view goes before the resource it was
made from.  The two tables below are the whole protocol.
"""

from __future__ import annotations

from glpipe import FramebufferState, ShaderType

# kind -> (which of screen / context makes it, the create method).
_CREATE = {
    "blend": ("ctx", "create_blend_state"),
    "depth_stencil_alpha": ("ctx", "create_depth_stencil_alpha_state"),
    "rasterizer": ("ctx", "create_rasterizer_state"),
    "vs": ("ctx", "create_vs_state"),
    "fs": ("ctx", "create_fs_state"),
    "vertex_elements": ("ctx", "create_vertex_elements_state"),
    "compute": ("ctx", "create_compute_state"),
    "sampler": ("ctx", "create_sampler_state"),
    "sampler_view": ("ctx", "create_sampler_view"),
    "surface": ("ctx", "create_surface"),
    "stream_output_target": ("ctx", "create_stream_output_target"),
    "query": ("ctx", "create_query"),
    "resource": ("screen", "resource_create"),
}

# kind -> (which of screen / context frees it, the destroy method).
_RELEASE = {
    "blend": ("ctx", "delete_blend_state"),
    "depth_stencil_alpha": ("ctx", "delete_depth_stencil_alpha_state"),
    "rasterizer": ("ctx", "delete_rasterizer_state"),
    "vs": ("ctx", "delete_vs_state"),
    "fs": ("ctx", "delete_fs_state"),
    "vertex_elements": ("ctx", "delete_vertex_elements_state"),
    "compute": ("ctx", "delete_compute_state"),
    "sampler": ("ctx", "delete_sampler_state"),
    "sampler_view": ("ctx", "sampler_view_destroy"),
    "surface": ("ctx", "surface_destroy"),
    "stream_output_target": ("ctx", "stream_output_target_destroy"),
    "query": ("ctx", "destroy_query"),
    "resource": ("screen", "resource_destroy"),
}

# The kinds a frame binds with ``bind_<kind>_state``: unbound before deletion.
_BOUND_CSOS = ("blend", "depth_stencil_alpha", "rasterizer", "vs", "fs", "vertex_elements", "compute")


class SceneBase:
    """Base of the demo scenes: ``make`` creates and records an object,
    ``keep`` records a helper with its own ``destroy`` (a display target),
    ``destroy`` unbinds what a frame binds and frees everything.

    A subclass states what its frames bind beyond the CSOs, as class
    attributes: ``CONSTANT_STAGES`` (the stages whose constant buffer 0 it
    sets) and ``FRAGMENT_SAMPLERS`` (how many fragment sampler view and
    sampler slots, from 0)."""

    CONSTANT_STAGES: tuple[ShaderType, ...] = ()
    FRAGMENT_SAMPLERS = 0

    def __init__(self, screen, ctx):
        self.screen, self.ctx = screen, ctx
        self._made: list[tuple[str, object]] = []

    def make(self, kind: str, *args, **kwargs):
        """Create an object of ``kind`` (a key of ``_CREATE``: "blend", "vs",
        "sampler_view", "resource", ...) with the Gallium create call's
        arguments, record it for ``destroy`` and return it."""
        owner, method = _CREATE[kind]
        obj = getattr(getattr(self, owner), method)(*args, **kwargs)
        self._made.append((kind, obj))
        return obj

    def keep(self, helper):
        """Record ``helper`` (anything with a ``destroy()``, e.g. a
        DisplayTarget) to be destroyed in its turn; return it."""
        self._made.append(("helper", helper))
        return helper

    def unbind(self) -> None:
        """Unbind everything a frame of this scene binds, so nothing bound is
        deleted: framebuffer, stream-output targets, constant buffers, vertex
        buffers, fragment sampler slots and the CSOs."""
        ctx = self.ctx
        kinds = {kind for kind, _ in self._made}
        ctx.set_framebuffer_state(FramebufferState(width=0, height=0))
        if "stream_output_target" in kinds:
            ctx.set_stream_output_targets([])
        for stage in self.CONSTANT_STAGES:
            ctx.set_constant_buffer(stage, 0, None)
        ctx.set_vertex_buffers([])
        if self.FRAGMENT_SAMPLERS:
            n = self.FRAGMENT_SAMPLERS
            ctx.set_sampler_views(ShaderType.FRAGMENT, 0, None, unbind_num_trailing_slots=n)
            ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [None] * n)
        for kind in _BOUND_CSOS:
            if kind in kinds:
                getattr(ctx, f"bind_{kind}_state")(None)

    def destroy(self) -> None:
        """Unbind, then free every object the scene made, newest first."""
        self.unbind()
        while self._made:
            kind, obj = self._made.pop()
            if kind == "helper":
                obj.destroy()
            else:
                owner, method = _RELEASE[kind]
                getattr(getattr(self, owner), method)(obj)


__all__ = ["SceneBase"]
