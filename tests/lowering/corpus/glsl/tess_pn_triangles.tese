#version 430
//! driver: virgl
// PN-triangle evaluation: cubic Bezier triangle from patch control points, quadratic
// normal interpolation.
layout(triangles, fractional_odd_spacing, ccw) in;
uniform mat4 u_mvp;
in vec3 tc_normal[];
patch in vec3 b210, b120, b021, b012, b102, b201, b111;
out vec3 te_normal;
void main()
{
    float u = gl_TessCoord.x, v = gl_TessCoord.y, w = gl_TessCoord.z;
    vec3 b300 = gl_in[0].gl_Position.xyz, b030 = gl_in[1].gl_Position.xyz, b003 = gl_in[2].gl_Position.xyz;
    vec3 p = b300 * w * w * w + b030 * u * u * u + b003 * v * v * v
           + b210 * 3.0 * w * w * u + b120 * 3.0 * w * u * u + b201 * 3.0 * w * w * v
           + b021 * 3.0 * u * u * v + b102 * 3.0 * w * v * v + b012 * 3.0 * u * v * v
           + b111 * 6.0 * w * u * v;
    te_normal = normalize(tc_normal[0] * w + tc_normal[1] * u + tc_normal[2] * v);
    gl_Position = u_mvp * vec4(p, 1.0);
}
