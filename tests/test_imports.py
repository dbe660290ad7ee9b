"""Every module of glpipe, lowering and fallback imports on its own.

Each module is imported first, alone, in a fresh process (forked per
module from an interpreter that has loaded only the standard library and
numpy, none of the watched packages), so an import cycle that only bites when a given
module is the entry point (``python -c "import fallback.indices"``) fails
here, named by the module.  The layering of docs/api.md "Design rules" (docs/host.md
"Packages and imports"): ``lowering`` imports nothing of glpipe, and
neither ``lowering`` nor ``fallback`` pulls in the pipe context, the
screen or the host GL (they run without a GL context).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("glpipe", "lowering", "fallback")

# Modules a lowering / fallback import must not load: the GL-facing half of glpipe.
GL_SIDE = ("glpipe.context", "glpipe.screen", "glpipe.host.gl", "glpipe.resource", "moderngl", "OpenGL")
WATCHED = ("glpipe", "fallback", "moderngl", "OpenGL")


def _modules() -> list:
    """Dotted names of every .py file under the three packages (found on disk,
    not by importing them)."""
    names = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


MODULES = _modules()

# One server interpreter per worker imports what no watched package is
# (numpy, the bulk of every import's time) and then forks one child per module
# name it reads: the child imports that module first of all glpipe / lowering /
# fallback / moderngl / OpenGL modules -- what a fresh interpreter would do --
# and reports the watched modules it loaded.  Per module: a fork instead of an
# interpreter start-up and a numpy import.
_SERVER = """
import json, os, sys, traceback
import numpy  # not watched: no package of ours, and every module's first import
watched = sys.argv[1:]
for line in sys.stdin:
    name = line.strip()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        out = os.fdopen(write, "w")
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # what the import prints is not the report
        try:
            __import__(name)
            loaded = sorted(m for m in sys.modules if m.split(".")[0] in watched)
            out.write(json.dumps({"returncode": 0, "stdout": json.dumps(loaded), "stderr": ""}))
            code = 0
        except BaseException:
            out.write(json.dumps({"returncode": 1, "stdout": "", "stderr": traceback.format_exc()}))
            code = 1
        out.flush()
        os._exit(code)
    os.close(write)
    with os.fdopen(read) as f:
        report = f.read()
    _, status = os.waitpid(pid, 0)
    if not report:
        report = json.dumps({"returncode": status or 1, "stdout": "", "stderr": "the child died"})
    print(json.dumps([name, json.loads(report)]), flush=True)
"""
assert "numpy" not in WATCHED


def _import_each_alone(names: list) -> dict:
    """name -> SimpleNamespace(returncode, stdout, stderr) of importing it alone."""
    # cwd = the repository root and "" first on sys.path (python -c): the
    # worktree's packages, not an installed copy.
    proc = subprocess.run(
        [sys.executable, "-c", _SERVER, *WATCHED],
        input="\n".join(names) + "\n",
        cwd=ROOT,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},  # a single-threaded parent forks cleanly
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        name, report = json.loads(line)
        out[name] = SimpleNamespace(**report)
    return out


@pytest.fixture(scope="module")
def imported() -> dict:
    """module name -> the outcome of importing it alone (two servers at a time)."""
    halves = [MODULES[0::2], MODULES[1::2]]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_import_each_alone, halves))
    return {**results[0], **results[1]}


def test_every_package_has_modules():
    # The discovery itself: a typo in PACKAGES or a moved tree would make the
    # parametrized test below vacuous.
    for pkg in PACKAGES:
        assert pkg in MODULES
    assert "fallback.indices" in MODULES and "lowering.glsl.emitter" in MODULES
    assert len(MODULES) > 60


@pytest.mark.parametrize("name", MODULES)
def test_module_imports_alone(imported, name):
    res = imported[name]
    assert res.returncode == 0, f"import {name} in a fresh interpreter failed:\n{res.stderr}"
    loaded = json.loads(res.stdout.strip().splitlines()[-1])
    top = name.split(".")[0]
    if top in ("lowering", "fallback"):
        gl_side = [m for m in loaded if m in GL_SIDE]
        assert gl_side == [], f"import {name} loaded {gl_side}: lowering/ and fallback/ must not need a GL context"
    if top == "lowering":
        # lowering is below glpipe and fallback: it imports neither.
        above = [m for m in loaded if m.split(".")[0] in ("glpipe", "fallback")]
        assert above == [], f"import {name} loaded {above}: lowering/ must not import glpipe or fallback"
