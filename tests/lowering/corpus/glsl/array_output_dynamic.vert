#version 330
// An output varying array written with a dynamic index.
in vec4 a_pos;
in vec4 a_col;
uniform int u_slot;
out vec4 v_arr[4];
void main()
{
    for (int i = 0; i < 4; i++)
        v_arr[i] = vec4(0.0);
    v_arr[u_slot & 3] = a_col;
    v_arr[(u_slot + 1) & 3] += a_pos;
    gl_Position = a_pos;
}
