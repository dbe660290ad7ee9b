"""A shader is validated once, however many variants are lowered from it.

``validate`` returns the ``ShaderInfo`` of the shader it checked (carrying
that shader); ``to_glsl`` given that record lowers without validating again,
so a pipe shader CSO (validated at create) compiles each variant with no
second pass over its declarations and instructions.  Text or a bare
``Shader`` is still validated on the way in.
"""

from __future__ import annotations

import importlib

import pytest

from lowering import ShaderValidationError, parse, to_glsl, validate
from lowering.glsl import VariantKey

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {0.5, 1.0, 0.0, 0.0}
  0: MUL TEMP[0], IN[0], IMM[0].xxxy
  1: MOV OUT[0], TEMP[0]
  2: END
"""

# Three FS variants: the plain lowering, the alpha test (func LESS = 1), colour clamping.
KEYS = (VariantKey(), VariantKey(alpha_func=1), VariantKey(clamp_fragment_color=True))


@pytest.fixture
def validator_runs(monkeypatch) -> list:
    """Each run of the validator appends the shader it checked."""
    runs = []
    # (importlib: the package attribute lowering.validate is the function, not the module)
    validate_module = importlib.import_module("lowering.validate")
    original = validate_module._Validator.run

    def counted(self):
        runs.append(self.shader)
        return original(self)

    monkeypatch.setattr(validate_module._Validator, "run", counted)
    return runs


def test_validated_record_names_its_shader():
    shader = parse(FS)
    info = validate(shader)
    assert info.shader is shader
    assert info == validate(shader)  # the carried shader does not enter equality


def test_variants_of_a_validated_shader_do_not_validate_again(validator_runs):
    shader = parse(FS)
    info = validate(shader)
    assert len(validator_runs) == 1
    lowered = [to_glsl(info, key=key) for key in KEYS]
    assert len(validator_runs) == 1, "to_glsl re-validated an already validated shader"
    # The variants are the variants: the same GLSL as lowering the shader itself, and distinct.
    assert len({g.source for g in lowered}) == len(KEYS)
    for key, glsl in zip(KEYS, lowered, strict=True):
        assert glsl.source == to_glsl(shader, key=key).source
    assert len(validator_runs) == 1 + len(KEYS)  # a bare Shader is validated on the way in


def test_text_and_bare_shaders_are_still_validated(validator_runs):
    bad = FS.replace("DCL TEMP[0]\n", "")  # TEMP[0] used, never declared
    with pytest.raises(ShaderValidationError, match="TEMP"):
        to_glsl(bad)
    with pytest.raises(ShaderValidationError, match="TEMP"):
        to_glsl(parse(bad))
    assert len(validator_runs) == 2
