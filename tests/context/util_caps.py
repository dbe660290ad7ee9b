"""Helpers for tests/context/test_caps_proven*.py: one-call draws of a
fragment (or vertex) program into a small target, a label resolver for
hand-written TGSI with loops and IFs, generators for the shaders that sit
at the per-stage I/O limits, and limits read straight from the host GL
(never through glpipe's caps, which are what the tests check)."""

from __future__ import annotations

import numpy as np

from glpipe import (
    DrawInfo,
    Format,
    Prim,
    RasterizerState,
    ShaderState,
    VertexBuffer,
    VertexElement,
)

from .util import read_rgba32f, render_target
from .util_draw import read_rgba_int, zero_fill

# A VS passing the position through (the only vertex input).
POS_VS = """VERT
DCL IN[0]
DCL OUT[0], POSITION
  0: MOV OUT[0], IN[0]
  1: END
"""

# One triangle covering the whole viewport (clip space).
FULL_TRI = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)

POS_ELEMENT = VertexElement(src_format=Format.R32G32B32A32_FLOAT)

# FS writing its GENERIC[0] input (flat).
FLAT_FS = """FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
  0: MOV OUT[0], IN[0]
  1: END
"""

RED_FS = """FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}
  0: MOV OUT[0], IMM[0]
  1: END
"""


def read_target(screen, color):
    """Texels of an RGBA32F / RGBA32UI / RGBA32I target, shape (h, w, 4)."""
    if color.format == Format.R32G32B32A32_FLOAT:
        return read_rgba32f(screen, color)
    return read_rgba_int(screen, color, signed=color.format == Format.R32G32B32A32_SINT)


def draw(
    ctx,
    fs,
    width=1,
    height=1,
    fmt=Format.R32G32B32A32_FLOAT,
    vs=POS_VS,
    verts=FULL_TRI,
    mode=Prim.TRIANGLES,
    elements=(POS_ELEMENT,),
    before=None,
    **info,
):
    """Bind a zeroed ``width`` x ``height`` target of ``fmt``, ``vs``/``fs``, a
    rasterizer with 1-pixel points, and ``verts`` (user memory); call
    ``before(ctx)`` (extra stages, state); draw; return the texels."""
    color, _ = render_target(ctx, width, height, fmt=fmt)
    zero_fill(ctx.screen, color)
    ctx.bind_vs_state(ctx.create_vs_state(ShaderState(tokens=vs)))
    ctx.bind_fs_state(ctx.create_fs_state(ShaderState(tokens=fs)))
    ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state(list(elements)))
    ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState(point_size=1.0, line_width=1.0)))
    if before is not None:
        before(ctx)
    verts = np.ascontiguousarray(verts)
    ctx.set_vertex_buffers([VertexBuffer(buffer=verts, stride=verts.strides[0])])
    info.setdefault("count", len(verts))
    ctx.draw_vbo(DrawInfo(mode=mode, **info))
    return read_target(ctx.screen, color)


def gl_int(screen, name: str) -> int:
    """An integer GL limit read with raw glGetIntegerv (independent of glpipe)."""
    gl = screen.host.gl
    buf = np.zeros(4, np.int32)
    gl.glGetIntegerv(getattr(gl, name), buf)
    screen.host.clear_errors()
    return int(buf[0])


# ---------------------------------------------------------------------------
# Hand-written TGSI with structured control flow
# ---------------------------------------------------------------------------

_OPENERS = ("IF", "UIF", "BGNLOOP", "BGNSUB")


def number(lines) -> str:
    """Number instruction ``lines`` and add the labels TGSI text carries: IF /
    UIF / ELSE jump to their ELSE / ENDIF, BGNLOOP and ENDLOOP to each other."""
    out = [line.strip() for line in lines]
    labels = {}
    stack = []
    for k, line in enumerate(out):
        op = line.split()[0]
        if op in ("IF", "UIF", "BGNLOOP"):
            stack.append(k)
        elif op == "ELSE":
            labels[stack.pop()] = k
            stack.append(k)
        elif op == "ENDIF":
            labels[stack.pop()] = k
        elif op == "ENDLOOP":
            start = stack.pop()
            labels[start] = k
            labels[k] = start
    assert not stack, "unbalanced control flow"
    return "".join(f"  {k}: {line}{f' :{labels[k]}' if k in labels else ''}\n" for k, line in enumerate(out))


