"""Run lowered TGSI on the host GL and get the raw result words back as numpy.

The execution tests lower a TGSI shader with ``lowering.to_glsl``, run it on
llvmpipe through a standalone ModernGL/EGL context of their own, and compare
what comes back with ``tgsi_reference`` (numpy, written from tgsi.rst).

Two paths:

* **FS path** (GLSL 330 and 450): a full-screen triangle into a ``N x 1``
  RGBA32F render target, one test case per pixel.  The TGSI program picks its
  case itself: ``F2U`` of the fragment's window x (``IN[0], POSITION``) goes to
  ``ADDR[0]`` with ``UARL`` and the sources are read as
  ``CONST[0][ADDR[0].x + j*N]`` (source j of case i lives at vec4 ``j*N + i``).
  One draw per batch.  ``index_mode="draw"`` is the fallback that does not
  rely on indirect addressing: one draw per case, a 1-pixel viewport, the
  case's sources at ``CONST[0][j]``.  Results are read back as raw bits
  (RGBA32F stores the words untouched: the host does not convert on a float
  store, see ``test_harness_rgba32f_keeps_bits``).
* **CS path** (GLSL 450 only): one work group of N invocations; invocation i
  ``LOAD``s its sources from ``BUFFER[0]`` at byte ``16*(j*N + i)`` and
  ``STORE``s the result to ``BUFFER[1]`` at ``16*i``.

Binding: the emitter's reflection record says which UBO binding CONST[b]
gets, which SSBO binding BUFFER[n] gets and which texture unit SVIEW/SAMP n
gets; at GLSL 330 (no ``layout(binding=)``) the harness sets the block
bindings and sampler units by name after linking, as glpipe will.

The third party: with ``exec_oracle.ORACLE`` on (the default), ``run_check``
also runs each case's compute form through the numpy TGSI executor and
holds it to the same reference under the same rule, and a bare-opcode
``run_op`` called directly does the same for the executor
(tests/lowering/exec_oracle.py; docs/compute.md "The executor as an oracle").

The second half of this module is the comparison: ``PRECISION`` says, per
opcode, how a host result may differ from the exact reference (bit-exact,
N ulp, an absolute bound, or one of several allowed values), each rule
citing the GLSL 4.50 precision table (section 4.7.1) or tgsi.rst.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import exec_oracle
import numpy as np
import tgsi_reference as R

U32 = np.uint32
GLSL_VERSIONS = (330, 450)
# Written to the result register before the opcode runs, so channels outside
# the writemask have a known value (and can be checked as such).
SENTINEL = np.array([0xDEADBEEF, 0xCAFEBABE, 0x0BADF00D, 0x12345678], dtype=U32)

FULL_SCREEN_VS = """#version {version}
// A triangle covering the whole viewport, positions from gl_VertexID.
void main()
{{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}}
"""


# ---------------------------------------------------------------------------
# TGSI program builders
# ---------------------------------------------------------------------------

_NOT_INSTRUCTIONS = frozenset({"FRAG", "VERT", "GEOM", "COMP", "TESS_CTRL", "TESS_EVAL", "DCL", "PROPERTY", "IMM"})


def _imm_u32(values) -> str:
    return "UINT32 {" + ", ".join(f"0x{int(v) & 0xFFFFFFFF:08x}" for v in values) + "}"


@dataclass
class OpProgram:
    """One opcode under test wrapped in a load/store frame.

    ``operands`` are the source operand texts of the opcode line; they may
    use ``SRC0`` ... ``SRC3`` (replaced by the TEMPs holding the case's
    sources), e.g. ``["-SRC0", "|SRC1|.yxwz"]`` -- default ``SRCj``.
    ``body`` replaces the single opcode line entirely (it may use ``SRCj``
    and ``DST``) for tests of control flow or multi-instruction sequences;
    ``decls`` adds declarations (textures, more immediates after IMM[1]).
    """

    op: str
    nsrc: int
    dst_mask: str = "xyzw"
    operands: Sequence[str] | None = None
    suffix: str = ""  # text after the operands, e.g. ", 2D" (texture target)
    body: str | None = None
    decls: str = ""
    ndst: int = 1
    tail: str = ""  # after END: subroutines (BGNSUB ... ENDSUB)

    def _src_regs(self) -> list[str]:
        return [f"TEMP[{j}]" for j in range(self.nsrc)]

    def _core_text(self, text: str) -> str:
        """Replace the DST / DST2 / SRCj placeholders in operand position (never the mnemonic)."""
        import re

        names = {"DST": f"TEMP[{self.nsrc}]", "DST2": f"TEMP[{self.nsrc + 2}]"}
        names.update({f"SRC{j}": reg for j, reg in enumerate(self._src_regs())})
        pattern = re.compile(r"(?<![A-Za-z0-9_@])(DST2|DST|SRC[0-3])(?![A-Za-z0-9_])")
        out = []
        for line in text.split("\n"):
            head, sep, rest = line.strip().partition(" ")
            if head.startswith("@"):  # "@LABEL: OPCODE operands"
                op, sep2, rest = rest.partition(" ")
                head, sep = f"{head} {op}", sep2
            out.append(head + sep + pattern.sub(lambda m: names[m.group(1)], rest))
        return "\n".join(out)

    def _core(self) -> str:
        dst = f"TEMP[{self.nsrc}]"
        if self.body is not None:
            text = self.body
        else:
            ops = list(self.operands) if self.operands is not None else [f"SRC{j}" for j in range(self.nsrc)]
            dsts = [dst + ("" if self.dst_mask == "xyzw" else "." + self.dst_mask)]
            if self.ndst == 2:
                dsts.append(f"TEMP[{self.nsrc + 2}]")
            text = f"{self.op} " + ", ".join(dsts + ops) + self.suffix
        return self._core_text(text)

    def _temps(self) -> str:
        return f"DCL TEMP[0..{self.nsrc + 2}]"

    def fs(self, ncases: int, index_mode: str = "addr") -> str:
        """FRAG program: case = pixel x, sources from CONST[0], result to COLOR[0] (and [1])."""
        k = self.nsrc
        nconst = max(1, k * (ncases if index_mode == "addr" else 1))
        lines = ["FRAG", "DCL IN[0], POSITION, LINEAR", "DCL OUT[0], COLOR"]
        if self.ndst == 2:
            lines.append("DCL OUT[1], COLOR[1]")
        lines += [f"DCL CONST[0][0..{nconst - 1}]", self._temps(), "DCL ADDR[0]"]
        lines += [f"IMM[0] {_imm_u32(SENTINEL)}", f"IMM[1] {_imm_u32([16, 0, 0, 0])}"]
        if self.decls:
            lines.append(self.decls)
        if index_mode == "addr":
            lines += [f"F2U TEMP[{k + 1}].x, IN[0].xxxx", f"UARL ADDR[0].x, TEMP[{k + 1}].xxxx"]
            for j in range(k):
                off = f"+{j * ncases}" if j else ""
                lines.append(f"MOV TEMP[{j}], CONST[0][ADDR[0].x{off}]")
        else:
            for j in range(k):
                lines.append(f"MOV TEMP[{j}], CONST[0][{j}]")
        lines.append(f"MOV TEMP[{k}], IMM[0]")
        if self.ndst == 2:
            lines.append(f"MOV TEMP[{k + 2}], IMM[0]")
        lines.append(self._core())
        lines.append(f"MOV OUT[0], TEMP[{k}]")
        if self.ndst == 2:
            lines.append(f"MOV OUT[1], TEMP[{k + 2}]")
        lines.append("END")
        return self._finish(lines)

    def cs(self, ncases: int) -> str:
        """COMP program: invocation i LOADs its sources from BUFFER[0], STOREs to BUFFER[1] (+[2])."""
        k = self.nsrc
        s = f"TEMP[{k + 1}]"
        lines = [
            "COMP",
            f"PROPERTY CS_FIXED_BLOCK_WIDTH {ncases}",
            "PROPERTY CS_FIXED_BLOCK_HEIGHT 1",
            "PROPERTY CS_FIXED_BLOCK_DEPTH 1",
            "DCL SV[0], THREAD_ID",
            "DCL BUFFER[0]",
            "DCL BUFFER[1]",
        ]
        if self.ndst == 2:
            lines.append("DCL BUFFER[2]")
        lines.append(self._temps())
        stride = 16 * ncases
        # IMM[0] and IMM[1] as in the FS frame (a body may read IMM[1].y as 0);
        # the source strides follow the test's own immediates.
        lines += [f"IMM[0] {_imm_u32(SENTINEL)}", f"IMM[1] {_imm_u32([16, 0, 0, 0])}"]
        if self.decls:
            lines.append(self.decls)
        strides = 2 + self.decls.count("IMM[")
        lines += [
            f"IMM[{strides}] {_imm_u32([0, stride, 2 * stride, 3 * stride])}",
            f"UMUL {s}.x, SV[0].xxxx, IMM[1].xxxx",  # byte offset of this case
            f"UADD {s}.yzw, {s}.xxxx, IMM[{strides}]",
        ]  # ... and of its sources 1..3
        for j in range(k):
            lines.append(f"LOAD TEMP[{j}], BUFFER[0], {s}.{'xyzw'[j] * 4}")
        lines.append(f"MOV TEMP[{k}], IMM[0]")
        if self.ndst == 2:
            lines.append(f"MOV TEMP[{k + 2}], IMM[0]")
        lines.append(self._core())
        lines.append(f"STORE BUFFER[1].xyzw, {s}.xxxx, TEMP[{k}]")
        if self.ndst == 2:
            lines.append(f"STORE BUFFER[2].xyzw, {s}.xxxx, TEMP[{k + 2}]")
        lines.append("END")
        return self._finish(lines)

    def _finish(self, lines: list[str]) -> str:
        """Append ``tail`` and resolve ``@NAME:`` markers / ``:@NAME`` targets to instruction indices."""
        if self.tail:
            lines.append(self._core_text(self.tail))
        flat = [ln.strip() for block in lines for ln in block.split("\n") if ln.strip()]
        labels, index = {}, 0
        for i, ln in enumerate(flat):
            if ln.startswith("@"):
                name, ln = ln[1:].split(":", 1)
                labels[name] = index
                flat[i] = ln = ln.strip()
            if ln.split()[0] not in _NOT_INSTRUCTIONS and not ln.startswith("IMM["):
                index += 1
        text = "\n".join(flat) + "\n"
        for name, idx in labels.items():
            text = text.replace(f":@{name}", f":{idx}")
        return text


# ---------------------------------------------------------------------------
# The GL side
# ---------------------------------------------------------------------------


def _sysvals_bytes(
    width: int,
    height: int,
    view_levels: dict[int, int] | None = None,
    sampler_lod: dict[int, Sequence[float]] | None = None,
) -> bytes:
    """Contents of ``glp_sysvals`` for a ``width x height`` target with a full viewport;
    ``view_levels`` (FS view -> level count) fills ``view_levels`` as glpipe's
    context does when it binds views (TXQ .w without textureQueryLevels)."""
    from lowering.glsl import sysval_block as sysvals

    data = np.zeros(sysvals.SIZE // 4, dtype=np.float32)
    words = data.view(U32)
    base = sysvals.field_offset("view_levels") // 4
    for view, levels in (view_levels or {}).items():
        words[base + sysvals.view_levels_word(sysvals.STAGE_NUMBER["FRAG"], view)] = levels
    # sampler_lod (LODQ without textureQueryLod): what bind_sampler_states writes
    base = sysvals.field_offset("sampler_lod") // 4
    for slot, lod in (sampler_lod or {}).items():
        k = base + 4 * sysvals.sampler_lod_index(sysvals.STAGE_NUMBER["FRAG"], slot)
        data[k : k + 4] = lod

    def put(name, values):
        off = sysvals.field_offset(name) // 4
        data[off : off + len(values)] = values

    put("fb_size", [width, height, 1.0 / width, 1.0 / height])
    put("viewport_scale", [width / 2.0, height / 2.0, 0.5, 1.0])
    put("viewport_translate", [width / 2.0, height / 2.0, 0.5, 0.0])
    return data.tobytes()


class ExecHarness:
    """One standalone EGL context; lowers TGSI and runs it (see the module docstring)."""

    def __init__(self):
        import moderngl

        self.moderngl = moderngl
        self.ctx = moderngl.create_context(standalone=True, backend="egl", require=330)
        self._gl = None

    # -- lifetime ---------------------------------------------------------
    def release(self) -> None:
        """Release the GL context (and everything made on it)."""
        self.ctx.release()

    @property
    def gl(self):
        """PyOpenGL's GL module, for what ModernGL lacks (binding atomic counter buffers)."""
        if self._gl is None:
            import os

            os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
            import OpenGL

            OpenGL.ERROR_CHECKING = False
            from OpenGL import GL

            self._gl = GL
        return self._gl

    # -- lowering -----------------------------------------------------------
    def extensions_for(self, glsl_version: int) -> frozenset:
        """Extensions handed to the emitter: none on the gl33 profile (330), the host's at 450."""
        return frozenset() if glsl_version < 400 else frozenset(self.ctx.extensions)

    def lower(self, text: str, glsl_version: int, **kwargs):
        """``lowering.to_glsl`` as glpipe calls it for this profile (raises what it raises)."""
        import lowering

        kwargs.setdefault("extensions", self.extensions_for(glsl_version))
        return lowering.to_glsl(text, glsl_version=glsl_version, **kwargs)

    def _texture_levels(self, tex) -> int:
        """Mip levels a 2D ModernGL texture holds (defined levels up to its
        GL_TEXTURE_MAX_LEVEL): what textureQueryLevels reports for it; 1 for others."""
        if not isinstance(tex, self.moderngl.Texture):
            return 1
        GL = self.gl
        GL.glBindTexture(GL.GL_TEXTURE_2D, tex.glo)
        top = int(GL.glGetTexParameteriv(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAX_LEVEL))
        levels = 0
        while levels <= top and int(GL.glGetTexLevelParameteriv(GL.GL_TEXTURE_2D, levels, GL.GL_TEXTURE_WIDTH)):
            levels += 1
        return levels

    def _texture_lod_state(self, tex) -> tuple[float, float, float, float]:
        """(lod_bias, min_lod, max_lod, mip filter code) of a ModernGL texture's own
        sampling state (GL defaults: no bias, lods -1000..1000), as glpipe's
        sysvals.sampler_lod holds them for a bound sampler state."""
        mgl = self.moderngl
        mip = {
            mgl.NEAREST_MIPMAP_NEAREST: 1,
            mgl.LINEAR_MIPMAP_NEAREST: 1,
            mgl.NEAREST_MIPMAP_LINEAR: 2,
            mgl.LINEAR_MIPMAP_LINEAR: 2,
        }
        code = mip.get(tex.filter[0], 0) if hasattr(tex, "filter") else 0
        return (0.0, -1000.0, 1000.0, float(code))

    # -- binding helpers ---------------------------------------------------
    def _bind_resources(
        self, prog, refl, consts: dict[int, np.ndarray], ssbos: dict[int, object], fb_size=(1, 1)
    ) -> list[object]:
        """Upload and bind what the reflection asks for; returns GL objects to release.

        CONST[b] -> a UBO at ``refl.const_buffer(b).binding``; BUFFER[n] -> its
        SSBO binding; the ``glp_sysvals`` block (if used) gets a neutral
        content for a ``fb_size`` target.  Below GLSL 420 the block bindings
        and sampler units are set by name from the reflection's maps, as the
        context does after linking.
        """
        keep = []
        for index, data in consts.items():
            info = refl.const_buffer(index)
            if info is None:
                continue  # the shader does not read that buffer
            data = np.ascontiguousarray(data, dtype=U32)
            buf = self.ctx.buffer(data.tobytes() if data.size else bytes(16))
            buf.bind_to_uniform_block(info.binding)
            keep.append(buf)
        if refl.sysvals_binding is not None:
            buf = self.ctx.buffer(
                _sysvals_bytes(*fb_size, getattr(self, "_view_levels", None), getattr(self, "_sampler_lod", None))
            )
            buf.bind_to_uniform_block(refl.sysvals_binding)
            keep.append(buf)
        for index, buf in ssbos.items():
            info = refl.shader_buffer(index)
            if info is not None:
                buf.bind_to_storage_buffer(info.binding)
        members = set(prog)
        for name, binding in refl.uniform_block_bindings:
            if name in members:
                prog[name].binding = binding
        for name, binding in refl.storage_block_bindings:
            if name in members and hasattr(prog[name], "binding"):
                prog[name].binding = binding
        for name, unit in refl.sampler_units:
            if name in members:
                prog[name].value = unit
        for name, unit in tuple(refl.sampler_units) + tuple(refl.image_units):
            if name not in members or (name, unit) in refl.image_units:
                # ModernGL lists no array elements ("name[k]") as members, and assigning
                # an image uniform's value through it does not reach GL: set them by
                # location, as glpipe does (shaders.apply_bindings).
                loc = self.gl.glGetUniformLocation(prog.glo, name)
                if loc >= 0:
                    self.gl.glProgramUniform1i(prog.glo, loc, unit)
        return keep

    # -- FS path -------------------------------------------------------------
    def run_fs(
        self,
        text: str,
        glsl_version: int,
        width: int,
        *,
        consts: dict[int, np.ndarray] = None,
        outputs: int = 1,
        height: int = 1,
        textures: dict[int, object] = None,
        clear: Sequence[float] = (0.0, 0.0, 0.0, 0.0),
        viewports: Sequence[tuple[int, dict[int, np.ndarray]]] = None,
    ) -> np.ndarray:
        """Lower ``text`` (FRAG), draw into ``outputs`` RGBA32F targets of ``width x height``.

        Returns raw words, shape ``(outputs, height, width, 4)`` uint32 (row 0 = bottom).
        ``textures`` maps the TGSI unit (SAMP/SVIEW index) to a ModernGL texture.
        ``viewports`` (per-draw mode): a list of ``(x, consts)``: one draw into
        the 1-pixel viewport at column x with those constant buffers.
        """
        shader = self.lower(text, glsl_version)
        refl = shader.reflection
        with self.ctx:
            prog = self.ctx.program(
                vertex_shader=FULL_SCREEN_VS.format(version=glsl_version), fragment_shader=shader.source
            )
            targets = [self.ctx.texture((width, height), 4, dtype="f4") for _ in range(outputs)]
            fbo = self.ctx.framebuffer(color_attachments=targets)
            fbo.use()
            fbo.clear(*clear)
            vao = self.ctx.vertex_array(prog, [])
            self._view_levels, self._sampler_lod = {}, {}
            for view, tex in (textures or {}).items():
                unit = refl.texture_unit(view)
                if unit is None:
                    raise AssertionError(f"reflection has no texture unit for SVIEW/SAMP[{view}]")
                tex.use(unit)
                self._view_levels[view] = self._texture_levels(tex)
                self._sampler_lod[view] = self._texture_lod_state(tex)
            keep = []
            try:
                if viewports is None:
                    keep += self._bind_resources(prog, refl, consts or {}, {}, (width, height))
                    fbo.viewport = (0, 0, width, height)
                    vao.render(self.moderngl.TRIANGLES, vertices=3)
                else:
                    for x, case_consts in viewports:
                        keep += self._bind_resources(prog, refl, case_consts, {}, (width, height))
                        fbo.viewport = (x, 0, 1, height)
                        vao.render(self.moderngl.TRIANGLES, vertices=3)
                out = np.stack(
                    [
                        np.frombuffer(fbo.read(components=4, dtype="f4", attachment=a), dtype=U32).reshape(
                            height, width, 4
                        )
                        for a in range(outputs)
                    ]
                )
            finally:
                for obj in keep + [vao, fbo, prog] + targets:
                    obj.release()
        return out

    # -- CS path -----------------------------------------------------------
    def run_cs(
        self,
        text: str,
        buffers: dict[int, np.ndarray],
        grid=(1, 1, 1),
        *,
        glsl_version: int = 450,
        consts: dict[int, np.ndarray] = None,
        atomic_counters: dict[int, np.ndarray] = None,
        images: dict[int, object] = None,
    ) -> dict[int, np.ndarray]:
        """Lower ``text`` (COMP), bind ``buffers`` as BUFFER[n] (uint32 arrays), dispatch ``grid``.

        Returns the buffers' contents after the dispatch (and the atomic
        counter buffers under key ``("HWATOMIC", n)``).  ``images`` maps
        IMAGE[n] to a ModernGL texture, bound read/write at the reflection's
        image unit.
        """
        shader = self.lower(text, glsl_version)
        refl = shader.reflection
        with self.ctx:
            cs = self.ctx.compute_shader(shader.source)
            bufs = {i: self.ctx.buffer(np.ascontiguousarray(d, dtype=U32).tobytes()) for i, d in buffers.items()}
            keep = self._bind_resources(cs, refl, consts or {}, bufs)
            atomic = {}
            for i, d in (atomic_counters or {}).items():
                buf = self.ctx.buffer(np.ascontiguousarray(d, dtype=U32).tobytes())
                info = refl.atomic_buffer(i)
                if info is None:
                    raise AssertionError(f"reflection has no atomic counter buffer {i}")
                self.gl.glBindBufferBase(self.gl.GL_ATOMIC_COUNTER_BUFFER, info.binding, buf.glo)
                atomic[i] = buf
            for i, tex in (images or {}).items():
                info = refl.image(i)
                if info is None:
                    raise AssertionError(f"reflection has no image unit for IMAGE[{i}]")
                tex.bind_to_image(info.unit, read=True, write=True)
            try:
                cs.run(*grid)
                self.ctx.memory_barrier()
                result = {i: np.frombuffer(b.read(), dtype=U32).copy() for i, b in bufs.items()}
                for i, b in atomic.items():
                    result[("HWATOMIC", i)] = np.frombuffer(b.read(), dtype=U32).copy()
            finally:
                for obj in keep + list(bufs.values()) + list(atomic.values()) + [cs]:
                    obj.release()
        return result

    # -- one opcode over a batch of cases --------------------------------
    def run_op(
        self,
        prog: OpProgram,
        srcs: Sequence[np.ndarray],
        glsl_version: int,
        path: str = "fs",
        index_mode: str = "addr",
        clear=(0.0, 0.0, 0.0, 0.0),
        textures: dict[int, object] = None,
    ) -> np.ndarray:
        """Run ``prog`` on the cases ``srcs`` (each ``(N, 4)`` words); returns ``(N, 4)`` words.

        For a two-destination opcode returns ``(2, N, 4)``.
        """
        srcs = [np.ascontiguousarray(s, dtype=U32).reshape(-1, 4) for s in srcs]
        n = srcs[0].shape[0] if srcs else 1
        if path == "fs":
            text = prog.fs(n, index_mode)
            if index_mode == "addr":
                consts = {0: np.concatenate(srcs) if srcs else np.zeros((1, 4), U32)}
                out = self.run_fs(
                    text, glsl_version, n, consts=consts, outputs=prog.ndst, clear=clear, textures=textures
                )
            else:
                per_case = [
                    (i, {0: np.stack([s[i] for s in srcs]) if srcs else np.zeros((1, 4), U32)}) for i in range(n)
                ]
                out = self.run_fs(
                    text, glsl_version, n, outputs=prog.ndst, viewports=per_case, clear=clear, textures=textures
                )
            out = out[:, 0]
        elif path == "cs":
            text = prog.cs(n)
            bufs = {0: np.concatenate(srcs) if srcs else np.zeros((1, 4), U32), 1: np.zeros((n, 4), U32)}
            if prog.ndst == 2:
                bufs[2] = np.zeros((n, 4), U32)
            res = self.run_cs(text, bufs, glsl_version=glsl_version)
            out = np.stack([res[1 + d].reshape(n, 4) for d in range(prog.ndst)])
        else:
            raise ValueError(f"path must be 'fs' or 'cs', not {path!r}")
        result = out if prog.ndst == 2 else out[0]
        if exec_oracle.ORACLE and textures is None:
            _executor_agrees(prog, srcs)
        return result


