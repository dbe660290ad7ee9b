"""Host settings that must be in place before the GL driver loads.

Most host quirks (glpipe/host/quirks.py) are worked around in what glpipe
sends to the host.  A few live below GL, in the driver's code generator, and
can only be avoided by configuring the driver; Mesa reads such settings from
the environment once, when the driver is first loaded into the process
(``util_cpu_detect`` and gallivm's ``lp_init_env_options`` run once per
process).  So glpipe sets them (``apply``) when it is imported and again
checks just before it makes its first GL context, if

* the application did not opt out: ``GLPIPE_HOST_PRELOAD=off`` (on by default),
* the user has not set the variable (a user's value always wins), nor made
  the row pointless (a ``GALLIUM_OVERRIDE_CPU_CAPS`` that masks the CPU
  feature the quirk needs),
* the CPU has the row's feature flag and the driver will be Mesa's software
  rasterizer (no GPU render node, or asked for by ``LIBGL_ALWAYS_SOFTWARE`` /
  ``GALLIUM_DRIVER``),
* the driver's LLVM release -- read from the driver library on disk
  (``driver_llvm_version``), since GL_RENDERER is known only once the driver
  is loaded -- is in the affected range of the row's quirk in
  glpipe/host/quirks.py (an unreadable version counts as affected), and
* the process has not loaded a Mesa driver yet (afterwards the setting would
  not be read: glpipe warns once, ``PreloadWarning``, and says so in
  ``status`` and ``python -m glpipe info``).

The rows (``PRELOAD``):

``llvmpipe_avx2_gather``
    the quirk ``llvmpipe_avx2_gather`` (glpipe/host/quirks.py): LLVM 15's
    optimising code generator gives an AVX2 ``vpgatherdd`` the same register
    for its mask and its index (by all appearances its register coalescing),
    an encoding the CPU refuses: SIGILL at a draw.  Mesa emits that gather
    (``lp_build_gather_avx2``, an all-ones constant mask) whenever the CPU
    has AVX2.  ``GALLIVM_PERF=nopt`` makes gallivm compile its shaders
    without LLVM's optimisation passes and with LLVM's -O0 code generator
    (``CodeGenOpt::None``: the fast register allocator, no register
    coalescing), which kept the two apart in every test and campaign run.
    The instruction set stays the CPU's (AVX2, FMA, F16C, AVX-512), so the
    results the host defines for itself -- NaN payloads of its instructions,
    out-of-range conversions, BC6H denormals -- stay what they are without
    the setting (only which NaN an unfused multiply-add keeps when both
    halves are NaN follows the operand order the -O0 generator picks, a
    choice IEEE 754 leaves open).  It costs about 1.4x on fill-bound work
    (docs/performance.md).  The alternative ``GALLIUM_OVERRIDE_CPU_CAPS=sse4.1``
    also avoids the crash (no AVX at all) but changes those results and
    costs about 1.7x; Mesa has no setting that masks AVX2 alone (``avx``
    masks AVX-512 only and does not avoid it).
    Test: tests/test_host_preload.py.
"""

from __future__ import annotations

import os
import platform
import re
import struct
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

from .quirks import BY_FACT, Quirk

#: Set to "off" to keep glpipe from configuring the driver before it loads (on by default).
PRELOAD_ENV = "GLPIPE_HOST_PRELOAD"
_OFF = ("off", "0", "no", "false")

#: Shared objects whose presence in the process means Mesa's driver is loaded
#: (its settings have been read already).
_MESA_LIBRARIES = ("libgallium", "swrast_dri", "_dri.so", "libvulkan_lvp")

#: GALLIUM_OVERRIDE_CPU_CAPS values that leave the CPU without AVX, hence without
#: AVX2 (Mesa's util/u_cpu_detect.c ``check_cpu_caps_override``: each value masks
#: the next feature and everything above it; "avx" masks AVX-512 only).
_CAPS_WITHOUT_AVX2 = ("nosse", "sse", "sse2", "sse3", "ssse3", "sse4.1")


class PreloadWarning(RuntimeWarning):
    """A driver setting glpipe needs could not be made: the driver was loaded first."""


@dataclass(frozen=True)
class Preload:
    """One driver setting: ``variable`` = ``value`` against host quirk ``quirk``
    (a fact of glpipe/host/quirks.py), where ``cpu_flag`` is a flag of the CPU
    (``/proc/cpuinfo``), with why (``what``)."""

    name: str
    variable: str
    value: str
    cpu_flag: str
    quirk: str
    what: str


