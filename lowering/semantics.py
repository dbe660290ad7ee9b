"""TGSI name tables: semantics, interpolation, texture targets, properties, ...

These are the spellings Mesa's ``tgsi_strings.c`` uses (current Mesa plus the
names older releases printed).  The parser accepts every name here; where an
old release spelled a concept differently, ``*_ALIASES`` maps the old
spelling to the current one so the IR has one name per concept.
"""

from __future__ import annotations

# TGSI_SEMANTIC_*, in current enum order, then names only older releases had.
SEMANTIC_NAMES: tuple[str, ...] = (
    "POSITION",
    "COLOR",
    "BCOLOR",
    "FOG",
    "PSIZE",
    "GENERIC",
    "NORMAL",
    "FACE",
    "EDGEFLAG",
    "PRIM_ID",
    "INSTANCEID",
    "VERTEXID",
    "STENCIL",
    "CLIPDIST",
    "CLIPVERTEX",
    "GRID_SIZE",
    "BLOCK_ID",
    "BLOCK_SIZE",
    "THREAD_ID",
    "TEXCOORD",
    "PCOORD",
    "VIEWPORT_INDEX",
    "LAYER",
    "SAMPLEID",
    "SAMPLEPOS",
    "SAMPLEMASK",
    "INVOCATIONID",
    "VERTEXID_NOBASE",
    "BASEVERTEX",
    "PATCH",
    "TESSCOORD",
    "TESSOUTER",
    "TESSINNER",
    "VERTICESIN",
    "HELPER_INVOCATION",
    "BASEINSTANCE",
    "DRAWID",
    "WORK_DIM",
    "SUBGROUP_SIZE",
    "SUBGROUP_INVOCATION",
    "SUBGROUP_EQ_MASK",
    "SUBGROUP_GE_MASK",
    "SUBGROUP_GT_MASK",
    "SUBGROUP_LE_MASK",
    "SUBGROUP_LT_MASK",
    "CS_USER_DATA_AMD",
    "VIEWPORT_MASK",
    "TESS_DEFAULT_OUTER_LEVEL",
    "TESS_DEFAULT_INNER_LEVEL",
    "VIEW_INDEX",
    # 2014-era: cull distances had their own semantic before CLIPDIST covered both.
    "CULLDIST",
)

# Semantics that are system values (declared in the SV file) rather than
# varyings.  FACE, SAMPLEMASK, PRIM_ID, LAYER, VIEWPORT_INDEX, POSITION,
# TESSOUTER/TESSINNER may appear in both SV and IN/OUT depending on stage.
SYSTEM_VALUE_SEMANTICS = frozenset(
    {
        "INSTANCEID",
        "VERTEXID",
        "GRID_SIZE",
        "BLOCK_ID",
        "BLOCK_SIZE",
        "THREAD_ID",
        "SAMPLEID",
        "SAMPLEPOS",
        "SAMPLEMASK",
        "INVOCATIONID",
        "VERTEXID_NOBASE",
        "BASEVERTEX",
        "TESSCOORD",
        "TESSOUTER",
        "TESSINNER",
        "VERTICESIN",
        "HELPER_INVOCATION",
        "BASEINSTANCE",
        "DRAWID",
        "WORK_DIM",
        "SUBGROUP_SIZE",
        "SUBGROUP_INVOCATION",
        "SUBGROUP_EQ_MASK",
        "SUBGROUP_GE_MASK",
        "SUBGROUP_GT_MASK",
        "SUBGROUP_LE_MASK",
        "SUBGROUP_LT_MASK",
        "CS_USER_DATA_AMD",
        "FACE",
        "PRIM_ID",
        "POSITION",
        "TESS_DEFAULT_OUTER_LEVEL",
        "TESS_DEFAULT_INNER_LEVEL",
        "VIEW_INDEX",
        "LAYER",
        "VIEWPORT_INDEX",
    }
)

