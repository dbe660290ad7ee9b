"""Pack and unpack pixels of plain pipe formats with numpy, driven by the format table.

docs/formats.md "Packing and unpacking plain formats" gives the value rules.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from glpipe.format_table import FORMAT_TABLE, ChannelType, Format
from lowering.errors import InvalidArgumentError, UnsupportedError

_ARRAY_DTYPES = {8: "u1", 16: "<u2", 32: "<u4", 64: "<u8"}
_FLOAT_VIEWS = {16: np.float16, 32: np.float32, 64: np.float64}
_UINT_VIEWS = {16: np.uint16, 32: np.uint32, 64: np.uint64}
_SIGNED = (ChannelType.SNORM, ChannelType.SSCALED, ChannelType.SINT, ChannelType.FIXED)
# The two "other"-layout formats that are still per-pixel bit fields.
_PACKED_FLOATS = (Format.R11G11B10_FLOAT, Format.R9G9B9E5_FLOAT)


def _desc(fmt):
    try:
        d = FORMAT_TABLE[Format(fmt)]
    except (ValueError, TypeError, IndexError):
        raise InvalidArgumentError(f"{fmt!r} is not a pipe format") from None
    if not d.is_plain and d.format not in _PACKED_FLOATS:
        raise UnsupportedError(f"format_pack: {d.name} ({d.layout} layout) has no per-pixel packing")
    return d


def _blocks(d, data, count: int) -> np.ndarray:
    buf = np.frombuffer(memoryview(data).cast("B"), np.uint8) if not isinstance(data, np.ndarray) else data
    buf = buf.reshape(-1).view(np.uint8)
    need = count * d.blocksize
    if buf.size < need:
        raise InvalidArgumentError(f"format_pack: {count} pixels of {d.name} need {need} bytes, got {buf.size}")
    return buf[:need].reshape(count, d.blocksize)


def _raw_channels(d, blocks: np.ndarray) -> list:
    """Each channel's raw bits as uint64, one value per pixel."""
    aligned = all(c.size in _ARRAY_DTYPES and c.shift % 8 == 0 for c in d.channels)
    out = []
    if aligned:
        for c in d.channels:
            start = c.shift // 8
            field = np.ascontiguousarray(blocks[:, start : start + c.size // 8])
            out.append(field.view(_ARRAY_DTYPES[c.size]).reshape(-1).astype(np.uint64))
        return out
    # Bit fields inside one word of at most 64 bits.
    word = np.zeros(blocks.shape[0], np.uint64)
    for i in range(d.blocksize):
        word |= blocks[:, i].astype(np.uint64) << np.uint64(8 * i)
    for c in d.channels:
        mask = np.uint64((1 << c.size) - 1)
        out.append((word >> np.uint64(c.shift)) & mask)
    return out


def _sign_extend(raw: np.ndarray, bits: int) -> np.ndarray:
    v = raw.astype(np.int64) if bits < 64 else raw.view(np.int64)
    if bits < 64:
        v = np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)
    return v


def _small_float_decode(raw: np.ndarray, bits: int) -> np.ndarray:
    """Unsigned 11/10-bit floats (5-bit exponent, bias 15, no sign)."""
    mbits = bits - 5
    e = (raw >> np.uint64(mbits)).astype(np.int64)
    m = (raw & np.uint64((1 << mbits) - 1)).astype(np.float64)
    value = np.where(e == 0, m / (1 << mbits) * 2.0**-14, 2.0 ** (e - 15) * (1 + m / (1 << mbits)))
    return np.where(e == 31, np.where(m == 0, np.inf, np.nan), value)


def _decode(c, raw: np.ndarray) -> np.ndarray:
    t, n = c.type, c.size
    if t == ChannelType.UNORM:
        return raw.astype(np.float64) / float((1 << n) - 1)
    if t == ChannelType.SNORM:
        return np.maximum(_sign_extend(raw, n) / float((1 << (n - 1)) - 1), -1.0)
    if t == ChannelType.USCALED:
        return raw.astype(np.float64)
    if t == ChannelType.SSCALED:
        return _sign_extend(raw, n).astype(np.float64)
    if t == ChannelType.FIXED:
        return _sign_extend(raw, n) / 65536.0
    if t == ChannelType.UINT:
        return raw
    if t == ChannelType.SINT:
        return _sign_extend(raw, n)
    if t == ChannelType.FLOAT:
        if n in _FLOAT_VIEWS:
            return raw.astype(_UINT_VIEWS[n]).view(_FLOAT_VIEWS[n]).astype(np.float64)
        return _small_float_decode(raw, n)
    return np.zeros(raw.shape, np.float64)  # VOID


def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


def _result_dtype(d):
    if d.is_pure_uint:
        return np.uint64
    if d.is_pure_integer:
        return np.int64
    return np.float64


def unpack_rgba(fmt, data, count: int, decode_srgb: bool = False) -> np.ndarray:
    """``count`` pixels of ``fmt`` from ``data`` (bytes-like or numpy) as an
    (count, 4) array of Gallium values (see the module docstring)."""
    d = _desc(fmt)
    blocks = _blocks(d, data, int(count))
    raws = _raw_channels(d, blocks)
    if d.format == Format.R9G9B9E5_FLOAT:
        scale = 2.0 ** (raws[3].astype(np.int64) - 15 - 9)
        values = [raws[i].astype(np.float64) * scale for i in range(3)]
    else:
        values = [_decode(c, r) for c, r in zip(d.channels, raws, strict=True)]
    dtype = _result_dtype(d)
    out = np.zeros((blocks.shape[0], 4), dtype)
    zs = d.colorspace == "zs"
    for comp, s in enumerate(d.swizzle):
        if s <= 3:
            v = values[s]
            if decode_srgb and d.is_srgb and comp < 3:
                v = _srgb_to_linear(v)
            out[:, comp] = v
        elif s == 5 and not zs:  # ONE
            out[:, comp] = 1
    return out


def _encode(c, v: np.ndarray) -> np.ndarray:
    """Raw uint64 bits of channel ``c`` for values ``v``."""
    t, n = c.type, c.size
    if t == ChannelType.UNORM:
        raw = np.rint(np.clip(v.astype(np.float64), 0.0, 1.0) * ((1 << n) - 1)).astype(np.int64)
    elif t == ChannelType.SNORM:
        raw = np.rint(np.clip(v.astype(np.float64), -1.0, 1.0) * ((1 << (n - 1)) - 1)).astype(np.int64)
    elif t in (ChannelType.USCALED, ChannelType.UINT):
        if n == 64:
            return np.asarray(v).astype(np.uint64)
        raw = np.clip(
            np.rint(v.astype(np.float64)) if t == ChannelType.USCALED else v.astype(np.int64), 0, (1 << n) - 1
        ).astype(np.int64)
    elif t in (ChannelType.SSCALED, ChannelType.SINT):
        if n == 64:
            return np.asarray(v).astype(np.int64).view(np.uint64)
        lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
        raw = np.clip(np.rint(v.astype(np.float64)) if t == ChannelType.SSCALED else v.astype(np.int64), lo, hi)
        raw = raw.astype(np.int64)
    elif t == ChannelType.FIXED:
        raw = np.clip(np.rint(v.astype(np.float64) * 65536.0), -(1 << 31), (1 << 31) - 1).astype(np.int64)
    elif t == ChannelType.FLOAT and n in _FLOAT_VIEWS:
        return v.astype(_FLOAT_VIEWS[n]).view(_UINT_VIEWS[n]).astype(np.uint64)
    elif t == ChannelType.FLOAT:
        # 11/10-bit unsigned floats share float16's exponent: drop the sign
        # (negatives clamp to 0) and the low mantissa bits.
        h = np.maximum(v.astype(np.float64), 0.0).astype(np.float16).view(np.uint16).astype(np.uint64)
        return h >> np.uint64(15 - n)
    else:  # VOID
        return np.zeros(v.shape, np.uint64)
    return (raw & ((1 << n) - 1)).astype(np.uint64)


def _rgb9e5_encode(rgb: np.ndarray) -> list:
    """EXT_texture_shared_exponent's packing of three non-negative floats."""
    mbits, bias, emax = 9, 15, 31
    max_val = (2**mbits - 1) / 2**mbits * 2.0 ** (emax - bias)
    c = np.clip(np.nan_to_num(rgb.astype(np.float64)), 0.0, max_val)
    cmax = c.max(axis=1)
    with np.errstate(divide="ignore"):
        exp_p = np.maximum(-bias - 1, np.floor(np.log2(np.where(cmax > 0, cmax, 1e-300)))) + 1 + bias
    maxm = np.floor(cmax / 2.0 ** (exp_p - bias - mbits) + 0.5)
    exp_s = np.where(maxm == 2**mbits, exp_p + 1, exp_p)
    m = np.floor(c / (2.0 ** (exp_s - bias - mbits))[:, None] + 0.5).astype(np.uint64)
    return [m[:, 0], m[:, 1], m[:, 2], exp_s.astype(np.uint64)]


def pack_rgba(fmt, rgba, encode_srgb: bool = False) -> np.ndarray:
    """Pack an (N, 4) array of Gallium values into ``fmt``'s bytes (uint8
    array of N blocks).  Each channel takes the first component whose
    swizzle reads it (L takes R, A8 takes A, ...); padding is zero."""
    d = _desc(fmt)
    rgba = np.asarray(rgba)
    if rgba.ndim != 2 or rgba.shape[1] != 4:
        raise InvalidArgumentError(f"pack_rgba: expected an (N, 4) array, got shape {rgba.shape}")
    count = rgba.shape[0]
    if d.format == Format.R9G9B9E5_FLOAT:
        raws = _rgb9e5_encode(rgba[:, :3])
    else:
        raws = []
        for i, c in enumerate(d.channels):
            comp = next((k for k, s in enumerate(d.swizzle) if s == i), None)
            if comp is None or c.type == ChannelType.VOID:
                raws.append(np.zeros(count, np.uint64))
                continue
            v = rgba[:, comp]
            if encode_srgb and d.is_srgb and comp < 3:
                v = _linear_to_srgb(v.astype(np.float64))
            raws.append(_encode(c, v))
    return _pack_raws(d, raws, count)


def _pack_raws(d, raws: list, count: int) -> np.ndarray:
    """``count`` blocks of ``d`` from each channel's raw bits (uint64 per pixel)."""
    blocks = np.zeros((count, d.blocksize), np.uint8)
    aligned = all(c.size in _ARRAY_DTYPES and c.shift % 8 == 0 for c in d.channels)
    if aligned:
        for c, raw in zip(d.channels, raws, strict=True):
            start = c.shift // 8
            field = raw.astype(_ARRAY_DTYPES[c.size]).reshape(count, 1).view(np.uint8)
            blocks[:, start : start + c.size // 8] = field.reshape(count, c.size // 8)
        return blocks.reshape(-1)
    word = np.zeros(count, np.uint64)
    for c, raw in zip(d.channels, raws, strict=True):
        word |= (raw & np.uint64((1 << c.size) - 1)) << np.uint64(c.shift)
    for i in range(d.blocksize):
        blocks[:, i] = ((word >> np.uint64(8 * i)) & np.uint64(0xFF)).astype(np.uint8)
    return blocks.reshape(-1)


def convert(src_fmt, dst_fmt, data, count: int) -> np.ndarray:
    """``count`` pixels of ``src_fmt`` re-packed as ``dst_fmt`` (sRGB values
    are copied encoded when both formats are sRGB, else decoded/encoded)."""
    src, dst = _desc(src_fmt), _desc(dst_fmt)
    both_srgb = src.is_srgb and dst.is_srgb
    rgba = unpack_rgba(src_fmt, data, count, decode_srgb=not both_srgb)
    return pack_rgba(dst_fmt, rgba, encode_srgb=not both_srgb)


# ---------------------------------------------------------------------------
# Transfers: conversions that keep every bit (docs/formats.md "Transfers:
# what round-trips")
# ---------------------------------------------------------------------------


def _reader(d, j: int) -> int | None:
    """The component (0..3) whose value :func:`pack_rgba` stores in channel ``j``."""
    return next((k for k, s in enumerate(d.swizzle) if s == j), None)


@cache
def _bit_plan(src_fmt: Format, dst_fmt: Format) -> tuple:
    """How a transfer moves ``src_fmt`` pixels into ``dst_fmt`` without loss:
    ((dst channel, src channel, how), ...) for the channels a value
    conversion could change; the others go through :func:`convert`.

    ``bits``: same type and width: the raw bits move (a value round trip
    would turn SNORM's -128 into -127 and quiet a signalling NaN).
    ``widen``: UNORM into a wider UNORM: the code a quarter step above the
    exact value, so a host that rounds and one that truncates both store the
    original code back (GL 4.5 §2.3.5.2 lets it pick either neighbour).
    ``pad``: a padding (X) channel and a channel of the other format that
    carries no component of this one (hidden on the host by the storage
    swizzle, e.g. RGB1): the padding rides there, so it survives too.
    """
    src, dst = FORMAT_TABLE[src_fmt], FORMAT_TABLE[dst_fmt]
    plan = []
    fed_from = set()
    dst_spare = []
    for j, cj in enumerate(dst.channels):
        comp = _reader(dst, j)
        if comp is None or src.swizzle[comp] > 3:
            dst_spare.append(j)
            continue
        i = src.swizzle[comp]
        fed_from.add(i)
        ci = src.channels[i]
        if comp < 3 and src.is_srgb != dst.is_srgb:
            continue  # convert decodes or encodes sRGB: a value change on purpose
        if (ci.type, ci.size) == (cj.type, cj.size):
            plan.append((j, i, "bits"))
        elif ci.type == cj.type == ChannelType.UNORM and ci.size < cj.size and ci.size + cj.size <= 62:
            # (the bound keeps _convert_exact's product inside uint64)
            plan.append((j, i, "widen"))
    src_spare = [i for i in range(len(src.channels)) if i not in fed_from]
    for i, j in zip(src_spare, dst_spare, strict=False):
        if ChannelType.VOID in (src.channels[i].type, dst.channels[j].type):
            plan.append((j, i, "pad"))
    return tuple(plan)


def _convert_exact(src_fmt, dst_fmt, data, count: int) -> np.ndarray:
    """:func:`convert`, then every channel of :func:`_bit_plan` overwritten
    with the source's bits (see there)."""
    src, dst = _desc(src_fmt), _desc(dst_fmt)
    out = convert(src_fmt, dst_fmt, data, count)
    plan = _bit_plan(src.format, dst.format)
    if not plan:
        return out
    src_raws = _raw_channels(src, _blocks(src, data, count))
    dst_raws = _raw_channels(dst, out.reshape(count, dst.blocksize))
    for j, i, how in plan:
        n, m = src.channels[i].size, dst.channels[j].size
        raw = src_raws[i]
        if how == "widen":
            top = (1 << m) - 1
            # floor((k + 1/4) * (2^m - 1) / (2^n - 1)), exact in uint64 (n + m <= 62).
            quarter_up = (raw * np.uint64(4) + np.uint64(1)) * np.uint64(top) // np.uint64(4 * ((1 << n) - 1))
            dst_raws[j] = np.minimum(quarter_up, np.uint64(top))
        else:
            dst_raws[j] = raw & np.uint64((1 << min(n, m)) - 1)
    return _pack_raws(dst, dst_raws, count)


def to_host(fmt, host, data, count: int):
    """Bytes to hand GL for ``count`` pixels of ``fmt`` stored as ``host``
    (a glpipe HostFormat): converted into ``host.transfer_as`` if the row
    says so, else ``data`` itself.  The conversion keeps every bit the
    host storage has room for (:func:`_bit_plan`), so
    ``from_host(to_host(x))`` gives ``x`` back."""
    if host.transfer_as is None:
        return data
    return _convert_exact(fmt, host.transfer_as, data, count)


def from_host(fmt, host, data, count: int):
    """Inverse of :func:`to_host`: pixels GL returned, as ``fmt``'s bytes."""
    if host.transfer_as is None:
        return data
    return _convert_exact(host.transfer_as, fmt, data, count)


__all__ = ["unpack_rgba", "pack_rgba", "convert", "to_host", "from_host"]
