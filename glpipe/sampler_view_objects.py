"""Sampler view objects: ``SamplerView`` (pipe_sampler_view) and the rules a
view is made by -- the targets a resource can be viewed as, the TGSI
targets a view serves, Gallium's format cast rule -- and the four routes a
view takes to GL (``MODE_*``).  The area that makes, binds and emits views
is glpipe/sampler_views.py; docs/samplers.md "Sampler views" explains both.
"""

from __future__ import annotations

from lowering.errors import InvalidArgumentError, ObjectDestroyedError

from .enums import Swizzle, Target
from .formats import Format, util_format_compose_swizzles, util_format_description

# Gallium target -> GL target (single-sampled, multisampled).
_GL_TARGET = {
    Target.BUFFER: ("GL_TEXTURE_BUFFER", None),
    Target.TEXTURE_1D: ("GL_TEXTURE_1D", None),
    Target.TEXTURE_2D: ("GL_TEXTURE_2D", "GL_TEXTURE_2D_MULTISAMPLE"),
    Target.TEXTURE_3D: ("GL_TEXTURE_3D", None),
    Target.TEXTURE_CUBE: ("GL_TEXTURE_CUBE_MAP", None),
    Target.TEXTURE_RECT: ("GL_TEXTURE_RECTANGLE", None),
    Target.TEXTURE_1D_ARRAY: ("GL_TEXTURE_1D_ARRAY", None),
    Target.TEXTURE_2D_ARRAY: ("GL_TEXTURE_2D_ARRAY", "GL_TEXTURE_2D_MULTISAMPLE_ARRAY"),
    Target.TEXTURE_CUBE_ARRAY: ("GL_TEXTURE_CUBE_MAP_ARRAY", None),
}

# View targets a resource of each target can be viewed as (GL 4.5 table 8.22,
# the rule of glTextureView; Gallium's SAMPLER_VIEW_TARGET follows it).
_T = Target
_VIEW_TARGETS = {
    _T.TEXTURE_1D: {_T.TEXTURE_1D, _T.TEXTURE_1D_ARRAY},
    _T.TEXTURE_1D_ARRAY: {_T.TEXTURE_1D, _T.TEXTURE_1D_ARRAY},
    _T.TEXTURE_2D: {_T.TEXTURE_2D, _T.TEXTURE_2D_ARRAY},
    _T.TEXTURE_2D_ARRAY: {_T.TEXTURE_2D, _T.TEXTURE_2D_ARRAY, _T.TEXTURE_CUBE, _T.TEXTURE_CUBE_ARRAY},
    _T.TEXTURE_3D: {_T.TEXTURE_3D},
    _T.TEXTURE_CUBE: {_T.TEXTURE_CUBE, _T.TEXTURE_2D, _T.TEXTURE_2D_ARRAY, _T.TEXTURE_CUBE_ARRAY},
    _T.TEXTURE_CUBE_ARRAY: {_T.TEXTURE_CUBE, _T.TEXTURE_2D, _T.TEXTURE_2D_ARRAY, _T.TEXTURE_CUBE_ARRAY},
    _T.TEXTURE_RECT: {_T.TEXTURE_RECT},
}

