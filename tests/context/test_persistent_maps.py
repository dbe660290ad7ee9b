"""transfer_map with Map.PERSISTENT / Map.COHERENT (context.rst "Transfers":
a persistent mapping may stay mapped while the GPU uses the buffer; without
COHERENT, the CPU's writes reach the GPU at transfer_flush_region or
memory_barrier(MAPPED_BUFFER)), depth-only / stencil-only maps of packed
depth-stencil textures, and maps of multisampled textures."""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import (
    Barrier,
    Box,
    Cap,
    DrawInfo,
    Format,
    Map,
    Prim,
    ResourceFlag,
    ResourceTemplate,
    SurfaceTemplate,
    Target,
    VertexBuffer,
)
from glpipe.errors import InvalidArgumentError, UnsupportedError

from .util import read_rgba32f
from .util_blits import fill, level_box, make, read, read_buffer
from .util_draw import setup, vertices

_TRI = [(0, 0), (8, 0), (0, 8)]


def _buffer(screen, size, flags):
    return screen.resource_create(
        ResourceTemplate(
            target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=glpipe.Bind.VERTEX_BUFFER, flags=flags
        )
    )


def _persistent(screen):
    """Skip where the cap is 0 (test_cap_is_honest proves the refusal there)."""
    if not screen.get_param(Cap.BUFFER_MAP_PERSISTENT_COHERENT):
        pytest.skip("BUFFER_MAP_PERSISTENT_COHERENT is 0 on this profile")


def _whole(res):
    return Box(x=0, width=res.width0, height=1, depth=1)


def test_cap_is_honest(ctx, screen):
    has = screen.profile.has("buffer_storage")
    assert screen.get_param(Cap.BUFFER_MAP_PERSISTENT_COHERENT) == int(has)
    plain = _buffer(screen, 64, 0)
    # PERSISTENT needs the resource flag (context.rst), on every profile.
    with pytest.raises(InvalidArgumentError, match="MAP_PERSISTENT"):
        ctx.transfer_map(plain, 0, Map.WRITE | Map.PERSISTENT, _whole(plain))
    if not has:
        with pytest.raises(UnsupportedError, match="buffer_storage"):
            _buffer(screen, 64, ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT)
    else:
        res = _buffer(screen, 64, ResourceFlag.MAP_PERSISTENT)
        # COHERENT needs MAP_COHERENT at creation.
        with pytest.raises(InvalidArgumentError, match="MAP_COHERENT"):
            ctx.transfer_map(res, 0, Map.WRITE | Map.PERSISTENT | Map.COHERENT, _whole(res))


def test_coherent_writes_reach_draws_while_mapped(ctx, screen):
    _persistent(screen)
    color = setup(ctx, size=8)
    a = vertices(_TRI, (0.25, 0.5, 1.0, 1.0), size=8)
    res = _buffer(screen, a.nbytes, ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.PERSISTENT | Map.COHERENT, _whole(res))
    ctx.set_vertex_buffers([VertexBuffer(buffer=res, buffer_offset=0, stride=32)])
    for rgba in ((0.25, 0.5, 1.0, 1.0), (1.0, 0.0, 0.5, 1.0)):
        # Written into the live mapping, drawn without unmapping or flushing.
        t.data[:] = vertices(_TRI, rgba, size=8).view(np.uint8).reshape(-1)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
        img = read_rgba32f(screen, color)
        assert np.allclose(img[0, 0], rgba) and np.allclose(img[7, 7], 0)
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)


