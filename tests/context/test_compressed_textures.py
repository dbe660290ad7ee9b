"""Compressed textures the host cannot sample (issue 18 item 6): S3TC, RGTC,
ETC2 / EAC decoded by fallback.compressed on the gl33 profile.

* every decoded format is a SAMPLER_VIEW (never a RENDER_TARGET) on both
  profiles, on 2D, cube and 2D arrays, 3D only where GL allows it;
* random blocks uploaded through texture_subdata / transfer_map read back
  byte for byte (the compressed bytes, on both profiles);
* the texels the host holds equal the numpy decode: on the native profile
  that compares our decoder with the host's own (llvmpipe) decoder, on gl33
  it checks the upload path (levels, partial edge blocks, layers, faces);
* a DXT5 textured draw on gl33 gives the native profile's pixels.
"""

from __future__ import annotations

import numpy as np
import pytest

from fallback.compressed import DECODERS, decode_blocks
from glpipe import Bind, Box, Format, Map, ResourceTemplate, Target
from glpipe.formats import format_desc, host_decodes, host_storage, is_format_supported

from .util_sampling import Sampling, bind_sampling, nearest, tex_fs, view_2d

DECODED = sorted(DECODERS, key=lambda f: f.name)
SV, RT = Bind.SAMPLER_VIEW, Bind.RENDER_TARGET
# The families the issue counts (19 create-time refusals in the replayed streams).
ISSUE_FAMILIES = ("s3tc", "rgtc", "etc", "bptc")


def _blocks(fmt, rng, nbx, nby, layers=1):
    bs = format_desc(fmt).blocksize
    return rng.integers(0, 256, (layers, nby, nbx * bs), dtype=np.uint8)


def _texture(screen, fmt, target, w, h, layers=1, last_level=0):
    return screen.resource_create(
        ResourceTemplate(
            target=target, format=fmt, width0=w, height0=h, depth0=1, array_size=layers, last_level=last_level, bind=SV
        )
    )


def _expected_float(fmt, blocks, w, h):
    """Decoded texels as the GL float values of the storage's channels:
    (layers, h, w, C) float64 (unorm / snorm conversion of GL 4.5 §2.3.5)."""
    via = format_desc(DECODERS[fmt].via)
    raw = decode_blocks(fmt, blocks, w, h)
    if via.is_float:  # BC6H: half floats
        return raw.view(np.float16).reshape(raw.shape[0], h, w, -1).astype(np.float64)
    size = via.channels[0].size
    signed = via.channels[0].type.name == "SNORM"
    dtype = {8: np.int8 if signed else np.uint8, 16: np.int16 if signed else np.uint16}[size]
    v = raw.view(dtype).reshape(raw.shape[0], h, w, -1).astype(np.float64)
    if signed:
        return np.maximum(v / (2 ** (size - 1) - 1), -1.0)
    return v / (2**size - 1)


_GL_READ_FORMAT = {1: "GL_RED", 2: "GL_RG", 4: "GL_RGBA"}


def _assert_texels(got, want, err_msg="", atol=1e-6):
    """``got`` equals the decoded ``want`` (atol 1e-6), except that a BC6H
    half-float denormal (0 < |v| < 2**-14) may read back as zero: GLSL 4.50
    section 4.7.1 lets any denormal input to a shader be flushed, and Mesa's
    decoder flushes them on CPUs it treats as lacking F16C -- which is what a
    user's GALLIUM_OVERRIDE_CPU_CAPS of sse4.1 or lower makes of any CPU
    (glpipe's own llvmpipe setting, GALLIVM_PERF=nopt, keeps F16C: docs/host.md
    "Driver settings made before the driver loads")."""
    got, want = np.asarray(got, np.float32), np.asarray(want, np.float32)
    flushed = (want != 0) & (np.abs(want) < 2.0**-14) & (got == 0)
    np.testing.assert_allclose(
        np.where(flushed, 0, got), np.where(flushed, 0, want), rtol=0, atol=atol, err_msg=err_msg
    )


def _host_texels(screen, res, level, comps, face=None):
    """What the host holds at ``level`` through glGetTexImage as floats (the
    host decompresses natively stored data): (layers, h, w, C) float32."""
    gl = screen.host.gl
    w, h, layers = res.level_extent(level)
    target = res.gl_target
    gl.glActiveTexture(gl.GL_TEXTURE0 + screen.host.scratch_texture_unit)
    gl.glBindTexture(target, res.gl_object)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    fmt = getattr(gl, _GL_READ_FORMAT[comps])
    if res.target == Target.TEXTURE_CUBE:
        out = np.zeros((6, h, w, comps), np.float32)
        for f in range(6):
            gl.glGetTexImage(gl.GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, level, fmt, gl.GL_FLOAT, out[f])
    else:
        out = np.zeros((layers if res.target != Target.TEXTURE_2D else 1, h, w, comps), np.float32)
        gl.glGetTexImage(target, level, fmt, gl.GL_FLOAT, out)
    gl.glBindTexture(target, 0)
    assert screen.host.clear_errors() == []
    return out


