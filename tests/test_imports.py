"""Every module of glpipe, lowering and fallback imports on its own.

Each module is imported first, alone, in a fresh interpreter (one
subprocess per module), so an import cycle that only bites when a given
module is the entry point (``python -c "import fallback.indices"``) fails
here, named by the module.  The layering of docs/api.md "Design rules" (docs/host.md
"Packages and imports"): ``lowering`` imports nothing of glpipe, and
neither ``lowering`` nor ``fallback`` pulls in the pipe context, the
screen or the host GL (they run without a GL context).
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

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

# The child prints the loaded modules of the watched top-level packages.
_CHILD = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in sys.argv[2:])))
"""


def _import_alone(name: str):
    # cwd = the repository root and "" first on sys.path (python -c): the
    # worktree's packages, not an installed copy.
    return subprocess.run(
        [sys.executable, "-c", _CHILD, name, *WATCHED], cwd=ROOT, capture_output=True, text=True, timeout=240
    )


@pytest.fixture(scope="module")
def imported() -> dict:
    """module name -> CompletedProcess of importing it alone (run two at a time)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(MODULES, pool.map(_import_alone, MODULES), strict=True))


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
