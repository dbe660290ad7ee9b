"""Texture opcodes: TEX* and SAMPLE* families, fetches, gathers, queries, built from
one ``TARGETS`` row per TGSI texture target.

docs/lowering.md "Textures" gives the tgsi.rst rules; docs/bindings.md the
sampler uniforms and texture units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import InvalidArgumentError, UnsupportedError
from .exprs import Expr, call, component, construct, literal, swizzle, var
from .indexing import active, wrap_table
from .passes.texture import clamp_coords, sampler_mask, would_clamp
from .reflection import SamplerInfo
from .shadow_swizzle import class_of, compare_result
from .signatures import sampler_index
from .texture_emul import gather, query_levels, query_lod


@dataclass(frozen=True)
class Target:
    """One TGSI texture target (see the module docstring)."""

    glsl: str
    shadow: bool
    coords: int
    grad: int
    offset: int
    size: int
    mips: bool
    feature: str | None = None

    @property
    def pvec(self) -> int:
        """Components of GLSL's P for texture() (shadow reference included)."""
        if not self.shadow:
            return self.coords
        if self.glsl == "CubeArray":
            return 4
        return max(self.coords + 1, 3)


TARGETS = {
    "1D": Target("1D", False, 1, 1, 1, 1, True),
    "2D": Target("2D", False, 2, 2, 2, 2, True),
    "3D": Target("3D", False, 3, 3, 3, 3, True),
    "CUBE": Target("Cube", False, 3, 3, 0, 2, True),
    "RECT": Target("2DRect", False, 2, 2, 2, 2, False),
    "SHADOW1D": Target("1D", True, 1, 1, 1, 1, True),
    "SHADOW2D": Target("2D", True, 2, 2, 2, 2, True),
    "SHADOWRECT": Target("2DRect", True, 2, 2, 2, 2, False),
    "1D_ARRAY": Target("1DArray", False, 2, 1, 1, 2, True),
    "2D_ARRAY": Target("2DArray", False, 3, 2, 2, 3, True),
    "SHADOW1D_ARRAY": Target("1DArray", True, 2, 1, 1, 2, True),
    "SHADOW2D_ARRAY": Target("2DArray", True, 3, 2, 2, 3, True),
    "SHADOWCUBE": Target("Cube", True, 3, 3, 0, 2, True),
    "2D_MSAA": Target("2DMS", False, 2, 0, 0, 2, False),
    "2D_ARRAY_MSAA": Target("2DMSArray", False, 3, 0, 0, 3, False),
    "CUBEARRAY": Target("CubeArray", False, 4, 3, 0, 3, True, "texture_cube_map_array"),
    "SHADOWCUBEARRAY": Target("CubeArray", True, 4, 3, 0, 3, True, "texture_cube_map_array"),
    "BUFFER": Target("Buffer", False, 1, 0, 0, 1, False),
}

# Host quirk (glpipe/host/quirks.py): no sampler arrays for indexed lookups on this host.
INDEXED_SAMPLER_ARRAY_CRASH = "indexed_sampler_array_crash"

# Non-shadow target -> its shadow twin (SAMPLE_C on a plain view).
SHADOW_OF = {
    "1D": "SHADOW1D",
    "2D": "SHADOW2D",
    "RECT": "SHADOWRECT",
    "1D_ARRAY": "SHADOW1D_ARRAY",
    "2D_ARRAY": "SHADOW2D_ARRAY",
    "CUBE": "SHADOWCUBE",
    "CUBEARRAY": "SHADOWCUBEARRAY",
}


def target_row(name: str | None, opcode: str) -> Target:
    """The TARGETS row of ``name`` or InvalidArgumentError."""
    if name not in TARGETS:
        raise InvalidArgumentError(f"{opcode}: texture target {name!r} is not one GLSL can sample")
    return TARGETS[name]


