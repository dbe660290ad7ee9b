"""The golden cases: inputs, outputs, and the options each one is lowered with.

``tests/lowering/in/<name>.tgsi`` is lowered twice:

* at GLSL 450 with ``GOLDEN_EXTENSIONS`` -> ``out/<name>.glsl``;
* at GLSL 330 with no extension at all (a plain GL 3.3 core host) ->
  ``out/<name>.330.glsl``, or, when 3.3 cannot express the shader,
  ``out/<name>.330.err`` holding the UnsupportedError message.

``OPTIONS`` gives the few cases that need a VariantKey or a compute
shared-memory size.  Set ``GLPIPE_UPDATE_GOLDEN=1`` to rewrite the outputs
(then review every changed file by eye before committing it).
"""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).parent
IN_DIR = HERE / "in"
OUT_DIR = HERE / "out"

UPDATE = os.environ.get("GLPIPE_UPDATE_GOLDEN") == "1"

# The extension set of the 450 goldens: fixed (not the host's) so that the
# goldens do not depend on the machine; test_compile skips a shader whose
# extensions the host lacks.
GOLDEN_EXTENSIONS = frozenset(
    {
        "GL_ARB_gpu_shader_int64",
        "GL_ARB_shader_ballot",
        "GL_ARB_shader_clock",
        "GL_ARB_shader_stencil_export",
        "GL_EXT_shader_framebuffer_fetch",
        "GL_ARB_shader_group_vote",
        "GL_ARB_shader_draw_parameters",
        "GL_ARB_shader_viewport_layer_array",
        "GL_ARB_post_depth_coverage",
        "GL_ARB_shader_atomic_counter_ops",
        "GL_EXT_texture_shadow_lod",
        "GL_NV_shader_atomic_float",
        "GL_EXT_demote_to_helper_invocation",
    }
)


def options(name: str) -> dict[str, object]:
    """Keyword arguments of ``to_glsl`` for golden ``name`` (besides version and extensions)."""
    from lowering import VariantKey

    table = {
        "fs_outputs": dict(key=VariantKey(color_output_types=("float", "int", "uint"), nr_cbufs=3)),
        "fs_color0_all_cbufs": dict(key=VariantKey(color_output_types=("float", "float", "uint"), nr_cbufs=3)),
        "fs_dual_source": dict(key=VariantKey(dual_source_blend=True)),
        "fs_inputs_flatshade": dict(key=VariantKey(flatshade=True)),
        "fs_coord_yflip": dict(key=VariantKey(y_flip=True)),
        "vs_outputs_interp": dict(
            key=VariantKey(
                output_interpolation=(
                    ("GENERIC", 0, "CONSTANT", "CENTER"),
                    ("GENERIC", 1, "LINEAR", "CENTROID"),
                    ("COLOR", 0, "COLOR", "CENTER"),
                ),
                flatshade=True,
            )
        ),
        "vs_input_types": dict(key=VariantKey(vs_input_types=("float", "int", "uint"))),
        "cs_shared_memory": dict(req_local_mem=256),
        "cs_variable_block": dict(key=VariantKey(cs_block_size=(8, 4, 1))),
        # Variant passes (lowering/glsl/passes*.py), keyed as the context keys them.
        "variant_fs_passes": dict(
            key=VariantKey(
                two_side=True,
                flatshade=True,
                alpha_func=6,
                sprite_coord_enable=0b10,
                sprite_coord_mode=1,
                poly_stipple=True,
                window_rectangles=3,
                clamp_fragment_color=True,
                y_flip=True,
                gl_clamp=(1, 1, 0),
                nr_cbufs=2,
            )
        ),
        "variant_vs_passes": dict(
            key=VariantKey(
                two_side=True,
                flatshade=True,
                clip_plane_enable=0b1011,
                clamp_vertex_color=True,
                y_flip=True,
                output_interpolation=(
                    ("COLOR", 0, "COLOR", "CENTER"),
                    ("COLOR", 1, "COLOR", "CENTROID"),
                    ("COLOR", 2, "COLOR", "CENTER"),
                    ("GENERIC", 0, "PERSPECTIVE", "CENTER"),
                ),
            )
        ),
        "variant_gs_passes": dict(key=VariantKey(two_side=True, clip_plane_enable=0b11, y_flip=True)),
        "variant_tex_gl_clamp": dict(key=VariantKey(gl_clamp=(0b1111, 0b0111, 0))),
    }
    return dict(table.get(name, {}))


def names() -> list[str]:
    """Every golden input, sorted."""
    return sorted(p.stem for p in IN_DIR.glob("*.tgsi"))


def read_input(name: str) -> str:
    return (IN_DIR / f"{name}.tgsi").read_text()


def lower(name: str, version: int):
    """Lower golden ``name`` at ``version`` (450: GOLDEN_EXTENSIONS, 330: none)."""
    import lowering

    exts = GOLDEN_EXTENSIONS if version >= 400 else frozenset()
    return lowering.to_glsl(read_input(name), glsl_version=version, extensions=exts, **options(name))
