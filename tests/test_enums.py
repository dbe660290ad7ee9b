"""glpipe.enums and glpipe.p_defines against the spec, docs/api.md and Mesa's headers.

The spec is read from the repository's copies of Mesa's screen.rst
(``tests/data/spec``); the enum table from docs/api.md "Names".  Expected
numbers are written by hand from Mesa's headers (cited per block), never
taken from the code under test.
"""

from __future__ import annotations

import enum
import re
import sys
from pathlib import Path

import pytest

from glpipe import enums, p_defines
from glpipe.enums import (
    Barrier,
    Bind,
    BlendFactor,
    Cap,
    CapF,
    Clear,
    ComputeCap,
    Endian,
    Func,
    LogicOp,
    Map,
    Prim,
    Query,
    ShaderCap,
    ShaderType,
    StencilOp,
    Swizzle,
    Target,
    TexWrap,
)

_SPEC = Path(__file__).resolve().parent / "data" / "spec"
_API_MD = Path(__file__).resolve().parents[1] / "docs" / "api.md"
_SPEC_FILES = ["screen.rst", "older/screen-000.rst", "older/screen-002.rst"]

_CAP_PREFIXES = {"PIPE_CAP_": Cap, "PIPE_CAPF_": CapF, "PIPE_SHADER_CAP_": ShaderCap, "PIPE_COMPUTE_CAP_": ComputeCap}


def _read(rel: str) -> str:
    return (_SPEC / rel).read_text(encoding="utf-8")


def _spec_caps(rel: str) -> dict:
    """C prefix -> set of cap names (without prefix) the spec file mentions."""
    text = _read(rel)
    return {prefix: set(re.findall(r"\b" + prefix + r"([A-Z0-9_]*[A-Z0-9])\b", text)) for prefix in _CAP_PREFIXES}


# ---------------------------------------------------------------------------
# Every cap the spec (current and older) names is a member and a C spelling
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rel", _SPEC_FILES)
def test_every_spec_cap_is_a_member_and_a_c_spelling(rel):
    found = _spec_caps(rel)
    assert sum(len(v) for v in found.values()) > 100, f"regex found too few caps in {rel}"
    for prefix, names in found.items():
        cls = _CAP_PREFIXES[prefix]
        missing = sorted(n for n in names if n not in cls.__members__)
        assert not missing, f"{rel}: {cls.__name__} lacks {missing}"
        for name in names:
            assert getattr(p_defines, prefix + name) is cls[name]
            assert prefix + name in dir(p_defines)


def test_current_spec_caps_are_not_retired():
    # A cap screen.rst documents today must be answerable as a current cap,
    # so it may be a Mesa cap or an alias of one, never a retired member.
    current = _spec_caps("screen.rst")
    for prefix, names in current.items():
        cls = _CAP_PREFIXES[prefix]
        retired = {m.name for m in enums.RETIRED_CAPS[cls]}
        assert not (names & retired), (cls.__name__, sorted(names & retired))


def test_retired_caps_have_their_own_values_after_mesas():
    # enum pipe_cap of the Mesa 24.1-era p_defines.h ends with
    # PIPE_CAP_PERFORMANCE_MONITOR (value 273) followed by PIPE_CAP_LAST (274).
    mesa_last = {Cap: 273, CapF: 14, ShaderCap: 31, ComputeCap: 16}
    for cls, last in mesa_last.items():
        values = [m.value for m in cls]  # canonical members only (no aliases)
        assert len(values) == len(set(values))
        for member in enums.RETIRED_CAPS[cls]:
            assert member.value > last, member
            assert cls(member.value) is member  # not an alias of a current cap
        # Mesa's own caps are exactly 0..last, no holes
        assert set(range(last + 1)) <= set(values)


