"""Depth/stencil/alpha state and stencil reference values, checked on pixels.

Depth and stencil contents are written and read with raw GL on the
depth/stencil texture; the expected results come from the GL 4.5 §17.3.3 /
§17.3.4 (and Gallium) definitions of the tests and stencil operations,
written out in numpy below.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    BlendState,
    Cap,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    Func,
    Prim,
    StencilOp,
    StencilRef,
    StencilState,
    VertexBuffer,
)
from lowering.errors import InvalidArgumentError, ObjectDestroyedError, UnsupportedError

from .util import vertex_buffer
from .util_blend_dsa import (
    CountingGL,
    bind_targets,
    front_ccw_rasterizer,
    fullscreen,
    pack_d24s8,
    pipeline,
    pixel_quad,
    read,
    texture,
    upload,
)
from .util_fastpath import requires_fast_path


def delivered_caps(screen):
    """The screen's PIPE_CAP answers (the draw and shaders rows are delivered)."""
    return {cap: screen.get_param(cap) for cap in Cap}


# -- the model (GL 4.5 §17.3.3-17.3.5) --------------------------------------------------

COMPARE = {
    Func.NEVER: lambda a, b: False,
    Func.LESS: lambda a, b: a < b,
    Func.EQUAL: lambda a, b: a == b,
    Func.LEQUAL: lambda a, b: a <= b,
    Func.GREATER: lambda a, b: a > b,
    Func.NOTEQUAL: lambda a, b: a != b,
    Func.GEQUAL: lambda a, b: a >= b,
    Func.ALWAYS: lambda a, b: True,
}
STENCIL_OP = {
    StencilOp.KEEP: lambda s, ref: s,
    StencilOp.ZERO: lambda s, ref: 0,
    StencilOp.REPLACE: lambda s, ref: ref,
    StencilOp.INCR: lambda s, ref: min(s + 1, 255),
    StencilOp.DECR: lambda s, ref: max(s - 1, 0),
    StencilOp.INCR_WRAP: lambda s, ref: (s + 1) & 0xFF,
    StencilOp.DECR_WRAP: lambda s, ref: (s - 1) & 0xFF,
    StencilOp.INVERT: lambda s, ref: ~s & 0xFF,
}


def stencil_model(st: StencilState, ref, stored, depth_pass):
    """(colour written, new stencil value) for one fragment."""
    passed = COMPARE[st.func](ref & st.valuemask, stored & st.valuemask)
    if not passed:
        op = st.fail_op
    elif not depth_pass:
        op = st.zfail_op
    else:
        op = st.zpass_op
    value = STENCIL_OP[op](stored, ref)
    new = (stored & ~st.writemask & 0xFF) | (value & st.writemask)
    return passed and depth_pass, new


# -- depth ----------------------------------------------------------------------------------

DEPTHS = [0.25, 0.5, 0.75]


def _depth_rows(screen, ctx, dsa_states):
    """Row r: a quad at window depth 0.5 drawn with dsa_states[r] over the
    stored depths DEPTHS (one per column).  Returns (colour rows, depth)."""
    w, h = len(DEPTHS), len(dsa_states)
    color = texture(screen, Format.R32G32B32A32_FLOAT, w, h, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z32_FLOAT, w, h, Bind.DEPTH_STENCIL)
    bind_targets(ctx, w, h, (color,), zs)
    pipeline(ctx)
    upload(screen, color, "rgba32f", np.zeros((h, w, 4), np.float32))
    upload(screen, zs, "depth32f", np.tile(np.float32(DEPTHS), (h, 1)))
    verts = []
    for r in range(h):
        y0, y1 = -1 + 2 * r / h, -1 + 2 * (r + 1) / h
        verts += [
            [x, y, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0] for x, y in ((-1, y0), (1, y0), (1, y1), (-1, y0), (1, y1), (-1, y1))
        ]
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, np.array(verts, np.float32)), stride=32)])
    for r, st in enumerate(dsa_states):
        ctx.bind_depth_stencil_alpha_state(ctx.create_depth_stencil_alpha_state(st))
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=6 * r, count=6))
    return read(screen, color, "rgba32f")[..., 0], read(screen, zs, "depth32f")


