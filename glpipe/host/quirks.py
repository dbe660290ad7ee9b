"""Host quirks: behaviours of a particular GL driver that no version, extension
or limit announces, and that glpipe must work around (``QUIRKS``, ``host_quirks``).

A quirk is not probed by running the failing construct (the failure kills the
process); it is a row keyed by driver (a ``GL_RENDERER`` pattern) and by a
version range -- of the Mesa release in GL_VERSION, or, for a fault of the
shader compiler's code generator, of the LLVM release in GL_RENDERER
(``version_of``) -- naming how it was found and the test that proves it.  Each quirk
that holds on the host becomes a host fact (glpipe/host/facts.py) under the
row's ``fact`` name, so caps (``CapsEnv.fact``) and the lowering
(``to_glsl(host_facts=...)``) consult it the same way.  docs/host.md
"Host quirks" lists the rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

#: Version tuple of a Mesa driver in GL_VERSION ("4.5 (Core Profile) Mesa 22.3.6").
_MESA_VERSION = re.compile(r"\bMesa (\d+)\.(\d+)(?:\.(\d+))?")
#: Version tuple of llvmpipe's LLVM in GL_RENDERER ("llvmpipe (LLVM 15.0.6, 256 bits)").
_LLVM_VERSION = re.compile(r"\bLLVM (\d+)(?:\.(\d+))?(?:\.(\d+))?")


@dataclass(frozen=True)
class Quirk:
    """One row of the quirks table.

    ``renderer`` is a regular expression searched in GL_RENDERER; the quirk
    holds for versions ``first <= v < fixed`` (``fixed`` None: no release is
    known to be fixed) of the Mesa release (``version_of`` "mesa") or of the
    LLVM release llvmpipe names in GL_RENDERER ("llvm").  ``cpu_flag``, when
    set, is a CPU feature the driver must be using for the quirk to hold
    (GL_RENDERER cannot tell; glpipe/host/preload.py reads it).  ``found_by`` says how it was found,
    ``test`` is the pytest node id that proves it on a matching host, and
    ``effect`` what glpipe does about it."""

    fact: str
    renderer: str
    first: tuple[int, ...]
    fixed: tuple[int, ...] | None
    what: str
    found_by: str
    test: str
    effect: str
    version_of: str = "mesa"
    cpu_flag: str | None = None

    def in_range(self, found: tuple[int, ...] | None) -> bool:
        """Whether release ``found`` (of what ``version_of`` names) is affected;
        an unknown release is (assume the worst)."""
        if found is None:
            return True
        return found >= self.first and (self.fixed is None or found < self.fixed)

    def matches(self, renderer: str, version: str) -> bool:
        """Whether a host reporting GL_RENDERER ``renderer`` and GL_VERSION ``version`` has the quirk."""
        if not re.search(self.renderer, renderer or ""):
            return False
        if self.version_of == "llvm":
            return self.in_range(llvm_version(renderer))
        return self.in_range(driver_version(version))


def driver_version(gl_version: str) -> tuple[int, ...] | None:
    """The Mesa release in a GL_VERSION string as a tuple, or None when there is none."""
    m = _MESA_VERSION.search(gl_version or "")
    if m is None:
        return None
    return tuple(int(g) for g in m.groups(default="0"))


def llvm_version(gl_renderer: str) -> tuple[int, ...] | None:
    """The LLVM release in llvmpipe's GL_RENDERER string as a tuple, or None when there is none."""
    m = _LLVM_VERSION.search(gl_renderer or "")
    if m is None:
        return None
    return tuple(int(g) for g in m.groups(default="0"))


