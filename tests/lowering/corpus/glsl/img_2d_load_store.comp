#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// imageLoad / imageStore on 2D images of float, int and uint formats.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba32f) uniform readonly image2D u_src;
layout(binding = 1, rgba32f) uniform writeonly image2D u_dst;
layout(binding = 2, r32i) uniform iimage2D u_count;
layout(binding = 3, rgba8ui) uniform writeonly uimage2D u_mask;
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(u_src, p) + imageLoad(u_src, p + ivec2(1, 0));
    ivec4 k = imageLoad(u_count, p);
    imageStore(u_dst, p, c * 0.5 + vec4(k));
    imageStore(u_count, p, k + ivec4(1));
    imageStore(u_mask, p, uvec4(c * 255.0));
}
