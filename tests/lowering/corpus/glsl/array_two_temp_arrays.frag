#version 330
// Two independent dynamically indexed local arrays (distinct array ids), one of floats
// and one of ints.
in vec4 v_a;
flat in ivec2 v_idx;
out vec4 frag;
void main()
{
    float weights[5] = float[5](0.1, 0.2, 0.4, 0.2, 0.1);
    int order[6];
    for (int k = 0; k < 6; k++)
        order[k] = (k * 5 + v_idx.y) % 6;
    weights[v_idx.x % 5] *= v_a.x;
    float s = 0.0;
    for (int k = 0; k < 6; k++)
        s += weights[order[k] % 5] * float(order[(k + v_idx.x) % 6]);
    frag = vec4(s, weights[v_idx.y % 5], float(order[v_idx.x % 6]), 1.0);
}
