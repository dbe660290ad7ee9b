"""glpipe demos: small Gallium programs on glpipe's public API.

``python -m demos`` lists them and runs one (demos/__main__.py): each module
defines ``NAME``, ``DESCRIPTION`` and a ``Scene`` drawn by the frame loop of
demos/frames.py, headless into a PNG or presented in a window with
``flush_frontbuffer`` (docs/demos.md).  tri.py and quad_tex.py also run as
scripts (``python demos/tri.py --out tri.png``).  This file only makes
``demos`` importable as a package from the repository root; it is not part
of the installed distribution.
"""
