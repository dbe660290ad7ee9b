"""HostGL and HostProfile: the one place that touches the GL context.

``create_host()`` makes (or wraps) the ModernGL context, selects PyOpenGL's
platform to match it, reads the host once (version, GLSL version,
extensions, limits) into a ``HostProfile`` and, for a restricted profile,
hides what the restriction excludes; the rest of glpipe asks the profile
(``host.profile.has("texture_storage")``), never the raw GL version.  Why
PyOpenGL, its platform pitfall, and the ModernGL state reset here:
docs/host.md.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from lowering.errors import HostGLError, InvalidArgumentError, ObjectDestroyedError

from . import preload
from .features import FEATURES, feature, granted

# Profiles a caller may ask for.  "native" exposes what the host has;
# "gl33" pretends the host is GL 3.3 core with no extensions beyond it.
PROFILE_NATIVE = "native"
PROFILE_GL33 = "gl33"
PROFILES = {
    PROFILE_NATIVE: None,  # no cap on the version
    PROFILE_GL33: 330,
}
PROFILE_ENV = "GLPIPE_HOST_PROFILE"


# Integer limits read once.  Each row: GL name, feature that must be present
# for the limit to mean anything (None = core 3.3), and the number of values
# glGetIntegerv returns.  Under a profile lacking the feature the limit reads 0,
# so a cap computed from it is honest without a second check.
_LIMITS = (
    ("GL_MAX_TEXTURE_SIZE", None, 1),
    ("GL_MAX_3D_TEXTURE_SIZE", None, 1),
    ("GL_MAX_CUBE_MAP_TEXTURE_SIZE", None, 1),
    ("GL_MAX_ARRAY_TEXTURE_LAYERS", None, 1),
    ("GL_MAX_RECTANGLE_TEXTURE_SIZE", None, 1),
    ("GL_MAX_TEXTURE_BUFFER_SIZE", None, 1),
    ("GL_MAX_RENDERBUFFER_SIZE", None, 1),
    ("GL_MAX_COLOR_ATTACHMENTS", None, 1),
    ("GL_MAX_DRAW_BUFFERS", None, 1),
    ("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS", None, 1),
    ("GL_MAX_SAMPLES", None, 1),
    ("GL_MAX_COLOR_TEXTURE_SAMPLES", "texture_multisample", 1),
    ("GL_MAX_DEPTH_TEXTURE_SAMPLES", "texture_multisample", 1),
    ("GL_MAX_INTEGER_SAMPLES", "texture_multisample", 1),
    ("GL_MAX_SAMPLE_MASK_WORDS", "texture_multisample", 1),
    ("GL_MAX_VERTEX_ATTRIBS", None, 1),
    ("GL_MAX_VERTEX_UNIFORM_COMPONENTS", None, 1),
    ("GL_MAX_FRAGMENT_UNIFORM_COMPONENTS", None, 1),
    ("GL_MAX_GEOMETRY_UNIFORM_COMPONENTS", None, 1),
    ("GL_MAX_VERTEX_UNIFORM_BLOCKS", None, 1),
    ("GL_MAX_FRAGMENT_UNIFORM_BLOCKS", None, 1),
    ("GL_MAX_GEOMETRY_UNIFORM_BLOCKS", None, 1),
    ("GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS", "tessellation_shader", 1),
    ("GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS", "tessellation_shader", 1),
    ("GL_MAX_COMPUTE_UNIFORM_BLOCKS", "compute_shader", 1),
    ("GL_MAX_COMBINED_UNIFORM_BLOCKS", None, 1),
    ("GL_MAX_UNIFORM_BUFFER_BINDINGS", None, 1),
    ("GL_MAX_UNIFORM_BLOCK_SIZE", None, 1),
    ("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT", None, 1),
    ("GL_MAX_TEXTURE_IMAGE_UNITS", None, 1),
    ("GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS", None, 1),
    ("GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS", None, 1),
    ("GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS", "tessellation_shader", 1),
    ("GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS", "tessellation_shader", 1),
    ("GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS", "compute_shader", 1),
    ("GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS", None, 1),
    ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", None, 1),
    ("GL_MAX_GEOMETRY_INPUT_COMPONENTS", None, 1),
    ("GL_MAX_GEOMETRY_OUTPUT_COMPONENTS", None, 1),
    ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", None, 1),
    ("GL_MAX_GEOMETRY_OUTPUT_VERTICES", None, 1),
    ("GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS", None, 1),
    ("GL_MAX_GEOMETRY_SHADER_INVOCATIONS", "gpu_shader5", 1),
    ("GL_MAX_VERTEX_STREAMS", "transform_feedback3", 1),
    ("GL_MAX_TESS_GEN_LEVEL", "tessellation_shader", 1),
    ("GL_MAX_PATCH_VERTICES", "tessellation_shader", 1),
    ("GL_MAX_TESS_PATCH_COMPONENTS", "tessellation_shader", 1),
    ("GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS", None, 1),
    ("GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS", None, 1),
    ("GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", None, 1),
    ("GL_MAX_TRANSFORM_FEEDBACK_BUFFERS", "transform_feedback3", 1),
    ("GL_MAX_CLIP_DISTANCES", None, 1),
    ("GL_MAX_CULL_DISTANCES", "cull_distance", 1),
    ("GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES", "cull_distance", 1),
    ("GL_MAX_VIEWPORTS", "viewport_array", 1),
    ("GL_MAX_VIEWPORT_DIMS", None, 2),
    ("GL_MAX_ELEMENT_INDEX", "es3_compatibility", 1),
    ("GL_MAX_ELEMENTS_VERTICES", None, 1),
    ("GL_MAX_ELEMENTS_INDICES", None, 1),
    ("GL_MIN_PROGRAM_TEXEL_OFFSET", None, 1),
    ("GL_MAX_PROGRAM_TEXEL_OFFSET", None, 1),
    ("GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET", "gpu_shader5", 1),
    ("GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET", "gpu_shader5", 1),
    ("GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", "shader_storage_buffer_object", 1),
    ("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", "shader_storage_buffer_object", 1),
    ("GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT", "shader_storage_buffer_object", 1),
    ("GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_IMAGE_UNITS", "shader_image_load_store", 1),
    ("GL_MAX_IMAGE_SAMPLES", "shader_image_load_store", 1),
    ("GL_MAX_VERTEX_IMAGE_UNIFORMS", "shader_image_load_store", 1),
    ("GL_MAX_FRAGMENT_IMAGE_UNIFORMS", "shader_image_load_store", 1),
    ("GL_MAX_GEOMETRY_IMAGE_UNIFORMS", "shader_image_load_store", 1),
    ("GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS", "shader_image_load_store", 1),
    ("GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS", "shader_image_load_store", 1),
    ("GL_MAX_COMPUTE_IMAGE_UNIFORMS", "compute_shader", 1),
    ("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", "shader_atomic_counters", 1),
    ("GL_MAX_VERTEX_ATOMIC_COUNTERS", "shader_atomic_counters", 1),
    ("GL_MAX_FRAGMENT_ATOMIC_COUNTERS", "shader_atomic_counters", 1),
    ("GL_MAX_GEOMETRY_ATOMIC_COUNTERS", "shader_atomic_counters", 1),
    ("GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS", "shader_atomic_counters", 1),
    ("GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS", "shader_atomic_counters", 1),
    ("GL_MAX_COMPUTE_ATOMIC_COUNTERS", "compute_shader", 1),
    ("GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS", "shader_atomic_counters", 1),
    ("GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS", "shader_atomic_counters", 1),
    ("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", "compute_shader", 1),
    ("GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", "compute_shader", 1),
    ("GL_MIN_MAP_BUFFER_ALIGNMENT", None, 1),
    ("GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT", "texture_buffer_range", 1),
    ("GL_MAX_FRAMEBUFFER_WIDTH", "framebuffer_no_attachments", 1),
    ("GL_MAX_FRAMEBUFFER_HEIGHT", "framebuffer_no_attachments", 1),
    ("GL_MAX_FRAMEBUFFER_LAYERS", "framebuffer_no_attachments", 1),
    ("GL_MAX_FRAMEBUFFER_SAMPLES", "framebuffer_no_attachments", 1),
    ("GL_MAX_VERTEX_ATTRIB_STRIDE", None, 1),  # 4.4 query; 0 when absent (= no limit known)
    ("GL_SUBPIXEL_BITS", None, 1),
    ("GL_VIEWPORT_SUBPIXEL_BITS", "viewport_array", 1),
    ("GL_MAX_SERVER_WAIT_TIMEOUT", None, 1),
    ("GL_MAX_TESS_CONTROL_INPUT_COMPONENTS", "tessellation_shader", 1),
    ("GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS", "tessellation_shader", 1),
    ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", "tessellation_shader", 1),
    ("GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS", "tessellation_shader", 1),
    ("GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS", "shader_atomic_counters", 1),
    ("GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS", "shader_atomic_counters", 1),
    ("GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS", "shader_atomic_counters", 1),
    ("GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS", "compute_shader", 1),
    ("GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS", "shader_storage_buffer_object", 1),
    ("GL_MAX_COMBINED_ATOMIC_COUNTERS", "shader_atomic_counters", 1),
    ("GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS", "shader_atomic_counters", 1),
    ("GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES", "shader_storage_buffer_object", 1),
)

# Indexed integer limits (glGetIntegeri_v): name, feature, count.
_INDEXED_LIMITS = (
    ("GL_MAX_COMPUTE_WORK_GROUP_COUNT", "compute_shader", 3),
    ("GL_MAX_COMPUTE_WORK_GROUP_SIZE", "compute_shader", 3),
)

# Float limits (glGetFloatv): name, feature, count.
_FLOAT_LIMITS = (
    ("GL_ALIASED_LINE_WIDTH_RANGE", None, 2),
    ("GL_SMOOTH_LINE_WIDTH_RANGE", None, 2),
    ("GL_POINT_SIZE_RANGE", None, 2),
    ("GL_MAX_TEXTURE_LOD_BIAS", None, 1),
    ("GL_SMOOTH_LINE_WIDTH_GRANULARITY", None, 1),
    ("GL_POINT_SIZE_GRANULARITY", None, 1),
    ("GL_MAX_TEXTURE_MAX_ANISOTROPY", "texture_filter_anisotropic", 1),
    ("GL_VIEWPORT_BOUNDS_RANGE", "viewport_array", 2),
    ("GL_MIN_FRAGMENT_INTERPOLATION_OFFSET", "gpu_shader5", 1),
    ("GL_MAX_FRAGMENT_INTERPOLATION_OFFSET", "gpu_shader5", 1),
)

# GL_MAX_TEXTURE_MAX_ANISOTROPY is 0x84FF under both the ARB and EXT names.
_ENUM_FALLBACK = {"GL_MAX_TEXTURE_MAX_ANISOTROPY": 0x84FF, "GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT": 0x84FF}


@dataclass(frozen=True)
class HostProfile:
    """What glpipe may use of the host GL: read once, possibly restricted.

    ``gl_version`` / ``glsl_version`` are 10*major + minor*10 integers (450,
    330).  ``extensions`` holds the ``GL_*`` names visible under this
    profile; a restricted profile hides every extension.  ``limits`` maps GL
    limit names to ints (or tuples for multi-valued limits).
    """

    name: str
    gl_version: int
    glsl_version: int
    extensions: frozenset
    limits: MappingProxyType
    vendor: str
    renderer: str
    version_string: str
    glsl_version_string: str
    host_gl_version: int
    host_extensions: frozenset = field(repr=False)
    _features: frozenset[str] = field(default=frozenset(), repr=False)

    def has(self, name: str) -> bool:
        """Whether the feature ``name`` (a row of glpipe.host.features) is usable."""
        if name not in FEATURES:
            feature(name)  # raises KeyError naming the feature
        return name in self._features

    def limit(self, name: str, default: int = 0) -> int | float | tuple:
        """The limit ``name`` (e.g. ``"GL_MAX_SAMPLES"``); 0 when unknown or hidden."""
        return self.limits.get(name, default)

    def feature_states(self) -> dict[str, str]:
        """Each feature as ``native`` (usable), ``hidden`` (the host has it but
        the profile hides it) or ``unavailable``."""
        out = {}
        for row in FEATURES.values():
            if row.name in self._features:
                out[row.name] = "native"
            elif granted(row, self.host_gl_version, self.host_extensions):
                out[row.name] = "hidden"
            else:
                out[row.name] = "unavailable"
        return out

    @property
    def restricted(self) -> bool:
        """True when this profile hides part of what the host offers."""
        return self.name != PROFILE_NATIVE


def resolve_profile_name(profile: str | None) -> str:
    """The profile to use: the argument, else ``$GLPIPE_HOST_PROFILE``, else native."""
    name = profile if profile is not None else os.environ.get(PROFILE_ENV) or PROFILE_NATIVE
    name = str(name).lower()
    if name not in PROFILES:
        raise InvalidArgumentError(
            f"unknown host profile {name!r} (from {'argument' if profile is not None else PROFILE_ENV}); "
            f"expected one of {sorted(PROFILES)}"
        )
    return name


# --------------------------------------------------------------------------
# PyOpenGL, imported once with the right platform
# --------------------------------------------------------------------------

_pyopengl_lock = threading.Lock()


def _pyopengl(platform: str):
    """Import PyOpenGL's GL module for a context made through ``platform``
    ("egl" or "glx"), choosing PYOPENGL_PLATFORM before the first import."""
    with _pyopengl_lock:
        if "OpenGL" not in sys.modules:
            os.environ["PYOPENGL_PLATFORM"] = platform
            import OpenGL

            # glpipe checks errors itself at chosen points (HostGL.check):
            # per-call checking would report errors ModernGL left behind as
            # if the next innocent PyOpenGL call had made them.
            OpenGL.ERROR_CHECKING = False
        else:
            chosen = os.environ.get("PYOPENGL_PLATFORM", "")
            if chosen and chosen.lower() != platform:
                raise HostGLError(
                    f"PyOpenGL was imported before glpipe with PYOPENGL_PLATFORM={chosen!r}, "
                    f"but this host context is {platform.upper()}; PyOpenGL cannot switch platforms "
                    f"once imported. Import glpipe (or create the screen) before PyOpenGL, or set "
                    f"PYOPENGL_PLATFORM={platform} before importing it."
                )
        from OpenGL import GL

        return GL


def _context_platform(mgl) -> str:
    """Which window-system binding made ``mgl`` current: "egl" or "glx"."""
    mod = type(mgl.mglo._context).__module__ if hasattr(mgl.mglo, "_context") else ""
    if mod.startswith("egl") or mod.endswith(".egl"):
        return "egl"
    if mod.startswith("x11") or mod.endswith(".x11"):
        return "glx"
    # A caller's context (glfw, pyglet, ...): ask EGL whether it is current.
    try:
        egl = ctypes.CDLL("libEGL.so.1")
        egl.eglGetCurrentContext.restype = ctypes.c_void_p
        if egl.eglGetCurrentContext():
            return "egl"
    except OSError:
        pass
    return "glx"


def _create_headless_context():
    """A surfaceless EGL context (no DISPLAY needed; never X11)."""
    import moderngl

    preload.apply()  # driver settings read only when the driver loads (glpipe/host/preload.py)
    errors = []
    for kwargs in ({"require": 450}, {"require": 330}):
        try:
            return moderngl.create_context(standalone=True, backend="egl", **kwargs)
        except Exception as exc:  # glcontext raises plain Exceptions
            errors.append(f"{kwargs}: {exc}")
    raise HostGLError(
        "could not create a headless EGL OpenGL context (" + "; ".join(errors) + "). "
        "glpipe needs libEGL and Mesa's drivers: on Debian/Ubuntu `apt-get install libegl1 "
        "libgl1-mesa-dri`. Check with `python -m glpipe info`."
    )


# --------------------------------------------------------------------------
# HostGL
# --------------------------------------------------------------------------

_GL_ERRORS = {
    0x0500: "GL_INVALID_ENUM",
    0x0501: "GL_INVALID_VALUE",
    0x0502: "GL_INVALID_OPERATION",
    0x0503: "GL_STACK_OVERFLOW",
    0x0504: "GL_STACK_UNDERFLOW",
    0x0505: "GL_OUT_OF_MEMORY",
    0x0506: "GL_INVALID_FRAMEBUFFER_OPERATION",
    0x0507: "GL_CONTEXT_LOST",
}


# The glpipe host made current last, per thread (a GL context is current per
# thread: a host made current on one thread does not stop another thread's
# from being current there).
_current = threading.local()


# --------------------------------------------------------------------------
# Which GL context is current on the calling thread
# --------------------------------------------------------------------------

#: The pointer-returning query of a void C function (``PYFUNCTYPE``: keeps the
#: GIL, as the hot GL entry points do, glpipe/host/hotgl.py).
CONTEXT_QUERY_PROTOTYPE = ctypes.PYFUNCTYPE(ctypes.c_void_p)

#: Ways to ask "which context is current on this thread", cheapest first:
#: (name, library, function, dlopen mode).  Mesa's own ``_glapi_get_context``
#: is a thread-local read (~70 ns through ctypes, measured); the window
#: systems' queries go through libglvnd's dispatch (~280 ns).  Mesa's library
#: is only used when it is already loaded (RTLD_NOLOAD): it answers for Mesa
#: contexts only, which the probe in ``_context_query`` checks.
_CONTEXT_QUERIES = {
    "mesa": ("libglapi.so.0", "_glapi_get_context", getattr(os, "RTLD_NOLOAD", 0) | ctypes.DEFAULT_MODE),
    "egl": ("libEGL.so.1", "eglGetCurrentContext", ctypes.DEFAULT_MODE),
    "glx": ("libGL.so.1", "glXGetCurrentContext", ctypes.DEFAULT_MODE),
}
_query_cache: dict[str, object] = {}


def _load_query(name: str):
    """The ctypes function of ``_CONTEXT_QUERIES[name]``, resolved once; None
    where the library or the symbol is absent."""
    if name not in _query_cache:
        lib_name, symbol, mode = _CONTEXT_QUERIES[name]
        try:
            _query_cache[name] = CONTEXT_QUERY_PROTOTYPE((symbol, ctypes.CDLL(lib_name, mode=mode)))
        except (OSError, AttributeError):
            _query_cache[name] = None
    return _query_cache[name]


def _tracked_current():
    """The last resort of ``_context_query``: glpipe's own record of the host
    it made current on the calling thread (blind to contexts made current by
    anyone else)."""
    return getattr(_current, "host", None)


def _context_query(host: HostGL):
    """(query, handle, name) for ``host``, whose context is current now:
    ``query()`` returns ``handle`` exactly when the host's context is current
    on the calling thread.  The first query of ``("mesa", platform)`` that
    sees a context now is used (a non-NULL answer while this context is
    current identifies it: one context is current per thread)."""
    for name in ("mesa", host.platform):
        query = _load_query(name)
        handle = query() if query is not None else None
        if handle:
            return query, handle, name
    return _tracked_current, host, "tracked"


def _switch_current(host: HostGL) -> None:
    """Record ``host`` as current; the host that stops being current runs its
    ``lost_current_hooks`` (each screen marks its drawing context, so that
    context's next draw leaves draw_vbo's fast path for the prologue, which
    makes its host current again: the fast path tests no host)."""
    previous = getattr(_current, "host", None)
    _current.host = host
    if previous is not None and previous is not host:
        for hook in previous.lost_current_hooks:
            hook()


def forget_current(host: HostGL) -> None:
    """``host`` is released: it is no longer the calling thread's current host."""
    if getattr(_current, "host", None) is host:
        _current.host = None


