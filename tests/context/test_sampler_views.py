"""Sampler views on pixels: level and layer ranges, swizzles (every value),
emulated formats, format casts, buffer views; set_sampler_views rules.

Texel data goes in with raw GL; expectations are the Gallium definitions
(format channel meaning, sRGB decode formula, swizzle semantics) in numpy.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    Cap,
    Format,
    InvalidArgumentError,
    ObjectDestroyedError,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderCap,
    ShaderType,
    Swizzle,
    Target,
    TexMipFilter,
    TexWrap,
    UnsupportedError,
)
from glpipe.dirty import Dirty

from .util import render_target, vertex_buffer
from .util_blend_dsa import CountingGL
from .util_sampling import (
    Sampling,
    bind_sampling,
    delivered_caps,
    linear,
    make_texture,
    nearest,
    read_int,
    sample_2d,
    tex_fs,
    texel_grid,
    upload,
    view_2d,
)


def _has_views(screen) -> bool:
    return screen.profile.has("texture_view") and screen.profile.has("texture_storage")


def _level_chain(screen, levels=4, size=8):
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, size, size, last_level=levels - 1)
    for level in range(levels):
        n = size >> level
        upload(screen, tex, level, np.tile(np.array([level + 1, 0, 0, 1], np.float32), (n, n, 1)))
    return tex


def _txl(S, lod):
    return S.draw(tex_fs(op="TXL"), (0.5, 0.5, 0, lod), (0.5, 0.5, 0, lod))[0, 0, 0]


MIP_NEAREST = {"min_mip_filter": TexMipFilter.NEAREST, "max_lod": 10.0}


# -- levels and layers -----------------------------------------------------------------------


def test_view_level_range(screen, ctx):
    """first_level is the view's level 0 and last_level its last; the
    sampler's min_lod adds to first_level (context.rst's example)."""
    tex = _level_chain(screen)
    view = view_2d(ctx, tex, first_level=1, last_level=2)
    S = Sampling(ctx, 1, 1)
    bind_sampling(ctx, view, ctx.create_sampler_state(SamplerState(**MIP_NEAREST)))
    assert [_txl(S, lod) for lod in (0.0, 1.0, 3.0)] == [2.0, 3.0, 3.0]
    bind_sampling(ctx, view, ctx.create_sampler_state(SamplerState(min_lod=1.0, **MIP_NEAREST)))
    assert _txl(S, 0.0) == 3.0


def test_two_views_of_one_texture_in_one_draw(screen, ctx):
    """Two level ranges of one texture sampled by one draw: texture views keep
    them apart; without them (gl33) the draw raises UnsupportedError, while
    the views used one draw after the other still work."""
    tex = _level_chain(screen)
    a = view_2d(ctx, tex, first_level=0, last_level=0)
    b = view_2d(ctx, tex, first_level=2, last_level=3)
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0..1]\n"
        "DCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], 2D, FLOAT\nDCL TEMP[0..1]\n"
        "  0: TXL TEMP[0], IN[0], SAMP[0], 2D\n  1: TXL TEMP[1], IN[0], SAMP[1], 2D\n"
        "  2: MOV OUT[0].x, TEMP[0].xxxx\n  3: MOV OUT[0].y, TEMP[1].xxxx\n  4: END\n"
    )
    smp = ctx.create_sampler_state(SamplerState(**MIP_NEAREST))
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [smp, smp])
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [a, b])
    S = Sampling(ctx, 1, 1)
    if _has_views(screen):
        px = S.draw(fs, (0.5, 0.5, 0, 0), (0.5, 0.5, 0, 0))[0, 0]
        assert (px[0], px[1]) == (1.0, 3.0)
    else:
        with pytest.raises(UnsupportedError, match="two views of one texture"):
            S.draw(fs, (0.5, 0.5, 0, 0), (0.5, 0.5, 0, 0))
    for view, want in ((b, 3.0), (a, 1.0), (b, 3.0)):
        bind_sampling(ctx, view, smp)
        ctx.set_sampler_views(ShaderType.FRAGMENT, 1, [None])
        assert _txl(S, 0.0) == want


def _array_texture(screen, layers=3):
    tex = make_texture(screen, Target.TEXTURE_2D_ARRAY, Format.R32G32B32A32_FLOAT, 2, 2, array_size=layers)
    data = np.stack([np.tile(np.array([k + 1, 0, 0, 1], np.float32), (2, 2, 1)) for k in range(layers)])
    upload(screen, tex, 0, data)
    return tex


def test_view_layer_range(screen, ctx):
    """first_layer..last_layer: array index r reads layer first_layer + r
    (clamped to the view); a 2D view of one layer reads that layer.  Without
    texture views only the full layer range can be viewed."""
    tex = _array_texture(screen)
    smp = ctx.create_sampler_state(nearest())
    S = Sampling(ctx, 1, 1)
    fs = tex_fs(target="2D_ARRAY")
    full = ctx.create_sampler_view(tex, SamplerViewTemplate(target=Target.TEXTURE_2D_ARRAY, last_layer=2))
    bind_sampling(ctx, full, smp)
    assert [S.draw(fs, (0.5, 0.5, r, 1), (0.5, 0.5, r, 1))[0, 0, 0] for r in (0, 1, 2, 7)] == [1, 2, 3, 3]
    sub = SamplerViewTemplate(target=Target.TEXTURE_2D_ARRAY, first_layer=1, last_layer=2)
    one = SamplerViewTemplate(target=Target.TEXTURE_2D, first_layer=2, last_layer=2)
    if not _has_views(screen):
        for templ in (sub, one):
            with pytest.raises(UnsupportedError, match="texture views"):
                ctx.create_sampler_view(tex, templ)
        return
    bind_sampling(ctx, ctx.create_sampler_view(tex, sub), smp)
    assert [S.draw(fs, (0.5, 0.5, r, 1), (0.5, 0.5, r, 1))[0, 0, 0] for r in (0, 1, 5)] == [2, 3, 3]
    bind_sampling(ctx, ctx.create_sampler_view(tex, one), smp)
    assert S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))[0, 0, 0] == 3


def test_3d_texture_view(screen, ctx):
    """A 3D view samples slices by r (layers are not a range for 3D)."""
    tex = make_texture(screen, Target.TEXTURE_3D, Format.R32G32B32A32_FLOAT, 2, 2, depth=4)
    data = np.stack([np.tile(np.array([k + 1, 0, 0, 1], np.float32), (2, 2, 1)) for k in range(4)])
    upload(screen, tex, 0, data)
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(target=Target.TEXTURE_3D, last_layer=3))
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 1, 1)
    assert [S.draw(tex_fs(target="3D"), (0.5, 0.5, r, 1), (0.5, 0.5, r, 1))[0, 0, 0] for r in (0.1, 0.4, 0.6, 0.9)] == [
        1,
        2,
        3,
        4,
    ]


def test_3d_texture_view_of_later_levels(screen, ctx):
    """A 3D view starting at level 1 samples level 1 as its base: slice k of
    level 1 (4 x 4 x 2) holds 10 * (k + 1).  Native made it with glTextureView
    and a layer count of the depth, which GL refuses for 3D (GL_INVALID_VALUE):
    a 3D view's numlayers is 1."""
    tex = make_texture(screen, Target.TEXTURE_3D, Format.R32G32B32A32_FLOAT, 8, 8, depth=4, last_level=2)
    upload(screen, tex, 0, np.zeros((4, 8, 8, 4), np.float32))
    level1 = np.stack([np.tile(np.array([10 * (k + 1), 0, 0, 1], np.float32), (4, 4, 1)) for k in range(2)])
    upload(screen, tex, 1, level1)
    upload(screen, tex, 2, np.full((1, 2, 2, 4), 99, np.float32))
    view = ctx.create_sampler_view(
        tex, SamplerViewTemplate(target=Target.TEXTURE_3D, first_level=1, last_level=2, last_layer=0)
    )
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 1, 1)
    assert [S.draw(tex_fs(target="3D"), (0.5, 0.5, r, 1), (0.5, 0.5, r, 1))[0, 0, 0] for r in (0.25, 0.75)] == [10, 20]


