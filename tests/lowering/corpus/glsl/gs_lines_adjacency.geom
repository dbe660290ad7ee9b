#version 330
// lines_adjacency input (4 vertices): silhouette-style extrusion using the neighbours.
layout(lines_adjacency) in;
layout(triangle_strip, max_vertices = 4) out;
uniform float u_width;
out float g_edge;
void main()
{
    vec2 prev = gl_in[0].gl_Position.xy;
    vec2 a = gl_in[1].gl_Position.xy;
    vec2 b = gl_in[2].gl_Position.xy;
    vec2 next = gl_in[3].gl_Position.xy;
    vec2 n0 = normalize(vec2(-(b - prev).y, (b - prev).x));
    vec2 n1 = normalize(vec2(-(next - a).y, (next - a).x));
    g_edge = 0.0; gl_Position = vec4(a + n0 * u_width, 0.0, 1.0); EmitVertex();
    g_edge = 1.0; gl_Position = vec4(a - n0 * u_width, 0.0, 1.0); EmitVertex();
    g_edge = 0.0; gl_Position = vec4(b + n1 * u_width, 0.0, 1.0); EmitVertex();
    g_edge = 1.0; gl_Position = vec4(b - n1 * u_width, 0.0, 1.0); EmitVertex();
    EndPrimitive();
}
