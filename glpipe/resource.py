"""pipe_resource: buffers and textures as host GL objects
(``resource_create``, ``resource_can_create``, ``resource_destroy``).

docs/api.md "Resources" has the errors, the storage and the thread rules.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from lowering.errors import HostGLError, InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .enums import Bind, ResourceFlag, Target, Usage, all_flag_bits, flag_bits
from .format_table import HostFormat
from .formats import (
    Format,
    format_desc,
    host_decodes,
    host_has,
    host_storage,
    is_format_supported,
    util_format_get_blocksize,
    util_format_get_nblocksx,
    util_format_get_nblocksy,
    util_format_get_nblocksz,
)
from .lifetime import defer_delete, delete_now, drain_deferred
from .lifetime import pending_deletions as _pending
from .templates import ResourceTemplate
from .transfer_gl import coherent_storage_refused, hold_mapped, persistent_views_alive

if TYPE_CHECKING:  # imported where first used (Resource.compressed_shadow)
    import numpy as np

    from fallback.compressed import Shadow

# pipe_resource.width0 is a 32-bit unsigned int in p_state.h; st/mesa
# refuses larger buffers for that reason.  It is the only bound Gallium puts
# on a buffer's size (GL has no queryable maximum buffer size).
MAX_BUFFER_SIZE = 0xFFFFFFFF

# GL enums are named, not numbered, in the tables below and resolved
# through the host's PyOpenGL GL module (imported by glpipe.host.gl with the
# right platform), so this module never imports PyOpenGL at load.


# --------------------------------------------------------------------------
# The target table
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetRule:
    """What Gallium and GL say about one pipe_texture_target.

    ``dims``: how many of width0/height0/depth0 are spatial (the rest must
    be 1); ``layered``: array_size counts layers; ``faces``: 6 for cubes;
    ``size_limit``: GL limit per spatial dimension (None: a buffer);
    ``feature``: host feature needed (None: GL 3.3 core); ``gl_target_ms``:
    the multisampled GL target (None: cannot be multisampled).
    """

    name: str
    gl_target: str
    gl_target_ms: str | None
    dims: int
    layered: bool
    faces: int
    size_limit: str | None
    mipmapped: bool
    feature: str | None

    @property
    def gl_dims(self) -> int:
        """Dimensionality of the GL storage call (1D, 2D or 3D): layers add one."""
        return self.dims + (1 if self.layered else 0)


# Columns: name, GL target, GL target when multisampled, dims, layered,
# faces, size limit, mipmapped, feature.  GL: rectangle textures have one
# level (GL 4.5 §8.14.1); only 2D and 2D-array textures have MSAA forms.
_TARGETS = {
    t: TargetRule(t.name, *row)
    for t, row in (
        (Target.BUFFER, ("GL_ARRAY_BUFFER", None, 1, False, 1, None, False, None)),
        (Target.TEXTURE_1D, ("GL_TEXTURE_1D", None, 1, False, 1, "GL_MAX_TEXTURE_SIZE", True, None)),
        (
            Target.TEXTURE_2D,
            ("GL_TEXTURE_2D", "GL_TEXTURE_2D_MULTISAMPLE", 2, False, 1, "GL_MAX_TEXTURE_SIZE", True, None),
        ),
        (Target.TEXTURE_3D, ("GL_TEXTURE_3D", None, 3, False, 1, "GL_MAX_3D_TEXTURE_SIZE", True, None)),
        (Target.TEXTURE_CUBE, ("GL_TEXTURE_CUBE_MAP", None, 2, False, 6, "GL_MAX_CUBE_MAP_TEXTURE_SIZE", True, None)),
        (
            Target.TEXTURE_RECT,
            ("GL_TEXTURE_RECTANGLE", None, 2, False, 1, "GL_MAX_RECTANGLE_TEXTURE_SIZE", False, "texture_rectangle"),
        ),
        (
            Target.TEXTURE_1D_ARRAY,
            ("GL_TEXTURE_1D_ARRAY", None, 1, True, 1, "GL_MAX_TEXTURE_SIZE", True, "texture_array"),
        ),
        (
            Target.TEXTURE_2D_ARRAY,
            (
                "GL_TEXTURE_2D_ARRAY",
                "GL_TEXTURE_2D_MULTISAMPLE_ARRAY",
                2,
                True,
                1,
                "GL_MAX_TEXTURE_SIZE",
                True,
                "texture_array",
            ),
        ),
        (
            Target.TEXTURE_CUBE_ARRAY,
            (
                "GL_TEXTURE_CUBE_MAP_ARRAY",
                None,
                2,
                True,
                6,
                "GL_MAX_CUBE_MAP_TEXTURE_SIZE",
                True,
                "texture_cube_map_array",
            ),
        ),
    )
}

# Usage -> glBufferData hint, for hosts without glBufferStorage.  The
# inverse of st/mesa's buffer_usage(): GL_*_DRAW map to DEFAULT / DYNAMIC /
# STREAM, and every GL_*_READ hint becomes STAGING.  So STAGING (a buffer
# the CPU reads back, e.g. a transfer's bounce buffer) asks for STREAM_READ:
# written once by the GPU, read by the CPU, which steers the driver to
# CPU-cached memory.  IMMUTABLE and DEFAULT are GPU-only data.
_BUFFER_DATA_USAGE = {
    Usage.DEFAULT: "GL_STATIC_DRAW",
    Usage.IMMUTABLE: "GL_STATIC_DRAW",
    Usage.DYNAMIC: "GL_DYNAMIC_DRAW",
    Usage.STREAM: "GL_STREAM_DRAW",
    Usage.STAGING: "GL_STREAM_READ",
}
# With glBufferStorage the same hint is GL_CLIENT_STORAGE_BIT (st/mesa maps
# it back to STREAM, and MAP_READ_BIT to STAGING).
_CLIENT_STORAGE_USAGES = frozenset({Usage.STREAM, Usage.STAGING})

# Resource flags that are pure hints to a driver: accepted, nothing to do.
_HINT_FLAGS = (
    ResourceFlag.TEXTURING_MORE_LIKELY
    | ResourceFlag.SINGLE_THREAD_USE
    | ResourceFlag.DONT_OVER_ALLOCATE
    | ResourceFlag.DONT_MAP_DIRECTLY
    | ResourceFlag.UNMAPPABLE
    | ResourceFlag.DRV_PRIV
    | ResourceFlag.FRONTEND_PRIV
)
_PERSISTENT_FLAGS = ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT
_ALL_BINDS = all_flag_bits(Bind)

# Immutable multisample storage (glTexStorage2D/3DMultisample) is GL 4.3 /
# ARB_texture_storage_multisample; without it multisampled textures use
# glTexImage*Multisample, which makes the same storage, only mutable (no
# texture views of it).
_MS_STORAGE_FEATURE = "texture_storage_multisample"


def u_minify(value: int, level: int) -> int:
    """Size of a dimension at mip ``level`` (Gallium's u_minify)."""
    return max(1, int(value) >> int(level))


def _log2_floor(value: int) -> int:
    return int(value).bit_length() - 1


def _field(name: str) -> str:
    return f"ResourceTemplate.{name}"


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Plan:
    """What resource_create decided for a valid template: the GL storage."""

    rule: TargetRule
    gl_target_name: str
    gl_target: int
    storage: object | None  # formats.HostFormat; None for buffers
    immutable: bool
    samples: int  # 1 when not multisampled


def _require_template(templ, what: str) -> ResourceTemplate:
    if not isinstance(templ, ResourceTemplate):
        raise InvalidArgumentError(f"{what}: expected a ResourceTemplate, got {type(templ).__name__}")
    return templ


def _enum_field(templ, name: str, enum_cls):
    value = getattr(templ, name)
    try:
        return enum_cls(value)
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"{_field(name)}: {value!r} is not a {enum_cls.__name__}") from None


