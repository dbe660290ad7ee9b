"""Every golden GLSL compiles: on the host GL (llvmpipe) and with glslangValidator.

* The 450 goldens (``out/<name>.glsl``) compile on the host at GLSL 450 when
  the host has the extensions they enable (the golden extension set is
  fixed, so a shader needing e.g. GL_EXT_demote_to_helper_invocation is
  skipped on a host without it, naming the extension).
* The 330 goldens (``out/<name>.330.glsl``, no extensions) compile on the
  host; the cases 3.3 cannot express raise UnsupportedError instead.
* Every golden also lowers at GLSL 330 *with the host's extensions* (the
  path a GL 3.3 context with 4.x extensions takes) and compiles.
* glslangValidator (Debian's glslang-tools) checks the same sources against
  the GLSL spec rather than Mesa's reading of it; only that check is
  skipped when the binary is missing, and for the few extensions glslang
  does not know.
"""

from __future__ import annotations

import re

import golden_cases as G
import pytest
from glsl_compile import GLSLANG, HostCompiler, glslang_check

from lowering import to_glsl
from lowering.errors import UnsupportedError
from lowering.glsl.emitter import GL_SHADER_TYPES

NAMES = G.names()
# Extensions glslangValidator 11 cannot parse.
GLSLANG_UNKNOWN = frozenset(
    {"GL_EXT_shader_framebuffer_fetch", "GL_NV_shader_atomic_float", "GL_EXT_texture_shadow_lod"}
)


@pytest.fixture(scope="module")
def host():
    compiler = HostCompiler()
    yield compiler
    compiler.release()


def _stage(source: str) -> str:
    return re.search(r"// glpipe: lowered from TGSI (\w+)", source).group(1)


def _extensions(source: str):
    return set(re.findall(r"#extension (\S+) : require", source))


def _golden(name: str, suffix: str):
    path = G.OUT_DIR / f"{name}{suffix}.glsl"
    if not path.exists():
        return None
    return path.read_text()


@pytest.mark.parametrize("name", NAMES)
def test_golden_450_compiles_on_host(host, name):
    source = _golden(name, "")
    if source is None:
        assert (G.OUT_DIR / f"{name}.err").exists()
        with pytest.raises(UnsupportedError):
            G.lower(name, 450)
        return
    missing = _extensions(source) - host.extensions
    if missing:
        pytest.skip(f"host lacks {sorted(missing)}")
    log = host.compile(source, GL_SHADER_TYPES[_stage(source)])
    assert log is None, f"{name}.glsl does not compile:\n{log}"


@pytest.mark.parametrize("name", NAMES)
def test_golden_330_compiles_on_host(host, name):
    source = _golden(name, ".330")
    if source is None:
        assert (G.OUT_DIR / f"{name}.330.err").exists()
        with pytest.raises(UnsupportedError):
            G.lower(name, 330)
        return
    log = host.compile(source, GL_SHADER_TYPES[_stage(source)])
    assert log is None, f"{name}.330.glsl does not compile:\n{log}"


@pytest.mark.parametrize("name", NAMES)
def test_330_with_host_extensions_compiles(host, name):
    """GLSL 330 plus whatever extensions the host offers: lowers (or raises
    UnsupportedError naming what is missing) and compiles."""
    try:
        shader = to_glsl(G.read_input(name), glsl_version=330, extensions=host.extensions, **G.options(name))
    except UnsupportedError as exc:
        assert "needs" in str(exc) or ":" in str(exc)
        return
    assert shader.source.startswith("#version 330 core\n")
    assert set(shader.reflection.extensions) <= host.extensions
    log = host.compile(shader.source, shader.gl_shader_type)
    assert log is None, f"{name} at 330 + host extensions does not compile:\n{log}\n{shader.source}"


# Goldens that are GLSL (not an expected-UnsupportedError .err) in a dialect
# glslangValidator understands; the rest are checked by the host compiler only.
GLSLANG_CASES = [
    (n, s)
    for s in ("", ".330")
    for n in NAMES
    if _golden(n, s) is not None and not _extensions(_golden(n, s)) & GLSLANG_UNKNOWN
]


@pytest.mark.skipif(GLSLANG is None, reason="glslangValidator not installed (apt-get install glslang-tools)")
@pytest.mark.parametrize("name,suffix", GLSLANG_CASES)
def test_golden_glslang(name, suffix):
    source = _golden(name, suffix)
    log = glslang_check(source, _stage(source))
    assert log is None, f"glslangValidator rejects {name}{suffix}.glsl:\n{log}"