def _executor_agrees(prog: OpProgram, srcs) -> None:
    """For a case run without run_check (``run_op`` called directly) whose
    program is the bare opcode on its sources: the executor's result of the
    compute form against ``tgsi_reference`` under ``precision(op)``
    (tests/lowering/exec_oracle.py); the caller checks the host's."""
    bare = prog.body is None and prog.operands is None and not prog.suffix and prog.ndst == 1
    if not bare or prog.op not in R.REFERENCE:
        return
    ex = exec_oracle.run_executor(prog, srcs)
    if ex is not None:
        with np.errstate(all="ignore"):  # the reference of specials (inf * 0, ...) computes NaNs on purpose
            check(prog.op, ex, srcs, mask=prog.dst_mask, label=" (executor, run_op)")


# ---------------------------------------------------------------------------
# Comparison: how a host result may differ from the exact reference
# ---------------------------------------------------------------------------
#
# Citations: "GLSL 4.50 4.7.1" is the precision table of the GLSL 4.50 spec,
# section 4.7.1 "Range and Precision".  Its bounds are relative to the
# infinitely precise result; we measure from the correctly rounded reference,
# hence the extra half ulp (rounded up) in every ulp bound below.

F32_ULP = 2.0**-23  # ulp of 1.0f
F32_EPS = 2.0**-24  # unit roundoff of float32