def _int_field(templ, name: str, minimum: int) -> int:
    value = getattr(templ, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{_field(name)}: expected an integer, got {value!r}")
    if value < minimum:
        raise InvalidArgumentError(f"{_field(name)}: must be >= {minimum}, got {value}")
    return value


def _bind_names(bits: int) -> str:
    names = [b.name for b in flag_bits(Bind) if bits & b]
    return "|".join(names) if names else "0"


def _check_flags(templ, target: Target, profile) -> None:
    flags = int(templ.flags)
    if templ.nr_sparse_levels or flags & ResourceFlag.SPARSE:
        raise UnsupportedError(
            f"{_field('flags')}: sparse resources are not supported by glpipe (PIPE_CAP_SPARSE_BUFFER_PAGE_SIZE is 0)"
        )
    if flags & ResourceFlag.ENCRYPTED or templ.bind & Bind.PROTECTED:
        raise UnsupportedError(f"{_field('flags')}: protected (encrypted) memory is not supported by glpipe")
    if flags & _PERSISTENT_FLAGS:
        if target != Target.BUFFER:
            raise UnsupportedError(
                f"{_field('flags')}: MAP_PERSISTENT/MAP_COHERENT: GL cannot map textures; "
                f"only buffers can be mapped persistently"
            )
        if not host_has(profile, "buffer_storage"):
            raise UnsupportedError(
                f"{_field('flags')}: MAP_PERSISTENT/MAP_COHERENT need buffer_storage "
                f"(GL 4.4 / ARB_buffer_storage), which the {profile.name} profile lacks"
            )
    unknown = flags & ~int(_HINT_FLAGS | _PERSISTENT_FLAGS | ResourceFlag.SPARSE | ResourceFlag.ENCRYPTED)
    if unknown:
        raise InvalidArgumentError(f"{_field('flags')}: unknown PIPE_RESOURCE_FLAG bits {unknown:#x}")


def _check_shape(templ, target: Target, rule: TargetRule, profile) -> None:
    """height0 / depth0 / array_size as the target requires, and the limits."""
    name = rule.name
    if rule.dims < 2 and templ.height0 != 1:
        raise InvalidArgumentError(
            f"{_field('height0')}: a {name} resource has height0 1, got {templ.height0}"
            + (" (1D array layers go in array_size)" if rule.layered else "")
        )
    if rule.dims < 3 and templ.depth0 != 1:
        hint = " (layers go in array_size)" if rule.layered or rule.faces == 6 else ""
        raise InvalidArgumentError(f"{_field('depth0')}: a {name} resource has depth0 1, got {templ.depth0}{hint}")
    if rule.layered and rule.faces == 6:
        if templ.array_size % 6:
            raise InvalidArgumentError(
                f"{_field('array_size')}: a {name} texture needs a multiple of 6 "
                f"(6 faces per cube), got {templ.array_size}"
            )
    elif rule.faces == 6:
        if templ.array_size != 6:
            raise InvalidArgumentError(
                f"{_field('array_size')}: a {name} texture needs array_size 6, got {templ.array_size}"
            )
    elif not rule.layered and templ.array_size != 1:
        raise InvalidArgumentError(
            f"{_field('array_size')}: a {name} resource has array_size 1, "
            f"got {templ.array_size} (use an ARRAY target for layers)"
        )
    if rule.faces == 6 and templ.width0 != templ.height0:
        raise InvalidArgumentError(
            f"{_field('height0')}: cube faces are square; width0 {templ.width0} != height0 {templ.height0}"
        )

    if rule.size_limit is None:
        if templ.width0 > MAX_BUFFER_SIZE:
            raise InvalidArgumentError(
                f"{_field('width0')}: a buffer holds at most {MAX_BUFFER_SIZE} bytes "
                f"(pipe_resource.width0 is 32-bit), got {templ.width0}"
            )
        return
    limit = int(profile.limit(rule.size_limit))
    for fname in ("width0", "height0", "depth0")[: rule.dims]:
        value = getattr(templ, fname)
        if value > limit:
            raise InvalidArgumentError(
                f"{_field(fname)}: {value} exceeds {rule.size_limit} = {limit} for a {name} texture"
            )
    if rule.layered:
        layers = int(profile.limit("GL_MAX_ARRAY_TEXTURE_LAYERS"))
        if templ.array_size > layers:
            raise InvalidArgumentError(
                f"{_field('array_size')}: {templ.array_size} layers exceed GL_MAX_ARRAY_TEXTURE_LAYERS = {layers}"
            )


def _check_levels_and_samples(templ, rule: TargetRule, samples: int) -> None:
    name = rule.name
    if samples > 1 and rule.gl_target_ms is None:
        raise InvalidArgumentError(
            f"{_field('nr_samples')}: a {name} resource cannot be multisampled "
            f"(only TEXTURE_2D and TEXTURE_2D_ARRAY), got {templ.nr_samples}"
        )
    storage = templ.nr_storage_samples
    if storage > max(1, templ.nr_samples):
        raise InvalidArgumentError(
            f"{_field('nr_storage_samples')}: must be <= nr_samples ({templ.nr_samples}), got {storage}"
        )
    if templ.last_level == 0:
        return
    if not rule.mipmapped:
        raise InvalidArgumentError(
            f"{_field('last_level')}: a {name} resource has no mip levels; last_level must be 0, got {templ.last_level}"
        )
    if samples > 1:
        raise InvalidArgumentError(
            f"{_field('last_level')}: a multisampled texture has no mip levels; "
            f"last_level must be 0, got {templ.last_level}"
        )
    biggest = max((templ.width0, templ.height0, templ.depth0)[: rule.dims])
    top = _log2_floor(biggest)
    if templ.last_level > top:
        raise InvalidArgumentError(
            f"{_field('last_level')}: {templ.last_level} is beyond the mip chain of a "
            f"{biggest}-texel {name} texture (levels 0..{top})"
        )


def _check_format(screen, templ, target: Target, fmt: Format, samples: int, storage_samples: int) -> None:
    """The format must have host storage for the target, every bind flag,
    and the sample count: exactly what is_format_supported answers."""
    support = screen.format_support
    if target == Target.BUFFER:
        # A buffer is bytes.  Gallium frontends pass R8_UNORM ("want
        # TYPELESS", st/mesa); NONE is taken as the same.  A texel view of
        # the buffer names its own format when it is created.
        if fmt == Format.NONE:
            fmt = Format.R8_UNORM
    elif fmt == Format.NONE:
        raise InvalidArgumentError(f"{_field('format')}: a {target.name} texture needs a format, got NONE")
    bind = int(templ.bind)
    desc = format_desc(fmt)
    fname = "PIPE_FORMAT_" + desc.name
    if not is_format_supported(support, fmt, target, 1, 1, 0):
        raise InvalidArgumentError(
            f"{_field('format')}: {fname} cannot be stored as a {target.name} on the {screen.profile.name} profile"
        )
    if not is_format_supported(support, fmt, target, 1, 1, bind):
        failing = 0
        for bit in flag_bits(Bind):
            if bind & bit and not is_format_supported(support, fmt, target, 1, 1, int(bit)):
                failing |= int(bit)
        failing = failing or bind
        raise InvalidArgumentError(
            f"{_field('bind')}: {fname} on {target.name} does not support "
            f"{_bind_names(failing)} (is_format_supported is False)"
        )
    if samples > 1 and not is_format_supported(support, fmt, target, samples, storage_samples, bind):
        raise InvalidArgumentError(
            f"{_field('nr_samples')}: {fname} on {target.name} with bind "
            f"{_bind_names(bind)} does not support {samples} samples "
            f"(storage {storage_samples}) on the {screen.profile.name} profile"
        )


def _validate(screen, templ) -> _Plan:
    """Check ``templ`` (a ResourceTemplate) and decide its storage, or raise
    InvalidArgumentError / UnsupportedError naming the field."""
    target = _enum_field(templ, "target", Target)
    fmt = _enum_field(templ, "format", Format)
    _enum_field(templ, "usage", Usage)
    unknown = int(_enum_field(templ, "bind", Bind)) & ~_ALL_BINDS
    if unknown:
        raise InvalidArgumentError(f"{_field('bind')}: unknown PIPE_BIND bits {unknown:#x}")
    for name in ("width0", "height0", "depth0", "array_size"):
        _int_field(templ, name, 1)
    for name in ("last_level", "nr_samples", "nr_storage_samples", "nr_sparse_levels"):
        _int_field(templ, name, 0)
    profile = screen.profile
    rule = _TARGETS[target]
    if rule.feature is not None and not host_has(profile, rule.feature):
        raise UnsupportedError(
            f"{_field('target')}: {rule.name} needs the host feature {rule.feature!r}, "
            f"which the {profile.name} profile lacks"
        )
    _check_flags(templ, target, profile)
    _check_shape(templ, target, rule, profile)
    samples = max(1, templ.nr_samples)
    # nr_storage_samples 0 means "as many as nr_samples" (a template that
    # only sets nr_samples, as the Python defaults invite).
    storage_samples = max(1, templ.nr_storage_samples or templ.nr_samples)
    _check_levels_and_samples(templ, rule, samples)
    _check_format(screen, templ, target, fmt, samples, storage_samples)

    gl = screen.host.gl
    if target == Target.BUFFER:
        return _Plan(
            rule, rule.gl_target, int(getattr(gl, rule.gl_target)), None, host_has(profile, "buffer_storage"), 1
        )
    storage = host_storage(fmt, screen.format_support)
    if samples > 1:
        immutable = host_has(profile, "texture_storage") and host_has(profile, _MS_STORAGE_FEATURE)
        return _Plan(rule, rule.gl_target_ms, int(getattr(gl, rule.gl_target_ms)), storage, immutable, samples)
    return _Plan(
        rule, rule.gl_target, int(getattr(gl, rule.gl_target)), storage, host_has(profile, "texture_storage"), 1
    )


# --------------------------------------------------------------------------
# GL allocation (GL thread only)
# --------------------------------------------------------------------------

_raw_entry_points: dict | None = None


def _raw() -> dict:
    """PyOpenGL's unwrapped glTexImage* / glCompressedTexImage* (keys 1, 2, 3
    and "c1", "c2", "c3"): there a NULL pointer means "allocate only", while
    the wrapped compressed ones insist on sizing a data array.  Imported on
    first use, after glpipe.host.gl chose PyOpenGL's platform."""
    global _raw_entry_points
    if _raw_entry_points is None:
        from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_2, GL_1_3

        _raw_entry_points = {
            1: GL_1_0.glTexImage1D,
            2: GL_1_0.glTexImage2D,
            3: GL_1_2.glTexImage3D,
            "c1": GL_1_3.glCompressedTexImage1D,
            "c2": GL_1_3.glCompressedTexImage2D,
            "c3": GL_1_3.glCompressedTexImage3D,
        }
    return _raw_entry_points


def _describe(templ) -> str:
    """``TEXTURE_2D R8G8B8A8_UNORM 64x64`` - the template in error messages."""
    target = Target(templ.target)
    fmt = Format(templ.format)
    if target == Target.BUFFER:
        return f"BUFFER {templ.width0} bytes"
    rule = _TARGETS[target]
    size = "x".join(str(v) for v in (templ.width0, templ.height0, templ.depth0)[: rule.dims])
    if rule.layered:
        size += f"[{templ.array_size}]"
    extra = ""
    if templ.last_level:
        extra += f" levels 0..{templ.last_level}"
    if templ.nr_samples > 1:
        extra += f" {templ.nr_samples}x MSAA"
    return f"{target.name} {fmt.name} {size}{extra}"


def _level_extent(templ, rule: TargetRule, level: int) -> tuple:
    """(width, height, depth) of the GL image at ``level``: layers (and
    cube-array layer-faces) stay constant, spatial sizes minify."""
    w = u_minify(templ.width0, level)
    if rule.dims >= 2:
        h = u_minify(templ.height0, level)
    else:
        h = templ.array_size if rule.layered else 1
    if rule.dims == 3:
        d = u_minify(templ.depth0, level)
    else:
        d = templ.array_size if rule.layered and rule.dims == 2 else 1
    return w, h, d


def _alloc_buffer(host, templ, plan: _Plan, name: int) -> None:
    """Give buffer ``name`` its storage."""
    gl = host.gl
    size = int(templ.width0)
    prev = int(gl.glGetIntegerv(gl.GL_COPY_WRITE_BUFFER_BINDING))
    # GL_COPY_WRITE_BUFFER: a binding point no draw state depends on (the
    # array-buffer binding is not VAO state either, but the context may
    # shadow it).
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, name)
    try:
        usage = Usage(templ.usage)
        if plan.immutable:
            bits = gl.GL_DYNAMIC_STORAGE_BIT | gl.GL_MAP_READ_BIT | gl.GL_MAP_WRITE_BIT
            if usage in _CLIENT_STORAGE_USAGES:
                bits |= gl.GL_CLIENT_STORAGE_BIT
            # Every immutable buffer can be mapped persistently: transfer_map
            # hands out views of that one mapping (glpipe/transfer_gl.py
            # persistent_map), no staging copy.  Coherent unless the
            # template asks for a non-coherent persistent buffer (whose
            # writes then need transfer_flush_region / memory_barrier).
            bits |= gl.GL_MAP_PERSISTENT_BIT
            if not coherent_storage_refused(templ.flags):
                bits |= gl.GL_MAP_COHERENT_BIT
            gl.glBufferStorage(gl.GL_COPY_WRITE_BUFFER, size, None, bits)
        else:
            gl.glBufferData(gl.GL_COPY_WRITE_BUFFER, size, None, getattr(gl, _BUFFER_DATA_USAGE[usage]))
    finally:
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, prev)


