"""Shadow lookups through sampler views with swizzles (issue 10 item 3).

Gallium (softpipe sp_tex_sample.c sample_compare + do_swizzling; llvmpipe
lp_bld_sample_soa.c): a lookup on a SHADOW* target yields ``(c, c, c, 1)``,
c the comparison result, and the sampler view's swizzle is then applied to
that vector -- which is how st/mesa encodes GL's DEPTH_TEXTURE_MODE (RED =
(X,0,0,1), LUMINANCE = (X,X,X,1), ALPHA = (0,0,0,X), INTENSITY = (X,X,X,X)).
A TG4 with a compare gathers four comparison results instead; there the
view swizzle only picks the channel each texel is compared by (llvmpipe
compares ``texel[swizzle_r]``, the depth for X, 0 for Y/Z/ZERO, 1 for
W/ONE) and is not applied to the gathered vector.

Expected vectors come from numpy: compare, then swizzle -- never from glpipe.
The textures hold one depth (0.5) everywhere, the reference runs across the
quad, so every pixel's comparison result is known exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    Cap,
    Format,
    Func,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    Swizzle,
    Target,
    TexCompare,
    TexWrap,
    UnsupportedError,
)

from .util_sampling import Sampling, bind_sampling, make_texture, nearest, upload

X, Y, Z, W, ZERO, ONE = Swizzle.X, Swizzle.Y, Swizzle.Z, Swizzle.W, Swizzle.ZERO, Swizzle.ONE

# DEPTH_TEXTURE_MODE as st/mesa encodes it, Gallium's identity, and ZERO / ONE mixes.
SWIZZLES = {
    "RED": (X, ZERO, ZERO, ONE),
    "LUMINANCE": (X, X, X, ONE),
    "ALPHA": (ZERO, ZERO, ZERO, X),
    "INTENSITY": (X, X, X, X),
    "identity": (X, Y, Z, W),
    "one_x_zero_y": (ONE, X, ZERO, Y),
    "w_z_one_zero": (W, Z, ONE, ZERO),
}

DEPTH = 0.5
WIDTH = 8
# Pixel centres of an 8-wide quad with IN[0].x from 0 to 1: references 1/16 .. 15/16.
REFS = (np.arange(WIDTH) + 0.5) / WIDTH


def compare_less(ref, depth):
    """PIPE_FUNC_LESS, the sampler's compare_func: 1 where ``ref < texel``."""
    return (np.asarray(ref, np.float64) < depth).astype(np.float32)


def gallium_swizzle(vec, swizzle):
    """The view swizzle on a (..., 4) vector (PIPE_SWIZZLE_X..W, 0, 1)."""
    out = np.empty_like(vec)
    for c, s in enumerate(swizzle):
        out[..., c] = vec[..., s] if s <= W else (0.0 if s == ZERO else 1.0)
    return out


def expected_lookup(swizzle):
    """(WIDTH, 4): (c, c, c, 1) per reference, then the view swizzle."""
    c = compare_less(REFS, DEPTH)
    return gallium_swizzle(np.stack([c, c, c, np.ones_like(c)], axis=-1), swizzle)


def expected_gather(swizzle):
    """(WIDTH, 4): the four texels' comparisons of ``texel[swizzle_r]``
    (a depth texel reads (d, 0, 0, 1)), not swizzled further."""
    texel = np.array([DEPTH, 0.0, 0.0, 1.0])
    r = swizzle[0]
    value = texel[r] if r <= W else (0.0 if r == ZERO else 1.0)
    c = compare_less(REFS, value)
    return np.repeat(c[:, None], 4, axis=1)


# -- textures of one depth, per view target ---------------------------------------------------------

# view target -> (resource target, TGSI SVIEW target)
TARGETS = {
    "1D": (Target.TEXTURE_1D, "1D"),
    "2D": (Target.TEXTURE_2D, "2D"),
    "RECT": (Target.TEXTURE_RECT, "RECT"),
    "1D_ARRAY": (Target.TEXTURE_1D_ARRAY, "1D_ARRAY"),
    "2D_ARRAY": (Target.TEXTURE_2D_ARRAY, "2D_ARRAY"),
    "CUBE": (Target.TEXTURE_CUBE, "CUBE"),
    "CUBE_ARRAY": (Target.TEXTURE_CUBE_ARRAY, "CUBEARRAY"),
}
SIZE = 4


