"""Line stipple (RasterizerState.line_stipple_enable / _factor / _pattern)
and line last pixel (line_last_pixel) through shader variants:
``LineStipplePart`` (``ctx.line_stipple_part``) keys each draw's line kind
(a table per draw mode), makes the generated pass-through GS both use, and
runs the segment-base pre-pass of stippled strips and loops.

The rule, the table of what each draw needs and the costs are in
docs/rasterizer.md ("Line stipple", "Line last pixel"); the passes are
lowering/glsl/passes/stipple.py and last_pixel.py.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from lowering import parse, validate
from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.passes.last_pixel import VERTEX_FACTOR as LAST_PIXEL_VERTEX_FACTOR
from lowering.glsl.passes.smooth_line import EXTRA_COMPONENTS as SMOOTH_COMPONENTS
from lowering.glsl.passes.smooth_line import VERTEX_FACTOR as SMOOTH_VERTEX_FACTOR
from lowering.glsl.passes.stipple import bases_unit

from ..dirty import Dirty
from ..enums import Prim, ShaderType
from ..part import Area, Part
from ..shaders import ShaderCSO
from .rasterizer_keys import PRIM_CLASS_LINES

_VS, _TES, _GS = int(ShaderType.VERTEX), int(ShaderType.TESS_EVAL), int(ShaderType.GEOMETRY)
_NPRIMS = max(int(p) for p in Prim) + 1
_PIPE_PRIM_LINES = int(Prim.LINES)  # TES_PRIM_MODE of isolines
_CLASS_INPUTS = Dirty.SHADERS | Dirty.PROGRAM | Dirty.RASTERIZER_CSO | Dirty.RASTERIZER


class _LineKind(NamedTuple):
    """How a draw mode is rasterized as lines (docs/rasterizer.md "Line stipple")."""

    stipple_key: int  # the line_stipple variant-key input: 1 a counter per GS output strip, 2 segment bases
    input_prim: str | None  # the generated GS's input primitive, None: no generated GS
    assembly: Prim | None  # the assembly the pre-pass computes segment bases for, or None


class _LineEntry(NamedTuple):
    """A draw mode's entry of the table (``_line_stipple_table``): what it
    keys.  The per-draw test is an identity compare with the entry keyed last."""

    stipple_key: int  # LineStipplePart.line_stipple_key (0: no stipple)
    input_prim: str | None  # the generated GS's input primitive, or None
    assembly: Prim | None  # not None: the segment-base pre-pass runs
    last_pixel: int  # LineStipplePart.line_last_pixel_key (0: none)
    smooth: float  # LineStipplePart.line_smooth_key: glpipe's antialiased lines' width (0.0: none)


_OFF = _LineEntry(0, None, None, 0, 0.0)
_USER_GS = _LineKind(1, None, None)
_SEGMENTS = _LineKind(1, "LINES", None)
_SEGMENTS_ADJ = _LineKind(1, "LINES_ADJACENCY", None)
_STRIP = _LineKind(2, "LINES", Prim.LINE_STRIP)
_LOOP = _LineKind(2, "LINES", Prim.LINE_LOOP)
_STRIP_ADJ = _LineKind(2, "LINES_ADJACENCY", Prim.LINE_STRIP_ADJACENCY)
_BY_MODE = {
    Prim.LINES: _SEGMENTS,
    Prim.LINES_ADJACENCY: _SEGMENTS_ADJ,
    Prim.LINE_STRIP: _STRIP,
    Prim.LINE_LOOP: _LOOP,
    Prim.LINE_STRIP_ADJACENCY: _STRIP_ADJ,
}
_LINE_MODES = frozenset(_BY_MODE)
_REFUSE_GS_SIZE = (
    "draw_vbo: RasterizerState.line_last_pixel: the bound geometry shader emits up to three vertices "
    "per vertex with it (each segment's end, the last pixel's segment, the end again), which "
    "exceeds the host's GL_MAX_GEOMETRY_OUTPUT_VERTICES / _TOTAL_OUTPUT_COMPONENTS"
)
_REFUSE_SMOOTH_GS_SIZE = (
    "draw_vbo: RasterizerState.line_smooth: glpipe draws antialiased lines on this host (docs/host.md, "
    "smooth_line_crash) as quads, five vertices per vertex the bound geometry shader emits, which "
    "exceeds the host's GL_MAX_GEOMETRY_OUTPUT_VERTICES / _TOTAL_OUTPUT_COMPONENTS"
)
_REFUSE_FILL_LINE = (
    "draw_vbo: RasterizerState.line_stipple_enable: triangles made by a geometry or "
    "tessellation shader and drawn with fill mode LINE would need their edges stippled, which "
    "glpipe does not do (it stipples the edges of polygons the vertex shader feeds)"
)

# Outputs of the last vertex stage the generated GS cannot pass through: GL
# has no GS input for them (a GS writes them itself).
_NOT_PASSED = frozenset({"LAYER", "VIEWPORT_INDEX", "EDGEFLAG", "VIEWPORT_MASK"})
_DROPPED = frozenset({"EDGEFLAG"})  # ignored by GL for lines anyway


# Generated GS input primitive -> (output primitive, the input vertices it emits).
_PASSTHROUGH = {
    "LINES": ("LINE_STRIP", (0, 1)),
    "LINES_ADJACENCY": ("LINE_STRIP", (1, 2)),
    "TRIANGLES": ("TRIANGLE_STRIP", (0, 1, 2)),
}


def passthrough_gs_tokens(source, input_prim: str, field: str = "line_stipple_enable") -> str:
    """TGSI of a GS that passes every output of ``source`` (the last vertex
    stage's IR + info) through for one primitive: input LINES (vertices 0,
    1) or LINES_ADJACENCY (vertices 1, 2) out as a 2-vertex LINE_STRIP,
    TRIANGLES (glpipe/raster/polygon_edges.py) as a 3-vertex TRIANGLE_STRIP.
    ``field`` names the rasterizer field that needs the GS (in errors)."""
    output_prim, emitted = _PASSTHROUGH[input_prim]
    ir, info = source
    regs = []
    for io in info.outputs:
        if io.semantic in _DROPPED:
            continue
        if io.semantic in _NOT_PASSED:
            raise UnsupportedError(
                f"draw_vbo: RasterizerState.{field}: the {io.semantic} output of the last "
                f"vertex stage cannot pass through glpipe's generated GS"
            )
        regs.append(io)
    lines = [
        "GEOM",
        f"PROPERTY GS_INPUT_PRIMITIVE {input_prim}",
        f"PROPERTY GS_OUTPUT_PRIMITIVE {output_prim}",
        f"PROPERTY GS_MAX_OUTPUT_VERTICES {len(emitted)}",
    ]
    for prop in ("NUM_CLIPDIST_ENABLED", "NUM_CULLDIST_ENABLED"):
        value = ir.property(prop, None)
        if value is not None:
            lines.append(f"PROPERTY {prop} {value}")
    for k, io in enumerate(regs):
        sem = f"{io.semantic}[{io.semantic_index}]" if io.semantic is not None else "GENERIC[0]"
        lines.append(f"DCL IN[][{k}], {sem}")
    for k, io in enumerate(regs):
        sem = f"{io.semantic}[{io.semantic_index}]"
        interp = f", {io.interpolate}" if io.interpolate else ""
        lines.append(f"DCL OUT[{k}], {sem}{interp}")
    # The primitive ID too: with a GS in the pipeline the FS's gl_PrimitiveID
    # is what the GS writes (undefined if it writes none).
    prim_id = len(regs)
    lines += ["DCL SV[0], PRIM_ID", f"DCL OUT[{prim_id}], PRIM_ID", "IMM[0] UINT32 {0, 0, 0, 0}"]
    n = 0
    for v in emitted:
        for k in range(len(regs)):
            lines.append(f"{n:4}: MOV OUT[{k}], IN[{v}][{k}]")
            n += 1
        lines.append(f"{n:4}: MOV OUT[{prim_id}].x, SV[0].xxxx")
        n += 1
        lines.append(f"{n:4}: EMIT IMM[0].xxxx")
        n += 1
    lines += [f"{n:4}: ENDPRIM IMM[0].xxxx", f"{n + 1:4}: END"]
    return "\n".join(lines) + "\n"


def segment_bases(window: np.ndarray, vertex_rows: np.ndarray, restart: np.ndarray, assembly) -> np.ndarray:
    """The base (major-axis window length before it) of every segment of one
    instance, in GL's primitive order.  ``window``: (N, 2) window positions
    of the captured vertices; ``vertex_rows``: the draw's vertices as rows
    of ``window`` in draw order; ``restart``: True where the draw restarts."""
    out = []
    cuts = np.flatnonzero(restart)
    begin = 0
    for end in list(cuts) + [len(vertex_rows)]:
        strip = vertex_rows[begin:end]
        begin = end + 1
        if assembly == Prim.LINE_STRIP_ADJACENCY:
            strip = strip[1:-1] if len(strip) >= 4 else strip[:0]
        elif assembly == Prim.LINE_LOOP and len(strip) >= 2:
            strip = np.append(strip, strip[0])  # the closing segment, numbered last
        if len(strip) < 2:
            continue
        pos = window[strip]
        length = np.abs(np.diff(pos, axis=0)).max(axis=1)
        out.append(np.concatenate(([0.0], np.cumsum(length)[:-1])))
    return np.concatenate(out) if out else np.zeros(0)


class BufferTexture:
    """A GL buffer and the buffer texture reading it: what glpipe's
    generated GS reads per primitive (segment bases here, boundary masks and
    edge counters in glpipe/raster/polygon_edges.py)."""

    __slots__ = ("buffer", "texture")

    def __init__(self, gl) -> None:
        self.buffer = int(gl.glGenBuffers(1))
        self.texture = int(gl.glGenTextures(1))

    def delete(self, gl) -> None:
        """Delete both GL objects."""
        gl.glDeleteBuffers(1, [self.buffer])
        gl.glDeleteTextures(1, [self.texture])


class LineStipplePart(Part):
    """The line stipple / line last pixel emulation (``ctx.line_stipple_part``;
    docs/rasterizer.md "Line stipple"), reached from the draw through the rasterizer's
    hooks.  Nothing is made until the first stippled draw."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.line_stipple_key = 0  # variant-key input (glpipe/variant_keys.py)
        self.line_last_pixel_key = 0  # variant-key input: the draw's line_last_pixel (0: none)
        self.line_smooth_key = 0.0  # variant-key input: the draw's antialiased line width (0.0: none)
        self.line_stipple_gs = None  # the generated GS CSO of the current draw kind
        self._ls_table = None  # entry per draw mode
        self._ls_entry = None  # entry keyed last
        self.ls_assembly = None  # not None: the draw runs the segment-base pre-pass
        self._ls_generated = None  # (source CSO, input primitive) -> generated GS CSO
        self._ls_gl = None  # the segment bases' BufferTexture

    def _key_line_gs(self, mode) -> None:
        """draw_vbo's general path while line_stipple_enable or
        line_last_pixel is on: key the line kind of ``mode`` (Dirty.PROGRAM
        when it changes); refuse what glpipe cannot stipple."""
        ctx = self.ctx
        table = self._ls_table
        if table is None or ctx.dirty & _CLASS_INPUTS:
            table = self._ls_table = self._line_stipple_table()
            self._ls_entry = None
        if not 0 <= mode < _NPRIMS:
            return  # an unknown mode raises later, in the draw
        entry = table[mode]
        if entry is self._ls_entry:
            return
        if isinstance(entry, str):
            raise UnsupportedError(entry)
        gs = self._generated_stipple_gs(entry.input_prim) if entry.input_prim is not None else None
        self._ls_entry = entry
        self.line_stipple_key = entry.stipple_key
        self.line_last_pixel_key = entry.last_pixel
        self.line_smooth_key = entry.smooth
        self.line_stipple_gs = gs
        self.ls_assembly = entry.assembly
        ctx.dirty |= Dirty.PROGRAM

    def _line_stipple_table(self) -> tuple:
        """The entry of every draw mode under the bound shaders and rasterizer.
        Line stipple uses the stipple table above; line_last_pixel the same
        GS (a strip needs no segment bases for it) and applies to line
        primitives only: polygon edges drawn in fill mode LINE keep GL's rule
        (docs/rasterizer.md "Line last pixel")."""
        ctx = self.ctx
        classes = ctx.variant_keys_part._rasterized_classes()  # glpipe/variant_keys.py
        gs, tes = ctx.shader_part.shaders[_GS], ctx.shader_part.shaders[_TES]
        rast = ctx.rasterizer_part
        stipple, last_pixel, smooth = rast.rast_line_stipple, rast.rast_line_last_pixel, rast.rast_line_smooth
        # Polygons drawn as lines: a VS-fed draw's edges are stippled by
        # glpipe/raster/polygon_edges.py; a GS's or TES's triangles are refused.
        fill_line = _REFUSE_FILL_LINE if stipple and (gs is not None or tes is not None) else _OFF
        table = []
        for mode in range(_NPRIMS):
            if classes[mode] != PRIM_CLASS_LINES:
                kind = None
            elif gs is not None:
                kind = _USER_GS if gs.ir.property("GS_OUTPUT_PRIMITIVE") in ("LINE_STRIP", "LINES") else None
                if kind is not None and last_pixel and self._gs_too_big(gs, LAST_PIXEL_VERTEX_FACTOR, 1):
                    table.append(_REFUSE_GS_SIZE)
                    continue
                if kind is not None and smooth and self._gs_too_big(gs, SMOOTH_VERTEX_FACTOR, SMOOTH_COMPONENTS + 1):
                    table.append(_REFUSE_SMOOTH_GS_SIZE)
                    continue
            elif tes is not None:
                kind = _SEGMENTS if tes.ir.property("TES_PRIM_MODE") == _PIPE_PRIM_LINES else None
            else:
                kind = _BY_MODE.get(mode)
            if kind is None:
                # (polygons drawn as lines: their edges stay aliased under glpipe's
                # antialiased lines, docs/rasterizer.md "Antialiased lines")
                table.append(_OFF if classes[mode] != PRIM_CLASS_LINES else fill_line)
            elif stipple:
                table.append(_LineEntry(*kind, last_pixel, smooth))
            else:  # last pixel or smoothing only: the GS, no stipple counter, no bases
                table.append(_LineEntry(0, kind.input_prim, None, last_pixel, smooth))
        return tuple(table)

    def _gs_too_big(self, gs, factor: int, extra: int) -> bool:
        """Whether the Gallium GS ``gs`` would exceed the host's GS output
        limits once a pass multiplies its vertices by ``factor`` and adds
        ``extra`` components to each (line_last_pixel: 3 and the stipple
        counter, passes/last_pixel.py; line_smooth: 5 and the quad varying
        and counter, passes/smooth_line.py); 4 components per output."""
        prof = self.ctx.screen.profile
        vertices = int(gs.ir.property("GS_MAX_OUTPUT_VERTICES", 0) or 0) * factor
        components = vertices * (4 * len(gs.info.outputs) + extra)
        return vertices > prof.limit("GL_MAX_GEOMETRY_OUTPUT_VERTICES", 256) or components > prof.limit(
            "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS", 1024
        )

    def _generated_stipple_gs(self, input_prim: str):
        """The pass-through GS after the last vertex stage (TES, else VS), one
        per (stage CSO, input primitive), parsed once."""
        ctx = self.ctx
        source = ctx.shader_part.shaders[_TES] or ctx.shader_part.shaders[_VS]
        if source is None:
            return None  # the draw raises: no vertex shader
        cache = self._ls_generated
        if cache is None:
            cache = self._ls_generated = {}
        key = (source, input_prim)
        cso = cache.get(key)
        if cso is None:
            for old in [k for k in cache if k[0].destroyed]:
                self._forget_generated_gs(cache.pop(old))
            rast = ctx.rasterizer_part
            field = (
                "line_stipple_enable"
                if rast.rast_line_stipple
                else "line_smooth"
                if rast.rast_line_smooth
                else "line_last_pixel"
            )
            tokens = passthrough_gs_tokens((source.ir, source.info), input_prim, field)
            ir = parse(tokens)
            cso = cache[key] = ShaderCSO(ctx, ShaderType.GEOMETRY, tokens, ir, validate(ir), None)
        return cso

    def _forget_generated_gs(self, cso) -> None:
        gl = self.ctx.gl
        for variant in cso.variants.values():
            gl.glDeleteShader(variant.gl_shader)
        cso.variants.clear()
        cso.destroyed = True

    # -- the segment-base pre-pass ---------------------------------------------

    def _draw_line_stipple_strips(self, info, draws) -> None:
        """Draw a LINE_STRIP / LINE_LOOP / LINE_STRIP_ADJACENCY with stipple:
        per DrawStartCountBias, the pre-pass (docs/rasterizer.md "Line stipple"), then the draw."""
        ctx = self.ctx
        capture = ctx.vertex_capture_part
        items = (
            ((info.start, info.count, info.index_bias),)
            if draws is None
            else tuple((d.start, d.count, d.index_bias) for d in draws)
        )
        instances = info.instance_count
        if instances <= 0:
            return
        source = ctx._index_values(info, items) if info.index_size else None
        mode = ctx._gl_prims[info.mode]
        for i, (start, count, bias) in enumerate(items):
            if count <= 0:
                continue
            _, restart, vids, _ = capture._item_vertices(info, source, start, count, bias)
            used = vids[~restart]
            if not len(used):
                continue
            lo, hi = int(used.min()), int(used.max())
            if lo < 0:
                raise InvalidArgumentError(f"draw_vbo: vertex {lo} (index + index_bias) is negative")
            clip = capture._capture_positions(
                lo,
                hi - lo + 1,
                instances,
                info.start_instance,
                "RasterizerState.line_stipple_enable (a LINE_STRIP / LINE_LOOP draw)",
            )
            scale = np.array(ctx.sysvals_part._get_sysval("viewport_scale")[:2], np.float64)
            translate = np.array(ctx.sysvals_part._get_sysval("viewport_translate")[:2], np.float64)
            rows = np.where(restart, 0, vids - lo)
            per_instance = []
            for inst in range(instances):
                c = clip[inst].astype(np.float64)
                w = c[:, 3:4]
                window = c[:, :2] / np.where(w == 0.0, 1.0, w) * scale + translate
                per_instance.append(segment_bases(window, rows, restart, self.ls_assembly))
            nseg = len(per_instance[0])
            self._ls_upload_bases(np.concatenate(per_instance).astype(np.float32), nseg)
            sub = dataclasses.replace(
                info,
                start=start,
                count=count,
                index_bias=bias,
                drawid=info.drawid + (i if info.increment_draw_id else 0),
            )
            ctx._draw_special(sub, mode, None)

    def _ls_objects(self) -> BufferTexture:
        """The segment bases' buffer texture, made at the first stippled strip."""
        objs = self._ls_gl
        if objs is None:
            objs = self._ls_gl = BufferTexture(self.ctx.gl)
        return objs

    def _ls_upload_bases(self, bases: np.ndarray, per_instance: int) -> None:
        """The segment bases into the buffer texture on the GEOM stage's last
        unit, and the per-instance stride into sysvals.line_stipple.z."""
        ctx = self.ctx
        self._geom_buffer_texture(self._ls_objects(), bases.astype(np.float32, copy=False), ctx.gl.GL_R32F)
        stipple = ctx.sysvals_part._get_sysval("line_stipple")
        ctx.sysvals_part._set_sysval("line_stipple", (stipple[0], stipple[1], per_instance))
        if ctx.dirty & Dirty.SYSVALS:
            ctx.sysvals_part._emit_sysvals()
            ctx.dirty &= ~Dirty.SYSVALS

    def _geom_buffer_texture(self, objs: BufferTexture, data: np.ndarray, internal_format: int) -> None:
        """``data`` into the buffer of ``objs``, read through its buffer texture
        (``internal_format``) on the GEOM stage's last unit, where
        glpipe's generated GS reads it (segment bases here, polygon edge masks
        in glpipe/raster/polygon_edges.py; never both in one draw)."""
        ctx = self.ctx
        gl = ctx.gl
        if not len(data):
            data = np.zeros(1, data.dtype)  # GL refuses an empty buffer texture
        gl.glBindBuffer(gl.GL_TEXTURE_BUFFER, objs.buffer)
        gl.glBufferData(gl.GL_TEXTURE_BUFFER, data.nbytes, data, gl.GL_STREAM_DRAW)
        gl.glBindBuffer(gl.GL_TEXTURE_BUFFER, 0)
        ctx.bindings.stage("GEOM")  # raises if the layout has no GEOM range
        unit = bases_unit(ctx.bindings)
        gl.glActiveTexture(gl.GL_TEXTURE0 + unit)
        gl.glBindTexture(gl.GL_TEXTURE_BUFFER, objs.texture)
        gl.glTexBuffer(gl.GL_TEXTURE_BUFFER, internal_format, objs.buffer)
        gl.glActiveTexture(gl.GL_TEXTURE0 + ctx.host.scratch_texture_unit)  # glpipe/sampler_views.py's rule
        ctx.sampler_views_part.unit_tex[unit] = None  # the Gallium unit's shadow no longer holds what it says
        ctx.sampler_views_part.unit_sampler[unit] = None
        ctx._counters.bytes_uploaded += data.nbytes

    def destroy(self) -> None:
        """Context.destroy: the buffer texture and the generated GSs."""
        gl = self.ctx.gl
        if self._ls_gl is not None:
            self._ls_gl.delete(gl)
            self._ls_gl = None
        for cso in (self._ls_generated or {}).values():
            self._forget_generated_gs(cso)
        self._ls_generated = None


AREA = Area("line_stipple_part", part=LineStipplePart, destroy=LineStipplePart.destroy)

__all__ = ["AREA", "BufferTexture", "LineStipplePart", "passthrough_gs_tokens", "segment_bases"]
