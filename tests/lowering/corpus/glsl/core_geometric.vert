#version 330
// Geometric functions: dot (2/3/4 wide), cross, normalize, length, distance, reflect,
// refract, faceforward.
in vec4 a_pos;
in vec3 a_normal;
in vec2 a_uv;
uniform vec3 u_light;
uniform vec3 u_eye;
uniform float u_eta;
out vec4 v_geo;
out vec3 v_vec;
void main()
{
    vec3 n = normalize(a_normal);
    vec3 l = normalize(u_light - a_pos.xyz);
    float ndl = dot(n, l);
    float d2 = dot(a_uv, a_uv);
    float d4 = dot(a_pos, vec4(u_light, 1.0));
    vec3 c = cross(n, l);
    vec3 rfl = reflect(-l, n);
    vec3 rfr = refract(normalize(u_eye - a_pos.xyz), n, u_eta);
    vec3 ff = faceforward(n, u_eye, a_normal);
    v_geo = vec4(ndl, d2, d4, length(c) + distance(u_eye, a_pos.xyz));
    v_vec = rfl + rfr + ff + c;
    gl_Position = a_pos;
}