def depth_texture(screen, target_name):
    """A Z32_FLOAT texture of ``target_name`` holding DEPTH in every texel."""
    target = TARGETS[target_name][0]
    if target == Target.TEXTURE_1D:
        res = make_texture(screen, target, Format.Z32_FLOAT, SIZE)
        upload(screen, res, 0, np.full((1, SIZE, 1), DEPTH, np.float32), "GL_DEPTH_COMPONENT")
    elif target == Target.TEXTURE_1D_ARRAY:
        res = make_texture(screen, target, Format.Z32_FLOAT, SIZE, array_size=2)
        upload(screen, res, 0, np.full((2, SIZE, 1), DEPTH, np.float32), "GL_DEPTH_COMPONENT")
    elif target in (Target.TEXTURE_2D, Target.TEXTURE_RECT):
        res = make_texture(screen, target, Format.Z32_FLOAT, SIZE, SIZE)
        upload(screen, res, 0, np.full((SIZE, SIZE, 1), DEPTH, np.float32), "GL_DEPTH_COMPONENT")
    elif target == Target.TEXTURE_2D_ARRAY:
        res = make_texture(screen, target, Format.Z32_FLOAT, SIZE, SIZE, array_size=2)
        upload(screen, res, 0, np.full((2, SIZE, SIZE, 1), DEPTH, np.float32), "GL_DEPTH_COMPONENT")
    elif target == Target.TEXTURE_CUBE:
        res = make_texture(screen, target, Format.Z32_FLOAT, SIZE, SIZE, array_size=6)
        for face in range(6):
            upload(screen, res, 0, np.full((SIZE, SIZE, 1), DEPTH, np.float32), "GL_DEPTH_COMPONENT", face=face)
    else:
        res = make_texture(screen, target, Format.Z32_FLOAT, SIZE, SIZE, array_size=12)
        upload(screen, res, 0, np.full((12, SIZE, SIZE, 1), DEPTH, np.float32), "GL_DEPTH_COMPONENT")
    return res


def depth_view(ctx, res, target_name, swizzle):
    """A view of all of ``res`` as ``target_name`` with ``swizzle``."""
    target = TARGETS[target_name][0]
    last_layer = res.array_size - 1
    return ctx.create_sampler_view(
        res,
        SamplerViewTemplate(
            format=Format.Z32_FLOAT,
            target=target,
            first_layer=0,
            last_layer=last_layer,
            swizzle_r=swizzle[0],
            swizzle_g=swizzle[1],
            swizzle_b=swizzle[2],
            swizzle_a=swizzle[3],
        ),
    )


def comparing_sampler(ctx):
    """NEAREST, clamped, compare_mode R_TO_TEXTURE with PIPE_FUNC_LESS."""
    return ctx.create_sampler_state(
        nearest(
            compare_mode=TexCompare.R_TO_TEXTURE,
            compare_func=Func.LESS,
            wrap_s=TexWrap.CLAMP_TO_EDGE,
            wrap_t=TexWrap.CLAMP_TO_EDGE,
            wrap_r=TexWrap.CLAMP_TO_EDGE,
        )
    )


# -- the lookups: (opcode, TGSI target) -> where the coordinates, the reference and the extra operands go -----

# Coordinates inside the texture (layer 1 for arrays, a cube direction for cubes).
COORDS = {
    "1D": (0.5,),
    "2D": (0.5, 0.5),
    "RECT": (2.0, 2.0),
    "1D_ARRAY": (0.5, 1.0),
    "2D_ARRAY": (0.5, 0.5, 1.0),
    "CUBE": (0.3, -1.0, 0.2),
    "CUBE_ARRAY": (0.3, -1.0, 0.2, 1.0),
}
# Component of src0 holding the reference (tgsi.rst: after the coordinates; cube arrays: src1).
REF_COMPONENT = {"1D": 2, "2D": 2, "RECT": 2, "1D_ARRAY": 2, "2D_ARRAY": 3, "CUBE": 3}