def _alloc_texture(host, templ, plan: _Plan, name: int) -> None:
    """Give texture ``name`` its storage: every level, layer and face."""
    gl = host.gl
    rule, target, hf = plan.rule, plan.gl_target, plan.storage
    levels = templ.last_level + 1
    ifmt = hf.internal_format
    prev_active = int(gl.glGetIntegerv(gl.GL_ACTIVE_TEXTURE))
    # ModernGL's scratch unit: never a Gallium sampler slot, and ModernGL
    # rebinds it before each of its own texture operations.
    gl.glActiveTexture(gl.GL_TEXTURE0 + host.scratch_texture_unit)
    # GL_TEXTURE_X's binding query is GL_TEXTURE_BINDING_X.
    prev_tex = int(gl.glGetIntegerv(getattr(gl, plan.gl_target_name.replace("GL_TEXTURE_", "GL_TEXTURE_BINDING_"))))
    prev_unpack = None
    gl.glBindTexture(target, name)
    try:
        w, h, d = _level_extent(templ, rule, 0)
        if plan.samples > 1:
            if plan.immutable:
                if rule.layered:
                    gl.glTexStorage3DMultisample(target, plan.samples, ifmt, w, h, d, gl.GL_TRUE)
                else:
                    gl.glTexStorage2DMultisample(target, plan.samples, ifmt, w, h, gl.GL_TRUE)
            elif rule.layered:
                gl.glTexImage3DMultisample(target, plan.samples, ifmt, w, h, d, gl.GL_TRUE)
            else:
                gl.glTexImage2DMultisample(target, plan.samples, ifmt, w, h, gl.GL_TRUE)
        elif plan.immutable:
            storage_call = {1: gl.glTexStorage1D, 2: gl.glTexStorage2D, 3: gl.glTexStorage3D}[rule.gl_dims]
            storage_call(target, levels, ifmt, *(w, h, d)[: rule.gl_dims])
        else:
            # glTexImage* with a NULL pointer reads from a bound pixel-unpack
            # buffer at offset 0: unbind it while allocating.
            prev_unpack = int(gl.glGetIntegerv(gl.GL_PIXEL_UNPACK_BUFFER_BINDING))
            if prev_unpack:
                gl.glBindBuffer(gl.GL_PIXEL_UNPACK_BUFFER, 0)
            _specify_levels(host, templ, plan)
            gl.glTexParameteri(target, gl.GL_TEXTURE_BASE_LEVEL, 0)
            gl.glTexParameteri(target, gl.GL_TEXTURE_MAX_LEVEL, templ.last_level)
    finally:
        gl.glBindTexture(target, prev_tex)
        gl.glActiveTexture(prev_active)
        if prev_unpack:
            gl.glBindBuffer(gl.GL_PIXEL_UNPACK_BUFFER, prev_unpack)


