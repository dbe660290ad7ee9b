"""The fallback registry lists every emulated feature a cap advertises.

``python -m glpipe info`` prints each host feature as native / fallback /
unavailable (``glpipe.host.features.feature_report`` over
``fallback.registry.FALLBACKS``).  A cap that says yes for something the
host GL does not do natively is emulated by glpipe, so the report must show
that feature as *fallback*, never as unavailable (the window-rectangles cap
said 8 while the report said unavailable).

``EMULATED_CAPS`` is this test's own table, written from what core GL and
its extensions offer: cap -> (the host feature that would do it natively, a
``glpipe.host.features`` row, or None when no core GL profile has the state at
all; the registry row that emulates it).
"""

from __future__ import annotations

import importlib

import pytest

from fallback.registry import FALLBACKS
from glpipe import Cap
from glpipe.host.features import FEATURES, feature_report

EMULATED_CAPS = {
    # A host feature glpipe stands in for when the profile lacks it.
    Cap.MAX_WINDOW_RECTANGLES: ("window_rectangles", "window_rectangles"),  # EXT_window_rectangles
    Cap.CLIP_HALFZ: ("clip_control", "clip_halfz"),  # GL 4.5 glClipControl
    Cap.START_INSTANCE: ("base_instance", "start_instance"),  # GL 4.2 base instance
    Cap.INVALIDATE_BUFFER: ("invalidate_subdata", "invalidate_buffer"),  # GL 4.3 glInvalidateBufferData
    Cap.COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS: ("copy_image", "copy_image_by_blit_or_numpy"),  # GL 4.3
    Cap.CLEAR_TEXTURE: ("clear_texture", "clear_texture_by_surface_or_numpy"),  # GL 4.4 glClearTexImage
    Cap.INT64: ("gpu_shader_int64", "soft_int64"),  # GL_ARB_gpu_shader_int64 (no core version)
    Cap.INT64_DIVMOD: ("gpu_shader_int64", "soft_int64"),
    Cap.DOUBLES: ("gpu_shader_fp64", "soft_fp64"),  # GLSL 4.00 / ARB_gpu_shader_fp64
    Cap.CULL_DISTANCE: ("cull_distance", "cull_distance_as_clip"),  # GL 4.5 / ARB_cull_distance
    Cap.VS_LAYER_VIEWPORT: ("shader_viewport_layer_array", "vs_layer_generated_gs"),  # ARB_shader_viewport_layer_array
    Cap.CONDITIONAL_RENDER_INVERTED: ("conditional_render_inverted", "render_condition_inverted"),  # GL 4.5
    Cap.DRAW_INDIRECT: ("draw_indirect", "draw_indirect_unroll"),  # GL 4.0 / ARB_draw_indirect
    Cap.MULTI_DRAW_INDIRECT_PARAMS: ("indirect_parameters", "draw_indirect_count_unroll"),  # ARB_indirect_parameters
    # Gallium state no core GL profile has (compatibility-profile or Gallium-only).
    Cap.GL_CLAMP: (None, "gl_clamp"),
    Cap.ALPHA_TEST: (None, "alpha_test"),
    Cap.TWO_SIDED_COLOR: (None, "two_sided_color"),
    Cap.FLATSHADE: (None, "flatshade"),
    Cap.POINT_SPRITE: (None, "point_sprite_coords"),
    Cap.CLIP_PLANES: (None, "user_clip_planes"),
    Cap.VERTEX_COLOR_CLAMPED: (None, "color_clamping"),
    Cap.FRAGMENT_COLOR_CLAMPED: (None, "color_clamping"),
    Cap.POLYGON_OFFSET_UNITS_UNSCALED: (None, "polygon_offset_units_unscaled"),
    Cap.DEPTH_CLIP_DISABLE_SEPARATE: (None, "depth_clip_separate"),
    Cap.VS_WINDOW_SPACE_POSITION: (None, "window_space_position"),
    Cap.QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION: (None, "quads_quad_strips_polygons"),
}

ROWS = {fb.name: fb for fb in FALLBACKS}


