"""The shader rung of the blit ladder (docs/blits.md): a textured-quad
blitter written only against glpipe's own pipe_context methods, as Mesa's
u_blitter is written against Gallium's, for the multisampled blits no GL
call does exactly: resolves taking sample 0 (integers, depth,
``sample0_only``) or averaging while scaling, upsampling into a
multisampled destination, and ``dst_sample`` writes.

The blitter saves every piece of bound state it touches (``_STATE``),
binds its own, draws through ``_internal_draw`` -- the one place it draws
-- and binds the user's state back, so the user's bindings are as they
were and the next draw re-emits them.
"""

from __future__ import annotations

import numpy as np

from .enums import BlendFactor, Func, Mask, Prim, ShaderType, Target, TexFilter, TexMipFilter, TexWrap
from .formats import Format
from .templates import (
    BlendState,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    FramebufferState,
    RasterizerState,
    RTBlendState,
    SamplerState,
    SamplerViewTemplate,
    ScissorState,
    ShaderState,
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


def _fs_text(msaa: bool, layered: bool, samples: int, kind: str, depth: bool) -> str:
    """The blit FS: fetch texel floor(IN[0].xy) (clamped to the level, as
    CLAMP_TO_EDGE) of layer IN[0].z, sample 0 or the mean of ``samples``,
    and write it as the colour (or the depth)."""
    target = ("2D_ARRAY" if layered else "2D") + ("_MSAA" if msaa else "")
    ret = {"f": "FLOAT", "u": "UINT", "i": "SINT"}[kind]
    out = "DCL OUT[0], POSITION" if depth else "DCL OUT[0], COLOR"
    lines = [
        "FRAG",
        "DCL IN[0], GENERIC[0], LINEAR",
        out,
        "DCL SAMP[0]",
        f"DCL SVIEW[0], {target}, {ret}",
        "DCL CONST[0][0]",
        "DCL TEMP[0..3]",
        "IMM[0] INT32 {0, 0, 0, 0}",
        f"IMM[1] FLT32 {{{1.0 / max(samples, 1):.9g}, 0.0, 0.0, 0.0}}",
    ]
    code = [
        "FLR TEMP[0], IN[0]",
        "F2I TEMP[0], TEMP[0]",
        # CONST[0][0] holds the level's (width - 1, height - 1) as integers.
        "IMAX TEMP[0].xy, TEMP[0].xyyy, IMM[0].xxxx",
        "IMIN TEMP[0].xy, TEMP[0].xyyy, CONST[0][0].xyyy",
    ]
    if not layered:
        code.append("MOV TEMP[0].z, IMM[0].xxxx")
    n = samples if (msaa and kind == "f" and not depth and samples > 1) else 1
    code.append("MOV TEMP[0].w, IMM[0].xxxx")  # lod 0, or sample 0
    code.append(f"TXF TEMP[1], TEMP[0], SAMP[0], {target}")
    for k in range(1, n):
        lines.append(f"IMM[{k + 1}] INT32 {{{k}, 0, 0, 0}}")
        code.append(f"MOV TEMP[0].w, IMM[{k + 1}].xxxx")
        code.append(f"TXF TEMP[2], TEMP[0], SAMP[0], {target}")
        code.append("ADD TEMP[1], TEMP[1], TEMP[2]")
    if n > 1:
        code.append("MUL TEMP[1], TEMP[1], IMM[1].xxxx")
    code.append("MOV OUT[0].z, TEMP[1].xxxx" if depth else "MOV OUT[0], TEMP[1]")
    code.append("END")
    return "\n".join(lines + [f"  {i}: {c}" for i, c in enumerate(code)]) + "\n"


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
            "scissor": ctx.viewport_part.scissors[0],
            "rasterizer": ctx.rasterizer_part.rasterizer,
            "window_rectangles": ctx.rasterizer_part.window_rectangles,
            "blend": ctx.blend_part.blend,
            "sample_mask": ctx.blend_part.sample_mask,
            "dsa": ctx.dsa_part.depth_stencil_alpha,
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
        ctx.set_scissor_states(0, [saved["scissor"]])
        ctx.bind_rasterizer_state(saved["rasterizer"])
        ctx.set_window_rectangles(*saved["window_rectangles"])
        ctx.bind_blend_state(saved["blend"])
        ctx.set_sample_mask(saved["sample_mask"])
        ctx.bind_depth_stencil_alpha_state(saved["dsa"])
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

    # -- the blit -----------------------------------------------------------------

    def blit(self, dst, src, mask: int, scissor, dst_sample: int, sample0_only: bool, alpha_blend: bool) -> None:
        """Draw ``src`` (a validated blit side) into ``dst`` layer by layer."""
        ctx = self.ctx
        ddesc, sdesc = dst.desc, src.desc
        depth = ddesc.is_depth_or_stencil
        msaa = src.res.nr_samples > 1
        layered = src.res.target in (Target.TEXTURE_2D_ARRAY,)
        samples = 1 if sample0_only else max(1, src.res.nr_samples)
        fs_text = _fs_text(msaa, layered, samples, _kind(sdesc), depth)
        vs = self._cso("vs", None, lambda: ctx.create_vs_state(ShaderState(tokens=_VS)))
        fs = self._cso("fs", fs_text, lambda: ctx.create_fs_state(ShaderState(tokens=fs_text)))
        velems = self._cso(
            "vertex_elements",
            None,
            lambda: ctx.create_vertex_elements_state(
                [
                    VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                    VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                ]
            ),
        )
        multisample = dst.res.nr_samples > 1
        rast = self._cso(
            "rasterizer",
            (multisample, scissor is not None),
            lambda: ctx.create_rasterizer_state(
                RasterizerState(
                    multisample=multisample, scissor=scissor is not None, depth_clip_near=False, depth_clip_far=False
                )
            ),
        )
        colormask = mask & 0xF
        blend = self._cso(
            "blend",
            (colormask, alpha_blend),
            lambda: ctx.create_blend_state(BlendState(rt=(_rt_blend(colormask, alpha_blend),))),
        )
        dsa = self._cso(
            "depth_stencil_alpha",
            depth,
            lambda: ctx.create_depth_stencil_alpha_state(
                DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.ALWAYS)
                if depth
                else DepthStencilAlphaState()
            ),
        )
        sampler = self._cso("sampler", None, lambda: ctx.create_sampler_state(_nearest()))
        sb, db = src.box, dst.box
        width, height, _ = dst.res.level_extent(dst.level)
        limits = np.array([sb.lw - 1, sb.lh - 1, 0, 0], np.int32)
        view = ctx.create_sampler_view(
            src.res,
            SamplerViewTemplate(
                format=src.format,
                target=src.res.target,
                first_level=src.level,
                last_level=src.level,
                first_layer=0,
                last_layer=max(0, src.res.array_size - 1),
            ),
        )
        saved = self._save()
        try:
            ctx.bind_vs_state(vs)
            for stage in (ShaderType.TESS_CTRL, ShaderType.TESS_EVAL, ShaderType.GEOMETRY):
                if ctx.shader_part.shaders[stage] is not None:
                    getattr(ctx, _BIND[stage])(None)
            ctx.bind_fs_state(fs)
            ctx.bind_vertex_elements_state(velems)
            ctx.bind_rasterizer_state(rast)
            ctx.set_window_rectangles(False, [])
            ctx.bind_blend_state(blend)
            ctx.set_sample_mask((1 << (dst_sample - 1)) if dst_sample else 0xFFFFFFFF)
            ctx.bind_depth_stencil_alpha_state(dsa)
            ctx.bind_sampler_states(FS, 0, [sampler])
            ctx.set_sampler_views(FS, 0, [view])
            ctx.set_constant_buffer(FS, 0, _constant(limits))
            ctx.set_viewport_states(
                0, [ViewportState(scale=(width / 2, height / 2, 0.5), translate=(width / 2, height / 2, 0.5))]
            )
            if scissor is not None:
                ctx.set_scissor_states(
                    0, [ScissorState(minx=scissor[0], miny=scissor[1], maxx=scissor[2], maxy=scissor[3])]
                )
            for i in range(db.d):
                layer = sb.z + (i if sb.d > 0 else -1 - i)
                surf = ctx.create_surface(
                    dst.res,
                    SurfaceTemplate(format=dst.format, level=dst.level, first_layer=db.z + i, last_layer=db.z + i),
                )
                try:
                    fb = FramebufferState(
                        width=width,
                        height=height,
                        samples=max(1, dst.res.nr_samples),
                        cbufs=() if depth else (surf,),
                        zsbuf=surf if depth else None,
                    )
                    ctx.set_framebuffer_state(fb)
                    ctx.set_vertex_buffers([VertexBuffer(buffer=_quad(db, sb, layer, width, height), stride=32)])
                    self._internal_draw()
                finally:
                    ctx.set_framebuffer_state(saved["framebuffer"])
                    ctx.surface_destroy(surf)
        finally:
            self._restore(saved)
            ctx.sampler_view_destroy(view)


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


def _constant(limits: np.ndarray):
    data = np.zeros(4, np.int32)
    data[:] = limits
    return ConstantBuffer(user_buffer=data.tobytes(), buffer_size=16)


def _quad(db, sb, layer: int, width: int, height: int) -> np.ndarray:
    """Two triangles over the destination box (NDC), each vertex carrying
    the source position its corner maps to (x, y, layer)."""
    x0, x1 = db.x, db.x + db.w
    y0, y1 = db.y, db.y + db.h
    u0, u1 = sb.x, sb.x + sb.w
    v0, v1 = sb.y, sb.y + sb.h
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
