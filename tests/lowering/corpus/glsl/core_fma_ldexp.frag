#version 330
#extension GL_ARB_gpu_shader5 : require
// fma, ldexp, frexp and a 'precise' computation (ARB_gpu_shader5).
in vec4 v_a;
in vec4 v_b;
in vec4 v_c;
flat in ivec4 v_exp;
out vec4 frag;
out ivec4 frag_exp;
void main()
{
    precise vec4 p = v_a * v_b + v_c;
    vec4 f = fma(v_a, v_b, v_c);
    ivec4 e;
    vec4 mant = frexp(v_a + v_b, e);
    vec4 l = ldexp(mant, v_exp);
    frag = p + f + l;
    frag_exp = e;
}
