"""get_param / get_paramf / get_shader_param / get_compute_param on both profiles.

Three things are checked:

* every member of every cap enum (aliases and retired members included) is
  answered with the right Python type, and unknown values are refused;
* the honesty rule: every cap that says yes today is backed by a proof in
  this file (resource creation at and past the advertised limit, context
  creation, facts checked against the host), and every cap gated by a
  subsystem glpipe does not deliver yet answers 0;
* what the caps will say when rows flip (a ScreenCaps built with every
  DELIVERED row on), against values read from the host GL directly or
  derived by hand from the GL / GLSL specifications, so the gl33 / native
  differences are the ones the features table implies.
"""

from __future__ import annotations

import math
import os
import re
import sys
import threading

import numpy as np
import pytest

from glpipe.caps import (
    ANY_OF_ROWS,
    DELIVERED,
    NOT_OFFERED_CAPS,
    PARAM_RULES,
    PARAMF_RULES,
    ROWS,
    WITHHELD,
    ScreenCaps,
)
from glpipe.caps_shader import SYSVALS_UBOS
from glpipe.enums import (
    CAP_RENAMES,
    RETIRED_CAPS,
    Bind,
    Cap,
    CapF,
    ComputeCap,
    ContextFlag,
    Endian,
    ShaderCap,
    ShaderIR,
    ShaderType,
    Target,
)
from glpipe.formats import Format
from glpipe.templates import ResourceTemplate
from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.glsl.wide import soft_fp64_complete
from lowering.limits import limits_for

# GL enums (GL 4.5 core spec values), so limits are read from the host GL
# here without going through the code under test.
GL_MAX_TEXTURE_SIZE = 0x0D33
GL_MAX_3D_TEXTURE_SIZE = 0x8073
GL_MAX_CUBE_MAP_TEXTURE_SIZE = 0x851C
GL_MAX_ARRAY_TEXTURE_LAYERS = 0x88FF
GL_MAX_VIEWPORTS = 0x825B
GL_MAX_DRAW_BUFFERS = 0x8824
GL_MAX_VERTEX_ATTRIBS = 0x8869
GL_MAX_UNIFORM_BLOCK_SIZE = 0x8A30
GL_MAX_VERTEX_UNIFORM_BLOCKS = 0x8A2B
GL_MAX_FRAGMENT_UNIFORM_BLOCKS = 0x8A2D
GL_MAX_TEXTURE_IMAGE_UNITS = 0x8872
GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS = 0x8B4D
GL_MAX_FRAGMENT_INPUT_COMPONENTS = 0x9125
GL_MAX_COMPUTE_WORK_GROUP_COUNT = 0x91BE
GL_MAX_COMPUTE_WORK_GROUP_SIZE = 0x91BF
GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS = 0x90EB

FOUNDATION_ROWS = frozenset({"screen", "resources"})
GRAPHICS_STAGES = (
    ShaderType.VERTEX,
    ShaderType.TESS_CTRL,
    ShaderType.TESS_EVAL,
    ShaderType.GEOMETRY,
    ShaderType.FRAGMENT,
)


def gl_int(screen, enum: int, index: int | None = None) -> int:
    """An integer limit read straight from the host GL."""
    gl = screen.host.gl
    buf = np.zeros(4, np.int64)
    if index is None:
        gl.glGetInteger64v(enum, buf)
    else:
        gl.glGetInteger64i_v(enum, index, buf)
    screen.host.clear_errors()
    return int(buf[0])


def tex(
    target,
    width,
    height=1,
    depth=1,
    array_size=1,
    last_level=0,
    nr_samples=0,
    fmt=Format.R8_UNORM,
    bind=Bind.SAMPLER_VIEW,
):
    return ResourceTemplate(
        target=target,
        format=fmt,
        width0=width,
        height0=height,
        depth0=depth,
        array_size=array_size,
        last_level=last_level,
        nr_samples=nr_samples,
        bind=bind,
    )


def create_and_destroy(screen, templ):
    res = screen.resource_create(templ)
    screen.resource_destroy(res)


@pytest.fixture
def full(screen):
    """The caps this screen will answer once every DELIVERED row is on."""
    return ScreenCaps(screen.host, screen.format_support, dict.fromkeys(DELIVERED, True))


