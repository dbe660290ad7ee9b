"""Which shader variant the current state needs: one VariantKey per stage.

The keys are worked out only when the program must be looked up again
(``Dirty.SHADERS``: a shader was bound; ``Dirty.PROGRAM``: some other input
of the keys changed -- the rasterizer, the DSA, the framebuffer, the
samplers ...), never per draw, and even then only for a combination of
state not seen before: ``_variant_inputs()`` gathers everything the keys
are computed from into one tuple -- the bound shader CSOs (which hash by
identity) and the *environment*, the other inputs, kept as one canonical
holder (glpipe/shaders.py ``variant_input``) that is rebuilt only when
Dirty.PROGRAM is set -- and shaders.py finds the program by that tuple
before computing any key.  ``_variant_key`` reads nothing but that tuple,
so the two cannot drift apart: a new input is one more element of
``_variant_environment`` and one more name in ``_variant_key``'s unpacking,
and whatever changes it sets Dirty.PROGRAM.

Each key field comes from one piece of Gallium state; the table below says
which, so a new variant pass adds one row here and one pass in lowering/glsl.

| key field | from | stages |
|---|---|---|
| color_output_types, nr_cbufs | framebuffer cbuf formats | FS |
| vs_input_types | vertex elements' formats: pure int/uint, snorm (clamped to -1), 32-bit uscaled (integer fetch + vec4()) (vertex.py) | VS |
| output_interpolation | the bound FS's input declarations | last stage before the rasterizer |
| alpha_func | bound DSA: alpha_func if alpha_enabled, else ALWAYS (ref in sysvals.alpha_ref) | FS |
| dual_source_blend | bound blend state reads SRC1_* factors | FS |
| gl_clamp | bound samplers with PIPE_TEX_WRAP_CLAMP and a LINEAR filter, per slot (samplers.py) | every stage |
| shadow_swizzle | bound depth views' comparison classes (what the view swizzle makes of (c, c, c, 1), worked out at create_sampler_view; sampler_compare.py ``_compare_pairs``), only for the SVIEW slots the stage's shader reads with comparing lookups (lowering/glsl/shadow_swizzle.py ``compare_uses``) | every stage |
| flatshade | rasterizer flatshade, when the FS has COLOR-interpolated inputs (rasterizer.py) | FS and last stage before the rasterizer |
| two_side | rasterizer light_twoside, when the FS reads COLOR | FS and last stage before the rasterizer |
| clamp_vertex_color | rasterizer clamp_vertex_color | last stage before the rasterizer |
| clamp_fragment_color | rasterizer clamp_fragment_color | FS |
| sprite_coord_enable, sprite_coord_mode | rasterizer, cut to the GENERIC inputs the FS declares (mode only with a bit left); draws rasterized as points only | FS |
| poly_stipple | rasterizer poly_stipple_enable (pattern in sysvals.stipple); draws rasterized as polygons only | FS |
| point_smooth | rasterizer point_smooth without point_quad_rasterization; draws rasterized as points only | FS |
| line_stipple | rasterizer line_stipple_enable, draws rasterized as lines only (pattern and factor in sysvals.line_stipple); the draw's kind (``_line_stipple_key``: 1 per strip, 2 segment bases) comes from glpipe/line_stipple.py, which also inserts a generated GS when the shaders have none | FS (1), GS (1 or 2), VS (2: gl_InstanceID out) |
| edge_flags, edge_fill | rasterizer fill modes with a drawn face drawn as lines or points (``edge_fill`` = that mode; with two drawn modes fill_modes.py keys each run's), for draws with edge flags: translated QUADS / QUAD_STRIP / POLYGON (boundary masks) or a VS writing EDGEFLAG, fed by the VS (``_edge_key`` from glpipe/polygon_edges.py, which inserts a generated GS) | GS and VS (edge_flags), FS (edge_fill) |
| clipvertex_varying | the stage writes CLIPVERTEX and the GS after it reads it (a Gallium GS, or a generated one passing it on) | VS or TES before a GS |
| line_last_pixel | rasterizer line_last_pixel (off with line_smooth or multisample; 2 with integer pixel centres), for line primitives only (``_line_last_pixel_key`` from glpipe/line_stipple.py, which inserts the same generated GS) | GS |
| depth_offset | rasterizer offset_units_unscaled with non-zero units, when the drawn fill mode's offset switch is on (values in sysvals.depth_offset); draws of polygons only (``PRIM_CLASS_OFFSET``), and not for an FS writing depth | FS |
| clip_plane_enable | rasterizer, when the last stage writes no CLIPDIST (planes in sysvals.clip_plane) | last stage before the rasterizer |
| depth_clip_plane, depth_clip_slot | rasterizer depth_clip_near != depth_clip_far (the plane that still clips); the slot from ``rasterizer.depth_clip_slot`` (free of user planes and the shader's CLIPDIST) | last stage before the rasterizer |
| disabled_clip_distances | CLIPDIST the last stage writes minus the rasterizer's clip_plane_enable | last stage before the rasterizer |
| window_rectangles, window_rectangles_include | set_window_rectangles count and mode (rects in sysvals.window_rect) | FS |
| y_flip | a viewport with a negative y scale (viewport.py; GL has no flipped viewport) XOR rasterizer bottom_edge_rule (clip origin UPPER_LEFT, rasterizer.py) | last stage before the rasterizer |
| viewport_depth | rasterizer depth_clip_near False with depth_clip_far True (viewport 0's z transform from sysvals; viewport.py gives the host the depth range [0, 1]) | last stage before the rasterizer |
| clip_halfz | rasterizer clip_halfz, only on a host without `clip_control` (glClipControl does it natively; viewport.py gives GL the halfz depth range either way) | last stage before the rasterizer |
| integer_pixel_centers | rasterizer half_pixel_center = False, only on a host without `viewport_array` (float viewports shift by half a pixel natively, viewport.py); the scale is sysvals.viewport_scale | last stage before the rasterizer |

The primitive class.  Stipple applies to polygons only, sprite coordinates
and point smoothing to points only, so while the bound rasterizer has one of
those on (``RasterizerCSO.prim_classes`` is not None) the class of what the
draw rasterizes -- points, lines or polygons -- is one more input of the
environment; otherwise that input is None and costs nothing.  Such a
rasterizer keeps Dirty.DRAW_STATE set (rasterizer.py's bind, draw_vbo's
general path), so each draw goes through ``_draw_general``, which calls
``_key_prim_class(mode)`` before the dirty blocks are applied: it sets
Dirty.PROGRAM only when the class differs from the one keyed last, so a
series of same-class draws costs a tuple index and a compare, and
alternating classes one program lookup by inputs per switch.  The class is
that of the last stage before the rasterizer (``_rasterized_classes``): a
bound GS by its GS_OUTPUT_PRIMITIVE, else a bound TES by TES_POINT_MODE
(points) and TES_PRIM_MODE (isolines: lines; triangles, quads: polygons),
else the draw's mode reduced (u_reduced_prim); polygons then take the
rasterizer's fill mode (POINT / LINE: points / lines).  With two fill modes
(faces drawn differently) glpipe/fill_modes.py splits the draw into runs of
one facing and keys each run's class itself.
"""

