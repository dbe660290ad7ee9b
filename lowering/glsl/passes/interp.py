"""INTERP_OFFSET / INTERP_SAMPLE / INTERP_CENTROID without GLSL 4.00's interpolateAt*:
re-interpolation from screen-space derivatives.

docs/lowering.md "Interpolation functions without interpolateAt* (GLSL 3.30)" has the contract.
"""

from __future__ import annotations

from ...errors import UnsupportedError

# Per-fragment terms of gl_FragCoord.w (W, dW/dx, dW/dy): shared by every smooth input.
_W_TERMS = "glp_ia_w"
_EVAL_SMOOTH = "glp_interp_smooth"
_EVAL_LINEAR = "glp_interp_linear"
_HELPERS = {
    _EVAL_SMOOTH: (
        f"vec4 {_EVAL_SMOOTH}(vec4 p, vec4 px, vec4 py, vec3 w, vec2 o)\n{{\n"
        "    // (v/w at c + o) / (1/w at c + o): perspective-correct at the new position\n"
        "    return (p + px * o.x + py * o.y) / (w.x + w.y * o.x + w.z * o.y);\n}"
    ),
    _EVAL_LINEAR: (
        f"vec4 {_EVAL_LINEAR}(vec4 p, vec4 px, vec4 py, vec2 o)\n{{\n    return p + px * o.x + py * o.y;\n}}"
    ),
}
_SAMPLE_POS = "glp_sample_pos"
_STATE = "interp_emulation"  # em.pass_state key: next prologue slot


def emulated(em) -> bool:
    """True when the host has no interpolateAt* (GLSL 400 / ARB_gpu_shader5)."""
    return not em.req.has("interpolate_at")


def _prologue_line(em, decl: str, init: str) -> None:
    """A file-scope variable assigned at the very top of ``main`` (before the
    variant passes' kills: derivatives want uniform control flow)."""
    if decl in em.global_decls:
        return
    em.global_decls.append(decl)
    slot = em.pass_state.get(_STATE, 0)
    em.prologue.insert(slot, init)
    em.pass_state[_STATE] = slot + 1


def _input_qualifiers(em, name: str) -> tuple[str, str]:
    """(interpolation, location) the emitted FS input ``name`` was declared with."""
    for info in em.io.inputs:
        if info.name == name:
            return info.interpolation or "PERSPECTIVE", info.sample_location or "CENTER"
    return "PERSPECTIVE", "CENTER"


def _planes(em, name: str, interp: str) -> tuple[str, str, str]:
    """Names of the (value, d/dx, d/dy) globals of ``name`` (times W when smooth)."""
    base = f"glp_ia_{name}"
    if interp == "PERSPECTIVE":
        _prologue_line(
            em, f"vec3 {_W_TERMS};", f"{_W_TERMS} = vec3(gl_FragCoord.w, dFdx(gl_FragCoord.w), dFdy(gl_FragCoord.w));"
        )
        _prologue_line(em, f"vec4 {base};", f"{base} = {name} * gl_FragCoord.w;")
    else:
        _prologue_line(em, f"vec4 {base};", f"{base} = {name};")
    _prologue_line(em, f"vec4 {base}_dx;", f"{base}_dx = dFdx({base});")
    _prologue_line(em, f"vec4 {base}_dy;", f"{base}_dy = dFdy({base});")
    return base, f"{base}_dx", f"{base}_dy"


def _sample_offset(em, index: str) -> str | None:
    """GLSL vec2: sample ``index``'s position minus the pixel centre; None
    on a single-sample framebuffer (every sample is the centre)."""
    flat = em.key.sample_positions
    if not flat:
        return None
    n = len(flat) // 2
    items = ", ".join(f"vec2({flat[2 * k]!r}, {flat[2 * k + 1]!r})" for k in range(n))
    decl = f"const vec2 {_SAMPLE_POS}[{n}] = vec2[{n}]({items});"
    if decl not in em.global_decls:
        em.global_decls.append(decl)
    # An index past the pattern is undefined (GLSL 4.00 8.13.2); clamp so the
    # read stays inside the array.
    return f"({_SAMPLE_POS}[clamp({index}, 0, {n - 1})] - vec2(0.5))"


def _refuse_msaa(em, op: str, index: int, why: str) -> None:
    if em.key.sample_positions:
        raise UnsupportedError(
            f"{op} of IN[{index}] on a multisampled framebuffer ({len(em.key.sample_positions) // 2} samples) "
            f"without GLSL 400 / GL_ARB_gpu_shader5: {why}"
        )


def reinterpolate(em, op: str, index: int, name: str, arg: str | None, qualifiers_of: str) -> str:
    """GLSL vec4: FS input varying ``name`` (IN[``index``]) re-interpolated
    as ``op`` asks; ``arg`` is INTERP_SAMPLE's int sample index or
    INTERP_OFFSET's vec2 offset (None for INTERP_CENTROID).  The varying is
    declared like ``qualifiers_of`` (a two-sided BCOLOR like its COLOR)."""
    interp, location = _input_qualifiers(em, qualifiers_of)
    if interp == "CONSTANT":
        return name  # flat: the provoking vertex's value everywhere
    if op == "INTERP_CENTROID":
        if location != "CENTROID":
            _refuse_msaa(
                em,
                op,
                index,
                "the centroid depends on the fragment's sample coverage, "
                "which GLSL 3.30 cannot read (gl_SampleMaskIn is GLSL 400)",
            )
        return name  # centroid-sampled already, or the centre (single-sample)
    if location == "CENTROID":
        _refuse_msaa(
            em,
            op,
            index,
            "the input is declared CENTROID, so its value at the pixel centre "
            "(the origin of the offset) is not available",
        )
    offset = arg if op == "INTERP_OFFSET" else _sample_offset(em, arg)
    if offset is None:
        return name  # INTERP_SAMPLE, single-sample: the centre
    p, px, py = _planes(em, name, interp)
    if interp == "PERSPECTIVE":
        em.helper(_EVAL_SMOOTH, _HELPERS[_EVAL_SMOOTH])
        return f"{_EVAL_SMOOTH}({p}, {px}, {py}, {_W_TERMS}, {offset})"
    em.helper(_EVAL_LINEAR, _HELPERS[_EVAL_LINEAR])
    return f"{_EVAL_LINEAR}({p}, {px}, {py}, {offset})"


__all__ = ["emulated", "reinterpolate"]
