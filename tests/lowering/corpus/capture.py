#!/usr/bin/env python3
"""Regenerate the TGSI corpus from the GLSL sources in ``glsl/``.

What it does
------------
Every ``glsl/<group>_<what>.<stage>`` file (stage = vert, frag, geom, tesc, tese, comp) is
compiled in a child process through Mesa's own GL frontend (st/mesa), linked on its own as a
*separable* program (GL_ARB_separate_shader_objects), so no partner stage is needed and
nothing is removed by cross-stage linking.  Mesa translates it to TGSI at link time (the
"precompile" variant) and hands it to a Gallium driver's ``create_*_state``.  The TGSI text of
the shader under test is written to ``tgsi/<same name>.tgsi`` exactly as Mesa printed it
(tgsi_dump), and ``manifest.json`` lists every file with its stage and how it was captured.

Two capture paths, chosen per file:

* **softpipe** (default).  The child runs with::

      GALLIUM_DRIVER=softpipe SOFTPIPE_DEBUG=use_tgsi GALLIUM_TRACE=<tmp>.xml

  ``use_tgsi`` makes softpipe ask st/mesa for TGSI (st/mesa produces it with nir_to_tgsi), and
  the trace driver records each ``create_{vs,fs,gs,compute}_state`` with its text in
  ``<member name='tokens'>`` (``'prog'`` for compute).  Softpipe on Mesa 22.3 is a GL 3.3 core
  driver with many 4.x extensions, so these shaders use ``#version 330`` plus ``#extension``.
  softpipe has no tessellation at all (its shader caps are 0 for TESS_CTRL/TESS_EVAL), and
  it lacks a few extensions; see the ``driver`` and ``force`` directives below.

* **virgl** (directive ``//! driver: virgl``; needed for tessellation).  Mesa's virgl driver
  (``GALLIUM_DRIVER=virpipe``) speaks the vtest protocol to ``virgl_test_server`` (Debian
  package ``virgl-server``), which renders with the host GL (llvmpipe, GL 4.5), so the virgl
  guest exposes GL 4.3 with tessellation.  virgl converts st/mesa's NIR with nir_to_tgsi and
  sends the TGSI *text* (dumped with float immediates as hex) over the socket.  The trace
  driver only sees NIR there, so this script puts a small relay on the client's hard-wired
  socket path ``/tmp/.virgl_test`` in front of a private server, copies the client's byte
  stream and pulls the ``VIRGL_CCMD_CREATE_OBJECT(VIRGL_OBJECT_SHADER)`` commands out of it.
  These shaders use ``#version 430``.

Directives (comment lines anywhere in a GLSL file):

* ``//! driver: virgl`` -- capture through virgl instead of softpipe.
* ``//! force: GL_EXT_foo GL_ARB_bar`` -- add extensions with ``MESA_EXTENSION_OVERRIDE``.
  Used only for extensions that neither softpipe nor virgl expose on Mesa 22.3 (shader
  ballot / group vote / draw parameters / framebuffer fetch / demote / viewport-layer array):
  st/mesa then compiles them as for a driver that has them.  The TGSI is what Mesa's frontend
  emits, but no Mesa 22.3 driver here would run it; ``manifest.json`` marks these files.

Requirements
------------
* Mesa with the softpipe and trace drivers: Debian's ``libgl1-mesa-dri`` + ``libegl-mesa0``
  (captured with Mesa 22.3.6, Debian 12).
* For ``driver: virgl`` files: ``virgl_test_server`` (``apt-get install virgl-server``) and
  nothing else listening on ``/tmp/.virgl_test``.
* Python packages already needed by glpipe: moderngl (standalone EGL context), PyOpenGL.

Usage
-----
``python tests/lowering/corpus/capture.py``            regenerate everything
``python tests/lowering/corpus/capture.py --only NAME`` one file (stem or file name; repeatable)
``python tests/lowering/corpus/capture.py --stats``  opcode / register-file / property counts
``--jobs N`` parallel softpipe children (default: CPU count), ``--keep-traces DIR`` keeps the
trace XML / vtest streams for debugging.  Exit status 1 if any shader failed; each failure is
reported with the compiler log or the reason nothing was captured.
"""