def sampler_uniform(em, view: int, sampler: int | None, target_name: str, ret: str) -> str:
    """The GLSL sampler uniform for (view, sampler, target); declared on first use.

    ``sampler`` None means "no sampler state involved" (size queries, texel
    fetches): any uniform of the view with the right GLSL type will do, and
    a later lookup with a real sampler adopts it."""
    row = TARGETS[target_name]
    if row.feature:
        em.req.need(row.feature, f"texture target {target_name}")
    prefix = {"float": "", "int": "i", "uint": "u"}[ret]
    if row.shadow and ret != "float":
        raise InvalidArgumentError(f"shadow sampling of SVIEW[{view}] with {ret} texels")
    glsl_type = f"{prefix}sampler{row.glsl}{'Shadow' if row.shadow else ''}"
    array = active(em)
    if array is not None:  # SAMP / SVIEW[ADDR...]: an element of a sampler array
        return _sampler_array(em, array, view, sampler, target_name, ret, glsl_type)
    for k, info in enumerate(em.samplers):
        if info.view != view or info.glsl_type != glsl_type:
            continue
        if sampler is None or info.sampler == sampler:
            return info.name
        if info.sampler is None:
            em.samplers[k] = replace(info, sampler=sampler)
            return info.name
    same_view = [s for s in em.samplers if s.view == view]
    if not same_view:
        unit = em.layout.texture_unit(em.proc, view)
        name = f"glp_{em.prefix}_samp{view}"
    else:
        taken = {s.unit for s in em.samplers}
        taken |= {em.layout.stage(em.proc).tex_base + n for n in set(em.decls.sviews) | set(em.decls.samplers)}
        unit = em.layout.free_texture_unit(em.proc, taken)
        if unit is None:
            raise UnsupportedError(
                f"SVIEW[{view}] is sampled through {len(same_view) + 1} GLSL samplers "
                f"and the stage's texture units are exhausted"
            )
        name = f"glp_{em.prefix}_samp{view}_{len(same_view)}"
    qual = f"layout(binding = {unit}) " if em.binding_qualifier() else ""
    em.declare(f"{qual}uniform {glsl_type} {name};", "sampler", unit)
    em.samplers.append(SamplerInfo(name, unit, view, sampler, target_name, ret, row.shadow, glsl_type))
    em.sampler_units[name] = unit
    return name


def _array_elements(indexing, view: int, sampler: int | None) -> tuple[tuple[int, int | None], ...]:
    """(view, sampler) of every element of an indexed lookup (indexing.py); an operand
    that is not indexed names the same slot in every element."""
    n = indexing.count
    views = indexing.indices("SVIEW") or (view,) * n
    samplers = (indexing.indices("SAMP") or (sampler,) * n) if sampler is not None else (None,) * n
    return tuple(zip(views, samplers, strict=True))


def _sampler_array(em, array, view: int, sampler: int | None, target_name: str, ret: str, glsl_type: str) -> str:
    """``name[index]`` of the sampler array of an indexed lookup (declared on first use).

    Element e is (view, sampler) pair e of the range, on unit ``tex_base + view_e``
    (docs/bindings.md) when those units hold nothing else; otherwise, or when
    the views do not step by one (a fixed view sampled with an indexed
    sampler), on a free block of consecutive units of the stage."""
    elements = _array_elements(array.indexing, view, sampler)
    registry = em.pass_state.setdefault("sampler_arrays", {})
    key = (glsl_type, elements)
    name = registry.get(key)
    if name is None:
        n = len(elements)
        views = [v for v, _ in elements]
        base = em.layout.stage(em.proc).tex_base
        units = [em.layout.texture_unit(em.proc, v) for v in views]
        steps = all(views[e] == views[0] + e for e in range(n))
        clash = any(
            info.unit == u and (info.glsl_type, info.view, info.sampler) != (glsl_type, v, s)
            for info in em.samplers
            for u, (v, s) in zip(units, elements, strict=True)
        )
        if not steps or clash:
            taken = {info.unit for info in em.samplers}
            taken |= {base + k for k in set(em.decls.sviews) | set(em.decls.samplers)}
            first = em.layout.free_texture_units(em.proc, taken, n)
            if first is None:
                raise UnsupportedError(
                    f"SVIEW[{views[0]}..{views[-1]}] indexed as {glsl_type}: no {n} "
                    f"consecutive free texture units left in the stage's range"
                )
            units = list(range(first, first + n))
        name = f"glp_{em.prefix}_samparr{len(registry)}"
        qual = f"layout(binding = {units[0]}) " if em.binding_qualifier() else ""
        em.declare(f"{qual}uniform {glsl_type} {name}[{n}];", "sampler", units[0])
        row = TARGETS[target_name]
        for e, ((v, s), unit) in enumerate(zip(elements, units, strict=True)):
            element = f"{name}[{e}]"
            em.samplers.append(SamplerInfo(element, unit, v, s, target_name, ret, row.shadow, glsl_type))
            em.sampler_units[element] = unit
        registry[key] = name
    return f"{name}[{array.index}]"


