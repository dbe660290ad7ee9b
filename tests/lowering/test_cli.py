"""``python -m lowering``: prints the GLSL, or the error with exit status 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import golden_cases as G

from lowering.__main__ import main

REPO = Path(__file__).resolve().parents[2]


def test_prints_the_golden_glsl(capsys):
    assert main([str(G.IN_DIR / "core_arith.tgsi"), "--glsl-version", "450"]) == 0
    assert capsys.readouterr().out == (G.OUT_DIR / "core_arith.glsl").read_text()


def test_glsl_330_and_key(capsys):
    args = [
        str(G.IN_DIR / "fs_color0_all_cbufs.tgsi"),
        "--glsl-version",
        "330",
        "--key",
        "color_output_types=float,float,uint",
        "--key",
        "nr_cbufs=3",
    ]
    assert main(args) == 0
    assert capsys.readouterr().out == (G.OUT_DIR / "fs_color0_all_cbufs.330.glsl").read_text()


def test_parse_error_reports_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.tgsi"
    bad.write_text("FRAG\nDCL OUT[0], COLOR\nMOVE OUT[0], OUT[0]\nEND\n")
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:3:1: expected")


def test_validation_error(tmp_path, capsys):
    bad = tmp_path / "bad.tgsi"
    bad.write_text("FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], TEMP[3]\nEND\n")
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert "invalid shader" in err and "TEMP[3]" in err


def test_unsupported_names_opcode_and_feature(capsys):
    # (CLOCK: no GLSL version has it, GL_ARB_shader_clock only; double opcodes are
    # emulated at 330 now, lowering/glsl/soft_fp64.py)
    assert main([str(G.IN_DIR / "misc_clock.tgsi"), "--glsl-version", "330"]) == 1
    err = capsys.readouterr().err
    assert "unsupported at GLSL 330" in err
    assert "CLOCK needs GL_ARB_shader_clock" in err
    # FILE:line of the first instruction the target cannot express
    lines = (G.IN_DIR / "misc_clock.tgsi").read_text().splitlines()
    first = next(n for n, text in enumerate(lines, 1) if ": CLOCK" in text)
    assert f"misc_clock.tgsi:{first}: unsupported" in err


def test_extensions_option_enables_feature(capsys):
    args = [
        str(G.IN_DIR / "double_arith.tgsi"),
        "--glsl-version",
        "330",
        "--extensions",
        "GL_ARB_gpu_shader_fp64,GL_ARB_gpu_shader5",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "#version 330 core\n#extension GL_ARB_gpu_shader_fp64 : require\n#extension GL_ARB_gpu_shader5 : require\n"
    )


def test_bad_key(capsys):
    assert main([str(G.IN_DIR / "core_arith.tgsi"), "--key", "nosuchfield=1"]) == 1
    assert "unknown VariantKey field 'nosuchfield'" in capsys.readouterr().err


def test_reflection_json(capsys):
    assert main([str(G.IN_DIR / "core_arith.tgsi"), "--reflection"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out[out.index('\n{\n  "stage"') + 1 :])
    assert data["stage"] == "FRAG"
    assert data["constant_buffers"][0]["index"] == 0
    assert data["constant_buffers"][0]["size"] == 2


def test_missing_file(capsys):
    assert main(["/nonexistent/shader.tgsi"]) == 1
    assert "/nonexistent/shader.tgsi" in capsys.readouterr().err


def test_module_entry_point_reads_stdin():
    text = (G.IN_DIR / "fs_dual_source.tgsi").read_text()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "lowering", "-", "--glsl-version", "330", "--key", "dual_source_blend=1"],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (G.OUT_DIR / "fs_dual_source.330.glsl").read_text()
