"""draw_vbo's fast path and its general path agree (GLPIPE_DEBUG=nofast).

Each scene below is a small Gallium program that switches the state the
fast path caches -- blend, depth/stencil/alpha, rasterizer, fragment
shader, vertex elements and buffers, sampler views, constant buffers,
framebuffers, several contexts on one screen, state set between draws,
redundant binds, objects destroyed and made again -- and reads its render
targets back (raw GL) along the way.  It runs twice per profile, on two
screens of the same profile: one normal (``debug=""``, whatever
$GLPIPE_DEBUG says), one with ``debug="nofast"`` (glpipe/debug.py
NOFAST_METHODS / NOFAST_DROPS: every draw through the general path, every
cache, memo and host-state shadow dropped first, PyOpenGL entry points).
The pixels must be identical and so must the host GL state the draws leave
(tests/context/util_fastpath.py ``gl_state``).  Both screens start from GL's
defaults and run the same scenes in the same order, so the state a scene
leaves behind is the same on both as long as the paths agree.

The expectation is the other path's result, so every scene also checks
that it drew something (not the clear colour everywhere) and that the fast
screen really took the fast path for some draws while the nofast one took
the general path for all of them.
"""

from __future__ import annotations

import numpy as np
import pytest

import glpipe
from glpipe import (
    Bind,
    Blend,
    BlendFactor,
    BlendState,
    Clear,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Face,
    Format,
    Func,
    Mask,
    Prim,
    RasterizerState,
    ResourceTemplate,
    RTBlendState,
    SamplerViewTemplate,
    ScissorState,
    ShaderState,
    ShaderType,
    StencilOp,
    StencilRef,
    StencilState,
    Swizzle,
    Target,
    VertexBuffer,
    VertexElement,
)

from .util import COLOR_FS, PASS_VS, vertex_buffer
from .util_blend_dsa import bind_targets, read, texture
from .util_fastpath import gl_state
from .util_sampling import nearest, tex_fs, texel_grid, upload

W = H = 8
F4 = Format.R32G32B32A32_FLOAT
RT = Bind.RENDER_TARGET | Bind.SAMPLER_VIEW

# -- screens -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def _screens():
    made: dict = {}
    yield made
    for pair in made.values():
        for scr in pair:
            scr.destroy()


@pytest.fixture
def pair(profile, _screens):
    """(normal screen, nofast screen) on ``profile``, made once per module."""
    if profile not in _screens:
        _screens[profile] = (
            glpipe.create_screen(profile=profile, debug=""),
            glpipe.create_screen(profile=profile, debug="nofast"),
        )
    return _screens[profile]


class _Run:
    """One scene on one screen: its readbacks, the GL state after it, and
    how many draws took the general path."""

    def __init__(self, screen, scene):
        self.screen = screen
        self.draws = self.general = 0
        self.contexts = []
        screen.host.make_current()
        try:
            ctx = self.new_context()
            self.images = [np.array(img) for img in scene(screen, ctx, self.new_context)]
            screen.host.make_current()
            self.state = gl_state(screen.host, max_rts=2)
        finally:
            for c in self.contexts:
                c.destroy()

    def new_context(self):
        """A context of the screen (its debug flags) whose draws are counted."""
        ctx = self.screen.context_create()
        general, draw = ctx._draw_general, ctx.draw_vbo

        def counted_general(*args):
            self.general += 1
            return general(*args)

        def counted_draw(*args, **kw):
            self.draws += 1
            return draw(*args, **kw)

        ctx._draw_general = counted_general
        ctx.draw_vbo = counted_draw
        self.contexts.append(ctx)
        return ctx


def _agree(pair, scene, fast_draws_expected=True):
    fast_screen, general_screen = pair
    fast = _Run(fast_screen, scene)
    general = _Run(general_screen, scene)
    assert general.draws and general.general == general.draws, "nofast: every draw takes the general path"
    if fast_draws_expected:
        assert fast.general < fast.draws, "the normal screen never took the fast path"
    assert len(fast.images) == len(general.images)
    for i, (a, b) in enumerate(zip(fast.images, general.images, strict=True)):
        assert a.shape == b.shape
        diff = np.argwhere(a != b)
        assert diff.size == 0, (
            f"readback {i}: fast and general paths differ at {len(diff)} values, first "
            f"{tuple(diff[0])}: fast {a[tuple(diff[0])]} general {b[tuple(diff[0])]}"
        )
    assert any(np.any(img != 0) for img in fast.images), "the scene drew nothing"
    differ = {k: (fast.state[k], general.state[k]) for k in fast.state if fast.state[k] != general.state[k]}
    assert not differ, f"GL state after the scene differs (fast, general): {differ}"
    return fast


