"""``python -m lowering FILE.tgsi [options]``: print the GLSL a TGSI file lowers to.

Errors go to stderr and the exit status is 1: a parse error as
``FILE:line:col: expected ...``, a validation error naming the instruction,
an UnsupportedError naming the opcode and what the target lacks.

Options:
  --glsl-version N     target GLSL version (330 400 410 420 430 440 450 460; default 450)
  --key k=v            a VariantKey field (repeatable), e.g. --key flatshade=1
                       --key color_output_types=float,uint --key nr_cbufs=2
  --extensions E,E     GL extensions the host has (#extension is emitted only for used ones)
  --all-extensions     pretend the host has every extension the emitter knows
  --req-local-mem N    compute shared memory size in bytes
  --reflection         print the reflection record (JSON) after the source
  --bindings           print the binding layout the emitter uses and exit
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import PipeError, ShaderValidationError, TGSIParseError, UnsupportedError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m lowering", description="Lower a TGSI shader to GLSL and print it.")
    p.add_argument("file", nargs="?", help="TGSI text file ('-' for stdin)")
    p.add_argument("--glsl-version", type=int, default=450)
    p.add_argument("--key", action="append", default=[], metavar="K=V", help="VariantKey field")
    p.add_argument("--extensions", default="", help="comma-separated GL extension names")
    p.add_argument("--all-extensions", action="store_true", help="allow every extension the emitter can use")
    p.add_argument("--req-local-mem", type=int, default=None)
    p.add_argument("--reflection", action="store_true", help="also print the reflection as JSON")
    p.add_argument("--bindings", action="store_true", help="print the binding layout and exit")
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    args = _parser().parse_args(argv)
    from .bindings import BindingLayout
    from .glsl import VariantKey, to_glsl
    from .glsl.requirements import FEATURES

    extensions = {e.strip() for e in args.extensions.split(",") if e.strip()}
    if args.all_extensions:
        extensions |= {ext for row in FEATURES.values() for ext in row.extensions}
    if args.bindings:
        print(BindingLayout.default_for(args.glsl_version, extensions).describe())
        return 0
    if not args.file:
        _parser().print_usage(sys.stderr)
        print("python -m lowering: error: a TGSI file is required", file=sys.stderr)
        return 2
    name = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as exc:
        print(f"{name}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        key = VariantKey.parse(args.key)
        shader = to_glsl(
            text, glsl_version=args.glsl_version, key=key, extensions=extensions, req_local_mem=args.req_local_mem
        )
    except TGSIParseError as exc:
        print(f"{name}:{exc.line}:{exc.column}: {exc.message}", file=sys.stderr)
        if exc.source_line:
            print(f"    {exc.source_line}", file=sys.stderr)
            print(f"    {' ' * (exc.column - 1)}^", file=sys.stderr)
        return 1
    except ShaderValidationError as exc:
        where = f":{exc.line}" if exc.line else ""
        print(f"{name}{where}: invalid shader: {exc}", file=sys.stderr)
        return 1
    except UnsupportedError as exc:
        line = getattr(exc, "line", None)  # set when the refusal names a source line
        where = f":{line}" if line else ""
        print(f"{name}{where}: unsupported at GLSL {args.glsl_version}: {exc}", file=sys.stderr)
        return 1
    except PipeError as exc:
        print(f"{name}: error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(shader.source)
    if args.reflection:
        print(json.dumps(shader.reflection.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
