"""docs/api.md's Signatures section is the contract: every method that exists on
Screen or Context has exactly the pinned parameters (names and order; for
parameters docs/api.md writes as a type, e.g. ``BlendState``, the position)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import glpipe

_API_MD = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _api_md() -> str:
    return _API_MD.read_text(encoding="utf-8")


def _pinned():
    """[(owner, method, [params])] from the Signatures code block."""
    text = _api_md()
    block = text.split("## Signatures", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    out = []
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        owner = None
        for piece in line.split(";"):
            m = re.match(r"\s*(?:(screen|ctx)\.)?(\w+)\((.*?)\)", piece)
            if not m:
                continue
            owner = m.group(1) or owner
            params = [p.strip() for p in m.group(3).split(",") if p.strip()]
            out.append((owner, m.group(2), params))
    return out


PINNED = _pinned()
# Methods arrive issue by issue; each one present must match its pin.
PRESENT = [(o, n, p) for o, n, p in PINNED if hasattr(glpipe.Screen if o == "screen" else glpipe.Context, n)]
# Screen methods the Context issue brings (fence_finish needs flush's fences).
SCREEN_LATER = {"fence_finish"}


def test_signatures_section_parsed():
    names = {name for _, name, _ in PINNED}
    assert {"get_param", "resource_create", "draw_vbo", "transfer_map", "context_create"} <= names


def test_every_screen_method_is_present():
    missing = {n for o, n, _ in PINNED if o == "screen" and not hasattr(glpipe.Screen, n)}
    assert missing <= SCREEN_LATER


@pytest.mark.parametrize("owner,name,params", PRESENT, ids=[f"{o}.{n}" for o, n, _ in PRESENT])
def test_method_signature(owner, name, params):
    cls = glpipe.Screen if owner == "screen" else glpipe.Context
    method = getattr(cls, name)
    sig = inspect.signature(method)
    actual = [p for p in sig.parameters.values() if p.name != "self"]
    assert len(actual) >= len(params), f"{name}{sig}: docs/api.md pins ({', '.join(params)})"
    for want, have in zip(params, actual, strict=False):  # extra (glpipe-only) keywords may follow
        pname, _, default = want.partition("=")
        if pname[:1].isupper():  # a type written in place of a name
            continue
        assert have.name == pname, f"{name}{sig}: parameter {have.name!r} should be {pname!r}"
        if default:
            assert have.default == eval(default), f"{name}: default of {pname}"
    # parameters beyond the pinned ones must be optional
    for extra in actual[len(params) :]:
        assert extra.default is not inspect.Parameter.empty, f"{name}: extra parameter {extra.name} must be optional"


@pytest.mark.parametrize("owner,name,params", PRESENT, ids=[f"{o}.{n}" for o, n, _ in PRESENT])
def test_method_fully_annotated(owner, name, params):
    """Every pinned method glpipe has carries a type on each parameter and on its
    return (issue 11): the annotations are the machine-checked half of the contract."""
    cls = glpipe.Screen if owner == "screen" else glpipe.Context
    sig = inspect.signature(getattr(cls, name))
    bare = [p.name for p in sig.parameters.values() if p.name != "self" and p.annotation is inspect.Parameter.empty]
    assert not bare, f"{owner}.{name}{sig}: parameters without a type: {bare}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{owner}.{name}{sig}: no return type"


def _part_methods():
    from glpipe.context import PARTS

    names = sorted({m for area in PARTS for m in area.methods})
    screen = sorted(n for n, _ in inspect.getmembers(glpipe.Screen, inspect.isfunction) if not n.startswith("_"))
    return [("ctx", n) for n in names] + [("screen", n) for n in screen]


@pytest.mark.parametrize("owner,name", _part_methods(), ids=[f"{o}.{n}" for o, n in _part_methods()])
def test_public_method_fully_annotated(owner, name):
    """The same for every method the context's parts export (the generated per-stage
    shader methods included) and every public Screen method, pinned or not."""
    cls = glpipe.Screen if owner == "screen" else glpipe.Context
    sig = inspect.signature(getattr(cls, name))
    bare = [p.name for p in sig.parameters.values() if p.name != "self" and p.annotation is inspect.Parameter.empty]
    assert not bare, f"{owner}.{name}{sig}: parameters without a type: {bare}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{owner}.{name}{sig}: no return type"