def test_old_cap_names_alias_their_successors():
    # Renames in Mesa's history (tests/data/spec/older/screen-000.rst vs screen.rst).
    assert Cap.TGSI_INSTANCEID is Cap.VS_INSTANCEID
    assert Cap.TGSI_VS_LAYER_VIEWPORT is Cap.VS_LAYER_VIEWPORT
    assert Cap.TGSI_FS_COORD_ORIGIN_UPPER_LEFT is Cap.FS_COORD_ORIGIN_UPPER_LEFT
    assert Cap.TGSI_TXQS is Cap.TEXTURE_QUERY_SAMPLES
    assert Cap.TGSI_VOTE is Cap.SHADER_GROUP_VOTE
    assert CapF.MAX_POINT_WIDTH is CapF.MAX_POINT_SIZE
    assert ShaderCap.TGSI_CONT_SUPPORTED is ShaderCap.CONT_SUPPORTED
    assert p_defines.PIPE_CAP_TGSI_INSTANCEID is Cap.VS_INSTANCEID
    # every rename table entry really is an alias
    for cls, renames in enums.CAP_RENAMES.items():
        for old, new in renames.items():
            assert cls[old] is cls[new]
    # retired caps named in the brief stay distinct, answerable members
    for name in ("POINT_SPRITE", "CLEAR_TEXTURE", "TWO_SIDED_STENCIL"):
        assert Cap[name] in enums.RETIRED_CAPS[Cap]
        assert Cap[name].name == name


# ---------------------------------------------------------------------------
# docs/api.md "Names": every class of the enum table imports from glpipe.enums
# ---------------------------------------------------------------------------


def _api_enum_table() -> list:
    """(C prefix cell, class name, is_flag) for each entry of docs/api.md's enum table."""
    text = _API_MD.read_text(encoding="utf-8")
    start = text.index("| C prefix | class |")
    rows = []
    for line in text[start:].splitlines()[2:]:
        line = line.strip()
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        for prefix_cell, class_cell in zip(cells[0::2], cells[1::2], strict=True):
            name = re.search(r"`(\w+)`", class_cell).group(1)
            rows.append((prefix_cell, name, "(flag)" in class_cell))
    return rows


def test_api_table_parses():
    rows = _api_enum_table()
    assert len(rows) == 38  # 19 rows of two entries
    assert ("PIPE_CAP_", "Cap", False) in rows


@pytest.mark.parametrize("prefix_cell,name,is_flag", _api_enum_table())
def test_api_table_class_is_in_defs(prefix_cell, name, is_flag):
    if name == "Format":  # written by glpipe/formats.py, not enums
        from glpipe.formats import Format

        assert issubclass(Format, enum.IntEnum)
        assert p_defines.PIPE_FORMAT_R8G8B8A8_UNORM is Format.R8G8B8A8_UNORM
        return
    assert name in enums.__all__
    cls = getattr(enums, name)
    assert issubclass(cls, enum.IntFlag if is_flag else enum.IntEnum)
    # Every member has a C spelling in p_defines, built from a prefix of the
    # table cell ("PIPE_TEXTURE_*" and "PIPE_*_RESET" rows spell PIPE_ + name).
    prefixes = [tok for tok in re.findall(r"PIPE_[A-Z_]*", prefix_cell) if tok.endswith("_")]
    prefixes.append("PIPE_")
    spelled = {"ZERO": "0", "ONE": "1"} if name == "Swizzle" else {}
    for member_name, member in cls.__members__.items():
        suffix = spelled.get(member_name, member_name)
        hits = [p for p in prefixes if getattr(p_defines, p + suffix, None) is member]
        assert hits, f"no C spelling of {name}.{member_name} via {prefixes}"


# ---------------------------------------------------------------------------
# Values spot-checked against the headers (hand-copied numbers)
# ---------------------------------------------------------------------------


