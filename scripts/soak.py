"""Soak: create/destroy every object kind many times and draw with state
churn, reporting the process's RSS, to show memory stays flat.

    python scripts/soak.py [--profile native|gl33|all] [--cycles 100000] [--draws 1000000]
                           [--every N] [--json]

Two phases per profile, on one screen and one context:

1. ``cycles`` create/destroy cycles.  Each cycle makes one object of every
   kind -- a buffer and a texture resource, a surface, a sampler view, blend,
   depth/stencil/alpha, rasterizer, sampler and vertex-elements CSOs, a
   transfer (mapped, written, unmapped), a fence (flush), and in two cycles
   of ten a vertex and a fragment shader (they compile) -- uses it in a
   draw, and gets rid of it: odd cycles
   destroy everything explicitly, even cycles simply drop the references
   (the finalizers' path, glpipe/lifetime.py).  Every 1,000th cycle also
   makes and destroys a whole context.
2. ``draws`` draws with state churn: before each draw one or two state
   objects, picked at random (seeded) from small prebuilt pools, are bound
   (blend, DSA, rasterizer, FS, sampler, view, vertex buffer, framebuffer,
   constant colour), so draws alternate between the fast and general paths.

RSS is sampled every ``every`` cycles / draws (default: 20 samples per
phase).  The growth reported is from the first sample after warm-up (5% of
the phase) to the end, so allocator warm-up and shader compilation are not
counted.  docs/robustness.md "Object lifetimes and soak" records a run.
tests/test_leaks.py runs a bounded version (``run(..., cycles=300,
draws=3000)``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # soak this working tree, not an installed copy

import numpy as np  # noqa: E402

import glpipe  # noqa: E402
from glpipe import (  # noqa: E402
    Bind,
    Blend,
    BlendFactor,
    BlendState,
    Box,
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
    RTBlendState,
    SamplerState,
    SamplerViewTemplate,
    ShaderState,
    ShaderType,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    VertexElement,
    ViewportState,
)

SIZE = 16
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""
# The colour is the varying times CONST[0][0] times a texel: every kind of
# binding takes part in every draw.
FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL CONST[0][0]
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}
  0: TEX TEMP[0], IMM[0], SAMP[0], 2D
  1: MUL TEMP[0], TEMP[0], CONST[0][0]
  2: MUL OUT[0], TEMP[0], IN[0]
  3: END
"""
FS_VARIANT = FS.replace("MUL OUT[0], TEMP[0], IN[0]", "ADD OUT[0], TEMP[0], IN[0]")
ELEMENTS = [
    VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
]
TRI = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)
TEX_TEMPLATE = ResourceTemplate(
    target=Target.TEXTURE_2D,
    format=Format.R8G8B8A8_UNORM,
    width0=SIZE,
    height0=SIZE,
    bind=Bind.SAMPLER_VIEW | Bind.RENDER_TARGET,
)
VIEW_TEMPLATE = SamplerViewTemplate(format=Format.R8G8B8A8_UNORM, target=Target.TEXTURE_2D)


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _buffer(screen, data: np.ndarray, bind=Bind.VERTEX_BUFFER):
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=bind)
    )
    return res, data


def _triangle(color) -> np.ndarray:
    """A triangle covering the SIZE x SIZE target, in one colour."""
    pos = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
    return np.hstack([pos, np.broadcast_to(np.float32(color), (3, 4))]).astype(np.float32)


