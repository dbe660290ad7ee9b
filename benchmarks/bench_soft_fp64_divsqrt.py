"""Cost of the soft fp64 fma / division / square root helpers next to native doubles.

    python benchmarks/bench_soft_fp64_divsqrt.py [--size 1024] [--reps 5] [--markdown]

For each of glp_dfma, glp_ddiv, glp_dsqrt and glp_drsq
(lowering/glsl/soft_fp64_divsqrt.py): one full-screen draw of ``size x
size`` fragments on a standalone llvmpipe context, each fragment fetching its
operands (random finite doubles) from RGBA32UI textures and writing the
result words to an RGBA32UI target -- once with the soft helper at GLSL 330
(what the gl33 profile runs) and once with GLSL 450's native double
operation (``fma``, ``/``, ``sqrt``, ``inversesqrt``), and a copy shader
(fetch and write only) for scale.  Times (whole draws, fetch and write
included) are the
best of ``reps`` draws ended by glFinish, after a warm-up draw (the shader
is compiled then), reported per million fragments.  The host's shader
threads run in parallel, so these are wall-clock times of the whole device,
not of one core.

``GLSL ops`` counts the operators one call executes when every branch is
taken (``op_count``: callees inlined, loops unrolled by their trip counts --
54 steps for division and square root, 54 x (2 division steps + 1 root
step) for 1/sqrt): an upper bound on the scalar work, and what a SIMD
machine pays when the lanes of a group diverge.  (The host Mesa prints no
NIR in release builds, so the count is taken from the GLSL.)

docs/lowering.md ("Soft fp64: fma, division, square root") quotes a run.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lowering.glsl.soft_fp64_divsqrt import glsl_source

VS = """#version {version}
void main()
{{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}}
"""

# helper -> (number of operands, native GLSL 450 expression)
OPS = {
    "glp_dfma": (3, "fma(a, b, c)"),
    "glp_ddiv": (2, "a / b"),
    "glp_dsqrt": (1, "sqrt(a)"),
    "glp_drsq": (1, "inversesqrt(a)"),
}

_FETCH = "uniform usampler2D glp_in0;\nuniform usampler2D glp_in1;\nout uvec4 glp_out;\n"
_MAIN = (
    "void main()\n{{\n    ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "    uvec4 t0 = texelFetch(glp_in0, p, 0);\n    uvec4 t1 = texelFetch(glp_in1, p, 0);\n"
    "{body}}}\n"
)


def shader(kind: str, name: str) -> tuple:
    """(GLSL version, fragment shader text) of ``kind`` soft / native / copy for ``name``."""
    n, expr = OPS[name]
    words = ("t0.xy", "t0.zw", "t1.xy")[:n]
    if kind == "soft":
        body = f"    glp_out = uvec4({name}({', '.join(words)}), 0u, 0u);\n"
        return 330, "#version 330 core\n" + _FETCH + glsl_source([name]) + "\n" + _MAIN.format(body=body)
    if kind == "native":
        body = "".join(f"    double {v} = packDouble2x32({w});\n" for v, w in zip("abc", words, strict=False))
        body += f"    glp_out = uvec4(unpackDouble2x32({expr}), 0u, 0u);\n"
        return 450, "#version 450 core\n" + _FETCH + _MAIN.format(body=body)
    body = f"    glp_out = uvec4({' ^ '.join(words)}, 0u, 0u);\n"
    return 330, "#version 330 core\n" + _FETCH + _MAIN.format(body=body)


def random_doubles(rng, n: int) -> np.ndarray:
    """Random finite non-zero doubles of every exponent (as uint64 bits)."""
    frac = rng.integers(0, 1 << 52, n, dtype=np.uint64)
    exp = rng.integers(1, 2047, n, dtype=np.uint64)
    sign = rng.integers(0, 2, n, dtype=np.uint64) << np.uint64(63)
    return frac | (exp << np.uint64(52)) | sign


def time_draw(ctx, version: int, fs: str, textures, size: int, reps: int) -> float:
    """Best wall-clock seconds of one ``size x size`` draw of ``fs``."""
    import moderngl

    prog = ctx.program(vertex_shader=VS.format(version=version), fragment_shader=fs)
    target = ctx.texture((size, size), 4, dtype="u4")
    fbo = ctx.framebuffer(color_attachments=[target])
    vao = ctx.vertex_array(prog, [])
    try:
        for unit, (tex, name) in enumerate(zip(textures, ("glp_in0", "glp_in1"), strict=True)):
            tex.use(unit)
            if name in prog:
                prog[name].value = unit
        fbo.use()
        fbo.viewport = (0, 0, size, size)
        best = float("inf")
        for rep in range(reps + 1):
            ctx.finish()
            t0 = time.perf_counter()
            vao.render(moderngl.TRIANGLES, vertices=3)
            ctx.finish()
            if rep:  # rep 0 compiles the shader
                best = min(best, time.perf_counter() - t0)
        return best
    finally:
        for obj in (vao, fbo, target, prog):
            obj.release()


_OPERATOR = re.compile(r"<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/&|^]=|[-+*/&|^<>!~?]")
_CALL = re.compile(r"\b(glp_\w+)\s*\(")
_LOOP = re.compile(r"for\s*\(\s*int\s+\w+\s*=\s*0\s*;\s*\w+\s*<\s*(\d+)\s*;[^)]*\)\s*\{")


def _ops(text: str, counts: dict) -> int:
    """Scalar-ish GLSL operations in ``text``: operators, plus each helper call's own
    count, loop bodies times their trip count (the loop's own i < N; i++ included)."""
    m = _LOOP.search(text)
    if m:
        depth, k = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        body = text[m.end() : k - 1]
        return _ops(text[: m.start()], counts) + int(m.group(1)) * (_ops(body, counts) + 2) + _ops(text[k:], counts)
    own = len(_OPERATOR.findall(_CALL.sub("(", text)))
    return own + sum(counts[c] for c in _CALL.findall(text))


def op_count(name: str) -> int:
    """Operations one call of helper ``name`` executes with every branch taken (an
    upper bound, and the SIMD cost when lanes diverge): its operators, its callees'
    counts, loops unrolled.  Comments are ignored."""
    from lowering.glsl.soft_fp64_divsqrt import DIVSQRT_HELPERS, needed

    counts: dict = {}
    for helper in needed([name]):
        body = re.sub(r"//[^\n]*", "", DIVSQRT_HELPERS[helper][2])
        counts[helper] = _ops(body, counts)
    return counts[name]


def run(size: int = 1024, reps: int = 5) -> list:
    """Measure every helper; returns rows of dicts (see ``format_markdown``)."""
    import moderngl

    ctx = moderngl.create_context(standalone=True, backend="egl", require=330)
    rng = np.random.default_rng(18)
    n = size * size
    words = [random_doubles(rng, n) for _ in range(3)]
    data = [np.stack(words[0:2], 1).view(np.uint32), np.stack([words[2], words[2]], 1).view(np.uint32)]
    textures = [ctx.texture((size, size), 4, d.tobytes(), dtype="u4") for d in data]
    rows = []
    try:
        per_m = 1e6 / n
        for name in OPS:
            copy = time_draw(ctx, *shader("copy", name), textures, size, reps)
            soft = time_draw(ctx, *shader("soft", name), textures, size, reps)
            native = time_draw(ctx, *shader("native", name), textures, size, reps)
            row = {
                "helper": name,
                "copy_ms_per_M": copy * per_m * 1e3,
                "soft_ms_per_M": soft * per_m * 1e3,
                "native_ms_per_M": native * per_m * 1e3,
            }
            row["extra_ns"] = (soft - native) / n * 1e9
            row["ratio"] = soft / native
            row["ops"] = op_count(name)
            rows.append(row)
    finally:
        for tex in textures:
            tex.release()
        ctx.release()
    return rows


def format_markdown(rows: list) -> str:
    """The rows as the table docs/lowering.md quotes."""
    head = (
        "| helper | GLSL ops per call (all branches) | soft ms / 1M fragments | "
        "native double ms / 1M | soft - native per fragment | soft / native |"
    )
    lines = [head, "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| `{r['helper']}` | {r['ops']} | {r['soft_ms_per_M']:.1f} | "
            f"{r['native_ms_per_M']:.1f} | {r['extra_ns']:.0f} ns | {r['ratio']:.1f}x |"
        )
    lines.append(
        f"\n(the copy shader alone -- fetch two texels, write one: {rows[0]['copy_ms_per_M']:.1f} ms / 1M fragments)"
    )
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    rows = run(args.size, args.reps)
    if args.markdown:
        print(format_markdown(rows))
    else:
        for r in rows:
            print(r)


if __name__ == "__main__":
    main()
