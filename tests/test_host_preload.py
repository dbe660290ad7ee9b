"""Driver settings glpipe makes before the host driver loads (glpipe/host/preload.py).

The row ``llvmpipe_avx2_gather``: two fuzzed fragment shaders drawn one after
the other (tests/fuzz/regress/gather_sigill_*.tgsi, seeds 6022513 and 6023193 of
issue 12's campaign, with no sampler views bound) killed the process with
SIGILL inside llvmpipe's JIT code (an AVX2 gather whose mask is its index).  They run in child
interpreters, so the suite survives and sees the exit status.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys

import pytest

from glpipe.host import preload

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGRESS = os.path.join(ROOT, "tests", "fuzz", "regress")

# Draws the two programs in one context, as the fuzzer's worker did; prints what
# preload decided, the variable's value and each outcome as JSON.
_DRAW_SEQUENCE = """
import json, os, sys
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
from tests.fuzz.tgsi_runner import HostDraw
from glpipe.host import preload
host = HostDraw(sys.argv[1])
outcomes = [host.run(open(path).read()) for path in sys.argv[2:]]
print(json.dumps({"status": preload.status, "caps": os.environ.get("GALLIUM_OVERRIDE_CPU_CAPS"),
                  "renderer": host.screen.host.profile.renderer, "outcomes": outcomes}))
"""

# A ModernGL context made first loads the driver: glpipe comes too late.
_LATE = """
import json, os
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import moderngl
other = moderngl.create_context(standalone=True, backend="egl")
import glpipe
from glpipe.host import preload
screen = glpipe.create_screen()
print(json.dumps({"status": preload.status, "caps": os.environ.get("GALLIUM_OVERRIDE_CPU_CAPS"),
                  "lines": preload.describe()}))
"""


def _child(code: str, *args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("GALLIUM_OVERRIDE_CPU_CAPS", preload.PRELOAD_ENV)}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
    )


def _programs() -> list[str]:
    return [os.path.join(REGRESS, n) for n in ("gather_sigill_before.tgsi", "gather_sigill_draw.tgsi")]


def _applies() -> bool:
    """Whether the row applies to this machine's CPU."""
    return (
        preload.decide(
            preload.PRELOAD[0], _ON, preload.cpu_flags(), False, platform.machine(), preload.software_driver(os.environ)
        )
        == "set"
    )


# -- the decision, from its inputs ------------------------------------------------------

_ROW = preload.PRELOAD[0]
_ON = {preload.PRELOAD_ENV: "on"}


@pytest.mark.parametrize(
    ("environ", "flags", "loaded", "machine", "software", "verdict"),
    [
        (_ON, {"sse2", "avx2", "avx512f"}, False, "x86_64", True, "set"),
        (_ON, {"sse2", "avx"}, False, "x86_64", True, "no cpu flag"),  # no AVX2: Mesa emits no AVX2 gather
        (_ON, {"avx2"}, False, "aarch64", True, "no cpu flag"),  # not x86
        ({**_ON, "GALLIUM_OVERRIDE_CPU_CAPS": "avx"}, {"avx2"}, False, "x86_64", True, "user"),  # the user's wins
        ({}, {"avx2"}, False, "x86_64", True, "off"),  # off unless asked for
        ({"GLPIPE_HOST_PRELOAD": "off"}, {"avx2"}, False, "x86_64", True, "off"),
        ({"GLPIPE_HOST_PRELOAD": "ON"}, {"avx2"}, False, "x86_64", True, "set"),
        (_ON, {"avx2"}, False, "x86_64", False, "gpu"),  # a GPU driver will load, not llvmpipe
        (_ON, {"avx2"}, True, "x86_64", True, "late"),  # the driver has read its settings already
    ],
)
def test_decide(environ, flags, loaded, machine, software, verdict):
    assert preload.decide(_ROW, environ, frozenset(flags), loaded, machine, software) == verdict


def test_software_driver_from_environment_and_render_nodes():
    assert preload.software_driver({}, [])  # no GPU: Mesa's software rasterizer
    assert not preload.software_driver({}, ["/dev/dri/renderD128"])
    assert preload.software_driver({"LIBGL_ALWAYS_SOFTWARE": "1"}, ["/dev/dri/renderD128"])
    assert preload.software_driver({"GALLIUM_DRIVER": "llvmpipe"}, ["/dev/dri/renderD128"])


def test_cpu_flags_and_driver_loaded_parse_the_proc_files():
    cpuinfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 avx2 avx512f avx512vl\n\n"
    assert preload.cpu_flags(cpuinfo) == {"fpu", "sse2", "avx2", "avx512f", "avx512vl"}
    assert preload.cpu_flags("processor : 0\n") == frozenset()
    maps = "7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so\n"
    assert preload.driver_loaded(maps)
    assert not preload.driver_loaded("7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/libc.so.6\n")


def test_describe_names_every_row_and_its_variable():
    lines = preload.describe()
    assert len(lines) == len(preload.PRELOAD)
    for row, line in zip(preload.PRELOAD, lines, strict=True):
        assert line.startswith(f"{row.name}: {row.variable}={row.value} ")


# -- the row, on this host ----------------------------------------------------------------


@pytest.mark.parametrize("profile", ["native", "gl33"])
def test_the_fuzzed_sequence_draws(profile):
    """With glpipe's setting asked for the two programs draw, on both
    profiles, and the variable is set exactly where the row applies."""
    proc = _child(_DRAW_SEQUENCE, profile, *_programs(), env_extra=_ON)
    assert proc.returncode == 0, f"the draws killed the child (status {proc.returncode}): {proc.stderr[-1500:]}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["outcomes"] == ["drawn", "drawn"]
    if _applies():
        assert result["status"] == {"llvmpipe_avx2_gather": "set"}
        assert result["caps"] == "sse4.1"
    else:
        assert result["caps"] is None


def test_the_quirk_is_real_on_this_host():
    """Without the setting the sequence dies with SIGILL where the row was
    found (llvmpipe, LLVM 15, AVX2).  When a later LLVM stops doing it, this
    test fails on that host: then record the fixed release in the row."""
    probe = _child(_DRAW_SEQUENCE, "native", *_programs())  # off: the default
    renderer = ""
    if probe.returncode == 0:
        renderer = json.loads(probe.stdout.strip().splitlines()[-1])["renderer"]
    found_on = _applies() and (probe.returncode != 0 or re.search(r"llvmpipe \(LLVM 15\.", renderer))
    if not found_on:
        pytest.skip("the row's conditions (llvmpipe with LLVM 15 on an AVX2 CPU) do not hold on this host")
    assert probe.returncode == -4, (probe.returncode, probe.stderr[-800:])  # SIGILL


def test_a_driver_loaded_first_is_reported_not_changed():
    proc = _child(_LATE, env_extra=_ON)
    assert proc.returncode == 0, proc.stderr[-1500:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["caps"] is None  # setting it now would be read by nobody
    if _applies():
        assert result["status"] == {"llvmpipe_avx2_gather": "late"}
        assert "NOT applied" in result["lines"][0]
