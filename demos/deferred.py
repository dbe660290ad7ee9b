"""Deferred shading: a geometry pass writes a G-buffer into three render
targets at once (albedo, world-space normal, world-space position), then a
lighting pass reads it in one full-screen triangle and sums four moving
point lights per pixel.

    python -m demos deferred [--frames N --out deferred.png] [--window]

The lighting of a covered pixel (position.w = 1; the clear leaves 0), with
N its normal, P its position, for each light at Lp with colour Lc:

    colour = albedo * (AMBIENT + sum_i Lc_i * max(dot(N, L_i), 0) / (1 + ATTENUATION * d_i^2))

where d_i = |Lp_i - P| and L_i = (Lp_i - P) / d_i; an uncovered pixel
shows CLEAR.  tests/test_demos_issue17.py recomputes this from the G-buffer.

In Gallium terms: a framebuffer of three colour surfaces (R8G8B8A8_UNORM,
R32G32B32A32_FLOAT twice) plus Z24S8, a fragment shader declaring COLOR[0],
COLOR[1] and COLOR[2] outputs; ``clear`` of all buffers; then the display
target as the only colour buffer, three sampler views of the G-buffer with a
NEAREST sampler, and a fragment shader doing the sum (the lights in
CONST[0..7]).
"""

from __future__ import annotations

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    Box,
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
    TexFilter,
    TexMipFilter,
    TexWrap,
    VertexBuffer,
    VertexElement,
)

from . import frames
from .camera import perspective, rotation, rows, translation
from .cube import cube_vertices
from .scene import SceneBase

NAME = "deferred"
DESCRIPTION = "deferred shading: G-buffer in three render targets, then four point lights in one lighting pass"
HOST_FEATURES: tuple[str, ...] = ()  # MRT and float render targets are GL 3.0

CLEAR = (0.03, 0.03, 0.05, 1.0)
AMBIENT = 0.12
ATTENUATION = 0.25
GROUND_Y = -1.0
GBUFFER = (Format.R8G8B8A8_UNORM, Format.R32G32B32A32_FLOAT, Format.R32G32B32A32_FLOAT)  # albedo, normal, position
# The cubes: (x, z, half-size, albedo); each sits on the ground.
CUBES = (
    (-1.7, 0.2, 0.55, (0.9, 0.35, 0.3)),
    (0.1, -1.1, 0.7, (0.35, 0.8, 0.75)),
    (1.8, 0.6, 0.45, (0.95, 0.85, 0.35)),
)
GROUND_ALBEDO = (0.75, 0.75, 0.72)
LIGHT_COLOURS = ((1.6, 0.5, 0.4), (0.4, 1.5, 0.5), (0.45, 0.6, 1.7), (1.4, 1.2, 0.6))

# Geometry pass.  IN[0] position, IN[1] normal; CONST[0..3] clip matrix,
# CONST[4..7] model matrix, CONST[8] albedo.
GEOMETRY_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
DCL OUT[3], GENERIC[2]
DCL CONST[0..8]
  0: DP4 OUT[0].x, CONST[0], IN[0]
  1: DP4 OUT[0].y, CONST[1], IN[0]
  2: DP4 OUT[0].z, CONST[2], IN[0]
  3: DP4 OUT[0].w, CONST[3], IN[0]
  4: DP4 OUT[1].x, CONST[4], IN[0]
  5: DP4 OUT[1].y, CONST[5], IN[0]
  6: DP4 OUT[1].z, CONST[6], IN[0]
  7: DP4 OUT[1].w, CONST[7], IN[0]
  8: DP3 OUT[2].x, CONST[4], IN[1]
  9: DP3 OUT[2].y, CONST[5], IN[1]
 10: DP3 OUT[2].z, CONST[6], IN[1]
 11: MOV OUT[2].w, IN[1].wwww
 12: MOV OUT[3], CONST[8]
 13: END
"""

GEOMETRY_FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL IN[2], GENERIC[2], CONSTANT
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL TEMP[0]
IMM[0] FLT32 {0.0, 1.0, 0.0, 0.0}
  0: MOV OUT[0], IN[2]
  1: DP3 TEMP[0].x, IN[1], IN[1]
  2: RSQ TEMP[0].x, TEMP[0].xxxx
  3: MUL OUT[1].xyz, IN[1], TEMP[0].xxxx
  4: MOV OUT[1].w, IMM[0].xxxx
  5: MOV OUT[2].xyz, IN[0]
  6: MOV OUT[2].w, IMM[0].yyyy
  7: END
"""

# Lighting pass: a full-screen triangle with texture coordinates.
LIGHT_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""


