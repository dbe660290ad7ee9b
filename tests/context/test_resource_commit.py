"""pipe_context::resource_commit (context.rst "Sparse resources"): glpipe
emulates no sparse residency, so the sparse caps are 0 and no resource can
be created SPARSE; the entry point exists and refuses with UnsupportedError
naming the caps (never an AttributeError), after checking its arguments
like every entry point (bad ones: InvalidArgumentError).  Both profiles."""

from __future__ import annotations

import pytest

from glpipe import Box, Cap, Format, Target
from glpipe.errors import InvalidArgumentError, UnsupportedError

from .util_blits import buffer, make


def test_sparse_caps_are_zero(screen):
    assert screen.get_param(Cap.SPARSE_BUFFER_PAGE_SIZE) == 0
    assert screen.get_param(Cap.MAX_SPARSE_TEXTURE_SIZE) == 0


def test_resource_commit_is_refused_by_the_caps(ctx, screen):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    buf = buffer(screen, 256)
    for res, box in ((tex, Box(x=0, y=0, z=0, width=8, height=8, depth=1)), (buf, Box(x=0, width=256))):
        for commit in (True, False):
            with pytest.raises(UnsupportedError, match="SPARSE"):
                ctx.resource_commit(res, 0, box, commit)


@pytest.mark.parametrize(
    "args",
    [
        ("not a resource", 0, Box(x=0, width=1), True),
        (None, 0, Box(x=0, width=1), True),
        ("TEX", 3, Box(x=0, y=0, z=0, width=1, height=1, depth=1), True),
        ("TEX", -1, Box(x=0, y=0, z=0, width=1, height=1, depth=1), True),
        ("TEX", 0, (0, 0, 0, 1, 1, 1), True),
        ("TEX", 0, Box(x=0, y=0, z=0, width=1, height=1, depth=1), "yes"),
    ],
)
def test_bad_arguments_are_invalid(ctx, screen, args):
    tex = make(screen, Target.TEXTURE_2D, Format.R8G8B8A8_UNORM, 8, 8)
    args = tuple(tex if a == "TEX" else a for a in args)
    with pytest.raises(InvalidArgumentError):
        ctx.resource_commit(*args)