# TGSI_INTERPOLATE_* and TGSI_INTERPOLATE_LOC_*.
INTERPOLATE_NAMES: tuple[str, ...] = ("CONSTANT", "LINEAR", "PERSPECTIVE", "COLOR")
INTERPOLATE_LOCATIONS: tuple[str, ...] = ("CENTER", "CENTROID", "SAMPLE")
INVARIANT_NAME = "INVARIANT"

# TGSI_TEXTURE_* (UNKNOWN is what SAMPLE* instructions carry internally).
TEXTURE_TARGETS: tuple[str, ...] = (
    "BUFFER",
    "1D",
    "2D",
    "3D",
    "CUBE",
    "RECT",
    "SHADOW1D",
    "SHADOW2D",
    "SHADOWRECT",
    "1D_ARRAY",
    "2D_ARRAY",
    "SHADOW1D_ARRAY",
    "SHADOW2D_ARRAY",
    "SHADOWCUBE",
    "2D_MSAA",
    "2D_ARRAY_MSAA",
    "CUBEARRAY",
    "SHADOWCUBEARRAY",
    "UNKNOWN",
)
SHADOW_TARGETS = frozenset(
    {
        "SHADOW1D",
        "SHADOW2D",
        "SHADOWRECT",
        "SHADOW1D_ARRAY",
        "SHADOW2D_ARRAY",
        "SHADOWCUBE",
        "SHADOWCUBEARRAY",
    }
)
ARRAY_TARGETS = frozenset(
    {
        "1D_ARRAY",
        "2D_ARRAY",
        "SHADOW1D_ARRAY",
        "SHADOW2D_ARRAY",
        "2D_ARRAY_MSAA",
        "CUBEARRAY",
        "SHADOWCUBEARRAY",
    }
)
MSAA_TARGETS = frozenset({"2D_MSAA", "2D_ARRAY_MSAA"})

# TGSI_RETURN_TYPE_* (SVIEW declarations).
RETURN_TYPES: tuple[str, ...] = ("UNORM", "SNORM", "SINT", "UINT", "FLOAT")

# PIPE_PRIM_* / MESA_PRIM_* names used by the GS primitive properties.
PRIMITIVE_NAMES: tuple[str, ...] = (
    "POINTS",
    "LINES",
    "LINE_LOOP",
    "LINE_STRIP",
    "TRIANGLES",
    "TRIANGLE_STRIP",
    "TRIANGLE_FAN",
    "QUADS",
    "QUAD_STRIP",
    "POLYGON",
    "LINES_ADJACENCY",
    "LINE_STRIP_ADJACENCY",
    "TRIANGLES_ADJACENCY",
    "TRIANGLE_STRIP_ADJACENCY",
    "PATCHES",
)

# Vertices per input primitive: the implied size of a GS ``DCL IN[][n]``.
PRIMITIVE_VERTICES: dict[str, int] = {
    "POINTS": 1,
    "LINES": 2,
    "LINE_LOOP": 2,
    "LINE_STRIP": 2,
    "TRIANGLES": 3,
    "TRIANGLE_STRIP": 3,
    "TRIANGLE_FAN": 3,
    "QUADS": 4,
    "QUAD_STRIP": 4,
    "POLYGON": 3,
    "LINES_ADJACENCY": 4,
    "LINE_STRIP_ADJACENCY": 4,
    "TRIANGLES_ADJACENCY": 6,
    "TRIANGLE_STRIP_ADJACENCY": 6,
    "PATCHES": 0,
}

