#version 330
#extension GL_ARB_derivative_control : require
// Derivatives: dFdx/dFdy (default), fine and coarse variants, fwidth variants.
in vec4 v_a;
in vec2 v_uv;
out vec4 o_d;
out vec4 o_w;
void main()
{
    vec4 d = dFdx(v_a) + dFdy(v_a) * 2.0;
    vec4 fine = dFdxFine(v_a) - dFdyFine(v_a);
    vec4 coarse = dFdxCoarse(v_a) * dFdyCoarse(v_a);
    o_d = d + fine + coarse;
    o_w = vec4(fwidth(v_uv), fwidthFine(v_a.x), fwidthCoarse(v_a.y));
}