def array_ok(em, inst, indexing) -> bool:
    """Whether the elements of an indexed lookup can share one GLSL sampler array:
    the same return type and declared target, the same comparison class
    (shadow_swizzle.py keys it by view), and the same GL_CLAMP coordinates
    (passes/texture.py keys the clamp by sampler); else the lookup is a switch.
    Never on a host with the quirk ``indexed_sampler_array_crash`` (glpipe/host/quirks.py):
    its driver crashes on a uniform-indexed sampler array beside another target, and
    the switch selects the same element in range (out of range tgsi.rst leaves it undefined)."""
    if em.req.fact(INDEXED_SAMPLER_ARRAY_CRASH):
        return False
    views = indexing.indices("SVIEW")
    if len({em.decls.sview_return_type(v) for v in views}) > 1:
        return False
    if len({em.decls.sview_target(v) for v in views}) > 1:
        return False
    if len({class_of(em.key, v) for v in views}) > 1:
        return False
    return len({sampler_mask(em.key, s) for s in indexing.indices("SAMP")}) <= 1


def _offsets(em, i: int, inst, row: Target, allow_dynamic: bool = False) -> Expr | None:
    """The texel offset of ``inst`` as an ivecN, or None (one offset at most:
    only TG4 takes four, see ``handle_tg4``)."""
    if not inst.tex_offsets:
        return None
    if len(inst.tex_offsets) > 1:
        raise UnsupportedError(f"{inst.opcode} with {len(inst.tex_offsets)} offsets: GLSL takes one")
    return _offset(em, i, inst, row, 0, allow_dynamic)


def _offset(em, i: int, inst, row: Target, k: int, allow_dynamic: bool, emulated: bool = False) -> Expr:
    """Texel offset operand ``k`` of ``inst`` as an ivecN (a literal for an
    immediate; a register read, gpu_shader5 only, when ``allow_dynamic``;
    ``emulated``: for the GLSL 3.30 gather, which takes any int expression)."""
    off = inst.tex_offsets[k]
    n = row.offset
    if n == 0:
        raise UnsupportedError(f"{inst.opcode}: texel offsets on target {inst.texture or 'of the view'}")
    if off.file == "IMM":
        words = em.decls.immediate_words(off.index)
        return literal("int", [words[off.swizzle[c]] for c in range(n)])
    if not allow_dynamic:
        raise UnsupportedError(
            f"{inst.opcode} with a non-constant offset ({off.file}[{off.index}]): "
            f"GLSL texture offsets must be constant expressions"
        )
    if not emulated:
        em.req.need("gather_extended", f"{inst.opcode} with a non-constant offset")
    return em.read_register(i, "o", k, _OffsetReg(off), tuple(off.swizzle[:n]), "int")


class _OffsetReg:
    """A texture-offset operand seen as a source register (for read_register)."""

    def __init__(self, off):
        self.file = off.file
        self.index = off.index
        self.indirect = None
        self.dimension = None
        self.dim_indirect = None
        self.array_id = 0


def _ret_type(em, view: int) -> str:
    return em.decls.sview_return_type(view)


def _emit_result(em, i: int, inst, value: Expr, result_swizzle: Sequence[int] = (0, 1, 2, 3)) -> None:
    """Write a texture result (vec4, or a comparison) to dst 0."""
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    if value.n == 1:
        # A comparison: Gallium's (c, c, c, 1) through the view swizzle, then
        # the operand swizzle (shadow_swizzle.py, VariantKey.shadow_swizzle).
        em.write(i, 0, comps, compare_result(em, inst, value, [result_swizzle[c] for c in comps]))
    else:
        em.write(i, 0, comps, swizzle(value, [result_swizzle[c] for c in comps]))


def _call(func: str, args: Sequence[Expr], t: str, n: int) -> Expr:
    return call(f"{func}({', '.join(a.text for a in args)})", t, n)


def _coords(em, i, s, n, t="float") -> Expr:
    return em.src(i, s, tuple(range(n)), t)


# ---------------------------------------------------------------------------
# TEX family
# ---------------------------------------------------------------------------


