#version 330
// A local array written and read with dynamic (non-constant) indices: an indexable
// temporary array.
in vec4 v_a;
flat in int v_i;
flat in int v_j;
out vec4 frag;
void main()
{
    vec4 table[8];
    for (int k = 0; k < 8; k++)
        table[k] = v_a * float(k + 1);
    table[v_i & 7] = vec4(-1.0);
    table[(v_j + 3) & 7] += v_a.wzyx;
    frag = table[v_j & 7] + table[(v_i * 3) & 7];
}
