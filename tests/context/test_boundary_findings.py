"""Issue 12 item 3: every finding of "Exceptions that are not PipeError" and
"Silent truncation and wrong blame" as a regression test (both profiles).

Each bad call must raise a PipeError subclass naming what was wrong, leave no
GL error pending, and leave the context usable: the known-good draw after it
(``_draws_red``) gives the right pixels, computed here from the geometry (a
full-viewport triangle pair: every pixel red).
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Bind,
    DrawInfo,
    DrawStartCountBias,
    Format,
    FramebufferState,
    ResourceTemplate,
    RTBlendState,
    SamplerState,
    SamplerViewTemplate,
    ScissorState,
    ShaderType,
    Target,
    VertexBuffer,
    VertexElement,
)
from glpipe.enums import Clear, Map, Prim
from glpipe.errors import InvalidArgumentError, ObjectDestroyedError, PipeError, UnsupportedError
from glpipe.templates import Box

from .util import read_rgba32f
from .util_draw import SIZE, setup, vertices

RED = (1.0, 0.0, 0.0, 1.0)
# Two triangles covering the whole SIZE x SIZE target, as TRIANGLES.
FULL = vertices([(0, 0), (SIZE, 0), (0, SIZE), (SIZE, 0), (SIZE, SIZE), (0, SIZE)], RED)


def _draws_red(ctx, screen, color) -> None:
    """The known-good draw: after a refused call the context still draws
    right (every pixel red, the expectation from the geometry alone)."""
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=6))
    img = read_rgba32f(screen, color)
    assert np.array_equal(img, np.broadcast_to(np.array(RED, np.float32), img.shape))


def _refused(screen, call, error=InvalidArgumentError, match=None):
    """``call()`` raises ``error`` (matching ``match``) and no GL error is pending after it."""
    with pytest.raises(error, match=match):
        call()
    assert screen.host.clear_errors() == []


# -- "Exceptions that are not PipeError" ------------------------------------------------


def test_bind_sampler_states_list_as_stage(screen, ctx):
    """bind_sampler_states([], 0, s) raised TypeError (an unhashable stage)."""
    s = ctx.create_sampler_state(SamplerState())
    _refused(screen, lambda: ctx.bind_sampler_states([], 0, [s]), match="ShaderType")
    _refused(screen, lambda: ctx.set_sampler_views({}, 0, []), match="ShaderType")
    _refused(screen, lambda: ctx.set_constant_buffer([], 0, None), match="ShaderType")


def test_create_vertex_elements_state_none(screen, ctx):
    """create_vertex_elements_state(None) raised TypeError ('NoneType' is not iterable)."""
    _refused(screen, lambda: ctx.create_vertex_elements_state(None), match="elements must be a sequence")
    _refused(screen, lambda: ctx.create_vertex_elements_state(5), match="elements must be a sequence")


def test_template_unknown_field():
    """ResourceTemplate(bogus=1) raised TypeError from the dataclass constructor."""
    with pytest.raises(InvalidArgumentError, match="ResourceTemplate.*bogus"):
        ResourceTemplate(bogus=1)
    with pytest.raises(InvalidArgumentError, match="DrawInfo"):
        DrawInfo(
            Prim.TRIANGLES, 0, 0, False, None, False, False, False, False, False, 0, 1, 0, None, 0, 0, 0, 0, 0, 0, 9
        )


def test_draw_vbo_info_none_and_tuple_draws(screen, ctx):
    """draw_vbo(None) and draw_vbo(info, draws=[(0, 3, 0)]) raised AttributeError."""
    color = setup(ctx)
    _refused(screen, lambda: ctx.draw_vbo(None), match="info must be a DrawInfo")
    _refused(screen, lambda: ctx.draw_vbo([Prim.TRIANGLES, 0, 3]), match="info must be a DrawInfo")
    info = DrawInfo(mode=Prim.TRIANGLES, count=3)
    _refused(screen, lambda: ctx.draw_vbo(info, draws=[(0, 3, 0)]), match=r"draws\[0\] must be a DrawStartCountBias")
    _refused(screen, lambda: ctx.draw_vbo(info, draws=7), match="draws must be a sequence")
    _draws_red(ctx, screen, color)


def test_surface_destroy_not_a_surface(screen, ctx):
    """surface_destroy(None) raised AttributeError; another object is refused too."""
    _refused(screen, lambda: ctx.surface_destroy(None), match="must be a Surface")
    _refused(screen, lambda: ctx.surface_destroy("surface"), match="must be a Surface")


def test_context_create_bad_flags(screen):
    """context_create(flags='x') raised ValueError; flags are an unsigned int."""
    _refused(screen, lambda: screen.context_create(flags="x"), match="flags")
    _refused(screen, lambda: screen.context_create(flags=2**32), match="flags")
    _refused(screen, lambda: screen.context_create(flags=-1), match="flags")


def test_emit_string_marker_not_text(screen, ctx):
    """emit_string_marker(2**70) raised OverflowError (bytes(int)); an int is
    refused on every profile, before the capability check."""
    _refused(screen, lambda: ctx.emit_string_marker(2**70), match="str or bytes")
    _refused(screen, lambda: ctx.emit_string_marker(5), match="str or bytes")


def test_emit_string_marker_too_long(screen, ctx):
    """A marker the host would refuse with GL_INVALID_VALUE is refused first."""
    if not screen.profile.has("debug_output"):
        _refused(screen, lambda: ctx.emit_string_marker("m"), UnsupportedError, match="debug_output")
        return
    gl = screen.host.gl
    limit = int(gl.glGetIntegerv(gl.GL_MAX_DEBUG_MESSAGE_LENGTH))
    _refused(screen, lambda: ctx.emit_string_marker("m" * limit), match="GL_MAX_DEBUG_MESSAGE_LENGTH")
    ctx.emit_string_marker("m" * (limit - 1))
    assert screen.host.clear_errors() == []


def test_texture_subdata_huge_layer_stride(screen, ctx):
    """texture_subdata(layer_stride=2**70) raised OverflowError (numpy strides)."""
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D_ARRAY, format=Format.R8G8B8A8_UNORM, width0=2, height0=2, array_size=2
        )
    )
    box = Box(width=2, height=2, depth=2)
    data = bytes(64)
    _refused(screen, lambda: ctx.texture_subdata(tex, 0, Map.WRITE, box, data, 8, 2**70), match="layer_stride")
    _refused(screen, lambda: ctx.texture_subdata(tex, 0, Map.WRITE, box, data, 2**40, 16), match="stride")
    _refused(screen, lambda: ctx.texture_subdata(tex, 2**70, Map.WRITE, box, data, 8, 16), match="level")
    buf = screen.resource_create(ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=16, height0=1))
    _refused(screen, lambda: ctx.buffer_subdata(buf, Map.WRITE, 10**5000, b"x"), match="offset")
    _refused(screen, lambda: ctx.transfer_map(buf, 10**5000, Map.READ, Box(width=1, height=1, depth=1)), match="level")
    # In range, it writes: the bytes read back are the bytes given.
    payload = bytes(range(32))
    ctx.texture_subdata(tex, 0, Map.WRITE, box, payload, 8, 16)
    t = ctx.transfer_map(tex, 0, Map.READ, box)
    assert bytes(t.data) == payload
    ctx.transfer_unmap(t)
    screen.resource_destroy(tex)
    screen.resource_destroy(buf)


def test_draw_count_2_64(screen, ctx):
    """count=2**64 reached ctypes (ArgumentError); it is outside the uint32 count."""
    with pytest.raises(InvalidArgumentError, match="count"):
        DrawInfo(mode=Prim.TRIANGLES, count=2**64)


def test_polygon_count_2_31(screen, ctx):
    """A POLYGON draw of 2**31 vertices asked the index translation for
    8-24 GiB (MemoryError); 2**31 - 1 passes GL's range but not the
    translation's bound (MAX_TRANSLATED_INDICES): both refused before any
    memory or GL, and the context draws right afterwards."""
    color = setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    _refused(screen, lambda: ctx.draw_vbo(DrawInfo(mode=Prim.POLYGON, count=2**31)), UnsupportedError, "GLsizei")
    _refused(
        screen,
        lambda: ctx.draw_vbo(DrawInfo(mode=Prim.POLYGON, count=2**31 - 1)),
        UnsupportedError,
        "MAX_TRANSLATED_INDICES",
    )
    _draws_red(ctx, screen, color)


def test_translate_bound():
    """fallback.indices.translate refuses past MAX_TRANSLATED_INDICES and
    translates right up to it (the count formula against a real translation)."""
    from fallback.indices import MAX_TRANSLATED_INDICES, translate, translated_count

    for prim, n in ((Prim.QUADS, 10), (Prim.QUAD_STRIP, 9), (Prim.POLYGON, 7), (Prim.POLYGON, 2)):
        assert translated_count(prim, n) == translate(prim, n).count
    # The largest POLYGON within the bound: n - 2 triangles of 3 indices.
    assert translated_count(Prim.POLYGON, MAX_TRANSLATED_INDICES // 3 + 2) == 3 * (MAX_TRANSLATED_INDICES // 3)
    with pytest.raises(UnsupportedError, match="MAX_TRANSLATED_INDICES"):
        translate(Prim.POLYGON, MAX_TRANSLATED_INDICES // 3 + 3)
    with pytest.raises(UnsupportedError, match="split the draw"):
        translate(Prim.QUADS, 2**32 - 1)


def test_sviewinfo_and_sample_i_without_a_sampler(screen, ctx):
    """An FS using SVIEWINFO or SAMPLE_I (no SAMP declared, no sampler state
    bound) raised TypeError at draw: it draws, and SVIEWINFO of a bound 4x2
    view with 2 levels reads (4, 2, 0, 2) (tgsi.rst SVIEWINFO: width,
    height, depth, levels)."""
    fs = """FRAG