class Soak:
    """One context on ``screen`` with everything a draw needs bound."""

    def __init__(self, screen, seed: int = 1) -> None:
        self.screen = screen
        self.ctx = ctx = screen.context_create()
        self.rng = random.Random(seed)
        self.vs = ctx.create_vs_state(ShaderState(tokens=VS))
        self.fs = ctx.create_fs_state(ShaderState(tokens=FS))
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)
        ctx.set_viewport_states(
            0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))]
        )
        self.target = screen.resource_create(TEX_TEMPLATE)
        self.vb = self._upload(*_buffer(screen, _triangle((1, 0.5, 0.25, 1))))
        self.cb = self._upload(*_buffer(screen, np.ones(4, np.float32), Bind.CONSTANT_BUFFER))
        self.texture = screen.resource_create(TEX_TEMPLATE)
        self.bind_defaults()

    def _upload(self, res, data):
        self.ctx.buffer_subdata(res, Map.WRITE, 0, data.tobytes())
        return res

    def bind_defaults(self) -> None:
        """Bind the long-lived objects of the context (after a cycle replaced them)."""
        ctx = self.ctx
        self.surface = ctx.create_surface(self.target, SurfaceTemplate(format=Format.R8G8B8A8_UNORM))
        ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(self.surface,)))
        ctx.set_vertex_buffers([VertexBuffer(buffer=self.vb, stride=32)])
        ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=self.cb, buffer_size=16))
        self.view = ctx.create_sampler_view(self.texture, VIEW_TEMPLATE)
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [self.view])
        self.sampler = ctx.create_sampler_state(SamplerState())
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [self.sampler])
        self.velems = ctx.create_vertex_elements_state(ELEMENTS)
        ctx.bind_vertex_elements_state(self.velems)
        ctx.bind_vs_state(self.vs)
        ctx.bind_fs_state(self.fs)

    # -- phase 1 ---------------------------------------------------------------

    def cycle(self, i: int) -> None:
        """Make one object of every kind, draw with all of them, then destroy
        them (odd ``i``) or drop them (even ``i``)."""
        screen, ctx = self.screen, self.ctx
        explicit = i % 2 == 1
        vb = self._upload(*_buffer(screen, _triangle((0.25, 1, 0.5, 1))))
        tex = screen.resource_create(TEX_TEMPLATE)
        surf = ctx.create_surface(tex, SurfaceTemplate(format=Format.R8G8B8A8_UNORM))
        view = ctx.create_sampler_view(self.texture, VIEW_TEMPLATE)
        blend = ctx.create_blend_state(
            BlendState(rt=(RTBlendState(blend_enable=True, rgb_src_factor=BlendFactor.SRC_ALPHA, colormask=0xF),))
        )
        dsa = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState())
        rast = ctx.create_rasterizer_state(RasterizerState(cull_face=0, half_pixel_center=True))
        samp = ctx.create_sampler_state(SamplerState(min_lod=float(i % 3)))
        velems = ctx.create_vertex_elements_state(ELEMENTS)
        ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
        ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
        ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [view])
        ctx.bind_blend_state(blend)
        ctx.bind_depth_stencil_alpha_state(dsa)
        ctx.bind_rasterizer_state(rast)
        ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [samp])
        ctx.bind_vertex_elements_state(velems)
        shaders = None
        if i % 10 < 2:  # shaders compile: two cycles in ten make a pair (one destroyed, one dropped)
            shaders = (ctx.create_vs_state(ShaderState(tokens=VS)), ctx.create_fs_state(ShaderState(tokens=FS)))
            ctx.bind_vs_state(shaders[0])
            ctx.bind_fs_state(shaders[1])
        ctx.draw_vbo(TRI)
        transfer = ctx.transfer_map(vb, 0, Map.WRITE, Box(x=0, width=16))
        transfer.data[:] = 0
        ctx.transfer_unmap(transfer)
        fence = ctx.flush()
        screen.fence_finish(ctx, fence, 0)
        self.bind_defaults()  # everything made this cycle is unbound again
        if explicit:
            ctx.surface_destroy(surf)
            ctx.sampler_view_destroy(view)
            ctx.delete_blend_state(blend)
            ctx.delete_depth_stencil_alpha_state(dsa)
            ctx.delete_rasterizer_state(rast)
            ctx.delete_sampler_state(samp)
            ctx.delete_vertex_elements_state(velems)
            screen.resource_destroy(vb)
            screen.resource_destroy(tex)
        if shaders is not None and explicit:
            ctx.delete_vs_state(shaders[0])
            ctx.delete_fs_state(shaders[1])
        if i % 1000 == 999:
            other = screen.context_create()
            other.destroy()

    # -- phase 2 ---------------------------------------------------------------

    def churn_pools(self) -> dict:
        """Small pools of prebuilt state objects the churn phase binds from."""
        ctx, screen = self.ctx, self.screen
        blends = [
            ctx.create_blend_state(BlendState()),
            ctx.create_blend_state(
                BlendState(
                    rt=(
                        RTBlendState(
                            blend_enable=True,
                            rgb_func=Blend.ADD,
                            rgb_src_factor=BlendFactor.ONE,
                            rgb_dst_factor=BlendFactor.ONE,
                            colormask=0xF,
                        ),
                    )
                )
            ),
        ]
        dsas = [
            ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState()),
            ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState(alpha_enabled=True, alpha_func=Func.ALWAYS)),
        ]
        rasts = [ctx.create_rasterizer_state(RasterizerState(half_pixel_center=h)) for h in (True, False)]
        fss = [self.fs, ctx.create_fs_state(ShaderState(tokens=FS_VARIANT))]
        samplers = [self.sampler, ctx.create_sampler_state(SamplerState(min_lod=1.0))]
        textures = [self.texture, screen.resource_create(TEX_TEMPLATE)]
        views = [ctx.create_sampler_view(t, VIEW_TEMPLATE) for t in textures]
        vbs = [self.vb, self._upload(*_buffer(screen, _triangle((0, 1, 1, 1))))]
        targets = [self.target, screen.resource_create(TEX_TEMPLATE)]
        fbs = [
            FramebufferState(
                width=SIZE, height=SIZE, cbufs=(ctx.create_surface(t, SurfaceTemplate(format=Format.R8G8B8A8_UNORM)),)
            )
            for t in targets
        ]
        return {
            "blend": (ctx.bind_blend_state, blends),
            "dsa": (ctx.bind_depth_stencil_alpha_state, dsas),
            "rasterizer": (ctx.bind_rasterizer_state, rasts),
            "fs": (ctx.bind_fs_state, fss),
            "sampler": (lambda s: ctx.bind_sampler_states(ShaderType.FRAGMENT, 0, [s]), samplers),
            "view": (lambda v: ctx.set_sampler_views(ShaderType.FRAGMENT, 0, [v]), views),
            "vb": (lambda b: ctx.set_vertex_buffers([VertexBuffer(buffer=b, stride=32)]), vbs),
            "fb": (ctx.set_framebuffer_state, fbs),
            "color": (ctx.set_blend_color, [(0, 0, 0, 0), (1, 1, 1, 1)]),
        }

    def churn(self, pools: dict, n: int) -> None:
        """``n`` draws, each after binding one or two objects picked at random."""
        ctx, rng = self.ctx, self.rng
        kinds = list(pools.values())
        for _ in range(n):
            for _k in range(rng.randint(0, 2)):
                bind, pool = kinds[rng.randrange(len(kinds))]
                bind(pool[rng.randrange(len(pool))])
            ctx.draw_vbo(TRI)


