"""Driver-specific queries (screen.rst get_driver_query_info; created with
create_query(PIPE_QUERY_DRIVER_SPECIFIC + i)): each counts what happened
between begin and end, the numbers a HUD shows."""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Bind, Box, Format, Map, Query, ResourceTemplate, ShaderState, Target
from lowering.errors import InvalidArgumentError

from .util_draw import FLAT_FS
from .util_query import rect, scene


def _by_name(screen):
    return {info.name: info for info in screen.get_driver_query_info()}


def _measure(ctx, name, work):
    info = _by_name(ctx.screen)[name]
    q = ctx.create_query(info.query_type)
    ctx.begin_query(q)
    work()
    ctx.end_query(q)
    return ctx.get_query_result(q, True)


def test_every_listed_driver_query_can_be_created(screen, ctx):
    infos = screen.get_driver_query_info()
    assert len(infos) >= 7
    for info in infos:
        q = ctx.create_query(info.query_type)
        ctx.begin_query(q)
        ctx.end_query(q)
        assert ctx.get_query_result(q, True) == 0  # nothing happened in between
    groups = screen.get_driver_query_group_info()
    assert sum(g.num_queries for g in groups) == len(infos)
    with pytest.raises(InvalidArgumentError):
        ctx.create_query(int(Query.DRIVER_SPECIFIC) + len(infos))


def test_draw_calls(screen, ctx):
    scene(ctx)
    assert _measure(ctx, "draw-calls", lambda: [rect(ctx, 0, 0, 4, 4) for _ in range(5)]) == 5


def test_bytes_uploaded_and_read_back(screen, ctx):
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=1000, bind=Bind.VERTEX_BUFFER)
    )
    data = np.arange(1000, dtype=np.uint8) % 251
    assert _measure(ctx, "bytes-uploaded", lambda: ctx.buffer_subdata(res, Map.WRITE, 0, data.tobytes())) == 1000

    def read():
        t = ctx.transfer_map(res, 0, Map.READ, Box(x=0, width=1000))
        assert bytes(np.asarray(t.data).tobytes()) == data.tobytes()
        ctx.transfer_unmap(t)

    assert _measure(ctx, "bytes-downloaded", read) >= 1000


def test_shader_variants_and_programs(screen, ctx):
    """A shader never seen before compiles at its first draw and links a
    program; drawing again with the same state compiles and links nothing."""
    scene(ctx)
    # A new FS (never compiled on this screen: a unique constant).
    fs = FLAT_FS.replace("MOV OUT[0], IN[0]", "ADD OUT[0], IN[0], IMM[0]").replace(
        "DCL OUT[0], COLOR\n", "DCL OUT[0], COLOR\nIMM[0] FLT32 {0.0, 0.0, 0.0, 0.123457}\n"
    )

    def first():
        ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
        rect(ctx, 0, 0, 4, 4)

    def again():
        rect(ctx, 0, 0, 4, 4)

    assert _measure(ctx, "shader-variants-compiled", first) >= 1
    assert _measure(ctx, "shader-variants-compiled", again) == 0
    assert _measure(ctx, "programs-linked", again) == 0
