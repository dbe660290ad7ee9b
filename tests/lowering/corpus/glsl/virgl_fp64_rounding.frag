#version 430
//! driver: virgl
// virgl flavour: double rounding family and fma on doubles and floats.
uniform dvec4 u_a;
uniform dvec4 u_b;
in vec4 v_f;
out vec4 frag;
out vec4 frag_f;
void main()
{
    dvec4 x = u_a * dvec4(v_f);
    dvec4 r = ceil(x) + trunc(u_b) + round(x) + roundEven(u_b) + sign(x) + fma(x, u_b, u_a);
    frag = vec4(r);
    frag_f = fma(v_f, v_f.wzyx, vec4(float(u_a.x)));
}
