"""TGSI text -> IR -> GLSL: glpipe's shader lowering, usable without a GL context.

``parse(text) -> Shader`` (the IR in ``lowering.ir``), ``validate(shader) ->
ShaderInfo``, ``dump(shader) -> str`` (canonical TGSI text), and the GLSL
emitter ``to_glsl`` / ``GLSLShader`` / ``VariantKey`` from ``lowering.glsl``
(imported lazily, so this package imports even before the emitter exists).
"""

from __future__ import annotations

import importlib

# The front half is imported eagerly.  (This also makes ``lowering.validate``
# and ``lowering.dump`` the functions, not the same-named submodules.)
from .dump import dump
from .errors import (
    HostGLError,
    InvalidArgumentError,
    ObjectDestroyedError,
    PipeError,
    ShaderValidationError,
    TGSIParseError,
    UnsupportedError,
)
from .ir import Shader
from .opcodes import OPCODES, OpInfo
from .parser import parse
from .validate import ShaderInfo, validate

# name -> module providing it; the emitter is resolved on first attribute
# access, so ``import lowering`` works without (and before) lowering.glsl.
_LAZY = {
    "to_glsl": ".glsl",
    "GLSLShader": ".glsl",
    "VariantKey": ".glsl",
}


def __getattr__(name: str):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'lowering' has no attribute {name!r}")
    value = getattr(importlib.import_module(module_name, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "parse",
    "validate",
    "dump",
    "Shader",
    "ShaderInfo",
    "OPCODES",
    "OpInfo",
    "to_glsl",
    "GLSLShader",
    "VariantKey",
    "PipeError",
    "InvalidArgumentError",
    "UnsupportedError",
    "HostGLError",
    "ObjectDestroyedError",
    "TGSIParseError",
    "ShaderValidationError",
]