def _ord32(w: np.ndarray) -> np.ndarray:
    """float32 words -> integers in value order, +0 and -0 both 0 (ulp distance = difference)."""
    i = np.asarray(w, dtype=U32).astype(np.int64)
    return np.where(i >= 0x80000000, -(i - 0x80000000), i)


def _ord64(w: np.ndarray) -> np.ndarray:
    i = np.asarray(w, dtype=np.uint64)
    mag = (i & np.uint64(0x7FFFFFFFFFFFFFFF)).astype(object)
    neg = (i >> np.uint64(63)).astype(bool)
    return np.where(neg, -mag, mag)


def _ftz32(w: np.ndarray) -> np.ndarray:
    """Flush float32 denormals to (signed) zero -- what GLSL 4.50 4.7.1 allows a host to do."""
    w = np.asarray(w, dtype=U32)
    denorm = ((w & 0x7F800000) == 0) & ((w & 0x007FFFFF) != 0)
    return np.where(denorm, w & 0x80000000, w).astype(U32)


def _fx(srcs, j=0):
    return R.as_f32(srcs[j]).astype(np.float64)


@dataclass(frozen=True)
class Precision:
    """How results of one opcode are compared (see the module docstring).

    ``domain``: ``bits`` (exact words), ``f32`` (float32 values: +-0 equal,
    any NaN matches NaN), ``f64`` (two doubles per register).  ``ulps`` and
    ``abs`` may be numbers or ``fn(srcs, expected_values) -> array``
    (per channel for f32, per lane for f64); a value passes if it is within
    either.  ``alternatives``: other exactly acceptable results
    (``fn(srcs) -> words``).  ``ftz``: float32 denormal inputs and outputs may
    be flushed to zero (GLSL 4.50 4.7.1); ``ftz_srcs`` says which sources are
    float.  ``why`` cites the rule.
    """

    domain: str = "bits"
    ulps: object = 0
    abs: object = 0.0
    alternatives: tuple[Callable, ...] = ()
    ftz: bool = True
    ftz_srcs: tuple[int, ...] | None = None
    why: str = ""


