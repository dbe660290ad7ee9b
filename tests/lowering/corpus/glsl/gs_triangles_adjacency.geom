#version 330
// triangles_adjacency input (6 vertices): emit the main triangle and, for front-facing
// ones, outline edges whose neighbour faces away.
layout(triangles_adjacency) in;
layout(line_strip, max_vertices = 6) out;
bool facing(vec4 a, vec4 b, vec4 c)
{
    vec2 e1 = b.xy / b.w - a.xy / a.w;
    vec2 e2 = c.xy / c.w - a.xy / a.w;
    return e1.x * e2.y - e1.y * e2.x > 0.0;
}
void main()
{
    vec4 p[6];
    for (int i = 0; i < 6; i++)
        p[i] = gl_in[i].gl_Position;
    if (!facing(p[0], p[2], p[4]))
        return;
    for (int e = 0; e < 3; e++) {
        int a = e * 2;
        int b = (e * 2 + 2) % 6;
        if (!facing(p[a], p[a + 1], p[b])) {
            gl_Position = p[a]; EmitVertex();
            gl_Position = p[b]; EmitVertex();
            EndPrimitive();
        }
    }
}
