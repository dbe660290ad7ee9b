"""glpipe: Mesa's Gallium3D driver interface on a host OpenGL context.

    import glpipe
    screen = glpipe.create_screen()              # headless EGL
    screen = glpipe.create_screen(profile="gl33")  # GL 3.3 core: fallbacks engage
    ctx = screen.context_create()

Everything API.md names (enums, templates, errors) imports from here.
"""

__version__ = "0.1.0"

from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors_all