from __future__ import annotations

from lowering.glsl.variant import PIPE_FUNC_ALWAYS as _ALPHA_ALWAYS
from lowering.glsl.passes.vertex import written_clip_distances
from lowering.glsl.variant import VariantKey

from . import rasterizer_keys as _r
from .defs import Prim, ShaderType
from .dirty import Dirty
from .formats import util_format_description
from .shaders import GRAPHICS_STAGES, variant_input

_DEFAULT_KEY = VariantKey()
_PROGRAM = Dirty.PROGRAM
_POINTS, _LINES, _POLYGONS = _r.PRIM_CLASS_POINTS, _r.PRIM_CLASS_LINES, _r.PRIM_CLASS_POLYGONS
_OFFSET = _r.PRIM_CLASS_OFFSET

# u_reduced_prim: the class of each Prim by value (PATCHES: a TES decides).
_REDUCED = {Prim.POINTS: _POINTS, Prim.LINES: _LINES, Prim.LINE_LOOP: _LINES, Prim.LINE_STRIP: _LINES,
            Prim.LINES_ADJACENCY: _LINES, Prim.LINE_STRIP_ADJACENCY: _LINES}
_NPRIMS = max(int(p) for p in Prim) + 1
_REDUCED_BY_MODE = tuple(_REDUCED.get(p, _POLYGONS) for p in range(_NPRIMS))
# GS_OUTPUT_PRIMITIVE -> class (a GS emits points, line strips or triangle strips).
_GS_OUTPUT_CLASS = {"POINTS": _POINTS, "LINE_STRIP": _LINES, "LINES": _LINES}
_PIPE_PRIM_LINES = int(Prim.LINES)  # TES_PRIM_MODE of isolines
# What may change the class table: a shader bound (GS/TES) or deleted, a rasterizer bound.
_CLASS_INPUTS = Dirty.SHADERS | Dirty.PROGRAM | Dirty.RASTERIZER_CSO | Dirty.RASTERIZER
_VS, _TCS, _TES, _GS, _FS = (int(s) for s in (ShaderType.VERTEX, ShaderType.TESS_CTRL, ShaderType.TESS_EVAL,
                                              ShaderType.GEOMETRY, ShaderType.FRAGMENT))


