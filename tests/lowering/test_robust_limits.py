"""Shader size limits (issue 12, "the process dies" (c); lowering/limits.py).

The caps announce the sizes the host compiles in bounded time, create_*_state
refuses a bigger shader naming the line, and a shader at every limit compiles
and draws (in a child interpreter with the driver's shader cache off, so the
time is the compiler's) well within a bound.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from glpipe import ShaderState, ShaderType, ShaderValidationError
from glpipe.enums import ShaderCap
from lowering import parse
from lowering.limits import ShaderLimits, check_limits, limits_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAD = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"

# -- program builders: each writes OUT[0] so that the drawn pixel is known ----------------


def indirect_array(n: int) -> str:
    """TEMP[0..n-1] as ARRAY(1), element IN.x (0 here) written and element IN.x+1 read:
    the pixel is 0 (registers start at zero)."""
    return (
        HEAD + f"DCL TEMP[0..{n - 1}], ARRAY(1)\nDCL TEMP[{n}]\nDCL ADDR[0]\n"
        f"F2I TEMP[{n}].x, IN[0].xxxx\nUARL ADDR[0].x, TEMP[{n}].xxxx\n"
        f"MOV TEMP[ADDR[0].x](1), IN[0]\nMOV OUT[0], TEMP[ADDR[0].x+1](1)\nEND\n"
    )


def nested_loops(depth: int) -> str:
    """``depth`` loops, each left by BRK after one pass: the pixel is IN[0]."""
    return (
        HEAD + "DCL TEMP[0]\n" + "BGNLOOP\n" * depth + "MOV TEMP[0], IN[0]\n" + "BRK\nENDLOOP\n" * depth
    ) + "MOV OUT[0], TEMP[0]\nEND\n"


def mad_chain(n: int) -> str:
    """``n`` instructions in all: t = t * 1 + 0.001 repeated, so the pixel is IN + 0.001 * (n - 3)."""
    body = "MAD TEMP[0], TEMP[0], IMM[0].xxxx, IMM[0].yyyy\n" * (n - 3)
    return (
        HEAD
        + "DCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.001, 0.0, 0.0}\nMOV TEMP[0], IN[0]\n"
        + body
        + ("MOV OUT[0], TEMP[0]\nEND\n")
    )


def many_temps(n: int, step: int = 2) -> str:
    """TEMP[0..n-1] declared; every ``step``-th one (and the last) written once from the one
    before: TEMP[j] = TEMP[i] + 0, so the pixel is IN[0] (``step`` keeps the
    instruction count under MAX_INSTRUCTIONS)."""
    regs = sorted(set(range(0, n, step)) | {n - 1})
    body = "".join(f"ADD TEMP[{j}], TEMP[{i}], IMM[0].xxxx\n" for i, j in zip(regs[:-1], regs[1:], strict=True))
    return (
        HEAD
        + f"DCL TEMP[0..{n - 1}]\nIMM[0] FLT32 {{0.0, 0.0, 0.0, 0.0}}\nMOV TEMP[0], IN[0]\n"
        + body
        + (f"MOV OUT[0], TEMP[{n - 1}]\nEND\n")
    )


# -- the caps ---------------------------------------------------------------------------

_SIZE_CAPS = (ShaderCap.MAX_INSTRUCTIONS, ShaderCap.MAX_TEMPS, ShaderCap.MAX_CONTROL_FLOW_DEPTH)


def test_caps_announce_the_measured_limits(screen, profile):
    limits = limits_for(profile)
    for stage in (ShaderType.VERTEX, ShaderType.FRAGMENT):
        assert screen.get_shader_param(stage, ShaderCap.MAX_INSTRUCTIONS) == limits.max_instructions
        assert screen.get_shader_param(stage, ShaderCap.MAX_TEMPS) == limits.max_temps
        assert screen.get_shader_param(stage, ShaderCap.MAX_CONTROL_FLOW_DEPTH) == limits.max_control_flow_depth
        for cap in _SIZE_CAPS:
            assert screen.get_shader_param(stage, cap) < 2**31 - 1


# -- refusals at create -----------------------------------------------------------------


def _refused(ctx, fs: str, *needles: str) -> ShaderValidationError:
    start = time.perf_counter()
    with pytest.raises(ShaderValidationError) as err:
        ctx.create_fs_state(ShaderState(tokens=fs))
    assert time.perf_counter() - start < 10.0, "the refusal itself must be quick"
    for needle in needles:
        assert needle in str(err.value)
    return err.value


def test_the_65536_register_indirect_array_is_refused_at_create(ctx):
    # The program: the whole 16-bit TEMP space as one array, read once
    # through an address register.
    fs = HEAD + "DCL TEMP[0..65535], ARRAY(1)\nDCL ADDR[0]\nARL ADDR[0].x, IN[0].xxxx\n"
    fs += "MOV OUT[0], TEMP[ADDR[0].x](1)\nEND\n"
    err = _refused(ctx, fs, "MAX_TEMPS", "TEMP[0..65535]", "line 4")
    assert err.line == 4


def test_2000_nested_loops_are_refused_at_create(ctx, screen):
    depth = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_CONTROL_FLOW_DEPTH)
    # Line 1 is FRAG, 2-4 the declarations: loop k (1-based) is on line 4 + k.
    err = _refused(ctx, nested_loops(2000), "MAX_CONTROL_FLOW_DEPTH", f"line {4 + depth + 1}")
    assert err.line == 4 + depth + 1


def test_one_loop_past_the_depth_is_refused_and_the_depth_itself_is_not(ctx, screen):
    depth = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_CONTROL_FLOW_DEPTH)
    ctx.delete_fs_state(ctx.create_fs_state(ShaderState(tokens=nested_loops(depth))))
    _refused(ctx, nested_loops(depth + 1), "MAX_CONTROL_FLOW_DEPTH")


def test_instructions_past_the_cap_are_refused(ctx, screen):
    n = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_INSTRUCTIONS)
    ctx.delete_fs_state(ctx.create_fs_state(ShaderState(tokens=mad_chain(n))))
    # Instruction n (0-based) is the first past the cap; IMM on line 5, MOV on 6.
    err = _refused(ctx, mad_chain(n + 1), "MAX_INSTRUCTIONS", f"instruction {n} ")
    assert err.instruction == n and err.line == 6 + n


def test_temps_past_the_cap_are_refused(ctx, screen):
    n = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_TEMPS)
    _refused(ctx, many_temps(n + 1), "MAX_TEMPS", f"TEMP[0..{n}]")


def test_indirect_array_past_the_host_bound_is_refused(ctx, profile):
    n = limits_for(profile).max_indirect_temp_array
    ctx.delete_fs_state(ctx.create_fs_state(ShaderState(tokens=indirect_array(n))))
    # The indirect read is instruction 3 (line 10); the write, instruction 2, comes first.
    err = _refused(ctx, indirect_array(n + 1), "instruction 2 (MOV, line 9)", f"TEMP[0..{n}]")
    assert err.line == 9


def test_check_limits_without_a_screen():
    """The lowering checks on its own (a CLI or a test lowering without glpipe)."""
    small = ShaderLimits(max_instructions=4, max_temps=2, max_control_flow_depth=1, max_indirect_temp_array=2)
    check_limits(parse(HEAD + "DCL TEMP[0..1]\nMOV TEMP[0], IN[0]\nMOV OUT[0], TEMP[0]\nEND\n"), small)
    with pytest.raises(ShaderValidationError, match="MAX_CONTROL_FLOW_DEPTH"):
        check_limits(parse(nested_loops(2)), small)
    with pytest.raises(ShaderValidationError, match="MAX_TEMPS"):
        check_limits(parse(HEAD + "DCL TEMP[0..2]\nEND\n"), small)


# -- at the limits, the host compiles in bounded time -------------------------------------

_CHILD = """
import json, sys, time
sys.path[:0] = ["tests"]
import numpy as np
import glpipe
from glpipe import DrawInfo, Prim, ShaderState, VertexBuffer
from context.util import read_rgba32f, vertex_buffer
from context.util_draw import setup, vertices
programs = json.loads(sys.stdin.read())
screen = glpipe.create_screen(profile=sys.argv[1])
ctx = screen.context_create()
color = setup(ctx)
verts = vertices([(0, 0), (32, 0), (0, 32)], (0.0, 0.25, 0.5, 0.75))
ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
out = {}
for name, fs in programs.items():
    start = time.perf_counter()
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    pixel = read_rgba32f(screen, color)[0, 0].tolist()
    out[name] = (time.perf_counter() - start, pixel)
