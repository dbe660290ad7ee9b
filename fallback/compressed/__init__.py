"""Compressed formats the host cannot sample, decoded with numpy.

``DECODERS`` maps a compressed pipe format to its block decoder and the
uncompressed pipe format the decoded texels are laid out in (the ``via=``
of the format table's fallback host row: RGBA8 / SRGB8_ALPHA8 for colour
formats, R8 / RG8 (snorm) for RGTC, R16 / RG16 (snorm) for EAC R11 / RG11,
RGBA16F for BC6H; each holds every decoded value exactly).  ``decode_blocks`` turns a
(depth, rows of blocks, bytes per row) array of blocks into texels of that
layout, cropped to the region's texel size (a 5x5 level is 2x2 blocks).

``Shadow`` keeps the compressed bytes the application wrote, per level, so
a READ map returns them exactly (docs/formats.md "Read-back").  Decoders
take an (N, blocksize) uint8 array and decode every block at once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from glpipe.format_table import FORMAT_TABLE, Format
from lowering.errors import InvalidArgumentError, UnsupportedError

from . import bptc, etc2, s3tc

# GL 4.5 §8.7 (table 8.19 and the CompressedTexImage3D errors): of the
# families decoded here only BPTC may be used for TEXTURE_3D; all of them
# for 2D, cube and 2D / cube-map arrays.
VOLUME_LAYOUTS = frozenset({"bptc"})


@dataclass(frozen=True)
class Decoder:
    """How one compressed format is decoded: ``decode`` maps (N, blocksize)
    uint8 blocks to (N, 4, 4, C) texels of ``via``'s channel type."""

    decode: object
    via: Format


_RGBA8, _SRGBA8 = Format.R8G8B8A8_UNORM, Format.R8G8B8A8_SRGB

DECODERS: dict[Format, Decoder] = {
    Format.DXT1_RGB: Decoder(s3tc.decode_dxt1_rgb, _RGBA8),
    Format.DXT1_RGBA: Decoder(s3tc.decode_dxt1_rgba, _RGBA8),
    Format.DXT3_RGBA: Decoder(s3tc.decode_dxt3, _RGBA8),
    Format.DXT5_RGBA: Decoder(s3tc.decode_dxt5, _RGBA8),
    Format.DXT1_SRGB: Decoder(s3tc.decode_dxt1_rgb, _SRGBA8),
    Format.DXT1_SRGBA: Decoder(s3tc.decode_dxt1_rgba, _SRGBA8),
    Format.DXT3_SRGBA: Decoder(s3tc.decode_dxt3, _SRGBA8),
    Format.DXT5_SRGBA: Decoder(s3tc.decode_dxt5, _SRGBA8),
    Format.RGTC1_UNORM: Decoder(s3tc.decode_rgtc1_unorm, Format.R8_UNORM),
    Format.RGTC1_SNORM: Decoder(s3tc.decode_rgtc1_snorm, Format.R8_SNORM),
    Format.RGTC2_UNORM: Decoder(s3tc.decode_rgtc2_unorm, Format.R8G8_UNORM),
    Format.RGTC2_SNORM: Decoder(s3tc.decode_rgtc2_snorm, Format.R8G8_SNORM),
    Format.LATC1_UNORM: Decoder(s3tc.decode_rgtc1_unorm, Format.R8_UNORM),
    Format.LATC1_SNORM: Decoder(s3tc.decode_rgtc1_snorm, Format.R8_SNORM),
    Format.LATC2_UNORM: Decoder(s3tc.decode_rgtc2_unorm, Format.R8G8_UNORM),
    Format.LATC2_SNORM: Decoder(s3tc.decode_rgtc2_snorm, Format.R8G8_SNORM),
    Format.BPTC_RGBA_UNORM: Decoder(bptc.decode_bc7, _RGBA8),
    Format.BPTC_SRGBA: Decoder(bptc.decode_bc7, _SRGBA8),
    Format.BPTC_RGB_FLOAT: Decoder(bptc.decode_bc6h_signed, Format.R16G16B16A16_FLOAT),
    Format.BPTC_RGB_UFLOAT: Decoder(bptc.decode_bc6h_unsigned, Format.R16G16B16A16_FLOAT),
    Format.ETC1_RGB8: Decoder(etc2.decode_etc2_rgb8, _RGBA8),
    Format.ETC2_RGB8: Decoder(etc2.decode_etc2_rgb8, _RGBA8),
    Format.ETC2_SRGB8: Decoder(etc2.decode_etc2_rgb8, _SRGBA8),
    Format.ETC2_RGB8A1: Decoder(etc2.decode_etc2_rgb8a1, _RGBA8),
    Format.ETC2_SRGB8A1: Decoder(etc2.decode_etc2_rgb8a1, _SRGBA8),
    Format.ETC2_RGBA8: Decoder(etc2.decode_etc2_rgba8, _RGBA8),
    Format.ETC2_SRGBA8: Decoder(etc2.decode_etc2_rgba8, _SRGBA8),
    Format.ETC2_R11_UNORM: Decoder(etc2.decode_eac_r11_unorm, Format.R16_UNORM),
    Format.ETC2_R11_SNORM: Decoder(etc2.decode_eac_r11_snorm, Format.R16_SNORM),
    Format.ETC2_RG11_UNORM: Decoder(etc2.decode_eac_rg11_unorm, Format.R16G16_UNORM),
    Format.ETC2_RG11_SNORM: Decoder(etc2.decode_eac_rg11_snorm, Format.R16G16_SNORM),
}


