"""Cull distances on a host without gl_CullDistance: each cull distance becomes one clip
distance that clips the primitive away exactly when the cull distance would cull it.

docs/lowering.md "Cull distances without gl_CullDistance" has the rule and the slots.
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..varyings import clip_cull_counts
from ..views import comp

# The clip-or-cull distance slots (PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT).
SLOTS = 8
# The clip distance of a cull distance that is in at a vertex: so large that
# the clip plane between it and an out vertex's -1.0 sits at the out vertex.
IN_VALUE = "1e30"
BLOCK = "glp_culldist_block"
MEMBER = "glp_culldist"
INSTANCE = "glp_culldist_in"


def emulated(em) -> bool:
    """Whether this shader's cull distances are lowered here: it has some
    (NUM_CULLDIST_ENABLED) and the host has no gl_CullDistance."""
    return clip_cull_counts(em.shader)[1] > 0 and not em.req.has("cull_distance")


def first_slot(em) -> int:
    """The gl_ClipDistance slot of cull distance 0."""
    return SLOTS - clip_cull_counts(em.shader)[1]


def cull_clip_mask(em) -> int:
    """The gl_ClipDistance slots standing for cull distances (Reflection.cull_clip_mask)."""
    if em.proc not in ("VERT", "TESS_EVAL", "GEOM") or not emulated(em) or not _writes_cull(em):
        return 0
    return ((1 << SLOTS) - 1) & ~((1 << first_slot(em)) - 1)


def _writes_cull(em) -> bool:
    return any(decl.file == "OUT" and decl.semantic == "CLIPDIST" for decl in em.shader.declarations)


def _element(j: int) -> str:
    return f"{MEMBER}[{j // 4}].{'xyzw'[j % 4]}"


def declare_outputs(io) -> None:
    """The CLIPDIST output of a stage with emulated cull distances:
    gl_ClipDistance sized for all slots, and the block keeping the values."""
    io._declare(f"out float gl_ClipDistance[{SLOTS}];")
    io._declare(f"out {BLOCK} {{ vec4 {MEMBER}[2]; }};")


def component(io, j: int, vertex: str | None, lvalue: bool):
    """The view of cull distance ``j``: this stage's output (``vertex`` None
    with lvalue) or the input of vertex ``vertex`` (GS, TCS, TES)."""
    if vertex is None and lvalue:
        return comp(_element(j), "float", lvalue=True)
    if vertex is None:  # an output read back (the FS copy)
        return comp(_element(j), "float")
    io._declare(f"in {BLOCK} {{ vec4 {MEMBER}[2]; }} {INSTANCE}[{io.input_array_size()}];")
    return comp(f"{INSTANCE}[{vertex}].{_element(j)}", "float")


def cull_as_clip(em) -> list[str]:
    """vertex_end: each cull distance's clip distance (the module docstring),
    and 0.0 (never clips) in the slots between the shader's clip distances
    and the cull slots, which this declaration of gl_ClipDistance makes
    written; the user-plane and depth-plane passes, which run after this,
    overwrite the slots they use."""
    if em.proc not in ("VERT", "TESS_EVAL", "GEOM") or not emulated(em) or not _writes_cull(em):
        return []
    nclip, ncull = clip_cull_counts(em.shader)
    base = first_slot(em)
    _check_user_planes(em, base)
    out = [f"gl_ClipDistance[{k}] = 0.0;   // no distance here" for k in range(nclip or 0, base)]
    for j in range(ncull):
        d = _element(j)
        out.append(
            f"gl_ClipDistance[{base + j}] = ({d} < 0.0 || isnan({d}) || isinf({d})) ? -1.0 : {IN_VALUE};"
            f"   // cull distance {j}"
        )
    return out


def _check_user_planes(em, base: int) -> None:
    """User clip planes of a shader writing only cull distances take slots
    0..7 by their clip_plane_enable bits; they cannot share the cull slots
    (GL limits clip plus cull distances to 8 together, too)."""
    from .vertex import shader_clip_distance_mask

    if shader_clip_distance_mask(em) or not em.key.clip_plane_enable >> base:
        return
    raise UnsupportedError(
        f"clip_plane_enable {em.key.clip_plane_enable:#x} with {SLOTS - base} cull distances: user clip planes "
        f"{base}..{SLOTS - 1} would share the clip distance slots the cull distances take on this host "
        f"(at most {SLOTS} clip and cull distances together)"
    )


__all__ = ["emulated", "cull_clip_mask", "declare_outputs", "component", "cull_as_clip", "SLOTS"]
