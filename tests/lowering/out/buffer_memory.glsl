#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;
layout(std430, binding = 1) buffer glp_cs_ssbo1
{
    uint d[];
} ssbo1;

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    ivec4 t0_2 = ivec4(0);
    vec4 t0_3 = vec4(0.0);
    uvec4 t1 = uvec4(0u);
    uvec4 t2 = uvec4(0u);
    uvec4 t3_0 = uvec4(0u);
    uvec4 t3_1 = uvec4(0u);
    uvec4 t3_2 = uvec4(0u);
    uvec4 t4 = uvec4(0u);
    t0_0.x = gl_WorkGroupID.x * 64u + gl_LocalInvocationID.x;
    t0_1.y = t0_0.x * 16u;
    uint glp_addr1 = t0_1.y >> 2;
    t1 = uvec4(ssbo0.d[glp_addr1], ssbo0.d[glp_addr1 + 1u], ssbo0.d[glp_addr1 + 2u], ssbo0.d[glp_addr1 + 3u]);
    uint glp_addr2 = t0_1.y >> 2;
    t2.xz = uvec2(ssbo0.d[glp_addr2 + 1u], ssbo0.d[glp_addr2 + 3u]);
    t2.w = uint(ssbo1.d.length() * 4);
    t3_0.x = atomicAdd(ssbo1.d[0], 1u);
    t3_0.y = atomicExchange(ssbo1.d[1], t1.x);
    t3_0.z = atomicCompSwap(ssbo1.d[4], t1.y, t1.z);
    t3_0.w = atomicAnd(ssbo1.d[t0_1.y >> 2], t1.w);
    t4.x = atomicOr(ssbo1.d[t0_1.y >> 2], t1.x);
    t4.y = atomicXor(ssbo1.d[t0_1.y >> 2], t1.y);
    t4.z = atomicMin(ssbo1.d[t0_1.y >> 2], t1.z);
    t4.w = atomicMax(ssbo1.d[t0_1.y >> 2], t1.w);
    uint glp_old3 = ssbo1.d[16];
    while (true) {
        uint glp_new4 = uint(min(int(glp_old3), -5));
        uint glp_prev5 = atomicCompSwap(ssbo1.d[16], glp_old3, glp_new4);
        if (glp_prev5 == glp_old3) break;
        glp_old3 = glp_prev5;
    }
    t2.y = glp_old3;
    uint glp_old6 = ssbo1.d[16];
    while (true) {
        uint glp_new7 = uint(max(int(glp_old6), 7));
        uint glp_prev8 = atomicCompSwap(ssbo1.d[16], glp_old6, glp_new7);
        if (glp_prev8 == glp_old6) break;
        glp_old6 = glp_prev8;
    }
    t0_2.z = int(glp_old6);
    uint glp_old9 = ssbo1.d[4];
    while (true) {
        uint glp_new10 = floatBitsToUint(uintBitsToFloat(glp_old9) + 0.5);
        uint glp_prev11 = atomicCompSwap(ssbo1.d[4], glp_old9, glp_new10);
        if (glp_prev11 == glp_old9) break;
        glp_old9 = glp_prev11;
    }
    t0_3.w = uintBitsToFloat(glp_old9);
    uint glp_old12 = ssbo1.d[1];
    while (true) {
        uint glp_new13 = (glp_old12 + 1u <= 100u) ? glp_old12 + 1u : 0u;
        uint glp_prev14 = atomicCompSwap(ssbo1.d[1], glp_old12, glp_new13);
        if (glp_prev14 == glp_old12) break;
        glp_old12 = glp_prev14;
    }
    t1.x = glp_old12;
    uint glp_old15 = ssbo1.d[4];
    while (true) {
        uint glp_new16 = (glp_old15 > 0u && glp_old15 < 100u) ? glp_old15 - 1u : 0u;
        uint glp_prev17 = atomicCompSwap(ssbo1.d[4], glp_old15, glp_new16);
        if (glp_prev17 == glp_old15) break;
        glp_old15 = glp_prev17;
    }
    t1.y = glp_old15;
    t3_1 = t3_0 ^ t4;
    t3_2 = t3_1 ^ t2;
    uint glp_addr18 = t0_1.y >> 2;
    ssbo0.d[glp_addr18] = t3_2.x;
    ssbo0.d[glp_addr18 + 1u] = t3_2.y;
    ssbo0.d[glp_addr18 + 2u] = t3_2.z;
    ssbo0.d[glp_addr18 + 3u] = t3_2.w;
    uint glp_addr19 = t0_1.y >> 2;
    ssbo0.d[glp_addr19 + 1u] = t1.y;
    ssbo0.d[glp_addr19 + 3u] = t1.w;
    ssbo1.d[4] = floatBitsToUint(t0_3.w);
}