@pytest.mark.parametrize("writemask", [True, False])
def test_every_depth_func_and_the_writemask(screen, ctx, writemask):
    """Each PIPE_FUNC as depth test of a fragment at 0.5 against 0.25 / 0.5 /
    0.75; passing fragments write colour, and depth when the writemask says so.
    A disabled depth test passes everything and writes no depth (GL and Gallium)."""
    states = [DepthStencilAlphaState(depth_enabled=True, depth_func=f, depth_writemask=writemask) for f in Func]
    states.append(DepthStencilAlphaState(depth_enabled=False, depth_func=Func.NEVER, depth_writemask=True))
    colors, depth = _depth_rows(screen, ctx, states)
    for r, st in enumerate(states):
        passed = np.array([not st.depth_enabled or COMPARE[st.depth_func](0.5, d) for d in DEPTHS])
        assert np.array_equal(colors[r], passed.astype(np.float32)), (st.depth_func, colors[r])
        want = np.where(passed & st.depth_enabled & st.depth_writemask, 0.5, DEPTHS)
        assert np.array_equal(depth[r], want.astype(np.float32)), (st.depth_func, depth[r])


# -- stencil --------------------------------------------------------------------------------


def _random_face(rng):
    return StencilState(
        enabled=True,
        func=Func(int(rng.integers(0, 8))),
        fail_op=StencilOp(int(rng.integers(0, 8))),
        zfail_op=StencilOp(int(rng.integers(0, 8))),
        zpass_op=StencilOp(int(rng.integers(0, 8))),
        valuemask=int(rng.choice([0xFF, 0xF0, 0x0F, 0x3C])),
        writemask=int(rng.choice([0xFF, 0x0F, 0xF0, 0x00, 0x81])),
    )


def _stencil_cases():
    rng = np.random.default_rng(11)
    cases = []
    # Every func and every op in each position, front and back different.
    for _ in range(40):
        front, back = _random_face(rng), _random_face(rng)
        cases.append(
            dict(front=front, back=back, two_sided=True, refs=(int(rng.integers(0, 256)), int(rng.integers(0, 256))))
        )
    for f in Func:  # each func on both faces at least once, with pass and fail values around the ref
        st = StencilState(
            enabled=True,
            func=f,
            fail_op=StencilOp.INCR,
            zfail_op=StencilOp.INVERT,
            zpass_op=StencilOp.REPLACE,
            valuemask=0xFF,
            writemask=0xFF,
        )
        cases.append(dict(front=st, back=st, two_sided=True, refs=(0x40, 0x40)))
    for op in StencilOp:  # each op at the saturation / wrap edges
        st = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=op, zfail_op=op, valuemask=0xFF, writemask=0xFF)
        cases.append(dict(front=st, back=st, two_sided=True, refs=(0x33, 0x44)))
    # One-sided: stencil[1] disabled -> the back face uses the front state and the front ref.
    front = StencilState(
        enabled=True,
        func=Func.EQUAL,
        zpass_op=StencilOp.INCR_WRAP,
        fail_op=StencilOp.ZERO,
        valuemask=0xFF,
        writemask=0xFF,
    )
    ignored = StencilState(enabled=False, func=Func.NEVER, zpass_op=StencilOp.ZERO, writemask=0x00)
    cases.append(dict(front=front, back=ignored, two_sided=False, refs=(0x10, 0x20)))
    cases.append(dict(front=front, back=ignored, two_sided=False, refs=(0x20, 0x10)))
    return cases


