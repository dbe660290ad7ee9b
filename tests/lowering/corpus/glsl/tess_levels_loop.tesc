#version 430
//! driver: virgl
// Tessellation levels written with a dynamic index in a loop and read back after a
// barrier; per-vertex output array with two members.
layout(vertices = 4) out;
uniform float u_levels[4];
uniform int u_count;
in vec4 v_col[];
out Vertex { vec4 col; vec2 uv; } tc_out[];
void main()
{
    tc_out[gl_InvocationID].col = v_col[gl_InvocationID];
    tc_out[gl_InvocationID].uv = vec2(gl_InvocationID & 1, gl_InvocationID >> 1);
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) {
        for (int i = 0; i < u_count; i++)
            gl_TessLevelOuter[i] = u_levels[i];
    }
    barrier();
    if (gl_InvocationID == 1) {
        gl_TessLevelInner[0] = (gl_TessLevelOuter[0] + gl_TessLevelOuter[2]) * 0.5;
        gl_TessLevelInner[1] = (gl_TessLevelOuter[1] + gl_TessLevelOuter[3]) * 0.5;
    }
}
