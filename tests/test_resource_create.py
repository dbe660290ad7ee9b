"""resource_create / can_create_resource / resource_destroy on both host profiles.

Every target is created and then inspected with raw GL: the level sizes
GL reports are compared with sizes computed here from Gallium's rule
(``max(1, size >> level)``; layers and cube faces do not shrink), sample
counts with the template, immutability with what each profile has
(glTexStorage on native GL 4.5, glTexImage on gl33).  Bad templates must be
rejected with an error naming the field, and can_create_resource must agree
with resource_create on every one of them.
"""

from __future__ import annotations

import numpy as np
import pytest

from glpipe.enums import Bind, ResourceFlag, Target, Usage
from glpipe.formats import Format
from glpipe.host.features import FEATURES
from glpipe.resource import MAX_BUFFER_SIZE, Resource
from glpipe.templates import ResourceTemplate
from lowering.errors import HostGLError, InvalidArgumentError, ObjectDestroyedError, UnsupportedError

# GL enums (GL 4.5 core spec values), written out so the test does not take
# them from the code under test.
GL_TEXTURE_1D = 0x0DE0
GL_TEXTURE_2D = 0x0DE1
GL_TEXTURE_3D = 0x806F
GL_TEXTURE_CUBE_MAP = 0x8513
GL_TEXTURE_CUBE_MAP_POSITIVE_X = 0x8515
GL_TEXTURE_RECTANGLE = 0x84F5
GL_TEXTURE_1D_ARRAY = 0x8C18
GL_TEXTURE_2D_ARRAY = 0x8C1A
GL_TEXTURE_CUBE_MAP_ARRAY = 0x9009
GL_TEXTURE_2D_MULTISAMPLE = 0x9100
GL_TEXTURE_2D_MULTISAMPLE_ARRAY = 0x9102
GL_ARRAY_BUFFER = 0x8892
GL_COPY_READ_BUFFER = 0x8F36
GL_COPY_WRITE_BUFFER = 0x8F37
GL_PIXEL_UNPACK_BUFFER = 0x88EC
GL_PIXEL_UNPACK_BUFFER_BINDING = 0x88EF
GL_ACTIVE_TEXTURE = 0x84E0
GL_TEXTURE0 = 0x84C0
GL_TEXTURE_WIDTH = 0x1000
GL_TEXTURE_HEIGHT = 0x1001
GL_TEXTURE_DEPTH = 0x8071
GL_TEXTURE_INTERNAL_FORMAT = 0x1003
GL_TEXTURE_SAMPLES = 0x9106
GL_TEXTURE_IMMUTABLE_FORMAT = 0x912F
GL_TEXTURE_IMMUTABLE_LEVELS = 0x82DF
GL_TEXTURE_MAX_LEVEL = 0x813D
GL_BUFFER_SIZE = 0x8764
GL_BUFFER_USAGE = 0x8765
GL_BUFFER_IMMUTABLE_STORAGE = 0x821F
GL_BUFFER_STORAGE_FLAGS = 0x8220
GL_MAP_PERSISTENT_BIT = 0x0040
GL_MAP_COHERENT_BIT = 0x0080
GL_STATIC_DRAW = 0x88E4
GL_DYNAMIC_DRAW = 0x88E8
GL_STREAM_DRAW = 0x88E0
GL_STREAM_READ = 0x88E1
GL_TEXTURE_BINDING = {
    GL_TEXTURE_1D: 0x8068,
    GL_TEXTURE_2D: 0x8069,
    GL_TEXTURE_3D: 0x806A,
    GL_TEXTURE_CUBE_MAP: 0x8514,
    GL_TEXTURE_RECTANGLE: 0x84F6,
    GL_TEXTURE_1D_ARRAY: 0x8C1C,
    GL_TEXTURE_2D_ARRAY: 0x8C1D,
    GL_TEXTURE_CUBE_MAP_ARRAY: 0x900A,
    GL_TEXTURE_2D_MULTISAMPLE: 0x9104,
    GL_TEXTURE_2D_MULTISAMPLE_ARRAY: 0x9105,
}
GL_COPY_WRITE_BUFFER_BINDING = 0x8F37

RGBA8 = Format.R8G8B8A8_UNORM
SV_RT = Bind.SAMPLER_VIEW | Bind.RENDER_TARGET

# The unit the raw-GL inspection binds on (restored afterwards).
INSPECT_UNIT = 2


# --------------------------------------------------------------------------
# Raw GL inspection
# --------------------------------------------------------------------------


def _geti(gl, pname) -> int:
    return int(gl.glGetIntegerv(pname))


class _Bound:
    """Bind ``name`` to ``target`` on INSPECT_UNIT for the with-block, then
    restore the unit's binding and the active unit."""

    def __init__(self, gl, target, name):
        self.gl, self.target, self.name = gl, target, name

    def __enter__(self):
        gl = self.gl
        self.active = _geti(gl, GL_ACTIVE_TEXTURE)
        gl.glActiveTexture(GL_TEXTURE0 + INSPECT_UNIT)
        self.prev = _geti(gl, GL_TEXTURE_BINDING[self.target])
        gl.glBindTexture(self.target, self.name)
        return self

    def __exit__(self, *exc):
        self.gl.glBindTexture(self.target, self.prev)
        self.gl.glActiveTexture(self.active)


