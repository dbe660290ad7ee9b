"""User varyings between stages: their GLSL names and declarations, and the
clip / cull split of CLIPDIST.

One naming rule (``glp_<semantic>_<index>``) and one interface block per
varying, shared by the IO map (``stages.py``) and the variant passes that
declare or write varyings of their own (two-sided color, the FS's CLIPDIST
copies, the clip vertex), so every stage links by block name.
"""

from __future__ import annotations

from types import MappingProxyType

from ..errors import UnsupportedError

# Semantics a later stage reads from a varying (glp_<semantic>_<index>) rather
# than a built-in: the user varyings, plus the clip vertex, point coordinate,
# viewport mask, edge flag and cull distance a stage may pass on.  A producer
# that does not write one of them declares it and writes zero (stages.py
# _declare_next_stage_inputs, glpipe/shaders.py unwritten_inputs); LAYER and
# VIEWPORT_INDEX, which a GS reads from the layer pass's integer varying
# (passes/layer.py), likewise.
INTERSTAGE_VARYINGS = frozenset(
    {
        "GENERIC",
        "TEXCOORD",
        "COLOR",
        "BCOLOR",
        "FOG",
        "NORMAL",
        "PATCH",
        "CLIPVERTEX",
        "PCOORD",
        "VIEWPORT_MASK",
        "EDGEFLAG",
        "CULLDIST",
        "LAYER",
        "VIEWPORT_INDEX",
    }
)

# The fragment-shader input semantics that read a built-in (stages.py _fs_input),
# each with what GL defines it to hold whatever the earlier stages write.  Every
# other FS input semantic is a varying the last vertex stage declares, and
# writes zero when it has no output of that semantic (Mesa's software drivers
# read an input nothing wrote as zeros): glpipe/variant_keys.py passes those to
# that stage in VariantKey.output_interpolation.  CLIPDIST is a varying too
# (passes/vertex.py copy_clipdist_varyings).
FS_BUILTIN_INPUTS = MappingProxyType(
    {
        "POSITION": "gl_FragCoord: the fragment's window position",
        "FACE": "gl_FrontFacing: the primitive's facing",
        "PCOORD": "gl_PointCoord: the point sprite coordinate (GL 4.5 section 14.4)",
        "PRIM_ID": "gl_PrimitiveID: the primitive counter when no GS writes it (GL 4.5 section 11.1.3.9)",
        "LAYER": "gl_Layer: 0 when no stage statically writes it (GLSL 4.50 section 7.1.5)",
        "VIEWPORT_INDEX": "gl_ViewportIndex: 0 when no stage statically writes it (GLSL 4.50 section 7.1.5)",
    }
)


def varying_name(semantic: str, index: int) -> str:
    """``glp_<semantic>_<index>`` -- the single naming rule for user varyings."""
    return f"glp_{semantic.lower()}_{index}"


def varying_block(direction: str, name: str, member_qualifiers: str = "", prefix: str = "", instance: str = "") -> str:
    """The interface block declaring user varying ``name`` (one block per varying, so
    that a GS/TCS/TES can have an input and an output of the same semantic and
    every stage links by block name)."""
    inst = f" {instance}" if instance else ""
    return f"{prefix}{direction} {name}_block {{ {member_qualifiers}vec4 {name}; }}{inst};"


def clip_cull_counts(shader) -> tuple[int | None, int]:
    """(clip distances, cull distances) of a shader's CLIPDIST outputs.

    tgsi.rst: the CLIPDIST components hold NUM_CLIPDIST_ENABLED clip distances
    followed by NUM_CULLDIST_ENABLED cull distances, and an absent property
    counts 0 -- so a shader declaring only NUM_CULLDIST_ENABLED has no clip
    distance at all.  With neither property (hand-written TGSI) every written
    component is a clip distance: the first count is then None ("all")."""
    nclip = shader.property("NUM_CLIPDIST_ENABLED", None)
    ncull = shader.property("NUM_CULLDIST_ENABLED", None)
    if nclip is None and ncull is None:
        return None, 0
    return int(nclip or 0), int(ncull or 0)


def clipdist_sizes(shader, file: str) -> tuple[int, int]:
    """(gl_ClipDistance size, gl_CullDistance size) the CLIPDIST registers of
    ``file`` (``"IN"`` or ``"OUT"``) of ``shader`` index: CLIPDIST[r] holds
    components 4r..4r+3, split by ``clip_cull_counts`` as stages.py
    ``_clip_component`` splits them (those past both counts are dropped)."""
    nclip, ncull = clip_cull_counts(shader)
    clip = cull = 0
    for decl in shader.declarations:
        if decl.file != file or decl.semantic != "CLIPDIST":
            continue
        for index in range(decl.first, decl.last + 1):
            top = 4 * (decl.semantic_index + index - decl.first) + 4
            if nclip is None:
                clip = max(clip, top)
            else:
                clip = max(clip, min(top, nclip))
                cull = max(cull, min(top, nclip + ncull) - nclip)
    return clip, cull


def tess_clip_cull(tcs, tes) -> tuple[int, int]:
    """VariantKey.tess_clip_cull of a TCS and a TES (IR shaders) drawn together:
    the larger clip and cull sizes of the TCS's CLIPDIST outputs and the TES's
    CLIPDIST inputs.  Raises UnsupportedError when the two split CLIPDIST so
    differently that together they need more than the 8 distances GL has
    (PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT)."""
    out_clip, out_cull = clipdist_sizes(tcs, "OUT")
    in_clip, in_cull = clipdist_sizes(tes, "IN")
    clip, cull = max(out_clip, in_clip), max(out_cull, in_cull)
    if clip + cull > 8:
        raise UnsupportedError(
            f"the TCS's CLIPDIST outputs ({out_clip} clip + {out_cull} cull distances) and the TES's "
            f"CLIPDIST inputs ({in_clip} clip + {in_cull} cull) together need {clip} clip and {cull} cull "
            "distances, more than the 8 of PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT (their "
            "NUM_CLIPDIST_ENABLED / NUM_CULLDIST_ENABLED split CLIPDIST differently)"
        )
    return clip, cull


def per_vertex_block(direction: str, clip: int, cull: int) -> str:
    """The redeclared gl_PerVertex block of a TCS's outputs (``direction``
    ``"out"``) or a TES's inputs (``"in"``) with explicit clip / cull sizes
    (VariantKey.tess_clip_cull): GLSL 4.50 section 7.1.1 lets a stage redeclare
    the block, and the linker then compares the sizes both stages declare."""
    members = "vec4 gl_Position; float gl_PointSize;"
    if clip:
        members += f" float gl_ClipDistance[{clip}];"
    if cull:
        members += f" float gl_CullDistance[{cull}];"
    instance = "gl_out[]" if direction == "out" else "gl_in[gl_MaxPatchVertices]"
    return f"{direction} gl_PerVertex {{ {members} }} {instance};"


__all__ = [
    "INTERSTAGE_VARYINGS",
    "FS_BUILTIN_INPUTS",
    "varying_name",
    "varying_block",
    "clip_cull_counts",
    "clipdist_sizes",
    "tess_clip_cull",
    "per_vertex_block",
]
