#version 310 es
// gl_HelperInvocation (GLSL ES 3.10; softpipe exposes ES 3.1 compatibility), with
// precision qualifiers and an SSBO store skipped by helper invocations.
precision highp float;
precision mediump int;
layout(std430, binding = 0) buffer Out { highp uint count; };
in vec4 v_col;
out vec4 frag;
void main()
{
    vec4 d = dFdx(v_col) + dFdy(v_col);
    if (!gl_HelperInvocation)
        atomicAdd(count, 1u);
    frag = v_col + d * (gl_HelperInvocation ? 0.0 : 1.0);
}
