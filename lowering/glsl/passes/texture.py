"""GL_CLAMP wrap emulation: the texture-coordinate variant pass (``VariantKey.gl_clamp``).

The rules each pass follows, and why: docs/lowering.md, "Variant passes,
module by module" (GL_CLAMP).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..exprs import Expr, swizzle_text, var

# GLSL sampler kind -> how many leading coordinates are s, t, r (layers excluded).
# Cube maps, buffers and multisample textures have no wrap to emulate.
CLAMPED_COORDS = {"1D": 1, "1DArray": 1, "2D": 2, "2DRect": 2, "2DArray": 2, "3D": 3}


def sampler_mask(key, sampler: int) -> tuple[bool, bool, bool]:
    """(s, t, r): which coordinates of SAMP ``sampler`` use GL_CLAMP."""
    return tuple(bool((key.gl_clamp[c] >> sampler) & 1) for c in range(3))


@dataclass(frozen=True)
class ClampedCoords:
    """The coordinates of one GL_CLAMP lookup: ``coords`` (clamped) replaces the
    lookup's coordinates; ``original`` is the unclamped copy (for derivatives)."""

    coords: Expr
    original: Expr

    def keep_lod(self, em, row, func: str, args: list[Expr], extra: Expr | None):
        """(func, args, extra) of the lookup with the LOD of the unclamped coordinate:
        an implicit-LOD ``texture`` in a fragment shader on a mipmapped target
        becomes ``textureGrad`` (docs/lowering.md "Variant passes"); anything else is
        returned unchanged."""
        if func != "texture" or em.proc != "FRAG" or not row.mips or row.grad == 0:
            return func, args, extra
        n = row.grad
        comps = swizzle_text(range(n))
        source = self.original.text if self.original.n == n else f"{self.original.text}.{comps}"
        gtype = "float" if n == 1 else f"vec{n}"
        dx, dy = f"dFdx({source})", f"dFdy({source})"
        if extra is not None:  # a bias: scaling the gradients by 2^bias adds it to the LOD
            scale = em.tmp("bias_scale")
            em.line(f"float {scale} = exp2({extra.text});")
            dx, dy = f"{dx} * {scale}", f"{dy} * {scale}"
        grads = [Expr(dx, "float", n, False), Expr(dy, "float", n, False)]
        em.line(f"// GL_CLAMP: keep the LOD of the unclamped coordinate ({gtype} gradients)")
        return "textureGrad", list(args) + grads, None


def would_clamp(key, sampler: int, row) -> bool:
    """True when a lookup of target ``row`` through SAMP ``sampler`` clamps a coordinate."""
    mask = sampler_mask(key, sampler)
    return any(mask[c] for c in range(CLAMPED_COORDS.get(row.glsl, 0)))


def clamp_coords(em, sampler: int, row, coords: Expr, sampler_name: str) -> ClampedCoords | None:
    """Clamp the GL_CLAMP coordinates of a lookup through SAMP ``sampler``.

    ``coords`` are the lookup's first components (it may include the layer and
    the shadow reference, which stay as they are).  Emits two locals and
    returns them, or returns None when no coordinate of this lookup is
    clamped (the lookup is then emitted exactly as without the pass).
    """
    if not any(em.key.gl_clamp):
        return None
    mask = sampler_mask(em.key, sampler)
    n = CLAMPED_COORDS.get(row.glsl, 0)
    comps = [c for c in range(min(n, coords.n)) if mask[c]]
    if not comps:
        return None
    gtype = coords.glsl_type
    original = em.tmp("coord")
    clamped = em.tmp("clamped")
    em.line(f"{gtype} {original} = {coords.text};")
    em.line(f"{gtype} {clamped} = {original};")
    sw = swizzle_text(comps)
    lower, upper = "0.0", "1.0"
    if row.glsl == "2DRect":  # texel coordinates: [0, size]
        upper = f"vec2(textureSize({sampler_name})).{sw}"
        if len(comps) > 1:
            lower = f"vec{len(comps)}(0.0)"  # clamp(vecN, vecN, vecN)
    lhs = clamped if coords.n == 1 else f"{clamped}.{sw}"
    em.line(f"{lhs} = clamp({lhs}, {lower}, {upper});   // GL_CLAMP (sampler {sampler})")
    return ClampedCoords(var(clamped, coords.type, coords.n), var(original, coords.type, coords.n))


__all__ = ["clamp_coords", "would_clamp", "ClampedCoords", "sampler_mask", "CLAMPED_COORDS"]
