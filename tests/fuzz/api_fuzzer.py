"""The API fuzzer: random pipe_context / pipe_screen call sequences with bad
arguments and destroys mixed in (issue 12 item 8; docs/robustness.md "API fuzzing").

A sequence is ``length`` calls over every object kind -- resources, surfaces,
sampler views, every CSO, shaders, vertex elements, transfers, draws, clears,
fences -- each built from a valid argument list; with probability ``p_bad``
one argument (or one field of a template argument) is replaced by a bad value
(wrong type, None, negative, out of its C range, huge).  Every call must
either return or raise a ``PipeError`` subclass, and leave no GL error
pending.  After the sequence a known-good draw must give the right pixels.

Outcomes are counted in ``Stats``.  A non-PipeError exception from a call that
was handed a destroyed object is a *lifetime* finding (reported separately:
object lifetimes are issue 12 item 4); any other is a *boundary* finding.
``tests/fuzz/test_api_fuzz.py`` runs fixed seeds; ``scripts/fuzz_api.py``
runs for as long as asked.
"""

from __future__ import annotations

import random
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    Box,
    ClipState,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    DrawStartCountBias,
    Format,
    FramebufferState,
    PolyStipple,
    RasterizerState,
    ResourceTemplate,
    RTBlendState,
    SamplerState,
    SamplerViewTemplate,
    ScissorState,
    ShaderState,
    StencilRef,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    VertexElement,
    ViewportState,
)
from glpipe.enums import Clear, Map, Prim, ShaderType
from glpipe.errors import PipeError

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""
FS_FLAT = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""
FS_TEX = """FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: END
"""
FS_SVIEWINFO = """FRAG
DCL OUT[0], COLOR
DCL SVIEW[0], 2D, FLOAT
IMM[0] INT32 {0, 0, 0, 0}
  0: SVIEWINFO OUT[0], IMM[0].xxxx, SVIEW[0]
  1: END
"""
FS_CONST = """FRAG
DCL OUT[0], COLOR
DCL CONST[0][0]
  0: MOV OUT[0], CONST[0][0]
  1: END
"""
FS_TEXTS = (FS_FLAT, FS_TEX, FS_SVIEWINFO, FS_CONST)
BAD_TGSI = ("", "FRAG\n  0: MOV OUT[0], IN[0]\n", "VERT\nDCL TEMP[0..99999999999999999999]\n  0: END\n", "\x00")

POS_COLOR = (
    VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
)

SIZE = 8


def _huge() -> int:
    return 10**5000  # more digits than Python's int-to-str limit


#: Bad values: wrong types, None, negatives, out of every C range, huge.
BAD_VALUES: tuple = (
    None,
    "x",
    b"\x00\x01",
    1.5,
    float("nan"),
    float("inf"),
    True,
    -1,
    -(2**31) - 1,
    2**31,
    2**32,
    2**32 + 3,
    2**63,
    2**64,
    2**70,
    -(2**63) - 1,
    _huge(),
    object(),
    [],
    (),
    [None],
    {"a": 1},
)

SHADER_STAGES = ("vs", "fs", "gs", "tcs", "tes")


@dataclass
class Stats:
    """Counts over a campaign."""

    sequences: int = 0
    calls: int = 0
    bad_calls: int = 0
    ok: int = 0
    pipe_errors: Counter = field(default_factory=Counter)
    boundary: list = field(default_factory=list)  # non-PipeError, no destroyed object involved
    lifetime: list = field(default_factory=list)  # non-PipeError after a destroy of an argument
    accepted_dead: Counter = field(default_factory=Counter)  # returned normally given a destroyed object
    returned: Counter = field(default_factory=Counter)  # calls that returned normally, by method
    pending_gl: list = field(default_factory=list)  # a GL error left pending after a call
    bad_pixels: list = field(default_factory=list)  # the known-good draw after a sequence failed
    slow: list = field(default_factory=list)  # a call over SLOW_CALL seconds

    def merge(self, other: Stats) -> None:
        """Add ``other``'s counts to these."""
        self.sequences += other.sequences
        self.calls += other.calls
        self.bad_calls += other.bad_calls
        self.ok += other.ok
        self.pipe_errors.update(other.pipe_errors)
        self.accepted_dead.update(other.accepted_dead)
        self.returned.update(other.returned)
        for name in ("boundary", "lifetime", "pending_gl", "bad_pixels", "slow"):
            getattr(self, name).extend(getattr(other, name))

    def summary(self) -> str:
        """One paragraph of counts."""
        errs = ", ".join(f"{k} {v}" for k, v in sorted(self.pipe_errors.items()))
        return (
            f"{self.sequences} sequences, {self.calls} calls ({self.bad_calls} with a bad argument): "
            f"{self.ok} returned, PipeError raised: {errs or 'none'}; "
            f"non-PipeError (boundary): {len(self.boundary)}, non-PipeError after a destroy (lifetime): "
            f"{len(self.lifetime)}, calls given a destroyed object that returned normally (lifetime): "
            f"{sum(self.accepted_dead.values())}, GL errors left pending: {len(self.pending_gl)}, "
            f"known-good draw wrong: {len(self.bad_pixels)}, calls over {SLOW_CALL:.0f} s: {len(self.slow)}"
        )


