"""The import graph of glpipe, lowering and fallback, read from the source.

Every ``import`` statement of the three packages -- at module level, inside
functions and methods, under ``if`` -- is an edge, found with ``ast`` (no
module is imported, no GL needed).  The rules (docs/host.md "Packages and
imports"; issue 11 item 3):

* no cycle: no module imports a module that imports it back, directly or
  through others (a function-level import only hides a cycle, it does not
  break it);
* ``lowering`` imports nothing of ``glpipe`` or ``fallback``;
* ``fallback`` imports nothing of ``glpipe`` but its leaf definition modules
  (``LEAF_DEFINITIONS`` below), and those import nothing else of glpipe.

``tests/test_imports.py`` checks the same layering at run time (what a fresh
interpreter actually loads); this test checks what the code says it imports,
including the imports that only run inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("glpipe", "lowering", "fallback")

# The definition modules of glpipe that fallback may import today: enums and the
# format description table, the counterparts of Mesa's include/pipe p_defines.h
# and p_format.h, which every layer of Gallium includes.  They import no other
# glpipe module (checked below).  The list empties when they move to a leaf
# package below all three (see docs/host.md "Packages and imports").
LEAF_DEFINITIONS = frozenset(
    {
        "glpipe.enums",  # Prim (fallback/indices.py)
        "glpipe.format_table",  # FORMAT_TABLE, ChannelType, Format (fallback/format_pack.py)
    }
)


def _module_files() -> dict:
    """Dotted module name -> path, for every .py file of the three packages."""
    files = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


FILES = _module_files()


def _imported(name: str, path: Path) -> set:
    """The modules of the three packages that module ``name`` imports anywhere
    in its body.  ``from X import y`` is an edge to ``X.y`` when that is a
    module, else to ``X``; ``import X.Y`` is an edge to ``X.Y``.  The implicit
    import of a parent package's ``__init__`` is not an edge (every submodule
    would otherwise cycle with a package that re-exports it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def add(target: str) -> None:
        # The longest prefix that is one of our modules (``import glpipe.enums``
        # of a name inside it, or a third-party module: nothing).
        while target and target not in FILES:
            target = target.rpartition(".")[0]
        if target:
            found.add(target)

    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and path.name == "__init__.py" and _is_name(node, "_LAZY"):
            # A package's names loaded on first access (PEP 562 ``__getattr__``
            # over a ``_LAZY`` table of name -> module): import edges too.
            for value in ast.literal_eval(node.value).values():
                module = value if value.startswith(".") else f".{value}"
                add(f"{package}{module}" if module != "." else package)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in FILES else base)
    found.discard(name)
    return found


def _is_name(node: ast.Assign, name: str) -> bool:
    return any(isinstance(t, ast.Name) and t.id == name for t in node.targets)


def _dynamic_imports(path: Path) -> list:
    """Lines calling ``importlib.import_module`` / ``__import__``."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__"))
        )
    ]


GRAPH = {name: _imported(name, path) for name, path in FILES.items()}


def _measured_modules() -> set:
    """Modules named by the ``measure=`` dotted paths of fallback/registry.py:
    glpipe.host.features imports them (importlib) to print a fallback's cost, so
    they are import edges of glpipe.host.features."""
    tree = ast.parse(FILES["fallback.registry"].read_text())
    paths = {
        kw.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for kw in node.keywords
        if kw.arg == "measure" and isinstance(kw.value, ast.Constant)
    }
    return {path.rpartition(".")[0] for path in paths if path}


MEASURED = _measured_modules()
GRAPH["glpipe.host.features"] |= MEASURED


def _cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(result)


def _closure(graph: dict, start: str) -> set:
    seen, todo = set(), [start]
    while todo:
        for w in graph[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def test_graph_sees_every_kind_of_import():
    # The reader itself, on imports it must see: a module-level relative import,
    # a function-level one, ``from . import module``, and an absolute one across
    # packages.  Without these the rules below could pass on an empty graph.
    assert len(FILES) > 60 and "fallback.indices" in FILES
    assert "lowering.glsl.exprs" in GRAPH["lowering.glsl.alu"]  # module level, relative
    assert "glpipe.context" in GRAPH["glpipe.screen"]  # inside a method
    assert "lowering.glsl.exact" in GRAPH["lowering.glsl.alu"]  # from . import exact
    assert "lowering.errors" in GRAPH["glpipe.fence"]  # absolute, other package
    assert "fallback.indices" in GRAPH["glpipe.context"] or any(
        "fallback.indices" in GRAPH[m] for m in FILES if m.startswith("glpipe.")
    )


def test_dynamic_imports_are_lazy_tables():
    # importlib calls are invisible to the statements above; the only ones
    # allowed are a package __init__'s ``__getattr__`` over its ``_LAZY`` table
    # (read as edges: glpipe -> glpipe.context, lowering -> lowering.glsl), and
    # glpipe's submodule-by-attribute access (``glpipe.caps``), which is the
    # package/submodule relation itself.
    # glpipe.host.features imports the registry's ``measure`` modules the same way
    # (read from the registry above as edges of glpipe.host.features).
    found = {name: _dynamic_imports(path) for name, path in FILES.items()}
    assert {name for name, lines in found.items() if lines} == {"glpipe", "lowering", "glpipe.host.features"}
    assert "glpipe.context" in GRAPH["glpipe"] and "lowering.glsl" in GRAPH["lowering"]
    assert MEASURED and all(m in FILES for m in MEASURED)  # every measure path names one of our modules
    assert MEASURED <= GRAPH["glpipe.host.features"]


def test_cycle_finder_finds_a_cycle():
    # The checker on a graph with a known three-module cycle and a self-contained tail.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle():
    cycles = _cycles(GRAPH)
    assert cycles == [], "import cycles (function-level imports included):\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_lowering_imports_nothing_above_it():
    bad = sorted(
        f"{m} imports {t}"
        for m, targets in GRAPH.items()
        if m.split(".")[0] == "lowering"
        for t in targets
        if t.split(".")[0] in ("glpipe", "fallback")
    )
    assert bad == [], "lowering/ is the bottom layer:\n" + "\n".join(bad)


def test_fallback_imports_only_glpipe_definitions():
    bad = sorted(
        f"{m} imports {t}"
        for m in FILES
        if m.split(".")[0] == "fallback"
        for t in _closure(GRAPH, m)
        if t.split(".")[0] == "glpipe" and t not in LEAF_DEFINITIONS
    )
    assert bad == [], "fallback/ may use only glpipe's leaf definitions:\n" + "\n".join(bad)


@pytest.mark.parametrize("leaf", sorted(LEAF_DEFINITIONS))
def test_leaf_definitions_are_leaves(leaf):
    # A leaf imports nothing of glpipe or fallback (lowering.errors at most), so
    # allowing it cannot let the context side in through the back door; and it
    # is on the list only while fallback uses it (a stale entry would widen the rule).
    assert leaf in FILES
    above = sorted(t for t in GRAPH[leaf] if t.split(".")[0] in ("glpipe", "fallback"))
    assert above == []
    assert any(leaf in GRAPH[m] for m in FILES if m.split(".")[0] == "fallback"), f"no fallback module uses {leaf}"