# Gallium targets a TGSI sampler target (SVIEW declaration / TEX operand)
# can read; SHADOW* read the same textures as their plain forms.
_TGSI_TARGET_VIEWS = {
    "BUFFER": {_T.BUFFER},
    "1D": {_T.TEXTURE_1D},
    "2D": {_T.TEXTURE_2D},
    "3D": {_T.TEXTURE_3D},
    "CUBE": {_T.TEXTURE_CUBE},
    "RECT": {_T.TEXTURE_RECT},
    "1D_ARRAY": {_T.TEXTURE_1D_ARRAY},
    "2D_ARRAY": {_T.TEXTURE_2D_ARRAY},
    "2D_MSAA": {_T.TEXTURE_2D},
    "2D_ARRAY_MSAA": {_T.TEXTURE_2D_ARRAY},
    "CUBEARRAY": {_T.TEXTURE_CUBE_ARRAY},
    "CUBE_ARRAY": {_T.TEXTURE_CUBE_ARRAY},
}
# The GL target a TGSI target samples (what an empty unit must have 0 bound on).
_TGSI_GL_TARGET = {
    "BUFFER": "GL_TEXTURE_BUFFER",
    "1D": "GL_TEXTURE_1D",
    "2D": "GL_TEXTURE_2D",
    "3D": "GL_TEXTURE_3D",
    "CUBE": "GL_TEXTURE_CUBE_MAP",
    "RECT": "GL_TEXTURE_RECTANGLE",
    "1D_ARRAY": "GL_TEXTURE_1D_ARRAY",
    "2D_ARRAY": "GL_TEXTURE_2D_ARRAY",
    "2D_MSAA": "GL_TEXTURE_2D_MULTISAMPLE",
    "2D_ARRAY_MSAA": "GL_TEXTURE_2D_MULTISAMPLE_ARRAY",
    "CUBEARRAY": "GL_TEXTURE_CUBE_MAP_ARRAY",
    "CUBE_ARRAY": "GL_TEXTURE_CUBE_MAP_ARRAY",
}
_CUBE_TARGETS = frozenset({_T.TEXTURE_CUBE, _T.TEXTURE_CUBE_ARRAY})

# Host swizzle values (PIPE_SWIZZLE_X.. / 0 / 1) -> GL swizzle enum names.
_GL_SWIZZLE = ("GL_RED", "GL_GREEN", "GL_BLUE", "GL_ALPHA", "GL_ZERO", "GL_ONE")
_IDENTITY = (0, 1, 2, 3)

# How a view reaches GL (docs/samplers.md "Sampler views"): the resource's own
# texture, a GL texture view, the resource's texture with texture parameters
# (hosts without texture views), a GL buffer texture.
MODE_DIRECT, MODE_VIEW, MODE_PARAMS, MODE_BUFFER = "direct", "view", "params", "buffer"

# GL texture parameters glpipe sets on a mutable texture for MODE_PARAMS
# views: (base level, max level, swizzle), kept on the Resource
# (``_gl_params``) because the texture object is the resource's, shared by
# the contexts of its screen.  Every change bumps the screen's
# ``epochs.texture_params`` (glpipe/screen.py): a view remembers the value at
# which it saw its texture hold its parameters (``params_seen``), and while
# the two are equal a draw needs no comparison at all.


def forget_texture_state(res) -> None:
    """Say that code outside this module changed GL_TEXTURE_BASE_LEVEL /
    MAX_LEVEL / SWIZZLE of ``res``'s texture: the next view bind sets all three."""
    epochs = res.screen.epochs
    with epochs.params_lock:  # no bump lost to another thread's (glpipe/screen.py Epochs)
        res._gl_params = None
        epochs.texture_params += 1


def _layer_count(res) -> int:
    return res.depth0 if res.target == Target.TEXTURE_3D else res.array_size


def _channel_positions(desc) -> dict:
    """channel index -> first output position reading it (the format's component order)."""
    out = {}
    for pos, s in enumerate(desc.swizzle):
        if s <= 3 and s not in out:
            out[s] = pos
    return out