# -- swizzles ---------------------------------------------------------------------------------------

_SWIZZLE_VALUES = (Swizzle.X, Swizzle.Y, Swizzle.Z, Swizzle.W, Swizzle.ZERO, Swizzle.ONE)


def _apply_swizzle(texel, swz):
    src = list(texel) + [0.0, 1.0]  # X Y Z W, then ZERO and ONE
    return np.array([src[int(s)] for s in swz], np.float32)


def test_every_swizzle_in_every_channel(screen, ctx):
    """Six views whose swizzles put each of X, Y, Z, W, ZERO, ONE in each
    channel: result channel c = the texel's channel swizzle[c] or 0 / 1."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    texel = np.array([0.25, 0.5, 0.75, 2.0], np.float32)
    upload(screen, tex, 0, texel.reshape(1, 1, 4))
    smp = ctx.create_sampler_state(nearest())
    S = Sampling(ctx, 1, 1)
    for k in range(6):
        swz = tuple(_SWIZZLE_VALUES[(k + c) % 6] for c in range(4))
        view = view_2d(ctx, tex, swizzle_r=swz[0], swizzle_g=swz[1], swizzle_b=swz[2], swizzle_a=swz[3])
        bind_sampling(ctx, view, smp)
        np.testing.assert_array_equal(
            S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))[0, 0], _apply_swizzle(texel, swz), err_msg=str(swz)
        )


def test_swizzle_none_is_refused(screen, ctx):
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    with pytest.raises(InvalidArgumentError, match="swizzle_g"):
        view_2d(ctx, tex, swizzle_g=Swizzle.NONE)


# Gallium's meaning of each emulated format's channels (u_format.csv), from one stored byte pair.
_EMULATED = {
    Format.A8_UNORM: (1, lambda a: (0, 0, 0, a[0])),
    Format.L8_UNORM: (1, lambda a: (a[0], a[0], a[0], 1)),
    Format.I8_UNORM: (1, lambda a: (a[0], a[0], a[0], a[0])),
    Format.L8A8_UNORM: (2, lambda a: (a[0], a[0], a[0], a[1])),
    Format.R8G8B8X8_UNORM: (4, lambda a: (a[0], a[1], a[2], 1)),
}


@pytest.mark.parametrize("fmt", list(_EMULATED), ids=lambda f: f.name)
def test_emulated_formats_read_as_gallium_defines_them(screen, ctx, fmt):
    """A8 / L8 / I8 / L8A8 / RGBX sampled read the Gallium channels, and a
    view swizzle applies on top of them (W, X, ONE, Y)."""
    from glpipe.formats import host_storage

    nbytes, meaning = _EMULATED[fmt]
    host = host_storage(fmt, screen.format_support)
    assert not host.needs_conversion  # stored bytes are Gallium's bytes: raw upload is exact
    raw = np.array([[[51, 204, 102, 153][:nbytes], [255, 0, 17, 34][:nbytes]]], np.uint8)
    tex = make_texture(screen, Target.TEXTURE_2D, fmt, 2, 1)
    upload(screen, tex, 0, raw, gl_format=host.gl_format_name, gl_type=host.gl_type_name)
    smp = ctx.create_sampler_state(nearest())
    S = Sampling(ctx, 2, 1)
    want = np.array([meaning(raw[0, i] / 255.0) for i in range(2)], np.float32)
    bind_sampling(ctx, view_2d(ctx, tex), smp)
    np.testing.assert_allclose(S.draw(tex_fs(), (0, 0.5, 0, 1), (1, 0.5, 0, 1))[0], want, atol=1e-6)
    swz = (Swizzle.W, Swizzle.X, Swizzle.ONE, Swizzle.Y)
    bind_sampling(ctx, view_2d(ctx, tex, swizzle_r=swz[0], swizzle_g=swz[1], swizzle_b=swz[2], swizzle_a=swz[3]), smp)
    np.testing.assert_allclose(
        S.draw(tex_fs(), (0, 0.5, 0, 1), (1, 0.5, 0, 1))[0], np.array([_apply_swizzle(w, swz) for w in want]), atol=1e-6
    )


# -- format casts --------------------------------------------------------------------------------

_BYTES = np.array([[[10, 128, 200, 255], [0, 1, 64, 250]]], np.uint8)


def _rgba8(screen, fmt=Format.R8G8B8A8_UNORM):
    tex = make_texture(screen, Target.TEXTURE_2D, fmt, 2, 1)
    upload(screen, tex, 0, _BYTES, gl_type="GL_UNSIGNED_BYTE")
    return tex


def test_cast_unorm_to_uint(screen, ctx):
    """R8G8B8A8_UNORM viewed as R8G8B8A8_UINT reads the stored bytes as
    integers (a texture view); gl33 cannot (UnsupportedError)."""
    tex = _rgba8(screen)
    templ = SamplerViewTemplate(format=Format.R8G8B8A8_UINT, target=Target.TEXTURE_2D)
    if not _has_views(screen):
        with pytest.raises(UnsupportedError, match="texture views"):
            ctx.create_sampler_view(tex, templ)
        return
    S = Sampling(ctx, 2, 1)
    color, _ = render_target(ctx, 2, 1, fmt=Format.R32G32B32A32_UINT)
    bind_sampling(ctx, ctx.create_sampler_view(tex, templ), ctx.create_sampler_state(nearest()))
    S.draw(tex_fs(ret="UINT"), (0, 0.5, 0, 1), (1, 0.5, 0, 1), read=False)
    np.testing.assert_array_equal(read_int(screen, color)[0], _BYTES[0].astype(np.uint32))


def _srgb_to_linear(c):
    c = np.asarray(c, np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def test_cast_between_srgb_and_unorm(screen, ctx):
    """UNORM data viewed as SRGB decodes with the sRGB curve (alpha linear);
    SRGB data viewed as UNORM reads the raw values."""
    smp = ctx.create_sampler_state(nearest())
    S = Sampling(ctx, 2, 1)
    raw = _BYTES[0] / 255.0
    decoded = np.concatenate([_srgb_to_linear(raw[:, :3]), raw[:, 3:]], axis=1)
    for src, dst, want in (
        (Format.R8G8B8A8_UNORM, Format.R8G8B8A8_SRGB, decoded),
        (Format.R8G8B8A8_SRGB, Format.R8G8B8A8_UNORM, raw),
    ):
        tex = _rgba8(screen, src)
        templ = SamplerViewTemplate(format=dst, target=Target.TEXTURE_2D)
        if not _has_views(screen):
            with pytest.raises(UnsupportedError, match="texture views"):
                ctx.create_sampler_view(tex, templ)
            continue
        bind_sampling(ctx, ctx.create_sampler_view(tex, templ), smp)
        np.testing.assert_allclose(S.draw(tex_fs(), (0, 0.5, 0, 1), (1, 0.5, 0, 1))[0], want, atol=2e-3)


def test_cast_rgba_to_rgbx_on_every_profile(screen, ctx):
    """R8G8B8A8 viewed as R8G8B8X8 (same GL storage): alpha reads 1."""
    tex = _rgba8(screen)
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=Format.R8G8B8X8_UNORM, target=Target.TEXTURE_2D))
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 2, 1)
    want = _BYTES[0] / 255.0
    want[:, 3] = 1.0
    np.testing.assert_allclose(S.draw(tex_fs(), (0, 0.5, 0, 1), (1, 0.5, 0, 1))[0], want, atol=1e-6)


@pytest.mark.parametrize(
    "src,dst",
    [
        (Format.R8G8B8A8_UNORM, Format.R32_FLOAT),  # same size, other channels
        (Format.R8G8B8A8_UNORM, Format.B8G8R8A8_UNORM),  # other component order
        (Format.R8G8B8A8_UNORM, Format.R16G16_UNORM),
        (Format.Z32_FLOAT, Format.R32_FLOAT),  # depth casts only to itself
        (Format.R8_UNORM, Format.A8_UNORM),
    ],
)
def test_incompatible_casts_are_refused(screen, ctx, src, dst):
    bind = Bind.SAMPLER_VIEW | (Bind.DEPTH_STENCIL if src == Format.Z32_FLOAT else 0)
    tex = make_texture(screen, Target.TEXTURE_2D, src, 2, 2, bind=bind)
    with pytest.raises(InvalidArgumentError, match="not compatible"):
        ctx.create_sampler_view(tex, SamplerViewTemplate(format=dst, target=Target.TEXTURE_2D))


def test_template_errors_name_the_field(screen, ctx):
    tex = _level_chain(screen, levels=2)
    with pytest.raises(InvalidArgumentError, match="levels 0..2"):
        view_2d(ctx, tex, last_level=2)
    with pytest.raises(InvalidArgumentError, match="layers 0..1"):
        view_2d(ctx, tex, last_layer=1)
    with pytest.raises(InvalidArgumentError, match="TEXTURE_3D cannot view"):
        ctx.create_sampler_view(tex, SamplerViewTemplate(target=Target.TEXTURE_3D))
    with pytest.raises(InvalidArgumentError, match="BUFFER does not fit"):
        ctx.create_sampler_view(tex, SamplerViewTemplate())
    with pytest.raises(InvalidArgumentError, match="SamplerViewTemplate"):
        ctx.create_sampler_view(tex, {"target": Target.TEXTURE_2D})
    cube = make_texture(screen, Target.TEXTURE_CUBE, Format.R32G32B32A32_FLOAT, 2, 2, array_size=6)
    with pytest.raises(InvalidArgumentError, match="6 layers"):
        ctx.create_sampler_view(cube, SamplerViewTemplate(target=Target.TEXTURE_CUBE, last_layer=0))


# -- buffer views ------------------------------------------------------------------------------------

_TXF_BUFFER_FS = (
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
    "DCL SVIEW[0], BUFFER, FLOAT\nDCL TEMP[0]\n"
    "  0: F2I TEMP[0], IN[0]\n  1: TXF OUT[0], TEMP[0], SAMP[0], BUFFER\n  2: END\n"
)


def _buffer(screen, data):
    res = vertex_buffer(screen, data)  # raw-GL filled BUFFER resource
    return res


def test_buffer_view_txf(screen, ctx):
    """TXF on a buffer view reads element x of the viewed range; an offset
    needs texture_buffer_range (TEXTURE_BUFFER_OFFSET_ALIGNMENT 0 without it)."""
    data = np.arange(16 * 4, dtype=np.float32).reshape(16, 4)
    buf = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=Bind.SAMPLER_VIEW)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, buf.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, data.nbytes, data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    S = Sampling(ctx, 8, 1)
    whole = ctx.create_sampler_view(buf, SamplerViewTemplate(format=Format.R32G32B32A32_FLOAT, target=Target.BUFFER))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [whole])
    img = S.draw(_TXF_BUFFER_FS, (0, 0, 0, 0), (8, 1, 0, 0))  # x = pixel index
    np.testing.assert_array_equal(img[0], data[:8])
    ranged = SamplerViewTemplate(format=Format.R32G32B32A32_FLOAT, target=Target.BUFFER, offset=64, size=128)
    if not screen.profile.has("texture_buffer_range"):
        with pytest.raises(UnsupportedError, match="texture_buffer_range"):
            ctx.create_sampler_view(buf, ranged)
        return
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [ctx.create_sampler_view(buf, ranged)])
    img = S.draw(_TXF_BUFFER_FS, (0, 0, 0, 0), (8, 1, 0, 0))
    np.testing.assert_array_equal(img[0], data[4:12])
    with pytest.raises(InvalidArgumentError, match="TEXTURE_BUFFER_OFFSET_ALIGNMENT"):
        ctx.create_sampler_view(
            buf, SamplerViewTemplate(format=Format.R32G32B32A32_FLOAT, target=Target.BUFFER, offset=4, size=16)
        )
    with pytest.raises(UnsupportedError, match="identity swizzle"):
        ctx.create_sampler_view(
            buf, SamplerViewTemplate(format=Format.R32G32B32A32_FLOAT, target=Target.BUFFER, swizzle_r=Swizzle.Y)
        )


# -- set_sampler_views rules ------------------------------------------------------------------------


def test_set_sampler_views_ranges_and_trailing_unbind(screen, ctx):
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    a, b, c = (view_2d(ctx, tex) for _ in range(3))
    slots = ctx.sampler_views_part.sampler_views[ShaderType.FRAGMENT]
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [a, b, c])
    ctx.set_sampler_views(ShaderType.FRAGMENT, 1, [c], unbind_num_trailing_slots=1)
    assert slots[:4] == [a, c, None, None]
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, None, unbind_num_trailing_slots=2)
    assert slots[:2] == [None, None]
    with pytest.raises(InvalidArgumentError, match="PIPE_MAX_SHADER_SAMPLER_VIEWS"):
        ctx.set_sampler_views(ShaderType.FRAGMENT, 127, [a, b])
    with pytest.raises(InvalidArgumentError, match="SamplerView"):
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [tex])


def test_destroy_rules(screen, ctx):
    """sampler_view_destroy unbinds the view; a destroyed view cannot be set;
    a view whose resource was destroyed fails the draw; views of another
    context are refused."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    view = view_2d(ctx, tex)
    ctx.set_sampler_views(ShaderType.FRAGMENT, 3, [view])
    ctx.sampler_view_destroy(view)
    assert ctx.sampler_views_part.sampler_views[ShaderType.FRAGMENT][3] is None
    with pytest.raises(ObjectDestroyedError):
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    with pytest.raises(ObjectDestroyedError):
        ctx.sampler_view_destroy(view)
    doomed = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    S = Sampling(ctx, 1, 1)
    bind_sampling(ctx, view_2d(ctx, doomed), ctx.create_sampler_state(nearest()))
    screen.resource_destroy(doomed)
    with pytest.raises(ObjectDestroyedError):
        S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))
    other = screen.context_create()
    try:
        foreign = view_2d(other, tex)
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [foreign])
    finally:
        other.destroy()


