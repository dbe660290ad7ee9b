#version 330
#extension GL_ARB_shader_subroutine : require
// Subroutine uniforms (ARB_shader_subroutine): two subroutine types, several functions.
subroutine vec4 Shade(vec4 c);
subroutine float Weight(float x);
subroutine(Shade) vec4 shade_plain(vec4 c) { return c; }
subroutine(Shade) vec4 shade_gray(vec4 c) { return vec4(vec3(dot(c.rgb, vec3(0.3, 0.59, 0.11))), c.a); }
subroutine(Shade) vec4 shade_invert(vec4 c) { return vec4(1.0) - c; }
subroutine(Weight) float weight_linear(float x) { return x; }
subroutine(Weight) float weight_square(float x) { return x * x; }
subroutine uniform Shade u_shade;
subroutine uniform Weight u_weight;
in vec4 v_col;
out vec4 frag;
void main()
{
    frag = u_shade(v_col) * u_weight(v_col.a);
}
