"""User varyings between stages: their GLSL names and declarations, and the
clip / cull split of CLIPDIST.

One naming rule (``glp_<semantic>_<index>``) and one interface block per
varying, shared by the IO map (``stages.py``) and the variant passes that
declare or write varyings of their own (two-sided color, the FS's CLIPDIST
copies, the clip vertex), so every stage links by block name.
"""

from __future__ import annotations

# Semantics a TCS, TES or GS input reads from a varying (glp_<semantic>_<index>)
# rather than a built-in: the user varyings, plus the clip vertex, point
# coordinate and viewport mask a stage may pass on.  A producer that does not
# write one of them declares it and writes zero (stages.py
# _declare_next_stage_inputs, glpipe/shaders.py unwritten_inputs).
INTERSTAGE_VARYINGS = frozenset(
    {"GENERIC", "TEXCOORD", "COLOR", "BCOLOR", "FOG", "NORMAL", "PATCH", "CLIPVERTEX", "PCOORD", "VIEWPORT_MASK"}
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


__all__ = ["INTERSTAGE_VARYINGS", "varying_name", "varying_block", "clip_cull_counts"]
