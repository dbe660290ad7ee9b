"""Size limits of a shader that the host compiles in bounded time and memory
(``ShaderLimits``, ``LIMITS``, ``check_limits``).

GLSL states no instruction, temporary or nesting limit, but the host's compiler
has practical ones: on llvmpipe a TEMP array of 1,024 registers addressed
indirectly takes 23 s to compile, 20 nested loops more than 30 s, and 2,000
nested loops exhaust its memory.  glpipe announces the limits it measured
(PIPE_SHADER_CAP_MAX_INSTRUCTIONS, MAX_TEMPS, MAX_CONTROL_FLOW_DEPTH) and
refuses, at create, a shader past them, naming the line; where the host emulates
64-bit opcodes each counts as its measured weight in instruction slots
(lowering/limits_emulated.py).  docs/caps.md
"Shader size limits" has the measurements behind each number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import MappingProxyType

from .errors import ShaderValidationError
from .ir import DstRegister, Instruction, Shader, SrcRegister
from .limits_emulated import check_emulated

#: Opcodes that open / close a level of control-flow nesting (tgsi.rst "Control flow").
_OPENERS = frozenset({"IF", "UIF", "BGNLOOP", "SWITCH"})
_CLOSERS = frozenset({"ENDIF", "ENDLOOP", "ENDSWITCH"})


@dataclass(frozen=True)
class ShaderLimits:
    """What one shader may hold.

    ``max_instructions``: instructions (END included), the PIPE_SHADER_CAP
    MAX_*INSTRUCTIONS answers; ``max_temps``: TEMP registers (the highest
    declared index + 1), MAX_TEMPS; ``max_control_flow_depth``: IF / UIF /
    BGNLOOP / SWITCH nesting, MAX_CONTROL_FLOW_DEPTH; ``max_indirect_temp_array``:
    registers of a TEMP array addressed indirectly (the whole TEMP file when an
    indirect access names no ARRAY), which no cap names (docs/caps.md);
    ``emulated``: the features the host lacks whose opcodes the lowering emulates
    ({"fp64", "int64"} on gl33): those opcodes weigh more instruction slots
    (lowering/limits_emulated.py)."""

    max_instructions: int
    max_temps: int
    max_control_flow_depth: int
    max_indirect_temp_array: int
    emulated: frozenset[str] = frozenset()

    @classmethod
    def from_caps(
        cls, shader_cap: Callable[[str], int], max_indirect_temp_array: int, emulated: Iterable[str] = ()
    ) -> ShaderLimits:
        """The limits a screen announces: ``shader_cap(name)`` answers a
        PIPE_SHADER_CAP by its name (``"MAX_TEMPS"``...); ``emulated`` as
        ``limits_emulated.emulated_features`` answers for the host."""
        return cls(
            max_instructions=int(shader_cap("MAX_INSTRUCTIONS")),
            max_temps=int(shader_cap("MAX_TEMPS")),
            max_control_flow_depth=int(shader_cap("MAX_CONTROL_FLOW_DEPTH")),
            max_indirect_temp_array=int(max_indirect_temp_array),
            emulated=frozenset(emulated),
        )


#: The limits measured on the host per profile (llvmpipe, Mesa 22.3.6, LLVM 15;
#: docs/caps.md "Shader size limits"): the worst program of each kind at the limit
#: compiles and draws in well under a second.  Both profiles use the same compiler.
_MEASURED = ShaderLimits(max_instructions=2048, max_temps=1024, max_control_flow_depth=12, max_indirect_temp_array=64)
LIMITS = MappingProxyType({"native": _MEASURED, "gl33": _MEASURED})


def limits_for(profile: str) -> ShaderLimits:
    """The limits of host profile ``profile`` (the measured ones for a profile not in ``LIMITS``)."""
    return LIMITS.get(profile, _MEASURED)


def _where(index: int, inst: Instruction) -> str:
    line = f", line {inst.line}" if inst.line is not None else ""
    return f"instruction {index} ({inst.opcode}{line})"


def _fail(what: str, message: str, index: int | None = None, line: int | None = None):
    raise ShaderValidationError(f"{what}: {message}" if what else message, index, line)


def _check_instructions(shader: Shader, limits: ShaderLimits, what: str) -> None:
    insts = shader.instructions
    if len(insts) > limits.max_instructions:
        first = insts[limits.max_instructions]
        _fail(
            what,
            f"{_where(limits.max_instructions, first)}: the shader has {len(insts)} instructions; "
            f"this screen allows {limits.max_instructions} (MAX_INSTRUCTIONS)",
            limits.max_instructions,
            first.line,
        )


def _check_temps(shader: Shader, limits: ShaderLimits, what: str) -> None:
    for decl in shader.declarations:
        if decl.file == "TEMP" and decl.last + 1 > limits.max_temps:
            line = f" (line {decl.line})" if decl.line is not None else ""
            _fail(
                what,
                f"declaration TEMP[{decl.first}..{decl.last}]{line} declares {decl.last + 1} temporaries; "
                f"this screen allows {limits.max_temps} (MAX_TEMPS)",
                None,
                decl.line,
            )


def _check_depth(shader: Shader, limits: ShaderLimits, what: str) -> None:
    depth = 0
    for index, inst in enumerate(shader.instructions):
        if inst.opcode in _CLOSERS:
            depth -= 1
        elif inst.opcode in _OPENERS:
            depth += 1
            if depth > limits.max_control_flow_depth:
                _fail(
                    what,
                    f"{_where(index, inst)}: control flow nested {depth} deep; this screen allows "
                    f"{limits.max_control_flow_depth} (MAX_CONTROL_FLOW_DEPTH)",
                    index,
                    inst.line,
                )


def _temp_arrays(shader: Shader) -> tuple[dict[int, tuple[int, int]], int]:
    """(ARRAY id -> (first, last)) of the TEMP declarations, and the TEMP file's size."""
    arrays: dict[int, tuple[int, int]] = {}
    size = 0
    for decl in shader.declarations:
        if decl.file == "TEMP":
            size = max(size, decl.last + 1)
            if decl.array_id:
                arrays[decl.array_id] = (decl.first, decl.last)
    return arrays, size