# -- scene helpers ---------------------------------------------------------------------


def _rect(x0, y0, x1, y1, color, z=0.0, ccw=True):
    """Two triangles over window pixels [x0, x1) x [y0, y1) (8 floats a vertex)."""
    X0, X1 = -1 + 2 * x0 / W, -1 + 2 * x1 / W
    Y0, Y1 = -1 + 2 * y0 / H, -1 + 2 * y1 / H
    a, b, c, d = (X0, Y0), (X1, Y0), (X1, Y1), (X0, Y1)
    tris = (a, b, c, a, c, d) if ccw else (a, c, b, a, d, c)
    return [[x, y, z, 1.0, *color] for x, y in tris]


def _vb(screen, rects):
    return vertex_buffer(screen, np.array([v for r in rects for v in r], np.float32))


def _elements(ctx, color_offset=16):
    return ctx.create_vertex_elements_state(
        [
            VertexElement(src_offset=0, vertex_buffer_index=0, src_format=F4),
            VertexElement(src_offset=color_offset, vertex_buffer_index=0, src_format=F4),
        ]
    )


def _pipeline(ctx, fs_text=COLOR_FS):
    vs = ctx.create_vs_state(ShaderState(tokens=PASS_VS))
    fs = ctx.create_fs_state(ShaderState(tokens=fs_text))
    ve = _elements(ctx)
    ctx.bind_vs_state(vs)
    ctx.bind_fs_state(fs)
    ctx.bind_vertex_elements_state(ve)
    return vs, fs, ve


def _target(screen, ctx, fmt=F4, zs=None):
    color = texture(screen, fmt, W, H, RT)
    zsres = texture(screen, zs, W, H, Bind.DEPTH_STENCIL) if zs is not None else None
    bind_targets(ctx, W, H, (color,), zsres)
    return color, zsres


_INFOS: dict = {}


def _info(mode, start, count, **kw) -> DrawInfo:
    """One DrawInfo per draw shape, reused as a frontend reuses its
    pipe_draw_info (draw_vbo memoizes the fast path's GL arguments on it)."""
    key = (mode, start, count, tuple(sorted(kw.items())))
    info = _INFOS.get(key)
    if info is None:
        info = _INFOS[key] = DrawInfo(mode=mode, start=start, count=count, **kw)
    return info


def _tris(ctx, first_rect, n_rects=1):
    ctx.draw_vbo(_info(Prim.TRIANGLES, 6 * first_rect, 6 * n_rects))


def _rgba(screen, res):
    return read(screen, res, "rgba32f")


def _blend(ctx, **rt):
    return ctx.create_blend_state(BlendState(rt=[RTBlendState(**rt)]))


# Rectangles shared by several scenes: overlapping, distinct colours, both windings.
RECTS = [
    _rect(0, 0, 6, 6, (0.25, 0.5, 0.75, 0.5), z=0.2),
    _rect(2, 2, 8, 8, (0.5, 0.25, 0.125, 0.75), z=-0.2),
    _rect(1, 3, 7, 5, (1.0, 0.0, 0.5, 0.25), z=0.0, ccw=False),
    _rect(3, 0, 5, 8, (0.0, 1.0, 0.25, 1.0), z=0.5),
    _rect(0, 6, 8, 8, (0.75, 0.75, 0.0, 0.5), z=-0.5, ccw=False),
]


# -- scenes ----------------------------------------------------------------------------


