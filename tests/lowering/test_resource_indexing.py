"""Samplers, shader buffers and images indexed by an address register, at the lowering level.

``SAMP[ADDR[0].x+k]`` / ``SVIEW[...]`` / ``BUFFER[...]`` / ``IMAGE[...]``
name element ``k + ADDR[0].x`` of the declared range (tgsi.rst).  The
lowering indexes a GLSL array where the host has dynamically uniform
indexing (GLSL 400 / GL_ARB_gpu_shader5) and switches over the declared
range where it does not (GLSL 330 allows only constant indices into
sampler arrays).  These tests run the lowered GLSL on the host (the exec
harness) on all three shapes -- GLSL 450, GLSL 330 + GL_ARB_gpu_shader5 (an
array without ``layout(binding)``) and GLSL 330 without it (the switch) --
and check that the selected element, and only it, is read or written.

Expected values are the contents uploaded to each resource, selected by
the hand-computed index.  The validator refuses an index base outside the
declared ranges, naming the line and the register.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import exec_harness as H

import lowering
from lowering.bindings import BindingLayout
from lowering.errors import ShaderValidationError, UnsupportedError

gl = H.module_harness()

U32 = np.uint32
N = 8  # invocations of the compute tests

# GL extensions that make compute, SSBOs and images available to a GLSL 330 shader
# on this host, without GL_ARB_gpu_shader5 (no dynamically uniform indexing: the switch).
MEMORY_EXTENSIONS_330 = frozenset(
    {
        "GL_ARB_compute_shader",
        "GL_ARB_shader_storage_buffer_object",
        "GL_ARB_shader_image_load_store",
        "GL_ARB_shader_image_size",
        "GL_ARB_shader_atomic_counters",
    }
)

# (GLSL version, extensions or None for the harness default, expected shape of the lowering)
SHAPES = {
    "array_450": (450, None, "array"),
    "array_330_gpu_shader5": (330, frozenset({"GL_ARB_gpu_shader5"}), "array"),
    "switch_330": (330, frozenset(), "switch"),
}


@pytest.fixture
def shape_extensions(gl, monkeypatch):
    """Make the harness lower with the given extensions (None: its default)."""

    def use(extensions):
        if extensions is not None:
            monkeypatch.setattr(gl, "extensions_for", lambda version: frozenset(extensions))

    return use


# ---------------------------------------------------------------------------
# Textures
# ---------------------------------------------------------------------------

COLORS = np.array(
    [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.5], [0.0, 0.0, 1.0, 0.25], [0.5, 0.25, 0.75, 1.0]], np.float32
)

TEX_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0..3]
DCL SVIEW[0..3], 2D, FLOAT
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0..1]
IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}
IMM[1] INT32 {0, 0, 0, 0}
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: TEX TEMP[0], IMM[0], SAMP[ADDR[0].x+1], 2D
  2: TXQ TEMP[1].x, IMM[1].xxxx, SAMP[ADDR[0].x+1], 2D
  3: MOV OUT[0].xyz, TEMP[0]
  4: MOV OUT[0].w, TEMP[1].xxxx
  5: END
"""


def _textures(gl):
    """Texture k: (k + 1) x 1 texels of COLORS[k]."""
    with gl.ctx:
        return {
            k: gl.ctx.texture((k + 1, 1), 4, np.tile(COLORS[k], k + 1).tobytes(), dtype="f4")
            for k in range(len(COLORS))
        }


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_tex_and_txq_read_the_indexed_view(gl, shape, shape_extensions):
    """TEX and TXQ on SAMP[ADDR[0].x+1]: colour and width of texture 1 + index."""
    version, extensions, kind = SHAPES[shape]
    shape_extensions(extensions)
    src = gl.lower(TEX_FS, version).source
    assert ("switch (" in src) == (kind == "switch"), src
    texs = _textures(gl)
    try:
        for index in range(3):
            consts = {0: np.array([index, 0, 0, 0], U32)}
            out = gl.run_fs(TEX_FS, version, 1, consts=consts, textures=texs)[0, 0, 0].view(np.float32)
            k = 1 + index
            exp = np.array([*COLORS[k][:3], np.float32(k + 1)], np.float32)
            np.testing.assert_array_equal(out[:3], exp[:3], err_msg=f"{shape}: ADDR = {index}")
            assert out[3].view(np.int32) == k + 1, f"{shape}: TXQ width, ADDR = {index}"
    finally:
        with gl.ctx:
            for t in texs.values():
                t.release()


