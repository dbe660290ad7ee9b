"""The numpy TGSI executor as the third party of the lowering's execution tests.

``exec_harness.run_check`` runs each case on the host GL (the GLSL the
lowering emits) and compares it with ``tgsi_reference`` (numpy from
tgsi.rst).  With ``ORACLE`` on (the default; ``GLPIPE_EXEC_ORACLE=0`` turns
it off), it also runs the case's compute form (``OpProgram.cs``: invocation
i LOADs its sources from BUFFER[0], STOREs its result to BUFFER[1]) through
``fallback.tgsi_exec`` and holds that result to the same reference under
the same precision rule: GL == executor == numpy (issue 16 item 4).

What is not compute-expressible is not run here: a fragment-only opcode
(the row's stages exclude COMP), a program the compute form cannot state
(validation refuses it: inputs, outputs, derivatives), and programs reading
textures or images the harness binds on the GL side only.  A
compute-expressible opcode the executor refuses is a failure, except the
opcodes ``EXECUTOR_MAY_REFUSE`` lists (texture / image / subgroup rows,
which the executor does not run: docs/compute.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from fallback.tgsi_exec import BufferBinding, Dispatch, prepare, run_grid
from lowering import OPCODES, parse, validate
from lowering.errors import ShaderValidationError, TGSIParseError, UnsupportedError

U32 = np.uint32

#: The switch: the executor joins every run_check (docs/compute.md "The executor as an oracle").
ORACLE = os.environ.get("GLPIPE_EXEC_ORACLE", "1") != "0"

#: Table groups whose opcodes the executor may refuse at prepare (not arithmetic:
#: sampling, images, subgroup operations).
_REFUSED_GROUPS = frozenset({"texture", "sample", "subgroup"})
EXECUTOR_MAY_REFUSE = frozenset(
    name for name, row in OPCODES.items() if row.group in _REFUSED_GROUPS or name in ("IMG2HND", "SAMP2HND")
)
#: Declarations the harness binds on the GL side only.
_GL_ONLY_FILES = ("SVIEW[", "SAMP[", "IMAGE[", "HWATOMIC[")

#: How many cases each opcode ran through the executor (the report of test_exec_oracle).
RAN: dict[str, int] = {}
_CACHE: dict[tuple, np.ndarray | None] = {}


def compute_expressible(op: str, text: str, textures) -> bool:
    """Whether the compute form ``text`` of ``op`` is a case for the executor."""
    row = OPCODES.get(op)
    if row is not None and row.stages is not None and "COMP" not in row.stages:
        return False
    if textures:
        return False
    return not any(f in text for f in _GL_ONLY_FILES)


def run_executor(prog, srcs: Sequence[np.ndarray], textures=None) -> np.ndarray | None:
    """``prog`` (an ``exec_harness.OpProgram``) over the cases ``srcs`` on the
    executor: ``(N, 4)`` words (``(2, N, 4)`` for two destinations), or None
    when the case is not compute-expressible (see the module docstring)."""
    srcs = [np.ascontiguousarray(s, dtype=U32).reshape(-1, 4) for s in srcs]
    n = srcs[0].shape[0] if srcs else 1
    text = prog.cs(n)
    if not compute_expressible(prog.op, text, textures):
        return None
    key = (text, tuple(s.tobytes() for s in srcs))
    if key in _CACHE:
        return _CACHE[key]
    try:
        ir = validate(parse(text)).shader
    except (TGSIParseError, ShaderValidationError, UnsupportedError):
        _CACHE[key] = None  # not a valid compute program (an FS-only construct in the body)
        return None
    try:
        program = prepare(ir, 0)
    except UnsupportedError as err:
        if any(inst.opcode in EXECUTOR_MAY_REFUSE for inst in ir.instructions):
            _CACHE[key] = None
            return None
        raise AssertionError(f"the executor refuses the compute-expressible {prog.op} case: {err}") from err
    data = np.concatenate(srcs) if srcs else np.zeros((1, 4), U32)
    binds = {0: BufferBinding(data.ravel().copy(), data.nbytes)}
    for k in range(prog.ndst):
        binds[1 + k] = BufferBinding(np.zeros(n * 4, U32), n * 16)
    run_grid(program, Dispatch((n, 1, 1), (1, 1, 1)), binds)
    out = np.stack([binds[1 + k].words.reshape(n, 4) for k in range(prog.ndst)])
    result = out if prog.ndst == 2 else out[0]
    _CACHE[key] = result
    RAN[prog.op] = RAN.get(prog.op, 0) + n
    return result


__all__ = ["EXECUTOR_MAY_REFUSE", "ORACLE", "RAN", "compute_expressible", "run_executor"]
