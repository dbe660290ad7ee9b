"""INTERP_OFFSET / INTERP_SAMPLE / INTERP_CENTROID without GLSL 4.00's interpolateAt*:
re-interpolation from screen-space derivatives.

On a multisampled framebuffer two values are not what GLSL 3.30 hands the FS:
the centroid of a CENTER input and the pixel-centre value of a CENTROID one.
The last vertex stage then writes a copy of the varying with the other
qualifier (``VariantKey.interp_copies``, in its key and the FS's alike):
``needed_copies`` lists them from the FS's TGSI, ``declare_copies`` /
``write_copies`` are the last stage's variant pass, ``reinterpolate`` reads
them in the FS.

docs/lowering.md "Interpolation functions without interpolateAt* (GLSL 3.30)" has the contract.
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..varyings import INTERSTAGE_VARYINGS, varying_block, varying_name

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


# Semantics the FS may re-interpolate that travel in a glp_<semantic>_<n> varying
# (the others are built-ins, which handle_interp refuses).
_COPYABLE = INTERSTAGE_VARYINGS | {"CLIPDIST"}
_OPS = frozenset({"INTERP_CENTROID", "INTERP_SAMPLE", "INTERP_OFFSET"})


def copy_name(name: str, location: str) -> str:
    """The GLSL varying holding ``name`` interpolated at ``location`` (``CENTER``/``CENTROID``)."""
    return f"{name}_at_{location.lower()}"


def needed_copies(shader, flatshade: bool = False) -> tuple[tuple[str, int, str], ...]:
    """``VariantKey.interp_copies`` of an FS (IR ``Shader``) drawn without
    interpolateAt* on a multisampled framebuffer: (semantic, index, location)
    of each varying an INTERP_* reads at the location GLSL 3.30 does not
    deliver -- INTERP_CENTROID of a CENTER input needs its centroid,
    INTERP_OFFSET / INTERP_SAMPLE of a CENTROID input its centre (the origin
    of the offset).  Flat inputs need nothing (the provoking value): CONSTANT
    ones, and COLOR ones under ``flatshade``."""
    flat = ("CONSTANT", "COLOR") if flatshade else ("CONSTANT",)
    inputs = {}
    for decl in shader.declarations:
        if decl.file == "IN" and decl.semantic in _COPYABLE and decl.interpolate not in flat:
            for reg in range(decl.first, decl.last + 1):
                inputs[reg] = (decl.semantic, decl.semantic_index + reg - decl.first, decl.location or "CENTER")
    out: list[tuple[str, int, str]] = []
    for inst in shader.instructions:
        if inst.opcode not in _OPS or not inst.srcs:
            continue
        src = inst.srcs[0]
        found = inputs.get(src.index) if src.file == "IN" and src.indirect is None else None
        if found is None:
            continue
        semantic, index, location = found
        want = "CENTROID" if inst.opcode == "INTERP_CENTROID" else "CENTER"
        if (want == "CENTROID") == (location == "CENTROID"):
            continue  # the declared varying already is the value at that location
        if (semantic, index, want) not in out:
            out.append((semantic, index, want))
    return tuple(out)


def _copies_of(em) -> list[tuple[str, str, str]]:
    """(source varying, copy, qualifiers) the last stage writes for its key's
    interp_copies: the varying with the FS's interpolation at the copy's
    location; a COLOR's BCOLOR too under two_side (the FS picks by face)."""
    out = []
    for semantic, index, location in em.key.interp_copies:
        found = em.key.interpolation_for(semantic, index)
        interp = found[0] if found is not None else "PERSPECTIVE"
        qual = em.io._qualifiers(interp, location, semantic)[0]
        names = [varying_name(semantic, index)]
        if semantic == "COLOR" and em.key.two_side:
            names.append(varying_name("BCOLOR", index))
        out += [(name, copy_name(name, location), qual) for name in names]
    return out


def declare_copies(em) -> None:
    """Declare the last stage's interp_copies outputs (one block each, as every varying)."""
    for _name, copy, qual in _copies_of(em):
        em.io._declare(varying_block("out", copy, qual))