def _sample(em, i, inst, kind: str) -> None:
    """TEX / TXB / TXL / TXP / TEX_LZ / TXD and their *2 forms."""
    op = inst.opcode
    tname = inst.texture
    row = target_row(tname, op)
    unit = sampler_index(inst)
    ret = _ret_type(em, unit)
    s = sampler_uniform(em, unit, unit, tname, ret)
    offset = _offsets(em, i, inst, row)
    result_n = 1 if row.shadow else 4
    if row.glsl in ("Buffer", "2DMS", "2DMSArray"):
        raise InvalidArgumentError(f"{op} cannot sample target {tname} (use TXF)")
    two = op in ("TEX2", "TXB2", "TXL2")
    cube_array_shadow = row.shadow and row.glsl == "CubeArray"
    if cube_array_shadow and not two:
        raise InvalidArgumentError(f"{op} on SHADOWCUBEARRAY: the reference must come from TEX2/TXB2/TXL2")
    if op == "TXP":
        _txp(em, i, inst, row, s, ret, offset)
        return
    p = _coords(em, i, 0, row.pvec)
    clamp = clamp_coords(em, unit, row, p, s)  # VariantKey.gl_clamp (passes/texture.py)
    if clamp is not None:
        p = clamp.coords
    args: list[Expr] = [var(s, "float", 1), p]
    if cube_array_shadow:
        ref = em.src(i, 1, (1,) if op in ("TXB2", "TXL2") else (0,), "float")
        args.append(ref)
    func = "texture"
    extra: Expr | None = None
    if kind == "bias":
        if row.glsl == "2DRect":
            extra = None  # rectangles have no mip levels: the bias changes nothing
        else:
            extra = em.src(i, 1, (0,), "float") if two else em.src(i, 0, (3,), "float")
            if row.shadow and row.glsl in ("CubeArray", "2DArray"):
                em.req.need("shadow_lod", f"{op} on {tname}")
    elif kind in ("lod", "lz"):
        if row.glsl == "2DRect":
            extra = None
        else:
            func = "textureLod"
            if kind == "lz":
                extra = literal("float", (0,))
            else:
                extra = em.src(i, 1, (0,), "float") if two else em.src(i, 0, (3,), "float")
            if row.shadow and row.glsl in ("Cube", "CubeArray", "2DArray"):
                em.req.need("shadow_lod", f"{op} on {tname}")
    elif kind == "grad":
        if cube_array_shadow:
            raise UnsupportedError(f"{op} on SHADOWCUBEARRAY: GLSL has no textureGrad for it")
        func = "textureGrad"
        args += [_coords(em, i, 1, row.grad), _coords(em, i, 2, row.grad)]
    if clamp is not None:
        func, args, extra = clamp.keep_lod(em, row, func, args, extra)
    _finish(em, i, inst, func, args, extra, offset, ret, result_n)


def _finish(em, i, inst, func, args, extra, offset, ret, result_n, result_swizzle=(0, 1, 2, 3)) -> None:
    """Append the lod/bias and offset in GLSL's order (textureLodOffset(s, P, lod, off);
    textureOffset(s, P, off, bias)) and write the result."""
    if func == "textureLod" and extra is not None:
        args.append(extra)
        extra = None
    if offset is not None:
        func += "Offset"
        args.append(offset)
    if extra is not None:
        args.append(extra)
    _emit_result(em, i, inst, _call(func, args, ret, result_n), result_swizzle)


def _txp(em, i, inst, row: Target, s: str, ret: str, offset: Expr | None) -> None:
    """TXP: coord.xyz / coord.w; textureProj where GLSL has it."""
    result_n = 1 if row.shadow else 4
    unit = sampler_index(inst)
    if row.glsl in ("1D", "2D", "3D", "2DRect") and not would_clamp(em.key, unit, row):
        args = [var(s, "float", 1), _coords(em, i, 0, 4)]
        func = "textureProj"
        if offset is not None:
            func += "Offset"
            args.append(offset)
        _emit_result(em, i, inst, _call(func, args, ret, result_n))
        return
    q = em.src(i, 0, (3,), "float")
    p = _coords(em, i, 0, row.pvec)
    divided = Expr(f"{p.p()} / {q.p()}", "float", p.n, False)
    func, extra = "texture", None
    clamp = clamp_coords(em, unit, row, divided, s)  # GL_CLAMP applies to the projected coordinate
    if clamp is not None:
        divided = clamp.coords
    args = [var(s, "float", 1), divided]
    if clamp is not None:
        func, args, extra = clamp.keep_lod(em, row, func, args, extra)
    _finish(em, i, inst, func, args, extra, offset, ret, result_n)


def handle_txf(em, i, inst) -> None:
    """TXF / TXF_LZ: texelFetch (src0.w = lod, or the sample for MSAA)."""
    tname = inst.texture
    row = target_row(tname, inst.opcode)
    if row.shadow or row.glsl in ("Cube", "CubeArray"):
        raise InvalidArgumentError(f"{inst.opcode} cannot fetch from target {tname}")
    unit = sampler_index(inst)
    ret = _ret_type(em, unit)
    s = sampler_uniform(em, unit, unit, tname, ret)
    _fetch(em, i, inst, s, row, ret, coord_src=0, lod=(None if inst.opcode == "TXF_LZ" else (0, 3)), sample=(0, 3))


