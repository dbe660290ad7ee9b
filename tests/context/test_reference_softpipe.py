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
qualifiers): SSBO binding n is ``BUFFER[n]`` and image unit n is
``IMAGE[n]``; st/mesa lowers atomic counters to ``BUFFER``s placed after the
program's SSBOs (``atomic_counter_ops.comp``: SSBO 0 is ``BUFFER[0]``, counter
binding 0 ``BUFFER[1]``), so in ``atomic_counter.frag``, which has no SSBOs,
counter binding n is ``BUFFER[n]``.  The only ``CONST[0]`` read
(``ssbo_fragment.frag``'s ``CONST[0][0].zw``) is st/mesa's gl_FragCoord.y
transform, supplied as st/mesa does (see _draw_glpipe).

Programs: compute ``ssbo_load_store``, ``ssbo_block_array``,
``img_2d_load_store``, ``img_atomics``, ``virgl_cs_histogram`` (shared-memory
atomics merged into an SSBO; its GLSL is ``#version 430``, which softpipe
compiles once MESA_GL(SL)_VERSION_OVERRIDE lifts the version check); fragment ``ssbo_fragment`` and
``atomic_counter`` (drawn as one point per pixel).  gl33 gives the fragment
stage no shader buffers (GL 3.3 has no SSBOs): there the fragment tests
check that binding them is refused.

Inputs are dyadic fractions of small magnitude so every float operation is
exact: the comparison does not depend on whether a driver fuses a MAD.

Corpus programs left out, and why (not skipped at run time):

* ``ssbo_atomics.comp``, ``atomic_counter_ops.comp``, ``cs_shared_atomics.comp``:
  invocations apply different atomic operations
  (min, and, exchange, comp-swap...) to the same words, so both the returned
  values and the final memory depend on invocation order, which GL leaves
  free (GL 4.6 section 7.12); no order-free quantity is left to compare.
  ``atomic_counter.frag`` only increments and decrements, so its final
  counters are compared (its colours, made of returned values, are not);
  ``virgl_cs_histogram.comp`` only adds, so its final bins are compared.
* ``img_formats.frag``, ``img_early_tests.frag``, ``misc_image_sample_mix.frag``:
  images in a fragment shader; the compute image programs above cover the
  image opcodes, and gl33 has no graphics-stage images.

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
SCRUBBED_ENV = (
    "GALLIUM_DRIVER",
    "GALLIUM_TRACE",
    "SOFTPIPE_DEBUG",
    "MESA_GL_VERSION_OVERRIDE",
    "MESA_GLSL_VERSION_OVERRIDE",
    "MESA_EXTENSION_OVERRIDE",
    "LIBGL_ALWAYS_SOFTWARE",
)

# The child: read a JSON job on stdin, run the GLSL program on the context
# Mesa gives (softpipe): a compute dispatch, or with "vs" a draw of points
# into an RGBA32F target; print the buffers', images' (and colours') bytes as JSON.
CHILD = r"""
import json, os, sys
os.environ["PYOPENGL_PLATFORM"] = "egl"
import moderngl
from OpenGL import GL
job = json.load(sys.stdin)
ctx = moderngl.create_context(standalone=True, backend="egl")
renderer = ctx.info["GL_RENDERER"]
if "vs" in job:
    prog = ctx.program(vertex_shader=job["vs"], fragment_shader=open(job["glsl"]).read())
else:
    prog = ctx.compute_shader(open(job["glsl"]).read())
bufs = {}
for binding, data in job["buffers"].items():
    bufs[binding] = ctx.buffer(bytes.fromhex(data))
    if job.get("atomic_counters"):
        GL.glBindBufferBase(GL.GL_ATOMIC_COUNTER_BUFFER, int(binding), bufs[binding].glo)
    else:
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
if "vs" in job:
    size = job["fb_size"]
    target = ctx.texture((size, size), 4, dtype="f4")
    fbo = ctx.framebuffer(color_attachments=[target])
    fbo.use()
    fbo.clear(0.0, 0.0, 0.0, 0.0)
    vbo = ctx.buffer(bytes.fromhex(job["vertices"]))
    vao = ctx.vertex_array(prog, [(vbo, "4f 4f", "pos", "col")])
    vao.render(moderngl.POINTS)
else:
    prog.run(*job["grid"])
GL.glMemoryBarrier(GL.GL_ALL_BARRIER_BITS)
ctx.finish()
out = {"renderer": renderer,
       "buffers": {b: x.read().hex() for b, x in bufs.items()},
       "images": {u: x.read().hex() for u, x in images.items()},
       "color": target.read().hex() if "vs" in job else ""}
print(json.dumps(out))
"""


def _softpipe(glsl: str, grid, buffers: dict, images: dict, draw: dict | None = None, atomic_counters=False) -> dict:
    """Run corpus program ``glsl`` on Mesa's softpipe in a child process
    (a compute dispatch of ``grid``, or with ``draw`` the points of a draw);
    ``buffers`` go to SSBO bindings, or atomic counter bindings if told."""
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
    env.update(GALLIUM_DRIVER="softpipe", SOFTPIPE_DEBUG="use_tgsi")
    if (CORPUS / "glsl" / glsl).read_text().startswith("#version 430"):
        # virgl-flavoured corpus files are #version 430; softpipe implements
        # everything they use but advertises GL 3.3, so only the version
        # check is lifted (the program itself is unchanged).
        env.update(MESA_GL_VERSION_OVERRIDE="4.3", MESA_GLSL_VERSION_OVERRIDE="430")
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
    job["atomic_counters"] = atomic_counters
    if draw is not None:
        job.update(vs=DRAW_VS, fb_size=draw["size"], vertices=draw["vertices"].tobytes().hex())
    proc = subprocess.run(
        [sys.executable, "-c", CHILD], input=json.dumps(job), capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "softpipe" in out["renderer"], out["renderer"]
    return {
        "buffers": {int(b): bytes.fromhex(x) for b, x in out["buffers"].items()},
        "images": {int(u): bytes.fromhex(x) for u, x in out["images"].items()},
        "color": bytes.fromhex(out["color"]),
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
    shared = SHARED_BYTES.get(glsl, 0)
    cso = ctx.create_compute_state(ComputeState(prog=prog, static_shared_mem=shared))
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
        2: {
            "data": count,
            "size": (16, 8),
            "comps": 1,
            "dtype": "i4",
            "gl_format": "GL_R32I",
            "format": Format.R32_SINT,
        },
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
        0: {
            "data": uimg,
            "size": (16, 1),
            "comps": 1,
            "dtype": "u4",
            "gl_format": "GL_R32UI",
            "format": Format.R32_UINT,
        },
        1: {
            "data": iimg,
            "size": (16, 1),
            "comps": 1,
            "dtype": "i4",
            "gl_format": "GL_R32I",
            "format": Format.R32_SINT,
        },
        2: {
            "data": ubuf,
            "size": (16, 0),
            "comps": 1,
            "dtype": "u4",
            "gl_format": "GL_R32UI",
            "format": Format.R32_UINT,
        },
    }
    ures = np.full(64, 0x5A5A5A5A, np.uint32)
    return "img_atomics.comp", (1, 1, 1), (16, 1, 1), {0: ures}, images


def _ssbo_block_array():
    """ssbo_block_array.comp: an array of three SSBO blocks (bindings 0-2 ->
    BUFFER[0..2]) and row-major mat4s (binding 3 -> BUFFER[3]).

    Invocation i reads ``mats[i + 1]``, which invocation i + 1 overwrites
    without a barrier.  The matrices are chosen so the race is harmless:
    M_i = u_i v^T with one v and v . u_i = 1, so M_i M_j = u_i (v . u_j) v^T =
    M_i, every store writes the bits already there, and any order of reads
    gives the same product.  A driver that misreads row_major computes
    M_i^T M_{i+1}^T instead, stores M_{i+1}, and is caught."""
    rng = np.random.default_rng(21)
    v = np.array([1, 2, -1, 1])
    u = rng.integers(-3, 4, (16, 4))
    u[:, 0] = 1 - u[:, 1:] @ v[1:]  # v . u_i == 1
    mats = np.einsum("ir,c->irc", u, v).astype(np.float32)  # row-major storage: [i, row, col]
    chunks = []
    for k, n in enumerate((16, 40, 24)):
        c = (rng.integers(-64, 64, n + 1) / 8).astype(np.float32)
        c.view(np.uint32)[0] = (3, 5, 0xFFFF)[k]  # header
        chunks.append(c)
    buffers = {0: chunks[0], 1: chunks[1], 2: chunks[2], 3: mats}
    return "ssbo_block_array.comp", (1, 1, 1), (16, 1, 1), buffers, {}


def _virgl_cs_histogram():
    """virgl_cs_histogram.comp: two 16x16 blocks over a 32x16 RGBA8 image, a
    shared-memory histogram merged into the SSBO with atomicAdd.  Only
    additions, so the final bins are order-free.  Texels whose luma * 63 lies
    within 1e-3 of an integer are redrawn: dot() may round differently on
    another driver (GL leaves it free) and move such a texel's bin."""
    rng = np.random.default_rng(22)
    texels = rng.integers(0, 256, (16, 32, 4), dtype=np.uint8)
    while True:
        t = np.clip(texels[..., :3].astype(np.float64) / 255 @ [0.299, 0.587, 0.114], 0, 1) * 63
        bad = np.abs(t - np.round(t)) < 1e-3
        if not bad.any():
            break
        texels[bad] = rng.integers(0, 256, (int(bad.sum()), 4), dtype=np.uint8)
    bins = rng.integers(0, 1000, 64).astype(np.uint32)
    img = {"data": texels, "size": (32, 16), "comps": 4, "dtype": "u1", "gl_format": "GL_RGBA8"}
    return "virgl_cs_histogram.comp", (2, 1, 1), (16, 16, 1), {0: bins}, {0: {**img, "format": Format.R8G8B8A8_UNORM}}


#: pipe_compute_state::static_shared_mem of the programs with shared memory:
#: st/mesa passes the program's shared size there (TGSI's ``DCL MEMORY[n],
#: SHARED`` carries none); virgl_cs_histogram.comp has ``shared uint s_bins[64]``.
SHARED_BYTES = {"virgl_cs_histogram.comp": 64 * 4}

CASES = {
    "ssbo_load_store": _ssbo_load_store,
    "img_2d_load_store": _img_2d_load_store,
    "img_atomics": _img_atomics,
    "ssbo_block_array": _ssbo_block_array,
    "virgl_cs_histogram": _virgl_cs_histogram,
}

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
    return {
        "ssbo_load_store": (0,),
        "img_2d_load_store": (),
        "img_atomics": (0,),
        "ssbo_block_array": (2,),
        "virgl_cs_histogram": (0,),
    }[name]


def written_images(name: str) -> tuple[int, ...]:
    """The image units case ``name``'s program writes (readonly ones left out)."""
    return {
        "ssbo_load_store": (),
        "img_2d_load_store": (1, 2, 3),
        "img_atomics": (0, 1, 2),
        "ssbo_block_array": (),
        "virgl_cs_histogram": (),
    }[name]


# ----------------------------------------------------------------------------
# A fragment shader with SSBOs: ssbo_fragment.frag.
# ----------------------------------------------------------------------------

#: The GLSL vertex shader paired with the corpus FS on softpipe; FS_VS is
#: the same in TGSI for glpipe (position and colour passed through).
DRAW_VS = """#version 330
in vec4 pos;
in vec4 col;
out vec4 v_col;
void main() { gl_Position = pos; v_col = col; }
"""
FS_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: END
"""
FB = 16
LUMA = np.array([0.3, 0.59, 0.11])


def _ssbo_fragment():
    """ssbo_fragment.frag drawn as one point per pixel of a 16x16 target.

    Points: their varyings are the vertex's values on every driver (no
    barycentric interpolation), so the colours reach the FS exactly.  Colours
    whose luma * 255 lies within 1e-3 of an integer are dropped: the GL spec
    lets dot() round differently, which could move such a colour's bucket.
    Returns (vertices, lut, histogram, dump)."""
    rng = np.random.default_rng(19)
    cols = []
    while len(cols) < FB * FB:
        c = rng.integers(0, 17, 4) / 16
        t = float(np.clip(c[:3] @ LUMA, 0, 1)) * 255
        if abs(t - round(t)) > 1e-3:
            cols.append(c)
    ys, xs = np.divmod(np.arange(FB * FB), FB)
    verts = np.zeros((FB * FB, 8), np.float32)
    verts[:, 0] = 2 * (xs + 0.5) / FB - 1
    verts[:, 1] = 2 * (ys + 0.5) / FB - 1
    verts[:, 3] = 1
    verts[:, 4:] = np.array(cols)
    lut = (rng.integers(-32, 32, (256, 4)) / 8).astype(np.float32)
    hist = rng.integers(0, 1000, 256).astype(np.uint32)
    dump = np.full(FB * 1024 * 4, -2.0, np.float32)  # dump[y * 1024 + x], y < FB
    return verts, lut, hist, dump


def _draw_glpipe(screen, ctx, fs_name: str, verts, buffers: dict) -> dict:
    """Corpus FS ``fs_name``'s TGSI drawn by glpipe as points: SSBO binding n
    (atomic counter binding n when the FS has no SSBOs) is BUFFER[n].

    CONST[0][0] is st/mesa's STATE_FB_WPOS_Y_TRANSFORM, which the frontend
    lowered gl_FragCoord.y through (nir_lower_wpos_ytransform): for a user
    framebuffer st/mesa uploads (1, 0, -1, height) and the shader uses .zw,
    turning the driver's lower-left y into GL's window y for a framebuffer
    whose row 0 is Gallium's top row."""
    from glpipe import ConstantBuffer, DrawInfo, Prim, ShaderState, VertexBuffer, VertexElement

    from .util import read_rgba32f, render_target
    from .util_draw import bind_rasterizer, zero_fill

    color, _ = render_target(ctx, FB, FB)
    zero_fill(screen, color)
    bufs = {b: shader_buffer(screen, ctx, d) for b, d in buffers.items()}
    slots = [ShaderBuffer(buffer=bufs[b], buffer_size=bufs[b].width0) for b in range(len(bufs))]
    ctx.set_shader_buffers(ShaderType.FRAGMENT, 0, slots, (1 << len(slots)) - 1)
    wpos = np.array([1, 0, -1, FB], np.float32)
    ctx.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(user_buffer=wpos, buffer_size=16))
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=FS_VS)))
    fs = (CORPUS / "tgsi" / f"{fs_name}.tgsi").read_text()
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    elements = [
        VertexElement(src_offset=0, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
        VertexElement(src_offset=16, vertex_buffer_index=0, src_format=Format.R32G32B32A32_FLOAT),
    ]
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(elements))
    bind_rasterizer(ctx, half_pixel_center=True)
    ctx.set_vertex_buffers([VertexBuffer(buffer=np.ascontiguousarray(verts), stride=32)])
    ctx.draw_vbo(DrawInfo(mode=Prim.POINTS, count=len(verts)))
    return {
        "buffers": {b: read_buffer(ctx, r, np.uint8).tobytes() for b, r in bufs.items()},
        "color": read_rgba32f(screen, color).tobytes(),
    }


