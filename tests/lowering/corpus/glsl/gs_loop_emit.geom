#version 330
// Data-dependent number of emitted vertices: loop bound from a uniform, dynamic indexing
// of the input arrays, EndPrimitive inside the loop.
layout(triangles) in;
layout(triangle_strip, max_vertices = 18) out;
uniform int u_copies;
uniform vec4 u_shift;
in vec4 v_col[];
out vec4 g_col;
void main()
{
    for (int c = 0; c < u_copies && c < 6; c++) {
        for (int i = 0; i < gl_in.length(); i++) {
            int k = (i + c) % 3;
            g_col = v_col[k];
            gl_Position = gl_in[k].gl_Position + u_shift * float(c);
            EmitVertex();
        }
        EndPrimitive();
    }
}