def test_two_sided_stencil_funcs_ops_masks_and_refs(screen, ctx):
    """Column i: a front-facing quad in row 0 and a back-facing one in row 1,
    each against its own stored stencil and depth; every func and op on each
    face, value and write masks, separate reference values, and the one-sided
    rule.  Colour is written where stencil and depth pass."""
    assert delivered_caps(screen)[Cap.TWO_SIDED_STENCIL] == 1
    cases = _stencil_cases()
    w, h = len(cases), 2
    rng = np.random.default_rng(12)
    edge = [0, 1, 0x3F, 0x40, 0x41, 0xFE, 0xFF]
    stored = np.array(
        [
            [int(rng.choice(edge)) if rng.random() < 0.5 else int(rng.integers(0, 256)) for _ in range(w)]
            for _ in range(h)
        ],
        np.uint32,
    )
    depth_pass = rng.random((h, w)) < 0.7  # stored depth 0.75 (a fragment at 0.5 passes LESS) or 0.25
    for i, case in enumerate(cases):
        if not case["two_sided"]:  # EQUAL passes with the front ref only: tells the refs apart
            stored[:, i] = case["refs"][0]
            depth_pass[:, i] = True
    stored_depth = np.where(depth_pass, 0.75, 0.25)
    color = texture(screen, Format.R32G32B32A32_FLOAT, w, h, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z24_UNORM_S8_UINT, w, h, Bind.DEPTH_STENCIL)
    bind_targets(ctx, w, h, (color,), zs)
    pipeline(ctx)
    front_ccw_rasterizer(ctx)
    upload(screen, color, "rgba32f", np.zeros((h, w, 4), np.float32))
    upload(screen, zs, "depth24s8", pack_d24s8(stored_depth, stored))
    verts = []
    for i in range(w):
        verts += pixel_quad(w, h, i, 0, (1, 1, 1, 1), ccw=True)
        verts += pixel_quad(w, h, i, 1, (1, 1, 1, 1), ccw=False)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, np.array(verts, np.float32)), stride=32)])
    for i, case in enumerate(cases):
        ctx.bind_depth_stencil_alpha_state(
            ctx.create_depth_stencil_alpha_state(
                DepthStencilAlphaState(
                    depth_enabled=True,
                    depth_func=Func.LESS,
                    depth_writemask=False,
                    stencil=(case["front"], case["back"]),
                )
            )
        )
        ctx.set_stencil_ref(StencilRef(ref_value=case["refs"]))
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=12 * i, count=12))
    got_color = read(screen, color, "rgba32f")[..., 0]
    got_stencil = read(screen, zs, "depth24s8") & 0xFF
    for i, case in enumerate(cases):
        faces = (case["front"], case["back"] if case["two_sided"] else case["front"])
        refs = (case["refs"][0], case["refs"][1] if case["two_sided"] else case["refs"][0])
        for row in (0, 1):
            written, new = stencil_model(faces[row], refs[row], int(stored[row, i]), bool(depth_pass[row, i]))
            assert got_color[row, i] == float(written), (i, row, case)
            assert got_stencil[row, i] == new, (i, row, case, int(stored[row, i]), int(got_stencil[row, i]), new)


def test_stencil_ref_alone_changes_the_next_draw(screen, ctx):
    """set_stencil_ref without a new CSO: REPLACE writes the new reference."""
    w, h = 3, 1
    color = texture(screen, Format.R32G32B32A32_FLOAT, w, h, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z24_UNORM_S8_UINT, w, h, Bind.DEPTH_STENCIL)
    bind_targets(ctx, w, h, (color,), zs)
    pipeline(ctx)
    upload(screen, zs, "depth24s8", pack_d24s8(np.ones((h, w)), np.zeros((h, w))))
    st = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.REPLACE, valuemask=0xFF, writemask=0xFF)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(stencil=(st, StencilState())))
    )
    verts = []
    for i in range(w):
        verts += pixel_quad(w, h, i, 0, (1, 1, 1, 1))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, np.array(verts, np.float32)), stride=32)])
    for i, ref in enumerate((7, 200, 7)):
        ctx.set_stencil_ref(StencilRef(ref_value=(ref, 99)))
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=6 * i, count=6))
    assert (read(screen, zs, "depth24s8") & 0xFF).tolist() == [[7, 200, 7]]


# -- alpha test ---------------------------------------------------------------------------------

