"""glpipe: Mesa's Gallium3D driver interface on a host OpenGL context.

Everything docs/api.md names (enums, state templates, errors) imports from here;
``glpipe.p_defines`` has every C spelling.  The GL side loads on first use of one of
its names (docs/host.md "Packages and imports").
"""

__version__ = "0.1.0"

import importlib as _importlib

from .enums import *  # noqa: F403
from .enums import __all__ as _enums_all
from .errors import *  # noqa: F403
from .errors import __all__ as _errors_all
from .formats import Format
from .host import preload as _preload
from .templates import *  # noqa: F403
from .templates import __all__ as _templates_all

# Driver settings Mesa reads once, when the driver loads: made now, before the
# application or glpipe makes a GL context (docs/host.md "Driver settings made
# before the driver loads").  Reads /proc and the driver library's header only.
_preload.apply()

# Public name -> the submodule defining it, imported on first access (PEP 562).
_LAZY = {
    "HostGL": "host.gl",
    "HostProfile": "host.gl",
    "Screen": "screen",
    "create_screen": "screen",
    "Context": "context",
    "Resource": "resource",
}


def __getattr__(name: str):
    """Load the GL-side names of ``_LAZY`` (and any submodule, as
    ``glpipe.context``) on first access."""
    if name in _LAZY:
        value = getattr(_importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value  # later lookups skip this function
        return value
    if not name.startswith("_"):  # glpipe.caps etc., as when __init__ imported them all
        try:
            return _importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise  # the submodule exists but one of its imports is missing
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["__version__", "Format", *_LAZY] + list(_errors_all) + list(_enums_all) + list(_templates_all)