def test_sampler_array_reflection_lists_every_element():
    """The reflection lists one sampler per element of the range, on consecutive units
    (tex_base + n), so the context binds every slot of the range."""
    shader = lowering.to_glsl(TEX_FS, glsl_version=450)
    refl = shader.reflection
    layout = BindingLayout.gl45()
    views = sorted(s.view for s in refl.samplers)
    assert views == [0, 1, 2, 3]
    base = min(s.unit for s in refl.samplers)
    assert sorted(s.unit for s in refl.samplers) == [base, base + 1, base + 2, base + 3]
    assert all(s.sampler == s.view for s in refl.samplers)
    assert base == layout.texture_unit("FRAG", 0)


# ---------------------------------------------------------------------------
# Shader buffers
# ---------------------------------------------------------------------------

CS_HEADER = f"""COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {N}
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
"""

# BUFFER[0]: results (16 bytes per invocation); BUFFER[1..3]: the indexed range.
# Invocation i: LOAD the word at byte 4i of BUFFER[1 + ADDR], ATOMUADD 1000 to the word at
# byte 64 + 4i (old value returned), STORE 7 + i at byte 128 + 4i, RESQ the size.
BUFFER_CS = (
    CS_HEADER
    + """DCL BUFFER[0]
DCL BUFFER[1..3]
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0..3]
IMM[0] UINT32 {4, 64, 128, 16}
IMM[1] UINT32 {1000, 7, 0, 0}
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  2: UADD TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
  3: UADD TEMP[0].z, TEMP[0].xxxx, IMM[0].zzzz
  4: UADD TEMP[3].x, SV[0].xxxx, IMM[1].yyyy
  5: LOAD TEMP[1].x, BUFFER[ADDR[0].x+1], TEMP[0].xxxx
  6: ATOMUADD TEMP[1].y, BUFFER[ADDR[0].x+1], TEMP[0].yyyy, IMM[1].xxxx
  7: STORE BUFFER[ADDR[0].x+1].x, TEMP[0].zzzz, TEMP[3].xxxx
  8: RESQ TEMP[1].z, BUFFER[ADDR[0].x+1]
  9: MOV TEMP[1].w, IMM[1].zzzz
 10: UMUL TEMP[2].x, SV[0].xxxx, IMM[0].wwww
 11: STORE BUFFER[0], TEMP[2].xxxx, TEMP[1]
 12: END
"""
)


def _buffer_contents():
    """BUFFER[1 + k]: 48 + 4k words, word w = 100000 (k + 1) + w."""
    return {1 + k: (100000 * (k + 1) + np.arange(48 + 4 * k)).astype(U32) for k in range(3)}


def _check_buffers(out, index):
    init = _buffer_contents()
    sel = 1 + index
    i = np.arange(N)
    res = out[0].reshape(N, 4)
    np.testing.assert_array_equal(res[:, 0], init[sel][i], err_msg="LOAD")
    np.testing.assert_array_equal(res[:, 1], init[sel][16 + i], err_msg="ATOMUADD returns the old value")
    np.testing.assert_array_equal(res[:, 2], np.full(N, init[sel].size * 4), err_msg="RESQ: size in bytes")
    exp = init[sel].copy()
    exp[16 + i] += 1000
    exp[32 + i] = 7 + i
    np.testing.assert_array_equal(out[sel], exp, err_msg="the selected buffer")
    for other in set(init) - {sel}:
        np.testing.assert_array_equal(out[other], init[other], err_msg=f"BUFFER[{other}] is untouched")


MEMORY_SHAPES = {
    "array_450": (450, None, "array"),
    "switch_330_ext": (330, MEMORY_EXTENSIONS_330, "switch"),
}


