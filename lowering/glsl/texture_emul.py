"""GLSL 3.30 forms of the texture queries and gathers that GLSL 4.x has built in
(``query_levels``, ``gather``, ``query_lod``).

docs/lowering.md "Texture queries and gathers on GLSL 3.30" states the rules and costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UnsupportedError
from .exprs import Expr, call, type_name
from .indexing import active
from .sysval_block import STAGE_NUMBER, sampler_lod_index, view_levels_word
from .texture_gather_cube import cube_gather


def query_levels(em, view: int) -> Expr:
    """The number of mip levels of the view bound at SVIEW / SAMP ``view`` of
    this stage, from ``sysvals.view_levels`` (an int expression).  Inside an
    indexed lookup (``indexing.py``) the element's view is the array index's."""
    em.use_sysvals()
    stage = STAGE_NUMBER[em.proc]
    array = active(em)
    if array is None:
        word = view_levels_word(stage, view)
        return Expr(f"int(sysvals.view_levels[{word // 4}][{word % 4}])", "int", 1, True)
    views = array.indexing.indices("SVIEW") or (view,) * array.count
    words = ", ".join(f"{view_levels_word(stage, v)}" for v in views)
    word = f"int[{len(views)}]({words})[{array.index}]"
    return Expr(f"int(sysvals.view_levels[{word} >> 2][{word} & 3])", "int", 1, True)


# ---------------------------------------------------------------------------
# TG4: four texel fetches
# ---------------------------------------------------------------------------
#
# GL 4.x section 8.14.2: textureGather returns component ``comp`` of the four
# texels (i0, j1), (i1, j1), (i1, j0), (i0, j0) that LINEAR filtering of the
# base level would read at P (i0 = floor(u * w - 0.5), i1 = i0 + 1, likewise
# j), each after the wrap mode (or the border colour), the view swizzle and,
# for a shadow sampler, the depth comparison.  textureGatherOffset moves the
# footprint; with textureGatherOffsets texel k is the (i0, j0) texel of the
# footprint at P + offsets[k] (GLSL 4.00 section 8.9.3).
#
# A texel inside the level is a texelFetch (exact: no filtering, no lod).  A
# texel outside it, and every texel of a shadow sampler, is a textureGrad
# with zero derivatives at the texel's centre through the bound sampler: the
# host applies its wrap mode, border colour and comparison there, exactly as
# for its own gather.  (A centre is exact in float for power-of-two sizes; with
# LINEAR filtering of a non-power-of-two level the rounded centre may blend
# in a neighbour with a weight of the order of 2^-20.)


@dataclass(frozen=True)
class GatherTarget:
    """How the four texels of one GLSL sampler kind are fetched."""

    coords: int  # components of the texel address (layer included)
    rect: bool = False  # unnormalized coordinates, no lod argument
    array: bool = False  # the last coordinate is a layer


GATHER_TARGETS = {
    "2D": GatherTarget(2),
    "2DArray": GatherTarget(3, array=True),
    "2DRect": GatherTarget(2, rect=True),
}

_CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))  # GL's gather order: i0j1, i1j1, i1j0, i0j0


def _texel_helper(em, stype: str, row: GatherTarget, ret: str, shadow: bool) -> str:
    """``glp_gtexel_<sampler type>(s, texel, size[, ref])``: one texel of the footprint (see above)."""
    iv = f"ivec{row.coords}"
    name = f"glp_gtexel_{stype}"
    xy = "t.xy" if row.array else "t"
    size_xy = "size.xy" if row.array else "size"
    centre = f"(vec2({xy}) + 0.5)" if row.rect else f"(vec2({xy}) + 0.5) / vec2({size_xy})"
    if row.array:
        centre = f"vec3({centre}, float(t.z))"
    zero = "vec2(0.0)"
    if shadow:
        lines = [
            f"float {name}({stype} s, {iv} t, {iv} size, float ref)",
            "{",
            f"    return textureGrad(s, vec{row.coords + 1}({centre}, ref), {zero}, {zero});",
            "}",
        ]
    else:
        lod = "" if row.rect else ", 0"
        inside = f"all(greaterThanEqual({xy}, ivec2(0))) && all(lessThan({xy}, {size_xy}))"
        lines = [
            f"{type_name(ret, 4)} {name}({stype} s, {iv} t, {iv} size)",
            "{",
            f"    if ({inside})",
            f"        return texelFetch(s, t{lod});",
            f"    return textureGrad(s, {centre}, {zero}, {zero});",
            "}",
        ]
    return em.helper(name, "\n".join(lines))


def gather(
    em,
    s: str,
    stype: str,
    glsl_kind: str,
    coords: Expr,
    comp: int,
    offsets: Sequence[Expr] | None,
    ref: Expr | None,
    ret: str,
    four: bool = False,
    sampler: int = 0,
) -> Expr:
    """TG4 without textureGather: component ``comp`` (ignored for a shadow
    sampler, whose texels are comparison results against ``ref``) of the four
    footprint texels of ``coords``, moved by ``offsets`` (four ivec2, all the
    same for one offset, or None); ``four``: TG4's four offsets, texel k the
    (i0, j0) texel of the footprint at P + offsets[k]; ``sampler``: the SAMP
    slot, whose seamless_cube_map a cube gather reads (texture_gather_cube.py)."""
    if glsl_kind == "Cube":
        return cube_gather(em, s, stype, coords, comp, ref, ret, _sampler_seamless(em, sampler), offsets)
    row = GATHER_TARGETS.get(glsl_kind)
    if row is None:
        raise UnsupportedError(f"TG4 on a {glsl_kind} sampler needs GLSL 400 or GL_ARB_texture_gather")
    shadow = ref is not None
    texel = _texel_helper(em, stype, row, ret, shadow)
    iv = f"ivec{row.coords}"
    vec = type_name(ret, 4)
    name = f"glp_gather_{stype}" + ("" if shadow else f"_{'xyzw'[comp]}") + ("_offsets" if four else "")
    corners = ((0, 0),) * 4 if four else _CORNERS
    pick = "" if shadow else f".{'xyzw'[comp]}"
    refarg = ", ref" if shadow else ""
    lines = [
        f"{vec} {name}({stype} s, vec{row.coords} P{', float ref' if shadow else ''}, "
        f"ivec2 o0, ivec2 o1, ivec2 o2, ivec2 o3)",
        "{",
        f"    {iv} size = {'textureSize(s)' if row.rect else 'textureSize(s, 0)'};",
    ]
    if row.array:
        # the layer: floor(z + 0.5) clamped to the view's layers (GL 4.x section 8.14.2)
        lines += [
            "    vec2 f = P.xy * vec2(size.xy) - 0.5;",
            "    ivec3 b = ivec3(ivec2(floor(f)), clamp(int(floor(P.z + 0.5)), 0, size.z - 1));",
        ]
        at = [f"b + ivec3({i}, {j}, 0) + ivec3(o{k}, 0)" for k, (i, j) in enumerate(corners)]
    else:
        lines += [f"    vec2 f = P{'' if row.rect else ' * vec2(size)'} - 0.5;", "    ivec2 b = ivec2(floor(f));"]
        at = [f"b + ivec2({i}, {j}) + o{k}" for k, (i, j) in enumerate(corners)]
    texels = [f"{texel}(s, {a}, size{refarg}){pick}" for a in at]
    lines += [f"    return {vec}(", "        " + ",\n        ".join(texels) + ");", "}"]
    em.helper(name, "\n".join(lines))
    offs = [o.text for o in offsets] if offsets is not None else ["ivec2(0)"] * 4
    args = [s, coords.text] + ([ref.text] if shadow else []) + offs
    return call(f"{name}({', '.join(args)})", ret, 4)


def _sampler_seamless(em, sampler: int) -> str:
    """GLSL bool: whether the sampler state at SAMP ``sampler`` of this stage has
    seamless_cube_map (``sysvals.sampler_seamless``, written by bind_sampler_states;
    inside an indexed lookup the element's word through a constant table)."""
    em.use_sysvals()
    word = _slot_word(em, sampler, "SAMP", sampler_lod_index)
    if word.isdigit():
        w = int(word)
        return f"(sysvals.sampler_seamless[{w // 4}][{w % 4}] != 0u)"
    return f"(sysvals.sampler_seamless[({word}) >> 2][({word}) & 3] != 0u)"


# ---------------------------------------------------------------------------
# LODQ: textureQueryLod from the GL formula
# ---------------------------------------------------------------------------
#
# GL 4.x section 8.14.1: rho = max(|d(u, v, w)/dx|, |d(u, v, w)/dy|) with u, v, w the
# coordinates times the base level's size (cube: the face coordinates s, t of the
# major axis, section 8.13), lambda = log2(rho) + the sampler's lod_bias.  GLSL 4.00
# section 8.9.1 (textureQueryLod): .y is lambda, .x the level accessed: lambda
# clamped to [min_lod, max_lod], then to [0, levels - 1] of the view, then 0 without
# mipmapping, ceil(l + 0.5) - 1 with NEAREST mipmapping, l with LINEAR.

_LODQ_SELECT = """vec2 glp_lodq_select(float lambda, vec4 smp, int levels)
{
    float l = min(max(lambda, smp.y), smp.z);
    l = clamp(l, 0.0, max(float(levels - 1), 0.0));
    float x = smp.w == 0.0 ? 0.0 : (smp.w == 1.0 ? ceil(l + 0.5) - 1.0 : l);
    return vec2(x, lambda);
}"""

# GLSL sampler kind -> (coordinate components, how textureSize(s, 0) gives their size)
_LODQ_KINDS = {
    "1D": (1, "float(textureSize(s, 0))"),
    "2D": (2, "vec2(textureSize(s, 0))"),
    "3D": (3, "vec3(textureSize(s, 0))"),
    "1DArray": (1, "float(textureSize(s, 0).x)"),
    "2DArray": (2, "vec2(textureSize(s, 0).xy)"),
    "Cube": (3, "float(textureSize(s, 0).x)"),
}

# The face coordinates of a cube direction and their derivatives: the major axis m
# of P (x wins ties over y, y over z), s, t = 0.5 * (P[a], P[b]) / |P[m]| + 0.5 up to
# sign, whose derivatives are 0.5 * (dP[ab] |P[m]| - P[ab] d|P[m]|) / P[m]^2.
_CUBE_RHO = """    vec3 a = abs(P);
    int m = (a.x >= a.y && a.x >= a.z) ? 0 : (a.y >= a.z ? 1 : 2);
    int i = m == 0 ? 1 : 0;
    int j = m == 2 ? 1 : 2;
    float am = a[m], sm = P[m] < 0.0 ? -1.0 : 1.0;
    vec3 ddx = dFdx(P), ddy = dFdy(P);
    vec2 q = vec2(P[i], P[j]);
    vec2 dx = 0.5 * (vec2(ddx[i], ddx[j]) * am - q * (sm * ddx[m])) / (am * am) * size;
    vec2 dy = 0.5 * (vec2(ddy[i], ddy[j]) * am - q * (sm * ddy[m])) / (am * am) * size;"""


def _slot_word(em, index: int, file: str, word_of) -> str:
    """GLSL int expression of ``word_of(stage, slot)`` for SVIEW / SAMP ``index``
    (inside an indexed lookup: the element's slot through a constant table)."""
    stage = STAGE_NUMBER[em.proc]
    array = active(em)
    if array is None:
        return str(word_of(stage, index))
    slots = array.indexing.indices(file) or (index,) * array.count
    return f"int[{len(slots)}]({', '.join(str(word_of(stage, k)) for k in slots)})[{array.index}]"


def query_lod(em, s: str, stype: str, glsl_kind: str, coords: Expr, view: int, sampler: int) -> Expr:
    """textureQueryLod(s, coords) for the view at SVIEW ``view`` sampled with the
    sampler at SAMP ``sampler`` (vec2; see above)."""
    kind = _LODQ_KINDS.get(glsl_kind)
    if kind is None:
        raise UnsupportedError(f"LODQ on a {glsl_kind} sampler needs GLSL 400 or GL_ARB_texture_query_lod")
    n, size = kind
    em.use_sysvals()
    em.helper("glp_lodq_select", _LODQ_SELECT)
    name = f"glp_lodq_{stype}"
    vt = type_name("float", n)
    if glsl_kind == "Cube":
        rho = [f"    float size = {size};", _CUBE_RHO]
    else:
        rho = [f"    {vt} size = {size};", f"    {vt} dx = dFdx(P) * size, dy = dFdy(P) * size;"]
    code = [
        f"vec2 {name}({stype} s, {vt} P, vec4 smp, int levels)",
        "{",
        *rho,
        "    float rho = max(length(dx), length(dy));",
        "    return glp_lodq_select(log2(rho) + smp.x, smp, levels);",
        "}",
    ]
    em.helper(name, "\n".join(code))
    smp = f"sysvals.sampler_lod[{_slot_word(em, sampler, 'SAMP', sampler_lod_index)}]"
    return call(f"{name}({s}, {coords.text}, {smp}, {query_levels(em, view).text})", "float", 2)


__all__ = ["query_levels", "gather", "query_lod", "GATHER_TARGETS", "GatherTarget"]