def scene_blend(screen, ctx, new_context):
    color, _ = _target(screen, ctx)
    _pipeline(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=_vb(screen, RECTS), stride=32)])
    ctx.clear(Clear.COLOR, None, (0.1, 0.2, 0.3, 0.4), 0.0, 0)
    add = _blend(
        ctx,
        blend_enable=True,
        rgb_src_factor=BlendFactor.ONE,
        rgb_dst_factor=BlendFactor.ONE,
        alpha_src_factor=BlendFactor.ONE,
        alpha_dst_factor=BlendFactor.ONE,
    )
    over = _blend(
        ctx,
        blend_enable=True,
        rgb_src_factor=BlendFactor.SRC_ALPHA,
        rgb_dst_factor=BlendFactor.INV_SRC_ALPHA,
        alpha_src_factor=BlendFactor.ONE,
        alpha_dst_factor=BlendFactor.ZERO,
    )
    red_only = _blend(ctx, colormask=Mask.R | Mask.A)
    minmax = _blend(ctx, blend_enable=True, rgb_func=Blend.MIN, alpha_func=Blend.MAX)
    const = _blend(
        ctx,
        blend_enable=True,
        rgb_src_factor=BlendFactor.CONST_COLOR,
        rgb_dst_factor=BlendFactor.INV_CONST_COLOR,
        alpha_src_factor=BlendFactor.CONST_ALPHA,
        alpha_dst_factor=BlendFactor.ZERO,
    )
    out = []
    for i, cso in enumerate((None, add, over, red_only, minmax)):
        ctx.bind_blend_state(cso)
        _tris(ctx, i)
        _tris(ctx, i)  # the same state again: no switch at all
    out.append(_rgba(screen, color))
    ctx.bind_blend_state(add)
    ctx.bind_blend_state(add)  # redundant
    ctx.bind_blend_state(over)  # set between draws, then back
    ctx.bind_blend_state(add)
    _tris(ctx, 0)
    ctx.set_blend_color((0.25, 0.5, 0.75, 1.0))
    ctx.bind_blend_state(const)
    _tris(ctx, 1)
    ctx.set_blend_color((0.5, 0.5, 0.5, 0.5))
    _tris(ctx, 2)
    ctx.clear(Clear.COLOR, ScissorState(minx=0, miny=0, maxx=4, maxy=4), (1.0, 0.0, 0.0, 1.0), 0.0, 0)
    _tris(ctx, 3)  # after a clear opened the colour mask
    ctx.bind_blend_state(red_only)
    ctx.clear(Clear.COLOR, ScissorState(minx=4, miny=4, maxx=8, maxy=8), (0.0, 0.0, 1.0, 1.0), 0.0, 0)
    _tris(ctx, 4)
    out.append(_rgba(screen, color))
    return out


def _dsa(ctx, depth=None, front=None, back=None):
    d = {} if depth is None else {"depth_enabled": True, "depth_func": depth[0], "depth_writemask": depth[1]}
    stencil = [front or StencilState(), back or StencilState()]
    return ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(stencil=stencil, **d))


def scene_depth_stencil(screen, ctx, new_context):
    color, zs = _target(screen, ctx, zs=Format.Z24_UNORM_S8_UINT)
    _pipeline(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=_vb(screen, RECTS), stride=32)])
    ctx.clear(Clear.COLOR | Clear.DEPTHSTENCIL, None, (0.0, 0.0, 0.0, 1.0), 1.0, 0)
    less = _dsa(ctx, depth=(Func.LESS, True))
    greater_ro = _dsa(ctx, depth=(Func.GREATER, False))
    replace = _dsa(
        ctx,
        front=StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.REPLACE, valuemask=0xFF, writemask=0xFF),
    )
    equal = _dsa(
        ctx,
        depth=(Func.ALWAYS, False),
        front=StencilState(enabled=True, func=Func.EQUAL, valuemask=0xFF, writemask=0),
        back=StencilState(enabled=True, func=Func.NOTEQUAL, zpass_op=StencilOp.INCR, valuemask=0x0F, writemask=0xFF),
    )
    out = []
    for i, cso in enumerate((less, greater_ro, less, None, less)):
        ctx.bind_depth_stencil_alpha_state(cso)
        _tris(ctx, i)
    out += [_rgba(screen, color), read(screen, zs, "depth24s8")]
    ctx.bind_depth_stencil_alpha_state(replace)
    for ref, rect in ((3, 0), (7, 1), (7, 1), (5, 3)):
        ctx.set_stencil_ref(StencilRef(ref_value=(ref, ref + 1)))
        _tris(ctx, rect)
    ctx.bind_depth_stencil_alpha_state(equal)
    ctx.set_stencil_ref(StencilRef(ref_value=(7, 2)))
    _tris(ctx, 2)
    _tris(ctx, 4)
    ctx.clear(Clear.DEPTH, ScissorState(minx=0, miny=0, maxx=8, maxy=4), None, 0.25, 0)
    ctx.bind_depth_stencil_alpha_state(less)
    ctx.bind_depth_stencil_alpha_state(equal)  # set between draws, then back
    ctx.bind_depth_stencil_alpha_state(less)
    _tris(ctx, 1)
    out += [_rgba(screen, color), read(screen, zs, "depth24s8")]
    return out


def _rast(ctx, **fields):
    return ctx.create_rasterizer_state(RasterizerState(**fields))