def _fetch(
    em, i, inst, s: str, row: Target, ret: str, coord_src: int, lod, sample, result_swizzle=(0, 1, 2, 3)
) -> None:
    args: list[Expr] = [var(s, "float", 1), _coords(em, i, coord_src, row.coords, "int")]
    if row.glsl in ("2DMS", "2DMSArray"):
        src_index, pos = sample
        args.append(em.src(i, src_index, (pos,), "int"))
    elif row.mips:
        args.append(em.src(i, lod[0], (lod[1],), "int") if lod is not None else literal("int", (0,)))
    offset = _offsets(em, i, inst, row)
    func = "texelFetch"
    if offset is not None:
        if row.glsl in ("Buffer", "2DMS", "2DMSArray"):
            raise UnsupportedError(f"{inst.opcode}: texel offsets on {row.glsl} textures")
        func = "texelFetchOffset"
        args.append(offset)
    _emit_result(em, i, inst, _call(func, args, ret, 4), result_swizzle)


def _size_query(em, s: str, row: Target, lod: Expr | None, comps: Sequence[int], what: str, view: int) -> Expr:
    """(width, height|layers, depth|layers, levels) for the written ``comps``, as ints;
    components the target has no size for read 0 (tgsi.rst: undefined).  The
    level count is textureQueryLevels where the host has it, else the bound
    view's count from the sysvals block (texture_emul.query_levels)."""
    size = call(f"textureSize({s}{', ' + lod.text if row.mips and lod is not None else ''})", "int", row.size)
    dims = [c for c in comps if c < row.size]
    parts: list[Expr] = []
    if dims and tuple(dims) == tuple(comps[: len(dims)]):
        parts.append(swizzle(size, dims))  # one textureSize() for the leading components
        rest = comps[len(dims) :]
    else:
        rest = comps
    for c in rest:
        if c < row.size:
            parts.append(component(size, c))
        elif c == 3 and row.mips:
            if em.req.has("texture_query_levels"):
                em.req.need("texture_query_levels", f"{what}.w (number of mip levels)")
                parts.append(call(f"textureQueryLevels({s})", "int", 1))
            else:
                parts.append(query_levels(em, view))
        elif c == 3:
            parts.append(literal("int", (1,)))  # no mip chain: one level
        else:
            parts.append(literal("int", (0,)))
    return construct(parts, "int")


def handle_txq(em, i, inst) -> None:
    """TXQ / TXQ_LZ: size of mip level src0.x and the number of levels."""
    tname = inst.texture
    row = target_row(tname, inst.opcode)
    unit = sampler_index(inst)
    s = sampler_uniform(em, unit, unit, tname, _ret_type(em, unit))
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    lod = em.src(i, 0, (0,), "int") if inst.opcode == "TXQ" else literal("int", (0,))
    em.write(i, 0, comps, _size_query(em, s, row, lod, comps, inst.opcode, unit))


def handle_txqs(em, i, inst) -> None:
    """TXQS: dst.x = number of samples."""
    tname = inst.texture
    row = target_row(tname, inst.opcode)
    unit = sampler_index(inst)
    s = sampler_uniform(em, unit, unit, tname, _ret_type(em, unit))
    em.req.need("texture_image_samples", "TXQS")
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    value = call(f"textureSamples({s})", "int", 1) if row.glsl in ("2DMS", "2DMSArray") else literal("int", (1,))
    em.write(i, 0, comps, value)


def handle_lodq(em, i, inst) -> None:
    """LODQ: dst.xy = textureQueryLod (x: level accessed, y: raw lambda)."""
    tname = inst.texture
    row = target_row(tname, inst.opcode)
    unit = sampler_index(inst)
    ret = _ret_type(em, unit)
    s = sampler_uniform(em, unit, unit, tname, ret)
    _lod_query(em, i, inst, s, row, ret, unit, unit)


def _lod_query(em, i, inst, s: str, row: Target, ret: str, view: int, sampler: int) -> None:
    coords = row.coords - (1 if "Array" in row.glsl else 0)
    if em.req.has("texture_query_lod"):
        em.req.need("texture_query_lod", inst.opcode)
        func = "textureQueryLod" if em.req.core("texture_query_lod") else "textureQueryLOD"
        lod = call(f"{func}({s}, {_coords(em, i, 0, coords).text})", "float", 2)
    else:  # the GL formula, sampler state from the sysvals block (texture_emul.query_lod)
        prefix = {"float": "", "int": "i", "uint": "u"}[ret]
        stype = f"{prefix}sampler{row.glsl}{'Shadow' if row.shadow else ''}"
        lod = query_lod(em, s, stype, row.glsl, _coords(em, i, 0, coords), view, sampler)
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    parts = [component(lod, c) if c < 2 else literal("float", (0,)) for c in comps]
    em.write(i, 0, comps, construct(parts, "float") if any(c >= 2 for c in comps) else swizzle(lod, comps))