def test_view_target_must_match_the_shader(screen, ctx):
    """A 2D-array view under a shader that samples 2D fails the draw with a
    message naming both, instead of sampling nothing."""
    tex = _array_texture(screen)
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(target=Target.TEXTURE_2D_ARRAY, last_layer=2))
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    S = Sampling(ctx, 1, 1)
    with pytest.raises(InvalidArgumentError, match="samples a 2D texture, but the bound view is TEXTURE_2D_ARRAY"):
        S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))


def test_unbound_view_reads_zero(screen, ctx):
    """A sampled slot with no view reads (0, 0, 0, 1) (GL's incomplete texture)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    upload(screen, tex, 0, np.ones((1, 1, 4), np.float32))
    S = Sampling(ctx, 1, 1)
    bind_sampling(ctx, view_2d(ctx, tex), ctx.create_sampler_state(nearest()))
    assert list(S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))[0, 0]) == [1, 1, 1, 1]
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [None])
    assert list(S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))[0, 0]) == [0, 0, 0, 1]


def test_switching_views_rebinds_one_unit(screen, ctx):
    """A redundant set_sampler_views is free; switching between two views
    costs one texture bind (plus restoring the scratch unit as active)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    a, b = view_2d(ctx, tex), view_2d(ctx, tex, swizzle_r=Swizzle.ONE)
    S = Sampling(ctx, 1, 1)
    bind_sampling(ctx, a, ctx.create_sampler_state(nearest()))
    S.draw(tex_fs(), (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))
    counting = CountingGL(ctx.gl)
    ctx.gl = counting
    try:
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [a])
        assert not ctx.dirty & Dirty.SAMPLER_VIEWS
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [b])
        ctx.sampler_views_part._emit_sampler_views()
        binds = [c for c in counting.calls if c in ("glBindTexture", "glBindTextureUnit")]
        assert len(binds) == 1
        assert set(counting.calls) <= {
            "glActiveTexture",
            "glBindTexture",
            "glBindTextureUnit",
            "glTexParameteri",
            "glTexParameteriv",
        }
    finally:
        ctx.gl = counting._gl


