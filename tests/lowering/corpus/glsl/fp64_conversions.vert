#version 330
#extension GL_ARB_gpu_shader_fp64 : require
// Double conversions: float<->double, int<->double, uint<->double, bool, and
// packDouble2x32 / unpackDouble2x32.
in vec4 a_pos;
in ivec2 a_i;
in uvec2 a_u;
uniform double u_d;
uniform dvec2 u_dv;
out vec4 v_f;
flat out ivec4 v_i;
flat out uvec4 v_u;
void main()
{
    double d = double(a_pos.x) + double(a_i.x) + double(a_u.y) + u_d;
    dvec2 pk = dvec2(packDouble2x32(a_u), packDouble2x32(uvec2(a_i)));
    uvec2 halves = unpackDouble2x32(u_dv.x * d);
    v_f = vec4(float(d), float(pk.x), float(pk.y), float(u_dv.y));
    v_i = ivec4(int(d), int(u_dv.x), int(bool(u_d)), 0);
    v_u = uvec4(uint(abs(d)), halves, uint(u_dv.y));
    gl_Position = a_pos * float(d);
}