def _level_param(gl, image_target, level, pname) -> int:
    out = np.zeros(1, np.int32)
    gl.glGetTexLevelParameteriv(image_target, level, pname, out)
    return int(out[0])


def _tex_param(gl, target, pname) -> int:
    out = np.zeros(1, np.int32)
    gl.glGetTexParameteriv(target, pname, out)
    return int(out[0])


def gl_levels(gl, res, gl_target):
    """[(w, h, d) per level, per image] as GL reports them: for cubes a list
    per face, else one list."""
    images = [GL_TEXTURE_CUBE_MAP_POSITIVE_X + f for f in range(6)] if gl_target == GL_TEXTURE_CUBE_MAP else [gl_target]
    out = []
    with _Bound(gl, gl_target, res.gl_object):
        for image in images:
            out.append(
                [
                    tuple(
                        _level_param(gl, image, lvl, p) for p in (GL_TEXTURE_WIDTH, GL_TEXTURE_HEIGHT, GL_TEXTURE_DEPTH)
                    )
                    for lvl in range(res.last_level + 1)
                ]
            )
    return out


def expected_levels(kind, w, h, d, layers, last_level):
    """Sizes per level from Gallium's definition: spatial dimensions halve
    (never below 1), layers and cube faces stay."""

    def mip(v, lvl):
        return max(1, v >> lvl)

    out = []
    for lvl in range(last_level + 1):
        if kind == "1d":
            out.append((mip(w, lvl), 1, 1))
        elif kind == "1d_array":
            out.append((mip(w, lvl), layers, 1))
        elif kind == "2d":
            out.append((mip(w, lvl), mip(h, lvl), 1))
        elif kind == "3d":
            out.append((mip(w, lvl), mip(h, lvl), mip(d, lvl)))
        elif kind == "layered":
            out.append((mip(w, lvl), mip(h, lvl), layers))
    return out


def buffer_param(gl, name, pname) -> int:
    prev = _geti(gl, 0x8F36)  # GL_COPY_READ_BUFFER_BINDING
    gl.glBindBuffer(GL_COPY_READ_BUFFER, name)
    out = np.zeros(1, np.int32)
    gl.glGetBufferParameteriv(GL_COPY_READ_BUFFER, pname, out)
    gl.glBindBuffer(GL_COPY_READ_BUFFER, prev)
    return int(out[0])


def has_ms_storage_row() -> bool:
    """Whether the features table knows immutable multisample storage
    (GL 4.3); without the row multisampled textures are mutable everywhere."""
    return "texture_storage_multisample" in FEATURES


# --------------------------------------------------------------------------
# Every target
# --------------------------------------------------------------------------

# id: (template kwargs, GL target, kind for expected sizes, samples)
TARGET_CASES = {
    "1d": (dict(target=Target.TEXTURE_1D, width0=64, last_level=6), GL_TEXTURE_1D, "1d", 0),
    "2d": (dict(target=Target.TEXTURE_2D, width0=64, height0=32, last_level=6), GL_TEXTURE_2D, "2d", 0),
    "2d_npot": (dict(target=Target.TEXTURE_2D, width0=37, height0=5, last_level=5), GL_TEXTURE_2D, "2d", 0),
    "3d": (dict(target=Target.TEXTURE_3D, width0=20, height0=12, depth0=5, last_level=4), GL_TEXTURE_3D, "3d", 0),
    "cube": (
        dict(target=Target.TEXTURE_CUBE, width0=32, height0=32, array_size=6, last_level=5),
        GL_TEXTURE_CUBE_MAP,
        "2d",
        0,
    ),
    "rect": (dict(target=Target.TEXTURE_RECT, width0=40, height0=24), GL_TEXTURE_RECTANGLE, "2d", 0),
    "1d_array": (
        dict(target=Target.TEXTURE_1D_ARRAY, width0=32, array_size=5, last_level=5),
        GL_TEXTURE_1D_ARRAY,
        "1d_array",
        0,
    ),
    "2d_array": (
        dict(target=Target.TEXTURE_2D_ARRAY, width0=32, height0=16, array_size=4, last_level=5),
        GL_TEXTURE_2D_ARRAY,
        "layered",
        0,
    ),
    "cube_array": (
        dict(target=Target.TEXTURE_CUBE_ARRAY, width0=16, height0=16, array_size=12, last_level=4),
        GL_TEXTURE_CUBE_MAP_ARRAY,
        "layered",
        0,
    ),
    "2d_msaa": (
        dict(target=Target.TEXTURE_2D, width0=32, height0=32, nr_samples=4, nr_storage_samples=4),
        GL_TEXTURE_2D_MULTISAMPLE,
        "2d",
        4,
    ),
    "2d_array_msaa": (
        dict(target=Target.TEXTURE_2D_ARRAY, width0=16, height0=8, array_size=3, nr_samples=4, nr_storage_samples=4),
        GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
        "layered",
        4,
    ),
}


