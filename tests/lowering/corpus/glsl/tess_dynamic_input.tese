#version 430
//! driver: virgl
// Dynamic indexing of gl_in[] and per-vertex inputs in the evaluation shader (loop over
// the patch with a uniform weight table).
layout(triangles) in;
uniform float u_bias[3];
in vec3 tc_normal[];
out vec3 te_normal;
void main()
{
    vec4 p = vec4(0.0);
    vec3 n = vec3(0.0);
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        float w = gl_TessCoord[i % 3] + u_bias[i % 3];
        p += gl_in[i].gl_Position * w;
        n += tc_normal[i] * w;
    }
    te_normal = n;
    gl_Position = p;
}