DCL OUT[0], COLOR
DCL SVIEW[0], 2D, FLOAT
IMM[0] INT32 {0, 0, 0, 0}
  0: SVIEWINFO OUT[0], IMM[0].xxxx, SVIEW[0]
  1: END
"""
    color = setup(ctx, fs=fs)
    tex = screen.resource_create(
        ResourceTemplate(
            target=Target.TEXTURE_2D,
            format=Format.R8G8B8A8_UNORM,
            width0=4,
            height0=2,
            last_level=1,
            bind=Bind.SAMPLER_VIEW,
        )
    )
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))  # no view bound: draws
    assert screen.host.clear_errors() == []
    view = ctx.create_sampler_view(tex, SamplerViewTemplate(format=tex.format, target=Target.TEXTURE_2D, last_level=1))
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))
    img = read_rgba32f(screen, color).view(np.uint32)
    assert (img == np.array([4, 2, 0, 2], np.uint32)).all()
    sample_i = fs.replace("SVIEWINFO OUT[0], IMM[0].xxxx, SVIEW[0]", "SAMPLE_I OUT[0], IMM[0], SVIEW[0]")
    ctx.bind_fs_state(ctx.create_fs_state(__import__("glpipe").ShaderState(tokens=sample_i)))
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))
    assert screen.host.clear_errors() == []
    ctx.sampler_view_destroy(view)
    screen.resource_destroy(tex)


# -- "Silent truncation and wrong blame" --------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"count": 2**32 + 3},  # drew 3 vertices
        {"start": 2**32, "count": 3},  # drew from 0
        {"instance_count": 2**32 + 1, "count": 3},  # drew one instance
        {"count": -3},  # negative counts passed
        {"start": -1, "count": 3},
        {"instance_count": -1, "count": 3},
        {"index_bias": 2**31, "count": 3},  # int32
        {"start_instance": 2**32, "count": 3},
    ],
)
def test_draw_fields_outside_their_c_types(screen, ctx, fields):
    """pipe_draw_info's counts are unsigned 32-bit (index_bias int32): a value
    outside is refused by DrawInfo, naming the field, instead of being cut."""
    name = next(iter(fields))
    with pytest.raises(InvalidArgumentError, match=f"DrawInfo.{name}"):
        DrawInfo(mode=Prim.TRIANGLES, **fields)
    if name in ("start", "count", "index_bias"):  # the multi-draw entry has the same C types
        with pytest.raises(InvalidArgumentError, match=f"DrawStartCountBias.{name}"):
            DrawStartCountBias(**{name: fields[name]})


@pytest.mark.parametrize(
    "fields", [{"count": 2**31}, {"start": 2**31, "count": 3}, {"instance_count": 2**31, "count": 3}]
)
def test_draw_beyond_gl_range_is_refused_now(screen, ctx, fields):
    """count=2**31 returned normally and the next call (a transfer) raised
    GL_INVALID_VALUE: a value valid for Gallium's unsigned but not GL's
    GLsizei/GLint is refused by the draw itself, nothing left pending, and
    the next calls (a transfer, a draw) work."""
    color = setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    info = DrawInfo(mode=Prim.TRIANGLES, **fields)
    _refused(screen, lambda: ctx.draw_vbo(info), UnsupportedError, "GLint/GLsizei")
    _refused(screen, lambda: ctx.draw_vbo(info), UnsupportedError, "GLint/GLsizei")  # again: no memo let it through
    multi = DrawInfo(mode=Prim.TRIANGLES)
    _refused(screen, lambda: ctx.draw_vbo(multi, [DrawStartCountBias(count=2**31)]), UnsupportedError, "GLsizei")
    t = ctx.transfer_map(color, 0, Map.READ, Box(width=1, height=1, depth=1))
    ctx.transfer_unmap(t)
    _draws_red(ctx, screen, color)


def test_draw_into_destroyed_render_target_blames_the_draw(screen, ctx):
    """A draw into a destroyed render target left a GL error that a later
    resource_create reported: the draw raises ObjectDestroyedError itself,
    nothing is pending, and resource_create succeeds."""
    color = setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6))
    screen.resource_destroy(color)
    _refused(screen, lambda: ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, count=6)), ObjectDestroyedError)
    res = screen.resource_create(ResourceTemplate(format=Format.R8G8B8A8_UNORM, width0=4, height0=4))
    screen.resource_destroy(res)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: RTBlendState(colormask=0x1F), "colormask"),  # Z is not a colour channel
        (lambda: SamplerState(max_anisotropy=-1), "max_anisotropy"),
        (lambda: VertexElement(src_offset=2**40, src_format=Format.R32_FLOAT), "src_offset"),  # uint16
        (lambda: VertexElement(vertex_buffer_index=128, src_format=Format.R32_FLOAT), "vertex_buffer_index"),
        (lambda: VertexBuffer(buffer=np.zeros(4, np.float32), buffer_offset=2**63), "buffer_offset"),
        (lambda: FramebufferState(width=-1, height=1), "width"),
        (lambda: FramebufferState(width=100000, height=1), "width"),  # uint16
        (lambda: ScissorState(minx=-5, maxx=4, maxy=4), "minx"),
        (lambda: ScissorState(maxx=70000, maxy=4), "maxx"),
        (lambda: ResourceTemplate(width0=2**32), "width0"),  # MAX_BUFFER_SIZE + 1
        (lambda: ResourceTemplate(height0=2**16), "height0"),
    ],
)
def test_template_values_outside_their_c_types(make, match):
    """Accepted before (and cut or misread later); refused by the template,
    naming the field."""
    with pytest.raises(InvalidArgumentError, match=match):
        make()


def test_set_min_samples_beyond_the_host(screen, ctx):
    """set_min_samples(1000) was accepted (GL clamps the fraction silently)."""
    _refused(screen, lambda: ctx.set_min_samples(1000), match="set_min_samples")
    _refused(screen, lambda: ctx.set_min_samples(0), match="set_min_samples")
    _refused(screen, lambda: ctx.set_min_samples(2**70), match="set_min_samples")
    ctx.set_min_samples(1)


def test_set_blend_color_refuses_non_numbers(screen, ctx):
    """set_blend_color took strings float() could parse and raised OverflowError for huge ints."""
    _refused(screen, lambda: ctx.set_blend_color(["1", 0, 0, 0]), match="color4")
    _refused(screen, lambda: ctx.set_blend_color([10**400, 0, 0, 0]), match="double")
    _refused(screen, lambda: ctx.set_blend_color([0, 0, 0]), match="4 numbers")


def test_errors_are_pipe_errors():
    """The errors the tests above expect are the boundary's: PipeError subclasses."""
    for cls in (InvalidArgumentError, UnsupportedError, ObjectDestroyedError):
        assert issubclass(cls, PipeError)


