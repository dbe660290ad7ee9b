#version 330
// std140 packing corner cases: scalar arrays (16-byte stride), vec3 followed by float,
// mat2 columns, bool and uint members.
layout(std140) uniform Pack {
    float scalars[4];
    vec3 dir;
    float len;
    mat2 rot;
    bool enabled;
    uint mask;
    vec2 uv_scale;
};
in vec2 v_uv;
flat in int v_k;
out vec4 frag;
void main()
{
    vec2 uv = rot * (v_uv * uv_scale);
    float s = scalars[v_k & 3] + scalars[0];
    frag = enabled ? vec4(uv, s * len, float(mask & 0xffu)) + vec4(dir, 0.0) : vec4(0.0);
}