ALPHAS = [0.25, 0.5, 0.75]


def test_alpha_test_every_func(screen, ctx):
    """Alpha test (through the shader variant) with reference 0.5: column
    (func, alpha) is written iff alpha FUNC 0.5; changing only the reference
    compiles no new variant (it lives in the sysvals block)."""
    assert delivered_caps(screen)[Cap.ALPHA_TEST] == 1
    cases = [(f, a) for f in Func for a in ALPHAS]
    w = len(cases)
    color = texture(screen, Format.R32G32B32A32_FLOAT, w, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    bind_targets(ctx, w, 1, (color,))
    pipeline(ctx)
    upload(screen, color, "rgba32f", np.zeros((1, w, 4), np.float32))
    verts = []
    for i, (_f, a) in enumerate(cases):
        verts += pixel_quad(w, 1, i, 0, (1, 1, 1, a))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, np.array(verts, np.float32)), stride=32)])
    for i, (f, _a) in enumerate(cases):
        ctx.bind_depth_stencil_alpha_state(
            ctx.create_depth_stencil_alpha_state(
                DepthStencilAlphaState(alpha_enabled=True, alpha_func=f, alpha_ref_value=0.5)
            )
        )
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=6 * i, count=6))
    got = read(screen, color, "rgba32f")[0, :, 0]
    want = np.array([COMPARE[f](a, 0.5) for f, a in cases], np.float32)
    assert np.array_equal(got, want), (got, want)
    # Same func, new reference: no recompile, new result.
    variants = screen.counters.shader_variants
    upload(screen, color, "rgba32f", np.zeros((1, w, 4), np.float32))
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(alpha_enabled=True, alpha_func=Func.LESS, alpha_ref_value=0.3)
        )
    )
    for i in range(3):  # the LESS columns: alphas 0.25, 0.5, 0.75 against 0.3
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=6 * (3 * int(Func.LESS) + i), count=6))
    got = read(screen, color, "rgba32f")[0, 3 * int(Func.LESS) : 3 * int(Func.LESS) + 3, 0]
    assert got.tolist() == [1.0, 0.0, 0.0]
    assert screen.counters.shader_variants == variants


def test_alpha_test_feeds_the_variant_key_and_sysvals(screen, ctx):
    """The wiring the alpha-test pass relies on: the FS variant's key carries
    alpha_func (ALWAYS when disabled) and sysvals.alpha_ref holds the reference."""
    color = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    bind_targets(ctx, 1, 1, (color,))
    pipeline(ctx)
    draw = fullscreen(screen, ctx, [1, 1, 1, 1])
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(alpha_enabled=True, alpha_func=Func.GEQUAL, alpha_ref_value=0.625)
        )
    )
    draw()
    assert ctx.shader_part.program.variants[-1].key.alpha_func == Func.GEQUAL
    assert ctx.sysvals_part._get_sysval("alpha_ref")[0] == 0.625
    gl = screen.host.gl
    data = np.zeros(4, np.float32)
    from lowering.glsl.sysval_block import field_offset

    gl.glGetNamedBufferSubData(ctx.sysvals_part._sysvals_ubo, field_offset("alpha_ref"), 16, data)
    assert data[0] == 0.625  # uploaded to the UBO the program reads
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(alpha_enabled=False, alpha_func=Func.NEVER))
    )
    draw()
    assert ctx.shader_part.program.variants[-1].key.alpha_func == Func.ALWAYS


# -- depth bounds ---------------------------------------------------------------------------