def _check_indirect_arrays(shader: Shader, limits: ShaderLimits, what: str) -> None:
    arrays, file_size = _temp_arrays(shader)
    for index, inst in enumerate(shader.instructions):
        regs: list[SrcRegister | DstRegister] = [*inst.dsts, *inst.srcs]
        for reg in regs:
            if reg.file != "TEMP" or reg.indirect is None:
                continue
            aid = reg.indirect.array_id or reg.array_id
            found = arrays.get(aid) if aid else None
            if found is None:  # the array holding the base register, else the whole file
                found = next(((f, la) for f, la in arrays.values() if f <= reg.index <= la), (0, file_size - 1))
            size = found[1] - found[0] + 1
            if size > limits.max_indirect_temp_array:
                _fail(
                    what,
                    f"{_where(index, inst)}: indirect addressing into TEMP[{found[0]}..{found[1]}] "
                    f"({size} registers); this host compiles indirectly addressed TEMP arrays of at most "
                    f"{limits.max_indirect_temp_array} registers in bounded time (docs/caps.md "
                    f'"Shader size limits")',
                    index,
                    inst.line,
                )


@dataclass(frozen=True)
class PropertyLimit:
    """A size-like PROPERTY of one processor and the host limit GL compares it
    with (GLSL 4.50 section 4.4: a layout value past it is a compile error).

    ``minimum``: the least value the host compiles (``vertices = 0`` is a GLSL
    error; ``max_vertices = 0`` and a GS_INVOCATIONS of 0, which glpipe emits
    as the default single invocation, are not); ``default``: the value an
    absent property stands for (None: the property is required);
    ``host_floor``: the limit on a host without the feature (a GL 3.3 GS runs
    one invocation, where GL_MAX_GEOMETRY_SHADER_INVOCATIONS reads 0)."""

    processor: str
    name: str
    host_limit: str
    minimum: int
    default: int | None
    host_floor: int = 0