from __future__ import annotations

import argparse
import array
import concurrent.futures
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
GLSL_DIR = HERE / "glsl"
TGSI_DIR = HERE / "tgsi"
MANIFEST = HERE / "manifest.json"

# GLSL file extension -> (GL shader-type enum, TGSI header, trace method, virgl stage number)
STAGES = {
    "vert": (0x8B31, "VERT", "create_vs_state", 0),
    "frag": (0x8B30, "FRAG", "create_fs_state", 1),
    "geom": (0x8DD9, "GEOM", "create_gs_state", 2),
    "tesc": (0x8E88, "TESS_CTRL", "create_tcs_state", 3),
    "tese": (0x8E87, "TESS_EVAL", "create_tes_state", 4),
    "comp": (0x91B9, "COMP", "create_compute_state", 5),
}
VIRGL_HEADER_BY_STAGE = {v[3]: v[1] for v in STAGES.values()}

SOFTPIPE_ENV = {"GALLIUM_DRIVER": "softpipe", "SOFTPIPE_DEBUG": "use_tgsi"}
VIRGL_ENV = {"GALLIUM_DRIVER": "virpipe"}
# Variables that would change what the children or the vtest server do.
SCRUBBED_ENV = ("GALLIUM_DRIVER", "GALLIUM_TRACE", "SOFTPIPE_DEBUG", "MESA_EXTENSION_OVERRIDE",
                "MESA_GL_VERSION_OVERRIDE", "MESA_GLSL_VERSION_OVERRIDE", "LIBGL_ALWAYS_SOFTWARE",
                "VIRGL_DEBUG", "GALLIUM_TRACE_NIR")

VTEST_CLIENT_SOCKET = "/tmp/.virgl_test"   # hard-wired in Mesa 22.3's vtest winsys
CHILD_TIMEOUT = 60

DIRECTIVE = re.compile(r"^\s*//!\s*([a-z-]+)\s*:\s*(.*?)\s*$", re.M)


@dataclass
class Source:
    """One GLSL file of the corpus and its capture directives."""

    path: Path
    driver: str = "softpipe"
    force: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def stage(self) -> str:
        return self.path.suffix[1:]

    @property
    def header(self) -> str:
        return STAGES[self.stage][1]


@dataclass
class Result:
    source: Source
    ok: bool
    tgsi: str = ""
    error: str = ""
    gl_version: str = ""


def load_source(path: Path) -> Source:
    """Read a GLSL file's directives; reject unknown stages or directives loudly."""
    if path.suffix[1:] not in STAGES:
        raise SystemExit(f"{path}: unknown stage extension {path.suffix!r}")
    src = Source(path)
    for key, value in DIRECTIVE.findall(path.read_text()):
        if key == "driver":
            if value not in ("softpipe", "virgl"):
                raise SystemExit(f"{path}: driver must be softpipe or virgl, not {value!r}")
            src.driver = value
        elif key == "force":
            src.force = value.split()
        else:
            raise SystemExit(f"{path}: unknown directive //! {key}")
    if src.stage in ("tesc", "tese") and src.driver != "virgl":
        raise SystemExit(f"{path}: tessellation needs '//! driver: virgl' (softpipe has none)")
    return src


def clean_env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
    env.update(extra)
    return env


# --------------------------------------------------------------------------------------------
# Child: compile + link one separable program, report as JSON on stdout.
# --------------------------------------------------------------------------------------------

def child_main(path: str) -> int:
    """Run inside the child process: build one separable program and flush."""
    os.environ["PYOPENGL_PLATFORM"] = "egl"
    import moderngl
    import OpenGL
    OpenGL.ERROR_CHECKING = False
    ctx = moderngl.create_context(standalone=True, backend="egl")
    from OpenGL import GL

    gl_enum = STAGES[Path(path).suffix[1:]][0]
    report = {"ok": False, "log": "", "gl_version": ctx.info["GL_VERSION"]}
    shader = GL.glCreateShader(gl_enum)
    GL.glShaderSource(shader, Path(path).read_text())
    GL.glCompileShader(shader)
    if not GL.glGetShaderiv(shader, GL.GL_COMPILE_STATUS):
        report["log"] = "compile failed:\n" + _text(GL.glGetShaderInfoLog(shader))
    else:
        program = GL.glCreateProgram()
        GL.glProgramParameteri(program, GL.GL_PROGRAM_SEPARABLE, GL.GL_TRUE)
        GL.glAttachShader(program, shader)
        GL.glLinkProgram(program)
        if not GL.glGetProgramiv(program, GL.GL_LINK_STATUS):
            report["log"] = "link failed:\n" + _text(GL.glGetProgramInfoLog(program))
        else:
            report["ok"] = True
    # virgl only sends its command buffer to the host on a flush.
    GL.glFinish()
    print(json.dumps(report))
    return 0