def _specify_levels(host, templ, plan: _Plan) -> None:
    """glTexImage* (or glCompressedTexImage*) for every level and face of the
    bound mutable texture."""
    raw = _raw()
    gl = host.gl
    rule, hf = plan.rule, plan.storage
    fmt = Format(templ.format)
    dims = rule.gl_dims
    images = (
        [gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face for face in range(6)]
        if rule.faces == 6 and not rule.layered
        else [plan.gl_target]
    )
    blocksize = util_format_get_blocksize(fmt) if hf.compressed else 0
    for level in range(templ.last_level + 1):
        extent = _level_extent(templ, rule, level)
        args = extent[:dims]
        if hf.compressed:
            w, h, d = extent
            # Layers are whole images; only a 3D texture's depth is blocked.
            slices = util_format_get_nblocksz(fmt, d) if rule.dims == 3 else d
            size = util_format_get_nblocksx(fmt, w) * util_format_get_nblocksy(fmt, h) * slices * blocksize
            for image in images:
                raw[f"c{dims}"](image, level, hf.internal_format, *args, 0, size, None)
        else:
            for image in images:
                raw[dims](image, level, hf.internal_format, *args, 0, hf.gl_format, hf.gl_type, None)


def _allocate(res: Resource, host) -> int:
    """Make the GL object of ``res`` through ``host`` (a GL context of the
    screen's share group current on the calling thread; screen lock held);
    a GL error deletes the half-made object and raises HostGLError."""
    host.make_current()
    # Errors pending now were left by someone else (ModernGL, the caller's
    # raw GL); they must not be blamed on this allocation.
    host.clear_errors()
    is_buffer = res.target == Target.BUFFER
    gl = host.gl
    name = int(gl.glGenBuffers(1) if is_buffer else gl.glGenTextures(1))
    try:
        (_alloc_buffer if is_buffer else _alloc_texture)(host, res._templ, res._plan, name)
        host.check(f"resource_create({_describe(res._templ)})")
        if res.screen._thread_hosts:
            # Several GL contexts share the screen's objects: a new object is
            # defined for the others once the creating context has flushed
            # (GL 4.5 appendix D.3.1), and a screen's resource is every
            # context's from the start.
            gl.glFlush()
    except BaseException:
        _delete_now(host, [("buffer" if is_buffer else "texture", name)])
        host.clear_errors()
        raise
    return name