# (opcode, view target): every compare lookup the lowering offers on that target.
LOOKUPS = [
    ("TEX", "1D"),
    ("TEX", "2D"),
    ("TEX", "RECT"),
    ("TEX", "1D_ARRAY"),
    ("TEX", "2D_ARRAY"),
    ("TEX", "CUBE"),
    ("TXB", "1D"),
    ("TXB", "2D"),
    ("TXB", "1D_ARRAY"),
    ("TXL", "1D"),
    ("TXL", "2D"),
    ("TXL", "1D_ARRAY"),
    ("TXD", "1D"),
    ("TXD", "2D"),
    ("TXD", "RECT"),
    ("TXD", "1D_ARRAY"),
    ("TXD", "2D_ARRAY"),
    ("TXD", "CUBE"),
    ("TXP", "1D"),
    ("TXP", "2D"),
    ("TXP", "RECT"),
    ("TXP", "1D_ARRAY"),
    ("TXB2", "CUBE"),
    ("TEX_LZ", "1D"),
    ("TEX_LZ", "2D"),
    ("TEX_LZ", "1D_ARRAY"),
    ("TEX2", "CUBE_ARRAY"),
    ("TXB2", "CUBE_ARRAY"),
    ("TXL2", "CUBE_ARRAY"),
]
GATHERS = ["2D", "RECT", "2D_ARRAY", "CUBE", "CUBE_ARRAY"]


def _shadow_name(target_name):
    return "SHADOW" + target_name.replace("CUBE_ARRAY", "CUBEARRAY")


def _imm(values):
    vals = list(values) + [0.0] * (4 - len(values))
    return "{" + ", ".join(repr(float(v)) for v in vals) + "}"


def lookup_fs(op, target_name):
    """A FS: TEMP[0] = the coordinates (w: bias / lod 0, TXP's q 1), the
    reference IN[0].x in its component (src1 for cube arrays), then ``op``
    on the SHADOW target into OUT[0]."""
    coords = list(COORDS[target_name])
    tgt = TARGETS[target_name][1]
    lines = []
    if target_name == "CUBE_ARRAY":
        src0 = coords
        # TEX2: src1.x = ref; TXB2 / TXL2: src1.x = bias / lod, src1.y = ref.
        ref_dst = "TEMP[1].x" if op == "TEX2" else "TEMP[1].y"
        lines += ["MOV TEMP[1], IMM[1]", f"MOV {ref_dst}, IN[0].xxxx"]
        operands = "TEMP[0], TEMP[1], SAMP[0]"
    else:
        src0 = coords + [0.0] * (4 - len(coords))
        if op == "TXP":
            src0[3] = 1.0  # q = 1: the division changes nothing
        lines.append(f"MOV TEMP[0].{'xyzw'[REF_COMPONENT[target_name]]}, IN[0].xxxx")
        if op == "TXD":
            operands = "TEMP[0], IMM[1], IMM[1], SAMP[0]"  # zero derivatives: level 0
        elif op == "TXB2":
            operands = "TEMP[0], IMM[1], SAMP[0]"  # bias 0
        else:
            operands = "TEMP[0], SAMP[0]"
    body = ["MOV TEMP[0], IMM[0]"] + lines + [f"{op} OUT[0], {operands}, {_shadow_name(target_name)}", "END"]
    return (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
        f"DCL SVIEW[0], {tgt}, FLOAT\nDCL TEMP[0..1]\n"
        f"IMM[0] FLT32 {_imm(src0)}\nIMM[1] FLT32 {_imm([])}\n"
        + "".join(f"{n:3}: {text}\n" for n, text in enumerate(body))
    )


def gather_fs(target_name):
    """A FS: TG4 with a compare on the SHADOW target, reference IN[0].x."""
    coords = list(COORDS[target_name])
    tgt = TARGETS[target_name][1]
    if target_name == "CUBE_ARRAY":
        lines = ["MOV TEMP[1], IMM[1]", "MOV TEMP[1].x, IN[0].xxxx"]
        src1 = "TEMP[1]"
    else:
        lines = [f"MOV TEMP[0].{'xyzw'[REF_COMPONENT[target_name]]}, IN[0].xxxx"]
        src1 = "IMM[1].xxxx"
    body = (
        ["MOV TEMP[0], IMM[0]"] + lines + [f"TG4 OUT[0], TEMP[0], {src1}, SAMP[0], {_shadow_name(target_name)}", "END"]
    )
    return (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
        f"DCL SVIEW[0], {tgt}, FLOAT\nDCL TEMP[0..1]\n"
        f"IMM[0] FLT32 {_imm(coords)}\nIMM[1] FLT32 {_imm([])}\n"
        + "".join(f"{n:3}: {text}\n" for n, text in enumerate(body))
    )


