"""Variant passes of the last vertex stage (VS, TES or GS): user clip planes,
back colors for two-sided color, vertex color clamping, integer pixel
centres and clip_halfz (on hosts without the GL switches), clip-space y flip.

The context puts these key fields only into the key of the stage that feeds
the rasterizer.  They run where a vertex is complete: at the end of a VS /
TES ``main`` and before every stream-0 ``EmitVertex`` of a GS.  Their order
(``passes.PASSES``) matters: clip distances use the position as the shader
wrote it, before the pixel-centre shift, the halfz remap and the y flip.

* **User clip planes** (``clip_plane_enable``): for each set bit i,
  ``gl_ClipDistance[i] = dot(v, sysvals.clip_plane[i])`` with v the
  CLIPVERTEX output when the shader writes one, else POSITION -- Gallium's
  ``pipe_clip_state.ucp`` apply to exactly that vector (st/mesa hands eye-
  space planes when the shader writes a clip vertex, clip-space planes
  otherwise).  When the shader writes CLIPDIST itself the pass adds nothing:
  "clip distances take precedence" and the enable bits then select among
  the shader's distances (p_state.h / rasterizer docs); distances the shader
  does not write count as disabled.  ``Reflection.clip_distance_mask`` says
  which gl_ClipDistance[i] the variant writes; the context enables
  GL_CLIP_DISTANCEi for ``clip_plane_enable & clip_distance_mask``.
* **Disabled shader clip distances** (``disabled_clip_distances``): the
  shader's own distances that clip_plane_enable leaves off are overwritten
  with 0.0 (which never clips).  GL would ignore them once their
  GL_CLIP_DISTANCEi is disabled, but llvmpipe clips by every written
  distance when none is enabled, so the variant makes them harmless.
  VS_WINDOW_SPACE_POSITION disables clipping in Gallium: no distances.
  Cull distances (CLIPDIST components past the clip-distance count,
  ``varyings.clip_cull_counts``) are never disabled, and a shader writing
  only those leaves clip_plane_enable to the user planes.
* **CLIPDIST for the FS** (``output_interpolation`` lists CLIPDIST[n]):
  ``glp_clipdist_n`` = the register's clip and cull distances as written,
  copied before the 0.0s above -- clip_plane_enable decides clipping, never
  the values an FS reads (docs/rasterizer.md "Clip and cull distances").
* **Back colors** (``two_side``): every BCOLOR[n] an FS may read -- n of each
  COLOR[n] output, and of each COLOR[n] listed in
  ``VariantKey.output_interpolation`` -- is declared (with COLOR[n]'s
  interpolation qualifiers, so it links with the FS's BCOLOR input); if the
  shader writes COLOR[n] but no BCOLOR[n], BCOLOR[n] = COLOR[n].
* **Vertex color clamping** (``clamp_vertex_color``): COLOR and BCOLOR
  outputs clamped to [0, 1].
* **Integer pixel centres** (``integer_pixel_centers``; rasterizer
  half_pixel_center = False where GL has no float viewport to move by half
  a pixel): Gallium samples pixel (i, j) at window (i, j), GL at
  (i + 0.5, j + 0.5).  Moving the geometry by +0.5 window pixel in x and
  y makes the two agree: G + 0.5 holds (i + 0.5, j + 0.5) exactly when G
  holds (i, j).  Window x = x / w * scale_x + translate_x (Gallium's
  transform, which glpipe's GL viewport reproduces), so +0.5 in window x
  is ``x += 0.5 * w / scale_x`` in clip space, likewise y with the signed
  scale_y.  The pass runs in Gallium's clip space, before the y flip, so
  the signed scale already gives the right direction whether or not the
  flip follows.  The scale is viewport 0's from ``sysvals.viewport_scale``
  (the only viewport such a host has), so moving the viewport never
  recompiles; a zero scale (an empty viewport, nothing drawn) adds
  nothing instead of dividing by zero.  The clip volume moves along with
  the geometry, exactly as with the shifted GL viewport of the native path.
* **clip_halfz** (``clip_halfz``; where GL has no glClipControl): Gallium
  clips 0 <= z <= w and maps NDC z in [0, 1] to depth
  ``z / w * scale_z + translate_z``; GL clips -w <= z <= w and maps NDC z
  in [-1, 1] through the depth range (n, f) to ``z_ndc * (f - n) / 2 +
  (f + n) / 2``.  With ``z' = 2z - w``: -w <= z' <= w  <=>  0 <= z <= w,
  and z'_ndc = 2 z / w - 1; with the halfz depth range n = translate_z,
  f = translate_z + scale_z (glpipe/viewport.py ``viewport_rect``) the
  depth is (2 z / w - 1) * scale_z / 2 + translate_z + scale_z / 2
  = z / w * scale_z + translate_z, Gallium's value.  x, y and w are
  untouched, so perspective interpolation and the window position do not
  change; depth clamping (GL_DEPTH_CLAMP) clamps to [n, f], Gallium's
  [translate_z, translate_z + scale_z] too.
* **Viewport depth** (``viewport_depth``; near plane off, far plane on):
  Gallium clamps depth only to [0, 1] there (depth_clamp = !depth_clip_far
  is off), GL_DEPTH_CLAMP to the depth range.  The context gives the host
  the depth range [0, 1] with NDC z in [-1, 1] (no halfz: with both GL
  planes off and the far one a clip distance from the unchanged position,
  clip_halfz changes nothing but the transform, which is Gallium's
  ``z / w * scale_z + translate_z`` either way), and the pass writes
  ``z' = 2 d - w`` with ``d = z * scale_z + translate_z * w``: GL's depth
  is then z'_ndc * 1/2 + 1/2 = d / w, Gallium's window depth, and the
  host's clamp to [0, 1] is Gallium's.  x, y and w are untouched.  Viewport
  0's scale and translate come from the sysvals block (never recompiles);
  a window-space position has no viewport transform: no pass.
* **y flip** (``y_flip``): ``gl_Position.y = -gl_Position.y``.  With the GL
  viewport rectangle built from |scale| this is how a negative viewport y
  scale is emulated; for a window-system framebuffer (FS ``y_flip``, GL
  rows mirrored) the context mirrors the viewport as well, so the last
  vertex stage's bit is (negative y scale) XOR (window-system framebuffer);
  docs/lowering.md has the table.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..varyings import clip_cull_counts, varying_block, varying_name


def _outputs(em) -> Dict[Tuple[str, int], Tuple[int, object]]:
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


def clip_vertex_source(em) -> Optional[str]:
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


def user_clip_distances(em) -> List[str]:
    """gl_ClipDistance[i] from the user clip planes (see the module docstring)."""
    if shader_clip_distance_mask(em):
        # The shader's own clip distances take precedence.  Cull distances are
        # not clip distances: with only those the user planes apply.
        return []
    source = clip_vertex_source(em)
    if source is None:
        return []
    em.use_sysvals()
    mask = em.key.clip_plane_enable
    return [f"gl_ClipDistance[{i}] = dot({source}, sysvals.clip_plane[{i}]);"
            for i in range(8) if (mask >> i) & 1]


def fs_clipdist_registers(key) -> Tuple[int, ...]:
    """The CLIPDIST registers the FS reads (``VariantKey.output_interpolation``)."""
    return tuple(sorted({sidx for sem, sidx, _i, _l in key.output_interpolation if sem == "CLIPDIST"}))


def declare_clipdist_varyings(em) -> None:
    """Declare the varying of each CLIPDIST register the FS reads (the FS's
    qualifiers, so the two link at GLSL 3.30)."""
    for sidx in fs_clipdist_registers(em.key):
        qual = em.io._output_qualifiers("CLIPDIST", sidx)[0]
        em.io._declare(varying_block("out", varying_name("CLIPDIST", sidx), qual))


def copy_clipdist_varyings(em) -> List[str]:
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


def zero_disabled_clip_distances(em) -> List[str]:
    """gl_ClipDistance[i] = 0.0 for the shader's distances clip_plane_enable disables."""
    mask = em.key.disabled_clip_distances & shader_clip_distance_mask(em)
    return [f"gl_ClipDistance[{i}] = 0.0;   // disabled by clip_plane_enable" for i in range(8) if (mask >> i) & 1]


