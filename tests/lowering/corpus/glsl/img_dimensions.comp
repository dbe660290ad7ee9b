#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_shader_image_size : require
#extension GL_ARB_texture_cube_map_array : require
// Every image dimensionality: 1D, 2D, 3D, cube, 2DRect, buffer, 1D array, 2D array,
// cube array, 2D MS, 2D MS array, with imageLoad/imageStore and imageSize.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 1) in;
layout(binding = 0, rgba16f) uniform image1D u_1d;
layout(binding = 1, rgba16f) uniform image2D u_2d;
layout(binding = 2, rgba16f) uniform image3D u_3d;
layout(binding = 3, rgba16f) uniform imageCube u_cube;
layout(binding = 4, rgba16f) uniform image2DRect u_rect;
layout(binding = 5, rgba32f) uniform imageBuffer u_buf;
layout(binding = 6, rgba16f) uniform image1DArray u_1da;
layout(binding = 7, rgba16f) uniform image2DArray u_2da;
layout(binding = 0, rgba16f) uniform imageCubeArray u_cubea;
layout(binding = 1, rgba16f) uniform image2DMS u_ms;
layout(binding = 2, rgba16f) uniform image2DMSArray u_msa;
layout(std430, binding = 0) buffer Sizes { ivec4 sizes[11]; };
void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    vec4 v = imageLoad(u_1d, p.x) + imageLoad(u_2d, p.xy) + imageLoad(u_3d, p)
           + imageLoad(u_cube, p) + imageLoad(u_rect, p.xy) + imageLoad(u_buf, p.x)
           + imageLoad(u_1da, p.xy) + imageLoad(u_2da, p) + imageLoad(u_cubea, p)
           + imageLoad(u_ms, p.xy, 1) + imageLoad(u_msa, p, 3);
    imageStore(u_1d, p.x, v);
    imageStore(u_2d, p.xy, v);
    imageStore(u_3d, p, v);
    imageStore(u_cube, p, v);
    imageStore(u_rect, p.xy, v);
    imageStore(u_buf, p.x, v);
    imageStore(u_1da, p.xy, v);
    imageStore(u_2da, p, v);
    imageStore(u_cubea, p, v);
    imageStore(u_ms, p.xy, 0, v);
    imageStore(u_msa, p, 2, v);
    if (p == ivec3(0)) {
        sizes[0] = ivec4(imageSize(u_1d), 0, 0, 0);
        sizes[1] = ivec4(imageSize(u_2d), 0, 0);
        sizes[2] = ivec4(imageSize(u_3d), 0);
        sizes[3] = ivec4(imageSize(u_cube), 0, 0);
        sizes[4] = ivec4(imageSize(u_rect), 0, 0);
        sizes[5] = ivec4(imageSize(u_buf), 0, 0, 0);
        sizes[6] = ivec4(imageSize(u_1da), 0, 0);
        sizes[7] = ivec4(imageSize(u_2da), 0);
        sizes[8] = ivec4(imageSize(u_cubea), 0);
        sizes[9] = ivec4(imageSize(u_ms), 0, 0);
        sizes[10] = ivec4(imageSize(u_msa), 0);
    }
}