def test_texel_buffer_at_the_element_limit(screen, ctx):
    """MAX_TEXEL_BUFFER_ELEMENTS_UINT: a view of exactly that many R8 texels is
    made and its last texel fetched; one more is refused."""
    limit = screen.profile.limit("GL_MAX_TEXTURE_BUFFER_SIZE")
    assert delivered_caps(screen).param[Cap.MAX_TEXEL_BUFFER_ELEMENTS_UINT] == limit
    big = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=limit + 1, bind=Bind.SAMPLER_VIEW)
    )
    with pytest.raises(InvalidArgumentError, match="MAX_TEXEL_BUFFER_ELEMENTS_UINT"):
        ctx.create_sampler_view(big, SamplerViewTemplate(format=Format.R8_UNORM, target=Target.BUFFER))
    screen.resource_destroy(big)
    buf = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=limit, bind=Bind.SAMPLER_VIEW)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, buf.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, limit - 1, 1, np.array([204], np.uint8))
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    view = ctx.create_sampler_view(buf, SamplerViewTemplate(format=Format.R8_UNORM, target=Target.BUFFER))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    fs = (
        "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], BUFFER, FLOAT\n"
        f"IMM[0] INT32 {{{limit - 1}, 0, 0, 0}}\n  0: TXF OUT[0], IMM[0], SAMP[0], BUFFER\n  1: END\n"
    )
    S = Sampling(ctx, 1, 1)
    px = S.draw(fs, (0, 0, 0, 0), (0, 0, 0, 0))[0, 0]
    np.testing.assert_allclose(px, [204 / 255, 0, 0, 1], atol=1e-6)
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [None])
    ctx.sampler_view_destroy(view)
    screen.resource_destroy(buf)