def _light_fs() -> str:
    """The lighting FS: the module docstring's sum, unrolled over the four
    lights (CONST[2i] position, CONST[2i + 1] colour; CONST[8] = CLEAR)."""
    head = f"""FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SAMP[2]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], 2D, FLOAT
DCL CONST[0..8]
DCL TEMP[0..5]
IMM[0] FLT32 {{0.0, {ATTENUATION!r}, 1.0, {AMBIENT!r}}}
  TEX TEMP[0], IN[0], SAMP[0], 2D
  TEX TEMP[1], IN[0], SAMP[1], 2D
  TEX TEMP[2], IN[0], SAMP[2], 2D
  MOV TEMP[5].xyz, IMM[0].wwww
"""
    body = ""
    for i in range(4):
        body += f"""  ADD TEMP[3].xyz, CONST[{2 * i}], -TEMP[2]
  DP3 TEMP[4].x, TEMP[3], TEMP[3]
  RSQ TEMP[4].y, TEMP[4].xxxx
  DP3 TEMP[4].z, TEMP[1], TEMP[3]
  MUL TEMP[4].z, TEMP[4].zzzz, TEMP[4].yyyy
  MAX TEMP[4].z, TEMP[4].zzzz, IMM[0].xxxx
  MAD TEMP[4].x, TEMP[4].xxxx, IMM[0].yyyy, IMM[0].zzzz
  RCP TEMP[4].x, TEMP[4].xxxx
  MUL TEMP[4].z, TEMP[4].zzzz, TEMP[4].xxxx
  MAD TEMP[5].xyz, CONST[{2 * i + 1}], TEMP[4].zzzz, TEMP[5]
"""
    tail = """  MUL TEMP[5].xyz, TEMP[5], TEMP[0]
  MOV TEMP[5].w, IMM[0].zzzz
  LRP OUT[0], TEMP[2].wwww, TEMP[5], CONST[8]
  END
"""
    return head + body + tail


LIGHT_FS = _light_fs()


def lights(t: float) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """The four point lights at ``t``: (position, colour), circling the
    scene at different radii, heights and speeds."""
    out = []
    for i, colour in enumerate(LIGHT_COLOURS):
        a = 0.7 * t * (1 + 0.3 * i) + i * np.pi / 2
        r = 2.0 + 0.5 * (i % 2)
        out.append(((r * float(np.cos(a)), -0.3 + 0.35 * i, r * float(np.sin(a))), colour))
    return out


def lit_cube() -> np.ndarray:
    """36 vertices of the unit cube: position (x, y, z, 1), face normal (nx, ny, nz, 0)."""
    cube = cube_vertices()
    faces = [(0, 1), (0, -1), (1, 1), (1, -1), (2, 1), (2, -1)]  # cube_vertices' face order, 6 vertices each
    normals = np.zeros((36, 4), np.float32)
    for f, (axis, sign) in enumerate(faces):
        normals[6 * f : 6 * f + 6, axis] = sign
    return np.hstack([cube[:, :4], normals])


def ground() -> np.ndarray:
    """Two triangles of the ground at y = GROUND_Y, normal +y."""
    g = 5.0
    return np.array(
        [[x, GROUND_Y, z, 1.0, 0, 1, 0, 0] for x, z in ((-g, -g), (g, -g), (g, g), (-g, -g), (g, g), (-g, g))],
        np.float32,
    )


