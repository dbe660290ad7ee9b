"""A shader CSO is validated once, at create: its variants reuse the result.

create_fs_state parses and validates (docs/lowering.md "Variant key"); every
variant compiled later for a new key lowers the validated record without
checking the shader again.  Counted through the validator itself, across
three alpha-test variants of one FS drawn on both profiles.
"""

from __future__ import annotations

import importlib

from glpipe import Bind, Clear, DepthStencilAlphaState, Format, Func

from .util_blend_dsa import bind_targets, fullscreen, pipeline, read, texture


def test_each_shader_is_validated_once_whatever_its_variants(screen, ctx, monkeypatch):
    runs = []
    # (importlib: the package attribute lowering.validate is the function, not the module)
    validate_module = importlib.import_module("lowering.validate")
    original = validate_module._Validator.run

    def counted(self):
        runs.append(self.shader.processor)
        return original(self)

    monkeypatch.setattr(validate_module._Validator, "run", counted)
    color = texture(screen, Format.R32G32B32A32_FLOAT, 1, 1, Bind.RENDER_TARGET | Bind.SAMPLER_VIEW)
    bind_targets(ctx, 1, 1, (color,))
    pipeline(ctx)  # creates one VS and one FS
    assert sorted(runs) == ["FRAG", "VERT"]
    draw = fullscreen(screen, ctx, [1, 1, 1, 0.5])
    variants = screen.counters.shader_variants
    # Alpha 0.5 against the reference 0.25: LESS kills, GREATER and ALWAYS (no test) pass.
    for func, want in ((Func.LESS, 0.0), (Func.GREATER, 1.0), (Func.ALWAYS, 1.0)):
        ctx.clear(Clear.COLOR0, None, (0.0, 0.0, 0.0, 0.0), 0.0, 0)
        ctx.bind_depth_stencil_alpha_state(
            ctx.create_depth_stencil_alpha_state(
                DepthStencilAlphaState(alpha_enabled=func != Func.ALWAYS, alpha_func=func, alpha_ref_value=0.25)
            )
        )
        draw()
        assert read(screen, color, "rgba32f")[0, 0, 0] == want, func
    assert screen.counters.shader_variants - variants >= 2  # new FS variants were compiled ...
    assert sorted(runs) == ["FRAG", "VERT"]  # ... from the record validated at create
