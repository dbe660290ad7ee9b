"""The one table of fallbacks: which host feature each one stands in for.

A row names the host feature (a row of ``glpipe.host.features.FEATURES``, or
None when no GL core profile has the thing at all, e.g. luminance formats),
what the fallback provides, and where it is implemented (a dotted path, so
this table imports nothing).  ``python -m glpipe info`` reports a host
feature as *native* when the profile has it, *fallback* when a row here
covers it, and *unavailable* otherwise.

Later issues add a row in the same commit that adds the fallback and its
test; a row without a working implementation is a lie, like a cap that says
yes for something that does not work.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fallback:
    """One fallback: ``provides`` for host ``feature`` via ``implementation``."""

    name: str
    feature: str | None
    provides: str
    implementation: str
    # What the emulation costs next to native, as measured (a short text
    # ``python -m glpipe info`` prints), or "".
    cost: str = ""
    # Dotted path of a function measuring the cost at run time (its text is
    # printed after ``cost``), or "" (this table imports nothing).
    measure: str = ""


FALLBACKS: tuple[Fallback, ...] = (
    Fallback(
        name="draw_indirect_unroll",
        feature="draw_indirect",
        provides="indirect and multi-draw indirect draws (and their count buffer): the commands read back "
        "and drawn as direct draws",
        implementation="glpipe.draw_indirect",
        cost="a flush and a wait for the GPU per indirect draw (glGetBufferSubData of the commands)",
    ),
    Fallback(
        name="multi_draw_indirect_unroll",
        feature="multi_draw_indirect",
        provides="multi-draw indirect (draw_count > 1, any stride): the commands read back and drawn one by one",
        implementation="glpipe.draw_indirect",
        cost="a flush and a wait for the GPU per indirect draw",
    ),
    Fallback(
        name="draw_indirect_count_unroll",
        feature="indirect_parameters",
        provides="the count buffer of multi-draw indirect: read back, the commands drawn as direct draws",
        implementation="glpipe.draw_indirect",
        cost="a flush and a wait for the GPU per indirect draw",
    ),
    Fallback(
        name="quads_quad_strips_polygons",
        feature=None,
        provides="QUADS / QUAD_STRIP / POLYGON drawn as TRIANGLES by index translation "
        "(provoking vertex and winding kept)",
        implementation="fallback.indices",
    ),
    Fallback(
        name="legacy_formats_as_r_rg",
        feature=None,
        provides="A8/L8/I8/L8A8 (and 16-bit/float/int variants), RGBX/BGRX: stored as R/RG/RGBA "
        "with a swizzle that undoes the emulation",
        implementation="glpipe.formats (emulation rows of the format table)",
    ),
    Fallback(
        name="polygon_edge_flags",
        feature=None,
        provides="fill modes LINE / POINT draw only a polygon's flagged edges (QUADS / QUAD_STRIP / POLYGON "
        "outlines, VS EDGEFLAG): per-triangle boundary masks, a generated GS and an FS kill",
        implementation="glpipe.raster.polygon_edges + fallback.indices.edge_masks",
    ),
    Fallback(
        name="line_stipple",
        feature=None,
        provides="line_stipple_enable / factor / pattern: a counter along the line from a (generated) GS, "
        "an FS kill; strip bases from a transform-feedback capture",
        implementation="glpipe.raster.line_stipple",
    ),
    Fallback(
        name="fill_modes_per_face",
        feature=None,
        provides="fill_front != fill_back: draws split into runs of one facing (captured positions, facing "
        "in numpy), each in its face's mode",
        implementation="glpipe.raster.fill_modes",
    ),
    Fallback(
        name="mutable_texture_storage",
        feature="texture_storage",
        provides="every texture target and level allocated with glTexImage* when glTexStorage* is absent",
        implementation="glpipe.resource",
    ),
    # --- host features glpipe stands in for where the profile lacks them ----
    # (the cap that advertises each is in tests/test_registry.py EMULATED_CAPS)
    Fallback(
        name="window_rectangles",
        feature="window_rectangles",
        provides="set_window_rectangles (MAX_WINDOW_RECTANGLES): an FS variant discards fragments by the "
        "include / exclude rectangles in the sysvals block",
        implementation="lowering.glsl.passes.fragment.window_rectangles + glpipe.raster.rasterizer",
    ),
    Fallback(
        name="clip_halfz",
        feature="clip_control",
        provides="rasterizer clip_halfz (CLIP_HALFZ) without glClipControl: the last vertex stage's "
        "z' = 2z - w and the halfz depth range",
        implementation="lowering.glsl.passes.vertex.remap_clip_halfz",
    ),
    Fallback(
        name="start_instance",
        feature="base_instance",
        provides="draw_vbo start_instance (START_INSTANCE) without base-instance draws: per-instance "
        "attribute offsets advanced by start_instance * stride",
        implementation="glpipe.vertex.VertexPart._specify_attribs",
    ),
    Fallback(
        name="soft_int64",
        feature="gpu_shader_int64",
        provides="int64 / uint64 opcodes (INT64, INT64_DIVMOD) without int64_t: GLSL 3.30 helpers on "
        "uvec2(lo, hi), bit-exact with the native ones",
        implementation="lowering.glsl.soft_int64",
        cost="per fragment on llvmpipe: U64MUL and U64SHR ~1x native; I64DIV ~15-20x (55 ns vs 3 ns; "
        "divisions run a bit loop of up to 64 steps; 32-bit operands and divisors below 2^16 use "
        "hardware 32-bit divides); each op counts as its measured weight in MAX_INSTRUCTIONS slots "
        "(U64DIV 16, I64MOD 30, U642F 32; lowering/limits_emulated.py) "
        "(benchmarks/bench_int64.py)",
    ),
    Fallback(
        name="invalidate_buffer",
        feature="invalidate_subdata",
        provides="invalidate_resource on buffers (INVALIDATE_BUFFER) without glInvalidateBufferData: "
        "mutable storage orphaned with glBufferData",
        implementation="glpipe.transfer.TransferPart._invalidate_buffer",
    ),
    Fallback(
        name="s3tc_decode",
        feature="texture_compression_s3tc",
        provides="DXT1 / DXT3 / DXT5 and their sRGB variants sampled without S3TC: blocks decoded in numpy "
        "to RGBA8 / SRGB8_ALPHA8 at upload, READ maps return the bytes written (docs/formats.md)",
        implementation="fallback.compressed.s3tc + glpipe.transfer.TransferPart._write_texture",
        measure="fallback.compressed.cost_s3tc",
    ),
    Fallback(
        name="rgtc_decode",
        feature="texture_compression_rgtc",
        provides="RGTC1 / RGTC2 (and LATC) unsigned and signed sampled without RGTC: decoded to R8 / RG8 "
        "(snorm) at upload (docs/formats.md)",
        implementation="fallback.compressed.s3tc + glpipe.transfer.TransferPart._write_texture",
        measure="fallback.compressed.cost_rgtc",
    ),
    Fallback(
        name="bptc_decode",
        feature="texture_compression_bptc",
        provides="BPTC: BC7 unorm / sRGB and BC6H signed / unsigned float sampled without GL 4.2: decoded "
        "bit-exactly to RGBA8 / SRGB8_ALPHA8 / RGBA16F at upload, 3D textures included "
        "(docs/formats.md)",
        implementation="fallback.compressed.bptc + glpipe.transfer.TransferPart._write_texture",
        measure="fallback.compressed.cost_bptc",
    ),
    Fallback(
        name="etc2_decode",
        feature="texture_compression_etc2",
        provides="ETC1, ETC2 RGB8 / punch-through A1 / RGBA8 EAC and sRGB, EAC R11 / RG11 (signed, unsigned) "
        "sampled without ES3 compatibility: decoded to RGBA8 / SRGB8_ALPHA8 / R16 / RG16 (snorm) at "
        "upload (docs/formats.md)",
        implementation="fallback.compressed.etc2 + glpipe.transfer.TransferPart._write_texture",
        measure="fallback.compressed.cost_etc2",
    ),
    Fallback(
        name="soft_fp64",
        feature="gpu_shader_fp64",
        provides="double opcodes (DADD DMUL DMAD DMIN DMAX DABS DNEG DSSG DSEQ DSNE DSLT DSGE DFLR DCEIL "
        "DTRUNC DROUND DFRAC DFRACEXP DLDEXP F2D D2F I2D U2D D2I D2U I642D U642D D2I64 D2U64) "
        "without GLSL 4.00 doubles: IEEE binary64 on uvec2 register words in GLSL 3.30, correctly "
        "rounded; DDIV DRCP DSQRT DRSQ DFMA through lowering.glsl.soft_fp64_divsqrt",
        implementation="lowering.glsl.soft_fp64 + lowering.glsl.wide.WIDE_OPS",
        cost="about 60-90x a native double op on llvmpipe (DADD, DMUL ~4.3 ns per op per fragment on "
        "2 CPUs; DFMA ~2x, DDIV ~8x, DSQRT ~5x, DRSQ ~18x their native op); host compile time and memory "
        "grow faster than the op count (64 DADD 5 s, 128 DADD 16 s / 1 GB, 16 DDIV > 300 s), so each "
        "emulated op counts as its measured weight in PIPE_SHADER_CAP_MAX_INSTRUCTIONS slots (DADD 21, "
        "DMUL 50, DMAD 80, DFMA 170, DDIV / DRCP / DSQRT / DRSQ 256; lowering/limits_emulated.py) and "
        "create refuses a shader past 2048 (benchmarks/bench_fp64.py, bench_soft_fp64_divsqrt.py)",
    ),
    Fallback(
        name="ldexp_glsl330",
        feature="shader_ldexp",
        provides="LDEXP without GLSL 400's ldexp: a GLSL 3.30 helper writes the exponent field (exact; "
        "flushed denormals and inf at the ends, like the host's ldexp)",
        implementation="lowering.glsl.int_emul.INT_OPS",
    ),
    Fallback(
        name="fine_derivatives_plain",
        feature="derivative_control",
        provides="DDX_FINE / DDY_FINE without GL_ARB_derivative_control: plain dFdx / dFdy, on hosts where the "
        "screen's probe draw finds them fine (host fact fine_plain_derivatives; refused elsewhere)",
        implementation="glpipe.host.facts + lowering.glsl.alu",
    ),
    Fallback(
        name="texture_query_levels_sysval",
        feature="texture_query_levels",
        provides="TXQ / SVIEWINFO .w (mip level count) without textureQueryLevels: the bound view's "
        "last_level - first_level + 1, written into the sysvals block by set_sampler_views",
        implementation="lowering.glsl.texture_emul.query_levels + glpipe.sysvals.SysvalsPart.set_view_levels",
        cost="one uniform read per query, below the noise next to textureQueryLevels on llvmpipe "
        "(benchmarks/bench_texture_emul.py)",
    ),
    Fallback(
        name="texture_gather_fetches",
        feature="texture_gather",
        provides="TG4 / GATHER4 without textureGather (and its gpu_shader5 forms): the four footprint texels "
        "fetched one by one (texelFetch inside the level, the bound sampler at texel centres outside it and "
        "for shadow compares); 2D, 2D_ARRAY, RECT, and CUBE across faces by the bound sampler's "
        "seamless_cube_map (sysvals.sampler_seamless, written by bind_sampler_states)",
        implementation="lowering.glsl.texture_emul.gather + lowering.glsl.texture_gather_cube.cube_gather",
        cost="per fragment on llvmpipe: TG4 of component y 3.5-10x textureGather (18-41 ns vs 3-7 ns), "
        "four offsets 2-3x textureGatherOffsets, a seamless cube 3-11x textureGather (52-66 ns vs 5-21 ns) "
        "(benchmarks/bench_texture_emul.py)",
    ),
    Fallback(
        name="texture_query_lod_formula",
        feature="texture_query_lod",
        provides="LODQ (TEXTURE_QUERY_LOD) without textureQueryLod: the GL formula from the coordinates' "
        "derivatives; the sampler's lod_bias, min/max_lod and mip filter in the sysvals block, "
        "written by bind_sampler_states",
        implementation="lowering.glsl.texture_emul.query_lod + glpipe.sysvals.SysvalsPart.set_sampler_lod",
        cost="3-6x textureQueryLod per fragment on llvmpipe (3-8 ns vs 0.7-1.3 ns; benchmarks/bench_texture_emul.py)",
    ),
    Fallback(
        name="interpolate_at",
        feature="interpolate_at",
        provides="INTERP_OFFSET, INTERP_SAMPLE (sample pattern in VariantKey.sample_positions) and "
        "INTERP_CENTROID without GLSL 4.00's interpolateAt*: the varying re-interpolated from "
        "the screen-space derivatives of v/w and 1/w, perspective-correct at the new position; "
        "on multisampled framebuffers the last vertex stage also writes a centroid copy (INTERP_CENTROID "
        "of a CENTER input) or a centre copy (INTERP_OFFSET / INTERP_SAMPLE of a CENTROID input) of the "
        "varying (VariantKey.interp_copies)",
        implementation="lowering.glsl.passes.interp + glpipe.framebuffer.FramebufferPart._reinterpolation_positions",
        cost="INTERP_OFFSET ~1.3-1.4x interpolateAtOffset per fragment on llvmpipe (~1.2 ns vs ~0.9 ns; "
        "plus v/w and two derivatives per varying read, once at the top of main); a variant per "
        "framebuffer sample count for shaders using INTERP_*, and one extra varying per copy on "
        "multisampled framebuffers (benchmarks/bench_interp.py)",
    ),
    Fallback(
        name="cull_distance_as_clip",
        feature="cull_distance",
        provides="cull distances (CULL_DISTANCE; NUM_CULLDIST_ENABLED in a VS, TES or GS) without "
        "gl_CullDistance: each one written as a clip distance that is -1 where the cull distance is "
        "out (negative, NaN, infinite) and 1e30 elsewhere, in the top clip-distance slots, always "
        "enabled; the values go on in a varying block for CLIPDIST readers",
        implementation="lowering.glsl.passes.cull + glpipe.raster.rasterizer (GL_CLIP_DISTANCEi of "
        "Reflection.cull_clip_mask)",
        cost="per vertex one compare and one clip distance per cull distance (no GS, no extra pass); "
        "a primitive with some but not all vertices out goes through the host's clipper, which "
        "clips off nothing visible; on llvmpipe no slower than native cull distances per primitive "
        "(benchmarks/bench_cull_layer.py)",
    ),
    Fallback(
        name="vs_layer_generated_gs",
        feature="shader_viewport_layer_array",
        provides="VS LAYER / VIEWPORT_INDEX outputs (VS_LAYER_VIEWPORT) without vertex-stage gl_Layer: the VS "
        "writes integer varyings and a generated pass-through GS (one per VS and input primitive) "
        "writes gl_Layer (and gl_ViewportIndex with viewport arrays; one viewport otherwise)",
        implementation="lowering.glsl.passes.layer + glpipe.vertex_layer",
        cost="a pass-through GS stage on every draw of such a VS, and those draws take draw_vbo's general "
        "path (the GS follows the draw's primitive); on llvmpipe ~100 ns per triangle over a plain draw "
        "(benchmarks/bench_cull_layer.py)",
    ),
    # --- Gallium state no core GL profile has: shader variants --------------
    Fallback(
        name="gl_clamp",
        feature=None,
        provides="PIPE_TEX_WRAP_CLAMP (GL_CLAMP): CLAMP_TO_EDGE when NEAREST, CLAMP_TO_BORDER plus the "
        "coordinate clamped to [0, 1] in the shader when LINEAR",
        implementation="lowering.glsl.passes.texture.clamp_coords + glpipe.samplers",
    ),
    Fallback(
        name="alpha_test",
        feature=None,
        provides="DSA alpha test (ALPHA_TEST): an FS variant discards by the reference in the sysvals block",
        implementation="lowering.glsl.passes.fragment.alpha_test",
    ),
    Fallback(
        name="two_sided_color",
        feature=None,
        provides="light_twoside (TWO_SIDED_COLOR): FS COLOR inputs read BCOLOR on back faces",
        implementation="lowering.glsl.passes.fragment.two_sided_color_input + "
        "lowering.glsl.passes.vertex.copy_back_colors",
    ),
    Fallback(
        name="flatshade",
        feature=None,
        provides="rasterizer flatshade (FLATSHADE): COLOR-interpolated varyings declared flat in a variant",
        implementation="lowering.glsl.stages",
    ),
    Fallback(
        name="point_sprite_coords",
        feature=None,
        provides="sprite_coord_enable / sprite_coord_mode (POINT_SPRITE): FS texture coordinates replaced "
        "by the point coordinate",
        implementation="lowering.glsl.passes.fragment.sprite_coord_input",
    ),
    Fallback(
        name="user_clip_planes",
        feature=None,
        provides="clip_plane_enable with set_clip_state planes (CLIP_PLANES): gl_ClipDistance from "
        "CLIPVERTEX or POSITION in the last vertex stage",
        implementation="lowering.glsl.passes.vertex.user_clip_distances",
    ),
    Fallback(
        name="color_clamping",
        feature=None,
        provides="clamp_vertex_color / clamp_fragment_color (VERTEX_COLOR_CLAMPED, FRAGMENT_COLOR_CLAMPED): "
        "color outputs clamped to [0, 1] in the shader",
        implementation="lowering.glsl.passes.vertex.clamp_vertex_colors + "
        "lowering.glsl.passes.fragment.clamp_fragment_colors",
    ),
    Fallback(
        name="polygon_offset_units_unscaled",
        feature=None,
        provides="offset_units_unscaled (POLYGON_OFFSET_UNITS_UNSCALED): the FS adds the units to its depth",
        implementation="lowering.glsl.passes.depth.offset_depth",
    ),
    Fallback(
        name="depth_clip_separate",
        feature=None,
        provides="depth_clip_near != depth_clip_far (DEPTH_CLIP_DISABLE_SEPARATE): GL_DEPTH_CLAMP plus a "
        "clip distance for the plane that still clips",
        implementation="lowering.glsl.passes.depth.depth_clip_distance",
    ),
    Fallback(
        name="render_condition_inverted",
        feature="conditional_render_inverted",
        provides="render_condition with condition=True (CONDITIONAL_RENDER_INVERTED) without GL 4.5's "
        "*_INVERTED modes: the CPU reads the query's result (waiting as the mode says) and skips or runs "
        "the draw or clear",
        implementation="glpipe.render_condition.RenderConditionPart.gate",
        cost="a CPU wait on the query result per predicated draw (WAIT modes)",
    ),
    Fallback(
        name="window_space_position",
        feature=None,
        provides="VS_WINDOW_SPACE_POSITION: the host viewport fixed to the framebuffer rectangle and the "
        "shader's window coordinates mapped back by the sysvals transform",
        implementation="glpipe.viewport.ViewportPart._window_space_transform",
    ),
    Fallback(
        name="copy_image_by_blit_or_numpy",
        feature="copy_image",
        provides="resource_copy_region / blit copies (compressed <-> plain included) without glCopyImageSubData: "
        "glBlitFramebuffer for multisampled copies, Gallium's bytes through the transfers for the rest",
        implementation="glpipe.copy.CopyPart.copy_texture + fallback.blit",
    ),
    Fallback(
        name="clear_texture_by_surface_or_numpy",
        feature="clear_texture",
        provides="clear_texture without glClearTexSubImage: a surface clear (multisampled textures), "
        "else the texel tiled over the box through the transfers",
        implementation="glpipe.resource_clear.ResourceClearPart.clear_texture",
    ),
    Fallback(
        name="clear_buffer_by_upload",
        feature="clear_buffer_object",
        provides="clear_buffer without glClearBufferSubData: the pattern tiled and uploaded",
        implementation="glpipe.resource_clear.ResourceClearPart.clear_buffer",
    ),
    Fallback(
        name="compute_executor",
        feature="compute_shader",
        provides="create_compute_state / launch_grid without host compute shaders: the numpy TGSI executor "
        "runs the grid over the bound shader buffers (read before, written back after); also every launch "
        "with pipe_grid_info.last_block, grid_base or WORK_DIM on any host",
        implementation="fallback.tgsi_exec (glpipe.compute.ComputePart._launch_executor)",
        cost="see docs/compute.md 'Throughput' (benchmarks/bench_compute.py)",
    ),
)


def fallbacks_for(feature: str) -> tuple[Fallback, ...]:
    """Rows that stand in for host ``feature``."""
    return tuple(f for f in FALLBACKS if f.feature == feature)


__all__ = ["Fallback", "FALLBACKS", "fallbacks_for"]
