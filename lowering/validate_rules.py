"""The validator's rules that the host compiler and linker would otherwise enforce.

``validate`` (validate.py) calls these; each returns the reason a declaration or
operand is refused, or None.  Without them a program passed ``validate`` and
then failed at draw time with "internal error: the host rejected / could not
link" (issue 12).  docs/lowering.md "Validation" lists the rules and the
Gallium / GL text behind each.
"""

from __future__ import annotations

from . import semantics as sem
from .ir import Declaration

# TGSI's binary encoding bounds what a frontend can express: tgsi_declaration_range
# First/Last are unsigned 16-bit fields, tgsi_src_register / tgsi_dst_register /
# tgsi_dimension Index fields (a direct index, or the offset added to an address
# register) signed 16-bit ones, tgsi_declaration_semantic SemanticIndex 16-bit.
DECL_INDEX_MAX = 0xFFFF
OPERAND_INDEX_RANGE = (-(1 << 15), (1 << 15) - 1)
SEMANTIC_INDEX_MAX = 0xFFFF
# p_state.h PIPE_MAX_SHADER_INPUTS / PIPE_MAX_SHADER_OUTPUTS: no Gallium shader has
# more IN or OUT registers (32 GENERIC + 32 PATCH + the others), and a range of
# 65,536 of them would otherwise become as many GLSL varyings.
IO_REGISTERS = {"IN": (80, "PIPE_MAX_SHADER_INPUTS"), "OUT": (80, "PIPE_MAX_SHADER_OUTPUTS")}

# PIPE_MAX_VERTEX_STREAMS: EMIT / ENDPRIM name streams 0..3.
MAX_VERTEX_STREAMS = 4

# Per-vertex inputs of a TCS / TES are indexed by vertex number below
# gl_MaxPatchVertices (PIPE_MAX_PATCH_VERTICES... the GL minimum, 32, which
# llvmpipe also has); a GS by its input primitive's vertex count.
MAX_PATCH_VERTICES = 32

_SHADOW = sem.SHADOW_TARGETS
_MSAA = sem.MSAA_TARGETS
_CUBES = frozenset({"CUBE", "CUBEARRAY", "SHADOWCUBE", "SHADOWCUBEARRAY"})
_RECTS = frozenset({"RECT", "SHADOWRECT"})
_NO_FILTER = frozenset({"BUFFER"}) | _MSAA  # texelFetch only
_NO_COMPARE = frozenset({"3D"}) | _NO_FILTER  # GLSL has no 3D shadow sampler

# Texture targets each opcode cannot read, from the GLSL 4.50 built-in it lowers
# to (section 8.9): texture() / textureLod() / textureGrad() take no buffer or
# multisample sampler, bias and explicit-LOD forms no rectangle; the non-comparing
# SAMPLE* opcodes read a view, whose SHADOW* target makes the GLSL sampler a
# comparing one (tgsi.rst: SAMPLE_C is the comparing form); textureGather takes
# 2D / 2D array / cube (array) / rectangle only; textureQueryLod no rectangle,
# buffer or multisample; texelFetch no cube and no shadow sampler, and a
# multisample one only with a sample number (SAMPLE_I_MS / TXF on *_MSAA).
# TEX-style opcodes name the target in the instruction, SAMPLE-style ones
# through the SVIEW declaration (``view_target``).
TARGETS_REFUSED: dict[str, frozenset[str]] = {
    "SAMPLE": _NO_FILTER | _SHADOW,
    "SAMPLE_B": _NO_FILTER | _SHADOW | _RECTS,
    "SAMPLE_L": _NO_FILTER | _SHADOW | _RECTS,
    "SAMPLE_D": _NO_FILTER | _SHADOW,
    "SAMPLE_C": _NO_COMPARE,
    "SAMPLE_C_LZ": _NO_COMPARE | _RECTS,
    "GATHER4": _NO_FILTER | _SHADOW | frozenset({"1D", "1D_ARRAY", "3D"}),
    "LOD": _NO_FILTER | _RECTS,
    "LODQ": _NO_FILTER | _RECTS,
    "SAMPLE_I": _MSAA | _CUBES | _SHADOW,
    "SAMPLE_I_MS": _CUBES | _SHADOW,
}
_WHY = {
    "BUFFER": "a buffer is only fetched (SAMPLE_I / TXF)",
    "2D_MSAA": "a multisample texture is only fetched with a sample number (SAMPLE_I_MS / TXF)",
    "2D_ARRAY_MSAA": "a multisample texture is only fetched with a sample number (SAMPLE_I_MS / TXF)",
    "3D": "GLSL has no 3D shadow sampler",
}