def declare_back_colors(em) -> None:
    """Declare the BCOLOR[n] outputs two-sided color needs; remember which copy COLOR[n]."""
    outs = _outputs(em)
    wanted = {sidx for sem, sidx in outs if sem == "COLOR"}
    wanted |= {sidx for sem, sidx, _i, _l in em.key.output_interpolation if sem == "COLOR"}
    copies: List[Tuple[str, str]] = []
    for n in sorted(wanted):
        if ("BCOLOR", n) in outs:
            continue                     # the shader has its own back color
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


def copy_clip_vertex_varying(em) -> List[str]:
    """The CLIPVERTEX local into that varying (where the stage writes one)."""
    outs = _outputs(em)
    if ("CLIPVERTEX", 0) not in outs:
        return []
    local = em.io.local_outputs.get(outs[("CLIPVERTEX", 0)][0], "glp_clipvertex")
    return [f"{varying_name('CLIPVERTEX', 0)} = {local};   // the next stage (a GS) reads the clip vertex"]


def copy_back_colors(em) -> List[str]:
    """BCOLOR[n] = COLOR[n] where the shader writes no BCOLOR[n]."""
    return [f"{back} = {front};" for back, front in em.pass_state.get("back_color_copies", ())]


def clamp_vertex_colors(em) -> List[str]:
    """Clamp COLOR / BCOLOR outputs (including the back-color copies) to [0, 1]."""
    names = [varying_name(sem, sidx) for sem, sidx in sorted(_outputs(em)) if sem in ("COLOR", "BCOLOR")]
    names += [back for back, _ in em.pass_state.get("back_color_copies", ())]
    return [f"{name} = clamp({name}, 0.0, 1.0);" for name in sorted(set(names))]


