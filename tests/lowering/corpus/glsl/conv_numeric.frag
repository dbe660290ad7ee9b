#version 330
// Conversions: float<->int, float<->uint, int<->uint, bool<->numeric, vector casts.
in vec4 v_f;
flat in ivec4 v_i;
flat in uvec4 v_u;
out vec4 o_f;
out ivec4 o_i;
out uvec4 o_u;
void main()
{
    ivec4 fi = ivec4(v_f);
    uvec4 fu = uvec4(abs(v_f));
    vec4 iff = vec4(v_i);
    vec4 uf = vec4(v_u);
    bvec4 b = bvec4(v_i);
    bvec4 bf = bvec4(v_f);
    o_f = iff + uf * 0.5 + vec4(b) + vec4(bf) * 2.0 + vec4(float(v_i.x), float(v_u.y), 0.0, 1.0);
    o_i = fi + ivec4(v_u) + ivec4(b) + ivec4(int(v_f.w), int(v_u.x), int(bf.z), 0);
    o_u = fu + uvec4(v_i) + uvec4(bf) + uvec4(uint(v_f.x), uint(v_i.y), 0u, 7u);
}
