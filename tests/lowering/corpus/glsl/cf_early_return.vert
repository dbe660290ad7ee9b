#version 330
// return from main inside a branch (outputs written before it must survive).
in vec4 a_pos;
in vec4 a_col;
uniform bool u_skip;
out vec4 v_col;
void main()
{
    gl_Position = a_pos;
    v_col = a_col;
    if (u_skip || a_pos.w == 0.0)
        return;
    v_col = a_col * a_pos.w + vec4(0.5);
    gl_Position = a_pos * 2.0;
}
