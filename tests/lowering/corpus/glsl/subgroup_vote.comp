#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_group_vote : require
//! force: GL_ARB_shader_group_vote
// ARB_shader_group_vote: anyInvocationARB, allInvocationsARB, allInvocationsEqualARB
// (extension forced: not exposed by softpipe or virgl on Mesa 22.3).
layout(local_size_x = 64) in;
layout(std430) buffer Data { float values[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float v = values[i];
    bool any_neg = anyInvocationARB(v < 0.0);
    bool all_pos = allInvocationsARB(v > 0.0);
    bool same = allInvocationsEqualARB(v > values[0]);
    values[i] = float(any_neg) + float(all_pos) * 2.0 + float(same) * 4.0 + v;
}
