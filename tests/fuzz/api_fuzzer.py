"""The API fuzzer: random pipe_context / pipe_screen call sequences with bad
arguments and destroys mixed in (issue 12 item 8; docs/robustness.md "API fuzzing").

A sequence is ``length`` calls over every object kind -- resources, surfaces,
sampler views, every CSO, shaders, vertex elements, transfers, draws, clears,
fences -- each built from a valid argument list; with probability ``p_bad``
one argument (or one field of a template argument) is replaced by a bad value
(wrong type, None, negative, out of its C range, huge).  Every call must
either return or raise a ``PipeError`` subclass, and leave no GL error
pending.  After the sequence a known-good draw must give the right pixels.

Outcomes are counted in ``Stats``.  A non-PipeError exception from a call that
was handed a destroyed object is a *lifetime* finding (reported separately:
object lifetimes are issue 12 item 4); any other is a *boundary* finding.
``tests/fuzz/test_api_fuzz.py`` runs fixed seeds; ``scripts/fuzz_api.py``
runs for as long as asked.
"""

from __future__ import annotations

import dataclasses
import random
import signal
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from glpipe import (
    Bind,
    BlendState,
    Box,
    DepthStencilAlphaState,
    DrawInfo,
    Format,
    FramebufferState,
    RasterizerState,
    ResourceTemplate,
    ShaderState,
    SurfaceTemplate,
    Target,
    VertexBuffer,
    ViewportState,
)
from glpipe.enums import Clear, Map, Prim
from glpipe.errors import PipeError

from .api_ops import _MAKERS, FS_FLAT, POS_COLOR, SIZE, VS, Operations, _Bad


def _huge() -> int:
    return 10**5000  # more digits than Python's int-to-str limit


#: Bad values: wrong types, None, negatives, out of every C range, huge.
BAD_VALUES: tuple = (
    None,
    "x",
    b"\x00\x01",
    1.5,
    float("nan"),
    float("inf"),
    True,
    -1,
    -(2**31) - 1,
    2**31,
    2**32,
    2**32 + 3,
    2**63,
    2**64,
    2**70,
    -(2**63) - 1,
    _huge(),
    object(),
    [],
    (),
    [None],
    [_huge()],  # a container whose repr fails too
    {"a": 1},
)


@dataclass
class Stats:
    """Counts over a campaign."""

    sequences: int = 0
    calls: int = 0
    bad_calls: int = 0
    ok: int = 0
    pipe_errors: Counter = field(default_factory=Counter)
    boundary: list = field(default_factory=list)  # non-PipeError, no destroyed object involved
    lifetime: list = field(default_factory=list)  # non-PipeError after a destroy of an argument
    accepted_dead: Counter = field(default_factory=Counter)  # returned normally given a destroyed object
    returned: Counter = field(default_factory=Counter)  # calls that returned normally, by method
    pending_gl: list = field(default_factory=list)  # a GL error left pending after a call
    bad_pixels: list = field(default_factory=list)  # the known-good draw after a sequence failed
    slow: list = field(default_factory=list)  # a call over SLOW_CALL seconds
    paused: int = 0  # calls over SLOW_CALL during which the process was stopped (not counted as slow)

    def merge(self, other: Stats) -> None:
        """Add ``other``'s counts to these."""
        self.sequences += other.sequences
        self.calls += other.calls
        self.bad_calls += other.bad_calls
        self.ok += other.ok
        self.paused += other.paused
        self.pipe_errors.update(other.pipe_errors)
        self.accepted_dead.update(other.accepted_dead)
        self.returned.update(other.returned)
        for name in ("boundary", "lifetime", "pending_gl", "bad_pixels", "slow"):
            getattr(self, name).extend(getattr(other, name))

    def summary(self) -> str:
        """One paragraph of counts."""
        errs = ", ".join(f"{k} {v}" for k, v in sorted(self.pipe_errors.items()))
        return (
            f"{self.sequences} sequences, {self.calls} calls ({self.bad_calls} with a bad argument): "
            f"{self.ok} returned, PipeError raised: {errs or 'none'}; "
            f"non-PipeError (boundary): {len(self.boundary)}, non-PipeError after a destroy (lifetime): "
            f"{len(self.lifetime)}, calls given a destroyed object that returned normally (lifetime): "
            f"{sum(self.accepted_dead.values())}, GL errors left pending: {len(self.pending_gl)}, "
            f"known-good draw wrong: {len(self.bad_pixels)}, calls over {SLOW_CALL:.0f} s: {len(self.slow)}"
            + (f" ({self.paused} more spanned a SIGSTOP pause)" if self.paused else "")
        )