def _comps(fmt):
    return 4 if format_desc(DECODERS[fmt].via).nr_channels == 4 else format_desc(DECODERS[fmt].via).nr_channels


# --------------------------------------------------------------------------
# is_format_supported
# --------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", DECODED, ids=lambda f: f.name)
def test_decoded_formats_sample_but_never_render(screen, fmt):
    support = screen.format_support
    assert is_format_supported(support, fmt, Target.TEXTURE_2D, 0, 0, SV)
    assert is_format_supported(support, fmt, Target.TEXTURE_CUBE, 0, 0, SV)
    assert is_format_supported(support, fmt, Target.TEXTURE_2D_ARRAY, 0, 0, SV)
    for bind in (RT, Bind.SHADER_IMAGE, Bind.DEPTH_STENCIL, Bind.BLENDABLE):
        assert not is_format_supported(support, fmt, Target.TEXTURE_2D, 0, 0, bind), bind
    # GL 4.5 §8.7: no compressed 1D or RECT textures; 3D only for BPTC.
    for target in (Target.TEXTURE_1D, Target.TEXTURE_RECT):
        assert not is_format_supported(support, fmt, target, 0, 0, SV), target
    assert is_format_supported(support, fmt, Target.TEXTURE_3D, 0, 0, SV) == (format_desc(fmt).layout == "bptc")
    assert not is_format_supported(support, fmt, Target.TEXTURE_2D, 4, 4, SV)


def test_gl33_create_refusals_of_the_issue_families(screen, profile):
    """The compressed formats of the issue's families refused at create: on
    gl33 before this change S3TC (8), ETC1/ETC2/EAC (11) and BPTC (4) were;
    now none is."""
    refused = []
    for desc in map(format_desc, Format):
        if desc.layout in ISSUE_FAMILIES:
            templ = ResourceTemplate(target=Target.TEXTURE_2D, format=desc.format, width0=8, height0=8, bind=SV)
            if not screen.can_create_resource(templ):
                refused.append(desc.name)
    assert refused == []
    if profile == "gl33":
        for fmt in (Format.DXT5_RGBA, Format.ETC2_RGBA8, Format.BPTC_RGB_FLOAT):
            assert host_decodes(format_desc(fmt), host_storage(fmt, screen.format_support)), fmt.name


# --------------------------------------------------------------------------
# uploads and read-back
# --------------------------------------------------------------------------


def _srgb_to_linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _expected_sampled(fmt, blocks, w, h):
    """What sampling returns: the decoded channels through the format's
    swizzle (LATC's RRR1, RGTC's R001, ...), sRGB decoded (GL 4.5 §8.24)."""
    chans = _expected_float(fmt, blocks, w, h)[0]
    desc = format_desc(fmt)
    out = np.zeros((h, w, 4))
    for c, s in enumerate(desc.swizzle):
        out[..., c] = chans[..., s] if s <= 3 else (1.0 if s == 5 else 0.0)
    if desc.is_srgb:
        out[..., :3] = _srgb_to_linear(out[..., :3])
    return out


def _sampled_level(ctx, res, level):
    """Level ``level`` of 2D ``res`` drawn texel for texel (NEAREST, a view of
    that level alone): (h, w, 4) float32."""
    w, h, _ = res.level_extent(level)
    s = Sampling(ctx, w, h)
    view = view_2d(ctx, res, first_level=level, last_level=level)
    bind_sampling(ctx, view, ctx.create_sampler_state(nearest()))
    return s.draw(tex_fs(), (0, 0, 0, 1), (1, 1, 0, 1))