def _caps_say_no(screen, op, target_name, gather=False):
    """The caps (PIPE_CAP_*) that say the lookup cannot be done, by name."""
    no = []
    if target_name == "CUBE_ARRAY" and not screen.get_param(Cap.CUBE_MAP_ARRAY):
        no.append("CUBE_MAP_ARRAY")
    if gather and not screen.get_param(Cap.TEXTURE_GATHER_SM5):
        no.append("TEXTURE_GATHER_SM5")  # TG4 with a compare is an SM5 gather
    return no


# Lookups with an explicit LOD or bias on cube-array shadows need EXT_texture_shadow_lod in
# GLSL; PIPE_CAP_TEXTURE_SHADOW_LOD is 0, so a host without it refuses them at create.
SHADOW_LOD_OPS = {("TXB2", "CUBE_ARRAY"), ("TXL2", "CUBE_ARRAY")}


def _run(screen, ctx, fs, op, target_name, swizzle, gather=False):
    """Draw ``fs`` sampling a depth texture of ``target_name`` through a view
    with ``swizzle``; returns the row of results, or None after checking that
    a refusal is the honest one: UnsupportedError (at create, or at the first
    draw that compiles the variant) only where a cap says no."""
    no = _caps_say_no(screen, op, target_name, gather)
    try:
        res = depth_texture(screen, target_name)
        bind_sampling(ctx, depth_view(ctx, res, target_name, swizzle), comparing_sampler(ctx))
        return _draw(ctx, fs)
    except UnsupportedError as exc:
        if (op, target_name) in SHADOW_LOD_OPS and not no:
            assert not screen.get_param(Cap.TEXTURE_SHADOW_LOD)
            assert "shadow_lod" in str(exc), str(exc)
        else:
            assert no, f"refused although no cap says 0: {exc}"
        return None


def _draw(ctx, fs_tokens, S=None):
    """One row of results: IN[0].x (the reference) runs 0..1 across WIDTH pixels.
    Pass the same ``S`` (Sampling) to reuse its shader CSOs."""
    S = S or Sampling(ctx, WIDTH, 1)
    img = S.draw(fs_tokens, (0.0, 0.5, 0.0, 1.0), (1.0, 0.5, 0.0, 1.0))
    return img[0]


@pytest.mark.parametrize("swizzle_name", list(SWIZZLES))
@pytest.mark.parametrize("op,target_name", LOOKUPS, ids=[f"{o}-{t}" for o, t in LOOKUPS])
def test_shadow_lookup_applies_the_view_swizzle(screen, ctx, op, target_name, swizzle_name):
    """TEX / TXB / TXL / TXD / TXP / TEX2 / TXB2 / TXL2 on every SHADOW target:
    the result is the view swizzle applied to (c, c, c, 1)."""
    swizzle = SWIZZLES[swizzle_name]
    got = _run(screen, ctx, lookup_fs(op, target_name), op, target_name, swizzle)
    if got is None:
        return  # refused, and _run checked that a cap says so
    np.testing.assert_array_equal(
        got, expected_lookup(swizzle), err_msg=f"{op} {target_name} view swizzle {swizzle_name}"
    )


@pytest.mark.parametrize("swizzle_name", list(SWIZZLES))
@pytest.mark.parametrize("target_name", GATHERS)
def test_shadow_gather_compares_the_swizzled_channel(screen, ctx, target_name, swizzle_name):
    """TG4 with a compare: four comparisons of each texel's swizzle_r
    channel, the gathered vector itself not swizzled (llvmpipe)."""
    swizzle = SWIZZLES[swizzle_name]
    got = _run(screen, ctx, gather_fs(target_name), "TG4", target_name, swizzle, gather=True)
    if got is None:
        return  # refused, and _run checked that a cap says so
    np.testing.assert_array_equal(
        got, expected_gather(swizzle), err_msg=f"TG4 {target_name} view swizzle {swizzle_name}"
    )


