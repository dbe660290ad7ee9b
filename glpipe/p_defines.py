"""Every C spelling of Gallium's enums, as module globals, for porting C line by line.

    from glpipe.p_defines import *
    screen.get_param(PIPE_CAP_GRAPHICS)
    ctx.transfer_map(res, 0, PIPE_TRANSFER_READ, box)     # old spelling of PIPE_MAP_READ
    templ = ResourceTemplate(target=PIPE_TEXTURE_2D, format=PIPE_FORMAT_R8G8B8A8_UNORM)

Each name is the enum member itself (``PIPE_CAP_GRAPHICS is Cap.GRAPHICS``),
so values print by name.  The names are generated from one table below
(class, C prefix, exceptions) rather than written out; ``dir()`` and
``__all__`` list them all.  Retired and renamed caps keep their old C
spellings too (``PIPE_CAP_TGSI_INSTANCEID``, ``PIPE_CAP_POINT_SPRITE``).
"""

from __future__ import annotations

from glpipe import enums as _enums
from glpipe.formats import Format as _Format

# The PIPE_TRANSFER_* names that existed before Mesa 21 renamed them PIPE_MAP_*
# (PIPE_TRANSFER_MAP_DIRECTLY is Map.MAP_DIRECTLY, an alias of Map.DIRECTLY).
_TRANSFER_NAMES = frozenset(
    {
        "READ",
        "WRITE",
        "READ_WRITE",
        "MAP_DIRECTLY",
        "DISCARD_RANGE",
        "DONTBLOCK",
        "UNSYNCHRONIZED",
        "FLUSH_EXPLICIT",
        "DISCARD_WHOLE_RESOURCE",
        "PERSISTENT",
        "COHERENT",
    }
)

# (enum class, C prefix, {member name: C suffix} spelled differently, member filter)
# A filter of None takes every member (aliases included).
_TABLE = [
    (_enums.Cap, "PIPE_CAP_", {}, None),
    (_enums.CapF, "PIPE_CAPF_", {}, None),
    (_enums.ShaderCap, "PIPE_SHADER_CAP_", {}, None),
    (_enums.ComputeCap, "PIPE_COMPUTE_CAP_", {}, None),
    (_enums.Bind, "PIPE_BIND_", {}, None),
    (_enums.Usage, "PIPE_USAGE_", {}, None),
    (_enums.ResourceFlag, "PIPE_RESOURCE_FLAG_", {}, None),
    (_enums.Target, "PIPE_", {}, None),  # PIPE_BUFFER, PIPE_TEXTURE_2D
    (_enums.Prim, "PIPE_PRIM_", {}, None),
    (_enums.ShaderType, "PIPE_SHADER_", {}, None),
    (_enums.ShaderIR, "PIPE_SHADER_IR_", {}, None),
    (_enums.Query, "PIPE_QUERY_", {}, None),
    (_enums.StatQuery, "PIPE_STAT_QUERY_", {}, None),
    (_enums.QueryFlag, "PIPE_QUERY_", {}, None),  # PIPE_QUERY_WAIT, _PARTIAL
    (_enums.QueryValueType, "PIPE_QUERY_TYPE_", {}, None),
    (_enums.RenderCond, "PIPE_RENDER_COND_", {}, None),
    (_enums.Flush, "PIPE_FLUSH_", {}, None),
    (_enums.Map, "PIPE_MAP_", {}, lambda name: name != "MAP_DIRECTLY"),
    (_enums.Map, "PIPE_TRANSFER_", {}, lambda name: name in _TRANSFER_NAMES),
    (_enums.Barrier, "PIPE_BARRIER_", {}, None),
    (_enums.TextureBarrier, "PIPE_TEXTURE_BARRIER_", {}, None),
    (_enums.Clear, "PIPE_CLEAR_", {}, None),
    (_enums.Mask, "PIPE_MASK_", {}, None),
    (_enums.ContextFlag, "PIPE_CONTEXT_", {}, None),
    (_enums.ContextPriority, "PIPE_CONTEXT_PRIORITY_", {}, None),
    (_enums.ResetStatus, "PIPE_", {}, None),  # PIPE_NO_RESET, ...
    (_enums.Endian, "PIPE_ENDIAN_", {}, None),
    (_enums.ImageAccess, "PIPE_IMAGE_ACCESS_", {}, None),
    (_enums.TextureTransferMode, "PIPE_TEXTURE_TRANSFER_", {}, None),
    (_enums.BlendFactor, "PIPE_BLENDFACTOR_", {}, None),
    (_enums.Blend, "PIPE_BLEND_", {}, None),
    (_enums.LogicOp, "PIPE_LOGICOP_", {}, None),
    (_enums.Func, "PIPE_FUNC_", {}, None),
    (_enums.StencilOp, "PIPE_STENCIL_OP_", {}, None),
    (_enums.TexWrap, "PIPE_TEX_WRAP_", {}, None),
    (_enums.TexFilter, "PIPE_TEX_FILTER_", {}, None),
    (_enums.TexMipFilter, "PIPE_TEX_MIPFILTER_", {}, None),
    (_enums.TexCompare, "PIPE_TEX_COMPARE_", {}, None),
    (_enums.TexReduction, "PIPE_TEX_REDUCTION_", {}, None),
    (_enums.PolygonMode, "PIPE_POLYGON_MODE_", {}, None),
    (_enums.Face, "PIPE_FACE_", {}, None),
    (_enums.SpriteCoord, "PIPE_SPRITE_COORD_", {}, None),
    (_enums.Swizzle, "PIPE_SWIZZLE_", {"ZERO": "0", "ONE": "1"}, None),
    (_enums.ViewportSwizzle, "PIPE_VIEWPORT_SWIZZLE_", {}, None),
    (_enums.ConservativeRaster, "PIPE_CONSERVATIVE_RASTER_", {}, None),
    (_Format, "PIPE_FORMAT_", {}, None),
]


def _c_spellings() -> dict:
    """Every C name of the table -> its enum member (plus the PIPE_MAX_* limits).

    Two table rows may share a prefix (PIPE_QUERY_ for Query and QueryFlag);
    a C name claimed twice with different values is a table bug, caught here.
    """
    names: dict = {}
    for enum_cls, prefix, spelled, keep in _TABLE:
        for member_name, member in enum_cls.__members__.items():
            if keep is not None and not keep(member_name):
                continue
            c_name = prefix + spelled.get(member_name, member_name)
            if c_name in names and names[c_name] != member:
                raise AssertionError(f"p_defines: {c_name} claimed by {names[c_name]!r} and {member!r}")
            names.setdefault(c_name, member)
    for const in _enums.__all__:
        if const.startswith("PIPE_"):
            names[const] = getattr(_enums, const)
    return names


_SPELLINGS = _c_spellings()
globals().update(_SPELLINGS)
__all__ = sorted(_SPELLINGS)