def shift_to_integer_pixel_centers(em) -> List[str]:
    """Move clip-space x, y by +0.5 window pixel (see the module docstring)."""
    if ("POSITION", 0) not in _outputs(em):
        return []
    em.use_sysvals()
    return [f"gl_Position.{c} += (sysvals.viewport_scale.{c} != 0.0) ? "
            f"0.5 * gl_Position.w / sysvals.viewport_scale.{c} : 0.0;   // integer pixel centres"
            for c in "xy"]


def remap_clip_halfz(em) -> List[str]:
    """Clip-space z' = 2z - w: Gallium's [0, w] onto GL's [-w, w] (see the module docstring)."""
    if ("POSITION", 0) not in _outputs(em):
        return []
    return ["gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;   // clip_halfz"]


def viewport_depth(em) -> List[str]:
    """Clip-space z' = 2 (z * scale_z + translate_z * w) - w (see the module docstring)."""
    if ("POSITION", 0) not in _outputs(em) or em.io.window_space_position:
        return []
    em.use_sysvals()
    depth = "gl_Position.z * sysvals.viewport_scale.z + sysvals.viewport_translate.z * gl_Position.w"
    return [f"gl_Position.z = 2.0 * ({depth}) - gl_Position.w;   // viewport depth"]


def flip_position_y(em) -> List[str]:
    """Negate clip-space y (see the module docstring)."""
    if ("POSITION", 0) not in _outputs(em):
        return []
    return ["gl_Position.y = -gl_Position.y;   // y flip"]


__all__ = ["written_clip_distances", "shader_clip_distance_mask", "zero_disabled_clip_distances",
           "fs_clipdist_registers", "declare_clipdist_varyings", "copy_clipdist_varyings",
           "clip_vertex_source", "user_clip_distances", "declare_back_colors", "copy_back_colors",
           "declare_clip_vertex_varying", "copy_clip_vertex_varying",
           "clamp_vertex_colors", "shift_to_integer_pixel_centers", "remap_clip_halfz", "viewport_depth",
           "flip_position_y"]