SLOW_CALL = 10.0


class _Bad(Exception):
    """Internal: an argument generator could not build a valid argument list
    (its message names the pool kind that was missing)."""


_RANDOM = object()  # _build: pick a bad value at random
_SWEEP_VARIANTS = 4  # Fuzzer.sweep: random variants of each operation

# What creates an object of each pool kind (the sweep makes what an operation needs).
_MAKERS = {
    "buffer": "op_resource_create",
    "texture": "op_resource_create",
    "surface": "op_create_surface",
    "view": "op_create_sampler_view",
    "transfer": "op_transfer_map",
    "fence": "op_flush",
    "blend": "op_create_blend",
    "depth_stencil_alpha": "op_create_dsa",
    "rasterizer": "op_create_rasterizer",
    "sampler": "op_create_sampler",
    "vertex_elements": "op_create_vertex_elements",
    "vs": "op_create_shader",
    "fs": "op_create_shader",
    "gs": "op_create_other_shader",
    "tcs": "op_create_other_shader",
    "tes": "op_create_other_shader",
}


class Fuzzer:
    """One screen and context under fuzz; ``run_sequence`` makes one sequence."""

    def __init__(self, screen, rng: random.Random, p_bad: float = 0.3, p_destroy: float = 0.08):
        self.screen = screen
        self.rng = rng
        self.p_bad = p_bad
        self.p_destroy = p_destroy
        self.stats = Stats()
        self.ctx = None
        self.pool: dict[str, list] = {}
        self.dead: set[int] = set()  # ids of objects destroyed in this sequence
        self._dead_refs: list = []  # keep destroyed objects alive so their ids stay unique
        self._bad_value: Any = _RANDOM  # the bad value _build puts in (sweep), or a random one
        self.ctx_destroyed = False  # op_context_destroy ran: later calls use a destroyed context

    # -- the pool ---------------------------------------------------------------

    def _pick(self, kind: str):
        items = self.pool.get(kind)
        if not items:
            raise _Bad(kind)
        return self.rng.choice(items)

    def _add(self, kind: str, obj) -> None:
        if obj is not None:
            self.pool.setdefault(kind, []).append(obj)

    def _kill(self, kind: str, obj) -> None:
        self.dead.add(id(obj))
        self._dead_refs.append(obj)

    # -- valid templates ----------------------------------------------------------

    def _resource_templ(self) -> dict:
        r = self.rng
        if r.random() < 0.4:
            bind = r.choice([Bind.VERTEX_BUFFER, Bind.INDEX_BUFFER, Bind.CONSTANT_BUFFER, Bind(0)])
            return dict(target=Target.BUFFER, format=Format.R8_UNORM, width0=r.choice([16, 64, 256, 4096]), bind=bind)
        fmt = r.choice([Format.R8G8B8A8_UNORM, Format.R32G32B32A32_FLOAT, Format.Z24_UNORM_S8_UINT, Format.R16_FLOAT])
        bind = Bind.DEPTH_STENCIL if fmt == Format.Z24_UNORM_S8_UINT else Bind.RENDER_TARGET | Bind.SAMPLER_VIEW
        target = r.choice([Target.TEXTURE_2D, Target.TEXTURE_2D, Target.TEXTURE_2D_ARRAY, Target.TEXTURE_3D])
        if target == Target.TEXTURE_3D and fmt == Format.Z24_UNORM_S8_UINT:
            target = Target.TEXTURE_2D
        size = r.choice([1, 4, 8, 16])
        return dict(
            target=target,
            format=fmt,
            width0=size,
            height0=size,
            depth0=2 if target == Target.TEXTURE_3D else 1,
            array_size=3 if target == Target.TEXTURE_2D_ARRAY else 1,
            last_level=r.choice([0, 0, 1]) if size > 1 else 0,
            bind=bind,
        )

    def _box(self, res) -> dict:
        r = self.rng
        w = max(1, res.width0)
        h = max(1, res.height0)
        x = r.randrange(w)
        y = r.randrange(h) if res.target != Target.BUFFER else 0
        return dict(x=x, y=y, z=0, width=r.randint(1, w - x), height=r.randint(1, h - y), depth=1)

    # -- operations: each returns (callable, args, kwargs, on_result) ------------
    # Template arguments are given as (class, fields) so a bad value can go
    # into one field; ``_build`` constructs them (the constructor is a call
    # under test too).

    def op_resource_create(self):
        return (
            self.screen.resource_create,
            [(ResourceTemplate, self._resource_templ())],
            lambda res: self._add("buffer" if res.target == Target.BUFFER else "texture", res),
        )

    def op_resource_destroy(self):
        kind = self.rng.choice(["buffer", "texture"])
        res = self._pick(kind)
        self.pool[kind].remove(res)
        return self.screen.resource_destroy, [res], lambda _r: self._kill(kind, res)

    def op_create_surface(self):
        tex = self._pick("texture")
        templ = dict(format=tex.format, level=self.rng.randint(0, tex.last_level))
        return self.ctx.create_surface, [tex, (SurfaceTemplate, templ)], lambda s: self._add("surface", s)

    def op_surface_destroy(self):
        s = self._pick("surface")
        self.pool["surface"].remove(s)
        return self.ctx.surface_destroy, [s], lambda _r: self._kill("surface", s)

    def op_create_sampler_view(self):
        tex = self._pick("texture")
        if tex.format == Format.Z24_UNORM_S8_UINT:
            raise _Bad("zs view")
        templ = dict(format=tex.format, target=tex.target, last_level=tex.last_level, last_layer=tex.array_size - 1)
        return self.ctx.create_sampler_view, [tex, (SamplerViewTemplate, templ)], lambda v: self._add("view", v)

    def op_sampler_view_destroy(self):
        v = self._pick("view")
        self.pool["view"].remove(v)
        return self.ctx.sampler_view_destroy, [v], lambda _r: self._kill("view", v)

    def op_set_sampler_views(self):
        views = [self._pick("view") if self.pool.get("view") else None for _ in range(self.rng.randint(0, 2))]
        return self.ctx.set_sampler_views, [ShaderType.FRAGMENT, self.rng.randint(0, 3), views], None

    def op_set_framebuffer_state(self):
        colors = [s for s in self.pool.get("surface", []) if s.format != Format.Z24_UNORM_S8_UINT]
        zs = [s for s in self.pool.get("surface", []) if s.format == Format.Z24_UNORM_S8_UINT]
        cbufs = tuple(self.rng.sample(colors, min(len(colors), self.rng.randint(0, 2))))
        templ = dict(
            width=SIZE, height=SIZE, cbufs=cbufs, zsbuf=self.rng.choice(zs) if zs and self.rng.random() < 0.5 else None
        )
        return self.ctx.set_framebuffer_state, [(FramebufferState, templ)], None

    def op_set_vertex_buffers(self):
        bufs = []
        for _ in range(self.rng.randint(0, 2)):
            if self.rng.random() < 0.3:
                buf: Any = np.zeros(64, np.float32)
            else:
                buf = self._pick("buffer")
            bufs.append((VertexBuffer, dict(buffer=buf, buffer_offset=self.rng.choice([0, 16]), stride=32)))
        return self.ctx.set_vertex_buffers, [bufs], None

    def op_set_constant_buffer(self):
        if self.rng.random() < 0.5 and self.pool.get("buffer"):
            cb = (ConstantBuffer, dict(buffer=self._pick("buffer"), buffer_offset=0, buffer_size=16))
        else:
            cb = (ConstantBuffer, dict(user_buffer=np.ones(4, np.float32), buffer_size=16))
        return self.ctx.set_constant_buffer, [ShaderType.FRAGMENT, 0, cb], None

    def _cso(self, name: str, cls, fields: dict):
        create = getattr(self.ctx, f"create_{name}_state")
        return create, [(cls, fields)], lambda c: self._add(name, c)

    def op_create_blend(self):
        rt = RTBlendState(blend_enable=self.rng.random() < 0.5, colormask=self.rng.randint(0, 15))
        return self._cso("blend", BlendState, dict(rt=(rt,)))

    def op_create_dsa(self):
        return self._cso("depth_stencil_alpha", DepthStencilAlphaState, dict(depth_enabled=self.rng.random() < 0.5))

    def op_create_rasterizer(self):
        r = self.rng
        fields = dict(point_size=1.0, line_width=1.0, scissor=r.random() < 0.2, cull_face=r.randint(0, 3))
        return self._cso("rasterizer", RasterizerState, fields)

    def op_create_sampler(self):
        return self._cso("sampler", SamplerState, dict(max_anisotropy=self.rng.choice([0, 1, 16])))

    def op_create_vertex_elements(self):
        return self.ctx.create_vertex_elements_state, [list(POS_COLOR)], lambda c: self._add("vertex_elements", c)

    def op_create_shader(self):
        stage = self.rng.choice(["vs", "fs", "fs", "gs"])
        if self.rng.random() < 0.1:
            text = self.rng.choice(BAD_TGSI)
        elif stage == "vs":
            text = VS
        elif stage == "fs":
            text = self.rng.choice(FS_TEXTS)
        else:
            raise _Bad("gs")  # a GS text here would need the VS's outputs; the fuzz keeps to VS/FS
        create = getattr(self.ctx, f"create_{stage}_state")
        return create, [(ShaderState, dict(tokens=text))], lambda c: self._add(stage, c)

    def op_bind(self):
        kind = self.rng.choice(["blend", "depth_stencil_alpha", "rasterizer", "vertex_elements", "vs", "fs", "gs"])
        cso = self._pick(kind) if self.rng.random() < 0.9 else None
        bind = getattr(self.ctx, f"bind_{kind}_state")
        return bind, [cso], None

    def op_bind_samplers(self):
        samplers = [self._pick("sampler") for _ in range(self.rng.randint(0, 2))]
        return self.ctx.bind_sampler_states, [ShaderType.FRAGMENT, self.rng.randint(0, 3), samplers], None

    def op_delete(self):
        kind = self.rng.choice(
            ["blend", "depth_stencil_alpha", "rasterizer", "vertex_elements", "vs", "fs", "gs", "tcs", "tes", "sampler"]
        )
        cso = self._pick(kind)
        self.pool[kind].remove(cso)
        delete = getattr(self.ctx, f"delete_{kind}_state")
        return delete, [cso], lambda _r: self._kill(kind, cso)

    def op_set_viewport(self):
        v = (ViewportState, dict(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5)))
        return self.ctx.set_viewport_states, [0, [v]], None

    def op_set_scissor(self):
        s = (ScissorState, dict(minx=0, miny=0, maxx=self.rng.randint(0, SIZE), maxy=SIZE))
        return self.ctx.set_scissor_states, [self.rng.randint(0, 1), [s]], None

    def op_set_misc(self):
        r = self.rng
        choice = r.randrange(6)
        if choice == 5:
            return self.ctx.set_patch_vertices, [r.choice([1, 3, 4])], None
        if choice == 0:
            return self.ctx.set_blend_color, [[r.random() for _ in range(4)]], None
        if choice == 1:
            return self.ctx.set_sample_mask, [r.choice([0xFFFFFFFF, 1])], None
        if choice == 2:
            return self.ctx.set_min_samples, [r.choice([1, 2, 4])], None
        if choice == 3:
            return self.ctx.emit_string_marker, [r.choice(["marker", b"bytes"])], None
        return self.ctx.set_window_rectangles, [False, []], None

    def op_draw(self):
        r = self.rng
        mode = r.choice(list(Prim))
        fields: dict = dict(mode=mode, start=r.randint(0, 8), count=r.randint(0, 12), instance_count=r.randint(0, 2))
        draws = None
        if r.random() < 0.3 and self.pool.get("buffer"):
            fields.update(index_size=r.choice([1, 2, 4]), index=self._pick("buffer"))
        elif r.random() < 0.15:
            fields.update(index_size=2, index=np.arange(12, dtype=np.uint16))
        if r.random() < 0.2:
            draws = [(DrawStartCountBias, dict(start=r.randint(0, 4), count=r.randint(0, 6)))]
        args: list = [(DrawInfo, fields)]
        if draws is not None:
            args.append(draws)
        return self.ctx.draw_vbo, args, None

    def op_clear(self):
        r = self.rng
        if r.random() < 0.5:
            buffers = r.choice([Clear.COLOR0, Clear.DEPTH | Clear.STENCIL, Clear.COLOR0 | Clear.DEPTH])
            return self.ctx.clear, [buffers, None, [0.1, 0.2, 0.3, 1.0], 1.0, 0], None
        s = self._pick("surface")
        if s.format == Format.Z24_UNORM_S8_UINT:
            args = [s, Clear.DEPTH, 0.5, 3, 0, 0, 1, 1, False]
            return self.ctx.clear_depth_stencil, args, None
        return self.ctx.clear_render_target, [s, [1.0, 0.0, 0.0, 1.0], 0, 0, 1, 1, False], None

    def op_subdata(self):
        if self.rng.random() < 0.5:
            res = self._pick("buffer")
            n = self.rng.randint(1, res.width0)
            return self.ctx.buffer_subdata, [res, Map.WRITE, self.rng.randint(0, res.width0 - n), bytes(n)], None
        tex = self._pick("texture")
        if tex.target != Target.TEXTURE_2D:
            raise _Bad("subdata target")
        box = self._box(tex)
        bpp = {
            Format.R8G8B8A8_UNORM: 4,
            Format.R32G32B32A32_FLOAT: 16,
            Format.Z24_UNORM_S8_UINT: 4,
            Format.R16_FLOAT: 2,
        }
        stride = box["width"] * bpp[tex.format]
        data = bytes(stride * box["height"])
        return self.ctx.texture_subdata, [tex, 0, Map.WRITE, (Box, box), data, stride, 0], None

    def op_transfer_map(self):
        res = self._pick(self.rng.choice(["buffer", "texture"]))
        usage = self.rng.choice([Map.READ, Map.WRITE, Map.READ_WRITE, Map.WRITE | Map.DISCARD_RANGE])
        if res.format == Format.Z24_UNORM_S8_UINT:
            usage = Map.READ
        return self.ctx.transfer_map, [res, 0, usage, (Box, self._box(res))], lambda t: self._add("transfer", t)

    def op_transfer_unmap(self):
        t = self._pick("transfer")
        self.pool["transfer"].remove(t)
        return self.ctx.transfer_unmap, [t], lambda _r: self._kill("transfer", t)

    def op_flush(self):
        return self.ctx.flush, [self.rng.choice([0, 1])], lambda f: self._add("fence", f)

    def op_fence_finish(self):
        f = self._pick("fence")
        return self.screen.fence_finish, [self.ctx, f, self.rng.choice([0, 1000000])], None

    def op_invalidate(self):
        return self.ctx.invalidate_resource, [self._pick(self.rng.choice(["buffer", "texture"]))], None

    def op_screen_query(self):
        r = self.rng
        choice = r.randrange(4)
        if choice == 0:
            return self.screen.get_param, [r.randrange(300)], None
        if choice == 1:
            return self.screen.get_shader_param, [r.randrange(6), r.randrange(40)], None
        if choice == 2:
            return (
                self.screen.is_format_supported,
                [Format.R8G8B8A8_UNORM, Target.TEXTURE_2D, 0, 0, Bind.SAMPLER_VIEW],
                None,
            )
        return self.screen.get_paramf, [r.randrange(10)], None

    def op_set_state_misc(self):
        r = self.rng
        choice = r.randrange(6)
        if choice == 0:
            return self.ctx.set_clip_state, [(ClipState, dict(ucp=((0.0, 0.0, 0.0, 1.0),)))], None
        if choice == 1:
            return self.ctx.set_polygon_stipple, [(PolyStipple, dict(stipple=(0xFFFFFFFF,) * 32))], None
        if choice == 2:
            return self.ctx.set_stencil_ref, [(StencilRef, dict(ref_value=(r.randint(0, 255), 0)))], None
        if choice == 3:
            return self.ctx.set_tess_state, [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0]], None
        if choice == 4:
            return self.ctx.set_debug_callback, [r.choice([None, lambda *a: None])], None
        rect = (ScissorState, dict(minx=0, miny=0, maxx=4, maxy=4))
        return self.ctx.set_window_rectangles, [r.random() < 0.5, [rect]], None

    def op_create_other_shader(self):
        stage = self.rng.choice(["gs", "tcs", "tes"])
        create = getattr(self.ctx, f"create_{stage}_state")
        text = self.rng.choice(BAD_TGSI + (VS, FS_FLAT))  # the wrong stage's text: a ShaderValidationError
        return create, [(ShaderState, dict(tokens=text))], lambda c: self._add(stage, c)

    def op_transfer_flush(self):
        t = self._pick("transfer")
        return self.ctx.transfer_flush_region, [t, (Box, dict(width=1, height=1, depth=1))], None

    def op_screen_misc(self):
        r = self.rng
        scr = self.screen
        choice = r.randrange(8)
        if choice == 0:
            return scr.can_create_resource, [(ResourceTemplate, self._resource_templ())], None
        if choice == 1:
            return scr.resource_changed, [self._pick(r.choice(["buffer", "texture"]))], None
        if choice == 2:
            return scr.get_compute_param, [0, r.randrange(20)], None
        if choice == 3:
            return scr.get_driver_query_info, [r.randrange(8)], None
        if choice == 4:
            return scr.get_driver_query_group_info, [r.randrange(4)], None
        if choice == 5:
            return scr.is_dmabuf_modifier_supported, [0, Format.R8G8B8A8_UNORM], None
        if choice == 6:
            return scr.get_dmabuf_modifier_planes, [0, Format.R8G8B8A8_UNORM], None
        return scr.fence_reference, [None, self._pick("fence")], None

    def op_context_destroy(self):
        ctx = self.ctx

        def destroyed(_r) -> None:
            self.ctx_destroyed = True
            self._kill("context", ctx)

        return ctx.destroy, [], destroyed

    OPS = (
        ("op_resource_create", 6),
        ("op_resource_destroy", 1),
        ("op_create_surface", 4),
        ("op_surface_destroy", 1),
        ("op_create_sampler_view", 3),
        ("op_sampler_view_destroy", 1),
        ("op_set_sampler_views", 2),
        ("op_set_framebuffer_state", 3),
        ("op_set_vertex_buffers", 3),
        ("op_set_constant_buffer", 2),
        ("op_create_blend", 2),
        ("op_create_dsa", 2),
        ("op_create_rasterizer", 2),
        ("op_create_sampler", 2),
        ("op_create_vertex_elements", 2),
        ("op_create_shader", 3),
        ("op_bind", 6),
        ("op_bind_samplers", 2),
        ("op_delete", 1),
        ("op_set_viewport", 1),
        ("op_set_scissor", 1),
        ("op_set_misc", 2),
        ("op_draw", 8),
        ("op_clear", 3),
        ("op_subdata", 3),
        ("op_transfer_map", 2),
        ("op_transfer_unmap", 2),
        ("op_flush", 1),
        ("op_fence_finish", 1),
        ("op_invalidate", 1),
        ("op_screen_query", 1),
        ("op_set_state_misc", 3),
        ("op_create_other_shader", 1),
        ("op_transfer_flush", 1),
        ("op_screen_misc", 2),
        ("op_context_destroy", 0.05),
    )

    # -- building and running calls -----------------------------------------------

    def _build(self, arg, bad_path):
        """Construct ``arg`` (templates given as (class, fields), lists of them),
        putting a bad value where ``bad_path`` points."""
        if bad_path == ():
            return self.rng.choice(BAD_VALUES) if self._bad_value is _RANDOM else self._bad_value
        if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[0], type):
            cls, fields = arg
            fields = dict(fields)
            if bad_path is not None:
                name = bad_path[0]
                fields[name] = self._build(fields.get(name), bad_path[1:])
            return cls(**{k: self._build(v, None) for k, v in fields.items()})
        if isinstance(arg, list):
            out = [self._build(a, None) for a in arg]
            if bad_path is not None:
                i = bad_path[0]
                out[i] = self._build(arg[i], bad_path[1:])
            return out
        return arg

    def _bad_path(self, args: list):
        """A path to one argument (or template field) to spoil."""
        r = self.rng
        i = r.randrange(len(args)) if args else None
        if i is None:
            return None
        arg = args[i]
        if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[0], type) and r.random() < 0.7:
            import dataclasses

            names = [f.name for f in dataclasses.fields(arg[0])]
            return (i, r.choice(names))
        if isinstance(arg, list) and arg and r.random() < 0.5:
            j = r.randrange(len(arg))
            inner = arg[j]
            if isinstance(inner, tuple) and len(inner) == 2 and isinstance(inner[0], type):
                import dataclasses

                names = [f.name for f in dataclasses.fields(inner[0])]
                return (i, j, r.choice(names))
            return (i, j)
        return (i,)

    def _involves_dead(self, value, depth=0) -> bool:
        if id(value) in self.dead:
            return True
        if depth > 3:
            return False
        if isinstance(value, (list, tuple)):  # also a (template class, fields) pair
            return any(self._involves_dead(v, depth + 1) for v in value)
        if isinstance(value, dict):
            return any(self._involves_dead(v, depth + 1) for v in value.values())
        d = getattr(value, "__dict__", None)
        if d is not None and type(value).__module__.startswith("glpipe.templates"):
            return any(self._involves_dead(v, depth + 1) for v in d.values())
        return False

    def step(self) -> None:
        """One call: pick an operation, maybe spoil an argument, call, classify."""
        r = self.rng
        names, weights = zip(*self.OPS, strict=True)
        name = r.choices(names, weights)[0]
        if r.random() < self.p_destroy:
            name = r.choice(["op_resource_destroy", "op_surface_destroy", "op_sampler_view_destroy", "op_delete"])
        try:
            fn, args, on_result = getattr(self, name)()
        except _Bad:
            return
        path = self._bad_path(args) if r.random() < self.p_bad else None
        self._call(name, fn, args, on_result, path, _RANDOM)

    def _call(self, name: str, fn, args: list, on_result, path, bad) -> None:
        """Build the arguments (spoiling ``path`` with ``bad``), call, classify.
        A destroy whose call is refused leaves its object out of the pool
        (neither used again nor counted as destroyed)."""
        label = f"{getattr(fn, '__name__', name)}"
        stats = self.stats
        stats.calls += 1
        if path is not None:
            stats.bad_calls += 1
            label += f" bad@{path}"
        self._bad_value = bad
        started = time.perf_counter()
        try:
            # Building a spoiled template is part of the call under test.
            built = [
                self._build(a, path[1:] if path is not None and path[0] == i else None) for i, a in enumerate(args)
            ]
            result = fn(*built)
        except PipeError as exc:
            stats.pipe_errors[type(exc).__name__] += 1
        except Exception as exc:
            record = (label, f"{type(exc).__name__}: {str(exc)[:200]}", traceback.format_exc(limit=-3))
            (stats.lifetime if self._involves_dead(args) else stats.boundary).append(record)
        else:
            stats.ok += 1
            stats.returned[label.split(" bad@")[0]] += 1
            on_dead_ctx = (
                self.ctx_destroyed and name != "op_context_destroy" and getattr(fn, "__self__", None) is not self.screen
            )
            if self._involves_dead(args) or on_dead_ctx:
                stats.accepted_dead[label.split(" bad@")[0]] += 1
            if on_result is not None:
                on_result(result)
        elapsed = time.perf_counter() - started
        if elapsed > SLOW_CALL:
            stats.slow.append((label, elapsed))
        pending = self.screen.host.clear_errors()
        if pending:
            stats.pending_gl.append((label, pending))

    def _paths(self, args: list) -> list:
        """Every place one bad value can go: each argument, each field of a
        template argument, each element of a list argument and its fields."""
        import dataclasses

        paths = []
        for i, arg in enumerate(args):
            paths.append((i,))
            if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[0], type):
                paths += [(i, f.name) for f in dataclasses.fields(arg[0])]
            elif isinstance(arg, list):
                for j, inner in enumerate(arg):
                    paths.append((i, j))
                    if isinstance(inner, tuple) and len(inner) == 2 and isinstance(inner[0], type):
                        paths += [(i, j, f.name) for f in dataclasses.fields(inner[0])]
        return paths

    def sweep(self, values: tuple = BAD_VALUES) -> None:
        """The systematic campaign: every operation, every argument path,
        every bad value, one call each (in a context refilled as destroys
        and refusals use its objects up), then the known-good draw."""
        self.ctx = self.screen.context_create()
        self.pool, self.dead, self._dead_refs = {}, set(), []
        self.ctx_destroyed = False
        try:
            for name, _weight in self.OPS:
                # Operations choosing among calls at random: several variants,
                # each with its random choices replayed for every bad value.
                for variant in range(_SWEEP_VARIANTS):
                    seed = f"{name}/{variant}"
                    self.rng.seed(seed)
                    probe = self._op_args(name)
                    if probe is None:
                        continue
                    for path in self._paths(probe[1]):
                        for value in values:
                            self.rng.seed(seed)
                            made = self._op_args(name)
                            if made is None:
                                break
                            fn, args, on_result = made
                            if path in self._paths(args):  # the pool can change an argument list's shape
                                self._call(name, fn, args, on_result, path, value)
            self._check_known_good()
        finally:
            self._teardown()

    def _op_args(self, name: str):
        """The operation's valid call, creating what it needs (a few tries)."""
        for _ in range(8):
            try:
                return getattr(self, name)()
            except _Bad as missing:
                kind = str(missing)
                maker = _MAKERS.get(kind)
                if maker is None:
                    return None
                try:
                    self._run_valid(maker)
                except (PipeError, _Bad):
                    pass
        return None

    # -- a sequence -----------------------------------------------------------------

    def run_sequence(self, length: int) -> None:
        """A fresh context, ``length`` calls, then the known-good draw."""
        self.ctx = self.screen.context_create()
        self.pool, self.dead, self._dead_refs = {}, set(), []
        self.ctx_destroyed = False
        try:
            self._prime()
            for _ in range(length):
                self.step()
            self._check_known_good()
        finally:
            self._teardown()
        self.stats.sequences += 1

    def _teardown(self) -> None:
        """Unmap, destroy the context, free the resources, drain GL errors."""
        for t in self.pool.get("transfer", []):
            try:
                self.ctx.transfer_unmap(t)
            except PipeError:
                pass
        self.ctx.destroy()
        for kind in ("buffer", "texture"):
            for res in self.pool.get(kind, []):
                try:
                    self.screen.resource_destroy(res)
                except PipeError:
                    pass
        self.screen.host.clear_errors()

    def _prime(self) -> None:
        """Something to work on from the start: a few resources and a complete
        pipeline (render target, shaders, vertex elements and buffer,
        rasterizer, viewport), all in the pool, so draws reach the host and
        destroys hit bound objects."""
        ctx, screen = self.ctx, self.screen
        for _ in range(3):
            self._run_valid("op_resource_create")
        rt = screen.resource_create(
            ResourceTemplate(
                format=Format.R32G32B32A32_FLOAT, width0=SIZE, height0=SIZE, bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW
            )
        )
        self._add("texture", rt)
        surf = ctx.create_surface(rt, SurfaceTemplate(format=rt.format))
        self._add("surface", surf)
        ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
        self._run_valid("op_set_viewport")
        verts = np.array(
            [[x, y, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0] for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))], np.float32
        )
        vb = screen.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER)
        )
        ctx.buffer_subdata(vb, Map.WRITE, 0, verts)
        self._add("buffer", vb)
        ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
        for kind, cso in (
            ("vs", ctx.create_vs_state(ShaderState(tokens=VS))),
            ("fs", ctx.create_fs_state(ShaderState(tokens=FS_FLAT))),
            ("vertex_elements", ctx.create_vertex_elements_state(list(POS_COLOR))),
            ("rasterizer", ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0))),
        ):
            self._add(kind, cso)
            getattr(ctx, f"bind_{kind}_state")(cso)

    def _run_valid(self, name: str) -> None:
        fn, args, on_result = getattr(self, name)()
        result = fn(*[self._build(a, None) for a in args])
        if on_result is not None:
            on_result(result)

    def _check_known_good(self) -> None:
        """Bind a fresh pipeline in the fuzzed context (a new one if the
        sequence destroyed it) and draw a full-screen quad of a known colour;
        every pixel must be that colour."""
        if self.ctx_destroyed:
            self.ctx = self.screen.context_create()
            self.ctx_destroyed = False
        ctx, screen = self.ctx, self.screen
        color = (0.25, 0.5, 0.75, 1.0)
        try:
            rt = screen.resource_create(
                ResourceTemplate(
                    target=Target.TEXTURE_2D,
                    format=Format.R32G32B32A32_FLOAT,
                    width0=SIZE,
                    height0=SIZE,
                    bind=Bind.RENDER_TARGET,
                )
            )
            surf = ctx.create_surface(rt, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
            ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
            ctx.set_viewport_states(
                0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))]
            )
            ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=VS)))
            ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS_FLAT)))
            for stage in ("gs", "tcs", "tes"):
                getattr(ctx, f"bind_{stage}_state")(None)
            ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(POS_COLOR)))
            ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0)))
            ctx.bind_blend_state(ctx.create_blend_state(BlendState()))
            ctx.bind_depth_stencil_alpha_state(ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState()))
            ctx.set_sample_mask(0xFFFFFFFF)
            ctx.set_min_samples(1)
            ctx.set_window_rectangles(False, [])
            verts = np.array([[x, y, 0.0, 1.0, *color] for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))], np.float32)
            ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
            ctx.clear(Clear.COLOR0, None, [0.0, 0.0, 0.0, 0.0], 1.0, 0)
            ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLE_STRIP, start=0, count=4))
            t = ctx.transfer_map(rt, 0, Map.READ, Box(width=SIZE, height=SIZE, depth=1))
            img = np.frombuffer(bytes(t.data), np.float32).reshape(-1, 4).copy()
            ctx.transfer_unmap(t)
            screen.resource_destroy(rt)
        except Exception as exc:
            self.stats.bad_pixels.append(("known-good draw raised", f"{type(exc).__name__}: {exc}"))
            return
        if not np.array_equal(img, np.tile(np.array(color, np.float32), (SIZE * SIZE, 1))):
            wrong = int(np.count_nonzero(np.any(img != np.array(color, np.float32), axis=1)))
            self.stats.bad_pixels.append(("known-good draw", f"{wrong} of {SIZE * SIZE} pixels wrong"))


def run_campaign(screen, seeds, length: int = 60, seconds: float | None = None, sequences: int | None = None) -> Stats:
    """Sequences over ``seeds`` (one seed per sequence, cycling with an offset
    when more sequences are asked for) until ``sequences`` are done or
    ``seconds`` have passed."""
    total = Stats()
    started = time.perf_counter()
    n = 0
    seeds = list(seeds)
    while True:
        if sequences is not None and n >= sequences:
            break
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        seed = seeds[n % len(seeds)] + 1_000_003 * (n // len(seeds))
        fz = Fuzzer(screen, random.Random(seed))
        fz.run_sequence(length)
        total.merge(fz.stats)
        n += 1
    return total


def run_sweep(screen, seed: int = 0) -> Stats:
    """``Fuzzer.sweep`` on ``screen``: every operation x argument x bad value."""
    fz = Fuzzer(screen, random.Random(seed))
    fz.sweep()
    fz.stats.sequences += 1
    return fz.stats


__all__ = ["BAD_VALUES", "Fuzzer", "Stats", "run_campaign", "run_sweep"]
