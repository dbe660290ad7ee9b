#version 330
// Shifts (logical and arithmetic, by vector and by scalar) and bitwise & | ^ ~.
flat in ivec4 v_i;
flat in uvec4 v_u;
flat in uvec4 v_n;
out ivec4 o_i;
out uvec4 o_u;
void main()
{
    o_i = (v_i << 3) + (v_i >> ivec4(v_n & 31u)) + (v_i >> 1) + ~v_i + (v_i & 0x0f0f) + (v_i | ivec4(v_n)) + (v_i ^ 0x5555);
    o_u = (v_u << v_n) ^ (v_u >> 7u) ^ (v_u >> v_n.yzwx) ^ ~v_u ^ (v_u & v_n) ^ (v_u | 0x80000000u);
}
