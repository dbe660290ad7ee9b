"""Hypothesis strategies over the TGSI grammar (tgsi_grammar.py).

``programs()`` draws a whole program of any stage (or of ``stage``) from the
grammar, valid or with bad operands; ``valid_programs()`` only the valid
subset; ``mutated_programs()`` a real program of the lowering's corpus with a
few token edits.  Each wraps the grammar's ``Draw`` interface around
hypothesis's ``draw``, so a failing example shrinks to a small program.
"""

from __future__ import annotations

from hypothesis import strategies as st

from .tgsi_grammar import STAGES, corpus, mutate, program

_CORPUS = corpus()


class _HypothesisDraw:
    """The grammar's ``Draw`` interface over a hypothesis ``draw``."""

    def __init__(self, draw) -> None:
        self.draw = draw

    def int(self, lo: int, hi: int) -> int:
        """An integer in lo..hi."""
        return self.draw(st.integers(lo, hi))

    def choice(self, seq):
        """One element of ``seq``."""
        return seq[self.draw(st.integers(0, len(seq) - 1))]

    def chance(self, p: float) -> bool:
        """True with probability about ``p`` (a 1/64 grid)."""
        return self.draw(st.integers(0, 63)) < round(p * 64)


@st.composite
def programs(draw, stage: str | None = None, valid: bool | None = None) -> str:
    """A TGSI program from the grammar (``valid`` None: either kind)."""
    d = _HypothesisDraw(draw)
    proc = stage or draw(st.sampled_from(STAGES))
    is_valid = draw(st.booleans()) if valid is None else valid
    return program(d, proc, valid=is_valid)


def valid_programs(stage: str | None = None):
    """Programs the grammar builds to be valid (the validator may still refuse a few, naming why)."""
    return programs(stage, valid=True)


@st.composite
def mutated_programs(draw) -> str:
    """A corpus program with one to four token edits."""
    d = _HypothesisDraw(draw)
    text = _CORPUS[draw(st.integers(0, len(_CORPUS) - 1))]
    return mutate(d, text)


__all__ = ["programs", "valid_programs", "mutated_programs"]
