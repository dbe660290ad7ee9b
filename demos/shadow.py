"""A shadow map: a spinning cube above a ground plane, lit from above.
Pass 1 renders depth from the light (orthographic) into a Z32_FLOAT texture;
pass 2 draws the scene from the camera and samples that texture with
comparison (SHADOW2D, compare_mode R_TO_TEXTURE, LEQUAL, LINEAR = 2x2 PCF).

    python -m demos shadow [--frames N --out shadow.png] [--window]
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    Clear,
    ConstantBuffer,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    FramebufferState,
    Func,
    Map,
    Prim,
    RasterizerState,
    ResourceTemplate,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    SurfaceTemplate,
    Target,
    TexCompare,
    TexFilter,
    TexMipFilter,
    TexWrap,
    VertexBuffer,
    VertexElement,
    ViewportState,
)

from . import frames
from .camera import BIAS, ortho, perspective, rotation, translation
from .cube import cube_vertices
from .scene import SceneBase

NAME = "shadow"
DESCRIPTION = "shadow map: depth from the light, sampled with comparison (SHADOW2D, PCF)"

SHADOW_SIZE = 512
CLEAR = (0.55, 0.7, 0.9, 1.0)

# CONST[0..3]: clip matrix; CONST[4..7]: shadow-map texture matrix (light
# clip space biased to 0..1, z included as the comparison reference).
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
DCL CONST[0..7]
  0: DP4 OUT[0].x, CONST[0], IN[0]
  1: DP4 OUT[0].y, CONST[1], IN[0]
  2: DP4 OUT[0].z, CONST[2], IN[0]
  3: DP4 OUT[0].w, CONST[3], IN[0]
  4: MOV OUT[1], IN[1]
  5: DP4 OUT[2].x, CONST[4], IN[0]
  6: DP4 OUT[2].y, CONST[5], IN[0]
  7: DP4 OUT[2].z, CONST[6], IN[0]
  8: DP4 OUT[2].w, CONST[7], IN[0]
  9: END
"""

# lit = shadow compare (1 lit, 0 shadowed); colour * (0.35 + 0.65 lit).
FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], SHADOW2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {0.35, 0.65, 1.0, 0.0}
  0: TEX TEMP[0].x, IN[1], SAMP[0], SHADOW2D
  1: MAD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].xxxx
  2: MUL OUT[0].xyz, IN[0], TEMP[0].xxxx
  3: MOV OUT[0].w, IMM[0].zzzz
  4: END
