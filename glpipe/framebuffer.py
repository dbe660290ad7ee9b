"""Surfaces and the framebuffer: create_surface, set_framebuffer_state.

``FramebufferPart`` (``ctx.framebuffer_part``) holds the bound
``FramebufferState`` and one GL framebuffer object per set of attachments
seen (``FboKey``): switching between two framebuffers already seen is one
glBindFramebuffer.  How a ``Surface`` (one level, a layer range) attaches:
docs/coordinates.md "Surfaces, clears, scissors".
"""

from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .boundary import instance
from .dirty import Dirty
from .enums import PIPE_MAX_COLOR_BUFS, Target
from .formats import Format, util_format_description
from .lifetime import on_drop
from .part import Area, Part
from .resource import Resource
from .templates import FramebufferState, SurfaceTemplate
from .variant_keys import output_kinds

_CUBE_TARGETS = (Target.TEXTURE_CUBE,)
_LAYERED_TARGETS = (
    Target.TEXTURE_1D_ARRAY,
    Target.TEXTURE_2D_ARRAY,
    Target.TEXTURE_3D,
    Target.TEXTURE_CUBE,
    Target.TEXTURE_CUBE_ARRAY,
)


def _minify(value: int, level: int) -> int:
    return max(1, value >> level)


class Surface:
    """pipe_surface: ``texture`` at ``level``, layers ``first_layer..last_layer``."""

    __slots__ = (
        "__weakref__",
        "context",
        "texture",
        "format",
        "width",
        "height",
        "level",
        "first_layer",
        "last_layer",
        "nr_samples",
        "destroyed",
        "attachment",
        "layered",
        "_generation",
    )

    def __init__(self, context, texture, templ: SurfaceTemplate):
        self.context = context
        self.texture = texture
        self.format = Format(templ.format) if templ.format != Format.NONE else texture.format
        self.level = templ.level
        self.first_layer = templ.first_layer
        self.last_layer = templ.last_layer
        self.nr_samples = templ.nr_samples
        self.width = _minify(texture.width0, templ.level)
        self.height = _minify(texture.height0, templ.level) if texture.target != Target.TEXTURE_1D_ARRAY else 1
        self.destroyed = False
        desc = util_format_description(self.format)
        if desc.is_depth and desc.is_stencil:
            self.attachment = "DEPTH_STENCIL"
        elif desc.is_depth:
            self.attachment = "DEPTH"
        elif desc.is_stencil:
            self.attachment = "STENCIL"
        else:
            self.attachment = "COLOR"
        nlayers = _layer_count(texture, templ.level)
        self.layered = (
            texture.target in _LAYERED_TARGETS
            and self.first_layer == 0
            and self.last_layer == nlayers - 1
            and nlayers > 1
        )
        self._generation = texture.generation

    def check_alive(self, what: str) -> None:
        """Raise ObjectDestroyedError if the surface (or its texture) was destroyed."""
        if self.destroyed:
            raise ObjectDestroyedError(f"{what}: surface was destroyed")
        self.texture.check_alive(what)

    def __repr__(self) -> str:
        return (
            f"<Surface {self.format.name} level {self.level} layers {self.first_layer}..{self.last_layer} "
            f"of {self.texture!r}>"
        )


def _is(ref: weakref.ref | None, surface: Surface) -> bool:
    return ref is not None and ref() is surface


def _texture_of(ref: weakref.ref | None):
    surf = ref() if ref is not None else None
    return surf.texture if surf is not None else None


def _layer_count(res, level: int) -> int:
    if res.target == Target.TEXTURE_3D:
        return _minify(res.depth0, level)
    if res.target == Target.TEXTURE_CUBE:
        return 6
    return res.array_size


