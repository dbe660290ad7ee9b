"""Mesa's own int64 TGSI (tests/lowering/corpus) drawn through the pipe on both profiles.

The corpus files with 64-bit integer opcodes (``int64_arith.comp``,
``int64_compare_convert.comp``: U64ADD, U64MUL, U64DIV, I64DIV, U64MOD, the
shifts, min / max, abs / neg / ssg, compares, F2U64 / F2I64 / I2I64, ...) are
compute shaders; the gl33 profile has no compute stage, so the test turns
each into a fragment shader with the same instructions, mechanically:
THREAD_ID is the pixel's x, BLOCK_ID 0; each ``LOAD`` reads its words from a
buffer sampler view (R32_UINT, word = byte address / 4) holding the buffer's
initial contents; the k-th ``STORE`` is kept in rows 2k (the value) and
2k + 1 (the byte address) of a RGBA32UI target.  Every other instruction is
Mesa's, unchanged.  Both files also use doubles (issue 18 item 1): where
DOUBLES is 0 the file is refused naming a double opcode, and then drawn
without the double instructions and everything that reads their results.

The expected words are independent of glpipe's FS path: the original
compute shader runs on the host at GLSL 450 with int64_t
(GL_ARB_gpu_shader_int64, exec_harness's CS path) and each store's words
are read from the buffer it wrote.  On gl33 the same opcodes run as
soft_int64's GLSL 3.30 helpers and must give those words.  A file that also
uses doubles is refused, naming a double opcode, where DOUBLES is 0.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from glpipe import Bind, Cap, Format, ResourceTemplate, SamplerViewTemplate, ShaderType, Target
from lowering.errors import UnsupportedError

from .util_caps import draw

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lowering"))
import exec_harness as H

CORPUS = Path(__file__).resolve().parents[1] / "lowering" / "corpus" / "tgsi"
FILES = ["int64_arith.comp.tgsi", "int64_compare_convert.comp.tgsi"]
BUFFER_WORDS = 1024
DOUBLE_OPS = frozenset(H.DOUBLE_OPS + H.INT64_DOUBLE_OPS)


def _words(mask: str) -> str:
    return mask or "xyzw"


def without_doubles(lines):
    """``lines`` minus the double opcodes and every instruction (and STORE) that reads what
    they computed, component by component (a write by a kept instruction clears the mark)."""

    def comps(reg):  # [(temp, component), ...] of "TEMP[n].swz" / "TEMP[n].mask"
        m = re.search(r"TEMP\[(\d+)\](?:\.(\w+))?", reg)
        return [(m.group(1), c) for c in (m.group(2) or "xyzw")] if m else []

    tainted, kept = set(), []
    for ln in lines:
        m = re.match(r"(?:\d+:\s*)?([A-Z0-9_]+)\s+(.*)$", ln)
        if not m or ln.startswith(("DCL", "IMM[", "PROPERTY")):
            kept.append(ln)
            continue
        op, operands = m.group(1), [x.strip() for x in m.group(2).split(",")]
        dst = comps(operands[0]) if op != "STORE" else []
        reads = {rc for x in (operands if op == "STORE" else operands[1:]) for rc in comps(x)}
        if op in DOUBLE_OPS or reads & tainted:
            tainted.update(dst)
            continue
        tainted.difference_update(dst)
        kept.append(ln)
    return kept


def comp_to_frag(text: str, drop_doubles: bool = False):
    """(FRAG text, block width, [(store mask, opcode that computed the stored value), ...])
    of a COMP shader, as the module docstring says."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if drop_doubles:
        lines = without_doubles(lines)
    width = int(next(ln.split()[-1] for ln in lines if ln.startswith("PROPERTY CS_FIXED_BLOCK_WIDTH")))
    sv = {}
    ntemp = 0
    nimm = 0
    for ln in lines:
        m = re.match(r"DCL SV\[(\d+)\], (\w+)", ln)
        if m:
            sv[m.group(1)] = m.group(2)
        m = re.match(r"DCL TEMP\[0\.\.(\d+)\]", ln)
        if m:
            ntemp = int(m.group(1)) + 1
        if ln.startswith("IMM["):
            nimm += 1
    t = {
        name: f"TEMP[{ntemp + k}]" for k, name in enumerate(("pos", "block", "thread", "addr", "v", "c", "acc", "acca"))
    }
    imm_a, imm_b, imm_c = (f"IMM[{nimm + k}]" for k in range(3))
    out = [
        "FRAG",
        "DCL IN[0], POSITION, LINEAR",
        "DCL OUT[0], COLOR",
        "DCL SVIEW[0], BUFFER, UINT",
        f"DCL TEMP[0..{ntemp + len(t) - 1}]",
    ]
    body = []
    stores = []
    last_writer = {}  # TEMP index -> opcode that last wrote it
    for ln in lines:
        if ln in ("COMP",) or ln.startswith(("PROPERTY", "DCL SV", "DCL BUFFER", "DCL TEMP")):
            continue
        if ln.startswith("IMM["):
            out.append(ln)
            continue
        ln = re.sub(r"^\d+:\s*", "", ln)
        for idx, name in sv.items():
            ln = ln.replace(f"SV[{idx}]", t["block"] if name == "BLOCK_ID" else t["thread"])
        op = ln.split()[0]
        if op == "LOAD":
            m = re.match(r"LOAD (TEMP\[\d+\])(?:\.(\w+))?, BUFFER\[0\], (\S+)\.(\w)\w*$", ln)
            dst, mask, areg, ac = m.group(1), _words(m.group(2)), m.group(3), m.group(4)
            body.append(f"USHR {t['addr']}.x, {areg}.{ac * 4}, {imm_a}.zzzz")
            for k, comp in enumerate(mask):
                body += [
                    f"UADD {t['addr']}.y, {t['addr']}.xxxx, {imm_a}.{'xyzw'[k] * 4}",
                    f"SAMPLE_I {t['v']}, {t['addr']}.yyyy, SVIEW[0]",
                    f"MOV {dst}.{comp}, {t['v']}.xxxx",
                ]
        elif op == "STORE":
            m = re.match(r"STORE BUFFER\[0\](?:\.(\w+))?, (\S+)\.(\w)\w*, (.+)$", ln)
            mask, areg, ac, value = _words(m.group(1)), m.group(2), m.group(3), m.group(4)
            k = len(stores)
            vreg = re.match(r"-?\|?TEMP\[(\d+)\]", value)
            stores.append((mask, last_writer.get(vreg.group(1)) if vreg else None))
            kimm = [imm_a, imm_b, imm_c][k // 4] + "." + "xyzw"[k % 4] * 4
            body += [
                f"USEQ {t['c']}.x, {t['c']}.yyyy, {kimm}",
                f"UCMP {t['acc']}.{mask}, {t['c']}.xxxx, {value}, {t['acc']}",
                f"UCMP {t['acca']}.x, {t['c']}.xxxx, {areg}.{ac * 4}, {t['acca']}.xxxx",
            ]
        elif op == "END":
            body += [f"UCMP OUT[0], {t['c']}.zzzz, {t['acca']}, {t['acc']}", "END"]
        else:
            body.append(ln)
        m = re.match(r"(\w+) TEMP\[(\d+)\]", ln)
        if m and op not in ("STORE",):
            last_writer[m.group(2)] = m.group(1)
    out += [f"{imm_a} UINT32 {{0, 1, 2, 3}}", f"{imm_b} UINT32 {{4, 5, 6, 7}}", f"{imm_c} UINT32 {{8, 9, 10, 11}}"]
    prologue = [
        f"F2U {t['pos']}.xy, IN[0].xyyy",
        f"MOV {t['block']}, {imm_a}.xxxx",
        f"MOV {t['thread']}, {imm_a}.xxxx",
        f"MOV {t['thread']}.x, {t['pos']}.xxxx",
        f"MOV {t['acc']}, {imm_a}.xxxx",
        f"MOV {t['acca']}, {imm_a}.xxxx",
        f"USHR {t['c']}.y, {t['pos']}.yyyy, {imm_a}.yyyy",  # store index = y >> 1
        f"AND {t['c']}.z, {t['pos']}.yyyy, {imm_a}.yyyy",
    ]  # odd rows: the address
    return "\n".join(out + prologue + body) + "\n", width, stores


def initial_buffer() -> np.ndarray:
    """Seeded words with 64-bit edge values sprinkled in (0, ~0, INT64_MIN / MAX halves, 1)."""
    rng = np.random.default_rng(6464)
    w = rng.integers(0, 2**32, BUFFER_WORDS, dtype=np.uint64).astype(np.uint32)
    # Random magnitudes: shift some high words down so divisions, compares and
    # conversions see small, mid-size and word-crossing values.
    w[1::2] >>= rng.integers(0, 33, BUFFER_WORDS // 2).astype(np.uint32) % 32
    edges = np.array([0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF, 1, 0], np.uint32)
    w[40 : 40 + edges.size] = edges
    return w


# Double results (item 1's): where the reference is a denormal double, the FS path may
# give a signed zero -- llvmpipe runs fragment shaders with denormals flushed, its
# compute threads without -- so that one lane is not an int64 comparison.
DOUBLE_RESULTS = frozenset(
    {
        "DADD",
        "DMUL",
        "DMAD",
        "DFMA",
        "DDIV",
        "DSQRT",
        "DRSQ",
        "DRCP",
        "DNEG",
        "DABS",
        "DMIN",
        "DMAX",
        "F2D",
        "I2D",
        "U2D",
        "U642D",
        "I642D",
    }
)


def _denormal_double(words) -> bool:
    lo, hi = words[0], words[1]
    return (hi & 0x7FF00000) == 0 and ((hi & 0x000FFFFF) | lo) != 0


_REFERENCE = {}


_RUN_CS = """
import sys, numpy as np
sys.path.insert(0, {lowering!r})
import exec_harness as H
gl = H.ExecHarness()
if "GL_ARB_gpu_shader_int64" not in gl.ctx.extensions:
    sys.exit(3)
data = np.frombuffer(sys.stdin.buffer.read(), dtype=np.uint32)
sys.stdout.buffer.write(gl.run_cs(open({path!r}).read(), {{0: data}})[0].tobytes())
"""


def reference(name: str) -> np.ndarray:
    """The buffer after the original compute shader ran on the host with int64_t (GLSL 450,
    exec_harness's CS path), in a child process so its GL context never meets the screen's."""
    if name not in _REFERENCE:
        root = Path(__file__).resolve().parents[2]
        code = _RUN_CS.format(lowering=str(root / "tests" / "lowering"), path=str(CORPUS / name))
        res = subprocess.run(
            [sys.executable, "-c", code], input=initial_buffer().tobytes(), capture_output=True, cwd=root, timeout=300
        )
        if res.returncode == 3:
            pytest.skip("host without GL_ARB_gpu_shader_int64: no native reference")
        assert res.returncode == 0, res.stderr.decode(errors="replace")
        _REFERENCE[name] = np.frombuffer(res.stdout, dtype=np.uint32)
    return _REFERENCE[name]


@pytest.mark.parametrize("name", FILES)
def test_corpus_int64_shader_gives_the_native_words(screen, ctx, name):
    text = (CORPUS / name).read_text()
    frag, width, stores = comp_to_frag(text)
    opcodes = set(re.findall(r"^\s*\d+:\s*(\w+)", text, re.M))
    data = initial_buffer()
    res = screen.resource_create(
        ResourceTemplate(target=Target.BUFFER, format=Format.R8_UNORM, width0=data.nbytes, bind=Bind.SAMPLER_VIEW)
    )
    gl = screen.host.gl
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, res.gl_object)
    gl.glBufferSubData(gl.GL_COPY_WRITE_BUFFER, 0, data.nbytes, data)
    gl.glBindBuffer(gl.GL_COPY_WRITE_BUFFER, 0)
    view = ctx.create_sampler_view(
        res, SamplerViewTemplate(format=Format.R32_UINT, target=Target.BUFFER, offset=0, size=data.nbytes)
    )

    def before(c):
        c.set_sampler_views(ShaderType.FRAGMENT, 0, [view])

    doubles = opcodes & DOUBLE_OPS
    if doubles and screen.get_param(Cap.DOUBLES) == 0:
        # The whole file is refused for its doubles, never for its 64-bit integers ...
        with pytest.raises(UnsupportedError) as err:
            draw(ctx, frag, width, 2 * len(stores), fmt=Format.R32G32B32A32_UINT, before=before)
        assert any(op in str(err.value) for op in doubles), err.value
        # ... and without the double instructions (and what reads their results) it runs.
        frag, width, stores = comp_to_frag(text, drop_doubles=True)
        assert len(stores) >= 3 and not set(re.findall(r"^(\w+)", frag, re.M)) & DOUBLE_OPS
    ref = reference(name)
    got = draw(ctx, frag, width, 2 * len(stores), fmt=Format.R32G32B32A32_UINT, before=before)
    got = np.asarray(got, dtype=np.uint32).reshape(2 * len(stores), width, 4)
    compared = 0
    for k, (mask, producer) in enumerate(stores):
        for i in range(width):
            addr = int(got[2 * k + 1, i, 0])
            assert addr % 4 == 0 and addr // 4 + len(mask) <= ref.size, (k, i, addr)
            want = [int(ref[addr // 4 + j]) for j in range(len(mask))]
            have = [int(got[2 * k, i, "xyzw".index(c)]) for c in mask]
            if producer in DOUBLE_RESULTS and _denormal_double(want) and have in ([0, 0], [0, 0x80000000]):
                continue  # llvmpipe's fragment threads flush double denormals
            assert have == want, f"{name}: store {k} ({producer}) of invocation {i} at byte {addr}: {have} != {want}"
            compared += 1
    assert compared >= width * (len(stores) - 1)