def _cr(why="correctly rounded") -> Precision:
    return Precision("f32", why=why)


def _ulps(n, why) -> Precision:
    return Precision("f32", ulps=n, why=why)


def _ex2_ulps(srcs, exp):
    x = np.abs(_fx(srcs)[:, :1])
    return np.ceil(3 + 2 * x + 0.5) * np.ones((1, 4))


def _lg2_abs_and_ulps(x):
    inside = (x >= 0.5) & (x <= 2.0)
    return np.where(inside, 2.0**-21, 0.0), np.where(inside, 0, 4)


def _pow_abs(srcs, exp):
    """Inherited from exp2(y * log2(x)) (GLSL 4.50 4.7.1): propagate each bound."""
    x, y = _fx(srcs, 0)[:, :1], _fx(srcs, 1)[:, :1]
    with np.errstate(all="ignore"):
        lg = np.log2(np.abs(x))
        ulp_lg = F32_ULP * np.exp2(np.floor(np.log2(np.abs(lg) + 1e-300)))
        e_lg = np.where((x >= 0.5) & (x <= 2.0), 2.0**-21, 3 * ulp_lg)  # log2's own bound
        t = y * lg
        e_t = np.abs(y) * e_lg + np.abs(t) * F32_EPS
        rel = math.log(2) * e_t + (3 + 2 * np.abs(t)) * F32_ULP
        return np.abs(np.asarray(exp)) * rel


