#version 330
// An array of structs in the default uniform block (lights), looped with a uniform count.
struct Light {
    vec3 position;
    vec3 color;
    float radius;
    int kind;
};
uniform Light u_lights[8];
uniform int u_num_lights;
in vec3 v_pos;
in vec3 v_normal;
out vec4 frag;
void main()
{
    vec3 n = normalize(v_normal);
    vec3 total = vec3(0.0);
    for (int i = 0; i < u_num_lights; i++) {
        vec3 d = u_lights[i].position - v_pos;
        float att = clamp(1.0 - length(d) / u_lights[i].radius, 0.0, 1.0);
        float k = u_lights[i].kind == 1 ? 0.5 : 1.0;
        total += u_lights[i].color * max(dot(n, normalize(d)), 0.0) * att * k;
    }
    frag = vec4(total, 1.0);
}
