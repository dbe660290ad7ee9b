#version 330
// Point sprites: points in, a 4-vertex triangle strip out per point, gl_PointSize in,
// size from a uniform.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
uniform vec2 u_half_size;
in vec4 v_col[];
out vec4 g_col;
out vec2 g_uv;
void main()
{
    vec4 c = gl_in[0].gl_Position;
    float s = gl_in[0].gl_PointSize;
    const vec2 corners[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
    for (int i = 0; i < 4; i++) {
        g_uv = corners[i] * 0.5 + 0.5;
        g_col = v_col[0];
        gl_Position = c + vec4(corners[i] * u_half_size * s, 0.0, 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