@pytest.mark.parametrize("case", sorted(TARGET_CASES))
def test_resource_create_every_target(screen, profile, case):
    kwargs, gl_target, kind, samples = TARGET_CASES[case]
    gl = screen.host.gl
    templ = ResourceTemplate(format=RGBA8, bind=SV_RT, **kwargs)
    if case == "cube_array" and profile == "gl33":
        # Cube arrays are GL 4.0: valid Gallium the gl33 host cannot do.
        assert not screen.can_create_resource(templ)
        with pytest.raises(UnsupportedError, match=r"ResourceTemplate\.target: TEXTURE_CUBE_ARRAY"):
            screen.resource_create(templ)
        return
    assert screen.can_create_resource(templ)
    res = screen.resource_create(templ)
    try:
        assert isinstance(res, Resource)
        # The C fields read back as given.
        for field in (
            "target",
            "format",
            "width0",
            "height0",
            "depth0",
            "array_size",
            "last_level",
            "nr_samples",
            "bind",
            "usage",
            "flags",
        ):
            assert getattr(res, field) == getattr(templ, field), field
        assert res.screen is screen
        assert res.gl_target == gl_target
        assert gl.glIsTexture(res.gl_object)
        w, h, d, layers = templ.width0, templ.height0, templ.depth0, templ.array_size
        expect = expected_levels(kind, w, h, d, layers, templ.last_level)
        faces = gl_levels(gl, res, gl_target)
        assert len(faces) == (6 if case == "cube" else 1)
        for face in faces:
            assert face == expect
        with _Bound(gl, gl_target, res.gl_object):
            immutable = bool(_tex_param(gl, gl_target, GL_TEXTURE_IMMUTABLE_FORMAT))
            image = GL_TEXTURE_CUBE_MAP_POSITIVE_X if case == "cube" else gl_target
            if samples:
                assert _level_param(gl, image, 0, GL_TEXTURE_SAMPLES) == samples
                expect_immutable = profile == "native" and has_ms_storage_row()
            else:
                expect_immutable = profile == "native"  # glTexStorage is GL 4.2; gl33 lacks it
                if not immutable:
                    # Mutable storage must still be complete: MAX_LEVEL ends the chain.
                    assert _tex_param(gl, gl_target, GL_TEXTURE_MAX_LEVEL) == templ.last_level
                else:
                    assert _tex_param(gl, gl_target, GL_TEXTURE_IMMUTABLE_LEVELS) == templ.last_level + 1
        assert immutable == expect_immutable
        assert res.immutable == expect_immutable
        assert screen.host.clear_errors() == []
    finally:
        name = res.gl_object
        screen.resource_destroy(res)
    assert not gl.glIsTexture(name)
    assert res.destroyed
    with pytest.raises(ObjectDestroyedError, match="resource was destroyed"):
        res.check_alive("sampler view")
    with pytest.raises(ObjectDestroyedError):
        _ = res.gl_object
    with pytest.raises(ObjectDestroyedError):
        screen.resource_changed(res)
    with pytest.raises(ObjectDestroyedError, match="resource_destroy"):
        screen.resource_destroy(res)


@pytest.mark.parametrize(
    "usage, gl_usage",
    [
        (Usage.DEFAULT, GL_STATIC_DRAW),
        (Usage.IMMUTABLE, GL_STATIC_DRAW),
        (Usage.DYNAMIC, GL_DYNAMIC_DRAW),
        (Usage.STREAM, GL_STREAM_DRAW),
        (Usage.STAGING, GL_STREAM_READ),
    ],
)
def test_resource_create_buffer(screen, profile, usage, gl_usage):
    gl = screen.host.gl
    templ = ResourceTemplate(
        target=Target.BUFFER,
        format=Format.R8_UNORM,
        width0=1000,
        usage=usage,
        bind=Bind.VERTEX_BUFFER | Bind.INDEX_BUFFER | Bind.CONSTANT_BUFFER,
    )
    res = screen.resource_create(templ)
    assert res.gl_target == GL_ARRAY_BUFFER
    assert res.storage is None
    name = res.gl_object
    assert gl.glIsBuffer(name)
    assert buffer_param(gl, name, GL_BUFFER_SIZE) == 1000
    immutable = bool(buffer_param(gl, name, GL_BUFFER_IMMUTABLE_STORAGE))
    assert immutable == (profile == "native") == res.immutable  # glBufferStorage is GL 4.4
    if not immutable:
        # glBufferData got the hint derived from the usage (st/mesa's mapping, inverted).
        assert buffer_param(gl, name, GL_BUFFER_USAGE) == gl_usage
    screen.resource_destroy(res)
    assert not gl.glIsBuffer(name)
    with pytest.raises(ObjectDestroyedError):
        res.check_alive("transfer_map")


def test_resource_create_buffer_format_none_means_bytes(screen):
    templ = ResourceTemplate(target=Target.BUFFER, format=Format.NONE, width0=64, bind=Bind.VERTEX_BUFFER)
    res = screen.resource_create(templ)
    assert buffer_param(screen.host.gl, res.gl_object, GL_BUFFER_SIZE) == 64
    screen.resource_destroy(res)


def test_resource_create_persistent_buffer(screen, profile):
    templ = ResourceTemplate(
        target=Target.BUFFER,
        format=Format.R8_UNORM,
        width0=256,
        bind=Bind.VERTEX_BUFFER,
        flags=ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT,
    )
    if profile == "gl33":
        assert not screen.can_create_resource(templ)
        with pytest.raises(UnsupportedError, match=r"ResourceTemplate\.flags: .*buffer_storage"):
            screen.resource_create(templ)
        return
    res = screen.resource_create(templ)
    flags = buffer_param(screen.host.gl, res.gl_object, GL_BUFFER_STORAGE_FLAGS)
    assert flags & GL_MAP_PERSISTENT_BIT and flags & GL_MAP_COHERENT_BIT
    screen.resource_destroy(res)


