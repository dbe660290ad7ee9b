"""Object lifetimes (issue 12 item 4): every object knows whether it is alive
and whose it is; using a destroyed object, or another context's, raises at
the call that uses it -- also when it was bound and destroyed later (the
next draw or clear raises, the bound state is not corrupted, and rebinding
live objects draws the right pixels again).  docs/robustness.md "Object
lifetimes and soak" has the rules.

Expected pixels are the draw's colour computed by hand: a triangle covering
the whole SIZE x SIZE target in one flat colour.
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import (
    Bind,
    BlendState,
    Clear,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    FramebufferState,
    Prim,
    RasterizerState,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    SurfaceTemplate,
    Target,
    VertexBuffer,
)
from glpipe.errors import InvalidArgumentError, ObjectDestroyedError

from .util import PASS_VS, vertex_buffer
from .util_draw import FLAT_FS, POS_COLOR, SIZE, read_rgba32f, setup, vertices, zero_fill

RED = (1.0, 0.0, 0.0, 1.0)
GREEN = (0.0, 1.0, 0.0, 1.0)
TRI = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)

CB_FS = """FRAG
DCL OUT[0], COLOR
DCL CONST[0][0]
  0: MOV OUT[0], CONST[0][0]
  1: END
"""

TEX_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}
  0: TEX OUT[0], IMM[0], SAMP[0], 2D
  1: END
"""


def _cover(screen, ctx, color=RED):
    """Bind a vertex buffer holding one triangle that covers the whole target."""
    vb = vertex_buffer(screen, vertices([(0, 0), (2 * SIZE, 0), (0, 2 * SIZE)], color))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    return vb


def _expect(screen, res, color):
    img = read_rgba32f(screen, res)
    np.testing.assert_array_equal(img, np.broadcast_to(np.float32(color), (SIZE, SIZE, 4)))


def _new_target(ctx):
    """A fresh SIZE x SIZE RGBA32F colour texture bound as the framebuffer (zeroed)."""
    screen = ctx.screen
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R32G32B32A32_FLOAT,
            width0=SIZE,
            height0=SIZE,
            bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
        )
    )
    zero_fill(screen, res)
    surf = ctx.create_surface(res, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
    ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
    return res, surf


# -- a bound object destroyed: the next draw raises, rebinding recovers --------


def test_draw_with_a_destroyed_bound_surface_raises(screen, ctx):
    """surface_destroy of the bound colour surface: the next draw (taken on
    the fast path before the fix, and drawing) raises, so does clear; a live
    framebuffer bound afterwards draws the right pixels."""
    setup(ctx)
    _cover(screen, ctx)
    ctx.draw_vbo(TRI)
    surf = ctx.framebuffer_part.framebuffer.cbufs[0]
    ctx.surface_destroy(surf)
    with pytest.raises(ObjectDestroyedError, match="cbufs\\[0\\]"):
        ctx.draw_vbo(TRI)
    with pytest.raises(ObjectDestroyedError):
        ctx.draw_vbo(TRI)  # still refused: nothing half-applied
    with pytest.raises(ObjectDestroyedError):
        ctx.clear(Clear.COLOR0, None, GREEN, 1.0, 0)
    res, _surf = _new_target(ctx)
    ctx.draw_vbo(TRI)
    _expect(screen, res, RED)


def test_draw_with_a_destroyed_bound_zsbuf_surface_raises(screen, ctx):
    """The same for the depth/stencil surface."""
    color = setup(ctx)
    _cover(screen, ctx)
    zs = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.Z24_UNORM_S8_UINT,
            width0=SIZE,
            height0=SIZE,
            bind=Bind.DEPTH_STENCIL,
        )
    )
    zsurf = ctx.create_surface(zs, SurfaceTemplate(format=Format.Z24_UNORM_S8_UINT))
    cbuf = ctx.framebuffer_part.framebuffer.cbufs[0]
    ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(cbuf,), zsbuf=zsurf))
    ctx.draw_vbo(TRI)
    ctx.surface_destroy(zsurf)
    with pytest.raises(ObjectDestroyedError, match="zsbuf"):
        ctx.draw_vbo(TRI)
    zero_fill(screen, color)
    ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(cbuf,)))
    ctx.draw_vbo(TRI)
    _expect(screen, color, RED)


