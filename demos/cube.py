"""A spinning textured cube: depth-tested, a mipmapped checker texture
(levels made by ``generate_mipmap``) sampled trilinearly with 8x anisotropic
filtering, presented with ``flush_frontbuffer`` (demos/frames.py).

    python -m demos cube [--frames N --out cube.png] [--window]

In Gallium terms: a DISPLAY_TARGET colour buffer and a Z24S8 depth buffer,
a DSA CSO with depth test LESS, a vertex shader transforming by a 4x4
matrix in CONST[0..3] (``set_constant_buffer`` with a user buffer, updated
every frame), a fragment shader doing TEX * shade, a sampler view over all
levels and a sampler with LINEAR / LINEAR / LINEAR mip, max_anisotropy 8.
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    Box,
    CapF,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    Func,
    Map,
    Prim,
    RasterizerState,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    Target,
    TexFilter,
    TexMipFilter,
    TexWrap,
    VertexBuffer,
    VertexElement,
)

from . import frames
from .camera import perspective, rotation, translation
from .scene import SceneBase

NAME = "cube"
DESCRIPTION = (
    "spinning textured cube: depth test, generate_mipmap, trilinear + anisotropic filtering (as the cap grants)"
)

VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..3]
  0: DP4 OUT[0].x, CONST[0], IN[0]
  1: DP4 OUT[0].y, CONST[1], IN[0]
  2: DP4 OUT[0].z, CONST[2], IN[0]
  3: DP4 OUT[0].w, CONST[3], IN[0]
  4: MOV OUT[1], IN[1]
  5: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}
  0: TEX TEMP[0], IN[0], SAMP[0], 2D
  1: MUL OUT[0].xyz, TEMP[0], IN[0].wwww
  2: MOV OUT[0].w, IMM[0].xxxx
  3: END
"""

TEX_SIZE = 64
LEVELS = 7  # 64 .. 1
ANISOTROPY = 8  # asked for; the screen's MAX_TEXTURE_ANISOTROPY caps it
CLEAR = (0.08, 0.09, 0.12, 1.0)


def checker_texels() -> np.ndarray:
    """64 x 64 RGBA8: 8-texel checks of orange and cream, a blue border."""
    y, x = np.mgrid[0:TEX_SIZE, 0:TEX_SIZE]
    odd = ((x // 8) + (y // 8)) % 2 == 1
    img = np.empty((TEX_SIZE, TEX_SIZE, 4), np.uint8)
    img[:] = (245, 230, 200, 255)
    img[odd] = (230, 110, 30, 255)
    border = (x < 2) | (y < 2) | (x >= TEX_SIZE - 2) | (y >= TEX_SIZE - 2)
    img[border] = (40, 70, 200, 255)
    return img


def cube_vertices() -> np.ndarray:
    """36 vertices: position (x, y, z, 1) and (s, t, 0, shade) per face."""
    faces = [  # (normal axis, sign, shade): a fixed light from the upper front right
        (0, 1, 0.95),
        (0, -1, 0.55),
        (1, 1, 1.0),
        (1, -1, 0.45),
        (2, 1, 0.8),
        (2, -1, 0.6),
    ]
    out = []
    for axis, sign, shade in faces:
        u, v = [a for a in range(3) if a != axis]
        corners = []
        for s, t in ((0, 0), (1, 0), (1, 1), (0, 1)):
            p = [0.0, 0.0, 0.0]
            p[axis] = float(sign)
            p[u], p[v] = 2 * s - 1.0, 2 * t - 1.0
            corners.append([*p, 1.0, float(s), float(t), 0.0, shade])
        for i in (0, 1, 2, 0, 2, 3):
            out.append(corners[i])
    return np.array(out, np.float32)


class Scene(SceneBase):
    """The cube's objects on ``ctx``; ``draw(t)`` renders the frame at t seconds."""

    CONSTANT_STAGES = (ShaderType.VERTEX,)
    FRAGMENT_SAMPLERS = 1

    def __init__(self, screen, ctx, width: int, height: int, anisotropy: int = ANISOTROPY):
        super().__init__(screen, ctx)
        self.aspect = width / height
        # As a frontend does: ask for what the screen grants (gl33: 0, GL 3.3
        # core has no anisotropic filtering; docs/caps.md).
        self.anisotropy = int(min(anisotropy, screen.get_paramf(CapF.MAX_TEXTURE_ANISOTROPY)))
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height))
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make(
            "depth_stencil_alpha",
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS),
        )
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True))
        self.tex = self.make(
            "resource",
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=Format.R8G8B8A8_UNORM,
                width0=TEX_SIZE,
                height0=TEX_SIZE,
                last_level=LEVELS - 1,
                bind=Bind.SAMPLER_VIEW | Bind.RENDER_TARGET,
            ),
        )
        row = TEX_SIZE * 4
        box = Box(x=0, y=0, z=0, width=TEX_SIZE, height=TEX_SIZE, depth=1)
        ctx.texture_subdata(self.tex, 0, Map.WRITE, box, checker_texels(), row, row * TEX_SIZE)
        ctx.generate_mipmap(self.tex, Format.R8G8B8A8_UNORM, 0, LEVELS - 1, 0, 0)
        self.view = self.make(
            "sampler_view",
            self.tex,
            SamplerViewTemplate(
                format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D, first_level=0, last_level=LEVELS - 1
            ),
        )
        self.sampler = self.make(
            "sampler",
            SamplerState(
                wrap_s=TexWrap.REPEAT,
                wrap_t=TexWrap.REPEAT,
                wrap_r=TexWrap.REPEAT,
                min_img_filter=TexFilter.LINEAR,
                mag_img_filter=TexFilter.LINEAR,
                min_mip_filter=TexMipFilter.LINEAR,
                max_anisotropy=self.anisotropy,
                max_lod=float(LEVELS - 1),
            ),
        )
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        verts = cube_vertices()
        self.count = len(verts)
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        self.stride = verts.strides[0]

    def mvp(self, t: float) -> np.ndarray:
        """Projection x view x model at ``t`` seconds (float32, row-major rows
        = what CONST[0..3] hold for the DP4s)."""
        model = rotation(1, -(0.9 * t + 0.6)) @ rotation(0, 0.5 * t + 0.45)
        return (perspective(45.0, self.aspect, 0.5, 20.0) @ translation(0, 0, -5.0) @ model).astype(np.float32)

    def draw(self, t: float) -> None:
        """Bind the cube's state and draw the frame at ``t`` seconds."""
        ctx = self.ctx
        self.target.bind()
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=self.stride)])
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [self.view])
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [self.sampler])
        m = self.mvp(t)
        ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=m, buffer_size=m.nbytes))
        self.target.clear(CLEAR)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=self.count))
