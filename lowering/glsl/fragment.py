"""Fragment-only data opcodes: INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET and FBFETCH.

* ``INTERP_*`` re-interpolate an input varying: GLSL's ``interpolateAt*``
  need the input variable itself, so src0 must be a direct IN register that
  is a real varying (not a built-in such as gl_FragCoord).  Below GLSL 4.00
  passes/interp.py re-interpolates from derivatives instead.
* ``FBFETCH`` reads the color the framebuffer had *before* this invocation
  (tgsi.rst): the output is declared ``inout`` (GL_EXT_shader_framebuffer_fetch)
  and its incoming value is saved at the top of ``main``, so a write to the
  output earlier in the shader does not change what FBFETCH returns.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from .exprs import call, swizzle, var
from .passes import interp as interp_pass
from .passes.fragment import SPRITE_COORD, front_facing, two_sided_pair
from .views import VectorView


def handle_interp(em, i, inst) -> None:
    """INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET: GLSL's interpolateAt*,
    or on a host without them the re-interpolation of passes/interp.py."""
    op = inst.opcode
    emulate = interp_pass.emulated(em)
    if not emulate:
        em.req.need("interpolate_at", op)
    src = inst.srcs[0]
    if src.file != "IN" or src.indirect is not None:
        raise UnsupportedError(
            f"{op} on {src.file}{'[indirect]' if src.indirect else ''}: "
            f"interpolateAt* needs a directly named input varying"
        )
    view = em.io.input_view(src.index, None)
    if not isinstance(view, VectorView) or view.text.startswith("gl_"):
        raise UnsupportedError(f"{op} on IN[{src.index}], which is not an interpolated varying")
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    if op == "INTERP_CENTROID":
        func, arg = "interpolateAtCentroid", None
    elif op == "INTERP_SAMPLE":
        func, arg = "interpolateAtSample", em.src(i, 1, (0,), "int").text
    else:
        func, arg = "interpolateAtOffset", em.src(i, 1, (0, 1), "float").text
    pair = two_sided_pair(em, view.text)

    def at(name: str, qualifiers_of: str) -> str:
        if emulate:
            return interp_pass.reinterpolate(em, op, src.index, name, arg, qualifiers_of)
        return f"{func}({name}{'' if arg is None else ', ' + arg})"

    if pair is not None:  # VariantKey.two_side: interpolate the face's varying
        face = front_facing(em.key)
        value = call(f"({face} ? {at(pair[0], pair[0])} : {at(pair[1], pair[0])})", "float", 4)
    elif view.text == SPRITE_COORD:
        # VariantKey.sprite_coord_enable: the point coordinate is the value at the pixel
        # centre (re-interpolating it inside the pixel is not expressible in GLSL).
        value = var(view.text, "float", 4)
    else:
        text = at(view.text, view.text)
        value = var(text, "float", 4) if text == view.text else call(text, "float", 4)
    value = em.apply_modifiers(swizzle(value, [src.swizzle[c] for c in comps]), src.absolute, src.negate)
    em.write(i, 0, comps, value)


def handle_fbfetch(em, i, inst) -> None:
    """FBFETCH dst, OUT[n]: the framebuffer color at this pixel before the shader ran."""
    src = inst.srcs[0]
    em.req.need("framebuffer_fetch", "FBFETCH")
    if src.file != "OUT":
        raise UnsupportedError("FBFETCH reads a COLOR output register")
    view = em.io.output_view(src.index, None)
    if not isinstance(view, VectorView) or not view.text.startswith("glp_frag_color_"):
        raise UnsupportedError("FBFETCH is only valid on COLOR outputs")
    saved = f"glp_fbfetch_{src.index}"
    line = f"{('vec4', 'ivec4', 'uvec4')[('float', 'int', 'uint').index(view.type)]} {saved} = {view.text};"
    if line not in em.prologue:
        em.prologue.append(line)
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    em.write(i, 0, comps, swizzle(var(saved, view.type, 4), [src.swizzle[c] for c in comps]))


FRAGMENT = {
    "INTERP_CENTROID": handle_interp,
    "INTERP_SAMPLE": handle_interp,
    "INTERP_OFFSET": handle_interp,
    "FBFETCH": handle_fbfetch,
}

__all__ = ["FRAGMENT"]