def test_cap_values_match_mesa_24_1_enum_order():
    # p_defines.h (Mesa 24.1 era) enum pipe_cap: position in the enum.
    assert Cap.GRAPHICS == 0
    assert Cap.NPOT_TEXTURES == 1
    assert Cap.MAX_RENDER_TARGETS == 4
    assert Cap.TEXTURE_SWIZZLE == 8
    assert Cap.MAX_TEXTURE_2D_SIZE == 9
    assert Cap.PRIMITIVE_RESTART == 15
    assert Cap.VS_INSTANCEID == 28
    assert Cap.VALIDATE_ALL_DIRTY_STATES == 271
    assert Cap.HAS_CONST_BW == 272
    assert Cap.PERFORMANCE_MONITOR == 273
    # enum pipe_capf / pipe_shader_cap / pipe_compute_cap
    assert CapF.MIN_LINE_WIDTH == 0 and CapF.MAX_POINT_SIZE == 7
    assert CapF.CONSERVATIVE_RASTER_DILATE_GRANULARITY == 14
    assert ShaderCap.MAX_INSTRUCTIONS == 0 and ShaderCap.MAX_TEMPS == 9
    assert ShaderCap.CONT_SUPPORTED == 10 and ShaderCap.INTEGERS == 16
    assert ShaderCap.MAX_HW_ATOMIC_COUNTER_BUFFERS == 31
    assert ComputeCap.ADDRESS_BITS == 0 and ComputeCap.IR_TARGET == 1
    assert ComputeCap.MAX_VARIABLE_THREADS_PER_BLOCK == 16


def test_small_enum_values_match_headers():
    # util/blend.h: INVERT_BIT 0x10 | base factor
    assert BlendFactor.ONE == 0x1 and BlendFactor.ZERO == 0x11
    assert BlendFactor.INV_CONST_COLOR == 0x17 and BlendFactor.INV_SRC1_ALPHA == 0x1A
    assert LogicOp.COPY == 12 and LogicOp.SET == 15
    # p_defines.h
    assert Func.ALWAYS == 7 and StencilOp.INVERT == 7
    assert TexWrap.MIRROR_CLAMP_TO_BORDER == 7
    assert Target.BUFFER == 0 and Target.TEXTURE_2D == 2 and Target.TEXTURE_CUBE_ARRAY == 8
    assert Query.TIMESTAMP == 3 and Query.SO_STATISTICS == 8
    assert Query.PIPELINE_STATISTICS == 12 and Query.DRIVER_SPECIFIC == 256
    assert Bind.DEPTH_STENCIL == 1 and Bind.STREAM_OUTPUT == 1 << 10
    assert Bind.QUERY_BUFFER == 1 << 18 and Bind.SCANOUT == 1 << 19
    assert Map.READ == 1 and Map.DISCARD_WHOLE_RESOURCE == 1 << 7
    assert Map.PERSISTENT == 1 << 8 and Map.COHERENT == 1 << 9
    assert Clear.COLOR == 0x3FC and Clear.DEPTHSTENCIL == 0x3
    assert Barrier.ALL == 0x3FFF
    # shader_enums.h: MESA_PRIM_* and MESA_SHADER_*
    assert Prim.TRIANGLES == 4 and Prim.QUADS == 7 and Prim.PATCHES == 14
    assert ShaderType.VERTEX == 0 and ShaderType.TESS_CTRL == 1
    assert ShaderType.FRAGMENT == 4 and ShaderType.COMPUTE == 5
    # u_formats.h: PIPE_SWIZZLE_0 = 4, PIPE_SWIZZLE_1 = 5
    assert Swizzle.ZERO == 4 and Swizzle.ONE == 5 and Swizzle.NONE == 6
    assert Endian.NATIVE == (Endian.LITTLE if sys.byteorder == "little" else Endian.BIG)


