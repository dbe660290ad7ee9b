"""Variant passes for depth: unscaled polygon offset units (FS) and one
depth clipping plane kept while the other is disabled (last vertex stage).

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Depth offset and the depth clip plane).
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..sysval_block import INSTANCE_NAME

DEPTH_OFFSET_OFF, DEPTH_OFFSET_UNITS, DEPTH_OFFSET_FULL = 0, 1, 2
DEPTH_CLIP_NONE, DEPTH_CLIP_NEAR, DEPTH_CLIP_NEAR_HALFZ, DEPTH_CLIP_FAR = 0, 1, 2, 3

OFFSET_DEPTH = "glp_offset_depth"

# DEPTH_CLIP_* -> the distance of gl_Position (p) from the plane, >= 0 inside.
_CLIP_DISTANCE = {
    DEPTH_CLIP_NEAR: "{p}.z + {p}.w",  # -w <= z
    DEPTH_CLIP_NEAR_HALFZ: "{p}.z",  # 0 <= z (clip_halfz)
    DEPTH_CLIP_FAR: "{p}.w - {p}.z",  # z <= w
}


def offset_depth(em) -> list[str]:
    """Prologue: ``glp_offset_depth``, the fragment's offset depth (docs/lowering.md "Variant passes")."""
    if em.shader.property("FS_EARLY_DEPTH_STENCIL", 0):
        raise UnsupportedError(
            "RasterizerState.offset_units_unscaled: the offset is applied by writing the fragment depth, which "
            "GL ignores in a fragment shader with FS_EARLY_DEPTH_STENCIL (early_fragment_tests)"
        )
    em.use_sysvals()
    off = f"{INSTANCE_NAME}.depth_offset"
    em.global_decls.append(f"float {OFFSET_DEPTH};")
    if em.key.depth_offset == DEPTH_OFFSET_UNITS:
        # The host's glPolygonOffset(scale, 0) already holds the slope term.
        return [f"{OFFSET_DEPTH} = gl_FragCoord.z + {off}.y;   // unscaled polygon offset units"]
    return [
        "// polygon offset with unscaled units: o = scale * max(|dz/dx|, |dz/dy|) + units, clamped",
        "float glp_offset_m = max(abs(dFdx(gl_FragCoord.z)), abs(dFdy(gl_FragCoord.z)));",
        f"float glp_offset = {off}.x * glp_offset_m + {off}.y;",
        f"if ({off}.z > 0.0) glp_offset = min(glp_offset, {off}.z);",
        f"else if ({off}.z < 0.0) glp_offset = max(glp_offset, {off}.z);",
        f"{OFFSET_DEPTH} = gl_FragCoord.z + glp_offset;",
    ]


def write_offset_depth(em) -> list[str]:
    """Fragment end: ``gl_FragDepth = glp_offset_depth``."""
    return [f"gl_FragDepth = {OFFSET_DEPTH};"]


def depth_clip_distance(em) -> list[str]:
    """``gl_ClipDistance[slot]`` for the depth plane that still clips (none
    for a window-space position or a shader without POSITION)."""
    if em.io.window_space_position:
        return []
    if not any(em.decls.semantic_of(decl, index) == ("POSITION", 0) for index, decl in em.decls.outputs.items()):
        return []
    plane = _CLIP_DISTANCE[em.key.depth_clip_plane].format(p="gl_Position")
    return [f"gl_ClipDistance[{em.key.depth_clip_slot}] = {plane};   // depth clip plane"]


__all__ = [
    "DEPTH_CLIP_FAR",
    "DEPTH_CLIP_NEAR",
    "DEPTH_CLIP_NEAR_HALFZ",
    "DEPTH_CLIP_NONE",
    "DEPTH_OFFSET_FULL",
    "DEPTH_OFFSET_OFF",
    "DEPTH_OFFSET_UNITS",
    "depth_clip_distance",
    "offset_depth",
    "write_offset_depth",
]
