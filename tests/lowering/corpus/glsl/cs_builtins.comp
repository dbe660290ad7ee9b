#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// All compute built-ins: gl_GlobalInvocationID, gl_LocalInvocationID,
// gl_LocalInvocationIndex, gl_WorkGroupID, gl_NumWorkGroups, gl_WorkGroupSize.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, binding = 0) buffer Out { uvec4 data[]; };
void main()
{
    uvec3 g = gl_GlobalInvocationID;
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uint flat_index = g.z * n.x * n.y + g.y * n.x + g.x;
    data[flat_index * 3u] = uvec4(g, gl_LocalInvocationIndex);
    data[flat_index * 3u + 1u] = uvec4(gl_LocalInvocationID, gl_WorkGroupSize.x * gl_WorkGroupSize.y);
    data[flat_index * 3u + 2u] = uvec4(gl_WorkGroupID, gl_NumWorkGroups.x + gl_NumWorkGroups.y + gl_NumWorkGroups.z);
}
