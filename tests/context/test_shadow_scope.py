"""The shadowed blocks (blend, DSA, rasterizer) on a host with several pipe
contexts: one record per host GL context (glpipe/host/shadow.py), and a context
drawing after another one still sends its blend and DSA blocks whole."""

from __future__ import annotations

from glpipe.host.shadow import host_shadow
from glpipe.templates import (
    BlendState,
    DepthStencilAlphaState,
    RasterizerState,
    RTBlendState,
)

from .util_blend_dsa import (
    CountingGL,
    color_target,
    forget_host_state,
    fullscreen,
    pipeline,
)


def test_every_shadowed_block_uses_the_hosts_shadow(screen, ctx):
    other = screen.context_create()
    try:
        for c in (ctx, other):
            assert c.blend_part._blend_shadow is host_shadow(screen.host, "blend")
            assert c.dsa_part._dsa_shadow is host_shadow(screen.host, "dsa")
            assert c.rasterizer_part.rast_host is host_shadow(screen.host, "rasterizer")
    finally:
        other.destroy()


def _names(calls):
    # Entry points only the blend and DSA emits call (glEnable / glDisable
    # serve every block).  B's default state does not care about A's
    # equations, factors, depth function and mask, so they are sent again
    # only when A's block goes whole.
    keep = {"glColorMask", "glBlendEquationSeparate", "glBlendFuncSeparate", "glDepthFunc", "glDepthMask"}
    return [c for c in calls if c in keep]


def test_another_contexts_draw_makes_the_blocks_go_whole(screen, ctx):
    """Context A's draw after context B drew sends what A sends over an
    unknown host (its whole blend and DSA blocks), as with one record per
    context."""
    blend = ctx.create_blend_state(BlendState(rt=[RTBlendState(blend_enable=True)]))
    dsa = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(depth_enabled=True, depth_writemask=True))
    ctx.bind_blend_state(blend)
    ctx.bind_depth_stencil_alpha_state(dsa)
    color_target(screen, ctx, 2, 2)
    pipeline(ctx)
    draw_a = fullscreen(screen, ctx, [0.5, 0.5, 0.5, 1.0])
    draw_a()
    other = screen.context_create()
    try:
        other.bind_rasterizer_state(other.create_rasterizer_state(RasterizerState(cull_face=0)))
        color_target(screen, other, 2, 2)
        pipeline(other)
        draw_b = fullscreen(screen, other, [0.25, 0.5, 0.5, 1.0])
        counting = CountingGL(ctx.gl)
        ctx.gl = counting
        try:
            forget_host_state(ctx)  # the reference: A over a host it knows nothing of
            draw_a()
            whole = _names(counting.calls)
            draw_b()
            counting.calls.clear()
            draw_a()
            after_other = _names(counting.calls)
        finally:
            ctx.gl = counting._gl
        assert whole and after_other == whole
    finally:
        other.destroy()