class HostGL:
    """One ModernGL context plus PyOpenGL on it, and the profile read from it.

    Attributes: ``mgl`` (moderngl.Context), ``gl`` (PyOpenGL's ``OpenGL.GL``
    with per-call error checking off), ``profile`` (HostProfile),
    ``platform`` ("egl" / "glx"), ``owns_context`` (True when glpipe made
    the context and so releases it), ``scratch_texture_unit`` (ModernGL's
    unit, never a Gallium slot), ``gl_thread`` (ident of the thread the
    context is current on; GL calls are only made there).
    """

    def __init__(self, mgl, profile_name: str, owns_context: bool):
        self.mgl = mgl
        self.owns_context = owns_context
        self.platform = _context_platform(mgl)
        self.gl = _pyopengl(self.platform)
        self.gl_thread = threading.get_ident()
        self.gl_thread_name = threading.current_thread().name
        self.lock = threading.RLock()
        self.released = False
        self.lost_current_hooks: list = []  # run when another host's context is made current
        # The pipe context whose draw state this GL context holds (glpipe/draw.py
        # takes it over; one per GL context: docs/api.md "Contexts and threads").
        self.drawing_context: Any = None
        # A wrapped context need not be current now (the caller may have made
        # another one current since): make it so before reading anything.
        mgl.mglo._context.__enter__()
        _switch_current(self)
        # The cheap test of "is this context current on the calling thread"
        # (docs/host.md "Whose context is current"): every GL-touching entry
        # point runs ``current_context() != context_handle`` first.
        self.current_context, self.context_handle, self.context_query = _context_query(self)
        self.clear_errors()
        self.profile = self._read_profile(profile_name)
        # ModernGL's texture operations bind on its "default texture unit"
        # (GL_MAX_TEXTURE_IMAGE_UNITS - 1 by default, inside the vertex stage's
        # sampler range of docs/bindings.md).  Move it to the last combined
        # unit, which the binding layout never hands out.
        combined = int(self.profile.limit("GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS"))
        if combined > 0:
            mgl.default_texture_unit = combined - 1
        self.scratch_texture_unit = int(mgl.default_texture_unit)
        self._reset_moderngl_state()
        self._timestamp_base = self._calibrate_timestamp()
        self.check("host initialisation")

    # -- errors -------------------------------------------------------------

    def clear_errors(self) -> list:
        """Drain glGetError; return the error codes that were pending."""
        errs = []
        get = self.gl.glGetError
        for _ in range(16):  # a broken driver could report forever
            err = int(get())
            if err == 0:
                break
            errs.append(err)
        return errs

    def check(self, what: str) -> None:
        """Raise HostGLError naming ``what`` if the host GL flagged an error."""
        errs = self.clear_errors()
        if errs:
            raise HostGLError(f"{what}: host GL reported {error_names(errs)}")

    # -- profile ------------------------------------------------------------

    def _enum(self, name: str) -> int:
        value = getattr(self.gl, name, None)
        if value is None:
            value = _ENUM_FALLBACK[name]
        return int(value)

    def _read_profile(self, profile_name: str) -> HostProfile:
        import numpy as np

        gl = self.gl
        info = self.mgl.info
        host_version = int(self.mgl.version_code)
        host_exts = frozenset(str(e) for e in self.mgl.extensions)
        glsl_string = gl.glGetString(gl.GL_SHADING_LANGUAGE_VERSION) or b""
        glsl_string = glsl_string.decode() if isinstance(glsl_string, bytes) else str(glsl_string)
        try:
            major, minor = glsl_string.split()[0].split(".")[:2]
            host_glsl = int(major) * 100 + int(minor[:2])
        except (ValueError, IndexError):
            host_glsl = 330
        cap = PROFILES[profile_name]
        gl_version = host_version if cap is None else min(host_version, cap)
        glsl_version = host_glsl if cap is None else min(host_glsl, cap)
        extensions = host_exts if cap is None else frozenset()
        if cap is not None and host_version < cap:
            raise HostGLError(
                f"profile {profile_name!r} needs GL {cap / 100:.1f}; the host has {host_version / 100:.1f}"
            )
        feats = frozenset(row.name for row in FEATURES.values() if granted(row, gl_version, extensions))

        def allowed(feat):
            return feat is None or feat in feats

        limits = {}
        ibuf = np.zeros(4, np.int64)
        for name, feat, count in _LIMITS:
            value = 0
            if allowed(feat) and hasattr(gl, name):
                ibuf[:] = 0
                gl.glGetInteger64v(self._enum(name), ibuf)
                value = int(ibuf[0]) if count == 1 else tuple(int(v) for v in ibuf[:count])
                if self.clear_errors():
                    value = 0 if count == 1 else (0,) * count
            elif count != 1:
                value = (0,) * count
            limits[name] = value
        for name, feat, count in _INDEXED_LIMITS:
            vals = [0] * count
            if allowed(feat):
                for i in range(count):
                    ibuf[:] = 0
                    gl.glGetInteger64i_v(self._enum(name), i, ibuf)
                    vals[i] = int(ibuf[0])
                if self.clear_errors():
                    vals = [0] * count
            limits[name] = tuple(vals)
        fbuf = np.zeros(4, np.float32)
        for name, feat, count in _FLOAT_LIMITS:
            value = 0.0 if count == 1 else (0.0,) * count
            if allowed(feat):
                fbuf[:] = 0
                gl.glGetFloatv(self._enum(name), fbuf)
                if not self.clear_errors():
                    value = float(fbuf[0]) if count == 1 else tuple(float(v) for v in fbuf[:count])
            limits[name] = value
        # Bits of the GL_TIMESTAMP counter: a query-target property, not a glGet.
        bits = 0
        if "timer_query" in feats:
            qbuf = np.zeros(1, np.int32)
            gl.glGetQueryiv(gl.GL_TIMESTAMP, gl.GL_QUERY_COUNTER_BITS, qbuf)
            bits = 0 if self.clear_errors() else int(qbuf[0])
        limits["GL_QUERY_COUNTER_BITS_TIMESTAMP"] = bits
        return HostProfile(
            name=profile_name,
            gl_version=gl_version,
            glsl_version=glsl_version,
            extensions=extensions,
            limits=MappingProxyType(limits),
            vendor=str(info.get("GL_VENDOR", "")),
            renderer=str(info.get("GL_RENDERER", "")),
            version_string=str(info.get("GL_VERSION", "")),
            glsl_version_string=glsl_string,
            host_gl_version=host_version,
            host_extensions=host_exts,
            _features=feats,
        )

    # -- GL state ownership -----------------------------------------------

    def _reset_moderngl_state(self) -> None:
        """Undo what ModernGL changed at context creation (docs/host.md "State ModernGL changes behind
        our back"),
        so GL starts from its documented defaults and the context's shadow
        state is true from the first draw."""
        gl = self.gl
        gl.glBlendFunc(gl.GL_ONE, gl.GL_ZERO)
        gl.glDisable(gl.GL_PRIMITIVE_RESTART)
        if hasattr(gl, "GL_PRIMITIVE_RESTART_FIXED_INDEX"):
            gl.glDisable(gl.GL_PRIMITIVE_RESTART_FIXED_INDEX)
        # Gallium asks for seamless filtering per sampler; GL core only has a
        # global switch, which the context sets from the bound samplers.
        gl.glDisable(gl.GL_TEXTURE_CUBE_MAP_SEAMLESS)
        self.clear_errors()

    # -- time ---------------------------------------------------------------

    def _calibrate_timestamp(self):
        """Pair the GL timestamp with the CPU's monotonic clock once, so
        get_timestamp can answer from any thread without GL calls."""
        cpu = time.monotonic_ns()
        gl_ns = cpu
        if self.profile.has("timer_query"):
            import numpy as np

            buf = np.zeros(1, np.int64)
            self.gl.glGetInteger64v(self.gl.GL_TIMESTAMP, buf)
            if not self.clear_errors() and int(buf[0]) > 0:
                gl_ns = int(buf[0])
        return gl_ns, cpu

    def timestamp_ns(self) -> int:
        """Nanoseconds on the host GL's timestamp clock (monotonic)."""
        gl_ns, cpu = self._timestamp_base
        return gl_ns + (time.monotonic_ns() - cpu)

    # -- current context ----------------------------------------------------

    def make_current(self, what: str = "glpipe") -> None:
        """Make this host's GL context current on the calling thread if it is
        not (``what``: the entry point, for the error messages).

        Whatever the application made current since glpipe's last call --
        another glpipe screen's context, a ModernGL context, a window
        library's -- glpipe's GL calls must reach glpipe's context: the test
        asks the thread which context is current (``current_context``, one
        cheap ctypes call) and switches when it is another.  The caller's
        context is not restored afterwards (docs/api.md "Contexts and
        threads").  On a thread other than the context's (``gl_thread``)
        HostGLError names both threads: a GL context is current on one thread
        at a time, and taking it over would break the thread that holds it.
        """
        current = self.current_context  # a local: a call through the instance attribute costs a generic method lookup
        if current() != self.context_handle:
            self._take_current(what)

    def _take_current(self, what: str) -> None:
        """make_current's slow path: refuse another thread, else switch and verify."""
        if threading.get_ident() != self.gl_thread:
            raise HostGLError(self.wrong_thread_message(what))
        if self.released:
            raise ObjectDestroyedError(f"{what}: the screen was destroyed (its GL context is released)")
        self.mgl.mglo._context.__enter__()
        if self.current_context() != self.context_handle:
            raise HostGLError(f"{what}: the host could not make glpipe's GL context current on this thread")
        _switch_current(self)

    def wrong_thread_message(self, what: str) -> str:
        """The message of a GL-touching call made off ``gl_thread``."""
        here = threading.current_thread()
        return (
            f"{what}: called on thread {here.name!r} (id {threading.get_ident()}), but this pipe context's "
            f"GL context belongs to thread {self.gl_thread_name!r} (id {self.gl_thread}). A GL context is "
            f"current on one thread at a time, so a pipe context runs on the thread its screen was made on; "
            f"call it there (screen methods may be called from any thread)."
        )

    # -- threads ------------------------------------------------------------

    def on_gl_thread(self) -> bool:
        """True when called on the thread the GL context is current on."""
        return threading.get_ident() == self.gl_thread

    # -- lifetime -----------------------------------------------------------

    def release(self) -> None:
        """Release the GL context if glpipe created it."""
        if self.released:
            return
        self.released = True
        forget_current(self)
        if self.owns_context:
            self.mgl.release()


def error_names(errs: list) -> str:
    """GL error codes as their names (``"GL_INVALID_VALUE, 0x9999"``)."""
    return ", ".join(_GL_ERRORS.get(e, hex(e)) for e in errs)


def create_host(gl=None, profile: str | None = None) -> HostGL:
    """Make the host: a headless EGL context, or wrap ``gl`` (a ModernGL context).

    ``profile`` (or ``$GLPIPE_HOST_PROFILE``) is ``"native"`` or ``"gl33"``.
    """
    name = resolve_profile_name(profile)
    if gl is None:
        mgl = _create_headless_context()
        owns = True
    else:
        import moderngl

        if not isinstance(gl, moderngl.Context):
            raise InvalidArgumentError(f"gl must be a moderngl.Context, got {type(gl).__name__}")
        mgl = gl
        owns = False
    return HostGL(mgl, name, owns)


__all__ = [
    "CONTEXT_QUERY_PROTOTYPE",
    "HostGL",
    "HostProfile",
    "create_host",
    "error_names",
    "resolve_profile_name",
    "PROFILES",
    "PROFILE_NATIVE",
    "PROFILE_GL33",
    "PROFILE_ENV",
]
