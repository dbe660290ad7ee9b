#version 330
#extension GL_ARB_shader_draw_parameters : require
//! force: GL_ARB_shader_draw_parameters
// gl_BaseVertexARB, gl_BaseInstanceARB, gl_DrawIDARB (extension forced: softpipe and virgl
// do not expose it on Mesa 22.3).
in vec4 a_pos;
uniform vec4 u_draw_offsets[8];
flat out ivec4 v_params;
void main()
{
    v_params = ivec4(gl_BaseVertexARB, gl_BaseInstanceARB, gl_DrawIDARB, gl_VertexID - gl_BaseVertexARB);
    gl_Position = a_pos + u_draw_offsets[gl_DrawIDARB & 7] + vec4(float(gl_InstanceID + gl_BaseInstanceARB));
}
