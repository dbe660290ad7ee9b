#version 330
// Vertex built-ins: gl_VertexID, gl_InstanceID, gl_PointSize, gl_ClipDistance (array of 4).
in vec4 a_pos;
uniform vec4 u_planes[4];
uniform float u_point_scale;
out vec4 v_info;
out float gl_ClipDistance[4];
void main()
{
    vec4 p = a_pos + vec4(float(gl_InstanceID) * 0.1, float(gl_VertexID % 7) * 0.01, 0.0, 0.0);
    for (int i = 0; i < 4; i++)
        gl_ClipDistance[i] = dot(p, u_planes[i]);
    gl_PointSize = u_point_scale / p.w;
    v_info = vec4(float(gl_VertexID), float(gl_InstanceID), 0.0, 1.0);
    gl_Position = p;
}
