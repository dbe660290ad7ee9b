#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// Atomics on shared variables (add, min, max, and, or, xor, exchange, comp-swap) and a
// shared struct.
layout(local_size_x = 32) in;
struct Stats { uint count; uint min_v; uint max_v; int balance; };
shared Stats s;
shared uint s_bits[4];
layout(std430, binding = 0) buffer Out { uvec4 outv[]; };
void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i == 0u) {
        s.count = 0u; s.min_v = 0xffffffffu; s.max_v = 0u; s.balance = 0;
        s_bits[0] = 0u; s_bits[1] = 0u; s_bits[2] = 0u; s_bits[3] = 0u;
    }
    barrier();
    uint v = i * 2654435761u;
    uint a = atomicAdd(s.count, 1u);
    atomicMin(s.min_v, v);
    atomicMax(s.max_v, v);
    int b = atomicAdd(s.balance, (i & 1u) == 1u ? 1 : -1);
    uint c = atomicOr(s_bits[i & 3u], 1u << (i & 31u)) ^ atomicAnd(s_bits[(i + 1u) & 3u], ~(1u << i)) ^ atomicXor(s_bits[2], v);
    uint d = atomicExchange(s_bits[3], i) + atomicCompSwap(s_bits[3], i, i + 100u);
    barrier();
    outv[gl_GlobalInvocationID.x] = uvec4(a, c, d, uint(b)) + uvec4(s.count, s.min_v, s.max_v, uint(s.balance));
}