# -- where each semantic may appear ----------------------------------------------------
# tgsi.rst "System values" names the stages each system value exists in, and
# GLSL 4.50 section 7.1 lists the matching built-ins per stage; a system value
# declared anywhere else has nothing to read (the host rejects the built-in).
_GRAPHICS = frozenset({"VERT", "TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG"})
_ALL_STAGES = _GRAPHICS | {"COMP"}
SYSTEM_VALUE_STAGES: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("INSTANCEID", "VERTEXID", "VERTEXID_NOBASE", "BASEVERTEX", "BASEINSTANCE", "DRAWID"), frozenset({"VERT"})
    ),
    **dict.fromkeys(
        ("GRID_SIZE", "BLOCK_ID", "BLOCK_SIZE", "THREAD_ID", "WORK_DIM", "CS_USER_DATA_AMD"), frozenset({"COMP"})
    ),
    **dict.fromkeys(
        ("SAMPLEID", "SAMPLEPOS", "SAMPLEMASK", "HELPER_INVOCATION", "FACE", "POSITION", "LAYER", "VIEWPORT_INDEX"),
        frozenset({"FRAG"}),
    ),
    "PRIM_ID": frozenset({"TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG"}),
    "INVOCATIONID": frozenset({"TESS_CTRL", "GEOM"}),
    "TESSCOORD": frozenset({"TESS_EVAL"}),
    "TESSOUTER": frozenset({"TESS_EVAL"}),
    "TESSINNER": frozenset({"TESS_EVAL"}),
    "VERTICESIN": frozenset({"TESS_CTRL", "TESS_EVAL"}),
    "TESS_DEFAULT_OUTER_LEVEL": frozenset({"TESS_CTRL"}),
    "TESS_DEFAULT_INNER_LEVEL": frozenset({"TESS_CTRL"}),
    # ARB_shader_ballot: every stage.
    **dict.fromkeys(
        (
            "SUBGROUP_SIZE",
            "SUBGROUP_INVOCATION",
            "SUBGROUP_EQ_MASK",
            "SUBGROUP_GE_MASK",
            "SUBGROUP_GT_MASK",
            "SUBGROUP_LE_MASK",
            "SUBGROUP_LT_MASK",
        ),
        _ALL_STAGES,
    ),
    "VIEW_INDEX": _GRAPHICS,
}

# Semantics an IN or OUT register may carry only in some stages: (file, semantic)
# -> stages.  The system values that are never passed between stages (instance
# and vertex ids, compute ids, tessellation coordinates, subgroup values, ...:
# SYSTEM_VALUE_STAGES minus these) may not be IN or OUT at all -- no earlier
# stage writes them, so an FS input INSTANCEID would be a varying nobody fills.
IO_SEMANTIC_STAGES: dict[tuple[str, str], frozenset[str]] = {
    ("IN", "FACE"): frozenset({"FRAG"}),
    ("IN", "SAMPLEMASK"): frozenset({"FRAG"}),
    ("OUT", "SAMPLEMASK"): frozenset({"FRAG"}),
    ("OUT", "STENCIL"): frozenset({"FRAG"}),
    ("IN", "PRIM_ID"): frozenset({"TESS_EVAL", "GEOM", "FRAG"}),
    ("OUT", "PRIM_ID"): frozenset({"GEOM"}),
    ("IN", "POSITION"): _ALL_STAGES - {"COMP"},
    ("OUT", "POSITION"): _ALL_STAGES - {"COMP"},
    ("IN", "TESSOUTER"): frozenset({"TESS_EVAL"}),
    ("IN", "TESSINNER"): frozenset({"TESS_EVAL"}),
    ("OUT", "TESSOUTER"): frozenset({"TESS_CTRL"}),
    ("OUT", "TESSINNER"): frozenset({"TESS_CTRL"}),
    # gl_PointSize is an output of the vertex stages and an input of the next
    # ones; an FS has no point size (it reads PCOORD).
    ("IN", "PSIZE"): frozenset({"TESS_CTRL", "TESS_EVAL", "GEOM"}),
    ("OUT", "PSIZE"): frozenset({"VERT", "TESS_CTRL", "TESS_EVAL", "GEOM"}),
    ("IN", "LAYER"): frozenset({"GEOM", "FRAG"}),
    ("IN", "VIEWPORT_INDEX"): frozenset({"GEOM", "FRAG"}),
    ("OUT", "LAYER"): frozenset({"VERT", "TESS_EVAL", "GEOM"}),
    ("OUT", "VIEWPORT_INDEX"): frozenset({"VERT", "TESS_EVAL", "GEOM"}),
}
# An FS writes colours, depth, stencil and the sample mask, nothing else (tgsi.rst
# "Fragment shader outputs").
FS_OUTPUT_SEMANTICS = frozenset({"COLOR", "POSITION", "STENCIL", "SAMPLEMASK"})
SYSTEM_VALUE_ONLY = frozenset(SYSTEM_VALUE_STAGES) - {sem for _, sem in IO_SEMANTIC_STAGES}

