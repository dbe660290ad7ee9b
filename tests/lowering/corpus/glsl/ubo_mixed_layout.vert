#version 330
// A block with row_major matrices, arrays and a nested struct; indirect member indexing.
struct Joint { vec4 rot; vec4 pos; };
layout(std140, row_major) uniform Rig {
    mat4 world;
    mat3x4 normal_mat;
    Joint joints[12];
    float weights[12];
};
in vec4 a_pos;
in vec3 a_normal;
in int a_joint;
out vec3 v_normal;
out vec4 v_extra;
void main()
{
    Joint j = joints[a_joint];
    vec4 p = world * a_pos + j.pos * weights[a_joint];
    v_normal = (vec4(a_normal, 0.0) * normal_mat).xyz;
    v_extra = j.rot;
    gl_Position = p;
}
