"""Depth/stencil/alpha state: create/bind/delete_depth_stencil_alpha_state,
set_stencil_ref.

A ``DepthStencilAlphaState`` is resolved once, at create time, into GL
enums grouped the way GL sets them:

* depth: test enable, function, write mask (GL only writes depth when the
  test is enabled, as Gallium);
* stencil: ``stencil[0]`` is the front face (and its ``enabled`` is the
  stencil test's switch); ``stencil[1]`` is the back face when its
  ``enabled`` is set, otherwise the front state applies to both faces
  (the Gallium rule, reference value included).  GL sets the reference
  together with the function, so the emitted (func, ref, valuemask) per face
  combines the CSO with ``set_stencil_ref`` at draw time;
* alpha test: core GL has none.  It goes into the fragment shader variant:
  ``VariantKey.alpha_func`` (ALWAYS when disabled) from the bound CSO, and
  the reference value into the ``glp_sysvals`` block (``alpha_ref.x``), so
  changing the reference never recompiles;
* depth bounds test: GL_EXT_depth_bounds_test where the host has it
  (feature ``depth_bounds_test``); elsewhere PIPE_CAP_DEPTH_BOUNDS_TEST is 0
  and a CSO asking for it is refused at create time.

Emission.  Dirty.DSA set by anyone means the host does not hold the block
(glpipe/dirty.py: a bind, or a clear that opened the write masks), so the
block is sent whole; with only Dirty.STENCIL_REF just the stencil functions
whose reference changed are sent.  State of a disabled test is "don't care"
and costs no call; one call serves both faces whenever front and back agree.
Code that changes depth/stencil GL state without setting the bit must call
``_reset_dsa_shadow``.
"""

from __future__ import annotations

from lowering.errors import InvalidArgumentError, UnsupportedError

from .defs import Func, StencilOp
from .dirty import Dirty
from .state import DepthStencilAlphaState, StencilRef, StencilState

_GL_STENCIL_OP = {
    StencilOp.KEEP: "GL_KEEP", StencilOp.ZERO: "GL_ZERO", StencilOp.REPLACE: "GL_REPLACE",
    StencilOp.INCR: "GL_INCR", StencilOp.DECR: "GL_DECR", StencilOp.INCR_WRAP: "GL_INCR_WRAP",
    StencilOp.DECR_WRAP: "GL_DECR_WRAP", StencilOp.INVERT: "GL_INVERT",
}
GL_DEPTH_BOUNDS_TEST_EXT = 0x8890  # GL_EXT_depth_bounds_test


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

    __slots__ = ("context", "templ", "destroyed", "depth_test", "depth_func", "depth_write", "stencil_test",
                 "front", "back", "two_sided", "alpha_func", "alpha_ref", "depth_bounds")

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
        self.depth_bounds = ((True, float(templ.depth_bounds_min), float(templ.depth_bounds_max))
                             if templ.depth_bounds_test else (False, 0.0, 1.0))

    def __repr__(self) -> str:
        return "<DepthStencilAlphaCSO deleted>" if self.destroyed else "<DepthStencilAlphaCSO>"