def _delete_now(host, objects) -> None:
    """Delete GL objects (list of ("buffer" | "texture", name)) on the GL thread."""
    delete_now(host, objects)


def pending_deletions(host) -> int:
    """How many resources' GL objects (buffers, textures) wait for deletion
    on ``host``'s GL thread (destroyed off it, or dropped)."""
    return _pending(host, ("buffer", "texture"))


def _track(res: Resource, name: int) -> None:
    """``res`` now owns GL object ``name``: dropped unreferenced without
    resource_destroy, its finalizer queues the deletion for the GL thread
    (glpipe/lifetime.py; no __del__, so nothing is resurrected), and the
    screen counts it live until then (``Screen.live_resources``)."""
    kind = "buffer" if res.target == Target.BUFFER else "texture"
    host = res._screen.host
    res._finalizer = weakref.finalize(res, defer_delete, host, kind, name)
    res._screen._resources.add(res)


# --------------------------------------------------------------------------
# Resource
# --------------------------------------------------------------------------

_TEMPLATE_FIELDS = tuple(f.name for f in fields(ResourceTemplate))


class Resource:
    """pipe_resource: a buffer or texture on the host GL.

    The C fields of pipe_resource (``target``, ``format``, ``width0``, ...,
    ``bind``, ``flags``) and ``screen`` are read-only attributes; glpipe adds
    ``gl_object``, ``gl_target``, ``storage``, ``immutable``, ``generation``
    (bumped by resource_changed) and ``destroyed``.
    """

    # The pipe_resource fields: read-only properties over the template, made by
    # the loop after the class (annotated here so type checkers see them).
    target: Target
    format: Format
    width0: int
    height0: int
    depth0: int
    array_size: int
    last_level: int
    nr_samples: int
    nr_storage_samples: int
    nr_sparse_levels: int
    usage: Usage
    bind: Bind
    flags: ResourceFlag

    def __init__(self, screen, templ: ResourceTemplate, plan: _Plan):
        self._screen = screen
        self._templ = templ
        self._plan = plan
        self._gl_object: int | None = None
        # (base level, max level, swizzle) glpipe last set on the GL texture
        # for a gl33 sampler view (glpipe/sampler_views.py); None: unknown.
        self._gl_params: tuple | None = None
        self._destroyed = False
        self._screen_gone = False  # destroyed by Screen.destroy, not resource_destroy
        self._finalizer: weakref.finalize | None = None  # made with the GL object (_track)
        self.generation = 0
        self._compressed_shadow: Shadow | None = None
        # The whole buffer mapped persistently (glpipe/transfer_gl.py
        # persistent_map); None until a PERSISTENT transfer_map.
        self._persistent_map: np.ndarray | None = None
        self._persistent_ro: Any = None  # its read-only twin (an ndarray once mapped; READ maps)

    # -- glpipe's fields ---------------------------------------------------

    @property
    def screen(self) -> Any:  # a Screen (glpipe/screen.py imports this module: no import back)
        """The Screen that made this resource."""
        return self._screen

    @property
    def template(self) -> ResourceTemplate:
        """The template this resource was made from."""
        return self._templ

    @property
    def gl_target(self) -> int:
        """The GL target the object is bound to (GL_ARRAY_BUFFER for buffers)."""
        return self._plan.gl_target

    @property
    def storage(self) -> HostFormat | None:
        """The host storage record (formats.HostFormat) of a texture; None for a buffer."""
        return self._plan.storage

    @property
    def immutable(self) -> bool:
        """Whether the GL storage is immutable (glTexStorage* / glBufferStorage)."""
        return self._plan.immutable

    @property
    def destroyed(self) -> bool:
        """True after resource_destroy."""
        return self._destroyed

    @property
    def has_storage(self) -> bool:
        """Whether the GL object exists yet (False while allocation is pending)."""
        return self._gl_object is not None

    @property
    def gl_object(self) -> int:
        """The GL buffer or texture name, allocated now if still pending.

        Only on the GL thread: elsewhere a pending resource raises
        HostGLError rather than touching GL.  Destroyed: ObjectDestroyedError.
        """
        name = self._gl_object
        if name is not None and not self._destroyed:
            return name
        return self.ensure_storage()

    def ensure_storage(self) -> int:
        """Allocate the GL object if it is still pending (GL thread only);
        return its name."""
        self.check_alive("Resource.gl_object")
        if self._gl_object is not None:
            return self._gl_object
        screen_host = self._screen.host
        # The screen's GL context, or the share group's GL context of this
        # thread if pipe contexts were made here (glpipe/host/egl_share.py).
        host = self._screen._host_here()
        if host is None:
            raise HostGLError(
                f"Resource.gl_object: the GL storage of {self!r} is allocated on the GL thread "
                f"({screen_host.gl_thread}) or a thread with a live pipe context of the screen only; "
                f"this is thread {threading.get_ident()}"
            )
        if screen_host.released:
            raise HostGLError("Resource.gl_object: the screen's host GL context was released")
        with screen_host.lock:
            self.check_alive("Resource.gl_object")
            if self._gl_object is None:
                drain_deferred(host)
                self._gl_object = _allocate(self, host)
                _track(self, self._gl_object)
            return self._gl_object

    def check_alive(self, what: str) -> None:
        """Raise ObjectDestroyedError naming ``what`` if the resource, or its
        screen, was destroyed."""
        if self._destroyed:
            if self._screen_gone:
                raise ObjectDestroyedError(f"{what}: the resource's screen was destroyed")
            raise ObjectDestroyedError(f"{what}: resource was destroyed")

    def _screen_destroyed(self) -> None:
        """Screen.destroy: the host GL context (and the GL object with it) is
        gone; every later use raises ObjectDestroyedError naming the screen."""
        self._destroyed = self._screen_gone = True
        self._gl_object = None
        if self._finalizer is not None:
            self._finalizer.detach()

    @property
    def compressed_shadow(self) -> Shadow | None:
        """For a compressed format the host stores decoded: the
        fallback.compressed.Shadow holding the bytes the application wrote
        (made on first use); None for every other resource."""
        if (
            self._compressed_shadow is None
            and self._plan.storage is not None
            and host_decodes(format_desc(self._templ.format), self._plan.storage)
        ):
            from fallback.compressed import Shadow

            self._compressed_shadow = Shadow(
                self._templ.format, [self.level_extent(lv) for lv in range(self._templ.last_level + 1)]
            )
        return self._compressed_shadow

    def level_extent(self, level: int) -> tuple:
        """(width, height, depth) of mip ``level`` as Gallium boxes see it:
        depth is the 3D depth, else array_size (layers; 6 per cube)."""
        t, dims = self._templ, self._plan.rule.dims
        if not 0 <= int(level) <= t.last_level:
            raise InvalidArgumentError(f"level_extent: level {level} out of range 0..{t.last_level}")
        return (
            u_minify(t.width0, level),
            u_minify(t.height0, level) if dims >= 2 else 1,
            u_minify(t.depth0, level) if dims == 3 else t.array_size,
        )

    def __repr__(self) -> str:
        state = (
            "destroyed"
            if self._destroyed
            else (f"gl={self._gl_object}" if self._gl_object is not None else "storage pending")
        )
        kind = "immutable" if self.immutable else "mutable"
        return f"<glpipe.Resource {_describe(self._templ)} {kind} {state}>"


