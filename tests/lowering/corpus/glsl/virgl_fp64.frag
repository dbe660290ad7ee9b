#version 430
//! driver: virgl
// virgl flavour: double arithmetic and conversions (virgl exposes ARB_gpu_shader_fp64).
uniform dvec4 u_a;
uniform double u_s;
in vec4 v_f;
out vec4 frag;
void main()
{
    dvec4 x = u_a * double(v_f.x) + dvec4(v_f) / u_s;
    dvec4 y = sqrt(abs(x)) + floor(x) - fract(x);
    frag = vec4(y) + vec4(x.x > y.y ? 1.0 : 0.0);
}
