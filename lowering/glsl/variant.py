"""``VariantKey``: the small, frozen, hashable record of state a shader variant depends on.

docs/lowering.md "Variant key" and "Variant passes" say which fields the emitter and the
passes honour; values that change often live in the sysvals block (docs/bindings.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from ..errors import InvalidArgumentError
from .shadow_swizzle import COMPARE, ONE, ZERO, parse_entry

_SHADOW_CLASS_ENTRIES = (COMPARE, ZERO, ONE)

# PIPE_FUNC_* (p_defines.h): the alpha test compares with these.
PIPE_FUNC_NEVER, PIPE_FUNC_LESS, PIPE_FUNC_EQUAL, PIPE_FUNC_LEQUAL = 0, 1, 2, 3
PIPE_FUNC_GREATER, PIPE_FUNC_NOTEQUAL, PIPE_FUNC_GEQUAL, PIPE_FUNC_ALWAYS = 4, 5, 6, 7

COLOR_TYPES = ("float", "int", "uint")
# Kinds of a vertex shader input (VariantKey.vs_input_types): the GLSL types
# of COLOR_TYPES, plus the two the shader must convert because a host's
# fixed-function fetch gets them wrong (llvmpipe: the SNORM minimum reads
# -128/127 instead of -1; R32*_USCALED values >= 2^31 convert as signed):
# ``snorm`` -- a ``vec4`` read as ``max(in, vec4(-1.0))``, GL 4.2+'s and
# Gallium's SNORM rule; ``uscaled`` -- a ``uvec4`` fetched through the
# integer path and read as ``vec4(in)`` (missing components are the
# integers (0, 0, 0, 1), so they still read (0.0, 0.0, 0.0, 1.0)).
VS_INPUT_TYPES = COLOR_TYPES + ("snorm", "uscaled")
INTERPOLATIONS = ("CONSTANT", "LINEAR", "PERSPECTIVE", "COLOR")
LOCATIONS = ("CENTER", "CENTROID", "SAMPLE")
# The locations an INTERP_* copy of a varying is interpolated at (passes/interp.py).
INTERP_COPY_LOCATIONS = ("CENTER", "CENTROID")


@dataclass(frozen=True)
class VariantKey:
    """The state a compiled shader variant depends on (see the module docstring).

    Fields (all default to "no change"):

    * ``flatshade`` -- rasterizer flatshade (FS and last vertex stage):
      COLOR-interpolated FS inputs and the COLOR/BCOLOR outputs feeding them
      are ``flat``.
    * ``two_side`` -- light_twoside (FS and last vertex stage): FS COLOR[n]
      reads BCOLOR[n] for back faces; the last vertex stage declares BCOLOR[n]
      and copies COLOR[n] into it when the shader writes no BCOLOR[n].
    * ``alpha_func`` -- PIPE_FUNC_* of the alpha test (FS; ALWAYS = off); the
      reference value is ``sysvals.alpha_ref.x``.
    * ``clip_plane_enable`` -- (last vertex stage) bit i: gl_ClipDistance[i] =
      dot(CLIPVERTEX or POSITION, sysvals.clip_plane[i]), unless the shader
      writes clip distances itself (cull distances alone do not count).
    * ``disabled_clip_distances`` -- (last vertex stage) bit i: the shader's
      own gl_ClipDistance[i] (a CLIPDIST output) is disabled by the
      rasterizer's clip_plane_enable and is written as 0.0, so no host clips
      by it (llvmpipe clips by every written distance when no
      GL_CLIP_DISTANCEi is enabled).  The context sets it to the written
      distances ``& ~clip_plane_enable``.  An FS reading CLIPDIST reads the
      values as written, from a varying (``output_interpolation``).
    * ``sprite_coord_enable`` / ``sprite_coord_mode`` -- (FS) bit n replaces
      GENERIC[n] (TEXCOORD[n] in a shader with TEXCOORD inputs) with the point
      coordinate (s, t, 0, 1); mode is PIPE_SPRITE_COORD_UPPER_LEFT (0: t = 0
      at the smallest window y) or LOWER_LEFT (1).  Only for point drawing.
    * ``clamp_vertex_color`` (last vertex stage) / ``clamp_fragment_color``
      (FS) -- clamp COLOR/BCOLOR outputs, float COLOR outputs, to [0, 1].
    * ``poly_stipple`` -- (FS) discard fragments whose sysvals.stipple bit is 0.
      Only for polygon drawing (the context keys the draw's primitive class).
    * ``line_stipple`` -- rasterizer line_stipple_enable, for line drawing only
      (passes/stipple.py).  FS (nonzero): discard by the ``glp_line_stipple``
      counter and sysvals.line_stipple (pattern, factor).  GS: 1 emits the
      counter, restarting at each strip; 2 (the generated GS of strips and
      loops) starts each segment at its base from a buffer texture.  VS: 2
      passes gl_InstanceID to that GS (the bases are per instance).
    * ``line_last_pixel`` -- (GS feeding the rasterizer, line strips out;
      passes/last_pixel.py) rasterizer line_last_pixel: after each segment
      whose end GL's diamond-exit rule leaves undrawn, one more short
      segment covering exactly that pixel.  1: GL pixel centres; 2: integer
      pixel centres (half_pixel_center False: Gallium's window coordinates
      are GL's minus 0.5).
    * ``edge_flags`` -- polygon edge flags for polygons drawn as lines or
      points (passes/edges.py).  GS (the generated pass-through GS): bit 0
      ANDs each triangle's boundary mask (a buffer texture, for translated
      QUADS / QUAD_STRIP / POLYGON), bit 1 the VS's edge flags, bit 2 emits
      per-edge stipple counters from a buffer texture of start values (which
      then holds the mask too); it emits the corner weights and the mask.
      VS: bit 1 passes the EDGEFLAG output on, bit 2 gl_InstanceID.
    * ``edge_fill`` -- (FS) the PIPE_POLYGON_MODE_* the draw's polygons are
      drawn in: LINE (1) kills fragments of edges whose flag is off, POINT
      (2) those of vertices whose edge is off; 0 = off (FILL).  With
      ``edge_stipple`` (LINE) the line stipple applies along each edge, by
      the counters the GS's ``edge_flags`` bit 4 emits (sysvals.line_stipple).
    * ``clipvertex_varying`` -- (VS, TES feeding a GS that reads CLIPVERTEX:
      a Gallium GS, or glpipe's generated pass-through GS) the CLIPVERTEX
      output, a local otherwise (core GL has no gl_ClipVertex), also goes out
      as the varying the GS's CLIPVERTEX input reads.
    * ``line_smooth`` -- the line width (0.0: off) of antialiased lines
      drawn by glpipe rather than the host (passes/smooth_line.py).  GS
      feeding the rasterizer (line strips out): each segment becomes a
      quad of triangles, the line's rectangle grown by half a pixel, with a
      ``glp_aa_line`` varying; FS: the colour's alpha is multiplied by the
      fragment's coverage of the rectangle, 0 coverage is discarded and the
      facing reads front (GL's lines are front-facing).
    * ``point_smooth`` -- (FS) round antialiased points: the fragment's
      coverage of a circle of diameter point size (from ``gl_PointCoord``;
      a one-pixel linear edge) multiplies the float COLOR outputs' alpha and
      a fragment with coverage 0 is discarded.  Only for point drawing.
    * ``window_rectangles`` / ``window_rectangles_include`` -- (FS) number of
      active rectangles (sysvals.window_rect) and whether they include or exclude.
    * ``gl_clamp`` -- (every stage) three sampler bitmasks (s, t, r): bit n
      means SAMP n uses PIPE_TEX_WRAP_CLAMP on that coordinate with a LINEAR
      filter; the shader clamps the coordinate, the GL sampler uses
      CLAMP_TO_BORDER.
    * ``shadow_swizzle`` -- (every stage) ``((sview, class), ...)``: the
      comparison result of lookups on SVIEW ``sview`` becomes the class's
      vector instead of Gallium's default (c, c, c, 1); a class has one
      entry per channel, 0 (c), 4 (0.0) or 5 (1.0) -- what the view's
      swizzle makes of (c, c, c, 1) (shadow_swizzle.py).
    * ``y_flip`` -- in the FS: rendering to a window-system framebuffer, GL
      rows mirrored (gl_FragCoord.y reads sysvals.fb_size.y - y); in the last
      vertex stage: gl_Position.y is negated (a negative viewport y scale XOR
      a window-system framebuffer; docs/lowering.md has the table).
    * ``clip_halfz`` -- (last vertex stage) rasterizer clip_halfz on a host
      without glClipControl: clip-space z becomes ``2z - w``, so GL's
      -w <= z' <= w clips Gallium's 0 <= z <= w; the context gives GL the
      halfz depth range (near = translate z, far = translate z + scale z).
    * ``viewport_depth`` -- (last vertex stage) the viewport's z transform
      in the shader: clip-space z becomes ``2 (z * scale_z + translate_z * w)
      - w`` (viewport 0's ``sysvals.viewport_scale`` / ``_translate``), so a
      host with NDC z in [-1, 1] and the depth range [0, 1] gives Gallium's
      window depth and clamps it to [0, 1] only (rasterizer depth_clip_near
      off with depth_clip_far on; the context gives the host that depth
      range and no halfz).  Not for a window-space position.
    * ``integer_pixel_centers`` -- (last vertex stage) rasterizer
      half_pixel_center = False on a host without float viewports: clip-space
      x and y move by +0.5 window pixel (``0.5 * w / sysvals.viewport_scale``),
      so GL's pixel centre (i + 0.5, j + 0.5) samples Gallium's (i, j).
    * ``depth_offset`` -- (FS) rasterizer offset_units_unscaled, for draws
      the offset applies to (passes/depth.py): 1 adds sysvals.depth_offset.y
      to the rasterized depth (the host offsets by the slope), 2 computes
      the whole clamped offset from the depth derivatives; the FS writes
      gl_FragDepth.
    * ``depth_clip_plane`` / ``depth_clip_slot`` -- (last vertex stage)
      depth_clip_near != depth_clip_far: the plane that still clips (1 near
      z >= -w, 2 near with clip_halfz z >= 0, 3 far z <= w) as
      gl_ClipDistance[slot] (the host's depth clamp disables both planes).
    * ``dual_source_blend`` -- the blend state uses the second color source:
      FS COLOR[1] becomes ``layout(location = 0, index = 1)``.
    * ``color_output_types`` -- per color buffer the kind of its format
      (``float``, ``int``, ``uint``); integer render targets need ``ivec4`` /
      ``uvec4`` outputs.  Missing entries are ``float``.
    * ``nr_cbufs`` -- bound color buffers; FS_COLOR0_WRITES_ALL_CBUFS writes
      COLOR[0] to this many outputs (0 means 1).
    * ``output_interpolation`` -- ``((semantic, index, interpolate, location), ...)``
      of the inputs of the stage this one feeds (CLIPDIST entries: the last
      stage fills a ``glp_clipdist_n`` varying, passes/vertex.py).  Every listed user varying is
      declared as an output even when this shader does not write it (GL does
      not link a program whose input block has no matching output; Gallium
      allows reading unwritten inputs), and the last stage before the
      rasterizer copies the FS's interpolation qualifiers (GLSL < 440
      requires them to match at link time).  For a consumer that is not the
      FS (GS/TCS/TES inputs) only (semantic, index) matters: pass e.g.
      ``"PERSPECTIVE", "CENTER"``.
    * ``vs_input_types`` -- per vertex attribute location the kind of its
      vertex format (``VS_INPUT_TYPES``): ``float`` / ``int`` / ``uint`` fix
      the GLSL type of the ``in`` variable; ``snorm`` (a ``vec4`` the shader
      reads as ``max(in, vec4(-1.0))``) and ``uscaled`` (a ``uvec4``, read as
      ``vec4(in)``) also convert it.  Missing entries (or an empty tuple)
      mean "infer from use".
    * ``cs_block_size`` -- (x, y, z) for a compute shader without
      CS_FIXED_BLOCK_* properties (GLSL needs local_size at compile time).
    * ``sample_positions`` -- (FS re-interpolating INTERP_* without
      interpolateAt*, passes/interp.py) the framebuffer's sample positions
      within the pixel, flattened ``(x0, y0, x1, y1, ...)`` in GL's
      convention (GL_SAMPLE_POSITION): INTERP_SAMPLE's positions, and "the
      framebuffer is multisampled" for the refusals; empty: single-sample.
    * ``interp_copies`` -- (the FS and the last vertex stage, INTERP_* without
      interpolateAt* on a multisampled framebuffer, passes/interp.py)
      ``((semantic, index, location), ...)``: a second copy of the varying
      ``semantic[index]`` interpolated at ``location`` (``CENTROID`` for
      INTERP_CENTROID of a CENTER input, ``CENTER`` for INTERP_OFFSET /
      INTERP_SAMPLE of a CENTROID one), named ``glp_<semantic>_<index>_at_<location>``.
      The last stage writes it (and the BCOLOR's under ``two_side``), the FS
      reads it; both keys carry the same entries so the two link.
    * ``tess_clip_cull`` -- (TCS, TES) ``(clip, cull)``: the gl_ClipDistance and
      gl_CullDistance sizes of the gl_PerVertex block between the TCS and the
      TES, the larger of what either stage's CLIPDIST registers index
      (``varyings.clipdist_sizes``).  GLSL links the two only with equal
      sizes, and Gallium lets one stage use CLIPDIST the other does not (a TES
      reading an unwritten one reads 0.0), so both redeclare the block with
      these sizes and the TCS writes 0.0 first.  ``(0, 0)``: not redeclared.
    * ``stream_output`` -- (last vertex stage) ``((register_index,
      start_component, num_components, stream), ...)``, one entry per
      captured ``pipe_stream_output`` in its order: entry k becomes the
      output ``glp_so_<k>`` (passes/stream_output.py), which the context
      names as a transform feedback varying.
    """

    flatshade: bool = False
    two_side: bool = False
    alpha_func: int = PIPE_FUNC_ALWAYS
    clip_plane_enable: int = 0
    disabled_clip_distances: int = 0
    sprite_coord_enable: int = 0
    sprite_coord_mode: int = 0
    clamp_vertex_color: bool = False
    clamp_fragment_color: bool = False
    poly_stipple: bool = False
    line_stipple: int = 0
    line_last_pixel: int = 0
    edge_flags: int = 0
    edge_fill: int = 0
    edge_stipple: bool = False
    clipvertex_varying: bool = False
    point_smooth: bool = False
    line_smooth: float = 0.0
    window_rectangles: int = 0
    window_rectangles_include: bool = False
    gl_clamp: tuple[int, int, int] = (0, 0, 0)
    shadow_swizzle: tuple[tuple[int, tuple[int, int, int, int]], ...] = ()
    y_flip: bool = False
    clip_halfz: bool = False
    integer_pixel_centers: bool = False
    viewport_depth: bool = False
    depth_offset: int = 0
    depth_clip_plane: int = 0
    depth_clip_slot: int = 0
    dual_source_blend: bool = False
    color_output_types: tuple[str, ...] = ()
    nr_cbufs: int = 0
    output_interpolation: tuple[tuple[str, int, str, str], ...] = ()
    vs_input_types: tuple[str, ...] = ()
    cs_block_size: tuple[int, ...] = ()
    sample_positions: tuple[float, ...] = ()
    interp_copies: tuple[tuple[str, int, str], ...] = ()
    stream_output: tuple[tuple[int, int, int, int], ...] = ()
    tess_clip_cull: tuple[int, int] = (0, 0)

    def __post_init__(self):
        if not 0 <= self.alpha_func <= 7:
            raise InvalidArgumentError(f"VariantKey.alpha_func must be a PIPE_FUNC_* (0..7), not {self.alpha_func}")
        if not 0 <= self.clip_plane_enable < 256:
            raise InvalidArgumentError("VariantKey.clip_plane_enable is an 8-bit mask")
        if not 0 <= self.disabled_clip_distances < 256:
            raise InvalidArgumentError("VariantKey.disabled_clip_distances is an 8-bit mask")
        if self.sprite_coord_mode not in (0, 1):
            raise InvalidArgumentError("VariantKey.sprite_coord_mode must be 0 (UPPER_LEFT) or 1 (LOWER_LEFT)")
        if self.line_stipple not in (0, 1, 2):
            raise InvalidArgumentError("VariantKey.line_stipple must be 0 (off), 1 (per strip) or 2 (segment bases)")
        if self.line_last_pixel not in (0, 1, 2):
            raise InvalidArgumentError(
                "VariantKey.line_last_pixel must be 0 (off), 1 (GL pixel centres) or 2 (integer pixel centres)"
            )
        if not 0.0 <= self.line_smooth < float("inf"):
            raise InvalidArgumentError(f"VariantKey.line_smooth is a line width (0.0: off), not {self.line_smooth!r}")
        if not 0 <= self.edge_flags <= 7:
            raise InvalidArgumentError(
                "VariantKey.edge_flags is a 3-bit mask (1 boundary masks, 2 vertex flags, 4 stipple counters)"
            )
        if self.edge_fill not in (0, 1, 2):
            raise InvalidArgumentError("VariantKey.edge_fill is 0 (off), 1 (PIPE_POLYGON_MODE_LINE) or 2 (POINT)")
        if self.depth_offset not in (0, 1, 2):
            raise InvalidArgumentError("VariantKey.depth_offset must be 0 (off), 1 (units) or 2 (full offset)")
        if self.depth_clip_plane not in (0, 1, 2, 3) or not 0 <= self.depth_clip_slot < 8:
            raise InvalidArgumentError(
                "VariantKey.depth_clip_plane is 0..3 (none, near, near halfz, far) and "
                "depth_clip_slot a clip distance 0..7"
            )
        if not 0 <= self.window_rectangles <= 8:
            raise InvalidArgumentError("VariantKey.window_rectangles must be 0..8")
        if len(self.gl_clamp) != 3:
            raise InvalidArgumentError("VariantKey.gl_clamp is a (s, t, r) triple of sampler masks")
        for entry in self.shadow_swizzle:
            if (
                not isinstance(entry, tuple)
                or len(entry) != 2
                or type(entry[0]) is not int
                or not 0 <= entry[0] < 128
                or not isinstance(entry[1], tuple)
                or len(entry[1]) != 4
                or any(e not in _SHADOW_CLASS_ENTRIES for e in entry[1])
            ):
                raise InvalidArgumentError(
                    f"VariantKey.shadow_swizzle entries are (sview 0..127, four of 0 (c), 4 (0.0), 5 (1.0)), "
                    f"got {entry!r}"
                )
        for entry in self.stream_output:
            if (
                not isinstance(entry, tuple)
                or len(entry) != 4
                or not all(type(v) is int for v in entry)
                or entry[0] < 0
                or not 0 <= entry[1] <= 3
                or not 1 <= entry[2] <= 4 - entry[1]
                or not 0 <= entry[3] <= 3
            ):
                raise InvalidArgumentError(
                    "VariantKey.stream_output entries are (register_index, start_component 0..3, "
                    f"num_components 1..4-start, stream 0..3), got {entry!r}"
                )
        if (
            not isinstance(self.tess_clip_cull, tuple)
            or len(self.tess_clip_cull) != 2
            or not all(type(v) is int and v >= 0 for v in self.tess_clip_cull)
            or sum(self.tess_clip_cull) > 8
        ):
            raise InvalidArgumentError(
                "VariantKey.tess_clip_cull is (clip, cull) distance counts, together at most 8 "
                f"(PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT), got {self.tess_clip_cull!r}"
            )
        for kind in self.color_output_types:
            if kind not in COLOR_TYPES:
                raise InvalidArgumentError(
                    f"VariantKey.color_output_types entries must be one of {COLOR_TYPES}, not {kind!r}"
                )
        for kind in self.vs_input_types:
            if kind not in VS_INPUT_TYPES:
                raise InvalidArgumentError(
                    f"VariantKey.vs_input_types entries must be one of {VS_INPUT_TYPES}, not {kind!r}"
                )
        if not 0 <= self.nr_cbufs <= 8:
            raise InvalidArgumentError("VariantKey.nr_cbufs must be 0..8")
        for entry in self.output_interpolation:
            if len(entry) != 4 or entry[2] not in INTERPOLATIONS or entry[3] not in LOCATIONS:
                raise InvalidArgumentError(
                    f"VariantKey.output_interpolation entries are (semantic, index, interpolate, location), "
                    f"got {entry!r}"
                )
        for entry in self.interp_copies:
            if (
                len(entry) != 3
                or not isinstance(entry[0], str)
                or not isinstance(entry[1], int)
                or entry[1] < 0
                or entry[2] not in INTERP_COPY_LOCATIONS
            ):
                raise InvalidArgumentError(
                    f"VariantKey.interp_copies entries are (semantic, index >= 0, location in "
                    f"{INTERP_COPY_LOCATIONS}), got {entry!r}"
                )
        if self.cs_block_size and (len(self.cs_block_size) != 3 or min(self.cs_block_size) < 1):
            raise InvalidArgumentError("VariantKey.cs_block_size is (x, y, z), each >= 1")
        if (
            len(self.sample_positions) % 2
            or len(self.sample_positions) > 64
            or any(not isinstance(v, float) or not 0.0 <= v <= 1.0 for v in self.sample_positions)
        ):
            raise InvalidArgumentError(
                "VariantKey.sample_positions is (x0, y0, x1, y1, ...): up to 32 samples, floats in [0, 1]"
            )

    def color_type(self, cbuf: int) -> str:
        """The output type (``float``/``int``/``uint``) of color buffer ``cbuf``."""
        if cbuf < len(self.color_output_types):
            return self.color_output_types[cbuf]
        return "float"

    def vs_input_type(self, index: int):
        """The kind (``VS_INPUT_TYPES``) of vertex input ``index``, or None to infer it."""
        if index < len(self.vs_input_types):
            return self.vs_input_types[index]
        return None

    def interpolation_for(self, semantic: str, index: int):
        """(interpolate, location) the FS declares for ``semantic[index]``, or None."""
        for sem, idx, interp, loc in self.output_interpolation:
            if sem == semantic and idx == index:
                return interp, loc
        return None

    @classmethod
    def parse(cls, items: Iterable[str]) -> VariantKey:
        """Build a key from ``k=v`` strings (the CLI's ``--key``).

        Booleans take 0/1/true/false, integers decimal or 0x hex, tuples are
        comma-separated (``color_output_types=float,uint``; ``gl_clamp=1,0,0``);
        ``shadow_swizzle`` entries are ``sview:xxxx`` (x: c, 0 or 1) separated
        by commas;
        ``output_interpolation`` entries are ``SEM:index:INTERP:LOC``
        separated by commas, ``interp_copies`` entries ``SEM:index:LOC``.
        """
        values = {}
        known = {f.name: f for f in fields(cls)}
        for item in items:
            if "=" not in item:
                raise InvalidArgumentError(f"--key expects k=v, got {item!r}")
            name, text = item.split("=", 1)
            name = name.strip()
            if name not in known:
                raise InvalidArgumentError(f"unknown VariantKey field {name!r}; fields: {', '.join(known)}")
            default = known[name].default
            values[name] = _parse_value(name, text.strip(), default)
        return cls(**values)


def _parse_value(name: str, text: str, default):
    if isinstance(default, bool):
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise InvalidArgumentError(f"VariantKey.{name} is a boolean, got {text!r}")
    if isinstance(default, int):
        try:
            return int(text, 0)
        except ValueError:
            raise InvalidArgumentError(f"VariantKey.{name} is an integer, got {text!r}") from None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if name == "output_interpolation":
        entries = []
        for part in parts:
            bits = part.split(":")
            if len(bits) != 4:
                raise InvalidArgumentError(f"output_interpolation entry {part!r} is not SEM:index:INTERP:LOC")
            entries.append((bits[0].upper(), int(bits[1]), bits[2].upper(), bits[3].upper()))
        return tuple(entries)
    if name == "interp_copies":
        copies = []
        for part in parts:
            bits = part.split(":")
            if len(bits) != 3 or not bits[1].strip().isdigit():
                raise InvalidArgumentError(f"interp_copies entry {part!r} is not SEM:index:LOC")
            copies.append((bits[0].upper(), int(bits[1]), bits[2].upper()))
        return tuple(copies)
    if name == "shadow_swizzle":
        try:
            return tuple(parse_entry(part) for part in parts)
        except ValueError as exc:
            raise InvalidArgumentError(f"VariantKey.{name}: {exc}") from None
    if name in ("gl_clamp", "cs_block_size"):
        try:
            return tuple(int(p, 0) for p in parts)
        except ValueError:
            raise InvalidArgumentError(f"VariantKey.{name} takes integers, got {text!r}") from None
    if name == "sample_positions":
        try:
            return tuple(float(p) for p in parts)
        except ValueError:
            raise InvalidArgumentError(f"VariantKey.{name} takes numbers, got {text!r}") from None
    return tuple(parts)


__all__ = ["VariantKey", "COLOR_TYPES", "VS_INPUT_TYPES", "PIPE_FUNC_ALWAYS", "PIPE_FUNC_NEVER"]