def _dot_abs(n, extra_src=None):
    def fn(srcs, exp):
        a, b = _fx(srcs, 0)[:, :n], _fx(srcs, 1)[:, :n]
        mag = np.sum(np.abs(a * b), axis=1, keepdims=True)
        if extra_src is not None:
            j, c = extra_src
            mag = mag + np.abs(_fx(srcs, j)[:, c : c + 1])
        return (n + 2) * F32_EPS * mag * np.ones((1, 4))

    return fn


def _dph_abs(srcs, exp):
    a, b = _fx(srcs, 0), _fx(srcs, 1)
    mag = np.sum(np.abs(a[:, :3] * b[:, :3]), axis=1, keepdims=True) + np.abs(b[:, 3:4])
    return 5 * F32_EPS * mag * np.ones((1, 4))


def _xpd_abs(srcs, exp):
    a, b = _fx(srcs, 0), _fx(srcs, 1)
    out = np.zeros((a.shape[0], 4))
    for c, (i, j) in enumerate(((1, 2), (2, 0), (0, 1))):
        out[:, c] = 3 * F32_EPS * (np.abs(a[:, i] * b[:, j]) + np.abs(a[:, j] * b[:, i]))
    return out


def _lrp_abs(srcs, exp):
    a, b, c = _fx(srcs, 0), _fx(srcs, 1), _fx(srcs, 2)
    return 4 * F32_EPS * (np.abs(a * b) + np.abs((1 - a) * c) + np.abs(c))


def _lit_tol(srcs, exp):
    abs_tol = np.zeros((srcs[0].shape[0], 4))
    s = _fx(srcs)
    pow_srcs = [
        R.f32_words(np.maximum(s[:, 1:2], 0) * np.ones((1, 4))),
        R.f32_words(np.clip(s[:, 3:4], -128, 128) * np.ones((1, 4))),
    ]
    abs_tol[:, 2] = _pow_abs(pow_srcs, exp[:, 2:3])[:, 0]
    return abs_tol


def _exp_ulps(srcs, exp):
    u = np.zeros((srcs[0].shape[0], 4))
    u[:, 2] = np.ceil(3 + 2 * np.abs(_fx(srcs)[:, 0]) + 0.5)
    return u


def _log_tol(srcs, exp):
    x = np.abs(_fx(srcs)[:, 0])
    a, u = _lg2_abs_and_ulps(x)
    abs_tol, ulps = np.zeros((len(x), 4)), np.zeros((len(x), 4))
    abs_tol[:, 2], ulps[:, 2] = a, u
    with np.errstate(all="ignore"):
        ulps[:, 1] = np.ceil(3 + 2 * np.abs(np.floor(np.log2(x))) + 3)
    return abs_tol, ulps


def _lg2_tol(srcs, exp):
    a, u = _lg2_abs_and_ulps(_fx(srcs)[:, :1])
    return a * np.ones((1, 4)), u * np.ones((1, 4))


def _ref_alt(op):
    return lambda srcs: R.reference(op, *srcs)


def _round_half_away(srcs):
    x = R.as_f32(srcs[0]).astype(np.float64)
    return R.f32_words(np.sign(x) * np.floor(np.abs(x) + 0.5))


def _dround_half_away(srcs):
    x = R.as_f64(srcs[0])
    return R.f64_words(np.sign(x) * np.floor(np.abs(x) + 0.5))


def _dmad_fused(srcs):
    return R.reference("DFMA", *srcs)


_SIN_COS = "abs 2^-11 for |x| <= pi (Vulkan SPIR-V precision table; GLSL 4.50 leaves sin/cos open)"
_DOT = "inherited from the a*b+c sequence (GLSL 4.50 4.7.1): (n+1) roundings of the terms"
_F64_DIV = (
    "2 double ulps: TGSI defines a double operation; GLSL 4.50 4.7.1 only promises "
    "single precision, but any lowering through float would miss by ~2^29 ulps"
)