def caps_with(screen, *rows):
    """The caps with only ``rows`` delivered."""
    return ScreenCaps(screen.host, screen.format_support, {row: row in rows for row in DELIVERED})


# ---------------------------------------------------------------------------
# Every member answered, with the right type
# ---------------------------------------------------------------------------


def test_get_param_answers_every_cap_with_an_int(screen):
    for name, cap in Cap.__members__.items():  # aliases and retired members too
        value = screen.get_param(cap)
        assert type(value) is int, f"{name}: {type(value).__name__}"
        assert screen.get_param(int(cap)) == value


def test_get_paramf_answers_every_cap_with_a_float(screen):
    for name, cap in CapF.__members__.items():
        value = screen.get_paramf(cap)
        assert type(value) is float, f"{name}: {type(value).__name__}"


def test_get_shader_param_answers_every_stage_and_cap(screen):
    for stage in ShaderType:
        for name, cap in ShaderCap.__members__.items():
            value = screen.get_shader_param(stage, cap)
            assert type(value) is int, f"{stage.name} {name}: {type(value).__name__}"
            assert screen.get_shader_param(int(stage), int(cap)) == value


@pytest.mark.parametrize("delivered", ["now", "all"])
def test_get_compute_param_types(screen, delivered):
    caps = (
        screen.caps
        if delivered == "now"
        else ScreenCaps(screen.host, screen.format_support, dict.fromkeys(DELIVERED, True))
    )
    for ir in ShaderIR:
        for name, cap in ComputeCap.__members__.items():
            value = caps.compute_param(ir, cap)
            if cap in (ComputeCap.MAX_GRID_SIZE, ComputeCap.MAX_BLOCK_SIZE):
                assert type(value) is tuple and len(value) == 3, name
                assert all(type(v) is int for v in value), name
            elif cap == ComputeCap.IR_TARGET:
                assert type(value) is str, name
            else:
                assert type(value) is int, f"{name}: {type(value).__name__}"
    for cap in ComputeCap:  # through the screen too
        assert screen.get_compute_param(ShaderIR.TGSI, cap) == screen.caps.compute_param(ShaderIR.TGSI, cap)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.get_param(99999),
        lambda s: s.get_param(-1),
        lambda s: s.get_param("GRAPHICS"),
        lambda s: s.get_param(None),
        lambda s: s.get_paramf(99999),
        lambda s: s.get_shader_param(ShaderType.VERTEX, -1),
        lambda s: s.get_shader_param(99, ShaderCap.MAX_INPUTS),
        lambda s: s.get_compute_param(ShaderIR.TGSI, 99999),
        lambda s: s.get_compute_param(77, ComputeCap.GRID_DIMENSION),
    ],
)
def test_unknown_values_raise(screen, call):
    with pytest.raises(InvalidArgumentError):
        call(screen)


def test_renamed_caps_answer_as_their_new_names(screen):
    for enum_cls, renames in CAP_RENAMES.items():
        for old, new in renames.items():
            old_member, new_member = enum_cls[old], enum_cls[new]
            assert int(old_member) == int(new_member), old
            if enum_cls is Cap:
                assert screen.get_param(old_member) == screen.get_param(new_member), old
            elif enum_cls is CapF:
                assert screen.get_paramf(old_member) == screen.get_paramf(new_member), old
            elif enum_cls is ShaderCap:
                for stage in ShaderType:
                    assert screen.get_shader_param(stage, old_member) == screen.get_shader_param(stage, new_member)
    # C spellings of renamed caps port line by line.
    import glpipe.p_defines as p

    assert screen.get_param(p.PIPE_CAP_TGSI_INSTANCEID) == screen.get_param(p.PIPE_CAP_VS_INSTANCEID)


def test_retired_caps_are_answered(screen):
    for enum_cls, retired in RETIRED_CAPS.items():
        assert retired, enum_cls.__name__
        for member in retired:
            if enum_cls is Cap:
                assert type(screen.get_param(member)) is int
            elif enum_cls is CapF:
                assert type(screen.get_paramf(member)) is float
            elif enum_cls is ShaderCap:
                assert type(screen.get_shader_param(ShaderType.FRAGMENT, member)) is int
            else:
                assert type(screen.get_compute_param(ShaderIR.TGSI, member)) is int


