"""Character cursor over TGSI text, with 1-based line/column error reporting.

TGSI text has no token stream of its own: Mesa's ``tgsi_text.c`` reads it
character by character, and whether a word is a register file, an opcode or
a texture target depends on where it appears.  ``Cursor`` gives the parser
the same primitives (skip whitespace, read a word, read an unsigned
integer, expect a character) plus positions for ``TGSIParseError``.

Whitespace is space, tab, newline and carriage return (so CRLF files work).
As an extension over Mesa, ``;`` and ``//`` start a comment that runs to
the end of the line (Mesa's own dumps never contain either character).
"""

from __future__ import annotations

import math
import struct

from .errors import TGSIParseError

_WS = " \t\r\n"
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_DIGITS = frozenset("0123456789")
# The widest TGSI number is a 64-bit one: 20 decimal digits.
_MAX_UINT_DIGITS = 20


class Cursor:
    """A position in the source text; every ``expect_*`` raises TGSIParseError."""

    __slots__ = ("text", "pos", "_line_starts")

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self._line_starts = starts

    # -- positions -----------------------------------------------------------

    def line_col(self, pos: int | None = None) -> tuple[int, int]:
        """1-based (line, column) of ``pos`` (default: the cursor)."""
        if pos is None:
            pos = self.pos
        lo, hi = 0, len(self._line_starts) - 1
        while lo < hi:  # last line start <= pos
            mid = (lo + hi + 1) // 2
            if self._line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, pos - self._line_starts[lo] + 1

    def line_text(self, line: int) -> str:
        """The source text of 1-based ``line`` without its line ending."""
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        if end < 0:
            end = len(self.text)
        return self.text[start:end].rstrip("\r")

    def describe(self, pos: int | None = None) -> str:
        """What is at ``pos``, for ``got ...`` in messages."""
        if pos is None:
            pos = self.pos
        text = self.text
        if pos >= len(text):
            return "end of input"
        ch = text[pos]
        if ch in "\r\n" or ch == ";" or text.startswith("//", pos):
            return "end of line"
        if ch in _WORD_CHARS:
            end = pos
            while end < len(text) and text[end] in _WORD_CHARS:
                end += 1
            return repr(text[pos:end])
        return repr(ch)

    def error(self, message: str, pos: int | None = None) -> TGSIParseError:
        """A TGSIParseError at ``pos`` (default: the cursor)."""
        if pos is None:
            pos = self.pos
        line, col = self.line_col(pos)
        return TGSIParseError(message, line, col, self.line_text(line))

    def expected(self, what: str, pos: int | None = None) -> TGSIParseError:
        """``expected <what>, got <thing at pos>``."""
        if pos is None:
            pos = self.pos
        return self.error(f"expected {what}, got {self.describe(pos)}", pos)

    # -- scanning ------------------------------------------------------------

    def at_end(self) -> bool:
        """True at the end of the text."""
        return self.pos >= len(self.text)

    def peek(self, offset: int = 0) -> str:
        """The character at the cursor (+offset), or '' at the end."""
        i = self.pos + offset
        return self.text[i] if i < len(self.text) else ""

    def skip_ws(self) -> bool:
        """Skip whitespace and comments; True if a newline was crossed."""
        text, n = self.text, len(self.text)
        pos = self.pos
        newline = False
        while pos < n:
            ch = text[pos]
            if ch in _WS:
                if ch == "\n":
                    newline = True
                pos += 1
            elif ch == ";" or (ch == "/" and text.startswith("//", pos)):
                end = text.find("\n", pos)
                pos = n if end < 0 else end
            else:
                break
        self.pos = pos
        return newline

    def skip_inline_ws(self) -> None:
        """Skip spaces and tabs only (stay on this line)."""
        text, n, pos = self.text, len(self.text), self.pos
        while pos < n and text[pos] in " \t\r":
            pos += 1
        self.pos = pos

    def rest_of_line_blank(self) -> bool:
        """True when only whitespace or a comment remains on the current line."""
        text, n, pos = self.text, len(self.text), self.pos
        while pos < n and text[pos] in " \t\r":
            pos += 1
        if pos >= n or text[pos] == "\n" or text[pos] == ";" or text.startswith("//", pos):
            return True
        return False

    def accept(self, ch: str) -> bool:
        """Skip whitespace; consume ``ch`` if it is next."""
        self.skip_ws()
        if self.text.startswith(ch, self.pos):
            self.pos += len(ch)
            return True
        return False

    def expect(self, ch: str, what: str | None = None) -> None:
        """Skip whitespace and consume ``ch`` or raise ``expected 'ch'``.

        A missing character is reported where the current line ends (or at
        the unexpected character on it), not at the start of the next line.
        """
        self.skip_inline_ws()
        report_at = self.pos
        self.skip_ws()
        if not self.text.startswith(ch, self.pos):
            raise self.expected(what or repr(ch), report_at)
        self.pos += len(ch)

    def peek_word(self) -> str:
        """The word ([A-Za-z0-9_]+) at the cursor, upper-cased, without consuming it."""
        text, n = self.text, len(self.text)
        end = self.pos
        while end < n and text[end] in _WORD_CHARS:
            end += 1
        return text[self.pos : end].upper()

    def word(self) -> str:
        """Consume and return the word at the cursor, upper-cased ('' if none)."""
        w = self.peek_word()
        self.pos += len(w)
        return w

    def uint(self, what: str = "an unsigned integer") -> int:
        """Consume a decimal unsigned integer or raise ``expected <what>``."""
        text, n = self.text, len(self.text)
        start = end = self.pos
        while end < n and text[end] in _DIGITS:
            end += 1
        if end == start:
            raise self.expected(what)
        if end < n and text[end] in _WORD_CHARS:
            raise self.expected(what)
        digits = text[start:end].lstrip("0")
        if len(digits) > _MAX_UINT_DIGITS:
            # (Python refuses to convert over 4,300 digits; no TGSI field is wider than 64 bits.)
            raise self.expected(f"{what} (at most {_MAX_UINT_DIGITS} digits)")
        self.pos = end
        return int(digits or "0")

    def at_digit(self) -> bool:
        """True when a decimal digit is at the cursor."""
        return self.peek() in _DIGITS

    def number_token(self) -> str:
        """Consume a numeric literal token: sign, digits/letters/'.', exponent sign."""
        text, n = self.text, len(self.text)
        start = pos = self.pos
        if pos < n and text[pos] in "+-":
            pos += 1
        exponent_letters = "pP" if text[pos : pos + 2].lower() == "0x" else "eE"
        while pos < n:
            ch = text[pos]
            if ch in _WORD_CHARS or ch == ".":
                pos += 1
            elif ch in "+-" and text[pos - 1] in exponent_letters:
                pos += 1
            else:
                break
        self.pos = pos
        return text[start:pos]


