"""A context is freed once destroyed (or dropped) and unreferenced, whatever
was bound in it (docs/robustness.md "API fuzzing", the RSS measurement).

The API fuzz campaigns grew to 2.9 GB (native) / 5.2 GB (gl33) of RSS: each
sequence makes a context, binds a pipeline and destroys the context, and
every such context stayed alive for good, with everything reachable from it
(bound shaders, their compiled variants, the framebuffer's surfaces, the
resources its state names).  The root: the finalizers that release a dropped
surface's FBOs, a vertex-elements CSO's VAOs and a shader's variants held a
bound method of the context's part as their callback argument, and
weakref.finalize keeps its arguments alive from a global registry until the
object dies -- while the object (bound, or in the context's own records) was
kept alive by the context: a cycle through a global root, never collected.
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
from context.util import PASS_VS
from context.util_draw import FLAT_FS, POS_COLOR, SIZE, setup, vertices

from glpipe import Bind, DrawInfo, Format, Prim, ResourceTemplate, Target, VertexBuffer
from glpipe.context import Context

TRI = DrawInfo(mode=Prim.TRIANGLES, start=0, count=3)


def _contexts_alive() -> int:
    gc.collect()
    return sum(isinstance(o, Context) for o in gc.get_objects())


def _used_context(screen):
    """A context with a full pipeline bound (surface, VS, FS, vertex elements,
    a vertex buffer resource that only the context's state names) and one
    draw made; returns it and weak references to the buffer and the context."""
    ctx = screen.context_create()
    setup(ctx, vs=PASS_VS, fs=FLAT_FS, elements=POS_COLOR)
    verts = vertices([(1, 1), (SIZE - 1, 1), (1, SIZE - 1)], (1.0, 0.0, 0.0, 1.0))
    vb = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=verts.nbytes, bind=Bind.VERTEX_BUFFER)
    )
    ctx.buffer_subdata(vb, 0, 0, np.ascontiguousarray(verts))
    ctx.set_vertex_buffers([VertexBuffer(buffer=vb, stride=32)])
    ctx.draw_vbo(TRI)
    return ctx, weakref.ref(vb), weakref.ref(ctx)


def test_a_destroyed_context_is_collected(screen):
    """20 contexts, each with a pipeline bound and a draw made, then
    destroyed: every one is collected, and so is the vertex buffer only its
    state referred to (the screen's live count comes back).  (A context
    dropped without destroy stays in the screen's list of contexts, which
    screen.destroy() destroys: pipe_context::destroy is the frontend's job.)"""
    before_live = screen.live_resources
    before_ctx = _contexts_alive()
    refs = []
    for _ in range(20):
        ctx, vb_ref, ctx_ref = _used_context(screen)
        ctx.destroy()
        del ctx
        refs.append((vb_ref, ctx_ref))
    screen.host.make_current()
    gc.collect()
    alive = sum(ctx_ref() is not None for _vb, ctx_ref in refs)
    assert alive == 0, f"{alive} of 20 destroyed contexts still alive"
    assert all(vb_ref() is None for vb_ref, _c in refs)
    assert _contexts_alive() <= before_ctx
    # The dropped resources' GL objects are released at the next drain.
    screen.resource_destroy(
        screen.resource_create(
            ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=16, bind=Bind.VERTEX_BUFFER)
        )
    )
    assert screen.live_resources <= before_live


def test_many_used_contexts_keep_the_heap_flat(screen):
    """The fuzz campaign's pattern, soak-style: 150 contexts made, used and
    destroyed one after another; the Python objects tracked stay flat (they
    grew by ~900 per context before the fix)."""
    for _ in range(10):  # warm up: caches of the screen and the compiler
        ctx, _vb, _c = _used_context(screen)
        ctx.destroy()
    gc.collect()
    start = len(gc.get_objects())
    for _ in range(150):
        ctx, _vb, _c = _used_context(screen)
        ctx.destroy()
        del ctx
    gc.collect()
    grown = len(gc.get_objects()) - start
    assert grown < 2_000, f"{grown} more Python objects after 150 destroyed contexts"