def scene_rasterizer(screen, ctx, new_context):
    color, zs = _target(screen, ctx, zs=Format.Z24_UNORM_S8_UINT)
    _pipeline(ctx)
    vb = _vb(screen, RECTS)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    ctx.clear(Clear.COLOR | Clear.DEPTH, None, (0.0, 0.0, 0.0, 0.0), 1.0, 0)
    ctx.set_scissor_states(0, [ScissorState(minx=1, miny=1, maxx=7, maxy=6)])
    states = [
        _rast(ctx),
        _rast(ctx, cull_face=Face.BACK, front_ccw=True),
        _rast(ctx, cull_face=Face.BACK, front_ccw=False),
        _rast(ctx, cull_face=Face.FRONT, scissor=True),
        _rast(ctx, flatshade=True, flatshade_first=True),
        _rast(ctx, flatshade=True, scissor=True, offset_tri=True, offset_units=2.0, offset_scale=1.0),
        _rast(ctx, cull_face=Face.FRONT_AND_BACK),
    ]
    dsa = _dsa(ctx, depth=(Func.LEQUAL, True))
    out = []
    for _rep in range(2):
        for i, cso in enumerate(states):
            ctx.bind_rasterizer_state(cso)
            if i == 5:
                ctx.bind_depth_stencil_alpha_state(dsa)
            _tris(ctx, i % len(RECTS))
        out.append(_rgba(screen, color))
        ctx.set_scissor_states(0, [ScissorState(minx=0, miny=2, maxx=5, maxy=8)])
        ctx.clear(Clear.COLOR, ScissorState(minx=0, miny=0, maxx=2, maxy=8), (0.0, 0.0, 1.0, 1.0), 0.0, 0)
    # Points and lines with sizes and widths, after triangles.
    ctx.bind_rasterizer_state(_rast(ctx, point_size=3.0))
    ctx.draw_vbo(_info(Prim.POINTS, 0, 6))
    ctx.bind_rasterizer_state(_rast(ctx, line_width=1.0, flatshade=True))
    ctx.draw_vbo(_info(Prim.LINE_STRIP, 6, 6))
    ctx.bind_rasterizer_state(None)
    _tris(ctx, 3)
    out.append(_rgba(screen, color))
    return out


HALF_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
IMM[0] FLT32 {0.5, 0.25, 2.0, 1.0}
  0: MUL OUT[0], IN[0], IMM[0]
  1: END