@pytest.mark.parametrize("op", ["SAMPLE_C", "SAMPLE_C_LZ"])
@pytest.mark.parametrize("swizzle_name", ["RED", "ALPHA", "one_x_zero_y"])
def test_sample_c_applies_the_view_swizzle_then_the_operand_swizzle(screen, ctx, swizzle_name, op):
    """SAMPLE_C / SAMPLE_C_LZ compare too: view swizzle on (c, c, c, 1), then
    the SVIEW operand's swizzle (tgsi.rst) -- here .wzyx."""
    res = depth_texture(screen, "2D")
    swizzle = SWIZZLES[swizzle_name]
    view = depth_view(ctx, res, "2D", swizzle)
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
        "DCL TEMP[0]\nIMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\n"
        f"  0: MOV TEMP[0], IMM[0]\n  1: {op} OUT[0], TEMP[0], SVIEW[0].wzyx, SAMP[0], IN[0].xxxx\n  2: END\n"
    )
    bind_sampling(ctx, view, comparing_sampler(ctx))
    want = expected_lookup(swizzle)[:, [3, 2, 1, 0]]
    np.testing.assert_array_equal(_draw(ctx, fs), want)


def test_views_of_one_class_share_a_variant(screen, ctx):
    """The key holds the swizzle class a view gives the comparison vector,
    worked out at create_sampler_view: views whose swizzles give the same
    vector need no new variant; a new class compiles one on first use, and
    returning to a class seen before compiles nothing."""
    res = depth_texture(screen, "2D")
    smp = comparing_sampler(ctx)
    red = depth_view(ctx, res, "2D", SWIZZLES["RED"])
    red_too = depth_view(ctx, res, "2D", (Y, ZERO, ZERO, W))  # Y of (c, c, c, 1) is c, W is 1: RED's vector
    alpha = depth_view(ctx, res, "2D", SWIZZLES["ALPHA"])
    fs = lookup_fs("TEX", "2D")
    counters = screen.counters
    S = Sampling(ctx, WIDTH, 1)
    bind_sampling(ctx, red, smp)
    np.testing.assert_array_equal(_draw(ctx, fs, S), expected_lookup(SWIZZLES["RED"]))
    before = counters.shader_variants
    bind_sampling(ctx, red_too, smp)
    np.testing.assert_array_equal(_draw(ctx, fs, S), expected_lookup((Y, ZERO, ZERO, W)))
    assert counters.shader_variants == before
    bind_sampling(ctx, alpha, smp)
    np.testing.assert_array_equal(_draw(ctx, fs, S), expected_lookup(SWIZZLES["ALPHA"]))
    assert counters.shader_variants == before + 1
    bind_sampling(ctx, red, smp)
    np.testing.assert_array_equal(_draw(ctx, fs, S), expected_lookup(SWIZZLES["RED"]))
    assert counters.shader_variants == before + 1


def test_non_shadow_shader_needs_no_variant_for_depth_swizzles(screen, ctx):
    """A shader without compare lookups keeps its variant whatever the
    depth views' swizzles; it reads the swizzled depth (X = d of (d, 0, 0, 1))."""
    res = depth_texture(screen, "2D")
    smp = ctx.create_sampler_state(nearest(wrap_s=TexWrap.CLAMP_TO_EDGE, wrap_t=TexWrap.CLAMP_TO_EDGE))
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
        "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n"
    )
    counters = screen.counters
    S = Sampling(ctx, WIDTH, 1)
    before = None
    for name in ("RED", "ALPHA", "INTENSITY", "one_x_zero_y"):
        swizzle = SWIZZLES[name]
        bind_sampling(ctx, depth_view(ctx, res, "2D", swizzle), smp)
        got = _draw(ctx, fs, S)
        texel = np.array([[DEPTH, 0.0, 0.0, 1.0]] * WIDTH)
        np.testing.assert_array_equal(got, gallium_swizzle(texel, swizzle), err_msg=name)
        if before is None:
            before = counters.shader_variants
    assert counters.shader_variants == before