# -- separately lowered stages link by name ------------------------------------------------

LINK_VS = """VERT
PROPERTY NUM_CLIPDIST_ENABLED 4
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[3]
DCL OUT[3], COLOR
DCL OUT[4], CLIPDIST
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[0].yxzw
  2: MOV OUT[2], IN[0].zzzz
  3: MOV OUT[3], IN[0].wwww
  4: MOV OUT[4], IN[0]
  5: END
"""

LINK_GS = """GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], GENERIC[3]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[3]
DCL TEMP[0]
IMM[0] INT32 {0, 0, 0, 0}
  0: MOV OUT[0], IN[0][0]
  1: MOV OUT[1], IN[0][1]
  2: ADD OUT[2], IN[1][2], IN[2][2]
  3: EMIT IMM[0].xxxx
  4: END
"""

LINK_TCS = """TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[0]
DCL OUT[2], PATCH[1]
DCL OUT[3], TESSOUTER
DCL OUT[4], TESSINNER
DCL ADDR[0]
IMM[0] FLT32 {2.0, 3.0, 0.0, 0.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: MOV OUT[ADDR[0].x][1], IN[ADDR[0].x][1]
  3: MOV OUT[2], IN[0][1]
  4: MOV OUT[3], IMM[0].xxxx
  5: MOV OUT[4].xy, IMM[0].yyyy
  6: END
"""

LINK_TES = """TESS_EVAL
PROPERTY TES_PRIM_MODE 4
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[2], PATCH[1]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[3]
  0: MUL OUT[0], IN[0][0], SV[0].xxxx
  1: MAD OUT[1], IN[1][1], SV[0].yyyy, IN[2]
  2: MOV OUT[2], SV[0].xyzz
  3: END
"""

LINK_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL IN[1], GENERIC[3], LINEAR, CENTROID
DCL IN[2], COLOR, COLOR
DCL IN[3], GENERIC[7], PERSPECTIVE
DCL IN[4], CLIPDIST, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
  0: ADD TEMP[0], IN[0], IN[1]
  1: ADD TEMP[0], TEMP[0], IN[2]
  2: ADD TEMP[0], TEMP[0], IN[3]
  3: ADD OUT[0], TEMP[0], IN[4]
  4: END
"""


@pytest.mark.parametrize(
    "pipeline,version", [("vs-fs", 330), ("vs-fs", 450), ("vs-gs-fs", 330), ("vs-gs-fs", 450), ("vs-tcs-tes-fs", 450)]
)
def test_separately_lowered_stages_link(host, version, pipeline):
    """Stages lowered one at a time link into one program: varyings match by name, and
    the last pre-rasterizer stage copies the FS's interpolation qualifiers from the key
    (GLSL < 440 requires them to match)."""
    import moderngl

    from lowering import VariantKey

    # The context passes each stage the inputs of the stage it feeds (the FS reads
    # GENERIC[7], which nothing writes: GL still needs the output declared; and
    # CLIPDIST, which the last stage passes in a varying of its own).
    fs_inputs = (
        ("GENERIC", 0, "CONSTANT", "CENTER"),
        ("GENERIC", 3, "LINEAR", "CENTROID"),
        ("COLOR", 0, "COLOR", "CENTER"),
        ("GENERIC", 7, "PERSPECTIVE", "CENTER"),
        ("CLIPDIST", 0, "LINEAR", "CENTER"),
    )
    last = VariantKey(output_interpolation=fs_inputs, flatshade=True)
    flat_key = VariantKey(flatshade=True)
    stages = {"vs": (LINK_VS, last if pipeline == "vs-fs" else VariantKey()), "fs": (LINK_FS, flat_key)}
    if pipeline == "vs-gs-fs":
        stages["gs"] = (LINK_GS, last)
    if pipeline == "vs-tcs-tes-fs":
        stages["tcs"] = (LINK_TCS, VariantKey())
        stages["tes"] = (LINK_TES, last)
    src = {name: to_glsl(text, glsl_version=version, key=key).source for name, (text, key) in stages.items()}
    with host.ctx:
        try:
            prog = host.ctx.program(
                vertex_shader=src["vs"],
                fragment_shader=src["fs"],
                geometry_shader=src.get("gs"),
                tess_control_shader=src.get("tcs"),
                tess_evaluation_shader=src.get("tes"),
            )
        except moderngl.Error as exc:
            pytest.fail(f"{pipeline} at GLSL {version} does not link:\n{exc}\n" + "\n".join(src.values()))
        prog.release()