PRECISION: dict[str, Precision] = {
    "MOV": Precision("bits", why="untyped bit copy (tgsi.rst)"),
    "ADD": _cr("a+b correctly rounded (GLSL 4.50 4.7.1)"),
    "SUB": _cr("a-b correctly rounded"),
    "MUL": _cr("a*b correctly rounded"),
    "ABS": _cr("exact"),
    "MIN": _cr("exact"),
    "MAX": _cr("exact"),
    "CLAMP": _cr("exact"),
    "FLR": _cr("exact"),
    "CEIL": _cr("exact"),
    "TRUNC": _cr("exact"),
    "FRC": _cr("x - floor(x): one correctly rounded subtraction"),
    "SSG": _cr("exact"),
    "SLT": _cr("exact"),
    "SGE": _cr("exact"),
    "SEQ": _cr("exact"),
    "SNE": _cr("exact"),
    "SGT": _cr("exact"),
    "SLE": _cr("exact"),
    "SFL": _cr("exact"),
    "STR": _cr("exact"),
    "DST": _cr("one multiply, correctly rounded"),
    "LDEXP": Precision("f32", ftz_srcs=(0,), why="ldexp is exact (GLSL 4.50 8.3)"),
    "ROUND": Precision(
        "f32",
        alternatives=(_round_half_away,),
        why="halfway cases round in an implementation-chosen direction (GLSL round)",
    ),
    "MAD": Precision(
        "f32",
        alternatives=(_ref_alt("FMA"),),
        why="'free to decide whether there is an intermediate rounding' (tgsi.rst)",
    ),
    "FMA": _cr("no intermediate rounding (tgsi.rst FMA)"),
    "RCP": _ulps(3, "1/x: 2.5 ULP (GLSL 4.50 4.7.1)"),
    "DIV": _ulps(3, "x/y: 2.5 ULP (GLSL 4.50 4.7.1)"),
    "RCC": _ulps(3, "1/x: 2.5 ULP (GLSL 4.50 4.7.1)"),
    "RSQ": _ulps(3, "inversesqrt: 2 ULP (GLSL 4.50 4.7.1)"),
    "SQRT": _ulps(5, "sqrt inherited from 1.0/inversesqrt(): 2 + 2.5 ULP (GLSL 4.50 4.7.1)"),
    "EX2": Precision("f32", ulps=_ex2_ulps, why="exp2: (3 + 2|x|) ULP (GLSL 4.50 4.7.1)"),
    "LG2": Precision(
        "f32",
        ulps=lambda s, e: _lg2_tol(s, e)[1],
        abs=lambda s, e: _lg2_tol(s, e)[0],
        why="log2: 3 ULP outside [0.5, 2], abs 2^-21 inside (GLSL 4.50 4.7.1)",
    ),
    "POW": Precision(
        "f32",
        ulps=1,
        abs=lambda s, e: _pow_abs(s, e) * np.ones((1, 4)),
        why="pow inherited from exp2(y*log2(x)) (GLSL 4.50 4.7.1)",
    ),
    "SIN": Precision("f32", abs=2.0**-11, why=_SIN_COS),
    "COS": Precision("f32", abs=2.0**-11, why=_SIN_COS),
    "SCS": Precision("f32", abs=2.0**-11, why=_SIN_COS),
    "DP2": Precision("f32", ulps=1, abs=_dot_abs(2), why=_DOT),
    "DP3": Precision("f32", ulps=1, abs=_dot_abs(3), why=_DOT),
    "DP4": Precision("f32", ulps=1, abs=_dot_abs(4), why=_DOT),
    "DP2A": Precision("f32", ulps=1, abs=_dot_abs(2, (2, 0)), why=_DOT),
    "DPH": Precision("f32", ulps=1, abs=_dph_abs, why=_DOT),
    "XPD": Precision("f32", ulps=1, abs=_xpd_abs, why=_DOT),
    "LRP": Precision("f32", ulps=1, abs=_lrp_abs, why="mix() inherited from x*(1-a)+y*a"),
    "NRM": Precision("f32", abs=2.0**-19, why="normalize inherited from inversesqrt, dot, *"),
    "NRM4": Precision("f32", abs=2.0**-19, why="normalize inherited from inversesqrt, dot, *"),
    "LIT": Precision("f32", ulps=1, abs=_lit_tol, why="LIT.z is a pow (GLSL 4.50 4.7.1)"),
    "EXP": Precision("f32", ulps=_exp_ulps, why="EXP.z is exp2: (3 + 2|x|) ULP"),
    "LOG": Precision(
        "f32",
        ulps=lambda s, e: _log_tol(s, e)[1],
        abs=lambda s, e: _log_tol(s, e)[0],
        why="LOG.z is log2; LOG.y = |x|/2^e: exp2 + division bounds",
    ),
    "CMP": Precision("bits", why="selects src1/src2 unchanged"),
    "CND": Precision("bits", why="selects src0/src1 unchanged"),
    "UCMP": Precision("bits", why="untyped move (tgsi.rst)"),
    "I2F": _cr("conversions are correctly rounded (GLSL 4.50 4.7.1)"),
    "U2F": _cr("conversions are correctly rounded (GLSL 4.50 4.7.1)"),
    "PK2H": Precision("bits", why="exactly representable halves"),
    "UP2H": _cr("every half is exactly a float"),
    "PK2US": Precision("bits"),
    "PK4B": Precision("bits"),
    "PK4UB": Precision("bits"),
    "UP2US": _ulps(3, "f / 65535.0: division 2.5 ULP"),
    "UP4B": _ulps(3, "f / 127.0: division 2.5 ULP"),
    "UP4UB": _ulps(3, "f / 255.0: division 2.5 ULP"),
    # doubles
    "DADD": Precision("f64", why="IEEE double add"),
    "DMUL": Precision("f64", why="IEEE double multiply"),
    "DABS": Precision("f64"),
    "DNEG": Precision("f64"),
    "DMIN": Precision("f64"),
    "DMAX": Precision("f64"),
    "DFLR": Precision("f64"),
    "DCEIL": Precision("f64"),
    "DTRUNC": Precision("f64"),
    "DFRAC": Precision("f64"),
    "DSSG": Precision("f64"),
    "DLDEXP": Precision("f64"),
    "DFMA": Precision("f64", why="no intermediate rounding (tgsi.rst DFMA)"),
    "DMAD": Precision("f64", alternatives=(_dmad_fused,), why="fused or not (like MAD)"),
    "DROUND": Precision("f64", alternatives=(_dround_half_away,), why="halfway direction is free"),
    "DDIV": Precision("f64", ulps=2, why=_F64_DIV),
    "DRCP": Precision("f64", ulps=2, why=_F64_DIV),
    "DSQRT": Precision("f64", ulps=2, why=_F64_DIV),
    "DRSQ": Precision("f64", ulps=2, why=_F64_DIV),
    "F2D": Precision("f64", why="exact"),
    "I2D": Precision("f64", why="exact"),
    "U2D": Precision("f64", why="exact"),
    "U642D": Precision("f64", why="correctly rounded"),
    "I642D": Precision("f64", why="correctly rounded"),
    "D2F": _cr("conversions are correctly rounded (GLSL 4.50 4.7.1)"),
    "U642F": _cr("conversions are correctly rounded"),
    "I642F": _cr("conversions are correctly rounded"),
}


def precision(op: str) -> Precision:
    """The comparison rule of ``op`` (integer-valued opcodes default to bit-exact)."""
    return PRECISION.get(op, Precision("bits", why="integer result: exact"))


def _call(v, srcs, exp):
    return v(srcs, exp) if callable(v) else v