def test_every_cap_is_ruled_or_not_offered_exactly_once():
    for cap in Cap:
        assert (cap in PARAM_RULES) != (cap in NOT_OFFERED_CAPS), cap.name
    assert set(PARAMF_RULES) == set(CapF)
    for rows, _ in PARAM_RULES.values():
        assert set(rows) <= set(ROWS)
    assert set(DELIVERED) == set(ROWS)


def test_not_offered_caps_answer_zero_even_with_everything_delivered(screen, full):
    for cap in NOT_OFFERED_CAPS:
        assert screen.get_param(cap) == 0, cap.name
        assert full.param[cap] == 0, cap.name


# ---------------------------------------------------------------------------
# Honesty: what is not delivered answers 0; what is claimed is proven
# ---------------------------------------------------------------------------


def test_caps_of_undelivered_subsystems_are_zero(screen):
    for cap, (rows, _) in PARAM_RULES.items():
        needed = ANY_OF_ROWS.get(cap)
        off = (not any(DELIVERED[r] for r in needed)) if needed else not all(DELIVERED[r] for r in rows)
        if off:
            assert screen.get_param(cap) == 0, f"{cap.name} needs {needed or rows}"
    for capf, (rows, _) in PARAMF_RULES.items():
        if not all(DELIVERED[r] for r in rows):
            assert screen.get_paramf(capf) == 0.0, capf.name
    if not DELIVERED["shaders"]:
        for stage in GRAPHICS_STAGES:
            for cap in ShaderCap:
                assert screen.get_shader_param(stage, cap) == 0, (stage.name, cap.name)
    if not (DELIVERED["compute"] or DELIVERED["compute_fallback"]):
        assert screen.get_param(Cap.COMPUTE) == 0
        for cap in ShaderCap:
            assert screen.get_shader_param(ShaderType.COMPUTE, cap) == 0, cap.name
        for ir in ShaderIR:
            for cap in ComputeCap:
                assert screen.get_compute_param(ir, cap) in (0, (0, 0, 0), ""), (ir.name, cap.name)


def _foundation_claims(screen) -> set:
    """The caps that may be non-zero with only the Foundation delivered,
    written out by hand: each one is proven by a test below."""
    claims = {
        Cap.GRAPHICS,
        Cap.MAX_TEXTURE_2D_SIZE,
        Cap.MAX_TEXTURE_2D_LEVELS,
        Cap.MAX_TEXTURE_3D_LEVELS,
        Cap.MAX_TEXTURE_CUBE_LEVELS,
        Cap.MAX_TEXTURE_ARRAY_LAYERS,
        Cap.TEXTURE_MULTISAMPLE,
        Cap.TEXRECT,
        Cap.VENDOR_ID,
        Cap.DEVICE_ID,
        Cap.GL_BEGIN_END_BUFFER_SIZE,
    }
    if screen.profile.name == "native":
        claims.add(Cap.CUBE_MAP_ARRAY)  # llvmpipe has GL 4.5; gl33 hides cube arrays
    claims.add(Cap.UMA if "llvmpipe" in screen.profile.renderer else Cap.ACCELERATED)
    if sys.byteorder == "big":
        claims.add(Cap.ENDIANNESS)
    return claims


def test_nonzero_caps_are_exactly_the_proven_ones(screen):
    later = {row for row, on in DELIVERED.items() if on} - FOUNDATION_ROWS
    # Caps a later row turned on are proven by that row's tests, not here.
    exempt = {cap for cap, (rows, _) in PARAM_RULES.items() if set(rows) & later}
    exempt |= {cap for cap, rows in ANY_OF_ROWS.items() if set(rows) & later}
    nonzero = {cap for cap in Cap if screen.get_param(cap) != 0}
    assert nonzero - exempt == _foundation_claims(screen) - exempt
    if not later:
        assert all(screen.get_paramf(c) == 0.0 for c in CapF)


