"""The shader rung of the blit ladder (docs/blits.md): a textured-quad
blitter written only against glpipe's own pipe_context methods, as Mesa's
u_blitter is written against Gallium's, for the multisampled blits no GL
call does exactly: resolves taking sample 0 (integers, depth, stencil,
``sample0_only``) or averaging while scaling, upsampling into a
multisampled destination, ``dst_sample`` writes, and u_blitter's MSAA copy
between equal sample counts (sample i drawn with the sample mask 1 << i).
Stencil is gathered from the source by stencil tests into an R8_UINT
texture, then written with stencil export or per-bit passes (``_stencil``).

The blitter saves every piece of bound state it touches (``_STATE``),
binds its own, draws through ``_internal_draw`` -- the one place it draws
-- and binds the user's state back, so the user's bindings are as they
were and the next draw re-emits them.
"""

from __future__ import annotations

import numpy as np

from .enums import (
    Bind,
    BlendFactor,
    Cap,
    Func,
    LogicOp,
    Mask,
    Prim,
    ShaderType,
    StencilOp,
    Target,
    TexFilter,
    TexMipFilter,
    TexWrap,
)
from .formats import Format
from .templates import (
    BlendState,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    FramebufferState,
    RasterizerState,
    ResourceTemplate,
    RTBlendState,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    StencilRef,
    StencilState,
    SurfaceTemplate,
    VertexBuffer,
    VertexElement,
    ViewportState,
)

FS = ShaderType.FRAGMENT
_STAGES = (ShaderType.VERTEX, ShaderType.TESS_CTRL, ShaderType.TESS_EVAL, ShaderType.GEOMETRY, ShaderType.FRAGMENT)
_BIND = {
    ShaderType.VERTEX: "bind_vs_state",
    ShaderType.TESS_CTRL: "bind_tcs_state",
    ShaderType.TESS_EVAL: "bind_tes_state",
    ShaderType.GEOMETRY: "bind_gs_state",
    ShaderType.FRAGMENT: "bind_fs_state",
}

_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


# How the blit FS picks the sample it fetches (TXF's .w on an MSAA view):
# "zero": sample 0 (or lod 0 of a single-sampled view); "mean": every
# sample, averaged (a colour resolve); "index": the sample CONST[0][0].z
# names (u_blitter's MSAA copy draws sample i with the sample mask 1 << i).
SAMPLE_MODES = ("zero", "mean", "index")
# What it writes: "color"; "depth" (POSITION.z); "stencil_bit": nothing,
# discarding the fragment unless bit CONST[0][0].w of the fetched value is
# set (or CONST[0][1].x forces it): one pass per stencil bit with that bit
# as the stencil write mask, the classic blit without stencil export;
# "stencil": the value as the FS stencil reference (ARB_shader_stencil_export).
OUTPUTS = ("color", "depth", "stencil_bit", "stencil")


