#version 430
//! driver: virgl
// virgl flavour: a TCS with float-literal levels and a boolean-to-float conversion.
layout(vertices = 4) out;
in vec4 v_col[];
out vec4 tc_col[];
void main()
{
    tc_col[gl_InvocationID] = v_col[gl_InvocationID] * float(gl_InvocationID > 1);
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 2.5;
    gl_TessLevelOuter[1] = 3.25;
    gl_TessLevelOuter[2] = 4.0;
    gl_TessLevelOuter[3] = 1.0 + float(gl_PrimitiveID & 3);
    gl_TessLevelInner[0] = 0.75;
    gl_TessLevelInner[1] = 1.5;
}
