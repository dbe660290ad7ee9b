#version 330
// Rounding and friends: fract, floor, ceil, round, roundEven, trunc, mod, modf, abs, sign.
in vec4 v_a;
in vec4 v_b;
out vec4 o_round;
out vec4 o_misc;
void main()
{
    vec4 whole;
    vec4 frac_part = modf(v_a, whole);
    o_round = floor(v_a) + ceil(v_b) * 2.0 + round(v_a) * 3.0 + roundEven(v_b) * 4.0 + trunc(v_a) * 5.0;
    o_misc = fract(v_b) + mod(v_a, v_b) + mod(v_a, 3.5) + abs(v_b) * sign(v_a) + frac_part + whole;
}