def test_draw_with_a_destroyed_vertex_buffer_raises(screen, ctx):
    color = setup(ctx)
    vb = _cover(screen, ctx)
    ctx.draw_vbo(TRI)
    screen.resource_destroy(vb)
    for _ in range(2):
        with pytest.raises(ObjectDestroyedError):
            ctx.draw_vbo(TRI)
    zero_fill(screen, color)
    _cover(screen, ctx, GREEN)
    ctx.draw_vbo(TRI)
    _expect(screen, color, GREEN)


def test_draw_into_a_destroyed_render_target_raises(screen, ctx):
    """Before: the draw left a GL error that a later resource_create swallowed.
    Now the draw raises and leaves the host without a pending error."""
    color = setup(ctx)
    _cover(screen, ctx)
    ctx.draw_vbo(TRI)
    screen.resource_destroy(color)
    with pytest.raises(ObjectDestroyedError, match="cbufs\\[0\\]"):
        ctx.draw_vbo(TRI)
    assert screen.host.gl.glGetError() == 0
    res, _ = _new_target(ctx)
    ctx.draw_vbo(TRI)
    _expect(screen, res, RED)


def test_draw_with_a_destroyed_constant_buffer_raises(screen, ctx):
    color = setup(ctx)
    _cover(screen, ctx)
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=CB_FS)))
    cb = vertex_buffer(screen, np.array(RED, np.float32), bind=Bind.CONSTANT_BUFFER)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=cb, buffer_size=16))
    ctx.draw_vbo(TRI)
    screen.resource_destroy(cb)
    with pytest.raises(ObjectDestroyedError, match="constant buffer 0"):
        ctx.draw_vbo(TRI)
    cb2 = vertex_buffer(screen, np.array(GREEN, np.float32), bind=Bind.CONSTANT_BUFFER)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=cb2, buffer_size=16))
    zero_fill(screen, color)
    ctx.draw_vbo(TRI)
    _expect(screen, color, GREEN)


def _texture(screen, rgba8):
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=Bind.SAMPLER_VIEW
        )
    )
    gl = screen.host.gl
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex.gl_object)
    data = np.broadcast_to(np.uint8(rgba8), (4, 4, 4)).copy()
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexSubImage2D(gl.GL_TEXTURE_2D, 0, 0, 0, 4, 4, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, data)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return tex


def test_draw_with_a_destroyed_texture_behind_a_bound_view_raises(screen, ctx):
    color = setup(ctx)
    _cover(screen, ctx)
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=TEX_FS)))
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(SamplerState())])
    tmpl = SamplerViewTemplate(format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D)
    tex = _texture(screen, (255, 0, 0, 255))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [ctx.create_sampler_view(tex, tmpl)])
    ctx.draw_vbo(TRI)
    screen.resource_destroy(tex)
    with pytest.raises(ObjectDestroyedError, match="slot 0"):
        ctx.draw_vbo(TRI)
    tex2 = _texture(screen, (0, 255, 0, 255))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [ctx.create_sampler_view(tex2, tmpl)])
    zero_fill(screen, color)
    ctx.draw_vbo(TRI)
    _expect(screen, color, GREEN)


def test_a_resource_destroyed_while_bound_in_another_context_raises_there(screen, ctx):
    """The screen destroys a resource a second context has bound: that
    context's next draw (on its fast path) raises too."""
    other = screen.context_create()
    try:
        color = setup(other)
        vb = _cover(screen, other)
        other.draw_vbo(TRI)
        screen.resource_destroy(vb)
        with pytest.raises(ObjectDestroyedError):
            other.draw_vbo(TRI)
        _cover(screen, other, GREEN)
        zero_fill(screen, color)
        other.draw_vbo(TRI)
        _expect(screen, color, GREEN)
    finally:
        other.destroy()


# -- destroy methods check what they are given -------------------------------


def test_surface_destroy_refuses_what_is_not_a_surface(screen, ctx):
    """surface_destroy(ctx) used to destroy the context without cleanup and
    surface_destroy(blend_cso) to kill the CSO; surface_destroy(None) was an
    AttributeError.  Now each raises InvalidArgumentError and changes nothing."""
    color = setup(ctx)
    _cover(screen, ctx)
    blend = ctx.create_blend_state(BlendState())
    view = ctx.create_sampler_view(color, SamplerViewTemplate(format=color.format, target=Target.TEXTURE_2D))
    for bogus in (ctx, blend, view, color, None, 3):
        with pytest.raises(InvalidArgumentError, match="surface_destroy: surface must be a Surface"):
            ctx.surface_destroy(bogus)
    assert not ctx.destroyed and not blend.destroyed and not view.destroyed and not color.destroyed
    ctx.bind_blend_state(blend)
    ctx.draw_vbo(TRI)
    _expect(screen, color, RED)