"""


def scene_shaders_and_vertex_input(screen, ctx, new_context):
    color, _ = _target(screen, ctx)
    vs, fs, ve16 = _pipeline(ctx)
    half = ctx.create_fs_state(ShaderState(tokens=HALF_FS))
    ve32 = ctx.create_vertex_elements_state(
        [
            VertexElement(src_offset=0, vertex_buffer_index=0, src_format=F4),
            VertexElement(src_offset=32, vertex_buffer_index=0, src_format=F4),
        ]
    )
    # (position, colour A, colour B): 48-byte vertices.
    rows = [v + [c * 0.5 for c in v[4:8]] for r in RECTS for v in r]
    wide = vertex_buffer(screen, np.array(rows, np.float32))
    narrow = _vb(screen, RECTS)
    ctx.clear(Clear.COLOR, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    ctx.set_vertex_buffers([VertexBuffer(buffer=wide, stride=48)])
    out = []
    for i, (f, v) in enumerate(((fs, ve16), (half, ve16), (half, ve32), (fs, ve32), (fs, ve16))):
        ctx.bind_fs_state(f)
        ctx.bind_vertex_elements_state(v)
        _tris(ctx, i)
    out.append(_rgba(screen, color))
    ctx.bind_vertex_elements_state(ve16)
    for buffers in (
        [VertexBuffer(buffer=narrow, stride=32)],
        [VertexBuffer(buffer=wide, stride=48)],
        [VertexBuffer(buffer=narrow, stride=32, buffer_offset=6 * 32)],
        [VertexBuffer(buffer=np.array(RECTS[4], np.float32), stride=32)],  # user memory
        [VertexBuffer(buffer=narrow, stride=32)],
    ):
        ctx.set_vertex_buffers(buffers)
        ctx.bind_vs_state(vs)  # redundant
        _tris(ctx, 0)
        ctx.bind_fs_state(half if ctx.shader_part.shaders[ShaderType.FRAGMENT] is fs else fs)
    # Indexed draws: a resource index buffer drawn twice, user indices, restart on and off.
    idx = np.array([0, 1, 2, 0xFFFF, 6, 7, 8, 12, 13, 14], np.uint16)
    ib = vertex_buffer(screen, idx, bind=Bind.INDEX_BUFFER)
    strip = DrawInfo(
        mode=Prim.TRIANGLE_STRIP, index_size=2, index=ib, start=0, count=7, primitive_restart=True, restart_index=0xFFFF
    )
    tris = DrawInfo(mode=Prim.TRIANGLES, index_size=2, index=ib, start=4, count=6)
    ctx.draw_vbo(strip)
    ctx.draw_vbo(tris)
    ctx.draw_vbo(tris)
    _tris(ctx, 3)  # non-indexed after restart was left on
    ctx.draw_vbo(
        DrawInfo(
            mode=Prim.TRIANGLES,
            index_size=1,
            index=np.array([18, 19, 20], np.uint8),
            has_user_indices=True,
            start=0,
            count=3,
        )
    )
    ctx.draw_vbo(_info(Prim.QUADS, 24, 4))  # index translation
    out.append(_rgba(screen, color))
    return out


def scene_instancing(screen, ctx, new_context):
    color, _ = _target(screen, ctx)
    vs, fs, _ = _pipeline(ctx)
    pos = np.array([v[:4] for v in RECTS[0]], np.float32)
    colors = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]], np.float32)
    ve = ctx.create_vertex_elements_state(
        [
            VertexElement(src_offset=0, vertex_buffer_index=0, src_format=F4),
            VertexElement(src_offset=0, vertex_buffer_index=1, src_format=F4, instance_divisor=1),
        ]
    )
    ctx.bind_vertex_elements_state(ve)
    ctx.set_vertex_buffers(
        [
            VertexBuffer(buffer=vertex_buffer(screen, pos), stride=16),
            VertexBuffer(buffer=vertex_buffer(screen, colors), stride=16),
        ]
    )
    ctx.clear(Clear.COLOR, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    out = []
    for start_instance in (0, 2, 1, 0):
        ctx.draw_vbo(_info(Prim.TRIANGLES, 0, 3, instance_count=1, start_instance=start_instance))
        ctx.draw_vbo(_info(Prim.TRIANGLES, 3, 3))
        out.append(_rgba(screen, color))
    return out


def scene_sampler_views(screen, ctx, new_context):
    color, _ = _target(screen, ctx)
    vs, _, ve = _pipeline(ctx, tex_fs())
    t1 = texture(screen, F4, 4, 4, Bind.SAMPLER_VIEW)
    t2 = texture(screen, F4, 4, 4, Bind.SAMPLER_VIEW)
    upload(screen, t1, 0, texel_grid(4, 4, scale=0.125))
    upload(screen, t2, 0, texel_grid(4, 4, scale=0.0625)[::-1].copy())
    v1 = ctx.create_sampler_view(t1, SamplerViewTemplate(format=F4, target=Target.TEXTURE_2D))
    v2 = ctx.create_sampler_view(t2, SamplerViewTemplate(format=F4, target=Target.TEXTURE_2D))
    v1_swz = ctx.create_sampler_view(
        t1,
        SamplerViewTemplate(
            format=F4,
            target=Target.TEXTURE_2D,
            swizzle_r=Swizzle.Z,
            swizzle_g=Swizzle.ONE,
            swizzle_b=Swizzle.X,
            swizzle_a=Swizzle.ZERO,
        ),
    )
    s_clamp = ctx.create_sampler_state(nearest())
    s_repeat = ctx.create_sampler_state(nearest(wrap_s=glpipe.TexWrap.REPEAT, wrap_t=glpipe.TexWrap.REPEAT))
    # Texture coordinates in the colour slot: 0..1.5 across the target.
    verts = []
    for r in RECTS:
        for v in r:
            verts.append(v[:4] + [0.75 * (v[0] + 1), 0.75 * (v[1] + 1), 0.0, 1.0])
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, np.array(verts, np.float32)), stride=32)])
    ctx.clear(Clear.COLOR, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [s_clamp])
    out = []
    sequence = (
        (v1, s_clamp),
        (v2, s_clamp),
        (v1_swz, s_repeat),
        (v1, s_repeat),
        (v1_swz, s_clamp),
        (v2, s_repeat),
        (v1, s_clamp),
    )
    for i, (view, samp) in enumerate(sequence):
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])  # redundant
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [samp])
        _tris(ctx, i % len(RECTS))
        if i == 3:
            out.append(_rgba(screen, color))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [v2, v1], unbind_num_trailing_slots=2)
    _tris(ctx, 1)
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, None, unbind_num_trailing_slots=1)  # an empty slot
    _tris(ctx, 3)
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, (v1_swz,))
    _tris(ctx, 4)
    out.append(_rgba(screen, color))
    return out


CB_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..1]
DCL TEMP[0]
  0: MUL TEMP[0], IN[0], CONST[0][1]
  1: ADD OUT[0], TEMP[0], CONST[0][0]
  2: END
"""


