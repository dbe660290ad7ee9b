"""The numpy TGSI executor: compute programs run on the CPU, vectorised over
invocations (registers as (lanes, 4) words, execution masks for control
flow, one function per opcode).  glpipe's launch_grid runs it where the host
has no compute shaders (docs/compute.md "The executor").

``prepare(ir, shared_bytes)`` checks a program once; ``run_grid(program,
Dispatch(...), buffers)`` runs a grid over ``BufferBinding``s.
"""

from __future__ import annotations

from .machine import CHUNK_LANES, SUPPORTED, SYSTEM_VALUES, Dispatch, Program, prepare, run_grid
from .memory import BufferBinding

__all__ = ["BufferBinding", "CHUNK_LANES", "Dispatch", "Program", "SUPPORTED", "SYSTEM_VALUES", "prepare", "run_grid"]
