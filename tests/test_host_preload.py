"""Driver settings glpipe makes before the host driver loads (glpipe/host/preload.py).

The row ``llvmpipe_avx2_gather``: two fuzzed fragment shaders drawn one after
the other (tests/fuzz/regress/gather_sigill_*.tgsi, seeds 6022513 and 6023193 of
issue 12's campaign, with no sampler views bound) killed the process with
SIGILL inside llvmpipe's JIT code (an AVX2 gather whose mask is its index).  They run in child
interpreters, so the suite survives and sees the exit status.  The setting
(``GALLIVM_PERF=nopt``) is on by default where the row applies, and must leave
every result the host defines for itself as it is without it.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import struct
import subprocess
import sys

import pytest

from glpipe.host import preload, quirks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGRESS = os.path.join(ROOT, "tests", "fuzz", "regress")

# The variables a child must not inherit from this process (which imported
# glpipe, so the default may have set the row's variable here).
_SCRUBBED = ("GALLIUM_OVERRIDE_CPU_CAPS", "GALLIVM_PERF", "GALLIUM_NOSSE", preload.PRELOAD_ENV)

# Draws the two programs in one context, as the fuzzer's worker did; prints what
# preload decided, the variables' values and each outcome as JSON.
_DRAW_SEQUENCE = """
import json, os, sys
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
from tests.fuzz.tgsi_runner import HostDraw
from glpipe.host import preload
host = HostDraw(sys.argv[1])
outcomes = [host.run(open(path).read()) for path in sys.argv[2:]]
print(json.dumps({"status": preload.status, "perf": os.environ.get("GALLIVM_PERF"),
                  "caps": os.environ.get("GALLIUM_OVERRIDE_CPU_CAPS"),
                  "renderer": host.screen.host.profile.renderer, "outcomes": outcomes}))
"""

# A ModernGL context made before glpipe is imported loads the driver: glpipe comes
# too late, and says so once.
_LATE = """
import json, os, warnings
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import moderngl
other = moderngl.create_context(standalone=True, backend="egl")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import glpipe
    from glpipe.host import preload
    screen = glpipe.create_screen()
    screen2 = glpipe.create_screen()
print(json.dumps({"status": preload.status, "perf": os.environ.get("GALLIVM_PERF"),
                  "warnings": [[type(w.message).__name__, str(w.message)] for w in caught],
                  "lines": preload.describe()}))
"""

# glpipe imported, then the application's own context: it gets the setting too.
_IMPORT_FIRST = """
import json, os
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
import glpipe
from glpipe.host import preload
import moderngl
other = moderngl.create_context(standalone=True, backend="egl")
print(json.dumps({"status": preload.status, "perf": os.environ.get("GALLIVM_PERF"),
                  "renderer": other.info["GL_RENDERER"], "driver_llvm": preload.driver_llvm_version()}))