class FboKey(NamedTuple):
    """What a cached FBO was made from: the attachments (weak references to
    the surfaces: the cache must not keep a dropped surface, and its
    texture, alive), the generations of their textures (a texture re-made in
    place gets a new GL object), and the no-attachment parameters."""

    cbufs: tuple  # weakref.ref(Surface) or None per colour buffer
    zsbuf: weakref.ref | None
    generations: tuple
    zs_generation: int
    width: int
    height: int
    layers: int
    samples: int


class FramebufferPart(Part):
    """The framebuffer area: surfaces, the framebuffer state, its FBOs.

    Interface read by other areas: ``framebuffer`` (the bound
    FramebufferState), ``fb_output_kinds`` (variant keys),
    ``check_surface`` (clears)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.framebuffer = FramebufferState()
        self.fb_output_kinds = output_kinds(self.framebuffer)  # a variant-key input (variant_keys.py)
        self._fbo_cache: dict[FboKey, int] = {}
        self._bound_fbo = -1

    # -- surfaces ------------------------------------------------------------

    def create_surface(self, res: Resource, templ: SurfaceTemplate) -> Surface:
        """pipe_context::create_surface: a view of one level and a layer range."""
        self.ctx.check_alive("create_surface")
        self.ctx._check_resource(res, "create_surface")
        resource = res
        if resource.target == Target.BUFFER:
            raise InvalidArgumentError("create_surface: resource is a BUFFER; surfaces view textures")
        if not isinstance(templ, SurfaceTemplate):
            raise InvalidArgumentError(f"create_surface: expected a SurfaceTemplate, got {type(templ).__name__}")
        if not 0 <= templ.level <= resource.last_level:
            raise InvalidArgumentError(
                f"SurfaceTemplate.level: {templ.level} outside the resource's levels 0..{resource.last_level}"
            )
        nlayers = _layer_count(resource, templ.level)
        if not 0 <= templ.first_layer <= templ.last_layer < nlayers:
            raise InvalidArgumentError(
                f"SurfaceTemplate.first_layer/last_layer: {templ.first_layer}..{templ.last_layer} "
                f"outside the resource's layers 0..{nlayers - 1} at level {templ.level}"
            )
        surf = self.ctx._own(Surface(self.ctx, resource, templ))
        # Dropped without surface_destroy: the FBOs made with it go at the next
        # drain (the cache holds it weakly).
        on_drop(surf, self.ctx.host, self._drop_dead_fbos)
        return surf

    def surface_destroy(self, surface: Surface) -> None:
        """pipe_context::surface_destroy; cached framebuffers using it are deleted.

        Only this context's surfaces (InvalidArgumentError for anything else,
        which is left untouched).  A bound surface stays in the bound
        FramebufferState (the caller's frozen record): the next draw or clear
        raises ObjectDestroyedError until a live framebuffer is set
        (docs/robustness.md "Object lifetimes and soak")."""
        ctx = self.ctx
        instance(surface, Surface, "surface_destroy: surface")
        if surface.context is not ctx:
            raise InvalidArgumentError("surface_destroy: the surface belongs to another context")
        if surface.destroyed:
            raise ObjectDestroyedError("surface_destroy: surface was already destroyed")
        self._drop_fbos(lambda key: any(_is(r, surface) for r in key.cbufs + (key.zsbuf,)))
        surface.destroyed = True
        fb = self.framebuffer
        if surface is fb.zsbuf or surface in fb.cbufs[: fb.nr_cbufs]:
            # The fast path draws while nothing is dirty: the next draw must
            # re-emit the framebuffer, whose emit refuses the destroyed surface.
            ctx.dirty |= Dirty.FRAMEBUFFER

    # -- framebuffer state ---------------------------------------------------

    def set_framebuffer_state(self, state: FramebufferState) -> None:
        """pipe_context::set_framebuffer_state: colour buffers + zsbuf."""
        self.ctx.check_alive("set_framebuffer_state")
        if not isinstance(state, FramebufferState):
            raise InvalidArgumentError(
                f"set_framebuffer_state: expected a FramebufferState, got {type(state).__name__}"
            )
        if state == self.framebuffer:
            return
        if state.resolve is not None:
            # pipe_framebuffer_state.resolve: an implicit resolve target.
            # glpipe does not resolve at the end of a pass; ignoring it would
            # leave the resolve target unwritten without a word.
            instance(state.resolve, Resource, "FramebufferState.resolve")
            raise UnsupportedError("FramebufferState.resolve: implicit resolves are not supported; resolve with a blit")
        for i, surf in enumerate(state.cbufs[: state.nr_cbufs]):
            if surf is not None:
                self.check_surface(surf, f"FramebufferState.cbufs[{i}]", color=True)
        if state.zsbuf is not None:
            self.check_surface(state.zsbuf, "FramebufferState.zsbuf", color=False)
        self.framebuffer = state
        self.ctx.dirty |= Dirty.FRAMEBUFFER
        kinds = output_kinds(state, self._reinterpolation_positions(state))
        if kinds is not self.fb_output_kinds:  # output types / cbuf count are in the FS key
            self.fb_output_kinds = kinds
            self.ctx.dirty |= Dirty.PROGRAM

    _sample_pattern: dict[int, tuple] | None = None  # sample count -> the host's positions (probed once per count)

    def _reinterpolation_positions(self, fb: FramebufferState) -> tuple:
        """VariantKey.sample_positions of an FS re-interpolating INTERP_*
        (lowering/glsl/passes/interp.py): on a host without interpolateAt*,
        the flattened GL_SAMPLE_POSITION pattern of a multisampled ``fb``;
        () otherwise."""
        if self.ctx.screen.profile.has("interpolate_at"):
            return ()
        surfaces = [s for s in fb.cbufs[: fb.nr_cbufs] + (fb.zsbuf,) if s is not None]
        count = max((s.texture.nr_samples for s in surfaces), default=fb.samples)
        if count <= 1:
            return ()
        cache = self._sample_pattern
        if cache is None:
            cache = self._sample_pattern = {}
        if count not in cache:
            cache[count] = self._probe_sample_positions(count)
        return cache[count]

    def _probe_sample_positions(self, count: int) -> tuple:
        """GL_SAMPLE_POSITION of a ``count``-sample renderbuffer (GL 3.2
        glGetMultisamplefv), flattened; the framebuffer bindings are put back."""
        gl = self.ctx.gl
        draw_fbo = int(gl.glGetIntegerv(gl.GL_DRAW_FRAMEBUFFER_BINDING))
        read_fbo = int(gl.glGetIntegerv(gl.GL_READ_FRAMEBUFFER_BINDING))
        rbo, fbo = int(gl.glGenRenderbuffers(1)), int(gl.glGenFramebuffers(1))
        try:
            gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rbo)
            gl.glRenderbufferStorageMultisample(gl.GL_RENDERBUFFER, count, gl.GL_RGBA8, 1, 1)
            gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
            gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rbo)
            out = []
            for i in range(int(gl.glGetIntegerv(gl.GL_SAMPLES))):
                pos = np.zeros(2, np.float32)
                gl.glGetMultisamplefv(gl.GL_SAMPLE_POSITION, i, pos)
                out += [float(pos[0]), float(pos[1])]
        finally:
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, draw_fbo)
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, read_fbo)
            gl.glDeleteFramebuffers(1, [fbo])
            gl.glDeleteRenderbuffers(1, [rbo])
        return tuple(out)

    def check_surface(self, surf, what: str, color: bool) -> None:
        if not isinstance(surf, Surface):
            raise InvalidArgumentError(f"{what}: expected a Surface, got {type(surf).__name__}")
        if surf.context is not self.ctx:
            raise InvalidArgumentError(f"{what}: surface belongs to another context")
        surf.check_alive(what)
        if color and surf.attachment != "COLOR":
            raise InvalidArgumentError(f"{what}: {surf.format.name} is a depth/stencil format")
        if not color and surf.attachment == "COLOR":
            raise InvalidArgumentError(f"{what}: {surf.format.name} is not a depth/stencil format")

    # -- host side -----------------------------------------------------------

    def _fbo_key(self, fb: FramebufferState) -> FboKey:
        cbufs = tuple(fb.cbufs[: fb.nr_cbufs])
        gens = tuple(s.texture.generation if s is not None else 0 for s in cbufs)
        zs = fb.zsbuf
        zgen = zs.texture.generation if zs is not None else 0
        refs = tuple(weakref.ref(s) if s is not None else None for s in cbufs)
        zref = weakref.ref(zs) if zs is not None else None
        return FboKey(refs, zref, gens, zgen, fb.width, fb.height, fb.layers, fb.samples)

    def _drop_dead_fbos(self) -> None:
        """A surface was dropped unreferenced (its finalizer queued this for
        the GL thread, glpipe/lifetime.py): delete the FBOs made with it."""
        if not self.ctx.destroyed:
            self._drop_fbos(lambda key: any(r is not None and r() is None for r in key.cbufs + (key.zsbuf,)))

    def _emit_framebuffer(self) -> None:
        fb = self.framebuffer
        for i, surf in enumerate(fb.cbufs[: fb.nr_cbufs] + (fb.zsbuf,)):
            if surf is not None and (surf.destroyed or surf.texture._destroyed):
                self._refuse_destroyed_attachment(surf, i if i < fb.nr_cbufs else None)
        key = self._fbo_key(fb)
        fbo = self._fbo_cache.get(key)
        gl = self.ctx.gl
        if fbo is None:
            fbo = self._make_fbo(fb)
            self._fbo_cache[key] = fbo
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        self._bound_fbo = fbo

    def _refuse_destroyed_attachment(self, surf: Surface, index) -> None:
        """A bound surface, or its resource, was destroyed (surface_destroy /
        Screen.resource_destroy dirtied the framebuffer): delete the FBOs
        made with it and raise ObjectDestroyedError naming the attachment
        (``index`` None: zsbuf).  The framebuffer stays dirty, so every draw
        refuses it until a live framebuffer is set."""
        res = surf.texture
        self._drop_fbos(lambda key: any(_texture_of(r) is res for r in key.cbufs + (key.zsbuf,)))
        self.ctx.dirty |= Dirty.FRAMEBUFFER
        where = "zsbuf" if index is None else f"cbufs[{index}]"
        what = "surface" if surf.destroyed else "resource"
        raise ObjectDestroyedError(f"draw: the {what} of FramebufferState.{where} was destroyed")

    def _make_fbo(self, fb: FramebufferState) -> int:
        gl = self.ctx.gl
        fbo = int(gl.glGenFramebuffers(1))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        draw_buffers = []
        for i in range(fb.nr_cbufs):
            surf = fb.cbufs[i]
            if surf is None:
                draw_buffers.append(gl.GL_NONE)
                continue
            att = gl.GL_COLOR_ATTACHMENT0 + i
            self._attach(att, surf)
            draw_buffers.append(att)
        if fb.zsbuf is not None:
            att = {
                "DEPTH_STENCIL": gl.GL_DEPTH_STENCIL_ATTACHMENT,
                "DEPTH": gl.GL_DEPTH_ATTACHMENT,
                "STENCIL": gl.GL_STENCIL_ATTACHMENT,
            }[fb.zsbuf.attachment]
            self._attach(att, fb.zsbuf)
        if draw_buffers:
            gl.glDrawBuffers(len(draw_buffers), draw_buffers)
        else:
            gl.glDrawBuffer(gl.GL_NONE)
        if fb.nr_cbufs == 0 and fb.zsbuf is None:
            # A framebuffer without attachments (ARB_framebuffer_no_attachments).
            if not self.ctx.screen.profile.has("framebuffer_no_attachments"):
                gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
                gl.glDeleteFramebuffers(1, [fbo])
                raise UnsupportedError(
                    "set_framebuffer_state: a framebuffer without attachments needs "
                    "GL 4.3 / GL_ARB_framebuffer_no_attachments (not on this host profile)"
                )
            gl.glFramebufferParameteri(gl.GL_FRAMEBUFFER, gl.GL_FRAMEBUFFER_DEFAULT_WIDTH, max(1, fb.width))
            gl.glFramebufferParameteri(gl.GL_FRAMEBUFFER, gl.GL_FRAMEBUFFER_DEFAULT_HEIGHT, max(1, fb.height))
            gl.glFramebufferParameteri(gl.GL_FRAMEBUFFER, gl.GL_FRAMEBUFFER_DEFAULT_LAYERS, fb.layers)
            gl.glFramebufferParameteri(gl.GL_FRAMEBUFFER, gl.GL_FRAMEBUFFER_DEFAULT_SAMPLES, fb.samples)
        status = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER)
        if status != gl.GL_FRAMEBUFFER_COMPLETE:
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
            gl.glDeleteFramebuffers(1, [fbo])
            self.ctx.host.clear_errors()
            raise InvalidArgumentError(
                f"set_framebuffer_state: the host GL rejects this combination of attachments "
                f"(glCheckFramebufferStatus = 0x{int(status):04x}): {fb!r}"
            )
        self.ctx.host.check("set_framebuffer_state")
        return fbo

    def _attach(self, att: int, surf: Surface) -> None:
        gl = self.ctx.gl
        res = surf.texture
        tex = res.gl_object
        target = res.target
        if surf.layered:
            gl.glFramebufferTexture(gl.GL_FRAMEBUFFER, att, tex, surf.level)
        elif target in _CUBE_TARGETS:
            gl.glFramebufferTexture2D(
                gl.GL_FRAMEBUFFER, att, gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + surf.first_layer, tex, surf.level
            )
        elif target in _LAYERED_TARGETS:
            if surf.first_layer != surf.last_layer:
                raise UnsupportedError(
                    f"set_framebuffer_state: a surface of layers {surf.first_layer}..{surf.last_layer} "
                    f"(not all {_layer_count(res, surf.level)}) cannot be attached layered without texture views"
                )
            gl.glFramebufferTextureLayer(gl.GL_FRAMEBUFFER, att, tex, surf.level, surf.first_layer)
        elif target == Target.TEXTURE_1D:
            gl.glFramebufferTexture1D(gl.GL_FRAMEBUFFER, att, res.gl_target, tex, surf.level)
        else:
            gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, att, res.gl_target, tex, surf.level)

    def _drop_fbos(self, predicate) -> None:
        gl = self.ctx.gl
        for key in [k for k in self._fbo_cache if predicate(k)]:
            fbo = self._fbo_cache.pop(key)
            if self._bound_fbo == fbo:
                gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
                self._bound_fbo = -1
                self.ctx.dirty |= Dirty.FRAMEBUFFER
            gl.glDeleteFramebuffers(1, [fbo])

    def _drop_framebuffer_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): delete the cached FBOs, so the emit builds the
        framebuffer object from the surfaces again."""
        self._drop_fbos(lambda key: True)

    def destroy(self) -> None:
        """Delete every cached FBO (Context.destroy)."""
        self._drop_fbos(lambda key: True)


AREA = Area(
    "framebuffer_part",
    part=FramebufferPart,
    methods=("create_surface", "surface_destroy", "set_framebuffer_state"),
    rows=((Dirty.FRAMEBUFFER, FramebufferPart._emit_framebuffer),),
    destroy=FramebufferPart.destroy,
    drop_caches=FramebufferPart._drop_framebuffer_caches,
)

__all__ = ["AREA", "FramebufferPart", "PIPE_MAX_COLOR_BUFS", "Surface"]
