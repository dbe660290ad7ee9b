#version 430
//! driver: virgl
// triangles with point_mode and equal spacing, cw order: emits points, writes gl_PointSize.
layout(triangles, equal_spacing, cw, point_mode) in;
uniform float u_size;
void main()
{
    vec3 c = gl_TessCoord;
    gl_PointSize = u_size * (c.x + 1.0);
    gl_Position = c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position + c.z * gl_in[2].gl_Position;
}