# -- Found by the API fuzzer (tests/fuzz): one bad argument per entry point ------------------


def _fuzzer_cases(screen, ctx):
    """(call, error, match): a bad argument each, all of which raised TypeError,
    ValueError or OverflowError, or were accepted, before."""
    fence = ctx.flush()
    color = setup(ctx)
    surf = ctx.framebuffer_part.framebuffer.cbufs[0]
    return [
        (lambda: screen.fence_reference(None, "fence"), InvalidArgumentError, "fence_reference: src"),
        (lambda: screen.fence_reference(7, fence), InvalidArgumentError, "fence_reference: dst"),
        (lambda: screen.fence_finish(ctx, fence, 2**64), InvalidArgumentError, "timeout_ns"),
        (lambda: screen.get_driver_query_info("x"), InvalidArgumentError, "index"),
        (lambda: screen.get_driver_query_group_info(float("nan")), InvalidArgumentError, "index"),
        (lambda: screen.get_dmabuf_modifier_planes(b"\x00", Format.R8_UNORM), InvalidArgumentError, "modifier"),
        (lambda: screen.is_dmabuf_modifier_supported(2**64, Format.R8_UNORM), InvalidArgumentError, "modifier"),
        (lambda: screen.get_shader_param(10**5000, 0), InvalidArgumentError, "integer of"),
        (lambda: ctx.set_window_rectangles(None, []), InvalidArgumentError, "include must be a bool"),
        (lambda: ctx.set_viewport_states(10**5000, []), InvalidArgumentError, "start_slot"),
        (lambda: ctx.set_scissor_states({}, []), InvalidArgumentError, "start_slot"),
        (lambda: ctx.set_constant_buffer(ShaderType.FRAGMENT, 10**5000, None), InvalidArgumentError, "index"),
        (lambda: ctx.set_blend_color([float("nan"), 0, 0, "x"]), InvalidArgumentError, "color4"),
        (lambda: ctx.clear_render_target(surf, RED, 0, 0, 1, 1, "x"), InvalidArgumentError, "render_condition"),
        (lambda: ctx.clear_render_target(surf, RED, 2**31, 0, 1, 1, False), InvalidArgumentError, "dstx"),
        (lambda: ctx.clear_render_target(surf, [10**400, 0, 0, 0], 0, 0, 1, 1, False), InvalidArgumentError, "colour"),
        (lambda: ctx.clear(Clear.COLOR0, None, 5, 1.0, 0), InvalidArgumentError, "color"),
        (
            lambda: ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,), resolve=3)),
            InvalidArgumentError,
            "resolve",
        ),
        (
            lambda: ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,), resolve=color)),
            UnsupportedError,
            "resolve",
        ),
    ]