def _fs_text(msaa: bool, layered: bool, samples: int, kind: str, output: str, sample_mode: str) -> str:
    """The blit FS: fetch texel floor(IN[0].xy) (clamped to the level, as
    CLAMP_TO_EDGE) of layer IN[0].z, the sample(s) ``sample_mode`` says,
    and write it as ``output`` says (OUTPUTS)."""
    target = ("2D_ARRAY" if layered else "2D") + ("_MSAA" if msaa else "")
    ret = {"f": "FLOAT", "u": "UINT", "i": "SINT"}[kind]
    out = {
        "color": ["DCL OUT[0], COLOR"],
        "depth": ["DCL OUT[0], POSITION"],
        "stencil_bit": [],
        "stencil": ["DCL OUT[0], STENCIL"],
    }[output]
    lines = [
        "FRAG",
        "DCL IN[0], GENERIC[0], LINEAR",
        *out,
        "DCL SAMP[0]",
        f"DCL SVIEW[0], {target}, {ret}",
        "DCL CONST[0][0..1]",
        "DCL TEMP[0..3]",
        "IMM[0] INT32 {0, 0, 0, 0}",
        f"IMM[1] FLT32 {{{1.0 / max(samples, 1):.9g}, -0.5, 0.0, 0.0}}",
    ]
    code = [
        "FLR TEMP[0], IN[0]",
        "F2I TEMP[0], TEMP[0]",
        # CONST[0][0].xy holds the level's (width - 1, height - 1) as integers.
        "IMAX TEMP[0].xy, TEMP[0].xyyy, IMM[0].xxxx",
        "IMIN TEMP[0].xy, TEMP[0].xyyy, CONST[0][0].xyyy",
    ]
    if not layered:
        code.append("MOV TEMP[0].z, IMM[0].xxxx")
    n = samples if (msaa and sample_mode == "mean" and samples > 1) else 1
    if msaa and sample_mode == "index":
        code.append("MOV TEMP[0].w, CONST[0][0].zzzz")
    else:
        code.append("MOV TEMP[0].w, IMM[0].xxxx")  # lod 0, or sample 0
    code.append(f"TXF TEMP[1], TEMP[0], SAMP[0], {target}")
    for k in range(1, n):
        lines.append(f"IMM[{k + 1}] INT32 {{{k}, 0, 0, 0}}")
        code.append(f"MOV TEMP[0].w, IMM[{k + 1}].xxxx")
        code.append(f"TXF TEMP[2], TEMP[0], SAMP[0], {target}")
        code.append("ADD TEMP[1], TEMP[1], TEMP[2]")
    if n > 1:
        code.append("MUL TEMP[1], TEMP[1], IMM[1].xxxx")
    if output == "color":
        code.append("MOV OUT[0], TEMP[1]")
    elif output == "depth":
        code.append("MOV OUT[0].z, TEMP[1].xxxx")
    elif output == "stencil":
        code.append("MOV OUT[0].y, TEMP[1].xxxx")
    else:
        # discard unless (value & bit) | force is non-zero
        code.append("AND TEMP[2].x, TEMP[1].xxxx, CONST[0][0].wwww")
        code.append("OR TEMP[2].x, TEMP[2].xxxx, CONST[0][1].xxxx")
        code.append("U2F TEMP[2].x, TEMP[2].xxxx")
        code.append("ADD TEMP[2].x, TEMP[2].xxxx, IMM[1].yyyy")
        code.append("KILL_IF TEMP[2].xxxx")
    code.append("END")
    return "\n".join(lines + [f"  {i}: {c}" for i, c in enumerate(code)]) + "\n"


# The FS of the stencil extraction: writes CONST[0][0].w (one bit) as an
# unsigned colour; logic op OR gathers the bits the stencil test lets by.
_FS_BIT = """FRAG
DCL OUT[0], COLOR
DCL CONST[0][0..1]
  0: MOV OUT[0], CONST[0][0].wwww
  1: END
"""


def _kind(desc) -> str:
    if desc.is_pure_uint:
        return "u"
    if desc.is_pure_sint:
        return "i"
    return "f"


