#version 430
//! driver: virgl
// Control shader for isolines (only two outer levels used), vertices = 2, writing levels
// from every invocation.
layout(vertices = 2) out;
uniform int u_lines;
uniform int u_segments;
in vec4 v_col[];
out vec4 tc_col[];
void main()
{
    tc_col[gl_InvocationID] = v_col[gl_InvocationID] * 0.5;
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = float(u_lines);
    gl_TessLevelOuter[1] = float(u_segments);
}