@pytest.mark.parametrize("fmt", DECODED, ids=lambda f: f.name)
def test_texture_subdata_texels_and_read_back(screen, ctx, fmt):
    """Levels 0..2 of a 12x10 2D texture (the last has partial blocks):
    sampled texels equal the numpy decode (on native: the host's own decoder
    against ours), READ maps return the bytes."""
    rng = np.random.default_rng(int(fmt))
    res = _texture(screen, fmt, Target.TEXTURE_2D, 12, 10, last_level=2)
    written = []
    for level in range(3):
        w, h, _ = res.level_extent(level)
        blocks = _blocks(fmt, rng, -(-w // 4), -(-h // 4))
        ctx.texture_subdata(res, level, 0, Box(width=w, height=h), blocks, blocks.shape[2], blocks[0].nbytes)
        written.append(blocks)
    ctx.flush()
    for level in range(3):
        w, h, _ = res.level_extent(level)
        got = _sampled_level(ctx, res, level)
        srgb = format_desc(fmt).is_srgb
        # llvmpipe's sRGB decode approximates the GL formula (within 2e-3);
        # the encoded texels are compared exactly below.
        _assert_texels(
            got,
            _expected_sampled(fmt, written[level], w, h),
            atol=2e-3 if srgb else 1e-6,
            err_msg=f"{fmt.name} level {level} ({screen.profile.name})",
        )
        if srgb:
            np.testing.assert_allclose(
                _host_texels(screen, res, level, 4),
                _expected_float(fmt, written[level], w, h),
                rtol=0,
                atol=1e-6,
                err_msg=f"{fmt.name} level {level} encoded",
            )
        t = ctx.transfer_map(res, level, Map.READ, Box(width=w, height=h))
        assert np.array_equal(t.data, written[level]), (fmt.name, level)
        ctx.transfer_unmap(t)
    screen.resource_destroy(res)


# (glGetTexImage reads these back: formats the host stores decoded on gl33,
# or immutable natively -- Mesa's CPU read-back of mutable RGTC storage
# rounds differently from its sampler.)
@pytest.mark.parametrize(
    "fmt", [Format.DXT5_RGBA, Format.DXT1_SRGBA, Format.ETC2_RG11_SNORM, Format.ETC2_RGB8A1], ids=lambda f: f.name
)
def test_transfer_map_write_arrays_and_cubes(screen, ctx, fmt):
    """WRITE maps (whole and FLUSH_EXPLICIT sub-boxes) of 2D arrays and cube
    faces: every layer / face decoded in its place; READ returns the bytes."""
    rng = np.random.default_rng(7)
    comps = _comps(fmt)
    for target, layers in ((Target.TEXTURE_2D_ARRAY, 3), (Target.TEXTURE_CUBE, 6)):
        res = _texture(screen, fmt, target, 8, 8, layers=layers)
        blocks = _blocks(fmt, rng, 2, 2, layers)
        t = ctx.transfer_map(res, 0, Map.WRITE | Map.DISCARD_RANGE, Box(width=8, height=8, depth=layers))
        t.data[...] = blocks
        ctx.transfer_unmap(t)
        # Replace the lower-right block of layer 1 through FLUSH_EXPLICIT.
        patch = _blocks(fmt, rng, 1, 1)
        t = ctx.transfer_map(
            res, 0, Map.WRITE | Map.FLUSH_EXPLICIT | Map.DISCARD_RANGE, Box(x=4, y=4, z=1, width=4, height=4, depth=1)
        )
        t.data[...] = patch
        ctx.transfer_flush_region(t, Box(width=4, height=4, depth=1))
        ctx.transfer_unmap(t)
        bs = format_desc(fmt).blocksize
        blocks[1, 1, bs : 2 * bs] = patch[0, 0]
        got = _host_texels(screen, res, 0, comps)
        _assert_texels(got, _expected_float(fmt, blocks, 8, 8), err_msg=f"{fmt.name} {target.name}")
        t = ctx.transfer_map(res, 0, Map.READ, Box(width=8, height=8, depth=layers))
        assert np.array_equal(t.data, blocks)
        ctx.transfer_unmap(t)
        screen.resource_destroy(res)


def test_partial_level_edges(screen, ctx):
    """A 5x5 DXT1 level is 2x2 blocks; a box ending at the level's edge may
    be unaligned (x 4, width 1), and is decoded into just that column."""
    fmt = Format.DXT1_RGBA
    rng = np.random.default_rng(3)
    res = _texture(screen, fmt, Target.TEXTURE_2D, 5, 5)
    blocks = _blocks(fmt, rng, 2, 2)
    ctx.texture_subdata(res, 0, 0, Box(width=5, height=5), blocks, 16, 32)
    edge = _blocks(fmt, rng, 1, 2)
    ctx.texture_subdata(res, 0, 0, Box(x=4, y=0, width=1, height=5), edge, 8, 16)
    blocks[:, :, 8:16] = edge
    got = _host_texels(screen, res, 0, 4)
    _assert_texels(got, _expected_float(fmt, blocks, 5, 5))
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=4, width=1, height=5))
    assert np.array_equal(t.data, edge)
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)


