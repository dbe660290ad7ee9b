#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_compute_variable_group_size : require
#extension GL_ARB_shader_storage_buffer_object : require
//! force: GL_ARB_compute_variable_group_size
// local_size_variable (ARB_compute_variable_group_size, forced: not exposed here): the block
// size is a system value instead of fixed properties.
layout(local_size_variable) in;
layout(std430) buffer Out { uvec4 data[]; };
void main()
{
    uvec3 size = gl_LocalGroupSizeARB;
    uint index = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * size.x * gl_NumWorkGroups.x;
    data[index] = uvec4(size, gl_LocalInvocationIndex);
}