def counted_loop(count_imm: str, body, counter="TEMP[9]", addr="ADDR[0]"):
    """Lines of ``for (i = 0; i < count; i++) { ADDR = i; body }``; ``count_imm``
    is an INT32 immediate component holding 0 in .x, the count in .y, 1 in .z
    (e.g. ``IMM[1]``)."""
    return (
        [
            f"MOV {counter}.x, {count_imm}.xxxx",
            "BGNLOOP",
            f"ISGE {counter}.y, {counter}.xxxx, {count_imm}.yyyy",
            f"UIF {counter}.yyyy",
            "BRK",
            "ENDIF",
            f"UARL {addr}.x, {counter}.xxxx",
        ]
        + list(body)
        + [f"UADD {counter}.x, {counter}.xxxx, {count_imm}.zzzz", "ENDLOOP"]
    )


# ---------------------------------------------------------------------------
# Shaders at the I/O limits: POSITION plus ``n`` GENERIC varyings per stage,
# copied through each stage by a loop with indirect IN / OUT addressing
# ---------------------------------------------------------------------------


def io_vs(n: int) -> str:
    """VS: OUT[0] = position, GENERIC[i] = (i + 1) / 64 * (1, 2, 4, 8) (written
    through OUT[ADDR + 1]; multiplied by the input's w = 1 so the host's
    linker cannot fold the varyings into constants)."""
    head = [
        "VERT",
        "DCL IN[0]",
        "DCL OUT[0], POSITION",
        f"DCL OUT[1..{n}], GENERIC[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        "IMM[0] FLT32 {0.015625, 0.03125, 0.0625, 0.125}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
        "IMM[2] FLT32 {1.0, 1.0, 1.0, 1.0}",
    ]
    body = (
        ["MOV OUT[0], IN[0]"]
        + counted_loop(
            "IMM[1]",
            [
                "I2F TEMP[1].x, TEMP[9].xxxx",
                "ADD TEMP[1].x, TEMP[1].xxxx, IN[0].wwww",
                "MUL TEMP[1], TEMP[1].xxxx, IMM[0]",
                "MOV OUT[ADDR[0].x+1], TEMP[1]",
            ],
        )
        + ["END"]
    )
    return "\n".join(head) + "\n" + number(body)


def io_gs(n: int) -> str:
    """GS: a triangle in, the same triangle out, every GENERIC copied through
    IN[v][ADDR + 1] -> OUT[ADDR + 1]."""
    head = [
        "GEOM",
        "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES",
        "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP",
        "PROPERTY GS_MAX_OUTPUT_VERTICES 3",
        "PROPERTY GS_INVOCATIONS 1",
        "DCL IN[][0], POSITION",
        f"DCL IN[][1..{n}], GENERIC[0]",
        "DCL OUT[0], POSITION",
        f"DCL OUT[1..{n}], GENERIC[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        "IMM[0] INT32 {0, 0, 0, 0}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
    ]
    body = []
    for v in range(3):
        body += (
            [f"MOV OUT[0], IN[{v}][0]"]
            + counted_loop("IMM[1]", [f"MOV OUT[ADDR[0].x+1], IN[{v}][ADDR[0].x+1]"])
            + ["EMIT IMM[0].xxxx"]
        )
    return "\n".join(head) + "\n" + number(body + ["END"])


def io_tcs(n: int) -> str:
    """TCS: 3 output vertices, each invocation copying its vertex's
    GENERICs (OUT[ADDR[1]][ADDR[0] + 1] = IN[ADDR[1]][ADDR[0] + 1]); levels 1."""
    head = [
        "TESS_CTRL",
        "PROPERTY TCS_VERTICES_OUT 3",
        "DCL IN[][0], POSITION",
        f"DCL IN[][1..{n}], GENERIC[0]",
        "DCL SV[0], INVOCATIONID",
        "DCL OUT[][0], POSITION",
        f"DCL OUT[][1..{n}], GENERIC[0]",
        f"DCL OUT[{n + 1}], TESSOUTER",
        f"DCL OUT[{n + 2}], TESSINNER",
        "DCL TEMP[0..9]",
        "DCL ADDR[0..1]",
        "IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
    ]
    body = (
        ["UARL ADDR[1].x, SV[0].xxxx", "MOV OUT[ADDR[1].x][0], IN[ADDR[1].x][0]"]
        + counted_loop("IMM[1]", ["MOV OUT[ADDR[1].x][ADDR[0].x+1], IN[ADDR[1].x][ADDR[0].x+1]"])
        + [f"MOV OUT[{n + 1}], IMM[0]", f"MOV OUT[{n + 2}], IMM[0]", "END"]
    )
    return "\n".join(head) + "\n" + number(body)


