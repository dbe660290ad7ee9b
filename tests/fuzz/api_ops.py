"""The API fuzzer's operations (tests/fuzz/api_fuzzer.py drives them).

Each ``op_*`` method of ``Operations`` returns one valid call as
``(callable, args, on_result)``: template arguments are given as
``(class, fields)`` pairs so the fuzzer can spoil one field, and
``on_result`` files what the call made into the pool of live objects.
``OPS`` weighs them.  An operation that needs an object the pool lacks
raises ``_Bad`` naming the kind (``_MAKERS`` says what makes one).
"""

from __future__ import annotations

import random
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


class _Bad(Exception):
    """Internal: an argument generator could not build a valid argument list
    (its message names the pool kind that was missing)."""


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


class Operations:
    """The pool of live objects and the operations over it (the Fuzzer
    subclass adds the calling, spoiling and classifying)."""

    rng: random.Random
    screen: Any
    ctx: Any
    pool: dict
    dead: set
    _dead_refs: list
    ctx_destroyed: bool

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