print(json.dumps(out))
"""

#: Seconds a shader at the limits may take to create, compile and draw on a machine
#: shared with other work (measured: well under one second when idle; past the
#: limits the same programs took tens of seconds to minutes).
_BOUND = 20.0


def test_shaders_at_the_limits_compile_and_draw_in_bounded_time(profile):
    limits = limits_for(profile)
    programs = {
        "indirect_array": indirect_array(limits.max_indirect_temp_array),
        "nested_loops": nested_loops(limits.max_control_flow_depth),
        "instructions": mad_chain(limits.max_instructions),
        "temps": many_temps(limits.max_temps),
    }
    n = limits.max_instructions - 3
    colour = [0.0, 0.25, 0.5, 0.75]
    expected = {
        "indirect_array": [0.0, 0.0, 0.0, 0.0],
        "nested_loops": colour,
        "instructions": [c + 0.001 * n for c in colour],
        "temps": colour,
    }
    env = dict(os.environ, MESA_SHADER_CACHE_DISABLE="true")
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, profile],
        input=json.dumps(programs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, (seconds, pixel) in results.items():
        assert seconds < _BOUND, f"{name}: {seconds:.1f} s"
        assert pixel == pytest.approx(expected[name], abs=1e-3), name


# -- the GLSL stays linear in the program ---------------------------------------------


def nested_ifs(depth: int) -> str:
    """``depth`` nested IFs around one ADD (the lowering alone: no screen limits apply)."""
    return (
        (HEAD + "DCL TEMP[0]\nMOV TEMP[0], IN[0]\n" + "IF TEMP[0].xxxx\n" * depth + "ADD TEMP[0], TEMP[0], IN[0]\n")
        + "ENDIF\n" * depth
        + "MOV OUT[0], TEMP[0]\nEND\n"
    )


@pytest.mark.parametrize("program", [nested_ifs, nested_loops], ids=["ifs", "loops"])
def test_glsl_size_is_linear_in_the_nesting_depth(program):
    """Doubling the nesting doubles the GLSL (plus a constant), never quadruples it:
    indentation is capped, so 2,000 nested loops are not 16 MB of spaces."""
    from lowering import to_glsl

    small, big = (len(to_glsl(program(d), 450).source) for d in (500, 1000))
    assert big < 2.2 * small, (small, big)
    assert big < 60 * len(program(1000)), "the GLSL of a deep program is a small multiple of its TGSI"