"""


def _child(code: str, *args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
    )


def _result(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, f"the child died (status {proc.returncode}): {proc.stderr[-1500:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _programs() -> list[str]:
    return [os.path.join(REGRESS, n) for n in ("gather_sigill_before.tgsi", "gather_sigill_draw.tgsi")]


_ROW = preload.PRELOAD[0]
_QUIRK = quirks.BY_FACT[_ROW.quirk]


def _applies() -> bool:
    """Whether the row applies to this machine (CPU, driver, LLVM release), by default."""
    software = preload.software_driver(os.environ)
    return (
        preload.decide(
            _ROW,
            {},
            preload.cpu_flags(),
            False,
            platform.machine(),
            software,
            preload.driver_llvm_version() if software else None,
        )
        == "set"
    )


# -- the decision, from its inputs ------------------------------------------------------

_OFF = {preload.PRELOAD_ENV: "off"}
_FIXED_AT_16 = quirks.Quirk("q", r"^llvmpipe\b", (0,), (16,), "w", "f", "t", "e", version_of="llvm")


@pytest.mark.parametrize(
    ("environ", "flags", "loaded", "machine", "software", "llvm", "verdict"),
    [
        ({}, {"sse2", "avx2", "avx512f"}, False, "x86_64", True, (15,), "set"),  # on by default
        ({preload.PRELOAD_ENV: "on"}, {"avx2"}, False, "x86_64", True, (15,), "set"),
        ({}, {"avx2"}, False, "x86_64", True, None, "set"),  # LLVM release unknown: assume affected
        ({}, {"sse2", "avx"}, False, "x86_64", True, (15,), "no cpu flag"),  # no AVX2: no AVX2 gather
        ({}, {"avx2"}, False, "aarch64", True, (15,), "no cpu flag"),  # not x86
        ({"GALLIVM_PERF": "no_quad_lod"}, {"avx2"}, False, "x86_64", True, (15,), "user"),  # the user's wins
        ({"GALLIVM_PERF": ""}, {"avx2"}, False, "x86_64", True, (15,), "user"),
        ({"GALLIUM_OVERRIDE_CPU_CAPS": "sse4.1"}, {"avx2"}, False, "x86_64", True, (15,), "masked"),
        ({"GALLIUM_OVERRIDE_CPU_CAPS": "sse2"}, {"avx2"}, False, "x86_64", True, (15,), "masked"),
        ({"GALLIUM_NOSSE": "1"}, {"avx2"}, False, "x86_64", True, (15,), "masked"),
        # "avx" masks AVX-512 only (util/u_cpu_detect.c): AVX2 gathers remain
        ({"GALLIUM_OVERRIDE_CPU_CAPS": "avx"}, {"avx2"}, False, "x86_64", True, (15,), "set"),
        (_OFF, {"avx2"}, False, "x86_64", True, (15,), "off"),
        ({preload.PRELOAD_ENV: "OFF"}, {"avx2"}, False, "x86_64", True, (15,), "off"),
        ({preload.PRELOAD_ENV: "0"}, {"avx2"}, False, "x86_64", True, (15,), "off"),
        ({}, {"avx2"}, False, "x86_64", False, (15,), "gpu"),  # a GPU driver will load, not llvmpipe
        ({}, {"avx2"}, True, "x86_64", True, (15,), "late"),  # the driver has read its settings already
    ],
)
def test_decide(environ, flags, loaded, machine, software, llvm, verdict):
    assert preload.decide(_ROW, environ, frozenset(flags), loaded, machine, software, llvm) == verdict


def test_decide_keys_the_row_by_the_quirks_llvm_range():
    """Once a release is recorded as fixed, hosts from it on are left alone."""
    for llvm, verdict in (((15, 0, 6), "set"), ((16,), "version"), ((18, 1), "version"), (None, "set")):
        got = preload.decide(_ROW, {}, frozenset({"avx2"}), False, "x86_64", True, llvm, quirk=_FIXED_AT_16)
        assert got == verdict, llvm


def test_the_quirk_row_is_keyed_by_llvmpipe_and_its_llvm_release():
    assert _QUIRK.version_of == "llvm" and _QUIRK.cpu_flag == _ROW.cpu_flag
    assert _QUIRK.matches("llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa 22.3.6")
    assert not _QUIRK.matches("AMD Radeon RX 6600 (radeonsi, navi23, LLVM 15.0.6)", "4.6 Mesa 22.3.6")
    # a fixed release is read from GL_RENDERER's LLVM, not from the Mesa release
    assert _FIXED_AT_16.matches("llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa 24.0.0")
    assert not _FIXED_AT_16.matches("llvmpipe (LLVM 16.0.1, 256 bits)", "4.5 (Core Profile) Mesa 22.3.6")
    assert _FIXED_AT_16.matches("llvmpipe", "4.5")  # no LLVM release named: assumed affected
    assert quirks.llvm_version("llvmpipe (LLVM 15.0.6, 128 bits)") == (15, 0, 6)
    assert quirks.llvm_version("softpipe") is None


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


# -- the driver's LLVM release, read before it loads --------------------------------------


def _tiny_elf(wide: bool, needed: list[str]) -> bytes:
    """A minimal little-endian ELF shared object: a PT_LOAD mapping the file at
    virtual address 0x1000 and a PT_DYNAMIC naming ``needed`` (the layout of the
    System V ABI's ELF header and program headers, written out by hand)."""
    dynstr = b"\0" + b"".join(n.encode() + b"\0" for n in needed)
    str_off, dyn_off, base = 256, 512, 0x1000
    offsets, at = [], 1
    for n in needed:
        offsets.append(at)
        at += len(n) + 1
    entries = [(1, o) for o in offsets] + [(5, base + str_off), (0, 0)]
    if wide:
        dyn = b"".join(struct.pack("<qQ", t, v) for t, v in entries)
        ident = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
        header = ident + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 64, 0, 0, 64, 56, 2, 64, 0, 0)
        size = dyn_off + len(dyn)
        phdrs = struct.pack("<IIQQQQQQ", 1, 5, 0, base, base, size, size, 0x1000)
        phdrs += struct.pack("<IIQQQQQQ", 2, 6, dyn_off, base + dyn_off, base + dyn_off, len(dyn), len(dyn), 8)
    else:
        dyn = b"".join(struct.pack("<iI", t, v) for t, v in entries)
        ident = b"\x7fELF" + bytes([1, 1, 1]) + bytes(9)
        header = ident + struct.pack("<HHIIIIIHHHHHH", 3, 3, 1, 0, 52, 0, 0, 52, 32, 2, 40, 0, 0)
        size = dyn_off + len(dyn)
        phdrs = struct.pack("<IIIIIIII", 1, 0, base, base, size, size, 5, 0x1000)
        phdrs += struct.pack("<IIIIIIII", 2, dyn_off, base + dyn_off, base + dyn_off, len(dyn), len(dyn), 6, 4)
    blob = bytearray(size)
    blob[: len(header)] = header
    blob[len(header) : len(header) + len(phdrs)] = phdrs
    blob[str_off : str_off + len(dynstr)] = dynstr
    blob[dyn_off:size] = dyn
    return bytes(blob)


