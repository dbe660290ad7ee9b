"""create_*_state and TGSI declarations: a register declared twice with the
same semantic (as Mesa's frontend emits for double-precision varyings and
component layouts) is one declaration, a true conflict is refused, and a
shader declaring a resource whose cap is 0 is refused at create time."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import (
    DrawInfo,
    Format,
    Prim,
    ShaderState,
    ShaderType,
    ShaderValidationError,
    StreamOutput,
    StreamOutputInfo,
    UnsupportedError,
    VertexBuffer,
    VertexElement,
)
from glpipe.enums import Cap, ShaderCap
from lowering import parse, validate

from .util import read_rgba32f, render_target, vertex_buffer
from .util_draw import bind_rasterizer

# OUT[1] declared twice with GENERIC[0]: first whole, then .xy (Mesa's
# frontend does this for a dvec2 varying); the FS reads the varying through
# two declarations of IN[0] that split its components.
DOUBLE_DECL_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[1].xy, GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""

SPLIT_DECL_FS = """FRAG
DCL IN[0].xy, GENERIC[0], CONSTANT
DCL IN[0].zw, GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL OUT[0].xyzw, COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""


def test_repeated_declarations_merge_their_usage_masks():
    """Same file, range and semantic: one declaration whose mask is the OR."""
    decls = parse(SPLIT_DECL_FS).declarations
    ins = [d for d in decls if d.file == "IN"]
    assert len(ins) == 1 and ins[0].usage_mask == 0b1111
    assert (ins[0].semantic, ins[0].semantic_index, ins[0].interpolate) == ("GENERIC", 0, "CONSTANT")
    outs = [d for d in parse(DOUBLE_DECL_VS).declarations if d.file == "OUT" and d.first == 1]
    assert len(outs) == 1 and outs[0].usage_mask == 0b1111
    validate(parse(DOUBLE_DECL_VS))
    validate(parse(SPLIT_DECL_FS))


@pytest.mark.parametrize(
    "second",
    [
        "DCL OUT[1], GENERIC[1]",  # another semantic index
        "DCL OUT[1], COLOR[0]",  # another semantic
        "DCL OUT[1..2], GENERIC[0]",  # an overlapping range
    ],
)
def test_conflicting_declarations_are_still_refused(second):
    tgsi = f"VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n{second}\nMOV OUT[0], IN[0]\nEND\n"
    with pytest.raises(ShaderValidationError, match="(duplicates|overlaps) declaration"):
        validate(parse(tgsi))


def test_interpolation_conflict_is_refused():
    tgsi = (
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL IN[0].zw, GENERIC[0], CONSTANT\n"
        "DCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n"
    )
    with pytest.raises(ShaderValidationError, match="duplicates declaration"):
        validate(parse(tgsi))


