"""The documents under docs/ and the README: what they state about the code is
true, their links resolve, and they cite nothing outside the repository.

docs/api.md's template table is the reference for every template's defaults:
each ``field = value`` it writes is checked against a default-constructed
template, and every field whose default is not Gallium's zero must be written
there.  The values come from the document (written from p_state.h and the
rules of docs/api.md), not from the code under test.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import glpipe
from glpipe import templates

_ROOT = Path(__file__).resolve().parents[1]
_DOCS = _ROOT / "docs"
_README = _ROOT / "README.md"

# Documents outside the repository that the docs once cited.
_OUTSIDE = ("../shared", "/work/shared", "API.md", "DESIGN.md", "TGSI.md", "HOST-NOTES")


def _doc_files() -> list:
    return sorted(_DOCS.glob("*.md"))


def _prose(text: str) -> str:
    """``text`` without fenced code blocks and inline code spans (TGSI such as
    ``TEMP[ADDR[0].x](1)`` looks like a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def _links(text: str) -> list:
    return re.findall(r"\]\(([^)\s]+)\)", _prose(text))


# ---------------------------------------------------------------------------
# docs/api.md: the template table
# ---------------------------------------------------------------------------


def _template_rows() -> dict:
    """Template name -> its row's "defaults" cell, from docs/api.md."""
    text = (_DOCS / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## Templates and their defaults") :]
    section = section[: section.index("\n## ", 1)]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `([A-Z]\w+)` \|(.*)\|\s*$", line)
        if m:
            cells = [c.strip() for c in m.group(2).split("|")]
            rows[m.group(1)] = cells[-1]
    return rows


def _documented_defaults(cell: str) -> dict:
    """``field = value`` pairs of a defaults cell, values evaluated over glpipe's names."""
    namespace = {name: getattr(glpipe, name) for name in glpipe.__all__ if hasattr(glpipe, name)}
    return {field: eval(expr, namespace) for field, expr in re.findall(r"`(\w+) = ([^`]+)`", cell)}


def _is_zero(value) -> bool:
    """Gallium's zero: 0, False, None, empty text, or a tuple / template of zeros."""
    if value is None or isinstance(value, str):
        return not value
    if isinstance(value, tuple):
        return all(_is_zero(v) for v in value)
    if dataclasses.is_dataclass(value):
        return value == type(value)()
    return value == 0


def test_template_table_has_every_template():
    rows = _template_rows()
    assert set(rows) == set(templates.__all__)


@pytest.mark.parametrize("name", sorted(templates.__all__))
def test_documented_defaults_are_the_code_defaults(name):
    cls = getattr(templates, name)
    documented = _documented_defaults(_template_rows()[name])
    templ = cls()
    for field, value in documented.items():
        assert hasattr(templ, field), f"docs/api.md: {name}.{field} is not a field"
        assert getattr(templ, field) == value, f"docs/api.md: {name}.{field} = {value!r}"
    undocumented = [
        f.name for f in dataclasses.fields(cls) if not _is_zero(getattr(templ, f.name)) and f.name not in documented
    ]
    assert not undocumented, f"docs/api.md does not give {name}'s non-zero defaults {undocumented}"


# ---------------------------------------------------------------------------
# TGSI shown in the docs parses and validates
# ---------------------------------------------------------------------------


def _tgsi_blocks() -> list:
    out = []
    for path in _doc_files():
        text = path.read_text(encoding="utf-8")
        out += [(path.name, m.group(1)) for m in re.finditer(r"^```tgsi\n(.*?)^```", text, flags=re.M | re.S)]
    return out


def test_docs_show_tgsi():
    assert any(name == "lowering.md" for name, _ in _tgsi_blocks())


@pytest.mark.parametrize("name,text", _tgsi_blocks(), ids=lambda v: v if v.endswith(".md") else "")
def test_doc_tgsi_parses_and_validates(name, text):
    from lowering.parser import parse
    from lowering.validate import validate

    validate(parse(text))


# ---------------------------------------------------------------------------
# Links and citations
# ---------------------------------------------------------------------------


def test_readme_links_every_doc():
    readme = _README.read_text(encoding="utf-8")
    section = readme[readme.index("## Documentation") :]
    linked = {link.split("#", 1)[0] for link in _links(section)}
    missing = [f"docs/{p.name}" for p in _doc_files() if f"docs/{p.name}" not in linked]
    assert not missing, f"README's Documentation section does not link {missing}"


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: p.name)
def test_doc_links_resolve(path):
    for link in _links(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", link) or link.startswith("#"):
            continue  # a URL, or an anchor in the same page
        target = (path.parent / link.split("#", 1)[0]).resolve()
        assert target.exists(), f"{path.name}: link to {link} does not resolve"


@pytest.mark.parametrize("path", _doc_files() + [_README], ids=lambda p: p.name)
def test_docs_cite_nothing_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    found = [name for name in _OUTSIDE if name in text]
    assert not found, f"{path.name} cites {found}, outside the repository (cite docs/ instead)"


# The code, the tests, the benchmarks and the demos cite docs/ too (issue 11
# item 5): a citation of a document outside the repository, in any spelling
# the code has used.  "DESIGN" as a word in capitals is the design document;
# ``spec/...rst`` is Mesa's spec, whose copies live in tests/data/spec (cite
# that path).
_OUTSIDE_IN_CODE = re.compile(
    r"\.\./shared|/work/shared|\bshared/|\bAPI\.md|\bDESIGN\b|TGSI\.md|HOST-NOTES"
    r"|(?<!tests/data/)\bspec/(?:older/)?(?:screen|context)[\w-]*\.rst"
)
_CODE_TREES = ("glpipe", "lowering", "fallback", "tests", "benchmarks", "demos")


def _code_files() -> list:
    """Every .py and .md file of the code trees, minus tests/data (copies of
    outside documents, kept as test input) and this file (which names them)."""
    out = []
    for tree in _CODE_TREES:
        for path in sorted((_ROOT / tree).rglob("*")):
            rel = path.relative_to(_ROOT).as_posix()
            if path.suffix not in (".py", ".md") or rel.startswith("tests/data/") or "__pycache__" in rel:
                continue
            if path == Path(__file__).resolve():
                continue
            out.append(path)
    return out


def test_code_files_are_found():
    names = {p.relative_to(_ROOT).as_posix() for p in _code_files()}
    assert {"glpipe/context.py", "lowering/parser.py", "fallback/registry.py", "tests/conftest.py"} <= names
    assert not any(n.startswith("tests/data/") for n in names)


def test_outside_citation_pattern():
    # Each spelling the code has used is caught; the repository's own paths are not.
    for cited in (
        "see ../shared/TGSI.md §5",
        "shared/HOST-NOTES.md",
        "as API.md says",
        "DESIGN: the general",
        "HOST-NOTES §7",
        "as spec/screen.rst requires",
        "spec/older/screen-000.rst",
    ):
        assert _OUTSIDE_IN_CODE.search(cited), cited
    for own in (
        'docs/api.md "Design rules"',
        'docs/host.md "Quirks"',
        "tests/data/spec/screen.rst",
        "a shared binding",
        "shared memory",
        'docs/lowering.md "TGSI text"',
    ):
        assert not _OUTSIDE_IN_CODE.search(own), own


def test_code_cites_nothing_outside_the_repository():
    found = []
    for path in _code_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _OUTSIDE_IN_CODE.search(line):
                found.append(f"{path.relative_to(_ROOT).as_posix()}:{number}: {line.strip()}")
    assert not found, "cites a document outside the repository (cite docs/ instead):\n" + "\n".join(found)