def test_depth_bounds_test_only_where_the_host_has_it(screen, ctx):
    """PIPE_CAP_DEPTH_BOUNDS_TEST follows GL_EXT_depth_bounds_test; without it a
    CSO asking for the test is refused at create time, never ignored."""
    state = DepthStencilAlphaState(depth_bounds_test=True, depth_bounds_min=0.4, depth_bounds_max=0.6)
    if not delivered_caps(screen)[Cap.DEPTH_BOUNDS_TEST]:
        with pytest.raises(UnsupportedError, match="depth_bounds_test"):
            ctx.create_depth_stencil_alpha_state(state)
        return
    # Host with the extension: fragments where the *stored* depth is outside
    # [min, max] are discarded.
    w = len(DEPTHS)
    color = texture(screen, Format.R32G32B32A32_FLOAT, w, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z32_FLOAT, w, 1, Bind.DEPTH_STENCIL)
    bind_targets(ctx, w, 1, (color,), zs)
    pipeline(ctx)
    upload(screen, color, "rgba32f", np.zeros((1, w, 4), np.float32))
    upload(screen, zs, "depth32f", np.float32([DEPTHS]))
    ctx.bind_depth_stencil_alpha_state(ctx.create_depth_stencil_alpha_state(state))
    fullscreen(screen, ctx, [1, 1, 1, 1])()
    got = read(screen, color, "rgba32f")[0, :, 0]
    assert got.tolist() == [0.0, 1.0, 0.0]


# -- binding rules ------------------------------------------------------------------------------


def test_redundant_binds_make_no_gl_call(screen, ctx):
    """Rebinding the bound DSA or setting the same stencil ref costs no GL call;
    a new reference alone sends only the stencil functions."""
    requires_fast_path(ctx)  # counts the fast path's GL calls (docs/debug.md)
    color = texture(screen, Format.R32G32B32A32_FLOAT, 2, 2, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z24_UNORM_S8_UINT, 2, 2, Bind.DEPTH_STENCIL)
    bind_targets(ctx, 2, 2, (color,), zs)
    pipeline(ctx)
    draw = fullscreen(screen, ctx, [1, 1, 1, 1])
    st = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.INCR, valuemask=0xFF, writemask=0xFF)
    a = ctx.create_depth_stencil_alpha_state(
        DepthStencilAlphaState(depth_enabled=True, depth_func=Func.ALWAYS, depth_writemask=True, stencil=(st, st))
    )  # two-sided
    b = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(depth_enabled=True, depth_func=Func.LESS))
    ctx.bind_depth_stencil_alpha_state(a)
    ctx.set_stencil_ref(StencilRef(ref_value=(3, 4)))
    draw()
    counting = CountingGL(ctx.gl)
    ctx.gl = counting
    try:
        before = screen.counters.gl_state_calls
        ctx.bind_depth_stencil_alpha_state(a)
        ctx.set_stencil_ref(StencilRef(ref_value=(3, 4)))
        draw()
        draw()
        assert counting.calls == []
        assert screen.counters.gl_state_calls == before
        # Only the reference changes: only the stencil function of the face
        # whose reference changed is sent; one call when both faces agree.
        ctx.set_stencil_ref(StencilRef(ref_value=(5, 4)))
        draw()
        assert counting.calls == ["glStencilFuncSeparate"]
        ctx.set_stencil_ref(StencilRef(ref_value=(6, 6)))
        draw()
        assert counting.calls[1:] == ["glStencilFunc"]
        # A new CSO: only what differs from the host's state is sent (the
        # depth test is already on).
        del counting.calls[:]
        ctx.bind_depth_stencil_alpha_state(b)
        draw()
        assert sorted(counting.calls) == ["glDepthFunc", "glDepthMask", "glDisable"]
        assert screen.counters.gl_state_calls == before + 2 + 3
    finally:
        ctx.gl = counting._gl


def test_write_masks_hold_after_a_clear(screen, ctx):
    """clear opens GL's depth and stencil write masks (Gallium clears ignore
    them); the next draw must put the bound CSO's masks back."""
    from glpipe import Clear

    color = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z24_UNORM_S8_UINT, 1, 1, Bind.DEPTH_STENCIL)
    bind_targets(ctx, 1, 1, (color,), zs)
    pipeline(ctx)
    draw = fullscreen(screen, ctx, [1, 1, 1, 1], z=0.5)  # window depth 0.75
    st = StencilState(enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.REPLACE, valuemask=0xFF, writemask=0x0F)
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(
                depth_enabled=True, depth_func=Func.ALWAYS, depth_writemask=False, stencil=(st, StencilState())
            )
        )
    )
    ctx.set_stencil_ref(StencilRef(ref_value=(0xFF, 0)))
    draw()
    ctx.clear(Clear.DEPTH | Clear.STENCIL, None, (0, 0, 0, 0), 0.25, 0xA0)
    draw()
    word = int(read(screen, zs, "depth24s8")[0, 0])
    assert word & 0xFF == 0xAF  # only the low nibble takes the ref
    assert abs((word >> 8) / 0xFFFFFF - 0.25) < 1e-6  # depth writes stay off