# --------------------------------------------------------------------------
# Formats
# --------------------------------------------------------------------------

# format: (GL internal format from the GL spec's tables, bind flags)
FORMAT_CASES = {
    Format.R8G8B8A8_UNORM: (0x8058, SV_RT),  # GL_RGBA8
    Format.R8G8B8A8_SRGB: (0x8C43, SV_RT),  # GL_SRGB8_ALPHA8
    Format.R16G16B16A16_FLOAT: (0x881A, SV_RT),  # GL_RGBA16F
    Format.R32_FLOAT: (0x822E, SV_RT),  # GL_R32F
    Format.R16_UNORM: (0x822A, SV_RT),  # GL_R16
    Format.R10G10B10A2_UNORM: (0x8059, SV_RT),  # GL_RGB10_A2
    Format.R32G32_UINT: (0x823C, SV_RT),  # GL_RG32UI
    Format.R8_SINT: (0x8231, SV_RT),  # GL_R8I
    Format.Z24_UNORM_S8_UINT: (0x88F0, Bind.SAMPLER_VIEW | Bind.DEPTH_STENCIL),  # GL_DEPTH24_STENCIL8
    Format.Z32_FLOAT: (0x8CAC, Bind.SAMPLER_VIEW | Bind.DEPTH_STENCIL),  # GL_DEPTH_COMPONENT32F
    Format.Z16_UNORM: (0x81A5, Bind.SAMPLER_VIEW | Bind.DEPTH_STENCIL),  # GL_DEPTH_COMPONENT16
    Format.RGTC1_UNORM: (0x8DBB, Bind.SAMPLER_VIEW),  # GL_COMPRESSED_RED_RGTC1
    Format.DXT1_RGB: (0x83F0, Bind.SAMPLER_VIEW),  # GL_COMPRESSED_RGB_S3TC_DXT1_EXT
}


@pytest.mark.parametrize("fmt", list(FORMAT_CASES), ids=lambda f: f.name)
def test_resource_create_formats(screen, profile, fmt):
    gl_internal, bind = FORMAT_CASES[fmt]
    gl = screen.host.gl
    if fmt == Format.DXT1_RGB and not screen.profile.has("texture_compression_s3tc"):
        # S3TC is an extension; gl33 hides every extension, so the blocks are
        # decoded at upload into GL_RGBA8 (fallback.compressed).
        gl_internal = 0x8058
    # 30x18 is not a multiple of the 4x4 compression block: blocks pad.
    templ = ResourceTemplate(target=Target.TEXTURE_2D, format=fmt, width0=30, height0=18, last_level=4, bind=bind)
    res = screen.resource_create(templ)
    with _Bound(gl, GL_TEXTURE_2D, res.gl_object):
        assert _level_param(gl, GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT) == gl_internal
    assert gl_levels(gl, res, GL_TEXTURE_2D) == [expected_levels("2d", 30, 18, 1, 1, 4)]
    assert screen.host.clear_errors() == []
    screen.resource_destroy(res)


def test_resource_create_compressed_array_and_cube(screen):
    gl = screen.host.gl
    for templ, gl_target, kind in (
        (
            ResourceTemplate(
                target=Target.TEXTURE_2D_ARRAY,
                format=Format.RGTC1_UNORM,
                width0=20,
                height0=12,
                array_size=3,
                last_level=4,
                bind=Bind.SAMPLER_VIEW,
            ),
            GL_TEXTURE_2D_ARRAY,
            "layered",
        ),
        (
            ResourceTemplate(
                target=Target.TEXTURE_CUBE,
                format=Format.RGTC1_UNORM,
                width0=8,
                height0=8,
                array_size=6,
                last_level=3,
                bind=Bind.SAMPLER_VIEW,
            ),
            GL_TEXTURE_CUBE_MAP,
            "2d",
        ),
    ):
        res = screen.resource_create(templ)
        expect = expected_levels(kind, templ.width0, templ.height0, 1, templ.array_size, templ.last_level)
        for face in gl_levels(gl, res, gl_target):
            assert face == expect
        screen.resource_destroy(res)


def test_resource_create_depth_stencil_msaa(screen):
    gl = screen.host.gl
    templ = ResourceTemplate(
        target=Target.TEXTURE_2D,
        format=Format.Z24_UNORM_S8_UINT,
        width0=16,
        height0=16,
        nr_samples=4,
        nr_storage_samples=4,
        bind=Bind.DEPTH_STENCIL,
    )
    res = screen.resource_create(templ)
    with _Bound(gl, GL_TEXTURE_2D_MULTISAMPLE, res.gl_object):
        assert _level_param(gl, GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES) == 4
        assert _level_param(gl, GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_INTERNAL_FORMAT) == 0x88F0
    screen.resource_destroy(res)


