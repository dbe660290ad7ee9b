"""Count the GL calls glpipe makes, wherever it keeps its GL entry points.

glpipe reaches GL through PyOpenGL in several ways: attribute lookups on
``OpenGL.GL`` at call time (``gl.glEnable(...)``), PyOpenGL functions resolved
once and kept in CSOs' precomputed call lists, in module-level tables or on
the context, and raw ctypes function pointers without argtypes for the draw
path (``ctypes.CFUNCTYPE(None)(address)``).  Wrapping attributes would miss
the references held in tuples, so the counter patches ``__call__`` on the
*classes* of the function objects instead, which every route goes through:

* PyOpenGL gives every entry point its own class (``OpenGL.platform.
  baseplatform.glEnable``, ``OpenGL.lazywrapper.glBufferSubData``, ...); the
  classes of every ``gl*`` attribute of every loaded ``OpenGL.*`` module are
  patched (entry points not yet resolved are resolved first: PyOpenGL
  rewrites the class's ``__call__`` on first use);
* ctypes function-pointer classes: ``CFUNCTYPE(None)`` and glpipe's raw
  prototypes (``glpipe.host.hotgl.raw_prototype``: the draw-path and hot state
  pointers) and the class of any ctypes function pointer found on the
  watched objects (the context, screen, host and what they hold, one level
  down); calls through them are named by looking their address up among
  the GL entry points.

Only the outermost call is counted (PyOpenGL wrappers call a base function).
Not seen: calls ModernGL makes from C (glpipe uses ModernGL for allocation
at create time, never on the bind / draw paths this counts).  Everything is
restored when the ``with`` block ends.  ``calls`` lists the names in order.
"""

from __future__ import annotations

import ctypes
import sys

_CFuncPtr = ctypes._CFuncPtr  # base class of every ctypes function pointer


class GLCallCounter:
    """``with GLCallCounter(ctx, screen, host) as counter: ...`` then ``counter.calls``."""

    def __init__(self, *objects):
        self.objects = objects
        self.calls: list = []
        self._patched: list = []  # (class, had its own __call__, previous __call__)
        self._depth = 0
        self._names_by_address: dict = {}

    # -- what to patch -------------------------------------------------------------------

    @staticmethod
    def _gl_functions():
        """Every ``gl*`` callable of every loaded PyOpenGL module."""
        for modname, module in list(sys.modules.items()):
            if module is None or not modname.startswith("OpenGL"):
                continue
            for attr, value in list(vars(module).items()):
                if attr.startswith("gl") and callable(value) and not isinstance(value, type):
                    yield attr, value

    def _object_functions(self):
        """ctypes function pointers held by the watched objects (and one level down)."""
        seen = set()
        todo = [(obj, 1) for obj in self.objects]
        while todo:
            obj, depth = todo.pop()
            if id(obj) in seen or not hasattr(obj, "__dict__"):
                continue
            seen.add(id(obj))
            for value in vars(obj).values():
                if isinstance(value, _CFuncPtr):
                    yield value
                elif (
                    depth > 0
                    and hasattr(value, "__dict__")
                    and not callable(value)
                    and not isinstance(value, type(sys))
                ):
                    todo.append((value, depth - 1))

    def _address_names(self, functions) -> None:
        """GL entry point addresses -> names, for calls through raw pointers."""
        try:
            from OpenGL import platform

            proc = platform.PLATFORM.getExtensionProcedure
        except Exception:
            return
        for name, _fn in functions:
            try:
                addr = proc(name.encode())
            except Exception:
                continue
            if addr:
                self._names_by_address.setdefault(int(addr), name)

    # -- patching ----------------------------------------------------------------------------

    def _name_of(self, fn) -> str:
        name = getattr(fn, "__name__", None)
        if isinstance(name, str) and name.startswith("gl"):
            return name
        if isinstance(fn, _CFuncPtr):
            addr = ctypes.cast(fn, ctypes.c_void_p).value
            return self._names_by_address.get(addr, f"<GL function at {addr:#x}>")
        return type(fn).__name__

    def _patch_class(self, cls) -> None:
        own = "__call__" in cls.__dict__
        previous = cls.__dict__["__call__"] if own else None
        original = cls.__call__  # what an instance calls now (own or inherited)
        counter = self

        def counted(fn, *args, **kwargs):
            if counter._depth == 0:
                counter.calls.append(counter._name_of(fn))
            counter._depth += 1
            try:
                return original(fn, *args, **kwargs)
            finally:
                counter._depth -= 1

        if isinstance(previous, staticmethod):
            # PyOpenGL's resolved entry points: __call__ is staticmethod(real function).
            real = previous.__func__

            def counted_static(*args, **kwargs):
                if counter._depth == 0:
                    counter.calls.append(cls.__name__)
                counter._depth += 1
                try:
                    return real(*args, **kwargs)
                finally:
                    counter._depth -= 1

            replacement = staticmethod(counted_static)
        else:
            replacement = counted
        try:
            cls.__call__ = replacement
        except (TypeError, AttributeError):  # a static (C) type: cannot be patched
            return
        self._patched.append((cls, own, previous))

    def __enter__(self) -> GLCallCounter:
        self.calls.clear()
        functions = list(self._gl_functions())
        for _name, fn in functions:
            # Resolve lazily bound entry points now: resolving rewrites __call__.
            if getattr(fn, "resolved", True) is False and hasattr(fn, "load"):
                try:
                    fn.load()
                except Exception:
                    pass
        self._address_names(functions)
        classes = {}
        for _name, fn in functions:
            classes[id(type(fn))] = type(fn)
        for fn in self._object_functions():
            classes[id(type(fn))] = type(fn)
        from glpipe.host.hotgl import ARGTYPES, raw_prototype

        raws = [ctypes.CFUNCTYPE(None), raw_prototype()] + [raw_prototype(*a) for a in ARGTYPES.values()]
        for raw in raws:  # glpipe's raw draw-path and state pointers (glpipe/host/hotgl.py)
            classes[id(raw)] = raw
        # Not a GL call: the query of which GL context is current on the thread
        # (glpipe/host/gl.py make_current; one per GL-touching entry point).
        from glpipe.host.gl import CONTEXT_QUERY_PROTOTYPE

        classes.pop(id(CONTEXT_QUERY_PROTOTYPE), None)
        for cls in classes.values():
            if cls.__module__ == "builtins":
                continue
            self._patch_class(cls)
        return self

    def __exit__(self, *exc) -> None:
        for cls, own, previous in reversed(self._patched):
            if own:
                cls.__call__ = previous
            else:
                del cls.__call__
        self._patched.clear()

    @property
    def count(self) -> int:
        """Number of GL calls recorded."""
        return len(self.calls)


__all__ = ["GLCallCounter"]
