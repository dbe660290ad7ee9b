"""The Context composed of areas (glpipe/part.py, docs/architecture.md):
one registration (``PARTS``) gives the parts, the pipe_context methods on
the class, the derived-state rows (by function reference) and their order."""

from __future__ import annotations

import inspect

import pytest

from glpipe import context as context_module
from glpipe.blend import BlendPart
from glpipe.context import DERIVED_ORDER, DERIVED_ROWS, PARTS, Context
from glpipe.depth_stencil_alpha import DSAPart
from glpipe.dirty import Dirty
from glpipe.part import Area, Part, PartMethod, attach, compose, derived_rows

PART_AREAS = list(PARTS)
PART_METHODS = [(a, name) for a in PART_AREAS for name in a.methods]


def test_every_area_is_a_part_and_the_context_has_no_mixin():
    assert {a.part for a in PART_AREAS} >= {BlendPart, DSAPart}
    assert all(isinstance(a.part, type) and issubclass(a.part, Part) for a in PARTS)
    # The Context's only base is its draw path: no area is inherited.
    assert [c.__name__ for c in Context.__mro__] == ["Context", "DrawPath", "object"]


@pytest.mark.parametrize("area,name", PART_METHODS, ids=[n for _a, n in PART_METHODS])
def test_part_method_on_the_class_is_the_parts_function(area, name):
    """Context.<name> is the part's own function: its signature, docstring
    and source are the part's (what tests/test_signatures.py reads)."""
    assert isinstance(Context.__dict__[name], PartMethod)
    func = getattr(area.part, name)
    assert getattr(Context, name) is func
    assert inspect.signature(getattr(Context, name)) == inspect.signature(func)
    assert inspect.getsourcefile(getattr(Context, name)) == inspect.getsourcefile(area.part)


def test_a_context_calls_its_parts_bound_methods(ctx):
    for area, name in PART_METHODS:
        part = getattr(ctx, area.attr)
        assert isinstance(part, area.part) and part.ctx is ctx
        bound = ctx.__dict__[name]  # in the instance dict: shadows the class's PartMethod
        assert bound.__self__ is part and bound.__func__ is getattr(area.part, name)
        assert getattr(ctx, name) == bound


def test_rows_are_function_references_of_their_area():
    assert DERIVED_ORDER == tuple((bits, fn) for bits, _area, fn in DERIVED_ROWS)
    for bits, area, fn in DERIVED_ROWS:
        assert isinstance(bits, int) and bits and callable(fn)
        assert getattr(area.part, fn.__name__) is fn, f"{fn.__qualname__} is not {area.attr}'s"


def _position(name: str) -> int:
    names = [fn.__name__ for _bits, _area, fn in DERIVED_ROWS]
    assert names.count(name) == 1, name
    return names.index(name)


def test_row_order_keeps_the_dependencies():
    """The orderings the rows depend on (the comments in glpipe/context.py):
    the program first (the variant key reads the other blocks and linking
    binds the program); blend after the framebuffer (the fixups read its
    formats); the window-space override after the viewport, the transform
    sysvals and the rasterizer it overrides; per-sample shading after min
    samples; the sysvals upload after every row that sets a sysval."""
    assert _position("_emit_program") == 0
    assert _position("_emit_framebuffer") < _position("_emit_blend")
    window = _position("_emit_window_space")
    for earlier in ("_emit_viewport", "_emit_transform_sysvals", "_emit_rasterizer"):
        assert _position(earlier) < window
    assert _position("_emit_min_samples") < _position("_emit_persample_interp")
    assert _position("_emit_sysvals") == len(DERIVED_ROWS) - 1
    # Each shadowed block's "forget" row runs just before its emit.
    for forget, emit in (
        ("_forget_blend_block", "_emit_blend"),
        ("_forget_dsa_block", "_emit_dsa"),
        ("_forget_rasterizer_clobbers", "_emit_rasterizer"),
    ):
        assert _position(forget) + 1 == _position(emit)


def test_every_row_bit_is_a_dirty_bit():
    bits = 0
    for value in (v for k, v in vars(Dirty).items() if k.isupper()):
        bits |= value
    for row_bits, _area, fn in DERIVED_ROWS:
        assert not row_bits & ~bits, fn.__qualname__


# -- the framework on its own ---------------------------------------------------------


class _Counter(Part):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.count = 0

    def bump(self, n: int = 1) -> int:
        """Add n."""
        self.count += n
        self.ctx.dirty |= 4
        return self.count

    def _emit(self) -> None:
        self.ctx.emitted.append(self.count)