def test_a_context_cannot_destroy_another_contexts_surface(screen, ctx):
    color = setup(ctx)
    _cover(screen, ctx)
    surf = ctx.framebuffer_part.framebuffer.cbufs[0]
    other = screen.context_create()
    try:
        with pytest.raises(InvalidArgumentError, match="another context"):
            other.surface_destroy(surf)
    finally:
        other.destroy()
    assert not surf.destroyed
    ctx.draw_vbo(TRI)
    _expect(screen, color, RED)


def test_surface_destroy_twice_raises(screen, ctx):
    color = setup(ctx)
    surf = ctx.create_surface(color, SurfaceTemplate(format=color.format))
    ctx.surface_destroy(surf)
    with pytest.raises(ObjectDestroyedError):
        ctx.surface_destroy(surf)


def _csos(ctx):
    """One live object of every context-owned kind, with its delete method."""
    res = ctx.screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=4, height0=4, bind=Bind.SAMPLER_VIEW
        )
    )
    return {
        "blend": (ctx.create_blend_state(BlendState()), ctx.delete_blend_state),
        "dsa": (ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState()), ctx.delete_depth_stencil_alpha_state),
        "rasterizer": (ctx.create_rasterizer_state(RasterizerState()), ctx.delete_rasterizer_state),
        "sampler": (ctx.create_sampler_state(SamplerState()), ctx.delete_sampler_state),
        "velems": (ctx.create_vertex_elements_state(list(POS_COLOR)), ctx.delete_vertex_elements_state),
        "vs": (ctx.create_vs_state(ShaderState(tokens=PASS_VS)), ctx.delete_vs_state),
        "fs": (ctx.create_fs_state(ShaderState(tokens=FLAT_FS)), ctx.delete_fs_state),
        "view": (
            ctx.create_sampler_view(res, SamplerViewTemplate(format=res.format, target=Target.TEXTURE_2D)),
            ctx.sampler_view_destroy,
        ),
        "surface": (ctx.create_surface(res, SurfaceTemplate(format=res.format)), ctx.surface_destroy),
    }


def test_every_destroy_method_checks_the_kind_and_owner(screen, ctx):
    """Each delete/destroy method given another kind of object, or the same
    kind from another context, raises InvalidArgumentError and destroys nothing."""
    mine = _csos(ctx)
    other = screen.context_create()
    try:
        theirs = _csos(other)
        for kind, (_obj, delete) in mine.items():
            for other_kind, (obj, _d) in mine.items():
                if other_kind == kind:
                    continue
                with pytest.raises(InvalidArgumentError):
                    delete(obj)
            with pytest.raises(InvalidArgumentError, match="another context"):
                delete(theirs[kind][0])
        assert not any(obj.destroyed for obj, _ in list(mine.values()) + list(theirs.values()))
        for _kind, (obj, delete) in mine.items():
            delete(obj)
            assert obj.destroyed
            with pytest.raises(ObjectDestroyedError):
                delete(obj)
    finally:
        other.destroy()


def test_another_contexts_objects_are_refused_at_bind(screen, ctx):
    other = screen.context_create()
    try:
        theirs = _csos(other)
        binds = {
            "blend": ctx.bind_blend_state,
            "dsa": ctx.bind_depth_stencil_alpha_state,
            "rasterizer": ctx.bind_rasterizer_state,
            "sampler": lambda s: ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [s]),
            "velems": ctx.bind_vertex_elements_state,
            "vs": ctx.bind_vs_state,
            "fs": ctx.bind_fs_state,
            "view": lambda v: ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [v]),
            "surface": lambda s: ctx.set_framebuffer_state(FramebufferState(width=4, height=4, cbufs=(s,))),
        }
        for kind, bind in binds.items():
            with pytest.raises(InvalidArgumentError, match="another context"):
                bind(theirs[kind][0])
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.clear_render_target(theirs["surface"][0], (0, 0, 0, 0), 0, 0, 4, 4, False)
        surf = theirs["surface"][0]
        other.surface_destroy(surf)
        with pytest.raises(ObjectDestroyedError):
            other.clear_render_target(surf, (0, 0, 0, 0), 0, 0, 4, 4, False)
    finally:
        other.destroy()


