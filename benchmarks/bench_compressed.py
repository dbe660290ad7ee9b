"""Compressed-texture uploads: what decoding in numpy costs (docs/formats.md).

    python benchmarks/bench_compressed.py [--size 512] [--reps 3] [--json]

For every format fallback.compressed decodes, two numbers:

(a) **decode**: ms per MB of compressed blocks for the numpy decoder alone
    (random blocks, best of ``reps``);
(b) **upload**: ms for ``texture_subdata`` of a whole ``size`` x ``size``
    texture through glpipe, on the ``gl33`` profile (blocks decoded, then
    uploaded uncompressed) next to the ``native`` profile (blocks uploaded
    as they are, where the host has the family; "-" otherwise).  Each upload
    ends with glFinish, so the host's own work is counted.

Random blocks exercise every mode of every family; real textures have the
same cost per block (the decoders do the same work for every block).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fallback.compressed import DECODERS
from glpipe import Bind, Box, ResourceTemplate, Target, create_screen
from glpipe.formats import format_desc, host_decodes, host_storage


def _blocks(fmt, size: int, rng) -> np.ndarray:
    desc = format_desc(fmt)
    nb = -(-size // 4)
    return rng.integers(0, 256, (1, nb, nb * desc.blocksize), dtype=np.uint8)


def decode_ms_per_mb(fmt, size: int, reps: int) -> float:
    """Best-of-``reps`` decode time of a ``size``-square image, in ms per MB of blocks."""
    desc = format_desc(fmt)
    blocks = _blocks(fmt, size, np.random.default_rng(0)).reshape(-1, desc.blocksize)
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        DECODERS[fmt].decode(blocks)
        best = min(best, time.perf_counter() - start)
    return best * 1000 * (1 << 20) / blocks.nbytes


def upload_ms(screen, fmt, size: int, reps: int) -> float | None:
    """Best-of-``reps`` texture_subdata of a whole texture (ms), or None if
    the profile cannot hold the format."""
    templ = ResourceTemplate(target=Target.TEXTURE_2D, format=fmt, width0=size, height0=size, bind=Bind.SAMPLER_VIEW)
    if not screen.can_create_resource(templ):
        return None
    res = screen.resource_create(templ)
    ctx = screen.context_create()
    try:
        blocks = _blocks(fmt, size, np.random.default_rng(1))
        gl = screen.host.gl
        best = float("inf")
        for _ in range(reps):
            start = time.perf_counter()
            ctx.texture_subdata(res, 0, 0, Box(width=size, height=size), blocks, blocks.shape[2], blocks.nbytes)
            gl.glFinish()
            best = min(best, time.perf_counter() - start)
        return best * 1000
    finally:
        ctx.destroy()
        screen.resource_destroy(res)


def run(size: int = 512, reps: int = 3, formats=None, screens=None) -> dict:
    """Every measurement, as plain data (``screens``: {"gl33": ..., "native":
    ...} to use, else made and destroyed here)."""
    own = screens is None
    if own:
        screens = {name: create_screen(profile=name) for name in ("gl33", "native")}
    rows = []
    try:
        for fmt in formats or sorted(DECODERS, key=lambda f: f.name):
            row = {"format": fmt.name, "decode_ms_per_mb": decode_ms_per_mb(fmt, size, reps)}
            for name, screen in screens.items():
                screen.host.make_current()
                hf = host_storage(fmt, screen.format_support)
                row[f"{name}_storage"] = (
                    "none"
                    if hf is None
                    else ("decoded " if host_decodes(format_desc(fmt), hf) else "") + hf.internal_format_name
                )
                row[f"{name}_upload_ms"] = upload_ms(screen, fmt, size, reps)
            rows.append(row)
    finally:
        for screen in screens.values() if own else ():
            screen.host.make_current()
            screen.destroy()
    return {"size": size, "reps": reps, "rows": rows}


def format_markdown(results: dict) -> str:
    """The results as a markdown table."""
    size = results["size"]
    lines = [
        f"Compressed uploads, {size}x{size} texture (best of {results['reps']})",
        "",
        "| format | decode ms/MB | gl33 storage | gl33 upload ms | native storage | native upload ms |",
        "|---|---|---|---|---|---|",
    ]

    def ms(v):
        return "-" if v is None else f"{v:.1f}"

    for r in results["rows"]:
        lines.append(
            f"| {r['format']} | {r['decode_ms_per_mb']:.0f} | {r['gl33_storage']} | "
            f"{ms(r['gl33_upload_ms'])} | {r['native_storage']} | {ms(r['native_upload_ms'])} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = run(args.size, args.reps)
    sys.stdout.write(json.dumps(results, indent=1) + "\n" if args.json else format_markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
