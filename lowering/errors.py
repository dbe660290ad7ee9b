"""The glpipe error hierarchy.

It lives here, in the lowest layer, so that ``lowering/`` and ``fallback/``
can raise the same errors as the pipe without importing ``glpipe`` (which
would pull in the host GL).  ``glpipe`` re-exports every class.

Each class also subclasses the builtin a Python user would reach for, so
``except ValueError`` catches a bad template and ``except
NotImplementedError`` catches a feature the host cannot provide.
"""

from __future__ import annotations


class PipeError(Exception):
    """Root of every error glpipe raises on purpose."""


class InvalidArgumentError(PipeError, ValueError):
    """A bad template, box, slot, size or enum value; the message names it."""


class UnsupportedError(PipeError, NotImplementedError):
    """Something the caps say is unavailable (on this host profile)."""


class HostGLError(PipeError, RuntimeError):
    """The host GL reported an error, or could not be created."""


class ObjectDestroyedError(InvalidArgumentError):
    """A pipe object was used after it was destroyed, or on a foreign context."""


class TGSIParseError(PipeError, SyntaxError):
    """TGSI text that does not parse.

    ``line`` and ``column`` are 1-based; the header line (``VERT``, ``FRAG``,
    ...) is line 1.  ``str(err)`` reads ``line:col: expected ..., got ...``.
    """

    def __init__(self, message: str, line: int, column: int, source_line: str = ""):
        self.message = message
        self.line = line
        self.column = column
        self.source_line = source_line
        # SyntaxError wants (msg, (filename, lineno, offset, text)); keep our own str.
        super().__init__(f"{line}:{column}: {message}", ("<tgsi>", line, column, source_line))
        self.lineno = line
        self.offset = column

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class ShaderValidationError(PipeError, ValueError):
    """TGSI that parses but breaks a rule (undeclared register, unbalanced IF, ...).

    ``instruction`` is the index of the offending instruction (or None for a
    declaration-level problem); the message names it.
    """

    def __init__(self, message: str, instruction: int | None = None, line: int | None = None):
        self.instruction = instruction
        self.line = line
        super().__init__(message)


__all__ = [
    "PipeError",
    "InvalidArgumentError",
    "UnsupportedError",
    "HostGLError",
    "ObjectDestroyedError",
    "TGSIParseError",
    "ShaderValidationError",
]