def scene_constant_buffers(screen, ctx, new_context):
    color, _ = _target(screen, ctx)
    _pipeline(ctx, CB_FS)
    ctx.set_vertex_buffers([VertexBuffer(buffer=_vb(screen, RECTS), stride=32)])
    align = max(int(screen.profile.limit("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT")), 16)
    data = np.zeros((align // 4) * 2 + 8, np.float32)
    data[0:8] = [0.125, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]
    data[align // 4 : align // 4 + 8] = [0.0, 0.25, 0.0, 0.5, 0.5, 2.0, 0.5, 1.0]
    res = vertex_buffer(screen, data, bind=Bind.CONSTANT_BUFFER)
    ctx.clear(Clear.COLOR, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    a = ConstantBuffer(buffer=res, buffer_offset=0, buffer_size=32)
    b = ConstantBuffer(buffer=res, buffer_offset=align, buffer_size=32)
    user = ConstantBuffer(user_buffer=np.array([0.0, 0.0, 0.5, 0.0, 0.25, 0.25, 1.0, 1.0], np.float32))
    for i, cb in enumerate((a, b, user, None, a, a, user)):
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, cb)
        _tris(ctx, i % len(RECTS))
    return [_rgba(screen, color)]


ALL_CBUFS_FS = COLOR_FS.replace("FRAG\n", "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n", 1)


def scene_framebuffers(screen, ctx, new_context):
    _pipeline(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=_vb(screen, RECTS), stride=32)])
    a = texture(screen, F4, W, H, RT)
    b = texture(screen, Format.R8G8B8A8_UNORM, W, H, RT)
    x = texture(screen, Format.B5G6R5_UNORM, W, H, RT)
    zs = texture(screen, Format.Z24_UNORM_S8_UINT, W, H, Bind.DEPTH_STENCIL)
    # DST_ALPHA reads 1 on a format without alpha (blend fixups depend on the formats).
    dst_alpha = _blend(
        ctx,
        blend_enable=True,
        rgb_src_factor=BlendFactor.DST_ALPHA,
        rgb_dst_factor=BlendFactor.INV_DST_ALPHA,
        alpha_src_factor=BlendFactor.ONE,
        alpha_dst_factor=BlendFactor.ZERO,
    )
    ctx.bind_blend_state(dst_alpha)
    ctx.bind_depth_stencil_alpha_state(_dsa(ctx, depth=(Func.LESS, True)))
    for target in (a, b, x):
        bind_targets(ctx, W, H, (target,), zs)
        ctx.clear(Clear.COLOR | Clear.DEPTH, None, (0.5, 0.25, 0.0, 0.5), 1.0, 0)
    surfaces = {}
    for i, target in enumerate((a, b, x, a, x, b, a)):
        if target not in surfaces:
            surfaces[target] = bind_targets(ctx, W, H, (target,), zs if i % 2 else None)
        else:
            cbufs, zsurf = surfaces[target]
            ctx.set_framebuffer_state(glpipe.FramebufferState(width=W, height=H, cbufs=cbufs, zsbuf=zsurf))
        _tris(ctx, i % len(RECTS))
    # Two colour buffers at once (COLOR[0] written to both: without the
    # property cbuf 1 would be undefined), then one again.
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=ALL_CBUFS_FS)))
    bind_targets(ctx, W, H, (a, b))
    _tris(ctx, 2)
    bind_targets(ctx, W, H, (x,))
    _tris(ctx, 3)
    return [_rgba(screen, a), read(screen, b, "rgba8"), read(screen, x, "rgba8")]