def _template_property(name: str):
    return property(lambda self: getattr(self._templ, name), doc=f"pipe_resource.{name} (read-only).")


for _name in _TEMPLATE_FIELDS:
    setattr(Resource, _name, _template_property(_name))
del _name


# --------------------------------------------------------------------------
# pipe_screen entry points
# --------------------------------------------------------------------------


def resource_can_create(screen, templ) -> bool:
    """Whether ``resource_create(screen, templ)`` would succeed, without
    allocating anything.  False for any invalid or unsupported template;
    InvalidArgumentError only when ``templ`` is not a ResourceTemplate."""
    _require_template(templ, "can_create_resource")
    try:
        _validate(screen, templ)
    except (InvalidArgumentError, UnsupportedError):
        return False
    return True


def resource_create(screen, templ) -> Resource:
    """A new Resource for ``templ``.

    On the GL thread the GL object is made now (a GL failure deletes it and
    raises HostGLError); on any other thread it is made on the GL thread at
    first use (see the module docstring).  A bad template raises
    InvalidArgumentError, one this host profile cannot do UnsupportedError,
    both naming the field.
    """
    _require_template(templ, "resource_create")
    plan = _validate(screen, templ)
    res = Resource(screen, templ, plan)
    host = screen._host_here()  # None: no GL on this thread, allocated at first use
    if host is not None:
        with screen.host.lock:
            drain_deferred(host)
            res._gl_object = _allocate(res, host)
            _track(res, res._gl_object)
    return res


