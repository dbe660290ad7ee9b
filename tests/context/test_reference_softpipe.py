"""glpipe against Mesa's reference driver (issue 16 "Done when"): corpus
programs with SSBOs and images give the bytes softpipe gives.

Each case takes one program of tests/lowering/corpus: its GLSL source
(``glsl/<name>``) runs on Mesa's softpipe (``GALLIUM_DRIVER=softpipe
SOFTPIPE_DEBUG=use_tgsi``, ModernGL over EGL, headless) in a child process,
and its captured TGSI (``tgsi/<name>.tgsi``, exactly what Mesa hands a
Gallium driver's create_compute_state) runs through glpipe on both profiles
(native: the host's compute shaders; gl33: the numpy executor), with the same
fixed inputs (buffer contents, image texels, grid).  The buffers and images
read back must be byte-identical.

Binding mapping (from the TGSI declarations and the GLSL ``binding=``
qualifiers): st/mesa numbers ``BUFFER[n]`` after the SSBO binding points and
``IMAGE[n]`` after the image units, so for these programs SSBO binding n is
``BUFFER[n]`` and image unit n is ``IMAGE[n]``; none of them reads a default
uniform (no ``CONST[0]``).

Inputs are dyadic fractions of small magnitude so every float operation is
exact: the comparison does not depend on whether a driver fuses a MAD.

Corpus programs left out, and why (not skipped at run time):

* ``ssbo_atomics.comp``, ``atomic_counter_ops.comp``, ``cs_shared_atomics.comp``,
  ``virgl_cs_histogram.comp``: invocations apply different atomic operations
  (min, and, exchange, comp-swap...) to the same words, so both the returned
  values and the final memory depend on invocation order, which GL leaves
  free (GL 4.6 section 7.12); there is no order-free quantity to compare
  beyond what the programs below already cover.
* ``ssbo_block_array.comp``: invocation i reads ``mats[i + 1]`` which
  invocation i + 1 writes without a barrier, a data race (GL 4.6 section 7.12.1).
* ``atomic_counter.frag``, ``ssbo_fragment.frag``: a graphics pipeline on both
  sides (vertex shader, framebuffer, vertex buffers) is more than this
  module's first round covers; atomic counters (lowered to ``BUFFER`` by st/mesa,
  see atomic_counter_ops above) reach glpipe as the same SSBO atomics that
  ``img_atomics.comp``'s SSBO store and the ``ATOM*`` image opcodes exercise.

softpipe (Mesa 22.3) runs compute with SSBOs and images through
GL_ARB_compute_shader on its GL 3.3 core context, which is what these
programs ask for, so no feature here needed another reference.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from glpipe import (
    Bind,
    Box,
    ComputeState,
    Format,
    GridInfo,
    ImageAccess,
    ImageView,
    Map,
    ResourceTemplate,
    ShaderBuffer,
    ShaderType,
    Target,
)

from .util_compute import read_buffer, shader_buffer

CORPUS = Path(__file__).resolve().parent.parent / "lowering" / "corpus"
RW = ImageAccess.READ_WRITE

#: Environment variables that would change which driver the child gets.
SCRUBBED_ENV = ("GALLIUM_DRIVER", "GALLIUM_TRACE", "SOFTPIPE_DEBUG", "MESA_GL_VERSION_OVERRIDE", "LIBGL_ALWAYS_SOFTWARE")

# The child: read a JSON job on stdin, run the GLSL compute program on the
# context Mesa gives (softpipe), print the buffers' and images' bytes as JSON.
CHILD = r"""
import json, os, sys
os.environ["PYOPENGL_PLATFORM"] = "egl"
import moderngl
from OpenGL import GL
job = json.load(sys.stdin)
ctx = moderngl.create_context(standalone=True, backend="egl")
renderer = ctx.info["GL_RENDERER"]
prog = ctx.compute_shader(open(job["glsl"]).read())
bufs = {}
for binding, data in job["buffers"].items():
    bufs[binding] = ctx.buffer(bytes.fromhex(data))
    bufs[binding].bind_to_storage_buffer(int(binding))
images = {}
for unit, im in job["images"].items():
    data = bytes.fromhex(im["data"])
    fmt = getattr(GL, im["gl_format"])
    if im["size"][1] == 0:  # an image buffer: a buffer texture over a buffer
        buf = ctx.buffer(data)
        tex = GL.glGenTextures(1)
        GL.glBindTexture(GL.GL_TEXTURE_BUFFER, tex)
        GL.glTexBuffer(GL.GL_TEXTURE_BUFFER, fmt, buf.glo)
        GL.glBindImageTexture(int(unit), tex, 0, GL.GL_FALSE, 0, GL.GL_READ_WRITE, fmt)
        images[unit] = buf
    else:
        tex = ctx.texture(tuple(im["size"]), im["comps"], data, dtype=im["dtype"])
        tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
        tex.bind_to_image(int(unit), read=True, write=True, format=fmt)
        images[unit] = tex
