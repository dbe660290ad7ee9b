#version 330
// Texture sampling in a geometry shader (textureLod, texelFetch, textureSize) to displace
// emitted vertices.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
uniform sampler2D u_disp;
uniform isamplerBuffer u_ids;
in vec2 v_uv[];
out vec4 g_col;
void main()
{
    int id = texelFetch(u_ids, gl_PrimitiveIDIn).x;
    vec2 sz = vec2(textureSize(u_disp, 0));
    for (int i = 0; i < 3; i++) {
        vec4 d = textureLod(u_disp, v_uv[i], 0.0);
        g_col = d + vec4(float(id)) / vec4(sz, 1.0, 1.0);
        gl_Position = gl_in[i].gl_Position + vec4(0.0, 0.0, d.r, 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
