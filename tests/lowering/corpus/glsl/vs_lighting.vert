#version 330
// A classic per-vertex Blinn-Phong vertex shader with MVP, normal matrix and two lights.
in vec3 a_pos;
in vec3 a_normal;
in vec2 a_uv;
uniform mat4 u_mvp;
uniform mat4 u_model_view;
uniform mat3 u_normal_matrix;
uniform vec3 u_light_pos[2];
uniform vec3 u_light_col[2];
uniform float u_shininess;
out vec3 v_diffuse;
out vec3 v_specular;
out vec2 v_uv;
void main()
{
    vec3 p = (u_model_view * vec4(a_pos, 1.0)).xyz;
    vec3 n = normalize(u_normal_matrix * a_normal);
    vec3 v = normalize(-p);
    v_diffuse = vec3(0.0);
    v_specular = vec3(0.0);
    for (int i = 0; i < 2; i++) {
        vec3 l = normalize(u_light_pos[i] - p);
        vec3 h = normalize(l + v);
        v_diffuse += u_light_col[i] * max(dot(n, l), 0.0);
        v_specular += u_light_col[i] * pow(max(dot(n, h), 0.0), u_shininess);
    }
    v_uv = a_uv;
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
