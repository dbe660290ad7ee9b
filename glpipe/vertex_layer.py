"""LAYER / VIEWPORT_INDEX written by the vertex shader on a host whose vertex
stages cannot write gl_Layer (GL 3.3: no GL_ARB_shader_viewport_layer_array):
the context puts a generated pass-through GS after the VS
(lowering/glsl/passes/layer.py builds it and says why it is exact; the VS
writes the values to varyings there).

Which GS a draw needs depends on its mode (a GS's input primitive must
match the draw's), so while such a VS is bound without a GS or TES every
draw takes draw_vbo's general path (KeepGeneral.VS_LAYER) and ``key_draw``
picks the GS of the draw's mode: a dictionary lookup, and Dirty.SHADERS
(a program switch) only when the GS changes.  The GSes are made once per
(VS, input primitive) and parsed once.  Other emulations that insert a
generated GS (line stipple, line last pixel, polygon edges) refuse such a VS
at draw time, naming the LAYER output.  docs/lowering.md, "Layer and
viewport index from the vertex stage".
"""

from __future__ import annotations

from lowering import parse, validate
from lowering.errors import UnsupportedError
from lowering.glsl.passes.layer import SEMANTICS, layer_gs_tokens

from .dirty import Dirty, KeepGeneral
from .enums import Prim, ShaderType
from .part import Area, Part

_VS, _TES, _GS = int(ShaderType.VERTEX), int(ShaderType.TESS_EVAL), int(ShaderType.GEOMETRY)
# u_reduced_prim with adjacency kept: the generated GS's input primitive per draw mode
# (QUADS, QUAD_STRIP, POLYGON reach GL as triangles: fallback/indices.py).
_INPUT_PRIM = {
    Prim.POINTS: "POINTS",
    Prim.LINES: "LINES",
    Prim.LINE_LOOP: "LINES",
    Prim.LINE_STRIP: "LINES",
    Prim.LINES_ADJACENCY: "LINES_ADJACENCY",
    Prim.LINE_STRIP_ADJACENCY: "LINES_ADJACENCY",
    Prim.TRIANGLES: "TRIANGLES",
    Prim.TRIANGLE_STRIP: "TRIANGLES",
    Prim.TRIANGLE_FAN: "TRIANGLES",
    Prim.QUADS: "TRIANGLES",
    Prim.QUAD_STRIP: "TRIANGLES",
    Prim.POLYGON: "TRIANGLES",
    Prim.TRIANGLES_ADJACENCY: "TRIANGLES_ADJACENCY",
    Prim.TRIANGLE_STRIP_ADJACENCY: "TRIANGLES_ADJACENCY",
}


class VertexLayerPart(Part):
    """The generated GSes of layer-writing vertex shaders (``ctx.vertex_layer_part``).

    ``source``: the bound VS that needs one (or None); ``layer_gs``: the GS of
    the draw keyed last (read by glpipe/variant_keys.py); the GSes are made
    once per (VS, input primitive) and kept until the VS is destroyed."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # Hosts whose vertex stages write gl_Layer themselves never need a GS.
        self._host_writes_layer = ctx.screen.profile.has("shader_viewport_layer_array")
        self._has_viewport_array = ctx.screen.profile.has("viewport_array")
        self.source = None
        self.layer_gs = None
        self._cache: dict = {}

    def shaders_changed(self) -> None:
        """After a shader bind: whether draws need the generated GS (the VS
        writes LAYER or VIEWPORT_INDEX, no GS or TES is bound, and the host's
        vertex stages cannot write them); keeps draw_vbo on its general path
        while they do."""
        if self._host_writes_layer:
            return
        ctx = self.ctx
        sh = ctx.shader_part.shaders
        vs = sh[_VS]
        needed = (
            vs is not None
            and sh[_GS] is None
            and sh[_TES] is None
            and any(vs.info.output(s) is not None for s in SEMANTICS)
        )
        source = vs if needed else None
        if source is self.source:
            return
        self.source = source
        if self.layer_gs is not None:
            self.layer_gs = None
            ctx.dirty |= Dirty.SHADERS
        ctx._keep_general(KeepGeneral.VS_LAYER, needed)

    def key_draw(self, mode) -> None:
        """draw_vbo's general path while ``shaders_changed`` found a layer-writing
        VS: the generated GS of ``mode`` (Dirty.SHADERS when it changes)."""
        input_prim = _INPUT_PRIM.get(mode) if isinstance(mode, int) else None
        if input_prim is None:
            if mode == Prim.PATCHES:
                raise UnsupportedError("draw_vbo: PATCHES need a tessellation evaluation shader")
            return  # an unknown mode raises later, in the draw
        ctx = self.ctx
        source = self.source
        cache = self._cache
        key = (source, input_prim)
        cso = cache.get(key)
        if cso is None:
            for old in [k for k in cache if k[0].destroyed]:
                ctx.line_stipple_part._forget_generated_gs(cache.pop(old))
            tokens = layer_gs_tokens(source.ir, source.info, input_prim, self._has_viewport_array)
            ir = parse(tokens)
            cso = cache[key] = type(source)(ctx, ShaderType.GEOMETRY, tokens, ir, validate(ir), None)
        if cso is not self.layer_gs:
            self.layer_gs = cso
            ctx.dirty |= Dirty.SHADERS

    def destroy(self) -> None:
        """Context destroy: the generated GSes' GL shaders."""
        for cso in self._cache.values():
            self.ctx.line_stipple_part._forget_generated_gs(cso)
        self._cache.clear()
        self.layer_gs = self.source = None


AREA = Area("vertex_layer_part", part=VertexLayerPart, destroy=VertexLayerPart.destroy)

__all__ = ["AREA", "VertexLayerPart"]
