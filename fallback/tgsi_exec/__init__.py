"""The numpy TGSI executor: compute programs run on the CPU, vectorised over
invocations (registers as (lanes, 4) words, execution masks for control
flow, one function per opcode).  glpipe's launch_grid runs it where the host
has no compute shaders (docs/compute.md "The executor").

``prepare(ir, shared_bytes)`` checks a program once; ``run_grid(program,
Dispatch(...), buffers, constants, textures, images)`` runs a grid over
``BufferBinding``s, ``TextureBinding``s and ``ImageBinding``s.
"""

from __future__ import annotations

from .images import ImageBinding
from .machine import CHUNK_LANES, SUPPORTED, SYSTEM_VALUES, Dispatch, Program, prepare, run_grid
from .memory import BufferBinding
from .texture import TextureBinding

__all__ = [
    "BufferBinding",
    "CHUNK_LANES",
    "Dispatch",
    "ImageBinding",
    "Program",
    "SUPPORTED",
    "SYSTEM_VALUES",
    "TextureBinding",
    "prepare",
    "run_grid",
]
