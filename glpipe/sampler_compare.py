"""Comparisons through sampler views: the view swizzle on (c, c, c, 1).

Gallium applies a view's swizzle to the comparison vector of a SHADOW*
lookup; GL returns one float.  A depth view therefore records the class of
its swizzle (a variant-key input per stage and slot) and, when its GL
swizzle does not keep red, a compare twin with the identity swizzle that
comparing lookups bind.  docs/samplers.md "Shadow lookups" has the rules
and their sources (softpipe, llvmpipe, st/mesa).
"""

from __future__ import annotations

import copy

from lowering.errors import UnsupportedError
from lowering.glsl.shadow_swizzle import DEFAULT_CLASS, compare_class

from .dirty import Dirty
from .enums import ShaderType, Swizzle
from .sampler_view_objects import SamplerView
from .shaders import variant_input

# One tuple object per class, so views of one class share it and
# set_sampler_views compares classes with ``is``.
_CLASSES: dict = {}

# Bits of a texture-plan row's ``compare`` (sampler_views.SamplerViewPart.texture_plan).
COMPARE_LOOKUPS, COMPARE_GATHERS = 1, 2


def interned_class(swizzle) -> tuple:
    """The (shared) class tuple of a view swizzle (four PIPE_SWIZZLE_*)."""
    cls = compare_class(swizzle)
    return _CLASSES.setdefault(cls, cls)


def compare_pairs(slots) -> tuple:
    """((slot, class), ...) of the views in ``slots`` with a class other than
    Gallium's (c, c, c, 1)."""
    return tuple((i, v.compare_class) for i, v in enumerate(slots) if v is not None and v.compare_class is not None)


def initial_pairs(stages: int) -> tuple:
    """(per-stage pairs, their variant-input holder) of a context with nothing bound."""
    pairs = ((),) * stages
    return pairs, variant_input(pairs)


def plan_compare(v) -> SamplerView | None:
    """Set a depth view's ``compare_class``; when its GL swizzle does not keep
    red, return its ``compare_twin`` (a copy with the identity swizzle, no GL
    object yet: sampler_views gives it one the way the view has), else None."""
    cls = interned_class((v.swizzle_r, v.swizzle_g, v.swizzle_b, v.swizzle_a))
    v.compare_class = None if cls == DEFAULT_CLASS else cls
    if v.swizzle[0] == Swizzle.X:
        return None  # GL's comparison reaches GLSL's result as it is
    twin = copy.copy(v)
    twin.swizzle = (0, 1, 2, 3)  # the identity: X, Y, Z, W
    twin.compare_twin = twin
    twin.params_seen = -1
    twin._gl_view, twin._src_name, twin._gl_release = 0, None, None
    v.compare_twin = twin
    return twin


def update_compare_classes(part, stage: int) -> None:
    """Recompute the comparison classes of ``stage`` held by ``part`` (a
    context's sampler-view part); a change is a new variant-key input
    (Dirty.PROGRAM)."""
    pairs = compare_pairs(part.sampler_views[stage])
    if pairs != part.compare_pairs[stage]:
        per_stage = list(part.compare_pairs)
        per_stage[stage] = pairs
        part.compare_pairs = tuple(per_stage)
        part.compare_class_input = variant_input(part.compare_pairs)
        part.ctx.dirty |= Dirty.PROGRAM


def compare_view(view, stage: int, vi: int, compare: int) -> SamplerView:
    """The view a shadow sampler's unit binds (``view`` has a twin): the twin
    for comparing lookups, the view itself for TG4; one GLSL sampler used by
    both cannot have both, which raises UnsupportedError."""
    if compare == COMPARE_LOOKUPS:
        return view.compare_twin
    if compare == COMPARE_GATHERS:
        return view
    swizzle = ", ".join(Swizzle(int(c)).name for c in (view.swizzle_r, view.swizzle_g, view.swizzle_b, view.swizzle_a))
    raise UnsupportedError(
        f"draw: SVIEW[{vi}] of the {ShaderType(stage).name} shader is read by comparing lookups and by TG4 "
        f"with a compare through one sampler, and its swizzle ({swizzle}) does not read the depth in X: "
        f'the two need different GL textures (docs/samplers.md "Shadow lookups")'
    )


__all__ = [
    "COMPARE_LOOKUPS",
    "COMPARE_GATHERS",
    "interned_class",
    "compare_pairs",
    "initial_pairs",
    "plan_compare",
    "update_compare_classes",
    "compare_view",
]
