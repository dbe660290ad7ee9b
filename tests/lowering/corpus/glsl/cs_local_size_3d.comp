#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_shader_image_load_store : require
// A 3-D workgroup (2x4x8) writing a 3-D image from gl_GlobalInvocationID.
layout(local_size_x = 2, local_size_y = 4, local_size_z = 8) in;
layout(binding = 0, rgba8) uniform writeonly image3D u_vol;
void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    vec3 f = vec3(p) / vec3(gl_NumWorkGroups * gl_WorkGroupSize);
    imageStore(u_vol, p, vec4(f, float(gl_LocalInvocationIndex) / 64.0));
}
