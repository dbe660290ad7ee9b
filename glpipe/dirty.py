"""Dirty bits: which host state blocks a draw must re-emit.

docs/architecture.md "Dirty bits" explains the two-bit blocks (``X_CSO`` / ``X``),
``SHADERS`` / ``PROGRAM``, ``DRAW_STATE`` and ``GLPIPE_DEBUG=nofast``.
"""

from __future__ import annotations


class Dirty:
    """One bit per host state block.

    Plain ints, not an IntFlag: draw_vbo tests and combines these bits on
    every draw, and IntFlag arithmetic builds a new enum object per
    operation (several times slower than int arithmetic).  ``names(bits)``
    spells a mask out for messages and debugging.
    """

    FRAMEBUFFER = 1 << 0
    VIEWPORT = 1 << 1
    SCISSOR = 1 << 2
    BLEND = 1 << 3
    BLEND_COLOR = 1 << 4
    DSA = 1 << 5
    STENCIL_REF = 1 << 6
    RASTERIZER = 1 << 7
    SAMPLE_MASK = 1 << 8
    MIN_SAMPLES = 1 << 9
    PROGRAM = 1 << 10  # shader variant selection + glUseProgram
    VERTEX = 1 << 11  # vertex elements / vertex buffers -> VAO attribute setup
    SAMPLERS = 1 << 12
    SAMPLER_VIEWS = 1 << 13
    CONSTANTS = 1 << 14
    SYSVALS = 1 << 15  # glpipe's per-stage uniform block (alpha ref, clip planes, ...)
    CLIP = 1 << 16  # GL_CLIP_DISTANCEi switches: clip_plane_enable or the program's distances changed
    STIPPLE = 1 << 17
    SHADER_BUFFERS = 1 << 18
    SHADER_IMAGES = 1 << 19
    TESS = 1 << 20
    WINDOW_RECTANGLES = 1 << 21
    BLEND_CSO = 1 << 22  # another blend CSO bound: send the difference (BLEND: send it whole)
    DSA_CSO = 1 << 23  # another depth/stencil/alpha CSO bound (DSA: send it whole)
    RASTERIZER_CSO = 1 << 24  # another rasterizer CSO bound (RASTERIZER: send it whole)
    DRAW_STATE = 1 << 25  # draw-side host state (restart, DRAWID, user buffers, ...): no fast draw
    SHADERS = 1 << 26  # a shader CSO was bound; the other variant-key inputs set PROGRAM
    MODE_CHECK = 1 << 27  # only a bound GS / TES keeps the general path: fast draws test their mode (draw.py)


class KeepGeneral:
    """Why draw_vbo stays on its general path after a draw: one bit per
    area reason, in the context word ``ctx.keep_general``.  The area that
    owns the reason sets its bit when its state starts needing every draw
    to pass the general path and clears it when that stops
    (``ctx._keep_general(bit, on)``, or inline on a hot bind); the general
    draw returns to the fast path (dirty word 0) only when the word is 0
    and primitive restart (the draw's own state) is off."""

    VERTEX = 1 << 0  # user vertex buffers, or start_instance baked into attribute offsets (vertex.py)
    DRAWID = 1 << 1  # the bound program reads DRAWID: multi-draw-indirect draws (shaders.py)
    PRIM_CLASS = 1 << 2  # the rasterizer keys each draw's primitive class (rasterizer.py, variant_keys.py)
    EDGE_FLAGS = 1 << 3  # a face drawn as lines / points with edge flags keyed (polygon_edges.py)
    VS_LAYER = 1 << 4  # a VS writing LAYER gets the generated GS of each draw's mode (vertex_layer.py)
    RENDER_CONDITION = 1 << 5  # a render condition gates every draw (render_condition.py)
    STREAM_OUTPUT = 1 << 6  # stream output targets are bound: each draw is captured (stream_output.py)
    PRIM_CHECK = 1 << 7  # a GS or TES is bound: each draw's mode is checked against it (shaders.py)
    TEXTURE_PARAMS = 1 << 8  # views set shared texture parameters while other threads draw (sampler_views.py)


_BITS = {name: value for name, value in vars(Dirty).items() if name.isupper()}
ALL = sum(_BITS.values())


def names(bits: int) -> str:
    """``"BLEND|DSA"`` for a mask of Dirty bits."""
    return "|".join(name for name, value in _BITS.items() if bits & value) or "0"


# What a ModernGL call may have changed behind glpipe's back (docs/host.md "State ModernGL changes behind our back"):
# framebuffer binds re-emit viewport, scissor, colour and depth masks; texture
# operations move the active unit and the binding on it; render() binds its
# own program and VAO.
HOST_CLOBBERED = (
    Dirty.FRAMEBUFFER
    | Dirty.VIEWPORT
    | Dirty.SCISSOR
    | Dirty.BLEND
    | Dirty.DSA
    | Dirty.SAMPLER_VIEWS
    | Dirty.PROGRAM
    | Dirty.VERTEX
)

__all__ = ["Dirty", "ALL", "HOST_CLOBBERED", "KeepGeneral", "names"]