def handle_tg4(em, i, inst) -> None:
    """TG4: textureGather; component from src1.x (immediate), shadow reference
    after the coordinates (cube array: src1.x).

    One texel offset is textureGatherOffset's.  Four offsets (Gallium's
    TEXTURE_GATHER_OFFSETS) are textureGatherOffsets': texel k of the result
    is the i0j0 texel of the LINEAR footprint at P + offsets[k] (GLSL 4.00
    section 8.9.3).  GLSL wants those offsets constant, so immediates become
    an ``ivec2[4]`` literal; run-time ones take texel k as
    ``textureGatherOffset(s, P, offsets[k]).w`` (.w is i0j0), which is the
    same texel by definition."""
    tname = inst.texture
    row = target_row(tname, inst.opcode)
    if row.glsl not in ("2D", "2DArray", "Cube", "CubeArray", "2DRect"):
        raise InvalidArgumentError(f"TG4 cannot gather from target {tname}")
    n_offsets = len(inst.tex_offsets)
    if n_offsets not in (0, 1, 4):
        raise InvalidArgumentError(f"TG4 takes one or four texel offsets, not {n_offsets}")
    if not _native_gather(em, inst, row):
        _emulated_gather(em, i, inst, row)
        return
    if n_offsets == 4:
        em.req.need("gather_extended", "TG4 with four offsets (TEXTURE_GATHER_OFFSETS)")
    em.req.need("texture_gather", "TG4")
    unit = sampler_index(inst)
    ret = _ret_type(em, unit)
    s = sampler_uniform(em, unit, unit, tname, ret)
    coords = _coords(em, i, 0, row.coords)
    clamp = clamp_coords(em, unit, row, coords, s)  # VariantKey.gl_clamp (passes/texture.py)
    args: list[Expr] = [var(s, "float", 1), clamp.coords if clamp is not None else coords]
    comp: list[Expr] = []
    if row.shadow:
        em.req.need("gather_extended", "TG4 with a shadow compare")
        if row.glsl == "CubeArray":
            args.append(em.src(i, 1, (0,), "float"))
        else:
            args.append(em.src(i, 0, (row.coords,), "float"))
    else:
        which = _gather_component(em, inst)
        if which:
            em.req.need("gather_extended", "TG4 of a component other than x")
            comp.append(literal("int", (which,)))
    if n_offsets == 4:
        _emit_result(em, i, inst, _gather_offsets(em, i, inst, row, args, comp, ret))
        return
    offset = _offsets(em, i, inst, row, allow_dynamic=True)
    func = "textureGather"
    if offset is not None:
        func = "textureGatherOffset"
        args.append(offset)
    _emit_result(em, i, inst, _call(func, args + comp, ret, 4))


def _gather_component(em, inst) -> int:
    """TG4's component select, src1.x (an immediate: GLSL wants a constant)."""
    comp_src = inst.srcs[1]
    if comp_src.file != "IMM" or comp_src.indirect is not None:
        raise UnsupportedError("TG4 with a non-immediate component: GLSL needs a constant component")
    return em.decls.immediate_words(comp_src.index)[comp_src.swizzle[0]]


def _native_gather(em, inst, row: Target) -> bool:
    """Whether the host's textureGather* can do this TG4 (else texture_emul.gather):
    textureGather itself, plus gpu_shader5 for a component other than x, a
    shadow compare, four offsets or a run-time offset."""
    if not em.req.has("texture_gather"):
        return False
    if em.req.has("gather_extended"):
        return True
    extended = (
        row.shadow
        or len(inst.tex_offsets) == 4
        or any(off.file != "IMM" for off in inst.tex_offsets)
        or _gather_component(em, inst) != 0
    )
    return not extended


def _emulated_gather(em, i, inst, row: Target) -> None:
    """TG4 as four texel fetches (texture_emul.gather) on a host without the
    textureGather form it needs."""
    unit = sampler_index(inst)
    ret = _ret_type(em, unit)
    s = sampler_uniform(em, unit, unit, inst.texture, ret)
    coords = _coords(em, i, 0, row.coords)
    clamp = clamp_coords(em, unit, row, coords, s)  # VariantKey.gl_clamp (passes/texture.py)
    if clamp is not None:
        coords = clamp.coords
    ref = None
    which = 0
    if row.shadow:
        ref = em.src(i, 1 if row.glsl == "CubeArray" else 0, (0 if row.glsl == "CubeArray" else row.coords,), "float")
    else:
        which = _gather_component(em, inst)
    n = len(inst.tex_offsets)
    offsets = None
    if n:
        read = [_offset(em, i, inst, row, k, allow_dynamic=True, emulated=True) for k in range(n)]
        offsets = read * 4 if n == 1 else read
    prefix = {"float": "", "int": "i", "uint": "u"}[ret]
    stype = f"{prefix}sampler{row.glsl}{'Shadow' if row.shadow else ''}"
    _emit_result(em, i, inst, gather(em, s, stype, row.glsl, coords, which, offsets, ref, ret, n == 4, unit))