_COUNTER = Area(
    "counter_part", part=_Counter, methods=("bump",), rows=((4, _Counter._emit),), late_rows=((8, _Counter._emit),)
)


def test_a_new_area_is_one_record():
    class Host:
        pass

    compose(Host, (_COUNTER,))
    assert Host.bump is _Counter.bump and Host.bump.__doc__ == "Add n."
    obj = Host()
    obj.dirty, obj.emitted = 0, []
    attach(obj, (_COUNTER,))
    assert obj.bump(2) == 2 and obj.counter_part.count == 2 and obj.dirty == 4
    # Without the instance binding the descriptor still reaches the part.
    del obj.__dict__["bump"]
    assert obj.bump() == 3
    rows = derived_rows((_COUNTER, Area("other", part=_Counter, rows=((1, _Counter._emit),))))
    assert [(bits, area.attr) for bits, area, _fn in rows] == [(4, "counter_part"), (1, "other"), (8, "counter_part")]


def test_compose_refuses_mistakes():
    class Host:
        def bump(self):
            pass

    with pytest.raises(TypeError, match="already defined"):
        compose(Host, (_COUNTER,))
    with pytest.raises(TypeError, match="declared by the areas"):
        compose(type("H2", (), {}), (_COUNTER, Area("again", part=_Counter, methods=("bump",))))
    with pytest.raises(TypeError, match="does not define"):
        compose(type("H3", (), {}), (Area("x", part=_Counter, methods=("missing",)),))


def test_context_module_is_wiring():
    """glpipe/context.py composes; the draw path is glpipe/draw.py."""
    for name in ("draw_vbo", "_update_derived", "_draw_general", "_derived_run"):
        assert getattr(Context, name).__module__ == "glpipe.draw", name
    assert context_module.DERIVED_ORDER is DERIVED_ORDER


# -- the rasterizer family (rasterizer, and the emulations it hooks into the draw) ----

RASTER_FAMILY = (
    ("rasterizer", "rasterizer_part", "RasterizerPart"),
    ("line_stipple", "line_stipple_part", "LineStipplePart"),
    ("vertex_capture", "vertex_capture_part", "VertexCapturePart"),
    ("fill_modes", "fill_modes_part", "FillModesPart"),
    ("polygon_edges", "polygon_edges_part", "PolygonEdgesPart"),
)


@pytest.mark.parametrize("module,attr,cls", RASTER_FAMILY, ids=[m for m, _a, _c in RASTER_FAMILY])
def test_the_rasterizer_family_are_parts(ctx, module, attr, cls):
    import importlib

    mod = importlib.import_module(f"glpipe.raster.{module}")
    part_cls = getattr(mod, cls)
    assert mod.AREA in PARTS and mod.AREA.attr == attr and mod.AREA.part is part_cls
    assert part_cls not in Context.__mro__
    assert not [name for name in vars(mod) if name.endswith("Mixin")], module
    part = getattr(ctx, attr)
    assert isinstance(part, part_cls) and part.ctx is ctx


def test_the_rasterizer_parts_own_their_state(ctx):
    """What other areas read of the rasterizer family is the parts' (no copy
    on the context); the draw hooks are the rasterizer part's bound methods."""
    from glpipe.enums import PolygonMode
    from glpipe.templates import RasterizerState

    rast = ctx.rasterizer_part
    for name in (
        "rasterizer",
        "_rasterizer_default",
        "_rast_key",
        "_rast_edge_fill",
        "_rast_host",
        "clip_state",
        "_line_stipple_key",
        "_edge_key",
        "_fm_plan",
        "_fm_cso",
        "_vc_programs",
    ):
        assert name not in vars(ctx) and not hasattr(type(ctx), name), name
    cso = ctx.create_rasterizer_state(RasterizerState(fill_front=PolygonMode.LINE, fill_back=PolygonMode.FILL))
    ctx.bind_rasterizer_state(cso)
    assert rast.rasterizer is cso and rast.rast_edge_fill and rast._rast_fill_split
    assert ctx._raster_draw_keys.__self__ is rast and ctx._raster_draw.__self__ is rast
    assert ctx._raster_translated.__self__ is ctx.polygon_edges_part
    ctx.bind_rasterizer_state(None)
    assert rast.rasterizer is None and not rast.rast_edge_fill
    assert ctx._raster_draw_keys is None and ctx._raster_draw is None and ctx._raster_translated is None