def _text(log) -> str:
    return log.decode(errors="replace") if isinstance(log, bytes) else str(log)


def run_child(src: Source, env: dict[str, str]) -> tuple[dict | None, str]:
    """Start the child for ``src``; return (its JSON report or None, diagnostic text)."""
    if src.force:
        env = dict(env, MESA_EXTENSION_OVERRIDE=" ".join("+" + e for e in src.force))
    try:
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                               str(src.path)], env=env, capture_output=True, text=True,
                              timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"child timed out after {CHILD_TIMEOUT}s"
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return None, f"child exited with status {proc.returncode}\n{proc.stderr.strip()}"
    return json.loads(lines[-1]), proc.stderr.strip()


# --------------------------------------------------------------------------------------------
# softpipe: read the trace driver's XML.
# --------------------------------------------------------------------------------------------

def tgsi_from_trace(trace: Path, stage: str) -> list[str]:
    """All TGSI texts handed to the create_*_state of ``stage``, in call order."""
    _, header, method, _ = STAGES[stage]
    member = "prog" if stage == "comp" else "tokens"
    texts = []
    for call in ET.parse(trace).getroot().iter("call"):
        if call.get("method") != method:
            continue
        for m in call.iter("member"):
            if m.get("name") == member:
                text = "".join(m.itertext())
                if text.startswith(header):
                    texts.append(text)
    return texts


def capture_softpipe(src: Source, keep: Path | None) -> Result:
    with tempfile.TemporaryDirectory(prefix="tgsi-corpus-") as tmp:
        trace = Path(tmp) / "trace.xml"
        report, diag = run_child(src, clean_env(dict(SOFTPIPE_ENV, GALLIUM_TRACE=str(trace))))
        if keep and trace.exists():
            shutil.copy(trace, keep / (src.name + ".xml"))
        if report is None:
            return Result(src, False, error=diag)
        if not report["ok"]:
            return Result(src, False, error=report["log"], gl_version=report["gl_version"])
        try:
            texts = tgsi_from_trace(trace, src.stage)
        except (ET.ParseError, FileNotFoundError) as exc:
            return Result(src, False, error=f"unreadable trace {trace.name}: {exc}")
    if not texts:
        return Result(src, False, error=f"no {STAGES[src.stage][2]} with TGSI in the trace")
    # st/mesa may create internal shaders first; the shader under test is the last one.
    return Result(src, True, tgsi=texts[-1], gl_version=report["gl_version"])


# --------------------------------------------------------------------------------------------
# virgl: relay the vtest socket and read shader objects out of the client's command stream.
# --------------------------------------------------------------------------------------------