prog.run(*job["grid"])
GL.glMemoryBarrier(GL.GL_ALL_BARRIER_BITS)
ctx.finish()
out = {"renderer": renderer,
       "buffers": {b: x.read().hex() for b, x in bufs.items()},
       "images": {u: x.read().hex() for u, x in images.items()}}
print(json.dumps(out))
"""


def _softpipe(glsl: str, grid, buffers: dict, images: dict) -> dict:
    """Run corpus program ``glsl`` on Mesa's softpipe in a child process."""
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
    env.update(GALLIUM_DRIVER="softpipe", SOFTPIPE_DEBUG="use_tgsi")
    job = {
        "glsl": str(CORPUS / "glsl" / glsl),
        "grid": list(grid),
        "buffers": {str(b): d.tobytes().hex() for b, d in buffers.items()},
        "images": {
            str(u): {
                "data": im["data"].tobytes().hex(),
                "size": list(im["size"]),
                "comps": im["comps"],
                "dtype": im["dtype"],
                "gl_format": im["gl_format"],
            }
            for u, im in images.items()
        },
    }
    proc = subprocess.run(
        [sys.executable, "-c", CHILD], input=json.dumps(job), capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "softpipe" in out["renderer"], out["renderer"]
    return {
        "buffers": {int(b): bytes.fromhex(x) for b, x in out["buffers"].items()},
        "images": {int(u): bytes.fromhex(x) for u, x in out["images"].items()},
    }


def _glpipe(screen, ctx, glsl: str, grid, block, buffers: dict, images: dict) -> dict:
    """Run the captured TGSI of ``glsl`` through glpipe with the same inputs.

    SSBO binding n is BUFFER[n] and image unit n is IMAGE[n] (module docstring)."""
    bufs = {b: shader_buffer(screen, ctx, d) for b, d in buffers.items()}
    if bufs:
        n = max(bufs) + 1
        slots = [ShaderBuffer(buffer=bufs[b], buffer_size=bufs[b].width0) if b in bufs else None for b in range(n)]
        ctx.set_shader_buffers(ShaderType.COMPUTE, 0, slots, (1 << n) - 1)
    views, imgs = [], {}
    for unit in range(max(images) + 1 if images else 0):
        im = images[unit]
        data = np.ascontiguousarray(im["data"])
        w, h = im["size"]
        if h == 0:
            res = screen.resource_create(
                ResourceTemplate(target=Target.BUFFER, format=im["format"], width0=data.nbytes, bind=Bind.SHADER_IMAGE)
            )
            ctx.buffer_subdata(res, Map.WRITE, 0, data)
            views.append(ImageView(resource=res, format=im["format"], access=RW, shader_access=RW, size=data.nbytes))
        else:
            res = screen.resource_create(
                ResourceTemplate(
                    target=Target.TEXTURE_2D, format=im["format"], width0=w, height0=h, bind=Bind.SHADER_IMAGE
                )
            )
            row = data.nbytes // h
            ctx.texture_subdata(res, 0, Map.WRITE, Box(width=w, height=h, depth=1), data, row, data.nbytes)
            views.append(ImageView(resource=res, format=im["format"], access=RW, shader_access=RW))
        imgs[unit] = res
    if views:
        ctx.set_shader_images(ShaderType.COMPUTE, 0, views)
    prog = (CORPUS / "tgsi" / f"{glsl}.tgsi").read_text()
    cso = ctx.create_compute_state(ComputeState(prog=prog))
    ctx.bind_compute_state(cso)
    ctx.launch_grid(GridInfo(block=block, grid=grid))
    out_images = {}
    for unit, res in imgs.items():
        im = images[unit]
        nbytes = im["data"].nbytes
        if im["size"][1] == 0:
            out_images[unit] = read_buffer(ctx, res, np.uint8).tobytes()
            continue
        w, h = im["size"]
        t = ctx.transfer_map(res, 0, Map.READ, Box(width=w, height=h, depth=1))
        row = nbytes // h
        out_images[unit] = bytes(np.frombuffer(t.data.tobytes(), np.uint8).reshape(h, t.stride)[:, :row])
        ctx.transfer_unmap(t)
    ctx.delete_compute_state(cso)
    return {"buffers": {b: read_buffer(ctx, r, np.uint8).tobytes() for b, r in bufs.items()}, "images": out_images}


# ----------------------------------------------------------------------------
# The cases: fixed inputs, deterministic on every conforming driver.
# ----------------------------------------------------------------------------


def _ssbo_load_store():
    """ssbo_load_store.comp: 100 std430 particles (48 bytes each after a
    16-byte header), count 90, two 64-wide blocks (so the length() and count
    guards both cut)."""
    rng = np.random.default_rng(16)
    n = 100
    parts = np.zeros((n, 12), np.float32)
    parts[:, 0:8] = rng.integers(-64, 64, (n, 8)) / 8  # pos, vel
    parts[:, 8] = rng.integers(-4, 8, n) / 8  # life: some fall below 0 after -dt
    parts.view(np.uint32)[:, 9] = rng.integers(0, 0x100, n)  # flags
    parts.view(np.uint32)[:, 10:12] = 0xDEADBEEF  # std430 padding: must stay untouched
    header = np.array([0.25, 0, 0, 0], np.float32)
    header.view(np.uint32)[1] = 90
    particles = np.concatenate([header, parts.ravel()])
    forces = (rng.integers(-32, 32, 20) / 16).astype(np.float32)  # gravity + wind[4]
    return "ssbo_load_store.comp", (2, 1, 1), (64, 1, 1), {0: particles, 1: forces}, {}


def _img_2d_load_store():
    """img_2d_load_store.comp: one 8x8 block over 16x8 images (the src read at
    x + 1 stays inside); src texels in [0, 0.5] so uvec4(c * 255) is in range."""
    rng = np.random.default_rng(17)
    src = (rng.integers(0, 9, (8, 16, 4)) / 16).astype(np.float32)
    count = rng.integers(-1000, 1000, (8, 16), dtype=np.int32)
    dst = np.full((8, 16, 4), -1.0, np.float32)
    mask = np.full((8, 16, 4), 0xAA, np.uint8)
    f32x4 = {"comps": 4, "dtype": "f4", "gl_format": "GL_RGBA32F", "format": Format.R32G32B32A32_FLOAT}
    images = {
        0: {"data": src, "size": (16, 8), **f32x4},
        1: {"data": dst, "size": (16, 8), **f32x4},
        2: {"data": count, "size": (16, 8), "comps": 1, "dtype": "i4", "gl_format": "GL_R32I", "format": Format.R32_SINT},
        3: {
            "data": mask,
            "size": (16, 8),
            "comps": 4,
            "dtype": "u1",
            "gl_format": "GL_RGBA8UI",
            "format": Format.R8G8B8A8_UINT,
        },
    }
    return "img_2d_load_store.comp", (1, 1, 1), (8, 8, 1), {}, images


def _img_atomics():
    """img_atomics.comp: 16 invocations, each on its own texel / element (so
    every atomic's return value is defined), over random 32-bit words."""
    rng = np.random.default_rng(18)
    uimg = rng.integers(0, 2**32, (1, 16), dtype=np.uint32)
    iimg = rng.integers(-(2**31), 2**31, (1, 16), dtype=np.int64).astype(np.int32)
    ubuf = rng.integers(0, 2**32, 16, dtype=np.uint32)
    images = {
        0: {"data": uimg, "size": (16, 1), "comps": 1, "dtype": "u4", "gl_format": "GL_R32UI", "format": Format.R32_UINT},
        1: {"data": iimg, "size": (16, 1), "comps": 1, "dtype": "i4", "gl_format": "GL_R32I", "format": Format.R32_SINT},
        2: {"data": ubuf, "size": (16, 0), "comps": 1, "dtype": "u4", "gl_format": "GL_R32UI", "format": Format.R32_UINT},
    }
    ures = np.full(64, 0x5A5A5A5A, np.uint32)
    return "img_atomics.comp", (1, 1, 1), (16, 1, 1), {0: ures}, images


CASES = {"ssbo_load_store": _ssbo_load_store, "img_2d_load_store": _img_2d_load_store, "img_atomics": _img_atomics}

_reference: dict = {}


def _reference_of(name: str) -> dict:
    """softpipe's result for case ``name`` (run once per session)."""
    if name not in _reference:
        glsl, grid, _block, buffers, images = CASES[name]()
        _reference[name] = _softpipe(glsl, grid, buffers, images)
    return _reference[name]


@pytest.mark.parametrize("name", list(CASES))
def test_corpus_program_matches_softpipe(screen, ctx, name):
    """The captured TGSI on glpipe writes the bytes the GLSL writes on softpipe."""
    glsl, grid, block, buffers, images = CASES[name]()
    ref = _reference_of(name)
    got = _glpipe(screen, ctx, glsl, grid, block, buffers, images)
    for b, data in ref["buffers"].items():
        assert got["buffers"][b] == data, f"{glsl}: SSBO binding {b} differs from softpipe"
    for u, data in ref["images"].items():
        assert got["images"][u] == data, f"{glsl}: image unit {u} differs from softpipe"
    # The reference did work: every output the program writes changed.
    for b in written_buffers(name):
        assert ref["buffers"][b] != buffers[b].tobytes(), f"{glsl}: softpipe left SSBO {b} as it was"
    for u in written_images(name):
        assert ref["images"][u] != images[u]["data"].tobytes(), f"{glsl}: softpipe left image {u} as it was"


def written_buffers(name: str) -> tuple[int, ...]:
    """The SSBO bindings case ``name``'s program writes (readonly ones left out)."""
    return {"ssbo_load_store": (0,), "img_2d_load_store": (), "img_atomics": (0,)}[name]


def written_images(name: str) -> tuple[int, ...]:
    """The image units case ``name``'s program writes (readonly ones left out)."""
    return {"ssbo_load_store": (), "img_2d_load_store": (1, 2, 3), "img_atomics": (0, 1, 2)}[name]
