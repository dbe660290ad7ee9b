#version 330
// Nested if / else if / else on float and integer conditions (non-flattenable: each arm
// has side-effect-free but distinct heavy math).
in vec4 v_a;
flat in int v_mode;
uniform float u_threshold;
out vec4 frag;
void main()
{
    vec4 r;
    if (v_a.x > u_threshold) {
        if (v_mode == 1) {
            r = sin(v_a) * exp2(v_a.yzwx);
        } else if (v_mode == 2) {
            r = cos(v_a) * log2(abs(v_a) + 1.0);
        } else {
            r = sqrt(abs(v_a)) + pow(abs(v_a), v_a.wzyx);
        }
    } else {
        r = v_a * v_a;
        if (r.y < 0.25)
            r = r.yxwz * 3.0 + fract(v_a * 7.0);
    }
    frag = r;
}
