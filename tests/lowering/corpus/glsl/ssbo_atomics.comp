#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// SSBO atomics on uint and int members: atomicAdd/Min/Max/And/Or/Xor/Exchange/CompSwap,
// including array elements with dynamic indices.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Counters {
    uint total;
    int signed_total;
    uint bins[16];
    int ibins[16];
};
layout(std430, binding = 1) buffer Out { uvec4 result[]; };
void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint a = atomicAdd(total, 1u);
    uint b = atomicMin(bins[id & 15u], id) + atomicMax(bins[(id + 1u) & 15u], id);
    uint c = atomicAnd(bins[0], ~id) ^ atomicOr(bins[1], id) ^ atomicXor(bins[2], id * 7u);
    uint d = atomicExchange(bins[3], id) + atomicCompSwap(bins[4], id, id + 1u);
    int e = atomicAdd(signed_total, -1) + atomicMin(ibins[id & 15u], -int(id)) + atomicMax(ibins[5], int(id))
          + atomicAnd(ibins[6], 3) + atomicOr(ibins[7], 4) + atomicXor(ibins[8], 5)
          + atomicExchange(ibins[9], 6) + atomicCompSwap(ibins[10], 6, int(id));
    result[id] = uvec4(a, b, c, d) + uvec4(uint(e));
}
