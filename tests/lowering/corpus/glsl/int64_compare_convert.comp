#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_gpu_shader_fp64 : require
// More 64-bit integer ops: unsigned < and !=, signed >= and %, ==, conversions from
// double/float to uint64 and int64, zero- and sign-extension from 32 bits, 64-bit
// bit casts (doubleBitsToInt64 / int64BitsToDouble).
layout(local_size_x = 4) in;
layout(std430) buffer Data {
    uint64_t ua[4];
    uint64_t ub[4];
    int64_t sa[4];
    int64_t sb[4];
    double dv[4];
    float fv[4];
    uint u32[4];
    int i32[4];
    uvec4 flags[4];
    u64vec4 uconv[4];
    i64vec4 iconv[4];
};
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint64_t a = ua[i], b = ub[i];
    int64_t c = sa[i], d = sb[i] | 1L;
    flags[i] = uvec4(a < b, a != b, c >= d, a == b);
    uconv[i] = u64vec4(uint64_t(dv[i]), uint64_t(fv[i]), uint64_t(u32[i]), uint64_t(c % d));
    iconv[i] = i64vec4(int64_t(dv[i]), int64_t(fv[i]), int64_t(i32[i]), doubleBitsToInt64(dv[i]) ^ int64_t(u32[i]));
    dv[i] = int64BitsToDouble(c) + uint64BitsToDouble(a);
}
