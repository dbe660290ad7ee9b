#version 430
//! driver: virgl
// virgl flavour: a vertex shader with a UBO, a uniform array with dynamic index,
// gl_VertexID/gl_InstanceID and clip distances.
layout(std140, binding = 0) uniform Camera { mat4 view_proj; vec4 clip_plane; };
uniform mat4 u_models[16];
in vec4 a_pos;
in vec3 a_normal;
out vec3 v_normal;
out float gl_ClipDistance[1];
void main()
{
    mat4 m = u_models[gl_InstanceID & 15];
    vec4 w = m * a_pos;
    v_normal = mat3(m) * a_normal * (gl_VertexID % 2 == 0 ? 1.0 : -1.0);
    gl_ClipDistance[0] = dot(w, clip_plane);
    gl_Position = view_proj * w;
}
