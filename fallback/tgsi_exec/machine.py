"""The numpy TGSI machine: a compute program run over many invocations at once.

In the shape of Mesa's tgsi_exec, vectorised: every register is a
``(lanes, 4)`` uint32 array, one lane per invocation of the blocks being
run, and control flow is structured execution masks (IF / UIF / ELSE /
ENDIF, BGNLOOP / BRK / CONT / ENDLOOP, SWITCH / CASE / DEFAULT / ENDSWITCH,
CAL / BGNSUB / ENDSUB / RET, END); ADDR registers index TEMP arrays,
constants and shader buffers per lane.  All lanes execute each
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

from . import images as _images
from . import sampling as _sampling
from . import texture as _texture
from .alu import ALU, F32, U32, run_alu
from .double import MULTI_DST, modify_wide
from .memory import (
    ATOMIC_OPS,
    BufferBinding,
    Space,
    atomic,
    buffer_run,
    direct_resource,
    lanes_by_buffer,
    load,
    store,
)
from .transcend import op_clock

#: Flow opcodes the machine itself implements (the rest are ALU / memory rows).
FLOW = frozenset(
    {"IF", "UIF", "ELSE", "ENDIF", "BGNLOOP", "ENDLOOP", "BRK", "CONT", "RET", "END", "NOP"}
    | {"SWITCH", "CASE", "DEFAULT", "ENDSWITCH", "CAL", "BGNSUB", "ENDSUB", "BREAKC"}
)
#: Address-register loads (tgsi.rst: ARL floors a float, ARR rounds it, UARL takes a uint).
ADDRESS_OPS = frozenset({"ARL", "ARR", "UARL"})
#: Fences: no-ops in lockstep (MFENCE / LFENCE / SFENCE are the removed spellings of MEMBAR).
SYNC_OPS = frozenset({"BARRIER", "MEMBAR", "MFENCE", "LFENCE", "SFENCE"})
#: Memory and synchronisation opcodes.
MEMORY_OPS = frozenset({"LOAD", "STORE", "RESQ"}) | SYNC_OPS | frozenset(ATOMIC_OPS)
#: Every opcode the executor runs (CLOCK reads the host clock).
SUPPORTED = (
    frozenset(ALU)
    | frozenset(MULTI_DST)
    | FLOW
    | MEMORY_OPS
    | ADDRESS_OPS
    | {"CLOCK"}
    | frozenset(_texture.TEXTURE_OPS)
    | frozenset(_sampling.FILTER_OPS)
)
#: Compute system values: name -> the lane array of the dispatch it reads.
SYSTEM_VALUES = ("THREAD_ID", "BLOCK_ID", "BLOCK_SIZE", "GRID_SIZE", "WORK_DIM")
_FILES = frozenset({"TEMP", "IMM", "SV", "CONST", "BUFFER", "MEMORY", "ADDR", "SVIEW", "SAMP", "IMAGE"})
#: Files whose register index may be indirect (a per-lane gather / scatter).
_INDIRECT_FILES = frozenset({"TEMP", "CONST", "BUFFER"})

#: Lanes run at once: whole blocks up to this many invocations (at least one block).
CHUNK_LANES = 1 << 16


@dataclass(frozen=True)
class Program:
    """A checked program: the IR, its jump table and its constants."""

    ir: Shader
    # IF/UIF -> ELSE or ENDIF; ELSE -> ENDIF; BGNLOOP <-> ENDLOOP; BGNSUB -> ENDSUB; CAL -> BGNSUB
    jumps: tuple[int, ...]
    cases: dict  # SWITCH / DEFAULT index -> the CASE instructions of that switch
    imm: np.ndarray  # (n, 4) words
    temps: int
    sv: dict  # SV index -> semantic
    shared_words: int
    instruction_count: int
    addrs: int = 0
    buffer_runs: dict | None = None  # BUFFER index of an indirect operand -> its declared (first, last)


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
        _images.check_declaration(d)  # images.py: targets it has layouts for
        if d.file == "MEMORY" and (d.memory_type or "GLOBAL") != "SHARED":
            raise UnsupportedError(f"MEMORY[{d.first}] of type {d.memory_type or 'GLOBAL'}: only SHARED memory runs")
    stack: list[int] = []
    switches: list[int] = []
    cases: dict[int, list] = {}
    defaults: list[tuple[int, int]] = []
    jumps = [-1] * len(ir.instructions)
    runs: dict[int, tuple[int, int]] = {}
    for n, inst in enumerate(ir.instructions):
        op = inst.opcode
        if op not in SUPPORTED:
            where = f" (line {inst.line})" if inst.line is not None else ""
            raise UnsupportedError(f"the numpy TGSI executor has no function for opcode {op}{where}")
        regs: tuple[DstRegister | SrcRegister, ...] = (*inst.dsts, *inst.srcs)
        for reg in regs:
            if reg.dim_indirect is not None:
                raise UnsupportedError(
                    f"{op}: indirect addressing of {reg.file}'s buffer index ({reg.file}[ADDR][k]) is not run"
                    " by the numpy TGSI executor (it runs TEMP[ADDR], CONST[n][ADDR] and BUFFER[ADDR])"
                )
            if reg.indirect is not None and reg.file not in _INDIRECT_FILES:
                raise UnsupportedError(
                    f"{op}: indirect addressing of {reg.file} is not run by the numpy TGSI executor"
                    " (it runs TEMP[ADDR], CONST[n][ADDR] and BUFFER[ADDR])"
                )
            if reg.indirect is not None and reg.indirect.file != "ADDR":
                raise UnsupportedError(f"{op}: an indirect index from {reg.indirect.file} (the executor reads ADDR)")
            if reg.file not in _FILES:
                raise UnsupportedError(f"{op}: the numpy TGSI executor has no register file {reg.file}")
            if reg.file == "BUFFER" and reg.indirect is not None:
                runs[reg.index] = buffer_run(ir, reg.index, op)
        if op in _texture.TEXTURE_OPS:
            _texture.check(inst, ir)  # texture.py: targets it fetches from / queries
        elif op in _sampling.FILTER_OPS:
            view = inst.srcs[_sampling.SAMPLE_OPS[op][1]].index
            _sampling.check(inst, inst.texture if op.startswith("T") else _texture.sview_targets(ir).get(view))
        if op == "CAL":
            if inst.label is None or not 0 <= inst.label < len(ir.instructions):
                raise InvalidArgumentError(f"CAL without a subroutine label (line {inst.line})")
            jumps[n] = inst.label  # its BGNSUB (checked by lowering.validate)
        elif op == "SWITCH":
            switches.append(n)
            cases[n] = []
        elif op == "CASE":
            cases[switches[-1]].append(inst)
        elif op == "DEFAULT":
            defaults.append((n, switches[-1]))
        elif op == "ENDSWITCH":
            switches.pop()
        if op in ("IF", "UIF", "BGNLOOP", "BGNSUB"):
            stack.append(n)
        elif op == "ELSE":
            jumps[stack[-1]] = n
            stack[-1] = n
        elif op in ("ENDIF", "ENDLOOP", "ENDSUB"):
            opener = stack.pop()
            jumps[opener] = n
            if op == "ENDLOOP":
                jumps[n] = opener
    temps = max((d.last + 1 for d in ir.declarations if d.file == "TEMP"), default=0)
    imm = np.array([im.words for im in ir.immediates], U32).reshape(-1, 4)
    for at, switch in defaults:
        cases[at] = cases[switch]  # DEFAULT takes the lanes no CASE of its switch matches
    addrs = max((d.last + 1 for d in ir.declarations if d.file == "ADDR"), default=0)
    shared = max((shared_bytes + 3) // 4, 1)
    return Program(ir, tuple(jumps), cases, imm, temps, sv, shared, len(ir.instructions), addrs, runs)


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
    prog: Program,
    d: Dispatch,
    buffers: dict[int, BufferBinding],
    constants: dict[int, np.ndarray] | None = None,
    textures: dict | None = None,
    images: dict | None = None,
    samplers: dict | None = None,
) -> int:
    """Run every block of ``d`` over the shader ``buffers``, the constant
    buffers ``constants`` (index -> uint32 words; a vec4 register is 4 words,
    past the end reads 0), the sampler views ``textures`` (index ->
    texture.TextureBinding), the sampler states ``samplers`` (SAMP index ->
    a pipe_sampler_state: glpipe's SamplerState) and the images ``images``
    (index -> images.ImageBinding); returns the invocations run x instructions
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
        machine = _Machine(prog, lanes, buffers, consts)
        machine.textures, machine.images, machine.samplers = textures or {}, images or {}, samplers or {}
        machine.run()
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


class _Switch:
    """An open SWITCH: the lanes that reached it, their selector, and those
    that left it by BRK (a SWITCH is what BRK leaves when it is innermost)."""

    __slots__ = ("entry", "sel", "brk", "cont")

    def __init__(self, entry: np.ndarray, sel: np.ndarray):
        self.entry = entry
        self.sel = sel
        self.brk = np.zeros_like(entry)
        self.cont = self.brk  # CONT goes to the enclosing loop; nothing is recorded here


class _Call:
    """An open CAL: where to return, the lanes that called, and those that
    took a RET inside the subroutine (off until its ENDSUB)."""

    __slots__ = ("pc", "mask", "ret")

    def __init__(self, pc: int, mask: np.ndarray):
        self.pc = pc
        self.mask = mask
        self.ret = np.zeros_like(mask)


class _Machine:
    """One chunk's registers and masks, and the interpreter loop."""

    def __init__(self, prog: Program, lanes: _Lanes, buffers: dict[int, BufferBinding], consts: dict[int, np.ndarray]):
        self.prog = prog
        self.consts = consts
        self.lanes = lanes
        n = lanes.count
        self.temp = np.zeros((max(prog.temps, 1), n, 4), U32)
        self.addr = np.zeros((max(prog.addrs, 1), n, 4), U32)  # int32 bit patterns
        self.shared = np.zeros(lanes.nblocks * prog.shared_words, U32)
        self.buffers = buffers
        self.textures: dict = {}  # SAMP / SVIEW index -> texture.TextureBinding (run_grid)
        self.images: dict = {}  # IMAGE index -> images.ImageBinding (run_grid)
        self.samplers: dict = {}  # SAMP index -> sampler state (run_grid)
        self.dead = ~lanes.active  # RET / END in main, or disabled by last_block

    # -- operands ----------------------------------------------------------

    def _index(self, reg) -> np.ndarray | None:
        """Per-lane register index of an indirect operand (``index +
        ADDR[i].c``, signed, tgsi.rst "Indirect addressing"); None if direct."""
        ind = reg.indirect
        if ind is None:
            return None
        return self.addr[ind.index][:, ind.component].view(np.int32).astype(np.int64) + reg.index

    def _gather(self, regs: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``regs[idx[lane]]`` per lane (regs: (registers, 4) or (registers,
        lanes, 4)); an index outside the file reads 0, as Mesa's tgsi_exec."""
        ok = (idx >= 0) & (idx < regs.shape[0])
        safe = np.where(ok, idx, 0)
        v = regs[safe] if regs.ndim == 2 else regs[safe, np.arange(idx.size)]
        return np.where(ok[:, None], v, U32(0))

    def fetch(self, src, typ: str | None) -> np.ndarray:
        idx = self._index(src)
        if src.file == "TEMP":
            v = self.temp[src.index] if idx is None else self._gather(self.temp, idx)
        elif src.file == "ADDR":
            v = self.addr[src.index]
        elif src.file == "CONST" and idx is not None:
            regs = self.consts.get(src.dimension or 0)
            v = self._gather(regs if regs is not None else np.zeros((0, 4), U32), idx)
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
            if typ in ("double", "int64", "uint64"):
                return modify_wide(v, typ, src.absolute, src.negate)
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
        if dst.file not in ("TEMP", "ADDR"):
            raise UnsupportedError(f"the executor writes TEMP and ADDR registers, not {dst.file}")
        if saturate:
            value = np.clip(value.view(F32), F32(0.0), F32(1.0)).view(U32)
        idx = self._index(dst)
        if idx is not None:
            # A per-lane scatter; an index outside the TEMP file writes nothing (Mesa's tgsi_exec).
            lanes = np.nonzero(mask & (idx >= 0) & (idx < self.temp.shape[0]))[0]
            for c in range(4):
                if dst.writemask & (1 << c):
                    self.temp[idx[lanes], lanes, c] = value[lanes, c]
            return
        reg = (self.temp if dst.file == "TEMP" else self.addr)[dst.index]
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
        """Interpret the program over every lane with structured execution
        masks (the shape of tgsi_exec.c's Cond / Loop / Switch / Call stacks)."""
        insts = self.prog.ir.instructions
        jumps = self.prog.jumps
        mask = ~self.dead
        conds: list[tuple[np.ndarray, np.ndarray]] = []  # (mask at IF, else mask)
        loops: list[_Loop | _Switch] = []  # what BRK leaves, innermost last
        calls: list[_Call] = []
        pc = 0
        while pc < len(insts):
            inst = insts[pc]
            op = inst.opcode
            if op in ("IF", "UIF"):
                c = self.fetch(inst.srcs[0], "float" if op == "IF" else "uint")[:, 0]
                true = (c.view(F32) != 0) if op == "IF" else (c != 0)
                conds.append((mask, mask & ~true))
                mask = mask & true
                if not mask.any():
                    pc = jumps[pc]  # to ELSE (which runs) or ENDIF
                    continue
            elif op == "ELSE":
                mask = conds[-1][1] & self._live(loops, calls)
                if not mask.any():
                    pc = jumps[pc]
                    continue
            elif op == "ENDIF":
                mask = conds.pop()[0] & self._live(loops, calls)
            elif op == "BGNLOOP":
                loops.append(_Loop(mask))
            elif op == "BRK":
                loops[-1].brk |= mask
                mask = mask & False
            elif op == "BREAKC":
                # Removed BREAKC: BRK for the lanes whose src.x (an integer) is not 0.
                take = mask & (self.fetch(inst.srcs[0], "uint")[:, 0] != 0)
                loops[-1].brk |= take
                mask = mask & ~take
            elif op == "CONT":
                # CONT continues the innermost loop, also from inside a SWITCH (tgsi.rst).
                next(b for b in reversed(loops) if isinstance(b, _Loop)).cont |= mask
                mask = mask & False
            elif op == "ENDLOOP":
                loop = loops[-1]
                loop.cont[:] = False
                mask = loop.entry & ~loop.brk & self._alive(calls)
                if mask.any():
                    pc = jumps[pc] + 1
                    continue
                loops.pop()
                mask = loop.entry & self._live(loops, calls)
            elif op == "SWITCH":
                loops.append(_Switch(mask, self.fetch(inst.srcs[0], "uint")[:, 0]))
                mask = mask & False  # no lane runs before its CASE
            elif op in ("CASE", "DEFAULT"):
                # Lanes already running fall through; the CASE adds the lanes
                # whose selector equals its value (bit patterns), DEFAULT those
                # no CASE of the switch matches, wherever it stands.
                sw = loops[-1]
                assert isinstance(sw, _Switch)
                if op == "CASE":
                    enter = sw.sel == self.fetch(inst.srcs[0], "uint")[:, 0]
                else:
                    enter = np.ones_like(mask)
                    for case in self.prog.cases[pc]:
                        enter &= sw.sel != self.fetch(case.srcs[0], "uint")[:, 0]
                mask = (mask | (sw.entry & enter)) & self._live(loops, calls)
            elif op == "ENDSWITCH":
                mask = loops.pop().entry & self._live(loops, calls)
            elif op == "CAL":
                if mask.any():
                    calls.append(_Call(pc, mask))
                    pc = jumps[pc] + 1  # the body after BGNSUB
                    continue
            elif op == "ENDSUB" and calls:
                frame = calls.pop()
                mask = frame.mask & ~self.dead
                pc = frame.pc + 1
                continue
            elif op in ("BGNSUB", "ENDSUB"):
                pc = jumps[pc] + 1 if op == "BGNSUB" else pc + 1  # reached without CAL: skip the body
                continue
            elif op == "RET" and calls:
                calls[-1].ret |= mask  # back to the caller at ENDSUB
                mask = mask & False
            elif op in ("RET", "END"):
                # RET in main ends the invocation.
                self.dead |= mask
                mask = mask & False
                if op == "END" or self.dead.all():
                    break
            elif op == "NOP" or op in SYNC_OPS:
                pass  # lockstep: see the module docstring
            elif mask.any():
                self._execute(inst, inst.info, mask)
            pc += 1

    def _alive(self, calls: list[_Call]) -> np.ndarray:
        """Lanes not ended by RET in main, nor returned from the current subroutine."""
        return ~self.dead & ~calls[-1].ret if calls else ~self.dead

    def _live(self, loops: list, calls: list[_Call]) -> np.ndarray:
        """Lanes alive and not stopped by BRK / CONT of an open loop or switch."""
        live = self._alive(calls)
        for b in loops:
            live &= ~b.brk & ~b.cont
        return live

    def _execute(self, inst, info, mask: np.ndarray) -> None:
        op = inst.opcode
        res = inst.dsts[0] if op == "STORE" else (inst.srcs[0] if inst.srcs else None)
        if res is not None and res.file == "BUFFER" and res.indirect is not None and info.is_memory:
            # BUFFER[ADDR]: per-lane buffers -- run the access once per buffer the lanes pick.
            index = self._index(res)
            assert index is not None and self.prog.buffer_runs is not None  # set by prepare
            for k, lanes in lanes_by_buffer(index, self.prog.buffer_runs[res.index], mask):
                self._execute(direct_resource(inst, op == "STORE", k), info, lanes)
            return
        if op in _texture.TEXTURE_OPS:
            _texture.TEXTURE_OPS[op](self, inst, mask)
        elif op in _sampling.FILTER_OPS:
            _sampling.FILTER_OPS[op](self, inst, mask)
        elif op in MEMORY_OPS and _images.is_image_op(inst):
            _images.execute(self, inst, mask)
        elif op in ALU or op in MULTI_DST:
            types = info.src_types
            srcs = [self.fetch(s, types[k] if k < len(types) else "float") for k, s in enumerate(inst.srcs)]
            if op == "MOV" and any(s.negate or s.absolute for s in inst.srcs):
                srcs = [self.fetch(inst.srcs[0], "float")]
            if op in MULTI_DST:
                with np.errstate(all="ignore"):
                    values = MULTI_DST[op](*srcs)
                for dst, value in zip(inst.dsts, values, strict=False):
                    self.write(dst, value, mask, inst.saturate)
                return
            self.write(inst.dsts[0], run_alu(op, srcs), mask, inst.saturate)
        elif op == "CLOCK":
            self.write(inst.dsts[0], op_clock(lanes=self.lanes.count), mask)
        elif op in ADDRESS_OPS:
            x = self.fetch(inst.srcs[0], "uint" if op == "UARL" else "float")
            if op != "UARL":  # ARL floors, ARR rounds (half up, as tgsi_exec) to int32; NaN -> 0, saturated
                with np.errstate(invalid="ignore"):
                    v = x.view(F32).astype(np.float64)
                    f = np.nan_to_num(np.floor(v if op == "ARL" else v + 0.5), nan=0.0)
                x = np.clip(f, -(2**31), 2**31 - 1).astype(np.int32).view(U32)
            self.write(inst.dsts[0], x, mask)
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