@pytest.mark.parametrize("fmt", [Format.BPTC_RGBA_UNORM, Format.BPTC_RGB_FLOAT], ids=lambda f: f.name)
def test_bptc_3d_slices(screen, ctx, fmt):
    """BPTC is the one family GL allows on TEXTURE_3D: each slice of an
    8x8x3 texture holds its own decoded blocks."""
    rng = np.random.default_rng(5)
    res = screen.resource_create(
        ResourceTemplate(target=Target.TEXTURE_3D, format=fmt, width0=8, height0=8, depth0=3, bind=SV)
    )
    blocks = _blocks(fmt, rng, 2, 2, 3)
    ctx.texture_subdata(res, 0, 0, Box(width=8, height=8, depth=3), blocks, blocks.shape[2], blocks[0].nbytes)
    got = _host_texels(screen, res, 0, 4)
    _assert_texels(got, _expected_float(fmt, blocks, 8, 8))
    t = ctx.transfer_map(res, 0, Map.READ, Box(y=4, z=1, width=8, height=4, depth=2))
    assert np.array_equal(t.data, blocks[1:3, 1:2])
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)


def test_read_back_of_a_partly_written_level(screen, ctx):
    """docs/formats.md "Read-back": the blocks the application wrote come
    back exactly; on gl33 (decoded storage) blocks never written read as
    zero bytes (Gallium leaves them undefined), natively as whatever the
    host holds -- so only the written block is compared on both."""
    fmt = Format.DXT5_RGBA
    res = _texture(screen, fmt, Target.TEXTURE_2D, 8, 8)
    block = _blocks(fmt, np.random.default_rng(9), 1, 1)
    ctx.texture_subdata(res, 0, 0, Box(x=4, y=4, width=4, height=4), block, 16, 16)
    t = ctx.transfer_map(res, 0, Map.READ, Box(width=8, height=8))
    assert np.array_equal(t.data[0, 1, 16:32], block[0, 0])
    if host_decodes(format_desc(fmt), res.storage):
        assert not t.data[0, 0].any() and not t.data[0, 1, :16].any()
        assert res.compressed_shadow.covers(0, 0, 1, 1, 1, 1, 1)
        assert not res.compressed_shadow.covers(0, 0, 0, 0, 1, 2, 2)
    else:
        assert res.compressed_shadow is None
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)


# --------------------------------------------------------------------------
# drawing: gl33 matches native
# --------------------------------------------------------------------------


def _draw_dxt5(screen, blocks):
    ctx = screen.context_create()
    try:
        res = _texture(screen, Format.DXT5_RGBA, Target.TEXTURE_2D, 16, 16)
        ctx.texture_subdata(res, 0, 0, Box(width=16, height=16), blocks, blocks.shape[2], blocks[0].nbytes)
        s = Sampling(ctx, 16, 16)
        view = view_2d(ctx, res)
        sampler = ctx.create_sampler_state(nearest())
        bind_sampling(ctx, view, sampler)
        return s.draw(tex_fs(), (0, 0, 0, 1), (1, 1, 0, 1))
    finally:
        ctx.destroy()


def test_dxt5_draw_gl33_matches_native(profile):
    """The same DXT5 texture drawn on this profile and on the other one."""
    from conftest import get_screen

    blocks = _blocks(Format.DXT5_RGBA, np.random.default_rng(11), 4, 4)
    other = _draw_dxt5(get_screen("gl33" if profile == "native" else "native"), blocks)
    mine = _draw_dxt5(get_screen(profile), blocks)
    assert np.array_equal(mine, other)
    # And both are the decoded texels, row 0 = texel row 0 (GENERIC runs 0..1).
    expected = _expected_float(Format.DXT5_RGBA, blocks, 16, 16)[0]
    np.testing.assert_allclose(mine, expected, rtol=0, atol=1e-6)


def test_info_reports_the_decoders_with_their_cost(screen, profile):
    """``python -m glpipe info``: S3TC and ETC2 are *fallback* on gl33 (with
    the decode time measured), *native* on llvmpipe's full profile."""
    from glpipe.host.features import feature_report

    report = feature_report(screen.profile)
    for feature in ("texture_compression_s3tc", "texture_compression_etc2", "texture_compression_bptc"):
        row = report[feature]
        if screen.profile.has(feature):
            assert row["status"] == "native", feature
        else:
            assert profile == "gl33"
            assert row["status"] == "fallback" and "fallback.compressed" in row["by"], row
            assert "ms/MB" in row["cost"], row
