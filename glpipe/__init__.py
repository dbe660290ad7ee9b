"""glpipe: Mesa's Gallium3D driver interface on a host OpenGL context.

    import glpipe
    screen = glpipe.create_screen()                # headless EGL (surfaceless)
    screen = glpipe.create_screen(gl=mgl_ctx)      # wrap a caller's ModernGL context
    screen = glpipe.create_screen(profile="gl33")  # GL 3.3 core: fallbacks engage
    ctx = screen.context_create()

Everything API.md names (enums, state templates, errors) imports from here;
``glpipe.p_defines`` has every C spelling (PIPE_CAP_GRAPHICS, ...).
"""

__version__ = "0.1.0"

from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors_all
from .defs import *  # noqa: F401,F403
from .defs import __all__ as _defs_all
from .formats import Format  # noqa: F401
from .state import *  # noqa: F401,F403
from .state import __all__ as _state_all
from .host import HostGL, HostProfile  # noqa: F401
from .screen import Screen, create_screen  # noqa: F401
from .context import Context  # noqa: F401
from .resource import Resource  # noqa: F401

__all__ = (
    ["__version__", "create_screen", "Screen", "Context", "Resource", "HostGL", "HostProfile", "Format"]
    + list(_errors_all)
    + list(_defs_all)
    + list(_state_all)
)
