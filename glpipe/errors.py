"""glpipe's error hierarchy (defined in ``lowering.errors`` so the lower layers share it)."""

from lowering.errors import (
    HostGLError,
    InvalidArgumentError,
    ObjectDestroyedError,
    PipeError,
    ShaderValidationError,
    TGSIParseError,
    UnsupportedError,
)

__all__ = [
    "PipeError",
    "InvalidArgumentError",
    "UnsupportedError",
    "HostGLError",
    "ObjectDestroyedError",
    "TGSIParseError",
    "ShaderValidationError",
]
