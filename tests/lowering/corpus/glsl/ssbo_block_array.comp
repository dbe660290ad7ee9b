#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// An array of SSBO blocks (constant indices), a dynamically indexed member array and
// row-major matrix members in std430.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Chunk { uint header; float values[]; } chunks[3];
layout(std430, row_major, binding = 3) buffer Mats { mat4 mats[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float a = chunks[0].values[i] + chunks[1].values[i * 2u];
    chunks[2].values[i] = a * float(chunks[1].header);
    mats[i] = mats[i] * mats[(i + 1u) % uint(mats.length())];
    if (i == 0u)
        chunks[2].header = uint(chunks[0].values.length());
}
