"""Diagnostics for benchmarks/bench_draw.py: where a case's draw time goes.

``breakdown_case`` splits a switch case's per-draw time into the bind, the
draw of case (a), and each emit function ``Context._update_derived``
dispatches to, unprofiled; ``profile_case`` runs one case's loop under
cProfile.  ``python benchmarks/diagnose.py --breakdown CASE`` /
``--cprofile CASE`` (docs/performance.md).  It imports bench_draw's cases;
bench_draw imports nothing of it (no cycle).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

try:  # imported as benchmarks.diagnose or next to bench_draw as a script
    from .bench_draw import CASES, GEOMETRY, GlpipeSide, RawSide, _timed, case_no_change
except ImportError:
    from bench_draw import CASES, GEOMETRY, GlpipeSide, RawSide, _timed, case_no_change


def profile_case(profile: str, case: str, draws: int, geometry: str, top: int = 25) -> str:
    """cProfile of glpipe's loop for one case: where the time of a draw goes.

    Per function: calls per draw, own time per call as profiled, its share of
    the profiled total, and that share of the *unprofiled* per-draw time
    (measured first, in the same process).  cProfile's hooks add a fixed cost
    to every call, so the profiled µs are inflated; the scaled column is the
    estimate to read."""
    import cProfile
    import io
    import pstats

    setup = {key: fn for _g, key, _l, fn in CASES}[case]
    vertices = GEOMETRY[geometry]
    raw = RawSide(vertices)
    g = GlpipeSide(profile, vertices)
    try:
        g.make_current()
        g.baseline()
        raw.make_current()
        raw.baseline()
        g.make_current()
        glpipe_loop, _raw_loop = setup(g, raw)
        glpipe_loop(1000)
        measured = min(_timed(g, glpipe_loop, draws) for _ in range(3)) / draws
        prof = cProfile.Profile()
        prof.enable()
        glpipe_loop(draws)
        prof.disable()
        g.finish()
    finally:
        g.make_current()
        g.destroy()
        raw.make_current()
        raw.destroy()
    rows = []
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in pstats.Stats(prof).stats.items():
        if name in ("loop", "<method 'disable' of '_lsprof.Profiler' objects>"):
            continue  # the benchmark's own loop and the profiler switch
        where = f"{Path(filename).name}:{line}({name})" if line else name
        rows.append((tottime, where, ncalls, cumtime))
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    out = io.StringIO()
    out.write(
        f"cProfile of case {case!r} on {profile}, {draws} draws ({geometry} geometry): measured "
        f"{measured * 1e6:.2f} µs/draw unprofiled, {total / draws * 1e6:.2f} µs/draw profiled\n"
    )
    out.write(
        f"{'function':<64} {'calls/draw':>10} {'own µs/call':>11} {'cum µs/call':>11} {'share':>6} {'≈µs/draw':>8}\n"
    )
    for tottime, where, ncalls, cumtime in rows[:top]:
        share = tottime / total
        out.write(
            f"{where[:64]:<64} {ncalls / draws:10.2f} {tottime / ncalls * 1e6:11.3f} "
            f"{cumtime / ncalls * 1e6:11.3f} {100 * share:5.1f}% {share * measured * 1e6:8.3f}\n"
        )
    return out.getvalue()


def breakdown_case(profile: str, case: str, draws: int, geometry: str) -> str:
    """Where a switch case's draw time goes, function by function, unprofiled.

    Times the case's loop, its binds alone, and case (a)'s draw; then wraps
    every emit method ``Context._update_derived`` dispatches to (the rows of
    ``glpipe.context.DERIVED_ROWS`` plus the vertex part's ``_emit_vertex``) with a perf_counter timer on the instance
    that runs it (the area's part, or the context) and runs the loop again.  The timer's own cost is measured on a
    no-op and subtracted, so each row is the function's real µs per call;
    "dispatch" is what remains of the emit time (walking the rows,
    draw_vbo's dirty handling)."""
    from glpipe.context import DERIVED_ROWS
    from glpipe.part import owner

    setup = {key: fn for _g, key, _l, fn in CASES}[case]
    vertices = GEOMETRY[geometry]
    raw = RawSide(vertices)
    g = GlpipeSide(profile, vertices)
    stats: dict = {}
    clock = time.perf_counter_ns

    def timed(name, fn):
        acc = stats.setdefault(name, [0, 0])

        def wrapper(*args, **kwargs):
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                acc[1] += clock() - t0
                acc[0] += 1

        return wrapper

    try:
        g.make_current()
        g.baseline()
        fast_loop, _ = case_no_change(g, raw)
        fast_loop(1000)
        fast = min(_timed(g, fast_loop, draws) for _ in range(5)) / draws
        raw.make_current()
        raw.baseline()
        g.make_current()
        loop, _raw_loop = setup(g, raw)
        loop(1000)
        total = min(_timed(g, loop, draws) for _ in range(5)) / draws
        bind_only = getattr(loop, "bind_only", None)
        bind = min(_timed(g, bind_only, draws) for _ in range(5)) / draws if bind_only else 0.0
        # The timer's cost inside a measurement, from a wrapped no-op.
        noop = timed("<noop>", lambda: None)
        for _ in range(draws):
            noop()
        calls, ns = stats.pop("<noop>")
        timer_ns = ns / calls
        ctx = g.ctx
        # (object the row's function is called on, its name): the area's part,
        # or the context for an area that is still a mixin (glpipe/part.py).
        targets = [(owner(ctx, area), fn.__name__) for _bits, area, fn in DERIVED_ROWS]
        targets.append((ctx.vertex_part, "_emit_vertex"))  # the vertex input: no row (glpipe/draw.py)
        targets = list(dict.fromkeys(targets))
        for obj, name in targets:
            if hasattr(obj, name):
                setattr(obj, name, timed(name, getattr(obj, name)))
        # _update_derived keeps bound emit methods per dirty word: rebind them
        # to the timers (and back to the methods afterwards).
        reset_plans = getattr(ctx, "_reset_derived_plans", lambda: None)
        reset_plans()
        g.make_current()
        gc.disable()
        try:
            loop(draws)
            g.finish()
        finally:
            gc.enable()
            for obj, name in targets:
                obj.__dict__.pop(name, None)
            reset_plans()
    finally:
        g.make_current()
        g.destroy()
        raw.make_current()
        raw.destroy()
    emit = total - bind - fast
    lines = [
        (
            f"breakdown of case {case!r} on {profile} ({geometry} geometry, {draws} draws): "
            f"{total * 1e6:.2f} µs/draw = bind {bind * 1e6:.2f} + draw (case a) {fast * 1e6:.2f} "
            f"+ emit {emit * 1e6:.2f}"
        ),
        f"  {'emit function':<28} {'calls/draw':>10} {'µs/call':>8} {'µs/draw':>8}",
    ]
    accounted = 0.0
    for name, (calls, ns) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
        if not calls:
            continue
        per_call = max(0.0, ns / calls - timer_ns) / 1e3
        per_draw = per_call * calls / draws
        accounted += per_draw
        lines.append(f"  {name:<28} {calls / draws:10.2f} {per_call:8.2f} {per_draw:8.2f}")
    lines.append(f"  {'dispatch (the rest)':<28} {'':>10} {'':>8} {emit * 1e6 - accounted:8.2f}")
    return "\n".join(lines)


def main(argv=None) -> None:
    """Command-line entry point: ``--breakdown CASE`` or ``--cprofile CASE``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", choices=("native", "gl33", "all"), default="native")
    p.add_argument("--draws", type=int, default=10000, help="draws per timed loop (default 10000)")
    p.add_argument("--geometry", choices=tuple(GEOMETRY), default="culled")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--cprofile",
        choices=[c[1] for c in CASES],
        help="cProfile glpipe's loop of this case (per-function µs per call)",
    )
    what.add_argument(
        "--breakdown",
        choices=[c[1] for c in CASES if c[0] == "b"],
        help="split this switch case's draw into bind / draw / each emit (µs)",
    )
    args = p.parse_args(argv)
    for profile in ("native", "gl33") if args.profile == "all" else (args.profile,):
        if args.cprofile:
            print(profile_case(profile, args.cprofile, args.draws, args.geometry))
        else:
            print(breakdown_case(profile, args.breakdown, args.draws, args.geometry))


__all__ = ["breakdown_case", "profile_case", "main"]

if __name__ == "__main__":
    main(sys.argv[1:])
