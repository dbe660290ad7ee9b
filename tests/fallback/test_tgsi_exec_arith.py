"""The executor's arithmetic breadth (issue 16 item 3), on its own (no GL):
every opcode the lowering's table accepts in a compute program runs, or is
one of the named non-arithmetic groups refused at prepare; the results
against numpy written from tgsi.rst / GLSL 4.50 -- source modifiers on
64-bit operands, two-destination DFRACEXP, ARR, CLOCK, the wrapping and
float atomics in lane order, 64-bit division by zero as Mesa's tgsi_exec,
correctly rounded FMA and 64-bit -> float conversions, transcendentals
within GLSL 4.50 section 4.7.1 -- and BUFFER[ADDR] gathers / scatters."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from fallback.tgsi_exec import SUPPORTED, BufferBinding, Dispatch, prepare, run_grid
from fallback.tgsi_exec.coverage import REFUSED_GROUPS, executor_refuses
from lowering import OPCODES, parse, validate

U32 = np.uint32
HEAD = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH {n}\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"


def run(body: str, n: int, buffers, sizes=None) -> list[np.ndarray]:
    """Run ``body`` (SV[0] = THREAD_ID) over one ``n``-wide block; returns the buffers' words."""
    text = HEAD.format(n=n) + "DCL SV[0], THREAD_ID\n" + body
    prog = prepare(validate(parse(text)).shader, 0)
    binds = {}
    for k, b in enumerate(buffers):
        words = np.ascontiguousarray(b).view(U32).ravel().copy()
        binds[k] = BufferBinding(words, words.nbytes if sizes is None else sizes[k])
    run_grid(prog, Dispatch((n, 1, 1), (1, 1, 1)), binds)
    return [binds[k].words for k in range(len(buffers))]


#: Per-lane frame: TEMP[0] = the lane's vec4 from BUFFER[0], the result TEMP[1] to BUFFER[1].
FRAME = """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..3]
IMM[0] UINT32 {{16, 0, 0, 0}}
{imms}
UMUL TEMP[3].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[0], BUFFER[0], TEMP[3].xxxx
MOV TEMP[1], IMM[0].yyyy
{code}
STORE BUFFER[1].xyzw, TEMP[3].xxxx, TEMP[1]
END
"""


def per_lane(code: str, words: np.ndarray, imms: str = "") -> np.ndarray:
    """``code`` over the vec4 rows of ``words`` (one lane each): the (lanes, 4) result."""
    words = np.ascontiguousarray(words, U32).reshape(-1, 4)
    n = words.shape[0]
    out = run(FRAME.format(imms=imms, code=code), n, [words, np.zeros((n, 4), U32)])[1]
    return out.reshape(n, 4)


def doubles(*values: float) -> np.ndarray:
    return np.array(values, np.float64).view(U32).reshape(-1, 4)


def quads(*values: int) -> np.ndarray:
    return np.array([v & (2**64 - 1) for v in values], np.uint64).view(U32).reshape(-1, 4)


