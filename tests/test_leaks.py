"""Dropped objects are freed (issue 12 item 4, "A leak"): an object dropped
without its destroy call -- a resource, a surface, a sampler view, a
sampler / vertex-elements / shader CSO -- has its GL objects deleted (a
finalizer queues the release for the GL thread, glpipe/lifetime.py) and its
Python object collected, so memory stays flat.  docs/robustness.md "Object
lifetimes and soak".

Before the fix: 5,000 dropped 64x64 textures kept +87 MB of RSS after
gc.collect(), and every context-side kind kept its GL objects.
"""

from __future__ import annotations

import gc
import os
import weakref

import numpy as np
import pytest
from context.util import PASS_VS, vertex_buffer
from context.util_draw import FLAT_FS, POS_COLOR, SIZE, setup, vertices

from glpipe import (
    Bind,
    DrawInfo,
    Format,
    FramebufferState,
    Prim,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    SurfaceTemplate,
    Target,
    VertexBuffer,
)
from glpipe.lifetime import pending_deletions

TRI = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)


@pytest.fixture(scope="module", autouse=True)
def frozen_heap():
    """A collection costs time in proportion to every object the process
    tracks: late in the full suite each gc.collect() took seconds, and the
    soak collects 66 times (5 minutes there on gl33, and a timeout; 15 s
    alone).  One full
    collection, then gc.freeze(): the older objects are permanent for the
    module, so each collection scans only what its tests made -- the
    dropped objects these tests watch are among them."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


TEX_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}
  0: TEX OUT[0], IMM[0], SAMP[0], 2D
  1: END
"""


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _texture(screen, size=64):
    return screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R8G8B8A8_UNORM,
            width0=size,
            height0=size,
            bind=Bind.SAMPLER_VIEW | Bind.RENDER_TARGET,
        )
    )


def _fill(screen, res):
    """Write the texture once (raw GL), so the host really backs it with memory."""
    gl = screen.host.gl
    gl.glBindTexture(gl.GL_TEXTURE_2D, res.gl_object)
    data = np.full((res.height0, res.width0, 4), 7, np.uint8)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexSubImage2D(gl.GL_TEXTURE_2D, 0, 0, 0, res.width0, res.height0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, data)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)


def test_dropped_textures_are_freed(screen):
    """5,000 64x64 RGBA8 textures (16 KiB each: 80 MiB in all) made, written
    and dropped one after another: RSS and the live count stay flat."""
    gl = screen.host.gl
    for _ in range(300):  # warm the allocators up
        _fill(screen, _texture(screen))
    gc.collect()
    screen.resource_create(ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=16))
    live0, rss0 = screen.live_resources, _rss()
    names = []
    for _ in range(5000):
        res = _texture(screen)
        _fill(screen, res)
        names.append(res.gl_object)
        del res
    gc.collect()
    kept = screen.resource_create(ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=16))  # drains
    assert pending_deletions(screen.host) == 0
    del kept
    assert screen.live_resources <= live0 + 1
    # GL reuses freed names: none of the names handed out may still be a
    # texture holding storage of its own beyond the ones live now.
    live_names = {r.gl_object for r in list(screen._resources)}
    assert not [n for n in set(names) - live_names if gl.glIsTexture(n)]
    growth = _rss() - rss0
    assert growth < 16 * 2**20, f"RSS grew {growth / 2**20:.1f} MiB over 5,000 dropped 16 KiB textures"


def test_dropped_buffers_are_freed(screen):
    gl = screen.host.gl
    names = []
    for _ in range(2000):
        res = vertex_buffer(screen, np.zeros(1024, np.float32))
        names.append(res.gl_object)
    del res
    gc.collect()
    screen.resource_create(ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=16))
    live_names = {r.gl_object for r in list(screen._resources)}
    assert not [n for n in set(names) - live_names if gl.glIsBuffer(n)]


def _churn(ctx, make, n=150):
    """Make, bind and draw with ``n`` objects in turn (each replacing the
    last, which is then dropped); returns weakrefs to them and the GL names
    they had (``make`` returns (object, callable giving its names after a draw))."""
    refs, names = [], []
    for _ in range(n):
        obj, gl_names = make()
        ctx.draw_vbo(TRI)
        refs.append(weakref.ref(obj))
        names.append(gl_names())
        del obj
    gc.collect()
    ctx.flush()  # a context entry point: runs the queued releases
    return refs, names