class Scene(SceneBase):
    """The G-buffer, geometry and lights on ``ctx``; ``draw(t)`` renders the frame at t seconds."""

    CONSTANT_STAGES = (ShaderType.VERTEX, ShaderType.FRAGMENT)
    FRAGMENT_SAMPLERS = 3

    def __init__(self, screen, ctx, width: int, height: int):
        super().__init__(screen, ctx)
        self.width, self.height = width, height
        self.camera = perspective(45.0, width / height, 0.5, 40.0) @ translation(0, -0.3, -8.5) @ rotation(0, 0.55)
        self.target = self.keep(frames.DisplayTarget(screen, ctx, width, height))
        self.gbuffer = [
            self.make(
                "resource",
                ResourceTemplate(
                    target=Target.TEXTURE_2D,
                    format=fmt,
                    width0=width,
                    height0=height,
                    bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW,
                ),
            )
            for fmt in GBUFFER
        ]
        self.surfaces = [
            self.make("surface", r, SurfaceTemplate(format=f)) for r, f in zip(self.gbuffer, GBUFFER, strict=True)
        ]
        self.views = [
            self.make("sampler_view", r, SamplerViewTemplate(format=f, target=Target.TEXTURE_2D))
            for r, f in zip(self.gbuffer, GBUFFER, strict=True)
        ]
        self.sampler = self.make(
            "sampler",
            SamplerState(
                wrap_s=TexWrap.CLAMP_TO_EDGE,
                wrap_t=TexWrap.CLAMP_TO_EDGE,
                wrap_r=TexWrap.CLAMP_TO_EDGE,
                min_img_filter=TexFilter.NEAREST,
                mag_img_filter=TexFilter.NEAREST,
                min_mip_filter=TexMipFilter.NONE,
            ),
        )
        self.blend = self.make("blend", BlendState())
        self.dsa = self.make(
            "depth_stencil_alpha",
            DepthStencilAlphaState(depth_enabled=True, depth_writemask=True, depth_func=Func.LESS),
        )
        self.dsa_off = self.make("depth_stencil_alpha", DepthStencilAlphaState())
        self.rast = self.make("rasterizer", RasterizerState(half_pixel_center=True))
        self.geometry_vs = self.make("vs", ShaderState(tokens=GEOMETRY_VS))
        self.geometry_fs = self.make("fs", ShaderState(tokens=GEOMETRY_FS))
        self.light_vs = self.make("vs", ShaderState(tokens=LIGHT_VS))
        self.light_fs = self.make("fs", ShaderState(tokens=LIGHT_FS))
        self.velems = self.make(
            "vertex_elements",
            [
                VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
                VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
            ],
        )
        # Full-screen triangle: NDC (x, y) and texture coordinates (s, t) with
        # t = 0 at NDC y = +1, which the y-down viewport puts on row 0.
        tri = [[x, y, 0.0, 1.0, (x + 1) / 2, (1 - y) / 2, 0.0, 0.0] for x, y in ((-1, -1), (3, -1), (-1, 3))]
        verts = np.vstack([ground(), lit_cube(), np.array(tri, np.float32)]).astype(np.float32)
        self.vbuf = self.make(
            "resource",
            ResourceTemplate(
                target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER
            ),
        )
        ctx.buffer_subdata(self.vbuf, Map.WRITE, 0, verts)
        self.vb = VertexBuffer(buffer=self.vbuf, buffer_offset=0, stride=verts.strides[0])

    def _geometry(self, model: np.ndarray, albedo, start: int, count: int) -> None:
        c = rows(self.camera @ model, model, (*albedo, 1.0))
        self.ctx.set_constant_buffer(ShaderType.VERTEX, 0, ConstantBuffer(user_buffer=c, buffer_size=c.nbytes))
        self.ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=start, count=count))

    def draw(self, t: float) -> None:
        """The geometry pass into the G-buffer, then the lighting pass at ``t`` seconds."""
        ctx = self.ctx
        self.target.bind()  # the viewport; the framebuffer is replaced next
        ctx.set_framebuffer_state(
            FramebufferState(width=self.width, height=self.height, cbufs=tuple(self.surfaces), zsbuf=self.target.zsbuf)
        )
        ctx.bind_blend_state(self.blend)
        ctx.bind_depth_stencil_alpha_state(self.dsa)
        ctx.bind_rasterizer_state(self.rast)
        ctx.bind_vs_state(self.geometry_vs)
        ctx.bind_fs_state(self.geometry_fs)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.set_vertex_buffers([self.vb])
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, None, unbind_num_trailing_slots=3)
        ctx.clear(Clear.COLOR0 | Clear.COLOR1 | Clear.COLOR2 | Clear.DEPTH | Clear.STENCIL, None, (0, 0, 0, 0), 1.0, 0)
        self._geometry(np.eye(4), GROUND_ALBEDO, 0, 6)
        for i, (x, z, half, albedo) in enumerate(CUBES):
            model = (
                translation(x, GROUND_Y + half + 0.01, z)
                @ rotation(1, (0.6 + 0.25 * i) * t + i)
                @ np.diag([half, half, half, 1.0])
            )
            self._geometry(model, albedo, 6, 36)
        # Lighting: the display target only, no depth test, the G-buffer sampled.
        self.target.bind()
        ctx.bind_depth_stencil_alpha_state(self.dsa_off)
        ctx.bind_vs_state(self.light_vs)
        ctx.bind_fs_state(self.light_fs)
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, self.views)
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [self.sampler] * 3)
        consts = np.array([[*p, 0.0, *c, 0.0] for p, c in lights(t)], np.float32).reshape(-1, 4)
        consts = np.vstack([consts, np.array([CLEAR], np.float32)])
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=consts, buffer_size=consts.nbytes))
        self.target.clear(CLEAR)
        ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=42, count=3))

    def read_gbuffer(self) -> dict[str, np.ndarray]:
        """The G-buffer through transfer_map, row 0 = the top: ``albedo``
        (h, w, 4) uint8, ``normal`` and ``position`` (h, w, 4) float32."""
        out = {}
        box = Box(x=0, y=0, z=0, width=self.width, height=self.height, depth=1)
        for name, res, fmt in zip(("albedo", "normal", "position"), self.gbuffer, GBUFFER, strict=True):
            t = self.ctx.transfer_map(res, 0, Map.READ, box)
            try:
                raw = np.array(t.data[0], dtype=np.uint8).reshape(self.height, -1)
            finally:
                self.ctx.transfer_unmap(t)
            dtype = np.uint8 if fmt == Format.R8G8B8A8_UNORM else np.float32
            out[name] = raw.view(dtype).reshape(self.height, self.width, 4).copy()
        return out
