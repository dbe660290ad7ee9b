#version 430
//! driver: virgl
// Basic triangle patch control shader: layout(vertices = 3), per-vertex pass-through,
// gl_TessLevelOuter/Inner written by invocation 0 from uniforms.
layout(vertices = 3) out;
uniform float u_outer;
uniform float u_inner;
in vec4 v_col[];
out vec4 tc_col[];
void main()
{
    tc_col[gl_InvocationID] = v_col[gl_InvocationID];
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) {
        gl_TessLevelOuter[0] = u_outer;
        gl_TessLevelOuter[1] = u_outer * 1.5;
        gl_TessLevelOuter[2] = u_outer * 2.0;
        gl_TessLevelInner[0] = u_inner;
    }
}