def resource_destroy(screen, res) -> None:
    """Free ``res``'s GL object (now on the GL thread, else at the next
    drain); any further use raises ObjectDestroyedError."""
    if not isinstance(res, Resource):
        raise InvalidArgumentError(f"resource_destroy: expected a Resource, got {type(res).__name__}")
    if res.screen is not screen:
        raise InvalidArgumentError(f"resource_destroy: {res!r} belongs to another screen")
    host = screen.host
    with host.lock:
        res.check_alive("resource_destroy")
        res._destroyed = True
        name, res._gl_object = res._gl_object, None
        if res._finalizer is not None:
            res._finalizer.detach()  # deleted here, not when dropped
        screen._resources.discard(res)
        mapping, res._persistent_map = res._persistent_map, None
        mapping_ro, res._persistent_ro = res._persistent_ro, None
        screen.epochs.resources_destroyed += 1  # VAO caches recheck (glpipe/screen.py Epochs)
        if name is None or host.released:
            return  # never allocated, or the context (and its objects) is gone
        kind = "buffer" if res.target == Target.BUFFER else "texture"
        if mapping is not None and (persistent_views_alive(mapping, 1) or persistent_views_alive(mapping_ro, 1)):
            # A view of the persistent mapping is alive: keep the storage
            # until it is gone (glpipe/transfer_gl.py hold_mapped).
            hold_mapped(host, name, mapping, mapping_ro)
            return
        here = screen._host_here()  # shared objects: any GL context of the group deletes them
        if here is not None:
            drain_deferred(here)
            here.make_current()
            _delete_now(here, [(kind, name)])
        else:
            defer_delete(host, kind, name)


__all__ = [
    "Resource",
    "TargetRule",
    "MAX_BUFFER_SIZE",
    "resource_create",
    "resource_can_create",
    "resource_destroy",
    "drain_deferred",
    "pending_deletions",
    "u_minify",
]