def formats_compatible(src: Format, dst: Format) -> bool:
    """Gallium's cast rule (context.rst "Sampler Views"): same block size and
    shape, and matching component order and sizes; only the channels' types
    (UNORM / SNORM / UINT / SINT / FLOAT / sRGB) and X-vs-A padding may differ.
    Depth/stencil formats cast only to themselves."""
    if src == dst:
        return True
    a, b = util_format_description(src), util_format_description(dst)
    if a.is_depth_or_stencil or b.is_depth_or_stencil:
        return False
    if (a.block_bits, a.block_width, a.block_height, a.block_depth) != (
        b.block_bits,
        b.block_width,
        b.block_height,
        b.block_depth,
    ):
        return False
    if a.is_compressed or b.is_compressed:
        return (
            a.is_compressed
            and b.is_compressed
            and a.layout == b.layout
            and _channel_positions(a) == _channel_positions(b)
        )
    if [(c.size, c.shift) for c in a.channels] != [(c.size, c.shift) for c in b.channels]:
        return False
    pa, pb = _channel_positions(a), _channel_positions(b)
    return all(pa[c] == pb[c] for c in pa.keys() & pb.keys())


class SamplerView:
    """pipe_sampler_view: ``texture`` seen with ``format``, ``target``, the
    swizzle and the level / layer (or buffer offset / size) range.

    The C fields are plain attributes; ``gl_target`` and the GL texture
    (``gl_name()``) are glpipe's.
    """

    __slots__ = (
        "__weakref__",
        "_gl_release",  # weakref.finalize deleting _gl_view if the view is dropped (sampler_views.py)
        "_gl_view",
        "_params",
        "_src_name",
        "border_kind",
        "compare_class",
        "compare_twin",
        "context",
        "destroyed",
        "first_layer",
        "first_level",
        "format",
        "gl_target",
        "internal_format",
        "is_buffer",
        "is_cube",
        "is_rect",
        "last_layer",
        "last_level",
        "level_count",
        "mode",
        "offset",
        "params_seen",
        "sampler_names",
        "size",
        "swizzle",
        "swizzle_a",
        "swizzle_b",
        "swizzle_g",
        "swizzle_r",
        "target",
        "templ",
        "texture",
        "wrong_tgsi_targets",
    )

    def gl_name(self) -> int:
        """The GL texture to bind (the view texture, or the resource's)."""
        if self.mode == MODE_DIRECT or self.mode == MODE_PARAMS:
            return self.texture.gl_object
        src = self.texture.gl_object
        if src != self._src_name:
            # The resource's GL storage was replaced: rebuild the view on it.
            self.context.sampler_views_part._build_gl_view(self)
        return self._gl_view

    def check_alive(self, what: str) -> None:
        """Raise ObjectDestroyedError if the view or its resource was destroyed."""
        if self.destroyed:
            raise ObjectDestroyedError(f"{what}: sampler view was destroyed")
        self.texture.check_alive(what)

    def __repr__(self) -> str:
        state = " destroyed" if self.destroyed else ""
        if self.is_buffer:
            rng = f"bytes {self.offset}..{self.offset + self.size - 1}"
        else:
            rng = f"levels {self.first_level}..{self.last_level} layers {self.first_layer}..{self.last_layer}"
        return f"<SamplerView {self.format.name} {self.target.name} {rng} ({self.mode}){state}>"


def _refuse_view(view, i: int, ctx, what: str) -> None:
    """Raise the error that says why ``view`` (``views[i]``) cannot be bound."""
    if not isinstance(view, SamplerView):
        raise InvalidArgumentError(f"{what}: views[{i}] is a {type(view).__name__}, not a SamplerView")
    if view.context is not ctx:
        raise InvalidArgumentError(f"{what}: views[{i}] belongs to another context")
    view.check_alive(f"{what}: views[{i}]")


def _gl_swizzle_of(view_swizzle: tuple, emulation: tuple) -> tuple:
    for c, s in zip("rgba", view_swizzle, strict=True):
        if int(s) == Swizzle.NONE:
            raise InvalidArgumentError(f"create_sampler_view: SamplerViewTemplate.swizzle_{c} is NONE")
    return util_format_compose_swizzles(emulation, view_swizzle)


__all__ = [
    "MODE_BUFFER",
    "MODE_DIRECT",
    "MODE_PARAMS",
    "MODE_VIEW",
    "SamplerView",
    "forget_texture_state",
    "formats_compatible",
]
