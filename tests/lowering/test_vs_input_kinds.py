"""Vertex shader input kinds (``VariantKey.vs_input_types``): declarations,
the conversion code of ``snorm`` / ``uscaled``, and what the host then reads.

``float`` / ``int`` / ``uint`` only choose the GLSL type of the ``in``
variable; ``snorm`` reads ``max(in, vec4(-1.0))`` (GL 4.2+ / Gallium's SNORM
rule, which llvmpipe's own fetch lacks) and ``uscaled`` declares a ``uvec4``
(fed by glVertexAttribIPointer) read as ``vec4(in)`` (llvmpipe converts
32-bit USCALED values >= 2^31 as signed).  The text tests pin the exact
lines and show the conversion appears for those two kinds only, wherever
the input is read (direct, swizzled, through the indirect-read helper).
The execution tests feed the attribute through raw GL pointers on the host,
per vertex and per instance (llvmpipe's per-instance fetch is where its SNORM
minimum goes wrong), and compare with the formats' definitions computed here
in numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
from glsl_compile import HostCompiler

from lowering import VariantKey, to_glsl
from lowering.errors import InvalidArgumentError
from lowering.glsl import stages
from lowering.glsl.variant import COLOR_TYPES, VS_INPUT_TYPES

VERSIONS = (330, 450)

# IN[0] position, IN[1] the attribute under test: copied whole, and read
# swizzled into an arithmetic expression.
VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: ADD TEMP[0].xy, IN[1].yxxx, IN[1].zzzz
  3: END
"""

# IN[ADDR[0].x + 1]: the read goes through the switch helper.
VS_INDIRECT = """VERT
DCL IN[0]
DCL IN[1..2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL ADDR[0]
IMM[0] INT32 {1, 0, 0, 0}
  0: MOV OUT[0], IN[0]
  1: UARL ADDR[0].x, IMM[0].xxxx
  2: MOV OUT[1], IN[ADDR[0].x+1]
  3: END
"""

FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

# kind -> (declaration of IN[1], the statement MOV OUT[1], IN[1] becomes,
# the statement of the ADD).  Written out by hand from the kinds' definitions.
EXPECTED = {
    "float": (
        "layout(location = 1) in vec4 glp_attr_1;",
        "glp_generic_0 = glp_attr_1;",
        "t0.xy = glp_attr_1.yx + glp_attr_1.zz;",
    ),
    "snorm": (
        "layout(location = 1) in vec4 glp_attr_1;",
        "glp_generic_0 = max(glp_attr_1, vec4(-1.0));",
        "t0.xy = max(glp_attr_1, vec4(-1.0)).yx + max(glp_attr_1, vec4(-1.0)).zz;",
    ),
    "uscaled": (
        "layout(location = 1) in uvec4 glp_attr_1;",
        "glp_generic_0 = vec4(glp_attr_1);",
        "t0.xy = vec4(glp_attr_1).yx + vec4(glp_attr_1).zz;",
    ),
    # Integer kinds keep the bits: the TGSI register holds the integer.
    "uint": (
        "layout(location = 1) in uvec4 glp_attr_1;",
        "glp_generic_0 = uintBitsToFloat(glp_attr_1);",
        "t0.xy = uintBitsToFloat(glp_attr_1.yx) + uintBitsToFloat(glp_attr_1.zz);",
    ),
    "int": (
        "layout(location = 1) in ivec4 glp_attr_1;",
        "glp_generic_0 = intBitsToFloat(glp_attr_1);",
        "t0.xy = intBitsToFloat(glp_attr_1.yx) + intBitsToFloat(glp_attr_1.zz);",
    ),
}

CONVERSIONS = ("max(glp_attr_", "vec4(glp_attr_")


def _lower(text: str, kinds, version: int = 330):
    return to_glsl(text, key=VariantKey(vs_input_types=tuple(kinds)), glsl_version=version)


def _lines(source: str):
    return [line.strip() for line in source.splitlines()]


# ---------------------------------------------------------------------------
# Names and validation
# ---------------------------------------------------------------------------


