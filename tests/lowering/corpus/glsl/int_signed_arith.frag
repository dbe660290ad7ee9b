#version 330
// Signed integer arithmetic: + - * / %, unary minus, abs, sign, min/max/clamp.
flat in ivec4 v_a;
flat in ivec4 v_b;
flat in int v_s;
out ivec4 o_arith;
out ivec4 o_misc;
void main()
{
    ivec4 b = v_b | ivec4(1);
    o_arith = v_a + v_b - v_a * v_b + v_a / b + v_a % b - (-v_a);
    o_misc = abs(v_a) * sign(v_b) + min(v_a, v_b) + max(v_a, v_s) + clamp(v_b, -7, 7) + v_a / v_s;
}