def _fmt_word(w: int) -> str:
    f = np.array([w], dtype=U32).view(np.float32)[0]
    return f"0x{int(w):08x}({f:.9g})"


def check(
    op: str,
    got: np.ndarray,
    srcs: Sequence[np.ndarray],
    *,
    mask: str = "xyzw",
    expected: np.ndarray | None = None,
    rule: Precision | None = None,
    undefined: np.ndarray | None = None,
    label: str = "",
) -> None:
    """Assert ``got`` (``(N, 4)`` words) matches ``reference(op, *srcs)`` under ``precision(op)``.

    Channels outside ``mask`` must still hold ``SENTINEL`` (the writemask is
    honoured).  Lanes tgsi.rst leaves undefined are not compared.  The
    message lists every failing case with its inputs.
    """
    srcs = [np.ascontiguousarray(s, dtype=U32).reshape(-1, 4) for s in srcs]
    got = np.ascontiguousarray(got, dtype=U32).reshape(-1, 4)
    n = got.shape[0]
    rule = rule or precision(op)
    exp = R.reference(op, *srcs) if expected is None else np.asarray(expected, U32).reshape(-1, 4)
    und = R.undefined(op, *srcs) if undefined is None else np.asarray(undefined, bool)
    inmask = np.array([c in mask for c in "xyzw"])
    bad = np.zeros((n, 4), dtype=bool)
    sentinel = np.broadcast_to(SENTINEL, (n, 4))
    bad |= ~inmask & (got != sentinel)
    live = inmask & ~und
    if rule.domain == "bits":
        ok = got == exp
        for alt in rule.alternatives:
            ok |= got == alt(srcs)
    elif rule.domain == "f32":
        ok = _ok_f32(op, rule, got, exp, srcs)
    elif rule.domain == "f64":
        ok = _ok_f64(rule, got, exp, srcs)
    else:
        raise ValueError(rule.domain)
    bad |= live & ~ok
    if bad.any():
        lines = [f"{op}{label}: {int(bad.any(axis=1).sum())} of {n} cases differ (rule: {rule.domain} {rule.why})"]
        for i in np.nonzero(bad.any(axis=1))[0][:12]:
            chans = "".join("xyzw"[c] for c in range(4) if bad[i, c])
            lines.append(
                f"  case {i} [{chans}]: srcs=" + " | ".join(" ".join(_fmt_word(w) for w in s[i]) for s in srcs)
            )
            lines.append("      expected " + " ".join(_fmt_word(w) for w in np.where(inmask, exp[i], sentinel[i])))
            lines.append("      got      " + " ".join(_fmt_word(w) for w in got[i]))
        raise AssertionError("\n".join(lines))


def _ok_f32(op, rule: Precision, got, exp, srcs) -> np.ndarray:
    candidates = [exp] + [alt(srcs) for alt in rule.alternatives]
    if rule.ftz:
        fsrcs = [(_ftz32(s) if rule.ftz_srcs is None or j in rule.ftz_srcs else s) for j, s in enumerate(srcs)]
        if any((a != b).any() for a, b in zip(fsrcs, srcs, strict=True)):
            candidates.append(R.reference(op, *fsrcs) if op in R.REFERENCE else exp)
        candidates += [_ftz32(c) for c in list(candidates)]
    ok = np.zeros(got.shape, dtype=bool)
    gf = R.as_f32(got).astype(np.float64)
    for cand in candidates:
        ef = R.as_f32(cand).astype(np.float64)
        both_nan = np.isnan(gf) & np.isnan(ef)
        with np.errstate(all="ignore"):
            same = (gf == ef) | both_nan
            finite = np.isfinite(ef) & np.isfinite(gf)
            ulp_ok = finite & (np.abs(_ord32(got) - _ord32(cand)) <= _call(rule.ulps, srcs, ef))
            abs_ok = finite & (np.abs(gf - ef) <= _call(rule.abs, srcs, ef))
        ok |= same | ulp_ok | abs_ok
    return ok


def _ok_f64(rule: Precision, got, exp, srcs) -> np.ndarray:
    candidates = [exp] + [alt(srcs) for alt in rule.alternatives]
    g64 = np.ascontiguousarray(got).view(np.uint64).reshape(-1, 2)
    gf = R.as_f64(got)
    ok_lane = np.zeros(gf.shape, dtype=bool)
    for cand in candidates:
        e64 = np.ascontiguousarray(cand).view(np.uint64).reshape(-1, 2)
        ef = R.as_f64(cand)
        with np.errstate(all="ignore"):
            same = (gf == ef) | (np.isnan(gf) & np.isnan(ef))
            finite = np.isfinite(ef) & np.isfinite(gf)
            dist = np.abs(_ord64(g64) - _ord64(e64)).astype(np.float64)
            ulp_ok = finite & (dist <= _call(rule.ulps, srcs, ef))
            abs_ok = finite & (np.abs(gf - ef) <= _call(rule.abs, srcs, ef))
        ok_lane |= same | ulp_ok | abs_ok
    return np.repeat(ok_lane, 2, axis=1)


# ---------------------------------------------------------------------------
# Test helpers shared by the test_exec_*.py modules
# ---------------------------------------------------------------------------

# Opcodes GLSL 330 core (no extensions: the gl33 profile) cannot express at
# all: 64-bit floats need GLSL 400 / ARB_gpu_shader_fp64.  The 64-bit integer
# opcodes run without ARB_gpu_shader_int64 as GLSL 3.30 helpers
# (lowering/glsl/soft_int64.py), except the four with a double side.
# (Buffers, atomics and compute need GLSL 430: the memory tests check those
# are refused at 330.)
DOUBLE_OPS = (
    "DABS",
    "DNEG",
    "DADD",
    "DMUL",
    "DMAX",
    "DMIN",
    "DDIV",
    "DMAD",
    "DFMA",
    "DSEQ",
    "DSNE",
    "DSLT",
    "DSGE",
    "DRCP",
    "DSQRT",
    "DRSQ",
    "DFRAC",
    "DTRUNC",
    "DCEIL",
    "DFLR",
    "DROUND",
    "DSSG",
    "DLDEXP",
    "DFRACEXP",
    "F2D",
    "D2F",
    "I2D",
    "U2D",
    "D2I",
    "D2U",
)
INT64_OPS = (
    "I64ABS",
    "I64NEG",
    "I64SSG",
    "U64ADD",
    "U64MUL",
    "U64DIV",
    "I64DIV",
    "U64MOD",
    "I64MOD",
    "U64SEQ",
    "U64SNE",
    "U64SLT",
    "U64SGE",
    "I64SLT",
    "I64SGE",
    "I64MIN",
    "U64MIN",
    "I64MAX",
    "U64MAX",
    "U64SHL",
    "I64SHR",
    "U64SHR",
    "F2U64",
    "F2I64",
    "D2U64",
    "D2I64",
    "U2I64",
    "I2I64",
    "U642F",
    "I642F",
    "U642D",
    "I642D",
)


