#version 330
#extension GL_ARB_gpu_shader5 : require
// Multiple vertex streams: EmitStreamVertex / EndStreamPrimitive on streams 0..2 with
// stream-qualified outputs (points output, as required for streams).
layout(triangles) in;
layout(points, max_vertices = 9) out;
layout(stream = 0) out vec4 s0_pos;
layout(stream = 1) out vec4 s1_normal;
layout(stream = 2) out float s2_area;
in vec3 v_normal[];
void main()
{
    vec3 e1 = gl_in[1].gl_Position.xyz - gl_in[0].gl_Position.xyz;
    vec3 e2 = gl_in[2].gl_Position.xyz - gl_in[0].gl_Position.xyz;
    for (int i = 0; i < 3; i++) {
        s0_pos = gl_in[i].gl_Position;
        gl_Position = gl_in[i].gl_Position;
        EmitStreamVertex(0);
        s1_normal = vec4(v_normal[i], 0.0);
        EmitStreamVertex(1);
    }
    EndStreamPrimitive(0);
    EndStreamPrimitive(1);
    s2_area = 0.5 * length(cross(e1, e2));
    EmitStreamVertex(2);
    EndStreamPrimitive(2);
}
