#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 16, local_size_y = 2, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;

shared uint glp_shared[64];

void main()
{
    uvec4 t0 = uvec4(0u);
    vec4 t1 = vec4(0.0);
    uvec4 t2 = uvec4(0u);
    vec4 t3 = vec4(0.0);
    t0.x = gl_LocalInvocationID.x * 4u;
    if (t0.x >> 2 < 64u) glp_shared[t0.x >> 2] = gl_LocalInvocationID.y;
    memoryBarrierImage();
    memoryBarrierShared();
    barrier();
    t1.xy = uintBitsToFloat(uvec2(glp_shared[0], glp_shared[1]));
    t2.x = atomicAdd(glp_shared[0], 1u);
    uint glp_old1 = glp_shared[1];
    while (true) {
        uint glp_new2 = uint(max(int(glp_old1), -3));
        uint glp_prev3 = atomicCompSwap(glp_shared[1], glp_old1, glp_new2);
        if (glp_prev3 == glp_old1) break;
        glp_old1 = glp_prev3;
    }
    t2.y = glp_old1;
    t2.z = (t0.x >> 2 < 64u ? atomicCompSwap(glp_shared[t0.x >> 2], 0u, 1u) : 0u);
    uint glp_old4 = uint(0);
    if (t0.x >> 2 < 64u) {
        glp_old4 = glp_shared[t0.x >> 2];
        while (true) {
            uint glp_new5 = (glp_old4 + 1u <= 64u) ? glp_old4 + 1u : 0u;
            uint glp_prev6 = atomicCompSwap(glp_shared[t0.x >> 2], glp_old4, glp_new5);
            if (glp_prev6 == glp_old4) break;
            glp_old4 = glp_prev6;
        }
    }
    t2.w = glp_old4;
    memoryBarrierBuffer();
    memoryBarrierAtomicCounter();
    memoryBarrierImage();
    memoryBarrierShared();
    groupMemoryBarrier();
    barrier();
    t3 = uintBitsToFloat(t2) + t1.xyxy;
    uint glp_addr7 = t0.x >> 2;
    ssbo0.d[glp_addr7] = floatBitsToUint(t3.x);
    ssbo0.d[glp_addr7 + 1u] = floatBitsToUint(t3.y);
    ssbo0.d[glp_addr7 + 2u] = floatBitsToUint(t3.z);
    ssbo0.d[glp_addr7 + 3u] = floatBitsToUint(t3.w);
}
