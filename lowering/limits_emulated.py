"""What an emulated 64-bit opcode costs the host's compiler (``EMULATED``,
``emulated_features``, ``weighted_size``, ``check_emulated``).

Where the host has no GLSL 4.00 doubles (the gl33 profile) every double opcode
lane is a call into the soft-fp64 GLSL helpers (lowering/glsl/soft_fp64*.py),
and without GL_ARB_gpu_shader_int64 every 64-bit integer one a call into
soft_int64's.  The host's GLSL compiler inlines every call, so its time and
memory grow with the helpers' size and faster than linearly with their number:
on llvmpipe a chain of 128 DADD took 16 s and 1 GB, 256 DADD 84 s and 4 GB,
while the TGSI instruction count (MAX_INSTRUCTIONS, 2048) was far from reached.

So each emulated opcode counts, per 64-bit lane it computes, as ``weight``
instruction slots against PIPE_SHADER_CAP_MAX_INSTRUCTIONS (every other
instruction counts one), where the weight is measured on the host: a chain of
``2048 // weight`` of the opcode compiles in about the time and memory of the
longest accepted DADD chain (DADD weighs 21: 94 of them compile in ~10 s and
~0.6 GB).  A program past the budget is refused at create with an
UnsupportedError naming the count, the budget and the cause.  docs/caps.md
"Shader size limits" has the measurements.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from .errors import UnsupportedError
from .glsl.requirements import Requirements
from .glsl.signatures import lanes
from .glsl.soft_int64 import SOFT_INT64
from .glsl.wide import WIDE_OPS, native_features
from .ir import Shader
from .opcodes import OPCODES


@dataclass(frozen=True)
class EmulatedOp:
    """One opcode the lowering can emulate: ``weight`` instruction slots per 64-bit
    lane where it is emulated, which happens when the host lacks any of ``features``
    (lowering/glsl/requirements.py FEATURES names); ``library`` names the helpers."""

    weight: int
    features: tuple[str, ...]
    library: str


#: Instruction slots per lane, from chains of the opcode compiled and drawn once in a
#: child interpreter on gl33 (llvmpipe, Mesa 22.3.6, LLVM 15; MESA_SHADER_CACHE_DISABLE)
#: and set against the DADD chain of the same cost (docs/caps.md "Shader size limits").
#: Cheap helpers (bit tests, sign flips, compares) weigh one or a few slots.  The
#: division / root helpers grow much faster than linearly (8 chained DRSQ: 1.7 s,
#: 16: 189 s; 16 DDIV: over 300 s), so they weigh 256: at most 8 in a shader.
_WEIGHTS: dict[str, int] = {
    # soft fp64 (lowering/glsl/soft_fp64.py)
    "DADD": 21,
    "DMUL": 50,
    "DMAD": 80,
    "DMIN": 4,
    "DMAX": 4,
    "DABS": 1,
    "DNEG": 1,
    "DSSG": 1,
    "DFRAC": 45,
    "DTRUNC": 10,
    "DCEIL": 14,
    "DFLR": 14,
    "DROUND": 16,
    "DLDEXP": 16,
    "DSEQ": 3,
    "DSNE": 3,
    "DSLT": 4,
    "DSGE": 5,
    "F2D": 5,
    "I2D": 5,
    "U2D": 4,
    "D2F": 10,
    "D2I": 6,
    "D2U": 5,
    "D2U64": 5,
    "D2I64": 7,
    "U642D": 32,
    "I642D": 36,
    "DFRACEXP": 8,
    # soft fp64 division and roots (lowering/glsl/soft_fp64_divsqrt.py)
    "DDIV": 256,
    "DRCP": 256,
    "DSQRT": 256,
    "DRSQ": 256,
    "DFMA": 170,
    # soft int64 (lowering/glsl/soft_int64.py)
    "U64ADD": 1,
    "U64MUL": 2,
    "U64DIV": 16,
    "U64MOD": 16,
    "I64DIV": 16,
    "I64MOD": 30,
    "U64MIN": 1,
    "U64MAX": 1,
    "I64MIN": 1,
    "I64MAX": 1,
    "I64ABS": 8,
    "I64NEG": 1,
    "I64SSG": 1,
    "U64SHL": 2,
    "U64SHR": 3,
    "I64SHR": 3,
    "U64SEQ": 1,
    "U64SNE": 1,
    "U64SLT": 1,
    "U64SGE": 1,
    "I64SLT": 1,
    "I64SGE": 1,
    "F2U64": 2,
    "F2I64": 2,
    "U2I64": 1,
    "I2I64": 1,
    "U642F": 32,
    "I642F": 36,
}


def _features(name: str) -> tuple[str, ...]:
    """The features whose absence engages the emulation of ``name``: the ones its
    native form needs (wide.handle_wide / handle_dfracexp / soft_int64's choice)."""
    if name in SOFT_INT64:
        return ("int64",)
    if name == "DFRACEXP":
        return ("fp64", "gpu_shader5")
    info = OPCODES[name]
    types = [t for t in (info.dst_type, *info.src_types) if t]
    return native_features(["double", *types], WIDE_OPS[name].extra)


def _table() -> dict[str, EmulatedOp]:
    soft = [n for n, row in WIDE_OPS.items() if row.soft is not None] + ["DFRACEXP", *SOFT_INT64]
    missing = sorted(set(soft) - set(_WEIGHTS))
    if missing:  # a new soft opcode needs its measured weight before it may be emulated
        raise AssertionError(f"lowering.limits_emulated: no measured weight for {missing}")
    return {n: EmulatedOp(_WEIGHTS[n], _features(n), "soft int64" if n in SOFT_INT64 else "soft fp64") for n in soft}


#: Every opcode the lowering can emulate, with its weight and what engages it.
EMULATED = MappingProxyType(_table())

#: Lowering features whose absence makes some opcode emulated.
_EMULATING = frozenset(f for op in EMULATED.values() for f in op.features)


def emulated_features(glsl_version: int, extensions: Iterable[str] = ()) -> frozenset[str]:
    """The features a host with ``glsl_version`` and ``extensions`` lacks among those the
    emulations stand in for ({"fp64", "int64"} on the gl33 profile's GLSL 3.30)."""
    req = Requirements(glsl_version, extensions)
    return frozenset(f for f in _EMULATING if not req.has(f))


def _emulated(name: str, missing: frozenset[str]) -> EmulatedOp | None:
    op = EMULATED.get(name)
    return op if op is not None and any(f in missing for f in op.features) else None


def weighted_size(shader: Shader, missing: frozenset[str]) -> tuple[int, int]:
    """(instruction slots, emulated lane operations) of ``shader`` on a host lacking
    the features ``missing``: an emulated opcode weighs its weight per lane, every
    other instruction one slot."""
    slots = lane_ops = 0
    for inst in shader.instructions:
        op = _emulated(inst.opcode, missing)
        if op is None:
            slots += 1
            continue
        n = max(1, len(lanes(inst)))
        slots += op.weight * n
        lane_ops += n
    return slots, lane_ops


def check_emulated(shader: Shader, budget: int, missing: frozenset[str], what: str = "") -> None:
    """Raise UnsupportedError when the emulated opcodes of ``shader`` push its weighted
    size past ``budget`` instruction slots (MAX_INSTRUCTIONS) on a host lacking ``missing``."""
    if not missing:
        return
    slots, lane_ops = weighted_size(shader, missing)
    if slots <= budget:
        return
    used = {_emulated(inst.opcode, missing) for inst in shader.instructions} - {None}
    libraries = sorted({op.library for op in used if op is not None})
    kinds = " and ".join({"soft fp64": "double", "soft int64": "64-bit integer"}[lib] for lib in libraries)
    plain = sum(1 for inst in shader.instructions if _emulated(inst.opcode, missing) is None)
    message = (
        f"{lane_ops} emulated {kinds} operations cost ~{slots - plain} instruction slots on this host "
        f"({' and '.join(libraries)}: the host has no native 64-bit types, and its compiler inlines every "
        f"helper call, in time and memory growing faster than the count); with {plain} other "
        f"instructions the shader needs {slots} of {budget} slots (PIPE_SHADER_CAP_MAX_INSTRUCTIONS; "
        f'docs/caps.md "Shader size limits")'
    )
    raise UnsupportedError(f"{what}: {message}" if what else message)


__all__ = ["EMULATED", "EmulatedOp", "check_emulated", "emulated_features", "weighted_size"]
