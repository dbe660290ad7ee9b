"""memory_barrier, texture_barrier, flush_resource, resource_commit (the
barriers area, ``BarrierPart``).

context.rst: ``memory_barrier`` flushes the caches its PIPE_BARRIER_* bits
name; ``texture_barrier`` makes the writes to the bound surfaces visible to
the bound samplers (and framebuffer fetch); ``flush_resource`` readies a
resource for use outside the context.  Each PIPE_BARRIER bit maps to the GL
barrier bits that order the same kind of access (``BARRIER_BITS``); where
the host has no glMemoryBarrier (GL 3.3) it has no incoherent writer either
(no images, shader buffers or persistent maps), so every access is already
ordered and there is nothing to wait for.  ``resource_commit`` (sparse
residency) is refused: glpipe emulates no sparse resources (the sparse caps
are 0, resource_create refuses SPARSE).
"""

from __future__ import annotations

from lowering.errors import UnsupportedError

from . import boundary
from .copy import check_level, texture_box
from .enums import Barrier, Target, TextureBarrier
from .part import Area, Part
from .resource import Resource
from .templates import Box

#: PIPE_BARRIER bit -> ((GL barrier bit, host feature it needs), ...).
#: A GL bit whose feature the host lacks names an access the host cannot make.
BARRIER_BITS: dict[Barrier, tuple[tuple[str, str], ...]] = {
    Barrier.MAPPED_BUFFER: (("GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT", "buffer_storage"),),
    Barrier.SHADER_BUFFER: (("GL_SHADER_STORAGE_BARRIER_BIT", "shader_storage_buffer_object"),),
    Barrier.QUERY_BUFFER: (("GL_QUERY_BUFFER_BARRIER_BIT", "query_buffer_object"),),
    Barrier.VERTEX_BUFFER: (("GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.INDEX_BUFFER: (("GL_ELEMENT_ARRAY_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.CONSTANT_BUFFER: (("GL_UNIFORM_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.INDIRECT_BUFFER: (("GL_COMMAND_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.TEXTURE: (("GL_TEXTURE_FETCH_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.IMAGE: (("GL_SHADER_IMAGE_ACCESS_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.FRAMEBUFFER: (("GL_FRAMEBUFFER_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.STREAMOUT_BUFFER: (("GL_TRANSFORM_FEEDBACK_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.GLOBAL_BUFFER: (("GL_SHADER_STORAGE_BARRIER_BIT", "shader_storage_buffer_object"),),
    Barrier.UPDATE_BUFFER: (("GL_BUFFER_UPDATE_BARRIER_BIT", "shader_image_load_store"),),
    Barrier.UPDATE_TEXTURE: (
        ("GL_TEXTURE_UPDATE_BARRIER_BIT", "shader_image_load_store"),
        ("GL_PIXEL_BUFFER_BARRIER_BIT", "shader_image_load_store"),
    ),
}


class BarrierPart(Part):
    """The barriers area: memory_barrier, texture_barrier, flush_resource,
    resource_commit."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        profile = ctx.screen.profile
        gl = ctx.gl
        # Per PIPE_BARRIER bit, the GL bits this host has: resolved once.
        self._gl_bits = {
            bit: sum(int(getattr(gl, name)) for name, feature in rows if profile.has(feature))
            for bit, rows in BARRIER_BITS.items()
        }
        self._has_memory_barrier = profile.has("shader_image_load_store")
        self._texture_barrier = None
        if profile.has("texture_barrier"):
            # ARB_texture_barrier / GL 4.5, or the NV original (same semantics).
            self._texture_barrier = gl.glTextureBarrier if bool(gl.glTextureBarrier) else gl.glTextureBarrierNV

    def memory_barrier(self, flags: Barrier | int) -> None:
        """pipe_context::memory_barrier: order the accesses ``flags``
        (Barrier bits) name after everything issued before (glMemoryBarrier
        with the GL bits of ``BARRIER_BITS``)."""
        what = "memory_barrier"
        self.ctx.check_alive(what)
        bits = boundary.flags(Barrier, flags, f"{what}: flags")
        if bits & Barrier.MAPPED_BUFFER:
            # The CPU's writes through non-coherent persistent maps reach the
            # GPU here (context.rst PIPE_MAP_PERSISTENT; glpipe/transfer.py).
            self.ctx.transfers_part.flush_persistent()
        gl_bits = 0
        for bit, value in self._gl_bits.items():
            if bits & bit:
                gl_bits |= value
        if gl_bits and self._has_memory_barrier:
            self.ctx.host.make_current()
            self.ctx.gl.glMemoryBarrier(gl_bits)
            self.ctx.host.check(what)

    def texture_barrier(self, flags: TextureBarrier | int) -> None:
        """pipe_context::texture_barrier: writes to the bound surfaces become
        visible to the bound samplers (SAMPLER) and framebuffer fetch
        (FRAMEBUFFER) -- glTextureBarrier.  UnsupportedError where
        PIPE_CAP_TEXTURE_BARRIER is 0 (GL 3.3 has no way to order them)."""
        what = "texture_barrier"
        self.ctx.check_alive(what)
        boundary.flags(TextureBarrier, flags, f"{what}: flags")
        if self._texture_barrier is None:
            raise UnsupportedError(
                f"{what}: PIPE_CAP_TEXTURE_BARRIER is 0 on the {self.ctx.screen.profile.name} profile "
                f"(no GL_ARB_texture_barrier): rendering to a texture while sampling it is undefined there"
            )
        self.ctx.host.make_current()
        self._texture_barrier()
        self.ctx.host.check(what)

    def flush_resource(self, res: Resource) -> None:
        """pipe_context::flush_resource: ready ``res`` for use outside this
        context (presentation, sharing): everything issued that writes it is
        submitted (glFlush; glpipe keeps no compressed or private layouts to
        resolve)."""
        what = "flush_resource"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        self.ctx.host.make_current()
        self.ctx.gl.glFlush()

    def resource_commit(self, res: Resource, level: int, box: Box, commit: bool) -> bool:
        """pipe_context::resource_commit: commit or decommit the pages of a
        sparse resource.  The arguments are checked (resource, level, box
        inside the level, bool), then UnsupportedError: glpipe emulates no
        sparse residency (PIPE_CAP_SPARSE_BUFFER_PAGE_SIZE and
        MAX_SPARSE_TEXTURE_SIZE are 0, so no resource is sparse)."""
        what = "resource_commit"
        self.ctx.check_alive(what)
        self.ctx._check_resource(res, what)
        level = check_level(res, level, what)
        box = boundary.instance(box, Box, f"{what}: box")
        if res.target == Target.BUFFER:
            boundary.span(box.x, box.width, res.width0, f"{what}: box")
        else:
            texture_box(res, level, box, what)
        boundary.flag(commit, f"{what}: commit")
        raise UnsupportedError(
            f"{what}: {res!r} is not sparse -- glpipe emulates no sparse residency "
            f"(PIPE_CAP_SPARSE_BUFFER_PAGE_SIZE and PIPE_CAP_MAX_SPARSE_TEXTURE_SIZE are 0)"
        )


AREA = Area(
    "barriers_part",
    part=BarrierPart,
    methods=("memory_barrier", "texture_barrier", "flush_resource", "resource_commit"),
)

__all__ = ["AREA", "BARRIER_BITS", "BarrierPart"]
