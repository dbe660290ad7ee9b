#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// Every image atomic on r32ui and r32i images: add, min, max, and, or, xor, exchange,
// compare-exchange; results are written back so none is dead.
layout(local_size_x = 16) in;
layout(binding = 0, r32ui) uniform coherent uimage2D u_uimg;
layout(binding = 1, r32i) uniform coherent iimage2D u_iimg;
layout(binding = 2, r32ui) uniform uimageBuffer u_ubuf;
layout(std430, binding = 0) buffer Out { uvec4 ures[]; };
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint id = gl_GlobalInvocationID.x;
    uvec4 u;
    u.x = imageAtomicAdd(u_uimg, p, 1u);
    u.y = imageAtomicMin(u_uimg, p, id) + imageAtomicMax(u_uimg, p, id * 3u);
    u.z = imageAtomicAnd(u_uimg, p, 0xf0f0u) ^ imageAtomicOr(u_uimg, p, 0x0101u) ^ imageAtomicXor(u_uimg, p, id);
    u.w = imageAtomicExchange(u_uimg, p, 7u) + imageAtomicCompSwap(u_uimg, p, 7u, id);
    int s = imageAtomicAdd(u_iimg, p, -1) + imageAtomicMin(u_iimg, p, -int(id)) + imageAtomicMax(u_iimg, p, int(id))
          + imageAtomicAnd(u_iimg, p, 0xff) + imageAtomicOr(u_iimg, p, 0x100) + imageAtomicXor(u_iimg, p, 3)
          + imageAtomicExchange(u_iimg, p, 9) + imageAtomicCompSwap(u_iimg, p, 9, 10);
    uint b = imageAtomicAdd(u_ubuf, int(id), 2u);
    ures[id] = u + uvec4(uint(s), b, 0u, 0u);
}