#: The size-like properties, each against the host fact (glpipe/host/gl.py
#: LIMITS, per profile) GL checks it against.  docs/caps.md "Shader size limits".
PROPERTY_LIMITS = (
    PropertyLimit("TESS_CTRL", "TCS_VERTICES_OUT", "GL_MAX_PATCH_VERTICES", 1, None),
    PropertyLimit("GEOM", "GS_MAX_OUTPUT_VERTICES", "GL_MAX_GEOMETRY_OUTPUT_VERTICES", 0, 0),
    PropertyLimit("GEOM", "GS_INVOCATIONS", "GL_MAX_GEOMETRY_SHADER_INVOCATIONS", 0, 1, host_floor=1),
)

#: The GL 4.5 minimums of those limits (Table 23.57-23.60): what
#: ``check_property_limits`` assumes without a host.
GL_MINIMUM_LIMITS = MappingProxyType(
    {
        "GL_MAX_PATCH_VERTICES": 32,
        "GL_MAX_GEOMETRY_OUTPUT_VERTICES": 256,
        "GL_MAX_GEOMETRY_SHADER_INVOCATIONS": 32,
    }
)


def check_property_limits(shader: Shader, host_limit: Callable[[str], int] | None = None, what: str = "") -> None:
    """Raise ShaderValidationError (prefixed with ``what``, naming the property,
    its value and the host limit) when a property of ``shader`` in
    ``PROPERTY_LIMITS`` is outside the host's range.  ``host_limit(name)``
    answers a GL limit by name (a profile's ``limit``); without it the GL
    minimums.

    GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS is not checked against the
    declaration: GL bounds the components a GS *emits* ("LinkProgram will fail
    if it determines that the total component limit would be violated", GL 3.2
    section 2.12.4), and the host compiles a GS whose GS_MAX_OUTPUT_VERTICES
    times its output components is larger (tests/context/test_caps_proven.py
    ``test_geometry_shader_output_limits`` emits as many as the limit allows
    from a GS declaring 1024 vertices)."""
    limit_of = host_limit if host_limit is not None else GL_MINIMUM_LIMITS.__getitem__
    for row in PROPERTY_LIMITS:
        if row.processor != shader.processor:
            continue
        value = shader.property(row.name, row.default)
        if value is None:
            _fail(what, f"a {row.processor} shader needs PROPERTY {row.name} (1..{row.host_limit})")
        limit = max(int(limit_of(row.host_limit)), row.host_floor)
        if not isinstance(value, int) or not row.minimum <= value <= limit:
            _fail(
                what,
                f"PROPERTY {row.name} {value} is outside {row.minimum}..{limit} ({row.host_limit} is {limit})",
            )


def check_limits(shader: Shader, limits: ShaderLimits, what: str = "") -> None:
    """Raise ShaderValidationError (prefixed with ``what``, naming the instruction
    or declaration and its line) when ``shader`` exceeds ``limits``, and
    UnsupportedError when it is within them but its emulated 64-bit opcodes
    weigh more than MAX_INSTRUCTIONS slots on this host (limits_emulated)."""

    # The most specific reason first: a program nested 2,000 deep is also long.
    _check_temps(shader, limits, what)
    _check_depth(shader, limits, what)
    _check_indirect_arrays(shader, limits, what)
    _check_instructions(shader, limits, what)
    # Valid TGSI that this host's emulation makes too costly to compile: a host
    # limit, hence UnsupportedError (the same program is accepted where 64-bit types are native).
    check_emulated(shader, limits.max_instructions, limits.emulated, what)


__all__ = [
    "GL_MINIMUM_LIMITS",
    "LIMITS",
    "PROPERTY_LIMITS",
    "PropertyLimit",
    "ShaderLimits",
    "check_limits",
    "check_property_limits",
    "limits_for",
]