class ShaderBlitter:
    """The textured-quad blitter of one context (made on first use)."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self._objects: dict = {}  # key -> CSO made once

    def destroy(self) -> None:
        """Delete the blitter's CSOs (Context.destroy)."""
        ctx = self.ctx
        for key, cso in self._objects.items():
            # Areas destroyed before this one (PARTS order) may have deleted theirs.
            if not getattr(cso, "destroyed", False):
                getattr(ctx, f"delete_{key[0]}_state")(cso)
        self._objects.clear()

    def _cso(self, kind: str, key, make):
        full = (kind, key)
        cso = self._objects.get(full)
        if cso is None:
            cso = self._objects[full] = make()
        return cso

    # -- saving and restoring exactly what the blitter touches -------------------------

    def _save(self) -> dict:
        ctx = self.ctx
        shaders = ctx.shader_part.shaders
        return {
            "framebuffer": ctx.framebuffer_part.framebuffer,
            "viewport": ctx.viewport_part.viewports[0],
            "rasterizer": ctx.rasterizer_part.rasterizer,
            "window_rectangles": ctx.rasterizer_part.window_rectangles,
            "blend": ctx.blend_part.blend,
            "sample_mask": ctx.blend_part.sample_mask,
            "dsa": ctx.dsa_part.depth_stencil_alpha,
            "stencil_ref": ctx.dsa_part.stencil_ref,
            "shaders": {st: shaders[st] for st in _STAGES},
            "velems": ctx.vertex_part.velems,
            "vertex_buffers": ctx.vertex_part.vertex_buffers,
            "view": ctx.sampler_views_part.sampler_views[FS][0],
            "sampler": ctx.samplers_part.sampler_states[FS][0],
            "constant_buffer": ctx.constbuf_part.constant_buffers[FS][0],
        }

    def _restore(self, saved: dict) -> None:
        ctx = self.ctx
        ctx.set_framebuffer_state(saved["framebuffer"])
        ctx.set_viewport_states(0, [saved["viewport"]])
        ctx.bind_rasterizer_state(saved["rasterizer"])
        ctx.set_window_rectangles(*saved["window_rectangles"])
        ctx.bind_blend_state(saved["blend"])
        ctx.set_sample_mask(saved["sample_mask"])
        ctx.bind_depth_stencil_alpha_state(saved["dsa"])
        ctx.set_stencil_ref(saved["stencil_ref"])
        for stage, cso in saved["shaders"].items():
            if ctx.shader_part.shaders[stage] is not cso:
                getattr(ctx, _BIND[stage])(cso)
        ctx.bind_vertex_elements_state(saved["velems"])
        ctx.set_vertex_buffers(saved["vertex_buffers"])
        ctx.set_sampler_views(FS, 0, [saved["view"]])
        ctx.bind_sampler_states(FS, 0, [saved["sampler"]])
        ctx.set_constant_buffer(FS, 0, saved["constant_buffer"])

    # -- the one internal draw ----------------------------------------------------

    def _internal_draw(self) -> None:
        """Every draw the blitter makes (two triangles): the one place to
        wrap so internal draws never count toward the user's queries nor
        follow the user's render condition (blit decided that already)."""
        ctx = self.ctx
        with ctx.query_part.suspended(), ctx.render_condition_part.ungated():
            ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=6))

    # -- common state -------------------------------------------------------------

    def _vs(self):
        ctx = self.ctx
        return self._cso("vs", None, lambda: ctx.create_vs_state(ShaderState(tokens=_VS)))

    def _fs(self, text: str):
        ctx = self.ctx
        return self._cso("fs", text, lambda: ctx.create_fs_state(ShaderState(tokens=text)))

    def _rast(self, multisample: bool):
        # No scissor test: the quad is clipped to the scissor instead (_rect).
        ctx = self.ctx
        return self._cso(
            "rasterizer",
            multisample,
            lambda: ctx.create_rasterizer_state(
                RasterizerState(multisample=multisample, depth_clip_near=False, depth_clip_far=False)
            ),
        )

    def _blend(self, colormask: int, alpha_blend: bool, logic_or: bool = False):
        ctx = self.ctx
        if logic_or:
            templ = BlendState(logicop_enable=True, logicop_func=LogicOp.OR, rt=(RTBlendState(colormask=Mask.R),))
        else:
            templ = BlendState(rt=(_rt_blend(colormask, alpha_blend),))
        return self._cso("blend", (colormask, alpha_blend, logic_or), lambda: ctx.create_blend_state(templ))

    def _dsa(self, key):
        """The DSA CSOs: None (nothing), "depth" (write depth, ALWAYS),
        ("test", b) (pass where stencil bit b is set, write nothing),
        ("write", m) (stencil ALWAYS, REPLACE through write mask m), "zero"
        (stencil := 0)."""
        ctx = self.ctx

        def make():
            if key == "depth":
                return DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.ALWAYS)
            if key is None:
                return DepthStencilAlphaState()
            if key == "zero":
                face = StencilState(
                    enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.ZERO, valuemask=0xFF, writemask=0xFF
                )
            elif key[0] == "test":
                face = StencilState(enabled=True, func=Func.EQUAL, valuemask=1 << key[1], writemask=0)
            else:
                face = StencilState(
                    enabled=True, func=Func.ALWAYS, zpass_op=StencilOp.REPLACE, valuemask=0xFF, writemask=key[1]
                )
            return DepthStencilAlphaState(stencil=(face, face))

        return self._cso("depth_stencil_alpha", key, lambda: ctx.create_depth_stencil_alpha_state(make()))

    def _velems(self):
        ctx = self.ctx
        return self._cso(
            "vertex_elements",
            None,
            lambda: ctx.create_vertex_elements_state(
                [
                    VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                    VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                ]
            ),
        )

    def _bind_common(self) -> None:
        ctx = self.ctx
        ctx.bind_vs_state(self._vs())
        for stage in (ShaderType.TESS_CTRL, ShaderType.TESS_EVAL, ShaderType.GEOMETRY):
            if ctx.shader_part.shaders[stage] is not None:
                getattr(ctx, _BIND[stage])(None)
        ctx.bind_vertex_elements_state(self._velems())
        ctx.set_window_rectangles(False, [])
        ctx.bind_sampler_states(FS, 0, [self._cso("sampler", None, lambda: ctx.create_sampler_state(_nearest()))])

    def _viewport(self, width: int, height: int) -> None:
        self.ctx.set_viewport_states(
            0, [ViewportState(scale=(width / 2, height / 2, 0.5), translate=(width / 2, height / 2, 0.5))]
        )

    def _view(self, res, fmt, level: int):
        return self.ctx.create_sampler_view(
            res,
            SamplerViewTemplate(
                format=fmt,
                target=res.target,
                first_level=level,
                last_level=level,
                first_layer=0,
                last_layer=max(0, res.array_size - 1),
            ),
        )

    # -- the blit -----------------------------------------------------------------

    def blit(self, dst, src, mask: int, scissor, dst_sample: int, sample0_only: bool, alpha_blend: bool) -> None:
        """Draw ``src`` (a validated blit side) into ``dst`` layer by layer:
        colour or depth by one draw per layer (one per sample for an MSAA
        copy), stencil by the passes of ``_stencil``."""
        ctx = self.ctx
        saved = self._save()
        try:
            self._bind_common()
            if mask & ~int(Mask.S):
                depth = dst.desc.is_depth_or_stencil
                view = self._view(src.res, src.format, src.level)
                try:
                    ctx.set_sampler_views(FS, 0, [view])
                    ctx.bind_blend_state(self._blend(0 if depth else mask & 0xF, alpha_blend and not depth))
                    ctx.bind_depth_stencil_alpha_state(self._dsa("depth" if depth else None))
                    self._draw(
                        dst,
                        src,
                        src.res,
                        _kind(src.desc),
                        "depth" if depth else "color",
                        scissor,
                        dst_sample,
                        sample0_only,
                    )
                finally:
                    ctx.set_sampler_views(FS, 0, [saved["view"]])
                    ctx.sampler_view_destroy(view)
            if mask & Mask.S:
                self._stencil(dst, src, scissor, dst_sample, sample0_only)
        finally:
            self._restore(saved)

    def _passes(self, dst, src, dst_sample: int, sample0_only: bool) -> list:
        """(sample mask, CONST[0][0].z sample index) of each draw per layer.
        Multisampled -> multisampled (equal counts) is u_blitter's MSAA copy:
        sample i drawn with the mask 1 << i from source sample i (sample 0
        alone with ``sample0_only``; ``dst_sample`` keeps one of them);
        otherwise one draw with every sample, or sample ``dst_sample - 1``."""
        n = src.res.nr_samples
        if n > 1 and dst.res.nr_samples > 1:
            samples = [0] if sample0_only else list(range(n))
            if dst_sample:
                samples = [i for i in samples if i == dst_sample - 1]
            return [(1 << i, i) for i in samples]
        return [((1 << (dst_sample - 1)) if dst_sample else 0xFFFFFFFF, 0)]

    def _draw(self, dst, src, fetch_res, kind: str, output: str, scissor, dst_sample, sample0_only, bits=None) -> None:
        """The draws of one blit: the FS fetching ``fetch_res`` (bound at
        view 0) as ``kind`` and writing ``output``, over every layer of the
        destination box, for every sample pass; for "stencil_bit" ``bits``
        is a list of (DSA key, bit, force) passes per sample pass."""
        ctx = self.ctx
        msaa = fetch_res.nr_samples > 1
        copy = msaa and dst.res.nr_samples > 1
        mode = "index" if copy else ("zero" if sample0_only or kind != "f" or output != "color" else "mean")
        layered = fetch_res.target == Target.TEXTURE_2D_ARRAY
        samples = max(1, fetch_res.nr_samples)
        ctx.bind_fs_state(self._fs(_fs_text(msaa, layered, samples, kind, output, mode)))
        zs = output != "color"
        ctx.bind_rasterizer_state(self._rast(dst.res.nr_samples > 1))
        sb, db = src.box, dst.box
        width, height, _ = dst.res.level_extent(dst.level)
        self._viewport(width, height)
        rect = _rect(db, sb, scissor)
        if rect is None:
            return  # the scissor leaves no pixel of the box
        stencil_passes = bits if bits is not None else [(None, 0, 0)]
        for i in range(db.d):
            layer = sb.z + (i if sb.d > 0 else -1 - i)
            surf = ctx.create_surface(
                dst.res, SurfaceTemplate(format=dst.format, level=dst.level, first_layer=db.z + i, last_layer=db.z + i)
            )
            try:
                ctx.set_framebuffer_state(
                    FramebufferState(
                        width=width,
                        height=height,
                        samples=max(1, dst.res.nr_samples),
                        cbufs=() if zs else (surf,),
                        zsbuf=surf if zs else None,
                    )
                )
                ctx.set_vertex_buffers([VertexBuffer(buffer=_quad(rect, layer, width, height), stride=32)])
                for smask, index in self._passes(dst, src, dst_sample, sample0_only):
                    ctx.set_sample_mask(smask)
                    for dsa_key, bit, force in stencil_passes:
                        if dsa_key is not None:
                            ctx.bind_depth_stencil_alpha_state(self._dsa(dsa_key))
                        ctx.set_constant_buffer(FS, 0, _constant(sb.lw - 1, sb.lh - 1, index, bit, force))
                        self._internal_draw()
            finally:
                ctx.set_framebuffer_state(FramebufferState())
                ctx.surface_destroy(surf)

    # -- stencil ------------------------------------------------------------------

    def _stencil(self, dst, src, scissor, dst_sample: int, sample0_only: bool) -> None:
        """Stencil (u_blitter needs stencil export for it): the source's
        stencil is first gathered into an unsigned colour texture by
        ``_extract`` (stencil tests per bit; no host needs stencil
        texturing), then written with stencil export where the host has it
        (one draw: ARB_shader_stencil_export), else by the classic passes:
        the stencil zeroed, then per bit b a draw with write mask 1 << b and
        REPLACE by 0xFF that discards where bit b of the source is clear."""
        ctx = self.ctx
        tmp = self._extract(src)
        view = self._view(tmp, tmp.format, 0)
        try:
            ctx.set_sampler_views(FS, 0, [view])
            ctx.bind_blend_state(self._blend(0, False))
            ctx.set_stencil_ref(StencilRef(ref_value=(0xFF, 0xFF)))
            if self.stencil_export:
                ctx.bind_depth_stencil_alpha_state(self._dsa(("write", 0xFF)))
                self._draw(dst, src, tmp, "u", "stencil", scissor, dst_sample, sample0_only)
            else:
                bits = [("zero", 0, 1)] + [(("write", 1 << b), 1 << b, 0) for b in range(8)]
                self._draw(dst, src, tmp, "u", "stencil_bit", scissor, dst_sample, sample0_only, bits)
        finally:
            ctx.set_sampler_views(FS, 0, [None])
            ctx.sampler_view_destroy(view)
            ctx.screen.resource_destroy(tmp)

    @property
    def stencil_export(self) -> bool:
        """The host has ARB_shader_stencil_export (PIPE_CAP_SHADER_STENCIL_EXPORT)."""
        return bool(self.ctx.screen.get_param(Cap.SHADER_STENCIL_EXPORT))

    def _extract(self, src):
        """A level-sized R8_UINT texture (same target, layers and samples as
        the source) holding the stencil of ``src``'s level in every sample:
        cleared to 0, then per bit b a draw with the source as the depth /
        stencil buffer, the stencil test EQUAL (ref & 1 << b) == (s & 1 << b)
        and logic op OR writing 1 << b (stencil tests run per sample)."""
        ctx = self.ctx
        res = src.res
        lw, lh = src.box.lw, src.box.lh
        samples = max(1, res.nr_samples)
        tmp = ctx.screen.resource_create(
            ResourceTemplate(
                target=res.target,
                format=Format.R8_UINT,
                width0=lw,
                height0=lh,
                array_size=res.array_size,
                nr_samples=res.nr_samples,
                nr_storage_samples=res.nr_samples,
                bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
            )
        )
        ctx.bind_fs_state(self._fs(_FS_BIT))
        ctx.bind_rasterizer_state(self._rast(samples > 1))
        ctx.bind_blend_state(self._blend(Mask.R, False, logic_or=True))
        ctx.set_sample_mask(0xFFFFFFFF)
        self._viewport(lw, lh)
        full = (0, lw, 0, lh, 0, lw, 0, lh)
        ctx.set_vertex_buffers([VertexBuffer(buffer=_quad(full, 0, lw, lh), stride=32)])
        for layer in range(res.array_size):
            cbuf = ctx.create_surface(tmp, SurfaceTemplate(format=tmp.format, first_layer=layer, last_layer=layer))
            zsbuf = ctx.create_surface(
                res, SurfaceTemplate(format=src.format, level=src.level, first_layer=layer, last_layer=layer)
            )
            try:
                ctx.clear_render_target(cbuf, (0, 0, 0, 0), 0, 0, lw, lh, False)
                ctx.set_framebuffer_state(
                    FramebufferState(width=lw, height=lh, samples=samples, cbufs=(cbuf,), zsbuf=zsbuf)
                )
                for b in range(8):
                    ctx.bind_depth_stencil_alpha_state(self._dsa(("test", b)))
                    ctx.set_stencil_ref(StencilRef(ref_value=(1 << b, 1 << b)))
                    ctx.set_constant_buffer(FS, 0, _constant(0, 0, 0, 1 << b, 0))
                    self._internal_draw()
            finally:
                ctx.set_framebuffer_state(FramebufferState())
                ctx.surface_destroy(cbuf)
                ctx.surface_destroy(zsbuf)
        return tmp


