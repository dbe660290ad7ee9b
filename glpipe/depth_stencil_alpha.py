"""Depth/stencil/alpha state: create/bind/delete_depth_stencil_alpha_state,
set_stencil_ref (``DSAPart`` at ``ctx.dsa_part``).

docs/architecture.md "The depth/stencil/alpha area" explains the GL grouping,
the alpha test and depth bounds, and the shadowed emit.
"""

from __future__ import annotations

from operator import attrgetter

from lowering.errors import InvalidArgumentError, UnsupportedError

from .dirty import Dirty
from .enums import Func, StencilOp
from .host.hotgl import OP
from .host.shadow import host_shadow
from .part import Area, Part
from .templates import DepthStencilAlphaState, StencilRef, StencilState

_GL_STENCIL_OP = {
    StencilOp.KEEP: "GL_KEEP",
    StencilOp.ZERO: "GL_ZERO",
    StencilOp.REPLACE: "GL_REPLACE",
    StencilOp.INCR: "GL_INCR",
    StencilOp.DECR: "GL_DECR",
    StencilOp.INCR_WRAP: "GL_INCR_WRAP",
    StencilOp.DECR_WRAP: "GL_DECR_WRAP",
    StencilOp.INVERT: "GL_INVERT",
}
GL_DEPTH_BOUNDS_TEST_EXT = 0x8890  # GL_EXT_depth_bounds_test
# Module globals: read per bind / emit.
_DSA_CSO = Dirty.DSA_CSO
_ALWAYS = int(Func.ALWAYS)


class _Face:
    """One face's stencil state as GL takes it."""

    __slots__ = ("func", "valuemask", "ops", "writemask")

    def __init__(self, st: StencilState, gl_funcs: dict, gl_ops: dict):
        self.func = gl_funcs[st.func]
        self.valuemask = int(st.valuemask) & 0xFF
        self.ops = (gl_ops[st.fail_op], gl_ops[st.zfail_op], gl_ops[st.zpass_op])  # glStencilOp order
        self.writemask = int(st.writemask) & 0xFF


class DepthStencilAlphaCSO:
    """A depth/stencil/alpha state object, resolved to GL values."""

    __slots__ = (
        "__weakref__",
        "context",
        "templ",
        "destroyed",
        "depth_test",
        "depth_func",
        "depth_write",
        "stencil_test",
        "front",
        "back",
        "two_sided",
        "alpha_func",
        "alpha_ref",
        "depth_bounds",
        "plain",
        "transitions",
    )

    def __init__(self, context, templ: DepthStencilAlphaState, gl_funcs: dict, gl_ops: dict):
        self.context = context
        self.templ = templ
        self.destroyed = False
        self.depth_test = bool(templ.depth_enabled)
        self.depth_func = gl_funcs[templ.depth_func]
        self.depth_write = bool(templ.depth_writemask)
        front, back = templ.stencil
        self.stencil_test = bool(front.enabled)
        self.two_sided = self.stencil_test and bool(back.enabled)
        self.front = _Face(front, gl_funcs, gl_ops)
        self.back = _Face(back, gl_funcs, gl_ops) if self.two_sided else self.front
        # The variant's alpha test: ALWAYS when off, so the key stays the default.
        self.alpha_func = int(templ.alpha_func) if templ.alpha_enabled else int(Func.ALWAYS)
        self.alpha_ref = float(templ.alpha_ref_value)
        self.depth_bounds = (
            (True, float(templ.depth_bounds_min), float(templ.depth_bounds_max))
            if templ.depth_bounds_test
            else (False, 0.0, 1.0)
        )
        # {Held or None: (calls, Held after, n)} (glpipe/host/shadow.py): ``plain`` when the
        # stencil test is off (the references do not matter), else
        # ``transitions[stencil reference values]``.
        self.plain: dict = {}
        self.transitions: dict = {}

    def __repr__(self) -> str:
        return "<DepthStencilAlphaCSO deleted>" if self.destroyed else "<DepthStencilAlphaCSO>"


_UNKNOWN_DSA = (None, None, None, None, (None, None), (None, None), (None, None), None, None)


