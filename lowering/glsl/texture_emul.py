"""GLSL 3.30 forms of the texture queries and gathers that GLSL 4.x has built in.

``texture.py`` asks the features table first and uses the built-in where the
host has it (the native profile); without it (gl33) it calls these:

* ``query_levels`` -- TXQ / SVIEWINFO ``.w`` (textureQueryLevels, GLSL 4.30):
  the level count of the bound view, which the context writes into the
  sysvals block when the view is bound (``sysval_block.view_levels``).

docs/lowering.md ("Texture queries and gathers on GLSL 3.30") states the
rules each form follows and what it costs.
"""

from __future__ import annotations

from .exprs import Expr
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


__all__ = ["query_levels"]
