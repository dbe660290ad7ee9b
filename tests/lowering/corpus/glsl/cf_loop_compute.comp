#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Integer-counted loops in compute with data-dependent exit (Collatz steps).
layout(local_size_x = 32) in;
layout(std430) buffer Data { uint values[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint n = values[i];
    uint steps = 0u;
    while (n > 1u && steps < 1000u) {
        n = (n & 1u) == 1u ? 3u * n + 1u : n >> 1u;
        steps++;
    }
    values[i] = steps;
}
