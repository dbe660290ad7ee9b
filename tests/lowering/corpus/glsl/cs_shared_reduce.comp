#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// Shared-memory tree reduction: shared array, barrier(), memoryBarrierShared(), loop
// with halving stride.
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];
void main()
{
    uint lid = gl_LocalInvocationID.x;
    partial[lid] = values[gl_GlobalInvocationID.x];
    memoryBarrierShared();
    barrier();
    for (uint stride = 64u; stride > 0u; stride >>= 1u) {
        if (lid < stride)
            partial[lid] += partial[lid + stride];
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0u)
        sums[gl_WorkGroupID.x] = partial[0];
}