def test_nr_storage_samples_zero_means_nr_samples(screen):
    templ = ResourceTemplate(target=Target.TEXTURE_2D, format=RGBA8, width0=8, height0=8, nr_samples=4, bind=SV_RT)
    res = screen.resource_create(templ)
    with _Bound(screen.host.gl, GL_TEXTURE_2D_MULTISAMPLE, res.gl_object):
        assert _level_param(screen.host.gl, GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES) == 4
    screen.resource_destroy(res)


# --------------------------------------------------------------------------
# Bad templates
# --------------------------------------------------------------------------


def _t(**kw):
    base = dict(target=Target.TEXTURE_2D, format=RGBA8, width0=16, height0=16, bind=Bind.SAMPLER_VIEW)
    base.update(kw)
    return ResourceTemplate(**base)


def _limit(gl, name):
    return int(gl.glGetIntegerv(getattr(gl, name)))


# id: (template maker taking the raw GL module, field the message must name, extra text it must contain)
BAD_TEMPLATES = {
    "cube_array_size_4": (lambda gl: _t(target=Target.TEXTURE_CUBE, array_size=4), "array_size", "6, got 4"),
    "cube_not_square": (lambda gl: _t(target=Target.TEXTURE_CUBE, height0=8, array_size=6), "height0", "square"),
    "2d_depth0_2": (lambda gl: _t(depth0=2), "depth0", "got 2"),
    "1d_height0_4": (lambda gl: _t(target=Target.TEXTURE_1D, height0=4), "height0", "got 4"),
    "1d_array_height0": (
        lambda gl: _t(target=Target.TEXTURE_1D_ARRAY, height0=2, array_size=3),
        "height0",
        "array_size",
    ),
    "2d_array_size_3": (lambda gl: _t(array_size=3), "array_size", "got 3"),
    "2d_array_depth0": (lambda gl: _t(target=Target.TEXTURE_2D_ARRAY, depth0=4, array_size=4), "depth0", "array_size"),
    "width0_zero": (lambda gl: _t(width0=0), "width0", ">= 1"),
    "height0_zero": (lambda gl: _t(height0=0), "height0", ">= 1"),
    "array_size_zero": (lambda gl: _t(target=Target.TEXTURE_2D_ARRAY, array_size=0), "array_size", ">= 1"),
    "last_level_negative": (lambda gl: _t(last_level=-1), "last_level", "uint8"),
    "last_level_beyond_chain": (lambda gl: _t(width0=64, height0=64, last_level=7), "last_level", "0..6"),
    "last_level_npot_chain": (lambda gl: _t(width0=33, height0=7, last_level=6), "last_level", "0..5"),
    "rect_mipmapped": (lambda gl: _t(target=Target.TEXTURE_RECT, last_level=1), "last_level", "no mip"),
    "buffer_mipmapped": (
        lambda gl: _t(target=Target.BUFFER, height0=1, format=Format.R8_UNORM, last_level=1, bind=Bind.VERTEX_BUFFER),
        "last_level",
        "no mip",
    ),
    "buffer_height0": (
        lambda gl: _t(target=Target.BUFFER, format=Format.R8_UNORM, height0=2, bind=Bind.VERTEX_BUFFER),
        "height0",
        "got 2",
    ),
    # width0 = MAX_BUFFER_SIZE + 1 is refused by ResourceTemplate itself
    # (uint32 width0): tests/context/test_boundary_templates.py.
    "buffer_depth_stencil_bind": (
        lambda gl: _t(target=Target.BUFFER, format=Format.R8_UNORM, width0=64, height0=1, bind=Bind.DEPTH_STENCIL),
        "bind",
        "DEPTH_STENCIL",
    ),
    "msaa_mipmapped": (lambda gl: _t(nr_samples=4, nr_storage_samples=4, last_level=1), "last_level", "multisampled"),
    "msaa_3d": (lambda gl: _t(target=Target.TEXTURE_3D, depth0=4, nr_samples=4), "nr_samples", "TEXTURE_3D"),
    "msaa_cube": (lambda gl: _t(target=Target.TEXTURE_CUBE, array_size=6, nr_samples=4), "nr_samples", "TEXTURE_CUBE"),
    "msaa_3_samples": (lambda gl: _t(nr_samples=3, nr_storage_samples=3, bind=SV_RT), "nr_samples", "3 samples"),
    "msaa_too_many_samples": (
        lambda gl: _t(nr_samples=64, nr_storage_samples=64, bind=SV_RT),
        "nr_samples",
        "64 samples",
    ),
    "storage_samples_over_samples": (
        lambda gl: _t(nr_samples=4, nr_storage_samples=8),
        "nr_storage_samples",
        "<= nr_samples",
    ),
    "width_over_limit": (
        lambda gl: _t(width0=_limit(gl, "GL_MAX_TEXTURE_SIZE") + 1, height0=1),
        "width0",
        "GL_MAX_TEXTURE_SIZE",
    ),
    "3d_depth_over_limit": (
        lambda gl: _t(target=Target.TEXTURE_3D, width0=1, height0=1, depth0=_limit(gl, "GL_MAX_3D_TEXTURE_SIZE") + 1),
        "depth0",
        "GL_MAX_3D_TEXTURE_SIZE",
    ),
    "layers_over_limit": (
        lambda gl: _t(
            target=Target.TEXTURE_2D_ARRAY,
            width0=1,
            height0=1,
            array_size=_limit(gl, "GL_MAX_ARRAY_TEXTURE_LAYERS") + 1,
        ),
        "array_size",
        "GL_MAX_ARRAY_TEXTURE_LAYERS",
    ),
    "cube_over_limit": (
        lambda gl: _t(
            target=Target.TEXTURE_CUBE,
            array_size=6,
            width0=_limit(gl, "GL_MAX_CUBE_MAP_TEXTURE_SIZE") + 1,
            height0=_limit(gl, "GL_MAX_CUBE_MAP_TEXTURE_SIZE") + 1,
        ),
        "width0",
        "GL_MAX_CUBE_MAP_TEXTURE_SIZE",
    ),
    "rect_over_limit": (
        lambda gl: _t(target=Target.TEXTURE_RECT, height0=1, width0=_limit(gl, "GL_MAX_RECTANGLE_TEXTURE_SIZE") + 1),
        "width0",
        "GL_MAX_RECTANGLE_TEXTURE_SIZE",
    ),
    "depth_format_on_3d": (
        lambda gl: _t(target=Target.TEXTURE_3D, depth0=4, format=Format.Z24_UNORM_S8_UINT),
        "format",
        "PIPE_FORMAT_Z24_UNORM_S8_UINT",
    ),
    "color_format_as_depth": (
        lambda gl: _t(bind=Bind.DEPTH_STENCIL),
        "bind",
        "PIPE_FORMAT_R8G8B8A8_UNORM on TEXTURE_2D does not support DEPTH_STENCIL",
    ),
    "depth_format_as_rt": (
        lambda gl: _t(format=Format.Z32_FLOAT, bind=Bind.SAMPLER_VIEW | Bind.RENDER_TARGET),
        "bind",
        "PIPE_FORMAT_Z32_FLOAT on TEXTURE_2D does not support RENDER_TARGET",
    ),
    "texture_format_none": (lambda gl: _t(format=Format.NONE), "format", "NONE"),
    "compressed_1d": (
        lambda gl: _t(target=Target.TEXTURE_1D, height0=1, format=Format.RGTC1_UNORM),
        "format",
        "PIPE_FORMAT_RGTC1_UNORM",
    ),
    "unknown_bind_bit": (lambda gl: _t(bind=Bind.SAMPLER_VIEW | (1 << 29)), "bind", "0x20000000"),
    "unknown_flag_bit": (lambda gl: _t(flags=1 << 20), "flags", "0x100000"),
    "vertex_bind_on_texture": (lambda gl: _t(bind=Bind.SAMPLER_VIEW | Bind.VERTEX_BUFFER), "bind", "VERTEX_BUFFER"),
}