def test_limits_match_p_state_h():
    expected = {  # p_state.h "Implementation limits"
        "PIPE_MAX_ATTRIBS": 32,
        "PIPE_MAX_CLIP_PLANES": 8,
        "PIPE_MAX_COLOR_BUFS": 8,
        "PIPE_MAX_CONSTANT_BUFFERS": 32,
        "PIPE_MAX_SAMPLERS": 32,
        "PIPE_MAX_SHADER_INPUTS": 80,
        "PIPE_MAX_SHADER_OUTPUTS": 80,
        "PIPE_MAX_SHADER_SAMPLER_VIEWS": 128,
        "PIPE_MAX_SHADER_BUFFERS": 32,
        "PIPE_MAX_SHADER_IMAGES": 64,
        "PIPE_MAX_TEXTURE_LEVELS": 16,
        "PIPE_MAX_SO_BUFFERS": 4,
        "PIPE_MAX_SO_OUTPUTS": 128,
        "PIPE_MAX_VIEWPORTS": 16,
        "PIPE_MAX_WINDOW_RECTANGLES": 8,
        "PIPE_MAX_VERTEX_STREAMS": 4,
        "PIPE_MAX_TEXTURE_TYPES": 9,
        "PIPE_TIMEOUT_INFINITE": 2**64 - 1,
    }
    for name, value in expected.items():
        assert getattr(enums, name) == value, name
        assert getattr(p_defines, name) == value, name


# ---------------------------------------------------------------------------
# p_defines: the C spellings
# ---------------------------------------------------------------------------


def test_p_defines_spellings_are_the_members():
    assert p_defines.PIPE_CAP_GRAPHICS is Cap.GRAPHICS
    assert p_defines.PIPE_MAP_READ is Map.READ
    assert p_defines.PIPE_TRANSFER_READ is Map.READ  # pre-Mesa-21 spelling
    assert p_defines.PIPE_TRANSFER_MAP_DIRECTLY is Map.DIRECTLY
    assert p_defines.PIPE_TRANSFER_DISCARD_WHOLE_RESOURCE is Map.DISCARD_WHOLE_RESOURCE
    assert not hasattr(p_defines, "PIPE_MAP_MAP_DIRECTLY")
    assert p_defines.PIPE_BUFFER is Target.BUFFER
    assert p_defines.PIPE_TEXTURE_2D is Target.TEXTURE_2D
    assert p_defines.PIPE_PRIM_TRIANGLES is Prim.TRIANGLES
    assert p_defines.PIPE_SWIZZLE_0 is Swizzle.ZERO and p_defines.PIPE_SWIZZLE_1 is Swizzle.ONE
    assert p_defines.PIPE_NO_RESET is enums.ResetStatus.NO_RESET
    assert p_defines.PIPE_QUERY_TYPE_U64 is enums.QueryValueType.U64
    assert p_defines.PIPE_QUERY_WAIT is enums.QueryFlag.WAIT
    assert p_defines.PIPE_SHADER_FRAGMENT is ShaderType.FRAGMENT
    assert p_defines.PIPE_SHADER_IR_TGSI is enums.ShaderIR.TGSI
    assert p_defines.PIPE_CONTEXT_PRIORITY_HIGH is enums.ContextPriority.HIGH
    assert p_defines.PIPE_CONTEXT_HIGH_PRIORITY is enums.ContextFlag.HIGH_PRIORITY


def test_p_defines_all_is_complete_and_plain():
    names = set(dir(p_defines))
    assert set(p_defines.__all__) <= names
    assert all(n.startswith("PIPE_") for n in p_defines.__all__)
    assert len(p_defines.__all__) > 600
    namespace: dict = {}
    exec("from glpipe.p_defines import *", namespace)
    assert namespace["PIPE_CAP_POINT_SPRITE"] is Cap.POINT_SPRITE


def test_p_defines_formats():
    from glpipe.formats import Format

    assert p_defines.PIPE_FORMAT_NONE is Format.NONE
    assert p_defines.PIPE_FORMAT_R8G8B8A8_UNORM is Format.R8G8B8A8_UNORM
    assert p_defines.PIPE_FORMAT_R8G8B8A8_UNORM == 53  # position in u_formats.h enum pipe_format


def test_enums_all_lists_only_real_names():
    for name in enums.__all__:
        assert hasattr(enums, name), name
