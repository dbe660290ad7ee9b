"""Facts about the host GL that no version or extension string tells: probed by a draw,
or looked up in the host quirks table (``FACTS``, ``probe_host_facts``, ``HostFacts``).

docs/lowering.md "Host facts: fine derivatives" lists the drawn facts and their probes;
docs/host.md "Host quirks" the quirks (glpipe/host/quirks.py), which are facts too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from lowering.errors import HostGLError

from .quirks import QUIRKS, Quirk

_SIZE = 4

_VS = """#version 330
void main()
{
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
"""

_FS = """#version 330
out vec4 color;
void main()
{
    float f = gl_FragCoord.x * gl_FragCoord.y;
    color = vec4(dFdx(f), dFdy(f), gl_FragCoord.xy);
}
"""


@dataclass(frozen=True)
class HostFacts:
    """The probed facts: ``holds`` names those that hold; ``reasons[name]`` says why (or why not)."""

    holds: frozenset[str] = frozenset()
    reasons: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    def has(self, name: str) -> bool:
        """Whether fact ``name`` (a key of ``FACTS``) holds on this host."""
        if name not in FACTS:
            raise KeyError(f"unknown host fact {name!r}; known: {sorted(FACTS)}")
        return name in self.holds


def _compile(gl, kind, source: str) -> int:
    shader = gl.glCreateShader(kind)
    gl.glShaderSource(shader, source)
    gl.glCompileShader(shader)
    if not gl.glGetShaderiv(shader, gl.GL_COMPILE_STATUS):
        log = gl.glGetShaderInfoLog(shader)
        gl.glDeleteShader(shader)
        raise HostGLError(f"host fact probe: the host rejected its GLSL 330 shader: {log!r}")
    return shader


def _draw_probe(host, fs_source: str) -> np.ndarray:
    """Draw a full-viewport triangle with ``fs_source`` into a _SIZE^2 RGBA32F
    target; returns its texels (rows bottom-up, as GL numbers window y).
    Restores the program, framebuffer, VAO and viewport bindings it touched."""
    gl = host.gl
    saved_fbo = int(gl.glGetIntegerv(gl.GL_DRAW_FRAMEBUFFER_BINDING))
    saved_read = int(gl.glGetIntegerv(gl.GL_READ_FRAMEBUFFER_BINDING))
    saved_prog = int(gl.glGetIntegerv(gl.GL_CURRENT_PROGRAM))
    saved_vao = int(gl.glGetIntegerv(gl.GL_VERTEX_ARRAY_BINDING))
    saved_tex = int(gl.glGetIntegerv(gl.GL_TEXTURE_BINDING_2D))
    saved_viewport = [int(v) for v in gl.glGetIntegerv(gl.GL_VIEWPORT)]
    vs = _compile(gl, gl.GL_VERTEX_SHADER, _VS)
    fs = _compile(gl, gl.GL_FRAGMENT_SHADER, fs_source)
    prog = gl.glCreateProgram()
    tex = fbo = vao = 0
    try:
        gl.glAttachShader(prog, vs)
        gl.glAttachShader(prog, fs)
        gl.glLinkProgram(prog)
        if not gl.glGetProgramiv(prog, gl.GL_LINK_STATUS):
            raise HostGLError(f"host fact probe: link failed: {gl.glGetProgramInfoLog(prog)!r}")
        tex = int(gl.glGenTextures(1))
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA32F, _SIZE, _SIZE, 0, gl.GL_RGBA, gl.GL_FLOAT, None)
        fbo = int(gl.glGenFramebuffers(1))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, tex, 0)
        gl.glDrawBuffers(1, [gl.GL_COLOR_ATTACHMENT0])
        vao = int(gl.glGenVertexArrays(1))
        gl.glBindVertexArray(vao)
        gl.glViewport(0, 0, _SIZE, _SIZE)
        gl.glUseProgram(prog)
        gl.glDrawArrays(gl.GL_TRIANGLES, 0, 3)
        gl.glReadBuffer(gl.GL_COLOR_ATTACHMENT0)
        data = gl.glReadPixels(0, 0, _SIZE, _SIZE, gl.GL_RGBA, gl.GL_FLOAT)
        return np.frombuffer(bytes(data), np.float32).reshape(_SIZE, _SIZE, 4).copy()
    finally:
        gl.glUseProgram(saved_prog)
        gl.glBindVertexArray(saved_vao)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved_fbo)
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, saved_read)
        gl.glBindTexture(gl.GL_TEXTURE_2D, saved_tex)
        gl.glViewport(*saved_viewport)
        for obj, delete in ((vao, gl.glDeleteVertexArrays), (fbo, gl.glDeleteFramebuffers), (tex, gl.glDeleteTextures)):
            if obj:
                delete(1, [obj])
        gl.glDeleteProgram(prog)
        gl.glDeleteShader(vs)
        gl.glDeleteShader(fs)


def _probe_fine_plain_derivatives(host) -> tuple[bool, str]:
    img = _draw_probe(host, _FS)
    x, y = img[..., 2], img[..., 3]  # gl_FragCoord: pixel centres
    fine = np.array_equal(img[..., 0], y) and np.array_equal(img[..., 1], x)
    coarse = "" if fine else (f"; got d/dx {img[..., 0].ravel().tolist()}, d/dy {img[..., 1].ravel().tolist()}")
    return fine, (
        f"dFdx / dFdy of x*y over a {_SIZE}x{_SIZE} draw {'are' if fine else 'are not'} per pixel pair (fine){coarse}"
    )


def _quirk_probe(quirk: Quirk):
    """The probe of a quirk: a look-up of the host's GL_RENDERER / GL_VERSION in its row
    (running the construct would kill the process; the row's test proves it)."""

    def probe(host) -> tuple[bool, str]:
        profile = host.profile
        holds = quirk.matches(profile.renderer, profile.version_string)
        return holds, (
            f"host quirk ({'holds' if holds else 'does not hold'} for {profile.renderer!r}, "
            f"{profile.version_string!r}): {quirk.what}"
        )

    return probe


#: fact name -> (probe, what it lets glpipe do).
FACTS = MappingProxyType(
    {
        "fine_plain_derivatives": (
            _probe_fine_plain_derivatives,
            "DDX_FINE / DDY_FINE as plain dFdx / dFdy without GL_ARB_derivative_control",
        ),
        **{q.fact: (_quirk_probe(q), q.effect) for q in QUIRKS},
    }
)


def probe_host_facts(host) -> HostFacts:
    """Run every probe of ``FACTS`` once per host (cached on it); the host's context must be current."""
    cached = getattr(host, "_glpipe_host_facts", None)
    if cached is not None:
        return cached
    if not host.on_gl_thread():
        raise HostGLError("probe_host_facts: must run on the thread the host GL context is current on")
    with host.lock:
        cached = getattr(host, "_glpipe_host_facts", None)
        if cached is None:
            host.make_current()
            holds, reasons = set(), {}
            for name, (probe, _) in FACTS.items():
                ok, why = probe(host)
                reasons[name] = why
                if ok:
                    holds.add(name)
            host.clear_errors()
            cached = HostFacts(frozenset(holds), MappingProxyType(reasons))
            host._glpipe_host_facts = cached
    return cached


__all__ = ["FACTS", "HostFacts", "probe_host_facts"]
