"""Transfer throughput: glpipe next to raw ModernGL moving the same bytes.

    python benchmarks/bench_transfer.py [--profile native|gl33] [--reps 7]
                                        [--sizes 4096 65536 ...] [--json | --markdown]

Cases, each in MB/s (10^6 bytes per second) at every size (default 4 KiB,
64 KiB, 1 MiB, 4 MiB, 16 MiB, 64 MiB; textures are square RGBA8 of that many
bytes, a format needing no conversion):

=============  =================================================  ===============================
case           glpipe                                             raw ModernGL
=============  =================================================  ===============================
buf_subdata    ``buffer_subdata``                                 ``Buffer.write``
map_write      ``transfer_map(WRITE | DISCARD_RANGE)``, fill,     ``Buffer.write``
               ``transfer_unmap``
map_read       ``transfer_map(READ)``, copy out, unmap            ``Buffer.read_into``
tex_upload     ``texture_subdata``                                ``Texture.write``
tex_read       ``transfer_map(READ)`` of a level, copy out        ``Texture.read_into``
copy_region    ``resource_copy_region`` texture to texture        ``copy_framebuffer``
blit           ``blit`` (same size and format)                    ``copy_framebuffer``
=============  =================================================  ===============================

Formats the host cannot hold as they are (``HostFormat.transfer_as``:
converted by ``fallback.format_pack`` on the way in and out) are measured
on glpipe's side alone, as conversion rates (``texture_subdata`` and a
level's ``transfer_map(READ)`` of a square texture of up to 1 MiB):
``CONVERTED`` lists them.

Method.  Raw ModernGL runs in its own process (``--side raw``, started by
this script), so neither side's GL state or allocations disturb the other.
Every timed operation ends with glFinish (a write has landed, a read has
its bytes); the best of ``reps`` repetitions is kept, after one warm-up;
the garbage collector is off while timing.  The source bytes are made
once, outside the timing.  The benchmark measures the glpipe of the
working tree it sits in.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path or sys.path.index(str(ROOT)) != 0:
    sys.path.insert(0, str(ROOT))  # measure this working tree, not an installed copy

import numpy as np

SIZES = (4 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20)
CONVERTED = ("A8B8G8R8_SNORM", "R10G10B10A2_SINT", "L8A8_SRGB", "Z24_UNORM_S8_UINT")
CASES = ("buf_subdata", "map_write", "map_read", "tex_upload", "tex_read", "copy_region", "blit")


def _side_of(size: int) -> int:
    """Side of the square RGBA8 texture of ``size`` bytes."""
    return int(round((size // 4) ** 0.5))


def _best(fn, reps: int) -> float:
    """Seconds of the fastest of ``reps`` calls of ``fn`` (after a warm-up)."""
    fn()
    best = float("inf")
    gc.disable()
    try:
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    finally:
        gc.enable()
    return best


# -- glpipe -------------------------------------------------------------------------------


def run_glpipe(profile: str, sizes, reps: int) -> dict:
    """{case: {size: seconds}} for glpipe on ``profile``."""
    import glpipe
    from glpipe import BlitInfo, BlitSide, Box, Format, Map, Mask, ResourceTemplate, Target

    screen = glpipe.create_screen(profile=profile)
    ctx = screen.context_create()
    from OpenGL.raw.GL.VERSION.GL_1_0 import glFinish as finish  # unwrapped, as ModernGL calls it

    out: dict = {c: {} for c in CASES}
    for size in sizes:
        data = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8)
        sink = np.empty(size, np.uint8)
        buf = screen.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=size, bind=glpipe.Bind.VERTEX_BUFFER)
        )
        bbox = Box(x=0, width=size, height=1, depth=1)

        def buf_subdata(buf=buf, data=data):
            ctx.buffer_subdata(buf, Map.WRITE, 0, data)
            finish()

        def map_write(buf=buf, data=data, bbox=bbox):
            t = ctx.transfer_map(buf, 0, Map.WRITE | Map.DISCARD_RANGE, bbox)
            t.data[:] = data
            ctx.transfer_unmap(t)
            finish()

        def map_read(buf=buf, sink=sink, bbox=bbox):
            t = ctx.transfer_map(buf, 0, Map.READ, bbox)
            np.copyto(sink, t.data)
            ctx.transfer_unmap(t)

        n = _side_of(size)
        texdata = data[: n * n * 4]
        texsink = sink[: n * n * 4]

        def tex(bind=glpipe.Bind.SAMPLER_VIEW | glpipe.Bind.RENDER_TARGET, n=n):
            return screen.resource_create(
                ResourceTemplate(target=Target.TEXTURE_2D, format=Format.R8G8B8A8_UNORM, width0=n, height0=n, bind=bind)
            )

        src, dst = tex(), tex()
        tbox = Box(x=0, y=0, z=0, width=n, height=n, depth=1)
        ctx.texture_subdata(src, 0, Map.WRITE, tbox, texdata, n * 4, n * n * 4)

        def tex_upload(src=src, tbox=tbox, texdata=texdata, n=n):
            ctx.texture_subdata(src, 0, Map.WRITE, tbox, texdata, n * 4, n * n * 4)
            finish()

        def tex_read(src=src, tbox=tbox, texsink=texsink):
            t = ctx.transfer_map(src, 0, Map.READ, tbox)
            np.copyto(texsink, t.data.reshape(-1))
            ctx.transfer_unmap(t)

        def copy_region(src=src, dst=dst, tbox=tbox):
            ctx.resource_copy_region(dst, 0, 0, 0, 0, src, 0, tbox)
            finish()

        info = BlitInfo(
            dst=BlitSide(resource=dst, level=0, box=tbox, format=dst.format),
            src=BlitSide(resource=src, level=0, box=tbox, format=src.format),
            mask=Mask.RGBA,
        )

        def blit(info=info):
            ctx.blit(info)
            finish()

        for name, fn in zip(
            CASES, (buf_subdata, map_write, map_read, tex_upload, tex_read, copy_region, blit), strict=True
        ):
            out[name][size] = _best(fn, reps)
        for res in (buf, src, dst):
            screen.resource_destroy(res)
    ctx.destroy()
    screen.destroy()
    return out


def run_conversions(profile: str, size: int, reps: int) -> list:
    """[{format, converted, upload_mbs, read_mbs}] for the CONVERTED formats
    (``converted``: whether this profile's storage converts them)."""
    import glpipe
    from glpipe import Bind, Box, Format, Map, ResourceTemplate, Target
    from glpipe.formats import util_format_description

    screen = glpipe.create_screen(profile=profile)
    ctx = screen.context_create()
    rows = []
    for name in CONVERTED:
        fmt = getattr(Format, name)
        bs = util_format_description(fmt).blocksize
        n = int((size // bs) ** 0.5)
        res = screen.resource_create(
            ResourceTemplate(target=Target.TEXTURE_2D, format=fmt, width0=n, height0=n, bind=Bind.SAMPLER_VIEW)
        )
        box = Box(width=n, height=n, depth=1)
        data = np.zeros(n * n * bs, np.uint8)  # zero bits are a valid value of every format
        sink = np.empty_like(data)

        def upload(res=res, box=box, data=data, n=n, bs=bs):
            ctx.texture_subdata(res, 0, Map.WRITE, box, data, n * bs, n * n * bs)
            screen.host.gl.glFinish()

        def read(res=res, box=box, sink=sink):
            t = ctx.transfer_map(res, 0, Map.READ, box)
            np.copyto(sink, t.data.reshape(-1))
            ctx.transfer_unmap(t)

        nbytes = data.nbytes
        rows.append(
            {
                "format": name,
                "converted": res.storage.transfer_as is not None,
                "upload_mbs": nbytes / _best(upload, reps) / 1e6,
                "read_mbs": nbytes / _best(read, reps) / 1e6,
            }
        )
        screen.resource_destroy(res)
    ctx.destroy()
    screen.destroy()
    return rows


# -- raw ModernGL (its own process) -------------------------------------------------------


def run_raw(sizes, reps: int) -> dict:
    """{case: {size: seconds}} for raw ModernGL doing the same work."""
    import moderngl

    mgl = moderngl.create_context(standalone=True, backend="egl")
    finish = mgl.finish
    out: dict = {c: {} for c in CASES}
    for size in sizes:
        data = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8)
        sink = np.empty(size, np.uint8)
        buf = mgl.buffer(reserve=size)

        def write(buf=buf, data=data):
            buf.write(data)
            finish()

        def read(buf=buf, sink=sink):
            buf.read_into(sink)

        n = _side_of(size)
        texdata = data[: n * n * 4]
        texsink = sink[: n * n * 4]
        src = mgl.texture((n, n), 4)
        dst = mgl.texture((n, n), 4)
        src.write(texdata)
        fbo = mgl.framebuffer(color_attachments=[src])

        def tex_upload(src=src, texdata=texdata):
            src.write(texdata)
            finish()

        def tex_read(src=src, texsink=texsink):
            src.read_into(texsink)

        def copy(dst=dst, fbo=fbo):
            mgl.copy_framebuffer(dst, fbo)
            finish()

        fns = (write, write, read, tex_upload, tex_read, copy, copy)
        for name, fn in zip(CASES, fns, strict=True):
            out[name][size] = _best(fn, reps)
        for obj in (fbo, src, dst, buf):
            obj.release()
    return out


def run(profile: str, sizes=SIZES, reps: int = 7) -> dict:
    """Both sides; {"profile", "sizes", "cases": {case: [{size, glpipe_mbs, raw_mbs, ratio}]}}."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--side", "raw", "--reps", str(reps), "--sizes"]
    proc = subprocess.run(cmd + [str(s) for s in sizes], capture_output=True, text=True, check=True)
    raw = {case: {int(k): v for k, v in per.items()} for case, per in json.loads(proc.stdout).items()}
    ours = run_glpipe(profile, sizes, reps)
    cases = {}
    for case in CASES:
        rows = []
        for size in sizes:
            g, r = size / ours[case][size] / 1e6, size / raw[case][size] / 1e6
            rows.append({"size": size, "glpipe_mbs": g, "raw_mbs": r, "ratio": g / r})
        cases[case] = rows
    conversions = run_conversions(profile, min(max(sizes), 1 << 20), reps)
    return {"profile": profile, "sizes": list(sizes), "reps": reps, "cases": cases, "conversions": conversions}


def _size_name(size: int) -> str:
    return f"{size >> 20} MiB" if size >= 1 << 20 else f"{size >> 10} KiB"


def format_markdown(results: dict) -> str:
    """The table for docs/performance.md: MB/s glpipe / raw (ratio) per case and size."""
    sizes = results["sizes"]
    head = "| case | " + " | ".join(_size_name(s) for s in sizes) + " |"
    lines = [f"Profile `{results['profile']}`, best of {results['reps']}; MB/s glpipe / raw (ratio).", "", head]
    lines.append("|" + "---|" * (len(sizes) + 1))
    for case, rows in results["cases"].items():
        cells = [f"{r['glpipe_mbs']:.0f} / {r['raw_mbs']:.0f} ({r['ratio']:.2f}x)" for r in rows]
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    lines += ["", "| format (converted on this profile?) | upload MB/s | read MB/s |", "|---|---|---|"]
    for row in results.get("conversions", ()):
        conv = "yes" if row["converted"] else "no"
        lines.append(f"| {row['format']} ({conv}) | {row['upload_mbs']:.0f} | {row['read_mbs']:.0f} |")
    return "\n".join(lines)


def main(argv=None) -> dict:
    """Command-line entry point; returns the results dict."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", choices=("native", "gl33"), default="native")
    p.add_argument("--reps", type=int, default=7, help="repetitions; the best is kept (default 7)")
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="bytes per transfer")
    p.add_argument("--side", choices=("both", "raw"), default="both", help=argparse.SUPPRESS)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the results as JSON")
    out.add_argument("--markdown", action="store_true", help="print the table for docs/performance.md")
    args = p.parse_args(argv)
    reps = max(1, args.reps)
    if args.side == "raw":
        raw = run_raw(args.sizes, reps)
        print(json.dumps(raw))
        return raw
    results = run(args.profile, args.sizes, reps)
    print(json.dumps(results, indent=2) if args.json else format_markdown(results))
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