SLOW_CALL = 10.0

# SIGCONT deliveries so far.  A campaign shares the machine with CI, which
# pauses it (SIGSTOP / SIGCONT) for ten minutes at a time: a call that spans a
# pause is not slow, and its wall time says nothing about glpipe.
_continued = [0]


def _watch_for_continue() -> None:
    """Count SIGCONTs (main thread only; an application's own handler is kept)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGCONT"):
        return
    if signal.getsignal(signal.SIGCONT) == signal.SIG_DFL:
        signal.signal(signal.SIGCONT, lambda *_: _continued.__setitem__(0, _continued[0] + 1))


_RANDOM = object()  # _build: pick a bad value at random
_SWEEP_VARIANTS = 4  # Fuzzer.sweep: random variants of each operation


class Fuzzer(Operations):
    """One screen and context under fuzz; ``run_sequence`` makes one sequence."""

    def __init__(self, screen, rng: random.Random, p_bad: float = 0.3, p_destroy: float = 0.08):
        self.screen = screen
        self.rng = rng
        self.p_bad = p_bad
        self.p_destroy = p_destroy
        self.stats = Stats()
        _watch_for_continue()
        self.ctx = None
        self.pool: dict[str, list] = {}
        self.dead: set[int] = set()  # ids of objects destroyed in this sequence
        self._dead_refs: list = []  # keep destroyed objects alive so their ids stay unique
        self._bad_value: Any = _RANDOM  # the bad value _build puts in (sweep), or a random one
        self.ctx_destroyed = False  # op_context_destroy ran: later calls use a destroyed context

    # -- building and running calls -----------------------------------------------

    def _build(self, arg, bad_path):
        """Construct ``arg`` (templates given as (class, fields), lists of them),
        putting a bad value where ``bad_path`` points."""
        if bad_path == ():
            return self.rng.choice(BAD_VALUES) if self._bad_value is _RANDOM else self._bad_value
        if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[0], type):
            cls, fields = arg
            fields = dict(fields)
            if bad_path is not None:
                name = bad_path[0]
                fields[name] = self._build(fields.get(name), bad_path[1:])
            return cls(**{k: self._build(v, None) for k, v in fields.items()})
        if isinstance(arg, list):
            out = [self._build(a, None) for a in arg]
            if bad_path is not None:
                i = bad_path[0]
                out[i] = self._build(arg[i], bad_path[1:])
            return out
        return arg

    def _bad_path(self, args: list):
        """A path to one argument (or template field) to spoil."""
        r = self.rng
        i = r.randrange(len(args)) if args else None
        if i is None:
            return None
        arg = args[i]
        if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[0], type) and r.random() < 0.7:
            names = [f.name for f in dataclasses.fields(arg[0])]
            return (i, r.choice(names))
        if isinstance(arg, list) and arg and r.random() < 0.5:
            j = r.randrange(len(arg))
            inner = arg[j]
            if isinstance(inner, tuple) and len(inner) == 2 and isinstance(inner[0], type):
                names = [f.name for f in dataclasses.fields(inner[0])]
                return (i, j, r.choice(names))
            return (i, j)
        return (i,)

    def _involves_dead(self, value, depth=0) -> bool:
        if id(value) in self.dead:
            return True
        if depth > 3:
            return False
        if isinstance(value, (list, tuple)):  # also a (template class, fields) pair
            return any(self._involves_dead(v, depth + 1) for v in value)
        if isinstance(value, dict):
            return any(self._involves_dead(v, depth + 1) for v in value.values())
        d = getattr(value, "__dict__", None)
        if d is not None and type(value).__module__.startswith("glpipe.templates"):
            return any(self._involves_dead(v, depth + 1) for v in d.values())
        return False

    def step(self) -> None:
        """One call: pick an operation, maybe spoil an argument, call, classify."""
        r = self.rng
        names, weights = zip(*self.OPS, strict=True)
        name = r.choices(names, weights)[0]
        if r.random() < self.p_destroy:
            name = r.choice(["op_resource_destroy", "op_surface_destroy", "op_sampler_view_destroy", "op_delete"])
        try:
            fn, args, on_result = getattr(self, name)()
        except _Bad:
            return
        path = self._bad_path(args) if r.random() < self.p_bad else None
        self._call(name, fn, args, on_result, path, _RANDOM)

    def _call(self, name: str, fn, args: list, on_result, path, bad) -> None:
        """Build the arguments (spoiling ``path`` with ``bad``), call, classify.
        A destroy whose call is refused leaves its object out of the pool
        (neither used again nor counted as destroyed)."""
        label = f"{getattr(fn, '__name__', name)}"
        stats = self.stats
        stats.calls += 1
        if path is not None:
            stats.bad_calls += 1
            label += f" bad@{path}"
        self._bad_value = bad
        started, continued = time.perf_counter(), _continued[0]
        # What the call was given: the spoiled value replaces the object at
        # ``path`` (a destroyed context spoiled to None is fence_finish's
        # valid "no context", not a destroyed object accepted).  Until the
        # build finishes, the unspoiled arguments stand in.
        given = args
        try:
            # Building a spoiled template is part of the call under test.
            given = [
                self._build(a, path[1:] if path is not None and path[0] == i else None) for i, a in enumerate(args)
            ]
            result = fn(*given)
        except PipeError as exc:
            stats.pipe_errors[type(exc).__name__] += 1
        except Exception as exc:
            record = (label, f"{type(exc).__name__}: {str(exc)[:200]}", traceback.format_exc(limit=-3))
            (stats.lifetime if self._involves_dead(given) else stats.boundary).append(record)
        else:
            stats.ok += 1
            stats.returned[label.split(" bad@")[0]] += 1
            on_dead_ctx = (
                self.ctx_destroyed and name != "op_context_destroy" and getattr(fn, "__self__", None) is not self.screen
            )
            if self._involves_dead(given) or on_dead_ctx:
                stats.accepted_dead[label.split(" bad@")[0]] += 1
            if on_result is not None:
                on_result(result)
        elapsed = time.perf_counter() - started
        if elapsed > SLOW_CALL:
            if _continued[0] == continued:
                stats.slow.append((label, elapsed))
            else:
                stats.paused += 1
        pending = self.screen.host.clear_errors()
        if pending:
            stats.pending_gl.append((label, pending))

    def _paths(self, args: list) -> list:
        """Every place one bad value can go: each argument, each field of a
        template argument, each element of a list argument and its fields."""
        paths = []
        for i, arg in enumerate(args):
            paths.append((i,))
            if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[0], type):
                paths += [(i, f.name) for f in dataclasses.fields(arg[0])]
            elif isinstance(arg, list):
                for j, inner in enumerate(arg):
                    paths.append((i, j))
                    if isinstance(inner, tuple) and len(inner) == 2 and isinstance(inner[0], type):
                        paths += [(i, j, f.name) for f in dataclasses.fields(inner[0])]
        return paths

    def sweep(self, values: tuple = BAD_VALUES) -> None:
        """The systematic campaign: every operation, every argument path,
        every bad value, one call each (in a context refilled as destroys
        and refusals use its objects up), then the known-good draw."""
        self.ctx = self.screen.context_create()
        self.pool, self.dead, self._dead_refs = {}, set(), []
        self.ctx_destroyed = False
        try:
            for name, _weight in self.OPS:
                # Operations choosing among calls at random: several variants,
                # each with its random choices replayed for every bad value.
                for variant in range(_SWEEP_VARIANTS):
                    seed = f"{name}/{variant}"
                    self.rng.seed(seed)
                    probe = self._op_args(name)
                    if probe is None:
                        continue
                    for path in self._paths(probe[1]):
                        for value in values:
                            self.rng.seed(seed)
                            made = self._op_args(name)
                            if made is None:
                                break
                            fn, args, on_result = made
                            if path in self._paths(args):  # the pool can change an argument list's shape
                                self._call(name, fn, args, on_result, path, value)
            self._check_known_good()
        finally:
            self._teardown()

    def _op_args(self, name: str):
        """The operation's valid call, creating what it needs (a few tries)."""
        for _ in range(8):
            try:
                return getattr(self, name)()
            except _Bad as missing:
                kind = str(missing)
                maker = _MAKERS.get(kind)
                if maker is None:
                    return None
                try:
                    self._run_valid(maker)
                except (PipeError, _Bad):
                    pass
        return None

    # -- a sequence -----------------------------------------------------------------

    def run_sequence(self, length: int) -> None:
        """A fresh context, ``length`` calls, then the known-good draw."""
        self.ctx = self.screen.context_create()
        self.pool, self.dead, self._dead_refs = {}, set(), []
        self.ctx_destroyed = False
        try:
            self._prime()
            for _ in range(length):
                self.step()
            self._check_known_good()
        finally:
            self._teardown()
        self.stats.sequences += 1

    def _teardown(self) -> None:
        """Unmap, destroy the context, free the resources, drain GL errors."""
        for t in self.pool.get("transfer", []):
            try:
                self.ctx.transfer_unmap(t)
            except PipeError:
                pass
        self.ctx.destroy()
        for kind in ("buffer", "texture"):
            for res in self.pool.get(kind, []):
                try:
                    self.screen.resource_destroy(res)
                except PipeError:
                    pass
        self.screen.host.clear_errors()

    def _prime(self) -> None:
        """Something to work on from the start: a few resources and a complete
        pipeline (render target, shaders, vertex elements and buffer,
        rasterizer, viewport), all in the pool, so draws reach the host and
        destroys hit bound objects."""
        ctx, screen = self.ctx, self.screen
        for _ in range(3):
            self._run_valid("op_resource_create")
        rt = screen.resource_create(
            ResourceTemplate(
                format=Format.R32G32B32A32_FLOAT, width0=SIZE, height0=SIZE, bind=Bind.RENDER_TARGET | Bind.SAMPLER_VIEW
            )
        )
        self._add("texture", rt)
        surf = ctx.create_surface(rt, SurfaceTemplate(format=rt.format))
        self._add("surface", surf)
        ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
        self._run_valid("op_set_viewport")
        verts = np.array(
            [[x, y, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0] for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))], np.float32
        )
        vb = screen.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER)
        )
        ctx.buffer_subdata(vb, Map.WRITE, 0, verts)
        self._add("buffer", vb)
        ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
        for kind, cso in (
            ("vs", ctx.create_vs_state(ShaderState(tokens=VS))),
            ("fs", ctx.create_fs_state(ShaderState(tokens=FS_FLAT))),
            ("vertex_elements", ctx.create_vertex_elements_state(list(POS_COLOR))),
            ("rasterizer", ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0))),
        ):
            self._add(kind, cso)
            getattr(ctx, f"bind_{kind}_state")(cso)

    def _run_valid(self, name: str) -> None:
        fn, args, on_result = getattr(self, name)()
        result = fn(*[self._build(a, None) for a in args])
        if on_result is not None:
            on_result(result)

    def _check_known_good(self) -> None:
        """Bind a fresh pipeline in the fuzzed context (a new one if the
        sequence destroyed it) and draw a full-screen quad of a known colour;
        every pixel must be that colour."""
        if self.ctx_destroyed:
            self.ctx = self.screen.context_create()
            self.ctx_destroyed = False
        ctx, screen = self.ctx, self.screen
        color = (0.25, 0.5, 0.75, 1.0)
        try:
            rt = screen.resource_create(
                ResourceTemplate(
                    target=Target.TEXTURE_2D,
                    format=Format.R32G32B32A32_FLOAT,
                    width0=SIZE,
                    height0=SIZE,
                    bind=Bind.RENDER_TARGET,
                )
            )
            surf = ctx.create_surface(rt, SurfaceTemplate(format=Format.R32G32B32A32_FLOAT))
            ctx.set_framebuffer_state(FramebufferState(width=SIZE, height=SIZE, cbufs=(surf,)))
            ctx.set_viewport_states(
                0, [ViewportState(scale=(SIZE / 2, SIZE / 2, 0.5), translate=(SIZE / 2, SIZE / 2, 0.5))]
            )
            ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=VS)))
            ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=FS_FLAT)))
            for stage in ("gs", "tcs", "tes"):
                getattr(ctx, f"bind_{stage}_state")(None)
            ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(POS_COLOR)))
            ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0)))
            ctx.bind_blend_state(ctx.create_blend_state(BlendState()))
            ctx.bind_depth_stencil_alpha_state(ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState()))
            ctx.set_sample_mask(0xFFFFFFFF)
            ctx.set_min_samples(1)
            ctx.set_window_rectangles(False, [])
            verts = np.array([[x, y, 0.0, 1.0, *color] for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))], np.float32)
            ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=32)])
            ctx.clear(Clear.COLOR0, None, [0.0, 0.0, 0.0, 0.0], 1.0, 0)
            ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLE_STRIP, start=0, count=4))
            t = ctx.transfer_map(rt, 0, Map.READ, Box(width=SIZE, height=SIZE, depth=1))
            img = np.frombuffer(bytes(t.data), np.float32).reshape(-1, 4).copy()
            ctx.transfer_unmap(t)
            screen.resource_destroy(rt)
        except Exception as exc:
            self.stats.bad_pixels.append(("known-good draw raised", f"{type(exc).__name__}: {exc}"))
            return
        if not np.array_equal(img, np.tile(np.array(color, np.float32), (SIZE * SIZE, 1))):
            wrong = int(np.count_nonzero(np.any(img != np.array(color, np.float32), axis=1)))
            self.stats.bad_pixels.append(("known-good draw", f"{wrong} of {SIZE * SIZE} pixels wrong"))


def run_campaign(screen, seeds, length: int = 60, seconds: float | None = None, sequences: int | None = None) -> Stats:
    """Sequences over ``seeds`` (one seed per sequence, cycling with an offset
    when more sequences are asked for) until ``sequences`` are done or
    ``seconds`` have passed."""
    total = Stats()
    started = time.perf_counter()
    n = 0
    seeds = list(seeds)
    while True:
        if sequences is not None and n >= sequences:
            break
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        seed = seeds[n % len(seeds)] + 1_000_003 * (n // len(seeds))
        fz = Fuzzer(screen, random.Random(seed))
        fz.run_sequence(length)
        total.merge(fz.stats)
        n += 1
    return total


def run_sweep(screen, seed: int = 0) -> Stats:
    """``Fuzzer.sweep`` on ``screen``: every operation x argument x bad value."""
    fz = Fuzzer(screen, random.Random(seed))
    fz.sweep()
    fz.stats.sequences += 1
    return fz.stats


__all__ = ["BAD_VALUES", "Fuzzer", "Stats", "run_campaign", "run_sweep"]