def io_tes(n: int) -> str:
    """TES (triangles, level 1): barycentric position, corner 0's GENERICs
    copied through IN[0][ADDR + 1] -> OUT[ADDR + 1]."""
    head = [
        "TESS_EVAL",
        "PROPERTY TES_PRIM_MODE 4",
        "PROPERTY TES_SPACING 0",
        "PROPERTY TES_VERTEX_ORDER_CW 0",
        "PROPERTY TES_POINT_MODE 0",
        "DCL IN[][0], POSITION",
        f"DCL IN[][1..{n}], GENERIC[0]",
        "DCL SV[0], TESSCOORD",
        "DCL OUT[0], POSITION",
        f"DCL OUT[1..{n}], GENERIC[0]",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        "IMM[0] INT32 {0, 0, 0, 0}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
    ]
    body = (
        [
            "MUL TEMP[0], SV[0].xxxx, IN[0][0]",
            "MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]",
            "MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]",
            "MOV OUT[0], TEMP[0]",
        ]
        + counted_loop("IMM[1]", ["MOV OUT[ADDR[0].x+1], IN[0][ADDR[0].x+1]"])
        + ["END"]
    )
    return "\n".join(head) + "\n" + number(body)


def io_fs(n: int) -> str:
    """FS: sum over i of GENERIC[i] * (i + 1), read through IN[ADDR]."""
    head = [
        "FRAG",
        f"DCL IN[0..{n - 1}], GENERIC[0], CONSTANT",
        "DCL OUT[0], COLOR",
        "DCL TEMP[0..9]",
        "DCL ADDR[0]",
        "IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}",
        f"IMM[1] INT32 {{0, {n}, 1, 0}}",
        "IMM[2] FLT32 {1.0, 1.0, 1.0, 1.0}",
    ]
    body = (
        ["MOV TEMP[0], IMM[0]"]
        + counted_loop(
            "IMM[1]",
            [
                "I2F TEMP[1].x, TEMP[9].xxxx",
                "ADD TEMP[1].x, TEMP[1].xxxx, IMM[2].xxxx",
                "MAD TEMP[0], IN[ADDR[0].x], TEMP[1].xxxx, TEMP[0]",
            ],
        )
        + ["MOV OUT[0], TEMP[0]", "END"]
    )
    return "\n".join(head) + "\n" + number(body)


def io_expected(n: int) -> np.ndarray:
    """What io_fs(n) computes from io_vs(n)'s varyings, by hand:
    sum_{i<n} (i + 1)^2 / 64 * (1, 2, 4, 8)."""
    s = sum((i + 1) ** 2 for i in range(n)) / 64.0
    return np.array([s, 2 * s, 4 * s, 8 * s], np.float32)


# ---------------------------------------------------------------------------
# A pipeline of every stage, each adding a value of its own to GENERIC[0]
# ---------------------------------------------------------------------------

#: Pipeline order of the stages ``stage_chain`` builds.
CHAIN_ORDER = ("VS", "TCS", "TES", "GS", "FS")


