#version 330
// Default-block uniform arrays indexed dynamically (indirect constant addressing).
in vec4 a_pos;
in int a_index;
uniform vec4 u_offsets[16];
uniform float u_scales[8];
uniform int u_base;
out vec4 v_col;
void main()
{
    int i = (a_index + u_base) & 15;
    vec4 off = u_offsets[i] + u_offsets[(i + 3) & 15];
    float s = u_scales[a_index & 7];
    v_col = off * s;
    gl_Position = a_pos * s + off;
}
