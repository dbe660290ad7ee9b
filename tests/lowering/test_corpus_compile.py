"""The captured corpus (``corpus/tgsi/*.tgsi``, real TGSI from Mesa's GL frontend)
lowers and compiles on the host.

* GLSL 330 without extensions (a plain GL 3.3 core host): each file lowers
  and compiles, or raises UnsupportedError naming what 3.3 lacks.
* GLSL 330 with the host's extensions: lowers and compiles, or raises
  UnsupportedError.
* GLSL 450 with the host's extensions and the host's binding limits: every
  file lowers and compiles, except the few in ``EXPECTED_450`` that need a
  feature this host does not have (each with the reason).  The 450 output
  is also checked with glslangValidator when it is installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from glsl_compile import GLSLANG, HostCompiler, glslang_check, host_limits

from lowering import to_glsl
from lowering.bindings import BindingLayout
from lowering.errors import UnsupportedError

CORPUS = sorted((Path(__file__).parent / "corpus" / "tgsi").glob("*.tgsi"))
GLSLANG_UNKNOWN = ("GL_EXT_shader_framebuffer_fetch", "GL_NV_shader_atomic_float", "GL_EXT_texture_shadow_lod")

# Files a GLSL 450 host without these features cannot run, with the reason.
EXPECTED_450 = {
    "fs_demote.frag.tgsi": "GL_EXT_demote_to_helper_invocation",
    "cs_variable_group_size.comp.tgsi": "GL_ARB_compute_variable_group_size",
    "tex_bindless.frag.tgsi": "bindless",
}


@pytest.fixture(scope="module")
def host():
    compiler = HostCompiler()
    compiler.layout = BindingLayout.for_limits(host_limits(compiler))
    yield compiler
    compiler.release()


def test_corpus_is_there():
    assert len(CORPUS) >= 100


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_330_core(host, path):
    try:
        shader = to_glsl(path.read_text(), glsl_version=330)
    except UnsupportedError as exc:
        assert "needs" in str(exc) or "GLSL" in str(exc), str(exc)
        return
    assert "#extension" not in shader.source
    log = host.compile(shader.source, shader.gl_shader_type)
    assert log is None, f"{path.name} at 330 does not compile:\n{log}"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_330_with_extensions(host, path):
    try:
        shader = to_glsl(path.read_text(), glsl_version=330, extensions=host.extensions)
    except UnsupportedError:
        return
    log = host.compile(shader.source, shader.gl_shader_type)
    assert log is None, f"{path.name} at 330 + extensions does not compile:\n{log}"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_450(host, path):
    try:
        shader = to_glsl(path.read_text(), glsl_version=450, extensions=host.extensions, bindings=host.layout)
    except UnsupportedError as exc:
        assert path.name in EXPECTED_450, f"{path.name} unexpectedly unsupported at 450: {exc}"
        assert EXPECTED_450[path.name] in str(exc)
        return
    assert path.name not in EXPECTED_450, f"{path.name} now lowers at 450: update EXPECTED_450"
    log = host.compile(shader.source, shader.gl_shader_type)
    assert log is None, f"{path.name} at 450 does not compile:\n{log}"
    if GLSLANG is None or any(e in shader.reflection.extensions for e in GLSLANG_UNKNOWN):
        return
    # glslang checks against the GL 4.5 minimum limits: lower with the default layout.
    try:
        shader = to_glsl(path.read_text(), glsl_version=450, extensions=host.extensions)
    except UnsupportedError:
        return  # needs more bindings than GL 4.5 guarantees
    glog = glslang_check(shader.source, shader.stage)
    assert glog is None, f"glslangValidator rejects {path.name} at 450:\n{glog}"