def stage_chain(stages, extra) -> dict:
    """TGSI for each of ``stages`` (names from CHAIN_ORDER; VS and FS always
    present) where a stage computes TEMP[5] with ``extra[stage] = (decls,
    imms, code)`` (lines; immediates numbered from 0) and adds it to the
    GENERIC[0] it passes on; the FS writes GENERIC[0] + its TEMP[5].  The VS
    starts from 0; TCS/TES pass a triangle patch at level 1, the GS the
    triangle."""
    out = {}
    for stage in stages:
        decls, imms, code = extra.get(stage, ((), (), ("MOV TEMP[5], IMM[0].xxxx",)))
        if stage not in extra:
            imms = ("IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}",)
        k = len(imms)
        own = f"IMM[{k}]"
        if stage == "VS":
            head = ["VERT", "DCL IN[0]", "DCL OUT[0], POSITION", "DCL OUT[1], GENERIC[0]"]
            tail = ["MOV OUT[0], IN[0]", "MOV OUT[1], TEMP[5]"]
            own_imm = "FLT32 {0.0, 0.0, 0.0, 0.0}"
        elif stage == "TCS":
            head = [
                "TESS_CTRL",
                "PROPERTY TCS_VERTICES_OUT 3",
                "DCL IN[][0], POSITION",
                "DCL IN[][1], GENERIC[0]",
                "DCL SV[0], INVOCATIONID",
                "DCL OUT[][0], POSITION",
                "DCL OUT[][1], GENERIC[0]",
                "DCL OUT[2], TESSOUTER",
                "DCL OUT[3], TESSINNER",
                "DCL ADDR[0]",
            ]
            tail = [
                "UARL ADDR[0].x, SV[0].xxxx",
                "MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]",
                "ADD OUT[ADDR[0].x][1], IN[ADDR[0].x][1], TEMP[5]",
                f"MOV OUT[2], {own}",
                f"MOV OUT[3], {own}",
            ]
            own_imm = "FLT32 {1.0, 1.0, 1.0, 1.0}"
        elif stage == "TES":
            head = [
                "TESS_EVAL",
                "PROPERTY TES_PRIM_MODE 4",
                "PROPERTY TES_SPACING 0",
                "PROPERTY TES_VERTEX_ORDER_CW 0",
                "PROPERTY TES_POINT_MODE 0",
                "DCL IN[][0], POSITION",
                "DCL IN[][1], GENERIC[0]",
                "DCL SV[0], TESSCOORD",
                "DCL OUT[0], POSITION",
                "DCL OUT[1], GENERIC[0]",
            ]
            tail = [
                "MUL TEMP[0], SV[0].xxxx, IN[0][0]",
                "MAD TEMP[0], SV[0].yyyy, IN[1][0], TEMP[0]",
                "MAD TEMP[0], SV[0].zzzz, IN[2][0], TEMP[0]",
                "MOV OUT[0], TEMP[0]",
                "ADD OUT[1], IN[0][1], TEMP[5]",
            ]
            own_imm = "FLT32 {0.0, 0.0, 0.0, 0.0}"
        elif stage == "GS":
            head = [
                "GEOM",
                "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES",
                "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP",
                "PROPERTY GS_MAX_OUTPUT_VERTICES 3",
                "PROPERTY GS_INVOCATIONS 1",
                "DCL IN[][0], POSITION",
                "DCL IN[][1], GENERIC[0]",
                "DCL OUT[0], POSITION",
                "DCL OUT[1], GENERIC[0]",
            ]
            tail = []
            for v in range(3):
                tail += [f"MOV OUT[0], IN[{v}][0]", f"ADD OUT[1], IN[{v}][1], TEMP[5]", f"EMIT {own}.xxxx"]
            own_imm = "INT32 {0, 0, 0, 0}"
        else:  # FS
            head = ["FRAG", "DCL IN[0], GENERIC[0], CONSTANT", "DCL OUT[0], COLOR"]
            tail = ["ADD OUT[0], IN[0], TEMP[5]"]
            own_imm = "FLT32 {0.0, 0.0, 0.0, 0.0}"
        text = (
            "\n".join(head + list(decls) + ["DCL TEMP[0..9]"] + list(imms) + [f"{own} {own_imm}"])
            + "\n"
            + number(list(code) + tail + ["END"])
        )
        out[stage] = text
    return out


def bind_chain(ctx, shaders: dict) -> None:
    """Create and bind the stages of a ``stage_chain`` (and 3-vertex patches)."""
    from glpipe import ShaderState as SS

    ctx.bind_vs_state(ctx.create_vs_state(SS(tokens=shaders["VS"])))
    ctx.bind_fs_state(ctx.create_fs_state(SS(tokens=shaders["FS"])))
    if "GS" in shaders:
        ctx.bind_gs_state(ctx.create_gs_state(SS(tokens=shaders["GS"])))
    if "TCS" in shaders:
        ctx.bind_tcs_state(ctx.create_tcs_state(SS(tokens=shaders["TCS"])))
        ctx.bind_tes_state(ctx.create_tes_state(SS(tokens=shaders["TES"])))
        ctx.set_patch_vertices(3)


def chain_stages(screen) -> tuple:
    """The CHAIN_ORDER stages this profile runs (TCS/TES need tessellation)."""
    tess = screen.profile.has("tessellation_shader")
    return tuple(s for s in CHAIN_ORDER if tess or s not in ("TCS", "TES"))
