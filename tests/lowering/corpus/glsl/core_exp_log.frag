#version 330
// Exponential family: pow, exp, log, exp2, log2, sqrt, inversesqrt (vector and scalar).
in vec4 v_a;
in vec4 v_b;
in float v_s;
out vec4 frag;
void main()
{
    vec4 p = pow(abs(v_a) + 0.5, v_b);
    vec4 e = exp(v_a) + exp2(v_b);
    vec4 l = log(abs(v_b) + 1.0) + log2(abs(v_a) + 1.0);
    vec4 r = sqrt(abs(v_a)) + inversesqrt(abs(v_b) + 0.25);
    float s = pow(v_s, 2.5) + exp2(v_s) * log2(v_s + 3.0) + inversesqrt(v_s + 1.0);
    frag = p + e * l - r + vec4(s);
}
