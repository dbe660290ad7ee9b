"""Which shader variant the current state needs: one VariantKey per stage.

The key is recomputed only when ``Dirty.PROGRAM`` is set (a shader, the
rasterizer, the DSA, the framebuffer or the samplers changed), never per
draw.  Each field comes from one piece of Gallium state; the table below
says which, so a new variant pass adds one row here and one pass in
lowering/glsl.

| key field | from | stages |
|---|---|---|
| color_output_types, nr_cbufs | framebuffer cbuf formats | FS |
| vs_input_types | vertex elements' formats (pure int/uint) | VS |
| output_interpolation | the bound FS's input declarations | last stage before the rasterizer |
| alpha_func | bound DSA: alpha_func if alpha_enabled, else ALWAYS (ref in sysvals.alpha_ref) | FS |
| dual_source_blend | bound blend state reads SRC1_* factors | FS |
| gl_clamp | bound samplers with PIPE_TEX_WRAP_CLAMP and a LINEAR filter, per slot (samplers.py) | every stage |
| flatshade | rasterizer flatshade, when the FS has COLOR-interpolated inputs (rasterizer.py) | FS and last stage before the rasterizer |
| two_side | rasterizer light_twoside, when the FS reads COLOR | FS and last stage before the rasterizer |
| clamp_vertex_color | rasterizer clamp_vertex_color | last stage before the rasterizer |
| clamp_fragment_color | rasterizer clamp_fragment_color | FS |
| sprite_coord_enable, sprite_coord_mode | rasterizer, cut to the GENERIC inputs the FS declares (mode only with a bit left) | FS |
| poly_stipple | rasterizer poly_stipple_enable (pattern in sysvals.stipple) | FS |
| clip_plane_enable | rasterizer, when the last stage writes no CLIPDIST (planes in sysvals.clip_plane) | last stage before the rasterizer |
| disabled_clip_distances | CLIPDIST the last stage writes minus the rasterizer's clip_plane_enable | last stage before the rasterizer |
| window_rectangles, window_rectangles_include | set_window_rectangles count and mode (rects in sysvals.window_rect) | FS |
| y_flip | a viewport with a negative y scale (viewport.py; GL has no flipped viewport) | last stage before the rasterizer |
"""

from __future__ import annotations

from lowering.glsl.variant import PIPE_FUNC_ALWAYS as _ALPHA_ALWAYS
from lowering.glsl.passes_vertex import written_clip_distances
from lowering.glsl.variant import VariantKey

from . import rasterizer as _r
from .defs import ShaderType
from .formats import util_format_description
from .shaders import GRAPHICS_STAGES

_DEFAULT_KEY = VariantKey()


def _format_kind(fmt) -> str:
    desc = util_format_description(fmt)
    if desc.is_pure_uint:
        return "uint"
    if desc.is_pure_sint:
        return "int"
    return "float"


class VariantKeyMixin:
    """Computes ``_variant_key(stage, cso)`` from the bound state (mixed into Context)."""

    def _last_vertex_stage(self):
        for stage in (ShaderType.GEOMETRY, ShaderType.TESS_EVAL, ShaderType.VERTEX):
            if self.shaders[stage] is not None:
                return stage
        return None

    def _variant_key(self, stage: ShaderType, cso) -> VariantKey:
        fields = {}
        if stage == ShaderType.FRAGMENT:
            fb = self.framebuffer
            types = tuple(_format_kind(s.format) if s is not None else "float" for s in fb.cbufs[:fb.nr_cbufs])
            if any(t != "float" for t in types):
                fields["color_output_types"] = types
            fields["nr_cbufs"] = fb.nr_cbufs
            if self._alpha_func_key != _ALPHA_ALWAYS:  # glpipe/depth_stencil_alpha.py
                fields["alpha_func"] = self._alpha_func_key
            if self._dual_source_key:  # glpipe/blend.py
                fields["dual_source_blend"] = True
        if stage == ShaderType.VERTEX and self.velems is not None:
            types = self.velems.vs_input_types  # per attribute location (dual_slot aware)
            if any(t != "float" for t in types):
                fields["vs_input_types"] = types
        if stage == self._last_vertex_stage():
            fs = self.shaders[ShaderType.FRAGMENT]
            if fs is not None:
                fields["output_interpolation"] = tuple(
                    (io.semantic, io.semantic_index, io.interpolate or "PERSPECTIVE", io.location)
                    for io in fs.info.inputs
                    if io.semantic is not None and io.interpolate is not None)
        rast = self._rast_key  # glpipe/rasterizer.py: the bound rasterizer's variant fields
        last = stage == self._last_vertex_stage()
        if stage == ShaderType.FRAGMENT or last:
            fs = self.shaders[ShaderType.FRAGMENT]
            fs_inputs = fs.info.inputs if fs is not None else ()
            if rast[_r.KEY_FLATSHADE] and any(io.interpolate == "COLOR" for io in fs_inputs):
                fields["flatshade"] = True
            # The FS picks front or back; the last stage declares (and fills) BCOLOR.
            if rast[_r.KEY_TWO_SIDE] and any(io.semantic == "COLOR" for io in fs_inputs):
                fields["two_side"] = True
        if stage == ShaderType.FRAGMENT:
            if rast[_r.KEY_CLAMP_FRAGMENT]:
                fields["clamp_fragment_color"] = True
            sprites = rast[_r.KEY_SPRITE_ENABLE]
            if sprites:
                sprites &= sum(1 << io.semantic_index for io in fs_inputs
                               if io.semantic == "GENERIC" and io.semantic_index < 16)
                if sprites:
                    fields["sprite_coord_enable"] = sprites
                    fields["sprite_coord_mode"] = rast[_r.KEY_SPRITE_MODE]
            if rast[_r.KEY_POLY_STIPPLE]:
                fields["poly_stipple"] = True
            count, include = self._window_rect_key
            if count or include:
                fields["window_rectangles"] = count
                fields["window_rectangles_include"] = include
        if last:
            if rast[_r.KEY_CLAMP_VERTEX]:
                fields["clamp_vertex_color"] = True
            if not cso.info.writes_clipdist:
                if rast[_r.KEY_CLIP_PLANES]:
                    fields["clip_plane_enable"] = rast[_r.KEY_CLIP_PLANES]
            else:
                # The shader's own distances: clip_plane_enable selects which
                # clip (Gallium).  llvmpipe clips by every distance written when
                # none is enabled, so the disabled ones are written as 0.0.
                disabled = written_clip_distances(cso.ir) & ~rast[_r.KEY_CLIP_PLANES] & 0xFF
                if disabled:
                    fields["disabled_clip_distances"] = disabled
            if self._viewport_y_flip:  # glpipe/viewport.py
                fields["y_flip"] = True
        if self._gl_clamp_masks[stage] != (0, 0, 0):
            fields["gl_clamp"] = self._gl_clamp_masks[stage]
        return VariantKey(**fields) if fields else _DEFAULT_KEY


__all__ = ["VariantKeyMixin", "GRAPHICS_STAGES"]
