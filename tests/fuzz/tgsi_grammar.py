"""TGSI programs for fuzzing: generated from the grammar, or mutated from real ones.

Both generators draw through a ``Draw`` -- ``RandomDraw`` (random.Random, for
scripts/fuzz_tgsi.py's long runs) or the hypothesis adapter in
tgsi_strategies.py (for the CI tests, with shrinking) -- so one grammar serves
both.  ``program`` writes a whole shader of any stage: properties, declarations
(IN / OUT / SV with stage semantics, TEMP arrays, ADDR, CONST, SAMP / SVIEW,
immediates of every type) and instructions from the opcode table (lowering/
opcodes.py) with structured control flow; with ``valid`` False it also picks
out-of-range indices, undeclared files, wrong stages, targets and operand
counts.  ``mutate`` edits a real program (tests/lowering/corpus, tests/lowering/
in) token by token.  docs/robustness.md "TGSI fuzzing" describes the campaign.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from lowering.opcodes import OPCODES
from lowering.semantics import SEMANTIC_NAMES, SYSTEM_VALUE_STAGES, TEXTURE_TARGETS

STAGES = ("VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP")
REPO = Path(__file__).resolve().parents[2]
CORPUS_DIRS = (REPO / "tests" / "lowering" / "corpus" / "tgsi", REPO / "tests" / "lowering" / "in")

# Numbers a mutation or a bad operand picks: the edges of every field width.
INTERESTING = (
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    9,
    31,
    32,
    255,
    256,
    4095,
    4096,
    32767,
    32768,
    65535,
    65536,
    2**31 - 1,
    2**31,
    2**32,
    2**63,
)
VARYINGS = ("GENERIC", "TEXCOORD", "COLOR", "BCOLOR", "FOG")
GS_INPUT_PRIMS = ("POINTS", "LINES", "TRIANGLES", "LINES_ADJACENCY", "TRIANGLES_ADJACENCY")
GS_OUTPUT_PRIMS = ("POINTS", "LINE_STRIP", "TRIANGLE_STRIP")
RETURN_TYPES = ("FLOAT", "UINT", "SINT", "UNORM")
SWIZZLE = "xyzw"
OPS = tuple(sorted(name for name, info in OPCODES.items() if not info.alias_of))
# The operand of each texture-style opcode that names the sampler (TEX style) or view (SAMPLE style).
_TEX_UNIT_POS = {
    **dict.fromkeys(("TEX", "TXP", "TXB", "TXL", "TXF", "TXQ", "LODQ", "TEX_LZ", "TXF_LZ"), 1),
    **dict.fromkeys(("TEX2", "TXB2", "TXL2", "TG4"), 2),
    "TXD": 3,
    "TXQS": 0,
    "TXQ_LZ": 0,
}
_SAMPLE_OPS = ("SAMPLE", "SAMPLE_B", "SAMPLE_C", "SAMPLE_C_LZ", "SAMPLE_D", "SAMPLE_L", "GATHER4", "LOD")
_FETCH_OPS = ("SAMPLE_I", "SAMPLE_I_MS", "SVIEWINFO")
_TARGETS = tuple(t for t in TEXTURE_TARGETS if t != "UNKNOWN")


class RandomDraw:
    """The ``Draw`` interface over random.Random."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def int(self, lo: int, hi: int) -> int:
        """An integer in lo..hi."""
        return self.r.randint(lo, hi)

    def choice(self, seq):
        """One element of ``seq``."""
        return seq[self.r.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.r.random() < p


class _Shader:
    """What has been declared so far, for picking operands."""

    def __init__(self, d, proc: str, valid: bool, open_findings: bool = True) -> None:
        self.d, self.proc, self.valid = d, proc, valid
        self.open_findings = open_findings
        self.bad = 0.0 if valid else 0.08
        self.lines: list[str] = [proc]
        self.files: dict[str, int] = {}  # file -> registers declared (0..n-1)
        self.temp_array = False
        self.imm = 0
        self.gs_vertices = 3
        self.sviews: list[str] = []

    def index(self, file: str) -> int:
        n = self.files.get(file, 0)
        if n == 0 or self.d.chance(self.bad):
            return self.d.choice(INTERESTING)
        return self.d.int(0, n - 1)


def _properties(s: _Shader) -> None:
    d, proc = s.d, s.proc
    if proc == "GEOM":
        prim = d.choice(GS_INPUT_PRIMS)
        s.gs_vertices = {"POINTS": 1, "LINES": 2, "TRIANGLES": 3, "LINES_ADJACENCY": 4}.get(prim, 6)
        s.lines.append(f"PROPERTY GS_INPUT_PRIMITIVE {prim}")
        s.lines.append(f"PROPERTY GS_OUTPUT_PRIMITIVE {d.choice(GS_OUTPUT_PRIMS)}")
        s.lines.append(f"PROPERTY GS_MAX_OUTPUT_VERTICES {d.int(1, 8)}")
        if d.chance(0.1):
            s.lines.append(f"PROPERTY GS_INVOCATIONS {d.int(1, 4)}")
    elif proc == "TESS_CTRL":
        s.lines.append(f"PROPERTY TCS_VERTICES_OUT {d.int(1, 4)}")
    elif proc == "TESS_EVAL":
        s.lines.append(f"PROPERTY TES_PRIM_MODE {d.choice((1, 4, 7))}")
        s.lines.append(f"PROPERTY TES_SPACING {d.int(0, 2)}")
        s.lines.append(f"PROPERTY TES_VERTEX_ORDER_CW {d.int(0, 1)}")
        s.lines.append(f"PROPERTY TES_POINT_MODE {d.int(0, 1)}")
    elif proc == "COMP":
        for axis in ("WIDTH", "HEIGHT", "DEPTH"):
            s.lines.append(f"PROPERTY CS_FIXED_BLOCK_{axis} {d.int(1, 4)}")
    elif proc == "FRAG" and d.chance(0.2):
        s.lines.append(f"PROPERTY FS_COORD_ORIGIN {d.choice(('UPPER_LEFT', 'LOWER_LEFT'))}")


def _semantic(s: _Shader, file: str) -> str:
    """A semantic for an IN / OUT of this stage (now and then any semantic at all)."""
    d, proc = s.d, s.proc
    if d.chance(s.bad * 2):
        return f"{d.choice(SEMANTIC_NAMES)}[{d.choice(INTERESTING) if d.chance(0.3) else d.int(0, 3)}]"
    if proc == "FRAG" and file == "OUT":
        return d.choice(("COLOR", f"COLOR[{d.int(0, 7)}]", "POSITION"))
    if proc == "FRAG":
        sem = d.choice((*VARYINGS, "POSITION", "FACE", "PRIM_ID", "CLIPDIST"))
        interp = d.choice(("PERSPECTIVE", "LINEAR", "CONSTANT", "COLOR"))
        if sem in ("POSITION", "FACE", "PRIM_ID"):
            return f"{sem}, {'LINEAR' if sem == 'POSITION' else 'CONSTANT'}"
        return f"{sem}[{d.int(0, 1 if sem == 'CLIPDIST' else 7)}], {interp}"
    if file == "OUT" and proc == "TESS_CTRL" and d.chance(0.3):
        return d.choice(("TESSOUTER", "TESSINNER", f"PATCH[{d.int(0, 3)}]"))
    if file == "IN" and proc == "TESS_EVAL" and d.chance(0.2):
        return d.choice(("TESSOUTER", "TESSINNER", f"PATCH[{d.int(0, 3)}]"))
    # (A TCS / TES with clip distances its partner does not share is an open
    # finding, docs/robustness.md: left out when ``open_findings`` is False.)
    tess = proc in ("TESS_CTRL", "TESS_EVAL") and not s.open_findings
    sem = d.choice((*VARYINGS, "POSITION", "PSIZE", *(() if tess else ("CLIPDIST",))))
    return f"{sem}[{d.int(0, 1 if sem == 'CLIPDIST' else 7)}]"


def _declarations(s: _Shader) -> None:
    d, proc = s.d, s.proc
    per_vertex_in = proc in ("GEOM", "TESS_CTRL", "TESS_EVAL")
    if proc != "COMP":
        n_in = d.int(0 if proc != "VERT" else 1, 4)
        for i in range(n_in):
            if proc == "VERT":
                s.lines.append(f"DCL IN[{i}]")
                continue
            sem = _semantic(s, "IN")
            patch = any(p in sem for p in ("PATCH", "TESSOUTER", "TESSINNER"))
            reg = f"IN[][{i}]" if per_vertex_in and not patch else f"IN[{i}]"
            s.lines.append(f"DCL {reg}, {sem}")
        s.files["IN"] = n_in
        n_out = d.int(1, 4)
        for i in range(n_out):
            sem = "POSITION" if i == 0 and proc != "FRAG" else _semantic(s, "OUT")
            patch = any(p in sem for p in ("PATCH", "TESSOUTER", "TESSINNER"))
            reg = f"OUT[][{i}]" if proc == "TESS_CTRL" and not patch else f"OUT[{i}]"
            s.lines.append(f"DCL {reg}, {sem}")
        s.files["OUT"] = n_out
    n_sv = d.int(0, 2)
    svs = [k for k, stages in SYSTEM_VALUE_STAGES.items() if proc in stages or d.chance(s.bad)]
    for i in range(n_sv if svs else 0):
        s.lines.append(f"DCL SV[{i}], {d.choice(svs)}")
    s.files["SV"] = n_sv if svs else 0
    n_temp = d.int(1, 6)
    if d.chance(0.3):
        s.lines.append(f"DCL TEMP[0..{n_temp - 1}], ARRAY(1)")
        s.temp_array = True
    else:
        s.lines.append(f"DCL TEMP[0..{n_temp - 1}]" if n_temp > 1 else "DCL TEMP[0]")
    s.files["TEMP"] = n_temp
    if d.chance(0.5):
        s.lines.append("DCL ADDR[0]")
        s.files["ADDR"] = 1
    if d.chance(0.5):
        n = d.int(1, 8)
        s.lines.append(f"DCL CONST[0][0..{n - 1}]")
        s.files["CONST"] = n
    if d.chance(0.4):
        n = d.int(1, 3)
        for i in range(n):
            s.lines.append(f"DCL SAMP[{i}]")
            target = d.choice(("2D", "2D", "3D", "CUBE", "2D_ARRAY", "1D", "RECT", "BUFFER", "SHADOW2D", "2D_MSAA"))
            s.lines.append(f"DCL SVIEW[{i}], {target}, {d.choice(RETURN_TYPES)}")
            s.sviews.append(target)
        s.files["SAMP"] = s.files["SVIEW"] = n
    for i in range(d.int(0, 3)):
        kind = d.choice(("FLT32", "FLT32", "UINT32", "INT32", "FLT64", "UINT64", "INT64"))
        if kind == "FLT32":
            vals = [d.choice(("0.0", "1.0", "-0.5", "2.5", "3.4028235e38", "1e-45", "-1.0")) for _ in range(4)]
        elif kind in ("UINT32", "INT32"):
            vals = [str(d.choice((0, 1, 2, 3, 4, 7, 255))) for _ in range(4)]
        elif kind == "FLT64":
            vals = [d.choice(("0.0", "1.0", "-2.5")) for _ in range(2)]
        else:
            vals = [str(d.choice((0, 1, 5))) for _ in range(2)]
        s.lines.append(f"IMM[{i}] {kind} {{{', '.join(vals)}}}")
        s.imm += 1
    s.files["IMM"] = s.imm


def _swizzle(d) -> str:
    if d.chance(0.5):
        return ""
    return "." + "".join(d.choice(SWIZZLE) for _ in range(4))


def _src(s: _Shader, kind: str = "any") -> str:
    d = s.d
    files = [f for f in ("TEMP", "IN", "CONST", "IMM", "SV") if s.files.get(f)] or ["TEMP"]
    if d.chance(s.bad):
        files = ["TEMP", "IN", "OUT", "CONST", "IMM", "SV", "ADDR", "SAMP"]
    file = d.choice(files)
    if file == "CONST":
        if s.files.get("ADDR") and d.chance(0.3):
            reg = f"CONST[0][ADDR[0].x+{s.index('CONST')}]"
        else:
            reg = f"CONST[0][{s.index('CONST')}]"
    elif file == "IN" and s.proc in ("GEOM", "TESS_CTRL", "TESS_EVAL"):
        vertex = d.int(0, s.gs_vertices - 1) if not d.chance(s.bad) else d.choice(INTERESTING)
        reg = f"IN[{vertex}][{s.index('IN')}]"
    elif file == "TEMP" and s.temp_array and s.files.get("ADDR") and d.chance(0.3):
        reg = f"TEMP[ADDR[0].x+{s.index('TEMP')}]"
    else:
        reg = f"{file}[{s.index(file)}]"
    neg = "-" if d.chance(0.15) else ""
    if d.chance(0.1):
        return f"{neg}|{reg}{_swizzle(d)}|"
    return f"{neg}{reg}{_swizzle(d)}"


def _dst(s: _Shader) -> str:
    d = s.d
    files = ["TEMP", "TEMP", "OUT"] if s.files.get("OUT") else ["TEMP"]
    if s.files.get("ADDR") and d.chance(0.1):
        files = ["ADDR"]
    if d.chance(s.bad):
        files = ["IN", "CONST", "IMM", "TEMP", "OUT"]
    file = d.choice(files)
    if file == "OUT" and s.proc == "TESS_CTRL":
        reg = f"OUT[{d.int(0, 3)}][{s.index('OUT')}]"
    else:
        reg = f"{file}[{s.index(file)}]"
    if d.chance(0.5):
        mask = "".join(c for c in SWIZZLE if d.chance(0.6)) or "x"
        reg += "." + mask
    return reg


def _instruction(s: _Shader, op: str) -> str:
    d = s.d
    info = OPCODES[op]
    ops = [_dst(s) for _ in range(info.num_dst)]
    nsrc = info.num_src if not d.chance(s.bad) else d.int(0, 4)
    srcs = [_src(s) for _ in range(nsrc)]
    tail = ""
    if op in _TEX_UNIT_POS and _TEX_UNIT_POS[op] < len(srcs):
        srcs[_TEX_UNIT_POS[op]] = f"SAMP[{s.index('SAMP')}]"
        tail = ", " + d.choice(_TARGETS if d.chance(0.5) else ("2D", "CUBE", "SHADOW2D", "3D", "2D_ARRAY"))
    elif op in _SAMPLE_OPS and len(srcs) >= 3:
        srcs[1], srcs[2] = f"SVIEW[{s.index('SVIEW')}]", f"SAMP[{s.index('SAMP')}]"
    elif op in _FETCH_OPS and len(srcs) >= 2:
        srcs[1] = f"SVIEW[{s.index('SVIEW')}]"
    elif op in ("EMIT", "ENDPRIM"):
        srcs = [f"IMM[{s.index('IMM')}].{d.choice(SWIZZLE) * 4}"] if s.imm else []
    elif op in ("CASE",) and s.imm:
        srcs = [f"IMM[{s.index('IMM')}].{d.choice(SWIZZLE) * 4}"]
    return f"{op} {', '.join(ops + srcs)}{tail}".rstrip()


# Opcode groups a valid program leaves out: memory and atomics need BUFFER / IMAGE
# declarations, flow opcodes outside the structured blocks ``program`` opens are
# misplaced, and bindless handles / framebuffer fetch / the INTERP_* opcodes need
# operands of their own.
_VALID_SKIP_GROUPS = frozenset({"atomic", "resource", "flow", "interp"})
_VALID_SKIP_OPS = frozenset(
    {"SAMP2HND", "IMG2HND", "FBFETCH", "SAMPLE_POS", "EMIT", "ENDPRIM", "BREAKC", "BRK", "CONT", "RET", "END"}
)


def _fits(s: _Shader, op: str) -> bool:
    """Whether a valid program of ``s`` may use ``op`` (its stage, its resources)."""
    info = OPCODES[op]
    if info.block_role is not None or info.is_branch or info.group in _VALID_SKIP_GROUPS or op in _VALID_SKIP_OPS:
        return op in ("EMIT", "ENDPRIM") and s.proc == "GEOM" and s.imm > 0
    if info.stages is not None and s.proc not in info.stages:
        return False
    if info.is_tex or info.group in ("texture", "sample") or op in _TEX_UNIT_POS or op == "SAMPLE_INFO":
        return bool(s.files.get("SVIEW"))
    return True


def program(
    d,
    proc: str | None = None,
    valid: bool = True,
    max_instructions: int = 24,
    open_findings: bool = True,
    stages: tuple[str, ...] = STAGES,
) -> str:
    """A TGSI program of ``proc`` (one of ``stages`` if None); ``valid`` False
    also picks bad operands, stages, counts and unclosed blocks.
    ``open_findings`` False leaves out what docs/robustness.md "Open findings"
    lists as not yet fixed (the CI corpus; the script's campaigns keep it)."""
    proc = proc or d.choice(stages)
    s = _Shader(d, proc, valid, open_findings)
    _properties(s)
    _declarations(s)
    body: list[str] = []
    stack: list[str] = []
    for _ in range(d.int(1, max_instructions)):
        roll = d.int(0, 9)
        if roll == 0 and len(stack) < 4:
            opener = d.choice(("IF", "UIF", "BGNLOOP", "SWITCH"))
            if opener == "BGNLOOP":
                body.append("BGNLOOP")
            else:
                body.append(f"{opener} {_src(s)}")
                if opener == "SWITCH":
                    body.append(_instruction(s, "CASE") if s.imm else "DEFAULT")
            stack.append(opener)
            continue
        if roll == 1 and stack:
            block = stack.pop()
            if block == "BGNLOOP":
                body += ["BRK", "ENDLOOP"]
            elif block == "SWITCH":
                body += ["BRK", "ENDSWITCH"]
            else:
                if d.chance(0.3):
                    body += ["ELSE", _instruction(s, "MOV")]
                body.append("ENDIF")
            continue
        op = d.choice(OPS)
        if valid and not _fits(s, op):
            continue
        body.append(_instruction(s, op))
    closers = {"BGNLOOP": ["BRK", "ENDLOOP"], "SWITCH": ["BRK", "ENDSWITCH"], "IF": ["ENDIF"], "UIF": ["ENDIF"]}
    if valid or d.chance(0.7):
        while stack:
            body += closers[stack.pop()]
    body.append("END")
    lines = s.lines + [f"{n:3}: {text}" for n, text in enumerate(body)]
    return "\n".join(lines) + "\n"


# -- mutation of real programs --------------------------------------------------------------

_NUMBER = re.compile(r"(?<![A-Za-z_])-?\d+(\.\d+)?(e[+-]?\d+)?")
_WORD = re.compile(r"\b[A-Z][A-Z0-9_]+\b")
_FILES = ("TEMP", "IN", "OUT", "CONST", "IMM", "SV", "ADDR", "SAMP", "SVIEW", "BUFFER", "IMAGE", "MEMORY")
_WORD_POOLS = (OPS, SEMANTIC_NAMES, _TARGETS, _FILES, ("FLOAT", "UINT", "SINT", "ARRAY", "PERSPECTIVE", "CONSTANT"))


def corpus() -> list[str]:
    """Every real program of the lowering's corpus and golden inputs."""
    texts = []
    for folder in CORPUS_DIRS:
        for path in sorted(folder.glob("*.tgsi")):
            texts.append(path.read_text(errors="replace"))
    return texts


def mutate(d, text: str, edits: int | None = None) -> str:
    """``text`` with 1..4 token edits: numbers replaced by field-width edges,
    words by other opcodes / semantics / targets / files, lines deleted,
    duplicated or swapped, the text truncated, a character inserted."""
    for _ in range(edits if edits is not None else d.int(1, 4)):
        kind = d.int(0, 7)
        lines = text.split("\n")
        if kind <= 1:
            spans = [m.span() for m in _NUMBER.finditer(text)]
            if spans:
                a, b = d.choice(spans)
                value = d.choice(INTERESTING)
                text = text[:a] + (str(-value) if d.chance(0.1) else str(value)) + text[b:]
        elif kind <= 3:
            spans = [m.span() for m in _WORD.finditer(text)]
            if spans:
                a, b = d.choice(spans)
                text = text[:a] + d.choice(d.choice(_WORD_POOLS)) + text[b:]
        elif kind == 4 and len(lines) > 2:
            del lines[d.int(1, len(lines) - 1)]
            text = "\n".join(lines)
        elif kind == 5 and len(lines) > 2:
            n = d.int(1, len(lines) - 1)
            lines.insert(n, lines[d.int(1, len(lines) - 1)])
            text = "\n".join(lines)
        elif kind == 6 and len(lines) > 3:
            a, b = d.int(1, len(lines) - 1), d.int(1, len(lines) - 1)
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif text:
            pos = d.int(0, len(text) - 1)
            if d.chance(0.3):
                text = text[:pos]
            else:
                text = text[:pos] + d.choice("[]{},.:-+|_ 0xX9\t\n\x00é") + text[pos:]
    return text


__all__ = ["STAGES", "RandomDraw", "program", "mutate", "corpus"]
