#version 330
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// imageStore and imageLoad from a vertex shader (vertex data scatter).
layout(binding = 0, rgba32f) uniform writeonly imageBuffer u_out;
layout(binding = 1, r32f) uniform readonly image1D u_weights;
in vec4 a_pos;
void main()
{
    float w = imageLoad(u_weights, gl_VertexID).x;
    imageStore(u_out, gl_VertexID, a_pos * w);
    gl_Position = a_pos * w;
}