# -- a destroyed context ------------------------------------------------------


def _public_methods(ctx):
    from glpipe.context import PARTS

    names = {m for area in PARTS for m in area.methods} | {"draw_vbo", "set_patch_vertices"}
    return sorted(names)


def test_every_method_of_a_destroyed_context_raises(screen):
    """After ctx.destroy() every pipe_context method raises ObjectDestroyedError
    naming itself -- before looking at its arguments (bind_*(None),
    delete_*, surface_destroy used to pass silently)."""
    ctx = screen.context_create()
    objs = _csos(ctx)
    ctx.destroy()
    assert ctx.destroyed
    for name in _public_methods(ctx):
        with pytest.raises(ObjectDestroyedError, match=name):
            getattr(ctx, name)(None)
    for _kind, (obj, delete) in objs.items():
        with pytest.raises(ObjectDestroyedError):
            delete(obj)
    with pytest.raises(ObjectDestroyedError):
        ctx.bind_blend_state(None)
    ctx.destroy()  # destroying twice is a no-op (Python's close() convention)
    assert ctx.destroyed


def test_a_destroyed_contexts_objects_are_destroyed(screen):
    ctx = screen.context_create()
    objs = _csos(ctx)
    ctx.destroy()
    for kind, (obj, _delete) in objs.items():
        assert obj.destroyed, kind


# -- a destroyed screen ------------------------------------------------------


def test_a_destroyed_screens_objects_raise(profile):
    """After screen.destroy(): res.gl_object used to return a stale GL name;
    now it, every screen method and every method of its contexts raise."""
    scr = glpipe.create_screen(profile=profile)
    try:
        res = scr.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=64, bind=Bind.VERTEX_BUFFER)
        )
        assert res.gl_object > 0
        c = scr.context_create()
        fence = c.flush()
    finally:
        scr.destroy()
    with pytest.raises(ObjectDestroyedError, match="screen"):
        res.gl_object  # noqa: B018 (the property is the call under test)
    assert res.destroyed
    with pytest.raises(ObjectDestroyedError):
        c.flush()
    assert c.destroyed
    calls = {
        "resource_create": lambda: scr.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=64, bind=Bind.VERTEX_BUFFER)
        ),
        "resource_destroy": lambda: scr.resource_destroy(res),
        "resource_changed": lambda: scr.resource_changed(res),
        "context_create": scr.context_create,
        "fence_finish": lambda: scr.fence_finish(None, fence, 0),
        "get_timestamp": scr.get_timestamp,
        "get_param": lambda: scr.get_param(glpipe.Cap.NPOT_TEXTURES),
        "is_format_supported": lambda: scr.is_format_supported(
            Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 0, 0, Bind.SAMPLER_VIEW
        ),
    }
    for name, call in calls.items():
        with pytest.raises(ObjectDestroyedError, match="screen"):
            call()
        del name
    scr.destroy()  # twice: a no-op


def test_transfers_and_fences_belong_to_their_owner(screen, ctx):
    """A transfer is its context's (another context cannot unmap it; after
    the context is destroyed unmapping raises ObjectDestroyedError, not
    "already unmapped"); a fence is its screen's."""
    from glpipe import Box, Map

    buf = vertex_buffer(screen, np.zeros(16, np.float32))
    other = screen.context_create()
    try:
        t = ctx.transfer_map(buf, 0, Map.WRITE, Box(x=0, width=16))
        with pytest.raises(InvalidArgumentError, match="another context"):
            other.transfer_unmap(t)
        assert t.data is not None
        ctx.transfer_unmap(t)
        t2 = other.transfer_map(buf, 0, Map.READ, Box(x=0, width=16))
    finally:
        other.destroy()
    with pytest.raises(ObjectDestroyedError, match="transfer_unmap"):
        other.transfer_unmap(t2)
    scr2 = glpipe.create_screen(profile=screen.profile.name)
    try:
        c2 = scr2.context_create()
        fence = c2.flush()
        with pytest.raises(InvalidArgumentError, match="another screen"):
            screen.fence_finish(None, fence, 0)
    finally:
        scr2.destroy()
        screen.host.make_current()