def test_half_float_texture_filters_linearly(screen, ctx):
    """TEXTURE_HALF_FLOAT_LINEAR: an RGBA16F texture under LINEAR filtering
    gives the bilinear blend (values exact in half precision)."""
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R16G16B16A16_FLOAT, 4, 3)
    data = texel_grid(4, 3)
    upload(screen, tex, 0, data.astype(np.float16), gl_type="GL_HALF_FLOAT")
    bind_sampling(
        ctx,
        view_2d(ctx, tex),
        ctx.create_sampler_state(linear(wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_EDGE)),
    )
    S = Sampling(ctx, 6, 5)
    lo, hi = (0.1, 0.1, 0, 1), (0.9, 0.9, 0, 1)
    c = S.coords(lo, hi)
    np.testing.assert_allclose(
        S.draw(tex_fs(), lo, hi),
        sample_2d(data, (0, 0, 0, 0), c[..., 0], c[..., 1], TexWrap.CLAMP_TO_EDGE, TexWrap.CLAMP_TO_EDGE, True),
        atol=2e-2,
    )


def test_last_sampler_slot_of_the_stage(screen, ctx):
    """SAMP/SVIEW slot MAX_TEXTURE_SAMPLERS - 1 of the FS samples; the next slot is refused."""
    caps = delivered_caps(screen)
    n = caps.shader[ShaderType.FRAGMENT][ShaderCap.MAX_TEXTURE_SAMPLERS]
    assert n == caps.shader[ShaderType.FRAGMENT][ShaderCap.MAX_SAMPLER_VIEWS] == screen.bindings.stage("FRAG").tex_count
    last = n - 1
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    upload(screen, tex, 0, np.array([[[0.5, 0.25, 0.125, 1.0]]], np.float32))
    smp = ctx.create_sampler_state(nearest())
    bind_sampling(ctx, view_2d(ctx, tex), smp, slot=last)
    fs = (
        f"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[{last}]\n"
        f"DCL SVIEW[{last}], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[{last}], 2D\n  1: END\n"
    )
    S = Sampling(ctx, 1, 1)
    assert list(S.draw(fs, (0.5, 0.5, 0, 1), (0.5, 0.5, 0, 1))[0, 0]) == [0.5, 0.25, 0.125, 1.0]
    if n < 32:
        with pytest.raises(UnsupportedError):
            ctx.bind_sampler_states(ShaderType.FRAGMENT, n, [smp])


