#version 330
#extension GL_ARB_arrays_of_arrays : require
// Arrays of arrays: a 2-D local array and a 2-D uniform array, dynamically indexed.
flat in ivec2 v_ij;
in vec4 v_a;
uniform vec4 u_grid[3][4];
out vec4 frag;
void main()
{
    vec4 m[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = v_a * float(i * 3 + j);
    m[v_ij.x % 3][v_ij.y % 3] = u_grid[v_ij.y % 3][v_ij.x & 3];
    frag = m[v_ij.y % 3][v_ij.x % 3] + u_grid[v_ij.x % 3][(v_ij.y + 1) & 3];
}
