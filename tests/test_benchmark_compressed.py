"""The compressed-upload benchmark keeps working (benchmarks/bench_compressed.py).

Speed is measured by the benchmark, never asserted: this runs it on a tiny
texture and checks that every number is there and the storage column says
what each profile does (decoded on gl33, compressed natively on llvmpipe).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_compressed
from glpipe import Format


def test_compressed_benchmark_runs():
    from conftest import get_screen

    screens = {name: get_screen(name) for name in ("gl33", "native")}
    fmts = (Format.DXT5_RGBA, Format.ETC2_RGB8, Format.BPTC_RGB_UFLOAT, Format.RGTC1_UNORM)
    results = bench_compressed.run(size=8, reps=1, formats=fmts, screens=screens)
    rows = {r["format"]: r for r in results["rows"]}
    assert set(rows) == {f.name for f in fmts}
    for name, r in rows.items():
        assert r["decode_ms_per_mb"] > 0 and r["gl33_upload_ms"] > 0 and r["native_upload_ms"] > 0, name
    assert rows["DXT5_RGBA"]["gl33_storage"] == "decoded GL_RGBA8"
    assert rows["BPTC_RGB_UFLOAT"]["gl33_storage"] == "decoded GL_RGBA16F"
    assert rows["RGTC1_UNORM"]["gl33_storage"] == "GL_COMPRESSED_RED_RGTC1"  # GL 3.0 core
    assert rows["DXT5_RGBA"]["native_storage"] == "GL_COMPRESSED_RGBA_S3TC_DXT5_EXT"
    text = bench_compressed.format_markdown(results)
    assert "| DXT5_RGBA |" in text and "decode ms/MB" in text
