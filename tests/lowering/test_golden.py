"""Golden files: TGSI in ``in/`` lowered to the GLSL in ``out/`` (see golden_cases.py).

The goldens are snapshots of reviewed GLSL: a change to the emitter that
changes any of them shows up here as a diff to review.  Besides the
snapshots this module checks properties that hold for every golden (a
``#version`` line of the requested version, no ``#extension`` outside the
allowed set, reflection consistent with the source) and that the inputs
cover every opcode of the opcode table and every shader stage.
"""

from __future__ import annotations

import re

import golden_cases as G
import pytest

from lowering.errors import UnsupportedError
from lowering.glsl.handlers import HANDLERS
from lowering.ir import PROCESSORS
from lowering.opcodes import OPCODES

NAMES = G.names()


def _compare(path, text: str) -> None:
    if G.UPDATE:
        path.write_text(text)
        return
    assert path.exists(), f"missing golden {path.name} (run with GLPIPE_UPDATE_GOLDEN=1 and review it)"
    expected = path.read_text()
    assert text == expected, f"{path.name} differs from the reviewed golden"


def _lower_or_error(name: str, version: int, suffix: str):
    """Lower ``name``; an UnsupportedError is compared with ``out/<name><suffix>.err``.
    Returns the shader, or None when the (expected) error was raised."""
    glsl = G.OUT_DIR / f"{name}{suffix}.glsl"
    err = G.OUT_DIR / f"{name}{suffix}.err"
    try:
        shader = G.lower(name, version)
    except UnsupportedError as exc:
        if G.UPDATE:
            glsl.unlink(missing_ok=True)
        assert not glsl.exists(), f"{name} lowered at {version} before, now raises: {exc}"
        _compare(err, str(exc) + "\n")
        return None
    if G.UPDATE:
        err.unlink(missing_ok=True)
    assert not err.exists(), f"{name} is expected to raise at {version} ({err.read_text().strip()})"
    _compare(glsl, shader.source)
    return shader


@pytest.mark.parametrize("name", NAMES)
def test_golden_450(name):
    shader = _lower_or_error(name, 450, "")
    if shader is None:
        return
    assert shader.source.startswith("#version 450 core\n")
    for ext in shader.reflection.extensions:
        assert ext in G.GOLDEN_EXTENSIONS
        assert f"#extension {ext} : require" in shader.source


@pytest.mark.parametrize("name", NAMES)
def test_golden_330(name):
    shader = _lower_or_error(name, 330, ".330")
    if shader is None:
        return
    assert shader.source.startswith("#version 330 core\n")
    assert "#extension" not in shader.source
    assert "layout(binding" not in shader.source, "GLSL 330 has no binding qualifier"
    assert shader.reflection.needs_manual_binding


# Goldens that lower at 450 (the others are expected-UnsupportedError .err goldens).
LOWERABLE_450 = [n for n in NAMES if not (G.OUT_DIR / f"{n}.err").exists()]


def _element(name: str, slot: int):
    """(array name, binding of element 0) for an array element ``name[e]`` bound at
    ``slot`` (consecutive bindings: element e at first + e), else None."""
    m = re.fullmatch(r"(\w+)\[(\d+)\]", name)
    return None if m is None else (m.group(1), slot - int(m.group(2)))


@pytest.mark.parametrize("name", LOWERABLE_450)
def test_reflection_matches_source(name):
    """Every binding the reflection lists names a block / sampler the source declares."""
    shader = G.lower(name, 450)
    refl = shader.reflection
    src = shader.source
    for cb in refl.constant_buffers:
        assert re.search(rf"binding = {cb.binding}\) uniform {cb.block_name}\b", src)
    for s in refl.samplers:
        if _element(s.name, s.unit) is None:
            assert f"layout(binding = {s.unit}) uniform {s.glsl_type} {s.name};" in src
        else:  # element e of a sampler array (an indexed range): units base + e
            base, first = _element(s.name, s.unit)
            assert re.search(rf"layout\(binding = {first}\) uniform {s.glsl_type} {base}\[\d+\];", src)
    for b in refl.shader_buffers:
        if _element(b.block_name, b.binding) is None:
            assert re.search(rf"binding = {b.binding}\).*buffer {b.block_name}\b", src)
        else:
            base, first = _element(b.block_name, b.binding)
            assert re.search(rf"binding = {first}\).*buffer {base}\b", src)
    for im in refl.images:
        if _element(im.name, im.unit) is None:
            assert re.search(rf"binding = {im.unit}\).*{im.glsl_type} {im.name};", src)
        else:
            base, first = _element(im.name, im.unit)
            assert re.search(rf"binding = {first}\).*{im.glsl_type} {base}\[\d+\];", src)
    if refl.sysvals_binding is not None:
        assert f"binding = {refl.sysvals_binding}) uniform glp_sysvals" in src
    names = dict(refl.uniform_block_bindings)
    for cb in refl.constant_buffers:
        assert names[cb.block_name] == cb.binding
    units = dict(refl.sampler_units)
    for s in refl.samplers:
        assert units[s.name] == s.unit


def _opcodes_in_inputs():
    import lowering

    used = set()
    for name in NAMES:
        shader = lowering.parse(G.read_input(name))
        used |= {inst.opcode for inst in shader.instructions}
    return used


def test_inputs_cover_every_opcode():
    """Each opcode of the table (aliases resolve to their targets) is in some golden input."""
    used = _opcodes_in_inputs()
    wanted = {name for name, info in OPCODES.items() if not info.alias_of}
    missing = sorted(wanted - used)
    assert not missing, f"opcodes without a golden input: {missing}"


def test_every_opcode_has_a_handler():
    wanted = {name for name, info in OPCODES.items() if not info.alias_of}
    assert sorted(wanted - set(HANDLERS)) == []


def test_inputs_cover_every_stage():
    import lowering

    stages = {lowering.parse(G.read_input(name)).processor for name in NAMES}
    assert stages == set(PROCESSORS)


def test_enough_goldens():
    assert len(NAMES) >= 40


def test_docs_list_every_opcode():
    """docs/lowering.md's coverage table has a row per opcode of the table."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "lowering.md").read_text()
    rows = {line.split("|")[1].strip() for line in doc.splitlines() if line.startswith("| ")}
    assert sorted(set(OPCODES) - rows) == []
