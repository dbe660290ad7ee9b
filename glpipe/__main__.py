"""``python -m glpipe info [--json] [--profile gl33]``: what users paste into bug reports.

The installed ``glpipe-info`` console script is the same command
(``info_main``).

Prints versions (glpipe, moderngl, glcontext, numpy, PyOpenGL, Python), the
host GL (vendor, renderer, version, profile), every cap with its value, the
formats supported per bind flag, and the features table marked native /
fallback / unavailable.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys


def _version(module_name: str) -> str:
    try:
        from importlib.metadata import version

        return version(module_name)
    except Exception:  # not installed as a distribution
        mod = sys.modules.get(module_name)
        return getattr(mod, "__version__", "unknown")


# Bind flags listed per format in the report, in the order a reader scans.
_REPORT_BINDS = ("SAMPLER_VIEW", "RENDER_TARGET", "DEPTH_STENCIL", "VERTEX_BUFFER", "SHADER_IMAGE", "BLENDABLE")


def collect(profile: str | None = None) -> dict:
    """Everything ``info`` reports, as plain JSON-able data."""
    import glpipe
    from glpipe import Bind, Cap, CapF, ComputeCap, Format, ShaderCap, ShaderIR, ShaderType, Target
    from glpipe.debug import DEBUG_ENV, DEBUG_FLAGS
    from glpipe.host.features import feature_report
    from glpipe.host.preload import describe as preload_lines

    screen = glpipe.create_screen(profile=profile)
    try:
        prof = screen.profile

        def plain(v):
            if isinstance(v, (tuple, list)):
                return [plain(x) for x in v]
            if isinstance(v, bool):
                return int(v)
            return v

        caps = {m.name: plain(screen.get_param(m)) for m in Cap}
        capsf = {m.name: screen.get_paramf(m) for m in CapF}
        shader_caps = {st.name: {m.name: plain(screen.get_shader_param(st, m)) for m in ShaderCap} for st in ShaderType}
        compute_caps = {m.name: plain(screen.get_compute_param(ShaderIR.TGSI, m)) for m in ComputeCap}
        formats = {}
        for bind_name in _REPORT_BINDS:
            bind = Bind[bind_name]
            target = Target.BUFFER if bind_name == "VERTEX_BUFFER" else Target.TEXTURE_2D
            formats[bind_name] = [
                f.name for f in Format if f != Format.NONE and screen.is_format_supported(f, target, 0, 0, bind)
            ]
        return {
            "versions": {
                "glpipe": glpipe.__version__,
                "moderngl": _version("moderngl"),
                "glcontext": _version("glcontext"),
                "numpy": _version("numpy"),
                "PyOpenGL": _version("PyOpenGL"),
                "python": platform.python_version(),
                "platform": platform.platform(),
            },
            "host": {
                "profile": prof.name,
                "vendor": prof.vendor,
                "renderer": prof.renderer,
                "version": prof.version_string,
                "glsl_version": prof.glsl_version_string,
                "gl_version_used": prof.gl_version,
                "glsl_version_used": prof.glsl_version,
                "context_platform": screen.host.platform,
                "extensions_visible": len(prof.extensions),
                "extensions_on_host": len(prof.host_extensions),
            },
            "screen": {
                "name": screen.get_name(),
                "vendor": screen.get_vendor(),
                "device_vendor": screen.get_device_vendor(),
            },
            "caps": caps,
            "capsf": capsf,
            "shader_caps": shader_caps,
            "compute_caps": compute_caps,
            "compute": _compute_summary(screen, shader_caps["COMPUTE"], compute_caps),
            "formats": formats,
            "features": feature_report(prof),
            # Host behaviours probed by a draw (glpipe/host/facts.py), with the reason.
            "host_facts": {
                name: {"holds": int(screen.host_facts.has(name)), "reason": screen.host_facts.reasons[name]}
                for name in screen.host_facts.reasons
            },
            # Driver settings made before the driver loaded (glpipe/host/preload.py).
            "host_preload": preload_lines(),
            # GLPIPE_DEBUG (glpipe/debug.py): every flag, and those this screen has on.
            "debug": {"env": DEBUG_ENV, "on": sorted(screen.debug_flags), "flags": dict(DEBUG_FLAGS)},
        }
    finally:
        screen.destroy()


def _compute_summary(screen, cs_caps: dict, compute_caps: dict) -> dict:
    """How launch_grid runs on this screen: on the host's compute shaders or
    emulated by the numpy TGSI executor (docs/compute.md), with its limits."""
    if not compute_caps["IR_TARGET"]:
        return {"status": "unavailable"}
    emulated = compute_caps["IR_TARGET"] == "numpy"
    return {
        "status": "emulated" if emulated else "native",
        "by": "numpy TGSI executor (fallback/tgsi_exec)" if emulated else "host compute shaders",
        "limits": {
            "max_block_size": compute_caps["MAX_BLOCK_SIZE"],
            "max_threads_per_block": compute_caps["MAX_THREADS_PER_BLOCK"],
            "max_shared_bytes": compute_caps["MAX_LOCAL_SIZE"],
            "shader_buffers": cs_caps["MAX_SHADER_BUFFERS"],
            "sampler_views": cs_caps["MAX_SAMPLER_VIEWS"],
            "images": cs_caps["MAX_SHADER_IMAGES"],
            "hw_atomic_buffers": cs_caps["MAX_HW_ATOMIC_COUNTER_BUFFERS"],
        },
        # What the executor refuses at create_compute_state (docs/compute.md "The executor").
        "refused": ["HWATOMIC", "cube / shadow / gather / gradient lookups", "multisampled textures / images"]
        if emulated
        else [],
    }


def _print_text(data: dict, out) -> None:
    w = out.write
    w("glpipe info\n===========\n\n")
    for k, v in data["versions"].items():
        w(f"{k:>10}: {v}\n")
    w("\nHost GL\n-------\n")
    for k, v in data["host"].items():
        w(f"{k:>20}: {v}\n")
    w(
        f"\nScreen: {data['screen']['name']} (vendor {data['screen']['vendor']}, "
        f"device vendor {data['screen']['device_vendor']})\n"
    )
    w("\nFeatures (native / fallback / unavailable)\n------------------------------------------\n")
    for name, row in data["features"].items():
        how = row["status"]
        extra = f"  [{row['by']}]" if row.get("by") else ""
        w(f"  {how:<12} {name}{extra}\n")
        if row.get("cost"):
            w(f"  {'':<12}   cost: {row['cost']}\n")
    w("\nHost facts (probed by a draw)\n-----------------------------\n")
    for name, row in data["host_facts"].items():
        w(f"  {'yes' if row['holds'] else 'no':<4} {name}: {row['reason']}\n")
    w("\nDriver settings made before it loaded\n-------------------------------------\n")
    for line in data.get("host_preload", ()):
        w(f"  {line}\n")
    w("\nCaps\n----\n")
    for k, v in data["caps"].items():
        w(f"  PIPE_CAP_{k} = {v}\n")
    for k, v in data["capsf"].items():
        w(f"  PIPE_CAPF_{k} = {v:g}\n")
    w("\nShader caps\n-----------\n")
    for stage, caps in data["shader_caps"].items():
        w(f"  {stage}:\n")
        for k, v in caps.items():
            w(f"    PIPE_SHADER_CAP_{k} = {v}\n")
    comp = data.get("compute")  # absent from reports collected before issue 16's executor section
    if comp:
        w(f"\nCompute: {comp['status']}" + (f" ({comp['by']})" if comp.get("by") else "") + "\n")
        for k, v in comp.get("limits", {}).items():
            w(f"  {k} = {v}\n")
        if comp.get("refused"):
            w(f"  refused: {', '.join(comp['refused'])}\n")
    w("\nCompute caps (TGSI)\n-------------------\n")
    for k, v in data["compute_caps"].items():
        w(f"  PIPE_COMPUTE_CAP_{k} = {v}\n")
    w(
        "\nFormats by bind flag (TEXTURE_2D; VERTEX_BUFFER on BUFFER)\n"
        "----------------------------------------------------------\n"
    )
    for bind, names in data["formats"].items():
        w(f"  {bind} ({len(names)}):\n")
        for i in range(0, len(names), 4):
            w("    " + "  ".join(names[i : i + 4]) + "\n")
    debug = data["debug"]
    w(
        f"\nDebug flags (${debug['env']}, comma-separated; on: {','.join(debug['on']) or 'none'})\n"
        "-------------------------------------------------------\n"
    )
    for name, what in debug["flags"].items():
        w(f"  {name}: {what}\n")


# Exit status after the reader of stdout went away (``| head``): 128 + SIGPIPE,
# what a shell reports for a program SIGPIPE ended (``yes | head``).
EXIT_BROKEN_PIPE = 141


def _add_info_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--profile",
        choices=("native", "gl33"),
        default=None,
        help="host profile (default: $GLPIPE_HOST_PROFILE or native)",
    )


def _write_report(data: dict, as_json: bool) -> int:
    """Print ``data`` to stdout; a closed pipe ends the output quietly."""
    try:
        if as_json:
            json.dump(data, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            _print_text(data, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        # The Python docs' recipe (signal module, "Note on SIGPIPE"): Python
        # flushes stdout again at exit and would print the error there, so
        # stdout becomes /dev/null before returning.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    return 0


def _info(args) -> int:
    from glpipe.errors import HostGLError

    try:
        data = collect(args.profile)
    except HostGLError as exc:
        print(f"glpipe: {exc}", file=sys.stderr)
        return 2
    return _write_report(data, args.json)


def main(argv=None) -> int:
    """Entry point of ``python -m glpipe`` (a command is required: ``info``)."""
    parser = argparse.ArgumentParser(prog="python -m glpipe", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="print versions, host GL, caps, formats and features")
    _add_info_arguments(info)
    args = parser.parse_args(argv)
    return _info(args)


def info_main(argv=None) -> int:
    """Entry point of the ``glpipe-info`` console script: ``python -m glpipe
    info`` under its own name, with the same options and report."""
    parser = argparse.ArgumentParser(
        prog="glpipe-info", description="print versions, host GL, caps, formats and features"
    )
    _add_info_arguments(parser)
    return _info(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