def test_graphics_contexts_can_be_created(screen):
    """GRAPHICS = 1: a context without COMPUTE_ONLY is created (spec: with
    GRAPHICS 0 only COMPUTE_ONLY contexts could be)."""
    assert screen.get_param(Cap.GRAPHICS) == 1
    ctx = screen.context_create()
    try:
        from glpipe.context import Context

        assert isinstance(ctx, Context)
        assert not ctx.flags & ContextFlag.COMPUTE_ONLY
    finally:
        ctx.destroy()


def test_max_texture_2d_size(screen):
    n = screen.get_param(Cap.MAX_TEXTURE_2D_SIZE)
    assert n == gl_int(screen, GL_MAX_TEXTURE_SIZE)
    for target in (Target.TEXTURE_1D, Target.TEXTURE_2D):
        create_and_destroy(screen, tex(target, n))
        with pytest.raises(InvalidArgumentError, match="width0"):
            screen.resource_create(tex(target, n + 1))
    create_and_destroy(screen, tex(Target.TEXTURE_2D, 1, n))
    with pytest.raises(InvalidArgumentError, match="height0"):
        screen.resource_create(tex(Target.TEXTURE_2D, 1, n + 1))


def test_max_texture_2d_levels(screen):
    """Retired MAX_TEXTURE_2D_LEVELS: a width-2^(L-1) row takes L levels, not L+1."""
    levels = screen.get_param(Cap.MAX_TEXTURE_2D_LEVELS)
    assert levels == math.floor(math.log2(gl_int(screen, GL_MAX_TEXTURE_SIZE))) + 1
    width = 1 << (levels - 1)
    create_and_destroy(screen, tex(Target.TEXTURE_2D, width, last_level=levels - 1))
    with pytest.raises(InvalidArgumentError, match="last_level"):
        screen.resource_create(tex(Target.TEXTURE_2D, width, last_level=levels))
    with pytest.raises(InvalidArgumentError, match="width0"):
        screen.resource_create(tex(Target.TEXTURE_2D, width * 2, last_level=levels))


def test_max_texture_3d_levels(screen):
    levels = screen.get_param(Cap.MAX_TEXTURE_3D_LEVELS)
    assert levels == math.floor(math.log2(gl_int(screen, GL_MAX_3D_TEXTURE_SIZE))) + 1
    size = 1 << (levels - 1)
    for shape in ((size, 1, 1), (1, size, 1), (1, 1, size)):
        create_and_destroy(screen, tex(Target.TEXTURE_3D, *shape, last_level=levels - 1))
    with pytest.raises(InvalidArgumentError, match="last_level"):
        screen.resource_create(tex(Target.TEXTURE_3D, size, last_level=levels))
    with pytest.raises(InvalidArgumentError, match="depth0"):
        screen.resource_create(tex(Target.TEXTURE_3D, 1, 1, size * 2, last_level=levels))


def test_max_texture_cube_levels(screen):
    """A cube at the limit costs gigabytes (6 faces of 2^(L-1) squared), so
    its acceptance is checked with can_create_resource (the same validation,
    no allocation); the size past the limit is refused by resource_create,
    and a real cube with a full chain is made at a small size."""
    levels = screen.get_param(Cap.MAX_TEXTURE_CUBE_LEVELS)
    assert levels == math.floor(math.log2(gl_int(screen, GL_MAX_CUBE_MAP_TEXTURE_SIZE))) + 1
    size = 1 << (levels - 1)
    assert screen.can_create_resource(tex(Target.TEXTURE_CUBE, size, size, array_size=6, last_level=levels - 1))
    assert not screen.can_create_resource(tex(Target.TEXTURE_CUBE, size, size, array_size=6, last_level=levels))
    with pytest.raises(InvalidArgumentError, match="width0"):
        screen.resource_create(tex(Target.TEXTURE_CUBE, size * 2, size * 2, array_size=6))
    create_and_destroy(screen, tex(Target.TEXTURE_CUBE, 16, 16, array_size=6, last_level=4))


def test_max_texture_array_layers(screen):
    layers = screen.get_param(Cap.MAX_TEXTURE_ARRAY_LAYERS)
    assert layers == gl_int(screen, GL_MAX_ARRAY_TEXTURE_LAYERS)
    for target in (Target.TEXTURE_1D_ARRAY, Target.TEXTURE_2D_ARRAY):
        create_and_destroy(screen, tex(target, 1, array_size=layers))
        with pytest.raises(InvalidArgumentError, match="array_size"):
            screen.resource_create(tex(target, 1, array_size=layers + 1))


