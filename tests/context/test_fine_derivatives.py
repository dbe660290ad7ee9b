"""DDX_FINE / DDY_FINE (PIPE_CAP_FS_FINE_DERIVATIVE) on both profiles.

dFdxFine / dFdyFine are GLSL 4.50 (GL_ARB_derivative_control).  Without them
(the gl33 profile) glpipe lowers DDX_FINE / DDY_FINE to plain dFdx / dFdy
where the screen's probe found those fine on this host
(``glpipe.host.facts``: ``fine_plain_derivatives``), and refuses them
otherwise.  The functions differentiated are non-linear in the window
position (x * y, and perspective-interpolated varyings), so a coarse
derivative (one value per 2x2 quad) would differ from the fine one: the fine
d/dx of x*y in a pixel row y is y (the pair's x differ by 1), the fine d/dy
in column x is x, exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe import Cap, ConstantBuffer, Format, ShaderType, VertexElement
from glpipe.host.facts import probe_host_facts
from lowering import to_glsl
from lowering.errors import UnsupportedError

from .util_caps import draw

XY_FS = """FRAG
PROPERTY FS_COORD_PIXEL_CENTER INTEGER
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..1]
  0: MUL TEMP[0].x, IN[0].xxxx, IN[0].yyyy
  1: DDX_FINE TEMP[1].x, TEMP[0].xxxx
  2: DDY_FINE TEMP[1].y, TEMP[0].xxxx
  3: MOV TEMP[1].zw, IN[0].xxxy
  4: MOV OUT[0], TEMP[1]
  5: END
"""


def test_fine_derivatives_of_x_times_y(screen, ctx):
    """DDX_FINE(x*y) = y and |DDY_FINE(x*y)| = x at every pixel (integer pixel
    centres), on both profiles; the quad's two rows (columns) differ."""
    assert screen.get_param(Cap.FS_FINE_DERIVATIVE) == 1
    img = draw(ctx, XY_FS, width=8, height=8)
    x, y = img[..., 2], img[..., 3]
    assert sorted(set(x.ravel().tolist())) == list(range(8))
    np.testing.assert_array_equal(img[..., 0], y)
    np.testing.assert_array_equal(np.abs(img[..., 1]), x)
    signs = np.sign(img[..., 1][x > 0])
    assert (signs == signs[0]).all(), "one d/dy direction over the whole target"


def test_fact_probed_at_screen_creation(screen):
    """The host fact the gl33 lowering relies on is recorded with its reason."""
    facts = probe_host_facts(screen.host)
    assert "fine_plain_derivatives" in facts.reasons
    assert "x*y" in facts.reasons["fine_plain_derivatives"]
    if not screen.profile.has("derivative_control"):
        # the cap may only say 1 through the fact
        assert screen.get_param(Cap.FS_FINE_DERIVATIVE) == int(facts.has("fine_plain_derivatives"))


def test_refused_without_fine_plain_derivatives():
    """A GLSL 330 host whose dFdx is not known to be fine: an honest refusal naming both ways out."""
    with pytest.raises(
        UnsupportedError,
        match=r"DDX_FINE needs GLSL 450 or GL_ARB_derivative_control.*"
        r"fine_plain_derivatives",
    ):
        to_glsl(XY_FS, glsl_version=330)
    src = to_glsl(XY_FS, glsl_version=330, host_facts=frozenset({"fine_plain_derivatives"})).source
    assert "dFdx(" in src and "Fine" not in src and "#extension" not in src


# Mesa's frontend output for dFdx / dFdy / dFdxFine / dFdyFine (tests/lowering/corpus).
def _corpus_fs() -> str:
    from pathlib import Path

    path = Path(__file__).parent.parent / "lowering" / "corpus" / "tgsi" / "core_derivatives.frag.tgsi"
    return path.read_text()


CORPUS_VS = """VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
  0: MOV OUT[0], IN[0]
  1: MOV OUT[1], IN[1]
  2: MOV OUT[2], IN[2]
  3: END
"""


def _corpus_draw(ctx):
    """core_derivatives.frag over a triangle with w from 1 to 4 (perspective:
    the varyings are not linear in x, y); COLOR (its OUT[1]) read back."""
    from glpipe import Bind

    from .util import vertex_buffer

    rng = np.random.default_rng(4)
    pos = np.array([[-1, -1, 0, 1], [3, -1, 0, 2], [-1, 3, 0, 4]], np.float32)
    pos[:, :2] *= pos[:, 3:4]
    g0 = rng.uniform(-3, 3, (3, 4)).astype(np.float32)
    g1 = rng.uniform(-3, 3, (3, 4)).astype(np.float32)
    verts = np.concatenate([pos, g0, g1], axis=1)
    consts = np.array([2.5, 0, -1.5, 0.75], np.float32)
    cbuf = vertex_buffer(ctx.screen, consts, bind=Bind.CONSTANT_BUFFER)

    def before(c):
        c.set_constant_buffer(ShaderType.FRAGMENT, 0, ConstantBuffer(buffer=cbuf, buffer_size=16))

    elements = [VertexElement(src_offset=16 * k, src_format=Format.R32G32B32A32_FLOAT) for k in range(3)]
    return draw(ctx, _corpus_fs(), width=16, height=16, vs=CORPUS_VS, verts=verts, elements=elements, before=before)


def test_corpus_derivatives_gl33_equal_native(screen, ctx):
    """core_derivatives.frag (DDX, DDY, DDX_FINE, DDY_FINE as Mesa emits them):
    this profile's pixels are the native profile's, bit for bit."""
    from conftest import PROFILES, get_screen

    ours = _corpus_draw(ctx)
    native = get_screen("native")
    nctx = native.context_create()
    try:
        theirs = _corpus_draw(nctx)
    finally:
        nctx.destroy()
        get_screen(next(p for p in PROFILES if p == screen.profile.name))
    assert np.isfinite(ours).all() and np.abs(ours).max() > 0
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))
