"""TG4 on a cube map in GLSL 3.30: the four texels of the footprint, across faces.

docs/lowering.md "Texture queries and gathers on GLSL 3.30" states the rules and
their costs; ``texture_emul.gather`` calls ``cube_gather`` for CUBE / SHADOWCUBE.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from .exprs import Expr, call, type_name

# ---------------------------------------------------------------------------
# The rules (GL 4.5 sections 8.13 and 8.14.2)
# ---------------------------------------------------------------------------
#
# Face selection (Table 8.19): the face is the direction's major axis m and the
# sign bit of r_m (GL leaves ties open; llvmpipe's cube lookup, the native
# profile, lets z win over y and y over x, as D3D10 asks, and so does this); its face
# coordinates are s = 0.5 * sc / |r_m| + 0.5, t likewise, with sc, tc the
# components ``FACES`` names.  textureGather reads the base level's LINEAR
# footprint there: i0 = floor(s * n - 0.5), i1 = i0 + 1, likewise j, in GL's
# order (i0, j1), (i1, j1), (i1, j0), (i0, j0).
#
# A texel (i, j) of face f is addressed by its centre's direction, kept in
# integers scaled by n (two units per texel): Q = n * M_f + (2i + 1 - n) * S_f +
# (2j + 1 - n) * T_f.  Inside the face |Q_m| = n is the only component of that
# size, so the host selects face f and s = (2i + 1) / 2n: the texel's centre,
# read through the bound sampler with zero derivatives (GLSL 3.30 has no
# texelFetch on a cube; at a centre NEAREST and LINEAR agree, see
# docs/lowering.md for the rounding of a centre on a non-power-of-two face).
#
# With seamless_cube_map (section 8.14.2's "seamless cube map filtering"), a
# texel one row off an edge is the adjacent face's texel that the direction
# through its centre selects.  That direction has |Q| = n + 1 on the outgoing
# axis; on the adjacent face the texel is the edge row (the old major axis one
# texel inside: |Q_m| = n - 1), the same texel along the edge, the new major
# |Q| = n: so the fold is "every component of magnitude >= n steps one unit
# towards 0" -- no table of edge neighbours, and exact in integers.  A texel off
# a corner (outside in i and j) has no such texel: section 8.13.1 leaves it to
# the implementation; llvmpipe (the native profile) gives the average of the
# footprint's three other texels, and so does this (float: their sum in gather
# order times float(1/3); a shadow gather averages the three comparisons; integer
# texels, which have no average, take the texel beside it in the same column).
#
# Without seamless_cube_map the footprint stays on the face: llvmpipe clamps it
# to the face's edge whatever the wrap modes (measured on the native profile:
# REPEAT, MIRROR_REPEAT, CLAMP and CLAMP_TO_BORDER all read as CLAMP_TO_EDGE on
# a cube), so the indices are clamped.  The sampler's seamless_cube_map bit is
# ``sysvals.sampler_seamless`` (bind_sampler_states writes it: no recompile).

# Table 8.19, one row per face (+X, -X, +Y, -Y, +Z, -Z): the major axis M and the
# axes whose components are sc and tc, as unit vectors (sc = S . r, tc = T . r).
FACES = (
    ((1, 0, 0), (0, 0, -1), (0, -1, 0)),
    ((-1, 0, 0), (0, 0, 1), (0, -1, 0)),
    ((0, 1, 0), (1, 0, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
    ((0, 0, 1), (1, 0, 0), (0, -1, 0)),
    ((0, 0, -1), (-1, 0, 0), (0, -1, 0)),
)

_CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))  # GL's gather order: i0j1, i1j1, i1j0, i0j0
# An integer texel off a corner: the footprint texel of the same column (i0j1 <-> i0j0,
# i1j1 <-> i1j0), llvmpipe's choice (measured on the native profile).
CORNER_PARTNER = (3, 2, 1, 0)


def _table(name: str, column: int) -> str:
    """``const ivec3 name[6]``: column ``column`` of ``FACES``."""
    rows = ", ".join(f"ivec3({', '.join(str(c) for c in face[column])})" for face in FACES)
    return f"const ivec3 {name}[6] = ivec3[6]({rows});"


_FACE_TABLES = "\n".join(
    [
        "// GL 4.5 Table 8.19: major axis, sc axis, tc axis of faces +X, -X, +Y, -Y, +Z, -Z",
        _table("glp_cube_m", 0),
        _table("glp_cube_s", 1),
        _table("glp_cube_t", 2),
    ]
)

# The direction of the centre of texel t of face f (n texels a side); with
# ``seamless`` a texel off an edge folds onto the adjacent face (see above),
# without it the footprint is clamped to the face.
_TEXEL_DIR = """vec3 glp_cube_texel_dir(int f, ivec2 t, int n, bool seamless)
{
    if (!seamless)
        t = clamp(t, ivec2(0), ivec2(n - 1));
    ivec3 q = n * glp_cube_m[f] + (2 * t.x + 1 - n) * glp_cube_s[f] + (2 * t.y + 1 - n) * glp_cube_t[f];
    ivec3 a = abs(q);
    if (any(greaterThan(a, ivec3(n))))
        q -= sign(q) * ivec3(greaterThanEqual(a, ivec3(n)));
    return vec3(q);
}"""

# Face f and footprint origin (i0, j0) of direction P on a face of n texels.
_FOOTPRINT = """ivec3 glp_cube_footprint(vec3 P, int n)
{
    vec3 a = abs(P);
    int m = a.z >= max(a.x, a.y) ? 2 : (a.x > a.y ? 0 : 1);
    int f = 2 * m + (floatBitsToInt(P[m]) < 0 ? 1 : 0);
    vec2 sc = vec2(dot(P, vec3(glp_cube_s[f])), dot(P, vec3(glp_cube_t[f])));
    vec2 st = sc * (0.5 / a[m]) + 0.5;
    return ivec3(f, ivec2(floor(st * float(n) - 0.5)));
}"""


def cube_gather(
    em, s: str, stype: str, coords: Expr, comp: int, ref: Expr | None, ret: str, seamless: str, offsets
) -> Expr:
    """TG4 of component ``comp`` (or, with ``ref``, the four comparisons) of a
    cube sampler ``s`` of GLSL type ``stype`` at direction ``coords``; ``seamless``:
    the GLSL bool of the bound sampler's seamless_cube_map (texture_emul.py reads it
    from the sysvals block).  See the rules above."""
    if offsets is not None:
        raise UnsupportedError("TG4 on a cube with texel offsets: GLSL's textureGatherOffset takes none on a cube")
    em.helper("glp_cube_faces", _FACE_TABLES)
    em.helper("glp_cube_texel_dir", _TEXEL_DIR)
    em.helper("glp_cube_footprint", _FOOTPRINT)
    shadow = ref is not None
    vec = type_name(ret, 4)
    name = f"glp_gather_{stype}" + ("" if shadow else f"_{'xyzw'[comp]}")
    zero = "vec3(0.0)"
    if shadow:
        fetch = [
            f"textureGrad(s, vec4(glp_cube_texel_dir(b.x, b.yz + ivec2({i}, {j}), n, seamless), ref), {zero}, {zero})"
            for i, j in _CORNERS
        ]
    else:
        fetch = [
            f"textureGrad(s, glp_cube_texel_dir(b.x, b.yz + ivec2({i}, {j}), n, seamless), {zero}, {zero}).{'xyzw'[comp]}"
            for i, j in _CORNERS
        ]
    # The corner texel's value: the three others' average in gather order; integer
    # texels have none, and take the texel of the same column (CORNER_PARTNER).
    avg = []
    for k in range(4):
        others = [m for m in range(4) if m != k]
        if ret == "float":
            avg.append(f"(v[{others[0]}] + v[{others[1]}] + v[{others[2]}]) * (1.0 / 3.0)")
        else:
            avg.append(f"v[{CORNER_PARTNER[k]}]")
    lines = [
        f"{vec} {name}({stype} s, vec3 P{', float ref' if shadow else ''}, bool seamless)",
        "{",
        "    int n = textureSize(s, 0).x;",
        "    ivec3 b = glp_cube_footprint(P, n);",
        f"    {vec} v = {vec}(",
        "        " + ",\n        ".join(fetch) + ");",
        "    // a texel off a cube corner (outside in i and in j): the corner rule (texture_gather_cube.py)",
        "    ivec2 i = b.yz;",
        "    if (seamless && (i.x < 0 || i.x + 1 >= n) && (i.y < 0 || i.y + 1 >= n))",
        "    {",
    ]
    # which corner: i0 or i1 off in x (i.x < 0: i0), j0 or j1 off in y
    for k, (ci, cj) in enumerate(_CORNERS):
        xcond = "i.x < 0" if ci == 0 else "i.x + 1 >= n"
        ycond = "i.y < 0" if cj == 0 else "i.y + 1 >= n"
        lines.append(f"        if ({xcond} && {ycond}) v[{k}] = {avg[k]};")
    lines += ["    }", "    return v;", "}"]
    em.helper(name, "\n".join(lines))
    args = [s, coords.text] + ([ref.text] if ref is not None else []) + [seamless]
    return call(f"{name}({', '.join(args)})", ret, 4)


__all__ = ["cube_gather", "FACES"]
