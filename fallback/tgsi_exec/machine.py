"""The numpy TGSI machine: a compute program run over many invocations at once.

In the shape of Mesa's tgsi_exec, vectorised: every register is a
``(lanes, 4)`` uint32 array, one lane per invocation of the blocks being
run, and control flow is structured execution masks (IF / UIF / ELSE /
ENDIF, BGNLOOP / BRK / CONT / ENDLOOP, RET / END).  All lanes execute each
instruction before any lane executes the next, so a BARRIER -- which GLSL
and tgsi.rst allow only in control flow uniform over the block -- is
already met when it is reached.  ``prepare`` checks once that every opcode,
register file and system value has an executor function (refusing the
program with UnsupportedError otherwise); ``run_grid`` runs a whole grid in
chunks of whole blocks.  docs/compute.md "The executor".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lowering.errors import InvalidArgumentError, UnsupportedError
from lowering.ir import DstRegister, Shader, SrcRegister

from .alu import ALU, F32, U32, run_alu
from .memory import ATOMIC_OPS, BufferBinding, Space, atomic, load, store

#: Flow opcodes the machine itself implements (the rest are ALU / memory rows).
FLOW = frozenset({"IF", "UIF", "ELSE", "ENDIF", "BGNLOOP", "ENDLOOP", "BRK", "CONT", "RET", "END", "NOP"})
#: Memory and synchronisation opcodes.
MEMORY_OPS = frozenset({"LOAD", "STORE", "RESQ", "BARRIER", "MEMBAR"}) | frozenset(ATOMIC_OPS)
#: Every opcode the executor runs.
SUPPORTED = frozenset(ALU) | FLOW | MEMORY_OPS
#: Compute system values: name -> the lane array of the dispatch it reads.
SYSTEM_VALUES = ("THREAD_ID", "BLOCK_ID", "BLOCK_SIZE", "GRID_SIZE", "WORK_DIM")
_FILES = frozenset({"TEMP", "IMM", "SV", "CONST", "BUFFER", "MEMORY"})

#: Lanes run at once: whole blocks up to this many invocations (at least one block).
CHUNK_LANES = 1 << 16


@dataclass(frozen=True)
class Program:
    """A checked program: the IR, its jump table and its constants."""

    ir: Shader
    jumps: tuple[int, ...]  # IF/UIF -> ELSE or ENDIF; ELSE -> ENDIF; BGNLOOP <-> ENDLOOP
    imm: np.ndarray  # (n, 4) words
    temps: int
    sv: dict  # SV index -> semantic
    shared_words: int
    instruction_count: int


def prepare(ir: Shader, shared_bytes: int) -> Program:
    """Check ``ir`` (a validated COMP program) against what the executor
    runs and build its jump table; UnsupportedError names the first thing
    it cannot run."""
    if ir.processor != "COMP":
        raise InvalidArgumentError(f"the TGSI executor runs compute programs, not {ir.processor}")
    sv = {}
    for d in ir.declarations:
        if d.file not in _FILES:
            raise UnsupportedError(f"the numpy TGSI executor has no register file {d.file} (line {d.line})")
        if d.file == "SV":
            if d.semantic not in SYSTEM_VALUES:
                raise UnsupportedError(f"the numpy TGSI executor has no system value {d.semantic} (line {d.line})")
            for k in range(d.first, d.last + 1):
                sv[k] = d.semantic
        if d.file == "MEMORY" and (d.memory_type or "GLOBAL") != "SHARED":
            raise UnsupportedError(f"MEMORY[{d.first}] of type {d.memory_type or 'GLOBAL'}: only SHARED memory runs")
    stack: list[int] = []
    jumps = [-1] * len(ir.instructions)
    for n, inst in enumerate(ir.instructions):
        op = inst.opcode
        if op not in SUPPORTED:
            where = f" (line {inst.line})" if inst.line is not None else ""
            raise UnsupportedError(f"the numpy TGSI executor has no function for opcode {op}{where}")
        regs: tuple[DstRegister | SrcRegister, ...] = (*inst.dsts, *inst.srcs)
        for reg in regs:
            if reg.indirect is not None or reg.dim_indirect is not None:
                raise UnsupportedError(f"{op}: indirect addressing is not run by the numpy TGSI executor")
            if reg.file not in _FILES:
                raise UnsupportedError(f"{op}: the numpy TGSI executor has no register file {reg.file}")
        if op in ("IF", "UIF", "BGNLOOP"):
            stack.append(n)
        elif op == "ELSE":
            jumps[stack[-1]] = n
            stack[-1] = n
        elif op in ("ENDIF", "ENDLOOP"):
            opener = stack.pop()
            jumps[opener] = n
            if op == "ENDLOOP":
                jumps[n] = opener
    temps = max((d.last + 1 for d in ir.declarations if d.file == "TEMP"), default=0)
    imm = np.array([im.words for im in ir.immediates], U32).reshape(-1, 4)
    return Program(ir, tuple(jumps), imm, temps, sv, max((shared_bytes + 3) // 4, 1), len(ir.instructions))


@dataclass(frozen=True)
class Dispatch:
    """One launch: block and grid sizes, the first block (grid_base), the
    partial last block (0: full) and the work dimension."""

    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    grid_base: tuple[int, int, int] = (0, 0, 0)
    last_block: tuple[int, int, int] = (0, 0, 0)
    work_dim: int = 3


def _block_ids(d: Dispatch) -> np.ndarray:
    """Every block id of the dispatch, x fastest: (n, 3)."""
    rng = [np.arange(b, g, dtype=U32) for b, g in zip(d.grid_base, d.grid, strict=True)]
    z, y, x = np.meshgrid(rng[2], rng[1], rng[0], indexing="ij")
    return np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)


def run_grid(
    prog: Program, d: Dispatch, buffers: dict[int, BufferBinding], constants: dict[int, np.ndarray] | None = None
) -> int:
    """Run every block of ``d`` over the shader ``buffers`` and the constant
    buffers ``constants`` (index -> uint32 words; a vec4 register is 4 words,
    past the end reads 0); returns the invocations run x instructions
    (the executor's work, for benchmarks)."""
    consts = {k: _vec4s(v) for k, v in (constants or {}).items()}
    blocks = _block_ids(d)
    per_block = d.block[0] * d.block[1] * d.block[2]
    if per_block == 0 or blocks.shape[0] == 0:
        return 0
    tz, ty, tx = np.meshgrid(*(np.arange(n, dtype=U32) for n in d.block[::-1]), indexing="ij")
    thread = np.stack([tx.ravel(), ty.ravel(), tz.ravel()], axis=1)
    step = max(1, CHUNK_LANES // per_block)
    work = 0
    for first in range(0, blocks.shape[0], step):
        chunk = blocks[first : first + step]
        lanes = _Lanes(chunk, thread, d)
        _Machine(prog, lanes, buffers, consts).run()
        work += int(lanes.active.sum()) * prog.instruction_count
    return work


class _Lanes:
    """The system values of a chunk of whole blocks, one lane per invocation."""

    def __init__(self, blocks: np.ndarray, thread: np.ndarray, d: Dispatch):
        nb, per = blocks.shape[0], thread.shape[0]
        self.count = nb * per
        self.block_row = np.repeat(np.arange(nb, dtype=np.int64), per)
        self.nblocks = nb
        self.thread = np.tile(thread, (nb, 1))
        self.block = np.repeat(blocks, per, axis=0)
        # pipe_grid_info.last_block: in the last block of a dimension, threads
        # at or past last_block[i] are disabled (p_state.h).
        active = np.ones(self.count, bool)
        for i in range(3):
            if d.last_block[i]:
                active &= ~((self.block[:, i] == d.grid[i] - 1) & (self.thread[:, i] >= d.last_block[i]))
        self.active = active
        n = self.count
        self.sv = {
            "THREAD_ID": _vec(self.thread, n),
            "BLOCK_ID": _vec(self.block, n),
            "BLOCK_SIZE": np.broadcast_to(np.array([*d.block, 0], U32), (n, 4)),
            "GRID_SIZE": np.broadcast_to(np.array([*d.grid, 0], U32), (n, 4)),
            "WORK_DIM": np.broadcast_to(np.array([d.work_dim, 0, 0, 0], U32), (n, 4)),
        }


def _vec4s(words: np.ndarray) -> np.ndarray:
    """Constant-buffer words as (registers, 4), the last register zero-padded."""
    w = np.ascontiguousarray(words, U32).ravel()
    out = np.zeros((w.size + 3) // 4 * 4, U32)
    out[: w.size] = w
    return out.reshape(-1, 4)


def _vec(xyz: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n, 4), U32)
    out[:, :3] = xyz
    return out


class _Loop:
    __slots__ = ("entry", "brk", "cont")

    def __init__(self, entry: np.ndarray):
        self.entry = entry
        self.brk = np.zeros_like(entry)
        self.cont = np.zeros_like(entry)


class _Machine:
    """One chunk's registers and masks, and the interpreter loop."""

    def __init__(self, prog: Program, lanes: _Lanes, buffers: dict[int, BufferBinding], consts: dict[int, np.ndarray]):
        self.prog = prog
        self.consts = consts
        self.lanes = lanes
        n = lanes.count
        self.temp = np.zeros((max(prog.temps, 1), n, 4), U32)
        self.shared = np.zeros(lanes.nblocks * prog.shared_words, U32)
        self.buffers = buffers
        self.dead = ~lanes.active  # RET / END in main, or disabled by last_block

    # -- operands ----------------------------------------------------------

    def fetch(self, src, typ: str | None) -> np.ndarray:
        if src.file == "TEMP":
            v = self.temp[src.index]
        elif src.file == "IMM":
            v = np.broadcast_to(self.prog.imm[src.index], (self.lanes.count, 4))
        elif src.file == "SV":
            v = self.lanes.sv[self.prog.sv[src.index]]
        elif src.file == "CONST":
            # An unbound buffer or a register past its end reads 0 (as the host's zero UBO).
            regs = self.consts.get(src.dimension or 0)
            value = regs[src.index] if regs is not None and src.index < regs.shape[0] else np.zeros(4, U32)
            v = np.broadcast_to(value, (self.lanes.count, 4))
        else:
            raise UnsupportedError(f"{src.file}[{src.index}] is not a value operand")
        v = v[:, list(src.swizzle)]
        if src.absolute or src.negate:
            if typ in ("int", "uint"):
                s = v.view(np.int32)
                s = np.abs(s) if src.absolute else s
                v = (-s if src.negate else s).view(U32)
            else:
                x = v.view(F32)
                x = np.abs(x) if src.absolute else x
                v = (-x if src.negate else x).view(U32)
        return v

    def write(self, dst, value: np.ndarray, mask: np.ndarray, saturate: bool = False) -> None:
        if dst.file != "TEMP":
            raise UnsupportedError(f"the executor writes TEMP registers, not {dst.file}")
        if saturate:
            value = np.clip(value.view(F32), F32(0.0), F32(1.0)).view(U32)
        reg = self.temp[dst.index]
        full = bool(mask.all())
        for c in range(4):
            if dst.writemask & (1 << c):
                if full:
                    reg[:, c] = value[:, c]
                else:
                    reg[:, c] = np.where(mask, value[:, c], reg[:, c])

    def space(self, reg) -> Space:
        if reg.file == "MEMORY":
            return Space(self.shared, self.lanes.block_row * self.prog.shared_words, self.prog.shared_words, None)
        binding = self.buffers.get(reg.index)
        if binding is None:
            empty = np.zeros(1, U32)
            return Space(empty, 0, 0, None)  # an unbound buffer: reads 0, writes nothing
        return Space(binding.words, 0, binding.size // 4, binding)

    # -- the loop ----------------------------------------------------------

    def run(self) -> None:
        insts = self.prog.ir.instructions
        jumps = self.prog.jumps
        mask = ~self.dead
        conds: list[tuple[np.ndarray, np.ndarray]] = []  # (mask at IF, else mask)
        loops: list[_Loop] = []
        pc = 0
        while pc < len(insts):
            inst = insts[pc]
            op = inst.opcode
            info = inst.info
            if op in ("IF", "UIF"):
                c = self.fetch(inst.srcs[0], "float" if op == "IF" else "uint")[:, 0]
                true = (c.view(F32) != 0) if op == "IF" else (c != 0)
                conds.append((mask, mask & ~true))
                mask = mask & true
                if not mask.any():
                    pc = jumps[pc]  # to ELSE (which runs) or ENDIF
                    continue
            elif op == "ELSE":
                mask = conds[-1][1] & self._live(loops)
                if not mask.any():
                    pc = jumps[pc]
                    continue
            elif op == "ENDIF":
                mask = conds.pop()[0] & self._live(loops)
            elif op == "BGNLOOP":
                loops.append(_Loop(mask))
            elif op == "BRK":
                loops[-1].brk |= mask
                mask = mask & False
            elif op == "CONT":
                loops[-1].cont |= mask
                mask = mask & False
            elif op == "ENDLOOP":
                loop = loops[-1]
                loop.cont[:] = False
                mask = loop.entry & ~loop.brk & ~self.dead
                if mask.any():
                    pc = jumps[pc] + 1
                    continue
                loops.pop()
                mask = loop.entry & ~self.dead & self._live(loops)
            elif op in ("RET", "END"):
                # RET in main ends the invocation (no subroutines here: CAL is refused).
                self.dead |= mask
                mask = mask & False
                if op == "END" or self.dead.all():
                    break
            elif op in ("NOP", "BARRIER", "MEMBAR"):
                pass  # lockstep: see the module docstring
            elif mask.any():
                self._execute(inst, info, mask)
            pc += 1

    def _live(self, loops: list[_Loop]) -> np.ndarray:
        """Lanes not stopped by RET, nor by BRK / CONT of the innermost loop."""
        live = ~self.dead
        if loops:
            live = live & ~loops[-1].brk & ~loops[-1].cont
        return live

    def _execute(self, inst, info, mask: np.ndarray) -> None:
        op = inst.opcode
        if op in ALU:
            types = info.src_types
            srcs = [self.fetch(s, types[k] if k < len(types) else "float") for k, s in enumerate(inst.srcs)]
            if op == "MOV" and any(s.negate or s.absolute for s in inst.srcs):
                srcs = [self.fetch(inst.srcs[0], "float")]
            self.write(inst.dsts[0], run_alu(op, srcs), mask, inst.saturate)
        elif op == "LOAD":
            addr = self.fetch(inst.srcs[1], "uint")[:, 0]
            value = load(self.space(inst.srcs[0]), addr, inst.dsts[0].writemask, inst.srcs[0].swizzle, mask)
            self.write(inst.dsts[0], value, mask)
        elif op == "STORE":
            addr = self.fetch(inst.srcs[0], "uint")[:, 0]
            value = self.fetch(inst.srcs[1], "uint")
            store(self.space(inst.dsts[0]), addr, inst.dsts[0].writemask, value, mask)
        elif op == "RESQ":
            space = self.space(inst.srcs[0])
            size = np.zeros((self.lanes.count, 4), U32)
            size[:, 0] = space.limit * 4 if space.binding is None else space.binding.size
            self.write(inst.dsts[0], size, mask)
        else:  # ATOM*
            addr = self.fetch(inst.srcs[1], "uint")[:, 0]
            a = self.fetch(inst.srcs[2], "uint")[:, 0]
            b = self.fetch(inst.srcs[3], "uint")[:, 0] if len(inst.srcs) > 3 else None
            old = atomic(self.space(inst.srcs[0]), op, addr, a, b, mask)
            self.write(inst.dsts[0], np.repeat(old[:, None], 4, axis=1), mask)


__all__ = ["CHUNK_LANES", "Dispatch", "Program", "SUPPORTED", "SYSTEM_VALUES", "prepare", "run_grid"]