# Opcodes with an LOD bias: GLSL 4.50 section 8.9.2 has the bias forms of
# texture() in fragment shaders only ("bias ... is not accepted in other
# stages"); elsewhere the implicit LOD is the base level.
BIAS_OPCODES = frozenset({"TXB", "TXB2", "SAMPLE_B"})


def stage_refusal(opcode: str, proc: str, in_control_flow: bool, main_return: int | None = None) -> str | None:
    """Why ``opcode`` cannot stand where it is in a ``proc`` shader (None: it
    can).  ``main_return``: the index of an earlier RET / inner END of main
    (lowered to a GLSL ``return``), if any."""
    if opcode in BIAS_OPCODES and proc != "FRAG":
        return f"{opcode} (an LOD bias) exists in fragment shaders only: GLSL has no biased lookup in a {proc} shader"
    if opcode == "BARRIER" and proc == "TESS_CTRL":
        # GLSL 4.50 section 8.16: a TCS barrier() only in main(), outside all
        # control flow, and never after a return statement of main().
        if in_control_flow:
            return "BARRIER in a TESS_CTRL shader must be outside IF / loops / SWITCH / subroutines"
        if main_return is not None:
            return (
                f"BARRIER in a TESS_CTRL shader may not follow a return from main (the RET / END at "
                f"instruction {main_return}): GLSL 4.50 section 8.16"
            )
    return None


# GL 4.3 minimums of MAX_COMPUTE_WORK_GROUP_SIZE and _INVOCATIONS: the block size
# every conformant host compiles (a larger layout(local_size_*) is a compile error).
CS_BLOCK_LIMITS = {"CS_FIXED_BLOCK_WIDTH": 1024, "CS_FIXED_BLOCK_HEIGHT": 1024, "CS_FIXED_BLOCK_DEPTH": 64}
CS_MAX_INVOCATIONS = 1024


def block_size_refusal(properties: dict) -> str | None:
    """Why a compute shader's CS_FIXED_BLOCK_* properties cannot be compiled (None: they can)."""
    size = 1
    for name, limit in CS_BLOCK_LIMITS.items():
        value = properties.get(name)
        if value is None:
            continue
        # 0: no fixed size (ARB_compute_variable_group_size, sized at launch).
        if not isinstance(value, int) or not 0 <= value <= limit:
            return f"PROPERTY {name} {value} is outside 0..{limit} (GL's MAX_COMPUTE_WORK_GROUP_SIZE minimum)"
        size *= max(value, 1)
    if size > CS_MAX_INVOCATIONS:
        return f"a fixed block of {size} invocations exceeds {CS_MAX_INVOCATIONS} (GL's MAX_COMPUTE_WORK_GROUP_INVOCATIONS minimum)"
    return None


# PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT: clip and cull distances share 8 slots.
MAX_CLIP_OR_CULL_DISTANCES = 8


def clip_cull_refusal(properties: dict) -> str | None:
    """Why NUM_CLIPDIST_ENABLED / NUM_CULLDIST_ENABLED cannot be honoured (None: they can):
    tgsi.rst splits the 8 CLIPDIST components between them."""
    counts = [properties.get(name, 0) for name in ("NUM_CLIPDIST_ENABLED", "NUM_CULLDIST_ENABLED")]
    if any(not isinstance(n, int) or n < 0 for n in counts) or sum(counts) > MAX_CLIP_OR_CULL_DISTANCES:
        return (
            f"NUM_CLIPDIST_ENABLED {counts[0]} + NUM_CULLDIST_ENABLED {counts[1]}: clip and cull "
            f"distances share {MAX_CLIP_OR_CULL_DISTANCES} slots (PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT)"
        )
    return None


def gather_component_refusal(word: int) -> str | None:
    """Why TG4 cannot gather component ``word`` (the immediate's raw value; None: it can)."""
    if 0 <= word <= 3:
        return None
    return f"TG4 gathers component 0..3 (x, y, z or w), not {word - (1 << 32) if word & 0x80000000 else word}"


