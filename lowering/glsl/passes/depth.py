"""Variant passes for depth: unscaled polygon offset units (FS) and one
depth clipping plane kept while the other is disabled (last vertex stage).

Each function is one row of ``passes.PASSES``; glpipe/rasterizer.py and
glpipe/variant_keys.py decide when the key fields are set, docs/rasterizer.md
states the rules.

* **Unscaled polygon offset** (``depth_offset``; the rasterizer's
  ``offset_units_unscaled``, D3D9's depth bias): Gallium's offset is
  ``o = offset_scale * m + offset_units`` with m = max(|dz/dx|, |dz/dy|)
  of the window depth, and offset_units added as it is -- a depth value, not
  a multiple of the depth buffer's minimum resolvable difference, which is
  all GL's glPolygonOffset can take (cso/rasterizer.rst; llvmpipe adds the
  units unscaled).  A non-zero offset_clamp bounds o above (clamp > 0) or
  below (clamp < 0), glPolygonOffsetClamp's rule.  The variant writes
  ``gl_FragDepth = gl_FragCoord.z + ...``; the values come from
  ``sysvals.depth_offset`` (x scale, y units, z clamp), so changing them
  never recompiles.  Two modes:

  - ``DEPTH_OFFSET_UNITS`` (1, no clamp): the host keeps glPolygonOffset
    (scale, 0) on for the slope term -- exact GL m for every fill mode,
    line- and point-filled polygons included -- and the FS adds the units:
    gl_FragCoord.z is the rasterized depth *after* the host's offset (GLSL:
    the depth the fragment would get without a depth write).
  - ``DEPTH_OFFSET_FULL`` (2, with a clamp, which must bound the sum): the
    host offset is off and the FS computes all of o, m from the
    derivatives of gl_FragCoord.z.  Window depth is affine over a filled
    polygon, so the 2x2-quad differences are exact; line- and point-filled
    polygons have no such plane in the FS, so the context refuses that case
    (a non-zero scale with a clamp there).

  The derivatives and the new depth are computed first thing in ``main``
  (uniform control flow), the write happens before every return.  An FS
  that writes depth itself gets no variant: GL and Gallium apply the offset
  to the rasterized depth, which such a shader replaces.  An FS with
  early_fragment_tests is refused (UnsupportedError): GL tests the
  rasterized depth before the shader and ignores a written depth, so the
  offset would be silently lost.  The written depth carries no layout
  qualifier (depth_any); the host loses early depth testing for these
  draws, and a multisampled fragment writes one depth for all its samples.
* **Depth clip plane** (``depth_clip_plane`` / ``depth_clip_slot``;
  depth_clip_near != depth_clip_far): the host runs with GL_DEPTH_CLAMP,
  which disables GL's near and far clipping together, and the plane that
  must still clip comes back as ``gl_ClipDistance[slot]`` -- ``z + w``
  (near, z >= -w), ``z`` (near with clip_halfz, z >= 0) or ``w - z`` (far,
  z <= w), from the position the shader wrote (Gallium's clip space, before
  the clip_halfz remap and the y flip).  The context picks the slot (one
  the user planes and the shader's own distances do not use) and enables
  its GL_CLIP_DISTANCEi.  A window-space position (VS_WINDOW_SPACE_POSITION)
  is never clipped: no distance.
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..sysval_block import INSTANCE_NAME

DEPTH_OFFSET_OFF, DEPTH_OFFSET_UNITS, DEPTH_OFFSET_FULL = 0, 1, 2
DEPTH_CLIP_NONE, DEPTH_CLIP_NEAR, DEPTH_CLIP_NEAR_HALFZ, DEPTH_CLIP_FAR = 0, 1, 2, 3

OFFSET_DEPTH = "glp_offset_depth"

# DEPTH_CLIP_* -> the distance of gl_Position (p) from the plane, >= 0 inside.
_CLIP_DISTANCE = {
    DEPTH_CLIP_NEAR: "{p}.z + {p}.w",       # -w <= z
    DEPTH_CLIP_NEAR_HALFZ: "{p}.z",         # 0 <= z (clip_halfz)
    DEPTH_CLIP_FAR: "{p}.w - {p}.z",        # z <= w
}


def offset_depth(em) -> list[str]:
    """Prologue: ``glp_offset_depth``, the fragment's offset depth (see the module docstring)."""
    if em.shader.property("FS_EARLY_DEPTH_STENCIL", 0):
        raise UnsupportedError(
            "RasterizerState.offset_units_unscaled: the offset is applied by writing the fragment depth, which "
            "GL ignores in a fragment shader with FS_EARLY_DEPTH_STENCIL (early_fragment_tests)")
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
