#version 330
// Ternary chains that become conditional moves (per-component selects).
in vec4 v_a;
in vec4 v_b;
flat in ivec4 v_i;
out vec4 frag;
void main()
{
    float x = v_a.x > 0.0 ? v_b.x : (v_a.y > 0.0 ? v_b.y : v_b.z);
    vec4 s = mix(v_a, v_b, lessThan(v_a, v_b));
    int k = v_i.x != 0 ? v_i.y : v_i.z;
    frag = s + vec4(x, float(k), v_a.w < 0.5 ? 1.0 : -1.0, v_i.w > 3 ? v_a.w : v_b.w);
}
