"""Blend state: create/bind/delete_blend_state, set_blend_color,
set_sample_mask, set_min_samples (``BlendPart`` at ``ctx.blend_part``).

docs/architecture.md "The blend area" explains the create-time resolution, the
format-dependent factors, dual-source blending and the shadowed emit.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from lowering.errors import InvalidArgumentError, UnsupportedError

from .boundary import in_range, numbers_of, show
from .dirty import Dirty
from .enums import PIPE_MAX_COLOR_BUFS, Blend, BlendFactor, LogicOp, Mask
from .formats import host_storage, util_format_description
from .host.hotgl import OP
from .host.shadow import host_shadow
from .part import Area, Part
from .templates import BlendState

F = BlendFactor
_BLEND_CSO = Dirty.BLEND_CSO  # a module global: read per bind

_GL_FACTOR = {
    F.ONE: "GL_ONE",
    F.SRC_COLOR: "GL_SRC_COLOR",
    F.SRC_ALPHA: "GL_SRC_ALPHA",
    F.DST_ALPHA: "GL_DST_ALPHA",
    F.DST_COLOR: "GL_DST_COLOR",
    F.SRC_ALPHA_SATURATE: "GL_SRC_ALPHA_SATURATE",
    F.CONST_COLOR: "GL_CONSTANT_COLOR",
    F.CONST_ALPHA: "GL_CONSTANT_ALPHA",
    F.SRC1_COLOR: "GL_SRC1_COLOR",
    F.SRC1_ALPHA: "GL_SRC1_ALPHA",
    F.ZERO: "GL_ZERO",
    F.INV_SRC_COLOR: "GL_ONE_MINUS_SRC_COLOR",
    F.INV_SRC_ALPHA: "GL_ONE_MINUS_SRC_ALPHA",
    F.INV_DST_ALPHA: "GL_ONE_MINUS_DST_ALPHA",
    F.INV_DST_COLOR: "GL_ONE_MINUS_DST_COLOR",
    F.INV_CONST_COLOR: "GL_ONE_MINUS_CONSTANT_COLOR",
    F.INV_CONST_ALPHA: "GL_ONE_MINUS_CONSTANT_ALPHA",
    F.INV_SRC1_COLOR: "GL_ONE_MINUS_SRC1_COLOR",
    F.INV_SRC1_ALPHA: "GL_ONE_MINUS_SRC1_ALPHA",
}
_GL_EQUATION = {
    Blend.ADD: "GL_FUNC_ADD",
    Blend.SUBTRACT: "GL_FUNC_SUBTRACT",
    Blend.REVERSE_SUBTRACT: "GL_FUNC_REVERSE_SUBTRACT",
    Blend.MIN: "GL_MIN",
    Blend.MAX: "GL_MAX",
}
_SRC1_FACTORS = frozenset({F.SRC1_COLOR, F.SRC1_ALPHA, F.INV_SRC1_COLOR, F.INV_SRC1_ALPHA})

# -- factor fixups per render-target kind (Gallium factor -> Gallium factor) --
# No alpha channel: destination alpha reads 1 (util_blend_dst_alpha_to_one).
_NO_ALPHA = {F.DST_ALPHA: F.ONE, F.INV_DST_ALPHA: F.ZERO}
# ... and on the colour channels SRC_ALPHA_SATURATE = min(As, 1 - Ad) = 0.
_NO_ALPHA_RGB = {**_NO_ALPHA, F.SRC_ALPHA_SATURATE: F.ZERO}
# Alpha stored in host red: the alpha-channel factors, evaluated on a host
# colour channel.  Host dst red *is* the alpha, host src alpha is the shader's
# alpha, the constant's alpha must be asked for by name; SRC_ALPHA_SATURATE on
# the alpha channel is 1 (GL and Gallium).
_ALPHA_IN_RED = {
    F.SRC_COLOR: F.SRC_ALPHA,
    F.INV_SRC_COLOR: F.INV_SRC_ALPHA,
    F.DST_ALPHA: F.DST_COLOR,
    F.INV_DST_ALPHA: F.INV_DST_COLOR,
    F.CONST_COLOR: F.CONST_ALPHA,
    F.INV_CONST_COLOR: F.INV_CONST_ALPHA,
    F.SRC1_COLOR: F.SRC1_ALPHA,
    F.INV_SRC1_COLOR: F.INV_SRC1_ALPHA,
    F.SRC_ALPHA_SATURATE: F.ONE,
}

# Host sampling swizzle (how the host storage emulates the format) -> kind.
# PIPE_SWIZZLE_X..W = 0..3, 0 = 4, 1 = 5.
_KIND_BY_HOST_SWIZZLE = {
    (0, 1, 2, 3): "plain",
    (0, 1, 2, 5): "no_alpha",  # RGBX held as RGBA: the stored X is not alpha
    (0, 0, 0, 5): "no_alpha",  # L held as R: host R is L, there is no alpha
    (4, 4, 4, 0): "alpha_in_red",  # A held as R
}


class _RT:
    """One render target's Gallium blend state, resolved and normalised."""

    __slots__ = ("enable", "rgb_func", "rgb_src", "rgb_dst", "alpha_func", "alpha_src", "alpha_dst", "colormask")

    def __init__(self, rt, logicop: bool):
        self.enable = bool(rt.blend_enable) and not logicop
        self.rgb_func, self.rgb_src, self.rgb_dst = _normalise(rt.rgb_func, rt.rgb_src_factor, rt.rgb_dst_factor)
        self.alpha_func, self.alpha_src, self.alpha_dst = _normalise(
            rt.alpha_func, rt.alpha_src_factor, rt.alpha_dst_factor
        )
        self.colormask = int(rt.colormask) & int(Mask.RGBA)

    def equation(self) -> tuple:
        """(rgb_func, rgb_src, rgb_dst, alpha_func, alpha_src, alpha_dst)."""
        return (self.rgb_func, self.rgb_src, self.rgb_dst, self.alpha_func, self.alpha_src, self.alpha_dst)

    def uses_src1(self) -> bool:
        """Whether an enabled blend reads the second colour source."""
        return self.enable and any(
            f in _SRC1_FACTORS for f in (self.rgb_src, self.rgb_dst, self.alpha_src, self.alpha_dst)
        )