def test_cube_map_array(screen, profile):
    # Hand-derived: cube arrays are GL 4.0; gl33 hides them, llvmpipe has them.
    expected = 1 if profile == "native" else 0
    assert screen.get_param(Cap.CUBE_MAP_ARRAY) == expected
    templ = tex(Target.TEXTURE_CUBE_ARRAY, 4, 4, array_size=12, last_level=2)
    if expected:
        create_and_destroy(screen, templ)
    else:
        with pytest.raises(UnsupportedError):
            screen.resource_create(templ)


def test_texrect(screen):
    assert screen.get_param(Cap.TEXRECT) == 1  # GL 3.1 core
    create_and_destroy(screen, tex(Target.TEXTURE_RECT, 3, 5))


def test_texture_multisample(screen):
    """Every format and sample count is_format_supported allows for MSAA
    rendering is also allowed for MSAA texturing, and such a texture is made."""
    assert screen.get_param(Cap.TEXTURE_MULTISAMPLE) == 1
    checked = 0
    for fmt in Format:
        if fmt == Format.NONE:
            continue
        for n in (2, 4, 8, 16):
            for bind in (Bind.RENDER_TARGET, Bind.DEPTH_STENCIL):
                if screen.is_format_supported(fmt, Target.TEXTURE_2D, n, n, bind):
                    checked += 1
                    assert screen.is_format_supported(fmt, Target.TEXTURE_2D, n, n, bind | Bind.SAMPLER_VIEW), (
                        fmt.name,
                        n,
                    )
    assert checked > 0
    n = max(
        s
        for s in (2, 4, 8, 16)
        if screen.is_format_supported(
            Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, s, s, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW
        )
    )
    create_and_destroy(
        screen,
        tex(
            Target.TEXTURE_2D,
            8,
            8,
            nr_samples=n,
            fmt=Format.R8G8B8A8_UNORM,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        ),
    )
    create_and_destroy(
        screen,
        tex(
            Target.TEXTURE_2D_ARRAY,
            8,
            8,
            array_size=3,
            nr_samples=n,
            fmt=Format.R8G8B8A8_UNORM,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        ),
    )


def test_facts(screen):
    assert screen.get_param(Cap.ENDIANNESS) == (Endian.LITTLE if sys.byteorder == "little" else Endian.BIG)
    # GL exposes no PCI ids: screen.rst's "not available".
    assert screen.get_param(Cap.VENDOR_ID) == 0xFFFFFFFF
    assert screen.get_param(Cap.DEVICE_ID) == 0xFFFFFFFF
    # A frontend buffer-size hint, not a capability: Gallium's default (docs/caps.md).
    assert screen.get_param(Cap.GL_BEGIN_END_BUFFER_SIZE) == 512 * 1024
    for cap in (
        Cap.PCI_GROUP,
        Cap.PCI_BUS,
        Cap.PCI_DEVICE,
        Cap.PCI_FUNCTION,
        Cap.VIDEO_MEMORY,
        Cap.DMABUF,
        Cap.CONTEXT_PRIORITY_MASK,
        Cap.SHAREABLE_SHADERS,
        Cap.RESOURCE_FROM_USER_MEMORY,
        Cap.MAX_TEXTURE_MB,
    ):
        assert screen.get_param(cap) == 0, cap.name
    if "llvmpipe" in screen.profile.renderer:  # CPU rasterizer: textures live in RAM
        assert screen.get_param(Cap.ACCELERATED) == 0
        assert screen.get_param(Cap.UMA) == 1
    else:
        assert screen.get_param(Cap.ACCELERATED) == -1


def test_dmabuf_cap_agrees_with_modifier_queries(screen):
    assert screen.get_param(Cap.DMABUF) == 0
    assert screen.is_dmabuf_modifier_supported(0, Format.R8G8B8A8_UNORM) == (False, False)


def test_get_param_from_two_threads(screen):
    expected = {cap: screen.get_param(cap) for cap in Cap}
    errors = []

    def worker():
        try:
            for _ in range(20):
                for cap in Cap:
                    assert screen.get_param(cap) == expected[cap]
                for stage in ShaderType:
                    screen.get_shader_param(stage, ShaderCap.MAX_INPUTS)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ---------------------------------------------------------------------------