# Highest semantic index + 1 where the host has a fixed number of slots:
# (stage or None for every stage, file, semantic) -> (count, why).  PIPE_MAX_COLOR_BUFS
# colour outputs of an FS; CLIPDIST / CULLDIST hold PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT
# (8) distances, four a register; one layer and one viewport index (gl_Layer,
# gl_ViewportIndex: GL has a single one of each, and Mesa emits index 0 only).
_DISTANCES = "{} holds at most 8 distances ({}[0] and [1], four each)"
SEMANTIC_INDEX_LIMITS: dict[tuple[str | None, str, str], tuple[int, str]] = {
    ("FRAG", "OUT", "COLOR"): (8, "a fragment shader has 8 colour outputs (PIPE_MAX_COLOR_BUFS = 8)"),
    (None, "IN", "CLIPDIST"): (2, _DISTANCES.format("CLIPDIST", "CLIPDIST")),
    (None, "OUT", "CLIPDIST"): (2, _DISTANCES.format("CLIPDIST", "CLIPDIST")),
    (None, "IN", "CULLDIST"): (2, _DISTANCES.format("CULLDIST", "CULLDIST")),
    (None, "OUT", "CULLDIST"): (2, _DISTANCES.format("CULLDIST", "CULLDIST")),
    (None, "IN", "LAYER"): (1, "there is one layer (gl_Layer): LAYER takes semantic index 0"),
    (None, "OUT", "LAYER"): (1, "there is one layer (gl_Layer): LAYER takes semantic index 0"),
    (None, "IN", "VIEWPORT_INDEX"): (1, "there is one viewport index (gl_ViewportIndex): semantic index 0"),
    (None, "OUT", "VIEWPORT_INDEX"): (1, "there is one viewport index (gl_ViewportIndex): semantic index 0"),
}

FS_COORD_ORIGIN_NAMES: tuple[str, ...] = ("UPPER_LEFT", "LOWER_LEFT")
FS_COORD_PIXEL_CENTER_NAMES: tuple[str, ...] = ("HALF_INTEGER", "INTEGER")

# NEXT_SHADER values (processor names, including current Mesa's task/mesh).
PROCESSOR_NAMES: tuple[str, ...] = ("VERT", "TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG", "COMP", "TASK", "MESH")