def _normalise(func, src, dst) -> tuple:
    # MIN and MAX ignore the factors (GL 4.5 §17.3.6.2, Gallium likewise):
    # make them equal so equal behaviour compares equal.
    if func in (Blend.MIN, Blend.MAX):
        return Blend(func), F.ONE, F.ONE
    return Blend(func), F(src), F(dst)


class _GLBlock:
    """The host blend state for one (CSO, colour buffer formats).

    Per RT tuples, ``None`` = don't care (unbound RT, or the factors of a
    disabled blend).  ``full_calls`` is the whole block as GL calls
    ((GL function name, args), fewest calls: one global call per group when
    the cared-for RTs agree), emitted when the host holds nothing we can
    trust; ``after`` is what each per-RT shadow holds afterwards."""

    __slots__ = (
        "enables",
        "equations",
        "funcs",
        "masks",
        "logic",
        "alpha_to_coverage",
        "alpha_to_one",
        "dither",
        "dual_source",
        "full_calls",
        "after",
        "transitions",
    )


def _sync_group(want: tuple, have: tuple, calls: list, set_all, set_one) -> tuple:
    """Record the calls bringing one per-RT group from ``have`` (None
    entries: unknown) to ``want`` (None entries: don't care) into ``calls``;
    return the group as the host holds it afterwards.  One global call when
    every cared-for RT wants the same value (it sets every RT), else one
    indexed call per RT that differs."""
    diff = [i for i, w in enumerate(want) if w is not None and have[i] != w]
    if not diff:
        return have
    values = {w for w in want if w is not None}
    if len(values) == 1:
        value = values.pop()
        calls.append(set_all(value))
        return (value,) * len(want)
    after = list(have)
    for i in diff:
        calls.append(set_one(i, want[i]))
        after[i] = want[i]
    return tuple(after)


