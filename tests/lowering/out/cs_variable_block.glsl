#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 8, local_size_y = 4, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;

void main()
{
    uvec4 t0 = uvec4(0u);
    uvec4 t1 = uvec4(0u);
    t0.x = gl_LocalInvocationID.x * 4u;
    t1 = gl_WorkGroupSize.xyzx;
    ssbo0.d[t0.x >> 2] = t1.y;
}
