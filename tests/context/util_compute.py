"""Helpers of the compute tests: shader buffers made and read through pipe
methods only (buffer_subdata in, transfer_map READ out)."""

from __future__ import annotations

import numpy as np

from glpipe import Bind, Box, Format, Map, ResourceTemplate, ShaderBuffer, Target
from glpipe.enums import ShaderType


def shader_buffer(screen, ctx, array, extra_bind=0):
    """A BUFFER resource bindable as a shader buffer holding ``array``'s bytes."""
    data = np.ascontiguousarray(array)
    res = screen.resource_create(
        ResourceTemplate(
            target=Target.BUFFER,
            format=Format.R8_UNORM,
            width0=max(data.nbytes, 4),
            bind=Bind.SHADER_BUFFER | extra_bind,
        )
    )
    ctx.buffer_subdata(res, Map.WRITE, 0, data)
    return res


def read_buffer(ctx, res, dtype, count=None) -> np.ndarray:
    """The bytes of ``res`` as ``dtype`` (a transfer_map READ; a copy)."""
    t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=res.width0, height=1, depth=1))
    out = np.frombuffer(t.data.tobytes(), dtype=dtype).copy()
    ctx.transfer_unmap(t)
    return out if count is None else out[:count]


def bind_buffers(ctx, *resources, writable=None):
    """Bind ``resources`` as BUFFER[0..] of the compute stage (all writable unless told)."""
    bufs = [ShaderBuffer(buffer=r, buffer_offset=0, buffer_size=r.width0) for r in resources]
    mask = (1 << len(bufs)) - 1 if writable is None else writable
    ctx.set_shader_buffers(ShaderType.COMPUTE, 0, bufs, mask)