def test_fragment_ssbos_match_softpipe(profile, screen, ctx):
    """ssbo_fragment.frag (a LUT read, a histogram of atomicAdd, a per-pixel
    store) gives softpipe's SSBO bytes and colours on glpipe; on gl33, whose
    caps give the fragment stage no shader buffers, binding them is refused."""
    verts, lut, hist, dump = _ssbo_fragment()
    buffers = {0: lut, 1: hist, 2: dump}
    if _refused_on_gl33(profile, screen, ctx):
        return
    if "ssbo_fragment" not in _reference:
        _reference["ssbo_fragment"] = _softpipe(
            "ssbo_fragment.frag", (0, 0, 0), buffers, {}, draw={"size": FB, "vertices": verts}
        )
    ref = _reference["ssbo_fragment"]
    got = _draw_glpipe(screen, ctx, "ssbo_fragment.frag", verts, buffers)
    for b in (1, 2):
        assert ref["buffers"][b] != buffers[b].tobytes(), f"softpipe left SSBO {b} as it was"
        assert got["buffers"][b] == ref["buffers"][b], f"ssbo_fragment.frag: SSBO binding {b} differs from softpipe"
    assert np.frombuffer(ref["buffers"][1], np.uint32).sum() == hist.sum() + FB * FB  # one add per pixel
    assert got["color"] == ref["color"], "ssbo_fragment.frag: colour target differs from softpipe"


