"""The weighted instruction budget of emulated 64-bit opcodes (issue 12 item 1;
lowering/limits_emulated.py, docs/caps.md "Shader size limits").

Where the host has no GLSL 4.00 doubles (the gl33 profile) every double opcode is a
call into the soft-fp64 GLSL helpers, which the host compiler inlines: a chain of
256 DADD took 84 s and 4 GB to compile.  Each emulated opcode therefore counts as
its measured weight in instruction slots against PIPE_SHADER_CAP_MAX_INSTRUCTIONS;
a program past the budget is refused at create with an UnsupportedError naming the
count, the budget and the cause, and a program at the budget compiles in bounded
time (in a child interpreter with the driver's shader cache off) and draws the
float64 values numpy computes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from glpipe import ShaderState, ShaderType
from glpipe.enums import ShaderCap
from lowering import parse
from lowering.errors import UnsupportedError
from lowering.glsl.soft_int64 import SOFT_INT64
from lowering.glsl.wide import WIDE_OPS
from lowering.limits import ShaderLimits, check_limits
from lowering.limits_emulated import EMULATED, emulated_features, weighted_size

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAD = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
STEP = 0.1  # added n times in float64 (as float32 0.1 widened)


def dadd_chain(n: int, mask: str = "xy") -> str:
    """x = double(IN.y); x += double(0.1f), ``n`` times; OUT = float(x) (lane 0).
    ``mask`` "xyzw" makes each DADD compute both 64-bit lanes."""
    return (
        HEAD
        + f"DCL TEMP[0..1]\nIMM[0] FLT32 {{{STEP}, 0.0, 0.0, 0.0}}\n"
        + "F2D TEMP[0].xy, IN[0].yyyy\nF2D TEMP[1].xy, IMM[0].xxxx\n"
        + f"DADD TEMP[0].{mask}, TEMP[0], TEMP[1]\n" * n
        + "D2F TEMP[1].x, TEMP[0].xyxy\nMOV OUT[0], TEMP[1].xxxx\nEND\n"
    )


def expected(n: int, start: float) -> np.float32:
    """float(double(start) + n * double(0.1f)), summed one DADD at a time in float64."""
    x = np.float64(np.float32(start))
    step = np.float64(np.float32(STEP))
    for _ in range(n):
        x = x + step
    return np.float32(x)


def gl33_weight(op: str) -> int:
    return EMULATED[op].weight


def max_dadds(budget: int) -> int:
    """The most DADD (one lane each) the chain may hold within ``budget`` slots on a host
    emulating doubles: 2 F2D, 1 D2F emulated; MOV and END one slot each."""
    fixed = 2 * gl33_weight("F2D") + gl33_weight("D2F") + 2
    return (budget - fixed) // gl33_weight("DADD")


# -- the table -----------------------------------------------------------------------


def test_the_weight_table_covers_every_emulated_opcode():
    """Every opcode the lowering can emulate (a soft row in wide.WIDE_OPS, DFRACEXP's
    soft frexp, every soft_int64 row) has a measured weight, and no other opcode does."""
    soft_double = {name for name, row in WIDE_OPS.items() if row.soft is not None} | {"DFRACEXP"}
    emulated = soft_double | set(SOFT_INT64)
    assert set(EMULATED) == emulated
    for name in emulated:
        assert EMULATED[name].weight >= 1, name
    for name in soft_double:
        assert "fp64" in EMULATED[name].features, name
    for name in SOFT_INT64:
        assert EMULATED[name].features == ("int64",), name


def test_the_profiles_emulate_what_their_glsl_lacks():
    assert emulated_features(330, ()) == frozenset({"fp64", "int64", "gpu_shader5"})
    assert emulated_features(450, ("GL_ARB_gpu_shader_int64",)) == frozenset()
    assert emulated_features(450, ()) == frozenset({"int64"})


def test_weighted_size_counts_lanes_and_plain_instructions():
    ir = parse(dadd_chain(3))
    assert weighted_size(ir, frozenset())[0] == len(ir.instructions)
    plain = len(ir.instructions) - 6  # F2D, F2D, 3 DADD, D2F
    weight = 3 * gl33_weight("DADD") + 2 * gl33_weight("F2D") + gl33_weight("D2F")
    assert weighted_size(ir, frozenset({"fp64"})) == (plain + weight, 6)
    # .xyzw: each DADD computes both lanes, two calls into the helpers.
    two = parse(dadd_chain(3, "xyzw"))
    assert weighted_size(two, frozenset({"fp64"}))[0] == plain + weight + 3 * gl33_weight("DADD")


def test_check_limits_without_a_screen_refuses_past_the_budget():
    limits = ShaderLimits(2048, 1024, 12, 64, emulated=frozenset({"fp64"}))
    n = max_dadds(2048)
    check_limits(parse(dadd_chain(n)), limits)
    with pytest.raises(UnsupportedError, match="emulated double operations"):
        check_limits(parse(dadd_chain(n + 1)), limits)
    # Without emulation the same program is small.
    check_limits(parse(dadd_chain(n + 1)), ShaderLimits(2048, 1024, 12, 64))


# -- at create ------------------------------------------------------------------------


def test_one_dadd_past_the_budget_is_refused_on_gl33_and_accepted_on_native(ctx, screen, profile):
    budget = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_INSTRUCTIONS)
    n = max_dadds(budget) + 1
    fs = dadd_chain(n)
    assert len(parse(fs).instructions) < budget  # far under the plain instruction limit
    if profile == "native":
        ctx.delete_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
        return
    start = time.perf_counter()
    with pytest.raises(UnsupportedError) as err:
        ctx.create_fs_state(ShaderState(tokens=fs))
    assert time.perf_counter() - start < 10.0, "the refusal itself must be quick"
    message = str(err.value)
    ops = n + 3  # the DADDs, 2 F2D, 1 D2F
    for needle in (f"{ops} emulated double operations", f"of {budget}", "MAX_INSTRUCTIONS", "soft fp64"):
        assert needle in message, (needle, message)


def test_two_lane_dadds_count_twice(ctx, screen, profile):
    budget = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_INSTRUCTIONS)
    fs = dadd_chain(max_dadds(budget) // 2 + 1, "xyzw")
    if profile == "native":
        ctx.delete_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    else:
        with pytest.raises(UnsupportedError, match="MAX_INSTRUCTIONS"):
            ctx.create_fs_state(ShaderState(tokens=fs))


def test_a_short_dadd_chain_draws_float64_sums(ctx, screen, profile):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from context.util_sampling import Sampling

    n = 7
    pixels = Sampling(ctx, 4, 4).draw(dadd_chain(n), (0.0, 0.3, 0.0, 0.0), (0.0, 0.3, 0.0, 0.0))
    want = expected(n, 0.3)
    single = np.float32(0.3)
    for _ in range(n):
        single = np.float32(single + np.float32(STEP))
    assert want != single  # summing in float32 would give another value
    assert (pixels[..., 0] == want).all(), (pixels[0, 0], want)


# -- the worst accepted program compiles in bounded time ---------------------------------

_CHILD = """
import json, resource, sys, time
sys.path[:0] = ["tests"]
import glpipe
from glpipe import DrawInfo, Prim, ShaderState, VertexBuffer
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup, vertices
fs = sys.stdin.read()
screen = glpipe.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
color = setup(ctx)
verts = vertices([(0, 0), (32, 0), (0, 32)], (0.0, 0.3, 0.0, 0.0))
ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
start = time.perf_counter()
ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
pixel = read_rgba32f(screen, color)[0, 0].tolist()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps([time.perf_counter() - start, rss, pixel]))
"""

#: Seconds / MB the worst accepted program may take on a machine shared with other work
#: (measured alone: docs/caps.md "Shader size limits"; past the budget, 256 DADD took 84 s
#: and 4 GB).
_BOUND_S = 30.0
_BOUND_MB = 1500


def test_the_longest_accepted_dadd_chain_compiles_in_bounded_time_and_draws(profile):
    n = max_dadds(2048)
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, profile],
        input=dadd_chain(n),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, MESA_SHADER_CACHE_DISABLE="true"),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    seconds, rss, pixel = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seconds < _BOUND_S, f"{n} DADD: {seconds:.1f} s"
    assert rss < _BOUND_MB, f"{n} DADD: {rss:.0f} MB"
    assert np.float32(pixel[0]) == expected(n, 0.3)


def test_info_names_the_weights_where_doubles_are_emulated(screen, profile):
    """``python -m glpipe info``'s soft_fp64 / soft_int64 cost lines name the slots
    the emulated opcodes count for, with the table's own weights."""
    from glpipe.host.features import feature_report

    report = feature_report(screen.profile)
    if profile == "native":
        assert report["gpu_shader_fp64"]["status"] == "native"
        return
    fp64 = report["gpu_shader_fp64"]["cost"]
    assert "MAX_INSTRUCTIONS" in fp64 and "lowering/limits_emulated.py" in fp64
    for op in ("DADD", "DMUL", "DMAD", "DFMA"):
        assert f"{op} {EMULATED[op].weight}" in fp64, op
    assert "DDIV / DRCP / DSQRT / DRSQ 256" in fp64 and EMULATED["DDIV"].weight == 256
    int64 = report["gpu_shader_int64"]["cost"]
    assert f"U64DIV {EMULATED['U64DIV'].weight}" in int64 and "MAX_INSTRUCTIONS" in int64
