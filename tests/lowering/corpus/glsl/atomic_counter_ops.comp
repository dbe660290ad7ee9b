#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_atomic_counters : require
#extension GL_ARB_shader_atomic_counter_ops : require
// ARB_shader_atomic_counter_ops: add, subtract, min, max, and, or, xor, exchange, comp-swap.
layout(local_size_x = 8) in;
layout(binding = 0, offset = 0) uniform atomic_uint c0;
layout(binding = 0, offset = 4) uniform atomic_uint c1;
layout(binding = 0, offset = 8) uniform atomic_uint c2;
layout(std430, binding = 0) buffer Out { uint res[]; };
void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint r = atomicCounterAddARB(c0, id) + atomicCounterSubtractARB(c1, 1u);
    r ^= atomicCounterMinARB(c2, id) + atomicCounterMaxARB(c2, id * 2u);
    r ^= atomicCounterAndARB(c0, 0xffu) + atomicCounterOrARB(c1, 0x100u) + atomicCounterXorARB(c2, id);
    r ^= atomicCounterExchangeARB(c0, 5u) + atomicCounterCompSwapARB(c1, 5u, id);
    res[id] = r;
}