def target_refusal(opcode: str, target: str | None) -> str | None:
    """Why ``opcode`` cannot read a texture of ``target`` (None: it can)."""
    if target is None or target not in TARGETS_REFUSED.get(opcode, ()):
        return None
    if target in _SHADOW and opcode in ("SAMPLE", "SAMPLE_B", "SAMPLE_L", "SAMPLE_D", "GATHER4"):
        why = "a SHADOW* view is read by the comparing SAMPLE_C / SAMPLE_C_LZ / TEX-style shadow targets"
    elif target in _SHADOW or target in _CUBES:
        why = "texelFetch takes no cube or shadow sampler"
    elif target in _RECTS:
        why = "a rectangle texture has no mipmaps (no bias, LOD or LOD query)"
    elif target in ("1D", "1D_ARRAY"):
        why = "textureGather takes 2D, 2D array, cube and rectangle textures only"
    else:
        why = _WHY.get(target, "the host has no such built-in")
    return f"{opcode} cannot read a {target} texture: {why}"


def declaration_refusal(proc: str, decl: Declaration) -> str | None:
    """Why an IN / OUT / SV declaration cannot exist in a ``proc`` shader (None: it can)."""
    if decl.last > DECL_INDEX_MAX:
        return f"index {decl.last} does not fit TGSI's 16-bit register index (at most {DECL_INDEX_MAX})"
    limit = IO_REGISTERS.get(decl.file)
    if limit is not None and decl.last >= limit[0]:
        return (
            f"{decl.file}[{decl.last}] is past {limit[1]} ({limit[0]} registers: Gallium's shader-info "
            f"tables, tgsi_scan's among them, are that size)"
        )
    semantic = decl.semantic
    if semantic is None:
        return None
    last_index = decl.semantic_index + (decl.last - decl.first)
    if last_index > SEMANTIC_INDEX_MAX:
        return f"semantic index {last_index} does not fit TGSI's 16-bit semantic index"
    if decl.file == "SV":
        stages = sem.SYSTEM_VALUE_STAGES.get(semantic)
        if stages is None:
            return f"{semantic} is not a system value"
        if proc not in stages:
            return f"system value {semantic} does not exist in a {proc} shader (only {' / '.join(sorted(stages))})"
        return None
    if decl.file not in ("IN", "OUT"):
        return None
    role = "input" if decl.file == "IN" else "output"
    if semantic in sem.SYSTEM_VALUE_ONLY:
        return f"{semantic} is a system value (DCL SV), not an {role} another stage passes"
    stages = sem.IO_SEMANTIC_STAGES.get((decl.file, semantic))
    if stages is not None and proc not in stages:
        return f"a {proc} shader has no {semantic} {role} (only {' / '.join(sorted(stages))})"
    if proc == "FRAG" and decl.file == "OUT" and semantic not in sem.FS_OUTPUT_SEMANTICS:
        return f"a fragment shader writes {' / '.join(sorted(sem.FS_OUTPUT_SEMANTICS))} only, not {semantic}"
    for stage in (proc, None):
        found = sem.SEMANTIC_INDEX_LIMITS.get((stage, decl.file, semantic))
        if found is not None and last_index >= found[0]:
            return f"{semantic}[{last_index}]: {found[1]}"
    return None


def semantic_clash(decl: Declaration, seen: dict) -> tuple[str, Declaration] | None:
    """("SEM[i]", the earlier declaration) when an IN / OUT ``decl`` gives a semantic
    a second register (a second varying or built-in of one name, which GLSL cannot
    declare: found by tests/fuzz); else records ``decl`` in ``seen`` and returns None.
    Whatever the GS streams of the two: one GLSL name is one variable (Mesa gives
    each stream's outputs their own semantics).  validate() asks after the
    register-overlap check, the more precise error."""
    if decl.file not in ("IN", "OUT") or decl.semantic is None:
        return None
    for k in range(decl.last - decl.first + 1):
        index = decl.semantic_index + k
        other = seen.setdefault((decl.file, decl.semantic, index), decl)
        if other is not decl:
            return f"{decl.semantic}[{index}]", other
    return None


def operand_index_refusal(index: int, what: str) -> str | None:
    """Why a register index / offset / dimension ``index`` cannot be encoded (None: it can)."""
    lo, hi = OPERAND_INDEX_RANGE
    if lo <= index <= hi:
        return None
    return f"{what} {index} does not fit TGSI's signed 16-bit register index ({lo}..{hi})"


