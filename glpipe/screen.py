"""pipe_screen: the context-independent part of the device.

A ``Screen`` owns the host GL (``glpipe.host.gl``), the caps computed once
from the host profile (``glpipe.caps``), the format support probed once
(``glpipe.formats``), the driver counters, and resource creation.  Its
methods are thread safe, as Gallium's screen.rst requires (docs/host.md "Threads"): answers come from
tables built at creation, and the few methods that touch GL serialize on
the host lock and only make GL calls on the thread the context is current
on (``glpipe.resource`` explains how a resource made on another thread gets
its storage).
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from lowering.bindings import GRAPHICS_STAGES, BindingLayout, HostLimits
from lowering.errors import InvalidArgumentError, ObjectDestroyedError

from .boundary import in_range, optional, show, uint32, uint64
from .caps import ScreenCaps
from .debug import debug_flags_from_env, parse_debug_flags
from .dirty import Dirty
from .driver_queries import DRIVER_QUERIES, DRIVER_QUERY_GROUPS, DriverQueryGroupInfo, DriverQueryInfo, ScreenCounters
from .enums import Bind, Cap, CapF, ComputeCap, ShaderCap, ShaderIR, ShaderType, Target
from .formats import Format, is_format_supported, probe_format_support, util_format_get_num_planes
from .host.egl_share import SharedHost, at_thread_exit, share_source
from .host.facts import probe_host_facts
from .host.gl import HostGL, create_host
from .lifetime import drain_deferred as drain_releases
from .lifetime import refuse_calls
from .resource import Resource, drain_deferred, resource_can_create, resource_create, resource_destroy
from .templates import ResourceTemplate

if TYPE_CHECKING:
    import moderngl

    from .context import Context
    from .fence import Fence
    from .host.gl import HostProfile
    from .templates import Box

# A debug-flag list as create_screen / context_create take it (glpipe/debug.py):
# a GLPIPE_DEBUG-style string, an iterable of flag names, or None.
DebugFlags = str | Iterable[str] | None

_E = TypeVar("_E")

# DRM_FORMAT_MOD_LINEAR and DRM_FORMAT_MOD_INVALID (drm_fourcc.h).
DRM_FORMAT_MOD_LINEAR = 0
DRM_FORMAT_MOD_INVALID = (1 << 56) - 1


def binding_layout(profile: HostProfile) -> BindingLayout:
    """The binding convention (docs/bindings.md) for the stages ``profile``
    can run, from its limits: shared by the caps (per-stage slot counts),
    the lowering (binding numbers in the GLSL) and the context (what it
    binds where)."""
    stages = tuple(
        s for s in GRAPHICS_STAGES if s not in ("TESS_CTRL", "TESS_EVAL") or profile.has("tessellation_shader")
    )
    return BindingLayout.for_limits(HostLimits.from_gl(profile.limits, stages), stages)


def _enum_arg(enum_cls: type[_E], value: object, what: str) -> _E:
    """``value`` as a member of ``enum_cls``, or InvalidArgumentError naming it."""
    try:
        return enum_cls(value)  # type: ignore[call-arg]
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"{what}: {show(value)} is not a {enum_cls.__name__}") from None


class Epochs:
    """Change counters a screen's caches compare against, one per screen
    (never shared between screens, as a module global would be).

    ``resources_destroyed``: resources destroyed so far.  A cache of GL names
    checked at count n (the VAOs of glpipe/vertex.py) stays valid while the
    count is n: a resource's GL object changes only when it is destroyed
    (allocation fills a pending one before any cache can read it).

    ``texture_params``: bumped whenever glpipe changes (or forgets) the base
    level, max level or swizzle of any of the screen's textures (the gl33
    sampler-view path, glpipe/sampler_views.py).  A view remembers the value
    at which it saw its texture hold its parameters; while the two are equal
    nothing can have changed them.

    ``params_lock``: held by a context from the moment it checks or sets
    its views' texture parameters until its draw is issued, once other
    threads' GL contexts share the textures (glpipe/sampler_views.py
    ``draw_under_params_lock``): the parameters are the shared texture
    object's, so two threads' draws through different views of one texture
    take turns.  ``texture_params`` is bumped under it then.
    """

    __slots__ = ("resources_destroyed", "texture_params", "params_lock")

    def __init__(self) -> None:
        self.resources_destroyed = 0
        self.texture_params = 0
        self.params_lock = threading.RLock()


class Screen:
    """pipe_screen on a host GL context.  Make one with ``glpipe.create_screen``."""

    def __init__(self, host: HostGL, debug: DebugFlags = None) -> None:
        self.host = host
        # GLPIPE_DEBUG, read once here (glpipe/debug.py); ``debug`` overrides it.
        self.debug_flags = debug_flags_from_env() if debug is None else parse_debug_flags(debug, "create_screen: debug")
        self.profile = host.profile
        self._lock = host.lock
        self.counters = ScreenCounters()  # sums the contexts' own counters when read
        self.epochs = Epochs()  # per screen: caches of its contexts check these
        self._destroyed = False
        self._contexts: list[Context] = []
        # Every resource holding a GL object (glpipe/resource.py _track), weakly:
        # destroy() marks them, and a dropped one leaves by its finalizer.
        self._resources: weakref.WeakSet[Resource] = weakref.WeakSet()
        host.lost_current_hooks.append(self._host_not_current)
        host.make_current()
        # Pipe contexts made on other threads get GL contexts of this one's
        # share group (glpipe/host/egl_share.py), one per thread, made from
        # this record (None: not an EGL host, so they cannot be made).
        self._share_source = share_source(host)
        self._thread_hosts: dict[int, HostGL] = {}
        self.format_support = probe_format_support(host)
        # Host behaviours no version string tells (fine plain derivatives, ...):
        # one small draw per host, cached on it (glpipe/host/facts.py).
        self.host_facts = probe_host_facts(host)
        self.bindings = binding_layout(host.profile)
        self.caps = ScreenCaps(host, self.format_support, bindings=self.bindings)

    def _host_not_current(self, host: HostGL | None = None) -> None:
        """Another host's GL context was made current on the thread of
        ``host`` (default: the screen's): the context drawing there must make
        ``host``'s current again at its next draw, so it leaves draw_vbo's
        fast path (Dirty.DRAW_STATE; the general path's prologue switches back)."""
        ctx = (host or self.host).drawing_context
        if ctx is not None:
            ctx.dirty |= Dirty.DRAW_STATE

    # -- identity -----------------------------------------------------------

    def get_name(self) -> str:
        """The driver's name, with the host renderer it runs on."""
        return f"glpipe ({self.profile.renderer}; {self.profile.name})"

    def get_vendor(self) -> str:
        """The driver's vendor (glpipe's authors)."""
        return "glpipe"

    def get_device_vendor(self) -> str:
        """The host GL's vendor string: the vendor of the device doing the work."""
        return self.profile.vendor

    # -- caps ---------------------------------------------------------------

    def get_param(self, cap: Cap | int) -> int:
        """PIPE_CAP_* value (int).  Unknown values raise InvalidArgumentError."""
        return self.caps.param[_enum_arg(Cap, cap, "get_param")]

    def get_paramf(self, capf: CapF | int) -> float:
        """PIPE_CAPF_* value (float)."""
        return self.caps.paramf[_enum_arg(CapF, capf, "get_paramf")]

    def get_shader_param(self, shader_type: ShaderType | int, shader_cap: ShaderCap | int) -> int:
        """PIPE_SHADER_CAP_* value for stage ``shader_type`` (a ShaderType)."""
        stage = _enum_arg(ShaderType, shader_type, "get_shader_param shader_type")
        return self.caps.shader[stage][_enum_arg(ShaderCap, shader_cap, "get_shader_param shader_cap")]

    def get_compute_param(self, ir_type: ShaderIR | int, compute_cap: ComputeCap | int) -> int | tuple[int, ...] | str:
        """PIPE_COMPUTE_CAP_* value for ``ir_type`` (ShaderIR).

        C writes the value into a caller buffer and returns its size; here
        the value is returned: an int, a tuple of ints for the 3-component
        caps (MAX_GRID_SIZE, MAX_BLOCK_SIZE), or a str for IR_TARGET.
        """
        ir = _enum_arg(ShaderIR, ir_type, "get_compute_param ir_type")
        return self.caps.compute_param(ir, _enum_arg(ComputeCap, compute_cap, "get_compute_param compute_cap"))

    def get_timestamp(self) -> int:
        """Current time in ns on the host GL's timestamp clock (monotonic)."""
        return self.host.timestamp_ns()

    # -- driver queries ----------------------------------------------------

    def get_driver_query_info(self, index: int | None = None) -> DriverQueryInfo | tuple[DriverQueryInfo, ...]:
        """pipe_driver_query_info for ``index``; with no index, all of them.

        C returns the count when ``info`` is NULL; ``len()`` of the tuple
        returned for ``index=None`` is that count.
        """
        if index is None:
            return DRIVER_QUERIES
        index = in_range(index, "get_driver_query_info: index", 0, len(DRIVER_QUERIES) - 1)
        return DRIVER_QUERIES[index]

    def get_driver_query_group_info(
        self, index: int | None = None
    ) -> DriverQueryGroupInfo | tuple[DriverQueryGroupInfo, ...]:
        """pipe_driver_query_group_info for ``index``; with no index, all groups."""
        if index is None:
            return DRIVER_QUERY_GROUPS
        index = in_range(index, "get_driver_query_group_info: index", 0, len(DRIVER_QUERY_GROUPS) - 1)
        return DRIVER_QUERY_GROUPS[index]

    # -- formats ------------------------------------------------------------

    def is_format_supported(
        self,
        format: Format | int,
        target: Target | int,
        sample_count: int,
        storage_sample_count: int,
        bindings: Bind | int,
    ) -> bool:
        """Whether ``format`` can be used for ``target`` with ``bindings`` (Bind
        flags) at ``sample_count`` / ``storage_sample_count``.  Answered from the
        probe made once per profile."""
        return is_format_supported(self.format_support, format, target, sample_count, storage_sample_count, bindings)

    def is_dmabuf_modifier_supported(self, modifier: int, format: Format | int) -> tuple[bool, bool]:
        """(supported, external_only) for a DRM format modifier.

        glpipe cannot import or export dma-bufs (the host GL is reached
        through ModernGL, which has no EGLImage path), so the honest answer
        is (False, False) for every modifier.
        """
        uint64(modifier, "is_dmabuf_modifier_supported: modifier")  # a uint64_t DRM modifier
        _enum_arg(Format, format, "is_dmabuf_modifier_supported format")
        return (False, False)

    def get_dmabuf_modifier_planes(self, modifier: int, format: Format | int) -> int:
        """Number of memory planes ``format`` has with ``modifier``.

        Only the linear layout is defined without vendor knowledge: a linear
        dma-buf has one plane per format plane.  Any other modifier is not
        one glpipe knows, so it has no planes (0).
        """
        modifier = uint64(modifier, "get_dmabuf_modifier_planes: modifier")
        fmt = _enum_arg(Format, format, "get_dmabuf_modifier_planes format")
        if modifier == DRM_FORMAT_MOD_LINEAR:
            return util_format_get_num_planes(fmt)
        return 0

    # -- resources ----------------------------------------------------------

    def can_create_resource(self, templ: ResourceTemplate) -> bool:
        """Whether ``resource_create(templ)`` would succeed (no GL object made)."""
        return resource_can_create(self, templ)

    def resource_create(self, templ: ResourceTemplate) -> Resource:
        """A new Resource for ``templ`` (ResourceTemplate); InvalidArgumentError
        names the field of a bad template."""
        self._check_alive()
        return resource_create(self, templ)

    def resource_destroy(self, res: Resource) -> None:
        """Free the resource's GL object; further use raises ObjectDestroyedError."""
        resource_destroy(self, res)
        # Contexts with ``res`` bound must not draw again from host state
        # built on its GL object (a fast-path draw would): they re-emit, and
        # the emit refuses it (glpipe/context.py _resource_destroyed).
        # On another thread's context this waits for that thread (Context._post).
        for ctx in self._live_contexts():
            ctx._post(ctx._resource_destroyed, res)

    def resource_changed(self, res: Resource) -> None:
        """The resource's storage was changed behind glpipe's back (e.g. by
        raw GL on its ``gl_object``): cached derived objects (views, FBOs)
        must be re-validated before next use."""
        if not isinstance(res, Resource):
            raise InvalidArgumentError(f"resource_changed: expected a Resource, got {type(res).__name__}")
        res.check_alive("resource_changed")
        with self._lock:  # any thread may call it: no bump lost to another's (the caches compare it)
            res.generation += 1

    # -- contexts and lifetime ------------------------------------------------

    def context_create(self, priv: Any = None, flags: int = 0, debug: DebugFlags = None) -> Context:
        """A new pipe_context, bound to the calling thread.  Made on the
        screen's thread it shares the screen's GL context; made on another
        thread it runs on a GL context of the screen's share group current
        on that thread (one per thread, shared by the contexts made there;
        docs/api.md "Contexts and threads").  Flags glpipe cannot honour
        (PREFER_THREADED, ...) are accepted and ignored, as docs/api.md
        "Signatures" says.  ``debug`` (glpipe's own): the context's debug
        flags (a GLPIPE_DEBUG-style list, e.g. ``"nofast"``; docs/debug.md)
        instead of the screen's."""
        from .context import Context

        self._check_alive()
        # unsigned flags (p_screen.h); unknown bits are kept, as docs/api.md says.
        flags = uint32(flags, "context_create: flags")
        flags_debug = self.debug_flags if debug is None else parse_debug_flags(debug, "context_create: debug")
        host = self._context_host("context_create")
        ctx = Context(self, priv, flags, debug=flags_debug, host=host)
        with self._lock:
            self._contexts.append(ctx)
            self.counters.adopt(ctx._counters)
            self.counters.watch_new_context(ctx)  # a driver query of another context may be counting
        return ctx

    def _context_host(self, what: str) -> HostGL:
        """The host GL context for a pipe context made on the calling thread:
        the screen's on its thread, else the thread's GL context of the share
        group (made on first use).  A non-EGL host cannot make one: there the
        screen's make_current raises, naming both threads."""
        if self.host.on_gl_thread() or self._share_source is None:
            self.host.make_current(what)
            return self.host
        here = threading.get_ident()
        with self._lock:
            host = self._thread_hosts.get(here)
        if host is None or host.released:
            made = host = SharedHost(self.host, self._share_source)
            made.lost_current_hooks.append(lambda: self._host_not_current(made))
            with self._lock:
                self._thread_hosts[here] = made
            # A thread may end without destroying its contexts: then they and
            # this GL context go as it ends (weakly: the screen may go first).
            at_thread_exit(functools.partial(_thread_exited, weakref.ref(self), made))
            # From now on other threads may set the texture parameters of gl33
            # views: every context re-emits its views, which then take the
            # screen's parameter lock for each draw (glpipe/sampler_views.py).
            for ctx in self._live_contexts():
                ctx._post(ctx.sampler_views_part.share_group_grew)
        host.make_current(what)
        return host

    def _host_here(self) -> HostGL | None:
        """The screen's host GL context current on the calling thread: the
        screen's own on its thread, the share group's GL context of a thread
        with pipe contexts, else None (no GL may be called here)."""
        if self.host.on_gl_thread():
            return self.host
        host = self._thread_hosts.get(threading.get_ident())
        return host if host is not None and not host.released else None

    def fence_finish(self, ctx: Context | None, fence: Fence | None, timeout_ns: int) -> bool:
        """Wait up to ``timeout_ns`` (0 polls; PIPE_TIMEOUT_INFINITE waits for
        good) for ``fence`` from ``ctx.flush``; True once it signalled
        (glpipe.fence explains threads and flags)."""
        from .context import Context
        from .fence import fence_finish

        if ctx is not None and not isinstance(ctx, Context):
            raise InvalidArgumentError(f"fence_finish: ctx must be a Context or None, got {type(ctx).__name__}")
        uint64(timeout_ns, "fence_finish: timeout_ns")  # uint64_t; PIPE_TIMEOUT_INFINITE is its maximum
        return fence_finish(self, ctx, fence, timeout_ns)

    def flush_frontbuffer(
        self, ctx: Context, resource: Resource, level: int, layer: int, drawable: Any, sub_box: Box | None = None
    ) -> None:
        """pipe_screen::flush_frontbuffer: show ``sub_box`` (None: the whole
        level) of ``level``/``layer`` of a ``Bind.DISPLAY_TARGET`` (or
        SCANOUT) resource in ``drawable`` (a glpipe.present.Drawable: a
        window's default framebuffer, or the offscreen stand-in) and swap it.
        Resource row 0 becomes the top row of the window: the presenting
        y-flip, the only one (docs/coordinates.md).  A minimised drawable
        presents nothing.  Bad arguments raise InvalidArgumentError."""
        from .present import flush_frontbuffer

        flush_frontbuffer(self, ctx, resource, level, layer, drawable, sub_box)

    def fence_reference(self, dst: Fence | None, src: Fence | None) -> Fence | None:
        """Gallium's fence refcounting is Python's: returns ``src``."""
        from .fence import Fence

        optional(dst, Fence, "fence_reference: dst")
        optional(src, Fence, "fence_reference: src")
        return src

    @property
    def destroyed(self) -> bool:
        """True after destroy()."""
        return self._destroyed

    @property
    def live_resources(self) -> int:
        """How many of the screen's resources hold a GL object now (neither
        destroyed nor dropped): what the leak tests and scripts/soak.py watch."""
        return len(self._resources)

    def destroy(self) -> None:
        """Destroy every context and release the host GL context glpipe made.

        Afterwards every method of the screen, of its contexts and of its
        resources' GL side (``gl_object``) raises ObjectDestroyedError; a
        second destroy() does nothing."""
        if self._destroyed:
            return
        self.host.make_current("Screen.destroy")  # GL work: on the GL thread only (names both threads elsewhere)
        for ctx in list(self._contexts):
            if ctx.host.on_gl_thread():
                ctx.destroy()
            else:
                # Its GL context is current on its own thread, where nothing
                # can be deleted from here: the context refuses every call
                # from now on, and its GL context (with its VAOs, FBOs and
                # queries) is deleted by EGL once that thread lets go of it.
                ctx._abandon()
        for host in list(self._thread_hosts.values()):
            host.release()
        self._thread_hosts.clear()
        self._destroyed = True
        drain_deferred(self.host)  # objects destroyed off the GL thread, or dropped
        for res in list(self._resources):
            res._screen_destroyed()
        self._resources = weakref.WeakSet()
        self.host.release()
        refuse_calls(self, _SCREEN_METHODS, "screen")

    def _check_alive(self) -> None:
        if self._destroyed:
            raise ObjectDestroyedError("screen was destroyed")

    def _live_contexts(self) -> tuple[Context, ...]:
        """The screen's contexts not destroyed yet (a snapshot)."""
        with self._lock:
            return tuple(ctx for ctx in self._contexts if not ctx.destroyed)

    def _forget_context(self, ctx: Context) -> None:
        """``ctx`` was destroyed; the last context of a thread's GL context
        (glpipe/host/egl_share.py) takes it with it (on that thread)."""
        host: HostGL = ctx.host
        with self._lock:
            if ctx in self._contexts:
                self._contexts.remove(ctx)
            self.counters.retire(ctx._counters)  # its counts stay in the screen's values
            last = host is not self.host and not any(c.host is host for c in self._contexts)
            if last and self._thread_hosts.get(host.gl_thread) is host:
                del self._thread_hosts[host.gl_thread]
        if last and not host.released:
            drain_releases(host)
            host.release()

    def __repr__(self) -> str:
        return f"<glpipe.Screen {self.profile.name} GL {self.profile.gl_version} on {self.profile.renderer!r}>"


def _thread_exited(screen_ref: weakref.ref, host: SharedHost) -> None:
    """``host``'s thread is ending (glpipe/host/egl_share.py at_thread_exit,
    run on that thread): the pipe contexts it left alive are destroyed there
    (their GL objects deleted; the last takes the GL context with it), and a
    GL context released from another thread meanwhile (Screen.destroy),
    still current here, is let go so EGL deletes it."""
    screen = screen_ref()
    if screen is not None and not screen.destroyed:
        for ctx in screen._live_contexts():
            if ctx.host is host:
                ctx.destroy()
    if not host.released:  # no context was left on it (one failed to be made, say)
        drain_releases(host)
        host.release()
        if screen is not None:
            with screen._lock:
                if screen._thread_hosts.get(host.gl_thread) is host:
                    del screen._thread_hosts[host.gl_thread]
    host.let_go()


# The public methods a destroyed screen refuses (every one but destroy).
_SCREEN_METHODS = tuple(
    name for name, value in vars(Screen).items() if not name.startswith("_") and callable(value) and name != "destroy"
)


def create_screen(gl: moderngl.Context | None = None, profile: str | None = None, debug: DebugFlags = None) -> Screen:
    """Create a pipe_screen.

    With no arguments: a headless EGL (surfaceless) context.  ``gl=`` wraps
    a caller's ModernGL context (e.g. a window's).  ``profile="gl33"`` (or
    ``$GLPIPE_HOST_PROFILE=gl33``) restricts glpipe to GL 3.3 core so every
    fallback path runs.  ``debug`` (e.g. ``"nofast"``) sets the debug flags
    of the screen's contexts instead of ``$GLPIPE_DEBUG`` (docs/debug.md).
    """
    # Checked before any GL context is made (a bad flag leaks nothing).
    flags = debug_flags_from_env() if debug is None else parse_debug_flags(debug, "create_screen: debug")
    return Screen(create_host(gl=gl, profile=profile), debug=flags)


__all__ = ["Screen", "create_screen"]