def _sync_faces(want: tuple, have: tuple, calls: list, both_op: int, one_op: int, faces: tuple) -> tuple:
    """Record the calls bringing front/back state ``have`` to ``want`` into
    ``calls``: one call for both faces when they agree and both differ from
    the host, else one call per face that differs.  Returns the pair after."""
    front_diff, back_diff = have[0] != want[0], have[1] != want[1]
    if not (front_diff or back_diff):
        return have
    if want[0] == want[1] and front_diff and back_diff:
        calls.append((both_op, want[0]))
        return (want[0], want[0])
    after = list(have)
    for face, diff, gl_face in ((0, front_diff, faces[0]), (1, back_diff, faces[1])):
        if diff:
            calls.append((one_op, (gl_face,) + want[face]))
            after[face] = want[face]
    return tuple(after)


class DSAPart(Part):
    """The depth/stencil/alpha area of a context (``ctx.dsa_part``):
    depth/stencil/alpha state and the stencil reference values."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        gl = ctx.gl
        self._gl_compare = {f: int(getattr(gl, "GL_" + f.name)) for f in Func}  # GL_NEVER.. by name
        self._gl_stencil_opcodes = {op: int(getattr(gl, name)) for op, name in _GL_STENCIL_OP.items()}
        self._depth_bounds_ok = ctx.screen.profile.has("depth_bounds_test")
        self.depth_stencil_alpha: DepthStencilAlphaCSO | None = None
        self._dsa_default = DepthStencilAlphaCSO(
            ctx, DepthStencilAlphaState(), self._gl_compare, self._gl_stencil_opcodes
        )
        self.stencil_ref = StencilRef()
        self.alpha_func_key = int(Func.ALWAYS)
        self._gl_depth_test_cap = int(gl.GL_DEPTH_TEST)
        self._gl_stencil_test_cap = int(gl.GL_STENCIL_TEST)
        self._gl_faces = (int(gl.GL_FRONT), int(gl.GL_BACK))
        # What the host holds of the block, shared by the host's contexts
        # (glpipe/host/shadow.py): (depth_test, depth_func, depth_write,
        # stencil_test, funcs, ops, writemasks, depth bounds test, depth
        # bounds), funcs / ops / writemasks (front, back) pairs; None = unknown.
        self._dsa_shadow = host_shadow(ctx.host, "dsa")
        self._reset_dsa_shadow()

    def _reset_dsa_shadow(self) -> None:
        """Forget what the host holds (raw GL changed it): the next draw
        re-emits this module's state."""
        self._forget_dsa_block()
        self.ctx.dirty |= Dirty.DSA

    def _forget_dsa_block(self) -> None:
        """The host no longer holds what was recorded (Dirty.DSA's row in
        DERIVED_ORDER, just before _emit_dsa): the next emit sends the whole
        block."""
        self._dsa_shadow.forget()

    # -- CSO -----------------------------------------------------------------

    def create_depth_stencil_alpha_state(self, templ: DepthStencilAlphaState) -> DepthStencilAlphaCSO:
        """pipe_context::create_depth_stencil_alpha_state: validate and resolve once."""
        self.ctx.check_alive("create_depth_stencil_alpha_state")
        if not isinstance(templ, DepthStencilAlphaState):
            raise InvalidArgumentError(
                f"create_depth_stencil_alpha_state: expected a DepthStencilAlphaState, got {type(templ).__name__}"
            )
        for i, st in enumerate(templ.stencil):
            if not isinstance(st, StencilState):
                raise InvalidArgumentError(f"DepthStencilAlphaState.stencil[{i}]: expected a StencilState")
            for name in ("valuemask", "writemask"):
                if not 0 <= getattr(st, name) <= 0xFF:
                    raise InvalidArgumentError(
                        f"DepthStencilAlphaState.stencil[{i}].{name}: {getattr(st, name)} is not an 8-bit mask"
                    )
        if templ.depth_bounds_test:
            if not self._depth_bounds_ok:
                raise UnsupportedError(
                    "create_depth_stencil_alpha_state: depth_bounds_test needs GL_EXT_depth_bounds_test, "
                    "which this host lacks (PIPE_CAP_DEPTH_BOUNDS_TEST is 0)"
                )
            if not templ.depth_bounds_min <= templ.depth_bounds_max:
                raise InvalidArgumentError(
                    f"DepthStencilAlphaState.depth_bounds_min {templ.depth_bounds_min} > "
                    f"depth_bounds_max {templ.depth_bounds_max}"
                )
        return self.ctx._own(DepthStencilAlphaCSO(self.ctx, templ, self._gl_compare, self._gl_stencil_opcodes))

    def bind_depth_stencil_alpha_state(self, cso: DepthStencilAlphaCSO | None) -> None:
        """pipe_context::bind_depth_stencil_alpha_state (None: the default,
        every test off)."""
        if cso is self.depth_stencil_alpha:
            return
        ctx = self.ctx
        if cso is None:
            func = _ALWAYS
        else:
            if type(cso) is not DepthStencilAlphaCSO or cso.context is not ctx or cso.destroyed:
                ctx._check_cso(cso, DepthStencilAlphaCSO, "bind_depth_stencil_alpha_state")  # raises
            func = cso.alpha_func
        self.depth_stencil_alpha = cso
        ctx.dirty |= _DSA_CSO
        if func != self.alpha_func_key:
            self.alpha_func_key = func
            ctx.dirty |= Dirty.PROGRAM  # VariantKey.alpha_func
        if cso is not None and func != _ALWAYS:  # (a None cso means ALWAYS)
            ctx.sysvals_part._set_sysval("alpha_ref", (cso.alpha_ref,))

    def delete_depth_stencil_alpha_state(self, cso: DepthStencilAlphaCSO) -> None:
        """pipe_context::delete_depth_stencil_alpha_state.  Deleting the bound
        state is a frontend bug in Gallium; glpipe unbinds it, so the next
        draw uses the default state."""
        self.ctx._check_cso(cso, DepthStencilAlphaCSO, "delete_depth_stencil_alpha_state")
        if self.depth_stencil_alpha is cso:
            self.bind_depth_stencil_alpha_state(None)
        cso.destroyed = True

    destroy_depth_stencil_alpha_state = delete_depth_stencil_alpha_state  # the spec's spelling

    def set_stencil_ref(self, ref: StencilRef) -> None:
        """pipe_context::set_stencil_ref: front and back reference values (0..255)."""
        if type(ref) is StencilRef and ref == self.stencil_ref and not self.ctx.destroyed:
            return  # compared first: equal to the (validated) current value
        self.ctx.check_alive("set_stencil_ref")
        if not isinstance(ref, StencilRef):
            raise InvalidArgumentError(f"set_stencil_ref: expected a StencilRef, got {type(ref).__name__}")
        for i, value in enumerate(ref.ref_value):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFF:
                raise InvalidArgumentError(f"StencilRef.ref_value[{i}]: {value!r} is not a stencil value 0..255")
        if ref == self.stencil_ref:
            return
        self.stencil_ref = ref
        self.ctx.dirty |= Dirty.STENCIL_REF

    # -- emit ----------------------------------------------------------------

    def _emit_dsa(self) -> None:
        """Apply the bound DSA and the stencil reference values: the cached
        transition from what the host holds (module docstring).

        Dirty.DSA means (glpipe/dirty.py) the host does not hold what was
        recorded -- a clear opened the write masks, another context drew --:
        its DERIVED_ORDER row forgets the record first (``_forget_dsa_block``),
        so the block is sent whole."""
        cso = self.depth_stencil_alpha or self._dsa_default
        if cso.stencil_test:
            refs = self.stencil_ref.ref_value
            transitions = cso.transitions.get(refs)
            if transitions is None:
                transitions = cso.transitions[refs] = {}
        else:
            refs, transitions = None, cso.plain
        # The shadow's hit path, inline (glpipe/host/shadow.py: a call costs).
        shadow = self._dsa_shadow
        step = transitions.get(shadow.held)
        if step is None:
            step = shadow.transition(transitions, self._dsa_calls, cso, refs)
        calls, shadow.held, n = step
        if n:
            ctx = self.ctx
            ops = ctx._hot_ops
            for op, args in calls:
                ops[op](*args)
            ctx._counters.gl_state_calls += n

    def _dsa_calls(self, have, cso: DepthStencilAlphaCSO, refs) -> tuple:
        """(calls, snapshot after them) taking the host from ``have`` (a
        snapshot tuple; None: unknown) to ``cso`` with stencil references
        ``refs``; the DSA shadow (glpipe/host/shadow.py) interns and caches."""
        depth_test, depth_func, depth_write, stencil_test, funcs, ops, writes, bounds_test, bounds = (
            _UNKNOWN_DSA if have is None else have
        )
        enable, disable = OP["glEnable"], OP["glDisable"]
        calls: list = []
        if depth_test != cso.depth_test:
            calls.append((enable if cso.depth_test else disable, (self._gl_depth_test_cap,)))
            depth_test = cso.depth_test
        if cso.depth_test:
            if depth_func != cso.depth_func:
                calls.append((OP["glDepthFunc"], (cso.depth_func,)))
                depth_func = cso.depth_func
            if depth_write != cso.depth_write:
                calls.append((OP["glDepthMask"], (cso.depth_write,)))
                depth_write = cso.depth_write
        if stencil_test != cso.stencil_test:
            calls.append((enable if cso.stencil_test else disable, (self._gl_stencil_test_cap,)))
            stencil_test = cso.stencil_test
        if cso.stencil_test:
            front, back = cso.front, cso.back
            # One-sided: the back face uses the front state *and* the front reference.
            want_funcs = (
                (front.func, refs[0], front.valuemask),
                (back.func, refs[1] if cso.two_sided else refs[0], back.valuemask),
            )
            faces = self._gl_faces
            funcs = _sync_faces(want_funcs, funcs, calls, OP["glStencilFunc"], OP["glStencilFuncSeparate"], faces)
            ops = _sync_faces((front.ops, back.ops), ops, calls, OP["glStencilOp"], OP["glStencilOpSeparate"], faces)
            writes = _sync_faces(
                ((front.writemask,), (back.writemask,)),
                writes,
                calls,
                OP["glStencilMask"],
                OP["glStencilMaskSeparate"],
                faces,
            )
        if self._depth_bounds_ok:  # GL_EXT_depth_bounds_test: else the CSO cannot ask for it
            want_test, zmin, zmax = cso.depth_bounds
            if bounds_test != want_test:
                calls.append((enable if want_test else disable, (GL_DEPTH_BOUNDS_TEST_EXT,)))
                bounds_test = want_test
            if want_test and bounds != (zmin, zmax):
                calls.append((OP["glDepthBoundsEXT"], (zmin, zmax)))
                bounds = (zmin, zmax)
        return calls, (depth_test, depth_func, depth_write, stencil_test, funcs, ops, writes, bounds_test, bounds)

    def _drop_dsa_caches(self) -> None:
        """GLPIPE_DEBUG=nofast, before each draw (glpipe/debug.py
        NOFAST_DROPS): forget the bound and default CSOs' transitions and
        what the host holds, so the emit computes the whole block anew."""
        for cso in (self.depth_stencil_alpha, self._dsa_default):
            if cso is not None:
                cso.transitions.clear()
                cso.plain.clear()
        self._dsa_shadow.clear()
        self._reset_dsa_shadow()

    def destroy(self) -> None:
        """Context.destroy: drop the binding."""
        self.depth_stencil_alpha = None


AREA = Area(
    "dsa_part",
    part=DSAPart,
    methods=(
        "create_depth_stencil_alpha_state",
        "bind_depth_stencil_alpha_state",
        "delete_depth_stencil_alpha_state",
        "destroy_depth_stencil_alpha_state",
        "set_stencil_ref",
    ),
    # Dirty.DSA (the host lost the block) forgets the record first; a bind
    # or a new reference sends the difference (glpipe/dirty.py).
    rows=((Dirty.DSA, DSAPart._forget_dsa_block), (Dirty.DSA | Dirty.DSA_CSO | Dirty.STENCIL_REF, DSAPart._emit_dsa)),
    destroy=DSAPart.destroy,
    drop_caches=DSAPart._drop_dsa_caches,
    variant_input=attrgetter("alpha_func_key"),  # VariantKey.alpha_func (glpipe/variant_keys.py)
)

__all__ = ["AREA", "DepthStencilAlphaCSO", "DSAPart"]
