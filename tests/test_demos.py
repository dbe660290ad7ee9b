"""The demos render what they should, headless, on both profiles.

Each demo runs in-process through its ``main(argv)`` and the picture is
compared with a reference computed here, independently of glpipe:

* triangle: barycentric interpolation of the corner colours at every
  pixel centre (GL's rasterization rule, perspective-correct = linear for
  w = 1), compared with a tolerance away from the edges;
* textured quad: the nearest-filtered texture lookup at every pixel centre
  (exact: no texel or quad boundary passes through a pixel centre).

The PNG each demo writes is decoded here (a minimal decoder: 8-bit RGBA,
filter 0) and must be the picture with its rows flipped (presenting: the
first PNG row is the top, window row 0 the bottom).  No reference image is
stored: references are computed.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `pytest` without `python -m`: the demos package lives at the root
    sys.path.insert(0, str(ROOT))

from demos import quad_tex, tri

pytestmark = pytest.mark.smoke  # part of the subset .ci/run runs on every supported Python

CLEAR_RGBA8 = np.array([0.1, 0.1, 0.12, 1.0]) * 255.0


# -- an independent PNG reader ---------------------------------------------------------


def read_png(path) -> np.ndarray:
    """(height, width, 4) uint8 of an 8-bit RGBA, non-interlaced PNG whose
    rows all use filter 0; checks the signature and every chunk CRC."""
    blob = Path(path).read_bytes()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos : pos + 4])
        kind, payload = blob[pos + 4 : pos + 8], blob[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", blob[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + payload) & 0xFFFFFFFF, f"bad CRC in {kind!r}"
        chunks.append((kind, payload))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, ctype, comp, filt, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, ctype, comp, filt, interlace) == (8, 6, 0, 0, 0)
    raw = np.frombuffer(zlib.decompress(b"".join(p for k, p in chunks if k == b"IDAT")), np.uint8)
    rows = raw.reshape(height, 1 + 4 * width)
    assert not rows[:, 0].any(), "only filter type 0 is expected"
    return rows[:, 1:].reshape(height, width, 4)


# -- references ------------------------------------------------------------------------------


def pixel_centres(size):
    """Window coordinates of every pixel centre: (y, x) arrays, row 0 = window y 0."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float64)
    return y + 0.5, x + 0.5


def to_window(ndc, size):
    """NDC -> window coordinate for the demos' full viewport (scale = translate = size / 2)."""
    return (np.asarray(ndc, np.float64) * 0.5 + 0.5) * size


def triangle_reference(size):
    """(expected RGBA in 0..255 floats, interior mask, exterior mask), each
    mask 1 pixel clear of every edge."""
    v = tri.VERTICES.astype(np.float64)
    wx, wy = to_window(v[:, 0], size), to_window(v[:, 1], size)
    py, px = pixel_centres(size)
    area2 = (wx[1] - wx[0]) * (wy[2] - wy[0]) - (wx[2] - wx[0]) * (wy[1] - wy[0])
    lam, dist = [], []
    for i in range(3):  # weight of vertex i: edge function of the opposite edge
        a, b = (i + 1) % 3, (i + 2) % 3
        e = (wx[b] - wx[a]) * (py - wy[a]) - (wy[b] - wy[a]) * (px - wx[a])
        lam.append(e / area2)
        dist.append(e / area2 * abs(area2) / np.hypot(wx[b] - wx[a], wy[b] - wy[a]))  # signed, in pixels
    lam, dist = np.stack(lam), np.stack(dist)
    colour = np.einsum("kyx,kc->yxc", lam, v[:, 4:8]) * 255.0
    return colour, dist.min(axis=0) > 1.0, dist.min(axis=0) < -1.0