def _assert_freed(screen, refs, names, is_name, keep=2):
    alive = [r for r in refs[:-keep] if r() is not None]
    assert not alive, f"{len(alive)} of {len(refs) - keep} dropped objects are still referenced"
    gl = screen.host.gl
    test = getattr(gl, is_name)
    stale = [n for group in names[:-keep] for n in group if n and test(n)]
    # Names may be reused by the objects still live: only the last ones' count.
    live = {n for group in names[-keep:] for n in group}
    assert not [n for n in stale if n not in live], f"{is_name}: GL objects of dropped objects remain"


@pytest.fixture
def drawing(screen, ctx):
    setup(ctx)
    vb = vertex_buffer(screen, vertices([(0, 0), (2 * SIZE, 0), (0, 2 * SIZE)], (1, 0, 0, 1)))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    return ctx


def test_dropped_surfaces_free_their_framebuffers(screen, drawing):
    ctx = drawing
    color = _texture(screen, SIZE)

    def make():
        surf = ctx.create_surface(color, SurfaceTemplate(format=color.format))
        ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
        return surf, lambda: [ctx.framebuffer_part._bound_fbo]

    refs, names = _churn(ctx, make)
    _assert_freed(screen, refs, names, "glIsFramebuffer")
    assert len(ctx.framebuffer_part._fbo_cache) <= 2


def test_dropped_sampler_views_and_samplers_are_freed(screen, drawing):
    ctx = drawing
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=TEX_FS)))
    tex = _texture(screen, 4)
    tmpl = SamplerViewTemplate(format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D)

    def make_view():
        view = ctx.create_sampler_view(tex, tmpl)
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
        return view, lambda: [view._gl_view]

    def make_sampler():
        samp = ctx.create_sampler_state(SamplerState())
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [samp])
        return samp, samp.all_gl_names

    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(SamplerState())])
    refs, names = _churn(ctx, make_view)
    _assert_freed(screen, refs, names, "glIsTexture")
    refs, names = _churn(ctx, make_sampler)
    _assert_freed(screen, refs, names, "glIsSampler")


def test_dropped_vertex_elements_free_their_vaos(screen, drawing):
    ctx = drawing

    def make():
        cso = ctx.create_vertex_elements_state(list(POS_COLOR))
        ctx.bind_vertex_elements_state(cso)
        return cso, lambda: [r.vao for r in cso.vaos.values()]

    refs, names = _churn(ctx, make)
    _assert_freed(screen, refs, names, "glIsVertexArray")


def test_dropped_shaders_free_their_programs(screen, drawing):
    ctx = drawing

    def make():
        fs = ctx.create_fs_state(ShaderState(tokens=FLAT_FS))
        ctx.bind_fs_state(fs)
        return fs, lambda: [v.gl_shader for v in fs.variants.values()]

    refs, names = _churn(ctx, make, n=60)
    _assert_freed(screen, refs, names, "glIsShader")
    programs = ctx.shader_part._programs
    assert len(programs) <= 3


def test_dropped_vertex_shaders_free_their_programs(screen, drawing):
    ctx = drawing

    def make():
        vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
        ctx.bind_vs_state(vs)
        return vs, lambda: [ctx.shader_part.program.gl_program]

    refs, names = _churn(ctx, make, n=60)
    _assert_freed(screen, refs, names, "glIsProgram")


def _load_soak():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "soak.py"
    spec = importlib.util.spec_from_file_location("glpipe_soak", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_soak_bounded(profile):
    """scripts/soak.py, bounded to a few seconds: 300 create/destroy-or-drop
    cycles of every object kind, then 3,000 draws with state churn.  After
    warm-up RSS stays within a few MiB and the live counts do not climb."""
    soak = _load_soak()
    result = soak.run(profile, cycles=300, draws=3000, every=50)
    for phase in result["phases"]:
        assert phase["growth_mib"] < 8, phase
        samples = phase["samples"]
        half = samples[len(samples) // 2 :]
        # Live context objects: the long-lived ones only, flat from the middle on.
        assert max(s["live_context_objects"] for s in half) == min(s["live_context_objects"] for s in half), phase
        # Live resources: bounded (the VAO cache keeps at most 256 vertex-buffer
        # sets, docs/robustness.md), never the ~600 made in the cycles.
        assert max(s["live_resources"] for s in samples) < 300, phase