QUIRKS: tuple[Quirk, ...] = (
    Quirk(
        fact="subgroup_reads_crash",
        renderer=r"^llvmpipe\b",
        first=(0,),
        fixed=None,
        what=(
            "readFirstInvocationARB / readInvocationARB (GL_ARB_shader_ballot) make llvmpipe's LLVM "
            "back end abort the process ('LLVM ERROR: Cannot select: ... scalar_to_vector') while the "
            "shader is compiled for a draw or dispatch: a read whose result is converted to float, in "
            "every stage, and READ_FIRST beside READ_INVOC in one fragment shader "
            "(seen on Mesa 22.3.6 with LLVM 15.0.6; ballotARB and the votes on booleans compile)"
        ),
        found_by=(
            "issue 12's fuzzing campaign: tests/lowering/corpus/tgsi/subgroup_ballot.frag.tgsi drawn "
            "unmodified aborted the process; narrowed with single-expression shaders drawn in child "
            "processes per stage and type"
        ),
        test="tests/test_host_quirks.py::test_subgroup_reads_crash_quirk",
        effect=(
            "the lowering reads READ_FIRST / READ_INVOC bit by bit through ballotARB and VOTE_EQ "
            "votes bit by bit with allInvocationsEqual; SHADER_BALLOT stays 1"
        ),
    ),
    Quirk(
        fact="indexed_sampler_array_crash",
        renderer=r"^llvmpipe\b",
        first=(0,),
        fixed=None,
        what=(
            "a filtered lookup (texture, textureLod, textureGrad, textureOffset, textureGather) "
            "through a sampler array indexed by a dynamically uniform value (a uniform block word) "
            "kills the process with SIGSEGV at draw time when the stage also samples a texture of "
            "another target (a sampler2DArray, a samplerCube): llvmpipe lowers the indexed lookup to "
            "a switch over every texture unit of the stage and builds each case with that unit's "
            "target, so it samples the other target's unit with the coordinates of a 2D lookup "
            "(seen on Mesa 22.3.6 with LLVM 15.0.6; a constant or a varying index, texelFetch and "
            "textureSize through the array, or only sampler2Ds in the stage draw)"
        ),
        found_by=(
            "issue 12's TGSI fuzzer: five mutations of tests/lowering/in/tex_indexed.tgsi (seeds "
            "2006409, 2010263, 2013407, 2018467, 2019717 of the native campaign, saved as "
            "tests/fuzz/findings/host_crash_*.frag.tgsi) died in llvmpipe; the lowered GLSL reduced "
            "line by line, then by hand, drawn with raw ModernGL in child processes"
        ),
        test="tests/test_indexed_sampler_quirk.py::test_indexed_sampler_array_crash_quirk",
        effect=(
            "indexed SAMP / SVIEW lookups are lowered as a switch over the declared units, one "
            "sampler uniform per case (the GLSL 3.30 form), never as a sampler array"
        ),
    ),
    Quirk(
        fact="mul_extended_crash",
        renderer=r"^llvmpipe\b",
        first=(0,),
        fixed=None,
        what=(
            "umulExtended / imulExtended whose one operand is 1 (or ~0) and whose other is a select "
            "between constants (`c > 0.5 ? 1.0 : 0.0` as bits, what TGSI's SGT / FSLT + UCMP give) "
            "kill the process with SIGSEGV at draw time in a geometry or tessellation evaluation "
            "shader, and in a tessellation control shader under GALLIVM_PERF=nopt; the same in a "
            "vertex, fragment or compute shader, or with another constant, draws "
            "(seen on Mesa 22.3.6 with LLVM 15.0.6)"
        ),
        found_by=(
            "issue 12's TGSI fuzzer: seed 51025365 of the stop-23 native campaign (a TCS, saved as "
            "tests/fuzz/findings/host_crash_51025365.tcs.tgsi) died at draw; reduced instruction by "
            "instruction in child processes, then the lowered GLSL by hand with raw ModernGL per stage"
        ),
        test="tests/test_mul_extended_quirk.py::test_mul_extended_crash_quirk",
        effect=(
            "IMUL_HI / UMUL_HI are lowered to the GLSL 3.30 helpers (the high word from 16-bit "
            "partial products, exact) in every stage, never to umulExtended / imulExtended"
        ),
    ),
    Quirk(
        fact="llvmpipe_avx2_gather",
        renderer=r"^llvmpipe\b",
        first=(0,),
        fixed=None,
        version_of="llvm",
        cpu_flag="avx2",
        what=(
            "llvmpipe's JIT code for some texel fetches holds an AVX2 vpgatherdd whose mask register is "
            "also its index register (LLVM's optimising code generator gives the two one register; "
            "Mesa's gather mask is an all-ones constant), an "
            "encoding the CPU refuses: the process dies with SIGILL (sometimes SIGSEGV) at a draw, "
            "depending on the texture state earlier draws left in llvmpipe's variant keys "
            "(seen with LLVM 15.0.6, Mesa 22.3.6, on an AVX2 + AVX-512 CPU; no LLVM release is known "
            "to be fixed and earlier ones were not tried, so every release counts)"
        ),
        found_by=(
            "issue 12's TGSI fuzzer (about one program in a thousand); a sequence reduced by bisection "
            "to two programs (tests/fuzz/regress/gather_sigill_*.tgsi); the faulting instruction read "
            "in gdb: vpgatherdd %ymm0,(%rbx,%ymm0,1),%ymm1"
        ),
        test="tests/test_host_preload.py::test_the_quirk_is_real_on_this_host",
        effect=(
            "GALLIVM_PERF=nopt set before the driver loads (glpipe/host/preload.py): LLVM's -O0 code "
            "generator keeps the registers apart; nothing in the GLSL changes"
        ),
    ),
    Quirk(
        fact="smooth_line_crash",
        renderer=r"^llvmpipe\b",
        first=(0,),
        fixed=None,
        what=(
            "a line drawn with GL_LINE_SMOOTH kills the process with SIGSEGV inside the driver (compiled "
            "C code, not the JIT) after enough programs with distinct fragment-shader input layouts (a "
            "variety of smooth / flat / noperspective / centroid / sample varyings; interpolateAt* makes "
            "it likelier) were drawn in the context: llvmpipe draws smooth lines through the draw "
            "module's antialiased-line stage, which keeps a fragment shader variant of its own per "
            "shader (seen on Mesa 22.3.6 with LLVM 15.0.6; the same draws with aliased lines, or with "
            "only smooth varyings, live)"
        ),
        found_by=(
            "issue 12: the full test suite died in a native smooth-line test after some 950 tests; the "
            "run's shaders rebuilt in raw ModernGL with random other programs first died the same way "
            "without glpipe in the process (scripts/repro/smooth_line_crash.py, its ingredients "
            "switched off one by one)"
        ),
        test="tests/test_smooth_line_quirk.py::test_smooth_line_crash_quirk",
        effect=(
            "glpipe never enables the host's GL_LINE_SMOOTH: line_smooth lines are drawn as quads of "
            "triangles by the GS feeding the rasterizer and their coverage multiplies the colour's "
            'alpha in the FS (lowering/glsl/passes/smooth_line.py; docs/rasterizer.md "Antialiased '
            'lines")'
        ),
    ),
)

#: fact name -> row (for look-ups by name).
BY_FACT = MappingProxyType({q.fact: q for q in QUIRKS})


def host_quirks(renderer: str, version: str) -> frozenset[str]:
    """The fact names of the rows of ``QUIRKS`` that hold for this GL_RENDERER / GL_VERSION."""
    return frozenset(q.fact for q in QUIRKS if q.matches(renderer, version))


__all__ = ["BY_FACT", "QUIRKS", "Quirk", "driver_version", "host_quirks", "llvm_version"]
