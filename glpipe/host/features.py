"""The host features table: which GL version or extension grants each feature.

``HostProfile.has(name)`` reads it; caps, the lowering's extension list and
the fallbacks all ask by feature name, so restricting a profile (``gl33``)
hides a feature everywhere at once (docs/host.md "The features table").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Feature:
    """One host feature: granted by core GL ``min_gl`` or by any of ``extensions``."""

    name: str
    min_gl: int | None
    extensions: tuple = ()
    doc: str = ""


def _rows(*rows: tuple) -> dict:
    table = {}
    for row in rows:
        name, min_gl, exts, doc = row
        if name in table:
            raise AssertionError(f"duplicate feature row {name!r}")
        table[name] = Feature(name, min_gl, tuple(exts), doc)
    return table


# Ordered by core version so the table reads as GL's history.
FEATURES: dict[str, Feature] = _rows(
    # --- GL 3.0 .. 3.3 core: what the gl33 profile still has -----------------
    ("texture_float", 300, ("GL_ARB_texture_float",), "RGBA16F/32F textures and RTs"),
    ("texture_rg", 300, ("GL_ARB_texture_rg",), "R and RG formats"),
    ("texture_integer", 300, ("GL_EXT_texture_integer",), "pure integer textures"),
    ("depth_buffer_float", 300, ("GL_ARB_depth_buffer_float",), "D32F, D32F_S8"),
    ("packed_depth_stencil", 300, ("GL_EXT_packed_depth_stencil",), "D24S8"),
    ("texture_compression_rgtc", 300, ("GL_ARB_texture_compression_rgtc",), "RGTC1/2"),
    ("texture_array", 300, ("GL_EXT_texture_array",), "1D/2D array textures"),
    ("transform_feedback", 300, ("GL_EXT_transform_feedback",), "stream output"),
    ("conditional_render", 300, ("GL_NV_conditional_render",), "render_condition"),
    ("framebuffer_object", 300, ("GL_ARB_framebuffer_object",), "FBOs, blit"),
    ("draw_buffers_indexed", 300, ("GL_EXT_draw_buffers2",), "glEnablei/glColorMaski per RT"),
    ("half_float_vertex", 300, ("GL_ARB_half_float_vertex",), "half-float vertex attributes"),
    ("texture_buffer_object", 310, ("GL_ARB_texture_buffer_object",), "buffer textures"),
    ("texture_rectangle", 310, ("GL_ARB_texture_rectangle",), "RECT textures"),
    ("uniform_buffer_object", 310, ("GL_ARB_uniform_buffer_object",), "UBOs"),
    ("primitive_restart", 310, ("GL_NV_primitive_restart",), "any restart index"),
    ("copy_buffer", 310, ("GL_ARB_copy_buffer",), "glCopyBufferSubData"),
    ("draw_instanced", 310, ("GL_ARB_draw_instanced",), "instanced draws"),
    ("texture_snorm", 310, ("GL_EXT_texture_snorm",), "SNORM textures"),
    ("geometry_shader", 320, ("GL_ARB_geometry_shader4",), "GS"),
    ("sync", 320, ("GL_ARB_sync",), "fences"),
    ("texture_multisample", 320, ("GL_ARB_texture_multisample",), "MSAA textures"),
    ("draw_elements_base_vertex", 320, ("GL_ARB_draw_elements_base_vertex",), "index_bias"),
    ("provoking_vertex", 320, ("GL_ARB_provoking_vertex", "GL_EXT_provoking_vertex"), "flatshade_first"),
    ("seamless_cube_map", 320, ("GL_ARB_seamless_cube_map",), "seamless cube filtering"),
    ("depth_clamp", 320, ("GL_ARB_depth_clamp",), "depth clamp"),
    ("fragment_coord_conventions", 320, ("GL_ARB_fragment_coord_conventions",), "FS coord origin/center"),
    ("vertex_array_bgra", 320, ("GL_ARB_vertex_array_bgra", "GL_EXT_vertex_array_bgra"), "BGRA vertex fetch"),
    ("blend_func_extended", 330, ("GL_ARB_blend_func_extended",), "dual-source blending"),
    ("explicit_attrib_location", 330, ("GL_ARB_explicit_attrib_location",), "layout(location)"),
    ("instanced_arrays", 330, ("GL_ARB_instanced_arrays",), "instance divisors"),
    ("occlusion_query2", 330, ("GL_ARB_occlusion_query2",), "ANY_SAMPLES_PASSED"),
    ("sampler_objects", 330, ("GL_ARB_sampler_objects",), "sampler objects"),
    ("shader_bit_encoding", 330, ("GL_ARB_shader_bit_encoding",), "floatBitsToUint"),
    ("texture_rgb10_a2ui", 330, ("GL_ARB_texture_rgb10_a2ui",), "RGB10_A2UI"),
    ("texture_swizzle", 330, ("GL_ARB_texture_swizzle", "GL_EXT_texture_swizzle"), "sampler view swizzle"),
    ("timer_query", 330, ("GL_ARB_timer_query",), "TIME_ELAPSED, TIMESTAMP"),
    ("vertex_type_2_10_10_10_rev", 330, ("GL_ARB_vertex_type_2_10_10_10_rev",), "packed vertex formats"),
    # --- GL 4.x: native only (hidden by gl33) ------------------------------
    ("draw_buffers_blend", 400, ("GL_ARB_draw_buffers_blend",), "per-RT blend funcs"),
    ("draw_indirect", 400, ("GL_ARB_draw_indirect",), "indirect draws"),
    ("gpu_shader5", 400, ("GL_ARB_gpu_shader5",), "GS invocations, gather offsets, bitfield ops"),
    # The float ldexp of gpu_shader5 alone (LDEXP; lowering.glsl.int_emul has a
    # GLSL 3.30 helper where it is missing).
    ("shader_ldexp", 400, ("GL_ARB_gpu_shader5",), "float ldexp (LDEXP)"),
    ("interpolate_at", 400, ("GL_ARB_gpu_shader5",), "interpolateAt* (INTERP_CENTROID/SAMPLE/OFFSET)"),
    ("gpu_shader_fp64", 400, ("GL_ARB_gpu_shader_fp64",), "double precision"),
    ("sample_shading", 400, ("GL_ARB_sample_shading",), "min samples / per-sample shading"),
    ("tessellation_shader", 400, ("GL_ARB_tessellation_shader",), "TCS/TES"),
    ("texture_buffer_object_rgb32", 400, ("GL_ARB_texture_buffer_object_rgb32",), "RGB32 buffer textures"),
    ("texture_cube_map_array", 400, ("GL_ARB_texture_cube_map_array",), "cube arrays"),
    ("texture_gather", 400, ("GL_ARB_texture_gather",), "TG4"),
    ("texture_query_lod", 400, ("GL_ARB_texture_query_lod",), "LODQ"),
    ("transform_feedback2", 400, ("GL_ARB_transform_feedback2",), "pause/resume, draw auto"),
    ("transform_feedback3", 400, ("GL_ARB_transform_feedback3",), "interleaved SO buffers, streams"),
    ("viewport_array", 410, ("GL_ARB_viewport_array",), "multiple viewports/scissors"),
    ("separate_shader_objects", 410, ("GL_ARB_separate_shader_objects",), "program pipelines"),
    ("base_instance", 420, ("GL_ARB_base_instance",), "start_instance"),
    ("shader_atomic_counters", 420, ("GL_ARB_shader_atomic_counters",), "HWATOMIC"),
    ("shader_image_load_store", 420, ("GL_ARB_shader_image_load_store",), "images"),
    ("texture_storage", 420, ("GL_ARB_texture_storage",), "immutable storage"),
    ("texture_compression_bptc", 420, ("GL_ARB_texture_compression_bptc",), "BPTC"),
    ("shading_language_packing", 420, ("GL_ARB_shading_language_packing",), "packHalf2x16 etc."),
    ("internalformat_query", 420, ("GL_ARB_internalformat_query",), "glGetInternalformativ"),
    ("transform_feedback_instanced", 420, ("GL_ARB_transform_feedback_instanced",), "instanced draw auto"),
    ("shading_language_420pack", 420, ("GL_ARB_shading_language_420pack",), "layout(binding)"),
    ("texture_storage_multisample", 430, ("GL_ARB_texture_storage_multisample",), "immutable MSAA storage"),
    ("compute_shader", 430, ("GL_ARB_compute_shader",), "launch_grid"),
    ("shader_storage_buffer_object", 430, ("GL_ARB_shader_storage_buffer_object",), "SSBOs"),
    ("copy_image", 430, ("GL_ARB_copy_image",), "glCopyImageSubData"),
    ("clear_buffer_object", 430, ("GL_ARB_clear_buffer_object",), "glClearBufferSubData"),
    ("texture_view", 430, ("GL_ARB_texture_view",), "glTextureView"),
    ("debug_output", 430, ("GL_KHR_debug", "GL_ARB_debug_output"), "glDebugMessageCallback"),
    ("multi_draw_indirect", 430, ("GL_ARB_multi_draw_indirect",), "multi-draw indirect"),
    ("vertex_attrib_binding", 430, ("GL_ARB_vertex_attrib_binding",), "true stride-0 vertex buffers"),
    ("framebuffer_no_attachments", 430, ("GL_ARB_framebuffer_no_attachments",), "FBO without attachments"),
    ("es3_compatibility", 430, ("GL_ARB_ES3_compatibility",), "ETC2/EAC, fixed-index restart"),
    # The ETC2/EAC part alone: what sampling ETC1/ETC2/EAC textures needs
    # (fallback.compressed decodes them where it is missing).
    ("texture_compression_etc2", 430, ("GL_ARB_ES3_compatibility",), "ETC2/EAC"),
    ("stencil_texturing", 430, ("GL_ARB_stencil_texturing",), "sampling stencil"),
    ("texture_buffer_range", 430, ("GL_ARB_texture_buffer_range",), "buffer texture offset/size"),
    ("fragment_layer_viewport", 430, ("GL_ARB_fragment_layer_viewport",), "gl_Layer in FS"),
    ("robust_buffer_access", 430, ("GL_ARB_robust_buffer_access_behavior",), "robust access"),
    ("explicit_uniform_location", 430, ("GL_ARB_explicit_uniform_location",), "layout(location) uniforms"),
    ("invalidate_subdata", 430, ("GL_ARB_invalidate_subdata",), "glInvalidateBufferData"),
    ("texture_query_levels", 430, ("GL_ARB_texture_query_levels",), "textureQueryLevels"),
    ("buffer_storage", 440, ("GL_ARB_buffer_storage",), "persistent mapping"),
    ("clear_texture", 440, ("GL_ARB_clear_texture",), "glClearTexImage"),
    ("enhanced_layouts", 440, ("GL_ARB_enhanced_layouts",), "component/xfb layouts"),
    ("query_buffer_object", 440, ("GL_ARB_query_buffer_object",), "query results into buffers"),
    (
        "texture_mirror_clamp_to_edge",
        440,
        ("GL_ARB_texture_mirror_clamp_to_edge", "GL_ATI_texture_mirror_once", "GL_EXT_texture_mirror_clamp"),
        "MIRROR_CLAMP_TO_EDGE wrap",
    ),
    ("texture_stencil8", 440, ("GL_ARB_texture_stencil8",), "S8 textures"),
    ("clip_control", 450, ("GL_ARB_clip_control",), "clip_halfz, lower-left"),
    ("robustness", 450, ("GL_KHR_robustness", "GL_ARB_robustness"), "glGetGraphicsResetStatus"),
    ("conditional_render_inverted", 450, ("GL_ARB_conditional_render_inverted",), "inverted render condition"),
    ("cull_distance", 450, ("GL_ARB_cull_distance",), "gl_CullDistance"),
    ("derivative_control", 450, ("GL_ARB_derivative_control",), "DDX_FINE/coarse"),
    ("texture_barrier", 450, ("GL_ARB_texture_barrier", "GL_NV_texture_barrier"), "texture_barrier"),
    ("direct_state_access", 450, ("GL_ARB_direct_state_access",), "DSA"),
    ("shader_texture_image_samples", 450, ("GL_ARB_shader_texture_image_samples",), "TXQS"),
    ("pipeline_statistics_query", 460, ("GL_ARB_pipeline_statistics_query",), "PIPELINE_STATISTICS"),
    ("polygon_offset_clamp", 460, ("GL_ARB_polygon_offset_clamp", "GL_EXT_polygon_offset_clamp"), "offset_clamp"),
    (
        "texture_filter_anisotropic",
        460,
        ("GL_ARB_texture_filter_anisotropic", "GL_EXT_texture_filter_anisotropic"),
        "max_anisotropy",
    ),
    ("shader_group_vote", 460, ("GL_ARB_shader_group_vote",), "VOTE_*"),
    ("shader_draw_parameters", 460, ("GL_ARB_shader_draw_parameters",), "BASEVERTEX/DRAWID SVs"),
    ("indirect_parameters", 460, ("GL_ARB_indirect_parameters",), "indirect draw count"),
    ("transform_feedback_overflow_query", 460, ("GL_ARB_transform_feedback_overflow_query",), "SO_OVERFLOW_PREDICATE"),
    # --- extension-only features ------------------------------------------
    (
        "texture_filter_minmax",
        None,
        ("GL_ARB_texture_filter_minmax", "GL_EXT_texture_filter_minmax"),
        "sampler reduction modes",
    ),
    ("texture_mirror_clamp", None, ("GL_EXT_texture_mirror_clamp",), "MIRROR_CLAMP / MIRROR_CLAMP_TO_BORDER"),
    (
        "seamless_cubemap_per_texture",
        None,
        ("GL_ARB_seamless_cubemap_per_texture", "GL_AMD_seamless_cubemap_per_texture"),
        "per-sampler seamless",
    ),
    ("texture_compression_s3tc", None, ("GL_EXT_texture_compression_s3tc",), "DXT1/3/5"),
    ("texture_sRGB_decode", None, ("GL_EXT_texture_sRGB_decode",), "sRGB decode control"),
    ("gpu_shader_int64", None, ("GL_ARB_gpu_shader_int64",), "64-bit integers"),
    ("shader_ballot", None, ("GL_ARB_shader_ballot",), "BALLOT/READ_*"),
    ("shader_clock", None, ("GL_ARB_shader_clock",), "CLOCK"),
    ("shader_stencil_export", None, ("GL_ARB_shader_stencil_export",), "FS stencil output"),
    (
        "shader_framebuffer_fetch",
        None,
        ("GL_EXT_shader_framebuffer_fetch", "GL_EXT_shader_framebuffer_fetch_non_coherent"),
        "FBFETCH",
    ),
    ("demote_to_helper_invocation", None, ("GL_EXT_demote_to_helper_invocation",), "DEMOTE"),
    (
        "shader_viewport_layer_array",
        None,
        ("GL_ARB_shader_viewport_layer_array", "GL_AMD_vertex_shader_layer"),
        "layer/viewport from VS",
    ),
    ("depth_bounds_test", None, ("GL_EXT_depth_bounds_test",), "depth bounds"),
    ("texture_compression_astc", None, ("GL_KHR_texture_compression_astc_ldr",), "ASTC"),
    ("post_depth_coverage", None, ("GL_ARB_post_depth_coverage",), "post depth coverage"),
    ("window_rectangles", None, ("GL_EXT_window_rectangles",), "native window rectangles"),
    ("shader_atomic_int64", None, ("GL_NV_shader_atomic_int64",), "64-bit atomics"),
    ("fragment_shader_interlock", None, ("GL_ARB_fragment_shader_interlock",), "interlock"),
    ("polygon_mode_point_line", 300, (), "POINT/LINE fill (FRONT_AND_BACK only in core)"),
    ("es2_compatibility", 410, ("GL_ARB_ES2_compatibility",), "RGB565, GL_FIXED vertices"),
    ("vertex_attrib_64bit", 410, ("GL_ARB_vertex_attrib_64bit",), "64-bit vertex inputs"),
    ("vertex_type_10f_11f_11f_rev", 440, ("GL_ARB_vertex_type_10f_11f_11f_rev",), "R11G11B10_FLOAT vertices"),
    ("texture_sRGB_R8", None, ("GL_EXT_texture_sRGB_R8",), "SR8 textures"),
    ("texture_sRGB_RG8", None, ("GL_EXT_texture_sRGB_RG8",), "SRG8 textures"),
    ("texture_compression_fxt1", None, ("GL_3DFX_texture_compression_FXT1",), "FXT1"),
    ("texture_compression_astc_hdr", None, ("GL_KHR_texture_compression_astc_hdr",), "ASTC HDR"),
)


def feature(name: str) -> Feature:
    """The row for ``name``; a KeyError names the unknown feature (a bug in the caller)."""
    try:
        return FEATURES[name]
    except KeyError:
        raise KeyError(f"unknown host feature {name!r}; add a row to glpipe.host.features.FEATURES") from None


def granted(row: Feature, gl_version: int, extensions: frozenset[str]) -> bool:
    """Whether a context of ``gl_version`` exposing ``extensions`` has ``row``."""
    if row.min_gl is not None and gl_version >= row.min_gl:
        return True
    return any(ext in extensions for ext in row.extensions)


__all__ = ["Feature", "FEATURES", "feature", "granted", "feature_report"]


def _measure(dotted: str) -> str:
    """Call the cost function at ``dotted`` (module.function) for its text."""
    import importlib

    module, _, name = dotted.rpartition(".")
    return str(getattr(importlib.import_module(module), name)())


def _cost_of(fallbacks) -> str:
    """What ``fallbacks`` cost: their measured texts, then what their
    ``measure`` functions report now ("" when nothing is known)."""
    costs = [f.cost for f in fallbacks if f.cost] + [_measure(f.measure) for f in fallbacks if f.measure]
    return "; ".join(costs)


def feature_report(profile) -> dict[str, dict]:
    """Each host feature as ``native`` / ``fallback`` / ``unavailable`` under
    ``profile`` (a HostProfile), with the fallback that covers it, plus rows
    for fallbacks of things no core GL has.  This is what ``python -m glpipe
    info`` prints."""
    from fallback.registry import FALLBACKS, fallbacks_for

    report = {}
    for row in FEATURES.values():
        if profile.has(row.name):
            report[row.name] = {"status": "native", "by": ""}
            continue
        cover = fallbacks_for(row.name)
        if cover:
            report[row.name] = {
                "status": "fallback",
                "by": ", ".join(f.implementation for f in cover),
                "cost": _cost_of(cover),
            }
        else:
            state = profile.feature_states()[row.name]
            report[row.name] = {"status": "unavailable", "by": "hidden by profile" if state == "hidden" else ""}
    for fb in FALLBACKS:
        if fb.feature is None:
            report[fb.name] = {"status": "fallback", "by": fb.implementation, "cost": _cost_of((fb,))}
    return report