@pytest.mark.parametrize("case", sorted(BAD_TEMPLATES))
def test_bad_template_rejected(screen, case):
    make, field, text = BAD_TEMPLATES[case]
    try:
        templ = make(screen.host.gl)
    except InvalidArgumentError as exc:
        # Refused by the template itself: a value outside the field's C type
        # or enum (glpipe/templates.py), before any screen sees it.
        message = str(exc)
    else:
        assert screen.can_create_resource(templ) is False
        with pytest.raises(InvalidArgumentError) as err:
            screen.resource_create(templ)
        message = str(err.value)
    assert message.startswith(f"ResourceTemplate.{field}: "), message
    assert text in message, message
    # Rejected before any GL call: no error left behind.
    assert screen.host.clear_errors() == []


def test_cube_array_rejected_on_gl33(screen, profile):
    templ = _t(target=Target.TEXTURE_CUBE_ARRAY, array_size=12)
    if profile == "native":
        assert screen.can_create_resource(templ)
        return
    assert screen.can_create_resource(templ) is False
    with pytest.raises(
        UnsupportedError,
        match=r"ResourceTemplate\.target: TEXTURE_CUBE_ARRAY .*"
        r"texture_cube_map_array.*gl33",
    ):
        screen.resource_create(templ)


def test_cube_array_needs_multiple_of_6(screen, profile):
    templ = _t(target=Target.TEXTURE_CUBE_ARRAY, array_size=8)
    assert not screen.can_create_resource(templ)
    if profile == "gl33":
        # The missing target is reported first: the template cannot be fixed on gl33.
        with pytest.raises(UnsupportedError, match=r"ResourceTemplate\.target"):
            screen.resource_create(templ)
        return
    with pytest.raises(InvalidArgumentError, match=r"ResourceTemplate\.array_size: .*multiple of 6.*got 8"):
        screen.resource_create(templ)


def test_sparse_rejected_as_unsupported(screen):
    templ = _t(flags=ResourceFlag.SPARSE)
    assert not screen.can_create_resource(templ)
    with pytest.raises(UnsupportedError, match=r"ResourceTemplate\.flags: sparse"):
        screen.resource_create(templ)


def test_not_a_template(screen):
    with pytest.raises(InvalidArgumentError, match="can_create_resource: expected a ResourceTemplate, got dict"):
        screen.can_create_resource({"width0": 4})
    with pytest.raises(InvalidArgumentError, match="resource_create: expected a ResourceTemplate"):
        screen.resource_create(None)
    with pytest.raises(InvalidArgumentError, match="resource_destroy: expected a Resource"):
        screen.resource_destroy("texture")


