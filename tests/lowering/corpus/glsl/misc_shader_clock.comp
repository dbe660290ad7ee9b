#version 430
#extension GL_ARB_shader_clock : require
//! driver: virgl
// clock2x32ARB timing around a loop (ARB_shader_clock; softpipe lacks it).
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { float values[64]; uvec2 cycles[]; };
void main()
{
    uvec2 t0 = clock2x32ARB();
    uint i = gl_GlobalInvocationID.x;
    float v = values[i];
    for (int k = 0; k < 16; k++)
        v = sin(v) + 1.0;
    values[i] = v;
    uvec2 t1 = clock2x32ARB();
    cycles[i] = t1 - t0;
}
