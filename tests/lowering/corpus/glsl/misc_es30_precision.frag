#version 300 es
// A GLSL ES 3.00 fragment shader with mediump/lowp precision qualifiers, a sampler and
// integer ops (precision has no effect on softpipe but shows up in real content).
precision mediump float;
uniform lowp sampler2D u_tex;
uniform mediump int u_mode;
in highp vec2 v_uv;
in lowp vec4 v_col;
out mediump vec4 frag;
void main()
{
    lowp vec4 t = texture(u_tex, v_uv);
    mediump int m = u_mode & 3;
    frag = m == 0 ? t : (m == 1 ? t * v_col : mix(t, v_col, 0.5));
}