"""


def scene_vertices() -> tuple[np.ndarray, int]:
    """Ground quad (6 vertices, y = -1.5) then the unit cube (36): position
    (x, y, z, 1) and RGBA; returns (vertices, index of the cube's first)."""
    g = 4.0
    ground = [
        [x, -1.5, z, 1.0, 0.75, 0.78, 0.7, 1.0] for x, z in ((-g, -g), (g, -g), (g, g), (-g, -g), (g, g), (-g, g))
    ]
    cube = cube_vertices()
    shade = cube[:, 7:8]
    coloured = np.hstack([cube[:, :4], shade * np.array([[0.95, 0.45, 0.2]]), np.ones((len(cube), 1))])
    return np.vstack([np.array(ground, np.float32), coloured.astype(np.float32)]).astype(np.float32), 6


class Scene(SceneBase):
    """The shadowed scene's objects on ``ctx``; ``draw(t)`` renders the frame at t seconds."""

    CONSTANT_STAGES = (ShaderType.VERTEX,)
    FRAGMENT_SAMPLERS = 1

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.aspect = width / height
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height))
        self.shadow = self.make(
            "resource",
            ResourceTemplate(
                target=Target.TEXTURE_2D,
                format=Format.Z32_FLOAT,
                width0=SHADOW_SIZE,
                height0=SHADOW_SIZE,
                bind=Bind.DEPTH_STENCIL | Bind.SAMPLER_VIEW,
            ),
        )
        self.shadow_surf = self.make("surface", self.shadow, SurfaceTemplate(format=Format.Z32_FLOAT))
        self.view = self.make(
            "sampler_view", self.shadow, SamplerViewTemplate(format=Format.Z32_FLOAT, target=Target.TEXTURE_2D)
        )
        self.sampler = self.make(
            "sampler",
            SamplerState(
                wrap_s=TexWrap.CLAMP_TO_EDGE,
                wrap_t=TexWrap.CLAMP_TO_EDGE,
                wrap_r=TexWrap.CLAMP_TO_EDGE,
                min_img_filter=TexFilter.LINEAR,
                mag_img_filter=TexFilter.LINEAR,
                min_mip_filter=TexMipFilter.NONE,
                compare_mode=TexCompare.R_TO_TEXTURE,
                compare_func=Func.LEQUAL,
            ),
        )
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make(
            "depth_stencil_alpha",
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS),
        )
        # The depth pass pushes depths back a little (polygon offset) so lit
        # surfaces do not shadow themselves ("shadow acne").
        self.rast_depth = self.make(
            "rasterizer", RasterizerState(half_pixel_center=True, offset_tri=True, offset_units=2.0, offset_scale=2.0)
        )
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True))
        self.vs = self.make("vs", ShaderState(tokens=VS))
        self.fs = self.make("fs", ShaderState(tokens=FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        verts, self.cube_start = scene_vertices()
        self.count = len(verts)
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        self.stride = verts.strides[0]
        self.light_view = rotation(0, np.radians(70)) @ rotation(1, np.radians(30))
        self.light = translation(0, 0, -8.0) @ self.light_view

    def _draw(self, clip: np.ndarray, model: np.ndarray, tex: np.ndarray, start: int, count: int) -> None:
        consts = np.vstack([clip @ model, tex @ model]).astype(np.float32)
        self.ctx.set_constant_buffer(
            ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=consts, buffer_size=consts.nbytes)
        )
        self.ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=start, count=count))

    def draw(self, t: float) -> None:
        """Depth from the light, then the scene from the camera, at ``t`` seconds."""
        ctx = self.ctx
        cube_model = translation(0, 0.2, 0) @ rotation(1, -0.8 * t) @ rotation(0, 0.5)
        ground_model = np.eye(4)
        light_clip = ortho(4.5, 1.0, 16.0) @ self.light
        camera = perspective(45.0, self.aspect, 0.5, 30.0) @ translation(0, -0.3, -9.0) @ rotation(0, 0.45)
        shadow_tex = BIAS @ light_clip
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=self.stride)])
        # Pass 1: depth only, from the light (no colour buffer).
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, None, unbind_num_trailing_slots=1)
        ctx.set_framebuffer_state(
            FramebufferState(width=SHADOW_SIZE, height=SHADOW_SIZE, nr_cbufs=0, zsbuf=self.shadow_surf)
        )
        s = SHADOW_SIZE / 2
        ctx.set_viewport_states(0, [ViewportState(scale=(s, s, 0.5), translate=(s, s, 0.5))])
        ctx.bind_rasterizer_state(self.rast_depth)
        ctx.clear(Clear.DEPTH, None, (0, 0, 0, 0), 1.0, 0)
        self._draw(light_clip, ground_model, shadow_tex, 0, self.cube_start)
        self._draw(light_clip, cube_model, shadow_tex, self.cube_start, self.count - self.cube_start)
        # Pass 2: the camera, sampling the shadow map with comparison.
        self.target.bind()
        ctx.bind_rasterizer_state(self.rast)
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [self.view])
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [self.sampler])
        self.target.clear(CLEAR)
        self._draw(camera, ground_model, shadow_tex, 0, self.cube_start)
        self._draw(camera, cube_model, shadow_tex, self.cube_start, self.count - self.cube_start)
