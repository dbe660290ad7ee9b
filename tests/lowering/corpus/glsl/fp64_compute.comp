#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_gpu_shader_fp64 : require
// Doubles in SSBOs: a dvec4 array, double accumulation in a loop, frexp/ldexp on doubles.
layout(local_size_x = 16) in;
layout(std430) buffer Data {
    double scale;
    dvec4 values[];
};
void main()
{
    uint i = gl_GlobalInvocationID.x;
    dvec4 v = values[i];
    double acc = 0.0LF;
    for (int k = 0; k < 4; k++)
        acc += v[k] * scale;
    ivec4 e;
    dvec4 mant = frexp(v, e);
    values[i] = ldexp(mant, e + 1) + dvec4(acc);
}
