"""Screen methods from several threads at once (screen.rst: screen methods are thread safe).

A GL context is current on one thread only, so off the GL thread a
resource is validated and returned with its GL storage pending; the GL
thread allocates it at first use, and GL deletions requested elsewhere are
queued until the GL thread drains them (glpipe/resource.py).  These tests
run the screen's methods from worker threads while the GL thread works too,
then check with raw GL that every resource ended up with the right storage
and every destroyed one was freed.
"""

from __future__ import annotations

import queue
import threading

import numpy as np
import pytest

from glpipe.enums import Bind, Cap, ShaderCap, ShaderType, Target
from glpipe.formats import Format
from glpipe.resource import drain_deferred, pending_deletions
from glpipe.templates import ResourceTemplate
from lowering.errors import HostGLError, ObjectDestroyedError

GL_TEXTURE_2D = 0x0DE1
GL_TEXTURE_2D_ARRAY = 0x8C1A
GL_TEXTURE_WIDTH = 0x1000
GL_TEXTURE_HEIGHT = 0x1001
GL_TEXTURE_DEPTH = 0x8071
GL_TEXTURE_BINDING_2D = 0x8069
GL_TEXTURE_BINDING_2D_ARRAY = 0x8C1D
GL_ACTIVE_TEXTURE = 0x84E0
GL_TEXTURE0 = 0x84C0
GL_COPY_READ_BUFFER = 0x8F36
GL_BUFFER_SIZE = 0x8764

RGBA8 = Format.R8G8B8A8_UNORM
SV_RT = Bind.SAMPLER_VIEW | Bind.RENDER_TARGET
ITERATIONS = 150
PREFILL = 40
JOIN_TIMEOUT = 60


def _tex2d(w, h, last_level=0):
    return ResourceTemplate(
        target=Target.TEXTURE_2D, format=RGBA8, width0=w, height0=h, last_level=last_level, bind=SV_RT
    )


def _levels(gl, res):
    """[(w, h, d)] per level of a 2D or 2D-array texture, read from GL."""
    target = GL_TEXTURE_2D if res.target == Target.TEXTURE_2D else GL_TEXTURE_2D_ARRAY
    query = GL_TEXTURE_BINDING_2D if target == GL_TEXTURE_2D else GL_TEXTURE_BINDING_2D_ARRAY
    active = int(gl.glGetIntegerv(GL_ACTIVE_TEXTURE))
    gl.glActiveTexture(GL_TEXTURE0 + 1)
    prev = int(gl.glGetIntegerv(query))
    gl.glBindTexture(target, res.gl_object)
    out = []
    buf = np.zeros(1, np.int32)
    for level in range(res.last_level + 1):
        dims = []
        for pname in (GL_TEXTURE_WIDTH, GL_TEXTURE_HEIGHT, GL_TEXTURE_DEPTH):
            gl.glGetTexLevelParameteriv(target, level, pname, buf)
            dims.append(int(buf[0]))
        out.append(tuple(dims))
    gl.glBindTexture(target, prev)
    gl.glActiveTexture(active)
    return out


def _expected(w, h, layers, last_level):
    return [(max(1, w >> lvl), max(1, h >> lvl), layers) for lvl in range(last_level + 1)]


def _run_threads(workers):
    errors = []

    def guard(fn, *args):
        try:
            fn(*args)
        except BaseException as exc:  # reported on the main thread
            errors.append(exc)

    threads = [threading.Thread(target=guard, args=(fn, *args)) for fn, *args in workers]
    for t in threads:
        t.start()
    return threads, errors


def _join(threads, errors):
    for t in threads:
        t.join(JOIN_TIMEOUT)
        assert not t.is_alive(), "worker thread hung"
    if errors:
        raise errors[0]


def test_resource_create_off_gl_thread_allocates_on_first_use(screen):
    gl = screen.host.gl
    seen = {}

    def worker():
        res = screen.resource_create(
            ResourceTemplate(
                target=Target.TEXTURE_2D_ARRAY,
                format=RGBA8,
                width0=24,
                height0=10,
                array_size=3,
                last_level=4,
                bind=SV_RT,
            )
        )
        seen["res"] = res
        seen["pending"] = not res.has_storage
        with pytest.raises(HostGLError, match="GL thread"):
            _ = res.gl_object
        with pytest.raises(HostGLError, match="GL thread"):
            res.ensure_storage()

    _join(*_run_threads([(worker,)]))
    res = seen["res"]
    assert seen["pending"]
    assert "storage pending" in repr(res)
    # First use on the GL thread allocates it, with the full chain.
    assert gl.glIsTexture(res.gl_object)
    assert res.has_storage
    assert _levels(gl, res) == _expected(24, 10, 3, 4)
    assert screen.host.clear_errors() == []
    name = res.gl_object
    screen.resource_destroy(res)
    assert not gl.glIsTexture(name)


def test_buffer_made_off_thread_gets_its_size(screen):
    gl = screen.host.gl
    box = []
    templ = ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=4096, bind=Bind.VERTEX_BUFFER)
    _join(*_run_threads([(lambda: box.append(screen.resource_create(templ)),)]))
    res = box[0]
    assert not res.has_storage
    res.ensure_storage()
    gl.glBindBuffer(GL_COPY_READ_BUFFER, res.gl_object)
    size = np.zeros(1, np.int32)
    gl.glGetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, size)
    gl.glBindBuffer(GL_COPY_READ_BUFFER, 0)
    assert int(size[0]) == 4096
    screen.resource_destroy(res)