# TGSI_PROPERTY_*, current order, then 2018-only ones.
PROPERTY_NAMES: tuple[str, ...] = (
    "GS_INPUT_PRIMITIVE",
    "GS_OUTPUT_PRIMITIVE",
    "GS_MAX_OUTPUT_VERTICES",
    "FS_COORD_ORIGIN",
    "FS_COORD_PIXEL_CENTER",
    "FS_COLOR0_WRITES_ALL_CBUFS",
    "FS_DEPTH_LAYOUT",
    "VS_PROHIBIT_UCPS",
    "GS_INVOCATIONS",
    "VS_WINDOW_SPACE_POSITION",
    "TCS_VERTICES_OUT",
    "TES_PRIM_MODE",
    "TES_SPACING",
    "TES_VERTEX_ORDER_CW",
    "TES_POINT_MODE",
    "NUM_CLIPDIST_ENABLED",
    "NUM_CULLDIST_ENABLED",
    "FS_EARLY_DEPTH_STENCIL",
    "FS_POST_DEPTH_COVERAGE",
    "NEXT_SHADER",
    "CS_FIXED_BLOCK_WIDTH",
    "CS_FIXED_BLOCK_HEIGHT",
    "CS_FIXED_BLOCK_DEPTH",
    "LEGACY_MATH_RULES",
    "VS_BLIT_SGPRS_AMD",
    "CS_USER_DATA_COMPONENTS_AMD",
    "LAYER_VIEWPORT_RELATIVE",
    "FS_BLEND_EQUATION_ADVANCED",
    "SEPARABLE_PROGRAM",
    "NUM_VIEWS",
)

# Old spelling -> current spelling (same meaning).
PROPERTY_ALIASES: dict[str, str] = {
    "MUL_ZERO_WINS": "LEGACY_MATH_RULES",  # renamed 2019
    "VS_POSITION_WINDOW_SPACE": "VS_WINDOW_SPACE_POSITION",  # 2014 spelling
}

# Properties whose value is a name from a table rather than an unsigned int.
PROPERTY_VALUE_NAMES: dict[str, tuple[str, ...]] = {
    "GS_INPUT_PRIMITIVE": PRIMITIVE_NAMES,
    "GS_OUTPUT_PRIMITIVE": PRIMITIVE_NAMES,
    "FS_COORD_ORIGIN": FS_COORD_ORIGIN_NAMES,
    "FS_COORD_PIXEL_CENTER": FS_COORD_PIXEL_CENTER_NAMES,
    "NEXT_SHADER": PROCESSOR_NAMES,
}

# Numeric properties that some producers also spell with a primitive name
# (TES_PRIM_MODE holds a PIPE_PRIM_* number); the parser converts the name.
PROPERTY_NUMERIC_PRIMITIVE = frozenset({"TES_PRIM_MODE"})

# FS_DEPTH_LAYOUT values.
FS_DEPTH_LAYOUTS: tuple[str, ...] = ("NONE", "ANY", "GREATER", "LESS", "UNCHANGED")

# Tessellation spacing values of TES_SPACING (PIPE_TESS_SPACING_*).
TES_SPACINGS: tuple[str, ...] = ("FRACTIONAL_ODD", "FRACTIONAL_EVEN", "EQUAL")


def primitive_number(name: str) -> int:
    """PIPE_PRIM_* value of a primitive name (``TRIANGLES`` -> 4)."""
    return PRIMITIVE_NAMES.index(name)


__all__ = [
    "SEMANTIC_NAMES",
    "SYSTEM_VALUE_SEMANTICS",
    "INTERPOLATE_NAMES",
    "INTERPOLATE_LOCATIONS",
    "INVARIANT_NAME",
    "TEXTURE_TARGETS",
    "SHADOW_TARGETS",
    "ARRAY_TARGETS",
    "MSAA_TARGETS",
    "RETURN_TYPES",
    "PRIMITIVE_NAMES",
    "PRIMITIVE_VERTICES",
    "SYSTEM_VALUE_STAGES",
    "IO_SEMANTIC_STAGES",
    "FS_OUTPUT_SEMANTICS",
    "SYSTEM_VALUE_ONLY",
    "SEMANTIC_INDEX_LIMITS",
    "FS_COORD_ORIGIN_NAMES",
    "FS_COORD_PIXEL_CENTER_NAMES",
    "PROCESSOR_NAMES",
    "PROPERTY_NAMES",
    "PROPERTY_ALIASES",
    "PROPERTY_VALUE_NAMES",
    "PROPERTY_NUMERIC_PRIMITIVE",
    "FS_DEPTH_LAYOUTS",
    "TES_SPACINGS",
    "primitive_number",
]