def _gather_offsets(em, i, inst, row: Target, args: list[Expr], comp: list[Expr], ret: str) -> Expr:
    """TG4 with four offsets (see handle_tg4) as a gvec4 expression."""
    offsets = [_offset(em, i, inst, row, k, allow_dynamic=True) for k in range(4)]
    if all(o.is_literal for o in offsets):
        array = Expr(f"ivec{row.offset}[4]({', '.join(o.text for o in offsets)})", "int", row.offset)
        return _call("textureGatherOffsets", args + [array] + comp, ret, 4)
    texels = [component(_call("textureGatherOffset", args + [o] + comp, ret, 4), 3) for o in offsets]
    return construct(texels, ret)


# ---------------------------------------------------------------------------
# SAMPLE family (separate view and sampler)
# ---------------------------------------------------------------------------


def _view(em, inst, s_index: int) -> tuple[int, str, Sequence[int]]:
    view = inst.srcs[s_index]
    target = em.decls.sview_target(view.index)
    if target is None:
        raise InvalidArgumentError(f"{inst.opcode}: SVIEW[{view.index}] is not declared")
    return view.index, target, view.swizzle


def handle_sample(em, i, inst) -> None:
    """SAMPLE / _B / _L / _C / _C_LZ / _D / GATHER4 / LOD."""
    op = inst.opcode
    view, target, swz = _view(em, inst, 1)
    sampler = inst.srcs[2].index
    compare = op in ("SAMPLE_C", "SAMPLE_C_LZ")
    if compare:
        target = SHADOW_OF.get(target, target)
    row = target_row(target, op)
    ret = _ret_type(em, view)
    s = sampler_uniform(em, view, sampler, target, ret)
    if op == "LOD":
        _lod_query(em, i, inst, s, row, ret, view, sampler)
        return
    coords = _coords(em, i, 0, row.coords)
    clamp = clamp_coords(em, sampler, row, coords, s)  # VariantKey.gl_clamp (passes/texture.py)
    if clamp is not None:
        coords = clamp.coords
    args: list[Expr] = [var(s, "float", 1)]
    result_n = 4
    if compare:
        ref = em.src(i, 3, (0,), "float")
        result_n = 1
        if row.glsl == "CubeArray":
            args += [coords, ref]
        elif row.glsl == "1D":
            args.append(construct([coords, literal("float", (0,)), ref], "float"))
        else:
            args.append(construct([coords, ref], "float"))
    else:
        args.append(coords)
    func = "texture"
    extra: Expr | None = None
    if op == "SAMPLE_B":
        extra = em.src(i, 3, (0,), "float")
    elif op == "SAMPLE_L":
        func, extra = "textureLod", em.src(i, 3, (0,), "float")
    elif op == "SAMPLE_C_LZ":
        func, extra = "textureLod", literal("float", (0,))
        if row.glsl in ("Cube", "CubeArray", "2DArray"):
            em.req.need("shadow_lod", f"SAMPLE_C_LZ on {target}")
    elif op == "SAMPLE_D":
        func = "textureGrad"
        args += [_coords(em, i, 3, row.grad), _coords(em, i, 4, row.grad)]
    elif op == "GATHER4":
        if not em.req.has("texture_gather"):  # four lookups (texture_emul.gather)
            _emulated_gather4(em, i, inst, row, s, coords, ret, sampler, swz)
            return
        em.req.need("texture_gather", "GATHER4")
        func = "textureGather"
    offset = _offsets(em, i, inst, row, allow_dynamic=(op == "GATHER4"))
    if clamp is not None:
        func, args, extra = clamp.keep_lod(em, row, func, args, extra)
    _finish(em, i, inst, func, args, extra, offset, ret, result_n, swz)


def _emulated_gather4(em, i, inst, row: Target, s: str, coords: Expr, ret: str, sampler: int, swz) -> None:
    """GATHER4 without textureGather: TG4's lookups of component x (the view's
    red after its swizzle), one offset at most, then the operand swizzle."""
    offsets = None
    if inst.tex_offsets:
        if len(inst.tex_offsets) > 1:
            raise UnsupportedError(f"GATHER4 with {len(inst.tex_offsets)} offsets: it takes one")
        offsets = [_offset(em, i, inst, row, 0, allow_dynamic=True, emulated=True)] * 4
    prefix = {"float": "", "int": "i", "uint": "u"}[ret]
    stype = f"{prefix}sampler{row.glsl}"
    _emit_result(em, i, inst, gather(em, s, stype, row.glsl, coords, 0, offsets, None, ret, False, sampler), swz)