def _refused_on_gl33(profile, screen, ctx) -> bool:
    """True (after checking the refusal) where the caps give the fragment
    stage no shader buffers (gl33: GL 3.3 has no SSBOs, docs/caps.md)."""
    from glpipe import ShaderCap
    from lowering.errors import PipeError

    if screen.get_shader_param(ShaderType.FRAGMENT, ShaderCap.MAX_SHADER_BUFFERS) != 0:
        return False
    assert profile == "gl33"
    res = shader_buffer(screen, ctx, np.zeros(4, np.uint32))
    with pytest.raises(PipeError, match="(?i)buffer"):
        ctx.set_shader_buffers(ShaderType.FRAGMENT, 0, [ShaderBuffer(buffer=res, buffer_size=res.width0)], 1)
    return True


def test_fragment_atomic_counters_match_softpipe(profile, screen, ctx):
    """atomic_counter.frag (increment, decrement under a branch, a counter
    array with a dynamic index; st/mesa lowers the counters to BUFFER[0] and
    BUFFER[1] atomics): the counters end where softpipe's end, and where
    counting says.  The values the atomics return, and so the colours, depend
    on fragment order, which GL leaves free (GL 4.6 section 11.1.3.10): not compared."""
    if _refused_on_gl33(profile, screen, ctx):
        return
    verts, _lut, _hist, _dump = _ssbo_fragment()
    rng = np.random.default_rng(20)
    verts[:, 7] = rng.integers(0, 17, len(verts)) / 16  # alpha: about half below 0.5
    counters = {0: np.array([1000, 5000], np.uint32), 1: np.array([7, 70, 700, 7000], np.uint32)}
    if "atomic_counter" not in _reference:
        _reference["atomic_counter"] = _softpipe(
            "atomic_counter.frag", (0, 0, 0), counters, {}, draw={"size": FB, "vertices": verts}, atomic_counters=True
        )
    ref = _reference["atomic_counter"]
    got = _draw_glpipe(screen, ctx, "atomic_counter.frag", verts, counters)
    # Independent count (the program's definition): one increment per pixel,
    # a decrement where alpha < 0.5, one increment of bin int(r * 3.99).
    frags = np.array([1000 + FB * FB, 5000 - int((verts[:, 7] < 0.5).sum())], np.uint32)
    bins = counters[1] + np.bincount((verts[:, 4] * np.float32(3.99)).astype(int), minlength=4).astype(np.uint32)
    assert ref["buffers"][0] == frags.tobytes() and ref["buffers"][1] == bins.tobytes()
    assert got["buffers"][0] == ref["buffers"][0], "atomic_counter.frag: binding 0 counters differ from softpipe"
    assert got["buffers"][1] == ref["buffers"][1], "atomic_counter.frag: binding 1 counters differ from softpipe"
