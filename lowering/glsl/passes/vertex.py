"""Variant passes of the last vertex stage (VS, TES or GS): user clip planes,
back colors for two-sided color, vertex color clamping, integer pixel
centres and clip_halfz (on hosts without the GL switches), clip-space y flip.

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (Last vertex stage passes).
"""

from __future__ import annotations

from ..varyings import clip_cull_counts, varying_block, varying_name


def _outputs(em) -> dict[tuple[str, int], tuple[int, object]]:
    """(semantic, semantic index) -> (OUT register, declaration) of every declared output."""
    out = {}
    for index, decl in sorted(em.decls.outputs.items()):
        semantic, sidx = em.decls.semantic_of(decl, index)
        if semantic is not None:
            out.setdefault((semantic, sidx), (index, decl))
    return out


def _clipdist_registers(shader) -> int:
    """Bit r: the shader declares an OUT CLIPDIST[r]."""
    regs = 0
    for decl in shader.declarations:
        if decl.file == "OUT" and decl.semantic == "CLIPDIST":
            for index in range(decl.first, decl.last + 1):
                regs |= 1 << (decl.semantic_index + index - decl.first)
    return regs


def written_clip_distances(shader) -> int:
    """Bits of the gl_ClipDistance elements a shader's own CLIPDIST outputs write:
    the components of its CLIPDIST registers below its clip-distance count
    (``varyings.clip_cull_counts``: those past it are cull distances; a shader
    with only NUM_CULLDIST_ENABLED writes none).  Works on the IR, so the
    context can compute ``disabled_clip_distances`` before lowering."""
    regs = _clipdist_registers(shader)
    mask = sum(0xF << (4 * r) for r in range(2) if (regs >> r) & 1)
    nclip, _ncull = clip_cull_counts(shader)
    if nclip is not None:
        mask &= (1 << nclip) - 1
    return mask & 0xFF


def shader_clip_distance_mask(em) -> int:
    """``written_clip_distances`` of the shader being lowered."""
    return written_clip_distances(em.shader)


def clip_vertex_source(em) -> str | None:
    """The GLSL vector the user clip planes apply to: the CLIPVERTEX local, else
    gl_Position; None without either, or with a window-space position."""
    if em.io.window_space_position:
        return None
    outs = _outputs(em)
    if ("CLIPVERTEX", 0) in outs:
        index = outs[("CLIPVERTEX", 0)][0]
        return em.io.local_outputs.get(index, "glp_clipvertex")
    if ("POSITION", 0) in outs:
        return "gl_Position"
    return None


def user_clip_distances(em) -> list[str]:
    """gl_ClipDistance[i] from the user clip planes (docs/lowering.md "Variant passes")."""
    if shader_clip_distance_mask(em):
        # The shader's own clip distances take precedence.  Cull distances are
        # not clip distances: with only those the user planes apply.
        return []
    source = clip_vertex_source(em)
    if source is None:
        return []
    em.use_sysvals()
    mask = em.key.clip_plane_enable
    return [f"gl_ClipDistance[{i}] = dot({source}, sysvals.clip_plane[{i}]);" for i in range(8) if (mask >> i) & 1]


def fs_clipdist_registers(key) -> tuple[int, ...]:
    """The CLIPDIST registers the FS reads (``VariantKey.output_interpolation``)."""
    return tuple(sorted({sidx for sem, sidx, _i, _l in key.output_interpolation if sem == "CLIPDIST"}))


def declare_clipdist_varyings(em) -> None:
    """Declare the varying of each CLIPDIST register the FS reads (the FS's
    qualifiers, so the two link at GLSL 3.30)."""
    for sidx in fs_clipdist_registers(em.key):
        qual = em.io._output_qualifiers("CLIPDIST", sidx)[0]
        em.io._declare(varying_block("out", varying_name("CLIPDIST", sidx), qual))


def copy_clipdist_varyings(em) -> list[str]:
    """Each CLIPDIST varying the FS reads = the register as the shader wrote it,
    clip then cull distances, ahead of the disabled distances' 0.0 (which only
    stop the host from clipping by them).  Components the shader has no
    distance for (an undeclared register, past the enabled counts) are 0.0,
    one of the values Gallium leaves undefined there."""
    regs = _clipdist_registers(em.shader)
    out = []
    for sidx in fs_clipdist_registers(em.key):
        values = []
        for c in range(4):
            k = 4 * sidx + c
            view = em.io._clip_component(k, lvalue=False) if (regs >> sidx) & 1 else None
            values.append(view.text if view is not None else "0.0")
        out.append(f"{varying_name('CLIPDIST', sidx)} = vec4({', '.join(values)});   // the FS reads CLIPDIST[{sidx}]")
    return out


def zero_disabled_clip_distances(em) -> list[str]:
    """gl_ClipDistance[i] = 0.0 for the shader's distances clip_plane_enable disables."""
    mask = em.key.disabled_clip_distances & shader_clip_distance_mask(em)
    return [f"gl_ClipDistance[{i}] = 0.0;   // disabled by clip_plane_enable" for i in range(8) if (mask >> i) & 1]


