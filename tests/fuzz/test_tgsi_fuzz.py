"""TGSI fuzzing, bounded for CI (issue 12 items 2 and 8).

* Programs generated from the grammar (every stage, valid and with bad
  operands) and real programs mutated token by token go through parse,
  validate and the GLSL emitter: only PipeError subclasses may come out, and
  never an "internal error".
* A generated corpus of valid programs (fixed seeds) is created with glpipe and drawn on
  both host profiles: each one either is refused at create (naming why) or
  compiles and links -- "internal error: the host rejected / could not link"
  fails the test.

The examples are derandomized (the same programs every run); the long,
random campaigns are scripts/fuzz_tgsi.py's, recorded in docs/robustness.md.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings

from .tgsi_grammar import RandomDraw, program
from .tgsi_runner import HostDraw, InternalError, lower
from .tgsi_strategies import mutated_programs, programs

_CI = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@settings(_CI, max_examples=600)
@given(programs())
def test_generated_programs_only_raise_pipe_errors(text):
    # lower() lets every exception but a PipeError through, and turns an
    # "internal error" PipeError into an AssertionError.
    assert lower(text)


@settings(_CI, max_examples=600)
@given(mutated_programs())
def test_mutated_corpus_programs_only_raise_pipe_errors(text):
    assert lower(text)


# The generated corpus of valid programs: fixed seeds of the grammar (the same
# programs every run, every stage), TCS / TES clip distances their partner
# lacks included (fixed: VariantKey.tess_clip_cull, docs/robustness.md).
CORPUS_SEEDS = range(150)


def test_valid_corpus_compiles_and_links_on_the_host(profile):
    from conftest import get_screen

    drawer = HostDraw(profile, get_screen(profile))
    outcomes: Counter = Counter()
    failures = []
    try:
        for seed in CORPUS_SEEDS:
            text = program(RandomDraw(seed), valid=True)
            try:
                outcomes[drawer.run(text)] += 1
            except InternalError as exc:
                failures.append(f"seed {seed}:\n{text}\n{str(exc)[:1500]}")
    finally:
        drawer.close()
    assert not failures, f"{len(failures)} valid programs the host rejected:\n\n" + "\n\n".join(failures[:3])
    # The corpus reaches the host: programs are drawn (or, compute, compiled) --
    # most on native; on gl33 most use a stage or an opcode GL 3.3 lacks
    # (tessellation, compute, 64-bit types, subgroups: UnsupportedError at create).
    reached = outcomes["drawn"] + outcomes["compiled"]
    assert reached >= len(CORPUS_SEEDS) // (2 if profile == "native" else 10), outcomes