def test_destroy_resource_of_another_screen(profile):
    from conftest import get_screen

    other = get_screen("gl33" if profile == "native" else "native")
    mine = get_screen(profile)
    res = other.resource_create(_t())
    mine.host.make_current()
    with pytest.raises(InvalidArgumentError, match="belongs to another screen"):
        mine.resource_destroy(res)
    other.host.make_current()
    other.resource_destroy(res)
    mine.host.make_current()


# --------------------------------------------------------------------------
# Limits: the maximum works, one more is rejected
# --------------------------------------------------------------------------

LIMIT_CASES = {
    # id: (limit, template at the limit (cheap: 1 texel high/deep), creates?)
    "1d": ("GL_MAX_TEXTURE_SIZE", lambda n: _t(target=Target.TEXTURE_1D, width0=n, height0=1), True),
    "2d_width": ("GL_MAX_TEXTURE_SIZE", lambda n: _t(width0=n, height0=1), True),
    "2d_height": ("GL_MAX_TEXTURE_SIZE", lambda n: _t(width0=1, height0=n), True),
    "rect": ("GL_MAX_RECTANGLE_TEXTURE_SIZE", lambda n: _t(target=Target.TEXTURE_RECT, width0=n, height0=1), True),
    "3d": ("GL_MAX_3D_TEXTURE_SIZE", lambda n: _t(target=Target.TEXTURE_3D, width0=1, height0=1, depth0=n), True),
    "layers": (
        "GL_MAX_ARRAY_TEXTURE_LAYERS",
        lambda n: _t(target=Target.TEXTURE_2D_ARRAY, width0=1, height0=1, array_size=n),
        True,
    ),
    # A cube at the limit would be gigabytes: only ask can_create.
    "cube": (
        "GL_MAX_CUBE_MAP_TEXTURE_SIZE",
        lambda n: _t(target=Target.TEXTURE_CUBE, width0=n, height0=n, array_size=6),
        False,
    ),
}


@pytest.mark.parametrize("case", sorted(LIMIT_CASES))
def test_size_limits(screen, case):
    limit_name, make, creates = LIMIT_CASES[case]
    gl = screen.host.gl
    limit = _limit(gl, limit_name)
    at_limit = make(limit)
    assert screen.can_create_resource(at_limit)
    if creates:
        res = screen.resource_create(at_limit)
        assert screen.host.clear_errors() == []
        screen.resource_destroy(res)
    over = make(limit + 1)
    assert not screen.can_create_resource(over)
    with pytest.raises(InvalidArgumentError, match=limit_name):
        screen.resource_create(over)


def test_full_chain_at_limit_is_accepted(screen):
    limit = _limit(screen.host.gl, "GL_MAX_TEXTURE_SIZE")
    top = limit.bit_length() - 1
    templ = _t(target=Target.TEXTURE_1D, width0=limit, height0=1, last_level=top)
    res = screen.resource_create(templ)
    assert gl_levels(screen.host.gl, res, GL_TEXTURE_1D)[0][-1] == (1, 1, 1)
    screen.resource_destroy(res)


def test_buffer_max_size_accepted_by_can_create(screen):
    templ = _t(target=Target.BUFFER, format=Format.R8_UNORM, width0=MAX_BUFFER_SIZE, height0=1, bind=Bind.VERTEX_BUFFER)
    assert screen.can_create_resource(templ)


# --------------------------------------------------------------------------
# GL state and failures
# --------------------------------------------------------------------------


def test_resource_create_leaves_gl_bindings(screen):
    """Active unit, texture bindings, the copy-write buffer and a bound
    pixel-unpack buffer are as they were; with an unpack buffer bound a
    NULL glTexImage would read from it, so the mutable path must unbind."""
    gl = screen.host.gl
    active = GL_TEXTURE0 + 3
    gl.glActiveTexture(active)
    keep_tex = int(gl.glGenTextures(1))
    gl.glBindTexture(GL_TEXTURE_2D, keep_tex)
    pbo, cwb = (int(x) for x in gl.glGenBuffers(2))
    gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo)
    gl.glBufferData(GL_PIXEL_UNPACK_BUFFER, 16, None, GL_STREAM_DRAW)  # far too small for any level
    gl.glBindBuffer(GL_COPY_WRITE_BUFFER, cwb)
    try:
        made = [
            screen.resource_create(_t(width0=64, height0=64, last_level=6)),
            screen.resource_create(_t(target=Target.TEXTURE_CUBE, array_size=6, last_level=4)),
            screen.resource_create(
                _t(target=Target.BUFFER, format=Format.R8_UNORM, height0=1, width0=128, bind=Bind.VERTEX_BUFFER)
            ),
        ]
        assert screen.host.clear_errors() == []
        assert _geti(gl, GL_ACTIVE_TEXTURE) == active
        assert _geti(gl, GL_TEXTURE_BINDING[GL_TEXTURE_2D]) == keep_tex
        assert _geti(gl, GL_PIXEL_UNPACK_BUFFER_BINDING) == pbo
        assert _geti(gl, GL_COPY_WRITE_BUFFER_BINDING) == cwb
        for res in made:
            screen.resource_destroy(res)
    finally:
        gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0)
        gl.glBindBuffer(GL_COPY_WRITE_BUFFER, 0)
        gl.glBindTexture(GL_TEXTURE_2D, 0)
        gl.glActiveTexture(GL_TEXTURE0)
        gl.glDeleteTextures(1, [keep_tex])
        gl.glDeleteBuffers(2, [pbo, cwb])