def test_repeated_declarations_draw(screen, ctx):
    """The merged varying carries all four components from VS to FS."""
    color, _ = render_target(ctx, 4, 4)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=DOUBLE_DECL_VS)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=SPLIT_DECL_FS)))
    elements = [
        VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    ]
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(elements))
    bind_rasterizer(ctx)
    rgba = [0.125, 0.25, 0.5, 0.75]
    verts = np.array([[-1, -1, 0, 1] + rgba, [3, -1, 0, 1] + rgba, [-1, 3, 0, 1] + rgba], np.float32)
    ctx.set_vertex_buffers([VertexBuffer(buffer=vertex_buffer(screen, verts), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.TRIANGLES, start=0, count=3))
    assert np.array_equal(read_rgba32f(screen, color), np.broadcast_to(np.float32(rgba), (4, 4, 4)))


# -- declarations beyond the caps -----------------------------------------------------------------

_FS_HEAD = "FRAG\nDCL OUT[0], COLOR\n"
_RESOURCE_FS = {
    # declaration -> the ShaderCap that announces it
    "DCL BUFFER[0]": ShaderCap.MAX_SHADER_BUFFERS,
    "DCL BUFFER[0], ATOMIC": ShaderCap.MAX_SHADER_BUFFERS,
    "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_FLOAT, WR": ShaderCap.MAX_SHADER_IMAGES,
    "DCL HWATOMIC[0][0]": ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS,
}


@pytest.mark.parametrize("decl", list(_RESOURCE_FS))
def test_resource_declaration_refused_while_its_cap_is_0(screen, ctx, decl):
    cap = _RESOURCE_FS[decl]
    tgsi = f"{_FS_HEAD}{decl}\nIMM[0] FLT32 {{0.0, 0.0, 0.0, 1.0}}\nMOV OUT[0], IMM[0]\nEND\n"
    if screen.get_shader_param(ShaderType.FRAGMENT, cap) > 0:
        ctx.create_fs_state(ShaderState(tokens=tgsi))  # announced: accepted
        return
    file = decl.split()[1].split("[")[0]
    with pytest.raises(UnsupportedError, match=rf"{file}.*{cap.name}"):
        ctx.create_fs_state(ShaderState(tokens=tgsi))


@pytest.mark.parametrize(
    "file,cap,tail",
    [
        ("SVIEW", ShaderCap.MAX_SAMPLER_VIEWS, ", 2D, FLOAT"),
        ("SAMP", ShaderCap.MAX_TEXTURE_SAMPLERS, ""),
    ],
)
def test_resource_declaration_past_its_cap_is_refused(screen, ctx, file, cap, tail):
    """The last declared slot must lie below the announced count."""
    limit = screen.get_shader_param(ShaderType.FRAGMENT, cap)
    ok = f"{_FS_HEAD}DCL {file}[{limit - 1}]{tail}\nIMM[0] FLT32 {{0.0, 0.0, 0.0, 1.0}}\nMOV OUT[0], IMM[0]\nEND\n"
    ctx.create_fs_state(ShaderState(tokens=ok))
    with pytest.raises(UnsupportedError, match=rf"{file}\[{limit}\].*{cap.name}"):
        ctx.create_fs_state(ShaderState(tokens=ok.replace(f"[{limit - 1}]", f"[{limit}]")))


def test_constant_buffer_past_its_caps_is_refused(screen, ctx):
    buffers = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_CONST_BUFFERS)
    vec4s = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_CONST_BUFFER0_SIZE) // 16
    body = "MOV OUT[0], CONST[0][0]\nEND\n"
    ctx.create_fs_state(ShaderState(tokens=f"{_FS_HEAD}DCL CONST[0][0..{vec4s - 1}]\n{body}"))
    with pytest.raises(UnsupportedError, match="MAX_CONST_BUFFER0_SIZE.*GL_MAX_UNIFORM_BLOCK_SIZE"):
        ctx.create_fs_state(ShaderState(tokens=f"{_FS_HEAD}DCL CONST[0][0..{vec4s}]\n{body}"))
    with pytest.raises(UnsupportedError, match="MAX_CONST_BUFFERS"):
        ctx.create_fs_state(ShaderState(tokens=f"{_FS_HEAD}DCL CONST[0][0]\nDCL CONST[{buffers}][0]\n{body}"))


def test_stream_output_refused_while_its_cap_is_0(screen, ctx):
    so = StreamOutputInfo(
        num_outputs=1, stride=(4, 0, 0, 0), output=(StreamOutput(register_index=0, num_components=4),)
    )
    vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n"
    ctx.create_vs_state(ShaderState(tokens=vs))  # no outputs captured: fine
    if screen.get_param(Cap.MAX_STREAM_OUTPUT_BUFFERS) > 0:
        ctx.create_vs_state(ShaderState(tokens=vs, stream_output=so))
        return
    with pytest.raises(UnsupportedError, match="stream_output.*MAX_STREAM_OUTPUT_BUFFERS"):
        ctx.create_vs_state(ShaderState(tokens=vs, stream_output=so))
