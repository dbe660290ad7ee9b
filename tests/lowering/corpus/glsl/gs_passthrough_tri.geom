#version 330
// Pass-through geometry shader: triangles in, triangle strip out, EmitVertex and
// EndPrimitive, per-vertex varyings and gl_in[].gl_Position.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
in vec2 v_uv[];
out vec4 g_col;
out vec2 g_uv;
void main()
{
    for (int i = 0; i < 3; i++) {
        g_col = v_col[i];
        g_uv = v_uv[i];
        gl_Position = gl_in[i].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}