# What the caps will say when rows flip
# ---------------------------------------------------------------------------


def test_full_caps_profile_differences(screen, full, profile):
    native = profile == "native"
    # Viewport arrays (GL 4.1) and per-RT blend funcs (GL 4.0) are hidden by gl33.
    assert full.param[Cap.MAX_VIEWPORTS] == (min(gl_int(screen, GL_MAX_VIEWPORTS), 16) if native else 1)
    assert full.param[Cap.INDEP_BLEND_FUNC] == int(native)
    assert full.param[Cap.INDEP_BLEND_ENABLE] == 1  # glEnablei is GL 3.0
    assert full.param[Cap.MAX_RENDER_TARGETS] == min(gl_int(screen, GL_MAX_DRAW_BUFFERS), 8)
    assert full.param[Cap.DOUBLES] == int(native or soft_fp64_complete())  # docs/lowering.md "Soft double precision"
    assert full.param[Cap.TEXTURE_QUERY_LOD] == 1  # gl33: the GL formula in the shader (texture_emul)
    assert full.param[Cap.MAX_TEXTURE_GATHER_COMPONENTS] == 4  # gl33: lookups (texture_emul, texture_gather_cube)
    assert full.param[Cap.MAX_GS_INVOCATIONS] == (32 if native else 1)  # llvmpipe: 32
    # Without transform_feedback3 there is exactly one vertex stream.
    assert full.param[Cap.MAX_VERTEX_STREAMS] == (4 if native else 1)
    assert full.paramf[CapF.MAX_TEXTURE_ANISOTROPY] == (16.0 if native else 0.0)
    for stage in (ShaderType.TESS_CTRL, ShaderType.TESS_EVAL):
        assert full.stage_available(stage) == native
    # PATCHES (bit 14) exists only with tessellation.
    assert bool(full.param[Cap.SUPPORTED_PRIM_MODES] & (1 << 14)) == native
    assert full.param[Cap.SUPPORTED_PRIM_MODES] & 0x3FFF == 0x3FFF


def test_full_glsl_feature_level(screen, full, profile):
    # llvmpipe's GLSL is 4.50; the gl33 profile caps it at 3.30.
    assert full.param[Cap.GLSL_FEATURE_LEVEL] == (450 if profile == "native" else 330)
    # Without legacy I/O there is no compatibility GLSL at all.
    assert caps_with(screen, *(set(DELIVERED) - {"legacy_io"})).param[Cap.GLSL_FEATURE_LEVEL_COMPATIBILITY] == 0


@pytest.mark.parametrize(
    "rows, native, gl33",
    [
        ((), 0, 0),
        (("shaders",), 130, 130),  # 1.40 needs buffer textures and UBOs: the draw row
        (("shaders", "draw"), 410, 330),  # 4.20 needs images and atomic counters
        (("shaders", "draw", "shader_images", "hw_atomics"), 420, 330),  # 4.30 needs compute and SSBOs
    ],
)
def test_glsl_feature_level_follows_delivered_rows(screen, profile, rows, native, gl33):
    caps = caps_with(screen, "screen", "resources", *rows)
    assert caps.param[Cap.GLSL_FEATURE_LEVEL] == (native if profile == "native" else gl33)