def test_sampler_views_are_a_part(screen, ctx):
    """The sampler-views area is a part (docs/architecture.md):
    ``ctx.sampler_views_part`` owns the slots, the live views and the units'
    shadows; the pipe_context methods are its bound methods; a view still
    belongs to the context; its row is the part's emit."""
    from glpipe import sampler_view_objects, sampler_views
    from glpipe.context import DERIVED_ROWS, PARTS

    part = ctx.sampler_views_part
    assert isinstance(part, sampler_views.SamplerViewPart) and part.ctx is ctx
    assert sampler_views.AREA in PARTS and not hasattr(sampler_views, "SamplerViewMixin")
    for name in ("create_sampler_view", "sampler_view_destroy", "set_sampler_views"):
        assert getattr(ctx, name).__self__ is part
    assert [fn for _bits, area, fn in DERIVED_ROWS if area is sampler_views.AREA] == [
        sampler_views.SamplerViewPart._bind_texture_units
    ]
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_FLOAT, 1, 1)
    view = view_2d(ctx, tex)
    assert type(view) is sampler_view_objects.SamplerView and view.context is ctx and view in part.views
    ctx.set_sampler_views(ShaderType.FRAGMENT, 2, [view])
    assert part.sampler_views[ShaderType.FRAGMENT][2] is view and ctx.dirty & Dirty.SAMPLER_VIEWS
    ctx.sampler_view_destroy(view)
    assert part.sampler_views[ShaderType.FRAGMENT][2] is None and view not in part.views


