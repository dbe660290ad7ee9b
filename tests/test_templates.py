"""glpipe.templates: the state templates' defaults, arrays, immutability and hashing.

Expected field lists are written by hand from Mesa's p_state.h; pinned
defaults come from docs/api.md ("Templates and their defaults").
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from glpipe import templates
from glpipe.enums import (
    PIPE_MAX_CLIP_PLANES,
    PIPE_MAX_COLOR_BUFS,
    Blend,
    BlendFactor,
    Face,
    Func,
    Mask,
    Prim,
    StatQuery,
    Swizzle,
    Target,
    TexWrap,
    ViewportSwizzle,
)
from glpipe.errors import InvalidArgumentError
from glpipe.templates import (
    BlendState,
    BlitInfo,
    Box,
    ClipState,
    ComputeState,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    FramebufferState,
    GridInfo,
    PipelineStatistics,
    PolyStipple,
    RasterizerState,
    ResourceTemplate,
    RTBlendState,
    SamplerState,
    SamplerViewTemplate,
    ScissorState,
    ShaderState,
    StencilRef,
    StencilState,
    StreamOutput,
    StreamOutputInfo,
    VertexBuffer,
    ViewportState,
)

_API_MD = Path(__file__).resolve().parents[1] / "docs" / "api.md"

_TEMPLATES = [getattr(templates, name) for name in templates.__all__]


class _Surface:
    """Stand-in for a pipe Surface / Resource: a plain object, compared by identity."""


# ---------------------------------------------------------------------------
# The template list and the pinned defaults of docs/api.md
# ---------------------------------------------------------------------------


def test_every_template_api_md_names_exists():
    # docs/api.md's table names every template and query-result record, one row each.
    text = _API_MD.read_text(encoding="utf-8")
    section = text[text.index("## Templates and their defaults") :]
    section = section[: section.index("\n## ", 1)]
    listed = re.findall(r"^\| `([A-Z]\w+)` \|", section, flags=re.M)
    assert len(listed) == len(set(listed)) == 34  # 30 templates, BlitSide, 3 query records
    assert "BlitSide" in listed and "SOStatistics" in listed
    assert set(listed) == set(templates.__all__)
    for name in listed:
        assert dataclasses.is_dataclass(getattr(templates, name)), name


def test_api_md_pinned_defaults():
    assert RTBlendState().colormask == Mask.R | Mask.G | Mask.B | Mask.A == 0xF
    assert DrawInfo().instance_count == 1
    rast = RasterizerState()
    assert rast.half_pixel_center is True
    assert rast.depth_clip_near is True and rast.depth_clip_far is True


# Fields whose default is deliberately not Gallium's zero, and why:
_NONZERO_DEFAULTS = {
    ("RTBlendState", "colormask"),
    ("DrawInfo", "instance_count"),  # docs/api.md
    ("RasterizerState", "half_pixel_center"),
    ("RasterizerState", "depth_clip_near"),
    ("RasterizerState", "depth_clip_far"),
    ("RTBlendState", "rgb_src_factor"),
    ("RTBlendState", "rgb_dst_factor"),  # no factor 0
    ("RTBlendState", "alpha_src_factor"),
    ("RTBlendState", "alpha_dst_factor"),
    ("ResourceTemplate", "target"),
    ("ResourceTemplate", "width0"),  # brief: 1x1x1 2D
    ("ResourceTemplate", "height0"),
    ("ResourceTemplate", "depth0"),
    ("ResourceTemplate", "array_size"),
    ("GridInfo", "block"),
    ("GridInfo", "grid"),  # p_state.h: pad with 1
    ("ViewportState", "swizzle_y"),
    ("ViewportState", "swizzle_z"),  # identity swizzles
    ("ViewportState", "swizzle_w"),
    ("SamplerViewTemplate", "swizzle_g"),
    ("SamplerViewTemplate", "swizzle_b"),
    ("SamplerViewTemplate", "swizzle_a"),
    ("BlitInfo", "swizzle"),
}


def _is_zero(value) -> bool:
    if value is None or isinstance(value, str):
        return not value
    if isinstance(value, tuple):
        return all(_is_zero(v) for v in value)
    if dataclasses.is_dataclass(value):
        return value == type(value)()  # a nested template at its own defaults
    return value == 0


@pytest.mark.parametrize("cls", _TEMPLATES, ids=lambda c: c.__name__)
def test_defaults_are_gallium_zero_except_documented(cls):
    templ = cls()
    for f in dataclasses.fields(cls):
        value = getattr(templ, f.name)
        if (cls.__name__, f.name) in _NONZERO_DEFAULTS:
            assert not _is_zero(value), f"{cls.__name__}.{f.name} should be non-zero"
        else:
            assert _is_zero(value), f"{cls.__name__}.{f.name} = {value!r}"


def test_nonzero_defaults_have_the_intended_values():
    assert RTBlendState().rgb_src_factor is BlendFactor.ONE
    assert RTBlendState().rgb_dst_factor is BlendFactor.ZERO
    templ = ResourceTemplate()
    assert (templ.target, templ.width0, templ.height0, templ.depth0, templ.array_size) == (
        Target.TEXTURE_2D,
        1,
        1,
        1,
        1,
    )
    assert int(templ.format) == 0  # PIPE_FORMAT_NONE
    assert GridInfo().block == (1, 1, 1) and GridInfo().grid == (1, 1, 1)
    vp = ViewportState()
    assert (vp.swizzle_x, vp.swizzle_y, vp.swizzle_z, vp.swizzle_w) == (0, 2, 4, 6)
    sv = SamplerViewTemplate()
    assert (sv.swizzle_r, sv.swizzle_g, sv.swizzle_b, sv.swizzle_a) == (0, 1, 2, 3)
    assert BlitInfo().swizzle == (0, 1, 2, 3)


@pytest.mark.parametrize("cls", _TEMPLATES, ids=lambda c: c.__name__)
def test_each_template_names_its_c_struct(cls):
    assert "pipe_" in cls.__doc__.splitlines()[0]


# ---------------------------------------------------------------------------
# Field names from p_state.h
# ---------------------------------------------------------------------------

# Hand-copied member lists of current p_state.h, in header order.
_C_FIELDS_EXACT = {
    RTBlendState: "blend_enable rgb_func rgb_src_factor rgb_dst_factor alpha_func "
    "alpha_src_factor alpha_dst_factor colormask",
    StencilState: "enabled func fail_op zpass_op zfail_op valuemask writemask",
    DepthStencilAlphaState: "stencil alpha_enabled alpha_func depth_enabled depth_writemask "
    "depth_func depth_bounds_test alpha_ref_value depth_bounds_min "
    "depth_bounds_max",
    BlendState: "independent_blend_enable logicop_enable logicop_func dither alpha_to_coverage "
    "alpha_to_coverage_dither alpha_to_one max_rt advanced_blend_func "
    "blend_coherent rt",
    ScissorState: "minx miny maxx maxy",
    Box: "x y z width height depth",
    StencilRef: "ref_value",
    ClipState: "ucp",
    PolyStipple: "stipple",
    StreamOutput: "register_index start_component num_components output_buffer dst_offset stream",
    templates.ShaderBuffer: "buffer buffer_offset buffer_size",
    ConstantBuffer: "buffer buffer_offset buffer_size user_buffer",
    templates.DrawStartCountBias: "start count index_bias",
    templates.SOStatistics: "num_primitives_written primitives_storage_needed",
    templates.TimestampDisjoint: "frequency disjoint",
}

# Structs where glpipe adds fields (spec's start/count, older headers) or
# flattens unions: the C members must all be present.
_C_FIELDS_SUBSET = {
    RasterizerState: "flatshade light_twoside clamp_vertex_color clamp_fragment_color front_ccw "
    "cull_face fill_front fill_back offset_point offset_line offset_tri scissor "
    "poly_smooth poly_stipple_enable point_smooth sprite_coord_mode "
    "point_quad_rasterization point_line_tri_clip point_size_per_vertex "
    "multisample no_ms_sample_mask_out force_persample_interp line_smooth "
    "line_stipple_enable line_last_pixel line_rectangular "
    "conservative_raster_mode flatshade_first half_pixel_center "
    "bottom_edge_rule subpixel_precision_x subpixel_precision_y "
    "rasterizer_discard tile_raster_order_fixed tile_raster_order_increasing_x "
    "tile_raster_order_increasing_y depth_clip_near depth_clip_far depth_clamp "
    "clip_halfz offset_units_unscaled unclamped_fragment_depth_values "
    "clip_plane_enable line_stipple_factor line_stipple_pattern "
    "sprite_coord_enable line_width point_size offset_units offset_scale "
    "offset_clamp conservative_raster_dilate",
    SamplerState: "wrap_s wrap_t wrap_r min_img_filter min_mip_filter mag_img_filter "
    "compare_mode compare_func unnormalized_coords max_anisotropy "
    "seamless_cube_map border_color_is_integer reduction_mode lod_bias min_lod "
    "max_lod border_color border_color_format",
    DrawInfo: "mode index_size primitive_restart has_user_indices index_bounds_valid "
    "increment_draw_id index_bias_varies was_line_loop start_instance instance_count "
    "restart_index index min_index max_index",
    FramebufferState: "width height layers samples nr_cbufs cbufs zsbuf resolve",
    ViewportState: "scale translate swizzle_x swizzle_y swizzle_z swizzle_w",
    ResourceTemplate: "width0 height0 depth0 array_size format target last_level nr_samples "
    "nr_storage_samples usage bind flags",
    # unions flattened: u.tex.{first_layer,last_layer,first_level,last_level}, u.buf.{offset,size}
    SamplerViewTemplate: "format target swizzle_r swizzle_g swizzle_b swizzle_a first_layer "
    "last_layer first_level last_level offset size",
    templates.ImageView: "resource format access shader_access first_layer last_layer level offset size",
    templates.VertexElement: "src_offset vertex_buffer_index dual_slot src_format instance_divisor",
    VertexBuffer: "is_user_buffer buffer_offset buffer",
    templates.DrawIndirectInfo: "offset stride draw_count indirect_draw_count_offset buffer "
    "indirect_draw_count count_from_stream_output",
    GridInfo: "variable_shared_mem work_dim block last_block grid grid_base indirect "
    "indirect_offset indirect_stride draw_count indirect_draw_count_offset "
    "indirect_draw_count",
    BlitInfo: "dst src mask filter dst_sample sample0_only scissor_enable scissor "
    "swizzle_enable swizzle window_rectangle_include num_window_rectangles "
    "window_rectangles render_condition_enable alpha_blend",
    StreamOutputInfo: "num_outputs stride output",
    ShaderState: "type tokens stream_output",
    ComputeState: "ir_type prog static_shared_mem req_local_mem",
    PipelineStatistics: "ia_vertices ia_primitives vs_invocations gs_invocations gs_primitives "
    "c_invocations c_primitives ps_invocations hs_invocations "
    "ds_invocations cs_invocations ts_invocations ms_invocations",
}


@pytest.mark.parametrize("cls", list(_C_FIELDS_EXACT), ids=lambda c: c.__name__)
def test_field_names_are_p_state_h_names(cls):
    assert [f.name for f in dataclasses.fields(cls)] == _C_FIELDS_EXACT[cls].split()


@pytest.mark.parametrize("cls", list(_C_FIELDS_SUBSET), ids=lambda c: c.__name__)
def test_field_names_include_every_c_member(cls):
    have = {f.name for f in dataclasses.fields(cls)}
    missing = [n for n in _C_FIELDS_SUBSET[cls].split() if n not in have]
    assert not missing


def test_spec_extras_are_present():
    # docs/api.md: VertexBuffer carries stride; DrawInfo carries start, count, index_bias.
    assert {"stride"} <= {f.name for f in dataclasses.fields(VertexBuffer)}
    assert {"start", "count", "index_bias"} <= {f.name for f in dataclasses.fields(DrawInfo)}
    assert {"level", "first_layer", "last_layer"} <= {f.name for f in dataclasses.fields(templates.SurfaceTemplate)}


# ---------------------------------------------------------------------------
# C arrays: short ones are padded, long ones rejected, lists become tuples
# ---------------------------------------------------------------------------


def test_short_arrays_are_padded_with_the_default():
    rt0 = RTBlendState(blend_enable=True, rgb_src_factor=BlendFactor.SRC_ALPHA)
    blend = BlendState(rt=[rt0])
    assert len(blend.rt) == PIPE_MAX_COLOR_BUFS
    assert blend.rt[0] is rt0 and all(rt == RTBlendState() for rt in blend.rt[1:])

    dsa = DepthStencilAlphaState(stencil=[StencilState(enabled=True, func=Func.EQUAL)])
    assert dsa.stencil[0].enabled and dsa.stencil[1] == StencilState()

    clip = ClipState(ucp=[(1, 0, 0, 0.5)])
    assert len(clip.ucp) == PIPE_MAX_CLIP_PLANES
    assert clip.ucp[0] == (1.0, 0.0, 0.0, 0.5) and clip.ucp[7] == (0.0, 0.0, 0.0, 0.0)
    assert ClipState(ucp=[(1, 2)]).ucp[0] == (1.0, 2.0, 0.0, 0.0)  # a short plane too

    assert ViewportState(scale=[2]).scale == (2.0, 0.0, 0.0)
    assert StencilRef(ref_value=[7]).ref_value == (7, 0)
    stipple = PolyStipple(stipple=[0xFFFFFFFF, 0x0F0F0F0F])
    assert len(stipple.stipple) == 32 and stipple.stipple[:3] == (0xFFFFFFFF, 0x0F0F0F0F, 0)

    surf = _Surface()
    fb = FramebufferState(width=8, height=8, cbufs=[surf])
    assert fb.cbufs == (surf,) + (None,) * 7 and fb.nr_cbufs == 1
    assert FramebufferState(cbufs=[None, surf]).nr_cbufs == 2
    assert FramebufferState(cbufs=[surf], nr_cbufs=0).nr_cbufs == 0

    grid = GridInfo(block=[64], grid=(4, 2))
    assert grid.block == (64, 1, 1) and grid.grid == (4, 2, 1) and grid.grid_base == (0, 0, 0)
    assert BlitInfo(swizzle=[Swizzle.ZERO]).swizzle == (Swizzle.ZERO, Swizzle.Y, Swizzle.Z, Swizzle.W)
    assert SamplerState(border_color=[1.0]).border_color == (1.0, 0.0, 0.0, 0.0)
    assert StreamOutputInfo(stride=[4]).stride == (4, 0, 0, 0)


@pytest.mark.parametrize(
    "make,field",
    [
        (lambda: BlendState(rt=[RTBlendState()] * 9), "BlendState.rt"),
        (lambda: DepthStencilAlphaState(stencil=[StencilState()] * 3), "DepthStencilAlphaState.stencil"),
        (lambda: ClipState(ucp=[(0, 0, 0, 0)] * 9), "ClipState.ucp"),
        (lambda: ClipState(ucp=[(0, 0, 0, 0, 1)]), "ClipState.ucp[0]"),
        (lambda: PolyStipple(stipple=[0] * 33), "PolyStipple.stipple"),
        (lambda: StencilRef(ref_value=(1, 2, 3)), "StencilRef.ref_value"),
        (lambda: ViewportState(translate=(0, 0, 0, 0)), "ViewportState.translate"),
        (lambda: FramebufferState(cbufs=[None] * 9), "FramebufferState.cbufs"),
        (lambda: SamplerState(border_color=(0, 0, 0, 0, 0)), "SamplerState.border_color"),
        (lambda: GridInfo(block=(1, 1, 1, 1)), "GridInfo.block"),
        (lambda: StreamOutputInfo(output=[StreamOutput()] * 129), "StreamOutputInfo.output"),
        (lambda: BlitInfo(window_rectangles=[ScissorState()] * 9), "BlitInfo.window_rectangles"),
    ],
)
def test_too_long_arrays_are_rejected_naming_the_field(make, field):
    with pytest.raises(InvalidArgumentError, match=re.escape(field)):
        make()


def test_lists_become_tuples_and_numpy_becomes_python():
    vp = ViewportState(scale=np.array([2.0, -2.0, 0.5], np.float32), translate=[1, 1, 0.5])
    assert type(vp.scale) is tuple and all(type(v) is float for v in vp.scale)
    assert vp.scale == (2.0, -2.0, 0.5)
    grid = GridInfo(block=np.array([8, 8], np.int64))
    assert grid.block == (8, 8, 1) and all(type(v) is int for v in grid.block)
    assert SamplerState(border_color=np.array([1, 2, 3, 4], np.int32)).border_color == (1, 2, 3, 4)
    assert all(type(v) is int for v in SamplerState(border_color=[1, 2, 3, 4]).border_color)
    hash(vp), hash(grid)


def test_counted_arrays_derive_their_count():
    outs = [
        StreamOutput(register_index=1, num_components=4),
        StreamOutput(register_index=2, num_components=2, dst_offset=4),
    ]
    so = StreamOutputInfo(output=outs, stride=[6])
    assert so.num_outputs == 2 and so.output == tuple(outs)
    assert StreamOutputInfo(output=outs, num_outputs=1).num_outputs == 1
    with pytest.raises(InvalidArgumentError, match="num_outputs"):
        StreamOutputInfo(output=outs, num_outputs=3)
    blit = BlitInfo(window_rectangles=[ScissorState(maxx=4, maxy=4)])
    assert blit.num_window_rectangles == 1
    assert ShaderState(tokens="VERT\nEND\n", stream_output=so).stream_output.num_outputs == 2


# ---------------------------------------------------------------------------
# Frozen, hashable, value equality; coercion and bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls", _TEMPLATES, ids=lambda c: c.__name__)
def test_templates_are_frozen_and_hashable(cls):
    templ = cls()
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(templ, name, getattr(templ, name))
    assert {templ: 1}[cls()] == 1  # equal defaults hash alike


def test_value_equality_and_keyword_construction():
    a = RasterizerState(flatshade=1, cull_face=Face.BACK, line_width=1)
    b = RasterizerState(flatshade=True, cull_face=2, line_width=1.0)
    assert a == b and hash(a) == hash(b)
    assert a.flatshade is True and a.cull_face is Face.BACK and type(a.line_width) is float
    assert a != RasterizerState()
    assert len({BlendState(), BlendState(rt=[RTBlendState(colormask=Mask.R)])}) == 2
    assert dataclasses.replace(a, front_ccw=True).front_ccw is True


def test_enum_fields_are_coerced_and_read_well():
    info = DrawInfo(mode=4, index_size=2)
    assert info.mode is Prim.TRIANGLES and "Prim.TRIANGLES" in repr(info)
    sampler = SamplerState(wrap_s=2, compare_func=3)
    assert sampler.wrap_s is TexWrap.CLAMP_TO_EDGE and sampler.compare_func is Func.LEQUAL
    assert RTBlendState(rgb_func=4).rgb_func is Blend.MAX
    assert ViewportState(swizzle_x=1).swizzle_x is ViewportSwizzle.NEGATIVE_X
    assert RTBlendState(colormask=0x3).colormask == Mask.R | Mask.G


@pytest.mark.parametrize(
    "make,field",
    [
        (lambda: RasterizerState(cull_face=9), "RasterizerState.cull_face"),
        (lambda: RTBlendState(rgb_src_factor=0), "RTBlendState.rgb_src_factor"),
        (lambda: RasterizerState(flatshade="yes"), "RasterizerState.flatshade"),
        (lambda: RasterizerState(flatshade=2), "RasterizerState.flatshade"),
        (lambda: Box(x=1.5), "Box.x"),
        (lambda: ResourceTemplate(width0="64"), "ResourceTemplate.width0"),
        (lambda: DepthStencilAlphaState(alpha_ref_value="half"), "DepthStencilAlphaState.alpha_ref_value"),
        (lambda: DrawInfo(index_size=3), "DrawInfo.index_size"),
        (lambda: ShaderState(tokens=b"VERT"), "ShaderState.tokens"),
        (lambda: BlendState(rt=[0]), "BlendState.rt[0]"),
        (lambda: BlitInfo(src=Box()), "BlitInfo.src"),
        (lambda: ClipState(ucp=7), "ClipState.ucp"),
        (lambda: FramebufferState(nr_cbufs=9), "FramebufferState.nr_cbufs"),
    ],
)
def test_bad_values_name_the_field(make, field):
    with pytest.raises(InvalidArgumentError, match=re.escape(field)):
        make()
    with pytest.raises(ValueError):  # InvalidArgumentError is also a ValueError
        make()


# ---------------------------------------------------------------------------
# User memory and references
# ---------------------------------------------------------------------------


def test_user_memory_is_detected_and_compared_by_identity():
    data = np.arange(12, dtype=np.float32)
    vb = VertexBuffer(buffer=data, stride=12)
    assert vb.is_user_buffer is True
    assert vb == VertexBuffer(buffer=data, stride=12)
    assert hash(vb) == hash(VertexBuffer(buffer=data, stride=12))
    # equal contents, different memory: a different vertex buffer
    assert vb != VertexBuffer(buffer=data.copy(), stride=12)
    assert {vb: "ok"}[vb] == "ok"

    resource = _Surface()  # stands for a Resource: no buffer protocol
    assert VertexBuffer(buffer=resource).is_user_buffer is False
    assert VertexBuffer(buffer=b"\0" * 16).is_user_buffer is True
    assert VertexBuffer().is_user_buffer is False
    assert VertexBuffer(buffer=data, is_user_buffer=0).is_user_buffer is False

    indices = np.array([0, 1, 2], np.uint16)
    draw = DrawInfo(mode=Prim.TRIANGLES, index_size=2, index=indices, count=3)
    assert draw.has_user_indices is True and draw.index is indices
    assert DrawInfo(index=resource, index_size=4).has_user_indices is False
    cb = ConstantBuffer(user_buffer=np.zeros(4, np.float32), buffer_size=16)
    assert cb.buffer is None and hash(cb) is not None


def test_compute_and_shader_templates_carry_text():
    cs = ComputeState(prog="COMP\nEND\n", req_local_mem=256)
    assert cs.prog.startswith("COMP") and cs.req_local_mem == 256 and cs.ir_type == 0
    vs = ShaderState(tokens="VERT\nEND\n")
    assert vs.type == 0 and vs.stream_output == StreamOutputInfo()


def test_pipeline_statistics_counters_follow_stat_query_order():
    names = [f.name for f in dataclasses.fields(PipelineStatistics)]
    stats = PipelineStatistics(**{name: 100 + i for i, name in enumerate(names)})
    for name in names:
        # PIPE_STAT_QUERY_<NAME> indexes C's counters[] union member
        assert stats.counters[StatQuery[name.upper()]] == getattr(stats, name)
    assert len(stats.counters) == len(StatQuery) == 13