def test_fuzzer_findings(screen, ctx):
    """Each refused with a PipeError naming the argument, nothing pending,
    and the context draws right afterwards."""
    cases = _fuzzer_cases(screen, ctx)
    color = ctx.framebuffer_part.framebuffer.cbufs[0].texture
    for call, error, match in cases:
        _refused(screen, call, error, match)
    _draws_red(ctx, screen, color)


def test_clear_depth_stencil_values(screen, ctx):
    """A stencil clear value outside the C unsigned, a depth that is no
    double: refused; in range they clear (stencil masked to its 8 bits as
    GL does, depth clamped to [0, 1])."""
    zs = screen.resource_create(
        ResourceTemplate(format=Format.Z24_UNORM_S8_UINT, width0=2, height0=2, bind=Bind.DEPTH_STENCIL)
    )
    from glpipe import SurfaceTemplate

    surf = ctx.create_surface(zs, SurfaceTemplate(format=zs.format))
    _refused(screen, lambda: ctx.clear_depth_stencil(surf, Clear.STENCIL, 0.0, -1, 0, 0, 2, 2, False), match="stencil")
    _refused(
        screen, lambda: ctx.clear_depth_stencil(surf, Clear.STENCIL, 0.0, 2**32, 0, 0, 2, 2, False), match="stencil"
    )
    _refused(screen, lambda: ctx.clear_depth_stencil(surf, Clear.DEPTH, 10**400, 0, 0, 0, 2, 2, False), match="depth")
    ctx.clear_depth_stencil(surf, Clear.DEPTH | Clear.STENCIL, 0.5, 0x1A5, 0, 0, 2, 2, False)
    t = ctx.transfer_map(zs, 0, Map.READ, Box(width=2, height=2, depth=1))
    texels = np.frombuffer(bytes(t.data), np.uint32)
    ctx.transfer_unmap(t)
    # Z24_UNORM_S8_UINT: depth in the low 24 bits, stencil in the high 8.
    assert (texels >> 24 == 0xA5).all()
    assert (np.abs((texels & 0xFFFFFF) - round(0.5 * 0xFFFFFF)) <= 1).all()
    ctx.surface_destroy(surf)
    screen.resource_destroy(zs)