def _without_soft_form():
    from lowering.glsl.wide import WIDE_OPS

    return tuple(op for op in DOUBLE_OPS if op in WIDE_OPS and WIDE_OPS[op].soft is None)


# Double opcodes the gl33 profile still refuses: those without a GLSL 3.30 form in
# lowering/glsl/wide.py's WIDE_OPS.  The rest run at 330 through the soft doubles on
# uvec2 words (lowering/glsl/soft_fp64.py), the conversions between doubles and 64-bit
# integers included; the int64 opcodes through lowering/glsl/soft_int64.py.
DOUBLE_REFUSED_AT_330 = _without_soft_form()
# The int64 opcodes with a double side: soft fp64 gives their GLSL 3.30 form.
INT64_DOUBLE_OPS = ("D2U64", "D2I64", "U642D", "I642D")
SOFT_DOUBLE_OPS = frozenset(DOUBLE_OPS + ("I642D", "U642D", "D2I64", "D2U64")) - frozenset(DOUBLE_REFUSED_AT_330)
UNSUPPORTED_AT_330 = frozenset(DOUBLE_REFUSED_AT_330)

# Opcodes whose GLSL built-in arrived after 330 but which a lowering can
# emulate with 330 code (shifts, masks, loops, exp2): at 330 the emitter may
# either lower them (then the result must be right) or raise UnsupportedError
# naming the opcode -- both are what issue 3 item 4 asks for.
EMULABLE_AT_330 = frozenset(
    [
        # (the GLSL 4.00 bit ops and IMUL_HI / UMUL_HI have GLSL 3.30 helpers: never refused)
        "FMA",  # fma (400); LDEXP has a 3.30 helper
        "PK2H",
        "UP2H",
        "PK2US",
        "PK4B",
        "PK4UB",
        "UP2US",
        "UP4B",
        "UP4UB",  # packing (400/420)
    ]
)

# Filled by run_check: (op, glsl_version) pairs the emitter refused with UnsupportedError.
REFUSED: list[tuple[str, int]] = []


def pack(values, dtype="f32") -> np.ndarray:
    """A flat list of scalars -> ``(N, 4)`` words, four cases per register (last value repeated)."""
    vals = list(values)
    while len(vals) % 4:
        vals.append(vals[-1])
    if dtype == "f32":
        return R.f32_words(np.array(vals, dtype=np.float64).reshape(-1, 4))
    return R.words(np.array(vals, dtype=object).reshape(-1, 4))


def columns(*cols, dtype="f32") -> list[np.ndarray]:
    """Parallel scalar lists (one per source) -> one ``(N, 4)`` array per source."""
    n = max(len(c) for c in cols)
    return [pack(list(c) + [c[-1]] * (n - len(c)), dtype) for c in cols]


def random_f32(op: str, n: int, lo: float = -100.0, hi: float = 100.0) -> np.ndarray:
    """``n`` reproducible random float32 values for ``op`` (seeded by its name)."""
    import zlib

    rng = np.random.default_rng(zlib.crc32(op.encode()))
    return rng.uniform(lo, hi, n).astype(np.float32)


def random_u32(op: str, n: int) -> np.ndarray:
    """``n`` reproducible random 32-bit words for ``op``."""
    import zlib

    rng = np.random.default_rng(zlib.crc32(op.encode()) ^ 0x5A5A)
    return rng.integers(0, 2**32, n, dtype=np.uint64).astype(object)


def run_check(
    gl: ExecHarness,
    op: str,
    srcs: Sequence[np.ndarray],
    version: int,
    *,
    path: str = "fs",
    mask: str = "xyzw",
    operands=None,
    suffix: str = "",
    expected=None,
    rule=None,
    undefined=None,
    nsrc: int | None = None,
    label: str = "",
    body: str | None = None,
    decls: str = "",
    tail: str = "",
    clear=(0.0, 0.0, 0.0, 0.0),
    textures=None,
    index_mode: str = "addr",
) -> np.ndarray | None:
    """Lower and run ``op`` over the cases ``srcs`` at ``version`` and ``check`` the result.

    Handles GLSL 330: opcodes in ``UNSUPPORTED_AT_330`` must raise
    ``UnsupportedError`` naming the opcode; those in ``EMULABLE_AT_330`` may.
    Returns the raw result (None when the opcode was refused).
    """
    from lowering.errors import UnsupportedError

    prog = OpProgram(op, len(srcs) if nsrc is None else nsrc, mask, operands, suffix, body=body, decls=decls, tail=tail)

    def run():
        return gl.run_op(prog, srcs, version, path, index_mode=index_mode, clear=clear, textures=textures)

    # The executor as the third party (tests/lowering/exec_oracle.py): the
    # compute form of the case, held to the same reference under the same rule.
    if exec_oracle.ORACLE:
        ex = exec_oracle.run_executor(prog, srcs, textures)
        if ex is not None:
            check(
                op, ex, srcs, mask=mask, expected=expected, rule=rule, undefined=undefined, label=f"{label} (executor)"
            )
    missing_ext = False  # every int64 opcode has a GLSL 3.30 form (soft_int64 / soft_fp64)
    if (version < 450 and op in UNSUPPORTED_AT_330) or missing_ext:
        try:
            run()
        except UnsupportedError as err:
            assert op in str(err), f"UnsupportedError for {op} does not name it: {err}"
            return None
        raise AssertionError(
            f"{op} at GLSL {version} should raise UnsupportedError "
            f"(no fp64 / int64 in GLSL {version} with these extensions)"
        )
    try:
        got = run()
    except UnsupportedError as err:
        if version < 450 and op in EMULABLE_AT_330:
            assert op in str(err), f"UnsupportedError for {op} does not name it: {err}"
            REFUSED.append((op, version))
            return None
        raise
    check(
        op,
        got,
        srcs,
        mask=mask,
        expected=expected,
        rule=rule,
        undefined=undefined,
        label=f"{label} (GLSL {version}, {path})",
    )
    return got


def module_harness():
    """A module-scoped pytest fixture yielding one ExecHarness (one GL context per module)."""
    import pytest

    @pytest.fixture(scope="module")
    def gl():
        h = ExecHarness()
        yield h
        h.release()

    return gl


# (path, GLSL version) combinations: the FS path at both versions, the CS path at 450.
PATHS = [("fs", 330), ("fs", 450), ("cs", 450)]
PATH_IDS = ["fs-glsl330", "fs-glsl450", "cs-glsl450"]


def version_fixture():
    """A pytest fixture parametrized over GLSL_VERSIONS (330 = gl33 profile, 450 = native)."""
    import pytest

    @pytest.fixture(params=GLSL_VERSIONS, ids=lambda v: f"glsl{v}")
    def version(request):
        return request.param

    return version
