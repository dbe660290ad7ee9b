"""The command-line faces: ``python -m glpipe info`` and the installed
``glpipe-info`` console script (pyproject ``[project.scripts]``).

The console script is run the way pip's generated wrapper runs it: import
the ``module:function`` pyproject names, ``sys.argv[0] = "glpipe-info"``,
no further arguments, ``sys.exit(function())``.  Its output must be the
report ``python -m glpipe info`` prints.  A reader that stops early (``|
head``) must not get a BrokenPipeError traceback.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]


def _script_target(name: str) -> tuple[str, str]:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, func = scripts[name].partition(":")
    return module, func


def _run(args, **kw):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300, **kw)


def _console_script(name: str, *args):
    module, func = _script_target(name)
    wrapper = f"import sys; sys.argv = [{name!r}] + sys.argv[1:]; from {module} import {func}; sys.exit({func}())"
    return _run(["-c", wrapper, *args])


@pytest.mark.parametrize(
    "extra", [[], ["--profile", "gl33"], ["--json", "--profile", "native"]], ids=["default", "gl33", "json"]
)
def test_glpipe_info_script_prints_the_info_report(extra):
    script = _console_script("glpipe-info", *extra)
    assert script.returncode == 0, script.stderr
    module = _run(["-m", "glpipe", "info", *extra])
    assert module.returncode == 0, module.stderr
    # Fallback costs are measured at each run (e.g. "DXT5_RGBA 111 ms/MB").
    measured = re.compile(r"\d+ ms/MB")
    assert measured.sub("N ms/MB", script.stdout) == measured.sub("N ms/MB", module.stdout)
    assert "PIPE_CAP_MAX_TEXTURE_2D_SIZE" in script.stdout or '"MAX_TEXTURE_2D_SIZE"' in script.stdout


def test_glpipe_info_script_rejects_unknown_arguments():
    res = _console_script("glpipe-info", "--bogus")
    assert res.returncode == 2
    assert "glpipe-info" in res.stderr and "--bogus" in res.stderr


def test_module_still_requires_a_command():
    res = _run(["-m", "glpipe"])
    assert res.returncode == 2 and "info" in res.stderr


def _closed_pipe_run(args):
    """Run with stdout a pipe whose reading end is already closed: every
    write fails with EPIPE, as when ``| head`` has exited (deterministic,
    whatever the pipe buffer size)."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run(
            [sys.executable, *args], cwd=ROOT, stdout=w, stderr=subprocess.PIPE, text=True, timeout=300
        )
    finally:
        os.close(w)


@pytest.mark.parametrize("args", [["-m", "glpipe", "info"], ["-m", "glpipe", "info", "--json"]], ids=["text", "json"])
def test_info_into_a_closed_pipe_is_quiet(args):
    res = _closed_pipe_run(args)
    assert "Traceback" not in res.stderr and "BrokenPipeError" not in res.stderr, res.stderr
    assert "Exception ignored" not in res.stderr, res.stderr
    assert res.returncode == 141  # 128 + SIGPIPE, what a shell reports for `yes | head`


def test_info_piped_into_head():
    # The real thing through a shell: only head's lines, nothing on stderr.
    cmd = f"'{sys.executable}' -m glpipe info | head -n 3"
    res = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0
    assert res.stdout.splitlines() == ["glpipe info", "===========", ""]
    assert res.stderr == ""