# -- fetches with no sampler state bound -------------------------------------------------------------

_FETCH_FS = {
    "TXF": (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
        "DCL SVIEW[0], 2D, SINT\nDCL TEMP[0..1]\nIMM[0] INT32 {0, 0, 0, 0}\n"
        "  0: F2I TEMP[0], IN[0]\n  1: MOV TEMP[0].w, IMM[0].xxxx\n"
        "  2: TXF TEMP[1], TEMP[0], SAMP[0], 2D\n  3: I2F OUT[0], TEMP[1]\n  4: END\n"
    ),
    "SAMPLE_I": (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
        "DCL SVIEW[0], 2D, SINT\nDCL TEMP[0..1]\nIMM[0] INT32 {0, 0, 0, 0}\n"
        "  0: F2I TEMP[0], IN[0]\n  1: MOV TEMP[0].w, IMM[0].xxxx\n"
        "  2: SAMPLE_I TEMP[1], TEMP[0], SVIEW[0]\n  3: I2F OUT[0], TEMP[1]\n  4: END\n"
    ),
}


@pytest.mark.parametrize("opcode", sorted(_FETCH_FS))
def test_fetch_from_an_integer_texture_with_no_sampler_bound(screen, ctx, opcode):
    """TXF / SAMPLE_I read texels without sampler state (tgsi.rst), so none need be
    bound.  GL judges completeness by the unit's sampler, and an integer texture
    is incomplete under the default (filtering) one: the fetch read zeros on native
    before glpipe bound a NEAREST sampler to such units."""
    texels = np.arange(4 * 2 * 4, dtype=np.int32).reshape(2, 4, 4) * 3 - 40  # rows x cols x RGBA
    tex = make_texture(screen, Target.TEXTURE_2D, Format.R32G32B32A32_SINT, 4, 2)
    upload(screen, tex, 0, texels, gl_format="GL_RGBA_INTEGER", gl_type="GL_INT")
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_2D))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [None])
    img = Sampling(ctx, 4, 2).draw(_FETCH_FS[opcode], (0, 0, 0, 0), (4, 2, 0, 0))  # pixel (x, y) fetches (x, y)
    np.testing.assert_array_equal(img, texels.astype(np.float32))
