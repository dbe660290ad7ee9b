#version 330
#extension GL_ARB_gpu_shader_fp64 : require
// Double matrices: dmat4 * dvec4, dmat3 transpose, dmat2 inverse and determinant,
// outerProduct; a dmat4 uniform array indexed dynamically.
in vec4 a_pos;
in int a_index;
uniform dmat4 u_mvp;
uniform dmat3 u_rot;
uniform dmat2 u_m2;
uniform dmat4 u_inst[4];
out vec4 v_extra;
void main()
{
    dvec4 p = u_mvp * dvec4(a_pos);
    dvec4 q = u_inst[a_index & 3] * p;
    dvec3 r = transpose(u_rot) * p.xyz;
    dmat2 inv = inverse(u_m2);
    double det = determinant(u_m2) + determinant(u_rot);
    dmat2 op = outerProduct(p.xy, r.xy);
    v_extra = vec4(vec2(inv[0] + op[1]), float(det), float(r.z));
    gl_Position = vec4(q);
}