def test_two_contexts_of_a_screen_keep_their_own_dsa_state(screen, ctx):
    """Contexts of one screen share the host GL context: drawing alternately,
    each draw still tests depth as its own context's CSO says."""
    other = screen.context_create()
    try:
        colors, draws = [], []
        for c, func in ((ctx, Func.NEVER), (other, Func.ALWAYS)):
            color = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
            zs = texture(screen, Format.Z32_FLOAT, 1, 1, Bind.DEPTH_STENCIL)
            bind_targets(c, 1, 1, (color,), zs)
            pipeline(c)
            upload(screen, color, "rgba32f", np.zeros((1, 1, 4), np.float32))
            c.bind_depth_stencil_alpha_state(
                c.create_depth_stencil_alpha_state(DepthStencilAlphaState(depth_enabled=True, depth_func=func))
            )
            colors.append(color)
            draws.append(fullscreen(screen, c, [1, 1, 1, 1]))
        for _ in range(2):
            draws[1]()
            draws[0]()
        assert read(screen, colors[0], "rgba32f")[0, 0, 0] == 0.0
        assert read(screen, colors[1], "rgba32f")[0, 0, 0] == 1.0
    finally:
        other.destroy()


def test_deleting_the_bound_dsa_unbinds_it(screen, ctx):
    """delete of the bound DSA: the next draw uses the default state (no tests)."""
    color = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    zs = texture(screen, Format.Z32_FLOAT, 1, 1, Bind.DEPTH_STENCIL)
    bind_targets(ctx, 1, 1, (color,), zs)
    pipeline(ctx)
    upload(screen, color, "rgba32f", np.zeros((1, 1, 4), np.float32))
    draw = fullscreen(screen, ctx, [1, 1, 1, 1])
    never = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(depth_enabled=True, depth_func=Func.NEVER))
    ctx.bind_depth_stencil_alpha_state(never)
    draw()
    assert read(screen, color, "rgba32f")[0, 0, 0] == 0.0
    ctx.delete_depth_stencil_alpha_state(never)
    assert ctx.dsa_part.depth_stencil_alpha is None
    draw()
    assert read(screen, color, "rgba32f")[0, 0, 0] == 1.0
    with pytest.raises(ObjectDestroyedError):
        ctx.bind_depth_stencil_alpha_state(never)


def test_destroy_spelling_is_an_alias(ctx):
    assert type(ctx).destroy_depth_stencil_alpha_state is type(ctx).delete_depth_stencil_alpha_state


def test_bad_dsa_input_is_refused(screen, ctx):
    with pytest.raises(InvalidArgumentError, match="DepthStencilAlphaState"):
        ctx.create_depth_stencil_alpha_state(BlendState())
    with pytest.raises(InvalidArgumentError, match="valuemask"):
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(stencil=(StencilState(enabled=True, valuemask=0x100), StencilState()))
        )
    with pytest.raises(InvalidArgumentError, match="ref_value"):
        ctx.set_stencil_ref(StencilRef(ref_value=(256, 0)))
    with pytest.raises(InvalidArgumentError, match="StencilRef"):
        ctx.set_stencil_ref((1, 2))
    other = screen.context_create()
    try:
        foreign = other.create_depth_stencil_alpha_state(DepthStencilAlphaState())
        with pytest.raises(InvalidArgumentError, match="another context"):
            ctx.bind_depth_stencil_alpha_state(foreign)
    finally:
        other.destroy()
