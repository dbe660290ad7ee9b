"""The raw GL entry points of the draw path's state emits: ``HotGL``.

One function per name of ``NAMES``, looked up once (``hot.glUseProgram``, or
``hot.ops[OP[name]]`` for the ``(OP[name], args)`` pairs emits precompute at
create time), so a state switch skips PyOpenGL's wrappers.  When ``ctx.gl``
is a wrapper (tests) or the context runs with GLPIPE_DEBUG=nofast, the
namespace's own functions are used instead.  Measurements and the rules
(argument types, what stays on PyOpenGL): docs/host.md "Raw GL entry
points".
"""

from __future__ import annotations

import ctypes
import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the class of ctypes function pointers (typing only)
    from _ctypes import CFuncPtr

#: Entry points in HotGL, in ``ops`` order.
NAMES = (
    "glEnable",
    "glDisable",
    "glEnablei",
    "glDisablei",
    "glColorMask",
    "glColorMaski",
    "glBlendEquationSeparate",
    "glBlendEquationSeparatei",
    "glBlendFuncSeparate",
    "glBlendFuncSeparatei",
    "glLogicOp",
    "glDepthFunc",
    "glDepthMask",
    "glStencilFunc",
    "glStencilFuncSeparate",
    "glStencilOp",
    "glStencilOpSeparate",
    "glStencilMask",
    "glStencilMaskSeparate",
    "glFrontFace",
    "glCullFace",
    "glPolygonMode",
    "glProvokingVertex",
    "glClipControl",
    "glUseProgram",
    "glBindVertexArray",
    "glBindBuffer",
    "glBindBufferBase",
    "glBindTextureUnit",
    "glActiveTexture",
    "glBindTexture",
    "glBindSampler",
    "glBindFramebuffer",
    "glEnableVertexAttribArray",
    "glDisableVertexAttribArray",
    "glPointSize",
    "glLineWidth",
    "glPolygonOffset",
    "glPolygonOffsetClamp",
    "glDepthBoundsEXT",
)

_F, _D = ctypes.c_float, ctypes.c_double
#: Entry points taking floating-point arguments: their argtypes.
ARGTYPES = {
    "glPointSize": (_F,),
    "glLineWidth": (_F,),
    "glPolygonOffset": (_F, _F),
    "glPolygonOffsetClamp": (_F, _F, _F),
    "glDepthBoundsEXT": (_D, _D),
}

#: Names to ask the platform for, in order, where the core name may be absent
#: (ARB_polygon_offset_clamp is GL 4.6; a 4.5 host exports the EXT name too).
_ALIASES = {"glPolygonOffsetClamp": ("glPolygonOffsetClamp", "glPolygonOffsetClampEXT")}

#: The prototype of the raw entry points: ctypes' "Python calling convention"
#: flavour of cdecl, which keeps the GIL across the call.  These state calls
#: and draws only queue work in the GL front end, so releasing the GIL buys
#: nothing, and not releasing it saves ~30 ns per call, measured (a
#: switching draw makes two).  Long waits (glFinish, fences) stay on PyOpenGL.
_PROTOTYPE = ctypes.PYFUNCTYPE

#: name -> index into ``HotGL.ops``.
OP = {name: i for i, name in enumerate(NAMES)}


@functools.cache
def raw_prototype(*argtypes: type) -> type[CFuncPtr]:
    """The ctypes function type of a raw GL entry point returning void (see
    ``_PROTOTYPE``); one class per argtypes (ctypes makes a new class per
    PYFUNCTYPE call), so a tool can find every raw pointer by its class."""
    return _PROTOTYPE(None, *argtypes)


def raw_entry_point(name: str) -> CFuncPtr | None:
    """The host's ``name`` as a ctypes function (argtypes only for
    floating-point parameters, ``ARGTYPES``), or None when the GL platform
    gives no address for it."""
    try:
        from OpenGL import platform

        addr = None
        for alias in _ALIASES.get(name, (name,)):
            addr = platform.PLATFORM.getExtensionProcedure(alias.encode())
            if addr:
                break
    except Exception:  # pragma: no cover - a platform without proc lookup
        addr = None
    if not addr:
        return None
    return raw_prototype(*ARGTYPES.get(name, ()))(addr)


class HotGL:
    """The entry points of ``NAMES`` for one ``gl`` (module docstring)."""

    __slots__ = NAMES + ("ops", "native")

    def __init__(self, gl, native: bool):
        self.native = native
        ops = []
        for name in NAMES:
            fn = raw_entry_point(name) if native else getattr(gl, name, None)  # a wrapper's own
            if not fn:  # no address (or PyOpenGL's unresolved placeholder): PyOpenGL's, then the host's
                fn = getattr(gl, name, None) if native else raw_entry_point(name)
            setattr(self, name, fn)
            ops.append(fn)
        self.ops = tuple(ops)


def run_calls(hot: HotGL, calls) -> None:
    """Run precomputed ``(op, args)`` calls (used off the hot loops; the
    emits inline the same loop)."""
    ops = hot.ops
    for op, args in calls:
        ops[op](*args)


__all__ = ["ARGTYPES", "HotGL", "NAMES", "OP", "raw_entry_point", "raw_prototype", "run_calls"]