class _RecordingGL:
    """Forwards to PyOpenGL's GL module, recording texture names made and freed."""

    def __init__(self, gl):
        self._gl = gl
        self.generated = []
        self.deleted = []

    def __getattr__(self, name):
        return getattr(self._gl, name)

    def glGenTextures(self, n):
        name = self._gl.glGenTextures(n)
        self.generated.append(int(name))
        return name

    def glDeleteTextures(self, n, names):
        self.deleted.extend(int(x) for x in names)
        return self._gl.glDeleteTextures(n, names)


def test_gl_failure_leaves_no_half_made_object(screen, monkeypatch):
    """A GL error during allocation raises HostGLError naming the template
    and deletes the texture already generated."""
    import dataclasses

    from glpipe import resource as resource_mod

    templ = _t(width0=64, height0=64, last_level=2)
    res = resource_mod.Resource(screen, templ, resource_mod._validate(screen, templ))
    # An internal format GL does not know: glTexStorage / glTexImage fail.
    bogus = dataclasses.replace(res.storage, internal_format=0x1234)
    res._plan = dataclasses.replace(res._plan, storage=bogus)
    recorder = _RecordingGL(screen.host.gl)
    monkeypatch.setattr(screen.host, "gl", recorder)
    with pytest.raises(
        HostGLError,
        match=r"resource_create\(TEXTURE_2D R8G8B8A8_UNORM 64x64 levels 0\.\.2\): "
        r"host GL reported GL_INVALID",
    ):
        res.ensure_storage()
    monkeypatch.undo()
    assert len(recorder.generated) == 1
    assert recorder.deleted == recorder.generated
    assert not screen.host.gl.glIsTexture(recorder.generated[0])
    assert not res.has_storage
    assert screen.host.clear_errors() == []


def test_resource_changed_bumps_generation(screen):
    res = screen.resource_create(_t())
    assert res.generation == 0
    screen.resource_changed(res)
    screen.resource_changed(res)
    assert res.generation == 2
    screen.resource_destroy(res)


def test_repr_and_read_only_fields(screen):
    res = screen.resource_create(_t(target=Target.TEXTURE_2D_ARRAY, width0=8, height0=4, array_size=3, last_level=2))
    text = repr(res)
    assert "TEXTURE_2D_ARRAY" in text and "R8G8B8A8_UNORM" in text and "8x4[3]" in text
    with pytest.raises(AttributeError):
        res.width0 = 5
    with pytest.raises(AttributeError):
        res.gl_object = 7
    assert res.level_extent(2) == (2, 1, 3)
    screen.resource_destroy(res)
    assert "destroyed" in repr(res)


def test_caps_agree_with_can_create_resource(screen):
    """The size and feature caps a frontend reads describe exactly what
    resource_create accepts."""
    from glpipe.enums import Cap

    max_2d = screen.get_param(Cap.MAX_TEXTURE_2D_SIZE)
    assert screen.can_create_resource(_t(width0=max_2d, height0=1))
    assert not screen.can_create_resource(_t(width0=max_2d + 1, height0=1))
    size_3d = 1 << (screen.get_param(Cap.MAX_TEXTURE_3D_LEVELS) - 1)
    assert screen.can_create_resource(_t(target=Target.TEXTURE_3D, width0=size_3d, height0=1, depth0=1))
    assert not screen.can_create_resource(_t(target=Target.TEXTURE_3D, width0=2 * size_3d, height0=1, depth0=1))
    size_cube = 1 << (screen.get_param(Cap.MAX_TEXTURE_CUBE_LEVELS) - 1)
    assert screen.can_create_resource(_t(target=Target.TEXTURE_CUBE, width0=size_cube, height0=size_cube, array_size=6))
    assert not screen.can_create_resource(
        _t(target=Target.TEXTURE_CUBE, width0=2 * size_cube, height0=2 * size_cube, array_size=6)
    )
    layers = screen.get_param(Cap.MAX_TEXTURE_ARRAY_LAYERS)
    assert screen.can_create_resource(_t(target=Target.TEXTURE_2D_ARRAY, width0=1, height0=1, array_size=layers))
    assert not screen.can_create_resource(
        _t(target=Target.TEXTURE_2D_ARRAY, width0=1, height0=1, array_size=layers + 1)
    )
    assert bool(screen.get_param(Cap.CUBE_MAP_ARRAY)) == screen.can_create_resource(
        _t(target=Target.TEXTURE_CUBE_ARRAY, array_size=6)
    )
    persistent = _t(
        target=Target.BUFFER,
        format=Format.R8_UNORM,
        width0=64,
        height0=1,
        bind=Bind.VERTEX_BUFFER,
        flags=ResourceFlag.MAP_PERSISTENT | ResourceFlag.MAP_COHERENT,
    )
    # The cap also waits for persistent transfer_map (the context's job), so
    # it may say 0 where the storage could be made; it must never say 1
    # where resource_create refuses the flags.
    if screen.get_param(Cap.BUFFER_MAP_PERSISTENT_COHERENT):
        assert screen.can_create_resource(persistent)
