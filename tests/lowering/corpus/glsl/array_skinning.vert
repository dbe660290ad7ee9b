#version 330
// Matrix-palette skinning: a uniform mat4 array indexed by per-vertex bone ids.
in vec4 a_pos;
in vec3 a_normal;
in ivec4 a_bones;
in vec4 a_weights;
uniform mat4 u_bones[32];
uniform mat4 u_view_proj;
out vec3 v_normal;
void main()
{
    mat4 skin = u_bones[a_bones.x] * a_weights.x + u_bones[a_bones.y] * a_weights.y
              + u_bones[a_bones.z] * a_weights.z + u_bones[a_bones.w] * a_weights.w;
    v_normal = mat3(skin) * a_normal;
    gl_Position = u_view_proj * (skin * a_pos);
}
