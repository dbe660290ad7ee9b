"""The opcode -> handler table: the union of the per-group tables.

Every opcode of ``lowering.opcodes.OPCODES`` that the emitter lowers has a
row in exactly one of them; ``tests/lowering/test_golden.py`` checks that
the union covers the opcode table (the few opcodes GLSL cannot express have
rows that raise UnsupportedError with the reason).
"""

from __future__ import annotations

from collections.abc import Callable

from .alu import ALU
from .flow import FLOW
from .fragment import FRAGMENT
from .memory import MEMORY
from .texture import TEXTURE
from .wide import WIDE

HANDLERS: dict[str, Callable] = {}
for _table in (ALU, FLOW, FRAGMENT, MEMORY, TEXTURE, WIDE):
    for _name, _handler in _table.items():
        if _name in HANDLERS:
            raise AssertionError(f"opcode {_name} has two handlers")
        HANDLERS[_name] = _handler


def _unsupported(reason: str):
    def handler(em, i, inst):
        from ..errors import UnsupportedError

        raise UnsupportedError(f"{inst.opcode}: {reason}")

    return handler


# Subroutine bounds are consumed by the emitter's walk; reaching one is a bug in the TGSI.
HANDLERS["BGNSUB"] = _unsupported("BGNSUB inside the main program body")
HANDLERS["ENDSUB"] = _unsupported("ENDSUB outside a subroutine")

__all__ = ["HANDLERS"]
