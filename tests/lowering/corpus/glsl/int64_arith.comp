#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_gpu_shader_fp64 : require
// 64-bit integers: add, sub, mul, div, mod (signed and unsigned), shifts, bitwise ops,
// comparisons, min/max, abs, sign, conversions to/from 32-bit, float and double,
// packInt2x32/unpackUint2x32.
layout(local_size_x = 8) in;
layout(std430) buffer Data {
    int64_t sa[8];
    int64_t sb[8];
    uint64_t ua[8];
    uint64_t ub[8];
    i64vec2 sres[32];
    u64vec2 ures[32];
    dvec2 dres[8];
};
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int64_t a = sa[i], b = sb[i] | 1L;
    uint64_t c = ua[i], d = ub[i] | 1UL;
    sres[i * 4u] = i64vec2(a + b - a * b, a / b + a % b);
    sres[i * 4u + 1u] = i64vec2(a << 3, a >> int(i));
    sres[i * 4u + 2u] = i64vec2(abs(a) * sign(b), min(a, b) + max(a, -b));
    sres[i * 4u + 3u] = i64vec2(a < b ? 1L : 0L, a == b ? int64_t(i) : packInt2x32(ivec2(int(i), -1)));
    ures[i * 4u] = u64vec2(c + d * c, c / d + c % d);
    ures[i * 4u + 1u] = u64vec2(c << i, (c >> 7) ^ (c & d) ^ (c | ~d));
    ures[i * 4u + 2u] = u64vec2(min(c, d), c >= d ? max(c, d) : uint64_t(a));
    ures[i * 4u + 3u] = u64vec2(uint64_t(i) * 0x100000001UL, uint64_t(unpackUint2x32(c).y));
    dres[i] = dvec2(double(a), double(c)) + dvec2(float(b), float(d));
    sa[i] = int64_t(dres[i].x * 2.0LF) + int64_t(int(i)) + int64_t(float(i));
}