@pytest.mark.parametrize("shape", sorted(MEMORY_SHAPES))
def test_buffer_load_store_atomic_resq_on_the_indexed_buffer(gl, shape, shape_extensions):
    version, extensions, kind = MEMORY_SHAPES[shape]
    shape_extensions(extensions)
    src = gl.lower(BUFFER_CS, version).source
    assert ("switch (" in src) == (kind == "switch"), src
    for index in range(3):
        bufs = {0: np.zeros(4 * N, U32), **_buffer_contents()}
        out = gl.run_cs(BUFFER_CS, bufs, glsl_version=version, consts={0: np.array([index, 0, 0, 0], U32)})
        _check_buffers(out, index)


GL33_FS = """FRAG
DCL OUT[0], COLOR
{decl}
DCL CONST[0][0]
DCL ADDR[0]
IMM[0] UINT32 {{0, 0, 0, 0}}
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: {load}
  2: END
"""


@pytest.mark.parametrize(
    "decl,load",
    [
        ("DCL BUFFER[0..2]", "LOAD OUT[0].x, BUFFER[ADDR[0].x+1], IMM[0].xxxx"),
        (
            "DCL IMAGE[0..2], 2D, PIPE_FORMAT_R32_UINT, WR",
            "LOAD OUT[0], IMAGE[ADDR[0].x], IMM[0], 2D, PIPE_FORMAT_R32_UINT",
        ),
    ],
    ids=["BUFFER", "IMAGE"],
)
def test_memory_indexing_on_the_gl33_profile_is_refused(decl, load):
    """GLSL 330 without the SSBO / image extensions (the gl33 profile): UnsupportedError
    naming the resource, never GLSL that reads the wrong element."""
    file = decl.split()[1].split("[")[0]
    with pytest.raises(UnsupportedError, match=file):
        lowering.to_glsl(GL33_FS.format(decl=decl, load=load), glsl_version=330)


# ---------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------

# IMAGE[0..2] R32UI 2D, image k is (8 + 4k) x 1.  Invocation i: LOAD texel (i, 0),
# ATOMUADD 1000 on it (old value back), then STORE 5 + i at texel (i + 8, 0) -- inside
# images 1 and 2 (image 1 drops the stores past its width 12) -- and RESQ the size.
IMAGE_CS = (
    CS_HEADER
    + """DCL BUFFER[0]
DCL IMAGE[0..2], 2D, PIPE_FORMAT_R32_UINT, WR
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0..4]
IMM[0] UINT32 {0, 8, 5, 16}
IMM[1] UINT32 {1000, 0, 0, 0}
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: MOV TEMP[0], IMM[0].xxxx
  2: MOV TEMP[0].x, SV[0].xxxx
  3: LOAD TEMP[1].x, IMAGE[ADDR[0].x], TEMP[0], 2D, PIPE_FORMAT_R32_UINT
  4: ATOMUADD TEMP[1].y, IMAGE[ADDR[0].x], TEMP[0], IMM[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
  5: UADD TEMP[0].x, SV[0].xxxx, IMM[0].yyyy
  6: UADD TEMP[3].x, SV[0].xxxx, IMM[0].zzzz
  7: STORE IMAGE[ADDR[0].x], TEMP[0], TEMP[3].xxxx, 2D, PIPE_FORMAT_R32_UINT
  8: RESQ TEMP[4].xy, IMAGE[ADDR[0].x], 2D, PIPE_FORMAT_R32_UINT
  9: MOV TEMP[1].zw, TEMP[4].xxxy
 10: UMUL TEMP[2].x, SV[0].xxxx, IMM[0].wwww
 11: STORE BUFFER[0], TEMP[2].xxxx, TEMP[1]
 12: END
"""
)


def _image_contents():
    return {k: (1000 * (k + 1) + np.arange(8 + 4 * k)).astype(U32) for k in range(3)}


