#version 330
// Multiply-add chains, mix with a uniform factor and reciprocal/division patterns.
in vec4 a_pos;
in vec4 a_col;
uniform vec4 u_scale;
uniform vec4 u_bias;
uniform float u_t;
out vec4 v_col;
void main()
{
    vec4 m = a_pos * u_scale + u_bias;
    vec4 l = mix(a_col, m, u_t);
    vec4 r = 1.0 / (abs(a_pos) + 1.0);
    v_col = l + r + a_col / u_scale.x;
    gl_Position = m;
}
