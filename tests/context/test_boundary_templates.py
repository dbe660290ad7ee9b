"""Issue 12 item 3: the templates' constructors are part of the boundary.

Every field of every template (glpipe/templates.py), given every bad value of
the API fuzzer: the constructor returns or raises InvalidArgumentError naming
the template and field, never TypeError / ValueError / OverflowError.  An
integer field takes exactly the range of its C type in p_state.h, checked
here against a table written from the header (not read from the code).
"""

from __future__ import annotations

import dataclasses

import pytest
from fuzz.api_fuzzer import BAD_VALUES  # tests/fuzz: pytest puts tests/ on sys.path (rootdir-relative packages)

import glpipe.templates as templates
from glpipe.errors import InvalidArgumentError

CLASSES = [getattr(templates, name) for name in templates.__all__]

# p_state.h's C types of the integer fields, per template (unsigned if not listed).
C_TYPES = {
    ("ScissorState", "minx"): (0, 2**16 - 1),
    ("ScissorState", "maxy"): (0, 2**16 - 1),
    ("StencilState", "valuemask"): (0, 255),
    ("StencilRef", "ref_value"): (0, 255),
    ("RasterizerState", "line_stipple_factor"): (0, 255),
    ("RasterizerState", "line_stipple_pattern"): (0, 2**16 - 1),
    ("RasterizerState", "sprite_coord_enable"): (0, 2**16 - 1),
    ("RasterizerState", "clip_plane_enable"): (0, 255),
    ("RasterizerState", "subpixel_precision_x"): (0, 15),
    ("BlendState", "max_rt"): (0, 7),
    ("Box", "x"): (-(2**31), 2**31 - 1),
    ("Box", "width"): (-(2**31), 2**31 - 1),
    ("VertexElement", "src_offset"): (0, 2**16 - 1),
    ("VertexElement", "vertex_buffer_index"): (0, 127),
    ("VertexElement", "instance_divisor"): (0, 2**32 - 1),
    ("VertexBuffer", "buffer_offset"): (0, 2**32 - 1),
    ("FramebufferState", "width"): (0, 2**16 - 1),
    ("FramebufferState", "samples"): (0, 255),
    ("ResourceTemplate", "width0"): (0, 2**32 - 1),
    ("ResourceTemplate", "height0"): (0, 2**16 - 1),
    ("ResourceTemplate", "array_size"): (0, 2**16 - 1),
    ("ResourceTemplate", "last_level"): (0, 255),
    ("ResourceTemplate", "nr_samples"): (0, 255),
    ("SurfaceTemplate", "first_layer"): (0, 2**16 - 1),
    ("SamplerViewTemplate", "first_level"): (0, 255),
    ("SamplerViewTemplate", "size"): (0, 2**32 - 1),
    ("DrawInfo", "count"): (0, 2**32 - 1),
    ("DrawInfo", "start"): (0, 2**32 - 1),
    ("DrawInfo", "instance_count"): (0, 2**32 - 1),
    ("DrawInfo", "index_bias"): (-(2**31), 2**31 - 1),
    ("DrawStartCountBias", "index_bias"): (-(2**31), 2**31 - 1),
    ("StreamOutput", "register_index"): (0, 63),
    ("StreamOutput", "dst_offset"): (0, 2**16 - 1),
    ("StreamOutputInfo", "stride"): (0, 2**16 - 1),
    ("BlitInfo", "dst_sample"): (0, 255),
    ("PipelineStatistics", "ia_vertices"): (0, 2**64 - 1),
}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_field_every_bad_value(cls):
    """Returns, or InvalidArgumentError naming the template and field."""
    refused = 0
    for f in dataclasses.fields(cls):
        for value in BAD_VALUES:
            try:
                cls(**{f.name: value})
            except InvalidArgumentError as exc:
                assert cls.__name__ in str(exc), str(exc)
                refused += 1
    assert refused > 0


@pytest.mark.parametrize("key", sorted(C_TYPES), ids=lambda k: ".".join(k))
def test_integer_fields_take_their_c_range(key):
    """The ends of the C type are accepted; one past either end is refused."""
    cls = getattr(templates, key[0])
    name = key[1]
    low, high = C_TYPES[key]
    default = dataclasses.fields(cls)[[f.name for f in dataclasses.fields(cls)].index(name)].default
    wrap = (lambda v: (v,)) if isinstance(default, tuple) else (lambda v: v)
    for ok in (low, high):
        cls(**{name: wrap(ok)})
    for bad in (low - 1, high + 1):
        with pytest.raises(InvalidArgumentError, match=f"{key[0]}.{name}"):
            cls(**{name: wrap(bad)})


def test_unknown_field_and_positional_excess():
    """The dataclass constructor's TypeError becomes InvalidArgumentError."""
    for cls in CLASSES:
        with pytest.raises(InvalidArgumentError, match=cls.__name__):
            cls(no_such_field=1)
        with pytest.raises(InvalidArgumentError, match=cls.__name__):
            cls(*range(len(dataclasses.fields(cls)) + 1))


def test_flag_fields_refuse_unknown_bits():
    """A flag field keeps no bit its enum lacks (IntFlag would keep it)."""
    from glpipe import Bind, Mask, ResourceTemplate, RTBlendState

    with pytest.raises(InvalidArgumentError, match="bind"):
        ResourceTemplate(bind=Bind.SAMPLER_VIEW | (1 << 29))
    with pytest.raises(InvalidArgumentError, match="colormask"):
        RTBlendState(colormask=Mask.RGBA | Mask.Z)
    with pytest.raises(InvalidArgumentError, match="bind"):
        ResourceTemplate(bind=-1)
    assert RTBlendState(colormask=Mask.R | Mask.A).colormask == Mask.R | Mask.A