def _phase(name: str, total: int, every: int, step, screen, ctx, out) -> dict:
    """Run ``step(i, k)`` (k units from i) to ``total`` units, sampling RSS."""
    warm = max(1, total // 20)
    samples = []
    t0 = time.perf_counter()
    done = 0
    base = None
    while done < total:
        k = min(every, total - done)
        step(done, k)
        done += k
        gc.collect()
        ctx.flush()  # drains the releases queued by finalizers
        rss = rss_bytes()
        if base is None and done >= warm:
            base = rss
        sample = {
            "done": done,
            "rss_mib": round(rss / 2**20, 2),
            "live_resources": screen.live_resources,
            "live_context_objects": len(ctx._objects),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        samples.append(sample)
        if out is not None:
            print(
                f"  {name} {done:>9}: RSS {sample['rss_mib']:8.1f} MiB, live resources "
                f"{sample['live_resources']}, live context objects {sample['live_context_objects']}, "
                f"{sample['seconds']} s",
                file=out,
                flush=True,
            )
    end = rss_bytes()
    base = end if base is None else base
    return {
        "phase": name,
        "units": total,
        "seconds": round(time.perf_counter() - t0, 1),
        "rss_start_mib": round(base / 2**20, 2),
        "rss_end_mib": round(end / 2**20, 2),
        "growth_mib": round((end - base) / 2**20, 2),
        "samples": samples,
    }


def run(profile: str = "native", cycles: int = 100_000, draws: int = 1_000_000, every: int | None = None, out=None):
    """Soak one host profile; returns {"profile", "phases": [cycles, draws]}."""
    screen = glpipe.create_screen(profile=profile)
    try:
        soak = Soak(screen)
        ctx = soak.ctx

        def cycles_step(start: int, k: int) -> None:
            for i in range(start, start + k):
                soak.cycle(i)

        pools = soak.churn_pools()
        phases = [
            _phase("cycles", cycles, every or max(1, cycles // 20), cycles_step, screen, ctx, out),
            _phase("draws", draws, every or max(1, draws // 20), lambda _s, k: soak.churn(pools, k), screen, ctx, out),
        ]
        ctx.destroy()
        return {"profile": profile, "phases": phases}
    finally:
        screen.destroy()


def main(argv=None) -> int:
    """Command line: run the soak, print the samples and the growth per phase."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=("native", "gl33", "all"), default="native")
    parser.add_argument("--cycles", type=int, default=100_000, help="create/destroy cycles (default 100000)")
    parser.add_argument("--draws", type=int, default=1_000_000, help="draws with state churn (default 1000000)")
    parser.add_argument("--every", type=int, default=None, help="sample RSS every N units (default: 20 samples)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    profiles = ("native", "gl33") if args.profile == "all" else (args.profile,)
    results = []
    for prof in profiles:
        if not args.json:
            print(f"profile {prof}:", flush=True)
        results.append(run(prof, args.cycles, args.draws, args.every, out=None if args.json else sys.stdout))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for r in results:
            for ph in r["phases"]:
                print(
                    f"{r['profile']} {ph['phase']}: {ph['units']} in {ph['seconds']} s; RSS "
                    f"{ph['rss_start_mib']} -> {ph['rss_end_mib']} MiB after warm-up (growth {ph['growth_mib']} MiB)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