@pytest.mark.parametrize("wide", [True, False], ids=["elf64", "elf32"])
def test_elf_needed_reads_the_dynamic_section(tmp_path, wide):
    path = tmp_path / "swrast_dri.so"
    path.write_bytes(_tiny_elf(wide, ["libglapi.so.0", "libLLVM-15.so.1", "libc.so.6"]))
    assert preload.elf_needed(str(path)) == ["libglapi.so.0", "libLLVM-15.so.1", "libc.so.6"]
    (tmp_path / "junk.so").write_bytes(b"not an ELF file at all, just bytes" * 4)
    assert preload.elf_needed(str(tmp_path / "junk.so")) == []
    assert preload.elf_needed(str(tmp_path / "missing.so")) == []


def test_driver_llvm_version_follows_libgallium(tmp_path):
    """Mesa 24.1 on: swrast_dri.so needs libgallium-<release>.so, which needs LLVM."""
    dri = tmp_path / "dri"
    dri.mkdir()
    (dri / "swrast_dri.so").write_bytes(_tiny_elf(True, ["libgallium-24.1.0.so", "libc.so.6"]))
    (tmp_path / "libgallium-24.1.0.so").write_bytes(_tiny_elf(True, ["libLLVM.so.18.1", "libc.so.6"]))
    environ = {"LIBGL_DRIVERS_PATH": str(dri)}
    assert preload.driver_libraries(environ)[0] == str(dri / "swrast_dri.so")
    assert preload.driver_llvm_version(environ) == (18, 1)
    (dri / "swrast_dri.so").write_bytes(_tiny_elf(True, ["libc.so.6"]))  # LLVM linked statically
    assert preload.driver_llvm_version(environ) is None


def test_llvm_from_soname():
    assert preload.llvm_from_soname("libLLVM-15.so.1") == (15,)
    assert preload.llvm_from_soname("libLLVM-14.0.6.so.1") == (14, 0, 6)
    assert preload.llvm_from_soname("libLLVM-17.so") == (17,)
    assert preload.llvm_from_soname("libLLVM.so.18.1") == (18, 1)
    assert preload.llvm_from_soname("libLLVMSupport.so") is None
    assert preload.llvm_from_soname("libc.so.6") is None


def test_elf_needed_agrees_with_readelf_on_the_hosts_driver():
    libs = preload.driver_libraries(os.environ)
    if not libs or shutil.which("readelf") is None:
        pytest.skip("no Mesa software rasterizer library or no readelf on this machine")
    out = subprocess.run(["readelf", "-d", libs[0]], capture_output=True, text=True, check=True).stdout
    assert preload.elf_needed(libs[0]) == re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def test_describe_names_every_row_and_its_variable():
    lines = preload.describe()
    assert len(lines) == len(preload.PRELOAD)
    for row, line in zip(preload.PRELOAD, lines, strict=True):
        assert line.startswith(f"{row.name}: {row.variable}={row.value} ")


