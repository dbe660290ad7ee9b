#version 330
// Integer attributes and integer math in a vertex shader; flat integer outputs.
in vec4 a_pos;
in ivec4 a_ids;
in uvec2 a_mask;
uniform int u_stride;
uniform uint u_salt;
flat out ivec4 v_ids;
flat out uint v_hash;
void main()
{
    ivec4 id = a_ids * u_stride + ivec4(gl_VertexID);
    uint h = a_mask.x * 2654435761u ^ (a_mask.y + u_salt);
    h ^= h >> 15u;
    h *= 0x2c1b3c6du;
    v_ids = id / max(u_stride, 1);
    v_hash = h;
    gl_Position = a_pos + vec4(float(id.x & 1), 0.0, 0.0, 0.0);
}