class VtestTap:
    """A relay on the client's vtest socket path in front of a private virgl_test_server.

    Every client connection is forwarded byte for byte; what the client sends is kept so its
    shader objects can be decoded.  The server passes file descriptors (shared memory for
    resources) as one-byte SCM_RIGHTS messages; the relay forwards such a byte on its own so
    the client's recvmsg() finds the descriptor attached to it.
    """

    def __init__(self, workdir: Path):
        self.server_path = str(workdir / "vtest-upstream.sock")
        self.streams: list[bytearray] = []
        self.open_connections = 0
        self.lock = threading.Condition()
        self.server = None
        self.listener = None

    def start(self) -> None:
        exe = shutil.which("virgl_test_server")
        if exe is None:
            raise RuntimeError("virgl_test_server not found (Debian: apt-get install virgl-server)")
        if os.path.exists(VTEST_CLIENT_SOCKET):
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(VTEST_CLIENT_SOCKET)
                raise RuntimeError(f"something already listens on {VTEST_CLIENT_SOCKET}; "
                                   "stop that vtest server first")
            except (ConnectionRefusedError, FileNotFoundError):
                os.unlink(VTEST_CLIENT_SOCKET)    # stale socket file
            finally:
                probe.close()
        # The server renders with the host GL; pin it to llvmpipe for reproducible caps.
        self.server = subprocess.Popen(
            [exe, "--use-egl-surfaceless", "--socket-path=" + self.server_path],
            env=clean_env({"GALLIUM_DRIVER": "llvmpipe"}),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(self.server_path):
                break
            if self.server.poll() is not None:
                raise RuntimeError("virgl_test_server exited at start-up")
            time.sleep(0.025)
        else:
            raise RuntimeError("virgl_test_server did not create its socket")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(VTEST_CLIENT_SOCKET)
        self.listener.listen(4)
        threading.Thread(target=self._accept, daemon=True).start()

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.close()
            try:
                os.unlink(VTEST_CLIENT_SOCKET)
            except FileNotFoundError:
                pass
        if self.server is not None:
            self.server.terminate()
            try:
                self.server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()

    def take_streams(self, timeout: float = 10.0) -> list[bytes]:
        """Wait until every client connection closed, then hand over their byte streams."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.open_connections and time.monotonic() < deadline:
                self.lock.wait(0.05)
            streams = [bytes(s) for s in self.streams]
            self.streams.clear()
        return streams

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(self.server_path)
            except OSError:
                # The server died: closing the client makes the child fail fast instead of
                # waiting for replies that never come.
                client.close()
                upstream.close()
                continue
            stream = bytearray()
            with self.lock:
                self.streams.append(stream)
                self.open_connections += 1
            threading.Thread(target=self._client_to_server, args=(client, upstream, stream),
                             daemon=True).start()
            threading.Thread(target=self._server_to_client, args=(upstream, client),
                             daemon=True).start()

    def _client_to_server(self, client, upstream, stream: bytearray) -> None:
        try:
            while True:
                data = client.recv(1 << 20)
                if not data:
                    break
                stream += data
                upstream.sendall(data)
        except OSError:
            pass
        finally:
            _shutdown(upstream)
            with self.lock:
                self.open_connections -= 1
                self.lock.notify_all()

    @staticmethod
    def _server_to_client(upstream, client) -> None:
        fd_size = array.array("i").itemsize
        try:
            while True:
                data, ancillary, _, _ = upstream.recvmsg(1 << 16, socket.CMSG_SPACE(16 * fd_size))
                if not data:
                    break
                fds = array.array("i")
                for level, kind, payload in ancillary:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                        fds.frombytes(payload[:len(payload) - len(payload) % fd_size])
                if not fds:
                    client.sendall(data)
                    continue
                # A read that returns descriptors ends with the (one-byte) message carrying them.
                if len(data) > 1:
                    client.sendall(data[:-1])
                client.sendmsg([data[-1:]], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
                for fd in fds:
                    os.close(fd)
        except OSError:
            pass
        finally:
            _shutdown(client)


def _shutdown(sock) -> None:
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass


VIRGL_CREATE_SHADER = 1 | (4 << 8)     # VIRGL_CCMD_CREATE_OBJECT | VIRGL_OBJECT_SHADER << 8
SHADER_OFFSET_CONT = 1 << 31


def shaders_from_vtest(stream: bytes) -> list[tuple[int, str]]:
    """Decode the shader objects in a vtest client stream as (virgl stage, TGSI text).

    The stream mixes vtest messages of several framings, so instead of framing it this looks
    for the CREATE_OBJECT(SHADER) command dword at every byte offset and accepts a hit only if
    the header is consistent and the text starts with the stage's TGSI header.  A shader longer
    than the space left in virgl's command buffer arrives as a first chunk plus continuation
    chunks (same handle, offset with bit 31 set).
    """
    pending: dict[int, tuple[int, int, bytearray]] = {}     # handle -> (stage, length, text)
    done: list[tuple[int, int, str]] = []                   # (position, stage, text)
    pos = stream.find(b"\x01\x04")
    while pos >= 0 and pos + 24 <= len(stream):
        cmd, handle, stage, offlen, _ntok, extra = struct.unpack_from("<6I", stream, pos)
        length_dw = cmd >> 16
        if (cmd & 0xFFFF) == VIRGL_CREATE_SHADER and stage in VIRGL_HEADER_BY_STAGE:
            header = 5
            if not offlen & SHADER_OFFSET_CONT and stage != 5 and extra:
                header += 4 + 2 * extra                      # stream-output description
            start = pos + 4 + 4 * header
            chunk = stream[start:pos + 4 + 4 * length_dw]
            if not offlen & SHADER_OFFSET_CONT:
                head = VIRGL_HEADER_BY_STAGE[stage].encode()
                if chunk.startswith(head) and 0 < offlen < (1 << 24):
                    pending[handle] = (stage, offlen, bytearray(chunk))
            elif handle in pending and (offlen & ~SHADER_OFFSET_CONT) == len(pending[handle][2]):
                pending[handle][2].extend(chunk)
            if handle in pending and len(pending[handle][2]) >= pending[handle][1]:
                stage_, total, text = pending.pop(handle)
                done.append((pos, stage_, bytes(text[:total]).split(b"\0", 1)[0].decode()))
        pos = stream.find(b"\x01\x04", pos + 1)
    return [(stage, text) for _, stage, text in done]


def capture_virgl(src: Source, tap: VtestTap | None, tap_error: str, keep: Path | None) -> Result:
    if tap is None:
        return Result(src, False, error=f"virgl path unavailable: {tap_error}")
    report, diag = run_child(src, clean_env(VIRGL_ENV))
    streams = tap.take_streams()
    if keep:
        (keep / (src.name + ".vtest")).write_bytes(b"".join(streams))
    if report is None:
        return Result(src, False, error=diag)
    if not report["ok"]:
        return Result(src, False, error=report["log"], gl_version=report["gl_version"])
    wanted = STAGES[src.stage][3]
    texts = [text for s in streams for stage, text in shaders_from_vtest(s) if stage == wanted]
    if not texts:
        return Result(src, False, error="no shader of this stage in the vtest stream")
    # st/mesa's own internal shaders (clears, blits) come first; ours is the last one.
    return Result(src, True, tgsi=texts[-1], gl_version=report["gl_version"])


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------

def select_sources(only: list[str]) -> list[Source]:
    paths = sorted(p for p in GLSL_DIR.iterdir() if p.suffix[1:] in STAGES)
    if only:
        wanted = set(only)
        chosen = [p for p in paths if p.name in wanted or p.stem in wanted]
        missing = wanted - {p.name for p in chosen} - {p.stem for p in chosen}
        if missing:
            raise SystemExit("no such GLSL file: " + ", ".join(sorted(missing)))
        paths = chosen
    return [load_source(p) for p in paths]


def header_word(tgsi: str) -> str:
    return tgsi.split(None, 1)[0] if tgsi.strip() else ""


def write_outputs(results: list[Result], full_run: bool) -> None:
    TGSI_DIR.mkdir(exist_ok=True)
    for r in results:
        if r.ok:
            text = r.tgsi if r.tgsi.endswith("\n") else r.tgsi + "\n"
            (TGSI_DIR / (r.source.name + ".tgsi")).write_text(text)
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {"files": {}}
    files = manifest.get("files", {})
    for r in results:
        if r.ok:
            files[r.source.name] = {
                "glsl": f"glsl/{r.source.name}",
                "tgsi": f"tgsi/{r.source.name}.tgsi",
                "processor": header_word(r.tgsi),
                "driver": r.source.driver,
                "gl_version": r.gl_version,
                "forced_extensions": r.source.force,
            }
    if full_run:
        # Forget (and delete) captures whose GLSL source is gone.
        present = {r.source.name for r in results}
        for name in list(files):
            if name not in present:
                del files[name]
        for tgsi in TGSI_DIR.glob("*.tgsi"):
            if tgsi.name[:-len(".tgsi")] not in present:
                tgsi.unlink()
    manifest = {
        "about": "TGSI captured from Mesa's GL frontend by capture.py; see README.md",
        "files": dict(sorted(files.items())),
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n")


INSTRUCTION = re.compile(r"^\s*\d+:\s+([A-Z0-9_]+)")
DECLARATION = re.compile(r"^DCL ([A-Z]+)")
PROPERTY_LINE = re.compile(r"^PROPERTY ([A-Z0-9_]+)")


def corpus_stats() -> str:
    """Count opcodes (modifier suffixes folded), declared register files and properties."""
    opcodes: dict[str, int] = {}
    modifiers: dict[str, int] = {}
    files: dict[str, int] = {}
    properties: dict[str, int] = {}

    def bump(table: dict[str, int], key: str) -> None:
        table[key] = table.get(key, 0) + 1

    paths = sorted(TGSI_DIR.glob("*.tgsi"))
    for path in paths:
        for line in path.read_text().splitlines():
            if m := INSTRUCTION.match(line):
                op = m.group(1)
                for suffix in ("_PRECISE", "_SAT"):
                    if op.endswith(suffix):
                        bump(modifiers, suffix[1:])
                        op = op[:-len(suffix)]
                bump(opcodes, op)
            elif m := DECLARATION.match(line):
                bump(files, m.group(1))
            elif m := PROPERTY_LINE.match(line):
                bump(properties, m.group(1))

    def render(title: str, table: dict[str, int]) -> str:
        items = sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))
        return f"{title} ({len(items)}): " + ", ".join(f"{k} {v}" for k, v in items)

    return "\n".join([f"{len(paths)} files",
                      render("opcodes", opcodes),
                      render("modifiers", modifiers),
                      render("declared files", files),
                      render("properties", properties)])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="capture only this file (stem or file name); repeatable")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel softpipe children")
    parser.add_argument("--keep-traces", type=Path, metavar="DIR",
                        help="keep trace XML / vtest streams here for debugging")
    parser.add_argument("--stats", action="store_true",
                        help="print opcode / register-file / property counts of tgsi/ and exit")
    parser.add_argument("--child", metavar="GLSL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args.child)
    if args.stats:
        print(corpus_stats())
        return 0

    sources = select_sources(args.only)
    if args.keep_traces:
        args.keep_traces.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    results: dict[str, Result] = {}

    virgl_sources = [s for s in sources if s.driver == "virgl"]
    soft_sources = [s for s in sources if s.driver == "softpipe"]

    def run_virgl() -> None:
        with tempfile.TemporaryDirectory(prefix="tgsi-vtest-") as tmp:
            tap, tap_error = VtestTap(Path(tmp)), ""
            try:
                tap.start()
            except (RuntimeError, OSError) as exc:
                tap.stop()
                tap, tap_error = None, str(exc)
            try:
                for s in virgl_sources:
                    results[s.name] = capture_virgl(s, tap, tap_error, args.keep_traces)
            finally:
                if tap is not None:
                    tap.stop()

    virgl_thread = threading.Thread(target=run_virgl) if virgl_sources else None
    if virgl_thread:
        virgl_thread.start()
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for r in pool.map(lambda s: capture_softpipe(s, args.keep_traces), soft_sources):
            results[r.source.name] = r
    if virgl_thread:
        virgl_thread.join()

    ordered = [results[s.name] for s in sources]
    for r in ordered:
        if r.ok and header_word(r.tgsi) != r.source.header:
            r.ok, r.error = False, f"captured text starts with {header_word(r.tgsi)!r}"
    write_outputs(ordered, full_run=not args.only)

    failed = [r for r in ordered if not r.ok]
    for r in failed:
        print(f"FAIL {r.source.name} [{r.source.driver}]\n  " +
              r.error.strip().replace("\n", "\n  "), file=sys.stderr)
    per_stage: dict[str, int] = {}
    for r in ordered:
        if r.ok:
            per_stage[r.source.header] = per_stage.get(r.source.header, 0) + 1
    print(f"captured {len(ordered) - len(failed)}/{len(ordered)} shaders in "
          f"{time.monotonic() - started:.1f}s: " +
          ", ".join(f"{k} {v}" for k, v in sorted(per_stage.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