def test_two_stages_keep_their_own_views(screen, ctx):
    """The class is per stage and slot: a VS and a FS compare through views
    with different swizzles in one draw."""
    smp = comparing_sampler(ctx)
    vs = (
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL SAMP[0]\n"
        "DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] FLT32 {0.5, 0.5, 0.25, 0.0}\n"
        "  0: MOV OUT[0], IN[0]\n  1: MOV TEMP[0], IMM[0]\n"
        "  2: TXL OUT[1], TEMP[0], SAMP[0], SHADOW2D\n  3: END\n"
    )
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
        "DCL TEMP[0]\nIMM[0] FLT32 {0.5, 0.5, 0.75, 0.0}\n"
        "  0: MOV TEMP[0], IMM[0]\n  1: TEX TEMP[0], TEMP[0], SAMP[0], SHADOW2D\n"
        "  2: ADD OUT[0], TEMP[0], IN[0]\n  3: END\n"
    )
    vs_swizzle, fs_swizzle = SWIZZLES["ALPHA"], SWIZZLES["one_x_zero_y"]
    S = Sampling(ctx, 2, 1)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    for stage, swizzle in ((ShaderType.VERTEX, vs_swizzle), (ShaderType.FRAGMENT, fs_swizzle)):
        # One texture each: without texture views (gl33) one GL texture holds one swizzle.
        bind_sampling(ctx, depth_view(ctx, depth_texture(screen, "2D"), "2D", swizzle), smp, stage=stage)
    got = S.draw(fs, (0, 0, 0, 0), (0, 0, 0, 0))
    # VS reference 0.25 (c = 1: ZERO differs from c), FS 0.75 (c = 0: ONE differs from c).
    vs_c, fs_c = compare_less(0.25, DEPTH), compare_less(0.75, DEPTH)
    want = gallium_swizzle(np.array([vs_c, vs_c, vs_c, 1.0]), vs_swizzle) + gallium_swizzle(
        np.array([fs_c, fs_c, fs_c, 1.0]), fs_swizzle
    )
    np.testing.assert_array_equal(got, np.broadcast_to(want, got.shape))


def test_one_sampler_gathering_and_comparing_through_a_non_red_view_is_refused(screen, ctx):
    """TG4 needs the view's GL swizzle (it picks the compared channel), the
    other comparing lookups the compare twin: one GLSL sampler doing both
    through a view whose red is not X cannot have both, and the draw says so;
    with red X both are right in one draw."""
    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
        "DCL TEMP[0..1]\nIMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\n"
        "  0: MOV TEMP[0], IMM[0]\n  1: MOV TEMP[0].z, IN[0].xxxx\n"
        "  2: TEX TEMP[1], TEMP[0], SAMP[0], SHADOW2D\n"
        "  3: TG4 TEMP[0], TEMP[0], IMM[0].zzzz, SAMP[0], SHADOW2D\n"
        "  4: MOV OUT[0].xy, TEMP[1].xwxx\n  5: MOV OUT[0].zw, TEMP[0].xxxy\n  6: END\n"
    )
    smp = comparing_sampler(ctx)
    res = depth_texture(screen, "2D")
    S = Sampling(ctx, WIDTH, 1)
    c = compare_less(REFS, DEPTH)
    want = np.stack([c, np.ones_like(c), c, c], axis=-1)  # TEX .x, .w (= 1); TG4 .x, .y
    if not screen.profile.has("texture_gather"):
        # gl33: TG4 is four comparing lookups of the bound sampler (lowering/glsl/texture_emul.py)
        bind_sampling(ctx, depth_view(ctx, res, "2D", SWIZZLES["RED"]), smp)
        np.testing.assert_array_equal(_draw(ctx, fs, S), want)
        return
    if not screen.get_param(Cap.TEXTURE_GATHER_SM5):
        bind_sampling(ctx, depth_view(ctx, res, "2D", SWIZZLES["RED"]), smp)
        with pytest.raises(UnsupportedError):
            _draw(ctx, fs, S)
        return
    bind_sampling(ctx, depth_view(ctx, res, "2D", SWIZZLES["LUMINANCE"]), smp)
    np.testing.assert_array_equal(_draw(ctx, fs, S), want)
    bind_sampling(ctx, depth_view(ctx, res, "2D", SWIZZLES["ALPHA"]), smp)
    with pytest.raises(UnsupportedError, match=r"SVIEW\[0\].*TG4"):
        _draw(ctx, fs, S)