# -- literal conversion -------------------------------------------------------------


def _is_hex(token: str) -> bool:
    return token.lstrip("+-")[:2].lower() == "0x"


def _f32_bits(value: float) -> int:
    if math.isnan(value):
        return 0xFFC00000 if math.copysign(1.0, value) < 0 else 0x7FC00000
    try:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        raise ValueError(" (out of range for a 32-bit float)") from None


def _int_literal(token: str, c_base0: bool) -> int:
    """Integer literal; hex with 0x; with ``c_base0`` a leading 0 means octal (strtoll)."""
    body = token.lstrip("+-")
    sign = -1 if token.startswith("-") else 1
    if body[:2].lower() == "0x":
        return sign * int(body[2:], 16)
    if c_base0 and len(body) > 1 and body[0] == "0":
        return sign * int(body[1:], 8)
    if not body.isdigit():
        raise ValueError("")
    return sign * int(body, 10)


def convert_literal(imm_type: str, token: str) -> tuple[int, ...]:
    """One immediate literal -> its 32-bit words (1, or 2 for 64-bit types, low first).

    FLT32/FLT64: decimal (``1``, ``-0.5``, ``1e-3``, ``inf``, ``nan``), ``0x`` + hex
    digits = raw IEEE bits, signed or ``p``-exponent hex = a hex-float value.
    UINT32/INT32: decimal or ``0x`` hex.  UINT64/INT64: C ``strtoll(.., 0)`` rules
    (``0x`` hex, leading ``0`` octal).  Raises ValueError (its text, if any, is a
    parenthesised reason to append to the message).
    """
    if not token:
        raise ValueError("")
    try:
        if imm_type == "FLT32":
            if _is_hex(token) and not any(ch in token.lower()[2:] for ch in ".p") and not token.startswith(("-", "+")):
                bits = int(token[2:], 16)
                if bits > 0xFFFFFFFF:
                    raise ValueError(" (raw bits wider than 32)")
                return (bits,)
            value = float.fromhex(token) if _is_hex(token) else float(token)
            return (_f32_bits(value),)
        if imm_type in ("UINT32", "INT32"):
            value = _int_literal(token, c_base0=False)
            if imm_type == "UINT32" and not 0 <= value <= 0xFFFFFFFF:
                raise ValueError(" (out of range for UINT32)")
            if imm_type == "INT32" and not (
                -(1 << 31) <= value <= 0x7FFFFFFF or (_is_hex(token) and value <= 0xFFFFFFFF)
            ):
                raise ValueError(" (out of range for INT32)")
            return (value & 0xFFFFFFFF,)
        if imm_type == "FLT64":
            if _is_hex(token) and not any(ch in token.lower()[2:] for ch in ".p") and not token.startswith(("-", "+")):
                bits = int(token[2:], 16)
                if bits > 0xFFFFFFFFFFFFFFFF:
                    raise ValueError(" (raw bits wider than 64)")
            else:
                value = float.fromhex(token) if _is_hex(token) else float(token)
                bits = struct.unpack("<Q", struct.pack("<d", value))[0]
            return (bits & 0xFFFFFFFF, bits >> 32)
        value = _int_literal(token, c_base0=True)
        if imm_type == "UINT64" and not 0 <= value <= 0xFFFFFFFFFFFFFFFF:
            raise ValueError(" (out of range for UINT64)")
        if imm_type == "INT64" and not -(1 << 63) <= value <= 0xFFFFFFFFFFFFFFFF:
            raise ValueError(" (out of range for INT64)")
        bits = value & 0xFFFFFFFFFFFFFFFF
        return (bits & 0xFFFFFFFF, bits >> 32)
    except ValueError as exc:
        if exc.args and exc.args[0].startswith(" ("):
            raise
        raise ValueError("") from None


__all__ = ["Cursor", "convert_literal"]
