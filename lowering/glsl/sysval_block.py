"""The ``glp_sysvals`` uniform block: values the lowering needs that change often.

One std140 block, declared identically by every stage that needs it (GL
links same-named blocks of different stages into one), bound at
``BindingLayout.sysvals_binding``.  The context fills it from Gallium state
on every draw where that state changed; nothing in it ever causes a
recompile.  ``SYSVALS`` is the field table (name, GLSL type, array length,
std140 byte offset, meaning); ``docs/bindings.md`` prints the same.
"""

from __future__ import annotations

from dataclasses import dataclass

BLOCK_NAME = "glp_sysvals"
INSTANCE_NAME = "sysvals"

# view_levels: one 32-bit word per (stage, sampler view slot); slots per stage
# is PIPE_MAX_SHADER_SAMPLER_VIEWS, stages are numbered as PIPE_SHADER_*.
VIEW_SLOTS_PER_STAGE = 128
STAGE_NUMBER = {"VERT": 0, "TESS_CTRL": 1, "TESS_EVAL": 2, "GEOM": 3, "FRAG": 4, "COMP": 5}
VIEW_LEVELS_WORDS = VIEW_SLOTS_PER_STAGE * len(STAGE_NUMBER)
# sampler_lod: one vec4 per (stage, sampler state slot); PIPE_MAX_SAMPLERS slots.
SAMPLER_SLOTS_PER_STAGE = 32


def sampler_lod_index(stage: int, slot: int) -> int:
    """Element of ``sampler_lod`` holding sampler ``slot`` of stage ``stage`` (PIPE_SHADER_*)."""
    return stage * SAMPLER_SLOTS_PER_STAGE + slot


def view_levels_word(stage: int, slot: int) -> int:
    """Index of the ``view_levels`` word of sampler view ``slot`` of stage
    ``stage`` (a PIPE_SHADER_* number): element ``w // 4``, component ``w % 4``."""
    return stage * VIEW_SLOTS_PER_STAGE + slot


@dataclass(frozen=True)
class SysvalField:
    """One member of the block: ``offset`` is its std140 byte offset."""

    name: str
    glsl_type: str
    count: int
    offset: int
    doc: str


def _fields() -> tuple[SysvalField, ...]:
    rows = [
        (
            "fb_size",
            "vec4",
            1,
            "framebuffer width, height, 1/width, 1/height (FS_COORD_ORIGIN LOWER_LEFT and y flips use the height)",
        ),
        (
            "viewport_scale",
            "vec4",
            1,
            "scale of the GL viewport transform of viewport 0 "
            "(window = ndc * scale + translate; VS_WINDOW_SPACE_POSITION: "
            "the fixed full-framebuffer transform while such a VS is bound)",
        ),
        ("viewport_translate", "vec4", 1, "translate of the GL viewport transform of viewport 0"),
        ("alpha_ref", "vec4", 1, "x: alpha test reference value (VariantKey.alpha_func)"),
        ("depth_offset", "vec4", 1, "unscaled polygon offset: x scale, y units, z clamp (VariantKey.depth_offset)"),
        (
            "tess_default_outer",
            "vec4",
            1,
            "set_tess_state default outer levels (TESS_DEFAULT_OUTER_LEVEL system value)",
        ),
        ("tess_default_inner", "vec4", 1, "set_tess_state default inner levels in xy"),
        ("compute_info", "uvec4", 1, "x: OpenCL work dimension (WORK_DIM system value)"),
        ("clip_plane", "vec4", 8, "user clip planes (VariantKey.clip_plane_enable)"),
        (
            "stipple",
            "uvec4",
            8,
            "polygon stipple: row r is stipple[r / 4][r % 4], pixel x is bit 31 - x % 32 (VariantKey.poly_stipple)",
        ),
        ("window_rect", "ivec4", 8, "window rectangles x, y, width, height (VariantKey.window_rectangles)"),
        (
            "line_stipple",
            "uvec4",
            1,
            "x: line stipple pattern, y: factor (repeat - 1), z: segments per "
            "instance of a strip draw's bases (VariantKey.line_stipple)",
        ),
        (
            "view_levels",
            "uvec4",
            VIEW_LEVELS_WORDS // 4,
            "TXQ / SVIEWINFO .w without textureQueryLevels: the level count (last_level - first_level + 1) "
            "of the view bound at slot s of stage t (PIPE_SHADER_* number) is word t * 128 + s "
            "(view_levels_word); 0 for an empty slot",
        ),
        (
            "sampler_lod",
            "vec4",
            SAMPLER_SLOTS_PER_STAGE * len(STAGE_NUMBER),
            "LODQ without textureQueryLod: (lod_bias, min_lod, max_lod, mip filter 0 none / 1 nearest / "
            "2 linear) of the sampler state bound at slot s of stage t, element t * 32 + s "
            "(sampler_lod_index); an empty slot reads 0",
        ),
        (
            "sampler_seamless",
            "uvec4",
            SAMPLER_SLOTS_PER_STAGE * len(STAGE_NUMBER) // 4,
            "TG4 on a cube without textureGather: 1 where the sampler state bound at slot s of stage t "
            "has seamless_cube_map, word t * 32 + s (sampler_lod_index); an empty slot reads 0",
        ),
    ]
    out: list[SysvalField] = []
    offset = 0
    for name, glsl_type, count, doc in rows:
        out.append(SysvalField(name, glsl_type, count, offset, doc))
        offset += 16 * count  # every member is a vec4 (array): 16-byte std140 stride
    return tuple(out)


SYSVALS: tuple[SysvalField, ...] = _fields()
SIZE = SYSVALS[-1].offset + 16 * SYSVALS[-1].count


def declaration(binding_qualifier: str = "") -> str:
    """The GLSL block declaration (``binding_qualifier`` e.g. ``", binding = 35"``)."""
    lines = [f"layout(std140{binding_qualifier}) uniform {BLOCK_NAME}", "{"]
    for f in SYSVALS:
        array = f"[{f.count}]" if f.count > 1 else ""
        lines.append(f"    {f.glsl_type} {f.name}{array};")
    lines.append(f"}} {INSTANCE_NAME};")
    return "\n".join(lines)


def field_offset(name: str) -> int:
    """Byte offset of field ``name`` in the block."""
    for f in SYSVALS:
        if f.name == name:
            return f.offset
    raise KeyError(name)


__all__ = [
    "SysvalField",
    "SYSVALS",
    "SIZE",
    "BLOCK_NAME",
    "INSTANCE_NAME",
    "declaration",
    "field_offset",
    "VIEW_SLOTS_PER_STAGE",
    "STAGE_NUMBER",
    "VIEW_LEVELS_WORDS",
    "view_levels_word",
    "SAMPLER_SLOTS_PER_STAGE",
    "sampler_lod_index",
]
