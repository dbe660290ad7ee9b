"""Helpers for tests about draw_vbo's fast path and GLPIPE_DEBUG=nofast
(glpipe/debug.py NOFAST_METHODS / NOFAST_DROPS, docs/debug.md).

``requires_fast_path`` skips a test that counts the GL calls the fast path
saves (redundant binds, cached transitions) when the context runs with
``nofast``, which by design re-sends every block at every draw.
``gl_state`` reads the host GL state a draw leaves, with raw glGet* calls
(never through glpipe), for the differential test.
"""

from __future__ import annotations

import numpy as np
import pytest


def requires_fast_path(ctx) -> None:
    """Skip under GLPIPE_DEBUG=nofast: the test measures the fast path's economy."""
    if "nofast" in ctx.debug_flags:
        pytest.skip(
            "counts the GL calls the fast path and its caches save; GLPIPE_DEBUG=nofast turns them "
            "off by design (docs/debug.md)"
        )


# Capabilities whose enable bit a draw may leave (glIsEnabled).
_CAPS = (
    "GL_BLEND",
    "GL_COLOR_LOGIC_OP",
    "GL_CULL_FACE",
    "GL_DEPTH_CLAMP",
    "GL_DEPTH_TEST",
    "GL_DITHER",
    "GL_LINE_SMOOTH",
    "GL_MULTISAMPLE",
    "GL_POLYGON_OFFSET_FILL",
    "GL_POLYGON_OFFSET_LINE",
    "GL_POLYGON_OFFSET_POINT",
    "GL_POLYGON_SMOOTH",
    "GL_PRIMITIVE_RESTART",
    "GL_PROGRAM_POINT_SIZE",
    "GL_RASTERIZER_DISCARD",
    "GL_SAMPLE_ALPHA_TO_COVERAGE",
    "GL_SAMPLE_ALPHA_TO_ONE",
    "GL_SAMPLE_MASK",
    "GL_SCISSOR_TEST",
    "GL_STENCIL_TEST",
    "GL_TEXTURE_CUBE_MAP_SEAMLESS",
    "GL_FRAMEBUFFER_SRGB",
)

# Integer state (glGetIntegerv), with the number of values.
_INTS = (
    ("GL_BLEND_SRC_RGB", 1),
    ("GL_BLEND_DST_RGB", 1),
    ("GL_BLEND_SRC_ALPHA", 1),
    ("GL_BLEND_DST_ALPHA", 1),
    ("GL_BLEND_EQUATION_RGB", 1),
    ("GL_BLEND_EQUATION_ALPHA", 1),
    ("GL_LOGIC_OP_MODE", 1),
    ("GL_COLOR_WRITEMASK", 4),
    ("GL_DEPTH_FUNC", 1),
    ("GL_DEPTH_WRITEMASK", 1),
    ("GL_STENCIL_FUNC", 1),
    ("GL_STENCIL_REF", 1),
    ("GL_STENCIL_VALUE_MASK", 1),
    ("GL_STENCIL_WRITEMASK", 1),
    ("GL_STENCIL_FAIL", 1),
    ("GL_STENCIL_PASS_DEPTH_FAIL", 1),
    ("GL_STENCIL_PASS_DEPTH_PASS", 1),
    ("GL_STENCIL_BACK_FUNC", 1),
    ("GL_STENCIL_BACK_REF", 1),
    ("GL_STENCIL_BACK_VALUE_MASK", 1),
    ("GL_STENCIL_BACK_WRITEMASK", 1),
    ("GL_STENCIL_BACK_FAIL", 1),
    ("GL_STENCIL_BACK_PASS_DEPTH_FAIL", 1),
    ("GL_STENCIL_BACK_PASS_DEPTH_PASS", 1),
    ("GL_CULL_FACE_MODE", 1),
    ("GL_FRONT_FACE", 1),
    ("GL_POLYGON_MODE", 2),
    ("GL_PROVOKING_VERTEX", 1),
    ("GL_VIEWPORT", 4),
    ("GL_SCISSOR_BOX", 4),
    ("GL_PRIMITIVE_RESTART_INDEX", 1),
    ("GL_SAMPLE_MASK_VALUE", 1),
)

_FLOATS = (
    ("GL_BLEND_COLOR", 4),
    ("GL_DEPTH_RANGE", 2),
    ("GL_POLYGON_OFFSET_FACTOR", 1),
    ("GL_POLYGON_OFFSET_UNITS", 1),
    ("GL_POINT_SIZE", 1),
    ("GL_LINE_WIDTH", 1),
)


def gl_state(host, max_rts: int = 1, clip_distances: int = 8) -> dict:
    """The host GL state that a draw's blocks set, as a dict name -> tuple,
    read with raw glIsEnabled / glGet* (the indexed forms for ``max_rts``
    draw buffers; GL_CLIP_DISTANCE0.. ``clip_distances``)."""
    gl = host.gl
    host.make_current()
    out = {}
    for name in _CAPS:
        out[name] = bool(gl.glIsEnabled(getattr(gl, name)))
    for i in range(clip_distances):
        out[f"GL_CLIP_DISTANCE{i}"] = bool(gl.glIsEnabled(gl.GL_CLIP_DISTANCE0 + i))
    for name, n in _INTS:
        v = np.zeros(max(n, 4), np.int32)
        gl.glGetIntegerv(getattr(gl, name), v)
        out[name] = tuple(int(x) for x in v[:n])
    for name, n in _FLOATS:
        v = np.zeros(max(n, 4), np.float32)
        gl.glGetFloatv(getattr(gl, name), v)
        out[name] = tuple(float(x) for x in v[:n])
    for i in range(max_rts):
        out[f"GL_BLEND[{i}]"] = bool(gl.glIsEnabledi(gl.GL_BLEND, i))
        for name, n in (
            ("GL_COLOR_WRITEMASK", 4),
            ("GL_BLEND_SRC_RGB", 1),
            ("GL_BLEND_DST_RGB", 1),
            ("GL_BLEND_SRC_ALPHA", 1),
            ("GL_BLEND_DST_ALPHA", 1),
            ("GL_BLEND_EQUATION_RGB", 1),
            ("GL_BLEND_EQUATION_ALPHA", 1),
        ):
            v = np.zeros(4, np.int32)
            gl.glGetIntegeri_v(getattr(gl, name), i, v)
            out[f"{name}[{i}]"] = tuple(int(x) for x in v[:n])
    host.clear_errors()  # (a name the profile's host lacks leaves an error; it reads as 0 on both sides)
    return out