class BlendCSO:
    """A blend state object: the template resolved per render target, plus
    the host blocks computed so far (per colour-buffer format tuple)."""

    __slots__ = (
        "__weakref__",
        "context",
        "templ",
        "destroyed",
        "rts",
        "logicop",
        "logicop_func",
        "alpha_to_coverage",
        "alpha_to_one",
        "dither",
        "dual_source",
        "blocks",
        "fb",
        "fb_block",
    )

    def __init__(self, context, templ: BlendState, nr_rts: int):
        self.context = context
        self.templ = templ
        self.destroyed = False
        self.logicop = bool(templ.logicop_enable)
        self.logicop_func = LogicOp(templ.logicop_func)
        src = templ.rt if templ.independent_blend_enable else (templ.rt[0],) * PIPE_MAX_COLOR_BUFS
        self.rts = tuple(_RT(src[i], self.logicop) for i in range(nr_rts))
        self.alpha_to_coverage = bool(templ.alpha_to_coverage)
        self.alpha_to_one = bool(templ.alpha_to_one)
        self.dither = bool(templ.dither)
        self.dual_source = any(rt.uses_src1() for rt in self.rts)
        self.blocks: dict[tuple, _GLBlock] = {}
        self.fb = self.fb_block = None  # the framebuffer last emitted with, and its block

    def __repr__(self) -> str:
        state = "deleted" if self.destroyed else f"{len(self.blocks)} host blocks"
        return f"<BlendCSO {state}>"


