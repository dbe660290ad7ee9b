#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_NV_shader_atomic_float : require
// Float atomics (NV_shader_atomic_float, exposed by softpipe): atomicAdd and
// atomicExchange on float SSBO members and on shared memory.
layout(local_size_x = 32) in;
layout(std430) buffer Sums { float total; float last; float per_bin[8]; };
shared float s_sum;
void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i == 0u)
        s_sum = 0.0;
    barrier();
    float v = float(gl_GlobalInvocationID.x) * 0.5;
    atomicAdd(s_sum, v);
    float old = atomicAdd(per_bin[i & 7u], v);
    barrier();
    if (i == 0u)
        atomicAdd(total, s_sum);
    atomicExchange(last, old);
}
