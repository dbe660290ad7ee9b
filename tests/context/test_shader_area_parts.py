"""Group S of the context's areas as parts (docs/architecture.md): shaders,
variant keys, sysvals and constant buffers each own their state in a part,
and the variant-key environment is a NamedTuple read by name, built from
the areas' ``variant_input`` slots (glpipe/part.py ``Area``)."""

from __future__ import annotations

import types

import pytest

from glpipe import (
    BlendFactor,
    BlendState,
    ConstantBuffer,
    DepthStencilAlphaState,
    Func,
    RTBlendState,
    ShaderState,
    ShaderType,
    constant_buffers,
    shaders,
    sysvals,
    variant_keys,
)
from glpipe.context import PARTS, Context
from glpipe.part import Area, Part
from glpipe.variant_keys import VariantEnvironment, VariantKeysPart
from lowering.glsl.passes.edges import EDGE_FLAGS_MASKS, EDGE_FLAGS_STIPPLE
from lowering.glsl.variant import PIPE_FUNC_ALWAYS

GROUP_S = (shaders, variant_keys, sysvals, constant_buffers)

FS = """FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


@pytest.mark.parametrize("module", GROUP_S, ids=[m.__name__ for m in GROUP_S])
def test_the_area_is_a_part_registered_by_its_record(module):
    area = module.AREA
    assert area in PARTS and issubclass(area.part, Part)
    assert area.part not in Context.__mro__
    assert not [name for name in vars(module) if name.endswith("Mixin")]
    # Every area with GL objects tears them down (the variant keys own none).
    assert (area.destroy is None) == (module is variant_keys)
    assert area.destroy is None or area.destroy.__qualname__ == f"{area.part.__name__}.destroy"


def test_the_parts_own_their_state(screen, ctx):
    sh, keys, sv, cb = ctx.shader_part, ctx.variant_keys_part, ctx.sysvals_part, ctx.constbuf_part
    assert (type(sh), type(keys), type(sv), type(cb)) == (
        shaders.ShaderPart,
        VariantKeysPart,
        sysvals.SysvalsPart,
        constant_buffers.ConstantBufferPart,
    )
    assert keys._shaders is sh.shaders  # one list of bound CSOs, the shader area's
    fs = ctx.create_fs_state(ShaderState(tokens=FS))
    ctx.bind_fs_state(fs)
    assert sh.shaders[ShaderType.FRAGMENT] is fs and "shaders" not in vars(ctx)
    data = bytes(range(32))
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 1, ConstantBuffer(user_buffer=data))
    assert cb.constant_buffers[ShaderType.FRAGMENT][1].data == data
    sv._set_sysval("alpha_ref", (0.25,))
    assert sv._get_sysval("alpha_ref")[0] == 0.25
    for name in ("_program", "_programs", "constant_buffers", "_sysvals_ubo", "_variant_env", "_prim_class"):
        assert name not in vars(ctx), name


def _environment(ctx) -> VariantEnvironment:
    holder = ctx.variant_keys_part._variant_inputs()[-1]
    assert holder is ctx.variant_keys_part._variant_env
    assert len(holder.value) == len(VariantEnvironment._fields)  # the fields, in order
    return VariantEnvironment._make(holder.value)


def test_the_environment_is_read_by_name_and_filled_from_the_slots(screen, ctx):
    env = _environment(ctx)
    assert env.dsa == PIPE_FUNC_ALWAYS and env.blend is False  # the default DSA and blend states
    ctx.bind_depth_stencil_alpha_state(
        ctx.create_depth_stencil_alpha_state(
            DepthStencilAlphaState(alpha_enabled=True, alpha_func=Func.GEQUAL, alpha_ref_value=0.5)
        )
    )
    src1 = RTBlendState(
        blend_enable=True,
        rgb_src_factor=BlendFactor.SRC1_COLOR,
        rgb_dst_factor=BlendFactor.ZERO,
        alpha_src_factor=BlendFactor.ONE,
        alpha_dst_factor=BlendFactor.ZERO,
    )
    ctx.bind_blend_state(ctx.create_blend_state(BlendState(rt=[src1])))
    env = _environment(ctx)
    assert env.dsa == int(Func.GEQUAL) and env.blend is True
    # The slot fields come first, one per area with a variant_input, in PARTS order.
    slots = tuple(a.attr.removesuffix("_part") for a in PARTS if a.variant_input is not None)
    assert slots == ("blend", "dsa") and VariantEnvironment._fields[:2] == slots


def test_a_slot_without_its_field_is_refused():
    class Extra(Part):
        pass

    part = object.__new__(VariantKeysPart)
    part.ctx = types.SimpleNamespace(_areas=PARTS + (Area("extra_part", part=Extra, variant_input=id),))
    with pytest.raises(TypeError, match="variant_input slot"):
        part._bind_slot_inputs()


@pytest.mark.parametrize("gs_bits,stippled", [(EDGE_FLAGS_STIPPLE | EDGE_FLAGS_MASKS, True), (EDGE_FLAGS_MASKS, False)])
def test_edge_stipple_follows_the_gs_stipple_bit(screen, ctx, gs_bits, stippled):
    """VariantKey.edge_stipple of the FS is the GS's EDGE_FLAGS_STIPPLE bit of
    the draw's edge key (lowering/glsl/passes/edges.py), whatever else is set."""
    fs = ctx.create_fs_state(ShaderState(tokens=FS))
    ctx.bind_fs_state(fs)
    keys = ctx.variant_keys_part
    vs, tcs, tes, gs, _fs, holder = keys._variant_inputs()
    env = VariantEnvironment._make(holder.value)._replace(edges=(gs_bits, 0, 2))
    key = keys._variant_key(ShaderType.FRAGMENT, fs, (vs, tcs, tes, gs, fs, types.SimpleNamespace(value=env)))
    assert key.edge_fill == 2 and key.edge_stipple is stippled