def test_resource_destroy_off_gl_thread_is_deferred(screen):
    gl, host = screen.host.gl, screen.host
    drain_deferred(host)
    res = screen.resource_create(_tex2d(16, 16))
    name = res.gl_object
    _join(*_run_threads([(screen.resource_destroy, res)]))
    # Destroyed at once for every user...
    assert res.destroyed
    with pytest.raises(ObjectDestroyedError):
        res.check_alive("set_sampler_views")
    with pytest.raises(ObjectDestroyedError):
        screen.resource_destroy(res)
    # ...but the GL object waits for the GL thread.
    assert gl.glIsTexture(name)
    assert pending_deletions(host) == 1
    # A drain from another thread does nothing (no GL there).
    counts = []
    _join(*_run_threads([(lambda: counts.append(drain_deferred(host)),)]))
    assert counts == [0] and pending_deletions(host) == 1
    assert drain_deferred(host) == 1
    assert not gl.glIsTexture(name)
    assert pending_deletions(host) == 0


def test_next_gl_thread_call_drains_the_queue(screen):
    gl, host = screen.host.gl, screen.host
    res = screen.resource_create(_tex2d(8, 8))
    name = res.gl_object
    _join(*_run_threads([(screen.resource_destroy, res)]))
    assert gl.glIsTexture(name)
    other = screen.resource_create(_tex2d(4, 4))  # GL thread: drains first
    assert not gl.glIsTexture(name)
    assert pending_deletions(host) == 0
    screen.resource_destroy(other)


def test_pending_resource_destroyed_off_thread_never_allocates(screen):
    box = []

    def worker():
        res = screen.resource_create(_tex2d(8, 8))
        screen.resource_destroy(res)
        box.append(res)

    _join(*_run_threads([(worker,)]))
    res = box[0]
    assert pending_deletions(screen.host) == 0
    with pytest.raises(ObjectDestroyedError):
        _ = res.gl_object


def test_screen_methods_from_two_threads_at_once(screen):
    """Two workers hammer get_param / get_shader_param / is_format_supported /
    get_timestamp / can_create_resource / resource_create / resource_destroy
    while the GL thread creates, destroys and uses resources too."""
    gl, host = screen.host.gl, screen.host
    drain_deferred(host)
    # What the workers must see: the same answers the GL thread gets.
    max_2d = screen.get_param(Cap.MAX_TEXTURE_2D_SIZE)
    fs_temps = screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_TEMPS)
    good = _tex2d(32, 32, 5)
    bad = ResourceTemplate(target=Target.TEXTURE_CUBE, format=RGBA8, width0=8, height0=8, array_size=4)
    handoff: queue.Queue = queue.Queue()  # resources the GL thread made, destroyed by workers
    kept: list[list] = [[], []]
    taken = []  # resources the workers destroyed off the GL thread after the GL thread allocated them
    start = threading.Barrier(3)
    freed_names = []
    # Pre-filled, so the workers certainly destroy allocated resources.
    for i in range(PREFILL):
        res = screen.resource_create(_tex2d(4, 4 + i % 3))
        freed_names.append(res.gl_object)
        handoff.put(res)

    def worker(k):
        start.wait()
        last = 0
        for i in range(ITERATIONS):
            assert screen.get_param(Cap.MAX_TEXTURE_2D_SIZE) == max_2d
            assert screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_TEMPS) == fs_temps
            assert screen.is_format_supported(RGBA8, Target.TEXTURE_2D, 0, 0, SV_RT) is True
            assert (
                screen.is_format_supported(Format.Z24_UNORM_S8_UINT, Target.TEXTURE_3D, 0, 0, Bind.DEPTH_STENCIL)
                is False
            )
            now = screen.get_timestamp()
            assert now >= last, "get_timestamp went backwards on one thread"
            last = now
            assert screen.can_create_resource(good) is True
            assert screen.can_create_resource(bad) is False
            size = 4 + (i % 13) + k
            res = screen.resource_create(
                ResourceTemplate(
                    target=Target.TEXTURE_2D_ARRAY,
                    format=RGBA8,
                    width0=size,
                    height0=size + 1,
                    array_size=1 + k,
                    last_level=2,
                    bind=SV_RT,
                )
            )
            if i % 3:
                screen.resource_destroy(res)  # never allocated: nothing to free
            else:
                kept[k].append(res)
            try:
                victim = handoff.get_nowait()
            except queue.Empty:
                continue
            screen.resource_destroy(victim)  # allocated: its deletion is queued for the GL thread
            taken.append(victim)

    threads, errors = _run_threads([(worker, 0), (worker, 1)])
    start.wait()
    for i in range(ITERATIONS):
        res = screen.resource_create(_tex2d(8 + i % 5, 8, 2))  # GL thread: allocates now, drains the queue
        assert res.has_storage
        freed_names.append(res.gl_object)
        handoff.put(res)
        if i % 10 == 0:
            mine = screen.resource_create(good)
            screen.resource_destroy(mine)
    _join(threads, errors)
    assert len(taken) >= PREFILL

    # Whatever the workers did not take is destroyed here, then the queue drained.
    while not handoff.empty():
        screen.resource_destroy(handoff.get_nowait())
    drain_deferred(host)
    assert pending_deletions(host) == 0
    assert not any(gl.glIsTexture(n) for n in freed_names)

    # The resources made off the GL thread get correct storage once used here.
    total = 0
    for k in (0, 1):
        for res in kept[k]:
            assert not res.destroyed
            w = res.width0
            assert _levels(gl, res) == _expected(w, w + 1, 1 + k, 2)
            name = res.gl_object
            screen.resource_destroy(res)
            assert not gl.glIsTexture(name)
            total += 1
    assert total == 2 * len(range(0, ITERATIONS, 3))
    assert host.clear_errors() == []