def quad_reference(size):
    """The expected RGBA8 picture of demos/quad_tex.py, exactly."""
    x0, y0, x1, y1 = (to_window(c, size) for c in quad_tex.QUAD_RECT)
    py, px = pixel_centres(size)
    inside = (px > x0) & (px < x1) & (py > y0) & (py < y1)
    s, t = (px - x0) / (x1 - x0), (py - y0) / (y1 - y0)  # the texcoords, affine over the quad
    tw, th = quad_tex.TEX_WIDTH, quad_tex.TEX_HEIGHT
    col = np.clip(np.floor(s * tw), 0, tw - 1).astype(int)  # nearest, clamp to edge
    row = np.clip(np.floor(t * th), 0, th - 1).astype(int)
    texels = quad_tex.texture_texels()
    expected = np.empty((size, size, 4), np.float64)
    expected[:] = CLEAR_RGBA8
    expected[inside] = texels[row[inside], col[inside]]
    return expected, inside


# -- tests -----------------------------------------------------------------------------------


def test_tri_matches_barycentric_reference(profile, tmp_path):
    size = 64
    out = tmp_path / "tri.png"
    pixels = tri.main(["--out", str(out), "--size", str(size), "--profile", profile])
    assert pixels.shape == (size, size, 4) and pixels.dtype == np.uint8
    expected, interior, exterior = triangle_reference(size)
    assert interior.sum() > 900 and exterior.sum() > 1500  # the comparison covers most of the picture
    diff = np.abs(pixels.astype(np.float64) - expected)
    assert diff[interior].max() <= 1.0, f"interior off by up to {diff[interior].max()}"
    assert np.abs(pixels[exterior] - CLEAR_RGBA8).max() <= 1.0
    assert np.array_equal(read_png(out), pixels[::-1])


def test_tri_corner_colours_point_the_right_way(profile, tmp_path):
    """Independent of the interpolation check: in the PNG (first row = top),
    the blue corner is at the top and red / green at the bottom left / right."""
    size = 64
    out = tmp_path / "tri.png"
    tri.main(["--out", str(out), "--size", str(size), "--profile", profile])
    img = read_png(out).astype(int)
    top, bottom_left, bottom_right = img[10, 32], img[56, 10], img[56, 53]
    assert top[2] > 200 and top[0] < 60 and top[1] < 60
    assert bottom_left[0] > 200 and bottom_left[1] < 60 and bottom_left[2] < 60
    assert bottom_right[1] > 200 and bottom_right[0] < 60 and bottom_right[2] < 60


def test_quad_tex_matches_texture_lookup(profile, tmp_path):
    size = 96
    out = tmp_path / "quad.png"
    pixels = quad_tex.main(["--out", str(out), "--size", str(size), "--profile", profile])
    expected, inside = quad_reference(size)
    assert inside.sum() == 72 * 48  # the quad covers 72 x 48 pixels at this size
    inside_diff = np.abs(pixels[inside].astype(np.float64) - expected[inside])
    assert inside_diff.max() == 0, "nearest filtering is exact"
    assert np.abs(pixels[~inside].astype(np.float64) - expected[~inside]).max() <= 1.0  # clear colour rounding
    assert np.array_equal(read_png(out), pixels[::-1])


def test_tri_runs_as_a_script_from_the_repository_root(tmp_path):
    """The README's main command: `python demos/tri.py --out tri.png` with the
    repository root as cwd (glpipe importable as if installed)."""
    out = tmp_path / "tri.png"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "demos/tri.py", "--out", str(out), "--size", "32"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert read_png(out).shape == (32, 32, 4)


@pytest.mark.skipif(
    bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")),
    reason="a display exists: --window would open a window",
)
@pytest.mark.filterwarnings("ignore")  # glfw warns about the missing display before returning failure
def test_window_without_display_says_why(tmp_path):
    pytest.importorskip("glfw")
    with pytest.raises(SystemExit, match="display"):
        tri.main(["--window", "--out", str(tmp_path / "unused.png")])


def test_bad_size_is_rejected():
    with pytest.raises(SystemExit):
        tri.main(["--size", "0"])
