#version 130
// Legacy GLSL 1.30 vertex shader in a core context: gl_VertexID, integer attributes,
// 'out' varyings; no layout qualifiers.
in vec4 position;
in vec3 normal;
uniform mat4 mvp;
out vec3 n;
flat out int vid;
void main()
{
    n = normal;
    vid = gl_VertexID;
    gl_Position = mvp * position;
}