def test_kinds_are_the_color_types_plus_the_conversions():
    assert VS_INPUT_TYPES == COLOR_TYPES + ("snorm", "uscaled")
    assert set(stages._VS_INPUT_KINDS) == set(VS_INPUT_TYPES)  # the emitter knows every kind


def test_unknown_kinds_are_rejected_naming_the_field():
    with pytest.raises(InvalidArgumentError, match="vs_input_types.*'unorm'"):
        VariantKey(vs_input_types=("float", "unorm"))
    # The conversion kinds are vertex-input kinds only, never color outputs.
    with pytest.raises(InvalidArgumentError, match="color_output_types.*'snorm'"):
        VariantKey(color_output_types=("snorm",))


def test_key_parse_accepts_the_new_kinds():
    key = VariantKey.parse(["vs_input_types=float,snorm,uscaled"])
    assert key.vs_input_types == ("float", "snorm", "uscaled")
    assert key.vs_input_type(1) == "snorm" and key.vs_input_type(3) is None


# ---------------------------------------------------------------------------
# Text: the conversion appears for snorm / uscaled only
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_declaration_and_reads_per_kind(kind):
    decl, mov, add = EXPECTED[kind]
    lines = _lines(_lower(VS, ("float", kind)).source)
    assert decl in lines and mov in lines and add in lines
    # IN[0] (float) is never converted; IN[1] only for the converting kinds.
    assert "gl_Position = glp_attr_0;" in lines
    source = "\n".join(lines)
    converted = any(c in source for c in CONVERSIONS)
    assert converted == (kind in ("snorm", "uscaled"))


def test_each_location_gets_its_own_kind():
    """A conversion of one location never leaks to another one."""
    source = _lower(VS_INDIRECT, ("uscaled", "float", "snorm")).source
    lines = _lines(source)
    assert "layout(location = 0) in uvec4 glp_attr_0;" in lines
    assert "layout(location = 1) in vec4 glp_attr_1;" in lines
    assert "layout(location = 2) in vec4 glp_attr_2;" in lines
    assert "gl_Position = vec4(glp_attr_0);" in lines
    # The indirect-read helper converts per case.
    assert "case 0: return floatBitsToUint(vec4(glp_attr_0));" in lines
    assert "case 1: return floatBitsToUint(glp_attr_1);" in lines
    assert "case 2: return floatBitsToUint(max(glp_attr_2, vec4(-1.0)));" in lines
    assert "max(glp_attr_0" not in source and "max(glp_attr_1" not in source
    assert "vec4(glp_attr_1)" not in source and "vec4(glp_attr_2)" not in source


def test_no_key_is_the_plain_lowering():
    """Without vs_input_types the types are inferred and nothing is converted."""
    source = to_glsl(VS, glsl_version=330).source
    assert not any(c in source for c in CONVERSIONS)
    assert _lower(VS, ("float", "float")).source == source


def test_reflection_reports_the_declared_type():
    refl = _lower(VS, ("snorm", "uscaled")).reflection
    assert refl.input(0).glsl_type == "vec4" and refl.input(1).glsl_type == "uvec4"


# ---------------------------------------------------------------------------
# Compile and execute on the host
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def host():
    compiler = HostCompiler()
    yield compiler
    compiler.ctx.release()


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("text", [VS, VS_INDIRECT], ids=["direct", "indirect"])
def test_every_kind_compiles(host, text, version):
    GL = host.GL
    for kind in VS_INPUT_TYPES:
        source = _lower(text, ("float", kind, kind), version).source
        assert host.compile(source, GL.GL_VERTEX_SHADER) is None, (kind, source)


