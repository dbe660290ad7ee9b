"""``python -m demos``: list the demos; ``python -m demos NAME`` runs one.

    python -m demos                                   # the list
    python -m demos cube --frames 30 --out cube.png   # headless: frame 30 as a PNG
    python -m demos cube                              # a window (or offscreen: see below)
    python -m demos cube --window --stats             # fps and glpipe's counters

A window comes from glpipe.window: glfw when a display and the ``window``
extra exist, otherwise the offscreen stand-in, the reason logged (set
GLPIPE_WINDOW=offscreen|glfw to choose).  Every run prints which of
glpipe's fallbacks it used on its profile (``frames.fallback_note``).  Without ``--out`` and ``--frames``
a demo runs until its window closes (Esc); headless it draws ``--frames``
frames (default 1) and writes the last one.  PNGs are written with Pillow
(the ``demos`` extra).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import time

import glpipe

# Every demo: a module with the demos/frames.py protocol, in list order (tri
# and quad_tex draw a still frame; they also run as scripts, demos/tri.py).
ANIMATED = (
    "gears",
    "cube",
    "shadow",
    "msaa",
    "deferred",
    "instanced",
    "occlusion",
    "xfb_particles",
    "compute_particles",
    "tri",
    "quad_tex",
)


def demo_names() -> list[str]:
    """Every demo name, in list order."""
    return list(ANIMATED)


def _module(name: str):
    return importlib.import_module(f"demos.{name}")


def describe(name: str) -> str:
    """One line about demo ``name``."""
    return _module(name).DESCRIPTION


def parser() -> argparse.ArgumentParser:
    """The command line (module docstring)."""
    p = argparse.ArgumentParser(prog="python -m demos", description="glpipe demos")
    p.add_argument("name", nargs="?", help="the demo to run (omit to list them)")
    p.add_argument("--frames", type=int, default=None, help="frames to draw (headless default 1)")
    p.add_argument("--out", default=None, help="write the last frame to this PNG, headless")
    p.add_argument("--size", type=int, default=256, help="width and height (default 256)")
    p.add_argument("--profile", choices=("native", "gl33"), default=None)
    p.add_argument("--window", action="store_true", help="present in a window (glpipe.window)")
    p.add_argument("--stats", action="store_true", help="print fps and glpipe's counters")
    return p


def save_png(path, pixels) -> None:
    """Write (height, width, 4) uint8 pixels, row 0 = top, with Pillow."""
    try:
        from PIL import Image
    except ImportError:
        raise SystemExit("writing PNGs needs Pillow: pip install 'glpipe[demos]'") from None
    Image.fromarray(pixels, "RGBA").save(path)


def main(argv=None):
    """Entry point; returns the last frame's pixels (row 0 = top) or None."""
    args = parser().parse_args(argv)
    if args.name is None:
        for name in demo_names():
            print(f"{name:18s} {describe(name)}")
        return None
    if args.name not in demo_names():
        raise SystemExit(f"unknown demo {args.name!r}; `python -m demos` lists them")
    if not 1 <= args.size <= 4096 or (args.frames is not None and args.frames < 1):
        raise SystemExit("--size must be 1..4096 and --frames at least 1")
    module = _module(args.name)
    from . import frames

    headless = args.out is not None and not args.window
    if headless:
        screen = glpipe.create_screen(profile=args.profile)
        try:
            before = screen.counters.snapshot()
            start = time.perf_counter()
            pixels = frames.render_headless(module, screen, args.size, args.frames or 1)
            print(frames.fallback_note(screen, module, before))
            if args.stats:
                print(f"{(args.frames or 1) / (time.perf_counter() - start):.1f} fps (headless, with set-up)")
            _stats(screen, args)
        finally:
            screen.destroy()
    else:
        from glpipe.window import open_window

        logging.basicConfig(level=logging.INFO, format="%(message)s")
        window = open_window(f"glpipe: {args.name}", args.size, args.size, profile=args.profile)
        try:
            # Offscreen there is nobody to close the window: draw a bounded run.
            count = args.frames if args.frames or window.backend == "glfw" else 60
            before = window.screen.counters.snapshot()
            pixels = frames.run_window(module, window, count, args.stats)
            print(frames.fallback_note(window.screen, module, before))
            _stats(window.screen, args)
        finally:
            window.close()
    if args.out:
        save_png(args.out, pixels)
        print(f"wrote {args.out} ({args.size}x{args.size})")
    return pixels


def _stats(screen, args) -> None:
    if not args.stats:
        return
    # glpipe's counters (the driver queries' values; docs/queries.md).
    for name, value in screen.counters.snapshot().items():
        print(f"  {name}: {value}")


if __name__ == "__main__":
    main(sys.argv[1:])
