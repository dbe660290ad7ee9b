"""Which shader variant the current state needs: one VariantKey per stage.

``VariantKeysPart`` (``ctx.variant_keys_part``) gathers the inputs of the
keys -- the bound shaders and a ``VariantEnvironment`` built from the
areas' ``variant_input`` slots and the other areas' state -- into one
tuple the shader area looks programs up by, and computes a stage's key from
that tuple only.  It also keys the draw's primitive class.
docs/lowering.md "Variant keys in the context" has the table of key fields
and where each comes from, and the primitive-class rule.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from lowering.glsl.passes.edges import EDGE_FLAGS_STIPPLE
from lowering.glsl.passes.interp import needed_copies
from lowering.glsl.passes.vertex import written_clip_distances
from lowering.glsl.variant import PIPE_FUNC_ALWAYS as _ALPHA_ALWAYS
from lowering.glsl.variant import VariantKey
from lowering.glsl.varyings import FS_BUILTIN_INPUTS, tess_clip_cull

from .dirty import Dirty
from .enums import Prim, ShaderType
from .formats import util_format_description
from .part import Area, Part, owner
from .raster import rasterizer_keys as _r
from .shaders import GRAPHICS_STAGES, VariantInput, unwritten_inputs, variant_input
from .templates import FramebufferState

_DEFAULT_KEY = VariantKey()
_POINTS, _LINES, _POLYGONS = _r.PRIM_CLASS_POINTS, _r.PRIM_CLASS_LINES, _r.PRIM_CLASS_POLYGONS
_OFFSET = _r.PRIM_CLASS_OFFSET

# u_reduced_prim: the class of each Prim by value (PATCHES: a TES decides).
_REDUCED = {
    Prim.POINTS: _POINTS,
    Prim.LINES: _LINES,
    Prim.LINE_LOOP: _LINES,
    Prim.LINE_STRIP: _LINES,
    Prim.LINES_ADJACENCY: _LINES,
    Prim.LINE_STRIP_ADJACENCY: _LINES,
}
_NPRIMS = max(int(p) for p in Prim) + 1
_REDUCED_BY_MODE = tuple(_REDUCED.get(p, _POLYGONS) for p in range(_NPRIMS))
# GS_OUTPUT_PRIMITIVE -> class (a GS emits points, line strips or triangle strips).
_GS_OUTPUT_CLASS = {"POINTS": _POINTS, "LINE_STRIP": _LINES, "LINES": _LINES}
_PIPE_PRIM_LINES = int(Prim.LINES)  # TES_PRIM_MODE of isolines
# Opcodes whose emulation reads VariantKey.sample_positions (lowering/glsl/passes/interp.py).
_REINTERPOLATED = frozenset({"INTERP_SAMPLE", "INTERP_CENTROID", "INTERP_OFFSET"})
# What may change the class table: a shader bound (GS/TES) or deleted, a rasterizer bound.
_CLASS_INPUTS = Dirty.SHADERS | Dirty.PROGRAM | Dirty.RASTERIZER_CSO | Dirty.RASTERIZER
_VS, _TCS, _TES, _GS, _FS = (
    int(s)
    for s in (ShaderType.VERTEX, ShaderType.TESS_CTRL, ShaderType.TESS_EVAL, ShaderType.GEOMETRY, ShaderType.FRAGMENT)
)


# Pipeline position of each graphics stage in the variant inputs (vs, tcs, tes, gs, fs, env).
_PIPELINE_POSITION = {int(s): n for n, s in enumerate(GRAPHICS_STAGES)}


def _after(stage, inputs: tuple) -> tuple:
    """The CSOs bound after ``stage`` in pipeline order (None where unbound)."""
    return inputs[_PIPELINE_POSITION[int(stage)] + 1 : len(GRAPHICS_STAGES)]


def _format_kind(fmt) -> str:
    desc = util_format_description(fmt)
    if desc.is_pure_uint:
        return "uint"
    if desc.is_pure_sint:
        return "int"
    return "float"


class VariantEnvironment(NamedTuple):
    """The variant-key inputs other than the shaders, by name.

    ``_variant_environment`` keeps them as a plain tuple in this field order
    inside one canonical holder (``shaders.variant_input``; the last element
    of ``_variant_inputs()``), cheap to rebuild on every Dirty.PROGRAM;
    ``_variant_key`` reads that tuple as a VariantEnvironment.  Structured
    values are holders themselves (``.value``), stored by their setters, so
    the tuple hashes without walking them.

    The first fields are the areas' ``variant_input`` slots (glpipe/part.py
    ``Area``), in ``PARTS`` order, each named after its area (``blend_part``:
    ``blend``); the others are read from the areas' attributes."""

    # -- the areas' variant_input slots -------------------------------------------
    blend: bool  # glpipe/blend.py dual_source_key: the blend state reads SRC1_* factors
    dsa: int  # glpipe/depth_stencil_alpha.py alpha_func_key: ALWAYS when the alpha test is off
    # -- read from the areas' attributes ------------------------------------------
    fb_kinds: VariantInput  # glpipe/framebuffer.py: (kinds of the cbufs' formats, nr_cbufs)
    vs_input: VariantInput | None  # glpipe/vertex.py: vs_input_types of the bound vertex elements
    rast: VariantInput  # glpipe/raster/rasterizer.py: the bound rasterizer's key fields (rasterizer_keys.KEY_*)
    window_rects: VariantInput  # glpipe/raster/rasterizer.py: (count, include) of set_window_rectangles
    y_flip: bool  # glpipe/viewport.py: viewport 0 has a negative y scale
    # The draw's primitive class (| PRIM_CLASS_OFFSET), only while the
    # rasterizer has a class-sensitive field on; else None.
    prim_class: int | None
    line_stipple: int  # glpipe/raster/line_stipple.py: 0 (none for this draw), 1 (per strip), 2 (segment bases)
    line_last_pixel: int  # glpipe/raster/line_stipple.py: the draw's line_last_pixel (0: none)
    line_smooth: float  # glpipe/raster/line_stipple.py: the draw's antialiased line width (0.0: none)
    # glpipe/raster/polygon_edges.py: (GS edge_flags, VS edge_flags, FS edge_fill) of the draw, or None.
    edges: tuple | None
    gl_clamp: VariantInput  # glpipe/samplers.py: _gl_clamp_masks (per stage)
    compare: VariantInput  # glpipe/sampler_compare.py: _compare_pairs (per stage)


