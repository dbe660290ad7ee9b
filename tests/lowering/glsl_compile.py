"""Compile GLSL on the host GL (and with glslangValidator) for the lowering's tests.

``HostCompiler`` owns a throwaway standalone ModernGL context (EGL) and
compiles one shader stage at a time with glCreateShader/glCompileShader
through PyOpenGL, returning the info log on failure.  ``glslang_check``
runs Khronos' reference front end, which catches reliance on Mesa's
leniency; it returns None when the binary is not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

GLSLANG = shutil.which("glslangValidator")
_GLSLANG_SUFFIX = {
    "VERT": "vert",
    "FRAG": "frag",
    "GEOM": "geom",
    "TESS_CTRL": "tesc",
    "TESS_EVAL": "tese",
    "COMP": "comp",
}


class HostCompiler:
    """Compiles single GLSL stages on a private EGL context."""

    def __init__(self):
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        import moderngl
        import OpenGL

        OpenGL.ERROR_CHECKING = False
        from OpenGL import GL

        self.ctx = moderngl.create_context(standalone=True, backend="egl")
        self.GL = GL
        self.extensions = frozenset(self.ctx.extensions)

    def compile(self, source: str, gl_shader_type: int) -> str | None:
        """None if ``source`` compiles, else the driver's info log."""
        GL = self.GL
        with self.ctx:
            shader = GL.glCreateShader(gl_shader_type)
            try:
                GL.glShaderSource(shader, [source])
                GL.glCompileShader(shader)
                ok = GL.glGetShaderiv(shader, GL.GL_COMPILE_STATUS)
                if ok:
                    return None
                log = GL.glGetShaderInfoLog(shader)
                return log.decode(errors="replace") if isinstance(log, bytes) else str(log)
            finally:
                GL.glDeleteShader(shader)

    def release(self) -> None:
        """Drop the context."""
        self.ctx.release()


def glslang_check(source: str, stage: str) -> str | None:
    """None if glslangValidator accepts ``source``; its output otherwise.

    Raises FileNotFoundError when glslangValidator is not installed (callers skip)."""
    if GLSLANG is None:
        raise FileNotFoundError("glslangValidator")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"shader.{_GLSLANG_SUFFIX[stage]}")
        with open(path, "w") as fh:
            fh.write(source)
        proc = subprocess.run([GLSLANG, path], capture_output=True, text=True, timeout=60)
        if proc.returncode == 0:
            return None
        return (proc.stdout + proc.stderr).strip()


def host_limits(compiler: HostCompiler):
    """``lowering.bindings.HostLimits`` of the host context (ModernGL's info plus the
    limits it does not report, queried with glGetIntegerv)."""
    from lowering.bindings import HostLimits

    GL = compiler.GL
    values = dict(compiler.ctx.info)
    names = ["GL_MAX_IMAGE_UNITS", "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"]
    for stage in ("VERTEX", "TESS_CONTROL", "TESS_EVALUATION", "GEOMETRY", "FRAGMENT", "COMPUTE"):
        names += [
            f"GL_MAX_{stage}_IMAGE_UNIFORMS",
            f"GL_MAX_{stage}_ATOMIC_COUNTER_BUFFERS",
            f"GL_MAX_{stage}_SHADER_STORAGE_BLOCKS",
            f"GL_MAX_{stage}_UNIFORM_BLOCKS",
            f"GL_MAX_{stage}_TEXTURE_IMAGE_UNITS",
        ]
    with compiler.ctx:
        for name in names:
            enum = getattr(GL, name, None)
            if enum is not None and name not in values:
                values[name] = int(GL.glGetIntegerv(enum))
    return HostLimits.from_gl(values)