def _rt_blend(colormask: int, alpha_blend: bool) -> RTBlendState:
    mask = Mask(colormask)
    if not alpha_blend:
        return RTBlendState(colormask=mask)
    return RTBlendState(
        blend_enable=True,
        rgb_src_factor=BlendFactor.SRC_ALPHA,
        rgb_dst_factor=BlendFactor.INV_SRC_ALPHA,
        alpha_src_factor=BlendFactor.SRC_ALPHA,
        alpha_dst_factor=BlendFactor.INV_SRC_ALPHA,
        colormask=mask,
    )


def _nearest():

    return SamplerState(
        wrap_s=TexWrap.CLAMP_TO_EDGE,
        wrap_t=TexWrap.CLAMP_TO_EDGE,
        wrap_r=TexWrap.CLAMP_TO_EDGE,
        min_img_filter=TexFilter.NEAREST,
        mag_img_filter=TexFilter.NEAREST,
        min_mip_filter=TexMipFilter.NONE,
    )


def _constant(max_x: int, max_y: int, sample: int, bit: int, force: int):
    """CONST[0][0] = (level width - 1, height - 1, sample index, stencil
    bit), CONST[0][1].x = force (keep every fragment), as integers."""
    data = np.array([max_x, max_y, sample, bit, force, 0, 0, 0], np.int32)
    return ConstantBuffer(user_buffer=data.tobytes(), buffer_size=32)


