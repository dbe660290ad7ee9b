"""The frame loop of the animated demos: a display target, frames drawn at a
fixed time step, presented with ``screen.flush_frontbuffer`` into a window
(glpipe.window) or read back and written as a PNG (headless).

An animated demo module defines ``NAME``, ``DESCRIPTION`` and ``class
Scene`` with ``__init__(screen, ctx, width, height)`` (creates everything,
binds ``ctx``'s framebuffer state to the frame's surfaces via
``DisplayTarget``), ``draw(t)`` (renders the frame at time ``t`` seconds
into ``scene.target``) and ``destroy()``; optionally ``summary()`` (a line
about the last frame, printed headless and with ``--stats``) and
``HOST_FEATURES`` (host features the demo needs: ``fallback_note`` names the
fallbacks standing in for those the profile lacks).

A simulation (the particle demos) is a function of time too: ``draw(t)``
advances its state by whole FRAME_DT steps up to ``t`` (starting again from
the initial state if ``t`` went back), so a frame is the same however the
frames before it were grouped -- what makes the screenshot tests' fixed
frame and the windows' frame agree.

Unlike demos/common.py's ``RenderTarget`` (GL-style viewport, row 0 at the
bottom, flipped by the PNG writer), the display target follows Gallium's
window convention as st/mesa sets it up for a window: the viewport's y scale
is negative, so NDC +y lands on row 0, the *top* of the picture.  The only
y-flip is then ``flush_frontbuffer``'s, into the GL default framebuffer; the
PNG stores the rows as they are (docs/demos.md).
"""

from __future__ import annotations

import time

import numpy as np

from glpipe import (
    Bind,
    Box,
    Clear,
    Format,
    FramebufferState,
    Map,
    ResourceTemplate,
    SurfaceTemplate,
    Target,
    ViewportState,
)

COLOR_FORMAT = Format.R8G8B8A8_UNORM
DEPTH_FORMAT = Format.Z24_UNORM_S8_UINT
FRAME_DT = 1.0 / 60.0  # the fixed time step: frame n is drawn at t = n / 60 s


class DisplayTarget:
    """An RGBA8 ``Bind.DISPLAY_TARGET`` colour buffer plus a Z24S8 depth
    buffer, bound as ``ctx``'s framebuffer, with the y-down viewport."""

    def __init__(self, screen, ctx, width: int, height: int, depth: bool = True):
        self.screen, self.ctx, self.width, self.height = screen, ctx, width, height
        self.color = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=COLOR_FORMAT,
                width0=width,
                height0=height,
                bind=Bind.RENDER_TARGET | Bind.DISPLAY_TARGET | Bind.SAMPLER_VIEW,
            )
        )
        self.cbuf = ctx.create_surface(self.color, SurfaceTemplate(format=COLOR_FORMAT))
        self.depth = self.zsbuf = None
        if depth:
            self.depth = screen.resource_create(
                ResourceTemplate(
                    target=Target.TEXTURE_2D,
                    format=DEPTH_FORMAT,
                    width0=width,
                    height0=height,
                    bind=Bind.DEPTH_STENCIL,
                )
            )
            self.zsbuf = ctx.create_surface(self.depth, SurfaceTemplate(format=DEPTH_FORMAT))
        # Built once: a frame binds them again (templates validate when made,
        # as a C frontend fills its structs once; docs/performance.md).
        self.fb_state = FramebufferState(width=width, height=height, cbufs=(self.cbuf,), zsbuf=self.zsbuf)
        self.viewports = [ViewportState(scale=(width / 2, -height / 2, 0.5), translate=(width / 2, height / 2, 0.5))]
        self.bind()

    def bind(self) -> None:
        """Framebuffer state and the y-down viewport (depth range 0..1)."""
        self.ctx.set_framebuffer_state(self.fb_state)
        self.ctx.set_viewport_states(0, self.viewports)

    def clear(self, color) -> None:
        """Clear colour (and depth to 1.0)."""
        bits = Clear.COLOR0 | (Clear.DEPTH | Clear.STENCIL if self.zsbuf is not None else 0)
        self.ctx.clear(bits, None, color, 1.0, 0)

    def read(self) -> np.ndarray:
        """(height, width, 4) uint8, row 0 = the top of the picture."""
        box = Box(x=0, y=0, z=0, width=self.width, height=self.height, depth=1)
        t = self.ctx.transfer_map(self.color, 0, Map.READ, box)
        try:
            return np.array(t.data[0], dtype=np.uint8).reshape(self.height, self.width, 4)
        finally:
            self.ctx.transfer_unmap(t)

    def destroy(self) -> None:
        """Free the surfaces and resources."""
        self.ctx.set_framebuffer_state(FramebufferState(width=0, height=0))
        self.ctx.surface_destroy(self.cbuf)
        self.screen.resource_destroy(self.color)
        if self.zsbuf is not None:
            self.ctx.surface_destroy(self.zsbuf)
            self.screen.resource_destroy(self.depth)