@pytest.mark.parametrize("shape", sorted(MEMORY_SHAPES))
def test_image_load_store_atomic_resq_on_the_indexed_image(gl, shape, shape_extensions):
    version, extensions, kind = MEMORY_SHAPES[shape]
    shape_extensions(extensions)
    src = gl.lower(IMAGE_CS, version).source
    assert ("switch (" in src) == (kind == "switch"), src
    for index in (1, 2):
        init = _image_contents()
        with gl.ctx:
            imgs = {k: gl.ctx.texture((v.size, 1), 1, v.tobytes(), dtype="u4") for k, v in init.items()}
        try:
            out = gl.run_cs(
                IMAGE_CS,
                {0: np.zeros(4 * N, U32)},
                glsl_version=version,
                consts={0: np.array([index, 0, 0, 0], U32)},
                images=imgs,
            )
            with gl.ctx:
                after = {k: np.frombuffer(t.read(), dtype=U32) for k, t in imgs.items()}
        finally:
            with gl.ctx:
                for t in imgs.values():
                    t.release()
        i = np.arange(N)
        res = out[0].reshape(N, 4)
        np.testing.assert_array_equal(res[:, 0], init[index][i], err_msg="LOAD")
        np.testing.assert_array_equal(res[:, 1], init[index][i], err_msg="ATOMUADD returns the old texel")
        np.testing.assert_array_equal(res[:, 2], np.full(N, init[index].size), err_msg="RESQ.x: width")
        np.testing.assert_array_equal(res[:, 3], np.ones(N), err_msg="RESQ.y: height")
        exp = init[index].copy()
        exp[i] += 1000
        exp[8 + i[: exp.size - 8]] = 5 + i[: exp.size - 8]
        np.testing.assert_array_equal(after[index], exp, err_msg="the selected image")
        for other in set(init) - {index}:
            np.testing.assert_array_equal(after[other], init[other], err_msg=f"IMAGE[{other}] is untouched")


# ---------------------------------------------------------------------------
# The validator: the index base must lie in a declared range
# ---------------------------------------------------------------------------

REFUSED = {
    "SAMP": (
        "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0..3]\nDCL ADDR[0]\nIMM[0] FLT32 {0.5, 0.5, 0, 0}\n"
        "ARL ADDR[0].x, IMM[0].xxxx\nTEX OUT[0], IMM[0], SAMP[ADDR[0].x+4], 2D\nEND\n",
        r"SAMP\[ADDR\[0\]\.x\+4\]",
        7,
    ),
    "SVIEW": (
        "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0..1], 2D, FLOAT\nDCL SVIEW[3], 2D, FLOAT\n"
        "DCL ADDR[0]\nIMM[0] FLT32 {0.5, 0.5, 0, 0}\nARL ADDR[0].x, IMM[0].xxxx\n"
        "SAMPLE OUT[0], IMM[0], SVIEW[ADDR[0].x+2], SAMP[0]\nEND\n",
        r"SVIEW\[ADDR\[0\]\.x\+2\]",
        9,
    ),
    "BUFFER": (
        CS_HEADER + "DCL BUFFER[0..1]\nDCL ADDR[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n"
        "UARL ADDR[0].x, IMM[0].xxxx\nLOAD TEMP[0].x, BUFFER[ADDR[0].x+5], IMM[0].xxxx\nEND\n",
        r"BUFFER\[ADDR\[0\]\.x\+5\]",
        11,
    ),
    "IMAGE": (
        CS_HEADER + "DCL IMAGE[1..2], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL ADDR[0]\nDCL TEMP[0]\n"
        "IMM[0] UINT32 {0, 0, 0, 0}\nUARL ADDR[0].x, IMM[0].xxxx\n"
        "LOAD TEMP[0], IMAGE[ADDR[0].x], IMM[0], 2D, PIPE_FORMAT_R32_UINT\nEND\n",
        r"IMAGE\[ADDR\[0\]\.x\]",
        11,
    ),
}


@pytest.mark.parametrize("file", sorted(REFUSED))
def test_index_base_outside_the_declared_ranges_is_refused(file):
    text, register, line = REFUSED[file]
    with pytest.raises(ShaderValidationError, match=register) as info:
        lowering.validate(lowering.parse(text))
    assert info.value.line == line
    assert f"line {line}" in str(info.value)
    assert "declared" in str(info.value)


def test_index_base_inside_a_declared_range_is_accepted():
    text = REFUSED["SAMP"][0].replace("+4]", "+3]")
    lowering.validate(lowering.parse(text))


