#version 430
//! driver: virgl
// Dynamic indexing of gl_in[] and of per-vertex outputs, a loop over the input patch and a
// per-patch output array.
layout(vertices = 3) out;
uniform int u_rotate;
in vec3 v_normal[];
out vec3 tc_normal[];
patch out float tc_weights[3];
void main()
{
    int src = (gl_InvocationID + u_rotate) % gl_PatchVerticesIn;
    gl_out[gl_InvocationID].gl_Position = gl_in[src].gl_Position;
    tc_normal[gl_InvocationID] = normalize(v_normal[src]);
    barrier();
    if (gl_InvocationID == 0) {
        float sum = 0.0;
        for (int i = 0; i < gl_PatchVerticesIn; i++) {
            tc_weights[i] = length(gl_in[i].gl_Position.xyz);
            sum += tc_weights[i];
        }
        for (int i = 0; i < 3; i++)
            gl_TessLevelOuter[i] = 1.0 + sum * tc_normal[(i + 1) % 3].z;
        gl_TessLevelInner[0] = sum;
    }
}