#: glfw's codes in the ("key", key, action, mods) events glpipe.window queues
#: (the demos need not import glfw to read them).
PRESS, REPEAT = 1, 2
KEY_RIGHT, KEY_LEFT, KEY_DOWN, KEY_UP = 262, 263, 264, 265


def fallbacks_used(screen, module, before: dict[str, int] | None = None) -> list[str]:
    """The fallbacks (rows of fallback/registry.py) a demo ran through on
    ``screen``: those standing in for the host features the demo needs
    (``module.HOST_FEATURES``) that the screen's profile lacks -- e.g.
    ``compute_executor`` for launch_grid on GL 3.3 -- plus every counted
    fallback (driver query ``fallback-hits-*``) whose counter moved since
    ``before`` (a ``screen.counters.snapshot()``)."""
    from fallback.registry import fallbacks_for

    used = [
        fb.name
        for feature in getattr(module, "HOST_FEATURES", ())
        if not screen.profile.has(feature)
        for fb in fallbacks_for(feature)
    ]
    now = screen.counters.snapshot()
    for key, value in now.items():
        name = key[len("fallback_") :]
        if (
            key.startswith("fallback_")
            and key != "fallback_hits"
            and value > (before or {}).get(key, 0)
            and name not in used
        ):
            used.append(name)
    return used


def fallback_note(screen, module, before: dict[str, int] | None = None) -> str:
    """The line a demo prints (and a window shows in its title): which
    fallbacks the frame used on this profile, or none."""
    used = fallbacks_used(screen, module, before)
    return f"{screen.profile.name}: fallbacks used: {', '.join(used) if used else 'none'}"


def render_headless(module, screen, size: int, frames: int, first: int = 0, **options) -> np.ndarray:
    """Draw frames ``first`` .. ``first + frames - 1`` of ``module.Scene`` on
    ``screen`` (``options`` go to the Scene); return the last one (row 0 = top)."""
    ctx = screen.context_create()
    try:
        scene = module.Scene(screen, ctx, size, size, **options)
        try:
            for n in range(first, first + frames):
                scene.draw(n * FRAME_DT)
            if hasattr(scene, "summary"):  # what a demo reports about its frame (occlusion: culled objects)
                print(scene.summary())
            return scene.target.read()
        finally:
            scene.destroy()
    finally:
        ctx.destroy()


def run_window(module, window, frames: int | None, stats: bool) -> np.ndarray:
    """Draw and present frames in ``window`` (glpipe.window.Window) until it
    closes or ``frames`` were shown; recreate the scene on resize; a
    minimised window keeps drawing nothing; every other event (keys,
    mouse buttons, close) goes to the scene's ``on_event`` when it has one.
    After the first frame the window's title names the fallbacks it used.
    Returns the last frame."""
    screen = window.screen
    ctx = screen.context_create()
    width, height = window.size()
    before = screen.counters.snapshot()
    scene = module.Scene(screen, ctx, max(width, 1), max(height, 1))
    n, start = 0, time.perf_counter()
    base_title = window.title
    try:
        while not window.should_close() and (frames is None or n < frames):
            for event in window.poll_events():
                if event[0] == "resize" and event[1] and event[2]:
                    scene.destroy()  # what depends on the window size is made again
                    scene = module.Scene(screen, ctx, event[1], event[2])
                elif hasattr(scene, "on_event"):
                    scene.on_event(event)  # keys, mouse buttons, close: the demo's to use
            if window.size() == (0, 0):
                time.sleep(FRAME_DT)  # minimised: nothing to present
                continue
            scene.draw(n * FRAME_DT)
            screen.flush_frontbuffer(ctx, scene.target.color, 0, 0, window.drawable, None)
            n += 1
            if n == 1:  # the fallbacks the first frame used, on screen (issue 17 item 3)
                window.set_title(f"{base_title} | {fallback_note(screen, module, before)}")
            if stats and n % 60 == 0:
                print(f"{n / (time.perf_counter() - start):.1f} fps")
                if hasattr(scene, "summary"):
                    print(scene.summary())
        return scene.target.read()
    finally:
        scene.destroy()
        ctx.destroy()


__all__ = [
    "COLOR_FORMAT",
    "DEPTH_FORMAT",
    "FRAME_DT",
    "KEY_DOWN",
    "KEY_LEFT",
    "KEY_RIGHT",
    "KEY_UP",
    "PRESS",
    "REPEAT",
    "DisplayTarget",
    "fallback_note",
    "fallbacks_used",
    "render_headless",
    "run_window",
]