@pytest.mark.parametrize("cap", list(EMULATED_CAPS), ids=lambda c: c.name)
def test_advertised_emulation_is_listed(screen, cap):
    feature, row_name = EMULATED_CAPS[cap]
    value = screen.get_param(cap)
    if value <= 0 or (feature is not None and screen.profile.has(feature)):
        # Not advertised, or native on this profile: nothing to list.  The
        # table still must not name a row that does not exist.
        assert row_name in ROWS or value <= 0, f"{cap.name}: no registry row {row_name!r}"
        return
    report = feature_report(screen.profile)
    key = feature if feature is not None else row_name
    assert key in report, f"PIPE_CAP_{cap.name} = {value} but info has no row {key!r}"
    assert report[key]["status"] == "fallback", (
        f"PIPE_CAP_{cap.name} = {value} on {screen.profile.name}, but info reports {key} as {report[key]}"
    )
    assert row_name in ROWS, f"PIPE_CAP_{cap.name}: no fallback.registry row {row_name!r}"
    row = ROWS[row_name]
    assert row.feature == feature, f"registry row {row_name} stands in for {row.feature!r}, expected {feature!r}"
    assert row.implementation in report[key]["by"]


def test_window_rectangles_reported_as_emulated(screen):
    # The case the issue names, on both profiles (llvmpipe has no EXT_window_rectangles).
    assert screen.get_param(Cap.MAX_WINDOW_RECTANGLES) == 8
    assert not screen.profile.has("window_rectangles")
    assert feature_report(screen.profile)["window_rectangles"]["status"] == "fallback"


def test_registry_rows_are_well_formed():
    names = [fb.name for fb in FALLBACKS]
    assert len(names) == len(set(names)), "duplicate registry row names"
    for fb in FALLBACKS:
        if fb.feature is None:
            # A row for state no GL has is reported under its own name: it
            # must not shadow a host feature row.
            assert fb.name not in FEATURES, fb.name
        else:
            assert fb.feature in FEATURES, f"{fb.name}: unknown host feature {fb.feature!r}"
        assert fb.provides and fb.implementation


def _resolve(dotted: str):
    """Import the longest module prefix of ``dotted`` and walk the rest as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("row", FALLBACKS, ids=lambda fb: fb.name)
def test_registry_implementations_exist(row):
    # implementation: dotted paths joined by " + ", optionally followed by a
    # parenthesised note; each path names a module or a name in one.
    paths = row.implementation.split(" (")[0].split(" + ")
    for path in paths:
        _resolve(path.strip())


def test_info_prints_the_int64_emulation_and_its_cost():
    """gl33 lacks GL_ARB_gpu_shader_int64: ``python -m glpipe info`` names the soft
    int64 helpers as the fallback and says what they cost next to native."""
    import io

    from glpipe.__main__ import _print_text, collect

    data = collect("gl33")
    row = data["features"]["gpu_shader_int64"]
    assert row["status"] == "fallback" and row["by"] == "lowering.glsl.soft_int64"
    assert "I64DIV" in row["cost"] and "bench_int64" in row["cost"]
    out = io.StringIO()
    _print_text(data, out)
    lines = out.getvalue().splitlines()
    k = next(i for i, ln in enumerate(lines) if "gpu_shader_int64" in ln)
    assert "fallback" in lines[k] and lines[k + 1].strip().startswith("cost: ") and "U64MUL" in lines[k + 1]


def test_soft_fp64_listed_with_its_cost(screen):
    """Without GLSL 4.00 doubles the info report names the soft-double emulation and
    what it costs (benchmarks/bench_fp64.py); with them, doubles are native."""
    import io

    from glpipe.__main__ import _print_text

    report = feature_report(screen.profile)["gpu_shader_fp64"]
    if screen.profile.has("gpu_shader_fp64"):
        assert report["status"] == "native"
        return
    assert report["status"] == "fallback"
    assert ROWS["soft_fp64"].implementation in report["by"]
    assert "bench_fp64" in report["cost"] and "native" in report["cost"]
    out = io.StringIO()
    _print_text(
        {
            "versions": {},
            "host": {},
            "screen": {"name": "", "vendor": "", "device_vendor": ""},
            "features": {"gpu_shader_fp64": report},
            "caps": {},
            "capsf": {},
            "shader_caps": {},
            "compute_caps": {},
            "formats": {},
            "debug": {"env": "", "on": [], "flags": {}},
            "host_facts": {},
        },
        out,
    )
    assert f"cost: {ROWS['soft_fp64'].cost}" in out.getvalue()
