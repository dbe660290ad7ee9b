#version 330
// An input varying array read with a dynamic index.
in vec4 v_arr[6];
flat in int v_sel;
out vec4 frag;
void main()
{
    vec4 s = vec4(0.0);
    for (int i = 0; i < v_sel; i++)
        s += v_arr[i];
    frag = s + v_arr[v_sel % 6] * 2.0;
}
