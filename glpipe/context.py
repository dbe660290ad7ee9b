"""pipe_context: the rendering half of the pipe.

This module is the Context's home; the Foundation issue provides creation
and destruction, and the Context issue brings the state objects, bindings
and draw_vbo.  A context belongs to one screen and uses that screen's host
GL context; objects made by one context are refused by another.
"""

from __future__ import annotations

from lowering.errors import ObjectDestroyedError

from .defs import ContextFlag


class Context:
    """pipe_context.  Made by ``Screen.context_create(priv, flags)``."""

    def __init__(self, screen, priv=None, flags=0):
        self.screen = screen
        self.priv = priv
        # Flags glpipe cannot honour (PREFER_THREADED, ...) are accepted and
        # kept for inspection, as API.md says; unknown bits are kept too,
        # since newer frontends pass flags this version does not name.
        self.flags = ContextFlag(0) | int(flags)
        self.host = screen.host
        self.destroyed = False

    def check_alive(self, what: str) -> None:
        """Raise ObjectDestroyedError if the context was destroyed."""
        if self.destroyed:
            raise ObjectDestroyedError(f"{what}: context was destroyed")

    def destroy(self) -> None:
        """Destroy the context and every GL object it made."""
        if self.destroyed:
            return
        self.destroyed = True
        self.screen._forget_context(self)

    def __repr__(self) -> str:
        state = "destroyed" if self.destroyed else "live"
        return f"<glpipe.Context {state} on {self.screen.profile.name}>"
