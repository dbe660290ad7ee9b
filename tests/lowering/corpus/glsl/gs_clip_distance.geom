#version 330
// Geometry shader reading gl_in[].gl_ClipDistance and writing gl_ClipDistance and
// gl_PointSize.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[3];
} gl_in[];
out gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[3];
};
uniform vec4 u_plane;
void main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gl_PointSize = gl_in[i].gl_PointSize + 1.0;
        gl_ClipDistance[0] = gl_in[i].gl_ClipDistance[0];
        gl_ClipDistance[1] = dot(gl_in[i].gl_Position, u_plane);
        gl_ClipDistance[2] = gl_in[i].gl_ClipDistance[2] * 0.5;
        EmitVertex();
    }
}
