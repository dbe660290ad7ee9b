"""GLSL 3.30 forms of the texture queries and gathers that GLSL 4.x has built in.

``texture.py`` asks the features table first and uses the built-in where the
host has it (the native profile); without it (gl33) it calls these:

* ``query_levels`` -- TXQ / SVIEWINFO ``.w`` (textureQueryLevels, GLSL 4.30):
  the level count of the bound view, which the context writes into the
  sysvals block when the view is bound (``sysval_block.view_levels``).
* ``gather`` -- TG4 (textureGather*, GLSL 4.00): the four texels of the
  bilinear footprint, each fetched on its own; ``GATHER_TARGETS`` says how
  per GLSL sampler kind.

docs/lowering.md ("Texture queries and gathers on GLSL 3.30") states the
rules each form follows and what it costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..errors import UnsupportedError
from .exprs import Expr, call, type_name
from .indexing import active
from .sysval_block import STAGE_NUMBER, view_levels_word


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

    coords: int          # components of the texel address (layer included)
    rect: bool = False   # unnormalized coordinates, no lod argument
    array: bool = False  # the last coordinate is a layer


GATHER_TARGETS = {
    "2D": GatherTarget(2),
    "2DArray": GatherTarget(3, array=True),
    "2DRect": GatherTarget(2, rect=True),
}

_CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))     # GL's gather order: i0j1, i1j1, i1j0, i0j0


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
        lines = [f"float {name}({stype} s, {iv} t, {iv} size, float ref)", "{",
                 f"    return textureGrad(s, vec{row.coords + 1}({centre}, ref), {zero}, {zero});", "}"]
    else:
        lod = "" if row.rect else ", 0"
        inside = f"all(greaterThanEqual({xy}, ivec2(0))) && all(lessThan({xy}, {size_xy}))"
        lines = [f"{type_name(ret, 4)} {name}({stype} s, {iv} t, {iv} size)", "{",
                 f"    if ({inside})", f"        return texelFetch(s, t{lod});",
                 f"    return textureGrad(s, {centre}, {zero}, {zero});", "}"]
    return em.helper(name, "\n".join(lines))


def gather(em, s: str, stype: str, glsl_kind: str, coords: Expr, comp: int, offsets: Optional[Sequence[Expr]],
           ref: Optional[Expr], ret: str, four: bool = False) -> Expr:
    """TG4 without textureGather: component ``comp`` (ignored for a shadow
    sampler, whose texels are comparison results against ``ref``) of the four
    footprint texels of ``coords``, moved by ``offsets`` (four ivec2, all the
    same for one offset, or None); ``four``: TG4's four offsets, texel k the
    (i0, j0) texel of the footprint at P + offsets[k]."""
    row = GATHER_TARGETS.get(glsl_kind)
    if row is None:
        raise UnsupportedError(f"TG4 on a {glsl_kind} sampler needs GLSL 400 or GL_ARB_texture_gather: the "
                               f"footprint of a cube crosses faces by the sampler's seamless_cube_map rule, "
                               f"which a GLSL 3.30 shader cannot see")
    shadow = ref is not None
    texel = _texel_helper(em, stype, row, ret, shadow)
    iv = f"ivec{row.coords}"
    vec = type_name(ret, 4)
    name = f"glp_gather_{stype}" + ("" if shadow else f"_{'xyzw'[comp]}") + ("_offsets" if four else "")
    corners = ((0, 0),) * 4 if four else _CORNERS
    pick = "" if shadow else f".{'xyzw'[comp]}"
    refarg = ", ref" if shadow else ""
    lines = [f"{vec} {name}({stype} s, vec{row.coords} P{', float ref' if shadow else ''}, "
             f"ivec2 o0, ivec2 o1, ivec2 o2, ivec2 o3)", "{",
             f"    {iv} size = {'textureSize(s)' if row.rect else 'textureSize(s, 0)'};"]
    if row.array:
        # the layer: floor(z + 0.5) clamped to the view's layers (GL 4.x section 8.14.2)
        lines += ["    vec2 f = P.xy * vec2(size.xy) - 0.5;",
                  "    ivec3 b = ivec3(ivec2(floor(f)), clamp(int(floor(P.z + 0.5)), 0, size.z - 1));"]
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


__all__ = ["query_levels", "gather", "GATHER_TARGETS", "GatherTarget"]
