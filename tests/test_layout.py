"""The folder layout shows the architecture (issue 11 item 4).

glpipe's modules are named for what they hold, and groups that are real are
subpackages: ``glpipe.raster`` (the rasterizer CSO and its emulations) and
``glpipe.host`` (the host GL: context, entry points, features).  Old names
are gone, with no shim left behind (a stale import fails loudly).  Found on
disk and by import (no GL context needed: the modules import without one).
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]

# Subpackage -> the modules it groups.
SUBPACKAGES = {
    "glpipe.raster": ("rasterizer", "rasterizer_keys", "line_stipple", "polygon_edges", "fill_modes", "vertex_capture"),
    "glpipe.host": ("gl", "hotgl", "features", "facts", "shadow"),
}

# Old module -> where its contents live now.
MOVED = {
    "glpipe.defs": "glpipe.enums",
    "glpipe.state": "glpipe.templates",
    "glpipe.rasterizer": "glpipe.raster.rasterizer",
    "glpipe.rasterizer_keys": "glpipe.raster.rasterizer_keys",
    "glpipe.line_stipple": "glpipe.raster.line_stipple",
    "glpipe.polygon_edges": "glpipe.raster.polygon_edges",
    "glpipe.fill_modes": "glpipe.raster.fill_modes",
    "glpipe.vertex_capture": "glpipe.raster.vertex_capture",
    "glpipe.hotgl": "glpipe.host.hotgl",
    "glpipe.features": "glpipe.host.features",
    "glpipe.host_facts": "glpipe.host.facts",
    "glpipe.shadow": "glpipe.host.shadow",
    "glpipe.constants": "glpipe.constant_buffers",
}


def _file(name: str) -> Path:
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


@pytest.mark.parametrize("package", sorted(SUBPACKAGES))
def test_subpackage_holds_its_group(package):
    folder = ROOT.joinpath(*package.split("."))
    assert (folder / "__init__.py").is_file(), f"{package} is not a package"
    on_disk = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    missing = set(SUBPACKAGES[package]) - on_disk
    assert not missing, f"{package} lacks {sorted(missing)}"
    for module in SUBPACKAGES[package]:
        importlib.import_module(f"{package}.{module}")


@pytest.mark.parametrize("package", sorted(SUBPACKAGES))
def test_subpackage_init_defines_nothing(package):
    # The package's __init__ is its docstring: importing glpipe.host.features
    # (a leaf table) must not load the host GL through the package.
    import ast

    tree = ast.parse(_file(package + ".__init__").read_text(encoding="utf-8"))
    body = tree.body[1:] if ast.get_docstring(tree) else tree.body
    assert ast.get_docstring(tree), f"{package} has no docstring"
    assert all(isinstance(node, ast.ImportFrom) and node.module == "__future__" for node in body), (
        f"{package}/__init__.py defines or imports something"
    )


@pytest.mark.parametrize("old,new", sorted(MOVED.items()))
def test_old_name_is_gone(old, new):
    assert not _file(old).exists(), f"{old} still exists beside {new}"
    assert importlib.util.find_spec(old) is None, f"{old} still imports (no shims)"
    assert _file(new).is_file(), f"{new} is missing"


def test_host_gl_is_the_host_module():
    # glpipe.host is a package; the HostGL lives in glpipe.host.gl.
    assert not (ROOT / "glpipe" / "host.py").exists()
    gl = importlib.import_module("glpipe.host.gl")
    assert callable(gl.create_host) and hasattr(gl, "HostGL")


def test_enums_and_templates_keep_the_public_names():
    # Users import from ``glpipe``: the rename changes no public name.
    import glpipe

    enums = importlib.import_module("glpipe.enums")
    templates = importlib.import_module("glpipe.templates")
    for module in (enums, templates):
        for name in module.__all__:
            assert getattr(glpipe, name) is getattr(module, name), name
    assert glpipe.Cap is enums.Cap and glpipe.RasterizerState is templates.RasterizerState
