#version 450 core
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
// glpipe: lowered from TGSI COMP

layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t1_2 = uvec4(0u);
    uvec4 t1_3 = uvec4(0u);
    uvec4 t2 = uvec4(0u);
    uvec4 t3 = uvec4(0u);
    uvec4 t4 = uvec4(0u);
    t0_0.x = gl_LocalInvocationID.x & 1u;
    t1_0.x = anyInvocationARB(t0_0.x != 0u) ? 0xffffffffu : 0u;
    t1_0.y = allInvocationsARB(t0_0.x != 0u) ? 0xffffffffu : 0u;
    t1_0.zw = uvec2(allInvocationsARB(readFirstInvocationARB(gl_LocalInvocationID.x) == gl_LocalInvocationID.x) ? 0xffffffffu : 0u);
    t2.xy = unpackUint2x32(ballotARB(t0_0.x != 0u));
    t2.zw = unpackUint2x32(gl_SubGroupLtMaskARB);
    t3 = readFirstInvocationARB(gl_LocalInvocationID.xxyy);
    t4.xy = readInvocationARB(uvec2(gl_SubGroupInvocationARB), 3u);
    t4.zw = uvec2(gl_SubGroupSizeARB);
    t1_1 = t1_0 ^ t2;
    t1_2 = t1_1 ^ t3;
    t1_3 = t1_2 ^ t4;
    t0_1.y = gl_LocalInvocationID.x * 16u;
    uint glp_addr1 = t0_1.y >> 2;
    ssbo0.d[glp_addr1] = t1_3.x;
    ssbo0.d[glp_addr1 + 1u] = t1_3.y;
    ssbo0.d[glp_addr1 + 2u] = t1_3.z;
    ssbo0.d[glp_addr1 + 3u] = t1_3.w;
}
