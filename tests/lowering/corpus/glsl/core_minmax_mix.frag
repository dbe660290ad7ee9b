#version 330
// min/max/clamp with vector and scalar operands, mix (float, vector and bvec selector),
// step and smoothstep.
in vec4 v_a;
in vec4 v_b;
in vec4 v_t;
out vec4 frag;
void main()
{
    vec4 m = min(v_a, v_b) + max(v_a, 0.5) + clamp(v_b, -1.0, 1.0) + clamp(v_a, v_t, v_t + 2.0);
    vec4 x = mix(v_a, v_b, v_t) + mix(v_a, v_b, 0.25) + mix(v_a, v_b, greaterThan(v_t, vec4(0.5)));
    vec4 s = step(v_t, v_a) + step(0.5, v_b) + smoothstep(v_a, v_b, v_t) + smoothstep(0.0, 1.0, v_t);
    frag = m * x + s;
}