def test_texture_subdata_unused_huge_layer_stride(screen, ctx):
    """layer_stride is a uintptr_t: 2**63 is a valid value, unused for one
    layer (it reached numpy's intp and raised OverflowError); the write lands."""
    tex = screen.resource_create(ResourceTemplate(format=Format.R8G8B8A8_UNORM, width0=2, height0=2))
    payload = bytes(range(16))
    ctx.texture_subdata(tex, 0, Map.WRITE, Box(width=2, height=2, depth=1), payload, 8, 2**63)
    t = ctx.transfer_map(tex, 0, Map.READ, Box(width=2, height=2, depth=1))
    assert bytes(t.data) == payload
    ctx.transfer_unmap(t)
    screen.resource_destroy(tex)


def test_set_patch_vertices_huge(screen, ctx):
    """set_patch_vertices(10**5000) raised ValueError formatting its message."""
    if not screen.profile.has("tessellation_shader"):
        _refused(screen, lambda: ctx.set_patch_vertices(3), UnsupportedError, "tessellation")
        return
    _refused(screen, lambda: ctx.set_patch_vertices(10**5000), match="set_patch_vertices")
    _refused(screen, lambda: ctx.set_patch_vertices("3"), match="set_patch_vertices")
    ctx.set_patch_vertices(3)


