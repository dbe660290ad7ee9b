#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 4, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;

void main()
{
    uvec4 t0 = uvec4(0u);
    t0.x = gl_LocalInvocationID.x * 4u;
    ssbo0.d[t0.x >> 2] = gl_LocalInvocationID.x;
    memoryBarrier();
    memoryBarrier();
    memoryBarrier();
}
