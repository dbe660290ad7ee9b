"""lowering.bindings: the per-stage binding ranges (docs/bindings.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lowering.bindings import GRAPHICS_STAGES, BindingLayout, HostLimits
from lowering.errors import InvalidArgumentError, UnsupportedError


def _ranges(layout, stage):
    s = layout.stage(stage)
    return {
        "ubo": range(s.ubo_base, s.ubo_base + s.ubo_count),
        "tex": range(s.tex_base, s.tex_base + s.tex_count),
        "ssbo": range(s.ssbo_base, s.ssbo_base + s.ssbo_count),
        "image": range(s.image_base, s.image_base + s.image_count),
        "atomic": range(s.atomic_base, s.atomic_base + s.atomic_count),
    }


def test_gl33_layout_by_hand():
    # 36 UBO bindings - 1 (sysvals) over 3 stages = 11 each, also 12 blocks - 1 per stage;
    # 48 units - 1 (ModernGL's scratch unit) over 3 stages = 15 each, FRAG's first.
    layout = BindingLayout.gl33()
    assert [_ranges(layout, s)["ubo"] for s in ("VERT", "GEOM", "FRAG")] == [range(0, 11), range(11, 22), range(22, 33)]
    assert [_ranges(layout, s)["tex"] for s in ("VERT", "GEOM", "FRAG")] == [range(15, 30), range(30, 45), range(0, 15)]
    assert layout.sysvals_binding == 35
    assert layout.stage("FRAG").ssbo_count == 0
    comp = _ranges(layout, "COMP")
    assert comp["ubo"] == range(0, 11) and comp["tex"] == range(0, 16)
    with pytest.raises(UnsupportedError):
        layout.stage("TESS_CTRL")


def test_gl45_layout_by_hand():
    # 84 - 1 = 83 over 5 stages = 16, capped at 14 - 1 = 13 blocks per stage.
    layout = BindingLayout.gl45()
    assert layout.ubo_binding("VERT", 0) == 0
    assert layout.ubo_binding("TESS_CTRL", 0) == 13
    assert layout.ubo_binding("FRAG", 12) == 52 + 12
    # 79 // 5 = 15 units per stage, in the order FRAG, VERT, GEOM, TESS_EVAL, TESS_CTRL.
    assert layout.texture_unit("FRAG", 0) == 0
    assert [layout.texture_unit(s, 0) for s in GRAPHICS_STAGES] == [15, 60, 45, 30, 0]
    # 8 SSBO bindings over 5 stages: 1 each, the remaining 3 to FRAG, VERT, GEOM.
    assert [layout.stage(s).ssbo_count for s in GRAPHICS_STAGES] == [2, 1, 1, 2, 2]
    assert layout.atomic_binding("FRAG", 0) == 0
    assert layout.stage("VERT").atomic_count == 0
    assert layout.sysvals_binding == 83


def test_out_of_range_slots():
    layout = BindingLayout.gl33()
    with pytest.raises(UnsupportedError, match="constant buffer 11 of stage FRAG exceeds the 11"):
        layout.ubo_binding("FRAG", 11)
    with pytest.raises(UnsupportedError, match="shader buffer 0"):
        layout.ssbo_binding("FRAG", 0)
    with pytest.raises(InvalidArgumentError):
        layout.texture_unit("FRAG", -1)


def test_from_gl_values():
    values = {
        "GL_MAX_UNIFORM_BUFFER_BINDINGS": 90,
        "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS": 192,
        "GL_MAX_TEXTURE_IMAGE_UNITS": 32,
        "GL_MAX_VERTEX_UNIFORM_BLOCKS": 15,
        "GL_MAX_FRAGMENT_UNIFORM_BLOCKS": 15,
        "GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS": 32,
        "GL_MAX_FRAGMENT_TEXTURE_IMAGE_UNITS": 32,
    }
    limits = HostLimits.from_gl(values, ("VERT", "FRAG"))
    assert limits.max_stage_uniform_blocks == 15
    assert limits.max_stage_texture_image_units == 32
    layout = BindingLayout.for_limits(limits, ("VERT", "FRAG"))
    # (90 - 1) // 2 = 44, capped at 15 - 1 = 14; (192 - 1) // 2 = 95, capped at 32.
    assert layout.stage("FRAG").ubo_base == 14 and layout.stage("FRAG").ubo_count == 14
    # Texture units: FRAG first (0..31), then VERT (32..63).
    assert layout.stage("FRAG").tex_base == 0 and layout.stage("FRAG").tex_count == 32
    assert layout.stage("VERT").tex_base == 32


def test_default_for_versions_and_extensions():
    assert BindingLayout.default_for(450) == BindingLayout.gl45()
    assert BindingLayout.default_for(330) == BindingLayout.gl33()
    with_ext = BindingLayout.default_for(330, {"GL_ARB_shader_storage_buffer_object", "GL_ARB_tessellation_shader"})
    assert with_ext.stage("TESS_EVAL").ubo_count > 0
    assert sum(with_ext.stage(s).ssbo_count for s in GRAPHICS_STAGES) == 8


def test_free_texture_unit():
    layout = BindingLayout.gl33()
    # gl33: FRAG's units are 0..14 (FRAG first); free units come from the top.
    assert layout.free_texture_unit("FRAG", {14}) == 13
    assert layout.free_texture_unit("FRAG", set(range(0, 15))) is None


@settings(max_examples=60, deadline=None)
@given(
    ubo=st.integers(8, 200),
    per_stage_ubo=st.integers(2, 20),
    tex=st.integers(8, 256),
    per_stage_tex=st.integers(1, 40),
    ssbo=st.integers(0, 64),
    per_stage_ssbo=st.integers(0, 20),
    nstages=st.integers(1, 5),
)
def test_graphics_ranges_never_collide(ubo, per_stage_ubo, tex, per_stage_tex, ssbo, per_stage_ssbo, nstages):
    limits = HostLimits(
        max_uniform_buffer_bindings=ubo,
        max_stage_uniform_blocks=per_stage_ubo,
        max_combined_texture_image_units=tex,
        max_stage_texture_image_units=per_stage_tex,
        max_shader_storage_buffer_bindings=ssbo,
        max_stage_shader_storage_blocks=per_stage_ssbo,
    )
    stages = GRAPHICS_STAGES[:nstages]
    layout = BindingLayout.for_limits(limits, stages)
    for kind, limit in (("ubo", ubo - 1), ("tex", tex - 1), ("ssbo", ssbo)):
        used = set()
        for s in stages:
            r = _ranges(layout, s)[kind]
            assert not (used & set(r)), f"{kind} ranges overlap"
            used |= set(r)
            assert all(0 <= b < limit for b in r), f"{kind} binding beyond the host limit"
    assert layout.sysvals_binding == ubo - 1
    assert all(layout.stage(s).ubo_count <= per_stage_ubo - 1 for s in stages)
    assert all(layout.stage(s).tex_count <= per_stage_tex for s in stages)
