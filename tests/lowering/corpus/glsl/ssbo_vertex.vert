#version 330
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// Vertex pulling from an SSBO indexed by gl_VertexID / gl_InstanceID, with an unsized array.
struct Vertex { vec4 pos; vec2 uv; vec2 pad; };
layout(std430, binding = 0) readonly buffer Vertices { Vertex verts[]; };
layout(std430, binding = 1) readonly buffer Instances { mat4 inst[]; };
out vec2 v_uv;
void main()
{
    Vertex v = verts[gl_VertexID];
    v_uv = v.uv;
    gl_Position = inst[gl_InstanceID] * v.pos;
}