def write_copies(em) -> list[str]:
    """The copies = the varyings as the vertex leaves the stage (after the
    passes that change user outputs: the two-sided and clamped colors)."""
    return [f"{copy} = {name};   // the FS re-interpolates it (interp_copies)" for name, copy, _q in _copies_of(em)]


def _copy_input(em, name: str, qualifiers_of: str, location: str) -> str | None:
    """The FS input holding varying ``name`` at ``location`` when the key lists
    it (the entry of ``qualifiers_of``'s semantic: a BCOLOR rides on its
    COLOR's), declared with the input's interpolation; None when not keyed."""
    for info in em.io.inputs:
        if info.name == qualifiers_of:
            semantic, index, interp = info.semantic, info.semantic_index, info.interpolation or "PERSPECTIVE"
            break
    else:
        return None
    if (semantic, index, location) not in em.key.interp_copies:
        return None
    copy = copy_name(name, location)
    qual = em.io._qualifiers(interp, location, semantic)[0]
    em.io._declare(varying_block("in", copy, qual))
    return copy


def _msaa_refusal(em, op: str, index: int, why: str) -> UnsupportedError:
    """The refusal of ``op`` on a multisampled framebuffer when the key has no copy for it
    (a key made by hand, without the last stage's interp_copies)."""
    return UnsupportedError(
        f"{op} of IN[{index}] on a multisampled framebuffer ({len(em.key.sample_positions) // 2} samples) "
        f"without GLSL 400 / GL_ARB_gpu_shader5 and without VariantKey.interp_copies: {why}"
    )


def reinterpolate(em, op: str, index: int, name: str, arg: str | None, qualifiers_of: str) -> str:
    """GLSL vec4: FS input varying ``name`` (IN[``index``]) re-interpolated
    as ``op`` asks; ``arg`` is INTERP_SAMPLE's int sample index or
    INTERP_OFFSET's vec2 offset (None for INTERP_CENTROID).  The varying is
    declared like ``qualifiers_of`` (a two-sided BCOLOR like its COLOR)."""
    interp, location = _input_qualifiers(em, qualifiers_of)
    if interp == "CONSTANT":
        return name  # flat: the provoking vertex's value everywhere
    msaa = bool(em.key.sample_positions)
    if op == "INTERP_CENTROID":
        if location != "CENTROID" and msaa:
            copy = _copy_input(em, name, qualifiers_of, "CENTROID")
            if copy is not None:
                return copy  # the last stage's centroid-qualified copy (interp_copies)
            raise _msaa_refusal(
                em,
                op,
                index,
                "the centroid depends on the fragment's sample coverage, "
                "which GLSL 3.30 cannot read (gl_SampleMaskIn is GLSL 400)",
            )
        return name  # centroid-sampled already, or the centre (single-sample)
    if location == "CENTROID" and msaa:
        copy = _copy_input(em, name, qualifiers_of, "CENTER")
        if copy is None:
            raise _msaa_refusal(
                em,
                op,
                index,
                "the input is declared CENTROID, so its value at the pixel centre "
                "(the origin of the offset) is not available",
            )
        name = copy  # re-interpolate from the pixel-centre copy (interp_copies)
    offset = arg if op == "INTERP_OFFSET" else _sample_offset(em, arg)
    if offset is None:
        return name  # INTERP_SAMPLE, single-sample: the centre
    p, px, py = _planes(em, name, interp)
    if interp == "PERSPECTIVE":
        em.helper(_EVAL_SMOOTH, _HELPERS[_EVAL_SMOOTH])
        return f"{_EVAL_SMOOTH}({p}, {px}, {py}, {_W_TERMS}, {offset})"
    em.helper(_EVAL_LINEAR, _HELPERS[_EVAL_LINEAR])
    return f"{_EVAL_LINEAR}({p}, {px}, {py}, {offset})"


__all__ = ["copy_name", "declare_copies", "emulated", "needed_copies", "reinterpolate", "write_copies"]