# -- the row, on this host ----------------------------------------------------------------


@pytest.mark.parametrize("profile", ["native", "gl33"])
def test_the_fuzzed_sequence_draws_by_default(profile):
    """With nothing asked for, the two programs draw on both profiles, and the
    variable is set exactly where the row applies (and nothing else: the CPU
    caps stay the CPU's)."""
    result = _result(_child(_DRAW_SEQUENCE, profile, *_programs()))
    assert result["outcomes"] == ["drawn", "drawn"]
    assert result["caps"] is None
    if _applies():
        assert result["status"] == {"llvmpipe_avx2_gather": "set"}
        assert result["perf"] == "nopt"
        assert re.search(r"\b256 bits\b", result["renderer"]), result["renderer"]  # AVX kept
    else:
        assert result["perf"] is None


def test_the_quirk_is_real_on_this_host():
    """With the setting turned off the sequence dies with SIGILL where the row
    was found (llvmpipe, LLVM 15, AVX2).  When a later LLVM stops doing it, this
    test fails on that host: then record the fixed release in the quirk's row."""
    probe = _child(_DRAW_SEQUENCE, "native", *_programs(), env_extra=_OFF)
    renderer = ""
    if probe.returncode == 0:
        result = json.loads(probe.stdout.strip().splitlines()[-1])
        renderer = result["renderer"]
        assert result["status"] == {"llvmpipe_avx2_gather": "off"} and result["perf"] is None
    found_on = _applies() and (probe.returncode != 0 or re.search(r"llvmpipe \(LLVM 15\.", renderer))
    if not found_on:
        pytest.skip("the row's conditions (llvmpipe with LLVM 15 on an AVX2 CPU) do not hold on this host")
    assert probe.returncode == -4, (probe.returncode, probe.stderr[-800:])  # SIGILL


def test_the_users_own_setting_wins():
    """A GALLIVM_PERF of the user's is left as it is (here one without nopt, so
    the row is not in effect: the sequence is not drawn, only the decision read)."""
    code = "import json, os, glpipe; from glpipe.host import preload\n"
    code += "print(json.dumps({'status': preload.status, 'perf': os.environ.get('GALLIVM_PERF')}))"
    result = _result(_child(code, env_extra={"GALLIVM_PERF": "no_quad_lod"}))
    assert result["perf"] == "no_quad_lod"
    if _applies():
        assert result["status"] == {"llvmpipe_avx2_gather": "user"}
    result = _result(_child(code, env_extra={"GALLIUM_OVERRIDE_CPU_CAPS": "sse4.1"}))
    assert result["perf"] is None
    if _applies():
        assert result["status"] == {"llvmpipe_avx2_gather": "masked"}


def test_import_glpipe_sets_it_before_the_applications_context():
    """``import glpipe`` decides: a context the application makes afterwards
    loads the driver with the setting, and the LLVM release read from the
    driver library before it loaded is the one GL_RENDERER names."""
    result = _result(_child(_IMPORT_FIRST))
    if not _applies():
        pytest.skip("the row does not apply on this host")
    assert result["status"] == {"llvmpipe_avx2_gather": "set"} and result["perf"] == "nopt"
    assert quirks.llvm_version(result["renderer"])[0] == result["driver_llvm"][0]
    assert _QUIRK.matches(result["renderer"], "")


def test_a_driver_loaded_first_is_reported_not_changed():
    """A driver loaded before glpipe was imported has read its settings: glpipe
    leaves the variable alone, warns once (PreloadWarning) and says so."""
    result = _result(_child(_LATE))
    assert result["perf"] is None  # setting it now would be read by nobody
    if not _applies():
        assert not [w for w in result["warnings"] if w[0] == "PreloadWarning"]
        return
    assert result["status"] == {"llvmpipe_avx2_gather": "late"}
    assert "NOT applied" in result["lines"][0]
    said = [w[1] for w in result["warnings"] if w[0] == "PreloadWarning"]
    assert len(said) == 1, result["warnings"]  # once, for two screens
    assert "GALLIVM_PERF=nopt" in said[0] and "docs/host.md" in said[0]
