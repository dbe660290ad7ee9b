"""The GLSL back end of the lowering: ``to_glsl(tgsi) -> GLSLShader``.

See ``emitter.py`` for the driver, ``docs/lowering.md`` for the mapping
rules and ``docs/bindings.md`` for the binding convention.
"""

from __future__ import annotations

from .emitter import GLSL_VERSIONS, GLSLShader, to_glsl
from .reflection import Reflection
from .variant import VariantKey

__all__ = ["to_glsl", "GLSLShader", "Reflection", "VariantKey", "GLSL_VERSIONS"]
