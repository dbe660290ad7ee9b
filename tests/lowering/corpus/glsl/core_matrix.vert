#version 330
// Matrix operations: mat*vec, vec*mat, mat*mat, transpose, inverse, determinant,
// outerProduct, matrixCompMult, non-square matrices.
in vec4 a_pos;
in vec3 a_normal;
uniform mat4 u_model;
uniform mat4 u_view;
uniform mat3 u_normal_matrix;
uniform mat2x3 u_skew;
out vec4 v_row;
out vec3 v_normal;
out vec4 v_extra;
void main()
{
    mat4 mv = u_view * u_model;
    mat4 inv = inverse(mv);
    mat3 t = transpose(u_normal_matrix);
    mat3 cm = matrixCompMult(u_normal_matrix, t);
    mat4 op = outerProduct(a_pos, a_pos.wzyx);
    float det = determinant(u_normal_matrix) + determinant(mv);
    v_row = a_pos * u_model + op[2];
    v_normal = cm * a_normal + u_skew * a_pos.xy;
    v_extra = inv[3] + vec4(det);
    gl_Position = mv * a_pos;
}
