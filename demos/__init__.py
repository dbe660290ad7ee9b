"""glpipe demos: small Gallium programs rendering headless to PNG.

Each module runs as a script (``python demos/tri.py --out tri.png``) and
exposes ``main(argv) -> pixels`` and ``render(screen, size) -> pixels`` for
tests (tests/test_demos.py).  This file only makes ``demos`` importable as
a package from the repository root; it is not part of the installed
distribution.
"""