def scene_two_contexts(screen, ctx, new_context):
    other = new_context()
    ca, _ = _target(screen, ctx)
    cb, _ = _target(screen, other)
    _pipeline(ctx)
    _pipeline(other, HALF_FS)
    vb = _vb(screen, RECTS)
    for c in (ctx, other):
        c.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
        c.clear(Clear.COLOR, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    add = _blend(ctx, blend_enable=True, rgb_src_factor=BlendFactor.ONE, rgb_dst_factor=BlendFactor.ONE)
    cull = _rast(other, cull_face=Face.BACK, front_ccw=True)
    ctx.bind_blend_state(add)
    other.bind_rasterizer_state(cull)
    for i in range(5):
        _tris(ctx, i)
        _tris(ctx, (i + 1) % 5)  # the fast path again (same context)
        _tris(other, i)
        if i == 2:
            other.clear(Clear.COLOR, ScissorState(minx=0, miny=0, maxx=3, maxy=3), (0.0, 1.0, 0.0, 1.0), 0.0, 0)
            ctx.bind_blend_state(None)
            other.bind_rasterizer_state(None)
    return [_rgba(screen, ca), _rgba(screen, cb)]


def scene_destroy_and_recreate(screen, ctx, new_context):
    color, _ = _target(screen, ctx)
    vs, fs, ve = _pipeline(ctx)
    ctx.clear(Clear.COLOR, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
    vb = _vb(screen, RECTS)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    add = _blend(ctx, blend_enable=True, rgb_src_factor=BlendFactor.ONE, rgb_dst_factor=BlendFactor.ONE)
    ctx.bind_blend_state(add)
    _tris(ctx, 0)
    out = [_rgba(screen, color)]
    # The bound buffer destroyed: the next draw refuses it (no stale VAO), then
    # a new buffer with other data where the old one was (its GL name may be reused).
    _tris(ctx, 1)
    screen.resource_destroy(vb)
    with pytest.raises(glpipe.ObjectDestroyedError):
        _tris(ctx, 1)
    ctx.set_vertex_buffers([])
    vb2 = _vb(screen, RECTS[::-1])
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb2, stride=32)])
    _tris(ctx, 0)
    # Equal state objects made again after the old ones were deleted.
    ctx.delete_blend_state(add)
    ctx.bind_blend_state(_blend(ctx, blend_enable=True, rgb_src_factor=BlendFactor.ONE, rgb_dst_factor=BlendFactor.ONE))
    ctx.bind_vertex_elements_state(None)
    ctx.delete_vertex_elements_state(ve)
    ctx.bind_vertex_elements_state(_elements(ctx))
    ctx.bind_fs_state(None)
    ctx.delete_fs_state(fs)
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=HALF_FS)))
    _tris(ctx, 1)
    out.append(_rgba(screen, color))
    # A new render target where the old one was.
    ctx.set_framebuffer_state(glpipe.FramebufferState(width=W, height=H))
    screen.resource_destroy(color)
    color2, _ = _target(screen, ctx)
    ctx.clear(Clear.COLOR, None, (0.0, 0.0, 0.25, 0.0), 0.0, 0)
    _tris(ctx, 2)
    _tris(ctx, 3)
    out.append(_rgba(screen, color2))
    return out


SCENES = [
    scene_blend,
    scene_depth_stencil,
    scene_rasterizer,
    scene_shaders_and_vertex_input,
    scene_instancing,
    scene_sampler_views,
    scene_constant_buffers,
    scene_framebuffers,
    scene_two_contexts,
    scene_destroy_and_recreate,
]


@pytest.mark.parametrize("scene", SCENES, ids=[s.__name__[6:] for s in SCENES])
def test_fast_and_general_paths_agree(pair, scene):
    """The scene's pixels and final GL state are the same with and without
    GLPIPE_DEBUG=nofast."""
    _agree(pair, scene)


# -- the switch itself -------------------------------------------------------------------


def test_debug_flags_parse_and_refuse_unknown_names():
    """GLPIPE_DEBUG syntax: comma / space separated, case-insensitive; an
    unknown name is an InvalidArgumentError naming it and the known flags."""
    from glpipe.debug import DEBUG_FLAGS, parse_debug_flags

    assert "nofast" in DEBUG_FLAGS
    assert parse_debug_flags("nofast") == {"nofast"}
    assert parse_debug_flags(" NoFast, ,") == {"nofast"}
    assert parse_debug_flags(["nofast"]) == {"nofast"}
    assert parse_debug_flags("") == frozenset() and parse_debug_flags(None) == frozenset()
    with pytest.raises(glpipe.InvalidArgumentError, match="'fastest'.*known: nofast"):
        parse_debug_flags("nofast,fastest")
    with pytest.raises(glpipe.InvalidArgumentError, match="debug flags"):
        parse_debug_flags(3)


