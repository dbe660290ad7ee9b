"""The rasterizer area: the rasterizer CSO and the emulations its fields need.

``rasterizer`` is the CSO part (create-time translation, bind, emit);
``rasterizer_keys`` derives its variant-key fields; ``line_stipple``,
``polygon_edges``, ``fill_modes`` and ``vertex_capture`` emulate, on the
general draw path, what core GL lacks (docs/rasterizer.md).  This package
re-exports nothing: import the module you mean.
"""
