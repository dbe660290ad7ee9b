#version 330
#extension GL_ARB_gpu_shader_fp64 : require
// Double arithmetic: + - * /, fma, abs, sign, min/max/clamp, floor, ceil, trunc, round,
// roundEven, fract, mod, sqrt, inversesqrt, mix, step, comparisons; dvec uniforms.
uniform dvec4 u_a;
uniform dvec4 u_b;
uniform double u_s;
in vec4 v_f;
out vec4 o_res;
out vec4 o_round;
out vec4 o_cmp;
void main()
{
    dvec4 x = u_a + dvec4(v_f);
    dvec4 y = u_b * u_s;
    dvec4 arith = x + y - x * y + x / (abs(y) + 1.0LF) + fma(x, y, u_a);
    dvec4 m = min(x, y) + max(x, u_s) + clamp(x, -1.0LF, 1.0LF) + abs(x) * sign(y) + mix(x, y, 0.25LF) + step(x, y);
    dvec4 r = floor(x) + ceil(y) + trunc(x) + round(y) + roundEven(x) + fract(y) + mod(x, 3.0LF);
    dvec4 s = sqrt(abs(x)) + inversesqrt(abs(y) + 1.0LF);
    o_res = vec4(arith + m);
    o_round = vec4(r + s);
    o_cmp = vec4(lessThan(x, y)) + vec4(greaterThanEqual(x, y)) * 2.0 + vec4(equal(x, y)) * 4.0
          + vec4(notEqual(x, u_a)) * 8.0 + vec4(x.x < y.y ? 1.0 : 0.0);
}
