#version 450 core
// glpipe: lowered from TGSI GEOM

layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 3) out;

void main()
{
    gl_Position = gl_in[0].gl_Position;
    gl_ViewportIndex = gl_PrimitiveIDIn;
    gl_Layer = 1;
    EmitVertex();
    gl_Position = gl_in[2].gl_Position;
    EmitVertex();
    gl_Position = gl_in[4].gl_Position;
    EmitVertex();
}