PRELOAD: tuple[Preload, ...] = (
    Preload(
        name="llvmpipe_avx2_gather",
        variable="GALLIVM_PERF",
        value="nopt",
        cpu_flag="avx2",
        quirk="llvmpipe_avx2_gather",
        what="llvmpipe (LLVM 15) JIT-compiles texel fetches into AVX2 gathers the CPU refuses (SIGILL)",
    ),
)

#: What ``apply`` decided, per row name: "set", "user" (the user set the
#: variable), "masked" (the user's GALLIUM_OVERRIDE_CPU_CAPS masks the CPU
#: flag), "late" (a driver was loaded already), "off", "no cpu flag", "gpu" (a
#: GPU driver will load, not llvmpipe), "version" (the driver's LLVM is outside
#: the quirk's range).
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


# -- the driver's LLVM release, read from its library before it loads -----------------

_LLVM_SONAME = re.compile(r"^libLLVM(?:-(\d+)(?:\.(\d+))?(?:\.(\d+))?[.\w]*\.so|\.so\.(\d+)(?:\.(\d+))?)")


def elf_needed(path: str) -> list[str]:
    """The DT_NEEDED entries (sonames) of the ELF shared object at ``path``:
    the program headers' PT_DYNAMIC entries, their strings looked up through
    the PT_LOAD segment holding DT_STRTAB.  [] for anything that is not a
    readable little-endian ELF file."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
            if len(head) < 52 or head[:4] != b"\x7fELF" or head[5] != 1:
                return []
            wide = head[4] == 2  # ELFCLASS64
            if wide:
                phoff, phentsize, phnum = struct.unpack_from("<Q", head, 32)[0], *struct.unpack_from("<HH", head, 54)
            else:
                phoff, phentsize, phnum = struct.unpack_from("<I", head, 28)[0], *struct.unpack_from("<HH", head, 42)
            fh.seek(phoff)
            table = fh.read(phentsize * phnum)
            loads, dynamic = [], None
            for i in range(phnum):
                at = i * phentsize
                if wide:
                    p_type, _, offset, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", table, at)
                else:
                    p_type, offset, vaddr, _, filesz = struct.unpack_from("<IIIII", table, at)
                if p_type == 1:  # PT_LOAD
                    loads.append((vaddr, offset, filesz))
                elif p_type == 2:  # PT_DYNAMIC
                    dynamic = (offset, filesz)
            if dynamic is None:
                return []
            fh.seek(dynamic[0])
            raw = fh.read(dynamic[1])
            fmt = "<qQ" if wide else "<iI"
            size = struct.calcsize(fmt)
            needed, strtab = [], None
            for at in range(0, len(raw) - size + 1, size):
                tag, val = struct.unpack_from(fmt, raw, at)
                if tag == 0:  # DT_NULL
                    break
                if tag == 1:  # DT_NEEDED
                    needed.append(val)
                elif tag == 5:  # DT_STRTAB (a virtual address)
                    strtab = val
            if strtab is None:
                return []
            base = next((off + strtab - va for va, off, sz in loads if va <= strtab < va + sz), None)
            if base is None:
                return []
            names = []
            for index in needed:
                fh.seek(base + index)
                names.append(fh.read(256).split(b"\0", 1)[0].decode("ascii", "replace"))
            return names
    except (OSError, struct.error):
        return []


def driver_libraries(environ) -> list[str]:
    """Where Mesa's software rasterizer would be loaded from, most likely first:
    ``swrast_dri.so`` in each directory of ``LIBGL_DRIVERS_PATH``, then in the
    usual driver directories (Mesa's EGL searches these)."""
    dirs = [d for d in environ.get("LIBGL_DRIVERS_PATH", "").split(":") if d]
    multiarch = getattr(sys.implementation, "_multiarch", "")
    for lib in (f"/usr/lib/{multiarch}", "/usr/lib64", "/usr/lib", f"/usr/local/lib/{multiarch}", "/usr/local/lib"):
        dirs.append(f"{lib}/dri")
    return [f"{d}/swrast_dri.so" for d in dict.fromkeys(dirs) if os.path.isfile(f"{d}/swrast_dri.so")]


def driver_llvm_version(environ=None) -> tuple[int, ...] | None:
    """The LLVM release the software rasterizer is linked with, from the
    driver library's DT_NEEDED (``libLLVM-15.so.1`` -> (15,);
    ``libLLVM.so.18.1`` -> (18, 1)), following Mesa's ``libgallium-*.so``
    (Mesa 24.1 on) one level; None when it cannot be told (no driver found,
    LLVM linked statically)."""
    environ = os.environ if environ is None else environ
    for path in driver_libraries(environ):
        names = elf_needed(path)
        for name in names:
            if name.startswith("libgallium"):
                names = names + elf_needed(os.path.join(os.path.dirname(os.path.dirname(path)), name))
        for name in names:
            found = llvm_from_soname(name)
            if found is not None:
                return found
        return None  # the first driver found is the one that loads
    return None


def llvm_from_soname(name: str) -> tuple[int, ...] | None:
    """The LLVM release in a library name: ``libLLVM-15.so.1`` (Debian) -> (15,),
    ``libLLVM-14.0.6.so.1`` -> (14, 0, 6), ``libLLVM.so.18.1`` -> (18, 1); None
    for any other library."""
    m = _LLVM_SONAME.match(name)
    if m is None:
        return None
    return tuple(int(g) for g in m.groups() if g is not None)


# -- the decision ------------------------------------------------------------------------


def decide(
    row: Preload,
    environ,
    flags: frozenset[str],
    loaded: bool,
    machine: str,
    software: bool = True,
    llvm: tuple[int, ...] | None = None,
    quirk: Quirk | None = None,
) -> str:
    """What to do with ``row``: "set" or why not (see ``status``).  ``llvm`` is
    the driver's LLVM release (None: unknown, counted as affected), checked
    against ``quirk`` (default: the row's quirk in glpipe/host/quirks.py)."""
    if environ.get(PRELOAD_ENV, "").lower() in _OFF:
        return "off"
    if row.variable in environ:
        return "user"
    if row.cpu_flag == "avx2" and (
        environ.get("GALLIUM_OVERRIDE_CPU_CAPS", "") in _CAPS_WITHOUT_AVX2
        or environ.get("GALLIUM_NOSSE", "").lower() in ("1", "true", "yes", "y")
    ):
        return "masked"
    if machine.lower() not in ("x86_64", "amd64", "i686", "i386") or row.cpu_flag not in flags:
        return "no cpu flag"
    if not software:
        return "gpu"
    if not (quirk or BY_FACT[row.quirk]).in_range(llvm):
        return "version"
    if loaded:
        return "late"
    return "set"


def apply() -> dict[str, str]:
    """Set the rows' variables that apply (at ``import glpipe`` and before
    glpipe's first GL context: glpipe/host/gl.py, glpipe/window.py); returns
    ``status``.  Decided once per process: later calls return the first
    answer.  A row that would apply but finds the driver loaded already
    warns once (``PreloadWarning``)."""
    if status:
        return status
    flags, loaded, machine = cpu_flags(), driver_loaded(), platform.machine()
    software = software_driver(os.environ)
    llvm = driver_llvm_version() if software else None
    for row in PRELOAD:
        verdict = decide(row, os.environ, flags, loaded, machine, software, llvm)
        if verdict == "set":
            os.environ[row.variable] = row.value
        elif verdict == "late":
            warnings.warn(
                f"glpipe: {row.variable}={row.value} was not applied: a Mesa driver was loaded before "
                f"glpipe was imported, so {row.what}. Set {row.variable}={row.value} in the environment "
                f"before the process's first GL context, or import glpipe first (docs/host.md).",
                PreloadWarning,
                stacklevel=2,
            )
        status[row.name] = verdict
    return status


def without_settings(environ=None) -> dict[str, str]:
    """A copy of ``environ`` (default: this process's) without the variables
    ``apply`` set and with ``GLPIPE_HOST_PRELOAD=off``: the environment of a
    child process that must run the driver as it comes (the quirk tests)."""
    environ = dict(os.environ if environ is None else environ)
    for row in PRELOAD:
        if status.get(row.name) == "set":
            environ.pop(row.variable, None)
    environ[PRELOAD_ENV] = "off"
    return environ


def describe() -> list[str]:
    """One line per row for ``python -m glpipe info``."""
    words = {
        "set": "applied",
        "user": "left to the user's setting",
        "masked": "not needed: the user's GALLIUM_OVERRIDE_CPU_CAPS / GALLIUM_NOSSE masks AVX2",
        "late": "NOT applied: a Mesa driver was loaded before glpipe was imported",
        "off": f"not applied ({PRELOAD_ENV}=off)",
        "no cpu flag": "not needed on this CPU",
        "gpu": "not needed: a GPU driver is expected (a render node exists)",
        "version": "not needed: the driver's LLVM release is outside the quirk's range",
    }
    lines = []
    for row in PRELOAD:
        said = words.get(status.get(row.name, ""), "not decided yet")
        lines.append(f"{row.name}: {row.variable}={row.value} {said} -- {row.what}")
    return lines
