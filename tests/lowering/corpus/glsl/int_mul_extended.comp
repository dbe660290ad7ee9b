#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_gpu_shader5 : require
// Extended integer ops: umulExtended/imulExtended (high words), uaddCarry, usubBorrow.
layout(local_size_x = 8) in;
layout(std430) buffer Data {
    uvec4 ua[64];
    uvec4 ub[64];
    ivec4 ia[64];
    ivec4 ib[64];
    uvec4 out_u[256];
    ivec4 out_i[128];
};
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uvec4 hi, lo, carry, borrow;
    umulExtended(ua[i], ub[i], hi, lo);
    uvec4 sum = uaddCarry(ua[i], ub[i], carry);
    uvec4 diff = usubBorrow(ua[i], ub[i], borrow);
    ivec4 ihi, ilo;
    imulExtended(ia[i], ib[i], ihi, ilo);
    out_u[i * 4u] = hi;
    out_u[i * 4u + 1u] = lo;
    out_u[i * 4u + 2u] = sum + carry;
    out_u[i * 4u + 3u] = diff ^ borrow;
    out_i[i * 2u] = ihi;
    out_i[i * 2u + 1u] = ilo;
}
