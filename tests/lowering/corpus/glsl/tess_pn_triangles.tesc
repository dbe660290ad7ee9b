#version 430
//! driver: virgl
// PN-triangle control points: per-patch arrays of control points and vector math in the
// TCS (a heavier realistic shader).
layout(vertices = 3) out;
uniform float u_level;
in vec3 v_normal[];
out vec3 tc_normal[];
patch out vec3 b210, b120, b021, b012, b102, b201, b111;
vec3 project(vec3 p, vec3 q, vec3 n) { return q - dot(q - p, n) * n; }
void main()
{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    tc_normal[gl_InvocationID] = v_normal[gl_InvocationID];
    if (gl_InvocationID == 0) {
        vec3 p0 = gl_in[0].gl_Position.xyz, p1 = gl_in[1].gl_Position.xyz, p2 = gl_in[2].gl_Position.xyz;
        vec3 n0 = v_normal[0], n1 = v_normal[1], n2 = v_normal[2];
        b210 = (2.0 * p0 + p1 - dot(p1 - p0, n0) * n0) / 3.0;
        b120 = (2.0 * p1 + p0 - dot(p0 - p1, n1) * n1) / 3.0;
        b021 = (2.0 * p1 + p2 - dot(p2 - p1, n1) * n1) / 3.0;
        b012 = (2.0 * p2 + p1 - dot(p1 - p2, n2) * n2) / 3.0;
        b102 = (2.0 * p2 + p0 - dot(p0 - p2, n2) * n2) / 3.0;
        b201 = project(p0, (2.0 * p0 + p2) / 3.0, n0);
        vec3 e = (b210 + b120 + b021 + b012 + b102 + b201) / 6.0;
        vec3 v = (p0 + p1 + p2) / 3.0;
        b111 = e + (e - v) / 2.0;
        gl_TessLevelOuter[0] = u_level;
        gl_TessLevelOuter[1] = u_level;
        gl_TessLevelOuter[2] = u_level;
        gl_TessLevelInner[0] = u_level;
    }
}
