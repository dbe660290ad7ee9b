"""Compute: ``create/bind/delete_compute_state``, ``launch_grid`` and
``memory_barrier``.

A compute CSO is parsed and validated once.  launch_grid runs it on the
host's compute shaders (a GL program per block size, compiled on first use:
GLSL fixes local_size at compile time) or, where the host has none, through
the numpy TGSI executor (fallback/tgsi_exec) over the bound shader buffers,
sampler views and images, read from the host before the dispatch (through
transfers: the Gallium layout, whatever the host stores) and written back
after (buffers: only the words written; images: only views written to).  Launches the host cannot express -- a partial last block
(pipe_grid_info.last_block), a grid_base, or the WORK_DIM system value --
run through the executor on every profile.  Compute state is separate from
graphics state: a launch leaves the bound graphics shaders alone and marks
the program and shader-buffer bindings it used for re-emission at the next
draw.  docs/compute.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fallback.tgsi_exec import BufferBinding, Dispatch, ImageBinding, TextureBinding, prepare, run_grid
from fallback.tgsi_exec import Program as ExecProgram
from fallback.tgsi_exec.sampling import fetched_units
from fallback.tgsi_exec.texture import decode as decode_texels
from lowering import parse, validate
from lowering.errors import (
    InvalidArgumentError,
    ObjectDestroyedError,
    PipeError,
    ShaderValidationError,
    UnsupportedError,
)
from lowering.glsl import GLSLShader
from lowering.limits import ShaderLimits, check_limits, limits_for

from . import boundary
from .caps_shader import compute_runs_on_host
from .constant_buffers import PlanRow
from .dirty import Dirty
from .enums import Barrier, ComputeCap, Map, ShaderCap, ShaderIR, ShaderType, Target
from .formats import Format, util_format_get_blocksize
from .part import Area, Part
from .resource import Resource
from .sampler_compare import COMPARE_LOOKUPS
from .shaders import _check_declared_slots, apply_bindings
from .templates import Box, ComputeState, GridInfo

# Gallium barrier bits -> the GL barrier bits that make the same writes visible.
_BARRIER_BITS = (
    (Barrier.MAPPED_BUFFER, ("GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT",)),
    (Barrier.SHADER_BUFFER, ("GL_SHADER_STORAGE_BARRIER_BIT", "GL_ATOMIC_COUNTER_BARRIER_BIT")),
    (Barrier.QUERY_BUFFER, ("GL_QUERY_BUFFER_BARRIER_BIT",)),
    (Barrier.VERTEX_BUFFER, ("GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT",)),
    (Barrier.INDEX_BUFFER, ("GL_ELEMENT_ARRAY_BARRIER_BIT",)),
    (Barrier.CONSTANT_BUFFER, ("GL_UNIFORM_BARRIER_BIT",)),
    (Barrier.INDIRECT_BUFFER, ("GL_COMMAND_BARRIER_BIT",)),
    (Barrier.TEXTURE, ("GL_TEXTURE_FETCH_BARRIER_BIT",)),
    (Barrier.IMAGE, ("GL_SHADER_IMAGE_ACCESS_BARRIER_BIT",)),
    (Barrier.FRAMEBUFFER, ("GL_FRAMEBUFFER_BARRIER_BIT",)),
    (Barrier.STREAMOUT_BUFFER, ("GL_TRANSFORM_FEEDBACK_BARRIER_BIT",)),
    (Barrier.GLOBAL_BUFFER, ("GL_SHADER_STORAGE_BARRIER_BIT",)),
    (Barrier.UPDATE_BUFFER, ("GL_BUFFER_UPDATE_BARRIER_BIT", "GL_PIXEL_BUFFER_BARRIER_BIT")),
    (Barrier.UPDATE_TEXTURE, ("GL_TEXTURE_UPDATE_BARRIER_BIT", "GL_PIXEL_BUFFER_BARRIER_BIT")),
)

# After every host dispatch: what transfers (transfer_map READ, buffer_subdata,
# copies) need so that they see the dispatch's writes -- Gallium transfers are
# ordered after earlier commands without a barrier of the frontend's.
_AFTER_DISPATCH = Barrier.MAPPED_BUFFER | Barrier.UPDATE_BUFFER | Barrier.UPDATE_TEXTURE


class ComputeCSO:
    """A compute state object: validated TGSI, its GL programs per block
    size (host path) and its executor program (fallback path)."""

    __slots__ = (
        "context",
        "ir",
        "info",
        "req_local_mem",
        "fixed_block",
        "programs",
        "exec_program",
        "destroyed",
        "__weakref__",
    )

    def __init__(self, context, ir, info, req_local_mem: int, fixed_block):
        self.context = context
        self.ir = ir
        self.info = info
        self.req_local_mem = req_local_mem
        self.fixed_block = fixed_block  # CS_FIXED_BLOCK_* (x, y, z), or None
        self.programs: dict[tuple[int, int, int], tuple[int, GLSLShader]] = {}  # block -> (GL program, GLSL record)
        self.exec_program: ExecProgram | None = None
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<ComputeCSO ({len(self.programs)} host programs)>"


class ComputePart(Part):
    """The compute area (``ctx.compute_part``): the bound compute CSO."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.bound: ComputeCSO | None = None
        self._csos: list[ComputeCSO] = []
        self._on_host = compute_runs_on_host(ctx.screen.caps.env)

    # -- create / bind / delete --------------------------------------------------

    def create_compute_state(self, state: ComputeState) -> ComputeCSO:
        """pipe_context::create_compute_state: parse and validate the TGSI
        in ``state.prog`` once; refuse (UnsupportedError) what neither the
        host nor the executor can run."""
        what = "create_compute_state"
        ctx = self.ctx
        ctx.check_alive(what)
        boundary.instance(state, ComputeState, what)
        if boundary.member(ShaderIR, state.ir_type, f"{what}: ir_type") != ShaderIR.TGSI:
            raise InvalidArgumentError(f"{what}: IR {ShaderIR(state.ir_type).name} is not supported (TGSI only)")
        if not isinstance(state.prog, str):
            raise InvalidArgumentError(f"{what}: prog must be TGSI text (str), got {type(state.prog).__name__}")
        local = boundary.uint32(state.req_local_mem, f"{what}: req_local_mem")
        local += boundary.uint32(state.static_shared_mem, f"{what}: static_shared_mem")
        for field in ("req_input_mem", "req_private_mem"):
            if boundary.uint32(getattr(state, field), f"{what}: {field}"):
                raise UnsupportedError(
                    f"{what}: {field} needs kernel input / private memory, which glpipe does not offer "
                    "(PIPE_COMPUTE_CAP_MAX_INPUT_SIZE / MAX_PRIVATE_SIZE are 0)"
                )
        screen = ctx.screen
        max_local = screen.get_compute_param(ShaderIR.TGSI, ComputeCap.MAX_LOCAL_SIZE)
        if local > max_local:
            raise UnsupportedError(
                f"{what}: {local} bytes of shared memory exceed PIPE_COMPUTE_CAP_MAX_LOCAL_SIZE ({max_local})"
            )
        ir = parse(state.prog)
        if ir.processor != "COMP":
            raise ShaderValidationError(f"{what}: TGSI header is {ir.processor}, expected COMP")
        info = validate(ir)
        _check_declared_slots(screen, ShaderType.COMPUTE, ir, what)
        # Size limits the host compiles in bounded time (lowering/limits.py, the caps' numbers).
        check_limits(
            ir,
            ShaderLimits.from_caps(
                lambda cap: screen.get_shader_param(ShaderType.COMPUTE, ShaderCap[cap]),
                limits_for(screen.profile.name).max_indirect_temp_array,
            ),
            what,
        )
        fixed = tuple(ir.property(f"CS_FIXED_BLOCK_{d}", 0) or 0 for d in ("WIDTH", "HEIGHT", "DEPTH"))
        cso = ctx._own(ComputeCSO(ctx, ir, info, local, fixed if all(fixed) else None))
        if not self._on_host or self._needs_executor(cso):
            cso.exec_program = prepare(ir, local)  # UnsupportedError names what the executor lacks
        elif cso.fixed_block is not None:
            self._program(cso, cso.fixed_block)  # compile now: a host refusal surfaces at create
        self._csos.append(cso)
        return cso

    def bind_compute_state(self, cso: ComputeCSO | None) -> None:
        """pipe_context::bind_compute_state (None unbinds).  Graphics state
        is untouched."""
        if cso is not None:
            self.ctx._check_cso(cso, ComputeCSO, "bind_compute_state")
        self.bound = cso

    def delete_compute_state(self, cso: ComputeCSO) -> None:
        """pipe_context::delete_compute_state: free its GL programs."""
        self.ctx._check_cso(cso, ComputeCSO, "delete_compute_state")
        if self.bound is cso:
            self.bound = None
        self._free(cso)
        self._csos.remove(cso)

    destroy_compute_state = delete_compute_state  # the spec's spelling

    def _free(self, cso: ComputeCSO) -> None:
        gl = self.ctx.gl
        for prog, _glsl in cso.programs.values():
            gl.glDeleteProgram(prog)
        cso.programs.clear()
        cso.destroyed = True

    @staticmethod
    def _needs_executor(cso: ComputeCSO) -> bool:
        # WORK_DIM is an OpenCL value the host GLSL has no built-in for.
        return any(sv.semantic == "WORK_DIM" for sv in cso.info.system_values)

    # -- host programs -------------------------------------------------------------

    def _program(self, cso: ComputeCSO, block: tuple[int, int, int]) -> tuple[int, GLSLShader]:
        found = cso.programs.get(block)
        if found is not None:
            return found
        from lowering import to_glsl
        from lowering.glsl.variant import VariantKey

        ctx = self.ctx
        gl = ctx.gl
        prof = ctx.screen.profile
        glsl = to_glsl(
            cso.info,
            glsl_version=prof.glsl_version,
            key=VariantKey(cs_block_size=block if cso.fixed_block is None else ()),
            extensions=prof.extensions,
            bindings=ctx.bindings,
            req_local_mem=cso.req_local_mem,
            host_facts=ctx.screen.host_facts.holds,
        )
        shader = gl.glCreateShader(gl.GL_COMPUTE_SHADER)
        gl.glShaderSource(shader, glsl.source)
        gl.glCompileShader(shader)
        ok = gl.glGetShaderiv(shader, gl.GL_COMPILE_STATUS)
        log = "" if ok else gl.glGetShaderInfoLog(shader)
        prog = gl.glCreateProgram()
        if ok:
            gl.glAttachShader(prog, shader)
            gl.glLinkProgram(prog)
            ok = gl.glGetProgramiv(prog, gl.GL_LINK_STATUS)
            log = "" if ok else gl.glGetProgramInfoLog(prog)
            gl.glDetachShader(prog, shader)
        gl.glDeleteShader(shader)
        if not ok:
            gl.glDeleteProgram(prog)
            log = log.decode(errors="replace") if isinstance(log, bytes) else str(log)
            raise PipeError(
                f"internal error: the host rejected the GLSL lowered from this COMP shader:\n{log}\n{glsl.source}"
            )
        gl.glUseProgram(prog)
        apply_bindings(gl, prog, glsl.reflection)
        self._graphics_clobbered()
        ctx.host.check("compiling a compute program")
        cso.programs[block] = (int(prog), glsl)
        ctx._counters.shader_variants += 1
        return cso.programs[block]

    def _graphics_clobbered(self) -> None:
        """The current program and the storage / uniform bindings changed
        under the graphics state: the next draw re-emits them."""
        ctx = self.ctx
        ctx.shader_part.program = None
        ctx.dirty |= Dirty.PROGRAM | Dirty.SHADER_BUFFERS

    # -- launch_grid ---------------------------------------------------------------

    def launch_grid(self, info: GridInfo) -> None:
        """pipe_context::launch_grid: run the bound compute state over
        ``info.grid`` blocks of ``info.block`` invocations (or the grid in
        ``info.indirect`` at ``indirect_offset``), from block ``grid_base``,
        the last block of each dimension cut to ``last_block`` where non-zero."""
        what = "launch_grid"
        ctx = self.ctx
        ctx.check_alive(what)
        boundary.instance(info, GridInfo, what)
        cso = self.bound
        if cso is None:
            raise InvalidArgumentError(f"{what}: no compute state is bound")
        if cso.destroyed:
            raise ObjectDestroyedError(f"{what}: the bound compute state was deleted")
        block = _triple(info.block, 1, f"{what}: block")
        last_block = _triple(info.last_block, 0, f"{what}: last_block")
        grid_base = _triple(info.grid_base, 0, f"{what}: grid_base")
        screen = ctx.screen
        max_block = screen.get_compute_param(ShaderIR.TGSI, ComputeCap.MAX_BLOCK_SIZE)
        for k in range(3):
            if not 1 <= block[k] <= max_block[k]:
                raise InvalidArgumentError(
                    f"{what}: block[{k}] = {block[k]} is outside [1, {max_block[k]}] (MAX_BLOCK_SIZE)"
                )
            if last_block[k] > block[k]:
                raise InvalidArgumentError(f"{what}: last_block[{k}] = {last_block[k]} exceeds block[{k}] = {block[k]}")
        threads = block[0] * block[1] * block[2]
        max_threads = screen.get_compute_param(ShaderIR.TGSI, ComputeCap.MAX_THREADS_PER_BLOCK)
        if threads > max_threads:
            raise InvalidArgumentError(
                f"{what}: a block of {threads} invocations exceeds MAX_THREADS_PER_BLOCK ({max_threads})"
            )
        if cso.fixed_block is not None and block != cso.fixed_block:
            raise InvalidArgumentError(
                f"{what}: block {block} differs from the shader's CS_FIXED_BLOCK_* {cso.fixed_block}"
            )
        shared = cso.req_local_mem + boundary.uint32(info.variable_shared_mem, f"{what}: variable_shared_mem")
        if shared > screen.get_compute_param(ShaderIR.TGSI, ComputeCap.MAX_LOCAL_SIZE):
            raise InvalidArgumentError(f"{what}: {shared} bytes of shared memory exceed MAX_LOCAL_SIZE")
        indirect = None
        if info.indirect is not None:
            indirect = self._check_indirect(info, what)
            grid = (
                self._read_indirect(indirect, info.indirect_offset) if not self._on_host or cso.exec_program else None
            )
        else:
            grid = _triple(info.grid, 0, f"{what}: grid")
        if grid is not None:
            max_grid = screen.get_compute_param(ShaderIR.TGSI, ComputeCap.MAX_GRID_SIZE)
            for k in range(3):
                if grid[k] > max_grid[k]:
                    raise InvalidArgumentError(f"{what}: grid[{k}] = {grid[k]} exceeds MAX_GRID_SIZE ({max_grid[k]})")
        executor = cso.exec_program is not None or any(last_block) or any(grid_base)
        if executor:
            if grid is None and indirect is not None:
                grid = self._read_indirect(indirect, info.indirect_offset)
            assert grid is not None  # set from info.grid, or read from info.indirect above
            self._launch_executor(cso, Dispatch(block, grid, grid_base, last_block, max(1, info.work_dim or 3)), shared)
        else:
            self._launch_host(cso, block, grid, indirect, info.indirect_offset)

    def _check_indirect(self, info: GridInfo, what: str) -> Resource:
        res = info.indirect
        self.ctx._check_resource(res, f"{what}: indirect")
        if res.target != Target.BUFFER:
            raise InvalidArgumentError(f"{what}: indirect {res!r} is not a BUFFER")
        offset = boundary.uint32(info.indirect_offset, f"{what}: indirect_offset")
        if offset % 4:
            raise InvalidArgumentError(f"{what}: indirect_offset = {offset} is not 4-byte aligned (p_state.h)")
        boundary.span(offset, 12, res.width0, f"{what}: the three grid sizes at indirect_offset")
        return res

    def _read_indirect(self, res: Resource, offset: int) -> tuple[int, int, int]:
        gl = self.ctx.gl
        raw = np.zeros(12, np.uint8)  # PyOpenGL sizes a typed array's read by its dtype: read bytes
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, res.gl_object)
        gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, offset, 12, raw)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        out = raw.view(np.uint32)
        return int(out[0]), int(out[1]), int(out[2])

    def _launch_host(self, cso, block, grid, indirect, indirect_offset: int) -> None:
        ctx = self.ctx
        gl = ctx.gl
        prog, glsl = self._program(cso, block)
        gl.glUseProgram(prog)
        ctx.shader_buffers_part.bind_stage(ShaderType.COMPUTE)
        ctx.shader_images_part.bind_compute(glsl.reflection)
        if glsl.reflection.samplers:
            # Sampler views and samplers on the compute stage's texture units,
            # through the sampler-view area's unit shadow (so the next draw
            # re-binds only the units that differ).
            ctx.sampler_views_part._bind_texture_units(_texture_plan(glsl.reflection))
            ctx.dirty |= Dirty.SAMPLERS | Dirty.SAMPLER_VIEWS
        # The constant buffers it declares, through the constant-buffer area's
        # binding shadow (so graphics re-binds only what differs afterwards).
        plan = tuple(
            PlanRow(int(ShaderType.COMPUTE), int(c.index), int(c.binding), 16 * int(c.size))
            for c in glsl.reflection.constant_buffers
        )
        if plan:
            ctx.constbuf_part._bind_constant_plan(plan)
        self._graphics_clobbered()
        if indirect is not None:
            gl.glBindBuffer(gl.GL_DISPATCH_INDIRECT_BUFFER, indirect.gl_object)
            gl.glDispatchComputeIndirect(indirect_offset)
            gl.glBindBuffer(gl.GL_DISPATCH_INDIRECT_BUFFER, 0)
        elif all(grid):
            gl.glDispatchCompute(*grid)
        gl.glMemoryBarrier(self._gl_barrier_bits(_AFTER_DISPATCH))
        ctx.host.check("launch_grid")

    def _launch_executor(self, cso, dispatch: Dispatch, shared: int) -> None:
        if cso.exec_program is None or shared != cso.req_local_mem:
            cso.exec_program = prepare(cso.ir, shared)
        gl = self.ctx.gl
        declared = {i for d in cso.ir.declarations if d.file == "BUFFER" for i in range(d.first, d.last + 1)}
        slots = self.ctx.shader_buffers_part.bound(ShaderType.COMPUTE)
        buffers: dict[int, BufferBinding] = {}
        for k in sorted(declared):
            b = slots[k] if k < len(slots) else None
            if b is None or b.size == 0:
                continue
            b.resource.check_alive("launch_grid: shader buffer")
            raw = np.zeros((b.size + 3) // 4 * 4, np.uint8)
            gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, b.resource.gl_object)
            gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, b.offset, b.size, raw)
            buffers[k] = BufferBinding(raw.view(np.uint32), b.size, b.writable)
        constants = self._executor_constants(cso)
        gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, 0)
        textures = self._executor_textures(cso)
        images = self._executor_images(cso)
        samplers = self._executor_samplers(cso)
        run_grid(cso.exec_program, dispatch, buffers, constants, textures, images, samplers)
        self._write_back_images(images)
        # Write back only the words the dispatch wrote.
        for k, binding in buffers.items():
            if binding.lo >= binding.hi:
                continue
            b = slots[k]
            lo, hi = binding.lo * 4, min(binding.hi * 4, b.size)
            data = binding.words.view(np.uint8)[lo:hi]
            gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, b.resource.gl_object)
            gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, b.offset + lo, hi - lo, np.ascontiguousarray(data))
        gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
        self.ctx.host.check("launch_grid (numpy executor)")

    # -- the executor's sampler views and images ------------------------------------

    def _read_buffer(self, res: Resource, offset: int, texels: int, bs: int) -> np.ndarray:
        """``texels`` texels of ``bs`` bytes at byte ``offset`` of a buffer, as
        (1, 1, texels, bs) uint8 (through transfer_map READ)."""
        ctx = self.ctx
        if texels == 0:
            return np.zeros((1, 1, 0, bs), np.uint8)
        t = ctx.transfer_map(res, 0, Map.READ, Box(x=offset, width=texels * bs, height=1, depth=1))
        try:
            return np.frombuffer(t.data.tobytes(), np.uint8).reshape(1, 1, texels, bs).copy()
        finally:
            ctx.transfer_unmap(t)

    def _read_box(self, res: Resource, level: int, z: int, d: int) -> np.ndarray:
        """Texels of layers / slices z..z+d-1 of ``level`` of ``res`` in the
        Gallium layout (through transfer_map READ): (d, h, w, blocksize) uint8."""
        ctx = self.ctx
        bs = util_format_get_blocksize(res.format)
        lw, lh, _ = res.level_extent(level)
        t = ctx.transfer_map(res, level, Map.READ, Box(x=0, y=0, z=z, width=lw, height=lh, depth=d))
        try:
            raw = np.frombuffer(t.data.tobytes(), np.uint8)
            rows = np.lib.stride_tricks.as_strided(
                raw, (d, lh, lw * bs), (t.layer_stride, t.stride, 1), writeable=False
            )
            return rows.copy().reshape(d, lh, lw, bs)  # writable: the executor's image copy
        finally:
            ctx.transfer_unmap(t)

    def _executor_textures(self, cso: ComputeCSO) -> dict[int, TextureBinding]:
        """The compute stage's sampler views the program declares: sizes of
        each, and the decoded texels of those it fetches from (texture.py)."""
        units = {k for d in cso.ir.declarations if d.file in ("SAMP", "SVIEW") for k in range(d.first, d.last + 1)}
        if not units:
            return {}
        fetched = fetched_units(cso.ir)
        slots = self.ctx.sampler_views_part.sampler_views[ShaderType.COMPUTE]
        out: dict[int, TextureBinding] = {}
        for k in sorted(units):
            view = slots[k] if k < len(slots) else None
            if view is None:
                continue
            view.check_alive("launch_grid: sampler view")
            out[k] = self._texture_binding(view, k in fetched)
        return out

    def _executor_samplers(self, cso: ComputeCSO) -> dict:
        """The compute stage's sampler states (their templates) for the SAMP
        registers ``cso`` declares."""
        slots = self.ctx.samplers_part.sampler_states[ShaderType.COMPUTE]
        out = {}
        for d in cso.ir.declarations:
            if d.file == "SAMP":
                for k in range(d.first, d.last + 1):
                    if k < len(slots) and slots[k] is not None:
                        out[k] = slots[k].templ
        return out

    def _texture_binding(self, view, fetch: bool) -> TextureBinding:
        res = view.texture
        fmt = Format(view.format)
        bs = util_format_get_blocksize(fmt)
        outside = self._decode(fmt, view, np.zeros((1, 1, 1, bs), np.uint8)).reshape(4)
        swizzle = (view.swizzle_r, view.swizzle_g, view.swizzle_b, view.swizzle_a)
        if view.is_buffer:
            texels = (view.size if view.size else res.width0 - view.offset) // bs
            data = self._decode(fmt, view, self._read_buffer(res, view.offset, texels, bs)) if fetch else None
            return TextureBinding([data], [(texels, 1, 1)], 1, outside, fmt, swizzle)
        target = Target(res.target)
        layered = target in (
            Target.TEXTURE_1D_ARRAY,
            Target.TEXTURE_2D_ARRAY,
            Target.TEXTURE_CUBE,
            Target.TEXTURE_CUBE_ARRAY,
        )
        first, count = (view.first_layer, view.last_layer - view.first_layer + 1) if layered else (0, 1)
        levels: list[np.ndarray | None] = []
        sizes: list[tuple[int, int, int]] = []
        for level in range(view.first_level, view.last_level + 1):
            w, h, depth = res.level_extent(level)
            z, d = (0, depth) if target == Target.TEXTURE_3D else (first, count)
            sizes.append((w, h, depth if target == Target.TEXTURE_3D else count))
            levels.append(self._decode(fmt, view, self._read_box(res, level, z, d)) if fetch else None)
        return TextureBinding(levels, sizes, count, outside, fmt, swizzle)

    @staticmethod
    def _decode(fmt: Format, view, texels: np.ndarray) -> np.ndarray:
        """Texels of ``fmt`` as the words a fetch returns, through the view's
        swizzle (fallback/tgsi_exec/texture.py ``decode``)."""
        d, h, w = texels.shape[:3]
        swizzle = (view.swizzle_r, view.swizzle_g, view.swizzle_b, view.swizzle_a)
        try:
            return decode_texels(fmt, texels.reshape(-1), d * h * w, swizzle).reshape(d, h, w, 4)
        except UnsupportedError as exc:
            raise UnsupportedError(
                f"launch_grid: the numpy TGSI executor reads no {fmt.name} texels (a sampler view the "
                f"program samples): {exc}"
            ) from None

    def _executor_images(self, cso: ComputeCSO) -> dict[int, ImageBinding]:
        """The compute stage's image views the program declares, read from the
        host: the view's level and layers (a buffer view: its range)."""
        declared = {i for d in cso.ir.declarations if d.file == "IMAGE" for i in range(d.first, d.last + 1)}
        slots = self.ctx.shader_images_part.images[ShaderType.COMPUTE]
        out: dict[int, ImageBinding] = {}
        for k in sorted(declared):
            b = slots[k] if k < len(slots) else None
            if b is None:
                continue
            b.resource.check_alive(f"image slot {k} of the COMPUTE stage")
            res = b.resource
            if res.target == Target.BUFFER:
                bs = util_format_get_blocksize(b.format)
                texels = self._read_buffer(res, b.offset, b.size // bs, bs)
            else:
                texels = self._read_box(res, b.level, b.first_layer, b.layer_count)
            out[k] = ImageBinding.of(b.format, texels, b.writes)
        return out

    def _write_back_images(self, images: dict[int, ImageBinding]) -> None:
        """Upload the images the dispatch wrote (texture_subdata / buffer_subdata)."""
        ctx = self.ctx
        slots = self.ctx.shader_images_part.images[ShaderType.COMPUTE]
        for k, img in images.items():
            if not img.written:
                continue
            b = slots[k]
            data = img.texel_bytes()
            d, h, w, bs = data.shape
            if b.resource.target == Target.BUFFER:
                ctx.buffer_subdata(b.resource, Map.WRITE, b.offset, np.ascontiguousarray(data).reshape(-1))
                continue
            box = Box(x=0, y=0, z=b.first_layer, width=w, height=h, depth=d)
            ctx.texture_subdata(b.resource, b.level, Map.WRITE, box, np.ascontiguousarray(data), w * bs, w * h * bs)

    def set_global_binding(self, first: int, resources: Sequence[Resource | None], handles: object = None) -> None:
        """pipe_context::set_global_binding: refused.  GLSL has no pointers,
        so glpipe offers no GLOBAL memory (PIPE_COMPUTE_CAP_MAX_GLOBAL_SIZE
        and ADDRESS_BITS are 0, docs/compute.md "Not yet")."""
        what = "set_global_binding"
        self.ctx.check_alive(what)
        boundary.uint32(first, f"{what}: first")
        boundary.sequence(resources, f"{what}: resources")
        raise UnsupportedError(
            f"{what}: glpipe has no global memory (PIPE_COMPUTE_CAP_MAX_GLOBAL_SIZE is 0; GLSL has no pointers)"
        )

    def _executor_constants(self, cso: ComputeCSO) -> dict[int, np.ndarray]:
        """The words of the compute constant buffers ``cso`` declares (user
        memory as copied by set_constant_buffer, resources read from the host)."""
        gl = self.ctx.gl
        slots = self.ctx.constbuf_part.constant_buffers[ShaderType.COMPUTE]
        out: dict[int, np.ndarray] = {}
        for k in sorted({d.dimension or 0 for d in cso.ir.declarations if d.file == "CONST"}):
            rec = slots[k]
            if rec is None:
                continue
            if rec.data is not None:
                raw = np.frombuffer(rec.data, np.uint8)
            else:
                rec.resource.check_alive("launch_grid: constant buffer")
                raw = np.zeros(rec.size, np.uint8)
                gl.glBindBuffer(gl.GL_COPY_READ_BUFFER, rec.resource.gl_object)
                gl.glGetBufferSubData(gl.GL_COPY_READ_BUFFER, rec.offset, rec.size, raw)
            padded = np.zeros((raw.size + 3) // 4 * 4, np.uint8)
            padded[: raw.size] = raw
            out[k] = padded.view(np.uint32)
        return out

    # -- memory_barrier -----------------------------------------------------------

    def _gl_barrier_bits(self, flags: int) -> int:
        gl = self.ctx.gl
        out = 0
        for bit, names in _BARRIER_BITS:
            if flags & bit:
                for name in names:
                    out |= int(getattr(gl, name, 0))
        return out

    def destroy(self) -> None:
        """Context.destroy: free every compute CSO's GL programs."""
        for cso in self._csos:
            self._free(cso)
        self._csos.clear()
        self.bound = None


def _texture_plan(reflection) -> tuple:
    """The sampler-view area's plan rows (stage, unit, sview, samp, TGSI
    target, compare) for a compute program's GLSL samplers: comparing
    lookups of shadow samplers bind the view's compare twin, as in draws."""
    return tuple(
        (
            int(ShaderType.COMPUTE),
            int(s.unit),
            int(s.view),
            -1 if s.sampler is None else int(s.sampler),
            str(s.target).upper().replace("SHADOW", ""),
            COMPARE_LOOKUPS if s.shadow else 0,
        )
        for s in reflection.samplers
    )


def _triple(value, pad: int, what: str) -> tuple[int, int, int]:
    """A C ``uint[3]`` given as a sequence of up to 3 (padded with ``pad``)."""
    items = boundary.sequence(value, what, 3)
    vals = [boundary.uint32(v, f"{what}[{k}]") for k, v in enumerate(items)]
    vals += [pad] * (3 - len(vals))
    return vals[0], vals[1], vals[2]


AREA = Area(
    "compute_part",
    part=ComputePart,
    methods=(
        "create_compute_state",
        "bind_compute_state",
        "delete_compute_state",
        "destroy_compute_state",
        "launch_grid",
        "set_global_binding",
    ),
    destroy=ComputePart.destroy,
)

__all__ = ["AREA", "ComputeCSO", "ComputePart"]