def decoder_for(fmt) -> Decoder:
    """The Decoder of compressed ``fmt`` (UnsupportedError if glpipe has none)."""
    try:
        return DECODERS[Format(fmt)]
    except (KeyError, ValueError):
        raise UnsupportedError(f"fallback.compressed: no numpy decoder for {fmt!r}") from None


def decode_blocks(fmt, blocks, width: int, height: int) -> np.ndarray:
    """Decode a region of ``fmt`` blocks to texels.

    ``blocks``: uint8 array (depth, nby, nbx * blocksize) -- the layout of a
    Gallium transfer of a compressed box.  Returns a C-contiguous uint8
    array (depth, height, width * texel bytes) in ``decoder_for(fmt).via``'s
    layout, the partial blocks at the right / bottom edge cropped to
    ``width`` x ``height`` texels."""
    dec = decoder_for(fmt)
    desc = FORMAT_TABLE[Format(fmt)]
    blocks = np.ascontiguousarray(blocks, dtype=np.uint8)
    if blocks.ndim != 3:
        raise InvalidArgumentError(f"decode_blocks: expected (depth, rows, row bytes), got shape {blocks.shape}")
    depth, nby, row = blocks.shape
    bs = desc.blocksize
    nbx = row // bs
    if row != nbx * bs or nbx * 4 < width or nby * 4 < height or width <= 0 or height <= 0:
        raise InvalidArgumentError(
            f"decode_blocks: {desc.name} blocks of shape {blocks.shape} do not cover {width}x{height} texels"
        )
    texels = dec.decode(blocks.reshape(-1, bs))  # (depth * nby * nbx, 4, 4, C)
    comps = texels.shape[-1]
    image = texels.reshape(depth, nby, nbx, 4, 4, comps).transpose(0, 1, 3, 2, 4, 5)
    image = image.reshape(depth, nby * 4, nbx * 4, comps)[:, :height, :width]
    return np.ascontiguousarray(image).view(np.uint8).reshape(depth, height, -1)