# ---------------------------------------------------------------------------
# Sampler arrays that cannot share units or one declaration
# ---------------------------------------------------------------------------

TWO_TYPES_FS = """FRAG
DCL OUT[0], COLOR
DCL SAMP[0..3]
DCL CONST[0][0]
DCL ADDR[0]
DCL TEMP[0..1]
IMM[0] FLT32 {0.5, 0.5, 0.5, 0.0}
  0: UARL ADDR[0].x, CONST[0][0].xxxx
  1: TEX TEMP[0], IMM[0], SAMP[ADDR[0].x], 2D
  2: TEX TEMP[1].x, IMM[0], SAMP[ADDR[0].x], SHADOW2D
  3: TEX TEMP[1].y, IMM[0], SAMP[2], SHADOW2D
  4: ADD OUT[0], TEMP[0], TEMP[1].xxxy
  5: END
"""


@pytest.mark.parametrize("version", [450, 330])
def test_one_range_as_two_sampler_types_never_shares_a_unit(gl, version):
    """A range sampled as sampler2D and as sampler2DShadow: GL forbids two sampler types
    on one texture unit in a program, so every unit holds one type, every element of
    both is listed, and the program links and validates on the host."""
    shader = lowering.to_glsl(TWO_TYPES_FS, glsl_version=version)
    refl = shader.reflection
    types_of_unit = {}
    for s in refl.samplers:
        types_of_unit.setdefault(s.unit, set()).add(s.glsl_type)
    assert all(len(t) == 1 for t in types_of_unit.values()), types_of_unit
    for glsl_type in ("sampler2D", "sampler2DShadow"):
        assert {s.view for s in refl.samplers if s.glsl_type == glsl_type} == {0, 1, 2, 3}
    with gl.ctx:
        prog = gl.ctx.program(vertex_shader=H.FULL_SCREEN_VS.format(version=version), fragment_shader=shader.source)
        try:
            for name, unit in refl.sampler_units:
                loc = gl.gl.glGetUniformLocation(prog.glo, name)
                if loc >= 0:
                    gl.gl.glProgramUniform1i(prog.glo, loc, unit)
            gl.gl.glValidateProgram(prog.glo)
            assert gl.gl.glGetProgramiv(prog.glo, gl.gl.GL_VALIDATE_STATUS) == 1, gl.gl.glGetProgramInfoLog(prog.glo)
        finally:
            prog.release()


@pytest.mark.parametrize("clamp_bits,kind", [((0b0010, 0, 0), "switch"), ((0b1111, 0b1111, 0), "array")])
def test_gl_clamp_on_some_elements_only_takes_the_switch(clamp_bits, kind):
    """VariantKey.gl_clamp is per sampler: when the elements of a range clamp different
    coordinates one array lookup cannot do it, so even at GLSL 450 the lookup is a
    switch whose cases clamp per element; when all agree it stays an array."""
    from lowering.glsl.variant import VariantKey

    src = lowering.to_glsl(TEX_FS, glsl_version=450, key=VariantKey(gl_clamp=clamp_bits)).source
    assert ("switch (" in src) == (kind == "switch")
    assert "GL_CLAMP" in src


def test_view_and_sampler_indexed_by_different_addresses_is_refused():
    """SVIEW[ADDR[0].x] with SAMP[ADDR[1].x]: a GLSL sampler is one (view, sampler) pair, so
    independent indices would need every pair; refused honestly, naming both operands."""
    text = (
        "FRAG\nDCL OUT[0], COLOR\nDCL SAMP[0..1]\nDCL SVIEW[0..1], 2D, FLOAT\nDCL ADDR[0..1]\n"
        "IMM[0] FLT32 {0.5, 0.5, 0, 0}\nARL ADDR[0].x, IMM[0].xxxx\nARL ADDR[1].x, IMM[0].xxxx\n"
        "SAMPLE OUT[0], IMM[0], SVIEW[ADDR[0].x], SAMP[ADDR[1].x]\nEND\n"
    )
    for version in (450, 330):
        with pytest.raises(UnsupportedError, match="SVIEW and SAMP indexed by different address registers"):
            lowering.to_glsl(text, glsl_version=version)