def vertex_count(shader) -> int | None:
    """How many vertices a per-vertex input of ``shader`` holds: a GS its input
    primitive's (tgsi.rst GS_INPUT_PRIMITIVE), a TCS / TES gl_MaxPatchVertices."""
    if shader.processor == "GEOM":
        prim = shader.property("GS_INPUT_PRIMITIVE", "TRIANGLES")
        if isinstance(prim, int) and 0 <= prim < len(sem.PRIMITIVE_NAMES):
            prim = sem.PRIMITIVE_NAMES[prim]
        return sem.PRIMITIVE_VERTICES.get(str(prim), 3) or None
    if shader.processor in ("TESS_CTRL", "TESS_EVAL"):
        return MAX_PATCH_VERTICES
    return None


def output_vertex_count(shader) -> int | None:
    """How many vertices a per-vertex output of ``shader`` holds: a TCS's
    TCS_VERTICES_OUT (GLSL sizes gl_out[] and every per-vertex output array
    by it; a constant index past it is a compile error); None elsewhere, or
    while the property is missing or invalid (refused by limits.py)."""
    if shader.processor != "TESS_CTRL":
        return None
    vertices = shader.property("TCS_VERTICES_OUT", None)
    return vertices if isinstance(vertices, int) and vertices > 0 else None


def vertex_index_refusal(shader, file: str, vertex: int) -> str | None:
    """Why the constant vertex index ``vertex`` of an IN / OUT operand is
    refused (None: it is fine): past the vertices of a per-vertex input
    (``vertex_count``) or of a TCS's output patch (``output_vertex_count``)."""
    if file == "IN":
        vertices = vertex_count(shader)
        if vertices is not None and not 0 <= vertex < vertices:
            prim = shader.property("GS_INPUT_PRIMITIVE", "PATCHES") if shader.processor == "GEOM" else "a patch"
            return f"vertex IN[{vertex}] is past the {vertices} vertices of {prim}"
    elif file == "OUT":
        vertices = output_vertex_count(shader)
        if vertices is not None and not 0 <= vertex < vertices:
            return f"vertex OUT[{vertex}] is past the {vertices} vertices of the output patch (TCS_VERTICES_OUT)"
    return None


def output_stream_refusal(streams: tuple[int, ...], output_primitive) -> tuple[bool, str] | None:
    """(whether it is only unsupported, why) when the streams of a GS output's
    used components (``Declaration.used_streams``) are refused (None: fine).
    Each stream obeys EMIT's rules (``stream_refusal``); and the used
    components share one stream, since the lowering declares a register as one
    GLSL variable and a variable has one ``layout(stream = n)`` (GLSL 4.50
    section 4.4.2.2): Gallium allows more, so that is an UnsupportedError.
    Found by the fuzzer: STREAM(32768, 2, 2, 2) reached the host compiler."""
    for stream in dict.fromkeys(streams):
        reason = stream_refusal(stream, output_primitive)
        if reason is not None:
            return False, reason
    if len(set(streams)) > 1:
        return True, "the components of one output on different vertex streams (a GLSL output variable has one stream)"
    return None


def stream_refusal(stream: int, output_primitive) -> str | None:
    """Why EMIT / ENDPRIM on ``stream`` is refused (None: it is fine).  GL 4.0
    section 11.3.4.2: streams are 0 .. MAX_VERTEX_STREAMS-1, and a stream above 0
    needs points output (ARB_gpu_shader5)."""
    if not 0 <= stream < MAX_VERTEX_STREAMS:
        return f"vertex stream {stream} is outside 0..{MAX_VERTEX_STREAMS - 1}"
    if stream > 0 and str(output_primitive) not in ("POINTS", "0"):
        return f"stream {stream} needs GS_OUTPUT_PRIMITIVE POINTS (not {output_primitive}): GL emits to streams above 0 from points only"
    return None


__all__ = [
    "TARGETS_REFUSED",
    "BIAS_OPCODES",
    "stage_refusal",
    "block_size_refusal",
    "clip_cull_refusal",
    "gather_component_refusal",
    "target_refusal",
    "declaration_refusal",
    "operand_index_refusal",
    "semantic_clash",
    "vertex_count",
    "output_vertex_count",
    "vertex_index_refusal",
    "output_stream_refusal",
    "stream_refusal",
]