class Shadow:
    """The compressed bytes an application wrote into a resource whose host
    storage holds decoded texels, kept per (level, layer) image so a READ
    transfer can return them unchanged.

    ``images[level]`` is a (layers, nby, nbx * blocksize) uint8 array and
    ``written[level]`` a (layers, nby, nbx) bool array of blocks written.
    Costs the compressed size of the resource in host memory (a quarter to
    an eighth of the decoded RGBA8 storage)."""

    def __init__(self, fmt, level_extents):
        desc = FORMAT_TABLE[Format(fmt)]
        self.blocksize = desc.blocksize
        self.images = []
        self.written = []
        for w, h, layers in level_extents:
            nbx, nby = -(-w // desc.block_width), -(-h // desc.block_height)
            self.images.append(np.zeros((layers, nby, nbx * self.blocksize), np.uint8))
            self.written.append(np.zeros((layers, nby, nbx), bool))

    @property
    def nbytes(self) -> int:
        """Host memory the copy takes."""
        return sum(i.nbytes for i in self.images)

    def store(self, level: int, z: int, by: int, bx: int, blocks: np.ndarray) -> None:
        """Record ``blocks`` ((d, nby, nbx * blocksize)) written at block (bx, by), layer z."""
        d, nby, row = blocks.shape
        nbx = row // self.blocksize
        bs = self.blocksize
        self.images[level][z : z + d, by : by + nby, bx * bs : (bx + nbx) * bs] = blocks
        self.written[level][z : z + d, by : by + nby, bx : bx + nbx] = True

    def covers(self, level: int, z: int, by: int, bx: int, d: int, nby: int, nbx: int) -> bool:
        """Whether the application wrote every block of the region."""
        return bool(self.written[level][z : z + d, by : by + nby, bx : bx + nbx].all())

    def load(self, level: int, z: int, by: int, bx: int, d: int, nby: int, nbx: int) -> np.ndarray:
        """The compressed bytes of a region: what the application wrote;
        zero bytes for blocks it never wrote (undefined contents in Gallium)."""
        bs = self.blocksize
        return self.images[level][z : z + d, by : by + nby, bx * bs : (bx + nbx) * bs].copy()


def measure_decode_cost(formats, sample_bytes: int = 1 << 16) -> str:
    """Decode time of random blocks of each of ``formats``, in ms per MB of
    compressed data (measured now, on ``sample_bytes`` of blocks; the
    ``cost_*`` functions measure once per process)."""
    import time

    rng = np.random.default_rng(0)
    parts = []
    for fmt in formats:
        desc = FORMAT_TABLE[Format(fmt)]
        blocks = rng.integers(0, 256, (sample_bytes // desc.blocksize, desc.blocksize), dtype=np.uint8)
        start = time.perf_counter()
        decoder_for(fmt).decode(blocks)
        per_mb = (time.perf_counter() - start) * (1 << 20) / sample_bytes
        parts.append(f"{desc.name} {per_mb * 1000:.0f} ms/MB")
    return "decode " + ", ".join(parts) + " (numpy, at upload; sampling then costs what RGBA8 does)"


@functools.cache
def cost_s3tc() -> str:
    """fallback.registry cost of the S3TC row."""
    return measure_decode_cost((Format.DXT1_RGBA, Format.DXT5_RGBA))


@functools.cache
def cost_rgtc() -> str:
    """fallback.registry cost of the RGTC row."""
    return measure_decode_cost((Format.RGTC1_UNORM, Format.RGTC2_SNORM))


@functools.cache
def cost_bptc() -> str:
    """fallback.registry cost of the BPTC row."""
    return measure_decode_cost((Format.BPTC_RGBA_UNORM, Format.BPTC_RGB_UFLOAT))


@functools.cache
def cost_etc2() -> str:
    """fallback.registry cost of the ETC2 / EAC row."""
    return measure_decode_cost((Format.ETC2_RGB8, Format.ETC2_RGBA8, Format.ETC2_R11_UNORM))


__all__ = [
    "DECODERS",
    "VOLUME_LAYOUTS",
    "Decoder",
    "Shadow",
    "cost_bptc",
    "cost_etc2",
    "cost_rgtc",
    "cost_s3tc",
    "decode_blocks",
    "decoder_for",
    "measure_decode_cost",
]