def _format_kind(fmt) -> str:
    desc = util_format_description(fmt)
    if desc.is_pure_uint:
        return "uint"
    if desc.is_pure_sint:
        return "int"
    return "float"


class VariantKeyMixin:
    """Computes ``_variant_key(stage, cso, inputs)`` from ``_variant_inputs()`` (mixed into Context)."""

    # The primitive class keyed last and the class of each draw mode (the
    # module docstring); class attributes, so Context needs no init for them.
    _prim_class = None
    _prim_class_table = None
    _variant_env = None

    def _last_vertex_stage(self):
        for stage in (ShaderType.GEOMETRY, ShaderType.TESS_EVAL, ShaderType.VERTEX):
            if self.shader_part.shaders[stage] is not None:
                return stage
        return None

    def _key_prim_class(self, mode) -> None:
        """draw_vbo's general path, while a class-sensitive rasterizer is bound
        (see the module docstring): key the class ``mode`` rasterizes as,
        setting Dirty.PROGRAM when it differs from the one keyed last."""
        table = self._prim_class_table
        if table is None or self.dirty & _CLASS_INPUTS:
            table = self._prim_class_table = self._rasterized_classes()
        if 0 <= mode < _NPRIMS:  # (an unknown mode raises later, in the draw)
            cls = table[mode]
            if cls != self._prim_class:
                self._prim_class = cls
                self.dirty |= _PROGRAM

    def _rasterized_classes(self) -> tuple:
        """The class each draw mode rasterizes as under the bound shaders and
        rasterizer (the module docstring has the rule)."""
        gs, tes = self.shader_part.shaders[_GS], self.shader_part.shaders[_TES]
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
        fill = (self.rasterizer or self._rasterizer_default).prim_classes or (_POINTS, _LINES, _POLYGONS)
        return tuple(fill[c] for c in base)

    def _variant_inputs(self) -> tuple:
        """Everything the variant keys of the bound shaders depend on: the
        five graphics-stage CSOs and the environment holder (see the module
        docstring; ``_variant_key`` names the elements).  The environment is
        rebuilt only when Dirty.PROGRAM says one of its inputs changed."""
        env = self._variant_env
        if env is None or self.dirty & _PROGRAM:
            env = self._variant_env = self._variant_environment()
        sh = self.shader_part.shaders
        gs = sh[_GS]
        if gs is None and self._rast_line_gs:
            gs = self._line_stipple_gs  # glpipe/line_stipple.py: the generated pass-through GS (or None)
        if gs is None and self._rast_edge_fill:
            gs = self._edge_gs  # glpipe/polygon_edges.py: the generated pass-through GS (or None)
        return (sh[_VS], sh[_TCS], sh[_TES], gs, sh[_FS], env)

    def _variant_environment(self):
        """The canonical holder of the variant-key inputs other than the
        shaders.  Structured values are holders themselves, stored by their
        setters, so the tuple hashes without walking them."""
        velems = self.velems
        return variant_input((
            self._fb_output_kinds,  # glpipe/framebuffer.py: (kinds of the cbufs, nr_cbufs)
            self.dsa_part.alpha_func_key,     # glpipe/depth_stencil_alpha.py
            self.blend_part.dual_source_key,  # glpipe/blend.py
            velems.vs_input if velems is not None else None,  # glpipe/vertex.py: vs_input_types
            self._rast_key,         # glpipe/rasterizer.py: the bound rasterizer's variant fields
            self._window_rect_key,  # glpipe/rasterizer.py: (count, include)
            self._viewport_y_flip,  # glpipe/viewport.py
            # The draw's primitive class, only while the rasterizer has a class-sensitive field on.
            self._prim_class if self._rast_class_sensitive else None,
            # glpipe/line_stipple.py: 0 (no stipple for this draw), 1 (per strip), 2 (segment bases).
            self._line_stipple_key if self._rast_line_stipple else 0,
            # glpipe/line_stipple.py: the draw's line_last_pixel (0: none).
            self._line_last_pixel_key if self._rast_line_last_pixel else 0,
            # glpipe/polygon_edges.py: (GS bits, VS bits, fill modes) of the draw's edge flags, or None.
            self._edge_key if self._rast_edge_fill else None,
            self._gl_clamp_input,  # glpipe/samplers.py: _gl_clamp_masks (per stage)
            self._compare_class_input))  # glpipe/sampler_compare.py: _compare_pairs (per stage)

    def _variant_key(self, stage: ShaderType, cso, inputs: tuple) -> VariantKey:
        """The VariantKey of ``cso`` (bound at ``stage``) for ``inputs``
        (``_variant_inputs()``); reads nothing else of the context."""
        vs, _tcs, tes, gs, fs, env = inputs
        (fb_kinds, alpha_func, dual_source, vs_input, rast_input, window_rects, y_flip, prim_class,
         line_stipple, line_last_pixel, edges, gl_clamp_input, compare_input) = env.value
        color_kinds, nr_cbufs = fb_kinds.value
        vs_input_types = vs_input.value if vs_input is not None else None
        rast = rast_input.value
        window_rect_count, window_rect_include = window_rects.value
        gl_clamp_masks = gl_clamp_input.value
        # rasterizer.py or-s PRIM_CLASS_OFFSET into the class of polygons an
        # unscaled offset applies to; the class comparisons below see the class.
        offset_draw = prim_class is not None and prim_class & _OFFSET
        if offset_draw:
            prim_class &= ~_OFFSET
        fields = {}
        fs_inputs = fs.info.inputs if fs is not None else ()
        last = stage == (_GS if gs is not None else _TES if tes is not None else _VS if vs is not None else None)
        if stage == _FS:
            if any(t != "float" for t in color_kinds):
                fields["color_output_types"] = color_kinds
            fields["nr_cbufs"] = nr_cbufs
            if alpha_func != _ALPHA_ALWAYS:
                fields["alpha_func"] = alpha_func
            if dual_source:
                fields["dual_source_blend"] = True
        if stage == _VS and vs_input_types is not None:
            if any(t != "float" for t in vs_input_types):  # per attribute location (dual_slot aware)
                fields["vs_input_types"] = vs_input_types
        if last and fs is not None:
            # CLIPDIST inputs always: the last stage passes them in a varying
            # (lowering/glsl/passes/vertex.py copy_clipdist_varyings).
            fields["output_interpolation"] = tuple(
                (io.semantic, io.semantic_index, io.interpolate or "PERSPECTIVE", io.location)
                for io in fs_inputs
                if io.semantic is not None and (io.interpolate is not None or io.semantic == "CLIPDIST"))
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
                sprites &= sum(1 << io.semantic_index for io in fs_inputs
                               if io.semantic == "GENERIC" and io.semantic_index < 16)
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
        if line_last_pixel and stage == _GS:
            # The GS is the last stage whenever this is set (line_stipple.py).
            fields["line_last_pixel"] = line_last_pixel
        if gs is not None and stage == (_TES if tes is not None else _VS) and gs.info.input("CLIPVERTEX") is not None \
                and cso.info.output("CLIPVERTEX") is not None:
            # A GS reading the clip vertex (a Gallium GS, or glpipe's generated one passing it on).
            fields["clipvertex_varying"] = True
        if edges is not None:
            # The GS is the generated one whenever this is set (polygon_edges.py).
            if stage == _GS:
                fields["edge_flags"] = edges[0]
            elif stage == _VS and edges[1]:
                fields["edge_flags"] = edges[1]
            elif stage == _FS and edges[2]:
                fields["edge_fill"] = edges[2]
                if edges[0] & 4:  # EDGE_FLAGS_STIPPLE: the counters along the edges
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
            if y_flip != rast[_r.KEY_BOTTOM_EDGE_RULE]:
                fields["y_flip"] = True
            if rast[_r.KEY_DEPTH_CLIP] == _r.DEPTH_CLIP_FAR:
                # Near plane off, far on: the viewport's z transform in the
                # stage, host depth range [0, 1] (glpipe/viewport.py).
                self._check_viewport_depth(cso)
                fields["viewport_depth"] = True
            if rast[_r.KEY_DEPTH_CLIP]:
                # (the host's clip distance count is a constant of the context)
                fields["depth_clip_plane"] = rast[_r.KEY_DEPTH_CLIP]
                fields["depth_clip_slot"] = _r.depth_clip_slot(rast[_r.KEY_CLIP_PLANES], cso.ir,
                                                               self._rast_max_clip_distances)
            # Set by rasterizer.py only where the host lacks the GL switch.
            if rast[_r.KEY_CLIP_HALFZ]:
                fields["clip_halfz"] = True
            if rast[_r.KEY_INTEGER_PIXEL_CENTERS]:
                fields["integer_pixel_centers"] = True
        if gl_clamp_masks[stage] != (0, 0, 0):
            fields["gl_clamp"] = gl_clamp_masks[stage]
        compare_pairs = compare_input.value[stage]
        if compare_pairs:
            # Only the slots this shader compares through: other shaders keep their variant.
            lookups = cso.compare_uses[0]
            shadow = tuple(pair for pair in compare_pairs if pair[0] in lookups)
            if shadow:
                fields["shadow_swizzle"] = shadow
        return VariantKey(**fields) if fields else _DEFAULT_KEY


def output_kinds(fb):
    """The holder of ``(kind of each cbuf's format, nr_cbufs)`` of a
    FramebufferState, for ``_variant_inputs`` (framebuffer.py keeps it per
    bound framebuffer)."""
    return variant_input((tuple(_format_kind(s.format) if s is not None else "float"
                                for s in fb.cbufs[:fb.nr_cbufs]), fb.nr_cbufs))


__all__ = ["VariantKeyMixin", "GRAPHICS_STAGES", "output_kinds"]
