#version 330
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_viewport_array : require
// Instanced geometry shader (invocations = 4): gl_InvocationID selects gl_Layer and
// gl_ViewportIndex (layered rendering to a cube / viewport array).
layout(triangles, invocations = 4) in;
layout(triangle_strip, max_vertices = 3) out;
uniform mat4 u_face_mats[4];
in vec4 v_col[];
out vec4 g_col;
void main()
{
    for (int i = 0; i < 3; i++) {
        gl_Layer = gl_InvocationID;
        gl_ViewportIndex = 3 - gl_InvocationID;
        g_col = v_col[i] * float(gl_InvocationID + 1);
        gl_Position = u_face_mats[gl_InvocationID] * gl_in[i].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}