def _fetch(
    host,
    kind: str,
    version: int,
    data: bytes,
    size: int,
    gl_type: int,
    integer: bool,
    normalized: bool = False,
    divisor: int = 0,
) -> np.ndarray:
    """Draw one point whose IN[1] is ``data`` (one element, ``size``
    components of ``gl_type``) through glVertexAttribIPointer (``integer``)
    or glVertexAttribPointer, per vertex or per instance (``divisor``), with
    IN[1] of ``kind``; return what the VS read."""
    GL, ctx = host.GL, host.ctx
    # GLSL 330 links only matching interpolation qualifiers (the FS's flat input).
    vs = to_glsl(
        VS,
        key=VariantKey(vs_input_types=("float", kind), output_interpolation=(("GENERIC", 0, "CONSTANT", "CENTER"),)),
        glsl_version=version,
    )
    fs = to_glsl(FS, key=VariantKey(), glsl_version=version)
    with ctx:
        prog = ctx.program(vertex_shader=vs.source, fragment_shader=fs.source)
        target = ctx.texture((1, 1), 4, dtype="f4")
        fbo = ctx.framebuffer(color_attachments=[target])
        pos = ctx.buffer(np.array([0.0, 0.0, 0.0, 1.0], np.float32).tobytes())
        attr = ctx.buffer(data)
        vao = GL.glGenVertexArrays(1)
        try:
            GL.glBindVertexArray(vao)
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, pos.glo)
            GL.glVertexAttribPointer(0, 4, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
            GL.glEnableVertexAttribArray(0)
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, attr.glo)
            if integer:
                GL.glVertexAttribIPointer(1, size, gl_type, 0, None)
            else:
                GL.glVertexAttribPointer(1, size, gl_type, GL.GL_TRUE if normalized else GL.GL_FALSE, 0, None)
            GL.glEnableVertexAttribArray(1)
            GL.glVertexAttribDivisor(1, divisor)
            fbo.use()
            fbo.clear(-7.0, -7.0, -7.0, -7.0)
            GL.glUseProgram(prog.glo)
            GL.glDrawArrays(GL.GL_POINTS, 0, 1)
            out = np.frombuffer(fbo.read(components=4, dtype="f4"), np.float32)[:4].copy()
        finally:
            GL.glBindVertexArray(0)
            GL.glDeleteVertexArrays(1, [vao])
            for obj in (attr, pos, fbo, target, prog):
                obj.release()
    return out


# llvmpipe's per-instance fetch (glpipe's path for instance divisors and
# Gallium stride 0) is where its SNORM minimum comes out as -128/127.
FETCH_RATES = pytest.mark.parametrize("divisor", [0, 1], ids=["per_vertex", "per_instance"])


@FETCH_RATES
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("bits, np_type, gl_name", [(8, np.int8, "GL_BYTE"), (16, np.int16, "GL_SHORT")])
def test_snorm_reads_the_definition(host, version, bits, np_type, gl_name, divisor):
    """SNORM: max(x / (2^(n-1) - 1), -1); the minimum reads exactly -1."""
    top = (1 << (bits - 1)) - 1
    raw = np.array([-top - 1, top, -top, 5], np_type)
    want = np.maximum(raw.astype(np.float64) / top, -1.0).astype(np.float32)
    got = _fetch(
        host,
        "snorm",
        version,
        raw.tobytes(),
        4,
        getattr(host.GL, gl_name),
        integer=False,
        normalized=True,
        divisor=divisor,
    )
    assert got[0] == -1.0
    assert np.allclose(got, want, rtol=2e-7, atol=0), (got, want)


@FETCH_RATES
@pytest.mark.parametrize("version", VERSIONS)
def test_uscaled32_reads_unsigned_values(host, version, divisor):
    """USCALED: float(x) of the unsigned 32-bit value, top bit set included."""
    raw = np.array([0x80000000, 0xFFFFFF00, 7, 0x9ABCDE00], np.uint32)
    want = raw.astype(np.float64).astype(np.float32)  # all exactly representable
    got = _fetch(host, "uscaled", version, raw.tobytes(), 4, host.GL.GL_UNSIGNED_INT, integer=True, divisor=divisor)
    assert np.array_equal(got, want), (got, want)


def test_uscaled32_missing_components_read_0_0_1(host):
    """Two components fetched: the integer path supplies (z, w) = (0, 1)."""
    raw = np.array([0xF0000000, 3], np.uint32)
    got = _fetch(host, "uscaled", 330, raw.tobytes(), 2, host.GL.GL_UNSIGNED_INT, integer=True)
    assert np.array_equal(got, np.array([float(0xF0000000), 3.0, 0.0, 1.0], np.float32)), got