def test_environment_is_read_at_screen_creation(monkeypatch, profile):
    """$GLPIPE_DEBUG is read once, when the screen is made; its contexts take
    the screen's flags unless context_create(debug=...) says otherwise."""
    monkeypatch.setenv("GLPIPE_DEBUG", "nofast")
    scr = glpipe.create_screen(profile=profile)
    try:
        monkeypatch.setenv("GLPIPE_DEBUG", "")  # too late: the screen read it already
        assert scr.debug_flags == {"nofast"}
        inherited, own = scr.context_create(), scr.context_create(debug="")
        assert inherited.debug_flags == {"nofast"} and own.debug_flags == frozenset()
        assert inherited.draw_vbo.__func__ is glpipe.debug.DebugPart._draw_vbo_nofast
        assert own.draw_vbo.__func__ is glpipe.Context.draw_vbo
        assert not inherited._hot.native and own._hot.native
    finally:
        scr.destroy()
    monkeypatch.setenv("GLPIPE_DEBUG", "nofast,bogus")
    with pytest.raises(glpipe.InvalidArgumentError, match="GLPIPE_DEBUG: unknown debug flag 'bogus'"):
        glpipe.create_screen(profile=profile)


def test_context_debug_argument_overrides_the_screen(pair):
    """A nofast context on a normal screen (and the reverse) draws the same
    scene as the normal one: contexts of both kinds share the host."""
    fast_screen, _ = pair

    def mixed(screen, ctx, new_context):
        general = screen.context_create(debug="nofast")
        try:
            assert "nofast" in general.debug_flags and "nofast" not in ctx.debug_flags
            return scene_two_contexts(screen, ctx, lambda: general)
        finally:
            general.destroy()

    normal = _Run(fast_screen, scene_two_contexts)
    both = _Run(fast_screen, mixed)
    for a, b in zip(normal.images, both.images, strict=True):
        np.testing.assert_array_equal(a, b)
    assert normal.state == both.state


def test_info_lists_the_debug_flags():
    """``python -m glpipe info`` reports GLPIPE_DEBUG's flags and which are on."""
    import io

    from glpipe.__main__ import _print_text, collect

    data = collect(None)
    assert set(data["debug"]["flags"]) == {"nofast", "check"}
    assert data["debug"]["env"] == "GLPIPE_DEBUG"
    out = io.StringIO()
    _print_text(data, out)
    assert "GLPIPE_DEBUG" in out.getvalue() and "nofast" in out.getvalue()


# -- a bound resource destroyed between two draws ----------------------------------------


def _bind_kind(screen, ctx, kind):
    """A pipeline whose draw reads one resource of ``kind``; returns it."""
    color, zs = _target(screen, ctx, zs=Format.Z24_UNORM_S8_UINT)
    fs_text = {"sampler_view": tex_fs(), "constant_buffer": CB_FS}.get(kind, COLOR_FS)
    _pipeline(ctx, fs_text)
    vb = _vb(screen, RECTS)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    if kind == "sampler_view":
        tex = texture(screen, F4, 4, 4, Bind.SAMPLER_VIEW)
        view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=F4, target=Target.TEXTURE_2D))
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [ctx.create_sampler_state(nearest())])
        return tex
    if kind == "constant_buffer":
        res = screen.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=64, bind=Bind.CONSTANT_BUFFER)
        )
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=res, buffer_size=32))
        return res
    return {"vertex_buffer": vb, "color_buffer": color, "zs_buffer": zs}[kind]


@pytest.mark.parametrize("debug", ["", "nofast"])
@pytest.mark.parametrize("kind", ["vertex_buffer", "sampler_view", "constant_buffer", "color_buffer", "zs_buffer"])
def test_draw_after_a_bound_resource_was_destroyed_raises(screen, kind, debug):
    """A resource destroyed while bound (vertex buffer, sampled texture,
    constant buffer, colour or depth/stencil buffer) makes the next draw
    raise ObjectDestroyedError -- on the fast path (nothing else changed since
    the last draw) as on the general one -- instead of drawing from host
    state built on the deleted GL object."""
    ctx = screen.context_create(debug=debug)
    try:
        res = _bind_kind(screen, ctx, kind)
        _tris(ctx, 0)
        _tris(ctx, 0)  # the fast path's turn (normal context)
        screen.resource_destroy(res)
        with pytest.raises(glpipe.ObjectDestroyedError, match="destroyed"):
            _tris(ctx, 0)
        with pytest.raises(glpipe.ObjectDestroyedError, match="destroyed"):
            _tris(ctx, 0)  # still refused: the failed draw did not clear the state
    finally:
        ctx.destroy()