# The fields filled from the areas' variant_input slots.
_SLOT_FIELDS = VariantEnvironment._fields[: VariantEnvironment._fields.index("fb_kinds")]


# A module global: read on every program switch (measured: docs/performance.md).
_PROGRAM = Dirty.PROGRAM


class VariantKeysPart(Part):
    """The variant-key area of a context (``ctx.variant_keys_part``):
    computes ``_variant_key(stage, cso, inputs)`` from ``_variant_inputs()``
    and keys the draw's primitive class (``prim_class``; ``prim_class_table``:
    the class of each draw mode, docs/lowering.md "Variant keys in the
    context")."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # The shader area's list of bound CSOs (built before this part; the
        # list object is never replaced).
        self._shaders = ctx.shader_part.shaders
        ctx.shader_part._use_variant_keys(self)  # its program emit calls _variant_inputs / _variant_key
        self.prim_class = None  # the primitive class keyed last (also set by glpipe/raster/fill_modes.py)
        self.prim_class_table = None  # the class of each draw mode under the bound shaders and rasterizer
        self._variant_env = None  # the VariantEnvironment holder, rebuilt on Dirty.PROGRAM
        self._gs_parts = None  # _fetch_gs_parts
        # One call (the area's variant_input on its part) per slot field of
        # VariantEnvironment; bound at the first use (the areas after this
        # one in PARTS are not built yet).
        self._slot_inputs = None

    def _last_vertex_stage(self):
        """The last stage before the rasterizer that is bound (GS, TES or VS), or None."""
        shaders = self._shaders
        for stage in (ShaderType.GEOMETRY, ShaderType.TESS_EVAL, ShaderType.VERTEX):
            if shaders[stage] is not None:
                return stage
        return None

    def _key_prim_class(self, mode) -> None:
        """draw_vbo's general path, while a class-sensitive rasterizer is bound
        (docs/lowering.md): key the class ``mode`` rasterizes as, setting
        Dirty.PROGRAM when it differs from the one keyed last."""
        ctx = self.ctx
        table = self.prim_class_table
        if table is None or ctx.dirty & _CLASS_INPUTS:
            table = self.prim_class_table = self._rasterized_classes()
        if 0 <= mode < _NPRIMS:  # (an unknown mode raises later, in the draw)
            cls = table[mode]
            if cls != self.prim_class:
                self.prim_class = cls
                ctx.dirty |= Dirty.PROGRAM

    def _rasterized_classes(self) -> tuple:
        """The class each draw mode rasterizes as under the bound shaders and
        rasterizer (docs/lowering.md has the rule)."""
        shaders = self._shaders
        gs, tes = shaders[_GS], shaders[_TES]
        if gs is not None:
            base = (_GS_OUTPUT_CLASS.get(gs.ir.property("GS_OUTPUT_PRIMITIVE"), _POLYGONS),) * _NPRIMS
        elif tes is not None:
            if tes.ir.property("TES_POINT_MODE", 0):
                cls = _POINTS
            else:
                cls = _LINES if tes.ir.property("TES_PRIM_MODE") == _PIPE_PRIM_LINES else _POLYGONS
            base = (cls,) * _NPRIMS
        else:
            base = _REDUCED_BY_MODE
        ctx = self.ctx
        fill = (ctx.rasterizer_part.rasterizer or ctx.rasterizer_part.rasterizer_default).prim_classes or (
            _POINTS,
            _LINES,
            _POLYGONS,
        )
        return tuple(fill[c] for c in base)

    def _variant_inputs(self) -> tuple:
        """Everything the variant keys of the bound shaders depend on: the
        five graphics-stage CSOs and the environment holder (module
        docstring; ``VariantEnvironment`` names its fields).  The
        environment is rebuilt only when Dirty.PROGRAM says one of its
        inputs changed."""
        env = self._variant_env
        if env is None or self.ctx.dirty & _PROGRAM:
            env = self._variant_env = self._variant_environment()
        sh = self._shaders
        gs = sh[_GS]
        if gs is None:
            # A generated GS (or None): a layer-writing VS on GL 3.3 (glpipe/vertex_layer.py),
            # else line stipple / last pixel (glpipe/raster/line_stipple.py), else polygon
            # edges (glpipe/raster/polygon_edges.py).  The parts, fetched once (the
            # context's parts never change): this runs on every program switch.
            parts = self._gs_parts or self._fetch_gs_parts()
            gs = parts[0].layer_gs
            if gs is None:
                rast = parts[1]
                if rast.rast_line_gs:
                    gs = parts[2].line_stipple_gs
                if gs is None and rast.rast_edge_fill:
                    gs = parts[3].edge_gs
        return (sh[_VS], sh[_TCS], sh[_TES], gs, sh[_FS], env)

    def _fetch_gs_parts(self) -> tuple:
        """(vertex layer, rasterizer, line stipple, polygon edges) parts, for
        ``_variant_inputs`` (areas after this one in PARTS: not there at init)."""
        ctx = self.ctx
        self._gs_parts = (ctx.vertex_layer_part, ctx.rasterizer_part, ctx.line_stipple_part, ctx.polygon_edges_part)
        return self._gs_parts

    def _bind_slot_inputs(self) -> tuple:
        """One call per area with a ``variant_input`` slot, in PARTS order
        (the slot's function on the area's part); refuses an area whose slot
        has no field of its name at its place in VariantEnvironment."""
        ctx = self.ctx
        areas = [area for area in ctx._areas if area.variant_input is not None]
        names = tuple(area.attr.removesuffix("_part") for area in areas)
        if names != _SLOT_FIELDS:
            raise TypeError(
                f"the areas with a variant_input slot are {names}; VariantEnvironment's fields "
                f"before fb_kinds are {_SLOT_FIELDS}: they must be the same, in PARTS order"
            )
        self._slot_inputs = tuple(partial(area.variant_input, owner(ctx, area)) for area in areas)
        return self._slot_inputs

    def _variant_environment(self) -> VariantInput:
        """The canonical holder of the ``VariantEnvironment`` of the current state."""
        ctx = self.ctx
        # The slots' calls, in _SLOT_FIELDS order (checked when bound).
        blend, dsa = self._slot_inputs or self._bind_slot_inputs()
        velems = ctx.vertex_part.velems
        # A plain tuple in VariantEnvironment's field order: every
        # Dirty.PROGRAM pays this rebuild, and making the NamedTuple here
        # would double its cost; _variant_key (new combinations only) reads
        # it as a VariantEnvironment.  (Calling the slots by name: a loop
        # over them, ``*map(...)`` in the display, costs twice as much.)
        return variant_input(
            (
                blend(),  # blend
                dsa(),  # dsa
                ctx.framebuffer_part.fb_output_kinds,  # fb_kinds
                velems.vs_input if velems is not None else None,  # vs_input
                ctx.rasterizer_part.rast_key,  # rast
                ctx.rasterizer_part.window_rect_key,  # window_rects
                ctx.viewport_part.viewport_y_flip,  # y_flip
                self.prim_class if ctx.rasterizer_part.rast_class_sensitive else None,  # prim_class
                ctx.line_stipple_part.line_stipple_key if ctx.rasterizer_part.rast_line_stipple else 0,  # line_stipple
                ctx.line_stipple_part.line_last_pixel_key
                if ctx.rasterizer_part.rast_line_last_pixel
                else 0,  # line_last_pixel
                ctx.line_stipple_part.line_smooth_key if ctx.rasterizer_part.rast_line_smooth else 0.0,  # line_smooth
                ctx.polygon_edges_part.edge_key if ctx.rasterizer_part.rast_edge_fill else None,  # edges
                ctx.samplers_part.gl_clamp_input,  # gl_clamp
                ctx.sampler_views_part.compare_class_input,
            )
        )  # compare

    def _drop_variant_env(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw: forget the environment, so
        the next program emit gathers it from the areas again."""
        self._variant_env = None

    def _variant_key(self, stage: ShaderType, cso, inputs: tuple) -> VariantKey:
        """The VariantKey of ``cso`` (bound at ``stage``) for ``inputs``
        (``_variant_inputs()``); reads nothing else of the context."""
        vs, tcs, tes, gs, fs, env = inputs
        env = VariantEnvironment._make(env.value)  # (the holder's tuple is in field order)
        alpha_func, prim_class, line_stipple, edges = env.dsa, env.prim_class, env.line_stipple, env.edges
        color_kinds, nr_cbufs, sample_positions = env.fb_kinds.value
        vs_input_types = env.vs_input.value if env.vs_input is not None else None
        rast = env.rast.value
        window_rect_count, window_rect_include = env.window_rects.value
        # rasterizer.py or-s PRIM_CLASS_OFFSET into the class of polygons an
        # unscaled offset applies to; the class comparisons below see the class.
        offset_draw = prim_class is not None and prim_class & _OFFSET
        if offset_draw:
            prim_class &= ~_OFFSET
        fields = {}
        fs_inputs = fs.info.inputs if fs is not None else ()
        last = stage == (_GS if gs is not None else _TES if tes is not None else _VS if vs is not None else None)
        if sample_positions and fs is not None and (stage == _FS or last) and fs.info.opcodes_used & _REINTERPOLATED:
            # INTERP_* re-interpolated on a multisampled framebuffer: the varyings the FS
            # reads at the other location, written by the last stage (passes/interp.py).
            copies = needed_copies(fs.ir, bool(rast[_r.KEY_FLATSHADE]))
            if copies:
                fields["interp_copies"] = copies
        if stage == _FS:
            if any(t != "float" for t in color_kinds):
                fields["color_output_types"] = color_kinds
            fields["nr_cbufs"] = nr_cbufs
            if alpha_func != _ALPHA_ALWAYS:
                fields["alpha_func"] = alpha_func
            if env.blend:  # the blend state's dual_source_key
                fields["dual_source_blend"] = True
            if sample_positions and cso.info.opcodes_used & _REINTERPOLATED:  # lowering/glsl/passes/interp.py
                fields["sample_positions"] = sample_positions
        if stage == _VS and vs_input_types is not None:
            if any(t != "float" for t in vs_input_types):  # per attribute location (dual_slot aware)
                fields["vs_input_types"] = vs_input_types
        if last and getattr(cso, "so_plan", None) is not None:
            fields["stream_output"] = cso.so_plan.key  # its captured outputs (glpipe/stream_output.py)
        if last and fs is not None:
            # Every input the FS reads from a varying (all but the built-ins of
            # lowering/glsl/varyings.py FS_BUILTIN_INPUTS), with or without an
            # interpolation mode: the last stage declares (and zeroes) the ones it
            # does not write, and passes CLIPDIST in a varying
            # (lowering/glsl/passes/vertex.py copy_clipdist_varyings).
            fields["output_interpolation"] = tuple(
                (io.semantic, io.semantic_index, io.interpolate or "PERSPECTIVE", io.location)
                for io in fs_inputs
                if io.semantic is not None and io.semantic not in FS_BUILTIN_INPUTS
            )
        elif not last and stage != _FS:
            # A TCS / TES / GS input this stage does not write (glpipe/shaders.py unwritten_inputs).
            consumer = next((c for c in _after(stage, inputs) if c is not None), None)
            missing = unwritten_inputs(cso.info, consumer.info) if consumer is not None else ()
            if missing:
                fields["output_interpolation"] = missing
        if stage in (_TCS, _TES) and tcs is not None and tes is not None:
            # Both redeclare gl_PerVertex with one clip / cull size (lowering/glsl/varyings.py).
            sizes = tess_clip_cull(tcs.ir, tes.ir)
            if sizes != (0, 0):
                fields["tess_clip_cull"] = sizes
        if stage == _FS or last:
            if rast[_r.KEY_FLATSHADE] and any(io.interpolate == "COLOR" for io in fs_inputs):
                fields["flatshade"] = True
            # The FS picks front or back; the last stage declares (and fills) BCOLOR.
            if rast[_r.KEY_TWO_SIDE] and any(io.semantic == "COLOR" for io in fs_inputs):
                fields["two_side"] = True
        if stage == _FS:
            if rast[_r.KEY_CLAMP_FRAGMENT]:
                fields["clamp_fragment_color"] = True
            # An FS writing depth replaces the rasterized depth the offset applies to.
            if offset_draw and not cso.info.writes_depth:
                fields["depth_offset"] = rast[_r.KEY_DEPTH_OFFSET]
            # prim_class None: no class-sensitive field is on (nothing below applies).
            sprites = rast[_r.KEY_SPRITE_ENABLE] if prim_class == _POINTS else 0
            if sprites:
                sprites &= sum(
                    1 << io.semantic_index for io in fs_inputs if io.semantic == "GENERIC" and io.semantic_index < 16
                )
                if sprites:
                    fields["sprite_coord_enable"] = sprites
                    fields["sprite_coord_mode"] = rast[_r.KEY_SPRITE_MODE]
            if rast[_r.KEY_POLY_STIPPLE] and prim_class == _POLYGONS:
                fields["poly_stipple"] = True
            if rast[_r.KEY_POINT_SMOOTH] and prim_class == _POINTS:
                fields["point_smooth"] = True
            if line_stipple:
                fields["line_stipple"] = 1
            if window_rect_count or window_rect_include:
                fields["window_rectangles"] = window_rect_count
                fields["window_rectangles_include"] = window_rect_include
        if env.line_smooth and stage in (_GS, _FS):
            # glpipe's antialiased lines: the GS (the last stage whenever this is
            # set, line_stipple.py) draws quads, the FS applies the coverage.
            fields["line_smooth"] = env.line_smooth
        if env.line_last_pixel and stage == _GS:
            # The GS is the last stage whenever this is set (line_stipple.py).
            fields["line_last_pixel"] = env.line_last_pixel
        if (
            gs is not None
            and stage == (_TES if tes is not None else _VS)
            and gs.info.input("CLIPVERTEX") is not None
            and cso.info.output("CLIPVERTEX") is not None
        ):
            # A GS reading the clip vertex (a Gallium GS, or glpipe's generated one passing it on).
            fields["clipvertex_varying"] = True
        if edges is not None:
            gs_edge_flags, vs_edge_flags, edge_fill = edges
            # The GS is the generated one whenever this is set (polygon_edges.py).
            if stage == _GS:
                fields["edge_flags"] = gs_edge_flags
            elif stage == _VS and vs_edge_flags:
                fields["edge_flags"] = vs_edge_flags
            elif stage == _FS and edge_fill:
                fields["edge_fill"] = edge_fill
                if gs_edge_flags & EDGE_FLAGS_STIPPLE:  # the counters along the edges
                    fields["edge_stipple"] = True
        if line_stipple and (stage == _GS or (stage == _VS and line_stipple == 2)):
            # The GS is the last stage whenever line_stipple is set (line_stipple.py).
            fields["line_stipple"] = line_stipple
        if last:
            if rast[_r.KEY_CLAMP_VERTEX]:
                fields["clamp_vertex_color"] = True
            written = written_clip_distances(cso.ir)  # (cull distances are not clip distances)
            if not written:
                if rast[_r.KEY_CLIP_PLANES]:
                    fields["clip_plane_enable"] = rast[_r.KEY_CLIP_PLANES]
            else:
                # The shader's own distances: clip_plane_enable selects which
                # clip (Gallium).  llvmpipe clips by every distance written when
                # none is enabled, so the disabled ones are written as 0.0 (the
                # FS reads CLIPDIST from a varying holding the values written).
                disabled = written & ~rast[_r.KEY_CLIP_PLANES] & 0xFF
                if disabled:
                    fields["disabled_clip_distances"] = disabled
            # A negative viewport y scale, XOR bottom_edge_rule's clip origin
            # UPPER_LEFT (whose mirror the stage undoes; rasterizer.py _origin_key).
            if env.y_flip != rast[_r.KEY_BOTTOM_EDGE_RULE]:
                fields["y_flip"] = True
            if rast[_r.KEY_DEPTH_CLIP] == _r.DEPTH_CLIP_FAR:
                # Near plane off, far on: the viewport's z transform in the
                # stage, host depth range [0, 1] (glpipe/viewport.py).
                self.ctx.viewport_part.check_viewport_depth(cso)
                fields["viewport_depth"] = True
            if rast[_r.KEY_DEPTH_CLIP]:
                # (the host's clip distance count is a constant of the context)
                fields["depth_clip_plane"] = rast[_r.KEY_DEPTH_CLIP]
                fields["depth_clip_slot"] = _r.depth_clip_slot(
                    rast[_r.KEY_CLIP_PLANES], cso.ir, self.ctx.rasterizer_part.rast_max_clip_distances
                )
            # Set by rasterizer.py only where the host lacks the GL switch.
            if rast[_r.KEY_CLIP_HALFZ]:
                fields["clip_halfz"] = True
            if rast[_r.KEY_INTEGER_PIXEL_CENTERS]:
                fields["integer_pixel_centers"] = True
        gl_clamp_masks = env.gl_clamp.value
        if gl_clamp_masks[stage] != (0, 0, 0):
            fields["gl_clamp"] = gl_clamp_masks[stage]
        compare_pairs = env.compare.value[stage]
        if compare_pairs:
            # Only the slots this shader compares through: other shaders keep their variant.
            lookups = cso.compare_uses[0]
            shadow = tuple(pair for pair in compare_pairs if pair[0] in lookups)
            if shadow:
                fields["shadow_swizzle"] = shadow
        return VariantKey(**fields) if fields else _DEFAULT_KEY


def output_kinds(fb: FramebufferState, sample_positions: tuple = ()) -> VariantInput:
    """The holder of ``(kind of each cbuf's format, nr_cbufs, sample
    positions)`` of a FramebufferState, for ``_variant_inputs``
    (framebuffer.py keeps it per bound framebuffer; the positions only where
    the FS re-interpolates INTERP_* itself, else ())."""
    return variant_input(
        (
            tuple(_format_kind(s.format) if s is not None else "float" for s in fb.cbufs[: fb.nr_cbufs]),
            fb.nr_cbufs,
            sample_positions,
        )
    )


AREA = Area(
    "variant_keys_part",
    part=VariantKeysPart,
    drop_caches=VariantKeysPart._drop_variant_env,
)

__all__ = ["AREA", "GRAPHICS_STAGES", "VariantEnvironment", "VariantKeysPart", "output_kinds"]