def test_full_shader_caps(screen, full, profile):
    vs, fs = full.shader[ShaderType.VERTEX], full.shader[ShaderType.FRAGMENT]
    assert vs[ShaderCap.MAX_INSTRUCTIONS] == limits_for(profile).max_instructions  # lowering/limits.py
    assert vs[ShaderCap.MAX_INPUTS] == min(gl_int(screen, GL_MAX_VERTEX_ATTRIBS), 32)
    assert fs[ShaderCap.MAX_INPUTS] == gl_int(screen, GL_MAX_FRAGMENT_INPUT_COMPONENTS) // 4
    assert vs[ShaderCap.MAX_CONST_BUFFER0_SIZE] == gl_int(screen, GL_MAX_UNIFORM_BLOCK_SIZE)
    # One UBO per stage is glpipe's sysvals block.
    assert vs[ShaderCap.MAX_CONST_BUFFERS] <= gl_int(screen, GL_MAX_VERTEX_UNIFORM_BLOCKS) - SYSVALS_UBOS
    assert fs[ShaderCap.MAX_CONST_BUFFERS] <= gl_int(screen, GL_MAX_FRAGMENT_UNIFORM_BLOCKS) - SYSVALS_UBOS
    assert fs[ShaderCap.MAX_CONST_BUFFERS] >= 11  # GL 3.3: 12 blocks per stage, minus sysvals
    assert fs[ShaderCap.SUPPORTED_IRS] == 1 << ShaderIR.TGSI
    assert fs[ShaderCap.INTEGERS] == 1
    assert fs[ShaderCap.INDIRECT_OUTPUT_ADDR] == 0 and vs[ShaderCap.INDIRECT_OUTPUT_ADDR] == 1
    assert fs[ShaderCap.MAX_TEXTURE_SAMPLERS] <= gl_int(screen, GL_MAX_TEXTURE_IMAGE_UNITS)
    assert fs[ShaderCap.MAX_SAMPLER_VIEWS] >= fs[ShaderCap.MAX_TEXTURE_SAMPLERS]
    assert fs[ShaderCap.MAX_TEXTURE_SAMPLERS] >= 16  # GL 3.3 minimum per stage
    if profile == "gl33":
        assert fs[ShaderCap.MAX_SHADER_BUFFERS] == 0 and fs[ShaderCap.MAX_SHADER_IMAGES] == 0
        for cap in ShaderCap:
            assert full.shader[ShaderType.TESS_CTRL][cap] == 0
    else:
        assert fs[ShaderCap.MAX_SHADER_BUFFERS] > 0 and fs[ShaderCap.MAX_SHADER_IMAGES] > 0


def test_texture_slots_never_reach_the_scratch_unit(screen, full):
    """Every Gallium sampler slot the caps expose maps (by the shared binding
    convention) to a GL unit below the combined limit, other than ModernGL's
    scratch unit, and the graphics stages never share a unit."""
    from glpipe.caps_shader import LOWERING_STAGE

    combined = gl_int(screen, GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)
    scratch = screen.host.scratch_texture_unit
    seen = {}
    for stage in ShaderType:
        n = full.shader[stage][ShaderCap.MAX_TEXTURE_SAMPLERS]
        if n == 0 or stage == ShaderType.COMPUTE and full.compute_param(ShaderIR.TGSI, ComputeCap.IR_TARGET) == "numpy":
            continue
        for slot in range(n):
            unit = full.bindings.texture_unit(LOWERING_STAGE[stage], slot)
            assert 0 <= unit < combined and unit != scratch, (stage.name, slot, unit)
            if stage != ShaderType.COMPUTE:
                assert unit not in seen, (stage.name, slot, seen.get(unit))
                seen[unit] = stage


def test_caps_use_the_screens_binding_layout(screen):
    """The caps count slots in the same layout the context binds by."""
    assert screen.caps.bindings.stages == screen.bindings.stages


def test_full_compute_caps(screen, full, profile):
    cp = full.compute_param
    assert full.param[Cap.COMPUTE] == 1
    assert cp(ShaderIR.TGSI, ComputeCap.GRID_DIMENSION) == 3
    if profile == "native":
        assert cp(ShaderIR.TGSI, ComputeCap.IR_TARGET) == "glsl450"
        assert cp(ShaderIR.TGSI, ComputeCap.MAX_GRID_SIZE) == tuple(
            gl_int(screen, GL_MAX_COMPUTE_WORK_GROUP_COUNT, i) for i in range(3)
        )
        assert cp(ShaderIR.TGSI, ComputeCap.MAX_BLOCK_SIZE) == tuple(
            gl_int(screen, GL_MAX_COMPUTE_WORK_GROUP_SIZE, i) for i in range(3)
        )
        assert cp(ShaderIR.TGSI, ComputeCap.MAX_THREADS_PER_BLOCK) == gl_int(
            screen, GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS
        )
    else:
        # No compute shaders on gl33: the numpy executor promises GL 4.3's minimums.
        assert cp(ShaderIR.TGSI, ComputeCap.IR_TARGET) == "numpy"
        assert cp(ShaderIR.TGSI, ComputeCap.MAX_BLOCK_SIZE) == (1024, 1024, 64)
        assert cp(ShaderIR.TGSI, ComputeCap.MAX_LOCAL_SIZE) == 32768
    # Other IRs: no program in them runs.
    for ir in (ShaderIR.NIR, ShaderIR.NATIVE, ShaderIR.NIR_SERIALIZED):
        assert cp(ir, ComputeCap.IR_TARGET) == ""
        assert cp(ir, ComputeCap.MAX_THREADS_PER_BLOCK) == 0
    # Only the fallback on gl33, only the host's compute shaders on native.
    host_only = caps_with(screen, "compute")
    assert host_only.param[Cap.COMPUTE] == int(profile == "native")