def _rect(db, sb, scissor):
    """(x0, x1, y0, y1, u0, u1, v0, v1): the destination box clipped to the
    scissor, with the source positions its edges map to (the box's linear
    map), or None when nothing is left.  The blitter clips its quad rather
    than enable the scissor test: whole pixels are drawn either way (every
    sample position lies inside its pixel), and llvmpipe's scissor test on a
    multisampled framebuffer lets samples of the pixel column and row just
    before the scissor's minimum through (docs/blits.md)."""
    x0, x1, y0, y1 = db.x, db.x + db.w, db.y, db.y + db.h
    if scissor is not None:
        x0, y0 = max(x0, scissor[0]), max(y0, scissor[1])
        x1, y1 = min(x1, scissor[2]), min(y1, scissor[3])
        if x0 >= x1 or y0 >= y1:
            return None

    def u(x: int) -> float:
        return sb.x + (x - db.x) * sb.w / db.w

    def v(y: int) -> float:
        return sb.y + (y - db.y) * sb.h / db.h

    return (x0, x1, y0, y1, u(x0), u(x1), v(y0), v(y1))


def _quad(rect, layer: int, width: int, height: int) -> np.ndarray:
    """Two triangles over ``rect`` (see _rect) in NDC, each vertex carrying
    the source position its corner maps to (x, y, layer)."""
    x0, x1, y0, y1, u0, u1, v0, v1 = rect
    corners = [
        (x0, y0, u0, v0),
        (x1, y0, u1, v0),
        (x0, y1, u0, v1),
        (x1, y0, u1, v0),
        (x1, y1, u1, v1),
        (x0, y1, u0, v1),
    ]
    out = np.zeros((6, 8), np.float32)
    for i, (x, y, u, v) in enumerate(corners):
        out[i] = (2 * x / width - 1, 2 * y / height - 1, 0.0, 1.0, u, v, layer, 0.0)
    return out


__all__ = ["ShaderBlitter"]
