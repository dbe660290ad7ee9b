"""create_*_state refuses shaders past the limits the caps announce (instead of
failing, or crashing the host compiler, at draw time)."""

from __future__ import annotations

import pytest

from glpipe import Cap, ShaderState, ShaderType, ShaderValidationError, UnsupportedError
from glpipe.enums import ShaderCap


def _tcs_with_patch_varyings(n: int) -> str:
    return "\n".join(
        [
            "TESS_CTRL",
            "PROPERTY TCS_VERTICES_OUT 3",
            "DCL IN[][0], POSITION",
            "DCL OUT[][0], POSITION",
            f"DCL OUT[1..{n}], PATCH[0]",
            "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}",
            *[f"MOV OUT[{i}], IMM[0]" for i in range(1, n + 1)],
            "END",
            "",
        ]
    )


def test_patch_varyings_past_the_cap_are_refused(screen, ctx):
    if not screen.profile.has("tessellation_shader"):
        with pytest.raises(UnsupportedError, match="tessellation"):
            ctx.create_tcs_state(ShaderState(tokens=_tcs_with_patch_varyings(1)))
        return
    limit = screen.get_param(Cap.MAX_SHADER_PATCH_VARYINGS)
    ctx.create_tcs_state(ShaderState(tokens=_tcs_with_patch_varyings(limit)))
    with pytest.raises(ShaderValidationError, match="PATCH varyings"):
        ctx.create_tcs_state(ShaderState(tokens=_tcs_with_patch_varyings(limit + 1)))


def test_gs_invocations_past_the_cap_are_refused(screen, ctx):
    limit = screen.get_param(Cap.MAX_GS_INVOCATIONS)

    def gs(n):
        return (
            "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
            f"PROPERTY GS_MAX_OUTPUT_VERTICES 1\nPROPERTY GS_INVOCATIONS {n}\nDCL IN[][0], POSITION\n"
            "DCL OUT[0], POSITION\nIMM[0] INT32 {0, 0, 0, 0}\nMOV OUT[0], IN[0][0]\n"
            "EMIT IMM[0].xxxx\nEND\n"
        )

    expected = ShaderValidationError if screen.profile.has("gpu_shader5") else UnsupportedError
    with pytest.raises(expected, match="GS_INVOCATIONS"):
        ctx.create_gs_state(ShaderState(tokens=gs(max(limit, 1) + 1)))


def test_vs_inputs_past_the_cap_are_refused(screen, ctx):
    limit = screen.get_shader_param(ShaderType.VERTEX, ShaderCap.MAX_INPUTS)
    vs = f"VERT\nDCL IN[0..{limit}]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[{limit}]\nEND\n"
    with pytest.raises(ShaderValidationError, match="MAX_INPUTS"):
        ctx.create_vs_state(ShaderState(tokens=vs))