def test_switching_views_touches_the_key_only_on_a_class_change(screen, ctx):
    """set_sampler_views sets Dirty.PROGRAM only when a slot's comparison
    class changes: never for colour views, never between depth views of one
    class."""
    from glpipe.dirty import Dirty

    res = depth_texture(screen, "2D")
    color = make_texture(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, SIZE, SIZE)
    rgba = ctx.create_sampler_view(color, SamplerViewTemplate(format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D))
    bgr1 = ctx.create_sampler_view(
        color,
        SamplerViewTemplate(
            format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D, swizzle_r=Z, swizzle_g=Y, swizzle_b=X, swizzle_a=ONE
        ),
    )
    red, red_too = (depth_view(ctx, res, "2D", s) for s in (SWIZZLES["RED"], (Y, ZERO, ZERO, W)))
    alpha = depth_view(ctx, res, "2D", SWIZZLES["ALPHA"])
    identity = depth_view(ctx, res, "2D", SWIZZLES["identity"])
    steps = [
        (rgba, False),
        (bgr1, False),
        (identity, False),
        (red, True),
        (red_too, False),
        (alpha, True),
        (None, True),
        (rgba, False),
    ]
    for view, program in steps:
        ctx.dirty &= ~Dirty.PROGRAM
        ctx.set_sampler_views(ShaderType.FRAGMENT, 3, [view])
        assert bool(ctx.dirty & Dirty.PROGRAM) == program, view
    # The general path (several views at once) keeps the same rule.
    ctx.dirty &= ~Dirty.PROGRAM
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [rgba, bgr1])
    assert not ctx.dirty & Dirty.PROGRAM
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [alpha, rgba])
    assert ctx.dirty & Dirty.PROGRAM
    ctx.dirty &= ~Dirty.PROGRAM
    ctx.sampler_view_destroy(alpha)  # unbinds it: slot 0's class goes back to the identity
    assert ctx.dirty & Dirty.PROGRAM


def test_variant_key_field_is_checked_and_parsed():
    """VariantKey.shadow_swizzle: (sview, four class entries of 0 (c), 4 (0.0),
    5 (1.0)); the CLI form is ``sview:xxxx`` with x one of c, 0, 1."""
    from lowering.errors import InvalidArgumentError
    from lowering.glsl.variant import VariantKey

    assert VariantKey.parse(["shadow_swizzle=0:c001,3:000c"]).shadow_swizzle == ((0, (0, 4, 4, 5)), (3, (4, 4, 4, 0)))
    for bad in (((0, (0, 0, 0, 3)),), ((128, (0, 0, 0, 5)),), ((0, (0, 0, 5)),), (5,), ((0, 5),)):
        with pytest.raises(InvalidArgumentError, match="shadow_swizzle"):
            VariantKey(shadow_swizzle=bad)
    with pytest.raises(InvalidArgumentError, match="shadow_swizzle"):
        VariantKey.parse(["shadow_swizzle=0:cx01"])


@pytest.mark.parametrize(
    "decls",
    [
        "DCL SAMP[0..1]\nDCL SVIEW[0..1], 2D, FLOAT\n",
        "DCL SAMP[0]\nDCL SAMP[1]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], 2D, FLOAT\n",
    ],
    ids=["range", "one_by_one"],
)
def test_indexed_shadow_lookup_applies_each_views_swizzle(screen, ctx, decls):
    """TEX SAMP[ADDR[0].x] on SHADOW2D: the element picked at run time
    compares through its own view's swizzle (views of different classes in
    one sampler range)."""
    from glpipe import ConstantBuffer

    fs = (
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
        + decls
        + "DCL CONST[0][0]\nDCL ADDR[0]\nDCL TEMP[0]\nIMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\n"
        "  0: UARL ADDR[0].x, CONST[0][0].xxxx\n  1: MOV TEMP[0], IMM[0]\n  2: MOV TEMP[0].z, IN[0].xxxx\n"
        "  3: TEX OUT[0], TEMP[0], SAMP[ADDR[0].x], SHADOW2D\n  4: END\n"
    )
    smp = comparing_sampler(ctx)
    swizzles = (SWIZZLES["RED"], SWIZZLES["ALPHA"])
    # One texture each: without texture views (gl33) one GL texture holds one swizzle.
    views = [depth_view(ctx, depth_texture(screen, "2D"), "2D", s) for s in swizzles]
    ctx.set_sampler_views(ShaderType.FRAGMENT, 0, views)
    ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [smp, smp])
    S = Sampling(ctx, WIDTH, 1)
    for index in (1, 0, 1):
        ctx.set_constant_buffer(
            ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=np.array([index, 0, 0, 0], np.uint32))
        )
        np.testing.assert_array_equal(_draw(ctx, fs, S), expected_lookup(swizzles[index]), err_msg=f"index {index}")
