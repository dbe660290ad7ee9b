#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_gpu_shader5 : require
// Bit-field ops: bitfieldExtract (int and uint), bitfieldInsert, bitfieldReverse,
// bitCount, findLSB, findMSB (int and uint), with constant and variable offsets.
layout(local_size_x = 16) in;
layout(std430) buffer Data {
    uvec4 src_u[16];
    ivec4 src_i[16];
    int offs[16];
    int bits[16];
    uvec4 res_u[64];
    ivec4 res_i[64];
};
void main()
{
    uint i = gl_LocalInvocationIndex;
    uvec4 u = src_u[i];
    ivec4 s = src_i[i];
    int o = offs[i];
    int b = bits[i];
    res_u[i * 4u] = bitfieldExtract(u, o, b);
    res_u[i * 4u + 1u] = bitfieldInsert(u, u.wzyx, 4, 8) + bitfieldInsert(u, ~u, o, b);
    res_u[i * 4u + 2u] = bitfieldReverse(u);
    res_u[i * 4u + 3u] = uvec4(bitCount(u)) + uvec4(findMSB(u)) + uvec4(findLSB(u));
    res_i[i * 4u] = bitfieldExtract(s, o, b) + bitfieldExtract(s, 3, 5);
    res_i[i * 4u + 1u] = bitfieldReverse(s) ^ bitfieldInsert(s, s.yxwz, o, b);
    res_i[i * 4u + 2u] = bitCount(s) + findMSB(s);
    res_i[i * 4u + 3u] = findLSB(s);
}