def test_delivered_table_is_read_only():
    with pytest.raises(TypeError):
        DELIVERED["draw"] = True  # type: ignore[index]


def test_delivered_rows_must_match_the_table(screen):
    with pytest.raises(KeyError, match="bogus"):
        ScreenCaps(screen.host, screen.format_support, {**DELIVERED, "bogus": True})


def test_docs_describe_every_delivered_row():
    import os

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "caps.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for row in ROWS:
        assert f"| `{row}` |" in text, row


# ---------------------------------------------------------------------------
# Every non-zero cap is proven: docs/caps.md's proof table
# ---------------------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ROW = re.compile(r"^\| `PIPE_(CAP|CAPF|SHADER_CAP)_([A-Z0-9_]+)` \|(.*)$")
_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def proof_table() -> dict:
    """(kind, name) -> [(file, test)] from the "## Proof table" section of docs/caps.md."""
    with open(os.path.join(ROOT, "docs", "caps.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Proof table\n", 1)[1].split("\n## ", 1)[0]
    table = {}
    for line in section.splitlines():
        m = _ROW.match(line)
        if m:
            key = (m.group(1), m.group(2))
            assert key not in table, f"{key} has two rows"
            table[key] = _REF.findall(m.group(3))
    return table


def test_every_nonzero_cap_has_a_proof(screen):
    """A cap answering non-zero on this profile has a proof-table row naming
    at least one test, and every named test exists: a later flip without a
    proof (or a proof renamed away) fails here."""
    table = proof_table()
    nonzero = [("CAP", c.name) for c in Cap if screen.get_param(c) != 0]
    nonzero += [("CAPF", c.name) for c in CapF if screen.get_paramf(c) != 0.0]
    nonzero += sorted(
        {("SHADER_CAP", c.name) for c in ShaderCap for st in ShaderType if screen.get_shader_param(st, c) != 0}
    )
    missing = [f"PIPE_{kind}_{name}" for kind, name in nonzero if not table.get((kind, name))]
    assert not missing, f"non-zero caps without a proof in docs/caps.md: {missing}"
    enums = {"CAP": Cap, "CAPF": CapF, "SHADER_CAP": ShaderCap}
    sources = {}
    for (kind, name), refs in table.items():
        assert name in enums[kind].__members__, f"proof table row for unknown PIPE_{kind}_{name}"
        for path, test in refs:
            if path not in sources:
                full = os.path.join(ROOT, path)
                assert os.path.exists(full), f"PIPE_{kind}_{name}: {path} does not exist"
                with open(full, encoding="utf-8") as f:
                    sources[path] = f.read()
            assert re.search(rf"^def {test}\(", sources[path], re.MULTILINE), f"PIPE_{kind}_{name}: no {path}::{test}"


def test_withheld_caps_answer_zero(screen, full):
    """WITHHELD caps are ruled (not NOT_OFFERED) and answer 0 even with every
    row delivered; each names its reason."""
    for cap, reason in WITHHELD.items():
        assert cap in PARAM_RULES and reason, cap.name
        assert screen.get_param(cap) == 0 and full.param[cap] == 0, cap.name


def test_shaders_and_draw_rows_are_delivered():
    """Issue #4 delivered shaders, draw and legacy I/O (edge flags last)."""
    assert DELIVERED["shaders"] and DELIVERED["draw"] and DELIVERED["legacy_io"]
