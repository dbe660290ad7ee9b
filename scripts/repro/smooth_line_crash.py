"""The native smooth-line SIGSEGV of llvmpipe 22.3.6, in raw ModernGL (no glpipe).

Run from anywhere (it imports only moderngl, numpy and PyOpenGL):

    python scripts/repro/smooth_line_crash.py                      # dies: exit 139 (SIGSEGV)
    python scripts/repro/smooth_line_crash.py --no-smooth          # the same draws, lines aliased: lives
    python scripts/repro/smooth_line_crash.py --quals ","          # only smooth varyings: lives

What it does, in one GL context: draws ``--programs`` programs, each with its
own random set of 1-12 varyings and interpolation qualifiers (smooth, flat,
noperspective, centroid, sample; every fourth-or-so FS with a discard), into a
4x or a single-sample target; then one program whose FS reads
``interpolateAtCentroid`` of a varying; then one line with GL_LINE_SMOOTH
enabled, which llvmpipe draws through the draw module's antialiased-line
stage.  With seed 2 and 200 programs the line draw dies inside swrast_dri.so
(compiled C code, not the JIT), as the glpipe test run did
(scripts/repro/twoside_crash.md).  See docs/robustness.md "Open findings" for
what each ingredient does; the script's options switch them off one by one.

Measured on this machine (stop 25), exit 139 per configuration
``--programs P --rounds R --seed S`` for (200 1 2) (180 1 2) (150 2 2)
(150 4 2) (200 1 3) (200 1 4) (250 1 5) (120 3 6):

    as given                          139 139 139 139 0 0 0 0
    --no-smooth                       0 of 8
    --quals ","   (smooth only)       0 of 8
    --quals ",flat ,noperspective "   0 0 0 139 0 0 0 139
    --no-interpolate-at               0 0 0 139 0 0 0 0

Why it is a host bug and not glpipe's: every call here is valid GL 4.5 core,
no GL error is raised, and the same draws with the lines aliased, or without
the variety of interpolation qualifiers, live.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

os.environ.setdefault("GALLIVM_PERF", "nopt")  # what glpipe sets on llvmpipe (docs/host.md)

import moderngl
import numpy as np
from OpenGL import GL

TRIANGLE = np.array([[-0.9, -0.9, 0, 1, 1, 0, 0, 1], [0.9, -0.9, 0, 1, 0, 1, 0, 1], [0, 0.9, 0, 1, 0, 0, 1, 1]], "f4")
LINE = np.array([[-0.8, -0.5, 0, 1, 1, 1, 1, 1], [0.7, 0.6, 0, 1, 1, 1, 1, 1]], "f4")

IAT_VS = """#version 450 core
layout(location = 0) in vec4 p; layout(location = 1) in vec4 c;
out vec4 col; out vec4 bcol;
void main() { gl_Position = p; col = c; bcol = col; }"""
IAT_FS = """#version 450 core
in vec4 col; in vec4 bcol;
layout(location = 0) out vec4 o;
void main() { o = %s; }"""
LINE_VS = """#version 450 core
layout(location = 0) in vec4 p; layout(location = 1) in vec4 c;
out glp_generic_0_block { flat vec4 g; };
void main() { gl_Position = p; g = c; }"""
LINE_FS = """#version 450 core
in glp_generic_0_block { flat vec4 g; };
layout(location = 0) out vec4 o;
void main() { o = g; }"""


def random_program(ctx, rng: random.Random, quals: list[str]):
    """A VS / FS pair passing 1-12 varyings with random qualifiers."""
    n = rng.randint(1, 12)
    qs = [rng.choice(quals) for _ in range(n)]
    vs = "#version 450 core\nin vec4 p; in vec4 c;\n" + "".join(f"{q}out vec4 v{i};\n" for i, q in enumerate(qs))
    vs += "void main() { gl_Position = p;" + "".join(f" v{i} = c * {i + 1}.0;" for i in range(n)) + " }"
    fs = "#version 450 core\n" + "".join(f"{q}in vec4 v{i};\n" for i, q in enumerate(qs))
    fs += "out vec4 o;\nvoid main() { o = vec4(0.0)" + "".join(f" + v{i}" for i in range(n)) + ";"
    if rng.random() < 0.3:
        fs += " if (o.x > 100.0) discard;"
    return ctx.program(vertex_shader=vs, fragment_shader=fs + " }")


def draw(ctx, program, buffer, framebuffer, mode) -> None:
    framebuffer.use()
    names = [n for n in ("p", "c") if n in program]
    fmt = "4f 4f" if len(names) == 2 else ("4f 16x" if names == ["p"] else "16x 4f")
    vao = ctx.vertex_array(program, [(buffer, fmt, *names)])
    vao.render(mode)
    vao.release()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--quals", default=",flat ,noperspective ,centroid ,sample ", help="comma-separated")
    parser.add_argument("--no-smooth", action="store_true", help="draw the line without GL_LINE_SMOOTH")
    parser.add_argument("--no-interpolate-at", action="store_true", help="the FS reads the varying itself")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    quals = args.quals.split(",")
    ctx = moderngl.create_context(standalone=True, backend="egl", require=450)
    tri, line = ctx.buffer(TRIANGLE.tobytes()), ctx.buffer(LINE.tobytes())
    fbo_ms = ctx.framebuffer([ctx.texture((16, 16), 4, dtype="f4", samples=4)])
    fbo = ctx.framebuffer([ctx.texture((16, 16), 4, dtype="f4")])
    iat = ctx.program(
        vertex_shader=IAT_VS,
        fragment_shader=IAT_FS % ("col" if args.no_interpolate_at else "interpolateAtCentroid(col)"),
    )
    line_program = ctx.program(vertex_shader=LINE_VS, fragment_shader=LINE_FS)
    alive = []  # programs stay alive, as in a long-running application
    for r in range(args.rounds):
        for _ in range(args.programs):
            program = random_program(ctx, rng, quals)
            draw(ctx, program, tri, fbo_ms if rng.random() < 0.5 else fbo, moderngl.TRIANGLES)
            alive.append(program)
        draw(ctx, iat, tri, fbo_ms, moderngl.TRIANGLES)
        print(f"round {r}: the smooth line draw", flush=True)
        if not args.no_smooth:
            GL.glEnable(GL.GL_LINE_SMOOTH)
        ctx.enable(moderngl.BLEND)
        draw(ctx, line_program, line, fbo, moderngl.LINES)
        GL.glDisable(GL.GL_LINE_SMOOTH)
        ctx.disable(moderngl.BLEND)
        ctx.finish()
    print("lived", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
