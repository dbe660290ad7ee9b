"""Host settings that must be in place before the GL driver loads.

Most host quirks (glpipe/host/quirks.py) are worked around in what glpipe
sends to the host.  A few live below GL, in the driver's code generator, and
can only be avoided by configuring the driver; Mesa reads such settings from
the environment once, when the driver is first loaded into the process
(``util_cpu_detect`` runs once per process).  So glpipe sets them just before
it makes its first GL context (``apply``), if

* the application asked for it: ``GLPIPE_HOST_PRELOAD=on`` (off by default:
  the one row changes more of the host than the crash it avoids, below),
* the process has not loaded a Mesa driver yet (afterwards the setting would
  not be read, and glpipe says so in ``status``),
* the user has not set the variable (a user's value always wins), and
* the driver will be Mesa's software rasterizer (no GPU render node, or
  asked for by ``LIBGL_ALWAYS_SOFTWARE`` / ``GALLIUM_DRIVER``).

The rows (``PRELOAD``):

``llvmpipe_avx2_gather``
    llvmpipe built with LLVM 15 (Mesa 22.3.6 with LLVM 15.0.6 on this
    project's CI machine) JIT-compiles some texel fetches into an AVX2
    ``vpgatherdd`` whose mask register is also its index register -- an
    encoding the CPU refuses, so the process dies with SIGILL (sometimes
    SIGSEGV) at a draw.  Issue 12's TGSI fuzzer hit it about once in a
    thousand programs, depending on what the process drew before (llvmpipe
    keys its shader variants by texture state); gdb shows the faulting
    instruction.  Mesa emits that gather (``lp_build_gather_avx2``) only
    when the CPU has AVX2, so ``GALLIUM_OVERRIDE_CPU_CAPS=sse4.1`` (Mesa
    then uses SSE4.1 and 128-bit vectors; GL_RENDERER says "128 bits")
    avoids it.  Masking AVX-512 alone (``avx``) does not: the fuzzer still
    found the same instruction.  It is not the default because it changes
    llvmpipe's results where they are the host's choice: which NaN payload
    an operation keeps, what an out-of-range float-to-uint64 conversion
    gives, half-float denormals in BC6H decoding (flushed without F16C) --
    glpipe's soft fp64 / int64 match the default host bit for bit -- and it
    costs llvmpipe's fill rate (docs/performance.md).  Fuzzing campaigns turn
    it on (docs/robustness.md).  Which LLVM release fixes it is not known, and the
    LLVM version cannot be read before the driver loads, so the row applies
    on every x86 CPU with AVX2 when the driver is going to be llvmpipe: no
    GPU render node (``/dev/dri/renderD*``) or ``LIBGL_ALWAYS_SOFTWARE`` /
    ``GALLIUM_DRIVER=llvmpipe`` set.  Test: tests/test_host_preload.py.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from pathlib import Path

#: Set to "on" to let glpipe configure the driver before it loads (off by default).
PRELOAD_ENV = "GLPIPE_HOST_PRELOAD"

#: Shared objects whose presence in the process means Mesa's driver is loaded
#: (its settings have been read already).
_MESA_LIBRARIES = ("libgallium", "swrast_dri", "_dri.so", "libvulkan_lvp")


@dataclass(frozen=True)
class Preload:
    """One driver setting: ``variable`` = ``value`` where ``cpu_flag`` is a
    flag of the CPU (``/proc/cpuinfo``), with why (``what``)."""

    name: str
    variable: str
    value: str
    cpu_flag: str
    what: str


PRELOAD: tuple[Preload, ...] = (
    Preload(
        name="llvmpipe_avx2_gather",
        variable="GALLIUM_OVERRIDE_CPU_CAPS",
        value="sse4.1",
        cpu_flag="avx2",
        what="llvmpipe (LLVM 15) JIT-compiles texel fetches into AVX2 gathers the CPU refuses (SIGILL)",
    ),
)

#: What ``apply`` decided, per row name: "set", "user" (the user set the
#: variable), "late" (a driver was loaded already), "off", "no cpu flag",
#: "gpu" (a GPU driver will load, not llvmpipe).
status: dict[str, str] = {}


def cpu_flags(cpuinfo: str | None = None) -> frozenset[str]:
    """The CPU's feature flags from ``/proc/cpuinfo`` (empty where there is none)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return frozenset()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return frozenset()


def driver_loaded(maps: str | None = None) -> bool:
    """Whether a Mesa driver is mapped into this process (``/proc/self/maps``)."""
    if maps is None:
        try:
            maps = Path("/proc/self/maps").read_text()
        except OSError:
            return False  # not Linux: nothing to tell; act as before any load
    return any(lib in maps for lib in _MESA_LIBRARIES)


def software_driver(environ, render_nodes: list[str] | None = None) -> bool:
    """Whether the driver Mesa will load is its software rasterizer: asked for
    (``LIBGL_ALWAYS_SOFTWARE``, ``GALLIUM_DRIVER``), or no GPU render node."""
    if environ.get("LIBGL_ALWAYS_SOFTWARE", "").lower() in ("1", "true", "yes"):
        return True
    if environ.get("GALLIUM_DRIVER", "").lower() in ("llvmpipe", "softpipe"):
        return True
    if render_nodes is None:
        render_nodes = [str(p) for p in Path("/dev/dri").glob("renderD*")] if Path("/dev/dri").is_dir() else []
    return not render_nodes


def decide(row: Preload, environ, flags: frozenset[str], loaded: bool, machine: str, software: bool = True) -> str:
    """What to do with ``row``: "set" or why not (see ``status``)."""
    if environ.get(PRELOAD_ENV, "").lower() not in ("on", "1", "yes"):
        return "off"
    if row.variable in environ:
        return "user"
    if machine.lower() not in ("x86_64", "amd64", "i686", "i386") or row.cpu_flag not in flags:
        return "no cpu flag"
    if not software:
        return "gpu"
    if loaded:
        return "late"
    return "set"


def apply() -> dict[str, str]:
    """Set the rows' variables that apply, before glpipe's first GL context
    (glpipe/host/gl.py, glpipe/window.py); returns ``status``.  Decided
    once per process: later calls return the first answer."""
    if status:
        return status
    flags, loaded, machine = cpu_flags(), driver_loaded(), platform.machine()
    software = software_driver(os.environ)
    for row in PRELOAD:
        verdict = decide(row, os.environ, flags, loaded, machine, software)
        if verdict == "set":
            os.environ[row.variable] = row.value
        status[row.name] = verdict
    return status


def describe() -> list[str]:
    """One line per row for ``python -m glpipe info``."""
    words = {
        "set": "applied",
        "user": "left to the user's setting",
        "late": "NOT applied: a Mesa driver was loaded before glpipe's first context",
        "off": f"not applied (opt in with {PRELOAD_ENV}=on)",
        "no cpu flag": "not needed on this CPU",
        "gpu": "not needed: a GPU driver is expected (a render node exists)",
    }
    lines = []
    for row in PRELOAD:
        said = words.get(status.get(row.name, ""), "not decided yet (glpipe has made no GL context)")
        lines.append(f"{row.name}: {row.variable}={row.value} {said} -- {row.what}")
    return lines
