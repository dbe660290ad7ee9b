"""Variant pass of the last vertex stage (VS, TES or GS) for Gallium stream
output: each captured ``pipe_stream_output`` entry becomes an output variable
``glp_so_<k>`` holding exactly its components, so that transform feedback
(which captures whole variables) can capture partial components, gaps and
several buffers.  The context lists these names, with ``gl_SkipComponentsN``
and ``gl_NextBuffer``, as the program's transform feedback varyings
(glpipe/stream_output.py; docs/stream_output.md).

The copies run first at the vertex_end hook, before any other pass changes
an output (y flip, clip_halfz, ...): Gallium captures what the shader wrote.
"""

from __future__ import annotations

_TYPES = {1: "float", 2: "vec2", 3: "vec3", 4: "vec4"}
_COMPONENTS = "xyzw"


def so_varying_name(k: int) -> str:
    """The GLSL output of captured entry ``k`` (the order of ``stream_output.output``)."""
    return f"glp_so_{k}"


def declare_outputs(em) -> None:
    """Declare one output per captured entry, on its vertex stream (a GS)."""
    for k, (_reg, _start, n, stream) in enumerate(em.key.stream_output):
        prefix = ""
        if stream:
            em.req.need("gs_streams", f"stream output on vertex stream {stream}")
            prefix = f"layout(stream = {stream}) "
        em.io._declare(f"{prefix}out {_TYPES[n]} {so_varying_name(k)};")


def copy_outputs(em, stream: int = 0) -> list[str]:
    """The copies of the entries on ``stream`` (the vertex being complete:
    the end of a VS / TES, a GS's EMIT on that stream).  The registers are
    read as raw 32-bit words (Gallium captures words, whatever their type)."""
    out = []
    for k, (reg, start, n, entry_stream) in enumerate(em.key.stream_output):
        if entry_stream != stream:
            continue
        comps = list(range(start, start + n))
        value = em.read_view(em.io.output_view(reg, None), comps, "float")
        out.append(f"{so_varying_name(k)} = {value.text};")
    return out


__all__ = ["copy_outputs", "declare_outputs", "so_varying_name"]