def declare_back_colors(em) -> None:
    """Declare the BCOLOR[n] outputs two-sided color needs; remember which copy COLOR[n]."""
    outs = _outputs(em)
    wanted = {sidx for sem, sidx in outs if sem == "COLOR"}
    wanted |= {sidx for sem, sidx, _i, _l in em.key.output_interpolation if sem == "COLOR"}
    copies: list[tuple[str, str]] = []
    for n in sorted(wanted):
        if ("BCOLOR", n) in outs:
            continue  # the shader has its own back color
        back = varying_name("BCOLOR", n)
        qual = em.io._output_qualifiers("BCOLOR", n)[0]
        prefix = ""
        if ("COLOR", n) in outs:
            front_decl = outs[("COLOR", n)][1]
            stream = front_decl.stream[0] if em.proc == "GEOM" else 0
            if stream:
                prefix = f"layout(stream = {stream}) "
            copies.append((back, varying_name("COLOR", n)))
        em.io._declare(varying_block("out", back, qual, prefix=prefix))
    em.pass_state["back_color_copies"] = copies


def declare_clip_vertex_varying(em) -> None:
    """VS / TES before a GS reading CLIPVERTEX: declare the varying it reads."""
    if ("CLIPVERTEX", 0) in _outputs(em):
        em.io._declare(varying_block("out", varying_name("CLIPVERTEX", 0)))


def copy_clip_vertex_varying(em) -> list[str]:
    """The CLIPVERTEX local into that varying (where the stage writes one)."""
    outs = _outputs(em)
    if ("CLIPVERTEX", 0) not in outs:
        return []
    local = em.io.local_outputs.get(outs[("CLIPVERTEX", 0)][0], "glp_clipvertex")
    return [f"{varying_name('CLIPVERTEX', 0)} = {local};   // the next stage (a GS) reads the clip vertex"]


def copy_back_colors(em) -> list[str]:
    """BCOLOR[n] = COLOR[n] where the shader writes no BCOLOR[n]."""
    return [f"{back} = {front};" for back, front in em.pass_state.get("back_color_copies", ())]


def clamp_vertex_colors(em) -> list[str]:
    """Clamp COLOR / BCOLOR outputs (including the back-color copies) to [0, 1]."""
    names = [varying_name(sem, sidx) for sem, sidx in sorted(_outputs(em)) if sem in ("COLOR", "BCOLOR")]
    names += [back for back, _ in em.pass_state.get("back_color_copies", ())]
    return [f"{name} = clamp({name}, 0.0, 1.0);" for name in sorted(set(names))]


def shift_to_integer_pixel_centers(em) -> list[str]:
    """Move clip-space x, y by +0.5 window pixel (docs/lowering.md "Variant passes")."""
    if ("POSITION", 0) not in _outputs(em):
        return []
    em.use_sysvals()
    return [
        f"gl_Position.{c} += (sysvals.viewport_scale.{c} != 0.0) ? "
        f"0.5 * gl_Position.w / sysvals.viewport_scale.{c} : 0.0;   // integer pixel centres"
        for c in "xy"
    ]


def remap_clip_halfz(em) -> list[str]:
    """Clip-space z' = 2z - w: Gallium's [0, w] onto GL's [-w, w] (docs/lowering.md "Variant passes")."""
    if ("POSITION", 0) not in _outputs(em):
        return []
    return ["gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;   // clip_halfz"]


def viewport_depth(em) -> list[str]:
    """Clip-space z' = 2 (z * scale_z + translate_z * w) - w (docs/lowering.md "Variant passes")."""
    if ("POSITION", 0) not in _outputs(em) or em.io.window_space_position:
        return []
    em.use_sysvals()
    depth = "gl_Position.z * sysvals.viewport_scale.z + sysvals.viewport_translate.z * gl_Position.w"
    return [f"gl_Position.z = 2.0 * ({depth}) - gl_Position.w;   // viewport depth"]


def flip_position_y(em) -> list[str]:
    """Negate clip-space y (docs/lowering.md "Variant passes")."""
    if ("POSITION", 0) not in _outputs(em):
        return []
    return ["gl_Position.y = -gl_Position.y;   // y flip"]


__all__ = [
    "written_clip_distances",
    "shader_clip_distance_mask",
    "zero_disabled_clip_distances",
    "fs_clipdist_registers",
    "declare_clipdist_varyings",
    "copy_clipdist_varyings",
    "clip_vertex_source",
    "user_clip_distances",
    "declare_back_colors",
    "copy_back_colors",
    "declare_clip_vertex_varying",
    "copy_clip_vertex_varying",
    "clamp_vertex_colors",
    "shift_to_integer_pixel_centers",
    "remap_clip_halfz",
    "viewport_depth",
    "flip_position_y",
]
