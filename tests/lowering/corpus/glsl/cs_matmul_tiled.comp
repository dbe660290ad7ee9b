#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_arrays_of_arrays : require
// Tiled matrix multiply: 2-D shared tiles, 2-D workgroup, nested loop with barriers.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
uniform uint u_n;
shared float tile_a[8][8];
shared float tile_b[8][8];
void main()
{
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    float acc = 0.0;
    for (uint t = 0u; t < u_n; t += 8u) {
        tile_a[l.y][l.x] = a[g.y * u_n + t + l.x];
        tile_b[l.y][l.x] = b[(t + l.y) * u_n + g.x];
        barrier();
        for (uint k = 0u; k < 8u; k++)
            acc += tile_a[l.y][k] * tile_b[k][l.x];
        barrier();
    }
    c[g.y * u_n + g.x] = acc;
}