def test_messages_survive_unprintable_values(screen, ctx):
    """An error message that printed a list holding a 5,000-digit integer
    raised ValueError (Python's int-to-str limit) instead of the PipeError."""
    huge = [10**5000]
    _refused(screen, lambda: ctx.clear(huge, None, [0, 0, 0, 0], 1.0, 0), match="cannot be shown")
    _refused(screen, lambda: ctx.set_sample_mask(huge), match="cannot be shown")
    _refused(screen, lambda: ctx.flush(huge), match="cannot be shown")


# -- Found by the long campaign (docs/robustness.md "API fuzzing") ---------------------------


def test_is_format_supported_unprintable_format(screen):
    """is_format_supported(10**5000, ...) raised ValueError printing the format."""
    _refused(screen, lambda: screen.is_format_supported(10**5000, Target.TEXTURE_2D, 0, 0, 0), match="Format")
    _refused(screen, lambda: screen.is_format_supported(Format.R8_UNORM, Target.TEXTURE_2D, [10**5000], 0, 0))
    assert screen.is_format_supported(Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 0, 0, Bind.SAMPLER_VIEW)


def test_draw_vbo_empty_draws_draws_nothing(screen, ctx):
    """An indexed QUADS draw with draws=[] raised ValueError (max() of no
    draws, reading the index buffer back): num_draws = 0 draws nothing, and
    the next draw is right."""
    color = setup(ctx)
    index = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=8, height0=1, bind=Bind.INDEX_BUFFER)
    )
    ctx.buffer_subdata(index, Map.WRITE, 0, np.array([0, 1, 4, 2], np.uint16))
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    for info in (
        DrawInfo(mode=Prim.QUADS, index_size=2, index=index, count=4),
        DrawInfo(mode=Prim.TRIANGLES, count=6),
    ):
        ctx.draw_vbo(info, [])
        assert screen.host.clear_errors() == []
        assert not read_rgba32f(screen, color).any()  # nothing drawn
    _draws_red(ctx, screen, color)
    screen.resource_destroy(index)


def test_draw_mode_the_bound_geometry_shader_cannot_take(ctx, screen):
    """A draw whose primitive the bound GS does not take is refused before GL
    (GL would leave GL_INVALID_OPERATION for the next call), also when the
    DrawInfo was drawn before and the draw would take the fast path."""
    from glpipe import ShaderState

    from .util import triangle_gs

    color = setup(ctx)
    ctx.set_vertex_buffers([VertexBuffer(buffer=FULL, stride=32)])
    points = DrawInfo(mode=Prim.POINTS, count=6)
    tris = DrawInfo(mode=Prim.TRIANGLES, count=6)
    ctx.draw_vbo(points)  # memoised for the fast path
    ctx.draw_vbo(points)
    gs = ctx.create_gs_state(ShaderState(tokens=triangle_gs("TRIANGLE_STRIP", (0, 1, 2))))
    ctx.bind_gs_state(gs)
    ctx.draw_vbo(tris)
    _refused(screen, lambda: ctx.draw_vbo(points), match="GS_INPUT_PRIMITIVE")
    _refused(screen, lambda: ctx.draw_vbo(DrawInfo(mode=Prim.LINES, count=6)), match="GS_INPUT_PRIMITIVE")
    _draws_red(ctx, screen, color)
    ctx.bind_gs_state(None)
    ctx.delete_gs_state(gs)
    ctx.draw_vbo(points)  # no GS: any mode again
    assert screen.host.clear_errors() == []