class DSAMixin:
    """Context methods for depth/stencil/alpha state and stencil reference
    values (mixed into Context)."""

    def _init_dsa(self) -> None:
        gl = self.gl
        self._gl_compare = {f: int(getattr(gl, "GL_" + f.name)) for f in Func}  # GL_NEVER.. by name
        self._gl_stencil_opcodes = {op: int(getattr(gl, name)) for op, name in _GL_STENCIL_OP.items()}
        self._depth_bounds_ok = self.screen.profile.has("depth_bounds_test")
        self.depth_stencil_alpha = None
        self._dsa_default = DepthStencilAlphaCSO(self, DepthStencilAlphaState(), self._gl_compare,
                                                 self._gl_stencil_opcodes)
        self.stencil_ref = StencilRef()
        self._alpha_func_key = int(Func.ALWAYS)
        self._reset_dsa_shadow()

    def _reset_dsa_shadow(self) -> None:
        """Forget what the host holds (raw GL changed it): the next draw
        re-emits this module's state."""
        self._forget_dsa_block()
        self.dirty |= Dirty.DSA

    def _forget_dsa_block(self) -> None:
        self._gl_depth_test = self._gl_depth_func = self._gl_depth_write = None
        self._gl_stencil_test = None
        self._gl_stencil_func = [None, None]   # (func, ref, valuemask) front, back
        self._gl_stencil_ops = [None, None]
        self._gl_stencil_write = [None, None]
        self._gl_depth_bounds = None

    # -- CSO -----------------------------------------------------------------

    def create_depth_stencil_alpha_state(self, templ: DepthStencilAlphaState) -> DepthStencilAlphaCSO:
        """pipe_context::create_depth_stencil_alpha_state: validate and resolve once."""
        self.check_alive("create_depth_stencil_alpha_state")
        if not isinstance(templ, DepthStencilAlphaState):
            raise InvalidArgumentError(f"create_depth_stencil_alpha_state: expected a DepthStencilAlphaState, "
                                       f"got {type(templ).__name__}")
        for i, st in enumerate(templ.stencil):
            if not isinstance(st, StencilState):
                raise InvalidArgumentError(f"DepthStencilAlphaState.stencil[{i}]: expected a StencilState")
            for name in ("valuemask", "writemask"):
                if not 0 <= getattr(st, name) <= 0xFF:
                    raise InvalidArgumentError(
                        f"DepthStencilAlphaState.stencil[{i}].{name}: {getattr(st, name)} is not an 8-bit mask")
        if templ.depth_bounds_test:
            if not self._depth_bounds_ok:
                raise UnsupportedError(
                    "create_depth_stencil_alpha_state: depth_bounds_test needs GL_EXT_depth_bounds_test, "
                    "which this host lacks (PIPE_CAP_DEPTH_BOUNDS_TEST is 0)")
            if not templ.depth_bounds_min <= templ.depth_bounds_max:
                raise InvalidArgumentError(
                    f"DepthStencilAlphaState.depth_bounds_min {templ.depth_bounds_min} > "
                    f"depth_bounds_max {templ.depth_bounds_max}")
        return DepthStencilAlphaCSO(self, templ, self._gl_compare, self._gl_stencil_opcodes)

    def bind_depth_stencil_alpha_state(self, cso) -> None:
        """pipe_context::bind_depth_stencil_alpha_state (None: the default,
        every test off)."""
        if cso is self.depth_stencil_alpha:
            return
        if cso is not None:
            self._check_cso(cso, DepthStencilAlphaCSO, "bind_depth_stencil_alpha_state")
        self.depth_stencil_alpha = cso
        self.dirty |= Dirty.DSA
        func = cso.alpha_func if cso is not None else int(Func.ALWAYS)
        if func != self._alpha_func_key:
            self._alpha_func_key = func
            self.dirty |= Dirty.PROGRAM  # VariantKey.alpha_func
        if func != Func.ALWAYS:
            self._set_sysval("alpha_ref", (cso.alpha_ref,))

    def delete_depth_stencil_alpha_state(self, cso) -> None:
        """pipe_context::delete_depth_stencil_alpha_state.  Deleting the bound
        state is a frontend bug in Gallium; glpipe unbinds it, so the next
        draw uses the default state."""
        self._check_cso(cso, DepthStencilAlphaCSO, "delete_depth_stencil_alpha_state")
        if self.depth_stencil_alpha is cso:
            self.bind_depth_stencil_alpha_state(None)
        cso.destroyed = True

    destroy_depth_stencil_alpha_state = delete_depth_stencil_alpha_state  # the spec's spelling

    def set_stencil_ref(self, ref: StencilRef) -> None:
        """pipe_context::set_stencil_ref: front and back reference values (0..255)."""
        self.check_alive("set_stencil_ref")
        if not isinstance(ref, StencilRef):
            raise InvalidArgumentError(f"set_stencil_ref: expected a StencilRef, got {type(ref).__name__}")
        for i, value in enumerate(ref.ref_value):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFF:
                raise InvalidArgumentError(f"StencilRef.ref_value[{i}]: {value!r} is not a stencil value 0..255")
        if ref == self.stencil_ref:
            return
        self.stencil_ref = ref
        self.dirty |= Dirty.STENCIL_REF

    # -- emit ----------------------------------------------------------------

    def _emit_dsa(self) -> None:
        """Apply the bound DSA and the stencil reference values.

        Dirty.DSA means (glpipe/dirty.py) the host does not hold the block --
        a bind, or a clear that opened the depth/stencil write masks -- so the
        shadow is forgotten and the block emitted whole; with only
        Dirty.STENCIL_REF just the stencil functions that changed are sent."""
        if self.dirty & Dirty.DSA:
            self._forget_dsa_block()
        cso = self.depth_stencil_alpha if self.depth_stencil_alpha is not None else self._dsa_default
        gl = self.gl
        calls = 0
        if self._gl_depth_test != cso.depth_test:
            (gl.glEnable if cso.depth_test else gl.glDisable)(gl.GL_DEPTH_TEST)
            self._gl_depth_test = cso.depth_test
            calls += 1
        if cso.depth_test:
            if self._gl_depth_func != cso.depth_func:
                gl.glDepthFunc(cso.depth_func)
                self._gl_depth_func = cso.depth_func
                calls += 1
            if self._gl_depth_write != cso.depth_write:
                gl.glDepthMask(cso.depth_write)
                self._gl_depth_write = cso.depth_write
                calls += 1
        if self._gl_stencil_test != cso.stencil_test:
            (gl.glEnable if cso.stencil_test else gl.glDisable)(gl.GL_STENCIL_TEST)
            self._gl_stencil_test = cso.stencil_test
            calls += 1
        if cso.stencil_test:
            refs = self.stencil_ref.ref_value
            front, back = cso.front, cso.back
            # One-sided: the back face uses the front state *and* the front reference.
            want_func = ((front.func, refs[0], front.valuemask),
                         (back.func, refs[1] if cso.two_sided else refs[0], back.valuemask))
            calls += self._sync_faces(want_func, self._gl_stencil_func, gl.glStencilFunc, gl.glStencilFuncSeparate)
            calls += self._sync_faces((front.ops, back.ops), self._gl_stencil_ops,
                                      gl.glStencilOp, gl.glStencilOpSeparate)
            calls += self._sync_faces(((front.writemask,), (back.writemask,)), self._gl_stencil_write,
                                      gl.glStencilMask, gl.glStencilMaskSeparate)
        if self._depth_bounds_ok and self._gl_depth_bounds != cso.depth_bounds:
            calls += self._emit_depth_bounds(cso.depth_bounds)
        self._counters.gl_state_calls += calls

    def _sync_faces(self, want: tuple, shadow: list, set_both, set_one) -> int:
        """Front/back state: one call for both faces when they agree and both
        differ from the host, else one call per face that differs."""
        front_diff, back_diff = shadow[0] != want[0], shadow[1] != want[1]
        if not (front_diff or back_diff):
            return 0
        gl = self.gl
        if want[0] == want[1] and front_diff and back_diff:
            set_both(*want[0])
            shadow[0] = shadow[1] = want[0]
            return 1
        calls = 0
        for face, diff, gl_face in ((0, front_diff, gl.GL_FRONT), (1, back_diff, gl.GL_BACK)):
            if diff:
                set_one(gl_face, *want[face])
                shadow[face] = want[face]
                calls += 1
        return calls

    def _emit_depth_bounds(self, bounds: tuple) -> int:
        from OpenGL.GL.EXT.depth_bounds_test import glDepthBoundsEXT

        gl = self.gl
        enabled, zmin, zmax = bounds
        calls = 0
        if self._gl_depth_bounds is None or self._gl_depth_bounds[0] != enabled:
            (gl.glEnable if enabled else gl.glDisable)(GL_DEPTH_BOUNDS_TEST_EXT)
            calls += 1
        if enabled:
            glDepthBoundsEXT(zmin, zmax)
            calls += 1
        self._gl_depth_bounds = bounds
        return calls

    def _destroy_dsa(self) -> None:
        self.depth_stencil_alpha = None


__all__ = ["DepthStencilAlphaCSO", "DSAMixin"]
