"""Helpers for the stream output and indirect draw tests: buffers filled
with a sentinel and read back through raw GL (not the code under test)."""

from __future__ import annotations

import numpy as np

from glpipe import Bind

from .util import vertex_buffer

SENTINEL = 0xDEADBEEF

# A VS with three captured candidates: POSITION = IN[0], GENERIC[0] = IN[1],
# GENERIC[1] = IN[0] * IN[1].
SO_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MUL OUT[2], IN[0], IN[1]
  3: END
"""


def sentinel_buffer(screen, nwords: int, bind=Bind.STREAM_OUTPUT | Bind.VERTEX_BUFFER):
    """A buffer of ``nwords`` dwords, every one SENTINEL."""
    return vertex_buffer(screen, np.full(nwords, SENTINEL, np.uint32), bind=bind)


def read_words(screen, res) -> np.ndarray:
    """The buffer's bytes as uint32 words (glGetBufferSubData)."""
    gl = screen.host.gl
    out = np.empty(res.width0, np.uint8)
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
    gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, 0, res.width0, out)
    gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
    return out.view(np.uint32)


def inputs(n: int) -> np.ndarray:
    """(n, 8) float32 rows: position (x, y, 0.5, 1) inside the viewport and a
    second attribute of distinct values (v + 0.25, v + 0.5, v + 0.75, v + 1)."""
    v = np.arange(n, dtype=np.float32)
    out = np.zeros((n, 8), np.float32)
    out[:, 0] = (v % 7) / 8.0 - 0.4
    out[:, 1] = (v // 7) / 8.0 - 0.4
    out[:, 2] = 0.5
    out[:, 3] = 1.0
    out[:, 4:] = v[:, None] + np.array([0.25, 0.5, 0.75, 1.0], np.float32)
    return out


def registers(rows: np.ndarray) -> np.ndarray:
    """OUT[0..2] of SO_VS for ``rows`` of ``inputs``: shape (n, 3, 4) float32."""
    pos, attr = rows[:, :4], rows[:, 4:]
    return np.stack([pos, attr, pos * attr], axis=1).astype(np.float32)