def handle_sample_i(em, i, inst) -> None:
    """SAMPLE_I / SAMPLE_I_MS: unfiltered fetch with integer coordinates."""
    view, target, swz = _view(em, inst, 1)
    row = target_row(target, inst.opcode)
    ret = _ret_type(em, view)
    s = sampler_uniform(em, view, None, target, ret)
    _fetch(em, i, inst, s, row, ret, coord_src=0, lod=(0, 3), sample=(2, 0), result_swizzle=swz)


def handle_sviewinfo(em, i, inst) -> None:
    """SVIEWINFO: (width, height, depth|layers, levels) of mip src0.x (view swizzle ignored)."""
    view, target, _ = _view(em, inst, 1)
    row = target_row(target, inst.opcode)
    s = sampler_uniform(em, view, None, target, _ret_type(em, view))
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    lod = em.src(i, 0, (0,), "int")
    em.write(i, 0, comps, _size_query(em, s, row, lod, comps, "SVIEWINFO", view))


def handle_sample_info(em, i, inst) -> None:
    """SAMPLE_INFO: dst.x = samples of a view (or of the render target)."""
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    src = inst.srcs[0]
    if src.file == "SVIEW":
        view, target, swz = _view(em, inst, 0)
        row = target_row(target, inst.opcode)
        s = sampler_uniform(em, view, None, target, _ret_type(em, view))
        if row.glsl in ("2DMS", "2DMSArray"):
            em.req.need("texture_image_samples", "SAMPLE_INFO")
            n = call(f"textureSamples({s})", "int", 1)
        else:
            n = literal("int", (1,))  # a single-sampled view: one sample, any GLSL
    else:
        em.req.need("sample_shading", "SAMPLE_INFO of the render target")
        n = var("gl_NumSamples", "int", 1)
        swz = src.swizzle
    # The result is (samples, 0, 0, 0); tgsi.rst applies the source swizzle to it.
    parts = [n if swz[c] == 0 else literal("int", (0,)) for c in comps]
    em.write(i, 0, comps, construct(parts, "int"))


def handle_sample_pos(em, i, inst) -> None:
    raise UnsupportedError(
        "SAMPLE_POS: GLSL cannot query the sample positions of a resource (no Gallium driver implements it either)"
    )


def handle_bindless(em, i, inst) -> None:
    raise UnsupportedError(
        f"{inst.opcode}: bindless handles need GL_ARB_bindless_texture, which glpipe does not expose"
    )


TEXTURE = {
    "TEX": lambda em, i, inst: _sample(em, i, inst, "tex"),
    "TEX2": lambda em, i, inst: _sample(em, i, inst, "tex"),
    "TXB": lambda em, i, inst: _sample(em, i, inst, "bias"),
    "TXB2": lambda em, i, inst: _sample(em, i, inst, "bias"),
    "TXL": lambda em, i, inst: _sample(em, i, inst, "lod"),
    "TXL2": lambda em, i, inst: _sample(em, i, inst, "lod"),
    "TEX_LZ": lambda em, i, inst: _sample(em, i, inst, "lz"),
    "TXD": lambda em, i, inst: _sample(em, i, inst, "grad"),
    "TXP": lambda em, i, inst: _sample(em, i, inst, "proj"),
    "TXF": handle_txf,
    "TXF_LZ": handle_txf,
    "TXQ": handle_txq,
    "TXQ_LZ": handle_txq,
    "TXQS": handle_txqs,
    "LODQ": handle_lodq,
    "TG4": handle_tg4,
    "SAMPLE": handle_sample,
    "SAMPLE_B": handle_sample,
    "SAMPLE_L": handle_sample,
    "SAMPLE_C": handle_sample,
    "SAMPLE_C_LZ": handle_sample,
    "SAMPLE_D": handle_sample,
    "GATHER4": handle_sample,
    "LOD": handle_sample,
    "SAMPLE_I": handle_sample_i,
    "SAMPLE_I_MS": handle_sample_i,
    "SVIEWINFO": handle_sviewinfo,
    "SAMPLE_INFO": handle_sample_info,
    "SAMPLE_POS": handle_sample_pos,
    "IMG2HND": handle_bindless,
    "SAMP2HND": handle_bindless,
}

# SAMP / SVIEW[ADDR...] operands: an array element or a switch over the range (indexing.py).
TEXTURE = wrap_table(
    TEXTURE, array_ok, opcodes=[op for op in TEXTURE if op not in ("SAMPLE_POS", "IMG2HND", "SAMP2HND")]
)

__all__ = ["TEXTURE", "TARGETS", "Target", "sampler_uniform"]
