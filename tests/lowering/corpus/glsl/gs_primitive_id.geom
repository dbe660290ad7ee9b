#version 330
// gl_PrimitiveIDIn read and gl_PrimitiveID written; line strip output.
layout(lines) in;
layout(line_strip, max_vertices = 2) out;
flat out int g_prim;
out float g_t;
void main()
{
    for (int i = 0; i < 2; i++) {
        gl_PrimitiveID = gl_PrimitiveIDIn * 2 + i;
        g_prim = gl_PrimitiveIDIn;
        g_t = float(i);
        gl_Position = gl_in[i].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}
