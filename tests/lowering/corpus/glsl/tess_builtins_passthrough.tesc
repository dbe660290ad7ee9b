#version 430
//! driver: virgl
// Pass-through of the gl_PerVertex built-ins through a TCS (gl_Position, gl_PointSize,
// gl_ClipDistance), levels derived from the clip distances.
layout(vertices = 3) out;
in gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[2];
} gl_in[gl_MaxPatchVertices];
out gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[2];
} gl_out[];
void main()
{
    int i = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[i].gl_Position;
    gl_out[gl_InvocationID].gl_PointSize = gl_in[i].gl_PointSize * 2.0;
    gl_out[gl_InvocationID].gl_ClipDistance[0] = gl_in[i].gl_ClipDistance[0];
    gl_out[gl_InvocationID].gl_ClipDistance[1] = gl_in[i].gl_ClipDistance[1];
    float visible = max(gl_in[i].gl_ClipDistance[0], gl_in[i].gl_ClipDistance[1]);
    gl_TessLevelOuter[i] = visible > 0.0 ? 8.0 : 1.0;
    if (i == 0)
        gl_TessLevelInner[0] = 4.0;
}
