"""The host OpenGL context glpipe runs on.

``gl`` makes (or wraps) the ModernGL context and reads its profile and
limits; ``features`` is the table of host features and what each needs;
``hotgl`` resolves the raw GL entry points of the draw and bind paths once.
This package re-exports nothing, so importing the ``features`` table does not
load the host GL (docs/host.md).
"""
