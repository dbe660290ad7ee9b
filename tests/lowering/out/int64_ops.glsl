#version 450 core
#extension GL_ARB_gpu_shader_int64 : require
// glpipe: lowered from TGSI COMP

layout(local_size_x = 4, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;
layout(std430, binding = 1) buffer glp_cs_ssbo1
{
    uint d[];
} ssbo1;

uint64_t glp_u64div(uint64_t a, uint64_t b)
{
    return b == 0ul ? 0xfffffffffffffffful : a / b;
}
int64_t glp_i64div(int64_t a, int64_t b)
{
    return b == 0l ? -1l : (b == -1l ? -a : a / b);
}
uint64_t glp_u64mod(uint64_t a, uint64_t b)
{
    return b == 0ul ? 0xfffffffffffffffful : a % b;
}
int64_t glp_i64mod(int64_t a, int64_t b)
{
    return b == 0l ? -1l : (b == -1l ? 0l : a - b * (a / b));
}

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t0_2 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t2_0 = uvec4(0u);
    uvec4 t2_1 = uvec4(0u);
    uvec4 t2_2 = uvec4(0u);
    uvec4 t2_3 = uvec4(0u);
    uvec4 t3_0 = uvec4(0u);
    uvec4 t3_1 = uvec4(0u);
    uvec4 t3_2 = uvec4(0u);
    uvec4 t3_3 = uvec4(0u);
    uvec4 t4_0 = uvec4(0u);
    uvec4 t4_1 = uvec4(0u);
    uvec4 t4_2 = uvec4(0u);
    uvec4 t4_3 = uvec4(0u);
    uvec4 t4_4 = uvec4(0u);
    uvec4 t5_0 = uvec4(0u);
    uvec4 t5_1 = uvec4(0u);
    uvec4 t5_2 = uvec4(0u);
    uvec4 t5_3 = uvec4(0u);
    uvec4 t6_0 = uvec4(0u);
    uvec4 t6_1 = uvec4(0u);
    uvec4 t6_2 = uvec4(0u);
    t0_0.x = gl_LocalInvocationID.x * 32u;
    uint glp_addr1 = t0_0.x >> 2;
    t1_0 = uvec4(ssbo0.d[glp_addr1], ssbo0.d[glp_addr1 + 1u], ssbo0.d[glp_addr1 + 2u], ssbo0.d[glp_addr1 + 3u]);
    t2_0.xy = unpackUint2x32(packUint2x32(t1_0.xy) + 18446744073709551615ul);
    t2_0.zw = unpackUint2x32(packUint2x32(t1_0.zw) + 5ul);
    t2_1.xy = unpackUint2x32(packUint2x32(t2_0.xy) * packUint2x32(t1_0.zw));
    t3_0.xy = unpackUint2x32(glp_u64div(packUint2x32(t1_0.xy), packUint2x32(t1_0.zw)));
    t3_1.zw = uvec2(unpackInt2x32(glp_i64div(packInt2x32(ivec2(t1_0.zw)), -3l)));
    t4_0.xy = unpackUint2x32(glp_u64mod(packUint2x32(t1_0.xy), 5ul));
    t4_1.zw = uvec2(unpackInt2x32(glp_i64mod(packInt2x32(ivec2(t1_0.zw)), int64_t(0x8000000000000000ul))));
    t5_0.xy = uvec2(unpackInt2x32(min(packInt2x32(ivec2(t2_1.xy)), packInt2x32(ivec2(t3_0.xy)))));
    t5_1.zw = unpackUint2x32(min(packUint2x32(t2_0.zw), packUint2x32(t3_1.zw)));
    t6_0.xy = uvec2(unpackInt2x32(max(packInt2x32(ivec2(t4_0.xy)), packInt2x32(ivec2(t5_0.xy)))));
    t6_0.zw = unpackUint2x32(max(packUint2x32(t4_1.zw), packUint2x32(t5_1.zw)));
    t2_2.xy = uvec2(unpackInt2x32(abs(packInt2x32(ivec2(t6_0.xy)))));
    t2_2.zw = uvec2(unpackInt2x32(abs(packInt2x32(ivec2(t6_0.zw)))));
    t3_2.xy = uvec2(unpackInt2x32(-packInt2x32(ivec2(t2_2.xy))));
    t3_2.zw = uvec2(unpackInt2x32(-packInt2x32(ivec2(t2_2.zw))));
    t4_2.xy = uvec2(unpackInt2x32(sign(packInt2x32(ivec2(t3_2.xy)))));
    t4_2.zw = uvec2(unpackInt2x32(sign(packInt2x32(ivec2(t3_2.zw)))));
    t5_2.xy = unpackUint2x32(packUint2x32(t4_2.xy) << 63u);
    t5_2.zw = uvec2(unpackInt2x32(packInt2x32(ivec2(t4_2.zw)) >> 1u));
    t6_1.xy = unpackUint2x32(packUint2x32(t5_2.xy) >> 16u);
    t6_1.zw = unpackUint2x32(packUint2x32(t5_2.zw) >> 63u);
    t2_3.x = -uint(packUint2x32(t6_1.xy) == packUint2x32(t5_2.xy));
    t2_3.z = -uint(packUint2x32(t6_1.zw) != packUint2x32(t5_2.zw));
    t2_3.y = -uint(packUint2x32(t6_1.xy) < 18446744073709551615ul);
    t2_3.w = -uint(packUint2x32(t6_1.zw) >= 5ul);
    t3_3.x = -uint(packInt2x32(ivec2(t6_1.xy)) < int64_t(0x8000000000000000ul));
    t3_3.z = -uint(packInt2x32(ivec2(t6_1.zw)) >= -3l);
    t4_3.xy = unpackUint2x32(uint64_t(1.5));
    t4_3.zw = unpackUint2x32(uint64_t(1.5));
    t4_4.zw = uvec2(unpackInt2x32(int64_t(-2.5)));
    t5_3.xy = uvec2(unpackInt2x32(int64_t(t1_0.x)));
    t5_3.zw = uvec2(unpackInt2x32(int64_t(int(t1_0.y))));
    t3_3.y = floatBitsToUint(float(packUint2x32(t4_3.xy)));
    t3_3.w = floatBitsToUint(float(packInt2x32(ivec2(t4_4.zw))));
    t0_1.zw = unpackUint2x32(uint64_t(packDouble2x32(t1_0.xy)));
    t6_2.xy = uvec2(unpackInt2x32(int64_t(packDouble2x32(t1_0.zw))));
    t6_2.zw = unpackDouble2x32(double(packUint2x32(t5_3.xy)));
    t1_1.xy = unpackDouble2x32(double(packInt2x32(ivec2(t5_3.xy))));
    t1_1.zw = unpackDouble2x32(double(packInt2x32(ivec2(t5_3.zw))));
    uint glp_addr2 = t0_0.x >> 2;
    ssbo1.d[glp_addr2] = t2_3.x;
    ssbo1.d[glp_addr2 + 1u] = t2_3.y;
    ssbo1.d[glp_addr2 + 2u] = t2_3.z;
    ssbo1.d[glp_addr2 + 3u] = t2_3.w;
    t0_2.x = t0_0.x + 16u;
    uint glp_addr3 = t0_2.x >> 2;
    ssbo1.d[glp_addr3] = t3_3.x;
    ssbo1.d[glp_addr3 + 1u] = t3_3.y;
    ssbo1.d[glp_addr3 + 2u] = t3_3.z;
    ssbo1.d[glp_addr3 + 3u] = t3_3.w;
    uint glp_addr4 = t0_2.x >> 2;
    ssbo0.d[glp_addr4] = t6_2.x;
    ssbo0.d[glp_addr4 + 1u] = t6_2.y;
    ssbo0.d[glp_addr4 + 2u] = t6_2.z;
    ssbo0.d[glp_addr4 + 3u] = t6_2.w;
    uint glp_addr5 = t0_2.x >> 2;
    ssbo0.d[glp_addr5] = t1_1.x;
    ssbo0.d[glp_addr5 + 1u] = t1_1.y;
    ssbo0.d[glp_addr5 + 2u] = t1_1.z;
    ssbo0.d[glp_addr5 + 3u] = t1_1.w;
}
