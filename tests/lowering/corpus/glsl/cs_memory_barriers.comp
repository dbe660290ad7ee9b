#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shader_atomic_counters : require
// Every memory barrier function: memoryBarrier, memoryBarrierAtomicCounter,
// memoryBarrierBuffer, memoryBarrierImage, memoryBarrierShared, groupMemoryBarrier, with
// work between them so none can be merged away.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Buf { uint words[]; };
layout(binding = 0, r32ui) uniform coherent uimage2D u_img;
layout(binding = 0, offset = 0) uniform atomic_uint u_ctr;
shared uint s_words[64];
void main()
{
    uint i = gl_LocalInvocationIndex;
    words[i] = i;
    memoryBarrierBuffer();
    imageStore(u_img, ivec2(i, 0), uvec4(words[(i + 1u) & 63u]));
    memoryBarrierImage();
    uint c = atomicCounterIncrement(u_ctr);
    memoryBarrierAtomicCounter();
    s_words[i] = c + imageLoad(u_img, ivec2((i + 2u) & 63u, 0)).x;
    memoryBarrierShared();
    groupMemoryBarrier();
    barrier();
    words[64u + i] = s_words[63u - i];
    memoryBarrier();
    words[128u + i] = words[64u + ((i + 5u) & 63u)];
}
