#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;

layout(std140, binding = 0) uniform glp_cs_cb0
{
    ivec4 c[1];
} cb0;
layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;
layout(std430, binding = 1) buffer glp_cs_ssboarr1_3
{
    uint d[];
} ssboarr1_3[3];
layout(r32ui, binding = 0) uniform uimage2D glp_cs_imgarr0_2[2];

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    ivec4 t1_2 = ivec4(0);
    ivec4 t2 = ivec4(0);
    uvec4 t3 = uvec4(0u);
    ivec4 addr0 = ivec4(0);
    addr0.x = cb0.c[0].x;
    t0_0.x = gl_LocalInvocationID.x * 4u;
    t1_0.x = ssboarr1_3[clamp(addr0.x, 0, 2)].d[t0_0.x >> 2];
    t1_1.y = atomicAdd(ssboarr1_3[clamp(addr0.x, 0, 2)].d[t0_0.x >> 2], 1000u);
    ssboarr1_3[clamp(addr0.x, 0, 2)].d[t0_0.x >> 2] = t1_1.y;
    t1_2.z = ssboarr1_3[clamp(addr0.x, 0, 2)].d.length() * 4;
    t2 = ivec4(0);
    t2.x = int(gl_LocalInvocationID.x);
    t3 = imageLoad(glp_cs_imgarr0_2[clamp(addr0.x, 0, 1)], t2.xy);
    t3.y = imageAtomicMax(glp_cs_imgarr0_2[clamp(addr0.x + 1, 0, 1)], t2.xy, 1000u);
    imageStore(glp_cs_imgarr0_2[clamp(addr0.x, 0, 1)], t2.xy, t3);
    t3.zw = uvec2(0u, 1u);
    t0_1.x = gl_LocalInvocationID.x * 16u;
    uint glp_addr1 = t0_1.x >> 2;
    ssbo0.d[glp_addr1] = t3.x;
    ssbo0.d[glp_addr1 + 1u] = t3.y;
    ssbo0.d[glp_addr1 + 2u] = t3.z;
    ssbo0.d[glp_addr1 + 3u] = t3.w;
}