@pytest.mark.parametrize("how", ["flush_region", "memory_barrier", "unmap"])
def test_non_coherent_writes_visible_after_flush(ctx, screen, how):
    _persistent(screen)
    color = setup(ctx, size=8)
    rgba = (0.75, 0.25, 0.5, 1.0)
    data = vertices(_TRI, rgba, size=8).view(np.uint8).reshape(-1)
    res = _buffer(screen, data.nbytes + 32, ResourceFlag.MAP_PERSISTENT)
    usage = Map.WRITE | Map.PERSISTENT | (Map.FLUSH_EXPLICIT if how == "flush_region" else 0)
    t = ctx.transfer_map(res, 0, usage, Box(x=32, width=data.nbytes, height=1, depth=1))
    t.data[:] = data
    if how == "flush_region":
        ctx.transfer_flush_region(t, Box(x=0, width=data.nbytes, height=1, depth=1))
    elif how == "memory_barrier":
        ctx.memory_barrier(Barrier.MAPPED_BUFFER)
    else:
        ctx.transfer_unmap(t)
    ctx.set_vertex_buffers([VertexBuffer(buffer=res, buffer_offset=32, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    img = read_rgba32f(screen, color)
    assert np.allclose(img[0, 0], rgba) and np.allclose(img[7, 7], 0)
    assert bytes(read_buffer(ctx, res)[32:]) == data.tobytes()
    if t.mapped:
        ctx.transfer_unmap(t)


@pytest.mark.parametrize("coherent", [True, False])
def test_persistent_read_sees_gpu_writes(ctx, screen, coherent):
    _persistent(screen)
    flags = ResourceFlag.MAP_PERSISTENT | (ResourceFlag.MAP_COHERENT if coherent else 0)
    res = _buffer(screen, 256, flags)
    ctx.buffer_subdata(res, Map.WRITE, 0, bytes(range(256)))
    usage = Map.READ | Map.PERSISTENT | (Map.COHERENT if coherent else 0)
    t = ctx.transfer_map(res, 0, usage, _whole(res))
    assert bytes(t.data) == bytes(range(256))
    # The GPU writes while the buffer stays mapped.
    ctx.clear_buffer(res, 16, 32, np.array([0xA5], np.uint8).tobytes())
    if not coherent:
        ctx.memory_barrier(Barrier.MAPPED_BUFFER)
    fence = ctx.flush()
    assert screen.fence_finish(ctx, fence, 10**9)
    expect = np.arange(256, dtype=np.uint8)
    expect[16:48] = 0xA5
    assert (np.asarray(t.data) == expect).all()
    with pytest.raises(ValueError, match="read-only"):
        t.data[0] = 1  # a READ mapping
    ctx.transfer_unmap(t)


def test_a_view_outlives_unmap_and_destroy(ctx, screen):
    """The memory of a persistent mapping is never freed under a live view."""
    _persistent(screen)
    res = _buffer(screen, 4096, ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.PERSISTENT | Map.COHERENT, _whole(res))
    view = t.data
    ctx.transfer_unmap(t)
    screen.resource_destroy(res)
    view[:] = 7
    assert (view == 7).all()
    del view
    # A later destroy sweeps the buffer kept for the view.
    other = _buffer(screen, 64, ResourceFlag.MAP_PERSISTENT)
    screen.resource_destroy(other)


# -- depth-only / stencil-only ------------------------------------------------

# (format, bytes per texel, depth byte mask, stencil byte mask): the channel
# layout of p_format.h (little-endian words).
_ZS = [
    (Format.Z24_UNORM_S8_UINT, [0xFF, 0xFF, 0xFF, 0x00], [0, 0, 0, 0xFF]),
    (Format.S8_UINT_Z24_UNORM, [0x00, 0xFF, 0xFF, 0xFF], [0xFF, 0, 0, 0]),
    (Format.Z32_FLOAT_S8X24_UINT, [0xFF] * 4 + [0] * 4, [0, 0, 0, 0, 0xFF, 0, 0, 0]),
]


def _zs_texture(ctx, screen, fmt, seed):
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, 0, 0, glpipe.Bind.DEPTH_STENCIL):
        pytest.skip(f"{fmt.name} is not supported")
    res = make(screen, Target.TEXTURE_2D, fmt, 5, 3)
    bs = 8 if fmt == Format.Z32_FLOAT_S8X24_UINT else 4
    rng = np.random.default_rng(seed)
    texels = rng.integers(0, 256, size=(1, 3, 5, bs), dtype=np.uint8)
    if bs == 8:
        texels[..., :4] = rng.random((1, 3, 5), np.float32).view(np.uint8).reshape(1, 3, 5, 4)
        texels[..., 5:] = 0  # X24 padding
    fill(ctx, res, data=texels.reshape(1, 3, 5 * bs))
    return res, texels.reshape(1, 3, 5 * bs)


@pytest.mark.parametrize("fmt,zmask,smask", _ZS, ids=[f[0].name for f in _ZS])
def test_depth_only_and_stencil_only_reads(ctx, screen, fmt, zmask, smask):
    res, texels = _zs_texture(ctx, screen, fmt, 1)
    box = level_box(res, 0)
    for flag, mask in ((Map.DEPTH_ONLY, zmask), (Map.STENCIL_ONLY, smask)):
        t = ctx.transfer_map(res, 0, Map.READ | flag, box)
        m = np.tile(np.array(mask, np.uint8), 5)
        assert (np.asarray(t.data).reshape(texels.shape) == texels & m).all(), flag
        ctx.transfer_unmap(t)


@pytest.mark.parametrize("fmt,zmask,smask", _ZS, ids=[f[0].name for f in _ZS])
def test_depth_only_and_stencil_only_writes_keep_the_other_channel(ctx, screen, fmt, zmask, smask):
    res, texels = _zs_texture(ctx, screen, fmt, 2)
    box = Box(x=1, y=1, z=0, width=3, height=2, depth=1)
    bs = len(zmask)
    new = np.random.default_rng(3).integers(0, 256, size=(1, 2, 3 * bs), dtype=np.uint8)
    if bs == 8:
        new.reshape(1, 2, 3, 8)[..., :4] = np.full((1, 2, 3), 0.5, np.float32).view(np.uint8).reshape(1, 2, 3, 4)
    expect = texels.copy()
    for flag, mask in ((Map.STENCIL_ONLY, smask), (Map.DEPTH_ONLY, zmask)):
        t = ctx.transfer_map(res, 0, Map.WRITE | flag, box)
        t.data[...] = new.reshape(t.data.shape)
        ctx.transfer_unmap(t)
        m = np.tile(np.array(mask, np.uint8), 3)
        region = expect[:, 1:3, bs : 4 * bs]
        region[...] = (region & ~m) | (new & m)
        assert (read(ctx, res) == expect).all(), flag


def test_depth_only_on_a_colour_texture_is_refused(ctx, screen):
    res = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 4, 4)
    with pytest.raises(InvalidArgumentError, match="DEPTH_ONLY"):
        ctx.transfer_map(res, 0, Map.READ | Map.DEPTH_ONLY, level_box(res, 0))
    z = make(screen, Target.TEXTURE_2D, Format.Z16_UNORM, 4, 4)
    with pytest.raises(InvalidArgumentError, match="STENCIL_ONLY"):
        ctx.transfer_map(z, 0, Map.READ | Map.STENCIL_ONLY, level_box(z, 0))


# -- multisampled textures ------------------------------------------------------


def _msaa(screen, fmt=Format.R8G8B8A8_UNORM, samples=4):
    if not screen.is_format_supported(fmt, Target.TEXTURE_2D, samples, samples, glpipe.Bind.RENDER_TARGET):
        pytest.skip(f"no {samples}x MSAA {fmt.name}")
    return make(screen, Target.TEXTURE_2D, fmt, 8, 8, samples=samples)


def test_msaa_read_map_resolves(ctx, screen):
    src = _msaa(screen)
    surf = ctx.create_surface(src, SurfaceTemplate(format=src.format))
    ctx.clear_render_target(surf, (0.25, 0.5, 1.0, 1.0), 0, 0, 8, 8, False)
    ctx.clear_render_target(surf, (1.0, 0.0, 0.0, 1.0), 0, 0, 3, 8, False)
    t = ctx.transfer_map(src, 0, Map.READ, Box(x=2, y=1, width=4, height=5, depth=1))
    px = np.asarray(t.data).reshape(5, 4, 4).astype(int)
    ctx.transfer_unmap(t)
    # Every sample of a pixel holds the same colour: the average is that colour.
    assert (px[:, :1] == (255, 0, 0, 255)).all()
    assert (np.abs(px[:, 1:] - (64, 128, 255, 255)) <= 1).all()


def test_msaa_write_map_sets_every_sample(ctx, screen):
    src = _msaa(screen)
    surf = ctx.create_surface(src, SurfaceTemplate(format=src.format))
    ctx.clear_render_target(surf, (0.0, 0.0, 0.0, 0.0), 0, 0, 8, 8, False)
    new = np.random.default_rng(4).integers(0, 256, size=(3, 2, 4), dtype=np.uint8)
    t = ctx.transfer_map(src, 0, Map.WRITE, Box(x=5, y=4, width=2, height=3, depth=1))
    t.data[...] = new.reshape(t.data.shape)
    ctx.transfer_unmap(t)
    out = read(ctx, src).reshape(8, 8, 4)
    expect = np.zeros((8, 8, 4), np.uint8)
    expect[4:7, 5:7] = new
    # A resolve of equal samples is exact (their average).
    assert (out == expect).all()


def test_a_dropped_buffer_is_kept_for_its_views_then_freed(ctx, screen):
    """A buffer dropped without resource_destroy while a view of its
    persistent mapping is alive: the view stays valid through drains, and the
    GL buffer is deleted at the first drain after the view is gone."""
    import gc

    _persistent(screen)
    res = _buffer(screen, 4096, ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT)
    t = ctx.transfer_map(res, 0, Map.WRITE | Map.PERSISTENT | Map.COHERENT, _whole(res))
    view = t.data
    ctx.transfer_unmap(t)
    name = res.gl_object
    del t, res
    gc.collect()
    ctx.flush()  # a drain: the view is alive, the buffer stays
    view[:] = 9
    assert (view == 9).all()
    assert ctx.gl.glIsBuffer(name)
    del view
    gc.collect()
    ctx.flush()  # the next drain deletes it
    ctx.flush()
    assert not ctx.gl.glIsBuffer(name)
