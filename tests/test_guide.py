"""docs/guide.md runs: its python blocks, executed in order in one namespace
on each host profile, print exactly the output the guide shows after them.

A ``text`` block that follows a python block (with only blank lines between)
is that block's expected stdout; where the profiles differ, the python block is
followed by one block per profile, fenced as ``text native`` / ``text gl33``.  The first program's picture is also
checked against the triangle's geometry worked out here by hand, so the guide
cannot drift into showing a wrong picture that the code happens to print.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np

_GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide.md"


def _blocks() -> list:
    """[(python source, {profile or "": expected stdout})] in the guide's order."""
    text = _GUIDE.read_text(encoding="utf-8")
    fences = list(re.finditer(r"^```(\w*)( \w+)?\n(.*?)^```\n", text, flags=re.M | re.S))
    out = []
    for i, m in enumerate(fences):
        if m.group(1) != "python":
            continue
        expected: dict = {}
        end = m.end()
        for nxt in fences[i + 1 :]:
            if nxt.group(1) != "text" or text[end : nxt.start()].strip():
                break
            expected[(nxt.group(2) or "").strip()] = nxt.group(3)
            end = nxt.end()
        out.append((m.group(3), expected))
    return out


def _expected_coverage() -> np.ndarray:
    """Pixels of the 8 x 8 target the guide's triangle covers, by hand.

    The viewport maps NDC (x, y) to window ((x + 1) * 4, (y + 1) * 4), so the
    vertices (-1, -1), (1, -1), (-1, 0.75) land on window (0, 0), (8, 0),
    (0, 7).  A pixel (i, j) is covered when its centre (i + 0.5, j + 0.5) is
    below the hypotenuse 7x + 8y = 56; no centre lies on an edge
    (7i + 8j = 48.5 has no integer solution), so no tie rule is involved."""
    j, i = np.mgrid[0:8, 0:8]
    return 7 * (i + 0.5) + 8 * (j + 0.5) < 56


def test_guide_has_a_program_and_outputs():
    blocks = _blocks()
    assert len(blocks) >= 10
    assert sum(bool(expected) for _, expected in blocks) >= 8
    for _, expected in blocks:  # one output for all profiles, or one for each
        assert set(expected) in (set(), {""}, {"native", "gl33"}), set(expected)


def test_guide_runs_and_prints_what_it_shows(profile, monkeypatch):
    # The guide calls glpipe.create_screen() with no profile: the environment chooses.
    monkeypatch.setenv("GLPIPE_HOST_PROFILE", profile)
    monkeypatch.delenv("GLPIPE_DEBUG", raising=False)
    namespace: dict = {"__name__": "guide"}
    checked_picture = False
    try:
        for n, (source, expected) in enumerate(_blocks()):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(source, f"docs/guide.md block {n}", "exec"), namespace)
            want = expected.get(profile, expected.get(""))
            if want is not None:
                assert buf.getvalue() == want, f"block {n}:\n{source}"
            if not checked_picture and "pixels" in namespace:
                pixels = namespace["pixels"]
                assert namespace["screen"].profile.name == profile
                covered = _expected_coverage()
                # Inside: the FS colour (1.0, 0.2, 0.0, 1.0) as UNORM8 (x * 255 exactly);
                # outside: the clear colour (0, 0, 0, 1).
                np.testing.assert_array_equal(pixels[covered], np.tile([255, 51, 0, 255], (covered.sum(), 1)))
                np.testing.assert_array_equal(pixels[~covered], np.tile([0, 0, 0, 255], ((~covered).sum(), 1)))
                checked_picture = True
    finally:
        if "screen" in namespace:
            namespace["screen"].destroy()  # a no-op when the guide got to its own destroy()
    assert checked_picture