class BlendPart(Part):
    """The blend area of a context (``ctx.blend_part``): blend state, blend
    colour, sample mask and min samples."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        prof = ctx.screen.profile
        gl = ctx.gl
        self._blend_nr_rts = max(1, min(prof.limit("GL_MAX_DRAW_BUFFERS"), PIPE_MAX_COLOR_BUFS))
        self._blend_indexed_funcs = prof.has("draw_buffers_blend")
        self._blend_dual_ok = prof.has("blend_func_extended")
        self._blend_max_dual = prof.limit("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS") if self._blend_dual_ok else 0
        self._sample_shading_ok = prof.has("sample_shading")
        self._max_samples = max(1, int(prof.limit("GL_MAX_SAMPLES")))  # set_min_samples' bound
        self._gl_factor = {f: int(getattr(gl, n)) for f, n in _GL_FACTOR.items()}
        self._gl_equation = {e: int(getattr(gl, n)) for e, n in _GL_EQUATION.items()}
        # By name: PIPE_LOGICOP_* are numbered by truth table, GL_CLEAR.. in another order.
        self._gl_logicop = {op: int(getattr(gl, "GL_" + op.name)) for op in LogicOp}
        self._rt_kinds: dict = {}
        self._gl_blend_cap = int(gl.GL_BLEND)
        self._gl_logic_cap = int(gl.GL_COLOR_LOGIC_OP)
        self._gl_a2c_cap = int(gl.GL_SAMPLE_ALPHA_TO_COVERAGE)
        self._gl_a2o_cap = int(gl.GL_SAMPLE_ALPHA_TO_ONE)
        self._gl_dither_cap = int(gl.GL_DITHER)
        # What the host holds of the block, shared by the host's contexts
        # (glpipe/host/shadow.py): (enables, masks, equations, funcs, logic_enable,
        # logic_op, a2c, a2o, dither), per-RT tuples, None = unknown.
        self._blend_shadow = host_shadow(ctx.host, "blend")
        self.blend = None
        self._blend_default = BlendCSO(ctx, BlendState(), self._blend_nr_rts)
        self.dual_source_key = False
        self._blend_fb = self._blend_formats = None
        self.blend_color = (0.0, 0.0, 0.0, 0.0)
        self.sample_mask = 0xFFFFFFFF
        self.min_samples = 1
        self._reset_blend_shadow()

    def _reset_blend_shadow(self) -> None:
        """Forget what the host holds for every block of this module (raw GL
        changed it): the next draw re-emits them all."""
        self._forget_blend_block()
        self._gl_min_samples = None
        self.ctx.dirty |= Dirty.BLEND | Dirty.BLEND_COLOR | Dirty.SAMPLE_MASK | Dirty.MIN_SAMPLES

    def _forget_blend_block(self) -> None:
        """The host no longer holds what was recorded (Dirty.BLEND's row in
        DERIVED_ORDER, just before _emit_blend): the next emit sends the
        whole block."""
        self._blend_shadow.forget()

    # -- CSO -----------------------------------------------------------------

    def create_blend_state(self, templ: BlendState) -> BlendCSO:
        """pipe_context::create_blend_state: validate and resolve once."""
        self.ctx.check_alive("create_blend_state")
        if not isinstance(templ, BlendState):
            raise InvalidArgumentError(f"create_blend_state: expected a BlendState, got {type(templ).__name__}")
        if templ.advanced_blend_func:
            raise UnsupportedError(
                "create_blend_state: advanced_blend_func needs "
                "PIPE_CAP_BLEND_EQUATION_ADVANCED, which glpipe does not offer"
            )
        if not 0 <= templ.max_rt < PIPE_MAX_COLOR_BUFS:
            raise InvalidArgumentError(f"BlendState.max_rt: {templ.max_rt} outside 0..{PIPE_MAX_COLOR_BUFS - 1}")
        for i, rt in enumerate(templ.rt):
            for name in ("rgb_src_factor", "rgb_dst_factor", "alpha_src_factor", "alpha_dst_factor"):
                if getattr(rt, name) not in _GL_FACTOR:
                    raise InvalidArgumentError(
                        f"BlendState.rt[{i}].{name}: {getattr(rt, name)!r} is not a blend factor"
                    )
        cso = self.ctx._own(BlendCSO(self.ctx, templ, self._blend_nr_rts))
        if cso.dual_source:
            users = [i for i, rt in enumerate(cso.rts) if rt.uses_src1()]
            if not self._blend_dual_ok:
                raise UnsupportedError(
                    "create_blend_state: SRC1_* factors need dual-source blending "
                    "(GL_ARB_blend_func_extended), not on this host profile"
                )
            if templ.independent_blend_enable and users[-1] >= self._blend_max_dual:
                raise UnsupportedError(
                    f"create_blend_state: rt[{users[-1]}] uses SRC1_* factors; dual-source blending works on "
                    f"the first {self._blend_max_dual} render target(s) only (PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS)"
                )
        if templ.independent_blend_enable and not self._blend_indexed_funcs:
            eqs = {rt.equation() for rt in cso.rts if rt.enable}
            if len(eqs) > 1:
                raise UnsupportedError(
                    "create_blend_state: independent_blend_enable with different blend functions per render "
                    "target needs GL_ARB_draw_buffers_blend (PIPE_CAP_INDEP_BLEND_FUNC is 0 on this host "
                    "profile); per-RT enables and colormasks are fine"
                )
        return cso

    def bind_blend_state(self, cso: BlendCSO | None) -> None:
        """pipe_context::bind_blend_state (None: back to the default state,
        which is GL's: no blending, all channels written, no dither)."""
        if cso is self.blend:
            return
        ctx = self.ctx
        if cso is None:
            dual = False
        else:
            if type(cso) is not BlendCSO or cso.context is not ctx or cso.destroyed:
                ctx._check_cso(cso, BlendCSO, "bind_blend_state")  # raises, naming what is wrong
            dual = cso.dual_source
        self.blend = cso
        ctx.dirty |= _BLEND_CSO
        if dual != self.dual_source_key:
            self.dual_source_key = dual
            ctx.dirty |= Dirty.PROGRAM  # VariantKey.dual_source_blend

    def delete_blend_state(self, cso: BlendCSO) -> None:
        """pipe_context::delete_blend_state.  Deleting the bound state is a
        frontend bug in Gallium; glpipe unbinds it, so the next draw uses the
        default state."""
        self.ctx._check_cso(cso, BlendCSO, "delete_blend_state")
        if self.blend is cso:
            self.bind_blend_state(None)
        cso.blocks.clear()
        cso.fb = cso.fb_block = None
        cso.destroyed = True

    destroy_blend_state = delete_blend_state  # the spec's spelling

    # -- non-CSO state ---------------------------------------------------------

    def set_blend_color(self, color4: Sequence[float]) -> None:
        """pipe_context::set_blend_color: the CONST_COLOR / CONST_ALPHA
        constant (r, g, b, a), floats, not clamped (GL clamps it for
        fixed-point buffers when blending, as Gallium does)."""
        if type(color4) is tuple and color4 == self.blend_color and not self.ctx.destroyed:
            return  # compared first: equal to the (validated) current value
        self.ctx.check_alive("set_blend_color")
        value = numbers_of(color4, "set_blend_color: color4 (r, g, b, a)", 4)
        if value == self.blend_color:
            return
        self.blend_color = value
        self.ctx.dirty |= Dirty.BLEND_COLOR

    def set_sample_mask(self, mask: int) -> None:
        """pipe_context::set_sample_mask: a 32-bit mask ANDed with each
        fragment's coverage on a multisampled framebuffer.  ``~0`` (-1) means
        every sample, as in C."""
        self.ctx.check_alive("set_sample_mask")
        if isinstance(mask, bool) or not isinstance(mask, int) and not hasattr(mask, "__index__"):
            raise InvalidArgumentError(f"set_sample_mask: expected an integer mask, got {show(mask)}")
        mask = int(mask)
        if not -(1 << 31) <= mask < (1 << 32):
            raise InvalidArgumentError(f"set_sample_mask: {mask:#x} does not fit in 32 bits")
        mask &= 0xFFFFFFFF
        if mask == self.sample_mask:
            return
        self.sample_mask = mask
        self.ctx.dirty |= Dirty.SAMPLE_MASK

    def set_min_samples(self, n: int) -> None:
        """pipe_context::set_min_samples: shade at least ``n`` samples per
        pixel (GL sample shading at the fraction n / framebuffer samples).
        Needs GL 4.0 sample shading (PIPE_CAP_SAMPLE_SHADING); without it
        only n = 1 (per-pixel shading, the default) is accepted."""
        self.ctx.check_alive("set_min_samples")
        # An unsigned count of samples, at most the host's GL_MAX_SAMPLES: GL
        # would clamp the fraction n / samples silently (glMinSampleShading).
        n = in_range(n, "set_min_samples: n", 1, self._max_samples)
        if n > 1 and not self._sample_shading_ok:
            raise UnsupportedError(
                f"set_min_samples: {n} samples need sample shading (GL 4.0 / "
                f"GL_ARB_sample_shading; PIPE_CAP_SAMPLE_SHADING is 0 on this host profile)"
            )
        if n == self.min_samples:
            return
        self.min_samples = n
        self.ctx.dirty |= Dirty.MIN_SAMPLES

    # -- host blocks -----------------------------------------------------------

    def _rt_kind(self, fmt) -> str:
        kind = self._rt_kinds.get(fmt)
        if kind is None:
            host = host_storage(fmt, self.ctx.screen.format_support)
            desc = util_format_description(fmt)
            if host is None or desc.is_pure_integer:
                kind = "plain"  # GL does not blend integer buffers (nor does Gallium)
            else:
                kind = _KIND_BY_HOST_SWIZZLE.get(tuple(int(s) for s in host.swizzle), "unsupported")
                if kind == "plain" and int(desc.swizzle[3]) > 3:
                    kind = "no_alpha"  # e.g. B5G6R5: the host has no alpha either; the fixup is GL's own rule
            self._rt_kinds[fmt] = kind
        return kind

    def _gl_block(self, cso: BlendCSO, formats: tuple) -> _GLBlock:
        """The host state of ``cso`` on colour buffers of ``formats``."""
        gl_factor, gl_eq = self._gl_factor, self._gl_equation
        n = self._blend_nr_rts
        enables, equations, funcs, masks = [None] * n, [None] * n, [None] * n, [None] * n
        for i, fmt in enumerate(formats[:n]):
            if fmt is None:
                continue  # an unbound slot: nothing is written there
            rt = cso.rts[i]
            kind = self._rt_kind(fmt)
            rgb_func, rgb_src, rgb_dst = rt.rgb_func, rt.rgb_src, rt.rgb_dst
            a_func, a_src, a_dst = rt.alpha_func, rt.alpha_src, rt.alpha_dst
            mask = rt.colormask
            if kind == "no_alpha":
                rgb_src, rgb_dst = _NO_ALPHA_RGB.get(rgb_src, rgb_src), _NO_ALPHA_RGB.get(rgb_dst, rgb_dst)
                a_src, a_dst = _NO_ALPHA.get(a_src, a_src), _NO_ALPHA.get(a_dst, a_dst)
            elif kind == "alpha_in_red":
                a_src, a_dst = _ALPHA_IN_RED.get(a_src, a_src), _ALPHA_IN_RED.get(a_dst, a_dst)
                rgb_func, rgb_src, rgb_dst = a_func, a_src, a_dst
                mask = Mask.RGBA if mask & Mask.A else 0
            elif kind == "unsupported":
                host = host_storage(fmt, self.ctx.screen.format_support)
                raise UnsupportedError(
                    f"draw_vbo: colour buffer {i} is {fmt.name}, which the host stores as "
                    f"{host.internal_format_name} with a channel swizzle glpipe cannot render through"
                )
            enables[i] = rt.enable
            masks[i] = (bool(mask & Mask.R), bool(mask & Mask.G), bool(mask & Mask.B), bool(mask & Mask.A))
            if rt.enable:
                equations[i] = (gl_eq[rgb_func], gl_eq[a_func])
                funcs[i] = (gl_factor[rgb_src], gl_factor[rgb_dst], gl_factor[a_src], gl_factor[a_dst])
        block = _GLBlock()
        block.enables, block.equations, block.funcs, block.masks = (
            tuple(enables),
            tuple(equations),
            tuple(funcs),
            tuple(masks),
        )
        block.logic = (cso.logicop, self._gl_logicop[cso.logicop_func])
        block.alpha_to_coverage, block.alpha_to_one, block.dither = (
            cso.alpha_to_coverage,
            cso.alpha_to_one,
            cso.dither,
        )
        block.dual_source = cso.dual_source
        block.transitions = {}
        if not self._blend_indexed_funcs:
            for what, values in (("blend equations", equations), ("blend factors", funcs)):
                if len({v for v in values if v is not None}) > 1:
                    raise UnsupportedError(
                        f"draw_vbo: the colour buffers need different {what} (from independent blend or "
                        f"from per-format fixups such as DST_ALPHA on an RGBX buffer), which needs "
                        f"GL_ARB_draw_buffers_blend; not on this host profile"
                    )
        return block

    def _blend_calls(self, have, block: _GLBlock) -> tuple:
        """(calls, snapshot after them) taking the host from ``have`` (a
        snapshot tuple; None: unknown, so the whole block is sent) to
        ``block``; calls are ``(hotgl.OP index, args)``.  The blend shadow
        (glpipe/host/shadow.py) interns the snapshot and caches the step on the
        block, once per (held snapshot, block)."""
        if have is None:
            unknown = (None,) * self._blend_nr_rts
            have = (unknown, unknown, unknown, unknown, None, None, None, None, None)
        h_enables, h_masks, h_equations, h_funcs, h_logic_on, h_logic_op, h_a2c, h_a2o, h_dither = have
        blend = self._gl_blend_cap
        enable, disable = OP["glEnable"], OP["glDisable"]
        calls: list = []
        enables = _sync_group(
            block.enables,
            h_enables,
            calls,
            lambda on: (enable if on else disable, (blend,)),
            lambda i, on: (OP["glEnablei"] if on else OP["glDisablei"], (blend, i)),
        )
        masks = _sync_group(
            block.masks, h_masks, calls, lambda m: (OP["glColorMask"], m), lambda i, m: (OP["glColorMaski"], (i,) + m)
        )
        equations = _sync_group(
            block.equations,
            h_equations,
            calls,
            lambda e: (OP["glBlendEquationSeparate"], e),
            lambda i, e: (OP["glBlendEquationSeparatei"], (i,) + e),
        )
        funcs = _sync_group(
            block.funcs,
            h_funcs,
            calls,
            lambda f: (OP["glBlendFuncSeparate"], f),
            lambda i, f: (OP["glBlendFuncSeparatei"], (i,) + f),
        )
        logic_on, logic_op = block.logic
        if h_logic_on != logic_on:
            calls.append((enable if logic_on else disable, (self._gl_logic_cap,)))
        if logic_on and h_logic_op != logic_op:
            calls.append((OP["glLogicOp"], (logic_op,)))
            h_logic_op = logic_op
        for want, have_one, cap in (
            (block.alpha_to_coverage, h_a2c, self._gl_a2c_cap),
            (block.alpha_to_one, h_a2o, self._gl_a2o_cap),
            (block.dither, h_dither, self._gl_dither_cap),
        ):
            if have_one != want:
                calls.append((enable if want else disable, (cap,)))
        return calls, (
            enables,
            masks,
            equations,
            funcs,
            logic_on,
            h_logic_op,
            block.alpha_to_coverage,
            block.alpha_to_one,
            block.dither,
        )

    def _blend_block_for(self, cso: BlendCSO, fb) -> _GLBlock:
        """The host block of ``cso`` on framebuffer ``fb`` (made per format
        tuple), remembered on the CSO for ``fb``."""
        if fb is not self._blend_fb:
            self._blend_fb = fb
            self._blend_formats = tuple(s.format if s is not None else None for s in fb.cbufs[: fb.nr_cbufs])
        formats = self._blend_formats
        block = cso.blocks.get(formats)
        if block is None:
            block = cso.blocks[formats] = self._gl_block(cso, formats)
        if block.dual_source and fb.nr_cbufs > self._blend_max_dual:
            raise UnsupportedError(
                f"draw_vbo: dual-source blending with {fb.nr_cbufs} colour buffers; the host blends the "
                f"second source into {self._blend_max_dual} (PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS)"
            )
        cso.fb, cso.fb_block = fb, block
        return block

    def _emit_blend(self) -> None:
        """Apply the bound blend CSO for the bound colour buffers' formats:
        the cached transition from what the host holds (module docstring).

        Dirty.BLEND means (glpipe/dirty.py) the host does not hold what was
        recorded -- a clear or ModernGL call clobbered masks, another context
        drew --: its DERIVED_ORDER row forgets the record first
        (``_forget_blend_block``), so the block is sent whole.  A bind
        (Dirty.BLEND_CSO) or a new framebuffer (Dirty.FRAMEBUFFER: the
        formats pick the block) sends only what differs."""
        cso = self.blend or self._blend_default
        ctx = self.ctx
        fb = ctx.framebuffer_part.framebuffer
        # The block for a framebuffer object is remembered on the CSO
        # (templates are immutable: the formats follow the object).
        block = cso.fb_block if cso.fb is fb else self._blend_block_for(cso, fb)
        # The shadow's hit path, inline (glpipe/host/shadow.py: a call costs).
        shadow = self._blend_shadow
        step = block.transitions.get(shadow.held)
        if step is None:
            step = shadow.transition(block.transitions, self._blend_calls, block)
        calls, shadow.held, n = step
        if n:
            ops = ctx._hot_ops
            for op, args in calls:
                ops[op](*args)
            ctx._counters.gl_state_calls += n

    def _emit_blend_color(self) -> None:
        # Called on Dirty.BLEND_COLOR only: the host does not hold the value.
        self.ctx.gl.glBlendColor(*self.blend_color)
        self.ctx._counters.gl_state_calls += 1

    def _emit_sample_mask(self) -> None:
        gl = self.ctx.gl
        mask = self.sample_mask
        if mask == 0xFFFFFFFF:
            gl.glDisable(gl.GL_SAMPLE_MASK)  # every sample: GL's default, no per-fragment AND
            calls = 1
        else:
            gl.glEnable(gl.GL_SAMPLE_MASK)
            gl.glSampleMaski(0, mask)
            calls = 2
        self.ctx._counters.gl_state_calls += calls

    def _framebuffer_samples(self) -> int:
        fb = self.ctx.framebuffer_part.framebuffer
        for surf in fb.cbufs[: fb.nr_cbufs] + (fb.zsbuf,):
            if surf is not None:
                return max(1, int(surf.texture.nr_samples))
        return max(1, int(fb.samples))

    def _emit_min_samples(self) -> None:
        n = self.min_samples
        # GL takes a fraction of the framebuffer's samples; Gallium a count.
        want = (False, 0.0) if n <= 1 else (True, min(1.0, n / self._framebuffer_samples()))
        if want == self._gl_min_samples and not self.ctx.dirty & (Dirty.MIN_SAMPLES | Dirty.BLEND):
            return
        gl = self.ctx.gl
        calls = 0
        if not self._sample_shading_ok:
            self._gl_min_samples = want  # n == 1 only (set_min_samples refused more): nothing to do
            return
        if want[0]:
            gl.glEnable(gl.GL_SAMPLE_SHADING)
            gl.glMinSampleShading(want[1])
            calls = 2
        else:
            gl.glDisable(gl.GL_SAMPLE_SHADING)
            calls = 1
        self._gl_min_samples = want
        self.ctx._counters.gl_state_calls += calls

    def _drop_blend_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): forget the host blocks of the bound and default CSOs
        (recomputed from the formats), their transitions, the format tuple
        memo and what the host holds, so the emit sends the whole block."""
        for cso in (self.blend, self._blend_default):
            if cso is not None:
                cso.blocks.clear()
                cso.fb = cso.fb_block = None
        self._blend_fb = self._blend_formats = None
        self._blend_shadow.clear()
        self._reset_blend_shadow()

    def destroy(self) -> None:
        """Context.destroy: drop the default CSO's host blocks and the binding."""
        self._blend_default.blocks.clear()
        self._blend_default.fb = self._blend_default.fb_block = None
        self.blend = None


AREA = Area(
    "blend_part",
    part=BlendPart,
    methods=(
        "create_blend_state",
        "bind_blend_state",
        "delete_blend_state",
        "destroy_blend_state",
        "set_blend_color",
        "set_sample_mask",
        "set_min_samples",
    ),
    rows=(
        (Dirty.BLEND, BlendPart._forget_blend_block),
        (Dirty.BLEND | Dirty.BLEND_CSO | Dirty.FRAMEBUFFER, BlendPart._emit_blend),  # fixups follow the cbuf formats
        (Dirty.BLEND_COLOR, BlendPart._emit_blend_color),
        (Dirty.SAMPLE_MASK, BlendPart._emit_sample_mask),
        (Dirty.MIN_SAMPLES | Dirty.FRAMEBUFFER, BlendPart._emit_min_samples),
    ),  # a fraction of the fb's samples
    destroy=BlendPart.destroy,
    drop_caches=BlendPart._drop_blend_caches,
    variant_input=attrgetter("dual_source_key"),  # VariantKey.dual_source_blend (glpipe/variant_keys.py)
)

__all__ = ["AREA", "BlendCSO", "BlendPart"]
