"""Gallium's state templates (p_state.h) as frozen, keyword-constructible dataclasses.

Names are the C struct names in CamelCase without ``pipe_``, fields the C
field names.  Defaults, normalisation on construction, C arrays as tuples,
flattened unions and hashing follow the rules of docs/api.md "Templates and
their defaults", whose table is checked against this module.
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
from enum import Enum, Flag
from numbers import Integral, Number, Real
from typing import Any, TypeVar, dataclass_transform

from glpipe.boundary import C_RANGES, show
from glpipe.enums import (
    PIPE_MAX_CLIP_PLANES,
    PIPE_MAX_COLOR_BUFS,
    PIPE_MAX_SO_BUFFERS,
    PIPE_MAX_SO_OUTPUTS,
    PIPE_MAX_WINDOW_RECTANGLES,
    Bind,
    Blend,
    BlendFactor,
    ConservativeRaster,
    Face,
    Func,
    ImageAccess,
    LogicOp,
    Mask,
    PolygonMode,
    Prim,
    ResourceFlag,
    ShaderIR,
    SpriteCoord,
    StencilOp,
    Swizzle,
    Target,
    TexCompare,
    TexFilter,
    TexMipFilter,
    TexReduction,
    TexWrap,
    Usage,
    ViewportSwizzle,
)
from glpipe.errors import InvalidArgumentError
from glpipe.formats import Format

_FORMAT_NONE = Format.NONE

__all__ = [
    "BlendState",
    "RTBlendState",
    "RasterizerState",
    "DepthStencilAlphaState",
    "StencilState",
    "SamplerState",
    "SamplerViewTemplate",
    "SurfaceTemplate",
    "ImageView",
    "ShaderBuffer",
    "ConstantBuffer",
    "VertexElement",
    "VertexBuffer",
    "FramebufferState",
    "ViewportState",
    "ScissorState",
    "ClipState",
    "PolyStipple",
    "StencilRef",
    "Box",
    "ResourceTemplate",
    "DrawInfo",
    "DrawStartCountBias",
    "DrawIndirectInfo",
    "GridInfo",
    "BlitSide",
    "BlitInfo",
    "ShaderState",
    "ComputeState",
    "StreamOutputInfo",
    "StreamOutput",
    "SOStatistics",
    "PipelineStatistics",
    "TimestampDisjoint",
]

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def _template(cls: type[_T]) -> type[_T]:
    """A frozen, keyword-constructible dataclass (equality and hashing are
    ``_Template``'s).  Its constructor raises InvalidArgumentError, not
    Python's TypeError, for an unknown field or a positional excess
    (``ResourceTemplate(bogus=1)``): the templates are the boundary's input."""
    cls = dataclasses.dataclass(frozen=True, eq=False)(cls)
    generated = cls.__init__

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        try:
            generated(self, *args, **kwargs)
        except TypeError as exc:
            raise InvalidArgumentError(f"{cls.__name__}: {exc}") from None

    __init__.__doc__ = generated.__doc__
    __init__.__signature__ = inspect.signature(generated)  # type: ignore[attr-defined]
    setattr(cls, "__init__", __init__)  # noqa: B010 - mypy refuses assigning to a method
    return cls


def _as_bool(value: Any):
    """``value`` as a bool if it is one (or the number 0 or 1, numpy included), else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, Number) or getattr(value, "shape", None) == ():
        if value == 0:
            return False
        if value == 1:
            return True
    return None


def _as_float(value: Any, where: str) -> float:
    """A C float/double field: an integer too large for a double is refused
    (Python's float() would raise OverflowError)."""
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgumentError(f"{where}: {show(value)} does not fit a double") from None


def _is_user_memory(obj: Any) -> bool:
    """Whether ``obj`` is user memory (supports the buffer protocol), not a Resource."""
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


class _Template:
    """Shared normalisation, equality and hashing of every template."""

    #: Arrays C pairs with a count: field -> (count field, element type, maximum).
    _counted: dict = {}
    #: Tuple fields whose elements stay int or float as given (colours).
    _numeric_tuples: frozenset = frozenset()
    #: The C type of each integer field narrower or wider than ``unsigned``
    #: (p_state.h): a C_RANGES key or an inclusive (low, high) for bitfields.
    #: An integer field not listed is ``unsigned`` (uint32).
    _c_types: dict = {}
    #: Flag fields allowed fewer bits than their enum has: field -> mask.
    _flag_limits: dict = {}

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]  # every subclass is a @_template dataclass
            value = getattr(self, f.name)
            if f.name in self._counted:
                new = self._normalise_counted(f.name, value)
            else:
                new = self._normalise(f.name, value, _default_of(f))
            if new is not value:
                object.__setattr__(self, f.name, new)

    # -- normalisation -------------------------------------------------------

    def _where(self, name: str) -> str:
        return f"{type(self).__name__}.{name}"

    def _normalise(self, name: str, value: Any, default: Any) -> Any:
        """``value`` converted to the kind of thing ``default`` is, or an error."""
        if default is None:  # a reference: Resource, Surface, user memory, ...
            return value
        if isinstance(default, tuple):
            return self._normalise_tuple(name, value, default)
        if isinstance(default, Enum):
            return self._enum_value(name, value, default)
        if isinstance(default, bool):
            flag = _as_bool(value)
            if flag is None:
                raise InvalidArgumentError(f"{self._where(name)}: expected a bool, got {show(value)}")
            return flag
        if isinstance(default, int):
            if isinstance(value, bool) or isinstance(value, float):
                raise InvalidArgumentError(f"{self._where(name)}: expected an integer, got {show(value)}")
            try:
                value = operator.index(value)
            except TypeError:
                raise InvalidArgumentError(f"{self._where(name)}: expected an integer, got {show(value)}") from None
            return self._in_c_range(name, value)
        if isinstance(default, float):
            if isinstance(value, Real) and not isinstance(value, bool):
                return _as_float(value, self._where(name))
            raise InvalidArgumentError(f"{self._where(name)}: expected a number, got {show(value)}")
        if isinstance(default, str):
            if isinstance(value, str):
                return value
            raise InvalidArgumentError(f"{self._where(name)}: expected text, got {show(value)}")
        if isinstance(value, type(default)):  # a nested template
            return value
        raise InvalidArgumentError(f"{self._where(name)}: expected {type(default).__name__}, got {show(value)}")

    def _in_c_range(self, name: str, value: int) -> int:
        """``value`` inside the C type of field ``name`` (``_c_types``; an
        array element ``stipple[3]`` takes its array's), refused otherwise:
        nothing is truncated to the C width later (p_state.h)."""
        ctype = self._c_types.get(name.partition("[")[0], "uint32")
        low, high = C_RANGES[ctype] if isinstance(ctype, str) else ctype
        if not low <= value <= high:
            kind = ctype if isinstance(ctype, str) else "its bitfield"
            raise InvalidArgumentError(f"{self._where(name)}: {show(value)} is outside {kind} [{low}, {high}]")
        return value

    def _enum_value(self, name: str, value: Any, default: Enum) -> Any:
        """``value`` as a member of ``default``'s enum; for a flag enum, a
        combination of its bits (an unknown bit is refused, not kept: Mask's
        Z and S are not colormask bits, ``_flag_limits``)."""
        cls = type(default)
        if isinstance(value, bool) or not isinstance(value, (Integral, Enum)):
            if not isinstance(value, str):
                raise InvalidArgumentError(f"{self._where(name)}: {show(value)} is not a valid {cls.__name__}")
        try:
            member = cls(value)
        except (ValueError, TypeError):
            raise InvalidArgumentError(f"{self._where(name)}: {show(value)} is not a valid {cls.__name__}") from None
        if isinstance(member, Flag):
            allowed = self._flag_limits.get(name.partition("[")[0])
            if allowed is None:
                allowed = 0
                for bit in cls:
                    allowed |= int(bit.value)
            bits = member.value
            if bits < 0 or bits & ~allowed:
                unknown = show(bits) if bits < 0 or bits.bit_length() > 128 else f"{bits & ~allowed:#x}"
                raise InvalidArgumentError(
                    f"{self._where(name)}: bits {unknown} are not {cls.__name__} bits allowed here ({allowed:#x})"
                )
        return member

    def _normalise_tuple(self, name: str, value: Any, default: tuple) -> tuple:
        """A C array: pad a short sequence from ``default``, reject a long one."""
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
            raise InvalidArgumentError(
                f"{self._where(name)}: expected a sequence of up to {len(default)}, got {show(value)}"
            )
        items = list(value)
        if len(items) > len(default):
            raise InvalidArgumentError(
                f"{self._where(name)}: {len(items)} entries given, at most {len(default)} allowed"
            )
        items += default[len(items) :]
        if name in self._numeric_tuples:
            for item in items:
                if isinstance(item, bool) or not isinstance(item, Real):
                    raise InvalidArgumentError(f"{self._where(name)}: {show(item)} is not a number")
                # A colour's integer channels are int32 or uint32 (pipe_color_union).
                if isinstance(item, Integral) and not C_RANGES["int32"][0] <= int(item) <= C_RANGES["uint32"][1]:
                    raise InvalidArgumentError(
                        f"{self._where(name)}: {show(item)} does not fit in 32 bits (int32 or uint32)"
                    )
            return tuple(int(i) if isinstance(i, Integral) else _as_float(i, self._where(name)) for i in items)
        return tuple(self._normalise(f"{name}[{i}]", item, default[i]) for i, item in enumerate(items))

    def _normalise_counted(self, name: str, value: Any) -> tuple:
        """An array C pairs with a count field: keep its length, derive the count."""
        count_name, elem_type, maximum = self._counted[name]
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
            raise InvalidArgumentError(f"{self._where(name)}: expected a sequence, got {show(value)}")
        items = tuple(value)
        if len(items) > maximum:
            raise InvalidArgumentError(f"{self._where(name)}: {len(items)} entries given, at most {maximum} allowed")
        for i, item in enumerate(items):
            if not isinstance(item, elem_type):
                raise InvalidArgumentError(f"{self._where(name)}[{i}]: expected {elem_type.__name__}, got {show(item)}")
        count = getattr(self, count_name)
        if count is None:
            object.__setattr__(self, count_name, len(items))
        else:
            count = self._normalise(count_name, count, 0)
            if not 0 <= count <= len(items):
                raise InvalidArgumentError(f"{self._where(count_name)}: {count} but {len(items)} {name} given")
            object.__setattr__(self, count_name, count)
        return items

    # -- equality and hashing --------------------------------------------------
    # Templates are frozen, so the comparison key and its hash are computed on
    # first use and kept on the instance (``_key_cache`` / ``_hash_cache``
    # shadow the class-level None): set_* calls compare the new template with
    # the bound one on every call, and CSO caches hash them, which would
    # otherwise walk ``dataclasses.fields`` each time.  Computed lazily, not
    # in __post_init__, because subclasses finish normalising after it.

    _key_cache = None
    _hash_cache = None

    def _key(self) -> tuple:
        """Field values, with references (None-default fields) replaced by identity."""
        key = self._key_cache
        if key is None:
            key = tuple(
                ("<ref>", id(value)) if is_ref and value is not None else value
                for name, is_ref in _key_plan(type(self))
                for value in (getattr(self, name),)
            )
            object.__setattr__(self, "_key_cache", key)
        return key

    def __eq__(self, other: Any) -> bool:
        if other is self:
            return True
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash_cache
        if h is None:
            h = hash((type(self).__name__, self._key()))
            object.__setattr__(self, "_hash_cache", h)
        return h

    def __getstate__(self) -> dict:
        # Copies and pickles drop the caches: a deep copy's references are new
        # objects, so a kept key would still name the old ones' identities.
        state = dict(self.__dict__)
        for name in _CACHE_ATTRS:
            state.pop(name, None)
        return state


# Per-instance caches a template may carry (see _Template's equality section
# and DrawInfo): never copied.
_CACHE_ATTRS = ("_key_cache", "_hash_cache", "_draw_cache")


_KEY_PLANS: dict = {}


def _key_plan(cls) -> tuple:
    """(field name, compared by identity) per field of template class ``cls``, in order."""
    plan = _KEY_PLANS.get(cls)
    if plan is None:
        plan = _KEY_PLANS[cls] = tuple(
            (f.name, _default_of(f) is None and f.name not in _COUNT_FIELDS) for f in dataclasses.fields(cls)
        )
    return plan


# Fields whose None default means "derive me", not "a reference".
_COUNT_FIELDS = frozenset({"nr_cbufs", "num_outputs", "num_window_rectangles", "is_user_buffer", "has_user_indices"})


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


# ---------------------------------------------------------------------------
# Blend, depth/stencil/alpha, rasterizer
# ---------------------------------------------------------------------------


@_template
class RTBlendState(_Template):
    """struct pipe_rt_blend_state: blending of one render target.

    The factors default to GL's ONE / ZERO (Gallium has no factor 0).
    """

    # colormask:4 is PIPE_MASK_R/G/B/A only: Z and S are blit bits.
    _flag_limits = {"colormask": 0xF}

    blend_enable: bool = False
    rgb_func: Blend = Blend.ADD
    rgb_src_factor: BlendFactor = BlendFactor.ONE
    rgb_dst_factor: BlendFactor = BlendFactor.ZERO
    alpha_func: Blend = Blend.ADD
    alpha_src_factor: BlendFactor = BlendFactor.ONE
    alpha_dst_factor: BlendFactor = BlendFactor.ZERO
    colormask: Mask = Mask.RGBA  # docs/api.md: zero would silently write nothing


@_template
class BlendState(_Template):
    """struct pipe_blend_state (rt: up to PIPE_MAX_COLOR_BUFS RTBlendState)."""

    _c_types = {"max_rt": (0, 7), "advanced_blend_func": (0, 15)}

    independent_blend_enable: bool = False
    logicop_enable: bool = False
    logicop_func: LogicOp = LogicOp.CLEAR
    dither: bool = False
    alpha_to_coverage: bool = False
    alpha_to_coverage_dither: bool = False
    alpha_to_one: bool = False
    max_rt: int = 0
    advanced_blend_func: int = 0
    blend_coherent: bool = False
    rt: tuple = (RTBlendState(),) * PIPE_MAX_COLOR_BUFS


@_template
class StencilState(_Template):
    """struct pipe_stencil_state: one face's stencil test."""

    _c_types = {"valuemask": "uint8", "writemask": "uint8"}

    enabled: bool = False
    func: Func = Func.NEVER
    fail_op: StencilOp = StencilOp.KEEP
    zpass_op: StencilOp = StencilOp.KEEP
    zfail_op: StencilOp = StencilOp.KEEP
    valuemask: int = 0
    writemask: int = 0


@_template
class DepthStencilAlphaState(_Template):
    """struct pipe_depth_stencil_alpha_state (stencil: (front, back))."""

    stencil: tuple = (StencilState(), StencilState())
    alpha_enabled: bool = False
    alpha_func: Func = Func.NEVER
    depth_enabled: bool = False
    depth_writemask: bool = False
    depth_func: Func = Func.NEVER
    depth_bounds_test: bool = False
    alpha_ref_value: float = 0.0
    depth_bounds_min: float = 0.0
    depth_bounds_max: float = 0.0


@_template
class RasterizerState(_Template):
    """struct pipe_rasterizer_state (bitfields as bools/ints with the C names)."""

    _c_types = {
        "subpixel_precision_x": (0, 15),
        "subpixel_precision_y": (0, 15),
        "clip_plane_enable": "uint8",
        "line_stipple_factor": "uint8",
        "line_stipple_pattern": "uint16",
        "sprite_coord_enable": "uint16",
    }

    flatshade: bool = False
    light_twoside: bool = False
    clamp_vertex_color: bool = False
    clamp_fragment_color: bool = False
    front_ccw: bool = False
    cull_face: Face = Face.NONE
    fill_front: PolygonMode = PolygonMode.FILL
    fill_back: PolygonMode = PolygonMode.FILL
    offset_point: bool = False
    offset_line: bool = False
    offset_tri: bool = False
    scissor: bool = False
    poly_smooth: bool = False
    poly_stipple_enable: bool = False
    point_smooth: bool = False
    sprite_coord_mode: SpriteCoord = SpriteCoord.UPPER_LEFT
    point_quad_rasterization: bool = False
    point_line_tri_clip: bool = False
    point_size_per_vertex: bool = False
    multisample: bool = False
    no_ms_sample_mask_out: bool = False
    force_persample_interp: bool = False
    line_smooth: bool = False
    line_stipple_enable: bool = False
    line_last_pixel: bool = False
    line_rectangular: bool = False
    conservative_raster_mode: ConservativeRaster = ConservativeRaster.OFF
    flatshade_first: bool = False
    half_pixel_center: bool = True  # docs/api.md: GL's pixel centres
    bottom_edge_rule: bool = False
    subpixel_precision_x: int = 0
    subpixel_precision_y: int = 0
    rasterizer_discard: bool = False
    tile_raster_order_fixed: bool = False
    tile_raster_order_increasing_x: bool = False
    tile_raster_order_increasing_y: bool = False
    depth_clip_near: bool = True  # docs/api.md: GL clips depth by default
    depth_clip_far: bool = True
    depth_clamp: bool = False
    clip_halfz: bool = False
    offset_units_unscaled: bool = False
    unclamped_fragment_depth_values: bool = False
    clip_plane_enable: int = 0
    representative_fragment_test: bool = False
    line_stipple_factor: int = 0
    line_stipple_pattern: int = 0
    sprite_coord_enable: int = 0
    line_width: float = 0.0
    point_size: float = 0.0
    offset_units: float = 0.0
    offset_scale: float = 0.0
    offset_clamp: float = 0.0
    conservative_raster_dilate: float = 0.0


# ---------------------------------------------------------------------------
# Non-CSO state
# ---------------------------------------------------------------------------


@_template
class PolyStipple(_Template):
    """struct pipe_poly_stipple: 32 rows of a 32x32 pattern."""

    stipple: tuple = (0,) * 32


@_template
class ViewportState(_Template):
    """struct pipe_viewport_state.

    The swizzles default to the identity (x, y, z, w): C's zero would map every
    axis to +x, which no caller means.
    """

    scale: tuple = (0.0, 0.0, 0.0)
    translate: tuple = (0.0, 0.0, 0.0)
    swizzle_x: ViewportSwizzle = ViewportSwizzle.POSITIVE_X
    swizzle_y: ViewportSwizzle = ViewportSwizzle.POSITIVE_Y
    swizzle_z: ViewportSwizzle = ViewportSwizzle.POSITIVE_Z
    swizzle_w: ViewportSwizzle = ViewportSwizzle.POSITIVE_W


@_template
class ScissorState(_Template):
    """struct pipe_scissor_state (max is exclusive)."""

    _c_types = {"minx": "uint16", "miny": "uint16", "maxx": "uint16", "maxy": "uint16"}

    minx: int = 0
    miny: int = 0
    maxx: int = 0
    maxy: int = 0


@_template
class ClipState(_Template):
    """struct pipe_clip_state: up to PIPE_MAX_CLIP_PLANES user planes (a, b, c, d)."""

    ucp: tuple = ((0.0, 0.0, 0.0, 0.0),) * PIPE_MAX_CLIP_PLANES


@_template
class StencilRef(_Template):
    """struct pipe_stencil_ref: (front, back) reference values."""

    _c_types = {"ref_value": "uint8"}

    ref_value: tuple = (0, 0)


@_template
class Box(_Template):
    """struct pipe_box (width/height may be negative for a blit source)."""

    _c_types = {"x": "int32", "y": "int32", "z": "int32", "width": "int32", "height": "int32", "depth": "int32"}

    x: int = 0
    y: int = 0
    z: int = 0
    width: int = 0
    height: int = 0
    depth: int = 0


# ---------------------------------------------------------------------------
# Samplers, views, buffers
# ---------------------------------------------------------------------------


@_template
class SamplerState(_Template):
    """struct pipe_sampler_state (border_color: 4 floats, or ints for integer formats)."""

    _numeric_tuples = frozenset({"border_color"})

    wrap_s: TexWrap = TexWrap.REPEAT
    wrap_t: TexWrap = TexWrap.REPEAT
    wrap_r: TexWrap = TexWrap.REPEAT
    min_img_filter: TexFilter = TexFilter.NEAREST
    min_mip_filter: TexMipFilter = TexMipFilter.NEAREST
    mag_img_filter: TexFilter = TexFilter.NEAREST
    compare_mode: TexCompare = TexCompare.NONE
    compare_func: Func = Func.NEVER
    unnormalized_coords: bool = False
    max_anisotropy: int = 0
    seamless_cube_map: bool = False
    border_color_is_integer: bool = False
    reduction_mode: TexReduction = TexReduction.WEIGHTED_AVERAGE
    lod_bias: float = 0.0
    min_lod: float = 0.0
    max_lod: float = 0.0
    border_color: tuple = (0.0, 0.0, 0.0, 0.0)
    border_color_format: Any = _FORMAT_NONE


@_template
class SamplerViewTemplate(_Template):
    """struct pipe_sampler_view's template fields (u.tex and u.buf flattened).

    The swizzles default to the identity, as u_sampler_view_default_template
    sets them: C's zero would read (x, x, x, x).
    """

    _c_types = {"first_layer": "uint16", "last_layer": "uint16", "first_level": "uint8", "last_level": "uint8"}

    format: Any = _FORMAT_NONE
    target: Target = Target.BUFFER
    swizzle_r: Swizzle = Swizzle.X
    swizzle_g: Swizzle = Swizzle.Y
    swizzle_b: Swizzle = Swizzle.Z
    swizzle_a: Swizzle = Swizzle.W
    first_layer: int = 0
    last_layer: int = 0
    first_level: int = 0
    last_level: int = 0
    offset: int = 0
    size: int = 0


@_template
class SurfaceTemplate(_Template):
    """struct pipe_surface's template fields (u.tex flattened)."""

    _c_types = {"nr_samples": "uint16", "first_layer": "uint16", "last_layer": "uint16"}

    format: Any = _FORMAT_NONE
    nr_samples: int = 0
    level: int = 0
    first_layer: int = 0
    last_layer: int = 0


@_template
class ImageView(_Template):
    """struct pipe_image_view (u.tex and u.buf flattened)."""

    _c_types = {"first_layer": "uint16", "last_layer": "uint16", "level": "uint8"}

    resource: Any = None
    format: Any = _FORMAT_NONE
    access: ImageAccess = ImageAccess(0)
    shader_access: ImageAccess = ImageAccess(0)
    first_layer: int = 0
    last_layer: int = 0
    level: int = 0
    single_layer_view: bool = False
    is_2d_view_of_3d: bool = False
    offset: int = 0
    size: int = 0


@_template
class ShaderBuffer(_Template):
    """struct pipe_shader_buffer."""

    buffer: Any = None
    buffer_offset: int = 0
    buffer_size: int = 0


@_template
class ConstantBuffer(_Template):
    """struct pipe_constant_buffer (user_buffer: user memory when buffer is None)."""

    buffer: Any = None
    buffer_offset: int = 0
    buffer_size: int = 0
    user_buffer: Any = None


@_template
class VertexElement(_Template):
    """struct pipe_vertex_element.

    The stride lives in VertexBuffer.stride (the spec's layout, docs/api.md), not in
    Mesa >= 23.3's src_stride.
    """

    _c_types = {"src_offset": "uint16", "vertex_buffer_index": (0, 127)}  # vertex_buffer_index:7

    src_offset: int = 0
    vertex_buffer_index: int = 0
    dual_slot: bool = False
    src_format: Any = _FORMAT_NONE
    instance_divisor: int = 0


@_template
class VertexBuffer(_Template):
    """struct pipe_vertex_buffer plus the spec's stride; buffer: Resource or user memory.

    ``is_user_buffer`` is derived (buffer supports the buffer protocol) when not given.
    """

    buffer: Any = None
    buffer_offset: int = 0
    stride: int = 0
    is_user_buffer: Any = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.is_user_buffer is None:
            derived = self.buffer is not None and _is_user_memory(self.buffer)
        else:
            derived = self._normalise("is_user_buffer", self.is_user_buffer, False)
        object.__setattr__(self, "is_user_buffer", derived)


@_template
class FramebufferState(_Template):
    """struct pipe_framebuffer_state (cbufs: up to PIPE_MAX_COLOR_BUFS Surfaces or None).

    ``nr_cbufs`` defaults to the index of the last colour buffer given, plus one.
    """

    _c_types = {"width": "uint16", "height": "uint16", "layers": "uint16", "samples": "uint8", "viewmask": "uint8"}

    width: int = 0
    height: int = 0
    layers: int = 0
    samples: int = 0
    nr_cbufs: Any = None
    viewmask: int = 0
    cbufs: tuple = (None,) * PIPE_MAX_COLOR_BUFS
    zsbuf: Any = None
    resolve: Any = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.nr_cbufs is None:
            used = [i for i, surf in enumerate(self.cbufs) if surf is not None]
            nr = used[-1] + 1 if used else 0
        else:
            nr = self._normalise("nr_cbufs", self.nr_cbufs, 0)
            if not 0 <= nr <= PIPE_MAX_COLOR_BUFS:
                raise InvalidArgumentError(f"FramebufferState.nr_cbufs: {nr} is outside 0..{PIPE_MAX_COLOR_BUFS}")
        object.__setattr__(self, "nr_cbufs", nr)


# ---------------------------------------------------------------------------
# Resources, draws, compute, blits
# ---------------------------------------------------------------------------


@_template
class ResourceTemplate(_Template):
    """struct pipe_resource's template fields (a 1x1x1 2D texture by default)."""

    _c_types = {
        "height0": "uint16",
        "depth0": "uint16",
        "array_size": "uint16",
        "last_level": "uint8",
        "nr_samples": "uint8",
        "nr_storage_samples": "uint8",
        "nr_sparse_levels": "uint8",
    }

    target: Target = Target.TEXTURE_2D
    format: Any = _FORMAT_NONE
    width0: int = 1
    height0: int = 1
    depth0: int = 1
    array_size: int = 1
    last_level: int = 0
    nr_samples: int = 0
    nr_storage_samples: int = 0
    nr_sparse_levels: int = 0
    usage: Usage = Usage.DEFAULT
    bind: Bind = Bind(0)
    flags: ResourceFlag = ResourceFlag(0)


@_template
class DrawInfo(_Template):
    """struct pipe_draw_info plus the spec's start/count/index_bias (index: Resource or user memory).

    ``has_user_indices`` is derived from ``index`` when not given.  ``drawid``,
    ``view_mask`` and ``take_index_buffer_ownership`` are kept from older or
    newer headers so C ports find them.
    """

    _c_types = {"index_bias": "int32"}

    # draw_vbo's memo of this draw's fast-path GL arguments (None: not worked
    # out yet; glpipe/draw.py).  A class attribute, not a field: the
    # template is frozen, so the memo can never go stale.
    _draw_cache = None

    mode: Prim = Prim.POINTS
    index_size: int = 0
    view_mask: int = 0
    primitive_restart: bool = False
    has_user_indices: Any = None
    index_bounds_valid: bool = False
    increment_draw_id: bool = False
    take_index_buffer_ownership: bool = False
    index_bias_varies: bool = False
    was_line_loop: bool = False
    start_instance: int = 0
    instance_count: int = 1  # docs/api.md: zero instances would draw nothing
    restart_index: int = 0
    index: Any = None
    min_index: int = 0
    max_index: int = 0
    drawid: int = 0
    start: int = 0
    count: int = 0
    index_bias: int = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.index_size not in (0, 1, 2, 4):
            raise InvalidArgumentError(f"DrawInfo.index_size: {self.index_size} (must be 0, 1, 2 or 4 bytes)")
        if self.has_user_indices is None:
            derived = self.index is not None and _is_user_memory(self.index)
        else:
            derived = self._normalise("has_user_indices", self.has_user_indices, False)
            # pipe_draw_info: has_user_indices says what ``index`` is, so the
            # two must agree (user memory has the buffer protocol, a Resource not).
            if derived and self.index is not None and not _is_user_memory(self.index):
                raise InvalidArgumentError(
                    f"DrawInfo.has_user_indices is set but index is a {type(self.index).__name__}, not user memory"
                )
        object.__setattr__(self, "has_user_indices", derived)


@_template
class DrawStartCountBias(_Template):
    """struct pipe_draw_start_count_bias: one draw of a multi-draw."""

    _c_types = {"index_bias": "int32"}

    start: int = 0
    count: int = 0
    index_bias: int = 0


@_template
class DrawIndirectInfo(_Template):
    """struct pipe_draw_indirect_info."""

    offset: int = 0
    stride: int = 0
    draw_count: int = 0
    indirect_draw_count_offset: int = 0
    buffer: Any = None
    indirect_draw_count: Any = None
    count_from_stream_output: Any = None


@_template
class GridInfo(_Template):
    """struct pipe_grid_info.

    ``block`` and ``grid`` pad with 1, as p_state.h asks of unused dimensions
    (so ``block=(64,)`` means 64x1x1); ``last_block`` and ``grid_base`` with 0.
    """

    pc: int = 0
    input: Any = None
    variable_shared_mem: int = 0
    work_dim: int = 0
    block: tuple = (1, 1, 1)
    last_block: tuple = (0, 0, 0)
    grid: tuple = (1, 1, 1)
    grid_base: tuple = (0, 0, 0)
    indirect: Any = None
    indirect_offset: int = 0
    indirect_stride: int = 0
    draw_count: int = 0
    indirect_draw_count_offset: int = 0
    indirect_draw_count: Any = None


@_template
class BlitSide(_Template):
    """One side (pipe_blit_info.src or .dst) of a blit."""

    resource: Any = None
    level: int = 0
    box: Box = Box()
    format: Any = _FORMAT_NONE


@_template
class BlitInfo(_Template):
    """struct pipe_blit_info (dst/src are BlitSide; swizzle defaults to identity)."""

    _c_types = {"dst_sample": "uint8"}

    _counted = {"window_rectangles": ("num_window_rectangles", ScissorState, PIPE_MAX_WINDOW_RECTANGLES)}

    dst: BlitSide = BlitSide()
    src: BlitSide = BlitSide()
    mask: Mask = Mask(0)
    filter: TexFilter = TexFilter.NEAREST
    dst_sample: int = 0
    sample0_only: bool = False
    scissor_enable: bool = False
    scissor: ScissorState = ScissorState()
    swizzle_enable: bool = False
    swizzle: tuple = (Swizzle.X, Swizzle.Y, Swizzle.Z, Swizzle.W)
    window_rectangle_include: bool = False
    num_window_rectangles: Any = None
    window_rectangles: tuple = ()
    render_condition_enable: bool = False
    alpha_blend: bool = False


# ---------------------------------------------------------------------------
# Shaders and stream output
# ---------------------------------------------------------------------------


@_template
class StreamOutput(_Template):
    """struct pipe_stream_output: one captured output."""

    _c_types = {
        "register_index": (0, 63),
        "start_component": (0, 3),
        "num_components": (0, 7),
        "output_buffer": (0, 7),
        "dst_offset": "uint16",
        "stream": (0, 3),
    }

    register_index: int = 0
    start_component: int = 0
    num_components: int = 0
    output_buffer: int = 0
    dst_offset: int = 0
    stream: int = 0


@_template
class StreamOutputInfo(_Template):
    """struct pipe_stream_output_info (output: up to PIPE_MAX_SO_OUTPUTS; stride in dwords)."""

    _c_types = {"stride": "uint16"}

    _counted = {"output": ("num_outputs", StreamOutput, PIPE_MAX_SO_OUTPUTS)}

    num_outputs: Any = None
    stride: tuple = (0,) * PIPE_MAX_SO_BUFFERS
    output: tuple = ()


@_template
class ShaderState(_Template):
    """struct pipe_shader_state: TGSI text in ``tokens``."""

    type: ShaderIR = ShaderIR.TGSI
    tokens: str = ""
    stream_output: StreamOutputInfo = StreamOutputInfo()


@_template
class ComputeState(_Template):
    """struct pipe_compute_state: TGSI text in ``prog`` (req_* fields from older headers)."""

    ir_type: ShaderIR = ShaderIR.TGSI
    prog: str = ""
    static_shared_mem: int = 0
    req_local_mem: int = 0
    req_private_mem: int = 0
    req_input_mem: int = 0


# ---------------------------------------------------------------------------
# Query results (p_defines.h pipe_query_data_*)
# ---------------------------------------------------------------------------


@_template
class SOStatistics(_Template):
    """struct pipe_query_data_so_statistics."""

    _c_types = dict.fromkeys(("num_primitives_written", "primitives_storage_needed", "frequency"), "uint64")

    num_primitives_written: int = 0
    primitives_storage_needed: int = 0


@_template
class TimestampDisjoint(_Template):
    """struct pipe_query_data_timestamp_disjoint (frequency in Hz)."""

    _c_types = dict.fromkeys(("num_primitives_written", "primitives_storage_needed", "frequency"), "uint64")

    frequency: int = 0
    disjoint: bool = False


@_template
class PipelineStatistics(_Template):
    """struct pipe_query_data_pipeline_statistics; ``counters`` is C's counters[13]."""

    _c_types = dict.fromkeys(
        "ia_vertices ia_primitives vs_invocations gs_invocations gs_primitives c_invocations "
        "c_primitives ps_invocations hs_invocations ds_invocations cs_invocations ts_invocations ms_invocations".split(),
        "uint64",
    )

    ia_vertices: int = 0
    ia_primitives: int = 0
    vs_invocations: int = 0
    gs_invocations: int = 0
    gs_primitives: int = 0
    c_invocations: int = 0
    c_primitives: int = 0
    ps_invocations: int = 0
    hs_invocations: int = 0
    ds_invocations: int = 0
    cs_invocations: int = 0
    ts_invocations: int = 0
    ms_invocations: int = 0

    @property
    def counters(self) -> tuple:
        """The counters in PIPE_STAT_QUERY_* order (index with a StatQuery)."""
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))