def as_f64(w: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(w, U32).view(np.float64).ravel()


def as_i64(w: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(w, U32).view(np.int64).ravel()


# -- coverage -------------------------------------------------------------------------


def test_every_compute_opcode_runs_or_is_a_refused_group():
    """Every opcode the table accepts in a COMP program has an executor function,
    except the sampling / image-handle / subgroup rows (coverage.REFUSED_GROUPS)."""
    missing = []
    for name, row in OPCODES.items():
        if row.alias_of or (row.stages is not None and "COMP" not in row.stages):
            continue
        if name not in SUPPORTED and not executor_refuses(name):
            missing.append(name)
    assert missing == []
    assert {"VOTE_ANY", "BALLOT", "READ_FIRST", "READ_INVOC"} <= {
        n for n in OPCODES if OPCODES[n].group in REFUSED_GROUPS
    }


# -- modifiers on 64-bit operands ------------------------------------------------------


def test_negate_and_abs_of_doubles_act_on_the_double():
    """-x and |x| on a double operand flip / clear bit 63 of each value (not
    the float32 modifier on each word): DADD -a, |a| is 0 or 2|a|."""
    a = doubles(1.5, -2.25, -0.0, 1e300, 3.0e-310, -7.0)
    got = per_lane("DADD TEMP[1], -TEMP[0], |TEMP[0]|", a)
    x = as_f64(a)
    np.testing.assert_array_equal(as_f64(got), -x + np.abs(x))
    got = per_lane("DMUL TEMP[1], -|TEMP[0]|, TEMP[0]", a)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(as_f64(got), -np.abs(x) * x)


def test_negate_of_int64_is_the_64_bit_twos_complement():
    q = quads(5, -3, 2**32, -(2**63), 0, 2**40 + 1)
    seven = "IMM[1] UINT32 {7, 0, 7, 0}"
    got = per_lane("U64ADD TEMP[1], -TEMP[0], IMM[1]", q, seven)
    x = [int(v) for v in as_i64(q)]
    expect = [(-v + 7) & (2**64 - 1) for v in x]
    assert [int(v) for v in got.view(np.uint64).ravel()] == expect
    got = per_lane("I64MAX TEMP[1], |TEMP[0]|, -TEMP[0]", q)
    expect = [max(abs(v) if v != -(2**63) else v, -v if v != -(2**63) else v) for v in x]
    assert [int(v) for v in as_i64(got)] == expect


# -- two destinations, address rounding, the clock --------------------------------------


def test_dfracexp_writes_significand_and_exponent():
    a = doubles(8.0, -0.375, 0.0, 1e-310, 3.0, -1e300)
    body = FRAME.replace("STORE BUFFER[1].xyzw, TEMP[3].xxxx, TEMP[1]", "STORE BUFFER[1].xyzw, TEMP[3].xxxx, TEMP[2]")
    body = body.format(imms="", code="MOV TEMP[2], IMM[0].yyyy\nDFRACEXP TEMP[1].xy, TEMP[2].x, TEMP[0]")
    n = a.shape[0]
    out = run(body, n, [a, np.zeros((n, 4), U32)])[1].reshape(n, 4)
    m, e = np.frexp(as_f64(a)[0::2])
    np.testing.assert_array_equal(out[:, 0].view(np.int32), e)
    body2 = FRAME.format(imms="", code="MOV TEMP[2], IMM[0].yyyy\nDFRACEXP TEMP[1].xy, TEMP[2].x, TEMP[0]")
    out2 = run(body2, n, [a, np.zeros((n, 4), U32)])[1].reshape(n, 4)
    np.testing.assert_array_equal(np.ascontiguousarray(out2[:, 0:2]).view(np.float64).ravel(), m)


def test_arr_rounds_to_the_nearest_integer_half_up():
    """ARR: dst = (int)round(src) into an ADDR register (Mesa's tgsi_exec:
    floor(x + 0.5)); read back as an integer."""
    vals = np.array([-1.5, -0.5, 0.5, 1.5, 2.49, -2.51, 7.0, 1e10], np.float32)
    words = np.zeros((vals.size, 4), U32)
    words[:, 0] = vals.view(U32)
    code = "DCL ADDR[0]\nARR ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[1].x, ADDR[0].xxxx"
    body = FRAME.format(imms="", code="ARR ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[1].x, ADDR[0].xxxx")
    body = body.replace("DCL TEMP[0..3]", "DCL TEMP[0..3]\nDCL ADDR[0]")
    assert code  # (the two lines above, with ADDR declared)
    n = vals.size
    out = run(body, n, [words, np.zeros((n, 4), U32)])[1].reshape(n, 4)
    expect = np.clip(np.floor(vals.astype(np.float64) + 0.5), -(2**31), 2**31 - 1).astype(np.int32)
    np.testing.assert_array_equal(out[:, 0].view(np.int32), expect)


def test_clock_is_a_monotonic_64_bit_count():
    code = (
        "CLOCK TEMP[1].xy\nUADD TEMP[2].x, TEMP[0].xxxx, TEMP[0].xxxx\nCLOCK TEMP[2].xy\nMOV TEMP[1].zw, TEMP[2].xxxy"
    )
    out = per_lane(code, np.zeros((4, 4), U32)).view(np.uint64)
    first, second = out[:, 0], out[:, 1]
    assert (first > 0).all() and (second >= first).all()
    assert len(set(first.tolist())) == 1  # one reading per instruction for all lanes


# -- atomics in lane order -------------------------------------------------------------------

ATOM = """DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {{4, 0, {limit}, 0}}
IMM[1] FLT32 {{0.1, 3.0e7, 1.0, 0.0}}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
{op} TEMP[1].x, BUFFER[0], IMM[0].yyyy, {value}
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[1].xxxx
END
"""


@pytest.mark.parametrize("op, start, limit", [("ATOMINC_WRAP", 0, 3), ("ATOMDEC_WRAP", 2, 5), ("ATOMINC_WRAP", 9, 4)])
def test_wrapping_atomics_apply_in_lane_order(op, start, limit):
    n = 12
    mem, old = run(ATOM.format(limit=limit, op=op, value="IMM[0].zzzz"), n, [np.array([start], U32), np.zeros(n, U32)])
    v, seq = start, []
    for _ in range(n):
        seq.append(v)
        if op == "ATOMINC_WRAP":  # tgsi.rst: old + 1 while <= src, else 0
            v = v + 1 if v + 1 <= limit else 0
        else:  # 0 < old < src: old - 1, else 0
            v = v - 1 if 0 < v < limit else 0
    np.testing.assert_array_equal(old, seq)
    assert int(mem[0]) == v


def test_float_atomic_add_rounds_each_step_in_lane_order():
    n = 16
    value = "IMM[1].xxxx"
    mem, old = run(
        ATOM.format(limit=0, op="ATOMFADD", value=value), n, [np.array([3.0e7], np.float32), np.zeros(n, U32)]
    )
    acc, seq = np.float32(3.0e7), []
    for _ in range(n):
        seq.append(acc)
        acc = np.float32(acc + np.float32(0.1))
    np.testing.assert_array_equal(old.view(np.float32), seq)
    assert mem.view(np.float32)[0] == acc


# -- 64-bit division by zero, conversions ------------------------------------------------------


def test_64_bit_division_by_zero_gives_tgsi_exec_results():
    """tgsi.rst leaves it open; Mesa's tgsi_exec: U64DIV / U64MOD / I64MOD by 0
    are all ones, I64DIV by 0 is 0; INT64_MIN / -1 wraps, INT64_MIN % -1 is 0."""
    a = quads(12345, -(2**63))  # the dividends of 64-bit lanes 0 and 1
    b = quads(0, -1)  # the divisors
    imm = "IMM[1] UINT32 {" + ", ".join(str(int(w)) for w in b[0]) + "}"
    res = {}
    for op in ("U64DIV", "U64MOD", "I64DIV", "I64MOD"):
        got = per_lane(f"{op} TEMP[1], TEMP[0], IMM[1]", a, imm)
        res[op] = [int(v) for v in got.view(np.uint64).ravel()]
    ones = 2**64 - 1
    assert res["U64DIV"] == [ones, (2**63) // (2**64 - 1)]
    assert res["U64MOD"] == [ones, 2**63 % (2**64 - 1)]
    assert res["I64DIV"] == [0, 2**63]  # INT64_MIN's bits
    assert res["I64MOD"] == [ones, 0]


def _f32_round(q: Fraction) -> float:
    """The float32 nearest the rational ``q`` (ties to even), by exact search."""
    if q == 0:
        return 0.0
    x = float(np.float32(float(q)))  # within one float32 step of the answer
    best = None
    for cand in (
        np.nextafter(np.float32(x), np.float32(-np.inf)),
        np.float32(x),
        np.nextafter(np.float32(x), np.float32(np.inf)),
    ):
        d = abs(Fraction(float(cand)) - q)
        key = (d, int(np.float32(cand).view(U32)) & 1)
        if best is None or key < best[0]:
            best = (key, float(cand))
    return best[1]


def test_64_bit_integers_to_float_round_once():
    """I642F / U642F: correctly rounded (GLSL 4.50: conversions are exact or
    correctly rounded), also where float64 first would round twice."""
    vals = [
        0,
        1,
        -1,
        2**24 + 1,
        2**62 + 2**38 + 1,
        -(2**62 + 2**38 + 1),
        2**63 - 1,
        -(2**63),
        0x8000008000000001,
        2**53 + 1,
    ]
    rng = np.random.default_rng(16)
    vals += [int(v) for v in rng.integers(-(2**63), 2**63 - 1, 40, dtype=np.int64)]
    q = quads(*vals)
    got = per_lane("I642F TEMP[1], TEMP[0]", q)[:, 0:2].view(np.float32).ravel()
    signed = [int(v) for v in as_i64(q)]
    assert [float(g) for g in got] == [_f32_round(Fraction(v)) for v in signed]
    uvals = [v & (2**64 - 1) for v in vals]
    got = per_lane("U642F TEMP[1], TEMP[0]", q)[:, 0:2].view(np.float32).ravel()
    assert [float(g) for g in got] == [_f32_round(Fraction(v)) for v in uvals]


def test_fma_rounds_once_where_float64_would_round_twice():
    """a*b+c with the exact value just below a float32 tie: rounded once it
    goes down; rounded to float64 first it would land on the tie and go up."""
    a, b, c = np.float32(1 + 2**-23), np.float32(2**-24 * (1 - 2**-23)), np.float32(1 + 2**-23)
    words = np.zeros((1, 4), U32)
    words[0, :3] = np.array([a, b, c], np.float32).view(U32)
    got = per_lane("FMA TEMP[1].x, TEMP[0].xxxx, TEMP[0].yyyy, TEMP[0].zzzz", words)[0, 0:1].view(np.float32)[0]
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    assert float(got) == _f32_round(exact) == float(np.float32(1 + 2**-23))


@pytest.mark.parametrize(
    "op, fn, lo, hi, bound",
    [
        # GLSL 4.50 4.7.1: sin / cos absolute 2^-11 on [-pi, pi]; exp2 (3 + 2|x|) ULP; log2 3 ULP.
        ("SIN", np.sin, -math.pi, math.pi, "abs"),
        ("COS", np.cos, -math.pi, math.pi, "abs"),
        ("EX2", np.exp2, -100.0, 100.0, "ulp"),
        ("LG2", np.log2, 1e-30, 1e30, "ulp"),
    ],
)
def test_transcendentals_within_glsl_precision(op, fn, lo, hi, bound):
    rng = np.random.default_rng(len(op))
    x = rng.uniform(lo, hi, 256).astype(np.float32)
    words = np.zeros((x.size, 4), U32)
    words[:, 0] = x.view(U32)
    got = per_lane(f"{op} TEMP[1], TEMP[0].xxxx", words)[:, 0].view(np.float32)
    exact = fn(x.astype(np.float64))
    if bound == "abs":
        assert np.max(np.abs(got - exact)) <= 2.0**-11
    else:
        ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
        allowed = 3 + 2 * np.abs(x.astype(np.float64)) if op == "EX2" else 3
        assert (np.abs(got - exact) <= allowed * ulp).all()
    # Rounded once from float64: within one float32 step of the exact value.
    assert (np.abs(got.astype(np.float64) - exact) <= np.spacing(np.abs(got)).astype(np.float64)).all()


# -- BUFFER[ADDR] ---------------------------------------------------------------------------

INDIRECT = """DCL BUFFER[0..2]
DCL BUFFER[3]
DCL TEMP[0..3]
DCL ADDR[0]
IMM[0] UINT32 {4, 3, 1, 0}
IMM[1] UINT32 {8, 0, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].z, SV[0].xxxx, IMM[1].xxxx
UMOD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
UARL ADDR[0].x, TEMP[0].yyyy
LOAD TEMP[1].x, BUFFER[ADDR[0].x], TEMP[0].xxxx
UADD TEMP[1].x, TEMP[1].xxxx, SV[0].xxxx
STORE BUFFER[ADDR[0].x].x, TEMP[0].xxxx, TEMP[1].xxxx
ATOMUADD TEMP[2].x, BUFFER[ADDR[0].x+1], IMM[0].wwww, IMM[0].zzzz
RESQ TEMP[3].x, BUFFER[ADDR[0].x]
MOV TEMP[2].y, TEMP[3].xxxx
STORE BUFFER[3].xy, TEMP[0].zzzz, TEMP[2].xyyy
END
"""


def test_buffer_index_from_addr_gathers_and_scatters_per_lane():
    """LOAD / STORE / ATOMUADD / RESQ on BUFFER[ADDR[0].x + k]: lane t uses
    buffer t % 3 (+k), clamped to the declared run BUFFER[0..2] (as the GLSL
    lowering's array of blocks); atomics apply in lane order per buffer."""
    n = 12
    bufs = [np.arange(n, dtype=U32) * (10 ** (k + 1)) for k in range(3)] + [np.zeros(2 * n, U32)]
    sizes = [n * 4, n * 4, n * 4 - 4, 2 * n * 4]
    out = run(INDIRECT, n, bufs, sizes)
    t = np.arange(n)
    for k in range(3):
        expect = np.arange(n, dtype=U32) * (10 ** (k + 1))
        lanes = t % 3 == k
        expect[lanes] += t[lanes].astype(U32)
        # word 0 also counts the ATOMUADDs of the lanes whose index + 1 clamps to k
        adds = np.count_nonzero(np.minimum(t % 3 + 1, 2) == k)
        expect[0] += adds
        np.testing.assert_array_equal(out[k][: sizes[k] // 4], expect[: sizes[k] // 4], err_msg=f"BUFFER[{k}]")
    res = out[3].reshape(n, 2)
    for k in range(3):  # ATOMUADD's old values: the adds of earlier lanes on the same buffer
        picked = t[np.minimum(t % 3 + 1, 2) == k]
        # word 0 of every buffer holds 0 when the atomics start (arange * 10^k, lane 0 stores 0 + 0)
        np.testing.assert_array_equal(res[picked, 0], np.arange(picked.size))
    np.testing.assert_array_equal(res[:, 1], [sizes[k % 3] for k in t])


def test_docs_coverage_table_is_generated_from_the_opcode_table():
    """docs/compute.md "Opcode coverage" holds what coverage.markdown() makes
    now (regenerate with ``python -m fallback.tgsi_exec.coverage --write docs/compute.md``)."""
    from pathlib import Path

    from fallback.tgsi_exec import coverage

    page = (Path(__file__).resolve().parents[2] / "docs" / "compute.md").read_text()
    start, end = page.index(coverage.BEGIN), page.index(coverage.END) + len(coverage.END)
    assert page[start:end] == coverage.markdown()
