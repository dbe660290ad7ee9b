#version 330
// Unsigned arithmetic: + - * / %, min/max/clamp, mixing with int->uint casts.
flat in uvec4 v_a;
flat in uvec4 v_b;
flat in uint v_s;
out uvec4 o_arith;
out uvec4 o_misc;
void main()
{
    uvec4 b = v_b | uvec4(1u);
    o_arith = v_a + v_b - v_a * v_b + v_a / b + v_a % b + v_a / 3u + v_a % 5u;
    o_misc = min(v_a, v_b) + max(v_a, v_s) + clamp(v_b, 2u, 300u) + v_a * 0x10001u;
}
