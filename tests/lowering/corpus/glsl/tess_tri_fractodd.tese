#version 430
//! driver: virgl
// triangles, fractional_odd_spacing, cw: barycentric interpolation of positions and a
// per-vertex varying with gl_TessCoord, a constant offset.
layout(triangles, fractional_odd_spacing, cw) in;
in vec4 v_color[];
out vec4 te_color;
void main()
{
    vec3 c = gl_TessCoord;
    te_color = v_color[0] * c.x + v_color[1] * c.y + v_color[2] * c.z;
    gl_Position = gl_in[0].gl_Position * c.x + gl_in[1].gl_Position * c.y + gl_in[2].gl_Position * c.z + vec4(0.25, -0.5, 0.0, 0.0);
}
