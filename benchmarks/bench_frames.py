"""Frame-level speed: frames per second of two demos on llvmpipe, glpipe
next to the same scene written directly in raw ModernGL.

    python benchmarks/bench_frames.py [--profile native|gl33|all] [--frames 300] [--size 256]
                                      [--reps 3] [--json | --markdown]

The per-draw benchmark (benchmarks/bench_draw.py) isolates the cost of one
draw call; this one measures whole frames of real demos (demos/), a
frontend's view:

* **gears** (demos/gears.py): per frame a clear of colour and depth, the
  scene's state bound, and per gear a constant buffer of 9 vec4 (matrices
  computed in numpy) plus one draw_vbo -- 3 draws, 3600 triangles, depth
  test, per-vertex lighting.
* **instanced** (demos/instanced.py): per frame a clear, a 16-byte constant
  buffer (the time) and one draw_vbo of 6 vertices x 10 000 instances.

The raw side is the same scene on its own standalone EGL context (the
arrangement of bench_draw.py: neither side disturbs the other's GL state):
the same vertex data, the same shader arithmetic in hand-written GLSL 330
(the demos' TGSI lowered by hand), the same formats (RGBA8 colour, Z24S8
depth for gears), the same clears and viewport.  Per frame the raw side does
what a ModernGL program does: write the uniforms (``prog[...].write``), then
``vao.render``.  ``scene_matches`` checks the claim: the last raw frame
equals glpipe's but for pixels on exact triangle edges (MAX_OFF_FRACTION),
so the two really draw one scene.

Method: each side draws ``frames`` frames at t = n / 60 s after one
warm-up frame (shader variants compiled, programs linked), ends with a
read-back of the frame (transfer_map / fbo.read: the GPU work is finished
inside the timing), best of ``reps``, glpipe and raw alternating, the
garbage collector off.  Frames per second = frames / seconds.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

import glpipe
from demos import frames, gears, instanced

GEARS_VS = """#version 330
uniform mat4 mvp;
uniform mat3 normal_matrix;
uniform vec3 light;
uniform vec4 colour;
in vec3 in_pos;
in vec3 in_normal;
out vec4 v_colour;
void main() {
    gl_Position = mvp * vec4(in_pos, 1.0);
    float d = max(dot(normal_matrix * in_normal, light), 0.0) * 0.8 + 0.2;
    v_colour = vec4(colour.rgb * d, 1.0);
}
"""

INSTANCED_VS = """#version 330
uniform float t;
in vec2 in_corner;
in vec4 in_inst;
in vec4 in_colour;
out vec4 v_colour;
void main() {
    float a = t + in_inst.z;
    vec2 cs = vec2(cos(a), sin(a));
    vec2 r = vec2(in_corner.x * cs.x - in_corner.y * cs.y, in_corner.x * cs.y + in_corner.y * cs.x);
    float y = sin(t * 2.0 + in_inst.z) * 0.004 + in_inst.y;
    gl_Position = vec4(r * in_inst.w + vec2(in_inst.x, y), 0.0, 1.0);
    v_colour = in_colour;
}
"""

PASS_FS = """#version 330
in vec4 v_colour;
out vec4 f_colour;
void main() { f_colour = v_colour; }
"""

DEMOS = ("gears", "instanced")
# "Same picture": at most this fraction of pixels off by more than 2 steps.
# glpipe draws with the window convention (y-down viewport) and the raw side
# with GL's (y-up, the read-back flipped); the fill rule's tie-breaking is
# not symmetric under the flip, so a pixel on an exact edge may go to the
# neighbouring triangle -- a handful of pixels, never a shifted scene.
MAX_OFF_FRACTION = 0.001


class RawGears:
    """demos/gears.py in raw ModernGL."""

    def __init__(self, mgl, size: int):
        self.mgl, self.size = mgl, size
        self.fbo = mgl.framebuffer(
            color_attachments=[mgl.texture((size, size), 4)],
            depth_attachment=mgl.depth_texture((size, size)),
        )
        self.prog = mgl.program(vertex_shader=GEARS_VS, fragment_shader=PASS_FS)
        meshes = [gears.gear(*shape) for shape, *_ in gears.GEARS]
        self.ranges, start = [], 0
        for m in meshes:
            self.ranges.append((start, len(m)))
            start += len(m)
        self.buf = mgl.buffer(np.vstack(meshes).tobytes())
        self.vao = mgl.vertex_array(self.prog, [(self.buf, "3f 3f", "in_pos", "in_normal")])
        self.prog["light"].value = tuple(gears.LIGHT)
        # The scene's matrices, computed the way demos/gears.py computes them.
        from demos.camera import frustum, rotation, translation

        self.projection = frustum(-1.0, 1.0, -1.0, 1.0, 5.0, 60.0)
        rx, ry, rz = (np.radians(a) for a in gears.VIEW_ROT)
        self.view = translation(0, 0, -40.0) @ rotation(0, rx) @ rotation(1, ry) @ rotation(2, rz)
        self._rotation, self._translation = rotation, translation

    def draw(self, t: float) -> None:
        mgl = self.mgl
        self.fbo.use()
        mgl.enable(mgl.DEPTH_TEST)
        mgl.depth_func = "<"
        self.fbo.clear(*gears.CLEAR, depth=1.0)
        for (_shape, colour, (x, y), (factor, offset)), (start, count) in zip(gears.GEARS, self.ranges, strict=True):
            model = self._translation(x, y, 0) @ self._rotation(2, np.radians(gears.gear_angle(t, factor, offset)))
            modelview = self.view @ model
            # GLSL matrices are column-major: write the transposes.
            self.prog["mvp"].write((self.projection @ modelview).T.astype("f4").tobytes())
            self.prog["normal_matrix"].write(modelview[:3, :3].T.astype("f4").tobytes())
            self.prog["colour"].value = tuple(colour)
            self.vao.render(mgl.TRIANGLES, vertices=count, first=start)

    def read(self) -> np.ndarray:
        """(size, size, 4) uint8, row 0 = the top (GL's row 0 is the bottom)."""
        data = np.frombuffer(self.fbo.read(components=4), np.uint8).reshape(self.size, self.size, 4)
        return data[::-1]

    def release(self) -> None:
        for obj in (self.vao, self.buf, self.prog, self.fbo):
            obj.release()


class RawInstanced:
    """demos/instanced.py in raw ModernGL."""

    def __init__(self, mgl, size: int):
        self.mgl, self.size = mgl, size
        self.fbo = mgl.framebuffer(color_attachments=[mgl.texture((size, size), 4)])
        self.prog = mgl.program(vertex_shader=INSTANCED_VS, fragment_shader=PASS_FS)
        inst, colour = instanced.instances()
        self.bufs = [mgl.buffer(a.tobytes()) for a in (instanced.diamond(), inst, colour)]
        self.vao = mgl.vertex_array(
            self.prog,
            [
                (self.bufs[0], "2f", "in_corner"),
                (self.bufs[1], "4f/i", "in_inst"),
                (self.bufs[2], "4f/i", "in_colour"),
            ],
        )
        self.count = instanced.GRID * instanced.GRID

    def draw(self, t: float) -> None:
        mgl = self.mgl
        self.fbo.use()
        mgl.disable(mgl.DEPTH_TEST)
        self.fbo.clear(*instanced.CLEAR)
        self.prog["t"].value = float(np.float32(t))
        self.vao.render(mgl.TRIANGLES, vertices=6, instances=self.count)

    def read(self) -> np.ndarray:
        data = np.frombuffer(self.fbo.read(components=4), np.uint8).reshape(self.size, self.size, 4)
        return data[::-1]

    def release(self) -> None:
        for obj in (self.vao, *self.bufs, self.prog, self.fbo):
            obj.release()


RAW = {"gears": RawGears, "instanced": RawInstanced}
MODULES = {"gears": gears, "instanced": instanced}


def _timed(draw, read, count: int) -> float:
    """Seconds for ``count`` frames plus the final read-back, GC off."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for n in range(count):
            draw(n * frames.FRAME_DT)
        read()
        return time.perf_counter() - start
    finally:
        gc.enable()


def run(profiles=("native",), count: int = 300, size: int = 256, reps: int = 3, demos=DEMOS) -> dict:
    """Measure every demo in ``demos`` on every profile: a dict of rows
    (profile, demo, glpipe_fps, raw_fps, ratio, scene_matches, max_diff, pixels_off)."""
    import moderngl

    rows = []
    for profile in profiles:
        screen = glpipe.create_screen(profile=profile)
        raw_ctx = moderngl.create_context(standalone=True, backend="egl")
        try:
            for name in demos:
                screen.host.mgl.__enter__()
                ctx = screen.context_create()
                scene = MODULES[name].Scene(screen, ctx, size, size)
                raw_ctx.__enter__()
                raw = RAW[name](raw_ctx, size)
                try:
                    best_g = best_r = float("inf")
                    for side in ("g", "r"):  # warm up: compile, link, first upload
                        if side == "g":
                            screen.host.mgl.__enter__()
                            scene.draw(0.0)
                            scene.target.read()
                        else:
                            raw_ctx.__enter__()
                            raw.draw(0.0)
                            raw.read()
                    for _ in range(reps):
                        screen.host.mgl.__enter__()
                        best_g = min(best_g, _timed(scene.draw, scene.target.read, count))
                        raw_ctx.__enter__()
                        best_r = min(best_r, _timed(raw.draw, raw.read, count))
                    t_last = (count - 1) * frames.FRAME_DT
                    screen.host.mgl.__enter__()
                    scene.draw(t_last)
                    mine = scene.target.read()
                    raw_ctx.__enter__()
                    raw.draw(t_last)
                    theirs = raw.read()
                    diff = np.abs(mine.astype(int) - theirs.astype(int)).max(axis=2)
                    rows.append(
                        {
                            "profile": profile,
                            "demo": name,
                            "frames": count,
                            "size": size,
                            "glpipe_fps": count / best_g,
                            "raw_fps": count / best_r,
                            "ratio": best_g / best_r,
                            "max_diff": int(diff.max()),
                            "pixels_off": int((diff > 2).sum()),
                            "scene_matches": bool((diff > 2).mean() <= MAX_OFF_FRACTION),
                        }
                    )
                finally:
                    raw_ctx.__enter__()
                    raw.release()
                    screen.host.mgl.__enter__()
                    scene.destroy()
                    ctx.destroy()
        finally:
            raw_ctx.release()
            screen.host.mgl.__enter__()
            screen.destroy()
    return {"python": platform.python_version(), "machine": platform.machine(), "rows": rows}


def format_markdown(results: dict) -> str:
    """The results as the table docs/performance.md shows."""
    out = [
        "| profile | demo | frames | size | glpipe fps | raw ModernGL fps | glpipe / raw time | same picture |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results["rows"]:
        out.append(
            f"| {r['profile']} | {r['demo']} | {r['frames']} | {r['size']} | {r['glpipe_fps']:.0f} | "
            f"{r['raw_fps']:.0f} | {r['ratio']:.2f}x | {'yes' if r['scene_matches'] else 'NO'} "
            f"({r['pixels_off']} px off by > 2) |"
        )
    return "\n".join(out)


def main(argv=None) -> dict:
    """Command line (module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", choices=("native", "gl33", "all"), default="native")
    p.add_argument("--frames", type=int, default=300)
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    if args.frames < 1 or args.reps < 1 or not 1 <= args.size <= 4096:
        raise SystemExit("--frames and --reps must be at least 1, --size 1..4096")
    profiles = ("native", "gl33") if args.profile == "all" else (args.profile,)
    results = run(profiles, args.frames, args.size, args.reps)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(format_markdown(results))
    return results


if __name__ == "__main__":
    main()
