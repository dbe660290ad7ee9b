#version 330
// Trigonometric builtins: every one reaches the output.
in vec4 v_a;
in vec4 v_b;
out vec4 frag;
void main()
{
    vec4 s = sin(v_a) + cos(v_b) + tan(v_a * 0.5);
    vec4 inv = asin(clamp(v_b, -1.0, 1.0)) + acos(clamp(v_a, -1.0, 1.0)) + atan(v_a) + atan(v_a, v_b);
    vec4 hyp = sinh(v_a) + cosh(v_b) + tanh(v_a) + asinh(v_b) + acosh(v_a + 2.0) + atanh(v_b * 0.5);
    frag = s + inv * radians(v_b) + hyp * degrees(v_a);
}
