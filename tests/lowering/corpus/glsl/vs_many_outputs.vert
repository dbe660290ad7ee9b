#version 330
// Many varyings of mixed sizes, a struct output and an output block.
struct Surface { vec3 normal; vec3 tangent; float roughness; };
in vec4 a_pos;
in vec3 a_n;
in vec3 a_t;
in vec2 a_uv0;
in vec2 a_uv1;
out Surface v_surf;
out VertexData {
    vec2 uv0;
    vec2 uv1;
    vec3 world;
    float fog;
} v_out;
out float v_a;
out vec2 v_b;
out vec3 v_c;
void main()
{
    v_surf.normal = a_n;
    v_surf.tangent = a_t;
    v_surf.roughness = a_uv1.x;
    v_out.uv0 = a_uv0;
    v_out.uv1 = a_uv1;
    v_out.world = a_pos.xyz * 2.0;
    v_out.fog = length(a_pos.xyz);
    v_a = a_pos.w;
    v_b = a_uv0 * a_uv1;
    v_c = cross(a_n, a_t);
    gl_Position = a_pos;
}
