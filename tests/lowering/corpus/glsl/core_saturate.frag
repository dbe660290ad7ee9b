#version 330
// clamp to [0,1] (saturate) on expressions, constant folding around it, and negation/abs
// source modifiers.
in vec4 v_a;
in vec4 v_b;
out vec4 o0;
out vec4 o1;
void main()
{
    o0 = clamp(v_a * v_b, 0.0, 1.0);
    o1 = clamp(-abs(v_a) + v_b, 0.0, 1.0) + clamp(v_a - v_b, vec4(0.0), vec4(1.0)) * -abs(v_b);
}
