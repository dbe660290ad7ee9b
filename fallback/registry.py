"""The one table of fallbacks: which host feature each one stands in for.

A row names the host feature (a row of ``glpipe.features.FEATURES``, or
None when no GL core profile has the thing at all, e.g. luminance formats),
what the fallback provides, and where it is implemented (a dotted path, so
this table imports nothing).  ``python -m glpipe info`` reports a host
feature as *native* when the profile has it, *fallback* when a row here
covers it, and *unavailable* otherwise.

Later issues add a row in the same commit that adds the fallback and its
test; a row without a working implementation is a lie, like a cap that says
yes for something that does not work.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fallback:
    """One fallback: ``provides`` for host ``feature`` via ``implementation``."""

    name: str
    feature: "str | None"
    provides: str
    implementation: str


FALLBACKS: "tuple[Fallback, ...]" = (
    Fallback(
        name="quads_quad_strips_polygons",
        feature=None,
        provides="QUADS / QUAD_STRIP / POLYGON drawn as TRIANGLES by index translation "
                 "(provoking vertex and winding kept)",
        implementation="fallback.indices",
    ),
    Fallback(
        name="legacy_formats_as_r_rg",
        feature=None,
        provides="A8/L8/I8/L8A8 (and 16-bit/float/int variants), RGBX/BGRX: stored as R/RG/RGBA "
                 "with a swizzle that undoes the emulation",
        implementation="glpipe.formats (emulation rows of the format table)",
    ),
    Fallback(
        name="polygon_edge_flags",
        feature=None,
        provides="fill modes LINE / POINT draw only a polygon's flagged edges (QUADS / QUAD_STRIP / POLYGON "
                 "outlines, VS EDGEFLAG): per-triangle boundary masks, a generated GS and an FS kill",
        implementation="glpipe.polygon_edges + fallback.indices.edge_masks",
    ),
    Fallback(
        name="line_stipple",
        feature=None,
        provides="line_stipple_enable / factor / pattern: a counter along the line from a (generated) GS, "
                 "an FS kill; strip bases from a transform-feedback capture",
        implementation="glpipe.line_stipple",
    ),
    Fallback(
        name="fill_modes_per_face",
        feature=None,
        provides="fill_front != fill_back: draws split into runs of one facing (captured positions, facing "
                 "in numpy), each in its face's mode",
        implementation="glpipe.fill_modes",
    ),
    Fallback(
        name="mutable_texture_storage",
        feature="texture_storage",
        provides="every texture target and level allocated with glTexImage* when glTexStorage* is absent",
        implementation="glpipe.resource",
    ),
)


def fallbacks_for(feature: str) -> "tuple[Fallback, ...]":
    """Rows that stand in for host ``feature``."""
    return tuple(f for f in FALLBACKS if f.feature == feature)


__all__ = ["Fallback", "FALLBACKS", "fallbacks_for"]
